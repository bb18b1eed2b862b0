# SPDX-License-Identifier: MIT
"""froce_axi_wr_arb: two cocotbext-axi write masters (port 0 with the top ID
bit 0, as froce_core's DMA writes; port 1 with it 1, as froce_msix_emitter)
into the arbiter; behind it a write slave of this bench that takes W beats
before or after their AW, answers B out of order across IDs (in order within
one ID, as AXI requires) and stalls every channel at random.

Checks: the memory equals a model of both masters' writes; every burst's W
beats arrive whole and in AW order (WLAST on the beat AWLEN puts it, the beat
count per burst); every B reaches the master that issued the write (a wrong
one would be an unexpected BID to cocotbext-axi and the write would never
complete); a master of single writes is not starved by a stream of 256-beat
bursts; a slave that waits for W before AWREADY does not deadlock; an ID on
the wrong port is reported by the DUT's simulation check.

ARB_NEGATIVE=1: the same tests with wrong expectations; each must fail."""

import logging
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer, with_timeout
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiWriteBus
from cocotbext.axi.axi_master import AxiMasterWrite

NEGATIVE = os.environ.get("ARB_NEGATIVE", "0") == "1"
P = {k: int(v, 0) for k, v in (x.split("=", 1) for x in os.environ.get("ARB_PARAMS", "").split())}
DATA_WIDTH = P.get("DATA_WIDTH", 64)
ID_WIDTH = P.get("ID_WIDTH", 4)
FIFO_DEPTH = P.get("FIFO_DEPTH", 4)
NB = DATA_WIDTH // 8
SIZE = NB.bit_length() - 1
TOP = 1 << (ID_WIDTH - 1)
MEM = 1 << 16                       # each port writes its own half


def rng(name):
    return random.Random(f"{os.environ.get('ARB_SEED', '1')}-{name}")


def pauses(r, busy):
    while True:
        yield r.random() < busy


def quiet():
    """cocotbext-axi logs every transaction at INFO: keep the logs short."""
    for name in list(logging.root.manager.loggerDict):
        if name.startswith("cocotb.froce_axi_wr_arb."):
            logging.getLogger(name).setLevel(logging.WARNING)


class WriteSlave:
    """AXI4 write slave: AW and W beats are queued independently (W may come
    first), a burst is applied to memory when both its AW and all its W beats
    are in, and its B goes out later in a random order that keeps each ID's
    responses in AW order."""

    def __init__(self, dut, r, busy, aw_after_w=False, b_busy=None):
        self.dut, self.r, self.busy, self.aw_after_w = dut, r, busy, aw_after_w
        self.b_busy = busy if b_busy is None else b_busy
        self.mem = bytearray(2 * MEM)
        self.aws = []               # accepted AW: (id, addr, len, order)
        self.wbursts = [[]]         # W beats, split at WLAST
        self.done = []              # bursts applied, B not yet sent: (id, order)
        self.errors = []
        self.bursts = 0
        self.out_of_order = 0       # B sent before an earlier-accepted burst's B
        self.showing = None
        self.order = 0
        self.hold_b = False         # never answer (a B routed to the wrong master would be a bench error)
        cocotb.start_soon(self._run())

    def _match(self):
        while self.aws and len(self.wbursts) > 1:
            bid, addr, length, order = self.aws.pop(0)
            beats = self.wbursts.pop(0)
            if len(beats) != length + 1:
                self.errors.append(f"burst id {bid:x} addr {addr:x}: {len(beats)} W beats for AWLEN {length}")
            base = addr & ~(NB - 1)
            for k, (data, strb) in enumerate(beats):
                for b in range(NB):
                    if strb >> b & 1:
                        self.mem[(base + k * NB + b) % (2 * MEM)] = (data >> (8 * b)) & 0xFF
            self.done.append((bid, order))
            self.bursts += 1

    async def _run(self):
        dut, r = self.dut, self.r
        dut.m_axi_awready.value = 0
        dut.m_axi_wready.value = 0
        dut.m_axi_bvalid.value = 0
        while True:
            await RisingEdge(dut.clk)
            if dut.rst.value == 1:
                continue
            if dut.m_axi_awvalid.value == 1 and dut.m_axi_awready.value == 1:
                if int(dut.m_axi_awsize.value) != SIZE or int(dut.m_axi_awburst.value) != 1:
                    self.errors.append("AW with a narrow size or not INCR")
                self.aws.append((int(dut.m_axi_awid.value), int(dut.m_axi_awaddr.value),
                                 int(dut.m_axi_awlen.value), self.order))
                self.order += 1
            if dut.m_axi_wvalid.value == 1 and dut.m_axi_wready.value == 1:
                self.wbursts[-1].append((int(dut.m_axi_wdata.value), int(dut.m_axi_wstrb.value)))
                if dut.m_axi_wlast.value == 1:
                    self.wbursts.append([])
            if self.showing is not None and dut.m_axi_bready.value == 1:
                self.done.remove(self.showing)
                self.showing = None
            self._match()
            if self.showing is None:
                # the oldest unanswered burst of each ID may answer
                heads = {}
                for bid, order in self.done:
                    heads.setdefault(bid, (bid, order))
                pending_ids = {a[0] for a in self.aws}
                cands = [h for h in heads.values() if h[0] not in pending_ids or
                         all(o > h[1] for i, _, _, o in self.aws if i == h[0])]
                if cands and not self.hold_b and r.random() >= self.b_busy:
                    pick = r.choice(cands)
                    if any(o < pick[1] for _, o in self.done):
                        self.out_of_order += 1
                    dut.m_axi_bid.value = pick[0]
                    dut.m_axi_bresp.value = 0
                    dut.m_axi_bvalid.value = 1
                    self.showing = pick
                else:
                    dut.m_axi_bvalid.value = 0
            # waiting for W first: AWREADY only once a whole W burst is in that has no AW yet
            w_ahead = len(self.wbursts) - 1 > len(self.aws)
            aw_ok = w_ahead if self.aw_after_w else True
            dut.m_axi_awready.value = int(aw_ok and r.random() >= self.busy)
            dut.m_axi_wready.value = int(r.random() >= self.busy)


async def setup(dut, name, busy=0.3, aw_after_w=False, b_busy=None, port0_master=True):
    cocotb.start_soon(Clock(dut.clk, 4, units="ns").start())
    dut.rst.value = 1
    r = rng(name)
    slave = WriteSlave(dut, r, busy, aw_after_w, b_busy)
    # port 0 left to the test's own driver when port0_master is False
    m0 = AxiMasterWrite(AxiWriteBus.from_prefix(dut, "s0_axi"), dut.clk, dut.rst) if port0_master else None
    m1 = AxiMasterWrite(AxiWriteBus.from_prefix(dut, "s1_axi"), dut.clk, dut.rst)
    if not port0_master:
        dut.s0_axi_awvalid.value = 0
        dut.s0_axi_wvalid.value = 0
        for sig in ("awlock", "awcache", "awprot"):
            getattr(dut, "s0_axi_" + sig).value = 0
    for m in (x for x in (m0, m1) if x is not None):
        m.aw_channel.set_pause_generator(pauses(r, busy / 2))
        m.w_channel.set_pause_generator(pauses(r, busy / 2))
        m.b_channel.set_pause_generator(pauses(r, busy / 2))
    quiet()
    for _ in range(5):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    for _ in range(2):
        await RisingEdge(dut.clk)
    return r, slave, m0, m1


def sim_errors(dut):
    return int(dut.sim_errors.value)


async def port_traffic(m, r, port, n, model, long_only=False, workers=1):
    """n random writes of one port into its half of the memory, from several
    concurrent workers (each in its own slice, so the model needs no order
    between them); returns the responses."""
    slice_bytes = MEM // workers

    async def worker(w, count):
        out = []
        base = port * MEM + w * slice_bytes
        for _ in range(count):
            if long_only:
                length = 256 * NB
                addr = base + r.randrange(0, slice_bytes // 4096) * 4096
            else:
                length = r.choice([r.randint(1, 16), r.randint(1, 3 * NB), r.randint(1, 300)])
                addr = base + r.randrange(0, slice_bytes - 4096)
                addr -= addr % 4096 if (addr % 4096) + length > 4096 else 0
            data = bytes(r.randrange(256) for _ in range(length))
            awid = r.randrange(TOP) | (port * TOP)
            model[addr:addr + length] = data
            out.append(await m.write(addr, data, awid=awid))
        return out

    tasks = [cocotb.start_soon(worker(w, n // workers)) for w in range(workers)]
    resps = []
    for t in tasks:
        resps += await t
    return resps


@cocotb.test()
async def test_random(dut):
    """Concurrent random writes from both ports, random stalls, B out of order."""
    r, slave, m0, m1 = await setup(dut, "random", b_busy=0.8)
    model = bytearray(2 * MEM)
    t0 = cocotb.start_soon(port_traffic(m0, rng("p0"), 0, 120, model, workers=4))
    t1 = cocotb.start_soon(port_traffic(m1, rng("p1"), 1, 120, model, workers=4))
    res0 = await with_timeout(t0, 400, "us")
    res1 = await with_timeout(t1, 400, "us")
    for _ in range(20):
        await RisingEdge(dut.clk)
    dut._log.info("%d bursts, %d B out of order", slave.bursts, slave.out_of_order)
    if NEGATIVE:
        model[MEM + 5] ^= 0x40
    assert all(x.resp == 0 for x in res0 + res1), "a write response was not OKAY"
    assert not slave.errors, slave.errors[:5]
    assert slave.bursts >= 240, f"only {slave.bursts} bursts reached the slave"
    assert slave.out_of_order > 10, f"the slave answered only {slave.out_of_order} B out of order"
    assert slave.mem == model, "memory differs from the model"
    assert sim_errors(dut) == 0


@cocotb.test()
async def test_aw_after_w(dut):
    """A slave that raises AWREADY only after the burst's W beats: no deadlock."""
    r, slave, m0, m1 = await setup(dut, "aw_after_w", busy=0.2, aw_after_w=True)
    model = bytearray(2 * MEM)
    t0 = cocotb.start_soon(port_traffic(m0, rng("w0"), 0, 30, model))
    t1 = cocotb.start_soon(port_traffic(m1, rng("w1"), 1, 30, model))
    await with_timeout(t0, 200, "us")
    await with_timeout(t1, 200, "us")
    if NEGATIVE:
        model[7] ^= 1
    assert not slave.errors, slave.errors[:5]
    assert slave.mem == model, "memory differs from the model"


class StreamMaster:
    """Port 0 as a DMA engine that keeps AWVALID high: n 256-beat bursts,
    AW after AW without waiting for W (AXI allows it; cocotbext-axi's master
    leaves gaps between AWs), W beats in AW order, BREADY always 1."""

    def __init__(self, dut, n, model):
        self.dut, self.n, self.bs = dut, n, 0
        self.bursts = []
        for k in range(n):
            addr = (k % 16) * 4096
            data = bytes((k * 7 + i) & 0xFF for i in range(256 * NB))
            model[addr:addr + len(data)] = data
            self.bursts.append((addr, k % TOP, data))
        dut.s0_axi_bready.value = 1
        self.aw_task = cocotb.start_soon(self._aw())
        self.w_task = cocotb.start_soon(self._w())
        cocotb.start_soon(self._b())

    async def _aw(self):
        dut = self.dut
        for addr, awid, _ in self.bursts:
            dut.s0_axi_awid.value = awid
            dut.s0_axi_awaddr.value = addr
            dut.s0_axi_awlen.value = 255
            dut.s0_axi_awsize.value = SIZE
            dut.s0_axi_awburst.value = 1
            dut.s0_axi_awvalid.value = 1
            while True:
                await RisingEdge(dut.clk)
                if dut.s0_axi_awready.value == 1:
                    break
        dut.s0_axi_awvalid.value = 0

    async def _w(self):
        dut = self.dut
        for _, _, data in self.bursts:
            for k in range(256):
                dut.s0_axi_wdata.value = int.from_bytes(data[k * NB:(k + 1) * NB], "little")
                dut.s0_axi_wstrb.value = (1 << NB) - 1
                dut.s0_axi_wlast.value = int(k == 255)
                dut.s0_axi_wvalid.value = 1
                while True:
                    await RisingEdge(dut.clk)
                    if dut.s0_axi_wready.value == 1:
                        break
        dut.s0_axi_wvalid.value = 0

    async def _b(self):
        while True:
            await RisingEdge(self.dut.clk)
            if self.dut.s0_axi_bvalid.value == 1:
                self.bs += 1


@cocotb.test()
async def test_no_starvation(dut):
    """Port 0 streams 256-beat bursts with AWVALID always high; port 1's
    single writes (an MSI-X message each) complete within a bound set by the
    W queue: at most FIFO_DEPTH port-0 bursts granted ahead, plus the one in
    flight (fixed priority for port 0 would hold them for the whole stream)."""
    r, slave, m0, m1 = await setup(dut, "starve", busy=0.0, port0_master=False)
    model = bytearray(2 * MEM)
    stream = StreamMaster(dut, 24, model)
    worst = 0
    for k in range(12):
        await Timer(r.randint(100, 400), units="ns")
        t = get_sim_time("ns")
        await m1.write(MEM + 8 * k, bytes([k, 1, 2, 3]), awid=TOP | (k % TOP))
        worst = max(worst, (get_sim_time("ns") - t) / 4)
        model[MEM + 8 * k:MEM + 8 * k + 4] = bytes([k, 1, 2, 3])
    await with_timeout(stream.w_task, 400, "us")
    for _ in range(50):
        await RisingEdge(dut.clk)
    bound = (FIFO_DEPTH + 1) * 257 + 20
    if NEGATIVE:
        bound = 10
    dut._log.info("worst single-write latency %d cycles (bound %d)", worst, bound)
    assert worst <= bound, f"a port-1 write took {worst} cycles, bound {bound}"
    assert stream.bs == 24, f"port 0 got {stream.bs} B responses for 24 bursts"
    assert slave.mem == model


@cocotb.test()
async def test_wrong_port_id(dut):
    """An AW on port 0 carrying the port-1 ID bit is reported (sim_errors)."""
    r, slave, m0, m1 = await setup(dut, "wrong", busy=0.0)
    slave.hold_b = True
    assert sim_errors(dut) == 0
    m0.init_write(0x100, bytes(8), awid=TOP)
    for _ in range(20):
        await RisingEdge(dut.clk)
    want = 0 if NEGATIVE else 1
    assert sim_errors(dut) == want, f"sim_errors {sim_errors(dut)}, expected {want}"
