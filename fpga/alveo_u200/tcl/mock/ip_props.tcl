# SPDX-License-Identifier: MIT
# Allow-lists for the mocked Vivado flow (vivado_mock.tcl): the IP cores the
# build may create, and for each the CONFIG.* names a TCL recipe may set.
#
# Only names seen in AMD documentation or in recipes for the same IP version
# that other projects build with are listed, so a misspelt property fails
# here instead of an hour into a Vivado run:
#
#   xdma 4.1: PG195 / PG194 parameter tabs; AMD's own block-design scripts
#     for xdma 4.1 in AXI_Bridge mode (endpoint, MSI-X External), TaPaSCo's
#     Alveo platforms (AXI_Bridge + pf0_msix_impl_locn External + the
#     pf0_msix_cap_* fields), SiFive fpga-shells (axibar_*, axi_id_width,
#     s_axi_id_width, ref_clk_freq), OpenChip's U200 bridge (pcie_blk_locn
#     X1Y2, select_quad GTY_Quad_227).
#   gtwizard_ultrascale: PG182; verilog-ethernet / Corundum recipes for the
#     U200 with the GTY-10GBASE-R preset.
#
# A name missing here that does exist in the IP is a reason to add it (with
# where it was found), not to weaken the check.

# vendor:library:name:version -> allowed CONFIG.* names
set mock_ip_allow [dict create]

dict set mock_ip_allow xilinx.com:ip:xdma:4.1 {
    CONFIG.functional_mode
    CONFIG.mode_selection
    CONFIG.device_port_type
    CONFIG.pcie_blk_locn
    CONFIG.select_quad
    CONFIG.en_gt_selection
    CONFIG.pl_link_cap_max_link_width
    CONFIG.pl_link_cap_max_link_speed
    CONFIG.ref_clk_freq
    CONFIG.axi_data_width
    CONFIG.axisten_freq
    CONFIG.coreclk_freq
    CONFIG.plltype
    CONFIG.axi_addr_width
    CONFIG.axi_id_width
    CONFIG.s_axi_id_width
    CONFIG.en_axi_slave_if
    CONFIG.xdma_axilite_slave
    CONFIG.axilite_master_en
    CONFIG.cfg_mgmt_if
    CONFIG.vendor_id
    CONFIG.pf0_device_id
    CONFIG.pf0_subsystem_vendor_id
    CONFIG.pf0_subsystem_id
    CONFIG.pf0_revision_id
    CONFIG.pf0_Use_Class_Code_Lookup_Assistant
    CONFIG.pf0_base_class_menu
    CONFIG.pf0_sub_class_interface_menu
    CONFIG.pf0_class_code
    CONFIG.pf0_class_code_base
    CONFIG.pf0_class_code_sub
    CONFIG.pf0_class_code_interface
    CONFIG.pf0_bar0_enabled
    CONFIG.pf0_bar0_64bit
    CONFIG.pf0_bar0_size
    CONFIG.pf0_bar0_scale
    CONFIG.pf0_bar1_enabled
    CONFIG.pf0_bar2_enabled
    CONFIG.pf0_bar2_64bit
    CONFIG.pf0_bar2_prefetchable
    CONFIG.pf0_bar2_size
    CONFIG.pf0_bar2_scale
    CONFIG.pf0_bar4_enabled
    CONFIG.pciebar2axibar_0
    CONFIG.pciebar2axibar_1
    CONFIG.pciebar2axibar_2
    CONFIG.pciebar2axibar_4
    CONFIG.axibar_num
    CONFIG.axibar_0
    CONFIG.axibar_highaddr_0
    CONFIG.axibar2pciebar_0
    CONFIG.pf0_interrupt_pin
    CONFIG.pf0_msi_enabled
    CONFIG.xdma_num_usr_irq
    CONFIG.pf0_msix_enabled
    CONFIG.pf0_msix_impl_locn
    CONFIG.pf0_msix_cap_table_size
    CONFIG.pf0_msix_cap_table_bir
    CONFIG.pf0_msix_cap_table_offset
    CONFIG.pf0_msix_cap_pba_bir
    CONFIG.pf0_msix_cap_pba_offset
    CONFIG.pcie_extended_tag
    CONFIG.c_m_axi_num_write
    CONFIG.c_s_axi_supports_narrow_burst
    CONFIG.PCIE_BOARD_INTERFACE
    CONFIG.SYS_RST_N_BOARD_INTERFACE
}

dict set mock_ip_allow xilinx.com:ip:gtwizard_ultrascale: {
    CONFIG.preset
    CONFIG.CHANNEL_ENABLE
    CONFIG.TX_MASTER_CHANNEL
    CONFIG.RX_MASTER_CHANNEL
    CONFIG.TX_LINE_RATE
    CONFIG.RX_LINE_RATE
    CONFIG.TX_REFCLK_FREQUENCY
    CONFIG.RX_REFCLK_FREQUENCY
    CONFIG.TX_USER_DATA_WIDTH
    CONFIG.TX_INT_DATA_WIDTH
    CONFIG.RX_USER_DATA_WIDTH
    CONFIG.RX_INT_DATA_WIDTH
    CONFIG.TX_REFCLK_SOURCE
    CONFIG.RX_REFCLK_SOURCE
    CONFIG.TX_DATA_ENCODING
    CONFIG.RX_DATA_DECODING
    CONFIG.TX_QPLL_FRACN_NUMERATOR
    CONFIG.FREERUN_FREQUENCY
}

# the parts the board top is written for
set mock_known_parts {xcu200-fsgd2104-2-e xcu250-figd2104-2L-e}

# the configuration flash of both cards, and the write_cfgmem settings it needs
set mock_cfgmem_parts {mt25qu01g-spi-x1_x2_x4}
set mock_cfgmem_interface SPIx4
set mock_cfgmem_size 128

# properties an XDC may set on ports / the design
set mock_xdc_port_props {LOC PACKAGE_PIN IOSTANDARD SLEW DRIVE PULLUP PULLDOWN DIFF_TERM DIFF_TERM_ADV}
set mock_xdc_design_props {
    CFGBVS CONFIG_VOLTAGE
    BITSTREAM.GENERAL.COMPRESS BITSTREAM.CONFIG.CONFIGFALLBACK BITSTREAM.CONFIG.EXTMASTERCCLK_EN
    BITSTREAM.CONFIG.CONFIGRATE BITSTREAM.CONFIG.SPI_32BIT_ADDR BITSTREAM.CONFIG.SPI_BUSWIDTH
    BITSTREAM.CONFIG.SPI_FALL_EDGE BITSTREAM.CONFIG.UNUSEDPIN
}

# PROGRAM.* properties the hardware-manager scripts may set
set mock_hw_props {
    PROGRAM.FILE PROGRAM.FILES PROGRAM.PRM_FILES PROGRAM.ADDRESS_RANGE PROGRAM.UNUSED_PIN_TERMINATION
    PROGRAM.BLANK_CHECK PROGRAM.ERASE PROGRAM.CFG_PROGRAM PROGRAM.VERIFY PROGRAM.CHECKSUM
}
