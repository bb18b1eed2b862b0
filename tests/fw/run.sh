#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Firmware-subsystem tests (rtl/fw, froce_fw): builds the firmware image and the
# Verilator benches, runs them, ends with "fw tests: N passed, M failed" and
# exits non-zero on any failure.
#
#   tests/fw/run.sh              (from anywhere; builds into build/)
#   tests/fw/run.sh --mutants    also the mutation check (slow: one rebuild per mutant)
#
# About 20 s from clean on 2 cores, 6 s once built. Steps:
#   1. lint of froce_fw and froce_fw_dma (scripts/lint.sh: Verilator -Wall and
#      Icarus at DATA_WIDTH 64 and 512)
#   2. build: make -C firmware (build/firmware/froce-fw.hex), the bus-test
#      program (tests/fw/bus_test.S), make -C sim/fw
#   3. Icarus: froce_fw with the real image through INIT_FILE until the boot
#      banner (tests/fw/tb_fw.v)
#   4. froce-fw-dma-test: the DMA engine alone, random transfers checked byte
#      by byte, with and without back-pressure
#   5. froce-fw-test: the real firmware on froce_fw against the models (boot,
#      mailbox commands, contexts on the control bus, EQEs, DMA errors,
#      heartbeat, engine events, link, counters), fast and with back-pressure
#   6. froce-fw-test --bus-test: access faults, registers, DMA, interrupts
#   7. (--mutants) each deliberate bug in a copy of rtl/fw must fail a test
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

BUILD=build/tests/fw
T=tests/fw
CC=riscv64-unknown-elf-gcc
MUTANTS=0
[[ ${1:-} == --mutants ]] && MUTANTS=1

mkdir -p "$BUILD"
passed=0
failed=0

section() { echo; echo "== $*"; }
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
show() { tail -n 25 "$1" | sed 's/^/    /'; }
finish() { echo; echo "fw tests: $passed passed, $failed failed"; [[ $failed -eq 0 ]]; exit $?; }

for tool in "$CC" verilator iverilog vvp; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool not found (scripts/deps.sh)"; exit 2; }
done

mapfile -t RTL < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' rtl/fw/froce_fw.f)

section "1. lint"
if bash scripts/lint.sh froce_fw froce_fw_dma >"$BUILD/lint.log" 2>&1; then
    ok "scripts/lint.sh froce_fw froce_fw_dma ($(grep -c '^lint: ok' "$BUILD/lint.log") checks)"
else
    bad "scripts/lint.sh froce_fw froce_fw_dma"; show "$BUILD/lint.log"
fi

section "2. build"
if make -s -C firmware >"$BUILD/firmware.log" 2>&1; then
    ok "make -C firmware ($(grep -o 'text [0-9]*' "$BUILD/firmware.log" | head -1) bytes)"
else
    bad "make -C firmware"; show "$BUILD/firmware.log"; finish
fi
if "$CC" -march=rv32i_zicsr -mabi=ilp32 -nostdlib -nostartfiles -Wl,--no-warn-rwx-segments \
        -T firmware/link.ld -o "$BUILD/bus_test.elf" "$T/bus_test.S" >"$BUILD/bus_test.log" 2>&1 &&
        riscv64-unknown-elf-objcopy -O binary "$BUILD/bus_test.elf" "$BUILD/bus_test.bin" &&
        od -An -v -tx4 -w4 "$BUILD/bus_test.bin" | tr -d ' ' >"$BUILD/bus_test.hex"; then
    ok "tests/fw/bus_test.S"
else
    bad "tests/fw/bus_test.S"; show "$BUILD/bus_test.log"
fi
if make -s -C sim/fw >"$BUILD/make.log" 2>&1; then
    ok "make -C sim/fw (build/bin/froce-fw-test, build/bin/froce-fw-dma-test)"
else
    bad "make -C sim/fw"; show "$BUILD/make.log"; finish
fi

section "3. Icarus"
if iverilog -g2005 -Wall -Irtl/include -Irtl/dma -o "$BUILD/tb_fw.vvp" \
        -P "tb_fw.INIT_FILE=\"build/firmware/froce-fw.hex\"" "$T/tb_fw.v" "${RTL[@]}" >"$BUILD/iverilog.log" 2>&1 &&
        [ ! -s "$BUILD/iverilog.log" ] &&
        timeout 60 vvp -n "$BUILD/tb_fw.vvp" >"$BUILD/tb_fw.log" 2>&1 && grep -q '^tb_fw: PASS' "$BUILD/tb_fw.log"; then
    ok "iverilog froce_fw: $(grep '^tb_fw: PASS' "$BUILD/tb_fw.log" | sed 's/^tb_fw: PASS //')"
else
    bad "iverilog froce_fw + tests/fw/tb_fw.v"; show "$BUILD/iverilog.log"; show "$BUILD/tb_fw.log"
fi

section "4. DMA engine"
if build/bin/froce-fw-dma-test >"$BUILD/dma.log" 2>&1; then
    ok "froce-fw-dma-test"; sed -n 's/^ok   /     /p' "$BUILD/dma.log"
else
    bad "froce-fw-dma-test"; show "$BUILD/dma.log"
fi

section "5. firmware on froce_fw"
for args in "" "--slow --seed 2"; do
    log="$BUILD/fw${args// /_}.log"
    if build/bin/froce-fw-test $args >"$log" 2>&1; then
        ok "froce-fw-test $args: $(tail -1 "$log" | sed 's/.*: //')"
    else
        bad "froce-fw-test $args"; grep -v '^ok' "$log" | tail -n 30 | sed 's/^/    /'
    fi
done
grep '^cycles:' "$BUILD/fw.log" | sed 's/^/     /'

section "6. bus test"
if build/bin/froce-fw-test --bus-test "$BUILD/bus_test.hex" >"$BUILD/bus.log" 2>&1; then
    ok "froce-fw-test --bus-test"; grep 'dma .* cycles' "$BUILD/bus.log" | sed 's/^ *bus| /     /'
else
    bad "froce-fw-test --bus-test"; show "$BUILD/bus.log"
fi

if [[ $MUTANTS -eq 1 ]]; then
    section "7. mutants"
    bash "$T/mutants.sh" >"$BUILD/mutants.log" 2>&1
    st=$?
    sed -n 's/^mutant/     mutant/p' "$BUILD/mutants.log"
    if [[ $st -eq 0 ]]; then ok "every mutant caught"; else bad "mutants"; show "$BUILD/mutants.log"; fi
fi

finish
