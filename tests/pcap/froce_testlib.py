"""Shared helpers for the froce-pcap test suite (tests/pcap).

Independent of the RTL: everything here is written from the InfiniBand / RoCE
specifications and the rules in tests/vectors/rxe/README.md, and is itself
checked against the Linux rxe golden vectors (icrc_vectors.csv) and against
scapy.contrib.roce (test_icrc_model.py).

Contents
  * paths: repo root, golden vectors (env FROCE_VECTORS), tool (env FROCE_PCAP)
  * a small pcap reader/writer (classic pcap both byte orders, usec/nsec; the
    reader also takes pcapng) -- no scapy needed, fast, handles 0-byte frames
  * ICRC for RoCE v2 over IPv4 and IPv6 and for RoCE v1 (Ethertype 0x8915)
  * an independent reference decoder, analyze(frame), that produces the
    fields froce-pcap is expected to print and a reference verdict
  * running `froce-pcap check` / `rebuild` and parsing their output
  * comparison helpers that fail with a precise message

Only the Python standard library is used here; scapy and tshark are used by
the individual tests.
"""

import ipaddress
import os
import shlex
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

# --------------------------------------------------------------------------
# paths and environment

REPO = Path(__file__).resolve().parents[2]
VECTORS = Path(os.environ.get("FROCE_VECTORS", str(REPO / "tests" / "vectors" / "rxe")))
TOOL = Path(os.environ.get("FROCE_PCAP", str(REPO / "build" / "bin" / "froce-pcap")))
TSHARK = os.environ.get("TSHARK", "tshark")
SEED = int(os.environ.get("FROCE_SEED", "12345"), 0)
# Seconds per frame allowed to the tool on top of a fixed allowance (a hang is a
# failure).  The brief assumes ~10k frames/s; we allow 20x slower than that.
TIMEOUT_BASE = float(os.environ.get("FROCE_TIMEOUT_BASE", "30"))
TIMEOUT_PER_FRAME = float(os.environ.get("FROCE_TIMEOUT_PER_FRAME", "0.002"))

RXE_PCAPS = [
    "rxe_rc_send_roce_only.pcap",
    "rxe_rdma_write_roce_only.pcap",
    "rxe_rdma_read_roce_only.pcap",
    "rxe_ud_send_roce_only.pcap",
    "rxe_uc_send_roce_only.pcap",
    "rxe_ipv6_roce_only.pcap",
    "rxe_vlan_roce_only.pcap",
]

ROCE_UDP_PORT = 4791
ETH_P_IPV4, ETH_P_IPV6, ETH_P_8021Q, ETH_P_ROCEV1 = 0x0800, 0x86DD, 0x8100, 0x8915
GRH_NXTHDR_IBA = 0x1B
MAX_PAYLOAD = 4096  # largest IB path MTU

VERDICTS = {"ok", "icrc-bad", "not-roce", "truncated", "bad-length", "bad-version",
            "bad-opcode", "ip-csum", "oversize"}
MALFORMED = VERDICTS - {"ok", "icrc-bad", "not-roce"}
KINDS = {"v2-ipv4", "v2-ipv6", "v1", "not-roce"}


class TestFailure(Exception):
    pass


def fail(msg):
    raise TestFailure(msg)


def check(cond, msg):
    if not cond:
        fail(msg)


def log(msg):
    print(msg, flush=True)


def run_main(fn):
    """Run a test body; print `ok` on success, a precise message and exit 1 on failure."""
    try:
        fn()
    except TestFailure as e:
        print(f"FAIL: {e}", flush=True)
        sys.exit(1)
    print("ok", flush=True)


def tool_available():
    return TOOL.is_file() and os.access(TOOL, os.X_OK)


def require_tool():
    check(tool_available(),
          f"froce-pcap not found or not executable at {TOOL} (build it, or set FROCE_PCAP)")


def require_vectors():
    for name in RXE_PCAPS + ["icrc_vectors.csv"]:
        check((VECTORS / name).is_file(),
              f"golden vector {VECTORS / name} missing (set FROCE_VECTORS to the rxe vector folder)")


# --------------------------------------------------------------------------
# pcap I/O

PCAP_MAGICS = {
    b"\xd4\xc3\xb2\xa1": ("<", 1e-6), b"\xa1\xb2\xc3\xd4": (">", 1e-6),
    b"\x4d\x3c\xb2\xa1": ("<", 1e-9), b"\xa1\xb2\x3c\x4d": (">", 1e-9),
}


def read_pcap(path):
    """Return the list of frames (bytes) of a pcap or pcapng file (Ethernet only)."""
    data = Path(path).read_bytes()
    check(len(data) >= 24, f"{path}: not a pcap file ({len(data)} bytes)")
    if data[:4] == b"\x0a\x0d\x0d\x0a":
        return _read_pcapng(path, data)
    check(data[:4] in PCAP_MAGICS, f"{path}: bad pcap magic {data[:4].hex()}")
    e, _ = PCAP_MAGICS[data[:4]]
    linktype = struct.unpack(e + "I", data[20:24])[0] & 0x0FFFFFFF
    check(linktype == 1, f"{path}: link type {linktype}, expected 1 (Ethernet)")
    frames, off = [], 24
    while off < len(data):
        check(off + 16 <= len(data), f"{path}: truncated record header at offset {off}")
        _, _, incl, orig = struct.unpack(e + "IIII", data[off:off + 16])
        off += 16
        check(off + incl <= len(data), f"{path}: truncated record data at offset {off}")
        check(incl == orig, f"{path}: record {len(frames) + 1} captured {incl} of {orig} bytes")
        frames.append(data[off:off + incl])
        off += incl
    return frames


def _read_pcapng(path, data):
    frames, off, e = [], 0, "<"
    while off + 12 <= len(data):
        btype = data[off:off + 4]
        if btype == b"\x0a\x0d\x0d\x0a":
            e = "<" if data[off + 8:off + 12] == b"\x4d\x3c\x2b\x1a" else ">"
        btype, blen = struct.unpack(e + "II", data[off:off + 8])
        check(blen >= 12 and off + blen <= len(data), f"{path}: bad pcapng block at {off}")
        body = data[off + 8:off + blen - 4]
        if btype == 1:
            check(struct.unpack(e + "H", body[:2])[0] == 1, f"{path}: pcapng link type not Ethernet")
        elif btype == 6:
            incl, orig = struct.unpack(e + "II", body[12:20])
            check(incl == orig, f"{path}: pcapng packet {len(frames) + 1} truncated")
            frames.append(body[20:20 + incl])
        elif btype == 3:
            orig = struct.unpack(e + "I", body[:4])[0]
            frames.append(body[4:4 + orig])
        off += blen
    return frames


def write_pcap(path, frames):
    """Write frames as a classic little-endian microsecond pcap, LINKTYPE_ETHERNET.

    snaplen is 262144 (libpcap's maximum for Ethernet) so that oversize frames
    reach the tool whole."""
    out = [struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1)]
    for i, fr in enumerate(frames):
        out.append(struct.pack("<IIII", 1700000000 + i // 1000, (i % 1000) * 1000, len(fr), len(fr)))
        out.append(bytes(fr))
    Path(path).write_bytes(b"".join(out))


# --------------------------------------------------------------------------
# checksums and ICRC

def ipv4_checksum(hdr):
    """Internet checksum of an IPv4 header whose checksum field is treated as 0."""
    h = bytearray(hdr)
    h[10:12] = b"\0\0"
    if len(h) % 2:
        h.append(0)
    s = sum(struct.unpack(f">{len(h) // 2}H", bytes(h)))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def l2_info(fr):
    """(l3_offset, ethertype, vlan) for a frame with >= 14 bytes; vlan is (vid, pcp) or None.
    Returns None when the frame is too short to tell."""
    if len(fr) < 14:
        return None
    et = struct.unpack(">H", fr[12:14])[0]
    if et == ETH_P_8021Q:
        if len(fr) < 18:
            return None
        tci, et = struct.unpack(">HH", fr[14:18])
        return 18, et, (tci & 0xFFF, tci >> 13)
    return 14, et, None


def icrc_input(fr, l3, kind, ib_end):
    """The byte string the ICRC CRC-32 runs over (README rule), for a frame
    whose L3 header starts at l3 and whose IB packet (BTH..ICRC) ends at ib_end."""
    b = bytearray(fr[l3:ib_end - 4])
    if kind == "v2-ipv4":
        ihl = (b[0] & 0xF) * 4
        b[1] = 0xFF          # TOS (DSCP + ECN)
        b[8] = 0xFF          # TTL
        b[10:12] = b"\xff\xff"  # header checksum
        udp = ihl
        b[udp + 6:udp + 8] = b"\xff\xff"  # UDP checksum
        bth = udp + 8
    elif kind in ("v2-ipv6", "v1"):
        b[0] |= 0x0F         # traffic class (high nibble)
        b[1:4] = b"\xff\xff\xff"  # traffic class (low nibble) + flow label
        b[7] = 0xFF          # hop limit
        if kind == "v2-ipv6":
            b[40 + 6:40 + 8] = b"\xff\xff"  # UDP checksum
            bth = 48
        else:
            bth = 40
    else:
        raise ValueError(kind)
    b[bth + 4] = 0xFF        # BTH FECN, BECN, resv6a
    return b"\xff" * 8 + bytes(b)


def icrc_value(fr, l3, kind, ib_end):
    """ICRC as it goes on the wire (4 bytes, CRC-32 least significant byte first)."""
    return struct.pack("<I", zlib.crc32(icrc_input(fr, l3, kind, ib_end)) & 0xFFFFFFFF)


def roce_geometry(fr):
    """(kind, l3, ib_start, ib_end) of a well-formed-enough RoCE frame, from the
    length fields of its headers (not from the frame length: Ethernet padding
    may follow).  ib_start = BTH offset, ib_end = offset just past the ICRC."""
    l2 = l2_info(fr)
    if l2 is None:
        raise ValueError("frame too short")
    l3, et, _ = l2
    if et == ETH_P_IPV4:
        ihl = (fr[l3] & 0xF) * 4
        tot = struct.unpack(">H", fr[l3 + 2:l3 + 4])[0]
        return "v2-ipv4", l3, l3 + ihl + 8, l3 + tot
    if et == ETH_P_IPV6:
        plen = struct.unpack(">H", fr[l3 + 4:l3 + 6])[0]
        return "v2-ipv6", l3, l3 + 48, l3 + 40 + plen
    if et == ETH_P_ROCEV1:
        plen = struct.unpack(">H", fr[l3 + 4:l3 + 6])[0]
        return "v1", l3, l3 + 40, l3 + 40 + plen
    raise ValueError(f"not a RoCE ethertype 0x{et:04x}")


def compute_icrc(fr):
    kind, l3, _, ib_end = roce_geometry(fr)
    return icrc_value(fr, l3, kind, ib_end)


def fix_icrc(fr):
    """Return the frame with the ICRC (at the end of the IB packet) recomputed."""
    kind, l3, _, ib_end = roce_geometry(fr)
    b = bytearray(fr)
    b[ib_end - 4:ib_end] = icrc_value(fr, l3, kind, ib_end)
    return bytes(b)


def fix_ipv4_csum(fr):
    l3, et, _ = l2_info(fr)
    assert et == ETH_P_IPV4
    ihl = (fr[l3] & 0xF) * 4
    b = bytearray(fr)
    b[l3 + 10:l3 + 12] = struct.pack(">H", ipv4_checksum(b[l3:l3 + ihl]))
    return bytes(b)


# --------------------------------------------------------------------------
# IBA opcodes and extension headers

EXT_LEN = {"RDETH": 4, "DETH": 8, "RETH": 16, "AtomicETH": 28, "AETH": 4,
           "AtomicAckETH": 8, "ImmDt": 4, "IETH": 4}

_BASE = {
    0x00: ("SEND_FIRST", []), 0x01: ("SEND_MIDDLE", []), 0x02: ("SEND_LAST", []),
    0x03: ("SEND_LAST_WITH_IMMEDIATE", ["ImmDt"]), 0x04: ("SEND_ONLY", []),
    0x05: ("SEND_ONLY_WITH_IMMEDIATE", ["ImmDt"]),
    0x06: ("RDMA_WRITE_FIRST", ["RETH"]), 0x07: ("RDMA_WRITE_MIDDLE", []),
    0x08: ("RDMA_WRITE_LAST", []), 0x09: ("RDMA_WRITE_LAST_WITH_IMMEDIATE", ["ImmDt"]),
    0x0A: ("RDMA_WRITE_ONLY", ["RETH"]), 0x0B: ("RDMA_WRITE_ONLY_WITH_IMMEDIATE", ["RETH", "ImmDt"]),
}
OPCODES = {}
for _op, (_n, _e) in _BASE.items():
    OPCODES[0x00 | _op] = ("RC_" + _n, _e)
    OPCODES[0x20 | _op] = ("UC_" + _n, _e)
OPCODES.update({
    0x0C: ("RC_RDMA_READ_REQUEST", ["RETH"]),
    0x0D: ("RC_RDMA_READ_RESPONSE_FIRST", ["AETH"]),
    0x0E: ("RC_RDMA_READ_RESPONSE_MIDDLE", []),
    0x0F: ("RC_RDMA_READ_RESPONSE_LAST", ["AETH"]),
    0x10: ("RC_RDMA_READ_RESPONSE_ONLY", ["AETH"]),
    0x11: ("RC_ACKNOWLEDGE", ["AETH"]),
    0x12: ("RC_ATOMIC_ACKNOWLEDGE", ["AETH", "AtomicAckETH"]),
    0x13: ("RC_COMPARE_SWAP", ["AtomicETH"]),
    0x14: ("RC_FETCH_ADD", ["AtomicETH"]),
    0x16: ("RC_SEND_LAST_WITH_INVALIDATE", ["IETH"]),
    0x17: ("RC_SEND_ONLY_WITH_INVALIDATE", ["IETH"]),
    0x64: ("UD_SEND_ONLY", ["DETH"]),
    0x65: ("UD_SEND_ONLY_WITH_IMMEDIATE", ["DETH", "ImmDt"]),
    0x81: ("CNP", []),
})
OPC = {name: op for op, (name, _) in OPCODES.items()}
# Opcodes whose status is not fixed by the brief (not in the known set above,
# but a design might implement them): XRC (0xA0-0xB7, adds an XRCETH) and the
# IBA 1.5 RC FLUSH / ATOMIC WRITE (0x1C, 0x1D).  Tests never require a
# particular verdict for these; they only require "not ok".
AMBIGUOUS_OPCODES = set(range(0xA0, 0xB8)) | {0x1C, 0x1D}
# Opcodes the brief names as unknown (RD 0x40.., 0xff) and others that no
# supported transport defines: must give verdict bad-opcode.
UNKNOWN_OPCODES = sorted(set(range(256)) - set(OPCODES) - AMBIGUOUS_OPCODES)


def ext_headers(opcode):
    return OPCODES[opcode][1]


def ext_len(opcode):
    return sum(EXT_LEN[h] for h in ext_headers(opcode))


def decode_ext(opcode, b):
    """Fields of the extension headers of `opcode` from bytes b (starting right
    after the BTH).  Returns a dict of contract keys -> int."""
    out, off = {}, 0
    for h in ext_headers(opcode):
        x = b[off:off + EXT_LEN[h]]
        if h == "RETH":
            out["va"], out["rkey"], out["dmalen"] = struct.unpack(">QII", x)
        elif h == "AETH":
            out["syndrome"] = x[0]
            out["msn"] = int.from_bytes(x[1:4], "big")
        elif h == "DETH":
            out["qkey"] = struct.unpack(">I", x[0:4])[0]
            out["sqpn"] = int.from_bytes(x[5:8], "big")
        elif h == "ImmDt":
            out["imm"] = struct.unpack(">I", x)[0]
        elif h == "IETH":
            out["ieth_rkey"] = struct.unpack(">I", x)[0]
        elif h == "AtomicETH":
            out["va"], out["rkey"], out["swap"], out["cmp"] = struct.unpack(">QIQQ", x)
        elif h == "AtomicAckETH":
            out["orig"] = struct.unpack(">Q", x)[0]
        off += EXT_LEN[h]
    return out


# --------------------------------------------------------------------------
# contract field formats

HEX_WIDTH = {"opcode": 2, "dqpn": 6, "pkey": 4, "tclass": 2, "va": 16, "rkey": 8,
             "syndrome": 2, "qkey": 8, "sqpn": 6, "imm": 8, "ieth_rkey": 8,
             "swap": 16, "cmp": 16, "orig": 16}
DEC_KEYS = {"frame", "len", "psn", "se", "m", "pad", "tver", "fecn", "becn", "ackreq",
            "ttl", "sport", "paylen", "dmalen", "msn"}
BTH_KEYS = ["opcode", "dqpn", "psn", "se", "m", "pad", "tver", "pkey", "fecn", "becn", "ackreq"]
L2_KEYS = ["dmac", "smac", "vlan"]
L3_KEYS = ["sip", "dip", "tclass", "ttl"]
EXT_KEYS = ["va", "rkey", "dmalen", "syndrome", "msn", "qkey", "sqpn", "imm", "ieth_rkey",
            "swap", "cmp", "orig"]
ALL_FIELD_KEYS = set(BTH_KEYS + L2_KEYS + L3_KEYS + ["sport", "paylen"] + EXT_KEYS)
LINE_ORDER = (["frame", "len", "kind", "verdict", "icrc"] + BTH_KEYS + L2_KEYS + L3_KEYS
              + ["sport", "paylen"] + EXT_KEYS)


def fmt_value(key, v):
    """Contract text of a field value (ints for numeric keys)."""
    if key in HEX_WIDTH:
        return f"0x{v:0{HEX_WIDTH[key]}x}"
    return str(v)


def mac_str(b):
    return ":".join(f"{x:02x}" for x in b)


def norm_value(key, text):
    """Normalise a printed value for comparison; raises ValueError when malformed."""
    if key in HEX_WIDTH:
        if not text.lower().startswith("0x"):
            raise ValueError("expected 0x-prefixed hex")
        return int(text, 16)
    if key in DEC_KEYS:
        if not text.isdigit():
            raise ValueError("expected a decimal number")
        return int(text)
    if key in ("dmac", "smac"):
        parts = text.split(":")
        if len(parts) != 6 or any(len(p) != 2 for p in parts):
            raise ValueError("expected xx:xx:xx:xx:xx:xx")
        return bytes(int(p, 16) for p in parts)
    if key in ("sip", "dip"):
        return ipaddress.ip_address(text)
    if key == "vlan":
        if text == "-":
            return None
        vid, pcp = text.split("/")
        return int(vid), int(pcp)
    return text


# --------------------------------------------------------------------------
# the reference decoder

class Analysis:
    """Result of analyze(frame).

    kind      v2-ipv4 / v2-ipv6 / v1 / not-roce, or None when the frame ends
              before it can be classified (e.g. cut inside the IP header)
    verdict   the reference verdict (one of VERDICTS)
    alt       verdicts also acceptable because the contract leaves the choice
              open for this frame (always contains verdict)
    icrc      'ok' / 'bad' when the ICRC can be located, else '-'
    fields    every contract field decodable from the bytes present: key -> str
    """

    def __init__(self, frame):
        self.frame = frame
        self.kind = None
        self.verdict = None
        self.alt = set()
        self.icrc = "-"
        self.fields = {"len": str(len(frame))}
        self.notes = []

    def set(self, verdict, kind, *alt):
        self.verdict = verdict
        if kind is not None or self.kind is None:
            self.kind = kind
        self.alt = {verdict, *alt}
        return self

    def line_fields(self):
        """The key=value set the reference model prints (used by the mock)."""
        if self.verdict == "not-roce":
            return {"len": self.fields["len"]}
        f = dict(self.fields)
        if self.verdict != "ok":
            f.pop("paylen", None)
        return f


MAX_FRAME = 9216  # the parser's MAX_FRAME_BYTES (frames without the FCS)


def analyze(fr):
    """Independent decoding of one Ethernet frame into contract fields + verdict."""
    a = analyze_headers(fr)
    # a frame longer than MAX_FRAME is oversize unless its headers are
    # already wrong: the parser's frame-length check comes after the header
    # checks and before the not-RoCE pass and the ICRC
    if len(fr) > MAX_FRAME and a.verdict in ("not-roce", "ok", "icrc-bad"):
        a.set("oversize", a.kind)
    return a


def analyze_headers(fr):
    """analyze() before the frame-length limit."""
    fr = bytes(fr)
    a = Analysis(fr)
    f = a.fields
    L = len(fr)
    if L < 14:
        return a.set("not-roce", None, "truncated")
    f["dmac"], f["smac"] = mac_str(fr[0:6]), mac_str(fr[6:12])
    l2 = l2_info(fr)
    if l2 is None:
        return a.set("not-roce", None, "truncated")
    l3, et, vlan = l2
    f["vlan"] = "-" if vlan is None else f"{vlan[0]}/{vlan[1]}"

    def have(n):
        return L >= n

    # ---- L3 / L4 classification
    if et == ETH_P_IPV4:
        if not have(l3 + 1):
            return a.set("not-roce", None, "truncated")
        if fr[l3] >> 4 != 4:
            return a.set("not-roce", "not-roce", "bad-version", "ip-csum")
        if (fr[l3] & 0xF) != 5:
            # options (or an impossible IHL): not RoCE per the brief
            return a.set("not-roce", "not-roce", "bad-length", "ip-csum", "truncated")
        if not have(l3 + 20):
            if have(l3 + 10) and fr[l3 + 9] != 17:
                return a.set("not-roce", "not-roce", "truncated")
            return a.set("not-roce", None, "truncated")
        ip = fr[l3:l3 + 20]
        f["sip"] = str(ipaddress.IPv4Address(ip[12:16]))
        f["dip"] = str(ipaddress.IPv4Address(ip[16:20]))
        f["tclass"] = fmt_value("tclass", ip[1])
        f["ttl"] = str(ip[8])
        csum_ok = ipv4_checksum(ip) == struct.unpack(">H", ip[10:12])[0]
        frag = struct.unpack(">H", ip[6:8])[0]
        if ip[9] != 17 or (frag & 0x3FFF):
            return a.set("not-roce", "not-roce", *(() if csum_ok else ("ip-csum",)))
        if not have(l3 + 24):
            return a.set("not-roce", None, "truncated", *(() if csum_ok else ("ip-csum",)))
        l4 = l3 + 20
        if struct.unpack(">H", fr[l4 + 2:l4 + 4])[0] != ROCE_UDP_PORT:
            return a.set("not-roce", "not-roce", *(() if csum_ok else ("ip-csum",)))
        if not have(l4 + 8):
            # RoCE by its port, but a design may classify only on a whole UDP header
            return a.set("truncated", None, "not-roce", *(() if csum_ok else ("ip-csum",)))
        a.kind = "v2-ipv4"
        f["sport"] = str(struct.unpack(">H", fr[l4:l4 + 2])[0])
        if not csum_ok:
            return a.set("ip-csum", "v2-ipv4")
        ip_end = l3 + struct.unpack(">H", ip[2:4])[0]
        if ip_end < l4 + 8:
            return a.set("bad-length", "v2-ipv4")
        bth = l4 + 8
    elif et in (ETH_P_IPV6, ETH_P_ROCEV1):
        v1 = et == ETH_P_ROCEV1
        if not have(l3 + 7):
            if have(l3 + 1) and fr[l3] >> 4 != 6:
                return a.set("not-roce", "not-roce", "bad-version", "truncated")
            return a.set("truncated" if v1 else "not-roce", None, "not-roce" if v1 else "truncated")
        if fr[l3] >> 4 != 6:
            return a.set("not-roce", "not-roce", "bad-version")
        if fr[l3 + 6] != (GRH_NXTHDR_IBA if v1 else 17):
            return a.set("not-roce", "not-roce")
        if not have(l3 + 40):
            if have(l3 + 8):
                f["tclass"] = fmt_value("tclass", ((fr[l3] & 0xF) << 4) | (fr[l3 + 1] >> 4))
                f["ttl"] = str(fr[l3 + 7])
            return a.set("truncated" if v1 else "not-roce", "v1" if v1 else None,
                         "not-roce" if v1 else "truncated")
        ip = fr[l3:l3 + 40]
        f["sip"] = str(ipaddress.IPv6Address(ip[8:24]))
        f["dip"] = str(ipaddress.IPv6Address(ip[24:40]))
        f["tclass"] = fmt_value("tclass", ((ip[0] & 0xF) << 4) | (ip[1] >> 4))
        f["ttl"] = str(ip[7])
        ip_end = l3 + 40 + struct.unpack(">H", ip[4:6])[0]
        if v1:
            a.kind = "v1"
            bth = l3 + 40
        else:
            l4 = l3 + 40
            if not have(l4 + 4):
                return a.set("not-roce", None, "truncated")
            if struct.unpack(">H", fr[l4 + 2:l4 + 4])[0] != ROCE_UDP_PORT:
                return a.set("not-roce", "not-roce")
            if not have(l4 + 8):
                return a.set("truncated", None, "not-roce")
            a.kind = "v2-ipv6"
            f["sport"] = str(struct.unpack(">H", fr[l4:l4 + 2])[0])
            bth = l4 + 8
            if ip_end < bth:
                return a.set("bad-length", "v2-ipv6", "truncated")
    else:
        return a.set("not-roce", "not-roce")
    kind = a.kind

    # ---- UDP length vs IP length (v2 only)
    if kind != "v1" and have(bth - 8 + 6):
        udp_len = struct.unpack(">H", fr[bth - 4:bth - 2])[0]
        if udp_len != ip_end - (bth - 8):
            return a.set("bad-length", kind, "truncated" if ip_end > L else "bad-length")

    # ---- BTH
    if have(bth + 12):
        b = fr[bth:bth + 12]
        opcode = b[0]
        f.update({
            "opcode": fmt_value("opcode", opcode), "se": str(b[1] >> 7), "m": str((b[1] >> 6) & 1),
            "pad": str((b[1] >> 4) & 3), "tver": str(b[1] & 0xF),
            "pkey": fmt_value("pkey", struct.unpack(">H", b[2:4])[0]),
            "fecn": str(b[4] >> 7), "becn": str((b[4] >> 6) & 1),
            "dqpn": fmt_value("dqpn", int.from_bytes(b[5:8], "big")),
            "ackreq": str(b[8] >> 7), "psn": str(int.from_bytes(b[9:12], "big")),
        })
        if opcode in OPCODES:
            el = ext_len(opcode)
            if have(bth + 12 + el):
                for k, v in decode_ext(opcode, fr[bth + 12:bth + 12 + el]).items():
                    f[k] = fmt_value(k, v)
    elif ip_end <= L:
        # the IP length says the IB packet is shorter than a BTH
        return a.set("bad-length", kind, "truncated")

    if ip_end > L:
        # a length field claiming more than the largest RoCE packet may be called oversize
        return a.set("truncated", kind, *(("oversize",) if ip_end - bth > MAX_PAYLOAD else ()))
    if ip_end - bth < 12 + 4:
        return a.set("bad-length", kind, "truncated")
    # the ICRC is located by now: report whether it matches, whatever the verdict
    a.icrc = "ok" if icrc_value(fr, l3, kind, ip_end) == fr[ip_end - 4:ip_end] else "bad"
    if b[1] & 0xF != 0:
        return a.set("bad-version", kind)
    if opcode in AMBIGUOUS_OPCODES:
        a.notes.append(f"opcode 0x{opcode:02x} has no fixed verdict")
        return a.set("bad-opcode", kind, "icrc-bad", "bad-length", "truncated")
    if opcode not in OPCODES:
        return a.set("bad-opcode", kind)
    el = ext_len(opcode)
    pad = (b[1] >> 4) & 3
    paylen = ip_end - bth - 12 - el - 4 - pad
    if paylen < 0:
        return a.set("bad-length", kind, "truncated")
    f["paylen"] = str(paylen)
    if paylen > MAX_PAYLOAD:
        return a.set("oversize", kind)
    if a.icrc == "bad":
        return a.set("icrc-bad", kind)
    return a.set("ok", kind)


def expected_ok_fields(fr):
    """Contract fields of a frame that must decode with verdict ok."""
    a = analyze(fr)
    check(a.verdict == "ok", f"internal: reference decoder says {a.verdict} for a frame "
          f"expected to be good: {fr.hex()}")
    keys = [k for k in LINE_ORDER if k in a.fields]
    return {k: a.fields[k] for k in keys}


def format_line(n, a):
    f = a.line_fields()
    parts = [f"frame={n}", f"len={f['len']}", f"kind={a.kind or 'not-roce'}",
             f"verdict={a.verdict}", f"icrc={a.icrc if a.verdict not in ('not-roce', 'truncated') else '-'}"]
    parts += [f"{k}={f[k]}" for k in LINE_ORDER[5:] if k in f]
    return " ".join(parts)


# --------------------------------------------------------------------------
# running the tool

def parse_kv(line):
    d = {}
    for tok in line.split():
        k, eq, v = tok.partition("=")
        if not eq:
            fail(f"token {tok!r} is not key=value in line: {line}")
        if k in d:
            fail(f"key {k} appears twice in line: {line}")
        d[k] = v
    return d


class CheckRun:
    def __init__(self, cmd, lines, summary, other):
        self.cmd, self.lines, self.summary, self.other = cmd, lines, summary, other


def run_tool(args, nframes=0, timeout=None):
    """Run froce-pcap with args; return CompletedProcess. Fails on timeout."""
    require_tool()
    if timeout is None:
        timeout = TIMEOUT_BASE + TIMEOUT_PER_FRAME * nframes
    cmd = [str(TOOL)] + [str(x) for x in args]
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        fail(f"`{shlex.join(cmd)}` did not finish within {timeout:.0f} s ({nframes} frames): hang?")


def check_args(width=64, seed=None, stall=None):
    a = ["--width", str(width)]
    if seed is not None:
        a += ["--seed", str(seed)]
    if stall is not None:
        a += ["--stall", str(stall)]
    return a


def run_check(pcap, nframes, width=64, seed=None, stall=None):
    """Run `froce-pcap check`, validate the output structure (one line per frame
    numbered 1..nframes, a summary line that agrees with the lines, exit 0) and
    return a CheckRun whose .lines are dicts of the per-frame key=value lines."""
    args = ["check", pcap] + check_args(width, seed, stall)
    p = run_tool(args, nframes)
    cmd = shlex.join([str(TOOL)] + [str(x) for x in args])
    check(p.returncode == 0, f"`{cmd}` exited {p.returncode}; stderr: {p.stderr.strip()[-2000:]}")
    lines, summary, other = [], None, []
    for raw in p.stdout.splitlines():
        s = raw.strip()
        if s.startswith("frame="):
            check(summary is None, f"`{cmd}`: frame line after the summary: {s}")
            lines.append(parse_kv(s))
        elif s.startswith("summary:"):
            check(summary is None, f"`{cmd}`: two summary lines")
            summary = parse_kv(s[len("summary:"):])
        elif s:
            other.append(s)
    check(summary is not None, f"`{cmd}`: no summary line in output")
    check(len(lines) == nframes,
          f"`{cmd}`: {len(lines)} frame lines for {nframes} frames in the pcap")
    counts = {"ok": 0, "icrc-bad": 0, "not-roce": 0, "malformed": 0}
    for i, d in enumerate(lines, 1):
        if d.get("frame") != str(i):
            fail(f"`{cmd}`: line {i} has frame={d.get('frame')}, expected {i}")
        for k in ("len", "kind", "verdict", "icrc"):
            if k not in d:
                fail(f"`{cmd}`: frame {i}: key {k} missing: {fmt_line(d)}")
        if d["kind"] not in KINDS:
            fail(f"`{cmd}`: frame {i}: unknown kind {d['kind']}")
        if d["verdict"] not in VERDICTS:
            fail(f"`{cmd}`: frame {i}: unknown verdict {d['verdict']}")
        if d["icrc"] not in ("ok", "bad", "-"):
            fail(f"`{cmd}`: frame {i}: bad icrc value {d['icrc']}")
        v = d["verdict"]
        counts[v if v in counts else "malformed"] += 1
    want = {"frames": nframes, "ok": counts["ok"], "icrc_bad": counts["icrc-bad"],
            "not_roce": counts["not-roce"], "malformed": counts["malformed"]}
    for k, n in want.items():
        check(summary.get(k) == str(n),
              f"`{cmd}`: summary {k}={summary.get(k)} but the frame lines give {n}")
    return CheckRun(cmd, lines, summary, other)


JOBS = max(1, int(os.environ.get("FROCE_JOBS", "2")))


def run_check_modes(pcap, nframes, modes):
    """run_check() for each mode (a dict of run_check keyword arguments), up to
    FROCE_JOBS (default 2) tool processes at a time; results in mode order."""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=JOBS) as ex:
        futs = [ex.submit(run_check, pcap, nframes, **m) for m in modes]
        return [f.result() for f in futs]


def run_rebuild(inp, out, nframes, width=64):
    args = ["rebuild", inp, out, "--width", str(width)]
    p = run_tool(args, nframes)
    cmd = shlex.join([str(TOOL)] + [str(x) for x in args])
    check(p.returncode == 0, f"`{cmd}` exited {p.returncode}; stderr: {p.stderr.strip()[-2000:]}")
    check(Path(out).is_file(), f"`{cmd}` wrote no {out}")
    return cmd


def fmt_line(d):
    return " ".join(f"{k}={v}" for k, v in d.items())


# --------------------------------------------------------------------------
# comparing tool output with expectations

def values_equal(key, got, want):
    if got == want:
        return True
    try:
        return norm_value(key, got) == norm_value(key, want)
    except (ValueError, TypeError):
        return False


def compare_ok(ctx, got, want, alt_values=None):
    """A frame that must decode as verdict ok: every expected field must be
    present with the expected value; extension keys the opcode does not carry
    must be absent.  alt_values: key -> set of other acceptable texts."""
    alt_values = alt_values or {}
    if got.get("verdict") != "ok":
        fail(f"{ctx}: verdict={got.get('verdict')} icrc={got.get('icrc')}, expected verdict=ok"
             f"\n  got: {fmt_line(got)}")
    if got.get("icrc") != "ok":
        fail(f"{ctx}: icrc={got.get('icrc')}, expected ok\n  got: {fmt_line(got)}")
    for k, v in want.items():
        if k not in got:
            fail(f"{ctx}: field {k} missing (expected {k}={v})\n  got: {fmt_line(got)}")
        if not (values_equal(k, got[k], v) or any(values_equal(k, got[k], x) for x in alt_values.get(k, ()))):
            fail(f"{ctx}: {k}={got[k]}, expected {k}={v}"
                 + (f" (or one of {sorted(alt_values[k])})" if k in alt_values else "")
                 + f"\n  got: {fmt_line(got)}")
    extra = [k for k in got if k in ALL_FIELD_KEYS and k not in want]
    if extra:
        fail(f"{ctx}: unexpected field(s) {extra} for this opcode\n  got: {fmt_line(got)}")


def compare_bad(ctx, got, fr, verdicts, a=None):
    """A frame that must not be ok: verdict must be in `verdicts`; the kind and
    icrc columns must be consistent; every printed field whose bytes are in the
    frame must hold what those bytes say."""
    a = a or analyze(fr)
    v = got.get("verdict")
    if v not in verdicts:
        fail(f"{ctx}: verdict={v}, expected {' or '.join(sorted(verdicts))}"
             f"\n  got: {fmt_line(got)}\n  frame: {fr.hex()}")
    if got.get("len") != str(len(fr)):
        fail(f"{ctx}: len={got.get('len')}, frame has {len(fr)} bytes")
    if v == "not-roce":
        if got.get("kind") != "not-roce":
            fail(f"{ctx}: verdict not-roce but kind={got.get('kind')}")
        if got.get("icrc") != "-":
            fail(f"{ctx}: verdict not-roce but icrc={got.get('icrc')}")
        return
    if a.kind not in (None, "not-roce") and got.get("kind") != a.kind:
        fail(f"{ctx}: kind={got.get('kind')}, expected {a.kind}\n  got: {fmt_line(got)}")
    if v == "icrc-bad" and got.get("icrc") != "bad":
        fail(f"{ctx}: verdict icrc-bad but icrc={got.get('icrc')}")
    if v == "truncated" and got.get("icrc") not in ("-", "bad"):
        fail(f"{ctx}: truncated frame but icrc={got.get('icrc')}")
    if got.get("icrc") in ("ok", "bad") and a.icrc != "-" and got["icrc"] != a.icrc:
        fail(f"{ctx}: icrc={got['icrc']} but the ICRC on the frame is {a.icrc}\n  got: {fmt_line(got)}")
    for k, val in got.items():
        if k in ALL_FIELD_KEYS and k != "paylen" and k in a.fields and val != "-":
            if not values_equal(k, val, a.fields[k]):
                fail(f"{ctx}: {k}={val} but the frame's bytes say {k}={a.fields[k]}\n  got: {fmt_line(got)}")


# --------------------------------------------------------------------------
# misc

def tmpdir(prefix):
    return tempfile.TemporaryDirectory(prefix=f"froce-{prefix}-")


def seeds_and_modes():
    """The tool configurations every frame set is run through."""
    return [dict(width=64), dict(width=512),
            dict(width=64, seed=SEED, stall=0.3), dict(width=512, seed=SEED + 1, stall=0.3)]


def mode_str(m):
    return " ".join(f"--{k} {v}" for k, v in m.items())


# --------------------------------------------------------------------------
# tshark: a decoder that is not ours

TSHARK_FIELDS = [
    "frame.number", "frame.len", "eth.dst", "eth.src", "vlan.id", "vlan.priority",
    "ip.src", "ip.dst", "ip.dsfield", "ip.ttl", "ipv6.src", "ipv6.dst", "ipv6.tclass", "ipv6.hlim",
    "infiniband.grh.sgid", "infiniband.grh.dgid", "infiniband.grh.tclass", "infiniband.grh.hoplmt",
    "udp.srcport", "infiniband.bth", "infiniband.bth.opcode", "infiniband.bth.se", "infiniband.bth.m",
    "infiniband.bth.padcnt", "infiniband.bth.tver", "infiniband.bth.p_key", "infiniband.bth.destqp",
    "infiniband.bth.a", "infiniband.bth.psn",
    "infiniband.reth", "infiniband.reth.va", "infiniband.reth.r_key", "infiniband.reth.dmalen",
    "infiniband.aeth", "infiniband.aeth.syndrome", "infiniband.aeth.msn",
    "infiniband.deth", "infiniband.deth.q_key", "infiniband.deth.srcqp",
    "infiniband.atomiceth", "infiniband.atomiceth.swapdt", "infiniband.atomiceth.cmpdt",
    "infiniband.atomicacketh", "infiniband.atomicacketh.origremdt",
    "infiniband.immdt", "infiniband.ieth", "data.len", "infiniband.invariant.crc",
]


def _tsint(s):
    s = s.strip()
    if s in ("True", "False"):
        return int(s == "True")
    return int(s, 0)


def tshark_decode(pcap):
    """Decode a pcap with tshark into contract fields (key -> text), one dict
    per frame.  Only what tshark itself dissects is used, except FECN/BECN
    (tshark 4.0 has no field for them; they are read from the BTH bytes tshark
    reports) and paylen = tshark's data length minus the BTH pad count."""
    cmd = [TSHARK, "-n", "-r", str(pcap), "--disable-protocol", "rpcordma", "-T", "fields",
           "-E", "header=n", "-E", "separator=/t", "-E", "quote=n", "-E", "occurrence=f"]
    for f in TSHARK_FIELDS:
        cmd += ["-e", f]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"tshark failed on {pcap}: {p.stderr.strip()}")
    out = []
    for line in p.stdout.splitlines():
        t = dict(zip(TSHARK_FIELDS, line.split("\t")))
        g = lambda k: t.get(k, "").split(",")[0].strip()  # noqa: E731
        d = {"len": g("frame.len"), "dmac": g("eth.dst").lower(), "smac": g("eth.src").lower(),
             "vlan": f"{_tsint(g('vlan.id'))}/{_tsint(g('vlan.priority'))}" if g("vlan.id") else "-"}
        if g("ip.src"):
            d.update(kind="v2-ipv4", sip=g("ip.src"), dip=g("ip.dst"),
                     tclass=f"0x{_tsint(g('ip.dsfield')):02x}", ttl=str(_tsint(g("ip.ttl"))))
        elif g("ipv6.src"):
            d.update(kind="v2-ipv6", sip=g("ipv6.src"), dip=g("ipv6.dst"),
                     tclass=f"0x{_tsint(g('ipv6.tclass')):02x}", ttl=str(_tsint(g("ipv6.hlim"))))
        elif g("infiniband.grh.sgid"):
            d.update(kind="v1", sip=g("infiniband.grh.sgid"), dip=g("infiniband.grh.dgid"),
                     tclass=f"0x{_tsint(g('infiniband.grh.tclass')):02x}",
                     ttl=str(_tsint(g("infiniband.grh.hoplmt"))))
        else:
            d["kind"] = "not-roce"
        if g("udp.srcport") and d["kind"] != "v1":
            d["sport"] = str(_tsint(g("udp.srcport")))
        if g("infiniband.bth.opcode"):
            bth = bytes.fromhex(g("infiniband.bth").replace(":", ""))
            d.update(opcode=f"0x{_tsint(g('infiniband.bth.opcode')):02x}",
                     dqpn=f"0x{_tsint(g('infiniband.bth.destqp')):06x}",
                     psn=str(_tsint(g("infiniband.bth.psn"))),
                     se=str(_tsint(g("infiniband.bth.se"))), m=str(_tsint(g("infiniband.bth.m"))),
                     pad=str(_tsint(g("infiniband.bth.padcnt"))), tver=str(_tsint(g("infiniband.bth.tver"))),
                     pkey=f"0x{_tsint(g('infiniband.bth.p_key')):04x}",
                     fecn=str(bth[4] >> 7), becn=str((bth[4] >> 6) & 1),
                     ackreq=str(_tsint(g("infiniband.bth.a"))))
            dl = _tsint(g("data.len")) if g("data.len") else 0
            d["paylen"] = str(dl - int(d["pad"]) if dl else 0)
            if g("infiniband.reth") or g("infiniband.atomiceth"):
                d["va"] = fmt_value("va", _tsint(g("infiniband.reth.va")))
                d["rkey"] = fmt_value("rkey", _tsint(g("infiniband.reth.r_key")))
            if g("infiniband.reth"):
                d["dmalen"] = str(_tsint(g("infiniband.reth.dmalen")))
            if g("infiniband.atomiceth"):
                d["swap"] = fmt_value("swap", _tsint(g("infiniband.atomiceth.swapdt")))
                d["cmp"] = fmt_value("cmp", _tsint(g("infiniband.atomiceth.cmpdt")))
            if g("infiniband.aeth"):
                d["syndrome"] = fmt_value("syndrome", _tsint(g("infiniband.aeth.syndrome")))
                d["msn"] = str(_tsint(g("infiniband.aeth.msn")))
            if g("infiniband.atomicacketh"):
                d["orig"] = fmt_value("orig", _tsint(g("infiniband.atomicacketh.origremdt")))
            if g("infiniband.deth"):
                d["qkey"] = fmt_value("qkey", _tsint(g("infiniband.deth.q_key")))
                d["sqpn"] = fmt_value("sqpn", _tsint(g("infiniband.deth.srcqp")))
            if g("infiniband.immdt"):
                d["imm"] = fmt_value("imm", int(g("infiniband.immdt").replace(":", ""), 16))
            if g("infiniband.ieth"):
                d["ieth_rkey"] = fmt_value("ieth_rkey", int(g("infiniband.ieth").replace(":", ""), 16))
        out.append(d)
    return out


def read_csv_vectors():
    import csv
    with open(VECTORS / "icrc_vectors.csv", newline="") as fh:
        return list(csv.DictReader(fh))


# --------------------------------------------------------------------------
# byte-level diffs with field names

_IPV4_NAMES = {0: "version/IHL", 1: "TOS", 2: "total length", 3: "total length", 4: "identification",
               5: "identification", 6: "flags/fragment offset", 7: "flags/fragment offset", 8: "TTL",
               9: "protocol", 10: "header checksum", 11: "header checksum"}
_IPV6_NAMES = {0: "version/traffic class", 1: "traffic class/flow label", 2: "flow label",
               3: "flow label", 4: "payload length", 5: "payload length", 6: "next header",
               7: "hop limit"}
_UDP_NAMES = ["source port", "source port", "dest port", "dest port", "length", "length",
              "checksum", "checksum"]
_BTH_NAMES = ["opcode", "SE/M/pad/TVer", "P_Key", "P_Key", "FECN/BECN/resv6", "DestQP", "DestQP",
              "DestQP", "AckReq/resv7", "PSN", "PSN", "PSN"]


def describe_offset(fr, off):
    """Human name of the header field at byte `off` of frame `fr`."""
    if off < 12:
        return "Ethernet " + ("destination MAC" if off < 6 else "source MAC")
    l2 = l2_info(fr)
    if l2 is None:
        return "Ethernet header"
    l3, et, vlan = l2
    if off < l3:
        return "Ethertype" if off >= l3 - 2 else "802.1Q tag"
    try:
        kind, l3, bth, end = roce_geometry(fr)
    except (ValueError, IndexError, struct.error):
        return f"L3 byte {off - l3}"
    rel = off - l3
    if kind == "v2-ipv4" and off < bth - 8:
        return "IPv4 " + _IPV4_NAMES.get(rel, "source address" if rel < 16 else "destination address")
    if kind != "v2-ipv4" and rel < 40:
        return ("IPv6 " if kind == "v2-ipv6" else "GRH ") + _IPV6_NAMES.get(
            rel, "source address" if rel < 24 else "destination address")
    if kind != "v1" and off < bth:
        return "UDP " + _UDP_NAMES[off - (bth - 8)]
    if off < bth + 12:
        return "BTH " + _BTH_NAMES[off - bth]
    if end - 4 <= off < end:
        return "ICRC"
    if off >= end:
        return "Ethernet padding"
    op = fr[bth] if len(fr) > bth else None
    if op in OPCODES:
        x = bth + 12
        for h in ext_headers(op):
            if off < x + EXT_LEN[h]:
                return f"{h} byte {off - x}"
            x += EXT_LEN[h]
        return f"payload/pad byte {off - x}"
    return f"IB byte {off - bth}"


def diff_frames(ctx, want, got):
    """Fail with the first differing byte and its field name, or return."""
    if want == got:
        return
    n = min(len(want), len(got))
    off = next((i for i in range(n) if want[i] != got[i]), n)
    if off == n:
        fail(f"{ctx}: length {len(got)}, expected {len(want)} (the first {n} bytes agree)")
    fail(f"{ctx}: byte {off} ({describe_offset(want, off)}) is 0x{got[off]:02x}, expected "
         f"0x{want[off]:02x}; {sum(1 for i in range(n) if want[i] != got[i])} bytes differ"
         f"\n  expected: {want.hex()}\n  got:      {got.hex()}")


def scapy_icrc(fr):
    """The ICRC scapy.contrib.roce computes for a RoCE v2 IPv4 frame (VLAN or
    not), dissected by scapy and rebuilt with the ICRC left for scapy to fill
    in.  scapy 2.5 has no IPv6 or RoCE v1 ICRC."""
    import logging
    logging.getLogger("scapy").setLevel(logging.ERROR)
    from scapy.compat import raw
    from scapy.contrib.roce import BTH
    from scapy.layers.l2 import Ether
    kind, l3, _, end = roce_geometry(fr)
    check(kind == "v2-ipv4", f"scapy computes no ICRC for {kind}")
    p = Ether(bytes(fr[:end]))  # without Ethernet padding: scapy would fold it into the ICRC input
    check(BTH in p, "scapy did not dissect a BTH")
    p[BTH].icrc = None
    return raw(p)[end - 4:end]
