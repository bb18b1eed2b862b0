#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Error-path scenarios of the transport engine on the two-NIC co-simulation:
#
#   tests/core/scenarios.sh      (from anywhere; builds into build/sim/core, build/bin)
#
# 1. build (sim/core/Makefile, as tests/core/run.sh does)
# 2. froce-scenario all: access violations (bad rkey, wrong PD, MR and QP
#    without REMOTE_WRITE, out of bounds, stale key), retry exceeded, RNR
#    with infinite and finite retries, doorbells on a foreign UAR page, CQ and
#    EQ events, the netdev rings, a device reset mid-traffic, QP contexts
#    committed while a long WRITE streams; one
#    "result: ok|FAIL <scenario>" line each (sim/core/README.md lists what
#    each asserts)
# 3. negative control, run beside 2: froce-scenario all --inject-error runs
#    every scenario without its error; every one of them must FAIL, or the
#    checks are blind
#
# Environment: SCEN_SEED (default 1). Logs in build/sim/core/logs/.
# Exit status: 0 only if every scenario passed and every negative control failed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

SEED="${SCEN_SEED:-1}"
LOGS="build/sim/core/logs"
mkdir -p "$LOGS"

echo "== build (sim/core/Makefile, RTL from rtl/core/froce_core.f)"
if ! make -s -C sim/core JOBS=2 >"$LOGS/scenario-build.log" 2>&1; then
    tail -40 "$LOGS/scenario-build.log"
    echo "scenarios.sh: FAIL: build (log: $LOGS/scenario-build.log)"
    exit 1
fi

status=0
# the negative control runs beside the scenarios (each is one simulation
# thread; make test has two cores)
rc=0
build/bin/froce-scenario all --seed "$SEED" --inject-error >"$LOGS/scenarios-inject.log" 2>&1 &
inject_pid=$!
echo
echo "== froce-scenario all --seed $SEED"
if ! build/bin/froce-scenario all --seed "$SEED" | tee "$LOGS/scenarios.log"; then
    status=1
fi

echo
echo "== negative control: froce-scenario all --inject-error (every scenario must FAIL)"
wait "$inject_pid" || rc=$?
blind="$(grep '^result: ok' "$LOGS/scenarios-inject.log" || true)"
if [[ $rc -eq 0 || -n "$blind" ]]; then
    echo "FAIL: scenarios passed without their error (log $LOGS/scenarios-inject.log):"
    echo "${blind:-  (exit status 0)}"
    status=1
else
    echo "ok: $(grep -c '^result: FAIL' "$LOGS/scenarios-inject.log") scenarios failed as they must"
fi

echo
if [[ $status -ne 0 ]]; then
    echo "scenarios.sh: FAIL"
else
    echo "scenarios.sh: ok"
fi
exit $status
