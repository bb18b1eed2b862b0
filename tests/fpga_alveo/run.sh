#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every check of the Alveo U200/U250 board (fpga/alveo_u200, the 2:1 AXI write
# arbiter fpga/common/rtl/froce_axi_wr_arb.v) that runs without Vivado; ends
# with "N passed, N failed" and exits non-zero if anything failed.
#
#   tests/fpga_alveo/run.sh        (from anywhere; builds in build/fpga_alveo/ and build/fpga/alveo_u200/)
#
# Environment:
#   ALVEO_SEED=N        random seed of the arbiter bench (default 1)
#   ALVEO_YOSYS=0       skip the Yosys synthesis of fpga_core (the long step)
#
# Steps (the Yosys run starts first, in the background, on the second core):
#   1. lint: make -C fpga/alveo_u200 check-lint (Verilator -Wall and Icarus on
#      fpga with the Xilinx stubs and on fpga_core, from tcl/sources.tcl's
#      list); the arbiter at two parameter sets; bad parameters refused
#   2. the arbiter's cocotb bench (Icarus, scripts/cocotb_venv.sh), its
#      negative control and a mutant (fixed priority) that must fail
#   3. the TCL flow: make check-tcl (build.tcl for U200 and U250, the flash
#      and JTAG scripts under the mocked Vivado); then broken copies of the
#      flow (a missing file, a misspelt IP property, a wrong port in the XDC,
#      an unknown part, a BAR translation that disagrees with the RTL, a bus
#      index out of range, a misspelt Vivado command, a wrong instance path,
#      the wrong flash part) that the mock must each reject for that reason
#   4. Yosys: make check-yosys (synth_xilinx -family xcup of fpga_core with
#      small tables, flattened, no latch), utilisation table
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TB="$ROOT/tests/fpga_alveo/wr_arb"
BOARD="$ROOT/fpga/alveo_u200"
BUILD="$ROOT/build/fpga_alveo"
LOGS="$BUILD/logs"
rm -rf "$BUILD/neg"
mkdir -p "$LOGS"
T0=$SECONDS

source "$ROOT/tests/lib/checks.sh"

# make_step NAME TARGET: runs a check target of the board Makefile; each of
# its "ok    X" / "FAIL  X" lines counts as a check
make_step() {
    local name=$1 target=$2 log="$LOGS/$1.log" line n=0
    make -s -C "$BOARD" "$target" >"$log" 2>&1
    local status=$?
    while IFS= read -r line; do
        case $line in
            "ok    "*) ok "${line#ok    }"; n=$((n + 1)) ;;
            "FAIL  "*) bad "${line#FAIL  }"; n=$((n + 1)) ;;
        esac
    done <"$log"
    if [[ $status -ne 0 && $n -eq 0 ]]; then bad "$name (make $target)" "$log"; fi
}

# the long one first, on the other core
YOSYS_PID=
if [[ ${ALVEO_YOSYS:-1} != 0 ]]; then
    make -s -C "$BOARD" check-yosys >"$LOGS/yosys.log" 2>&1 &
    YOSYS_PID=$!
fi

section "1. lint"
make_step lint check-lint
VL=(verilator --lint-only -Wall)
IV=(iverilog -g2005 -Wall -o /dev/null)
ARB=fpga/common/rtl/froce_axi_wr_arb.v
check_quiet "verilator froce_axi_wr_arb defaults" "${VL[@]}" --top-module froce_axi_wr_arb $ARB
check_quiet "iverilog  froce_axi_wr_arb defaults" "${IV[@]}" -s froce_axi_wr_arb $ARB
check_quiet "verilator froce_axi_wr_arb 256-bit, 1-bit ID, 2 deep" "${VL[@]}" -GDATA_WIDTH=256 -GID_WIDTH=1 \
    -GFIFO_DEPTH=2 --top-module froce_axi_wr_arb $ARB
check_quiet "iverilog  froce_axi_wr_arb 256-bit, 1-bit ID, 2 deep" "${IV[@]}" -Pfroce_axi_wr_arb.DATA_WIDTH=256 \
    -Pfroce_axi_wr_arb.ID_WIDTH=1 -Pfroce_axi_wr_arb.FIFO_DEPTH=2 -s froce_axi_wr_arb $ARB
check_fails "bad-parameter froce_axi_wr_arb FIFO_DEPTH=3" "${VL[@]}" -GFIFO_DEPTH=3 --top-module froce_axi_wr_arb $ARB
SRC=$(tclsh "$BOARD/tcl/sources.tcl" verilog "$ROOT")
INC=$(tclsh "$BOARD/tcl/sources.tcl" include "$ROOT" | sed 's/^/-I/')
# shellcheck disable=SC2086
check_fails "bad-parameter fpga_core NUM_VECTORS=24" "${VL[@]}" $INC -GNUM_VECTORS=24 --top-module fpga_core $SRC

section "2. write arbiter bench"
VENV="$(bash "$ROOT/scripts/cocotb_venv.sh")" || { bad "cocotb venv (scripts/cocotb_venv.sh)"; VENV=; }
if [[ -n $VENV ]]; then
    export PATH="$VENV/bin:$PATH"
    export PYTHONDONTWRITEBYTECODE=1
    export ARB_SEED="${ALVEO_SEED:-1}"
    PY="$VENV/bin/python"
    cocotb_pass arb64 PARAMS="DATA_WIDTH=64 ID_WIDTH=4"
    mkdir -p "$BUILD/arb64-negative" && cp -a "$BUILD/arb64/sim_build" "$BUILD/arb64-negative/" 2>/dev/null
    ARB_NEGATIVE=1 cocotb_fail arb64-negative PARAMS="DATA_WIDTH=64 ID_WIDTH=4"
    # fixed priority for port 0: the MSI-X port starves behind a DMA stream
    mut="$BUILD/mutants/fixed-priority"
    rm -rf "$mut" && mkdir -p "$mut" && cp "$ROOT/$ARB" "$mut/"
    FROM='wire pick1 = s1_axi_awvalid && (!s0_axi_awvalid || prio_reg);'
    if grep -qF -- "$FROM" "$mut/froce_axi_wr_arb.v"; then
        FROM="$FROM" TO='wire pick1 = s1_axi_awvalid && !s0_axi_awvalid;' "$PY" -c 'import os, sys
p = sys.argv[1]; s = open(p).read(); open(p, "w").write(s.replace(os.environ["FROM"], os.environ["TO"], 1))' \
            "$mut/froce_axi_wr_arb.v"
        cocotb_fail mutant-fixed-priority ARB_RTL="$mut" TESTCASE=test_no_starvation
    else
        bad "mutant fixed-priority: pattern not found in $ARB"
    fi
fi

section "3. TCL flow (mocked Vivado)"
make_step tcl check-tcl

# neg_copy NAME: a scratch tree with the board's TCL and constraints copied
# and the RTL linked, so one file can be broken without touching the checkout
neg_copy() {
    local dir="$BUILD/neg/$1"
    rm -rf "$dir"
    mkdir -p "$dir/fpga" "$dir/constraints"
    cp -a "$BOARD" "$dir/fpga/"
    ln -s "$ROOT/fpga/common" "$dir/fpga/common"
    cp -a "$ROOT/constraints/alveo_u200" "$dir/constraints/"
    ln -s "$ROOT/rtl" "$dir/rtl"
    echo "$dir"
}

# mock_rejects NAME FILE FROM TO EXPECT [MODE]: break FILE (relative to the copy)
# by replacing FROM with TO; the mocked run must fail with a message matching EXPECT
FW_HEX="$ROOT/build/firmware/froce-fw.hex"
[[ -f $FW_HEX ]] || make -s -C "$ROOT/firmware" image >"$LOGS/firmware.log" 2>&1
mock_rejects() {
    local name=$1 file=$2 from=$3 to=$4 expect=$5 mode=${6:-build} dir log="$LOGS/neg_$1.log"
    dir=$(neg_copy "$name")
    if ! grep -qF -- "$from" "$dir/$file"; then
        bad "mock rejects $name: '$from' not found in $file"
        return
    fi
    FROM="$from" TO="$to" python3 -c 'import os, sys
p = sys.argv[1]; s = open(p).read(); open(p, "w").write(s.replace(os.environ["FROM"], os.environ["TO"]))' \
        "$dir/$file"
    local tcl="$dir/fpga/alveo_u200/tcl"
    if [[ $mode == build ]]; then
        OUT_DIR="$dir/out" FW_HEX="$FW_HEX" tclsh "$tcl/mock/vivado_mock.tcl" build "$tcl/build.tcl" >"$log" 2>&1
    else
        touch "$dir/x.mcs" "$dir/x.prm"
        tclsh "$tcl/mock/vivado_mock.tcl" hw "$tcl/program_flash.tcl" "$dir/x.mcs" "$dir/x.prm" >"$log" 2>&1
    fi
    local status=$?
    if [[ $status -ne 0 ]] && grep -qE -- "$expect" "$log"; then
        ok "mock rejects $name: $(grep -m1 -E -- "$expect" "$log" | cut -c1-110)"
    else
        bad "mock rejects $name (exit $status, expected /$expect/)" "$log"
    fi
}

# positive control: the unbroken copy passes, so each failure below is its mutation's
dir=$(neg_copy control)
if OUT_DIR="$dir/out" FW_HEX="$FW_HEX" tclsh "$dir/fpga/alveo_u200/tcl/mock/vivado_mock.tcl" build \
        "$dir/fpga/alveo_u200/tcl/build.tcl" >"$LOGS/neg_control.log" 2>&1; then
    ok "mock accepts the unbroken copy"
else
    bad "mock accepts the unbroken copy" "$LOGS/neg_control.log"
fi
mock_rejects missing-file fpga/alveo_u200/tcl/sources.tcl \
    fpga/common/rtl/froce_axi_cdc.v fpga/common/rtl/froce_axi_cdcx.v "read_verilog: no such file"
mock_rejects misspelt-property fpga/alveo_u200/tcl/ip_xdma.tcl \
    CONFIG.pf0_bar2_size CONFIG.pf0_bar2_sise "CONFIG.pf0_bar2_sise is not a known property"
mock_rejects wrong-port constraints/alveo_u200/pins.xdc \
    "[get_ports qsfp0_modsell]" "[get_ports qsfp0_modsel]" "'qsfp0_modsel' matches no port"
mock_rejects unknown-part fpga/alveo_u200/tcl/build.tcl \
    xcu200-fsgd2104-2-e xcu200-fsgd2104-1-e "part 'xcu200-fsgd2104-1-e' is not one of"
mock_rejects bar2-translation fpga/alveo_u200/tcl/ip_xdma.tcl \
    "CONFIG.pciebar2axibar_2 {0x0000000000100000}" "CONFIG.pciebar2axibar_2 {0x0000000000200000}" \
    "board check: xdma_0 BAR2 translation"
mock_rejects bus-index constraints/alveo_u200/pins.xdc \
    "[get_ports {led[2]}]" "[get_ports {led[3]}]" "get_ports led\[3\]: led has 3 bit"
mock_rejects misspelt-command constraints/alveo_u200/cdc.tcl \
    "set_false_path -to [get_pins {tx_active" "set_flase_path -to [get_pins {tx_active" \
    "invalid command name \"set_flase_path\""
mock_rejects instance-path constraints/alveo_u200/cdc.tcl \
    u_core/u_status_sync u_core/u_stat_sync "'u_stat_sync' is no instance or register of fpga_core"
mock_rejects flash-part fpga/alveo_u200/tcl/program_flash.tcl \
    mt25qu01g-spi-x1_x2_x4 mt25qu512-spi-x1_x2_x4 "not the U200/U250 flash" hw

if [[ -n $YOSYS_PID ]]; then
    section "4. yosys (synth_xilinx -family xcup, fpga_core with small tables)"
    wait "$YOSYS_PID"
    ystatus=$?
    if [[ $ystatus -eq 0 ]]; then
        ok "yosys synth_xilinx fpga_core: no latch"
        sed 's/^/      /' "$LOGS/yosys.log"
    else
        bad "yosys synth_xilinx fpga_core" "$LOGS/yosys.log"
    fi
fi

echo
echo "($((SECONDS - T0)) s)"
summary
