# SPDX-License-Identifier: MIT
"""froce_eth_mac_10g transmitter (TX_FIFO_BYTES = 0: the bare froce_eth_mac_10g_tx)
against cocotbext-axi AxiStreamSource -> DUT -> cocotbext-eth XgmiiSink."""
import cocotb
from cocotb.triggers import ClockCycles

from mac10g_tb import (
    ENABLE_DIC, MAX_FRAME, PREAMBLE, TB, XG_ERROR, AxiStreamFrame, TxLaneMonitor, XgmiiFrame, check_tx_frame,
    corrupt_if_negative, drive_beats, frame_beats, padded, random_payload, rng,
)


def wire_len(payload):
    """Bytes from /S/ to /T/ (exclusive): preamble, padded frame, FCS."""
    return 8 + len(padded(payload)) + 4


@cocotb.test()
async def test_tx_frames(dut):
    """Random frames 14..9600 bytes (every tkeep on the last beat, an empty
    tlast beat, idle or back to back): payload, padding, preamble, FCS,
    counters."""
    r = rng("test_tx_frames")
    tb = TB(dut)
    await tb.reset()

    sizes = [14, 15, 59, 60, 61, 63, 64, 65]
    sizes += [r.randint(14, 64) for _ in range(16)]
    sizes += [r.randint(65, 1518) for _ in range(16)]
    sizes += [1514, MAX_FRAME, r.randint(2000, MAX_FRAME)]
    r.shuffle(sizes)
    payloads = [random_payload(r, n) for n in sizes]
    # tkeep on the last beat: each length mod 8 occurs above; these two end
    # with a beat that has tkeep = 0
    extra = [random_payload(r, 64), random_payload(r, 16)]

    async def send_all():
        for p in payloads:
            await tb.source.send(AxiStreamFrame(p))
            if r.random() < 0.5:
                await tb.source.wait()
                await ClockCycles(dut.clk, r.randint(1, 40))
        for p in extra:
            await tb.source.send(AxiStreamFrame(p + bytes(8), tkeep=[1] * len(p) + [0] * 8))

    cocotb.start_soon(send_all())
    expected = payloads + extra
    for i, p in enumerate(expected):
        xf = await tb.tx_recv()
        check_tx_frame(xf, corrupt_if_negative(p, i), f"frame {i} ({len(p)} bytes)")

    await ClockCycles(dut.clk, 20)
    assert tb.xsink.empty(), "more frames on the wire than were sent"
    c = tb.counters("tx_frames", "tx_bytes", "tx_aborted", "tx_oversize", "tx_underrun")
    assert c == {
        "tx_frames": len(expected),
        "tx_bytes": sum(len(padded(p)) + 4 for p in expected),
        "tx_aborted": 0, "tx_oversize": 0, "tx_underrun": 0,
    }, c


def dic_reference(t_pos, dic):
    """802.3 46.3.1.4 DIC: the next /S/ after a /T/ at wire byte t_pos goes
    to the first lane 0 or 4 at least 9 + dic bytes on; dic += 12 - gap.
    Without DIC (ENABLE_DIC = 0): the first lane 0 or 4 at least 12 bytes on."""
    if not ENABLE_DIC:
        s = t_pos + 12
        return s + (-s) % 4, 0
    s = t_pos + 9 + dic
    s += (-s) % 4
    gap = s - t_pos
    return s, dic + 12 - gap


@cocotb.test()
async def test_tx_ipg_dic(dut):
    """Back-to-back frames: every gap (from /T/, counted, to /S/) >= 9, the
    average exactly 12 (|sum - 12 n| <= 3), /S/ in lanes 0 and 4, and each gap
    the one the deficit idle count gives. ENABLE_DIC = 0: every gap 12..15."""
    r = rng("test_tx_ipg_dic")
    tb = TB(dut)
    mon = TxLaneMonitor(dut)
    await tb.reset()

    sizes = [r.choice([r.randint(14, 70), r.randint(60, 300)]) for _ in range(160)]
    payloads = [random_payload(r, n) for n in sizes]
    for p in payloads:
        await tb.source.send(AxiStreamFrame(p))
    for i, p in enumerate(payloads):
        check_tx_frame(await tb.tx_recv(), p, f"frame {i}")
    await ClockCycles(dut.clk, 10)

    gaps, lanes = mon.gaps()
    assert len(gaps) == len(payloads) - 1, f"{len(gaps)} gaps for {len(payloads)} frames"
    assert set(lanes) == {0, 4}, f"/S/ lanes seen: {sorted(set(lanes))}"
    assert min(gaps) >= (9 if ENABLE_DIC else 12), f"a gap of {min(gaps)} bytes"
    assert max(gaps) <= 15, f"a gap of {max(gaps)} bytes (frames were back to back)"
    n = len(gaps)
    if ENABLE_DIC:
        assert abs(sum(gaps) - 12 * n) <= 3, f"average gap {sum(gaps) / n:.3f} over {n} gaps"

    # exact sequence, and each frame's length on the wire
    starts = [pos for pos, ch in mon.events if ch == 0xFB]
    terms = [pos for pos, ch in mon.events if ch == 0xFD]
    assert len(starts) == len(terms) == len(payloads)
    dic = 0
    for i, p in enumerate(payloads):
        assert terms[i] - starts[i] == wire_len(p), f"frame {i}: /T/ {terms[i] - starts[i]} bytes after /S/"
        if i + 1 < len(payloads):
            s, dic = dic_reference(terms[i], dic)
            assert starts[i + 1] == s, f"frame {i + 1}: /S/ at +{starts[i + 1] - terms[i]}, DIC gives +{s - terms[i]}"
    tb.log.info("gaps: n=%d min=%d max=%d mean=%.4f", n, min(gaps), max(gaps), sum(gaps) / n)


@cocotb.test()
async def test_tx_abort(dut):
    """tuser on the last beat, on a middle beat and on a short frame's only
    beat: the frame ends with /E/ after the bytes before that beat; the
    frames around it are intact; tx_aborted counts them."""
    r = rng("test_tx_abort")
    tb = TB(dut)
    await tb.reset()

    good = [random_payload(r, n) for n in (100, 64, 333, 20)]
    ab_last = random_payload(r, 77)         # 10 beats, tuser on beat 9
    ab_mid = random_payload(r, 200)         # tuser on beat 3
    ab_short = random_payload(r, 7)         # one beat
    plan = [
        ("good", good[0], None),
        ("abort", ab_last, 9),
        ("good", good[1], None),
        ("abort", ab_mid, 3),
        ("abort", ab_short, 0),
        ("good", good[2], None),
        ("good", good[3], None),
    ]
    for kind, p, beat in plan:
        tuser = [0] * len(p)
        if beat is not None:
            for k in range(8 * beat, min(8 * beat + 8, len(p))):
                tuser[k] = 1
        await tb.source.send(AxiStreamFrame(p, tuser=tuser))

    for i, (kind, p, beat) in enumerate(plan):
        xf = await tb.tx_recv()
        if kind == "good":
            check_tx_frame(xf, p, f"frame {i}")
        else:
            assert bytes(xf.data[:8]) == PREAMBLE, f"frame {i}: preamble"
            assert xf.ctrl is not None and xf.ctrl[-1] == 1 and xf.data[-1] == XG_ERROR, \
                f"frame {i}: does not end with /E/: {xf}"
            assert bytes(xf.data[8:-1]) == p[:8 * beat], f"frame {i}: bytes before /E/"
            assert not any(xf.ctrl[:-1]), f"frame {i}: control character before /E/"
    await ClockCycles(dut.clk, 20)
    assert tb.xsink.empty()
    c = tb.counters("tx_frames", "tx_aborted", "tx_oversize", "tx_underrun", "tx_bytes")
    assert c == {"tx_frames": 4, "tx_aborted": 3, "tx_oversize": 0, "tx_underrun": 0,
                 "tx_bytes": sum(len(padded(p)) + 4 for p in good)}, c


@cocotb.test()
async def test_tx_underrun(dut):
    """A frame whose source stops for two cycles after 5 beats: it ends with
    /E/ after those 40 bytes, its remaining beats are discarded, the next
    frame is intact; tx_underrun counts it."""
    r = rng("test_tx_underrun")
    tb = TB(dut, axis_source=False)
    await tb.reset()

    a = random_payload(r, 80)
    b = random_payload(r, 100)
    beats_a = frame_beats(a)
    await drive_beats(dut, beats_a[:5] + [None, None] + beats_a[5:] + [None] * 3 + frame_beats(b))

    xa = await tb.tx_recv()
    assert bytes(xa.data[:8]) == PREAMBLE
    assert xa.ctrl is not None and xa.ctrl[-1] == 1 and xa.data[-1] == XG_ERROR, f"underrun frame: {xa}"
    assert bytes(xa.data[8:-1]) == a[:40], f"underrun frame carries {len(xa.data) - 9} bytes"
    check_tx_frame(await tb.tx_recv(), b, "frame after the underrun")
    await ClockCycles(dut.clk, 20)
    assert tb.xsink.empty(), "the discarded beats made a frame"
    c = tb.counters("tx_frames", "tx_aborted", "tx_oversize", "tx_underrun")
    assert c == {"tx_frames": 1, "tx_aborted": 0, "tx_oversize": 0, "tx_underrun": 1}, c


@cocotb.test()
async def test_tx_oversize(dut):
    """Frames of MAX_FRAME + 1 and MAX_FRAME + 20 bytes are cut after
    MAX_FRAME bytes and end with /E/ (test_tx_frames sends one of exactly
    MAX_FRAME bytes whole); the frames after them are intact."""
    r = rng("test_tx_oversize")
    tb = TB(dut)
    await tb.reset()

    plan = [("over", random_payload(r, MAX_FRAME + 1)),
            ("good", random_payload(r, 100)),
            ("over", random_payload(r, MAX_FRAME + 20)),
            ("good", random_payload(r, 64))]
    for _, p in plan:
        await tb.source.send(AxiStreamFrame(p))
    for i, (kind, p) in enumerate(plan):
        xf = await tb.tx_recv()
        if kind == "good":
            check_tx_frame(xf, p, f"frame {i}")
        else:
            assert xf.ctrl is not None and xf.ctrl[-1] == 1 and xf.data[-1] == XG_ERROR, f"frame {i} not ended by /E/"
            assert bytes(xf.data[8:-1]) == p[:MAX_FRAME], f"frame {i}: {len(xf.data) - 9} bytes before /E/"
    c = tb.counters("tx_frames", "tx_oversize", "tx_bytes")
    assert c == {"tx_frames": 2, "tx_oversize": 2, "tx_bytes": 100 + 4 + 64 + 4}, c


@cocotb.test()
async def test_tx_negative_control(dut):
    """The checks can fail: a frame from the wire with one bit flipped (in
    the payload, then in the FCS) fails cocotbext's FCS check and ours."""
    r = rng("test_tx_negative_control")
    tb = TB(dut)
    await tb.reset()

    p = random_payload(r, 123)
    await tb.source.send(AxiStreamFrame(p))
    xf = await tb.tx_recv()
    check_tx_frame(xf, p, "unmodified frame")
    for where in (8 + r.randrange(len(p)), len(xf.data) - 1 - r.randrange(4)):
        bad = XgmiiFrame(xf)
        bad.data[where] ^= 1 << r.randrange(8)
        assert not bad.check_fcs(), f"bit flip at {where} not seen by XgmiiFrame.check_fcs"
        try:
            check_tx_frame(bad, p, "flipped")
        except AssertionError:
            pass
        else:
            raise AssertionError(f"bit flip at {where} not seen by check_tx_frame")
