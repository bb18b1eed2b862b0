# SPDX-License-Identifier: MIT
# Alveo U200 / U250: clocks entering fpga/alveo_u200/rtl/fpga.v and the
# exceptions that need no synthesised cell names. The clock-domain
# crossings inside the design are constrained by cdc.tcl (sourced after
# synthesis). Generated clocks come from Vivado: XDMA axi_aclk (250 MHz,
# from the PCIe reference through the IP), the GTY TXOUTCLK / RXOUTCLK
# behind their BUFG_GTs (156.25 MHz, from the QSFP0 reference through
# QPLL0) and the BUFGCE_DIV output (100 MHz).

create_clock -period 10.000 -name pcie_refclk [get_ports pcie_refclk_p]
create_clock -period 6.206 -name qsfp0_refclk [get_ports qsfp0_refclk_p]
create_clock -period 3.333 -name clk_300mhz [get_ports clk_300mhz_p]

# Asynchronous inputs: PERST# (the XDMA synchronises it), QSFP module status
# (froce_sync_bit in fpga_core)
set_false_path -from [get_ports {pcie_reset_n qsfp0_modprsl qsfp0_intl}]

# Slow outputs with no timing relation to any clock: LEDs, QSFP module
# control, the SI5335's reset and frequency select
set_false_path -to [get_ports {led[*] qsfp0_resetl qsfp0_lpmode qsfp0_modsell qsfp0_refclk_reset qsfp0_fs[*]}]
