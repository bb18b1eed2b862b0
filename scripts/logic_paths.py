#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The longest register-to-register paths of an ECP5 netlist, in minutes
instead of a routed run: a ranking, not timing.

Reads a flattened Yosys JSON netlist after synth_ecp5 (the board build
writes build/fpga/ecpix5/froce_ecpix5.json; `make -C fpga/ecpix5 paths`
synthesises it and runs this) and walks every path from a register (a
TRELLIS_FF, a block RAM's outputs) through LUT4, PFUMX, L6MUX21, CCU2C and
LUT-RAM reads to a register input (FF data, enable and reset; block RAM
inputs; LUT-RAM writes). Delays are a model of the LFE5UM5G speed grade 8:
each routed net --net-delay ns (1.0; the slice's own LUT -> PFUMX -> L6MUX21
links and a carry chain's COUT -> CIN cost nothing), LUT4 0.24, CCU2C 0.45
(0.06 carry in to carry out), LUT-RAM read 0.45, FF clock to Q 0.4, block
RAM clock to output 3.9 (no output register). nextpnr's figures after
placement and routing are what count; this finds the paths to work on when
the design is too full to route in useful time, and the RTL lines they run
through (each cell's `src`).

    scripts/logic_paths.py build/fpga/ecpix5/froce_ecpix5.json
    scripts/logic_paths.py NETLIST.json --top froce_fw --paths 3 --groups 20
    scripts/logic_paths.py --self-test

Prints the worst paths cell by cell (arrival, cell type, RTL source, net),
then the worst path of each pair of (start file, end file), then a
histogram of the path ends. With --hubs N, also the N nets that the most
late path ends (arrival over --hub-min) have on their worst path: a
decision that gates many registers (a wait condition in every enable)
shows there, and registering it or narrowing its reach shortens all of
them at once.

    scripts/logic_paths.py NETLIST.json --paths 0 --groups 0 --hubs 20
"""

import argparse
import collections
import json
import os
import sys

CELL_ARCS = {
    # type: [(input port or "*" for every input, output port, delay)]
    "LUT4": [("A", "Z", 0.24), ("B", "Z", 0.24), ("C", "Z", 0.24), ("D", "Z", 0.24)],
    "PFUMX": [("ALUT", "Z", 0.05), ("BLUT", "Z", 0.05), ("C0", "Z", 0.2)],
    "L6MUX21": [("D0", "Z", 0.05), ("D1", "Z", 0.05), ("SD", "Z", 0.2)],
    "TRELLIS_DPR16X4": [("RAD", "DO", 0.45)],
}
CARRY_IN_TO_OUT, CARRY_IN_TO_SUM, CARRY_LOGIC = 0.06, 0.25, 0.45
START_DELAY = {"TRELLIS_FF": 0.4, "DP16KD": 3.9}
END_PORTS = {"TRELLIS_FF": ("DI", "CE", "LSR", "M"), "TRELLIS_DPR16X4": ("DI", "WAD", "WRE"),
             "DP16KD": None}    # None: every input but the clocks
SETUP = 0.1


def dedicated(src_port, dst_type, dst_port):
    """connections inside a slice or a carry chain: no general routing"""
    return ((src_port == "COUT" and dst_port == "CIN") or
            (dst_type == "PFUMX" and dst_port in ("ALUT", "BLUT")) or
            (dst_type == "L6MUX21" and dst_port in ("D0", "D1")))


def cell_arcs(cell):
    t = cell["type"]
    if t == "CCU2C":
        ins = [p for p, d in cell["port_directions"].items() if d == "input"]
        out = []
        for o in ("S0", "S1", "COUT"):
            for p in ins:
                if p == "CIN":
                    out.append((p, o, CARRY_IN_TO_OUT if o == "COUT" else CARRY_IN_TO_SUM))
                else:
                    out.append((p, o, CARRY_LOGIC))
        return out
    return CELL_ARCS.get(t, [])


class Netlist:
    def __init__(self, module, net_delay):
        self.cells = module["cells"]
        self.net_delay = net_delay
        self.names = {}
        for name, info in module["netnames"].items():
            for b in info["bits"]:
                if isinstance(b, int) and (b not in self.names or not info.get("hide_name", 0)):
                    self.names[b] = name
        self.driver = {}
        for cn, c in self.cells.items():
            for p, d in c["port_directions"].items():
                if d == "output":
                    for b in c["connections"].get(p, []):
                        if isinstance(b, int):
                            self.driver[b] = (cn, p)
        self.arcs = {cn: cell_arcs(c) for cn, c in self.cells.items()}
        self.arrival = {}       # bit -> (ns at its driver's output, the input bit on the path)

    def _compute(self):
        """arrival at every driven bit, in topological order (Kahn)"""
        fanin = {}          # output bit -> [(input bit, delay incl. its net)]
        for cn, cell in self.cells.items():
            arcs = self.arcs[cn]
            if cell["type"] in START_DELAY or not arcs:
                continue
            conns = cell["connections"]
            for ip, op, d in arcs:
                for ob in conns.get(op, []):
                    if not isinstance(ob, int):
                        continue
                    lst = fanin.setdefault(ob, [])
                    for ib in conns.get(ip, []):
                        if isinstance(ib, int):
                            src = self.driver.get(ib)
                            wire = 0.0 if src and dedicated(src[1], cell["type"], ip) else self.net_delay
                            lst.append((ib, wire + d))
        users = collections.defaultdict(list)
        waiting = {}
        for ob, lst in fanin.items():
            inner = [ib for ib, _ in lst if ib in fanin]
            waiting[ob] = len(inner)
            for ib in inner:
                users[ib].append(ob)
        for b, (cn, _) in self.driver.items():
            if b not in fanin:
                self.arrival[b] = (START_DELAY.get(self.cells[cn]["type"], 0.0), None)
        ready = [ob for ob, n in waiting.items() if n == 0]
        while ready:
            ob = ready.pop()
            best = (0.0, None)
            for ib, d in fanin[ob]:
                t = self.arrival.get(ib, (0.0, None))[0] + d
                if t > best[0]:
                    best = (t, ib)
            self.arrival[ob] = best
            for u in users[ob]:
                waiting[u] -= 1
                if waiting[u] == 0:
                    ready.append(u)
        loop = [ob for ob in fanin if ob not in self.arrival]
        if loop:
            cn = self.driver[loop[0]][0]
            raise SystemExit(f"logic_paths: combinational loop through {cn} ({len(loop)} bits)")

    def at(self, b):
        if not self.arrival:
            self._compute()
        return self.arrival.get(b, (0.0, None))[0]

    def endpoints(self):
        out = []
        for cn, c in self.cells.items():
            ports = END_PORTS.get(c["type"], ())
            if ports == ():
                continue
            for p, d in c["port_directions"].items():
                if d != "input" or (ports and p not in ports) or p.startswith("CLK") or p == "WCK":
                    continue
                for b in c["connections"].get(p, []):
                    if isinstance(b, int):
                        out.append((self.at(b) + self.net_delay + SETUP, cn, p, b))
        out.sort(key=lambda e: -e[0])
        return out

    def trail(self, b):
        bits = []
        while b is not None:
            bits.append(b)
            b = self.arrival.get(b, (0.0, None))[1]
        return bits[::-1]

    def src(self, cn):
        return self.cells[cn]["attributes"].get("src", "?").split("|")[0] if cn in self.cells else "?"

    def clock(self, cn):
        conns = self.cells[cn]["connections"]
        for p in ("CLK", "WCK", "CLKA", "CLKB"):
            if p in conns and isinstance(conns[p][0], int):
                return self.names.get(conns[p][0], "?")
        return "?"


def report(nl, n_paths, n_groups, out=sys.stdout):
    ends = nl.endpoints()
    shown, seen = 0, set()
    for t, cn, p, b in ends:
        if shown >= n_paths:
            break
        bits = nl.trail(b)
        start = nl.driver.get(bits[0], ("?", "?"))[0]
        key = (nl.src(start), nl.src(cn).split(":")[0])
        if key in seen:
            continue
        seen.add(key)
        shown += 1
        print(f"{t:6.2f} ns, {len(bits)} nets: to {cn}.{p} (clock {nl.clock(cn)})", file=out)
        for x in bits:
            dc = nl.driver.get(x, ("?", "?"))[0]
            # (a path of a block synthesised alone may start at its input port)
            typ = nl.cells[dc]["type"] if dc in nl.cells else "input"
            print(f"  {nl.at(x):6.2f}  {typ:15s} {nl.src(dc)[:60]:60s} {nl.names.get(x, '?')[:70]}",
                  file=out)
    groups = {}
    for t, cn, p, b in ends:
        bits = nl.trail(b)
        start = nl.driver.get(bits[0], ("?", "?"))[0]
        key = (nl.src(start).split(":")[0], nl.src(cn).split(":")[0])
        if key not in groups:
            groups[key] = (t, len(bits), f"{cn}.{p}", nl.clock(cn))
    print(f"\nworst path of each (start file, end file), {len(groups)} pairs:", file=out)
    for (s, e), (t, n, where, clk) in sorted(groups.items(), key=lambda kv: -kv[1][0])[:n_groups]:
        print(f"{t:6.2f} ns {n:3d} nets  {s:38s} -> {e:38s} {where[:70]} [{clk}]", file=out)
    hist = collections.Counter(int(t // 2) * 2 for t, *_ in ends)
    print("\npath ends by arrival (ns: count): " +
          ", ".join(f"{k}-{k + 2}: {v}" for k, v in sorted(hist.items())), file=out)
    return ends


def hubs(nl, ends, n_hubs, hub_min, out=sys.stdout):
    """the nets most shared by the worst paths of the ends later than hub_min"""
    late = [b for t, _, _, b in ends if t > hub_min]
    count = collections.Counter()
    for b in late:
        count.update(set(nl.trail(b)))
    print(f"\nnets on the worst path of the most of the {len(late)} ends over {hub_min:.1f} ns "
          f"(ends, arrival at the net, its driver):", file=out)
    rows = []
    for x, c in count.most_common(n_hubs):
        dc = nl.driver.get(x, ("?", "?"))[0]
        typ = nl.cells[dc]["type"] if dc in nl.cells else "input"
        print(f"{c:7d} {nl.at(x):6.2f}  {typ:15s} {nl.src(dc)[:50]:50s} {nl.names.get(x, '?')[:70]}", file=out)
        rows.append((x, c))
    return rows


def self_test():
    """A hand-made netlist: FF -> LUT -> LUT -> FF beside FF -> 4-cell
    carry chain -> FF and a block RAM output -> LUT -> FF."""
    cells, bit = {}, [10]

    def new():
        bit[0] += 1
        return bit[0]

    def cell(name, typ, ports):
        cells[name] = {"type": typ, "attributes": {"src": f"t.v:{name}"},
                       "port_directions": {p: d for p, (d, _) in ports.items()},
                       "connections": {p: [b] for p, (_, b) in ports.items()}}

    clk = 2
    q1, l1, l2 = new(), new(), new()
    cell("ff1", "TRELLIS_FF", {"CLK": ("input", clk), "DI": ("input", new()), "Q": ("output", q1)})
    cell("lut1", "LUT4", {"A": ("input", q1), "Z": ("output", l1)})
    cell("lut2", "LUT4", {"A": ("input", l1), "Z": ("output", l2)})
    cell("ff2", "TRELLIS_FF", {"CLK": ("input", clk), "DI": ("input", l2), "Q": ("output", new())})
    q3 = new()
    cell("ff3", "TRELLIS_FF", {"CLK": ("input", clk), "DI": ("input", new()), "Q": ("output", q3)})
    cin = None
    for i in range(4):
        cout, s0 = new(), new()
        ports = {"A0": ("input", q3), "COUT": ("output", cout), "S0": ("output", s0)}
        if cin is not None:
            ports["CIN"] = ("input", cin)
        cell(f"cc{i}", "CCU2C", ports)
        cin = cout
    cell("ff4", "TRELLIS_FF", {"CLK": ("input", clk), "DI": ("input", s0), "Q": ("output", new())})
    do, l3 = new(), new()
    cell("ram", "DP16KD", {"CLKA": ("input", clk), "DOA0": ("output", do)})
    cell("lut3", "LUT4", {"B": ("input", do), "Z": ("output", l3)})
    cell("ff5", "TRELLIS_FF", {"CLK": ("input", clk), "DI": ("input", l3), "Q": ("output", new())})
    module = {"cells": cells, "netnames": {"clk": {"bits": [clk]}}}
    nl = Netlist(module, 1.0)
    ends = {(cn, p): t for t, cn, p, _ in nl.endpoints()}
    want = {("ff2", "DI"): 0.4 + 1 + 0.24 + 1 + 0.24 + 1 + SETUP,
            ("ff4", "DI"): 0.4 + 1 + CARRY_LOGIC + 2 * CARRY_IN_TO_OUT + CARRY_IN_TO_SUM + 1 + SETUP,
            ("ff5", "DI"): 3.9 + 1 + 0.24 + 1 + SETUP}
    bad = [f"{k}: {ends.get(k)} != {v:.2f}" for k, v in want.items() if abs(ends.get(k, -1) - v) > 1e-9]
    order = [cn for _, cn, p, _ in nl.endpoints() if p == "DI"][:3]
    if order != ["ff5", "ff2", "ff4"]:
        bad.append(f"ranking {order}, expected ff5, ff2, ff4")
    if len(nl.trail(cells["ff2"]["connections"]["DI"][0])) != 3:
        bad.append("the ff2 path should be 3 nets long")
    # a hub: one LUT gating three registers is on all three of their paths
    h, g = new(), new()
    cell("ffh", "TRELLIS_FF", {"CLK": ("input", clk), "DI": ("input", new()), "Q": ("output", h)})
    cell("luth", "LUT4", {"A": ("input", h), "Z": ("output", g)})
    for i in range(3):
        o = new()
        cell(f"lutg{i}", "LUT4", {"A": ("input", g), "Z": ("output", o)})
        cell(f"ffg{i}", "TRELLIS_FF", {"CLK": ("input", clk), "DI": ("input", o), "Q": ("output", new())})
    nl = Netlist(module, 1.0)
    with open(os.devnull, "w") as quiet:
        rows = hubs(nl, nl.endpoints(), 2, 3.5, out=quiet)
    top = {x for x, c in rows if c == 3}
    if top != {h, g}:
        bad.append(f"hubs {rows}, expected bits {h} and {g} on 3 paths each")
    for b in bad:
        print(f"FAIL {b}")
    print("logic_paths self-test: " + ("ok" if not bad else f"{len(bad)} failure(s)"))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("netlist", nargs="?", help="Yosys JSON after synth_ecp5 (flattened)")
    ap.add_argument("--top", default="fpga", help="module (default fpga, the board top)")
    ap.add_argument("--net-delay", type=float, default=1.0, help="ns per routed net (default 1.0)")
    ap.add_argument("--paths", type=int, default=5, help="paths printed cell by cell (default 5)")
    ap.add_argument("--groups", type=int, default=40, help="(start, end) file pairs listed (default 40)")
    ap.add_argument("--hubs", type=int, default=0, help="nets most shared by late paths listed (default 0)")
    ap.add_argument("--hub-min", type=float, default=14.0, help="late: arrival over this, ns (default 14)")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.netlist:
        ap.error("a netlist is needed (or --self-test)")
    try:
        with open(a.netlist) as f:
            modules = json.load(f)["modules"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"logic_paths: cannot read a Yosys JSON netlist from {a.netlist}: {e}")
    if a.top not in modules:
        sys.exit(f"logic_paths: no module {a.top} in {a.netlist} (there are: {', '.join(sorted(modules)[:10])} ...)")
    nl = Netlist(modules[a.top], a.net_delay)
    ends = report(nl, a.paths, a.groups)
    if a.hubs:
        hubs(nl, ends, a.hubs, a.hub_min)
    return 0


if __name__ == "__main__":
    sys.exit(main())
