#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The simulated ECPIX-5 board (sim/ecpix5: fpga_core in Verilator with its
# UART, RGMII PHY and MDIO models) driven by the host tools over its UART
# socket, no UML:
#   1. one board, cable unplugged: the link INFO, BAR0, the host-memory
#      window; the PHY reports no link and LINK_STATUS says so; froce-pingpong
#      refuses to run without a port (negative control of the MDIO path)
#   2. two boards cabled (sim/ecpix5/pair.py): both links up at 1 Gb/s;
#      froce-pingpong -c between them both ways, at sizes and MTUs of our
#      choosing, every message checked; the simulators see no malformed
#      frame or UART byte
# Also the host library's unit tests (make -C fpga/common/host test).
# Ends with "N passed, N failed". About 2 minutes.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=$ROOT/build/fpga_ecpix5/board_sim
LOGS=$BUILD/logs
rm -rf "$BUILD"
mkdir -p "$LOGS"
source "$ROOT/tests/lib/checks.sh"
UART=$ROOT/build/fpga_common/host/froce-uart
PP=$ROOT/build/fpga_common/host/froce-pingpong
SIM=$ROOT/build/bin/froce-ecpix5-sim
export FROCE_UART_TIMEOUT_MS=5000
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT

section "build"
if make -s -C "$ROOT/sim/ecpix5" >"$LOGS/build-sim.log" 2>&1; then ok "froce-ecpix5-sim"; else bad "froce-ecpix5-sim" "$LOGS/build-sim.log"; fi
if make -s -C "$ROOT/fpga/common/host" >"$LOGS/build-host.log" 2>&1; then ok "host tools"; else bad "host tools" "$LOGS/build-host.log"; fi
# the board library and froce-pingpong against a model of the bridge and
# firmware, their images against the driver's and the provider's encoders
if make -s -C "$ROOT/fpga/common/host" test >"$LOGS/host-unit.log" 2>&1; then
    ok "host unit tests ($(grep -E 'passed, 0 failed' "$LOGS/host-unit.log" | tr '\n' ' '))"
else
    bad "host unit tests" "$LOGS/host-unit.log"
fi
[[ $failed -eq 0 ]] || { summary; exit 1; }

expect_eq() { # NAME GOT WANT
    if [[ $2 == "$3" ]]; then ok "$1 ($2)"; else bad "$1: got '$2', want '$3'"; fi
}

section "1. one board, unplugged"
"$SIM" --uart "unix:$BUILD/solo.uart" --ready-file "$BUILD/solo.ready" >"$LOGS/solo-sim.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [[ -f $BUILD/solo.ready ]] && break; sleep 0.1; done
L=(-d "unix:$BUILD/solo.uart")
info=$("$UART" "${L[@]}" info 2>&1)
expect_eq "INFO: window" "$(awk '/^mem_size/ {print $2}' <<<"$info")" "0x10000"
expect_eq "INFO: vectors" "$(awk '/^vectors/ {print $2}' <<<"$info")" "8"
expect_eq "BAR0 ID" "$("$UART" "${L[@]}" r32 0x0 2>&1)" "0xf0ce1234"
if "$UART" "${L[@]}" memtest 0x10000e000 8192 7 >"$LOGS/memtest.log" 2>&1; then ok "memtest of the window's top 8 KiB"; else bad "memtest" "$LOGS/memtest.log"; fi
if "$UART" "${L[@]}" memtest 0x100010000 8 >"$LOGS/memtest-out.log" 2>&1; then
    bad "memtest past the window (accepted)" "$LOGS/memtest-out.log"
else
    ok "memtest past the window refused"
fi
sleep 1
expect_eq "LINK_STATUS unplugged" "$("$UART" "${L[@]}" r32 0x50 2>&1)" "0x00000000"
if timeout 300 "$PP" --link "unix:$BUILD/solo.uart" --ip 10.88.0.1 --mac 02:00:00:88:00:01 \
        --peer-mac 02:00:00:88:00:02 -n 1 --timeout-ms 3000 >"$LOGS/pp-nolink.log" 2>&1; then
    bad "froce-pingpong without a link (ran)" "$LOGS/pp-nolink.log"
elif grep -qi "port" "$LOGS/pp-nolink.log"; then
    ok "froce-pingpong without a link: refused ($(grep -i -m1 port "$LOGS/pp-nolink.log" | cut -c1-70))"
else
    bad "froce-pingpong without a link: no port message" "$LOGS/pp-nolink.log"
fi
kill "${pids[0]}"
wait "${pids[0]}" 2>/dev/null
if grep -q "stats:.*framing errors 0" "$LOGS/solo-sim.log"; then ok "solo: no UART framing errors"; else bad "solo sim log" "$LOGS/solo-sim.log"; fi
pids=()

section "2. two boards, cabled"
"$ROOT/sim/ecpix5/pair.py" "$BUILD/pair" >"$LOGS/pair.log" 2>&1 &
pids+=($!)
for _ in $(seq 300); do [[ -f $BUILD/pair/ready ]] && break; sleep 0.1; done
# the PHY reports the link 50 us into simulated time, the poller reads it
# every simulated millisecond: wait for it (a loaded machine simulates slowly)
for b in a b; do
    st=
    for _ in $(seq 120); do
        st=$("$UART" -d "unix:$BUILD/pair/$b.uart" r32 0x50 2>&1)
        [[ $st == 0x00000101 ]] && break
        sleep 0.5
    done
    expect_eq "LINK_STATUS board $b" "$st" "0x00000101"
done

# pingpong SERVER_BOARD CLIENT_BOARD NAME ARGS...: froce-pingpong on both
# boards (TCP over localhost), the server checking the client's data (-c)
pingpong() {
    local srv=$1 cli=$2 name=$3
    shift 3
    local -A ips=([a]=1 [b]=2)
    local common=(-c --timeout-ms 600000 "$@")
    timeout 900 "$PP" --link "unix:$BUILD/pair/$srv.uart" --ip 10.88.0.${ips[$srv]} --mac 02:00:00:88:00:0${ips[$srv]} \
        --peer-mac 02:00:00:88:00:0${ips[$cli]} "${common[@]}" >"$LOGS/$name-server.log" 2>&1 &
    local s=$!
    local rc=1
    for _ in $(seq 30); do
        sleep 2
        timeout 900 "$PP" --link "unix:$BUILD/pair/$cli.uart" --ip 10.88.0.${ips[$cli]} --mac 02:00:00:88:00:0${ips[$cli]} \
            --peer-mac 02:00:00:88:00:0${ips[$srv]} "${common[@]}" localhost >"$LOGS/$name-client.log" 2>&1
        rc=$?
        grep -q "Couldn't connect" "$LOGS/$name-client.log" || break
    done
    wait $s
    local rs=$?
    if [[ $rc -eq 0 && $rs -eq 0 ]] && grep -q "iters in" "$LOGS/$name-server.log" &&
            grep -q "iters in" "$LOGS/$name-client.log" && ! grep -q "invalid data" "$LOGS/$name-server.log"; then
        ok "$name: $(grep -m1 'iters in' "$LOGS/$name-client.log")"
    else
        bad "$name (server exit $rs, client exit $rc)" "$LOGS/$name-server.log"
        tail -n 10 "$LOGS/$name-client.log" | sed 's/^/      /'
    fi
}
pingpong a b "pingpong a->b 1000 B MTU 1024" -n 8 -s 1000
pingpong b a "pingpong b->a 5000 B MTU 512" -n 4 -s 5000 -m 512
pingpong a b "pingpong a->b 64 B MTU 256" -n 10 -s 64 -m 256

kill "${pids[0]}"
wait "${pids[0]}"
for b in a b; do
    if grep -q "stats:" "$BUILD/pair/$b.log" && grep -q "framing errors 0" "$BUILD/pair/$b.log" &&
            grep -q "(bad fcs 0 bad preamble 0 tx_er 0 runts 0)" "$BUILD/pair/$b.log" &&
            grep -Eq "frames to FPGA [1-9][0-9]* from FPGA [1-9]" "$BUILD/pair/$b.log"; then
        ok "board $b: clean frames and UART bytes ($(grep -o 'frames to FPGA [0-9]* from FPGA [0-9]*' "$BUILD/pair/$b.log"))"
    else
        bad "board $b simulator stats" "$BUILD/pair/$b.log"
    fi
done
pids=()
summary
