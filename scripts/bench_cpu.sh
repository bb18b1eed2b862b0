#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Soft-core figures (not a test): CPI of the ISA tests on froce-cpu-sim
# (froce_cpu_top, 1-cycle RAM, MMIO device with 1 wait state and 2 cycles of
# latency) and Yosys cell counts of froce_cpu and froce_cpu_top. Results go
# into docs/cpu.md by hand.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=build/bench/cpu
mkdir -p "$OUT"
make -s -C sim/cpu
sim=build/bin/froce-cpu-sim

echo "CPI on the ISA tests (tests/cpu/isa, froce-cpu-sim):"
printf '  %-10s %9s %9s %7s\n' test cycles instret cpi
tc=0
ti=0
for src in tests/cpu/isa/*.S; do
	name=$(basename "$src" .S)
	riscv64-unknown-elf-gcc -march=rv32i_zicsr -mabi=ilp32 -nostdlib -nostartfiles -Wl,--no-warn-rwx-segments \
		-Itests/cpu/isa -Isim/cpu -T tests/cpu/link.ld -o "$OUT/$name.elf" "$src"
	line=$("$sim" "$OUT/$name.elf" 2>&1 >/dev/null | grep '^froce-cpu-sim: cycles')
	read -r _ _ cyc _ ins _ _ _ cpi <<<"$line"
	printf '  %-10s %9s %9s %7s\n' "$name" "$cyc" "$ins" "$cpi"
	tc=$((tc + cyc))
	ti=$((ti + ins))
done
printf '  %-10s %9s %9s %7s\n' all "$tc" "$ti" "$(echo "scale=3; $tc / $ti" | bc)"

# synth LABEL TOP FLOW [chparam...]: one Yosys run, its stat figures
synth() {
	local label=$1 top=$2 flow=$3
	shift 3
	local file=${label//[^A-Za-z0-9]/_}
	yosys -q -l "$OUT/yosys_$file.log" -p "read_verilog rtl/cpu/froce_cpu.v rtl/cpu/froce_cpu_ram.v rtl/cpu/froce_cpu_top.v; \
		hierarchy -check -top $top $*; $flow; tee -o $OUT/stat_$file.txt stat" >/dev/null
	local f="$OUT/stat_$file.txt"
	local cells luts ffs ccu dpr bram
	cells=$(awk '/Number of cells:/ {n = $4} END {print n}' "$f")
	luts=$(awk '$1 == "LUT4" {print $2}' "$f")
	ffs=$(awk '$1 == "TRELLIS_FF" {print $2}' "$f")
	ccu=$(awk '$1 == "CCU2C" {print $2}' "$f")
	dpr=$(awk '$1 == "TRELLIS_DPR16X4" {print $2}' "$f")
	bram=$(awk '$1 == "DP16KD" {print $2}' "$f")
	if [[ $flow == synth_ecp5* ]]; then
		printf '  %-34s LUT4 %5s  FF %4s  CCU2C %3s  DPR16X4 %3s  DP16KD %3s\n' "$label" "${luts:-0}" "${ffs:-0}" \
			"${ccu:-0}" "${dpr:-0}" "${bram:-0}"
	else
		printf '  %-34s cells %5s  FF %4s\n' "$label" "$cells" "$(grep -E '\$_.*DFF' "$f" | awk '{s += $2} END {print s + 0}')"
	fi
}
echo
echo "Yosys $(yosys -V | awk '{print $2}'):"
synth "froce_cpu ecp5" froce_cpu "synth_ecp5 -top froce_cpu"
synth "froce_cpu ecp5 -nowidelut" froce_cpu "synth_ecp5 -nowidelut -top froce_cpu"
synth "froce_cpu generic (synth -flatten)" froce_cpu "synth -flatten -top froce_cpu"
synth "froce_cpu_top 64 KiB ecp5" froce_cpu_top "synth_ecp5 -top froce_cpu_top"
synth "froce_cpu_top 64 KiB ecp5 -nowidelut" froce_cpu_top "synth_ecp5 -nowidelut -top froce_cpu_top"
