# SPDX-License-Identifier: MIT
# Write the configuration flash of an Alveo U200/U250 over JTAG (hw_server):
# the image build.tcl wrote at the user-image address, then reboot the FPGA
# from it. The board must be in a host that is rebooted (or whose PCIe slot
# is rescanned) afterwards, so the host enumerates the new function.
#
#   vivado -mode batch -source program_flash.tcl -tclargs FPGA.mcs FPGA.prm [HW_SERVER]
#
# HW_SERVER defaults to localhost:3121 (hw_server running where the USB JTAG
# cable of the card is plugged in). Takes a few minutes (erase, program, verify).

if {[llength $argv] < 2} {
    error "usage: program_flash.tcl FPGA.mcs FPGA.prm \[HW_SERVER\]"
}
lassign $argv mcs prm server
if {$server eq ""} {
    set server localhost:3121
}
foreach f [list $mcs $prm] {
    if {![file exists $f]} {
        error "program_flash.tcl: no file $f (make -C fpga/alveo_u200 first)"
    }
}

open_hw_manager
connect_hw_server -url $server
open_hw_target
set dev [lindex [get_hw_devices xcu2*] 0]
if {$dev eq ""} {
    error "program_flash.tcl: no Alveo U200/U250 FPGA (xcu2*) on the JTAG chain"
}
current_hw_device $dev
refresh_hw_device -update_hw_probes false $dev

# the flash of both boards: Micron MT25QU01G, 1 Gbit, SPI x1/x2/x4
create_hw_cfgmem -hw_device $dev [lindex [get_cfgmem_parts {mt25qu01g-spi-x1_x2_x4}] 0]
set mem [get_property PROGRAM.HW_CFGMEM $dev]
set_property PROGRAM.ADDRESS_RANGE {use_file} $mem
set_property PROGRAM.FILES [list $mcs] $mem
set_property PROGRAM.PRM_FILES [list $prm] $mem
set_property PROGRAM.UNUSED_PIN_TERMINATION {pull-none} $mem
set_property PROGRAM.BLANK_CHECK 0 $mem
set_property PROGRAM.ERASE 1 $mem
set_property PROGRAM.CFG_PROGRAM 1 $mem
set_property PROGRAM.VERIFY 1 $mem
set_property PROGRAM.CHECKSUM 0 $mem

# the flash is reached through a helper bitstream Vivado loads first
create_hw_bitstream -hw_device $dev [get_property PROGRAM.HW_CFGMEM_BITFILE $dev]
program_hw_devices $dev
refresh_hw_device $dev
program_hw_cfgmem -hw_cfgmem $mem

# load the new image now (the host must re-enumerate the slot afterwards)
boot_hw_device $dev
close_hw_target
disconnect_hw_server
close_hw_manager
