#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs the DMA engine benches; exits non-zero on the first failure.
#
#   tests/rtl/dma/run.sh            (from anywhere; builds into build/tests/dma/)
#
# Environment:
#   DMA_SEED     random seed (default 1)
#   DMA_READS    random read descriptors per width (default 3000)
#   DMA_WRITES   random write descriptors per width (default 3000)
#
# Steps:
#   0. unit test of the host-memory model sim/models/axi_mem.h (test_axi_mem.cpp)
#   1. verilator --lint-only -Wall of the bench top at DATA_WIDTH 64 and 512;
#      bad parameters (MAX_BURST_BEATS=3, DATA_WIDTH=48) fail to elaborate
#   2. Verilator C++ bench (tb_dma.cpp + sim/models/axi_mem.h), built and run
#      in parallel, in three configurations: DATA_WIDTH 64 and 512 with the
#      default parameters, and "small" (64 bits, 4-beat bursts, 2 bursts in
#      flight, 8-beat read buffer) to stress splitting and credits: random
#      traffic with back-pressure, latency and error injection, every
#      byte/status checked; throughput figures
#   3. negative control: the same bench with a corrupted memory byte must FAIL
#   4. Icarus directed bench (one small unaligned read and write per engine)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"

SEED="${DMA_SEED:-1}"
READS="${DMA_READS:-3000}"
WRITES="${DMA_WRITES:-3000}"
BUILD="build/tests/dma"
TB="tests/rtl/dma"
RTL_SRCS=(rtl/common/froce_fifo.v rtl/dma/froce_dma_rd.v rtl/dma/froce_dma_wr.v)

mkdir -p "$BUILD"

die() {
    echo "run.sh: FAIL: $*" >&2
    exit 1
}

section() {
    echo
    echo "== $*"
}

section "0. AxiMem model unit test"
g++ -std=c++17 -O1 -Wall -Wextra -Werror -Isim/models "$TB/test_axi_mem.cpp" -o "$BUILD/test_axi_mem"
"$BUILD/test_axi_mem" >"$BUILD/test_axi_mem.log" 2>&1 || { cat "$BUILD/test_axi_mem.log"; die "AxiMem unit test failed"; }
cat "$BUILD/test_axi_mem.log"
grep -q '^PASS:' "$BUILD/test_axi_mem.log" || die "AxiMem unit test did not pass"

section "1. lint of the bench top"
for w in 64 512; do
    verilator --lint-only -Wall -Irtl/dma -GDATA_WIDTH="$w" --top-module tb_dma_top \
        "$TB/tb_dma_top.v" "${RTL_SRCS[@]}"
    echo "lint tb_dma_top DATA_WIDTH=$w: clean"
done

section "1b. bad parameters must not elaborate (Verilator, Icarus, Yosys)"
bad_log="$BUILD/bad_param.log"
for top in froce_dma_rd froce_dma_wr; do
    if verilator --lint-only -Wall -Irtl/dma -GMAX_BURST_BEATS=3 --top-module "$top" \
            "rtl/dma/$top.v" rtl/common/froce_fifo.v >"$bad_log" 2>&1; then
        die "verilator accepted $top MAX_BURST_BEATS=3"
    fi
    grep -q "${top}_bad_parameter" "$bad_log" || { cat "$bad_log"; die "verilator rejected $top for another reason"; }
    if iverilog -g2005 -Irtl/dma -P"$top.DATA_WIDTH=48" -s "$top" -o "$BUILD/bad.vvp" \
            "rtl/dma/$top.v" rtl/common/froce_fifo.v >"$bad_log" 2>&1; then
        die "iverilog accepted $top DATA_WIDTH=48"
    fi
    grep -q "${top}_bad_parameter" "$bad_log" || { cat "$bad_log"; die "iverilog rejected $top for another reason"; }
    if yosys -q -p "read_verilog -Irtl/dma rtl/dma/$top.v rtl/common/froce_fifo.v; chparam -set DATA_WIDTH 48 $top; hierarchy -check -top $top" \
            >"$bad_log" 2>&1; then
        die "yosys accepted $top DATA_WIDTH=48"
    fi
    echo "$top: bad parameters rejected by verilator, iverilog and yosys"
done

section "2. Verilator bench (seed $SEED, $READS reads + $WRITES writes per width)"
# name:DATA_WIDTH:extra verilator parameters:bench options (the same limits)
CONFIGS=("w64:64::" "w512:512::"
         "small:64:-GMAX_BURST_BEATS=4 -GMAX_OUTSTANDING=2 -GBUF_DEPTH=8:--max-burst 4 --max-outstanding 2")
build() {
    local name="$1" w="$2" extra="$3"
    local mdir="$BUILD/vl_$name"
    # shellcheck disable=SC2086  # $extra is a list of options
    verilator -Wall --cc --exe --build -j 1 -O3 --x-assign fast --x-initial fast \
        -Irtl/dma -GDATA_WIDTH="$w" $extra --top-module tb_dma_top \
        --Mdir "$mdir" -o tb_dma \
        -CFLAGS "-DDATA_WIDTH=$w -O2 -std=c++17 -Wall -Wextra -Werror -I$ROOT/sim/models" \
        "$TB/tb_dma_top.v" "${RTL_SRCS[@]}" "$ROOT/$TB/tb_dma.cpp" >"$BUILD/vl_$name.build.log" 2>&1
}
pids=()
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name w extra opts <<<"$c"
    build "$name" "$w" "$extra" &
    pids+=($!)
done
i=0
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name w extra opts <<<"$c"
    wait "${pids[$i]}" || { cat "$BUILD/vl_$name.build.log"; die "verilator build $name failed"; }
    i=$((i + 1))
done

pids=()
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name w extra opts <<<"$c"
    n_rd="$READS"; n_wr="$WRITES"
    # the small configuration is slow per byte; a third of the requests
    [ "$name" = small ] && { n_rd=$((READS / 3)); n_wr=$((WRITES / 3)); }
    # shellcheck disable=SC2086  # $opts is a list of options
    "$BUILD/vl_$name/tb_dma" --seed "$SEED" --reads "$n_rd" --writes "$n_wr" $opts >"$BUILD/vl_$name.log" 2>&1 &
    pids+=($!)
done
status=0
i=0
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name w extra opts <<<"$c"
    rc=0
    wait "${pids[$i]}" || rc=$?
    i=$((i + 1))
    echo "-- $name (DATA_WIDTH=$w${extra:+ $extra})"
    cat "$BUILD/vl_$name.log"
    if [ "$rc" -ne 0 ] || grep -q '^FAIL' "$BUILD/vl_$name.log" || [ "$(grep -c '^PASS:' "$BUILD/vl_$name.log")" -ne 1 ]; then
        status=1
    fi
done
[ "$status" -eq 0 ] || die "Verilator bench failed"

section "3. negative control (corrupted memory byte must be caught)"
rc=0
"$BUILD/vl_w64/tb_dma" --seed "$SEED" --reads 20 --writes 0 --inject-error >"$BUILD/inject.log" 2>&1 || rc=$?
if [ "$rc" -eq 0 ] || ! grep -q '^FAIL' "$BUILD/inject.log"; then
    cat "$BUILD/inject.log"
    die "injected error was not detected"
fi
echo "negative control: injected error detected (status $rc)"

section "4. Icarus directed bench"
for w in 64 512; do
    iverilog -g2005 -Wall -Irtl/dma -Ptb_dma_directed.DATA_WIDTH="$w" -o "$BUILD/directed_w$w.vvp" \
        "$TB/tb_dma_directed.v" "${RTL_SRCS[@]}"
    log="$BUILD/directed_w$w.log"
    vvp -n "$BUILD/directed_w$w.vvp" >"$log" 2>&1 || { cat "$log"; die "Icarus bench DATA_WIDTH=$w exited non-zero"; }
    cat "$log"
    if grep -qE 'FAIL|ERROR' "$log" || [ "$(grep -c '^PASS:' "$log")" -ne 1 ]; then
        die "Icarus bench DATA_WIDTH=$w failed"
    fi
done

echo
echo "run.sh: PASS: all DMA engine checks passed"
