# SPDX-License-Identifier: MIT
# A mocked Vivado for tclsh: runs the Alveo build and programming scripts
# with every Vivado command replaced by a recorder that checks its use, so
# the TCL flow is exercised without Vivado.
#
#   tclsh vivado_mock.tcl build SCRIPT          e.g. ../build.tcl (env as for Vivado)
#   tclsh vivado_mock.tcl hw SCRIPT ARGS...     program_flash.tcl / program_jtag.tcl
#
# Prints "mock: ERROR <what>" for each problem found and exits 1 if there
# was any; otherwise "mock: ok (<n> Vivado commands)". A Vivado command the
# mock does not define is a Tcl error, as a misspelt command would be in
# Vivado. Checked (build):
#   - every file read (read_verilog, read_xdc, source) exists;
#   - create_ip names an IP of ip_props.tcl, every CONFIG.* set on it is on
#     that IP's allow-list, and every IP is configured, generated and
#     synthesised before synth_design; every IP the RTL instantiates was
#     created under that module name;
#   - the part (create_project, synth_design) is a known one;
#   - synth_design: the top module exists in the files read, every -generic
#     is a parameter of it, -include_dirs exist, FW_INIT_FILE exists;
#   - the XDC files are evaluated (at synth_design, as Vivado applies them)
#     with the constraint commands mocked: every get_ports name (and bit
#     index) is a port of the top, every property is a known port or design
#     property, create_clock has a period and a port, plain cell and pin
#     paths start with an instance of the top module;
#   - implementation steps in order; write_bitstream after route_design;
#     write_cfgmem loads the bitstream just written, with the flash's
#     interface and size;
#   - board cross-checks (board_checks.tcl): the XDMA's IDs, BARs and MSI-X
#     table against rtl/include/froce_hw.vh and the synthesis generics, the
#     GT channel against the pins in the XDC.
# Checked (hw): the flash part, PROGRAM.* property names, files exist,
# commands in a sensible order.
#
# What it cannot check: that the IP accepts the values, that the generated
# IP has the ports the stubs declare, anything about timing or placement.

set mock_dir [file dirname [file normalize [info script]]]
source [file join $mock_dir ip_props.tcl]

set mock_errors 0
set mock_calls 0
set mock_log {}

proc mock_error {msg} {
    global mock_errors
    incr mock_errors
    puts "mock: ERROR $msg"
}

proc mock_record {args} {
    global mock_calls mock_log
    incr mock_calls
    lappend mock_log $args
}

# parse "-opt value" / "-flag" arguments: returns a dict with the options
# given (flags map to 1) and the positional rest under "args"
proc mock_opts {argv with_value flags} {
    set d [dict create args {}]
    for {set i 0} {$i < [llength $argv]} {incr i} {
        set a [lindex $argv $i]
        if {[lsearch -exact $with_value $a] >= 0} {
            incr i
            dict set d $a [lindex $argv $i]
        } elseif {[lsearch -exact $flags $a] >= 0} {
            dict set d $a 1
        } elseif {[string match -* $a] && ![string is double -strict $a]} {
            mock_error "unknown option $a in: $argv"
        } else {
            dict lappend d args $a
        }
    }
    return $d
}

proc mock_need_file {what f} {
    if {![file exists $f]} {
        mock_error "$what: no such file $f"
    }
}

# ---------------------------------------------------------------------------
# Verilog: modules, their parameters, ports and instances (a light parser,
# enough for the board files: ANSI port lists, one declaration per line)
# ---------------------------------------------------------------------------

set mock_modules [dict create]      ;# name -> {file F params {..} ports {name width ..} insts {..} cells {..}}

proc mock_strip_comments {text} {
    regsub -all {/\*.*?\*/} $text { } text
    regsub -all -line {//.*$} $text {} text
    return $text
}

proc mock_parse_verilog {file} {
    global mock_modules
    set f [open $file]
    set text [mock_strip_comments [read $f]]
    close $f
    foreach {whole name} [regexp -all -inline {\mmodule\s+([A-Za-z_][A-Za-z0-9_$]*)} $text] {
        set start [string first $whole $text]
        set end [string first endmodule $text $start]
        set body [string range $text $start $end]
        set params {}
        foreach {- p} [regexp -all -inline {\mparameter\s+(?:\[[^\]]*\]\s*)?(?:integer\s+)?([A-Za-z_]\w*)\s*=} $body] {
            lappend params $p
        }
        set ports {}
        foreach {- dir range p} [regexp -all -inline -line {^\s*(input|output|inout)\s+(?:wire\s+|reg\s+)?(\[[^\]]*\])?\s*([A-Za-z_]\w*)\s*,?\s*$} $body] {
            set width 1
            if {[regexp {\[\s*(\d+)\s*:\s*(\d+)\s*\]} $range -> msb lsb]} {
                set width [expr {abs($msb - $lsb) + 1}]
            }
            dict set ports $p $width
        }
        # instances: "Module name (" on one line, or "Module #(" ... ") name ("
        # around a parameter block; paired in order for the second form
        set insts {}
        set cells {}
        set imap [dict create]
        foreach {- m i} [regexp -all -inline -line {^\s*([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*\(\s*$} $body] {
            if {[lsearch -exact {module input output inout wire reg assign always initial if else begin end} $m] < 0} {
                lappend insts $i
                lappend cells $m
                dict set imap $i $m
            }
        }
        set pmods {}
        foreach {- m} [regexp -all -inline -line {^\s*([A-Za-z_]\w*)\s*#\s*\(\s*$} $body] {
            lappend pmods $m
            lappend cells $m
        }
        set pnames {}
        foreach {- i} [regexp -all -inline -line {^\s*\)\s*([A-Za-z_]\w*)\s*\(\s*$} $body] {
            lappend pnames $i
            lappend insts $i
        }
        if {[llength $pmods] == [llength $pnames]} {
            foreach m $pmods i $pnames {
                dict set imap $i $m
            }
        }
        # registers (for reg_reg cell names in constraints)
        set regs {}
        foreach {- r} [regexp -all -inline -line {^\s*(?:\(\*[^*]*\*\)\s*)?reg\s+(?:\[[^\]]*\]\s*)?([A-Za-z_]\w*)} $body] {
            lappend regs $r
        }
        dict set mock_modules $name [dict create file $file params $params ports $ports insts $insts \
                                         cells $cells regs $regs imap $imap]
    }
}

# ---------------------------------------------------------------------------
# Build-flow state
# ---------------------------------------------------------------------------

set mock_state [dict create part "" project 0 synth 0 opt 0 place 0 route 0 bitstream {} top ""]
set mock_ips [dict create]          ;# module_name -> {vlnv V props {..} generated 0 synth 0 dir D}
set mock_xdc_files {}
set mock_verilog_files {}
set mock_generics [dict create]
set mock_clocks {}

proc mock_check_part {where part} {
    global mock_known_parts
    if {[lsearch -exact $mock_known_parts $part] < 0} {
        mock_error "$where: part '$part' is not one of: $mock_known_parts"
    }
}

proc create_project {args} {
    mock_record create_project {*}$args
    set o [mock_opts $args {-part} {-in_memory -force}]
    if {![dict exists $o -part]} {
        mock_error "create_project without -part"
    } else {
        mock_check_part create_project [dict get $o -part]
        dict set ::mock_state part [dict get $o -part]
    }
    dict set ::mock_state project 1
    return project_1
}

proc set_part {part} {
    mock_record set_part $part
    mock_check_part set_part $part
    dict set ::mock_state part $part
    dict set ::mock_state project 1
}

proc set_param {name value} {
    mock_record set_param $name $value
}

proc current_project {args} {
    mock_record current_project {*}$args
    return project_1
}

proc current_design {args} {
    mock_record current_design {*}$args
    return design_1
}

proc create_ip {args} {
    global mock_ip_allow mock_ips
    mock_record create_ip {*}$args
    set o [mock_opts $args {-name -vendor -library -version -module_name -dir} {-force}]
    foreach need {-name -vendor -library -module_name} {
        if {![dict exists $o $need]} {
            mock_error "create_ip without $need: $args"
            return
        }
    }
    if {![dict get $::mock_state project]} {
        mock_error "create_ip before create_project / set_part"
    }
    set version [expr {[dict exists $o -version] ? [dict get $o -version] : ""}]
    set vlnv "[dict get $o -vendor]:[dict get $o -library]:[dict get $o -name]:$version"
    set key $vlnv
    if {![dict exists $mock_ip_allow $key]} {
        set key "[dict get $o -vendor]:[dict get $o -library]:[dict get $o -name]:"
    }
    if {![dict exists $mock_ip_allow $key]} {
        mock_error "create_ip: no allow-list for IP $vlnv (tcl/mock/ip_props.tcl)"
    }
    set name [dict get $o -module_name]
    if {[dict exists $mock_ips $name]} {
        mock_error "create_ip: $name created twice"
    }
    if {[dict exists $o -dir] && ![file isdirectory [dict get $o -dir]]} {
        mock_error "create_ip: -dir [dict get $o -dir] does not exist"
    }
    dict set mock_ips $name [dict create vlnv $vlnv key $key props [dict create] generated 0 synth 0]
    return $name
}

proc get_ips {args} {
    global mock_ips
    mock_record get_ips {*}$args
    set o [mock_opts $args {-filter} {-quiet -all}]
    set names [dict get $o args]
    if {[llength $names] == 0} {
        return [lmap n [dict keys $mock_ips] {string cat ip: $n}]
    }
    set out {}
    foreach pattern $names {
        set hit 0
        foreach n [dict keys $mock_ips] {
            if {[string match $pattern $n]} {
                lappend out ip:$n
                set hit 1
            }
        }
        if {!$hit && ![dict exists $o -quiet]} {
            mock_error "get_ips: no IP named $pattern"
        }
    }
    return $out
}

# objects are single words "kind:name" (ip, port, cell, pin, net, clock, path,
# hw_device, hw_cfgmem), so that they survive string concatenation the way
# Vivado's objects do (they print as their names); spaces in names become _
proc mock_set_ip_prop {ip prop value} {
    global mock_ips mock_ip_allow
    set key [dict get $mock_ips $ip key]
    if {[string match CONFIG.* $prop]} {
        if {[dict exists $mock_ip_allow $key] && [lsearch -exact [dict get $mock_ip_allow $key] $prop] < 0} {
            mock_error "set_property: $prop is not a known property of [dict get $mock_ips $ip vlnv] ($ip)"
        }
        if {$value eq ""} {
            mock_error "set_property: $prop on $ip set to an empty value"
        }
        if {[dict get $mock_ips $ip generated]} {
            mock_error "set_property: $prop on $ip after generate_target"
        }
    } elseif {[lsearch -exact {GENERATE_SYNTH_CHECKPOINT} $prop] < 0} {
        mock_error "set_property: $prop is no property for IP $ip"
    }
    dict set mock_ips $ip props $prop $value
}

proc mock_set_prop {where prop value objs} {
    global mock_xdc_port_props mock_xdc_design_props mock_hw_props
    foreach obj $objs {
        lassign $obj kind name
        switch -- $kind {
            ip { mock_set_ip_prop $name $prop $value }
            port {
                if {[lsearch -exact $mock_xdc_port_props $prop] < 0} {
                    mock_error "$where: $prop is not a port property this flow knows (port $name)"
                }
                dict set ::mock_port_props $name $prop $value
            }
            design {
                if {[lsearch -exact $mock_xdc_design_props $prop] < 0} {
                    mock_error "$where: $prop is not a design property this flow knows"
                }
            }
            project {
                if {$prop ne "target_language"} {
                    mock_error "$where: $prop on the project"
                }
            }
            hw_device - hw_cfgmem {
                if {[lsearch -exact $mock_hw_props $prop] < 0} {
                    mock_error "$where: $prop is not a PROGRAM.* property of a $kind"
                }
                dict set ::mock_hw_set $prop $value
            }
            default {
                mock_error "$where: $prop on an object of kind '$kind' ($obj)"
            }
        }
    }
}

set mock_port_props [dict create]
set mock_hw_set [dict create]

proc mock_obj {kind name} {
    return $kind:[string map {" " _} $name]
}

# a list of objects as {kind name} pairs; the project and design are plain names
proc mock_objs {arg} {
    set out {}
    foreach o $arg {
        if {$o eq "project_1"} {
            lappend out [list project project_1]
        } elseif {$o eq "design_1"} {
            lappend out [list design design_1]
        } elseif {[regexp {^([a-z_]+):(.*)$} $o -> kind name]} {
            lappend out [list $kind $name]
        } else {
            lappend out [list unknown $o]
        }
    }
    return $out
}

proc set_property {args} {
    mock_record set_property {*}$args
    set o [mock_opts $args {-dict} {-quiet}]
    set rest [dict get $o args]
    if {[dict exists $o -dict]} {
        if {[llength $rest] != 1} {
            mock_error "set_property -dict needs one object list: $args"
            return
        }
        set d [dict get $o -dict]
        if {[llength $d] % 2} {
            mock_error "set_property -dict with an odd list: $d"
            return
        }
        foreach {p v} $d {
            mock_set_prop set_property $p $v [mock_objs [lindex $rest 0]]
        }
    } else {
        if {[llength $rest] != 3} {
            mock_error "set_property needs NAME VALUE OBJECTS: $args"
            return
        }
        lassign $rest p v objs
        mock_set_prop set_property $p $v [mock_objs $objs]
    }
}

proc get_property {args} {
    mock_record get_property {*}$args
    set o [mock_opts $args {} {-quiet}]
    lassign [dict get $o args] prop obj
    switch -glob -- $prop {
        SLACK { return 0.100 }
        PERIOD { return 4.000 }
        PROGRAM.HW_CFGMEM { return hw_cfgmem:cfgmem_0 }
        PROGRAM.HW_CFGMEM_BITFILE { return /mock/cfgmem_helper.bit }
        default {
            if {[string match ip:* $obj]} {
                set ip [string range $obj 3 end]
                if {[dict exists $::mock_ips $ip props $prop]} {
                    return [dict get $::mock_ips $ip props $prop]
                }
            }
            return mock_value
        }
    }
}

proc generate_target {targets objs} {
    global mock_ips
    mock_record generate_target $targets $objs
    foreach obj [mock_objs $objs] {
        lassign $obj kind name
        if {$kind ne "ip"} {
            mock_error "generate_target on $obj (not an IP)"
            continue
        }
        if {[dict size [dict get $mock_ips $name props]] == 0} {
            mock_error "generate_target: $name was never configured (set_property -dict ... \[get_ips $name\])"
        }
        dict set mock_ips $name generated 1
    }
}

proc synth_ip {objs args} {
    global mock_ips
    mock_record synth_ip $objs {*}$args
    foreach obj [mock_objs $objs] {
        lassign $obj kind name
        if {$kind ne "ip" || ![dict get $mock_ips $name generated]} {
            mock_error "synth_ip: $obj not generated first"
            continue
        }
        dict set mock_ips $name synth 1
    }
}

proc read_verilog {args} {
    global mock_verilog_files
    mock_record read_verilog {*}$args
    set o [mock_opts $args {-library} {-sv -quiet}]
    foreach f [concat {*}[dict get $o args]] {
        mock_need_file read_verilog $f
        if {[file exists $f]} {
            lappend mock_verilog_files $f
            mock_parse_verilog $f
        }
    }
}

proc read_xdc {args} {
    global mock_xdc_files
    mock_record read_xdc {*}$args
    set o [mock_opts $args {-ref -cells} {-unmanaged -quiet}]
    foreach f [dict get $o args] {
        mock_need_file read_xdc $f
        if {[file exists $f]} {
            lappend mock_xdc_files $f
        }
    }
}

# source: check the file, then run it (IP recipes, constraints)
rename source mock_real_source
proc source {args} {
    mock_record source {*}$args
    set f [lindex $args end]
    if {![file exists $f]} {
        mock_error "source: no such file $f"
        return
    }
    uplevel #0 [list mock_real_source $f]
}

# ---------------------------------------------------------------------------
# Constraint commands (XDC and post-synthesis Tcl)
# ---------------------------------------------------------------------------

proc mock_top_ports {} {
    set top [dict get $::mock_state top]
    if {$top eq "" || ![dict exists $::mock_modules $top]} {
        return {}
    }
    return [dict get $::mock_modules $top ports]
}

proc get_ports {args} {
    mock_record get_ports {*}$args
    set o [mock_opts $args {-filter -of_objects} {-quiet -regexp -nocase}]
    set ports [mock_top_ports]
    set out {}
    foreach pattern [concat {*}[dict get $o args]] {
        set base $pattern
        set index ""
        regexp {^([^\[]+)\[([0-9*]+)\]$} $pattern -> base index
        set hit 0
        foreach p [dict keys $ports] {
            if {[string match $base $p]} {
                set hit 1
                if {$index ne "" && $index ne "*" && $index >= [dict get $ports $p]} {
                    mock_error "get_ports $pattern: $p has [dict get $ports $p] bit(s)"
                }
                set suffix [expr {$index eq "" ? "" : "\[$index\]"}]
                lappend out [mock_obj port $p$suffix]
            }
        }
        if {!$hit && ![dict exists $o -quiet]} {
            mock_error "get_ports: '$pattern' matches no port of [dict get $::mock_state top]"
        }
    }
    return $out
}

proc mock_check_path {cmd path} {
    # a plain hierarchical name must follow the RTL: each component an
    # instance of the module above it, down to a register or an instance
    # (the last component of a pin is the pin). Names built from the result
    # of a query (kind:...) or with wildcards are not followed.
    set comps [split $path /]
    if {$cmd eq "get_pins"} {
        set comps [lrange $comps 0 end-1]
    }
    set module [dict get $::mock_state top]
    foreach comp $comps {
        if {[string match *:* $comp] || [string match {*[*?]*} $comp]} {
            return
        }
        if {![dict exists $::mock_modules $module imap]} {
            return
        }
        regsub {\[.*$} $comp {} base
        set m [dict get $::mock_modules $module]
        if {[dict exists $m imap $base]} {
            set module [dict get $m imap $base]
            continue
        }
        if {[lsearch -exact [dict get $m insts] $base] >= 0} {
            return
        }
        if {[lsearch -exact [lmap r [dict get $m regs] {string cat $r _reg}] $base] >= 0} {
            return
        }
        mock_error "$cmd $path: '$base' is no instance or register of $module"
        return
    }
}

proc mock_netlist_cmd {cmd kind argv} {
    mock_record $cmd {*}$argv
    if {![dict get $::mock_state synth]} {
        # in an XDC read before synthesis these resolve at link time; fine
    }
    set o [mock_opts $argv {-filter -of_objects -regexp} {-hierarchical -hier -quiet -nocase -leaf}]
    set out {}
    if {[dict exists $o -of_objects]} {
        return [list [mock_obj $kind "of([dict get $o -of_objects])"]]
    }
    foreach pattern [concat {*}[dict get $o args]] {
        if {![dict exists $o -hierarchical] && ![dict exists $o -hier]} {
            mock_check_path $cmd $pattern
        }
        lappend out [mock_obj $kind $pattern]
    }
    if {[llength [dict get $o args]] == 0} {
        lappend out [mock_obj $kind "filter([expr {[dict exists $o -filter] ? [dict get $o -filter] : "*"}])"]
    }
    return $out
}

proc get_cells {args} { return [mock_netlist_cmd get_cells cell $args] }
proc get_pins {args} { return [mock_netlist_cmd get_pins pin $args] }
proc get_nets {args} { return [mock_netlist_cmd get_nets net $args] }

proc get_clocks {args} {
    mock_record get_clocks {*}$args
    set o [mock_opts $args {-of_objects -filter} {-quiet -include_generated_clocks}]
    if {[dict exists $o -of_objects]} {
        return [list [mock_obj clock "of([dict get $o -of_objects])"]]
    }
    set out {}
    foreach n [dict get $o args] {
        if {[lsearch -exact $::mock_clocks $n] < 0 && ![dict exists $o -quiet] && ![string match {*[*?]*} $n]} {
            mock_error "get_clocks: no clock named $n"
        }
        lappend out [mock_obj clock $n]
    }
    return $out
}

proc create_clock {args} {
    mock_record create_clock {*}$args
    set o [mock_opts $args {-period -name -waveform} {-add}]
    if {![dict exists $o -period] || ![string is double -strict [dict get $o -period]] ||
        [dict get $o -period] <= 0} {
        mock_error "create_clock without a positive -period: $args"
    }
    set objs [concat {*}[dict get $o args]]
    if {[llength $objs] == 0} {
        mock_error "create_clock without a source: $args"
    }
    foreach obj [mock_objs $objs] {
        if {[lindex $obj 0] ne "port" && [lindex $obj 0] ne "pin"} {
            mock_error "create_clock on $obj (not a port or pin)"
        }
    }
    if {[dict exists $o -name]} {
        lappend ::mock_clocks [dict get $o -name]
    }
    foreach obj [mock_objs $objs] {
        if {[dict exists $o -period]} {
            dict set ::mock_clock_periods [lindex $obj 1] [dict get $o -period]
        }
    }
}
set mock_clock_periods [dict create]

proc mock_timing_exception {cmd argv value_needed} {
    mock_record $cmd {*}$argv
    set o [mock_opts $argv {-from -to -through -setup -hold} {-datapath_only -quiet -reset_path}]
    if {![dict exists $o -from] && ![dict exists $o -to] && ![dict exists $o -through]} {
        mock_error "$cmd without -from/-to/-through: $argv"
    }
    set rest [dict get $o args]
    if {$value_needed && ([llength $rest] != 1 || ![string is double -strict [lindex $rest 0]])} {
        mock_error "$cmd needs one delay value: $argv"
    }
    if {!$value_needed && [llength $rest] != 0} {
        mock_error "$cmd with stray arguments: $rest"
    }
}

proc set_false_path {args} { mock_timing_exception set_false_path $args 0 }
proc set_max_delay {args} { mock_timing_exception set_max_delay $args 1 }
proc set_min_delay {args} { mock_timing_exception set_min_delay $args 1 }
proc set_bus_skew {args} { mock_timing_exception set_bus_skew $args 1 }

proc set_clock_groups {args} {
    mock_record set_clock_groups {*}$args
    if {[llength [lsearch -all -exact $args -group]] < 2} {
        mock_error "set_clock_groups needs at least two -group: $args"
    }
}

proc set_operating_conditions {args} { mock_record set_operating_conditions {*}$args }

# evaluate one XDC file as Vivado would (Tcl subset) in this interpreter
proc mock_apply_xdc {f} {
    if {[catch {uplevel #0 [list mock_real_source $f]} err]} {
        mock_error "read_xdc $f: $err"
    }
}

# ---------------------------------------------------------------------------
# Synthesis, implementation, outputs
# ---------------------------------------------------------------------------

proc synth_design {args} {
    global mock_modules mock_ips mock_xdc_files mock_generics
    mock_record synth_design {*}$args
    set o [mock_opts $args {-top -part -include_dirs -generic -verilog_define -flatten_hierarchy -mode -directive} {-rtl -quiet}]
    if {![dict exists $o -top]} {
        mock_error "synth_design without -top"
        return
    }
    set top [dict get $o -top]
    dict set ::mock_state top $top
    if {![dict exists $o -part]} {
        mock_error "synth_design without -part"
    } else {
        mock_check_part synth_design [dict get $o -part]
        if {[dict get $o -part] ne [dict get $::mock_state part]} {
            mock_error "synth_design -part [dict get $o -part] differs from the project's [dict get $::mock_state part]"
        }
    }
    if {![dict exists $mock_modules $top]} {
        mock_error "synth_design: top module $top is in none of the files read"
        return
    }
    if {[dict exists $o -include_dirs]} {
        foreach d [dict get $o -include_dirs] {
            if {![file isdirectory $d]} {
                mock_error "synth_design: include directory $d does not exist"
            }
        }
    }
    set params [dict get $mock_modules $top params]
    if {[dict exists $o -generic]} {
        foreach g [dict get $o -generic] {
            if {![regexp {^([A-Za-z_]\w*)=(.*)$} $g -> name value]} {
                mock_error "synth_design: -generic '$g' is not NAME=VALUE"
                continue
            }
            if {[lsearch -exact $params $name] < 0} {
                mock_error "synth_design: -generic $name is no parameter of $top"
            }
            dict set mock_generics $name $value
            if {$name eq "FW_INIT_FILE"} {
                set path [string trim $value \"]
                mock_need_file "synth_design FW_INIT_FILE" $path
            }
        }
    }
    # every module instantiated under the top (as far as this parser sees
    # instances) is read, a created IP, or a Xilinx primitive the flow uses
    set prims {IBUFDS IBUFDS_GTE4 BUFG BUFG_GT BUFGCE BUFGCE_DIV OBUFDS MMCME4_BASE STARTUPE3}
    set todo [list $top]
    set seen [dict create]
    while {[llength $todo]} {
        set m [lindex $todo 0]
        set todo [lrange $todo 1 end]
        if {[dict exists $seen $m]} {
            continue
        }
        dict set seen $m 1
        foreach c [dict get $mock_modules $m cells] {
            if {$c eq "?" || [lsearch -exact $prims $c] >= 0} {
                continue
            }
            if {[dict exists $mock_modules $c]} {
                lappend todo $c
            } elseif {[dict exists $mock_ips $c]} {
                if {![dict get $mock_ips $c synth]} {
                    mock_error "synth_design: IP $c is instantiated but was not generated and synthesised (synth_ip)"
                }
            } else {
                mock_error "synth_design: module $c (instantiated in $m) is neither read nor a created IP"
            }
        }
    }
    foreach ip [dict keys $mock_ips] {
        if {![dict get $mock_ips $ip synth]} {
            mock_error "synth_design: IP $ip was created but not synthesised (synth_ip)"
        }
    }
    foreach f $mock_xdc_files {
        mock_apply_xdc $f
    }
    dict set ::mock_state synth 1
}

proc mock_step {name need} {
    mock_record $name
    if {![dict get $::mock_state $need]} {
        mock_error "$name before $need"
    }
}

proc opt_design {args} { mock_step opt_design synth; dict set ::mock_state opt 1 }
proc place_design {args} { mock_step place_design opt; dict set ::mock_state place 1 }
proc phys_opt_design {args} { mock_step phys_opt_design place }
proc route_design {args} { mock_step route_design place; dict set ::mock_state route 1 }

proc mock_out_file {cmd argv opts flags} {
    mock_record $cmd {*}$argv
    set o [mock_opts $argv $opts $flags]
    return $o
}

proc mock_need_dir_of {cmd f} {
    if {$f ne "" && ![file isdirectory [file dirname $f]]} {
        mock_error "$cmd: directory of $f does not exist"
    }
}

foreach r {report_utilization report_timing_summary report_clock_interaction report_cdc report_drc
           report_power report_methodology report_io} {
    proc $r {args} [string map [list @R@ $r] {
        set o [mock_out_file @R@ $args {-file -max_paths -name -cells} {-hierarchical -quiet -append -details}]
        if {![dict get $::mock_state synth]} {
            mock_error "@R@ before synth_design"
        }
        if {[dict exists $o -file]} {
            mock_need_dir_of @R@ [dict get $o -file]
        }
    }]
}

proc write_checkpoint {args} {
    set o [mock_out_file write_checkpoint $args {} {-force}]
    if {![dict get $::mock_state synth]} {
        mock_error "write_checkpoint before synth_design"
    }
    mock_need_dir_of write_checkpoint [lindex [dict get $o args] 0]
}

proc get_timing_paths {args} {
    mock_record get_timing_paths {*}$args
    if {![dict get $::mock_state synth]} {
        mock_error "get_timing_paths before synth_design"
    }
    return [list path:worst]
}

proc write_bitstream {args} {
    set o [mock_out_file write_bitstream $args {} {-force -bin_file}]
    if {![dict get $::mock_state route]} {
        mock_error "write_bitstream before route_design"
    }
    set f [lindex [dict get $o args] 0]
    mock_need_dir_of write_bitstream $f
    if {[file isdirectory [file dirname $f]]} {
        set h [open $f w]
        puts $h "mock bitstream"
        close $h
    }
    dict lappend ::mock_state bitstream [file normalize $f]
}

proc write_cfgmem {args} {
    global mock_cfgmem_interface mock_cfgmem_size
    set o [mock_out_file write_cfgmem $args {-format -size -interface -loadbit -file} {-force -checksum}]
    foreach need {-format -size -interface -loadbit -file} {
        if {![dict exists $o $need]} {
            mock_error "write_cfgmem without $need"
            return
        }
    }
    if {[dict get $o -interface] ne $mock_cfgmem_interface || [dict get $o -size] != $mock_cfgmem_size} {
        mock_error "write_cfgmem: -interface [dict get $o -interface] -size [dict get $o -size]; the U200/U250 flash needs $mock_cfgmem_interface, $mock_cfgmem_size MB"
    }
    lassign [dict get $o -loadbit] dir addr bit
    if {$dir ne "up" || ![string is wideinteger -strict $addr]} {
        mock_error "write_cfgmem -loadbit '[dict get $o -loadbit]' is not 'up ADDRESS FILE'"
    }
    if {[lsearch -exact [dict get $::mock_state bitstream] [file normalize $bit]] < 0} {
        mock_error "write_cfgmem loads $bit, which write_bitstream did not write"
    }
    set f [dict get $o -file]
    mock_need_dir_of write_cfgmem $f
    foreach ext {.mcs .prm} {
        set h [open [file rootname $f]$ext w]
        puts $h "mock $ext"
        close $h
    }
}

# ---------------------------------------------------------------------------
# Hardware manager (programming scripts)
# ---------------------------------------------------------------------------

set mock_hw [dict create open 0 server 0 target 0 device "" cfgmem 0 helper 0]

proc open_hw_manager {args} { mock_record open_hw_manager; dict set ::mock_hw open 1 }
proc open_hw {args} { mock_record open_hw; dict set ::mock_hw open 1 }
proc close_hw_manager {args} { mock_record close_hw_manager }
proc close_hw {args} { mock_record close_hw }
proc connect_hw_server {args} {
    mock_record connect_hw_server {*}$args
    if {![dict get $::mock_hw open]} { mock_error "connect_hw_server before open_hw_manager" }
    mock_opts $args {-url} {-allow_non_jtag}
    dict set ::mock_hw server 1
}
proc disconnect_hw_server {args} { mock_record disconnect_hw_server }
proc open_hw_target {args} {
    mock_record open_hw_target {*}$args
    if {![dict get $::mock_hw server]} { mock_error "open_hw_target before connect_hw_server" }
    dict set ::mock_hw target 1
}
proc close_hw_target {args} { mock_record close_hw_target }
proc get_hw_devices {args} {
    mock_record get_hw_devices {*}$args
    if {![dict get $::mock_hw target]} { mock_error "get_hw_devices before open_hw_target" }
    set pattern [expr {[llength $args] ? [lindex $args end] : "*"}]
    if {[string match $pattern xcu200_0]} { return [list hw_device:xcu200_0] }
    return {}
}
proc current_hw_device {args} {
    mock_record current_hw_device {*}$args
    if {[llength $args]} { dict set ::mock_hw device [lindex $args 0] }
    return [dict get $::mock_hw device]
}
proc refresh_hw_device {args} {
    mock_record refresh_hw_device {*}$args
    if {[dict get $::mock_hw device] eq ""} { mock_error "refresh_hw_device with no current device" }
}
proc get_cfgmem_parts {args} {
    mock_record get_cfgmem_parts {*}$args
    set out {}
    foreach p $::mock_cfgmem_parts {
        if {[string match [lindex $args end] $p]} { lappend out $p }
    }
    if {$out eq {}} { mock_error "get_cfgmem_parts [lindex $args end]: not the U200/U250 flash ($::mock_cfgmem_parts)" }
    return $out
}
proc create_hw_cfgmem {args} {
    mock_record create_hw_cfgmem {*}$args
    set o [mock_opts $args {-hw_device} {}]
    if {[lindex [dict get $o args] 0] eq ""} { mock_error "create_hw_cfgmem without a flash part" }
    dict set ::mock_hw cfgmem 1
    return hw_cfgmem:cfgmem_0
}
proc current_hw_cfgmem {args} { mock_record current_hw_cfgmem {*}$args; return hw_cfgmem:cfgmem_0 }
proc create_hw_bitstream {args} {
    mock_record create_hw_bitstream {*}$args
    if {![dict get $::mock_hw cfgmem]} { mock_error "create_hw_bitstream before create_hw_cfgmem" }
    dict set ::mock_hw helper 1
}
proc program_hw_devices {args} {
    mock_record program_hw_devices {*}$args
    if {[dict get $::mock_hw device] eq ""} { mock_error "program_hw_devices with no device" }
    if {!([dict exists $::mock_hw_set PROGRAM.FILE] || [dict get $::mock_hw helper])} {
        mock_error "program_hw_devices with neither PROGRAM.FILE nor the flash helper bitstream"
    }
    if {[dict exists $::mock_hw_set PROGRAM.FILE]} {
        mock_need_file "PROGRAM.FILE" [dict get $::mock_hw_set PROGRAM.FILE]
    }
}
proc program_hw_cfgmem {args} {
    mock_record program_hw_cfgmem {*}$args
    if {![dict get $::mock_hw helper]} { mock_error "program_hw_cfgmem before the helper bitstream was loaded" }
    foreach need {PROGRAM.FILES PROGRAM.PRM_FILES PROGRAM.ERASE PROGRAM.CFG_PROGRAM} {
        if {![dict exists $::mock_hw_set $need]} { mock_error "program_hw_cfgmem without $need" }
    }
    foreach p {PROGRAM.FILES PROGRAM.PRM_FILES} {
        if {[dict exists $::mock_hw_set $p]} {
            foreach f [dict get $::mock_hw_set $p] { mock_need_file $p $f }
        }
    }
}
proc boot_hw_device {args} { mock_record boot_hw_device {*}$args }

# ---------------------------------------------------------------------------
# Run
# ---------------------------------------------------------------------------

lassign $argv mock_mode mock_script
set argv [lrange $argv 2 end]
set argc [llength $argv]
if {$mock_mode ni {build hw} || $mock_script eq ""} {
    puts stderr "usage: tclsh vivado_mock.tcl build|hw SCRIPT \[ARGS...\]"
    exit 2
}

set mock_script [file normalize $mock_script]
set argv0 $mock_script
if {[catch {uplevel #0 [list mock_real_source $mock_script]} err opts]} {
    mock_error "[file tail $mock_script] stopped: $err"
    if {[info exists ::env(MOCK_TRACE)]} {
        puts [dict get $opts -errorinfo]
    }
}

if {$mock_mode eq "build"} {
    foreach step {synth route} {
        if {![dict get $mock_state $step]} {
            mock_error "the flow never reached [expr {$step eq "synth" ? "synth_design" : "route_design"}]"
        }
    }
    if {[llength [dict get $mock_state bitstream]] == 0} {
        mock_error "no bitstream written"
    }
    if {[dict get $mock_state synth] && [dict exists $mock_modules fpga]} {
        mock_real_source [file join $mock_dir board_checks.tcl]
    }
}

if {$mock_errors} {
    puts "mock: $mock_errors error(s) in [file tail $mock_script] ($mock_calls Vivado commands)"
    exit 1
}
puts "mock: ok [file tail $mock_script] ($mock_calls Vivado commands)"
exit 0
