#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the two-NIC co-simulation (sim/core) and runs its checks:
#
#   tests/core/run.sh            (from anywhere; builds into build/sim/core, build/bin)
#
# 1. froce-sim-selftest: the harness itself (control-bus master against the
#    real MR/MTT RTL, page allocator and VA map, WQE/CQE images against
#    froce_hw.h, wire + pcap read back with tshark, lockstep)
# 2. acceptance tests of the transport engine (froce_core), clean wire:
#      selftest --core      firmware writes and MR/MTT read-back on froce_core
#      froce-perf write     sizes 0 1 4095 4096 4097 65536
#      froce-perf send      sizes 0 1 4095 4096 4097 65536
#      froce-perf read      sizes 0 1 4095 4096 4097 65536, and 1 MiB
#      froce-perf atomic    fetch-and-add and compare-and-swap (failing compares too)
#    Two at a time; each prints one line "PASS <case>" or "FAIL <case>:
#    <why>" (the log is in build/sim/core/logs/<case>.log).
#
# Environment: CORE_SEED (default 1), CORE_ITERS (messages per case, default 32;
# 65536-byte cases use a quarter), CORE_TIMEOUT (seconds per case, default 600).
# Exit status: 0 only if everything passed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

SEED="${CORE_SEED:-1}"
ITERS="${CORE_ITERS:-32}"
TMO="${CORE_TIMEOUT:-600}"
LOGS="build/sim/core/logs"
mkdir -p "$LOGS"

section() {
    echo
    echo "== $*"
}

section "build (sim/core/Makefile, RTL from rtl/core/froce_core.f)"
if ! make -s -C sim/core JOBS=2 >"$LOGS/build.log" 2>&1; then
    tail -40 "$LOGS/build.log"
    echo "run.sh: FAIL: build (log: $LOGS/build.log)"
    exit 1
fi
echo "built build/bin/froce-perf and build/bin/froce-sim-selftest"

section "harness self-test"
if ! build/bin/froce-sim-selftest --seed "$SEED" >"$LOGS/selftest.log" 2>&1; then
    cat "$LOGS/selftest.log"
    echo "run.sh: FAIL: harness self-test"
    exit 1
fi
tail -1 "$LOGS/selftest.log"

section "transport engine acceptance (clean wire, seed $SEED)"
passed=0
failed=0
failures=()

# Cases run two at a time (each simulation is one thread; make test has two
# cores); their verdicts are printed in order.
names=()
cmds=()
add_case() {
    names+=("$1")
    shift
    cmds+=("$(printf '%q ' "$@")")
}

run_cmd() { # NAME COMMAND: the exit status goes to NAME.rc
    local rc=0
    eval "timeout $TMO $2" >"$LOGS/$1.log" 2>&1 || rc=$?
    echo "$rc" >"$LOGS/$1.rc"
}

report() { # NAME
    local name="$1"
    local log="$LOGS/$name.log"
    local rc
    rc="$(cat "$LOGS/$name.rc")"
    local res
    res="$(grep -m1 -E '^(result: |PASS:|FAIL:)' "$log" || true)"
    if [[ $rc -eq 0 ]]; then
        echo "PASS $name  ${res#result: }"
        passed=$((passed + 1))
        return
    fi
    failed=$((failed + 1))
    failures+=("$name")
    if [[ $rc -eq 124 ]]; then
        echo "FAIL $name: killed after ${TMO}s (CORE_TIMEOUT); log $log"
    elif [[ -n "$res" ]]; then
        echo "FAIL $name: ${res#result: }"
        # the lines after the verdict say which QP/WQE was waiting
        sed -n '/^result: FAIL/,$p' "$log" | sed -n '2,8p' | sed 's/^/      /'
        grep -m3 '^  check failed' "$log" | sed 's/^/      /' || true
    else
        echo "FAIL $name: exit status $rc, no result line; last lines of $log:"
        tail -5 "$log" | sed 's/^/      /'
    fi
}

add_case selftest-core build/bin/froce-sim-selftest --core --seed "$SEED"
for op in write send read; do
    for size in 0 1 4095 4096 4097 65536; do
        iters="$ITERS"
        [[ $size -ge 65536 ]] && iters=$(( (ITERS + 3) / 4 ))
        add_case "$op-$size" build/bin/froce-perf "$op" --size "$size" --iters "$iters" --seed "$SEED" \
            --idle-cycles 200000
    done
done
add_case read-1MiB build/bin/froce-perf read --size 1048576 --iters 3 --seed "$SEED"
add_case atomic-mix build/bin/froce-perf atomic --iters "$((ITERS * 4))" --qps 2 --seed "$SEED"

for ((i = 0; i < ${#names[@]}; i += 2)); do
    run_cmd "${names[i]}" "${cmds[i]}" &
    if ((i + 1 < ${#names[@]})); then
        run_cmd "${names[i + 1]}" "${cmds[i + 1]}" &
    fi
    wait
    report "${names[i]}"
    ((i + 1 < ${#names[@]})) && report "${names[i + 1]}"
done

echo
echo "$passed passed, $failed failed"
if [[ $failed -gt 0 ]]; then
    echo "failed: ${failures[*]}"
    exit 1
fi
