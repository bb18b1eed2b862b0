// SPDX-License-Identifier: MIT
// 1 Gb/s Ethernet receive MAC: GMII in, byte-wide AXI-Stream frames out (preamble and FCS stripped, FCS checked).

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * One byte per clock on the receive clock. A frame is the run of bytes with
 * gmii_rx_dv high after the SFD:
 *
 *   Field     Bytes   Notes
 *   preamble  0..7    0x55, optional and not counted
 *   SFD       1       0xD5; a byte other than 0x55/0xD5 before it makes the
 *                     burst junk (ignored up to rx_dv low)
 *   frame     N       delivered on m_axis
 *   FCS       4       checked, not delivered
 *
 * The output has no tready: the wire cannot wait. Bytes leave five bytes
 * behind the wire (a 4-byte window holds back the FCS, one more byte waits
 * for the end of the frame so it can carry tlast). m_axis_tuser = 1 on the
 * tlast byte marks a bad frame; the downstream frame FIFO drops it.
 *
 * Each frame is counted in exactly one counter, first match wins:
 *
 *   rx_oversize   more than MAX_FRAME + 4 bytes (FCS included). The
 *                 output frame is cut at MAX_FRAME bytes (tlast, tuser =
 *                 1 at that byte, as soon as byte MAX_FRAME + 5 arrives);
 *                 the rest of the burst is ignored.
 *   rx_runt       fewer than 64 bytes (FCS included). A burst of 4 or fewer
 *                 bytes after the SFD has no byte to deliver: it is counted
 *                 and nothing goes out.
 *   rx_err        gmii_rx_er high with gmii_rx_dv in any byte after the SFD
 *   rx_bad_fcs    the CRC over frame and FCS is not the CRC-32 residue
 *   rx_frames_ok  none of the above: tuser = 0
 *
 * rx_er during the preamble and rx_er with rx_dv low (carrier extension,
 * false carrier, RGMII in-band status) are ignored. After reset, bytes are
 * ignored until rx_dv has been low once, so a frame already running is not
 * picked up half way.
 *
 * The FCS check runs froce_crc32_step (byte width, one XOR tree per bit) over every byte
 * after the SFD, FCS included, from 0xFFFFFFFF; a correct frame leaves the
 * register at the residue 0xDEBB20E3.
 */
module froce_eth_mac_1g_rx #(
    parameter MAX_FRAME = 9600,         // longest frame accepted, bytes without FCS (jumbo: 9600)
    parameter COUNTER_WIDTH = 32        // width of the statistics counters (they wrap)
) (
    input  wire                     clk,
    input  wire                     rst,

    /* GMII input */
    input  wire [7:0]               gmii_rxd,
    input  wire                     gmii_rx_dv,
    input  wire                     gmii_rx_er,

    /* Frame output (byte stream, no backpressure) */
    output wire [7:0]               m_axis_tdata,
    output wire                     m_axis_tvalid,
    output wire                     m_axis_tlast,
    output wire                     m_axis_tuser,       // on the tlast byte: bad frame, drop it

    /* Statistics */
    output wire [COUNTER_WIDTH-1:0] rx_frames_ok,
    output wire [COUNTER_WIDTH-1:0] rx_bad_fcs,
    output wire [COUNTER_WIDTH-1:0] rx_err,
    output wire [COUNTER_WIDTH-1:0] rx_runt,
    output wire [COUNTER_WIDTH-1:0] rx_oversize
);

// shortest good frame, FCS included
localparam MIN_FRAME_LEN = 64;
// CRC register after a frame followed by its correct FCS
localparam [31:0] CRC_RESIDUE = 32'hDEBB20E3;
// bytes after the SFD that make a frame oversize
localparam OVERSIZE_LEN = MAX_FRAME + 5;
// width of the byte counter (counts up to OVERSIZE_LEN)
localparam LEN_WIDTH = $clog2(OVERSIZE_LEN + 1);

initial begin
    if (MAX_FRAME < MIN_FRAME_LEN - 4 || MAX_FRAME > 65535) begin
        $display("froce_eth_mac_1g_rx: MAX_FRAME must be 60..65535");
        $finish;
    end
end

localparam [1:0]
    STATE_WAIT_IDLE = 2'd0,     // ignore the burst until rx_dv goes low
    STATE_IDLE      = 2'd1,
    STATE_PREAMBLE  = 2'd2,
    STATE_DATA      = 2'd3;

reg [1:0]               state_reg = STATE_WAIT_IDLE, state_next;
reg [LEN_WIDTH-1:0]     len_reg = {LEN_WIDTH{1'b0}}, len_next;  // bytes after the SFD
reg [31:0]              crc_reg = 32'hFFFFFFFF, crc_next;
reg                     err_reg = 1'b0, err_next;               // rx_er seen in this frame
reg [31:0]              win_reg = 32'd0, win_next;              // last 4 bytes, oldest in [7:0]
reg [2:0]               win_cnt_reg = 3'd0, win_cnt_next;       // bytes in win_reg, 0..4
reg [7:0]               pend_reg = 8'd0, pend_next;             // the byte before the window
reg                     pend_valid_reg = 1'b0, pend_valid_next;

reg [7:0]               m_axis_tdata_reg = 8'd0, m_axis_tdata_next;
reg                     m_axis_tvalid_reg = 1'b0, m_axis_tvalid_next;
reg                     m_axis_tlast_reg = 1'b0, m_axis_tlast_next;
reg                     m_axis_tuser_reg = 1'b0, m_axis_tuser_next;

reg [COUNTER_WIDTH-1:0] rx_frames_ok_reg = {COUNTER_WIDTH{1'b0}};
reg [COUNTER_WIDTH-1:0] rx_bad_fcs_reg = {COUNTER_WIDTH{1'b0}};
reg [COUNTER_WIDTH-1:0] rx_err_reg = {COUNTER_WIDTH{1'b0}};
reg [COUNTER_WIDTH-1:0] rx_runt_reg = {COUNTER_WIDTH{1'b0}};
reg [COUNTER_WIDTH-1:0] rx_oversize_reg = {COUNTER_WIDTH{1'b0}};
reg                     inc_ok, inc_bad_fcs, inc_err, inc_runt, inc_oversize;

wire [31:0]             crc_step;

assign m_axis_tdata = m_axis_tdata_reg;
assign m_axis_tvalid = m_axis_tvalid_reg;
assign m_axis_tlast = m_axis_tlast_reg;
assign m_axis_tuser = m_axis_tuser_reg;
assign rx_frames_ok = rx_frames_ok_reg;
assign rx_bad_fcs = rx_bad_fcs_reg;
assign rx_err = rx_err_reg;
assign rx_runt = rx_runt_reg;
assign rx_oversize = rx_oversize_reg;

froce_crc32_step #(
    .DATA_WIDTH(8)
) u_crc (
    .crc_in(crc_reg),
    .data(gmii_rxd),
    .len(1'b1),
    .crc_out(crc_step)
);

wire [LEN_WIDTH-1:0] len_inc = len_reg + 1'b1;
wire is_runt = len_reg < MIN_FRAME_LEN[LEN_WIDTH-1:0];
wire fcs_bad = crc_reg != CRC_RESIDUE;

always @* begin
    state_next = state_reg;
    len_next = len_reg;
    crc_next = crc_reg;
    err_next = err_reg;
    win_next = win_reg;
    win_cnt_next = win_cnt_reg;
    pend_next = pend_reg;
    pend_valid_next = pend_valid_reg;

    m_axis_tdata_next = pend_reg;
    m_axis_tvalid_next = 1'b0;
    m_axis_tlast_next = 1'b0;
    m_axis_tuser_next = 1'b0;

    inc_ok = 1'b0;
    inc_bad_fcs = 1'b0;
    inc_err = 1'b0;
    inc_runt = 1'b0;
    inc_oversize = 1'b0;

    case (state_reg)
        STATE_WAIT_IDLE: begin
            if (!gmii_rx_dv) begin
                state_next = STATE_IDLE;
            end
        end
        STATE_IDLE, STATE_PREAMBLE: begin
            // a new frame starts with an empty window
            len_next = {LEN_WIDTH{1'b0}};
            crc_next = 32'hFFFFFFFF;
            err_next = 1'b0;
            win_cnt_next = 3'd0;
            pend_valid_next = 1'b0;
            if (!gmii_rx_dv) begin
                state_next = STATE_IDLE;
            end else if (gmii_rxd == 8'hD5) begin
                state_next = STATE_DATA;
            end else if (gmii_rxd == 8'h55) begin
                state_next = STATE_PREAMBLE;
            end else begin
                state_next = STATE_WAIT_IDLE;
            end
        end
        STATE_DATA: begin
            if (gmii_rx_dv) begin
                crc_next = crc_step;
                err_next = err_reg || gmii_rx_er;
                len_next = len_inc;
                if (len_inc == OVERSIZE_LEN[LEN_WIDTH-1:0]) begin
                    // byte MAX_FRAME + 5: the pending byte is number
                    // MAX_FRAME; end the output frame there
                    m_axis_tvalid_next = pend_valid_reg;
                    m_axis_tlast_next = 1'b1;
                    m_axis_tuser_next = 1'b1;
                    inc_oversize = 1'b1;
                    state_next = STATE_WAIT_IDLE;
                end else begin
                    win_next = {gmii_rxd, win_reg[31:8]};
                    if (win_cnt_reg == 3'd4) begin
                        // the oldest byte leaves the window; the byte that
                        // was pending is now known not to be the last
                        m_axis_tvalid_next = pend_valid_reg;
                        pend_next = win_reg[7:0];
                        pend_valid_next = 1'b1;
                    end else begin
                        win_cnt_next = win_cnt_reg + 3'd1;
                    end
                end
            end else begin
                // end of the burst: the window holds the FCS
                m_axis_tvalid_next = pend_valid_reg;
                m_axis_tlast_next = 1'b1;
                m_axis_tuser_next = is_runt || err_reg || fcs_bad;
                inc_runt = is_runt;
                inc_err = !is_runt && err_reg;
                inc_bad_fcs = !is_runt && !err_reg && fcs_bad;
                inc_ok = !is_runt && !err_reg && !fcs_bad;
                state_next = STATE_IDLE;
            end
        end
        default: begin
            state_next = STATE_WAIT_IDLE;
        end
    endcase
end

always @(posedge clk) begin
    state_reg <= state_next;
    len_reg <= len_next;
    crc_reg <= crc_next;
    err_reg <= err_next;
    win_reg <= win_next;
    win_cnt_reg <= win_cnt_next;
    pend_reg <= pend_next;
    pend_valid_reg <= pend_valid_next;

    m_axis_tdata_reg <= m_axis_tdata_next;
    m_axis_tvalid_reg <= m_axis_tvalid_next;
    m_axis_tlast_reg <= m_axis_tlast_next;
    m_axis_tuser_reg <= m_axis_tuser_next;

    if (inc_ok)
        rx_frames_ok_reg <= rx_frames_ok_reg + 1'b1;
    if (inc_bad_fcs)
        rx_bad_fcs_reg <= rx_bad_fcs_reg + 1'b1;
    if (inc_err)
        rx_err_reg <= rx_err_reg + 1'b1;
    if (inc_runt)
        rx_runt_reg <= rx_runt_reg + 1'b1;
    if (inc_oversize)
        rx_oversize_reg <= rx_oversize_reg + 1'b1;

    if (rst) begin
        state_reg <= STATE_WAIT_IDLE;
        win_cnt_reg <= 3'd0;
        pend_valid_reg <= 1'b0;
        m_axis_tvalid_reg <= 1'b0;
        rx_frames_ok_reg <= {COUNTER_WIDTH{1'b0}};
        rx_bad_fcs_reg <= {COUNTER_WIDTH{1'b0}};
        rx_err_reg <= {COUNTER_WIDTH{1'b0}};
        rx_runt_reg <= {COUNTER_WIDTH{1'b0}};
        rx_oversize_reg <= {COUNTER_WIDTH{1'b0}};
    end
end

endmodule

`resetall
