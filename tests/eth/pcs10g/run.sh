#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every check of the 10GBASE-R PCS (rtl/eth/froce_eth_pcs_*.v): one line per check, then
# "N passed, N failed"; exits non-zero if any check failed.
#
#   tests/eth/pcs10g/run.sh         (from anywhere; builds under build/eth/pcs10g/, logs in its logs/)
#
# Environment:
#   PCS_SEED         seed of the cocotb tests (default 1)
#   FROCE_BASER_PY   optional: a copy of verilog-ethernet's tb/baser.py; the tests against the line
#                    model then run a second time against its BaseRSerdesSource/Sink (*_baserpy,
#                    skipped otherwise). Nothing is downloaded: the default model is our own
#                    tests/eth/pcs10g/baser_model.py
#   FROCE_CACHE      cache directory, as scripts/cocotb_venv.sh
#
# Checks:
#   lint              scripts/lint.sh on the PCS modules (verilator --lint-only -Wall, iverilog -g2005)
#   bad-parameters    SLIP_WAIT = 0, TIMER_CYCLES = 1 must fail elaboration in Verilator, Icarus, Yosys
#   synth             Yosys: synth -top froce_eth_pcs_10g, check -assert, no latches
#   <test>            each cocotb test (tests/eth/pcs10g/test_pcs10g.py) with BIT_REVERSE = 0, and
#   <test>[rev]       tx/rx against the models, the two block-type tests and the model loopback with
#                     BIT_REVERSE = 1; test_model_* test the line model itself (hand-computed
#                     Clause 49 blocks, a bit-serial scrambler); test_negative_* are the negative
#                     controls (a corrupted frame, the wrong bit order) and pass only if the check
#                     they run fails. Skipped tests (*_baserpy without FROCE_BASER_PY) are listed
#                     as "skip" and counted in neither number.
# What each test proves: docs/ethernet-pcs10g.md.

set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$ROOT"

TB=tests/eth/pcs10g
BUILD=build/eth/pcs10g
LOGS=$BUILD/logs
mkdir -p "$LOGS"

# the version of verilog-ethernet's tb/baser.py the optional cross-check was
# last run with (commit 23fb9d0); another version is used but reported
BASER_SHA256=d2083755a61f8871de19c24b683ff840af215d23f96d1b445765a60536a624ff

MODULES=(froce_eth_pcs_10g froce_eth_pcs_10g_tx froce_eth_pcs_10g_rx froce_eth_pcs_scrambler
         froce_eth_pcs_descrambler froce_eth_pcs_block_lock froce_eth_pcs_ber_monitor)
RTL_FILES=()
for m in "${MODULES[@]}"; do RTL_FILES+=("rtl/eth/$m.v"); done

passed=0
failed=0
skipped=0

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

# check NAME CMD...: run CMD, its output to $LOGS/NAME.log
check() {
    local name=$1
    shift
    "$@" >"$LOGS/$name.log" 2>&1
    result "$name" $? "$LOGS/$name.log"
}

# --- setup --------------------------------------------------------------------

VENV=$(bash scripts/cocotb_venv.sh) || die "cannot set up the cocotb venv (scripts/cocotb_venv.sh)"

if [[ -n ${FROCE_BASER_PY:-} ]]; then
    [[ -f $FROCE_BASER_PY ]] || die "FROCE_BASER_PY=$FROCE_BASER_PY: no such file"
    FROCE_BASER_PY=$(realpath "$FROCE_BASER_PY")
    export FROCE_BASER_PY
    if [[ $(sha256sum <"$FROCE_BASER_PY" | cut -d' ' -f1) != "$BASER_SHA256" ]]; then
        echo "note: $FROCE_BASER_PY is not the tb/baser.py of verilog-ethernet 23fb9d0 (SHA-256 differs)"
    fi
else
    unset FROCE_BASER_PY
fi

# --- static checks ------------------------------------------------------------

check lint bash scripts/lint.sh "${MODULES[@]}"

# bad_param MODULE PARAM VALUE: elaboration must fail in all three tools, on
# the module's parameter check (its *_bad_parameter instance, or the $finish
# of its initial block, which Yosys executes), not on something else
bad_param() {
    local mod=$1 p=$2 v=$3 f=rtl/eth/$1.v bad=0 out=$BUILD/bad-param.out tool
    for tool in verilator iverilog yosys; do
        case $tool in
            verilator) verilator --lint-only -Wall --top-module "$mod" "-G$p=$v" "$f" ;;
            iverilog)  iverilog -g2005 -o "$BUILD/bad.vvp" -s "$mod" -P "$mod.$p=$v" "$f" ;;
            yosys)     yosys -q -p "read_verilog $f; chparam -set $p $v $mod; hierarchy -check -top $mod" ;;
        esac >"$out" 2>&1
        if [[ $? -eq 0 ]] || ! grep -qE "${mod}_bad_parameter|System task .[$]finish. executed" "$out"; then
            echo "$tool: $mod $p=$v not refused by its parameter check:"; cat "$out"; bad=1
        else
            echo "$tool: $mod $p=$v refused"
        fi
    done
    return $bad
}
bad_params() {
    bad_param froce_eth_pcs_block_lock SLIP_WAIT 0 && bad_param froce_eth_pcs_ber_monitor TIMER_CYCLES 1
}
check bad-parameters bad_params

synth() {
    yosys -l "$BUILD/synth.log" -p "read_verilog ${RTL_FILES[*]}; synth -top froce_eth_pcs_10g; check -assert;
        select -assert-none t:\$dlatch t:\$adlatch t:\$dlatchsr t:\$_DLATCH_* t:\$_DLATCHSR_*; stat" >/dev/null &&
        ! grep -q 'Latch inferred' "$BUILD/synth.log" &&
        awk '/=== design hierarchy ===/ {h = 1} h && /Number of cells/ {print; exit}' "$BUILD/synth.log"
}
check synth synth

# --- cocotb -------------------------------------------------------------------

export PATH="$VENV/bin:$PATH" VIRTUAL_ENV="$VENV"
unset PYTHONPATH
export PCS_SEED="${PCS_SEED:-1}"

# cocotb's makefiles ask cocotb-config (a Python start) about twenty times per
# run; answer the questions they allow to be answered once
cfg=(COCOTB_MAKEFILES_DIR="$(cocotb-config --makefiles)" COCOTB_PY_DIR="$(cocotb-config --prefix)"
     PYTHON_BIN="$(cocotb-config --python-bin)" LIBPYTHON_LOC="$(cocotb-config --libpython)"
     IS_VENV=True CUSTOM_SIM_DEPS=)

# cocotb_run LABEL SUFFIX MAKEVARS...: one simulation; one check per test case
# (environment for the tests, such as PCS_QUICK, goes before the call)
cocotb_run() {
    local label=$1 suffix=$2
    shift 2
    local sb="$ROOT/$BUILD/$label" log="$LOGS/cocotb-$label.log"
    rm -f "$sb/results.xml"
    make -C "$BUILD" -f "$ROOT/$TB/Makefile" SIM_BUILD="$sb" "${cfg[@]}" "$@" >"$log" 2>&1
    local rc=$? n=0 name status
    while read -r name status; do
        n=$((n + 1))
        if [[ $status == pass ]]; then
            result "$name$suffix" 0 "$log"
        elif [[ $status == skip ]]; then
            skipped=$((skipped + 1))
            printf 'skip %s (FROCE_BASER_PY not set)\n' "$name$suffix"
        else
            # the failing test's own lines rather than the log's tail
            failed=$((failed + 1))
            printf 'FAIL %s (log: %s)\n' "$name$suffix" "$log"
            grep -A4 "$name failed" "$log" | sed 's/^/    /'
        fi
    done < <(python3 - "$sb/results.xml" <<'EOF'
import sys
import xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError):
    sys.exit(0)
for tc in root.iter("testcase"):
    bad = tc.find("failure") is not None or tc.find("error") is not None
    skip = tc.find("skipped") is not None
    print(tc.get("name"), "fail" if bad else "skip" if skip else "pass")
EOF
    )
    if [[ $n -eq 0 ]]; then
        result "cocotb-$label (no results; make status $rc)" 1 "$log"
    fi
}

cocotb_run default "" BIT_REVERSE=0
# (cocotb runs a test named in TESTCASE even if it is marked skip)
rev_tests=test_tx_vs_model,test_rx_vs_model,test_block_types,test_rx_block_types,test_model_loopback
[[ -z ${FROCE_BASER_PY:-} ]] || rev_tests+=,test_tx_vs_model_baserpy,test_rx_vs_model_baserpy
PCS_QUICK=1 cocotb_run reverse "[rev]" BIT_REVERSE=1 TESTCASE=$rev_tests

[[ $skipped -eq 0 ]] || echo "$skipped skipped"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
