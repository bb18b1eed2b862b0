#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The short full-stack run of make test: builds what it needs
# (sim/uml/prepare.sh), then `sim/uml/cosim.py --topology TOPOLOGY --short`:
# ibv_devinfo, ibv_rc_pingpong -c and a short ib_write_bw, both directions,
# between two UML guests (froce-froce: two simulated froce NICs; froce-rxe:
# froce against Linux rxe; ecpix5-rxe: the simulated ECPIX-5 board driven
# over its UART by froce-pingpong against ibv_rc_pingpong on rxe). With
# --board alveo (froce-froce, froce-rxe) every simulated NIC is the Alveo
# U200 board core around froce_core (froce-uml-sim-alveo). Exits with
# cosim.py's status.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
usage="usage: tests/uml/cosim.sh froce-froce|froce-rxe|ecpix5-rxe [--board core|alveo]"
topology=${1:?$usage}
board=core
if [[ $# -gt 1 ]]; then
	[[ $# -eq 3 && $2 == --board ]] || { echo "$usage" >&2; exit 2; }
	board=$3
fi
"$ROOT/sim/uml/prepare.sh" --board "$board" || exit 1
exec /usr/bin/python3 "$ROOT/sim/uml/cosim.py" --topology "$topology" --short --board "$board"
