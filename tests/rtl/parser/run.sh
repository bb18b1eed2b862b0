#!/usr/bin/env bash
# The RX parser under Icarus Verilog on every Linux rxe frame, at two widths,
# with the ICRC intact (all must be OK) and with one ICRC bit flipped (all must
# be ICRC_BAD). Runs from the repository root.
set -euo pipefail
vectors=${FROCE_VECTORS:-tests/vectors/rxe}
out=build/tests/parser
mkdir -p "$out"
src=(rtl/common/*.v rtl/crc/*.v rtl/roce/*.v tests/rtl/parser/froce_rx_parser_tb.v)
nframes=$(($(wc -l < "$vectors/icrc_vectors.csv") - 1))
fail=0
for mode in good corrupt; do
	dir=$out/$mode
	if [[ $mode == corrupt ]]; then
		/usr/bin/python3 tests/rtl/parser/make_vectors.py "$vectors/icrc_vectors.csv" "$dir" --corrupt
		verdict=1
	else
		/usr/bin/python3 tests/rtl/parser/make_vectors.py "$vectors/icrc_vectors.csv" "$dir"
		verdict=0
	fi
	nbytes=$(wc -l < "$dir/frames.mem")
	for width in 64 512; do
		iverilog -g2005 -Wall -Irtl/include -Irtl/crc -s froce_rx_parser_tb \
			-P froce_rx_parser_tb.DATA_WIDTH=$width -P froce_rx_parser_tb.NFRAMES=$nframes \
			-P froce_rx_parser_tb.EXPECT_VERDICT=$verdict -P froce_rx_parser_tb.NBYTES=$nbytes \
			-o "$dir/tb$width.vvp" "${src[@]}" 2> "$dir/iverilog$width.log" || {
			cat "$dir/iverilog$width.log"; exit 1; }
		result=$(cd "$dir" && vvp -n "tb$width.vvp" | tee "run$width.log" | grep -E '^(PASS|FAIL)' || true)
		echo "$mode width $width: ${result:-no result}" | head -5
		grep -q '^PASS' <<< "$result" && ! grep -q '^FAIL' <<< "$result" || fail=1
	done
done
exit $fail
