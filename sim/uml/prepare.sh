#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds everything the full-stack co-simulation needs, each step cached:
#   build/bin/froce-uml-sim          (make -C sim/core uml-sim; Verilated core + firmware)
#   build/bin/froce-uml-sim-alveo    (with --board alveo: make -C sim/core uml-sim-alveo;
#                                     the Verilated Alveo U200 board core)
#   build/bin/froce-ecpix5-sim       (make -C sim/ecpix5; the ECPIX-5 board core)
#   build/fpga_common/host/froce-pingpong (make -C fpga/common/host; the board's host program)
#   build/provider/libfroce-rdmav34.so (make -C provider)
#   the UML kernel + build/uml/froce.ko (sim/uml/build-kernel.sh; 3-10 minutes the
#                                       first time, cached in $FROCE_CACHE after)
# Prints one line per step; exits non-zero naming the step that failed (its
# log in build/uml/prepare-<step>.log).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
board=core
case "${1:-}" in
"") ;;
--board) board=${2:?prepare.sh: --board core|alveo} ;;
*) echo "usage: sim/uml/prepare.sh [--board core|alveo]" >&2; exit 2 ;;
esac
[[ $board == core || $board == alveo ]] || { echo "prepare.sh: --board core|alveo" >&2; exit 2; }
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
[[ $board == alveo ]] && step froce-uml-sim-alveo make -s -C "$ROOT/sim/core" JOBS="$JOBS" uml-sim-alveo
step froce-ecpix5-sim make -s -C "$ROOT/sim/ecpix5" JOBS="$JOBS"
step board-host make -s -C "$ROOT/fpga/common/host"
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
