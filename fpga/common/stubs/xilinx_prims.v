// SPDX-License-Identifier: MIT
// Black-box stubs of the Xilinx UltraScale+ primitives used by the board tops (fpga/alveo_u200/rtl/fpga.v), for lint only.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Port and parameter names as in the UltraScale Architecture Libraries
 * Guide (UG974). Clock buffers pass their input through and everything else
 * is tied off: these stubs let Verilator and Icarus elaborate a board top;
 * they are not simulation models (Vivado has the real cells, and Yosys'
 * synth_xilinx knows them too) and never go into a synthesis run.
 */

// one file for all the primitives (named by Xilinx, not by this file), no
// logic behind most ports
/* verilator lint_off DECLFILENAME */
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */

// differential input buffer (clock-capable pin into a BUFG*)
(* blackbox *)
module IBUFDS #(
    parameter DIFF_TERM = "FALSE",          // internal differential termination
    parameter IBUF_LOW_PWR = "TRUE",        // low-power input
    parameter IOSTANDARD = "DEFAULT"        // I/O standard (set in the XDC instead)
) (
    input  wire I,
    input  wire IB,
    output wire O
);
assign O = I;
endmodule

// GT reference clock input buffer
(* blackbox *)
module IBUFDS_GTE4 #(
    parameter [0:0] REFCLK_EN_TX_PATH = 1'b0,   // reserved, 0
    parameter [1:0] REFCLK_HROW_CK_SEL = 2'b00, // ODIV2: 00 = O, 01 = O / 2, 10 = 0
    parameter [1:0] REFCLK_ICNTL_RX = 2'b00     // reserved, 00
) (
    input  wire I,
    input  wire IB,
    input  wire CEB,
    output wire O,
    output wire ODIV2
);
assign O = I;
assign ODIV2 = I;
endmodule

// global clock buffer driven by a GT (TXOUTCLK, RXOUTCLK, refclk ODIV2)
(* blackbox *)
module BUFG_GT #(
    parameter SIM_DEVICE = "ULTRASCALE_PLUS",   // device family for simulation
    parameter STARTUP_SYNC = "FALSE"            // synchronise the start to the clock
) (
    input  wire       I,
    input  wire       CE,
    input  wire       CEMASK,
    input  wire       CLR,
    input  wire       CLRMASK,
    input  wire [2:0] DIV,
    output wire       O
);
assign O = I;
endmodule

// global clock buffer with clock enable and divider (1..8)
(* blackbox *)
module BUFGCE_DIV #(
    parameter integer BUFGCE_DIVIDE = 1,        // divide by 1..8
    parameter CE_TYPE = "SYNC",                 // clock enable type
    parameter HARDSYNC_CLR = "FALSE",           // synchronous clear
    parameter [0:0] IS_CE_INVERTED = 1'b0,      // invert CE
    parameter [0:0] IS_CLR_INVERTED = 1'b0,     // invert CLR
    parameter [0:0] IS_I_INVERTED = 1'b0,       // invert I
    parameter SIM_DEVICE = "ULTRASCALE_PLUS",   // device family for simulation
    parameter STARTUP_SYNC = "FALSE"            // synchronise the start to the clock
) (
    input  wire I,
    input  wire CE,
    input  wire CLR,
    output wire O
);
assign O = I;
endmodule

/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_on DECLFILENAME */

`resetall
