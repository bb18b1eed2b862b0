// SPDX-License-Identifier: MIT
// ECPIX-5 board core, vendor-free: froce_core, the UART host link with its host-memory RAM, the 1 GbE RGMII MAC with its clock crossings, the PHY's MDIO link poller, LEDs.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * Everything of the board that is not an ECP5 primitive: fpga.v wraps this
 * with the PLL, the reset, the RGMII input delays and the DDR I/O registers
 * (froce_iddr/froce_oddr of fpga/common/rtl/ecp5, which the MAC
 * instantiates), the MDIO tristate buffer and the LED polarity; this module
 * is what Verilator, Icarus and Yosys see, and what the board simulator
 * (sim/ecpix5) runs.
 *
 * Clocks (each with a reset synchronous to it, made in fpga.v):
 *
 *   core_clk   froce_core, the UART host link, the MDIO poller (CORE_CLK_HZ)
 *   gtx_clk    125 MHz: RGMII transmit (MAC TX)
 *   gtx_clk90  gtx_clk + 90 degrees (only with RGMII_USE_CLK90 = 1)
 *   rx_clk     125 MHz from the PHY (out of the MAC): MAC RX
 *
 * Host path: the PC -> USB UART (FT2232H channel B) -> froce_uart_host
 * (fpga/common/host/README.md) -> froce_core BAR0 and BAR2; froce_core's DMA
 * master -> the bridge's RAM, which is the "host memory" the host program
 * reads and writes over the same link, at DMA addresses [MEM_BASE,
 * MEM_BASE + 2^MEM_ADDR_WIDTH). MSI-X requests become interrupt frames on
 * the UART; there is no PCI function to mask them, so the emitter's table
 * port and PBA are unused (froce_core's own masks still apply).
 *
 * Ethernet: froce_core m_eth_tx (core_clk) -> froce_async_frame_fifo
 * (store-and-forward, waits when full: the MAC must get a whole frame at
 * wire speed once it starts) -> froce_eth_mac_1g_rgmii TX (gtx_clk) ->
 * RGMII; RGMII -> MAC RX (rx_clk) -> froce_async_frame_fifo (drops bad and
 * overflowing frames) -> froce_core s_eth_rx (core_clk).
 *
 * Link: froce_mdio_link reads the PHY's BMSR every ~10 ms; its link bit is
 * froce_core's link_up. The MAC runs at 1000 Mb/s only: a partner that
 * negotiates 100 Mb/s shows a link on which nothing arrives.
 *
 * PHY reset: phy_rst_n is held low for 2^PHY_RESET_BITS core_clk cycles
 * after core_rst (10.5 ms at 100 MHz and 20: the RTL8211 family asks for
 * 10 ms), then released.
 *
 * LEDs (active high here; fpga.v maps them to the board's polarity):
 *   led_link      the PHY reports a link
 *   led_act       a frame sent or received in the last 2^LED_STRETCH_BITS cycles
 *   led_host      a UART request or interrupt frame in the last 2^LED_STRETCH_BITS cycles
 *   led_alive     blinks while core_clk runs (the PLL locked, out of reset)
 */
module fpga_core #(
    parameter NUM_QPS = 64,             // froce_core: QP contexts, a power of two
    parameter NUM_CQS = 64,             // froce_core: CQ contexts, a power of two
    parameter NUM_MRS = 256,            // froce_core: MR table entries
    parameter NUM_MTT = 4096,           // froce_core: MTT entries
    parameter NUM_GIDS = 16,            // froce_core: GID table entries
    parameter NUM_UARS = 16,            // froce_core: UAR pages (BAR2 = NUM_UARS x 4 KiB)
    parameter NUM_EQS = 4,              // froce_core: event queues
    parameter NUM_VECTORS = 8,          // interrupt vectors, 1..32
    parameter [31:0] BUILD_ID = 32'd0,  // BAR0 BUILD_ID, also the link's INFO USER_ID
    parameter [47:0] MAC = 48'd0,       // BAR0 permanent MAC, 0 = none (the host program sets one)
    parameter FW_INIT_FILE = "",        // firmware image ($readmemh), build/firmware/froce-fw.hex
    parameter FW_RAM_ADDR_WIDTH = 14,   // soft-core RAM: 2**FW_RAM_ADDR_WIDTH words (14: 64 KiB)
    parameter CORE_CLK_HZ = 100000000,  // core_clk frequency
    parameter BAUD = 3000000,           // UART bit rate (FT2232H: up to 12 Mbaud; CORE_CLK_HZ >= 4 * BAUD)
    parameter MEM_ADDR_WIDTH = 16,      // host memory 2^N bytes (16: 64 KiB, 32 DP16KD)
    parameter [63:0] MEM_BASE = 64'h0000000100000000, // its DMA address (above 4 GiB, like a PC's)
    parameter RGMII_USE_CLK90 = 0,      // 1: forward TXC from gtx_clk90; 0: the PHY delays TXC (RGMII-ID)
    parameter [4:0] PHY_ADDR = 5'd0,    // the PHY's MDIO address
    parameter MDIO_POLL_CYCLES = CORE_CLK_HZ / 100,    // 10 ms
    parameter PHY_RESET_BITS = 20,      // PHY reset held 2^PHY_RESET_BITS core_clk cycles
    parameter LED_STRETCH_BITS = 22     // LED on time after an event: 2^LED_STRETCH_BITS core_clk cycles
) (
    /* Clocks and resets (each reset synchronous to its clock, active high) */
    input  wire                         core_clk,
    input  wire                         core_rst,
    input  wire                         gtx_clk,
    input  wire                         gtx_clk90,
    input  wire                         gtx_rst,

    /* USB UART, from the host's point of view: uart_rxd is what the host sends */
    input  wire                         uart_rxd,
    output wire                         uart_txd,

    /* RGMII (rxd/rx_ctl already through the board's input delays) */
    input  wire                         rgmii_rx_clk,
    input  wire [3:0]                   rgmii_rxd,
    input  wire                         rgmii_rx_ctl,
    output wire                         rgmii_tx_clk,
    output wire [3:0]                   rgmii_txd,
    output wire                         rgmii_tx_ctl,

    /* PHY management */
    output wire                         phy_rst_n,
    output wire                         phy_mdc,
    input  wire                         phy_mdio_i,
    output wire                         phy_mdio_o,
    output wire                         phy_mdio_t,

    /* LEDs, active high */
    output wire                         led_link,
    output wire                         led_act,
    output wire                         led_host,
    output wire                         led_alive
);

localparam DATA_WIDTH = 64;
localparam AXI_ID_WIDTH = 4;
localparam DB_ADDR_W = `FROCE_UAR_PAGE_SHIFT + $clog2(NUM_UARS);

/* ------------------------------------------------------------------------
 * froce_core
 * ------------------------------------------------------------------------ */

wire link_up;

// BAR0 (AXI4-Lite, 32-bit) and BAR2 (doorbells, 64-bit, write only)
wire [`FROCE_BAR0_ADDR_W-1:0] bar0_awaddr, bar0_araddr;
wire bar0_awvalid, bar0_awready, bar0_wvalid, bar0_wready, bar0_bvalid, bar0_bready;
wire bar0_arvalid, bar0_arready, bar0_rvalid, bar0_rready;
wire [31:0] bar0_wdata, bar0_rdata;
wire [3:0] bar0_wstrb;
wire [1:0] bar0_bresp, bar0_rresp;

wire [DB_ADDR_W-1:0] db_awaddr;
wire db_awvalid, db_awready, db_wvalid, db_wready, db_bvalid, db_bready;
wire [63:0] db_wdata;
wire [7:0] db_wstrb;
wire [1:0] db_bresp;

// DMA (AXI4, 64-bit) to the host-memory RAM
wire [AXI_ID_WIDTH-1:0] dma_awid, dma_bid, dma_arid, dma_rid;
wire [63:0] dma_awaddr, dma_araddr;
wire [7:0] dma_awlen, dma_arlen;
wire [2:0] dma_awsize, dma_arsize, dma_awprot, dma_arprot;
wire [1:0] dma_awburst, dma_arburst, dma_bresp, dma_rresp;
wire dma_awlock, dma_arlock;
wire [3:0] dma_awcache, dma_arcache;
wire dma_awvalid, dma_awready, dma_wlast, dma_wvalid, dma_wready, dma_bvalid, dma_bready;
wire dma_arvalid, dma_arready, dma_rlast, dma_rvalid, dma_rready;
wire [63:0] dma_wdata, dma_rdata;
wire [7:0] dma_wstrb;

// Ethernet frame ports (core_clk)
wire [63:0] eth_rx_tdata, eth_tx_tdata;
wire [7:0] eth_rx_tkeep, eth_tx_tkeep;
wire eth_rx_tvalid, eth_rx_tready, eth_rx_tlast;
wire eth_tx_tvalid, eth_tx_tready, eth_tx_tlast;

// interrupts
wire [4:0] msix_vector;
wire msix_valid, msix_ready;
wire [63:0] msix_addr, msix_tbl_addr;
wire [31:0] msix_data, msix_tbl_data;
wire [NUM_VECTORS-1:0] msix_vec_mask;

wire fw_console_valid;
wire [7:0] fw_console_data;

froce_core #(
    .DATA_WIDTH(DATA_WIDTH),
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
    .LINK_SPEED_GBPS(8'd1)
) u_core (
    .clk(core_clk),
    .rst(core_rst),
    .link_up(link_up),
    .fw_console_valid(fw_console_valid),
    .fw_console_data(fw_console_data),
    .s_axil_awaddr(bar0_awaddr), .s_axil_awvalid(bar0_awvalid), .s_axil_awready(bar0_awready),
    .s_axil_wdata(bar0_wdata), .s_axil_wstrb(bar0_wstrb), .s_axil_wvalid(bar0_wvalid),
    .s_axil_wready(bar0_wready), .s_axil_bresp(bar0_bresp), .s_axil_bvalid(bar0_bvalid),
    .s_axil_bready(bar0_bready), .s_axil_araddr(bar0_araddr), .s_axil_arvalid(bar0_arvalid),
    .s_axil_arready(bar0_arready), .s_axil_rdata(bar0_rdata), .s_axil_rresp(bar0_rresp),
    .s_axil_rvalid(bar0_rvalid), .s_axil_rready(bar0_rready),
    .s_axil_db_awaddr(db_awaddr), .s_axil_db_awvalid(db_awvalid), .s_axil_db_awready(db_awready),
    .s_axil_db_wdata(db_wdata), .s_axil_db_wstrb(db_wstrb), .s_axil_db_wvalid(db_wvalid),
    .s_axil_db_wready(db_wready), .s_axil_db_bresp(db_bresp), .s_axil_db_bvalid(db_bvalid),
    .s_axil_db_bready(db_bready),
    .m_axi_awid(dma_awid), .m_axi_awaddr(dma_awaddr), .m_axi_awlen(dma_awlen), .m_axi_awsize(dma_awsize),
    .m_axi_awburst(dma_awburst), .m_axi_awlock(dma_awlock), .m_axi_awcache(dma_awcache),
    .m_axi_awprot(dma_awprot), .m_axi_awvalid(dma_awvalid), .m_axi_awready(dma_awready),
    .m_axi_wdata(dma_wdata), .m_axi_wstrb(dma_wstrb), .m_axi_wlast(dma_wlast), .m_axi_wvalid(dma_wvalid),
    .m_axi_wready(dma_wready), .m_axi_bid(dma_bid), .m_axi_bresp(dma_bresp), .m_axi_bvalid(dma_bvalid),
    .m_axi_bready(dma_bready),
    .m_axi_arid(dma_arid), .m_axi_araddr(dma_araddr), .m_axi_arlen(dma_arlen), .m_axi_arsize(dma_arsize),
    .m_axi_arburst(dma_arburst), .m_axi_arlock(dma_arlock), .m_axi_arcache(dma_arcache),
    .m_axi_arprot(dma_arprot), .m_axi_arvalid(dma_arvalid), .m_axi_arready(dma_arready),
    .m_axi_rid(dma_rid), .m_axi_rdata(dma_rdata), .m_axi_rresp(dma_rresp), .m_axi_rlast(dma_rlast),
    .m_axi_rvalid(dma_rvalid), .m_axi_rready(dma_rready),
    .s_eth_rx_tdata(eth_rx_tdata), .s_eth_rx_tkeep(eth_rx_tkeep), .s_eth_rx_tvalid(eth_rx_tvalid),
    .s_eth_rx_tready(eth_rx_tready), .s_eth_rx_tlast(eth_rx_tlast),
    .m_eth_tx_tdata(eth_tx_tdata), .m_eth_tx_tkeep(eth_tx_tkeep), .m_eth_tx_tvalid(eth_tx_tvalid),
    .m_eth_tx_tready(eth_tx_tready), .m_eth_tx_tlast(eth_tx_tlast),
    .m_msix_vector(msix_vector), .m_msix_addr(msix_addr), .m_msix_data(msix_data),
    .m_msix_valid(msix_valid), .m_msix_ready(msix_ready),
    .msix_tbl_vector(5'd0), .msix_tbl_addr(msix_tbl_addr), .msix_tbl_data(msix_tbl_data),
    .msix_vec_mask(msix_vec_mask), .msix_pba_ext({NUM_VECTORS{1'b0}})
);

/* ------------------------------------------------------------------------
 * Host link: UART bridge + host-memory RAM
 * ------------------------------------------------------------------------ */

froce_uart_host #(
    .CLK_HZ(CORE_CLK_HZ),
    .BAUD(BAUD),
    .BAR0_ADDR_WIDTH(`FROCE_BAR0_ADDR_W),
    .BAR2_ADDR_WIDTH(DB_ADDR_W),
    .MEM_ADDR_WIDTH(MEM_ADDR_WIDTH),
    .MEM_BASE(MEM_BASE),
    .NUM_VECTORS(NUM_VECTORS),
    .ID_WIDTH(AXI_ID_WIDTH),
    .USER_ID(BUILD_ID)
) u_host (
    .clk(core_clk),
    .rst(core_rst),
    .uart_rxd(uart_rxd),
    .uart_txd(uart_txd),
    .m_axil_awaddr(bar0_awaddr), .m_axil_awvalid(bar0_awvalid), .m_axil_awready(bar0_awready),
    .m_axil_wdata(bar0_wdata), .m_axil_wstrb(bar0_wstrb), .m_axil_wvalid(bar0_wvalid),
    .m_axil_wready(bar0_wready), .m_axil_bresp(bar0_bresp), .m_axil_bvalid(bar0_bvalid),
    .m_axil_bready(bar0_bready), .m_axil_araddr(bar0_araddr), .m_axil_arvalid(bar0_arvalid),
    .m_axil_arready(bar0_arready), .m_axil_rdata(bar0_rdata), .m_axil_rresp(bar0_rresp),
    .m_axil_rvalid(bar0_rvalid), .m_axil_rready(bar0_rready),
    .m_axil_db_awaddr(db_awaddr), .m_axil_db_awvalid(db_awvalid), .m_axil_db_awready(db_awready),
    .m_axil_db_wdata(db_wdata), .m_axil_db_wstrb(db_wstrb), .m_axil_db_wvalid(db_wvalid),
    .m_axil_db_wready(db_wready), .m_axil_db_bresp(db_bresp), .m_axil_db_bvalid(db_bvalid),
    .m_axil_db_bready(db_bready),
    .s_axi_awid(dma_awid), .s_axi_awaddr(dma_awaddr), .s_axi_awlen(dma_awlen), .s_axi_awsize(dma_awsize),
    .s_axi_awburst(dma_awburst), .s_axi_awlock(dma_awlock), .s_axi_awcache(dma_awcache),
    .s_axi_awprot(dma_awprot), .s_axi_awvalid(dma_awvalid), .s_axi_awready(dma_awready),
    .s_axi_wdata(dma_wdata), .s_axi_wstrb(dma_wstrb), .s_axi_wlast(dma_wlast), .s_axi_wvalid(dma_wvalid),
    .s_axi_wready(dma_wready), .s_axi_bid(dma_bid), .s_axi_bresp(dma_bresp), .s_axi_bvalid(dma_bvalid),
    .s_axi_bready(dma_bready),
    .s_axi_arid(dma_arid), .s_axi_araddr(dma_araddr), .s_axi_arlen(dma_arlen), .s_axi_arsize(dma_arsize),
    .s_axi_arburst(dma_arburst), .s_axi_arlock(dma_arlock), .s_axi_arcache(dma_arcache),
    .s_axi_arprot(dma_arprot), .s_axi_arvalid(dma_arvalid), .s_axi_arready(dma_arready),
    .s_axi_rid(dma_rid), .s_axi_rdata(dma_rdata), .s_axi_rresp(dma_rresp), .s_axi_rlast(dma_rlast),
    .s_axi_rvalid(dma_rvalid), .s_axi_rready(dma_rready),
    .irq_valid(msix_valid),
    .irq_vector(msix_vector),
    .irq_ready(msix_ready)
);

/* ------------------------------------------------------------------------
 * Ethernet: RGMII MAC and the clock crossings
 * ------------------------------------------------------------------------ */

wire mac_rx_clk, mac_rx_rst;
wire [63:0] mac_tx_tdata, mac_rx_tdata;
wire [7:0] mac_tx_tkeep, mac_rx_tkeep;
wire mac_tx_tvalid, mac_tx_tready, mac_tx_tlast;
wire mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;

// counters: not exported yet (froce_core counts frames itself)
wire [31:0] tx_frames, tx_aborted, tx_underrun;
wire [31:0] rx_frames_ok, rx_bad_fcs, rx_err, rx_runt, rx_oversize;
wire [31:0] txf_bad_dropped, txf_full_dropped, rxf_bad_dropped, rxf_full_dropped;
wire unused_rxf_tready;

froce_async_frame_fifo #(
    .DEPTH_BYTES(16384),
    .DROP_FULL(0)
) u_tx_fifo (
    .s_clk(core_clk),
    .s_rst(core_rst),
    .s_axis_tdata(eth_tx_tdata),
    .s_axis_tkeep(eth_tx_tkeep),
    .s_axis_tvalid(eth_tx_tvalid),
    .s_axis_tready(eth_tx_tready),
    .s_axis_tlast(eth_tx_tlast),
    .s_axis_tuser(1'b0),
    .m_clk(gtx_clk),
    .m_rst(gtx_rst),
    .m_axis_tdata(mac_tx_tdata),
    .m_axis_tkeep(mac_tx_tkeep),
    .m_axis_tvalid(mac_tx_tvalid),
    .m_axis_tready(mac_tx_tready),
    .m_axis_tlast(mac_tx_tlast),
    .rx_fifo_bad_dropped(txf_bad_dropped),
    .rx_fifo_full_dropped(txf_full_dropped)
);

froce_eth_mac_1g_rgmii #(
    .DATA_WIDTH(64),
    .USE_CLK90(RGMII_USE_CLK90),
    .MAX_FRAME(9600)
) u_mac (
    .gtx_clk(gtx_clk),
    .gtx_clk90(gtx_clk90),
    .gtx_rst(gtx_rst),
    .rx_clk(mac_rx_clk),
    .rx_rst(mac_rx_rst),
    .s_axis_tdata(mac_tx_tdata),
    .s_axis_tkeep(mac_tx_tkeep),
    .s_axis_tvalid(mac_tx_tvalid),
    .s_axis_tready(mac_tx_tready),
    .s_axis_tlast(mac_tx_tlast),
    .s_axis_tuser(1'b0),
    .m_axis_tdata(mac_rx_tdata),
    .m_axis_tkeep(mac_rx_tkeep),
    .m_axis_tvalid(mac_rx_tvalid),
    .m_axis_tlast(mac_rx_tlast),
    .m_axis_tuser(mac_rx_tuser),
    .rgmii_rx_clk(rgmii_rx_clk),
    .rgmii_rxd(rgmii_rxd),
    .rgmii_rx_ctl(rgmii_rx_ctl),
    .rgmii_tx_clk(rgmii_tx_clk),
    .rgmii_txd(rgmii_txd),
    .rgmii_tx_ctl(rgmii_tx_ctl),
    .tx_frames(tx_frames),
    .tx_aborted(tx_aborted),
    .tx_underrun(tx_underrun),
    .rx_frames_ok(rx_frames_ok),
    .rx_bad_fcs(rx_bad_fcs),
    .rx_err(rx_err),
    .rx_runt(rx_runt),
    .rx_oversize(rx_oversize)
);

froce_async_frame_fifo #(
    .DEPTH_BYTES(16384),
    .DROP_FULL(1)
) u_rx_fifo (
    .s_clk(mac_rx_clk),
    .s_rst(mac_rx_rst),
    .s_axis_tdata(mac_rx_tdata),
    .s_axis_tkeep(mac_rx_tkeep),
    .s_axis_tvalid(mac_rx_tvalid),
    .s_axis_tready(unused_rxf_tready),
    .s_axis_tlast(mac_rx_tlast),
    .s_axis_tuser(mac_rx_tuser),
    .m_clk(core_clk),
    .m_rst(core_rst),
    .m_axis_tdata(eth_rx_tdata),
    .m_axis_tkeep(eth_rx_tkeep),
    .m_axis_tvalid(eth_rx_tvalid),
    .m_axis_tready(eth_rx_tready),
    .m_axis_tlast(eth_rx_tlast),
    .rx_fifo_bad_dropped(rxf_bad_dropped),
    .rx_fifo_full_dropped(rxf_full_dropped)
);

/* ------------------------------------------------------------------------
 * PHY: reset and link state
 * ------------------------------------------------------------------------ */

reg [PHY_RESET_BITS:0] phy_reset_count_reg = {(PHY_RESET_BITS + 1){1'b0}};

always @(posedge core_clk) begin
    if (!phy_reset_count_reg[PHY_RESET_BITS])
        phy_reset_count_reg <= phy_reset_count_reg + 1'b1;
    if (core_rst)
        phy_reset_count_reg <= {(PHY_RESET_BITS + 1){1'b0}};
end

assign phy_rst_n = phy_reset_count_reg[PHY_RESET_BITS];

wire [15:0] phy_bmsr;
wire phy_bmsr_valid;

froce_mdio_link #(
    .PHY_ADDR(PHY_ADDR),
    .MDC_DIV((CORE_CLK_HZ + 4999999) / 5000000),   // MDC <= 2.5 MHz
    .POLL_CYCLES(MDIO_POLL_CYCLES)
) u_mdio (
    .clk(core_clk),
    .rst(core_rst || !phy_rst_n),
    .mdc(phy_mdc),
    .mdio_i(phy_mdio_i),
    .mdio_o(phy_mdio_o),
    .mdio_t(phy_mdio_t),
    .link_up(link_up),
    .bmsr_valid(phy_bmsr_valid),
    .bmsr(phy_bmsr)
);

/* ------------------------------------------------------------------------
 * LEDs
 * ------------------------------------------------------------------------ */

reg [LED_STRETCH_BITS-1:0] act_count_reg = {LED_STRETCH_BITS{1'b0}};
reg [LED_STRETCH_BITS-1:0] host_count_reg = {LED_STRETCH_BITS{1'b0}};
reg [LED_STRETCH_BITS+4:0] heartbeat_reg = {(LED_STRETCH_BITS + 5){1'b0}};
reg uart_rxd_meta_reg = 1'b1, uart_rxd_reg = 1'b1;

wire frame_seen = (eth_tx_tvalid && eth_tx_tready && eth_tx_tlast) ||
                  (eth_rx_tvalid && eth_rx_tready && eth_rx_tlast);
// a start bit on either UART line
wire host_seen = !uart_rxd_reg || !uart_txd;

always @(posedge core_clk) begin
    uart_rxd_meta_reg <= uart_rxd;
    uart_rxd_reg <= uart_rxd_meta_reg;
    heartbeat_reg <= heartbeat_reg + 1'b1;

    if (frame_seen)
        act_count_reg <= {LED_STRETCH_BITS{1'b1}};
    else if (act_count_reg != {LED_STRETCH_BITS{1'b0}})
        act_count_reg <= act_count_reg - 1'b1;

    if (host_seen)
        host_count_reg <= {LED_STRETCH_BITS{1'b1}};
    else if (host_count_reg != {LED_STRETCH_BITS{1'b0}})
        host_count_reg <= host_count_reg - 1'b1;

    if (core_rst) begin
        act_count_reg <= {LED_STRETCH_BITS{1'b0}};
        host_count_reg <= {LED_STRETCH_BITS{1'b0}};
    end
end

assign led_link = link_up;
assign led_act = act_count_reg != {LED_STRETCH_BITS{1'b0}};
assign led_host = host_count_reg != {LED_STRETCH_BITS{1'b0}};
assign led_alive = heartbeat_reg[LED_STRETCH_BITS+4];

// deliberately unused: the firmware console (the UART carries the host
// link), the MSI-X message (no PCI here), the MAC and FIFO counters, AXI
// fields the RAM ignores
wire unused = ^{fw_console_valid, fw_console_data, msix_addr, msix_data, msix_tbl_addr, msix_tbl_data,
                msix_vec_mask, tx_frames, tx_aborted, tx_underrun, rx_frames_ok, rx_bad_fcs, rx_err,
                rx_runt, rx_oversize, txf_bad_dropped, txf_full_dropped, rxf_bad_dropped,
                rxf_full_dropped, unused_rxf_tready, phy_bmsr, phy_bmsr_valid};

endmodule

`resetall
