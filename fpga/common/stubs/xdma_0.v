// SPDX-License-Identifier: MIT
// Black-box stub of xdma_0, the DMA/Bridge Subsystem for PCIe (XDMA 4.1) in AXI Bridge mode as fpga/alveo_u200/tcl/ip_xdma.tcl configures it, for lint only.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The ports fpga/alveo_u200/rtl/fpga.v connects, named and sized as the
 * generated IP has them for this configuration: Gen3 x8, AXI data width
 * 256 bits, AXI address width 64, M_AXI_B and S_AXI_B IDs 4 bits
 * (CONFIG.axi_id_width, CONFIG.s_axi_id_width), AXI-Lite slave enabled
 * (CONFIG.xdma_axilite_slave), MSI-X External (CONFIG.pf0_msix_impl_locn).
 * Sources for the names: AMD PG194/PG195 (AXI bridge master/slave, bridge
 * interrupts, cfg_interrupt_msix_* of the External MSI-X interface, which
 * the AXI Bridge passes from the PCIe block, PG213) and open designs that
 * instantiate xdma in AXI Bridge mode. Ports the IP has but fpga.v leaves
 * open (outputs such as axi_ctl_aresetn, usr_irq_ack, interrupt_out,
 * cfg_ltssm_state, cfg_interrupt_msi_sent/fail) are not listed. After
 * generating the IP, compare with the generated xdma_0_stub.v
 * (build/ip/xdma_0/xdma_0_stub.v): any difference is an error in this file.
 *
 * Outputs are tied to zero; this is no model of the bridge.
 */

/* verilator lint_off UNUSEDSIGNAL */

(* blackbox *)
module xdma_0 (
    /* PCIe */
    input  wire         sys_clk,            // reference clock, IBUFDS_GTE4 ODIV2
    input  wire         sys_clk_gt,         // reference clock, IBUFDS_GTE4 O
    input  wire         sys_rst_n,          // PERST#
    output wire         user_lnk_up,
    output wire [7:0]   pci_exp_txp,
    output wire [7:0]   pci_exp_txn,
    input  wire [7:0]   pci_exp_rxp,
    input  wire [7:0]   pci_exp_rxn,

    /* AXI clock and reset */
    output wire         axi_aclk,
    output wire         axi_aresetn,

    /* Legacy/MSI user interrupts (none used) */
    input  wire [0:0]   usr_irq_req,

    /* M_AXI_B: PCIe BAR accesses to the user logic */
    output wire [3:0]   m_axib_awid,
    output wire [63:0]  m_axib_awaddr,
    output wire [7:0]   m_axib_awlen,
    output wire [2:0]   m_axib_awsize,
    output wire [1:0]   m_axib_awburst,
    output wire [2:0]   m_axib_awprot,
    output wire         m_axib_awvalid,
    input  wire         m_axib_awready,
    output wire         m_axib_awlock,
    output wire [3:0]   m_axib_awcache,
    output wire [255:0] m_axib_wdata,
    output wire [31:0]  m_axib_wstrb,
    output wire         m_axib_wlast,
    output wire         m_axib_wvalid,
    input  wire         m_axib_wready,
    input  wire [3:0]   m_axib_bid,
    input  wire [1:0]   m_axib_bresp,
    input  wire         m_axib_bvalid,
    output wire         m_axib_bready,
    output wire [3:0]   m_axib_arid,
    output wire [63:0]  m_axib_araddr,
    output wire [7:0]   m_axib_arlen,
    output wire [2:0]   m_axib_arsize,
    output wire [1:0]   m_axib_arburst,
    output wire [2:0]   m_axib_arprot,
    output wire         m_axib_arvalid,
    input  wire         m_axib_arready,
    output wire         m_axib_arlock,
    output wire [3:0]   m_axib_arcache,
    input  wire [3:0]   m_axib_rid,
    input  wire [255:0] m_axib_rdata,
    input  wire [1:0]   m_axib_rresp,
    input  wire         m_axib_rlast,
    input  wire         m_axib_rvalid,
    output wire         m_axib_rready,

    /* S_AXI_B: user logic accesses to host memory */
    input  wire [3:0]   s_axib_awid,
    input  wire [63:0]  s_axib_awaddr,
    input  wire [3:0]   s_axib_awregion,
    input  wire [7:0]   s_axib_awlen,
    input  wire [2:0]   s_axib_awsize,
    input  wire [1:0]   s_axib_awburst,
    input  wire         s_axib_awvalid,
    output wire         s_axib_awready,
    input  wire [255:0] s_axib_wdata,
    input  wire [31:0]  s_axib_wstrb,
    input  wire         s_axib_wlast,
    input  wire         s_axib_wvalid,
    output wire         s_axib_wready,
    output wire [3:0]   s_axib_bid,
    output wire [1:0]   s_axib_bresp,
    output wire         s_axib_bvalid,
    input  wire         s_axib_bready,
    input  wire [3:0]   s_axib_arid,
    input  wire [63:0]  s_axib_araddr,
    input  wire [3:0]   s_axib_arregion,
    input  wire [7:0]   s_axib_arlen,
    input  wire [2:0]   s_axib_arsize,
    input  wire [1:0]   s_axib_arburst,
    input  wire         s_axib_arvalid,
    output wire         s_axib_arready,
    output wire [3:0]   s_axib_rid,
    output wire [255:0] s_axib_rdata,
    output wire [1:0]   s_axib_rresp,
    output wire         s_axib_rlast,
    output wire         s_axib_rvalid,
    input  wire         s_axib_rready,

    /* S_AXI_LITE: the bridge's register space */
    input  wire [31:0]  s_axil_awaddr,
    input  wire [2:0]   s_axil_awprot,
    input  wire         s_axil_awvalid,
    output wire         s_axil_awready,
    input  wire [31:0]  s_axil_wdata,
    input  wire [3:0]   s_axil_wstrb,
    input  wire         s_axil_wvalid,
    output wire         s_axil_wready,
    output wire [1:0]   s_axil_bresp,
    output wire         s_axil_bvalid,
    input  wire         s_axil_bready,
    input  wire [31:0]  s_axil_araddr,
    input  wire [2:0]   s_axil_arprot,
    input  wire         s_axil_arvalid,
    output wire         s_axil_arready,
    output wire [31:0]  s_axil_rdata,
    output wire [1:0]   s_axil_rresp,
    output wire         s_axil_rvalid,
    input  wire         s_axil_rready,

    /* MSI-X External: capability state (per physical function) and the
     * IP's own message port */
    output wire [3:0]   cfg_interrupt_msix_enable,
    output wire [3:0]   cfg_interrupt_msix_mask,
    input  wire [63:0]  cfg_interrupt_msix_address,
    input  wire [31:0]  cfg_interrupt_msix_data,
    input  wire         cfg_interrupt_msix_int
);

assign user_lnk_up = 1'b0;
assign pci_exp_txp = 8'd0;
assign pci_exp_txn = 8'd0;
assign axi_aclk = 1'b0;
assign axi_aresetn = 1'b0;

assign m_axib_awid = 4'd0;
assign m_axib_awaddr = 64'd0;
assign m_axib_awlen = 8'd0;
assign m_axib_awsize = 3'd0;
assign m_axib_awburst = 2'd0;
assign m_axib_awprot = 3'd0;
assign m_axib_awvalid = 1'b0;
assign m_axib_awlock = 1'b0;
assign m_axib_awcache = 4'd0;
assign m_axib_wdata = 256'd0;
assign m_axib_wstrb = 32'd0;
assign m_axib_wlast = 1'b0;
assign m_axib_wvalid = 1'b0;
assign m_axib_bready = 1'b0;
assign m_axib_arid = 4'd0;
assign m_axib_araddr = 64'd0;
assign m_axib_arlen = 8'd0;
assign m_axib_arsize = 3'd0;
assign m_axib_arburst = 2'd0;
assign m_axib_arprot = 3'd0;
assign m_axib_arvalid = 1'b0;
assign m_axib_arlock = 1'b0;
assign m_axib_arcache = 4'd0;
assign m_axib_rready = 1'b0;

assign s_axib_awready = 1'b0;
assign s_axib_wready = 1'b0;
assign s_axib_bid = 4'd0;
assign s_axib_bresp = 2'd0;
assign s_axib_bvalid = 1'b0;
assign s_axib_arready = 1'b0;
assign s_axib_rid = 4'd0;
assign s_axib_rdata = 256'd0;
assign s_axib_rresp = 2'd0;
assign s_axib_rlast = 1'b0;
assign s_axib_rvalid = 1'b0;

assign s_axil_awready = 1'b0;
assign s_axil_wready = 1'b0;
assign s_axil_bresp = 2'd0;
assign s_axil_bvalid = 1'b0;
assign s_axil_arready = 1'b0;
assign s_axil_rdata = 32'd0;
assign s_axil_rresp = 2'd0;
assign s_axil_rvalid = 1'b0;

assign cfg_interrupt_msix_enable = 4'd0;
assign cfg_interrupt_msix_mask = 4'd0;

endmodule

/* verilator lint_on UNUSEDSIGNAL */

`resetall
