# SPDX-License-Identifier: MIT
"""froce_msix_emitter: one clocked bench process drives the requests, the
MSI-X table read port (one register of latency), the masks, a model of the DMA
write path (writes on four IDs, B responses in order per ID and out of order
across IDs, some of them very late) and random AWREADY/WREADY, and records
every message written on m_axi_*.

Checks on every message: one 4-byte write (AWLEN 0, full AWSIZE, the strobes
of the 4 bytes at the address, the data in those lanes, AWID) of the table
entry of its vector as it is when sent; the vector was deliverable (MSI-X
enabled, function and vector unmasked) in the cycle the emitter decided to
send; every DMA write whose AW came no later than the request it answers had
its B before the message's AWVALID; never more messages than requests.
Directed: unmasked requests give exactly one message each, in order; masked
ones (vector mask, function mask, MSI-X disabled) set their PBA bit and
coalesce, and are delivered exactly once, with the table entry as changed
under the mask, when unmasked; a vector masked while its message waits for
the DMA goes to the PBA; random mask toggling loses nothing."""

import cocotb
from cocotb.triggers import RisingEdge

from glue_common import NEGATIVE, limit_us, ops, params, quiet, rng, start

P = params()
NV = P.get("NUM_VECTORS", 6)
VW = max(1, (NV - 1).bit_length())
DATA_WIDTH = P.get("DATA_WIDTH", 64)
WB = DATA_WIDTH // 8
AXI_ID = P.get("AXI_ID", 0)
DMA_IDS = 1 << P.get("DMA_ID_WIDTH", 4)
MAX_OUT = (1 << P.get("DMA_OUT_WIDTH", 8)) - 1


class Bench:
    def __init__(self, dut, name):
        quiet()
        self.dut = dut
        self.r = rng(name)
        self.cycle = 0
        # controls, applied by the tick
        self.enable = 1
        self.fmask = 0
        self.mask = 0
        self.table = {v: self._entry(v) for v in range(NV)}
        self.reqs = []                      # vectors to request, in order
        self.dma_rate = 0.25
        self.dma_hold = False               # no B responses while set
        self.long_b = 0.05                  # share of writes answered very late
        self.ready_busy = 0.3
        # records
        self.accepted = []                  # (cycle, vector)
        self.msgs = []                      # dicts, see _tick
        self.dma = []                       # [id, issue cycle, done cycle or None]
        self.deliverable_at = {}            # cycle -> bitmask of deliverable vectors
        self.errors = []
        self._outq = {i: [] for i in range(DMA_IDS)}
        self._req = None
        self._aw = None
        self._w = None
        self._rise = None
        self._idle_inputs()
        cocotb.start_soon(self._tick())

    def _idle_inputs(self):
        d = self.dut
        for name in ("s_req_valid", "s_req_vector", "s_req_addr", "s_req_data", "dma_aw_fire", "dma_aw_id",
                     "dma_b_fire", "dma_b_id", "m_axi_awready", "m_axi_wready", "m_axi_bid", "m_axi_bresp",
                     "m_axi_bvalid", "tbl_addr", "tbl_data", "msix_func_mask", "vec_mask"):
            getattr(d, name).value = 0
        d.msix_enable.value = 1

    def _entry(self, v):
        addr = 0xFEE0_0000 + 0x1000 * v + 4 * self.r.randrange(0, 256) if self.r.random() < 0.5 else \
            (self.r.getrandbits(61) << 3 | 4 * self.r.randrange(2)) & ~(0xFFF << 52)
        return addr, self.r.getrandbits(32)

    def retarget(self, v):
        """Software changes entry v (only ever while v is masked)."""
        assert self.mask >> v & 1 or not self.enable or self.fmask
        self.table[v] = self._entry(v)

    def deliverable(self, v):
        return self.enable and not self.fmask and not (self.mask >> v & 1)

    async def _tick(self):
        d, r = self.dut, self.r
        drove = {"aw": None, "b": None, "del": 0}
        while True:
            await RisingEdge(d.clk)
            if d.rst.value == 1:            # the DMA path and requester idle across rst
                continue
            c = self.cycle                  # the cycle that just ended
            self.cycle += 1
            self.deliverable_at[c] = drove["del"]
            # --- sample what happened in cycle c
            if self._req is not None and d.s_req_ready.value == 1:
                self.accepted.append((c, self._req[0]))
                self._req = None
            if drove["aw"] is not None:
                self.dma.append([drove["aw"], c, None])
                self._outq[drove["aw"]].append((len(self.dma) - 1, c + self._b_delay()))
            if drove["b"] is not None:
                k, _ = self._outq[drove["b"]].pop(0)
                self.dma[k][2] = c
            if d.m_axi_awvalid.value == 1:
                if self._rise is None:
                    self._rise = c
                if d.m_axi_awready.value == 1:
                    self._aw = (c, int(d.m_axi_awaddr.value), int(d.m_axi_awid.value),
                                int(d.m_axi_awlen.value), int(d.m_axi_awsize.value))
            if d.m_axi_wvalid.value == 1 and d.m_axi_wready.value == 1:
                self._w = (c, int(d.m_axi_wdata.value), int(d.m_axi_wstrb.value), int(d.m_axi_wlast.value))
            if self._aw is not None and self._w is not None:
                self.msgs.append({"rise": self._rise, "aw": self._aw, "w": self._w, "vec": None})
                self._aw = self._w = self._rise = None
            if d.sent_valid.value == 1:
                v = int(d.sent_vector.value)
                pending = [m for m in self.msgs if m["vec"] is None]
                if len(pending) != 1:
                    self.errors.append(f"cycle {c}: sent_valid with {len(pending)} unmatched writes")
                else:
                    self._check_msg(pending[0], v)
            # --- drive cycle c + 1
            # the requester shows the table entry of its vector as it is in
            # every cycle (the emitter's contract: read from the table, not a
            # copy taken when the request was raised)
            if self._req is None and self.reqs:
                self._req = (self.reqs.pop(0),)
            if self._req is not None:
                v = self._req[0]
                addr, data = self.table[v] if v < NV else (0x1234_5670, 0xDEAD)
                d.s_req_vector.value = v
                d.s_req_addr.value = addr
                d.s_req_data.value = data
            d.s_req_valid.value = int(self._req is not None)
            drove["b"] = None
            if not self.dma_hold:
                ready = [i for i, q in self._outq.items() if q and q[0][1] <= c + 1]
                if ready:
                    drove["b"] = r.choice(ready)
            d.dma_b_fire.value = int(drove["b"] is not None)
            d.dma_b_id.value = drove["b"] or 0
            drove["aw"] = None
            if r.random() < self.dma_rate:
                i = r.randrange(DMA_IDS)
                if len(self._outq[i]) < min(MAX_OUT, 20):
                    drove["aw"] = i
            d.dma_aw_fire.value = int(drove["aw"] is not None)
            d.dma_aw_id.value = drove["aw"] or 0
            d.msix_enable.value = self.enable
            d.msix_func_mask.value = self.fmask
            d.vec_mask.value = self.mask
            drove["del"] = sum(1 << v for v in range(NV) if self.deliverable(v))
            tv = int(d.tbl_vector.value)
            a, t = self.table.get(tv, (0, 0))
            d.tbl_addr.value = a
            d.tbl_data.value = t
            d.m_axi_awready.value = int(r.random() >= self.ready_busy)
            d.m_axi_wready.value = int(r.random() >= self.ready_busy)

    def _b_delay(self):
        if self.r.random() < self.long_b:
            return self.r.randint(100, 300)
        return self.r.randint(1, 40)

    def _check_msg(self, m, v):
        m["vec"] = v
        c_aw, addr, awid, awlen, awsize = m["aw"]
        _, wdata, wstrb, wlast = m["w"]
        want_addr, want_data = self.table[v]
        if NEGATIVE:
            want_data ^= 1
        lane = want_addr % WB // 4
        got_data = wdata >> (32 * lane) & 0xFFFF_FFFF
        shape = (addr, awid, awlen, awsize, wstrb, wlast, got_data)
        want = (want_addr, AXI_ID, 0, WB.bit_length() - 1, 0xF << (4 * lane), 1, want_data)
        if shape != want:
            self.errors.append(f"vector {v} message {shape}, want {want}")
        # deliverable when the emitter decided (the cycle before AWVALID)
        if not self.deliverable_at.get(m["rise"] - 1, 0) >> v & 1:
            self.errors.append(f"vector {v} sent (AWVALID in cycle {m['rise']}) while masked")
        # ordering: the latest request for v before the message
        reqs = [c for c, rv in self.accepted if rv == v and c < m["rise"]]
        if not reqs:
            self.errors.append(f"vector {v}: message in cycle {m['rise']} without a request")
            return
        m["req"] = reqs[-1]
        late = [w for w in self.dma if w[1] <= reqs[-1] and (w[2] is None or w[2] >= m["rise"])]
        if late:
            self.errors.append(f"vector {v}: message (AWVALID cycle {m['rise']}, request cycle {reqs[-1]}) "
                               f"before the B of DMA write(s) {late[:3]}")
        m["waited"] = any(w[1] <= reqs[-1] and w[2] is not None and w[2] > reqs[-1] + 2 for w in self.dma)
        nm = sum(1 for x in self.msgs if x["vec"] == v)
        nr = sum(1 for _, rv in self.accepted if rv == v)
        if nm > nr:
            self.errors.append(f"vector {v}: {nm} messages for {nr} requests")

    async def cycles(self, n):
        for _ in range(n):
            await RisingEdge(self.dut.clk)

    async def settle(self, limit=20000):
        """Wait until no pending bit is deliverable and the emitter is idle."""
        for _ in range(limit):
            await RisingEdge(self.dut.clk)
            deliverable = sum(1 << v for v in range(NV) if self.deliverable(v))
            if not self.pba() & deliverable and self.dut.state_reg.value == 0 and \
                    self.dut.m_axi_awvalid.value == 0 and not self.reqs and self._req is None:
                await self.cycles(5)
                return
        raise AssertionError("pending vectors were not delivered")

    async def drain(self, limit=20000):
        """Wait until every request was taken and the emitter is idle."""
        for _ in range(limit):
            await RisingEdge(self.dut.clk)
            if not self.reqs and self._req is None and self.dut.state_reg.value == 0 and \
                    self.dut.m_axi_awvalid.value == 0:
                await self.cycles(3)
                if self.dut.state_reg.value == 0 and self.dut.s_req_valid.value == 0:
                    return
        raise AssertionError("the emitter did not go idle")

    def pba(self):
        return int(self.dut.pba.value)

    def vecs(self):
        return [m["vec"] for m in self.msgs]

    def finish(self):
        assert not self.errors, "\n".join(self.errors[:10])


@cocotb.test(timeout_time=limit_us(200), timeout_unit="us")
async def test_unmasked(dut):
    """Unmasked: exactly one message per request, in order, each after the DMA writes before it."""
    tb = Bench(dut, "unmasked")
    await start(dut)
    n = ops(30)
    tb.reqs = [tb.r.randrange(NV) for _ in range(n)]
    want = list(tb.reqs)
    await tb.drain()
    await tb.cycles(10)
    assert tb.vecs() == want, f"messages {tb.vecs()} for requests {want}"
    assert tb.pba() == 0
    waited = sum(1 for m in tb.msgs if m.get("waited"))
    dut._log.warning("%d messages, %d of them waited for a DMA write", len(tb.msgs), waited)
    assert waited >= n // 4, f"only {waited} messages had to wait for a DMA write"
    tb.finish()


@cocotb.test(timeout_time=limit_us(200), timeout_unit="us")
async def test_vector_mask(dut):
    """Masked vectors: PBA set, requests coalesce, one message each on unmask with the new table entry."""
    tb = Bench(dut, "vector_mask")
    await start(dut)
    r = tb.r
    tb.mask = (1 << NV) - 1
    asked = [r.randrange(NV) for _ in range(15)] + [NV - 1]
    if NV < (1 << VW):
        asked.append(NV)                  # out of range: taken and ignored
    tb.reqs = list(asked)
    await tb.drain()
    await tb.cycles(20)
    want_pba = sum(1 << v for v in set(asked) if v < NV)
    assert tb.msgs == [], f"messages while masked: {tb.vecs()}"
    assert tb.pba() == want_pba, f"pba {tb.pba():#x}, want {want_pba:#x}"
    for v in range(NV):
        if r.random() < 0.5:
            tb.retarget(v)
    order = list(range(NV))
    r.shuffle(order)
    for v in order:
        before = len(tb.msgs)
        tb.mask &= ~(1 << v)
        await tb.settle()
        got = tb.vecs()[before:]
        want = [v] if want_pba >> v & 1 else []
        if NEGATIVE:
            want = want * 2
        assert got == want, f"unmasking {v}: messages {got}, want {want}"
        assert not tb.pba() >> v & 1
    await tb.cycles(100)
    assert len(tb.msgs) == bin(want_pba).count("1") and tb.pba() == 0
    tb.finish()


@cocotb.test(timeout_time=limit_us(200), timeout_unit="us")
async def test_function_mask_and_enable(dut):
    """Function mask and MSI-X disabled hold every vector pending (vector masks untouched); lowest first after."""
    tb = Bench(dut, "function_mask")
    await start(dut)
    r = tb.r
    for what in ("fmask", "enable", "both"):
        tb.enable = 0 if what in ("enable", "both") else 1
        tb.fmask = 1 if what in ("fmask", "both") else 0
        asked = [r.randrange(NV) for _ in range(10)]
        tb.reqs = list(asked)
        await tb.drain()
        await tb.cycles(20)
        want_pba = sum(1 << v for v in set(asked))
        assert tb.msgs == [] and tb.pba() == want_pba, (what, tb.vecs(), hex(tb.pba()))
        for v in set(asked):
            if r.random() < 0.5:
                tb.retarget(v)
        if what == "both":
            tb.enable = 1                 # enabled, still function-masked: nothing yet
            await tb.cycles(100)
            assert tb.msgs == [] and tb.pba() == want_pba
        tb.enable, tb.fmask = 1, 0
        await tb.settle()
        want = sorted(set(asked))
        if NEGATIVE:
            want = want[::-1] + [0]
        assert tb.vecs() == want, f"{what}: messages {tb.vecs()}, want {want}"
        assert tb.pba() == 0
        tb.msgs = []
        tb.accepted = []
    tb.finish()


@cocotb.test(timeout_time=limit_us(50), timeout_unit="us")
async def test_mask_while_waiting(dut):
    """A vector masked while its message waits for the DMA goes to the PBA; sent once on unmask, new entry."""
    tb = Bench(dut, "mask_while_waiting")
    await start(dut)
    tb.dma_hold = True
    tb.dma_rate = 0.5                     # writes pile up, none answered
    await tb.cycles(10)
    tb.dma_rate = 0.0
    v = NV - 1
    tb.reqs = [v]
    await tb.cycles(30)
    assert tb.msgs == [] and tb.pba() == 0, "sent before the DMA writes completed"
    tb.mask |= 1 << v
    await tb.cycles(5)
    assert tb.pba() == 1 << v, f"pba {tb.pba():#x}"
    tb.retarget(v)
    tb.dma_hold = False
    await tb.cycles(200)
    assert tb.msgs == [], "sent while masked"
    tb.mask = 0
    await tb.cycles(100)
    want = [v] if not NEGATIVE else []
    assert tb.vecs() == want and tb.pba() == 0, (tb.vecs(), tb.pba())
    tb.finish()


@cocotb.test(timeout_time=limit_us(300), timeout_unit="us")
async def test_random(dut):
    """Random requests, masks toggling, table changes under the mask, DMA traffic: nothing lost."""
    tb = Bench(dut, "random")
    await start(dut)
    r = tb.r
    tb.long_b = 0.02
    steps = ops(80)
    for step in range(steps):
        tb.reqs += [r.randrange(NV) for _ in range(r.randint(0, 3))]
        if r.random() < 0.3:
            tb.mask ^= 1 << r.randrange(NV)
        tb.fmask = int(r.random() < 0.05)
        tb.enable = int(r.random() >= 0.03)
        for v in range(NV):
            if not tb.deliverable(v) and r.random() < 0.1:
                tb.retarget(v)
        await tb.cycles(r.randint(1, 40))
    # make everything deliverable, then nothing may be left
    tb.mask, tb.fmask, tb.enable = 0, 0, 1
    await tb.drain()
    await tb.settle()
    assert tb.pba() == 0, f"pba {tb.pba():#x} after unmasking everything"
    for v in range(NV):
        reqs = [c for c, rv in tb.accepted if rv == v]
        msgs = [m["rise"] for m in tb.msgs if m["vec"] == v]
        if reqs:
            assert msgs and msgs[-1] > reqs[-1], f"vector {v}: last request (cycle {reqs[-1]}) never answered"
    coalesced = len(tb.accepted) - len(tb.msgs)
    dut._log.warning("%d requests, %d messages (%d coalesced while masked)", len(tb.accepted), len(tb.msgs),
                     coalesced)
    assert coalesced > 0 and len(tb.msgs) > steps // 4
    tb.finish()
