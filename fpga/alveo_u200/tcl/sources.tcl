# SPDX-License-Identifier: MIT
# The Alveo U200 build's source list: one place for Vivado (build.tcl), the
# lint and Yosys checks (Makefile: tclsh sources.tcl verilog|include|xdc) and
# the mocked flow. Paths are relative to the repository root.
#
#   froce_verilog ROOT   every Verilog file synth_design reads
#   froce_includes ROOT  `include directories
#   froce_xdc ROOT       constraint files read before synthesis
#   froce_cdc_tcl ROOT   the CDC constraints, sourced after synthesis
#
# The RTL under rtl/ is taken a directory at a time (synth_design -top keeps
# only what fpga instantiates), so modules added to froce_core need no edit
# here; rtl/eth/ddr is left out (behavioural DDR registers whose module names
# the ECP5 shims reuse). Board files and glue are listed one by one.

set froce_rtl_dirs {rtl/common rtl/crc rtl/roce rtl/dma rtl/mem rtl/core rtl/cpu rtl/fw rtl/eth}

set froce_board_files {
    fpga/common/rtl/froce_async_fifo.v
    fpga/common/rtl/froce_async_frame_fifo.v
    fpga/common/rtl/froce_axi_bar_split.v
    fpga/common/rtl/froce_axi_cdc.v
    fpga/common/rtl/froce_axi_upsize.v
    fpga/common/rtl/froce_axi_wr_arb.v
    fpga/common/rtl/froce_axil_cdc.v
    fpga/common/rtl/froce_msix_emitter.v
    fpga/common/rtl/froce_sync_bit.v
    fpga/common/rtl/froce_sync_reset.v
    fpga/alveo_u200/rtl/fpga_core.v
    fpga/alveo_u200/rtl/fpga.v
}

proc froce_verilog {root} {
    global froce_rtl_dirs froce_board_files
    set files {}
    foreach d $froce_rtl_dirs {
        foreach f [lsort [glob -nocomplain -directory [file join $root $d] -tails *.v]] {
            lappend files [file join $root $d $f]
        }
    }
    foreach f $froce_board_files {
        lappend files [file join $root $f]
    }
    return $files
}

proc froce_includes {root} {
    set dirs {}
    foreach d {rtl/include rtl/crc rtl/dma rtl/core} {
        lappend dirs [file join $root $d]
    }
    return $dirs
}

proc froce_xdc {root} {
    return [list [file join $root constraints/alveo_u200/pins.xdc] \
                 [file join $root constraints/alveo_u200/timing.xdc]]
}

proc froce_cdc_tcl {root} {
    return [file join $root constraints/alveo_u200/cdc.tcl]
}

# tclsh sources.tcl verilog|include|xdc [ROOT]: print one path per line
if {[info exists argv0] && [file tail $argv0] eq [file tail [info script]]} {
    set what [lindex $argv 0]
    set root [expr {[llength $argv] > 1 ? [lindex $argv 1] : [file normalize [file join [file dirname [info script]] ../../..]]}]
    switch -- $what {
        verilog { puts [join [froce_verilog $root] "\n"] }
        include { puts [join [froce_includes $root] "\n"] }
        xdc     { puts [join [froce_xdc $root] "\n"] }
        default { puts stderr "usage: tclsh sources.tcl verilog|include|xdc \[ROOT\]"; exit 2 }
    }
}
