#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What `make demo` shows:
#   1. every Linux rxe capture in $VECTORS through the RTL RX parser
#      (build/bin/froce-pcap check; any file it cannot read fails the demo)
#   2. the two-NIC co-simulation: froce-perf write, read, send and atomic
#      (64 KiB x 20, MTU 4096; atomics 20 fetch-add/compare-swap) with --pcap
#      into build/demo/, each printing its perftest-style table
#   3. the first 10 frames of each capture as tshark decodes them, then every
#      frame of every capture through tests/core/check_frames.py (scapy + ICRC,
#      tshark without a malformed or expert-error mark, the RTL parser)
#
#   bash scripts/demo.sh          (from anywhere; builds what is missing)
#
# Every step must pass; the demo stops at the first failure.
#
# Environment: VECTORS, else FROCE_VECTORS, else tests/vectors/rxe
# (relative to the repo root, as in the Makefile); DEMO_SIZE (default 65536),
# DEMO_ITERS (default 20), DEMO_MTU (default 4096), DEMO_NO_BUILD=1, FROCE_BUILD
# (where sim/core builds froce-perf, default build/).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

VECTORS="${VECTORS:-${FROCE_VECTORS:-tests/vectors/rxe}}"
PCAP_TOOL=build/bin/froce-pcap
BUILD_DIR="${FROCE_BUILD:-$ROOT/build}"
PERF="$BUILD_DIR/bin/froce-perf"
OUT=build/demo
SIZE="${DEMO_SIZE:-65536}"
ITERS="${DEMO_ITERS:-20}"
MTU="${DEMO_MTU:-4096}"
TSHARK="${TSHARK:-tshark}"
start=$SECONDS

if [[ "${DEMO_NO_BUILD:-0}" != 1 ]]; then
    make -s froce-pcap
    if ! make -s -C sim/core JOBS=2 BUILD="$BUILD_DIR" >/tmp/froce-demo-build.$$.log 2>&1; then
        tail -40 /tmp/froce-demo-build.$$.log
        rm -f /tmp/froce-demo-build.$$.log
        echo "demo: FAIL: make -C sim/core (froce-perf) did not build"
        exit 1
    fi
    rm -f /tmp/froce-demo-build.$$.log
fi

# ---- 1. rxe captures through the RTL parser --------------------------------
shopt -s nullglob
vecs=("$VECTORS"/*.pcap)
shopt -u nullglob
if [[ ${#vecs[@]} -eq 0 ]]; then
    echo "demo: FAIL: no .pcap files in $VECTORS (set VECTORS or FROCE_VECTORS to the rxe vector folder)"
    exit 1
fi
for f in "${vecs[@]}"; do
    echo "== $f"
    "$PCAP_TOOL" check "$f"
done

# ---- 2. two-NIC workloads ---------------------------------------------------
mkdir -p "$OUT"
captures=()
notes=()

# perf NAME ARGS...
perf() {
    local name="$1"
    shift
    echo
    echo "== froce-perf $name: $*"
    rm -f "$OUT/$name.pcap"
    local rc=0
    "$PERF" "$@" --pcap "$OUT/$name.pcap" 2>"$OUT/$name.stderr" || rc=$?
    if [[ $rc -eq 0 ]]; then
        captures+=("$name")
        notes+=("$name ok")
        return
    fi
    tail -5 "$OUT/$name.stderr" >&2 || true
    echo "demo: FAIL: froce-perf $name exited $rc"
    exit 1
}

perf write  write  --size "$SIZE" --iters "$ITERS" --mtu "$MTU"
perf read   read   --size "$SIZE" --iters "$ITERS" --mtu "$MTU"
perf send   send   --size "$SIZE" --iters "$ITERS" --mtu "$MTU"
perf atomic atomic --iters "$ITERS" --atomic-op mix

# ---- 3. what tshark sees ----------------------------------------------------
for name in "${captures[@]}"; do
    n=$("$TSHARK" -n -r "$OUT/$name.pcap" 2>/dev/null | wc -l)
    echo
    echo "== tshark -r $OUT/$name.pcap (first 10 of $n frames)"
    # the RPC-over-RDMA heuristic would take random SEND payloads for RPC
    "$TSHARK" -n -r "$OUT/$name.pcap" -c 10 --disable-heuristic rpcrdma_infiniband 2>/dev/null
done

echo
echo "== every frame of the captures: scapy + ICRC, tshark, the RTL parser"
files=()
for name in "${captures[@]}"; do files+=("$OUT/$name.pcap"); done
if ! /usr/bin/python3 tests/core/check_frames.py --mtu "$MTU" "${files[@]}"; then
    echo "demo: FAIL: tests/core/check_frames.py"
    exit 1
fi

echo
echo "demo: ok: ${#vecs[@]} rxe captures through the RTL parser; froce-perf: $(IFS=,; echo "${notes[*]}" | sed 's/,/, /g'); captures in $OUT/ ($((SECONDS - start)) s)"
