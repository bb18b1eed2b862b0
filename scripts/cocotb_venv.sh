#!/usr/bin/env bash
# A Python venv with cocotb and the cocotbext models, pinned, for the RTL
# benches that test our blocks against independent models (tests/eth/...).
# Cached outside the checkout, keyed by the pins, like the UML kernel:
#
#   scripts/cocotb_venv.sh          create it if missing; print its path
#
# Environment: FROCE_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/froce).
# Needs Debian's python3-venv (make deps) and PyPI.
set -euo pipefail

pins=(
	"cocotb==1.9.2"
	"cocotbext-eth==0.1.28"
	"cocotbext-axi==0.1.26"
	"pytest==8.3.4"
)

CACHE="${FROCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/froce}"
key=$(printf '%s\n' "${pins[@]}" "$(/usr/bin/python3 -c 'import sys; print(sys.version_info[:2])')" |
	sha256sum | cut -c1-16)
venv="$CACHE/cocotb-$key"

mkdir -p "$CACHE"
exec 9>"$venv.lock"
flock 9    # two benches starting at once install it once
if [[ ! -x $venv/bin/cocotb-config ]]; then
	echo "cocotb_venv: installing ${pins[*]} into $venv" >&2
	rm -rf "$venv"
	/usr/bin/python3 -m venv "$venv"
	"$venv/bin/pip" install -q "${pins[@]}" >&2 || { rm -rf "$venv"; exit 1; }
fi
echo "$venv"
