# SPDX-License-Identifier: MIT
"""Helpers shared by the clock-crossing benches: seeded random streams,
clocks with a phase, resets, the parameters the build was made with, and a
checker that a register only ever changes one bit per clock (Gray code)."""
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer
from cocotb.utils import get_sim_time

SEED = int(os.environ.get("CDC_SEED", "1"))
# run.sh sets CDC_NEGATIVE=1 for the negative control: each bench then
# corrupts one word on purpose and must fail
NEGATIVE = os.environ.get("CDC_NEGATIVE", "0") == "1"
# every test ends within this much simulated time (a hang fails, not stalls)
TIMEOUT_US = 200


def rng(name):
    return random.Random(f"{SEED}:{name}")


def params():
    """The PARAMS the Makefile compiled the top with, as a dict of ints."""
    out = {}
    for item in os.environ.get("CDC_PARAMS", "").split():
        k, v = item.split("=", 1)
        out[k] = int(v, 0)
    return out


def now_ps():
    return get_sim_time("ps")


def ns_to_ps(ns):
    ps = int(round(ns * 1000))
    return ps + (ps & 1)            # cocotb's Clock wants an even period


async def _clock(sig, period_ps, phase_ps):
    sig.value = 0
    if phase_ps:
        await Timer(phase_ps, "ps")
    await Clock(sig, period_ps, units="ps").start(start_high=False)


def start_clock(sig, period_ns, phase_ns=0.0):
    """Starts a free-running clock (killed with the test)."""
    return cocotb.start_soon(_clock(sig, ns_to_ps(period_ns), int(round(phase_ns * 1000))))


async def reset_both(clk_a, rst_a, clk_b, rst_b, cycles=4):
    """Holds both resets for `cycles` edges of each clock, releases each
    after its own clock edge, then waits until both domains have settled
    (the internal synchronisers need a few edges of each clock)."""
    rst_a.value = 1
    rst_b.value = 1
    await ClockCycles(clk_a, cycles)
    await ClockCycles(clk_b, cycles)
    await RisingEdge(clk_a)
    rst_a.value = 0
    await RisingEdge(clk_b)
    rst_b.value = 0
    await ClockCycles(clk_a, 12)
    await ClockCycles(clk_b, 12)


def popcount(x):
    return bin(x).count("1")


class GrayChecker:
    """Samples a register on every rising edge of its clock and records any
    step that changes more than one bit (a Gray-coded pointer must not)."""

    def __init__(self, clk, sig, name):
        self.clk, self.sig, self.name = clk, sig, name
        self.errors = []
        self.steps = 0
        cocotb.start_soon(self._run())

    async def _run(self):
        prev = None
        while True:
            await RisingEdge(self.clk)
            if not self.sig.value.is_resolvable:
                continue
            cur = int(self.sig.value)
            if prev is not None and cur != prev:
                self.steps += 1
                if popcount(cur ^ prev) > 1:
                    self.errors.append((now_ps(), prev, cur))
            prev = cur

    def check(self, resets=()):
        """resets: (start, end) times in ps when a jump to 0 is a reset"""
        errors = [(t, a, b) for t, a, b in self.errors
                  if not (b == 0 and any(lo <= t <= hi for lo, hi in resets))]
        assert not errors, f"{self.name} changed more than one bit: {errors[:4]}"
        assert self.steps > 0, f"{self.name} never moved"
