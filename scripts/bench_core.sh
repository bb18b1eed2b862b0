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
# both directions at once: one pair with A as the requester, one with B
echo "both directions at once (--bidir, depth 16): Gb/s of both directions together"
printf '%-6s %10s %8s %10s\n' op bytes iters Gb/s
for op in write send read; do
	for size in 65536 1048576; do
		iters=16
		((size >= 1048576)) && iters=2
		line=$("$perf" "$op" --size "$size" --iters "$iters" --depth 16 --bidir 2>/dev/null | grep -E '^ [0-9]')
		read -r bytes it gbps _ <<<"$line"
		printf '%-6s %10s %8s %10s\n' "$op" "$bytes" "$it" "$gbps"
	done
done
# unloaded latency breakdown: one message at a time (depth 1), one QP
echo "latency, one message at a time (cycles): doorbell -> first byte on the wire, last byte in -> CQE"
printf '%-6s %10s %14s %14s %14s\n' op bytes post_to_cqe db_to_byte byte_to_cqe
for op in write send read atomic; do
	for size in 64 4096; do
		bytes=$size
		if [[ $op == atomic ]]; then
			[[ $size == 64 ]] || continue
			bytes=8
		fi
		out=$("$perf" "$op" --size "$bytes" --iters 100 --depth 1 2>/dev/null)
		read -r _ _ _ _ lat _ <<<"$(grep -E '^ [0-9]' <<<"$out")"
		first=$(awk '/doorbell -> first byte/ {print $(NF-7)}' <<<"$out")
		cqe=$(awk '/last byte in -> CQE/ {print $(NF-7)}' <<<"$out")
		printf '%-6s %10s %14s %14s %14s\n' "$op" "$bytes" "$lat" "$first" "$cqe"
	done
done
start=$(date +%s.%N)
"$perf" write --size 65536 --iters 32 --depth 16 >/dev/null 2>&1
end=$(date +%s.%N)
echo "simulation speed: write 64 KiB x 32 took $(echo "$end - $start" | bc) s of host time"
line=$("$perf" atomic --iters 400 --depth 16 2>/dev/null | grep -E '^ [0-9]')
read -r bytes it gbps mpps lat cyc <<<"$line"
printf '%-6s %10s %8s %10s %10s %14s %10s\n' atomic "$bytes" "$it" "$gbps" "$mpps" "$lat" "$cyc"
