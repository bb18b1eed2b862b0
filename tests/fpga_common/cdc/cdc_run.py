#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds one top of fpga/common/rtl with Icarus and runs one cocotb test
module on it, through cocotb's Python runner (cocotb.runner): the same as
the Makefile, without the dozen Python start-ups the cocotb makefiles make
per run. run.sh calls it; results go to BUILD_DIR/results.xml, the log to
BUILD_DIR/sim.log.

  cdc_run.py BUILD_DIR TOPLEVEL MODULE [--param NAME=VALUE ...]
             [--testcase NAME[,NAME]] [--rtl DIR] [--waves]
"""
import argparse
import os
import sys
import warnings
from pathlib import Path

with warnings.catch_warnings():
    warnings.simplefilter("ignore")     # "Python runners ... are an experimental feature"
    from cocotb.runner import get_runner

TB_DIR = Path(__file__).resolve().parent
ROOT = TB_DIR.parents[2]
SOURCES = ["froce_sync_reset.v", "froce_sync_bit.v", "froce_async_fifo.v",
           "froce_async_frame_fifo.v", "froce_axi_cdc.v", "froce_axil_cdc.v"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build_dir")
    ap.add_argument("toplevel")
    ap.add_argument("module")
    ap.add_argument("--param", action="append", default=[], help="NAME=VALUE parameter of TOPLEVEL")
    ap.add_argument("--testcase", default=None)
    ap.add_argument("--rtl", default=str(ROOT / "fpga" / "common" / "rtl"))
    ap.add_argument("--waves", action="store_true", help="write BUILD_DIR/TOPLEVEL.fst")
    a = ap.parse_args()

    build = Path(a.build_dir).resolve()
    build.mkdir(parents=True, exist_ok=True)
    params = dict(p.split("=", 1) for p in a.param)
    runner = get_runner("icarus")
    runner.build(verilog_sources=[Path(a.rtl) / s for s in SOURCES], hdl_toplevel=a.toplevel,
                 parameters=params, build_dir=build, always=True, waves=a.waves,
                 timescale=("1ns", "1ps"), log_file=build / "build.log")
    env = {"CDC_PARAMS": " ".join(a.param),
           "PYTHONPATH": os.pathsep.join([str(TB_DIR)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    results = build / "results.xml"
    if results.exists():
        results.unlink()
    runner.test(test_module=a.module, hdl_toplevel=a.toplevel, testcase=a.testcase, build_dir=build,
                test_dir=build, extra_env=env, waves=a.waves, results_xml=str(results),
                log_file=build / "sim.log")
    return 0 if results.exists() else 1


if __name__ == "__main__":
    sys.exit(main())
