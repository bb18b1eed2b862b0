#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The short full-stack run of make test: builds what it needs
# (sim/uml/prepare.sh), then `sim/uml/cosim.py --topology TOPOLOGY --short`:
# ibv_devinfo, ibv_rc_pingpong -c and a short ib_write_bw, both directions,
# between two UML guests (froce-froce: two simulated froce NICs; froce-rxe:
# froce against Linux rxe). Exits with cosim.py's status.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
topology=${1:?usage: tests/uml/cosim.sh froce-froce|froce-rxe}
"$ROOT/sim/uml/prepare.sh" || exit 1
exec /usr/bin/python3 "$ROOT/sim/uml/cosim.py" --topology "$topology" --short
