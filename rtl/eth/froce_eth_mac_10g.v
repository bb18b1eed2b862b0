// SPDX-License-Identifier: MIT
// 10 Gb/s Ethernet MAC, 64-bit XGMII: transmitter (optional store-and-forward TX FIFO) and receiver.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * See docs/ethernet-mac10g.md.
 *
 * TX: s_axis_* -> [froce_frame_fifo, TX_FIFO_BYTES > 0] -> froce_eth_mac_10g_tx
 *     -> xgmii_txd/txc. The transmitter needs a frame's beats back to back
 *     once it has started (the wire cannot wait; a gap aborts the frame,
 *     tx_underrun). With the FIFO a frame goes to the transmitter only when
 *     it is whole, so the source may pause anywhere; a frame with tuser = 1
 *     on any beat, a frame larger than the FIFO and a frame of zero bytes
 *     are then dropped before the wire (tx_fifo_dropped) and s_axis_tready
 *     waits while the FIFO is full. Without it (TX_FIFO_BYTES = 0) tuser
 *     ends the frame on the wire with /E/ (tx_aborted).
 *
 * RX: xgmii_rxd/rxc -> froce_eth_mac_10g_rx -> m_axis_* (no tready; put
 *     froce_eth_rx_fifo behind it to feed a consumer that can wait).
 *
 * TX and RX have their own clock and reset (both 156.25 MHz on XGMII; the
 * RX clock is the PHY's receive clock unless the PCS re-times it).
 */
module froce_eth_mac_10g #(
    parameter MAX_FRAME = 9600,         // longest frame in bytes without FCS, both directions (64..16000)
    parameter ENABLE_DIC = 1,           // TX: 1: deficit idle count (average gap 12, minimum 9); 0: every gap >= 12
    parameter TX_FIFO_BYTES = 16384     // TX store-and-forward FIFO: 0 (none) or a power of two 128..32768, > MAX_FRAME
) (
    input  wire         tx_clk,
    input  wire         tx_rst,
    input  wire         rx_clk,
    input  wire         rx_rst,

    /* TX frames in (no preamble, no FCS) */
    input  wire [63:0]  s_axis_tdata,
    input  wire [7:0]   s_axis_tkeep,
    input  wire         s_axis_tvalid,
    output wire         s_axis_tready,
    input  wire         s_axis_tlast,
    input  wire         s_axis_tuser,       // 1 on any beat: abort this frame

    /* XGMII */
    output wire [63:0]  xgmii_txd,
    output wire [7:0]   xgmii_txc,
    input  wire [63:0]  xgmii_rxd,
    input  wire [7:0]   xgmii_rxc,

    /* RX frames out (no preamble, no FCS; no backpressure) */
    output wire [63:0]  m_axis_tdata,
    output wire [7:0]   m_axis_tkeep,
    output wire         m_axis_tvalid,
    output wire         m_axis_tlast,
    output wire         m_axis_tuser,       // on the tlast beat: bad frame

    /* TX counters (tx_clk) */
    output wire [31:0]  tx_frames,
    output wire [63:0]  tx_bytes,
    output wire [31:0]  tx_aborted,
    output wire [31:0]  tx_oversize,
    output wire [31:0]  tx_underrun,
    output wire [31:0]  tx_fifo_dropped,

    /* RX counters (rx_clk) */
    output wire [31:0]  rx_frames_ok,
    output wire [63:0]  rx_bytes_ok,
    output wire [31:0]  rx_bad_fcs,
    output wire [31:0]  rx_err_char,
    output wire [31:0]  rx_runt,
    output wire [31:0]  rx_oversize,
    output wire [31:0]  rx_bad_preamble
);

localparam TX_FIFO_OK = TX_FIFO_BYTES == 0 ||
                        (TX_FIFO_BYTES >= 128 && TX_FIFO_BYTES <= 32768 &&
                         (TX_FIFO_BYTES & (TX_FIFO_BYTES - 1)) == 0 && TX_FIFO_BYTES > MAX_FRAME);

initial begin
    if (!TX_FIFO_OK) begin
        $display("froce_eth_mac_10g: TX_FIFO_BYTES must be 0 or a power of two 128..32768 above MAX_FRAME");
        $finish;
    end
end

/* ------------------------------------------------------------------------
 * TX
 * ------------------------------------------------------------------------ */

wire [63:0] mac_tdata;
wire [7:0] mac_tkeep;
wire mac_tvalid, mac_tready, mac_tlast, mac_tuser;

generate
    if (!TX_FIFO_OK) begin : g_bad_parameter
        froce_eth_mac_10g_bad_TX_FIFO_BYTES u_bad_parameter ();
    end else if (TX_FIFO_BYTES > 0) begin : g_tx_fifo
        // tuser on any beat of a frame drops it (froce_frame_fifo looks at tlast)
        reg abort_reg = 1'b0;
        reg [31:0] dropped_reg = 32'd0;
        wire [15:0] unused_len;
        wire unused_len_valid, unused_commit, stat_drop;
        wire unused = ^{unused_len, unused_len_valid, unused_commit};

        always @(posedge tx_clk) begin
            if (s_axis_tvalid && s_axis_tready)
                abort_reg <= (abort_reg || s_axis_tuser) && !s_axis_tlast;
            if (stat_drop)
                dropped_reg <= dropped_reg + 32'd1;
            if (tx_rst) begin
                abort_reg <= 1'b0;
                dropped_reg <= 32'd0;
            end
        end

        froce_frame_fifo #(
            .DATA_WIDTH(64),
            .DEPTH(TX_FIFO_BYTES / 8),
            .FRAMES(TX_FIFO_BYTES / 64),
            .DROP_FULL(0)
        ) u_tx_fifo (
            .clk(tx_clk),
            .rst(tx_rst),
            .s_axis_tdata(s_axis_tdata),
            .s_axis_tkeep(s_axis_tkeep),
            .s_axis_tvalid(s_axis_tvalid),
            .s_axis_tready(s_axis_tready),
            .s_axis_tlast(s_axis_tlast),
            .s_axis_tdrop(abort_reg || s_axis_tuser),
            .m_axis_tdata(mac_tdata),
            .m_axis_tkeep(mac_tkeep),
            .m_axis_tvalid(mac_tvalid),
            .m_axis_tready(mac_tready),
            .m_axis_tlast(mac_tlast),
            .m_len(unused_len),
            .m_len_valid(unused_len_valid),
            .stat_commit(unused_commit),
            .stat_drop(stat_drop)
        );

        assign mac_tuser = 1'b0;
        assign tx_fifo_dropped = dropped_reg;
    end else begin : g_no_tx_fifo
        assign mac_tdata = s_axis_tdata;
        assign mac_tkeep = s_axis_tkeep;
        assign mac_tvalid = s_axis_tvalid;
        assign s_axis_tready = mac_tready;
        assign mac_tlast = s_axis_tlast;
        assign mac_tuser = s_axis_tuser;
        assign tx_fifo_dropped = 32'd0;
    end
endgenerate

froce_eth_mac_10g_tx #(
    .MAX_FRAME(MAX_FRAME),
    .ENABLE_DIC(ENABLE_DIC)
) u_tx (
    .clk(tx_clk),
    .rst(tx_rst),
    .s_axis_tdata(mac_tdata),
    .s_axis_tkeep(mac_tkeep),
    .s_axis_tvalid(mac_tvalid),
    .s_axis_tready(mac_tready),
    .s_axis_tlast(mac_tlast),
    .s_axis_tuser(mac_tuser),
    .xgmii_txd(xgmii_txd),
    .xgmii_txc(xgmii_txc),
    .tx_frames(tx_frames),
    .tx_bytes(tx_bytes),
    .tx_aborted(tx_aborted),
    .tx_oversize(tx_oversize),
    .tx_underrun(tx_underrun)
);

/* ------------------------------------------------------------------------
 * RX
 * ------------------------------------------------------------------------ */

froce_eth_mac_10g_rx #(
    .MAX_FRAME(MAX_FRAME)
) u_rx (
    .clk(rx_clk),
    .rst(rx_rst),
    .xgmii_rxd(xgmii_rxd),
    .xgmii_rxc(xgmii_rxc),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tlast(m_axis_tlast),
    .m_axis_tuser(m_axis_tuser),
    .rx_frames_ok(rx_frames_ok),
    .rx_bytes_ok(rx_bytes_ok),
    .rx_bad_fcs(rx_bad_fcs),
    .rx_err_char(rx_err_char),
    .rx_runt(rx_runt),
    .rx_oversize(rx_oversize),
    .rx_bad_preamble(rx_bad_preamble)
);

endmodule

`resetall
