// SPDX-License-Identifier: MIT
// Bench top for the UART host link: froce_uart_host (the bridge and the RAM), BAR0/BAR2 and the DMA master left to the cocotb models.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * uart_rxd/uart_txd: the bench's UART model (the host side).
 * m_axil_*: BAR0 (an AxiLiteRam model); m_axil_db_*: BAR2 (write-only
 * AxiLiteRam model). s_axi_*: froce_axi_ram's AXI slave, driven by an
 * AxiMaster in place of froce_core's DMA. irq_*: in place of m_msix_*.
 * tb_b0_resp_or / tb_db_resp_or are OR-ed into the BAR0 BRESP/RRESP and
 * the BAR2 BRESP the bridge sees, so that the bench can return DECERR.
 *
 * The clock is generated here, not by cocotb: a Python clock costs about
 * five times the simulation of the design itself, and the models sleep
 * while their buses are idle, so the UART's long idle stretches run at
 * Icarus speed. The bench reaches it as dut.clk.
 */
module tb_froce_uart_link #(
    parameter CLK_HZ = 100000000,
    parameter BAUD = 12500000,
    parameter BAR0_ADDR_WIDTH = 14,
    parameter BAR2_ADDR_WIDTH = 20,
    parameter MEM_ADDR_WIDTH = 16,
    parameter [63:0] MEM_BASE = 64'h0000001234560000,
    parameter NUM_VECTORS = 32,
    parameter TIMEOUT_CYCLES = 4000,
    parameter RX_FIFO_DEPTH = 512,
    parameter ID_WIDTH = 4,
    parameter [31:0] USER_ID = 32'hC0FFEE01,
    parameter CLK_PERIOD_PS = 10000             // the bench clock (1e12 / CLK_HZ)
) (
    input  wire                         rst,

    input  wire                         uart_rxd,
    output wire                         uart_txd,

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

    input  wire [1:0]                   tb_b0_resp_or,
    input  wire [1:0]                   tb_db_resp_or,

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

    input  wire                         irq_valid,
    input  wire [4:0]                   irq_vector,
    output wire                         irq_ready,

    /* the bridge's RAM port, for the bench's monitors */
    output wire                         mem_req,
    output wire                         mem_we
);

reg clk = 1'b0;
always #(CLK_PERIOD_PS / 2000.0) clk = !clk;

froce_uart_host #(
    .CLK_HZ(CLK_HZ),
    .BAUD(BAUD),
    .BAR0_ADDR_WIDTH(BAR0_ADDR_WIDTH),
    .BAR2_ADDR_WIDTH(BAR2_ADDR_WIDTH),
    .MEM_ADDR_WIDTH(MEM_ADDR_WIDTH),
    .MEM_BASE(MEM_BASE),
    .NUM_VECTORS(NUM_VECTORS),
    .TIMEOUT_CYCLES(TIMEOUT_CYCLES),
    .RX_FIFO_DEPTH(RX_FIFO_DEPTH),
    .ID_WIDTH(ID_WIDTH),
    .USER_ID(USER_ID)
) u_host (
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
    .m_axil_bresp(m_axil_bresp | tb_b0_resp_or),
    .m_axil_bvalid(m_axil_bvalid),
    .m_axil_bready(m_axil_bready),
    .m_axil_araddr(m_axil_araddr),
    .m_axil_arvalid(m_axil_arvalid),
    .m_axil_arready(m_axil_arready),
    .m_axil_rdata(m_axil_rdata),
    .m_axil_rresp(m_axil_rresp | tb_b0_resp_or),
    .m_axil_rvalid(m_axil_rvalid),
    .m_axil_rready(m_axil_rready),
    .m_axil_db_awaddr(m_axil_db_awaddr),
    .m_axil_db_awvalid(m_axil_db_awvalid),
    .m_axil_db_awready(m_axil_db_awready),
    .m_axil_db_wdata(m_axil_db_wdata),
    .m_axil_db_wstrb(m_axil_db_wstrb),
    .m_axil_db_wvalid(m_axil_db_wvalid),
    .m_axil_db_wready(m_axil_db_wready),
    .m_axil_db_bresp(m_axil_db_bresp | tb_db_resp_or),
    .m_axil_db_bvalid(m_axil_db_bvalid),
    .m_axil_db_bready(m_axil_db_bready),
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
    .irq_valid(irq_valid),
    .irq_vector(irq_vector),
    .irq_ready(irq_ready)
);

assign mem_req = u_host.mem_req;
assign mem_we = u_host.mem_we;

endmodule

`resetall
