#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Timing and utilisation table of an ECP5 place and route, from nextpnr-ecp5's
--report JSON. Exits 1 if a clock misses its constraint (2 if the report is
missing or unreadable).

    report.py REPORT.json [--title TEXT] [--no-paths] [--tsv]

For each clock nextpnr constrained (an input FREQUENCY in the LPF or --freq,
and the clocks it derives through PLLs): target, achieved Fmax, slack of
the worst path (target period minus achieved period, in ns) and met/MISSED;
then the resources (LUT4 = TRELLIS_COMB, the LUT4 half-slices, which also
hold the carry chains; FF = TRELLIS_FF) and, unless --no-paths, the start
and end of each clock's critical path with its logic and routing delay.
Clock-crossing paths are not judged: nextpnr reports them apart and the
design's crossings are asynchronous FIFOs and synchronisers.

--tsv prints one machine-readable line per clock instead:
clock, target, fmax, slack, result, LUT4, FF, DP16KD, MULT18X18D.
"""

import argparse
import json
import re
import sys

RESOURCES = [
    ("LUT4", "TRELLIS_COMB"),
    ("FF", "TRELLIS_FF"),
    ("DP16KD", "DP16KD"),
    ("MULT18X18D", "MULT18X18D"),
    ("EHXPLLL", "EHXPLLL"),
    ("DELAYG/F", "DELAYF"),         # nextpnr maps DELAYG onto the DELAYF bel
    ("IOLOGIC", "IOLOGIC"),
    ("I/O", "TRELLIS_IO"),
    ("DCC", "DCCA"),
]


def clock_name(name):
    """'posedge $glbnet$eth_rx_clk$TRELLIS_IO_IN' -> 'posedge eth_rx_clk': the net's own name."""
    name = re.sub(r"\$glbnet\$", "", name)
    return re.sub(r"\$TRELLIS_IO_IN", "", name)


def resource(util, bel):
    entry = util.get(bel)
    if not entry:
        return 0, 0
    return int(entry.get("used", 0)), int(entry.get("available", 0))


def path_summary(path):
    """(start cell, end cell, logic ns, routing ns, levels) of a critical path."""
    steps = path.get("path", [])
    logic = sum(s.get("delay", 0.0) for s in steps if s.get("type") != "routing")
    routing = sum(s.get("delay", 0.0) for s in steps if s.get("type") == "routing")
    levels = sum(1 for s in steps if s.get("type") == "logic")
    start = steps[0].get("from", {}).get("cell", "?") if steps else "?"
    end = steps[-1].get("to", {}).get("cell", "?") if steps else "?"
    return start, end, logic, routing, levels


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report")
    ap.add_argument("--title", default="")
    ap.add_argument("--no-paths", action="store_true")
    ap.add_argument("--tsv", action="store_true")
    args = ap.parse_args()

    try:
        with open(args.report) as f:
            rep = json.load(f)
    except (OSError, ValueError) as e:
        print(f"report: cannot read {args.report}: {e}", file=sys.stderr)
        return 2

    fmax = rep.get("fmax", {})
    util = rep.get("utilization", {})
    if not fmax:
        print(f"report: no clock in {args.report} (no FREQUENCY constraint reached a clock?)", file=sys.stderr)
        return 2

    clocks = []
    for name, v in sorted(fmax.items()):
        target = float(v.get("constraint", 0.0))
        got = float(v.get("achieved", 0.0))
        slack = (1000.0 / target - 1000.0 / got) if target > 0 and got > 0 else float("nan")
        met = got >= target
        clocks.append((clock_name(name), target, got, slack, met))
    counts = {label: resource(util, bel) for label, bel in RESOURCES}

    if args.tsv:
        for name, target, got, slack, met in clocks:
            print("\t".join([name, f"{target:.2f}", f"{got:.2f}", f"{slack:.2f}", "met" if met else "MISSED",
                             *(str(counts[k][0]) for k in ("LUT4", "FF", "DP16KD", "MULT18X18D"))]))
        return 0 if all(c[4] for c in clocks) else 1

    if args.title:
        print(args.title)
    print(f"{'clock':<28} {'target MHz':>10} {'Fmax MHz':>9} {'slack ns':>9}  result")
    for name, target, got, slack, met in clocks:
        print(f"{name:<28} {target:>10.2f} {got:>9.2f} {slack:>9.2f}  {'met' if met else 'MISSED'}")
    print()
    print(f"{'resource':<12} {'used':>7} {'of':>7} {'%':>6}")
    for label, _ in RESOURCES:
        used, avail = counts[label]
        if used or label in ("LUT4", "FF", "DP16KD", "MULT18X18D", "EHXPLLL"):
            pct = 100.0 * used / avail if avail else 0.0
            print(f"{label:<12} {used:>7} {avail:>7} {pct:>5.1f}%")

    if not args.no_paths:
        paths = rep.get("critical_paths", [])
        within = [p for p in paths if p.get("from") == p.get("to")]
        across = [p for p in paths if p.get("from") != p.get("to")]
        if within:
            print()
            print("critical path of each clock (nextpnr):")
        for p in within:
            start, end, logic, routing, levels = path_summary(p)
            print(f"  {clock_name(str(p.get('from', '?')))}: {logic + routing:.2f} ns ({logic:.2f} logic"
                  f" in {levels} cells, {routing:.2f} routing)")
            print(f"    from {start}")
            print(f"    to   {end}")
        if across:
            print()
            print("between clocks and ports (not judged: async FIFOs, synchronisers, pins):")
            for p in across:
                start, end, logic, routing, levels = path_summary(p)
                print(f"  {clock_name(str(p.get('from', '?')))} -> {clock_name(str(p.get('to', '?')))}:"
                      f" {logic + routing:.2f} ns")

    missed = [c[0] for c in clocks if not c[4]]
    if missed:
        print(f"\nTIMING MISSED: {', '.join(missed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
