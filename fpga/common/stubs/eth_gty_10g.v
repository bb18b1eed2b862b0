// SPDX-License-Identifier: MIT
// Black-box stub of eth_gty_10g, the UltraScale FPGAs Transceivers Wizard (gtwizard_ultrascale) with one GTY channel at 10GBASE-R as fpga/alveo_u200/tcl/ip_gty.tcl configures it, for lint only.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The ports fpga/alveo_u200/rtl/fpga.v connects, named and sized as the
 * wizard generates them for one channel with the GTY-10GBASE-R preset
 * (64B/66B asynchronous gearbox, 64-bit user data, QPLL0, TX/RX user
 * clocking outside the core): per-channel buses are 1 bit wide except
 * gtwiz_userdata_* (64), txheader_in / rxheader_out (6), txsequence_in (7).
 * Names as in PG182 and in open designs built on the same preset
 * (verilog-ethernet and Corundum for the Alveo U200). Outputs fpga.v leaves
 * open (rxdatavalid_out, rxheadervalid_out, rxstartofseq_out,
 * gtwiz_reset_rx_cdr_stable_out, qpll0outclk_out, qpll0outrefclk_out,
 * gtpowergood_out, rxprgdivresetdone_out) are not listed. After generating
 * the IP, compare with build/ip/eth_gty_10g/eth_gty_10g_stub.v.
 *
 * Outputs are tied to zero; this is no model of the transceiver.
 */

/* verilator lint_off UNUSEDSIGNAL */

(* blackbox *)
module eth_gty_10g (
    /* Reset controller and user clock status */
    input  wire [0:0]   gtwiz_userclk_tx_active_in,
    input  wire [0:0]   gtwiz_userclk_rx_active_in,
    input  wire [0:0]   gtwiz_reset_clk_freerun_in,
    input  wire [0:0]   gtwiz_reset_all_in,
    input  wire [0:0]   gtwiz_reset_tx_pll_and_datapath_in,
    input  wire [0:0]   gtwiz_reset_tx_datapath_in,
    input  wire [0:0]   gtwiz_reset_rx_pll_and_datapath_in,
    input  wire [0:0]   gtwiz_reset_rx_datapath_in,
    output wire [0:0]   gtwiz_reset_tx_done_out,
    output wire [0:0]   gtwiz_reset_rx_done_out,

    /* User data */
    input  wire [63:0]  gtwiz_userdata_tx_in,
    output wire [63:0]  gtwiz_userdata_rx_out,

    /* Reference clock (QPLL0 of the quad) */
    input  wire [0:0]   gtrefclk00_in,

    /* Serial pins */
    input  wire [0:0]   gtyrxn_in,
    input  wire [0:0]   gtyrxp_in,
    output wire [0:0]   gtytxn_out,
    output wire [0:0]   gtytxp_out,

    /* 64B/66B gearbox and user clocks */
    input  wire [0:0]   rxgearboxslip_in,
    input  wire [0:0]   rxusrclk_in,
    input  wire [0:0]   rxusrclk2_in,
    input  wire [5:0]   txheader_in,
    input  wire [6:0]   txsequence_in,
    input  wire [0:0]   txusrclk_in,
    input  wire [0:0]   txusrclk2_in,
    output wire [5:0]   rxheader_out,
    output wire [0:0]   rxoutclk_out,
    output wire [0:0]   rxpmaresetdone_out,
    output wire [0:0]   txoutclk_out,
    output wire [0:0]   txpmaresetdone_out,
    output wire [0:0]   txprgdivresetdone_out
);

assign gtwiz_reset_tx_done_out = 1'b0;
assign gtwiz_reset_rx_done_out = 1'b0;
assign gtwiz_userdata_rx_out = 64'd0;
assign gtytxn_out = 1'b0;
assign gtytxp_out = 1'b0;
assign rxheader_out = 6'd0;
assign rxoutclk_out = 1'b0;
assign rxpmaresetdone_out = 1'b0;
assign txoutclk_out = 1'b0;
assign txpmaresetdone_out = 1'b0;
assign txprgdivresetdone_out = 1'b0;

endmodule

/* verilator lint_on UNUSEDSIGNAL */

`resetall
