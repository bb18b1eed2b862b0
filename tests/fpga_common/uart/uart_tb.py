# SPDX-License-Identifier: MIT
"""Bench pieces for the UART host link (tb_froce_uart_link.v): a UART model
at the pins (host side), a host that speaks the protocol (uart_proto.py),
the BAR0/BAR2 slave models, the DMA master on the RAM and a byte model of
the RAM.

Environment: UART_PARAMS (the Makefile's PARAMS, NAME=VALUE ...),
UART_SEED, UART_SCALE (times the random operations), UART_NEGATIVE=1
(the checks expect deliberately wrong results: every test must fail).
"""

import logging
import os
import random
from collections import deque

import cocotb
from cocotb.queue import Queue
from cocotb.triggers import Event, FallingEdge, First, RisingEdge, Timer, with_timeout
from cocotb.utils import get_sim_time
from cocotbext.axi import AxiBus, AxiLiteReadBus, AxiLiteWriteBus, AxiMaster
from cocotbext.axi.axil_ram import AxiLiteRamRead, AxiLiteRamWrite

from uart_proto import Decoder, proto, request

P = proto()

NEGATIVE = os.environ.get("UART_NEGATIVE", "0") == "1"
SCALE = float(os.environ.get("UART_SCALE", "1"))

DEFAULTS = {
    "CLK_HZ": 100_000_000, "BAUD": 12_500_000, "BAR0_ADDR_WIDTH": 14, "BAR2_ADDR_WIDTH": 20,
    "MEM_ADDR_WIDTH": 16, "MEM_BASE": 0x0000001234560000, "NUM_VECTORS": 32, "TIMEOUT_CYCLES": 4000,
    "RX_FIFO_DEPTH": 512, "ID_WIDTH": 4, "USER_ID": 0xC0FFEE01, "CLK_PERIOD_PS": 10000,
}


def vint(v):
    """A parameter value: a Verilog literal (64'h1234) or a Python int."""
    if "'" in v:
        base, digits = v.split("'", 1)[1][0].lower(), v.split("'", 1)[1][1:].replace("_", "")
        return int(digits, {"h": 16, "d": 10, "b": 2, "o": 8}[base])
    return int(v, 0)


def params():
    out = dict(DEFAULTS)
    for item in os.environ.get("UART_PARAMS", "").split():
        name, value = item.split("=", 1)
        out[name] = vint(value)
    return out


PRM = params()
MEM_BASE = PRM["MEM_BASE"]
MEM_SIZE = 1 << PRM["MEM_ADDR_WIDTH"]
BAR0_SIZE = 1 << PRM["BAR0_ADDR_WIDTH"]
BAR2_SIZE = 1 << PRM["BAR2_ADDR_WIDTH"]
CLK_PS = PRM["CLK_PERIOD_PS"]
assert CLK_PS * PRM["CLK_HZ"] == 10**12, "CLK_PERIOD_PS must be 1e12 / CLK_HZ"
BIT_PS = round(1e12 / PRM["BAUD"])
# the host's bit time off by this fraction (UART_HOST_SKEW, e.g. 0.03): the
# DUT's receiver must cope with a few percent
HOST_BIT_PS = round(BIT_PS * (1 + float(os.environ.get("UART_HOST_SKEW", "0"))))
CYCLES_PER_BIT = PRM["CLK_HZ"] / PRM["BAUD"]
# BAR0 offsets whose AXI-Lite access the model answers with SLVERR
BAR0_ERR = range(BAR0_SIZE - 0x100, BAR0_SIZE - 0xC0)


def ops(n):
    return max(3, round(n * SCALE))


def rng(name):
    return random.Random(f"{os.environ.get('UART_SEED', '1')}-{name}")


def quiet(dut):
    """cocotbext-axi logs its configuration and every transaction at INFO."""
    for bus in ("m_axil", "m_axil_db", "s_axi"):
        logging.getLogger(f"cocotb.{dut._name}.{bus}").setLevel(logging.WARNING)


def wrong(value):
    """The negative control: a deliberately wrong expectation."""
    if not NEGATIVE:
        return value
    if isinstance(value, (bytes, bytearray)):
        return bytes([value[0] ^ 1]) + bytes(value[1:]) if value else b"\x00"
    return value ^ 1


def byte_time_ps(n=1):
    """n bytes on the wire."""
    return n * 10 * BIT_PS


class UartDriver:
    """Host -> DUT: 8N1 on uart_rxd, bytes back to back. A byte can be
    sent with a bad (low) stop bit."""

    def __init__(self, sig):
        self.sig = sig
        self.sig.value = 1
        self.queue = deque()
        self.wake = Event()
        self.idle = Event()
        self.idle.set()
        cocotb.start_soon(self._run())

    def write(self, data, bad_stop=()):
        for i, b in enumerate(data):
            self.queue.append((b, 0 if i in bad_stop else 1))
        self.idle.clear()
        self.wake.set()

    async def drain(self):
        await self.idle.wait()

    async def _run(self):
        while True:
            if not self.queue:
                self.idle.set()
                self.wake.clear()
                await self.wake.wait()
                continue
            b, stop = self.queue.popleft()
            for bit in [0] + [(b >> i) & 1 for i in range(8)] + [stop]:
                self.sig.value = bit
                await Timer(HOST_BIT_PS, "ps")
            if not stop:
                self.sig.value = 1
                await Timer(HOST_BIT_PS, "ps")


class UartMonitor:
    """DUT -> host: samples uart_txd in the middle of each bit; a start bit
    that is not low in its middle or a low stop bit is a DUT bug."""

    def __init__(self, sig):
        self.sig = sig
        self.queue = Queue()
        self.errors = []
        cocotb.start_soon(self._run())

    async def _run(self):
        while True:
            await FallingEdge(self.sig)
            await Timer(BIT_PS // 2, "ps")
            if self.sig.value != 0:
                self.errors.append(f"start bit glitch at {get_sim_time('ns')} ns")
                continue
            b = 0
            for i in range(8):
                await Timer(BIT_PS, "ps")
                b |= int(self.sig.value) << i
            await Timer(BIT_PS, "ps")
            if self.sig.value != 1:
                self.errors.append(f"low stop bit at {get_sim_time('ns')} ns")
            self.queue.put_nowait(b)


class Host:
    """The host side of the protocol: one request at a time (or several
    queued with send()), strict frame decoding, interrupt frames kept."""

    def __init__(self, dut):
        self.dut = dut
        self.drv = UartDriver(dut.uart_rxd)
        self.mon = UartMonitor(dut.uart_txd)
        self.dec = Decoder()
        self.tag = 0
        self.irqs = []          # interrupt frames, in arrival order
        self.frames = deque()   # decoded frames not consumed yet

    def next_tag(self):
        self.tag = (self.tag + 1) & 0xFF
        return self.tag

    def send(self, frame, bad_stop=()):
        self.drv.write(frame, bad_stop)

    async def frame(self, timeout_ps):
        """The next frame (interrupt frames included)."""
        while not self.frames:
            f = self.dec.pop()
            if f is not None:
                self.frames.append(f)
                break
            b = await with_timeout(self.mon.queue.get(), timeout_ps, "ps")
            self.dec.feed(bytes([b]))
        return self.frames.popleft()

    async def response(self, cmd, tag, timeout_ps=None):
        """The response to (cmd, tag); interrupt frames before it are kept.
        Any other frame is a failure."""
        if timeout_ps is None:
            timeout_ps = byte_time_ps(800) + PRM["TIMEOUT_CYCLES"] * CLK_PS * 2
        while True:
            f = await self.frame(timeout_ps)
            if f.is_irq:
                assert f.status == P.STATUS_OK and len(f.data) == P.IRQ_LEN, f
                self.irqs.append(f)
                continue
            assert (f.cmd, f.tag) == (cmd & 0xFF, tag & 0xFF), \
                f"response {f.cmd:#04x}/{f.tag} to request {cmd:#04x}/{tag}: {f.raw.hex()}"
            return f

    async def request(self, cmd, addr=0, data=None, length=None, tag=None):
        tag = self.next_tag() if tag is None else tag
        self.send(request(cmd, tag, addr, data, length))
        return await self.response(cmd, tag)

    async def info(self):
        f = await self.request(P.CMD_INFO)
        assert f.status == P.STATUS_OK, f
        return f.info()

    async def bar0_read(self, off):
        return await self.request(P.CMD_BAR0_RD32, off, length=4)

    async def bar0_write(self, off, value):
        return await self.request(P.CMD_BAR0_WR32, off, value.to_bytes(4, "little"))

    async def db_write(self, off, value):
        return await self.request(P.CMD_DB_WR64, off, value.to_bytes(8, "little"))

    async def mem_read(self, addr, n):
        return await self.request(P.CMD_MEM_RD, addr, length=n)

    async def mem_write(self, addr, data):
        return await self.request(P.CMD_MEM_WR, addr, data)

    async def collect(self, ps):
        """Waits ps, then returns the non-interrupt frames that arrived
        (interrupt frames are kept); a partial frame is a failure."""
        await Timer(ps, "ps")
        while not self.mon.queue.empty():
            self.dec.feed(bytes([self.mon.queue.get_nowait()]))
        while True:
            f = self.dec.pop()
            if f is None:
                break
            self.frames.append(f)
        assert not self.dec.buf, f"partial frame {bytes(self.dec.buf).hex()}"
        out = [f for f in self.frames if not f.is_irq]
        self.irqs += [f for f in self.frames if f.is_irq]
        self.frames.clear()
        return out

    async def quiet_check(self, ps=None):
        """No frame other than interrupt frames arrives for a while."""
        out = await self.collect(ps or byte_time_ps(40))
        assert not out, f"unexpected frames {[f.raw.hex() for f in out]}"


class LiteMonitor:
    """Records the AXI4-Lite transactions of a port: writes (addr, data,
    strb), reads (addr)."""

    def __init__(self, dut, prefix, reads=True):
        self.s = lambda name: getattr(dut, f"{prefix}_{name}")
        self.clk = dut.clk
        self.writes = []
        self.reads = []
        self.reads_on = reads
        self._aw = deque()
        self._w = deque()
        cocotb.start_soon(self._run())

    async def _run(self):
        s = self.s
        valids = [s("awvalid"), s("wvalid")] + ([s("arvalid")] if self.reads_on else [])
        wake = First(*[RisingEdge(v) for v in valids])
        while True:
            if all(v.value == 0 for v in valids):
                await wake                  # idle: no per-cycle work
            await RisingEdge(self.clk)
            if s("awvalid").value == 1 and s("awready").value == 1:
                self._aw.append(int(s("awaddr").value))
            if s("wvalid").value == 1 and s("wready").value == 1:
                self._w.append((int(s("wdata").value), int(s("wstrb").value)))
            while self._aw and self._w:
                d, st = self._w.popleft()
                self.writes.append((self._aw.popleft(), d, st))
            if self.reads_on and s("arvalid").value == 1 and s("arready").value == 1:
                self.reads.append(int(s("araddr").value))


class Bar0Write(AxiLiteRamWrite):
    async def _write(self, address, data):
        if address % BAR0_SIZE in BAR0_ERR:
            raise IOError("bench: SLVERR region")
        await super()._write(address, data)


class Bar0Read(AxiLiteRamRead):
    async def _read(self, address, length):
        if address % BAR0_SIZE in BAR0_ERR:
            raise IOError("bench: SLVERR region")
        return await super()._read(address, length)


class MemCounter:
    """Counts the bridge's RAM writes (mem_req && mem_we; the RAM acks at once)."""

    def __init__(self, dut):
        self.dut = dut
        self.writes = 0
        cocotb.start_soon(self._run())

    async def _run(self):
        req = self.dut.mem_req
        while True:
            if req.value == 0:
                await RisingEdge(req)
            await RisingEdge(self.dut.clk)
            if req.value == 1 and self.dut.mem_we.value == 1:
                self.writes += 1


class Bench:
    """Use `tb = await Bench.create(dut, name)`."""

    # the RAM's contents after the last test that passed (all zero at first);
    # None when a test failed after changing the RAM
    _ram = bytearray(MEM_SIZE)

    @classmethod
    async def create(cls, dut, name, mem=False):
        """mem: the test checks RAM contents: tb.mem must be the RAM's."""
        tb = cls(dut, name)
        if mem:
            if Bench._ram is None:
                # the RAM keeps what earlier tests wrote: read it
                Bench._ram = bytearray((await tb.dma.read(MEM_BASE, MEM_SIZE)).data)
            tb.mem = Bench._ram
            Bench._ram = None           # until finish()
            tb.owns_ram = True
        return tb

    def __init__(self, dut, name):
        quiet(dut)
        self.dut = dut
        self.r = rng(name)
        self.host = Host(dut)
        clk, rst = dut.clk, dut.rst
        self.bar0_w = Bar0Write(AxiLiteWriteBus.from_prefix(dut, "m_axil"), clk, rst, size=BAR0_SIZE)
        self.bar0_r = Bar0Read(AxiLiteReadBus.from_prefix(dut, "m_axil"), clk, rst, size=BAR0_SIZE,
                               mem=self.bar0_w.mem)
        self.bar2 = AxiLiteRamWrite(AxiLiteWriteBus.from_prefix(dut, "m_axil_db"), clk, rst, size=BAR2_SIZE)
        self.mon0 = LiteMonitor(dut, "m_axil")
        self.mon2 = LiteMonitor(dut, "m_axil_db", reads=False)
        self.memw = MemCounter(dut)
        self.dma = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), clk, rst)
        self.mem = None                     # the RAM's expected contents (create(mem=True))
        self.owns_ram = False

    def bar0(self, off, n=4):
        return bytes(self.bar0_w.mem[off:off + n])

    def stalls(self, busy=0.3, slaves=True, dma=False):
        """Random stalls on the BAR0/BAR2 slaves and/or the DMA master; busy=0
        removes them. (A paused channel costs a Python wake-up per cycle, about
        as much as the rest of the bench: use them where the AXI traffic is.)"""
        def gen():
            while True:
                yield self.r.random() < busy
        chans = []
        if slaves:
            chans += [self.bar0_w.aw_channel, self.bar0_w.w_channel, self.bar0_w.b_channel,
                      self.bar0_r.ar_channel, self.bar0_r.r_channel,
                      self.bar2.aw_channel, self.bar2.w_channel, self.bar2.b_channel]
        if dma:
            chans += [self.dma.write_if.aw_channel, self.dma.write_if.w_channel, self.dma.write_if.b_channel,
                      self.dma.read_if.ar_channel, self.dma.read_if.r_channel]
        for ch in chans:
            if busy:
                ch.set_pause_generator(gen())
            else:
                ch.clear_pause_generator()
                ch.pause = False            # (clearing keeps the last value)

    async def finish(self):
        await self.host.quiet_check()
        assert not self.host.mon.errors, self.host.mon.errors
        if self.owns_ram:
            Bench._ram = self.mem


async def start(dut):
    """Reset (the clock runs in the bench top)."""
    dut.rst.value = 1
    dut.uart_rxd.value = 1
    dut.irq_valid.value = 0
    dut.irq_vector.value = 0
    dut.tb_b0_resp_or.value = 0
    dut.tb_db_resp_or.value = 0
    for _ in range(5):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    for _ in range(5):
        await RisingEdge(dut.clk)
