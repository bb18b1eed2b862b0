#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boots User-Mode Linux with froce.ko (build/uml/, sim/uml/build-kernel.sh) against froce-uml-sim (one NIC)
# and checks that the driver's probe succeeds: the dev_info line
# "firmware x.y.z build ..., N QPs, ..., N vectors" must be in the guest's log
# and the simulator must have sent at least one MSI (EQ 0 takes MSI-X for the
# command completions). Prints "ok probe" or "FAIL probe: <why>", exits non-zero
# on failure. Logs: $BUILD/uml/probe/{sim,uml}.log.
#
# Builds what it needs: froce-uml-sim (make -C sim/core uml-sim) and the UML
# kernel + froce.ko for ARCH=um (sim/uml/build-kernel.sh; cached).
# Environment: BUILD (default build/), JOBS (default 2), PROBE_TIMEOUT (s, 180).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
JOBS=${JOBS:-2}
TIMEOUT=${PROBE_TIMEOUT:-180}
LOGS=$BUILD/uml/probe
mkdir -p "$LOGS"

fail() {
	echo "FAIL probe: $*"
	exit 1
}

make -s -C "$ROOT/sim/core" BUILD="$BUILD" JOBS="$JOBS" uml-sim > "$LOGS/build.log" 2>&1 ||
	fail "build of froce-uml-sim (see $LOGS/build.log)"
JOBS=$JOBS "$ROOT/sim/uml/build-kernel.sh" > "$LOGS/kernel.log" 2>&1 ||
	fail "sim/uml/build-kernel.sh (see $LOGS/kernel.log)"
TREE=$("$ROOT/sim/uml/build-kernel.sh" --print) || fail "no UML kernel tree"

# UML wants its memory file on tmpfs
WORK=$(mktemp -d /dev/shm/froce-probe.XXXXXX) || fail "mktemp in /dev/shm"
SIM_PID=
cleanup() {
	[ -n "$SIM_PID" ] && kill "$SIM_PID" 2> /dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

SOCK=$WORK/nic.sock
# the NIC's Ethernet port: one end of a datagram socketpair (nobody on the other end here)
python3 -c '
import os, socket, sys
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
os.set_inheritable(a.fileno(), True)
os.execv(sys.argv[1], sys.argv[1:] + ["--wire-fd", str(a.fileno())])
' "$BUILD/bin/froce-uml-sim" --sock "$SOCK" --ready-file "$WORK/ready" > "$LOGS/sim.log" 2>&1 &
SIM_PID=$!
for _ in $(seq 1 300); do
	[ -f "$WORK/ready" ] && break
	kill -0 "$SIM_PID" 2> /dev/null || fail "froce-uml-sim exited before it was ready (see $LOGS/sim.log)"
	sleep 0.1
done
[ -f "$WORK/ready" ] || fail "froce-uml-sim not ready after 30 s"

start=$(date +%s.%N)
TMPDIR=$WORK timeout "$TIMEOUT" "$TREE/linux" umid=froce-probe-$$ uml_dir="$WORK" mem=512M \
	rootfstype=hostfs rootflags=/ rw init="$ROOT/sim/vhost/tests/probe-init.sh" \
	con0=null,fd:1 con=null ssl=null virtio_uml.device="$SOCK:1234" \
	FROCE_KO="$ROOT/build/uml/froce.ko" > "$LOGS/uml.log" 2>&1 < /dev/null
uml_rc=$?
end=$(date +%s.%N)

# the simulator exits by itself when the guest is gone
for _ in $(seq 1 100); do
	kill -0 "$SIM_PID" 2> /dev/null || break
	sleep 0.1
done
if kill -0 "$SIM_PID" 2> /dev/null; then
	kill "$SIM_PID"
	wait "$SIM_PID"
	SIM_PID=
	fail "froce-uml-sim still running after the guest powered off (see $LOGS/sim.log)"
fi
wait "$SIM_PID"
sim_rc=$?
SIM_PID=

[ "$uml_rc" -eq 124 ] && fail "UML did not power off within $TIMEOUT s (see $LOGS/uml.log)"
line=$(grep -E 'froce .*firmware [0-9]+\.[0-9]+\.[0-9]+ build .*QPs.* vectors' "$LOGS/uml.log" | head -1)
[ -n "$line" ] || fail "no probe line in $LOGS/uml.log: $(grep -E 'froce' "$LOGS/uml.log" | tail -3)"
[ "$sim_rc" -eq 0 ] || fail "froce-uml-sim exited $sim_rc (see $LOGS/sim.log)"
stats=$(grep 'stats:' "$LOGS/sim.log")
echo "$stats" | grep -qE 'msis [1-9]' || fail "no MSI sent: $stats"
echo "probe line: $line"
echo "$stats"
printf 'boot to poweroff: %.1f s\n' "$(echo "$end - $start" | bc)"
echo "ok probe"
