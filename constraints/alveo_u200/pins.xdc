# SPDX-License-Identifier: MIT
# Alveo U200 / U250 (xcu200-fsgd2104-2-e, xcu250-figd2104-2L-e; both cards
# share the board): pins and I/O standards of the ports of
# fpga/alveo_u200/rtl/fpga.v, and the configuration settings for booting
# from the on-board SPI x4 flash.
#
# Locations as the open designs for these cards use them (verilog-ethernet
# and Corundum, example/AU200 and fpga/mqnic/AU200), which follow AMD's board
# documentation (UG1289); not yet checked on a board here. GT pins carry only LOC: the transceiver sites fix their
# standard; the GT channel itself is placed by the IP (eth_gty_10g:
# GTYE4_CHANNEL_X1Y48; xdma_0: PCIe block X1Y2, quads 227 and 226).

# Configuration: bank 0 at 1.8 V, boot from the MT25QU01G in SPI x4
set_property CFGBVS GND [current_design]
set_property CONFIG_VOLTAGE 1.8 [current_design]
set_property BITSTREAM.GENERAL.COMPRESS TRUE [current_design]
set_property BITSTREAM.CONFIG.CONFIGFALLBACK ENABLE [current_design]
set_property BITSTREAM.CONFIG.EXTMASTERCCLK_EN DISABLE [current_design]
set_property BITSTREAM.CONFIG.CONFIGRATE 63.8 [current_design]
set_property BITSTREAM.CONFIG.SPI_32BIT_ADDR YES [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4 [current_design]
set_property BITSTREAM.CONFIG.SPI_FALL_EDGE YES [current_design]
set_property BITSTREAM.CONFIG.UNUSEDPIN PULLUP [current_design]

# 300 MHz system clock of DDR4 bank 0 (free running; only a reference here)
set_property -dict {LOC AY37 IOSTANDARD LVDS} [get_ports clk_300mhz_p]
set_property -dict {LOC AY38 IOSTANDARD LVDS} [get_ports clk_300mhz_n]

# User LEDs
set_property -dict {LOC BC21 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[0]}]
set_property -dict {LOC BB21 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[1]}]
set_property -dict {LOC BA20 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[2]}]

# QSFP28 cage 0, lane 0: MGTY quad 231 channel 0 (GTYE4_CHANNEL_X1Y48)
set_property LOC N4 [get_ports qsfp0_rx0_p]
set_property LOC N3 [get_ports qsfp0_rx0_n]
set_property LOC N9 [get_ports qsfp0_tx0_p]
set_property LOC N8 [get_ports qsfp0_tx0_n]
# MGTREFCLK1 of quad 231, from the SI5335 (FS pins select the frequency)
set_property LOC K11 [get_ports qsfp0_refclk_p]
set_property LOC K10 [get_ports qsfp0_refclk_n]

# QSFP0 module and SI5335 control
set_property -dict {LOC BE16 IOSTANDARD LVCMOS12} [get_ports qsfp0_modsell]
set_property -dict {LOC BE17 IOSTANDARD LVCMOS12} [get_ports qsfp0_resetl]
set_property -dict {LOC BE20 IOSTANDARD LVCMOS12} [get_ports qsfp0_modprsl]
set_property -dict {LOC BE21 IOSTANDARD LVCMOS12} [get_ports qsfp0_intl]
set_property -dict {LOC BD18 IOSTANDARD LVCMOS12} [get_ports qsfp0_lpmode]
set_property -dict {LOC AT22 IOSTANDARD LVCMOS12} [get_ports qsfp0_refclk_reset]
set_property -dict {LOC AT20 IOSTANDARD LVCMOS12} [get_ports {qsfp0_fs[0]}]
set_property -dict {LOC AU22 IOSTANDARD LVCMOS12} [get_ports {qsfp0_fs[1]}]

# PCIe x8: edge-connector lanes 0..7 = quad 227 channels 3..0, quad 226 channels 3..0
set_property LOC AF2 [get_ports {pcie_rx_p[0]}]
set_property LOC AF7 [get_ports {pcie_tx_p[0]}]
set_property LOC AG4 [get_ports {pcie_rx_p[1]}]
set_property LOC AG9 [get_ports {pcie_tx_p[1]}]
set_property LOC AH2 [get_ports {pcie_rx_p[2]}]
set_property LOC AH7 [get_ports {pcie_tx_p[2]}]
set_property LOC AJ4 [get_ports {pcie_rx_p[3]}]
set_property LOC AJ9 [get_ports {pcie_tx_p[3]}]
set_property LOC AK2 [get_ports {pcie_rx_p[4]}]
set_property LOC AK7 [get_ports {pcie_tx_p[4]}]
set_property LOC AL4 [get_ports {pcie_rx_p[5]}]
set_property LOC AL9 [get_ports {pcie_tx_p[5]}]
set_property LOC AM2 [get_ports {pcie_rx_p[6]}]
set_property LOC AM7 [get_ports {pcie_tx_p[6]}]
set_property LOC AN4 [get_ports {pcie_rx_p[7]}]
set_property LOC AN9 [get_ports {pcie_tx_p[7]}]
# 100 MHz PCIe reference clock: MGTREFCLK0 of quad 226
set_property LOC AM11 [get_ports pcie_refclk_p]
set_property LOC AM10 [get_ports pcie_refclk_n]
# PERST#
set_property -dict {LOC BD21 IOSTANDARD LVCMOS12 PULLUP TRUE} [get_ports pcie_reset_n]
