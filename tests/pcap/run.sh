#!/usr/bin/env bash
# Run the froce-pcap test suite (tests/pcap).  Exits non-zero if any test fails.
#
#   tests/pcap/run.sh [test_name ...]      e.g. tests/pcap/run.sh test_bitflip
#
# Environment:
#   FROCE_PCAP     the tool            (default: <repo>/build/bin/froce-pcap)
#   FROCE_VECTORS  rxe golden vectors  (default: <repo>/tests/vectors/rxe)
#   FROCE_SEED     seed for --stall runs and random frames (default 12345)
#   PYTHON         interpreter with scapy (default /usr/bin/python3)
#   TSHARK         tshark binary       (default: tshark on PATH)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"
py=${PYTHON:-/usr/bin/python3}

"$py" -c 'import scapy.contrib.roce' 2>/dev/null || { echo "run.sh: $py has no scapy (apt install python3-scapy)" >&2; exit 2; }
command -v "${TSHARK:-tshark}" >/dev/null || { echo "run.sh: tshark not found" >&2; exit 2; }

# test_icrc_model needs no tool: it checks the suite's own ICRC and decoder.
tests=(test_icrc_model test_rxe_vectors test_rebuild test_bitflip test_malformed test_scapy_crosscheck)
if [[ $# -gt 0 ]]; then tests=("$@"); fi

failed=()
start=$SECONDS
for t in "${tests[@]}"; do
	t=${t%.py}
	echo "=== $t"
	t0=$SECONDS
	if "$py" "$here/$t.py"; then
		echo "=== $t: passed ($((SECONDS - t0)) s)"
	else
		echo "=== $t: FAILED ($((SECONDS - t0)) s)"
		failed+=("$t")
	fi
done

echo
if [[ ${#failed[@]} -gt 0 ]]; then
	echo "tests/pcap: ${#failed[@]} of ${#tests[@]} failed: ${failed[*]} ($((SECONDS - start)) s)"
	exit 1
fi
echo "tests/pcap: all ${#tests[@]} passed ($((SECONDS - start)) s)"
