#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every check of the UART host link: fpga/common/rtl/froce_uart_rx.v,
# froce_uart_tx.v, froce_uart_host_bridge.v, froce_axi_ram.v, froce_uart_host.v
# and the host library fpga/common/host/. Ends with "N passed, N failed" and exits non-zero
# if anything failed. About 100 s on 2 idle cores (UART_MUTANTS=1: 150 s).
#
#   tests/fpga_common/uart/run.sh       (from anywhere; builds in build/fpga_common/uart/)
#
# Environment:
#   UART_SEED=N         random seed of the cocotb benches (default 1)
#   UART_SCALE=N        N times the random operations (default 1)
#   UART_JOBS=N         simulations at once (default 2)
#   UART_SYNTH=0        skip the Yosys runs (about 15 s)
#   UART_MUTANTS=1      also run RTL mutants (each must be caught; about 1 min more)
#
# Steps:
#   1. verilator --lint-only -Wall and iverilog -g2005 -Wall on each module,
#      several parameter sets; bad parameters must fail to elaborate
#   2. the protocol constants: the bridge's localparams = froce_uart_proto.h
#      (and the check catches a changed one)
#   3. the C library: -Wall -Wextra -Werror build, unit test against a model
#      of the bridge under ASan/UBSan (socketpair, Unix socket, TCP, pty)
#   4. cocotb (Icarus, scripts/cocotb_venv.sh), each test counted:
#        main      defaults (100 MHz, 8 clocks a bit, 64 KiB RAM above 4 GiB)
#        frac      125 MHz, 16.3 Mbaud (7.67 clocks a bit), the host's bits 3 % long
#        small     4 KiB RAM at 0, 4 KiB BARs, 20 vectors, 1-bit IDs, a 16-byte FIFO
#        c-link    the C tool froce-uart against the RTL through a Unix socket
#      two at a time (UART_JOBS)
#   5. negative control: the benches with wrong expectations (UART_NEGATIVE=1)
#      must fail every selected test
#   6. Yosys synth_ecp5 of the bridge, the RAM and both (froce_uart_host): no
#      latch, check -assert, cell counts
#   7. (UART_MUTANTS=1) mutated copies of the RTL; the named test must fail
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
TB="$ROOT/tests/fpga_common/uart"
RTL="$ROOT/fpga/common/rtl"
BUILD="$ROOT/build/fpga_common/uart"
HOSTB="$ROOT/build/fpga_common/host"
LOGS="$BUILD/logs"
mkdir -p "$LOGS"

VENV="$(bash "$ROOT/scripts/cocotb_venv.sh")" || { echo "run.sh: no cocotb venv" >&2; echo "0 passed, 1 failed"; exit 1; }
export PATH="$VENV/bin:$PATH"
export PYTHONDONTWRITEBYTECODE=1
export UART_SEED="${UART_SEED:-1}"
export UART_SCALE="${UART_SCALE:-1}"
JOBS="${UART_JOBS:-2}"
PY="$VENV/bin/python"
T0=$SECONDS

source "$ROOT/tests/lib/checks.sh"

section "1. lint"
VL=(verilator --lint-only -Wall -y fpga/common/rtl -y rtl/common)
IV=(iverilog -g2005 -Wall -o /dev/null -y fpga/common/rtl -y rtl/common -Y .v)
lint() {
    local top=$1 name=$2
    shift 2
    local gv=() gi=() p
    for p in "$@"; do gv+=("-G$p"); gi+=("-P$top.$p"); done
    check_quiet "verilator $top $name" "${VL[@]}" "${gv[@]}" --top-module "$top" "fpga/common/rtl/$top.v"
    check_quiet "iverilog  $top $name" "${IV[@]}" "${gi[@]}" -s "$top" "fpga/common/rtl/$top.v"
}
lint froce_uart_rx defaults
lint froce_uart_rx 50M-115200 CLK_HZ=50000000 BAUD=115200
lint froce_uart_tx defaults
lint froce_uart_tx 4x CLK_HZ=12000000 BAUD=3000000
lint froce_axi_ram defaults
lint froce_axi_ram a32-4k-id1 ADDR_WIDTH=32 MEM_ADDR_WIDTH=12 ID_WIDTH=1 "MEM_BASE=64'h80000000"
lint froce_axi_ram 16M MEM_ADDR_WIDTH=24 "MEM_BASE=64'h100000000000"
lint froce_uart_host_bridge defaults
lint froce_uart_host_bridge small CLK_HZ=25000000 BAUD=115200 BAR0_ADDR_WIDTH=12 BAR2_ADDR_WIDTH=32 \
    MEM_ADDR_WIDTH=12 NUM_VECTORS=1 RX_FIFO_DEPTH=16
lint froce_uart_host_bridge wide MEM_ADDR_WIDTH=24 "MEM_BASE=64'hFF000000" TIMEOUT_CYCLES=100000000
lint froce_uart_host defaults
lint froce_uart_host small MEM_ADDR_WIDTH=12 BAR0_ADDR_WIDTH=12 BAR2_ADDR_WIDTH=12 NUM_VECTORS=8 ID_WIDTH=1
check_quiet "iverilog  tb_froce_uart_link" "${IV[@]}" -s tb_froce_uart_link "$TB/tb_froce_uart_link.v"
check_fails "bad-parameter uart_rx CLK_HZ < 4 BAUD" \
    "${VL[@]}" -GBAUD=30000000 --top-module froce_uart_rx fpga/common/rtl/froce_uart_rx.v
check_fails "bad-parameter uart_tx CLK_HZ < 4 BAUD" \
    "${IV[@]}" -Pfroce_uart_tx.BAUD=30000000 -s froce_uart_tx fpga/common/rtl/froce_uart_tx.v
check_fails "bad-parameter axi_ram MEM_BASE unaligned" \
    "${VL[@]}" "-GMEM_BASE=64'h1000" --top-module froce_axi_ram fpga/common/rtl/froce_axi_ram.v
check_fails "bad-parameter axi_ram MEM_ADDR_WIDTH 11" \
    "${IV[@]}" -Pfroce_axi_ram.MEM_ADDR_WIDTH=11 -s froce_axi_ram fpga/common/rtl/froce_axi_ram.v
check_fails "bad-parameter bridge TIMEOUT_CYCLES < 2 bytes" \
    "${VL[@]}" -GTIMEOUT_CYCLES=100 --top-module froce_uart_host_bridge fpga/common/rtl/froce_uart_host_bridge.v
check_fails "bad-parameter bridge NUM_VECTORS 33" \
    "${IV[@]}" -Pfroce_uart_host_bridge.NUM_VECTORS=33 -s froce_uart_host_bridge fpga/common/rtl/froce_uart_host_bridge.v

section "2. protocol constants"
if (cd "$TB" && "$PY" check_proto.py) >"$LOGS/proto.log" 2>&1; then
    ok "bridge localparams = froce_uart_proto.h: $(tail -1 "$LOGS/proto.log" | cut -d: -f1)"
else
    bad "bridge localparams = froce_uart_proto.h" "$LOGS/proto.log"
fi
sed 's/localparam \[7:0\] STATUS_OUT_OF_WINDOW = 8.h04;/localparam [7:0] STATUS_OUT_OF_WINDOW = 8'"'"'h06;/' \
    "$RTL/froce_uart_host_bridge.v" >"$BUILD/proto_mutant.v"
check_fails "protocol check catches a changed constant" \
    bash -c "cmp -s '$BUILD/proto_mutant.v' '$RTL/froce_uart_host_bridge.v' || (cd '$TB' && '$PY' check_proto.py '$BUILD/proto_mutant.v')"

section "3. C library"
if make -C "$ROOT/fpga/common/host" O="$HOSTB" all "$HOSTB/test_froce_uart_link" >"$LOGS/host_build.log" 2>&1; then
    ok "build: libfroce_uart_link.a, froce-uart, unit test (-Wall -Wextra -Werror, ASan/UBSan)"
    ASAN_OPTIONS=detect_leaks=1 "$HOSTB/test_froce_uart_link" >"$LOGS/host_unit.log" 2>&1
    unit_rc=$?
    while read -r st name rest; do
        case $st in
            ok) ok "unit: $name $rest" ;;
            FAIL) [[ $name == */* ]] || bad "unit: $name $rest" "$LOGS/host_unit.log" ;;
        esac
    done < <(grep -E '^(ok|FAIL) ' "$LOGS/host_unit.log")
    [[ $unit_rc -eq 0 ]] || bad "unit test exit status $unit_rc" "$LOGS/host_unit.log"
else
    bad "build of fpga/common/host" "$LOGS/host_build.log"
fi

section "4. cocotb benches"
# cocotb runs in the background, JOBS at a time; results reported in order
declare -a RUNS=()
declare -A KIND=()
bg_run() {      # bg_run pass|fail RUN ARGS...
    local kind=$1 run=$2
    shift 2
    while [[ $(jobs -rp | wc -l) -ge $JOBS ]]; do wait -n; done
    RUNS+=("$run")
    KIND[$run]=$kind
    (cocotb_run "$run" "$@" >"$BUILD/$run.out"; echo $? >"$BUILD/$run.rc") &
}
report() {
    local run kind out status n line
    for run in "${RUNS[@]}"; do
        kind=${KIND[$run]}
        out=$(cat "$BUILD/$run.out" 2>/dev/null)
        status=$(cat "$BUILD/$run.rc" 2>/dev/null || echo 255)
        if [[ $kind == pass ]]; then
            while IFS= read -r line; do
                case $line in
                    "passed "*) ok "$run: ${line#passed }" ;;
                    "FAILED "*) bad "$run: ${line#FAILED }" ;;
                esac
            done <<<"$out"
            [[ $status -eq 255 ]] && bad "$run: simulation did not run" "$LOGS/$run.log"
            [[ $status -ne 0 && $status -ne 255 ]] &&
                grep -E "Error|assert|Traceback" "$LOGS/$run.log" | head -n 20 | sed 's/^/      /'
        else
            n=$(grep -c -E '^(passed|FAILED) ' <<<"$out")
            if [[ $status -ne 255 && $status -eq $n && $n -gt 0 ]]; then
                ok "$run: all $n test(s) failed, as they must"
            else
                bad "$run: expected every test to fail, got: $(tr '\n' ';' <<<"$out")" "$LOGS/$run.log"
            fi
        fi
    done
    RUNS=()
}

FRAC=(PARAMS="CLK_HZ=125000000 CLK_PERIOD_PS=8000 BAUD=16300000")
SMALL=(PARAMS="MEM_ADDR_WIDTH=12 MEM_BASE=0 BAR0_ADDR_WIDTH=12 BAR2_ADDR_WIDTH=12 NUM_VECTORS=20 ID_WIDTH=1 RX_FIFO_DEPTH=16 TIMEOUT_CYCLES=2000")
bg_run pass main MODULE=test_uart_link
UART_HOST_SKEW=0.03 UART_SCALE=0.5 bg_run pass frac MODULE=test_uart_link "${FRAC[@]}" \
    TESTCASE=test_info,test_bar0,test_mem_random,test_truncated,test_resync,test_irq
UART_SCALE=0.5 bg_run pass small MODULE=test_uart_link "${SMALL[@]}" \
    TESTCASE=test_info,test_bar0,test_doorbell,test_mem_random,test_contention,test_axi_ram,test_irq,test_overrun
if [[ -x $HOSTB/froce-uart ]]; then
    UART_CLI="$HOSTB/froce-uart" bg_run pass c-link MODULE=test_c_link
else
    bad "c-link: no froce-uart to run"
fi

section "5. negative control"
UART_NEGATIVE=1 UART_SCALE=0.3 bg_run fail negative MODULE=test_uart_link \
    TESTCASE=test_info,test_bar0,test_doorbell,test_bad_crc,test_bad_cmd,test_truncated,test_resend,test_back_to_back
UART_NEGATIVE=1 UART_SCALE=0.3 bg_run fail negative-small MODULE=test_uart_link "${SMALL[@]}" \
    TESTCASE=test_overrun,test_irq,test_axi_ram,test_contention
if [[ -x $HOSTB/froce-uart ]]; then
    UART_NEGATIVE=1 UART_CLI="$HOSTB/froce-uart" bg_run fail negative-c-link MODULE=test_c_link
fi
wait
section "4./5. results"
report

if [[ ${UART_SYNTH:-1} != 0 ]]; then
    section "6. yosys synth_ecp5"
    synth() {
        local top=$1 log="$LOGS/synth_$1.log"
        shift
        local files=("$RTL/$top.v") f
        for f in "$@"; do files+=("$ROOT/$f"); done
        # latches: none inferred, none in the netlist (the log also lists
        # the techmap library's $_DLATCH_* cells, hence the statistics only)
        if yosys -q -l "$log" -p "read_verilog ${files[*]}; hierarchy -check -top $top;
                                   synth_ecp5 -top $top; check -assert; stat" >/dev/null 2>&1 &&
            ! grep -qE '^[[:space:]]*Latch inferred for signal' "$log" &&
            ! sed -n '/Printing statistics/,$p' "$log" | grep -qiE 'latch'; then
            ok "synth_ecp5 $top: $(awk '/Number of cells/ { c = $NF; s = "" } /^ +(LUT4|TRELLIS_FF|DP16KD|CCU2C|PFUMX|L6MUX21|TRELLIS_DPR16X4) +[0-9]+/ { s = s " " $1 " " $2 } END { print c " cells:" s }' <(sed -n '/Printing statistics/,$p' "$log"))"
        else
            bad "synth_ecp5 $top" "$log"
        fi
    }
    synth froce_uart_host_bridge fpga/common/rtl/froce_uart_rx.v fpga/common/rtl/froce_uart_tx.v \
        fpga/common/rtl/froce_sync_bit.v rtl/common/froce_fifo.v
    synth froce_axi_ram rtl/common/froce_fifo.v
    synth froce_uart_host fpga/common/rtl/froce_uart_host_bridge.v fpga/common/rtl/froce_axi_ram.v \
        fpga/common/rtl/froce_uart_rx.v fpga/common/rtl/froce_uart_tx.v fpga/common/rtl/froce_sync_bit.v \
        rtl/common/froce_fifo.v
fi

if [[ ${UART_MUTANTS:-0} == 1 ]]; then
    section "7. mutants"
    # mutant NAME FILE FROM TO RUN-ARGS...: FROM must occur in fpga/common/rtl/FILE
    mutant() {
        local name=$1 file=$2 from=$3 to=$4
        shift 4
        local dir="$BUILD/mutants/$name/rtl"
        rm -rf "$dir" && mkdir -p "$dir" && cp -a "$RTL"/*.v "$dir/"
        if ! grep -qF -- "$from" "$dir/$file"; then
            bad "mutant $name: '$from' not found in $file"
            return
        fi
        FROM="$from" TO="$to" "$PY" -c 'import os, sys; p = sys.argv[1]; s = open(p).read()
open(p, "w").write(s.replace(os.environ["FROM"], os.environ["TO"], 1))' "$dir/$file"
        UART_SCALE=0.3 cocotb_fail "mutant-$name" UART_RTL="$dir" MODULE=test_uart_link "$@"
    }
    mutant no-resend-memory froce_uart_host_bridge.v "end else if (cmd_is_write && dup_valid_reg" \
        "end else if (1'b0 && dup_valid_reg" TESTCASE=test_resend
    mutant crc-unchecked froce_uart_host_bridge.v "if (rx_crc_reg != crc_reg) begin" \
        "if (1'b0) begin" TESTCASE=test_bad_crc
    mutant no-timeout froce_uart_host_bridge.v "    if (waiting) begin" "    if (1'b0) begin" TESTCASE=test_truncated
    mutant window-end froce_uart_host_bridge.v "if (!mem_in_reg || !mem_end_reg) begin" \
        "if (!mem_in_reg) begin" TESTCASE=test_mem_random
    mutant irq-not-cleared froce_uart_host_bridge.v "(irq_take ? irq_pend_reg : 32'd0)" "(1'b0 ? irq_pend_reg : 32'd0)" \
        TESTCASE=test_irq
    mutant ram-strobes froce_axi_ram.v "if (mem_we && mem_wstrb[g * SLICE_W / 8])" "if (mem_we)" TESTCASE=test_axi_ram
    mutant ram-decerr-writes froce_axi_ram.v "assign mem_we = h_wr || (w_fire && w_in_reg);" \
        "assign mem_we = h_wr || w_fire;" TESTCASE=test_axi_ram
    mutant ram-host-priority froce_axi_ram.v "assign s_axi_wready = w_state_reg == W_DATA && !h_wr;" \
        "assign s_axi_wready = w_state_reg == W_DATA;" TESTCASE=test_contention
    mutant ram-read-priority froce_axi_ram.v "wire r_issue = r_active_reg && !h_rd &&" \
        "wire r_issue = r_active_reg &&" TESTCASE=test_contention
    mutant rx-no-stop-check froce_uart_rx.v "                    if (rxd_sync) begin
                        valid_next = 1'b1;" "                    if (1'b1) begin
                        valid_next = 1'b1;" TESTCASE=test_resync
fi

echo
echo "($((SECONDS - T0)) s)"
summary
