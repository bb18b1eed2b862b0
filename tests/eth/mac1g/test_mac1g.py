# SPDX-License-Identifier: MIT
"""cocotb tests of froce_eth_mac_1g_rgmii against the cocotbext-eth RGMII models.

Transmit: cocotbext-axi AxiStreamSource (64-bit) -> MAC -> RGMII -> cocotbext-eth
RgmiiSink. Receive: cocotbext-eth RgmiiSource -> RGMII -> MAC -> a monitor of the
64-bit AXI-Stream that also checks its packing rules. Expected frames and FCS
come from zlib.crc32 here, never from the RTL.

Every test resets the DUT (and with it the counters) and makes new models.
Randomness comes from Python's random module, which cocotb seeds from
RANDOM_SEED (printed at the start of the run).
"""

import logging
import random
import struct
import zlib

import cocotb
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSource
from cocotbext.eth import GmiiFrame, RgmiiSink, RgmiiSource

PREAMBLE = b"\x55" * 7 + b"\xd5"
BYTES_PER_BEAT = 8          # DATA_WIDTH 64 (the Makefile's parameter)
MAX_FRAME = 9600        # bytes without FCS (the Makefile's parameter)
MIN_PAYLOAD = 60            # the MAC pads shorter frames to this, then adds the FCS
IFG = 12                    # minimum idle byte times between transmitted frames
CLK_PS = 8000               # 125 MHz
RX_COUNTERS = ("rx_frames_ok", "rx_bad_fcs", "rx_err", "rx_runt", "rx_oversize")
TX_COUNTERS = ("tx_frames", "tx_aborted", "tx_underrun")


def fcs(data):
    return struct.pack("<L", zlib.crc32(data))


def padded(payload):
    return payload + bytes(max(0, MIN_PAYLOAD - len(payload)))


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def random_size(lo, hi):
    """Mostly small frames, some medium, a few large ones (simulation time)."""
    r = random.random()
    if r < 0.7:
        return random.randint(lo, min(hi, 256))
    if r < 0.9:
        return random.randint(min(hi, 257), min(hi, 2000))
    return random.randint(min(hi, 2001), hi)


def bounded_pauses(max_run):
    """Random source pauses, never more than max_run clocks in a row."""
    run = 0
    while True:
        if run < max_run and random.random() < 0.4:
            run += 1
            yield True
        else:
            run = 0
            yield False


# ---------------------------------------------------------------------------
# Checks. They raise AssertionError; the negative controls show they do.
# ---------------------------------------------------------------------------

def check_tx_frame(frame, payload):
    """One frame from RgmiiSink against the payload given to the MAC."""
    data = bytes(frame.data)
    assert not (frame.error and any(frame.error)), f"tx_er asserted in a good frame ({len(data)} bytes)"
    assert data[:8] == PREAMBLE, f"preamble/SFD {data[:8].hex()}"
    body, got_fcs = data[8:-4], data[-4:]
    exp = padded(payload)
    assert body == exp, (f"payload mismatch: {len(body)} bytes, expected {len(exp)}, "
                         f"first difference at byte {first_diff(body, exp)}")
    assert got_fcs == fcs(exp), f"FCS {got_fcs.hex()}, expected {fcs(exp).hex()}"


def check_gaps(frames, minimum=IFG, exact=None):
    """Idle byte times between consecutive RgmiiSink frames (start/end times
    are both taken on a falling TXC edge, so the difference is whole clocks)."""
    gaps = []
    for prev, nxt in zip(frames, frames[1:]):
        gap_ps = nxt.sim_time_start - prev.sim_time_end
        assert gap_ps % CLK_PS == 0, f"gap of {gap_ps} ps is not whole clocks"
        gaps.append(gap_ps // CLK_PS)
    if gaps:
        assert min(gaps) >= minimum, f"IPG of {min(gaps)} byte times < {minimum} (gaps {gaps})"
        if exact is not None:
            assert all(g == exact for g in gaps), f"gaps {gaps}, expected all {exact}"
    return gaps


def check_rx_frames(got, expected):
    """got: [(bytes, tuser)] from the monitor; expected: the same, in order."""
    assert len(got) == len(expected), f"{len(got)} frames out, expected {len(expected)}"
    for n, ((data, tuser), (exp, exp_tuser)) in enumerate(zip(got, expected)):
        assert tuser == exp_tuser, f"frame {n}: tuser {tuser}, expected {exp_tuser} ({len(exp)} bytes)"
        assert data == exp, (f"frame {n}: {len(data)} bytes, expected {len(exp)}, "
                             f"first difference at byte {first_diff(data, exp)}")


def check_counters(dut, expected):
    for name, value in expected.items():
        got = int(getattr(dut, name).value)
        assert got == value, f"{name} = {got}, expected {value}"


# ---------------------------------------------------------------------------
# Bench
# ---------------------------------------------------------------------------

class TB:
    def __init__(self, dut):
        self.dut = dut
        self.rx_frames = []         # (bytes, tuser) per output frame
        self.rx_format_errors = []  # AXI-Stream rule violations seen by the monitor
        self.rx_beats = 0

        dut.gtx_rst.value = 1
        dut.tb_txd_fault.value = 0
        dut.s_axis_tvalid.value = 0

        self.source = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.gtx_clk, dut.gtx_rst)
        self.sink = RgmiiSink(dut.sink_txd, dut.rgmii_tx_ctl, dut.rgmii_tx_clk, dut.gtx_rst)
        self.phy_src = RgmiiSource(dut.rgmii_rxd, dut.rgmii_rx_ctl, dut.rgmii_rx_clk, dut.rx_rst)
        self.phy_src.ifg = IFG
        # the models log every frame in full at INFO: kilobytes per jumbo frame
        for model in (self.source, self.sink, self.phy_src):
            model.log.setLevel(logging.WARNING)

    async def start(self):
        """Reset, then the RX monitor (the clocks run in the Verilog top)."""
        dut = self.dut
        await ClockCycles(dut.gtx_clk, 10)
        dut.gtx_rst.value = 0
        await ClockCycles(dut.gtx_clk, 10)
        cocotb.start_soon(self._rx_monitor())

    async def _rx_monitor(self):
        # Sample on rx_clk while beats come; between them sleep until tvalid
        # rises (a beat every clock would cost a Python wake-up per clock).
        dut = self.dut
        data = bytearray()
        while True:
            await RisingEdge(dut.rx_clk)
            if not int(dut.m_axis_tvalid.value):
                await RisingEdge(dut.m_axis_tvalid)
                continue
            self.rx_beats += 1
            keep = int(dut.m_axis_tkeep.value)
            tdata = int(dut.m_axis_tdata.value)
            last = int(dut.m_axis_tlast.value)
            tuser = int(dut.m_axis_tuser.value)
            n = 0
            while n < BYTES_PER_BEAT and keep >> n & 1:
                n += 1
            if keep != (1 << n) - 1 or n == 0:
                self.rx_format_errors.append(f"tkeep {keep:#x} not contiguous from bit 0")
            if not last and n != BYTES_PER_BEAT:
                self.rx_format_errors.append(f"tkeep {keep:#x} on a beat without tlast")
            if not last and tuser:
                self.rx_format_errors.append("tuser on a beat without tlast")
            if tdata >> (8 * n):
                self.rx_format_errors.append(f"tdata bytes outside tkeep not zero ({tdata:#x}, keep {keep:#x})")
            data += tdata.to_bytes(BYTES_PER_BEAT, "little")[:n]
            if last:
                self.rx_frames.append((bytes(data), tuser))
                data = bytearray()

    async def send_tx(self, payload, tuser=0):
        await self.source.send(AxiStreamFrame(payload, tuser=tuser))

    async def recv_tx(self, timeout_us=200):
        return await with_timeout(self.sink.recv(), timeout_us, "us")

    async def rx_idle(self):
        """Wait until the PHY model has sent everything and the MAC has let
        the last frame out."""
        await self.phy_src.wait()
        await ClockCycles(self.dut.rx_clk, 40)


# ---------------------------------------------------------------------------
# Transmit
# ---------------------------------------------------------------------------

@cocotb.test()
async def test_tx_frames(dut):
    """Random frames 14..9600 bytes with random input pauses and gaps: payload,
    padding, FCS, preamble exact, IPG >= 12; then a back-to-back burst whose
    gaps must be exactly 12 (full rate)."""
    tb = TB(dut)
    await tb.start()

    sizes = [14, 15, 59, 60, 61, 63, 64, 65, 1500, MAX_FRAME]
    sizes += [random_size(14, MAX_FRAME) for _ in range(16)]
    random.shuffle(sizes)
    # pauses of up to W - 2 clocks inside a frame never starve the wire
    tb.source.set_pause_generator(bounded_pauses(BYTES_PER_BEAT - 2))
    payloads = []
    for size in sizes:
        payload = random.randbytes(size)
        payloads.append(payload)
        await tb.send_tx(payload)
        if random.random() < 0.3:
            await tb.source.wait()
            await ClockCycles(dut.gtx_clk, random.randint(1, 60))
    frames = [await tb.recv_tx() for _ in payloads]
    for n, (frame, payload) in enumerate(zip(frames, payloads)):
        try:
            check_tx_frame(frame, payload)
        except AssertionError as e:
            raise AssertionError(f"frame {n} ({len(payload)} bytes): {e}") from None
    gaps = check_gaps(frames)
    dut._log.info("%d frames, %d payload bytes, gaps %d..%d", len(frames),
                  sum(map(len, payloads)), min(gaps), max(gaps))

    # burst: everything queued at once, no pauses -> exactly IFG between frames
    await tb.source.wait()
    tb.source.clear_pause_generator()
    tb.source.pause = False
    burst = [random.randbytes(s) for s in (14, 64, 200, 1023, 60, 3000, 61, 100)]
    for payload in burst:
        await tb.send_tx(payload)
    bframes = [await tb.recv_tx() for _ in burst]
    for frame, payload in zip(bframes, burst):
        check_tx_frame(frame, payload)
    check_gaps(bframes, exact=IFG)
    assert tb.sink.empty(), "extra frames on the wire"
    check_counters(dut, {"tx_frames": len(payloads) + len(burst), "tx_aborted": 0, "tx_underrun": 0})


@cocotb.test()
async def test_tx_abort_underrun(dut):
    """tuser on any beat (all of them, or only the second, not tlast) -> tx_er
    on the FCS bytes (and a bad FCS); an input
    underrun -> a tx_er byte ends the frame and the rest is dropped; the
    frames around them are unaffected."""
    tb = TB(dut)
    await tb.start()

    good = [random.randbytes(s) for s in (80, 1000, 20, 300)]
    aborted = [random.randbytes(s) for s in (100, 20)]
    order = [("good", good[0]), ("abort", aborted[0]), ("good", good[1]),
             ("abort", aborted[1]), ("good", good[2])]
    for n, (kind, payload) in enumerate(order):
        if kind == "good":
            tuser = 0
        elif n == 1:
            tuser = 1                                       # every beat, tlast included
        else:
            tuser = [0] * 8 + [1] * 8 + [0] * (len(payload) - 16)   # the second beat only
        await tb.send_tx(payload, tuser=tuser)
    for kind, payload in order:
        frame = await tb.recv_tx()
        if kind == "good":
            check_tx_frame(frame, payload)
            continue
        data = bytes(frame.data)
        exp = padded(payload)
        assert frame.error is not None, "aborted frame without tx_er"
        assert any(frame.error[-4:]) and not any(frame.error[:-4]), f"tx_er pattern {frame.error}"
        assert data[8:-4] == exp, "aborted frame: bytes before the FCS differ"
        assert data[-4:] != fcs(exp), "aborted frame carries a good FCS"

    # underrun: stop the source for 40 clocks in the middle of a frame
    await tb.source.wait()
    big = random.randbytes(3000)
    await tb.send_tx(big)
    await RisingEdge(dut.rgmii_tx_ctl)
    await ClockCycles(dut.gtx_clk, 200)
    tb.source.pause = True
    await ClockCycles(dut.gtx_clk, 40)
    tb.source.pause = False
    await tb.send_tx(good[3])
    uframe = frame = await tb.recv_tx()
    data = bytes(frame.data)
    assert frame.error is not None and frame.error[-1] and not any(frame.error[:-1]), \
        "underrun: expected tx_er on the last byte only"
    sent = data[8:-1]
    assert 100 < len(sent) < len(big) and big.startswith(sent), \
        f"underrun: {len(sent)} bytes before the error byte are not a prefix of the frame"
    frame = await tb.recv_tx()
    check_tx_frame(frame, good[3])
    check_gaps([uframe, frame])
    await ClockCycles(dut.gtx_clk, 50)
    assert tb.sink.empty(), "extra frames on the wire"
    check_counters(dut, {"tx_frames": 4, "tx_aborted": 2, "tx_underrun": 1})


@cocotb.test()
async def test_tx_empty_beats(dut):
    """tkeep = 0 beats: an empty tlast beat ends the frame at the byte before
    it, an empty middle beat is skipped, a frame of no bytes sends nothing."""
    tb = TB(dut)
    await tb.start()

    a = random.randbytes(24)
    b = random.randbytes(24)
    c = random.randbytes(8)
    d = random.randbytes(70)
    await tb.source.send(AxiStreamFrame(a, tkeep=[1] * 16 + [0] * 8))          # 2 beats + empty tlast
    await tb.source.send(AxiStreamFrame(b, tkeep=[1] * 8 + [0] * 8 + [1] * 8))  # empty middle beat
    await tb.source.send(AxiStreamFrame(c, tkeep=[0] * 8))                      # no byte at all
    await tb.source.send(AxiStreamFrame(d))
    for payload in (a[:16], b[:8] + b[16:], d):
        check_tx_frame(await tb.recv_tx(), payload)
    await ClockCycles(dut.gtx_clk, 100)
    assert tb.sink.empty(), "extra frames on the wire"
    check_counters(dut, {"tx_frames": 3, "tx_aborted": 0, "tx_underrun": 0})


# ---------------------------------------------------------------------------
# Receive
# ---------------------------------------------------------------------------

def rx_case(kind, body, error=None):
    """One burst for the PHY model and what the MAC must make of it:
    (GmiiFrame, expected output or None, expected tuser, counter)."""
    frame = GmiiFrame(PREAMBLE + body, error)
    if kind == "oversize":
        return frame, body[:MAX_FRAME], 1, "rx_oversize"
    out = body[:-4] if len(body) > 4 else None
    counter = {"ok": "rx_frames_ok", "bad_fcs": "rx_bad_fcs", "err": "rx_err", "runt": "rx_runt"}[kind]
    return frame, out, int(kind != "ok"), counter


def good_case(size):
    payload = padded(random.randbytes(size))
    return rx_case("ok", payload + fcs(payload))


async def run_rx(tb, cases):
    for frame, _, _, _ in cases:
        await tb.phy_src.send(frame)
    await tb.rx_idle()
    expected = [(out, tuser) for _, out, tuser, _ in cases if out is not None]
    counts = {name: 0 for name in RX_COUNTERS}
    for _, _, _, counter in cases:
        if counter:
            counts[counter] += 1
    assert not tb.rx_format_errors, f"AXI-Stream format: {tb.rx_format_errors[:5]}"
    check_rx_frames(tb.rx_frames, expected)
    check_counters(tb.dut, counts)
    return counts


@cocotb.test()
async def test_rx_frames(dut):
    """Random good frames (60..9600 bytes + FCS, and short payloads padded to
    60) at the minimum IPG of 12: every frame exact, tuser = 0."""
    tb = TB(dut)
    await tb.start()
    sizes = [14, 59, 60, 61, 64, 65, 1500, MAX_FRAME]
    sizes += [random_size(14, MAX_FRAME) for _ in range(16)]
    random.shuffle(sizes)
    counts = await run_rx(tb, [good_case(s) for s in sizes])
    dut._log.info("counters %s, %d beats", counts, tb.rx_beats)


@cocotb.test()
async def test_rx_bad_frames(dut):
    """Bad FCS (one flipped bit), rx_er in one byte, runts (with a good FCS,
    and bursts of 0..4 bytes that deliver nothing), oversize (cut at
    MAX_FRAME), junk without SFD, mixed with good frames at the minimum
    IPG: tuser = 1 on each bad frame's last beat and the right counter."""
    tb = TB(dut)
    await tb.start()

    cases = []

    def bad_fcs():
        payload = padded(random.randbytes(random_size(60, 3000)))
        body = bytearray(payload + fcs(payload))
        bit = random.randrange(8 * len(body))
        body[bit // 8] ^= 1 << (bit % 8)
        return rx_case("bad_fcs", bytes(body))

    def rx_er():
        payload = padded(random.randbytes(random_size(60, 3000)))
        body = payload + fcs(payload)
        error = [0] * (len(PREAMBLE) + len(body))
        error[len(PREAMBLE) + random.randrange(len(body))] = 1
        return rx_case("err", body, error)

    def runt(size):
        payload = random.randbytes(size)
        return rx_case("runt", payload + fcs(payload))

    makers = [bad_fcs, rx_er, lambda: runt(random.randint(1, 59)), lambda: good_case(random_size(14, 2000))]
    for _ in range(28):
        cases.append(random.choice(makers)())
    # boundaries and the rarer kinds, at fixed places among the random ones
    cases.insert(3, runt(59))                                            # 63 bytes: runt
    cases.insert(5, good_case(60))                                       # 64 bytes: good
    for n in range(5):                                                   # no byte to deliver
        cases.insert(7 + n, rx_case("runt", random.randbytes(n)))
    # too long (detected at byte MAX_FRAME + 5 whatever the length; the
    # rest of the burst is ignored); the longest good frame is in test_rx_frames
    over = random.randbytes(MAX_FRAME + 1 + random.randint(0, 40))
    cases.insert(16, rx_case("oversize", over + fcs(over)))
    cases.insert(20, (GmiiFrame(b"\x55" * 5), None, None, None))        # preamble, no SFD ...
    cases.insert(22, (GmiiFrame(b"\x12\x34" * 20), None, None, None))    # ... data without preamble
    err_runt = [0] * (len(PREAMBLE) + 30)
    err_runt[-5] = 1
    cases.insert(24, rx_case("runt", random.randbytes(30), err_runt))    # runt wins over rx_er
    counts = await run_rx(tb, cases)
    dut._log.info("counters %s", counts)
    for name in RX_COUNTERS:
        assert counts[name] > 0, f"the mix never exercised {name}"


@cocotb.test()
async def test_rx_short_ifg(dut):
    """Frames one idle byte apart (below the standard IPG) are still received."""
    tb = TB(dut)
    await tb.start()
    tb.phy_src.ifg = 1
    await run_rx(tb, [good_case(random.randint(14, 200)) for _ in range(12)])


# ---------------------------------------------------------------------------
# Negative controls: the checks above do fail on a wrong DUT output
# ---------------------------------------------------------------------------

@cocotb.test()
async def test_negative_controls(dut):
    """Flip one TXD bit on the wire in the middle of a frame: the transmit
    check must fail on that frame only. Receive a bad-FCS frame but expect a
    good one: the receive and counter checks must fail. A gap of 11: the IPG
    check must fail."""
    tb = TB(dut)
    await tb.start()

    payloads = [random.randbytes(200) for _ in range(3)]
    for payload in payloads:
        await tb.send_tx(payload)
    await RisingEdge(dut.rgmii_tx_ctl)          # frame 0 starts
    await tb.recv_tx()
    await RisingEdge(dut.rgmii_tx_ctl)          # frame 1 starts
    await ClockCycles(dut.gtx_clk, 50)
    dut.tb_txd_fault.value = 0x4
    await ClockCycles(dut.gtx_clk, 1)
    dut.tb_txd_fault.value = 0
    frame1 = await tb.recv_tx()
    frame2 = await tb.recv_tx()
    check_tx_frame(frame2, payloads[2])
    try:
        check_tx_frame(frame1, payloads[1])
    except AssertionError as e:
        dut._log.info("negative control (TX wire fault) caught: %s", e)
    else:
        raise AssertionError("TX check passed a frame with a flipped bit on the wire")

    class FakeFrame:
        def __init__(self, start, end):
            self.sim_time_start, self.sim_time_end = start, end
    try:
        check_gaps([FakeFrame(0, 1000 * CLK_PS), FakeFrame(1011 * CLK_PS, 0)])
    except AssertionError as e:
        dut._log.info("negative control (IPG 11) caught: %s", e)
    else:
        raise AssertionError("IPG check passed a gap of 11")

    payload = padded(random.randbytes(100))
    body = bytearray(payload + fcs(payload))
    body[10] ^= 0x01
    await tb.phy_src.send(GmiiFrame(PREAMBLE + bytes(body)))
    await tb.rx_idle()
    try:
        check_rx_frames(tb.rx_frames, [(bytes(body[:-4]), 0)])
    except AssertionError as e:
        dut._log.info("negative control (RX bad FCS taken for good) caught: %s", e)
    else:
        raise AssertionError("RX check passed a bad-FCS frame as good")
    try:
        check_counters(dut, {"rx_frames_ok": 1, "rx_bad_fcs": 0})
    except AssertionError as e:
        dut._log.info("negative control (RX counters) caught: %s", e)
    else:
        raise AssertionError("counter check passed wrong counts")
    # and the correct expectations hold
    check_rx_frames(tb.rx_frames, [(bytes(body[:-4]), 1)])
    check_counters(dut, {"rx_frames_ok": 0, "rx_bad_fcs": 1})
