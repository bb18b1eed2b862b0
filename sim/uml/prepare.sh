#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds everything the full-stack co-simulation needs, each step cached:
#   build/bin/froce-uml-sim          (make -C sim/core uml-sim; Verilated core + firmware)
#   build/provider/libfroce-rdmav34.so (make -C provider)
#   the UML kernel + build/uml/froce.ko (sim/uml/build-kernel.sh; 3-10 minutes the
#                                       first time, cached in $FROCE_CACHE after)
# Prints one line per step; exits non-zero naming the step that failed (its
# log in build/uml/prepare-<step>.log).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
JOBS=${JOBS:-2}
LOGS=$ROOT/build/uml
mkdir -p "$LOGS"

step() { # NAME COMMAND...
	local name=$1 start=$SECONDS
	shift
	echo "prepare: $name ..."
	if ! "$@" > "$LOGS/prepare-$name.log" 2>&1; then
		echo "prepare: $name FAILED after $((SECONDS - start)) s; last lines of $LOGS/prepare-$name.log:" >&2
		tail -20 "$LOGS/prepare-$name.log" >&2
		exit 1
	fi
	echo "prepare: $name ok ($((SECONDS - start)) s)"
}

step froce-uml-sim make -s -C "$ROOT/sim/core" JOBS="$JOBS" uml-sim
step provider make -s -C "$ROOT/provider"
# the kernel build prints its own progress; keep it visible
echo "prepare: UML kernel + froce.ko ..."
start=$SECONDS
if ! JOBS=$JOBS "$ROOT/sim/uml/build-kernel.sh" 2>&1 | tee "$LOGS/prepare-kernel.log" | grep '^build-kernel:'; then
	echo "prepare: kernel FAILED; see $LOGS/prepare-kernel.log" >&2
	exit 1
fi
[[ ${PIPESTATUS[0]} -eq 0 ]] || { echo "prepare: kernel FAILED; see $LOGS/prepare-kernel.log" >&2; exit 1; }
echo "prepare: UML kernel + froce.ko ok ($((SECONDS - start)) s)"
