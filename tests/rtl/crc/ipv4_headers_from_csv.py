#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Extract the IPv4 headers (plain and VLAN-tagged) of the rxe vector CSV into
a $readmemh file for tests/rtl/crc/froce_ipv4_csum_tb.v.

One line per header: 160-bit hex of the froce_ipv4_csum `header` port, i.e.
byte 0 (version/IHL) in bits [7:0], so the bytes appear reversed in the text.
Every header is checked here with a software checksum first, so a bad input
file cannot make the RTL test pass vacuously.

Usage: ipv4_headers_from_csv.py <icrc_vectors.csv> <out.memh>
"""

import csv
import sys


def ones_sum(hdr):
    s = 0
    for i in range(0, len(hdr), 2):
        s += (hdr[i] << 8) | hdr[i + 1]
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, dst = sys.argv[1], sys.argv[2]
    lines = []
    skipped = 0
    with open(src, newline="") as f:
        for row in csv.DictReader(f):
            frame = bytes.fromhex(row["frame_hex"])
            ip = 14
            ethertype = int.from_bytes(frame[12:14], "big")
            if ethertype == 0x8100:
                ip = 18
                ethertype = int.from_bytes(frame[16:18], "big")
            if ethertype != 0x0800:
                continue
            if frame[ip] != 0x45:
                # options would not fit the 20-byte module; none in the vectors
                skipped += 1
                continue
            hdr = frame[ip:ip + 20]
            if ones_sum(hdr) != 0xFFFF:
                print("ipv4_headers_from_csv: FAIL: %s frame %s: header checksum "
                      "is wrong in the CSV" % (row["file"], row["frame"]), file=sys.stderr)
                return 1
            lines.append(hdr[::-1].hex())
    if not lines:
        print("ipv4_headers_from_csv: FAIL: no IPv4 headers in %s" % src, file=sys.stderr)
        return 1
    with open(dst, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("ipv4_headers_from_csv: %d IPv4 headers -> %s (%d with options skipped)"
          % (len(lines), dst, skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
