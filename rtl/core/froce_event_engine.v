// SPDX-License-Identifier: MIT
// Event engine: EQE writes into event queues, EQ arming and MSI-X requests.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * Event queues (docs/transport-engine.md "Completion events"):
 *
 *   EQ 0      configured by the BAR0 EQ0_ADDR_LO/HI and EQ0_CFG registers
 *             (eq0_*; eq0_cfg_we, a write of EQ0_CFG, zeroes its PI, CI
 *             and arm state)
 *   EQ n >= 1 EQC on the control bus (eqc_*; a commit zeroes PI, CI, arm)
 *
 * Rings are physically contiguous (EQE n at ADDR + 16 * (n mod 2^LOG_SIZE)),
 * no MTT translation. Per event {CQN, EQN} from the CQ engine:
 *   EQ not valid (EQ 0: not ENABLEd), EQN >= NUM_EQS, or the ring full
 *   (PI - CI == 2^LOG_SIZE): the event is dropped and counted
 *   (inc_dropped); the EQ's arm state is kept.
 *   Otherwise the EQE {TYPE COMPLETION, ID CQN, OWNER = !((PI >> LOG_SIZE) & 1)}
 *   is written as two 8-byte small writes into the ordered DMA write queue
 *   of froce_core (dwords 0-1, then dwords 2-3 holding OWNER, so OWNER lands
 *   last); after the second one completed (wr_done), PI + 1 and, if the EQ
 *   is armed, it is disarmed and its vector becomes pending.
 * EQ_DOORBELL {EQN, CI, ARM} (from BAR0): CI is stored; with ARM, the vector
 * becomes pending at once if EQEs beyond CI exist (PI != CI), else the EQ
 * is armed for its next EQE. Without ARM only CI moves.
 *
 * MSI-X: one pending bit per vector (the PBA); a pending vector that is not
 * masked (msix_mask, the MSI-X table's vector control bits) is requested on
 * m_msix_* (lowest vector first) and its pending bit cleared on the
 * handshake. Several events for one vector before the request coalesce.
 *
 * Posted EQEs (s_post_*, the firmware: CMD_DONE, QP_EVENT, CQ_ERROR,
 * PORT_CHANGE): dwords 0..2 as given, OWNER added; written like a completion
 * event. One m_post_done pulse per accepted post, after the EQE is written
 * (m_post_dropped 0) or at once when the EQ is disabled, out of range or
 * full (m_post_dropped 1; counted in inc_dropped like any dropped event).
 *
 * One event, post or doorbell at a time; doorbells first, then posts.
 */
module froce_event_engine #(
    parameter NUM_EQS = 8,              // EQs, EQ 0 included, 2..64
    parameter NUM_VECTORS = 32,         // MSI-X vectors, 1..FROCE_MSIX_MAX_VECTORS
    // derived: leave at their defaults
    parameter EQW = $clog2(NUM_EQS),
    parameter EQC_BITS = `FROCE_EQC_SIZE * 8
) (
    input  wire                     clk,
    input  wire                     rst,

    /* EQ n >= 1: context commits from the control bus */
    input  wire                     eqc_we,
    input  wire [EQW-1:0]           eqc_waddr,
    input  wire [EQC_BITS-1:0]      eqc_wdata,

    /* EQ 0: BAR0 registers */
    input  wire [63:0]              eq0_addr,
    input  wire [4:0]               eq0_log_size,
    input  wire [4:0]               eq0_vector,
    input  wire                     eq0_enable,
    input  wire                     eq0_cfg_we,

    /* completion events from the CQ engine */
    input  wire                     s_ev_valid,
    output wire                     s_ev_ready,
    input  wire [23:0]              s_ev_cqn,
    input  wire [7:0]               s_ev_eqn,

    /* EQEs posted by the firmware: dwords 2:0; one m_post_done per post */
    input  wire                     s_post_valid,
    output wire                     s_post_ready,
    input  wire [5:0]               s_post_eqn,
    input  wire [95:0]              s_post_dw,
    output reg                      m_post_done,
    output reg                      m_post_dropped,

    /* EQ doorbells (BAR0 EQ_DOORBELL) */
    input  wire                     s_db_valid,
    output wire                     s_db_ready,
    input  wire [5:0]               s_db_eqn,
    input  wire [23:0]              s_db_ci,
    input  wire                     s_db_arm,

    /* EQE writes: 8-byte small writes into the ordered write queue; the
     * second half of an EQE has m_wr_last set and reports on wr_done */
    output wire                     m_wr_valid,
    input  wire                     m_wr_ready,
    output wire [63:0]              m_wr_addr,
    output wire [63:0]              m_wr_data,
    output wire                     m_wr_last,
    input  wire                     wr_done,

    /* MSI-X */
    input  wire [NUM_VECTORS-1:0]   msix_mask,
    output reg  [NUM_VECTORS-1:0]   msix_pending,
    output reg  [4:0]               m_msix_vector,
    output wire                     m_msix_valid,
    input  wire                     m_msix_ready,

    output reg                      inc_eqes,
    output reg                      inc_msix,
    output reg                      inc_dropped
);

initial begin
    if (NUM_EQS < 2 || NUM_EQS > 64 || (1 << EQW) != NUM_EQS || NUM_VECTORS < 1 ||
        NUM_VECTORS > `FROCE_MSIX_MAX_VECTORS) begin
        $display("froce_event_engine: NUM_EQS must be a power of two in 2..64, NUM_VECTORS 1..32");
        $finish;
    end
end

// EQ state (NUM_EQS is small: registers). Index 0 of the config arrays is unused.
reg [63:0] eq_addr [0:NUM_EQS-1];
reg [4:0] eq_log [0:NUM_EQS-1];
reg [4:0] eq_vec [0:NUM_EQS-1];
reg [NUM_EQS-1:0] eq_valid;
reg [23:0] eq_pi [0:NUM_EQS-1];
reg [23:0] eq_ci [0:NUM_EQS-1];
reg [NUM_EQS-1:0] eq_armed;

localparam [31:0] NUM_VEC32 = NUM_VECTORS;
localparam [5:0] NUM_VEC6 = NUM_VEC32[5:0];
localparam [2:0] E_IDLE = 3'd0, E_W0 = 3'd1, E_W1 = 3'd2, E_WAIT = 3'd3, E_CHECK = 3'd4;
reg [2:0] state;
reg [EQW-1:0] eqn_reg;
reg [23:0] cqn_reg;
reg post_reg;                   // the EQE in flight is a post (post_dw_reg)
reg [95:0] post_dw_reg;

// the event's EQ, by the incoming EQN; a post is taken first. E_IDLE takes
// the event into registers, E_CHECK decides on its EQ (enabled, not full)
// from them: the EQ lookups and the fill subtract do not run into the
// handshakes of the CQ engine and the firmware
wire take_post = s_post_valid;
wire [7:0] in_eqn = take_post ? {2'b00, s_post_eqn} : s_ev_eqn;
wire [EQW-1:0] ev_eqn = in_eqn[EQW-1:0];
reg ev_in_range_reg;
wire ev_is0 = eqn_reg == {EQW{1'b0}};
wire ev_valid_eq = ev_is0 ? eq0_enable : eq_valid[eqn_reg];
wire [4:0] ev_log = ev_is0 ? eq0_log_size : eq_log[eqn_reg];
wire [23:0] ev_used = eq_pi[eqn_reg] - eq_ci[eqn_reg];
wire [24:0] ev_size = 25'd1 << ev_log;
wire ev_full = {1'b0, ev_used} >= ev_size;
wire ev_ok = ev_in_range_reg && ev_valid_eq && !ev_full;

// the current EQ (eqn_reg)
wire cur_is0 = eqn_reg == {EQW{1'b0}};
wire [63:0] cur_base = cur_is0 ? eq0_addr : eq_addr[eqn_reg];
wire [4:0] cur_log = cur_is0 ? eq0_log_size : eq_log[eqn_reg];
wire [4:0] cur_vec = cur_is0 ? eq0_vector : eq_vec[eqn_reg];
wire [23:0] cur_pi = eq_pi[eqn_reg];
wire [23:0] slot_mask = ~(24'hFFFFFF << cur_log);
wire [63:0] slot_addr = cur_base + {36'd0, cur_pi & slot_mask, 4'd0};
wire owner = ~cur_pi[cur_log];

reg [127:0] eqe;
always @* begin
    eqe = 128'd0;
    if (post_reg) begin
        eqe[95:0] = post_dw_reg;
    end else begin
        eqe[`FROCE_EQE_TYPE_LSB +: `FROCE_EQE_TYPE_W] = `FROCE_EQE_TYPE_COMPLETION;
        eqe[`FROCE_EQE_ID_LSB +: `FROCE_EQE_ID_W] = cqn_reg;
    end
    eqe[`FROCE_EQE_OWNER_LSB] = owner;
end

assign m_wr_valid = state == E_W0 || state == E_W1;
assign m_wr_addr = state == E_W1 ? slot_addr + 64'd8 : slot_addr;
assign m_wr_data = state == E_W1 ? eqe[127:64] : eqe[63:0];
assign m_wr_last = state == E_W1;

assign s_db_ready = state == E_IDLE;
assign s_post_ready = state == E_IDLE && !s_db_valid;
assign s_ev_ready = state == E_IDLE && !s_db_valid && !s_post_valid;

// doorbell
wire db_fire = s_db_valid && state == E_IDLE;
wire db_in_range = s_db_eqn < NUM_EQS;
wire [EQW-1:0] db_eqn = s_db_eqn[EQW-1:0];
wire [4:0] db_vec = db_eqn == {EQW{1'b0}} ? eq0_vector : eq_vec[db_eqn];
wire db_pending_eqes = eq_pi[db_eqn] != s_db_ci;

// MSI-X request: lowest pending, unmasked vector
wire [NUM_VECTORS-1:0] msix_ready_vec = msix_pending & ~msix_mask;
assign m_msix_valid = |msix_ready_vec;
integer vi;
always @* begin
    m_msix_vector = 5'd0;
    for (vi = NUM_VECTORS - 1; vi >= 0; vi = vi - 1)
        if (msix_ready_vec[vi])
            m_msix_vector = vi[4:0];
end
wire msix_fire = m_msix_valid && m_msix_ready;

// vector raised this cycle (at most one: doorbell and EQE completion are exclusive states)
reg raise;
reg [4:0] raise_vec;
always @* begin
    raise = 1'b0;
    raise_vec = 5'd0;
    if (db_fire && db_in_range && s_db_arm && db_pending_eqes) begin
        raise = 1'b1;
        raise_vec = db_vec;
    end
    if (state == E_WAIT && wr_done && eq_armed[eqn_reg]) begin
        raise = 1'b1;
        raise_vec = cur_vec;
    end
end

// one-hot of the vector a request clears and a raise sets (a shift, so the
// 5-bit vector numbers need no narrowing when NUM_VECTORS < 32)
localparam [NUM_VECTORS-1:0] VEC_ONE = 1;
wire [NUM_VECTORS-1:0] msix_clr_onehot = msix_fire ? VEC_ONE << m_msix_vector : {NUM_VECTORS{1'b0}};
wire [NUM_VECTORS-1:0] msix_set_onehot = raise && {1'b0, raise_vec} < NUM_VEC6 ? VEC_ONE << raise_vec
                                                                              : {NUM_VECTORS{1'b0}};

integer ei;
always @(posedge clk) begin
    m_post_done <= 1'b0;
    // counter increments (froce_counters in froce_core): one-cycle pulses
    inc_eqes <= 1'b0;
    inc_msix <= 1'b0;
    inc_dropped <= 1'b0;
    m_post_dropped <= 1'b0;
    // pending bits: cleared by the request, set by a raise (a raise wins)
    if (msix_fire)
        inc_msix <= 1'b1;
    msix_pending <= (msix_pending & ~msix_clr_onehot) | msix_set_onehot;

    case (state)
    E_IDLE: begin
        if (db_fire) begin
            if (db_in_range) begin
                eq_ci[db_eqn] <= s_db_ci;
                if (s_db_arm)
                    eq_armed[db_eqn] <= !db_pending_eqes;
            end
        end else if (s_post_valid || s_ev_valid) begin
            eqn_reg <= ev_eqn;
            ev_in_range_reg <= in_eqn < NUM_EQS;
            cqn_reg <= s_ev_cqn;
            post_reg <= take_post;
            post_dw_reg <= s_post_dw;
            state <= E_CHECK;
        end
    end
    E_CHECK: begin
        if (ev_ok) begin
            state <= E_W0;
        end else begin
            inc_dropped <= 1'b1;
            m_post_done <= post_reg;
            m_post_dropped <= post_reg;
            state <= E_IDLE;
        end
    end
    E_W0: if (m_wr_ready) state <= E_W1;
    E_W1: if (m_wr_ready) state <= E_WAIT;
    E_WAIT: if (wr_done) begin
        eq_pi[eqn_reg] <= cur_pi + 1'b1;
        eq_armed[eqn_reg] <= 1'b0;
        inc_eqes <= 1'b1;
        m_post_done <= post_reg;
        state <= E_IDLE;
    end
    default: state <= E_IDLE;
    endcase

    // context writes (software must not reconfigure an EQ that is in use)
    if (eqc_we && eqc_waddr != {EQW{1'b0}}) begin
        eq_addr[eqc_waddr] <= eqc_wdata[`FROCE_EQC_ADDR_LSB +: `FROCE_EQC_ADDR_W];
        eq_log[eqc_waddr] <= eqc_wdata[`FROCE_EQC_LOG_SIZE_LSB +: `FROCE_EQC_LOG_SIZE_W];
        eq_vec[eqc_waddr] <= eqc_wdata[`FROCE_EQC_VECTOR_LSB +: `FROCE_EQC_VECTOR_W];
        eq_valid[eqc_waddr] <= eqc_wdata[`FROCE_EQC_VALID_LSB];
        eq_pi[eqc_waddr] <= 24'd0;
        eq_ci[eqc_waddr] <= 24'd0;
        eq_armed[eqc_waddr] <= 1'b0;
    end
    if (eq0_cfg_we) begin
        eq_pi[0] <= 24'd0;
        eq_ci[0] <= 24'd0;
        eq_armed[0] <= 1'b0;
    end

    if (rst) begin
        state <= E_IDLE;
        post_reg <= 1'b0;
        m_post_done <= 1'b0;
        m_post_dropped <= 1'b0;
        msix_pending <= {NUM_VECTORS{1'b0}};
        eq_valid <= {NUM_EQS{1'b0}};
        eq_armed <= {NUM_EQS{1'b0}};
        for (ei = 0; ei < NUM_EQS; ei = ei + 1) begin
            eq_pi[ei] <= 24'd0;
            eq_ci[ei] <= 24'd0;
        end
        inc_eqes <= 1'b0;
        inc_msix <= 1'b0;
        inc_dropped <= 1'b0;
    end
end

wire unused_ev = ^{eqc_wdata, eq_valid[0]};

endmodule

`resetall
