#!/bin/sh
# SPDX-License-Identifier: MIT
# PID 1 of a co-simulation guest (User-Mode Linux, root = the host's / over
# hostfs). Started by sim/uml/cosim.py; KEY=VALUE words of the kernel command
# line arrive as environment variables:
#   COSIM_RUN    run directory (on the host); this guest only writes in
#                $COSIM_RUN/$COSIM_GUEST and $COSIM_RUN/sync
#   COSIM_GUEST  guest name (A, B)
#   COSIM_ROLE   rxe: rxe0 on vec0; froce: insmod $COSIM_KO
#   COSIM_PROVIDER  if set: /etc/libibverbs.d/froce.driver says "driver $COSIM_PROVIDER"
#   COSIM_IP, COSIM_PEER   IPv4 of this guest and of its peer (/24)
#   COSIM_MHZ    host "cpu MHz" (perftest needs it in /proc/cpuinfo)
#   COSIM_MTU    MTU of vec0 (rxe role)
#   COSIM_WAIT   seconds to wait for the device, its GID and port (setup)
# Setup writes $G/booted, then $G/setup (DEV, NETDEV, GIDX) or $G/setup.fail.
# Then it runs $G/steps: one step per line, tab separated:
#   number  kind(run|server|client)  timeout(s)  sync-name(- if none)  command
# and for step N writes $G/N.start, $G/N.out (stdout+stderr) and $G/N.rc
# ("rc start end", epoch seconds). A server step starts its command in the
# background and publishes $COSIM_RUN/sync/NAME.K.ready for attempt K
# ("ready" once TCP port $COSIM_PORT listens, "fail" if the server died
# first); the client step waits for it. The first failing step ends the run.
# Power off with sysrq.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C
G="$COSIM_RUN/$COSIM_GUEST"
SYNC="$COSIM_RUN/sync"
PORT=${COSIM_PORT:-18515}
WAIT=${COSIM_WAIT:-60}
TOOLS=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$TOOLS/../.." && pwd)
TAB=$(printf '\t')

say() { echo "cosim-init[$COSIM_GUEST $(cut -d' ' -f1 /proc/uptime)]: $*"; }

poweroff() {
	sync
	echo o >/proc/sysrq-trigger
	sleep 10
}

fail_setup() {
	say "setup failed: $*"
	echo "$*" >"$G/setup.fail.tmp" && mv "$G/setup.fail.tmp" "$G/setup.fail"
	poweroff
	exit 1
}

now() { date +%s.%N; }

mount -t proc proc /proc
mount -t sysfs sysfs /sys
grep -q ' /dev ' /proc/mounts || mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm   # in the guest's devtmpfs
mount -t devpts devpts /dev/pts 2>/dev/null
# every directory a program may write to is a tmpfs: writes on hostfs land on
# the host; the checkout and the run directory stay visible wherever they are
. "$TOOLS/guest-tmpfs.sh"
private_tmpfs "$ROOT $COSIM_RUN" /run /dev/shm /var/tmp /tmp ||
	fail_setup "tmpfs over /run /dev/shm /var/tmp /tmp"
mount -t configfs configfs /sys/kernel/config 2>/dev/null

[ -d "$G" ] || { say "no guest directory $G"; poweroff; exit 1; }
say "init started ($(uname -r), role $COSIM_ROLE)"
echo "$(cut -d' ' -f1 /proc/uptime)" >"$G/booted"

# perftest converts cycles to time with the "cpu MHz" of /proc/cpuinfo (UML has none)
cat /proc/cpuinfo >/run/cpuinfo
if ! grep -q '^cpu MHz' /run/cpuinfo; then
	[ -n "$COSIM_MHZ" ] || fail_setup "COSIM_MHZ not set"
	printf 'cpu MHz\t\t: %s\n' "$COSIM_MHZ" >>/run/cpuinfo
	mount --bind /run/cpuinfo /proc/cpuinfo || fail_setup "bind mount of /proc/cpuinfo"
fi

# libibverbs' provider list: the host's files plus ours, in a tmpfs
mkdir -p /run/ibvd
cp /etc/libibverbs.d/* /run/ibvd/ 2>/dev/null
mount -t tmpfs tmpfs /etc/libibverbs.d || fail_setup "tmpfs on /etc/libibverbs.d"
cp /run/ibvd/* /etc/libibverbs.d/ 2>/dev/null
# (libibverbs 44 dlopens an absolute driver path with "-rdmav34.so" appended)
if [ -n "$COSIM_PROVIDER" ]; then
	echo "driver $COSIM_PROVIDER" >/etc/libibverbs.d/froce.driver
fi

echo "cosim-$(echo "$COSIM_GUEST" | tr 'A-Z' 'a-z')" >/proc/sys/kernel/hostname
ip link set lo up || fail_setup "loopback"

# wait_for SECONDS COMMAND...: poll every 0.2 s until COMMAND succeeds
wait_for() {
	_n=$(($1 * 5)); shift
	while [ $_n -gt 0 ]; do
		"$@" && return 0
		_n=$((_n - 1))
		sleep 0.2
	done
	return 1
}

case "$COSIM_ROLE" in
rxe)
	NETDEV=vec0
	[ -e /sys/class/net/vec0 ] || fail_setup "no vec0 netdev"
	ip link set dev vec0 mtu "${COSIM_MTU:-1500}" || fail_setup "mtu ${COSIM_MTU} on vec0"
	ip addr add "$COSIM_IP/24" dev vec0 || fail_setup "address on vec0"
	ip link set dev vec0 up || fail_setup "vec0 up"
	rdma link add rxe0 type rxe netdev vec0 || fail_setup "rdma link add rxe0"
	DEV=rxe0
	;;
froce)
	insmod "$COSIM_KO" cmd_timeout_ms=60000 ready_timeout_ms=60000 || fail_setup "insmod $COSIM_KO"
	first_ibdev() { ls /sys/class/infiniband 2>/dev/null | grep '^froce' | head -1; }
	has_ibdev() { [ -n "$(first_ibdev)" ]; }
	wait_for "$WAIT" has_ibdev || fail_setup "no froce ib device after ${WAIT} s"
	DEV=$(first_ibdev)
	NETDEV=$(ls "/sys/class/infiniband/$DEV/device/net" 2>/dev/null | head -1)
	if [ -z "$NETDEV" ]; then
		NETDEV=$(rdma link show "$DEV/1" 2>/dev/null | sed -n 's/.* netdev \([^ ]*\).*/\1/p')
	fi
	[ -n "$NETDEV" ] || fail_setup "no netdev for $DEV"
	ip addr add "$COSIM_IP/24" dev "$NETDEV" || fail_setup "address on $NETDEV"
	ip link set dev "$NETDEV" up || fail_setup "$NETDEV up"
	;;
*)
	fail_setup "unknown role '$COSIM_ROLE'"
	;;
esac

# the IPv4-mapped GID of our address, as sysfs prints it; its RoCE v2 entry
# (a device with RoCE v1 lists the same GID twice, v1 and v2)
GID4=$(echo "$COSIM_IP" | awk -F. '{printf "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x", $1, $2, $3, $4}')
# index of the GID with value $1 and type $2 ("RoCE v2", "IB/RoCE v1"), or nothing
gid_index() {
	for f in /sys/class/infiniband/$DEV/ports/1/gids/*; do
		if [ "$(cat "$f" 2>/dev/null)" = "$1" ] &&
			[ "$(cat "${f%/gids/*}/gid_attrs/types/${f##*/}" 2>/dev/null)" = "$2" ]; then
			echo "${f##*/}"
			return 0
		fi
	done
	return 1
}
find_gid() { GIDX=$(gid_index "$GID4" "RoCE v2"); }
port_active() { grep -q ACTIVE "/sys/class/infiniband/$DEV/ports/1/state"; }
ll_ready() {
	ip -6 addr show dev "$NETDEV" scope link | grep -q inet6 &&
		! ip -6 addr show dev "$NETDEV" | grep -q tentative
}
wait_for "$WAIT" port_active || fail_setup "$DEV port 1 not ACTIVE after ${WAIT} s"
wait_for "$WAIT" find_gid || fail_setup "no GID $GID4 on $DEV after ${WAIT} s"
wait_for "$WAIT" ll_ready || fail_setup "no IPv6 link-local address on $NETDEV after ${WAIT} s"

# the same address as a RoCE v1 GID and the link-local RoCE v2 GID (IPv6),
# where the device has them (empty otherwise)
GIDX_V1=$(gid_index "$GID4" "IB/RoCE v1")
LL=$(ip -6 addr show dev "$NETDEV" scope link | sed -n 's/.*inet6 \([^/]*\).*/\1/p' | head -1)
GID6=$(python3 -c 'import ipaddress, sys; print(":".join("%04x" % int.from_bytes(ipaddress.IPv6Address(sys.argv[1]).packed[i:i + 2], "big") for i in range(0, 16, 2)))' "$LL" 2>/dev/null)
GIDX_V6=$(gid_index "$GID6" "RoCE v2")
export DEV NETDEV GIDX GIDX_V1 GIDX_V6 TOOLS
export IP="$COSIM_IP" PEER="$COSIM_PEER"
say "setup done: DEV=$DEV NETDEV=$NETDEV GIDX=$GIDX GIDX_V1=$GIDX_V1 GIDX_V6=$GIDX_V6"
printf 'DEV=%s\nNETDEV=%s\nGIDX=%s\nUPTIME=%s\n' "$DEV" "$NETDEV" "$GIDX" \
	"$(cut -d' ' -f1 /proc/uptime)" >"$G/setup.tmp"
mv "$G/setup.tmp" "$G/setup"

# put CONTENT into the marker FILE atomically (rename on the host)
publish() {
	echo "$2" >"$1.tmp" && mv "$1.tmp" "$1"
}

listening() { ss -Hltn "sport = :$PORT" | grep -q LISTEN; }

# seconds left until the step's deadline $_end (at least 1)
left() {
	_l=$((_end - $(date +%s)))
	[ $_l -ge 1 ] || _l=1
	echo $_l
}

# wait_file FILE: wait (until the deadline) for FILE; print its content
wait_file() {
	while [ ! -e "$1" ] && [ "$(date +%s)" -lt $_end ]; do
		sleep 0.1
	done
	cat "$1" 2>/dev/null
}

# serve SYNC CMD OUT: one server attempt; sets RC
serve() {
	timeout -k 5 "$(left)" sh -c "$2" >>"$3" 2>&1 </dev/null &
	_pid=$!
	while :; do
		if listening; then
			publish "$SYNC/$1.ready" ready
			break
		fi
		if ! kill -0 $_pid 2>/dev/null || [ "$(date +%s)" -ge $_end ]; then
			publish "$SYNC/$1.ready" fail
			echo "cosim: the server did not listen on TCP port $PORT" >>"$3"
			break
		fi
		sleep 0.1
	done
	wait $_pid
	RC=$?
}

# connect SYNC CMD OUT: one client attempt; sets RC
connect() {
	if [ "$(wait_file "$SYNC/$1.ready")" != ready ]; then
		echo "cosim: the server of '$1' is not ready" >>"$3"
		RC=125
	else
		timeout -k 5 "$(left)" sh -c "$2" >>"$3" 2>&1 </dev/null
		RC=$?
	fi
}

# perftest calibrates rdtsc against gettimeofday() at start and reports 0
# when the fit is poor ("Correlation coefficient r^2 < 0.9"), which happens
# under UML when the host is busy: a pair where that happened on either side,
# and nothing else failed, runs again (at most 3 attempts, within the step's
# timeout). Both sides publish "RC CALIB" per attempt and decide alike.
CALIB='Correlation coefficient r^2'

# run_step NUMBER KIND TIMEOUT SYNC COMMAND; sets RC
run_step() {
	_out="$G/$1.out"
	: >"$_out"
	_end=$(($(date +%s) + $3))
	case "$2" in
	run)
		timeout -k 5 "$3" sh -c "$5" >"$_out" 2>&1 </dev/null
		RC=$?
		;;
	server | client)
		_k=1
		while :; do
			_att="$G/$1.attempt"
			: >"$_att"
			if [ "$2" = server ]; then
				serve "$4.$_k" "$5" "$_att"
				_me=server _peer=client
			else
				connect "$4.$_k" "$5" "$_att"
				_me=client _peer=server
			fi
			cat "$_att" >>"$_out"
			_cal=0
			grep -qF "$CALIB" "$_att" && _cal=1
			rm -f "$_att"
			publish "$SYNC/$4.$_k.$_me" "$RC $_cal"
			_other=$(wait_file "$SYNC/$4.$_k.$_peer")
			_orc=${_other% *}
			_ocal=${_other#* }
			if [ $_k -lt 3 ] && [ $RC -eq 0 ] && [ "$_orc" = 0 ] &&
				{ [ $_cal = 1 ] || [ "$_ocal" = 1 ]; }; then
				echo "cosim: retry: attempt $_k hit perftest's clock calibration failure; the pair runs again" >>"$_out"
				_k=$((_k + 1))
				continue
			fi
			break
		done
		;;
	*)
		echo "cosim: unknown step kind '$2'" >"$_out"
		RC=126
		;;
	esac
	[ $RC -eq 124 ] && echo "cosim: timed out after $3 s" >>"$_out"
}

failed=
while IFS="$TAB" read -r num kind tmo syncname cmd; do
	[ -n "$num" ] || continue
	t0=$(now)
	echo "$t0" >"$G/$num.start"
	say "step $num: $cmd"
	run_step "$num" "$kind" "$tmo" "$syncname" "$cmd"
	echo "$RC $t0 $(now)" >"$G/$num.rc.tmp"
	mv "$G/$num.rc.tmp" "$G/$num.rc"
	if [ $RC -ne 0 ]; then
		say "step $num failed (exit $RC)"
		failed=$num
		break
	fi
done <"$G/steps"

publish "$G/done" "${failed:-ok}"
say "done"
poweroff
exit 0
