// SPDX-License-Identifier: MIT
// Bench of froce_mdio_link (the ECPIX-5 PHY link poller) against a clause-22 PHY model on a pulled-up MDIO line.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The PHY model decodes every frame on the line at MDC's rising edges (32
 * preamble ones, ST 01, OP, PHYAD, REGAD), checks it, and answers a read of
 * register 1 at its own address: turnaround 0, then BMSR, each bit driven
 * PHY_DELAY_NS after a rising edge (IEEE 802.3 22.3.4: 0..300 ns). A PHY
 * that is absent or at another address leaves the line to its pull-up, so
 * the poller reads all ones.
 *
 * Checked all along: no contention (the poller drives while the PHY does),
 * the poller changes MDIO at least 10 ns away from MDC's rising edges
 * (setup and hold), MDC no faster than 2.5 MHz, every frame a read of
 * register 1 at PHY_ADDR, one frame every POLL_CYCLES.
 *
 * Scenarios: link up, link down, up again, no PHY, PHY at another address,
 * reset in the middle of the PHY's answer (line released, link down, then
 * polling again; the PHY is reset with the poller, as fpga_core's phy_rst_n
 * does on the board). Prints "ok    NAME" / "FAIL  NAME" per check and finishes with
 * "DONE <failures>".
 */
module tb_mdio_link;

parameter PHY_DELAY_NS = 300;           // the PHY's clock-to-data delay

localparam CLK_NS = 10;                 // 100 MHz
localparam MDC_DIV = 25;                // MDC 2 MHz
localparam POLL_CYCLES = 5000;          // 50 us between reads
localparam [4:0] PHY_ADDR = 5'd3;
localparam POLL_NS = POLL_CYCLES * CLK_NS;

reg clk = 1'b0;
reg rst = 1'b1;
always #(CLK_NS / 2) clk = !clk;

wire mdc, mdio_o, mdio_t;
wire link_up, bmsr_valid;
wire [15:0] bmsr;

tri1 mdio;                              // the board's pull-up
assign mdio = mdio_t ? 1'bz : mdio_o;

froce_mdio_link #(
    .PHY_ADDR(PHY_ADDR),
    .MDC_DIV(MDC_DIV),
    .POLL_CYCLES(POLL_CYCLES)
) dut (
    .clk(clk),
    .rst(rst),
    .mdc(mdc),
    .mdio_i(mdio),
    .mdio_o(mdio_o),
    .mdio_t(mdio_t),
    .link_up(link_up),
    .bmsr_valid(bmsr_valid),
    .bmsr(bmsr)
);

integer failures = 0;
integer errors = 0;                     // protocol errors seen by the monitors

task check;
    input cond;
    input [8*64-1:0] name;
    begin
        if (cond) begin
            $display("ok    %0s", name);
        end else begin
            $display("FAIL  %0s (link_up %b bmsr_valid %b bmsr %h)", name, link_up, bmsr_valid, bmsr);
            failures = failures + 1;
        end
    end
endtask

/* ------------------------------------------------------------------------
 * PHY model
 * ------------------------------------------------------------------------ */

reg phy_present = 1'b1;
reg [4:0] phy_addr = PHY_ADDR;
reg [15:0] phy_bmsr = 16'h796D;         // link up (bit 2), autoneg done, 10/100/1000 abilities
reg phy_oe = 1'b0;
reg phy_out = 1'b1;
assign mdio = phy_oe ? phy_out : 1'bz;

integer ones = 0;                       // preamble ones counted
integer hbits = -1;                     // header bits taken after the preamble, -1: none yet
integer rd_bit = -1;                    // read phase: rising edges since the header
reg [13:0] hdr = 14'd0;                 // ST, OP, PHYAD, REGAD
reg [15:0] answer = 16'd0;
integer frames = 0;                     // frames decoded
integer answered = 0;                   // reads the PHY answered
time last_rise = 0;
time frame_start = 0;
time prev_frame_start = 0;
reg have_prev = 1'b0;                   // prev_frame_start is a frame of this run
reg resync = 1'b0;                      // reset: ignore MDC until it has been idle
reg sample;

// fpga_core holds the PHY in reset (phy_rst_n) whenever the poller is: the
// PHY lets go of the line and forgets the frame it was in
always @(posedge rst) begin
    resync = 1'b1;
    have_prev = 1'b0;
    phy_oe <= #(PHY_DELAY_NS + 1) 1'b0;     // after any bit still on its way out
end

always @(posedge mdc) begin
    sample = mdio;
    // MDC idle for a while: a new frame starts (a reset may cut one short)
    if ($time - last_rise > 2000) begin
        ones = 0;
        hbits = -1;
        rd_bit = -1;
        resync = 1'b0;
        phy_oe <= 1'b0;
        frame_start = $time;
    end else if ($time - last_rise < 400) begin
        $display("error: MDC period %0t ns < 400 ns (2.5 MHz)", $time - last_rise);
        errors = errors + 1;
    end
    last_rise = $time;

    if (resync) begin
        // the edges of the frame the reset cut short
    end else if (rd_bit >= 0) begin
        // rd_bit 0: the edge of TA1 (nobody drives); then TA2 = 0, D15..D0, release
        if (rd_bit == 0) begin
            phy_out <= #(PHY_DELAY_NS) 1'b0;
            phy_oe <= #(PHY_DELAY_NS) 1'b1;
        end else if (rd_bit <= 16) begin
            phy_out <= #(PHY_DELAY_NS) answer[16 - rd_bit];
        end else begin
            phy_oe <= #(PHY_DELAY_NS) 1'b0;
        end
        rd_bit = rd_bit == 17 ? -1 : rd_bit + 1;
    end else if (hbits >= 0) begin
        hdr = {hdr[12:0], sample};
        hbits = hbits + 1;
        if (hbits == 14) begin
            hbits = -1;
            ones = 0;
            frames = frames + 1;
            if (hdr[13:12] != 2'b01 || hdr[11:10] != 2'b10 || hdr[9:5] != PHY_ADDR || hdr[4:0] != 5'd1) begin
                $display("error: frame ST %b OP %b PHYAD %0d REGAD %0d, expected a read of register 1 at %0d",
                         hdr[13:12], hdr[11:10], hdr[9:5], hdr[4:0], PHY_ADDR);
                errors = errors + 1;
            end
            if (have_prev && (frame_start - prev_frame_start > POLL_NS + 2 * MDC_DIV * CLK_NS ||
                               frame_start - prev_frame_start + 2 * MDC_DIV * CLK_NS < POLL_NS)) begin
                $display("error: frames %0t ns apart, expected %0d", frame_start - prev_frame_start, POLL_NS);
                errors = errors + 1;
            end
            prev_frame_start = frame_start;
            have_prev = 1'b1;
            if (phy_present && hdr[11:10] == 2'b10 && hdr[9:5] == phy_addr && hdr[4:0] == 5'd1) begin
                answer = phy_bmsr;
                rd_bit = 0;
                answered = answered + 1;
            end
        end
    end else if (sample) begin
        ones = ones + 1;
    end else if (ones >= 32) begin
        hdr = 14'd0;                    // ST's first bit, 0
        hbits = 1;
    end else begin
        $display("error: a 0 after %0d preamble ones", ones);
        errors = errors + 1;
        ones = 0;
    end
end

/* ------------------------------------------------------------------------
 * Line monitors
 * ------------------------------------------------------------------------ */

time last_master_change = 0;

always @(mdio_o or mdio_t) begin
    if (!mdio_t && phy_oe) begin
        $display("error: contention at %0t: the poller drives while the PHY does", $time);
        errors = errors + 1;
    end
    if (!mdio_t && !rst && $time - last_rise < 10) begin
        $display("error: MDIO changed %0t ns after MDC rose (hold)", $time - last_rise);
        errors = errors + 1;
    end
    last_master_change = $time;
end

always @(posedge phy_oe) begin
    if (!mdio_t) begin
        $display("error: contention at %0t: the PHY drives while the poller does", $time);
        errors = errors + 1;
    end
end

always @(posedge mdc) begin
    if (!mdio_t && $time - last_master_change < 10) begin
        $display("error: MDIO changed %0t ns before MDC rose (setup)", $time - last_master_change);
        errors = errors + 1;
    end
end

/* ------------------------------------------------------------------------
 * Scenarios
 * ------------------------------------------------------------------------ */

// a change takes effect at the latest in the read that starts after it
task wait_reads;
    begin
        #(POLL_NS * 2 + 1000);
    end
endtask

integer answered_before;

initial begin
    repeat (10) @(posedge clk);
    check(!link_up && !bmsr_valid && mdio_t, "in reset: link down, nothing read, line released");
    rst = 1'b0;

    phy_bmsr = 16'h796D;
    wait_reads;
    check(link_up && bmsr_valid && bmsr == 16'h796D, "PHY reports link: link_up, BMSR 796d");

    phy_bmsr = 16'h7969;
    wait_reads;
    check(!link_up && bmsr_valid && bmsr == 16'h7969, "PHY reports no link: link down, BMSR 7969");

    phy_bmsr = 16'h0004;
    wait_reads;
    check(link_up && bmsr_valid && bmsr == 16'h0004, "link bit alone (BMSR 0004): link_up");

    phy_present = 1'b0;
    wait_reads;
    check(!link_up && !bmsr_valid && bmsr == 16'hFFFF, "no PHY (all ones): link down, not valid");

    phy_present = 1'b1;
    phy_bmsr = 16'hFFFB;                // everything but the link bit
    wait_reads;
    check(!link_up && bmsr_valid && bmsr == 16'hFFFB, "BMSR fffb (not all ones): valid, link down");

    phy_bmsr = 16'h796D;
    phy_addr = 5'd5;
    wait_reads;
    check(!link_up && !bmsr_valid, "PHY at another address: link down, not valid");

    phy_addr = PHY_ADDR;
    wait_reads;
    check(link_up && bmsr_valid, "PHY back at its address: link up");

    // reset while the PHY is answering
    answered_before = answered;
    wait (answered != answered_before);
    repeat (MDC_DIV * 2 * 8) @(posedge clk);
    rst = 1'b1;
    repeat (2) @(posedge clk);
    #1;
    check(mdio_t && !link_up && !bmsr_valid, "reset mid-frame: line released, link down at once");
    repeat (MDC_DIV * 2 * 20) @(posedge clk);
    check(mdc == 1'b0 && mdio_t, "in reset: MDC low and the line released");
    rst = 1'b0;
    wait_reads;
    check(link_up && bmsr_valid && bmsr == 16'h796D, "after the reset: polling again, link up");

    check(errors == 0, "line protocol: frames, turnaround, timing, no contention");
    check(frames >= 15 && answered >= 10, "frames seen and answered");
    $display("DONE %0d", failures);
    $finish;
end

// a hung poller must not hang the bench
initial begin
    #(POLL_NS * 40);
    $display("FAIL  timeout");
    $display("DONE %0d", failures + 1);
    $finish;
end

endmodule

`resetall
