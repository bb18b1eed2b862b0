# SPDX-License-Identifier: MIT
"""froce_async_frame_fifo: AxiStreamSource (s_clk) -> DUT -> AxiStreamSink
(m_clk), with monitors on both ports that record every frame, when its last
beat went in, when its first beat became visible and any gap inside it.

DROP_FULL = 1 (the RX FIFO): random frames, bad ones and stalls across
unrelated clocks; the good frames come out whole, exact and in order, a
subsequence of what went in; what is missing is exactly what the full-drop
counter says; bad frames never come out and are all counted; no frame is
visible before its last beat was written. Exact capacity with the reader
stopped (ring bytes, and the frame list). A reset from the read side in the
middle of an input frame delivers no fragment.

DROP_FULL = 0 (the TX FIFO): the input waits instead of dropping: every good
frame out, only the frame larger than the ring dropped; with the reader
always ready, a frame, once started, leaves without a gap (no underrun)."""
import itertools

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, Timer
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSink, AxiStreamSource

from cdc_tb import NEGATIVE, TIMEOUT_US, now_ps, params, reset_both, rng, start_clock

P = params()
DEPTH_BYTES = P.get("DEPTH_BYTES", 16384)
FRAMES = P.get("FRAMES", DEPTH_BYTES // 64)
DROP_FULL = P.get("DROP_FULL", 1)
RING_BEATS = DEPTH_BYTES // 8


class InMonitor:
    """Frames as the DUT took them: (bytes, bad, time of the last beat)."""

    def __init__(self, dut):
        self.dut = dut
        self.frames = []
        self.cur, self.bad, self.beats = bytearray(), False, 0
        cocotb.start_soon(self._run())

    def in_frame(self):
        return self.beats > 0

    async def _run(self):
        dut = self.dut
        while True:
            await RisingEdge(dut.s_clk)
            if not (int(dut.s_axis_tvalid.value) and int(dut.s_axis_tready.value)):
                continue
            data, keep = int(dut.s_axis_tdata.value), int(dut.s_axis_tkeep.value)
            self.cur += bytes((data >> (8 * i)) & 0xFF for i in range(8) if keep >> i & 1)
            self.bad |= bool(int(dut.s_axis_tuser.value))
            self.beats += 1
            if int(dut.s_axis_tlast.value):
                self.frames.append((bytes(self.cur), self.bad, now_ps()))
                self.cur, self.bad, self.beats = bytearray(), False, 0


class OutMonitor:
    """Frames as they left: (bytes, time the first beat became visible,
    cycles inside the frame with tready = 1 and tvalid = 0). A reset of the
    read side (the consumer's reset) throws away a frame in progress."""

    def __init__(self, dut):
        self.dut = dut
        self.frames = []
        self.cur, self.t_vis, self.gaps = None, None, 0
        cocotb.start_soon(self._run())

    async def _run(self):
        dut = self.dut
        prev_edge = now_ps()
        while True:
            await RisingEdge(dut.m_clk)
            t = now_ps()
            if int(dut.m_rst.value):
                self.cur = None
            valid, ready = int(dut.m_axis_tvalid.value), int(dut.m_axis_tready.value)
            if valid and self.cur is None:
                # visible since the previous edge (outputs are registered)
                self.cur, self.t_vis, self.gaps = bytearray(), prev_edge, 0
            if self.cur is not None and ready and not valid:
                self.gaps += 1
            if valid and ready:
                data, keep = int(dut.m_axis_tdata.value), int(dut.m_axis_tkeep.value)
                self.cur += bytes((data >> (8 * i)) & 0xFF for i in range(8) if keep >> i & 1)
                if int(dut.m_axis_tlast.value):
                    self.frames.append((bytes(self.cur), self.t_vis, self.gaps))
                    self.cur = None
            prev_edge = t


class TB:
    def __init__(self, dut, s_ns, m_ns, name):
        self.dut = dut
        self.r = rng(name)
        self.s_ns, self.m_ns = s_ns, m_ns
        start_clock(dut.s_clk, s_ns)
        start_clock(dut.m_clk, m_ns, phase_ns=self.r.uniform(0, m_ns))
        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.s_clk, dut.s_rst)
        self.sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.m_clk, dut.m_rst)
        self.inmon = InMonitor(dut)
        self.outmon = OutMonitor(dut)
        self.sent_bad = 0

    async def reset(self):
        await reset_both(self.dut.s_clk, self.dut.s_rst, self.dut.m_clk, self.dut.m_rst)

    def frame(self, n, bad_beat=None):
        data = bytes(self.r.getrandbits(8) for _ in range(n))
        tuser = None
        if bad_beat is not None:
            beats = (n + 7) // 8
            k = beats - 1 if bad_beat == "last" else min(bad_beat, beats - 1)
            tuser = [1 if i // 8 == k else 0 for i in range(n)]
            self.sent_bad += 1
        return AxiStreamFrame(data, tuser=tuser)

    def counters(self):
        return int(self.dut.rx_fifo_bad_dropped.value), int(self.dut.rx_fifo_full_dropped.value)

    async def quiesce(self):
        """Source done, sink always ready, until the output stays idle."""
        self.sink.clear_pause_generator()
        self.sink.pause = False
        await self.source.wait()
        slow = max(self.s_ns, self.m_ns)
        n = -1
        while n != len(self.outmon.frames) or int(self.dut.m_axis_tvalid.value):
            n = len(self.outmon.frames)
            await Timer(int(40 * slow * 1000), "ps")

    def check(self, expect_all_good=False):
        """Output = a subsequence of the good input frames, exact, in order;
        the missing ones are the full-drop count; bad ones all counted."""
        good = [(d, t) for d, bad, t in self.inmon.frames if not bad]
        nbad = sum(1 for _, bad, _ in self.inmon.frames if bad)
        out = self.outmon.frames
        if NEGATIVE and out:
            # the negative control: one byte of one frame out corrupted
            d, t, g = out[len(out) // 2]
            out = list(out)
            out[len(out) // 2] = (bytes([d[0] ^ 0x01]) + d[1:], t, g)
        j = 0
        missing = []
        for i, (d, t_vis, _) in enumerate(out):
            while j < len(good) and good[j][0] != d:
                missing.append((j, len(good[j][0])))
                j += 1
            assert j < len(good), \
                f"output frame {i} ({len(d)} bytes) is not a good input frame in order (corrupt, bad, fragment, reordered or twice)"
            assert t_vis > good[j][1], \
                f"output frame {i} visible at {t_vis} ps, its last beat went in at {good[j][1]} ps"
            j += 1
        missing += [(k, len(good[k][0])) for k in range(j, len(good))]
        self.dut._log.info("good frames not out (index, bytes): %s", missing)
        bad_c, full_c = self.counters()
        assert bad_c == nbad, f"rx_fifo_bad_dropped = {bad_c}, {nbad} bad frames went in"
        assert full_c == len(good) - len(out), \
            f"rx_fifo_full_dropped = {full_c}, but {len(good) - len(out)} good frames are missing"
        if expect_all_good:
            assert len(out) == len(good), f"{len(good) - len(out)} good frames lost"
        return len(good), len(out), nbad


def bursty(r, p_on, mean_len):
    """pause pattern: runs of pauses and of activity, `p_on` of the time paused"""
    while True:
        on = r.random() < p_on
        for _ in range(1 + int(r.expovariate(1.0 / mean_len))):
            yield on


async def random_frames(dut, s_ns, m_ns, name, count):
    tb = TB(dut, s_ns, m_ns, name)
    await tb.reset()
    tb.source.set_pause_generator(bursty(tb.r, 0.2, 3))
    tb.sink.set_pause_generator(bursty(tb.r, 0.35, 40))
    for i in range(count):
        n = tb.r.choice([tb.r.randint(1, 64), tb.r.randint(60, 300), tb.r.randint(300, DEPTH_BYTES + 80)])
        bad = None
        if tb.r.random() < 0.15:
            bad = tb.r.choice(["last", 0, tb.r.randint(0, 80)])
        await tb.source.send(tb.frame(n, bad))
        if tb.r.random() < 0.1:
            await tb.source.wait()
            await Timer(int(tb.r.randint(1, 200) * s_ns * 1000), "ps")
    await tb.quiesce()
    ngood, nout, nbad = tb.check()
    assert nbad == tb.sent_bad
    dut._log.info("%s: %d good frames in, %d out, %d bad, %d dropped full",
                  name, ngood, nout, nbad, ngood - nout)
    assert 0 < ngood - nout < ngood // 2, "the bench should make the FIFO drop some frames, not most"
    if DROP_FULL == 0:
        # never drops a frame that fits; larger than the ring, always
        big = sum(1 for d, bad, _ in tb.inmon.frames if not bad and len(d) > DEPTH_BYTES)
        assert ngood - nout == big, f"{ngood - nout} frames dropped, {big} are larger than the ring"


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_random_s_fast(dut):
    """s_clk 4.0 ns, m_clk 6.4 ns: random sizes 1..DEPTH_BYTES+80, 15 % bad,
    source and sink stalling"""
    await random_frames(dut, 4.0, 6.4, "s_fast", 90)


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_random_m_fast(dut):
    """s_clk 6.4 ns, m_clk 4.0 ns"""
    await random_frames(dut, 6.4, 4.0, "m_fast", 90)


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_random_drift(dut):
    """5.000 ns against 5.014 ns"""
    await random_frames(dut, 5.0, 5.014, "drift", 90)


async def no_gaps(dut, s_ns, m_ns, name):
    """The reader always ready and the source stalling 30-50 % of its cycles:
    nothing dropped (frames small enough for DROP_FULL = 1), and each frame
    leaves in consecutive cycles: a frame is released only whole, so a MAC
    reading it never underruns."""
    tb = TB(dut, s_ns, m_ns, name)
    await tb.reset()
    # DROP_FULL = 1 drops what does not fit: keep the input slower than the
    # output there (8 bytes per 4.0 ns at 50 % < 8 bytes per 6.4 ns)
    p = 0.5 if DROP_FULL and s_ns < m_ns else 0.3
    tb.source.set_pause_generator(itertools.cycle([tb.r.random() < p for _ in range(97)]))
    for i in range(30):
        n = tb.r.randint(1, DEPTH_BYTES // 4 if DROP_FULL else DEPTH_BYTES)
        await tb.source.send(tb.frame(n))
    await tb.quiesce()
    tb.check(expect_all_good=True)
    gaps = [g for _, _, g in tb.outmon.frames]
    assert len(gaps) == 30 and not any(gaps), f"frames left with gaps inside: {gaps}"


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_no_gaps_m_fast(dut):
    """no gap inside a frame, m_clk 4.0 ns faster than s_clk 6.4 ns"""
    await no_gaps(dut, 6.4, 4.0, "gaps_m_fast")


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_no_gaps_s_fast(dut):
    """no gap inside a frame, m_clk 6.4 ns slower than s_clk 4.0 ns"""
    await no_gaps(dut, 4.0, 6.4, "gaps_s_fast")


async def fill(tb, sizes, gap_cycles=40):
    for n in sizes:
        await tb.source.send(tb.frame(n))
        await tb.source.wait()
        await ClockCycles(tb.dut.s_clk, gap_cycles)


@cocotb.test(skip=DROP_FULL == 0, timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_capacity(dut):
    """Reader stopped. (1) Frames of 10 beats: as many as fit in the ring
    plus the output register (the first beat of the first frame moves there
    and frees its slot) are kept; every later one is dropped and counted.
    (2) One-beat frames: FRAMES in the frame list, plus its output register,
    plus the frame in the output register are kept. After draining, new
    frames pass again."""
    tb = TB(dut, 6.4, 4.0, "capacity")
    await tb.reset()
    tb.sink.pause = True
    n = 12
    await fill(tb, [80] * n)
    fit = (RING_BEATS + 1) // 10
    fit = min(fit, FRAMES + 2)
    assert tb.counters() == (0, n - fit), f"counters {tb.counters()}, expected (0, {n - fit})"
    assert len(tb.outmon.frames) == 0
    await tb.quiesce()
    assert len(tb.outmon.frames) == fit, f"{len(tb.outmon.frames)} frames out, {fit} fit"

    tb.sink.pause = True
    await fill(tb, [8] * (FRAMES + 6))
    fit2 = FRAMES + 2
    assert tb.counters() == (0, n - fit + FRAMES + 6 - fit2), f"counters {tb.counters()}"
    await tb.quiesce()
    await fill(tb, [200, 8, 64])
    await tb.quiesce()
    tb.check()
    assert len(tb.outmon.frames) == fit + fit2 + 3


@cocotb.test(skip=DROP_FULL != 0, timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_wait_when_full(dut):
    """DROP_FULL = 0, reader stopped: once the ring is full the input waits
    (tready = 0) instead of dropping; nothing is counted; when the reader
    resumes, every frame comes out."""
    tb = TB(dut, 4.0, 6.4, "wait")
    await tb.reset()
    tb.sink.pause = True
    sizes = [tb.r.randint(60, 200) for _ in range(12)]
    for n in sizes:
        await tb.source.send(tb.frame(n))
    await ClockCycles(dut.s_clk, 400)
    assert not tb.source.idle(), "the source sent everything into a stopped reader"
    assert int(dut.s_axis_tready.value) == 0, "tready is up with the ring full"
    taken = sum(len(d) for d, _, _ in tb.inmon.frames)
    assert RING_BEATS * 8 - 200 <= taken <= RING_BEATS * 8 + 8, f"{taken} bytes taken before waiting"
    assert tb.counters() == (0, 0)
    await tb.quiesce()
    tb.check(expect_all_good=True)
    assert [len(d) for d, _, _ in tb.outmon.frames] == sizes


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_reset(dut):
    """Counters count, and either reset clears them. Then traffic with the
    reader always ready and m_rst pulsed while a frame is half in: the output
    holds only whole input frames (the rest of the cut frame is discarded,
    no fragment), and every frame sent after the reset comes out."""
    tb = TB(dut, 6.4, 4.0, "reset")
    await tb.reset()
    for bad in ("last", 0):
        await tb.source.send(tb.frame(100, bad))
    await tb.source.send(tb.frame(DEPTH_BYTES + 16))    # too big: full (or huge) drop
    await tb.quiesce()
    assert tb.counters() == (2, 1), f"counters {tb.counters()}"
    for rst, clk in ((dut.s_rst, dut.s_clk), (dut.m_rst, dut.m_clk)):
        await RisingEdge(clk)
        rst.value = 1
        await RisingEdge(clk)
        rst.value = 0
        await ClockCycles(dut.s_clk, 20)
        assert tb.counters() == (0, 0), f"counters {tb.counters()} after {rst._name}"
        await tb.source.send(tb.frame(50, "last"))
        await tb.quiesce()
        assert tb.counters() == (1, 0)

    tb.inmon.frames.clear()
    tb.outmon.frames.clear()
    tb.source.set_pause_generator(itertools.cycle([tb.r.random() < 0.2 for _ in range(31)]))
    sizes = [tb.r.randint(100, 300) for _ in range(16)]
    for n in sizes:
        await tb.source.send(tb.frame(n))
    while not (len(tb.inmon.frames) >= 4 and tb.inmon.beats >= 3):
        await RisingEdge(dut.s_clk)
    cut = len(tb.inmon.frames)      # the frame being taken now is cut
    await RisingEdge(dut.m_clk)
    dut.m_rst.value = 1
    await RisingEdge(dut.m_clk)
    dut.m_rst.value = 0
    t_rst = now_ps()
    await tb.quiesce()
    ins = tb.inmon.frames
    outs = [d for d, _, _ in tb.outmon.frames]
    whole = [d for d, _, _ in ins]
    for d in outs:
        assert d in whole, f"a {len(d)}-byte fragment came out"
    assert ins[cut][0] not in outs, "the frame cut by the reset came out"
    later = [d for d, _, t in ins[cut + 1:]]
    assert outs[-len(later):] == later, "frames sent after the reset are missing"
    dut._log.info("reset: %d frames in, %d out, cut frame %d", len(ins), len(outs), cut)
