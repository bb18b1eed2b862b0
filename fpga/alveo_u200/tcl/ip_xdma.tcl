# SPDX-License-Identifier: MIT
# xdma_0: DMA/Bridge Subsystem for PCI Express (XDMA 4.1, free with Vivado)
# in AXI Bridge mode, endpoint, Gen3 x8, 256-bit AXI at 250 MHz, as
# docs/fpga-host-glue.md "XDMA configuration these blocks assume" describes.
#
# Sourced by build.tcl with these variables set:
#   ip_dir        where the IP is generated
#   num_uars      froce_core NUM_UARS: BAR2 = num_uars x 4 KiB
#   num_vectors   MSI-X table size
#   pci_vendor_id, pci_device_id, pci_class_code (hex strings, from spec/device.toml)
#   bar0_bytes, msix_table_offset, msix_pba_offset (from rtl/include/froce_hw.vh)
#
# PCIe block X1Y2 with GTY quads 227 and 226 (lanes 0..3, 4..7) is the
# U200's edge-connector wiring; the U250 is the same board and the pins in
# pins.xdc are the same, so the same block is assumed (to confirm with the
# first U250 build: place_design fails if the block and the pins disagree).
#
# Left at the IP's defaults: endpoint port type, BAR0 non-prefetchable
# (check both with lspci -vv on the board).
#
# Address map (fpga_core parameters BAR0_BASE / BAR2_BASE):
#   BAR0 (64-bit, BAR0:1, 16 KiB)    -> AXI 0x0000_0000
#   BAR2 (64-bit, BAR2:3, 1 MiB)     -> AXI 0x0010_0000
#   S_AXI_B: one AXI BAR over all 64 bits of address, translation 0, so the
#   DMA and MSI-X addresses froce_core writes are PCIe addresses unchanged
#   (if the IP refuses a 2^64 aperture, 0x0000_FFFF_FFFF_FFFF, 48-bit, covers
#   the IOVAs Linux hands out with 4-level IOMMU tables).
# MSI-X External: the capability points at BAR0's table and PBA; the table
# lives in froce_core's BAR0 and froce_msix_emitter writes the messages.

create_ip -name xdma -vendor xilinx.com -library ip -version 4.1 -module_name xdma_0 -dir $ip_dir

# BAR sizes in KiB for the IP's Kilobytes/Megabytes scale fields
proc xdma_bar_size {bytes} {
    if {$bytes >= 1048576} {
        return [list [expr {$bytes / 1048576}] Megabytes]
    }
    return [list [expr {$bytes / 1024}] Kilobytes]
}
lassign [xdma_bar_size $bar0_bytes] bar0_size bar0_scale
lassign [xdma_bar_size [expr {$num_uars * 4096}]] bar2_size bar2_scale

set_property -dict [list \
    CONFIG.functional_mode {AXI_Bridge} \
    CONFIG.mode_selection {Advanced} \
    CONFIG.pcie_blk_locn {X1Y2} \
    CONFIG.select_quad {GTY_Quad_227} \
    CONFIG.pl_link_cap_max_link_width {X8} \
    CONFIG.pl_link_cap_max_link_speed {8.0_GT/s} \
    CONFIG.ref_clk_freq {100_MHz} \
    CONFIG.axi_data_width {256_bit} \
    CONFIG.axisten_freq {250} \
    CONFIG.axi_addr_width {64} \
    CONFIG.axi_id_width {4} \
    CONFIG.s_axi_id_width {4} \
    CONFIG.en_axi_slave_if {true} \
    CONFIG.xdma_axilite_slave {true} \
    CONFIG.vendor_id $pci_vendor_id \
    CONFIG.pf0_device_id $pci_device_id \
    CONFIG.pf0_subsystem_vendor_id $pci_vendor_id \
    CONFIG.pf0_subsystem_id $pci_device_id \
    CONFIG.pf0_revision_id {00} \
    CONFIG.pf0_Use_Class_Code_Lookup_Assistant {false} \
    CONFIG.pf0_class_code $pci_class_code \
    CONFIG.pf0_class_code_base [string range $pci_class_code 0 1] \
    CONFIG.pf0_class_code_sub [string range $pci_class_code 2 3] \
    CONFIG.pf0_class_code_interface [string range $pci_class_code 4 5] \
    CONFIG.pf0_bar0_enabled {true} \
    CONFIG.pf0_bar0_64bit {true} \
    CONFIG.pf0_bar0_size $bar0_size \
    CONFIG.pf0_bar0_scale $bar0_scale \
    CONFIG.pciebar2axibar_0 {0x0000000000000000} \
    CONFIG.pf0_bar2_enabled {true} \
    CONFIG.pf0_bar2_64bit {true} \
    CONFIG.pf0_bar2_prefetchable {false} \
    CONFIG.pf0_bar2_size $bar2_size \
    CONFIG.pf0_bar2_scale $bar2_scale \
    CONFIG.pciebar2axibar_2 {0x0000000000100000} \
    CONFIG.axibar_num {1} \
    CONFIG.axibar_0 {0x0000000000000000} \
    CONFIG.axibar_highaddr_0 {0xFFFFFFFFFFFFFFFF} \
    CONFIG.axibar2pciebar_0 {0x0000000000000000} \
    CONFIG.pf0_interrupt_pin {NONE} \
    CONFIG.pf0_msi_enabled {false} \
    CONFIG.xdma_num_usr_irq {1} \
    CONFIG.pf0_msix_enabled {true} \
    CONFIG.pf0_msix_impl_locn {External} \
    CONFIG.pf0_msix_cap_table_size [format %03X [expr {$num_vectors - 1}]] \
    CONFIG.pf0_msix_cap_table_bir {BAR_1:0} \
    CONFIG.pf0_msix_cap_table_offset [format %08X $msix_table_offset] \
    CONFIG.pf0_msix_cap_pba_bir {BAR_1:0} \
    CONFIG.pf0_msix_cap_pba_offset [format %08X $msix_pba_offset] \
] [get_ips xdma_0]
