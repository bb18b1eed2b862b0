# SPDX-License-Identifier: MIT
# Load a bitstream into an Alveo U200/U250 over JTAG (hw_server), volatile:
# lost at power-off. Then remove the card's function and rescan the PCIe bus
# on the host (fpga/alveo_u200/README.md, "Bring-up").
#
#   vivado -mode batch -source program_jtag.tcl -tclargs FPGA.bit [HW_SERVER]

if {[llength $argv] < 1} {
    error "usage: program_jtag.tcl FPGA.bit \[HW_SERVER\]"
}
lassign $argv bit server
if {$server eq ""} {
    set server localhost:3121
}
if {![file exists $bit]} {
    error "program_jtag.tcl: no file $bit (make -C fpga/alveo_u200 first)"
}

open_hw_manager
connect_hw_server -url $server
open_hw_target
set dev [lindex [get_hw_devices xcu2*] 0]
if {$dev eq ""} {
    error "program_jtag.tcl: no Alveo U200/U250 FPGA (xcu2*) on the JTAG chain"
}
current_hw_device $dev
refresh_hw_device -update_hw_probes false $dev
set_property PROGRAM.FILE $bit $dev
program_hw_devices $dev
close_hw_target
disconnect_hw_server
close_hw_manager
