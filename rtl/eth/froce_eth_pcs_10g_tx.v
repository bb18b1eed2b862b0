// SPDX-License-Identifier: MIT
// 10GBASE-R PCS transmit (IEEE 802.3 Clause 49): 64-bit XGMII -> 64B/66B encoder -> scrambler -> GT gearbox.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * XGMII: one 64-bit word per cycle, lane i = xgmii_txd[8*i+7:8*i] with
 * control flag xgmii_txc[i]; lane 0 is first in time.
 *
 * Block (Table 49-7), before the optional bit reversal: blk[i] is the i-th
 * payload bit on the line, so the block type is blk[7:0], a data byte of
 * lane j in a data block is blk[8*j+7:8*j], and the 7-bit control code of
 * lane i is always at blk[8+7*i +: 7]. hdr[0] is the first header bit on the
 * line: 2'b10 is the data header "01", 2'b01 the control header "10".
 *
 *   type  T_TYPE  lanes 0..7 (C = control char, D = data, O = /Q/ or /Fsig/)
 *   0x1E  C       C C C C C C C C      (no /E/; /I/, /LI/, reserved)
 *   0x2D  C       C C C C O D D D
 *   0x4B  C       O D D D C C C C
 *   0x55  C       O D D D O D D D
 *   0x33  S       C C C C S D D D
 *   0x66  S       O D D D S D D D
 *   0x78  S       S D D D D D D D
 *   0x87..0xFF T  D.. T C..          (terminate in lane 0..7; the trailing
 *                                     control chars may be /E/, not /O/ /S/ /T/)
 *   data  D       D D D D D D D D
 *   anything else is E and is sent as EBLOCK_T (0x1E with eight /E/)
 *
 * Transmit state machine (Figure 49-14), on T_TYPE of the current word;
 * TX_INIT, TX_C and TX_T behave alike and share ST_C:
 *
 *   ST_C: C -> ST_C, S -> ST_D, else EBLOCK_T and ST_E
 *   ST_D: D -> ST_D, T -> ST_C, else EBLOCK_T and ST_E
 *   ST_E: C -> ST_C, D -> ST_D, T -> ST_C, else (E, S) EBLOCK_T and ST_E
 *
 * While rst is high the encoder sends LBLOCK_T (local fault in lanes 0 and
 * 4, 0x55 block), like TX_INIT.
 *
 * Pipeline, 4 cycles XGMII -> serdes_tx_*:
 *   1. lane classification (control char -> 7-bit code, /S/ /T/ /O/ flags)
 *   2. T_TYPE and block assembly
 *   3. state machine: the block or EBLOCK_T
 *   4. scrambler (froce_eth_pcs_scrambler)
 *
 * BIT_REVERSE = 1 reverses data and header on the GT side (serdes_tx_data[63]
 * first on the line, header bits swapped), which is what verilog-ethernet
 * uses with UltraScale GTH/GTY 64B/66B gearboxes; check against the GT's user
 * guide. verilog-ethernet's BaseRSerdesSink (tb/baser.py) calls this
 * reverse=True.
 */
module froce_eth_pcs_10g_tx #(
    parameter BIT_REVERSE = 0          // 1: GT transmits serdes_tx_data[63] first (see above)
) (
    input  wire        clk,
    input  wire        rst,

    /* XGMII from the MAC */
    input  wire [63:0] xgmii_txd,
    input  wire [7:0]  xgmii_txc,

    /* GT with 64B/66B gearbox: one block per cycle */
    output wire [63:0] serdes_tx_data,
    output wire [1:0]  serdes_tx_hdr,

    /* Status */
    output wire        tx_bad_block    // one-cycle pulse: an XGMII word was sent as EBLOCK_T
);

localparam [1:0] SYNC_DATA = 2'b10;
localparam [1:0] SYNC_CTRL = 2'b01;

localparam [1:0] ST_C = 2'd0;          // TX_INIT, TX_C, TX_T
localparam [1:0] ST_D = 2'd1;
localparam [1:0] ST_E = 2'd2;

localparam [63:0] LBLOCK_T = 64'h0100_0000_0100_0055;  // /Q/ 00 00 01 in lanes 0 and 4
localparam [63:0] EBLOCK_T = {{8{7'h1e}}, 8'h1e};

/* ------------------------------------------------------------------------
 * Stage 1: lane classification
 * ------------------------------------------------------------------------ */

reg [63:0] s1_data_reg = 64'd0;
reg [7:0]  s1_ctrl_reg = 8'd0;
reg [55:0] s1_code_reg = 56'd0;        // 7-bit code of lane i at [7*i +: 7] (0 if none)
reg [7:0]  s1_idle_reg = 8'd0;         // valid control char other than /O/ /S/ /T/ /E/
reg [7:0]  s1_err_reg = 8'd0;          // /E/
reg [7:0]  s1_term_reg = 8'd0;         // /T/
// /S/ and ordered sets can only be encoded in lanes 0 and 4: {lane 4, lane 0}
reg [1:0]  s1_start_reg = 2'd0;        // /S/
reg [1:0]  s1_os_reg = 2'd0;           // /Q/ or /Fsig/
reg [1:0]  s1_sig_reg = 2'd0;          // /Fsig/

reg [55:0] lane_code;
reg [7:0]  lane_idle, lane_err, lane_start, lane_term, lane_os, lane_sig;
integer i;

always @* begin
    for (i = 0; i < 8; i = i + 1) begin
        lane_code[7*i +: 7] = 7'h00;
        lane_idle[i] = 1'b0;
        lane_err[i] = 1'b0;
        lane_start[i] = 1'b0;
        lane_term[i] = 1'b0;
        lane_os[i] = 1'b0;
        lane_sig[i] = 1'b0;
        if (xgmii_txc[i]) begin
            case (xgmii_txd[8*i +: 8])
                8'h07: begin lane_code[7*i +: 7] = 7'h00; lane_idle[i] = 1'b1; end  // /I/
                8'h06: begin lane_code[7*i +: 7] = 7'h06; lane_idle[i] = 1'b1; end  // /LI/
                8'h1c: begin lane_code[7*i +: 7] = 7'h2d; lane_idle[i] = 1'b1; end  // reserved
                8'h3c: begin lane_code[7*i +: 7] = 7'h33; lane_idle[i] = 1'b1; end
                8'h7c: begin lane_code[7*i +: 7] = 7'h4b; lane_idle[i] = 1'b1; end
                8'hbc: begin lane_code[7*i +: 7] = 7'h55; lane_idle[i] = 1'b1; end
                8'hdc: begin lane_code[7*i +: 7] = 7'h66; lane_idle[i] = 1'b1; end
                8'hf7: begin lane_code[7*i +: 7] = 7'h78; lane_idle[i] = 1'b1; end
                8'hfe: begin lane_code[7*i +: 7] = 7'h1e; lane_err[i] = 1'b1; end   // /E/
                8'hfb: lane_start[i] = 1'b1;
                8'hfd: lane_term[i] = 1'b1;
                8'h9c: lane_os[i] = 1'b1;                                          // /Q/
                8'h5c: begin lane_os[i] = 1'b1; lane_sig[i] = 1'b1; end            // /Fsig/
                default: ;                                                         // invalid
            endcase
        end
    end
end

// /S/ or an ordered set in lanes other than 0 and 4 matches no block type: E
wire unused_lanes = ^{lane_start[7:5], lane_start[3:1], lane_os[7:5], lane_os[3:1],
                      lane_sig[7:5], lane_sig[3:1]};

always @(posedge clk) begin
    s1_data_reg <= xgmii_txd;
    s1_ctrl_reg <= xgmii_txc;
    s1_code_reg <= lane_code;
    s1_idle_reg <= lane_idle;
    s1_err_reg <= lane_err;
    s1_term_reg <= lane_term;
    s1_start_reg <= {lane_start[4], lane_start[0]};
    s1_os_reg <= {lane_os[4], lane_os[0]};
    s1_sig_reg <= {lane_sig[4], lane_sig[0]};

    if (rst) begin
        s1_ctrl_reg <= 8'hff;              // idles: the first block after reset is 0x1E
        s1_code_reg <= 56'd0;
        s1_idle_reg <= 8'hff;
        s1_err_reg <= 8'd0;
        s1_term_reg <= 8'd0;
        s1_start_reg <= 2'd0;
        s1_os_reg <= 2'd0;
        s1_sig_reg <= 2'd0;
    end
end

/* ------------------------------------------------------------------------
 * Stage 2: T_TYPE and block
 * ------------------------------------------------------------------------ */

wire [7:0] c = s1_ctrl_reg;
wire [63:0] d = s1_data_reg;
wire [55:0] k = s1_code_reg;

// O codes of lanes 0 and 4: 0x0 for /Q/, 0xF for /Fsig/
wire [3:0] o0 = {4{s1_sig_reg[0]}};
wire [3:0] o4 = {4{s1_sig_reg[1]}};

wire all_data = c == 8'h00;
wire lo_idle = &s1_idle_reg[3:0];
wire hi_idle = &s1_idle_reg[7:4];
wire os_lo = s1_os_reg[0] && c[3:1] == 3'b000;       // ordered set in lanes 0..3
wire os_hi = s1_os_reg[1] && c[7:5] == 3'b000;       // ordered set in lanes 4..7
wire start_lo = s1_start_reg[0] && c[7:1] == 7'h00;
wire start_hi = s1_start_reg[1] && c[7:5] == 3'b000;
wire [7:0] trail = s1_idle_reg | s1_err_reg;          // allowed after /T/

reg [7:0] term;                                       // /T/ in lane n, data before, control after
integer n;

always @* begin
    for (n = 0; n < 8; n = n + 1)
        term[n] = s1_term_reg[n] && ((c & ((8'd1 << n) - 8'd1)) == 8'd0) &&
                  ((trail | ~(8'hfe << n)) == 8'hff);
end

reg [2:0] ty;                                          // T_TYPE
reg [63:0] enc;                                        // ENCODE(tx_raw) for C, S, T, D
localparam [2:0] TY_C = 3'd0, TY_S = 3'd1, TY_T = 3'd2, TY_D = 3'd3, TY_E = 3'd4;

always @* begin
    ty = TY_E;
    enc = EBLOCK_T;
    if (all_data) begin
        ty = TY_D;
        enc = d;
    end else if (lo_idle && hi_idle) begin
        ty = TY_C;
        enc = {k, 8'h1e};
    end else if (lo_idle && os_hi) begin
        ty = TY_C;
        enc = {d[63:40], o4, k[27:0], 8'h2d};
    end else if (os_lo && hi_idle) begin
        ty = TY_C;
        enc = {k[55:28], o0, d[31:8], 8'h4b};
    end else if (os_lo && os_hi) begin
        ty = TY_C;
        enc = {d[63:40], o4, o0, d[31:8], 8'h55};
    end else if (lo_idle && start_hi) begin
        ty = TY_S;
        enc = {d[63:40], 4'h0, k[27:0], 8'h33};
    end else if (os_lo && start_hi) begin
        ty = TY_S;
        enc = {d[63:40], 4'h0, o0, d[31:8], 8'h66};
    end else if (start_lo) begin
        ty = TY_S;
        enc = {d[63:8], 8'h78};
    end else if (term != 8'h00) begin
        ty = TY_T;
        // data of lanes 0..n-1 in bytes 1..n, codes of lanes n+1..7 where they always sit
        case (term)
            8'h01:   enc = {k[55:7], 7'd0, 8'h87};
            8'h02:   enc = {k[55:14], 6'd0, d[7:0], 8'h99};
            8'h04:   enc = {k[55:21], 5'd0, d[15:0], 8'haa};
            8'h08:   enc = {k[55:28], 4'd0, d[23:0], 8'hb4};
            8'h10:   enc = {k[55:35], 3'd0, d[31:0], 8'hcc};
            8'h20:   enc = {k[55:42], 2'd0, d[39:0], 8'hd2};
            8'h40:   enc = {k[55:49], 1'd0, d[47:0], 8'he1};
            default: enc = {d[55:0], 8'hff};               // 8'h80 (one /T/: the rest are control)
        endcase
    end
end

reg [2:0]  ty_reg = TY_C;
reg [63:0] enc_reg = 64'd0;

always @(posedge clk) begin
    ty_reg <= ty;
    enc_reg <= enc;

    if (rst) begin
        ty_reg <= TY_C;
        enc_reg <= 64'h1e;                 // /I/ x 8
    end
end

/* ------------------------------------------------------------------------
 * Stage 3: transmit state machine
 * ------------------------------------------------------------------------ */

reg [1:0] state_reg = ST_C, state_next;
reg [63:0] blk_reg = LBLOCK_T, blk_next;
reg [1:0] hdr_reg = SYNC_CTRL, hdr_next;
reg bad_reg = 1'b0, bad_next;

always @* begin
    state_next = ST_E;
    blk_next = EBLOCK_T;
    hdr_next = SYNC_CTRL;
    bad_next = 1'b1;

    case (state_reg)
        ST_C: begin
            if (ty_reg == TY_C) state_next = ST_C;
            else if (ty_reg == TY_S) state_next = ST_D;
        end
        ST_D: begin
            if (ty_reg == TY_D) state_next = ST_D;
            else if (ty_reg == TY_T) state_next = ST_C;
        end
        default: begin   // ST_E
            if (ty_reg == TY_C || ty_reg == TY_T) state_next = ST_C;
            else if (ty_reg == TY_D) state_next = ST_D;
        end
    endcase

    if (state_next != ST_E) begin
        blk_next = enc_reg;
        hdr_next = (ty_reg == TY_D) ? SYNC_DATA : SYNC_CTRL;
        bad_next = 1'b0;
    end
end

always @(posedge clk) begin
    state_reg <= state_next;
    blk_reg <= blk_next;
    hdr_reg <= hdr_next;
    bad_reg <= bad_next;

    if (rst) begin
        state_reg <= ST_C;
        blk_reg <= LBLOCK_T;
        hdr_reg <= SYNC_CTRL;
        bad_reg <= 1'b0;
    end
end

assign tx_bad_block = bad_reg;

/* ------------------------------------------------------------------------
 * Stage 4: scrambler, GT bit order
 * ------------------------------------------------------------------------ */

wire [63:0] scr_data;
wire [1:0]  scr_hdr;

froce_eth_pcs_scrambler u_scrambler (
    .clk      (clk),
    .in_data  (blk_reg),
    .in_hdr   (hdr_reg),
    .out_data (scr_data),
    .out_hdr  (scr_hdr)
);

genvar g;
generate
    if (BIT_REVERSE) begin : g_reverse
        for (g = 0; g < 64; g = g + 1) begin : g_bit
            assign serdes_tx_data[g] = scr_data[63-g];
        end
        assign serdes_tx_hdr = {scr_hdr[0], scr_hdr[1]};
    end else begin : g_straight
        assign serdes_tx_data = scr_data;
        assign serdes_tx_hdr = scr_hdr;
    end
endgenerate

endmodule

`resetall
