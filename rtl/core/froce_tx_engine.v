// SPDX-License-Identifier: MIT
// Requester: SQ doorbells -> WQE fetch -> segmentation and PSNs -> gather DMA -> TX builder; also sends the responder's ACKs.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"
`include "froce_core_defs.vh"

/*
 * Scheduling. A doorbell stores the SQ producer index and puts the QP on the
 * active list (a FIFO holding each QP at most once). The engine takes one QP
 * from the list, sends one WQE (all its packets) and puts the QP back at the
 * tail if it may have more work: QPs share the wire WQE by WQE, round robin.
 * A QP leaves the list when its SQ is empty, it is not in RTS, or its window
 * of OUTSTANDING unacknowledged WQEs is full; the completer's kick puts it
 * back when it retires WQEs.
 *
 * One WQE:
 *   fetch      (1 << SQ_WQE_SHIFT) bytes at SQ_VA + (index mod size) <<
 *              SQ_WQE_SHIFT through the MR/MTT unit (RING_KEY, PDN) and the
 *              DMA read engine into the WQE buffer
 *   decode     WQE_CTRL; WQE_INDEX must equal the index (else WQE_STALE);
 *              WQE_RADDR for RDMA WRITE; then WQE_DATA segments or inline data
 *   validate   every SGE through the MR/MTT unit (lkey, PDN, range); nothing
 *              is sent for a WQE that fails (LOC_PROT_ERR)
 *   packets    PSN after PSN, payload min(MTU, remaining) each, opcodes
 *              FIRST/MIDDLE/LAST/ONLY (+ immediate on the last), RETH on the
 *              first WRITE packet, AckReq and SE on the last; the header goes
 *              to the builder, the payload is gathered piece by piece (one
 *              piece per SGE part, one DMA descriptor per MR page) and packed
 *   record     in-flight table entry (PSN range, index, signaled, opcode) for
 *              the completer, which retires it on the covering ACK
 *
 * Payload path: every piece gets an entry in the order FIFO (DMA, INLINE from
 * the WQE buffer, or ZERO bytes); the source mux feeds the pieces in that
 * order into froce_axis_pack, which packs a packet's pieces for the builder.
 * DMA read tags: bit 2 = WQE fetch (to the WQE buffer), bit 1 = last
 * descriptor of a piece, bit 0 = last piece of the packet.
 *
 * UD QPs: WQE_UD follows the control segment; one UD SEND ONLY packet per WQE
 * (DETH, path from the WQE's address vector, no AckReq); no in-flight entry
 * and no window: the WQE completes (S_UD_CQE) once its payload was read.
 *
 * Long messages do not hold the engine: at every packet boundary a waiting
 * rewind (any QP's) or an RNR hold stops the WQE, which goes on from that PSN
 * at the QP's next turn (fetched again; the gather cursor jumps straight to
 * the PSN); kicks and doorbells are taken while packets are gathered; the
 * engine keeps at most max(TX_AHEAD_BYTES, MTU) payload bytes queued at the
 * builder, so a rewind reaches the wire within about a packet.
 *
 * ACKs and NAKs from the responder (s_resp_*: their own fields only) go to
 * the builder between two requester packets, first, addressed from their
 * QP's context like its requests (ctx is loaded for them: S_ACK_CTX, and
 * S_JOB_CTX for a READ response job). READ response jobs take turns every
 * JOB_QUANTUM packets (a job FIFO holds the half-sent ones) and a READ asked
 * again voids its QP's older jobs (READ epochs).
 *
 * Errors (this engine's own): the WQE completes with the IB status on the
 * send CQ (CQE request on m_cqe_*) and the QP's send side stops: later WQEs
 * complete with WR_FLUSH_ERR.
 */
module froce_tx_engine #(
    parameter DATA_WIDTH = 64,
    parameter NUM_QPS = 256,
    parameter NUM_GIDS = 16,
    parameter OUTSTANDING = 32,         // unacknowledged WQEs per QP, a power of two
    parameter RD_ATOMIC_MAX = 8,        // READ/atomic WQEs outstanding per QP at most (QPC.MAX_RD_ATOMIC clamped)
    parameter ACKREQ_SHIFT = 4,         // AckReq on every 2^ACKREQ_SHIFT-th PSN (and on every message's last packet)
    parameter JOB_SLOTS = 4,            // READ response jobs that can wait half-sent, a power of two >= 2
    parameter JOB_QUANTUM = 4,          // packets a READ response job sends before another job may take over
    parameter RR_QUANTUM_BYTES = 16384, // payload a WQE sends in one turn while other QPs wait
    parameter TX_AHEAD_BYTES = 1024,    // payload bytes queued at the builder (or one MTU if more) before the next packet waits
    // derived: leave at their defaults
    parameter QW = $clog2(NUM_QPS),
    parameter GW = $clog2(NUM_GIDS),
    parameter OW = $clog2(OUTSTANDING),
    parameter QPC_BITS = `FROCE_QPC_SIZE * 8,
    parameter GID_BITS = `FROCE_GID_CTX_SIZE * 8,
    parameter CQE_BITS = `FROCE_CQE_SIZE * 8,
    parameter IF_BITS = `FROCE_INFLIGHT_BITS
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Context commits from the context store: qpc_we only with qpc_ready */
    output wire                         qpc_ready,
    input  wire                         qpc_we,
    input  wire [QW-1:0]                qpc_waddr,
    input  wire [QPC_BITS-1:0]          qpc_wdata,
    input  wire                         qpc_load_reset,
    input  wire                         qpc_load_sq_psn,
    input  wire                         gid_we,
    input  wire [GW-1:0]                gid_waddr,
    input  wire [GID_BITS-1:0]          gid_wdata,

    /* SQ doorbells (after the UAR check) */
    input  wire                         s_db_valid,
    output wire                         s_db_ready,
    input  wire [23:0]                  s_db_qpn,
    input  wire [15:0]                  s_db_pi,

    /* Kicks from the completer: WQEs retired, the window moved */
    input  wire                         s_kick_valid,
    output wire                         s_kick_ready,
    input  wire [QW-1:0]                s_kick_qpn,

    /* Go-back-N from the completer: resend QP s_rw_qpn from PSN s_rw_psn */
    input  wire                         s_rw_valid,
    output wire                         s_rw_ready,
    input  wire [QW-1:0]                s_rw_qpn,
    input  wire [23:0]                  s_rw_psn,

    /* Response headers from the responder (empty payload) */
    input  wire                         s_resp_valid,
    output wire                         s_resp_ready,
    input  wire [`FROCE_RESP_W-1:0]     s_resp_hdr,     // FROCE_RESP_* fields; the path is its QP's
    input  wire                         s_resp_read,    // a READ response job; s_resp_hdr: its first PSN and AETH
    input  wire [63:0]                  s_resp_va,      // job: responder memory (rkey-checked by the responder)
    input  wire [31:0]                  s_resp_rkey,
    input  wire [31:0]                  s_resp_len,
    input  wire [QW-1:0]                s_resp_qpn,     // the local QP the response belongs to
    input  wire [7:0]                   s_resp_epoch,   // a READ job: its QP's READ epoch when it was made
    input  wire                         s_reread_valid, // a READ asked again: QP s_reread_qpn's older jobs
    input  wire [QW-1:0]                s_reread_qpn,   // at or past s_reread_psn are void
    input  wire [23:0]                  s_reread_psn,
    input  wire [QW-1:0]                sent_rd_qpn,    // the newest READ response sent for this QP:
    output wire                         sent_rd_valid,  // (none since the QP was loaded)
    output wire [7:0]                   sent_rd_epoch,  // the job's epoch
    output wire [23:0]                  sent_rd_next,   // the PSN after it

    /* Completer state: the oldest unretired WQE of QP x_qpn */
    output wire [QW-1:0]                x_qpn,
    input  wire [15:0]                  x_ack_wqe,
    input  wire                         x_err,          // the completer saw a fatal NAK
    input  wire [15:0]                  x_rd_retired,   // READ/atomic WQEs the completer retired (mod 2^16)
    input  wire                         x_hold,         // the QP waits out an RNR NAK: send nothing

    /* Requester state read by the completer */
    input  wire [QW-1:0]                r_qpn,
    output wire [15:0]                  r_sq_next,
    output wire [23:0]                  r_sent_psn,     // the PSN after the newest request packet sent
    output wire                         r_tx_err,       // the send side stopped on an error of its own
    output wire [15:0]                  r_rd_issued,    // READ/atomic WQEs sent (mod 2^16)

    /* In-flight table: read (the data a cycle after the address) and write */
    output wire [QW+OW-1:0]             if_raddr,
    input  wire [23:0]                  if_first_psn,   // the entry's first PSN
    input  wire                         if_fresh,       // if_first_psn is if_raddr's entry
    output reg                          if_we,
    output reg  [QW+OW-1:0]             if_waddr,
    output reg  [IF_BITS-1:0]           if_wdata,

    /* MR/MTT translation */
    output reg                          m_xl_valid,
    input  wire                         m_xl_ready,
    output reg  [31:0]                  m_xl_key,
    output wire [23:0]                  m_xl_pd,
    output reg  [63:0]                  m_xl_va,
    output reg  [31:0]                  m_xl_len,
    output wire [3:0]                   m_xl_access,
    input  wire                         s_seg_valid,
    output wire                         s_seg_ready,
    input  wire [63:0]                  s_seg_addr,
    input  wire [31:0]                  s_seg_len,
    input  wire                         s_seg_last,
    input  wire [2:0]                   s_seg_status,

    /* DMA read engine */
    output wire                         m_rd_desc_valid,
    input  wire                         m_rd_desc_ready,
    output wire [63:0]                  m_rd_desc_addr,
    output wire [15:0]                  m_rd_desc_len,
    output wire [2:0]                   m_rd_desc_tag,
    input  wire [DATA_WIDTH-1:0]        s_rd_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_rd_tkeep,
    input  wire                         s_rd_tvalid,
    output wire                         s_rd_tready,
    input  wire                         s_rd_tlast,
    input  wire [2:0]                   s_rd_tid,

    /* To the TX builder */
    output reg                          m_hdr_valid,
    input  wire                         m_hdr_ready,
    output reg  [`FROCE_RHDR_W-1:0]     m_hdr,
    output wire [DATA_WIDTH-1:0]        m_pay_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_pay_tkeep,
    output wire                         m_pay_tvalid,
    input  wire                         m_pay_tready,
    output wire                         m_pay_tlast,

    /* Error completions */
    output reg                          m_cqe_valid,
    input  wire                         m_cqe_ready,
    output reg  [23:0]                  m_cqe_cqn,
    output reg  [CQE_BITS-1:0]          m_cqe,

    /* Counter events: one-cycle pulses, each adds 1 to its counter */
    output reg                          inc_req_pkts,
    output reg                          inc_resp_pkts,
    output reg                          inc_wqes,
    output reg                          inc_wqe_err
);

localparam W = DATA_WIDTH / 8;
localparam KW = $clog2(W);
localparam WQE_MAX = 1 << `FROCE_WQE_SHIFT_MAX;     // bytes
localparam WB_W = `FROCE_WQE_SHIFT_MAX - KW + 1;    // WQE beat counter
localparam WQE_BEATS = WQE_MAX / W;
localparam WQE_HEAD_BITS = 512;                     // control + raddr/atomic/UD segment
localparam WQE_HEAD_BEATS = (WQE_HEAD_BITS + DATA_WIDTH - 1) / DATA_WIDTH;
localparam BB_W = `FROCE_WQE_SHIFT_MAX - KW - 1;    // bank index


`include "froce_core_functions.vh"

initial begin
    if ((1 << QW) != NUM_QPS || (1 << GW) != NUM_GIDS || (1 << OW) != OUTSTANDING || W < 8) begin
        $display("froce_tx_engine: NUM_QPS, NUM_GIDS, OUTSTANDING must be powers of two, DATA_WIDTH >= 64");
        $finish;
    end
end

// ---------------------------------------------------------------------------
// Contexts and per-QP state
// ---------------------------------------------------------------------------

reg [QPC_BITS-1:0] qpc_ram [0:NUM_QPS-1];
reg [GID_BITS-1:0] gid_ram [0:NUM_GIDS-1];
reg [15:0] sq_pi_ram [0:NUM_QPS-1];
reg [15:0] sq_next_ram [0:NUM_QPS-1];
reg [23:0] psn_ram [0:NUM_QPS-1];
reg [23:0] resume_ram [0:NUM_QPS-1];    // packets before this PSN were received (or sent, and not NAKed): skip them
reg [23:0] sent_ram [0:NUM_QPS-1];      // PSN after the newest request packet ever sent (serially highest)
reg [15:0] rd_issued_ram [0:NUM_QPS-1]; // READ/atomic WQEs sent (mod 2^16); minus x_rd_retired = outstanding
reg [NUM_QPS-1:0] in_list;
reg [NUM_QPS-1:0] tx_err;

reg [QW-1:0] q_reg;             // QP being served
// The context of the QP the engine works for (registered RAM read): the
// requester's QP, a READ response job's QP, or for two cycles the QP of an
// ACK/NAK (responses are addressed from their QP's address vector, as rxe
// addresses them, not from the request's headers)
reg [QPC_BITS-1:0] ctx;
reg [QW-1:0] ctx_qpn;           // the QP ctx belongs to

always @(posedge clk) begin
    if (gid_we)
        gid_ram[gid_waddr] <= gid_wdata;
end

assign r_sq_next = sq_next_ram[r_qpn];
assign r_sent_psn = sent_ram[r_qpn];
assign r_tx_err = tx_err[r_qpn];
assign r_rd_issued = rd_issued_ram[r_qpn];
assign x_qpn = q_reg;
assign if_raddr = {q_reg, x_ack_wqe[OW-1:0]};
wire [23:0] oldest_first_psn = if_first_psn;

// context fields
wire [3:0] c_state = ctx[`FROCE_QPC_STATE_LSB +: `FROCE_QPC_STATE_W];
wire [3:0] c_type = ctx[`FROCE_QPC_TYPE_LSB +: `FROCE_QPC_TYPE_W];
wire c_ud = c_type == `FROCE_QP_TYPE_UD || c_type == `FROCE_QP_TYPE_GSI;  // datagrams: WQE_UD, no ACKs
wire [31:0] c_qkey = ctx[`FROCE_QPC_QKEY_LSB +: 32];
wire [2:0] c_mtu = ctx[`FROCE_QPC_PATH_MTU_LSB +: `FROCE_QPC_PATH_MTU_W];
wire c_sig_all = ctx[`FROCE_QPC_SIG_ALL_LSB];
wire [23:0] c_pdn = ctx[`FROCE_QPC_PDN_LSB +: `FROCE_QPC_PDN_W];
wire [23:0] c_scqn = ctx[`FROCE_QPC_SCQN_LSB +: `FROCE_QPC_SCQN_W];
wire [23:0] c_dqpn = ctx[`FROCE_QPC_DEST_QPN_LSB +: `FROCE_QPC_DEST_QPN_W];
wire [4:0] c_sq_log = ctx[`FROCE_QPC_SQ_LOG_SIZE_LSB +: `FROCE_QPC_SQ_LOG_SIZE_W];
wire [3:0] c_sq_shift = ctx[`FROCE_QPC_SQ_WQE_SHIFT_LSB +: `FROCE_QPC_SQ_WQE_SHIFT_W];
wire [31:0] c_ring_key = ctx[`FROCE_QPC_RING_KEY_LSB +: `FROCE_QPC_RING_KEY_W];
wire [63:0] c_sq_va = ctx[`FROCE_QPC_SQ_VA_LSB +: `FROCE_QPC_SQ_VA_W];
wire [7:0] c_sgid = ctx[`FROCE_QPC_AV_SGID_INDEX_LSB +: `FROCE_QPC_AV_SGID_INDEX_W];

reg [32:0] total_reg;           // message bytes (a READ response job: the bytes asked for)

// READ response job (responder side): what the responder's request asked for
reg job_reg;
reg [7:0] job_syn_reg;          // its AETH (syndrome, MSN)
reg [23:0] job_msn_reg;
reg [63:0] job_va;
reg [31:0] job_rkey;
reg [QW-1:0] job_qpn_reg;       // the local QP of the job (ctx is its context)
reg [3:0] job_pkts_reg;         // packets since the job started or resumed (saturates)

// MTU in bytes: 256 << (PATH_MTU - 1); out-of-range values act as 256 / 4096
wire [12:0] mtu = mtu_bytes(c_mtu);
wire [3:0] mtu_shift = mtu_log2(c_mtu);

// a GID byte array (wire order) as an RHDR number (first wire byte on top)
function [127:0] gid_number;
    input [127:0] bytes;        // byte 0 in bits 7:0
    integer i;
    begin
        for (i = 0; i < 16; i = i + 1)
            gid_number[127 - 8 * i -: 8] = bytes[8 * i +: 8];
    end
endfunction

// ---------------------------------------------------------------------------
// WQE buffer
// ---------------------------------------------------------------------------

// The whole WQE sits in two banks of beats (even and odd: any two
// consecutive beats read at once, for inline data at any byte and for a
// 16-byte data segment); its first 64 bytes (control and the fixed segments,
// which the decision logic reads everywhere) also in registers. A WQE-wide
// register with a byte shifter over it cost more than the rest of the engine.
reg [WQE_HEAD_BITS-1:0] wqe;
reg [DATA_WIDTH-1:0] wqe_even [0:WQE_BEATS/2-1];
reg [DATA_WIDTH-1:0] wqe_odd [0:WQE_BEATS/2-1];
reg [WB_W-1:0] wqe_beats;       // beats received for the current fetch

wire [31:0] w_dw0 = wqe[31:0];
wire [7:0] w_op = w_dw0[`FROCE_WQE_CTRL_OPCODE_LSB +: 8];
wire w_sig = w_dw0[`FROCE_WQE_CTRL_SIGNALED_LSB];
wire w_se = w_dw0[`FROCE_WQE_CTRL_SOLICITED_LSB];
wire w_inline = w_dw0[`FROCE_WQE_CTRL_INLINE_LSB];
wire [5:0] w_ds = w_dw0[`FROCE_WQE_CTRL_DS_LSB +: `FROCE_WQE_CTRL_DS_W];
wire [15:0] w_index = wqe[`FROCE_WQE_CTRL_WQE_INDEX_LSB +: 16];
wire [31:0] w_imm = wqe[`FROCE_WQE_CTRL_IMM_INV_LSB +: 32];
wire [15:0] w_inline_len = wqe[`FROCE_WQE_CTRL_INLINE_LEN_LSB +: 16];
wire w_fence = w_dw0[`FROCE_WQE_CTRL_FENCE_LSB];
wire [63:0] w_rva = wqe[128 + `FROCE_WQE_RADDR_VA_LSB +: 64];
wire [31:0] w_rkey = wqe[128 + `FROCE_WQE_RADDR_RKEY_LSB +: 32];
wire [63:0] w_ava = wqe[128 + `FROCE_WQE_ATOMIC_VA_LSB +: 64];
wire [31:0] w_arkey = wqe[128 + `FROCE_WQE_ATOMIC_RKEY_LSB +: 32];
wire [63:0] w_swap_add = wqe[128 + `FROCE_WQE_ATOMIC_SWAP_ADD_LSB +: 64];
wire [63:0] w_compare = wqe[128 + `FROCE_WQE_ATOMIC_COMPARE_LSB +: 64];

// UD segment: destination QP, Q_Key, address vector of this datagram
localparam UD_B = 128;          // its bit offset in the WQE
wire [23:0] w_ud_dqpn = wqe[UD_B + `FROCE_WQE_UD_DQPN_LSB +: 24];
wire [31:0] w_ud_qkey = wqe[UD_B + `FROCE_WQE_UD_QKEY_LSB +: 32];

// the packet's path: a connected QP's from its context, a datagram's from its WQE
wire [2:0] p_net_type = c_ud ? wqe[UD_B + `FROCE_WQE_UD_AV_NET_TYPE_LSB +: 3] : ctx[`FROCE_QPC_AV_NET_TYPE_LSB +: 3];
wire p_vlan_en = c_ud ? wqe[UD_B + `FROCE_WQE_UD_AV_VLAN_EN_LSB] : ctx[`FROCE_QPC_AV_VLAN_EN_LSB];
wire [11:0] p_vlan_id = c_ud ? wqe[UD_B + `FROCE_WQE_UD_AV_VLAN_ID_LSB +: 12] : ctx[`FROCE_QPC_AV_VLAN_ID_LSB +: 12];
wire [47:0] p_dmac = c_ud ? wqe[UD_B + `FROCE_WQE_UD_AV_DMAC_LSB +: 48] : ctx[`FROCE_QPC_AV_DMAC_LSB +: 48];
wire [127:0] p_dgid = c_ud ? wqe[UD_B + `FROCE_WQE_UD_AV_DGID_BYTE * 8 +: 128] : ctx[`FROCE_QPC_AV_DGID_BYTE * 8 +: 128];
wire [7:0] p_tclass = c_ud ? wqe[UD_B + `FROCE_WQE_UD_AV_TCLASS_LSB +: 8] : ctx[`FROCE_QPC_AV_TCLASS_LSB +: 8];
wire [19:0] p_flow = c_ud ? wqe[UD_B + `FROCE_WQE_UD_AV_FLOW_LABEL_LSB +: 20] : ctx[`FROCE_QPC_AV_FLOW_LABEL_LSB +: 20];
wire [7:0] p_hop = c_ud ? wqe[UD_B + `FROCE_WQE_UD_AV_HOP_LIMIT_LSB +: 8] : ctx[`FROCE_QPC_AV_HOP_LIMIT_LSB +: 8];
wire [15:0] p_sport = c_ud ? wqe[UD_B + `FROCE_WQE_UD_AV_UDP_SPORT_LSB +: 16] : ctx[`FROCE_QPC_AV_UDP_SPORT_LSB +: 16];
wire [7:0] p_sgid = c_ud ? wqe[UD_B + `FROCE_WQE_UD_AV_SGID_INDEX_LSB +: 8] : c_sgid;
wire [GID_BITS-1:0] gid = gid_ram[p_sgid[GW-1:0]];

// the opcode's classes, decoded as the WQE's first beat is written (every
// use of them starts at a flip-flop); they always match w_op
function [5:0] op_class;        // {cswap, atomic, read, imm, write, send}
    input [7:0] op;
    begin
        op_class[0] = op == `FROCE_WQE_OP_SEND || op == `FROCE_WQE_OP_SEND_WITH_IMM;
        op_class[1] = op == `FROCE_WQE_OP_RDMA_WRITE || op == `FROCE_WQE_OP_RDMA_WRITE_WITH_IMM;
        op_class[2] = op == `FROCE_WQE_OP_SEND_WITH_IMM || op == `FROCE_WQE_OP_RDMA_WRITE_WITH_IMM;
        op_class[3] = op == `FROCE_WQE_OP_RDMA_READ;
        op_class[4] = op == `FROCE_WQE_OP_ATOMIC_CMP_SWP || op == `FROCE_WQE_OP_ATOMIC_FETCH_ADD;
        op_class[5] = op == `FROCE_WQE_OP_ATOMIC_CMP_SWP;
    end
endfunction
reg [5:0] w_class_reg = 6'd0;
wire op_send = w_class_reg[0];
wire op_write = w_class_reg[1];
wire op_imm = w_class_reg[2];
wire op_read = w_class_reg[3];
wire op_atomic = w_class_reg[4];
wire op_cswap = w_class_reg[5];
wire op_rd_atomic = op_read || op_atomic;
// control segment, then raddr (WRITE, READ) or the 32-byte atomic segment
// (a datagram: control and the 48-byte UD segment)
wire [5:0] w_fixed_ds = c_ud ? 6'd4 : op_atomic ? 6'd3 : (op_write || op_read) ? 6'd2 : 6'd1;
wire [9:0] wqe_bytes = 10'd1 << c_sq_shift;

// SGE i of the current WQE (data segments start after the fixed segments)
reg [4:0] sge_i;
// sge_i's 16-byte segment of the WQE (w_fixed_ds + sge_i, kept in a register
// from the decode on: no decoder and adder in front of the bank read)
reg [4:0] sge_seg_reg;
reg [4:0] fixed_ds_reg;         // w_fixed_ds, latched at the decode
wire [8:0] sge_byte = {sge_seg_reg, 4'd0};
wire [2*DATA_WIDTH-1:0] sge_window;
wire [8:0] inline_byte;                     // of the inline piece being emitted
wire [2*DATA_WIDTH-1:0] inline_window;
wire [127:0] sge_seg = sge_window[{1'b0, sge_byte[KW-1:0], 3'd0} +: 128];
// a READ response job gathers from one range: the responder's MR
wire [63:0] sge_addr = job_reg ? job_va : sge_seg[`FROCE_WQE_DATA_ADDR_LSB +: 64];
wire [31:0] sge_len = job_reg ? total_reg[31:0] : sge_seg[`FROCE_WQE_DATA_LEN_LSB +: 32];
wire [31:0] sge_lkey = job_reg ? job_rkey : sge_seg[`FROCE_WQE_DATA_LKEY_LSB +: 32];
// payload comes from the WQE (inline) rather than host memory
wire pk_inline = w_inline && !job_reg;


// beats b and b + 1 of the WQE, b the beat holding a byte: {b + 1, b}
// (two read ports: the data segment and the inline data)
wire [BB_W:0] sge_beat = sge_byte[8:KW];
wire [BB_W:0] inline_beat = inline_byte[8:KW];
wire [BB_W-1:0] sge_bank = sge_beat[BB_W:1];
wire [BB_W-1:0] inline_bank = inline_beat[BB_W:1];
assign sge_window = sge_beat[0] ? {wqe_even[sge_bank + 1'b1], wqe_odd[sge_bank]}
                                : {wqe_odd[sge_bank], wqe_even[sge_bank]};
assign inline_window = inline_beat[0] ? {wqe_even[inline_bank + 1'b1], wqe_odd[inline_bank]}
                                      : {wqe_odd[inline_bank], wqe_even[inline_bank]};

// ---------------------------------------------------------------------------
// Active list
// ---------------------------------------------------------------------------

reg act_push;
reg [QW-1:0] act_push_qpn;
wire act_pop;
wire [QW-1:0] act_qpn;
wire act_valid;
wire act_in_ready;

wire act_full, act_empty;
wire [QW:0] unused_act_count;
assign act_in_ready = !act_full;
assign act_valid = !act_empty;

froce_fifo #(.WIDTH(QW), .DEPTH(NUM_QPS)) active_fifo (
    .clk(clk), .rst(rst),
    .wr_data(act_push_qpn), .wr_en(act_push),
    .rd_data(act_qpn), .rd_en(act_pop),
    .count(unused_act_count), .empty(act_empty), .full(act_full)
);

// ---------------------------------------------------------------------------
// Order FIFO: one entry per payload piece
// ---------------------------------------------------------------------------

localparam [1:0] SRC_DMA = 2'd0, SRC_INLINE = 2'd1, SRC_ZERO = 2'd2;
localparam ORD_W = 2 + 10 + 13 + 1;     // src, inline start byte, length, packet end

reg ord_push;
reg [ORD_W-1:0] ord_push_data;
wire ord_in_ready;
wire [ORD_W-1:0] ord_data;
wire ord_valid;
wire ord_pop;
wire [4:0] ord_count;

wire ord_full, ord_empty;
assign ord_in_ready = !ord_full;
assign ord_valid = !ord_empty;
// every piece taken (the count leaves out the registered head)
wire ord_drained = ord_empty && ord_count == 5'd0;

// (registered head: the inline source's window read starts at a flip-flop)
froce_fifo #(.WIDTH(ORD_W), .DEPTH(16), .REG_OUT(1)) order_fifo (
    .clk(clk), .rst(rst),
    .wr_data(ord_push_data), .wr_en(ord_push),
    .rd_data(ord_data), .rd_en(ord_pop),
    .count(ord_count), .empty(ord_empty), .full(ord_full)
);

// ---------------------------------------------------------------------------
// Main state machine
// ---------------------------------------------------------------------------

localparam [4:0]
    S_IDLE = 5'd0, S_Q0 = 5'd1, S_Q1 = 5'd2, S_WF_XL = 5'd3, S_WF_SEG = 5'd4,
    S_WF_DATA = 5'd5, S_DEC = 5'd6, S_VAL = 5'd7, S_VAL_SEG = 5'd8,
    S_HDR = 5'd9, S_G_XL = 5'd10, S_G_SEG = 5'd11, S_NEXT = 5'd12,
    S_DONE = 5'd13, S_ERR = 5'd14, S_RESP = 5'd15, S_DRAIN = 5'd16,
    S_RW = 5'd17, S_SKIP = 5'd18, S_UD_CQE = 5'd19, S_ACK_CTX = 5'd20, S_ACK_HDR = 5'd21,
    S_JOB_CTX = 5'd22;
// one-hot: every "state ==" in the decisions is a flip-flop, not a decode
(* fsm_encoding = "one-hot" *)
reg [4:0] state;

// an ACK/NAK/atomic ACK taken from the responder, while its QP's context loads
reg [`FROCE_RESP_W-1:0] ack_reg;
reg [QW-1:0] ack_qpn_reg;
reg ack_back_reg;               // taken between two packets of a message (S_HDR)

wire [QW-1:0] ctx_addr = state == S_ACK_CTX ? ack_qpn_reg : job_reg ? job_qpn_reg : q_reg;
always @(posedge clk) begin
    if (qpc_we)
        qpc_ram[qpc_waddr] <= qpc_wdata;
    ctx <= qpc_ram[ctx_addr];
    ctx_qpn <= ctx_addr;
end

reg [15:0] sq_next_reg;
reg [23:0] psn_reg;             // PSN of the next packet
reg [23:0] first_psn_reg;
reg [32:0] remain_reg;          // bytes not yet put in packets
reg [12:0] plen_reg;            // payload bytes of the current packet
reg [12:0] pleft_reg;           // of which not yet gathered
reg [31:0] sge_off_reg;         // bytes of SGE sge_i already gathered
reg [4:0] nsge_reg;
reg first_pkt_reg;
reg [9:0] inline_pos_reg;       // byte of the WQE buffer holding the next inline byte
reg piece_last_reg;
reg seg_first_reg;
reg val_bad_reg;
reg [7:0] err_status_reg;
reg [7:0] err_vendor_reg;
reg wqe_sig_reg;
reg [23:0] resume_reg;
reg [23:0] rw_psn_reg;
wire [23:0] resume_diff = psn_reg - resume_reg;   // < 0 (serial): skip this packet
// Skipping after a go-back-N goes straight to the resume PSN: the packets of
// the WQE not yet skipped, how many to skip, and their bytes
wire [23:0] pkts_left = read_packets(remain_reg[31:0], mtu_shift);
wire [23:0] skip_want = resume_reg - psn_reg;
wire skip_all = skip_want >= pkts_left;
wire [32:0] skip_bytes = {9'd0, skip_want} << mtu_shift;    // (< remain_reg when !skip_all)
reg [32:0] skip_left_reg;       // bytes the gather cursor still has to pass over
// S_SKIP takes two cycles per SGE: the bytes left in the SGE (its length,
// read from the WQE bank, less the cursor) into skip_room_reg, then the
// compare with skip_left_reg
reg skip_phase_reg;
reg [32:0] skip_room_reg;
wire [23:0] rw_before_resume = rw_psn_reg - resume_ram[q_reg];  // < 0 (serial): rewind before the resume point
// Payload bytes handed to the builder (headers accepted) and not yet taken
// from the payload sources: the engine stays this little ahead of the wire,
// so a NAK or a rewind acts after a few KiB, not after everything the
// builder's queues could hold. (Signed: a piece may leave a cycle before its
// header is counted.)
reg signed [18:0] ahead_bytes;
wire ahead_ok = ahead_bytes <= $signed(TX_AHEAD_BYTES[18:0]) || ahead_bytes <= $signed({6'd0, mtu});
// Stop the WQE at this packet boundary (it goes on from here later):
// - at once for a rewind of this QP (served next, ahead of the other QPs) or
//   an RNR NAK it waits out;
// - for another QP's rewind, or after RR_QUANTUM_BYTES while other QPs wait,
//   only where the packet before asked for an ACK (every 2^ACKREQ_SHIFT
//   PSNs) or before the turn's first packet: a QP waiting for its next turn
//   has nothing unacknowledged that its peer was not asked to acknowledge,
//   so its ACK timer does not run out while other QPs send.
// Inline WQEs (one or two packets) and datagrams finish.
reg [31:0] turn_bytes_reg;      // payload sent since this WQE's turn began
wire rw_here = s_rw_valid && s_rw_qpn == q_reg;
wire acked_point = psn_reg[ACKREQ_SHIFT-1:0] == {ACKREQ_SHIFT{1'b0}} || turn_bytes_reg == 32'd0;
wire yield_now = (rw_here || x_hold ||
                  (acked_point && (s_rw_valid || (act_valid && turn_bytes_reg >= RR_QUANTUM_BYTES)))) &&
                 !job_reg && !c_ud && !w_inline && !m_hdr_valid && !ord_push;
reg rw_resume_reg;              // the QP stopped for its own rewind: serve it right after

wire last_pkt = remain_reg <= {20'd0, mtu};
wire [12:0] this_plen = last_pkt ? remain_reg[12:0] : mtu;
// this WQE sends one request packet (READ, atomic) rather than its data
wire rd_request = op_rd_atomic && !job_reg;
// READ epochs (counted like froce_rx_engine's): a READ request that comes
// again and starts a resend means the requester lost responses and asks from
// its first missing one (void_psn); it goes to the back of the response
// queue, but the jobs its QP had before it are void from that PSN on at once:
// a running one stops after the current packet, a queued or half-sent one is
// dropped when its turn comes (IBA lets a responder abandon READ responses
// when a duplicate READ arrives). Jobs of the resend itself share its epoch.
reg [7:0] epoch_ram [0:NUM_QPS-1];
reg [23:0] void_psn_ram [0:NUM_QPS-1];
reg [7:0] job_epoch_reg;
// the newest READ response sent per QP: the rx engine tells a READ asked
// again (its responses were sent) from a copy of a request still queued
reg [7:0] sent_rd_ep_ram [0:NUM_QPS-1];
reg [23:0] sent_rd_psn_ram [0:NUM_QPS-1];
reg [NUM_QPS-1:0] sent_rd_any;
assign sent_rd_valid = sent_rd_any[sent_rd_qpn];
assign sent_rd_epoch = sent_rd_ep_ram[sent_rd_qpn];
assign sent_rd_next = sent_rd_psn_ram[sent_rd_qpn];
wire [23:0] job_void_at = psn_reg + 1'b1 - void_psn_ram[job_qpn_reg];  // >= 0: its next packet was asked again
wire job_superseded = job_reg && job_epoch_reg != epoch_ram[job_qpn_reg] && !job_void_at[23];
wire [23:0] resp_void_at = s_resp_hdr[`FROCE_RESP_PSN_LSB +: 24] - void_psn_ram[s_resp_qpn];
wire resp_stale = s_resp_read && s_resp_epoch != epoch_ram[s_resp_qpn] && !resp_void_at[23];

// READ response jobs take turns: after JOB_QUANTUM packets a job makes way
// for a job of another QP that waits (or for one that waits half-sent) and
// waits itself, half-sent, in the job FIFO; a long READ never holds the
// responses of the other QPs (their requesters' timers keep running). The
// responses of one QP stay in PSN order: a response (job or ACK/NAK) of a QP
// whose job waits half-sent is taken only after that job has finished.
localparam JS_W = 8 + QW + 8 + 24 + 64 + 32 + 32 + 32 + 32 + 24 + 1;
reg js_push;
wire js_pop;
wire [JS_W-1:0] js_head;
wire js_empty, js_full;
wire [$clog2(JOB_SLOTS):0] unused_js_count;
reg [NUM_QPS-1:0] job_susp;     // the QP has a half-sent job in the FIFO
// (registered head: the stale check's epoch lookup starts at a flip-flop)
froce_fifo #(.WIDTH(JS_W), .DEPTH(JOB_SLOTS), .REG_OUT(1)) job_fifo (
    .clk(clk), .rst(rst),
    .wr_data({job_epoch_reg, job_qpn_reg, job_syn_reg, job_msn_reg, job_va, job_rkey, total_reg[31:0], remain_reg[31:0],
              sge_off_reg, psn_reg, first_pkt_reg}),
    .wr_en(js_push),
    .rd_data(js_head), .rd_en(js_pop),
    .count(unused_js_count), .empty(js_empty), .full(js_full)
);
// fields of the head entry (the layout of wr_data above)
wire [7:0] js_head_epoch = js_head[JS_W-1 -: 8];
wire [QW-1:0] js_head_qpn = js_head[JS_W-9 -: QW];
wire [23:0] js_head_psn = js_head[24:1];
wire [23:0] js_void_at = js_head_psn - void_psn_ram[js_head_qpn];
wire js_stale = js_head_epoch != epoch_ram[js_head_qpn] && !js_void_at[23];
// The stale checks of the two heads (the response queue's, the job FIFO's)
// are registered: each is used a cycle after it was worked out, once the
// head has stood still a cycle with no epoch or void PSN written (a head
// changes only when taken, or when it arrives in an empty queue), so the
// epoch and void PSN lookups, the compare and the subtract do not run into
// the idle-state decisions. A new head waits a cycle.
wire epoch_write = s_reread_valid || (qpc_we && qpc_load_reset);
reg resp_settled_reg;           // s_resp_* as last cycle, epochs unchanged: resp_stale_reg is its
reg resp_stale_reg;
reg resp_susp_reg;              // ... and job_susp of its QP
reg js_settled_reg;             // the same for js_head and js_stale_reg
reg js_stale_reg;
reg js_pop_reg;                 // a job left the FIFO (its QP's job_susp cleared)
always @(posedge clk) begin
    resp_settled_reg <= s_resp_valid && !s_resp_ready && !epoch_write;
    resp_stale_reg <= resp_stale;
    resp_susp_reg <= job_susp[s_resp_qpn];
    js_pop_reg <= js_pop;
    js_settled_reg <= !js_empty && !js_pop && !epoch_write;
    js_stale_reg <= js_stale;
    if (rst) begin
        resp_settled_reg <= 1'b0;
        js_settled_reg <= 1'b0;
    end
end
// (and job_susp not written at the step: js_push rises with a write, the
// pop's clear shows in js_pop_reg)
wire resp_here = s_resp_valid && resp_settled_reg && !js_push && !js_pop_reg;
// the response at the head of the queue must wait for its QP's half-sent job
wire resp_blocked = resp_here && resp_susp_reg && !resp_stale_reg;
wire job_other_waits = (resp_here && s_resp_read && s_resp_qpn != job_qpn_reg && !resp_blocked && !resp_stale_reg) ||
                       !js_empty;
wire job_yield = job_reg && !m_hdr_valid && !ord_push && job_pkts_reg >= JOB_QUANTUM[3:0] && !js_full &&
                 job_other_waits && remain_reg != 33'd0;
// The completer's retired-WQE index of q_reg, a cycle old: it is read from
// the rx engine's LUT RAM, and the window and fence checks below run from a
// register. It only grows meanwhile (a stale value holds a WQE back a cycle,
// and the completer's kick, which follows its write, brings the QP back);
// q_reg is set at least a cycle before S_Q1 and the WQE states use it.
// The same for its count of retired READs and atomics.
reg [15:0] x_ack_q, x_rd_retired_q;
always @(posedge clk) begin
    x_ack_q <= x_ack_wqe;
    x_rd_retired_q <= x_rd_retired;
end
// window: WQEs sent and not yet retired
wire [15:0] in_flight = sq_next_reg - x_ack_q;

// A context commit is taken only in a cycle where the engine writes no per-QP
// state (froce_core holds the firmware's commit until both engines say so),
// so each per-QP array has one write address and maps to LUT RAM. Those
// cycles: idle, or gathering a packet's payload (every packet of a long WQE
// passes there), with no doorbell and no READ re-request. A per-QP write
// added to one of these states must leave it out of this list.
assign qpc_ready = (state == S_IDLE || state == S_G_XL || state == S_G_SEG || state == S_NEXT) &&
                   !s_db_valid && !s_reread_valid;
wire [QW-1:0] qs_waddr = qpc_we ? qpc_waddr : q_reg;
wire [QW-1:0] sq_pi_waddr = qpc_we ? qpc_waddr : s_db_qpn[QW-1:0];
wire [QW-1:0] epoch_waddr = qpc_we ? qpc_waddr : s_reread_qpn;
assign s_rw_ready = state == S_IDLE && !s_kick_valid;
// Kicks and doorbells only touch the active list and the producer indexes:
// besides idle, they are taken while a packet's payload is gathered, so a long
// message never holds them (nor the completer and the BAR2 writes behind them)
wire list_free = state == S_G_XL || state == S_G_SEG || state == S_SKIP || state == S_NEXT;
assign s_db_ready = (state == S_IDLE || list_free) && !s_kick_valid && !s_rw_valid;
assign s_kick_ready = state == S_IDLE || list_free;
// a response header is taken when the builder port and the order FIFO are free
wire resp_slot = !m_hdr_valid && ord_in_ready && !ord_push;
// a READ response job starts only from idle; no response overtakes one
// a READ job made void at the head of the queue is dropped in any state:
// a void can leave the queue full of them
wire resp_drop = resp_here && resp_stale_reg;
assign s_resp_ready = resp_drop || (resp_here && resp_slot && !resp_blocked &&
                      ((state == S_IDLE && !s_kick_valid && !s_rw_valid && !s_db_valid) ||
                       (state == S_HDR && !s_resp_read && (!job_reg || s_resp_qpn != job_qpn_reg))));
// a half-sent job goes on when nothing else of the responder's waits
assign js_pop = state == S_IDLE && !s_kick_valid && !s_rw_valid && !s_db_valid &&
                !(s_resp_valid && !resp_blocked) && !js_empty && js_settled_reg;
assign act_pop = state == S_IDLE && !s_kick_valid && !s_rw_valid && !s_db_valid && !s_resp_valid && js_empty &&
                 act_valid;
wire flushing = tx_err[q_reg] || x_err || c_state == `FROCE_QP_STATE_ERR;
// READ/atomic limit: QPC.MAX_RD_ATOMIC, 0 acting as 1, at most RD_ATOMIC_MAX
wire [7:0] c_max_rd = ctx[`FROCE_QPC_MAX_RD_ATOMIC_LSB +: 8];
wire [15:0] rd_limit = c_max_rd == 8'd0 ? 16'd1 : c_max_rd > RD_ATOMIC_MAX[7:0] ? RD_ATOMIC_MAX[15:0] : {8'd0, c_max_rd};
wire [15:0] rd_outstanding = rd_issued_ram[q_reg] - x_rd_retired_q;
// a READ request covers the PSNs of its responses
wire [23:0] req_psns = op_atomic ? 24'd1 : read_packets(remain_reg[31:0], mtu_shift);
// the PSN after this request packet (a READ request: after its responses)
wire [23:0] sent_new = rd_request ? psn_reg + req_psns : psn_reg + 1'b1;
wire [23:0] sent_after = sent_new - sent_ram[q_reg];    // > 0 (serial): newer than any sent before
// ... a cycle later: S_HDR takes a request header's handshake at the
// earliest a cycle after raising m_hdr_valid, and while the header waits
// nothing these depend on moves (the PSN, the bytes left, the QP, the job)
reg [23:0] sent_new_reg;
reg sent_newer_reg;
always @(posedge clk) begin
    sent_new_reg <= sent_new;
    sent_newer_reg <= !sent_after[23] && sent_after != 24'd0;
end

// segments: WQE fetch and gather turn straight into DMA descriptors
wire seg_to_desc = state == S_WF_SEG || state == S_G_SEG;
wire seg_ok = s_seg_status == `FROCE_XLATE_OK;
assign m_rd_desc_valid = seg_to_desc && s_seg_valid && seg_ok &&
                         (state == S_WF_SEG || !seg_first_reg || ord_in_ready);
assign m_rd_desc_addr = s_seg_addr;
assign m_rd_desc_len = s_seg_len[15:0];
assign m_rd_desc_tag = state == S_WF_SEG ? 3'b100 : {1'b0, s_seg_last, s_seg_last && piece_last_reg};
assign s_seg_ready = state == S_VAL_SEG ||
                     (seg_to_desc && ((seg_ok && m_rd_desc_ready && m_rd_desc_valid) ||
                                      (!seg_ok && (state == S_WF_SEG || ord_in_ready))));
assign m_xl_pd = c_pdn;
// gathering needs no right beyond the key; a READ response needs REMOTE_READ;
// READ and atomic WQEs' SGEs receive data: LOCAL_WRITE
assign m_xl_access = job_reg ? 4'd4 : (state == S_VAL && op_rd_atomic) ? 4'd1 : 4'd0;

// requester packet header
reg [`FROCE_RHDR_W-1:0] req_hdr;
reg [7:0] pkt_opcode;
always @* begin
    if (job_reg)
        pkt_opcode = first_pkt_reg ? (last_pkt ? `FROCE_OP_RC_RDMA_READ_RESPONSE_ONLY : `FROCE_OP_RC_RDMA_READ_RESPONSE_FIRST)
                                   : (last_pkt ? `FROCE_OP_RC_RDMA_READ_RESPONSE_LAST : `FROCE_OP_RC_RDMA_READ_RESPONSE_MIDDLE);
    else if (op_read)
        pkt_opcode = `FROCE_OP_RC_RDMA_READ_REQUEST;
    else if (op_atomic)
        pkt_opcode = op_cswap ? `FROCE_OP_RC_COMPARE_SWAP : `FROCE_OP_RC_FETCH_ADD;
    else if (c_ud)
        pkt_opcode = op_imm ? `FROCE_OP_UD_SEND_ONLY_WITH_IMMEDIATE : `FROCE_OP_UD_SEND_ONLY;
    else if (op_write)
        pkt_opcode = first_pkt_reg ? (last_pkt ? (op_imm ? `FROCE_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE : `FROCE_OP_RC_RDMA_WRITE_ONLY)
                                               : `FROCE_OP_RC_RDMA_WRITE_FIRST)
                                   : (last_pkt ? (op_imm ? `FROCE_OP_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE : `FROCE_OP_RC_RDMA_WRITE_LAST)
                                               : `FROCE_OP_RC_RDMA_WRITE_MIDDLE);
    else
        pkt_opcode = first_pkt_reg ? (last_pkt ? (op_imm ? `FROCE_OP_RC_SEND_ONLY_WITH_IMMEDIATE : `FROCE_OP_RC_SEND_ONLY)
                                               : `FROCE_OP_RC_SEND_FIRST)
                                   : (last_pkt ? (op_imm ? `FROCE_OP_RC_SEND_LAST_WITH_IMMEDIATE : `FROCE_OP_RC_SEND_LAST)
                                               : `FROCE_OP_RC_SEND_MIDDLE);
end

reg [15:0] ip_id_reg;

// the packet's path: the QP's address vector (a datagram's: its WQE's) and
// the source GID it names; responses take their QP's path as requests do
reg [`FROCE_RHDR_W-1:0] path_hdr;
always @* begin
    path_hdr = {`FROCE_RHDR_W{1'b0}};
    path_hdr[`FROCE_RHDR_KIND_LSB +: `FROCE_RHDR_KIND_W] = p_net_type;
    path_hdr[`FROCE_RHDR_VLAN_EN_LSB] = p_vlan_en;
    path_hdr[`FROCE_RHDR_VLAN_VID_LSB +: 12] = p_vlan_id;
    path_hdr[`FROCE_RHDR_ETH_DST_LSB +: 48] = p_dmac;
    path_hdr[`FROCE_RHDR_ETH_SRC_LSB +: 48] = gid[`FROCE_GID_CTX_SMAC_LSB +: 48];
    path_hdr[`FROCE_RHDR_SGID_LSB +: 128] = gid_number(gid[`FROCE_GID_CTX_GID_BYTE * 8 +: 128]);
    path_hdr[`FROCE_RHDR_DGID_LSB +: 128] = gid_number(p_dgid);
    path_hdr[`FROCE_RHDR_TCLASS_LSB +: 8] = p_tclass;
    path_hdr[`FROCE_RHDR_FLOW_LABEL_LSB +: 20] = p_flow;
    path_hdr[`FROCE_RHDR_HOP_LIMIT_LSB +: 8] = p_hop;
    path_hdr[`FROCE_RHDR_IP_DF_LSB] = 1'b1;
    // RoCE v2 source port: the AV's, else one per QP from the dynamic range
    path_hdr[`FROCE_RHDR_UDP_SPORT_LSB +: 16] = p_sport != 16'd0 ? p_sport : {2'b11, {(14 - QW){1'b0}}, ctx_qpn};
    path_hdr[`FROCE_RHDR_PKEY_LSB +: 16] = 16'hFFFF;
    path_hdr[`FROCE_RHDR_DQPN_LSB +: 24] = c_ud ? w_ud_dqpn : c_dqpn;
end
// A response is sent only while its QP has a path (RTR and after: in ERR
// too, a NAK that put the QP in error still leaves); a QP destroyed or reset
// since the response was made drops it.
wire resp_path_ok = c_state >= `FROCE_QP_STATE_RTR;
// responses: a hop limit of 0 in the AV answers with 64
wire [7:0] resp_hop = p_hop == 8'd0 ? 8'd64 : p_hop;

// the extension headers (RHDR's ext): wire bytes, the first at the top
localparam ET = `FROCE_RHDR_EXT_W - 1;
reg [`FROCE_RHDR_EXT_W-1:0] req_ext, ack_ext;
always @* begin
    req_hdr = path_hdr;
    req_ext = {`FROCE_RHDR_EXT_W{1'b0}};
    req_hdr[`FROCE_RHDR_IP_ID_LSB +: 16] = ip_id_reg;
    req_hdr[`FROCE_RHDR_OPCODE_LSB +: 8] = pkt_opcode;
    req_hdr[`FROCE_RHDR_PSN_LSB +: 24] = psn_reg;
    req_hdr[`FROCE_RHDR_PAYLOAD_LEN_LSB +: 16] = {3'd0, this_plen};
    if (job_reg) begin
        // READ response packet
        req_hdr[`FROCE_RHDR_HOP_LIMIT_LSB +: 8] = resp_hop;
        req_ext[ET-`FROCE_AETH_SYNDROME_OFF -: 8] = job_syn_reg;
        req_ext[ET-`FROCE_AETH_MSN_OFF -: 24] = job_msn_reg;
    end else begin
        req_hdr[`FROCE_RHDR_SE_LSB] = w_se && last_pkt && (op_send || op_imm);
        // AckReq on a message's last packet and on every 2^ACKREQ_SHIFT-th PSN:
        // the ACKs report progress inside long messages (they restart the
        // completer's timer and move the resend point of a timeout forward)
        req_hdr[`FROCE_RHDR_ACKREQ_LSB] = (last_pkt || rd_request || &psn_reg[ACKREQ_SHIFT-1:0]) && !c_ud;
        // the extension headers the opcode has, as their wire bytes (the
        // builder sends ext_len of them)
        if (op_atomic) begin
            req_ext[ET-`FROCE_ATOMICETH_VA_OFF -: 64] = w_ava;
            req_ext[ET-`FROCE_ATOMICETH_RKEY_OFF -: 32] = w_arkey;
            req_ext[ET-`FROCE_ATOMICETH_SWAP_OFF -: 64] = w_swap_add;
            req_ext[ET-`FROCE_ATOMICETH_CMP_OFF -: 64] = w_compare;
            req_hdr[`FROCE_RHDR_PAYLOAD_LEN_LSB +: 16] = 16'd0;
        end else if (c_ud) begin
            // DETH: a WQE Q_Key with bit 31 set means the QP's (IBA 10.2.5)
            req_ext[ET-`FROCE_DETH_QKEY_OFF -: 32] = w_ud_qkey[31] ? c_qkey : w_ud_qkey;
            req_ext[ET-`FROCE_DETH_SQPN_OFF -: 24] = {{(24 - QW){1'b0}}, q_reg};
            req_ext[ET-8*`FROCE_DETH_LEN-`FROCE_IMMDT_IMM_OFF -: 32] = w_imm;
        end else if (op_read) begin
            // the part not yet received (all of it unless resent after a loss)
            req_ext[ET-`FROCE_RETH_VA_OFF -: 64] = w_rva + {31'd0, total_reg - remain_reg};
            req_ext[ET-`FROCE_RETH_RKEY_OFF -: 32] = w_rkey;
            req_ext[ET-`FROCE_RETH_DMALEN_OFF -: 32] = remain_reg[31:0];
            req_hdr[`FROCE_RHDR_PAYLOAD_LEN_LSB +: 16] = 16'd0;
        end else if (op_write && first_pkt_reg) begin
            // RETH, then ImmDt on a WRITE ONLY with immediate
            req_ext[ET-`FROCE_RETH_VA_OFF -: 64] = w_rva;
            req_ext[ET-`FROCE_RETH_RKEY_OFF -: 32] = w_rkey;
            req_ext[ET-`FROCE_RETH_DMALEN_OFF -: 32] = total_reg[31:0];
            req_ext[ET-8*`FROCE_RETH_LEN-`FROCE_IMMDT_IMM_OFF -: 32] = w_imm;
        end else begin
            req_ext[ET-`FROCE_IMMDT_IMM_OFF -: 32] = w_imm;
        end
    end
    req_hdr[`FROCE_RHDR_EXT_LSB +: `FROCE_RHDR_EXT_W] = req_ext;
end

// an ACK, NAK or atomic ACK (S_ACK_HDR: ctx is its QP's context)
reg [`FROCE_RHDR_W-1:0] ack_hdr;
always @* begin
    ack_hdr = path_hdr;
    ack_hdr[`FROCE_RHDR_HOP_LIMIT_LSB +: 8] = resp_hop;
    ack_hdr[`FROCE_RHDR_OPCODE_LSB +: 8] = ack_reg[`FROCE_RESP_OPCODE_LSB +: 8];
    ack_hdr[`FROCE_RHDR_PSN_LSB +: 24] = ack_reg[`FROCE_RESP_PSN_LSB +: 24];
    ack_ext = {`FROCE_RHDR_EXT_W{1'b0}};
    ack_ext[ET-`FROCE_AETH_SYNDROME_OFF -: 8] = ack_reg[`FROCE_RESP_AETH_SYNDROME_LSB +: 8];
    ack_ext[ET-`FROCE_AETH_MSN_OFF -: 24] = ack_reg[`FROCE_RESP_AETH_MSN_LSB +: 24];
    ack_ext[ET-8*`FROCE_AETH_LEN-`FROCE_ATOMICACKETH_ORIG_OFF -: 64] = ack_reg[`FROCE_RESP_ATOMICACK_ORIG_LSB +: 64];
    ack_hdr[`FROCE_RHDR_EXT_LSB +: `FROCE_RHDR_EXT_W] = ack_ext;
end

// CQE for this engine's completions: errors, flushes and datagrams (UD WQEs
// complete here; err_status_reg is then SUCCESS)
reg [CQE_BITS-1:0] err_cqe;
always @* begin
    err_cqe = {CQE_BITS{1'b0}};
    err_cqe[`FROCE_CQE_QPN_LSB +: 24] = {{(24 - QW){1'b0}}, q_reg};
    err_cqe[`FROCE_CQE_OPCODE_LSB +: 8] = cqe_opcode_of_wqe(w_op);
    err_cqe[`FROCE_CQE_WQE_INDEX_LSB +: 16] = sq_next_reg;
    err_cqe[`FROCE_CQE_STATUS_LSB +: 8] = err_status_reg;
    err_cqe[`FROCE_CQE_VENDOR_ERR_LSB +: 8] = err_vendor_reg;
end

wire [7:0] xl_vendor = lkey_vendor_err(s_seg_status);

// in-flight entry of the current WQE (layout in froce_core_defs.vh)
function [IF_BITS-1:0] if_entry;
    input [23:0] first_psn;
    input [23:0] last_psn;
    input signaled;
    input [7:0] op;
    begin
        if_entry = {IF_BITS{1'b0}};
        if_entry[`FROCE_INFLIGHT_FIRST_PSN_LSB +: 24] = first_psn;
        if_entry[`FROCE_INFLIGHT_LAST_PSN_LSB +: 24] = last_psn;
        if_entry[`FROCE_INFLIGHT_SIGNALED_LSB] = signaled;
        if_entry[`FROCE_INFLIGHT_OPCODE_LSB +: 8] = op;
        if_entry[`FROCE_INFLIGHT_BYTES_LSB +: 32] = total_reg[31:0];
    end
endfunction

integer k;

always @(posedge clk) begin
    act_push <= 1'b0;
    // counter increments (froce_counters in froce_core): one-cycle pulses
    inc_req_pkts <= 1'b0;
    inc_resp_pkts <= 1'b0;
    inc_wqes <= 1'b0;
    inc_wqe_err <= 1'b0;
    js_push <= 1'b0;
    ord_push <= 1'b0;
    if_we <= 1'b0;

    case (state)
    S_IDLE: begin
        if (s_kick_valid) begin
            // (kicks and doorbells: below the case)
        end else if (s_rw_valid) begin
            q_reg <= s_rw_qpn;
            rw_psn_reg <= s_rw_psn;
            state <= S_RW;
        end else if (s_db_valid) begin
        end else if (s_resp_valid && s_resp_ready && s_resp_read && resp_stale_reg) begin
            // a READ job made void by a later request for the same data: dropped
        end else if (s_resp_valid && s_resp_ready && s_resp_read) begin
            // READ response job: packets from the responder's memory
            job_reg <= 1'b1;
            job_syn_reg <= s_resp_hdr[`FROCE_RESP_AETH_SYNDROME_LSB +: 8];
            job_msn_reg <= s_resp_hdr[`FROCE_RESP_AETH_MSN_LSB +: 24];
            job_va <= s_resp_va;
            job_rkey <= s_resp_rkey;
            job_qpn_reg <= s_resp_qpn;
            job_epoch_reg <= s_resp_epoch;
            job_pkts_reg <= 4'd0;
            total_reg <= {1'b0, s_resp_len};
            remain_reg <= {1'b0, s_resp_len};
            psn_reg <= s_resp_hdr[`FROCE_RESP_PSN_LSB +: 24];
            resume_reg <= s_resp_hdr[`FROCE_RESP_PSN_LSB +: 24];
            first_pkt_reg <= 1'b1;
            sge_i <= 5'd0;
            sge_seg_reg <= 5'd0;
            sge_off_reg <= 32'd0;
            nsge_reg <= 5'd1;
            val_bad_reg <= 1'b0;
            state <= S_JOB_CTX;
        end else if (s_resp_valid && s_resp_ready) begin
            ack_reg <= s_resp_hdr;
            ack_qpn_reg <= s_resp_qpn;
            ack_back_reg <= 1'b0;
            state <= S_ACK_CTX;
        end else if (js_pop && js_stale_reg) begin
            // a half-sent job made void meanwhile: dropped
            job_susp[js_head_qpn] <= 1'b0;
        end else if (js_pop) begin
            // a half-sent READ response job goes on where it stopped
            {job_epoch_reg, job_qpn_reg, job_syn_reg, job_msn_reg, job_va, job_rkey, total_reg[31:0], remain_reg[31:0],
             sge_off_reg, psn_reg, first_pkt_reg} <= js_head;
            total_reg[32] <= 1'b0;
            remain_reg[32] <= 1'b0;
            resume_reg <= js_head_psn;
            job_susp[js_head_qpn] <= 1'b0;
            job_reg <= 1'b1;
            job_pkts_reg <= 4'd0;
            sge_i <= 5'd0;
            sge_seg_reg <= 5'd0;
            nsge_reg <= 5'd1;
            val_bad_reg <= 1'b0;
            state <= S_JOB_CTX;
        end else if (act_valid && !s_resp_valid) begin
            q_reg <= act_qpn;
            state <= S_Q0;
        end
    end
    S_RW: if (if_fresh) begin
        // go back to the oldest unacknowledged WQE; packets before the
        // requested PSN are skipped when it is sent again. With no WQE
        // recorded (the one being sent was stopped mid-way) the next WQE's
        // resume point moves back to the requested PSN. (The oldest entry's
        // first PSN is read a cycle after its address: wait for it.)
        if (!tx_err[q_reg]) begin
            if (x_ack_wqe != sq_next_ram[q_reg]) begin
                sq_next_ram[qs_waddr] <= x_ack_wqe;
                psn_ram[qs_waddr] <= oldest_first_psn;
                resume_ram[qs_waddr] <= rw_psn_reg;
                rd_issued_ram[qs_waddr] <= x_rd_retired;
            end else if (rw_before_resume[23]) begin
                resume_ram[qs_waddr] <= rw_psn_reg;
            end
            if (!in_list[q_reg]) begin
                in_list[q_reg] <= 1'b1;
                act_push <= 1'b1;
                act_push_qpn <= q_reg;
            end
        end
        // the WQE stopped for this rewind goes on at once (the QP is
        // in_list without a place in the FIFO)
        rw_resume_reg <= 1'b0;
        state <= rw_resume_reg ? S_Q0 : S_IDLE;
    end
    S_JOB_CTX: begin
        // the job's QP context loads (its path, PD and MTU)
        state <= S_HDR;
    end
    S_ACK_CTX: begin
        // the ACK's QP context loads (its path)
        state <= S_ACK_HDR;
    end
    S_ACK_HDR: begin
        // (ctx goes back to the QP or job of the message meanwhile)
        if (resp_path_ok) begin
            m_hdr_valid <= 1'b1;
            ord_push <= 1'b1;
            ord_push_data <= {SRC_ZERO, 10'd0, 13'd0, 1'b1};
            state <= ack_back_reg ? S_RESP : S_DRAIN;
        end else begin
            state <= ack_back_reg ? S_HDR : S_IDLE;
        end
    end
    S_DRAIN: if (m_hdr_ready) begin
        // a response header is in the builder; its empty payload is queued
        m_hdr_valid <= 1'b0;
        inc_resp_pkts <= 1'b1;
        state <= S_IDLE;
    end
    S_Q0: begin
        // ctx loads this cycle
        sq_next_reg <= sq_next_ram[q_reg];
        psn_reg <= psn_ram[q_reg];
        resume_reg <= resume_ram[q_reg];
        state <= S_Q1;
    end
    S_Q1: begin
        // the WQE's translation request, whether or not it is sent: the
        // address adder does not wait for the decision (m_xl_valid is low
        // here: every state that raises it waits for its handshake)
        m_xl_key <= c_ring_key;
        m_xl_va <= c_sq_va + ({48'd0, sq_next_reg & ~(16'hFFFF << c_sq_log)} << c_sq_shift);
        m_xl_len <= {22'd0, wqe_bytes};
        if (sq_next_reg == sq_pi_ram[q_reg] ||
            (c_state != `FROCE_QP_STATE_RTS && !flushing) || (x_hold && !flushing) ||
            (in_flight >= OUTSTANDING && !flushing && !c_ud)) begin
            in_list[q_reg] <= 1'b0;
            state <= S_IDLE;
        end else begin
            m_xl_valid <= 1'b1;
            wqe_beats <= {WB_W{1'b0}};
            val_bad_reg <= 1'b0;
            state <= S_WF_XL;
        end
    end
    S_WF_XL: if (m_xl_ready) begin
        m_xl_valid <= 1'b0;
        state <= S_WF_SEG;
    end
    S_WF_SEG: if (s_seg_valid && s_seg_ready) begin
        if (!seg_ok)
            val_bad_reg <= 1'b1;
        if (s_seg_last)
            state <= S_WF_DATA;
    end
    S_WF_DATA: begin
        if (val_bad_reg) begin
            // the SQ ring is not reachable: the QP cannot go on
            err_status_reg <= `FROCE_WC_LOC_QP_OP_ERR;
            err_vendor_reg <= `FROCE_VENDOR_ERR_DMA;
            state <= S_ERR;
        end else if ({1'b0, wqe_beats, {KW{1'b0}}} >= {1'b0, wqe_bytes}) begin
            state <= S_DEC;
        end
    end
    S_DEC: begin
        turn_bytes_reg <= 32'd0;
        first_psn_reg <= psn_reg;
        first_pkt_reg <= 1'b1;
        sge_i <= 5'd0;
        fixed_ds_reg <= w_fixed_ds[4:0];
        sge_seg_reg <= w_fixed_ds[4:0];
        sge_off_reg <= 32'd0;
        wqe_sig_reg <= w_sig || c_sig_all;
        nsge_reg <= w_ds[4:0] - w_fixed_ds[4:0];
        total_reg <= 33'd0;
        inline_pos_reg <= {w_fixed_ds[4:0], 4'd0} + 10'd0;
        err_status_reg <= `FROCE_WC_LOC_QP_OP_ERR;
        err_vendor_reg <= `FROCE_VENDOR_ERR_WQE_FORMAT;
        if (flushing) begin
            err_status_reg <= `FROCE_WC_WR_FLUSH_ERR;
            err_vendor_reg <= `FROCE_VENDOR_ERR_FLUSHED;
            state <= S_ERR;
        end else if (w_index != sq_next_reg) begin
            err_vendor_reg <= `FROCE_VENDOR_ERR_WQE_STALE;
            state <= S_ERR;
        end else if (!(op_send || op_write || op_rd_atomic) || w_ds < w_fixed_ds || w_ds > wqe_bytes[9:4] ||
                     (op_rd_atomic && w_inline) || (op_atomic && w_ds != 6'd4) || (c_ud && !op_send)) begin
            // (an atomic has exactly one SGE, for the original value; a
            // datagram QP only sends)
            state <= S_ERR;
        end else if (!c_ud && ((op_rd_atomic && rd_outstanding >= rd_limit) || (w_fence && sq_next_reg != x_ack_q))) begin
            // (WQEs in flight: sq_next_reg != x_ack_q is in_flight != 0
            // without the subtraction)
            // READ/atomic limit reached, or a fence (this waits for every
            // earlier WQE, not only READs and atomics): the completer's kick
            // brings the QP back and the WQE is fetched again
            in_list[q_reg] <= 1'b0;
            state <= S_IDLE;
        end else if (w_inline) begin
            if ({6'd0, w_inline_len} > {12'd0, wqe_bytes} - {14'd0, w_fixed_ds[3:0], 4'd0} ||
                (c_ud && {6'd0, w_inline_len} > {9'd0, mtu})) begin
                err_status_reg <= `FROCE_WC_LOC_LEN_ERR;
                err_vendor_reg <= `FROCE_VENDOR_ERR_INLINE_TOO_LONG;
                state <= S_ERR;
            end else begin
                total_reg <= {17'd0, w_inline_len};
                remain_reg <= {17'd0, w_inline_len};
                nsge_reg <= 5'd0;
                state <= S_HDR;
            end
        end else begin
            state <= S_VAL;
        end
    end
    S_VAL: begin
        // sum the SGEs and check each against its MR before sending anything
        if (sge_i == nsge_reg) begin
            sge_i <= 5'd0;
            sge_seg_reg <= fixed_ds_reg;
            remain_reg <= total_reg;
            // (a datagram is one packet)
            if (total_reg > 33'h80000000 || (op_atomic && total_reg != 33'd8) || (c_ud && total_reg > {20'd0, mtu})) begin
                err_status_reg <= `FROCE_WC_LOC_LEN_ERR;
                err_vendor_reg <= `FROCE_VENDOR_ERR_NONE;
                state <= S_ERR;
            end else begin
                state <= S_HDR;
            end
        end else if (!m_xl_valid) begin
            total_reg <= total_reg + {1'b0, sge_len};
            if (sge_len == 32'd0) begin
                sge_i <= sge_i + 1'b1;
                sge_seg_reg <= sge_seg_reg + 1'b1;
            end else begin
                m_xl_valid <= 1'b1;
                m_xl_key <= sge_lkey;
                m_xl_va <= sge_addr;
                m_xl_len <= sge_len;
            end
        end else if (m_xl_ready) begin
            m_xl_valid <= 1'b0;
            state <= S_VAL_SEG;
        end
    end
    S_VAL_SEG: if (s_seg_valid) begin
        if (!seg_ok) begin
            err_status_reg <= `FROCE_WC_LOC_PROT_ERR;
            err_vendor_reg <= xl_vendor;
            val_bad_reg <= 1'b1;
        end
        if (s_seg_last) begin
            sge_i <= sge_i + 1'b1;
            sge_seg_reg <= sge_seg_reg + 1'b1;
            state <= (val_bad_reg || !seg_ok) ? S_ERR : S_VAL;
        end
    end
    S_HDR: begin
        if (s_resp_valid && s_resp_ready && !resp_drop) begin
            // an ACK/NAK goes first
            ack_reg <= s_resp_hdr;
            ack_qpn_reg <= s_resp_qpn;
            ack_back_reg <= 1'b1;
            state <= S_ACK_CTX;
        end else if (job_reg && !resp_path_ok) begin
            // the job's QP was destroyed or reset meanwhile: nothing to address it to
            job_reg <= 1'b0;
            state <= S_IDLE;
        end else if (job_yield) begin
            // this READ response job waits, half-sent, for its next turn
            js_push <= 1'b1;
            job_susp[job_qpn_reg] <= 1'b1;
            job_reg <= 1'b0;
            state <= S_IDLE;
        end else if (yield_now) begin
            // what was sent stays sent (a NAK or timeout asks for it again):
            // the WQE goes on from this PSN when the QP's turn comes (its
            // own rewind: right after S_RW, the QP keeps its list place)
            if (!resume_diff[23])
                resume_ram[qs_waddr] <= psn_reg;
            if (rw_here && !x_hold) begin
                rw_resume_reg <= 1'b1;
            end else begin
                act_push <= 1'b1;
                act_push_qpn <= q_reg;
            end
            state <= S_IDLE;
        end else if (!m_hdr_valid && resume_diff[23] && !job_reg) begin
            // received before a go-back-N: move the cursors past all of it at
            // once (a READ skips the responses it has and asks for the rest)
            first_pkt_reg <= 1'b0;
            if (skip_all) begin
                psn_reg <= psn_reg + pkts_left;
                remain_reg <= 33'd0;
                state <= S_DONE;
            end else begin
                psn_reg <= psn_reg + skip_want;
                remain_reg <= remain_reg - skip_bytes;
                if (w_inline)
                    inline_pos_reg <= inline_pos_reg + skip_bytes[9:0];
                skip_left_reg <= skip_bytes;
                state <= (w_inline || op_rd_atomic) ? S_HDR : S_SKIP;
            end
        end else if (!m_hdr_valid && ord_in_ready && !ord_push && ahead_ok) begin
            m_hdr_valid <= 1'b1;
            plen_reg <= this_plen;
            pleft_reg <= this_plen;
            if (rd_request) begin
                // READ or atomic request: no payload
                ord_push <= 1'b1;
                ord_push_data <= {SRC_ZERO, 10'd0, 13'd0, 1'b1};
            end else if (pk_inline || this_plen == 13'd0) begin
                ord_push <= 1'b1;
                ord_push_data <= {this_plen == 13'd0 ? SRC_ZERO : SRC_INLINE, inline_pos_reg, this_plen, 1'b1};
                inline_pos_reg <= inline_pos_reg + this_plen[9:0];
            end
        end else if (m_hdr_valid && m_hdr_ready) begin
            m_hdr_valid <= 1'b0;
            if (job_reg) begin
                inc_resp_pkts <= 1'b1;
                sent_rd_any[job_qpn_reg] <= 1'b1;
                sent_rd_ep_ram[job_qpn_reg] <= job_epoch_reg;
                sent_rd_psn_ram[job_qpn_reg] <= psn_reg + 1'b1;
            end else
                inc_req_pkts <= 1'b1;
            // the newest PSN sent (the completer's ACK timer runs while
            // anything up to it is unacknowledged)
            if (!job_reg && !c_ud && sent_newer_reg)
                sent_ram[qs_waddr] <= sent_new_reg;
            if (rd_request) begin
                // the request takes the PSNs of all its responses
                psn_reg <= psn_reg + req_psns;
                ip_id_reg <= ip_id_reg + 1'b1;
                state <= S_DONE;
            end else begin
                state <= (pk_inline || plen_reg == 13'd0) ? S_NEXT : S_G_XL;
            end
        end
    end
    S_SKIP: begin
        // the gather cursor passes over the skipped bytes, an SGE per two cycles
        skip_phase_reg <= !skip_phase_reg;
        if (!skip_phase_reg) begin
            skip_room_reg <= {1'b0, sge_len - sge_off_reg};
        end else if (skip_room_reg >= skip_left_reg) begin
            sge_off_reg <= sge_off_reg + skip_left_reg[31:0];
            skip_left_reg <= 33'd0;
            state <= S_HDR;
        end else begin
            skip_left_reg <= skip_left_reg - skip_room_reg;
            sge_i <= sge_i + 1'b1;
            sge_seg_reg <= sge_seg_reg + 1'b1;
            sge_off_reg <= 32'd0;
        end
    end
    S_RESP: if (m_hdr_ready) begin
        m_hdr_valid <= 1'b0;
        inc_resp_pkts <= 1'b1;
        state <= S_HDR;
    end
    S_G_XL: begin
        if (!m_xl_valid) begin
            if (sge_off_reg == sge_len) begin
                sge_i <= sge_i + 1'b1;
                sge_seg_reg <= sge_seg_reg + 1'b1;
                sge_off_reg <= 32'd0;
            end else begin
                m_xl_valid <= 1'b1;
                m_xl_key <= sge_lkey;
                m_xl_va <= sge_addr + {32'd0, sge_off_reg};
                if (sge_len - sge_off_reg >= {19'd0, pleft_reg}) begin
                    m_xl_len <= {19'd0, pleft_reg};
                    piece_last_reg <= 1'b1;
                end else begin
                    m_xl_len <= sge_len - sge_off_reg;
                    piece_last_reg <= 1'b0;
                end
            end
        end else if (m_xl_ready) begin
            m_xl_valid <= 1'b0;
            seg_first_reg <= 1'b1;
            state <= S_G_SEG;
        end
    end
    S_G_SEG: if (s_seg_valid && s_seg_ready) begin
        seg_first_reg <= 1'b0;
        if (seg_first_reg) begin
            // the piece's place in the payload: its DMA data, or zeros if
            // the MR went away since validation
            ord_push <= 1'b1;
            ord_push_data <= {seg_ok ? SRC_DMA : SRC_ZERO, 10'd0, m_xl_len[12:0], piece_last_reg};
        end
        if (!seg_ok) begin
            val_bad_reg <= 1'b1;
            err_status_reg <= `FROCE_WC_LOC_PROT_ERR;
            err_vendor_reg <= xl_vendor;
        end
        if (s_seg_last) begin
            sge_off_reg <= sge_off_reg + m_xl_len;
            pleft_reg <= pleft_reg - m_xl_len[12:0];
            state <= piece_last_reg ? S_NEXT : S_G_XL;
        end
    end
    S_NEXT: begin
        first_pkt_reg <= 1'b0;
        turn_bytes_reg <= turn_bytes_reg + {19'd0, plen_reg};
        if (job_pkts_reg != 4'hF)
            job_pkts_reg <= job_pkts_reg + 1'b1;
        psn_reg <= psn_reg + 1'b1;
        ip_id_reg <= ip_id_reg + 1'b1;
        remain_reg <= remain_reg - {20'd0, plen_reg};
        if (last_pkt || job_superseded)
            state <= S_DONE;
        else
            state <= S_HDR;
    end
    S_DONE: begin
        // inline data is read from the WQE buffer: let it drain first
        if (val_bad_reg && !job_reg) begin
            state <= S_ERR;
        end else if (job_reg) begin
            job_reg <= 1'b0;
            state <= S_IDLE;
        end else if (c_ud) begin
            // a datagram is done once its payload has been read: no ACK
            if (ord_drained) begin
                err_status_reg <= `FROCE_WC_SUCCESS;
                err_vendor_reg <= `FROCE_VENDOR_ERR_NONE;
                state <= S_UD_CQE;
            end
        end else if (!w_inline || ord_drained) begin
            if (op_rd_atomic)
                rd_issued_ram[qs_waddr] <= rd_issued_ram[q_reg] + 1'b1;
            if_we <= 1'b1;
            if_waddr <= {q_reg, sq_next_reg[OW-1:0]};
            if_wdata <= if_entry(first_psn_reg, psn_reg - 1'b1, wqe_sig_reg, w_op);
            sq_next_ram[qs_waddr] <= sq_next_reg + 1'b1;
            psn_ram[qs_waddr] <= psn_reg;
            resume_ram[qs_waddr] <= psn_reg;
            inc_wqes <= 1'b1;
            act_push <= 1'b1;
            act_push_qpn <= q_reg;
            state <= S_IDLE;
        end
    end
    S_UD_CQE: begin
        // the datagram's completion (if signaled); it retires here
        if (wqe_sig_reg && !m_cqe_valid) begin
            m_cqe_valid <= 1'b1;
            m_cqe_cqn <= c_scqn;
            m_cqe <= err_cqe;
        end else if (!wqe_sig_reg || m_cqe_ready) begin
            m_cqe_valid <= 1'b0;
            sq_next_ram[qs_waddr] <= sq_next_reg + 1'b1;
            psn_ram[qs_waddr] <= psn_reg;
            resume_ram[qs_waddr] <= psn_reg;
            inc_wqes <= 1'b1;
            act_push <= 1'b1;
            act_push_qpn <= q_reg;
            state <= S_IDLE;
        end
    end
    S_ERR: begin
        if (!m_cqe_valid) begin
            m_cqe_valid <= 1'b1;
            m_cqe_cqn <= c_scqn;
            m_cqe <= err_cqe;
        end else if (m_cqe_ready) begin
            m_cqe_valid <= 1'b0;
            inc_wqe_err <= 1'b1;
            tx_err[q_reg] <= 1'b1;
            // the failed or flushed WQE is done (completed here: its in-flight
            // entry is unsignaled and covers no PSN); later ones flush
            if_we <= 1'b1;
            if_waddr <= {q_reg, sq_next_reg[OW-1:0]};
            // (as a NOP: the completer expects no response data for it)
            if_wdata <= if_entry(psn_reg, psn_reg - 1'b1, 1'b0, `FROCE_WQE_OP_NOP);
            sq_next_ram[qs_waddr] <= sq_next_reg + 1'b1;
            psn_ram[qs_waddr] <= psn_reg;
            act_push <= 1'b1;
            act_push_qpn <= q_reg;
            state <= S_IDLE;
        end
    end
    default: state <= S_IDLE;
    endcase

    if (s_reread_valid) begin
        epoch_ram[epoch_waddr] <= epoch_ram[s_reread_qpn] + 1'b1;
        void_psn_ram[s_reread_qpn] <= s_reread_psn;
    end
    if (qpc_we && qpc_load_reset) begin
        epoch_ram[epoch_waddr] <= 8'd0;
        sent_rd_any[qpc_waddr] <= 1'b0;
    end

    // a kick or a doorbell puts its QP on the active list (no other list
    // change happens in the states that take them)
    if (s_kick_valid && s_kick_ready) begin
        if (!in_list[s_kick_qpn]) begin
            in_list[s_kick_qpn] <= 1'b1;
            act_push <= 1'b1;
            act_push_qpn <= s_kick_qpn;
        end
    end else if (s_db_valid && s_db_ready && s_db_qpn < NUM_QPS) begin
        sq_pi_ram[sq_pi_waddr] <= s_db_pi;
        if (!in_list[s_db_qpn[QW-1:0]]) begin
            in_list[s_db_qpn[QW-1:0]] <= 1'b1;
            act_push <= 1'b1;
            act_push_qpn <= s_db_qpn[QW-1:0];
        end
    end

    // WQE data from the read engine
    if (s_rd_tvalid && s_rd_tready && s_rd_tid[2]) begin
        if (wqe_beats[0])
            wqe_odd[wqe_beats[BB_W:1]] <= s_rd_tdata;
        else
            wqe_even[wqe_beats[BB_W:1]] <= s_rd_tdata;
        for (k = 0; k < WQE_HEAD_BEATS; k = k + 1)
            if (wqe_beats == k[WB_W-1:0])
                wqe[k * DATA_WIDTH +: DATA_WIDTH] <= s_rd_tdata;
        if (wqe_beats == {WB_W{1'b0}})
            w_class_reg <= op_class(s_rd_tdata[`FROCE_WQE_CTRL_OPCODE_LSB +: 8]);
        wqe_beats <= wqe_beats + 1'b1;
    end

    // context commits (after the engine's own updates: they win)
    if (qpc_we && qpc_load_reset) begin
        sq_pi_ram[sq_pi_waddr] <= 16'd0;
        sq_next_ram[qs_waddr] <= 16'd0;
        rd_issued_ram[qs_waddr] <= 16'd0;
        tx_err[qpc_waddr] <= 1'b0;
    end
    if (qpc_we && qpc_load_sq_psn) begin
        psn_ram[qs_waddr] <= qpc_wdata[`FROCE_QPC_SQ_PSN_LSB +: 24];
        resume_ram[qs_waddr] <= qpc_wdata[`FROCE_QPC_SQ_PSN_LSB +: 24];
        sent_ram[qs_waddr] <= qpc_wdata[`FROCE_QPC_SQ_PSN_LSB +: 24];
    end

    if (rst) begin
        state <= S_IDLE;
        skip_phase_reg <= 1'b0;
        in_list <= {NUM_QPS{1'b0}};
        tx_err <= {NUM_QPS{1'b0}};
        m_xl_valid <= 1'b0;
        m_hdr_valid <= 1'b0;
        m_cqe_valid <= 1'b0;
        job_reg <= 1'b0;
        job_susp <= {NUM_QPS{1'b0}};
        sent_rd_any <= {NUM_QPS{1'b0}};
        rw_resume_reg <= 1'b0;
        js_push <= 1'b0;
        act_push <= 1'b0;
        ord_push <= 1'b0;
        if_we <= 1'b0;
        ip_id_reg <= 16'd0;
        inc_req_pkts <= 1'b0;
        inc_resp_pkts <= 1'b0;
        inc_wqes <= 1'b0;
        inc_wqe_err <= 1'b0;
    end
end

// The header register loads every cycle until it is offered: its enable
// (the whole RHDR, spread over the die) is then one flip-flop, not the
// decision to send, which lands in m_hdr_valid alone
always @(posedge clk) begin
    if (!m_hdr_valid)
        m_hdr <= state == S_ACK_HDR ? ack_hdr : req_hdr;
end

// ---------------------------------------------------------------------------
// Payload source mux -> packer -> builder
// ---------------------------------------------------------------------------

wire [1:0] o_src = ord_data[ORD_W-1 -: 2];
wire [9:0] o_start = ord_data[ORD_W-3 -: 10];
wire [12:0] o_len = ord_data[13:1];
wire o_end = ord_data[0];

reg [12:0] gen_off_reg;         // bytes of the current INLINE/ZERO piece emitted

wire [DATA_WIDTH-1:0] pk_tdata;
wire [W-1:0] pk_tkeep;
wire pk_tvalid;
wire pk_tready;
wire pk_tlast;
wire pk_tuser;

wire [12:0] gen_left = o_len - gen_off_reg;
wire gen_last = gen_left <= W[12:0];
wire [KW:0] gen_bytes = gen_last ? gen_left[KW:0] : W[KW:0];
wire [W-1:0] gen_keep = ~({W{1'b1}} << gen_bytes);
assign inline_byte = o_start[8:0] + gen_off_reg[8:0];
wire [2*DATA_WIDTH-1:0] inline_shifted = inline_window >> {inline_byte[KW-1:0], 3'd0};

wire rd_payload = s_rd_tvalid && !s_rd_tid[2];
wire mux_dma = ord_valid && o_src == SRC_DMA;
wire mux_gen = ord_valid && o_src != SRC_DMA;

assign s_rd_tready = s_rd_tid[2] ? 1'b1 : (mux_dma && pk_tready);
assign pk_tvalid = (mux_dma && rd_payload) || mux_gen;
assign pk_tdata = mux_dma ? s_rd_tdata : (o_src == SRC_INLINE ? inline_shifted[DATA_WIDTH-1:0] : {DATA_WIDTH{1'b0}});
assign pk_tkeep = mux_dma ? s_rd_tkeep : (o_len == 13'd0 ? {W{1'b0}} : gen_keep);
assign pk_tlast = mux_dma ? s_rd_tlast : gen_last;
assign pk_tuser = mux_dma ? s_rd_tid[0] : o_end;
assign ord_pop = (mux_dma && rd_payload && pk_tready && s_rd_tlast && s_rd_tid[1]) ||
                 (mux_gen && pk_tready && gen_last);

always @(posedge clk) begin
    if (mux_gen && pk_tready)
        gen_off_reg <= gen_last ? 13'd0 : gen_off_reg + W[12:0];
    ahead_bytes <= ahead_bytes +
                   ((m_hdr_valid && m_hdr_ready) ? $signed({6'd0, m_hdr[`FROCE_RHDR_PAYLOAD_LEN_LSB +: 13]}) : 19'sd0) -
                   (ord_pop ? $signed({6'd0, o_len}) : 19'sd0);
    if (rst) begin
        gen_off_reg <= 13'd0;
        ahead_bytes <= 19'sd0;
    end
end

// REG_IN: the source mux (order FIFO -> WQE bank read -> inline shift) and
// the packer's byte shifts are separate paths, and s_rd_tready starts at a register
froce_axis_pack #(.DATA_WIDTH(DATA_WIDTH), .REG_IN(1)) packer (
    .clk(clk), .rst(rst),
    .s_axis_tdata(pk_tdata), .s_axis_tkeep(pk_tkeep), .s_axis_tvalid(pk_tvalid),
    .s_axis_tready(pk_tready), .s_axis_tlast(pk_tlast), .s_axis_tuser(pk_tuser),
    .m_axis_tdata(m_pay_tdata), .m_axis_tkeep(m_pay_tkeep), .m_axis_tvalid(m_pay_tvalid),
    .m_axis_tready(m_pay_tready), .m_axis_tlast(m_pay_tlast)
);

// fields read by other blocks, or kept for later features
wire unused_tx = ^{ctx, p_sgid, gid, w_dw0, act_in_ready, inline_shifted[2*DATA_WIDTH-1:DATA_WIDTH], o_start[9], sge_window, s_seg_len[31:16], rw_before_resume[22:0],
                   resume_diff[22:0], job_void_at[22:0], resp_void_at[22:0], js_void_at[22:0]};

endmodule

`resetall
