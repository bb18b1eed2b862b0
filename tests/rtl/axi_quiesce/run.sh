#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs the froce_axi_quiesce checks; exits non-zero on any failure.
#
#   tests/rtl/axi_quiesce/run.sh    (from anywhere; builds into build/tests/axi_quiesce/)
#
# Environment:
#   AXI_QUIESCE_SEEDS      seeds of the random runs (default "1 2 3 4 5 6")
#   AXI_QUIESCE_EPISODES   reset episodes per run (default 150)
#
# Steps:
#   1. verilator --lint-only -Wall of the module (DATA_WIDTH 64 and 512,
#      BURSTS 16 and 2)
#   2. Verilator C++ bench tb_axi_quiesce.cpp (random AXI4 master reset at
#      random times with drain, AxiMem slave; see the bench's header) for
#      every seed at DATA_WIDTH 64 and 512 (BURSTS 16), and DATA_WIDTH 64 with
#      BURSTS 2 / OUT_WIDTH 6 on the first three seeds; one line per run
#   3. negative controls, the bench built with -D (the RTL unchanged), each
#      must FAIL: NEG_EARLY_RELEASE (drain released before busy falls),
#      NEG_WITHDRAW_AW (the master withdraws AWVALID before AWREADY: AxiMem
#      must report it), NEG_RESET_NO_DRAIN (masters reset without the drain:
#      AxiMem must report the withdrawn VALIDs)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"

SEEDS="${AXI_QUIESCE_SEEDS:-1 2 3 4 5 6}"
EPISODES="${AXI_QUIESCE_EPISODES:-150}"
BUILD="build/tests/axi_quiesce"
TB="tests/rtl/axi_quiesce"
DUT=rtl/dma/froce_axi_quiesce.v
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
    for b in 16 2; do
        verilator --lint-only -Wall -GDATA_WIDTH="$w" -GBURSTS="$b" --top-module froce_axi_quiesce "$DUT"
        echo "lint froce_axi_quiesce DATA_WIDTH=$w BURSTS=$b: clean"
    done
done

section "2. build"
# Each DUT configuration is verilated into its own directory and compiled
# into a library; the runtime (verilated.o, verilated_threads.o) is compiled
# once; the bench is compiled once per configuration and once per negative
# control (-D, linked to the w64 model), two jobs at a time.
# name:DATA_WIDTH:BURSTS:extra -G options
CONFIGS=("w64:64:16:" "w512:512:16:" "b2:64:2:-GOUT_WIDTH=6")
NEGS=(NEG_EARLY_RELEASE NEG_WITHDRAW_AW NEG_RESET_NO_DRAIN)
VROOT="$(verilator --getenv VERILATOR_ROOT)"
MK=Vfroce_axi_quiesce.mk
verilate() {        # name DATA_WIDTH BURSTS extra [runtime too]
    local name="$1" w="$2" b="$3" extra="$4" rt="${5:-}" d="$BUILD/vl_$1"
    # shellcheck disable=SC2086  # $extra is a list of options
    verilator -Wall --cc -O3 --x-assign fast --x-initial fast -GDATA_WIDTH="$w" -GBURSTS="$b" $extra \
        --top-module froce_axi_quiesce --Mdir "$d" "$DUT" >"$d.build.log" 2>&1 &&
        make -C "$d" -f "$MK" Vfroce_axi_quiesce__ALL.a ${rt:+verilated.o verilated_threads.o} >>"$d.build.log" 2>&1
}
compile_tb() {      # out-dir model-dir DATA_WIDTH BURSTS [-Dmacro]
    local out="$1" m="$2" w="$3" b="$4" def="${5:-}" rt="$BUILD/vl_w64"
    mkdir -p "$out"
    # shellcheck disable=SC2086
    g++ -O1 -std=c++17 -Wall -Wextra -Werror -I"$m" -isystem "$VROOT/include" -isystem "$VROOT/include/vltstd" \
        -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=0 -DVM_TRACE_FST=0 -DVM_TRACE_VCD=0 -faligned-new \
        -DDATA_WIDTH="$w" -DBURSTS="$b" $def -I"$ROOT/sim/models" -o "$out/tb_axi_quiesce" \
        "$TB/tb_axi_quiesce.cpp" "$m/Vfroce_axi_quiesce__ALL.a" "$rt/verilated.o" "$rt/verilated_threads.o" \
        -pthread -latomic >"$out/build.log" 2>&1
}
IFS=: read -r name w b extra <<<"${CONFIGS[0]}"
verilate "$name" "$w" "$b" "$extra" runtime &
p1=$!
(
    for c in "${CONFIGS[@]:1}"; do
        IFS=: read -r name w b extra <<<"$c"
        verilate "$name" "$w" "$b" "$extra" || { tail -n 30 "$BUILD/vl_$name.build.log"; exit 1; }
    done
) &
p2=$!
wait "$p1" || { tail -n 30 "$BUILD/vl_w64.build.log"; die "verilator build w64 failed"; }
wait "$p2" || die "verilator build failed"
# the benches: name out model DATA_WIDTH BURSTS macro
TBS=()
for c in "${CONFIGS[@]}"; do
    IFS=: read -r name w b extra <<<"$c"
    TBS+=("$name $BUILD/vl_$name $BUILD/vl_$name $w $b")
done
for neg in "${NEGS[@]}"; do
    TBS+=("$neg $BUILD/neg_$neg $BUILD/vl_w64 64 16 -D$neg")
done
pids=()
for t in "${TBS[@]}"; do
    read -r name out m w b def <<<"$t"
    if [ "${#pids[@]}" -ge 2 ]; then
        wait "${pids[0]}" || die "a bench build failed (see $BUILD/*/build.log)"
        pids=("${pids[@]:1}")
    fi
    { compile_tb "$out" "$m" "$w" "$b" "$def" || { tail -n 30 "$out/build.log"; exit 1; }; } &
    pids+=($!)
done
for p in "${pids[@]}"; do
    wait "$p" || die "a bench build failed"
done
echo "built w64, w512, b2 and ${#NEGS[*]} negative controls ($((SECONDS - T0)) s)"

section "3. random runs ($EPISODES reset episodes each)"
# job list: name seed episodes
jobs=()
for s in $SEEDS; do
    jobs+=("w64 $s $EPISODES" "w512 $s $EPISODES")
done
n=0
for s in $SEEDS; do
    [ "$n" -lt 3 ] && jobs+=("b2 $s $EPISODES")
    n=$((n + 1))
done
status=0
run_pair() {        # two at a time, results in order
    local -a p=() l=()
    for j in "$@"; do
        read -r name s e <<<"$j"
        local log="$BUILD/run_${name}_$s.log"
        "$BUILD/vl_$name/tb_axi_quiesce" --seed "$s" --episodes "$e" >"$log" 2>&1 &
        p+=($!)
        l+=("$log")
    done
    local i=0
    for j in "$@"; do
        read -r name s e <<<"$j"
        local rc=0
        wait "${p[$i]}" || rc=$?
        local log="${l[$i]}"
        i=$((i + 1))
        local summary
        summary="$(grep -E '^seed ' "$log" | tail -n 1 || true)"
        if [ "$rc" -ne 0 ] || grep -q '^FAIL' "$log" || ! grep -qE ': ok$' <<<"$summary"; then
            grep '^FAIL' "$log" | head -n 10 || true
            echo "$name seed $s: ${summary:-no summary} (exit $rc) -> FAIL"
            status=1
        else
            echo "$name: $summary"
        fi
    done
}
for ((k = 0; k < ${#jobs[@]}; k += 2)); do
    run_pair "${jobs[@]:k:2}"
done

section "4. negative controls (each must FAIL)"
neg_seed="${SEEDS%% *}"
for neg in "${NEGS[@]}"; do
    log="$BUILD/neg_$neg/run.log"
    rc=0
    "$BUILD/neg_$neg/tb_axi_quiesce" --seed "$neg_seed" --episodes 60 >"$log" 2>&1 || rc=$?
    nfail=$(grep -c '^FAIL' "$log" || true)
    first="$(grep -m 1 '^FAIL' "$log" | cut -c 1-160 || true)"
    want='^FAIL'
    case "$neg" in
        NEG_WITHDRAW_AW) want='AxiMem: .*AW .*withdrawn or changed before AWREADY' ;;
        NEG_RESET_NO_DRAIN) want='AxiMem: .*withdrawn or changed before' ;;
    esac
    if [ "$rc" -eq 0 ] || grep -qE ': ok$' "$log" || ! grep -qE "$want" "$log"; then
        tail -n 5 "$log"
        echo "negative control $neg: NOT detected (exit $rc) -> FAIL"
        status=1
    else
        echo "negative control $neg: failed as it must (exit $rc, $nfail FAIL lines; first: ${first#FAIL: })"
        if [ "$want" != '^FAIL' ]; then
            echo "    and: $(grep -m 1 -E "$want" "$log" | cut -c 1-160)"
        fi
    fi
done

echo
[ "$status" -eq 0 ] || die "froce_axi_quiesce bench or negative control failed ($((SECONDS - T0)) s)"
echo "run.sh: PASS: froce_axi_quiesce lint, random reset episodes (64, 512, BURSTS=2), negative controls ($((SECONDS - T0)) s)"
