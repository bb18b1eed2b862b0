# SPDX-License-Identifier: MIT
"""froce_axi_upsize: an AxiMaster at S_DATA_WIDTH stands in for our DMA
(froce_core m_axi_*); behind the upsizer, an AxiRamWrite at M_DATA_WIDTH takes
the writes and a read slave of this bench answers the reads out of order
across IDs with the beats of different IDs interleaved (AXI allows both), from
the same memory.

Checks: data equal to a Python model for random bursts of the shapes froce_dma
issues (full-width INCR, bus-aligned address, 1..256 beats, never across
4 KiB) and a few more (unaligned start and length), from four concurrent IDs
with random stalls on every channel; every output burst has the full output
AxSIZE, INCR, the input's address and ID, the length the input bytes need, no
4 KiB crossing, and contiguous write strobes; RRESP is passed on; a 2 KiB
write and read stream at about one input beat per cycle; the DUT's
simulation checks stay silent, and fire on a narrow burst."""

import cocotb
from cocotb.triggers import RisingEdge, Timer
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiBus, AxiMaster, AxiWriteBus
from cocotbext.axi.axi_ram import AxiRamWrite
from cocotbext.axi.constants import AxiResp

from glue_common import NEGATIVE, limit_us, ops, params, pause_gen, quiet, rng, sim_errors, start

P = params()
S_WIDTH = P.get("S_DATA_WIDTH", 64)
M_WIDTH = P.get("M_DATA_WIDTH", 256)
SB = S_WIDTH // 8
MB = M_WIDTH // 8
M_SIZE = MB.bit_length() - 1
MEM = 1 << 20
ERR_BASE = 0xC0000          # reads at or above: SLVERR from the slave


class ReadSlave:
    """AXI4 read slave over a cocotbext Memory: random ARREADY; beats of a
    randomly chosen ID with a burst outstanding each cycle (so different IDs
    come back out of order and interleaved), same-ID bursts in order."""

    def __init__(self, dut, mem, r, busy):
        self.dut, self.mem, self.r, self.busy = dut, mem, r, busy
        self.q = {}
        self.showing = None
        self.interleaved = 0        # beats whose ID differs from the previous beat's while both had bursts open
        self.reordered = 0          # bursts finished before an earlier-issued burst of another ID
        self.issue = 0
        cocotb.start_soon(self._run())

    def _beat(self, rid):
        b = self.q[rid][0]
        addr = (b["addr"] & ~(MB - 1)) + b["beat"] * MB
        data = int.from_bytes(self.mem.read(addr % MEM, MB), "little")
        return data, (2 if addr >= ERR_BASE else 0), b["beat"] == b["len"]

    async def _run(self):
        dut, r = self.dut, self.r
        dut.m_axi_arready.value = 0
        dut.m_axi_rvalid.value = 0
        last_id = None
        while True:
            await RisingEdge(dut.clk)
            if dut.rst.value == 1:
                self.q, self.showing = {}, None
                dut.m_axi_rvalid.value = 0
                continue
            if dut.m_axi_arvalid.value == 1 and dut.m_axi_arready.value == 1:
                rid = int(dut.m_axi_arid.value)
                self.q.setdefault(rid, []).append({"addr": int(dut.m_axi_araddr.value),
                                                   "len": int(dut.m_axi_arlen.value), "beat": 0,
                                                   "n": self.issue})
                self.issue += 1
            if self.showing is not None and dut.m_axi_rready.value == 1:
                b = self.q[self.showing][0]
                b["beat"] += 1
                if b["beat"] > b["len"]:
                    self.q[self.showing].pop(0)
                    if any(x["n"] < b["n"] for l in self.q.values() for x in l):
                        self.reordered += 1
                self.showing = None
            if self.showing is None:
                ids = [i for i, l in self.q.items() if l]
                if ids and r.random() >= self.busy:
                    rid = r.choice(ids)
                    if last_id is not None and rid != last_id and last_id in ids:
                        self.interleaved += 1
                    data, resp, last = self._beat(rid)
                    dut.m_axi_rid.value = rid
                    dut.m_axi_rdata.value = data
                    dut.m_axi_rresp.value = resp
                    dut.m_axi_rlast.value = int(last)
                    dut.m_axi_rvalid.value = 1
                    self.showing = last_id = rid
                else:
                    dut.m_axi_rvalid.value = 0
            dut.m_axi_arready.value = int(r.random() >= self.busy)


class ShapeMonitor:
    """Pairs every input AW/AR with its output AW/AR (same order) and checks
    the output shape; checks every output write burst's strobes are one
    contiguous run."""

    def __init__(self, dut):
        self.dut = dut
        self.errors = []
        self.bursts = 0
        self._s = {"aw": [], "ar": []}
        self._m = {"aw": [], "ar": []}
        self._wq = []
        self._wstrb = []
        self._wbursts = []
        cocotb.start_soon(self._run())

    def _check(self, ch, s, m):
        sid, saddr, slen = s
        mid, maddr, mlen, msize, mburst = m
        lane0 = (saddr % MB) // SB
        want_len = (lane0 + slen) // (MB // SB)
        start = maddr & ~(MB - 1)
        if (mid, maddr, mlen, msize, mburst) != (sid, saddr, want_len, M_SIZE, 1):
            self.errors.append(f"{ch}: in {s} out {m}, want len {want_len} size {M_SIZE}")
        if start // 4096 != (start + (mlen + 1) * MB - 1) // 4096:
            self.errors.append(f"{ch}: output burst {m} crosses 4 KiB")
        self.bursts += 1

    async def _run(self):
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            for ch in ("aw", "ar"):
                if getattr(d, f"s_axi_{ch}valid").value == 1 and getattr(d, f"s_axi_{ch}ready").value == 1:
                    self._s[ch].append((int(getattr(d, f"s_axi_{ch}id").value),
                                        int(getattr(d, f"s_axi_{ch}addr").value),
                                        int(getattr(d, f"s_axi_{ch}len").value)))
                if getattr(d, f"m_axi_{ch}valid").value == 1 and getattr(d, f"m_axi_{ch}ready").value == 1:
                    m = (int(getattr(d, f"m_axi_{ch}id").value), int(getattr(d, f"m_axi_{ch}addr").value),
                         int(getattr(d, f"m_axi_{ch}len").value), int(getattr(d, f"m_axi_{ch}size").value),
                         int(getattr(d, f"m_axi_{ch}burst").value))
                    self._m[ch].append(m)
                    if ch == "aw":
                        self._wq.append(m)
                while self._s[ch] and self._m[ch]:
                    self._check(ch, self._s[ch].pop(0), self._m[ch].pop(0))
            if d.m_axi_wvalid.value == 1 and d.m_axi_wready.value == 1:
                self._wstrb.append(int(d.m_axi_wstrb.value))
                if d.m_axi_wlast.value == 1:
                    self._wbursts.append(self._wstrb)
                    self._wstrb = []
            # W bursts may complete before their AW handshake (AXI allows it)
            while self._wq and self._wbursts:
                m, strbs = self._wq.pop(0), self._wbursts.pop(0)
                bits = "".join(format(x, f"0{MB}b")[::-1] for x in strbs)
                if len(strbs) != m[2] + 1:
                    self.errors.append(f"W burst of {len(strbs)} beats for AW {m}")
                if bits.strip("0").count("0") or "1" not in bits:
                    self.errors.append(f"W burst strobes not one contiguous run: {bits}")


class Bench:
    def __init__(self, dut, name, busy=0.3):
        quiet()
        self.dut = dut
        self.r = rng(name)
        self.axi = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
        self.ram = AxiRamWrite(AxiWriteBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=MEM)
        self.rd = ReadSlave(dut, self.ram, self.r, busy)
        self.mon = ShapeMonitor(dut)
        self.model = bytearray(MEM)
        if busy:
            for ch in (self.axi.write_if.aw_channel, self.axi.write_if.w_channel,
                       self.axi.write_if.b_channel, self.axi.read_if.ar_channel,
                       self.axi.read_if.r_channel, self.ram.aw_channel, self.ram.w_channel,
                       self.ram.b_channel):
                ch.set_pause_generator(pause_gen(self.r, busy))

    def expect(self, addr, n):
        data = bytes(self.model[addr:addr + n])
        if NEGATIVE:
            data = bytes([data[0] ^ 0x80]) + data[1:]
        return data

    def finish(self):
        assert not self.mon.errors, "\n".join(self.mon.errors[:10])
        assert sim_errors(self.dut) == 0, f"{sim_errors(self.dut)} DUT simulation check(s) failed"


async def worker(tb, k, n_ops, stats):
    """DMA-shaped bursts (and some unaligned ones) in this worker's 128 KiB."""
    r = tb.r
    region = k * 0x20000
    tid = (5 * k) % 16
    for _ in range(n_ops):
        if r.random() < 0.8:
            # froce_dma_wr/rd: bus-aligned, whole beats up to 256 beats per burst
            # (the master splits longer requests and at 4 KiB)
            n = r.choice([SB, 2 * SB, 64, 256, 256 * SB, SB * r.randint(1, 300)])
            addr = region + r.randrange(0, 0x20000 - n, SB)
        else:
            n = r.randint(1, 600)
            addr = region + r.randrange(0, 0x20000 - n)
        data = r.randbytes(n)
        resp = await tb.axi.write(addr, data, awid=tid)
        assert resp.resp == AxiResp.OKAY
        tb.model[addr:addr + n] = data
        stats["w"] += 1
        # read back, plus another random range of the region
        for a, m in ((addr, n), (region + r.randrange(0, 0x20000 - 512, SB), r.randint(1, 512))):
            rd = await tb.axi.read(a, m, arid=tid)
            assert rd.resp == AxiResp.OKAY
            want = tb.expect(a, m)
            assert rd.data == want, f"ID {tid} read {a:#x}+{m}: got {rd.data[:16].hex()}.. want {want[:16].hex()}.."
            stats["r"] += 1


@cocotb.test(timeout_time=limit_us(400), timeout_unit="us")
async def test_random(dut):
    """Random DMA-shaped bursts, four IDs, reads out of order and interleaved, random stalls."""
    await start(dut)
    tb = Bench(dut, "random")
    stats = {"w": 0, "r": 0}
    n_ops = ops(16)
    workers = [cocotb.start_soon(worker(tb, k, n_ops, stats)) for k in range(4)]
    for w in workers:
        await w
    assert stats["w"] == 4 * n_ops and stats["r"] == 8 * n_ops
    assert bytes(tb.ram.mem[0:0x80000]) == bytes(tb.model[0:0x80000]), "memory differs from the model"
    dut._log.warning("bursts %d, beats interleaved %d, bursts reordered %d", tb.mon.bursts,
                     tb.rd.interleaved, tb.rd.reordered)
    # the read slave did what it is here for
    assert tb.rd.interleaved > n_ops and tb.rd.reordered > n_ops // 5, (tb.rd.interleaved, tb.rd.reordered)
    assert tb.mon.bursts >= 4 * n_ops
    tb.finish()


@cocotb.test(timeout_time=limit_us(20), timeout_unit="us")
async def test_read_error(dut):
    """RRESP SLVERR from the slave reaches the master."""
    await start(dut)
    tb = Bench(dut, "read_error", busy=0.0)
    rd = await tb.axi.read(ERR_BASE + 0x100, 64)
    want = AxiResp.OKAY if NEGATIVE else AxiResp.SLVERR
    assert rd.resp == want, rd.resp
    rd = await tb.axi.read(0x100, 64)
    assert rd.resp == AxiResp.OKAY
    tb.finish()


@cocotb.test(timeout_time=limit_us(20), timeout_unit="us")
async def test_throughput(dut):
    """No stalls: a 256-beat write and read move about one input beat per cycle."""
    await start(dut)
    tb = Bench(dut, "throughput", busy=0.0)
    n = 256 * SB
    data = tb.r.randbytes(n)
    t0 = get_sim_time("ns")
    await tb.axi.write(0x1000, data)
    t1 = get_sim_time("ns")
    rd = await tb.axi.read(0x1000, n)
    t2 = get_sim_time("ns")
    assert rd.data == data
    wc, rc = (t1 - t0) / 4, (t2 - t1) / 4
    dut._log.warning("256 beats: write %d cycles, read %d cycles", wc, rc)
    limit = 256 + 30 if not NEGATIVE else 100
    assert wc <= limit and rc <= limit, f"256 beats: write {wc:.0f} cycles, read {rc:.0f} cycles"
    tb.finish()


@cocotb.test(timeout_time=limit_us(10), timeout_unit="us")
async def test_sim_check_fires(dut):
    """A narrow input burst is unsupported: the DUT's simulation check must count it."""
    await start(dut)
    tb = Bench(dut, "sim_check", busy=0.0)
    before = sim_errors(dut)
    await tb.axi.write(0x2000, bytes(range(8)), size=2)
    await Timer(100, "ns")
    assert sim_errors(dut) > before, "the narrow burst was not reported"
