// SPDX-License-Identifier: MIT
// Host side of a PCIe-less froce board: the UART host bridge and the host-memory RAM, with the ports froce_core's BAR0, BAR2, DMA master and MSI-X connect to.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * froce_uart_host_bridge + froce_axi_ram, wired as a board needs them
 * (fpga/common/host/README.md):
 *
 *   uart_rxd/uart_txd  <-> the USB UART (ECPIX-5: FT2232H channel B)
 *   m_axil_*           ->  froce_core s_axil_*     (BAR0, 32-bit)
 *   m_axil_db_*        ->  froce_core s_axil_db_*  (BAR2 doorbells, 64-bit, write only)
 *   s_axi_*            <-  froce_core m_axi_*      (DMA: host memory, 64-bit)
 *   irq_*              <-  froce_core m_msix_*     (interrupts, always ready)
 *
 * The DMA master sees the RAM at [MEM_BASE, MEM_BASE + 2^MEM_ADDR_WIDTH);
 * the host reads and writes the same bytes through the bridge, with the
 * same addresses. Everything runs on clk (froce_core's clock).
 */
module froce_uart_host #(
    parameter CLK_HZ = 100000000,               // clk frequency in Hz
    parameter BAUD = 3000000,                   // UART bit rate; CLK_HZ >= 4 * BAUD
    parameter BAR0_ADDR_WIDTH = 14,             // froce_core FROCE_BAR0_ADDR_W
    parameter BAR2_ADDR_WIDTH = 20,             // froce_core DB_ADDR_W
    parameter MEM_ADDR_WIDTH = 16,              // host memory 2^N bytes, 12..24 (16: 64 KiB, 32 DP16KD)
    parameter [63:0] MEM_BASE = 64'h0,          // its DMA address, aligned to its size
    parameter NUM_VECTORS = 32,                 // froce_core NUM_VECTORS, 1..32
    parameter TIMEOUT_CYCLES = CLK_HZ / 100,    // idle cycles that end a partial request (10 ms)
    parameter RX_FIFO_DEPTH = 512,              // UART receive FIFO bytes
    parameter ID_WIDTH = 4,                     // froce_core AXI_ID_WIDTH
    parameter [31:0] USER_ID = 32'd0            // INFO USER_ID (e.g. froce_core BUILD_ID)
) (
    input  wire                         clk,
    input  wire                         rst,

    /* UART */
    input  wire                         uart_rxd,
    output wire                         uart_txd,

    /* AXI4-Lite master: BAR0 */
    output wire [BAR0_ADDR_WIDTH-1:0]   m_axil_awaddr,
    output wire                         m_axil_awvalid,
    input  wire                         m_axil_awready,
    output wire [31:0]                  m_axil_wdata,
    output wire [3:0]                   m_axil_wstrb,
    output wire                         m_axil_wvalid,
    input  wire                         m_axil_wready,
    input  wire [1:0]                   m_axil_bresp,
    input  wire                         m_axil_bvalid,
    output wire                         m_axil_bready,
    output wire [BAR0_ADDR_WIDTH-1:0]   m_axil_araddr,
    output wire                         m_axil_arvalid,
    input  wire                         m_axil_arready,
    input  wire [31:0]                  m_axil_rdata,
    input  wire [1:0]                   m_axil_rresp,
    input  wire                         m_axil_rvalid,
    output wire                         m_axil_rready,

    /* AXI4-Lite master, write only: BAR2 doorbells */
    output wire [BAR2_ADDR_WIDTH-1:0]   m_axil_db_awaddr,
    output wire                         m_axil_db_awvalid,
    input  wire                         m_axil_db_awready,
    output wire [63:0]                  m_axil_db_wdata,
    output wire [7:0]                   m_axil_db_wstrb,
    output wire                         m_axil_db_wvalid,
    input  wire                         m_axil_db_wready,
    input  wire [1:0]                   m_axil_db_bresp,
    input  wire                         m_axil_db_bvalid,
    output wire                         m_axil_db_bready,

    /* AXI4 slave: host memory for the DMA master */
    input  wire [ID_WIDTH-1:0]          s_axi_awid,
    input  wire [63:0]                  s_axi_awaddr,
    input  wire [7:0]                   s_axi_awlen,
    input  wire [2:0]                   s_axi_awsize,
    input  wire [1:0]                   s_axi_awburst,
    input  wire                         s_axi_awlock,
    input  wire [3:0]                   s_axi_awcache,
    input  wire [2:0]                   s_axi_awprot,
    input  wire                         s_axi_awvalid,
    output wire                         s_axi_awready,
    input  wire [63:0]                  s_axi_wdata,
    input  wire [7:0]                   s_axi_wstrb,
    input  wire                         s_axi_wlast,
    input  wire                         s_axi_wvalid,
    output wire                         s_axi_wready,
    output wire [ID_WIDTH-1:0]          s_axi_bid,
    output wire [1:0]                   s_axi_bresp,
    output wire                         s_axi_bvalid,
    input  wire                         s_axi_bready,
    input  wire [ID_WIDTH-1:0]          s_axi_arid,
    input  wire [63:0]                  s_axi_araddr,
    input  wire [7:0]                   s_axi_arlen,
    input  wire [2:0]                   s_axi_arsize,
    input  wire [1:0]                   s_axi_arburst,
    input  wire                         s_axi_arlock,
    input  wire [3:0]                   s_axi_arcache,
    input  wire [2:0]                   s_axi_arprot,
    input  wire                         s_axi_arvalid,
    output wire                         s_axi_arready,
    output wire [ID_WIDTH-1:0]          s_axi_rid,
    output wire [63:0]                  s_axi_rdata,
    output wire [1:0]                   s_axi_rresp,
    output wire                         s_axi_rlast,
    output wire                         s_axi_rvalid,
    input  wire                         s_axi_rready,

    /* Interrupt requests */
    input  wire                         irq_valid,
    input  wire [4:0]                   irq_vector,
    output wire                         irq_ready
);

wire mem_req;
wire mem_we;
wire [MEM_ADDR_WIDTH-4:0] mem_addr;
wire [63:0] mem_wdata;
wire [7:0] mem_wstrb;
wire mem_ack;
wire mem_rvalid;
wire [63:0] mem_rdata;

froce_uart_host_bridge #(
    .CLK_HZ(CLK_HZ),
    .BAUD(BAUD),
    .BAR0_ADDR_WIDTH(BAR0_ADDR_WIDTH),
    .BAR2_ADDR_WIDTH(BAR2_ADDR_WIDTH),
    .MEM_ADDR_WIDTH(MEM_ADDR_WIDTH),
    .MEM_BASE(MEM_BASE),
    .NUM_VECTORS(NUM_VECTORS),
    .TIMEOUT_CYCLES(TIMEOUT_CYCLES),
    .RX_FIFO_DEPTH(RX_FIFO_DEPTH),
    .USER_ID(USER_ID)
) u_bridge (
    .clk(clk),
    .rst(rst),
    .uart_rxd(uart_rxd),
    .uart_txd(uart_txd),
    .m_axil_awaddr(m_axil_awaddr),
    .m_axil_awvalid(m_axil_awvalid),
    .m_axil_awready(m_axil_awready),
    .m_axil_wdata(m_axil_wdata),
    .m_axil_wstrb(m_axil_wstrb),
    .m_axil_wvalid(m_axil_wvalid),
    .m_axil_wready(m_axil_wready),
    .m_axil_bresp(m_axil_bresp),
    .m_axil_bvalid(m_axil_bvalid),
    .m_axil_bready(m_axil_bready),
    .m_axil_araddr(m_axil_araddr),
    .m_axil_arvalid(m_axil_arvalid),
    .m_axil_arready(m_axil_arready),
    .m_axil_rdata(m_axil_rdata),
    .m_axil_rresp(m_axil_rresp),
    .m_axil_rvalid(m_axil_rvalid),
    .m_axil_rready(m_axil_rready),
    .m_axil_db_awaddr(m_axil_db_awaddr),
    .m_axil_db_awvalid(m_axil_db_awvalid),
    .m_axil_db_awready(m_axil_db_awready),
    .m_axil_db_wdata(m_axil_db_wdata),
    .m_axil_db_wstrb(m_axil_db_wstrb),
    .m_axil_db_wvalid(m_axil_db_wvalid),
    .m_axil_db_wready(m_axil_db_wready),
    .m_axil_db_bresp(m_axil_db_bresp),
    .m_axil_db_bvalid(m_axil_db_bvalid),
    .m_axil_db_bready(m_axil_db_bready),
    .m_mem_req(mem_req),
    .m_mem_we(mem_we),
    .m_mem_addr(mem_addr),
    .m_mem_wdata(mem_wdata),
    .m_mem_wstrb(mem_wstrb),
    .m_mem_ack(mem_ack),
    .m_mem_rvalid(mem_rvalid),
    .m_mem_rdata(mem_rdata),
    .irq_valid(irq_valid),
    .irq_vector(irq_vector),
    .irq_ready(irq_ready)
);

froce_axi_ram #(
    .ADDR_WIDTH(64),
    .ID_WIDTH(ID_WIDTH),
    .MEM_ADDR_WIDTH(MEM_ADDR_WIDTH),
    .MEM_BASE(MEM_BASE)
) u_ram (
    .clk(clk),
    .rst(rst),
    .s_axi_awid(s_axi_awid),
    .s_axi_awaddr(s_axi_awaddr),
    .s_axi_awlen(s_axi_awlen),
    .s_axi_awsize(s_axi_awsize),
    .s_axi_awburst(s_axi_awburst),
    .s_axi_awlock(s_axi_awlock),
    .s_axi_awcache(s_axi_awcache),
    .s_axi_awprot(s_axi_awprot),
    .s_axi_awvalid(s_axi_awvalid),
    .s_axi_awready(s_axi_awready),
    .s_axi_wdata(s_axi_wdata),
    .s_axi_wstrb(s_axi_wstrb),
    .s_axi_wlast(s_axi_wlast),
    .s_axi_wvalid(s_axi_wvalid),
    .s_axi_wready(s_axi_wready),
    .s_axi_bid(s_axi_bid),
    .s_axi_bresp(s_axi_bresp),
    .s_axi_bvalid(s_axi_bvalid),
    .s_axi_bready(s_axi_bready),
    .s_axi_arid(s_axi_arid),
    .s_axi_araddr(s_axi_araddr),
    .s_axi_arlen(s_axi_arlen),
    .s_axi_arsize(s_axi_arsize),
    .s_axi_arburst(s_axi_arburst),
    .s_axi_arlock(s_axi_arlock),
    .s_axi_arcache(s_axi_arcache),
    .s_axi_arprot(s_axi_arprot),
    .s_axi_arvalid(s_axi_arvalid),
    .s_axi_arready(s_axi_arready),
    .s_axi_rid(s_axi_rid),
    .s_axi_rdata(s_axi_rdata),
    .s_axi_rresp(s_axi_rresp),
    .s_axi_rlast(s_axi_rlast),
    .s_axi_rvalid(s_axi_rvalid),
    .s_axi_rready(s_axi_rready),
    .s_mem_req(mem_req),
    .s_mem_we(mem_we),
    .s_mem_addr(mem_addr),
    .s_mem_wdata(mem_wdata),
    .s_mem_wstrb(mem_wstrb),
    .s_mem_ack(mem_ack),
    .s_mem_rvalid(mem_rvalid),
    .s_mem_rdata(mem_rdata)
);

endmodule

`resetall
