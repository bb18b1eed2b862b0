# SPDX-License-Identifier: MIT
"""froce_async_fifo, driven directly: a writer that tries to write a fresh,
unique word on random cycles (a try while full must be ignored, so its word
must never appear) and a reader that pops on random cycles (a pop while empty
must be ignored). Every accepted word must come out exactly once, in order;
no refused word ever. Clocks are unrelated (4.0/6.4 ns both ways, 5.000/5.014
ns drifting through every phase), and resets hit either domain mid-stream."""
import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, Timer

from cdc_tb import GrayChecker, NEGATIVE, TIMEOUT_US, now_ps, params, reset_both, rng, start_clock

P = params()
WIDTH = P.get("WIDTH", 8)
DEPTH = P.get("DEPTH", 16)
SYNC_STAGES = P.get("SYNC_STAGES", 2)
MASK = (1 << WIDTH) - 1
# bursty traffic: (probability of a write try, probability of a pop) per phase
PHASES = [(0.9, 0.9), (1.0, 0.15), (0.15, 1.0), (1.0, 1.0), (0.5, 0.5), (1.0, 0.0), (0.0, 1.0), (0.7, 0.3)]


class Writer:
    def __init__(self, dut, r):
        self.dut, self.r = dut, r
        self.p = 0.0
        self.seq = 0
        self.accepted = []          # (word, time) taken by the FIFO
        self.refused = 0
        self.full_seen = 0
        dut.wr_en.value = 0
        dut.wr_data.value = 0
        cocotb.start_soon(self._run())

    def word(self):
        self.seq += 1
        return self.seq & MASK

    async def _run(self):
        dut = self.dut
        en, data = 0, 0
        while True:
            await RisingEdge(dut.wr_clk)
            full = int(dut.full.value)
            self.full_seen += full
            if en:
                if full:
                    self.refused += 1
                else:
                    self.accepted.append((data, now_ps()))
            if self.r.random() < self.p:
                en, data = 1, self.word()
            else:
                en, data = 0, self.r.getrandbits(WIDTH)     # noise while idle
            dut.wr_en.value = en
            # the negative control: one word reaches the FIFO with a bit
            # flipped, the model keeps the original
            dut.wr_data.value = data ^ 1 if NEGATIVE and en and self.seq == 300 else data


class Reader:
    def __init__(self, dut, r):
        self.dut, self.r = dut, r
        self.q = 0.0
        self.budget = None          # pops left, or None: no limit
        self.got = []               # (word, time)
        self.empty_seen = 0
        self.unstable = []
        dut.rd_en.value = 0
        cocotb.start_soon(self._run())

    async def _run(self):
        dut = self.dut
        en = 0
        held = None                 # head word shown but not popped
        while True:
            await RisingEdge(dut.rd_clk)
            empty = int(dut.empty.value)
            self.empty_seen += empty
            if not empty:
                data = int(dut.rd_data.value)
                if held is not None and data != held:
                    self.unstable.append((now_ps(), held, data))
                if en:
                    self.got.append((data, now_ps()))
                    held = None
                else:
                    held = data
            else:
                held = None
            en = 1 if self.r.random() < self.q and self.budget != 0 else 0
            if en and self.budget is not None:
                self.budget -= 1
            dut.rd_en.value = en


async def setup(dut, wr_ns, rd_ns, name):
    r = rng(name)
    start_clock(dut.wr_clk, wr_ns)
    start_clock(dut.rd_clk, rd_ns, phase_ns=r.uniform(0, rd_ns))
    w = Writer(dut, r)
    rd = Reader(dut, r)
    await reset_both(dut.wr_clk, dut.wr_rst, dut.rd_clk, dut.rd_rst)
    gray = [GrayChecker(dut.wr_clk, dut.wr_gray_reg, "wr_gray_reg"),
            GrayChecker(dut.rd_clk, dut.rd_gray_reg, "rd_gray_reg")]
    return r, w, rd, gray


def check_exact(w, rd):
    sent = [d for d, _ in w.accepted]
    got = [d for d, _ in rd.got]
    for i, (a, b) in enumerate(zip(sent, got)):
        assert a == b, f"word {i}: got {b:#x}, expected {a:#x} (lost, duplicated or refused word)"
    assert len(got) == len(sent), f"{len(sent)} words accepted, {len(got)} read"
    assert not rd.unstable, f"rd_data changed while shown and not popped: {rd.unstable[:3]}"


async def drain(dut, w, rd, slow_ns):
    w.p = 0.0
    rd.q = 1.0
    await Timer(int(40 * slow_ns * 1000), "ps")
    n = len(rd.got)
    await Timer(int(40 * slow_ns * 1000), "ps")
    assert len(rd.got) == n, "words kept coming out of a drained FIFO"
    assert int(dut.empty.value) == 1


async def stream(dut, wr_ns, rd_ns, name, words_per_phase=220):
    r, w, rd, gray = await setup(dut, wr_ns, rd_ns, name)
    slow = max(wr_ns, rd_ns)
    for rep in range(2):
        for p, q in PHASES:
            w.p, rd.q = p, q
            await Timer(int(words_per_phase * slow * 1000), "ps")
    await drain(dut, w, rd, slow)
    check_exact(w, rd)
    for g in gray:
        g.check()
    assert w.full_seen > 0 and w.refused > 0, "the FIFO never became full: the bench is too gentle"
    assert rd.empty_seen > 0
    dut._log.info("%s: %d words through, %d tries refused while full", name, len(rd.got), w.refused)


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_stream_wr_fast(dut):
    """write clock 4.0 ns, read clock 6.4 ns, bursty random valid/ready"""
    await stream(dut, 4.0, 6.4, "wr_fast")


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_stream_rd_fast(dut):
    """write clock 6.4 ns, read clock 4.0 ns"""
    await stream(dut, 6.4, 4.0, "rd_fast")


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_stream_drift(dut):
    """5.000 ns against 5.014 ns: the phase walks through a whole period every
    ~360 cycles, so every alignment of the two edges is crossed"""
    await stream(dut, 5.0, 5.014, "drift")


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_capacity(dut):
    """Reader stopped: exactly DEPTH + 1 words are taken (memory plus output
    register), full stays up, every further try is refused; one pop lets
    exactly one more in; then everything comes out in order."""
    r, w, rd, gray = await setup(dut, 6.4, 4.0, "capacity")
    rd.q = 0.0
    w.p = 1.0
    await ClockCycles(dut.wr_clk, 60)
    assert len(w.accepted) == DEPTH + 1, f"{len(w.accepted)} words taken, capacity is {DEPTH + 1}"
    assert int(dut.full.value) == 1
    await ClockCycles(dut.wr_clk, 30)
    assert len(w.accepted) == DEPTH + 1, "a word was taken while full"
    rd.q, rd.budget = 1.0, 1                # exactly one pop
    await ClockCycles(dut.wr_clk, 40)
    assert len(rd.got) == 1, f"{len(rd.got)} pops"
    assert len(w.accepted) == DEPTH + 2, f"one pop let {len(w.accepted) - DEPTH - 1} words in"
    rd.budget = None
    await drain(dut, w, rd, 6.4)
    check_exact(w, rd)


async def throughput(dut, wr_ns, rd_ns):
    """Both sides always willing: in steady state a word crosses on every
    cycle of the slower clock (DEPTH covers the synchroniser round trip).
    Run for DEPTH >= 16 only."""
    r, w, rd, gray = await setup(dut, wr_ns, rd_ns, f"tput{wr_ns}")
    w.p = rd.q = 1.0
    slow = max(wr_ns, rd_ns)
    await Timer(int(50 * slow * 1000), "ps")
    n0, t0 = len(rd.got), now_ps()
    await Timer(int(500 * slow * 1000), "ps")
    rate = (len(rd.got) - n0) / ((now_ps() - t0) / 1000.0)
    best = 1.0 / slow
    dut._log.info("%.3f/%.3f ns: %.4f words/ns, %.1f %% of the slower clock",
                  wr_ns, rd_ns, rate, 100 * rate / best)
    assert rate > 0.98 * best, f"{rate:.4f} words/ns, the slower clock allows {best:.4f}"
    await drain(dut, w, rd, slow)
    check_exact(w, rd)


@cocotb.test(skip=DEPTH < 16, timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_throughput_wr_fast(dut):
    """full rate, write clock 4.0 ns, read clock 6.4 ns"""
    await throughput(dut, 4.0, 6.4)


@cocotb.test(skip=DEPTH < 16, timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_throughput_rd_fast(dut):
    """full rate, write clock 6.4 ns, read clock 4.0 ns"""
    await throughput(dut, 6.4, 4.0)


async def reset_run(dut, wr_ns, rd_ns, name):
    """Traffic keeps going on both sides while wr_rst, rd_rst or both pulse
    for one cycle of their clock at random times."""
    r, w, rd, gray = await setup(dut, wr_ns, rd_ns, name)
    slow = max(wr_ns, rd_ns)
    # a reset and the synchronisers settle within 2 * (2 * SYNC_STAGES + 1)
    # edges of the slower clock; allow twice that
    settle_ps = int(4 * (2 * SYNC_STAGES + 1) * slow * 1000)
    resets = []                     # (assert time, settle time, which)
    flags = []                      # (time, full) and (time, empty) samples

    async def watch(clk, sig, tag):
        while True:
            await RisingEdge(clk)
            flags.append((now_ps(), tag, int(sig.value)))

    cocotb.start_soon(watch(dut.wr_clk, dut.full, "full"))
    cocotb.start_soon(watch(dut.rd_clk, dut.empty, "empty"))

    async def pulse(clk, rst):
        # rst is synchronous to clk: high for exactly one of its edges
        rst.value = 1
        await RisingEdge(clk)
        rst.value = 0

    # (write try, pop) probabilities: the last one leaves the FIFO full when
    # the reset comes
    phases = [(0.9, 0.9), (1.0, 0.3), (0.3, 1.0), (0.9, 0.1)]
    for k in range(9):
        w.p, rd.q = phases[k % len(phases)]
        await Timer(int(r.uniform(60, 160) * slow * 1000), "ps")
        which = ("wr", "rd", "both")[k % 3]
        await RisingEdge(dut.rd_clk if which == "rd" else dut.wr_clk)
        t0 = now_ps()
        if which == "both":
            a = cocotb.start_soon(pulse(dut.wr_clk, dut.wr_rst))
            await pulse(dut.rd_clk, dut.rd_rst)
            await a
        elif which == "wr":
            await pulse(dut.wr_clk, dut.wr_rst)
        else:
            await pulse(dut.rd_clk, dut.rd_rst)
        resets.append((t0, now_ps() + settle_ps, which))
    w.p, rd.q = 0.7, 0.7
    await Timer(int(300 * slow * 1000), "ps")
    await drain(dut, w, rd, slow)

    # words accepted between a reset's settle time and the next reset form a
    # segment; of each segment a prefix comes out (the words still in flight
    # when the next reset hits are lost), of the last segment everything;
    # words accepted while a reset settles may be lost; nothing else, and
    # nothing out of order, twice, or refused
    order = {d: i for i, (d, _) in enumerate(w.accepted)}
    got = [d for d, _ in rd.got]
    last = -1
    for d in got:
        assert d in order, f"word {d:#x} came out but was never accepted"
        assert order[d] > last, f"word {d:#x} out of order or twice"
        last = order[d]
    gotset = set(got)
    bounds = [0] + [x for t0, t1, _ in resets for x in (t0, t1)] + [float("inf")]
    for s in range(0, len(bounds), 2):
        lo, hi = bounds[s], bounds[s + 1]
        seg = [d for d, t in w.accepted if lo < t <= hi]
        out = [d in gotset for d in seg]
        if hi == float("inf"):
            assert all(out), f"{out.count(False)} words accepted after the last reset were lost"
        else:
            n = out.count(True)
            assert out == [True] * n + [False] * (len(out) - n), \
                f"segment {s // 2}: a word lost in the middle (not at a reset): {out}"
        assert seg, f"segment {s // 2} is empty: the bench did not exercise it"
    # every reset made both flags show it
    for t0, t1, which in resets:
        assert any(t0 < t <= t1 and tag == "full" and v == 1 for t, tag, v in flags), \
            f"{which} reset at {t0} ps: full never rose"
        assert any(t0 < t <= t1 and tag == "empty" and v == 1 for t, tag, v in flags), \
            f"{which} reset at {t0} ps: empty never rose"
    for g in gray:
        g.check([(t0, t1) for t0, t1, _ in resets])
    dut._log.info("%s: %d accepted, %d out, %d resets", name, len(w.accepted), len(got), len(resets))


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_reset_slow_rd(dut):
    """resets with a write clock 8.5 times faster than the read clock"""
    await reset_run(dut, 2.0, 17.0, "reset_slow_rd")


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_reset_slow_wr(dut):
    """resets with a read clock 8.5 times faster than the write clock"""
    await reset_run(dut, 17.0, 2.0, "reset_slow_wr")


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_reset_close(dut):
    """resets with 4.0 / 6.4 ns clocks"""
    await reset_run(dut, 4.0, 6.4, "reset_close")
