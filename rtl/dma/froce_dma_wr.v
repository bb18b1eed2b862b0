// SPDX-License-Identifier: MIT
// Host-memory DMA write engine: descriptors and an AXI-Stream of data in, AXI4 write bursts out, per-descriptor status back.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Operation (see docs/dma.md for the full description):
 *
 *   descriptor (addr, len, tag)
 *     -> splitter: one AW burst per CHUNK-aligned piece of [addr, addr+len),
 *        CHUNK = min(MAX_BURST_BEATS * bytes per beat, 4096), so no burst
 *        crosses a 4 KiB boundary or exceeds MAX_BURST_BEATS. AWADDR is the
 *        piece's start rounded down to the bus width; AWSIZE is the bus width.
 *        At most MAX_OUTSTANDING bursts are in flight (AW issued, B not yet
 *        received). One AXI ID (0).
 *     -> W generator: bus beat k = bytes [W-off, 2W-off) of {in[k], in[k-1]},
 *        off = addr mod W, with WSTRB clear below addr on the first beat and
 *        from addr+len on on the last; WLAST at each burst's end. W beats may
 *        run ahead of the AW handshake (never ahead of AWVALID).
 *     -> B collector: one status (tag, error) per descriptor, in order, after
 *        the last B response of its bursts.
 *
 * The data stream carries exactly ceil(len / W) beats per descriptor, byte 0
 * of the first beat being the byte written at addr; the engine counts beats
 * and ignores tkeep and tlast. len = 0 is refused: no bus traffic, no data
 * beat consumed, status DMA_ERR_BAD_LEN, still in descriptor order. A burst
 * answered SLVERR/DECERR sets the error of its request (DECERR wins).
 *
 * Throughput: one W beat per cycle, including across requests and bursts.
 */
module froce_dma_wr #(
    parameter DATA_WIDTH = 64,                  // AXI and stream data width in bits: 64, 128, 256 or 512
    parameter TAG_WIDTH = 8,                    // descriptor tag width (returned as status tag)
    parameter AXI_ID_WIDTH = 4,                 // AXI ID width; every burst uses ID 0
    parameter MAX_BURST_BEATS = 256,            // longest AW burst in beats: power of two, 2..256
    parameter MAX_OUTSTANDING = 8,              // AW bursts in flight at most: power of two >= 2
    parameter REQ_DEPTH = 16                    // descriptors in flight at most: power of two >= 2
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Write descriptor in */
    input  wire [63:0]                  s_wr_desc_addr,
    input  wire [15:0]                  s_wr_desc_len,      // bytes, 1..65535; 0 is refused
    input  wire [TAG_WIDTH-1:0]         s_wr_desc_tag,
    input  wire                         s_wr_desc_valid,
    output wire                         s_wr_desc_ready,

    /* Write data in: ceil(len / W) beats per descriptor */
    input  wire [DATA_WIDTH-1:0]        s_wr_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_wr_axis_tkeep,    // ignored (length comes from the descriptor)
    input  wire                         s_wr_axis_tvalid,
    output wire                         s_wr_axis_tready,
    input  wire                         s_wr_axis_tlast,    // ignored (length comes from the descriptor)

    /* Write status out: one per descriptor, in order */
    output wire [TAG_WIDTH-1:0]         m_wr_status_tag,
    output wire [3:0]                   m_wr_status_error,  // DMA_ERR_* (froce_dma_defs.vh)
    output wire                         m_wr_status_valid,
    input  wire                         m_wr_status_ready,

    /* AXI4 master: write address */
    output wire [AXI_ID_WIDTH-1:0]      m_axi_awid,
    output wire [63:0]                  m_axi_awaddr,
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
    input  wire [AXI_ID_WIDTH-1:0]      m_axi_bid,
    input  wire [1:0]                   m_axi_bresp,
    input  wire                         m_axi_bvalid,
    output wire                         m_axi_bready
);

`include "froce_dma_defs.vh"

localparam W = DATA_WIDTH / 8;                      // bytes per beat
localparam KW = $clog2(W);                          // byte-in-beat index bits
localparam BURST_BYTES = MAX_BURST_BEATS * W;
localparam CHUNK = BURST_BYTES < 4096 ? BURST_BYTES : 4096;   // bursts never cross a CHUNK boundary
localparam CB = $clog2(CHUNK);
localparam BIW = CB - KW;                           // beat-in-chunk index bits, 1..8
localparam BW = 17 - KW;                            // per-request beat counts
localparam OW = $clog2(MAX_OUTSTANDING) + 1;
localparam RQW = KW + KW + BW + BW;                 // W-generator request FIFO entry
localparam SIW = TAG_WIDTH + 1;                     // status-order FIFO entry
localparam STW = TAG_WIDTH + 4;                     // status FIFO entry

localparam [CB:0] CHUNK_C = CHUNK[CB:0];
localparam [OW-1:0] MAX_OUT_C = MAX_OUTSTANDING[OW-1:0];
localparam [2:0] SIZE_C = KW[2:0];
localparam [KW:0] W_C = W[KW:0];

initial begin
    if (W < 8 || W > 64 || (1 << KW) != W) begin
        $display("froce_dma_wr: DATA_WIDTH must be 64, 128, 256 or 512");
        $finish;
    end
    if (MAX_BURST_BEATS < 2 || MAX_BURST_BEATS > 256 || (1 << $clog2(MAX_BURST_BEATS)) != MAX_BURST_BEATS) begin
        $display("froce_dma_wr: MAX_BURST_BEATS must be a power of two, 2..256");
        $finish;
    end
end

// The same checks, made fatal at elaboration in every tool (Yosys ignores
// initial blocks): a deliberately nonexistent module named after the problem.
generate
    if (W < 8 || W > 64 || (1 << KW) != W ||
        MAX_BURST_BEATS < 2 || MAX_BURST_BEATS > 256 || (1 << $clog2(MAX_BURST_BEATS)) != MAX_BURST_BEATS) begin : g_bad_parameter
        froce_dma_wr_bad_parameter u_bad_parameter ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * Descriptor intake: W-generator request FIFO and status-order FIFO
 * ------------------------------------------------------------------------ */

reg sp_active_reg = 1'b0, sp_active_next;
reg [63:0] sp_addr_reg = 64'd0, sp_addr_next;
reg [15:0] sp_rem_reg = 16'd0, sp_rem_next;

wire req_full, req_empty, si_full, si_empty;
wire [RQW-1:0] req_head;
wire [SIW-1:0] si_head;
reg req_pop_c, si_pop_c;

wire desc_fire = s_wr_desc_valid && s_wr_desc_ready;
wire desc_bad = s_wr_desc_len == 16'd0;

wire [16:0] d_endm1 = {1'b0, s_wr_desc_len} + {{(17-KW){1'b0}}, s_wr_desc_addr[KW-1:0]} - 17'd1;
wire [BW-1:0] d_out_m1 = d_endm1[16:KW];           // bus beats - 1
wire [15:0] d_lenm1 = s_wr_desc_len - 16'd1;
wire [BW-1:0] d_in_beats = {1'b0, d_lenm1[15:KW]} + 1'b1;   // stream beats
wire [KW-1:0] d_end_lo = s_wr_desc_addr[KW-1:0] + s_wr_desc_len[KW-1:0];
wire [2*KW-1:0] unused_d = {d_endm1[KW-1:0], d_lenm1[KW-1:0]};
wire [RQW-1:0] req_in = {s_wr_desc_addr[KW-1:0], d_end_lo, d_in_beats, d_out_m1};

wire [KW-1:0] rq_off = req_head[RQW-1 -: KW];
wire [KW-1:0] rq_end_lo = req_head[RQW-1-KW -: KW];
wire [BW-1:0] rq_in_beats = req_head[2*BW-1 -: BW];
wire [BW-1:0] rq_out_m1 = req_head[BW-1:0];

wire [TAG_WIDTH-1:0] si_tag = si_head[SIW-1:1];
wire si_bad = si_head[0];

wire [$clog2(REQ_DEPTH):0] unused_req_count, unused_si_count;

// the W generator's head registered: its data path decisions (and the
// s_axis_tready the writers see) start at flip-flops
froce_fifo #(
    .WIDTH(RQW),
    .DEPTH(REQ_DEPTH),
    .REG_OUT(1)
) req_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data(req_in),
    .wr_en(desc_fire && !desc_bad),
    .rd_data(req_head),
    .rd_en(req_pop_c),
    .count(unused_req_count),
    .empty(req_empty),
    .full(req_full)
);

froce_fifo #(
    .WIDTH(SIW),
    .DEPTH(REQ_DEPTH)
) si_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data({s_wr_desc_tag, desc_bad}),
    .wr_en(desc_fire),
    .rd_data(si_head),
    .rd_en(si_pop_c),
    .count(unused_si_count),
    .empty(si_empty),
    .full(si_full)
);

/* ------------------------------------------------------------------------
 * Splitter and AW channel
 * ------------------------------------------------------------------------ */

reg awvalid_reg = 1'b0, awvalid_next;
reg [63:0] awaddr_reg = 64'd0, awaddr_next;
reg [7:0] awlen_reg = 8'd0, awlen_next;
reg [OW-1:0] outst_reg = {OW{1'b0}}, outst_next;

wire b_fire = m_axi_bvalid && m_axi_bready;

wire [CB:0] sp_room = CHUNK_C - {1'b0, sp_addr_reg[CB-1:0]};
wire sp_fits = {1'b0, sp_rem_reg} <= {{(16-CB){1'b0}}, sp_room};
wire [CB:0] sp_bytes = sp_fits ? sp_rem_reg[CB:0] : sp_room;
wire [CB:0] sp_end = {1'b0, sp_addr_reg[CB-1:0]} + sp_bytes - 1'b1;
wire [8:0] sp_first = {{(9-BIW){1'b0}}, sp_addr_reg[CB-1:KW]};
wire [8:0] sp_lastb = {{(9-BIW){1'b0}}, sp_end[CB-1:KW]};
wire [8:0] sp_len9 = sp_lastb - sp_first;          // AWLEN, < 256
wire unused_sp = sp_len9[8] ^ sp_end[CB];

wire aw_load = sp_active_reg && (!awvalid_reg || m_axi_awready) && outst_reg != MAX_OUT_C;

// taken while idle, or in the cycle the previous descriptor's last burst loads
assign s_wr_desc_ready = (!sp_active_reg || (aw_load && sp_fits)) && !req_full && !si_full;

always @* begin
    sp_active_next = sp_active_reg;
    sp_addr_next = sp_addr_reg;
    sp_rem_next = sp_rem_reg;
    awvalid_next = awvalid_reg && !m_axi_awready;
    awaddr_next = awaddr_reg;
    awlen_next = awlen_reg;

    if (aw_load) begin
        awvalid_next = 1'b1;
        awaddr_next = {sp_addr_reg[63:KW], {KW{1'b0}}};
        awlen_next = sp_len9[7:0];
        sp_addr_next = sp_addr_reg + {{(63-CB){1'b0}}, sp_bytes};
        sp_rem_next = sp_rem_reg - {{(15-CB){1'b0}}, sp_bytes};
        if (sp_fits)
            sp_active_next = 1'b0;
    end

    // after the load: a descriptor taken in the same cycle starts afresh
    if (desc_fire && !desc_bad) begin
        sp_active_next = 1'b1;
        sp_addr_next = s_wr_desc_addr;
        sp_rem_next = s_wr_desc_len;
    end

    outst_next = outst_reg + {{(OW-1){1'b0}}, aw_load} - {{(OW-1){1'b0}}, b_fire};
end

always @(posedge clk) begin
    sp_active_reg <= sp_active_next;
    sp_addr_reg <= sp_addr_next;
    sp_rem_reg <= sp_rem_next;
    awvalid_reg <= awvalid_next;
    awaddr_reg <= awaddr_next;
    awlen_reg <= awlen_next;
    outst_reg <= outst_next;

    if (rst) begin
        sp_active_reg <= 1'b0;
        awvalid_reg <= 1'b0;
        outst_reg <= {OW{1'b0}};
    end
end

assign m_axi_awid = {AXI_ID_WIDTH{1'b0}};
assign m_axi_awaddr = awaddr_reg;
assign m_axi_awlen = awlen_reg;
assign m_axi_awsize = SIZE_C;
assign m_axi_awburst = 2'b01;                       // INCR
assign m_axi_awlock = 1'b0;
assign m_axi_awcache = 4'b0011;                     // normal, non-cacheable, bufferable
assign m_axi_awprot = 3'b000;
assign m_axi_awvalid = awvalid_reg;

// Per burst, pushed when its AW is loaded: its length for the W generator and
// whether it ends its request, for the B collector. Both hold at most
// MAX_OUTSTANDING entries because outst_reg counts from the same load.
wire wb_full, wb_empty, bi_full, bi_empty;
wire [7:0] wb_head;
wire bi_head;
reg wb_pop_c;
wire [OW-1:0] unused_wb_count, unused_bi_count;
wire unused_full = wb_full ^ bi_full;

froce_fifo #(
    .WIDTH(8),
    .DEPTH(MAX_OUTSTANDING)
) wb_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data(sp_len9[7:0]),
    .wr_en(aw_load),
    .rd_data(wb_head),
    .rd_en(wb_pop_c),
    .count(unused_wb_count),
    .empty(wb_empty),
    .full(wb_full)
);

froce_fifo #(
    .WIDTH(1),
    .DEPTH(MAX_OUTSTANDING)
) bi_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data(sp_fits),
    .wr_en(aw_load),
    .rd_data(bi_head),
    .rd_en(b_fire),
    .count(unused_bi_count),
    .empty(bi_empty),
    .full(bi_full)
);

/* ------------------------------------------------------------------------
 * W generator: realign the stream onto bus beats, strobes, WLAST
 * ------------------------------------------------------------------------ */

reg [DATA_WIDTH-1:0] held_reg;
reg [BW-1:0] in_cnt_reg = {BW{1'b0}}, in_cnt_next;
reg [BW-1:0] out_cnt_reg = {BW{1'b0}}, out_cnt_next;
reg [7:0] bcnt_reg = 8'd0, bcnt_next;

reg wvalid_reg = 1'b0, wvalid_next;
reg [DATA_WIDTH-1:0] wdata_reg;
reg [W-1:0] wstrb_reg;
reg wlast_reg;

wire w_free = !wvalid_reg || m_axi_wready;
wire in_more = in_cnt_reg != rq_in_beats;
wire w_base = !req_empty && !wb_empty && w_free;
wire w_go = w_base && (!in_more || s_wr_axis_tvalid);
wire first_out = out_cnt_reg == {BW{1'b0}};
wire last_out = out_cnt_reg == rq_out_m1;
wire burst_end = bcnt_reg == wb_head;

wire [KW:0] wg_shamt = W_C - {1'b0, rq_off};
wire [2*DATA_WIDTH-1:0] wg_window = {in_more ? s_wr_axis_tdata : {DATA_WIDTH{1'b0}}, held_reg};
wire [2*DATA_WIDTH-1:0] wg_shifted = wg_window >> {wg_shamt, 3'b000};
wire [W-1:0] wg_strb_lo = first_out ? ({W{1'b1}} << rq_off) : {W{1'b1}};
wire [W-1:0] wg_strb_hi = (last_out && rq_end_lo != {KW{1'b0}}) ? ~({W{1'b1}} << rq_end_lo) : {W{1'b1}};
wire [DATA_WIDTH-1:0] unused_wg = wg_shifted[2*DATA_WIDTH-1:DATA_WIDTH];
wire [W:0] unused_s_axis = {s_wr_axis_tkeep, s_wr_axis_tlast};

assign s_wr_axis_tready = w_base && in_more;

always @* begin
    in_cnt_next = in_cnt_reg;
    out_cnt_next = out_cnt_reg;
    bcnt_next = bcnt_reg;
    wvalid_next = wvalid_reg && !m_axi_wready;
    wb_pop_c = 1'b0;
    req_pop_c = 1'b0;

    if (w_go) begin
        wvalid_next = 1'b1;
        out_cnt_next = out_cnt_reg + 1'b1;
        bcnt_next = bcnt_reg + 1'b1;
        if (in_more)
            in_cnt_next = in_cnt_reg + 1'b1;
        if (burst_end) begin
            wb_pop_c = 1'b1;
            bcnt_next = 8'd0;
        end
        if (last_out) begin
            req_pop_c = 1'b1;
            in_cnt_next = {BW{1'b0}};
            out_cnt_next = {BW{1'b0}};
        end
    end
end

always @(posedge clk) begin
    in_cnt_reg <= in_cnt_next;
    out_cnt_reg <= out_cnt_next;
    bcnt_reg <= bcnt_next;
    wvalid_reg <= wvalid_next;

    if (w_go) begin
        if (in_more)
            held_reg <= s_wr_axis_tdata;
        wdata_reg <= wg_shifted[DATA_WIDTH-1:0];
        wstrb_reg <= wg_strb_lo & wg_strb_hi;
        wlast_reg <= burst_end;
    end

    if (rst) begin
        in_cnt_reg <= {BW{1'b0}};
        out_cnt_reg <= {BW{1'b0}};
        bcnt_reg <= 8'd0;
        wvalid_reg <= 1'b0;
    end
end

assign m_axi_wdata = wdata_reg;
assign m_axi_wstrb = wstrb_reg;
assign m_axi_wlast = wlast_reg;
assign m_axi_wvalid = wvalid_reg;

/* ------------------------------------------------------------------------
 * B collector and status
 * ------------------------------------------------------------------------ */

reg [1:0] err_reg = 2'b00, err_next;               // {DECERR, SLVERR} seen so far
reg st_push_c;
reg [3:0] st_code_c;

wire st_full, st_empty;
wire [STW-1:0] st_head;
wire [2:0] unused_st_count;
wire [AXI_ID_WIDTH-1:0] unused_bid = m_axi_bid;
wire unused_bi_empty = bi_empty;

wire [1:0] b_err = err_reg | {m_axi_bresp == 2'b11, m_axi_bresp == 2'b10};

assign m_axi_bready = !si_empty && !si_bad && !st_full;

always @* begin
    err_next = err_reg;
    si_pop_c = 1'b0;
    st_push_c = 1'b0;
    st_code_c = DMA_ERR_OK;

    if (!si_empty && si_bad && !st_full) begin
        st_push_c = 1'b1;
        st_code_c = DMA_ERR_BAD_LEN;
        si_pop_c = 1'b1;
    end else if (b_fire) begin
        err_next = b_err;
        if (bi_head) begin
            st_push_c = 1'b1;
            st_code_c = b_err[1] ? DMA_ERR_DECERR : b_err[0] ? DMA_ERR_SLVERR : DMA_ERR_OK;
            si_pop_c = 1'b1;
            err_next = 2'b00;
        end
    end
end

always @(posedge clk) begin
    err_reg <= err_next;
    if (rst)
        err_reg <= 2'b00;
end

froce_fifo #(
    .WIDTH(STW),
    .DEPTH(4)
) st_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data({si_tag, st_code_c}),
    .wr_en(st_push_c),
    .rd_data(st_head),
    .rd_en(m_wr_status_ready),
    .count(unused_st_count),
    .empty(st_empty),
    .full(st_full)
);

assign m_wr_status_tag = st_head[STW-1:4];
assign m_wr_status_error = st_head[3:0];
assign m_wr_status_valid = !st_empty;

endmodule

`resetall
