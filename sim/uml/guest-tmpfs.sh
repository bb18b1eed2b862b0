# SPDX-License-Identifier: MIT
# Sourced by the guests' init scripts (sim/uml/guest-init.sh,
# sim/vhost/tests/probe-init.sh). The guest's root is the host's / over
# hostfs, so anything written there lands on the host: every directory a
# program may write to gets a guest-private tmpfs instead.
#
# private_tmpfs "KEEP..." DIR...: a tmpfs over each DIR; each KEEP path that
# lies inside one of them (the checkout, the run directory: a clone under
# /tmp is common) stays visible at the same path, bind-mounted back from a
# handle taken before it was covered. /mnt (a guest-local mount point) holds
# the handles.
private_tmpfs() {
	_keep=$1
	shift
	mount -t tmpfs tmpfs /mnt || return 1
	_i=0
	for _k in $_keep; do
		mkdir -p "/mnt/$_i" && mount --bind "$_k" "/mnt/$_i" || return 1
		_i=$((_i + 1))
	done
	for _d in "$@"; do
		mount -t tmpfs tmpfs "$_d" || return 1
		_i=0
		for _k in $_keep; do
			case "$_k/" in
			"$_d"/*) mkdir -p "$_k" && mount --bind "/mnt/$_i" "$_k" || return 1 ;;
			esac
			_i=$((_i + 1))
		done
	done
}
