// SPDX-License-Identifier: MIT
// MR table and MTT: checks a (key, PD, va, len, access) request and splits it into DMA segments at MR page boundaries.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * Key:   key[31:8] = MR index, key[7:0] = tag (FROCE_KEY_TAG_W).
 *
 * Tables (synchronous RAMs, one write and one registered read port each):
 *   MR table  NUM_MRS entries: valid, tag, PDN, access[3:0], page shift,
 *             IOVA, LENGTH, MTT base (the fields of FROCE_MR_CTX_*)
 *   MTT       NUM_MTT entries of 64-bit page DMA addresses
 *
 * Control port (word interface; ctl_addr = byte offset in the block >> 2):
 *   byte offset FROCE_MRT_CTL_MR_OFF   + i * 32 + 4 * w  MR i, dword w of MR_CTX
 *   byte offset FROCE_MRT_CTL_REGS_OFF + 4 * w           MRT_REGS dword w (read-only)
 *   byte offset FROCE_MRT_CTL_MTT_OFF  + j * 8  + 4 * w  MTT j, dword w (0 low)
 *   MR dwords 0..6 are staged; writing dw7 (VALID) writes the whole entry at
 *   once, so a translation never sees a half-written entry. MTT dword 0 is
 *   staged, dword 1 writes the entry. Reads return the stored entry
 *   (ctl_rvalid two cycles after the read is accepted); indexes beyond the
 *   tables are ignored on write and read as 0. ctl_ready is low only while
 *   reset clears the MR table (NUM_MRS cycles after rst), and then only for
 *   accesses outside MRT_REGS.
 *
 * Request checks, first failure wins (status FROCE_XLATE_*):
 *   len == 0 -> OK, one segment of length 0, nothing checked (IBA C9-88)
 *   KEY_INVALID  index >= NUM_MRS or entry not valid
 *   KEY_TAG      key tag != entry tag
 *   PD_MISMATCH  pd != entry PDN
 *   ACCESS       access & ~entry access != 0
 *   BOUNDS       va < IOVA, or va + len > IOVA + LENGTH, or va + len > 2^64
 *                (sums in 65 bits; ending exactly at 2^64 is allowed)
 * A failed request gives exactly one response: first = last = 1, addr = 0,
 * len = 0. A good one gives one segment per MR page touched, in order, at
 * most one per cycle: page index = (va - (IOVA & ~mask)) >> shift,
 * addr = MTT[MTT_BASE + page index] + (va & mask).
 *
 * Pipeline: L (MR table read) -> C (checks; job FIFO) -> G (segment
 * generator, MTT read) -> M (address add; output FIFO). The read ports are
 * shared with the control port, which has priority.
 */
module froce_mr_xlate #(
    parameter NUM_MRS = 1024,       // MR table entries, a power of two, 2..2^17
    parameter NUM_MTT = 65536,      // MTT entries, a power of two, 2..2^20
    parameter TAG_W = 8             // width of the request tag echoed in every segment
) (
    input  wire                 clk,
    input  wire                 rst,

    /* Control port (firmware) */
    input  wire                 ctl_valid,
    output wire                 ctl_ready,
    input  wire                 ctl_write,
    input  wire [21:0]          ctl_addr,       // word address in the MR/MTT block
    input  wire [31:0]          ctl_wdata,
    output wire [31:0]          ctl_rdata,
    output wire                 ctl_rvalid,

    /* Translation requests */
    input  wire                 s_req_valid,
    output wire                 s_req_ready,
    input  wire [31:0]          s_req_key,
    input  wire [23:0]          s_req_pd,
    input  wire [63:0]          s_req_va,
    input  wire [31:0]          s_req_len,
    input  wire [3:0]           s_req_access,   // required rights, FROCE_ACCESS_* bits
    input  wire [TAG_W-1:0]     s_req_tag,

    /* Segments out */
    output wire                 m_seg_valid,
    input  wire                 m_seg_ready,
    output wire [63:0]          m_seg_addr,
    output wire [31:0]          m_seg_len,
    output wire                 m_seg_first,
    output wire                 m_seg_last,
    output wire [2:0]           m_seg_status,   // FROCE_XLATE_*
    output wire [TAG_W-1:0]     m_seg_tag,

    /* Status */
    output wire                 busy            // a request is in flight
);

localparam MR_AW = $clog2(NUM_MRS);
localparam MTT_AW = $clog2(NUM_MTT);
localparam PS_MIN = `FROCE_MR_PAGE_SHIFT_MIN;
localparam PS_MAX = `FROCE_MR_PAGE_SHIFT_MAX;
localparam PS_SPAN = PS_MAX - PS_MIN;           // page shift range above the minimum
localparam OFF_W = PS_MAX;                      // bits of an offset in a page
localparam ROOM_W = PS_MAX + 1;                 // bits of a page size
localparam CTL_MTT_WORD = `FROCE_MRT_CTL_MTT_OFF / 4;
localparam CTL_REGS_WORD = `FROCE_MRT_CTL_REGS_OFF / 4;
localparam DIFF_W = MTT_AW + PS_SPAN;           // bits of va - page base kept for the page index
localparam JOB_DEPTH = 4;                       // checked requests waiting for the generator
localparam OUT_DEPTH = 4;                       // segments waiting for m_seg_ready

// MR table entry packing
localparam E_VALID = 0;
localparam E_TAG = 1;
localparam E_PD = E_TAG + 8;
localparam E_ACC = E_PD + 24;
localparam E_PS = E_ACC + 4;
localparam E_IOVA = E_PS + 5;
localparam E_LEN = E_IOVA + 64;
localparam E_BASE = E_LEN + 64;
localparam E_W = E_BASE + MTT_AW;

initial begin
    if (NUM_MRS < 2 || NUM_MRS > (1 << 17) || (1 << MR_AW) != NUM_MRS) begin
        $display("froce_mr_xlate: NUM_MRS must be a power of two, 2..2^17");
        $finish;
    end
    if (NUM_MTT < 2 || NUM_MTT > (1 << 20) || (1 << MTT_AW) != NUM_MTT) begin
        $display("froce_mr_xlate: NUM_MTT must be a power of two, 2..2^20");
        $finish;
    end
    if (CTL_MTT_WORD != (1 << 21) || CTL_REGS_WORD != (1 << 20) || `FROCE_MRT_CTL_MR_OFF != 0) begin
        $display("froce_mr_xlate: the MRT_CTL offsets in froce_hw.vh do not match the address decoder");
        $finish;
    end
end

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

reg [E_W-1:0] mr_ram [0:NUM_MRS-1];
reg [63:0] mtt_ram [0:NUM_MTT-1];

reg [E_W-1:0] mr_q_reg;
reg [63:0] mtt_q_reg;

wire mr_we;
wire [MR_AW-1:0] mr_waddr;
wire [E_W-1:0] mr_wdata;
wire mr_re;
wire [MR_AW-1:0] mr_raddr;

wire mtt_we;
wire [MTT_AW-1:0] mtt_waddr;
wire [63:0] mtt_wdata;
wire mtt_re;
wire [MTT_AW-1:0] mtt_raddr;

always @(posedge clk) begin
    if (mr_we) begin
        mr_ram[mr_waddr] <= mr_wdata;
    end
    if (mr_re) begin
        mr_q_reg <= mr_ram[mr_raddr];
    end
end

always @(posedge clk) begin
    if (mtt_we) begin
        mtt_ram[mtt_waddr] <= mtt_wdata;
    end
    if (mtt_re) begin
        mtt_q_reg <= mtt_ram[mtt_raddr];
    end
end

// ---------------------------------------------------------------------------
// Control port
// ---------------------------------------------------------------------------

reg init_reg = 1'b1;                    // clearing the MR table after reset
reg [MR_AW-1:0] init_idx_reg = 0;

reg [223:0] stage_reg = 0;              // MR_CTX dwords 0..6 waiting for dw7
reg [31:0] mtt_lo_reg = 0;              // MTT dword 0 waiting for dword 1

reg cr_mr_reg = 1'b0;                   // a control read of the MR table is in mr_q
reg cr_mtt_reg = 1'b0;                  // a control read of the MTT is in mtt_q
reg cr_zero_reg = 1'b0;                 // a control read of an unmapped word
reg cr_regs_reg = 1'b0;                 // a control read of MRT_REGS
reg [2:0] cr_word_reg = 0;
reg [31:0] ctl_rdata_reg = 0;
reg ctl_rvalid_reg = 1'b0;

wire ctl_regs_in = ctl_addr[21:20] == 2'b01 && ctl_addr[19:2] == 0;
assign ctl_ready = !init_reg || ctl_regs_in;
wire ctl_fire = ctl_valid && ctl_ready;
wire ctl_mtt = ctl_addr[21];
wire [MR_AW-1:0] ctl_mr_idx = ctl_addr[MR_AW+2:3];
wire [MTT_AW-1:0] ctl_mtt_idx = ctl_addr[MTT_AW:1];
wire ctl_mr_in;
wire ctl_mtt_in;
generate
    if (MR_AW < 17) begin : g_mr_range
        assign ctl_mr_in = ctl_addr[21:20] == 2'b00 && ctl_addr[19:MR_AW+3] == 0;
    end else begin : g_mr_full
        assign ctl_mr_in = ctl_addr[21:20] == 2'b00;
    end
    if (MTT_AW < 20) begin : g_mtt_range
        assign ctl_mtt_in = ctl_mtt && ctl_addr[20:MTT_AW+1] == 0;
    end else begin : g_mtt_full
        assign ctl_mtt_in = ctl_mtt;
    end
endgenerate

wire ctl_mr_wr = ctl_fire && ctl_write && ctl_mr_in;
wire ctl_mr_rd = ctl_fire && !ctl_write && ctl_mr_in;
wire ctl_mtt_wr = ctl_fire && ctl_write && ctl_mtt_in;
wire ctl_mtt_rd = ctl_fire && !ctl_write && ctl_mtt_in;

// MR commit: dw7 write with the staged dwords below it
wire [255:0] commit_vec = {ctl_wdata, stage_reg};
wire [4:0] commit_ps = commit_vec[`FROCE_MR_CTX_PAGE_SHIFT_LSB +: `FROCE_MR_CTX_PAGE_SHIFT_W];
wire commit_ps_ok = commit_ps >= PS_MIN && commit_ps <= PS_MAX;
wire [E_W-1:0] commit_entry;
assign commit_entry[E_VALID] = commit_vec[`FROCE_MR_CTX_VALID_LSB] && commit_ps_ok;
assign commit_entry[E_TAG +: 8] = commit_vec[`FROCE_MR_CTX_TAG_LSB +: `FROCE_MR_CTX_TAG_W];
assign commit_entry[E_PD +: 24] = commit_vec[`FROCE_MR_CTX_PDN_LSB +: `FROCE_MR_CTX_PDN_W];
assign commit_entry[E_ACC +: 4] = commit_vec[`FROCE_MR_CTX_ACCESS_LSB +: 4];
assign commit_entry[E_PS +: 5] = commit_ps;
assign commit_entry[E_IOVA +: 64] = commit_vec[`FROCE_MR_CTX_IOVA_LSB +: `FROCE_MR_CTX_IOVA_W];
assign commit_entry[E_LEN +: 64] = commit_vec[`FROCE_MR_CTX_LENGTH_LSB +: `FROCE_MR_CTX_LENGTH_W];
assign commit_entry[E_BASE +: MTT_AW] = commit_vec[`FROCE_MR_CTX_MTT_BASE_LSB +: MTT_AW];
// reserved bits, access bits 7:4 and MTT_BASE bits above the MTT size are not stored
wire [255:0] unused_commit_vec = commit_vec;

assign mr_we = init_reg || (ctl_mr_wr && ctl_addr[2:0] == 3'd7);
assign mr_waddr = init_reg ? init_idx_reg : ctl_mr_idx;
assign mr_wdata = init_reg ? {E_W{1'b0}} : commit_entry;

assign mtt_we = ctl_mtt_wr && ctl_addr[0];
assign mtt_waddr = ctl_mtt_idx;
assign mtt_wdata = {ctl_wdata, mtt_lo_reg};

// MR entry read back as MR_CTX dwords
wire [255:0] rd_vec;
assign rd_vec[`FROCE_MR_CTX_PDN_LSB +: 24] = mr_q_reg[E_PD +: 24];
assign rd_vec[`FROCE_MR_CTX_TAG_LSB +: 8] = mr_q_reg[E_TAG +: 8];
assign rd_vec[`FROCE_MR_CTX_ACCESS_LSB +: 8] = {4'd0, mr_q_reg[E_ACC +: 4]};
assign rd_vec[`FROCE_MR_CTX_PAGE_SHIFT_LSB +: 5] = mr_q_reg[E_PS +: 5];
assign rd_vec[`FROCE_MR_CTX_PAGE_SHIFT_LSB + 5 +: 19] = 19'd0;
assign rd_vec[`FROCE_MR_CTX_IOVA_LSB +: 64] = mr_q_reg[E_IOVA +: 64];
assign rd_vec[`FROCE_MR_CTX_LENGTH_LSB +: 64] = mr_q_reg[E_LEN +: 64];
assign rd_vec[`FROCE_MR_CTX_MTT_BASE_LSB +: 32] = {{(32-MTT_AW){1'b0}}, mr_q_reg[E_BASE +: MTT_AW]};
assign rd_vec[`FROCE_MR_CTX_VALID_LSB +: 32] = {31'd0, mr_q_reg[E_VALID]};

// one write enable per staged dword (a variable part-select write would build a 224-bit shifter)
genvar gi;
generate
    for (gi = 0; gi < 7; gi = gi + 1) begin : g_stage
        always @(posedge clk) begin
            if (ctl_mr_wr && ctl_addr[2:0] == gi) begin
                stage_reg[gi*32 +: 32] <= ctl_wdata;
            end
        end
    end
endgenerate

// MRT_REGS, read-only
wire busy_int;
wire [127:0] regs_vec;
assign regs_vec[`FROCE_MRT_REGS_BUSY_LSB] = busy_int;
assign regs_vec[`FROCE_MRT_REGS_INIT_LSB] = init_reg;
assign regs_vec[31:2] = 30'd0;
assign regs_vec[`FROCE_MRT_REGS_NUM_MRS_LSB +: 32] = NUM_MRS;
assign regs_vec[`FROCE_MRT_REGS_NUM_MTT_LSB +: 32] = NUM_MTT;
assign regs_vec[127:96] = 32'd0;

always @(posedge clk) begin
    if (init_reg) begin
        init_idx_reg <= init_idx_reg + 1'b1;
        if (&init_idx_reg) begin
            init_reg <= 1'b0;
        end
    end
    if (ctl_mtt_wr && !ctl_addr[0]) begin
        mtt_lo_reg <= ctl_wdata;
    end

    cr_mr_reg <= ctl_mr_rd;
    cr_mtt_reg <= ctl_mtt_rd;
    cr_zero_reg <= ctl_fire && !ctl_write && !ctl_mr_in && !ctl_mtt_in && !ctl_regs_in;
    cr_regs_reg <= ctl_fire && !ctl_write && ctl_regs_in;
    if (ctl_fire && !ctl_write) begin
        cr_word_reg <= ctl_addr[2:0];
    end

    ctl_rvalid_reg <= cr_mr_reg || cr_mtt_reg || cr_zero_reg || cr_regs_reg;
    if (cr_regs_reg) begin
        ctl_rdata_reg <= regs_vec[cr_word_reg[1:0]*32 +: 32];
    end else if (cr_mr_reg) begin
        ctl_rdata_reg <= rd_vec[cr_word_reg*32 +: 32];
    end else if (cr_mtt_reg) begin
        ctl_rdata_reg <= cr_word_reg[0] ? mtt_q_reg[63:32] : mtt_q_reg[31:0];
    end else begin
        ctl_rdata_reg <= 32'd0;
    end

    if (rst) begin
        init_reg <= 1'b1;
        init_idx_reg <= 0;
        cr_mr_reg <= 1'b0;
        cr_mtt_reg <= 1'b0;
        cr_zero_reg <= 1'b0;
        cr_regs_reg <= 1'b0;
        ctl_rvalid_reg <= 1'b0;
    end
end

assign ctl_rdata = ctl_rdata_reg;
assign ctl_rvalid = ctl_rvalid_reg;

// ---------------------------------------------------------------------------
// Stage L: accept a request, read its MR entry
// ---------------------------------------------------------------------------

wire [$clog2(JOB_DEPTH):0] job_count;
wire job_empty;
wire job_pop;
wire unused_job_full;                   // credits keep the FIFOs from filling
wire unused_out_full;

reg c_valid_reg = 1'b0;                 // mr_q holds the entry of the request below
reg c_oob_reg = 1'b0;                   // key index >= NUM_MRS
reg [7:0] c_ktag_reg = 0;
reg [23:0] c_pd_reg = 0;
reg [63:0] c_va_reg = 0;
reg [31:0] c_len_reg = 0;
reg [3:0] c_acc_reg = 0;
reg [TAG_W-1:0] c_tag_reg = 0;

assign s_req_ready = !init_reg && !ctl_mr_rd && (job_count + {{$clog2(JOB_DEPTH){1'b0}}, c_valid_reg} < JOB_DEPTH);
wire req_fire = s_req_valid && s_req_ready;

assign mr_re = req_fire || ctl_mr_rd;
assign mr_raddr = ctl_mr_rd ? ctl_mr_idx : s_req_key[MR_AW+7:8];

always @(posedge clk) begin
    c_valid_reg <= req_fire;
    if (req_fire) begin
        c_oob_reg <= s_req_key[31:MR_AW+8] != 0;
        c_ktag_reg <= s_req_key[7:0];
        c_pd_reg <= s_req_pd;
        c_va_reg <= s_req_va;
        c_len_reg <= s_req_len;
        c_acc_reg <= s_req_access;
        c_tag_reg <= s_req_tag;
    end
    if (rst) begin
        c_valid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------
// Stage C: checks, page offset and page base difference
// ---------------------------------------------------------------------------

wire e_valid = mr_q_reg[E_VALID];
wire [7:0] e_tag = mr_q_reg[E_TAG +: 8];
wire [23:0] e_pd = mr_q_reg[E_PD +: 24];
wire [3:0] e_acc = mr_q_reg[E_ACC +: 4];
wire [4:0] e_ps = mr_q_reg[E_PS +: 5];
wire [63:0] e_iova = mr_q_reg[E_IOVA +: 64];
wire [63:0] e_len = mr_q_reg[E_LEN +: 64];
wire [MTT_AW-1:0] e_base = mr_q_reg[E_BASE +: MTT_AW];

wire [64:0] c_end = {1'b0, c_va_reg} + {33'd0, c_len_reg};
// va + len may equal 2^64 (the access ends at the last byte), not exceed it
wire c_wrap = c_end[64] && c_end[63:0] != 64'd0;
// c_end > e_end, without an adder in series with the compare behind the MR
// RAM: e_iova + e_len - c_end as one carry-save layer and one carry chain
// (66 bits, signed: negative when the access ends past the region)
wire [65:0] b_a = {2'b00, e_iova};
wire [65:0] b_b = {2'b00, e_len};
wire [65:0] b_c = ~{1'b0, c_end};                   // -c_end - 1
wire [65:0] b_maj = (b_a & b_b) | (b_a & b_c) | (b_b & b_c);
wire [65:0] b_total = (b_a ^ b_b ^ b_c) + {b_maj[64:0], 1'b1};
wire c_past_end = b_total[65];
wire unused_b = ^{b_maj[65], b_total[64:0]};
wire c_bounds_bad = c_wrap || c_va_reg < e_iova || c_past_end;

// valid entries have e_ps in PS_MIN..PS_MAX; the shift is only used then
wire [3:0] c_ps_rel = e_ps[3:0] - PS_MIN[3:0];
wire [4:0] unused_e_ps = e_ps;
wire [OFF_W-1:0] c_mask = {OFF_W{1'b1}} >> (PS_SPAN[3:0] - c_ps_rel);
wire [63:0] c_diff = c_va_reg - (e_iova & ~{{(64-OFF_W){1'b0}}, c_mask});
wire [63:0] unused_c_diff = c_diff;      // only bits PS_MIN .. PS_MIN + DIFF_W - 1 matter

reg [2:0] c_status;
always @* begin
    if (c_len_reg == 0) begin
        c_status = `FROCE_XLATE_OK;
    end else if (c_oob_reg || !e_valid) begin
        c_status = `FROCE_XLATE_KEY_INVALID;
    end else if (c_ktag_reg != e_tag) begin
        c_status = `FROCE_XLATE_KEY_TAG;
    end else if (c_pd_reg != e_pd) begin
        c_status = `FROCE_XLATE_PD_MISMATCH;
    end else if ((c_acc_reg & ~e_acc) != 0) begin
        c_status = `FROCE_XLATE_ACCESS;
    end else if (c_bounds_bad) begin
        c_status = `FROCE_XLATE_BOUNDS;
    end else begin
        c_status = `FROCE_XLATE_OK;
    end
end

// job: {status, no MTT use, tag, len, offset, shift - PS_MIN, MTT base, page base difference}
localparam JOB_W = 3 + 1 + TAG_W + 32 + OFF_W + 4 + MTT_AW + DIFF_W;
wire c_nomtt = c_status != `FROCE_XLATE_OK || c_len_reg == 0;
wire [JOB_W-1:0] job_in = {c_status, c_nomtt, c_tag_reg, c_len_reg, c_va_reg[OFF_W-1:0] & c_mask,
                           c_ps_rel, e_base, c_diff[PS_MIN +: DIFF_W]};
wire [JOB_W-1:0] job_out;

froce_fifo #(
    .WIDTH(JOB_W),
    .DEPTH(JOB_DEPTH)
) job_fifo (
    .clk(clk),
    .rst(rst),
    .wr_data(job_in),
    .wr_en(c_valid_reg),
    .rd_data(job_out),
    .rd_en(job_pop),
    .count(job_count),
    .empty(job_empty),
    .full(unused_job_full)
);

// ---------------------------------------------------------------------------
// Stage G: segment generator, MTT read
// ---------------------------------------------------------------------------

wire [2:0] j_status;
wire j_nomtt;
wire [TAG_W-1:0] j_tag;
wire [31:0] j_len;
wire [OFF_W-1:0] j_off;
wire [3:0] j_ps_rel;
wire [MTT_AW-1:0] j_base;
wire [DIFF_W-1:0] j_diff;
assign {j_status, j_nomtt, j_tag, j_len, j_off, j_ps_rel, j_base, j_diff} = job_out;

wire [DIFF_W-1:0] j_pidx_full = j_diff >> j_ps_rel;
wire [DIFF_W-1:0] unused_j_pidx = j_pidx_full;  // the index wraps at the MTT size
wire [ROOM_W-1:0] j_psize = {{(ROOM_W-1){1'b0}}, 1'b1} << (j_ps_rel + PS_MIN[4:0]);

reg g_active_reg = 1'b0;
reg [2:0] g_status_reg = 0;
reg g_nomtt_reg = 1'b0;
reg [TAG_W-1:0] g_tag_reg = 0;
reg [MTT_AW-1:0] g_idx_reg = 0;
reg [OFF_W-1:0] g_off_reg = 0;
reg [31:0] g_rem_reg = 0;
reg [ROOM_W-1:0] g_room_reg = 0;        // bytes from g_off to the end of its page
reg [ROOM_W-1:0] g_psize_reg = 0;
reg g_first_reg = 1'b0;

wire [$clog2(OUT_DEPTH):0] out_count;
wire out_empty;

reg m_valid_reg = 1'b0;

wire g_fits = g_rem_reg <= {{(32-ROOM_W){1'b0}}, g_room_reg};
wire [31:0] g_seg = g_fits ? g_rem_reg : {{(32-ROOM_W){1'b0}}, g_room_reg};
wire g_last = g_nomtt_reg || g_fits;
wire g_emit = g_active_reg && !ctl_mtt_rd && (out_count + {{$clog2(OUT_DEPTH){1'b0}}, m_valid_reg} < OUT_DEPTH);
wire g_done = g_emit && g_last;
assign job_pop = !job_empty && (!g_active_reg || g_done);

assign mtt_re = (g_emit && !g_nomtt_reg) || ctl_mtt_rd;
assign mtt_raddr = ctl_mtt_rd ? ctl_mtt_idx : g_idx_reg;

always @(posedge clk) begin
    if (job_pop) begin
        g_active_reg <= 1'b1;
        g_status_reg <= j_status;
        g_nomtt_reg <= j_nomtt;
        g_tag_reg <= j_tag;
        g_idx_reg <= j_base + j_pidx_full[MTT_AW-1:0];
        g_off_reg <= j_off;
        g_rem_reg <= j_len;
        g_room_reg <= j_psize - {1'b0, j_off};
        g_psize_reg <= j_psize;
        g_first_reg <= 1'b1;
    end else if (g_emit) begin
        g_active_reg <= !g_last;
        g_idx_reg <= g_idx_reg + 1'b1;
        g_off_reg <= 0;
        g_rem_reg <= g_rem_reg - g_seg;
        g_room_reg <= g_psize_reg;
        g_first_reg <= 1'b0;
    end
    if (rst) begin
        g_active_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------
// Stage M: DMA address = MTT entry + offset
// ---------------------------------------------------------------------------

reg [2:0] m_status_reg = 0;
reg m_nomtt_reg = 1'b0;
reg [TAG_W-1:0] m_tag_reg = 0;
reg [OFF_W-1:0] m_off_reg = 0;
reg [31:0] m_len_reg = 0;
reg m_first_reg = 1'b0;
reg m_last_reg = 1'b0;

always @(posedge clk) begin
    m_valid_reg <= g_emit;
    if (g_emit) begin
        m_status_reg <= g_status_reg;
        m_nomtt_reg <= g_nomtt_reg;
        m_tag_reg <= g_tag_reg;
        m_off_reg <= g_off_reg;
        m_len_reg <= g_nomtt_reg ? 32'd0 : g_seg;
        m_first_reg <= g_first_reg;
        m_last_reg <= g_last;
    end
    if (rst) begin
        m_valid_reg <= 1'b0;
    end
end

wire [63:0] m_addr = m_nomtt_reg ? 64'd0 : mtt_q_reg + {{(64-OFF_W){1'b0}}, m_off_reg};

localparam OUT_W = 64 + 32 + 1 + 1 + 3 + TAG_W;
wire [OUT_W-1:0] out_data;

froce_fifo #(
    .WIDTH(OUT_W),
    .DEPTH(OUT_DEPTH)
) out_fifo (
    .clk(clk),
    .rst(rst),
    .wr_data({m_addr, m_len_reg, m_first_reg, m_last_reg, m_status_reg, m_tag_reg}),
    .wr_en(m_valid_reg),
    .rd_data(out_data),
    .rd_en(m_seg_ready),
    .count(out_count),
    .empty(out_empty),
    .full(unused_out_full)
);

assign m_seg_valid = !out_empty;
assign {m_seg_addr, m_seg_len, m_seg_first, m_seg_last, m_seg_status, m_seg_tag} = out_data;

assign busy_int = c_valid_reg || !job_empty || g_active_reg || m_valid_reg || !out_empty;
assign busy = busy_int;

endmodule

`resetall
