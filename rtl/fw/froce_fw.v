// SPDX-License-Identifier: MIT
// Firmware subsystem: froce_cpu, its RAM, the data-bus decoder, the control-bus master and the firmware's peripherals.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * The hardware behind firmware/include/fw_hal.h (firmware/README.md, "What
 * the firmware expects from the hardware"); firmware/src/rv32/hal_rv32.c
 * uses this map. docs/fw-subsystem.md has the long form.
 *
 * Address map of the core (byte addresses):
 *
 *   0x0000_0000 + [0, 4 << RAM_ADDR_WIDTH)   RAM: code, data, stack (fetch and data)
 *   0x1000_0000 + [0, FROCE_CTL_SPAN)        control-bus window: one m_ctl access per
 *                                            aligned 32-bit load/store, m_ctl_addr =
 *                                            byte offset >> 2
 *   0x2000_0000 + [0, 0x1000)                peripheral registers (IO_* below)
 *   anything else                            access fault (load/store/fetch)
 *
 * Control-bus window and peripheral registers take only whole-word accesses
 * (lw/sw, be = 1111); a byte or halfword access there, and a window offset
 * >= FROCE_CTL_SPAN, is an access fault without side effects. The RAM takes
 * every size. Fetches outside the RAM fault.
 *
 * Peripheral registers (offset from 0x2000_0000; r = read, w = write; a
 * write-only register reads 0, unused offsets read 0 and ignore writes):
 *
 *   0x00 CONSOLE        w  bits 7:0 -> console_valid/console_data (one byte per write)
 *   0x10 CMD_PENDING    r  bit 0: CMD_DOORBELL written since CMD_DB was last read
 *   0x14 CMD_DB         r  the doorbell value; reading clears PENDING
 *   0x18 CMD_ADDR_LO    r  CMD_ADDR_LO/HI as of that doorbell write
 *   0x1C CMD_ADDR_HI    r
 *   0x20 CMD_STATUS     w  -> cmd_status (BAR0 CMD_STATUS)
 *   0x30 FW_VERSION     w  -> fw_version
 *   0x34 DEV_READY      w  bit 0 -> dev_ready
 *   0x38 HEARTBEAT      w  -> heartbeat
 *   0x3C MS_TICK        r  bit 0: a millisecond (CLK_HZ / 1000 cycles) passed; reading clears it
 *   0x40 LINK_STATUS    r  link_status
 *   0x44 PORT_MAC_LO    w  staged station MAC bits 31:0
 *   0x48 PORT_MAC_HI    w  staged MAC bits 47:32 (bits 15:0)
 *   0x4C PORT_MTU       w  staged MTU (bits 15:0)
 *   0x50 PORT_FLAGS     w  bit 0 promiscuous, bit 1 all-multicast; the write commits
 *                          MAC, MTU and flags to port_* and pulses port_cfg_we
 *   0x60 NUM_QPS        r  NUM_QPS
 *   0x64 NUM_CQS        r  NUM_CQS
 *   0x68 IRQ_INFO       r  as BAR0 IRQ_INFO: NUM_VECTORS, NUM_EQ (NUM_EQS)
 *   0x6C NUM_GIDS       r  NUM_GIDS
 *   0x70 UAR_INFO       r  as BAR0 UAR_INFO: NUM_PAGES (NUM_UARS), PAGE_SHIFT
 *   0x78 RD_ATOMIC_MAX  r  RD_ATOMIC_MAX
 *   0x7C PERM_MAC_LO    r  MAC bits 31:0
 *   0x80 PERM_MAC_HI    r  MAC bits 47:32 in bits 15:0
 *   0x90 EQ_DW0         w  EQE dwords 0..2 (ignored while EQ_STATUS.BUSY)
 *   0x94 EQ_DW1         w
 *   0x98 EQ_DW2         w
 *   0x9C EQ_POST        w  bits 5:0 = EQN: offers the EQE on m_eqe_* (ignored while busy)
 *   0xA0 EQ_STATUS      r  bit 0 busy (until s_eqe_done), bit 1 the last EQE was dropped
 *   0xB0 ASYNC_PENDING  r  bit 0: an engine event is queued
 *   0xB4 ASYNC_EV       r  type | subtype << 8 of the oldest event
 *   0xB8 ASYNC_ID       r  its QPN/CQN; reading pops it
 *   0xC0 DMA_HOST_LO    w  host address bits 31:0
 *   0xC4 DMA_HOST_HI    w  host address bits 63:32
 *   0xC8 DMA_LOCAL      w  RAM byte address
 *   0xCC DMA_LEN        w  bytes
 *   0xD0 DMA_CTRL       w  bit 0 start, bit 1 direction (1 = RAM -> host); ignored while busy
 *   0xD4 DMA_STATUS     r  bit 0 busy, bit 1 error of the last transfer (froce_fw_dma.v)
 *
 * Timing: RAM accesses answer the next cycle; peripheral registers and
 * faults answer the next cycle from registers; a control-bus store answers
 * the cycle after m_ctl accepts it, a load the cycle after m_ctl_rvalid
 * (m_ctl_* are registered outputs). While a DMA transfer runs the engine owns
 * the RAM's data port: the core's RAM loads and stores wait (its fetches and
 * peripheral accesses do not; the HAL polls DMA_STATUS meanwhile).
 *
 * Interrupts: irq_external = CMD_PENDING or ASYNC_PENDING, irq_timer =
 * MS_TICK, both levels that the reads above clear. The firmware polls and
 * leaves mstatus.MIE clear, so they have no effect today.
 */
module froce_fw #(
    parameter RAM_ADDR_WIDTH = 14,      // RAM: 2**RAM_ADDR_WIDTH 32-bit words (14: 64 KiB)
    parameter INIT_FILE = "",           // $readmemh image of the RAM (build/firmware/froce-fw.hex)
    parameter CLK_HZ = 156250000,       // clk frequency, for the millisecond tick
    parameter NUM_QPS = 256,
    parameter NUM_CQS = 256,
    parameter NUM_GIDS = 16,
    parameter NUM_UARS = 256,
    parameter NUM_EQS = 8,
    parameter NUM_VECTORS = 32,
    parameter RD_ATOMIC_MAX = 8,
    parameter [47:0] MAC = 48'd0,       // permanent MAC (BAR0 MAC_LO/HI), also port_mac after reset
    parameter DATA_WIDTH = 64           // AXI data width: 64, 128, 256 or 512
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Control-bus master into froce_core's ctl_* port */
    output wire                         m_ctl_valid,
    input  wire                         m_ctl_ready,
    output wire                         m_ctl_write,
    output wire [22:0]                  m_ctl_addr,
    output wire [31:0]                  m_ctl_wdata,
    input  wire [31:0]                  m_ctl_rdata,
    input  wire                         m_ctl_rvalid,

    /* Mailbox (BAR0 CMD block) */
    input  wire                         mbox_db_valid,      // one cycle per CMD_DOORBELL write
    input  wire [31:0]                  mbox_db_value,
    input  wire [63:0]                  mbox_addr,          // CMD_ADDR_HI:LO as of that write
    output wire [31:0]                  cmd_status,

    /* Device status (BAR0) */
    output wire [31:0]                  fw_version,
    output wire                         dev_ready,
    output wire [31:0]                  heartbeat,
    input  wire [31:0]                  link_status,

    /* Ethernet port configuration */
    output wire [47:0]                  port_mac,
    output wire [15:0]                  port_mtu,
    output wire                         port_promisc,
    output wire                         port_allmulti,
    output wire                         port_cfg_we,        // one cycle: port_* just took new values

    /* EQE posts into the event engine */
    output wire                         m_eqe_valid,
    input  wire                         m_eqe_ready,
    output wire [5:0]                   m_eqe_eqn,
    output wire [95:0]                  m_eqe_dw,           // {dw2, dw1, dw0}
    input  wire                         s_eqe_done,         // one per accepted EQE, after the handshake
    input  wire                         s_eqe_dropped,

    /* Engine asynchronous events */
    input  wire                         s_async_valid,
    output wire                         s_async_ready,
    input  wire [7:0]                   s_async_type,
    input  wire [7:0]                   s_async_subtype,
    input  wire [23:0]                  s_async_id,

    /* Console */
    output wire                         console_valid,
    output wire [7:0]                   console_data,

    /* Host memory: AXI4 master (froce_dma_rd and froce_dma_wr) */
    output wire [0:0]                   m_axi_arid,
    output wire [63:0]                  m_axi_araddr,
    output wire [7:0]                   m_axi_arlen,
    output wire [2:0]                   m_axi_arsize,
    output wire [1:0]                   m_axi_arburst,
    output wire                         m_axi_arlock,
    output wire [3:0]                   m_axi_arcache,
    output wire [2:0]                   m_axi_arprot,
    output wire                         m_axi_arvalid,
    input  wire                         m_axi_arready,
    input  wire [0:0]                   m_axi_rid,
    input  wire [DATA_WIDTH-1:0]        m_axi_rdata,
    input  wire [1:0]                   m_axi_rresp,
    input  wire                         m_axi_rlast,
    input  wire                         m_axi_rvalid,
    output wire                         m_axi_rready,
    output wire [0:0]                   m_axi_awid,
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
    input  wire [0:0]                   m_axi_bid,
    input  wire [1:0]                   m_axi_bresp,
    input  wire                         m_axi_bvalid,
    output wire                         m_axi_bready
);

localparam RB = RAM_ADDR_WIDTH + 2;                 // RAM byte-address bits
localparam TICK = CLK_HZ / 1000 > 1 ? CLK_HZ / 1000 : 1;  // cycles per millisecond
localparam TW = $clog2(TICK + 1);
localparam TICK_M1 = TICK - 1;
localparam [TW-1:0] TICK_LAST = TICK_M1[TW-1:0];
localparam [27:0] CTL_SPAN_C = `FROCE_CTL_SPAN;

/* peripheral register offsets (firmware/src/rv32/hal_rv32.c) */
localparam [11:0] IO_CONSOLE       = 12'h000;
localparam [11:0] IO_CMD_PENDING   = 12'h010;
localparam [11:0] IO_CMD_DB        = 12'h014;
localparam [11:0] IO_CMD_ADDR_LO   = 12'h018;
localparam [11:0] IO_CMD_ADDR_HI   = 12'h01C;
localparam [11:0] IO_CMD_STATUS    = 12'h020;
localparam [11:0] IO_FW_VERSION    = 12'h030;
localparam [11:0] IO_DEV_READY     = 12'h034;
localparam [11:0] IO_HEARTBEAT     = 12'h038;
localparam [11:0] IO_MS_TICK       = 12'h03C;
localparam [11:0] IO_LINK_STATUS   = 12'h040;
localparam [11:0] IO_PORT_MAC_LO   = 12'h044;
localparam [11:0] IO_PORT_MAC_HI   = 12'h048;
localparam [11:0] IO_PORT_MTU      = 12'h04C;
localparam [11:0] IO_PORT_FLAGS    = 12'h050;
localparam [11:0] IO_NUM_QPS       = 12'h060;
localparam [11:0] IO_NUM_CQS       = 12'h064;
localparam [11:0] IO_IRQ_INFO      = 12'h068;
localparam [11:0] IO_NUM_GIDS      = 12'h06C;
localparam [11:0] IO_UAR_INFO      = 12'h070;
localparam [11:0] IO_RD_ATOMIC_MAX = 12'h078;
localparam [11:0] IO_PERM_MAC_LO   = 12'h07C;
localparam [11:0] IO_PERM_MAC_HI   = 12'h080;
localparam [11:0] IO_EQ_DW0        = 12'h090;
localparam [11:0] IO_EQ_DW1        = 12'h094;
localparam [11:0] IO_EQ_DW2        = 12'h098;
localparam [11:0] IO_EQ_POST       = 12'h09C;
localparam [11:0] IO_EQ_STATUS     = 12'h0A0;
localparam [11:0] IO_ASYNC_PENDING = 12'h0B0;
localparam [11:0] IO_ASYNC_EV      = 12'h0B4;
localparam [11:0] IO_ASYNC_ID      = 12'h0B8;
localparam [11:0] IO_DMA_HOST_LO   = 12'h0C0;
localparam [11:0] IO_DMA_HOST_HI   = 12'h0C4;
localparam [11:0] IO_DMA_LOCAL     = 12'h0C8;
localparam [11:0] IO_DMA_LEN       = 12'h0CC;
localparam [11:0] IO_DMA_CTRL      = 12'h0D0;
localparam [11:0] IO_DMA_STATUS    = 12'h0D4;

/* platform words, BAR0 layouts */
localparam [31:0] IRQ_INFO_C = (NUM_VECTORS % 256) << `FROCE_REG_IRQ_INFO_NUM_VECTORS_SHIFT |
                               (NUM_EQS % 256) << `FROCE_REG_IRQ_INFO_NUM_EQ_SHIFT;
localparam [31:0] UAR_INFO_C = (NUM_UARS % 65536) << `FROCE_REG_UAR_INFO_NUM_PAGES_SHIFT |
                               `FROCE_UAR_PAGE_SHIFT << `FROCE_REG_UAR_INFO_PAGE_SHIFT_SHIFT;
localparam [31:0] NUM_QPS_C = NUM_QPS;
localparam [31:0] NUM_CQS_C = NUM_CQS;
localparam [31:0] NUM_GIDS_C = NUM_GIDS;
localparam [31:0] RD_ATOMIC_MAX_C = RD_ATOMIC_MAX;

initial begin
    if (RAM_ADDR_WIDTH < 2 || RAM_ADDR_WIDTH > 20) begin
        $display("froce_fw: RAM_ADDR_WIDTH must be 2..20");
        $finish;
    end
    if (`FROCE_CTL_SPAN > (1 << 25)) begin
        $display("froce_fw: FROCE_CTL_SPAN does not fit the 23-bit m_ctl_addr");
        $finish;
    end
end

generate
    if (RAM_ADDR_WIDTH < 2 || RAM_ADDR_WIDTH > 20 || `FROCE_CTL_SPAN > (1 << 25)) begin : g_bad_parameter
        froce_fw_bad_parameter u_bad_parameter ();
    end
endgenerate

// ---------------------------------------------------------------------------
// The core
// ---------------------------------------------------------------------------

wire        ibus_req_valid;
wire [31:0] ibus_req_addr;
wire [31:0] ibus_rsp_rdata;
wire        dbus_req_valid;
wire        dbus_req_ready;
wire [31:0] dbus_req_addr;
wire        dbus_req_we;
wire [3:0]  dbus_req_be;
wire [31:0] dbus_req_wdata;
wire        dbus_rsp_valid;
wire [31:0] dbus_rsp_rdata;
wire        dbus_rsp_err;
wire        irq_external, irq_timer;

reg i_rsp_reg = 1'b0;
reg i_err_reg = 1'b0;

wire        unused_trace_valid, unused_trace_trap, unused_trace_store;
wire [31:0] unused_trace_pc, unused_trace_insn, unused_trace_cause, unused_trace_rd_wdata;
wire [31:0] unused_trace_store_addr, unused_trace_store_wdata;
wire [4:0]  unused_trace_rd;
wire [3:0]  unused_trace_store_be;

froce_cpu u_cpu (
    .clk(clk),
    .rst(rst),
    .boot_addr(32'd0),
    .ibus_req_valid(ibus_req_valid),
    .ibus_req_ready(1'b1),
    .ibus_req_addr(ibus_req_addr),
    .ibus_rsp_valid(i_rsp_reg),
    .ibus_rsp_rdata(ibus_rsp_rdata),
    .ibus_rsp_err(i_err_reg),
    .dbus_req_valid(dbus_req_valid),
    .dbus_req_ready(dbus_req_ready),
    .dbus_req_addr(dbus_req_addr),
    .dbus_req_we(dbus_req_we),
    .dbus_req_be(dbus_req_be),
    .dbus_req_wdata(dbus_req_wdata),
    .dbus_rsp_valid(dbus_rsp_valid),
    .dbus_rsp_rdata(dbus_rsp_rdata),
    .dbus_rsp_err(dbus_rsp_err),
    .irq_external(irq_external),
    .irq_timer(irq_timer),
    .trace_valid(unused_trace_valid),
    .trace_pc(unused_trace_pc),
    .trace_insn(unused_trace_insn),
    .trace_trap(unused_trace_trap),
    .trace_cause(unused_trace_cause),
    .trace_rd(unused_trace_rd),
    .trace_rd_wdata(unused_trace_rd_wdata),
    .trace_store(unused_trace_store),
    .trace_store_addr(unused_trace_store_addr),
    .trace_store_be(unused_trace_store_be),
    .trace_store_wdata(unused_trace_store_wdata)
);

// ---------------------------------------------------------------------------
// Fetch: RAM only, answered the next cycle
// ---------------------------------------------------------------------------

wire i_hit_ram = ibus_req_addr[31:RB] == {(32-RB){1'b0}};
wire [1:0] unused_ibus_addr = ibus_req_addr[1:0];  // word aligned

always @(posedge clk) begin
    i_rsp_reg <= ibus_req_valid;
    i_err_reg <= ibus_req_valid && !i_hit_ram;
    if (rst) begin
        i_rsp_reg <= 1'b0;
        i_err_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------
// Data-bus decode
// ---------------------------------------------------------------------------

wire dma_busy;
wire d_word = dbus_req_be == 4'hF;
wire d_hit_ram = dbus_req_addr[31:RB] == {(32-RB){1'b0}};
wire d_hit_ctl = dbus_req_addr[31:28] == 4'h1 && d_word && dbus_req_addr[27:0] < CTL_SPAN_C;
wire d_hit_io = dbus_req_addr[31:12] == 20'h20000 && d_word;
wire d_hit_err = !d_hit_ram && !d_hit_ctl && !d_hit_io;

reg ctl_valid_reg = 1'b0;                           // m_ctl request outstanding
reg ctl_wait_reg = 1'b0;                            // a read accepted, waiting for m_ctl_rvalid
reg ctl_write_reg = 1'b0;
reg [22:0] ctl_addr_reg = 23'd0;
reg [31:0] ctl_wdata_reg = 32'd0;

// the core has one data request in flight, so the control master is idle
// whenever a new request comes; the check only keeps one access at a time
assign dbus_req_ready = d_hit_ram ? !dma_busy : d_hit_ctl ? !(ctl_valid_reg || ctl_wait_reg) : 1'b1;

wire d_fire = dbus_req_valid && dbus_req_ready;
wire d_ram = d_fire && d_hit_ram;
wire d_ctl = d_fire && d_hit_ctl;
wire d_io = d_fire && d_hit_io;
wire d_err = d_fire && d_hit_err;
wire io_rd = d_io && !dbus_req_we;
wire io_wr = d_io && dbus_req_we;
wire [11:0] io_off = {dbus_req_addr[11:2], 2'b00};
wire [31:0] wd = dbus_req_wdata;

// ---------------------------------------------------------------------------
// Control-bus master (registered request, one access at a time)
// ---------------------------------------------------------------------------

wire ctl_fire = ctl_valid_reg && m_ctl_ready;

always @(posedge clk) begin
    if (ctl_fire) begin
        ctl_valid_reg <= 1'b0;
        ctl_wait_reg <= !ctl_write_reg;
    end
    if (ctl_wait_reg && m_ctl_rvalid)
        ctl_wait_reg <= 1'b0;
    if (d_ctl) begin
        ctl_valid_reg <= 1'b1;
        ctl_write_reg <= dbus_req_we;
        ctl_addr_reg <= dbus_req_addr[24:2];
        ctl_wdata_reg <= dbus_req_wdata;
    end
    if (rst) begin
        ctl_valid_reg <= 1'b0;
        ctl_wait_reg <= 1'b0;
    end
end

assign m_ctl_valid = ctl_valid_reg;
assign m_ctl_write = ctl_write_reg;
assign m_ctl_addr = ctl_addr_reg;
assign m_ctl_wdata = ctl_wdata_reg;

// ---------------------------------------------------------------------------
// Peripherals
// ---------------------------------------------------------------------------

/* mailbox */
reg cmd_pending_reg = 1'b0;
reg [31:0] cmd_db_reg = 32'd0;
reg [63:0] cmd_addr_reg = 64'd0;
reg [31:0] cmd_status_reg = 32'd0;

/* device status, console */
reg [31:0] fw_version_reg = 32'd0;
reg dev_ready_reg = 1'b0;
reg [31:0] heartbeat_reg = 32'd0;
reg console_valid_reg = 1'b0;
reg [7:0] console_data_reg = 8'd0;

/* millisecond tick */
reg [TW-1:0] tick_cnt_reg = {TW{1'b0}};
reg tick_reg = 1'b0;

/* port: staged by MAC_LO/HI and MTU, committed by FLAGS */
reg [47:0] st_mac_reg = MAC;
reg [15:0] st_mtu_reg = 16'd1500;
reg [47:0] port_mac_reg = MAC;
reg [15:0] port_mtu_reg = 16'd1500;
reg [1:0] port_flags_reg = 2'b00;
reg port_we_reg = 1'b0;

/* EQE post */
reg [95:0] eq_dw_reg = 96'd0;
reg [5:0] eq_eqn_reg = 6'd0;
reg eq_valid_reg = 1'b0;                            // m_eqe_valid
reg eq_wait_reg = 1'b0;                             // accepted, waiting for s_eqe_done
reg eq_dropped_reg = 1'b0;
wire eq_busy = eq_valid_reg || eq_wait_reg;
wire eq_fire = eq_valid_reg && m_eqe_ready;

/* DMA operands */
reg [63:0] dma_host_reg = 64'd0;
reg [31:0] dma_local_reg = 32'd0;
reg [31:0] dma_len_reg = 32'd0;
wire dma_error;
wire dma_start = io_wr && io_off == IO_DMA_CTRL && wd[0];

/* engine events */
wire as_full, as_empty;
wire [39:0] as_head;
wire [4:0] unused_as_count;
wire as_pop = io_rd && io_off == IO_ASYNC_ID && !as_empty;

assign s_async_ready = !as_full;

froce_fifo #(
    .WIDTH(40),
    .DEPTH(16)
) u_async_fifo (
    .clk(clk),
    .rst(rst),
    .wr_data({s_async_id, s_async_subtype, s_async_type}),
    .wr_en(s_async_valid),
    .rd_data(as_head),
    .rd_en(as_pop),
    .count(unused_as_count),
    .empty(as_empty),
    .full(as_full)
);

/* register reads */
reg [31:0] io_rdata;
always @* begin
    io_rdata = 32'd0;
    case (io_off)
        IO_CMD_PENDING:   io_rdata[0] = cmd_pending_reg;
        IO_CMD_DB:        io_rdata = cmd_db_reg;
        IO_CMD_ADDR_LO:   io_rdata = cmd_addr_reg[31:0];
        IO_CMD_ADDR_HI:   io_rdata = cmd_addr_reg[63:32];
        IO_MS_TICK:       io_rdata[0] = tick_reg;
        IO_LINK_STATUS:   io_rdata = link_status;
        IO_NUM_QPS:       io_rdata = NUM_QPS_C;
        IO_NUM_CQS:       io_rdata = NUM_CQS_C;
        IO_IRQ_INFO:      io_rdata = IRQ_INFO_C;
        IO_NUM_GIDS:      io_rdata = NUM_GIDS_C;
        IO_UAR_INFO:      io_rdata = UAR_INFO_C;
        IO_RD_ATOMIC_MAX: io_rdata = RD_ATOMIC_MAX_C;
        IO_PERM_MAC_LO:   io_rdata = MAC[31:0];
        IO_PERM_MAC_HI:   io_rdata[15:0] = MAC[47:32];
        IO_EQ_STATUS:     io_rdata[1:0] = {eq_dropped_reg, eq_busy};
        IO_ASYNC_PENDING: io_rdata[0] = !as_empty;
        IO_ASYNC_EV:      io_rdata[15:0] = as_empty ? 16'd0 : as_head[15:0];
        IO_ASYNC_ID:      io_rdata[23:0] = as_empty ? 24'd0 : as_head[39:16];
        IO_DMA_STATUS:    io_rdata[1:0] = {dma_error, dma_busy};
        default:          io_rdata = 32'd0;
    endcase
end

always @(posedge clk) begin
    console_valid_reg <= 1'b0;
    port_we_reg <= 1'b0;

    // mailbox: a doorbell wins over a read of CMD_DB in the same cycle
    if (io_rd && io_off == IO_CMD_DB)
        cmd_pending_reg <= 1'b0;
    if (mbox_db_valid) begin
        cmd_pending_reg <= 1'b1;
        cmd_db_reg <= mbox_db_value;
        cmd_addr_reg <= mbox_addr;
    end

    // millisecond tick: a tick wins over a read of MS_TICK in the same cycle
    if (io_rd && io_off == IO_MS_TICK)
        tick_reg <= 1'b0;
    if (tick_cnt_reg == TICK_LAST) begin
        tick_cnt_reg <= {TW{1'b0}};
        tick_reg <= 1'b1;
    end else begin
        tick_cnt_reg <= tick_cnt_reg + 1'b1;
    end

    // EQE post
    if (eq_fire) begin
        eq_valid_reg <= 1'b0;
        eq_wait_reg <= 1'b1;
    end
    if (s_eqe_done && (eq_wait_reg || eq_fire)) begin
        eq_wait_reg <= 1'b0;
        eq_dropped_reg <= s_eqe_dropped;
    end

    if (io_wr) begin
        case (io_off)
            IO_CONSOLE: begin
                console_valid_reg <= 1'b1;
                console_data_reg <= wd[7:0];
            end
            IO_CMD_STATUS:  cmd_status_reg <= wd;
            IO_FW_VERSION:  fw_version_reg <= wd;
            IO_DEV_READY:   dev_ready_reg <= wd[0];
            IO_HEARTBEAT:   heartbeat_reg <= wd;
            IO_PORT_MAC_LO: st_mac_reg[31:0] <= wd;
            IO_PORT_MAC_HI: st_mac_reg[47:32] <= wd[15:0];
            IO_PORT_MTU:    st_mtu_reg <= wd[15:0];
            IO_PORT_FLAGS: begin
                port_mac_reg <= st_mac_reg;
                port_mtu_reg <= st_mtu_reg;
                port_flags_reg <= wd[1:0];
                port_we_reg <= 1'b1;
            end
            IO_EQ_DW0:      if (!eq_busy) eq_dw_reg[31:0] <= wd;
            IO_EQ_DW1:      if (!eq_busy) eq_dw_reg[63:32] <= wd;
            IO_EQ_DW2:      if (!eq_busy) eq_dw_reg[95:64] <= wd;
            IO_EQ_POST: begin
                if (!eq_busy) begin
                    eq_eqn_reg <= wd[5:0];
                    eq_valid_reg <= 1'b1;
                    eq_dropped_reg <= 1'b0;
                end
            end
            IO_DMA_HOST_LO: dma_host_reg[31:0] <= wd;
            IO_DMA_HOST_HI: dma_host_reg[63:32] <= wd;
            IO_DMA_LOCAL:   dma_local_reg <= wd;
            IO_DMA_LEN:     dma_len_reg <= wd;
            default: ;
        endcase
    end

    if (rst) begin
        cmd_pending_reg <= 1'b0;
        cmd_db_reg <= 32'd0;
        cmd_addr_reg <= 64'd0;
        cmd_status_reg <= 32'd0;
        fw_version_reg <= 32'd0;
        dev_ready_reg <= 1'b0;
        heartbeat_reg <= 32'd0;
        console_valid_reg <= 1'b0;
        tick_cnt_reg <= {TW{1'b0}};
        tick_reg <= 1'b0;
        st_mac_reg <= MAC;
        st_mtu_reg <= 16'd1500;
        port_mac_reg <= MAC;
        port_mtu_reg <= 16'd1500;
        port_flags_reg <= 2'b00;
        port_we_reg <= 1'b0;
        eq_valid_reg <= 1'b0;
        eq_wait_reg <= 1'b0;
        eq_dropped_reg <= 1'b0;
    end
end

assign cmd_status = cmd_status_reg;
assign fw_version = fw_version_reg;
assign dev_ready = dev_ready_reg;
assign heartbeat = heartbeat_reg;
assign console_valid = console_valid_reg;
assign console_data = console_data_reg;
assign port_mac = port_mac_reg;
assign port_mtu = port_mtu_reg;
assign port_promisc = port_flags_reg[0];
assign port_allmulti = port_flags_reg[1];
assign port_cfg_we = port_we_reg;
assign m_eqe_valid = eq_valid_reg;
assign m_eqe_eqn = eq_eqn_reg;
assign m_eqe_dw = eq_dw_reg;

assign irq_external = cmd_pending_reg || !as_empty;
assign irq_timer = tick_reg;

// ---------------------------------------------------------------------------
// Data-bus responses: all from registers, one per request
// ---------------------------------------------------------------------------

reg ram_rsp_reg = 1'b0;
reg rsp_reg = 1'b0;
reg rsp_err_reg = 1'b0;
reg [31:0] rsp_rdata_reg = 32'd0;
wire [31:0] ram_b_rdata;

always @(posedge clk) begin
    ram_rsp_reg <= d_ram;
    rsp_reg <= d_io || d_err || (ctl_fire && ctl_write_reg) || (ctl_wait_reg && m_ctl_rvalid);
    rsp_err_reg <= d_err;
    if (d_io)
        rsp_rdata_reg <= io_rdata;
    else if (ctl_wait_reg && m_ctl_rvalid)
        rsp_rdata_reg <= m_ctl_rdata;
    if (rst) begin
        ram_rsp_reg <= 1'b0;
        rsp_reg <= 1'b0;
        rsp_err_reg <= 1'b0;
    end
end

assign dbus_rsp_valid = ram_rsp_reg || rsp_reg;
assign dbus_rsp_rdata = ram_rsp_reg ? ram_b_rdata : rsp_rdata_reg;
assign dbus_rsp_err = rsp_err_reg;

// ---------------------------------------------------------------------------
// RAM: port A fetches, port B the core's data or the DMA engine
// ---------------------------------------------------------------------------

wire dma_ram_en, dma_ram_we;
wire [RAM_ADDR_WIDTH-1:0] dma_ram_addr;
wire [31:0] dma_ram_wdata;

froce_cpu_ram #(
    .ADDR_WIDTH(RAM_ADDR_WIDTH),
    .INIT_FILE(INIT_FILE)
) u_ram (
    .clk(clk),
    .a_en(ibus_req_valid && i_hit_ram),
    .a_addr(ibus_req_addr[RB-1:2]),
    .a_rdata(ibus_rsp_rdata),
    .b_en(dma_busy ? dma_ram_en : d_ram),
    .b_we(dma_busy ? {4{dma_ram_we}} : (dbus_req_we ? dbus_req_be : 4'd0)),
    .b_addr(dma_busy ? dma_ram_addr : dbus_req_addr[RB-1:2]),
    .b_wdata(dma_busy ? dma_ram_wdata : dbus_req_wdata),
    .b_rdata(ram_b_rdata)
);

// ---------------------------------------------------------------------------
// DMA engine
// ---------------------------------------------------------------------------

froce_fw_dma #(
    .DATA_WIDTH(DATA_WIDTH),
    .RAM_ADDR_WIDTH(RAM_ADDR_WIDTH)
) u_dma (
    .clk(clk),
    .rst(rst),
    .start(dma_start),
    .dir(wd[1]),
    .host_addr(dma_host_reg),
    .local_addr(dma_local_reg),
    .len(dma_len_reg),
    .busy(dma_busy),
    .error(dma_error),
    .ram_en(dma_ram_en),
    .ram_we(dma_ram_we),
    .ram_addr(dma_ram_addr),
    .ram_wdata(dma_ram_wdata),
    .ram_rdata(ram_b_rdata),
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
    .m_axi_rready(m_axi_rready),
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
    .m_axi_bready(m_axi_bready)
);

endmodule

`resetall
