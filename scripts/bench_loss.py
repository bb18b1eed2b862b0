#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Loss-recovery figures of the transport engine (make bench; not a test).

Two parts, each a set of froce-perf runs between two simulated NICs
(DATA_WIDTH 64, 156.25 MHz modelled), run two at a time:

  goodput   WRITE, READ and SEND of 1 MiB at MTU 1024 and 4096, drop rates
            0 .. 5 %: Gb/s and the fraction of the clean goodput kept
  envelope  sizes from 1000 bytes to 16 MiB (odd ones too), MTU 256..4096,
            drop 0.1 .. 5 % with reordering and duplication, WRITE, READ and
            SEND, one and several QPs, depth 1 and 16, seeds from a list

Every run verifies every byte and completion (froce-perf exits non-zero
otherwise); a run that fails, stalls or ends with a retry-exceeded error is
reported as FAIL and makes this script exit 1. Writes build/bench/loss/
goodput.csv, envelope.csv and goodput.png (matplotlib), and prints the
Markdown tables that docs/performance.md records.

  scripts/bench_loss.py [--part goodput|envelope|all] [--op write|read|send ...]
                        [--jobs N] [--quick] [--replot]

--op measures only those operations again and keeps the other operations'
rows from the previous CSVs, so the tables and the plot stay whole.
"""
import argparse
import concurrent.futures
import csv
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PERF = os.path.join(ROOT, "build", "bin", "froce-perf")
OUT = os.path.join(ROOT, "build", "bench", "loss")

BW_RE = re.compile(r"^ (\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s*$", re.M)
WIRE_RE = re.compile(r"A->B sent (\d+) delivered (\d+) dropped (\d+) dup (\d+) reordered (\d+)")
RETRANS_RE = re.compile(r"^retrans (\S+): (.*)$", re.M)

MIB = 1 << 20


def run(case):
    """One froce-perf run; returns the case with its figures."""
    args = [PERF, case["op"], "--size", str(case["size"]), "--iters", str(case["iters"]),
            "--mtu", str(case["mtu"]), "--qps", str(case["qps"]), "--depth", str(case["depth"]),
            "--seed", str(case["seed"]), "--page-shift", "21"]
    for k in ("drop", "reorder", "dup"):
        if case.get(k):
            args += ["--" + k, str(case[k])]
    t0 = time.time()
    p = subprocess.run(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = dict(case)
    out["host_s"] = round(time.time() - t0, 1)
    out["ok"] = p.returncode == 0 and "\nresult: ok" in p.stdout
    m = BW_RE.search(p.stdout)
    out["gbps"] = float(m.group(3)) if m else 0.0
    out["cycles"] = int(m.group(6)) if m else 0
    out["us_per_msg"] = round(out["cycles"] * 6.4e-3 / max(1, case["iters"]), 1) if m else 0.0
    w = WIRE_RE.search(p.stdout)
    out["a_sent"] = int(w.group(1)) if w else 0
    out["a_dropped"] = int(w.group(3)) if w else 0
    fig = {}
    for name, rest in RETRANS_RE.findall(p.stdout):
        for kv in re.finditer(r"(\w+) (\d+)", rest):
            fig[name + "_" + kv.group(1)] = int(kv.group(2))
    # the requester is A for every op; READ responses and ACKs come from B
    out["timeouts"] = fig.get("A_timeouts", 0)
    out["adaptive"] = fig.get("A_adaptive_timeouts", 0)
    out["naks"] = fig.get("A_seq_naks_rcvd", 0)
    if not out["ok"]:
        tail = [l for l in p.stdout.splitlines() if l.startswith("result:")]
        out["why"] = tail[-1] if tail else f"exit {p.returncode}"
    return out


def goodput_cases(quick):
    drops = [0.0, 0.001, 0.01, 0.05] if quick else [0.0, 0.001, 0.005, 0.01, 0.02, 0.05]
    cases = []
    for op in ("write", "read", "send"):
        for mtu in (1024, 4096):
            for d in drops:
                cases.append(dict(part="goodput", op=op, size=MIB, iters=4, mtu=mtu, qps=1,
                                  depth=4, drop=d, reorder=0.0, dup=0.0, seed=101))
    return cases


def envelope_cases(quick):
    # (size, mtu, qps, depth, iters): every size class at several MTUs, QP
    # counts and depths; the total bytes of a run kept to a few tens of MiB
    shapes = [
        (1000, 256, 1, 1, 60), (1000, 4096, 4, 16, 40), (1024, 1024, 1, 16, 200),
        (65537, 256, 2, 16, 20), (65536, 2048, 1, 1, 30), (65536, 4096, 4, 16, 12),
        (MIB + 3, 512, 1, 1, 3), (MIB, 1024, 4, 16, 3), (MIB - 5, 4096, 2, 16, 4),
        (3 * MIB + 7, 2048, 1, 16, 3),
        (16 * MIB, 1024, 1, 1, 1), (16 * MIB, 4096, 2, 16, 1), (16 * MIB - 1, 256, 1, 16, 1),
    ]
    faults = [  # (drop, reorder, dup)
        (0.001, 0.0, 0.0), (0.01, 0.0, 0.0), (0.05, 0.0, 0.0), (0.02, 0.02, 0.0), (0.03, 0.03, 0.03),
        (0.05, 0.05, 0.05),
    ]
    seeds = [7, 23, 1009, 424242, 99991]
    cases = []
    i = 0
    for op in ("write", "read", "send"):
        for shape in shapes:
            size, mtu, qps, depth, iters = shape
            if quick and size >= 16 * MIB:
                continue
            drop, reorder, dup = faults[i % len(faults)]
            cases.append(dict(part="envelope", op=op, size=size, iters=iters, mtu=mtu, qps=qps, depth=depth,
                              drop=drop, reorder=reorder, dup=dup, seed=seeds[i % len(seeds)]))
            i += 1
    return cases


def fault_str(c):
    parts = [f"drop {c['drop'] * 100:g}%"]
    if c.get("reorder"):
        parts.append(f"reorder {c['reorder'] * 100:g}%")
    if c.get("dup"):
        parts.append(f"dup {c['dup'] * 100:g}%")
    return ", ".join(parts)


INT_KEYS = ("size", "iters", "mtu", "qps", "depth", "seed", "cycles", "a_sent", "a_dropped", "naks", "adaptive",
            "timeouts")
FLOAT_KEYS = ("drop", "reorder", "dup", "gbps", "us_per_msg", "host_s")


def read_csv(path):
    """Rows written by write_csv, with their types back."""
    if not os.path.exists(path):
        return []
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            r = dict(r)
            for k in INT_KEYS:
                r[k] = int(r[k] or 0)
            for k in FLOAT_KEYS:
                r[k] = float(r[k] or 0)
            r["ok"] = r["ok"] == "True"
            rows.append(r)
    return rows


def keep_previous(results, part, ops, path, cases):
    """results plus the previous run's rows of the operations not measured
    now, in the order of the full case list."""
    old = [r for r in read_csv(path) if r["op"] not in ops]
    rows = [r for r in results if r["part"] == part] + old
    shape = lambda r: (r["op"], r["size"], r["mtu"], r["qps"], r["depth"], r["drop"], r["reorder"], r["dup"])
    order = {shape(c): i for i, c in enumerate(cases)}
    return sorted(rows, key=lambda r: order.get(shape(r), len(order)))


def write_csv(path, rows):
    keys = ["part", "op", "size", "iters", "mtu", "qps", "depth", "drop", "reorder", "dup", "seed", "ok", "gbps",
            "us_per_msg", "cycles", "a_sent", "a_dropped", "naks", "adaptive", "timeouts", "host_s", "why"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def plot_goodput(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("bench_loss: matplotlib missing (make deps): no plot", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(7.5, 4.5), dpi=110)
    for op, marker in (("write", "o"), ("read", "s"), ("send", "^")):
        for mtu, style in ((1024, "-"), (4096, "--")):
            pts = sorted((r["drop"] * 100, r["gbps"]) for r in rows if r["op"] == op and r["mtu"] == mtu and r["ok"])
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker=marker,
                        label=f"{op.upper()} MTU {mtu}")
    ax.set_xscale("symlog", linthresh=0.1)
    ticks = sorted({r["drop"] * 100 for r in rows})
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{t:g}" for t in ticks])
    ax.set_xlabel("drop rate per packet, each direction (%)")
    ax.set_ylabel("goodput (Gb/s at 156.25 MHz, 64-bit)")
    ax.set_title("froce go-back-N: 1 MiB messages, 1 QP, 4 in flight")
    ax.set_ylim(0, 10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(path)
    print(f"bench_loss: wrote {os.path.relpath(path, ROOT)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=["goodput", "envelope", "all"], default="all")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="fewer drop rates, no 16 MiB messages")
    ap.add_argument("--replot", action="store_true", help="only draw goodput.png again from goodput.csv")
    ap.add_argument("--op", action="append", choices=["write", "read", "send"],
                    help="only this operation (repeatable); the others' rows come from the previous CSVs")
    args = ap.parse_args()
    if args.replot:
        with open(os.path.join(OUT, "goodput.csv")) as f:
            rows = [dict(r, drop=float(r["drop"]), gbps=float(r["gbps"]), mtu=int(r["mtu"]), ok=r["ok"] == "True")
                    for r in csv.DictReader(f)]
        plot_goodput(rows, os.path.join(OUT, "goodput.png"))
        return 0
    subprocess.run(["make", "-s", "-C", "sim/core", "JOBS=2", "perf"], cwd=ROOT, check=True)
    os.makedirs(OUT, exist_ok=True)
    cases = []
    if args.part in ("goodput", "all"):
        cases += goodput_cases(args.quick)
    if args.part in ("envelope", "all"):
        cases += envelope_cases(args.quick)
    all_cases = cases
    if args.op:
        cases = [c for c in cases if c["op"] in args.op]
    # longest first, so the two workers finish together
    order = sorted(range(len(cases)), key=lambda i: -cases[i]["size"] * cases[i]["iters"] * cases[i]["qps"])
    results = [None] * len(cases)
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        futs = {ex.submit(run, cases[i]): i for i in order}
        for f in concurrent.futures.as_completed(futs):
            i = futs[f]
            results[i] = f.result()
            done += 1
            r = results[i]
            print(f"bench_loss: [{done}/{len(cases)}] {r['part']} {r['op']} size {r['size']} mtu {r['mtu']} "
                  f"qps {r['qps']} depth {r['depth']} {fault_str(r)}: "
                  f"{'ok' if r['ok'] else 'FAIL'} {r['gbps']} Gb/s ({r['host_s']} s)", flush=True)
    failed = [r for r in results if not r["ok"]]

    good = [r for r in results if r["part"] == "goodput"]
    if args.op and good:
        good = keep_previous(results, "goodput", args.op, os.path.join(OUT, "goodput.csv"), all_cases)
    if good:
        write_csv(os.path.join(OUT, "goodput.csv"), good)
        plot_goodput(good, os.path.join(OUT, "goodput.png"))
        drops = sorted({r["drop"] for r in good})
        print("\n### Goodput against drop rate (1 MiB, 1 QP, depth 4; Gb/s, % of the clean figure)\n")
        print("| op | MTU | " + " | ".join(f"{d * 100:g} %" for d in drops) + " |")
        print("|---|---|" + "---|" * len(drops))
        for op in ("write", "read", "send"):
            for mtu in (1024, 4096):
                row = {r["drop"]: r for r in good if r["op"] == op and r["mtu"] == mtu}
                clean = row.get(0.0, {}).get("gbps") or 0
                cells = []
                for d in drops:
                    r = row.get(d)
                    if not r or not r["ok"]:
                        cells.append("FAIL")
                    elif d == 0 or not clean:
                        cells.append(f"{r['gbps']:.2f}")
                    else:
                        cells.append(f"{r['gbps']:.2f} ({100 * r['gbps'] / clean:.0f} %)")
                print(f"| {op.upper()} | {mtu} | " + " | ".join(cells) + " |")
    env = [r for r in results if r["part"] == "envelope"]
    if args.op and env:
        env = keep_previous(results, "envelope", args.op, os.path.join(OUT, "envelope.csv"), all_cases)
    if env:
        write_csv(os.path.join(OUT, "envelope.csv"), env)
        print("\n### Envelope (every byte and completion verified)\n")
        print("| op | bytes | MTU | QPs | depth | faults | seed | result | Gb/s | us/msg | NAKs | adaptive | timeouts |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in env:
            print(f"| {r['op'].upper()} | {r['size']} | {r['mtu']} | {r['qps']} | {r['depth']} | {fault_str(r)} | "
                  f"{r['seed']} | {'ok' if r['ok'] else 'FAIL'} | {r['gbps']:.2f} | {r['us_per_msg']} | {r['naks']} | "
                  f"{r['adaptive']} | {r['timeouts']} |")
    for r in failed:
        print(f"bench_loss: FAIL {r['part']} {r['op']} size {r['size']} mtu {r['mtu']} qps {r['qps']} "
              f"depth {r['depth']} {fault_str(r)} seed {r['seed']}: {r.get('why', '')}")
    print(f"bench_loss: {len(results) - len(failed)} of {len(results)} runs ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
