// SPDX-License-Identifier: MIT
// Completion engine: writes CQEs with the owner bit into CQ rings in host memory.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * Requests come from two sources (s0 has priority: the responder/completer;
 * s1: the requester's error and flush completions). Each carries a CQ number
 * and the CQE body (layout CQE; its OWNER bit is filled in here).
 *
 * Per request:
 *   read the CQ context (synchronous RAM, written by the context store on
 *   commit; a commit also zeroes the CQ's producer index)
 *   slot = pi mod 2^LOG_SIZE, va = VA + slot * CQE_SIZE,
 *   OWNER = !((pi >> LOG_SIZE) & 1)   (spec: 1 on the first pass)
 *   translate (RING_KEY, PDN, va, 32, LOCAL_WRITE) through the MR/MTT unit
 *   -> one DMA write descriptor + the CQE bytes -> pi + 1.
 *
 * A CQ that is not VALID, or whose ring fails translation, loses the CQE
 * (counted on inc_cq_err); nothing is written to host memory for it.
 *
 * Ordering: a source pushes its request only after the data the CQE reports
 * has been handed to the same DMA write path (descriptors are served in
 * order), so the CQE lands after the data.
 *
 * CQ arming (docs/transport-engine.md "Completion events"): per CQ an arm
 * state {ARMED, SOLICITED_ONLY} and SOL_PI, the producer index just after
 * the newest solicited or error CQE. Arm doorbells (s_arm_*, already checked
 * for their UAR page) go through the same state machine as the CQEs, so an
 * arm and a CQE of one CQ never race:
 *   arm (CI, SOLICITED): pending = PI - CI;
 *     fire at once if pending != 0 (SOLICITED = 0) or if a solicited/error
 *     CQE lies beyond CI (SOLICITED = 1: SOL_PI - CI in 1..pending);
 *     otherwise ARMED = 1, SOLICITED_ONLY = SOLICITED (a later arm replaces
 *     an earlier one; SN is not used).
 *   CQE written while ARMED: fire if !SOLICITED_ONLY, or the CQE has
 *     SOLICITED set, or its STATUS is not SUCCESS.
 *   fire: ARMED = 0 and one event {CQN, CQC.EQN} on m_ev_*, issued after
 *     the CQE's last beat went to the DMA write queue, so the EQE the event
 *     engine writes is queued behind the CQE.
 * A CQC commit disarms the CQ and zeroes PI and SOL_PI.
 */
module froce_cq_engine #(
    parameter DATA_WIDTH = 64,
    parameter NUM_CQS = 256,
    // derived: leave at their defaults
    parameter CQW = $clog2(NUM_CQS),
    parameter CQC_BITS = `FROCE_CQC_SIZE * 8,
    parameter CQE_BITS = `FROCE_CQE_SIZE * 8
) (
    input  wire                     clk,
    input  wire                     rst,

    /* CQ context writes from the context store (commit) */
    input  wire                     cqc_we,
    input  wire [CQW-1:0]           cqc_waddr,
    input  wire [CQC_BITS-1:0]      cqc_wdata,

    /* CQE requests */
    input  wire                     s0_valid,
    output wire                     s0_ready,
    input  wire [23:0]              s0_cqn,
    input  wire [CQE_BITS-1:0]      s0_cqe,
    input  wire                     s1_valid,
    output wire                     s1_ready,
    input  wire [23:0]              s1_cqn,
    input  wire [CQE_BITS-1:0]      s1_cqe,

    /* CQ arm doorbells (froce_doorbell m_cq_arm_*) */
    input  wire                     s_arm_valid,
    output wire                     s_arm_ready,
    input  wire [23:0]              s_arm_cqn,
    input  wire [23:0]              s_arm_ci,
    input  wire                     s_arm_solicited,

    /* completion events to the event engine */
    output reg                      m_ev_valid,
    input  wire                     m_ev_ready,
    output wire [23:0]              m_ev_cqn,
    output wire [7:0]               m_ev_eqn,

    /* Translation (MR/MTT unit, through an arbiter) */
    output reg                      m_xl_valid,
    input  wire                     m_xl_ready,
    output wire [31:0]              m_xl_key,
    output wire [23:0]              m_xl_pd,
    output wire [63:0]              m_xl_va,
    output wire [31:0]              m_xl_len,
    output wire [3:0]               m_xl_access,
    input  wire                     s_seg_valid,
    output wire                     s_seg_ready,
    input  wire [63:0]              s_seg_addr,
    input  wire                     s_seg_last,
    input  wire [2:0]               s_seg_status,

    /* DMA write: descriptor and data */
    output reg                      m_wr_desc_valid,
    input  wire                     m_wr_desc_ready,
    output reg  [63:0]              m_wr_desc_addr,
    output wire [15:0]              m_wr_desc_len,
    output wire [DATA_WIDTH-1:0]    m_wr_tdata,
    output wire [DATA_WIDTH/8-1:0]  m_wr_tkeep,
    output wire                     m_wr_tvalid,
    input  wire                     m_wr_tready,
    output wire                     m_wr_tlast,

    output reg                      inc_cqes,
    output reg                      inc_cq_err,
    output reg                      inc_arms
);

localparam W = DATA_WIDTH / 8;
localparam BEATS = CQE_BITS > DATA_WIDTH ? CQE_BITS / DATA_WIDTH : 1;
localparam BTW = BEATS > 1 ? $clog2(BEATS) : 1;
localparam PADDED = BEATS * DATA_WIDTH;

initial begin
    if (W < 8 || (1 << $clog2(NUM_CQS)) != NUM_CQS) begin
        $display("froce_cq_engine: DATA_WIDTH must be >= 64, NUM_CQS a power of two");
        $finish;
    end
end

reg [CQC_BITS-1:0] cqc_ram [0:NUM_CQS-1];
reg [23:0] pi_ram [0:NUM_CQS-1];
reg [23:0] solpi_ram [0:NUM_CQS-1];
reg [1:0] arm_ram [0:NUM_CQS-1];       // {SOLICITED_ONLY, ARMED}

localparam [2:0] S_IDLE = 3'd0, S_CTX = 3'd1, S_XL = 3'd2, S_SEG = 3'd3,
                 S_DESC = 3'd4, S_DATA = 3'd5, S_ARM = 3'd6, S_EV = 3'd7;
reg [2:0] state;

reg [CQW-1:0] cq_reg;
reg [CQC_BITS-1:0] ctx_reg;
reg [CQE_BITS-1:0] cqe_reg;
reg [23:0] pi_reg;
reg cq_ok_reg;
reg [BTW-1:0] beat_reg;
reg seg_bad_reg;
reg is_arm_reg;
reg [23:0] arm_ci_reg;
reg arm_sol_reg;
reg [1:0] arm_reg;

wire pick0 = s0_valid;
// arms first: they are rare, and a stream of CQEs must not starve them
wire take = state == S_IDLE && (s0_valid || s1_valid) && !s_arm_valid;
assign s_arm_ready = state == S_IDLE;
assign s0_ready = state == S_IDLE && !s_arm_valid;
assign s1_ready = state == S_IDLE && !s_arm_valid && !s0_valid;

wire [23:0] req_cqn = pick0 ? s0_cqn : s1_cqn;

wire [4:0] log_size = ctx_reg[`FROCE_CQC_LOG_SIZE_LSB +: `FROCE_CQC_LOG_SIZE_W];
wire [63:0] ring_va = ctx_reg[`FROCE_CQC_VA_LSB +: `FROCE_CQC_VA_W];
wire [23:0] slot_mask = ~(24'hFFFFFF << log_size);
wire [63:0] slot_off = {35'd0, (pi_reg & slot_mask), 5'd0};
wire owner = ~pi_reg[log_size];

assign m_xl_key = ctx_reg[`FROCE_CQC_RING_KEY_LSB +: `FROCE_CQC_RING_KEY_W];
assign m_xl_pd = ctx_reg[`FROCE_CQC_PDN_LSB +: `FROCE_CQC_PDN_W];
assign m_xl_va = ring_va + slot_off;
assign m_xl_len = `FROCE_CQE_SIZE;
wire [7:0] access_lw = `FROCE_ACCESS_LOCAL_WRITE;
assign m_xl_access = access_lw[3:0];
assign s_seg_ready = state == S_SEG;
assign m_wr_desc_len = `FROCE_CQE_SIZE;

// CQE with the owner bit, padded to whole beats
wire [CQE_BITS-1:0] cqe_owned = {owner, cqe_reg[CQE_BITS-2:0]};
wire [PADDED-1:0] cqe_padded = {{(PADDED - CQE_BITS){1'b0}}, cqe_owned};
localparam KEEP_N = CQE_BITS >= DATA_WIDTH ? W : CQE_BITS / 8;
localparam [W-1:0] KEEP = {W{1'b1}} >> (W - KEEP_N);
assign m_wr_tdata = cqe_padded[beat_reg * DATA_WIDTH +: DATA_WIDTH];
assign m_wr_tkeep = KEEP;
assign m_wr_tvalid = state == S_DATA;
assign m_wr_tlast = beat_reg == BEATS[BTW-1:0] - 1'b1 || BEATS == 1;

always @(posedge clk) begin
    if (cqc_we)
        cqc_ram[cqc_waddr] <= cqc_wdata;
    ctx_reg <= cqc_ram[cq_reg];
end

wire cqe_done = state == S_DATA && m_wr_tvalid && m_wr_tready && m_wr_tlast;
wire [7:0] cqe_status = cqe_reg[`FROCE_CQE_STATUS_LSB +: `FROCE_CQE_STATUS_W];
wire cqe_qualifies = cqe_reg[`FROCE_CQE_SOLICITED_LSB] || cqe_status != `FROCE_WC_SUCCESS;
wire [23:0] pi_next = pi_reg + 1'b1;
// arm decision (S_ARM): CQEs beyond the arm's CI (the distances are
// worked out in S_CTX, as the indices are read, so that S_ARM's decision
// starts at registers)
wire arm_ok = cq_ok_reg && ctx_reg[`FROCE_CQC_VALID_LSB];
reg [23:0] arm_pending;         // pi - arm CI
reg [23:0] arm_sol_dist;        // solicited pi - arm CI
wire arm_now = arm_sol_reg ? (arm_sol_dist != 24'd0 && arm_sol_dist <= arm_pending && !arm_pending[23])
                           : (arm_pending != 24'd0 && !arm_pending[23]);
wire cqe_fire = cqe_done && arm_reg[0] && (!arm_reg[1] || cqe_qualifies);
wire arm_we = (state == S_ARM && arm_ok) || cqe_fire;
wire [1:0] arm_wd = (state == S_ARM && !arm_now) ? {arm_sol_reg, 1'b1} : 2'b00;

always @(posedge clk) begin
    if (cqc_we)
        pi_ram[cqc_waddr] <= 24'd0;
    else if (cqe_done)
        pi_ram[cq_reg] <= pi_next;
end

always @(posedge clk) begin
    if (cqc_we)
        solpi_ram[cqc_waddr] <= 24'd0;
    else if (cqe_done && cqe_qualifies)
        solpi_ram[cq_reg] <= pi_next;
end

always @(posedge clk) begin
    if (cqc_we)
        arm_ram[cqc_waddr] <= 2'b00;
    else if (arm_we)
        arm_ram[cq_reg] <= arm_wd;
end

assign m_ev_cqn = {{(24 - CQW){1'b0}}, cq_reg};
assign m_ev_eqn = ctx_reg[`FROCE_CQC_EQN_LSB +: `FROCE_CQC_EQN_W];

always @(posedge clk) begin
    // counter increments (froce_counters in froce_core): one-cycle pulses
    inc_cqes <= 1'b0;
    inc_cq_err <= 1'b0;
    inc_arms <= 1'b0;
    case (state)
    S_IDLE: if (s_arm_valid) begin
        cq_reg <= s_arm_cqn[CQW-1:0];
        cq_ok_reg <= s_arm_cqn < NUM_CQS;
        is_arm_reg <= 1'b1;
        arm_ci_reg <= s_arm_ci;
        arm_sol_reg <= s_arm_solicited;
        inc_arms <= 1'b1;
        state <= S_CTX;
    end else if (take) begin
        cq_reg <= req_cqn[CQW-1:0];
        cq_ok_reg <= req_cqn < NUM_CQS;
        cqe_reg <= pick0 ? s0_cqe : s1_cqe;
        is_arm_reg <= 1'b0;
        state <= S_CTX;
    end
    S_CTX: begin
        // ctx_reg holds the context from this cycle on
        pi_reg <= pi_ram[cq_reg];
        arm_pending <= pi_ram[cq_reg] - arm_ci_reg;
        arm_sol_dist <= solpi_ram[cq_reg] - arm_ci_reg;
        arm_reg <= arm_ram[cq_reg];
        state <= is_arm_reg ? S_ARM : S_XL;
    end
    S_ARM: begin
        // an arm of a CQ that is not valid is dropped
        if (arm_ok && arm_now) begin
            m_ev_valid <= 1'b1;
            state <= S_EV;
        end else begin
            state <= S_IDLE;
        end
    end
    S_EV: if (m_ev_ready) begin
        m_ev_valid <= 1'b0;
        state <= S_IDLE;
    end
    S_XL: begin
        if (!cq_ok_reg || !ctx_reg[`FROCE_CQC_VALID_LSB]) begin
            inc_cq_err <= 1'b1;
            state <= S_IDLE;
        end else if (!m_xl_valid) begin
            m_xl_valid <= 1'b1;
        end else if (m_xl_ready) begin
            m_xl_valid <= 1'b0;
            seg_bad_reg <= 1'b0;
            state <= S_SEG;
        end
    end
    S_SEG: if (s_seg_valid) begin
        // a 32-byte CQE in a 32-byte aligned slot never crosses a page
        if (s_seg_status != `FROCE_XLATE_OK || !s_seg_last)
            seg_bad_reg <= 1'b1;
        m_wr_desc_addr <= s_seg_addr;
        if (s_seg_last) begin
            if (s_seg_status != `FROCE_XLATE_OK || seg_bad_reg) begin
                inc_cq_err <= 1'b1;
                state <= S_IDLE;
            end else begin
                m_wr_desc_valid <= 1'b1;
                state <= S_DESC;
            end
        end
    end
    S_DESC: if (m_wr_desc_ready) begin
        m_wr_desc_valid <= 1'b0;
        beat_reg <= {BTW{1'b0}};
        state <= S_DATA;
    end
    S_DATA: if (m_wr_tready) begin
        beat_reg <= beat_reg + 1'b1;
        if (m_wr_tlast) begin
            inc_cqes <= 1'b1;
            if (cqe_fire) begin
                m_ev_valid <= 1'b1;
                state <= S_EV;
            end else begin
                state <= S_IDLE;
            end
        end
    end
    default: state <= S_IDLE;
    endcase
    if (rst) begin
        state <= S_IDLE;
        m_xl_valid <= 1'b0;
        m_wr_desc_valid <= 1'b0;
        inc_cqes <= 1'b0;
        inc_cq_err <= 1'b0;
        inc_arms <= 1'b0;
        m_ev_valid <= 1'b0;
    end
end

// context bits this engine does not use (UAR: checked by froce_doorbell)
wire unused_ctx = ^{ctx_reg, cqe_reg[CQE_BITS-1], access_lw[7:4]};

endmodule

`resetall
