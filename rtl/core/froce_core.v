// SPDX-License-Identifier: MIT
// froce_core: the RoCE transport engine between host memory, doorbells, the context tables and the Ethernet port.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"
`include "froce_core_defs.vh"

/*
 * See docs/transport-engine.md. Skeleton: ports fixed, engines being added.
 */
module froce_core #(
    parameter DATA_WIDTH = 64,          // Ethernet and AXI data width in bits
    parameter NUM_QPS = 256,            // QP contexts, a power of two
    parameter NUM_CQS = 256,            // CQ contexts, a power of two
    parameter NUM_MRS = 1024,           // MR table entries
    parameter NUM_MTT = 65536,          // MTT entries
    parameter NUM_GIDS = 16,            // GID table entries
    parameter NUM_UARS = 256,           // UAR pages in BAR2, a power of two
    parameter NUM_EQS = 8,              // event queues, EQ 0 included, a power of two, 2..64
    parameter NUM_VECTORS = 32,         // MSI-X vectors, 1..FROCE_MSIX_MAX_VECTORS
    parameter [31:0] BUILD_ID = 32'd0,  // BAR0 BUILD_ID (e.g. git commit), set at synthesis
    parameter [47:0] MAC = 48'd0,       // BAR0 MAC_LO/HI: permanent MAC, 0 = none
    parameter AXI_ID_WIDTH = 4,
    parameter FW_INIT_FILE = "",        // firmware image for the soft core's RAM ($readmemh, build/firmware/froce-fw.hex)
    parameter FW_RAM_ADDR_WIDTH = 14,   // soft-core RAM: 2**FW_RAM_ADDR_WIDTH words (14: 64 KiB)
    parameter CLK_HZ = 156250000,       // clock frequency: the firmware's millisecond tick
    parameter [7:0] LINK_SPEED_GBPS = 8'd10, // BAR0 LINK_STATUS.SPEED_GBPS while link_up
    parameter DB_ADDR_W = `FROCE_UAR_PAGE_SHIFT + $clog2(NUM_UARS)
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Ethernet link state from the MAC/PHY (BAR0 LINK_STATUS, DEV_STATUS) */
    input  wire                         link_up,

    /* Firmware console: one byte per valid (to a UART on a board, printed
     * by the simulator) */
    output wire                         fw_console_valid,
    output wire [7:0]                   fw_console_data,

    /* BAR0 registers: AXI4-Lite slave, 32-bit data (froce_bar0, the BAR0
     * map of spec/device.toml) */
    input  wire [`FROCE_BAR0_ADDR_W-1:0] s_axil_awaddr,
    input  wire                         s_axil_awvalid,
    output wire                         s_axil_awready,
    input  wire [31:0]                  s_axil_wdata,
    input  wire [3:0]                   s_axil_wstrb,
    input  wire                         s_axil_wvalid,
    output wire                         s_axil_wready,
    output wire [1:0]                   s_axil_bresp,
    output wire                         s_axil_bvalid,
    input  wire                         s_axil_bready,
    input  wire [`FROCE_BAR0_ADDR_W-1:0] s_axil_araddr,
    input  wire                         s_axil_arvalid,
    output wire                         s_axil_arready,
    output wire [31:0]                  s_axil_rdata,
    output wire [1:0]                   s_axil_rresp,
    output wire                         s_axil_rvalid,
    input  wire                         s_axil_rready,

    /* BAR2 doorbell window: AXI4-Lite slave, write-only, 64-bit data. UAR
     * page p occupies [p << UAR_PAGE_SHIFT, (p + 1) << UAR_PAGE_SHIFT). */
    input  wire [DB_ADDR_W-1:0]         s_axil_db_awaddr,
    input  wire                         s_axil_db_awvalid,
    output wire                         s_axil_db_awready,
    input  wire [63:0]                  s_axil_db_wdata,
    input  wire [7:0]                   s_axil_db_wstrb,
    input  wire                         s_axil_db_wvalid,
    output wire                         s_axil_db_wready,
    output wire [1:0]                   s_axil_db_bresp,
    output wire                         s_axil_db_bvalid,
    input  wire                         s_axil_db_bready,

    /* Host memory: AXI4 master */
    output wire [AXI_ID_WIDTH-1:0]      m_axi_awid,
    output wire [63:0]                  m_axi_awaddr,
    output wire [7:0]                   m_axi_awlen,
    output wire [2:0]                   m_axi_awsize,
    output wire [1:0]                   m_axi_awburst,
    output wire                         m_axi_awlock,
    output wire [3:0]                   m_axi_awcache,
    output wire [2:0]                   m_axi_awprot,
    output wire                         m_axi_awvalid,
    input  wire                         m_axi_awready,
    output wire [DATA_WIDTH-1:0]        m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]      m_axi_wstrb,
    output wire                         m_axi_wlast,
    output wire                         m_axi_wvalid,
    input  wire                         m_axi_wready,
    input  wire [AXI_ID_WIDTH-1:0]      m_axi_bid,
    input  wire [1:0]                   m_axi_bresp,
    input  wire                         m_axi_bvalid,
    output wire                         m_axi_bready,
    output wire [AXI_ID_WIDTH-1:0]      m_axi_arid,
    output wire [63:0]                  m_axi_araddr,
    output wire [7:0]                   m_axi_arlen,
    output wire [2:0]                   m_axi_arsize,
    output wire [1:0]                   m_axi_arburst,
    output wire                         m_axi_arlock,
    output wire [3:0]                   m_axi_arcache,
    output wire [2:0]                   m_axi_arprot,
    output wire                         m_axi_arvalid,
    input  wire                         m_axi_arready,
    input  wire [AXI_ID_WIDTH-1:0]      m_axi_rid,
    input  wire [DATA_WIDTH-1:0]        m_axi_rdata,
    input  wire [1:0]                   m_axi_rresp,
    input  wire                         m_axi_rlast,
    input  wire                         m_axi_rvalid,
    output wire                         m_axi_rready,

    /* Ethernet: whole frames without preamble and FCS */
    input  wire [DATA_WIDTH-1:0]        s_eth_rx_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_eth_rx_tkeep,
    input  wire                         s_eth_rx_tvalid,
    output wire                         s_eth_rx_tready,
    input  wire                         s_eth_rx_tlast,
    output wire [DATA_WIDTH-1:0]        m_eth_tx_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_eth_tx_tkeep,
    output wire                         m_eth_tx_tvalid,
    input  wire                         m_eth_tx_tready,
    output wire                         m_eth_tx_tlast,

    /* MSI-X requests to the PCIe bridge: the vector and its MSI-X table
     * entry (combinational from BAR0's table, so always the entry as it is
     * now), held until taken */
    output wire [4:0]                   m_msix_vector,
    output wire [63:0]                  m_msix_addr,
    output wire [31:0]                  m_msix_data,
    output wire                         m_msix_valid,
    input  wire                         m_msix_ready,

    /* For an MSI-X emitter on a board (fpga/common/rtl/froce_msix_emitter.v):
     * a combinational table read port, the vector mask bits, and the
     * emitter's own pending bits, which BAR0's MSIX_PBA reports ORed with
     * the core's so that software reads one PBA. Tie msix_pba_ext to 0 when
     * the bridge forms the message from m_msix_vector. */
    input  wire [4:0]                   msix_tbl_vector,
    output wire [63:0]                  msix_tbl_addr,
    output wire [31:0]                  msix_tbl_data,
    output wire [NUM_VECTORS-1:0]       msix_vec_mask,
    input  wire [NUM_VECTORS-1:0]       msix_pba_ext

);

/*
 * Blocks (docs/transport-engine.md, docs/firmware-subsystem.md):
 *
 *   BAR0 CMD -> froce_fw (soft core + firmware): the only writer of contexts
 *   froce_fw ctl bus ------> context store (here): QPC/CQC/GID commits to
 *                            the engines' copies; MR/MTT writes to both
 *                            translation units; counters read back
 *   BAR2 ------------------> froce_doorbell -> SQ doorbells -> tx engine
 *                                           -> RQ doorbells -> rx engine
 *   eth rx -> rx_parser -> rx_pkt_buffer -> rx engine (responder, completer)
 *                                |            | payload -> axis_split -> write mux
 *                                `- not RoCE -> froce_netdev RX ring (own dma_wr)
 *   tx engine (requester, ACKs) -> tx_builder -> frame mux (froce_netdev) -> eth tx
 *                             netdev TX ring (own dma_rd) -^
 *   rx engine / tx engine -> cq engine -> write mux -> dma_wr -> AXI
 *   tx engine -> dma_rd (WQEs, gather); rx engine -> dma_rd (RQ WQEs)
 *
 * Two MR/MTT units hold the same tables (every control-bus write goes to
 * both): one serves the requester, the other the responder and the CQ
 * engine, so neither side waits behind the other's translations.
 */

localparam QW = $clog2(NUM_QPS);
localparam CQW = $clog2(NUM_CQS);
localparam GW = $clog2(NUM_GIDS);
localparam OUTSTANDING = 32;
localparam RD_ATOMIC_MAX = 8;         // READ/atomic WQEs outstanding per QP (= atomic replay cache entries)
localparam OW = $clog2(OUTSTANDING);
localparam QPC_BITS = `FROCE_QPC_SIZE * 8;
localparam CQC_BITS = `FROCE_CQC_SIZE * 8;
localparam GID_BITS = `FROCE_GID_CTX_SIZE * 8;
localparam CQE_BITS = `FROCE_CQE_SIZE * 8;
localparam IF_BITS = `FROCE_INFLIGHT_BITS;
localparam W = DATA_WIDTH / 8;
localparam S_ID = 1;            // ID bits of each DMA engine's AXI port

// control-bus map (word addresses)
localparam [31:0] A_QPC_B = `FROCE_CTL_QPC_BASE >> 2;
localparam [22:0] A_QPC = A_QPC_B[22:0];
localparam [31:0] A_CQC_B = `FROCE_CTL_CQC_BASE >> 2;
localparam [22:0] A_CQC = A_CQC_B[22:0];
localparam [31:0] A_GID_B = `FROCE_CTL_GID_BASE >> 2;
localparam [22:0] A_GID = A_GID_B[22:0];
localparam [31:0] A_CORE_B = `FROCE_CTL_CORE_BASE >> 2;
localparam [22:0] A_CORE = A_CORE_B[22:0];
localparam [31:0] A_EQC_B = `FROCE_CTL_EQC_BASE >> 2;
localparam [22:0] A_EQC = A_EQC_B[22:0];
localparam [31:0] A_ICNT_B = `FROCE_CTL_ICNT_BASE >> 2;
localparam [22:0] A_ICNT = A_ICNT_B[22:0];
localparam EQW = $clog2(NUM_EQS);
localparam EQC_BITS = `FROCE_EQC_SIZE * 8;

// ---------------------------------------------------------------------------
// Device reset (BAR0 DEV_CTRL.RESET): crst resets the engines, the firmware
// and the counters; BAR0's MSI-X table and masks and the host ports' own
// handshakes stay (froce_dev_reset, froce_axi_quiesce, froce_axil_wr_guard)
// ---------------------------------------------------------------------------

wire dev_reset_req, dev_reset_busy, dev_rst;
wire crst = rst || dev_rst;
wire etx_tvalid, etx_tready, erx_tvalid, erx_tready;
wire etx_gate, erx_drop;
wire dma_busy;     // froce_axi_quiesce, below

froce_dev_reset dev_reset (
    .clk(clk), .rst(rst), .req(dev_reset_req), .busy(dev_reset_busy), .dev_rst(dev_rst),
    .dma_busy(dma_busy),
    .tx_fire(m_eth_tx_tvalid && m_eth_tx_tready), .tx_last(m_eth_tx_tlast), .tx_gate(etx_gate),
    .rx_fire(s_eth_rx_tvalid && s_eth_rx_tready), .rx_last(s_eth_rx_tlast), .rx_drop(erx_drop)
);
// no frame starts while a reset waits or runs; frames arriving meanwhile
// (and the rest of one cut by it) are taken and dropped
assign m_eth_tx_tvalid = etx_tvalid && !etx_gate;
assign etx_tready = m_eth_tx_tready && !etx_gate;
assign erx_tvalid = s_eth_rx_tvalid && !erx_drop;
assign s_eth_rx_tready = erx_drop || erx_tready;

initial begin
    if (`FROCE_CTL_MRT_BASE != 0 || `FROCE_MRT_CTL_SPAN != `FROCE_CTL_QPC_BASE ||
        `FROCE_QPC_SIZE != 128 || `FROCE_CQC_SIZE != 32 || `FROCE_GID_CTX_SIZE != 32 ||
        `FROCE_EQC_SIZE != 32 || (1 << EQW) != NUM_EQS ||
        `FROCE_CTL_ICNT_BASE < `FROCE_CTL_CORE_BASE + 8 * `FROCE_CNT_NUM ||
        `FROCE_CTL_EQC_BASE < `FROCE_CTL_ICNT_BASE + 8 * `FROCE_ICNT_NUM ||
        (1 << QW) != NUM_QPS || (1 << CQW) != NUM_CQS || (1 << GW) != NUM_GIDS) begin
        $display("froce_core: control-bus map or table sizes do not match this decoder");
        $finish;
    end
end

// ---------------------------------------------------------------------------
// Control bus: context staging and commits, counters
// ---------------------------------------------------------------------------

// the control bus: froce_fw (the firmware) is its only master
wire ctl_valid, ctl_ready, ctl_write, ctl_rvalid;
wire [22:0] ctl_addr;
wire [31:0] ctl_wdata, ctl_rdata;

// The address decode is registered (the compares, the offsets and their
// range checks, below): a request is taken from its second cycle on
// (ctl_dec_ok), when the decode is its own. The master holds every field
// until the handshake.
wire sel_mrt_d = ctl_addr < A_QPC;
wire sel_qpc_d = ctl_addr >= A_QPC && ctl_addr < A_CQC;
wire sel_cqc_d = ctl_addr >= A_CQC && ctl_addr < A_GID;
wire sel_gid_d = ctl_addr >= A_GID && ctl_addr < A_CORE;
wire sel_eqc_d = ctl_addr >= A_EQC;
reg ctl_dec_ok;
reg sel_mrt, sel_qpc, sel_cqc, sel_gid, sel_eqc, sel_cnt, sel_icnt;
reg qpc_in, cqc_in, gid_in, eqc_in;     // the context number is below the table's size

wire mrt_tx_ready, mrt_rx_ready;
wire [31:0] mrt_rdata;
wire mrt_rvalid;
wire [31:0] unused_mrt_rx_rdata;
wire unused_mrt_rx_rvalid;

reg rd_pending;                 // one control read at a time
reg [31:0] own_rdata;
reg own_rvalid;
wire ctl_fire = ctl_valid && ctl_ready;
// contexts wait while the doorbell unit clears its binding tables after reset;
// a QP context's commit (its dword 0) until both engines are at a cycle where
// they write no per-QP state (their qpc_ready), so that state has one write port
wire tx_qpc_ready, rx_qpc_ready;
wire qpc_commit_held = ctl_write && sel_qpc && ctl_addr[4:0] == 5'd0 && !(tx_qpc_ready && rx_qpc_ready);
assign ctl_ready = ctl_dec_ok && !rd_pending && (sel_mrt ? (mrt_tx_ready && mrt_rx_ready) : !db_init_busy && !qpc_commit_held);
// An access to the core's own tables other than a QP context's commit is
// taken on these registers alone (ctl_ready's other terms are for other
// targets): the engines' qpc_ready reaches only the QPC commit, not every
// table's write enable, the staging register and the counter reads.
wire ctl_own_go = ctl_valid && ctl_dec_ok && !sel_mrt && !rd_pending && !db_init_busy;
assign ctl_rdata = own_rvalid ? own_rdata : mrt_rdata;
assign ctl_rvalid = own_rvalid || mrt_rvalid;

// staged context dwords: one context is written at a time, dword 0 last
reg [QPC_BITS-1:32] stage;
wire [QPC_BITS-1:0] commit_data = {stage, ctl_wdata};

wire [4:0] ctl_dw_qpc = ctl_addr[4:0];
wire [2:0] ctl_dw_small = ctl_addr[2:0];
wire ctl_own_wr = ctl_own_go && ctl_write;      // (a QPC dword 0 also needs the engines)
wire [4:0] stage_dw = sel_qpc ? ctl_dw_qpc : {2'd0, ctl_dw_small};
// context number = word offset in its table / context size in words
wire [22:0] qpc_off = ctl_addr - A_QPC;
wire [22:0] cqc_off = ctl_addr - A_CQC;
wire [22:0] gid_off = ctl_addr - A_GID;
wire [22:0] eqc_off = ctl_addr - A_EQC;
reg [QW-1:0] qpc_idx;
reg [CQW-1:0] cqc_idx;
reg [GW-1:0] gid_idx;
reg [EQW-1:0] eqc_idx;
wire qpc_commit = ctl_own_wr && sel_qpc && ctl_dw_qpc == 5'd0 && qpc_in && tx_qpc_ready && rx_qpc_ready;
wire cqc_commit = ctl_own_wr && sel_cqc && ctl_dw_small == 3'd0 && cqc_in;
wire gid_commit = ctl_own_wr && sel_gid && ctl_dw_small == 3'd0 && gid_in;
wire eqc_commit = ctl_own_wr && sel_eqc && ctl_dw_small == 3'd0 && eqc_in;
wire load_reset = ctl_wdata[`FROCE_QPC_LOAD_RESET_LSB];
wire load_rq_psn = ctl_wdata[`FROCE_QPC_LOAD_RQ_PSN_LSB];
wire load_sq_psn = ctl_wdata[`FROCE_QPC_LOAD_SQ_PSN_LSB];
// action bits are not stored
wire [QPC_BITS-1:0] qpc_store = commit_data & ~({{(QPC_BITS - 32){1'b0}}, 32'h00070000});

always @(posedge clk) begin
    if (ctl_own_wr && (sel_qpc ? ctl_dw_qpc != 5'd0 : (sel_cqc || sel_gid || sel_eqc) && ctl_dw_small != 3'd0))
        stage[{stage_dw, 5'd0} +: 32] <= ctl_wdata;
end

// counters (FROCE_CNT_*, 64 bits each) at CTL_CORE_BASE + 8 i and the
// internal ones (FROCE_ICNT_*) at CTL_ICNT_BASE + 8 i, low dword first; the
// same counters are in BAR0 (froce_bar0). All are in froce_counters
// (below): slot i is FROCE_CNT_i, slot FROCE_CNT_NUM + i is FROCE_ICNT_i.
localparam CNT_SLOTS = `FROCE_CNT_NUM + `FROCE_ICNT_NUM;
localparam CNT_IW = $clog2(W) + 1;          // increments: up to W bytes a beat
localparam CNT_SW = $clog2(CNT_SLOTS);
localparam [CNT_SW-1:0] ICNT_SLOT0 = `FROCE_CNT_NUM;
wire [22:0] cnt_woff = ctl_addr - A_CORE;
wire [22:0] icnt_woff = ctl_addr - A_ICNT;
wire sel_cnt_d = ctl_addr >= A_CORE && cnt_woff < 2 * `FROCE_CNT_NUM;
wire sel_icnt_d = ctl_addr >= A_ICNT && icnt_woff < 2 * `FROCE_ICNT_NUM;
reg [CNT_SW-1:0] cnt_slot;              // the counter a read names, and which dword
reg cnt_slot_high;

// the registered decode (above)
always @(posedge clk) begin
    ctl_dec_ok <= ctl_valid && !ctl_fire;
    sel_mrt <= sel_mrt_d;
    sel_qpc <= sel_qpc_d;
    sel_cqc <= sel_cqc_d;
    sel_gid <= sel_gid_d;
    sel_eqc <= sel_eqc_d;
    sel_cnt <= sel_cnt_d;
    sel_icnt <= sel_icnt_d;
    qpc_in <= qpc_off[22:5] < NUM_QPS;
    cqc_in <= cqc_off[22:3] < NUM_CQS;
    gid_in <= gid_off[22:3] < NUM_GIDS;
    eqc_in <= eqc_off[22:3] < NUM_EQS;
    qpc_idx <= qpc_off[QW+4:5];
    cqc_idx <= cqc_off[CQW+2:3];
    gid_idx <= gid_off[GW+2:3];
    eqc_idx <= eqc_off[EQW+2:3];
    cnt_slot <= sel_icnt_d ? ICNT_SLOT0 + icnt_woff[CNT_SW:1] : cnt_woff[CNT_SW:1];
    cnt_slot_high <= sel_icnt_d ? icnt_woff[0] : cnt_woff[0];
    if (crst)
        ctl_dec_ok <= 1'b0;
end

// a counter read takes a cycle more: the slot index is registered, then
// the counter RAM, its 64-bit add and the dword select run from it
reg [CNT_SW-1:0] ctl_cnt_index;
reg ctl_cnt_high, ctl_cnt_pending;
wire [63:0] ctl_cnt_value;
always @(posedge clk) begin
    own_rvalid <= 1'b0;
    ctl_cnt_pending <= 1'b0;
    if (ctl_own_go && !ctl_write) begin
        if (sel_cnt || sel_icnt) begin
            ctl_cnt_pending <= 1'b1;
            ctl_cnt_index <= cnt_slot;
            ctl_cnt_high <= cnt_slot_high;
        end else begin
            // contexts are write-only (the firmware keeps its own copy)
            own_rvalid <= 1'b1;
            own_rdata <= 32'd0;
        end
    end
    if (ctl_cnt_pending) begin
        own_rvalid <= 1'b1;
        own_rdata <= ctl_cnt_high ? ctl_cnt_value[63:32] : ctl_cnt_value[31:0];
    end
    if ((ctl_fire && !ctl_write && sel_mrt) || (ctl_own_go && !ctl_write && (sel_cnt || sel_icnt)))
        rd_pending <= 1'b1;
    else if (mrt_rvalid || ctl_cnt_pending)
        rd_pending <= 1'b0;
    if (crst) begin
        rd_pending <= 1'b0;
        own_rvalid <= 1'b0;
        ctl_cnt_pending <= 1'b0;
    end
end

// ---------------------------------------------------------------------------
// Doorbells
// ---------------------------------------------------------------------------

wire sq_db_valid, sq_db_ready, rq_db_valid, rq_db_ready, cq_arm_valid, cq_arm_ready;
wire [23:0] sq_db_qpn, rq_db_qpn, cq_arm_cqn, cq_arm_ci;
wire [15:0] sq_db_pi, rq_db_pi;
wire cq_arm_solicited;
wire [3:0] cq_arm_sn;
wire inc_db_accepted, inc_db_rejected, inc_db_malformed;
wire db_init_busy;

// BAR2 writes the doorbell unit took and lost in a device reset still get
// their B response
wire [DB_ADDR_W-1:0] gdb_awaddr;
wire [63:0] gdb_wdata;
wire [7:0] gdb_wstrb;
wire [1:0] gdb_bresp;
wire gdb_awvalid, gdb_awready, gdb_wvalid, gdb_wready, gdb_bvalid, gdb_bready;

froce_axil_wr_guard #(.ADDR_WIDTH(DB_ADDR_W), .DATA_WIDTH(64)) db_guard (
    .clk(clk), .rst(rst), .hold(dev_rst),
    .s_axil_awaddr(s_axil_db_awaddr), .s_axil_awvalid(s_axil_db_awvalid), .s_axil_awready(s_axil_db_awready),
    .s_axil_wdata(s_axil_db_wdata), .s_axil_wstrb(s_axil_db_wstrb), .s_axil_wvalid(s_axil_db_wvalid),
    .s_axil_wready(s_axil_db_wready), .s_axil_bresp(s_axil_db_bresp), .s_axil_bvalid(s_axil_db_bvalid),
    .s_axil_bready(s_axil_db_bready),
    .m_axil_awaddr(gdb_awaddr), .m_axil_awvalid(gdb_awvalid), .m_axil_awready(gdb_awready),
    .m_axil_wdata(gdb_wdata), .m_axil_wstrb(gdb_wstrb), .m_axil_wvalid(gdb_wvalid),
    .m_axil_wready(gdb_wready), .m_axil_bresp(gdb_bresp), .m_axil_bvalid(gdb_bvalid),
    .m_axil_bready(gdb_bready)
);

froce_doorbell #(.NUM_QPS(NUM_QPS), .NUM_CQS(NUM_CQS), .NUM_UARS(NUM_UARS)) doorbell (
    .clk(clk), .rst(crst),
    .s_axil_awaddr(gdb_awaddr), .s_axil_awvalid(gdb_awvalid), .s_axil_awready(gdb_awready),
    .s_axil_wdata(gdb_wdata), .s_axil_wstrb(gdb_wstrb), .s_axil_wvalid(gdb_wvalid),
    .s_axil_wready(gdb_wready), .s_axil_bresp(gdb_bresp), .s_axil_bvalid(gdb_bvalid),
    .s_axil_bready(gdb_bready),
    .bind_qp_valid(qpc_commit), .bind_qp_qpn({{(24 - QW){1'b0}}, qpc_idx}),
    .bind_qp_uar(commit_data[`FROCE_QPC_UAR_LSB +: 16]),
    .bind_cq_valid(cqc_commit), .bind_cq_cqn({{(24 - CQW){1'b0}}, cqc_idx}),
    .bind_cq_uar(commit_data[`FROCE_CQC_UAR_LSB +: 16]),
    .m_sq_db_valid(sq_db_valid), .m_sq_db_ready(sq_db_ready), .m_sq_db_qpn(sq_db_qpn), .m_sq_db_pi(sq_db_pi),
    .m_rq_db_valid(rq_db_valid), .m_rq_db_ready(rq_db_ready), .m_rq_db_qpn(rq_db_qpn), .m_rq_db_pi(rq_db_pi),
    // CQ arms go to the CQ engine (arm state per CQ)
    .m_cq_arm_valid(cq_arm_valid), .m_cq_arm_ready(cq_arm_ready), .m_cq_arm_cqn(cq_arm_cqn), .m_cq_arm_ci(cq_arm_ci),
    .m_cq_arm_solicited(cq_arm_solicited), .m_cq_arm_sn(cq_arm_sn),
    .inc_accepted(inc_db_accepted), .inc_rejected(inc_db_rejected), .inc_malformed(inc_db_malformed),
    .init_busy(db_init_busy)
);

// ---------------------------------------------------------------------------
// MR/MTT translation: requester unit and responder/CQ unit
// ---------------------------------------------------------------------------

wire txl_valid, txl_ready;
wire [31:0] txl_key, txl_len;
wire [23:0] txl_pd;
wire [63:0] txl_va;
wire [3:0] txl_access;
wire tseg_valid, tseg_ready, tseg_last, tseg_first;
wire [63:0] tseg_addr;
wire [31:0] tseg_len;
wire [2:0] tseg_status;
wire unused_tseg_tag;
wire tx_xl_busy;

froce_mr_xlate #(.NUM_MRS(NUM_MRS), .NUM_MTT(NUM_MTT), .TAG_W(1)) xlate_tx (
    .clk(clk), .rst(crst),
    .ctl_valid(ctl_valid && ctl_dec_ok && sel_mrt && !rd_pending && mrt_rx_ready), .ctl_ready(mrt_tx_ready),
    .ctl_write(ctl_write), .ctl_addr(ctl_addr[21:0]), .ctl_wdata(ctl_wdata),
    .ctl_rdata(mrt_rdata), .ctl_rvalid(mrt_rvalid),
    .s_req_valid(txl_valid), .s_req_ready(txl_ready), .s_req_key(txl_key), .s_req_pd(txl_pd),
    .s_req_va(txl_va), .s_req_len(txl_len), .s_req_access(txl_access), .s_req_tag(1'b0),
    .m_seg_valid(tseg_valid), .m_seg_ready(tseg_ready), .m_seg_addr(tseg_addr), .m_seg_len(tseg_len),
    .m_seg_first(tseg_first), .m_seg_last(tseg_last), .m_seg_status(tseg_status), .m_seg_tag(unused_tseg_tag),
    .busy(tx_xl_busy)
);

// responder side: the rx engine (tag 0) and the CQ engine (tag 1)
wire rxl_valid, rxl_ready;
wire [31:0] rxl_key, rxl_len;
wire [23:0] rxl_pd;
wire [63:0] rxl_va;
wire [3:0] rxl_access;
wire cxl_valid, cxl_ready;
wire [31:0] cxl_key, cxl_len;
wire [23:0] cxl_pd;
wire [63:0] cxl_va;
wire [3:0] cxl_access;
wire xl_pick_rx = rxl_valid;
wire rseg_valid, rseg_last, rseg_first, rseg_tag;
wire [63:0] rseg_addr;
wire [31:0] rseg_len;
wire [2:0] rseg_status;
wire rseg_rx_ready, rseg_cq_ready;
wire rx_xl_busy, xl_req_ready;
assign rxl_ready = xl_req_ready;
assign cxl_ready = xl_req_ready && !rxl_valid;

froce_mr_xlate #(.NUM_MRS(NUM_MRS), .NUM_MTT(NUM_MTT), .TAG_W(1)) xlate_rx (
    .clk(clk), .rst(crst),
    .ctl_valid(ctl_valid && ctl_dec_ok && ctl_write && sel_mrt && !rd_pending && mrt_tx_ready), .ctl_ready(mrt_rx_ready),
    .ctl_write(1'b1), .ctl_addr(ctl_addr[21:0]), .ctl_wdata(ctl_wdata),
    .ctl_rdata(unused_mrt_rx_rdata), .ctl_rvalid(unused_mrt_rx_rvalid),
    .s_req_valid(rxl_valid || cxl_valid), .s_req_ready(xl_req_ready),
    .s_req_key(xl_pick_rx ? rxl_key : cxl_key), .s_req_pd(xl_pick_rx ? rxl_pd : cxl_pd),
    .s_req_va(xl_pick_rx ? rxl_va : cxl_va), .s_req_len(xl_pick_rx ? rxl_len : cxl_len),
    .s_req_access(xl_pick_rx ? rxl_access : cxl_access), .s_req_tag(!xl_pick_rx),
    .m_seg_valid(rseg_valid), .m_seg_ready(rseg_tag ? rseg_cq_ready : rseg_rx_ready),
    .m_seg_addr(rseg_addr), .m_seg_len(rseg_len),
    .m_seg_first(rseg_first), .m_seg_last(rseg_last), .m_seg_status(rseg_status), .m_seg_tag(rseg_tag),
    .busy(rx_xl_busy)
);

// ---------------------------------------------------------------------------
// DMA engines and the AXI mux (reads: 0 requester, 1 responder, 2 netdev;
// writes: 0 the ordered write queue, 1 netdev)
// ---------------------------------------------------------------------------

wire trd_desc_valid, trd_desc_ready;
wire [63:0] trd_desc_addr;
wire [15:0] trd_desc_len;
wire [2:0] trd_desc_tag;
wire [DATA_WIDTH-1:0] trd_tdata;
wire [W-1:0] trd_tkeep;
wire trd_tvalid, trd_tready, trd_tlast;
wire [2:0] trd_tid;
wire [2:0] unused_trd_st_tag;
wire [3:0] trd_st_err;
wire trd_st_valid;

wire rrd_desc_valid, rrd_desc_ready;
wire [63:0] rrd_desc_addr;
wire [15:0] rrd_desc_len;
wire [DATA_WIDTH-1:0] rrd_tdata;
wire [W-1:0] unused_rrd_tkeep;
wire rrd_tvalid, rrd_tready, unused_rrd_tlast;
wire unused_rrd_tid, unused_rrd_st_tag;
wire [3:0] rrd_st_err;
wire rrd_st_valid;

wire wr_desc_valid, wr_desc_ready;
wire [63:0] wr_desc_addr;
wire [15:0] wr_desc_len;
wire [1:0] wr_desc_tag;         // {EQE second half, not the rx engine's}
wire [DATA_WIDTH-1:0] wr_tdata;
wire wr_tvalid, wr_tready, wr_tlast;
wire [1:0] wr_st_tag;
wire wr_st_valid;
wire [3:0] wr_st_err;

// AXI signals of the seven engines, packed for the mux (reads: 0 requester,
// 1 responder, 2 netdev, 3 firmware; writes: 0 the ordered write queue,
// 1 netdev, 2 firmware)
wire [4*S_ID-1:0] ar_id; wire [4*64-1:0] ar_addr; wire [4*8-1:0] ar_len; wire [4*3-1:0] ar_size;
wire [4*2-1:0] ar_burst; wire [3:0] ar_lock; wire [4*4-1:0] ar_cache; wire [4*3-1:0] ar_prot;
wire [3:0] ar_valid, ar_ready;
wire [4*S_ID-1:0] r_id; wire [4*DATA_WIDTH-1:0] r_data; wire [4*2-1:0] r_resp;
wire [3:0] r_last, r_valid, r_ready;
wire [3*S_ID-1:0] aw_id; wire [3*64-1:0] aw_addr; wire [3*8-1:0] aw_len; wire [3*3-1:0] aw_size;
wire [3*2-1:0] aw_burst; wire [2:0] aw_lock; wire [3*4-1:0] aw_cache; wire [3*3-1:0] aw_prot;
wire [2:0] aw_valid, aw_ready;
wire [3*DATA_WIDTH-1:0] w_data; wire [3*W-1:0] w_strb; wire [2:0] w_last, w_valid, w_ready;
wire [3*S_ID-1:0] b_id; wire [3*2-1:0] b_resp; wire [2:0] b_valid, b_ready;

froce_dma_rd #(.DATA_WIDTH(DATA_WIDTH), .TAG_WIDTH(3), .AXI_ID_WIDTH(S_ID)) dma_rd_tx (
    .clk(clk), .rst(crst),
    .s_rd_desc_addr(trd_desc_addr), .s_rd_desc_len(trd_desc_len), .s_rd_desc_tag(trd_desc_tag),
    .s_rd_desc_valid(trd_desc_valid), .s_rd_desc_ready(trd_desc_ready),
    .m_rd_status_tag(unused_trd_st_tag), .m_rd_status_error(trd_st_err), .m_rd_status_valid(trd_st_valid),
    .m_rd_status_ready(1'b1),
    .m_rd_axis_tdata(trd_tdata), .m_rd_axis_tkeep(trd_tkeep), .m_rd_axis_tvalid(trd_tvalid),
    .m_rd_axis_tready(trd_tready), .m_rd_axis_tlast(trd_tlast), .m_rd_axis_tid(trd_tid),
    .m_axi_arid(ar_id[0 +: S_ID]), .m_axi_araddr(ar_addr[0 +: 64]), .m_axi_arlen(ar_len[0 +: 8]),
    .m_axi_arsize(ar_size[0 +: 3]), .m_axi_arburst(ar_burst[0 +: 2]), .m_axi_arlock(ar_lock[0]),
    .m_axi_arcache(ar_cache[0 +: 4]), .m_axi_arprot(ar_prot[0 +: 3]), .m_axi_arvalid(ar_valid[0]),
    .m_axi_arready(ar_ready[0]),
    .m_axi_rid(r_id[0 +: S_ID]), .m_axi_rdata(r_data[0 +: DATA_WIDTH]), .m_axi_rresp(r_resp[0 +: 2]),
    .m_axi_rlast(r_last[0]), .m_axi_rvalid(r_valid[0]), .m_axi_rready(r_ready[0])
);

froce_dma_rd #(.DATA_WIDTH(DATA_WIDTH), .TAG_WIDTH(1), .AXI_ID_WIDTH(S_ID)) dma_rd_rx (
    .clk(clk), .rst(crst),
    .s_rd_desc_addr(rrd_desc_addr), .s_rd_desc_len(rrd_desc_len), .s_rd_desc_tag(1'b0),
    .s_rd_desc_valid(rrd_desc_valid), .s_rd_desc_ready(rrd_desc_ready),
    .m_rd_status_tag(unused_rrd_st_tag), .m_rd_status_error(rrd_st_err), .m_rd_status_valid(rrd_st_valid),
    .m_rd_status_ready(1'b1),
    .m_rd_axis_tdata(rrd_tdata), .m_rd_axis_tkeep(unused_rrd_tkeep), .m_rd_axis_tvalid(rrd_tvalid),
    .m_rd_axis_tready(rrd_tready), .m_rd_axis_tlast(unused_rrd_tlast), .m_rd_axis_tid(unused_rrd_tid),
    .m_axi_arid(ar_id[S_ID +: S_ID]), .m_axi_araddr(ar_addr[64 +: 64]), .m_axi_arlen(ar_len[8 +: 8]),
    .m_axi_arsize(ar_size[3 +: 3]), .m_axi_arburst(ar_burst[2 +: 2]), .m_axi_arlock(ar_lock[1]),
    .m_axi_arcache(ar_cache[4 +: 4]), .m_axi_arprot(ar_prot[3 +: 3]), .m_axi_arvalid(ar_valid[1]),
    .m_axi_arready(ar_ready[1]),
    .m_axi_rid(r_id[S_ID +: S_ID]), .m_axi_rdata(r_data[DATA_WIDTH +: DATA_WIDTH]), .m_axi_rresp(r_resp[2 +: 2]),
    .m_axi_rlast(r_last[1]), .m_axi_rvalid(r_valid[1]), .m_axi_rready(r_ready[1])
);

froce_dma_wr #(.DATA_WIDTH(DATA_WIDTH), .TAG_WIDTH(2), .AXI_ID_WIDTH(S_ID)) dma_wr (
    .clk(clk), .rst(crst),
    .s_wr_desc_addr(wr_desc_addr), .s_wr_desc_len(wr_desc_len), .s_wr_desc_tag(wr_desc_tag),
    .s_wr_desc_valid(wr_desc_valid), .s_wr_desc_ready(wr_desc_ready),
    .s_wr_axis_tdata(wr_tdata), .s_wr_axis_tkeep({W{1'b1}}), .s_wr_axis_tvalid(wr_tvalid),
    .s_wr_axis_tready(wr_tready), .s_wr_axis_tlast(wr_tlast),
    .m_wr_status_tag(wr_st_tag), .m_wr_status_error(wr_st_err), .m_wr_status_valid(wr_st_valid),
    .m_wr_status_ready(1'b1),
    .m_axi_awid(aw_id[0 +: S_ID]), .m_axi_awaddr(aw_addr[0 +: 64]), .m_axi_awlen(aw_len[0 +: 8]),
    .m_axi_awsize(aw_size[0 +: 3]), .m_axi_awburst(aw_burst[0 +: 2]), .m_axi_awlock(aw_lock[0]),
    .m_axi_awcache(aw_cache[0 +: 4]), .m_axi_awprot(aw_prot[0 +: 3]),
    .m_axi_awvalid(aw_valid[0]), .m_axi_awready(aw_ready[0]),
    .m_axi_wdata(w_data[0 +: DATA_WIDTH]), .m_axi_wstrb(w_strb[0 +: W]), .m_axi_wlast(w_last[0]),
    .m_axi_wvalid(w_valid[0]), .m_axi_wready(w_ready[0]),
    .m_axi_bid(b_id[0 +: S_ID]), .m_axi_bresp(b_resp[0 +: 2]), .m_axi_bvalid(b_valid[0]), .m_axi_bready(b_ready[0])
);

// netdev rings: their own read and write engines (froce_netdev)
wire nrd_desc_valid, nrd_desc_ready;
wire [63:0] nrd_desc_addr;
wire [15:0] nrd_desc_len;
wire [DATA_WIDTH-1:0] nrd_tdata;
wire [W-1:0] nrd_tkeep;
wire nrd_tvalid, nrd_tready, nrd_tlast;
wire unused_nrd_tid, unused_nrd_st_tag;
wire [3:0] nrd_st_err;
wire nrd_st_valid;
wire nwr_desc_valid, nwr_desc_ready;
wire [63:0] nwr_desc_addr;
wire [15:0] nwr_desc_len;
wire [DATA_WIDTH-1:0] nwr_tdata;
wire nwr_tvalid, nwr_tready, nwr_tlast;
wire unused_nwr_st_tag;
wire [3:0] nwr_st_err;
wire nwr_st_valid;

// the netdev's descriptors reach its DMA reader through a register slice:
// they come from BAR0's ring registers and the netdev's state in one cycle
wire nrd_in_valid, nrd_in_ready;
wire [63:0] nrd_in_addr;
wire [15:0] nrd_in_len;
froce_reg_slice #(.WIDTH(80)) nrd_desc_slice (
    .clk(clk), .rst(crst),
    .s_data({nrd_desc_len, nrd_desc_addr}), .s_valid(nrd_desc_valid), .s_ready(nrd_desc_ready),
    .m_data({nrd_in_len, nrd_in_addr}), .m_valid(nrd_in_valid), .m_ready(nrd_in_ready)
);

froce_dma_rd #(.DATA_WIDTH(DATA_WIDTH), .TAG_WIDTH(1), .AXI_ID_WIDTH(S_ID)) dma_rd_nd (
    .clk(clk), .rst(crst),
    .s_rd_desc_addr(nrd_in_addr), .s_rd_desc_len(nrd_in_len), .s_rd_desc_tag(1'b0),
    .s_rd_desc_valid(nrd_in_valid), .s_rd_desc_ready(nrd_in_ready),
    .m_rd_status_tag(unused_nrd_st_tag), .m_rd_status_error(nrd_st_err), .m_rd_status_valid(nrd_st_valid),
    .m_rd_status_ready(1'b1),
    .m_rd_axis_tdata(nrd_tdata), .m_rd_axis_tkeep(nrd_tkeep), .m_rd_axis_tvalid(nrd_tvalid),
    .m_rd_axis_tready(nrd_tready), .m_rd_axis_tlast(nrd_tlast), .m_rd_axis_tid(unused_nrd_tid),
    .m_axi_arid(ar_id[2*S_ID +: S_ID]), .m_axi_araddr(ar_addr[128 +: 64]), .m_axi_arlen(ar_len[16 +: 8]),
    .m_axi_arsize(ar_size[6 +: 3]), .m_axi_arburst(ar_burst[4 +: 2]), .m_axi_arlock(ar_lock[2]),
    .m_axi_arcache(ar_cache[8 +: 4]), .m_axi_arprot(ar_prot[6 +: 3]), .m_axi_arvalid(ar_valid[2]),
    .m_axi_arready(ar_ready[2]),
    .m_axi_rid(r_id[2*S_ID +: S_ID]), .m_axi_rdata(r_data[2*DATA_WIDTH +: DATA_WIDTH]),
    .m_axi_rresp(r_resp[4 +: 2]), .m_axi_rlast(r_last[2]), .m_axi_rvalid(r_valid[2]), .m_axi_rready(r_ready[2])
);

froce_dma_wr #(.DATA_WIDTH(DATA_WIDTH), .TAG_WIDTH(1), .AXI_ID_WIDTH(S_ID)) dma_wr_nd (
    .clk(clk), .rst(crst),
    .s_wr_desc_addr(nwr_desc_addr), .s_wr_desc_len(nwr_desc_len), .s_wr_desc_tag(1'b0),
    .s_wr_desc_valid(nwr_desc_valid), .s_wr_desc_ready(nwr_desc_ready),
    .s_wr_axis_tdata(nwr_tdata), .s_wr_axis_tkeep({W{1'b1}}), .s_wr_axis_tvalid(nwr_tvalid),
    .s_wr_axis_tready(nwr_tready), .s_wr_axis_tlast(nwr_tlast),
    .m_wr_status_tag(unused_nwr_st_tag), .m_wr_status_error(nwr_st_err), .m_wr_status_valid(nwr_st_valid),
    .m_wr_status_ready(1'b1),
    .m_axi_awid(aw_id[S_ID +: S_ID]), .m_axi_awaddr(aw_addr[64 +: 64]), .m_axi_awlen(aw_len[8 +: 8]),
    .m_axi_awsize(aw_size[3 +: 3]), .m_axi_awburst(aw_burst[2 +: 2]), .m_axi_awlock(aw_lock[1]),
    .m_axi_awcache(aw_cache[4 +: 4]), .m_axi_awprot(aw_prot[3 +: 3]),
    .m_axi_awvalid(aw_valid[1]), .m_axi_awready(aw_ready[1]),
    .m_axi_wdata(w_data[DATA_WIDTH +: DATA_WIDTH]), .m_axi_wstrb(w_strb[W +: W]), .m_axi_wlast(w_last[1]),
    .m_axi_wvalid(w_valid[1]), .m_axi_wready(w_ready[1]),
    .m_axi_bid(b_id[S_ID +: S_ID]), .m_axi_bresp(b_resp[2 +: 2]), .m_axi_bvalid(b_valid[1]), .m_axi_bready(b_ready[1])
);

// the interconnect's port, and the quiesce that completes its transactions
// through a device reset
wire [AXI_ID_WIDTH-1:0] q_awid, q_bid, q_arid, q_rid;
wire [63:0] q_awaddr, q_araddr;
wire [7:0] q_awlen, q_arlen;
wire [2:0] q_awsize, q_arsize, q_awprot, q_arprot;
wire [1:0] q_awburst, q_arburst, q_bresp, q_rresp;
wire [3:0] q_awcache, q_arcache;
wire q_awlock, q_arlock, q_awvalid, q_awready, q_wlast, q_wvalid, q_wready, q_bvalid, q_bready;
wire q_arvalid, q_arready, q_rlast, q_rvalid, q_rready;
wire [DATA_WIDTH-1:0] q_wdata, q_rdata;
wire [DATA_WIDTH/8-1:0] q_wstrb;

froce_axi_mux #(.DATA_WIDTH(DATA_WIDTH), .N_RD(4), .N_WR(3), .S_ID_WIDTH(S_ID), .M_ID_WIDTH(AXI_ID_WIDTH)) axi_mux (
    .clk(clk), .rst(crst),
    .s_axi_arid(ar_id), .s_axi_araddr(ar_addr), .s_axi_arlen(ar_len), .s_axi_arsize(ar_size),
    .s_axi_arburst(ar_burst), .s_axi_arlock(ar_lock), .s_axi_arcache(ar_cache), .s_axi_arprot(ar_prot),
    .s_axi_arvalid(ar_valid), .s_axi_arready(ar_ready),
    .s_axi_rid(r_id), .s_axi_rdata(r_data), .s_axi_rresp(r_resp), .s_axi_rlast(r_last),
    .s_axi_rvalid(r_valid), .s_axi_rready(r_ready),
    .s_axi_awid(aw_id), .s_axi_awaddr(aw_addr), .s_axi_awlen(aw_len), .s_axi_awsize(aw_size),
    .s_axi_awburst(aw_burst), .s_axi_awlock(aw_lock), .s_axi_awcache(aw_cache), .s_axi_awprot(aw_prot),
    .s_axi_awvalid(aw_valid), .s_axi_awready(aw_ready),
    .s_axi_wdata(w_data), .s_axi_wstrb(w_strb), .s_axi_wlast(w_last), .s_axi_wvalid(w_valid),
    .s_axi_wready(w_ready),
    .s_axi_bid(b_id), .s_axi_bresp(b_resp), .s_axi_bvalid(b_valid), .s_axi_bready(b_ready),
    .m_axi_arid(q_arid), .m_axi_araddr(q_araddr), .m_axi_arlen(q_arlen), .m_axi_arsize(q_arsize),
    .m_axi_arburst(q_arburst), .m_axi_arlock(q_arlock), .m_axi_arcache(q_arcache),
    .m_axi_arprot(q_arprot), .m_axi_arvalid(q_arvalid), .m_axi_arready(q_arready),
    .m_axi_rid(q_rid), .m_axi_rdata(q_rdata), .m_axi_rresp(q_rresp), .m_axi_rlast(q_rlast),
    .m_axi_rvalid(q_rvalid), .m_axi_rready(q_rready),
    .m_axi_awid(q_awid), .m_axi_awaddr(q_awaddr), .m_axi_awlen(q_awlen), .m_axi_awsize(q_awsize),
    .m_axi_awburst(q_awburst), .m_axi_awlock(q_awlock), .m_axi_awcache(q_awcache),
    .m_axi_awprot(q_awprot), .m_axi_awvalid(q_awvalid), .m_axi_awready(q_awready),
    .m_axi_wdata(q_wdata), .m_axi_wstrb(q_wstrb), .m_axi_wlast(q_wlast), .m_axi_wvalid(q_wvalid),
    .m_axi_wready(q_wready),
    .m_axi_bid(q_bid), .m_axi_bresp(q_bresp), .m_axi_bvalid(q_bvalid), .m_axi_bready(q_bready)
);

froce_axi_quiesce #(.DATA_WIDTH(DATA_WIDTH), .ID_WIDTH(AXI_ID_WIDTH)) axi_quiesce (
    .clk(clk), .rst(rst), .drain(dev_rst), .busy(dma_busy),
    .s_axi_awid(q_awid),
    .s_axi_awaddr(q_awaddr),
    .s_axi_awlen(q_awlen),
    .s_axi_awsize(q_awsize),
    .s_axi_awburst(q_awburst),
    .s_axi_awlock(q_awlock),
    .s_axi_awcache(q_awcache),
    .s_axi_awprot(q_awprot),
    .s_axi_awvalid(q_awvalid),
    .s_axi_awready(q_awready),
    .s_axi_wdata(q_wdata),
    .s_axi_wstrb(q_wstrb),
    .s_axi_wlast(q_wlast),
    .s_axi_wvalid(q_wvalid),
    .s_axi_wready(q_wready),
    .s_axi_bid(q_bid),
    .s_axi_bresp(q_bresp),
    .s_axi_bvalid(q_bvalid),
    .s_axi_bready(q_bready),
    .s_axi_arid(q_arid),
    .s_axi_araddr(q_araddr),
    .s_axi_arlen(q_arlen),
    .s_axi_arsize(q_arsize),
    .s_axi_arburst(q_arburst),
    .s_axi_arlock(q_arlock),
    .s_axi_arcache(q_arcache),
    .s_axi_arprot(q_arprot),
    .s_axi_arvalid(q_arvalid),
    .s_axi_arready(q_arready),
    .s_axi_rid(q_rid),
    .s_axi_rdata(q_rdata),
    .s_axi_rresp(q_rresp),
    .s_axi_rlast(q_rlast),
    .s_axi_rvalid(q_rvalid),
    .s_axi_rready(q_rready),
    .m_axi_awid(m_axi_awid),
    .m_axi_awaddr(m_axi_awaddr),
    .m_axi_awlen(m_axi_awlen),
    .m_axi_awsize(m_axi_awsize),
    .m_axi_awburst(m_axi_awburst),
    .m_axi_awlock(m_axi_awlock),
    .m_axi_awcache(m_axi_awcache),
    .m_axi_awprot(m_axi_awprot),
    .m_axi_awvalid(m_axi_awvalid),
    .m_axi_awready(m_axi_awready),
    .m_axi_wdata(m_axi_wdata),
    .m_axi_wstrb(m_axi_wstrb),
    .m_axi_wlast(m_axi_wlast),
    .m_axi_wvalid(m_axi_wvalid),
    .m_axi_wready(m_axi_wready),
    .m_axi_bid(m_axi_bid),
    .m_axi_bresp(m_axi_bresp),
    .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(m_axi_bready),
    .m_axi_arid(m_axi_arid),
    .m_axi_araddr(m_axi_araddr),
    .m_axi_arlen(m_axi_arlen),
    .m_axi_arsize(m_axi_arsize),
    .m_axi_arburst(m_axi_arburst),
    .m_axi_arlock(m_axi_arlock),
    .m_axi_arcache(m_axi_arcache),
    .m_axi_arprot(m_axi_arprot),
    .m_axi_arvalid(m_axi_arvalid),
    .m_axi_arready(m_axi_arready),
    .m_axi_rid(m_axi_rid),
    .m_axi_rdata(m_axi_rdata),
    .m_axi_rresp(m_axi_rresp),
    .m_axi_rlast(m_axi_rlast),
    .m_axi_rvalid(m_axi_rvalid),
    .m_axi_rready(m_axi_rready)
);

// ---------------------------------------------------------------------------
// Receive path
// ---------------------------------------------------------------------------

wire [`FROCE_RHDR_W-1:0] p_hdr;
wire p_hdr_valid, p_hdr_ready;
wire [DATA_WIDTH-1:0] p_tdata;
wire [W-1:0] p_tkeep;
wire p_tvalid, p_tready, p_tlast;
wire [3:0] p_tuser;
wire p_stat_valid;
wire [3:0] p_stat_verdict;

froce_rx_parser #(.DATA_WIDTH(DATA_WIDTH)) rx_parser (
    .clk(clk), .rst(crst),
    .s_axis_tdata(s_eth_rx_tdata), .s_axis_tkeep(s_eth_rx_tkeep), .s_axis_tvalid(erx_tvalid),
    .s_axis_tready(erx_tready), .s_axis_tlast(s_eth_rx_tlast),
    .m_hdr(p_hdr), .m_hdr_valid(p_hdr_valid), .m_hdr_ready(p_hdr_ready),
    .m_axis_tdata(p_tdata), .m_axis_tkeep(p_tkeep), .m_axis_tvalid(p_tvalid), .m_axis_tready(p_tready),
    .m_axis_tlast(p_tlast), .m_axis_tuser(p_tuser),
    .stat_valid(p_stat_valid), .stat_verdict(p_stat_verdict)
);

wire [`FROCE_RHDR_W-1:0] b_hdr;
wire b_hdr_valid, b_hdr_ready;
wire [DATA_WIDTH-1:0] b_tdata;
wire [W-1:0] b_tkeep;
wire b_tvalid, b_tready, b_tlast;
wire [DATA_WIDTH-1:0] net_tdata;
wire [W-1:0] net_tkeep;
wire net_tvalid, net_tready, net_tlast;
wire pb_stat_valid, pb_stat_roce, pb_stat_net, pb_stat_dropped, pb_stat_filtered, pb_stat_overflow;
// the port's receive filter, as the firmware set it (SET_PORT; froce_fw)
wire [47:0] fw_port_mac;
wire [15:0] fw_port_mtu;
wire fw_port_promisc, fw_port_allmulti, fw_port_cfg_we;

froce_rx_pkt_buffer #(.DATA_WIDTH(DATA_WIDTH)) rx_buffer (
    .clk(clk), .rst(crst),
    .s_hdr(p_hdr), .s_hdr_valid(p_hdr_valid), .s_hdr_ready(p_hdr_ready),
    .s_axis_tdata(p_tdata), .s_axis_tkeep(p_tkeep), .s_axis_tvalid(p_tvalid), .s_axis_tready(p_tready),
    .s_axis_tlast(p_tlast), .s_axis_tuser(p_tuser),
    .port_mac(fw_port_mac), .port_mtu(fw_port_mtu), .port_promisc(fw_port_promisc),
    .port_allmulti(fw_port_allmulti),
    .m_roce_hdr(b_hdr), .m_roce_hdr_valid(b_hdr_valid), .m_roce_hdr_ready(b_hdr_ready),
    .m_roce_tdata(b_tdata), .m_roce_tkeep(b_tkeep), .m_roce_tvalid(b_tvalid), .m_roce_tready(b_tready),
    .m_roce_tlast(b_tlast),
    // frames that are not RoCE: to the netdev RX ring (froce_netdev)
    .m_net_tdata(net_tdata), .m_net_tkeep(net_tkeep), .m_net_tvalid(net_tvalid),
    .m_net_tready(net_tready), .m_net_tlast(net_tlast),
    .stat_valid(pb_stat_valid), .stat_roce(pb_stat_roce), .stat_net(pb_stat_net),
    .stat_dropped(pb_stat_dropped), .stat_filtered(pb_stat_filtered), .stat_overflow(pb_stat_overflow)
);

// ---------------------------------------------------------------------------
// Engines
// ---------------------------------------------------------------------------

// in-flight table: written by the requester, read by the completer (the
// first PSN, which both read, in a table of its own: the rest has one read
// port only). Block RAM: the data of the address an engine presented in one
// cycle comes the next; *_if_fresh says it is the current address's, not
// overtaken by a write at that address (the engines wait for it where they
// use the entry). A collision's read data is never used, so none is
// specified (no_rw_check).
(* ram_style = "block", no_rw_check *)
reg [23:0] inflight_first [0:NUM_QPS*OUTSTANDING-1];
(* ram_style = "block", no_rw_check *)
reg [IF_BITS-25:0] inflight_rest [0:NUM_QPS*OUTSTANDING-1];
wire if_we;
wire [QW+OW-1:0] if_waddr, if_raddr, tx_if_raddr;
wire [IF_BITS-1:0] if_wdata;
reg [23:0] tx_if_first_psn;
reg [IF_BITS-1:0] rx_if_rdata;
reg [QW+OW-1:0] tx_if_raddr_q, rx_if_raddr_q;
reg tx_if_clash, rx_if_clash;
always @(posedge clk) begin
    if (if_we) begin
        inflight_first[if_waddr] <= if_wdata[23:0];
        inflight_rest[if_waddr] <= if_wdata[IF_BITS-1:24];
    end
    tx_if_first_psn <= inflight_first[tx_if_raddr];
    rx_if_rdata <= {inflight_rest[if_raddr], inflight_first[if_raddr]};
    tx_if_raddr_q <= tx_if_raddr;
    rx_if_raddr_q <= if_raddr;
    tx_if_clash <= if_we && if_waddr == tx_if_raddr;
    rx_if_clash <= if_we && if_waddr == if_raddr;
end
// (and not while a write to the address is on its way: the tx engine moves
// its SQ index, which says the entry exists, in the cycle before the RAM
// write lands; the rx engine must not take the old entry for the new one)
wire tx_if_fresh = tx_if_raddr == tx_if_raddr_q && !tx_if_clash && !(if_we && if_waddr == tx_if_raddr);
wire rx_if_fresh = if_raddr == rx_if_raddr_q && !rx_if_clash && !(if_we && if_waddr == if_raddr);

wire rw_valid, rw_ready;
wire [QW-1:0] rw_qpn;
wire [23:0] rw_psn;
wire inc_retrans, inc_timeouts, inc_adp_retrans, inc_rnr_rcvd, inc_retry_exc;
wire kick_valid, kick_ready;
wire [QW-1:0] kick_qpn;
// Responses (ACK/NAK/atomic ACK headers and READ response jobs) from the rx
// engine (rq_*) queue for the tx engine (resp_*). The tx engine takes them
// between its own packets; READ jobs of different QPs take turns (its job
// FIFO), but a QP's responses wait for its own running job; without the
// queue the rx engine would stop at the next response it has to hand over,
// and the packets behind it in the RX buffer (READ responses for our own
// READs, say) would overflow it.
// Distributed RAM. An entry is what is the response's own (FROCE_RESP_*, a
// READ job's range and key): the tx engine addresses it from its QP.
localparam RESPQ_W = `FROCE_RESP_W + 1 + 64 + 32 + 32 + QW + 8;
wire resp_valid, resp_ready;
wire [`FROCE_RESP_W-1:0] resp_hdr;   // FROCE_RESP_*
wire resp_read;
wire [63:0] resp_va;
wire [31:0] resp_rkey, resp_len;
wire rq_valid, rq_ready;
wire [`FROCE_RESP_W-1:0] rq_hdr;
wire rq_read;
wire [63:0] rq_va;
wire [31:0] rq_rkey, rq_len;
wire [QW-1:0] rq_qpn, resp_qpn;
wire [7:0] rq_epoch, resp_epoch;
wire reread_valid;
wire [QW-1:0] reread_qpn;
wire [23:0] reread_psn;
wire [QW-1:0] sent_rd_qpn;
wire sent_rd_valid;
wire [7:0] sent_rd_epoch;
wire [23:0] sent_rd_next;
wire resp_q_empty, resp_q_full;
wire [4:0] unused_resp_q_count;

// REG_OUT: the head the tx engine decides on (stale? its QP? READ or ACK?)
// comes from a register, not from the LUT RAM's read multiplexer
froce_fifo #(.WIDTH(RESPQ_W), .DEPTH(16), .REG_OUT(1)) resp_queue (
    .clk(clk), .rst(crst),
    .wr_data({rq_hdr, rq_read, rq_va, rq_rkey, rq_len, rq_qpn, rq_epoch}),
    .wr_en(rq_valid && rq_ready),
    .rd_data({resp_hdr, resp_read, resp_va, resp_rkey, resp_len, resp_qpn, resp_epoch}),
    .rd_en(resp_valid && resp_ready),
    .count(unused_resp_q_count), .empty(resp_q_empty), .full(resp_q_full)
);
assign rq_ready = !resp_q_full;
assign resp_valid = !resp_q_empty;
wire [15:0] x_rd_retired;
wire sw_valid, sw_ready;
wire [63:0] sw_addr, sw_data;
wire [3:0] sw_len;
wire [QW-1:0] x_qpn, r_qpn;
wire [15:0] x_ack_wqe, r_sq_next;
wire [23:0] r_sent_psn;
wire x_hold;
wire r_tx_err;
wire [15:0] r_rd_issued;
wire x_err;
wire [`FROCE_RHDR_W-1:0] t_hdr;
wire t_hdr_valid, t_hdr_ready;
wire [DATA_WIDTH-1:0] t_tdata;
wire [W-1:0] t_tkeep;
wire t_tvalid, t_tready, t_tlast;
wire tcqe_valid, tcqe_ready;
wire [23:0] tcqe_cqn;
wire [CQE_BITS-1:0] tcqe;
wire inc_req_pkts, inc_resp_pkts, inc_wqes, inc_wqe_err;

froce_tx_engine #(.DATA_WIDTH(DATA_WIDTH), .NUM_QPS(NUM_QPS), .NUM_GIDS(NUM_GIDS), .OUTSTANDING(OUTSTANDING),
                  .RD_ATOMIC_MAX(RD_ATOMIC_MAX)) tx_engine (
    .clk(clk), .rst(crst),
    .qpc_ready(tx_qpc_ready), .qpc_we(qpc_commit), .qpc_waddr(qpc_idx), .qpc_wdata(qpc_store),
    .qpc_load_reset(load_reset), .qpc_load_sq_psn(load_sq_psn),
    .gid_we(gid_commit), .gid_waddr(gid_idx), .gid_wdata(commit_data[GID_BITS-1:0]),
    .s_db_valid(sq_db_valid), .s_db_ready(sq_db_ready), .s_db_qpn(sq_db_qpn), .s_db_pi(sq_db_pi),
    .s_kick_valid(kick_valid), .s_kick_ready(kick_ready), .s_kick_qpn(kick_qpn),
    .s_rw_valid(rw_valid), .s_rw_ready(rw_ready), .s_rw_qpn(rw_qpn), .s_rw_psn(rw_psn),
    .s_resp_valid(resp_valid), .s_resp_ready(resp_ready), .s_resp_hdr(resp_hdr),
    .s_resp_read(resp_read), .s_resp_va(resp_va), .s_resp_rkey(resp_rkey), .s_resp_len(resp_len),
    .s_resp_qpn(resp_qpn), .s_resp_epoch(resp_epoch),
    .s_reread_valid(reread_valid), .s_reread_qpn(reread_qpn), .s_reread_psn(reread_psn),
    .sent_rd_qpn(sent_rd_qpn), .sent_rd_valid(sent_rd_valid), .sent_rd_epoch(sent_rd_epoch),
    .sent_rd_next(sent_rd_next),
    .x_qpn(x_qpn), .x_ack_wqe(x_ack_wqe), .x_err(x_err), .x_rd_retired(x_rd_retired),
    .r_qpn(r_qpn), .r_sq_next(r_sq_next), .r_sent_psn(r_sent_psn), .r_tx_err(r_tx_err), .r_rd_issued(r_rd_issued), .x_hold(x_hold),
    .if_raddr(tx_if_raddr), .if_first_psn(tx_if_first_psn), .if_fresh(tx_if_fresh),
    .if_we(if_we), .if_waddr(if_waddr), .if_wdata(if_wdata),
    .m_xl_valid(txl_valid), .m_xl_ready(txl_ready), .m_xl_key(txl_key), .m_xl_pd(txl_pd),
    .m_xl_va(txl_va), .m_xl_len(txl_len), .m_xl_access(txl_access),
    .s_seg_valid(tseg_valid), .s_seg_ready(tseg_ready), .s_seg_addr(tseg_addr), .s_seg_len(tseg_len),
    .s_seg_last(tseg_last), .s_seg_status(tseg_status),
    .m_rd_desc_valid(trd_desc_valid), .m_rd_desc_ready(trd_desc_ready), .m_rd_desc_addr(trd_desc_addr),
    .m_rd_desc_len(trd_desc_len), .m_rd_desc_tag(trd_desc_tag),
    .s_rd_tdata(trd_tdata), .s_rd_tkeep(trd_tkeep), .s_rd_tvalid(trd_tvalid), .s_rd_tready(trd_tready),
    .s_rd_tlast(trd_tlast), .s_rd_tid(trd_tid),
    .m_hdr_valid(t_hdr_valid), .m_hdr_ready(t_hdr_ready), .m_hdr(t_hdr),
    .m_pay_tdata(t_tdata), .m_pay_tkeep(t_tkeep), .m_pay_tvalid(t_tvalid), .m_pay_tready(t_tready),
    .m_pay_tlast(t_tlast),
    .m_cqe_valid(tcqe_valid), .m_cqe_ready(tcqe_ready), .m_cqe_cqn(tcqe_cqn), .m_cqe(tcqe),
    .inc_req_pkts(inc_req_pkts), .inc_resp_pkts(inc_resp_pkts), .inc_wqes(inc_wqes), .inc_wqe_err(inc_wqe_err)
);

wire tx_len_err;
wire tx_tuser;
// RoCE frames: to the Ethernet TX frame mux in froce_netdev
wire [DATA_WIDTH-1:0] rb_tdata;
wire [W-1:0] rb_tkeep;
wire rb_tvalid, rb_tready, rb_tlast;
wire [DATA_WIDTH-1:0] bo_tdata;
wire [W-1:0] bo_tkeep;
wire bo_tvalid, bo_tready, bo_tlast;
froce_tx_builder #(.DATA_WIDTH(DATA_WIDTH)) tx_builder (
    .clk(clk), .rst(crst),
    .s_hdr(t_hdr), .s_hdr_valid(t_hdr_valid), .s_hdr_ready(t_hdr_ready),
    .s_axis_tdata(t_tdata), .s_axis_tkeep(t_tkeep), .s_axis_tvalid(t_tvalid), .s_axis_tready(t_tready),
    .s_axis_tlast(t_tlast),
    .m_axis_tdata(bo_tdata), .m_axis_tkeep(bo_tkeep), .m_axis_tvalid(bo_tvalid),
    .m_axis_tready(bo_tready), .m_axis_tlast(bo_tlast), .m_axis_tuser(tx_tuser),
    .stat_len_err(tx_len_err)
);

// the builder's frames reach the netdev's frame mux through a register slice:
// the Ethernet side's ready (MAC, board FIFOs) ends here instead of running
// on into the builder's pipeline and the tx engine behind it
froce_reg_slice #(.WIDTH(DATA_WIDTH + W + 1)) tx_frame_slice (
    .clk(clk), .rst(crst),
    .s_data({bo_tdata, bo_tkeep, bo_tlast}), .s_valid(bo_tvalid), .s_ready(bo_tready),
    .m_data({rb_tdata, rb_tkeep, rb_tlast}), .m_valid(rb_tvalid), .m_ready(rb_tready)
);

wire pay_to_split, split_in_ready, pay_grh;
wire [319:0] grh_data;
wire scat_valid, scat_ready, scat_last, scat_discard;
wire [63:0] scat_addr;
wire [15:0] scat_len;
wire wr_done_rx;
wire rcqe_valid, rcqe_ready;
wire [23:0] rcqe_cqn;
wire [CQE_BITS-1:0] rcqe;
wire inc_rx_pkts, inc_dup, inc_oos, inc_nak_sent, inc_rnr_sent, inc_access_err, inc_rx_dropped;
wire inc_seq_nak_rcvd, inc_acc_nak_rcvd, inc_inv_nak_rcvd, inc_rnr_retry_exc, inc_out_of_buffer, inc_len_err, inc_qkey_err;

// affiliated asynchronous events (responder side to error) for the firmware
wire rx_qpev_valid;
wire [23:0] rx_qpev_qpn;
wire [7:0] rx_qpev_subtype;

froce_rx_engine #(.DATA_WIDTH(DATA_WIDTH), .NUM_QPS(NUM_QPS), .OUTSTANDING(OUTSTANDING),
                  .RD_ATOMIC_MAX(RD_ATOMIC_MAX)) rx_engine (
    .clk(clk), .rst(crst),
    .qpc_ready(rx_qpc_ready), .qpc_we(qpc_commit), .qpc_waddr(qpc_idx), .qpc_wdata(qpc_store),
    .qpc_load_reset(load_reset), .qpc_load_rq_psn(load_rq_psn), .qpc_load_sq_psn(load_sq_psn),
    .s_db_valid(rq_db_valid), .s_db_ready(rq_db_ready), .s_db_qpn(rq_db_qpn), .s_db_pi(rq_db_pi),
    .s_hdr(b_hdr), .s_hdr_valid(b_hdr_valid), .s_hdr_ready(b_hdr_ready),
    .s_pay_tvalid(b_tvalid), .s_pay_tready(b_tready), .s_pay_tlast(b_tlast),
    .pay_to_split(pay_to_split), .split_tready(split_in_ready), .pay_grh(pay_grh), .grh_data(grh_data),
    .m_resp_valid(rq_valid), .m_resp_ready(rq_ready), .m_resp_hdr(rq_hdr),
    .m_resp_read(rq_read), .m_resp_va(rq_va), .m_resp_rkey(rq_rkey), .m_resp_len(rq_len),
    .m_resp_qpn(rq_qpn), .m_resp_epoch(rq_epoch),
    .m_reread_valid(reread_valid), .m_reread_qpn(reread_qpn), .m_reread_psn(reread_psn),
    .sent_rd_qpn(sent_rd_qpn), .sent_rd_valid(sent_rd_valid), .sent_rd_epoch(sent_rd_epoch),
    .sent_rd_next(sent_rd_next),
    .m_kick_valid(kick_valid), .m_kick_ready(kick_ready), .m_kick_qpn(kick_qpn),
    .m_rw_valid(rw_valid), .m_rw_ready(rw_ready), .m_rw_qpn(rw_qpn), .m_rw_psn(rw_psn),
    .r_qpn(r_qpn), .r_sq_next(r_sq_next), .r_sent_psn(r_sent_psn), .r_tx_err(r_tx_err), .r_rd_issued(r_rd_issued), .x_qpn(x_qpn), .x_ack_wqe(x_ack_wqe),
    .x_err(x_err), .x_rd_retired(x_rd_retired), .x_hold(x_hold),
    .if_raddr(if_raddr), .if_rdata(rx_if_rdata), .if_fresh(rx_if_fresh),
    .m_xl_valid(rxl_valid), .m_xl_ready(rxl_ready), .m_xl_key(rxl_key), .m_xl_pd(rxl_pd),
    .m_xl_va(rxl_va), .m_xl_len(rxl_len), .m_xl_access(rxl_access),
    .s_seg_valid(rseg_valid && !rseg_tag), .s_seg_ready(rseg_rx_ready), .s_seg_addr(rseg_addr),
    .s_seg_len(rseg_len), .s_seg_last(rseg_last), .s_seg_status(rseg_status),
    .m_rd_desc_valid(rrd_desc_valid), .m_rd_desc_ready(rrd_desc_ready), .m_rd_desc_addr(rrd_desc_addr),
    .m_rd_desc_len(rrd_desc_len),
    .s_rd_tdata(rrd_tdata), .s_rd_tvalid(rrd_tvalid), .s_rd_tready(rrd_tready),
    .m_scat_valid(scat_valid), .m_scat_ready(scat_ready), .m_scat_addr(scat_addr), .m_scat_len(scat_len),
    .m_scat_last(scat_last), .m_scat_discard(scat_discard), .wr_done(wr_done_rx),
    .m_sw_valid(sw_valid), .m_sw_ready(sw_ready), .m_sw_addr(sw_addr), .m_sw_data(sw_data), .m_sw_len(sw_len),
    .m_cqe_valid(rcqe_valid), .m_cqe_ready(rcqe_ready), .m_cqe_cqn(rcqe_cqn), .m_cqe(rcqe),
    .m_qpev_valid(rx_qpev_valid), .m_qpev_qpn(rx_qpev_qpn), .m_qpev_subtype(rx_qpev_subtype),
    .inc_rx_pkts(inc_rx_pkts), .inc_dup(inc_dup), .inc_oos(inc_oos), .inc_nak_sent(inc_nak_sent),
    .inc_rnr_sent(inc_rnr_sent), .inc_seq_nak_rcvd(inc_seq_nak_rcvd), .inc_acc_nak_rcvd(inc_acc_nak_rcvd),
    .inc_inv_nak_rcvd(inc_inv_nak_rcvd), .inc_access_err(inc_access_err),
    .inc_dropped(inc_rx_dropped), .inc_retrans(inc_retrans), .inc_timeouts(inc_timeouts),
    .inc_adp_retrans(inc_adp_retrans), .inc_rnr_rcvd(inc_rnr_rcvd), .inc_retry_exc(inc_retry_exc),
    .inc_rnr_retry_exc(inc_rnr_retry_exc), .inc_out_of_buffer(inc_out_of_buffer), .inc_len_err(inc_len_err),
    .inc_qkey_err(inc_qkey_err)
);

// ---------------------------------------------------------------------------
// Scatter: splitter commands and the ordered write-descriptor queue
// ---------------------------------------------------------------------------

wire [DATA_WIDTH-1:0] sp_tdata, spl_tdata;
wire [W-1:0] unused_sp_tkeep;
wire sp_tvalid, sp_tready, sp_tlast, spl_tvalid, spl_tready, spl_tlast;
wire split_cmd_ready, split_err;

// a UD datagram's payload gets the 40-byte GRH area in front of it
wire [DATA_WIDTH-1:0] g_tdata;
wire [W-1:0] g_tkeep;
wire g_tvalid, g_tready, g_tlast;

// REG_IN: the packet buffer's block-RAM output reaches the packer's byte shifts only through a register
froce_axis_prepend #(.DATA_WIDTH(DATA_WIDTH), .PRE_BYTES(40), .REG_IN(1)) grh_prepend (
    .clk(clk), .rst(crst),
    .active(pay_to_split), .pre_en(pay_grh), .pre_data(grh_data),
    .s_axis_tdata(b_tdata), .s_axis_tkeep(b_tkeep), .s_axis_tvalid(b_tvalid && pay_to_split),
    .s_axis_tready(split_in_ready), .s_axis_tlast(b_tlast),
    .m_axis_tdata(g_tdata), .m_axis_tkeep(g_tkeep), .m_axis_tvalid(g_tvalid),
    .m_axis_tready(g_tready), .m_axis_tlast(g_tlast)
);

// ... and reaches the splitter through a register slice: the splitter's
// input ready (its realigner's take decision) would otherwise run into the
// prepend's packer registers
wire [DATA_WIDTH-1:0] gs_tdata;
wire [W-1:0] gs_tkeep;
wire gs_tvalid, gs_tready, gs_tlast;
froce_reg_slice #(.WIDTH(DATA_WIDTH + W + 1)) grh_slice (
    .clk(clk), .rst(crst),
    .s_data({g_tlast, g_tkeep, g_tdata}), .s_valid(g_tvalid), .s_ready(g_tready),
    .m_data({gs_tlast, gs_tkeep, gs_tdata}), .m_valid(gs_tvalid), .m_ready(gs_tready)
);

froce_axis_split #(.DATA_WIDTH(DATA_WIDTH), .CMD_DEPTH(16)) splitter (
    .clk(clk), .rst(crst),
    .s_axis_tdata(gs_tdata), .s_axis_tkeep(gs_tkeep), .s_axis_tvalid(gs_tvalid),
    .s_axis_tready(gs_tready), .s_axis_tlast(gs_tlast),
    .s_cmd_len({16'd0, scat_len}), .s_cmd_last(scat_last), .s_cmd_valid(scat_valid && scat_ready),
    .s_cmd_ready(split_cmd_ready),
    .m_axis_tdata(spl_tdata), .m_axis_tkeep(unused_sp_tkeep), .m_axis_tvalid(spl_tvalid),
    .m_axis_tready(spl_tready), .m_axis_tlast(spl_tlast), .err_mismatch(split_err)
);
// the pieces reach the write queue through a register slice: the DMA write
// channel's ready would otherwise run through the queue, the splitter and
// the GRH prepend's packer in one cycle
froce_reg_slice #(.WIDTH(DATA_WIDTH + 1)) split_slice (
    .clk(clk), .rst(crst),
    .s_data({spl_tlast, spl_tdata}), .s_valid(spl_tvalid), .s_ready(spl_tready),
    .m_data({sp_tlast, sp_tdata}), .m_valid(sp_tvalid), .m_ready(sp_tready)
);

// one queue of write descriptors in the order they were made (scatter
// pieces and atomic values, then the CQEs that report them, then the EQEs
// that report the CQEs): {eqe last half, small, cq, discard, len, addr, data
// of a small write}. An EQE is two small writes with cq set (status tag 1:
// not the rx engine's), the second with "eqe last half" (reported to the
// event engine when it completed).
localparam WQ_W = 1 + 1 + 1 + 1 + 16 + 64 + 64;
wire cq_desc_valid;
wire [63:0] cq_desc_addr;
wire [15:0] cq_desc_len;
wire wq_full, wq_empty;
wire [WQ_W-1:0] wq_head;
wire [4:0] unused_wq_count;
wire wq_push_rx = scat_valid && scat_ready;
wire wq_push_sw = sw_valid && !wq_push_rx && !wq_full;
wire wq_push_cq = cq_desc_valid && !wq_push_rx && !sw_valid && !wq_full;
wire cq_desc_ready = wq_push_cq;
wire ev_wr_valid, ev_wr_last;
wire [63:0] ev_wr_addr, ev_wr_data;
wire wq_push_ev = ev_wr_valid && !wq_push_rx && !sw_valid && !cq_desc_valid && !wq_full;
assign scat_ready = !wq_full && split_cmd_ready;
assign sw_ready = wq_push_sw;
wire wq_pop;

froce_fifo #(.WIDTH(WQ_W), .DEPTH(16)) write_queue (
    .clk(clk), .rst(crst),
    .wr_data(wq_push_rx ? {3'b000, scat_discard, scat_len, scat_addr, 64'd0} :
             wq_push_sw ? {4'b0100, 12'd0, sw_len, sw_addr, sw_data} :
             wq_push_cq ? {4'b0010, cq_desc_len, cq_desc_addr, 64'd0} :
                          {ev_wr_last, 3'b110, 16'd8, ev_wr_addr, ev_wr_data}),
    .wr_en(wq_push_rx || wq_push_sw || wq_push_cq || wq_push_ev),
    .rd_data(wq_head), .rd_en(wq_pop),
    .count(unused_wq_count), .empty(wq_empty), .full(wq_full)
);

wire wq_ev_last = wq_head[WQ_W-1];
wire wq_sw = wq_head[WQ_W-2];
wire wq_cq = wq_head[WQ_W-3];
wire wq_discard = wq_head[WQ_W-4];
reg wq_desc_sent;               // the head's DMA descriptor is issued; its data streams
wire [DATA_WIDTH-1:0] cq_tdata;
wire [W-1:0] unused_cq_tkeep;
wire cq_tvalid, cq_tlast;
// a small write is one beat from the queue entry itself
wire head_tvalid = wq_sw ? 1'b1 : wq_cq ? cq_tvalid : sp_tvalid;
wire head_tlast = wq_sw ? 1'b1 : wq_cq ? cq_tlast : sp_tlast;
wire data_phase = !wq_empty && (wq_discard || wq_desc_sent);
wire head_beat = data_phase && head_tvalid && (wq_discard || wr_tready);

assign wr_desc_valid = !wq_empty && !wq_discard && !wq_desc_sent;
assign wr_desc_addr = wq_head[127:64];
assign wr_desc_len = wq_head[143:128];
assign wr_desc_tag = {wq_ev_last, wq_cq};
reg [DATA_WIDTH-1:0] sw_beat;
always @* begin
    sw_beat = {DATA_WIDTH{1'b0}};
    sw_beat[63:0] = wq_head[63:0];
end
assign wr_tdata = wq_sw ? sw_beat : wq_cq ? cq_tdata : sp_tdata;
assign wr_tvalid = data_phase && !wq_discard && head_tvalid;
assign wr_tlast = head_tlast;
assign sp_tready = data_phase && !wq_cq && !wq_sw && (wq_discard || wr_tready);
wire cq_tready = data_phase && wq_cq && !wq_sw && wr_tready;
assign wq_pop = head_beat && head_tlast;
assign wr_done_rx = wr_st_valid && wr_st_tag == 2'b00;
wire ev_wr_done = wr_st_valid && wr_st_tag[1];

always @(posedge clk) begin
    if (wr_desc_valid && wr_desc_ready)
        wq_desc_sent <= 1'b1;
    if (wq_pop)
        wq_desc_sent <= 1'b0;
    if (crst)
        wq_desc_sent <= 1'b0;
end

wire inc_cqes, inc_cq_err, inc_cq_arms;
wire ev_valid, ev_ready;
wire [23:0] ev_cqn;
wire [7:0] ev_eqn;
froce_cq_engine #(.DATA_WIDTH(DATA_WIDTH), .NUM_CQS(NUM_CQS)) cq_engine (
    .clk(clk), .rst(crst),
    .cqc_we(cqc_commit), .cqc_waddr(cqc_idx), .cqc_wdata(commit_data[CQC_BITS-1:0]),
    .s0_valid(rcqe_valid), .s0_ready(rcqe_ready), .s0_cqn(rcqe_cqn), .s0_cqe(rcqe),
    .s1_valid(tcqe_valid), .s1_ready(tcqe_ready), .s1_cqn(tcqe_cqn), .s1_cqe(tcqe),
    .s_arm_valid(cq_arm_valid), .s_arm_ready(cq_arm_ready), .s_arm_cqn(cq_arm_cqn), .s_arm_ci(cq_arm_ci),
    .s_arm_solicited(cq_arm_solicited),
    .m_ev_valid(ev_valid), .m_ev_ready(ev_ready), .m_ev_cqn(ev_cqn), .m_ev_eqn(ev_eqn),
    .m_xl_valid(cxl_valid), .m_xl_ready(cxl_ready), .m_xl_key(cxl_key), .m_xl_pd(cxl_pd),
    .m_xl_va(cxl_va), .m_xl_len(cxl_len), .m_xl_access(cxl_access),
    .s_seg_valid(rseg_valid && rseg_tag), .s_seg_ready(rseg_cq_ready), .s_seg_addr(rseg_addr),
    .s_seg_last(rseg_last), .s_seg_status(rseg_status),
    .m_wr_desc_valid(cq_desc_valid), .m_wr_desc_ready(cq_desc_ready), .m_wr_desc_addr(cq_desc_addr),
    .m_wr_desc_len(cq_desc_len),
    .m_wr_tdata(cq_tdata), .m_wr_tkeep(unused_cq_tkeep), .m_wr_tvalid(cq_tvalid), .m_wr_tready(cq_tready),
    .m_wr_tlast(cq_tlast),
    .inc_cqes(inc_cqes), .inc_cq_err(inc_cq_err), .inc_arms(inc_cq_arms)
);

// ---------------------------------------------------------------------------
// Firmware subsystem: the soft core, its RAM and peripherals (froce_fw). It
// answers the BAR0 mailbox, is the only master of the control bus, posts
// EQEs through the event engine and reaches host memory on AXI ports 3 (read)
// and 2 (write) of the mux.
// ---------------------------------------------------------------------------

wire mbox_db_valid;
wire [31:0] mbox_db_value;
wire [63:0] mbox_addr;
wire [31:0] fw_cmd_status, fw_version, fw_heartbeat;
wire fw_dev_ready;
wire fw_eqe_valid, fw_eqe_ready, fw_eqe_done, fw_eqe_dropped;
wire [5:0] fw_eqe_eqn;
wire [95:0] fw_eqe_dw;
// station MAC, MTU and filter modes the firmware sets (SET_PORT): not
// consumed yet, the parser accepts every destination MAC
// engine events for the firmware: the rx engine's responder-side QP errors
// (the firmware moves the QP to ERR and posts the affiliated event on EQ 0).
// The FIFO holds 16 and the firmware drains up to 16 per loop; an event
// that finds it full is lost and counted (ICNT_ASYNC_LOST).
wire async_ready;
wire inc_async_lost = rx_qpev_valid && !async_ready;
reg [31:0] fw_link_status;      // the BAR0 LINK_STATUS word
always @* begin
    fw_link_status = 32'd0;
    fw_link_status[`FROCE_REG_LINK_STATUS_UP_SHIFT] = link_up;
    fw_link_status[`FROCE_REG_LINK_STATUS_SPEED_GBPS_SHIFT +: `FROCE_REG_LINK_STATUS_SPEED_GBPS_W] =
        link_up ? LINK_SPEED_GBPS : 8'd0;
end

froce_fw #(.RAM_ADDR_WIDTH(FW_RAM_ADDR_WIDTH), .INIT_FILE(FW_INIT_FILE), .CLK_HZ(CLK_HZ),
           .NUM_QPS(NUM_QPS), .NUM_CQS(NUM_CQS), .NUM_GIDS(NUM_GIDS), .NUM_UARS(NUM_UARS),
           .NUM_EQS(NUM_EQS), .NUM_VECTORS(NUM_VECTORS), .RD_ATOMIC_MAX(RD_ATOMIC_MAX), .MAC(MAC),
           .DATA_WIDTH(DATA_WIDTH)) fw (
    .clk(clk), .rst(crst),
    .m_ctl_valid(ctl_valid), .m_ctl_ready(ctl_ready), .m_ctl_write(ctl_write), .m_ctl_addr(ctl_addr),
    .m_ctl_wdata(ctl_wdata), .m_ctl_rdata(ctl_rdata), .m_ctl_rvalid(ctl_rvalid),
    .mbox_db_valid(mbox_db_valid), .mbox_db_value(mbox_db_value), .mbox_addr(mbox_addr),
    .cmd_status(fw_cmd_status), .fw_version(fw_version), .dev_ready(fw_dev_ready), .heartbeat(fw_heartbeat),
    .link_status(fw_link_status),
    .port_mac(fw_port_mac), .port_mtu(fw_port_mtu), .port_promisc(fw_port_promisc),
    .port_allmulti(fw_port_allmulti), .port_cfg_we(fw_port_cfg_we),
    .m_eqe_valid(fw_eqe_valid), .m_eqe_ready(fw_eqe_ready), .m_eqe_eqn(fw_eqe_eqn), .m_eqe_dw(fw_eqe_dw),
    .s_eqe_done(fw_eqe_done), .s_eqe_dropped(fw_eqe_dropped),
    .s_async_valid(rx_qpev_valid), .s_async_ready(async_ready), .s_async_type(`FROCE_EQE_TYPE_QP_EVENT),
    .s_async_subtype(rx_qpev_subtype), .s_async_id(rx_qpev_qpn),
    .console_valid(fw_console_valid), .console_data(fw_console_data),
    .m_axi_arid(ar_id[3*S_ID +: S_ID]), .m_axi_araddr(ar_addr[192 +: 64]), .m_axi_arlen(ar_len[24 +: 8]),
    .m_axi_arsize(ar_size[9 +: 3]), .m_axi_arburst(ar_burst[6 +: 2]), .m_axi_arlock(ar_lock[3]),
    .m_axi_arcache(ar_cache[12 +: 4]), .m_axi_arprot(ar_prot[9 +: 3]), .m_axi_arvalid(ar_valid[3]),
    .m_axi_arready(ar_ready[3]),
    .m_axi_rid(r_id[3*S_ID +: S_ID]), .m_axi_rdata(r_data[3*DATA_WIDTH +: DATA_WIDTH]),
    .m_axi_rresp(r_resp[6 +: 2]), .m_axi_rlast(r_last[3]), .m_axi_rvalid(r_valid[3]), .m_axi_rready(r_ready[3]),
    .m_axi_awid(aw_id[2*S_ID +: S_ID]), .m_axi_awaddr(aw_addr[128 +: 64]), .m_axi_awlen(aw_len[16 +: 8]),
    .m_axi_awsize(aw_size[6 +: 3]), .m_axi_awburst(aw_burst[4 +: 2]), .m_axi_awlock(aw_lock[2]),
    .m_axi_awcache(aw_cache[8 +: 4]), .m_axi_awprot(aw_prot[6 +: 3]),
    .m_axi_awvalid(aw_valid[2]), .m_axi_awready(aw_ready[2]),
    .m_axi_wdata(w_data[2*DATA_WIDTH +: DATA_WIDTH]), .m_axi_wstrb(w_strb[2*W +: W]), .m_axi_wlast(w_last[2]),
    .m_axi_wvalid(w_valid[2]), .m_axi_wready(w_ready[2]),
    .m_axi_bid(b_id[2*S_ID +: S_ID]), .m_axi_bresp(b_resp[4 +: 2]), .m_axi_bvalid(b_valid[2]), .m_axi_bready(b_ready[2])
);

// ---------------------------------------------------------------------------
// Event queues, MSI-X and the BAR0 registers
// ---------------------------------------------------------------------------

wire [63:0] eq0_addr;
wire [4:0] eq0_log_size, eq0_vector;
wire eq0_enable, eq0_cfg_we;
wire eqdb_valid, eqdb_ready, eqdb_arm;
wire [5:0] eqdb_eqn;
wire [23:0] eqdb_ci;
wire [NUM_VECTORS-1:0] msix_mask, msix_pending, ev_msix_pending;
wire inc_eqes, inc_msix, inc_eq_dropped;
wire [4:0] ev_msix_vector;
wire ev_msix_valid, ev_msix_ready;

froce_event_engine #(.NUM_EQS(NUM_EQS), .NUM_VECTORS(NUM_VECTORS)) event_engine (
    .clk(clk), .rst(crst),
    .eqc_we(eqc_commit), .eqc_waddr(eqc_idx), .eqc_wdata(commit_data[EQC_BITS-1:0]),
    .eq0_addr(eq0_addr), .eq0_log_size(eq0_log_size), .eq0_vector(eq0_vector), .eq0_enable(eq0_enable),
    .eq0_cfg_we(eq0_cfg_we),
    .s_ev_valid(ev_valid), .s_ev_ready(ev_ready), .s_ev_cqn(ev_cqn), .s_ev_eqn(ev_eqn),
    .s_post_valid(fw_eqe_valid), .s_post_ready(fw_eqe_ready), .s_post_eqn(fw_eqe_eqn), .s_post_dw(fw_eqe_dw),
    .m_post_done(fw_eqe_done), .m_post_dropped(fw_eqe_dropped),
    .s_db_valid(eqdb_valid), .s_db_ready(eqdb_ready), .s_db_eqn(eqdb_eqn), .s_db_ci(eqdb_ci), .s_db_arm(eqdb_arm),
    .m_wr_valid(ev_wr_valid), .m_wr_ready(wq_push_ev), .m_wr_addr(ev_wr_addr), .m_wr_data(ev_wr_data),
    .m_wr_last(ev_wr_last), .wr_done(ev_wr_done),
    .msix_mask(msix_mask), .msix_pending(ev_msix_pending),
    .m_msix_vector(ev_msix_vector), .m_msix_valid(ev_msix_valid), .m_msix_ready(ev_msix_ready),
    .inc_eqes(inc_eqes), .inc_msix(inc_msix), .inc_dropped(inc_eq_dropped)
);

// ---------------------------------------------------------------------------
// Netdev rings, the Ethernet TX frame mux and the netdev MSI-X vector
// ---------------------------------------------------------------------------

wire [63:0] ntx_addr, nrx_addr;
wire [4:0] ntx_log, nrx_log, nd_vector;
wire ntx_en, nrx_en, ntx_cfg_we, nrx_cfg_we, nd_arm;
wire [15:0] ntx_pi, nrx_pi, ntx_ci, nrx_ci;
wire nd_irq_pending, nd_irq_taken;
wire [4:0] nd_irq_vector;
wire inc_nd_tx_pkts, inc_nd_rx_pkts;
wire [1:0] inc_nd_rx_dropped;

froce_netdev #(.DATA_WIDTH(DATA_WIDTH)) netdev (
    .clk(clk), .rst(crst),
    .ntx_addr(ntx_addr), .ntx_log(ntx_log), .ntx_en(ntx_en), .ntx_pi(ntx_pi), .ntx_cfg_we(ntx_cfg_we),
    .ntx_ci(ntx_ci),
    .nrx_addr(nrx_addr), .nrx_log(nrx_log), .nrx_en(nrx_en), .nrx_pi(nrx_pi), .nrx_cfg_we(nrx_cfg_we),
    .nrx_ci(nrx_ci),
    .irq_vector_cfg(nd_vector), .irq_arm(nd_arm),
    .s_net_tdata(net_tdata), .s_net_tkeep(net_tkeep), .s_net_tvalid(net_tvalid), .s_net_tready(net_tready),
    .s_net_tlast(net_tlast),
    .s_roce_tdata(rb_tdata), .s_roce_tkeep(rb_tkeep), .s_roce_tvalid(rb_tvalid), .s_roce_tready(rb_tready),
    .s_roce_tlast(rb_tlast),
    .m_eth_tdata(m_eth_tx_tdata), .m_eth_tkeep(m_eth_tx_tkeep), .m_eth_tvalid(etx_tvalid),
    .m_eth_tready(etx_tready), .m_eth_tlast(m_eth_tx_tlast),
    .m_rd_desc_addr(nrd_desc_addr), .m_rd_desc_len(nrd_desc_len), .m_rd_desc_valid(nrd_desc_valid),
    .m_rd_desc_ready(nrd_desc_ready),
    .s_rd_tdata(nrd_tdata), .s_rd_tkeep(nrd_tkeep), .s_rd_tvalid(nrd_tvalid), .s_rd_tready(nrd_tready),
    .s_rd_tlast(nrd_tlast), .s_rd_st_valid(nrd_st_valid), .s_rd_st_err(nrd_st_err),
    .m_wr_desc_addr(nwr_desc_addr), .m_wr_desc_len(nwr_desc_len), .m_wr_desc_valid(nwr_desc_valid),
    .m_wr_desc_ready(nwr_desc_ready),
    .m_wr_tdata(nwr_tdata), .m_wr_tvalid(nwr_tvalid), .m_wr_tready(nwr_tready), .m_wr_tlast(nwr_tlast),
    .s_wr_st_valid(nwr_st_valid), .s_wr_st_err(nwr_st_err),
    .irq_pending(nd_irq_pending), .irq_vector(nd_irq_vector), .irq_taken(nd_irq_taken),
    .inc_tx_pkts(inc_nd_tx_pkts), .inc_rx_pkts(inc_nd_rx_pkts), .inc_rx_dropped(inc_nd_rx_dropped)
);

// MSI-X: the event engine's requests and the netdev vector share m_msix_*.
// Both hold a request until it is taken (a masked netdev vector waits in the
// PBA like the event engine's); the choice is held while a request is
// presented and not taken, and alternates when both wait.
wire nd_vec_ok = {27'd0, nd_irq_vector} < NUM_VECTORS;
wire nd_vec_masked = nd_vec_ok ? msix_mask[nd_irq_vector[$clog2(NUM_VECTORS > 1 ? NUM_VECTORS : 2)-1:0]] : 1'b1;
wire nd_msix_valid = nd_irq_pending && nd_vec_ok && !nd_vec_masked;
reg ms_lock, ms_sel, ms_prio;   // ms_sel 1: netdev
wire ms_pick = (ev_msix_valid && nd_msix_valid) ? ms_prio : nd_msix_valid;
wire ms_held = ms_lock && (ms_sel ? nd_msix_valid : ev_msix_valid);
wire ms_cur = ms_held ? ms_sel : ms_pick;
assign m_msix_valid = ms_cur ? nd_msix_valid : ev_msix_valid;
assign m_msix_vector = ms_cur ? nd_irq_vector : ev_msix_vector;
assign ev_msix_ready = m_msix_ready && !ms_cur;
assign nd_irq_taken = m_msix_ready && ms_cur && nd_msix_valid;
always @(posedge clk) begin
    ms_lock <= m_msix_valid && !m_msix_ready;
    ms_sel <= ms_cur;
    if (m_msix_valid && m_msix_ready)
        ms_prio <= !ms_cur;
    if (crst) begin
        ms_lock <= 1'b0;
        ms_sel <= 1'b0;
        ms_prio <= 1'b0;
    end
end
reg [NUM_VECTORS-1:0] nd_pba;
always @* begin
    nd_pba = {NUM_VECTORS{1'b0}};
    if (nd_irq_pending && nd_vec_ok)
        nd_pba[nd_irq_vector[$clog2(NUM_VECTORS > 1 ? NUM_VECTORS : 2)-1:0]] = 1'b1;
end
assign msix_pending = ev_msix_pending | nd_pba | msix_pba_ext;
assign msix_vec_mask = msix_mask;

// CAPS: what the engine does end to end today: RoCE v1 (GRH) and v2 over IPv4
// and IPv6 (froce_tx_builder / froce_rx_parser), UD QPs, atomics, the netdev rings
localparam [31:0] CAPS = (32'd1 << `FROCE_REG_CAPS_ROCE_V1_SHIFT) | (32'd1 << `FROCE_REG_CAPS_IPV6_SHIFT) |
                         (32'd1 << `FROCE_REG_CAPS_UD_SHIFT) | (32'd1 << `FROCE_REG_CAPS_ATOMIC_SHIFT) |
                         (32'd1 << `FROCE_REG_CAPS_NETDEV_SHIFT);

wire [CNT_SW-1:0] bar0_cnt_index;
wire [63:0] bar0_cnt_value;

froce_bar0 #(.NUM_UARS(NUM_UARS), .NUM_EQS(NUM_EQS), .NUM_VECTORS(NUM_VECTORS), .BUILD_ID(BUILD_ID),
             .CAPS(CAPS), .MAC(MAC)) bar0 (
    .clk(clk), .rst(rst), .dev_reset(dev_rst), .dev_reset_req(dev_reset_req),
    .s_axil_awaddr(s_axil_awaddr), .s_axil_awvalid(s_axil_awvalid), .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata), .s_axil_wstrb(s_axil_wstrb), .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp), .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr), .s_axil_arvalid(s_axil_arvalid), .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata), .s_axil_rresp(s_axil_rresp), .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    // DEV_STATUS.FATAL is not driven yet (a firmware that fails to start prints and halts)
    .st_ready(fw_dev_ready && !dev_reset_busy), .st_fatal(1'b0), .st_fatal_syndrome(32'd0), .st_link_up(link_up),
    .st_link_speed(LINK_SPEED_GBPS), .st_heartbeat(fw_heartbeat), .fw_version(fw_version),
    .mbox_db_valid(mbox_db_valid), .mbox_db_value(mbox_db_value), .mbox_addr(mbox_addr),
    .cmd_status(fw_cmd_status),
    .eq0_addr(eq0_addr), .eq0_log_size(eq0_log_size), .eq0_vector(eq0_vector), .eq0_enable(eq0_enable),
    .eq0_cfg_we(eq0_cfg_we),
    .m_eqdb_valid(eqdb_valid), .m_eqdb_ready(eqdb_ready), .m_eqdb_eqn(eqdb_eqn), .m_eqdb_ci(eqdb_ci),
    .m_eqdb_arm(eqdb_arm),
    .ntx_addr(ntx_addr), .ntx_log(ntx_log), .ntx_en(ntx_en), .ntx_pi(ntx_pi), .ntx_cfg_we(ntx_cfg_we),
    .ntx_ci(ntx_ci),
    .nrx_addr(nrx_addr), .nrx_log(nrx_log), .nrx_en(nrx_en), .nrx_pi(nrx_pi), .nrx_cfg_we(nrx_cfg_we),
    .nrx_ci(nrx_ci),
    .nd_vector(nd_vector), .nd_arm(nd_arm),
    .cnt_index(bar0_cnt_index), .cnt_value(bar0_cnt_value), .msix_mask(msix_mask), .msix_pending(msix_pending),
    .msix_req_vector(m_msix_vector), .msix_req_addr(m_msix_addr), .msix_req_data(m_msix_data),
    .msix_tbl_vector(msix_tbl_vector), .msix_tbl_addr(msix_tbl_addr), .msix_tbl_data(msix_tbl_data)
);

// ---------------------------------------------------------------------------
// Counters
// ---------------------------------------------------------------------------

// Every counter in one froce_counters: slot i is FROCE_CNT_i, slot
// FROCE_CNT_NUM + i is FROCE_ICNT_i. Each source presents this cycle's
// increment (a one-cycle pulse from the engines, a byte count per beat
// here); counters with no source yet read 0 and cost nothing.
reg [CNT_SLOTS*CNT_IW-1:0] cnt_inc;

function [CNT_IW-1:0] one;                  // a pulse as an increment
    input pulse;
    one = {{(CNT_IW - 1){1'b0}}, pulse};
endfunction

// sent: RoCE frames only (the tx_builder's side of the frame mux)
wire [W-1:0] tx_keep = rb_tkeep;
wire [W-1:0] rx_keep = s_eth_rx_tkeep;
reg [CNT_IW-1:0] tx_pop, rx_pop;
integer pi;
always @* begin
    tx_pop = 0;
    rx_pop = 0;
    for (pi = 0; pi < W; pi = pi + 1) begin
        tx_pop = tx_pop + one(tx_keep[pi]);
        rx_pop = rx_pop + one(rx_keep[pi]);
    end
end
wire tx_beat = rb_tvalid && rb_tready;
wire rx_beat = erx_tvalid && erx_tready;
wire icrc_bad = p_stat_valid && p_stat_verdict == `FROCE_VERDICT_ICRC_BAD;

always @* begin
    cnt_inc = {(CNT_SLOTS * CNT_IW){1'b0}};
    cnt_inc[`FROCE_CNT_SENT_PKTS * CNT_IW +: CNT_IW] = one(tx_beat && rb_tlast);
    cnt_inc[`FROCE_CNT_RCVD_PKTS * CNT_IW +: CNT_IW] = one(rx_beat && s_eth_rx_tlast);
    cnt_inc[`FROCE_CNT_SENT_BYTES * CNT_IW +: CNT_IW] = tx_beat ? tx_pop : {CNT_IW{1'b0}};
    cnt_inc[`FROCE_CNT_RCVD_BYTES * CNT_IW +: CNT_IW] = rx_beat ? rx_pop : {CNT_IW{1'b0}};
    cnt_inc[`FROCE_CNT_RDMA_SENDS * CNT_IW +: CNT_IW] = one(inc_req_pkts);
    cnt_inc[`FROCE_CNT_RDMA_RECVS * CNT_IW +: CNT_IW] = one(inc_rx_pkts);
    cnt_inc[`FROCE_CNT_DUPLICATE_REQUEST * CNT_IW +: CNT_IW] = one(inc_dup);
    cnt_inc[`FROCE_CNT_OUT_OF_SEQUENCE * CNT_IW +: CNT_IW] = one(inc_oos);
    cnt_inc[`FROCE_CNT_SEND_RNR_ERR * CNT_IW +: CNT_IW] = one(inc_rnr_sent);
    cnt_inc[`FROCE_CNT_OUT_OF_BUFFER * CNT_IW +: CNT_IW] = one(inc_out_of_buffer);
    cnt_inc[`FROCE_CNT_PACKET_SEQ_ERR * CNT_IW +: CNT_IW] = one(inc_seq_nak_rcvd);
    cnt_inc[`FROCE_CNT_RNR_NAK_RETRY_ERR * CNT_IW +: CNT_IW] = one(inc_rnr_retry_exc);
    cnt_inc[`FROCE_CNT_RESP_LOCAL_LENGTH_ERROR * CNT_IW +: CNT_IW] = one(inc_len_err);
    cnt_inc[`FROCE_CNT_REQ_REMOTE_ACCESS_ERRORS * CNT_IW +: CNT_IW] = one(inc_acc_nak_rcvd);
    cnt_inc[`FROCE_CNT_REQ_REMOTE_INVALID_REQUEST * CNT_IW +: CNT_IW] = one(inc_inv_nak_rcvd);
    cnt_inc[`FROCE_CNT_RCVD_RNR_ERR * CNT_IW +: CNT_IW] = one(inc_rnr_rcvd);
    cnt_inc[`FROCE_CNT_LOCAL_ACK_TIMEOUT_ERR * CNT_IW +: CNT_IW] = one(inc_timeouts);
    cnt_inc[`FROCE_CNT_RETRY_EXCEEDED_ERR * CNT_IW +: CNT_IW] = one(inc_retry_exc);
    cnt_inc[`FROCE_CNT_RESP_REMOTE_ACCESS_ERRORS * CNT_IW +: CNT_IW] = one(inc_access_err);
    cnt_inc[`FROCE_CNT_REQ_CQE_ERROR * CNT_IW +: CNT_IW] = one(inc_wqe_err);
    cnt_inc[`FROCE_CNT_RX_ICRC_ENCAPSULATED * CNT_IW +: CNT_IW] = one(icrc_bad);
    cnt_inc[`FROCE_CNT_RX_IP_CSUM_ERRORS * CNT_IW +: CNT_IW] =
        one(p_stat_valid && p_stat_verdict == `FROCE_VERDICT_IP_CSUM);
    cnt_inc[`FROCE_CNT_RX_BAD_PKTS * CNT_IW +: CNT_IW] =
        one(pb_stat_valid && (pb_stat_dropped || pb_stat_overflow) && !icrc_bad);
    cnt_inc[`FROCE_CNT_RX_NO_QP * CNT_IW +: CNT_IW] = one(inc_rx_dropped);
    cnt_inc[`FROCE_CNT_DOORBELL_DROPPED * CNT_IW +: CNT_IW] = one(inc_db_rejected) + one(inc_db_malformed);
    cnt_inc[`FROCE_CNT_NETDEV_TX_PKTS * CNT_IW +: CNT_IW] = one(inc_nd_tx_pkts);
    cnt_inc[`FROCE_CNT_NETDEV_RX_PKTS * CNT_IW +: CNT_IW] = one(inc_nd_rx_pkts);
    cnt_inc[`FROCE_CNT_NETDEV_RX_DROPPED * CNT_IW +: CNT_IW] =
        one(inc_nd_rx_dropped[0]) + one(inc_nd_rx_dropped[1]);
    cnt_inc[(`FROCE_CNT_NUM + `FROCE_ICNT_EQES) * CNT_IW +: CNT_IW] = one(ev_wr_done);
    cnt_inc[(`FROCE_CNT_NUM + `FROCE_ICNT_MSIX) * CNT_IW +: CNT_IW] = one(m_msix_valid && m_msix_ready);
    cnt_inc[(`FROCE_CNT_NUM + `FROCE_ICNT_EQ_DROPPED) * CNT_IW +: CNT_IW] = one(inc_eq_dropped);
    cnt_inc[(`FROCE_CNT_NUM + `FROCE_ICNT_CQ_ARMS) * CNT_IW +: CNT_IW] = one(inc_cq_arms);
    cnt_inc[(`FROCE_CNT_NUM + `FROCE_ICNT_QKEY_DROPPED) * CNT_IW +: CNT_IW] = one(inc_qkey_err);
    cnt_inc[(`FROCE_CNT_NUM + `FROCE_ICNT_ASYNC_LOST) * CNT_IW +: CNT_IW] = one(inc_async_lost);
    cnt_inc[(`FROCE_CNT_NUM + `FROCE_ICNT_ADP_RETRANS) * CNT_IW +: CNT_IW] = one(inc_adp_retrans);
    cnt_inc[(`FROCE_CNT_NUM + `FROCE_ICNT_RX_FILTERED) * CNT_IW +: CNT_IW] = one(pb_stat_filtered);
end

// the increments are registered before the accumulators: many are
// handshakes decided late in their cycle (a beat taken, a frame dropped),
// and a counter that sees an event a cycle later reads the same to software
reg [CNT_SLOTS*CNT_IW-1:0] cnt_inc_reg;
always @(posedge clk) begin
    cnt_inc_reg <= cnt_inc;
    if (crst)
        cnt_inc_reg <= {(CNT_SLOTS * CNT_IW){1'b0}};
end

// read port a: BAR0 (froce_bar0), port b: the control bus (above)
froce_counters #(.N(CNT_SLOTS), .IW(CNT_IW)) counters (
    .clk(clk), .rst(crst),
    .inc(cnt_inc_reg),
    .a_index(bar0_cnt_index), .a_value(bar0_cnt_value),
    .b_index(ctl_cnt_index), .b_value(ctl_cnt_value)
);

// not used yet: the arm sequence number, status bits kept for later
// the events with no counter yet: doorbells accepted, EQEs and MSI-X
// messages as the event engine sees them, CQEs, CQ errors, response
// packets, WQEs, NAKs sent, retransmissions, split and DMA errors
wire unused_core = ^{cq_arm_sn, inc_db_accepted, inc_eqes, inc_msix, eqc_off[2:0],
                     db_init_busy, tseg_first, rseg_first, tx_xl_busy, rx_xl_busy, tx_tuser,
                     inc_resp_pkts, inc_wqes, inc_cqes, inc_cq_err, split_err, tx_len_err,
                     trd_st_valid, trd_st_err, rrd_st_valid, rrd_st_err, nrd_st_err, nwr_st_err,
                     wr_st_err, pb_stat_roce, pb_stat_net, ctl_addr[22], inc_nak_sent,
                     qpc_off[4:0], cqc_off[2:0], gid_off[2:0], inc_retrans,
                     fw_port_cfg_we};

endmodule

`resetall
