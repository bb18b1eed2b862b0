#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks of the MR table / MTT translation (rtl/mem/froce_mr_xlate.v); exits
# non-zero on the first failure.
#
#   tests/rtl/mem/run.sh            (from anywhere; builds into build/tests/mem/)
#
# Environment:
#   MEM_SEED    seed of the random bench (default 1)
#   MEM_ROUNDS  registration rounds (default 16)
#   MEM_REQS    translation requests per round (default 4000)
#
# Steps:
#   1. verilator --lint-only -Wall and iverilog -g2005 -Wall, default and small tables
#   2. a bad NUM_MRS (not a power of two) must fail elaboration
#   3. Verilator C++ bench against the C++ reference model, at the default
#      table sizes and at small ones (index wrap, out-of-range keys), plus a
#      negative control (--inject-error must fail)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"

BUILD="build/tests/mem"
TB="tests/rtl/mem"
SEED="${MEM_SEED:-1}"
ROUNDS="${MEM_ROUNDS:-16}"
REQS="${MEM_REQS:-4000}"
SRC=(rtl/mem/froce_mr_xlate.v rtl/common/froce_fifo.v)
INC=(-Irtl/include)

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
for p in "" "-GNUM_MRS=16 -GNUM_MTT=64" "-GNUM_MRS=131072 -GNUM_MTT=1048576"; do
    # shellcheck disable=SC2086
    verilator --lint-only -Wall "${INC[@]}" --top-module froce_mr_xlate $p "${SRC[@]}"
    echo "verilator froce_mr_xlate ${p:-(defaults)}: clean"
done
out=$(iverilog -g2005 -Wall "${INC[@]}" -s froce_mr_xlate -o "$BUILD/lint.vvp" "${SRC[@]}" 2>&1) || die "iverilog: $out"
[ -z "$out" ] || die "iverilog warnings: $out"
echo "iverilog froce_mr_xlate: clean"

section "2. NUM_MRS=1000 must not elaborate"
if iverilog -g2005 "${INC[@]}" -s froce_mr_xlate -P froce_mr_xlate.NUM_MRS=1000 -o "$BUILD/bad.vvp" "${SRC[@]}" >"$BUILD/bad.log" 2>&1 &&
        vvp -n "$BUILD/bad.vvp" >>"$BUILD/bad.log" 2>&1 && ! grep -q "NUM_MRS must be" "$BUILD/bad.log"; then
    die "NUM_MRS=1000 accepted"
fi
grep -q "NUM_MRS must be" "$BUILD/bad.log" || { cat "$BUILD/bad.log"; die "NUM_MRS=1000 rejected for another reason"; }
echo "rejected: $(grep -m1 'NUM_MRS must be' "$BUILD/bad.log")"

section "3. Verilator bench vs. reference model"
build() {
    local name="$1" mrs="$2" mtt="$3"
    local mdir="$BUILD/$name"
    verilator -Wall --cc --exe --build -j 2 -O2 \
        "${INC[@]}" -GNUM_MRS="$mrs" -GNUM_MTT="$mtt" --top-module froce_mr_xlate \
        --Mdir "$mdir" -o tb_froce_mr_xlate \
        -CFLAGS "-std=c++17 -O2 -DNUM_MRS=$mrs -DNUM_MTT=$mtt -I$ROOT/include -Wall -Wextra -Werror" \
        "${SRC[@]}" "$ROOT/$TB/tb_froce_mr_xlate.cpp" >"$BUILD/$name.build.log" 2>&1 ||
        { tail -40 "$BUILD/$name.build.log"; die "verilator build $name failed"; }
}
build default 1024 65536 &
pid1=$!
build small 16 64 &
pid2=$!
wait "$pid1" || die "build default"
wait "$pid2" || die "build small"

run() {
    local name="$1"
    shift
    local log="$BUILD/$name.log"
    if ! "$@" >"$log" 2>&1; then
        tail -20 "$log"
        die "$name"
    fi
    grep -v '^round ' "$log" | sed 's/^/    /'
    [ "$(grep -c '^PASS:' "$log")" -eq 1 ] || die "$name: no PASS line"
    echo "$name: ok"
}
run default "$BUILD/default/tb_froce_mr_xlate" --seed "$SEED" --rounds "$ROUNDS" --reqs "$REQS" &
pid1=$!
run small "$BUILD/small/tb_froce_mr_xlate" --seed "$((SEED + 1))" --rounds "$ROUNDS" --reqs "$REQS" &
pid2=$!
wait "$pid1" || die "default"
wait "$pid2" || die "small"

if "$BUILD/default/tb_froce_mr_xlate" --seed "$SEED" --rounds 2 --reqs 800 --inject-error >"$BUILD/inject.log" 2>&1; then
    die "negative control: --inject-error passed"
fi
grep -q '^FAIL: .*segment mismatch' "$BUILD/inject.log" || { tail "$BUILD/inject.log"; die "negative control failed for another reason"; }
echo "negative control (--inject-error): failed as it must"

echo
echo "tests/rtl/mem: PASS"
