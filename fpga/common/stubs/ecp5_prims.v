// SPDX-License-Identifier: MIT
// Black-box stubs of the Lattice ECP5 primitives used by the fpga/common/rtl/ecp5 shims and the ECPIX-5 top, for lint only.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Port lists as in Yosys' techlibs/ecp5/cells_bb.v (BB: cells_io.vh). The
 * outputs are tied to zero: these stubs let Verilator and Icarus elaborate
 * the shims and fpga/ecpix5/rtl/fpga.v; they are not simulation models and
 * never go into a synthesis run (synth_ecp5 knows the real cells).
 */

// one file for all the primitives (named by Lattice, not by this file), no
// logic behind the ports
/* verilator lint_off DECLFILENAME */
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */

(* blackbox *)
module IDDRX1F #(
    parameter GSR = "ENABLED"           // global set/reset connection
) (
    input  wire D,
    input  wire SCLK,
    input  wire RST,
    output wire Q0,
    output wire Q1
);
assign Q0 = 1'b0;
assign Q1 = 1'b0;
endmodule

(* blackbox *)
module ODDRX1F #(
    parameter GSR = "ENABLED"           // global set/reset connection
) (
    input  wire SCLK,
    input  wire RST,
    input  wire D0,
    input  wire D1,
    output wire Q
);
assign Q = 1'b0;
endmodule

(* blackbox *)
module EHXPLLL #(
    parameter CLKI_DIV = 1,
    parameter CLKFB_DIV = 1,
    parameter CLKOP_DIV = 8,
    parameter CLKOS_DIV = 8,
    parameter CLKOS2_DIV = 8,
    parameter CLKOS3_DIV = 8,
    parameter CLKOP_ENABLE = "ENABLED",
    parameter CLKOS_ENABLE = "DISABLED",
    parameter CLKOS2_ENABLE = "DISABLED",
    parameter CLKOS3_ENABLE = "DISABLED",
    parameter CLKOP_CPHASE = 0,
    parameter CLKOS_CPHASE = 0,
    parameter CLKOS2_CPHASE = 0,
    parameter CLKOS3_CPHASE = 0,
    parameter CLKOP_FPHASE = 0,
    parameter CLKOS_FPHASE = 0,
    parameter CLKOS2_FPHASE = 0,
    parameter CLKOS3_FPHASE = 0,
    parameter FEEDBK_PATH = "CLKOP",
    parameter OUTDIVIDER_MUXA = "DIVA",
    parameter OUTDIVIDER_MUXB = "DIVB",
    parameter OUTDIVIDER_MUXC = "DIVC",
    parameter OUTDIVIDER_MUXD = "DIVD",
    parameter STDBY_ENABLE = "DISABLED",
    parameter DPHASE_SOURCE = "DISABLED",
    parameter PLLRST_ENA = "DISABLED",
    parameter INTFB_WAKE = "DISABLED"
) (
    input  wire CLKI,
    input  wire CLKFB,
    input  wire PHASESEL1,
    input  wire PHASESEL0,
    input  wire PHASEDIR,
    input  wire PHASESTEP,
    input  wire PHASELOADREG,
    input  wire STDBY,
    input  wire PLLWAKESYNC,
    input  wire RST,
    input  wire ENCLKOP,
    input  wire ENCLKOS,
    input  wire ENCLKOS2,
    input  wire ENCLKOS3,
    output wire CLKOP,
    output wire CLKOS,
    output wire CLKOS2,
    output wire CLKOS3,
    output wire LOCK,
    output wire INTLOCK,
    output wire REFCLK,
    output wire CLKINTFB
);
assign CLKOP = 1'b0;
assign CLKOS = 1'b0;
assign CLKOS2 = 1'b0;
assign CLKOS3 = 1'b0;
assign LOCK = 1'b0;
assign INTLOCK = 1'b0;
assign REFCLK = 1'b0;
assign CLKINTFB = 1'b0;
endmodule

(* blackbox *)
module DELAYG #(
    parameter DEL_MODE = "USER_DEFINED",    // fixed delay of DEL_VALUE taps
    parameter DEL_VALUE = 0
) (
    input  wire A,
    output wire Z
);
assign Z = 1'b0;
endmodule

(* blackbox *)
module BB (
    input  wire I,                      // driven onto B when T = 0
    input  wire T,                      // 1: released
    output wire O,                      // what is on B
    inout  wire B                       // the pad
);
assign O = 1'b0;
endmodule

/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_on DECLFILENAME */

`resetall
