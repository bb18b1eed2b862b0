# The ECPIX-5 board's files on top of rtl/core/froce_core.f (froce_core):
# one path per line, relative to the repository root; # comments and blank
# lines skipped. The Makefile (synthesis, lint), scripts/build.sh (the cache
# key), tests/fpga_ecpix5/run.sh and sim/ecpix5/Makefile (the simulated
# board: without fpga.v and with the generic DDR registers) read this list.
#
# rtl/eth/ddr is left out: the ECP5 shims in fpga/common/rtl/ecp5 have the
# same module names (froce_iddr, froce_oddr) on IDDRX1F/ODDRX1F.

# 1 GbE RGMII MAC
rtl/eth/froce_eth_mac_1g_rgmii.v
rtl/eth/froce_eth_mac_1g_rx.v
rtl/eth/froce_eth_mac_1g_tx.v
rtl/eth/froce_eth_rgmii_phy_if.v
fpga/common/rtl/ecp5/froce_iddr.v
fpga/common/rtl/ecp5/froce_oddr.v

# clock crossings, resets
fpga/common/rtl/froce_async_fifo.v
fpga/common/rtl/froce_async_frame_fifo.v
fpga/common/rtl/froce_sync_bit.v
fpga/common/rtl/froce_sync_reset.v

# UART host link and its host-memory RAM
fpga/common/rtl/froce_uart_host.v
fpga/common/rtl/froce_uart_host_bridge.v
fpga/common/rtl/froce_uart_rx.v
fpga/common/rtl/froce_uart_tx.v
fpga/common/rtl/froce_axi_ram.v

# PHY link state
fpga/common/rtl/froce_mdio_link.v

# the board
fpga/ecpix5/rtl/fpga_core.v
fpga/ecpix5/rtl/fpga.v
