// SPDX-License-Identifier: MIT
// AXI4 write arbiter, 2:1: two write masters (e.g. froce_core's DMA writes and froce_msix_emitter) onto one AXI4 write port; B routed back by an ID bit.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Write channels only (AW, W, B); a read path passes beside it untouched.
 *
 *   AW  round robin between the masters with AWVALID high (the one not
 *       granted last goes first when both wait); the granted AW is taken
 *       into an output register (one per cycle while the slave keeps up) and
 *       its port number is queued for W (FIFO_DEPTH bursts whose W beats have
 *       not all passed; AW waits while the queue is full).
 *   W   AXI4 has no WID, so W beats follow AW grant order: the port at the
 *       head of the queue is connected straight through until its WLAST.
 *       A master's W beats are passed only after its AW was granted; one
 *       that raises WVALID together with AWVALID (froce_msix_emitter) is fine.
 *   B   by BID[ID_WIDTH-1]: 0 to port 0, 1 to port 1 (BID and BRESP
 *       unchanged). IDs pass unchanged, so port 0 must use only IDs with that
 *       bit 0 and port 1 only IDs with it 1 (froce_core's m_axi_* uses the
 *       low three bits of its four-bit IDs, see froce_axi_mux; the emitter
 *       takes AXI_ID 4'b1000). An AW that breaks this is reported in
 *       simulation ("froce_axi_wr_arb: ERROR ...", sim_errors) and its B
 *       would reach the wrong master.
 *
 * Combinational paths: s*_axi_awready from both AWVALIDs and the output
 * register's state (not from m_axi_awready: the register decouples it);
 * m_axi_wvalid/wdata from the head port's W, s*_axi_wready from
 * m_axi_wready; s*_axi_bvalid from m_axi_bvalid/bid, m_axi_bready from the
 * addressed port's BREADY. AW to B: the slave's latency plus one cycle.
 */
module froce_axi_wr_arb #(
    parameter DATA_WIDTH = 64,          // AXI data width in bits, a multiple of 8
    parameter ADDR_WIDTH = 64,          // AXI address width
    parameter ID_WIDTH = 4,             // AXI ID width, >= 1; the top bit names the port
    parameter FIFO_DEPTH = 4            // granted bursts whose W beats have not all passed: a power of two >= 2
) (
    input  wire                         clk,
    input  wire                         rst,

    /* AXI4 slave 0 (IDs with BID[ID_WIDTH-1] = 0): write address */
    input  wire [ID_WIDTH-1:0]          s0_axi_awid,
    input  wire [ADDR_WIDTH-1:0]        s0_axi_awaddr,
    input  wire [7:0]                   s0_axi_awlen,
    input  wire [2:0]                   s0_axi_awsize,
    input  wire [1:0]                   s0_axi_awburst,
    input  wire                         s0_axi_awlock,
    input  wire [3:0]                   s0_axi_awcache,
    input  wire [2:0]                   s0_axi_awprot,
    input  wire                         s0_axi_awvalid,
    output wire                         s0_axi_awready,

    /* AXI4 slave 0: write data */
    input  wire [DATA_WIDTH-1:0]        s0_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]      s0_axi_wstrb,
    input  wire                         s0_axi_wlast,
    input  wire                         s0_axi_wvalid,
    output wire                         s0_axi_wready,

    /* AXI4 slave 0: write response */
    output wire [ID_WIDTH-1:0]          s0_axi_bid,
    output wire [1:0]                   s0_axi_bresp,
    output wire                         s0_axi_bvalid,
    input  wire                         s0_axi_bready,

    /* AXI4 slave 1 (IDs with BID[ID_WIDTH-1] = 1): write address */
    input  wire [ID_WIDTH-1:0]          s1_axi_awid,
    input  wire [ADDR_WIDTH-1:0]        s1_axi_awaddr,
    input  wire [7:0]                   s1_axi_awlen,
    input  wire [2:0]                   s1_axi_awsize,
    input  wire [1:0]                   s1_axi_awburst,
    input  wire                         s1_axi_awlock,
    input  wire [3:0]                   s1_axi_awcache,
    input  wire [2:0]                   s1_axi_awprot,
    input  wire                         s1_axi_awvalid,
    output wire                         s1_axi_awready,

    /* AXI4 slave 1: write data */
    input  wire [DATA_WIDTH-1:0]        s1_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]      s1_axi_wstrb,
    input  wire                         s1_axi_wlast,
    input  wire                         s1_axi_wvalid,
    output wire                         s1_axi_wready,

    /* AXI4 slave 1: write response */
    output wire [ID_WIDTH-1:0]          s1_axi_bid,
    output wire [1:0]                   s1_axi_bresp,
    output wire                         s1_axi_bvalid,
    input  wire                         s1_axi_bready,

    /* AXI4 master: write address */
    output wire [ID_WIDTH-1:0]          m_axi_awid,
    output wire [ADDR_WIDTH-1:0]        m_axi_awaddr,
    output wire [7:0]                   m_axi_awlen,
    output wire [2:0]                   m_axi_awsize,
    output wire [1:0]                   m_axi_awburst,
    output wire                         m_axi_awlock,
    output wire [3:0]                   m_axi_awcache,
    output wire [2:0]                   m_axi_awprot,
    output wire                         m_axi_awvalid,
    input  wire                         m_axi_awready,

    /* AXI4 master: write data */
    output wire [DATA_WIDTH-1:0]        m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]      m_axi_wstrb,
    output wire                         m_axi_wlast,
    output wire                         m_axi_wvalid,
    input  wire                         m_axi_wready,

    /* AXI4 master: write response */
    input  wire [ID_WIDTH-1:0]          m_axi_bid,
    input  wire [1:0]                   m_axi_bresp,
    input  wire                         m_axi_bvalid,
    output wire                         m_axi_bready
);

localparam FW = FIFO_DEPTH > 1 ? $clog2(FIFO_DEPTH) : 1;
localparam BAD_PARAM = DATA_WIDTH < 8 || DATA_WIDTH % 8 != 0 || ID_WIDTH < 1 || ADDR_WIDTH < 1 ||
                       FIFO_DEPTH < 2 || (1 << FW) != FIFO_DEPTH;
localparam AW_BITS = ID_WIDTH + ADDR_WIDTH + 8 + 3 + 2 + 1 + 4 + 3;

initial begin
    if (BAD_PARAM) begin
        $display("froce_axi_wr_arb: DATA_WIDTH must be a multiple of 8, FIFO_DEPTH a power of two >= 2");
        $finish;
    end
end

// the same check, fatal at elaboration in every tool (Yosys ignores initial blocks)
generate
    if (BAD_PARAM) begin : g_bad_parameter
        froce_axi_wr_arb_bad_parameter u_bad_parameter ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * AW: arbitration into the output register
 * ------------------------------------------------------------------------ */

reg                 aw_valid_reg = 1'b0;
reg [AW_BITS-1:0]   aw_reg = {AW_BITS{1'b0}};
reg                 prio_reg = 1'b0;            // 1: port 1 goes first when both wait

// W order queue: the port of each granted burst
reg [FIFO_DEPTH-1:0] q_port_reg = {FIFO_DEPTH{1'b0}};
reg [FW:0]          q_wr_reg = {(FW + 1){1'b0}};
reg [FW:0]          q_rd_reg = {(FW + 1){1'b0}};
wire                q_empty = q_wr_reg == q_rd_reg;
wire                q_full = q_wr_reg == {~q_rd_reg[FW], q_rd_reg[FW-1:0]};
wire                q_head = q_port_reg[q_rd_reg[FW-1:0]];

// room in the output register this cycle, and in the W queue
wire aw_room = (!aw_valid_reg || m_axi_awready) && !q_full;
wire pick1 = s1_axi_awvalid && (!s0_axi_awvalid || prio_reg);
wire grant0 = aw_room && s0_axi_awvalid && !pick1;
wire grant1 = aw_room && pick1;

assign s0_axi_awready = grant0;
assign s1_axi_awready = grant1;

wire [AW_BITS-1:0] s0_aw = {s0_axi_awid, s0_axi_awaddr, s0_axi_awlen, s0_axi_awsize, s0_axi_awburst,
                            s0_axi_awlock, s0_axi_awcache, s0_axi_awprot};
wire [AW_BITS-1:0] s1_aw = {s1_axi_awid, s1_axi_awaddr, s1_axi_awlen, s1_axi_awsize, s1_axi_awburst,
                            s1_axi_awlock, s1_axi_awcache, s1_axi_awprot};

/* ------------------------------------------------------------------------
 * W: the head port straight through
 * ------------------------------------------------------------------------ */

wire w_sel_valid = !q_empty && (q_head ? s1_axi_wvalid : s0_axi_wvalid);
wire w_fire = w_sel_valid && m_axi_wready;
wire w_last = q_head ? s1_axi_wlast : s0_axi_wlast;

assign m_axi_wdata = q_head ? s1_axi_wdata : s0_axi_wdata;
assign m_axi_wstrb = q_head ? s1_axi_wstrb : s0_axi_wstrb;
assign m_axi_wlast = w_last;
assign m_axi_wvalid = w_sel_valid;
assign s0_axi_wready = !q_empty && !q_head && m_axi_wready;
assign s1_axi_wready = !q_empty && q_head && m_axi_wready;

always @(posedge clk) begin
    if (m_axi_awready)
        aw_valid_reg <= 1'b0;
    if (grant0 || grant1) begin
        aw_valid_reg <= 1'b1;
        aw_reg <= grant1 ? s1_aw : s0_aw;
        prio_reg <= !grant1;
        q_port_reg[q_wr_reg[FW-1:0]] <= grant1;
        q_wr_reg <= q_wr_reg + 1'b1;
    end
    if (w_fire && w_last)
        q_rd_reg <= q_rd_reg + 1'b1;
    if (rst) begin
        aw_valid_reg <= 1'b0;
        prio_reg <= 1'b0;
        q_wr_reg <= {(FW + 1){1'b0}};
        q_rd_reg <= {(FW + 1){1'b0}};
    end
end

assign {m_axi_awid, m_axi_awaddr, m_axi_awlen, m_axi_awsize, m_axi_awburst,
        m_axi_awlock, m_axi_awcache, m_axi_awprot} = aw_reg;
assign m_axi_awvalid = aw_valid_reg;

/* ------------------------------------------------------------------------
 * B: by the top ID bit
 * ------------------------------------------------------------------------ */

wire b_to1 = m_axi_bid[ID_WIDTH-1];

assign s0_axi_bid = m_axi_bid;
assign s0_axi_bresp = m_axi_bresp;
assign s0_axi_bvalid = m_axi_bvalid && !b_to1;
assign s1_axi_bid = m_axi_bid;
assign s1_axi_bresp = m_axi_bresp;
assign s1_axi_bvalid = m_axi_bvalid && b_to1;
assign m_axi_bready = b_to1 ? s1_axi_bready : s0_axi_bready;

`ifndef SYNTHESIS
/* Simulation checks: an ID on the wrong port */
integer sim_errors = 0;

wire sim_bad0 = !rst && grant0 && s0_axi_awid[ID_WIDTH-1];
wire sim_bad1 = !rst && grant1 && !s1_axi_awid[ID_WIDTH-1];

always @(posedge clk) begin
    if (sim_bad0)
        $display("froce_axi_wr_arb: ERROR AWID %0h on port 0 has the port-1 bit set", s0_axi_awid);
    if (sim_bad1)
        $display("froce_axi_wr_arb: ERROR AWID %0h on port 1 lacks the port-1 bit", s1_axi_awid);
    if (sim_bad0 || sim_bad1)
        sim_errors <= sim_errors + 1;
end
`endif

endmodule

`resetall
