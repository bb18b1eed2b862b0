// SPDX-License-Identifier: MIT
// Responder and completer: RoCE packets from the RX buffer -> PSN checks, key checks, scatter DMA, ACKs, CQEs.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"
`include "froce_core_defs.vh"

/*
 * One packet at a time, in arrival order, from froce_rx_pkt_buffer (only
 * packets with a good ICRC get here). The header is looked up by BTH.DestQP;
 * the payload is either dropped or cut by froce_axis_split into one piece per
 * DMA write descriptor (m_split_*, m_wdesc_*), in lock step.
 *
 * Responder (RC SEND and RDMA WRITE, with immediate), QP in RTR or RTS:
 *   PSN - ePSN (24-bit serial):  0 -> execute;  < 0 -> duplicate: dropped,
 *   re-ACKed with ePSN - 1;  > 0 -> out of sequence: dropped, one
 *   PSN-sequence NAK per gap (until ePSN moves).
 *   Opcode sequence (FIRST/MIDDLE/LAST of one kind), payload lengths (FIRST and
 *   MIDDLE carry exactly the MTU, the message the RETH announces) ->
 *   NAK invalid request.
 *   WRITE: QP access (REMOTE_WRITE), then the whole RETH range through the
 *   MR/MTT unit (rkey, PDN, REMOTE_WRITE) on the first packet -> NAK remote
 *   access error on failure, nothing written; every packet is scattered at
 *   the running address.
 *   SEND (and WRITE with immediate on its last packet) needs an RQ WQE: none
 *   posted -> RNR NAK (MIN_RNR_TIMER), packet dropped, ePSN unchanged. The RQ
 *   WQE is fetched once per message; the first packet checks every SGE
 *   (LOCAL_WRITE) and the capacity; the payload is scattered at the message
 *   offset across the SGEs. The last packet writes the receive CQE and
 *   consumes the RQ WQE. A message longer than the buffers: LOC_LEN_ERR CQE,
 *   NAK invalid request.
 *   Executed: ePSN + 1; MSN + 1 on a message's last packet; an ACK when the
 *   packet asks for one (AckReq). Every ACK or NAK (it acknowledges the PSNs
 *   before it) leaves only after all data writes so far have completed.
 *   A NAK other than PSN-sequence puts the responder side in error: later
 *   requests are dropped, and m_qpev_* tells the firmware (an affiliated
 *   asynchronous event; it moves the QP to ERR).
 *
 * Completer (responses to this QP's requests), QP in RTS or ERR:
 *   ACK with PSN p retires in-flight WQEs (table written by the requester)
 *   whose last PSN <= p, oldest first; signaled ones get a CQE. A NAK with an
 *   error code completes the oldest WQE with REM_INV_REQ_ERR /
 *   REM_ACCESS_ERR / REM_OP_ERR, flushes the other in-flight WQEs and puts the
 *   send side in error (qp_err, read by the requester, which flushes the
 *   rest). Each retirement kicks the requester.
 *
 * Retransmission (go-back-N, the requester re-reads host memory;
 * docs/transport-engine.md "Loss recovery"):
 *   PSN-sequence NAK p: WQEs ending before p complete; the requester resends
 *   from p (m_rw_*), stopping the message it sends at the next packet. A NAK
 *   for PSNs already acknowledged, or for the resend just asked for, is not
 *   acted on.
 *   RNR NAK p: the same completions; the requester holds the QP (x_hold) and
 *   after the NAK's RNR delay resends from p. RNR_RETRY NAKs in a row fail
 *   the oldest WQE with RNR_RETRY_EXC_ERR (7 = retry forever).
 *   ACK timeout: a per-QP timer (4.096 us * 2^TIMEOUT at 156.25 MHz, scanned
 *   one QP per idle cycle) runs while a WQE is unretired or a packet sent is
 *   unacknowledged, and restarts whenever new PSNs are acknowledged (una_ram);
 *   on expiry the requester resends from the oldest unacknowledged PSN.
 *   After progress it first runs for AR_BASE_CYCLES, doubling per expiry up
 *   to the QP's timeout (adaptive retransmission); RETRY_CNT expiries at the
 *   QP's timeout in a row fail the oldest WQE with RETRY_EXC_ERR. Failures
 *   flush the QP's other WQEs as a fatal NAK does.
 *
 * UD SEND ONLY (QP type UD/GSI in RTR/RTS/SQD): DETH Q_Key must be the QP's
 *   (else dropped, inc_qkey_err); no PSN check, no ACK; no RQ WQE -> dropped
 *   (inc_out_of_buffer); the buffer gets the 40-byte GRH area (grh_data,
 *   prepended to the payload in froce_core) and then the payload; the CQE
 *   names the source QP, SMAC and network type. A buffer too small ->
 *   LOC_LEN_ERR CQE, nothing written.
 *
 * Other opcodes (UC, CNP, connected-mode packets for a UD QP) are dropped and
 * counted.
 */
module froce_rx_engine #(
    parameter DATA_WIDTH = 64,
    parameter NUM_QPS = 256,
    parameter OUTSTANDING = 32,
    parameter RD_ATOMIC_MAX = 8,        // atomic replay cache entries per QP (the requesters' READ/atomic limit)
    // Adaptive retransmission: after progress the ACK timer first runs for
    // the larger of AR_BASE_CYCLES and twice the time of 16 packets of the
    // QP's MTU (the requester's AckReq interval), doubling at each expiry
    // without progress, until that reaches the QP's own timeout; only
    // expiries at the QP's timeout count against RETRY_CNT. 0 = the QP's
    // timeout only.
    parameter AR_BASE_CYCLES = 4096,
    // derived: leave at their defaults
    parameter QW = $clog2(NUM_QPS),
    parameter OW = $clog2(OUTSTANDING),
    parameter QPC_BITS = `FROCE_QPC_SIZE * 8,
    parameter CQE_BITS = `FROCE_CQE_SIZE * 8,
    parameter IF_BITS = `FROCE_INFLIGHT_BITS,
    parameter AW = $clog2(RD_ATOMIC_MAX)
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Context commits: qpc_we only in a cycle with qpc_ready */
    output wire                         qpc_ready,
    input  wire                         qpc_we,
    input  wire [QW-1:0]                qpc_waddr,
    input  wire [QPC_BITS-1:0]          qpc_wdata,
    input  wire                         qpc_load_reset,
    input  wire                         qpc_load_rq_psn,
    input  wire                         qpc_load_sq_psn,

    /* RQ doorbells */
    input  wire                         s_db_valid,
    output wire                         s_db_ready,
    input  wire [23:0]                  s_db_qpn,
    input  wire [15:0]                  s_db_pi,

    /* Packets (header bundle + payload) */
    input  wire [`FROCE_RHDR_W-1:0]     s_hdr,
    input  wire                         s_hdr_valid,
    output wire                         s_hdr_ready,
    input  wire                         s_pay_tvalid,
    output wire                         s_pay_tready,
    input  wire                         s_pay_tlast,
    output wire                         pay_to_split,   // payload goes to the splitter
    input  wire                         split_tready,
    output wire                         pay_grh,        // UD: the splitter gets grh_data before the payload
    output reg  [319:0]                 grh_data,       // the 40-byte GRH area, byte 0 in bits 7:0

    /* Response headers to the requester side */
    output reg                          m_resp_valid,
    input  wire                         m_resp_ready,
    output reg  [`FROCE_RESP_W-1:0]     m_resp_hdr,     // FROCE_RESP_* (the tx engine adds the QP's path)
    output reg                          m_resp_read,    // a READ response job (m_resp_hdr: its PSN and AETH)
    output reg  [63:0]                  m_resp_va,
    output reg  [31:0]                  m_resp_rkey,
    output reg  [31:0]                  m_resp_len,
    output reg  [QW-1:0]                m_resp_qpn,     // the QP it belongs to
    output reg  [7:0]                   m_resp_epoch,   // a READ job: the QP's READ epoch when it was made
    output reg                          m_reread_valid, // a READ asked again: QP m_reread_qpn's earlier jobs
    output reg  [QW-1:0]                m_reread_qpn,   // at or past m_reread_psn are void
    output reg  [23:0]                  m_reread_psn,
    output wire [QW-1:0]                sent_rd_qpn,    // the newest READ response the tx engine sent
    input  wire                         sent_rd_valid,  // for this QP (none since it was loaded)
    input  wire [7:0]                   sent_rd_epoch,
    input  wire [23:0]                  sent_rd_next,   // the PSN after it

    /* Kicks to the requester */
    output reg                          m_kick_valid,
    input  wire                         m_kick_ready,
    output reg  [QW-1:0]                m_kick_qpn,

    /* Go-back-N: the requester resends QP m_rw_qpn from PSN m_rw_psn */
    output reg                          m_rw_valid,
    input  wire                         m_rw_ready,
    output reg  [QW-1:0]                m_rw_qpn,
    output reg  [23:0]                  m_rw_psn,

    /* Requester state */
    output wire [QW-1:0]                r_qpn,
    input  wire [15:0]                  r_sq_next,
    input  wire [23:0]                  r_sent_psn,     // the PSN after the newest request packet sent
    input  wire                         r_tx_err,       // the requester stopped on an error (it flushes)
    input  wire [15:0]                  r_rd_issued,    // READ/atomic WQEs it sent (mod 2^16)
    input  wire [QW-1:0]                x_qpn,
    output wire [15:0]                  x_ack_wqe,
    output wire                         x_err,
    output wire [15:0]                  x_rd_retired,   // READ/atomic WQEs retired (mod 2^16)
    output wire                         x_hold,         // waiting out an RNR NAK: the requester sends nothing

    /* In-flight table read (the data a cycle after the address) */
    output wire [QW+OW-1:0]             if_raddr,
    input  wire [IF_BITS-1:0]           if_rdata,
    input  wire                         if_fresh,       // if_rdata is if_raddr's entry

    /* MR/MTT translation */
    output reg                          m_xl_valid,
    input  wire                         m_xl_ready,
    output reg  [31:0]                  m_xl_key,
    output wire [23:0]                  m_xl_pd,
    output reg  [63:0]                  m_xl_va,
    output reg  [31:0]                  m_xl_len,
    (* fsm_encoding = "none" *)         // a request field, not a state machine
    output reg  [3:0]                   m_xl_access,
    input  wire                         s_seg_valid,
    output wire                         s_seg_ready,
    input  wire [63:0]                  s_seg_addr,
    input  wire [31:0]                  s_seg_len,
    input  wire                         s_seg_last,
    input  wire [2:0]                   s_seg_status,

    /* RQ WQE fetch: DMA read engine */
    output wire                         m_rd_desc_valid,
    input  wire                         m_rd_desc_ready,
    output wire [63:0]                  m_rd_desc_addr,
    output wire [15:0]                  m_rd_desc_len,
    input  wire [DATA_WIDTH-1:0]        s_rd_tdata,
    input  wire                         s_rd_tvalid,
    output wire                         s_rd_tready,

    /* Scatter: splitter command + DMA write descriptor, in lock step */
    output wire                         m_scat_valid,
    input  wire                         m_scat_ready,
    output wire [63:0]                  m_scat_addr,
    output wire [15:0]                  m_scat_len,
    output wire                         m_scat_last,    // last piece of the packet
    output wire                         m_scat_discard, // drop these bytes
    input  wire                         wr_done,        // one of our DMA writes completed

    /* 8-byte writes of an atomic: the new value (responder), the original
     * value into the requester's buffer (completer); ordered with the scatter */
    output reg                          m_sw_valid,
    input  wire                         m_sw_ready,
    output reg  [63:0]                  m_sw_addr,
    output reg  [63:0]                  m_sw_data,
    output reg  [3:0]                   m_sw_len,       // 1..8 bytes, from byte 0 of m_sw_data

    /* CQE requests */
    output reg                          m_cqe_valid,
    input  wire                         m_cqe_ready,
    output reg  [23:0]                  m_cqe_cqn,
    output reg  [CQE_BITS-1:0]          m_cqe,

    /* Affiliated asynchronous events for the firmware: the responder side
     * of a connected QP went to error (a refused request was NAKed). One
     * cycle each; subtype FROCE_QP_EV_ACCESS_ERR (remote access error NAK),
     * _REQ_ERR (invalid request), _FATAL (remote operational error). */
    output reg                          m_qpev_valid,
    output reg  [23:0]                  m_qpev_qpn,
    output reg  [7:0]                   m_qpev_subtype,

    /* Counter events: one-cycle pulses, each adds 1 to its counter */
    output reg                          inc_rx_pkts,
    output reg                          inc_dup,
    output reg                          inc_oos,
    output reg                          inc_nak_sent,
    output reg                          inc_rnr_sent,
    output reg                          inc_seq_nak_rcvd,
    output reg                          inc_acc_nak_rcvd,
    output reg                          inc_inv_nak_rcvd,
    output reg                          inc_access_err,
    output reg                          inc_dropped,
    output reg                          inc_retrans,
    output reg                          inc_timeouts,
    output reg                          inc_adp_retrans,    // of which adaptive (shorter than the QP's timeout)
    output reg                          inc_rnr_rcvd,
    output reg                          inc_retry_exc,
    output reg                          inc_rnr_retry_exc,
    output reg                          inc_out_of_buffer,
    output reg                          inc_len_err,
    output reg                          inc_qkey_err
);

localparam W = DATA_WIDTH / 8;
localparam KW = $clog2(W);
localparam WQE_MAX = 1 << `FROCE_WQE_SHIFT_MAX;
localparam WB_W = `FROCE_WQE_SHIFT_MAX - KW + 1;
localparam WQE_BEATS = WQE_MAX / W;
localparam BB_W = `FROCE_WQE_SHIFT_MAX - KW - 1;    // bank index
localparam RQE_HEAD_BITS = 64;
localparam RQE_HEAD_PART = DATA_WIDTH < RQE_HEAD_BITS ? DATA_WIDTH : RQE_HEAD_BITS;  // of it in one beat
localparam RQE_HEAD_BEATS = RQE_HEAD_BITS / RQE_HEAD_PART;

`include "froce_core_functions.vh"

initial begin
    if ((1 << QW) != NUM_QPS || (1 << OW) != OUTSTANDING || (1 << AW) != RD_ATOMIC_MAX || W < 8) begin
        $display("froce_rx_engine: NUM_QPS, OUTSTANDING, RD_ATOMIC_MAX must be powers of two, DATA_WIDTH >= 64");
        $finish;
    end
end

// ---------------------------------------------------------------------------
// Contexts and per-QP state
// ---------------------------------------------------------------------------

reg [QPC_BITS-1:0] qpc_ram [0:NUM_QPS-1];
reg [QW-1:0] q_reg;
reg [QPC_BITS-1:0] ctx;
// Contexts written since rst: the context RAM keeps what it held across a
// device reset (froce_dev_reset) until the firmware has cleared every entry
// again, and a frame must not find a QP of the driver before the reset.
// A QP not written since is in RESET, whatever its RAM entry says.
reg [NUM_QPS-1:0] qp_known;
reg ctx_known;

always @(posedge clk) begin
    if (qpc_we)
        qpc_ram[qpc_waddr] <= qpc_wdata;
    ctx <= qpc_ram[q_reg];
    ctx_known <= qp_known[q_reg];     // like ctx: the value before a write in this cycle
    if (qpc_we)
        qp_known[qpc_waddr] <= 1'b1;
    if (rst)
        qp_known <= {NUM_QPS{1'b0}};
end

// responder
reg [23:0] epsn_ram [0:NUM_QPS-1];
reg [23:0] msn_ram [0:NUM_QPS-1];
reg [15:0] rq_pi_ram [0:NUM_QPS-1];
reg [15:0] rq_ci_ram [0:NUM_QPS-1];
reg [63:0] wr_va_ram [0:NUM_QPS-1];
reg [31:0] wr_key_ram [0:NUM_QPS-1];
reg [31:0] wr_left_ram [0:NUM_QPS-1];
reg [31:0] wr_total_ram [0:NUM_QPS-1];
reg [31:0] recv_off_ram [0:NUM_QPS-1];
reg [NUM_QPS-1:0] nak_sent;
reg [NUM_QPS-1:0] in_msg;
reg [NUM_QPS-1:0] msg_write;        // the message in progress is a WRITE
reg [NUM_QPS-1:0] resp_err;
// READ epoch: moves when a READ request comes again and starts a resend
// (the requester lost responses and went back to its first missing one; the
// PSN does not follow the duplicates just before it): the QP's response jobs
// made before it are void from that PSN on (froce_tx_engine keeps the same
// count). Duplicates that follow one another belong to one resend.
reg [7:0] rd_epoch_ram [0:NUM_QPS-1];
reg [23:0] dup_next_ram [0:NUM_QPS-1];      // the PSN after the last READ job queued (or duplicate)
reg [23:0] rr_start_ram [0:NUM_QPS-1];      // where the current READ epoch started
// atomic replay cache: the last RD_ATOMIC_MAX atomics executed per QP
reg [23:0] atom_psn_ram [0:NUM_QPS*RD_ATOMIC_MAX-1];
reg [63:0] atom_orig_ram [0:NUM_QPS*RD_ATOMIC_MAX-1];
reg [NUM_QPS*RD_ATOMIC_MAX-1:0] atom_valid;
reg [AW-1:0] atom_next_ram [0:NUM_QPS-1];
// completer
reg [15:0] ack_wqe_ram [0:NUM_QPS-1];
reg [NUM_QPS-1:0] req_err;
reg [15:0] rd_retired_ram [0:NUM_QPS-1];    // READ/atomic WQEs retired
reg [23:0] rd_pkts_ram [0:NUM_QPS-1];       // responses received for the oldest WQE (a READ)
reg [NUM_QPS-1:0] rd_rw_sent;               // a resend of its missing responses was asked for
reg [11:0] rd_oos_ram [0:NUM_QPS-1];        // responses out of sequence since the last request
reg [2:0] rd_oos_lvl_ram [0:NUM_QPS-1];     // re-requests since progress: 32 << lvl responses before the next
reg [23:0] rd_oos_psn_ram [0:NUM_QPS-1];    // the newest out-of-sequence response since the last request
reg [23:0] una_ram [0:NUM_QPS-1];           // oldest unacknowledged request PSN
reg [23:0] seq_rw_psn_ram [0:NUM_QPS-1];    // PSN of the last go-back-N asked for ...
reg [NUM_QPS-1:0] seq_rw_valid;             // ... with no progress since (a NAK for it again is a duplicate)
// retransmission timers (small copies of QPC fields, taken at commit)
reg [4:0] tmo_exp_ram [0:NUM_QPS-1];        // QPC.TIMEOUT
reg [2:0] retry_cnt_ram [0:NUM_QPS-1];      // QPC.RETRY_CNT
reg [2:0] rnr_retry_ram [0:NUM_QPS-1];      // QPC.RNR_RETRY
reg [2:0] retry_left_ram [0:NUM_QPS-1];
reg [2:0] rnr_left_ram [0:NUM_QPS-1];
reg [31:0] deadline_ram [0:NUM_QPS-1];
reg [3:0] ar_lvl_ram [0:NUM_QPS-1];         // adaptive expiries since the last progress
reg [2:0] ar_mtu_ram [0:NUM_QPS-1];         // QPC.PATH_MTU
reg ar_exp_reg;                             // this expiry was an adaptive one
reg [23:0] rnr_psn_ram [0:NUM_QPS-1];
reg [NUM_QPS-1:0] tmr_on;
reg [NUM_QPS-1:0] sq_live;                  // committed in RTS or SQD: timers run
reg [NUM_QPS-1:0] rnr_wait;
reg [31:0] now;                             // cycles, wraps; compared serially
reg [QW-1:0] scan_q;
reg scan_turn;

assign x_ack_wqe = ack_wqe_ram[x_qpn];
assign x_err = req_err[x_qpn];
assign x_rd_retired = rd_retired_ram[x_qpn];
assign x_hold = rnr_wait[x_qpn];
assign r_qpn = state == R_IDLE ? scan_q : q_reg;

// context fields
wire [3:0] c_state = ctx_known ? ctx[`FROCE_QPC_STATE_LSB +: `FROCE_QPC_STATE_W] : `FROCE_QP_STATE_RESET;
wire [3:0] c_type = ctx[`FROCE_QPC_TYPE_LSB +: `FROCE_QPC_TYPE_W];
wire c_rc = c_type == `FROCE_QP_TYPE_RC;
wire c_ud = c_type == `FROCE_QP_TYPE_UD || c_type == `FROCE_QP_TYPE_GSI;
wire [31:0] c_qkey = ctx[`FROCE_QPC_QKEY_LSB +: 32];
wire [2:0] c_mtu = ctx[`FROCE_QPC_PATH_MTU_LSB +: `FROCE_QPC_PATH_MTU_W];
wire [23:0] c_pdn = ctx[`FROCE_QPC_PDN_LSB +: `FROCE_QPC_PDN_W];
wire [23:0] c_scqn = ctx[`FROCE_QPC_SCQN_LSB +: `FROCE_QPC_SCQN_W];
wire [23:0] c_rcqn = ctx[`FROCE_QPC_RCQN_LSB +: `FROCE_QPC_RCQN_W];
wire [23:0] c_dqpn = ctx[`FROCE_QPC_DEST_QPN_LSB +: `FROCE_QPC_DEST_QPN_W];
wire [7:0] c_access = ctx[`FROCE_QPC_ACCESS_LSB +: `FROCE_QPC_ACCESS_W];
wire [4:0] c_rq_log = ctx[`FROCE_QPC_RQ_LOG_SIZE_LSB +: `FROCE_QPC_RQ_LOG_SIZE_W];
wire [3:0] c_rq_shift = ctx[`FROCE_QPC_RQ_WQE_SHIFT_LSB +: `FROCE_QPC_RQ_WQE_SHIFT_W];
wire [31:0] c_ring_key = ctx[`FROCE_QPC_RING_KEY_LSB +: `FROCE_QPC_RING_KEY_W];
wire [63:0] c_rq_va = ctx[`FROCE_QPC_RQ_VA_LSB +: `FROCE_QPC_RQ_VA_W];
wire [4:0] c_sq_log = ctx[`FROCE_QPC_SQ_LOG_SIZE_LSB +: `FROCE_QPC_SQ_LOG_SIZE_W];
wire [3:0] c_sq_shift = ctx[`FROCE_QPC_SQ_WQE_SHIFT_LSB +: `FROCE_QPC_SQ_WQE_SHIFT_W];
wire [63:0] c_sq_va = ctx[`FROCE_QPC_SQ_VA_LSB +: `FROCE_QPC_SQ_VA_W];
wire [3:0] mtu_shift = mtu_log2(c_mtu);
wire [4:0] c_min_rnr = ctx[`FROCE_QPC_MIN_RNR_TIMER_LSB +: `FROCE_QPC_MIN_RNR_TIMER_W];
wire [12:0] mtu = mtu_bytes(c_mtu);
wire [9:0] rq_wqe_bytes = 10'd1 << c_rq_shift;

// ACK timeout 4.096 us * 2^TIMEOUT = 640 cycles * 2^TIMEOUT at 156.25 MHz
// (exponents above 22 are treated as 22, about 17 s); 0 = no timeout
function [31:0] ack_timeout;
    input [4:0] e;
    begin
        ack_timeout = 32'd640 << (e > 5'd22 ? 5'd22 : e);
    end
endfunction

// RNR NAK timer field -> cycles at 156.25 MHz (IBA 9.7.5.2.8, 0.01 ms .. 655.36 ms)
function [31:0] rnr_delay;
    input [4:0] t;
    begin
        case (t)
        5'd0: rnr_delay = 32'd102400000;  5'd1: rnr_delay = 32'd1563;      5'd2: rnr_delay = 32'd3125;
        5'd3: rnr_delay = 32'd4688;       5'd4: rnr_delay = 32'd6250;      5'd5: rnr_delay = 32'd9375;
        5'd6: rnr_delay = 32'd12500;      5'd7: rnr_delay = 32'd18750;     5'd8: rnr_delay = 32'd25000;
        5'd9: rnr_delay = 32'd37500;      5'd10: rnr_delay = 32'd50000;    5'd11: rnr_delay = 32'd75000;
        5'd12: rnr_delay = 32'd100000;    5'd13: rnr_delay = 32'd150000;   5'd14: rnr_delay = 32'd200000;
        5'd15: rnr_delay = 32'd300000;    5'd16: rnr_delay = 32'd400000;   5'd17: rnr_delay = 32'd600000;
        5'd18: rnr_delay = 32'd800000;    5'd19: rnr_delay = 32'd1200000;  5'd20: rnr_delay = 32'd1600000;
        5'd21: rnr_delay = 32'd2400000;   5'd22: rnr_delay = 32'd3200000;  5'd23: rnr_delay = 32'd4800000;
        5'd24: rnr_delay = 32'd6400000;   5'd25: rnr_delay = 32'd9600000;  5'd26: rnr_delay = 32'd12800000;
        5'd27: rnr_delay = 32'd19200000;  5'd28: rnr_delay = 32'd25600000; 5'd29: rnr_delay = 32'd38400000;
        5'd30: rnr_delay = 32'd51200000;  default: rnr_delay = 32'd76800000;
        endcase
    end
endfunction

// ---------------------------------------------------------------------------
// Current packet
// ---------------------------------------------------------------------------

reg [`FROCE_RHDR_W-1:0] h;
wire [23:0] h_dqpn = h[`FROCE_RHDR_DQPN_LSB +: 24];
wire [23:0] h_psn = h[`FROCE_RHDR_PSN_LSB +: 24];
wire h_ackreq = h[`FROCE_RHDR_ACKREQ_LSB];
wire h_se = h[`FROCE_RHDR_SE_LSB];
wire [12:0] h_plen = h[`FROCE_RHDR_PAYLOAD_LEN_LSB +: 13];
// the extension headers (RHDR's ext: their wire bytes, the first at the top);
// each field at its header's offset, the header's at its place after the BTH
localparam EXT = `FROCE_RHDR_EXT_LSB + `FROCE_RHDR_EXT_W - 1;
localparam EXT_IMM_RETH = EXT - 8 * `FROCE_RETH_LEN, EXT_IMM_DETH = EXT - 8 * `FROCE_DETH_LEN;
localparam EXT_AACK = EXT - 8 * `FROCE_AETH_LEN;
wire [63:0] h_va = h[EXT-`FROCE_RETH_VA_OFF -: 64];
wire [31:0] h_rkey = h[EXT-`FROCE_RETH_RKEY_OFF -: 32];
wire [31:0] h_dmalen = h[EXT-`FROCE_RETH_DMALEN_OFF -: 32];
wire [7:0] h_syn = h[EXT-`FROCE_AETH_SYNDROME_OFF -: 8];
wire [63:0] h_ava = h[EXT-`FROCE_ATOMICETH_VA_OFF -: 64];
wire [31:0] h_arkey = h[EXT-`FROCE_ATOMICETH_RKEY_OFF -: 32];
wire [63:0] h_swap_add = h[EXT-`FROCE_ATOMICETH_SWAP_OFF -: 64];
wire [63:0] h_compare = h[EXT-`FROCE_ATOMICETH_CMP_OFF -: 64];
wire [63:0] h_orig = h[EXT_AACK-`FROCE_ATOMICACKETH_ORIG_OFF -: 64];
wire [31:0] h_qkey = h[EXT-`FROCE_DETH_QKEY_OFF -: 32];
wire [23:0] h_src_qpn = h[EXT-`FROCE_DETH_SQPN_OFF -: 24];

// opcode classes (RC only for now)
// decoded from the bundle's opcode as it is taken into h, so every use
// starts at a flip-flop; they always match h_op
localparam OPC_W = 23;
function [OPC_W-1:0] rx_op_class;
    input [7:0] op;
    reg send_first, send_mid, send_last, send_only, wr_first, wr_mid, wr_last, wr_only;
    reg ud, imm, read_req, cswap, atomic, rresp_first, rresp_mid, rresp_last, rresp_only, aack, ack;
    begin
        send_first = op == `FROCE_OP_RC_SEND_FIRST;
        send_mid = op == `FROCE_OP_RC_SEND_MIDDLE;
        send_last = op == `FROCE_OP_RC_SEND_LAST || op == `FROCE_OP_RC_SEND_LAST_WITH_IMMEDIATE;
        send_only = op == `FROCE_OP_RC_SEND_ONLY || op == `FROCE_OP_RC_SEND_ONLY_WITH_IMMEDIATE;
        wr_first = op == `FROCE_OP_RC_RDMA_WRITE_FIRST;
        wr_mid = op == `FROCE_OP_RC_RDMA_WRITE_MIDDLE;
        wr_last = op == `FROCE_OP_RC_RDMA_WRITE_LAST || op == `FROCE_OP_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE;
        wr_only = op == `FROCE_OP_RC_RDMA_WRITE_ONLY || op == `FROCE_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
        ud = op == `FROCE_OP_UD_SEND_ONLY || op == `FROCE_OP_UD_SEND_ONLY_WITH_IMMEDIATE;
        imm = op == `FROCE_OP_RC_SEND_LAST_WITH_IMMEDIATE || op == `FROCE_OP_RC_SEND_ONLY_WITH_IMMEDIATE ||
              op == `FROCE_OP_RC_RDMA_WRITE_LAST_WITH_IMMEDIATE || op == `FROCE_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE ||
              op == `FROCE_OP_UD_SEND_ONLY_WITH_IMMEDIATE;
        read_req = op == `FROCE_OP_RC_RDMA_READ_REQUEST;
        cswap = op == `FROCE_OP_RC_COMPARE_SWAP;
        atomic = cswap || op == `FROCE_OP_RC_FETCH_ADD;
        rresp_first = op == `FROCE_OP_RC_RDMA_READ_RESPONSE_FIRST;
        rresp_mid = op == `FROCE_OP_RC_RDMA_READ_RESPONSE_MIDDLE;
        rresp_last = op == `FROCE_OP_RC_RDMA_READ_RESPONSE_LAST;
        rresp_only = op == `FROCE_OP_RC_RDMA_READ_RESPONSE_ONLY;
        aack = op == `FROCE_OP_RC_ATOMIC_ACKNOWLEDGE;
        ack = op == `FROCE_OP_RC_ACKNOWLEDGE;
        rx_op_class = {
            send_first || send_mid || send_last || send_only,                               // 22 send
            wr_first || wr_mid || wr_last || wr_only,                                       // 21 write
            rresp_first || rresp_mid || rresp_last || rresp_only || aack,                   // 20 response
            send_first || send_mid || send_last || send_only || wr_first || wr_mid ||
                wr_last || wr_only || read_req || atomic,                                   // 19 request
            send_first || send_only || wr_first || wr_only || read_req || atomic || ud,     // 18 starts
            send_last || send_only || wr_last || wr_only || read_req || atomic || ud,       // 17 ends
            ack, aack, rresp_only, rresp_last, rresp_mid, rresp_first,                      // 16..11
            atomic, cswap, read_req, imm, ud,                                               // 10..6
            wr_only, wr_last, wr_mid, wr_first,                                             // 5..2
            send_only, send_first};                                                         // 1..0
    end
endfunction
reg [OPC_W-1:0] h_class_reg = {OPC_W{1'b0}};
wire op_send_first = h_class_reg[0];
wire op_send_only = h_class_reg[1];
wire op_wr_first = h_class_reg[2];
wire op_wr_mid = h_class_reg[3];
wire op_wr_last = h_class_reg[4];
wire op_wr_only = h_class_reg[5];
wire op_ud = h_class_reg[6];
wire op_imm = h_class_reg[7];
wire op_read_req = h_class_reg[8];
wire op_cswap = h_class_reg[9];
wire op_atomic = h_class_reg[10];
wire op_rresp_first = h_class_reg[11];
wire op_rresp_mid = h_class_reg[12];
wire op_rresp_last = h_class_reg[13];
wire op_rresp_only = h_class_reg[14];
wire op_aack = h_class_reg[15];
wire op_ack = h_class_reg[16];
wire op_ends = h_class_reg[17];
wire op_starts = h_class_reg[18];
wire op_request = h_class_reg[19];
wire op_response = h_class_reg[20];
wire op_write = h_class_reg[21];
wire op_send = h_class_reg[22];
wire needs_rqe = op_send || op_ud || (op_imm && op_write);
// ImmDt follows DETH (UD) or RETH (WRITE ONLY) when the packet has one
wire [31:0] h_imm = op_ud ? h[EXT_IMM_DETH-`FROCE_IMMDT_IMM_OFF -: 32] :
                    op_wr_only ? h[EXT_IMM_RETH-`FROCE_IMMDT_IMM_OFF -: 32] : h[EXT-`FROCE_IMMDT_IMM_OFF -: 32];
// bytes the packet puts in the receive buffers: a datagram has the 40-byte
// GRH area in front of its payload
wire [12:0] rx_len = op_ud ? h_plen + 13'd40 : h_plen;

// ---------------------------------------------------------------------------
// WQE buffer: an RQ WQE (SEND) or, for the completer, the SQ WQE of a READ
// or atomic (its SGEs receive the data). It stays valid for the next packet
// of the same WQE (rqe_tag), so a message fetches its WQE once.
// ---------------------------------------------------------------------------

// The WQE sits in two banks of beats (even and odd: a 16-byte data segment
// is two consecutive beats at 64 bits); its first 8 bytes (what the logic
// reads of the RQ WQE header, the SQ WQE's control segment or an atomic's
// original value) also in registers. A WQE-wide register with a segment
// multiplexer over it cost several thousand cells.
reg [RQE_HEAD_BITS-1:0] rqe;
reg [DATA_WIDTH-1:0] rqe_even [0:WQE_BEATS/2-1];
reg [DATA_WIDTH-1:0] rqe_odd [0:WQE_BEATS/2-1];
reg [WB_W-1:0] rqe_beats;
reg fetch_sq_reg;                   // the WQE being used is an SQ WQE
reg rqe_tag_ok;
reg [QW+16:0] rqe_tag;              // {SQ, QP, WQE index} the buffer holds
wire [15:0] rqe_index = rqe[`FROCE_RQ_WQE_HDR_WQE_INDEX_LSB +: 16];
wire [7:0] rqe_nsge = rqe[`FROCE_RQ_WQE_HDR_NUM_SGE_LSB +: 8];
// SQ WQE: SGEs after the control and raddr (READ) or atomic segments
wire [5:0] sq_ds = rqe[`FROCE_WQE_CTRL_DS_LSB +: `FROCE_WQE_CTRL_DS_W];
wire [4:0] sge_base = !fetch_sq_reg ? 5'd1 : op_aack ? 5'd3 : 5'd2;
wire [5:0] sq_nsge6 = sq_ds > {1'b0, sge_base} ? sq_ds - {1'b0, sge_base} : 6'd0;
wire [4:0] sq_nsge = sq_nsge6[4:0];     // at most 30
reg [4:0] sge_i;
// sge_i's 16-byte segment of the WQE (sge_base + sge_i, kept in a register
// from R_WQE_OK on, where every packet's use of the SGEs starts: the
// opcode decode and an adder stay out of the bank read's address)
reg [4:0] sge_seg_reg;
reg [4:0] sge_base_reg;         // sge_base, latched at R_WQE_OK
wire [8:0] sge_byte = {sge_seg_reg, 4'd0};
wire [BB_W:0] sge_beat = sge_byte[8:KW];
wire [BB_W-1:0] sge_bank = sge_beat[BB_W:1];
// beats b and b + 1, b the beat holding the segment's first byte
wire [2*DATA_WIDTH-1:0] sge_window = sge_beat[0] ? {rqe_even[sge_bank + 1'b1], rqe_odd[sge_bank]}
                                                 : {rqe_odd[sge_bank], rqe_even[sge_bank]};
wire [127:0] sge_seg = sge_window[{1'b0, sge_byte[KW-1:0], 3'd0} +: 128];
wire [63:0] sge_addr = sge_seg[`FROCE_WQE_DATA_ADDR_LSB +: 64];
wire [31:0] sge_len = sge_seg[`FROCE_WQE_DATA_LEN_LSB +: 32];
wire [31:0] sge_lkey = sge_seg[`FROCE_WQE_DATA_LKEY_LSB +: 32];
// SGEs that fit in the WQE
wire [5:0] max_sge = rq_wqe_bytes[9:4] - 6'd1;
wire [4:0] nsge = {3'd0, rqe_nsge} > {5'd0, max_sge} ? max_sge[4:0] : rqe_nsge[4:0];

// ---------------------------------------------------------------------------
// State machine
// ---------------------------------------------------------------------------

localparam [5:0]
    R_IDLE = 6'd0, R_CTX = 6'd1, R_CLASS = 6'd2, R_EXEC = 6'd3, R_WCHK = 6'd4,
    R_WCHK_SEG = 6'd5, R_RQ = 6'd6, R_RQ_XL = 6'd7, R_RQ_SEG = 6'd8, R_RQ_DATA = 6'd9,
    R_RVAL = 6'd10, R_RVAL_SEG = 6'd11, R_SEEK = 6'd12, R_SCAT_XL = 6'd13,
    R_SCAT_SEG = 6'd14, R_PAY = 6'd15, R_CQE = 6'd16, R_ACKQ = 6'd17, R_DONE = 6'd18,
    R_DROP = 6'd19, R_CMPL = 6'd21, R_CMPL_CQE = 6'd22, R_KICK = 6'd24, R_WRITE = 6'd25,
    R_TMO = 6'd26, R_TMO2 = 6'd27, R_KICK2 = 6'd28, R_RDJOB = 6'd29, R_AREAD = 6'd30,
    R_AWAIT = 6'd31, R_AWRITE = 6'd32, R_ADUP = 6'd33, R_RPROC = 6'd34, R_RDROP = 6'd35,
    R_WQE_GET = 6'd36, R_WQE_OK = 6'd37, R_RCAP = 6'd38, R_AACK = 6'd39, R_AACK_SEG = 6'd40,
    R_AACKW = 6'd41, R_RDONE = 6'd42;
// one-hot: every "state ==" in the decisions is a flip-flop, not a decode
// (Yosys judged by itself that the rx engine's would not benefit)
(* fsm_encoding = "one-hot" *)
reg [5:0] state;

reg [23:0] epsn_reg, msn_reg;
reg [15:0] rq_ci_reg;
reg [63:0] va_reg;                  // scatter address (WRITE) / SGE address
reg [31:0] key_reg;
reg [31:0] wr_left_reg;
reg exec_bad_reg;                   // R_EXEC's rules broken (from R_CLASS)
reg [31:0] wr_total_reg;
reg [31:0] off_reg;                 // message offset (SEND)
reg [31:0] sge_off_reg;
// R_SEEK takes two cycles per SGE: the SGE's end (sge_off_reg + its length)
// into seek_end_reg, then the compare with off_reg (the bank read, the adder
// and the compare were one path)
reg seek_phase_reg;
reg [31:0] seek_end_reg;
reg [12:0] pleft_reg;
reg [32:0] cap_reg;
reg bad_reg;
reg seg_last_piece_reg;
reg send_resp_reg;                  // a response header is due after the packet
reg [7:0] resp_syn_reg;
reg [23:0] resp_psn_reg;
reg pay_done_reg;                   // the packet's payload has been consumed
reg pay_split_reg;                  // payload routed to the splitter
reg tail_reg;                       // an earlier packet's payload still streams to the splitter
reg do_cqe_reg;                     // receive completion due
reg [7:0] cqe_status_reg;
reg [7:0] cqe_vendor_reg;
reg [15:0] cmpl_i;                  // completer: WQE being retired
reg cmpl_nak_reg;                   // fatal: complete with an error, flush the rest
reg [2:0] cmpl_mode_reg;            // what started the completer run (CM_*)
reg [23:0] ack_psn_reg;             // WQEs ending at or before it are acknowledged
reg [7:0] fatal_status_reg;
reg [7:0] fatal_vendor_reg;
reg retired_reg;
reg [15:0] wr_pending;              // our DMA writes not yet completed
reg resp_wait_reg;                  // m_resp_* latched, waiting for the writes before it
reg [15:0] resp_left_reg;           // of which not yet completed
reg dup_reg;                        // a duplicate READ being answered again
reg [23:0] npsn_reg;                // PSNs the request takes (a READ: one per response)
reg [7:0] resp_op_reg;              // ACKNOWLEDGE or ATOMIC_ACKNOWLEDGE
reg resp_job_reg;                   // the response is a READ response job
reg [63:0] orig_reg;                // atomic: the original value
reg [63:0] atom_addr_reg;           // atomic: the target's bus address
reg [AW:0] atom_slot_reg;           // replay cache search
reg resp_pkt_reg;                   // the packet is a READ response or atomic ACK
reg rd_fin_reg;                     // the oldest WQE (READ/atomic) has all its data
reg resp_done_reg;                  // the response packet is processed
reg [3:0] sw_done_reg;              // bytes of the original value written

wire [23:0] psn_diff = h_psn - epsn_reg;
wire [IF_BITS-1:0] ent = if_rdata;
// the states that decide on the entry (R_TMO2, R_RPROC, R_CMPL, R_KICK and
// R_CMPL_CQE) wait a cycle when it is not yet the current address's (cmpl_i
// or q_reg just moved, or it was just rewritten); R_CMPL_CQE only before it
// offers the CQE, so no handshake is missed. Each checks if_fresh itself,
// so the other states' registers do not wait for the address compares.
reg cqe_rd_reg, cqe_err_reg;    // of the entry whose CQE is offered
wire [23:0] ent_last = ent[`FROCE_INFLIGHT_LAST_PSN_LSB +: 24];
wire [15:0] ent_index = cmpl_i;    // (not stored: the slot is cmpl_i's)
wire ent_sig = ent[`FROCE_INFLIGHT_SIGNALED_LSB];
wire [7:0] ent_op = ent[`FROCE_INFLIGHT_OPCODE_LSB +: 8];
assign if_raddr = {q_reg, cmpl_i[OW-1:0]};
wire [23:0] ack_psn_diff = ack_psn_reg - ent_last; // >= 0 (serial): covered
wire [23:0] ent_first = ent[`FROCE_INFLIGHT_FIRST_PSN_LSB +: 24];
wire [31:0] ent_bytes = ent[`FROCE_INFLIGHT_BYTES_LSB +: 32];
wire ent_atomic = ent_op == `FROCE_WQE_OP_ATOMIC_CMP_SWP || ent_op == `FROCE_WQE_OP_ATOMIC_FETCH_ADD;
wire ent_rd = ent_op == `FROCE_WQE_OP_RDMA_READ || ent_atomic;
wire ent_valid = cmpl_i != r_sq_next;
// the oldest WQE, a READ: responses it has, the PSN of the next one, bytes in
wire [23:0] rd_have = retired_reg ? 24'd0 : rd_pkts_ram[q_reg];
wire [23:0] rd_expected = ent_first + rd_have;
wire [31:0] rd_off = {13'd0, rd_have[18:0]} << mtu_shift;    // (2 GiB at most: 2^19 packets of 4 KiB)
wire [31:0] rd_left = ent_bytes - rd_off;
wire [23:0] rd_gap = h_psn - rd_expected;           // > 0 (serial): responses missing
wire [11:0] rd_oos_limit = (12'd32 << rd_oos_lvl_ram[q_reg]) - 1'b1;
wire rd_oos_due = rd_oos_ram[q_reg] >= rd_oos_limit;
// a response more than one PSN behind the previous out-of-sequence one (one
// behind: a swap on the wire): the responder restarted its stream for our
// request, and the restarted stream's first response was lost
wire [23:0] rd_back = rd_oos_psn_ram[q_reg] - h_psn;
wire rd_restart_lost = rd_rw_sent[q_reg] && !rd_back[23] && rd_back > 24'd1;
// this response is the next one the oldest WQE expects, of the right kind
// and size. Its PSN fixes its offset; FIRST/ONLY may also come mid-READ: the
// responses to a request for the rest after a loss start again
wire rd_big = rd_left > {19'd0, mtu};
wire resp_fits = ent_atomic ? op_aack :
                 rd_big ? ((op_rresp_first || op_rresp_mid) && h_plen == mtu)
                        : ((op_rresp_only || op_rresp_last) && {19'd0, h_plen} == rd_left);
// R_RPROC decides on these a cycle later, from registers: it waits in its
// first cycle with the entry current (the RAM reads, the offset shift, the
// subtract and the compares above take that cycle), decides in the next
reg rp_ready_reg;                   // R_RPROC's previous cycle had the entry current
reg [23:0] rp_expected_reg;
reg rp_behind_reg;                  // rd_gap < 0: a duplicate
reg [31:0] rp_off_reg;
reg rp_fits_reg;
always @(posedge clk) begin
    rp_ready_reg <= state == R_RPROC && if_fresh;
    rp_expected_reg <= rd_expected;
    rp_behind_reg <= rd_gap[23];
    rp_off_reg <= rd_off;
    rp_fits_reg <= resp_fits;
end
// replay cache entry being compared
wire [QW+AW-1:0] atom_idx = {q_reg, atom_slot_reg[AW-1:0]};
// atomic result
wire [63:0] atom_new = op_cswap ? (orig_reg == h_compare ? h_swap_add : orig_reg) : orig_reg + h_swap_add;
localparam [2:0] CM_ACK = 3'd0, CM_SEQ = 3'd1, CM_RNR = 3'd2, CM_TMO = 3'd3, CM_RESP = 3'd4;
wire [31:0] scan_left = deadline_ram[scan_q] - now;     // < 0 (serial): expired
// the timer runs while a WQE is unretired or a packet sent is unacknowledged
// (a long message is acknowledged piece by piece before its WQE is recorded)
// the timer period of the QP being scanned: adaptive or its own
wire [31:0] scan_qp_tmo = ack_timeout(tmo_exp_ram[scan_q]);
// 32 packets of the MTU: 2^(MTU log2 + 5 - log2 bytes per beat) cycles
wire [4:0] scan_ar_shift = {1'b0, mtu_log2(ar_mtu_ram[scan_q])} + 5'd5 - KW[4:0];
wire [31:0] scan_ar_base = (32'd1 << scan_ar_shift) > AR_BASE_CYCLES ? 32'd1 << scan_ar_shift : AR_BASE_CYCLES;
wire [31:0] scan_ar_tmo = scan_ar_base << ar_lvl_ram[scan_q];
// (not while READs or atomics are outstanding: their responses may queue at
// the responder behind other QPs' READ responses for longer than any round
// trip, and a READ asked again while its responses are on their way is
// answered in full again; a lost response shows as a gap in the ones after
// it, and a restarted stream without its first response is asked for again)
wire scan_ar = AR_BASE_CYCLES != 0 && ar_lvl_ram[scan_q] != 4'd15 && scan_ar_tmo < scan_qp_tmo &&
               r_rd_issued == rd_retired_ram[scan_q];
// (not once the send side failed: nothing is resent then)
wire scan_outstanding = r_sq_next != ack_wqe_ram[scan_q] ||
                        (r_sent_psn != una_ram[scan_q] && !r_tx_err && !req_err[scan_q]);
// The scan takes two idle cycles per QP: in the first (scan_phase 0) the
// conditions above are read for scan_q into registers, in the second the
// scan acts on them (state, timer and RAM writes start at registers). The
// second cycle follows the first in R_IDLE: scan_turn keeps packets out
// meanwhile, and a packet taken, a context commit or a cycle out of R_IDLE
// starts the pair again. What the tx engine owns (sent PSN, SQ index,
// send error, READs issued) may be a cycle older than before: the scan
// acts as if it had run a cycle earlier.
reg scan_phase;                     // 1: the registers hold scan_q's conditions
reg sc_rnr;                         // an RNR wait on a live SQ
reg sc_expired;                     // its deadline has passed
reg sc_idle;                        // nothing to time (no SQ, nothing outstanding, no timeout)
reg sc_tmr_on;
reg sc_ar;                          // the adaptive period applies
reg [31:0] sc_deadline;             // a timer started now ends here
reg [23:0] sc_rnr_psn;
always @(posedge clk) begin
    sc_rnr <= rnr_wait[scan_q] && sq_live[scan_q];
    sc_expired <= scan_left[31];
    sc_idle <= !sq_live[scan_q] || !scan_outstanding || tmo_exp_ram[scan_q] == 5'd0;
    sc_tmr_on <= tmr_on[scan_q];
    sc_ar <= scan_ar;
    sc_deadline <= now + (scan_ar ? scan_ar_tmo : scan_qp_tmo);
    sc_rnr_psn <= rnr_psn_ram[scan_q];
end
// Progress: the packet acknowledges PSNs up to ack_psn_reg that were not
// acknowledged before (and were sent: a forged ACK from the future is no
// progress). It restarts the ACK timer and refills the retry budget.
// A duplicate READ request is one of three things. (1) Asked again: its
// responses went out in the current epoch (or before it); they are sent
// again and the QP's older jobs at or past it are void (a new epoch): the
// requester goes back and asks for all later ones too. (2) A copy of a
// request whose job is queued and not yet sent (a copy on the wire, or one
// of the requester's go-back-N resends arriving while the previous stream
// is still on its way): nothing to do. (3) Past every job queued (the rest
// of a go-back-N resend): a job in the current epoch. Telling (1) from (2)
// by "sent" rather than by "not the next expected" keeps reordered and
// duplicated requests from voiding the jobs of a resend.
assign sent_rd_qpn = q_reg;
wire [23:0] rd_sent_next = (sent_rd_valid && sent_rd_epoch == rd_epoch_ram[q_reg]) ? sent_rd_next :
                           rr_start_ram[q_reg];
wire dup_was_sent = psn_before(h_psn, rd_sent_next);
wire reread_starts = resp_job_reg && dup_reg && dup_was_sent;
wire dup_queued = resp_job_reg && dup_reg && !dup_was_sent && psn_before(h_psn, dup_next_ram[q_reg]);
wire [23:0] una_new = ack_psn_reg + 1'b1;
wire [23:0] resp_una_fwd = h_psn - una_ram[q_reg];      // >= 0: a READ response at or past the oldest unacknowledged PSN
wire [23:0] una_fwd = una_new - una_ram[q_reg];         // > 0 (serial): new PSNs acknowledged
wire [23:0] una_sent = r_sent_psn - una_new;            // >= 0: not beyond what was sent
wire una_adv = una_fwd != 24'd0 && !una_fwd[23] && !una_sent[23];
// a PSN-sequence NAK that asks for PSNs already acknowledged, or again for
// the resend already made (a duplicated or late NAK), is not acted on
wire [23:0] nak_before_una = h_psn - una_ram[q_reg];
wire seq_nak_stale = (nak_before_una[23] && !una_adv) ||
                     (!una_adv && seq_rw_valid[q_reg] && seq_rw_psn_ram[q_reg] == h_psn);
// R_KICK decides on these a cycle later, from registers: they are worked
// out in R_CMPL's last cycle when it goes to R_KICK writing nothing (the
// entry current there, nothing they depend on moves at the step), else R_KICK
// waits a cycle with the entry current, as R_RPROC does; when it stays (a
// resend request still pending) it waits again, so each decision sees what
// the previous one wrote. Nothing they depend on moves meanwhile but the
// transmitter's newest PSN sent, which only grows, and no ACK covers a PSN
// sent a cycle before.
reg kick_ready_reg;                 // the registers below are R_KICK's current entry's
reg kick_una_adv_reg;
reg kick_nak_stale_reg;
reg kick_rd_rw_reg;                 // the oldest WQE is a READ not yet asked again
reg kick_rd_reg;                    // the oldest WQE is a READ
reg [23:0] kick_rd_expected_reg;    // the PSN of its next response
always @(posedge clk) begin
    kick_una_adv_reg <= una_adv;
    kick_nak_stale_reg <= seq_nak_stale;
    kick_rd_rw_reg <= ent_valid && ent_rd && !rd_rw_sent[q_reg];
    kick_rd_reg <= ent_valid && ent_rd;
    kick_rd_expected_reg <= rd_expected;
end
// (the gaps from the registered PSN: rd_expected leaves the in-flight
// block RAM's output and an adder late)
wire [23:0] kick_ack_gap = ack_psn_reg - kick_rd_expected_reg;
wire [23:0] kick_nak_gap = h_psn - kick_rd_expected_reg;
wire kick_ack_rd_gap = kick_rd_rw_reg && !kick_ack_gap[23];     // an ACK past responses the READ lacks
wire kick_nak_rd_gap = kick_rd_reg && !kick_nak_gap[23] && kick_nak_gap != 24'd0;  // a NAK past them
// on a timeout, resend from the oldest unacknowledged PSN (within the oldest WQE)
wire [23:0] una_in_ent = una_ram[q_reg] - ent_first;
wire [23:0] tmo_psn = (ent_valid && ent_rd) ? rd_expected :
                      (ent_valid && una_in_ent[23]) ? ent_first : una_ram[q_reg];

// A context commit is taken only in a cycle where the engine writes no per-QP
// state (idle, which it is at least once per packet, with no doorbell:
// froce_core holds the firmware's commit until both engines say so). Every
// per-QP array then has one write address, so it maps to LUT RAM instead of
// flip-flops with a read multiplexer per port.
assign qpc_ready = state == R_IDLE && !s_db_valid;
wire [QW-1:0] qs_waddr = qpc_we ? qpc_waddr : q_reg;
wire [QW-1:0] rq_pi_waddr = qpc_we ? qpc_waddr : s_db_qpn[QW-1:0];
wire [QW-1:0] deadline_waddr = state == R_IDLE ? scan_q : q_reg;   // the timer scan runs when idle
assign s_db_ready = state == R_IDLE;
wire wr_inc_scat = state == R_SCAT_SEG && s_seg_valid && m_scat_ready && seg_ok;
wire wr_inc_sw = m_sw_valid && m_sw_ready;
wire writes_idle = wr_pending == 16'd0 && !m_sw_valid;
wire [9:0] sq_wqe_bytes = 10'd1 << c_sq_shift;
wire [9:0] fetch_bytes = fetch_sq_reg ? sq_wqe_bytes : rq_wqe_bytes;
// the WQE the engine needs: its ring slot and its tag in the WQE buffer
wire [15:0] wqe_index = fetch_sq_reg ? ent_index : rq_ci_reg;
wire [63:0] wqe_va = fetch_sq_reg ? c_sq_va + ({48'd0, wqe_index & ~(16'hFFFF << c_sq_log)} << c_sq_shift)
                                  : c_rq_va + ({48'd0, wqe_index & ~(16'hFFFF << c_rq_log)} << c_rq_shift);
wire [QW+16:0] wqe_tag = {fetch_sq_reg, q_reg, wqe_index};
assign s_hdr_ready = state == R_IDLE && !s_db_valid && !(scan_turn && !m_rw_valid);
// A packet whose scatter commands are all queued lets the rest of its payload
// stream to the splitter on its own (tail_reg) while the next header is
// processed; the next packet's payload waits behind it. Its ACK and CQE still
// wait for its writes (wr_pending, the ordered write queue).
assign pay_to_split = tail_reg || (pay_split_reg && !pay_done_reg);
assign pay_grh = op_ud && !tail_reg;
wire pay_finished = pay_done_reg || (pay_split_reg && !tail_reg && !op_ud);
// (an atomic ACK's empty payload: in any of its states, since the tail of
// the READ response before it may hold the stream until R_AACKW)
wire pay_drop = state == R_DROP || state == R_DONE || state == R_PAY || state == R_RDROP || state == R_AACK ||
                state == R_AACK_SEG || state == R_AACKW || (state == R_CMPL && !resp_pkt_reg);
assign s_pay_tready = tail_reg ? split_tready : !pay_done_reg && (pay_split_reg ? split_tready : pay_drop);
assign m_xl_pd = c_pdn;

// segments -> splitter commands + write descriptors
wire seg_ok = s_seg_status == `FROCE_XLATE_OK;
assign m_scat_valid = state == R_SCAT_SEG && s_seg_valid;
assign m_scat_addr = s_seg_addr;
assign m_scat_len = s_seg_len[15:0];
assign m_scat_last = s_seg_last && seg_last_piece_reg;
assign m_scat_discard = !seg_ok;
assign s_seg_ready = state == R_WCHK_SEG || state == R_RVAL_SEG ? 1'b1 :
                     state == R_AACK_SEG ? !m_sw_valid :
                     state == R_RQ_SEG ? (!seg_ok || m_rd_desc_ready) :
                     state == R_SCAT_SEG ? m_scat_ready : 1'b0;
// WQE fetch; the 8 bytes of an atomic once our earlier writes are done
assign m_rd_desc_valid = (state == R_RQ_SEG && s_seg_valid && seg_ok) || (state == R_AREAD && writes_idle);
assign m_rd_desc_addr = state == R_AREAD ? atom_addr_reg : s_seg_addr;
assign m_rd_desc_len = state == R_AREAD ? 16'd8 : s_seg_len[15:0];
assign s_rd_tready = 1'b1;

// the response (its path is the QP's, added by the tx engine)
reg [`FROCE_RESP_W-1:0] resp_fields;
always @* begin
    resp_fields = {`FROCE_RESP_W{1'b0}};
    resp_fields[`FROCE_RESP_OPCODE_LSB +: 8] = resp_op_reg;
    resp_fields[`FROCE_RESP_PSN_LSB +: 24] = resp_psn_reg;
    resp_fields[`FROCE_RESP_AETH_SYNDROME_LSB +: 8] = resp_syn_reg;
    resp_fields[`FROCE_RESP_AETH_MSN_LSB +: 24] = msn_reg;
    resp_fields[`FROCE_RESP_ATOMICACK_ORIG_LSB +: 64] = orig_reg;
end

localparam [7:0] SYN_ACK = {`FROCE_AETH_TYPE_ACK, `FROCE_AETH_CREDITS_INVALID};
localparam [7:0] SYN_NAK_SEQ = {`FROCE_AETH_TYPE_NAK, `FROCE_AETH_NAK_PSN_SEQ_ERR};
localparam [7:0] SYN_NAK_INV = {`FROCE_AETH_TYPE_NAK, `FROCE_AETH_NAK_INVALID_REQUEST};
localparam [7:0] SYN_NAK_ACC = {`FROCE_AETH_TYPE_NAK, `FROCE_AETH_NAK_REMOTE_ACCESS_ERR};
localparam [7:0] SYN_NAK_OP = {`FROCE_AETH_TYPE_NAK, `FROCE_AETH_NAK_REMOTE_OP_ERR};

// The 40-byte GRH area in front of a datagram, as the verbs define it
// (struct ib_grh): RoCE v2 over IPv6 and RoCE v1 the IPv6 header / GRH (next
// header UDP or 0x1B); RoCE v2 over IPv4 20 zero bytes, then the IPv4 header.
// Rebuilt from the parsed fields; the parser checked the received header,
// so the IPv4 checksum comes out as it was. Built in four register stages
// from h, which holds still from R_CTX until the packet is done: grh_data is
// complete four cycles after R_CTX, well before the first payload beat can
// reach the splitter (the classification, the receive WQE and its SGEs come
// first), and no stage has more than one adder or fold.
wire [127:0] g_sg = h[`FROCE_RHDR_SGID_LSB +: 128];
wire [127:0] g_dg = h[`FROCE_RHDR_DGID_LSB +: 128];
wire [7:0] g_tc = h[`FROCE_RHDR_TCLASS_LSB +: 8];
wire [7:0] g_hop = h[`FROCE_RHDR_HOP_LIMIT_LSB +: 8];
wire [15:0] g_ip_id = h[`FROCE_RHDR_IP_ID_LSB +: 16];
wire [15:0] g_ip_frag = h[`FROCE_RHDR_IP_DF_LSB] ? 16'h4000 : 16'h0000;
wire g_v1 = h[`FROCE_RHDR_KIND_LSB +: 3] == `FROCE_KIND_ROCE_V1;
wire g_v4 = h[`FROCE_RHDR_KIND_LSB +: 3] == `FROCE_KIND_ROCE_V2_IPV4;
reg [15:0] g_ib_len_reg;        // BTH to ICRC: the GRH payload length (v1)
reg [18:0] g_fixed_reg;         // the IPv4 header's 16-bit words but the length
reg [19:0] g_sum_reg;           // ... and the length
reg [16:0] g_fold_reg;          // the sum folded once
wire [15:0] g_udp_len = g_ib_len_reg + 16'd8;
wire [15:0] g_ip_len = g_udp_len + 16'd20;
wire [15:0] g_csum = ~(g_fold_reg[15:0] + {15'd0, g_fold_reg[16]});
wire [159:0] g_ip4 = {8'h45, g_tc, g_ip_len, g_ip_id, g_ip_frag, g_hop, 8'd17, g_csum, g_sg[31:0], g_dg[31:0]};
wire [319:0] g_ip6 = {4'h6, g_tc, h[`FROCE_RHDR_FLOW_LABEL_LSB +: 20], g_v1 ? g_ib_len_reg : g_udp_len,
                      g_v1 ? 8'h1B : 8'd17, g_hop, g_sg, g_dg};
reg [319:0] g_area;
integer gi;
always @* begin
    g_area = 320'd0;
    for (gi = 0; gi < 40; gi = gi + 1) begin
        if (!g_v4)
            g_area[8 * gi +: 8] = g_ip6[319 - 8 * gi -: 8];
        else if (gi >= 20)
            g_area[8 * gi +: 8] = g_ip4[159 - 8 * (gi - 20) -: 8];
    end
end
always @(posedge clk) begin
    // 12 BTH + 8 DETH (+ 4 ImmDt) + payload + pad + 4 ICRC
    g_ib_len_reg <= (h[`FROCE_RHDR_OPCODE_LSB +: 8] == `FROCE_OP_UD_SEND_ONLY_WITH_IMMEDIATE ? 16'd28 : 16'd24) +
                    {3'd0, h[`FROCE_RHDR_PAYLOAD_LEN_LSB +: 13]} + {14'd0, h[`FROCE_RHDR_PADCNT_LSB +: 2]};
    g_fixed_reg <= {3'd0, 16'h4500 | {8'd0, g_tc}} + {3'd0, g_ip_id} + {3'd0, g_ip_frag} + {3'd0, g_hop, 8'd17} +
                   {3'd0, g_sg[31:16]} + {3'd0, g_sg[15:0]} + {3'd0, g_dg[31:16]} + {3'd0, g_dg[15:0]};
    g_sum_reg <= {1'b0, g_fixed_reg} + {4'd0, g_ip_len};
    g_fold_reg <= {1'b0, g_sum_reg[15:0]} + {13'd0, g_sum_reg[19:16]};
    grh_data <= g_area;
end

// receive CQE
reg [CQE_BITS-1:0] rcqe;
always @* begin
    rcqe = {CQE_BITS{1'b0}};
    rcqe[`FROCE_CQE_QPN_LSB +: 24] = {{(24 - QW){1'b0}}, q_reg};
    rcqe[`FROCE_CQE_OPCODE_LSB +: 8] = op_write ? `FROCE_CQE_OP_RECV_RDMA_WITH_IMM : `FROCE_CQE_OP_RECV;
    rcqe[`FROCE_CQE_WQE_INDEX_LSB +: 16] = rq_ci_reg;
    rcqe[`FROCE_CQE_STATUS_LSB +: 8] = cqe_status_reg;
    rcqe[`FROCE_CQE_VENDOR_ERR_LSB +: 8] = cqe_vendor_reg;
    rcqe[`FROCE_CQE_BYTE_CNT_LSB +: 32] = op_write ? wr_total_reg : off_reg;
    rcqe[`FROCE_CQE_IMM_INV_LSB +: 32] = h_imm;
    rcqe[`FROCE_CQE_SRC_QPN_LSB +: 24] = op_ud ? h_src_qpn : c_dqpn;
    rcqe[`FROCE_CQE_WITH_IMM_LSB] = op_imm;
    rcqe[`FROCE_CQE_SOLICITED_LSB] = h_se;
    if (op_ud) begin
        // where the datagram came from (ib_wc: src_qp, GRH, SMAC, VLAN, network type)
        rcqe[`FROCE_CQE_GRH_LSB] = 1'b1;
        rcqe[`FROCE_CQE_NET_TYPE_LSB +: 3] = h[`FROCE_RHDR_KIND_LSB +: 3];
        rcqe[`FROCE_CQE_SMAC_LSB +: 48] = h[`FROCE_RHDR_ETH_SRC_LSB +: 48];
        rcqe[`FROCE_CQE_VLAN_LSB] = h[`FROCE_RHDR_VLAN_EN_LSB];
        rcqe[`FROCE_CQE_VLAN_ID_LSB +: 12] = h[`FROCE_RHDR_VLAN_VID_LSB +: 12];
    end
end

// send-side CQE (completer)
wire [7:0] nak_code = {3'd0, h_syn[4:0]};
// under a NAK, WQEs that end before its PSN were acknowledged by it; but a
// READ/atomic whose responses are not all in lost them on the way (the NAK
// comes after them): it is flushed, not completed (its data is missing), and
// the NAKed WQE still gets the NAK's status
wire nak_before = cmpl_nak_reg && cmpl_mode_reg != CM_TMO && !ack_psn_diff[23];
wire nak_lost_rd = nak_before && ent_rd && !rd_fin_reg;
wire nak_ok = nak_before && !nak_lost_rd;
reg err_given_reg;
reg [7:0] cmpl_status;
reg [7:0] cmpl_vendor;
always @* begin
    if (!cmpl_nak_reg || nak_ok) begin
        cmpl_status = `FROCE_WC_SUCCESS;
        cmpl_vendor = `FROCE_VENDOR_ERR_NONE;
    end else if (err_given_reg || nak_lost_rd) begin
        cmpl_status = `FROCE_WC_WR_FLUSH_ERR;
        cmpl_vendor = `FROCE_VENDOR_ERR_FLUSHED;
    end else if (fatal_status_reg != `FROCE_WC_SUCCESS) begin
        cmpl_status = fatal_status_reg;
        cmpl_vendor = fatal_vendor_reg;
    end else if (nak_code == {3'd0, `FROCE_AETH_NAK_REMOTE_ACCESS_ERR}) begin
        cmpl_status = `FROCE_WC_REM_ACCESS_ERR;
        cmpl_vendor = `FROCE_VENDOR_ERR_NAK_REMOTE_ACCESS;
    end else if (nak_code == {3'd0, `FROCE_AETH_NAK_REMOTE_OP_ERR}) begin
        cmpl_status = `FROCE_WC_REM_OP_ERR;
        cmpl_vendor = `FROCE_VENDOR_ERR_NAK_REMOTE_OP;
    end else begin
        cmpl_status = `FROCE_WC_REM_INV_REQ_ERR;
        cmpl_vendor = `FROCE_VENDOR_ERR_NAK_INVALID_REQUEST;
    end
end
reg [CQE_BITS-1:0] scqe;
always @* begin
    scqe = {CQE_BITS{1'b0}};
    scqe[`FROCE_CQE_QPN_LSB +: 24] = {{(24 - QW){1'b0}}, q_reg};
    scqe[`FROCE_CQE_OPCODE_LSB +: 8] = cqe_opcode_of_wqe(ent_op);
    scqe[`FROCE_CQE_WQE_INDEX_LSB +: 16] = ent_index;
    scqe[`FROCE_CQE_STATUS_LSB +: 8] = cmpl_status;
    scqe[`FROCE_CQE_VENDOR_ERR_LSB +: 8] = cmpl_vendor;
    scqe[`FROCE_CQE_BYTE_CNT_LSB +: 32] = ent_rd ? ent_bytes : 32'd0;
end

integer k;

always @(posedge clk) begin
    m_qpev_valid <= 1'b0;
    // counter increments (froce_counters in froce_core): one-cycle pulses
    inc_rx_pkts <= 1'b0;
    inc_dup <= 1'b0;
    inc_oos <= 1'b0;
    inc_nak_sent <= 1'b0;
    inc_rnr_sent <= 1'b0;
    inc_seq_nak_rcvd <= 1'b0;
    inc_acc_nak_rcvd <= 1'b0;
    inc_inv_nak_rcvd <= 1'b0;
    inc_access_err <= 1'b0;
    inc_dropped <= 1'b0;
    inc_retrans <= 1'b0;
    inc_timeouts <= 1'b0;
    inc_adp_retrans <= 1'b0;
    inc_rnr_rcvd <= 1'b0;
    inc_retry_exc <= 1'b0;
    inc_rnr_retry_exc <= 1'b0;
    inc_out_of_buffer <= 1'b0;
    inc_len_err <= 1'b0;
    inc_qkey_err <= 1'b0;
    m_reread_valid <= 1'b0;
    if (m_kick_valid && m_kick_ready)
        m_kick_valid <= 1'b0;
    if (m_rw_valid && m_rw_ready)
        m_rw_valid <= 1'b0;
    now <= now + 1'b1;
    if (s_pay_tvalid && s_pay_tready && s_pay_tlast) begin
        if (tail_reg)
            tail_reg <= 1'b0;
        else
            pay_done_reg <= 1'b1;
    end

    // R_KICK's registered decisions are current (or set by R_CMPL, below)
    kick_ready_reg <= state == R_KICK && if_fresh && !kick_ready_reg;
    case (state)
    R_IDLE: begin
        // RQ doorbells first: a packet may need the WQE this one posts
        if (s_db_valid) begin
            if (s_db_qpn < NUM_QPS)
                rq_pi_ram[rq_pi_waddr] <= s_db_pi;
        end else if (s_hdr_valid && !(scan_turn && !m_rw_valid)) begin
            scan_turn <= 1'b1;
            h <= s_hdr;
            h_class_reg <= rx_op_class(s_hdr[`FROCE_RHDR_OPCODE_LSB +: 8]);
            q_reg <= s_hdr[`FROCE_RHDR_DQPN_LSB +: QW];
            pay_done_reg <= 1'b0;
            pay_split_reg <= 1'b0;
            send_resp_reg <= 1'b0;
            do_cqe_reg <= 1'b0;
            bad_reg <= 1'b0;
            pleft_reg <= 13'd0;
            cqe_status_reg <= `FROCE_WC_SUCCESS;
            cqe_vendor_reg <= `FROCE_VENDOR_ERR_NONE;
            dup_reg <= 1'b0;
            npsn_reg <= 24'd1;
            resp_op_reg <= `FROCE_OP_RC_ACKNOWLEDGE;
            resp_job_reg <= 1'b0;
            resp_pkt_reg <= 1'b0;
            rd_fin_reg <= 1'b0;
            fetch_sq_reg <= 1'b0;
            inc_rx_pkts <= 1'b1;
            state <= R_CTX;
        end else if (!m_rw_valid && !scan_phase) begin
            // timer scan, one QP per two idle cycles (and every other
            // packet): this cycle reads its conditions (see scan_phase)
            scan_phase <= 1'b1;
        end else if (!m_rw_valid) begin
            // ... and this one acts on them
            scan_phase <= 1'b0;
            scan_turn <= 1'b0;
            scan_q <= scan_q + 1'b1;
            if (sc_rnr) begin
                if (sc_expired) begin
                    rnr_wait[scan_q] <= 1'b0;
                    m_rw_valid <= 1'b1;
                    m_rw_qpn <= scan_q;
                    m_rw_psn <= sc_rnr_psn;
                    inc_retrans <= 1'b1;
                    tmr_on[scan_q] <= 1'b0;
                end
            end else if (sc_idle) begin
                tmr_on[scan_q] <= 1'b0;
            end else if (!sc_tmr_on) begin
                tmr_on[scan_q] <= 1'b1;
                deadline_ram[deadline_waddr] <= sc_deadline;
            end else if (sc_expired) begin
                // ACK timeout: resend from the oldest unacknowledged PSN, or give up
                if (!sc_ar)
                    inc_timeouts <= 1'b1;
                q_reg <= scan_q;
                ar_exp_reg <= sc_ar;
                state <= R_TMO;
            end
        end
    end
    R_TMO: begin
        // ctx loads this cycle, the oldest in-flight entry the next (R_TMO2 waits for it)
        cmpl_i <= ack_wqe_ram[q_reg];
        retired_reg <= 1'b0;
        err_given_reg <= 1'b0;
        cmpl_mode_reg <= CM_TMO;
        rd_fin_reg <= 1'b0;
        pay_done_reg <= 1'b1;
        tmr_on[q_reg] <= 1'b0;
        if (ar_exp_reg) begin
            // an adaptive expiry: resend, wait twice as long next time
            ar_lvl_ram[qs_waddr] <= ar_lvl_ram[q_reg] + 1'b1;
            inc_adp_retrans <= 1'b1;
            state <= R_TMO2;
        end else if (retry_left_ram[q_reg] == 3'd0) begin
            inc_retry_exc <= 1'b1;
            cmpl_nak_reg <= 1'b1;
            req_err[q_reg] <= 1'b1;
            fatal_status_reg <= `FROCE_WC_RETRY_EXC_ERR;
            fatal_vendor_reg <= `FROCE_VENDOR_ERR_RETRY_EXCEEDED;
            state <= R_CMPL;
        end else begin
            retry_left_ram[qs_waddr] <= retry_left_ram[q_reg] - 1'b1;
            state <= R_TMO2;
        end
    end
    R_TMO2: if (if_fresh) begin
        // resend from the oldest unacknowledged PSN (a READ: from its
        // first missing response)
        m_rw_valid <= 1'b1;
        m_rw_qpn <= q_reg;
        m_rw_psn <= tmo_psn;
        rd_rw_sent[q_reg] <= 1'b1;
        rd_oos_psn_ram[q_reg] <= tmo_psn;
        seq_rw_valid[q_reg] <= 1'b1;
        seq_rw_psn_ram[q_reg] <= tmo_psn;
        inc_retrans <= 1'b1;
        state <= R_IDLE;
    end
    R_CTX: begin
        epsn_reg <= epsn_ram[q_reg];
        msn_reg <= msn_ram[q_reg];
        rq_ci_reg <= rq_ci_ram[q_reg];
        wr_left_reg <= wr_left_ram[q_reg];
        wr_total_reg <= wr_total_ram[q_reg];
        va_reg <= wr_va_ram[q_reg];
        key_reg <= wr_key_ram[q_reg];
        off_reg <= recv_off_ram[q_reg];
        state <= R_CLASS;
    end
    R_CLASS: begin
        // R_EXEC's opcode-sequence and length rules, worked out here (every
        // operand is a register by now, and nothing writes them before
        // R_EXEC): R_EXEC decides on a flip-flop
        exec_bad_reg <= (in_msg[q_reg] && (op_starts || (msg_write[q_reg] != op_write))) ||
                        (!in_msg[q_reg] && !op_starts) ||
                        (!op_ends && h_plen != mtu) ||
                        (op_ends && h_plen > mtu) ||
                        (op_wr_only && {19'd0, h_plen} != h_dmalen) ||
                        (op_wr_first && h_dmalen <= {19'd0, mtu}) ||
                        (op_wr_mid && wr_left_reg <= {19'd0, mtu}) ||
                        (op_wr_last && {19'd0, h_plen} != wr_left_reg) ||
                        ((op_read_req || op_atomic) && h_plen != 13'd0) ||
                        (op_read_req && h_dmalen > 32'h80000000);
        if (h_dqpn >= NUM_QPS) begin
            state <= R_DROP;
        end else if (op_ud) begin
            // a datagram: a UD QP ready to receive, its Q_Key; no PSN check,
            // no ACK
            if (!c_ud || !(c_state == `FROCE_QP_STATE_RTR || c_state == `FROCE_QP_STATE_RTS || c_state == `FROCE_QP_STATE_SQD)) begin
                inc_dropped <= 1'b1;
                state <= R_DROP;
            end else if (h_qkey != c_qkey) begin
                inc_qkey_err <= 1'b1;
                state <= R_DROP;
            end else begin
                state <= R_RQ;
            end
        end else if (!c_rc) begin
            // connected-mode packets for a datagram QP (UC is not implemented)
            inc_dropped <= 1'b1;
            state <= R_DROP;
        end else if (op_request && (c_state == `FROCE_QP_STATE_RTR || c_state == `FROCE_QP_STATE_RTS) &&
                     !resp_err[q_reg]) begin
            resp_psn_reg <= epsn_reg - 1'b1;
            resp_syn_reg <= SYN_ACK;
            if (psn_diff == 24'd0) begin
                state <= R_EXEC;
            end else if (psn_diff[23]) begin
                // duplicate: already executed; say so again (a READ is
                // answered again, an atomic from the replay cache)
                inc_dup <= 1'b1;
                if (op_read_req) begin
                    dup_reg <= 1'b1;
                    state <= R_EXEC;
                end else if (op_atomic) begin
                    dup_next_ram[qs_waddr] <= h_psn + 1'b1;
                    atom_slot_reg <= {(AW + 1){1'b0}};
                    state <= R_ADUP;
                end else begin
                    dup_next_ram[qs_waddr] <= h_psn + 1'b1;
                    send_resp_reg <= h_ackreq;
                    state <= R_DROP;
                end
            end else begin
                inc_oos <= 1'b1;
                if (!nak_sent[q_reg]) begin
                    nak_sent[q_reg] <= 1'b1;
                    resp_psn_reg <= epsn_reg;
                    resp_syn_reg <= SYN_NAK_SEQ;
                    send_resp_reg <= 1'b1;
                    inc_nak_sent <= 1'b1;
                end
                state <= R_DROP;
            end
        end else if (op_ack && (c_state == `FROCE_QP_STATE_RTS || c_state == `FROCE_QP_STATE_SQD ||
                                c_state == `FROCE_QP_STATE_ERR)) begin
            cmpl_i <= ack_wqe_ram[q_reg];
            retired_reg <= 1'b0;
            cmpl_nak_reg <= 1'b0;
            err_given_reg <= 1'b0;
            fatal_status_reg <= `FROCE_WC_SUCCESS;
            // an ACK acknowledges its PSN; a NAK the PSNs before it
            ack_psn_reg <= h_syn[7:5] == `FROCE_AETH_TYPE_ACK ? h_psn : h_psn - 1'b1;
            cmpl_mode_reg <= h_syn[7:5] == `FROCE_AETH_TYPE_ACK ? CM_ACK :
                             h_syn[7:5] == `FROCE_AETH_TYPE_RNR_NAK ? CM_RNR :
                             h_syn[4:0] == `FROCE_AETH_NAK_PSN_SEQ_ERR ? CM_SEQ : CM_ACK;
            state <= R_CMPL;
        end else if (op_response && (c_state == `FROCE_QP_STATE_RTS || c_state == `FROCE_QP_STATE_SQD ||
                                     c_state == `FROCE_QP_STATE_ERR)) begin
            // READ response / atomic ACK: acknowledges the PSNs before it;
            // then it belongs to the oldest WQE, which must be its READ/atomic
            cmpl_i <= ack_wqe_ram[q_reg];
            retired_reg <= 1'b0;
            cmpl_nak_reg <= 1'b0;
            err_given_reg <= 1'b0;
            fatal_status_reg <= `FROCE_WC_SUCCESS;
            ack_psn_reg <= h_psn - 1'b1;
            cmpl_mode_reg <= CM_RESP;
            resp_pkt_reg <= 1'b1;
            resp_done_reg <= 1'b0;
            state <= R_CMPL;
        end else begin
            inc_dropped <= 1'b1;
            state <= R_DROP;
        end
    end

    // ---- responder ----
    R_EXEC: begin
        resp_psn_reg <= h_psn;
        // opcode sequence and payload length rules
        if (exec_bad_reg) begin
            if (!dup_reg) begin
                resp_syn_reg <= SYN_NAK_INV;
                bad_reg <= 1'b1;
            end
            state <= R_DONE;
        end else if (op_read_req) begin
            va_reg <= h_va;
            key_reg <= h_rkey;
            wr_total_reg <= h_dmalen;
            npsn_reg <= read_packets(h_dmalen, mtu_shift);
            if (!c_access[2]) begin
                resp_syn_reg <= SYN_NAK_ACC;
                bad_reg <= 1'b1;
                inc_access_err <= 1'b1;
                state <= R_DONE;
            end else if (h_dmalen == 32'd0) begin
                state <= R_RDJOB;
            end else begin
                m_xl_valid <= 1'b1;
                m_xl_key <= h_rkey;
                m_xl_va <= h_va;
                m_xl_len <= h_dmalen;
                m_xl_access <= 4'd4;        // REMOTE_READ
                state <= R_WCHK;
            end
        end else if (op_atomic) begin
            if (!c_access[3]) begin
                resp_syn_reg <= SYN_NAK_ACC;
                bad_reg <= 1'b1;
                inc_access_err <= 1'b1;
                state <= R_DONE;
            end else if (h_ava[2:0] != 3'd0) begin
                resp_syn_reg <= SYN_NAK_INV;
                bad_reg <= 1'b1;
                state <= R_DONE;
            end else begin
                m_xl_valid <= 1'b1;
                m_xl_key <= h_arkey;
                m_xl_va <= h_ava;
                m_xl_len <= 32'd8;
                m_xl_access <= 4'd8;        // REMOTE_ATOMIC
                state <= R_WCHK;
            end
        end else if (op_wr_first || op_wr_only) begin
            va_reg <= h_va;
            key_reg <= h_rkey;
            wr_left_reg <= h_dmalen;
            wr_total_reg <= h_dmalen;
            if (!c_access[1]) begin
                resp_syn_reg <= SYN_NAK_ACC;
                bad_reg <= 1'b1;
                inc_access_err <= 1'b1;
                state <= R_DONE;
            end else if (h_dmalen == 32'd0) begin
                state <= needs_rqe ? R_RQ : R_WRITE;
            end else begin
                m_xl_valid <= 1'b1;
                m_xl_key <= h_rkey;
                m_xl_va <= h_va;
                m_xl_len <= h_dmalen;
                m_xl_access <= 4'd2;        // REMOTE_WRITE
                state <= R_WCHK;
            end
        end else begin
            state <= needs_rqe ? R_RQ : R_WRITE;
        end
    end
    R_WRITE: begin
        // scatter a WRITE packet at the running address
        pleft_reg <= h_plen;
        state <= h_plen == 13'd0 ? R_PAY : R_SCAT_XL;
    end
    R_WCHK: if (m_xl_ready) begin
        m_xl_valid <= 1'b0;
        state <= R_WCHK_SEG;
    end
    R_WCHK_SEG: if (s_seg_valid) begin
        if (!seg_ok)
            bad_reg <= 1'b1;
        atom_addr_reg <= s_seg_addr;    // an atomic's 8 aligned bytes: one segment
        if (s_seg_last) begin
            if (!seg_ok || bad_reg) begin
                resp_syn_reg <= SYN_NAK_ACC;
                bad_reg <= 1'b1;
                inc_access_err <= 1'b1;
                state <= R_DONE;
            end else begin
                state <= op_read_req ? R_RDJOB : op_atomic ? R_AREAD : needs_rqe ? R_RQ : R_WRITE;
            end
        end
    end

    // READ: the requester side generates the responses from our memory
    R_RDJOB: begin
        resp_job_reg <= 1'b1;
        send_resp_reg <= 1'b1;
        resp_psn_reg <= h_psn;
        state <= R_DONE;
    end

    // atomic: read the 8 bytes once our earlier writes landed, write the
    // result, keep the original for duplicates, answer with it
    R_AREAD: if (m_rd_desc_valid && m_rd_desc_ready) begin
        rqe_beats <= {WB_W{1'b0}};
        rqe_tag_ok <= 1'b0;
        state <= R_AWAIT;
    end
    R_AWAIT: if (rqe_beats != {WB_W{1'b0}}) begin
        orig_reg <= rqe[63:0];
        state <= R_AWRITE;
    end
    R_AWRITE: begin
        m_sw_valid <= 1'b1;
        m_sw_addr <= atom_addr_reg;
        m_sw_data <= atom_new;
        m_sw_len <= 4'd8;
        atom_psn_ram[{q_reg, atom_next_ram[q_reg]}] <= h_psn;
        atom_orig_ram[{q_reg, atom_next_ram[q_reg]}] <= orig_reg;
        atom_valid[{q_reg, atom_next_ram[q_reg]}] <= 1'b1;
        atom_next_ram[qs_waddr] <= atom_next_ram[q_reg] + 1'b1;
        resp_op_reg <= `FROCE_OP_RC_ATOMIC_ACKNOWLEDGE;
        send_resp_reg <= 1'b1;
        state <= R_DONE;
    end
    R_ADUP: begin
        if (atom_slot_reg[AW]) begin
            // not in the replay cache (older than the requester may ask): ignored
            state <= R_DROP;
        end else if (atom_valid[atom_idx] && atom_psn_ram[atom_idx] == h_psn) begin
            orig_reg <= atom_orig_ram[atom_idx];
            resp_op_reg <= `FROCE_OP_RC_ATOMIC_ACKNOWLEDGE;
            resp_psn_reg <= h_psn;
            send_resp_reg <= 1'b1;
            state <= R_DROP;
        end else begin
            atom_slot_reg <= atom_slot_reg + 1'b1;
        end
    end

    // RQ WQE
    R_RQ: begin
        if (rq_ci_reg == rq_pi_ram[q_reg] && op_ud) begin
            // no receive posted: a datagram is lost
            inc_out_of_buffer <= 1'b1;
            state <= R_DROP;
        end else if (rq_ci_reg == rq_pi_ram[q_reg]) begin
            // receiver not ready: the requester retries this PSN
            inc_out_of_buffer <= 1'b1;
            resp_syn_reg <= {`FROCE_AETH_TYPE_RNR_NAK, c_min_rnr};
            resp_psn_reg <= h_psn;
            send_resp_reg <= 1'b1;
            inc_rnr_sent <= 1'b1;
            state <= R_DROP;
        end else begin
            state <= R_WQE_GET;
        end
    end
    R_WQE_GET: begin
        // the RQ WQE (SEND) or the READ/atomic's SQ WQE (completer), unless
        // an earlier packet of the same WQE fetched it
        if (rqe_tag_ok && rqe_tag == wqe_tag) begin
            state <= R_WQE_OK;
        end else begin
            rqe_tag <= wqe_tag;
            rqe_tag_ok <= 1'b0;
            m_xl_valid <= 1'b1;
            m_xl_key <= c_ring_key;
            m_xl_va <= wqe_va;
            m_xl_len <= {22'd0, fetch_bytes};
            m_xl_access <= 4'd0;
            rqe_beats <= {WB_W{1'b0}};
            state <= R_RQ_XL;
        end
    end
    R_RQ_XL: if (m_xl_ready) begin
        m_xl_valid <= 1'b0;
        state <= R_RQ_SEG;
    end
    R_RQ_SEG: if (s_seg_valid && s_seg_ready) begin
        if (!seg_ok)
            bad_reg <= 1'b1;
        if (s_seg_last)
            state <= R_RQ_DATA;
    end
    R_RQ_DATA: begin
        if (bad_reg) begin
            if (fetch_sq_reg) begin
                // our own SQ ring is unreachable: the response is lost, the
                // ACK timeout asks again
                inc_dropped <= 1'b1;
                state <= R_RDROP;
            end else begin
                // the RQ ring is unreachable
                resp_syn_reg <= SYN_NAK_OP;
                state <= R_DONE;
            end
        end else if ({1'b0, rqe_beats, {KW{1'b0}}} >= {1'b0, fetch_bytes}) begin
            rqe_tag_ok <= 1'b1;
            state <= R_WQE_OK;
        end
    end
    R_WQE_OK: begin
        sge_i <= 5'd0;
        sge_base_reg <= sge_base;
        sge_seg_reg <= sge_base;
        cap_reg <= 33'd0;
        cqe_status_reg <= `FROCE_WC_SUCCESS;
        cqe_vendor_reg <= `FROCE_VENDOR_ERR_NONE;
        // WRITE with immediate only consumes the WQE; a SEND packet needs
        // the buffer capacity (and on its first packet, checked SGEs); a READ
        // response is placed across the SQ WQE's SGEs, an atomic's original
        // value in its one SGE
        state <= fetch_sq_reg ? (op_aack ? R_AACK : R_RCAP) : op_write ? R_WRITE : R_RVAL;
    end
    R_RVAL: begin
        // capacity of the buffers; on a message's first packet every SGE
        // must also be writable through its lkey
        if (sge_i == nsge) begin
            sge_i <= 5'd0;
            sge_seg_reg <= sge_base_reg;
            sge_off_reg <= 32'd0;
            if (bad_reg) begin
                state <= R_DONE;
            end else if ({1'b0, off_reg} + {20'd0, rx_len} > cap_reg) begin
                cqe_status_reg <= `FROCE_WC_LOC_LEN_ERR;
                cqe_vendor_reg <= `FROCE_VENDOR_ERR_RECV_TOO_SMALL;
                resp_syn_reg <= SYN_NAK_INV;
                bad_reg <= 1'b1;
                inc_len_err <= 1'b1;
                state <= R_DONE;
            end else begin
                state <= rx_len == 13'd0 ? R_PAY : R_SEEK;
            end
        end else if (!m_xl_valid) begin
            cap_reg <= cap_reg + {1'b0, sge_len};
            if (sge_len == 32'd0 || !(op_send_first || op_send_only || op_ud)) begin
                sge_i <= sge_i + 1'b1;
                sge_seg_reg <= sge_seg_reg + 1'b1;
            end else begin
                m_xl_valid <= 1'b1;
                m_xl_key <= sge_lkey;
                m_xl_va <= sge_addr;
                m_xl_len <= sge_len;
                m_xl_access <= 4'd1;        // LOCAL_WRITE
            end
        end else if (m_xl_ready) begin
            m_xl_valid <= 1'b0;
            state <= R_RVAL_SEG;
        end
    end
    R_RVAL_SEG: if (s_seg_valid) begin
        if (!seg_ok && !bad_reg) begin
            bad_reg <= 1'b1;
            cqe_status_reg <= `FROCE_WC_LOC_PROT_ERR;
            cqe_vendor_reg <= lkey_vendor_err(s_seg_status);
            resp_syn_reg <= SYN_NAK_OP;
        end
        if (s_seg_last) begin
            sge_i <= sge_i + 1'b1;
            sge_seg_reg <= sge_seg_reg + 1'b1;
            state <= R_RVAL;
        end
    end
    R_SEEK: begin
        // find the SGE holding message offset off_reg (the capacity check
        // guarantees there is one); sge_off_reg = where SGE sge_i starts
        seek_phase_reg <= !seek_phase_reg;
        if (!seek_phase_reg) begin
            seek_end_reg <= sge_off_reg + sge_len;
        end else if (seek_end_reg <= off_reg) begin
            sge_off_reg <= seek_end_reg;
            sge_i <= sge_i + 1'b1;
            sge_seg_reg <= sge_seg_reg + 1'b1;
        end else begin
            // sge_off_reg: message offset where SGE sge_i starts
            va_reg <= sge_addr;
            key_reg <= sge_lkey;
            if (pleft_reg == 13'd0)     // first piece of the packet
                pleft_reg <= rx_len;
            state <= R_SCAT_XL;
        end
    end

    // scatter (WRITE at va_reg; SEND across SGEs from off_reg)
    R_SCAT_XL: begin
        if (!m_xl_valid) begin
            m_xl_valid <= 1'b1;
            m_xl_key <= key_reg;
            m_xl_access <= op_write ? 4'd2 : 4'd1;
            if (op_write) begin
                m_xl_va <= va_reg;
                m_xl_len <= {19'd0, pleft_reg};
                seg_last_piece_reg <= 1'b1;
            end else begin
                // room left in SGE sge_i from message offset off_reg
                m_xl_va <= va_reg + {32'd0, off_reg - sge_off_reg};
                if (sge_len - (off_reg - sge_off_reg) >= {19'd0, pleft_reg}) begin
                    m_xl_len <= {19'd0, pleft_reg};
                    seg_last_piece_reg <= 1'b1;
                end else begin
                    m_xl_len <= sge_len - (off_reg - sge_off_reg);
                    seg_last_piece_reg <= 1'b0;
                end
            end
            pay_split_reg <= 1'b1;
        end else if (m_xl_ready) begin
            m_xl_valid <= 1'b0;
            state <= R_SCAT_SEG;
        end
    end
    R_SCAT_SEG: if (s_seg_valid && m_scat_ready) begin
        if (s_seg_last) begin
            pleft_reg <= pleft_reg - m_xl_len[12:0];
            if (op_write) begin
                va_reg <= va_reg + {51'd0, m_xl_len[12:0]};
                wr_left_reg <= wr_left_reg - m_xl_len;
            end else begin
                off_reg <= off_reg + m_xl_len;
            end
            if (seg_last_piece_reg) begin
                state <= R_PAY;
            end else begin
                // next SGE
                sge_off_reg <= sge_off_reg + sge_len;
                sge_i <= sge_i + 1'b1;
                sge_seg_reg <= sge_seg_reg + 1'b1;
                state <= R_SEEK;
            end
        end
    end
    R_PAY: begin
        // the payload has gone to the splitter (or is dropped if empty), or
        // goes on streaming there as the tail
        if (pay_finished && !pay_done_reg) begin
            pay_done_reg <= 1'b1;
            tail_reg <= !(s_pay_tvalid && s_pay_tready && s_pay_tlast);
        end
        if (pay_finished && resp_pkt_reg) begin
            state <= R_RDONE;
        end else if (pay_finished) begin
            state <= R_DONE;
            if (h_ackreq && !op_ud)
                send_resp_reg <= 1'b1;
            if (needs_rqe && op_ends)
                do_cqe_reg <= 1'b1;
        end
    end
    R_DONE: begin
        if (!pay_done_reg) begin
            // the payload drains (dropped, or through the splitter)
        end else if (op_ud) begin
            // a datagram changes no QP state; a receive that failed its
            // checks completes with the error (the QP goes on receiving)
            if (bad_reg && cqe_status_reg != `FROCE_WC_SUCCESS)
                do_cqe_reg <= 1'b1;
            else if (bad_reg)
                inc_dropped <= 1'b1;
            state <= R_CQE;
        end else if (dup_reg) begin
            // a duplicate READ: answered again if it still checks out,
            // else ignored; nothing changes
            state <= R_CQE;
        end else if (bad_reg) begin
            // request refused: NAK, responder side in error; a receive WQE
            // that failed completes with its error
            send_resp_reg <= 1'b1;
            inc_nak_sent <= 1'b1;
            resp_err[q_reg] <= 1'b1;
            m_qpev_valid <= 1'b1;
            m_qpev_qpn <= {{(24 - QW){1'b0}}, q_reg};
            m_qpev_subtype <= resp_syn_reg == SYN_NAK_ACC ? `FROCE_QP_EV_ACCESS_ERR :
                              resp_syn_reg == SYN_NAK_INV ? `FROCE_QP_EV_REQ_ERR : `FROCE_QP_EV_FATAL;
            if (needs_rqe && cqe_status_reg != `FROCE_WC_SUCCESS && resp_syn_reg != SYN_NAK_ACC)
                do_cqe_reg <= 1'b1;
            state <= R_CQE;
        end else begin
            // executed (a READ takes a PSN per response packet)
            epsn_ram[qs_waddr] <= epsn_reg + npsn_reg;
            nak_sent[q_reg] <= 1'b0;
            in_msg[q_reg] <= !op_ends;
            msg_write[q_reg] <= op_write;
            if (op_write) begin
                wr_va_ram[q_reg] <= va_reg;
                wr_key_ram[q_reg] <= key_reg;
                wr_left_ram[q_reg] <= wr_left_reg;
                wr_total_ram[q_reg] <= wr_total_reg;
            end
            recv_off_ram[qs_waddr] <= op_ends ? 32'd0 : off_reg;
            if (op_ends) begin
                msn_ram[qs_waddr] <= msn_reg + 1'b1;
                msn_reg <= msn_reg + 1'b1;
            end
            state <= R_CQE;
        end
    end
    R_CQE: begin
        if (!do_cqe_reg) begin
            state <= R_ACKQ;
        end else if (!m_cqe_valid) begin
            m_cqe_valid <= 1'b1;
            m_cqe_cqn <= c_rcqn;
            m_cqe <= rcqe;
        end else if (m_cqe_ready) begin
            m_cqe_valid <= 1'b0;
            rq_ci_ram[qs_waddr] <= rq_ci_reg + 1'b1;
            do_cqe_reg <= 1'b0;
            state <= R_ACKQ;
        end
    end
    R_ACKQ: begin
        if (!send_resp_reg) begin
            state <= R_IDLE;
        end else if (dup_queued) begin
            send_resp_reg <= 1'b0;
            state <= R_IDLE;
        end else if (reread_starts) begin
            // a READ asked again voids its QP's older jobs at once, also
            // those still queued for the tx engine: the queue may be full
            // of them, and this engine waits for room in it
            dup_reg <= 1'b0;
            dup_next_ram[qs_waddr] <= h_psn + npsn_reg;
            rr_start_ram[qs_waddr] <= h_psn;
            rd_epoch_ram[qs_waddr] <= rd_epoch_ram[q_reg] + 1'b1;
            m_reread_valid <= 1'b1;
            m_reread_qpn <= q_reg;
            m_reread_psn <= h_psn;
        end else if (!m_resp_valid && !resp_wait_reg && !m_sw_valid) begin
            // every ACK and NAK acknowledges earlier packets (a READ response
            // must see earlier writes): it leaves once the DMA writes issued
            // so far completed (resp_wait_reg); the engine goes on meanwhile
            m_resp_hdr <= resp_fields;
            m_resp_read <= resp_job_reg;
            m_resp_qpn <= q_reg;
            m_resp_epoch <= rd_epoch_ram[q_reg];
            if (resp_job_reg)
                dup_next_ram[qs_waddr] <= h_psn + npsn_reg;
            m_resp_va <= va_reg;
            m_resp_rkey <= key_reg;
            m_resp_len <= wr_total_reg;
            resp_wait_reg <= 1'b1;
            resp_left_reg <= wr_pending - {15'd0, wr_done};
            send_resp_reg <= 1'b0;
            state <= R_IDLE;
        end
    end
    R_DROP: begin
        if (pay_done_reg || (s_pay_tvalid && s_pay_tlast && !tail_reg))
            state <= R_ACKQ;
    end

    // ---- completer: READ responses and atomic ACKs ----
    R_RPROC: if (if_fresh && rp_ready_reg) begin
        // the oldest WQE after the implicit ACK (R_CMPL) must be the READ
        // or atomic this response is for, at the PSN it expects next
        if (!ent_valid || !ent_rd) begin
            inc_dropped <= 1'b1;
            state <= R_RDROP;
        end else if (h_psn == rp_expected_reg) begin
            if (!rp_fits_reg) begin
                inc_dropped <= 1'b1;
                state <= R_RDROP;
            end else begin
                orig_reg <= h_orig;
                off_reg <= rp_off_reg;
                pleft_reg <= 13'd0;
                sge_i <= 5'd0;
                sge_seg_reg <= 5'd0;
                sge_off_reg <= 32'd0;
                fetch_sq_reg <= 1'b1;
                state <= (op_aack || h_plen != 13'd0) ? R_WQE_GET : R_PAY;
            end
        end else begin
            // a duplicate, or responses before it are missing: ask for them
            // again (once per gap; the ACK timeout covers the rest)
            if (rp_behind_reg)
                inc_dup <= 1'b1;
            else
                inc_oos <= 1'b1;
            // Asked already, but the gap goes on long after the responder
            // must have restarted (it voids the old stream within a packet
            // or two): the request or the restarted stream's first response
            // was lost too; ask again rather than wait for the ACK timeout
            // The wait doubles with every such request until progress: the
            // responder may have a long queue of responses to send before it
            // reads the request, and each request costs a go-back-N of all
            // outstanding READs (asking at a fixed count fed that queue)
            // (a restarted stream seen without its first response: at once)
            if (!rp_behind_reg && !m_rw_valid && (!rd_rw_sent[q_reg] || rd_oos_due || rd_restart_lost)) begin
                inc_retrans <= 1'b1;
                m_rw_valid <= 1'b1;
                m_rw_qpn <= q_reg;
                m_rw_psn <= rp_expected_reg;
                rd_rw_sent[q_reg] <= 1'b1;
                rd_oos_ram[qs_waddr] <= 12'd0;
                rd_oos_psn_ram[q_reg] <= rp_expected_reg;
                if (rd_rw_sent[q_reg] && !rd_restart_lost && !(&rd_oos_lvl_ram[q_reg]))
                    rd_oos_lvl_ram[qs_waddr] <= rd_oos_lvl_ram[q_reg] + 1'b1;
            end else if (!rp_behind_reg) begin
                rd_oos_psn_ram[q_reg] <= h_psn;
                if (!rd_oos_due)
                    rd_oos_ram[qs_waddr] <= rd_oos_ram[q_reg] + 1'b1;
            end
            state <= R_RDROP;
        end
    end
    R_RDROP: if (pay_done_reg) begin
        state <= R_KICK2;
    end
    R_RCAP: begin
        // the SGEs must hold the data (the requester checked them when the
        // WQE was posted; the host may not change a posted WQE)
        if (sge_i == sq_nsge) begin
            sge_i <= 5'd0;
            sge_seg_reg <= sge_base_reg;
            if ({1'b0, off_reg} + {20'd0, h_plen} > cap_reg) begin
                inc_dropped <= 1'b1;
                state <= R_RDROP;
            end else begin
                state <= R_SEEK;
            end
        end else begin
            cap_reg <= cap_reg + {1'b0, sge_len};
            sge_i <= sge_i + 1'b1;
            sge_seg_reg <= sge_seg_reg + 1'b1;
        end
    end
    R_AACK: begin
        if (!m_xl_valid) begin
            m_xl_valid <= 1'b1;
            m_xl_key <= sge_lkey;
            m_xl_va <= sge_addr;
            m_xl_len <= 32'd8;
            m_xl_access <= 4'd1;        // LOCAL_WRITE
            sw_done_reg <= 4'd0;
        end else if (m_xl_ready) begin
            m_xl_valid <= 1'b0;
            state <= R_AACK_SEG;
        end
    end
    R_AACK_SEG: if (s_seg_valid && s_seg_ready) begin
        // the original value into the WQE's buffer (two pieces if it
        // straddles a page); a failed key writes nothing
        if (seg_ok) begin
            m_sw_valid <= 1'b1;
            m_sw_addr <= s_seg_addr;
            m_sw_data <= orig_reg >> {sw_done_reg, 3'd0};
            m_sw_len <= s_seg_len[3:0];
        end
        sw_done_reg <= sw_done_reg + s_seg_len[3:0];
        if (s_seg_last)
            state <= R_AACKW;
    end
    R_AACKW: if (!m_sw_valid && pay_done_reg) begin
        state <= R_RDONE;
    end
    R_RDONE: begin
        // progress: the next response, timer and retry budget restart
        rd_pkts_ram[qs_waddr] <= rd_have + 1'b1;
        rd_rw_sent[q_reg] <= 1'b0;
        rd_oos_ram[qs_waddr] <= 12'd0;
        rd_oos_lvl_ram[qs_waddr] <= 3'd0;
        tmr_on[q_reg] <= 1'b0;
        retry_left_ram[qs_waddr] <= retry_cnt_ram[q_reg];
        ar_lvl_ram[qs_waddr] <= 4'd0;
        if (!resp_una_fwd[23]) begin
            una_ram[qs_waddr] <= h_psn + 1'b1;
            seq_rw_valid[q_reg] <= 1'b0;
        end
        if (op_rresp_last || op_rresp_only || op_aack) begin
            // all its data is in: retire it (CQE after the data writes)
            resp_done_reg <= 1'b1;
            rd_fin_reg <= 1'b1;
            ack_psn_reg <= h_psn;
            state <= R_CMPL;
        end else begin
            state <= retired_reg ? R_KICK2 : R_IDLE;
        end
    end

    // ---- completer ----
    R_CMPL: if (if_fresh) begin
        if (!pay_done_reg && !resp_pkt_reg) begin
            // drop the (empty) payload first (a READ response's is placed later)
        end else if (!cmpl_nak_reg && cmpl_mode_reg != CM_TMO && h_syn[7:5] == `FROCE_AETH_TYPE_NAK &&
                     h_syn[4:0] != `FROCE_AETH_NAK_PSN_SEQ_ERR) begin
            // fatal NAK: the oldest WQE fails, the rest flush
            if (h_syn[4:0] == `FROCE_AETH_NAK_REMOTE_ACCESS_ERR)
                inc_acc_nak_rcvd <= 1'b1;
            if (h_syn[4:0] == `FROCE_AETH_NAK_INVALID_REQUEST)
                inc_inv_nak_rcvd <= 1'b1;
            cmpl_nak_reg <= 1'b1;
            req_err[q_reg] <= 1'b1;
        end else if (rd_fin_reg && !ent_valid) begin
            // the requester went back to this WQE (go-back-N) after its
            // response was checked: it is outstanding again, so its response
            // is taken again when it comes (placing it twice is harmless)
            rd_pkts_ram[qs_waddr] <= rd_pkts_ram[q_reg] - 1'b1;
            rd_fin_reg <= 1'b0;
            state <= R_KICK;
        end else if (!ent_valid || (!cmpl_nak_reg && ack_psn_diff[23]) ||
                     (!cmpl_nak_reg && ent_rd && !rd_fin_reg)) begin
            // (a READ/atomic retires only when its data is in, rd_fin_reg)
            kick_ready_reg <= 1'b1;
            state <= R_KICK;
        end else begin
            state <= R_CMPL_CQE;
        end
    end
    R_CMPL_CQE: if (if_fresh || m_cqe_valid) begin
        // a signaled WQE (or an error) offers its CQE before it retires; the
        // entry is read once, before that: what the retirement needs of it
        // is kept (cqe_rd_reg, cqe_err_reg)
        if (!m_cqe_valid && (ent_sig || (cmpl_nak_reg && !nak_ok))) begin
            m_cqe_valid <= 1'b1;
            m_cqe_cqn <= c_scqn;
            m_cqe <= scqe;
            cqe_rd_reg <= ent_rd;
            cqe_err_reg <= cmpl_nak_reg && !nak_ok && !nak_lost_rd;
        end else if (!m_cqe_valid || m_cqe_ready) begin
            m_cqe_valid <= 1'b0;
            if (m_cqe_valid && cqe_err_reg)
                err_given_reg <= 1'b1;
            cmpl_i <= cmpl_i + 1'b1;
            retired_reg <= 1'b1;
            rd_fin_reg <= 1'b0;
            if (m_cqe_valid ? cqe_rd_reg : ent_rd)
                rd_retired_ram[qs_waddr] <= rd_retired_ram[q_reg] + 1'b1;
            state <= R_CMPL;
        end
    end
    R_KICK: if (if_fresh && kick_ready_reg) begin
        ack_wqe_ram[qs_waddr] <= cmpl_i;
        if (kick_una_adv_reg && cmpl_mode_reg != CM_TMO) begin
            // new PSNs acknowledged: the timer restarts, the retry budget refills
            una_ram[qs_waddr] <= una_new;
            seq_rw_valid[q_reg] <= 1'b0;
            tmr_on[q_reg] <= 1'b0;
            retry_left_ram[qs_waddr] <= retry_cnt_ram[q_reg];
            ar_lvl_ram[qs_waddr] <= 4'd0;
        end
        if (retired_reg) begin
            // progress: the timer restarts, the retry budgets refill
            tmr_on[q_reg] <= 1'b0;
            retry_left_ram[qs_waddr] <= retry_cnt_ram[q_reg];
            ar_lvl_ram[qs_waddr] <= 4'd0;
            if (cmpl_mode_reg != CM_RNR)
                rnr_left_ram[qs_waddr] <= rnr_retry_ram[q_reg];
            rd_pkts_ram[qs_waddr] <= 24'd0;    // a new oldest WQE has no responses yet
        end
        if (cmpl_mode_reg == CM_RESP) begin
            state <= resp_done_reg ? R_KICK2 : R_RPROC;
        end else if (cmpl_nak_reg || cmpl_mode_reg == CM_TMO) begin
            state <= R_KICK2;
        end else if (cmpl_mode_reg == CM_ACK) begin
            // an ACK past PSNs a READ has no response for: they were lost
            // (or overtaken); ask for them again, once per gap
            if (kick_ack_rd_gap) begin
                if (!m_rw_valid) begin
                    inc_retrans <= 1'b1;
                    m_rw_valid <= 1'b1;
                    m_rw_qpn <= q_reg;
                    m_rw_psn <= kick_rd_expected_reg;
                    rd_rw_sent[q_reg] <= 1'b1;
                    rd_oos_psn_ram[q_reg] <= kick_rd_expected_reg;
                    state <= R_KICK2;
                end
            end else begin
                state <= R_KICK2;
            end
        end else if (cmpl_mode_reg == CM_SEQ && rnr_wait[q_reg]) begin
            // waiting out an RNR NAK: the responder NAKs what we sent after
            // the refused packet; the RNR timer resends from there
            inc_seq_nak_rcvd <= 1'b1;
            state <= R_KICK2;
        end else if (cmpl_mode_reg == CM_SEQ && kick_nak_stale_reg) begin
            inc_seq_nak_rcvd <= 1'b1;
            state <= R_KICK2;
        end else if (cmpl_mode_reg == CM_SEQ) begin
            if (!m_rw_valid) begin
                inc_seq_nak_rcvd <= 1'b1;
                inc_retrans <= 1'b1;
                m_rw_valid <= 1'b1;
                m_rw_qpn <= q_reg;
                // from the NAKed PSN, or from the first response an older READ lacks
                m_rw_psn <= kick_nak_rd_gap ? kick_rd_expected_reg : h_psn;
                seq_rw_valid[q_reg] <= 1'b1;
                seq_rw_psn_ram[q_reg] <= h_psn;
                state <= R_KICK2;
            end
        end else begin
            // RNR NAK: wait, then resend; or give up
            inc_rnr_rcvd <= 1'b1;
            if (rnr_retry_ram[q_reg] != 3'd7 && (retired_reg ? rnr_retry_ram[q_reg] : rnr_left_ram[q_reg]) == 3'd0) begin
                inc_rnr_retry_exc <= 1'b1;
                cmpl_nak_reg <= 1'b1;
                req_err[q_reg] <= 1'b1;
                fatal_status_reg <= `FROCE_WC_RNR_RETRY_EXC_ERR;
                fatal_vendor_reg <= `FROCE_VENDOR_ERR_RNR_RETRY_EXCEEDED;
                cmpl_mode_reg <= CM_TMO;
                state <= R_CMPL;
            end else begin
                rnr_left_ram[qs_waddr] <= (retired_reg ? rnr_retry_ram[q_reg] : rnr_left_ram[q_reg]) - 1'b1;
                rnr_wait[q_reg] <= 1'b1;
                rnr_psn_ram[q_reg] <= h_psn;
                deadline_ram[deadline_waddr] <= now + rnr_delay(h_syn[4:0]);
                state <= R_KICK2;
            end
        end
    end
    R_KICK2: begin
        if (retired_reg && !m_kick_valid) begin
            m_kick_valid <= 1'b1;
            m_kick_qpn <= q_reg;
            state <= R_IDLE;
        end else if (!retired_reg) begin
            state <= R_IDLE;
        end
    end
    default: state <= R_IDLE;
    endcase
    // the scan's read cycle counts only when its act cycle follows in R_IDLE
    // with nothing else written meanwhile
    if (state != R_IDLE || qpc_we || (s_hdr_valid && s_hdr_ready))
        scan_phase <= 1'b0;

    // our DMA writes in flight (descriptors handed on minus completions)
    wr_pending <= wr_pending + {15'd0, wr_inc_scat} + {15'd0, wr_inc_sw} - {15'd0, wr_done};
    if (m_sw_valid && m_sw_ready)
        m_sw_valid <= 1'b0;
    // a latched response leaves when the writes before it completed (the
    // write engine completes them in the order they were issued)
    if (resp_wait_reg) begin
        if (resp_left_reg == 16'd0) begin
            m_resp_valid <= 1'b1;
            resp_wait_reg <= 1'b0;
        end else begin
            resp_left_reg <= resp_left_reg - {15'd0, wr_done};
        end
    end
    if (m_resp_valid && m_resp_ready)
        m_resp_valid <= 1'b0;

    // RQ WQE data
    if (s_rd_tvalid) begin
        if (rqe_beats[0])
            rqe_odd[rqe_beats[BB_W:1]] <= s_rd_tdata;
        else
            rqe_even[rqe_beats[BB_W:1]] <= s_rd_tdata;
        for (k = 0; k < RQE_HEAD_BEATS; k = k + 1)
            if (rqe_beats == k[WB_W-1:0])
                rqe[k * RQE_HEAD_PART +: RQE_HEAD_PART] <= s_rd_tdata[RQE_HEAD_PART-1:0];
        rqe_beats <= rqe_beats + 1'b1;
    end

    // context commits
    if (qpc_we && qpc_load_reset) begin
        msn_ram[qs_waddr] <= 24'd0;
        rd_epoch_ram[qs_waddr] <= 8'd0;
        rq_pi_ram[rq_pi_waddr] <= 16'd0;
        rq_ci_ram[qs_waddr] <= 16'd0;
        recv_off_ram[qs_waddr] <= 32'd0;
        ack_wqe_ram[qs_waddr] <= 16'd0;
        nak_sent[qpc_waddr] <= 1'b0;
        in_msg[qpc_waddr] <= 1'b0;
        resp_err[qpc_waddr] <= 1'b0;
        req_err[qpc_waddr] <= 1'b0;
        tmr_on[qpc_waddr] <= 1'b0;
        rnr_wait[qpc_waddr] <= 1'b0;
        rd_retired_ram[qs_waddr] <= 16'd0;
        rd_pkts_ram[qs_waddr] <= 24'd0;
        rd_rw_sent[qpc_waddr] <= 1'b0;
        rd_oos_ram[qs_waddr] <= 12'd0;
        rd_oos_lvl_ram[qs_waddr] <= 3'd0;
        atom_next_ram[qs_waddr] <= {AW{1'b0}};
        atom_valid[qpc_waddr * RD_ATOMIC_MAX +: RD_ATOMIC_MAX] <= {RD_ATOMIC_MAX{1'b0}};
    end
    if (qpc_we)
        rqe_tag_ok <= 1'b0;
    if (qpc_we) begin
        // (a datagram QP has no ACKs to wait for)
        sq_live[qpc_waddr] <= (qpc_wdata[`FROCE_QPC_STATE_LSB +: 4] == `FROCE_QP_STATE_RTS ||
                               qpc_wdata[`FROCE_QPC_STATE_LSB +: 4] == `FROCE_QP_STATE_SQD) &&
                              qpc_wdata[`FROCE_QPC_TYPE_LSB +: 4] == `FROCE_QP_TYPE_RC;
        tmo_exp_ram[qpc_waddr] <= qpc_wdata[`FROCE_QPC_TIMEOUT_LSB +: 5];
        ar_mtu_ram[qpc_waddr] <= qpc_wdata[`FROCE_QPC_PATH_MTU_LSB +: 3];
        retry_cnt_ram[qpc_waddr] <= qpc_wdata[`FROCE_QPC_RETRY_CNT_LSB +: 3];
        rnr_retry_ram[qpc_waddr] <= qpc_wdata[`FROCE_QPC_RNR_RETRY_LSB +: 3];
        retry_left_ram[qs_waddr] <= qpc_wdata[`FROCE_QPC_RETRY_CNT_LSB +: 3];
        rnr_left_ram[qs_waddr] <= qpc_wdata[`FROCE_QPC_RNR_RETRY_LSB +: 3];
    end
    if (qpc_we && qpc_load_rq_psn) begin
        epsn_ram[qs_waddr] <= qpc_wdata[`FROCE_QPC_RQ_PSN_LSB +: 24];
        dup_next_ram[qs_waddr] <= qpc_wdata[`FROCE_QPC_RQ_PSN_LSB +: 24];
        rr_start_ram[qs_waddr] <= qpc_wdata[`FROCE_QPC_RQ_PSN_LSB +: 24];
    end
    if (qpc_we && qpc_load_sq_psn) begin
        una_ram[qs_waddr] <= qpc_wdata[`FROCE_QPC_SQ_PSN_LSB +: 24];
        ar_lvl_ram[qs_waddr] <= 4'd0;
        seq_rw_valid[qpc_waddr] <= 1'b0;
    end

    if (rst) begin
        state <= R_IDLE;
        seek_phase_reg <= 1'b0;
        m_qpev_valid <= 1'b0;
        m_xl_valid <= 1'b0;
        m_resp_valid <= 1'b0;
        resp_wait_reg <= 1'b0;
        m_kick_valid <= 1'b0;
        m_rw_valid <= 1'b0;
        m_cqe_valid <= 1'b0;
        m_sw_valid <= 1'b0;
        rqe_tag_ok <= 1'b0;
        rd_rw_sent <= {NUM_QPS{1'b0}};
        seq_rw_valid <= {NUM_QPS{1'b0}};
        atom_valid <= {(NUM_QPS * RD_ATOMIC_MAX){1'b0}};
        pay_done_reg <= 1'b1;
        now <= 32'd0;
        scan_q <= {QW{1'b0}};
        scan_turn <= 1'b0;
        scan_phase <= 1'b0;
        tmr_on <= {NUM_QPS{1'b0}};
        rnr_wait <= {NUM_QPS{1'b0}};
        sq_live <= {NUM_QPS{1'b0}};
        inc_retrans <= 1'b0;
        inc_timeouts <= 1'b0;
        inc_adp_retrans <= 1'b0;
        ar_exp_reg <= 1'b0;
        inc_rnr_rcvd <= 1'b0;
        inc_retry_exc <= 1'b0;
        pay_split_reg <= 1'b0;
        tail_reg <= 1'b0;
        wr_pending <= 16'd0;
        nak_sent <= {NUM_QPS{1'b0}};
        in_msg <= {NUM_QPS{1'b0}};
        resp_err <= {NUM_QPS{1'b0}};
        req_err <= {NUM_QPS{1'b0}};
        inc_rx_pkts <= 1'b0;
        inc_dup <= 1'b0;
        inc_oos <= 1'b0;
        inc_nak_sent <= 1'b0;
        inc_rnr_sent <= 1'b0;
        inc_seq_nak_rcvd <= 1'b0;
        inc_acc_nak_rcvd <= 1'b0;
        inc_inv_nak_rcvd <= 1'b0;
        inc_rnr_retry_exc <= 1'b0;
        inc_out_of_buffer <= 1'b0;
        inc_len_err <= 1'b0;
        inc_qkey_err <= 1'b0;
        inc_access_err <= 1'b0;
        inc_dropped <= 1'b0;
    end
end

// fields read by other blocks, or kept for later features
wire unused_rx = ^{ctx, c_access, h, rqe_index, ent, s_seg_len[31:16], ack_psn_diff[22:0], scan_left[30:0],
                   resp_una_fwd[22:0], una_sent[22:0], nak_before_una[22:0], una_in_ent[22:0],
                  sq_nsge6[5], rd_gap[22:0], kick_ack_gap[22:0]};

endmodule

`resetall
