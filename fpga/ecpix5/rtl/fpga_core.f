# fpga_core of the ECPIX-5 besides froce_core (rtl/core/froce_core.f), one
# path per line, relative to the repository root. The DDR shims are not
# listed: a board build adds fpga/common/rtl/ecp5/froce_{iddr,oddr}.v, a
# simulation the generic rtl/eth/ddr/froce_{iddr,oddr}.v.
fpga/common/rtl/froce_sync_bit.v
fpga/common/rtl/froce_sync_reset.v
fpga/common/rtl/froce_async_fifo.v
fpga/common/rtl/froce_async_frame_fifo.v
fpga/common/rtl/froce_uart_rx.v
fpga/common/rtl/froce_uart_tx.v
fpga/common/rtl/froce_uart_host_bridge.v
fpga/common/rtl/froce_axi_ram.v
fpga/common/rtl/froce_uart_host.v
fpga/common/rtl/froce_mdio_link.v
rtl/eth/froce_eth_rgmii_phy_if.v
rtl/eth/froce_eth_mac_1g_tx.v
rtl/eth/froce_eth_mac_1g_rx.v
rtl/eth/froce_eth_mac_1g_rgmii.v
fpga/ecpix5/rtl/fpga_core.v
