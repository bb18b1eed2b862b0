#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lint the froce RTL: every module file under rtl/ is elaborated as its own top
# by `verilator --lint-only -Wall` and by `iverilog -g2005 -Wall`, at
# DATA_WIDTH 64 and 512 when the module has that parameter (once, with its
# defaults, otherwise). Waivers: rtl/lint/waivers.vlt, if present (Verilator
# only; every waiver there carries a comment saying why).
#
# Prints one line per check and exits non-zero if any check printed a warning
# or an error. Icarus returns 0 on warnings, so any Icarus output is a failure.
#
# Usage: scripts/lint.sh [MODULE|FILE ...]   (default: every file under rtl/)
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

RTL=rtl
WAIVERS=rtl/lint/waivers.vlt
WIDTHS=(64 512)
# Include directories, like scripts/synth.py: these, then any other directory
# under rtl/ that holds a .vh file.
INCLUDE_DIRS=(rtl/include rtl/crc)
# Tool output lines shown under a failing check.
MAX_LINES=25

failures=0
checks=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# report NAME STATUS OUTPUT_FILE: one line per check, the tool's output below a failure
report() {
	local name=$1 status=$2 out=$3
	checks=$((checks + 1))
	if [[ $status -eq 0 && ! -s $out ]]; then
		printf 'lint: ok   %s\n' "$name"
	else
		failures=$((failures + 1))
		printf 'lint: FAIL %s\n' "$name"
		head -n "$MAX_LINES" "$out" | sed 's/^/    /'
		local n
		n=$(wc -l <"$out")
		[[ $n -le $MAX_LINES ]] || printf '    ... %d more line(s)\n' $((n - MAX_LINES))
	fi
}

# Synthesizable RTL files: benches and models (tb/, test/, sim/, tb_*.v,
# *_tb.v, test_*.v) are not linted as RTL tops here.
rtl_files() {
	find "$RTL" -name '*.v' \
		-not -path '*/tb/*' -not -path '*/test/*' -not -path '*/tests/*' -not -path '*/sim/*' \
		-not -name 'tb_*' -not -name '*_tb.v' -not -name 'test_*' | LC_ALL=C sort
}

# module_of FILE: the first module the file declares (one module per file)
module_of() {
	sed -e 's://.*$::' "$1" | grep -oE '^[[:space:]]*module[[:space:]]+[A-Za-z_][A-Za-z0-9_$]*' |
		awk 'NR == 1 {print $2}'
}

# has_data_width FILE: the module declares a DATA_WIDTH parameter
# (no `sed | grep -q` pipeline: under pipefail, grep -q quitting early would
# make sed's SIGPIPE the pipeline's status)
has_data_width() {
	local text
	text=$(sed -e 's://.*$::' "$1")
	grep -qE '\bparameter\b[^;,)]*\bDATA_WIDTH\b' <<<"$text"
}

lint_rtl() {
	local files=() f
	while IFS= read -r f; do files+=("$f"); done < <(rtl_files)
	if [[ ${#files[@]} -eq 0 ]]; then
		echo "lint: no RTL files under $RTL/"
		return
	fi

	# search paths: every directory holding RTL, include directories first
	local incs=() ydirs=() d
	for d in "${INCLUDE_DIRS[@]}"; do [[ -d $d ]] && incs+=("$d"); done
	while IFS= read -r d; do
		[[ " ${incs[*]} " == *" $d "* ]] || incs+=("$d")
	done < <(find "$RTL" -name '*.vh' -printf '%h\n' | LC_ALL=C sort -u)
	while IFS= read -r d; do ydirs+=("$d"); done < <(printf '%s\n' "${files[@]}" | xargs -n1 dirname | LC_ALL=C sort -u)

	local vl_paths=() iv_paths=()
	for d in "${incs[@]}"; do vl_paths+=("-I$d"); iv_paths+=(-I "$d"); done
	for d in "${ydirs[@]}"; do vl_paths+=(-y "$d"); iv_paths+=(-y "$d"); done
	local waivers=()
	[[ -f $WAIVERS ]] && waivers=("$WAIVERS")

	local file mod params p out status
	for file in "${files[@]}"; do
		if [[ ${#filter[@]} -gt 0 ]]; then
			mod=$(module_of "$file")
			local want=0 x
			for x in "${filter[@]}"; do [[ $x == "$file" || $x == "$mod" ]] && want=1; done
			[[ $want -eq 1 ]] || continue
		fi
		mod=$(module_of "$file")
		if [[ -z $mod ]]; then
			checks=$((checks + 1)); failures=$((failures + 1))
			echo "lint: FAIL $file: no module declaration found"
			continue
		fi
		if has_data_width "$file"; then
			params=("${WIDTHS[@]}")
		else
			params=("")
		fi
		for p in "${params[@]}"; do
			local label="$mod${p:+ DATA_WIDTH=$p}"
			out=$tmp/out

			verilator --lint-only -Wall --top-module "$mod" ${p:+"-GDATA_WIDTH=$p"} \
				"${vl_paths[@]}" "${waivers[@]}" "$file" >"$out" 2>&1
			status=$?
			report "verilator $label" "$status" "$out"

			iverilog -g2005 -Wall -o "$tmp/a.vvp" -s "$mod" ${p:+-P "$mod.DATA_WIDTH=$p"} \
				"${iv_paths[@]}" -Y .v "$file" >"$out" 2>&1
			status=$?
			report "iverilog  $label" "$status" "$out"
		done
	done
}

# C and C++ checks, and the simulation tops (not under rtl/). The driver,
# provider and firmware add theirs here (checkpatch.pl, sparse, clang-format)
# as they arrive. Call report() once per check, like lint_rtl.
lint_c() {
	[[ ${#filter[@]} -eq 0 ]] || return 0
	local out=$tmp/out status p
	printf '#include "froce_hw.h"\nint froce_lint_unit;\n' >"$tmp/hw.c"
	gcc -fsyntax-only -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude "$tmp/hw.c" >"$out" 2>&1
	report "gcc       include/froce_hw.h" $? "$out"
	g++ -fsyntax-only -std=c++17 -Wall -Wextra -Werror sim/pcap/pcap_file.cpp >"$out" 2>&1
	report "g++       sim/pcap/pcap_file.cpp" $? "$out"
	for p in "${WIDTHS[@]}"; do
		verilator --lint-only -Wall --top-module froce_pcap_top "-GDATA_WIDTH=$p" \
			-Irtl/include -Irtl/crc -y rtl/common -y rtl/crc -y rtl/roce \
			sim/pcap/froce_pcap_top.v >"$out" 2>&1
		status=$?
		report "verilator froce_pcap_top DATA_WIDTH=$p" "$status" "$out"
	done
}

filter=("$@")
for tool in verilator iverilog; do
	command -v "$tool" >/dev/null || { echo "lint: $tool not found (run scripts/deps.sh)" >&2; exit 2; }
done
lint_rtl
lint_c
if [[ ${#filter[@]} -gt 0 && $checks -eq 0 ]]; then
	echo "lint: nothing matched: ${filter[*]}" >&2
	exit 2
fi
if [[ $failures -gt 0 ]]; then
	echo "lint: $failures of $checks check(s) failed"
	exit 1
fi
echo "lint: all $checks check(s) passed"
