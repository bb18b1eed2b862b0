#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs froce-uml-transport-test: the User-Mode Linux front end
# played over a socketpair against froce-uml-sim's transport and the real
# Verilated core + firmware (no UML; about a second). Prints "ok transport" or
# "FAIL transport: <why>", exits non-zero on failure. Log:
# $BUILD/uml/transport.log. Environment: BUILD (default build/), JOBS (2).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
JOBS=${JOBS:-2}
mkdir -p "$BUILD/uml"
LOG=$BUILD/uml/transport.log
if ! make -s -C "$ROOT/sim/core" BUILD="$BUILD" JOBS="$JOBS" uml-transport-test > "$BUILD/uml/transport-build.log" 2>&1; then
	echo "FAIL transport: build (see $BUILD/uml/transport-build.log)"
	exit 1
fi
if timeout 300 "$BUILD/bin/froce-uml-transport-test" > "$LOG" 2>&1; then
	grep -E '^(ok|FAIL) ' "$LOG" | grep -v '^ok transport$'
	echo "ok transport"
	exit 0
fi
grep -E '^FAIL ' "$LOG" | grep -v '^FAIL transport$'
echo "FAIL transport: see $LOG"
exit 1
