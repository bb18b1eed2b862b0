// SPDX-License-Identifier: MIT
// Ethernet PHY link state over MDIO: reads the PHY's Basic Mode Status Register (clause 22, register 1) at a fixed interval and reports its link bit.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * A board whose MAC talks RGMII/GMII has no in-band link indication the MAC
 * can trust (RGMII in-band status is optional and off by default on common
 * PHYs), so the link state froce_core reports (BAR0 LINK_STATUS, the IB port
 * state) comes from the PHY's own status register.
 *
 * Every POLL_CYCLES clk cycles one clause-22 read frame of register 1 (BMSR)
 * of PHY address PHY_ADDR: 32 preamble ones, ST 01, OP 10, PHYAD, REGAD, a
 * turnaround during which the PHY takes the line, 16 data bits. MDC runs at
 * clk / (2 * MDC_DIV); the master changes MDIO after MDC's falling edge and
 * samples it on the rising edge (IEEE 802.3 22.2.2.13: the PHY drives read
 * data 0..300 ns after the rising edge, so sampling at the next rising edge
 * gives a whole MDC period of margin).
 *
 * BMSR bit 2 (link status) latches low: after a link failure the first read
 * returns 0 even if the link is back, the next one the current state; so a
 * glitch shows as one poll interval of link down, which is what a driver
 * reading the register would see too.
 *
 * link_up stays 0 until the first read completes and after a read that
 * found no PHY (all ones: the line's pull-up, nobody drove it), which
 * bmsr_valid reports.
 */
module froce_mdio_link #(
    parameter [4:0] PHY_ADDR = 5'd0,    // the PHY's MDIO address (its strap pins)
    parameter MDC_DIV = 25,             // MDC = clk / (2 * MDC_DIV); <= 2.5 MHz (100 MHz clk: 25 -> 2 MHz)
    parameter POLL_CYCLES = 1000000     // clk cycles between reads (100 MHz: 10 ms), > 70 MDC periods
) (
    input  wire         clk,
    input  wire         rst,

    /* MDIO pins: mdio_t = 1 releases the line (an IOBUF's tristate) */
    output wire         mdc,
    input  wire         mdio_i,
    output wire         mdio_o,
    output wire         mdio_t,

    output wire         link_up,        // BMSR bit 2 of the last good read
    output wire         bmsr_valid,     // the last read returned something other than all ones
    output wire [15:0]  bmsr            // the last value read
);

localparam FRAME_BITS = 64;             // 32 preamble + 14 header + 2 turnaround + 16 data
localparam DIV_W = $clog2(MDC_DIV + 1);
localparam POLL_W = $clog2(POLL_CYCLES + 1);

generate
    if (MDC_DIV < 1 || POLL_CYCLES <= FRAME_BITS * 2 * MDC_DIV) begin : g_bad_parameter
        froce_mdio_link_bad_parameter u_bad_parameter ();
    end
endgenerate

// the 46 bits the master drives, first bit in bit 45: preamble, ST, OP, PHYAD, REGAD
localparam [45:0] HEADER = {32'hFFFFFFFF, 2'b01, 2'b10, PHY_ADDR, 5'd1};

reg [POLL_W-1:0] poll_count_reg = {POLL_W{1'b0}};
reg [DIV_W-1:0] div_count_reg = {DIV_W{1'b0}};
reg busy_reg = 1'b0;
reg mdc_reg = 1'b0;
reg [6:0] bit_reg = 7'd0;               // bit of the frame now on the line, 0..63
reg mdio_o_reg = 1'b1;
reg mdio_t_reg = 1'b1;
reg [15:0] shift_reg = 16'd0;
reg [15:0] bmsr_reg = 16'hFFFF;
reg valid_reg = 1'b0;
reg link_reg = 1'b0;
reg mdio_i_meta_reg = 1'b1, mdio_i_reg = 1'b1;

// the header bit after the one on the line (used while bit_reg < 45)
wire [5:0] hdr_index = 6'd44 - bit_reg[5:0];

always @(posedge clk) begin
    // the pin is asynchronous to clk
    mdio_i_meta_reg <= mdio_i;
    mdio_i_reg <= mdio_i_meta_reg;

    if (!busy_reg) begin
        mdc_reg <= 1'b0;
        mdio_t_reg <= 1'b1;
        if (poll_count_reg == POLL_CYCLES[POLL_W-1:0] - 1'b1) begin
            poll_count_reg <= {POLL_W{1'b0}};
            busy_reg <= 1'b1;
            div_count_reg <= {DIV_W{1'b0}};
            bit_reg <= 7'd0;
            // first bit on the line now, MDC low
            mdio_o_reg <= HEADER[45];
            mdio_t_reg <= 1'b0;
        end else begin
            poll_count_reg <= poll_count_reg + 1'b1;
        end
    end else if (div_count_reg == MDC_DIV[DIV_W-1:0] - 1'b1) begin
        div_count_reg <= {DIV_W{1'b0}};
        mdc_reg <= !mdc_reg;
        if (!mdc_reg) begin
            // rising edge: the PHY samples what we drive; we sample data bits
            if (bit_reg >= 7'd48)
                shift_reg <= {shift_reg[14:0], mdio_i_reg};
        end else begin
            // falling edge: next bit
            if (bit_reg == FRAME_BITS - 1) begin
                busy_reg <= 1'b0;
                mdio_t_reg <= 1'b1;
                bmsr_reg <= shift_reg;
                valid_reg <= shift_reg != 16'hFFFF;
                link_reg <= shift_reg != 16'hFFFF && shift_reg[2];
            end else begin
                bit_reg <= bit_reg + 1'b1;
                // bits 46, 47: turnaround, released (the PHY drives 0 in the second)
                mdio_t_reg <= bit_reg + 1'b1 >= 7'd46;
                if (bit_reg + 1'b1 < 7'd46)
                    mdio_o_reg <= HEADER[hdr_index];
            end
        end
        poll_count_reg <= poll_count_reg + 1'b1;
    end else begin
        div_count_reg <= div_count_reg + 1'b1;
        poll_count_reg <= poll_count_reg + 1'b1;
    end

    if (rst) begin
        poll_count_reg <= {POLL_W{1'b0}};
        div_count_reg <= {DIV_W{1'b0}};
        busy_reg <= 1'b0;
        mdc_reg <= 1'b0;
        bit_reg <= 7'd0;
        mdio_o_reg <= 1'b1;
        mdio_t_reg <= 1'b1;
        bmsr_reg <= 16'hFFFF;
        valid_reg <= 1'b0;
        link_reg <= 1'b0;
    end
end

assign mdc = mdc_reg;
assign mdio_o = mdio_o_reg;
assign mdio_t = mdio_t_reg;
assign link_up = link_reg;
assign bmsr_valid = valid_reg;
assign bmsr = bmsr_reg;

endmodule

`resetall
