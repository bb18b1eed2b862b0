// SPDX-License-Identifier: MIT
// AXI4 clock domain crossing: the five channels each through a froce_async_fifo.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * An AXI4 master on s_clk connects to s_axi_*; the slave on m_clk connects
 * to m_axi_*. Every channel crosses through its own dual-clock FIFO
 * (froce_async_fifo): AW, W and AR from s to m, B and R from m to s. Each
 * beat passes unchanged (IDs, bursts, lengths, sizes, strobes, responses);
 * nothing is split, merged or reordered, so any number of IDs and
 * outstanding transactions the two ends allow pass through. valid/ready on
 * each port: *valid = !empty, *ready = !full, both flip-flop outputs.
 *
 * Depths: CMD_DEPTH for AW, AR, B (one entry per burst), DATA_DEPTH for W
 * and R (one per beat); each FIFO holds its depth + 1. With the defaults a
 * stream of beats crosses at the slower clock's full rate.
 *
 * Reset: s_rst (synchronous to s_clk) or m_rst (synchronous to m_clk)
 * empties every FIFO (see froce_async_fifo). Transactions in flight are
 * lost, so the master and the slave must be reset with it.
 *
 * Constraints on a real board: those of froce_async_fifo for each of u_aw,
 * u_w, u_b, u_ar, u_r (Gray pointers into their synchronisers: set_max_delay
 * -datapath_only and set_bus_skew of the smaller clock period; reset
 * requests into the froce_sync_reset chains and the first stage of the
 * level synchronisers: set_false_path; these small FIFOs sit in LUT RAM or
 * flip-flops, so their memory read into out_data_reg: set_max_delay
 * -datapath_only of the reading clock's period).
 */
module froce_axi_cdc #(
    parameter ADDR_WIDTH = 64,      // address bits
    parameter DATA_WIDTH = 64,      // data bits, a multiple of 8
    parameter ID_WIDTH = 8,         // ID bits
    parameter CMD_DEPTH = 4,        // AW, AR and B FIFO entries, a power of two >= 4
    parameter DATA_DEPTH = 16,      // W and R FIFO entries, a power of two >= 4
    parameter SYNC_STAGES = 2       // synchroniser flip-flops per crossing bit, >= 2
) (
    /* Slave side (s_clk): from the AXI master */
    input  wire                     s_clk,
    input  wire                     s_rst,
    input  wire [ID_WIDTH-1:0]      s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]    s_axi_awaddr,
    input  wire [7:0]               s_axi_awlen,
    input  wire [2:0]               s_axi_awsize,
    input  wire [1:0]               s_axi_awburst,
    input  wire                     s_axi_awlock,
    input  wire [3:0]               s_axi_awcache,
    input  wire [2:0]               s_axi_awprot,
    input  wire [3:0]               s_axi_awqos,
    input  wire                     s_axi_awvalid,
    output wire                     s_axi_awready,
    input  wire [DATA_WIDTH-1:0]    s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]  s_axi_wstrb,
    input  wire                     s_axi_wlast,
    input  wire                     s_axi_wvalid,
    output wire                     s_axi_wready,
    output wire [ID_WIDTH-1:0]      s_axi_bid,
    output wire [1:0]               s_axi_bresp,
    output wire                     s_axi_bvalid,
    input  wire                     s_axi_bready,
    input  wire [ID_WIDTH-1:0]      s_axi_arid,
    input  wire [ADDR_WIDTH-1:0]    s_axi_araddr,
    input  wire [7:0]               s_axi_arlen,
    input  wire [2:0]               s_axi_arsize,
    input  wire [1:0]               s_axi_arburst,
    input  wire                     s_axi_arlock,
    input  wire [3:0]               s_axi_arcache,
    input  wire [2:0]               s_axi_arprot,
    input  wire [3:0]               s_axi_arqos,
    input  wire                     s_axi_arvalid,
    output wire                     s_axi_arready,
    output wire [ID_WIDTH-1:0]      s_axi_rid,
    output wire [DATA_WIDTH-1:0]    s_axi_rdata,
    output wire [1:0]               s_axi_rresp,
    output wire                     s_axi_rlast,
    output wire                     s_axi_rvalid,
    input  wire                     s_axi_rready,

    /* Master side (m_clk): to the AXI slave */
    input  wire                     m_clk,
    input  wire                     m_rst,
    output wire [ID_WIDTH-1:0]      m_axi_awid,
    output wire [ADDR_WIDTH-1:0]    m_axi_awaddr,
    output wire [7:0]               m_axi_awlen,
    output wire [2:0]               m_axi_awsize,
    output wire [1:0]               m_axi_awburst,
    output wire                     m_axi_awlock,
    output wire [3:0]               m_axi_awcache,
    output wire [2:0]               m_axi_awprot,
    output wire [3:0]               m_axi_awqos,
    output wire                     m_axi_awvalid,
    input  wire                     m_axi_awready,
    output wire [DATA_WIDTH-1:0]    m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]  m_axi_wstrb,
    output wire                     m_axi_wlast,
    output wire                     m_axi_wvalid,
    input  wire                     m_axi_wready,
    input  wire [ID_WIDTH-1:0]      m_axi_bid,
    input  wire [1:0]               m_axi_bresp,
    input  wire                     m_axi_bvalid,
    output wire                     m_axi_bready,
    output wire [ID_WIDTH-1:0]      m_axi_arid,
    output wire [ADDR_WIDTH-1:0]    m_axi_araddr,
    output wire [7:0]               m_axi_arlen,
    output wire [2:0]               m_axi_arsize,
    output wire [1:0]               m_axi_arburst,
    output wire                     m_axi_arlock,
    output wire [3:0]               m_axi_arcache,
    output wire [2:0]               m_axi_arprot,
    output wire [3:0]               m_axi_arqos,
    output wire                     m_axi_arvalid,
    input  wire                     m_axi_arready,
    input  wire [ID_WIDTH-1:0]      m_axi_rid,
    input  wire [DATA_WIDTH-1:0]    m_axi_rdata,
    input  wire [1:0]               m_axi_rresp,
    input  wire                     m_axi_rlast,
    input  wire                     m_axi_rvalid,
    output wire                     m_axi_rready
);

localparam STRB_WIDTH = DATA_WIDTH / 8;
localparam A_WIDTH = ID_WIDTH + ADDR_WIDTH + 8 + 3 + 2 + 1 + 4 + 3 + 4;    // AW, AR
localparam W_WIDTH = DATA_WIDTH + STRB_WIDTH + 1;
localparam B_WIDTH = ID_WIDTH + 2;
localparam R_WIDTH = ID_WIDTH + DATA_WIDTH + 2 + 1;

initial begin
    if (DATA_WIDTH < 8 || DATA_WIDTH % 8 != 0 || ADDR_WIDTH < 1 || ID_WIDTH < 1) begin
        $display("froce_axi_cdc: DATA_WIDTH must be a multiple of 8; ADDR_WIDTH, ID_WIDTH >= 1");
        $finish;
    end
end

generate
    if (DATA_WIDTH < 8 || DATA_WIDTH % 8 != 0 || ADDR_WIDTH < 1 || ID_WIDTH < 1) begin : g_bad_parameter
        froce_axi_cdc_bad_DATA_WIDTH u_bad_parameter ();
    end
endgenerate

/* Write address: s -> m */
wire aw_full, aw_empty;

froce_async_fifo #(.WIDTH(A_WIDTH), .DEPTH(CMD_DEPTH), .SYNC_STAGES(SYNC_STAGES)) u_aw (
    .wr_clk(s_clk),
    .wr_rst(s_rst),
    .wr_data({s_axi_awid, s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst,
              s_axi_awlock, s_axi_awcache, s_axi_awprot, s_axi_awqos}),
    .wr_en(s_axi_awvalid),
    .full(aw_full),
    .rd_clk(m_clk),
    .rd_rst(m_rst),
    .rd_data({m_axi_awid, m_axi_awaddr, m_axi_awlen, m_axi_awsize, m_axi_awburst,
              m_axi_awlock, m_axi_awcache, m_axi_awprot, m_axi_awqos}),
    .rd_en(m_axi_awready),
    .empty(aw_empty)
);
assign s_axi_awready = !aw_full;
assign m_axi_awvalid = !aw_empty;

/* Write data: s -> m */
wire w_full, w_empty;

froce_async_fifo #(.WIDTH(W_WIDTH), .DEPTH(DATA_DEPTH), .SYNC_STAGES(SYNC_STAGES)) u_w (
    .wr_clk(s_clk),
    .wr_rst(s_rst),
    .wr_data({s_axi_wdata, s_axi_wstrb, s_axi_wlast}),
    .wr_en(s_axi_wvalid),
    .full(w_full),
    .rd_clk(m_clk),
    .rd_rst(m_rst),
    .rd_data({m_axi_wdata, m_axi_wstrb, m_axi_wlast}),
    .rd_en(m_axi_wready),
    .empty(w_empty)
);
assign s_axi_wready = !w_full;
assign m_axi_wvalid = !w_empty;

/* Write response: m -> s */
wire b_full, b_empty;

froce_async_fifo #(.WIDTH(B_WIDTH), .DEPTH(CMD_DEPTH), .SYNC_STAGES(SYNC_STAGES)) u_b (
    .wr_clk(m_clk),
    .wr_rst(m_rst),
    .wr_data({m_axi_bid, m_axi_bresp}),
    .wr_en(m_axi_bvalid),
    .full(b_full),
    .rd_clk(s_clk),
    .rd_rst(s_rst),
    .rd_data({s_axi_bid, s_axi_bresp}),
    .rd_en(s_axi_bready),
    .empty(b_empty)
);
assign m_axi_bready = !b_full;
assign s_axi_bvalid = !b_empty;

/* Read address: s -> m */
wire ar_full, ar_empty;

froce_async_fifo #(.WIDTH(A_WIDTH), .DEPTH(CMD_DEPTH), .SYNC_STAGES(SYNC_STAGES)) u_ar (
    .wr_clk(s_clk),
    .wr_rst(s_rst),
    .wr_data({s_axi_arid, s_axi_araddr, s_axi_arlen, s_axi_arsize, s_axi_arburst,
              s_axi_arlock, s_axi_arcache, s_axi_arprot, s_axi_arqos}),
    .wr_en(s_axi_arvalid),
    .full(ar_full),
    .rd_clk(m_clk),
    .rd_rst(m_rst),
    .rd_data({m_axi_arid, m_axi_araddr, m_axi_arlen, m_axi_arsize, m_axi_arburst,
              m_axi_arlock, m_axi_arcache, m_axi_arprot, m_axi_arqos}),
    .rd_en(m_axi_arready),
    .empty(ar_empty)
);
assign s_axi_arready = !ar_full;
assign m_axi_arvalid = !ar_empty;

/* Read data: m -> s */
wire r_full, r_empty;

froce_async_fifo #(.WIDTH(R_WIDTH), .DEPTH(DATA_DEPTH), .SYNC_STAGES(SYNC_STAGES)) u_r (
    .wr_clk(m_clk),
    .wr_rst(m_rst),
    .wr_data({m_axi_rid, m_axi_rdata, m_axi_rresp, m_axi_rlast}),
    .wr_en(m_axi_rvalid),
    .full(r_full),
    .rd_clk(s_clk),
    .rd_rst(s_rst),
    .rd_data({s_axi_rid, s_axi_rdata, s_axi_rresp, s_axi_rlast}),
    .rd_en(s_axi_rready),
    .empty(r_empty)
);
assign m_axi_rready = !r_full;
assign s_axi_rvalid = !r_empty;

endmodule

`resetall
