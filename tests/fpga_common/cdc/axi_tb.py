# SPDX-License-Identifier: MIT
"""Shared by test_axi_cdc.py and test_axil_cdc.py: a monitor that records
every handshake of a channel on both sides of the crossing, an outstanding
transaction counter, random pauses for the cocotbext-axi channel models."""
import cocotb
from cocotb.triggers import RisingEdge

# channel -> (direction, payload signal suffixes); AXI4
AXI_CHANNELS = {
    "aw": ("s2m", ["awid", "awaddr", "awlen", "awsize", "awburst", "awlock", "awcache", "awprot", "awqos"]),
    "w": ("s2m", ["wdata", "wstrb", "wlast"]),
    "b": ("m2s", ["bid", "bresp"]),
    "ar": ("s2m", ["arid", "araddr", "arlen", "arsize", "arburst", "arlock", "arcache", "arprot", "arqos"]),
    "r": ("m2s", ["rid", "rdata", "rresp", "rlast"]),
}
AXIL_CHANNELS = {
    "aw": ("s2m", ["awaddr", "awprot"]),
    "w": ("s2m", ["wdata", "wstrb"]),
    "b": ("m2s", ["bresp"]),
    "ar": ("s2m", ["araddr", "arprot"]),
    "r": ("m2s", ["rdata", "rresp"]),
}


class ChannelMonitor:
    """Every handshake (valid and ready on a rising edge) of one channel on
    one port, as a tuple of its payload signals."""

    def __init__(self, dut, prefix, clk, ch, sigs):
        self.valid = getattr(dut, f"{prefix}_{ch}valid")
        self.ready = getattr(dut, f"{prefix}_{ch}ready")
        self.sigs = [getattr(dut, f"{prefix}_{s}") for s in sigs]
        self.clk = clk
        self.beats = []
        cocotb.start_soon(self._run())

    async def _run(self):
        while True:
            await RisingEdge(self.clk)
            if int(self.valid.value) and int(self.ready.value):
                self.beats.append(tuple(int(s.value) for s in self.sigs))


class Crossing:
    """Monitors on both sides of every channel; check() asserts that each
    channel delivered exactly what it took, beat for beat, in order."""

    def __init__(self, dut, s_prefix, m_prefix, channels):
        self.mon = {}
        for ch, (_, sigs) in channels.items():
            self.mon[ch] = (ChannelMonitor(dut, s_prefix, dut.s_clk, ch, sigs),
                            ChannelMonitor(dut, m_prefix, dut.m_clk, ch, sigs))
        self.channels = channels

    def check(self):
        counts = {}
        for ch, (s, m) in self.mon.items():
            src, dst = (s, m) if self.channels[ch][0] == "s2m" else (m, s)
            assert len(src.beats) == len(dst.beats), \
                f"{ch}: {len(src.beats)} beats taken, {len(dst.beats)} delivered"
            for i, (a, b) in enumerate(zip(src.beats, dst.beats)):
                assert a == b, f"{ch} beat {i} changed in the crossing: {a} -> {b}"
            counts[ch] = len(src.beats)
        return counts


class Outstanding:
    """On the master's side: the most requests taken but not yet answered,
    and the most distinct IDs among them (writes: AW until B; reads: AR
    until the last R)."""

    def __init__(self, dut, prefix, clk, ids=True):
        self.dut, self.prefix, self.clk, self.ids = dut, prefix, clk, ids
        self.max_writes = self.max_reads = 0
        self.max_write_ids = self.max_read_ids = 0
        cocotb.start_soon(self._run())

    def _sig(self, name):
        return getattr(self.dut, f"{self.prefix}_{name}")

    def _fire(self, ch):
        return int(self._sig(f"{ch}valid").value) and int(self._sig(f"{ch}ready").value)

    async def _run(self):
        wr, rd = {}, {}
        while True:
            await RisingEdge(self.clk)
            if self._fire("aw"):
                i = int(self._sig("awid").value) if self.ids else 0
                wr[i] = wr.get(i, 0) + 1
            if self._fire("ar"):
                i = int(self._sig("arid").value) if self.ids else 0
                rd[i] = rd.get(i, 0) + 1
            if self._fire("b"):
                i = int(self._sig("bid").value) if self.ids else 0
                wr[i] -= 1
            if self._fire("r") and (not self.ids or int(self._sig("rlast").value)):
                i = int(self._sig("rid").value) if self.ids else 0
                rd[i] -= 1
            self.max_writes = max(self.max_writes, sum(wr.values()))
            self.max_reads = max(self.max_reads, sum(rd.values()))
            self.max_write_ids = max(self.max_write_ids, sum(1 for v in wr.values() if v))
            self.max_read_ids = max(self.max_read_ids, sum(1 for v in rd.values() if v))


def bursty(r, p_on, mean_len):
    while True:
        on = r.random() < p_on
        for _ in range(1 + int(r.expovariate(1.0 / mean_len))):
            yield on


def random_pauses(r, channels, p_on=0.25, mean_len=4):
    for ch in channels:
        ch.set_pause_generator(bursty(r, p_on, mean_len))
