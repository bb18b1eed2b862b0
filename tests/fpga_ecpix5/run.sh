#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every check of the ECPIX-5 board (fpga/ecpix5) that runs without the board;
# ends with "N passed, N failed" and exits non-zero if anything failed.
#
#   tests/fpga_ecpix5/run.sh        (from anywhere; builds in build/fpga_ecpix5/ and build/fpga/ecpix5/)
#
# Environment:
#   ECPIX5_PNR=0      skip the bitstream build of the real board (the long step)
#   ECPIX5_CACHE=0    build the bitstream even if the cache has it (scripts/build.sh)
#
# Steps:
#   1. lint: make -C fpga/ecpix5 check-lint (Verilator -Wall and Icarus on
#      fpga with the ECP5 stubs and on fpga_core with the generic DDR
#      registers, from the synthesis source list); fpga at other parameters
#      (receive and TXC delays, 50 MHz core, LEDs active high); bad
#      parameters refused; CORE_MHZ that the PLL cannot make refused; the
#      LPF against fpga's ports (tests/fpga_ecpix5/check_lpf.py) and a
#      broken copy of it rejected
#   2. the MDIO link poller (fpga/common/rtl/froce_mdio_link.v) against a
#      PHY model, Icarus (tests/fpga_ecpix5/tb_mdio_link.v), at the PHY's
#      fastest and slowest clock-to-data; four mutants of the poller that
#      the bench must reject
#   3. the board around a stand-in for froce_core (make_standin.py: the
#      same ports, a BAR0 responder and an Ethernet loopback) through the
#      whole flow in about a minute: fit, the PLL's derived clocks, every
#      clock at its constraint, a bitstream
#   4. the bitstream: make -C fpga/ecpix5 (Yosys, nextpnr-ecp5, ecppack from
#      PyPI; the placed and routed result cached by a hash of its inputs),
#      every clock at its constraint
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TB="$ROOT/tests/fpga_ecpix5"
BOARD="$ROOT/fpga/ecpix5"
BUILD="$ROOT/build/fpga_ecpix5"
LOGS="$BUILD/logs"
mkdir -p "$LOGS"
T0=$SECONDS

source "$ROOT/tests/lib/checks.sh"

# make_step NAME TARGET: a check target of the board Makefile; each of its
# "ok    X" / "FAIL  X" lines counts as a check
make_step() {
    local name=$1 target=$2 log="$LOGS/$1.log" line n=0
    make -s -C "$BOARD" "$target" >"$log" 2>&1
    local status=$?
    while IFS= read -r line; do
        case $line in
            "ok    "*) ok "${line#ok    }"; n=$((n + 1)) ;;
            "FAIL  "*) bad "${line#FAIL  }"; n=$((n + 1)) ;;
        esac
    done <"$log"
    if [[ $status -ne 0 && $n -eq 0 ]]; then bad "$name (make $target)" "$log"; fi
}

section "1. lint"
make_step lint check-lint
mapfile -t SRC < <(make -s -C "$BOARD" print-sources)
INC=(-I"$ROOT"/rtl/include -I"$ROOT"/rtl/crc -I"$ROOT"/rtl/dma -I"$ROOT"/rtl/core)
STUBS="$ROOT/fpga/common/stubs/ecp5_prims.v"
VL=(verilator --lint-only -Wall "${INC[@]}" --top-module fpga)
for params in "-GRGMII_USE_CLK90=0 -GRGMII_TXC_DELAY_TAPS=80 -GRGMII_RX_DELAY_TAPS=80" \
              "-GCORE_PLL_DIV=10 -GLED_ACTIVE_LOW=0 -GPHY_ADDR=5'd7"; do
    # shellcheck disable=SC2086
    check_quiet "verilator fpga $params" "${VL[@]}" $params "${SRC[@]}" "$STUBS"
done
check_fails "bad-parameter fpga CORE_PLL_DIV=3 (VCO / 3 = 167 MHz)" "${VL[@]}" -GCORE_PLL_DIV=3 "${SRC[@]}" "$STUBS"
check_fails "bad-parameter fpga RGMII_RX_DELAY_TAPS=128" "${VL[@]}" -GRGMII_RX_DELAY_TAPS=128 "${SRC[@]}" "$STUBS"
check_fails "bad-parameter fpga BAUD=12000000 at 25 MHz" "${VL[@]}" -GCORE_PLL_DIV=20 -GBAUD=12000000 \
    "${SRC[@]}" "$STUBS"
if make -s -C "$BOARD" bitstream CORE_MHZ=75 >"$LOGS/core_mhz_75.log" 2>&1; then
    bad "make CORE_MHZ=75 refused (500 MHz / 75 is no integer)" "$LOGS/core_mhz_75.log"
elif grep -q "is not 500 MHz divided by an integer" "$LOGS/core_mhz_75.log"; then
    ok "make CORE_MHZ=75 refused (500 MHz / 75 is no integer)"
else
    bad "make CORE_MHZ=75 refused for that reason" "$LOGS/core_mhz_75.log"
fi
LPF="$ROOT/constraints/ecpix5/ecpix5.lpf"
check_quiet_lpf() {
    if python3 "$TB/check_lpf.py" "$BOARD/rtl/fpga.v" "$LPF" >"$LOGS/lpf.log" 2>&1; then
        ok "LPF against fpga's ports: $(tail -n 1 "$LOGS/lpf.log")"
    else
        bad "LPF against fpga's ports" "$LOGS/lpf.log"
    fi
}
check_quiet_lpf
sed 's/"eth_tx_data\[3\]" SITE/"eth_tx_data[4]" SITE/' "$LPF" >"$BUILD/broken.lpf"
if python3 "$TB/check_lpf.py" "$BOARD/rtl/fpga.v" "$BUILD/broken.lpf" >"$LOGS/lpf_broken.log" 2>&1; then
    bad "LPF check rejects a bit that fpga does not have" "$LOGS/lpf_broken.log"
else
    ok "LPF check rejects a bit that fpga does not have: $(head -n 1 "$LOGS/lpf_broken.log")"
fi

section "2. MDIO link poller against a PHY model"
MDIO="$ROOT/fpga/common/rtl/froce_mdio_link.v"
# mdio_bench NAME RTL DELAY: compile and run; prints the bench's checks into the log
mdio_bench() {
    local name=$1 rtl=$2 delay=$3 log="$LOGS/mdio_$1.log"
    iverilog -g2005 -Wall -P tb_mdio_link.PHY_DELAY_NS="$delay" -o "$BUILD/mdio_$name" \
        "$TB/tb_mdio_link.v" "$rtl" >"$log" 2>&1 && vvp -n "$BUILD/mdio_$name" >>"$log" 2>&1
    grep -q "^DONE 0$" "$log"
}
for delay in 0 300; do
    log="$LOGS/mdio_delay$delay.log"
    mdio_bench "delay$delay" "$MDIO" "$delay"
    n=0
    while IFS= read -r line; do
        case $line in
            "ok    "*) ok "mdio (PHY delay $delay ns): ${line#ok    }"; n=$((n + 1)) ;;
            "FAIL  "*) bad "mdio (PHY delay $delay ns): ${line#FAIL  }"; n=$((n + 1)) ;;
        esac
    done <"$log"
    grep -q "^DONE 0$" "$log" || [[ $n -gt 0 ]] || bad "mdio bench (PHY delay $delay ns) did not run" "$log"
done
# mutant NAME FROM TO: the poller with FROM replaced by TO must fail the bench
# at one PHY delay or the other
mutant() {
    local name=$1 from=$2 to=$3 dir="$BUILD/mutants/$1"
    rm -rf "$dir" && mkdir -p "$dir" && cp "$MDIO" "$dir/"
    if ! grep -qF -- "$from" "$dir/froce_mdio_link.v"; then
        bad "mutant $name: pattern not found in $MDIO"
        return
    fi
    FROM="$from" TO="$to" python3 -c 'import os, sys
p = sys.argv[1]; s = open(p).read(); open(p, "w").write(s.replace(os.environ["FROM"], os.environ["TO"], 1))' \
        "$dir/froce_mdio_link.v"
    if mdio_bench "mut_${name}_0" "$dir/froce_mdio_link.v" 0 && \
       mdio_bench "mut_${name}_300" "$dir/froce_mdio_link.v" 300; then
        bad "mutant $name survived the bench"
    else
        ok "mutant $name rejected"
    fi
}
mutant link-bit "shift_reg != 16'hFFFF && shift_reg[2];" "shift_reg != 16'hFFFF && shift_reg[3];"
mutant no-phy-as-link "link_reg <= shift_reg != 16'hFFFF && shift_reg[2];" "link_reg <= shift_reg[2];"
mutant late-turnaround "mdio_t_reg <= bit_reg + 1'b1 >= 7'd46;" "mdio_t_reg <= bit_reg + 1'b1 >= 7'd47;"
mutant wrong-register "PHY_ADDR, 5'd1};" "PHY_ADDR, 5'd0};"

section "3. the board around a stand-in froce_core (Yosys, nextpnr-ecp5, ecppack)"
# the whole flow on the board's own logic, in about a minute, while
# froce_core does not fit: pins, PLL and its derived clocks, I/O cells,
# bitstream, and the board logic's timing at its clocks
SDIR=build/fpga_ecpix5/standin
mkdir -p "$ROOT/$SDIR"
log="$LOGS/standin.log"
if ! python3 "$TB/make_standin.py" "$ROOT/rtl/core/froce_core.v" "$ROOT/$SDIR/froce_core_standin.v" >"$log" 2>&1; then
    bad "stand-in froce_core generated" "$log"
elif ! make -s -C "$ROOT/firmware" image >>"$log" 2>&1; then
    bad "firmware image" "$log"
else
    t=$SECONDS
    (cd "$ROOT" && CORE_SOURCES="$SDIR/froce_core_standin.v rtl/crc/froce_crc32_step.v rtl/common/froce_fifo.v" \
        OUT="$SDIR/out" bash fpga/ecpix5/scripts/build.sh) >>"$log" 2>&1
    status=$?
    if [[ $status -eq 0 && -s $ROOT/$SDIR/out/froce_ecpix5.bit ]]; then
        ok "stand-in board: synthesis, fit, place and route, bitstream ($((SECONDS - t)) s)"
    else
        bad "stand-in board: synthesis, fit, place and route, bitstream" "$log"
    fi
    pnr="$ROOT/$SDIR/out/nextpnr.log"
    for clk in "125.0 MHz for net gtx_clk" "125.0 MHz for net gtx_clk90" "100.0 MHz for net core_clk"; do
        if grep -q "Derived frequency constraint of $clk\$" "$pnr" 2>/dev/null; then
            ok "stand-in board: the PLL gives $clk"
        else
            bad "stand-in board: the PLL gives $clk" "$pnr"
        fi
    done
    rep="$ROOT/$SDIR/out/froce_ecpix5.report.json"
    if python3 "$ROOT/fpga/ecpix5/scripts/report.py" --no-paths "$rep" >"$LOGS/standin_report.log" 2>&1; then
        ok "stand-in board: every clock meets its constraint"
    else
        bad "stand-in board: every clock meets its constraint" "$LOGS/standin_report.log"
    fi
    sed 's/^/      /' "$LOGS/standin_report.log"
fi

if [[ ${ECPIX5_PNR:-1} != 0 ]]; then
    section "4. bitstream (Yosys, nextpnr-ecp5, ecppack)"
    log="$LOGS/bitstream.log"
    t=$SECONDS
    make -C "$BOARD" >"$log" 2>&1
    status=$?
    bit="$ROOT/build/fpga/ecpix5/froce_ecpix5.bit"
    # the table, and the build's own lines (times, cache, fit)
    sed -n '/^ECPIX-5 85F speed 8/,$p' "$log" | sed 's/^/      /'
    grep -E "^ecpix5: (synthesis|place and route|placed and routed result)" "$log" | sed 's/^/      /'
    if nofit=$(grep -m1 -o "the design does not fit .*" "$log"); then
        bad "bitstream: $nofit"
    elif [[ ! -s $bit ]]; then
        bad "bitstream built (make -C fpga/ecpix5, exit $status)" "$log"
    else
        ok "bitstream $(basename "$bit") ($(stat -c %s "$bit") bytes, $((SECONDS - t)) s)"
        if [[ $status -eq 0 ]]; then
            ok "every clock meets its constraint"
        elif grep -q "^TIMING MISSED" "$log"; then
            bad "every clock meets its constraint ($(grep "^TIMING MISSED" "$log"))"
        else
            bad "make -C fpga/ecpix5 (exit $status)" "$log"
        fi
    fi
fi

echo
echo "($((SECONDS - T0)) s)"
summary
