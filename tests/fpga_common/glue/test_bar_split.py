# SPDX-License-Identifier: MIT
"""froce_axi_bar_split: an AxiMaster (the XDMA's AXI master, DATA_WIDTH
bits) drives the splitter; AxiLiteRam models stand in for BAR0 (32-bit) and
the BAR2 doorbell window (64-bit; write-only unless BAR2_READ_ENABLE), and
LiteMonitors record every AXI4-Lite transaction.

Checks: data equal to a byte-exact Python model for random reads/writes of
1..64 bytes in both windows from four concurrent IDs with random stalls on
every channel; every 8-byte aligned 8-byte BAR2 write is exactly one 64-bit
AXI-Lite write (WSTRB 0xFF, both halves); 4- and 8-byte BAR0 writes are one
or two 32-bit writes in address order, reads as AXI defines the beat; accesses outside both windows
complete (OKAY, reads 0, no AXI-Lite traffic); long and narrow bursts; the
DUT's simulation checks stay silent, and fire on an unsupported burst."""

import cocotb
from cocotb.triggers import RisingEdge, Timer
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiBus, AxiMaster, AxiLiteBus, AxiLiteRam, AxiLiteWriteBus
from cocotbext.axi.axil_ram import AxiLiteRamWrite
from cocotbext.axi.constants import AxiBurstType, AxiResp

from glue_common import NEGATIVE, LiteMonitor, limit_us, ops, params, pause_gen, quiet, rng, sim_errors, start

P = params()
DATA_WIDTH = P.get("DATA_WIDTH", 256)
NB = DATA_WIDTH // 8
MAX_SIZE = NB.bit_length() - 1
BAR0_BASE = P.get("BAR0_BASE", 0)
BAR0_SIZE = 1 << P.get("BAR0_ADDR_WIDTH", 14)
BAR2_BASE = P.get("BAR2_BASE", 0x100000)
BAR2_SIZE = 1 << P.get("BAR2_ADDR_WIDTH", 20)
BAR2_READ = P.get("BAR2_READ_ENABLE", 0) == 1
ADDR_MASK = (1 << P.get("ADDR_WIDTH", 64)) - 1


def in_window(a):
    return BAR0_BASE <= a < BAR0_BASE + BAR0_SIZE or BAR2_BASE <= a < BAR2_BASE + BAR2_SIZE


# pages outside both windows (those that fit ADDR_WIDTH)
OUTSIDE = sorted({a & ADDR_MASK for a in (BAR0_BASE + BAR0_SIZE, BAR2_BASE - 0x1000, BAR2_BASE + BAR2_SIZE,
                                          0x7FFFF000, 0x1_0000_0000, 0xFFFF_FFFF_FFFF_F000)
                  if not in_window(a & ADDR_MASK)})


class Bench:
    def __init__(self, dut, name):
        quiet()
        self.dut = dut
        self.r = rng(name)
        self.axi = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
        self.bar0 = AxiLiteRam(AxiLiteBus.from_prefix(dut, "m_axil"), dut.clk, dut.rst, size=BAR0_SIZE)
        if BAR2_READ:
            self.bar2 = AxiLiteRam(AxiLiteBus.from_prefix(dut, "m_axil_db"), dut.clk, dut.rst, size=BAR2_SIZE)
        else:
            self.bar2 = AxiLiteRamWrite(AxiLiteWriteBus.from_prefix(dut, "m_axil_db"), dut.clk, dut.rst,
                                        size=BAR2_SIZE)
        self.mon0 = LiteMonitor(dut, "m_axil")
        self.mon2 = LiteMonitor(dut, "m_axil_db", reads=BAR2_READ)
        self.model0 = bytearray(BAR0_SIZE)
        self.model2 = bytearray(BAR2_SIZE)
        if not BAR2_READ:
            dut.m_axil_db_arready.value = 0
            dut.m_axil_db_rvalid.value = 0
            dut.m_axil_db_rdata.value = 0
            dut.m_axil_db_rresp.value = 0

    def stalls(self, busy=0.3):
        """Random stalls on every channel of every port."""
        for ch in (self.axi.write_if.aw_channel, self.axi.write_if.w_channel, self.axi.write_if.b_channel,
                   self.axi.read_if.ar_channel, self.axi.read_if.r_channel):
            ch.set_pause_generator(pause_gen(self.r, busy))
        rams = [self.bar0.write_if, self.bar0.read_if]
        rams += [self.bar2.write_if, self.bar2.read_if] if BAR2_READ else [self.bar2]
        for ram in rams:
            for name in ("aw_channel", "w_channel", "b_channel", "ar_channel", "r_channel"):
                ch = getattr(ram, name, None)
                if ch is not None:
                    ch.set_pause_generator(pause_gen(self.r, busy))

    def expect_read(self, win, off, n):
        if win == 0:
            data = bytes(self.model0[off:off + n])
        elif BAR2_READ:
            data = bytes(self.model2[off:off + n])
        else:
            data = bytes(n)
        if NEGATIVE and n:
            data = bytes([data[0] ^ 0x01]) + data[1:]
        return data

    def model_write(self, win, off, data):
        m = self.model0 if win == 0 else self.model2
        m[off:off + len(data)] = data

    def finish(self):
        assert sim_errors(self.dut) == 0, f"{sim_errors(self.dut)} DUT simulation check(s) failed"


def read_units(off, n, size, unit):
    """Offsets of the AXI-Lite reads a read of n bytes at off with AxSIZE
    size must make: every unit holding a byte of a beat, as AXI defines the
    beats (a full-width read at an unaligned address covers the rest of the
    bus word: reads carry no strobes)."""
    s = MAX_SIZE if size is None else size
    step = 1 << s
    beats = (n + off % step + step - 1) // step
    lanes = set()
    for k in range(beats):
        lo = off if k == 0 else (off & ~(step - 1)) + k * step
        hi = (off & ~(step - 1)) + (k + 1) * step
        lanes.update(range(lo, hi))
    return sorted({a & ~(unit - 1) for a in lanes})


def base(win):
    return BAR0_BASE if win == 0 else BAR2_BASE


@cocotb.test(timeout_time=limit_us(40), timeout_unit="us")
async def test_doorbells(dut):
    """8-byte aligned 8-byte BAR2 writes: exactly one 64-bit AXI-Lite write each."""
    await start(dut)
    tb = Bench(dut, "doorbells")
    r = tb.r
    for i in range(60):
        off = r.randrange(0, BAR2_SIZE, 8)
        value = r.getrandbits(64)
        size = r.choice([None, 3])                      # full width (the XDMA) or an 8-byte transfer
        n0, n2 = len(tb.mon0.writes), len(tb.mon2.writes)
        t0 = get_sim_time("ns")
        resp = await tb.axi.write(BAR2_BASE + off, value.to_bytes(8, "little"), awid=i % 16, size=size)
        if i == 0:
            dut._log.warning("one doorbell: %d cycles AW to B", (get_sim_time("ns") - t0) / 4)
        assert resp.resp == AxiResp.OKAY
        for _ in range(4):
            await RisingEdge(dut.clk)
        new = tb.mon2.writes[n2:]
        want_strb = 0x0F if NEGATIVE else 0xFF
        assert len(new) == 1, f"doorbell {i} at {off:#x}: {len(new)} AXI-Lite writes {new}"
        assert new[0] == (off, value, want_strb), f"doorbell {i}: got {new[0]}, want {(off, value, want_strb)}"
        assert len(tb.mon0.writes) == n0, "a BAR2 write reached BAR0"
        tb.model_write(2, off, value.to_bytes(8, "little"))

    # a 64-byte write-combined burst: eight doorbells in address order
    off = r.randrange(0, BAR2_SIZE, 64)
    values = [r.getrandbits(64) for _ in range(8)]
    n2 = len(tb.mon2.writes)
    t0 = get_sim_time("ns")
    await tb.axi.write(BAR2_BASE + off, b"".join(v.to_bytes(8, "little") for v in values))
    dut._log.warning("64-byte doorbell burst: %d cycles AW to B (AXI-Lite RAM answering at once)",
                     (get_sim_time("ns") - t0) / 4)
    for _ in range(4):
        await RisingEdge(dut.clk)
    assert tb.mon2.writes[n2:] == [(off + 8 * k, v, 0xFF) for k, v in enumerate(values)]

    # a 4-byte write to BAR2 is one AXI-Lite write with half the strobes,
    # never two halves (froce_doorbell counts it as malformed)
    for half in (0, 4):
        n2 = len(tb.mon2.writes)
        await tb.axi.write(BAR2_BASE + 0x1000 + half, b"\x11\x22\x33\x44")
        for _ in range(4):
            await RisingEdge(dut.clk)
        new = tb.mon2.writes[n2:]
        assert len(new) == 1 and new[0][0] == 0x1000 and new[0][2] == (0x0F << half), new
    tb.finish()


@cocotb.test(timeout_time=limit_us(40), timeout_unit="us")
async def test_bar0_units(dut):
    """A 4-byte BAR0 write is one 32-bit write, an 8-byte one two in address
    order; reads likewise when AxSIZE is the access size (the XDMA's 1-dword
    reads), and a full-width read covers the rest of the bus word."""
    await start(dut)
    tb = Bench(dut, "bar0_units")
    r = tb.r
    for i in range(40):
        off = r.randrange(0, BAR0_SIZE, 8)
        n = r.choice([4, 8])
        if n == 4:
            off += r.choice([0, 4])
        data = r.randbytes(n)
        size = r.choice([None, 2 if n == 4 else 3])
        nw, nr = len(tb.mon0.writes), len(tb.mon0.reads)
        await tb.axi.write(BAR0_BASE + off, data, size=size)
        tb.model_write(0, off, data)
        rd = await tb.axi.read(BAR0_BASE + off, n, size=size)
        assert rd.data == tb.expect_read(0, off, n), f"BAR0 {off:#x}: read {rd.data.hex()} wrote {data.hex()}"
        want_w = [(off + 4 * k, int.from_bytes(data[4 * k:4 * k + 4], "little"), 0xF) for k in range(n // 4)]
        assert tb.mon0.writes[nw:] == want_w, f"BAR0 {n}-byte write at {off:#x}: {tb.mon0.writes[nw:]}"
        assert tb.mon0.reads[nr:] == read_units(off, n, size, 4), tb.mon0.reads[nr:]
        assert len(tb.mon2.writes) == 0, "a BAR0 write reached BAR2"
    tb.finish()


async def worker(tb, k, n_ops, stats):
    """Random accesses of 1..64 bytes, in this worker's slice of both windows."""
    r = tb.r
    s0, s2 = BAR0_SIZE // 4, BAR2_SIZE // 4
    for _ in range(n_ops):
        win = r.choice([0, 2])
        span = s0 if win == 0 else s2
        n = r.randint(1, 64)
        off = k * span + r.randrange(0, span - n + 1)
        # full width (what the XDMA issues for more than a dword), dword,
        # qword, or the smallest size that holds n bytes
        size = r.choice([None, None, 2, 3, min((n - 1).bit_length(), MAX_SIZE)])
        if r.random() < 0.5:
            data = r.randbytes(n)
            resp = await tb.axi.write(base(win) + off, data, awid=k, size=size)
            assert resp.resp == AxiResp.OKAY
            tb.model_write(win, off, data)
            stats["writes"] += 1
        else:
            rd = await tb.axi.read(base(win) + off, n, arid=k, size=size)
            assert rd.resp == AxiResp.OKAY
            want = tb.expect_read(win, off, n)
            assert rd.data == want, f"read {win} {off:#x}+{n}: got {rd.data.hex()} want {want.hex()}"
            stats["reads"] += 1


@cocotb.test(timeout_time=limit_us(300), timeout_unit="us")
async def test_random(dut):
    """Random reads/writes, four concurrent IDs, random stalls; data equal to the model."""
    await start(dut)
    tb = Bench(dut, "random")
    tb.stalls(0.3)
    stats = {"reads": 0, "writes": 0}
    n_ops = ops(40)
    workers = [cocotb.start_soon(worker(tb, k, n_ops, stats)) for k in range(4)]
    for w in workers:
        await w
    assert stats["reads"] + stats["writes"] == 4 * n_ops
    assert bytes(tb.bar0.mem[0:BAR0_SIZE]) == bytes(tb.model0), "BAR0 RAM differs from the model"
    ram2 = tb.bar2.mem[0:BAR2_SIZE]
    assert bytes(ram2) == bytes(tb.model2), "BAR2 RAM differs from the model"
    # BAR2 sees only whole-qword-aligned accesses
    assert all(a % 8 == 0 for a, _, _ in tb.mon2.writes)
    assert all(a % 4 == 0 for a, _, _ in tb.mon0.writes)
    tb.finish()


@cocotb.test(timeout_time=limit_us(40), timeout_unit="us")
async def test_outside(dut):
    """Outside both windows: OKAY, reads 0, writes dropped, never a hang."""
    await start(dut)
    tb = Bench(dut, "outside")
    tb.stalls(0.2)
    r = tb.r
    assert len(OUTSIDE) >= 3
    for a in OUTSIDE:
        for n in (4, 8, 64, 256):
            resp = await tb.axi.write(a + 0x40, r.randbytes(n))
            assert resp.resp == AxiResp.OKAY
            rd = await tb.axi.read(a + 0x40, n)
            assert rd.resp == AxiResp.OKAY
            want = bytes(n) if not NEGATIVE else b"\x01" + bytes(n - 1)
            assert rd.data == want, f"read outside at {a:#x}: {rd.data.hex()}"
    assert tb.mon0.writes == [] and tb.mon0.reads == [] and tb.mon2.writes == []
    assert not any(tb.model0) and not any(tb.model2)
    tb.finish()


@cocotb.test(timeout_time=limit_us(400), timeout_unit="us")
async def test_bursts(dut):
    """Long bursts (split by the master at 4 KiB and 256 beats) and narrow multi-beat bursts."""
    await start(dut)
    tb = Bench(dut, "bursts")
    tb.stalls(0.1)
    r = tb.r
    for i in range(ops(6)):
        win = i % 2 * 2
        span = BAR0_SIZE if win == 0 else BAR2_SIZE
        size = r.choice([None, 2, 3])
        n = r.choice([4096, 1000, 300]) if size is None else r.randint(65, 300)
        off = r.randrange(0, span - n + 1)
        data = r.randbytes(n)
        await tb.axi.write(base(win) + off, data, size=size)
        tb.model_write(win, off, data)
        rd = await tb.axi.read(base(win) + off, n, size=size)
        assert rd.data == tb.expect_read(win, off, n), f"burst {i} win {win} at {off:#x}+{n}"
    tb.finish()


@cocotb.test(timeout_time=limit_us(10), timeout_unit="us")
async def test_sim_check_fires(dut):
    """A WRAP burst is unsupported: the DUT's simulation check must count it (and not hang)."""
    await start(dut)
    tb = Bench(dut, "sim_check")
    before = sim_errors(dut)
    await tb.axi.write(BAR0_BASE + 0x100, bytes(range(16)), burst=AxiBurstType.WRAP, size=2)
    await Timer(100, "ns")
    assert sim_errors(dut) > before, "the unsupported WRAP burst was not reported"
