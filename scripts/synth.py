#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Synthesize the froce RTL tops with Yosys and print a utilisation table.

Every (top, flow) pair is one Yosys process logging to
build/synth/<label>_<flow>.log. A run fails on a Yosys ERROR (or non-zero
exit), on an inferred latch (a "Latch inferred" line in the log, or a latch
cell in the final netlist) and on a timeout. The script exits non-zero if any
run failed and prints, for each failure, the log path and the offending lines.

Usage (see docs/synthesis.md):
    scripts/synth.py                     every top, every flow  (make synth)
    scripts/synth.py --quick             the make-test subset
    scripts/synth.py --flow ecp5 --top froce_crc32_step --jobs 2
    scripts/synth.py --json build/synth/figures.json
    scripts/synth.py --self-test         prove the error/latch checks work

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# ----------------------------------------------------------------------------
# Configuration
# ----------------------------------------------------------------------------

# (top module, parameter overrides, label). The label names the log files and
# the rows of the table; keep it unique.
TOPS: list[tuple[str, dict[str, int], str]] = [
    ("froce_rx_parser", {"DATA_WIDTH": 64}, "rx_parser_64"),
    ("froce_rx_parser", {"DATA_WIDTH": 512}, "rx_parser_512"),
    ("froce_tx_builder", {"DATA_WIDTH": 64}, "tx_builder_64"),
    ("froce_tx_builder", {"DATA_WIDTH": 512}, "tx_builder_512"),
    ("froce_crc32_step", {"DATA_WIDTH": 64}, "crc32_step_64"),
    ("froce_crc32_step", {"DATA_WIDTH": 512}, "crc32_step_512"),
    ("froce_ipv4_csum", {}, "ipv4_csum"),
    # small tables: the generic flow maps RAMs to flip-flops
    ("froce_mr_xlate", {"NUM_MRS": 16, "NUM_MTT": 64}, "mr_xlate_16_64"),
    # DMA engines; the read data buffer is a RAM (8 KiB by default)
    ("froce_dma_rd", {"DATA_WIDTH": 64}, "dma_rd_64"),
    ("froce_dma_rd", {"DATA_WIDTH": 512}, "dma_rd_512"),
    ("froce_dma_wr", {"DATA_WIDTH": 64}, "dma_wr_64"),
    ("froce_dma_wr", {"DATA_WIDTH": 512}, "dma_wr_512"),
    ("froce_axi_mux", {"DATA_WIDTH": 64, "N_RD": 2, "N_WR": 1, "S_ID_WIDTH": 1, "M_ID_WIDTH": 4}, "axi_mux_64"),
    ("froce_axis_pack", {"DATA_WIDTH": 64}, "axis_pack_64"),
    ("froce_axis_pack", {"DATA_WIDTH": 512}, "axis_pack_512"),
    ("froce_axis_split", {"DATA_WIDTH": 64}, "axis_split_64"),
    ("froce_axis_split", {"DATA_WIDTH": 512}, "axis_split_512"),
    ("froce_doorbell", {"NUM_QPS": 16, "NUM_CQS": 16, "NUM_UARS": 4}, "doorbell_16"),
    # the soft core (rtl/cpu; its RAM is block RAM, so only the core here)
    ("froce_cpu", {}, "cpu"),
    # the firmware subsystem (rtl/fw: core, RAM, decoder, control-bus master,
    # peripherals, DMA), its RAM shrunk to 1 KiB because the generic flow maps
    # RAMs to flip-flops; the default 64 KiB adds 32 DP16KD on an ECP5
    ("froce_fw", {"DATA_WIDTH": 64, "RAM_ADDR_WIDTH": 8}, "fw_64"),
    # the transport core with small tables (a board build picks its sizes),
    # the firmware RAM at 1 KiB like fw_64
    ("froce_core", {"DATA_WIDTH": 64, "NUM_QPS": 4, "NUM_CQS": 4, "NUM_MRS": 16, "NUM_MTT": 64,
                    "NUM_GIDS": 2, "NUM_UARS": 4, "FW_RAM_ADDR_WIDTH": 8}, "core_small_64"),
]

# Yosys command(s) per flow. The three synthesis flows flatten, so the figures
# compare like with like and cross-module logic is optimised the way a real
# build would be (synth_ecp5 flattens by default; synth and synth_xilinx do
# not). synth_xilinx -noiopad: these are out-of-context builds, no pads.
# "elab" only elaborates (frontend, parameters, processes -> cells, where
# latches are inferred) and runs Yosys' netlist checks: seconds instead of
# minutes for the 512-bit tops, and it catches what the Yosys-specific
# checks here are about (ERRORs, latches). It gives no LUT/FF figures.
FLOWS: dict[str, str] = {
    "generic": "synth -flatten -top {top}",
    "ecp5": "synth_ecp5 -top {top}",
    "xilinx": "synth_xilinx -flatten -noiopad -top {top}",
    "elab": "proc; flatten; opt_clean; check",
}
# what runs without --flow (make synth)
DEFAULT_FLOWS = ("generic", "ecp5", "xilinx")

# --quick (what `make test` runs): these flows for every top (the generic
# flow finds the same ERRORs and latches as the ECP5 one, which also proves
# the mapping to a real part; `make synth` runs all three)...
QUICK_FLOWS = ("ecp5",)
# ...except tops built with DATA_WIDTH >= QUICK_WIDE_FROM, which get only these
# (generic synthesis of froce_tx_builder at 512 alone takes ~4 minutes).
QUICK_WIDE_FLOWS = ("elab",)
QUICK_WIDE_FROM = 512
# ...and these labels, whose full synthesis takes too long for make test (the
# whole transport core); `make synth` still runs every flow on them.
QUICK_ELAB_ONLY = {"core_small_64"}

# Include directories, relative to the repository root. Any other directory
# under rtl/ holding a .vh file is added after these.
INCLUDE_DIRS = ["rtl/include", "rtl/crc"]

# Seconds before a single Yosys run is killed and reported as failed.
DEFAULT_TIMEOUT = 1800

# ----------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
RTL_DIR = ROOT / "rtl"
BUILD_DIR = ROOT / "build" / "synth"

# Latch cells: generic/internal cells (before and after techmap) and Xilinx
# latch primitives. ECP5 has no latch primitive: synth_ecp5 turns a latch into
# a LUT4 with a combinational loop, so there only the log line catches it.
LATCH_CELL_RE = re.compile(
    r"^(\$_DLATCH|\$_DLATCHSR|\$dlatch|\$adlatch|\$dlatchsr|LDCE$|LDPE$)"
)
LATCH_LOG_RE = re.compile(r"^\s*Latch inferred for signal")
ERROR_LOG_RE = re.compile(r"ERROR")
WARNING_LOG_RE = re.compile(r"^Warning:")
# last line of a Yosys log: "End of script. Logfile hash: ..., CPU: user 1.23s system 0.04s, MEM: 55.1 MB peak"
END_LOG_RE = re.compile(r"CPU: user ([0-9.]+)s system ([0-9.]+)s, MEM: ([0-9.]+) MB peak")

# Files under rtl/ that are not synthesizable RTL (benches, models).
NON_RTL_DIR_NAMES = {"tb", "test", "tests", "sim"}
NON_RTL_FILE_RE = re.compile(r"(^tb_|_tb\.v$|^test_)")


@dataclasses.dataclass
class Job:
    top: str
    params: dict[str, int]
    label: str
    flow: str
    files: list[Path]
    include_dirs: list[Path]
    build_dir: Path
    timeout: float

    @property
    def name(self) -> str:
        return f"{self.label}_{self.flow}"

    @property
    def log(self) -> Path:
        return self.build_dir / f"{self.name}.log"

    @property
    def stat_json(self) -> Path:
        return self.build_dir / f"{self.name}.stat.json"

    @property
    def script(self) -> Path:
        return self.build_dir / f"{self.name}.ys"

    @property
    def width(self) -> str:
        return str(self.params.get("DATA_WIDTH", "-"))


@dataclasses.dataclass
class Result:
    job: Job
    ok: bool = False
    seconds: float = 0.0
    cpu_seconds: float | None = None   # user + system time of Yosys and its abc runs
    mem_mb: float | None = None        # Yosys' peak memory, from its log
    reasons: list[str] = dataclasses.field(default_factory=list)
    offending: list[str] = dataclasses.field(default_factory=list)
    warnings: list[str] = dataclasses.field(default_factory=list)
    cells: dict[str, int] = dataclasses.field(default_factory=dict)
    total_cells: int = 0
    figures: dict[str, int | None] = dataclasses.field(default_factory=dict)


# ---------------------------------------------------------------- sources


def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def rtl_files(rtl_dir: Path) -> list[Path]:
    """Synthesizable .v files under rtl_dir (benches and models left out)."""
    out = []
    for path in sorted(rtl_dir.rglob("*.v")):
        rel = path.relative_to(rtl_dir)
        if NON_RTL_DIR_NAMES & set(rel.parts[:-1]):
            continue
        if NON_RTL_FILE_RE.search(path.name):
            continue
        out.append(path)
    return out


def module_index(files: list[Path]) -> tuple[dict[str, Path], dict[Path, set[str]]]:
    """Map module name -> defining file, and file -> identifiers it uses."""
    defs: dict[str, Path] = {}
    words: dict[Path, set[str]] = {}
    for path in files:
        text = strip_comments(path.read_text(errors="replace"))
        words[path] = set(re.findall(r"\b[A-Za-z_][A-Za-z0-9_$]*\b", text))
        for name in re.findall(r"\bmodule\s+([A-Za-z_][A-Za-z0-9_$]*)", text):
            if name in defs and defs[name] != path:
                raise SystemExit(
                    f"synth: module {name} defined twice: {defs[name]} and {path}"
                )
            defs[name] = path
    return defs, words


def sources_for(top: str, defs: dict[str, Path], words: dict[Path, set[str]]) -> list[Path]:
    """The file defining top plus every file defining a module it names,
    transitively. Naming a module anywhere (even in a comment-free string)
    pulls its file in; reading one file too many is harmless with -defer,
    while reading every file under rtl/ would let one half-written file
    break every run."""
    todo = [defs[top]]
    seen: list[Path] = []
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.append(path)
        for name in sorted(words[path] & defs.keys()):
            if defs[name] not in seen:
                todo.append(defs[name])
    return sorted(seen)


def include_dirs(root: Path, rtl_dir: Path) -> list[Path]:
    dirs = [root / d for d in INCLUDE_DIRS if (root / d).is_dir()]
    for vh in sorted(rtl_dir.rglob("*.vh")):
        if vh.parent not in dirs:
            dirs.append(vh.parent)
    return dirs


# ---------------------------------------------------------------- yosys


def yosys_script(job: Job) -> str:
    def rel(p: Path) -> str:
        try:
            return str(p.relative_to(ROOT))
        except ValueError:
            return str(p)

    incs = " ".join(f"-I{rel(d)}" for d in job.include_dirs)
    files = " ".join(rel(f) for f in job.files)
    chparams = ""
    for key, value in job.params.items():
        if not isinstance(value, int):
            raise SystemExit(f"synth: {job.label}: parameter {key} must be an integer")
        chparams += f" -chparam {key} {value}"
    return "\n".join(
        [
            f"# {job.label} ({job.top}) - {job.flow} flow, generated by scripts/synth.py",
            f"read_verilog -defer {incs} {files}",
            f"hierarchy -check -top {job.top}{chparams}",
            FLOWS[job.flow].format(top=job.top),
            f"tee -q -o {job.stat_json} stat -json",
            "stat",
            "",
        ]
    )


def parse_stat_json(path: Path) -> tuple[dict[str, int], int] | None:
    """Cell counts of the whole design from `stat -json` (Yosys >= 0.10)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    design = data.get("design")
    if design is None:  # no top marked: sum the modules
        mods = data.get("modules") or {}
        if len(mods) != 1:
            return None
        design = next(iter(mods.values()))
    cells = {k: int(v) for k, v in (design.get("num_cells_by_type") or {}).items()}
    return cells, int(design.get("num_cells", sum(cells.values())))


def parse_stat_text(log_text: str) -> tuple[dict[str, int], int] | None:
    """Fallback: the last text `stat` block in the log (the design hierarchy
    block if there is one, else the top module's block)."""
    blocks = re.split(r"^=== (.*) ===$", log_text, flags=re.M)
    # blocks = [pre, title1, body1, title2, body2, ...]
    if len(blocks) < 3:
        return None
    body = blocks[-1]
    total = re.search(r"^\s+Number of cells:\s+(\d+)\s*$", body, flags=re.M)
    if not total:
        return None
    cells: dict[str, int] = {}
    after = body[total.end():]
    for line in after.splitlines():
        m = re.match(r"^\s{5,}(\S+)\s+(\d+)\s*$", line)
        if m:
            cells[m.group(1)] = int(m.group(2))
        elif line.strip() and not line.startswith(" "):
            break
    return cells, int(total.group(1))


def figures_for(flow: str, cells: dict[str, int], total: int) -> dict[str, int | None]:
    def count(pred) -> int:
        return sum(n for t, n in cells.items() if pred(t))

    if flow == "ecp5":
        return {
            "luts": cells.get("LUT4", 0),
            "ffs": cells.get("TRELLIS_FF", 0),
            "bram": count(lambda t: t in ("DP16KD", "PDPW16KD")),
            "lutram": cells.get("TRELLIS_DPR16X4", 0),
            "dsp": count(lambda t: t in ("MULT18X18D", "ALU54B")),
            "carry": cells.get("CCU2C", 0),
        }
    if flow == "xilinx":
        return {
            # INV is what synth_xilinx leaves for a LUT1 inverter
            "luts": count(lambda t: re.fullmatch(r"LUT[1-6](_2)?|INV", t) is not None),
            "ffs": count(lambda t: re.fullmatch(r"FD[RSCP]E(_1)?", t) is not None),
            "bram": count(lambda t: t.startswith("RAMB")),
            "lutram": count(lambda t: (t.startswith("RAM") and not t.startswith("RAMB"))
                            or t.startswith("SRL")),
            "dsp": count(lambda t: t.startswith("DSP48")),
            "carry": count(lambda t: t in ("CARRY4", "CARRY8")),
        }
    if flow == "elab":  # coarse cells only: nothing comparable to count
        return {k: None for k in ("luts", "ffs", "bram", "lutram", "dsp", "carry")}
    # generic: gate-level netlist, "LUTs" is the total cell count
    return {
        "luts": total,
        "ffs": count(lambda t: "DFF" in t),
        "bram": count(lambda t: t.startswith("$mem")),
        "lutram": None,
        "dsp": None,
        "carry": None,
    }


def run_job(job: Job) -> Result:
    res = Result(job=job)
    job.build_dir.mkdir(parents=True, exist_ok=True)
    for stale in (job.log, job.stat_json):
        stale.unlink(missing_ok=True)
    job.script.write_text(yosys_script(job))
    cmd = ["yosys", "-q", "-l", str(job.log), "-s", str(job.script)]
    start = time.monotonic()
    with tempfile.TemporaryFile(mode="w+", errors="replace") as out:
        # Own process group, so a timeout also ends the abc processes Yosys
        # starts. Reaped with wait4(), whose resource usage includes those abc
        # processes: CPU time that, unlike wall time, does not depend on what
        # else the machine is doing.
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
        timed_out = threading.Event()

        def kill() -> None:
            timed_out.set()
            os.killpg(proc.pid, 9)

        timer = threading.Timer(job.timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        res.seconds = time.monotonic() - start
        res.cpu_seconds = usage.ru_utime + usage.ru_stime
        rc: int | None = proc.returncode
        if timed_out.is_set():
            rc = None
            res.reasons.append(f"timeout after {job.timeout:g} s")
        out.seek(0)
        output = out.read()

    try:
        log_text = job.log.read_text(errors="replace")
    except OSError:
        log_text = ""
    lines = log_text.splitlines()
    errors = [l for l in lines if ERROR_LOG_RE.search(l)]
    for l in output.splitlines():  # errors printed before the log opened
        if ERROR_LOG_RE.search(l) and l not in errors:
            errors.append(l)
    latches = [l for l in lines if LATCH_LOG_RE.match(l)]
    for line in reversed(lines[-20:]):
        m = END_LOG_RE.search(line)
        if m:
            res.mem_mb = float(m.group(3))
            break
    res.warnings = sorted({l for l in lines if WARNING_LOG_RE.match(l)})

    if rc not in (0, None):
        res.reasons.append(f"yosys exit status {rc}")
    if errors:
        res.reasons.append("ERROR in log")
        res.offending += errors
    if latches:
        res.reasons.append("latch inferred")
        res.offending += latches

    parsed = parse_stat_json(job.stat_json) if rc == 0 else None
    if parsed is None and rc == 0:
        parsed = parse_stat_text(log_text)
        if parsed is None:
            res.reasons.append("no stat output")
    if parsed is not None:
        res.cells, res.total_cells = parsed
        res.figures = figures_for(job.flow, res.cells, res.total_cells)
        latch_cells = {t: n for t, n in res.cells.items() if LATCH_CELL_RE.match(t)}
        if latch_cells:
            if "latch inferred" not in res.reasons:
                res.reasons.append("latch inferred")
            res.offending += [f"latch cells in netlist: {t} x{n}" for t, n in sorted(latch_cells.items())]
    if not res.offending and res.reasons and output.strip():
        res.offending = output.strip().splitlines()[-10:]
    res.ok = not res.reasons
    return res


def run_jobs(jobs: list[Job], nproc: int, progress: bool) -> list[Result]:
    """Run the jobs, nproc at a time, longest-looking first; results in job order."""
    cost = {"elab": -1, "generic": 0, "xilinx": 1, "ecp5": 2}
    order = sorted(
        range(len(jobs)),
        key=lambda i: (-int(jobs[i].params.get("DATA_WIDTH", 0)), -cost.get(jobs[i].flow, 0)),
    )
    results: list[Result | None] = [None] * len(jobs)
    done = 0
    lock = threading.Lock()
    width = len(str(len(jobs)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, nproc)) as pool:
        futures = {pool.submit(run_job, jobs[i]): i for i in order}
        for fut in concurrent.futures.as_completed(futures):
            i = futures[fut]
            res = fut.result()
            results[i] = res
            with lock:
                done += 1
                if progress:
                    status = "ok" if res.ok else "FAIL (" + ", ".join(res.reasons) + ")"
                    print(
                        f"synth: [{done:>{width}}/{len(jobs)}] {res.job.label:<16} "
                        f"{res.job.flow:<8} {res.seconds:7.1f} s  {status}",
                        flush=True,
                    )
    return [r for r in results if r is not None]


# ---------------------------------------------------------------- report


def fmt(value: int | None) -> str:
    return "-" if value is None else str(value)


def print_table(results: list[Result]) -> None:
    head = ["top", "width", "flow", "LUTs", "FFs", "BRAM", "LUTRAM", "DSP",
            "carry", "warn", "wall s", "cpu s", "MB", "status"]
    rows = []
    for r in results:
        f = r.figures
        rows.append([
            r.job.top, r.job.width, r.job.flow,
            fmt(f.get("luts")), fmt(f.get("ffs")), fmt(f.get("bram")),
            fmt(f.get("lutram")), fmt(f.get("dsp")), fmt(f.get("carry")),
            str(len(r.warnings)), f"{r.seconds:.1f}",
            "-" if r.cpu_seconds is None else f"{r.cpu_seconds:.1f}",
            "-" if r.mem_mb is None else f"{r.mem_mb:.0f}",
            "ok" if r.ok else "FAIL",
        ])
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
    left = {0, 2, len(head) - 1}

    def line(cols: list[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cols, widths))).rstrip()

    print(line(head))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row))


def print_failures(results: list[Result]) -> None:
    for r in results:
        if r.ok:
            continue
        print(f"synth: FAIL {r.job.label} ({r.job.top}) {r.job.flow}: "
              f"{', '.join(r.reasons)}", file=sys.stderr)
        print(f"  log: {r.job.log}", file=sys.stderr)
        for line in r.offending[:20]:
            print(f"  | {line}", file=sys.stderr)
        if len(r.offending) > 20:
            print(f"  | ... {len(r.offending) - 20} more", file=sys.stderr)


def print_warnings(results: list[Result]) -> None:
    """Yosys warnings, each listed once with the runs that raised it."""
    seen: dict[str, list[str]] = {}
    for r in results:
        for w in r.warnings:
            seen.setdefault(w, []).append(r.job.name)
    if not seen:
        return
    print(f"\nsynth: {len(seen)} distinct Yosys warning(s):")
    for w, names in seen.items():
        print(f"  {w}")
        print(f"      in: {', '.join(names)}")


def yosys_version() -> str:
    try:
        out = subprocess.run(["yosys", "-V"], stdout=subprocess.PIPE, text=True).stdout
    except OSError:
        return "unknown"
    return out.strip()


def write_json(path: Path, results: list[Result], skipped: list[str]) -> None:
    data = {
        "yosys": yosys_version(),
        "runs": [
            {
                "label": r.job.label, "top": r.job.top, "params": r.job.params,
                "flow": r.job.flow, "ok": r.ok, "reasons": r.reasons,
                "seconds": round(r.seconds, 2),
                "cpu_seconds": r.cpu_seconds, "mem_mb": r.mem_mb, **r.figures,
                "total_cells": r.total_cells, "cells_by_type": r.cells,
                "warnings": r.warnings, "log": str(r.job.log),
            }
            for r in results
        ],
        "skipped": skipped,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


# ---------------------------------------------------------------- self-test

SELF_TEST_CLEAN = """\
`default_nettype none
module st_clean #(
    parameter DATA_WIDTH = 64   // register width
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [DATA_WIDTH-1:0] d,
    output reg  [DATA_WIDTH-1:0] q,
    output reg  [31:0]           count,
    output reg  [3:0]            low
);
// combinational, fully assigned: Yosys logs "No latch inferred", which must not trip the check
always @* begin
    low = 4'd0;
    if (!rst) low = d[3:0];
end
always @(posedge clk) begin
    q <= d ^ {q[DATA_WIDTH-2:0], q[DATA_WIDTH-1]};
    count <= count + 32'd1;
    if (rst) count <= 32'd0;
end
endmodule
`default_nettype wire
"""

SELF_TEST_LATCH = """\
`default_nettype none
module st_latch (
    input  wire       en,
    input  wire [3:0] d,
    output reg  [3:0] q
);
always @* begin
    if (en) q = d;   // no else: q holds its value, a latch
end
endmodule
`default_nettype wire
"""

SELF_TEST_BROKEN = """\
`default_nettype none
module st_broken (input wire a, output wire y);
assign y = a &;
endmodule
`default_nettype wire
"""


def self_test(nproc: int) -> int:
    failures: list[str] = []

    def check(cond: bool, what: str) -> None:
        print(f"self-test: {'ok  ' if cond else 'FAIL'} {what}")
        if not cond:
            failures.append(what)

    build = BUILD_DIR / "self-test"
    with tempfile.TemporaryDirectory(prefix="froce-synth-") as tmp:
        rtl = Path(tmp)
        (rtl / "st_clean.v").write_text(SELF_TEST_CLEAN)
        (rtl / "st_latch.v").write_text(SELF_TEST_LATCH)
        (rtl / "st_broken.v").write_text(SELF_TEST_BROKEN)
        defs, words = module_index(rtl_files(rtl))
        check(sorted(defs) == ["st_broken", "st_clean", "st_latch"], "module index")
        jobs = []
        for flow in FLOWS:
            for top, params in (("st_clean", {"DATA_WIDTH": 16}), ("st_latch", {})):
                jobs.append(Job(top=top, params=params, label=top, flow=flow,
                                files=sources_for(top, defs, words), include_dirs=[],
                                build_dir=build, timeout=300))
        jobs.append(Job(top="st_broken", params={}, label="st_broken", flow="generic",
                        files=sources_for("st_broken", defs, words), include_dirs=[],
                        build_dir=build, timeout=300))
        # synth_xilinx takes seconds even for this module: a 0.3 s limit must kill it
        jobs.append(Job(top="st_clean", params={"DATA_WIDTH": 16}, label="st_timeout",
                        flow="xilinx", files=sources_for("st_clean", defs, words),
                        include_dirs=[], build_dir=build, timeout=0.3))
        results = run_jobs(jobs, nproc, progress=False)

    for r in results:
        name = f"{r.job.top} {r.job.flow}"
        if r.job.top == "st_clean":
            if r.job.timeout < 1:
                check(not r.ok and r.reasons[:1] == [f"timeout after {r.job.timeout:g} s"],
                      f"{name}: run killed at its timeout")
                continue
            check(r.ok, f"{name}: clean module passes")
            check("No latch inferred" in r.job.log.read_text(),
                  f"{name}: log has 'No latch inferred' lines (not mistaken for latches)")
            if r.job.flow == "elab":
                continue
            # 16 data + 32 counter flip-flops, through the DATA_WIDTH override
            check(r.figures.get("ffs") == 48, f"{name}: 48 FFs counted (got {r.figures.get('ffs')})")
            check((r.figures.get("luts") or 0) > 0, f"{name}: LUTs counted")
            text = parse_stat_text(r.job.log.read_text())
            check(text is not None and text[0] == r.cells,
                  f"{name}: text stat parser agrees with stat -json")
        elif r.job.top == "st_latch":
            check(not r.ok and "latch inferred" in r.reasons, f"{name}: latch flagged")
            check(any("Latch inferred" in l for l in r.offending), f"{name}: latch line reported")
        else:
            check(not r.ok and "ERROR in log" in r.reasons, f"{name}: Yosys ERROR flagged")
    if failures:
        print(f"self-test: {len(failures)} check(s) failed; logs in {build}", file=sys.stderr)
        return 1
    print(f"self-test: all checks passed (logs in {build})")
    return 0


# ---------------------------------------------------------------- main


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        description="Synthesize the froce RTL tops with Yosys and print a utilisation table.")
    ap.add_argument("--flow", action="append", choices=list(FLOWS),
                    help=f"flow to run (repeatable; default: {', '.join(DEFAULT_FLOWS)})")
    ap.add_argument("--top", action="append", metavar="NAME",
                    help="only tops whose module name or label is NAME (repeatable)")
    ap.add_argument("--quick", action="store_true",
                    help=f"make-test subset: {'+'.join(QUICK_FLOWS)} for every top, only "
                         f"{'+'.join(QUICK_WIDE_FLOWS)} at DATA_WIDTH >= {QUICK_WIDE_FROM}")
    ap.add_argument("--jobs", "-j", type=int, default=2, metavar="N",
                    help="parallel Yosys processes (default 2)")
    ap.add_argument("--json", type=Path, metavar="FILE", help="write the figures as JSON")
    ap.add_argument("--quiet", "-q", action="store_true",
                    help="no progress lines and no table: failures and a summary only")
    ap.add_argument("--strict", action="store_true",
                    help="fail when a configured top module is not found under rtl/")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SEC",
                    help=f"kill a Yosys run after SEC seconds (default {DEFAULT_TIMEOUT})")
    ap.add_argument("--list", action="store_true", help="list the selected runs and exit")
    ap.add_argument("--self-test", action="store_true",
                    help="check that a latch, a Yosys error and a clean module are told apart")
    args = ap.parse_args(argv)

    if shutil.which("yosys") is None:
        print("synth: yosys not found (run scripts/deps.sh)", file=sys.stderr)
        return 2
    if args.self_test:
        return self_test(args.jobs)

    selected = list(TOPS)
    if args.top:
        known = {t for t, _, _ in TOPS} | {l for _, _, l in TOPS}
        unknown = [n for n in args.top if n not in known]
        if unknown:
            print(f"synth: unknown top/label {', '.join(unknown)}; configured: "
                  f"{', '.join(l for _, _, l in TOPS)}", file=sys.stderr)
            return 2
        selected = [e for e in TOPS if e[0] in args.top or e[2] in args.top]

    defs, words = module_index(rtl_files(RTL_DIR)) if RTL_DIR.is_dir() else ({}, {})
    incs = include_dirs(ROOT, RTL_DIR) if RTL_DIR.is_dir() else []
    jobs: list[Job] = []
    skipped: list[str] = []
    for top, params, label in selected:
        if top not in defs:
            skipped.append(label)
            continue
        if args.quick:
            wide = int(params.get("DATA_WIDTH", 0)) >= QUICK_WIDE_FROM or label in QUICK_ELAB_ONLY
            flows = list(QUICK_WIDE_FLOWS if wide else QUICK_FLOWS)
        else:
            flows = list(DEFAULT_FLOWS)
        if args.flow:  # with --quick: the quick flows among those asked for
            flows = [f for f in (flows if args.quick else FLOWS) if f in args.flow]
        files = sources_for(top, defs, words)
        for flow in flows:
            jobs.append(Job(top=top, params=params, label=label, flow=flow, files=files,
                            include_dirs=incs, build_dir=BUILD_DIR, timeout=args.timeout))

    for label in skipped:
        top = next(t for t, _, l in TOPS if l == label)
        print(f"synth: {'FAIL' if args.strict else 'skip'} {label}: module {top} "
              f"not found under {RTL_DIR.relative_to(ROOT)}/", file=sys.stderr)
    if args.list:
        for j in jobs:
            print(f"{j.label:<16} {j.flow:<8} {j.top} {j.params or ''} "
                  f"[{' '.join(str(f.relative_to(ROOT)) for f in j.files)}]")
        return 0
    if not jobs:
        print("synth: nothing to run", file=sys.stderr)
        return 1 if args.strict and skipped else 0

    if not args.quiet:
        print(f"synth: {len(jobs)} run(s), {args.jobs} at a time, logs in "
              f"{BUILD_DIR.relative_to(ROOT)}/  ({yosys_version()})", flush=True)
    start = time.monotonic()
    results = run_jobs(jobs, args.jobs, progress=not args.quiet)
    wall = time.monotonic() - start

    if not args.quiet:
        print()
        print_table(results)
        print_warnings(results)
    if args.json:
        write_json(args.json, results, skipped)
    print_failures(results)
    failed = sum(not r.ok for r in results)
    busy = sum(r.seconds for r in results)
    print(f"synth: {len(results) - failed}/{len(results)} run(s) ok, "
          f"{len(skipped)} top(s) skipped, {wall:.0f} s wall, {busy:.0f} s in Yosys runs",
          file=sys.stderr if failed else sys.stdout)
    if failed or (args.strict and skipped):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
