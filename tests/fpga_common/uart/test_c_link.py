# SPDX-License-Identifier: MIT
"""The C library (fpga/common/host, through its froce-uart tool) against the
RTL: the bench serves the UART as a Unix socket (as a simulator does for a
host program) and runs froce-uart commands against it, checking their
output and the BAR0/BAR2/RAM models. Also with a corrupted request byte and
a lost response on the way (the library resends; the bridge executes the
write once).

Environment: UART_CLI (path of froce-uart; the test is skipped without it).
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time

import cocotb
from cocotb.triggers import Timer

from uart_tb import BAR0_ERR, MEM_BASE, Bench, P, byte_time_ps, start, wrong
from test_uart_link import pulse_irq

CLI = os.environ.get("UART_CLI", "")


class SocketBridge:
    """A Unix socket whose peer is the host side of the UART: bytes from the
    client go to the DUT's rxd, bytes from txd go to the client. Faults for
    the next connection: flip a bit of host byte `corrupt_at`, drop the
    DUT's bytes number [drop_from, drop_to)."""

    def __init__(self, host, path):
        self.host = host
        self.path = path
        self.srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.srv.bind(path)
        self.srv.listen(4)
        self.srv.setblocking(False)
        self.conn = None
        self.active = False           # forwarding (else the bench's Host owns the UART)
        self.connections = 0
        self.corrupt_at = None
        self.drop = (0, 0)
        self._rx = self._tx = 0       # bytes of this connection
        cocotb.start_soon(self._run())

    async def _run(self):
        while True:
            await Timer(2 * byte_time_ps(1), "ps")
            if not self.active:
                continue
            if self.conn is None:
                try:
                    self.conn, _ = self.srv.accept()
                    self.conn.setblocking(False)
                    self.connections += 1
                    self._rx = self._tx = 0
                except BlockingIOError:
                    pass
            # bytes from the DUT (dropped while nobody is connected)
            out = bytearray()
            while not self.host.mon.queue.empty():
                b = self.host.mon.queue.get_nowait()
                if not self.drop[0] <= self._tx < self.drop[1]:
                    out.append(b)
                self._tx += 1
            if self.conn is None:
                continue
            if out:
                self.conn.setblocking(True)
                self.conn.sendall(out)
                self.conn.setblocking(False)
            try:
                data = self.conn.recv(4096)
            except BlockingIOError:
                continue
            if not data:
                self.conn.close()
                self.conn = None
                self.corrupt_at = None
                self.drop = (0, 0)
                continue
            data = bytearray(data)
            if self.corrupt_at is not None and self._rx <= self.corrupt_at < self._rx + len(data):
                data[self.corrupt_at - self._rx] ^= 0x08
            self._rx += len(data)
            self.host.drv.write(bytes(data))

    def close(self):
        if self.conn:
            self.conn.close()
        self.srv.close()


async def run_cli(bridge, *args, timeout_ms=60000, retries=3, wall_s=120):
    """Runs froce-uart against the bench; returns (exit status, stdout, stderr)."""
    cmd = [CLI, "-d", f"unix:{bridge.path}", "-t", str(timeout_ms), "-r", str(retries)] + [str(a) for a in args]
    bridge.active = True
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.time()
    while proc.poll() is None or bridge.conn is not None:
        await Timer(byte_time_ps(4), "ps")
        if time.time() - t0 > wall_s:
            proc.kill()
            raise AssertionError(f"{' '.join(cmd)}: no exit in {wall_s} s")
    bridge.active = False
    out, err = proc.communicate()
    cocotb.log.info("froce-uart %s -> %d %r %r", " ".join(str(a) for a in args), proc.returncode, out, err)
    return proc.returncode, out, err


def xorshift_bytes(n, seed):
    """froce-uart memtest's pattern."""
    x, out = seed, bytearray()
    m = (1 << 64) - 1
    for _ in range(n):
        x ^= (x << 13) & m
        x ^= x >> 7
        x ^= (x << 17) & m
        out.append(x & 0xFF)
    return bytes(out)


@cocotb.test(skip=not CLI)
async def test_cli(dut):
    """info, r32/w32, db, memw/dump, memtest and wait-irq through the C
    library; errors reported with the library's messages."""
    await start(dut)
    tb = await Bench.create(dut, "cli")
    d = tempfile.mkdtemp(prefix="froce-uart-sim-")
    br = SocketBridge(tb.host, os.path.join(d, "uart.sock"))
    try:
        rc, out, _ = await run_cli(br, "info")
        assert rc == 0 and f"mem_base    0x{MEM_BASE:016x}" in out and "user_id     0xc0ffee01" in out, out

        rc, _, _ = await run_cli(br, "w32", "0x104", "0xdeadbeef")
        assert rc == 0 and tb.bar0(0x104) == wrong(0xDEADBEEF).to_bytes(4, "little")
        rc, out, _ = await run_cli(br, "r32", "0x104")
        assert rc == 0 and out.strip() == "0xdeadbeef", out

        n = len(tb.mon2.writes)
        rc, _, _ = await run_cli(br, "db", "0x2008", "0x1122334455667788")
        assert rc == 0 and tb.mon2.writes[n:] == [(0x2008, 0x1122334455667788, 0xFF)], tb.mon2.writes[n:]

        rc, _, _ = await run_cli(br, "memw", hex(MEM_BASE + 0x10), "00112233a5")
        assert rc == 0
        assert (await tb.dma.read(MEM_BASE + 0x10, 5)).data == bytes.fromhex("00112233a5")
        rc, out, _ = await run_cli(br, "dump", hex(MEM_BASE + 0x10), "5")
        assert rc == 0 and f"{MEM_BASE + 0x10:016x}  00 11 22 33 a5" in out, out

        rc, out, _ = await run_cli(br, "memtest", hex(MEM_BASE + 0x1003), "600", "5")
        assert rc == 0 and "ok (0 bad)" in out, out
        assert (await tb.dma.read(MEM_BASE + 0x1003, 600)).data == xorshift_bytes(600, 5)

        # an interrupt raised while the tool is connected
        c0 = br.connections
        irq = cocotb.start_soon(run_cli(br, "wait-irq", "60000"))
        while br.connections == c0:
            await Timer(byte_time_ps(10), "ps")
        await Timer(byte_time_ps(100), "ps")
        await pulse_irq(dut, 5)
        rc, out, _ = await irq
        assert rc == 0 and out.strip() == "vectors 0x00000020", out

        # errors: local checks and the device's
        rc, _, err = await run_cli(br, "r32", "0x3")
        assert rc == 1 and "not 4-byte aligned" in err, err
        rc, _, err = await run_cli(br, "dump", hex(MEM_BASE - 16), "4")
        assert rc == 1 and "outside the window" in err, err
        rc, _, err = await run_cli(br, "r32", hex(BAR0_ERR[0]))
        assert rc == 1 and "AXI SLVERR" in err, err
    finally:
        br.close()
        shutil.rmtree(d, ignore_errors=True)
    await tb.finish()


@cocotb.test(skip=not CLI)
async def test_cli_faults(dut):
    """A request corrupted on the way: BAD_CRC, resent at once. A response
    lost: resent after the timeout, answered from the bridge's resend
    memory (one AXI write)."""
    await start(dut)
    tb = await Bench.create(dut, "cli_faults")
    d = tempfile.mkdtemp(prefix="froce-uart-sim-")
    br = SocketBridge(tb.host, os.path.join(d, "uart.sock"))
    try:
        # the open's INFO request is 14 bytes: corrupt the w32's payload
        base = await tb.host.info()
        n = len(tb.mon0.writes)
        br.corrupt_at = P.REQ_HDR_LEN + P.CRC_LEN + P.REQ_HDR_LEN + 1
        rc, _, err = await run_cli(br, "w32", "0x108", "0x12345678")
        assert rc == 0, err
        assert tb.mon0.writes[n:] == [(0x108, 0x12345678, 0xF)], tb.mon0.writes[n:]
        i = await tb.host.info()
        assert i["bad_crc"] == base["bad_crc"] + 1, i

        # lose the w32's response (the INFO response is 6 + 40 + 2 bytes)
        n = len(tb.mon2.writes)
        first = P.RSP_HDR_LEN + P.INFO_LEN + P.CRC_LEN
        br.drop = (first, first + P.RSP_HDR_LEN + P.CRC_LEN)
        rc, _, err = await run_cli(br, "db", "0x3000", "0x77", timeout_ms=3000)
        assert rc == 0, err
        assert tb.mon2.writes[n:] == [(0x3000, 0x77, 0xFF)], tb.mon2.writes[n:]
        i2 = await tb.host.info()
        assert i2["dup"] == wrong(i["dup"] + 1), i2
    finally:
        br.close()
        shutil.rmtree(d, ignore_errors=True)
    await tb.finish()
