// SPDX-License-Identifier: MIT
// Bench top for tb_axi_mux.cpp: three froce_dma_rd and three froce_dma_wr engines sharing one AXI4 port through froce_axi_mux.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Engine i's descriptor, stream and status ports are slice i of the flat
 * vectors below. The master side of the mux (mon_*) is brought out as well,
 * so the bench can check every transfer between each engine and the mux.
 */
module tb_axi_mux_top #(
    parameter N = 3,                    // engines of each kind (tb_axi_mux.cpp drives 3)
    parameter DATA_WIDTH = 64,          // AXI and stream data width in bits
    parameter MAX_BURST_BEATS = 16,     // longest burst per engine
    parameter MAX_OUTSTANDING = 8,      // bursts in flight per engine
    parameter BUF_DEPTH = 64,           // read engine data buffer in beats
    parameter W_FIFO_DEPTH = 8          // mux W order FIFO
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Read engines */
    input  wire [N*64-1:0]              rd_desc_addr,
    input  wire [N*16-1:0]              rd_desc_len,
    input  wire [N*8-1:0]               rd_desc_tag,
    input  wire [N-1:0]                 rd_desc_valid,
    output wire [N-1:0]                 rd_desc_ready,
    output wire [N*8-1:0]               rd_status_tag,
    output wire [N*4-1:0]               rd_status_error,
    output wire [N-1:0]                 rd_status_valid,
    input  wire [N-1:0]                 rd_status_ready,
    output wire [N*DATA_WIDTH-1:0]      rd_axis_tdata,
    output wire [N*DATA_WIDTH/8-1:0]    rd_axis_tkeep,
    output wire [N-1:0]                 rd_axis_tvalid,
    input  wire [N-1:0]                 rd_axis_tready,
    output wire [N-1:0]                 rd_axis_tlast,
    output wire [N*8-1:0]               rd_axis_tid,

    /* Write engines */
    input  wire [N*64-1:0]              wr_desc_addr,
    input  wire [N*16-1:0]              wr_desc_len,
    input  wire [N*8-1:0]               wr_desc_tag,
    input  wire [N-1:0]                 wr_desc_valid,
    output wire [N-1:0]                 wr_desc_ready,
    input  wire [N*DATA_WIDTH-1:0]      wr_axis_tdata,
    input  wire [N-1:0]                 wr_axis_tvalid,
    output wire [N-1:0]                 wr_axis_tready,
    output wire [N*8-1:0]               wr_status_tag,
    output wire [N*4-1:0]               wr_status_error,
    output wire [N-1:0]                 wr_status_valid,
    input  wire [N-1:0]                 wr_status_ready,

    /* Master side of the mux, for the bench's scoreboard */
    output wire [N*4-1:0]               mon_arid,
    output wire [N*64-1:0]              mon_araddr,
    output wire [N*8-1:0]               mon_arlen,
    output wire [N-1:0]                 mon_arvalid,
    output wire [N-1:0]                 mon_arready,
    output wire [N*4-1:0]               mon_rid,
    output wire [N*DATA_WIDTH-1:0]      mon_rdata,
    output wire [N*2-1:0]               mon_rresp,
    output wire [N-1:0]                 mon_rlast,
    output wire [N-1:0]                 mon_rvalid,
    output wire [N-1:0]                 mon_rready,
    output wire [N*4-1:0]               mon_awid,
    output wire [N*64-1:0]              mon_awaddr,
    output wire [N*8-1:0]               mon_awlen,
    output wire [N-1:0]                 mon_awvalid,
    output wire [N-1:0]                 mon_awready,
    output wire [N*DATA_WIDTH-1:0]      mon_wdata,
    output wire [N*DATA_WIDTH/8-1:0]    mon_wstrb,
    output wire [N-1:0]                 mon_wlast,
    output wire [N-1:0]                 mon_wvalid,
    output wire [N-1:0]                 mon_wready,
    output wire [N*4-1:0]               mon_bid,
    output wire [N*2-1:0]               mon_bresp,
    output wire [N-1:0]                 mon_bvalid,
    output wire [N-1:0]                 mon_bready,

    /* AXI4 master to host memory */
    output wire [7:0]                   m_axi_arid,
    output wire [63:0]                  m_axi_araddr,
    output wire [7:0]                   m_axi_arlen,
    output wire [2:0]                   m_axi_arsize,
    output wire [1:0]                   m_axi_arburst,
    output wire                         m_axi_arlock,
    output wire [3:0]                   m_axi_arcache,
    output wire [2:0]                   m_axi_arprot,
    output wire                         m_axi_arvalid,
    input  wire                         m_axi_arready,
    input  wire [7:0]                   m_axi_rid,
    input  wire [DATA_WIDTH-1:0]        m_axi_rdata,
    input  wire [1:0]                   m_axi_rresp,
    input  wire                         m_axi_rlast,
    input  wire                         m_axi_rvalid,
    output wire                         m_axi_rready,
    output wire [7:0]                   m_axi_awid,
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
    input  wire [7:0]                   m_axi_bid,
    input  wire [1:0]                   m_axi_bresp,
    input  wire                         m_axi_bvalid,
    output wire                         m_axi_bready
);

localparam W = DATA_WIDTH / 8;

wire [N*3-1:0] arsize, awsize, arprot, awprot;
wire [N*2-1:0] arburst, awburst;
wire [N-1:0] arlock, awlock;
wire [N*4-1:0] arcache, awcache;

genvar i;
generate
    for (i = 0; i < N; i = i + 1) begin : g_eng
        froce_dma_rd #(
            .DATA_WIDTH(DATA_WIDTH),
            .TAG_WIDTH(8),
            .AXI_ID_WIDTH(4),
            .MAX_BURST_BEATS(MAX_BURST_BEATS),
            .MAX_OUTSTANDING(MAX_OUTSTANDING),
            .BUF_DEPTH(BUF_DEPTH),
            .REQ_DEPTH(16)
        ) rd_inst (
            .clk(clk),
            .rst(rst),
            .s_rd_desc_addr(rd_desc_addr[i*64 +: 64]),
            .s_rd_desc_len(rd_desc_len[i*16 +: 16]),
            .s_rd_desc_tag(rd_desc_tag[i*8 +: 8]),
            .s_rd_desc_valid(rd_desc_valid[i]),
            .s_rd_desc_ready(rd_desc_ready[i]),
            .m_rd_status_tag(rd_status_tag[i*8 +: 8]),
            .m_rd_status_error(rd_status_error[i*4 +: 4]),
            .m_rd_status_valid(rd_status_valid[i]),
            .m_rd_status_ready(rd_status_ready[i]),
            .m_rd_axis_tdata(rd_axis_tdata[i*DATA_WIDTH +: DATA_WIDTH]),
            .m_rd_axis_tkeep(rd_axis_tkeep[i*W +: W]),
            .m_rd_axis_tvalid(rd_axis_tvalid[i]),
            .m_rd_axis_tready(rd_axis_tready[i]),
            .m_rd_axis_tlast(rd_axis_tlast[i]),
            .m_rd_axis_tid(rd_axis_tid[i*8 +: 8]),
            .m_axi_arid(mon_arid[i*4 +: 4]),
            .m_axi_araddr(mon_araddr[i*64 +: 64]),
            .m_axi_arlen(mon_arlen[i*8 +: 8]),
            .m_axi_arsize(arsize[i*3 +: 3]),
            .m_axi_arburst(arburst[i*2 +: 2]),
            .m_axi_arlock(arlock[i]),
            .m_axi_arcache(arcache[i*4 +: 4]),
            .m_axi_arprot(arprot[i*3 +: 3]),
            .m_axi_arvalid(mon_arvalid[i]),
            .m_axi_arready(mon_arready[i]),
            .m_axi_rid(mon_rid[i*4 +: 4]),
            .m_axi_rdata(mon_rdata[i*DATA_WIDTH +: DATA_WIDTH]),
            .m_axi_rresp(mon_rresp[i*2 +: 2]),
            .m_axi_rlast(mon_rlast[i]),
            .m_axi_rvalid(mon_rvalid[i]),
            .m_axi_rready(mon_rready[i])
        );

        froce_dma_wr #(
            .DATA_WIDTH(DATA_WIDTH),
            .TAG_WIDTH(8),
            .AXI_ID_WIDTH(4),
            .MAX_BURST_BEATS(MAX_BURST_BEATS),
            .MAX_OUTSTANDING(MAX_OUTSTANDING),
            .REQ_DEPTH(16)
        ) wr_inst (
            .clk(clk),
            .rst(rst),
            .s_wr_desc_addr(wr_desc_addr[i*64 +: 64]),
            .s_wr_desc_len(wr_desc_len[i*16 +: 16]),
            .s_wr_desc_tag(wr_desc_tag[i*8 +: 8]),
            .s_wr_desc_valid(wr_desc_valid[i]),
            .s_wr_desc_ready(wr_desc_ready[i]),
            .s_wr_axis_tdata(wr_axis_tdata[i*DATA_WIDTH +: DATA_WIDTH]),
            .s_wr_axis_tkeep({W{1'b1}}),
            .s_wr_axis_tvalid(wr_axis_tvalid[i]),
            .s_wr_axis_tready(wr_axis_tready[i]),
            .s_wr_axis_tlast(1'b0),
            .m_wr_status_tag(wr_status_tag[i*8 +: 8]),
            .m_wr_status_error(wr_status_error[i*4 +: 4]),
            .m_wr_status_valid(wr_status_valid[i]),
            .m_wr_status_ready(wr_status_ready[i]),
            .m_axi_awid(mon_awid[i*4 +: 4]),
            .m_axi_awaddr(mon_awaddr[i*64 +: 64]),
            .m_axi_awlen(mon_awlen[i*8 +: 8]),
            .m_axi_awsize(awsize[i*3 +: 3]),
            .m_axi_awburst(awburst[i*2 +: 2]),
            .m_axi_awlock(awlock[i]),
            .m_axi_awcache(awcache[i*4 +: 4]),
            .m_axi_awprot(awprot[i*3 +: 3]),
            .m_axi_awvalid(mon_awvalid[i]),
            .m_axi_awready(mon_awready[i]),
            .m_axi_wdata(mon_wdata[i*DATA_WIDTH +: DATA_WIDTH]),
            .m_axi_wstrb(mon_wstrb[i*W +: W]),
            .m_axi_wlast(mon_wlast[i]),
            .m_axi_wvalid(mon_wvalid[i]),
            .m_axi_wready(mon_wready[i]),
            .m_axi_bid(mon_bid[i*4 +: 4]),
            .m_axi_bresp(mon_bresp[i*2 +: 2]),
            .m_axi_bvalid(mon_bvalid[i]),
            .m_axi_bready(mon_bready[i])
        );
    end
endgenerate

froce_axi_mux #(
    .DATA_WIDTH(DATA_WIDTH),
    .N_RD(N),
    .N_WR(N),
    .S_ID_WIDTH(4),
    .M_ID_WIDTH(8),
    .W_FIFO_DEPTH(W_FIFO_DEPTH)
) mux_inst (
    .clk(clk),
    .rst(rst),
    .s_axi_arid(mon_arid),
    .s_axi_araddr(mon_araddr),
    .s_axi_arlen(mon_arlen),
    .s_axi_arsize(arsize),
    .s_axi_arburst(arburst),
    .s_axi_arlock(arlock),
    .s_axi_arcache(arcache),
    .s_axi_arprot(arprot),
    .s_axi_arvalid(mon_arvalid),
    .s_axi_arready(mon_arready),
    .s_axi_rid(mon_rid),
    .s_axi_rdata(mon_rdata),
    .s_axi_rresp(mon_rresp),
    .s_axi_rlast(mon_rlast),
    .s_axi_rvalid(mon_rvalid),
    .s_axi_rready(mon_rready),
    .s_axi_awid(mon_awid),
    .s_axi_awaddr(mon_awaddr),
    .s_axi_awlen(mon_awlen),
    .s_axi_awsize(awsize),
    .s_axi_awburst(awburst),
    .s_axi_awlock(awlock),
    .s_axi_awcache(awcache),
    .s_axi_awprot(awprot),
    .s_axi_awvalid(mon_awvalid),
    .s_axi_awready(mon_awready),
    .s_axi_wdata(mon_wdata),
    .s_axi_wstrb(mon_wstrb),
    .s_axi_wlast(mon_wlast),
    .s_axi_wvalid(mon_wvalid),
    .s_axi_wready(mon_wready),
    .s_axi_bid(mon_bid),
    .s_axi_bresp(mon_bresp),
    .s_axi_bvalid(mon_bvalid),
    .s_axi_bready(mon_bready),
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
