// SPDX-License-Identifier: MIT
// AXI4 width upsizer: our DMA master (froce_core m_axi_*, S_DATA_WIDTH) to a wider AXI4 slave (the XDMA AXI slave bridge, M_DATA_WIDTH), one burst out per burst in.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Supported input bursts (what froce_dma_rd/froce_dma_wr and so froce_core
 * emit, see rtl/dma/froce_dma_wr.v "splitter"):
 *
 *   AxBURST  INCR
 *   AxSIZE   the full input width, log2(S_DATA_WIDTH / 8)
 *   AxLEN    0..255
 *   AxADDR   any (froce_core: aligned to S_DATA_WIDTH / 8; an unaligned
 *            start is handled as AXI defines it: beat 0 covers the input
 *            word that holds AxADDR)
 *   4 KiB    the burst does not cross a 4 KiB boundary (an AXI rule)
 *
 * Anything else (FIXED, WRAP, narrow AxSIZE, a 4 KiB crossing, WLAST or RLAST
 * not where the burst length puts it, read data with an ID that has no burst
 * outstanding) is not converted correctly; in simulation each one prints
 * "froce_axi_upsize: ERROR ..." and increments sim_errors (the benches check
 * it is 0). The code that does so is left out when SYNTHESIS is defined.
 *
 * Conversion: R = M_DATA_WIDTH / S_DATA_WIDTH input words per output word;
 * lane = the input word's position in the output word, by address.
 *
 *   AW/AR  one output burst per input burst, same ID, address (unchanged,
 *          so the slave sees the exact first byte), LOCK, CACHE, PROT;
 *          AxSIZE = the full output width (the XDMA slave bridge does not
 *          take narrow transfers), AxLEN = (lane0 + len) / R where lane0 =
 *          the lane of AxADDR: the output words the input bytes touch.
 *          The output burst lies in the same 4 KiB page.
 *   W      input beat k goes to lane (lane0 + k) mod R of the current output
 *          beat with its WSTRB; lanes no input beat wrote carry WSTRB 0 and
 *          data 0. An output beat is sent when lane R-1 is written or on the
 *          input WLAST (which becomes the output WLAST). Strobes stay
 *          contiguous when the input's are (the XDMA's requirement).
 *   B      passed through (one B per burst, BID unchanged).
 *   R      output beat j of a burst yields the input beats whose lanes it
 *          holds: from lane0 (j = 0) or 0, up to lane R-1 or the burst's last
 *          input beat; RRESP is copied to each; RLAST on the last input beat.
 *
 * Read data with different IDs may come back in any order and interleaved
 * beat by beat (AXI allows it, and nothing here relies on the XDMA not doing
 * it): every ID has its own queue of outstanding bursts {lane0, len}
 * (RD_FIFO_DEPTH entries; an AR waits while its ID's queue is full) and its
 * own count of input beats already returned from the head burst. Same-ID
 * bursts complete in order, as AXI requires, so the head is always the burst
 * the beat belongs to. W beats follow AW order (AXI4 has no WID): one queue
 * of {lane0, len} for the W path (W_FIFO_DEPTH bursts accepted on AW whose
 * W beats have not all passed).
 *
 * Channels: AR and AW are accepted into one output register each (one per
 * cycle when the slave keeps up); s_axi_awready does not wait for W, and W
 * beats are passed as soon as their AW was accepted here (not waiting for the
 * output AW handshake), so a slave that waits for W before AWREADY does not
 * deadlock. The W output register is also the word being assembled: W runs
 * at one input beat per cycle. R: one output word is held while its input
 * beats are handed out, and the next word is taken with the last of them:
 * one input beat per cycle. Combinational paths: s_axi_wready from
 * m_axi_wready, m_axi_rready from s_axi_rready, s_axi_awready from
 * m_axi_awready, s_axi_arready from m_axi_arready and s_axi_arid; B
 * straight through.
 */
module froce_axi_upsize #(
    parameter S_DATA_WIDTH = 64,        // input (our DMA) data width: 32..256, a power of two
    parameter M_DATA_WIDTH = 256,       // output (XDMA slave) data width: 2..16 times S_DATA_WIDTH, a power of two, <= 1024
    parameter ADDR_WIDTH = 64,          // address width, both sides, >= 12
    parameter ID_WIDTH = 4,             // AXI ID width, both sides, 1..6 (one read queue per ID value)
    parameter W_FIFO_DEPTH = 16,        // write bursts accepted whose W beats are not all through: power of two >= 2
    parameter RD_FIFO_DEPTH = 8         // read bursts outstanding per ID: power of two >= 2
) (
    input  wire                         clk,
    input  wire                         rst,

    /* AXI4 slave (from froce_core m_axi_*): write address */
    input  wire [ID_WIDTH-1:0]          s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]        s_axi_awaddr,
    input  wire [7:0]                   s_axi_awlen,
    input  wire [2:0]                   s_axi_awsize,
    input  wire [1:0]                   s_axi_awburst,
    input  wire                         s_axi_awlock,
    input  wire [3:0]                   s_axi_awcache,
    input  wire [2:0]                   s_axi_awprot,
    input  wire                         s_axi_awvalid,
    output wire                         s_axi_awready,

    /* AXI4 slave: write data */
    input  wire [S_DATA_WIDTH-1:0]      s_axi_wdata,
    input  wire [S_DATA_WIDTH/8-1:0]    s_axi_wstrb,
    input  wire                         s_axi_wlast,
    input  wire                         s_axi_wvalid,
    output wire                         s_axi_wready,

    /* AXI4 slave: write response */
    output wire [ID_WIDTH-1:0]          s_axi_bid,
    output wire [1:0]                   s_axi_bresp,
    output wire                         s_axi_bvalid,
    input  wire                         s_axi_bready,

    /* AXI4 slave: read address */
    input  wire [ID_WIDTH-1:0]          s_axi_arid,
    input  wire [ADDR_WIDTH-1:0]        s_axi_araddr,
    input  wire [7:0]                   s_axi_arlen,
    input  wire [2:0]                   s_axi_arsize,
    input  wire [1:0]                   s_axi_arburst,
    input  wire                         s_axi_arlock,
    input  wire [3:0]                   s_axi_arcache,
    input  wire [2:0]                   s_axi_arprot,
    input  wire                         s_axi_arvalid,
    output wire                         s_axi_arready,

    /* AXI4 slave: read data */
    output wire [ID_WIDTH-1:0]          s_axi_rid,
    output wire [S_DATA_WIDTH-1:0]      s_axi_rdata,
    output wire [1:0]                   s_axi_rresp,
    output wire                         s_axi_rlast,
    output wire                         s_axi_rvalid,
    input  wire                         s_axi_rready,

    /* AXI4 master (to the XDMA AXI slave bridge): write address */
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
    output wire [M_DATA_WIDTH-1:0]      m_axi_wdata,
    output wire [M_DATA_WIDTH/8-1:0]    m_axi_wstrb,
    output wire                         m_axi_wlast,
    output wire                         m_axi_wvalid,
    input  wire                         m_axi_wready,

    /* AXI4 master: write response */
    input  wire [ID_WIDTH-1:0]          m_axi_bid,
    input  wire [1:0]                   m_axi_bresp,
    input  wire                         m_axi_bvalid,
    output wire                         m_axi_bready,

    /* AXI4 master: read address */
    output wire [ID_WIDTH-1:0]          m_axi_arid,
    output wire [ADDR_WIDTH-1:0]        m_axi_araddr,
    output wire [7:0]                   m_axi_arlen,
    output wire [2:0]                   m_axi_arsize,
    output wire [1:0]                   m_axi_arburst,
    output wire                         m_axi_arlock,
    output wire [3:0]                   m_axi_arcache,
    output wire [2:0]                   m_axi_arprot,
    output wire                         m_axi_arvalid,
    input  wire                         m_axi_arready,

    /* AXI4 master: read data */
    input  wire [ID_WIDTH-1:0]          m_axi_rid,
    input  wire [M_DATA_WIDTH-1:0]      m_axi_rdata,
    input  wire [1:0]                   m_axi_rresp,
    input  wire                         m_axi_rlast,
    input  wire                         m_axi_rvalid,
    output wire                         m_axi_rready
);

localparam SB = S_DATA_WIDTH / 8;           // input bytes per beat
localparam MB = M_DATA_WIDTH / 8;           // output bytes per beat
localparam R = MB / SB;                     // input words per output word
localparam KS = $clog2(SB);
localparam KM = $clog2(MB);
localparam KR = KM - KS;                    // lane index bits, >= 1
localparam NID = 1 << ID_WIDTH;
localparam QW = KR + 8;                     // queue entry {lane0, len}
localparam WFW = $clog2(W_FIFO_DEPTH);
localparam RFW = $clog2(RD_FIFO_DEPTH);

localparam [2:0] M_SIZE = KM[2:0];
localparam [KR-1:0] LANE_MAX = {KR{1'b1}};

initial begin
    if (SB < 4 || SB > 32 || (1 << KS) != SB || MB > 128 || (1 << KM) != MB || R < 2 || R > 16 ||
        ADDR_WIDTH < 12 || ID_WIDTH < 1 || ID_WIDTH > 6 ||
        W_FIFO_DEPTH < 2 || (1 << WFW) != W_FIFO_DEPTH || RD_FIFO_DEPTH < 2 || (1 << RFW) != RD_FIFO_DEPTH) begin
        $display("froce_axi_upsize: bad parameters");
        $finish;
    end
end

// The same checks, fatal at elaboration in every tool (Yosys ignores
// initial blocks): a deliberately nonexistent module named after the problem.
generate
    if (SB < 4 || SB > 32 || (1 << KS) != SB || MB > 128 || (1 << KM) != MB || R < 2 || R > 16 ||
        ADDR_WIDTH < 12 || ID_WIDTH < 1 || ID_WIDTH > 6 ||
        W_FIFO_DEPTH < 2 || (1 << WFW) != W_FIFO_DEPTH || RD_FIFO_DEPTH < 2 ||
        (1 << RFW) != RD_FIFO_DEPTH) begin : g_bad_parameter
        froce_axi_upsize_bad_parameter u_bad_parameter ();
    end
endgenerate

// output AxLEN of an input burst: (lane0 + len) / R (< 256 since R >= 2)
function [8:0] out_len;
    input [KR-1:0] lane0;
    input [7:0] len;
    begin
        out_len = ({1'b0, len} + {{(9-KR){1'b0}}, lane0}) >> KR;
    end
endfunction

/* ------------------------------------------------------------------------
 * Write address and the W queue
 * ------------------------------------------------------------------------ */

reg                     aw_valid_reg = 1'b0;
reg [ID_WIDTH-1:0]      aw_id_reg = {ID_WIDTH{1'b0}};
reg [ADDR_WIDTH-1:0]    aw_addr_reg = {ADDR_WIDTH{1'b0}};
reg [7:0]               aw_len_reg = 8'd0;
reg                     aw_lock_reg = 1'b0;
reg [3:0]               aw_cache_reg = 4'd0;
reg [2:0]               aw_prot_reg = 3'd0;

wire wq_full, wq_empty;
wire [QW-1:0] wq_head;
wire [WFW:0] unused_wq_count;
wire [KR-1:0] s_aw_lane = s_axi_awaddr[KM-1:KS];
wire [8:0] s_aw_len9 = out_len(s_aw_lane, s_axi_awlen);
wire unused_aw_len9 = s_aw_len9[8];

assign s_axi_awready = (!aw_valid_reg || m_axi_awready) && !wq_full;
wire aw_fire = s_axi_awvalid && s_axi_awready;

always @(posedge clk) begin
    if (m_axi_awready)
        aw_valid_reg <= 1'b0;
    if (aw_fire) begin
        aw_valid_reg <= 1'b1;
        aw_id_reg <= s_axi_awid;
        aw_addr_reg <= s_axi_awaddr;
        aw_len_reg <= s_aw_len9[7:0];
        aw_lock_reg <= s_axi_awlock;
        aw_cache_reg <= s_axi_awcache;
        aw_prot_reg <= s_axi_awprot;
    end
    if (rst)
        aw_valid_reg <= 1'b0;
end

assign m_axi_awid = aw_id_reg;
assign m_axi_awaddr = aw_addr_reg;
assign m_axi_awlen = aw_len_reg;
assign m_axi_awsize = M_SIZE;
assign m_axi_awburst = 2'b01;                       // INCR
assign m_axi_awlock = aw_lock_reg;
assign m_axi_awcache = aw_cache_reg;
assign m_axi_awprot = aw_prot_reg;
assign m_axi_awvalid = aw_valid_reg;

/* ------------------------------------------------------------------------
 * Write data: input beats assembled in the output register
 * ------------------------------------------------------------------------ */

reg                     w_valid_reg = 1'b0, w_valid_next;
reg [M_DATA_WIDTH-1:0]  w_data_reg = {M_DATA_WIDTH{1'b0}}, w_data_next;
reg [MB-1:0]            w_strb_reg = {MB{1'b0}}, w_strb_next;
reg                     w_last_reg = 1'b0, w_last_next;
reg [KR-1:0]            w_lane_reg = {KR{1'b0}}, w_lane_next;
reg                     w_first_reg = 1'b1, w_first_next;   // next input beat starts a burst

wire [KR-1:0] wq_lane0 = wq_head[QW-1 -: KR];
wire [KR-1:0] w_lane = w_first_reg ? wq_lane0 : w_lane_reg;

assign s_axi_wready = !wq_empty && (!w_valid_reg || m_axi_wready);
wire w_fire = s_axi_wvalid && s_axi_wready;
wire wq_pop = w_fire && s_axi_wlast;

always @* begin
    w_valid_next = w_valid_reg && !m_axi_wready;
    w_data_next = w_data_reg;
    w_strb_next = w_strb_reg;
    w_last_next = w_last_reg;
    w_lane_next = w_lane_reg;
    w_first_next = w_first_reg;

    if (w_valid_reg && m_axi_wready) begin
        w_data_next = {M_DATA_WIDTH{1'b0}};
        w_strb_next = {MB{1'b0}};
    end
    if (w_fire) begin
        w_data_next[w_lane * S_DATA_WIDTH +: S_DATA_WIDTH] = s_axi_wdata;
        w_strb_next[w_lane * SB +: SB] = s_axi_wstrb;
        if (w_lane == LANE_MAX || s_axi_wlast) begin
            w_valid_next = 1'b1;
            w_last_next = s_axi_wlast;
        end
        w_lane_next = w_lane + 1'b1;
        w_first_next = s_axi_wlast;
    end
end

always @(posedge clk) begin
    w_valid_reg <= w_valid_next;
    w_data_reg <= w_data_next;
    w_strb_reg <= w_strb_next;
    w_last_reg <= w_last_next;
    w_lane_reg <= w_lane_next;
    w_first_reg <= w_first_next;
    if (rst) begin
        w_valid_reg <= 1'b0;
        w_data_reg <= {M_DATA_WIDTH{1'b0}};
        w_strb_reg <= {MB{1'b0}};
        w_first_reg <= 1'b1;
    end
end

assign m_axi_wdata = w_data_reg;
assign m_axi_wstrb = w_strb_reg;
assign m_axi_wlast = w_last_reg;
assign m_axi_wvalid = w_valid_reg;

froce_fifo #(
    .WIDTH(QW),
    .DEPTH(W_FIFO_DEPTH)
) w_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data({s_aw_lane, s_axi_awlen}),
    .wr_en(aw_fire),
    .rd_data(wq_head),
    .rd_en(wq_pop),
    .count(unused_wq_count),
    .empty(wq_empty),
    .full(wq_full)
);

/* ------------------------------------------------------------------------
 * Write response: straight through
 * ------------------------------------------------------------------------ */

assign s_axi_bid = m_axi_bid;
assign s_axi_bresp = m_axi_bresp;
assign s_axi_bvalid = m_axi_bvalid;
assign m_axi_bready = s_axi_bready;

/* ------------------------------------------------------------------------
 * Read address and the per-ID read queues
 * ------------------------------------------------------------------------ */

reg                     ar_valid_reg = 1'b0;
reg [ID_WIDTH-1:0]      ar_id_reg = {ID_WIDTH{1'b0}};
reg [ADDR_WIDTH-1:0]    ar_addr_reg = {ADDR_WIDTH{1'b0}};
reg [7:0]               ar_len_reg = 8'd0;
reg                     ar_lock_reg = 1'b0;
reg [3:0]               ar_cache_reg = 4'd0;
reg [2:0]               ar_prot_reg = 3'd0;

wire [NID-1:0] rq_full, rq_empty;
wire [NID*QW-1:0] rq_heads;
wire [KR-1:0] s_ar_lane = s_axi_araddr[KM-1:KS];
wire [8:0] s_ar_len9 = out_len(s_ar_lane, s_axi_arlen);
wire unused_ar_len9 = s_ar_len9[8];

assign s_axi_arready = (!ar_valid_reg || m_axi_arready) && !rq_full[s_axi_arid];
wire ar_fire = s_axi_arvalid && s_axi_arready;

always @(posedge clk) begin
    if (m_axi_arready)
        ar_valid_reg <= 1'b0;
    if (ar_fire) begin
        ar_valid_reg <= 1'b1;
        ar_id_reg <= s_axi_arid;
        ar_addr_reg <= s_axi_araddr;
        ar_len_reg <= s_ar_len9[7:0];
        ar_lock_reg <= s_axi_arlock;
        ar_cache_reg <= s_axi_arcache;
        ar_prot_reg <= s_axi_arprot;
    end
    if (rst)
        ar_valid_reg <= 1'b0;
end

assign m_axi_arid = ar_id_reg;
assign m_axi_araddr = ar_addr_reg;
assign m_axi_arlen = ar_len_reg;
assign m_axi_arsize = M_SIZE;
assign m_axi_arburst = 2'b01;                       // INCR
assign m_axi_arlock = ar_lock_reg;
assign m_axi_arcache = ar_cache_reg;
assign m_axi_arprot = ar_prot_reg;
assign m_axi_arvalid = ar_valid_reg;

/* ------------------------------------------------------------------------
 * Read data: output words split into input beats
 * ------------------------------------------------------------------------ */

// Held output word and the lanes still to hand out.
reg                     rb_valid_reg = 1'b0;
reg [M_DATA_WIDTH-1:0]  rb_data_reg = {M_DATA_WIDTH{1'b0}};
reg [ID_WIDTH-1:0]      rb_id_reg = {ID_WIDTH{1'b0}};
reg [1:0]               rb_resp_reg = 2'b00;
reg [KR-1:0]            rb_lane_reg = {KR{1'b0}};
reg [KR-1:0]            rb_lane_end_reg = {KR{1'b0}};
reg                     rb_last_reg = 1'b0;         // the word ends its burst

// Per ID (9 bits each): input beats already returned from the head burst.
reg [NID*9-1:0]         rd_pos_reg = {NID*9{1'b0}};

wire rb_at_end = rb_lane_reg == rb_lane_end_reg;
assign m_axi_rready = !rb_valid_reg || (s_axi_rready && rb_at_end);
wire r_fire = m_axi_rvalid && m_axi_rready;
wire s_r_fire = rb_valid_reg && s_axi_rready;

// The burst the arriving word belongs to: head of its ID's queue.
wire [QW-1:0] r_head = rq_heads[m_axi_rid * QW +: QW];
wire [KR-1:0] r_lane0 = r_head[QW-1 -: KR];
wire [8:0] r_beats = {1'b0, r_head[7:0]} + 9'd1;        // input beats of the burst
wire [8:0] r_pos = rd_pos_reg[m_axi_rid * 9 +: 9];
wire [KR-1:0] r_lane_start = r_pos == 9'd0 ? r_lane0 : {KR{1'b0}};
wire [8:0] r_remaining = r_beats - r_pos;
wire [8:0] r_room = 9'd1 + {{(9-KR){1'b0}}, LANE_MAX - r_lane_start};   // lanes from the start to R-1
wire r_burst_end = r_remaining <= r_room;
wire [8:0] r_count = r_burst_end ? r_remaining : r_room;
wire [8:0] r_lane_end9 = {{(9-KR){1'b0}}, r_lane_start} + r_count - 9'd1;
wire [NID-1:0] rq_pop = r_fire && r_burst_end ? {{(NID-1){1'b0}}, 1'b1} << m_axi_rid : {NID{1'b0}};
wire [NID-1:0] rq_push = ar_fire ? {{(NID-1){1'b0}}, 1'b1} << s_axi_arid : {NID{1'b0}};
wire [8-KR:0] unused_r_lane_end = r_lane_end9[8:KR];

always @(posedge clk) begin
    if (s_r_fire) begin
        if (rb_at_end)
            rb_valid_reg <= 1'b0;
        else
            rb_lane_reg <= rb_lane_reg + 1'b1;
    end
    if (r_fire) begin
        rb_valid_reg <= 1'b1;
        rb_data_reg <= m_axi_rdata;
        rb_id_reg <= m_axi_rid;
        rb_resp_reg <= m_axi_rresp;
        rb_lane_reg <= r_lane_start;
        rb_lane_end_reg <= r_lane_end9[KR-1:0];
        rb_last_reg <= r_burst_end;
        rd_pos_reg[m_axi_rid * 9 +: 9] <= r_burst_end ? 9'd0 : r_pos + r_count;
    end
    if (rst) begin
        rb_valid_reg <= 1'b0;
        rd_pos_reg <= {NID*9{1'b0}};
    end
end

assign s_axi_rid = rb_id_reg;
assign s_axi_rdata = rb_data_reg[rb_lane_reg * S_DATA_WIDTH +: S_DATA_WIDTH];
assign s_axi_rresp = rb_resp_reg;
assign s_axi_rlast = rb_last_reg && rb_at_end;
assign s_axi_rvalid = rb_valid_reg;

generate
    genvar qi;
    for (qi = 0; qi < NID; qi = qi + 1) begin : g_rq
        wire [RFW:0] unused_count;
        froce_fifo #(
            .WIDTH(QW),
            .DEPTH(RD_FIFO_DEPTH)
        ) rq_fifo_inst (
            .clk(clk),
            .rst(rst),
            .wr_data({s_ar_lane, s_axi_arlen}),
            .wr_en(rq_push[qi]),
            .rd_data(rq_heads[qi * QW +: QW]),
            .rd_en(rq_pop[qi]),
            .count(unused_count),
            .empty(rq_empty[qi]),
            .full(rq_full[qi])
        );
    end
endgenerate

/* ------------------------------------------------------------------------
 * Simulation checks: the input shapes this block converts
 * ------------------------------------------------------------------------ */

`ifndef SYNTHESIS
integer sim_errors = 0;
reg [7:0] sim_w_beat = 8'd0;       // input W beat within the head W burst

// bytes from the input-word-aligned start to the burst end, within its page
function [13:0] page_end;
    input [11:0] addr;
    input [7:0] len;
    begin
        page_end = {2'b00, addr & ~(SB[11:0] - 12'd1)} + (({6'd0, len} + 14'd1) << KS);
    end
endfunction

always @(posedge clk) begin
    if (!rst) begin
        if (aw_fire && (s_axi_awburst != 2'b01 || s_axi_awsize != KS[2:0] ||
                        page_end(s_axi_awaddr[11:0], s_axi_awlen) > 14'd4096)) begin
            $display("froce_axi_upsize: ERROR unsupported AW burst addr %h len %0d size %0d burst %0d",
                     s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst);
            sim_errors <= sim_errors + 1;
        end
        if (ar_fire && (s_axi_arburst != 2'b01 || s_axi_arsize != KS[2:0] ||
                        page_end(s_axi_araddr[11:0], s_axi_arlen) > 14'd4096)) begin
            $display("froce_axi_upsize: ERROR unsupported AR burst addr %h len %0d size %0d burst %0d",
                     s_axi_araddr, s_axi_arlen, s_axi_arsize, s_axi_arburst);
            sim_errors <= sim_errors + 1;
        end
        if (w_fire) begin
            if (s_axi_wlast != (sim_w_beat == wq_head[7:0])) begin
                $display("froce_axi_upsize: ERROR WLAST %0d on beat %0d of a %0d-beat burst",
                         s_axi_wlast, sim_w_beat, wq_head[7:0] + 1);
                sim_errors <= sim_errors + 1;
            end
            sim_w_beat <= s_axi_wlast ? 8'd0 : sim_w_beat + 8'd1;
        end
        if (r_fire && rq_empty[m_axi_rid]) begin
            $display("froce_axi_upsize: ERROR read data with ID %0d, no burst outstanding", m_axi_rid);
            sim_errors <= sim_errors + 1;
        end else if (r_fire && m_axi_rlast != r_burst_end) begin
            $display("froce_axi_upsize: ERROR RLAST %0d where the burst %s", m_axi_rlast,
                     r_burst_end ? "ends" : "goes on");
            sim_errors <= sim_errors + 1;
        end
    end else begin
        sim_w_beat <= 8'd0;
    end
end
`else
wire [NID-1:0] unused_rq_empty = rq_empty;
`endif

endmodule

`resetall
