#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Transport-engine figures (not a test): froce-perf WRITE, SEND and READ between two
# simulated NICs at DATA_WIDTH 64, clean wire, MTU 4096, 16 WQEs in flight;
# Gb/s at the modelled 156.25 MHz clock. Results go into docs/performance.md
# by hand.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
make -s -C sim/core JOBS=2 perf
perf=build/bin/froce-perf
printf '%-6s %10s %8s %10s %10s %14s %10s\n' op bytes iters Gb/s Mmsg/s lat_cycles cycles
for op in write send read; do
	for size in 64 4096 65536 1048576; do
		iters=400
		((size >= 65536)) && iters=32
		((size >= 1048576)) && iters=4
		line=$("$perf" "$op" --size "$size" --iters "$iters" --depth 16 2>/dev/null | grep -E '^ [0-9]')
		read -r bytes it gbps mpps lat cyc <<<"$line"
		printf '%-6s %10s %8s %10s %10s %14s %10s\n' "$op" "$bytes" "$it" "$gbps" "$mpps" "$lat" "$cyc"
	done
done
start=$(date +%s.%N)
"$perf" write --size 65536 --iters 32 --depth 16 >/dev/null 2>&1
end=$(date +%s.%N)
echo "simulation speed: write 64 KiB x 32 took $(echo "$end - $start" | bc) s of host time"
line=$("$perf" atomic --iters 400 --depth 16 2>/dev/null | grep -E '^ [0-9]')
read -r bytes it gbps mpps lat cyc <<<"$line"
printf '%-6s %10s %8s %10s %10s %14s %10s\n' atomic "$bytes" "$it" "$gbps" "$mpps" "$lat" "$cyc"
