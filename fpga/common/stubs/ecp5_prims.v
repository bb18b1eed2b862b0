// SPDX-License-Identifier: MIT
// Black-box stubs of the Lattice ECP5 primitives used by the fpga/common/rtl/ecp5 shims, for lint only.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Port lists as in Yosys' techlibs/ecp5/cells_bb.v. The outputs are tied to
 * zero: these stubs let Verilator and Icarus elaborate the shims; they are
 * not simulation models and never go into a synthesis run (synth_ecp5 knows
 * the real cells).
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

/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_on DECLFILENAME */

`resetall
