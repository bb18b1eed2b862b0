# SPDX-License-Identifier: MIT
"""Shared bench for the 10G MAC tests (top: tb_mac10g.v).

Models: cocotbext-eth XgmiiSource/XgmiiSink on the XGMII side, cocotbext-axi
AxiStreamSource/AxiStreamSink on the AXI-Stream side; the MAC's RX output
(no tready) is watched by RxMonitor here, which also checks the beat rules.

Environment:
  MAC10G_SEED=N       random seed (default 1)
  MAC10G_ENABLE_DIC   the ENABLE_DIC the top was built with (the Makefile sets it)
  MAC10G_NEGATIVE=1   negative control: the expectations of the first frame
                      of test_tx_frames / test_rx_good are deliberately wrong,
                      so those tests must fail (run.sh checks they do)
"""
import logging
import os
import random
import struct
import zlib

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer

from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource
from cocotbext.eth import XgmiiFrame, XgmiiSink, XgmiiSource

CLK_PS = 6400               # 156.25 MHz
PREAMBLE = b"\x55" * 7 + b"\xd5"
MIN_PAYLOAD = 60            # frame without FCS, after padding
MAX_FRAME = 9600            # tb_mac10g's default MAX_FRAME
XG_IDLE, XG_START, XG_TERM, XG_ERROR = 0x07, 0xFB, 0xFD, 0xFE

NEGATIVE = os.environ.get("MAC10G_NEGATIVE", "") == "1"
SEED = int(os.environ.get("MAC10G_SEED", "1"))
ENABLE_DIC = os.environ.get("MAC10G_ENABLE_DIC", "1") != "0"   # tb_mac10g's ENABLE_DIC (set by the Makefile)


def rng(test_name):
    """A random generator per test, so each test is reproducible alone."""
    return random.Random(f"{SEED}:{test_name}")


def padded(payload):
    payload = bytes(payload)
    return payload + bytes(max(0, MIN_PAYLOAD - len(payload)))


def fcs_of(data):
    return struct.pack("<I", zlib.crc32(bytes(data)))


def corrupt_if_negative(expected, index):
    """The negative control: a wrong expectation for frame 0."""
    if NEGATIVE and index == 0:
        expected = bytearray(expected)
        expected[len(expected) // 2] ^= 0x01
        return bytes(expected)
    return expected


class RxMonitor:
    """Collects the frames of the MAC's RX output (m_axis_*, no tready).

    Each frame is (bytes, tuser). Beat rules checked on the way: every beat
    before tlast full with tuser = 0; the tlast beat's tkeep a run of ones
    from bit 0 (or 0). Violations are collected in .errors.
    """

    def __init__(self, dut):
        self.dut = dut
        self.frames = []
        self.errors = []
        self._task = cocotb.start_soon(self._run())

    async def _run(self):
        dut = self.dut
        data = bytearray()
        while True:
            await RisingEdge(dut.clk)
            if not dut.m_axis_tvalid.value.is_resolvable or not int(dut.m_axis_tvalid.value):
                continue
            tdata = int(dut.m_axis_tdata.value)
            tkeep = int(dut.m_axis_tkeep.value)
            tlast = int(dut.m_axis_tlast.value)
            tuser = int(dut.m_axis_tuser.value)
            if not tlast:
                if tkeep != 0xFF:
                    self.errors.append(f"beat before tlast with tkeep {tkeep:#04x}")
                if tuser:
                    self.errors.append("tuser set before tlast")
            elif tkeep & (tkeep + 1):
                self.errors.append(f"tlast beat tkeep {tkeep:#04x} is not a run of ones from bit 0")
            n = bin(tkeep).count("1")
            data.extend(tdata.to_bytes(8, "little")[:n])
            if tlast:
                self.frames.append((bytes(data), tuser))
                data = bytearray()


class LaneMonitor:
    """Records the wire position (byte index) of every /S/, /T/ and /E/ on
    an XGMII bus (default: the TX side), for inter-packet gap checks
    independent of the models."""

    def __init__(self, dut, data=None, ctrl=None):
        self.dut = dut
        self.data = dut.xgmii_txd if data is None else data
        self.ctrl = dut.xgmii_txc if ctrl is None else ctrl
        self.events = []        # (position, char)
        self._task = cocotb.start_soon(self._run())

    async def _run(self):
        cycle = 0
        while True:
            await RisingEdge(self.dut.clk)
            cycle += 1
            txc = int(self.ctrl.value)
            if txc == 0:
                continue
            txd = int(self.data.value)
            for lane in range(8):
                if txc >> lane & 1:
                    ch = txd >> (8 * lane) & 0xFF
                    if ch in (XG_START, XG_TERM, XG_ERROR):
                        self.events.append((cycle * 8 + lane, ch))

    def gaps(self):
        """Gaps from each /T/ (counted) to the next /S/, in bytes, and the
        lane of every /S/."""
        gaps, lanes, last_t = [], [], None
        for pos, ch in self.events:
            if ch == XG_TERM:
                last_t = pos
            elif ch == XG_START:
                lanes.append(pos % 8)
                if last_t is not None:
                    gaps.append(pos - last_t)
                last_t = None
        return gaps, lanes


TxLaneMonitor = LaneMonitor


class TB:
    """Clock, reset and the models; counters read by name."""

    def __init__(self, dut, axis_source=True):
        self.dut = dut
        self.log = logging.getLogger("cocotb.tb")
        cocotb.start_soon(Clock(dut.clk, CLK_PS, units="ps").start())
        dut.rst.setimmediatevalue(1)
        dut.s_axis_tvalid.setimmediatevalue(0)
        dut.s_axis_tdata.setimmediatevalue(0)
        dut.s_axis_tkeep.setimmediatevalue(0)
        dut.s_axis_tlast.setimmediatevalue(0)
        dut.s_axis_tuser.setimmediatevalue(0)
        self.source = None
        if axis_source:
            self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
            self.source.log.setLevel(logging.WARNING)
        self.xsink = XgmiiSink(dut.xgmii_txd, dut.xgmii_txc, dut.clk, dut.rst)
        self.xsource = XgmiiSource(dut.xgmii_rxd, dut.xgmii_rxc, dut.clk, dut.rst)
        self.fifo_sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "f_axis"), dut.clk, dut.rst)
        for m in (self.xsink, self.xsource, self.fifo_sink):
            m.log.setLevel(logging.WARNING)
        self.rx = RxMonitor(dut)

    async def reset(self):
        self.dut.rst.value = 1
        await ClockCycles(self.dut.clk, 4)
        self.dut.rst.value = 0
        await ClockCycles(self.dut.clk, 4)

    def counter(self, name):
        return int(getattr(self.dut, name).value)

    def counters(self, *names):
        return {n: self.counter(n) for n in names}

    async def cycles(self, n):
        await ClockCycles(self.dut.clk, n)

    async def tx_recv(self, timeout_cycles=20000):
        """Next frame from the XGMII sink, failing after timeout_cycles."""
        for _ in range(timeout_cycles // 16):
            if not self.xsink.empty():
                return self.xsink.recv_nowait()
            await ClockCycles(self.dut.clk, 16)
        raise AssertionError("timeout waiting for a frame on xgmii_txd")

    async def rx_wait_frames(self, count, timeout_cycles=50000):
        for _ in range(timeout_cycles // 16):
            if len(self.rx.frames) >= count:
                return
            await ClockCycles(self.dut.clk, 16)
        raise AssertionError(f"timeout: {len(self.rx.frames)} of {count} RX frames")

    async def xsource_idle(self):
        await self.xsource.wait()
        await ClockCycles(self.dut.clk, 32)     # through the RX pipeline


async def drive_beats(dut, beats):
    """Drives s_axis by hand: each item is (data bytes <= 8, last, user) or
    None for a cycle without tvalid. Waits for tready on each beat."""
    for b in beats:
        if b is None:
            dut.s_axis_tvalid.value = 0
            await RisingEdge(dut.clk)
            continue
        data, last, user = b
        dut.s_axis_tdata.value = int.from_bytes(bytes(data).ljust(8, b"\0"), "little")
        dut.s_axis_tkeep.value = (1 << len(data)) - 1
        dut.s_axis_tlast.value = int(last)
        dut.s_axis_tuser.value = int(user)
        dut.s_axis_tvalid.value = 1
        await RisingEdge(dut.clk)
        while not int(dut.s_axis_tready.value):
            await RisingEdge(dut.clk)
    dut.s_axis_tvalid.value = 0
    dut.s_axis_tlast.value = 0
    dut.s_axis_tuser.value = 0


def frame_beats(payload, user_at=None):
    """payload split into 8-byte beats for drive_beats; tuser on beat user_at."""
    beats = []
    chunks = [payload[i:i + 8] for i in range(0, len(payload), 8)] or [b""]
    for i, c in enumerate(chunks):
        beats.append((c, i == len(chunks) - 1, i == user_at))
    return beats


def check_tx_frame(xf, payload, what):
    """A good frame from the XGMII sink against the payload that was sent."""
    exp = padded(payload)
    assert xf.ctrl is None, f"{what}: control character inside the frame: {xf}"
    assert bytes(xf.data[:8]) == PREAMBLE, f"{what}: preamble/SFD {bytes(xf.data[:8]).hex()}"
    assert xf.start_lane in (0, 4), f"{what}: /S/ in lane {xf.start_lane}"
    assert len(xf.data) == 8 + len(exp) + 4, f"{what}: {len(xf.data)} bytes on the wire, expected {8 + len(exp) + 4}"
    got = bytes(xf.get_payload())
    assert got == exp, f"{what}: payload differs at byte {first_diff(got, exp)} (len {len(got)} vs {len(exp)})"
    assert xf.check_fcs(), f"{what}: bad FCS (cocotbext check)"
    assert bytes(xf.get_fcs()) == fcs_of(exp), f"{what}: FCS != zlib.crc32"


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def random_payload(r, n):
    return r.randbytes(n)


__all__ = [
    "AxiStreamFrame", "TB", "Timer", "XgmiiFrame", "RxMonitor", "LaneMonitor", "TxLaneMonitor", "CLK_PS", "PREAMBLE",
    "MIN_PAYLOAD", "MAX_FRAME", "ENABLE_DIC", "XG_IDLE", "XG_START", "XG_TERM", "XG_ERROR", "NEGATIVE", "rng", "padded",
    "fcs_of", "corrupt_if_negative", "drive_beats", "frame_beats", "check_tx_frame", "first_diff",
    "random_payload",
]
