#!/usr/bin/env bash
# froce firmware tests, one entry point: cross-build the RV32 image, build and
# run the native unit tests under ASan + UBSan with gcc and with clang, then
# the fuzz target for FUZZ_SECONDS (default 20) from its seed corpus.
# Ends with a summary; exits non-zero if any step failed.
#
#   firmware/tests/run.sh                  from anywhere
#   FUZZ_SECONDS=300 firmware/tests/run.sh longer fuzzing
set -uo pipefail

cd "$(dirname "$0")/.."
OUT=$(cd .. && pwd)/build/firmware
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
JOBS=${JOBS:-2}
results=()
failed=0

step() {
	local name=$1
	shift
	echo "=== $name"
	local t0=$SECONDS
	if "$@"; then
		results+=("PASS  $name ($((SECONDS - t0)) s)")
	else
		results+=("FAIL  $name ($((SECONDS - t0)) s)")
		failed=$((failed + 1))
	fi
}

for tool in riscv64-unknown-elf-gcc gcc clang; do
	command -v "$tool" >/dev/null || { echo "run.sh: $tool missing (make deps)"; exit 1; }
done

step "RV32 image (rv32i_zicsr, no libgcc)" make -s image
step "build native tests and fuzz target" make -s -j"$JOBS" "$OUT/fw-tests-gcc" "$OUT/fw-tests-clang" \
	"$OUT/fuzz-fw" "$OUT/fuzz-seeds"
step "unit tests, gcc -fsanitize=address,undefined" "$OUT/fw-tests-gcc"
step "unit tests, clang -fsanitize=address,undefined" "$OUT/fw-tests-clang"
step "fuzz ${FUZZ_SECONDS} s (libFuzzer, ASan + UBSan)" make -s fuzz FUZZ_SECONDS="$FUZZ_SECONDS"

echo
echo "=== firmware summary"
if [[ -f $OUT/froce-fw.elf ]]; then
	riscv64-unknown-elf-size "$OUT/froce-fw.elf" | awk 'NR == 2 { printf "image: text %d + data %d bytes, bss %d\n", $1, $2, $3 }'
	start=$(riscv64-unknown-elf-nm "$OUT/froce-fw.elf" | awk '$3 == "_arena_start" { print $1 }')
	end=$(riscv64-unknown-elf-nm "$OUT/froce-fw.elf" | awk '$3 == "_arena_end" { print $1 }')
	echo "table arena left in the RAM: $((16#$end - 16#$start)) bytes"
fi
printf '%s\n' "${results[@]}"
echo "firmware: $((${#results[@]} - failed)) passed, $failed failed"
exit $((failed > 0))
