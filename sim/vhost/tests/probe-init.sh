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
# insmod, or finit_module(2) from Python where kmod is not installed
load_module() {
	if command -v insmod > /dev/null 2>&1; then
		insmod "$1"
	else
		/usr/bin/python3 -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(sys.argv[1], os.O_RDONLY)
if libc.syscall(313, fd, b"", 0) != 0:  # finit_module on x86_64
    e = ctypes.get_errno()
    sys.exit("finit_module: " + os.strerror(e))
' "$1"
	fi
}
echo "probe-init: insmod $FROCE_KO"
if load_module "$FROCE_KO"; then
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
