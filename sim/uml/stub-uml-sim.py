#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A stand-in for build/bin/froce-uml-sim with the same command line, for
testing the harness's froce topologies without the simulator:
  FROCE_UML_SIM=sim/uml/stub-uml-sim.py sim/uml/cosim.py --topology froce-rxe ...
It listens on each --sock, writes --ready-file, and closes every connection at
once (no device: the guests boot without a froce NIC, so their setup fails).
It holds --wire-fd open and exits 0 on SIGTERM."""
import argparse
import os
import select
import signal
import socket
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sock", action="append", required=True)
    ap.add_argument("--ready-file", required=True)
    ap.add_argument("--wire-fd", type=int)
    ap.add_argument("--pcap")
    a = ap.parse_args()
    if a.wire_fd is not None:
        os.fstat(a.wire_fd)   # must have been inherited
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    listeners = []
    for path in a.sock:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        s.listen(4)
        listeners.append(s)
    with open(a.ready_file, "w") as f:
        f.write("ready\n")
    print("stub-uml-sim: listening on %s" % " ".join(a.sock), flush=True)
    try:
        while True:
            for s in select.select(listeners, [], [])[0]:
                conn, _ = s.accept()
                print("stub-uml-sim: connection on %s closed" % s.getsockname(), flush=True)
                conn.close()
    finally:
        for path in a.sock:
            os.unlink(path)


if __name__ == "__main__":
    main()
