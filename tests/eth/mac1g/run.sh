#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# 1G RGMII MAC: static checks, then the cocotb bench against the cocotbext-eth
# RGMII models (Icarus). Everything is built under build/eth/mac1g.
#
#   tests/eth/mac1g/run.sh [TESTCASE]      (TESTCASE: one cocotb test name)
#
# Static checks (each counts as one test):
#   - verilator --lint-only -Wall on every top (generic DDR modules), the
#     wrapper also at DATA_WIDTH 16/512 and USE_CLK90 = 0;
#   - the ECP5 DDR shims against the primitive stubs, alone and under the
#     wrapper, in Verilator and Icarus;
#   - iverilog -g2005 on every top;
#   - yosys synth -top ...; check -assert; no latches (wrapper, byte MACs);
#     synth_ecp5 of the wrapper with the ECP5 shims (5 IDDRX1F, 6 ODDRX1F).
# Environment: RANDOM_SEED (default 1) for the cocotb tests; SKIP_STATIC=1
# runs the bench only. Prints "N passed, N failed" last; exits non-zero if
# anything failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=$repo/build/eth/mac1g
mkdir -p "$build"
cd "$repo" || exit 2

passed=0
failed=0
failures=()

# check NAME CMD...: run CMD, pass if it exits 0 and prints nothing
check() {
	local name=$1 out=$build/check.out
	shift
	if "$@" >"$out" 2>&1 && [[ ! -s $out ]]; then
		passed=$((passed + 1))
		printf 'mac1g: ok   %s\n' "$name"
	else
		failed=$((failed + 1))
		failures+=("$name")
		printf 'mac1g: FAIL %s\n' "$name"
		head -n 20 "$out" | sed 's/^/    /'
	fi
}

ETH=rtl/eth
GENERIC_DDR=(rtl/eth/ddr/froce_iddr.v rtl/eth/ddr/froce_oddr.v)
ECP5_DDR=(fpga/common/rtl/ecp5/froce_iddr.v fpga/common/rtl/ecp5/froce_oddr.v fpga/common/stubs/ecp5_prims.v)
MAC_SRCS=("$ETH/froce_eth_mac_1g_rgmii.v" "$ETH/froce_eth_mac_1g_tx.v" "$ETH/froce_eth_mac_1g_rx.v"
	"$ETH/froce_eth_rgmii_phy_if.v" rtl/crc/froce_crc32_step.v)

vl() { verilator --lint-only -Wall -Irtl/crc "$@"; }
iv() { iverilog -g2005 -Wall -Irtl/crc -o "$build/lint.vvp" "$@"; }
# yosys_check TOP FILES...: generic synthesis, structural check, no latch cells
yosys_check() {
	local top=$1 log=$build/yosys_$1.log
	shift
	if ! yosys -q -l "$log" -p "read_verilog -Irtl/crc $*; synth -top $top; check -assert;
		select -assert-none t:\$dlatch t:\$_DLATCH_* t:\$_DLATCHSR_*" >/dev/null 2>&1; then
		echo "yosys failed, see $log"
		grep -E 'ERROR|Warning|arning:' "$log" | head -n 10
		return 1
	fi
	grep -i 'latch inferred' "$log" | grep -vi '^No latch' || true
}

if [[ ${SKIP_STATIC:-0} != 1 ]]; then
	for m in froce_eth_mac_1g_tx froce_eth_mac_1g_rx; do
		check "verilator $m" vl --top-module $m $ETH/$m.v rtl/crc/froce_crc32_step.v
		check "iverilog  $m" iv -s $m $ETH/$m.v rtl/crc/froce_crc32_step.v
	done
	check "verilator froce_eth_rgmii_phy_if" vl --top-module froce_eth_rgmii_phy_if $ETH/froce_eth_rgmii_phy_if.v "${GENERIC_DDR[@]}"
	check "verilator froce_eth_rgmii_phy_if USE_CLK90=0" vl --top-module froce_eth_rgmii_phy_if -GUSE_CLK90=0 \
		$ETH/froce_eth_rgmii_phy_if.v "${GENERIC_DDR[@]}"
	check "iverilog  froce_eth_rgmii_phy_if" iv -s froce_eth_rgmii_phy_if $ETH/froce_eth_rgmii_phy_if.v "${GENERIC_DDR[@]}"
	for p in "" "-GDATA_WIDTH=16" "-GDATA_WIDTH=512" "-GUSE_CLK90=0"; do
		check "verilator froce_eth_mac_1g_rgmii $p" vl --top-module froce_eth_mac_1g_rgmii $p "${MAC_SRCS[@]}" "${GENERIC_DDR[@]}"
	done
	check "iverilog  froce_eth_mac_1g_rgmii" iv -s froce_eth_mac_1g_rgmii "${MAC_SRCS[@]}" "${GENERIC_DDR[@]}"
	for m in froce_iddr froce_oddr; do
		check "verilator $m (generic)" vl --top-module $m rtl/eth/ddr/$m.v
		check "verilator $m (ECP5)" vl --top-module $m fpga/common/rtl/ecp5/$m.v fpga/common/stubs/ecp5_prims.v
		check "iverilog  $m (ECP5)" iv -s $m fpga/common/rtl/ecp5/$m.v fpga/common/stubs/ecp5_prims.v
	done
	check "verilator froce_eth_mac_1g_rgmii (ECP5 DDR)" vl --top-module froce_eth_mac_1g_rgmii "${MAC_SRCS[@]}" "${ECP5_DDR[@]}"
	check "iverilog  froce_eth_mac_1g_rgmii (ECP5 DDR)" iv -s froce_eth_mac_1g_rgmii "${MAC_SRCS[@]}" "${ECP5_DDR[@]}"
	check "yosys     froce_eth_mac_1g_tx" yosys_check froce_eth_mac_1g_tx $ETH/froce_eth_mac_1g_tx.v rtl/crc/froce_crc32_step.v
	check "yosys     froce_eth_mac_1g_rx" yosys_check froce_eth_mac_1g_rx $ETH/froce_eth_mac_1g_rx.v rtl/crc/froce_crc32_step.v
	check "yosys     froce_eth_mac_1g_rgmii" yosys_check froce_eth_mac_1g_rgmii "${MAC_SRCS[*]}" "${GENERIC_DDR[*]}"
	# the ECP5 shims with Yosys' own IDDRX1F/ODDRX1F cells (not the stubs)
	check "yosys     froce_eth_mac_1g_rgmii (synth_ecp5)" yosys -q -l "$build/yosys_ecp5.log" -p \
		"read_verilog -Irtl/crc ${MAC_SRCS[*]} fpga/common/rtl/ecp5/froce_iddr.v fpga/common/rtl/ecp5/froce_oddr.v;
		synth_ecp5 -top froce_eth_mac_1g_rgmii; check -assert; select -assert-count 5 t:IDDRX1F;
		select -assert-count 6 t:ODDRX1F"
fi

# cocotb bench
venv=$(bash scripts/cocotb_venv.sh) || { echo "mac1g: cannot set up the cocotb venv" >&2; exit 2; }
export PATH=$venv/bin:$PATH
results=$build/results.xml
rm -f "$results"
testcase=${1:-}
echo "mac1g: cocotb bench (RANDOM_SEED=${RANDOM_SEED:-1}), log $build/sim.log"
RANDOM_SEED=${RANDOM_SEED:-1} make -C "$build" -f "$here/Makefile" SIM=icarus \
	SIM_BUILD="$build/sim_build" COCOTB_RESULTS_FILE="$results" ${testcase:+TESTCASE=$testcase} \
	>"$build/sim.log" 2>&1
make_status=$?

if [[ -f $results ]]; then
	# one line per test from the JUnit file: NAME PASS|FAIL
	while read -r name status; do
		if [[ $status == PASS ]]; then
			passed=$((passed + 1))
			printf 'mac1g: ok   cocotb %s\n' "$name"
		else
			failed=$((failed + 1))
			failures+=("cocotb $name")
			printf 'mac1g: FAIL cocotb %s\n' "$name"
		fi
	done < <(python3 - "$results" <<'EOF'
import sys
import xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).iter("testcase"):
    bad = case.find("failure") is not None or case.find("error") is not None
    print(case.get("name"), "FAIL" if bad else "PASS")
EOF
)
	if grep -q '^cocotb ' <(printf '%s\n' "${failures[@]}"); then
		grep -E 'AssertionError|Error:|failed' "$build/sim.log" | head -n 20 | sed 's/^/    /'
	fi
else
	failed=$((failed + 1))
	failures+=("cocotb run (no results file, make exit $make_status)")
	echo "mac1g: FAIL cocotb run: no results file"
	tail -n 30 "$build/sim.log" | sed 's/^/    /'
fi
if [[ $make_status -ne 0 && $failed -eq 0 ]]; then
	failed=$((failed + 1))
	failures+=("cocotb make exit $make_status")
fi

for f in "${failures[@]}"; do echo "mac1g: failed: $f"; done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
