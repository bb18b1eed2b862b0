#!/usr/bin/python3
"""Checks every frame of captures written by `froce-perf --pcap FILE`.

    tests/core/check_frames.py [--mtu N] FILE.pcap...
    tests/core/check_frames.py --self-test GOOD.pcap

Each frame goes through three independent decoders:

 (a) scapy + froce_testlib (tests/pcap): Ethernet / IPv4 or IPv6 / UDP 4791 /
     BTH dissects; IPv4 version 4, IHL 5, protocol UDP, not fragmented, header
     checksum right; IPv6 next header UDP; UDP length == IP length minus the IP
     header; the frame ends where the IP length says (or is the 60 bytes a
     MAC's padding makes of a shorter frame); BTH TVer 0, a known opcode, room
     for its extension headers, the IB packet (BTH..ICRC) a multiple of 4
     bytes; the ICRC recomputed per the RoCE v2 rules (froce_testlib.
     compute_icrc, which tests/pcap/test_icrc_model.py checks against the rxe
     vectors; for IPv4 also scapy.contrib.roce's) equals the frame's. With
     --mtu N also the IBA payload rules: FIRST/MIDDLE packets carry exactly
     N bytes, LAST 1..N, ONLY 0..N, ACKs / READ requests / atomics none.
 (b) tshark (`-V`-level dissection, read as fields): the frame decodes as
     eth:ethertype:ip|ipv6:udp:infiniband (RRoCE, port 4791 is tshark's
     default) with the BTH opcode scapy saw, no malformed packet and no expert
     error. IPv4 checksum validation is switched on; zero UDP checksums over
     IPv6 are not an error (RoCE v2 sends 0, as Linux rxe does); the payload
     heuristics on InfiniBand (RPC-over-RDMA, SMC-R, NVMe-oF, iSER...) are
     switched off, since random payload bytes are not those protocols (the
     RPC-over-RDMA one throws "malformed" on 0-byte SENDs).
 (c) the RTL RX parser: `froce-pcap check FILE` (build/bin/froce-pcap, env
     FROCE_PCAP) must give verdict=ok icrc=ok for every frame, with the
     opcode and PSN scapy saw.

Where the capture is taken: sim/core's Sim hands each frame a NIC emits to
froce::Wire::send (sim/wire/wire.cpp), which applies the fault injector first
and records the frame in Wire::enqueue, i.e. AFTER the fault injector:
dropped frames are not in the capture, a `--corrupt` frame is recorded with
its flipped bit, `--dup` frames appear twice, `--reorder`ed ones in the
order they are delivered. A capture made with --corrupt therefore fails
these checks by design; check captures made without it (--drop/--dup/--reorder
keep every recorded frame well-formed). Frames are recorded as the NIC's
AXI stream carried them, before any MAC: frames shorter than 60 bytes (0-byte
SEND_ONLY over IPv4 is 58) are not padded; the MAC pads them
(docs/roce-header-engine.md), so they are counted in the summary, not failed.

Output: one line per file ("FILE: N frames ok ...; RC_SEND_FIRST x12, ...");
on a failure one line per bad frame ("FAIL FILE frame N (OPCODE): layer:
reason", at most --max-report per file) and exit 1. A file with no frames
fails. --self-test GOOD.pcap: the capture must pass, then copies with one
ICRC byte flipped, one payload byte flipped, a frame cut short, an IPv4
checksum byte flipped (if there is an IPv4 frame) and no frames at all must
each be reported at the right frame by the layers that can see it; exit 1 on
a missed detection.

Environment: FROCE_PCAP (froce-pcap binary), TSHARK.
"""

import argparse
import collections
import logging
import os
import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pcap"))
import froce_testlib as tl  # noqa: E402

logging.getLogger("scapy").setLevel(logging.ERROR)
from scapy.contrib.roce import BTH  # noqa: E402
from scapy.layers.inet import IP, UDP  # noqa: E402
from scapy.layers.inet6 import IPv6  # noqa: E402
from scapy.layers.l2 import Dot1Q, Ether  # noqa: E402

TSHARK = os.environ.get("TSHARK", "tshark")
ETH_MIN = 60  # minimum Ethernet frame without FCS
TSHARK_ERROR = 0x00800000  # PI_ERROR in _ws.expert.severity
# payload heuristics registered on infiniband.payload in tshark 4.0 (short names)
IB_HEURISTICS = ["rpcrdma_infiniband", "smcr_infiniband", "smb_direct_infiniband", "nvme_rdma",
                 "lnet_ib", "iser_infiniband", "mellanox_eoib", "sdp_infiniband", "fc_infiniband"]
TSHARK_FIELDS = ["frame.number", "frame.len", "frame.protocols", "_ws.expert.severity",
                 "_ws.expert.message", "_ws.malformed", "infiniband.bth.opcode", "data.len"]
PROTO_RE = re.compile(r"^eth:ethertype:(ip|ipv6):udp:infiniband(:.*)?$")

# opcodes by the payload rule of IBA 9.7.2 (low 5 bits, RC/UC)
FIRST_MIDDLE = {0x00, 0x01, 0x06, 0x07, 0x0D, 0x0E}
LAST = {0x02, 0x03, 0x08, 0x09, 0x0F, 0x16}
NO_PAYLOAD = {0x0C, 0x11, 0x12, 0x13, 0x14, 0x81}


def opname(op):
    return tl.OPCODES[op][0] if op in tl.OPCODES else f"opcode 0x{op:02x}"


class FrameInfo:
    """What layer (a) learned about one frame (None fields: not decodable)."""

    def __init__(self):
        self.op = None
        self.psn = None
        self.paylen = None
        self.pad = None
        self.ipv4 = False
        self.ip_end = None
        self.short = False


def check_scapy(fr, mtu):
    """Layer (a) for one frame: (FrameInfo, [reasons])."""
    info, bad = FrameInfo(), []
    try:
        p = Ether(fr)
    except Exception as e:  # noqa: BLE001 -- any dissection error is the frame's
        return info, [f"scapy cannot dissect the frame: {e}"]
    l2 = tl.l2_info(fr)
    if l2 is None:
        return info, [f"{len(fr)}-byte frame: no Ethernet header"]
    l3 = l2[0]
    if IP in p:
        ip = p[IP]
        info.ipv4 = True
        if ip.version != 4 or ip.ihl != 5:
            bad.append(f"IPv4 version {ip.version} IHL {ip.ihl}, expected 4 and 5")
            return info, bad
        if len(fr) < l3 + 20:
            return info, bad + [f"frame of {len(fr)} bytes ends in the IPv4 header"]
        want = tl.ipv4_checksum(fr[l3:l3 + 20])
        if ip.chksum != want:
            bad.append(f"IPv4 header checksum 0x{ip.chksum:04x}, expected 0x{want:04x}")
        if ip.proto != 17:
            bad.append(f"IPv4 protocol {ip.proto}, expected 17 (UDP)")
        if ip.flags.MF or ip.frag:
            bad.append("IPv4 fragment")
        ip_end = l3 + ip.len
        l4 = l3 + 20
    elif IPv6 in p:
        ip = p[IPv6]
        if ip.nh != 17:
            bad.append(f"IPv6 next header {ip.nh}, expected 17 (UDP)")
        ip_end = l3 + 40 + ip.plen
        l4 = l3 + 40
    else:
        et = struct.unpack(">H", fr[12:14])[0] if len(fr) >= 14 else None
        return info, [f"not IPv4/IPv6 (ethertype {et if et is None else hex(et)})"]
    info.ip_end = ip_end
    # frame length against the IP length (Ethernet padding only up to 60 bytes)
    if len(fr) < ip_end:
        bad.append(f"frame has {len(fr)} bytes, the IP length says {ip_end}")
    elif len(fr) > ip_end:
        if not (ip_end < ETH_MIN and len(fr) == ETH_MIN and not any(fr[ip_end:])):
            bad.append(f"frame has {len(fr)} bytes, the IP length says {ip_end} "
                       f"({len(fr) - ip_end} extra bytes that are not padding to {ETH_MIN})")
    info.short = len(fr) < ETH_MIN
    if UDP not in p:
        return info, bad + ["no UDP header"]
    udp = p[UDP]
    if udp.dport != tl.ROCE_UDP_PORT:
        bad.append(f"UDP destination port {udp.dport}, expected {tl.ROCE_UDP_PORT}")
    if udp.len != ip_end - l4:
        bad.append(f"UDP length {udp.len}, the IP length leaves {ip_end - l4}")
    if BTH not in p:
        return info, bad + ["scapy found no BTH after UDP 4791"]
    bth = l4 + 8
    if len(fr) < bth + 12 or ip_end < bth + 12 + 4:
        return info, bad + [f"IB packet too short for BTH + ICRC (frame {len(fr)} bytes, IP end {ip_end})"]
    b = fr[bth:bth + 12]
    op, tver, pad = b[0], b[1] & 0xF, (b[1] >> 4) & 3
    info.op, info.pad = op, pad
    info.psn = int.from_bytes(b[9:12], "big")
    if p[BTH].opcode != op:
        bad.append(f"scapy BTH opcode 0x{p[BTH].opcode:02x} != byte 0x{op:02x}")
    if tver != 0:
        bad.append(f"BTH TVer {tver}, expected 0")
    if op not in tl.OPCODES:
        return info, bad + [f"unknown BTH opcode 0x{op:02x}"]
    iblen = ip_end - bth
    if iblen % 4:
        bad.append(f"IB packet (BTH..ICRC) is {iblen} bytes, not a multiple of 4")
    paylen = iblen - 12 - tl.ext_len(op) - 4 - pad
    if paylen < 0:
        return info, bad + [f"IB packet of {iblen} bytes too short for {opname(op)} "
                            f"(headers {12 + tl.ext_len(op)}, ICRC 4, pad {pad})"]
    info.paylen = paylen
    if len(fr) >= ip_end:
        wire = bytes(fr[ip_end - 4:ip_end])
        want = tl.compute_icrc(fr)
        if wire != want:
            bad.append(f"ICRC on the wire {wire.hex()}, RoCE v2 ICRC is {want.hex()}")
        elif info.ipv4 and l3 == 14:
            sc = tl.scapy_icrc(fr)
            if sc != wire:
                bad.append(f"ICRC {wire.hex()} agrees with froce_testlib but scapy computes {sc.hex()}")
    low = op & 0x1F if op < 0x40 else op
    if mtu:
        if low in FIRST_MIDDLE and paylen != mtu:
            bad.append(f"{opname(op)} carries {paylen} bytes, a FIRST/MIDDLE packet carries the MTU {mtu}")
        elif low in LAST and not 1 <= paylen <= mtu:
            bad.append(f"{opname(op)} carries {paylen} bytes, a LAST packet carries 1..{mtu}")
        elif paylen > mtu:
            bad.append(f"{opname(op)} carries {paylen} bytes, more than the MTU {mtu}")
    if op in NO_PAYLOAD and paylen:
        bad.append(f"{opname(op)} carries {paylen} payload bytes, expected none")
    if (low in FIRST_MIDDLE or op in NO_PAYLOAD) and pad:
        bad.append(f"{opname(op)} with pad count {pad}")
    return info, bad


def tshark_cmd(path):
    cmd = [TSHARK, "-n", "-r", str(path), "-o", "ip.check_checksum:TRUE",
           "-o", "udp.ignore_ipv6_zero_checksum:TRUE"]
    for h in IB_HEURISTICS:
        cmd += ["--disable-heuristic", h]
    cmd += ["-T", "fields", "-E", "header=n", "-E", "separator=/t", "-E", "quote=n",
            "-E", "occurrence=a", "-E", "aggregator=|"]
    for f in TSHARK_FIELDS:
        cmd += ["-e", f]
    return cmd


def check_tshark(path, infos, report):
    """Layer (b): report(frame_no, reason) for every frame tshark objects to."""
    p = subprocess.run(tshark_cmd(path), capture_output=True, text=True, timeout=600)
    err = "\n".join(x for x in p.stderr.splitlines() if "dangerous" not in x)
    if p.returncode != 0:
        report(0, f"tshark exited {p.returncode}: {err.strip()[-500:]}")
        return
    rows = [dict(zip(TSHARK_FIELDS, line.split("\t"))) for line in p.stdout.splitlines()]
    if len(rows) != len(infos):
        report(0, f"tshark read {len(rows)} frames, the capture has {len(infos)}")
    for n, t in enumerate(rows, 1):
        info = infos[n - 1] if n <= len(infos) else FrameInfo()
        protos = t.get("frame.protocols", "")
        m = PROTO_RE.match(protos)
        if not m:
            report(n, f"tshark dissects {protos!r}, not eth:ethertype:ip|ipv6:udp:infiniband")
        elif m.group(2) not in (None, ":data"):
            report(n, f"tshark passes the IB payload to {m.group(2)[1:]!r} (protocols {protos})")
        sev = [int(x, 0) for x in t.get("_ws.expert.severity", "").split("|") if x]
        msgs = t.get("_ws.expert.message", "").split("|")
        errs = [msgs[i] if i < len(msgs) else "?" for i, s in enumerate(sev) if s >= TSHARK_ERROR]
        if errs:
            report(n, "tshark expert error: " + "; ".join(errs))
        if t.get("_ws.malformed", ""):
            report(n, "tshark: malformed packet")
        top = t.get("infiniband.bth.opcode", "")
        if top and info.op is not None and int(top.split("|")[0], 0) != info.op:
            report(n, f"tshark BTH opcode {top}, scapy 0x{info.op:02x}")
        dl = t.get("data.len", "")
        if info.paylen is not None and m and m.group(2) in (None, ":data"):
            got = int(dl.split("|")[0]) if dl else 0
            if got != info.paylen + (info.pad if info.paylen else 0):
                report(n, f"tshark payload {got} bytes, headers say {info.paylen} + pad {info.pad}")


def check_rtl(path, infos, report):
    """Layer (c): froce-pcap check, every frame verdict ok."""
    try:
        run = tl.run_check(str(path), len(infos))
    except tl.TestFailure as e:
        report(0, f"froce-pcap check: {e}")
        return
    for n, d in enumerate(run.lines, 1):
        info = infos[n - 1]
        if d.get("verdict") != "ok" or d.get("icrc") != "ok":
            report(n, f"RTL parser verdict={d.get('verdict')} icrc={d.get('icrc')}")
            continue
        if info.op is not None and int(d.get("opcode", "-1"), 0) != info.op:
            report(n, f"RTL parser opcode {d.get('opcode')}, frame 0x{info.op:02x}")
        if info.psn is not None and d.get("psn") != str(info.psn):
            report(n, f"RTL parser psn {d.get('psn')}, frame {info.psn}")


class Result:
    def __init__(self, path):
        self.path = path
        self.nframes = 0
        self.failures = []  # (frame_no or 0, layer, reason)
        self.ops = collections.Counter()
        self.short = 0
        self.infos = []

    def ok(self):
        return not self.failures

    def frames_failed(self):
        return sorted({n for n, _, _ in self.failures if n})


def check_file(path, mtu=None, layers=("scapy", "tshark", "froce-pcap")):
    r = Result(path)
    try:
        frames = tl.read_pcap(path)
    except (tl.TestFailure, OSError) as e:
        r.failures.append((0, "pcap", str(e)))
        return r
    r.nframes = len(frames)
    if not frames:
        r.failures.append((0, "pcap", "the capture has no frames"))
        return r
    for n, fr in enumerate(frames, 1):
        info, bad = check_scapy(fr, mtu)
        r.infos.append(info)
        if "scapy" in layers:
            r.failures += [(n, "scapy", why) for why in bad]
        r.ops[opname(info.op) if info.op is not None else "undecodable"] += 1
        r.short += info.short
    if "tshark" in layers:
        check_tshark(path, r.infos, lambda n, why: r.failures.append((n, "tshark", why)))
    if "froce-pcap" in layers:
        check_rtl(path, r.infos, lambda n, why: r.failures.append((n, "froce-pcap", why)))
    r.failures.sort(key=lambda x: x[0])
    return r


def summary(r):
    ops = ", ".join(f"{k} x{v}" for k, v in sorted(r.ops.items(), key=lambda kv: (tl.OPC.get(kv[0], 999), kv[0])))
    extra = f"; {r.short} frames < {ETH_MIN} B (the MAC pads them)" if r.short else ""
    if r.ok():
        return f"{r.path}: {r.nframes} frames ok (scapy+ICRC, tshark, froce-pcap){extra}; {ops}"
    whole = [f"{layer}: {why}" for n, layer, why in r.failures if n == 0]
    parts = []
    if r.frames_failed():
        parts.append(f"{len(r.frames_failed())} of {r.nframes} frames failed")
    if whole:
        parts.append("; ".join(whole))
    return f"{r.path}: FAIL: {'; '.join(parts)}" + (f"; {ops}" if ops else "")


def print_failures(r, limit):
    for i, (n, layer, why) in enumerate(r.failures):
        if i == limit:
            print(f"FAIL {r.path}: ... {len(r.failures) - limit} more")
            break
        if n:
            info = r.infos[n - 1] if n <= len(r.infos) else FrameInfo()
            op = opname(info.op) if info.op is not None else "undecodable"
            print(f"FAIL {r.path} frame {n} ({op}): {layer}: {why}")
        else:
            print(f"FAIL {r.path}: {layer}: {why}")


# --------------------------------------------------------------------------
# self-test: the checker must catch damaged frames

def self_test(good, mtu):
    r = check_file(good, mtu)
    print(summary(r))
    if not r.ok():
        print_failures(r, 20)
        print(f"self-test: FAIL: {good} is not a good capture to start from")
        return 1
    frames = tl.read_pcap(good)
    data = [i for i, x in enumerate(r.infos) if x.paylen]
    v4 = [i for i, x in enumerate(r.infos) if x.ipv4]
    if not data:
        print(f"self-test: FAIL: {good} has no frame with payload to damage")
        return 1
    k = data[len(data) // 2]  # a payload frame from the middle
    j = len(frames) - 1       # the last frame (often an ACK)

    def flip(i, off, mask=0xFF):
        b = bytearray(frames[i])
        b[off] ^= mask
        return i, bytes(b)

    ip_end_k = r.infos[k].ip_end
    bth_k = ip_end_k - 4 - r.infos[k].pad - r.infos[k].paylen
    cases = [
        # name, (frame index, new bytes), layers that must report it
        ("ICRC byte flipped", flip(j, r.infos[j].ip_end - 3), ("scapy", "froce-pcap")),
        ("payload byte flipped", flip(k, bth_k + r.infos[k].paylen // 2, 0x01), ("scapy", "froce-pcap")),
        ("frame cut by 4 bytes", (k, frames[k][:-4]), ("scapy", "tshark", "froce-pcap")),
    ]
    if v4:
        cases.append(("IPv4 checksum byte flipped", flip(v4[0], 14 + 11, 0x10),
                      ("scapy", "tshark", "froce-pcap")))
    failed = 0
    with tempfile.TemporaryDirectory(prefix="froce-check-frames-") as td:
        for name, (i, fr), need in cases:
            bad = list(frames)
            bad[i] = fr
            path = Path(td) / "bad.pcap"
            tl.write_pcap(path, bad)
            rr = check_file(path, mtu)
            by = sorted({layer for n, layer, _ in rr.failures if n == i + 1})
            other = sorted({n for n, _, _ in rr.failures if n != i + 1})
            missed = [x for x in need if x not in by]
            what = f"{name} in frame {i + 1} ({opname(r.infos[i].op)})"
            if missed or other:
                failed += 1
                print(f"self-test: FAIL: {what}: reported by {by or 'nobody'}, missed by {missed}"
                      + (f"; also reported frames {other}" if other else ""))
            else:
                first = next(why for n, layer, why in rr.failures if n == i + 1)
                print(f"self-test: ok: {what}: reported by {', '.join(by)} ({first})")
        path = Path(td) / "empty.pcap"
        tl.write_pcap(path, [])
        rr = check_file(path, mtu)
        if rr.ok():
            failed += 1
            print("self-test: FAIL: a capture with no frames passed")
        else:
            print(f"self-test: ok: no frames: {rr.failures[0][2]}")
    print(f"self-test: {'FAIL' if failed else 'ok'}: {len(cases) + 1 - failed} of {len(cases) + 1} damaged captures caught")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path, help="pcap files from froce-perf --pcap")
    ap.add_argument("--mtu", type=int, help="path MTU of the run: FIRST/MIDDLE must carry exactly this")
    ap.add_argument("--self-test", action="store_true", help="damage the (one, good) capture and check it is caught")
    ap.add_argument("--max-report", type=int, default=20, help="failure lines printed per file (default 20)")
    a = ap.parse_args()
    if not a.files:
        ap.error("no pcap files given")
    if not tl.tool_available():
        print(f"check_frames: FAIL: froce-pcap not found at {tl.TOOL} (make froce-pcap, or set FROCE_PCAP)")
        return 2
    if a.self_test:
        if len(a.files) != 1:
            ap.error("--self-test takes one good capture")
        return self_test(a.files[0], a.mtu)
    bad = 0
    for f in a.files:
        r = check_file(f, a.mtu)
        print_failures(r, a.max_report)
        print(summary(r))
        bad += not r.ok()
    if bad:
        print(f"check_frames: FAIL: {bad} of {len(a.files)} captures have bad frames")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
