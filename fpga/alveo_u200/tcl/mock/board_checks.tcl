# SPDX-License-Identifier: MIT
# Cross-checks of the Alveo build, run by vivado_mock.tcl after build.tcl:
# the numbers that must agree between the XDMA recipe, the RTL, the
# generated hardware header, the GT recipe and the constraints. Each
# mismatch is a mock_error.

set bc_root [file normalize [file join $mock_dir ../../../..]]

proc bc_define {name} {
    global bc_root
    set f [open [file join $bc_root rtl/include/froce_hw.vh]]
    set text [read $f]
    close $f
    if {![regexp -line "^`define\\s+$name\\s+(\\S+)" $text -> v]} {
        mock_error "board check: $name not in froce_hw.vh"
        return 0
    }
    if {[regexp {^\d*'[hH]([0-9a-fA-F_]+)$} $v -> hex]} {
        return [expr {"0x[string map {_ {}} $hex]"}]
    }
    return [expr {$v}]
}

proc bc_ip_prop {ip prop} {
    if {![dict exists $::mock_ips $ip props $prop]} {
        mock_error "board check: $ip has no $prop set"
        return ""
    }
    return [dict get $::mock_ips $ip props $prop]
}

proc bc_expect {what got want} {
    if {[string tolower $got] ne [string tolower $want]} {
        mock_error "board check: $what is '$got', expected '$want'"
    }
}

proc bc_bar_bytes {size scale} {
    switch -- $scale {
        Kilobytes { return [expr {$size * 1024}] }
        Megabytes { return [expr {$size * 1048576}] }
        Gigabytes { return [expr {$size * 1073741824}] }
    }
    mock_error "board check: BAR scale '$scale'"
    return 0
}

# the top's RTL text, for the parameters it hands fpga_core
set bc_top_text ""
foreach f $mock_verilog_files {
    if {[file tail $f] eq "fpga.v"} {
        set h [open $f]
        set bc_top_text [mock_strip_comments [read $h]]
        close $h
    }
}
proc bc_top_param {name} {
    if {![regexp "\\.$name\\(\\s*(\[^)\]+?)\\s*\\)" $::bc_top_text -> v]} {
        mock_error "board check: fpga.v passes no $name to fpga_core"
        return 0
    }
    if {[regexp {^\d*'[hH]([0-9a-fA-F_]+)$} $v -> hex]} {
        return [expr {"0x[string map {_ {}} $hex]"}]
    }
    return [expr {$v}]
}
proc bc_generic {name default} {
    if {[dict exists $::mock_generics $name]} {
        return [dict get $::mock_generics $name]
    }
    return $default
}

if {[dict exists $mock_ips xdma_0]} {
    bc_expect "xdma_0 functional_mode" [bc_ip_prop xdma_0 CONFIG.functional_mode] AXI_Bridge
    bc_expect "xdma_0 vendor_id" [bc_ip_prop xdma_0 CONFIG.vendor_id] [format %04X [bc_define FROCE_PCI_VENDOR_ID]]
    bc_expect "xdma_0 pf0_device_id" [bc_ip_prop xdma_0 CONFIG.pf0_device_id] [format %04X [bc_define FROCE_PCI_DEVICE_ID]]
    bc_expect "xdma_0 class code" [bc_ip_prop xdma_0 CONFIG.pf0_class_code] [format %06X [bc_define FROCE_PCI_CLASS_CODE]]
    bc_expect "xdma_0 BAR0 bytes" [bc_bar_bytes [bc_ip_prop xdma_0 CONFIG.pf0_bar0_size] [bc_ip_prop xdma_0 CONFIG.pf0_bar0_scale]] \
        [bc_define FROCE_BAR0_SIZE]
    set num_uars [bc_generic NUM_UARS 256]
    bc_expect "xdma_0 BAR2 bytes (NUM_UARS $num_uars x 4 KiB)" \
        [bc_bar_bytes [bc_ip_prop xdma_0 CONFIG.pf0_bar2_size] [bc_ip_prop xdma_0 CONFIG.pf0_bar2_scale]] \
        [expr {$num_uars << [bc_define FROCE_UAR_PAGE_SHIFT]}]
    bc_expect "xdma_0 BAR0 translation (fpga_core BAR0_BASE)" [expr {[bc_ip_prop xdma_0 CONFIG.pciebar2axibar_0]}] [bc_top_param BAR0_BASE]
    bc_expect "xdma_0 BAR2 translation (fpga_core BAR2_BASE)" [expr {[bc_ip_prop xdma_0 CONFIG.pciebar2axibar_2]}] [bc_top_param BAR2_BASE]
    bc_expect "xdma_0 M_AXI_B ID width (fpga_core PCIE_ID_WIDTH)" [bc_ip_prop xdma_0 CONFIG.axi_id_width] [bc_top_param PCIE_ID_WIDTH]
    bc_expect "xdma_0 S_AXI_B ID width" [bc_ip_prop xdma_0 CONFIG.s_axi_id_width] 4
    bc_expect "xdma_0 AXI data width" [bc_ip_prop xdma_0 CONFIG.axi_data_width] 256_bit
    bc_expect "xdma_0 link width (fpga.v pcie_rx_p)" [bc_ip_prop xdma_0 CONFIG.pl_link_cap_max_link_width] \
        X[dict get $mock_modules fpga ports pcie_rx_p]
    bc_expect "xdma_0 MSI-X location" [bc_ip_prop xdma_0 CONFIG.pf0_msix_impl_locn] External
    set num_vectors [bc_generic NUM_VECTORS 32]
    bc_expect "xdma_0 MSI-X table size (NUM_VECTORS $num_vectors - 1)" \
        [expr {"0x[bc_ip_prop xdma_0 CONFIG.pf0_msix_cap_table_size]"}] [expr {$num_vectors - 1}]
    bc_expect "xdma_0 MSI-X table offset" [expr {"0x[bc_ip_prop xdma_0 CONFIG.pf0_msix_cap_table_offset]"}] \
        [bc_define FROCE_BAR0_MSIX_TABLE_BASE]
    bc_expect "xdma_0 MSI-X PBA offset" [expr {"0x[bc_ip_prop xdma_0 CONFIG.pf0_msix_cap_pba_offset]"}] \
        [bc_define FROCE_BAR0_MSIX_PBA_BASE]
    bc_expect "xdma_0 MSI-X table BAR" [bc_ip_prop xdma_0 CONFIG.pf0_msix_cap_table_bir] BAR_1:0
    bc_expect "xdma_0 MSI-X PBA BAR" [bc_ip_prop xdma_0 CONFIG.pf0_msix_cap_pba_bir] BAR_1:0
} else {
    mock_error "board check: no xdma_0 created"
}

# GT: the channel the wizard uses is the one behind the pins in pins.xdc
set bc_gty_pins {N4 X1Y48 M2 X1Y49 L4 X1Y50 K2 X1Y51}
if {[dict exists $mock_ips eth_gty_10g]} {
    set loc ""
    if {[dict exists $mock_port_props qsfp0_rx0_p LOC]} {
        set loc [dict get $mock_port_props qsfp0_rx0_p LOC]
    }
    set want [expr {[dict exists $bc_gty_pins $loc] ? [dict get $bc_gty_pins $loc] : "?"}]
    bc_expect "eth_gty_10g CHANNEL_ENABLE (qsfp0_rx0_p at $loc)" [bc_ip_prop eth_gty_10g CONFIG.CHANNEL_ENABLE] $want
    bc_expect "eth_gty_10g line rate" [bc_ip_prop eth_gty_10g CONFIG.TX_LINE_RATE] 10.3125
    # the SI5335 frequency fpga.v selects, the wizard's and the XDC's
    if {![regexp {assign\s+qsfp0_fs\s*=\s*2'b([01]{2})} $bc_top_text -> fs]} {
        mock_error "board check: fpga.v does not drive qsfp0_fs"
        set fs ??
    }
    set fs_mhz [dict create 01 156.25 10 161.1328125]
    set mhz [expr {[dict exists $fs_mhz $fs] ? [dict get $fs_mhz $fs] : 0}]
    bc_expect "eth_gty_10g reference clock (SI5335 FS 2'b$fs)" [bc_ip_prop eth_gty_10g CONFIG.TX_REFCLK_FREQUENCY] $mhz
    if {[dict exists $mock_clock_periods qsfp0_refclk_p]} {
        set period [dict get $mock_clock_periods qsfp0_refclk_p]
        if {$mhz == 0 || abs($period - 1000.0 / $mhz) > 0.001} {
            mock_error "board check: create_clock on qsfp0_refclk_p is $period ns, the reference is $mhz MHz"
        }
    } else {
        mock_error "board check: no create_clock on qsfp0_refclk_p"
    }
} else {
    mock_error "board check: no eth_gty_10g created"
}

# every port of fpga has a pin (P side of differential pairs; Vivado places
# the N side) and every non-transceiver pin an I/O standard
set bc_gt_port {^(pcie_(rx|tx)_[pn]|qsfp0_(rx|tx)0_[pn]|(pcie|qsfp0)_refclk_[pn])$}
dict for {port width} [dict get $mock_modules fpga ports] {
    if {[string match *_n $port] && [dict exists $mock_modules fpga ports [string range $port 0 end-2]_p]} {
        continue
    }
    for {set i 0} {$i < $width} {incr i} {
        set key [expr {$width > 1 ? "$port\[$i\]" : $port}]
        if {![dict exists $mock_port_props $key LOC]} {
            mock_error "board check: port $key has no LOC"
        } elseif {![dict exists $mock_port_props $key IOSTANDARD] && ![regexp $bc_gt_port $port]} {
            mock_error "board check: port $key has no IOSTANDARD"
        }
    }
}
