#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks of the BAR2 doorbell window (rtl/core/froce_doorbell.v); exits
# non-zero on the first failure.
#
#   tests/rtl/doorbell/run.sh       (from anywhere; builds into build/tests/doorbell/)
#
# Environment:
#   DB_SEED    first seed of the random bench (default 1)
#   DB_SEEDS   seeds per configuration (default 4)
#   DB_ROUNDS  rounds per run (default 16)
#   DB_DBS     doorbells per round (default 5000)
#
# Steps:
#   1. verilator --lint-only -Wall (default, small and extreme parameters, and
#      with the negative-control define) and iverilog -g2005 -Wall
#   2. bad parameters (NUM_QPS not a power of two, wrong ADDR_W) must not elaborate
#   3. Yosys, if installed: no latches; the binding tables stay RAMs ($mem)
#   4. Verilator C++ bench against the reference model, default tables
#      (256 QPs / 256 CQs / 256 pages) and small ones (8 / 4 / 2, FIFO depth 2)
#   5. negative control: FROCE_DOORBELL_NO_PAGE_CHECK (page check removed)
#      must make the bench fail
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"

BUILD="build/tests/doorbell"
TB="tests/rtl/doorbell"
SEED="${DB_SEED:-1}"
SEEDS="${DB_SEEDS:-4}"
ROUNDS="${DB_ROUNDS:-16}"
DBS="${DB_DBS:-5000}"
SRC=(rtl/core/froce_doorbell.v rtl/common/froce_fifo.v)
INC=(-Irtl/include)
TOP=froce_doorbell

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
for p in "" "-GNUM_QPS=8 -GNUM_CQS=4 -GNUM_UARS=2 -GFIFO_DEPTH=2" \
        "-GNUM_QPS=16777216 -GNUM_CQS=2 -GNUM_UARS=65536" "+define+FROCE_DOORBELL_NO_PAGE_CHECK"; do
    # shellcheck disable=SC2086
    verilator --lint-only -Wall "${INC[@]}" --top-module "$TOP" $p "${SRC[@]}"
    echo "verilator $TOP ${p:-(defaults)}: clean"
done
out=$(iverilog -g2005 -Wall "${INC[@]}" -s "$TOP" -o "$BUILD/lint.vvp" "${SRC[@]}" 2>&1) || die "iverilog: $out"
[ -z "$out" ] || die "iverilog warnings: $out"
out=$(vvp -n "$BUILD/lint.vvp" 2>&1) || die "vvp: $out"
[ -z "$out" ] || die "vvp elaboration printed: $out"
echo "iverilog $TOP: clean, elaborates"

section "2. bad parameters must not elaborate"
bad() {
    local what="$1" msg="$2"
    shift 2
    if iverilog -g2005 "${INC[@]}" -s "$TOP" "$@" -o "$BUILD/bad.vvp" "${SRC[@]}" >"$BUILD/bad.log" 2>&1; then
        vvp -n "$BUILD/bad.vvp" >>"$BUILD/bad.log" 2>&1 || true
    fi
    grep -q "$msg" "$BUILD/bad.log" || { cat "$BUILD/bad.log"; die "$what accepted"; }
    echo "$what: rejected ($(grep -m1 "$msg" "$BUILD/bad.log"))"
}
bad "NUM_QPS=100" "NUM_QPS must be" -P "$TOP.NUM_QPS=100"
bad "NUM_UARS=24" "NUM_UARS must be" -P "$TOP.NUM_UARS=24"
bad "ADDR_W=32" "ADDR_W must be" -P "$TOP.ADDR_W=32"

section "3. synthesis"
if command -v yosys >/dev/null 2>&1; then
    # a generic synth: fails if any latch is left
    yosys -q -p "read_verilog ${INC[*]} ${SRC[*]}; synth -top $TOP; select -assert-none t:\$dlatch t:\$adlatch t:\$_DLATCH_* t:\$_DLATCHSR_*" \
        >"$BUILD/yosys.log" 2>&1 || { tail -20 "$BUILD/yosys.log"; die "yosys synth (latches?)"; }
    echo "yosys synth: no latches"
    # the binding tables are inferred as two memories (block RAM on a device)
    yosys -q -p "read_verilog ${INC[*]} ${SRC[*]}; hierarchy -top $TOP; proc; opt -fast; memory -nomap; flatten; select -assert-count 5 t:\$mem t:\$mem_v2; tee -o $BUILD/yosys_mem.txt select -list t:\$mem t:\$mem_v2" \
        >>"$BUILD/yosys.log" 2>&1 || { tail -20 "$BUILD/yosys.log"; die "yosys: expected 5 memories (2 tables, 3 FIFOs)"; }
    echo "yosys: memories $(grep -o '[a-z_]*\(ram\|mem\)$' "$BUILD/yosys_mem.txt" | sort | tr '\n' ' ')"
else
    echo "yosys not installed: skipped"
fi

section "4. Verilator bench vs. reference model"
VFLAGS=(-Wall --cc --exe --build -j 2 -O2 --x-assign unique --x-initial unique "${INC[@]}" --top-module "$TOP")
CFLAGS="-std=c++17 -O2 -I$ROOT/include -Wall -Wextra -Werror"
build() {
    local name="$1" qps="$2" cqs="$3" uars="$4" depth="$5"
    shift 5
    local mdir="$BUILD/$name"
    verilator "${VFLAGS[@]}" -GNUM_QPS="$qps" -GNUM_CQS="$cqs" -GNUM_UARS="$uars" -GFIFO_DEPTH="$depth" "$@" \
        --Mdir "$mdir" -o tb_froce_doorbell \
        -CFLAGS "$CFLAGS -DNUM_QPS=$qps -DNUM_CQS=$cqs -DNUM_UARS=$uars -DFIFO_DEPTH=$depth" \
        "${SRC[@]}" "$ROOT/$TB/tb_froce_doorbell.cpp" >"$BUILD/$name.build.log" 2>&1 ||
        { tail -40 "$BUILD/$name.build.log"; die "verilator build $name failed"; }
}
build default 256 256 256 4 &
pid1=$!
build small 8 4 2 2 &
pid2=$!
build nopagecheck 256 256 256 4 +define+FROCE_DOORBELL_NO_PAGE_CHECK &
pid3=$!
wait "$pid1" || die "build default"
wait "$pid2" || die "build small"
wait "$pid3" || die "build nopagecheck"

run() {
    local name="$1" seed="$2"
    local log="$BUILD/$name.$seed.log"
    if ! "$BUILD/$name/tb_froce_doorbell" --seed "$seed" --rounds "$ROUNDS" --dbs "$DBS" >"$log" 2>&1; then
        tail -20 "$log"
        die "$name seed $seed"
    fi
    [ "$(grep -c '^PASS:' "$log")" -eq 1 ] || die "$name seed $seed: no PASS line"
}
pids=()
for ((i = 0; i < SEEDS; i++)); do
    for name in default small; do
        run "$name" "$((SEED + i))" &
        pids+=($!)
    done
done
for p in "${pids[@]}"; do
    wait "$p" || die "bench"
done
# the details of the first run of each configuration
for name in default small; do
    echo "-- $name, seed $SEED"
    grep -v '^round ' "$BUILD/$name.$SEED.log" | sed 's/^/    /'
    echo "$name: $SEEDS seeds passed"
done

section "5. negative control: no page check"
if "$BUILD/nopagecheck/tb_froce_doorbell" --seed "$SEED" --rounds "$ROUNDS" --dbs "$DBS" >"$BUILD/nopagecheck.log" 2>&1; then
    die "negative control: the bench passed without the page check"
fi
grep -q '^FAIL: .*doorbell\|^FAIL: .*CQ arm' "$BUILD/nopagecheck.log" ||
    { tail "$BUILD/nopagecheck.log"; die "negative control failed for another reason"; }
echo "negative control failed as it must: $(grep -m1 '^FAIL:' "$BUILD/nopagecheck.log")"

echo
echo "tests/rtl/doorbell: PASS (lint, elaboration checks, synthesis, bench $((2 * SEEDS)) runs, negative control)"
