// SPDX-License-Identifier: MIT
// Alveo U200/U250 board core, vendor-free: froce_core, the XDMA AXI-bridge glue, the MSI-X emitter, the 10G MAC and PCS for one QSFP28 lane, LEDs and QSFP control.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * Everything of the board that is not a Xilinx primitive or IP: fpga.v
 * wraps this with the XDMA (PCIe Gen3 x8, AXI Bridge mode), the GTY lane and
 * the clock buffers; this module is what Verilator, Icarus and Yosys see.
 *
 * Clocks (each with a reset synchronous to it, made in fpga.v):
 *
 *   pcie_clk  XDMA axi_aclk, 250 MHz: the 256-bit AXI bridge ports
 *   core_clk  GT TX user clock, 156.25 MHz (10.3125 Gb/s / 66): froce_core,
 *             the MSI-X emitter, the DMA upsizer, MAC TX, PCS TX
 *   rx_clk    GT RX user clock (recovered, 156.25 MHz nominal): PCS RX, MAC RX
 *
 * Host path (PCIe to the core), BAR accesses:
 *
 *   s_axi_bar_* (XDMA M_AXI_B, 256b, pcie_clk)
 *     -> froce_axi_bar_split (pcie_clk) -> BAR0 AXI-Lite 32b  -> froce_axil_cdc -> froce_core s_axil_*
 *                                       -> BAR2 AXI-Lite 64b  -> froce_axil_cdc -> froce_core s_axil_db_*
 *
 *   The splitter runs on the XDMA's side because that is what it takes (the
 *   XDMA's full-width bursts); only single AXI-Lite accesses cross.
 *
 * DMA path (the core to host memory):
 *
 *   froce_core m_axi_* (64b, core_clk) -> froce_axi_wr_arb port 0 --.
 *   froce_msix_emitter (64b, core_clk) -> froce_axi_wr_arb port 1 --+-> froce_axi_upsize 64->256 (core_clk)
 *     -> froce_axi_cdc 256b (core_clk -> pcie_clk) -> m_axi_dma_* (XDMA S_AXI_B)
 *   (reads go from froce_core straight to the upsizer, beside the arbiter)
 *
 *   The upsizer runs in the core clock so that every block with logic on
 *   the data path sees 156.25 MHz; only the FIFOs of the crossing run at
 *   250 MHz (the crossing is 256 bits wide, a few dozen more LUT RAMs than
 *   at 64 bits, nothing on a U200).
 *
 * MSI-X: froce_core raises a vector with its table entry (m_msix_*); the
 * emitter turns it into a 4-byte AXI write on the same path as the DMA
 * writes, after every DMA write whose AW the core issued before the request
 * has had its B (it watches the handshakes at froce_core's m_axi_* port,
 * before the arbiter), so a message never overtakes the EQE it announces.
 * The emitter is in the core clock, next to the core: the table port
 * (msix_tbl_*, combinational, TBL_LATENCY 0), the vector masks and the PBA
 * (msix_pba_ext, ORed into BAR0's MSIX_PBA) stay in one clock domain; only
 * MSI-X Enable and Function Mask cross, from the XDMA's configuration
 * outputs (pcie_clk) through froce_sync_bit (independent levels; the
 * emitter checks them again in the cycle it sends). The emitter's writes
 * use AWID 4'b1000, an ID froce_core never issues (its AXI mux puts IDs in
 * the low three bits), which is how the arbiter routes their B back.
 *
 * Ethernet: froce_core m_eth_tx -> froce_eth_mac_10g TX (with its 16 KiB
 * store-and-forward FIFO: the core's builder may pause inside a frame, the
 * wire may not) -> froce_eth_pcs_10g TX -> serdes_tx_* (64 data bits + 2
 * header bits per core_clk cycle, to the GTY's 64B/66B gearbox); serdes_rx_*
 * -> PCS RX -> MAC RX (rx_clk) -> froce_async_frame_fifo (rx_clk -> core_clk,
 * whole good frames) -> froce_core s_eth_rx. The PCS link state goes to
 * froce_core link_up and to led_link.
 *
 * LEDs (active high here; fpga.v inverts if the board needs it): led_link =
 * the PCS link, led_act = a frame sent or received in the last
 * 2^LED_STRETCH_BITS core_clk cycles (27 ms at 22).
 *
 * QSFP28 module control: ResetL follows the PCIe-side reset (a hot reset of
 * the function also resets the module), LPMode low (high power, needed for
 * optics that obey the pin), ModSelL high (no I2C management yet); ModPrsL
 * and IntL are synchronised and reported on qsfp_present / qsfp_int for
 * fpga.v (not used by the core yet).
 */
module fpga_core #(
    parameter NUM_QPS = 256,            // froce_core: QP contexts, a power of two
    parameter NUM_CQS = 256,            // froce_core: CQ contexts, a power of two
    parameter NUM_MRS = 1024,           // froce_core: MR table entries
    parameter NUM_MTT = 65536,          // froce_core: MTT entries
    parameter NUM_GIDS = 16,            // froce_core: GID table entries
    parameter NUM_UARS = 256,           // froce_core: UAR pages; BAR2 is NUM_UARS x 4 KiB (XDMA BAR2 size must match)
    parameter NUM_EQS = 8,              // froce_core: event queues
    parameter NUM_VECTORS = 32,         // MSI-X vectors: a power of two 2..32 (XDMA MSI-X table size must match)
    parameter [31:0] BUILD_ID = 32'd0,  // BAR0 BUILD_ID
    parameter [47:0] MAC = 48'd0,       // BAR0 permanent MAC, 0 = none
    parameter FW_INIT_FILE = "",        // firmware image ($readmemh), build/firmware/froce-fw.hex
    parameter FW_RAM_ADDR_WIDTH = 14,   // soft-core RAM: 2**FW_RAM_ADDR_WIDTH words
    parameter CORE_CLK_HZ = 156250000,  // core_clk frequency (firmware tick)
    parameter [63:0] BAR0_BASE = 64'h0,         // AXI address the XDMA gives BAR0 (its PCIe-to-AXI translation)
    parameter [63:0] BAR2_BASE = 64'h100000,    // AXI address the XDMA gives BAR2, aligned to its size
    parameter PCIE_ID_WIDTH = 4,        // XDMA M_AXI_B ID width (CONFIG.axi_id_width)
    parameter PCS_BIT_REVERSE = 1,      // froce_eth_pcs_10g BIT_REVERSE for the GTY gearbox (confirm on hardware)
    parameter PCS_SLIP_WAIT = 16,       // froce_eth_pcs_10g SLIP_WAIT: GT slip latency + 1 (confirm on hardware)
    parameter LED_STRETCH_BITS = 22     // activity LED on time: 2^LED_STRETCH_BITS core_clk cycles
) (
    /* Clocks and resets (each reset synchronous to its clock, active high) */
    input  wire                         pcie_clk,
    input  wire                         pcie_rst,
    input  wire                         core_clk,
    input  wire                         core_rst,
    input  wire                         rx_clk,
    input  wire                         rx_rst,

    /* XDMA M_AXI_B (BAR accesses), pcie_clk: AXI4 slave here */
    input  wire [PCIE_ID_WIDTH-1:0]     s_axi_bar_awid,
    input  wire [63:0]                  s_axi_bar_awaddr,
    input  wire [7:0]                   s_axi_bar_awlen,
    input  wire [2:0]                   s_axi_bar_awsize,
    input  wire [1:0]                   s_axi_bar_awburst,
    input  wire                         s_axi_bar_awlock,
    input  wire [3:0]                   s_axi_bar_awcache,
    input  wire [2:0]                   s_axi_bar_awprot,
    input  wire                         s_axi_bar_awvalid,
    output wire                         s_axi_bar_awready,
    input  wire [255:0]                 s_axi_bar_wdata,
    input  wire [31:0]                  s_axi_bar_wstrb,
    input  wire                         s_axi_bar_wlast,
    input  wire                         s_axi_bar_wvalid,
    output wire                         s_axi_bar_wready,
    output wire [PCIE_ID_WIDTH-1:0]     s_axi_bar_bid,
    output wire [1:0]                   s_axi_bar_bresp,
    output wire                         s_axi_bar_bvalid,
    input  wire                         s_axi_bar_bready,
    input  wire [PCIE_ID_WIDTH-1:0]     s_axi_bar_arid,
    input  wire [63:0]                  s_axi_bar_araddr,
    input  wire [7:0]                   s_axi_bar_arlen,
    input  wire [2:0]                   s_axi_bar_arsize,
    input  wire [1:0]                   s_axi_bar_arburst,
    input  wire                         s_axi_bar_arlock,
    input  wire [3:0]                   s_axi_bar_arcache,
    input  wire [2:0]                   s_axi_bar_arprot,
    input  wire                         s_axi_bar_arvalid,
    output wire                         s_axi_bar_arready,
    output wire [PCIE_ID_WIDTH-1:0]     s_axi_bar_rid,
    output wire [255:0]                 s_axi_bar_rdata,
    output wire [1:0]                   s_axi_bar_rresp,
    output wire                         s_axi_bar_rlast,
    output wire                         s_axi_bar_rvalid,
    input  wire                         s_axi_bar_rready,

    /* XDMA S_AXI_B (DMA and MSI-X writes to the host), pcie_clk: AXI4 master
     * here; the XDMA slave has no LOCK/CACHE/PROT/QOS (AxREGION is 0) */
    output wire [3:0]                   m_axi_dma_awid,
    output wire [63:0]                  m_axi_dma_awaddr,
    output wire [7:0]                   m_axi_dma_awlen,
    output wire [2:0]                   m_axi_dma_awsize,
    output wire [1:0]                   m_axi_dma_awburst,
    output wire                         m_axi_dma_awvalid,
    input  wire                         m_axi_dma_awready,
    output wire [255:0]                 m_axi_dma_wdata,
    output wire [31:0]                  m_axi_dma_wstrb,
    output wire                         m_axi_dma_wlast,
    output wire                         m_axi_dma_wvalid,
    input  wire                         m_axi_dma_wready,
    input  wire [3:0]                   m_axi_dma_bid,
    input  wire [1:0]                   m_axi_dma_bresp,
    input  wire                         m_axi_dma_bvalid,
    output wire                         m_axi_dma_bready,
    output wire [3:0]                   m_axi_dma_arid,
    output wire [63:0]                  m_axi_dma_araddr,
    output wire [7:0]                   m_axi_dma_arlen,
    output wire [2:0]                   m_axi_dma_arsize,
    output wire [1:0]                   m_axi_dma_arburst,
    output wire                         m_axi_dma_arvalid,
    input  wire                         m_axi_dma_arready,
    input  wire [3:0]                   m_axi_dma_rid,
    input  wire [255:0]                 m_axi_dma_rdata,
    input  wire [1:0]                   m_axi_dma_rresp,
    input  wire                         m_axi_dma_rlast,
    input  wire                         m_axi_dma_rvalid,
    output wire                         m_axi_dma_rready,

    /* MSI-X capability state from the XDMA (pcie_clk; cfg_interrupt_msix_enable[0],
     * cfg_interrupt_msix_mask[0]) */
    input  wire                         msix_enable,
    input  wire                         msix_func_mask,

    /* GTY lane with its 64B/66B gearbox: TX in core_clk, RX in rx_clk */
    output wire [63:0]                  serdes_tx_data,
    output wire [1:0]                   serdes_tx_hdr,
    input  wire [63:0]                  serdes_rx_data,
    input  wire [1:0]                   serdes_rx_hdr,
    output wire                         serdes_rx_bitslip,

    /* LEDs (core_clk), active high */
    output wire                         led_link,
    output wire                         led_act,

    /* QSFP28 control (the pins, active low where named so) */
    output wire                         qsfp_resetl,
    output wire                         qsfp_lpmode,
    output wire                         qsfp_modsell,
    input  wire                         qsfp_modprsl,
    input  wire                         qsfp_intl,
    output wire                         qsfp_present,       // core_clk: a module is plugged in
    output wire                         qsfp_int            // core_clk: the module signals an interrupt
);

localparam AXI_ID_WIDTH = 4;                                        // froce_core m_axi_* IDs
localparam [AXI_ID_WIDTH-1:0] MSIX_AXI_ID = 4'b1000;                // emitter AWID: the arbiter's port-1 bit
localparam DB_ADDR_W = `FROCE_UAR_PAGE_SHIFT + $clog2(NUM_UARS);    // BAR2 window bits
localparam VW = NUM_VECTORS > 1 ? $clog2(NUM_VECTORS) : 1;
localparam BAD_PARAM = NUM_VECTORS < 2 || NUM_VECTORS > `FROCE_MSIX_MAX_VECTORS ||
                       (1 << VW) != NUM_VECTORS || (1 << $clog2(NUM_UARS)) != NUM_UARS ||
                       LED_STRETCH_BITS < 1 || LED_STRETCH_BITS > 30;

initial begin
    if (BAD_PARAM) begin
        $display("fpga_core: NUM_VECTORS must be a power of two 2..32, NUM_UARS a power of two, LED_STRETCH_BITS 1..30");
        $finish;
    end
end

generate
    if (BAD_PARAM) begin : g_bad_parameter
        fpga_core_bad_parameter u_bad_parameter ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * BAR accesses: XDMA M_AXI_B -> BAR0 / BAR2 AXI-Lite (pcie_clk) -> core_clk
 * ------------------------------------------------------------------------ */

// BAR0, pcie_clk side
wire [`FROCE_BAR0_ADDR_W-1:0] p_bar0_awaddr, p_bar0_araddr;
wire p_bar0_awvalid, p_bar0_awready, p_bar0_wvalid, p_bar0_wready, p_bar0_bvalid, p_bar0_bready;
wire p_bar0_arvalid, p_bar0_arready, p_bar0_rvalid, p_bar0_rready;
wire [31:0] p_bar0_wdata, p_bar0_rdata;
wire [3:0] p_bar0_wstrb;
wire [1:0] p_bar0_bresp, p_bar0_rresp;

// BAR2 (doorbells, write-only), pcie_clk side
wire [DB_ADDR_W-1:0] p_db_awaddr, p_db_araddr;
wire p_db_awvalid, p_db_awready, p_db_wvalid, p_db_wready, p_db_bvalid, p_db_bready;
wire p_db_arvalid, p_db_arready, p_db_rvalid, p_db_rready;
wire [63:0] p_db_wdata, p_db_rdata;
wire [7:0] p_db_wstrb;
wire [1:0] p_db_bresp, p_db_rresp;

froce_axi_bar_split #(
    .DATA_WIDTH(256),
    .ADDR_WIDTH(64),
    .ID_WIDTH(PCIE_ID_WIDTH),
    .BAR0_BASE(BAR0_BASE),
    .BAR0_ADDR_WIDTH(`FROCE_BAR0_ADDR_W),
    .BAR2_BASE(BAR2_BASE),
    .BAR2_ADDR_WIDTH(DB_ADDR_W),
    .BAR2_READ_ENABLE(0)
) u_bar_split (
    .clk(pcie_clk),
    .rst(pcie_rst),
    .s_axi_awid(s_axi_bar_awid), .s_axi_awaddr(s_axi_bar_awaddr), .s_axi_awlen(s_axi_bar_awlen),
    .s_axi_awsize(s_axi_bar_awsize), .s_axi_awburst(s_axi_bar_awburst), .s_axi_awlock(s_axi_bar_awlock),
    .s_axi_awcache(s_axi_bar_awcache), .s_axi_awprot(s_axi_bar_awprot),
    .s_axi_awvalid(s_axi_bar_awvalid), .s_axi_awready(s_axi_bar_awready),
    .s_axi_wdata(s_axi_bar_wdata), .s_axi_wstrb(s_axi_bar_wstrb), .s_axi_wlast(s_axi_bar_wlast),
    .s_axi_wvalid(s_axi_bar_wvalid), .s_axi_wready(s_axi_bar_wready),
    .s_axi_bid(s_axi_bar_bid), .s_axi_bresp(s_axi_bar_bresp), .s_axi_bvalid(s_axi_bar_bvalid),
    .s_axi_bready(s_axi_bar_bready),
    .s_axi_arid(s_axi_bar_arid), .s_axi_araddr(s_axi_bar_araddr), .s_axi_arlen(s_axi_bar_arlen),
    .s_axi_arsize(s_axi_bar_arsize), .s_axi_arburst(s_axi_bar_arburst), .s_axi_arlock(s_axi_bar_arlock),
    .s_axi_arcache(s_axi_bar_arcache), .s_axi_arprot(s_axi_bar_arprot),
    .s_axi_arvalid(s_axi_bar_arvalid), .s_axi_arready(s_axi_bar_arready),
    .s_axi_rid(s_axi_bar_rid), .s_axi_rdata(s_axi_bar_rdata), .s_axi_rresp(s_axi_bar_rresp),
    .s_axi_rlast(s_axi_bar_rlast), .s_axi_rvalid(s_axi_bar_rvalid), .s_axi_rready(s_axi_bar_rready),
    .m_axil_awaddr(p_bar0_awaddr), .m_axil_awvalid(p_bar0_awvalid), .m_axil_awready(p_bar0_awready),
    .m_axil_wdata(p_bar0_wdata), .m_axil_wstrb(p_bar0_wstrb), .m_axil_wvalid(p_bar0_wvalid),
    .m_axil_wready(p_bar0_wready), .m_axil_bresp(p_bar0_bresp), .m_axil_bvalid(p_bar0_bvalid),
    .m_axil_bready(p_bar0_bready),
    .m_axil_araddr(p_bar0_araddr), .m_axil_arvalid(p_bar0_arvalid), .m_axil_arready(p_bar0_arready),
    .m_axil_rdata(p_bar0_rdata), .m_axil_rresp(p_bar0_rresp), .m_axil_rvalid(p_bar0_rvalid),
    .m_axil_rready(p_bar0_rready),
    .m_axil_db_awaddr(p_db_awaddr), .m_axil_db_awvalid(p_db_awvalid), .m_axil_db_awready(p_db_awready),
    .m_axil_db_wdata(p_db_wdata), .m_axil_db_wstrb(p_db_wstrb), .m_axil_db_wvalid(p_db_wvalid),
    .m_axil_db_wready(p_db_wready), .m_axil_db_bresp(p_db_bresp), .m_axil_db_bvalid(p_db_bvalid),
    .m_axil_db_bready(p_db_bready),
    .m_axil_db_araddr(p_db_araddr), .m_axil_db_arvalid(p_db_arvalid), .m_axil_db_arready(p_db_arready),
    .m_axil_db_rdata(p_db_rdata), .m_axil_db_rresp(p_db_rresp), .m_axil_db_rvalid(p_db_rvalid),
    .m_axil_db_rready(p_db_rready)
);

// BAR0, core_clk side
wire [`FROCE_BAR0_ADDR_W-1:0] c_bar0_awaddr, c_bar0_araddr;
wire c_bar0_awvalid, c_bar0_awready, c_bar0_wvalid, c_bar0_wready, c_bar0_bvalid, c_bar0_bready;
wire c_bar0_arvalid, c_bar0_arready, c_bar0_rvalid, c_bar0_rready;
wire [31:0] c_bar0_wdata, c_bar0_rdata;
wire [3:0] c_bar0_wstrb;
wire [1:0] c_bar0_bresp, c_bar0_rresp;
wire [2:0] unused_bar0_awprot, unused_bar0_arprot;

froce_axil_cdc #(
    .ADDR_WIDTH(`FROCE_BAR0_ADDR_W),
    .DATA_WIDTH(32)
) u_bar0_cdc (
    .s_clk(pcie_clk),
    .s_rst(pcie_rst),
    .s_axil_awaddr(p_bar0_awaddr), .s_axil_awprot(3'b000), .s_axil_awvalid(p_bar0_awvalid),
    .s_axil_awready(p_bar0_awready),
    .s_axil_wdata(p_bar0_wdata), .s_axil_wstrb(p_bar0_wstrb), .s_axil_wvalid(p_bar0_wvalid),
    .s_axil_wready(p_bar0_wready),
    .s_axil_bresp(p_bar0_bresp), .s_axil_bvalid(p_bar0_bvalid), .s_axil_bready(p_bar0_bready),
    .s_axil_araddr(p_bar0_araddr), .s_axil_arprot(3'b000), .s_axil_arvalid(p_bar0_arvalid),
    .s_axil_arready(p_bar0_arready),
    .s_axil_rdata(p_bar0_rdata), .s_axil_rresp(p_bar0_rresp), .s_axil_rvalid(p_bar0_rvalid),
    .s_axil_rready(p_bar0_rready),
    .m_clk(core_clk),
    .m_rst(core_rst),
    .m_axil_awaddr(c_bar0_awaddr), .m_axil_awprot(unused_bar0_awprot), .m_axil_awvalid(c_bar0_awvalid),
    .m_axil_awready(c_bar0_awready),
    .m_axil_wdata(c_bar0_wdata), .m_axil_wstrb(c_bar0_wstrb), .m_axil_wvalid(c_bar0_wvalid),
    .m_axil_wready(c_bar0_wready),
    .m_axil_bresp(c_bar0_bresp), .m_axil_bvalid(c_bar0_bvalid), .m_axil_bready(c_bar0_bready),
    .m_axil_araddr(c_bar0_araddr), .m_axil_arprot(unused_bar0_arprot), .m_axil_arvalid(c_bar0_arvalid),
    .m_axil_arready(c_bar0_arready),
    .m_axil_rdata(c_bar0_rdata), .m_axil_rresp(c_bar0_rresp), .m_axil_rvalid(c_bar0_rvalid),
    .m_axil_rready(c_bar0_rready)
);

// BAR2, core_clk side: froce_core's doorbell port has no AR/R; the splitter
// never reads BAR2 (BAR2_READ_ENABLE = 0), so the read channel stays empty
wire [DB_ADDR_W-1:0] c_db_awaddr, unused_db_araddr;
wire c_db_awvalid, c_db_awready, c_db_wvalid, c_db_wready, c_db_bvalid, c_db_bready;
wire unused_db_arvalid, unused_db_rready;
wire [63:0] c_db_wdata;
wire [7:0] c_db_wstrb;
wire [1:0] c_db_bresp;
wire [2:0] unused_db_awprot, unused_db_arprot;

froce_axil_cdc #(
    .ADDR_WIDTH(DB_ADDR_W),
    .DATA_WIDTH(64)
) u_db_cdc (
    .s_clk(pcie_clk),
    .s_rst(pcie_rst),
    .s_axil_awaddr(p_db_awaddr), .s_axil_awprot(3'b000), .s_axil_awvalid(p_db_awvalid),
    .s_axil_awready(p_db_awready),
    .s_axil_wdata(p_db_wdata), .s_axil_wstrb(p_db_wstrb), .s_axil_wvalid(p_db_wvalid),
    .s_axil_wready(p_db_wready),
    .s_axil_bresp(p_db_bresp), .s_axil_bvalid(p_db_bvalid), .s_axil_bready(p_db_bready),
    .s_axil_araddr(p_db_araddr), .s_axil_arprot(3'b000), .s_axil_arvalid(p_db_arvalid),
    .s_axil_arready(p_db_arready),
    .s_axil_rdata(p_db_rdata), .s_axil_rresp(p_db_rresp), .s_axil_rvalid(p_db_rvalid),
    .s_axil_rready(p_db_rready),
    .m_clk(core_clk),
    .m_rst(core_rst),
    .m_axil_awaddr(c_db_awaddr), .m_axil_awprot(unused_db_awprot), .m_axil_awvalid(c_db_awvalid),
    .m_axil_awready(c_db_awready),
    .m_axil_wdata(c_db_wdata), .m_axil_wstrb(c_db_wstrb), .m_axil_wvalid(c_db_wvalid),
    .m_axil_wready(c_db_wready),
    .m_axil_bresp(c_db_bresp), .m_axil_bvalid(c_db_bvalid), .m_axil_bready(c_db_bready),
    .m_axil_araddr(unused_db_araddr), .m_axil_arprot(unused_db_arprot), .m_axil_arvalid(unused_db_arvalid),
    .m_axil_arready(1'b1),
    .m_axil_rdata(64'd0), .m_axil_rresp(2'b00), .m_axil_rvalid(1'b0),
    .m_axil_rready(unused_db_rready)
);

/* ------------------------------------------------------------------------
 * froce_core
 * ------------------------------------------------------------------------ */

// DMA master (core_clk, 64-bit)
wire [AXI_ID_WIDTH-1:0] core_awid, core_bid, core_arid, core_rid;
wire [63:0] core_awaddr, core_araddr, core_wdata, core_rdata;
wire [7:0] core_awlen, core_arlen, core_wstrb;
wire [2:0] core_awsize, core_arsize, core_awprot, core_arprot;
wire [1:0] core_awburst, core_arburst, core_bresp, core_rresp;
wire [3:0] core_awcache, core_arcache;
wire core_awlock, core_arlock;
wire core_awvalid, core_awready, core_wlast, core_wvalid, core_wready, core_bvalid, core_bready;
wire core_arvalid, core_arready, core_rlast, core_rvalid, core_rready;

// Ethernet streams (core_clk)
wire [63:0] eth_tx_tdata, eth_rx_tdata;
wire [7:0] eth_tx_tkeep, eth_rx_tkeep;
wire eth_tx_tvalid, eth_tx_tready, eth_tx_tlast;
wire eth_rx_tvalid, eth_rx_tready, eth_rx_tlast;

// MSI-X
wire [4:0] msix_vector;
wire [63:0] msix_addr, msix_tbl_addr;
wire [31:0] msix_data, msix_tbl_data;
wire msix_valid, msix_ready;
wire [VW-1:0] msix_tbl_vector;
wire [NUM_VECTORS-1:0] msix_vec_mask, msix_pba;

wire link_up;
wire fw_console_valid;
wire [7:0] fw_console_data;

froce_core #(
    .DATA_WIDTH(64),
    .NUM_QPS(NUM_QPS),
    .NUM_CQS(NUM_CQS),
    .NUM_MRS(NUM_MRS),
    .NUM_MTT(NUM_MTT),
    .NUM_GIDS(NUM_GIDS),
    .NUM_UARS(NUM_UARS),
    .NUM_EQS(NUM_EQS),
    .NUM_VECTORS(NUM_VECTORS),
    .BUILD_ID(BUILD_ID),
    .MAC(MAC),
    .AXI_ID_WIDTH(AXI_ID_WIDTH),
    .FW_INIT_FILE(FW_INIT_FILE),
    .FW_RAM_ADDR_WIDTH(FW_RAM_ADDR_WIDTH),
    .CLK_HZ(CORE_CLK_HZ),
    .LINK_SPEED_GBPS(8'd10)
) u_core (
    .clk(core_clk),
    .rst(core_rst),
    .link_up(link_up),
    .fw_console_valid(fw_console_valid),
    .fw_console_data(fw_console_data),
    .s_axil_awaddr(c_bar0_awaddr), .s_axil_awvalid(c_bar0_awvalid), .s_axil_awready(c_bar0_awready),
    .s_axil_wdata(c_bar0_wdata), .s_axil_wstrb(c_bar0_wstrb), .s_axil_wvalid(c_bar0_wvalid),
    .s_axil_wready(c_bar0_wready), .s_axil_bresp(c_bar0_bresp), .s_axil_bvalid(c_bar0_bvalid),
    .s_axil_bready(c_bar0_bready),
    .s_axil_araddr(c_bar0_araddr), .s_axil_arvalid(c_bar0_arvalid), .s_axil_arready(c_bar0_arready),
    .s_axil_rdata(c_bar0_rdata), .s_axil_rresp(c_bar0_rresp), .s_axil_rvalid(c_bar0_rvalid),
    .s_axil_rready(c_bar0_rready),
    .s_axil_db_awaddr(c_db_awaddr), .s_axil_db_awvalid(c_db_awvalid), .s_axil_db_awready(c_db_awready),
    .s_axil_db_wdata(c_db_wdata), .s_axil_db_wstrb(c_db_wstrb), .s_axil_db_wvalid(c_db_wvalid),
    .s_axil_db_wready(c_db_wready), .s_axil_db_bresp(c_db_bresp), .s_axil_db_bvalid(c_db_bvalid),
    .s_axil_db_bready(c_db_bready),
    .m_axi_awid(core_awid), .m_axi_awaddr(core_awaddr), .m_axi_awlen(core_awlen), .m_axi_awsize(core_awsize),
    .m_axi_awburst(core_awburst), .m_axi_awlock(core_awlock), .m_axi_awcache(core_awcache),
    .m_axi_awprot(core_awprot), .m_axi_awvalid(core_awvalid), .m_axi_awready(core_awready),
    .m_axi_wdata(core_wdata), .m_axi_wstrb(core_wstrb), .m_axi_wlast(core_wlast),
    .m_axi_wvalid(core_wvalid), .m_axi_wready(core_wready),
    .m_axi_bid(core_bid), .m_axi_bresp(core_bresp), .m_axi_bvalid(core_bvalid), .m_axi_bready(core_bready),
    .m_axi_arid(core_arid), .m_axi_araddr(core_araddr), .m_axi_arlen(core_arlen), .m_axi_arsize(core_arsize),
    .m_axi_arburst(core_arburst), .m_axi_arlock(core_arlock), .m_axi_arcache(core_arcache),
    .m_axi_arprot(core_arprot), .m_axi_arvalid(core_arvalid), .m_axi_arready(core_arready),
    .m_axi_rid(core_rid), .m_axi_rdata(core_rdata), .m_axi_rresp(core_rresp), .m_axi_rlast(core_rlast),
    .m_axi_rvalid(core_rvalid), .m_axi_rready(core_rready),
    .s_eth_rx_tdata(eth_rx_tdata), .s_eth_rx_tkeep(eth_rx_tkeep), .s_eth_rx_tvalid(eth_rx_tvalid),
    .s_eth_rx_tready(eth_rx_tready), .s_eth_rx_tlast(eth_rx_tlast),
    .m_eth_tx_tdata(eth_tx_tdata), .m_eth_tx_tkeep(eth_tx_tkeep), .m_eth_tx_tvalid(eth_tx_tvalid),
    .m_eth_tx_tready(eth_tx_tready), .m_eth_tx_tlast(eth_tx_tlast),
    .m_msix_vector(msix_vector), .m_msix_addr(msix_addr), .m_msix_data(msix_data),
    .m_msix_valid(msix_valid), .m_msix_ready(msix_ready),
    .msix_tbl_vector({{(5 - VW){1'b0}}, msix_tbl_vector}), .msix_tbl_addr(msix_tbl_addr),
    .msix_tbl_data(msix_tbl_data), .msix_vec_mask(msix_vec_mask), .msix_pba_ext(msix_pba)
);

/* ------------------------------------------------------------------------
 * MSI-X emitter (core_clk) and the write arbiter in front of the upsizer
 * ------------------------------------------------------------------------ */

wire [1:0] msix_state;      // {function mask, enable} in core_clk

froce_sync_bit #(
    .WIDTH(2)
) u_msix_state_sync (
    .clk(core_clk),
    .d({msix_func_mask, msix_enable}),
    .q(msix_state)
);

wire [AXI_ID_WIDTH-1:0] mx_awid, mx_bid;
wire [63:0] mx_awaddr, mx_wdata;
wire [7:0] mx_awlen, mx_wstrb;
wire [2:0] mx_awsize, mx_awprot;
wire [1:0] mx_awburst, mx_bresp;
wire [3:0] mx_awcache;
wire mx_awlock, mx_awvalid, mx_awready, mx_wlast, mx_wvalid, mx_wready, mx_bvalid, mx_bready;
wire mx_sent_valid;
wire [VW-1:0] mx_sent_vector;

froce_msix_emitter #(
    .NUM_VECTORS(NUM_VECTORS),
    .DATA_WIDTH(64),
    .ID_WIDTH(AXI_ID_WIDTH),
    .AXI_ID(MSIX_AXI_ID),
    .DMA_ID_WIDTH(AXI_ID_WIDTH),
    .DMA_OUT_WIDTH(8),
    .TBL_LATENCY(0)
) u_msix (
    .clk(core_clk),
    .rst(core_rst),
    .s_req_valid(msix_valid),
    .s_req_ready(msix_ready),
    .s_req_vector(msix_vector[VW-1:0]),
    .s_req_addr(msix_addr),
    .s_req_data(msix_data),
    .msix_enable(msix_state[0]),
    .msix_func_mask(msix_state[1]),
    .vec_mask(msix_vec_mask),
    .tbl_vector(msix_tbl_vector),
    .tbl_addr(msix_tbl_addr),
    .tbl_data(msix_tbl_data),
    .dma_aw_fire(core_awvalid && core_awready),
    .dma_aw_id(core_awid),
    .dma_b_fire(core_bvalid && core_bready),
    .dma_b_id(core_bid),
    .pba(msix_pba),
    .sent_valid(mx_sent_valid),
    .sent_vector(mx_sent_vector),
    .m_axi_awid(mx_awid), .m_axi_awaddr(mx_awaddr), .m_axi_awlen(mx_awlen), .m_axi_awsize(mx_awsize),
    .m_axi_awburst(mx_awburst), .m_axi_awlock(mx_awlock), .m_axi_awcache(mx_awcache),
    .m_axi_awprot(mx_awprot), .m_axi_awvalid(mx_awvalid), .m_axi_awready(mx_awready),
    .m_axi_wdata(mx_wdata), .m_axi_wstrb(mx_wstrb), .m_axi_wlast(mx_wlast),
    .m_axi_wvalid(mx_wvalid), .m_axi_wready(mx_wready),
    .m_axi_bid(mx_bid), .m_axi_bresp(mx_bresp), .m_axi_bvalid(mx_bvalid), .m_axi_bready(mx_bready)
);

// merged writes (core_clk, 64-bit)
wire [AXI_ID_WIDTH-1:0] wa_awid, wa_bid;
wire [63:0] wa_awaddr, wa_wdata;
wire [7:0] wa_awlen, wa_wstrb;
wire [2:0] wa_awsize, wa_awprot;
wire [1:0] wa_awburst, wa_bresp;
wire [3:0] wa_awcache;
wire wa_awlock, wa_awvalid, wa_awready, wa_wlast, wa_wvalid, wa_wready, wa_bvalid, wa_bready;

froce_axi_wr_arb #(
    .DATA_WIDTH(64),
    .ADDR_WIDTH(64),
    .ID_WIDTH(AXI_ID_WIDTH),
    .FIFO_DEPTH(4)
) u_wr_arb (
    .clk(core_clk),
    .rst(core_rst),
    .s0_axi_awid(core_awid), .s0_axi_awaddr(core_awaddr), .s0_axi_awlen(core_awlen),
    .s0_axi_awsize(core_awsize), .s0_axi_awburst(core_awburst), .s0_axi_awlock(core_awlock),
    .s0_axi_awcache(core_awcache), .s0_axi_awprot(core_awprot),
    .s0_axi_awvalid(core_awvalid), .s0_axi_awready(core_awready),
    .s0_axi_wdata(core_wdata), .s0_axi_wstrb(core_wstrb), .s0_axi_wlast(core_wlast),
    .s0_axi_wvalid(core_wvalid), .s0_axi_wready(core_wready),
    .s0_axi_bid(core_bid), .s0_axi_bresp(core_bresp), .s0_axi_bvalid(core_bvalid), .s0_axi_bready(core_bready),
    .s1_axi_awid(mx_awid), .s1_axi_awaddr(mx_awaddr), .s1_axi_awlen(mx_awlen),
    .s1_axi_awsize(mx_awsize), .s1_axi_awburst(mx_awburst), .s1_axi_awlock(mx_awlock),
    .s1_axi_awcache(mx_awcache), .s1_axi_awprot(mx_awprot),
    .s1_axi_awvalid(mx_awvalid), .s1_axi_awready(mx_awready),
    .s1_axi_wdata(mx_wdata), .s1_axi_wstrb(mx_wstrb), .s1_axi_wlast(mx_wlast),
    .s1_axi_wvalid(mx_wvalid), .s1_axi_wready(mx_wready),
    .s1_axi_bid(mx_bid), .s1_axi_bresp(mx_bresp), .s1_axi_bvalid(mx_bvalid), .s1_axi_bready(mx_bready),
    .m_axi_awid(wa_awid), .m_axi_awaddr(wa_awaddr), .m_axi_awlen(wa_awlen), .m_axi_awsize(wa_awsize),
    .m_axi_awburst(wa_awburst), .m_axi_awlock(wa_awlock), .m_axi_awcache(wa_awcache),
    .m_axi_awprot(wa_awprot), .m_axi_awvalid(wa_awvalid), .m_axi_awready(wa_awready),
    .m_axi_wdata(wa_wdata), .m_axi_wstrb(wa_wstrb), .m_axi_wlast(wa_wlast),
    .m_axi_wvalid(wa_wvalid), .m_axi_wready(wa_wready),
    .m_axi_bid(wa_bid), .m_axi_bresp(wa_bresp), .m_axi_bvalid(wa_bvalid), .m_axi_bready(wa_bready)
);

/* ------------------------------------------------------------------------
 * DMA: 64 -> 256 bits (core_clk), then core_clk -> pcie_clk
 * ------------------------------------------------------------------------ */

wire [AXI_ID_WIDTH-1:0] up_awid, up_bid, up_arid, up_rid;
wire [63:0] up_awaddr, up_araddr;
wire [255:0] up_wdata, up_rdata;
wire [31:0] up_wstrb;
wire [7:0] up_awlen, up_arlen;
wire [2:0] up_awsize, up_arsize, up_awprot, up_arprot;
wire [1:0] up_awburst, up_arburst, up_bresp, up_rresp;
wire [3:0] up_awcache, up_arcache;
wire up_awlock, up_arlock;
wire up_awvalid, up_awready, up_wlast, up_wvalid, up_wready, up_bvalid, up_bready;
wire up_arvalid, up_arready, up_rlast, up_rvalid, up_rready;

froce_axi_upsize #(
    .S_DATA_WIDTH(64),
    .M_DATA_WIDTH(256),
    .ADDR_WIDTH(64),
    .ID_WIDTH(AXI_ID_WIDTH)
) u_upsize (
    .clk(core_clk),
    .rst(core_rst),
    .s_axi_awid(wa_awid), .s_axi_awaddr(wa_awaddr), .s_axi_awlen(wa_awlen), .s_axi_awsize(wa_awsize),
    .s_axi_awburst(wa_awburst), .s_axi_awlock(wa_awlock), .s_axi_awcache(wa_awcache),
    .s_axi_awprot(wa_awprot), .s_axi_awvalid(wa_awvalid), .s_axi_awready(wa_awready),
    .s_axi_wdata(wa_wdata), .s_axi_wstrb(wa_wstrb), .s_axi_wlast(wa_wlast),
    .s_axi_wvalid(wa_wvalid), .s_axi_wready(wa_wready),
    .s_axi_bid(wa_bid), .s_axi_bresp(wa_bresp), .s_axi_bvalid(wa_bvalid), .s_axi_bready(wa_bready),
    .s_axi_arid(core_arid), .s_axi_araddr(core_araddr), .s_axi_arlen(core_arlen), .s_axi_arsize(core_arsize),
    .s_axi_arburst(core_arburst), .s_axi_arlock(core_arlock), .s_axi_arcache(core_arcache),
    .s_axi_arprot(core_arprot), .s_axi_arvalid(core_arvalid), .s_axi_arready(core_arready),
    .s_axi_rid(core_rid), .s_axi_rdata(core_rdata), .s_axi_rresp(core_rresp), .s_axi_rlast(core_rlast),
    .s_axi_rvalid(core_rvalid), .s_axi_rready(core_rready),
    .m_axi_awid(up_awid), .m_axi_awaddr(up_awaddr), .m_axi_awlen(up_awlen), .m_axi_awsize(up_awsize),
    .m_axi_awburst(up_awburst), .m_axi_awlock(up_awlock), .m_axi_awcache(up_awcache),
    .m_axi_awprot(up_awprot), .m_axi_awvalid(up_awvalid), .m_axi_awready(up_awready),
    .m_axi_wdata(up_wdata), .m_axi_wstrb(up_wstrb), .m_axi_wlast(up_wlast),
    .m_axi_wvalid(up_wvalid), .m_axi_wready(up_wready),
    .m_axi_bid(up_bid), .m_axi_bresp(up_bresp), .m_axi_bvalid(up_bvalid), .m_axi_bready(up_bready),
    .m_axi_arid(up_arid), .m_axi_araddr(up_araddr), .m_axi_arlen(up_arlen), .m_axi_arsize(up_arsize),
    .m_axi_arburst(up_arburst), .m_axi_arlock(up_arlock), .m_axi_arcache(up_arcache),
    .m_axi_arprot(up_arprot), .m_axi_arvalid(up_arvalid), .m_axi_arready(up_arready),
    .m_axi_rid(up_rid), .m_axi_rdata(up_rdata), .m_axi_rresp(up_rresp), .m_axi_rlast(up_rlast),
    .m_axi_rvalid(up_rvalid), .m_axi_rready(up_rready)
);

wire unused_dma_awlock, unused_dma_arlock;
wire [3:0] unused_dma_awcache, unused_dma_arcache, unused_dma_awqos, unused_dma_arqos;
wire [2:0] unused_dma_awprot, unused_dma_arprot;

froce_axi_cdc #(
    .ADDR_WIDTH(64),
    .DATA_WIDTH(256),
    .ID_WIDTH(AXI_ID_WIDTH)
) u_dma_cdc (
    .s_clk(core_clk),
    .s_rst(core_rst),
    .s_axi_awid(up_awid), .s_axi_awaddr(up_awaddr), .s_axi_awlen(up_awlen), .s_axi_awsize(up_awsize),
    .s_axi_awburst(up_awburst), .s_axi_awlock(up_awlock), .s_axi_awcache(up_awcache),
    .s_axi_awprot(up_awprot), .s_axi_awqos(4'd0), .s_axi_awvalid(up_awvalid), .s_axi_awready(up_awready),
    .s_axi_wdata(up_wdata), .s_axi_wstrb(up_wstrb), .s_axi_wlast(up_wlast),
    .s_axi_wvalid(up_wvalid), .s_axi_wready(up_wready),
    .s_axi_bid(up_bid), .s_axi_bresp(up_bresp), .s_axi_bvalid(up_bvalid), .s_axi_bready(up_bready),
    .s_axi_arid(up_arid), .s_axi_araddr(up_araddr), .s_axi_arlen(up_arlen), .s_axi_arsize(up_arsize),
    .s_axi_arburst(up_arburst), .s_axi_arlock(up_arlock), .s_axi_arcache(up_arcache),
    .s_axi_arprot(up_arprot), .s_axi_arqos(4'd0), .s_axi_arvalid(up_arvalid), .s_axi_arready(up_arready),
    .s_axi_rid(up_rid), .s_axi_rdata(up_rdata), .s_axi_rresp(up_rresp), .s_axi_rlast(up_rlast),
    .s_axi_rvalid(up_rvalid), .s_axi_rready(up_rready),
    .m_clk(pcie_clk),
    .m_rst(pcie_rst),
    .m_axi_awid(m_axi_dma_awid), .m_axi_awaddr(m_axi_dma_awaddr), .m_axi_awlen(m_axi_dma_awlen),
    .m_axi_awsize(m_axi_dma_awsize), .m_axi_awburst(m_axi_dma_awburst), .m_axi_awlock(unused_dma_awlock),
    .m_axi_awcache(unused_dma_awcache), .m_axi_awprot(unused_dma_awprot), .m_axi_awqos(unused_dma_awqos),
    .m_axi_awvalid(m_axi_dma_awvalid), .m_axi_awready(m_axi_dma_awready),
    .m_axi_wdata(m_axi_dma_wdata), .m_axi_wstrb(m_axi_dma_wstrb), .m_axi_wlast(m_axi_dma_wlast),
    .m_axi_wvalid(m_axi_dma_wvalid), .m_axi_wready(m_axi_dma_wready),
    .m_axi_bid(m_axi_dma_bid), .m_axi_bresp(m_axi_dma_bresp), .m_axi_bvalid(m_axi_dma_bvalid),
    .m_axi_bready(m_axi_dma_bready),
    .m_axi_arid(m_axi_dma_arid), .m_axi_araddr(m_axi_dma_araddr), .m_axi_arlen(m_axi_dma_arlen),
    .m_axi_arsize(m_axi_dma_arsize), .m_axi_arburst(m_axi_dma_arburst), .m_axi_arlock(unused_dma_arlock),
    .m_axi_arcache(unused_dma_arcache), .m_axi_arprot(unused_dma_arprot), .m_axi_arqos(unused_dma_arqos),
    .m_axi_arvalid(m_axi_dma_arvalid), .m_axi_arready(m_axi_dma_arready),
    .m_axi_rid(m_axi_dma_rid), .m_axi_rdata(m_axi_dma_rdata), .m_axi_rresp(m_axi_dma_rresp),
    .m_axi_rlast(m_axi_dma_rlast), .m_axi_rvalid(m_axi_dma_rvalid), .m_axi_rready(m_axi_dma_rready)
);

/* ------------------------------------------------------------------------
 * Ethernet: MAC and PCS, the RX crossing into core_clk
 * ------------------------------------------------------------------------ */

wire [63:0] xgmii_txd, xgmii_rxd;
wire [7:0] xgmii_txc, xgmii_rxc;
wire [63:0] mac_rx_tdata;
wire [7:0] mac_rx_tkeep;
wire mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;

// counters: not in BAR0 yet (froce_core counts frames itself)
wire [31:0] tx_frames, tx_aborted, tx_oversize, tx_underrun, tx_fifo_dropped;
wire [63:0] tx_bytes, rx_bytes_ok;
wire [31:0] rx_frames_ok, rx_bad_fcs, rx_err_char, rx_runt, rx_oversize, rx_bad_preamble;

froce_eth_mac_10g #(
    .MAX_FRAME(9600),
    .ENABLE_DIC(1),
    .TX_FIFO_BYTES(16384)
) u_mac (
    .tx_clk(core_clk),
    .tx_rst(core_rst),
    .rx_clk(rx_clk),
    .rx_rst(rx_rst),
    .s_axis_tdata(eth_tx_tdata),
    .s_axis_tkeep(eth_tx_tkeep),
    .s_axis_tvalid(eth_tx_tvalid),
    .s_axis_tready(eth_tx_tready),
    .s_axis_tlast(eth_tx_tlast),
    .s_axis_tuser(1'b0),
    .xgmii_txd(xgmii_txd),
    .xgmii_txc(xgmii_txc),
    .xgmii_rxd(xgmii_rxd),
    .xgmii_rxc(xgmii_rxc),
    .m_axis_tdata(mac_rx_tdata),
    .m_axis_tkeep(mac_rx_tkeep),
    .m_axis_tvalid(mac_rx_tvalid),
    .m_axis_tlast(mac_rx_tlast),
    .m_axis_tuser(mac_rx_tuser),
    .tx_frames(tx_frames),
    .tx_bytes(tx_bytes),
    .tx_aborted(tx_aborted),
    .tx_oversize(tx_oversize),
    .tx_underrun(tx_underrun),
    .tx_fifo_dropped(tx_fifo_dropped),
    .rx_frames_ok(rx_frames_ok),
    .rx_bytes_ok(rx_bytes_ok),
    .rx_bad_fcs(rx_bad_fcs),
    .rx_err_char(rx_err_char),
    .rx_runt(rx_runt),
    .rx_oversize(rx_oversize),
    .rx_bad_preamble(rx_bad_preamble)
);

wire pcs_tx_bad_block, pcs_block_lock, pcs_hi_ber, pcs_link_up;
wire [31:0] pcs_sync_errors, pcs_block_errors, pcs_lock_losses;

froce_eth_pcs_10g #(
    .BIT_REVERSE(PCS_BIT_REVERSE),
    .SLIP_WAIT(PCS_SLIP_WAIT)
) u_pcs (
    .tx_clk(core_clk),
    .tx_rst(core_rst),
    .xgmii_txd(xgmii_txd),
    .xgmii_txc(xgmii_txc),
    .serdes_tx_data(serdes_tx_data),
    .serdes_tx_hdr(serdes_tx_hdr),
    .tx_bad_block(pcs_tx_bad_block),
    .rx_clk(rx_clk),
    .rx_rst(rx_rst),
    .serdes_rx_data(serdes_rx_data),
    .serdes_rx_hdr(serdes_rx_hdr),
    .serdes_rx_bitslip(serdes_rx_bitslip),
    .xgmii_rxd(xgmii_rxd),
    .xgmii_rxc(xgmii_rxc),
    .rx_block_lock(pcs_block_lock),
    .rx_hi_ber(pcs_hi_ber),
    .rx_link_up(pcs_link_up),
    .rx_sync_errors(pcs_sync_errors),
    .rx_block_errors(pcs_block_errors),
    .rx_lock_losses(pcs_lock_losses)
);

wire [31:0] rx_fifo_bad_dropped, rx_fifo_full_dropped;
wire unused_rx_fifo_tready;

froce_async_frame_fifo #(
    .DEPTH_BYTES(16384),
    .DROP_FULL(1)
) u_rx_fifo (
    .s_clk(rx_clk),
    .s_rst(rx_rst),
    .s_axis_tdata(mac_rx_tdata),
    .s_axis_tkeep(mac_rx_tkeep),
    .s_axis_tvalid(mac_rx_tvalid),
    .s_axis_tready(unused_rx_fifo_tready),
    .s_axis_tlast(mac_rx_tlast),
    .s_axis_tuser(mac_rx_tuser),
    .m_clk(core_clk),
    .m_rst(core_rst),
    .m_axis_tdata(eth_rx_tdata),
    .m_axis_tkeep(eth_rx_tkeep),
    .m_axis_tvalid(eth_rx_tvalid),
    .m_axis_tready(eth_rx_tready),
    .m_axis_tlast(eth_rx_tlast),
    .rx_fifo_bad_dropped(rx_fifo_bad_dropped),
    .rx_fifo_full_dropped(rx_fifo_full_dropped)
);

// PCS link (rx_clk) and QSFP inputs (asynchronous pins) into core_clk
wire [2:0] status_sync;

froce_sync_bit #(
    .WIDTH(3)
) u_status_sync (
    .clk(core_clk),
    .d({~qsfp_intl, ~qsfp_modprsl, pcs_link_up}),
    .q(status_sync)
);

assign link_up = status_sync[0];
assign qsfp_present = status_sync[1];
assign qsfp_int = status_sync[2];

/* ------------------------------------------------------------------------
 * LEDs and QSFP control
 * ------------------------------------------------------------------------ */

reg [LED_STRETCH_BITS-1:0] act_count_reg = {LED_STRETCH_BITS{1'b0}};
wire frame_seen = (eth_tx_tvalid && eth_tx_tready && eth_tx_tlast) ||
                  (eth_rx_tvalid && eth_rx_tready && eth_rx_tlast);

always @(posedge core_clk) begin
    if (frame_seen)
        act_count_reg <= {LED_STRETCH_BITS{1'b1}};
    else if (act_count_reg != {LED_STRETCH_BITS{1'b0}})
        act_count_reg <= act_count_reg - 1'b1;
    if (core_rst)
        act_count_reg <= {LED_STRETCH_BITS{1'b0}};
end

assign led_link = link_up;
assign led_act = act_count_reg != {LED_STRETCH_BITS{1'b0}};

reg qsfp_resetl_reg = 1'b0;

always @(posedge pcie_clk)
    qsfp_resetl_reg <= !pcie_rst;

assign qsfp_resetl = qsfp_resetl_reg;
assign qsfp_lpmode = 1'b0;
assign qsfp_modsell = 1'b1;

// deliberately unused: the console (no UART on this top yet), counters not
// exported, fields the XDMA slave does not take
wire unused = ^{fw_console_valid, fw_console_data, mx_sent_valid, mx_sent_vector, msix_vector,
                unused_bar0_awprot, unused_bar0_arprot, unused_db_araddr, unused_db_arvalid, unused_db_rready,
                unused_db_awprot, unused_db_arprot, unused_dma_awlock, unused_dma_arlock,
                unused_dma_awcache, unused_dma_arcache, unused_dma_awqos, unused_dma_arqos,
                unused_dma_awprot, unused_dma_arprot, unused_rx_fifo_tready,
                tx_frames, tx_bytes, tx_aborted, tx_oversize, tx_underrun, tx_fifo_dropped,
                rx_frames_ok, rx_bytes_ok, rx_bad_fcs, rx_err_char, rx_runt, rx_oversize, rx_bad_preamble,
                pcs_tx_bad_block, pcs_block_lock, pcs_hi_ber, pcs_sync_errors, pcs_block_errors,
                pcs_lock_losses, rx_fifo_bad_dropped, rx_fifo_full_dropped};

endmodule

`resetall
