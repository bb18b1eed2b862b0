// SPDX-License-Identifier: MIT
// Host-memory DMA read engine: descriptors in, AXI4 read bursts out, realigned AXI-Stream data and per-descriptor status back.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Operation (see docs/dma.md for the full description):
 *
 *   descriptor (addr, len, tag)
 *     -> splitter: one AR burst per CHUNK-aligned piece of [addr, addr+len),
 *        CHUNK = min(MAX_BURST_BEATS * bytes per beat, 4096), so no burst
 *        crosses a 4 KiB boundary or exceeds MAX_BURST_BEATS. ARADDR is the
 *        piece's start rounded down to the bus width; ARSIZE is the bus width.
 *        A burst is issued only when its beats fit in the data buffer beside
 *        every beat already promised to it (so RREADY never drops) and fewer
 *        than MAX_OUTSTANDING bursts are in flight. One AXI ID (0): the slave
 *        returns bursts in order.
 *     -> data buffer (froce_fifo, BUF_DEPTH beats, RRESP stored with each beat)
 *     -> realigner: output beat k = bytes [off, off+W) of {in[k+1], in[k]},
 *        off = addr mod W, so byte 0 of the first beat is the byte at addr;
 *        all beats full except the last; tlast, tid = tag.
 *     -> status (tag, error) when the last beat enters the output register.
 *
 * len = 0 is refused: no bus traffic, no data beat, status DMA_ERR_BAD_LEN,
 * still in descriptor order. A beat answered SLVERR/DECERR is delivered as
 * usual (its data is whatever the slave sent) and the request's status
 * carries the error (DECERR wins over SLVERR).
 *
 * Throughput: the output keeps pace with the bus. A request whose bytes span
 * one bus beat more than its output beats (off + len mod W wraps) takes that
 * extra bus beat at its start, one cycle with no output; otherwise the first
 * bus beat of a request is taken during the previous request's last output
 * beat, so back-to-back requests stream without a gap.
 */
module froce_dma_rd #(
    parameter DATA_WIDTH = 64,                  // AXI and stream data width in bits: 64, 128, 256 or 512
    parameter TAG_WIDTH = 8,                    // descriptor tag width (returned as tid and status tag)
    parameter AXI_ID_WIDTH = 4,                 // AXI ID width; every burst uses ID 0
    parameter MAX_BURST_BEATS = 256,            // longest AR burst in beats: power of two, 2..256
    parameter MAX_OUTSTANDING = 8,              // AR bursts in flight at most: power of two >= 2
    parameter BUF_DEPTH = 65536 / DATA_WIDTH,   // read data buffer in beats (8 KiB): power of two, holds one burst
    parameter REQ_DEPTH = 16                    // descriptors in flight at most: power of two >= 2
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Read descriptor in */
    input  wire [63:0]                  s_rd_desc_addr,
    input  wire [15:0]                  s_rd_desc_len,      // bytes, 1..65535; 0 is refused
    input  wire [TAG_WIDTH-1:0]         s_rd_desc_tag,
    input  wire                         s_rd_desc_valid,
    output wire                         s_rd_desc_ready,

    /* Read status out: one per descriptor, in order */
    output wire [TAG_WIDTH-1:0]         m_rd_status_tag,
    output wire [3:0]                   m_rd_status_error,  // DMA_ERR_* (froce_dma_defs.vh)
    output wire                         m_rd_status_valid,
    input  wire                         m_rd_status_ready,

    /* Read data out: first requested byte in byte 0 */
    output wire [DATA_WIDTH-1:0]        m_rd_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_rd_axis_tkeep,
    output wire                         m_rd_axis_tvalid,
    input  wire                         m_rd_axis_tready,
    output wire                         m_rd_axis_tlast,
    output wire [TAG_WIDTH-1:0]         m_rd_axis_tid,

    /* AXI4 master: read address */
    output wire [AXI_ID_WIDTH-1:0]      m_axi_arid,
    output wire [63:0]                  m_axi_araddr,
    output wire [7:0]                   m_axi_arlen,
    output wire [2:0]                   m_axi_arsize,
    output wire [1:0]                   m_axi_arburst,
    output wire                         m_axi_arlock,
    output wire [3:0]                   m_axi_arcache,
    output wire [2:0]                   m_axi_arprot,
    output wire                         m_axi_arvalid,
    input  wire                         m_axi_arready,

    /* AXI4 master: read data */
    input  wire [AXI_ID_WIDTH-1:0]      m_axi_rid,
    input  wire [DATA_WIDTH-1:0]        m_axi_rdata,
    input  wire [1:0]                   m_axi_rresp,
    input  wire                         m_axi_rlast,
    input  wire                         m_axi_rvalid,
    output wire                         m_axi_rready
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
localparam RW = $clog2(BUF_DEPTH) + 1;
localparam CW = (RW > 9 ? RW : 9) + 1;              // buffer credit arithmetic
localparam RQW = TAG_WIDTH + 1 + KW + KW + BW + BW; // request FIFO entry
localparam STW = TAG_WIDTH + 4;                     // status FIFO entry

localparam [CB:0] CHUNK_C = CHUNK[CB:0];
localparam [CW-1:0] BUF_C = BUF_DEPTH[CW-1:0];
localparam [OW-1:0] MAX_OUT_C = MAX_OUTSTANDING[OW-1:0];
localparam [2:0] SIZE_C = KW[2:0];

initial begin
    if (W < 8 || W > 64 || (1 << KW) != W) begin
        $display("froce_dma_rd: DATA_WIDTH must be 64, 128, 256 or 512");
        $finish;
    end
    if (MAX_BURST_BEATS < 2 || MAX_BURST_BEATS > 256 || (1 << $clog2(MAX_BURST_BEATS)) != MAX_BURST_BEATS) begin
        $display("froce_dma_rd: MAX_BURST_BEATS must be a power of two, 2..256");
        $finish;
    end
    if (BUF_DEPTH < CHUNK / W || BUF_DEPTH > 65536) begin
        $display("froce_dma_rd: BUF_DEPTH must hold one whole burst and be at most 65536");
        $finish;
    end
end

// The same checks, made fatal at elaboration in every tool (Yosys ignores
// initial blocks): a deliberately nonexistent module named after the problem.
generate
    if (W < 8 || W > 64 || (1 << KW) != W ||
        MAX_BURST_BEATS < 2 || MAX_BURST_BEATS > 256 || (1 << $clog2(MAX_BURST_BEATS)) != MAX_BURST_BEATS ||
        BUF_DEPTH < CHUNK / W || BUF_DEPTH > 65536) begin : g_bad_parameter
        froce_dma_rd_bad_parameter u_bad_parameter ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * Descriptor intake and request FIFO
 * ------------------------------------------------------------------------ */

reg sp_active_reg = 1'b0, sp_active_next;
reg [63:0] sp_addr_reg = 64'd0, sp_addr_next;
reg [15:0] sp_rem_reg = 16'd0, sp_rem_next;

wire req_full, req_empty;
wire [RQW-1:0] req_head;
wire req_pop;

wire desc_fire = s_rd_desc_valid && s_rd_desc_ready;
wire desc_bad = s_rd_desc_len == 16'd0;

wire [16:0] d_endm1 = {1'b0, s_rd_desc_len} + {{(17-KW){1'b0}}, s_rd_desc_addr[KW-1:0]} - 17'd1;
wire [BW-1:0] d_in_beats = d_endm1[16:KW] + 1'b1;
wire [15:0] d_lenm1 = s_rd_desc_len - 16'd1;
wire [BW-1:0] d_out_m1 = {1'b0, d_lenm1[15:KW]};
wire [2*KW-1:0] unused_d = {d_endm1[KW-1:0], d_lenm1[KW-1:0]};
wire [RQW-1:0] req_in = {s_rd_desc_tag, desc_bad, s_rd_desc_addr[KW-1:0], s_rd_desc_len[KW-1:0],
                         d_in_beats, d_out_m1};

wire [TAG_WIDTH-1:0] rq_tag = req_head[RQW-1 -: TAG_WIDTH];
wire rq_bad = req_head[RQW-1-TAG_WIDTH];
wire [KW-1:0] rq_off = req_head[2*BW+2*KW-1 -: KW];
wire [KW-1:0] rq_len_lo = req_head[2*BW+KW-1 -: KW];
wire [BW-1:0] rq_in_beats = req_head[2*BW-1 -: BW];
wire [BW-1:0] rq_out_m1 = req_head[BW-1:0];

wire [$clog2(REQ_DEPTH):0] unused_req_count;

froce_fifo #(
    .WIDTH(RQW),
    .DEPTH(REQ_DEPTH),
    .REG_OUT(1)             // the realigner's decisions start at a flip-flop
) req_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data(req_in),
    .wr_en(desc_fire),
    .rd_data(req_head),
    .rd_en(req_pop),
    .count(unused_req_count),
    .empty(req_empty),
    .full(req_full)
);

/* ------------------------------------------------------------------------
 * Splitter and AR channel
 * ------------------------------------------------------------------------ */

reg arvalid_reg = 1'b0, arvalid_next;
reg [63:0] araddr_reg = 64'd0, araddr_next;
reg [7:0] arlen_reg = 8'd0, arlen_next;
reg [OW-1:0] outst_reg = {OW{1'b0}}, outst_next;
reg [CW-1:0] resv_reg = {CW{1'b0}}, resv_next;

wire dbuf_pop;                                      // realigner takes a buffered beat
wire r_fire = m_axi_rvalid && m_axi_rready;

// The next burst of the piece in hand, worked out from sp_addr_reg and
// sp_rem_reg in one cycle and issued from registers (bp_*) in the next: one
// burst per two cycles at most, and the burst's length, the buffer check
// and the descriptor handshake are not in series with that arithmetic.
// Both outcomes are computed side by side and picked by sp_fits, so no more
// than two adders are in series: a burst to the chunk boundary ends at the
// chunk's last beat; a burst that fits spans (off + rem - 1) / W beats past
// its first, off being the address's byte within its beat.
reg bp_valid_reg = 1'b0;            // bp_* hold the next burst of sp_addr/sp_rem
reg bp_fits_reg = 1'b0;             // it is the descriptor's last
reg [CB:0] bp_bytes_reg = {(CB+1){1'b0}};
reg [7:0] bp_len_reg = 8'd0;        // ARLEN
reg [CW-1:0] bp_beats_reg = {CW{1'b0}};
localparam [31:0] CHUNK_BEATS = CHUNK / W, W_M1 = W - 1;
localparam [16:0] CHUNK_17 = CHUNK[16:0];
localparam [8:0] CHUNK_BEATS_9 = CHUNK_BEATS[8:0];
localparam [16:0] W_M1_17 = W_M1[16:0];
wire [KW-1:0] sp_off = sp_addr_reg[KW-1:0];
wire [8:0] sp_first = {{(9-BIW){1'b0}}, sp_addr_reg[CB-1:KW]};
wire [16:0] sp_reach = {1'b0, sp_rem_reg} + {{(17-CB){1'b0}}, sp_addr_reg[CB-1:0]};
wire sp_fits = sp_reach <= CHUNK_17;                // rem <= CHUNK - addr mod CHUNK
wire [CB:0] sp_room = CHUNK_C - {1'b0, sp_addr_reg[CB-1:0]};
wire [8:0] room_beats = CHUNK_BEATS_9 - sp_first;   // to the chunk boundary
wire [16:0] fit_span = {1'b0, sp_rem_reg} + {{(17-KW){1'b0}}, sp_off};
wire [16:0] fit_last = fit_span - 17'd1;            // rem >= 1 while active
wire [16:0] fit_beats = fit_span + W_M1_17;
wire [16:0] fit_last_b = fit_last >> KW;            // beats past the first
wire [16:0] fit_beats_b = fit_beats >> KW;          // beats
wire [CB:0] sp_bytes = sp_fits ? sp_rem_reg[CB:0] : sp_room;
wire [8:0] sp_len9 = sp_fits ? fit_last_b[8:0] : room_beats - 9'd1;   // ARLEN, < 256
wire [8:0] sp_beats = sp_fits ? fit_beats_b[8:0] : room_beats;
wire [CW-1:0] sp_beats_c = {{(CW-9){1'b0}}, sp_beats};
wire unused_sp = ^{sp_len9[8], fit_last_b[16:9], fit_beats_b[16:9], fit_last[KW-1:0], fit_beats[KW-1:0]};

// the buffer's reservations after this cycle: every sum from registers,
// the late handshakes (a burst issued, a beat taken) only pick one
wire [CW-1:0] resv_plus = resv_reg + bp_beats_reg;
wire [CW-1:0] resv_plus_m1 = resv_plus - 1'b1;
wire [CW-1:0] resv_m1 = resv_reg - 1'b1;
wire ar_load = sp_active_reg && bp_valid_reg && (!arvalid_reg || m_axi_arready) && outst_reg != MAX_OUT_C &&
               resv_plus <= BUF_C;

// taken while idle, or in the cycle the previous descriptor's last burst loads
assign s_rd_desc_ready = (!sp_active_reg || (ar_load && bp_fits_reg)) && !req_full;

always @* begin
    sp_active_next = sp_active_reg;
    sp_addr_next = sp_addr_reg;
    sp_rem_next = sp_rem_reg;
    arvalid_next = arvalid_reg && !m_axi_arready;
    araddr_next = araddr_reg;
    arlen_next = arlen_reg;
    outst_next = outst_reg;
    resv_next = resv_reg;

    if (ar_load) begin
        arvalid_next = 1'b1;
        araddr_next = {sp_addr_reg[63:KW], {KW{1'b0}}};
        arlen_next = bp_len_reg;
        sp_addr_next = sp_addr_reg + {{(63-CB){1'b0}}, bp_bytes_reg};
        sp_rem_next = sp_rem_reg - {{(15-CB){1'b0}}, bp_bytes_reg};
        if (bp_fits_reg)
            sp_active_next = 1'b0;
    end

    // after the load: a descriptor taken in the same cycle starts afresh
    if (desc_fire && !desc_bad) begin
        sp_active_next = 1'b1;
        sp_addr_next = s_rd_desc_addr;
        sp_rem_next = s_rd_desc_len;
    end

    outst_next = outst_reg + {{(OW-1){1'b0}}, ar_load} - {{(OW-1){1'b0}}, r_fire && m_axi_rlast};
    resv_next = ar_load ? (dbuf_pop ? resv_plus_m1 : resv_plus) : (dbuf_pop ? resv_m1 : resv_reg);
end

always @(posedge clk) begin
    sp_active_reg <= sp_active_next;
    sp_addr_reg <= sp_addr_next;
    sp_rem_reg <= sp_rem_next;
    // worked out while sp_* stand still, spent by the burst that uses them
    bp_valid_reg <= sp_active_reg && !ar_load && !(desc_fire && !desc_bad);
    bp_fits_reg <= sp_fits;
    bp_bytes_reg <= sp_bytes;
    bp_len_reg <= sp_len9[7:0];
    bp_beats_reg <= sp_beats_c;
    arvalid_reg <= arvalid_next;
    araddr_reg <= araddr_next;
    arlen_reg <= arlen_next;
    outst_reg <= outst_next;
    resv_reg <= resv_next;

    if (rst) begin
        sp_active_reg <= 1'b0;
        bp_valid_reg <= 1'b0;
        arvalid_reg <= 1'b0;
        outst_reg <= {OW{1'b0}};
        resv_reg <= {CW{1'b0}};
    end
end

assign m_axi_arid = {AXI_ID_WIDTH{1'b0}};
assign m_axi_araddr = araddr_reg;
assign m_axi_arlen = arlen_reg;
assign m_axi_arsize = SIZE_C;
assign m_axi_arburst = 2'b01;                       // INCR
assign m_axi_arlock = 1'b0;
assign m_axi_arcache = 4'b0011;                     // normal, non-cacheable, bufferable
assign m_axi_arprot = 3'b000;
assign m_axi_arvalid = arvalid_reg;

/* ------------------------------------------------------------------------
 * Data buffer: every beat in it was reserved by ar_load, so it never fills
 * ------------------------------------------------------------------------ */

wire dbuf_full, dbuf_empty;
wire [DATA_WIDTH+1:0] dbuf_head;
wire [RW-1:0] unused_dbuf_count;
wire [AXI_ID_WIDTH-1:0] unused_rid = m_axi_rid;

assign m_axi_rready = !dbuf_full;

froce_fifo #(
    .WIDTH(DATA_WIDTH + 2),
    .DEPTH(BUF_DEPTH),
    .REG_OUT(1)             // synchronous read: the buffer maps to block RAM
) dbuf_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data({m_axi_rresp, m_axi_rdata}),
    .wr_en(r_fire),
    .rd_data(dbuf_head),
    .rd_en(dbuf_pop),
    .count(unused_dbuf_count),
    .empty(dbuf_empty),
    .full(dbuf_full)
);

wire [DATA_WIDTH-1:0] bd_data = dbuf_head[DATA_WIDTH-1:0];
wire [1:0] bd_resp = dbuf_head[DATA_WIDTH +: 2];
wire [1:0] bd_err = {bd_resp == 2'b11, bd_resp == 2'b10};  // {DECERR, SLVERR}

/* ------------------------------------------------------------------------
 * Realigner, output register and status
 * ------------------------------------------------------------------------ */

reg held_valid_reg = 1'b0, held_valid_next;
reg [DATA_WIDTH-1:0] held_reg;
reg [BW-1:0] in_cnt_reg = {BW{1'b0}}, in_cnt_next;
reg [BW-1:0] out_cnt_reg = {BW{1'b0}}, out_cnt_next;
reg [1:0] err_reg = 2'b00, err_next;

reg ot_valid_reg = 1'b0, ot_valid_next;
reg [DATA_WIDTH-1:0] ot_data_reg;
reg [W-1:0] ot_keep_reg;
reg ot_last_reg;
reg [TAG_WIDTH-1:0] ot_tid_reg;

reg dbuf_pop_c, req_pop_c, emit_c, st_push_c;
reg [3:0] st_code_c;

wire st_full, st_empty;
wire [STW-1:0] st_head;
wire [2:0] unused_st_count;

wire ot_free = !ot_valid_reg || m_rd_axis_tready;
wire in_more = in_cnt_reg != rq_in_beats;
wire last_out = out_cnt_reg == rq_out_m1;
wire [2*DATA_WIDTH-1:0] rl_window = {in_more ? bd_data : {DATA_WIDTH{1'b0}}, held_reg};
wire [2*DATA_WIDTH-1:0] rl_shifted = rl_window >> {rq_off, 3'b000};
wire [W-1:0] rl_keep = (last_out && rq_len_lo != {KW{1'b0}}) ? ~({W{1'b1}} << rq_len_lo) : {W{1'b1}};
wire [1:0] rl_err = err_reg | (in_more ? bd_err : 2'b00);
wire [DATA_WIDTH-1:0] unused_rl = rl_shifted[2*DATA_WIDTH-1:DATA_WIDTH];

assign dbuf_pop = dbuf_pop_c;
assign req_pop = req_pop_c;

always @* begin
    held_valid_next = held_valid_reg;
    in_cnt_next = in_cnt_reg;
    out_cnt_next = out_cnt_reg;
    err_next = err_reg;
    ot_valid_next = ot_valid_reg && !m_rd_axis_tready;
    dbuf_pop_c = 1'b0;
    req_pop_c = 1'b0;
    emit_c = 1'b0;
    st_push_c = 1'b0;
    st_code_c = DMA_ERR_OK;

    if (!req_empty) begin
        if (rq_bad) begin
            if (!st_full) begin
                st_push_c = 1'b1;
                st_code_c = DMA_ERR_BAD_LEN;
                req_pop_c = 1'b1;
            end
        end else if (!held_valid_reg) begin
            // first bus beat of the request
            if (!dbuf_empty) begin
                dbuf_pop_c = 1'b1;
                held_valid_next = 1'b1;
                in_cnt_next = in_cnt_reg + 1'b1;
                err_next = err_reg | bd_err;
            end
        end else if (ot_free && (!in_more || !dbuf_empty) && (!last_out || !st_full)) begin
            emit_c = 1'b1;
            ot_valid_next = 1'b1;
            out_cnt_next = out_cnt_reg + 1'b1;
            err_next = rl_err;
            if (in_more) begin
                dbuf_pop_c = 1'b1;
                in_cnt_next = in_cnt_reg + 1'b1;
            end
            if (last_out) begin
                st_push_c = 1'b1;
                st_code_c = rl_err[1] ? DMA_ERR_DECERR : rl_err[0] ? DMA_ERR_SLVERR : DMA_ERR_OK;
                req_pop_c = 1'b1;
                out_cnt_next = {BW{1'b0}};
                if (!in_more && !dbuf_empty) begin
                    // this beat took nothing from the buffer: its head is the
                    // first bus beat of the next request (of the next one with
                    // len != 0), so load it now and lose no cycle
                    dbuf_pop_c = 1'b1;
                    held_valid_next = 1'b1;
                    in_cnt_next = {{(BW-1){1'b0}}, 1'b1};
                    err_next = bd_err;
                end else begin
                    held_valid_next = 1'b0;
                    in_cnt_next = {BW{1'b0}};
                    err_next = 2'b00;
                end
            end
        end
    end
end

always @(posedge clk) begin
    held_valid_reg <= held_valid_next;
    in_cnt_reg <= in_cnt_next;
    out_cnt_reg <= out_cnt_next;
    err_reg <= err_next;
    ot_valid_reg <= ot_valid_next;

    if (dbuf_pop_c)
        held_reg <= bd_data;
    if (emit_c) begin
        ot_data_reg <= rl_shifted[DATA_WIDTH-1:0];
        ot_keep_reg <= rl_keep;
        ot_last_reg <= last_out;
        ot_tid_reg <= rq_tag;
    end

    if (rst) begin
        held_valid_reg <= 1'b0;
        in_cnt_reg <= {BW{1'b0}};
        out_cnt_reg <= {BW{1'b0}};
        err_reg <= 2'b00;
        ot_valid_reg <= 1'b0;
    end
end

assign m_rd_axis_tdata = ot_data_reg;
assign m_rd_axis_tkeep = ot_keep_reg;
assign m_rd_axis_tvalid = ot_valid_reg;
assign m_rd_axis_tlast = ot_last_reg;
assign m_rd_axis_tid = ot_tid_reg;

froce_fifo #(
    .WIDTH(STW),
    .DEPTH(4)
) st_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data({rq_tag, st_code_c}),
    .wr_en(st_push_c),
    .rd_data(st_head),
    .rd_en(m_rd_status_ready),
    .count(unused_st_count),
    .empty(st_empty),
    .full(st_full)
);

assign m_rd_status_tag = st_head[STW-1:4];
assign m_rd_status_error = st_head[3:0];
assign m_rd_status_valid = !st_empty;

endmodule

`resetall
