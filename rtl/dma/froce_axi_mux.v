// SPDX-License-Identifier: MIT
// AXI4 interconnect, N masters to one slave: N_RD read masters and N_WR write masters (the DMA engines) share one AXI4 master port to host memory.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Operation (see docs/dma.md, "AXI4 mux"):
 *
 *   AR: round-robin among the masters with ARVALID high (the one after the
 *       last granted wins); at most one AR per cycle goes into a two-entry
 *       register slice that drives m_axi_ar*. The output ARID is
 *       {zeros, master index, master's ARID}: the index sits in bits
 *       [S_ID_WIDTH +: RIW] above the master's S_ID_WIDTH bits, zeros above.
 *   R:  every beat from the slave goes into a two-entry register slice and is
 *       handed to the master named by its RID index bits, with RID = the low
 *       S_ID_WIDTH bits. Routing is by ID only, beat by beat: the slave may
 *       answer different IDs in any order and interleave their beats. A beat
 *       whose index names no master (index >= N_RD) is dropped.
 *   AW: round-robin as AR, into its own slice; each grant also pushes the
 *       master's index into the W order FIFO (W_FIFO_DEPTH entries; AW stalls
 *       while it is full).
 *   W:  AXI4 has no WID, so W beats follow AW grant order: the master at the
 *       head of the W order FIFO has its W beats passed (through a two-entry
 *       slice) until the beat with WLAST, which pops the FIFO; the next
 *       master's beats follow in the next cycle, no bubble. A master's W
 *       beats are only taken once its AW has been granted; m_axi_wvalid may
 *       come before the matching m_axi_awvalid handshake, never before
 *       m_axi_awvalid.
 *   B:  as R, by the BID index bits.
 *
 * Every output VALID and every m_axi_* READY comes from a register (the
 * slices are froce_fifo instances of depth 2, whose full/empty flags are
 * registered), so there is no combinational path through the mux between
 * the masters and the slave. Combinational paths that remain, all legal in
 * AXI: s_axi_arready/awready depend on the ARVALID/AWVALID of every master
 * (arbitration); m_axi_rready/bready and s_axi_wready depend on no VALID.
 * Each slice sustains one transfer per cycle, so R and W run at one beat per
 * cycle, including across bursts and masters.
 *
 * A master that holds RREADY (BREADY) low holds the R (B) slice and so every
 * other master's responses behind it (the DMA read engine never does: its
 * RREADY is credit based).
 *
 * Test hook (never define it in a design): FROCE_AXI_MUX_TEST_SWAP swaps the
 * R and B routing of masters 0 and 1; tests/rtl/axi_mux/run.sh builds it to
 * prove that its bench catches misrouting.
 */
module froce_axi_mux #(
    parameter DATA_WIDTH = 64,          // data width in bits: 64, 128, 256 or 512
    parameter N_RD = 2,                 // read masters, 1..8
    parameter N_WR = 2,                 // write masters, 1..8
    parameter S_ID_WIDTH = 4,           // ID width of each master port
    parameter M_ID_WIDTH = 8,           // ID width of the slave side: >= S_ID_WIDTH + clog2(max(N_RD, N_WR, 2))
    parameter W_FIFO_DEPTH = 8          // AW grants whose W beats are not all through: power of two >= 2
) (
    input  wire                             clk,
    input  wire                             rst,

    /* Read masters: AR */
    input  wire [N_RD*S_ID_WIDTH-1:0]       s_axi_arid,
    input  wire [N_RD*64-1:0]               s_axi_araddr,
    input  wire [N_RD*8-1:0]                s_axi_arlen,
    input  wire [N_RD*3-1:0]                s_axi_arsize,
    input  wire [N_RD*2-1:0]                s_axi_arburst,
    input  wire [N_RD-1:0]                  s_axi_arlock,
    input  wire [N_RD*4-1:0]                s_axi_arcache,
    input  wire [N_RD*3-1:0]                s_axi_arprot,
    input  wire [N_RD-1:0]                  s_axi_arvalid,
    output wire [N_RD-1:0]                  s_axi_arready,

    /* Read masters: R */
    output wire [N_RD*S_ID_WIDTH-1:0]       s_axi_rid,
    output wire [N_RD*DATA_WIDTH-1:0]       s_axi_rdata,
    output wire [N_RD*2-1:0]                s_axi_rresp,
    output wire [N_RD-1:0]                  s_axi_rlast,
    output wire [N_RD-1:0]                  s_axi_rvalid,
    input  wire [N_RD-1:0]                  s_axi_rready,

    /* Write masters: AW */
    input  wire [N_WR*S_ID_WIDTH-1:0]       s_axi_awid,
    input  wire [N_WR*64-1:0]               s_axi_awaddr,
    input  wire [N_WR*8-1:0]                s_axi_awlen,
    input  wire [N_WR*3-1:0]                s_axi_awsize,
    input  wire [N_WR*2-1:0]                s_axi_awburst,
    input  wire [N_WR-1:0]                  s_axi_awlock,
    input  wire [N_WR*4-1:0]                s_axi_awcache,
    input  wire [N_WR*3-1:0]                s_axi_awprot,
    input  wire [N_WR-1:0]                  s_axi_awvalid,
    output wire [N_WR-1:0]                  s_axi_awready,

    /* Write masters: W */
    input  wire [N_WR*DATA_WIDTH-1:0]       s_axi_wdata,
    input  wire [N_WR*DATA_WIDTH/8-1:0]     s_axi_wstrb,
    input  wire [N_WR-1:0]                  s_axi_wlast,
    input  wire [N_WR-1:0]                  s_axi_wvalid,
    output wire [N_WR-1:0]                  s_axi_wready,

    /* Write masters: B */
    output wire [N_WR*S_ID_WIDTH-1:0]       s_axi_bid,
    output wire [N_WR*2-1:0]                s_axi_bresp,
    output wire [N_WR-1:0]                  s_axi_bvalid,
    input  wire [N_WR-1:0]                  s_axi_bready,

    /* AXI4 master (to host memory): AR */
    output wire [M_ID_WIDTH-1:0]            m_axi_arid,
    output wire [63:0]                      m_axi_araddr,
    output wire [7:0]                       m_axi_arlen,
    output wire [2:0]                       m_axi_arsize,
    output wire [1:0]                       m_axi_arburst,
    output wire                             m_axi_arlock,
    output wire [3:0]                       m_axi_arcache,
    output wire [2:0]                       m_axi_arprot,
    output wire                             m_axi_arvalid,
    input  wire                             m_axi_arready,

    /* AXI4 master: R */
    input  wire [M_ID_WIDTH-1:0]            m_axi_rid,
    input  wire [DATA_WIDTH-1:0]            m_axi_rdata,
    input  wire [1:0]                       m_axi_rresp,
    input  wire                             m_axi_rlast,
    input  wire                             m_axi_rvalid,
    output wire                             m_axi_rready,

    /* AXI4 master: AW */
    output wire [M_ID_WIDTH-1:0]            m_axi_awid,
    output wire [63:0]                      m_axi_awaddr,
    output wire [7:0]                       m_axi_awlen,
    output wire [2:0]                       m_axi_awsize,
    output wire [1:0]                       m_axi_awburst,
    output wire                             m_axi_awlock,
    output wire [3:0]                       m_axi_awcache,
    output wire [2:0]                       m_axi_awprot,
    output wire                             m_axi_awvalid,
    input  wire                             m_axi_awready,

    /* AXI4 master: W */
    output wire [DATA_WIDTH-1:0]            m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]          m_axi_wstrb,
    output wire                             m_axi_wlast,
    output wire                             m_axi_wvalid,
    input  wire                             m_axi_wready,

    /* AXI4 master: B */
    input  wire [M_ID_WIDTH-1:0]            m_axi_bid,
    input  wire [1:0]                       m_axi_bresp,
    input  wire                             m_axi_bvalid,
    output wire                             m_axi_bready
);

localparam STRB = DATA_WIDTH / 8;                   // bytes per beat
localparam RIW = $clog2(N_RD > 2 ? N_RD : 2);       // read master index bits, 1..3
localparam WIW = $clog2(N_WR > 2 ? N_WR : 2);       // write master index bits, 1..3
localparam XIW = RIW > WIW ? RIW : WIW;
localparam AXW = M_ID_WIDTH + 64 + 8 + 3 + 2 + 1 + 4 + 3;  // AR/AW slice entry
localparam WSW = DATA_WIDTH + STRB + 1;             // W slice entry
localparam RSW = M_ID_WIDTH + DATA_WIDTH + 2 + 1;   // R slice entry
localparam BSW = M_ID_WIDTH + 2;                    // B slice entry

localparam [RIW:0] N_RD_C = N_RD[RIW:0];
localparam [WIW:0] N_WR_C = N_WR[WIW:0];

initial begin
    if (DATA_WIDTH < 64 || DATA_WIDTH > 512 || (1 << $clog2(DATA_WIDTH)) != DATA_WIDTH) begin
        $display("froce_axi_mux: DATA_WIDTH must be 64, 128, 256 or 512");
        $finish;
    end
    if (N_RD < 1 || N_RD > 8 || N_WR < 1 || N_WR > 8) begin
        $display("froce_axi_mux: N_RD and N_WR must be 1..8");
        $finish;
    end
    if (S_ID_WIDTH < 1 || M_ID_WIDTH < S_ID_WIDTH + XIW) begin
        $display("froce_axi_mux: M_ID_WIDTH must be at least S_ID_WIDTH + clog2(max(N_RD, N_WR, 2))");
        $finish;
    end
    if (W_FIFO_DEPTH < 2 || (1 << $clog2(W_FIFO_DEPTH)) != W_FIFO_DEPTH) begin
        $display("froce_axi_mux: W_FIFO_DEPTH must be a power of two >= 2");
        $finish;
    end
end

// The same checks, made fatal at elaboration in every tool (Yosys ignores
// initial blocks): a deliberately nonexistent module named after the problem.
generate
    if (DATA_WIDTH < 64 || DATA_WIDTH > 512 || (1 << $clog2(DATA_WIDTH)) != DATA_WIDTH ||
        N_RD < 1 || N_RD > 8 || N_WR < 1 || N_WR > 8 ||
        S_ID_WIDTH < 1 || M_ID_WIDTH < S_ID_WIDTH + XIW ||
        W_FIFO_DEPTH < 2 || (1 << $clog2(W_FIFO_DEPTH)) != W_FIFO_DEPTH) begin : g_bad_parameter
        froce_axi_mux_bad_parameter u_bad_parameter ();
    end
endgenerate

// Round-robin choice among up to 8 requests: the lowest requesting index
// above last, else the lowest requesting index. Returns {any, index}.
function [3:0] rr_pick;
    input [7:0] req;
    input [2:0] last;
    integer k;
    reg found_hi;
    reg [2:0] hi, lo;
    begin
        found_hi = 1'b0;
        hi = 3'd0;
        lo = 3'd0;
        for (k = 7; k >= 0; k = k - 1) begin
            if (req[k])
                lo = k[2:0];
            if (req[k] && k[2:0] > last) begin
                found_hi = 1'b1;
                hi = k[2:0];
            end
        end
        rr_pick = {|req, found_hi ? hi : lo};
    end
endfunction

// Slave-side ID: {zeros, master index, master's ID}.
function [M_ID_WIDTH-1:0] ar_mid;
    input [RIW-1:0] idx;
    input [S_ID_WIDTH-1:0] sid;
    begin
        ar_mid = {{(M_ID_WIDTH-S_ID_WIDTH){1'b0}}, sid} | ({{(M_ID_WIDTH-RIW){1'b0}}, idx} << S_ID_WIDTH);
    end
endfunction

function [M_ID_WIDTH-1:0] aw_mid;
    input [WIW-1:0] idx;
    input [S_ID_WIDTH-1:0] sid;
    begin
        aw_mid = {{(M_ID_WIDTH-S_ID_WIDTH){1'b0}}, sid} | ({{(M_ID_WIDTH-WIW){1'b0}}, idx} << S_ID_WIDTH);
    end
endfunction

/* ------------------------------------------------------------------------
 * AR: arbiter and slice
 * ------------------------------------------------------------------------ */

reg [2:0] ar_last_reg = 3'd0;

wire [7:0] ar_req = {{(8-N_RD){1'b0}}, s_axi_arvalid};
wire [3:0] ar_pick = rr_pick(ar_req, ar_last_reg);
wire ar_any = ar_pick[3];
wire [RIW-1:0] ar_gnt = ar_pick[RIW-1:0];
wire [2:0] unused_ar_pick = ar_pick[2:0];

wire ar_full, ar_empty;
wire ar_load = ar_any && !ar_full;
wire [AXW-1:0] ar_head;
wire [1:0] unused_ar_count;

reg [AXW-1:0] ar_in_c;
integer ai;

always @* begin
    ar_in_c = {AXW{1'b0}};
    for (ai = 0; ai < N_RD; ai = ai + 1) begin
        if (ar_gnt == ai[RIW-1:0])
            ar_in_c = {ar_mid(ai[RIW-1:0], s_axi_arid[ai*S_ID_WIDTH +: S_ID_WIDTH]),
                       s_axi_araddr[ai*64 +: 64], s_axi_arlen[ai*8 +: 8], s_axi_arsize[ai*3 +: 3],
                       s_axi_arburst[ai*2 +: 2], s_axi_arlock[ai], s_axi_arcache[ai*4 +: 4],
                       s_axi_arprot[ai*3 +: 3]};
    end
end

always @(posedge clk) begin
    if (ar_load)
        ar_last_reg <= {{(3-RIW){1'b0}}, ar_gnt};
    if (rst)
        ar_last_reg <= 3'd0;
end

genvar gi;
generate
    for (gi = 0; gi < N_RD; gi = gi + 1) begin : g_arready
        assign s_axi_arready[gi] = ar_load && ar_gnt == gi[RIW-1:0];
    end
endgenerate

froce_fifo #(
    .WIDTH(AXW),
    .DEPTH(2)
) ar_slice_inst (
    .clk(clk),
    .rst(rst),
    .wr_data(ar_in_c),
    .wr_en(ar_load),
    .rd_data(ar_head),
    .rd_en(m_axi_arready),
    .count(unused_ar_count),
    .empty(ar_empty),
    .full(ar_full)
);

assign {m_axi_arid, m_axi_araddr, m_axi_arlen, m_axi_arsize, m_axi_arburst, m_axi_arlock, m_axi_arcache,
        m_axi_arprot} = ar_head;
assign m_axi_arvalid = !ar_empty;

/* ------------------------------------------------------------------------
 * R: slice, then routed by the RID index bits
 * ------------------------------------------------------------------------ */

wire r_full, r_empty;
wire [RSW-1:0] r_head;
wire [1:0] unused_r_count;

wire [M_ID_WIDTH-1:0] r_id = r_head[RSW-1 -: M_ID_WIDTH];
wire [DATA_WIDTH-1:0] r_data = r_head[DATA_WIDTH+2:3];
wire [1:0] r_resp = r_head[2:1];
wire r_last = r_head[0];
wire [M_ID_WIDTH-1:0] unused_r_id = r_id;          // bits above the index are not looked at

`ifdef FROCE_AXI_MUX_TEST_SWAP
wire [RIW-1:0] r_dest = r_id[S_ID_WIDTH +: RIW] ^ ((r_id[S_ID_WIDTH +: RIW] >> 1) == {RIW{1'b0}} ? {{(RIW-1){1'b0}}, 1'b1} : {RIW{1'b0}});
`else
wire [RIW-1:0] r_dest = r_id[S_ID_WIDTH +: RIW];
`endif
wire r_dest_bad = {1'b0, r_dest} >= N_RD_C;

reg r_pop_c;
integer ri;

always @* begin
    r_pop_c = !r_empty && r_dest_bad;
    for (ri = 0; ri < N_RD; ri = ri + 1) begin
        if (r_dest == ri[RIW-1:0] && !r_empty && s_axi_rready[ri])
            r_pop_c = 1'b1;
    end
end

froce_fifo #(
    .WIDTH(RSW),
    .DEPTH(2)
) r_slice_inst (
    .clk(clk),
    .rst(rst),
    .wr_data({m_axi_rid, m_axi_rdata, m_axi_rresp, m_axi_rlast}),
    .wr_en(m_axi_rvalid),
    .rd_data(r_head),
    .rd_en(r_pop_c),
    .count(unused_r_count),
    .empty(r_empty),
    .full(r_full)
);

assign m_axi_rready = !r_full;

generate
    for (gi = 0; gi < N_RD; gi = gi + 1) begin : g_r
        assign s_axi_rvalid[gi] = !r_empty && r_dest == gi[RIW-1:0];
        assign s_axi_rid[gi*S_ID_WIDTH +: S_ID_WIDTH] = r_id[S_ID_WIDTH-1:0];
        assign s_axi_rdata[gi*DATA_WIDTH +: DATA_WIDTH] = r_data;
        assign s_axi_rresp[gi*2 +: 2] = r_resp;
        assign s_axi_rlast[gi] = r_last;
    end
endgenerate

/* ------------------------------------------------------------------------
 * AW: arbiter, slice, W order FIFO
 * ------------------------------------------------------------------------ */

reg [2:0] aw_last_reg = 3'd0;

wire [7:0] aw_req = {{(8-N_WR){1'b0}}, s_axi_awvalid};
wire [3:0] aw_pick = rr_pick(aw_req, aw_last_reg);
wire aw_any = aw_pick[3];
wire [WIW-1:0] aw_gnt = aw_pick[WIW-1:0];
wire [2:0] unused_aw_pick = aw_pick[2:0];

wire aw_full, aw_empty;
wire wq_full, wq_empty;
wire aw_load = aw_any && !aw_full && !wq_full;
wire [AXW-1:0] aw_head;
wire [1:0] unused_aw_count;

reg [AXW-1:0] aw_in_c;
integer wi;

always @* begin
    aw_in_c = {AXW{1'b0}};
    for (wi = 0; wi < N_WR; wi = wi + 1) begin
        if (aw_gnt == wi[WIW-1:0])
            aw_in_c = {aw_mid(wi[WIW-1:0], s_axi_awid[wi*S_ID_WIDTH +: S_ID_WIDTH]),
                       s_axi_awaddr[wi*64 +: 64], s_axi_awlen[wi*8 +: 8], s_axi_awsize[wi*3 +: 3],
                       s_axi_awburst[wi*2 +: 2], s_axi_awlock[wi], s_axi_awcache[wi*4 +: 4],
                       s_axi_awprot[wi*3 +: 3]};
    end
end

always @(posedge clk) begin
    if (aw_load)
        aw_last_reg <= {{(3-WIW){1'b0}}, aw_gnt};
    if (rst)
        aw_last_reg <= 3'd0;
end

generate
    for (gi = 0; gi < N_WR; gi = gi + 1) begin : g_awready
        assign s_axi_awready[gi] = aw_load && aw_gnt == gi[WIW-1:0];
    end
endgenerate

froce_fifo #(
    .WIDTH(AXW),
    .DEPTH(2)
) aw_slice_inst (
    .clk(clk),
    .rst(rst),
    .wr_data(aw_in_c),
    .wr_en(aw_load),
    .rd_data(aw_head),
    .rd_en(m_axi_awready),
    .count(unused_aw_count),
    .empty(aw_empty),
    .full(aw_full)
);

assign {m_axi_awid, m_axi_awaddr, m_axi_awlen, m_axi_awsize, m_axi_awburst, m_axi_awlock, m_axi_awcache,
        m_axi_awprot} = aw_head;
assign m_axi_awvalid = !aw_empty;

/* ------------------------------------------------------------------------
 * W: beats of the master at the head of the W order FIFO, until WLAST
 * ------------------------------------------------------------------------ */

wire [WIW-1:0] wq_head;
wire [$clog2(W_FIFO_DEPTH):0] unused_wq_count;

wire w_full, w_empty;
wire [WSW-1:0] w_head;
wire [1:0] unused_w_count;

reg [WSW-1:0] w_in_c;
reg w_valid_c;
integer wj;

always @* begin
    w_in_c = {WSW{1'b0}};
    w_valid_c = 1'b0;
    for (wj = 0; wj < N_WR; wj = wj + 1) begin
        if (wq_head == wj[WIW-1:0]) begin
            w_in_c = {s_axi_wdata[wj*DATA_WIDTH +: DATA_WIDTH], s_axi_wstrb[wj*STRB +: STRB], s_axi_wlast[wj]};
            w_valid_c = s_axi_wvalid[wj];
        end
    end
end

wire w_open = !wq_empty && !w_full;                 // the head master's next beat may go in
wire w_take = w_open && w_valid_c;
wire wq_pop = w_take && w_in_c[0];

froce_fifo #(
    .WIDTH(WIW),
    .DEPTH(W_FIFO_DEPTH)
) wq_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data(aw_gnt),
    .wr_en(aw_load),
    .rd_data(wq_head),
    .rd_en(wq_pop),
    .count(unused_wq_count),
    .empty(wq_empty),
    .full(wq_full)
);

generate
    for (gi = 0; gi < N_WR; gi = gi + 1) begin : g_wready
        assign s_axi_wready[gi] = w_open && wq_head == gi[WIW-1:0];
    end
endgenerate

froce_fifo #(
    .WIDTH(WSW),
    .DEPTH(2)
) w_slice_inst (
    .clk(clk),
    .rst(rst),
    .wr_data(w_in_c),
    .wr_en(w_take),
    .rd_data(w_head),
    .rd_en(m_axi_wready),
    .count(unused_w_count),
    .empty(w_empty),
    .full(w_full)
);

assign {m_axi_wdata, m_axi_wstrb, m_axi_wlast} = w_head;
assign m_axi_wvalid = !w_empty;

/* ------------------------------------------------------------------------
 * B: slice, then routed by the BID index bits
 * ------------------------------------------------------------------------ */

wire b_full, b_empty;
wire [BSW-1:0] b_head;
wire [1:0] unused_b_count;

wire [M_ID_WIDTH-1:0] b_id = b_head[BSW-1 -: M_ID_WIDTH];
wire [1:0] b_resp = b_head[1:0];
wire [M_ID_WIDTH-1:0] unused_b_id = b_id;          // bits above the index are not looked at

`ifdef FROCE_AXI_MUX_TEST_SWAP
wire [WIW-1:0] b_dest = b_id[S_ID_WIDTH +: WIW] ^ ((b_id[S_ID_WIDTH +: WIW] >> 1) == {WIW{1'b0}} ? {{(WIW-1){1'b0}}, 1'b1} : {WIW{1'b0}});
`else
wire [WIW-1:0] b_dest = b_id[S_ID_WIDTH +: WIW];
`endif
wire b_dest_bad = {1'b0, b_dest} >= N_WR_C;

reg b_pop_c;
integer bi;

always @* begin
    b_pop_c = !b_empty && b_dest_bad;
    for (bi = 0; bi < N_WR; bi = bi + 1) begin
        if (b_dest == bi[WIW-1:0] && !b_empty && s_axi_bready[bi])
            b_pop_c = 1'b1;
    end
end

froce_fifo #(
    .WIDTH(BSW),
    .DEPTH(2)
) b_slice_inst (
    .clk(clk),
    .rst(rst),
    .wr_data({m_axi_bid, m_axi_bresp}),
    .wr_en(m_axi_bvalid),
    .rd_data(b_head),
    .rd_en(b_pop_c),
    .count(unused_b_count),
    .empty(b_empty),
    .full(b_full)
);

assign m_axi_bready = !b_full;

generate
    for (gi = 0; gi < N_WR; gi = gi + 1) begin : g_b
        assign s_axi_bvalid[gi] = !b_empty && b_dest == gi[WIW-1:0];
        assign s_axi_bid[gi*S_ID_WIDTH +: S_ID_WIDTH] = b_id[S_ID_WIDTH-1:0];
        assign s_axi_bresp[gi*2 +: 2] = b_resp;
    end
endgenerate

endmodule

`resetall
