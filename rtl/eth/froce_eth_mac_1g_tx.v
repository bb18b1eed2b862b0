// SPDX-License-Identifier: MIT
// 1 Gb/s Ethernet transmit MAC: byte-wide AXI-Stream frames in, GMII out (preamble, padding, FCS, IFG).

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One byte per clock (125 MHz GMII byte clock for 1000 Mb/s). Input frames
 * carry destination MAC .. payload, without preamble and FCS.
 *
 * On the wire, per frame (gmii_tx_en high throughout):
 *
 *   Field     Bytes     Notes
 *   preamble  7         0x55
 *   SFD       1         0xD5
 *   frame     N         the input bytes
 *   pad       max(0, MIN_FRAME_LEN - 4 - N)   0x00
 *   FCS       4         CRC-32 of frame and pad, least significant byte first
 *
 * then gmii_tx_en low for at least IFG byte times.
 *
 * Input rules: a frame starts when s_axis_tvalid is high in idle; the first
 * byte is taken after the preamble, then one byte per clock with
 * s_axis_tready held high until the tlast byte. The wire cannot wait, so:
 *   - abort: s_axis_tuser = 1 on the tlast byte. The frame is finished with
 *     gmii_tx_er high on all four FCS bytes, which carry the uninverted CRC
 *     (a bad FCS as well, for a receiver that ignores rx_er). Counted in
 *     tx_aborted.
 *   - underrun: s_axis_tvalid low while the frame is being sent. One byte
 *     with gmii_tx_er high ends the frame on the wire; the rest of the frame
 *     is taken (s_axis_tready high) and discarded up to its tlast byte.
 *     Counted in tx_underrun.
 *   s_axis_tuser is looked at on the tlast byte only.
 * Frames sent whole and not aborted are counted in tx_frames.
 *
 * The CRC is froce_crc32_step at its byte width (DATA_WIDTH 8: one XOR
 * tree per bit, three LUT levels); the register starts at 0xFFFFFFFF and the FCS is its
 * complement.
 *
 * Two register stages: the state machine writes the next wire byte into
 * stage A (byte_*), the GMII output registers are stage B. The CRC steps
 * over the stage A byte, so the CRC recurrence (the critical path) starts
 * at flip-flops only, not behind the input stream's byte mux. For an FCS
 * byte stage A only says which one; stage B takes it from the CRC register,
 * which by then includes the last frame byte.
 *
 * Throughput: back-to-back frames are separated by exactly IFG idle bytes
 * when the next frame is waiting.
 */
module froce_eth_mac_1g_tx #(
    parameter MIN_FRAME_LEN = 64,       // frames shorter than this (incl. FCS) are padded; 0 disables padding
    parameter IFG = 12,                 // idle byte times between frames, 12..255
    parameter COUNTER_WIDTH = 32        // width of the statistics counters (they wrap)
) (
    input  wire                     clk,
    input  wire                     rst,

    /* Frame input (byte stream) */
    input  wire [7:0]               s_axis_tdata,
    input  wire                     s_axis_tvalid,
    output wire                     s_axis_tready,
    input  wire                     s_axis_tlast,
    input  wire                     s_axis_tuser,       // on the tlast byte: abort the frame

    /* GMII output */
    output wire [7:0]               gmii_txd,
    output wire                     gmii_tx_en,
    output wire                     gmii_tx_er,

    /* Statistics */
    output wire [COUNTER_WIDTH-1:0] tx_frames,          // frames sent with a good FCS
    output wire [COUNTER_WIDTH-1:0] tx_aborted,         // frames ended with tx_er because of s_axis_tuser
    output wire [COUNTER_WIDTH-1:0] tx_underrun         // frames cut short by an input underrun
);

// bytes before the FCS below which padding is added
localparam MIN_DATA = (MIN_FRAME_LEN > 4) ? MIN_FRAME_LEN - 4 : 0;
// width of the saturating length counter (counts up to MIN_DATA)
localparam LEN_WIDTH = $clog2(MIN_DATA + 2);

initial begin
    if (IFG < 12 || IFG > 255) begin
        $display("froce_eth_mac_1g_tx: IFG must be 12..255");
        $finish;
    end
    if (MIN_FRAME_LEN < 0 || MIN_FRAME_LEN > 1024) begin
        $display("froce_eth_mac_1g_tx: MIN_FRAME_LEN must be 0..1024");
        $finish;
    end
end

localparam [2:0]
    STATE_IDLE     = 3'd0,
    STATE_PREAMBLE = 3'd1,
    STATE_DATA     = 3'd2,
    STATE_PAD      = 3'd3,
    STATE_FCS      = 3'd4,
    STATE_IFG      = 3'd5,
    STATE_DROP     = 3'd6;

reg [2:0]               state_reg = STATE_IDLE, state_next;
reg [7:0]               cnt_reg = 8'd0, cnt_next;           // preamble byte / FCS byte / idle byte
reg [LEN_WIDTH-1:0]     len_reg = {LEN_WIDTH{1'b0}}, len_next;  // frame bytes so far, saturating at MIN_DATA
reg [31:0]              crc_reg = 32'hFFFFFFFF;
reg                     abort_reg = 1'b0, abort_next;

// stage A: the next wire byte and what to do with it
reg [7:0]               byte_data_reg = 8'd0, byte_data_next;
reg                     byte_en_reg = 1'b0, byte_en_next;
reg                     byte_er_reg = 1'b0, byte_er_next;
reg                     byte_crc_init_reg = 1'b0, byte_crc_init_next;  // SFD: restart the CRC
reg                     byte_crc_reg = 1'b0, byte_crc_next;            // frame or pad byte: into the CRC
reg                     byte_fcs_reg = 1'b0, byte_fcs_next;            // FCS byte byte_fcs_idx_reg
reg [1:0]               byte_fcs_idx_reg = 2'd0, byte_fcs_idx_next;

// stage B: GMII
reg [7:0]               gmii_txd_reg = 8'd0;
reg                     gmii_tx_en_reg = 1'b0;
reg                     gmii_tx_er_reg = 1'b0;

reg [COUNTER_WIDTH-1:0] tx_frames_reg = {COUNTER_WIDTH{1'b0}};
reg [COUNTER_WIDTH-1:0] tx_aborted_reg = {COUNTER_WIDTH{1'b0}};
reg [COUNTER_WIDTH-1:0] tx_underrun_reg = {COUNTER_WIDTH{1'b0}};
reg                     inc_ok, inc_aborted, inc_underrun;

reg                     s_axis_tready_int;
wire [31:0]             crc_step;

assign s_axis_tready = s_axis_tready_int;
assign gmii_txd = gmii_txd_reg;
assign gmii_tx_en = gmii_tx_en_reg;
assign gmii_tx_er = gmii_tx_er_reg;
assign tx_frames = tx_frames_reg;
assign tx_aborted = tx_aborted_reg;
assign tx_underrun = tx_underrun_reg;

froce_crc32_step #(
    .DATA_WIDTH(8)
) u_crc (
    .crc_in(crc_reg),
    .data(byte_data_reg),
    .len(1'b1),
    .crc_out(crc_step)
);

// frame length after one more byte, saturating at MIN_DATA (only "reached MIN_DATA" matters)
wire [LEN_WIDTH-1:0] len_inc = (len_reg == MIN_DATA[LEN_WIDTH-1:0]) ? len_reg : len_reg + 1'b1;
wire                 len_inc_full = len_inc == MIN_DATA[LEN_WIDTH-1:0];

// FCS byte byte_fcs_idx_reg: the complemented CRC, or the CRC itself for an
// aborted frame (whose FCS bytes carry tx_er)
wire [31:0] fcs_word = byte_er_reg ? crc_reg : ~crc_reg;
reg  [7:0]  fcs_byte;

always @* begin
    case (byte_fcs_idx_reg)
        2'd0:    fcs_byte = fcs_word[7:0];
        2'd1:    fcs_byte = fcs_word[15:8];
        2'd2:    fcs_byte = fcs_word[23:16];
        default: fcs_byte = fcs_word[31:24];
    endcase
end

always @* begin
    state_next = state_reg;
    cnt_next = cnt_reg;
    len_next = len_reg;
    abort_next = abort_reg;

    byte_data_next = 8'd0;
    byte_en_next = 1'b0;
    byte_er_next = 1'b0;
    byte_crc_init_next = 1'b0;
    byte_crc_next = 1'b0;
    byte_fcs_next = 1'b0;
    byte_fcs_idx_next = cnt_reg[1:0];

    s_axis_tready_int = 1'b0;
    inc_ok = 1'b0;
    inc_aborted = 1'b0;
    inc_underrun = 1'b0;

    case (state_reg)
        STATE_IDLE: begin
            if (s_axis_tvalid) begin
                byte_data_next = 8'h55;
                byte_en_next = 1'b1;
                cnt_next = 8'd1;
                state_next = STATE_PREAMBLE;
            end
        end
        STATE_PREAMBLE: begin
            byte_en_next = 1'b1;
            if (cnt_reg == 8'd7) begin
                byte_data_next = 8'hD5;
                byte_crc_init_next = 1'b1;
                len_next = {LEN_WIDTH{1'b0}};
                abort_next = 1'b0;
                state_next = STATE_DATA;
            end else begin
                byte_data_next = 8'h55;
                cnt_next = cnt_reg + 8'd1;
            end
        end
        STATE_DATA: begin
            s_axis_tready_int = 1'b1;
            byte_en_next = 1'b1;
            if (s_axis_tvalid) begin
                byte_data_next = s_axis_tdata;
                byte_crc_next = 1'b1;
                len_next = len_inc;
                if (s_axis_tlast) begin
                    abort_next = s_axis_tuser;
                    cnt_next = 8'd0;
                    state_next = len_inc_full ? STATE_FCS : STATE_PAD;
                end
            end else begin
                // underrun: one error byte ends the frame on the wire
                byte_er_next = 1'b1;
                inc_underrun = 1'b1;
                state_next = STATE_DROP;
            end
        end
        STATE_PAD: begin
            byte_en_next = 1'b1;
            byte_crc_next = 1'b1;       // byte_data_next = 0
            len_next = len_inc;
            if (len_inc_full) begin
                cnt_next = 8'd0;
                state_next = STATE_FCS;
            end
        end
        STATE_FCS: begin
            byte_en_next = 1'b1;
            byte_er_next = abort_reg;
            byte_fcs_next = 1'b1;
            cnt_next = cnt_reg + 8'd1;
            if (cnt_reg[1:0] == 2'd3) begin
                inc_ok = !abort_reg;
                inc_aborted = abort_reg;
                cnt_next = 8'd0;
                state_next = STATE_IFG;
            end
        end
        STATE_IFG: begin
            cnt_next = cnt_reg + 8'd1;
            if (cnt_reg == IFG[7:0] - 8'd1) begin
                state_next = STATE_IDLE;
            end
        end
        STATE_DROP: begin
            // discard the rest of an underrun frame; the idle bytes
            // spent here do not count towards the IFG
            s_axis_tready_int = 1'b1;
            if (s_axis_tvalid && s_axis_tlast) begin
                cnt_next = 8'd0;
                state_next = STATE_IFG;
            end
        end
        default: begin
            state_next = STATE_IDLE;
        end
    endcase
end

always @(posedge clk) begin
    state_reg <= state_next;
    cnt_reg <= cnt_next;
    len_reg <= len_next;
    abort_reg <= abort_next;

    byte_data_reg <= byte_data_next;
    byte_en_reg <= byte_en_next;
    byte_er_reg <= byte_er_next;
    byte_crc_init_reg <= byte_crc_init_next;
    byte_crc_reg <= byte_crc_next;
    byte_fcs_reg <= byte_fcs_next;
    byte_fcs_idx_reg <= byte_fcs_idx_next;

    if (byte_crc_init_reg)
        crc_reg <= 32'hFFFFFFFF;
    else if (byte_crc_reg)
        crc_reg <= crc_step;

    gmii_txd_reg <= byte_fcs_reg ? fcs_byte : byte_data_reg;
    gmii_tx_en_reg <= byte_en_reg;
    gmii_tx_er_reg <= byte_er_reg;

    if (inc_ok)
        tx_frames_reg <= tx_frames_reg + 1'b1;
    if (inc_aborted)
        tx_aborted_reg <= tx_aborted_reg + 1'b1;
    if (inc_underrun)
        tx_underrun_reg <= tx_underrun_reg + 1'b1;

    if (rst) begin
        state_reg <= STATE_IDLE;
        cnt_reg <= 8'd0;
        byte_en_reg <= 1'b0;
        byte_er_reg <= 1'b0;
        byte_crc_init_reg <= 1'b0;
        byte_crc_reg <= 1'b0;
        byte_fcs_reg <= 1'b0;
        gmii_tx_en_reg <= 1'b0;
        gmii_tx_er_reg <= 1'b0;
        tx_frames_reg <= {COUNTER_WIDTH{1'b0}};
        tx_aborted_reg <= {COUNTER_WIDTH{1'b0}};
        tx_underrun_reg <= {COUNTER_WIDTH{1'b0}};
    end
end

endmodule

`resetall
