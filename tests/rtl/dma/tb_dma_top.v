// SPDX-License-Identifier: MIT
// Bench top for the Verilator C++ bench: the DMA read and write engines side by side on one AXI4 master port.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_dma_top #(
    parameter DATA_WIDTH = 64,          // AXI and stream data width in bits
    parameter TAG_WIDTH = 8,            // descriptor tag width
    parameter MAX_BURST_BEATS = 256,    // longest burst in beats
    parameter MAX_OUTSTANDING = 8,      // bursts in flight per engine
    parameter BUF_DEPTH = 65536 / DATA_WIDTH    // read data buffer in beats
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Read engine: descriptor, status, data */
    input  wire [63:0]                  s_rd_desc_addr,
    input  wire [15:0]                  s_rd_desc_len,
    input  wire [TAG_WIDTH-1:0]         s_rd_desc_tag,
    input  wire                         s_rd_desc_valid,
    output wire                         s_rd_desc_ready,
    output wire [TAG_WIDTH-1:0]         m_rd_status_tag,
    output wire [3:0]                   m_rd_status_error,
    output wire                         m_rd_status_valid,
    input  wire                         m_rd_status_ready,
    output wire [DATA_WIDTH-1:0]        m_rd_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_rd_axis_tkeep,
    output wire                         m_rd_axis_tvalid,
    input  wire                         m_rd_axis_tready,
    output wire                         m_rd_axis_tlast,
    output wire [TAG_WIDTH-1:0]         m_rd_axis_tid,

    /* Write engine: descriptor, data, status */
    input  wire [63:0]                  s_wr_desc_addr,
    input  wire [15:0]                  s_wr_desc_len,
    input  wire [TAG_WIDTH-1:0]         s_wr_desc_tag,
    input  wire                         s_wr_desc_valid,
    output wire                         s_wr_desc_ready,
    input  wire [DATA_WIDTH-1:0]        s_wr_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_wr_axis_tkeep,
    input  wire                         s_wr_axis_tvalid,
    output wire                         s_wr_axis_tready,
    input  wire                         s_wr_axis_tlast,
    output wire [TAG_WIDTH-1:0]         m_wr_status_tag,
    output wire [3:0]                   m_wr_status_error,
    output wire                         m_wr_status_valid,
    input  wire                         m_wr_status_ready,

    /* AXI4 master */
    output wire [3:0]                   m_axi_arid,
    output wire [63:0]                  m_axi_araddr,
    output wire [7:0]                   m_axi_arlen,
    output wire [2:0]                   m_axi_arsize,
    output wire [1:0]                   m_axi_arburst,
    output wire                         m_axi_arlock,
    output wire [3:0]                   m_axi_arcache,
    output wire [2:0]                   m_axi_arprot,
    output wire                         m_axi_arvalid,
    input  wire                         m_axi_arready,
    input  wire [3:0]                   m_axi_rid,
    input  wire [DATA_WIDTH-1:0]        m_axi_rdata,
    input  wire [1:0]                   m_axi_rresp,
    input  wire                         m_axi_rlast,
    input  wire                         m_axi_rvalid,
    output wire                         m_axi_rready,
    output wire [3:0]                   m_axi_awid,
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
    input  wire [3:0]                   m_axi_bid,
    input  wire [1:0]                   m_axi_bresp,
    input  wire                         m_axi_bvalid,
    output wire                         m_axi_bready
);

froce_dma_rd #(
    .DATA_WIDTH(DATA_WIDTH),
    .TAG_WIDTH(TAG_WIDTH),
    .AXI_ID_WIDTH(4),
    .MAX_BURST_BEATS(MAX_BURST_BEATS),
    .MAX_OUTSTANDING(MAX_OUTSTANDING),
    .BUF_DEPTH(BUF_DEPTH),
    .REQ_DEPTH(16)
) rd_inst (
    .clk(clk),
    .rst(rst),
    .s_rd_desc_addr(s_rd_desc_addr),
    .s_rd_desc_len(s_rd_desc_len),
    .s_rd_desc_tag(s_rd_desc_tag),
    .s_rd_desc_valid(s_rd_desc_valid),
    .s_rd_desc_ready(s_rd_desc_ready),
    .m_rd_status_tag(m_rd_status_tag),
    .m_rd_status_error(m_rd_status_error),
    .m_rd_status_valid(m_rd_status_valid),
    .m_rd_status_ready(m_rd_status_ready),
    .m_rd_axis_tdata(m_rd_axis_tdata),
    .m_rd_axis_tkeep(m_rd_axis_tkeep),
    .m_rd_axis_tvalid(m_rd_axis_tvalid),
    .m_rd_axis_tready(m_rd_axis_tready),
    .m_rd_axis_tlast(m_rd_axis_tlast),
    .m_rd_axis_tid(m_rd_axis_tid),
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

froce_dma_wr #(
    .DATA_WIDTH(DATA_WIDTH),
    .TAG_WIDTH(TAG_WIDTH),
    .AXI_ID_WIDTH(4),
    .MAX_BURST_BEATS(MAX_BURST_BEATS),
    .MAX_OUTSTANDING(MAX_OUTSTANDING),
    .REQ_DEPTH(16)
) wr_inst (
    .clk(clk),
    .rst(rst),
    .s_wr_desc_addr(s_wr_desc_addr),
    .s_wr_desc_len(s_wr_desc_len),
    .s_wr_desc_tag(s_wr_desc_tag),
    .s_wr_desc_valid(s_wr_desc_valid),
    .s_wr_desc_ready(s_wr_desc_ready),
    .s_wr_axis_tdata(s_wr_axis_tdata),
    .s_wr_axis_tkeep(s_wr_axis_tkeep),
    .s_wr_axis_tvalid(s_wr_axis_tvalid),
    .s_wr_axis_tready(s_wr_axis_tready),
    .s_wr_axis_tlast(s_wr_axis_tlast),
    .m_wr_status_tag(m_wr_status_tag),
    .m_wr_status_error(m_wr_status_error),
    .m_wr_status_valid(m_wr_status_valid),
    .m_wr_status_ready(m_wr_status_ready),
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
