// SPDX-License-Identifier: MIT
// BAR2 doorbell window: decodes DB_QP / DB_CQ doorbells from an AXI4-Lite write port, checks that the named QP or CQ belongs to the UAR page the write arrived on, and queues them for the transport engine.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * Address map: UAR page p occupies byte addresses
 * [p << UAR_PAGE_SHIFT, (p + 1) << UAR_PAGE_SHIFT) of the window; the page is
 * awaddr >> UAR_PAGE_SHIFT. The slot within the page (awaddr bits
 * UAR_PAGE_SHIFT-1..3) is not checked: the driver gives each queue its own
 * slot, but a doorbell means the same thing in any slot of its page.
 *
 * AXI4-Lite, write-only, 64-bit data. AW and W are taken independently into
 * one holding register each (either may come first) and paired in order;
 * the pair is consumed when both are present, stage 1 can take it and the
 * B channel is free (no response pending, or it is taken this cycle). Every
 * consumed write gets BRESP = OKAY, whatever happens to it: doorbells are
 * posted writes and must never raise a host error. Throughput: one write
 * per cycle while BREADY and the output streams keep up. awready/wready are
 * low during rst; the master must be idle across a reset.
 *
 * Classification of a consumed write, in this order (the 64-bit value is
 * little-endian: wdata[31:0] is dword 0):
 *   malformed  wstrb != 8'hFF or awaddr[2:0] != 0 (32-bit or partial or
 *              misaligned write)                        -> inc_malformed
 *   empty      TYPE (dword 0 bits 31:24) == 0           -> ignored, no count
 *   SQ / RQ    TYPE == FROCE_DB_TYPE_SQ / _RQ, DB_QP layout (QPN, PI)
 *   CQ_ARM     TYPE == FROCE_DB_TYPE_CQ_ARM, DB_CQ layout (CQN, CI,
 *              SOLICITED, SN)
 *   other TYPE                                          -> inc_malformed
 * An SQ/RQ/CQ_ARM doorbell is accepted (inc_accepted, pushed to its output
 * stream) only if its QPN < NUM_QPS (CQN < NUM_CQS) and the QP (CQ) is bound
 * to the page the write arrived on; otherwise it is dropped (inc_rejected).
 *
 * Binding tables: one synchronous RAM per kind (write port, registered
 * read port; entry {bound, page}, maps to block RAM), written by the
 * context commit logic through bind_qp_* / bind_cq_* (one write per valid
 * cycle). A bind with an index beyond the table is ignored; a bind to a page
 * >= NUM_UARS (e.g. 16'hFFFF) unbinds the entry.
 *
 * After rst the tables are swept clear (unbound), one entry per cycle:
 * init_busy is high for max(NUM_QPS, NUM_CQS) cycles after rst. Meanwhile
 * binds are IGNORED (the commit logic must hold them off, as the control
 * port of froce_mr_xlate holds off accesses while its table clears) and no
 * write is consumed (AW and W wait in their holding registers). After it,
 * every doorbell is rejected until its queue is bound.
 *
 * Ordering of binds and doorbells: a doorbell is checked against the
 * binding in force in the cycle it is consumed from the holding registers
 * (a bind in that same cycle is not yet seen: the RAM reads old data). That
 * cycle lies between the end of the doorbell's AW/W handshakes and its B
 * response, so a bind written before the host can know the queue exists
 * covers all of its doorbells, and a bind that follows the B response of a
 * doorbell does not affect it.
 *
 * Pipeline: holding registers (decode, table read) -> stage 1 (page
 * compare, count, push) -> one FIFO per output stream (FIFO_DEPTH entries,
 * first-word fall-through). When the FIFO a doorbell needs is full, stage 1
 * holds it and the AXI channel stalls behind it; an accepted doorbell is
 * never dropped. Rejected, malformed and empty writes never wait for a FIFO
 * (only behind a held doorbell).
 *
 * Counters: 32-bit, wrapping (the firmware accumulates differences into its
 * 64-bit counters), cleared by rst; each counts in the cycle the doorbell
 * leaves stage 1.
 *
 * Test hook: defining FROCE_DOORBELL_NO_PAGE_CHECK removes the page compare
 * (a doorbell for any bound queue is accepted from any page). It exists only
 * as the negative control of tests/rtl/doorbell; never define it in a build.
 */
module froce_doorbell #(
    parameter NUM_QPS = 256,        // QP binding entries, a power of two, 2..2^24
    parameter NUM_CQS = 256,        // CQ binding entries, a power of two, 2..2^24
    parameter NUM_UARS = 256,       // UAR pages in the window, a power of two, 2..2^16
    parameter FIFO_DEPTH = 4,       // entries per output FIFO, a power of two >= 2
    parameter ADDR_W = `FROCE_UAR_PAGE_SHIFT + $clog2(NUM_UARS) // must keep this value
) (
    input  wire                 clk,
    input  wire                 rst,

    /* BAR2 window: AXI4-Lite slave, write-only */
    input  wire [ADDR_W-1:0]    s_axil_awaddr,
    input  wire                 s_axil_awvalid,
    output wire                 s_axil_awready,
    input  wire [63:0]          s_axil_wdata,
    input  wire [7:0]           s_axil_wstrb,
    input  wire                 s_axil_wvalid,
    output wire                 s_axil_wready,
    output wire [1:0]           s_axil_bresp,
    output wire                 s_axil_bvalid,
    input  wire                 s_axil_bready,

    /* Binding writes from the context commit logic (QPC.UAR, CQC.UAR) */
    input  wire                 bind_qp_valid,
    input  wire [23:0]          bind_qp_qpn,
    input  wire [15:0]          bind_qp_uar,
    input  wire                 bind_cq_valid,
    input  wire [23:0]          bind_cq_cqn,
    input  wire [15:0]          bind_cq_uar,

    /* SQ doorbells */
    output wire                 m_sq_db_valid,
    input  wire                 m_sq_db_ready,
    output wire [23:0]          m_sq_db_qpn,
    output wire [15:0]          m_sq_db_pi,

    /* RQ doorbells */
    output wire                 m_rq_db_valid,
    input  wire                 m_rq_db_ready,
    output wire [23:0]          m_rq_db_qpn,
    output wire [15:0]          m_rq_db_pi,

    /* CQ arm doorbells */
    output wire                 m_cq_arm_valid,
    input  wire                 m_cq_arm_ready,
    output wire [23:0]          m_cq_arm_cqn,
    output wire [23:0]          m_cq_arm_ci,
    output wire                 m_cq_arm_solicited,
    output wire [3:0]           m_cq_arm_sn,

    /* Counter events: 1 in a cycle a doorbell is accepted, rejected or malformed */
    output wire                 inc_accepted,
    output wire                 inc_rejected,
    output wire                 inc_malformed,

    /* Status */
    output wire                 init_busy       // clearing the binding tables after rst
);

localparam PS = `FROCE_UAR_PAGE_SHIFT;
localparam QP_AW = $clog2(NUM_QPS);
localparam CQ_AW = $clog2(NUM_CQS);
localparam UAR_AW = $clog2(NUM_UARS);
localparam FIFO_AW = $clog2(FIFO_DEPTH);

localparam QPN_W = `FROCE_DB_QP_QPN_W;
localparam PI_W = `FROCE_DB_QP_PI_W;
localparam CQN_W = `FROCE_DB_CQ_CQN_W;
localparam CI_W = `FROCE_DB_CQ_CI_W;
localparam SN_W = `FROCE_DB_CQ_SN_W;
localparam QP_E_W = QPN_W + PI_W;                       // SQ/RQ FIFO entry: {qpn, pi}
localparam CQ_E_W = CQN_W + CI_W + 1 + SN_W;            // CQ FIFO entry: {cqn, ci, solicited, sn}

initial begin
    if (NUM_QPS < 2 || QP_AW > 24 || (1 << QP_AW) != NUM_QPS) begin
        $display("froce_doorbell: NUM_QPS must be a power of two, 2..2^24");
        $finish;
    end
    if (NUM_CQS < 2 || CQ_AW > 24 || (1 << CQ_AW) != NUM_CQS) begin
        $display("froce_doorbell: NUM_CQS must be a power of two, 2..2^24");
        $finish;
    end
    if (NUM_UARS < 2 || UAR_AW > 16 || (1 << UAR_AW) != NUM_UARS) begin
        $display("froce_doorbell: NUM_UARS must be a power of two, 2..2^16");
        $finish;
    end
    if (FIFO_DEPTH < 2 || (1 << FIFO_AW) != FIFO_DEPTH) begin
        $display("froce_doorbell: FIFO_DEPTH must be a power of two >= 2");
        $finish;
    end
    if (ADDR_W != PS + UAR_AW) begin
        $display("froce_doorbell: ADDR_W must be FROCE_UAR_PAGE_SHIFT + clog2(NUM_UARS)");
        $finish;
    end
    if (QPN_W != 24 || CQN_W != 24 || PI_W != 16 || CI_W != 24 || SN_W != 4 ||
            `FROCE_DB_QP_TYPE_W != 8 || `FROCE_DB_CQ_SOLICITED_W != 1 ||
            `FROCE_DB_QP_TYPE_LSB != `FROCE_DB_CQ_TYPE_LSB) begin
        $display("froce_doorbell: the DB_QP / DB_CQ layouts in froce_hw.vh do not match the port widths");
        $finish;
    end
end

// ---------------------------------------------------------------------------
// Binding tables
// ---------------------------------------------------------------------------

// entry: {bound, page}; the sweep after rst writes 0 (unbound)
reg [UAR_AW:0] qp_ram [0:NUM_QPS-1];
reg [UAR_AW:0] cq_ram [0:NUM_CQS-1];
reg [UAR_AW:0] qp_q_reg = 0;
reg [UAR_AW:0] cq_q_reg = 0;

reg qp_init_reg = 1'b1;                 // clearing the QP table after reset
reg cq_init_reg = 1'b1;                 // clearing the CQ table after reset
reg [QP_AW-1:0] qp_init_idx_reg = 0;
reg [CQ_AW-1:0] cq_init_idx_reg = 0;

assign init_busy = qp_init_reg || cq_init_reg;

wire bind_qp_in;                        // index inside the table
wire bind_cq_in;
wire bind_qp_page_in;                   // page inside the window
wire bind_cq_page_in;
generate
    if (QP_AW < 24) begin : g_bqp_range
        assign bind_qp_in = bind_qp_qpn[23:QP_AW] == 0;
    end else begin : g_bqp_full
        assign bind_qp_in = 1'b1;
    end
    if (CQ_AW < 24) begin : g_bcq_range
        assign bind_cq_in = bind_cq_cqn[23:CQ_AW] == 0;
    end else begin : g_bcq_full
        assign bind_cq_in = 1'b1;
    end
    if (UAR_AW < 16) begin : g_buar_range
        assign bind_qp_page_in = bind_qp_uar[15:UAR_AW] == 0;
        assign bind_cq_page_in = bind_cq_uar[15:UAR_AW] == 0;
    end else begin : g_buar_full
        assign bind_qp_page_in = 1'b1;
        assign bind_cq_page_in = 1'b1;
    end
endgenerate

// one write port per table: the sweep, else a bind (binds during init_busy are ignored)
wire qp_we = qp_init_reg || (bind_qp_valid && bind_qp_in && !init_busy);
wire cq_we = cq_init_reg || (bind_cq_valid && bind_cq_in && !init_busy);
wire [QP_AW-1:0] qp_waddr = qp_init_reg ? qp_init_idx_reg : bind_qp_qpn[QP_AW-1:0];
wire [CQ_AW-1:0] cq_waddr = cq_init_reg ? cq_init_idx_reg : bind_cq_cqn[CQ_AW-1:0];
wire [UAR_AW:0] qp_wdata = qp_init_reg ? {(UAR_AW+1){1'b0}} : {bind_qp_page_in, bind_qp_uar[UAR_AW-1:0]};
wire [UAR_AW:0] cq_wdata = cq_init_reg ? {(UAR_AW+1){1'b0}} : {bind_cq_page_in, bind_cq_uar[UAR_AW-1:0]};

// table read: in the cycle a write is consumed (rd_en), address from its data
wire rd_en;
wire [QP_AW-1:0] rd_qp_idx;
wire [CQ_AW-1:0] rd_cq_idx;

always @(posedge clk) begin
    if (qp_we) begin
        qp_ram[qp_waddr] <= qp_wdata;
    end
    if (rd_en) begin
        qp_q_reg <= qp_ram[rd_qp_idx];
    end
end

always @(posedge clk) begin
    if (cq_we) begin
        cq_ram[cq_waddr] <= cq_wdata;
    end
    if (rd_en) begin
        cq_q_reg <= cq_ram[rd_cq_idx];
    end
end

always @(posedge clk) begin
    if (qp_init_reg) begin
        qp_init_idx_reg <= qp_init_idx_reg + 1'b1;
        if (&qp_init_idx_reg) begin
            qp_init_reg <= 1'b0;
        end
    end
    if (cq_init_reg) begin
        cq_init_idx_reg <= cq_init_idx_reg + 1'b1;
        if (&cq_init_idx_reg) begin
            cq_init_reg <= 1'b0;
        end
    end
    if (rst) begin
        qp_init_reg <= 1'b1;
        cq_init_reg <= 1'b1;
        qp_init_idx_reg <= 0;
        cq_init_idx_reg <= 0;
    end
end

wire [UAR_AW-1:0] qp_page_q = qp_q_reg[UAR_AW-1:0];
wire [UAR_AW-1:0] cq_page_q = cq_q_reg[UAR_AW-1:0];
wire qp_bound_q = qp_q_reg[UAR_AW];
wire cq_bound_q = cq_q_reg[UAR_AW];

// ---------------------------------------------------------------------------
// AXI4-Lite: holding registers for AW and W, B response
// ---------------------------------------------------------------------------

reg aw_valid_reg = 1'b0;
reg [UAR_AW-1:0] aw_page_reg = 0;
reg aw_aligned_reg = 1'b0;
reg w_valid_reg = 1'b0;
reg [63:0] w_data_reg = 64'd0;
reg w_full_reg = 1'b0;                  // all eight byte strobes set
reg bvalid_reg = 1'b0;

wire s1_ready;
wire consume = aw_valid_reg && w_valid_reg && !init_busy && s1_ready && (!bvalid_reg || s_axil_bready);

assign s_axil_awready = !rst && (!aw_valid_reg || consume);
assign s_axil_wready = !rst && (!w_valid_reg || consume);
assign s_axil_bresp = 2'b00;            // OKAY, always
assign s_axil_bvalid = bvalid_reg;

wire [PS-4:0] unused_slot = s_axil_awaddr[PS-1:3];

always @(posedge clk) begin
    if (consume) begin
        aw_valid_reg <= 1'b0;
        w_valid_reg <= 1'b0;
    end
    if (s_axil_awvalid && s_axil_awready) begin
        aw_valid_reg <= 1'b1;
        aw_page_reg <= s_axil_awaddr[ADDR_W-1:PS];
        aw_aligned_reg <= s_axil_awaddr[2:0] == 3'd0;
    end
    if (s_axil_wvalid && s_axil_wready) begin
        w_valid_reg <= 1'b1;
        w_data_reg <= s_axil_wdata;
        w_full_reg <= &s_axil_wstrb;
    end
    if (consume) begin
        bvalid_reg <= 1'b1;
    end else if (s_axil_bready) begin
        bvalid_reg <= 1'b0;
    end
    if (rst) begin
        aw_valid_reg <= 1'b0;
        w_valid_reg <= 1'b0;
        bvalid_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------------------
// Decode of the held write
// ---------------------------------------------------------------------------

wire [7:0] d_type = w_data_reg[`FROCE_DB_QP_TYPE_LSB +: 8];
wire d_shape_ok = w_full_reg && aw_aligned_reg;
wire d_sq = d_shape_ok && d_type == `FROCE_DB_TYPE_SQ;
wire d_rq = d_shape_ok && d_type == `FROCE_DB_TYPE_RQ;
wire d_cq = d_shape_ok && d_type == `FROCE_DB_TYPE_CQ_ARM;
wire d_bad = !d_shape_ok || (d_type != 8'd0 && !d_sq && !d_rq && !d_cq);

wire [QPN_W-1:0] d_qpn = w_data_reg[`FROCE_DB_QP_QPN_LSB +: QPN_W];
wire [PI_W-1:0] d_pi = w_data_reg[`FROCE_DB_QP_PI_LSB +: PI_W];
wire [CQN_W-1:0] d_cqn = w_data_reg[`FROCE_DB_CQ_CQN_LSB +: CQN_W];
wire [CI_W-1:0] d_ci = w_data_reg[`FROCE_DB_CQ_CI_LSB +: CI_W];
wire d_sol = w_data_reg[`FROCE_DB_CQ_SOLICITED_LSB];
wire [SN_W-1:0] d_sn = w_data_reg[`FROCE_DB_CQ_SN_LSB +: SN_W];
wire [63:0] unused_w_data = w_data_reg;  // reserved bits are ignored

wire d_qp_in;
wire d_cq_in;
generate
    if (QP_AW < 24) begin : g_dqp_range
        assign d_qp_in = d_qpn[23:QP_AW] == 0;
    end else begin : g_dqp_full
        assign d_qp_in = 1'b1;
    end
    if (CQ_AW < 24) begin : g_dcq_range
        assign d_cq_in = d_cqn[23:CQ_AW] == 0;
    end else begin : g_dcq_full
        assign d_cq_in = 1'b1;
    end
endgenerate

assign rd_en = consume;
assign rd_qp_idx = d_qpn[QP_AW-1:0];
assign rd_cq_idx = d_cqn[CQ_AW-1:0];

// ---------------------------------------------------------------------------
// Stage 1: ownership check, counters, push
// ---------------------------------------------------------------------------

reg s1_valid_reg = 1'b0;
reg s1_sq_reg = 1'b0;
reg s1_rq_reg = 1'b0;
reg s1_cq_reg = 1'b0;
reg s1_bad_reg = 1'b0;
reg s1_qp_in_reg = 1'b0;
reg s1_cq_in_reg = 1'b0;
reg [UAR_AW-1:0] s1_page_reg = 0;
reg [QP_E_W-1:0] s1_qp_entry_reg = 0;
reg [CQ_E_W-1:0] s1_cq_entry_reg = 0;


wire sq_full;
wire rq_full;
wire cq_full;

`ifdef FROCE_DOORBELL_NO_PAGE_CHECK
wire s1_qp_page_ok = 1'b1;
wire s1_cq_page_ok = 1'b1;
wire [UAR_AW-1:0] unused_qp_page = qp_page_q ^ s1_page_reg;
wire [UAR_AW-1:0] unused_cq_page = cq_page_q;
`else
wire s1_qp_page_ok = qp_page_q == s1_page_reg;
wire s1_cq_page_ok = cq_page_q == s1_page_reg;
`endif

wire s1_qp_ok = s1_qp_in_reg && qp_bound_q && s1_qp_page_ok;
wire s1_cq_ok = s1_cq_in_reg && cq_bound_q && s1_cq_page_ok;
wire s1_push_sq = s1_valid_reg && s1_sq_reg && s1_qp_ok;
wire s1_push_rq = s1_valid_reg && s1_rq_reg && s1_qp_ok;
wire s1_push_cq = s1_valid_reg && s1_cq_reg && s1_cq_ok;
// held while its stream's FIFO is full, whether or not it will be accepted:
// the AXI handshakes (s1_ready -> consume -> awready/wready) then do not wait
// for the binding table's read and the page compare; a doorbell to be
// rejected only waits as long as an accepted one would
wire s1_hold = s1_valid_reg && ((s1_sq_reg && sq_full) || (s1_rq_reg && rq_full) || (s1_cq_reg && cq_full));
wire s1_leave = s1_valid_reg && !s1_hold;
wire s1_accept = s1_leave && (s1_push_sq || s1_push_rq || s1_push_cq);
wire s1_reject = s1_leave && (s1_sq_reg || s1_rq_reg || s1_cq_reg) &&
                 !(s1_push_sq || s1_push_rq || s1_push_cq);
wire s1_malformed = s1_leave && s1_bad_reg;

assign s1_ready = !s1_hold;

always @(posedge clk) begin
    if (s1_leave) begin
        s1_valid_reg <= 1'b0;
    end
    if (consume) begin
        s1_valid_reg <= 1'b1;
        s1_sq_reg <= d_sq;
        s1_rq_reg <= d_rq;
        s1_cq_reg <= d_cq;
        s1_bad_reg <= d_bad;
        s1_qp_in_reg <= d_qp_in;
        s1_cq_in_reg <= d_cq_in;
        s1_page_reg <= aw_page_reg;
        s1_qp_entry_reg <= {d_qpn, d_pi};
        s1_cq_entry_reg <= {d_cqn, d_ci, d_sol, d_sn};
    end

    if (rst) begin
        s1_valid_reg <= 1'b0;
    end
end

assign inc_accepted = s1_accept;
assign inc_rejected = s1_reject;
assign inc_malformed = s1_malformed;

// ---------------------------------------------------------------------------
// Output FIFOs
// ---------------------------------------------------------------------------

wire sq_empty;
wire rq_empty;
wire cq_empty;
wire [FIFO_AW:0] unused_sq_count;
wire [FIFO_AW:0] unused_rq_count;
wire [FIFO_AW:0] unused_cq_count;
wire [QP_E_W-1:0] sq_out;
wire [QP_E_W-1:0] rq_out;
wire [CQ_E_W-1:0] cq_out;

froce_fifo #(
    .WIDTH(QP_E_W),
    .DEPTH(FIFO_DEPTH),
    .REG_OUT(0)
) sq_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data(s1_qp_entry_reg),
    .wr_en(s1_push_sq),
    .rd_data(sq_out),
    .rd_en(m_sq_db_ready),
    .count(unused_sq_count),
    .empty(sq_empty),
    .full(sq_full)
);

froce_fifo #(
    .WIDTH(QP_E_W),
    .DEPTH(FIFO_DEPTH),
    .REG_OUT(0)
) rq_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data(s1_qp_entry_reg),
    .wr_en(s1_push_rq),
    .rd_data(rq_out),
    .rd_en(m_rq_db_ready),
    .count(unused_rq_count),
    .empty(rq_empty),
    .full(rq_full)
);

froce_fifo #(
    .WIDTH(CQ_E_W),
    .DEPTH(FIFO_DEPTH),
    .REG_OUT(0)
) cq_fifo_inst (
    .clk(clk),
    .rst(rst),
    .wr_data(s1_cq_entry_reg),
    .wr_en(s1_push_cq),
    .rd_data(cq_out),
    .rd_en(m_cq_arm_ready),
    .count(unused_cq_count),
    .empty(cq_empty),
    .full(cq_full)
);

assign m_sq_db_valid = !sq_empty;
assign {m_sq_db_qpn, m_sq_db_pi} = sq_out;
assign m_rq_db_valid = !rq_empty;
assign {m_rq_db_qpn, m_rq_db_pi} = rq_out;
assign m_cq_arm_valid = !cq_empty;
assign {m_cq_arm_cqn, m_cq_arm_ci, m_cq_arm_solicited, m_cq_arm_sn} = cq_out;

endmodule

`resetall
