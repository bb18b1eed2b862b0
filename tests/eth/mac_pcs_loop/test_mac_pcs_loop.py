# SPDX-License-Identifier: MIT
"""Round trip of our 10G Ethernet blocks (tb_mac_pcs_loop.v):

  AxiStreamSource -> froce_eth_mac_10g TX -> froce_eth_pcs_10g (A) TX
    -> tb_pcs10g_lane (random bit offset, bit slip, injected line errors)
    -> froce_eth_pcs_10g (B) RX -> froce_eth_mac_10g RX -> froce_eth_rx_fifo
    -> AxiStreamSink

Every frame carries a sequence tag in its first 4 bytes; the scoreboard
checks that the frames at the FIFO output are exactly the ones sent, in
order, and that the ones missing are exactly (or, after a lock loss, at
most) the ones the line errors hit.

Where a frame was on the line is read by two of our own 64B/66B model sinks
(tests/eth/pcs10g/baser_model.py): one on PCS A's output (the clean line:
each frame's start and terminate block) and one on the lane's output (what
PCS B receives: the blocks the injected errors hit). The lane delays by 1
block at window position 66 and by 2 at position 0; each injected error
must show at the lane output exactly 2 cycles after it was set, which the
tests check, so a hit is placed on the clean line's timeline exactly.

Which frames a hit block takes (Clause 49 receive state machine and our
MAC): a frame whose blocks from the one before its start block to the one
after its terminate block include the hit. Hit before or at the start
block: /S/ is lost (an S right after an error is an error), the MAC never
sees the frame and counts nothing. Hit on the block after a lane-4 start:
the preamble is broken (rx_bad_preamble). Later: the frame ends in /E/
(rx_err_char; a T whose next block is not S or C is an error too) and the
RX FIFO drops it (rx_fifo_bad_dropped).

Frame sizes are drawn log-uniformly from 60..9600 bytes (every size
possible, small ones as often as in a real mix, and the simulation time
stays short); each test also has fixed sizes, 60 and 9600 among them.

Environment:
  LOOP_SEED       random seed (default 1)
  LOOP_QUICK      1: fewer frames (run.sh's BIT_REVERSE = 1 run)
"""

import logging
import math
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotb.utils import get_sim_time

from cocotbext.axi import AxiStreamBus, AxiStreamSink, AxiStreamSource

from baser_model import BaseRSink

CLK_PS = 6400                   # 156.25 MHz
LANE_PS = CLK_PS // 8
SEED = int(os.environ.get("LOOP_SEED", "1"))
QUICK = os.environ.get("LOOP_QUICK", "0") == "1"
MIN_LEN, MAX_LEN = 60, 9600     # frame bytes at the AXI ports (without FCS)
INJECT_TO_LANE_OUT = 2          # cycles from setting lane_err_* to the hit block at the lane output monitor

MAC_RX = ("rx_frames_ok", "rx_bad_fcs", "rx_err_char", "rx_runt", "rx_oversize", "rx_bad_preamble",
          "rx_fifo_bad_dropped", "rx_fifo_full_dropped")
COUNTERS = MAC_RX + ("rx_bytes_ok", "tx_frames", "tx_bytes", "tx_aborted", "tx_oversize", "tx_underrun",
                     "b_rx_sync_errors", "b_rx_block_errors", "b_rx_lock_losses", "lane_slips",
                     "chk_mac_out_down")


def val(sig):
    return int(sig.value)


def cycle(t_ps):
    return t_ps // CLK_PS


class LineFrame:
    """Where a frame was on a line monitor: start and terminate block (in
    cycles of that monitor's samples) and the lane of /S/."""

    def __init__(self, f):
        self.frame = f
        self.tag = int.from_bytes(bytes(f.data[8:12]), "big") if len(f.data) >= 12 else None
        self.start_lane = f.start_lane
        self.s = cycle(f.sim_time_start - f.start_lane * LANE_PS)
        self.t = cycle(f.sim_time_end)

    def __repr__(self):
        return f"frame {self.tag} blocks {self.s}..{self.t} /S/ lane {self.start_lane}"


class Loop:
    def __init__(self, dut, name):
        self.dut = dut
        self.log = logging.getLogger("cocotb.tb")
        self.log.setLevel(logging.INFO)
        self.rng = random.Random(f"{SEED}:{name}")      # each test reproducible alone
        self.rev = bool(val(dut.BIT_REVERSE))
        self.slip_wait = val(dut.SLIP_WAIT)
        cocotb.start_soon(Clock(dut.clk, CLK_PS, units="ps").start())
        dut.rst.setimmediatevalue(1)
        for s in (dut.lane_load, dut.lane_load_pos, dut.lane_err_data, dut.lane_err_hdr, dut.chk_force_down,
                  dut.s_axis_tvalid, dut.s_axis_tdata, dut.s_axis_tkeep, dut.s_axis_tlast, dut.s_axis_tuser):
            s.setimmediatevalue(0)
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk, dut.rst)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "f_axis"), dut.clk, dut.rst)
        # the line monitors (our Clause 49 model), in the bench's bit order
        self.line_a = BaseRSink(dut.a_tx_data, dut.a_tx_hdr, dut.clk, reverse=self.rev)
        self.line_b = BaseRSink(dut.b_rx_data, dut.b_rx_hdr, dut.clk, reverse=self.rev)
        for m in (self.source, self.sink):
            m.log.setLevel(logging.WARNING)
        self.line_a.log.setLevel(logging.WARNING)
        self.line_b.log.setLevel(logging.ERROR)     # every block before lock is garbage; .errors has them
        self.sent = {}                              # tag -> payload
        self.next_tag = 1
        self.injections = []                        # cycle of the edge after which lane_err_* was set

    def now(self):
        return cycle(get_sim_time("ps"))

    def counters(self):
        return {n: val(getattr(self.dut, n)) for n in COUNTERS}

    def delta(self, c0):
        c = self.counters()
        return {n: c[n] - c0[n] for n in COUNTERS}

    async def wait_for(self, cond, max_cycles, what):
        for n in range(max_cycles + 1):
            if cond():
                return n
            await RisingEdge(self.dut.clk)
        raise AssertionError(f"no {what} within {max_cycles} cycles")

    def lock_bound(self, slips):
        # as the PCS bench: per slip SLIP_WAIT + 1 ignored cycles and up to
        # 20 valid-looking headers at a wrong boundary; 64 to lock; slack
        return slips * (self.slip_wait + 1 + 20) + 64 + 16

    async def start(self):
        """Reset with the lane at a random bit offset; PCS B must lock after
        exactly the slips the offset needs, within the bound; then the line
        monitors start clean."""
        dut = self.dut
        offset = self.rng.randint(1, 65)
        dut.rst.value = 1
        dut.lane_load_pos.value = offset
        dut.lane_load.value = 1
        await ClockCycles(dut.clk, 10)
        dut.lane_load.value = 0
        dut.rst.value = 0
        t0 = self.now()
        slips = (66 - offset) % 66
        bound = self.lock_bound(slips)
        await self.wait_for(lambda: val(dut.b_rx_block_lock), bound + 200, "block lock")
        took = self.now() - t0
        self.log.info("bit offset %d: lock after %d cycles, %d slips", offset, took, val(dut.lane_slips))
        assert val(dut.lane_slips) == slips, f"offset {offset}: {val(dut.lane_slips)} slips, expected {slips}"
        assert took <= bound, f"offset {offset}: lock took {took} cycles, bound {bound}"
        await self.wait_for(lambda: val(dut.b_rx_link_up) and val(dut.a_rx_link_up), 100, "link up")
        await ClockCycles(dut.clk, 20)
        self.settle_monitors()

    def settle_monitors(self):
        for m in (self.line_a, self.line_b):
            m.clear()
            m.clear_errors()

    def lane_delay(self):
        """Cycles from PCS A's output monitor to the lane output monitor."""
        pos = val(self.dut.lane_pos)
        assert pos in (0, 66), f"lane window at {pos}: not aligned"
        return 2 if pos == 0 else 1

    # --- traffic ---------------------------------------------------------

    def random_size(self, lo=MIN_LEN, hi=MAX_LEN):
        return min(hi, int(math.exp(self.rng.uniform(math.log(lo), math.log(hi + 1)))))

    def make_frames(self, n, sizes=()):
        """n payloads: the given sizes first, then random ones; each starts
        with its tag (4 bytes, big endian)."""
        out = []
        for i in range(n):
            size = sizes[i] if i < len(sizes) else self.random_size()
            tag = self.next_tag
            self.next_tag += 1
            p = tag.to_bytes(4, "big") + self.rng.randbytes(size - 4)
            self.sent[tag] = p
            out.append((tag, p))
        return out

    async def send_all(self, frames):
        for _, p in frames:
            await self.source.send(p)

    async def drain(self):
        """Wait for the source to finish and the last frame to leave the FIFO:
        60 cycles after the last beat went into the MAC every frame is in
        the FIFO (or dropped); then until its output has been idle for 10
        cycles (it sends committed frames back to back)."""
        await self.source.wait()
        await ClockCycles(self.dut.clk, 60)
        idle = 0
        while idle < 10:
            await RisingEdge(self.dut.clk)
            idle = 0 if val(self.dut.f_axis_tvalid) else idle + 1

    async def inject(self, hdr=0, data=0, cycles=1):
        """XOR hdr/data (line order) into the lane's next `cycles` blocks."""
        await RisingEdge(self.dut.clk)
        self.injections.append(self.now())
        self.dut.lane_err_hdr.value = hdr
        self.dut.lane_err_data.value = data
        await ClockCycles(self.dut.clk, cycles)
        self.dut.lane_err_hdr.value = 0
        self.dut.lane_err_data.value = 0

    def line_frames(self, mon):
        out = []
        while not mon.empty():
            out.append(LineFrame(mon.recv_nowait(compact=False)))
        return out

    def delivered(self):
        out = []
        while not self.sink.empty():
            out.append(bytes(self.sink.recv_nowait().tdata))
        return out

    def check_delivered(self, frames, delivered, must_lose, may_lose=frozenset(), what=""):
        """The FIFO output against what was sent: in order, each exact, the
        missing ones all in must_lose | may_lose, every one of must_lose
        missing. Returns the set of missing tags."""
        tags = [t for t, _ in frames]
        expect = dict(frames)
        got_tags = []
        for i, d in enumerate(delivered):
            assert len(d) >= 4, f"{what}: delivered frame {i} of {len(d)} bytes"
            tag = int.from_bytes(d[:4], "big")
            assert tag in expect, f"{what}: delivered frame {i} has unknown tag {tag:#x} ({len(d)} bytes)"
            assert not got_tags or tag > got_tags[-1], f"{what}: frame {tag} after {got_tags[-1]}: out of order"
            if d != expect[tag]:
                diff = next((j for j, (a, b) in enumerate(zip(d, expect[tag])) if a != b), None)
                raise AssertionError(f"{what}: frame {tag} delivered corrupted: {len(d)} bytes, "
                                     f"sent {len(expect[tag])}, first difference at {diff}")
            got_tags.append(tag)
        missing = set(tags) - set(got_tags)
        assert missing <= set(must_lose) | set(may_lose), \
            f"{what}: frames {sorted(missing - set(must_lose) - set(may_lose))} lost, not hit by a line error"
        assert set(must_lose) <= missing, f"{what}: frames {sorted(set(must_lose) - missing)} hit but delivered"
        return missing

    def check_clean_line(self, what):
        assert not self.line_a.errors and self.line_a.eblocks == 0, \
            f"{what}: PCS A sent invalid or error blocks: {self.line_a.errors[:3]} eblocks {self.line_a.eblocks}"


def hit_frames(line, hits):
    """Frames (LineFrame on the clean line) a hit block at each of `hits`
    (clean-line cycles) takes, with the MAC counter each goes to."""
    out = {}
    for e in hits:
        for f in line:
            if f.s - 1 <= e <= f.t + 1:
                if e <= f.s:
                    kind = None                         # /S/ lost: the MAC never sees it
                elif e == f.s + 1 and f.start_lane == 4:
                    kind = "rx_bad_preamble"
                else:
                    kind = "rx_err_char"
                out.setdefault(f.tag, kind)
    return out


# ---------------------------------------------------------------------------

@cocotb.test(timeout_time=3000, timeout_unit="us")
async def test_traffic(dut):
    """Lock from a random bit offset, then frames of random sizes 60..9600
    (and 60 and 9600 bytes) back to back: all delivered exact and in order,
    minimum gaps on the line (DIC: 9..15 bytes, /S/ on lanes 0 and 4), every
    counter exact, no error anywhere."""
    tb = Loop(dut, "traffic")
    await tb.start()
    c0 = tb.counters()
    frames = tb.make_frames(8 if QUICK else 20, sizes=(60, 9600, 61, 64, 1500))
    await tb.send_all(frames)
    await tb.drain()
    d = tb.delta(c0)
    tb.check_delivered(frames, tb.delivered(), set(), what="traffic")
    line = tb.line_frames(tb.line_a)
    assert [f.tag for f in line] == [t for t, _ in frames], "line A: frames missing or out of order"
    for f in line:
        assert f.frame.check_fcs() and bytes(f.frame.data[8:-4]) == tb.sent[f.tag], f"{f}: wrong on the line"
    gaps = [(b.frame.sim_time_start - a.frame.sim_time_end) // LANE_PS for a, b in zip(line, line[1:])]
    tb.log.info("gaps on the line: %s", gaps)
    assert all(9 <= g <= 15 for g in gaps) and abs(sum(gaps) - 12 * len(gaps)) <= 3, f"gaps {gaps}"
    assert {f.start_lane for f in line} == {0, 4}
    tb.check_clean_line("traffic")
    assert not tb.line_b.errors, f"lane output: {tb.line_b.errors[:3]}"
    n, nbytes = len(frames), sum(len(p) + 4 for _, p in frames)
    exp = {n_: 0 for n_ in COUNTERS}
    exp.update(tx_frames=n, tx_bytes=nbytes, rx_frames_ok=n, rx_bytes_ok=nbytes)
    assert d == exp, f"counters {d}, expected {exp}"


@cocotb.test(timeout_time=3000, timeout_unit="us")
async def test_few_sync_errors(dut):
    """A few invalid sync headers at random places in back-to-back traffic:
    lock and link kept; exactly the frames whose blocks (from the one
    before /S/ to the one after /T/) include a hit are lost, each counted
    where the MAC sees it (rx_err_char and dropped by the FIFO, or
    rx_bad_preamble, or not at all when /S/ itself is lost); every other
    frame delivered exact, none corrupted."""
    tb = Loop(dut, "few_sync_errors")
    await tb.start()
    c0 = tb.counters()
    frames = tb.make_frames(8 if QUICK else 14)
    k = 3 if QUICK else 5
    # each error 0..12 cycles (near the boundary: T, the gap, S, the
    # preamble) or 13..80 cycles after the MAC counted a frame as sent,
    # after k different frames
    after = sorted(tb.rng.sample(range(1, len(frames) - 1), k))
    send = cocotb.start_soon(tb.send_all(frames))
    for j, i in enumerate(after):
        await tb.wait_for(lambda: val(dut.tx_frames) - c0["tx_frames"] >= i, 200000, f"frame {i - 1} sent")
        await ClockCycles(dut.clk, tb.rng.randint(0, 12) if j % 2 == 0 else tb.rng.randint(13, 80))
        await tb.inject(hdr=0b01)                   # 01 -> 00, 10 -> 11
    await send
    await tb.drain()
    d = tb.delta(c0)

    # the hit blocks: at the lane output 2 cycles after each injection,
    # then on the clean line's timeline
    # (the model also flags what the hits do to their neighbours: a T
    # followed by an error, an S right after one)
    sync = [e for e in tb.line_b.errors if e.kind == "sync"]
    assert len(sync) == k and all(e.kind == "sequence" and any(abs(e.index - h.index) == 1 for h in sync)
                                  for e in tb.line_b.errors if e.kind != "sync"), \
        f"lane output errors {tb.line_b.errors}"
    seen = [cycle(e.time) for e in sync]
    assert seen == [i + INJECT_TO_LANE_OUT for i in tb.injections], f"hits at {seen}, injected {tb.injections}"
    lag = tb.lane_delay()
    hits = [s - lag for s in seen]
    line = tb.line_frames(tb.line_a)
    line_b = {f.tag: f for f in tb.line_frames(tb.line_b)}
    for f in line:      # the delay, measured on a frame both monitors saw whole
        if f.tag in line_b and line_b[f.tag].frame.check_fcs():
            assert line_b[f.tag].s - f.s == lag, f"{f}: at the lane output {line_b[f.tag].s - f.s} cycles later"
    lost = hit_frames(line, hits)
    tb.log.info("hits at line blocks %s; frames taken: %s", hits, lost)
    missing = tb.check_delivered(frames, tb.delivered(), set(lost), what="few sync errors")
    assert missing == set(lost)
    n_char = sum(1 for v in lost.values() if v == "rx_err_char")
    n_pre = sum(1 for v in lost.values() if v == "rx_bad_preamble")
    exp = dict(rx_frames_ok=len(frames) - len(lost), rx_bad_fcs=0, rx_err_char=n_char, rx_runt=0, rx_oversize=0,
               rx_bad_preamble=n_pre, rx_fifo_bad_dropped=n_char, rx_fifo_full_dropped=0,
               b_rx_sync_errors=k, b_rx_lock_losses=0, lane_slips=0, tx_frames=len(frames))
    got = {n_: d[n_] for n_ in exp}
    assert got == exp, f"counters {got}, expected {exp}"
    assert d["b_rx_block_errors"] >= k and val(dut.b_rx_link_up)
    tb.check_clean_line("few sync errors")


@cocotb.test(timeout_time=3000, timeout_unit="us")
async def test_lock_loss(dut):
    """20 invalid sync headers in a row in the middle of back-to-back
    traffic: PCS B loses lock (once), the MAC gives out nothing while the
    link is down, PCS B relocks after exactly 66 slips; frames that ended
    on the line before the burst and every frame that starts after the
    relock are delivered exact (and traffic goes on: frames queued after
    the relock too); the ones lost are among those in between; nothing
    corrupted is delivered; every bad frame the MAC passes on is dropped
    by the FIFO."""
    tb = Loop(dut, "lock_loss")
    await tb.start()
    c0 = tb.counters()
    # enough to keep the line busy through the outage (~66 * 12 cycles)
    frames = tb.make_frames(3, sizes=(300, 600, 1500))
    while sum(len(p) for _, p in frames) < 16000:
        frames += tb.make_frames(1)
    send = cocotb.start_soon(tb.send_all(frames))
    await tb.wait_for(lambda: val(dut.tx_frames) - c0["tx_frames"] >= 2, 2000, "two frames sent")
    await ClockCycles(dut.clk, 30)
    lag = tb.lane_delay()           # before the burst (after the relock the window is at 66)
    await tb.inject(hdr=0b01, cycles=20)
    await tb.wait_for(lambda: not val(dut.b_rx_block_lock), 20, "lock loss")
    await tb.wait_for(lambda: val(dut.b_rx_link_up), tb.lock_bound(66) + 200, "relock")
    t_up = tb.now()
    await send
    more = tb.make_frames(2 if QUICK else 4)
    await tb.send_all(more)
    frames += more
    await tb.drain()
    d = tb.delta(c0)
    first_hit = tb.injections[0] + INJECT_TO_LANE_OUT - lag       # clean-line cycle of the first bad header
    line = tb.line_frames(tb.line_a)
    assert [f.tag for f in line] == [t for t, _ in frames], "line A: frames missing or out of order"
    before = {f.tag for f in line if f.t + 1 < first_hit}
    after = {f.tag for f in line if f.s - 1 >= t_up}
    between = {t for t, _ in frames} - before - after
    tb.log.info("bad headers from line block %d, link up again at %d; frames %s before, %s in between, %s after",
                first_hit, t_up, sorted(before), sorted(between), sorted(after))
    assert d["b_rx_lock_losses"] == 1 and d["lane_slips"] == 66, f"counters {d}"
    assert d["chk_mac_out_down"] == 0, f"the MAC gave out {d['chk_mac_out_down']} beats while the link was down"
    assert len(after) >= 2 and before and between, "traffic did not go on around the lock loss"
    missing = tb.check_delivered(frames, tb.delivered(), set(), between, what="lock loss")
    assert missing, "no frame lost through a lock loss"
    bad = sum(d[n] for n in ("rx_bad_fcs", "rx_err_char", "rx_runt", "rx_oversize"))
    assert d["rx_frames_ok"] == len(frames) - len(missing) and d["rx_bad_fcs"] == 0, f"counters {d}"
    assert d["rx_fifo_bad_dropped"] == bad and d["rx_fifo_full_dropped"] == 0, f"counters {d}"
    tb.check_clean_line("lock loss")


@cocotb.test(timeout_time=3000, timeout_unit="us")
async def test_payload_bit_flips(dut):
    """One line bit flipped inside each of three frames (a data block, so
    no PCS error): the MAC's FCS check drops each (rx_bad_fcs, then the
    FIFO), the lane output shows the flipped frame with exactly the
    descrambler's three bit errors; every other frame delivered exact."""
    tb = Loop(dut, "payload_bit_flips")
    await tb.start()
    c0 = tb.counters()
    frames = tb.make_frames(7 if QUICK else 10)
    targets = (2, 4, 6)
    for i in targets:       # long enough to be hit 40 cycles after it started, far from its end
        tag = frames[i][0]
        tb.sent[tag] = tag.to_bytes(4, "big") + tb.rng.randbytes(tb.random_size(1000, MAX_LEN) - 4)
        frames[i] = (tag, tb.sent[tag])
    send = cocotb.start_soon(tb.send_all(frames))
    bits = []
    for i in targets:
        # the MAC counts frame i - 1 as sent within 2 cycles of its /T/;
        # frame i is then on its way (gap <= 15 bytes)
        await tb.wait_for(lambda: val(dut.tx_frames) - c0["tx_frames"] >= i, 200000, f"frame {i - 1} sent")
        await ClockCycles(dut.clk, 40)
        b = tb.rng.randrange(64)
        bits.append(b)
        await tb.inject(data=1 << b)
    await send
    await tb.drain()
    d = tb.delta(c0)
    lag = tb.lane_delay()
    line = {f.tag: f for f in tb.line_frames(tb.line_a)}
    line_b = {f.tag: f for f in tb.line_frames(tb.line_b)}
    hit_tags = [frames[i][0] for i in targets]
    for tag, inj, b in zip(hit_tags, tb.injections, bits):
        f = line[tag]
        e = inj + INJECT_TO_LANE_OUT - lag
        assert f.s < e and e + 1 < f.t, f"the flip at line block {e} is not inside {f}"
        # at the lane output: the frame with the descrambler's three errors
        got = bytes(line_b[tag].frame.data)
        sent = bytes(f.frame.data)
        assert len(got) == len(sent), f"frame {tag}: length changed at the lane output"
        x = int.from_bytes(got, "little") ^ int.from_bytes(sent, "little")
        pos = [j for j in range(x.bit_length()) if x >> j & 1]
        assert len(pos) == 3 and pos[1] - pos[0] == 39 and pos[2] - pos[0] == 58, f"frame {tag}: bit errors {pos}"
    assert not tb.line_b.errors, f"a data bit flip made invalid blocks: {tb.line_b.errors[:3]}"
    missing = tb.check_delivered(frames, tb.delivered(), set(hit_tags), what="payload bit flips")
    assert missing == set(hit_tags)
    exp = dict(rx_frames_ok=len(frames) - 3, rx_bad_fcs=3, rx_err_char=0, rx_runt=0, rx_oversize=0,
               rx_bad_preamble=0, rx_fifo_bad_dropped=3, rx_fifo_full_dropped=0, b_rx_sync_errors=0,
               b_rx_block_errors=0, b_rx_lock_losses=0, lane_slips=0, tx_frames=len(frames))
    got = {n_: d[n_] for n_ in exp}
    assert got == exp, f"counters {got}, expected {exp}"
    tb.check_clean_line("payload bit flips")


def must_fail(check, what):
    try:
        check()
    except AssertionError as e:
        logging.getLogger("cocotb.tb").info("negative control %s: detected: %s", what, str(e).splitlines()[0])
        return
    raise AssertionError(f"negative control {what}: the check passed")


@cocotb.test(timeout_time=1000, timeout_unit="us")
async def test_negative_controls(dut):
    """The checks can fail: on real round-trip traffic (one frame hit by a
    payload bit flip, one by an invalid header), the scoreboard must reject
    a wrong expected byte, a frame missing from the expectation, a frame
    hit by the flip expected to arrive, the lost frame not predicted, the
    frames in the wrong order; the down checker must fire when told the
    link is down during traffic. The right expectations pass."""
    tb = Loop(dut, "negative_controls")
    await tb.start()
    frames = tb.make_frames(5, sizes=(300, 1500, 200, 1500, 300))
    send = cocotb.start_soon(tb.send_all(frames))
    await tb.wait_for(lambda: val(dut.tx_frames) >= 1, 2000, "frame 0 sent")
    await ClockCycles(dut.clk, 40)
    await tb.inject(data=1 << tb.rng.randrange(64))            # frame 1: bad FCS
    await tb.wait_for(lambda: val(dut.tx_frames) >= 3, 2000, "frame 2 sent")
    await ClockCycles(dut.clk, 40)
    await tb.inject(hdr=0b01)                                   # frame 3: /E/
    await send
    await tb.drain()
    got = tb.delivered()
    hit = {frames[1][0], frames[3][0]}
    assert tb.check_delivered(frames, got, hit, what="control") == hit

    wrong = list(frames)
    p = bytearray(wrong[4][1])
    p[len(p) // 2] ^= 0x01
    wrong[4] = (wrong[4][0], bytes(p))
    must_fail(lambda: tb.check_delivered(wrong, got, hit), "wrong byte")
    must_fail(lambda: tb.check_delivered(frames[:2] + frames[3:], got, hit), "frame missing from the expectation")
    must_fail(lambda: tb.check_delivered(frames, got, {frames[3][0]}), "bad-FCS frame expected to arrive")
    must_fail(lambda: tb.check_delivered(frames, got, {frames[1][0]}), "lost frame not predicted")
    must_fail(lambda: tb.check_delivered(frames, got[::-1], hit), "wrong order")

    c = tb.counters()
    dut.chk_force_down.value = 1
    fr = tb.make_frames(1, sizes=(300,))
    await tb.send_all(fr)
    await tb.drain()
    dut.chk_force_down.value = 0
    assert tb.delta(c)["chk_mac_out_down"] > 0, "the down checker does not fire"
    tb.check_delivered(fr, tb.delivered(), set(), what="after the checker control")
