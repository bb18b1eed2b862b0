#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every check of the clock-crossing blocks (fpga/common/rtl/froce_async_fifo.v,
# froce_async_frame_fifo.v, froce_axi_cdc.v, froce_axil_cdc.v, froce_sync_reset.v,
# froce_sync_bit.v); ends with "N passed, N failed" and exits non-zero if
# anything failed.
#
#   tests/fpga_common/cdc/run.sh        (from anywhere; builds in build/fpga_common/cdc/)
#
# Environment:
#   CDC_SEED=N          random seed of the cocotb benches (default 1)
#   CDC_SYNTH=0         skip the Yosys runs (about 10 s of CPU)
#   CDC_MUTANTS=1       also run the RTL mutants (each must be caught; ~1 min more)
#
# Steps (one simulator at a time):
#   1. verilator --lint-only -Wall and iverilog -g2005 -Wall on each module as top
#      (and froce_axil_cdc at DATA_WIDTH 64): no output allowed
#   2. Yosys: synth -top; check -assert; no latch, small depths; the
#      synchroniser flip-flops keep their ASYNC_REG attribute
#   3. cocotb (Icarus, the pinned venv of scripts/cocotb_venv.sh, run through
#      cdc_run.py), each test counted: froce_async_fifo at DEPTH 4 and 16,
#      froce_async_frame_fifo with DROP_FULL 1 and 0, froce_axi_cdc (64-bit
#      data), froce_axil_cdc (32, 64)
#   4. negative control: one bench per block with a word corrupted on purpose
#      (CDC_NEGATIVE=1) must fail
#   5. (CDC_MUTANTS=1) mutated copies of the RTL; the named test must fail
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
TB="$ROOT/tests/fpga_common/cdc"
RTL="$ROOT/fpga/common/rtl"
BUILD="$ROOT/build/fpga_common/cdc"
LOGS="$BUILD/logs"
mkdir -p "$LOGS"

VENV="$(bash "$ROOT/scripts/cocotb_venv.sh")" || { echo "run.sh: no cocotb venv" >&2; echo "0 passed, 1 failed"; exit 1; }
export PATH="$VENV/bin:$PATH"
export PYTHONDONTWRITEBYTECODE=1
export CDC_SEED="${CDC_SEED:-1}"
PY="$VENV/bin/python"
T0=$SECONDS

TOPS=(froce_sync_reset froce_sync_bit froce_async_fifo froce_async_frame_fifo froce_axi_cdc froce_axil_cdc)

source "$ROOT/tests/lib/checks.sh"

# cocotb_run RUN_NAME TOPLEVEL MODULE [cdc_run.py options...]: cocotb's Python
# runner (cdc_run.py; the Makefile does the same by hand) in build/fpga_common/cdc/RUN_NAME
cocotb_run() {
    local run=$1
    shift
    local dir="$BUILD/$run" log="$LOGS/$run.log"
    mkdir -p "$dir"
    rm -f "$dir/results.xml"
    timeout 600 "$PY" "$TB/cdc_run.py" "$dir" "$@" >"$log" 2>&1
    [[ -f $dir/sim.log ]] && cat "$dir/sim.log" >>"$log"
    cocotb_results "$dir"
}

section "1. lint"
VL=(verilator --lint-only -Wall -y fpga/common/rtl)
IV=(iverilog -g2005 -Wall -o /dev/null -y fpga/common/rtl -Y .v)
for top in "${TOPS[@]}"; do
    check_quiet "verilator $top" "${VL[@]}" --top-module "$top" "fpga/common/rtl/$top.v"
    check_quiet "iverilog  $top" "${IV[@]}" -s "$top" "fpga/common/rtl/$top.v"
done
check_quiet "verilator froce_axil_cdc DATA_WIDTH=64" "${VL[@]}" --top-module froce_axil_cdc \
    -GDATA_WIDTH=64 fpga/common/rtl/froce_axil_cdc.v
check_quiet "iverilog  froce_axil_cdc DATA_WIDTH=64" "${IV[@]}" -s froce_axil_cdc \
    -Pfroce_axil_cdc.DATA_WIDTH=64 fpga/common/rtl/froce_axil_cdc.v

if [[ ${CDC_SYNTH:-1} != 0 ]]; then
    section "2. yosys"
    FILES=()
    for top in "${TOPS[@]}"; do FILES+=("$RTL/$top.v"); done
    synth() {
        local top=$1 chparam=$2 log="$LOGS/synth_$1.log"
        if yosys -q -l "$log" -p "read_verilog ${FILES[*]}; hierarchy -check -top $top $chparam;
                                   select -assert-min 1 a:ASYNC_REG; select -clear;
                                   synth -top $top; check -assert" >/dev/null 2>&1 &&
            ! grep -qE '^[[:space:]]*Latch inferred for signal|\$_DLATCH|\$dlatch' "$log"; then
            ok "yosys $top: $(grep -m1 -oE 'Number of cells: +[0-9]+' <(tac "$log") | tr -s ' ')"
        else
            bad "yosys $top" "$log"
        fi
    }
    synth froce_async_fifo "-chparam WIDTH 16 -chparam DEPTH 8"
    synth froce_async_frame_fifo "-chparam DEPTH_BYTES 256 -chparam FRAMES 4"
    synth froce_axi_cdc "-chparam ADDR_WIDTH 16 -chparam DATA_WIDTH 32 -chparam ID_WIDTH 4 -chparam DATA_DEPTH 4"
    synth froce_axil_cdc "-chparam ADDR_WIDTH 16 -chparam DATA_WIDTH 64"
fi

section "3. cocotb benches"
FIFO4=(froce_async_fifo test_async_fifo --param WIDTH=24 --param DEPTH=4)
FIFO16=(froce_async_fifo test_async_fifo --param WIDTH=24 --param DEPTH=16)
FRAME1=(froce_async_frame_fifo test_async_frame_fifo --param DEPTH_BYTES=512 --param FRAMES=8 --param DROP_FULL=1)
FRAME0=(froce_async_frame_fifo test_async_frame_fifo --param DEPTH_BYTES=512 --param FRAMES=8 --param DROP_FULL=0)
AXI=(froce_axi_cdc test_axi_cdc --param ADDR_WIDTH=32 --param DATA_WIDTH=64 --param ID_WIDTH=4)
AXIL32=(froce_axil_cdc test_axil_cdc --param ADDR_WIDTH=12 --param DATA_WIDTH=32)
AXIL64=(froce_axil_cdc test_axil_cdc --param ADDR_WIDTH=12 --param DATA_WIDTH=64)
cocotb_pass fifo4 "${FIFO4[@]}"
cocotb_pass fifo16 "${FIFO16[@]}"
cocotb_pass frame-drop "${FRAME1[@]}"
cocotb_pass frame-wait "${FRAME0[@]}"
cocotb_pass axi "${AXI[@]}"
cocotb_pass axil32 "${AXIL32[@]}"
cocotb_pass axil64 "${AXIL64[@]}"

section "4. negative control"
# each bench corrupts one word behind the DUT's back (CDC_NEGATIVE=1) and must fail
CDC_NEGATIVE=1 cocotb_fail negative-fifo "${FIFO4[@]}" --testcase test_stream_wr_fast
CDC_NEGATIVE=1 cocotb_fail negative-frame "${FRAME1[@]}" --testcase test_random_s_fast
CDC_NEGATIVE=1 cocotb_fail negative-axi "${AXI[@]}" --testcase test_axi_s_fast
CDC_NEGATIVE=1 cocotb_fail negative-axil "${AXIL32[@]}" --testcase test_axil_s_fast

if [[ ${CDC_MUTANTS:-0} == 1 ]]; then
    section "5. mutants"
    # mutant NAME FILE FROM TO TEST [make variables]: FROM must occur in FILE
    mutant() {
        local name=$1 file=$2 from=$3 to=$4 test=$5
        shift 5
        local dir="$BUILD/mutants/$name/rtl"
        rm -rf "$dir" && mkdir -p "$dir" && cp -a "$RTL"/froce_*.v "$dir/"
        if ! grep -qF -- "$from" "$dir/$file"; then
            bad "mutant $name: '$from' not found in $file"
            return
        fi
        FROM="$from" TO="$to" "$PY" -c 'import os, sys; p = sys.argv[1]; s = open(p).read()
open(p, "w").write(s.replace(os.environ["FROM"], os.environ["TO"]))' "$dir/$file"
        cocotb_fail "mutant-$name" "$@" --rtl "$dir" --testcase "$test"
    }
    # full never rises: the reader-stopped bench must see a write lost
    mutant fifo-full-never froce_async_fifo.v "full_reg <= wr_gray_next ==" "full_reg <= 1'b0 && wr_gray_next ==" \
        test_capacity "${FIFO4[@]}"
    # pointers cleared on the next clock edge instead of at once: a fast
    # side leaves reset before the slow side's pointer is cleared
    mutant fifo-sync-clear froce_async_fifo.v " or posedge wr_arst)" ")" test_reset_slow_wr "${FIFO4[@]}"
    # a bad frame dropped only when tuser is on its last beat (as the
    # single-clock froce_eth_rx_fifo does)
    mutant frame-tuser-last froce_async_frame_fifo.v "wire frame_bad = bad_reg || s_axis_tuser;" \
        "wire frame_bad = s_axis_tuser;" test_random_s_fast "${FRAME1[@]}"
    # frame ends one beat early
    mutant frame-end-early froce_async_frame_fifo.v "assign end_in = wr_ptr_reg + 1'b1;" \
        "assign end_in = wr_ptr_reg;" test_random_m_fast "${FRAME1[@]}"
    # a frame that meets a full ring is kept anyway (overwrites unread beats)
    mutant frame-ring-full froce_async_frame_fifo.v "wire ring_full = used[AW];" "wire ring_full = 1'b0;" \
        test_capacity "${FRAME1[@]}"
    # after a reset from the read side the rest of the cut frame is kept
    mutant frame-no-skip froce_async_frame_fifo.v "skip_reg <= s_fire ? !s_axis_tlast : in_frame_reg;" \
        "skip_reg <= 1'b0;" test_reset "${FRAME1[@]}"
    # rlast does not cross
    mutant axi-rlast froce_axi_cdc.v "m_axi_rresp, m_axi_rlast})" "m_axi_rresp, 1'b1})" test_axi_m_fast "${AXI[@]}"
fi

echo
echo "run.sh: $((SECONDS - T0)) s"
summary
