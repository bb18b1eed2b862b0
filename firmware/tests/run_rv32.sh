#!/usr/bin/env bash
# The firmware's unit tests on froce's soft core: the same test cases as the
# native run (tests/test_*.c, model_hal.c, check.c, tutil.c), cross-built for
# RV32 with picolibc and run on froce_cpu in Verilator (froce-cpu-sim, a
# 4 MiB-RAM build of sim/cpu). Results come back through tohost (1 = pass,
# N << 1 | 1 = test group N failed) and the console. Ends with a summary;
# exits non-zero on any failure.
#
#   firmware/tests/run_rv32.sh                         from anywhere
#   RV32_RANDOM_MASKS=200 firmware/tests/run_rv32.sh   fewer random masks in test_trans.c
#
# Steps:
#   1. build (make -C firmware rv32-build): froce-cpu-sim with 4 MiB of RAM
#      from sim/cpu, the test images, the native reference build
#   2. negative controls: three images with a planted fault (tests/rv32/plant.c)
#      must fail naming their test group: a wrong CMD_STATUS (CHECK failures),
#      an unaligned control-bus write (model abort), a misaligned load (trap)
#   3. the suite in two images (fw-tests-rv32-p0/p1.elf) side by side, one per
#      core, each bounded by --max-cycles; their console lines as they come
#   4. their checks and MODIFY_QP cases added up must equal the native
#      reference's (fw-tests-ref: the same sources and random masks, built
#      with gcc for the host)
set -uo pipefail

cd "$(dirname "$0")/.."
ROOT=$(cd .. && pwd)
OUT=$ROOT/build/firmware
SIM=$OUT/rv32-sim/bin/froce-cpu-sim
MASKS=${RV32_RANDOM_MASKS:-2000}
MAX_CYCLES=${RV32_MAX_CYCLES:-3000000000}	# per image; each half takes about 1.3e9
PICOLIBC=/usr/lib/picolibc/riscv64-unknown-elf
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
show() { tail -n 15 "$1" | sed 's/^/    /'; }
summary() {
	echo
	echo "firmware on core: $passed passed, $failed failed"
	exit $((failed > 0))
}

for tool in riscv64-unknown-elf-gcc verilator gcc stdbuf; do
	command -v "$tool" >/dev/null || { echo "run_rv32.sh: $tool missing (make deps)"; exit 2; }
done
[[ -f $PICOLIBC/lib/release/rv32i/ilp32/libc.a ]] ||
	{ echo "run_rv32.sh: picolibc-riscv64-unknown-elf missing (make deps)"; exit 2; }
mkdir -p "$OUT"

echo "== 1. build (random masks per (type, state, next): $MASKS)"
t0=$SECONDS
if make -s -j2 rv32-build RV32_RANDOM_MASKS="$MASKS" >"$OUT/rv32-build.log" 2>&1; then
	ok "make -C firmware rv32-build ($((SECONDS - t0)) s): $SIM, fw-tests-rv32-{p0,p1,neg1,neg2,neg3}.elf, fw-tests-ref"
else
	bad "make -C firmware rv32-build"; show "$OUT/rv32-build.log"
	summary
fi

echo
echo "== 2. negative controls (planted faults must fail, naming their test group)"
# neg NAME STATUS GROUP PATTERN: exit STATUS, "test GROUP failed" and PATTERN
neg() {
	local log=$OUT/rv32-$1.log rc
	"$SIM" --max-cycles 200000000 "$OUT/fw-tests-rv32-$1.elf" >"$log" 2>&1
	rc=$?
	if [[ $rc -eq $2 ]] && grep -q "^froce-cpu-sim: FAIL .*: test $3 failed" "$log" && grep -qE -- "$4" "$log"; then
		ok "$1: exit $rc, $(grep -m1 -E -- "$4" "$log"); $(grep -m1 '^froce-cpu-sim: FAIL' "$log" | sed 's/.*: test/test/')"
	else
		bad "$1: exit $rc (want $2, test $3 failed and /$4/)"; show "$log"
	fi
}
neg neg1 1 1 "^firmware unit tests: [0-9]+ checks, [1-9][0-9]* failed"
neg neg2 1 3 "^model_hal: unaligned control write"
neg neg3 1 4 "^unit-rv32: trap mcause=0x4 "

echo
echo "== 3. the unit tests on the core, two halves side by side (--max-cycles $MAX_CYCLES each)"
t0=$SECONDS
for p in p0 p1; do
	{
		stdbuf -oL "$SIM" --max-cycles "$MAX_CYCLES" "$OUT/fw-tests-rv32-$p.elf" 2>&1
		echo $? >"$OUT/rv32-$p.rc"
	} | stdbuf -oL sed "s/^/[$p] /" | tee "$OUT/rv32-$p.log" &
done
wait
wall=$((SECONDS - t0))
echo
total_cycles=0
total_instret=0
total_checks=0
total_cases=0
for p in p0 p1; do
	log=$OUT/rv32-$p.log
	rc=$(cat "$OUT/rv32-$p.rc" 2>/dev/null || echo none)
	read -r cyc ins < <(sed -n 's/^\[..\] froce-cpu-sim: cycles \([0-9]*\) instret \([0-9]*\) .*/\1 \2/p' "$log")
	checks=$(sed -n 's/^\[..\] firmware unit tests: \([0-9]*\) checks.*/\1/p' "$log")
	cases=$(sed -n 's/^\[..\] transitions: \([0-9]*\) MODIFY_QP cases.*/\1/p' "$log")
	total_cycles=$((total_cycles + ${cyc:-0}))
	total_instret=$((total_instret + ${ins:-0}))
	total_checks=$((total_checks + ${checks:-0}))
	total_cases=$((total_cases + ${cases:-0}))
	if [[ $rc == 0 ]] && grep -q "^\[$p\] froce-cpu-sim: PASS" "$log"; then
		ok "$p: $(sed -n 's/^\[..\] firmware unit tests: //p' "$log"); $(sed -n 's/^\[..\] froce-cpu-sim: //p' "$log" | tail -n 1)"
	else
		bad "$p: exit $rc: $(grep -h '^\[..\] froce-cpu-sim: \(FAIL\|TIMEOUT\)' "$log" | sed 's/^\[..\] //')"
		grep -h '^\[..\] \(FAIL\|unit-rv32:\|model_hal:\)' "$log" | head -n 10 | sed 's/^/    /'
	fi
done

echo
echo "== 4. the same cases as the native run"
ref=$("$OUT/fw-tests-ref" 2>&1)
ref_checks=$(sed -n 's/^firmware unit tests: \([0-9]*\) checks, 0 failed$/\1/p' <<<"$ref")
ref_cases=$(sed -n 's/^transitions: \([0-9]*\) MODIFY_QP cases.*/\1/p' <<<"$ref")
if [[ -z $ref_checks ]]; then
	bad "native reference fw-tests-ref failed"; tail -n 5 <<<"$ref" | sed 's/^/    /'
elif [[ $total_checks -eq $ref_checks && $total_cases -eq $ref_cases ]]; then
	ok "on the core: $total_checks checks and $total_cases MODIFY_QP cases, as natively (fw-tests-ref)"
else
	bad "on the core: $total_checks checks, $total_cases MODIFY_QP cases; natively $ref_checks and $ref_cases"
fi

echo
if [[ $total_instret -gt 0 ]]; then
	echo "core: cycles $total_cycles instret $total_instret cpi $(echo "scale=3; $total_cycles / $total_instret" | bc)" \
		"(both halves); wall $wall s for the halves"
fi
summary
