#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cross-check the ECPIX-5 LPF against the ports of fpga.v.

    check_lpf.py fpga.v ecpix5.lpf

Every bit of every port of module fpga must have exactly one LOCATE (on a
site no other port uses) and an IOBUF with an IO_TYPE; every LOCATE, IOBUF
and FREQUENCY must name a port bit (nextpnr only warns about a name that
matches nothing, and places an unconstrained port anywhere); clk100 and
eth_rx_clk must have a FREQUENCY. Prints one line per problem and exits 1
if there is any.
"""

import re
import sys


def ports(path):
    text = open(path).read()
    m = re.search(r"module\s+fpga\s*#\s*\(.*?\)\s*\((.*?)\);", text, re.S)
    if not m:
        sys.exit(f"check_lpf: no module fpga in {path}")
    body = re.sub(r"//[^\n]*|/\*.*?\*/", "", m.group(1), flags=re.S)
    bits = {}
    for d, msb, lsb, name in re.findall(r"\b(input|output|inout)\s+wire\s*(?:\[(\d+):(\d+)\])?\s*(\w+)", body):
        if msb:
            for i in range(min(int(msb), int(lsb)), max(int(msb), int(lsb)) + 1):
                bits[f"{name}[{i}]"] = d
        else:
            bits[name] = d
    return bits


def main():
    bits = ports(sys.argv[1])
    locate, iotype, freq = {}, set(), set()
    problems = []
    for n, line in enumerate(open(sys.argv[2]), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.match(r'LOCATE\s+COMP\s+"([^"]+)"\s+SITE\s+"([^"]+)"\s*;$', line)
        if m:
            if m.group(1) in locate:
                problems.append(f"line {n}: {m.group(1)} located twice")
            locate[m.group(1)] = m.group(2)
            continue
        m = re.match(r'IOBUF\s+PORT\s+"([^"]+)"\s+(.*);$', line)
        if m:
            if "IO_TYPE=" in m.group(2):
                iotype.add(m.group(1))
            if m.group(1) not in bits:
                problems.append(f"line {n}: IOBUF for '{m.group(1)}', not a port of fpga")
            continue
        m = re.match(r'FREQUENCY\s+PORT\s+"([^"]+)"\s+[0-9.]+\s+MHZ\s*;$', line)
        if m:
            freq.add(m.group(1))
            if m.group(1) not in bits:
                problems.append(f"line {n}: FREQUENCY for '{m.group(1)}', not a port of fpga")
            continue
        problems.append(f"line {n}: not understood: {line}")

    for name in locate:
        if name not in bits:
            problems.append(f"LOCATE for '{name}', not a port of fpga")
    for name in bits:
        if name not in locate:
            problems.append(f"port {name} has no LOCATE")
        if name not in iotype:
            problems.append(f"port {name} has no IO_TYPE")
    sites = {}
    for name, site in locate.items():
        if site in sites:
            problems.append(f"site {site} given to {sites[site]} and {name}")
        sites[site] = name
    for clk in ("clk100", "eth_rx_clk"):
        if clk not in freq:
            problems.append(f"no FREQUENCY on {clk}")

    for p in problems:
        print(p)
    if not problems:
        print(f"{len(bits)} port bits, each located once with an I/O standard; clocks constrained")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
