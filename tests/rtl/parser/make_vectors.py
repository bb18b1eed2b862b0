#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turns tests/vectors/rxe/icrc_vectors.csv into $readmemh files for the
Icarus parser bench: frames.mem (one byte a line), index.mem (per frame: start
byte, length) and expect.mem (per frame: opcode, PSN, destination QP, taken
from the CSV and the frame bytes by this script's own decoding).

usage: make_vectors.py CSV OUTDIR [--corrupt]
  --corrupt  flip one bit of each frame's ICRC (the bench then expects icrc-bad)
"""
import csv
import os
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    corrupt = "--corrupt" in sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    frames, index, expect = [], [], []
    with open(src) as f:
        for row in csv.DictReader(f):
            data = bytearray.fromhex(row["frame_hex"])
            if corrupt:
                data[-1] ^= 0x10
            # BTH position: after Ethernet, optional VLAN tag, IPv4 or IPv6, UDP
            l3 = 18 if data[12:14] == b"\x81\x00" else 14
            etype = data[l3 - 2:l3]
            bth = l3 + (20 if etype == b"\x08\x00" else 40) + 8
            dqpn = int.from_bytes(data[bth + 5:bth + 8], "big")
            index.append((len(frames), len(data)))
            frames.extend(data)
            expect.append((int(row["opcode"], 16), int(row["psn"]), dqpn))
    with open(os.path.join(out, "frames.mem"), "w") as f:
        f.write("\n".join(f"{b:02x}" for b in frames) + "\n")
    with open(os.path.join(out, "index.mem"), "w") as f:
        f.write("\n".join(f"{s:08x}{n:08x}" for s, n in index) + "\n")
    with open(os.path.join(out, "expect.mem"), "w") as f:
        f.write("\n".join(f"{o:02x}{p:06x}{q:06x}" for o, p, q in expect) + "\n")
    print(f"{len(index)} frames, {len(frames)} bytes -> {out}")


if __name__ == "__main__":
    main()
