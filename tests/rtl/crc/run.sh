#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every check of the CRC / IPv4 checksum primitives; exits non-zero on the first failure.
#
#   tests/rtl/crc/run.sh            (from anywhere; builds into build/tests/crc/)
#
# Environment:
#   ICRC_VECTORS  rxe vector CSV (default $FROCE_VECTORS/icrc_vectors.csv, FROCE_VECTORS
#                 defaulting to tests/vectors/rxe)
#   CRC_ITERS     random beats per width in the Verilator test (default 10000)
#
# Steps:
#   1. scripts/gen_crc.py --check (checked-in matrices match the generator)
#   2. verilator --lint-only -Wall: froce_crc32_step at 8..512, froce_ipv4_csum
#   3. an unsupported DATA_WIDTH must fail elaboration in Verilator, Icarus, Yosys
#   4. Verilator C++ testbench at 8, 32, 64, 128, 256, 512 (random beats x every
#      len vs. software CRC; ICRC of every CSV frame) + negative control
#   5. Icarus testbenches: froce_crc32_step_tb at 8, 32, 64, 512;
#      froce_ipv4_csum_tb on the CSV's IPv4 headers; + negative controls
#   6. Yosys 0.23 synthesis of froce_crc32_step at 64 and 512 and of
#      froce_ipv4_csum, with run time and cell count

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"

VECTORS="${ICRC_VECTORS:-${FROCE_VECTORS:-tests/vectors/rxe}/icrc_vectors.csv}"
ITERS="${CRC_ITERS:-10000}"
BUILD="build/tests/crc"
RTL="rtl/crc"
TB="tests/rtl/crc"

mkdir -p "$BUILD"

die() {
    echo "run.sh: FAIL: $*" >&2
    exit 1
}

section() {
    echo
    echo "== $*"
}

# Runs a simulation whose log must hold exactly one "PASS:" line and no
# "FAIL"/"ERROR" line, with exit status 0.
expect_pass() {
    local name="$1"
    shift
    local log="$BUILD/$name.log"
    local rc=0
    "$@" >"$log" 2>&1 || rc=$?
    cat "$log"
    [ "$rc" -eq 0 ] || die "$name exited with status $rc"
    if grep -qE 'FAIL|ERROR' "$log"; then die "$name reported a failure"; fi
    [ "$(grep -c '^PASS:' "$log")" -eq 1 ] || die "$name did not print exactly one PASS line"
}

# Negative control: the same simulation with an injected error must be caught
# (non-zero status, or a FAIL line and no PASS line).
expect_fail() {
    local name="$1"
    shift
    local log="$BUILD/$name.log"
    local rc=0
    "$@" >"$log" 2>&1 || rc=$?
    if [ "$rc" -eq 0 ] && ! { grep -q '^FAIL' "$log" && ! grep -q '^PASS' "$log"; }; then
        cat "$log"
        die "$name: injected error was not detected"
    fi
    echo "negative control $name: injected error detected ($(grep -c '^FAIL' "$log" || true) FAIL lines, status $rc)"
}

[ -r "$VECTORS" ] || die "vector file $VECTORS not readable (set ICRC_VECTORS)"

section "1. generator check"
python3 scripts/gen_crc.py --check

section "2. lint (verilator --lint-only -Wall)"
for w in 8 32 64 128 256 512; do
    verilator --lint-only -Wall -I"$RTL" -GDATA_WIDTH="$w" "$RTL/froce_crc32_step.v"
    echo "lint froce_crc32_step DATA_WIDTH=$w: clean"
done
verilator --lint-only -Wall "$RTL/froce_ipv4_csum.v"
echo "lint froce_ipv4_csum: clean"

section "3. unsupported DATA_WIDTH=48 must not elaborate"
bad_log="$BUILD/unsupported.log"
if verilator --lint-only -Wall -I"$RTL" -GDATA_WIDTH=48 "$RTL/froce_crc32_step.v" >"$bad_log" 2>&1; then
    die "verilator accepted DATA_WIDTH=48"
fi
grep -q froce_crc32_step_unsupported_DATA_WIDTH "$bad_log" || { cat "$bad_log"; die "verilator rejected DATA_WIDTH=48 for another reason"; }
echo "verilator: rejected"
if iverilog -g2005 -I"$RTL" -Pfroce_crc32_step.DATA_WIDTH=48 -o "$BUILD/unsupported.vvp" \
        "$RTL/froce_crc32_step.v" >"$bad_log" 2>&1; then
    die "iverilog accepted DATA_WIDTH=48"
fi
grep -q froce_crc32_step_unsupported_DATA_WIDTH "$bad_log" || { cat "$bad_log"; die "iverilog rejected DATA_WIDTH=48 for another reason"; }
echo "iverilog: rejected"
if yosys -q -p "read_verilog -I $RTL $RTL/froce_crc32_step.v; chparam -set DATA_WIDTH 48 froce_crc32_step; hierarchy -check -top froce_crc32_step" \
        >"$bad_log" 2>&1; then
    die "yosys accepted DATA_WIDTH=48"
fi
grep -q froce_crc32_step_unsupported_DATA_WIDTH "$bad_log" || { cat "$bad_log"; die "yosys rejected DATA_WIDTH=48 for another reason"; }
echo "yosys: rejected"

section "4. Verilator C++ testbench (random beats, ICRC of $(($(wc -l <"$VECTORS") - 1)) CSV frames)"
for w in 8 32 64 128 256 512; do
    mdir="$BUILD/vl_w$w"
    verilator -Wall --cc --exe --build -j 2 \
        -I"$RTL" -GDATA_WIDTH="$w" --top-module froce_crc32_step \
        --Mdir "$mdir" -o tb_crc32_step \
        -CFLAGS "-DDATA_WIDTH=$w -Wall -Wextra -Werror" \
        "$RTL/froce_crc32_step.v" "$ROOT/$TB/tb_froce_crc32_step.cpp" >"$BUILD/vl_w$w.build.log" 2>&1 ||
        { cat "$BUILD/vl_w$w.build.log"; die "verilator build at DATA_WIDTH=$w failed"; }
    expect_pass "vl_w$w" "$mdir/tb_crc32_step" "$VECTORS" --iters "$ITERS"
done
expect_fail "vl_w64_inject" "$BUILD/vl_w64/tb_crc32_step" "$VECTORS" --iters 10 --inject-error

section "5. Icarus testbenches"
for w in 8 32 64 512; do
    iters=300
    [ "$w" -eq 512 ] && iters=20  # Icarus is slow at 512; Verilator covers it fully
    iverilog -g2005 -Wall -I"$RTL" -Pfroce_crc32_step_tb.DATA_WIDTH="$w" -Pfroce_crc32_step_tb.RANDOM_ITERS="$iters" \
        -o "$BUILD/crc32_step_tb_w$w.vvp" "$TB/froce_crc32_step_tb.v" "$RTL/froce_crc32_step.v"
    expect_pass "crc32_step_tb_w$w" vvp -n "$BUILD/crc32_step_tb_w$w.vvp"
done
expect_fail "crc32_step_tb_w64_inject" vvp -n "$BUILD/crc32_step_tb_w64.vvp" +inject_error

python3 "$TB/ipv4_headers_from_csv.py" "$VECTORS" "$BUILD/ipv4_headers.memh"
count="$(wc -l <"$BUILD/ipv4_headers.memh")"
iverilog -g2005 -Wall -o "$BUILD/ipv4_csum_tb.vvp" "$TB/froce_ipv4_csum_tb.v" "$RTL/froce_ipv4_csum.v"
expect_pass "ipv4_csum_tb" vvp -n "$BUILD/ipv4_csum_tb.vvp" +headers="$BUILD/ipv4_headers.memh" +count="$count"
expect_fail "ipv4_csum_tb_inject" vvp -n "$BUILD/ipv4_csum_tb.vvp" +headers="$BUILD/ipv4_headers.memh" +count="$count" +inject_error

section "6. Yosys synthesis"
synth() {
    local name="$1" script="$2"
    local log="$BUILD/yosys_$name.log"
    local t0 t1
    t0=$(date +%s.%N)
    timeout 300 yosys -q -l "$log" -p "$script" >/dev/null || die "yosys $name failed or timed out (see $log)"
    t1=$(date +%s.%N)
    printf 'yosys %-28s %6.2f s  %s\n' "$name" "$(echo "$t1 - $t0" | bc)" \
        "$(grep 'Number of cells' "$log" | tail -1 | sed 's/^ *//')"
}
for w in 64 512; do
    synth "froce_crc32_step_w$w" \
        "read_verilog -I $RTL $RTL/froce_crc32_step.v; chparam -set DATA_WIDTH $w froce_crc32_step; synth -top froce_crc32_step; stat"
done
synth froce_ipv4_csum "read_verilog $RTL/froce_ipv4_csum.v; synth -top froce_ipv4_csum; stat"

echo
echo "run.sh: PASS: all CRC / IPv4 checksum checks passed"
