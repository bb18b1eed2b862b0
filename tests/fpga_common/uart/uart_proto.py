# SPDX-License-Identifier: MIT
"""The UART host-link protocol for the benches, with its numbers read from
fpga/common/host/froce_uart_proto.h (the single source the C library and
the RTL check use): request encoding, a strict response/interrupt frame
decoder and the CRC.

    P = proto()            # namespace: P.CMD_INFO, P.STATUS_OK, ...
    frame = request(P.CMD_MEM_WR, tag, addr, data=b"...")
"""

import binascii
import os
import re
import struct
import types

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
HEADER = os.path.join(ROOT, "fpga", "common", "host", "froce_uart_proto.h")


def read_header(path=HEADER):
    """{NAME: int} of every '#define FROCE_UART_NAME <literal>' line."""
    out = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*#define\s+FROCE_UART_(\w+)\s+(0[xX][0-9a-fA-F]+|\d+)\s*(/\*.*)?$", line)
            if m:
                out[m.group(1)] = int(m.group(2), 0)
    return out


_P = None


def proto():
    global _P
    if _P is None:
        _P = types.SimpleNamespace(**read_header())
        # the bench relies on these; a header without them is a bench error
        for name in ("SOF_REQ", "SOF_RSP", "SOF_IRQ", "CMD_INFO", "CMD_MEM_WR", "STATUS_OK", "INFO_LEN", "CRC_INIT"):
            assert hasattr(_P, name), f"{HEADER}: no FROCE_UART_{name}"
    return _P


def crc16(data, crc=None):
    """CRC-16/CCITT-FALSE (binascii.crc_hqx is exactly that with init 0xFFFF)."""
    P = proto()
    assert P.CRC_POLY == 0x1021
    return binascii.crc_hqx(bytes(data), P.CRC_INIT if crc is None else crc)


def request(cmd, tag, addr=0, data=None, length=None):
    """A request frame. data: the payload (commands with the payload flag);
    length: the byte count (default len(data), or 4 for reads)."""
    P = proto()
    if length is None:
        length = len(data) if data else 4
    assert 1 <= length <= 256
    hdr = bytes([P.SOF_REQ, cmd & 0xFF, tag & 0xFF, (length - 1) & 0xFF]) + struct.pack("<Q", addr & (2**64 - 1))
    body = hdr + (bytes(data) if cmd & P.CMD_PAYLOAD_FLAG else b"")
    return body + struct.pack("<H", crc16(body))


class Frame(types.SimpleNamespace):
    """A decoded device frame: cmd, tag, status, data (bytes), raw (bytes)."""

    @property
    def is_irq(self):
        return self.sof == proto().SOF_IRQ

    def info(self):
        """The INFO response's fields as a dict."""
        P = proto()
        d = self.data
        assert len(d) == P.INFO_LEN, len(d)

        def u(off, n):
            return int.from_bytes(d[off:off + n], "little")

        return {
            "magic": u(P.INFO_OFF_MAGIC, 4), "version": d[P.INFO_OFF_VERSION],
            "bar0_aw": d[P.INFO_OFF_BAR0_AW], "bar2_aw": d[P.INFO_OFF_BAR2_AW],
            "vectors": d[P.INFO_OFF_VECTORS], "mem_base": u(P.INFO_OFF_MEM_BASE, 8),
            "mem_size": u(P.INFO_OFF_MEM_SIZE, 8), "framing": u(P.INFO_OFF_CNT_FRAMING, 2),
            "overrun": u(P.INFO_OFF_CNT_OVERRUN, 2), "bad_crc": u(P.INFO_OFF_CNT_BAD_CRC, 2),
            "timeout": u(P.INFO_OFF_CNT_TIMEOUT, 2), "user_id": u(P.INFO_OFF_USER_ID, 4),
            "dup": u(P.INFO_OFF_CNT_DUP, 2), "irq": u(P.INFO_OFF_CNT_IRQ, 2),
        }


class FrameError(AssertionError):
    pass


class Decoder:
    """Strict decoder of the device's byte stream: in the bench the wire is
    clean, so every byte must belong to a well-formed frame with a good CRC
    (anything else is a DUT bug and raises FrameError)."""

    def __init__(self):
        self.buf = bytearray()

    def feed(self, data):
        self.buf += data

    def pop(self):
        """The next complete frame, or None."""
        P = proto()
        b = self.buf
        if not b:
            return None
        if b[0] not in (P.SOF_RSP, P.SOF_IRQ):
            raise FrameError(f"byte {b[0]:#04x} where a frame must start ({bytes(b[:16]).hex()})")
        if len(b) < P.RSP_HDR_LEN:
            return None
        dlen = b[4] | b[5] << 8
        if dlen > P.MAX_DATA:
            raise FrameError(f"DLEN {dlen} in {bytes(b[:6]).hex()}")
        n = P.RSP_HDR_LEN + dlen + P.CRC_LEN
        if len(b) < n:
            return None
        raw = bytes(b[:n])
        del b[:n]
        crc = raw[-2] | raw[-1] << 8
        if crc != crc16(raw[:-2]):
            raise FrameError(f"bad CRC {crc:#06x} in {raw.hex()}")
        f = Frame(sof=raw[0], cmd=raw[1], tag=raw[2], status=raw[3], data=raw[P.RSP_HDR_LEN:-2], raw=raw)
        if f.is_irq and (f.cmd, f.status, len(f.data)) != (P.CMD_IRQ, P.STATUS_OK, P.IRQ_LEN):
            raise FrameError(f"malformed interrupt frame {raw.hex()}")
        return f
