#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two simulated ECPIX-5 boards whose Ethernet ports are cabled together.

    sim/ecpix5/pair.py DIR [--pcap] [-- extra froce-ecpix5-sim arguments]

Starts build/bin/froce-ecpix5-sim twice, the boards' RGMII lines joined by a
datagram socketpair, their UARTs listening on DIR/a.uart and DIR/b.uart
(froce_uart_link: unix:DIR/a.uart), and writes DIR/ready when both are up.
Runs until SIGINT/SIGTERM or until a simulator exits; then stops the other
and exits with the first non-zero status (0 if both were stopped by us).
With --pcap each board writes DIR/a.pcap, DIR/b.pcap (its own view).
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SIM = os.environ.get("FROCE_ECPIX5_SIM") or os.path.join(ROOT, "build", "bin", "froce-ecpix5-sim")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--pcap", action="store_true")
    ap.add_argument("extra", nargs="*", help="more froce-ecpix5-sim arguments (after --)")
    args = ap.parse_args()
    if not os.access(SIM, os.X_OK):
        sys.exit("pair.py: %s missing (make -C sim/ecpix5)" % SIM)
    os.makedirs(args.dir, exist_ok=True)
    ready = os.path.join(args.dir, "ready")
    if os.path.exists(ready):
        os.unlink(ready)
    wa, wb = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    procs = []
    for name, wire in (("a", wa), ("b", wb)):
        wire.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
        wire.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        wire.set_inheritable(True)
        cmd = [SIM, "--uart", "unix:" + os.path.join(args.dir, name + ".uart"),
               "--wire-fd", str(wire.fileno()),
               "--ready-file", os.path.join(args.dir, name + ".ready")]
        if args.pcap:
            cmd += ["--pcap", os.path.join(args.dir, name + ".pcap")]
        log = open(os.path.join(args.dir, name + ".log"), "w")
        procs.append(subprocess.Popen(cmd + args.extra, stdin=subprocess.DEVNULL, stdout=log,
                                      stderr=subprocess.STDOUT, pass_fds=(wire.fileno(),)))
        wire.close()
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    deadline = time.monotonic() + 30
    while not all(os.path.exists(os.path.join(args.dir, n + ".ready")) for n in "ab"):
        if any(p.poll() is not None for p in procs) or time.monotonic() > deadline:
            for p in procs:
                if p.poll() is None:
                    p.terminate()
            sys.exit("pair.py: a simulator did not start (logs in %s)" % args.dir)
        time.sleep(0.05)
    with open(ready, "w") as f:
        f.write("ready\n")
    rc = 0
    while not stop and all(p.poll() is None for p in procs):
        time.sleep(0.1)
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            r = p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            r = p.wait()
        if r not in (0, -signal.SIGTERM) and rc == 0:
            rc = r if r > 0 else 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
