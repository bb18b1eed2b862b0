#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Loss recovery of froce beside Linux rxe's, in the same UML harness (make
# bench-loss-uml; a figure, not a test). Each topology runs ib_write_bw with
# 1 MiB messages on a clean wire and with a frame-loss rate P (both
# directions): rxe-rxe through cosim.py's lossy relay, froce-froce through
# froce-uml-sim's fault injector. What compares is each stack's goodput under
# loss as a fraction of its own clean goodput: the simulated NIC runs about a
# thousand times slower than real time (so its absolute Gb/s mean nothing),
# and rxe's timers run in real time. Needs what `make cosim` needs
# (sim/uml/prepare.sh builds it); root.
#
#   scripts/bench_loss_uml.sh [P ...]      (default: 1 3)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rates=("$@")
[[ ${#rates[@]} -gt 0 ]] || rates=(1 3)
bash sim/uml/prepare.sh || exit 1

# gbps TOPOLOGY BW P: the client-side ib_write_bw averages of both directions
gbps() {
	local topo=$1 bw=$2 p=$3 out
	out=$(python3 sim/uml/cosim.py --topology "$topo" --short --bw "$bw" --drop-pct "$p" --step-timeout 900 2>&1)
	if ! grep -q "cosim $topo: .* 0 failed" <<<"$out"; then
		echo "bench_loss_uml: $topo at $p % loss failed:" >&2
		grep -E "FAIL|TIMEOUT" <<<"$out" | head -5 >&2
		echo "FAIL"
		return
	fi
	# perftest's result rows (#bytes #iterations BW-peak BW-average MsgRate), one per
	# direction from the clients (the servers of ib_write_bw print no BW)
	awk -v size="${bw%%:*}" '$1 == size && NF >= 5 && $4 + 0 > 0 { printf "%s ", $4 }' <<<"$out"
}

printf '%-12s %-10s %-24s %s\n' topology loss "ib_write_bw Gb/s (A->B B->A)" "% of clean"
for topo in rxe-rxe froce-froce; do
	if [[ $topo == rxe-rxe ]]; then bw=1048576:200; else bw=1048576:8; fi
	clean=$(gbps "$topo" "$bw" 0)
	printf '%-12s %-10s %-24s %s\n' "$topo" "0 %" "$clean" 100
	for p in "${rates[@]}"; do
		lossy=$(gbps "$topo" "$bw" "$p")
		pct=$(python3 -c '
import sys
c = [float(x) for x in sys.argv[1].split()]
l = [float(x) for x in sys.argv[2].split()] if sys.argv[2] != "FAIL" else []
print(" ".join("%.0f" % (100 * b / a) for a, b in zip(c, l) if a > 0) or "-")' "$clean" "$lossy")
		printf '%-12s %-10s %-24s %s\n' "$topo" "$p %" "$lossy" "$pct"
	done
done
