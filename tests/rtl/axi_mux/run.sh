#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs the froce_axi_mux checks; exits non-zero on the first failure.
#
#   tests/rtl/axi_mux/run.sh        (from anywhere; builds into build/tests/axi_mux/)
#
# Environment:
#   AXI_MUX_SEED   random seed (default 1)
#   AXI_MUX_REQS   random requests per engine (default 400; six engines)
#
# Steps:
#   1. verilator --lint-only -Wall of the mux alone (DATA_WIDTH 64 and 512,
#      N_RD/N_WR 1, 3, 8) and of the bench top (64 and 512); a too-narrow
#      M_ID_WIDTH fails to elaborate in Verilator, Icarus and Yosys
#   2. Verilator C++ bench tb_axi_mux.cpp: 3 froce_dma_rd + 3 froce_dma_wr
#      behind the mux, one AxiMem per master ID answering out of order across
#      IDs, random back-pressure/latency; every transfer, byte and status
#      checked; DATA_WIDTH 64 and 512, and 64 with W_FIFO_DEPTH=2; throughput
#   3. negative control: the mux built with FROCE_AXI_MUX_TEST_SWAP (R/B of
#      masters 0 and 1 swapped) must make the bench FAIL
#   4. Icarus: the bench top compiles; directed bench tb_axi_mux_directed.v
#      passes, and fails with FROCE_AXI_MUX_TEST_SWAP
#   5. Yosys generic synthesis (N_RD=N_WR=3, 64 bits): no latches
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"

SEED="${AXI_MUX_SEED:-1}"
REQS="${AXI_MUX_REQS:-400}"
BUILD="build/tests/axi_mux"
TB="tests/rtl/axi_mux"
MUX=rtl/dma/froce_axi_mux.v
RTL_SRCS=(rtl/common/froce_fifo.v "$MUX" rtl/dma/froce_dma_rd.v rtl/dma/froce_dma_wr.v)
T0=$SECONDS

mkdir -p "$BUILD"

die() {
    echo "run.sh: FAIL: $*" >&2
    exit 1
}

section() {
    echo
    echo "== $*"
}

section "1. lint"
for w in 64 512; do
    for p in "1 1 5" "3 3 6" "8 8 7" "2 8 9"; do
        read -r nr nw mid <<<"$p"
        verilator --lint-only -Wall -GDATA_WIDTH="$w" -GN_RD="$nr" -GN_WR="$nw" -GM_ID_WIDTH="$mid" \
            --top-module froce_axi_mux "$MUX" rtl/common/froce_fifo.v
        echo "lint froce_axi_mux DATA_WIDTH=$w N_RD=$nr N_WR=$nw M_ID_WIDTH=$mid: clean"
    done
    verilator --lint-only -Wall -Irtl/dma -GDATA_WIDTH="$w" --top-module tb_axi_mux_top \
        "$TB/tb_axi_mux_top.v" "${RTL_SRCS[@]}"
    echo "lint tb_axi_mux_top DATA_WIDTH=$w: clean"
done

section "1b. M_ID_WIDTH too narrow must not elaborate (Verilator, Icarus, Yosys)"
bad_log="$BUILD/bad_param.log"
if verilator --lint-only -Wall -GN_RD=3 -GM_ID_WIDTH=5 --top-module froce_axi_mux "$MUX" rtl/common/froce_fifo.v \
        >"$bad_log" 2>&1; then
    die "verilator accepted M_ID_WIDTH=5 with N_RD=3"
fi
grep -q froce_axi_mux_bad_parameter "$bad_log" || { cat "$bad_log"; die "verilator rejected it for another reason"; }
if iverilog -g2005 -Pfroce_axi_mux.N_WR=5 -Pfroce_axi_mux.M_ID_WIDTH=6 -s froce_axi_mux -o "$BUILD/bad.vvp" \
        "$MUX" rtl/common/froce_fifo.v >"$bad_log" 2>&1; then
    die "iverilog accepted M_ID_WIDTH=6 with N_WR=5"
fi
grep -q froce_axi_mux_bad_parameter "$bad_log" || { cat "$bad_log"; die "iverilog rejected it for another reason"; }
if command -v yosys >/dev/null; then
    if yosys -q -p "read_verilog $MUX rtl/common/froce_fifo.v; chparam -set N_RD 3 -set M_ID_WIDTH 5 froce_axi_mux; hierarchy -check -top froce_axi_mux" \
            >"$bad_log" 2>&1; then
        die "yosys accepted M_ID_WIDTH=5 with N_RD=3"
    fi
fi
echo "bad M_ID_WIDTH rejected"

section "2. Verilator bench (seed $SEED, $REQS requests per engine) and 3. negative control"
# name:DATA_WIDTH:extra verilator options
CONFIGS=("w64:64:" "w512:512:" "wq2:64:-GW_FIFO_DEPTH=2" "neg:64:-DFROCE_AXI_MUX_TEST_SWAP")
build() {
    local name="$1" w="$2" extra="$3"
    # shellcheck disable=SC2086  # $extra is a list of options
    verilator -Wall --cc --exe --build -j 1 -O3 --x-assign fast --x-initial fast \
        -Irtl/dma -GDATA_WIDTH="$w" $extra --top-module tb_axi_mux_top \
        --Mdir "$BUILD/vl_$name" -o tb_axi_mux \
        -CFLAGS "-DDATA_WIDTH=$w -O2 -std=c++17 -Wall -Wextra -Werror -I$ROOT/sim/models" \
        "$TB/tb_axi_mux_top.v" "${RTL_SRCS[@]}" "$ROOT/$TB/tb_axi_mux.cpp" >"$BUILD/vl_$name.build.log" 2>&1
}
pids=()
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name w extra <<<"$c"
    build "$name" "$w" "$extra" &
    pids+=($!)
done
i=0
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name w extra <<<"$c"
    wait "${pids[$i]}" || { cat "$BUILD/vl_$name.build.log"; die "verilator build $name failed"; }
    i=$((i + 1))
done

pids=()
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name w extra <<<"$c"
    n="$REQS"
    [ "$name" = neg ] && n=20
    "$BUILD/vl_$name/tb_axi_mux" --seed "$SEED" --reqs "$n" >"$BUILD/vl_$name.log" 2>&1 &
    pids+=($!)
done
status=0
i=0
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name w extra <<<"$c"
    rc=0
    wait "${pids[$i]}" || rc=$?
    i=$((i + 1))
    log="$BUILD/vl_$name.log"
    if [ "$name" = neg ]; then
        echo "-- negative control (DATA_WIDTH=$w $extra)"
        if [ "$rc" -eq 0 ] || ! grep -q '^FAIL' "$log" || grep -q '^PASS' "$log"; then
            cat "$log"
            echo "negative control: the swapped routing was NOT detected"
            status=1
        else
            head -n 3 "$log"
            echo "negative control: swapped routing detected (status $rc, $(grep -c '^FAIL' "$log") FAIL lines)"
        fi
        continue
    fi
    echo "-- $name (DATA_WIDTH=$w${extra:+ $extra})"
    cat "$log"
    if [ "$rc" -ne 0 ] || grep -q '^FAIL' "$log" || [ "$(grep -c '^PASS:' "$log")" -ne 1 ]; then
        status=1
    fi
done
[ "$status" -eq 0 ] || die "Verilator bench or negative control failed"

section "4. Icarus"
iverilog -g2005 -Wall -Irtl/dma -o "$BUILD/tb_top.vvp" "$TB/tb_axi_mux_top.v" "${RTL_SRCS[@]}"
echo "tb_axi_mux_top compiles in Icarus"
for variant in ok neg; do
    def=()
    [ "$variant" = neg ] && def=(-DFROCE_AXI_MUX_TEST_SWAP)
    iverilog -g2005 -Wall "${def[@]}" -o "$BUILD/directed_$variant.vvp" "$TB/tb_axi_mux_directed.v" \
        "$MUX" rtl/common/froce_fifo.v
    log="$BUILD/directed_$variant.log"
    vvp -n "$BUILD/directed_$variant.vvp" >"$log" 2>&1 || { cat "$log"; die "Icarus bench ($variant) exited non-zero"; }
    if [ "$variant" = ok ]; then
        cat "$log"
        if grep -qE 'FAIL|ERROR' "$log" || [ "$(grep -c '^PASS:' "$log")" -ne 1 ]; then
            die "Icarus directed bench failed"
        fi
    else
        grep -q '^FAIL' "$log" || { cat "$log"; die "Icarus directed bench passed with swapped routing"; }
        echo "directed bench with FROCE_AXI_MUX_TEST_SWAP: fails as it must ($(grep -c '^FAIL' "$log") FAIL lines)"
    fi
done

section "5. Yosys"
if command -v yosys >/dev/null; then
    ylog="$BUILD/yosys.log"
    yosys -p "read_verilog $MUX rtl/common/froce_fifo.v; chparam -set N_RD 3 -set N_WR 3 -set M_ID_WIDTH 6 froce_axi_mux; synth -top froce_axi_mux; select -assert-none t:\$dlatch t:\$_DLATCH_*; stat" \
        >"$ylog" 2>&1 || { tail -n 30 "$ylog"; die "yosys synthesis failed (or inferred a latch)"; }
    cells=$(grep 'Number of cells' "$ylog" | tail -n 1 | awk '{print $NF}')
    echo "yosys synth N_RD=N_WR=3 DATA_WIDTH=64: no latches, $cells cells"
else
    echo "yosys not installed: skipped"
fi

echo
echo "run.sh: PASS: froce_axi_mux lint, Verilator bench (64, 512, W_FIFO_DEPTH=2), negative controls, Icarus, Yosys ($((SECONDS - T0)) s)"
