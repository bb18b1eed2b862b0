# SPDX-License-Identifier: MIT
"""UART host link: froce_uart_host (froce_uart_host_bridge + froce_axi_ram, in
tb_froce_uart_link.v) driven at the pins by a UART model and a host that
speaks the protocol of fpga/common/host/froce_uart_proto.h.

Checks: INFO; BAR0 reads/writes against an AxiLiteRam model (one AXI-Lite
access each, SLVERR and DECERR passed on); doorbells as exactly one 64-bit
write; random host-memory reads/writes of 1..256 bytes at any alignment
against a byte model while an AXI master (froce_core's DMA) reads and writes
the RAM at the same time, and under contention on every cycle; the RAM's
AXI side on its own (narrow, FIXED, long and unaligned bursts, IDs, DECERR
outside the window); every error
status (bad CRC, unknown command, bad argument, out of window, truncated
frame, AXI error) with no side effect; resync after garbage and framing
errors; resends answered once (exactly-once writes); interrupt frames
between responses, coalesced, numbered; back-to-back requests; receive FIFO
overrun (with a small FIFO). The device's output must always be well-formed
frames with good CRCs (uart_proto.Decoder is strict)."""

import cocotb
from cocotb.triggers import RisingEdge, Timer
from cocotb.utils import get_sim_time
from cocotbext.axi.constants import AxiBurstType, AxiResp

from uart_proto import request
from uart_tb import (BAR0_ERR, BAR0_SIZE, BAR2_SIZE, CLK_PS, MEM_BASE, MEM_SIZE, PRM, Bench, P, byte_time_ps,
                     ops, start, wrong)

AXI_SLVERR = P.STATUS_AXI | 2
AXI_DECERR = P.STATUS_AXI | 3
TIMEOUT_PS = PRM["TIMEOUT_CYCLES"] * CLK_PS
NID = 1 << PRM["ID_WIDTH"]


def ok(f, what=""):
    assert f.status == P.STATUS_OK, f"{what}: status {f.status:#04x} ({f.raw.hex()})"
    return f


def status(f, want, what=""):
    assert f.status == want, f"{what}: status {f.status:#04x}, want {want:#04x} ({f.raw.hex()})"
    assert f.data == b"", f"{what}: error response with data {f.raw.hex()}"


def bar0_offsets(r):
    """A random 4-aligned BAR0 offset outside the SLVERR region."""
    while True:
        off = r.randrange(0, BAR0_SIZE, 4)
        if off not in BAR0_ERR:
            return off


async def pulse_irq(dut, vector):
    await RisingEdge(dut.clk)
    dut.irq_valid.value = 1
    dut.irq_vector.value = vector
    await RisingEdge(dut.clk)
    assert dut.irq_ready.value == 1
    dut.irq_valid.value = 0


class NoSideEffects:
    """Asserts that no BAR0/BAR2 AXI-Lite access and no RAM write by the
    bridge happened in the with-block."""

    def __init__(self, tb):
        self.tb = tb

    def __enter__(self):
        t = self.tb
        self.n = (len(t.mon0.writes), len(t.mon0.reads), len(t.mon2.writes), t.memw.writes)

    def __exit__(self, *exc):
        t = self.tb
        now = (len(t.mon0.writes), len(t.mon0.reads), len(t.mon2.writes), t.memw.writes)
        if exc[0] is None:
            assert now == self.n, f"side effects: (bar0 w, bar0 r, bar2 w, ram w) {self.n} -> {now}"


@cocotb.test()
async def test_info(dut):
    """INFO: magic, version, windows, vectors, user id, counters at 0."""
    await start(dut)
    tb = await Bench.create(dut, "info")
    t0 = get_sim_time("ns")
    i = await tb.host.info()
    dut._log.info("INFO round trip %d ns: %s", get_sim_time("ns") - t0, i)
    assert i["magic"] == wrong(P.INFO_MAGIC)
    assert i["version"] == P.PROTO_VERSION
    assert (i["bar0_aw"], i["bar2_aw"], i["vectors"]) == \
        (PRM["BAR0_ADDR_WIDTH"], PRM["BAR2_ADDR_WIDTH"], PRM["NUM_VECTORS"])
    assert (i["mem_base"], i["mem_size"]) == (MEM_BASE, MEM_SIZE)
    assert i["user_id"] == PRM["USER_ID"]
    assert all(i[k] == 0 for k in ("framing", "overrun", "bad_crc", "timeout", "dup", "irq")), i
    # the address and LEN of INFO are ignored
    f = await tb.host.request(P.CMD_INFO, 0xFFFF_FFFF_FFFF_FFF0, length=200)
    assert ok(f).info()["magic"] == P.INFO_MAGIC
    await tb.finish()


@cocotb.test()
async def test_bar0(dut):
    """BAR0 read32/write32: one AXI-Lite access each at the offset, data both
    ways; SLVERR and DECERR reported; misaligned/wrong LEN/outside rejected
    without an access."""
    await start(dut)
    tb = await Bench.create(dut, "bar0")
    r, h = tb.r, tb.host
    written = {}
    for i in range(ops(18)):
        tb.stalls(0.4 if i < 6 else 0)          # stalls on the slave for the first accesses
        off = bar0_offsets(r)
        if written and r.random() < 0.4:
            off = r.choice(list(written))
            n = len(tb.mon0.reads)
            f = ok(await h.bar0_read(off), f"read {off:#x}")
            assert int.from_bytes(f.data, "little") == wrong(written[off]), f"BAR0 {off:#x}: {f.data.hex()}"
            assert tb.mon0.reads[n:] == [off], tb.mon0.reads[n:]
        else:
            v = r.getrandbits(32)
            n = len(tb.mon0.writes)
            ok(await h.bar0_write(off, v), f"write {off:#x}")
            assert tb.mon0.writes[n:] == [(off, v, 0xF)], tb.mon0.writes[n:]
            written[off] = v
    assert not tb.mon2.writes
    for off, v in written.items():
        assert tb.bar0(off) == v.to_bytes(4, "little")

    # errors without an access
    with NoSideEffects(tb):
        for off in (2, 0x101, BAR0_SIZE - 1):
            status(await h.bar0_read(off), P.STATUS_BAD_ARG, f"misaligned read {off:#x}")
            status(await h.bar0_write(off, 1), P.STATUS_BAD_ARG, f"misaligned write {off:#x}")
        status(await h.request(P.CMD_BAR0_RD32, 0, length=8), P.STATUS_BAD_ARG, "read LEN 8")
        status(await h.request(P.CMD_BAR0_WR32, 0, b"\x01\x02"), P.STATUS_BAD_ARG, "write LEN 2")
        for off in (BAR0_SIZE, 1 << 32, 1 << 63):
            status(await h.bar0_read(off), P.STATUS_OUT_OF_WINDOW, f"read {off:#x}")
            status(await h.bar0_write(off, 1), P.STATUS_OUT_OF_WINDOW, f"write {off:#x}")

    # SLVERR from the slave model, DECERR forced on the response
    off = BAR0_ERR[0]
    n = (len(tb.mon0.writes), len(tb.mon0.reads))
    status(await h.bar0_write(off, 5), AXI_SLVERR, "SLVERR write")
    status(await h.bar0_read(off), AXI_SLVERR, "SLVERR read")
    assert (len(tb.mon0.writes), len(tb.mon0.reads)) == (n[0] + 1, n[1] + 1)
    dut.tb_b0_resp_or.value = 3
    status(await h.bar0_write(0x40, 5), AXI_DECERR, "DECERR write")
    status(await h.bar0_read(0x40), AXI_DECERR, "DECERR read")
    dut.tb_b0_resp_or.value = 0
    f = ok(await h.bar0_read(0x40))
    assert f.data == (5).to_bytes(4, "little")      # the DECERR write still reached the model
    await tb.finish()


@cocotb.test()
async def test_doorbell(dut):
    """DB_WR64: exactly one 64-bit AXI-Lite write with WSTRB 0xFF at the offset,
    never on BAR0; misaligned/wrong LEN/outside rejected; DECERR reported."""
    await start(dut)
    tb = await Bench.create(dut, "doorbell")
    r, h = tb.r, tb.host
    for i in range(ops(16)):
        tb.stalls(0.4 if i < 6 else 0)
        off = r.randrange(0, BAR2_SIZE, 8)
        v = r.getrandbits(64)
        n = len(tb.mon2.writes)
        ok(await h.db_write(off, v), f"doorbell {off:#x}")
        assert tb.mon2.writes[n:] == [(off, v, wrong(0xFF))], tb.mon2.writes[n:]
        assert bytes(tb.bar2.mem[off:off + 8]) == v.to_bytes(8, "little")
    assert not tb.mon0.writes and not tb.mon0.reads
    with NoSideEffects(tb):
        for off in (4, 1, BAR2_SIZE - 4):
            status(await h.db_write(off, 1), P.STATUS_BAD_ARG, f"misaligned {off:#x}")
        status(await h.request(P.CMD_DB_WR64, 8, b"\x01\x02\x03\x04"), P.STATUS_BAD_ARG, "LEN 4")
        for off in (BAR2_SIZE, 1 << 40):
            status(await h.db_write(off, 1), P.STATUS_OUT_OF_WINDOW, f"outside {off:#x}")
    dut.tb_db_resp_or.value = 3
    n = len(tb.mon2.writes)
    status(await h.db_write(0x808, 7), AXI_DECERR, "DECERR")
    dut.tb_db_resp_or.value = 0
    assert len(tb.mon2.writes) == n + 1
    await tb.finish()


async def dma_worker(tb, lo, hi, done, stats):
    """Random DMA reads/writes in [lo, hi) of the RAM, checked against tb.mem."""
    r = tb.r
    while not done[0]:
        n = r.choice([1, 8, 64, r.randint(1, 600)])
        off = r.randrange(lo, hi - n)
        if r.random() < 0.5:
            data = r.randbytes(n)
            resp = await tb.dma.write(MEM_BASE + off, data, awid=r.randrange(NID))
            assert resp.resp == AxiResp.OKAY
            tb.mem[off:off + n] = data
            stats["w"] += 1
        else:
            rd = await tb.dma.read(MEM_BASE + off, n, arid=r.randrange(NID))
            assert rd.resp == AxiResp.OKAY
            assert rd.data == bytes(tb.mem[off:off + n]), f"DMA read {off:#x}+{n}"
            stats["r"] += 1
        if r.random() < 0.5:
            await Timer(r.randint(1, 400) * CLK_PS, "ps")   # idle sometimes


@cocotb.test()
async def test_mem_random(dut):
    """Random MEM_WR/MEM_RD of 1..256 bytes at any alignment in one half of
    the RAM while the DMA master reads/writes the other half; then each side
    reads what the other wrote; the window's edges."""
    await start(dut)
    tb = await Bench.create(dut, "mem", mem=True)
    r, h = tb.r, tb.host
    half = MEM_SIZE // 2
    done, stats = [False], {"w": 0, "r": 0}
    worker = cocotb.start_soon(dma_worker(tb, half, MEM_SIZE, done, stats))
    nbytes = 0
    for i in range(ops(14)):
        n = r.choice([1, 2, 7, 8, 9, 256, r.randint(1, 256)])
        off = r.randrange(0, half - n)
        if r.random() < 0.5:
            data = r.randbytes(n)
            ok(await h.mem_write(MEM_BASE + off, data), f"MEM_WR {off:#x}+{n}")
            tb.mem[off:off + n] = data
        else:
            f = ok(await h.mem_read(MEM_BASE + off, n), f"MEM_RD {off:#x}+{n}")
            assert f.data == wrong(bytes(tb.mem[off:off + n])), f"MEM_RD {off:#x}+{n}: {f.data.hex()}"
        nbytes += n
    done[0] = True
    await worker
    dut._log.info("bridge: %d ops, %d bytes; DMA meanwhile: %s", ops(14), nbytes, stats)
    assert stats["w"] + stats["r"] > 10, stats

    # each side reads the other's half
    for _ in range(ops(4)):
        n = r.randint(1, 256)
        off = r.randrange(half, MEM_SIZE - n)
        f = ok(await h.mem_read(MEM_BASE + off, n))
        assert f.data == bytes(tb.mem[off:off + n]), f"DMA-written {off:#x}+{n}"
        off = r.randrange(0, half - 1024)
        rd = await tb.dma.read(MEM_BASE + off, 1024)
        assert rd.data == bytes(tb.mem[off:off + 1024]), f"bridge-written {off:#x}"

    # the window's edges
    data = r.randbytes(256)
    ok(await h.mem_write(MEM_BASE + MEM_SIZE - 256, data))
    tb.mem[MEM_SIZE - 256:] = data
    f = ok(await h.mem_read(MEM_BASE + MEM_SIZE - 5, 5))
    assert f.data == data[-5:]
    with NoSideEffects(tb):
        for addr, n in ((MEM_BASE + MEM_SIZE - 255, 256), (MEM_BASE + MEM_SIZE, 1), (MEM_BASE - 1, 1),
                        (MEM_BASE - 1, 2), (MEM_BASE ^ (1 << 40), 8), (MEM_BASE ^ (1 << 63), 8), (0, 4)):
            if (addr & ~(MEM_SIZE - 1)) == MEM_BASE and addr + n <= MEM_BASE + MEM_SIZE:
                continue        # (0, 4) when the window is at 0
            status(await h.mem_write(addr, bytes(n)), P.STATUS_OUT_OF_WINDOW, f"MEM_WR {addr:#x}+{n}")
            status(await h.mem_read(addr, n), P.STATUS_OUT_OF_WINDOW, f"MEM_RD {addr:#x}+{n}")
    rd = await tb.dma.read(MEM_BASE, MEM_SIZE)
    assert rd.data == bytes(tb.mem), "RAM differs from the model"
    await tb.finish()


@cocotb.test()
async def test_contention(dut):
    """The bridge's RAM accesses while the DMA master keeps the RAM busy with
    back-to-back bursts (2 KiB), each read back at once: every byte of both
    sides lands (the bridge takes cycles from the AXI side on the port it
    uses, never the other way round, and never both at once)."""
    await start(dut)
    tb = await Bench.create(dut, "contention", mem=True)
    r, h = tb.r, tb.host
    half = MEM_SIZE // 2
    done, count = [False], [0]

    burst = min(2048, half // 2)

    async def dma_loop():
        while not done[0]:
            off = half + r.randrange(0, half - burst, 8)
            data = r.randbytes(burst)
            await tb.dma.write(MEM_BASE + off, data)
            tb.mem[off:off + burst] = data
            rd = await tb.dma.read(MEM_BASE + off, burst)
            assert rd.data == data, f"DMA burst at {off:#x} under contention"
            count[0] += 1

    loop = cocotb.start_soon(dma_loop())
    await Timer(100 * CLK_PS, "ps")
    for _ in range(ops(3)):
        off = r.randrange(0, half - 64)
        data = r.randbytes(r.randint(40, 64))
        ok(await h.mem_write(MEM_BASE + off, data))
        tb.mem[off:off + len(data)] = data
        f = ok(await h.mem_read(MEM_BASE + off, len(data)))
        assert f.data == wrong(data), f"bridge {off:#x}: {f.data.hex()} != {data.hex()}"
    done[0] = True
    await loop
    assert count[0] >= 4, count
    rd = await tb.dma.read(MEM_BASE, MEM_SIZE)
    assert rd.data == bytes(tb.mem), "RAM differs from the model"
    await tb.finish()


@cocotb.test()
async def test_axi_ram(dut):
    """The RAM's AXI4 side: narrow and unaligned writes, FIXED bursts, long
    bursts, concurrent IDs with stalls, DECERR outside the window with no
    change."""
    await start(dut)
    tb = await Bench.create(dut, "axi_ram", mem=True)
    tb.stalls(0.3, slaves=False, dma=True)
    r, dma = tb.r, tb.dma
    # narrow and unaligned
    for size in (0, 1, 2, 3):
        for _ in range(ops(3)):
            n = r.randint(1, 40)
            off = r.randrange(0, MEM_SIZE - 64)
            data = r.randbytes(n)
            assert (await dma.write(MEM_BASE + off, data, size=size)).resp == AxiResp.OKAY
            tb.mem[off:off + n] = data
            rd = await dma.read(MEM_BASE + off, n, size=size)
            assert rd.data == wrong(data), f"size {size} at {off:#x}+{n}"
    # FIXED: every beat to the same word
    off = r.randrange(0, MEM_SIZE, 8)
    data = r.randbytes(32)
    await dma.write(MEM_BASE + off, data, burst=AxiBurstType.FIXED)
    tb.mem[off:off + 8] = data[24:]
    rd = await dma.read(MEM_BASE + off, 24, burst=AxiBurstType.FIXED)
    assert rd.data == data[24:] * 3, rd.data.hex()
    # long bursts (256 beats) and 4 KiB crossings (split by the master)
    for off in (0, 0x7F8, r.randrange(0, max(1, MEM_SIZE - 4096))):
        data = r.randbytes(2048 + r.randint(0, 700))
        off = min(off, MEM_SIZE - len(data))
        await dma.write(MEM_BASE + off, data)
        tb.mem[off:off + len(data)] = data
        assert (await dma.read(MEM_BASE + off, len(data))).data == data
    # concurrent IDs
    jobs, expect = [], []
    region = MEM_SIZE // 12
    for k in range(12):
        n = r.randint(1, min(300, region // 2))
        off = k * region + r.randrange(0, region - n)
        if k % 2:
            data = r.randbytes(n)
            tb.mem[off:off + n] = data
            jobs.append(cocotb.start_soon(dma.write(MEM_BASE + off, data, awid=k % NID)))
            expect.append(None)
        else:
            jobs.append(cocotb.start_soon(dma.read(MEM_BASE + off, n, arid=k % NID)))
            expect.append((off, n))
    for j, e in zip(jobs, expect):
        res = await j
        if e is not None:
            assert res.data == bytes(tb.mem[e[0]:e[0] + e[1]]), f"concurrent read {e}"
    # outside the window: DECERR, zeros, no change (the same low bits inside are intact)
    for addr in (MEM_BASE + MEM_SIZE, MEM_BASE - MEM_SIZE, MEM_BASE ^ (1 << 50)):
        if addr < 0 or addr >= 1 << 64:
            continue
        resp = await dma.write(addr + 0x100, r.randbytes(64))
        assert resp.resp == AxiResp.DECERR, resp
        rd = await dma.read(addr + 0x100, 64)
        assert rd.resp == AxiResp.DECERR and rd.data == bytes(64), rd
    rd = await dma.read(MEM_BASE, MEM_SIZE)
    assert rd.data == bytes(tb.mem), "RAM differs from the model"
    await tb.finish()


@cocotb.test()
async def test_bad_crc(dut):
    """A corrupted frame is answered BAD_CRC (CMD/TAG echoed) and changes
    nothing; corruption anywhere, even in CMD or LEN, never wedges the link."""
    await start(dut)
    tb = await Bench.create(dut, "bad_crc")
    r, h = tb.r, tb.host
    base = (await h.info())["bad_crc"]
    reqs = [(P.CMD_MEM_WR, MEM_BASE + 0x100, r.randbytes(40)), (P.CMD_BAR0_WR32, 0x20, r.randbytes(4)),
            (P.CMD_DB_WR64, 0x100, r.randbytes(8)), (P.CMD_MEM_RD, MEM_BASE, None), (P.CMD_INFO, 0, None)]
    nbad = 0
    with NoSideEffects(tb):
        for cmd, addr, data in reqs * max(1, ops(2) // 2):
            tag = h.next_tag()
            frame = bytearray(request(cmd, tag, addr, data, None if data else 8))
            pos = r.randrange(4, len(frame))               # ADDR, payload or CRC
            frame[pos] ^= 1 << r.randrange(8)
            h.send(bytes(frame))
            f = await h.response(cmd, tag)
            status(f, wrong(P.STATUS_BAD_CRC), f"cmd {cmd:#x} byte {pos}")
            nbad += 1
    assert (await h.info())["bad_crc"] == base + nbad

    # corruption anywhere after SOF: the link recovers after at most the frame timeout
    for i in range(ops(6)):
        cmd, addr, data = r.choice(reqs)
        frame = bytearray(request(cmd, 0x55, addr, data, None if data else 8))
        frame[r.randrange(1, len(frame))] ^= 1 << r.randrange(8)
        h.send(bytes(frame))
        # the worst case: a longer LEN waits for bytes (a timeout), or a shorter
        # one leaves bytes with SOF_REQ in them (a second frame, a second timeout)
        for f in await h.collect(byte_time_ps(len(frame) + 30) + 2 * TIMEOUT_PS):
            assert f.status in (P.STATUS_BAD_CRC, P.STATUS_TIMEOUT, P.STATUS_BAD_CMD), f.raw.hex()
        v = r.getrandbits(32)
        ok(await h.bar0_write(0x80, v))
        assert tb.bar0(0x80) == v.to_bytes(4, "little")
    await tb.finish()


@cocotb.test()
async def test_bad_cmd(dut):
    """Unknown commands (with and without payload) get BAD_CMD, change nothing,
    and the link goes on."""
    await start(dut)
    tb = await Bench.create(dut, "bad_cmd", mem=True)
    h = tb.host
    with NoSideEffects(tb):
        for cmd in (0x00, 0x03, 0x05, 0x7E, 0x7F, 0x81, 0x85, 0xFF):
            data = bytes(range(17)) if cmd & P.CMD_PAYLOAD_FLAG else None
            f = await h.request(cmd, MEM_BASE, data, None if data else 8)
            status(f, wrong(P.STATUS_BAD_CMD), f"cmd {cmd:#04x}")
    ok(await h.mem_write(MEM_BASE, b"\x11\x22"))
    tb.mem[0:2] = b"\x11\x22"
    assert (await h.mem_read(MEM_BASE, 2)).data == b"\x11\x22"
    await tb.finish()


@cocotb.test()
async def test_truncated(dut):
    """A frame that stops: TIMEOUT with its TAG after TIMEOUT_CYCLES (none
    when the TAG never came), nothing executed, counted; the next request
    works."""
    await start(dut)
    tb = await Bench.create(dut, "truncated", mem=True)
    h = tb.host
    base = (await h.info())["timeout"]
    with NoSideEffects(tb):
        for cut in (3, 5, 12, 30, 42 + 12, 42 + 13):       # after TAG .. inside the CRC
            tag = h.next_tag()
            frame = request(P.CMD_MEM_WR, tag, MEM_BASE + 8, bytes(range(42)))
            h.send(frame[:cut])
            await h.drv.drain()
            t0 = get_sim_time("ps")
            f = await h.response(P.CMD_MEM_WR, tag)
            dt = get_sim_time("ps") - t0
            status(f, wrong(P.STATUS_TIMEOUT), f"cut at {cut}")
            # the timeout runs from the last byte; then the 8-byte response
            assert TIMEOUT_PS <= dt <= TIMEOUT_PS + byte_time_ps(8) + 100 * CLK_PS, f"cut {cut}: {dt} ps"
        for cut in (1, 2):                                   # no TAG yet: no response
            h.send(request(P.CMD_MEM_WR, 0x77, MEM_BASE, b"x")[:cut])
            await h.quiet_check(TIMEOUT_PS + byte_time_ps(20))
    assert (await h.info())["timeout"] == base + 8
    ok(await h.mem_write(MEM_BASE + 8, b"ok"))
    tb.mem[8:10] = b"ok"
    assert (await h.mem_read(MEM_BASE + 8, 2)).data == b"ok"
    await tb.finish()


@cocotb.test()
async def test_resync(dut):
    """Garbage between frames is skipped; garbage that contains SOF bytes
    costs at most a frame timeout; bytes with a bad stop bit are dropped and
    counted."""
    await start(dut)
    tb = await Bench.create(dut, "resync")
    r, h = tb.r, tb.host
    for i in range(ops(4)):
        junk = bytes(b for b in r.randbytes(r.randint(1, 30)) if b != P.SOF_REQ)
        tag = h.next_tag()
        v = r.getrandbits(32)
        h.send(junk + request(P.CMD_BAR0_WR32, tag, 0x44, v.to_bytes(4, "little")))
        ok(await h.response(P.CMD_BAR0_WR32, tag), f"after {len(junk)} junk bytes")
        assert tb.bar0(0x44) == wrong(v).to_bytes(4, "little")
    with NoSideEffects(tb):
        for i in range(ops(3)):
            h.send(bytes([P.SOF_REQ]) + r.randbytes(r.randint(0, 20)) + bytes([P.SOF_REQ, 0x02]))
            for f in await h.collect(byte_time_ps(60) + 2 * TIMEOUT_PS):
                assert f.status != P.STATUS_OK, f.raw.hex()
    ok(await h.bar0_write(0x48, 0x1234))
    # framing errors: 5 bytes with a low stop bit, alone and inside a request
    base = await h.info()
    h.send(b"\x00\x13\xA5\x37\xA5", bad_stop=range(5))
    await h.quiet_check(TIMEOUT_PS + byte_time_ps(10))
    tag = h.next_tag()
    with NoSideEffects(tb):
        h.send(request(P.CMD_BAR0_WR32, tag, 0x4C, b"\x01\x02\x03\x04"), bad_stop=(7,))
        status(await h.response(P.CMD_BAR0_WR32, tag), P.STATUS_TIMEOUT, "a byte lost to a framing error")
    i = await h.info()
    assert i["framing"] == base["framing"] + 6, (base, i)
    ok(await h.bar0_write(0x4C, 0x5678))
    assert tb.bar0(0x4C) == (0x5678).to_bytes(4, "little")
    await tb.finish()


@cocotb.test()
async def test_resend(dut):
    """A write resent with the same TAG and CRC is answered with the stored
    status and not executed again; a read is executed again; INFO, another
    TAG or other content executes; BAD_CRC in between keeps the memory."""
    await start(dut)
    tb = await Bench.create(dut, "resend", mem=True)
    h = tb.host
    base = (await h.info())["dup"]
    cases = [(P.CMD_DB_WR64, 0x200, (0x1122334455667788).to_bytes(8, "little")),
             (P.CMD_BAR0_WR32, 0x10, b"\x01\x00\x00\x80"),
             (P.CMD_MEM_WR, MEM_BASE + 0x30, bytes(range(20)))]
    tb.mem[0x30:0x44] = bytes(range(20))
    dups = 0
    for cmd, addr, data in cases:
        tag = h.next_tag()
        frame = request(cmd, tag, addr, data)
        n = (len(tb.mon0.writes), len(tb.mon2.writes), tb.memw.writes)
        h.send(frame)
        ok(await h.response(cmd, tag))
        n1 = (len(tb.mon0.writes), len(tb.mon2.writes), tb.memw.writes)
        assert n1 != n
        with NoSideEffects(tb):
            for k in range(2):
                h.send(frame)                       # the response was "lost"
                ok(await h.response(cmd, tag), "resend")
                dups += 1
            bad = bytearray(frame)
            bad[-3] ^= 0x40
            h.send(bytes(bad))
            status(await h.response(cmd, tag), P.STATUS_BAD_CRC)
            h.send(frame)
            ok(await h.response(cmd, tag), "resend after BAD_CRC")
            dups += 1
    assert (await h.info())["dup"] == wrong(base + dups)

    # INFO forgets: the same frame again executes
    cmd, addr, data = cases[0]
    tag = h.next_tag()
    frame = request(cmd, tag, addr, data)
    n = len(tb.mon2.writes)
    h.send(frame)
    ok(await h.response(cmd, tag))
    await h.info()
    h.send(frame)
    ok(await h.response(cmd, tag))
    assert len(tb.mon2.writes) == n + 2
    # same TAG, other content: executed
    h.send(request(cmd, tag, addr + 8, data))
    ok(await h.response(cmd, tag))
    assert len(tb.mon2.writes) == n + 3
    # a read resent is read again
    tag = h.next_tag()
    frame = request(P.CMD_BAR0_RD32, tag, 0x10, length=4)
    n = len(tb.mon0.reads)
    for _ in range(2):
        h.send(frame)
        assert ok(await h.response(P.CMD_BAR0_RD32, tag)).data == b"\x01\x00\x00\x80"
    assert len(tb.mon0.reads) == n + 2
    # an error status is stored too
    dut.tb_db_resp_or.value = 2
    tag = h.next_tag()
    frame = request(P.CMD_DB_WR64, tag, 0x300, bytes(8))
    h.send(frame)
    status(await h.response(P.CMD_DB_WR64, tag), AXI_SLVERR)
    dut.tb_db_resp_or.value = 0
    n = len(tb.mon2.writes)
    h.send(frame)
    status(await h.response(P.CMD_DB_WR64, tag), AXI_SLVERR, "stored status")
    assert len(tb.mon2.writes) == n
    await tb.finish()


@cocotb.test()
async def test_irq(dut):
    """Interrupt frames: one per burst of vectors, bitmap of the vectors,
    numbered from INFO's count, never inside a response, vectors beyond
    NUM_VECTORS ignored; random interrupts during random traffic all
    reported."""
    await start(dut)
    tb = await Bench.create(dut, "irq")
    r, h = tb.r, tb.host
    nv = PRM["NUM_VECTORS"]
    seq = (await h.info())["irq"]

    await pulse_irq(dut, 3)
    f = await h.frame(byte_time_ps(30))
    assert f.is_irq and int.from_bytes(f.data, "little") == wrong(1 << 3) and f.tag == seq & 0xFF, f.raw.hex()
    seq += 1
    # a burst while a long response is on the wire: after it, coalesced
    tag = h.next_tag()
    h.send(request(P.CMD_MEM_RD, tag, MEM_BASE, length=256))
    await Timer(byte_time_ps(40), "ps")
    vecs = {0, nv - 1, nv // 2}
    for v in sorted(vecs) + [nv - 1]:
        await pulse_irq(dut, v)
    if nv < 32:
        await pulse_irq(dut, 31)                    # ignored
    f = await h.frame(byte_time_ps(400))
    assert not f.is_irq and f.tag == tag, "the response goes first"
    f = await h.frame(byte_time_ps(30))
    assert f.is_irq and f.tag == seq & 0xFF
    assert int.from_bytes(f.data, "little") == sum(1 << v for v in vecs), f.raw.hex()
    seq += 1
    await h.quiet_check()

    # random interrupts during random requests
    raised = set()
    stop = [False]

    async def irq_source():
        while not stop[0]:
            await Timer(r.randint(1, 3000) * CLK_PS, "ps")
            v = r.randrange(nv)
            raised.add(v)
            await pulse_irq(dut, v)

    src = cocotb.start_soon(irq_source())
    h.irqs.clear()
    for i in range(ops(20)):
        k = r.randrange(3)
        if k == 0:
            ok(await h.mem_read(MEM_BASE + r.randrange(0, 1024), r.randint(1, 64)))
        elif k == 1:
            ok(await h.bar0_write(0x100, i))
        else:
            await h.info()
    stop[0] = True
    await src
    await h.quiet_check(byte_time_ps(30))
    seen = set()
    for f in h.irqs:
        assert f.tag == seq & 0xFF, f"interrupt frame number {f.tag}, want {seq & 0xFF}"
        seq += 1
        bits = int.from_bytes(f.data, "little")
        assert bits and bits >> nv == 0, f.raw.hex()
        seen |= {v for v in range(32) if bits >> v & 1}
    assert seen == raised, (sorted(seen), sorted(raised))
    assert len(h.irqs) >= 2
    assert (await h.info())["irq"] == seq
    await tb.finish()


@cocotb.test()
async def test_back_to_back(dut):
    """Requests sent back to back without waiting are answered in order."""
    await start(dut)
    tb = await Bench.create(dut, "b2b", mem=True)
    r, h = tb.r, tb.host
    expect = []
    for i in range(ops(12)):
        tag = h.next_tag()
        k = r.randrange(4)
        if k == 0:
            n = r.randint(1, 32)
            off = r.randrange(0, min(MEM_SIZE, 8192) - 32)
            data = r.randbytes(n)
            tb.mem[off:off + n] = data
            h.send(request(P.CMD_MEM_WR, tag, MEM_BASE + off, data))
            expect.append((P.CMD_MEM_WR, tag, None))
        elif k == 1:
            n = r.randint(1, 32)
            off = r.randrange(0, min(MEM_SIZE, 8192) - 32)
            h.send(request(P.CMD_MEM_RD, tag, MEM_BASE + off, length=n))
            expect.append((P.CMD_MEM_RD, tag, bytes(tb.mem[off:off + n])))
        elif k == 2:
            v = r.getrandbits(32)
            h.send(request(P.CMD_BAR0_WR32, tag, 0x200, v.to_bytes(4, "little")))
            h.send(request(P.CMD_BAR0_RD32, (tag + 100) & 0xFF, 0x200, length=4))
            expect += [(P.CMD_BAR0_WR32, tag, None), (P.CMD_BAR0_RD32, (tag + 100) & 0xFF, v.to_bytes(4, "little"))]
        else:
            h.send(request(P.CMD_DB_WR64, tag, 0x10, bytes(8)))
            expect.append((P.CMD_DB_WR64, tag, None))
    for cmd, tag, data in expect:
        f = ok(await h.response(cmd, tag))
        if data is not None:
            assert f.data == wrong(data), f"{cmd:#x}/{tag}: {f.data.hex()} != {data.hex()}"
    await tb.finish()


@cocotb.test()
async def test_overrun(dut):
    """A 256-byte MEM_WR sent right behind a 256-byte MEM_RD arrives while the
    read's response is on the wire: the default 512-byte FIFO holds it; a
    small FIFO overruns (counted), the write fails cleanly and the link
    recovers."""
    await start(dut)
    tb = await Bench.create(dut, "overrun", mem=True)
    h = tb.host
    data = bytes(range(256))
    t1, t2 = h.next_tag(), h.next_tag()
    h.send(request(P.CMD_MEM_RD, t1, MEM_BASE, length=256) + request(P.CMD_MEM_WR, t2, MEM_BASE + 256, data))
    ok(await h.response(P.CMD_MEM_RD, t1))
    big = PRM["RX_FIFO_DEPTH"] + 1 >= P.REQ_HDR_LEN + 256 + P.CRC_LEN
    if big:
        ok(await h.response(P.CMD_MEM_WR, t2))
    else:
        for f in await h.collect(TIMEOUT_PS + byte_time_ps(300)):
            assert f.status != P.STATUS_OK and f.tag == t2, f.raw.hex()
    i = await h.info()
    assert (i["overrun"] > 0) == wrong(not big), i
    f = ok(await h.mem_read(MEM_BASE + 256, 256))
    assert f.data == (data if big else bytes(tb.mem[256:512]))
    ok(await h.mem_write(MEM_BASE + 256, data))
    tb.mem[256:512] = data
    assert (await h.mem_read(MEM_BASE + 256, 256)).data == data
    await tb.finish()
