# SPDX-License-Identifier: MIT
# Alveo U200 / U250: timing exceptions for the clock-domain crossings, on the
# synthesised netlist (build.tcl sources this right after synth_design;
# -flatten_hierarchy rebuilt keeps the instance paths used here).
#
# Clocks: pcie_clk (XDMA axi_aclk), core_clk and rx_clk (GTY TX/RX user
# clocks; Vivado derives both from the QSFP0 reference, so it treats them as
# related and would time their crossings as synchronous without the
# exceptions below), clk_free. No set_clock_groups: every crossing goes
# through one of the blocks below and is bounded per path, so the Gray
# pointers keep their skew bound (docs/fpga-cdc.md, "Constraints on a real
# board"). report_cdc (build.tcl writes cdc.rpt) lists anything left over.
# Brackets in cell names are escaped (\[ \]) where a variable is substituted
# into the name; unescaped, Tcl would run [0] as a command.

# froce_async_fifo (in froce_axil_cdc, froce_axi_cdc, and u_ends of the frame FIFO):
# Gray pointers into their synchronisers bounded to the faster clock's period
# with their skew; the LUT-RAM read into out_data_reg bounded to the read clock
foreach f [get_cells -quiet -hierarchical -filter {REF_NAME == froce_async_fifo || ORIG_REF_NAME == froce_async_fifo}] {
    set wclk [get_clocks -of_objects [get_pins $f/wr_gray_reg_reg\[0\]/C]]
    set rclk [get_clocks -of_objects [get_pins $f/rd_gray_reg_reg\[0\]/C]]
    set t [expr {min([get_property PERIOD $wclk], [get_property PERIOD $rclk])}]
    foreach {src dst} {wr_gray_reg_reg u_wr_gray_sync rd_gray_reg_reg u_rd_gray_sync} {
        set_max_delay -datapath_only -from [get_cells $f/$src\[*\]] -to [get_cells $f/$dst/sync_reg_reg\[*\]] $t
        set_bus_skew -from [get_cells $f/$src\[*\]] -to [get_cells $f/$dst/sync_reg_reg\[*\]] $t
    }
    set_max_delay -datapath_only -from $wclk -to [get_cells $f/out_data_reg_reg\[*\]] [get_property PERIOD $rclk]
}

# froce_async_frame_fifo (the RX frames, rx_clk -> core_clk): its read pointer
# back to the write side, and the ring read if it is not block RAM
foreach f [get_cells -quiet -hierarchical -filter {REF_NAME == froce_async_frame_fifo || ORIG_REF_NAME == froce_async_frame_fifo}] {
    set sclk [get_clocks -of_objects [get_pins $f/wr_ptr_reg_reg\[0\]/C]]
    set mclk [get_clocks -of_objects [get_pins $f/rd_gray_reg_reg\[0\]/C]]
    set t [expr {min([get_property PERIOD $sclk], [get_property PERIOD $mclk])}]
    set_max_delay -datapath_only -from [get_cells $f/rd_gray_reg_reg\[*\]] -to [get_cells $f/u_rd_gray_sync/sync_reg_reg\[*\]] $t
    set_bus_skew -from [get_cells $f/rd_gray_reg_reg\[*\]] -to [get_cells $f/u_rd_gray_sync/sync_reg_reg\[*\]] $t
    set_max_delay -datapath_only -from $sclk -to [get_cells $f/out_data_reg_reg\[*\]] [get_property PERIOD $mclk]
}

# froce_sync_reset: asserted asynchronously (the PRE pins), released in step
# with its clock; every instance, those in fpga.v and those inside the FIFOs
set_false_path -to [get_pins -quiet -of_objects [get_cells -quiet -hierarchical -filter {NAME =~ *_rst_sync/sync_reg_reg[*] || NAME =~ *_arst_sync/sync_reg_reg[*]}] -filter {REF_PIN_NAME == PRE}]
# the FIFOs' level synchronisers of the other side's reset: first stage
set_false_path -to [get_cells -quiet -hierarchical -filter {NAME =~ *_srst_sync/sync_reg_reg[0]}]

# froce_sync_bit carrying independent levels into core_clk: first stage
# (stage 0 is bits 0..WIDTH-1 of sync_reg): MSI-X Enable and Function Mask
# from pcie_clk, the PCS link from rx_clk, QSFP ModPrsL/IntL from the pins
foreach {inst width} {u_core/u_msix_state_sync 2 u_core/u_status_sync 3} {
    for {set i 0} {$i < $width} {incr i} {
        set_false_path -to [get_cells $inst/sync_reg_reg\[$i\]]
    }
}

# "user clock active" flags of the GT wizard: cleared asynchronously by the
# GT's reset-done outputs
set_false_path -to [get_pins {tx_active_reg_reg/CLR rx_active_reg_reg/CLR}]
