#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every check of the 10G MAC (rtl/eth/froce_eth_mac_10g*.v, froce_eth_rx_fifo.v);
# ends with "N passed, N failed" and exits non-zero if anything failed.
#
#   tests/eth/mac10g/run.sh         (from anywhere; builds in build/eth/mac10g/)
#
# Environment:
#   MAC10G_SEED=N       random seed of the cocotb benches (default 1)
#   MAC10G_SYNTH=0      skip the Yosys runs (about 20 s of CPU)
#   MAC10G_MUTANTS=1    also run the RTL mutants (each must be caught; ~1 min more)
#
# Steps (one simulator at a time):
#   1. verilator --lint-only -Wall and iverilog -g2005 -Wall on each module
#      as top (the wrapper with and without its TX FIFO) and on tb_mac10g
#   2. cocotb (Icarus, the pinned venv of scripts/cocotb_venv.sh), each test
#      counted: tb_mac10g TX_FIFO_BYTES=0 (test_mac10g_tx, test_mac10g_rx),
#      TX_FIFO_BYTES=16384 (test_mac10g_txfifo), ENABLE_DIC=0 (the gap test)
#   3. negative control: test_tx_frames and test_rx_good with a deliberately
#      wrong expectation (MAC10G_NEGATIVE=1) must fail
#   4. Yosys: synth -top; check -assert; no latch: froce_eth_mac_10g
#      (TX_FIFO_BYTES=0: the generic flow maps a RAM to flip-flops) and
#      froce_eth_rx_fifo (DEPTH_BYTES=1024)
#   5. (MAC10G_MUTANTS=1) mutated copies of the RTL; the named test must fail
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
TB="$ROOT/tests/eth/mac10g"
RTL="$ROOT/rtl"
BUILD="$ROOT/build/eth/mac10g"
LOGS="$BUILD/logs"
mkdir -p "$LOGS"

VENV="$(bash "$ROOT/scripts/cocotb_venv.sh")" || { echo "run.sh: no cocotb venv" >&2; echo "0 passed, 1 failed"; exit 1; }
export PATH="$VENV/bin:$PATH"
export PYTHONDONTWRITEBYTECODE=1
export MAC10G_SEED="${MAC10G_SEED:-1}"
PY="$VENV/bin/python"

SOURCES=(rtl/eth/froce_eth_mac_10g.v rtl/eth/froce_eth_mac_10g_tx.v rtl/eth/froce_eth_mac_10g_rx.v
         rtl/eth/froce_eth_rx_fifo.v rtl/crc/froce_crc32_step.v rtl/common/froce_fifo.v
         rtl/common/froce_frame_fifo.v)

source "$ROOT/tests/lib/checks.sh"

section "1. lint"
VL=(verilator --lint-only -Wall -Irtl/crc -y rtl/eth -y rtl/crc -y rtl/common)
IV=(iverilog -g2005 -Wall -o /dev/null -I rtl/crc -y rtl/eth -y rtl/crc -y rtl/common -Y .v)
for top in froce_eth_mac_10g_tx froce_eth_mac_10g_rx froce_eth_rx_fifo froce_eth_mac_10g; do
    check_quiet "verilator $top" "${VL[@]}" --top-module "$top" "rtl/eth/$top.v"
    check_quiet "iverilog  $top" "${IV[@]}" -s "$top" "rtl/eth/$top.v"
done
check_quiet "verilator froce_eth_mac_10g TX_FIFO_BYTES=0" "${VL[@]}" --top-module froce_eth_mac_10g \
    -GTX_FIFO_BYTES=0 rtl/eth/froce_eth_mac_10g.v
check_quiet "iverilog  froce_eth_mac_10g TX_FIFO_BYTES=0" "${IV[@]}" -s froce_eth_mac_10g \
    -Pfroce_eth_mac_10g.TX_FIFO_BYTES=0 rtl/eth/froce_eth_mac_10g.v
check_quiet "verilator tb_mac10g" "${VL[@]}" --top-module tb_mac10g tests/eth/mac10g/tb_mac10g.v
check_quiet "iverilog  tb_mac10g" "${IV[@]}" -s tb_mac10g tests/eth/mac10g/tb_mac10g.v

section "2. cocotb benches"
cocotb_pass tx0 MODULE=test_mac10g_tx,test_mac10g_rx TX_FIFO_BYTES=0
cocotb_pass txfifo MODULE=test_mac10g_txfifo TX_FIFO_BYTES=16384
cocotb_pass nodic MODULE=test_mac10g_tx TESTCASE=test_tx_ipg_dic TX_FIFO_BYTES=0 ENABLE_DIC=0

section "3. negative control"
# same build as tx0 (the copy keeps its own results.xml)
mkdir -p "$BUILD/negative" && cp -a "$BUILD/tx0/sim_build" "$BUILD/negative/" 2>/dev/null
MAC10G_NEGATIVE=1 cocotb_fail negative MODULE=test_mac10g_tx,test_mac10g_rx TESTCASE=test_tx_frames,test_rx_good \
    TX_FIFO_BYTES=0

if [[ ${MAC10G_SYNTH:-1} != 0 ]]; then
    section "4. yosys"
    synth() {
        local name=$1 top=$2 chparam=$3 log="$LOGS/synth_$1.log"
        shift 3
        local files=() f
        for f in "$@"; do files+=("$ROOT/$f"); done
        if yosys -q -l "$log" -p "read_verilog -I$RTL/crc ${files[*]}; hierarchy -check -top $top $chparam;
                                   synth -top $top; check -assert" >/dev/null 2>&1 &&
            ! grep -qE '^[[:space:]]*Latch inferred for signal|\$_DLATCH|\$dlatch' "$log"; then
            ok "yosys $name: $(grep -m1 -oE 'Number of cells: +[0-9]+' <(tac "$log") | tr -s ' ')"
        else
            bad "yosys $name" "$log"
        fi
    }
    synth mac froce_eth_mac_10g "-chparam TX_FIFO_BYTES 0" "${SOURCES[@]}"
    synth rx_fifo froce_eth_rx_fifo "-chparam DEPTH_BYTES 1024" \
        rtl/eth/froce_eth_rx_fifo.v rtl/common/froce_fifo.v rtl/common/froce_frame_fifo.v
fi

if [[ ${MAC10G_MUTANTS:-0} == 1 ]]; then
    section "5. mutants"
    # mutant NAME FILE FROM TO TEST MODULE [make variables]: FROM must occur in FILE
    mutant() {
        local name=$1 file=$2 from=$3 to=$4 test=$5 module=$6
        shift 6
        local dir="$BUILD/mutants/$name/rtl"
        rm -rf "$dir" && mkdir -p "$dir" && cp -a "$RTL/eth" "$RTL/crc" "$RTL/common" "$dir/"
        if ! grep -qF -- "$from" "$dir/$file"; then
            bad "mutant $name: '$from' not found in $file"
            return
        fi
        FROM="$from" TO="$to" "$PY" -c 'import os, sys; p = sys.argv[1]; s = open(p).read()
open(p, "w").write(s.replace(os.environ["FROM"], os.environ["TO"], 1))' "$dir/$file"
        cocotb_fail "mutant-$name" RTL="$dir" MODULE="$module" TESTCASE="$test" "$@"
    }
    mutant tx-dic-gap8 eth/froce_eth_mac_10g_tx.v "gap_reg >= 5'd8 +" "gap_reg >= 5'd7 +" \
        test_tx_ipg_dic test_mac10g_tx
    mutant tx-fcs-order eth/froce_eth_mac_10g_tx.v "fcs[8*(li - p2_n) +: 8]" "fcs[8*(3 - li + p2_n) +: 8]" \
        test_tx_frames test_mac10g_tx
    mutant tx-pad-56 eth/froce_eth_mac_10g_tx.v "MIN_BYTES = 14'd60" "MIN_BYTES = 14'd52" \
        test_tx_frames test_mac10g_tx
    mutant rx-fcs-unchecked eth/froce_eth_mac_10g_rx.v "wire fcs_bad = crc_reg" "wire fcs_bad = 1'b0 && crc_reg" \
        test_rx_errors test_mac10g_rx
    mutant rx-no-lane4 eth/froce_eth_mac_10g_rx.v "wire start_shifted = " "wire start_shifted = 1'b0 && " \
        test_rx_good test_mac10g_rx
    mutant rx-holdback-3 eth/froce_eth_mac_10g_rx.v "{1'b0, b_t_reg} + 4'd4" "{1'b0, b_t_reg} + 4'd3" \
        test_rx_good test_mac10g_rx
    mutant fifo-keeps-bad eth/froce_eth_rx_fifo.v ".s_axis_tdrop(s_axis_tuser)" ".s_axis_tdrop(1'b0)" \
        test_rx_fifo test_mac10g_rx
fi

echo
summary
