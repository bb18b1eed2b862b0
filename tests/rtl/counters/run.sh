#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs the froce_counters checks; exits non-zero on any failure.
#
#   tests/rtl/counters/run.sh    (from anywhere; builds into build/tests/counters/)
#
# Environment:
#   COUNTERS_SEEDS    seeds of the random runs (default "1 2 3")
#   COUNTERS_CYCLES   cycles per run (default 300000)
#
# Steps:
#   1. verilator --lint-only -Wall for every configuration below
#   2. Yosys: no latches, the totals inferred as one memory
#   3. the Verilator bench tb_froce_counters.cpp (model of plain 64-bit
#      counters; see its header) for every configuration and seed:
#      froce_core's (48 counters, 4-bit increments), a small
#      one (5 x 1 bit), a wide one (64 x 7 bits, a 512-bit bus's byte
#      counts) and the smallest (2 x 2 bits)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"

SEEDS="${COUNTERS_SEEDS:-1 2 3}"
CYCLES="${COUNTERS_CYCLES:-300000}"
BUILD="build/tests/counters"
TB="tests/rtl/counters"
DUT=rtl/common/froce_counters.v
TOP=froce_counters
T0=$SECONDS

die() {
    echo "run.sh: FAIL: $*" >&2
    exit 1
}

section() {
    echo
    echo "== $*"
}

# name:N:IW
CONFIGS=("core:48:4" "small:5:1" "wide:64:7" "tiny:2:2")

mkdir -p "$BUILD"

section "1. lint"
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name n iw <<<"$c"
    verilator --lint-only -Wall -GN="$n" -GIW="$iw" --top-module "$TOP" "$DUT"
    echo "lint $TOP N=$n IW=$iw: clean"
done

section "2. synthesis"
if command -v yosys >/dev/null; then
    yosys -q -p "read_verilog $DUT; chparam -set N 48 -set IW 4 $TOP; synth -top $TOP; select -assert-none t:\$dlatch t:\$adlatch t:\$_DLATCH_* t:\$_DLATCHSR_*" \
        >"$BUILD/yosys.log" 2>&1 || { tail -20 "$BUILD/yosys.log"; die "yosys synth (latches?)"; }
    yosys -q -p "read_verilog $DUT; chparam -set N 48 -set IW 4 $TOP; hierarchy -top $TOP; proc; opt -fast; memory -nomap; select -assert-count 1 t:\$mem t:\$mem_v2" \
        >>"$BUILD/yosys.log" 2>&1 || { tail -20 "$BUILD/yosys.log"; die "yosys: the totals are not one memory"; }
    echo "yosys: no latches, the totals are one memory"
else
    echo "yosys not installed: skipped"
fi

section "3. Verilator bench vs. a model of plain counters"
CFLAGS="-std=c++17 -O2 -Wall -Wextra -Werror"
build() {   # name N IW
    local name="$1" n="$2" iw="$3"
    verilator -Wall --cc --exe --build -j 1 -O2 --x-assign unique --x-initial unique --public-flat-rw \
        -GN="$n" -GIW="$iw" --top-module "$TOP" --Mdir "$BUILD/$name" -o tb_froce_counters \
        -CFLAGS "$CFLAGS -DN=$n -DIW=$iw" \
        "$DUT" "$ROOT/$TB/tb_froce_counters.cpp" >"$BUILD/$name.build.log" 2>&1 ||
        { tail -40 "$BUILD/$name.build.log"; return 1; }
}
pids=()
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name n iw <<<"$c"
    if [ "${#pids[@]}" -ge 2 ]; then
        wait "${pids[0]}" || die "a bench build failed"
        pids=("${pids[@]:1}")
    fi
    build "$name" "$n" "$iw" &
    pids+=($!)
done
for p in "${pids[@]}"; do
    wait "$p" || die "a bench build failed"
done
echo "built ${#CONFIGS[@]} configurations ($((SECONDS - T0)) s)"

status=0
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name n iw <<<"$c"
    for s in $SEEDS; do
        log="$BUILD/run_${name}_$s.log"
        if "$BUILD/$name/tb_froce_counters" --seed "$s" --cycles "$CYCLES" >"$log" 2>&1 && grep -q ': ok$' "$log"; then
            echo "$name seed $s: $(tail -n 1 "$log")"
        else
            head -n 10 "$log"
            echo "$name seed $s: FAIL"
            status=1
        fi
    done
done

echo
[ "$status" -eq 0 ] || die "froce_counters bench failed ($((SECONDS - T0)) s)"
echo "run.sh: PASS: froce_counters lint, synthesis, bench ($((SECONDS - T0)) s)"
