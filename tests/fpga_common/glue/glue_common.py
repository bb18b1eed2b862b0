# SPDX-License-Identifier: MIT
"""Shared pieces of the host-glue benches: clock/reset, parameters, seed,
the negative-control switch and a recorder of AXI4-Lite transactions."""

import logging
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge

# 1: the benches compare against deliberately wrong expectations (run.sh
# checks that every test then fails).
NEGATIVE = os.environ.get("GLUE_NEGATIVE", "0") == "1"

# multiplies the number of random operations (run.sh: GLUE_SCALE, default 1;
# below 1 for the quicker runs of secondary parameter sets)
SCALE = float(os.environ.get("GLUE_SCALE", "1"))


def ops(n):
    """n random operations, scaled."""
    return max(4, round(n * SCALE))


def limit_us(us):
    """A test's simulated-time limit: a few times what it needs, so that a
    design that hangs (a mutant) fails in seconds, not minutes."""
    return us * max(1.0, SCALE)


def params():
    """The PARAMS of the Makefile (NAME=VALUE ...) as a dict of ints."""
    out = {}
    for item in os.environ.get("GLUE_PARAMS", "").split():
        name, value = item.split("=", 1)
        out[name] = int(value, 0)
    return out


def rng(name):
    """A random generator per test, from GLUE_SEED and the test name."""
    return random.Random(f"{os.environ.get('GLUE_SEED', '1')}-{name}")


def quiet():
    """cocotbext-axi logs every transaction at INFO: keep the logs short."""
    for name in ("cocotb.froce_axi_bar_split", "cocotb.froce_axi_upsize", "cocotb.froce_msix_emitter"):
        logging.getLogger(name).setLevel(logging.WARNING)
    for name in list(logging.root.manager.loggerDict):
        if name.startswith("cocotb.") and ("axi" in name or name.count(".") > 1):
            logging.getLogger(name).setLevel(logging.WARNING)


async def start(dut, period_ns=4):
    """Clock at 250 MHz, rst for a few cycles."""
    cocotb.start_soon(Clock(dut.clk, period_ns, units="ns").start())
    dut.rst.value = 1
    for _ in range(5):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    for _ in range(2):
        await RisingEdge(dut.clk)


def sim_errors(dut):
    """The DUT's count of simulation-check failures (0 when it has none)."""
    try:
        return int(dut.sim_errors.value)
    except AttributeError:
        return 0


def pause_gen(r, busy):
    """A pause generator for cocotbext-axi channels: True = stall a cycle."""
    while True:
        yield r.random() < busy


class LiteMonitor:
    """Records every AXI4-Lite transaction on the port with prefix `prefix`:
    writes as (addr, data, strb) in AW order paired with W order, reads as
    addresses. Runs forever; only watches, never drives."""

    def __init__(self, dut, prefix, reads=True):
        self.dut = dut
        self.clk = dut.clk
        self.sig = lambda name: getattr(dut, f"{prefix}_{name}")
        self.writes = []
        self.reads = []
        self._aw = []
        self._w = []
        self.has_reads = reads
        cocotb.start_soon(self._run())

    async def _run(self):
        s = self.sig
        while True:
            await RisingEdge(self.clk)
            if s("awvalid").value == 1 and s("awready").value == 1:
                self._aw.append(int(s("awaddr").value))
            if s("wvalid").value == 1 and s("wready").value == 1:
                self._w.append((int(s("wdata").value), int(s("wstrb").value)))
            while self._aw and self._w:
                a = self._aw.pop(0)
                d, st = self._w.pop(0)
                self.writes.append((a, d, st))
            if self.has_reads and s("arvalid").value == 1 and s("arready").value == 1:
                self.reads.append(int(s("araddr").value))
