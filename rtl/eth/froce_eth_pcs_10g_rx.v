// SPDX-License-Identifier: MIT
// 10GBASE-R PCS receive (IEEE 802.3 Clause 49): GT gearbox -> block lock, BER monitor, descrambler -> 64B/66B decoder -> XGMII.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * GT side: one 66-bit block per cycle (a GT gearbox without pause cycles,
 * e.g. the UltraScale+ asynchronous gearbox at line rate / 66 = 156.25 MHz),
 * and serdes_rx_bitslip, a one-cycle request to move the block boundary by
 * one bit (RXGEARBOXSLIP). Bit order as in froce_eth_pcs_10g_tx: after the
 * optional BIT_REVERSE, data[i] is the i-th payload bit on the line and
 * hdr[0] the first header bit (2'b10 data, 2'b01 control).
 *
 * XGMII side: xgmii_rxd/xgmii_rxc, lane 0 first, one word per cycle.
 *
 * Pipeline, 5 cycles serdes_rx_* -> xgmii_rx*:
 *   A. input register; sync header to block lock and BER monitor
 *   B. descrambler (froce_eth_pcs_descrambler)
 *   C. R_TYPE and DECODE of each block, registered (nxt_*)
 *   D. one stage on (cur_*): the state machine sees rx_coded in cur_* and
 *      R_TYPE_NEXT in nxt_*, both registers
 *   E. receive state machine -> XGMII output register
 *
 * R_TYPE (49.2.13.2.3), control header:
 *   C  0x1E with eight valid control codes other than /E/; 0x2D or 0x4B
 *      with a valid O code and four valid control codes; 0x55 with two
 *      valid O codes
 *   S  0x33 with four valid control codes; 0x66 with a valid O code; 0x78
 *   T  0x87..0xFF with all control codes valid (/E/ allowed)
 * data header: D. Anything else, an invalid header included: E.
 * Valid control codes: 0x00 /I/, 0x06 /LI/, 0x1E /E/, 0x2D 0x33 0x4B 0x55
 * 0x66 0x78 (reserved); valid O codes: 0x0 (/Q/), 0xF (/Fsig/). Unused bits
 * of a block are ignored.
 *
 * Receive state machine (Figure 49-15); RX_INIT, RX_C and RX_T behave alike
 * and share ST_C:
 *
 *   ST_C: C -> ST_C, S -> ST_D, else EBLOCK_R and ST_E
 *   ST_D: D -> ST_D, T with R_TYPE_NEXT in {S, C} -> ST_C, else EBLOCK_R, ST_E
 *   ST_E: C -> ST_C, D -> ST_D, T with next in {S, C} -> ST_C,
 *         else (E, S, T before D/T/E) EBLOCK_R and ST_E
 *
 * EBLOCK_R is /E/ in all eight lanes. Without block lock, or with hi_ber,
 * the output is LBLOCK_R (local fault, /Q/ 00 00 01 in lanes 0 and 4) and
 * the state machine waits in ST_C (RX_INIT): nothing from the lane passes.
 * rx_block_lock, rx_hi_ber and rx_link_up are registered with the XGMII
 * word: in every cycle with rx_link_up low, xgmii_rx* is LBLOCK_R.
 *
 * Counters (COUNT_WIDTH bits, free-running, wrap; take differences):
 *   rx_sync_errors   invalid sync headers seen while block_lock (those
 *                    while hunting for lock are expected and not counted)
 *   rx_block_errors  blocks replaced by EBLOCK_R while the link is up
 *                    (each cycle the state machine enters RX_E)
 *   rx_lock_losses   block_lock falling
 */
module froce_eth_pcs_10g_rx #(
    parameter BIT_REVERSE = 0,             // 1: GT delivers the first line bit in serdes_rx_data[63]
    parameter SLIP_WAIT = 16,              // cycles headers are ignored after a slip: GT slip latency + 1
    parameter BER_TIMER_CYCLES = 19532,    // BER window: 125 us at 156.25 MHz, rounded up
    parameter COUNT_WIDTH = 32             // width of the error counters
) (
    input  wire                   clk,
    input  wire                   rst,

    /* GT with 64B/66B gearbox */
    input  wire [63:0]            serdes_rx_data,
    input  wire [1:0]             serdes_rx_hdr,
    output wire                   serdes_rx_bitslip,   // one-cycle pulse: slip the block boundary by one bit

    /* XGMII to the MAC */
    output wire [63:0]            xgmii_rxd,
    output wire [7:0]             xgmii_rxc,

    /* Status */
    output wire                   rx_block_lock,
    output wire                   rx_hi_ber,
    output wire                   rx_link_up,          // block_lock && !hi_ber
    output wire [COUNT_WIDTH-1:0] rx_sync_errors,
    output wire [COUNT_WIDTH-1:0] rx_block_errors,
    output wire [COUNT_WIDTH-1:0] rx_lock_losses
);

localparam [1:0] SYNC_DATA = 2'b10;
localparam [1:0] SYNC_CTRL = 2'b01;

localparam [1:0] ST_C = 2'd0;          // RX_INIT, RX_C, RX_T
localparam [1:0] ST_D = 2'd1;
localparam [1:0] ST_E = 2'd2;

localparam [2:0] TY_C = 3'd0, TY_S = 3'd1, TY_T = 3'd2, TY_D = 3'd3, TY_E = 3'd4;

localparam [63:0] LBLOCK_RXD = 64'h0100_009c_0100_009c;
localparam [7:0]  LBLOCK_RXC = 8'h11;
localparam [63:0] EBLOCK_RXD = {8{8'hfe}};
localparam [7:0]  EBLOCK_RXC = 8'hff;

/* ------------------------------------------------------------------------
 * A: input register (GT bit order undone here)
 * ------------------------------------------------------------------------ */

wire [63:0] rx_data_line;
wire [1:0]  rx_hdr_line;

genvar g;
generate
    if (BIT_REVERSE) begin : g_reverse
        for (g = 0; g < 64; g = g + 1) begin : g_bit
            assign rx_data_line[g] = serdes_rx_data[63-g];
        end
        assign rx_hdr_line = {serdes_rx_hdr[0], serdes_rx_hdr[1]};
    end else begin : g_straight
        assign rx_data_line = serdes_rx_data;
        assign rx_hdr_line = serdes_rx_hdr;
    end
endgenerate

reg [63:0] a_data_reg = 64'd0;
reg [1:0]  a_hdr_reg = 2'b00;

always @(posedge clk) begin
    a_data_reg <= rx_data_line;
    a_hdr_reg <= rx_hdr_line;
end

wire sh_valid = a_hdr_reg[0] ^ a_hdr_reg[1];

wire block_lock;
wire block_lock_next;
wire hi_ber;
wire lock_lost;

froce_eth_pcs_block_lock #(
    .SLIP_WAIT (SLIP_WAIT)
) u_block_lock (
    .clk             (clk),
    .rst             (rst),
    .sh_valid        (sh_valid),
    .block_lock      (block_lock),
    .block_lock_next (block_lock_next),
    .slip            (serdes_rx_bitslip),
    .lock_lost       (lock_lost)
);

froce_eth_pcs_ber_monitor #(
    .TIMER_CYCLES (BER_TIMER_CYCLES)
) u_ber_monitor (
    .clk        (clk),
    .rst        (rst),
    .block_lock (block_lock_next),
    .sh_valid   (sh_valid),
    .hi_ber     (hi_ber)
);

wire link_ok = block_lock && !hi_ber;

/* ------------------------------------------------------------------------
 * B: descrambler
 * ------------------------------------------------------------------------ */

wire [63:0] b_data;
wire [1:0]  b_hdr;

froce_eth_pcs_descrambler u_descrambler (
    .clk      (clk),
    .in_data  (a_data_reg),
    .in_hdr   (a_hdr_reg),
    .out_data (b_data),
    .out_hdr  (b_hdr)
);

/* ------------------------------------------------------------------------
 * C: R_TYPE and DECODE
 * ------------------------------------------------------------------------ */

reg [7:0]  code_ok;                    // valid control code
reg [7:0]  code_ne;                    // valid and not /E/
reg [63:0] code_x;                     // XGMII char of lane i's code
integer i;

always @* begin
    for (i = 0; i < 8; i = i + 1) begin
        code_ok[i] = 1'b1;
        code_ne[i] = 1'b1;
        case (b_data[8+7*i +: 7])
            7'h00:   code_x[8*i +: 8] = 8'h07;
            7'h06:   code_x[8*i +: 8] = 8'h06;
            7'h1e: begin
                code_x[8*i +: 8] = 8'hfe;
                code_ne[i] = 1'b0;
            end
            7'h2d:   code_x[8*i +: 8] = 8'h1c;
            7'h33:   code_x[8*i +: 8] = 8'h3c;
            7'h4b:   code_x[8*i +: 8] = 8'h7c;
            7'h55:   code_x[8*i +: 8] = 8'hbc;
            7'h66:   code_x[8*i +: 8] = 8'hdc;
            7'h78:   code_x[8*i +: 8] = 8'hf7;
            default: begin
                code_x[8*i +: 8] = 8'hfe;
                code_ok[i] = 1'b0;
                code_ne[i] = 1'b0;
            end
        endcase
    end
end

wire [3:0] o0 = b_data[35:32];
wire [3:0] o4 = b_data[39:36];
wire o0_ok = o0 == 4'h0 || o0 == 4'hf;
wire o4_ok = o4 == 4'h0 || o4 == 4'hf;
wire [7:0] o0_x = (o0 == 4'hf) ? 8'h5c : 8'h9c;
wire [7:0] o4_x = (o4 == 4'hf) ? 8'h5c : 8'h9c;

wire [63:0] d = b_data;
wire [63:0] x = code_x;

reg [2:0]  c_ty;                       // R_TYPE
reg [63:0] c_rxd;                      // DECODE
reg [7:0]  c_rxc;

always @* begin
    c_ty = TY_E;
    c_rxd = EBLOCK_RXD;
    c_rxc = EBLOCK_RXC;
    if (b_hdr == SYNC_DATA) begin
        c_ty = TY_D;
        c_rxd = d;
        c_rxc = 8'h00;
    end else if (b_hdr == SYNC_CTRL) begin
        case (d[7:0])
            8'h1e: begin
                if (&code_ne) c_ty = TY_C;
                c_rxd = x;
                c_rxc = 8'hff;
            end
            8'h2d: begin
                if (&code_ok[3:0] && o4_ok) c_ty = TY_C;
                c_rxd = {d[63:40], o4_x, x[31:0]};
                c_rxc = 8'h1f;
            end
            8'h4b: begin
                if (o0_ok && &code_ok[7:4]) c_ty = TY_C;
                c_rxd = {x[63:32], d[31:8], o0_x};
                c_rxc = 8'hf1;
            end
            8'h55: begin
                if (o0_ok && o4_ok) c_ty = TY_C;
                c_rxd = {d[63:40], o4_x, d[31:8], o0_x};
                c_rxc = 8'h11;
            end
            8'h33: begin
                if (&code_ok[3:0]) c_ty = TY_S;
                c_rxd = {d[63:40], 8'hfb, x[31:0]};
                c_rxc = 8'h1f;
            end
            8'h66: begin
                if (o0_ok) c_ty = TY_S;
                c_rxd = {d[63:40], 8'hfb, d[31:8], o0_x};
                c_rxc = 8'h11;
            end
            8'h78: begin
                c_ty = TY_S;
                c_rxd = {d[63:8], 8'hfb};
                c_rxc = 8'h01;
            end
            // terminate in lane n: data of lanes 0..n-1 from bytes 1..n
            8'h87: begin
                if (&code_ok[7:1]) c_ty = TY_T;
                c_rxd = {x[63:8], 8'hfd};
                c_rxc = 8'hff;
            end
            8'h99: begin
                if (&code_ok[7:2]) c_ty = TY_T;
                c_rxd = {x[63:16], 8'hfd, d[15:8]};
                c_rxc = 8'hfe;
            end
            8'haa: begin
                if (&code_ok[7:3]) c_ty = TY_T;
                c_rxd = {x[63:24], 8'hfd, d[23:8]};
                c_rxc = 8'hfc;
            end
            8'hb4: begin
                if (&code_ok[7:4]) c_ty = TY_T;
                c_rxd = {x[63:32], 8'hfd, d[31:8]};
                c_rxc = 8'hf8;
            end
            8'hcc: begin
                if (&code_ok[7:5]) c_ty = TY_T;
                c_rxd = {x[63:40], 8'hfd, d[39:8]};
                c_rxc = 8'hf0;
            end
            8'hd2: begin
                if (&code_ok[7:6]) c_ty = TY_T;
                c_rxd = {x[63:48], 8'hfd, d[47:8]};
                c_rxc = 8'he0;
            end
            8'he1: begin
                if (code_ok[7]) c_ty = TY_T;
                c_rxd = {x[63:56], 8'hfd, d[55:8]};
                c_rxc = 8'hc0;
            end
            8'hff: begin
                c_ty = TY_T;
                c_rxd = {8'hfd, d[63:8]};
                c_rxc = 8'h80;
            end
            default: ;
        endcase
    end
end

reg [2:0]  nxt_ty_reg = TY_C;
reg [63:0] nxt_rxd_reg = 64'd0;
reg [7:0]  nxt_rxc_reg = 8'd0;

/* ------------------------------------------------------------------------
 * D: the current block, with the next one in nxt_* beside it
 * ------------------------------------------------------------------------ */

reg [2:0]  cur_ty_reg = TY_C;
reg [63:0] cur_rxd_reg = 64'd0;
reg [7:0]  cur_rxc_reg = 8'd0;

always @(posedge clk) begin
    nxt_ty_reg <= c_ty;
    nxt_rxd_reg <= c_rxd;
    nxt_rxc_reg <= c_rxc;
    cur_ty_reg <= nxt_ty_reg;
    cur_rxd_reg <= nxt_rxd_reg;
    cur_rxc_reg <= nxt_rxc_reg;

    if (rst) begin
        nxt_ty_reg <= TY_C;
        cur_ty_reg <= TY_C;
    end
end

/* ------------------------------------------------------------------------
 * E: receive state machine (cur_* is rx_coded, nxt_ty_reg R_TYPE_NEXT)
 * ------------------------------------------------------------------------ */

wire next_sc = nxt_ty_reg == TY_S || nxt_ty_reg == TY_C;

reg [1:0]  state_reg = ST_C, state_next;
reg [63:0] rxd_reg = LBLOCK_RXD, rxd_next;
reg [7:0]  rxc_reg = LBLOCK_RXC, rxc_next;
reg        blk_err;
// status outputs registered with the XGMII word they describe
reg        lock_out_reg = 1'b0;
reg        hi_ber_out_reg = 1'b0;

always @* begin
    state_next = ST_E;
    case (state_reg)
        ST_C: begin
            if (cur_ty_reg == TY_C) state_next = ST_C;
            else if (cur_ty_reg == TY_S) state_next = ST_D;
        end
        ST_D: begin
            if (cur_ty_reg == TY_D) state_next = ST_D;
            else if (cur_ty_reg == TY_T && next_sc) state_next = ST_C;
        end
        default: begin   // ST_E
            if (cur_ty_reg == TY_C) state_next = ST_C;
            else if (cur_ty_reg == TY_D) state_next = ST_D;
            else if (cur_ty_reg == TY_T && next_sc) state_next = ST_C;
        end
    endcase

    blk_err = 1'b0;
    if (!link_ok) begin
        state_next = ST_C;
        rxd_next = LBLOCK_RXD;
        rxc_next = LBLOCK_RXC;
    end else if (state_next == ST_E) begin
        rxd_next = EBLOCK_RXD;
        rxc_next = EBLOCK_RXC;
        blk_err = 1'b1;
    end else begin
        rxd_next = cur_rxd_reg;
        rxc_next = cur_rxc_reg;
    end
end

always @(posedge clk) begin
    state_reg <= state_next;
    rxd_reg <= rxd_next;
    rxc_reg <= rxc_next;
    lock_out_reg <= block_lock;
    hi_ber_out_reg <= hi_ber;

    if (rst) begin
        state_reg <= ST_C;
        rxd_reg <= LBLOCK_RXD;
        rxc_reg <= LBLOCK_RXC;
        lock_out_reg <= 1'b0;
        hi_ber_out_reg <= 1'b0;
    end
end

assign xgmii_rxd = rxd_reg;
assign xgmii_rxc = rxc_reg;

/* ------------------------------------------------------------------------
 * Status and counters
 * ------------------------------------------------------------------------ */

reg [COUNT_WIDTH-1:0] sync_err_reg = {COUNT_WIDTH{1'b0}};
reg [COUNT_WIDTH-1:0] blk_err_reg = {COUNT_WIDTH{1'b0}};
reg [COUNT_WIDTH-1:0] lock_loss_reg = {COUNT_WIDTH{1'b0}};

always @(posedge clk) begin
    if (block_lock && !sh_valid)
        sync_err_reg <= sync_err_reg + 1'b1;
    if (blk_err)
        blk_err_reg <= blk_err_reg + 1'b1;
    if (lock_lost)
        lock_loss_reg <= lock_loss_reg + 1'b1;

    if (rst) begin
        sync_err_reg <= {COUNT_WIDTH{1'b0}};
        blk_err_reg <= {COUNT_WIDTH{1'b0}};
        lock_loss_reg <= {COUNT_WIDTH{1'b0}};
    end
end

assign rx_block_lock = lock_out_reg;
assign rx_hi_ber = hi_ber_out_reg;
assign rx_link_up = lock_out_reg && !hi_ber_out_reg;
assign rx_sync_errors = sync_err_reg;
assign rx_block_errors = blk_err_reg;
assign rx_lock_losses = lock_loss_reg;

endmodule

`resetall
