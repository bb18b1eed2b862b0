#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every frame the transport engine emits, checked by three decoders:
#
#   tests/core/frames.sh          (from anywhere)
#
# Builds froce-perf (make -C sim/core) and froce-pcap (make froce-pcap), runs
# froce-perf with --pcap on a clean wire (MTU 1024, 2 QPs):
#   write   0 B, 1000 B (1 packet, pad), 4096 B (4 packets), 5000 B (5, last short)
#   send    0 B, 1 B, 3000 B, 4097 B
#   --ipv6  write 3000 B, send 0 B
#   --inline write 100 B, send 61 B
#   read    0 B, 3000 B (3 responses), --ipv6 5000 B
#   atomic  fetch-and-add and compare-and-swap
#   froce-scenario ud: UD datagrams (0 B to the MTU, immediate, inline, IPv6)
# and runs tests/core/check_frames.py (scapy + ICRC, tshark, the RTL parser)
# on every capture, then its --self-test (damaged copies must be caught).
#
# Environment: FROCE_BUILD (where sim/core builds, default build/; froce-perf is
# $FROCE_BUILD/bin/froce-perf), FROCE_PCAP (default build/bin/froce-pcap),
# FRAMES_NO_BUILD=1 (use the binaries as they are), CORE_SEED (default 1),
# FRAMES_KEEP=1 (keep the captures; their directory is printed).
# Exit status: 0 only if every run that must pass passed and every frame passed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

BUILD_DIR="${FROCE_BUILD:-$ROOT/build}"
PERF="$BUILD_DIR/bin/froce-perf"
SCENARIO="$BUILD_DIR/bin/froce-scenario"
export FROCE_PCAP="${FROCE_PCAP:-$ROOT/build/bin/froce-pcap}"
PY=/usr/bin/python3
SEED="${CORE_SEED:-1}"
MTU=1024
COMMON=(--qps 2 --mtu "$MTU" --seed "$SEED" --idle-cycles 200000)
start=$SECONDS

OUT="$(mktemp -d /tmp/froce-frames.XXXXXX)"
if [[ "${FRAMES_KEEP:-0}" == 1 ]]; then
    echo "captures in $OUT"
else
    trap 'rm -rf "$OUT"' EXIT
fi

if [[ "${FRAMES_NO_BUILD:-0}" != 1 ]]; then
    echo "== build"
    mkdir -p "$BUILD_DIR"
    if ! make -s -C sim/core JOBS=2 BUILD="$BUILD_DIR" >"$OUT/build-core.log" 2>&1; then
        tail -40 "$OUT/build-core.log"
        echo "frames.sh: FAIL: make -C sim/core"
        exit 1
    fi
    if ! make -s froce-pcap >"$OUT/build-pcap.log" 2>&1; then
        tail -40 "$OUT/build-pcap.log"
        echo "frames.sh: FAIL: make froce-pcap"
        exit 1
    fi
    echo "built $PERF and $FROCE_PCAP"
fi

pcaps=()
failed=()

# capture NAME TOOL ARGS...: TOOL ARGS --pcap $OUT/NAME.pcap, the capture kept if it passed
capture() {
    local name="$1" tool="$2"
    shift 2
    local rc=0
    "$tool" "$@" --pcap "$OUT/$name.pcap" >"$OUT/$name.log" 2>&1 || rc=$?
    local res
    res="$(grep -m1 '^result: ' "$OUT/$name.log" || true)"
    if [[ $rc -eq 0 ]]; then
        echo "ran  $name: ${res#result: }"
        pcaps+=("$OUT/$name.pcap")
    else
        echo "FAIL $name: $(basename "$tool") exited $rc: ${res#result: }"
        tail -5 "$OUT/$name.log" | sed 's/^/      /'
        failed+=("$name")
    fi
}

# run NAME ARGS...: froce-perf ARGS on the common settings
run() {
    local name="$1"
    shift
    capture "$name" "$PERF" "$@" "${COMMON[@]}"
}

echo "== froce-perf runs (clean wire, mtu $MTU, 2 QPs, seed $SEED)"
run write-0     write --size 0    --iters 8
run write-1000  write --size 1000 --iters 8
run write-4096  write --size 4096 --iters 8
run write-5000  write --size 5000 --iters 6
run send-0      send  --size 0    --iters 8
run send-1      send  --size 1    --iters 8
run send-3000   send  --size 3000 --iters 8
run send-4097   send  --size 4097 --iters 6
run write-ipv6-3000 write --size 3000 --iters 6 --ipv6
run send-ipv6-0     send  --size 0    --iters 6 --ipv6
run write-inline-100 write --size 100 --iters 8 --inline
run send-inline-61   send  --size 61  --iters 8 --inline
run read-0      read   --size 0    --iters 4
run read-3000   read   --size 3000 --iters 6
run read-ipv6-5000 read --size 5000 --iters 4 --ipv6
run atomic-mix  atomic --iters 8 --atomic-op mix
capture scenario-ud "$SCENARIO" ud --seed "$SEED"

echo "== check_frames.py (${#pcaps[@]} captures)"
if [[ ${#pcaps[@]} -gt 0 ]]; then
    if ! "$PY" tests/core/check_frames.py --mtu "$MTU" "${pcaps[@]}"; then
        failed+=("check_frames")
    fi
fi

echo "== check_frames.py --self-test"
if [[ -f "$OUT/write-5000.pcap" && " ${pcaps[*]} " == *" $OUT/write-5000.pcap "* ]]; then
    if ! "$PY" tests/core/check_frames.py --self-test --mtu "$MTU" "$OUT/write-5000.pcap"; then
        failed+=("self-test")
    fi
else
    echo "FAIL self-test: no good write-5000 capture to damage"
    failed+=("self-test")
fi

echo
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "frames.sh: FAIL: ${failed[*]} ($((SECONDS - start)) s)"
    exit 1
fi
echo "frames.sh: ok: ${#pcaps[@]} captures, every frame checked ($((SECONDS - start)) s)"
