#!/usr/bin/env bash
# The RX packet buffer behind the parser (tests/rtl/pktbuf/tb_pktbuf.cpp) at
# DATA_WIDTH 64 and 512, on the rxe captures with corrupted, non-RoCE and
# over-large frames mixed in. Runs from the repository root.
set -euo pipefail
vectors=${FROCE_VECTORS:-tests/vectors/rxe}
for width in 64 512; do
	out=build/tests/pktbuf/w$width
	mkdir -p "$out"
	verilator -Wall --cc --exe --build -j 2 -O2 --x-assign fast --x-initial fast \
		--top-module pktbuf_tb_top -GDATA_WIDTH=$width -GDEPTH=$((4096 * 8 / width)) -Irtl/include -Irtl/crc \
		-y rtl/common -y rtl/crc -y rtl/roce --Mdir "$out" -o tb_pktbuf \
		-CFLAGS "-std=c++17 -DDATA_WIDTH=$width -I$PWD/include -I$PWD/sim/pcap" \
		tests/rtl/pktbuf/pktbuf_tb_top.v "$PWD/tests/rtl/pktbuf/tb_pktbuf.cpp" \
		"$PWD/sim/pcap/pcap_file.cpp" > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
	# seeds 0..7: every combination of promiscuous, all-multicast and MTU 1500/1000
	for seed in 0 1 2 3 4 5 6 7; do
		"$out/tb_pktbuf" $seed "$vectors"/*.pcap
	done
done
