#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs froce-uml-transport-test: the User-Mode Linux front end
# played over a socketpair against froce-uml-sim's transport and the real
# Verilated core + firmware (no UML; about a second). Prints "ok transport" or
# "FAIL transport: <why>", exits non-zero on failure. Log:
# $BUILD/uml/transport.log. Environment: BUILD (default build/), JOBS (2).
# tests/uml/transport.sh alveo: the same against the Alveo U200 board core
# (froce-uml-transport-test-alveo, about 4 s; "ok transport-alveo", log
# transport-alveo.log).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
JOBS=${JOBS:-2}
case "${1:-}" in
"") name=transport; target=uml-transport-test ;;
alveo) name=transport-alveo; target=uml-transport-test-alveo ;;
*) echo "usage: tests/uml/transport.sh [alveo]" >&2; exit 2 ;;
esac
mkdir -p "$BUILD/uml"
LOG=$BUILD/uml/$name.log
if ! make -s -C "$ROOT/sim/core" BUILD="$BUILD" JOBS="$JOBS" $target > "$BUILD/uml/$name-build.log" 2>&1; then
	echo "FAIL $name: build (see $BUILD/uml/$name-build.log)"
	exit 1
fi
if timeout 300 "$BUILD/bin/froce-$target" > "$LOG" 2>&1; then
	grep -E '^(ok|FAIL) ' "$LOG" | grep -v '^ok transport$'
	echo "ok $name"
	exit 0
fi
grep -E '^FAIL ' "$LOG" | grep -v '^FAIL transport$'
echo "FAIL $name: see $LOG"
exit 1
