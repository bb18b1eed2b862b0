#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Soft-core tests: builds froce-cpu-sim and the ISA tests, runs them on
# Verilator and Icarus, and checks the negative controls. Ends with
# "cpu tests: N passed, M failed" and exits non-zero on any failure.
#
#   tests/cpu/run.sh            (from anywhere; builds into build/tests/cpu/)
#
# Steps:
#   1. lint of rtl/cpu (scripts/lint.sh) and of the Icarus bench
#   2. build build/bin/froce-cpu-sim (sim/cpu) and every tests/cpu/isa/*.S;
#      check that every RV32I/Zicsr/M-mode mnemonic appears in them
#   3. every ISA test on froce-cpu-sim: exit 0 and a PASS line; mmio.S also
#      with MMIO wait states (--mmio-accept/--mmio-latency) and its console line
#      compared; one test linked at address 0 instead of 0x80000000
#   4. negative controls: a test that fails test 7 must exit 1 naming test 7;
#      one that never writes tohost must hit --max-cycles (exit 3); bad inputs
#      (not an ELF, 64-bit, wrong machine, no tohost, segment outside RAM,
#      missing file, bad option) must exit 2 with a message saying why
#   5. every ISA test on Icarus (tests/cpu/tb_cpu.v, image via
#      scripts/elf2hex.py and $readmemh): froce_cpu_top with the same cycle
#      count as Verilator, and the bare core with random wait states on both
#      ports (two seeds; all but timing.S, which asserts 1-cycle memory)
#   6. mutants: each of a few deliberate bugs in a copy of froce_cpu.v must
#      make at least one ISA test fail on Icarus (the tests can fail)
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

BUILD=build/tests/cpu
T=tests/cpu
SIM=build/bin/froce-cpu-sim
RTL=(rtl/cpu/froce_cpu_top.v rtl/cpu/froce_cpu.v rtl/cpu/froce_cpu_ram.v)
CC=riscv64-unknown-elf-gcc
CFLAGS=(-march=rv32i_zicsr -mabi=ilp32 -nostdlib -nostartfiles -Wl,--no-warn-rwx-segments
        -I"$T/isa" -Isim/cpu)
PYTHON=/usr/bin/python3

mkdir -p "$BUILD"
passed=0
failed=0

section() { echo; echo "== $*"; }
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
# show LOG: the last lines of a log under a failure
show() { tail -n 15 "$1" | sed 's/^/    /'; }

for tool in "$CC" verilator iverilog vvp; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool not found (scripts/deps.sh)"; exit 2; }
done

section "1. lint"
if bash scripts/lint.sh "${RTL[@]}" >"$BUILD/lint.log" 2>&1; then
    ok "scripts/lint.sh rtl/cpu ($(grep -c '^lint: ok' "$BUILD/lint.log") checks)"
else
    bad "scripts/lint.sh rtl/cpu"; show "$BUILD/lint.log"
fi
if iverilog -g2005 -Wall -o "$BUILD/lint_tb.vvp" -P 'tb_cpu.INIT_FILE="x"' "$T/tb_cpu.v" "${RTL[@]}" >"$BUILD/lint_tb.log" 2>&1 &&
        [ ! -s "$BUILD/lint_tb.log" ]; then
    ok "iverilog -g2005 -Wall tests/cpu/tb_cpu.v"
else
    bad "iverilog -g2005 -Wall tests/cpu/tb_cpu.v"; show "$BUILD/lint_tb.log"
fi

section "2. build"
if make -s -C sim/cpu >"$BUILD/make.log" 2>&1; then
    ok "make -C sim/cpu ($SIM)"
else
    bad "make -C sim/cpu"; show "$BUILD/make.log"
    echo; echo "cpu tests: $passed passed, $failed failed"; exit 1
fi
TESTS=()
for src in "$T"/isa/*.S; do
    name=$(basename "$src" .S)
    if "$CC" "${CFLAGS[@]}" -T "$T/link.ld" -o "$BUILD/$name.elf" "$src" >"$BUILD/$name.cc.log" 2>&1; then
        TESTS+=("$name")
    else
        bad "build $src"; show "$BUILD/$name.cc.log"
    fi
done
ok "built ${#TESTS[@]} ISA tests: ${TESTS[*]}"
# every RV32I, Zicsr and machine-mode instruction appears in the tests
# (base mnemonics: objdump -M no-aliases; FENCE.I is a .word, see misc.S)
ALL_INSNS="lui auipc jal jalr beq bne blt bge bltu bgeu lb lh lw lbu lhu sb sh sw
    addi slti sltiu xori ori andi slli srli srai add sub sll slt sltu xor srl sra or and
    fence fence.tso ecall ebreak csrrw csrrs csrrc csrrwi csrrsi csrrci mret wfi"
used=$(for name in "${TESTS[@]}"; do riscv64-unknown-elf-objdump -d -M no-aliases "$BUILD/$name.elf"; done |
    awk -F'\t' 'NF >= 3 {split($3, w, " "); print w[1]}' | sort -u)
missing=""
for i in $ALL_INSNS; do grep -qx "$i" <<<"$used" || missing+=" $i"; done
if [ -z "$missing" ]; then
    ok "every RV32I/Zicsr/M-mode instruction is in the tests ($(wc -w <<<"$ALL_INSNS") mnemonics)"
else
    bad "instructions no test uses:$missing"
fi

section "3. ISA tests on froce-cpu-sim (Verilator)"
total_cycles=0
total_instret=0
declare -A vl_cycles
for name in "${TESTS[@]}"; do
    log="$BUILD/$name.vl.log"
    "$SIM" "$BUILD/$name.elf" >"$BUILD/$name.out" 2>"$log"
    rc=$?
    if [ $rc -eq 0 ] && grep -q "^froce-cpu-sim: PASS" "$log"; then
        read -r cyc ins < <(sed -n 's/^froce-cpu-sim: cycles \([0-9]*\) instret \([0-9]*\) .*/\1 \2/p' "$log")
        vl_cycles[$name]=$cyc
        total_cycles=$((total_cycles + cyc))
        total_instret=$((total_instret + ins))
        ok "$name ($(grep '^froce-cpu-sim: cycles' "$log" | cut -d' ' -f2-))"
    else
        bad "$name (exit $rc)"; show "$log"
    fi
done
if [ "$total_instret" -gt 0 ]; then
    echo "ISA tests together: cycles $total_cycles instret $total_instret" \
        "cpi $(echo "scale=3; $total_cycles / $total_instret" | bc)"
fi
expect_console="froce-cpu console: hello from mmio.S"
for wl in "0 1" "1 2" "3 5" "7 1"; do
    set -- $wl
    log="$BUILD/mmio_$1_$2.log"
    "$SIM" --mmio-accept "$1" --mmio-latency "$2" "$BUILD/mmio.elf" >"$BUILD/mmio_$1_$2.out" 2>"$log"
    rc=$?
    if [ $rc -eq 0 ] && [ "$(cat "$BUILD/mmio_$1_$2.out")" = "$expect_console" ]; then
        ok "mmio with --mmio-accept $1 --mmio-latency $2, console output as expected"
    else
        bad "mmio with --mmio-accept $1 --mmio-latency $2 (exit $rc)"; show "$log"
        echo "    console: $(head -c 200 "$BUILD/mmio_$1_$2.out")"
    fi
done
# the same test linked at address 0: the simulator puts its RAM there
sed 's/ORIGIN = 0x80000000/ORIGIN = 0x00000000/' "$T/link.ld" >"$BUILD/link0.ld"
if "$CC" "${CFLAGS[@]}" -T "$BUILD/link0.ld" -o "$BUILD/alu_imm_at0.elf" "$T/isa/alu_imm.S" >"$BUILD/at0.log" 2>&1 &&
        "$SIM" "$BUILD/alu_imm_at0.elf" >>"$BUILD/at0.log" 2>&1 &&
        [ "$(riscv64-unknown-elf-readelf -h "$BUILD/alu_imm_at0.elf" | awk '/Entry/ {print $4}')" = 0x0 ]; then
    ok "alu_imm linked at 0x00000000 passes"
else
    bad "alu_imm linked at 0x00000000"; show "$BUILD/at0.log"
fi

section "4. negative controls"
# expect NAME STATUS PATTERN -- COMMAND...: exit status and a line matching PATTERN
expect() {
    local name=$1 want=$2 pattern=$3
    shift 4
    local log="$BUILD/neg_$name.log" rc
    "$@" >"$log" 2>&1
    rc=$?
    if [ "$rc" -eq "$want" ] && grep -qE -- "$pattern" "$log"; then
        ok "$name: exit $rc, $(grep -E -- "$pattern" "$log" | head -n 1)"
    else
        bad "$name: exit $rc (want $want and /$pattern/)"; show "$log"
    fi
}
cc_neg() { "$CC" "${CFLAGS[@]}" "$@" >>"$BUILD/neg_build.log" 2>&1 || bad "build $*"; }
: >"$BUILD/neg_build.log"
cc_neg -T "$T/link.ld" -o "$BUILD/neg_fail.elf" "$T/neg/neg_fail.S"
cc_neg -T "$T/link.ld" -o "$BUILD/neg_hang.elf" "$T/neg/neg_hang.S"
cc_neg -T "$T/link.ld" -o "$BUILD/no_tohost.elf" "$T/neg/no_tohost.S"
# link.ld plus a section 64 KiB above the RAM's start
sed 's|^    _end = .;|    .far 0x80010000 : { *(.far) }\n&|' "$T/link.ld" >"$BUILD/link_far.ld"
cc_neg -T "$BUILD/link_far.ld" -o "$BUILD/far_segment.elf" "$T/neg/far_segment.S"
"$CC" -march=rv64i_zicsr -mabi=lp64 -nostdlib -nostartfiles -I"$T/isa" -Isim/cpu -o "$BUILD/rv64.elf" \
    "$T/neg/neg_hang.S" >>"$BUILD/neg_build.log" 2>&1 || bad "build rv64.elf"
echo "this is not an ELF file" >"$BUILD/not_elf.elf"
# an RV32 ELF with e_machine changed to x86-64 (62)
$PYTHON -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[18:20] = (62).to_bytes(2, "little"); open(sys.argv[2], "wb").write(b)' \
    "$BUILD/neg_fail.elf" "$BUILD/x86.elf"

expect fail-test-7 1 "^froce-cpu-sim: FAIL .*: test 7 failed" -- "$SIM" "$BUILD/neg_fail.elf"
expect never-tohost 3 "^froce-cpu-sim: TIMEOUT .*no tohost write in 5000 cycles" -- "$SIM" --max-cycles 5000 "$BUILD/neg_hang.elf"
expect not-elf 2 "is not an ELF file" -- "$SIM" "$BUILD/not_elf.elf"
expect elf64 2 "is not a 32-bit ELF" -- "$SIM" "$BUILD/rv64.elf"
expect wrong-machine 2 "is not a RISC-V ELF \(e_machine 62\)" -- "$SIM" "$BUILD/x86.elf"
expect no-tohost 2 "no tohost symbol" -- "$SIM" "$BUILD/no_tohost.elf"
expect far-segment 2 "segment at 0x80010000 .* lies outside the 64 KiB RAM at 0x80000000" -- "$SIM" "$BUILD/far_segment.elf"
expect missing-file 2 "cannot open" -- "$SIM" "$BUILD/does_not_exist.elf"
expect bad-option 2 "unknown option --bogus" -- "$SIM" --bogus "$BUILD/neg_fail.elf"
expect bad-max-cycles 2 "--max-cycles needs a non-negative integer" -- "$SIM" --max-cycles x "$BUILD/neg_fail.elf"
expect elf2hex-far 2 "lies outside the 64 KiB RAM" -- $PYTHON scripts/elf2hex.py "$BUILD/far_segment.elf" "$BUILD/far.hex"

section "5. ISA tests on Icarus"
# the $readmemh image and the plusargs of each test, made once
declare -A plusargs
for name in "${TESTS[@]}"; do
    if info=$($PYTHON scripts/elf2hex.py "$BUILD/$name.elf" "$BUILD/$name.hex"); then
        base=$(sed -n 's/.*base=0x\([0-9a-f]*\).*/\1/p' <<<"$info")
        entry=$(sed -n 's/.*entry=0x\([0-9a-f]*\).*/\1/p' <<<"$info")
        tohost=$(sed -n 's/.*tohost=0x\([0-9a-f]*\).*/\1/p' <<<"$info")
        plusargs[$name]="+ram_base=$base +boot=$entry +tohost=$tohost +max_cycles=50000"
    else
        bad "elf2hex $name"
    fi
done
# icarus_run NAME VVP SEED: the bench's result line. The benches read
# build/tests/cpu/image.hex, so the image is copied there first.
icarus_run() {
    cp "$BUILD/$1.hex" "$BUILD/image.hex"
    # shellcheck disable=SC2086  # plusargs is a list
    vvp -n "$2" ${plusargs[$1]} +seed="$3" | grep -E '^(PASS|FAIL|TIMEOUT)'
}
build_tb() { # MODE OUT [core file]
    iverilog -g2005 -o "$2" -P tb_cpu.MODE="$1" -P "tb_cpu.INIT_FILE=\"$BUILD/image.hex\"" \
        "$T/tb_cpu.v" rtl/cpu/froce_cpu_top.v "${3:-rtl/cpu/froce_cpu.v}" rtl/cpu/froce_cpu_ram.v
}
build_tb 0 "$BUILD/tb_top.vvp" || bad "iverilog tb_cpu MODE=0"
build_tb 1 "$BUILD/tb_core.vvp" || bad "iverilog tb_cpu MODE=1"
for name in "${TESTS[@]}"; do
    res=$(icarus_run "$name" "$BUILD/tb_top.vvp" 1)
    cyc=$(sed -n 's/^PASS cycles=\([0-9]*\).*/\1/p' <<<"$res")
    if [ -n "$cyc" ] && [ "$cyc" = "${vl_cycles[$name]:-x}" ]; then
        ok "icarus top  $name: $res (same cycles as Verilator)"
    else
        bad "icarus top  $name: ${res:-no result} (Verilator: ${vl_cycles[$name]:-none})"
    fi
    # timing.S asserts 1-cycle memory timing: not for the wait-state bench
    [ "$name" = timing ] && continue
    for seed in 1 7; do
        res=$(icarus_run "$name" "$BUILD/tb_core.vvp" "$seed")
        if [[ $res == PASS* ]]; then
            ok "icarus core $name seed $seed (random wait states): $res"
        else
            bad "icarus core $name seed $seed (random wait states): ${res:-no result}"
        fi
    done
done

section "6. mutants (each must fail at least one ISA test on Icarus)"
# NAME, original text, replacement in rtl/cpu/froce_cpu.v: three entries each
# (no separator to escape: the texts are Verilog, full of | and &)
MUTANTS=(
    sra-zero-fill
    "wire        shift_fill = funct7_5 && rf_rdata1_reg[31];"
    "wire        shift_fill = 1'b0;"
    no-load-sign-extension
    "{{24{load_shifted[7] && !funct3[2]}}, load_shifted[7:0]}"
    "{24'd0, load_shifted[7:0]}"
    x0-writable
    "wire [31:0] rs1_val = pd_reg[PD_RS1_ZERO] ? 32'd0 : rf_rdata1_reg;"
    "wire [31:0] rs1_val = rf_rdata1_reg;"
    x0-predecoded-from-rd
    "predecode[PD_RS2_ZERO]  = w[24:20] == 5'd0;"
    "predecode[PD_RS2_ZERO]  = w[11:7] == 5'd0;"
    meie-ignored
    "wire irq_ext_pending   = irq_external && mie_meie_reg;"
    "wire irq_ext_pending   = irq_external;"
    no-misaligned-jal-trap
    "wire        jump_misaligned = pd_reg[PD_JAL_ODD] ||"
    "wire        jump_misaligned = 1'b0 ||"
    jal-odd-from-wrong-bit
    "predecode[PD_JAL_ODD]   = op == OPC_JAL && w[21];"
    "predecode[PD_JAL_ODD]   = op == OPC_JAL && w[20];"
    no-misaligned-jalr-trap
    "(is_jalr && sum_lo[1])"
    "(1'b0 && sum_lo[1])"
    low-address-bits-no-carry
    "^ (rs1_val[0] & op_b[0]), rs1_val[0]"
    ", rs1_val[0]"
    no-misaligned-branch-trap
    "(branch_odd && odd_pass_reg && odd_taken_reg);"
    "1'b0;"
    odd-branch-not-stalled
    "wire odd_stall   = in_exec && branch_odd"
    "wire odd_stall   = 1'b0 && branch_odd"
    illegal-never-predecoded
    "illegal_reg <= insn_illegal(ibus_rsp_rdata);"
    "illegal_reg <= 1'b0;"
    traps-retire
    "wire retire    = exec_done || (mem_done && !dbus_rsp_err);"
    "wire retire    = trap || exec_done || (mem_done && !dbus_rsp_err);"
    bltu-signed
    "        3'b110:  branch_cond = lt_u;       // BLTU"
    "        3'b110:  branch_cond = lt_s;       // BLTU"
    fast-fetch-ignores-irq
    "wire exec_fast   = in_exec && seq_reg && !irq_take;"
    "wire exec_fast   = in_exec && seq_reg;"
    branches-sequential
    "op == OPC_LUI || op == OPC_AUIPC || op == OPC_MISC_MEM"
    "op == OPC_LUI || op == OPC_AUIPC || op == OPC_MISC_MEM || op == OPC_BRANCH"
    store-offset-as-load
    "wire [31:0] fw_op_b_imm = fw[6:0] == OPC_STORE ?"
    "wire [31:0] fw_op_b_imm = 1'b0 ?"
    sub-as-add
    "predecode[PD_SUB]       = op == OPC_OP && w[30];"
    "predecode[PD_SUB]       = 1'b0;"
)
for ((mi = 0; mi < ${#MUTANTS[@]}; mi += 3)); do
    mname=${MUTANTS[mi]}
    from=${MUTANTS[mi + 1]}
    to=${MUTANTS[mi + 2]}
    mut="$BUILD/mutant_$mname.v"
    if ! $PYTHON - "$from" "$to" rtl/cpu/froce_cpu.v "$mut" <<'EOF'
import sys
old, new, src, dst = sys.argv[1:5]
text = open(src).read()
if text.count(old) != 1:
    sys.exit(f"mutant text found {text.count(old)} times: {old}")
open(dst, "w").write(text.replace(old, new))
EOF
    then
        bad "mutant $mname: could not apply"
        continue
    fi
    build_tb 0 "$BUILD/tb_mutant.vvp" "$mut" >/dev/null 2>&1 || { bad "mutant $mname: does not compile"; continue; }
    caught=""
    for name in "${TESTS[@]}"; do
        res=$(icarus_run "$name" "$BUILD/tb_mutant.vvp" 1)
        if [[ $res != PASS* ]]; then
            caught=" $name (${res:-no result})"
            break
        fi
    done
    if [ -n "$caught" ]; then
        ok "mutant $mname caught by:$caught"
    else
        bad "mutant $mname: every ISA test still passes"
    fi
done

echo
echo "cpu tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
