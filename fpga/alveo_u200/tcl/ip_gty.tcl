# SPDX-License-Identifier: MIT
# eth_gty_10g: UltraScale FPGAs Transceivers Wizard (gtwizard_ultrascale,
# free with Vivado), one GTY channel for 10GBASE-R on QSFP28 cage 0 lane 0.
#
# Sourced by build.tcl with ip_dir set. The GTY-10GBASE-R preset gives the
# 64B/66B asynchronous gearbox (64 data bits + a 2-bit header per
# TXUSRCLK2 = 10.3125 Gb/s / 66 = 156.25 MHz, RXGEARBOXSLIP), QPLL0 and the
# user clocking outside the core (fpga.v has the BUFG_GTs); our PCS
# (froce_eth_pcs_10g) does the encoding, scrambling and block lock.
#
# U200/U250 QSFP0: lane 0 = GTYE4_CHANNEL_X1Y48 (quad 231, pins N4/N9),
# reference clock MGTREFCLK1 of quad 231 (K11) from the SI5335 at
# 161.1328125 MHz (fpga.v drives FS = 2'b10).

create_ip -name gtwizard_ultrascale -vendor xilinx.com -library ip -module_name eth_gty_10g -dir $ip_dir

set_property -dict [list CONFIG.preset {GTY-10GBASE-R}] [get_ips eth_gty_10g]

set_property -dict [list \
    CONFIG.CHANNEL_ENABLE {X1Y48} \
    CONFIG.TX_MASTER_CHANNEL {X1Y48} \
    CONFIG.RX_MASTER_CHANNEL {X1Y48} \
    CONFIG.TX_LINE_RATE {10.3125} \
    CONFIG.RX_LINE_RATE {10.3125} \
    CONFIG.TX_REFCLK_FREQUENCY {161.1328125} \
    CONFIG.RX_REFCLK_FREQUENCY {161.1328125} \
    CONFIG.TX_USER_DATA_WIDTH {64} \
    CONFIG.TX_INT_DATA_WIDTH {64} \
    CONFIG.RX_USER_DATA_WIDTH {64} \
    CONFIG.RX_INT_DATA_WIDTH {64} \
    CONFIG.TX_REFCLK_SOURCE {X1Y48 clk1} \
    CONFIG.RX_REFCLK_SOURCE {X1Y48 clk1} \
    CONFIG.FREERUN_FREQUENCY {100} \
] [get_ips eth_gty_10g]
