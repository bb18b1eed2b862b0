// SPDX-License-Identifier: MIT
// BAR0 register block: AXI4-Lite slave (32-bit) with the map of spec/device.toml.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * Every offset comes from the generated FROCE_REG_* / FROCE_BAR0_* macros.
 *
 * Implemented:
 *   ID block     ID, HW_VERSION, SPEC_HASH (macros), BUILD_ID, CAPS, MAC
 *                (parameters), UAR_INFO, IRQ_INFO (parameters); FW_VERSION
 *                from the fw_version input (0 until there is firmware)
 *   CTRL         SCRATCH (rw); DEV_STATUS {READY, FATAL, LINK_UP},
 *                FATAL_SYNDROME, LINK_STATUS, HEARTBEAT from inputs;
 *                DEV_CTRL (w1s): RESET pulses dev_reset_req (froce_core runs
 *                the reset, froce_dev_reset, and drives dev_reset, which
 *                clears SCRATCH, CMD, EQ and NETDEV registers here)
 *   EQ           EQ0_ADDR_LO/HI, EQ0_CFG (rw, to the event engine; a write of
 *                EQ0_CFG pulses eq0_cfg_we), EQ_DOORBELL (wo: to the event
 *                engine; the write's B response waits until it is taken)
 *   CMD          CMD_ADDR_LO/HI (rw), CMD_DOORBELL (wo: pulses mbox_db_valid
 *                with the written value; mbox_addr is CMD_ADDR), CMD_STATUS
 *                (ro, the firmware's cmd_status)
 *   COUNTERS     counter i (FROCE_CNT_*, 64 bits, read from froce_counters) at
 *                COUNTERS_BASE + 8 i: reading the low word returns bits 31:0
 *                and latches bits 63:32 for the next read of a high word (one
 *                latch for all counters); beyond FROCE_CNT_NUM reads 0
 *   ICOUNTERS    internal counter i (FROCE_ICNT_*, the same read port) at
 *                ICOUNTERS_BASE + 8 i, read like COUNTERS (same latch)
 *   MSIX_TABLE   NUM_VECTORS entries of 16 bytes: address low/high, data
 *                (stored, read back, and read combinationally on two ports,
 *                msix_req_* and msix_tbl_*, for the MSI-X emitter of a board)
 *                and vector control (bit 0 = mask, 1 after reset as PCIe
 *                requires; msix_mask)
 *   MSIX_PBA     dword 0: msix_pending (vectors 0..31), the rest 0
 *   NETDEV       NTX_/NRX_ ADDR_LO/HI, CFG {LOG_SIZE, ENABLE} (rw; a CFG
 *                write pulses n?x_cfg_we, and with ENABLE = 0 it zeroes PI),
 *                PI (wo, reads 0), CI (ro, from froce_netdev), NETDEV_IRQ
 *                {VECTOR} (rw), NETDEV_ARM (w1s: ARM = 1 pulses nd_arm)
 * Later work, reading their reset value (0) and ignoring writes:
 *   UAR_SHADOW (simulation platform only, CAPS.UAR_SHADOW = 0).
 * Unmapped offsets and writes to read-only registers: OKAY, reads 0, writes
 * ignored (a driver bug must not hang or abort the PCIe transaction).
 * Accesses are 32-bit: WSTRB is ignored (a partial write writes the dword).
 */
module froce_bar0 #(
    parameter NUM_UARS = 256,
    parameter NUM_EQS = 8,
    parameter NUM_VECTORS = 32,                 // <= FROCE_MSIX_MAX_VECTORS
    parameter [31:0] BUILD_ID = 32'd0,
    parameter [31:0] CAPS = 32'd0,
    parameter [47:0] MAC = 48'd0,
    parameter ADDR_W = `FROCE_BAR0_ADDR_W,      // must keep this value
    parameter CNT_SW = $clog2(`FROCE_CNT_NUM + `FROCE_ICNT_NUM)  // must keep this value
) (
    input  wire                     clk,
    input  wire                     rst,
    /* device reset (froce_dev_reset): dev_reset_req pulses on a DEV_CTRL
     * write with RESET = 1; dev_reset clears the device registers, not the
     * AXI handshakes, the MSI-X table or its masks */
    input  wire                     dev_reset,
    output reg                      dev_reset_req,

    input  wire [ADDR_W-1:0]        s_axil_awaddr,
    input  wire                     s_axil_awvalid,
    output wire                     s_axil_awready,
    input  wire [31:0]              s_axil_wdata,
    input  wire [3:0]               s_axil_wstrb,
    input  wire                     s_axil_wvalid,
    output wire                     s_axil_wready,
    output wire [1:0]               s_axil_bresp,
    output reg                      s_axil_bvalid,
    input  wire                     s_axil_bready,
    input  wire [ADDR_W-1:0]        s_axil_araddr,
    input  wire                     s_axil_arvalid,
    output wire                     s_axil_arready,
    output reg  [31:0]              s_axil_rdata,
    output wire [1:0]               s_axil_rresp,
    output reg                      s_axil_rvalid,
    input  wire                     s_axil_rready,

    /* status inputs */
    input  wire                     st_ready,
    input  wire                     st_fatal,
    input  wire [31:0]              st_fatal_syndrome,
    input  wire                     st_link_up,
    input  wire [7:0]               st_link_speed,
    input  wire [31:0]              st_heartbeat,
    input  wire [31:0]              fw_version,

    /* firmware mailbox: CMD_DOORBELL writes go to the firmware with the
     * CMD_ADDR of that moment; CMD_STATUS reads what the firmware wrote */
    output reg                      mbox_db_valid,
    output reg  [31:0]              mbox_db_value,
    output wire [63:0]              mbox_addr,
    input  wire [31:0]              cmd_status,

    /* EQ 0 and the EQ doorbell */
    output reg  [63:0]              eq0_addr,
    output wire [4:0]               eq0_log_size,
    output wire [4:0]               eq0_vector,
    output wire                     eq0_enable,
    output reg                      eq0_cfg_we,
    output reg                      m_eqdb_valid,
    input  wire                     m_eqdb_ready,
    output reg  [5:0]               m_eqdb_eqn,
    output reg  [23:0]              m_eqdb_ci,
    output reg                      m_eqdb_arm,

    /* netdev rings (froce_netdev) */
    output reg  [63:0]              ntx_addr,
    output wire [4:0]               ntx_log,
    output wire                     ntx_en,
    output reg  [15:0]              ntx_pi,
    output reg                      ntx_cfg_we,
    input  wire [15:0]              ntx_ci,
    output reg  [63:0]              nrx_addr,
    output wire [4:0]               nrx_log,
    output wire                     nrx_en,
    output reg  [15:0]              nrx_pi,
    output reg                      nrx_cfg_we,
    input  wire [15:0]              nrx_ci,
    output reg  [4:0]               nd_vector,
    output reg                      nd_arm,

    /* counters and MSI-X */
    /* counter read port (froce_counters): slot FROCE_CNT_i is i, slot of
     * FROCE_ICNT_i FROCE_CNT_NUM + i; the value the same cycle */
    output reg  [CNT_SW-1:0]        cnt_index,
    input  wire [63:0]              cnt_value,
    output reg  [NUM_VECTORS-1:0]   msix_mask,
    input  wire [NUM_VECTORS-1:0]   msix_pending,
    /* MSI-X table read ports: the entry (address, data) of a vector */
    input  wire [4:0]               msix_req_vector,
    output wire [63:0]              msix_req_addr,
    output wire [31:0]              msix_req_data,
    input  wire [4:0]               msix_tbl_vector,
    output wire [63:0]              msix_tbl_addr,
    output wire [31:0]              msix_tbl_data
);

initial begin
    if (ADDR_W != `FROCE_BAR0_ADDR_W || NUM_VECTORS < 1 || NUM_VECTORS > `FROCE_MSIX_MAX_VECTORS ||
        NUM_EQS > 64 || `FROCE_CNT_NUM * 8 > `FROCE_BAR0_COUNTERS_SIZE ||
        `FROCE_ICNT_NUM * 8 > `FROCE_BAR0_ICOUNTERS_SIZE ||
        `FROCE_MSIX_MAX_VECTORS * 16 > `FROCE_BAR0_MSIX_TABLE_SIZE) begin
        $display("froce_bar0: parameters do not fit the BAR0 map");
        $finish;
    end
end

localparam VW = NUM_VECTORS > 1 ? $clog2(NUM_VECTORS) : 1;
localparam [ADDR_W-1:0] CNT_B = `FROCE_BAR0_COUNTERS_BASE;
localparam [ADDR_W-1:0] CNT_E = `FROCE_BAR0_COUNTERS_BASE + `FROCE_CNT_NUM * 8;
localparam [ADDR_W-1:0] ICNT_B = `FROCE_BAR0_ICOUNTERS_BASE;
localparam [ADDR_W-1:0] ICNT_E = `FROCE_BAR0_ICOUNTERS_BASE + `FROCE_ICNT_NUM * 8;
localparam [ADDR_W-1:0] TAB_B = `FROCE_BAR0_MSIX_TABLE_BASE;
localparam [ADDR_W-1:0] TAB_E = `FROCE_BAR0_MSIX_TABLE_BASE + NUM_VECTORS * 16;
localparam [ADDR_W-1:0] PBA_B = `FROCE_BAR0_MSIX_PBA_BASE;

reg [31:0] scratch;
reg [31:0] eq0_cfg;
reg [31:0] cnt_hi_latch;
reg [63:0] cmd_addr;
assign mbox_addr = cmd_addr;
reg [4:0] ntx_log_r, nrx_log_r;
reg ntx_en_r, nrx_en_r;
assign ntx_log = ntx_log_r;
assign ntx_en = ntx_en_r;
assign nrx_log = nrx_log_r;
assign nrx_en = nrx_en_r;
// MSI-X table: address low, address high, data (vector control is msix_mask)
reg [31:0] msix_tab [0:NUM_VECTORS*4-1];

assign eq0_log_size = eq0_cfg[`FROCE_REG_EQ0_CFG_LOG_SIZE_SHIFT +: `FROCE_REG_EQ0_CFG_LOG_SIZE_W];
assign eq0_vector = eq0_cfg[`FROCE_REG_EQ0_CFG_VECTOR_SHIFT +: `FROCE_REG_EQ0_CFG_VECTOR_W];
assign eq0_enable = eq0_cfg[`FROCE_REG_EQ0_CFG_ENABLE_SHIFT];

// ---- writes: AW and W together, one at a time ----
wire [ADDR_W-1:0] wa = {s_axil_awaddr[ADDR_W-1:2], 2'b00};
wire w_is_db = wa == `FROCE_REG_EQ_DOORBELL;
// a doorbell waits while the previous one is not taken
wire w_go = s_axil_awvalid && s_axil_wvalid && !s_axil_bvalid && !(w_is_db && m_eqdb_valid);
assign s_axil_awready = w_go;
assign s_axil_wready = w_go;
assign s_axil_bresp = 2'b00;
wire w_tab = wa >= TAB_B && wa < TAB_E;
wire [ADDR_W-1:0] w_tab_off = wa - TAB_B;
wire [VW-1:0] w_vec = w_tab_off[VW+3:4];

always @(posedge clk) begin
    eq0_cfg_we <= 1'b0;
    ntx_cfg_we <= 1'b0;
    nrx_cfg_we <= 1'b0;
    nd_arm <= 1'b0;
    mbox_db_valid <= 1'b0;
    dev_reset_req <= 1'b0;
    if (m_eqdb_valid && m_eqdb_ready)
        m_eqdb_valid <= 1'b0;
    if (s_axil_bvalid && s_axil_bready)
        s_axil_bvalid <= 1'b0;
    if (w_go) begin
        s_axil_bvalid <= 1'b1;
        case (wa)
        `FROCE_REG_SCRATCH: scratch <= s_axil_wdata;
        `FROCE_REG_DEV_CTRL: dev_reset_req <= s_axil_wdata[`FROCE_REG_DEV_CTRL_RESET_SHIFT];
        `FROCE_REG_CMD_ADDR_LO: cmd_addr[31:0] <= s_axil_wdata;
        `FROCE_REG_CMD_ADDR_HI: cmd_addr[63:32] <= s_axil_wdata;
        `FROCE_REG_CMD_DOORBELL: begin
            mbox_db_valid <= 1'b1;
            mbox_db_value <= s_axil_wdata;
        end
        `FROCE_REG_EQ0_ADDR_LO: eq0_addr[31:0] <= s_axil_wdata;
        `FROCE_REG_EQ0_ADDR_HI: eq0_addr[63:32] <= s_axil_wdata;
        `FROCE_REG_EQ0_CFG: begin
            eq0_cfg <= s_axil_wdata;
            eq0_cfg_we <= 1'b1;
        end
        `FROCE_REG_EQ_DOORBELL: begin
            m_eqdb_valid <= 1'b1;
            m_eqdb_ci <= s_axil_wdata[`FROCE_REG_EQ_DOORBELL_CI_SHIFT +: `FROCE_REG_EQ_DOORBELL_CI_W];
            m_eqdb_eqn <= s_axil_wdata[`FROCE_REG_EQ_DOORBELL_EQN_SHIFT +: `FROCE_REG_EQ_DOORBELL_EQN_W];
            m_eqdb_arm <= s_axil_wdata[`FROCE_REG_EQ_DOORBELL_ARM_SHIFT];
        end
        `FROCE_REG_NTX_ADDR_LO: ntx_addr[31:0] <= s_axil_wdata;
        `FROCE_REG_NTX_ADDR_HI: ntx_addr[63:32] <= s_axil_wdata;
        `FROCE_REG_NTX_CFG: begin
            ntx_log_r <= s_axil_wdata[`FROCE_REG_NTX_CFG_LOG_SIZE_SHIFT +: `FROCE_REG_NTX_CFG_LOG_SIZE_W];
            ntx_en_r <= s_axil_wdata[`FROCE_REG_NTX_CFG_ENABLE_SHIFT];
            ntx_cfg_we <= 1'b1;
            if (!s_axil_wdata[`FROCE_REG_NTX_CFG_ENABLE_SHIFT])
                ntx_pi <= 16'd0;
        end
        `FROCE_REG_NTX_PI: ntx_pi <= s_axil_wdata[`FROCE_REG_NTX_PI_PI_SHIFT +: `FROCE_REG_NTX_PI_PI_W];
        `FROCE_REG_NRX_ADDR_LO: nrx_addr[31:0] <= s_axil_wdata;
        `FROCE_REG_NRX_ADDR_HI: nrx_addr[63:32] <= s_axil_wdata;
        `FROCE_REG_NRX_CFG: begin
            nrx_log_r <= s_axil_wdata[`FROCE_REG_NRX_CFG_LOG_SIZE_SHIFT +: `FROCE_REG_NRX_CFG_LOG_SIZE_W];
            nrx_en_r <= s_axil_wdata[`FROCE_REG_NRX_CFG_ENABLE_SHIFT];
            nrx_cfg_we <= 1'b1;
            if (!s_axil_wdata[`FROCE_REG_NRX_CFG_ENABLE_SHIFT])
                nrx_pi <= 16'd0;
        end
        `FROCE_REG_NRX_PI: nrx_pi <= s_axil_wdata[`FROCE_REG_NRX_PI_PI_SHIFT +: `FROCE_REG_NRX_PI_PI_W];
        `FROCE_REG_NETDEV_IRQ: nd_vector <= s_axil_wdata[`FROCE_REG_NETDEV_IRQ_VECTOR_SHIFT +: `FROCE_REG_NETDEV_IRQ_VECTOR_W];
        `FROCE_REG_NETDEV_ARM: nd_arm <= s_axil_wdata[`FROCE_REG_NETDEV_ARM_ARM_SHIFT];
        default: ;
        endcase
        if (w_tab) begin
            if (w_tab_off[3:2] == 2'd3)
                msix_mask[w_vec] <= s_axil_wdata[0];
        end
    end
    if (rst) begin
        s_axil_bvalid <= 1'b0;
        dev_reset_req <= 1'b0;
        msix_mask <= {NUM_VECTORS{1'b1}};
    end
    if (rst || dev_reset) begin
        m_eqdb_valid <= 1'b0;
        eq0_cfg_we <= 1'b0;
        scratch <= 32'd0;
        cmd_addr <= 64'd0;
        mbox_db_valid <= 1'b0;
        mbox_db_value <= 32'd0;
        eq0_cfg <= 32'd0;
        eq0_addr <= 64'd0;
        ntx_addr <= 64'd0;
        ntx_log_r <= 5'd0;
        ntx_en_r <= 1'b0;
        ntx_pi <= 16'd0;
        ntx_cfg_we <= 1'b0;
        nrx_addr <= 64'd0;
        nrx_log_r <= 5'd0;
        nrx_en_r <= 1'b0;
        nrx_pi <= 16'd0;
        nrx_cfg_we <= 1'b0;
        nd_vector <= 5'd0;
        nd_arm <= 1'b0;
    end
end

// table words 0..2 of each entry (a RAM: no reset)
always @(posedge clk)
    if (w_go && w_tab && w_tab_off[3:2] != 2'd3)
        msix_tab[{w_vec, w_tab_off[3:2]}] <= s_axil_wdata;

// entry read ports; a vector >= NUM_VECTORS reads entry 0 (never requested)
wire [VW-1:0] req_vec = {27'd0, msix_req_vector} < NUM_VECTORS ? msix_req_vector[VW-1:0] : {VW{1'b0}};
wire [VW-1:0] tbl_vec = {27'd0, msix_tbl_vector} < NUM_VECTORS ? msix_tbl_vector[VW-1:0] : {VW{1'b0}};
assign msix_req_addr = {msix_tab[{req_vec, 2'd1}], msix_tab[{req_vec, 2'd0}]};
assign msix_req_data = msix_tab[{req_vec, 2'd2}];
assign msix_tbl_addr = {msix_tab[{tbl_vec, 2'd1}], msix_tab[{tbl_vec, 2'd0}]};
assign msix_tbl_data = msix_tab[{tbl_vec, 2'd2}];

// ---- reads: one at a time, data one cycle after the address (two for a
// counter's low word: its slot index is registered first, then the
// counter RAM and its 64-bit add run into s_axil_rdata) ----
wire [ADDR_W-1:0] ra = {s_axil_araddr[ADDR_W-1:2], 2'b00};
reg cnt_rd_pending;
assign s_axil_arready = !s_axil_rvalid && !cnt_rd_pending;
assign s_axil_rresp = 2'b00;
wire r_go = s_axil_arvalid && s_axil_arready;
wire r_cnt = ra >= CNT_B && ra < CNT_E;
wire [ADDR_W-1:0] r_cnt_off = ra - CNT_B;
wire r_icnt = ra >= ICNT_B && ra < ICNT_E;
wire [ADDR_W-1:0] r_icnt_off = ra - ICNT_B;
localparam [CNT_SW-1:0] ICNT_SLOT0 = `FROCE_CNT_NUM;
wire r_tab = ra >= TAB_B && ra < TAB_E;
wire [ADDR_W-1:0] r_tab_off = ra - TAB_B;
wire [VW-1:0] r_vec = r_tab_off[VW+3:4];
wire [31:0] r_tab_word = msix_tab[{r_vec, r_tab_off[3:2]}];
wire [31:0] num_uars = NUM_UARS;
wire [31:0] num_eqs = NUM_EQS;
wire [31:0] num_vec = NUM_VECTORS;
reg [31:0] pba_word;
always @* begin
    pba_word = 32'd0;
    pba_word[NUM_VECTORS-1:0] = msix_pending;
end

reg [31:0] rd;
always @* begin
    rd = 32'd0;
    case (ra)
    `FROCE_REG_ID: rd = {`FROCE_PCI_DEVICE_ID, `FROCE_PCI_VENDOR_ID};
    `FROCE_REG_HW_VERSION: rd = `FROCE_HW_VERSION;
    `FROCE_REG_SPEC_HASH: rd = `FROCE_HW_SPEC_HASH;
    `FROCE_REG_BUILD_ID: rd = BUILD_ID;
    `FROCE_REG_CAPS: rd = CAPS;
    `FROCE_REG_UAR_INFO: begin
        rd[`FROCE_REG_UAR_INFO_NUM_PAGES_SHIFT +: `FROCE_REG_UAR_INFO_NUM_PAGES_W] = num_uars[15:0];
        rd[`FROCE_REG_UAR_INFO_PAGE_SHIFT_SHIFT +: `FROCE_REG_UAR_INFO_PAGE_SHIFT_W] = `FROCE_UAR_PAGE_SHIFT;
    end
    `FROCE_REG_IRQ_INFO: begin
        rd[`FROCE_REG_IRQ_INFO_NUM_VECTORS_SHIFT +: `FROCE_REG_IRQ_INFO_NUM_VECTORS_W] = num_vec[7:0];
        rd[`FROCE_REG_IRQ_INFO_NUM_EQ_SHIFT +: `FROCE_REG_IRQ_INFO_NUM_EQ_W] = num_eqs[7:0];
    end
    `FROCE_REG_FW_VERSION: rd = fw_version;
    `FROCE_REG_MAC_LO: rd = MAC[31:0];
    `FROCE_REG_MAC_HI: rd[`FROCE_REG_MAC_HI_MAC_SHIFT +: `FROCE_REG_MAC_HI_MAC_W] = MAC[47:32];
    `FROCE_REG_DEV_STATUS: begin
        rd[`FROCE_REG_DEV_STATUS_READY_SHIFT] = st_ready;
        rd[`FROCE_REG_DEV_STATUS_FATAL_SHIFT] = st_fatal;
        rd[`FROCE_REG_DEV_STATUS_LINK_UP_SHIFT] = st_link_up;
    end
    `FROCE_REG_FATAL_SYNDROME: rd = st_fatal_syndrome;
    `FROCE_REG_SCRATCH: rd = scratch;
    `FROCE_REG_LINK_STATUS: begin
        rd[`FROCE_REG_LINK_STATUS_UP_SHIFT] = st_link_up;
        rd[`FROCE_REG_LINK_STATUS_SPEED_GBPS_SHIFT +: `FROCE_REG_LINK_STATUS_SPEED_GBPS_W] =
            st_link_up ? st_link_speed : 8'd0;
    end
    `FROCE_REG_HEARTBEAT: rd = st_heartbeat;
    `FROCE_REG_CMD_ADDR_LO: rd = cmd_addr[31:0];
    `FROCE_REG_CMD_ADDR_HI: rd = cmd_addr[63:32];
    `FROCE_REG_CMD_STATUS: rd = cmd_status;
    `FROCE_REG_EQ0_ADDR_LO: rd = eq0_addr[31:0];
    `FROCE_REG_EQ0_ADDR_HI: rd = eq0_addr[63:32];
    `FROCE_REG_EQ0_CFG: rd = eq0_cfg;
    `FROCE_BAR0_MSIX_PBA_BASE: rd = pba_word;
    `FROCE_REG_NTX_ADDR_LO: rd = ntx_addr[31:0];
    `FROCE_REG_NTX_ADDR_HI: rd = ntx_addr[63:32];
    `FROCE_REG_NTX_CFG: begin
        rd[`FROCE_REG_NTX_CFG_LOG_SIZE_SHIFT +: `FROCE_REG_NTX_CFG_LOG_SIZE_W] = ntx_log_r;
        rd[`FROCE_REG_NTX_CFG_ENABLE_SHIFT] = ntx_en_r;
    end
    `FROCE_REG_NTX_CI: rd[`FROCE_REG_NTX_CI_CI_SHIFT +: `FROCE_REG_NTX_CI_CI_W] = ntx_ci;
    `FROCE_REG_NRX_ADDR_LO: rd = nrx_addr[31:0];
    `FROCE_REG_NRX_ADDR_HI: rd = nrx_addr[63:32];
    `FROCE_REG_NRX_CFG: begin
        rd[`FROCE_REG_NRX_CFG_LOG_SIZE_SHIFT +: `FROCE_REG_NRX_CFG_LOG_SIZE_W] = nrx_log_r;
        rd[`FROCE_REG_NRX_CFG_ENABLE_SHIFT] = nrx_en_r;
    end
    `FROCE_REG_NRX_CI: rd[`FROCE_REG_NRX_CI_CI_SHIFT +: `FROCE_REG_NRX_CI_CI_W] = nrx_ci;
    `FROCE_REG_NETDEV_IRQ: rd[`FROCE_REG_NETDEV_IRQ_VECTOR_SHIFT +: `FROCE_REG_NETDEV_IRQ_VECTOR_W] = nd_vector;
    default: ;
    endcase
    if (r_cnt || r_icnt)
        rd = cnt_hi_latch;      // a high word; a low word takes the counter path
    if (r_tab)
        rd = r_tab_off[3:2] == 2'd3 ? {31'd0, msix_mask[r_vec]} : r_tab_word;
end

always @(posedge clk) begin
    if (s_axil_rvalid && s_axil_rready)
        s_axil_rvalid <= 1'b0;
    cnt_rd_pending <= 1'b0;
    if (r_go) begin
        if ((r_cnt || r_icnt) && !ra[2]) begin
            cnt_rd_pending <= 1'b1;
            cnt_index <= r_icnt ? ICNT_SLOT0 + r_icnt_off[CNT_SW+2:3] : r_cnt_off[CNT_SW+2:3];
        end else begin
            s_axil_rvalid <= 1'b1;
            s_axil_rdata <= rd;
        end
    end
    if (cnt_rd_pending) begin
        s_axil_rvalid <= 1'b1;
        s_axil_rdata <= cnt_value[31:0];
        cnt_hi_latch <= cnt_value[63:32];
    end
    if (rst) begin
        s_axil_rvalid <= 1'b0;
        cnt_rd_pending <= 1'b0;
        cnt_hi_latch <= 32'd0;
    end
end

wire unused_bar0 = ^{num_uars[31:16], num_eqs[31:8], num_vec[31:8], s_axil_wstrb, s_axil_awaddr[1:0], s_axil_araddr[1:0], r_cnt_off, r_icnt_off, w_tab_off,
                     r_tab_off, PBA_B};

endmodule

`resetall
