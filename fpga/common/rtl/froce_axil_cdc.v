// SPDX-License-Identifier: MIT
// AXI4-Lite clock domain crossing: the five channels each through a froce_async_fifo.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * An AXI4-Lite master on s_clk connects to s_axil_*; the slave on m_clk
 * connects to m_axil_*. Each channel crosses through its own DEPTH-entry
 * froce_async_fifo (AW, W, AR from s to m; B, R from m to s), unchanged and
 * in order, so several requests may be outstanding. valid = !empty,
 * ready = !full, both flip-flop outputs. A slave without awprot/arprot
 * (froce_core's BAR0) leaves m_axil_*prot open; a master without them ties
 * s_axil_*prot to 3'b000.
 *
 * Reset: s_rst (synchronous to s_clk) or m_rst (synchronous to m_clk)
 * empties every FIFO (see froce_async_fifo); reset master and slave with it.
 *
 * Constraints on a real board: those of froce_async_fifo for each of u_aw,
 * u_w, u_b, u_ar, u_r (Gray pointers into their synchronisers: set_max_delay
 * -datapath_only and set_bus_skew of the smaller clock period; reset
 * requests into the froce_sync_reset chains and the first stage of the
 * level synchronisers: set_false_path; the memory read into out_data_reg:
 * set_max_delay -datapath_only of the reading clock's period).
 */
module froce_axil_cdc #(
    parameter ADDR_WIDTH = 32,      // address bits
    parameter DATA_WIDTH = 32,      // data bits: 32 or 64
    parameter DEPTH = 4,            // entries per channel FIFO, a power of two >= 4
    parameter SYNC_STAGES = 2       // synchroniser flip-flops per crossing bit, >= 2
) (
    /* Slave side (s_clk): from the AXI4-Lite master */
    input  wire                     s_clk,
    input  wire                     s_rst,
    input  wire [ADDR_WIDTH-1:0]    s_axil_awaddr,
    input  wire [2:0]               s_axil_awprot,
    input  wire                     s_axil_awvalid,
    output wire                     s_axil_awready,
    input  wire [DATA_WIDTH-1:0]    s_axil_wdata,
    input  wire [DATA_WIDTH/8-1:0]  s_axil_wstrb,
    input  wire                     s_axil_wvalid,
    output wire                     s_axil_wready,
    output wire [1:0]               s_axil_bresp,
    output wire                     s_axil_bvalid,
    input  wire                     s_axil_bready,
    input  wire [ADDR_WIDTH-1:0]    s_axil_araddr,
    input  wire [2:0]               s_axil_arprot,
    input  wire                     s_axil_arvalid,
    output wire                     s_axil_arready,
    output wire [DATA_WIDTH-1:0]    s_axil_rdata,
    output wire [1:0]               s_axil_rresp,
    output wire                     s_axil_rvalid,
    input  wire                     s_axil_rready,

    /* Master side (m_clk): to the AXI4-Lite slave */
    input  wire                     m_clk,
    input  wire                     m_rst,
    output wire [ADDR_WIDTH-1:0]    m_axil_awaddr,
    output wire [2:0]               m_axil_awprot,
    output wire                     m_axil_awvalid,
    input  wire                     m_axil_awready,
    output wire [DATA_WIDTH-1:0]    m_axil_wdata,
    output wire [DATA_WIDTH/8-1:0]  m_axil_wstrb,
    output wire                     m_axil_wvalid,
    input  wire                     m_axil_wready,
    input  wire [1:0]               m_axil_bresp,
    input  wire                     m_axil_bvalid,
    output wire                     m_axil_bready,
    output wire [ADDR_WIDTH-1:0]    m_axil_araddr,
    output wire [2:0]               m_axil_arprot,
    output wire                     m_axil_arvalid,
    input  wire                     m_axil_arready,
    input  wire [DATA_WIDTH-1:0]    m_axil_rdata,
    input  wire [1:0]               m_axil_rresp,
    input  wire                     m_axil_rvalid,
    output wire                     m_axil_rready
);

localparam STRB_WIDTH = DATA_WIDTH / 8;

initial begin
    if ((DATA_WIDTH != 32 && DATA_WIDTH != 64) || ADDR_WIDTH < 1) begin
        $display("froce_axil_cdc: DATA_WIDTH must be 32 or 64");
        $finish;
    end
end

generate
    if ((DATA_WIDTH != 32 && DATA_WIDTH != 64) || ADDR_WIDTH < 1) begin : g_bad_parameter
        froce_axil_cdc_bad_DATA_WIDTH u_bad_parameter ();
    end
endgenerate

/* Write address: s -> m */
wire aw_full, aw_empty;

froce_async_fifo #(.WIDTH(ADDR_WIDTH + 3), .DEPTH(DEPTH), .SYNC_STAGES(SYNC_STAGES)) u_aw (
    .wr_clk(s_clk),
    .wr_rst(s_rst),
    .wr_data({s_axil_awaddr, s_axil_awprot}),
    .wr_en(s_axil_awvalid),
    .full(aw_full),
    .rd_clk(m_clk),
    .rd_rst(m_rst),
    .rd_data({m_axil_awaddr, m_axil_awprot}),
    .rd_en(m_axil_awready),
    .empty(aw_empty)
);
assign s_axil_awready = !aw_full;
assign m_axil_awvalid = !aw_empty;

/* Write data: s -> m */
wire w_full, w_empty;

froce_async_fifo #(.WIDTH(DATA_WIDTH + STRB_WIDTH), .DEPTH(DEPTH), .SYNC_STAGES(SYNC_STAGES)) u_w (
    .wr_clk(s_clk),
    .wr_rst(s_rst),
    .wr_data({s_axil_wdata, s_axil_wstrb}),
    .wr_en(s_axil_wvalid),
    .full(w_full),
    .rd_clk(m_clk),
    .rd_rst(m_rst),
    .rd_data({m_axil_wdata, m_axil_wstrb}),
    .rd_en(m_axil_wready),
    .empty(w_empty)
);
assign s_axil_wready = !w_full;
assign m_axil_wvalid = !w_empty;

/* Write response: m -> s */
wire b_full, b_empty;

froce_async_fifo #(.WIDTH(2), .DEPTH(DEPTH), .SYNC_STAGES(SYNC_STAGES)) u_b (
    .wr_clk(m_clk),
    .wr_rst(m_rst),
    .wr_data(m_axil_bresp),
    .wr_en(m_axil_bvalid),
    .full(b_full),
    .rd_clk(s_clk),
    .rd_rst(s_rst),
    .rd_data(s_axil_bresp),
    .rd_en(s_axil_bready),
    .empty(b_empty)
);
assign m_axil_bready = !b_full;
assign s_axil_bvalid = !b_empty;

/* Read address: s -> m */
wire ar_full, ar_empty;

froce_async_fifo #(.WIDTH(ADDR_WIDTH + 3), .DEPTH(DEPTH), .SYNC_STAGES(SYNC_STAGES)) u_ar (
    .wr_clk(s_clk),
    .wr_rst(s_rst),
    .wr_data({s_axil_araddr, s_axil_arprot}),
    .wr_en(s_axil_arvalid),
    .full(ar_full),
    .rd_clk(m_clk),
    .rd_rst(m_rst),
    .rd_data({m_axil_araddr, m_axil_arprot}),
    .rd_en(m_axil_arready),
    .empty(ar_empty)
);
assign s_axil_arready = !ar_full;
assign m_axil_arvalid = !ar_empty;

/* Read data: m -> s */
wire r_full, r_empty;

froce_async_fifo #(.WIDTH(DATA_WIDTH + 2), .DEPTH(DEPTH), .SYNC_STAGES(SYNC_STAGES)) u_r (
    .wr_clk(m_clk),
    .wr_rst(m_rst),
    .wr_data({m_axil_rdata, m_axil_rresp}),
    .wr_en(m_axil_rvalid),
    .full(r_full),
    .rd_clk(s_clk),
    .rd_rst(s_rst),
    .rd_data({s_axil_rdata, s_axil_rresp}),
    .rd_en(s_axil_rready),
    .empty(r_empty)
);
assign m_axil_rready = !r_full;
assign s_axil_rvalid = !r_empty;

endmodule

`resetall
