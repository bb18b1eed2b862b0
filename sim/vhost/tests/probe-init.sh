#!/bin/sh
# SPDX-License-Identifier: MIT
# init (PID 1) of the UML guest of tests/uml/probe.sh: mounts, insmod froce.ko
# (FROCE_KO from the kernel command line), the kernel log, power off.
# The guest's root is the host's / (hostfs): nothing is written outside
# the tmpfs mounts.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
# private /run and /tmp; the checkout stays visible even if it is under /tmp
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
. "$ROOT/sim/uml/guest-tmpfs.sh"
private_tmpfs "$ROOT" /run /tmp || echo "probe-init: tmpfs mounts failed"
echo "probe-init: insmod $FROCE_KO"
# ready_timeout_ms: the device reset at probe reboots the simulated firmware,
# which takes simulated time (about 400 000 cycles)
if insmod "$FROCE_KO" ready_timeout_ms=60000; then   # kmod: scripts/deps.sh
	echo "probe-init: insmod ok"
else
	echo "probe-init: insmod failed"
fi
echo "probe-init: dmesg"
dmesg
lspci -nn 2>/dev/null
echo "probe-init: poweroff"
echo o > /proc/sysrq-trigger
sleep 10
