#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The driver's mailbox command layer (sim/core/mailbox.cpp) against the
# firmware's command handlers (firmware/src), natively: no RTL, no soft core.
#
#   tests/core/mbox.sh           (from anywhere; builds build/bin/froce-mbox-selftest)
#
# froce-mbox-selftest (ASan + UBSan) hands each command block to the
# firmware's main loop over the hardware model of firmware/tests/model_hal.c
# and checks the decoded outputs and the contexts the firmware wrote: the
# sequences the in-process Host sends (PDs, EQ, CQs with LIST rings, RC and
# UD QPs through RTS, REG_MR 1 MiB over LIST and LIST2, DEREG_MR, GIDs,
# counters) and refusals (unknown opcode, token, sizes, stale key, foreign
# PD, busy CQ, illegal transition). After every command the firmware's
# bookkeeping must match the model's tables, and a refusal must change nothing.
# Exit status: 0 only if every check passed. Log: build/sim/core/logs/mbox-selftest.log
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
LOGS="build/sim/core/logs"
mkdir -p "$LOGS"

if ! make -s -C sim/core mbox >"$LOGS/mbox-build.log" 2>&1; then
    tail -40 "$LOGS/mbox-build.log"
    echo "mbox.sh: FAIL: build (log: $LOGS/mbox-build.log)"
    exit 1
fi
if ! build/bin/froce-mbox-selftest >"$LOGS/mbox-selftest.log" 2>&1; then
    grep -E 'check failed|ERROR|runtime error|FAIL' "$LOGS/mbox-selftest.log" | head -40 || tail -40 "$LOGS/mbox-selftest.log"
    echo "mbox.sh: FAIL (log: $LOGS/mbox-selftest.log)"
    exit 1
fi
tail -1 "$LOGS/mbox-selftest.log"
