#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Round trip of the 10G Ethernet blocks: froce_eth_mac_10g TX -> froce_eth_pcs_10g -> 66-bit lane
# with bit slip and line errors -> froce_eth_pcs_10g -> froce_eth_mac_10g RX -> froce_eth_rx_fifo.
# One line per check, then "N passed, N failed"; exits non-zero if any check failed.
#
#   tests/eth/mac_pcs_loop/run.sh   (from anywhere; builds under build/eth/mac_pcs_loop/, logs in its logs/)
#
# Environment:
#   LOOP_SEED    seed of the cocotb tests (default 1)
#   FROCE_CACHE  cache directory, as scripts/cocotb_venv.sh
#
# Checks (one simulator at a time):
#   lint                  iverilog -g2005 -Wall on the bench top with everything under it
#   <test>                each cocotb test of tests/eth/mac_pcs_loop/test_mac_pcs_loop.py
#                         (BIT_REVERSE = 0)
#                         test_negative_controls: the scoreboard must reject wrong expectations
#                         on real round-trip traffic, and the down checker must fire when forced
#   test_traffic[rev]     the traffic test again with BIT_REVERSE = 1 on both PCS and the lane, fewer frames
# What each test proves: docs/ethernet-pcs10g.md, "MAC-PCS round trip".

set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"

TB=tests/eth/mac_pcs_loop
BUILD=build/eth/mac_pcs_loop
LOGS=$BUILD/logs
mkdir -p "$LOGS"

passed=0
failed=0

die() {
    echo "run.sh: $*" >&2
    echo "$passed passed, $((failed + 1)) failed"
    exit 1
}

# result NAME STATUS LOG: one line; the log's tail under a failure
result() {
    if [[ $2 -eq 0 ]]; then
        passed=$((passed + 1))
        printf 'ok   %s\n' "$1"
    else
        failed=$((failed + 1))
        printf 'FAIL %s (log: %s)\n' "$1" "$3"
        tail -n 25 "$3" | sed 's/^/    /'
    fi
}

VENV=$(bash scripts/cocotb_venv.sh) || die "cannot set up the cocotb venv (scripts/cocotb_venv.sh)"
export PATH="$VENV/bin:$PATH" VIRTUAL_ENV="$VENV"
unset PYTHONPATH
export LOOP_SEED="${LOOP_SEED:-1}"

# --- lint ---------------------------------------------------------------------

SOURCES=(rtl/eth/froce_eth_mac_10g.v rtl/eth/froce_eth_mac_10g_tx.v rtl/eth/froce_eth_mac_10g_rx.v
         rtl/eth/froce_eth_rx_fifo.v rtl/crc/froce_crc32_step.v rtl/common/froce_fifo.v
         rtl/common/froce_frame_fifo.v rtl/eth/froce_eth_pcs_10g.v rtl/eth/froce_eth_pcs_10g_tx.v
         rtl/eth/froce_eth_pcs_10g_rx.v rtl/eth/froce_eth_pcs_scrambler.v rtl/eth/froce_eth_pcs_descrambler.v
         rtl/eth/froce_eth_pcs_block_lock.v rtl/eth/froce_eth_pcs_ber_monitor.v
         tests/eth/pcs10g/tb_pcs10g_lane.v $TB/tb_mac_pcs_loop.v)
lint() {
    iverilog -g2005 -Wall -I rtl/crc -s tb_mac_pcs_loop -o "$BUILD/lint.vvp" "${SOURCES[@]}" 2>&1 |
        tee "$BUILD/lint.out"
    [[ ${PIPESTATUS[0]} -eq 0 && ! -s $BUILD/lint.out ]]
}
lint >"$LOGS/lint.log" 2>&1
result lint $? "$LOGS/lint.log"

# --- cocotb -------------------------------------------------------------------

# cocotb's makefiles ask cocotb-config (a Python start) about twenty times per
# run; answer the questions they allow to be answered once
cfg=(COCOTB_MAKEFILES_DIR="$(cocotb-config --makefiles)" COCOTB_PY_DIR="$(cocotb-config --prefix)"
     PYTHON_BIN="$(cocotb-config --python-bin)" LIBPYTHON_LOC="$(cocotb-config --libpython)"
     IS_VENV=True CUSTOM_SIM_DEPS=)

# cocotb_run LABEL MAKEVARS...: one simulation in $BUILD/LABEL; prints
# "name pass|fail" per test (nothing if there are no results)
cocotb_run() {
    local label=$1
    shift
    local sb="$ROOT/$BUILD/$label"
    rm -f "$sb/results.xml"
    make -C "$BUILD" -f "$ROOT/$TB/Makefile" SIM_BUILD="$sb" "${cfg[@]}" "$@" >"$LOGS/cocotb-$label.log" 2>&1
    python3 - "$sb/results.xml" <<'EOF'
import sys
import xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError):
    sys.exit(0)
for tc in root.iter("testcase"):
    bad = tc.find("failure") is not None or tc.find("error") is not None
    print(tc.get("name"), "fail" if bad else "pass")
EOF
}

# cocotb_pass LABEL SUFFIX MAKEVARS...: every test must pass
cocotb_pass() {
    local label=$1 suffix=$2 log="$LOGS/cocotb-$1.log" out name status n=0
    shift 2
    out=$(cocotb_run "$label" "$@")
    while read -r name status; do
        [[ -n $name ]] || continue
        n=$((n + 1))
        if [[ $status == pass ]]; then
            result "$name$suffix" 0 "$log"
        else
            failed=$((failed + 1))
            printf 'FAIL %s (log: %s)\n' "$name$suffix" "$log"
            grep -A12 "$name failed" "$log" | grep -E "Error|assert|File .*test_mac_pcs_loop" | head -n 6 |
                sed 's/^/    /'
        fi
    done <<<"$out"
    [[ $n -gt 0 ]] || result "cocotb-$label (no results)" 1 "$log"
}

cocotb_pass default "" BIT_REVERSE=0
LOOP_QUICK=1 cocotb_pass reverse "[rev]" BIT_REVERSE=1 TESTCASE=test_traffic

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
