# SPDX-License-Identifier: MIT
"""cocotb tests of the 10GBASE-R PCS (rtl/eth/froce_eth_pcs_10g*.v).

The references are independent of our RTL: cocotbext-eth's XgmiiSource and
XgmiiSink on the XGMII side, and our own 64B/66B line model on the other
(baser_model.py, written from IEEE 802.3 Clause 49: BaseRSource and
BaseRSink), itself unit-tested here against hand-computed Table 49-7
blocks and a bit-serial scrambler (test_model_*). The lane model between
TX (or the model source) and RX is tb_pcs10g_lane.v: a 66-bit window over
the serial stream that each serdes_rx_bitslip pulse moves by one bit, plus
line-error injection.

Optional cross-check: with FROCE_BASER_PY pointing at a copy of
verilog-ethernet's tb/baser.py (BaseRSerdesSource/BaseRSerdesSink), the
tests against the model run a second time against those
(*_baserpy); without it they are skipped. Nothing of it is needed otherwise.

Environment:
  PCS_SEED         random seed (default 1)
  PCS_QUICK        1: fewer frames (run.sh's second parameter set, which only
                   has to prove the other bit order)
  FROCE_BASER_PY   path of verilog-ethernet's tb/baser.py (optional, above)
"""

import importlib.util
import logging
import os
import random

import cocotb
import cocotb.result
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotb.utils import get_sim_time

from cocotbext.eth import XgmiiFrame, XgmiiSink, XgmiiSource

import baser_model
from baser_model import BaseRSink, BaseRSource

CLK_PS = 6400                               # 156.25 MHz
SEED = int(os.environ.get("PCS_SEED", "1"))
QUICK = os.environ.get("PCS_QUICK", "0") == "1"

LF_WORD = (0x0100009C0100009C, 0x11)        # local fault in lanes 0 and 4
E_WORD = (0xFEFEFEFEFEFEFEFE, 0xFF)
IDLE_WORD = (0x0707070707070707, 0xFF)

SYNC_DATA = 0b10                            # line order: hdr[0] first
SYNC_CTRL = 0b01


def val(sig):
    return int(sig.value)


def tb_bit_reverse(dut):
    return bool(val(dut.BIT_REVERSE))


def bitrev(v, n):
    return int(f"{v:0{n}b}"[::-1], 2)


# ---------------------------------------------------------------------------
# Bench
# ---------------------------------------------------------------------------

class Counters:
    NAMES = {
        "sync": "rx_sync_errors", "blk": "rx_block_errors", "losses": "rx_lock_losses",
        "leaks": "chk_leaks", "lf_words": "chk_lf_words", "e_words": "chk_e_words",
        "tx_bad": "chk_tx_bad", "hiber_rises": "chk_hiber_rises",
        "lock_rises": "chk_lock_rises", "slips": "lane_slips",
    }

    def __init__(self, dut):
        self.v = {k: val(getattr(dut, s)) for k, s in self.NAMES.items()}

    def __sub__(self, other):
        d = Counters.__new__(Counters)
        d.v = {k: self.v[k] - other.v[k] for k in self.v}
        return d

    def __getattr__(self, k):
        return self.v[k]

    def __repr__(self):
        return " ".join(f"{k}={v}" for k, v in self.v.items())


class TB:
    def __init__(self, dut):
        self.dut = dut
        self.log = logging.getLogger("cocotb.tb")
        self.log.setLevel(logging.INFO)
        self.bit_reverse = val(dut.BIT_REVERSE)
        self.slip_wait = val(dut.SLIP_WAIT)
        self.ber_cycles = val(dut.BER_TIMER_CYCLES)
        for name in ("cocotb.tb_froce_eth_pcs_10g.xgmii_txd", "cocotb.tb_froce_eth_pcs_10g.xgmii_rxd",
                     "cocotb.tb_froce_eth_pcs_10g.serdes_tx_data", "cocotb.tb_froce_eth_pcs_10g.src_data"):
            logging.getLogger(name).setLevel(logging.WARNING)   # no line per frame

        cocotb.start_soon(Clock(dut.clk, CLK_PS, units="ps").start())
        dut.rst.setimmediatevalue(1)
        dut.xgmii_txd.setimmediatevalue(IDLE_WORD[0])
        dut.xgmii_txc.setimmediatevalue(IDLE_WORD[1])
        dut.src_data.setimmediatevalue(0)
        dut.src_hdr.setimmediatevalue(0)
        dut.lane_sel.setimmediatevalue(0)
        dut.lane_load.setimmediatevalue(0)
        dut.lane_load_pos.setimmediatevalue(0)
        dut.lane_err_data.setimmediatevalue(0)
        dut.lane_err_hdr.setimmediatevalue(0)
        dut.chk_force_down.setimmediatevalue(0)

    def now(self):
        return get_sim_time("ps") // CLK_PS

    def counters(self):
        return Counters(self.dut)

    async def reset(self, lane_pos=0, lane_sel=0):
        dut = self.dut
        dut.rst.value = 1
        dut.lane_sel.value = lane_sel
        dut.lane_load_pos.value = lane_pos
        dut.lane_load.value = 1
        await ClockCycles(dut.clk, 10)
        dut.lane_load.value = 0
        dut.rst.value = 0
        await RisingEdge(dut.clk)

    async def wait_for(self, cond, max_cycles, what):
        for n in range(max_cycles + 1):
            if cond():
                return n
            await RisingEdge(self.dut.clk)
        raise AssertionError(f"no {what} within {max_cycles} cycles")

    def lock_bound(self, slips):
        # a slip, SLIP_WAIT ignored cycles, then a wrong boundary shows an
        # invalid header with probability 1/2 per block (20 in a row valid:
        # 1e-6), then 64 valid headers to lock; plus pipeline slack
        return slips * (self.slip_wait + 1 + 20) + 64 + 16

    async def expect_lock(self, expected_slips, slips_before, t_before, what):
        """Wait for block lock; the slips since slips_before must be exactly
        expected_slips and the time within the bound for that many."""
        bound = self.lock_bound(expected_slips)
        await self.wait_for(lambda: val(self.dut.rx_block_lock), bound + 200, what)
        cycles = self.now() - t_before
        slips = val(self.dut.lane_slips) - slips_before
        self.log.info("%s: lock after %d cycles, %d slips (bound %d cycles)", what, cycles, slips, bound)
        assert slips == expected_slips, f"{what}: {slips} slips, expected {expected_slips}"
        assert cycles <= bound, f"{what}: lock took {cycles} cycles, bound {bound}"
        assert val(self.dut.lane_pos) in (0, 66), f"{what}: locked at lane position {val(self.dut.lane_pos)}"
        return cycles

    async def inject(self, hdr=0, data=0, cycles=1):
        """XOR hdr/data (line order) into the next `cycles` lane blocks.
        Call right after a rising edge."""
        self.dut.lane_err_hdr.value = hdr
        self.dut.lane_err_data.value = data
        await ClockCycles(self.dut.clk, cycles)
        self.dut.lane_err_hdr.value = 0
        self.dut.lane_err_data.value = 0

    async def align_to_lock_window(self):
        """Return right after the rising edge from which an injected error
        is the first header of a 64-header lock window: the lane output
        register, the RX input register and the lock counter are 3 edges."""
        cnt = self.dut.u_dut.u_rx.u_block_lock.sh_cnt_reg
        await self.wait_for(lambda: val(cnt) == 61, 70, "lock window position 61")

    async def wait_tx_start(self):
        """Wait until the XGMII TX input carries /S/ (lane 0 or 4)."""
        def start():
            d, c = val(self.dut.xgmii_txd), val(self.dut.xgmii_txc)
            return any((c >> n) & 1 and (d >> 8 * n) & 0xFF == 0xFB for n in (0, 4))
        await self.wait_for(start, 100000, "/S/ on XGMII TX")

    async def flow(self, src, sink, frames, what):
        """Send frames, receive each intact, in order."""
        for f in frames:
            await src.send(f)
        rxs = []
        for i, tx in enumerate(frames):
            rx = await recv(sink, len(tx) // 8 + 2000, f"{what} frame {i}")
            check_frame(tx, rx, f"{what} frame {i}")
            rxs.append(rx)
        return rxs


async def recv(sink, cycles, what, compact=True):
    """The next frame from sink within `cycles` cycles (an AssertionError, not
    a timeout error, if none: the negative controls test for that)."""
    try:
        return await with_timeout(sink.recv(compact), cycles * CLK_PS, "ps")
    except cocotb.result.SimTimeoutError:
        raise AssertionError(f"{what}: no frame within {cycles} cycles") from None


def frame_plan(rng):
    """Every length 64..79 (so every terminate lane occurs at both start
    lanes), a few random lengths up to 9600, and one 9600-byte frame."""
    if QUICK:
        return make_frames(rng, 16) + make_frames(rng, 1, lo=9600, hi=9600, sweep=False)
    return make_frames(rng, 20) + make_frames(rng, 1, lo=9600, hi=9600, sweep=False)


def make_frames(rng, n, lo=64, hi=9600, sweep=True):
    """n frames of lo..hi bytes including the FCS; with sweep the first 16
    have consecutive lengths, so every terminate lane occurs."""
    frames = []
    for i in range(n):
        length = lo + i if sweep and i < 16 else rng.randint(lo, hi)
        frames.append(XgmiiFrame.from_payload(rng.randbytes(length - 4)))
    return frames


def check_frame(tx, rx, what):
    assert rx.ctrl is None or not any(rx.ctrl), \
        f"{what}: control character inside the frame (len {len(rx.data)} of {len(tx.data)})"
    if bytes(rx.data) != bytes(tx.data):
        diff = next((i for i, (a, b) in enumerate(zip(rx.data, tx.data)) if a != b), None)
        raise AssertionError(f"{what}: received {len(rx.data)} bytes, sent {len(tx.data)}, first difference at {diff}")
    assert rx.check_fcs(), f"{what}: bad FCS"


def term_lane(rx):
    # rx.data holds the frame from /S/ (as 0x55) up to before /T/
    return (rx.start_lane + len(rx.data)) % 8


class WarningCounter(logging.Handler):
    """Counts the warnings a model logs (the BASE-R sink warns about every
    block it cannot decode)."""

    def __init__(self, log):
        super().__init__(logging.WARNING)
        self.count = 0
        log.addHandler(self)

    def emit(self, record):
        self.count += 1


class LineModels:
    """The 64B/66B source and sink a test runs against: ours (baser_model)
    or verilog-ethernet's baser.py (FROCE_BASER_PY). rejected(sink) starts
    counting the blocks the sink rejects and returns a function giving the
    count so far: ours records them (BaseRSink.errors), baser.py's sink
    logs a warning per block it cannot decode."""

    def __init__(self, name, source_cls, sink_cls, ours):
        self.name = name
        self.source_cls = source_cls
        self.sink_cls = sink_cls
        self.ours = ours

    def source(self, data, hdr, clk, reverse):
        return self.source_cls(data, hdr, clk, scramble=True, reverse=reverse)

    def sink(self, data, hdr, clk, reverse):
        return self.sink_cls(data, hdr, clk, scramble=True, reverse=reverse)

    def rejected(self, sink):
        if self.ours:
            sink.clear_errors()
            return lambda: len(sink.errors)
        counter = WarningCounter(sink.log)    # "Invalid block type", "Invalid sync header"
        return lambda: counter.count


def load_baser_py():
    path = os.environ.get("FROCE_BASER_PY", "")
    if not path:
        return None
    spec = importlib.util.spec_from_file_location("verilog_ethernet_baser", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return LineModels("baser.py", mod.BaseRSerdesSource, mod.BaseRSerdesSink, ours=False)


OURS = LineModels("baser_model", BaseRSource, BaseRSink, ours=True)
BASER_PY = load_baser_py()
NO_BASER_PY = BASER_PY is None     # skip the cross-check tests


class Descrambler:
    """x^58 + x^39 + 1, line bit order (our own, from the standard's formula)."""

    def __init__(self):
        self.state = 0

    def __call__(self, data):
        out = 0
        for i in range(64):
            r = (data >> i) & 1
            if r ^ ((self.state >> 38) & 1) ^ ((self.state >> 57) & 1):
                out |= 1 << i
            self.state = ((self.state << 1) | r) & ((1 << 58) - 1)
        return out


# ---------------------------------------------------------------------------
# TX against the model sink
# ---------------------------------------------------------------------------

async def tx_setup(dut, models, model_reverse=None):
    """PCS TX between an XgmiiSource and the model sink, out of reset."""
    tb = TB(dut)
    if model_reverse is None:
        model_reverse = bool(tb.bit_reverse)
    src = XgmiiSource(dut.xgmii_txd, dut.xgmii_txc, dut.clk, dut.rst)
    sink = models.sink(dut.serdes_tx_data, dut.serdes_tx_hdr, dut.clk, model_reverse)
    return tb, src, sink


async def run_tx_vs_model(dut, models):
    tb, src, sink = await tx_setup(dut, models)
    rng = random.Random(SEED)

    # during reset the line carries scrambled LBLOCK_T (local fault, 0x55)
    desc = Descrambler()
    blocks = []
    for _ in range(8):
        await RisingEdge(dut.clk)
        d, h = val(dut.serdes_tx_data), val(dut.serdes_tx_hdr)
        if tb.bit_reverse:
            d, h = bitrev(d, 64), bitrev(h, 2)
        blocks.append((h, desc(d)))
    lblock = 0x55 | 0x01 << 24 | 0x01 << 56
    assert blocks[2:] == [(SYNC_CTRL, lblock)] * 6, f"not LBLOCK_T during reset: {blocks}"

    await tb.reset()
    await ClockCycles(dut.clk, 20)
    sink.clear()        # the model's descrambler needed 58 bits to synchronise
    c0 = tb.counters()
    rejected = models.rejected(sink)

    rxs = await tb.flow(src, sink, frame_plan(rng), "tx")
    starts = {rx.start_lane for rx in rxs}
    terms = {term_lane(rx) for rx in rxs}
    tb.log.info("%d frames; start lanes %s, terminate lanes %s", len(rxs), sorted(starts), sorted(terms))
    assert starts == {0, 4}, f"start lanes {starts}"
    assert terms == set(range(8)), f"terminate lanes {terms}"
    if models.ours:
        assert sink.eblocks == 0, f"{sink.eblocks} error blocks in clean traffic"

    # /E/ inside a frame: the whole word becomes EBLOCK_T, the model ends the
    # frame there; the frame after it is intact
    for pos in (100, 555):
        tx = XgmiiFrame.from_payload(rng.randbytes(996))
        tx.normalize()
        tx.data[pos] = 0xFE
        tx.ctrl[pos] = 1
        good = XgmiiFrame.from_payload(rng.randbytes(200))
        await src.send(tx)
        await src.send(good)
        rx = await recv(sink, 1000, f"/E/ at {pos}", compact=False)
        cut = (rx.start_lane + pos) // 8 * 8 - rx.start_lane      # start of /E/'s word
        assert bytes(rx.data) == bytes(tx.data[:cut]) + b"\xfe" and rx.ctrl[-1] == 1, \
            f"/E/ at {pos}: got {len(rx.data)} bytes ending {rx.data[-4:].hex()}, expected cut at {cut}"
        check_frame(good, await recv(sink, 1000, f"after /E/ at {pos}"), f"frame after /E/ at {pos}")

    await ClockCycles(dut.clk, 100)
    assert sink.empty(), "extra frames at the model sink"
    assert rejected() == 0, f"the model sink rejected {rejected()} blocks" + \
        (f": {sink.errors[:4]}" if models.ours else "")
    if models.ours:
        # exactly the two error blocks, each as EBLOCK_T (0x1E with eight /E/)
        assert sink.eblocks == 2, f"{sink.eblocks} error blocks at the model sink, expected 2"
    d = tb.counters() - c0
    assert d.tx_bad == 2, f"tx_bad_block pulses: {d.tx_bad}, expected 2"


async def run_negative_tx_bit_order(dut, models):
    tb, src, sink = await tx_setup(dut, models, model_reverse=not tb_bit_reverse(dut))
    await tb.reset()
    await ClockCycles(dut.clk, 20)
    sink.clear()
    rng = random.Random(SEED + 10)
    try:
        await tb.flow(src, sink, make_frames(rng, 3, hi=200, sweep=False), "wrong bit order")
    except AssertionError as e:
        tb.log.info("negative control: detected: %s", e)
    else:
        raise AssertionError("negative control: frames arrived intact with the wrong bit order")


@cocotb.test(timeout_time=300, timeout_unit="us")
async def test_tx_vs_model(dut):
    """XgmiiSource -> PCS TX -> BaseRSink: frames 64..9600 bytes at the
    minimum IFG with DIC (starts on lanes 0 and 4), every frame intact and
    every terminate lane used, no block rejected (strict: unused bits 0);
    LBLOCK_T during reset; an /E/ inside a frame becomes EBLOCK_T, which
    ends the frame at the model."""
    await run_tx_vs_model(dut, OURS)


@cocotb.test(timeout_time=100, timeout_unit="us")
async def test_negative_tx_bit_order(dut):
    """Negative control: the model sink with the other bit order (reverse
    option flipped) must not see our frames intact."""
    await run_negative_tx_bit_order(dut, OURS)


@cocotb.test(timeout_time=300, timeout_unit="us", skip=NO_BASER_PY)
async def test_tx_vs_model_baserpy(dut):
    """test_tx_vs_model against verilog-ethernet's BaseRSerdesSink."""
    assert BASER_PY is not None, "FROCE_BASER_PY is not set"
    await run_tx_vs_model(dut, BASER_PY)


@cocotb.test(timeout_time=100, timeout_unit="us", skip=NO_BASER_PY)
async def test_negative_tx_bit_order_baserpy(dut):
    """test_negative_tx_bit_order against verilog-ethernet's BaseRSerdesSink."""
    assert BASER_PY is not None, "FROCE_BASER_PY is not set"
    await run_negative_tx_bit_order(dut, BASER_PY)


# ---------------------------------------------------------------------------
# RX against the model source
# ---------------------------------------------------------------------------

async def rx_setup(dut, models):
    """Model source -> lane at a random bit offset -> PCS RX -> XgmiiSink,
    locked: exactly the slips the offset needs, in bounded time, local
    fault on XGMII before."""
    tb = TB(dut)
    rng = random.Random(SEED + 1)
    src = models.source(dut.src_data, dut.src_hdr, dut.clk, bool(tb.bit_reverse))
    sink = XgmiiSink(dut.xgmii_rxd, dut.xgmii_rxc, dut.clk, dut.rst)
    offset = rng.randint(1, 65)
    tb.log.info("initial bit offset %d", offset)
    await tb.reset(lane_pos=offset, lane_sel=1)
    await tb.expect_lock((66 - offset) % 66, 0, tb.now(), "first lock")
    assert sink.get_os() == (0x000001, False), "no local fault ordered set before lock"
    assert sink.empty(), "frames before lock"
    return tb, src, sink, rng


async def run_rx_vs_model(dut, models):
    tb, src, sink, rng = await rx_setup(dut, models)
    c0 = tb.counters()
    await tb.flow(src, sink, frame_plan(rng), "rx")
    await ClockCycles(dut.clk, 100)
    assert sink.empty(), "extra frames"
    d = tb.counters() - c0
    assert (d.sync, d.blk, d.losses, d.leaks) == (0, 0, 0, 0), f"errors on a clean lane: {d}"
    assert val(dut.rx_link_up) == 1


async def run_negative_rx_bit_flip(dut, models):
    tb, src, sink, rng = await rx_setup(dut, models)
    tx = XgmiiFrame.from_payload(rng.randbytes(1496))
    await src.send(tx)
    await ClockCycles(dut.clk, 40)
    await tb.inject(data=1 << rng.randint(0, 63))
    try:
        check_frame(tx, await recv(sink, 1000, "flipped"), "flipped frame")
    except AssertionError as e:
        tb.log.info("negative control: detected: %s", e)
    else:
        raise AssertionError("negative control: a frame with a flipped line bit passed the check")


@cocotb.test(timeout_time=300, timeout_unit="us")
async def test_rx_vs_model(dut):
    """BaseRSource (scrambled) -> lane with a random bit offset -> PCS RX ->
    XgmiiSink: lock from the offset (see rx_setup), then every frame intact,
    no error counted."""
    await run_rx_vs_model(dut, OURS)


@cocotb.test(timeout_time=100, timeout_unit="us")
async def test_negative_rx_bit_flip(dut):
    """Negative control: one line bit flipped inside a frame from the model
    source must make the frame check fail."""
    await run_negative_rx_bit_flip(dut, OURS)


@cocotb.test(timeout_time=300, timeout_unit="us", skip=NO_BASER_PY)
async def test_rx_vs_model_baserpy(dut):
    """test_rx_vs_model with verilog-ethernet's BaseRSerdesSource."""
    assert BASER_PY is not None, "FROCE_BASER_PY is not set"
    await run_rx_vs_model(dut, BASER_PY)


@cocotb.test(timeout_time=100, timeout_unit="us", skip=NO_BASER_PY)
async def test_negative_rx_bit_flip_baserpy(dut):
    """test_negative_rx_bit_flip with verilog-ethernet's BaseRSerdesSource."""
    assert BASER_PY is not None, "FROCE_BASER_PY is not set"
    await run_negative_rx_bit_flip(dut, BASER_PY)


# ---------------------------------------------------------------------------
# Round trip with line impairments
# ---------------------------------------------------------------------------

@cocotb.test(timeout_time=1500, timeout_unit="us")
async def test_roundtrip(dut):
    """XgmiiSource -> PCS TX -> lane -> PCS RX -> XgmiiSink, with a random bit
    offset and injected line errors (see the phases below)."""
    tb = TB(dut)
    rng = random.Random(SEED + 2)
    src = XgmiiSource(dut.xgmii_txd, dut.xgmii_txc, dut.clk, dut.rst)
    sink = XgmiiSink(dut.xgmii_rxd, dut.xgmii_rxc, dut.clk, dut.rst)
    offset = rng.randint(1, 65)
    tb.log.info("initial bit offset %d", offset)

    # 1. lock via slips from a random offset, frames flow
    await tb.reset(lane_pos=offset, lane_sel=0)
    await tb.expect_lock((66 - offset) % 66, 0, tb.now(), "first lock")
    await tb.flow(src, sink, make_frames(rng, 18, hi=9600), "after lock")
    c = tb.counters()
    assert (c.sync, c.blk, c.losses, c.leaks) == (0, 0, 0, 0), f"errors on a clean lane: {c}"

    # 2. a few invalid sync headers: each counted, each block an /E/ word,
    #    lock and link kept
    await ClockCycles(dut.clk, 10)
    c = tb.counters()
    for _ in range(3):
        await tb.inject(hdr=0b01)
        await ClockCycles(dut.clk, 20)
    d = tb.counters() - c
    tb.log.info("3 invalid headers: %s", d)
    assert (d.sync, d.blk, d.e_words) == (3, 3, 3), f"3 invalid headers: {d}"
    assert (d.losses, d.hiber_rises) == (0, 0) and val(dut.rx_link_up), f"link lost: {d}"

    # 3. 15 invalid headers in one lock window: lock kept, no hi_ber
    await ClockCycles(dut.clk, tb.ber_cycles + 10)        # a fresh BER window
    c = tb.counters()
    await tb.align_to_lock_window()
    await tb.inject(hdr=0b01, cycles=15)
    await ClockCycles(dut.clk, 80)
    d = tb.counters() - c
    tb.log.info("15 invalid headers: %s", d)
    assert d.sync == 15 and d.losses == 0 and d.hiber_rises == 0, f"15 invalid headers: {d}"
    assert val(dut.rx_link_up) == 1

    # 4. 16 in one window: lock lost at once; frames sent meanwhile never
    #    come out (only LF or idle words); 66 slips later lock is back
    await ClockCycles(dut.clk, tb.ber_cycles + 10)
    c = tb.counters()
    await tb.align_to_lock_window()
    await tb.inject(hdr=0b01, cycles=16)
    await tb.wait_for(lambda: not val(dut.rx_block_lock), 8, "lock loss after 16 invalid headers")
    t_loss = tb.now()
    lost = make_frames(rng, 3, hi=300, sweep=False)
    for f in lost:
        await src.send(f)
    assert (val(dut.xgmii_rxd), val(dut.xgmii_rxc)) == LF_WORD, "no local fault on XGMII after lock loss"
    await tb.expect_lock(66, c.slips, t_loss, "relock")
    await ClockCycles(dut.clk, 100)
    d = tb.counters() - c
    tb.log.info("16 invalid headers: %s", d)
    assert d.losses == 1 and d.sync == 16, f"16 invalid headers: {d}"
    assert sink.empty(), f"{sink.count()} frames came out while the lane was down"
    assert d.leaks == 0 and d.lf_words > 66 * (tb.slip_wait + 1), f"XGMII while down: {d}"
    await tb.flow(src, sink, make_frames(rng, 4, hi=1500, sweep=False), "after relock")

    # 5. hi_ber: 40 invalid headers one block in five (at most 13 per lock
    #    window, so lock holds); link down, LF only, then recovery
    await ClockCycles(dut.clk, tb.ber_cycles + 10)
    c = tb.counters()
    for _ in range(40):
        await tb.inject(hdr=0b10)
        await ClockCycles(dut.clk, 4)
    await ClockCycles(dut.clk, 5)
    assert val(dut.rx_hi_ber) == 1 and val(dut.rx_block_lock) == 1 and val(dut.rx_link_up) == 0, \
        "40 spread invalid headers: expected hi_ber with block lock"
    for f in make_frames(rng, 2, hi=200, sweep=False):
        await src.send(f)
    await tb.wait_for(lambda: src.idle(), 500, "frames sent during hi_ber")
    assert val(dut.rx_hi_ber) == 1, "hi_ber ended before the frames were through"
    n = await tb.wait_for(lambda: not val(dut.rx_hi_ber), 2 * tb.ber_cycles + 10, "hi_ber to clear")
    tb.log.info("hi_ber cleared %d cycles after the burst", n)
    await ClockCycles(dut.clk, 50)
    d = tb.counters() - c
    tb.log.info("hi_ber burst: %s", d)
    assert d.hiber_rises == 1 and d.losses == 0 and d.sync == 40, f"hi_ber burst: {d}"
    assert sink.empty(), "frames came out during hi_ber"
    assert d.leaks == 0 and d.lf_words > 100, f"XGMII during hi_ber: {d}"
    await tb.flow(src, sink, make_frames(rng, 4, hi=1500, sweep=False), "after hi_ber")

    # 6. one line bit flipped in a data block: the frame arrives with the
    #    descrambler's three errors (bit p, p+39, p+58) and a bad FCS
    c = tb.counters()
    tx = XgmiiFrame.from_payload(rng.randbytes(1496))
    await src.send(tx)
    await tb.wait_tx_start()
    await ClockCycles(dut.clk, 40)
    await tb.inject(data=1 << rng.randint(0, 63))
    rx = await recv(sink, 1000, "corrupted frame")
    assert len(rx.data) == len(tx.data), f"payload bit flip changed the length: {len(rx.data)}"
    diff = int.from_bytes(rx.data, "little") ^ int.from_bytes(tx.data, "little")
    bits = [i for i in range(diff.bit_length()) if (diff >> i) & 1]
    tb.log.info("payload bit flip: frame bits %s differ", bits)
    assert len(bits) == 3 and bits[1] - bits[0] == 39 and bits[2] - bits[0] == 58, \
        f"expected errors at p, p+39, p+58; got {bits}"
    assert not rx.check_fcs(), "corrupted frame passes the FCS"
    d = tb.counters() - c
    assert (d.sync, d.blk) == (0, 0), f"a data bit flip is neither a sync nor a block error: {d}"

    # 7. an invalid block type between frames becomes one /E/ word
    await ClockCycles(dut.clk, 50)
    c = tb.counters()
    await tb.inject(data=0x01)          # block type 0x1E -> 0x1F
    await ClockCycles(dut.clk, 20)
    d = tb.counters() - c
    assert (d.e_words, d.blk, d.sync) == (1, 1, 0), f"invalid block type: {d}"

    # 8. a data block mid-frame turned into a control block (header 01 -> 10):
    #    /E/ there, the MAC sees the frame end in an error
    c = tb.counters()
    tx = XgmiiFrame.from_payload(rng.randbytes(1496))
    await src.send(tx)
    await tb.wait_tx_start()
    await ClockCycles(dut.clk, 40)
    await tb.inject(hdr=0b11)
    rx = await recv(sink, 1000, "truncated frame", compact=False)
    cut = len(rx.data) - 1
    assert rx.data[-1] == 0xFE and rx.ctrl[-1] == 1, "frame with a corrupted block does not end in /E/"
    assert bytes(rx.data[:cut]) == bytes(tx.data[:cut]) and (rx.start_lane + cut) % 8 == 0, \
        "frame before the corrupted block differs"
    await ClockCycles(dut.clk, 5)       # the checkers count a cycle after the sink sees the word
    d = tb.counters() - c
    assert (d.blk, d.sync, d.e_words) == (1, 0, 1), f"corrupted block: {d}"
    await tb.flow(src, sink, make_frames(rng, 4, hi=1500, sweep=False), "after corruption")

    # 9. the leak checker's own negative control: forced "link down", normal
    #    traffic must count as leaks
    c = tb.counters()
    dut.chk_force_down.value = 1
    await tb.flow(src, sink, make_frames(rng, 1, hi=200, sweep=False), "checker control")
    dut.chk_force_down.value = 0
    assert (tb.counters() - c).leaks > 0, "the leak checker does not fire"

    c = tb.counters()
    tb.log.info("totals: %s", c)
    assert c.losses == 1 and c.hiber_rises == 1 and c.sync == 3 + 15 + 16 + 40


# ---------------------------------------------------------------------------
# Every block type, directed
# ---------------------------------------------------------------------------

def C(x):
    return ("c", x)


def word(lanes):
    d = c = 0
    for i, t in enumerate(lanes):
        if isinstance(t, tuple):
            d |= t[1] << 8 * i
            c |= 1 << i
        else:
            d |= t << 8 * i
    return d, c


IDLE = [C(0x07)] * 8
EBLOCK_T = 0x1E | sum(0x1E << (8 + 7 * i) for i in range(8))


def codes(cs, first=0):
    """7-bit codes of lanes first.. at their fixed positions 8 + 7 * lane."""
    return sum(code << (8 + 7 * (first + i)) for i, code in enumerate(cs))


def directed_sequence():
    """(XGMII lanes, TX block (hdr, payload) or "E" or None, RX "same" or "E").

    Expected blocks are written from Table 49-7; "E" = EBLOCK_T / EBLOCK_R.
    Invalid words are separated by idles so the state machines recover.
    """
    dat = list(range(0x10, 0x18))
    seq = []

    def add(lanes, tx, rx="same"):
        seq.append((lanes, tx, rx))

    def data(tag):
        add([tag + i for i in range(8)], None)

    def idle(n=1):
        for _ in range(n):
            add(IDLE, (SYNC_CTRL, 0x1E))

    idle(4)
    add([C(0x07), C(0x06), C(0x1C), C(0x3C), C(0x7C), C(0xBC), C(0xDC), C(0xF7)],
        (SYNC_CTRL, 0x1E | codes([0x00, 0x06, 0x2D, 0x33, 0x4B, 0x55, 0x66, 0x78])))
    add([C(0x9C), 0x00, 0x00, 0x02] + [C(0x07)] * 4, (SYNC_CTRL, 0x4B | 0x02 << 24))
    add([C(0x07)] * 4 + [C(0x5C), 0xAA, 0xBB, 0xCC],
        (SYNC_CTRL, 0x2D | 0xF << 36 | 0xAA << 40 | 0xBB << 48 | 0xCC << 56))
    add([C(0x9C), 0x00, 0x00, 0x01, C(0x5C), 0x11, 0x22, 0x33],
        (SYNC_CTRL, 0x55 | 0x01 << 24 | 0xF << 36 | 0x11 << 40 | 0x22 << 48 | 0x33 << 56))
    add([C(0x9C), 0x00, 0x00, 0x02, C(0xFB), 0x55, 0x55, 0x55],
        (SYNC_CTRL, 0x66 | 0x02 << 24 | 0x555555 << 40))
    add([0x55, 0x55, 0x55, 0xD5, 1, 2, 3, 4], (SYNC_DATA, 0x04030201D5555555))
    data(0x20)
    add([0x11, 0x22, 0x33, C(0xFD)] + [C(0x07)] * 4, (SYNC_CTRL, 0xB4 | 0x332211 << 8))
    idle()
    add([C(0xFB)] + [0x55] * 6 + [0xD5], (SYNC_CTRL, 0x78 | 0xD5555555555555 << 8))
    data(0x30)
    add([C(0xFD)] + [C(0x07)] * 7, (SYNC_CTRL, 0x87))
    idle()
    add([C(0x07)] * 4 + [C(0xFB), 0x55, 0x55, 0x55], (SYNC_CTRL, 0x33 | 0x555555 << 40))
    data(0x40)
    add(dat[:7] + [C(0xFD)], (SYNC_CTRL, 0xFF | int.from_bytes(bytes(dat[:7]), "little") << 8))
    idle()
    bts = {1: 0x99, 2: 0xAA, 4: 0xCC, 5: 0xD2, 6: 0xE1}
    for k, bt in bts.items():
        add([C(0xFB)] + [0x55] * 6 + [0xD5], None)
        data(0x50 + k)
        add(dat[:k] + [C(0xFD)] + [C(0x07)] * (7 - k),
            (SYNC_CTRL, bt | int.from_bytes(bytes(dat[:k]), "little") << 8))
        idle()
    # terminate with /E/ after it (allowed), reserved chars after it
    add([C(0xFB)] + [0x55] * 6 + [0xD5], None)
    add(dat[:5] + [C(0xFD), C(0xFE), C(0x1C)],
        (SYNC_CTRL, 0xD2 | int.from_bytes(bytes(dat[:5]), "little") << 8 | codes([0x1E, 0x2D], first=6)))
    idle(2)

    # invalid words
    add([C(0x07), C(0x07), C(0x00)] + [C(0x07)] * 5, "E", "E")        # 0x00 is no control char
    idle()
    add([C(0x07), C(0x07), C(0xFB)] + [0x55] * 5, "E", "E")            # /S/ in lane 2
    idle()
    add([C(0x07), C(0xFD)] + [C(0x07)] * 6, "E", "E")                  # /T/ after a control char
    idle()
    data(0x60)                                                          # data between frames
    seq[-1] = (seq[-1][0], "E", "E")
    idle()
    add([C(0x07), C(0xFE)] + [C(0x07)] * 6, "E", "E")                  # /E/ in an idle word
    idle()
    add([C(0x9C), 0x00, 0x00, 0x01, 0x11, 0x22, 0x33, 0x44], "E", "E")   # ordered set + data
    idle()
    add([C(0x07)] * 4 + [C(0xFB), 0x55, C(0x07), 0x55], "E", "E")      # control after /S/
    idle()
    # an idle word inside a frame: E, then the frame resumes (TX_E/RX_E + D -> D)
    add([C(0xFB)] + [0x55] * 6 + [0xD5], None)
    data(0x70)
    add(IDLE, "E", "E")
    data(0x78)
    add(dat[:3] + [C(0xFD)] + [C(0x07)] * 4, None)
    idle()
    # /S/ right after an error: (E + S) -> E, the data after it passes
    add([C(0x07), C(0xFE)] + [C(0x07)] * 6, "E", "E")
    add([C(0xFB)] + [0x55] * 6 + [0xD5], "E", "E")
    data(0x80)
    add(dat[:2] + [C(0xFD)] + [C(0x07)] * 5, None)
    idle()
    # data right after /T/: TX sends the T block, then E; RX sees T before an
    # E block (R_TYPE_NEXT not S or C) and replaces the T block too
    add([C(0xFB)] + [0x55] * 6 + [0xD5], None)
    add(dat[:4] + [C(0xFD)] + [C(0x07)] * 3, None, "E")
    data(0x90)
    seq[-1] = (seq[-1][0], "E", "E")
    idle(6)
    return seq


@cocotb.test(timeout_time=100, timeout_unit="us")
async def test_block_types(dut):
    """Every Table 49-7 block type and a set of invalid XGMII words, TX -> lane
    -> RX: each TX block equals the table (after our descrambler), each RX
    word equals the input word, invalid ones are /E/ at both ends."""
    tb = TB(dut)
    await tb.reset(lane_pos=0, lane_sel=0)
    await tb.wait_for(lambda: val(dut.rx_block_lock), 200, "block lock")
    await ClockCycles(dut.clk, 10)
    c0 = tb.counters()

    seq = directed_sequence()
    n_tail = 12
    tx_seen, rx_seen = [], []
    desc = Descrambler()
    for i in range(len(seq) + n_tail):
        lanes = seq[i][0] if i < len(seq) else IDLE
        d, c = word(lanes)
        dut.xgmii_txd.value = d
        dut.xgmii_txc.value = c
        await RisingEdge(dut.clk)
        td, th = val(dut.serdes_tx_data), val(dut.serdes_tx_hdr)
        if tb.bit_reverse:
            td, th = bitrev(td, 64), bitrev(th, 2)
        tx_seen.append((th, desc(td)))
        rx_seen.append((val(dut.xgmii_rxd), val(dut.xgmii_rxc)))
    await ClockCycles(dut.clk, 5)
    d = tb.counters() - c0

    # pipeline latencies, found from the first non-idle word, then fixed
    marker = seq[4]
    tx_lat = next(i for i, b in enumerate(tx_seen) if b == marker[1]) - 4
    rx_lat = next(i for i, w in enumerate(rx_seen) if w == word(marker[0])) - 4
    tb.log.info("latency: TX %d, TX+lane+RX %d cycles", tx_lat, rx_lat)
    assert 1 <= tx_lat <= 6 and tx_lat < rx_lat <= tx_lat + 8

    n_e_tx = n_e_rx = 0
    for i, (lanes, tx_exp, rx_exp) in enumerate(seq):
        w = word(lanes)
        got_tx = tx_seen[i + tx_lat]
        if tx_exp == "E":
            n_e_tx += 1
            assert got_tx == (SYNC_CTRL, EBLOCK_T), f"word {i} {w[0]:016x}/{w[1]:02x}: TX {got_tx}, expected EBLOCK_T"
        elif tx_exp is not None:
            assert got_tx == tx_exp, \
                f"word {i} {w[0]:016x}/{w[1]:02x}: TX block {got_tx[0]:02b} {got_tx[1]:016x}, " \
                f"expected {tx_exp[0]:02b} {tx_exp[1]:016x}"
        elif w[1] == 0:
            assert got_tx == (SYNC_DATA, w[0]), f"word {i}: TX data block {got_tx}"
        got_rx = rx_seen[i + rx_lat]
        exp_rx = E_WORD if rx_exp == "E" else w
        n_e_rx += rx_exp == "E"
        assert got_rx == exp_rx, \
            f"word {i} {w[0]:016x}/{w[1]:02x}: RX {got_rx[0]:016x}/{got_rx[1]:02x}, " \
            f"expected {exp_rx[0]:016x}/{exp_rx[1]:02x}"
    assert d.tx_bad == n_e_tx, f"tx_bad_block pulses {d.tx_bad}, expected {n_e_tx}"
    assert d.blk == n_e_rx and d.sync == 0, f"RX block errors {d.blk} (expected {n_e_rx}), sync {d.sync}"
    tb.log.info("%d words, %d TX error blocks, %d RX error words", len(seq), n_e_tx, n_e_rx)


# ---------------------------------------------------------------------------
# Receive rules on crafted blocks
# ---------------------------------------------------------------------------

class Scrambler:
    """x^58 + x^39 + 1, line bit order (our own, from the standard's formula)."""

    def __init__(self):
        self.state = (1 << 58) - 1

    def __call__(self, data):
        out = 0
        for i in range(64):
            b = ((data >> i) & 1) ^ ((self.state >> 38) & 1) ^ ((self.state >> 57) & 1)
            out |= b << i
            self.state = ((self.state << 1) | b) & ((1 << 58) - 1)
        return out


XGMII_OF_CODE = {0x00: 0x07, 0x06: 0x06, 0x1E: 0xFE, 0x2D: 0x1C, 0x33: 0x3C,
                 0x4B: 0x7C, 0x55: 0xBC, 0x66: 0xDC, 0x78: 0xF7}
TERM_BT = {0: 0x87, 1: 0x99, 2: 0xAA, 3: 0xB4, 4: 0xCC, 5: 0xD2, 6: 0xE1, 7: 0xFF}


def rx_directed_sequence():
    """(sync header, payload, expected XGMII word or "E"): block types, R_TYPE
    checks and the receive state machine's transitions (Figure 49-15),
    including the ones our transmitter never produces."""
    seq = []

    def add(h, p, exp="same"):
        seq.append((h, p, exp))

    def idle(n=1, exp=None):
        for _ in range(n):
            add(SYNC_CTRL, 0x1E, exp or word(IDLE))

    def start(exp=None):
        lanes = [C(0xFB)] + [0x55] * 6 + [0xD5]
        add(SYNC_CTRL, 0x78 | 0xD5555555555555 << 8, exp or word(lanes))

    def data(tag, exp=None):
        lanes = [(tag + i) & 0xFF for i in range(8)]
        add(SYNC_DATA, int.from_bytes(bytes(lanes), "little"), exp or word(lanes))

    def term(k, trail=None, exp=None):
        dat = [0xA0 + i for i in range(k)]
        trail = [0x00] * (7 - k) if trail is None else trail
        p = TERM_BT[k] | int.from_bytes(bytes(dat), "little") << 8 | codes(trail, first=k + 1)
        if exp is None:
            exp = word(dat + [C(0xFD)] + [C(XGMII_OF_CODE[c]) for c in trail])
        add(SYNC_CTRL, p, exp)

    idle(4)
    # control codes: /LI/, reserved, /I/ (the marker: no other word looks like it)
    add(SYNC_CTRL, 0x1E | codes([0x06, 0x2D, 0x33, 0x4B, 0x55, 0x66, 0x78, 0x00]),
        word([C(0x06), C(0x1C), C(0x3C), C(0x7C), C(0xBC), C(0xDC), C(0xF7), C(0x07)]))
    add(SYNC_CTRL, 0x55 | 0x02 << 24 | 0xF << 36 | 0x332211 << 40,
        word([C(0x9C), 0, 0, 2, C(0x5C), 0x11, 0x22, 0x33]))
    add(SYNC_CTRL, 0x2D | 0xCCBBAA << 40, word([C(0x07)] * 4 + [C(0x9C), 0xAA, 0xBB, 0xCC]))
    add(SYNC_CTRL, 0x4B | 0x030201 << 8 | 0xF << 32 | codes([0x2D, 0, 0, 0], first=4),
        word([C(0x5C), 1, 2, 3, C(0x1C), C(0x07), C(0x07), C(0x07)]))
    # R_TYPE E: /E/ in a 0x1E block, invalid codes, O codes, block type, headers
    add(SYNC_CTRL, 0x1E | codes([0, 0, 0x1E, 0, 0, 0, 0, 0]), "E")
    add(SYNC_CTRL, 0x1E | codes([0, 0, 0, 0x01, 0, 0, 0, 0]), "E")
    idle()
    add(SYNC_CTRL, 0x2D | 0x5 << 36, "E")
    idle()
    add(SYNC_CTRL, 0x4B | codes([0, 0, 0x7F, 0], first=4), "E")
    idle()
    add(SYNC_CTRL, 0x00, "E")
    idle()
    add(0b00, 0x1E, "E")
    idle()
    add(0b11, 0x1E, "E")
    idle()
    # frames: /S/ in lane 4 (unused bits 36..39 set: ignored), /T/ followed by
    # /E/ and a reserved code (still T), ordered set + /S/, /T/ in lane 0
    add(SYNC_CTRL, 0x33 | 0xA << 36 | 0x555555 << 40, word([C(0x07)] * 4 + [C(0xFB), 0x55, 0x55, 0x55]))
    data(0x10)
    term(3, trail=[0x1E, 0x00, 0x2D, 0x00])
    idle()
    add(SYNC_CTRL, 0x66 | 0x01 << 24 | 0x555555 << 40, word([C(0x9C), 0, 0, 1, C(0xFB), 0x55, 0x55, 0x55]))
    data(0x20)
    term(0)
    idle()
    # (E + S) -> RX_E; RX_E + D -> RX_D
    add(SYNC_CTRL, 0x1E | codes([0x1E] * 8), "E")
    start("E")
    data(0x30)
    term(2)
    idle()
    # T with R_TYPE_NEXT = D -> E; then D (RX_E -> RX_D), C in RX_D -> E
    start()
    data(0x40)
    term(5, exp="E")
    data(0x48)
    idle(exp="E")
    idle()
    # T with R_TYPE_NEXT = T -> E; the second T (next C) passes
    start()
    data(0x50)
    term(2, exp="E")
    term(4)
    idle()
    # S inside a frame -> E, the frame goes on
    start()
    data(0x60)
    start("E")
    data(0x68)
    term(1)
    idle()
    # T or D right after idle -> E
    term(3, exp="E")
    idle()
    data(0x70, exp="E")
    idle()
    # S blocks failing R_TYPE: a bad code before /S/ in lane 4, a bad O code
    add(SYNC_CTRL, 0x33 | codes([0, 0x7F, 0, 0]) | 0x555555 << 40, "E")
    data(0x78)
    term(0)
    idle()
    add(SYNC_CTRL, 0x66 | 0x3 << 32 | 0x555555 << 40, "E")
    idle()
    # a bad code after /T/: not T -> E
    start()
    data(0x80)
    term(6, trail=[0x7F], exp="E")
    idle(4)
    return seq


@cocotb.test(timeout_time=100, timeout_unit="us")
async def test_rx_block_types(dut):
    """Crafted, scrambled blocks -> lane -> PCS RX: every Table 49-7 block type
    decodes to its XGMII word; each R_TYPE E case and each state machine
    transition our own transmitter cannot produce gives /E/ where Figure
    49-15 says; counters agree."""
    tb = TB(dut)
    # valid headers from the start: the first one the PCS sees must not slip
    dut.src_hdr.value = bitrev(SYNC_CTRL, 2) if tb.bit_reverse else SYNC_CTRL
    await tb.reset(lane_pos=0, lane_sel=1)
    scr = Scrambler()
    seq = rx_directed_sequence()
    lead, tail = 100, 12
    stream = [(SYNC_CTRL, 0x1E, None)] * lead + seq + [(SYNC_CTRL, 0x1E, None)] * tail
    outs = []
    c0 = None
    for i, (h, p, _) in enumerate(stream):
        d = scr(p)
        if tb.bit_reverse:
            d, h = bitrev(d, 64), bitrev(h, 2)
        dut.src_data.value = d
        dut.src_hdr.value = h
        if i == lead:
            assert val(dut.rx_link_up), "no link after 100 clean blocks"
            c0 = tb.counters()
        await RisingEdge(dut.clk)
        outs.append((val(dut.xgmii_rxd), val(dut.xgmii_rxc)))
    await ClockCycles(dut.clk, 5)
    d = tb.counters() - c0

    marker = seq[4][2]
    lat = next(i for i, w in enumerate(outs) if w == marker) - (lead + 4)
    tb.log.info("latency src -> XGMII: %d cycles", lat)
    assert 2 <= lat <= 12, f"latency {lat}"
    n_e = 0
    for i, (h, p, exp) in enumerate(seq):
        got = outs[lead + i + lat]
        if exp == "E":
            n_e += 1
            exp = E_WORD
        assert got == exp, \
            f"block {i} hdr {h:02b} payload {p:016x}: XGMII {got[0]:016x}/{got[1]:02x}, " \
            f"expected {exp[0]:016x}/{exp[1]:02x}"
    assert d.blk == n_e and d.sync == 2 and d.losses == 0, f"counters {d}, expected {n_e} block errors"
    tb.log.info("%d blocks, %d error words", len(seq), n_e)


# ---------------------------------------------------------------------------
# The line model itself (baser_model.py) against Clause 49, by hand
# ---------------------------------------------------------------------------
#
# These need no DUT (they run in the simulator for convenience, at time 0,
# except test_model_loopback). The expected blocks are written out by hand
# from Table 49-7: type field in payload bits 0..7, data lanes at 8-bit
# fields, 7-bit control codes of lane i at bit 8 + 7i, O codes at 32 (lane 0)
# or 36 (lane 4), unused bits zero.

D_LANES = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77]

MODEL_BLOCKS = [
    ("idle 0x1E", [C(0x07)] * 8, SYNC_CTRL, 0x000000000000001E),
    ("data", [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07], SYNC_DATA, 0x0706050403020100),
    ("start lane 0 (0x78)", [C(0xFB)] + [0x55] * 6 + [0xD5], SYNC_CTRL, 0xD555555555555578),
    ("start lane 4 (0x33)", [C(0x07)] * 4 + [C(0xFB), 0x55, 0x55, 0x55], SYNC_CTRL, 0x5555550000000033),
    ("O + start (0x66)", [C(0x9C), 1, 2, 3, C(0xFB), 0x55, 0x55, 0x55], SYNC_CTRL, 0x5555550003020166),
    ("O + O (0x55)", [C(0x5C), 1, 2, 3, C(0x9C), 4, 5, 6], SYNC_CTRL, 0x0605040F03020155),
    ("C + O (0x2D)", [C(0x07)] * 4 + [C(0x5C), 0xAA, 0xBB, 0xCC], SYNC_CTRL, 0xCCBBAAF00000002D),
    ("local fault, O + C (0x4B)", [C(0x9C), 0, 0, 1] + [C(0x07)] * 4, SYNC_CTRL, 0x000000000100004B),
    ("every control code (0x1E)",
     [C(0x07), C(0x06), C(0x1C), C(0x3C), C(0x7C), C(0xBC), C(0xDC), C(0xF7)], SYNC_CTRL, 0xF19AACB66B43001E),
    ("T0 (0x87)", [C(0xFD)] + [C(0x07)] * 7, SYNC_CTRL, 0x0000000000000087),
    ("T1 (0x99)", D_LANES[:1] + [C(0xFD)] + [C(0x07)] * 6, SYNC_CTRL, 0x0000000000001199),
    ("T2 (0xAA)", D_LANES[:2] + [C(0xFD)] + [C(0x07)] * 5, SYNC_CTRL, 0x00000000002211AA),
    ("T3 (0xB4)", D_LANES[:3] + [C(0xFD)] + [C(0x07)] * 4, SYNC_CTRL, 0x00000000332211B4),
    ("T4 (0xCC)", D_LANES[:4] + [C(0xFD)] + [C(0x07)] * 3, SYNC_CTRL, 0x00000044332211CC),
    ("T5 (0xD2)", D_LANES[:5] + [C(0xFD)] + [C(0x07)] * 2, SYNC_CTRL, 0x00005544332211D2),
    ("T6 (0xE1)", D_LANES[:6] + [C(0xFD)] + [C(0x07)] * 1, SYNC_CTRL, 0x00665544332211E1),
    ("T7 (0xFF)", D_LANES[:7] + [C(0xFD)], SYNC_CTRL, 0x77665544332211FF),
    ("T5, /E/ /E/ after it", D_LANES[:5] + [C(0xFD), C(0xFE), C(0xFE)], SYNC_CTRL, 0x3C785544332211D2),
    ("T0, seven /E/ after it", [C(0xFD)] + [C(0xFE)] * 7, SYNC_CTRL, 0x3C78F1E3C78F0087),
]
MODEL_EBLOCK = 0x3C78F1E3C78F1E1E           # 0x1E with eight /E/ codes (0x1E), by hand


@cocotb.test(timeout_time=1, timeout_unit="us")
async def test_model_blocks(dut):
    """baser_model encode_word/decode_block against hand-computed Table 49-7
    blocks (both directions), the directed TX expectations of
    test_block_types, EBLOCK_T, and words that are no block (T_TYPE E)."""
    for name, lanes, hdr, payload in MODEL_BLOCKS:
        w = word(lanes)
        got = baser_model.encode_word(*w)
        assert got == (hdr, payload), \
            f"{name}: encode -> {got and (f'{got[0]:02b}', f'{got[1]:016x}')}, expected {hdr:02b} {payload:016x}"
        dec = baser_model.decode_block(hdr, payload, strict=True)
        assert dec.problem is None and (dec.d, dec.c) == w, f"{name}: decode -> {dec}"
    assert baser_model.EBLOCK == MODEL_EBLOCK
    dec = baser_model.decode_block(SYNC_CTRL, MODEL_EBLOCK, strict=True)
    assert (dec.rtype, dec.d, dec.c, dec.problem) == ("E", *E_WORD, None), f"EBLOCK: {dec}"
    # the hand-written TX blocks of test_block_types (T_TYPE of single words)
    n = 0
    for lanes, tx_exp, _ in directed_sequence():
        if isinstance(tx_exp, tuple):
            assert baser_model.encode_word(*word(lanes)) == tx_exp, f"directed word {lanes}: {tx_exp}"
            n += 1
    assert n >= 10
    # words that are no valid block: the source must send EBLOCK_T for them
    for lanes in ([C(0x07), C(0x07), C(0x00)] + [C(0x07)] * 5,          # 0x00 is no control char
                  [C(0x07), C(0x07), C(0xFB)] + [0x55] * 5,              # /S/ in lane 2
                  [C(0x07), C(0xFD)] + [C(0x07)] * 6,                    # /T/ after a control char
                  [C(0x07), C(0xFE)] + [C(0x07)] * 6,                    # /E/ in a 0x1E block
                  [C(0xFE)] * 8,                                         # all /E/: EBLOCK_T itself
                  [C(0x9C), 0, 0, 1, 0x11, 0x22, 0x33, 0x44],            # ordered set + data
                  [0x11, C(0xFD), 0x22] + [C(0x07)] * 5,                 # data after /T/
                  [0x11, 0x22, C(0xFE), 0x33] + [0x44] * 4):             # /E/ among data
        assert baser_model.encode_word(*word(lanes)) is None, f"{lanes} encoded as a block"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def test_model_decode_errors(dut):
    """decode_block flags each kind of invalid block (R_TYPE E), ignores
    unused bits unless strict, and is the inverse of encode_word on random
    data and terminate blocks."""
    cases = [
        (0b00, 0x1E, "sync"), (0b11, 0x1E, "sync"),
        (SYNC_CTRL, 0x00, "type"), (SYNC_CTRL, 0x1F, "type"), (SYNC_CTRL, 0x88, "type"),
        (SYNC_CTRL, 0x1E | codes([0, 0, 0, 0x01, 0, 0, 0, 0]), "code"),       # code 0x01
        (SYNC_CTRL, 0x1E | codes([0, 0, 0, 0, 0, 0, 0, 0x7F]), "code"),
        (SYNC_CTRL, 0x4B | 0x3 << 32, "code"),                                 # O code 3
        (SYNC_CTRL, 0x2D | 0x5 << 36, "code"),
        (SYNC_CTRL, 0xD2 | codes([0x7F, 0x00], first=6), "code"),             # bad code after /T/
        (SYNC_CTRL, 0x87 | codes([0x02] + [0] * 6, first=1), "code"),
        (SYNC_CTRL, 0x33 | 1 << 36, "unused"),                                 # unused bits 36..39
        (SYNC_CTRL, 0x87 | 1 << 8, "unused"),                                  # unused bits 8..14
        (SYNC_CTRL, 0xE1 | 1 << 56, "unused"),
    ]
    for hdr, p, kind in cases:
        dec = baser_model.decode_block(hdr, p, strict=True)
        assert (dec.rtype, dec.d, dec.c, dec.kind) == ("E", *E_WORD, kind), f"{hdr:02b} {p:016x}: {dec}"
        if kind == "unused":
            assert baser_model.decode_block(hdr, p).problem is None, f"{p:016x}: unused bits not ignored"
    rng = random.Random(SEED + 20)
    for _ in range(200):
        k = rng.randrange(9)
        lanes = [rng.randrange(256) for _ in range(8)]
        if k < 8:       # terminate in lane k, random valid codes after it
            lanes = lanes[:k] + [C(0xFD)] + [C(rng.choice(list(baser_model.CODE_OF_XGMII))) for _ in range(7 - k)]
        w = word(lanes)
        h, p = baser_model.encode_word(*w)
        dec = baser_model.decode_block(h, p, strict=True)
        assert (dec.d, dec.c, dec.rtype) == (*w, "T" if k < 8 else "D"), f"{lanes}: {dec}"
        assert k == 8 or p & 0xFF == TERM_BT[k]


@cocotb.test(timeout_time=1, timeout_unit="us")
async def test_model_scrambler(dut):
    """The model's word-parallel scrambler and descrambler against the
    bit-serial ones of this file (one line bit per step, straight from
    x^58 + x^39 + 1), a hand-derived known answer, self-synchronisation
    and the descrambler's error multiplication (bits p, p+39, p+58)."""
    # known answer: state all ones, input zero: y[n] = y[n-39] ^ y[n-58]
    # gives 1 ^ 1 = 0 for n = 0..38, y[0..18] ^ 1 = 1 for n = 39..57 and
    # y[n-39] ^ y[n-58] = 0 ^ 0 for n = 58..63: bits 39..57 set
    assert baser_model.Scrambler()(0) == 0x03FFFF8000000000
    assert Scrambler()(0) == 0x03FFFF8000000000     # the bit-serial one agrees
    rng = random.Random(SEED + 21)
    ref, mod = Scrambler(), baser_model.Scrambler()
    ins = [rng.getrandbits(64) for _ in range(300)] + [0] * 4 + [(1 << 64) - 1] * 4
    outs = []
    for i, x in enumerate(ins):
        y, y_ref = mod(x), ref(x)
        assert y == y_ref, f"block {i}: model {y:016x}, bit-serial {y_ref:016x}"
        outs.append(y)
    # descrambler: from a wrong state, right from the second block on; the
    # bit-serial one from the same (zero) state agrees on every block
    dref, dmod = Descrambler(), baser_model.Descrambler()
    for i, (x, y) in enumerate(zip(ins, outs)):
        got, got_ref = dmod(y), dref(y)
        assert got == got_ref, f"block {i}: descrambler {got:016x}, bit-serial {got_ref:016x}"
        assert i == 0 or got == x, f"block {i}: descrambled {got:016x}, sent {x:016x}"
    # one flipped line bit: the descrambled stream differs at p, p+39, p+58
    dmod = baser_model.Descrambler()
    p0 = 64 * 10 + 17
    diff = 0
    for i, y in enumerate(outs[:20]):
        if i == p0 // 64:
            y ^= 1 << p0 % 64
        x = dmod(y)
        if i:       # block 0 only fills the descrambler
            diff |= (x ^ ins[i]) << 64 * i
    bits = [b for b in range(diff.bit_length()) if diff >> b & 1]
    assert bits == [p0, p0 + 39, p0 + 58], f"error multiplication: {bits}"


@cocotb.test(timeout_time=1, timeout_unit="us")
async def test_model_bit_order(dut):
    """reverse = the BIT_REVERSE = 1 bus: payload bit 0 (first on the line)
    on data[63], header bits swapped; reverse = 0 is the identity."""
    assert baser_model.to_bus(SYNC_DATA, 1, True) == (1 << 63, 0b01)
    assert baser_model.to_bus(SYNC_CTRL, 0x1E, True) == (0x7800000000000000, 0b10)
    assert baser_model.to_bus(SYNC_CTRL, 0x1E, False) == (0x1E, SYNC_CTRL)
    rng = random.Random(SEED + 22)
    for _ in range(50):
        h, p = rng.randrange(4), rng.getrandbits(64)
        for rev in (False, True):
            d, hb = baser_model.to_bus(h, p, rev)
            assert baser_model.from_bus(d, hb, rev) == (h, p)
            assert (d, hb) == ((bitrev(p, 64), bitrev(h, 2)) if rev else (p, h))


def model_stream(frames, enable_dic=True, scramble=True, idle_blocks=4):
    """Pure model loop BlockTx -> BlockRx -> FrameAssembler: (received
    frames, [(lane position, char)] of /S/ and /T/ as decoded, tx, rx)."""
    tx = baser_model.BlockTx(scramble=scramble, enable_dic=enable_dic)
    rx = baser_model.BlockRx(scramble=scramble)
    asm = baser_model.FrameAssembler()
    for _ in range(idle_blocks):
        rx.push(*tx.next_block()[0])
    for f in frames:
        tx.lanes.add(XgmiiFrame(f))
    got, marks = [], []
    for n in range(sum(len(f) for f in frames) // 8 + 4 * len(frames) + 100):
        (h, p), _ = tx.next_block()
        for d, c, t in rx.push(h, p, n):
            for i in range(8):
                ch = (d >> 8 * i) & 0xFF
                if (c >> i) & 1 and ch in (0xFB, 0xFD):
                    marks.append((8 * t + i, ch))
            got += asm.push(d, c, t, 1)
    return got, marks, tx, rx


def gaps_of(marks):
    """[(lane position of /T/, of the next /S/)] from model_stream's marks."""
    pairs, last_t = [], None
    for pos, ch in marks:
        if ch == 0xFD:
            last_t = pos
        elif last_t is not None:
            pairs.append((last_t, pos))
    return pairs


@cocotb.test(timeout_time=1, timeout_unit="us")
async def test_model_stream(dut):
    """Model source -> model sink without a simulator: frames 64..9600 bytes
    back to back, scrambled, intact; /S/ on lanes 0 and 4, /T/ on all
    lanes; gaps from /T/ to /S/ 9..15 with DIC and their running sum within
    12 n +- 3 (each gap the one DIC gives), 12..15 without (each the
    shortest aligned one); a word with /E/ inside a frame goes out as
    EBLOCK_T and ends the frame at the sink; no error recorded."""
    rng = random.Random(SEED + 23)
    frames = make_frames(rng, 150, hi=700) + make_frames(rng, 1, lo=9600, hi=9600, sweep=False)
    for dic in (True, False):
        got, marks, tx, rx = model_stream(frames, enable_dic=dic)
        assert len(got) == len(frames), f"DIC {dic}: {len(got)} of {len(frames)} frames"
        for i, (a, b) in enumerate(zip(frames, got)):
            check_frame(a, b, f"model stream frame {i}")
        assert not rx.errors and rx.eblocks == 0 and tx.eblocks_sent == 0, rx.errors[:3]
        assert {p % 8 for p, ch in marks if ch == 0xFB} == {0, 4}
        assert {p % 8 for p, ch in marks if ch == 0xFD} == set(range(8))
        pairs = gaps_of(marks)
        gaps = [s - t for t, s in pairs]
        assert len(gaps) == len(frames) - 1
        dic_cnt = 0
        for n, (t, s) in enumerate(pairs):
            # DIC: the first lane 0 or 4 at least 9 + dic after /T/; without:
            # the first at least 12 after it
            least = t + (9 + dic_cnt if dic else 12)
            want = next(x for x in range(least, least + 4) if x % 4 == 0)
            assert s == want, f"DIC {dic} gap {n}: /S/ {s - t} after /T/, expected {want - t}"
            if dic:
                dic_cnt += 12 - (s - t)
                assert 0 <= dic_cnt <= 3 and abs(sum(gaps[:n + 1]) - 12 * (n + 1)) <= 3, f"gap {n}"
            assert (9 if dic else 12) <= s - t <= 15
        tb_log = logging.getLogger("cocotb.tb")
        tb_log.info("model stream DIC=%d: %d frames, gaps %d..%d, mean %.3f", dic, len(got), min(gaps),
                    max(gaps), sum(gaps) / len(gaps))

    # /E/ inside a frame
    f = XgmiiFrame.from_payload(rng.randbytes(300))
    f.normalize()
    f.data[77] = 0xFE
    f.ctrl[77] = 1
    good = XgmiiFrame.from_payload(rng.randbytes(100))
    got, marks, tx, rx = model_stream([f, good])
    assert tx.eblocks_sent == 1 and rx.eblocks == 1 and not rx.errors, (tx.eblocks_sent, rx.eblocks, rx.errors)
    cut = 77 // 8 * 8          # a frame starting in lane 0: the word of byte 77 starts at 72
    assert got[0].start_lane == 0 and bytes(got[0].data) == bytes(f.data[:cut]) + b"\xfe"
    check_frame(good, got[1], "frame after /E/")


def push_blocks(rx, blocks):
    """Unscrambled (hdr, payload) blocks into a BlockRx; the words out, one
    per block (the last one flushed with an idle block)."""
    out = []
    for h, p in blocks + [(SYNC_CTRL, 0x1E)]:
        out += [(d, c) for d, c, _ in rx.push(h, p)]
    return out


@cocotb.test(timeout_time=1, timeout_unit="us")
async def test_model_sink_errors(dut):
    """The model sink flags each invalid block and each transition into
    RX_E (Figure 49-15) at its index and puts EBLOCK_R's word in its place;
    the receive rules of test_rx_block_types (hand-written expectations,
    the same the PCS must meet) hold for the model too."""
    idle = (SYNC_CTRL, 0x1E)
    start = (SYNC_CTRL, 0xD555555555555578)
    data = (SYNC_DATA, 0x0123456789ABCDEF)
    term = (SYNC_CTRL, 0x87)
    eblock = (SYNC_CTRL, MODEL_EBLOCK)
    cases = [   # (blocks after 3 idles, index of the flagged block in them, kind)
        ([(0b00, 0x1E)], 0, "sync"),
        ([(0b11, 0x1E)], 0, "sync"),
        ([(SYNC_CTRL, 0x42)], 0, "type"),
        ([(SYNC_CTRL, 0x1E | 0x01 << 8)], 0, "code"),
        ([(SYNC_CTRL, 0x33 | 1 << 37 | 0x555555 << 40), data, term], 0, "unused"),
        ([data], 0, "sequence"),                          # D outside a frame
        ([term], 0, "sequence"),                          # T outside a frame
        ([start, data, start, data, term], 2, "sequence"),  # S inside a frame
        ([start, data, idle], 2, "sequence"),             # C inside a frame
        ([start, data, term, data], 2, "sequence"),       # T not followed by S or C
        ([eblock, start, data, term], 1, "sequence"),     # S right after an error
    ]
    for blocks, at, kind in cases:
        rx = baser_model.BlockRx(scramble=False)
        out = push_blocks(rx, [idle] * 3 + blocks)
        assert [(e.index, e.kind) for e in rx.errors] == [(3 + at, kind)], \
            f"{blocks}: errors {rx.errors}, expected {kind} at {3 + at}"
        assert out[3 + at] == E_WORD, f"{blocks}: word {out[3 + at]} in place of the invalid block"
    # a clean sequence: no error, every word as sent
    rx = baser_model.BlockRx(scramble=False)
    blocks = [idle, start, data, data, term, idle, (SYNC_CTRL, 0x5555550000000033), data, term, idle, eblock, idle]
    out = push_blocks(rx, blocks)
    assert not rx.errors and rx.eblocks == 1
    assert out[1] == word([C(0xFB)] + [0x55] * 6 + [0xD5]) and out[2] == (0x0123456789ABCDEF, 0)
    assert out[10] == E_WORD and out[11] == IDLE_WORD

    # the receive rules of test_rx_block_types, with the model (unused bits
    # are ignored there, as the PCS does: strict off)
    seq = rx_directed_sequence()
    rx = baser_model.BlockRx(scramble=False, strict=False)
    out = push_blocks(rx, [idle] * 4 + [(h, p) for h, p, _ in seq])[4:]
    n_e = 0
    for i, ((h, p, exp), got) in enumerate(zip(seq, out)):
        if exp == "E":
            exp = E_WORD
            n_e += 1
        assert got == exp, f"block {i} hdr {h:02b} payload {p:016x}: model {got[0]:016x}/{got[1]:02x}, " \
                           f"expected {exp[0]:016x}/{exp[1]:02x}"
    assert len(rx.errors) + rx.eblocks == n_e, f"{len(rx.errors)} errors + {rx.eblocks} error blocks, {n_e} E words"


@cocotb.test(timeout_time=200, timeout_unit="us")
async def test_model_loopback(dut):
    """BaseRSource -> src_data/src_hdr -> lane (aligned, no slip) ->
    serdes_rx_* -> BaseRSink, cocotb models on the bench's signals in its
    bit order: frames intact and in order, starts on lanes 0 and 4, gaps
    9..15 averaging 12 measured from the sink's lane times, no error; one
    invalid sync header injected inside a frame is flagged at the sink,
    which ends that frame in /E/ there."""
    tb = TB(dut)
    rev = bool(tb.bit_reverse)
    src = BaseRSource(dut.src_data, dut.src_hdr, dut.clk, reverse=rev)
    sink = BaseRSink(dut.serdes_rx_data, dut.serdes_rx_hdr, dut.clk, reverse=rev)
    await tb.reset(lane_pos=0, lane_sel=1)
    await ClockCycles(dut.clk, 10)
    sink.clear()
    sink.clear_errors()     # the descrambler had no history for its first blocks
    rng = random.Random(SEED + 24)
    frames = make_frames(rng, 16 if QUICK else 30, hi=2000) + make_frames(rng, 1, lo=9600, hi=9600, sweep=False)
    rxs = await tb.flow(src, sink, frames, "model loopback")
    lane_ps = CLK_PS // 8
    gaps = [(b.sim_time_start - a.sim_time_end) // lane_ps for a, b in zip(rxs, rxs[1:])]
    tb.log.info("model loopback: gaps %s", gaps)
    assert {f.start_lane for f in rxs} == {0, 4}
    assert all(9 <= g <= 15 for g in gaps) and abs(sum(gaps) - 12 * len(gaps)) <= 3, f"gaps {gaps}"
    assert not sink.errors and sink.eblocks == 0 and src.eblocks_sent == 0, sink.errors[:3]

    tx = XgmiiFrame.from_payload(rng.randbytes(500))
    await src.send(tx)
    await ClockCycles(dut.clk, 30)
    await tb.inject(hdr=0b01)       # 01 -> 00 or 10 -> 11
    rx = await recv(sink, 200, "frame with a bad block", compact=False)
    assert rx.data[-1] == 0xFE and rx.ctrl[-1] == 1 and len(rx.data) < len(tx.data), \
        "the frame does not end in /E/ at the invalid block"
    assert bytes(rx.data[:-1]) == bytes(tx.data[:len(rx.data) - 1])
    await ClockCycles(dut.clk, 5)
    assert [e.kind for e in sink.errors] == ["sync"], f"errors {sink.errors}"
    assert val(dut.lane_slips) == 0
