#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every check of the XDMA host glue (fpga/common/rtl/froce_axi_bar_split.v,
# froce_axi_upsize.v, froce_msix_emitter.v); ends with "N passed, N failed" and
# exits non-zero if anything failed.
#
#   tests/fpga_common/glue/run.sh       (from anywhere; builds in build/fpga_common/glue/)
#
# Environment:
#   GLUE_SEED=N         random seed of the cocotb benches (default 1)
#   GLUE_SCALE=N        N times the random operations (default 1)
#   GLUE_SYNTH=0        skip the Yosys runs (about 15 s of CPU)
#   GLUE_MUTANTS=1      also run RTL mutants (each must be caught; about 1 min more)
#
# Steps (one simulator at a time):
#   1. verilator --lint-only -Wall and iverilog -g2005 -Wall on each module as
#      top, at several parameter sets each; a bad parameter fails to elaborate
#   2. cocotb (Icarus, the pinned venv of scripts/cocotb_venv.sh), each test
#      counted: the splitter at 256 bits (BAR2 reads forwarded) and at 64 bits
#      with a 32-bit address (BAR2 write-only), the upsizer 64 -> 256 and
#      32 -> 128, the MSI-X emitter at 64 and 256 bits
#   3. negative control: the same benches with deliberately wrong expectations
#      (GLUE_NEGATIVE=1) must fail every selected test
#   4. Yosys: synth -top; check -assert; no latch, each module at its defaults
#   5. (GLUE_MUTANTS=1) mutated copies of the RTL; the named test must fail
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
TB="$ROOT/tests/fpga_common/glue"
GLUE="$ROOT/fpga/common/rtl"
BUILD="$ROOT/build/fpga_common/glue"
LOGS="$BUILD/logs"
mkdir -p "$LOGS"

VENV="$(bash "$ROOT/scripts/cocotb_venv.sh")" || { echo "run.sh: no cocotb venv" >&2; echo "0 passed, 1 failed"; exit 1; }
export PATH="$VENV/bin:$PATH"
export PYTHONDONTWRITEBYTECODE=1
export GLUE_SEED="${GLUE_SEED:-1}"
export GLUE_SCALE="${GLUE_SCALE:-1}"
PY="$VENV/bin/python"
T0=$SECONDS

source "$ROOT/tests/lib/checks.sh"

BAR=(TOPLEVEL=froce_axi_bar_split MODULE=test_bar_split)
UPS=(TOPLEVEL=froce_axi_upsize MODULE=test_upsize)
MSX=(TOPLEVEL=froce_msix_emitter MODULE=test_msix)
BAR256="DATA_WIDTH=256 BAR2_READ_ENABLE=1"
# BAR0 at 0x40000, BAR2 (64 KiB) at 0x200000
BAR64="DATA_WIDTH=64 ADDR_WIDTH=32 BAR0_BASE=262144 BAR2_BASE=2097152 BAR2_ADDR_WIDTH=16"
MSX64="NUM_VECTORS=6 DATA_WIDTH=64 DMA_ID_WIDTH=2 DMA_OUT_WIDTH=5 AXI_ID=3"

section "1. lint"
VL=(verilator --lint-only -Wall -y rtl/common)
IV=(iverilog -g2005 -Wall -o /dev/null -y rtl/common -Y .v)
lint() {
    local top=$1 name=$2
    shift 2
    local gv=() gi=() p
    for p in "$@"; do gv+=("-G$p"); gi+=("-P$top.$p"); done
    check_quiet "verilator $top $name" "${VL[@]}" "${gv[@]}" --top-module "$top" "fpga/common/rtl/$top.v"
    check_quiet "iverilog  $top $name" "${IV[@]}" "${gi[@]}" -s "$top" "fpga/common/rtl/$top.v"
}
lint froce_axi_bar_split defaults
lint froce_axi_bar_split 64-a32 DATA_WIDTH=64 ADDR_WIDTH=32
lint froce_axi_bar_split 512-bar2rd DATA_WIDTH=512 BAR2_READ_ENABLE=1
lint froce_axi_bar_split 128 DATA_WIDTH=128 BAR0_ADDR_WIDTH=12
lint froce_axi_upsize defaults
lint froce_axi_upsize 32-128 S_DATA_WIDTH=32 M_DATA_WIDTH=128
lint froce_axi_upsize 64-1024 S_DATA_WIDTH=64 M_DATA_WIDTH=1024 ID_WIDTH=1
lint froce_axi_upsize 256-512 S_DATA_WIDTH=256 M_DATA_WIDTH=512 ID_WIDTH=6
lint froce_msix_emitter defaults
lint froce_msix_emitter 256-1vec DATA_WIDTH=256 NUM_VECTORS=1 TBL_LATENCY=0 DMA_ID_WIDTH=1
lint froce_msix_emitter 512-2048vec DATA_WIDTH=512 NUM_VECTORS=2048 DMA_ID_WIDTH=6 DMA_OUT_WIDTH=16
check_fails "bad-parameter bar_split BAR2_BASE unaligned" \
    verilator --lint-only -Wall -GBAR2_BASE=1052672 --top-module froce_axi_bar_split fpga/common/rtl/froce_axi_bar_split.v
check_fails "bad-parameter upsize equal widths" \
    "${IV[@]}" -Pfroce_axi_upsize.M_DATA_WIDTH=64 -s froce_axi_upsize fpga/common/rtl/froce_axi_upsize.v
check_fails "bad-parameter msix DATA_WIDTH=32" \
    "${VL[@]}" -GDATA_WIDTH=32 --top-module froce_msix_emitter fpga/common/rtl/froce_msix_emitter.v

section "2. cocotb benches"
cocotb_pass bar256 "${BAR[@]}" PARAMS="$BAR256"
GLUE_SCALE=0.5 cocotb_pass bar64 "${BAR[@]}" PARAMS="$BAR64" \
    TESTCASE=test_doorbells,test_bar0_units,test_random,test_outside
cocotb_pass upsize256 "${UPS[@]}" PARAMS="S_DATA_WIDTH=64 M_DATA_WIDTH=256"
GLUE_SCALE=0.2 cocotb_pass upsize128 "${UPS[@]}" PARAMS="S_DATA_WIDTH=32 M_DATA_WIDTH=128 ID_WIDTH=5" \
    TESTCASE=test_random,test_throughput
cocotb_pass msix64 "${MSX[@]}" PARAMS="$MSX64"
GLUE_SCALE=0.5 cocotb_pass msix256 "${MSX[@]}" PARAMS="NUM_VECTORS=32 DATA_WIDTH=256 DMA_ID_WIDTH=4" \
    TESTCASE=test_unmasked,test_vector_mask,test_random

section "3. negative control"
# same builds as above (each copy keeps its own results.xml)
negative() {
    local run=$1 from=$2
    shift 2
    mkdir -p "$BUILD/$run" && cp -a "$BUILD/$from/sim_build" "$BUILD/$run/" 2>/dev/null
    GLUE_NEGATIVE=1 cocotb_fail "$run" "$@"
}
negative negative-bar bar256 "${BAR[@]}" PARAMS="$BAR256" \
    TESTCASE=test_doorbells,test_bar0_units,test_random,test_outside,test_bursts
negative negative-upsize upsize256 "${UPS[@]}" PARAMS="S_DATA_WIDTH=64 M_DATA_WIDTH=256" \
    TESTCASE=test_random,test_read_error,test_throughput
GLUE_SCALE=0.3 negative negative-msix msix64 "${MSX[@]}" PARAMS="$MSX64" \
    TESTCASE=test_unmasked,test_vector_mask,test_function_mask_and_enable,test_mask_while_waiting

if [[ ${GLUE_SYNTH:-1} != 0 ]]; then
    section "4. yosys"
    synth() {
        local top=$1 log="$LOGS/synth_$1.log"
        shift
        local files=("$GLUE/$top.v") f
        for f in "$@"; do files+=("$ROOT/$f"); done
        if yosys -q -l "$log" -p "read_verilog ${files[*]}; hierarchy -check -top $top;
                                   synth -top $top; check -assert" >/dev/null 2>&1 &&
            ! grep -qE '^[[:space:]]*Latch inferred for signal|\$_DLATCH|\$dlatch' "$log"; then
            ok "yosys $top: $(grep -m1 -oE 'Number of cells: +[0-9]+' <(tac "$log") | tr -s ' ')"
        else
            bad "yosys $top" "$log"
        fi
    }
    synth froce_axi_bar_split
    synth froce_axi_upsize rtl/common/froce_fifo.v
    synth froce_msix_emitter
fi

if [[ ${GLUE_MUTANTS:-0} == 1 ]]; then
    section "5. mutants"
    # mutant NAME FILE FROM TO RUN-ARGS...: FROM must occur in fpga/common/rtl/FILE
    mutant() {
        local name=$1 file=$2 from=$3 to=$4
        shift 4
        local dir="$BUILD/mutants/$name/rtl"
        rm -rf "$dir" && mkdir -p "$dir" && cp -a "$GLUE"/*.v "$dir/"
        if ! grep -qF -- "$from" "$dir/$file"; then
            bad "mutant $name: '$from' not found in $file"
            return
        fi
        FROM="$from" TO="$to" "$PY" -c 'import os, sys; p = sys.argv[1]; s = open(p).read()
open(p, "w").write(s.replace(os.environ["FROM"], os.environ["TO"], 1))' "$dir/$file"
        cocotb_fail "mutant-$name" GLUE_RTL="$dir" "$@"
    }
    mutant bar-bar2-dwords froce_axi_bar_split.v "wire is_q = win_reg == WIN_BAR2;" "wire is_q = 1'b0;" \
        "${BAR[@]}" PARAMS="$BAR256" TESTCASE=test_doorbells
    mutant bar-lanes-from-0 froce_axi_bar_split.v "beat_lanes[i] = i >= lo && i < hi;" \
        "beat_lanes[i] = i < hi;" "${BAR[@]}" PARAMS="$BAR256" TESTCASE=test_bar0_units
    mutant bar-outside-written froce_axi_bar_split.v "win_reg == WIN_NONE ? {NU{1'b0}} : units_of(w_bytes, is_q)" \
        "units_of(w_bytes, is_q)" "${BAR[@]}" PARAMS="$BAR256" TESTCASE=test_outside
    mutant upsize-rd-lane froce_axi_upsize.v "r_pos == 9'd0 ? r_lane0 : {KR{1'b0}}" "r_lane0" \
        "${UPS[@]}" PARAMS="S_DATA_WIDTH=64 M_DATA_WIDTH=256" TESTCASE=test_random
    mutant upsize-one-queue froce_axi_upsize.v "rq_heads[m_axi_rid * QW +: QW]" "rq_heads[0 +: QW]" \
        "${UPS[@]}" PARAMS="S_DATA_WIDTH=64 M_DATA_WIDTH=256" TESTCASE=test_random
    mutant upsize-wlast froce_axi_upsize.v "if (w_lane == LANE_MAX || s_axi_wlast) begin" \
        "if (w_lane == LANE_MAX) begin" "${UPS[@]}" PARAMS="S_DATA_WIDTH=64 M_DATA_WIDTH=256" TESTCASE=test_random
    mutant msix-no-wait froce_msix_emitter.v "end else if (dma_caught_up) begin" "end else if (1'b1) begin" \
        "${MSX[@]}" PARAMS="$MSX64" TESTCASE=test_unmasked
    # plain counts: any B taken for a write of any ID
    mutant msix-ids-ignored froce_msix_emitter.v "if (dma_b_fire && dma_b_id == di[DMA_ID_WIDTH-1:0]) begin" \
        "if (dma_b_fire) begin" "${MSX[@]}" PARAMS="$MSX64" TESTCASE=test_unmasked
    mutant msix-mask-once froce_msix_emitter.v "wire cur_ok = func_ok && !vec_mask[vec_reg];" \
        "wire cur_ok = 1'b1;" "${MSX[@]}" PARAMS="$MSX64" TESTCASE=test_mask_while_waiting
    mutant msix-disabled-sends froce_msix_emitter.v "wire func_ok = msix_enable && !msix_func_mask;" \
        "wire func_ok = !msix_func_mask;" "${MSX[@]}" PARAMS="$MSX64" TESTCASE=test_function_mask_and_enable
fi

echo
echo "($((SECONDS - T0)) s)"
summary
