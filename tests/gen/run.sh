#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Tests of the generated hardware interface (spec/ -> scripts/gen_hw.py ->
# include/froce_hw.h, rtl/include/froce_hw.vh, rtl/roce/froce_opcode_info.v,
# docs/hw-interface.md). Run from anywhere: tests/gen/run.sh
#
# Required tools: python3 (>= 3.11), gcc, verilator, iverilog. Optional, each
# skipped with a notice when absent: g++, clang, riscv64-unknown-elf-gcc,
# Debian kernel headers (/usr/src/linux-headers-*-amd64, or KDIR=...).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

step() { printf '== %s\n' "$*"; }
skip() { printf '   SKIP: %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }

cflags=(-Wall -Wextra -Werror -Iinclude)
src=tests/gen/hw_header_test.c

step "generated files are current (scripts/gen_hw.py --check)"
python3 scripts/gen_hw.py --check

step "C: gcc -std=c11 -pedantic, run against the rxe frames"
gcc -std=c11 -pedantic "${cflags[@]}" "$src" -o "$tmp/hw_header_test"
"$tmp/hw_header_test" tests/gen/vectors/rxe_frames.csv

step "C: freestanding -nostdinc -D__KERNEL__ (no includes, no types)"
gcc -std=gnu11 -ffreestanding -nostdinc -D__KERNEL__ -DFROCE_FREESTANDING "${cflags[@]}" \
	-c "$src" -o "$tmp/free.o"

step "C: clang"
if have clang; then
	clang -std=c11 -pedantic "${cflags[@]}" "$src" -o "$tmp/hw_header_test_clang"
	"$tmp/hw_header_test_clang" tests/gen/vectors/rxe_frames.csv
else skip "clang not installed"; fi

step "C++: g++ -std=c++17 (simulator models)"
if have g++; then
	g++ -std=c++17 -pedantic -DFROCE_FREESTANDING "${cflags[@]}" -x c++ -fsyntax-only "$src"
else skip "g++ not installed"; fi

step "C: rv32 firmware target (32-bit long)"
if have riscv64-unknown-elf-gcc; then
	riscv64-unknown-elf-gcc -march=rv32i_zicsr -mabi=ilp32 -std=c11 -pedantic -ffreestanding \
		-DFROCE_FREESTANDING "${cflags[@]}" -c "$src" -o "$tmp/rv32.o"
else skip "riscv64-unknown-elf-gcc not installed"; fi

step "kernel: out-of-tree module with FIELD_PREP/FIELD_GET/GENMASK"
kdir=${KDIR:-$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1 || true)}
if [[ -n $kdir && -f $kdir/Makefile ]]; then
	cp -r tests/gen/kmod "$tmp/kmod"
	make -s -C "$kdir" M="$tmp/kmod" FROCE_INC="$root/include" W=1 modules 2>&1 |
		{ grep -v "Skipping BTF generation" || true; }
	test -f "$tmp/kmod/froce_hw_kmod.ko"
else skip "no kernel headers (set KDIR)"; fi

step "Verilog: verilator --lint-only -Wall"
verilator --lint-only -Wall rtl/roce/froce_opcode_info.v
verilator --lint-only -Wall -Irtl/include tests/gen/lint_top.v rtl/roce/froce_opcode_info.v

step "spec rules, opcode decoder simulation, staleness check can fail"
python3 tests/gen/test_gen.py

step "tests/gen: all passed"
