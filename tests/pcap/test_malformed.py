#!/usr/bin/python3
"""Malformed, oversize and non-RoCE frames.

Expected verdicts (sets where the contract leaves the choice open):
  * truncation of good IPv4/IPv6/VLAN/v1 frames at every length through the
    headers and many lengths through payload and ICRC: `truncated` once the
    frame is identifiable as RoCE (UDP header complete; for v1 the GRH next
    header), `truncated` or `not-roce` before that (0..13 bytes, inside the IP
    or UDP header...);
  * empty, 1-byte, Ethernet-header-only frames: not-roce or truncated;
  * oversize: a 10000-byte RoCE frame and RoCE frames whose payload exceeds
    4096 (IPv4, IPv6, v1; consistent lengths, good ICRC) -> oversize; a 10000
    byte non-RoCE frame -> not-roce or oversize; non-RoCE frames of 9215 and
    9216 bytes -> not-roce, of 9217, 9224, 9225 -> oversize; payload of exactly 4096 -> ok;
  * BTH TVer 1..15 with the ICRC recomputed -> bad-version;
  * IPv4 header checksum wrong (ICRC unaffected: the field is masked) -> ip-csum;
  * UDP length != IP length (ICRC recomputed) -> bad-length; IP length beyond
    the frame (checksum fixed) -> truncated or bad-length; IB packet too short
    for BTH + extension headers + ICRC, or pad count larger than the payload
    -> bad-length (or truncated where the headers run past the packet);
  * undefined opcodes (RD 0x40.., 0xff, reserved RC/UC/UD codes, ...) with the
    ICRC recomputed -> bad-opcode;
  * random garbage frames -> anything but ok; garbage after valid
    Ethernet/IPv4/UDP-4791 headers -> icrc-bad/bad-version/bad-opcode/bad-length;
  * non-RoCE: ARP, IPv4 TCP (even to port 4791), IPv6 ICMPv6, UDP to other
    ports or from 4791, UDP-Lite, VLAN-tagged TCP, IPv4 with options or
    fragments (MF, offset) on port 4791, GRH next header != 0x1B, other
    Ethertypes -> not-roce (kind=not-roce, icrc=-).
Every line is checked for consistency (kind, icrc column, printed fields
against the frame's bytes) and the summary counts against the expectations.
Then good rxe frames are interleaved with all of the above: every good one
must still be ok with all its fields, and every bad one must print exactly the
line it printed in isolation (no hang, no desynchronisation).
"""

import random
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import froce_testlib as T  # noqa: E402
from froce_testlib import check, log  # noqa: E402

import logging  # noqa: E402
logging.getLogger("scapy").setLevel(logging.ERROR)
from scapy.compat import raw  # noqa: E402
from scapy.contrib.roce import BTH  # noqa: E402
from scapy.layers.inet import ICMP, IP, TCP, UDP  # noqa: E402
from scapy.layers.inet6 import ICMPv6EchoRequest, IPv6  # noqa: E402
from scapy.layers.l2 import ARP, Dot1Q, Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402

MAC1, MAC2 = "52:54:00:00:00:01", "52:54:00:00:00:02"
NOT_OK = T.VERDICTS - {"ok"}
# Ethertype 0x8915 but GRH next header != 0x1B: the contract names no verdict
V1_BAD_NXTHDR = {"not-roce", "bad-version", "bad-length", "bad-opcode"}


class Cases:
    def __init__(self):
        self.items = []   # (label, frame, verdict set or "ok")

    def bad(self, label, fr, verdicts):
        verdicts = set(verdicts)
        assert verdicts and "ok" not in verdicts and verdicts <= T.VERDICTS, verdicts
        a = T.analyze(fr)
        check(a.verdict in verdicts, f"internal: reference model says {a.verdict} for '{label}', "
              f"expected {sorted(verdicts)}")
        self.items.append((label, bytes(fr), verdicts))

    def good(self, label, fr):
        check(T.analyze(fr).verdict == "ok", f"internal: reference model rejects good frame '{label}'")
        self.items.append((label, bytes(fr), "ok"))


def setb(fr, off, val):
    b = bytearray(fr)
    b[off] = val
    return bytes(b)


def set16(fr, off, val):
    b = bytearray(fr)
    b[off:off + 2] = struct.pack(">H", val)
    return bytes(b)


def roce_frame(kind, opcode, payload, ext=b"", vlan=None, psn=1):
    """A good RoCE frame (ICRC by scapy for IPv4, froce_testlib otherwise)."""
    pad = (-len(payload)) % 4
    tail = ext + payload + b"\0" * pad
    bth = BTH(opcode=opcode, padcount=pad, dqpn=0x11, psn=psn, ackreq=1)
    eth = Ether(dst=MAC1, src=MAC2)
    if vlan is not None:
        eth = eth / Dot1Q(vlan=vlan)
    if kind == "v2-ipv4":
        return raw(eth / IP(src="10.0.0.2", dst="10.0.0.1", flags="DF", id=7) /
                   UDP(sport=0xC121, dport=4791, chksum=0) / bth / Raw(tail))
    if kind == "v2-ipv6":
        return T.fix_icrc(raw(eth / IPv6(src="fd00::2", dst="fd00::1", hlim=64) /
                              UDP(sport=0xC121, dport=4791, chksum=0) / bth / Raw(tail)))
    grh = struct.pack(">IHBB", 6 << 28, 12 + len(tail) + 4, T.GRH_NXTHDR_IBA, 64) + \
        bytes.fromhex("fe80000000000000505400fffe000002fe80000000000000505400fffe000001")
    return T.fix_icrc(raw(Ether(dst=MAC1, src=MAC2, type=T.ETH_P_ROCEV1)) + grh +
                      raw(bth / Raw(tail))[:-4] + b"\0" * 4)


def ib_resize(fr, new_ib_len, udp_len=None):
    """Cut/extend the IB packet (BTH..ICRC) to new_ib_len bytes, rewrite the IP
    (and UDP) lengths accordingly (UDP length may be overridden), fix the IPv4
    header checksum and recompute the ICRC at the new end."""
    kind, l3, bth, end = T.roce_geometry(fr)
    body = bytearray(fr[:bth] + (fr[bth:end - 4] + b"\0" * 65536)[:new_ib_len - 4] + b"\0\0\0\0")
    if kind == "v2-ipv4":
        struct.pack_into(">H", body, l3 + 2, 28 + new_ib_len)
        struct.pack_into(">H", body, bth - 4, udp_len if udp_len is not None else 8 + new_ib_len)
        body = bytearray(T.fix_ipv4_csum(bytes(body)))
    elif kind == "v2-ipv6":
        struct.pack_into(">H", body, l3 + 4, 8 + new_ib_len)
        struct.pack_into(">H", body, bth - 4, udp_len if udp_len is not None else 8 + new_ib_len)
    else:
        struct.pack_into(">H", body, l3 + 4, new_ib_len)
    return T.fix_icrc(bytes(body)) if new_ib_len >= 12 else bytes(body)


def build_cases(rng):
    C = Cases()
    vec = lambda n: T.read_pcap(T.VECTORS / n)  # noqa: E731
    rc, wr, v6, vl = vec("rxe_rc_send_roce_only.pcap"), vec("rxe_rdma_write_roce_only.pcap"), \
        vec("rxe_ipv6_roce_only.pcap"), vec("rxe_vlan_roce_only.pcap")
    v1 = roce_frame("v1", 0x05, bytes(range(100)), ext=b"\x12\x34\x56\x78")
    bases = [("ipv4 SEND ONLY", rc[0]), ("ipv4 ACK", rc[1]),
             ("ipv4 WRITE FIRST", max(wr, key=len)), ("ipv6 WRITE ONLY", v6[0]),
             ("ipv6 long", max(v6, key=len)), ("vlan ACK", min(vl, key=len)),
             ("vlan long", max(vl, key=len)), ("v1 SEND ONLY w/ IMM", v1)]

    # -- truncation
    for name, fr in bases:
        kind, l3, bth, end = T.roce_geometry(fr)
        # identifiable as RoCE once the UDP header (v2) / GRH next header (v1) is complete
        ident = {"v2-ipv4": l3 + 28, "v2-ipv6": l3 + 48, "v1": l3 + 7}[kind]
        hdr_end = bth + 12 + T.ext_len(fr[bth]) + 8
        cuts = set(range(0, min(hdr_end, len(fr)))) | set(range(hdr_end, len(fr), 53)) | \
            {len(fr) - k for k in (1, 2, 3, 4, 5, 8)}
        for n in sorted(cuts):
            if n >= len(fr):
                continue
            C.bad(f"{name} cut to {n} of {len(fr)} bytes", fr[:n],
                  {"truncated"} if n >= ident else {"truncated", "not-roce"})
    for n, et in ((0, None), (1, None), (6, None), (13, None), (14, 0x0800), (14, 0x86DD),
                  (14, 0x8915), (16, 0x8100)):
        fr = (bytes.fromhex("525400000001525400000002") + (struct.pack(">H", et) if et else b"") +
              b"\0" * 4)[:n] if et else bytes(rng.getrandbits(8) for _ in range(n))
        C.bad(f"{n}-byte frame" + (f" ethertype 0x{et:04x}" if et else ""), fr, {"not-roce", "truncated"})

    # -- oversize (consistent lengths, good ICRC) and the 4096 boundary
    # (an IPv4 RoCE frame is 42 + 4k bytes: 10002 is the closest to 10000)
    big = roce_frame("v2-ipv4", 0x07, bytes(rng.getrandbits(8) for _ in range(10002 - 58)))
    check(len(big) == 10002, f"internal: big frame is {len(big)} bytes")
    C.bad("10002-byte RoCE v2 WRITE MIDDLE", big, {"oversize"})
    for kind in ("v2-ipv4", "v2-ipv6", "v1"):
        C.good(f"{kind} SEND ONLY payload 4096", roce_frame(kind, 0x04, bytes(4096)))
        C.bad(f"{kind} SEND ONLY payload 4097", roce_frame(kind, 0x04, bytes(4097)), {"oversize"})
        C.bad(f"{kind} SEND ONLY payload 4100", roce_frame(kind, 0x04, bytes(4100)), {"oversize"})
    C.bad("v2-ipv4 VLAN WRITE ONLY payload 8192", roce_frame(
        "v2-ipv4", 0x0A, bytes(8192), ext=struct.pack(">QII", 0x1000, 5, 8192), vlan=10), {"oversize"})
    C.bad("10000-byte IPv4 TCP", raw(Ether(dst=MAC1, src=MAC2) / IP(src="10.0.0.2", dst="10.0.0.1") /
                                     TCP(sport=1, dport=2) / Raw(bytes(10000 - 54))), {"not-roce", "oversize"})
    # the frame-length limit (MAX_FRAME_BYTES, 9216 without the FCS) itself:
    # a non-RoCE frame passes up to it and is oversize one byte past it, with
    # the last beat full or holding one byte at either width
    for n in (9215, 9216, 9217, 9224, 9225):
        fr = raw(Ether(dst=MAC1, src=MAC2) / IP(src="10.0.0.2", dst="10.0.0.1") /
                 TCP(sport=1, dport=2) / Raw(bytes(n - 54)))
        check(len(fr) == n, f"internal: frame is {len(fr)} bytes")
        if n <= 9216:
            C.bad(f"{n}-byte IPv4 TCP", fr, {"not-roce"})
        else:
            C.bad(f"{n}-byte IPv4 TCP", fr, {"oversize"})

    # -- BTH TVer
    for name, fr in bases:
        kind, l3, bth, end = T.roce_geometry(fr)
        for tv in (1, 2, 8, 15):
            C.bad(f"{name} TVer {tv} (ICRC recomputed)",
                  T.fix_icrc(setb(fr, bth + 1, (fr[bth + 1] & 0xF0) | tv)), {"bad-version"})

    # -- IPv4 header checksum
    for name, fr in bases:
        kind, l3, bth, end = T.roce_geometry(fr)
        if kind != "v2-ipv4":
            continue
        cs = struct.unpack(">H", fr[l3 + 10:l3 + 12])[0]
        for bad in ((cs + 1) & 0xFFFF, cs ^ 0x0100, 0x0000 if cs else 0x1234):
            C.bad(f"{name} IPv4 checksum 0x{bad:04x} (right: 0x{cs:04x})", set16(fr, l3 + 10, bad), {"ip-csum"})

    # -- lengths
    for name, fr in bases:
        kind, l3, bth, end = T.roce_geometry(fr)
        ib = end - bth
        op = fr[bth]
        if kind != "v1":
            for d in (-4, -1, 1, 4, 100):
                C.bad(f"{name} UDP length {d:+d} (ICRC recomputed)",
                      T.fix_icrc(set16(fr, bth - 4, 8 + ib + d)), {"bad-length"})
            C.bad(f"{name} UDP length 0", T.fix_icrc(set16(fr, bth - 4, 0)), {"bad-length"})
            C.bad(f"{name} UDP length 8", T.fix_icrc(set16(fr, bth - 4, 8)), {"bad-length"})
        if kind == "v2-ipv4":
            tot = end - l3
            C.bad(f"{name} IPv4 total length +4 (checksum fixed)",
                  T.fix_ipv4_csum(set16(fr, l3 + 2, tot + 4)), {"truncated", "bad-length"})
            C.bad(f"{name} IPv4 total length -4 (checksum fixed, UDP length kept)",
                  T.fix_icrc(T.fix_ipv4_csum(set16(fr, l3 + 2, tot - 4))), {"bad-length"})
            C.bad(f"{name} IPv4 total length 20 (checksum fixed)",
                  T.fix_ipv4_csum(set16(fr, l3 + 2, 20)), {"bad-length", "truncated", "not-roce"})
        else:
            plen = end - l3 - 40
            C.bad(f"{name} {kind} payload length +4", set16(fr, l3 + 4, plen + 4), {"truncated", "bad-length"})
            if kind == "v2-ipv6":
                C.bad(f"{name} IPv6 payload length -4 (UDP length kept, ICRC recomputed)",
                      T.fix_icrc(set16(fr, l3 + 4, plen - 4)), {"bad-length"})
        need = 12 + T.ext_len(op) + 4
        if T.ext_len(op):
            C.bad(f"{name}: IB packet {need - 4} bytes, too short for its extension headers",
                  ib_resize(fr, need - 4), {"bad-length", "truncated"})
        C.bad(f"{name}: IB packet of BTH only (no ICRC)", ib_resize(fr, 12), {"bad-length", "truncated"})
        C.bad(f"{name}: IB packet of 8 bytes", ib_resize(fr, 8), {"bad-length", "truncated"})
        # pad count larger than the payload (payload 0, pad 1..3), ICRC recomputed
        z = ib_resize(fr, need)
        _, _, zb, _ = T.roce_geometry(z)
        if op in (0x04, 0x05, 0x0A, 0x0B, 0x11, 0x24, 0x25, 0x2A, 0x2B):   # 0-byte payload is legal
            C.good(f"{name}: payload cut to 0 bytes", z)
        for p in (1, 3):
            C.bad(f"{name}: pad count {p} with 0-byte payload",
                  T.fix_icrc(setb(z, zb + 1, (z[zb + 1] & 0xCF) | (p << 4))), {"bad-length"})

    # -- undefined opcodes, ICRC recomputed (IB length kept >= BTH + ICRC)
    undefined = [0x15, 0x18, 0x2C, 0x3F, 0x40, 0x41, 0x4C, 0x54, 0x60, 0x63, 0x66, 0x7F, 0x80,
                 0x82, 0xC0, 0xE0, 0xFF]
    for op in undefined:
        check(op in T.UNKNOWN_OPCODES, f"internal: 0x{op:02x} is not an undefined opcode")
    for name, fr in bases:
        _, _, bth, _ = T.roce_geometry(fr)
        for op in undefined:
            C.bad(f"{name}: opcode 0x{op:02x} (ICRC recomputed)", T.fix_icrc(setb(fr, bth, op)), {"bad-opcode"})

    # -- garbage
    for i in range(150):
        n = rng.choice([rng.randrange(1, 80), rng.randrange(1, 1600)])
        fr = bytes(rng.getrandbits(8) for _ in range(n))
        C.bad(f"random garbage #{i} ({n} bytes)", fr, NOT_OK)
    known = sorted(T.OPCODES)
    for i in range(100):
        if i % 2:       # random IB bytes: anything but ok / not-roce / ip-csum
            n = rng.randrange(16, 1200)
            ib = bytes(rng.getrandbits(8) for _ in range(n))
            exp = {"icrc-bad", "bad-version", "bad-opcode", "bad-length"}
        else:           # a defined opcode, TVer 0, pad 0, room for its headers: only the ICRC is wrong
            n = 4 * rng.randrange(12, 300)
            ib = bytearray(rng.getrandbits(8) for _ in range(n))
            ib[0] = rng.choice(known)
            ib[1] &= 0xC0
            ib = bytes(ib)
            exp = {"icrc-bad", "bad-length"} if ib[0] in (0x0C, 0x11, 0x12, 0x13, 0x14, 0x81) else {"icrc-bad"}
        fr = raw(Ether(dst=MAC1, src=MAC2) / IP(src="10.0.0.2", dst="10.0.0.1") /
                 UDP(sport=rng.randrange(65536), dport=4791, chksum=0) / Raw(ib))
        C.bad(f"valid Eth/IPv4/UDP-4791 + {n} random IB bytes #{i}", fr, exp)

    # -- non-RoCE
    e = Ether(dst=MAC1, src=MAC2)
    ip = IP(src="10.0.0.2", dst="10.0.0.1")
    good4 = rc[0]
    l3 = 14
    nonroce = [
        ("ARP request", e / ARP(psrc="10.0.0.2", pdst="10.0.0.1")),
        ("IPv4 TCP to port 4791", e / ip / TCP(sport=4791, dport=4791) / Raw(good4[42:])),
        ("IPv4 ICMP echo", e / ip / ICMP() / Raw(b"x" * 56)),
        ("IPv6 ICMPv6 echo", e / IPv6(src="fd00::2", dst="fd00::1") / ICMPv6EchoRequest(data=b"y" * 56)),
        ("IPv4 UDP to port 4792", e / ip / UDP(sport=0xC121, dport=4792) / Raw(good4[42:])),
        ("IPv4 UDP to port 53", e / ip / UDP(sport=0xC121, dport=53) / Raw(b"\0" * 40)),
        ("IPv4 UDP from 4791 to 1234", e / ip / UDP(sport=4791, dport=1234) / Raw(good4[42:])),
        ("IPv6 UDP to port 4790", e / IPv6(src="fd00::2", dst="fd00::1") / UDP(dport=4790) / Raw(good4[42:])),
        ("VLAN IPv4 TCP", e / Dot1Q(vlan=100) / ip / TCP() / Raw(b"z" * 30)),
        ("IPv4 UDP-Lite (proto 136) port 4791", e / IP(src="10.0.0.2", dst="10.0.0.1", proto=136) /
         Raw(good4[34:])),
        ("LLDP ethertype", Ether(dst="01:80:c2:00:00:0e", src=MAC2, type=0x88CC) / Raw(b"\x02\x07" + b"\0" * 44)),
    ]
    for label, p in nonroce:
        C.bad(label, raw(p), {"not-roce"})
    # IPv4 with options on port 4791 (RoCE content; ICRC recomputed over the longer header)
    opt = bytearray(good4[:l3]) + bytes([0x46]) + good4[l3 + 1:l3 + 20] + b"\x01\x01\x01\x00" + good4[l3 + 20:]
    struct.pack_into(">H", opt, l3 + 2, struct.unpack(">H", good4[l3 + 2:l3 + 4])[0] + 4)
    opt = T.fix_ipv4_csum(bytes(opt))
    C.bad("IPv4 with 4 bytes of options, UDP 4791", T.fix_icrc(opt), {"not-roce"})
    # IPv4 fragments on port 4791
    C.bad("IPv4 first fragment (MF) on port 4791", T.fix_ipv4_csum(set16(good4, l3 + 6, 0x2000)), {"not-roce"})
    C.bad("IPv4 fragment offset 185 on port 4791", T.fix_ipv4_csum(set16(good4, l3 + 6, 185)), {"not-roce"})
    C.bad("IPv4 fragment MF+offset, DF clear", T.fix_ipv4_csum(set16(good4, l3 + 6, 0x2000 | 3)), {"not-roce"})
    _, gl3, _, _ = T.roce_geometry(v1)
    C.bad("RoCE v1 Ethertype, GRH next header 0x11", setb(v1, gl3 + 6, 0x11), V1_BAD_NXTHDR)
    C.bad("IPv6 next header TCP with UDP-4791 bytes", setb(v6[0], 14 + 6, 6), {"not-roce"})
    return C.items


def summary_bounds(items):
    cat = lambda v: v if v in ("ok", "icrc-bad", "not-roce") else "malformed"  # noqa: E731
    key = {"ok": "ok", "icrc-bad": "icrc_bad", "not-roce": "not_roce", "malformed": "malformed"}
    lo = dict.fromkeys(key.values(), 0)
    hi = dict.fromkeys(key.values(), 0)
    for _, _, exp in items:
        cats = {"ok"} if exp == "ok" else {cat(v) for v in exp}
        for c in cats:
            hi[key[c]] += 1
        if len(cats) == 1:
            lo[key[cats.pop()]] += 1
    return lo, hi


def check_items(items, run, mode):
    for i, ((label, fr, exp), got) in enumerate(zip(items, run.lines), 1):
        ctx = f"frame {i} ({label}, {T.mode_str(mode)})"
        if exp == "ok":
            T.compare_ok(ctx, got, T.expected_ok_fields(fr))
        else:
            T.compare_bad(ctx, got, fr, exp)
    lo, hi = summary_bounds(items)
    for k in lo:
        n = int(run.summary[k])
        check(lo[k] <= n <= hi[k], f"{run.cmd}: summary {k}={n}, expected between {lo[k]} and {hi[k]}")


def cli_checks(td):
    """Usage and file errors exit non-zero; an empty pcap is processed (exit 0)."""
    td = Path(td)
    empty = td / "empty.pcap"
    T.write_pcap(empty, [])
    run = T.run_check(empty, 0)
    check(run.summary.get("frames") == "0", f"{run.cmd}: summary {run.summary}")
    good = T.read_pcap(T.VECTORS / "rxe_rc_send_roce_only.pcap")
    T.write_pcap(td / "cut.pcap", good[:3])
    data = (td / "cut.pcap").read_bytes()
    (td / "cut.pcap").write_bytes(data[:-10])           # last record cut short
    (td / "junk.pcap").write_bytes(bytes(range(256)) * 4)  # not a pcap at all
    (td / "header_only.pcap").write_bytes(data[:10])      # shorter than a pcap header
    bad = [
        (["check", td / "does-not-exist.pcap"], "missing input file"),
        (["check", td / "junk.pcap"], "input is not a pcap"),
        (["check", td / "header_only.pcap"], "input shorter than a pcap header"),
        (["check", td / "cut.pcap"], "pcap whose last record is truncated"),
        (["check"], "check without a file"),
        ([], "no arguments"),
        (["frobnicate", empty], "unknown command"),
        (["check", empty, "--width", "128"], "--width 128"),
        (["check", empty, "--width"], "--width without a value"),
        (["rebuild", T.VECTORS / "rxe_rc_send_roce_only.pcap"], "rebuild without an output"),
        (["rebuild", td / "does-not-exist.pcap", td / "out.pcap"], "rebuild of a missing file"),
    ]
    for args, what in bad:
        p = T.run_tool(args, 10)
        check(p.returncode != 0, f"`froce-pcap {' '.join(map(str, args))}` ({what}) exited 0; "
              f"expected a non-zero exit.  stdout: {p.stdout.strip()[:300]}")
    log(f"CLI: {len(bad)} usage/file errors exit non-zero; an empty pcap gives frames=0 and exit 0")


def main():
    T.require_vectors()
    T.require_tool()
    rng = random.Random(T.SEED)
    items = build_cases(rng)
    nbad = sum(1 for x in items if x[2] != "ok")
    log(f"{len(items)} frames: {nbad} bad/non-RoCE, {len(items) - nbad} good controls")
    modes = (dict(width=64), dict(width=512), dict(width=64, seed=T.SEED, stall=0.3))
    with T.tmpdir("malformed") as td:
        pcap = Path(td) / "malformed.pcap"
        T.write_pcap(pcap, [x[1] for x in items])
        alone, verdicts0 = {}, None
        for mode, run in zip(modes, T.run_check_modes(pcap, len(items), modes)):
            check_items(items, run, mode)
            hist = {}
            for d in run.lines:
                hist[d["verdict"]] = hist.get(d["verdict"], 0) + 1
            log(f"{T.mode_str(mode)}: every frame as expected; summary consistent; verdicts "
                + " ".join(f"{k}={v}" for k, v in sorted(hist.items())))
            alone[T.mode_str(mode)] = [{k: v for k, v in d.items() if k != "frame"} for d in run.lines]
            verdicts = [d["verdict"] for d in run.lines]
            if verdicts0 is None:
                verdicts0 = verdicts
            for i, (a, b) in enumerate(zip(verdicts0, verdicts), 1):
                check(a == b, f"frame {i} ({items[i - 1][0]}): verdict {b} with `{T.mode_str(mode)}` "
                      f"but {a} with `{T.mode_str(modes[0])}`")

        # interleave good golden frames with every bad one
        golden = [fr for n in T.RXE_PCAPS for fr in T.read_pcap(T.VECTORS / n)]
        mixed, where = [], []
        for j, (label, fr, exp) in enumerate(items):
            g = golden[j % len(golden)]
            mixed.append((f"golden #{j % len(golden) + 1} before [{label}]", g, "ok"))
            mixed.append((label, fr, exp))
            where.append(j)
        mixed.append(("golden frame at the end", golden[0], "ok"))
        mpcap = Path(td) / "mixed.pcap"
        T.write_pcap(mpcap, [x[1] for x in mixed])
        for mode, run in zip(modes, T.run_check_modes(mpcap, len(mixed), modes)):
            check_items(mixed, run, mode)
            ref = alone[T.mode_str(mode)]
            for j in where:
                got = {k: v for k, v in run.lines[2 * j + 1].items() if k != "frame"}
                check(got == ref[j], f"interleaved frame {2 * j + 2} ({items[j][0]}, {T.mode_str(mode)}) "
                      f"prints\n  {T.fmt_line(got)}\nbut alone it printed\n  {T.fmt_line(ref[j])}")
            log(f"interleaved {len(mixed)} frames ({T.mode_str(mode)}): every good frame ok with all "
                "fields, every bad frame prints what it printed alone")

        # rebuild: good frames re-emitted identical, everything else copied unchanged
        for width in (64, 512):
            out = Path(td) / f"mixed_rebuilt_{width}.pcap"
            cmd = T.run_rebuild(mpcap, out, len(mixed), width)
            got = T.read_pcap(out)
            check(len(got) == len(mixed), f"`{cmd}`: {len(got)} frames out, {len(mixed)} in")
            for i, ((label, a, _), b) in enumerate(zip(mixed, got), 1):
                T.diff_frames(f"rebuild --width {width}: frame {i} ({label})", a, b)
        log("rebuild of the interleaved capture (width 64, 512): every frame comes back unchanged")

        cli_checks(td)


if __name__ == "__main__":
    T.run_main(main)
