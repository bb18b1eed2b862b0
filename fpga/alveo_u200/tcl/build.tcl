# SPDX-License-Identifier: MIT
# Alveo U200/U250 bitstream, Vivado non-project mode: IP, synthesis,
# implementation, reports, bitstream and the configuration flash image.
#
#   vivado -mode batch -source fpga/alveo_u200/tcl/build.tcl      (make -C fpga/alveo_u200)
#
# Environment (all optional):
#   PART      xcu200-fsgd2104-2-e (U200, default) or xcu250-figd2104-2L-e (U250)
#   OUT_DIR   output directory (default build/fpga/alveo_u200/<part>)
#   FW_HEX    firmware image (default build/firmware/froce-fw.hex; make -C firmware)
#   BUILD_ID  BAR0 BUILD_ID, e.g. 0x$(git rev-parse --short=8 HEAD) (default 0)
#   JOBS      threads for Vivado (default 4)
#
# Outputs in OUT_DIR: fpga.bit, fpga.mcs/.prm (SPI x4 flash image at the
# user-image address), checkpoints after synthesis and routing, reports
# (utilization, timing summary, clock interaction, CDC, DRC) and
# timing_met / timing_failed (WNS and WHS of the routed design).

set script_dir [file dirname [file normalize [info script]]]
set root [file normalize [file join $script_dir ../../..]]
source [file join $script_dir sources.tcl]

proc env_or {name default} {
    if {[info exists ::env($name)] && $::env($name) ne ""} {
        return $::env($name)
    }
    return $default
}

# the parts this top is written for (pins and GT sites are the same on both boards)
set known_parts {xcu200-fsgd2104-2-e xcu250-figd2104-2L-e}
set part [env_or PART xcu200-fsgd2104-2-e]
if {[lsearch -exact $known_parts $part] < 0} {
    error "build.tcl: PART '$part' is not one of: $known_parts"
}

set out_dir [file normalize [env_or OUT_DIR [file join $root build/fpga/alveo_u200 $part]]]
set ip_dir [file join $out_dir ip]
set fw_hex [file normalize [env_or FW_HEX [file join $root build/firmware/froce-fw.hex]]]
set build_id [format %u [expr {[env_or BUILD_ID 0] & 0xFFFFFFFF}]]
set jobs [env_or JOBS 4]

if {![file exists $fw_hex]} {
    error "build.tcl: no firmware image $fw_hex (make -C firmware)"
}

# froce_core table sizes of this build; the XDMA's BAR2 and MSI-X table follow them
set num_uars 256
set num_vectors 32

# PCI identity and the BAR0 layout, from the header generated from spec/
proc hw_define {root name} {
    set f [open [file join $root rtl/include/froce_hw.vh]]
    set text [read $f]
    close $f
    if {![regexp -line "^`define\\s+$name\\s+(\\S+)" $text -> value]} {
        error "build.tcl: $name not found in rtl/include/froce_hw.vh"
    }
    # Verilog literal (16'h1234, 14'h2000, 16384) to an integer
    if {[regexp {^\d*'[hH]([0-9a-fA-F_]+)$} $value -> hex]} {
        return [expr {"0x[string map {_ {}} $hex]"}]
    }
    return [expr {$value}]
}
set pci_vendor_id [format %04X [hw_define $root FROCE_PCI_VENDOR_ID]]
set pci_device_id [format %04X [hw_define $root FROCE_PCI_DEVICE_ID]]
set pci_class_code [format %06X [hw_define $root FROCE_PCI_CLASS_CODE]]
set bar0_bytes [hw_define $root FROCE_BAR0_SIZE]
set msix_table_offset [hw_define $root FROCE_BAR0_MSIX_TABLE_BASE]
set msix_pba_offset [hw_define $root FROCE_BAR0_MSIX_PBA_BASE]

file mkdir $out_dir
file mkdir $ip_dir
set_param general.maxThreads $jobs

create_project -in_memory -part $part
set_property target_language Verilog [current_project]

# IP: generated and synthesised out of context, picked up by synth_design
source [file join $script_dir ip_xdma.tcl]
source [file join $script_dir ip_gty.tcl]
foreach ip {xdma_0 eth_gty_10g} {
    generate_target all [get_ips $ip]
    synth_ip [get_ips $ip]
}

read_verilog [froce_verilog $root]
foreach xdc [froce_xdc $root] {
    read_xdc $xdc
}

synth_design -top fpga -part $part -flatten_hierarchy rebuilt \
    -include_dirs [froce_includes $root] \
    -generic [list BUILD_ID=$build_id NUM_UARS=$num_uars NUM_VECTORS=$num_vectors "FW_INIT_FILE=\"$fw_hex\""]

# clock-crossing exceptions need the synthesised cell names
source [froce_cdc_tcl $root]

write_checkpoint -force [file join $out_dir fpga_synth.dcp]
report_utilization -file [file join $out_dir utilization_synth.rpt]

opt_design
place_design
phys_opt_design
route_design

write_checkpoint -force [file join $out_dir fpga_routed.dcp]
report_timing_summary -max_paths 20 -file [file join $out_dir timing_summary.rpt]
report_utilization -hierarchical -file [file join $out_dir utilization_hier.rpt]
report_utilization -file [file join $out_dir utilization.rpt]
report_clock_interaction -file [file join $out_dir clock_interaction.rpt]
report_cdc -file [file join $out_dir cdc.rpt]
report_drc -file [file join $out_dir drc.rpt]

# a bitstream is written even when timing fails (useful on the bench), but the
# result is recorded and make reports it
set wns [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -setup]]
set whs [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -hold]]
file delete -force [file join $out_dir timing_met] [file join $out_dir timing_failed]
set verdict [expr {$wns >= 0 && $whs >= 0 ? "timing_met" : "timing_failed"}]
set f [open [file join $out_dir $verdict] w]
puts $f "WNS $wns ns, WHS $whs ns"
close $f
puts "build.tcl: $verdict: WNS $wns ns, WHS $whs ns"

write_bitstream -force [file join $out_dir fpga.bit]

# U200/U250 configuration flash: Micron MT25QU01G (1 Gbit), SPI x4; the
# user image goes above AMD's golden image, at 0x01002000
write_cfgmem -force -format mcs -size 128 -interface SPIx4 \
    -loadbit [list up 0x01002000 [file join $out_dir fpga.bit]] \
    -checksum -file [file join $out_dir fpga.mcs]
