#!/usr/bin/python3
"""Single-bit corruption of ICRC-covered bytes, and changes to variant fields.

Sample frames: from the rxe captures, a short ACK and long data frames (SEND,
RDMA WRITE FIRST with RETH, READ REQUEST, READ RESPONSE with AETH, UD SEND
with DETH) over IPv4, IPv6 and IPv4+VLAN, plus two RoCE v1 frames from
gen_captures (ICRC from froce_testlib).  The unmodified samples are run too and
must be ok (control).

Invariant part: every header byte from the IP header (or GRH) to the end of
the extension headers gets each of its 8 bits flipped (in the long samples
other than the fully covered one: one bit, all 8 only for the opcode, pad,
TVer and length fields), every ICRC byte all 8 bits, payload/pad bytes one
bit each (every byte of one long IPv4 frame and of short payloads; for the
other long frames the first and last 8 bytes and every 7th byte, which still
hits every byte lane of a 64- or 512-bit bus; FROCE_BITFLIP_FULL=1 flips
every bit of every header byte and every payload byte of every sample) -- one
flip per frame.  Width 64 and 512 run every frame; the --stall 0.3 run takes
every 4th flip and all good frames.
Ethernet header and VLAN tag are not covered by the ICRC and not flipped; the
variant fields (TOS, TTL, UDP checksum, BTH byte 4, IPv6/GRH traffic class,
flow label, hop limit) belong to the second part.  No mutated frame may come
back ok; the verdict must be the one determined from the position of the flip:
  IPv4 address/id/flags/length/checksum bytes -> ip-csum (header checksum no
  longer matches); IPv4 version -> not-roce|bad-version|ip-csum; IHL ->
  not-roce|ip-csum|bad-length|truncated; protocol, MF or fragment offset ->
  not-roce|ip-csum; UDP dest port -> not-roce; UDP length -> bad-length;
  IPv6/GRH version -> not-roce|bad-version; IPv6 next header -> not-roce (GRH
  next header: not-roce|bad-version|bad-length|bad-opcode); IPv6/GRH payload
  length -> bad-length (|truncated if it grew, |oversize if it now claims
  more than 4096 bytes; GRH: |icrc-bad if it shrank); BTH TVer -> bad-version;
  BTH opcode -> bad-opcode when the new opcode is undefined, else icrc-bad
  (or bad-length when the headers of the new opcode no longer fit, or it
  carries no payload and now would); pad count -> icrc-bad (bad-length if
  the payload would be negative); anything else, ICRC bytes included ->
  icrc-bad.
Each line is also checked for consistency: kind, len, the icrc column, and
every printed header field against the mutated bytes; and the verdict of every
frame must be the same at width 64, 512 and with stalls.

Variant part: TOS and TTL (header checksum recomputed), UDP checksum (wrong
and right), BTH byte 4 (FECN/BECN/resv6a), IPv6 and GRH traffic class, flow
label, hop limit, VLAN PCP/VID: verdict stays ok and the fields show the new
values.  TOS changed without fixing the header checksum -> ip-csum.
"""

import os
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import froce_testlib as T  # noqa: E402
from froce_testlib import check, log  # noqa: E402

NO_PAYLOAD = {0x0C, 0x11, 0x12, 0x13, 0x14}


def pick(frames, opcode, longest=False):
    cands = [f for f in frames if T.roce_geometry(f)[2] < len(f) and f[T.roce_geometry(f)[2]] == opcode]
    check(cands, f"no frame with opcode 0x{opcode:02x} in sample capture")
    return max(cands, key=len) if longest else min(cands, key=len)


def samples():
    v = lambda n: T.read_pcap(T.VECTORS / n)  # noqa: E731
    rc, wr, rd, ud = v("rxe_rc_send_roce_only.pcap"), v("rxe_rdma_write_roce_only.pcap"), \
        v("rxe_rdma_read_roce_only.pcap"), v("rxe_ud_send_roce_only.pcap")
    v6, vl = v("rxe_ipv6_roce_only.pcap"), v("rxe_vlan_roce_only.pcap")
    out = [
        ("ipv4 ACK", pick(rc, 0x11)), ("ipv4 SEND ONLY", pick(rc, 0x04)),
        ("ipv4 SEND FIRST (long)", pick(rc, 0x00, True)),
        ("ipv4 WRITE FIRST (RETH, long)", pick(wr, 0x06, True)),
        ("ipv4 READ REQUEST", pick(rd, 0x0C)), ("ipv4 READ RESPONSE FIRST", pick(rd, 0x0D, True)),
        ("ipv4 UD SEND", pick(ud, 0x64)),
        ("ipv6 ACK", pick(v6, 0x11)), ("ipv6 WRITE FIRST (long)", pick(v6, 0x06, True)),
        ("ipv6 SEND MIDDLE (long)", pick(v6, 0x01, True)),
        ("vlan ACK", pick(vl, 0x11)), ("vlan WRITE FIRST (long)", pick(vl, 0x06, True)),
    ]
    import gen_captures
    with T.tmpdir("bitflip-gen") as td:
        man = gen_captures.generate(td)
    v1 = [bytes.fromhex(e["hex"]) for e in man if e["expect"]["kind"] == "v1"
          and e["expect"]["vlan"] == "-"]
    out += [("v1 ACK", pick(v1, 0x11)), ("v1 WRITE ONLY w/ IMM", pick(v1, 0x0B, True))]
    return out


def flip_expectation(fr, off, bit):
    """(label, set of acceptable verdicts) for flipping `bit` of byte `off`, or
    None when the byte is not an invariant ICRC-covered byte."""
    kind, l3, bth, end = T.roce_geometry(fr)
    if off < l3 or off >= end:
        return None
    field = T.describe_offset(fr, off)
    mask = 1 << bit
    if off >= end - 4:
        return field, {"icrc-bad"}
    rel = off - l3
    ib_len = end - bth
    op = fr[bth]
    pad = (fr[bth + 1] >> 4) & 3
    paylen = ib_len - 12 - T.ext_len(op) - 4 - pad
    if kind == "v2-ipv4" and rel < 20:
        if rel in (1, 8):
            return None                                        # TOS, TTL: variant
        if rel == 0:
            return (field + (" (version)" if bit >= 4 else " (IHL)"),
                    {"not-roce", "bad-version", "ip-csum"} if bit >= 4 else
                    {"not-roce", "ip-csum", "bad-length", "truncated"})
        if rel == 6 and bit <= 5 or rel == 7:
            return field + " (MF/offset)", {"not-roce", "ip-csum"}  # now a fragment
        if rel == 9:
            return field, {"not-roce", "ip-csum"}
        return field, {"ip-csum"}                              # incl. masked header checksum
    if kind in ("v2-ipv6", "v1") and rel < 40:
        if rel == 0 and bit >= 4:
            return field + " (version)", {"not-roce", "bad-version"}
        if rel in (0, 1, 2, 3, 7):
            return None                                        # tclass, flow label, hop limit
        if rel in (4, 5):
            old = struct.unpack(">H", fr[l3 + 4:l3 + 6])[0]
            new = old ^ (mask << (8 if rel == 4 else 0))
            if new > old:   # claims more than the frame holds (and maybe more than any RoCE packet)
                return field, {"bad-length", "truncated"} | (
                    {"oversize"} if l3 + 40 + new - bth > T.MAX_PAYLOAD else set())
            if kind == "v2-ipv6":
                return field, {"bad-length"}                   # UDP length > IPv6 payload
            # GRH: the IB packet ends earlier; the rest would be Ethernet padding
            return field, ({"icrc-bad", "bad-length"} if new - 12 - T.ext_len(op) - 4 - pad >= 0
                           else {"bad-length", "truncated"})
        if rel == 6:   # next header; for v1 (Ethertype 0x8915) the contract names no verdict
            return field, ({"not-roce"} if kind == "v2-ipv6" else
                           {"not-roce", "bad-version", "bad-length", "bad-opcode"})
        return field, {"icrc-bad"}
    if kind != "v1" and bth - 8 <= off < bth:
        u = off - (bth - 8)
        if u in (6, 7):
            return None                                        # UDP checksum: variant
        if u in (2, 3):
            return field, {"not-roce"}
        if u in (4, 5):
            return field, {"bad-length"}
        return field, {"icrc-bad"}
    if off == bth:
        new = op ^ mask
        if new in T.AMBIGUOUS_OPCODES:
            return f"{field} 0x{op:02x}->0x{new:02x}", {"bad-opcode", "icrc-bad", "bad-length", "truncated"}
        if new not in T.OPCODES:
            return f"{field} 0x{op:02x}->0x{new:02x}", {"bad-opcode"}
        newpay = ib_len - 12 - T.ext_len(new) - 4 - pad
        if newpay < 0:
            return f"{field} 0x{op:02x}->0x{new:02x}", {"bad-length", "truncated"}
        if (new in NO_PAYLOAD and newpay != 0) or (new == 0x81 and newpay != 16):
            return f"{field} 0x{op:02x}->0x{new:02x}", {"icrc-bad", "bad-length"}
        return f"{field} 0x{op:02x}->0x{new:02x}", {"icrc-bad"}
    if off == bth + 1:
        if bit < 4:
            return field + " (TVer)", {"bad-version"}
        if bit in (4, 5):
            newpad = pad ^ (mask >> 4)
            if paylen + pad - newpad < 0:
                return field + " (pad)", {"bad-length", "truncated"}
            if op in NO_PAYLOAD:
                return field + " (pad)", {"icrc-bad", "bad-length"}
            return field + " (pad)", {"icrc-bad"}
        return field, {"icrc-bad"}
    if off == bth + 4:
        return None                                            # FECN/BECN/resv6a: variant
    return field, {"icrc-bad"}


def mutate(fr, off, bit):
    b = bytearray(fr)
    b[off] ^= 1 << bit
    return bytes(b)


def udp_checksum(fr):
    """The correct UDP checksum of a RoCE v2 frame (RFC 768 / RFC 8200)."""
    kind, l3, bth, end = T.roce_geometry(fr)
    udp = bytearray(fr[bth - 8:end])
    udp[6:8] = b"\0\0"
    if kind == "v2-ipv4":
        pseudo = fr[l3 + 12:l3 + 20] + struct.pack(">BBH", 0, 17, len(udp))
    else:
        pseudo = fr[l3 + 8:l3 + 40] + struct.pack(">IxxxB", len(udp), 17)
    data = pseudo + bytes(udp) + b"\0" * (len(udp) % 2)
    tot = sum(struct.unpack(f">{len(data) // 2}H", data))
    while tot >> 16:
        tot = (tot & 0xFFFF) + (tot >> 16)
    return struct.pack(">H", (~tot & 0xFFFF) or 0xFFFF)


def variants(name, fr):
    """(label, frame, {field: value}) with only variant fields changed."""
    kind, l3, bth, end = T.roce_geometry(fr)
    out = []

    def setb(f, off, val):
        b = bytearray(f)
        b[off] = val
        return bytes(b)

    for v in (0x80, 0x40, 0xC0, 0x3F, 0xFF, 0x01):
        out.append((f"BTH byte 4 = 0x{v:02x}", setb(fr, bth + 4, v), {"fecn": str(v >> 7), "becn": str((v >> 6) & 1)}))
    if kind != "v1":
        for cs in (b"\x12\x34", b"\xff\xff", udp_checksum(fr)):
            b = bytearray(fr)
            b[bth - 2:bth] = cs
            out.append((f"UDP checksum {cs.hex()}", bytes(b), {}))
    if kind == "v2-ipv4":
        for tos in (0x01, 0x02, 0x03, 0xB8, 0xFF):
            out.append((f"TOS 0x{tos:02x}", T.fix_ipv4_csum(setb(fr, l3 + 1, tos)), {"tclass": f"0x{tos:02x}"}))
        for ttl in (1, 63, 255):
            out.append((f"TTL {ttl}", T.fix_ipv4_csum(setb(fr, l3 + 8, ttl)), {"ttl": str(ttl)}))
        b = bytearray(T.fix_ipv4_csum(setb(setb(fr, l3 + 1, 0x6A), l3 + 8, 7)))
        b[bth + 4] = 0xC0
        b[bth - 2:bth] = b"\xbe\xef"
        out.append(("TOS+TTL+UDP csum+BTH byte 4", bytes(b), {"tclass": "0x6a", "ttl": "7", "fecn": "1", "becn": "1"}))
    else:
        def set_tc_fl(f, tc, fl):
            b = bytearray(f)
            b[l3:l3 + 4] = struct.pack(">I", (6 << 28) | (tc << 20) | fl)
            return bytes(b)
        w0 = struct.unpack(">I", fr[l3:l3 + 4])[0]
        tc0, fl0 = (w0 >> 20) & 0xFF, w0 & 0xFFFFF
        for tc in (0x01, 0x03, 0xB8, 0xFF):
            out.append((f"traffic class 0x{tc:02x}", set_tc_fl(fr, tc, fl0), {"tclass": f"0x{tc:02x}"}))
        for fl in (1, 0xABCDE, 0xFFFFF):
            out.append((f"flow label 0x{fl:05x}", set_tc_fl(fr, tc0, fl), {}))
        for hl in (1, 255):
            out.append((f"hop limit {hl}", setb(fr, l3 + 7, hl), {"ttl": str(hl)}))
        out.append(("tclass+flow label+hop limit+BTH byte 4",
                    setb(setb(set_tc_fl(fr, 0x2A, 0x12345), l3 + 7, 9), bth + 4, 0x80),
                    {"tclass": "0x2a", "ttl": "9", "fecn": "1"}))
    if l3 == 18:
        for pcp in range(8):
            tci = struct.unpack(">H", fr[14:16])[0]
            b = bytearray(fr)
            b[14:16] = struct.pack(">H", (pcp << 13) | (tci & 0x1FFF))
            out.append((f"VLAN PCP {pcp}", bytes(b), {"vlan": f"{tci & 0xFFF}/{pcp}"}))
        for vid in (1, 4094):
            b = bytearray(fr)
            b[14:16] = struct.pack(">H", vid)
            out.append((f"VLAN VID {vid}", bytes(b), {"vlan": f"{vid}/0"}))
    return [(f"{name}: {lab}", f, w) for lab, f, w in out]


# Payload coverage.  One long frame gets a flip in every payload byte; short
# payloads (<= 128 bytes) too.  The other long frames get the first and last
# 8 payload bytes and every 7th byte between (7 is coprime with the 8 and 64
# byte lanes of the 64/512-bit datapaths, so every lane is still hit).
# FROCE_BITFLIP_FULL=1 flips every payload byte of every sample (slower).
FULL_PAYLOAD = {"ipv4 WRITE FIRST (RETH, long)"}
PAYLOAD_STRIDE = 7
# The header bytes of those other long frames get one bit each, except the
# opcode/pad/TVer and length fields (whose effect depends on the payload
# length) which get all 8; the short samples cover every header bit.
FULL_ALL = os.environ.get("FROCE_BITFLIP_FULL", "0") not in ("", "0")
STALL_EVERY = 4   # the --stall run takes every 4th flip (and every good frame)


def main():
    T.require_vectors()
    T.require_tool()
    cases = []   # (ctx, frame, "ok"|"bad", expected fields | verdict set)
    flips = 0
    smp = samples()
    for name, fr in smp:
        a = T.analyze(fr)
        check(a.verdict == "ok", f"sample {name} is not a good frame in the reference model")
        cases.append((f"{name}: unmodified (control)", fr, "ok", {}))
        kind, l3, bth, end = T.roce_geometry(fr)
        hdr_end = bth + 12 + T.ext_len(fr[bth])
        pay = end - 4 - hdr_end
        sparse = not FULL_ALL and name not in FULL_PAYLOAD and pay > 128
        lengths = {bth, bth + 1} | ({l3 + 2, l3 + 3} if kind == "v2-ipv4" else {l3 + 4, l3 + 5}) | \
            ({bth - 4, bth - 3} if kind != "v1" else set())
        for off in range(l3, end):
            if off >= end - 4 or off < hdr_end and (not sparse or off in lengths):
                bits = range(8)
            elif off < hdr_end:
                bits = [(off * 5 + 3) % 8]
            else:
                p = off - hdr_end
                if not (FULL_ALL or name in FULL_PAYLOAD or pay <= 128 or p % PAYLOAD_STRIDE == 0
                        or p < 8 or p >= pay - 8):
                    continue
                bits = [(off * 5 + 3) % 8]
            for bit in bits:
                e = flip_expectation(fr, off, bit)
                if e is None:
                    continue
                label, verdicts = e
                m = mutate(fr, off, bit)
                am = T.analyze(m)
                check(am.verdict in verdicts, f"internal: reference model says {am.verdict} for "
                      f"{name} byte {off} bit {bit} ({label}); expectation {sorted(verdicts)}")
                cases.append((f"{name}: flip byte {off} bit {bit} [{label}]", m, "bad", verdicts))
                flips += 1
        for ctx, m, changed in variants(name, fr):
            want = T.expected_ok_fields(m)
            for k, v in changed.items():
                check(T.values_equal(k, want[k], v), f"internal: {ctx}: {k} {want[k]} != {v}")
            cases.append((ctx, m, "ok", want))
        if kind == "v2-ipv4":
            b = bytearray(fr)
            b[l3 + 1] ^= 0x04
            cases.append((f"{name}: TOS changed, header checksum not fixed", bytes(b), "bad", {"ip-csum"}))
    n_ok = sum(1 for c in cases if c[2] == "ok")
    stall_idx = [i for i, c in enumerate(cases) if c[2] == "ok" or i % STALL_EVERY == 0]
    log(f"{len(cases)} frames: {flips} single-bit flips, {n_ok} good frames "
        f"(controls + variant-field changes), from {len(smp)} samples; "
        f"{len(stall_idx)} of them also with --stall")
    with T.tmpdir("bitflip") as td:
        pcap = Path(td) / "bitflip.pcap"
        T.write_pcap(pcap, [c[1] for c in cases])
        spcap = Path(td) / "bitflip_stall.pcap"
        T.write_pcap(spcap, [cases[i][1] for i in stall_idx])
        runs = T.run_check_modes(pcap, len(cases), [dict(width=64), dict(width=512)])
        runs += T.run_check_modes(spcap, len(stall_idx), [dict(width=64, seed=T.SEED, stall=0.3)])
        index = [list(range(len(cases)))] * 2 + [stall_idx]
        verdict0 = [d["verdict"] for d in runs[0].lines]
        for run, idx in zip(runs, index):
            mode = " ".join(run.cmd.split()[3:])
            hist = {}
            for j, got in zip(idx, run.lines):
                ctx_, fr, what, exp = cases[j]
                c = f"frame {j + 1} ({ctx_}, {mode})"
                if what == "ok":
                    T.compare_ok(c, got, exp or T.expected_ok_fields(fr))
                else:
                    T.compare_bad(c, got, fr, exp)
                if got["verdict"] != verdict0[j]:
                    T.fail(f"{c}: verdict {got['verdict']}, but {verdict0[j]} at --width 64")
                hist[got["verdict"]] = hist.get(got["verdict"], 0) + 1
            log(f"{mode}: {len(idx)} frames, all expectations met; verdicts "
                + " ".join(f"{k}={v}" for k, v in sorted(hist.items())))


if __name__ == "__main__":
    T.run_main(main)
