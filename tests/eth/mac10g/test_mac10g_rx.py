# SPDX-License-Identifier: MIT
"""froce_eth_mac_10g receiver and froce_eth_rx_fifo against cocotbext-eth
XgmiiSource -> DUT -> RxMonitor (MAC output) / cocotbext-axi AxiStreamSink
(FIFO output)."""
import itertools

import cocotb
from cocotb.triggers import ClockCycles

from mac10g_tb import (
    LaneMonitor, MAX_FRAME, PREAMBLE, TB, XG_ERROR, XG_IDLE, XG_START, XgmiiFrame, corrupt_if_negative, first_diff,
    padded, random_payload, rng,
)

RX_COUNTERS = ("rx_frames_ok", "rx_bad_fcs", "rx_err_char", "rx_runt", "rx_oversize", "rx_bad_preamble")
KIND_COUNTER = {"ok": "rx_frames_ok", "fcs": "rx_bad_fcs", "char": "rx_err_char", "runt": "rx_runt",
                "over": "rx_oversize", "pre": "rx_bad_preamble"}


class Case:
    """One frame for the XgmiiSource and what the MAC must deliver:
    kind (see KIND_COUNTER), out (exact bytes, or None: oversize, checked
    apart; kind "pre" delivers nothing)."""

    def __init__(self, kind, frame, out, note=""):
        self.kind, self.frame, self.out, self.note = kind, frame, out, note
        self.start_lane = None

    def lane_seen(self, f):
        self.start_lane = f.start_lane


def good(p):
    return Case("ok", XgmiiFrame.from_payload(p), padded(p), f"good {len(p)}")


def bad_fcs(r, p):
    f = XgmiiFrame.from_payload(p)
    i = 8 + r.randrange(len(f.data) - 8)
    f.data[i] ^= 1 << r.randrange(8)
    return Case("fcs", f, bytes(f.data[8:-4]), f"bit flip at {i - 8} of {len(f.data) - 8}")


def runt(p):
    f = XgmiiFrame.from_payload(p, min_len=0)
    return Case("runt", f, bytes(p), f"runt {len(p)} + FCS")


def raw(data):
    """Frame bytes as given (no FCS added): data[-4:] is taken as the FCS."""
    return Case("runt", XgmiiFrame.from_raw_payload(data), bytes(data[:-4]) if len(data) > 4 else b"",
                f"raw {len(data)} bytes")


def ctrl_inside(r, p, ch, at=None):
    """A control character replacing frame byte `at` (default: random,
    FCS included)."""
    f = XgmiiFrame.from_payload(p)
    f.normalize()
    i = 8 + (r.randrange(len(f.data) - 8) if at is None else at)
    f.data[i] = ch
    f.ctrl[i] = 1
    return Case("char", f, bytes(f.data[8:max(8, i - 4)]), f"ctrl {ch:#04x} at byte {i - 8}")


def bad_preamble(p, lane, value, ctrl=0):
    f = XgmiiFrame.from_payload(p)
    f.normalize()
    f.data[lane] = value
    f.ctrl[lane] = ctrl
    return Case("pre", f, None, f"preamble lane {lane} = {value:#04x}/{ctrl}")


def start_inside(r, m, nb):
    """Frame A (m bytes, m % 4 == 0) is cut by the /S/ of frame B (nb bytes)
    that follows it directly: A ends with an error, B is received."""
    pa = random_payload(r, m)
    pb = random_payload(r, nb)
    fb = XgmiiFrame.from_payload(pb)
    data = bytearray(PREAMBLE) + pa + bytearray([XG_START]) + fb.data[1:]
    ctrl = [0] * len(data)
    ctrl[8 + m] = 1
    return [Case("char", XgmiiFrame(data, ctrl), pa[:m - 4], f"cut by /S/ after {m}"),
            Case("ok", None, padded(pb), "frame after /S/")]


def oversize(p):
    return Case("over", XgmiiFrame.from_payload(p), None, f"oversize {len(p)}")


async def send_cases(tb, cases):
    for c in cases:
        if c.frame is not None:
            c.frame.tx_complete = c.lane_seen
            await tb.xsource.send(c.frame)


def check_delivered(cases, delivered, payload_of=None):
    """The MAC's frames against the cases, in order; returns the counter values expected."""
    exp = [c for c in cases if c.kind != "pre"]
    assert len(delivered) == len(exp), f"{len(delivered)} frames delivered, {len(exp)} expected"
    for i, (c, (data, tuser)) in enumerate(zip(exp, delivered)):
        what = f"frame {i} ({c.note})"
        assert tuser == (c.kind != "ok"), f"{what}: tuser {tuser}"
        if c.kind == "over":
            p = payload_of[id(c)]
            assert MAX_FRAME - 8 <= len(data) <= MAX_FRAME, f"{what}: {len(data)} bytes delivered"
            assert data == p[:len(data)], f"{what}: bytes differ at {first_diff(data, p)}"
        elif c.kind == "char":
            # ended by a control character: the bytes before it less the
            # last 4; a /S/ in the other lane view ends the frame one
            # half-beat earlier (4 bytes fewer; error frames' content is a
            # prefix, not otherwise defined)
            assert data == c.out[:len(data)] and len(data) >= len(c.out) - 4, \
                f"{what}: {len(data)} bytes, expected {len(c.out)}, first difference at {first_diff(data, c.out)}"
        else:
            assert data == c.out, \
                f"{what}: {len(data)} bytes, expected {len(c.out)}, first difference at {first_diff(data, c.out)}"
    counts = {n: 0 for n in RX_COUNTERS}
    for c in cases:
        counts[KIND_COUNTER[c.kind]] += 1
    return counts


@cocotb.test()
async def test_rx_good(dut):
    """Good frames 14..9600 bytes from XgmiiSource (DIC, /S/ in lanes 0 and
    4), at its 12-byte gap and then at gap 8 (5 with DIC, seen on the wire): each one
    delivered exactly (padding kept, FCS stripped), tuser 0; counters."""
    r = rng("test_rx_good")
    tb = TB(dut, axis_source=False)
    await tb.reset()

    sizes = [14, 59, 60, 61, 64, 65] + [r.randint(14, 200) for _ in range(30)]
    sizes += [r.randint(200, 1518) for _ in range(8)] + [MAX_FRAME, r.randint(2000, MAX_FRAME)]
    r.shuffle(sizes)
    cases = [good(random_payload(r, n)) for n in sizes]
    await send_cases(tb, cases)
    await tb.xsource_idle()
    tb.xsource.ifg = 8
    wire = LaneMonitor(dut, dut.xgmii_rxd, dut.xgmii_rxc)
    more = [good(random_payload(r, r.randint(14, 130))) for _ in range(40)]
    await send_cases(tb, more)
    await tb.xsource_idle()
    cases += more
    gaps, _ = wire.gaps()
    assert min(gaps) == 5, f"gaps at ifg 8: {sorted(set(gaps))} (5 expected among them)"

    for i, c in enumerate(cases):
        c.out = corrupt_if_negative(c.out, i)
    assert not tb.rx.errors, tb.rx.errors[:5]
    counts = check_delivered(cases, tb.rx.frames)
    lanes = {c.start_lane for c in cases}
    assert lanes == {0, 4}, f"XgmiiSource used /S/ lanes {lanes}"
    c = tb.counters(*RX_COUNTERS, "rx_bytes_ok")
    counts["rx_bytes_ok"] = sum(len(k.out) + 4 for k in cases)
    assert c == counts, c


@cocotb.test()
async def test_rx_errors(dut):
    """Bad FCS (payload and FCS bit flips), runts (with and without a valid
    FCS, down to no byte at all), /E/, /I/ and /S/ inside a frame, a bad SFD
    and a control character in the preamble, an oversize frame; good frames
    in between: each bad one delivered with tuser = 1 and counted once."""
    r = rng("test_rx_errors")
    tb = TB(dut, axis_source=False)
    await tb.reset()

    g = lambda: good(random_payload(r, r.randint(14, 300)))  # noqa: E731
    over = oversize(random_payload(r, MAX_FRAME + 1))
    cases = [
        g(), bad_fcs(r, random_payload(r, 100)), g(),
        bad_fcs(r, random_payload(r, 64)), bad_fcs(r, random_payload(r, 1000)),
        runt(random_payload(r, 1)), runt(random_payload(r, 20)), runt(random_payload(r, 59)), g(),
        raw(b""), raw(random_payload(r, 3)), raw(random_payload(r, 4)), raw(random_payload(r, 12)),
        raw(random_payload(r, 63)), g(),
        ctrl_inside(r, random_payload(r, 200), XG_ERROR), ctrl_inside(r, random_payload(r, 70), XG_ERROR),
        ctrl_inside(r, random_payload(r, 90), XG_ERROR, at=0), ctrl_inside(r, random_payload(r, 90), XG_ERROR, at=5),
        ctrl_inside(r, random_payload(r, 60), XG_ERROR, at=62), g(),
        ctrl_inside(r, random_payload(r, 150), XG_IDLE), g(),
        bad_preamble(random_payload(r, 80), 7, 0xD4), g(),
        bad_preamble(random_payload(r, 80), 3, XG_IDLE, ctrl=1), g(),
        *start_inside(r, 64, 100), g(), *start_inside(r, 100, 64), g(),
        over, g(),
    ]
    for lane_a, lane_b in itertools.product((0, 1), repeat=2):
        cases += [bad_fcs(r, random_payload(r, 64 + lane_a)), g(), runt(random_payload(r, 30 + lane_b)), g()]
    payload_of = {id(over): bytes(over.frame.data[8:-4])}

    await send_cases(tb, cases)
    await tb.xsource_idle()
    assert not tb.rx.errors, tb.rx.errors[:5]
    counts = check_delivered(cases, tb.rx.frames, payload_of)
    c = tb.counters(*RX_COUNTERS)
    assert c == counts, f"counters {c}, expected {counts}"
    assert tb.counter("rx_bytes_ok") == sum(len(k.out) + 4 for k in cases if k.kind == "ok")


@cocotb.test()
async def test_rx_fifo(dut):
    """The same kinds of frames through froce_eth_rx_fifo with its output
    stalling at random: the good frames all come out, whole and in order,
    no bad one does; rx_fifo_bad_dropped counts the bad ones."""
    r = rng("test_rx_fifo")
    tb = TB(dut, axis_source=False)
    await tb.reset()
    tb.fifo_sink.set_pause_generator(itertools.cycle([r.random() < 0.3 for _ in range(97)]))

    cases = []
    for _ in range(40):
        p = random_payload(r, r.randint(14, 400))
        kind = r.choice(["ok", "ok", "ok", "fcs", "runt", "char", "pre"])
        if kind == "ok":
            cases.append(good(p))
        elif kind == "fcs":
            cases.append(bad_fcs(r, p))
        elif kind == "runt":
            cases.append(runt(p[:r.randint(0, 59)]))
        elif kind == "char":
            cases.append(ctrl_inside(r, p, r.choice([XG_ERROR, XG_IDLE])))
        else:
            cases.append(bad_preamble(p, 7, 0x55))
    await send_cases(tb, cases)
    await tb.xsource_idle()

    goods = [c.out for c in cases if c.kind == "ok"]
    for _ in range(200):
        if tb.fifo_sink.count() >= len(goods):
            break
        await ClockCycles(dut.clk, 16)
    await ClockCycles(dut.clk, 50)
    got = []
    while not tb.fifo_sink.empty():
        got.append(bytes(tb.fifo_sink.recv_nowait().tdata))
    check_delivered(cases, tb.rx.frames)
    assert len(got) == len(goods), f"{len(got)} frames out of the FIFO, {len(goods)} good ones sent"
    for i, (a, b) in enumerate(zip(got, goods)):
        assert a == b, f"FIFO frame {i}: differs at byte {first_diff(a, b)}"
    bad = sum(1 for c in cases if c.kind not in ("ok", "pre"))
    c = tb.counters("rx_fifo_bad_dropped", "rx_fifo_full_dropped")
    assert c == {"rx_fifo_bad_dropped": bad, "rx_fifo_full_dropped": 0}, c


@cocotb.test()
async def test_rx_fifo_full(dut):
    """FIFO output held (tready low): 20 good 1000-byte frames into a
    16 KiB ring; those that do not fit (the 17th on) are dropped whole and
    counted, the rest come out in order once tready returns; then the FIFO
    takes frames again."""
    r = rng("test_rx_fifo_full")
    tb = TB(dut, axis_source=False)
    await tb.reset()
    tb.fifo_sink.pause = True

    cases = [good(random_payload(r, 1000)) for _ in range(20)]
    await send_cases(tb, cases)
    await tb.xsource_idle()
    full = tb.counter("rx_fifo_full_dropped")
    tb.fifo_sink.pause = False
    for _ in range(200):
        if tb.fifo_sink.count() >= len(cases) - full:
            break
        await ClockCycles(dut.clk, 16)
    await ClockCycles(dut.clk, 20)
    got = []
    while not tb.fifo_sink.empty():
        got.append(bytes(tb.fifo_sink.recv_nowait().tdata))
    assert full > 0, "nothing was dropped: the ring did not fill"
    assert len(got) + full == len(cases), f"{len(got)} out + {full} dropped != {len(cases)}"
    assert got == [c.out for c in cases[:len(got)]], "the frames out are not the first ones sent, in order"
    assert len(got) == 16384 // 1000, f"{len(got)} frames of 1000 bytes held in a 16 KiB ring"

    later = [good(random_payload(r, r.randint(60, 1500))) for _ in range(4)]
    await send_cases(tb, later)
    await tb.xsource_idle()
    for _ in range(100):
        if tb.fifo_sink.count() >= len(later):
            break
        await ClockCycles(dut.clk, 16)
    await ClockCycles(dut.clk, 20)
    got = []
    while not tb.fifo_sink.empty():
        got.append(bytes(tb.fifo_sink.recv_nowait().tdata))
    assert got == [c.out for c in later], "frames after the overflow"
    assert tb.counter("rx_fifo_full_dropped") == full
    assert tb.counter("rx_fifo_bad_dropped") == 0
