// SPDX-License-Identifier: MIT
// Device reset sequencer (BAR0 DEV_CTRL.RESET): waits for a frame boundary on the wire, resets the engines and the firmware while the host ports finish what they started, then lets the firmware boot again.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * req (a DEV_CTRL write with RESET = 1) starts the sequence; a req while one
 * runs is ignored (busy is high from req to the end):
 *   1. WAIT_TX: no new frame starts on the Ethernet transmit port
 *      (tx_gate = 1); the frame being sent, if any, finishes normally, so
 *      the wire never carries a truncated frame.
 *   2. HOLD: dev_rst = 1 resets every engine, the firmware subsystem and the
 *      MR table (which clears itself); the host ports complete what they
 *      started (froce_axi_quiesce, froce_axil_wr_guard); received frames
 *      are dropped, and one that was half-way through at the start of HOLD
 *      is dropped to its end (rx_drop). HOLD lasts HOLD_CYCLES and until
 *      the DMA port is idle (dma_busy = 0).
 *   3. Back to RUN: the firmware starts from its reset vector, clears every
 *      context and sets DEV_STATUS.READY (busy = 0 here; the core reads
 *      READY as the firmware's flag and !busy).
 * rx_in_frame/tx_in_frame: a frame is half-way on the receive/transmit port
 * (a beat without TLAST was taken, its TLAST not yet), kept here from the
 * ports' handshakes.
 */
module froce_dev_reset #(
    parameter HOLD_CYCLES = 32          // minimum reset length, >= 2
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         req,
    output wire         busy,
    output reg          dev_rst,

    /* host DMA port */
    input  wire         dma_busy,

    /* Ethernet transmit port: handshakes and the gate that stops new frames */
    input  wire         tx_fire,
    input  wire         tx_last,
    output wire         tx_gate,

    /* Ethernet receive port: handshakes and the drop of frames that must not
     * reach the (resetting or restarted) engines */
    input  wire         rx_fire,
    input  wire         rx_last,
    output wire         rx_drop
);

localparam [1:0] RUN = 2'd0, WAIT_TX = 2'd1, HOLD = 2'd2;
localparam HW = $clog2(HOLD_CYCLES + 1);

reg [1:0] state;
reg [HW-1:0] hold_cnt;
reg tx_in_frame, rx_in_frame, rx_drop_tail;

assign busy = state != RUN;
assign tx_gate = state != RUN && !tx_in_frame;
// from HOLD on, and after it to the end of a frame that was half-way through
assign rx_drop = dev_rst || (rx_drop_tail && rx_in_frame);

always @(posedge clk) begin
    if (tx_fire)
        tx_in_frame <= !tx_last;
    if (rx_fire)
        rx_in_frame <= !rx_last;
    if (dev_rst)
        rx_drop_tail <= 1'b1;
    else if (!rx_in_frame)
        rx_drop_tail <= 1'b0;
    case (state)
    RUN:
        if (req)
            state <= WAIT_TX;
    WAIT_TX:
        // tx_gate holds back a new frame's first beat; wait out the current one
        if (!tx_in_frame || (tx_fire && tx_last)) begin
            state <= HOLD;
            dev_rst <= 1'b1;
            hold_cnt <= HOLD_CYCLES[HW-1:0];
        end
    default: begin  // HOLD
        if (hold_cnt != {HW{1'b0}})
            hold_cnt <= hold_cnt - 1'b1;
        else if (!dma_busy) begin
            state <= RUN;
            dev_rst <= 1'b0;
        end
    end
    endcase
    if (rst) begin
        state <= RUN;
        dev_rst <= 1'b0;
        hold_cnt <= {HW{1'b0}};
        tx_in_frame <= 1'b0;
        rx_in_frame <= 1'b0;
        rx_drop_tail <= 1'b0;
    end
end

endmodule

`resetall
