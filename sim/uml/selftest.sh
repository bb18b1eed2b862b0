#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Self-test of the co-simulation harness (about 45 s on 2 cores):
#  - unit tests of cosim.py's pure parts
#  - rxe-rxe --short passes
#  - a step that exits non-zero, a missing expected string and a step that
#    hangs fail the run (exit status 1, the step named) instead of being
#    swallowed; a perftest pair whose clock calibration failed runs again
#  - with the stub simulator, froce-rxe starts the simulator, boots both guests
#    and fails guest A's setup (no froce device)
# and after every run: no process of the run and neither of its directories left.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
COSIM=sim/uml/cosim.py
fails=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

check() { # NAME EXPECTED_RC PATTERN... -- ARGS...
	local name=$1 want=$2; shift 2
	local pats=()
	while [[ $1 != -- ]]; do pats+=("$1"); shift; done
	shift
	local start=$SECONDS
	"$@" >"$log" 2>&1
	local rc=$? bad=
	[[ $rc -eq $want ]] || bad="exit $rc, wanted $want"
	for p in "${pats[@]}"; do
		grep -qF -- "$p" "$log" || bad="${bad:+$bad; }no '$p' in the output"
	done
	local dirs
	dirs=$(sed -n 's/.* run directory \(.*\), UML memory in \(.*\)$/\1 \2/p' "$log")
	for d in $dirs; do
		[[ -e $d ]] && bad="${bad:+$bad; }$d left behind"
		if grep -lsF -- "$d" /proc/[0-9]*/cmdline >/dev/null 2>&1; then
			bad="${bad:+$bad; }processes of $d left"
		fi
	done
	if [[ -n $bad ]]; then
		echo "FAIL $name ($((SECONDS - start)) s): $bad"
		tail -30 "$log" | sed 's/^/    /'
		fails=$((fails + 1))
	else
		echo "ok   $name ($((SECONDS - start)) s): $(tail -1 "$log")"
	fi
}

check unit-tests 0 OK -- python3 sim/uml/test_cosim.py
check rxe-rxe-short 0 "cosim rxe-rxe: 10 passed, 0 failed" -- \
	python3 $COSIM --topology rxe-rxe --short
check inject-exit 1 "FAILED: step 7 (A:ib_write_bw (server A, client B)) exit 3" \
	"cosim rxe-rxe: " ", 1 failed" -- \
	python3 $COSIM --topology rxe-rxe --short --inject-fail A:ib_write_bw
check inject-expect 1 "FAILED: step 2 (B:ibv_devinfo) missing: 'cosim-injected" \
	"cosim rxe-rxe: " ", 1 failed" -- \
	python3 $COSIM --topology rxe-rxe --short --inject-expect B:ibv_devinfo
check inject-hang 1 "FAILED: step 8 (B:ib_write_bw (server A, client B)) timed out after 15 s" \
	"cosim rxe-rxe: " ", 1 failed" -- \
	python3 $COSIM --topology rxe-rxe --short --inject-hang B:ib_write_bw
check calibration-retry 0 "2 retries after perftest's clock calibration failed" \
	"cosim rxe-rxe: 10 passed, 0 failed" -- \
	python3 $COSIM --topology rxe-rxe --short --inject-calib B:ib_write_bw
if [[ -f build/uml/froce.ko && -f build/provider/libfroce-rdmav34.so ]]; then
	FROCE_UML_SIM=$PWD/sim/uml/stub-uml-sim.py check froce-rxe-stub 1 \
		"froce-uml-sim ready" "guest A setup failed: no froce ib device" \
		"cosim froce-rxe: " -- \
		python3 $COSIM --topology froce-rxe --short --setup-wait 3
else
	echo "skip froce-rxe-stub: needs build/uml/froce.ko (sim/uml/build-kernel.sh) and make -C provider"
fi
echo "selftest: $fails failed"
[[ $fails -eq 0 ]]
