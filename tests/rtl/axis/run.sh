#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs the benches of the gather packer and scatter splitter
# (rtl/common/froce_axis_pack.v, rtl/common/froce_axis_split.v); exits
# non-zero on the first failure.
#
#   tests/rtl/axis/run.sh           (from anywhere; builds into build/tests/axis/)
#
# Environment:
#   AXIS_SEED      random seed (default 1)
#   AXIS_PACKETS   random packets per module and width (default 5000)
#
# Steps:
#   1. verilator --lint-only -Wall of both modules and both bench tops at
#      DATA_WIDTH 64 and 512; DATA_WIDTH=48 must fail to elaborate
#   2. Yosys (if installed): generic synthesis of both modules at 64 and 512,
#      no latch; runs in the background during step 3
#   3. Verilator C++ benches (tb_axis_pack.cpp, tb_axis_split.cpp) at
#      DATA_WIDTH 64 and 512, the packer also with REG_IN=1 (its input
#      through froce_reg_slice): random pieces and packets with input gaps and
#      output back-pressure, every byte/tkeep/tlast checked against a C++
#      reference, split mismatches (discard, zero-fill, err_mismatch timing,
#      next packet intact), pack caller errors; throughput figures
#   4. negative control: both benches with one output byte lane corrupted by
#      the bench top must FAIL
#   5. Icarus: both modules compile with iverilog -g2005 -Wall at 64 and 512
#      without a warning, and a directed bench (tb_axis_directed.v: pack
#      feeding split, matching, empty, shorter and longer packets) passes
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"

SEED="${AXIS_SEED:-1}"
PACKETS="${AXIS_PACKETS:-5000}"
BUILD="build/tests/axis"
TB="tests/rtl/axis"
PACK_SRCS=(rtl/common/froce_axis_pack.v rtl/common/froce_reg_slice.v)
SPLIT_SRCS=(rtl/common/froce_axis_split.v rtl/common/froce_fifo.v)

mkdir -p "$BUILD"

die() {
    echo "run.sh: FAIL: $*" >&2
    echo "axis: FAIL"
    exit 1
}

section() {
    echo
    echo "== $*"
}

srcs_of() {
    if [ "$1" = pack ]; then echo "${PACK_SRCS[@]}"; else echo "${SPLIT_SRCS[@]}"; fi
}

section "1. lint"
for w in 64 512; do
    for m in pack split; do
        # shellcheck disable=SC2046  # word splitting of the source list
        verilator --lint-only -Wall -GDATA_WIDTH="$w" --top-module "froce_axis_$m" $(srcs_of "$m")
        # shellcheck disable=SC2046
        verilator --lint-only -Wall -GDATA_WIDTH="$w" --top-module "tb_axis_${m}_top" "$TB/tb_axis_${m}_top.v" $(srcs_of "$m")
        echo "lint froce_axis_$m and tb_axis_${m}_top DATA_WIDTH=$w: clean"
    done
    # shellcheck disable=SC2046
    verilator --lint-only -Wall -GDATA_WIDTH="$w" -GREG_IN=1 --top-module tb_axis_pack_top "$TB/tb_axis_pack_top.v" $(srcs_of pack)
    echo "lint froce_axis_pack REG_IN=1 DATA_WIDTH=$w: clean"
done
for m in pack split; do
    # shellcheck disable=SC2046
    if verilator --lint-only -Wall -GDATA_WIDTH=48 --top-module "froce_axis_$m" $(srcs_of "$m") \
            >"$BUILD/bad_param.log" 2>&1; then
        die "verilator accepted froce_axis_$m DATA_WIDTH=48"
    fi
    grep -q "froce_axis_${m}_bad_parameter" "$BUILD/bad_param.log" || { cat "$BUILD/bad_param.log"; die "froce_axis_$m DATA_WIDTH=48 rejected for another reason"; }
    echo "froce_axis_$m DATA_WIDTH=48: rejected"
done

section "2. Yosys synthesis (background)"
synth_pids=()
if command -v yosys >/dev/null 2>&1; then
    for m in pack split; do
        for w in 64 512; do
            # shellcheck disable=SC2046
            yosys -q -l "$BUILD/synth_${m}_w$w.log" \
                -p "read_verilog $(srcs_of "$m"); chparam -set DATA_WIDTH $w froce_axis_$m; synth -top froce_axis_$m; select -assert-none t:\$_DLATCH* t:\$dlatch*; stat" \
                >/dev/null 2>&1 &
            synth_pids+=($!)
        done
    done
    echo "started ${#synth_pids[@]} runs"
else
    echo "yosys not installed: skipped"
fi

section "3. Verilator benches (seed $SEED, $PACKETS packets per module and width)"
# module:width[:REG_IN]
CONFIGS=("pack:64" "split:64" "pack:512" "split:512" "pack:64:1" "pack:512:1")
build() {
    local m="$1" w="$2" r="$3"
    local mdir="$BUILD/vl_${m}_w$w${r:+_r$r}" gparams=()
    [ -n "$r" ] && gparams=(-GREG_IN="$r")
    # shellcheck disable=SC2046
    verilator -Wall --cc --exe --build -j 1 -O3 --x-assign fast --x-initial fast \
        -GDATA_WIDTH="$w" "${gparams[@]}" --top-module "tb_axis_${m}_top" \
        --Mdir "$mdir" -o "tb_axis_$m" \
        -CFLAGS "-DDATA_WIDTH=$w -O2 -std=c++17 -Wall -Wextra -Werror -I$ROOT/$TB" \
        "$TB/tb_axis_${m}_top.v" $(srcs_of "$m") "$ROOT/$TB/tb_axis_$m.cpp" >"$mdir.build.log" 2>&1
}
# two builds at a time
pids=()
for c in "${CONFIGS[@]}"; do
    IFS=: read -r m w r <<<"$c"
    build "$m" "$w" "$r" &
    pids+=($!)
    if [ "${#pids[@]}" -eq 2 ]; then
        for p in "${pids[@]}"; do wait "$p" || die "a Verilator build failed (see $BUILD/vl_*.build.log)"; done
        pids=()
    fi
done
for p in "${pids[@]}"; do wait "$p" || die "a Verilator build failed (see $BUILD/vl_*.build.log)"; done

status=0
for c in "${CONFIGS[@]}"; do
    IFS=: read -r m w r <<<"$c"
    tag="${m}_w$w${r:+_r$r}"
    log="$BUILD/vl_$tag.log"
    rc=0
    "$BUILD/vl_$tag/tb_axis_$m" --seed "$SEED" --packets "$PACKETS" >"$log" 2>&1 || rc=$?
    echo "-- froce_axis_$m DATA_WIDTH=$w${r:+ REG_IN=$r}"
    cat "$log"
    if [ "$rc" -ne 0 ] || grep -q '^FAIL' "$log" || [ "$(grep -c '^PASS:' "$log")" -ne 1 ]; then
        status=1
    fi
done
[ "$status" -eq 0 ] || die "Verilator bench failed"

section "4. negative control (one corrupted output byte lane must be caught)"
for m in pack split; do
    rc=0
    "$BUILD/vl_${m}_w64/tb_axis_$m" --seed "$SEED" --packets 20 --break-lane >"$BUILD/break_$m.log" 2>&1 || rc=$?
    if [ "$rc" -eq 0 ] || ! grep -q '^FAIL' "$BUILD/break_$m.log"; then
        cat "$BUILD/break_$m.log"
        die "corrupted lane not detected by the $m bench"
    fi
    echo "froce_axis_$m: corrupted lane detected (status $rc): $(grep -m1 '^FAIL' "$BUILD/break_$m.log")"
done

section "5. Icarus compile and directed bench"
for w in 64 512; do
    for m in pack split; do
        # shellcheck disable=SC2046
        iverilog -g2005 -Wall -P"froce_axis_$m.DATA_WIDTH=$w" -s "froce_axis_$m" -o "$BUILD/icarus_${m}_w$w.vvp" \
            $(srcs_of "$m") >"$BUILD/icarus_${m}_w$w.log" 2>&1 || { cat "$BUILD/icarus_${m}_w$w.log"; die "iverilog froce_axis_$m DATA_WIDTH=$w"; }
        if [ -s "$BUILD/icarus_${m}_w$w.log" ]; then
            cat "$BUILD/icarus_${m}_w$w.log"
            die "iverilog warnings for froce_axis_$m DATA_WIDTH=$w"
        fi
        echo "iverilog froce_axis_$m DATA_WIDTH=$w: clean"
    done
    log="$BUILD/directed_w$w.log"
    iverilog -g2005 -Wall -Ptb_axis_directed.DATA_WIDTH="$w" -o "$BUILD/directed_w$w.vvp" \
        "$TB/tb_axis_directed.v" "${PACK_SRCS[@]}" "${SPLIT_SRCS[@]}"
    vvp -n "$BUILD/directed_w$w.vvp" >"$log" 2>&1 || { cat "$log"; die "Icarus directed bench DATA_WIDTH=$w exited non-zero"; }
    cat "$log"
    if grep -qE 'FAIL|ERROR' "$log" || [ "$(grep -c '^PASS:' "$log")" -ne 1 ]; then
        die "Icarus directed bench DATA_WIDTH=$w failed"
    fi
done

if [ "${#synth_pids[@]}" -gt 0 ]; then
    section "2. Yosys synthesis (results)"
    i=0
    for m in pack split; do
        for w in 64 512; do
            log="$BUILD/synth_${m}_w$w.log"
            wait "${synth_pids[$i]}" || { tail -20 "$log"; die "yosys froce_axis_$m DATA_WIDTH=$w failed (or inferred a latch)"; }
            i=$((i + 1))
            if grep -q "Latch inferred" "$log"; then die "yosys: latch in froce_axis_$m DATA_WIDTH=$w"; fi
            cells=$(grep -E '^ +Number of cells:' "$log" | tail -1 | awk '{print $NF}')
            echo "yosys froce_axis_$m DATA_WIDTH=$w: no latch, $cells generic cells"
        done
    done
fi

echo
echo "axis: PASS (lint, benches at 64 and 512 bits, negative control, Icarus${synth_pids:+, Yosys})"
