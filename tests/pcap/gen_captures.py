#!/usr/bin/python3
"""Generate NEW RoCE captures (frames the engine has never seen) with scapy.

    /usr/bin/python3 tests/pcap/gen_captures.py OUTDIR

writes OUTDIR/gen_<family>.pcap (families: ipv4, ipv6, vlan, v1) and
OUTDIR/manifest.json.  Each manifest entry names the file, the 1-based frame
number, a description, and the fields froce-pcap must print for it, taken from
the parameters the frame was built from (never from a decoder):

    {"file": "gen_ipv4.pcap", "frame": 3, "name": "...",
     "expect": {"len": "...", "kind": "v2-ipv4", "opcode": "0x05", ...},
     "alt": {"paylen": ["0"]},            # other acceptable values (rare)
     "rebuild": "exact" | "prefix:N"}     # how rebuild output must compare

RoCE v2 over IPv4 frames get their ICRC from scapy.contrib.roce.  scapy 2.5
computes no ICRC for IPv6 (it warns and writes 0) and builds no RoCE v1, so
those frames get the ICRC from froce_testlib.icrc_value(), which
test_icrc_model.py checks against the rxe IPv6 vectors.
"""

import json
import logging
import random
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import froce_testlib as T  # noqa: E402

logging.getLogger("scapy").setLevel(logging.ERROR)
from scapy.compat import raw  # noqa: E402
from scapy.contrib.roce import BTH  # noqa: E402
from scapy.layers.inet import IP, UDP  # noqa: E402
from scapy.layers.inet6 import IPv6  # noqa: E402
from scapy.layers.l2 import Dot1Q, Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402

MAC1, MAC2 = "52:54:00:00:00:01", "52:54:00:00:00:02"
MAC3, MAC4 = "02:1b:21:aa:bb:cc", "ec:0d:9a:12:34:56"


def encode_ext(opcode, ext):
    out = b""
    for h in T.ext_headers(opcode):
        if h == "RETH":
            out += struct.pack(">QII", ext["va"], ext["rkey"], ext["dmalen"])
        elif h == "AETH":
            out += bytes([ext["syndrome"]]) + ext["msn"].to_bytes(3, "big")
        elif h == "DETH":
            out += struct.pack(">I", ext["qkey"]) + b"\0" + ext["sqpn"].to_bytes(3, "big")
        elif h == "ImmDt":
            out += struct.pack(">I", ext["imm"])
        elif h == "IETH":
            out += struct.pack(">I", ext["ieth_rkey"])
        elif h == "AtomicETH":
            out += struct.pack(">QIQQ", ext["va"], ext["rkey"], ext["swap"], ext["cmp"])
        elif h == "AtomicAckETH":
            out += struct.pack(">Q", ext["orig"])
    want = {k for h in T.ext_headers(opcode) for k in EXT_FIELDS[h]}
    assert set(ext) == want, f"opcode 0x{opcode:02x}: ext {sorted(ext)} != {sorted(want)}"
    return out


EXT_FIELDS = {"RETH": ["va", "rkey", "dmalen"], "AETH": ["syndrome", "msn"],
              "DETH": ["qkey", "sqpn"], "ImmDt": ["imm"], "IETH": ["ieth_rkey"],
              "AtomicETH": ["va", "rkey", "swap", "cmp"], "AtomicAckETH": ["orig"]}


class Gen:
    def __init__(self, seed=T.SEED):
        self.rng = random.Random(seed)
        self.entries = []      # (family, frame bytes, entry dict)
        self.ipid = 0x3a00

    def payload(self, n):
        return bytes(self.rng.getrandbits(8) for _ in range(n))

    def add(self, family, name, *, kind, opcode, paylen=0, payload=None, ext=None,
            dmac=MAC1, smac=MAC2, vlan=None, sip="10.0.0.2", dip="10.0.0.1",
            tclass=0, ttl=64, flowlabel=0, sport=0xC121, df=True, ipid=None,
            se=0, m=0, pkey=0xFFFF, fecn=0, becn=0, dqpn=0x11, ackreq=0, psn=0,
            eth_pad_to=None, alt=None):
        ext = ext or {}
        if payload is None:
            payload = self.payload(paylen)
        paylen = len(payload)
        pad = (-paylen) % 4
        ib_tail = encode_ext(opcode, ext) + payload + b"\0" * pad
        if ipid is None:
            self.ipid = (self.ipid + 1) & 0xFFFF
            ipid = self.ipid
        bth = BTH(opcode=opcode, solicited=se, migreq=m, padcount=pad, version=0, pkey=pkey,
                  fecn=fecn, becn=becn, resv6=0, dqpn=dqpn, ackreq=ackreq, resv7=0, psn=psn)
        eth = Ether(dst=dmac, src=smac)
        if vlan is not None:
            eth = eth / Dot1Q(vlan=vlan[0], prio=vlan[1])
        if kind == "v2-ipv4":
            pkt = eth / IP(src=sip, dst=dip, tos=tclass, ttl=ttl, id=ipid,
                           flags="DF" if df else 0) / UDP(sport=sport, dport=4791, chksum=0) \
                / bth / Raw(ib_tail)
            fr = raw(pkt)                      # ICRC computed by scapy.contrib.roce
        elif kind == "v2-ipv6":
            pkt = eth / IPv6(src=sip, dst=dip, tc=tclass, fl=flowlabel, hlim=ttl) \
                / UDP(sport=sport, dport=4791, chksum=0) / bth / Raw(ib_tail)
            fr = T.fix_icrc(raw(pkt))          # scapy writes ICRC 0 for IPv6
        elif kind == "v1":
            grh_len = 12 + len(ib_tail) + 4
            grh = struct.pack(">IHBB", (6 << 28) | (tclass << 20) | flowlabel, grh_len,
                              T.GRH_NXTHDR_IBA, ttl)
            grh += T.ipaddress.IPv6Address(sip).packed + T.ipaddress.IPv6Address(dip).packed
            bth_bytes = raw(bth / Raw(ib_tail))[:-4]   # scapy BTH fields, no ICRC
            if vlan is None:
                l2 = raw(Ether(dst=dmac, src=smac, type=T.ETH_P_ROCEV1))
            else:
                l2 = raw(Ether(dst=dmac, src=smac) / Dot1Q(vlan=vlan[0], prio=vlan[1], type=T.ETH_P_ROCEV1))
            fr = T.fix_icrc(l2 + grh + bth_bytes + b"\0\0\0\0")
        else:
            raise ValueError(kind)
        rebuild = "exact"
        if eth_pad_to and len(fr) < eth_pad_to:
            rebuild = f"prefix:{len(fr)}"
            fr += b"\0" * (eth_pad_to - len(fr))
        expect = {"len": str(len(fr)), "kind": kind, "verdict": "ok", "icrc": "ok",
                  "opcode": f"0x{opcode:02x}", "dqpn": f"0x{dqpn:06x}", "psn": str(psn),
                  "se": str(se), "m": str(m), "pad": str(pad), "tver": "0",
                  "pkey": f"0x{pkey:04x}", "fecn": str(fecn), "becn": str(becn),
                  "ackreq": str(ackreq), "dmac": dmac.lower(), "smac": smac.lower(),
                  "vlan": "-" if vlan is None else f"{vlan[0]}/{vlan[1]}",
                  "sip": str(T.ipaddress.ip_address(sip)), "dip": str(T.ipaddress.ip_address(dip)),
                  "tclass": f"0x{tclass:02x}", "ttl": str(ttl)}
        if kind != "v1":
            expect["sport"] = str(sport)
        expect["paylen"] = str(paylen)
        for k, v in ext.items():
            expect[k] = T.fmt_value(k, v)
        self.entries.append((family, bytes(fr), {
            "name": name, "expect": expect, "alt": alt or {}, "rebuild": rebuild,
            "params": {"kind": kind, "flowlabel": flowlabel, "df": df, "ipid": ipid}}))

    # ------------------------------------------------------------------
    def build_all(self):
        A4 = dict(kind="v2-ipv4", sip="10.0.0.2", dip="10.0.0.1")
        A6 = dict(kind="v2-ipv6", sip="fd00::2", dip="fd00::1")
        V1 = dict(kind="v1", sip="fe80::5054:ff:fe00:2", dip="fe80::5054:ff:fe00:1")
        families = [("ipv4", A4, {}), ("ipv6", A6, {}), ("v1", V1, {}),
                    ("vlan", A4, dict(vlan=(4094, 5))), ("vlan", A6, dict(vlan=(7, 3)))]
        va = 0x00007F3A1C2B4000
        for fam, base, extra in families:
            b = dict(base, **extra)
            fn = fam + ("" if fam != "vlan" else "/" + base["kind"])

            def add(name, **kw):
                kw2 = dict(b)
                kw2.update(kw)
                self.add(fam, f"{fn}: {name}", **kw2)

            # --- sends, with immediate / invalidate, odd lengths (pad 1..3)
            add("RC SEND ONLY w/ IMM", opcode=T.OPC["RC_SEND_ONLY_WITH_IMMEDIATE"], paylen=100,
                ext=dict(imm=0xDEADBEEF), psn=1000, se=1, ackreq=1)
            add("RC SEND FIRST", opcode=T.OPC["RC_SEND_FIRST"], paylen=1024, psn=0xFFFFFE, dqpn=0x0001D3)
            add("RC SEND MIDDLE", opcode=T.OPC["RC_SEND_MIDDLE"], paylen=1024, psn=0xFFFFFF, dqpn=0x0001D3)
            add("RC SEND LAST w/ IMM pad3", opcode=T.OPC["RC_SEND_LAST_WITH_IMMEDIATE"], paylen=61,
                ext=dict(imm=0x00000001), psn=0, dqpn=0x0001D3, ackreq=1, se=1)
            add("RC SEND ONLY w/ INV pad1", opcode=T.OPC["RC_SEND_ONLY_WITH_INVALIDATE"], paylen=3,
                ext=dict(ieth_rkey=0x00ABCDEF), psn=77, ackreq=1)
            add("RC SEND LAST w/ INV pad2", opcode=T.OPC["RC_SEND_LAST_WITH_INVALIDATE"], paylen=2,
                ext=dict(ieth_rkey=0xFFFFFFFF), psn=78, ackreq=1, m=1)
            add("RC SEND ONLY 0 bytes (58 B, no Ethernet pad)", opcode=T.OPC["RC_SEND_ONLY"],
                paylen=0, psn=5)
            add("RC SEND ONLY 0 bytes padded to 60", opcode=T.OPC["RC_SEND_ONLY"], paylen=0,
                psn=6, eth_pad_to=60)
            add("UC SEND ONLY w/ IMM", opcode=T.OPC["UC_SEND_ONLY_WITH_IMMEDIATE"], paylen=17,
                ext=dict(imm=0x7FFFFFFF), psn=0x123456, dqpn=0xFFFFFF)
            # --- writes
            add("RC WRITE ONLY w/ IMM", opcode=T.OPC["RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE"], paylen=200,
                ext=dict(va=va, rkey=0x1234ABCD, dmalen=200, imm=0xCAFEF00D), psn=4242, ackreq=1)
            add("RC WRITE FIRST 4096", opcode=T.OPC["RC_RDMA_WRITE_FIRST"], paylen=4096,
                ext=dict(va=va + 0x10000, rkey=0x00000301, dmalen=3 * 4096 + 5), psn=0xFFFFFF)
            add("RC WRITE MIDDLE 4096", opcode=T.OPC["RC_RDMA_WRITE_MIDDLE"], paylen=4096, psn=0)
            add("RC WRITE LAST w/ IMM pad3", opcode=T.OPC["RC_RDMA_WRITE_LAST_WITH_IMMEDIATE"],
                paylen=4096 + 5 - 4096, ext=dict(imm=0x0BADCAFE), psn=1, ackreq=1, se=1)
            add("UC WRITE ONLY w/ IMM 0 bytes", opcode=T.OPC["UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE"],
                paylen=0, ext=dict(va=0, rkey=0xFFFFFFFF, dmalen=0, imm=0x11223344), psn=9)
            add("RC WRITE ONLY 0 bytes, va=~0", opcode=T.OPC["RC_RDMA_WRITE_ONLY"], paylen=0,
                ext=dict(va=0xFFFFFFFFFFFFFFFF, rkey=0x80000000, dmalen=0), psn=10, ackreq=1)
            # --- RDMA READ at path MTUs 256, 512, 2048, 4096
            for mtu, psn0 in ((256, 0x10), (512, 0xFFFFFE), (2048, 0x7FFFFF), (4096, 0xFFFFFD)):
                n = 3 * mtu - 20
                add(f"READ REQUEST mtu {mtu}", opcode=T.OPC["RC_RDMA_READ_REQUEST"],
                    ext=dict(va=va + mtu, rkey=0x0000A5A5 + mtu, dmalen=n), psn=psn0, ackreq=1,
                    dqpn=0x000012)
                for i, (op, ln) in enumerate((("FIRST", mtu), ("MIDDLE", mtu), ("LAST", mtu - 20))):
                    e = dict(syndrome=0x1F, msn=0x000100 + i) if op != "MIDDLE" else {}
                    add(f"READ RESPONSE {op} mtu {mtu}", opcode=T.OPC[f"RC_RDMA_READ_RESPONSE_{op}"],
                        paylen=ln, ext=e, psn=(psn0 + i) & 0xFFFFFF, dqpn=0x000011,
                        dmac=MAC2, smac=MAC1, sip=b["dip"], dip=b["sip"])
            add("READ RESPONSE ONLY pad1", opcode=T.OPC["RC_RDMA_READ_RESPONSE_ONLY"], paylen=7,
                ext=dict(syndrome=0x00, msn=0xFFFFFF), psn=0xABCDEF)
            # --- atomics
            add("COMPARE_SWAP", opcode=T.OPC["RC_COMPARE_SWAP"], ackreq=1, psn=300,
                ext=dict(va=va + 0x40, rkey=0x00C0FFEE, swap=0x0123456789ABCDEF, cmp=0xFEDCBA9876543210))
            add("ATOMIC ACK (cmp-swap)", opcode=T.OPC["RC_ATOMIC_ACKNOWLEDGE"], psn=300,
                ext=dict(syndrome=0x1F, msn=12, orig=0xFEDCBA9876543210), dmac=MAC2, smac=MAC1,
                sip=b["dip"], dip=b["sip"])
            add("FETCH_ADD", opcode=T.OPC["RC_FETCH_ADD"], ackreq=1, psn=301,
                ext=dict(va=va + 0x48, rkey=0x00C0FFEE, swap=1, cmp=0))
            add("ATOMIC ACK (fetch-add)", opcode=T.OPC["RC_ATOMIC_ACKNOWLEDGE"], psn=301,
                ext=dict(syndrome=0x1F, msn=13, orig=0x8000000000000000), dmac=MAC2, smac=MAC1,
                sip=b["dip"], dip=b["sip"])
            # --- acks / naks
            add("ACK", opcode=T.OPC["RC_ACKNOWLEDGE"], ext=dict(syndrome=0x1F, msn=1), psn=4242)
            add("RNR NAK", opcode=T.OPC["RC_ACKNOWLEDGE"], ext=dict(syndrome=0x2E, msn=7), psn=77)
            add("NAK PSN seq err", opcode=T.OPC["RC_ACKNOWLEDGE"], ext=dict(syndrome=0x60, msn=7),
                psn=0xFFFFFF)
            # --- UD
            add("UD SEND ONLY w/ IMM", opcode=T.OPC["UD_SEND_ONLY_WITH_IMMEDIATE"], paylen=256,
                ext=dict(qkey=0x11111111, sqpn=0x000012, imm=0x5A5A5A5A), psn=0x00FACE, dqpn=0x000011)
            add("UD SEND ONLY QP1 pkey 0x8001", opcode=T.OPC["UD_SEND_ONLY"], paylen=255,
                ext=dict(qkey=0x80010000, sqpn=0x000001), psn=0, dqpn=0x000001, pkey=0x8001)
            # --- CNP (becn set; the 16 reserved bytes follow the BTH)
            add("CNP", opcode=T.OPC["CNP"], payload=b"\0" * 16, becn=1, dqpn=0x0001D3, psn=0,
                tclass=0xC0 if base["kind"] != "v1" else 0, alt={"paylen": ["0"]})
            # --- variant fields set on the wire
            add("SEND ONLY, ECN CE, ttl 1, fecn", opcode=T.OPC["RC_SEND_ONLY"], paylen=64, psn=11,
                tclass=0x03, ttl=1, fecn=1, ackreq=1, flowlabel=0xABCDE if base["kind"] != "v2-ipv4" else 0)
            add("SEND ONLY, DSCP 46 ECT(0), ttl 255, fecn+becn", opcode=T.OPC["RC_SEND_ONLY"],
                paylen=64, psn=12, tclass=0xBA, ttl=255, fecn=1, becn=1,
                flowlabel=0x00001 if base["kind"] != "v2-ipv4" else 0)
            add("SEND ONLY, other MACs / sport / pkey", opcode=T.OPC["RC_SEND_ONLY"], paylen=64,
                psn=13, dmac=MAC3, smac=MAC4, sport=0xFFFF, pkey=0x7FFF, se=1, m=1)
        # IPv4-only variations
        self.add("ipv4", "ipv4: DF clear, id 0, other addresses, sport 1", kind="v2-ipv4",
                 opcode=T.OPC["RC_SEND_ONLY"], paylen=48, df=False, ipid=0, sip="192.168.77.5",
                 dip="172.16.0.9", sport=1, psn=14)
        # IPv6 / v1 address variations (compressed forms, IPv4-mapped GIDs)
        self.add("ipv6", "ipv6: global addresses", kind="v2-ipv6", opcode=T.OPC["RC_SEND_ONLY"],
                 paylen=48, sip="2001:db8:0:1::a", dip="2001:db8:ffff:0:1:0:0:1", psn=15)
        self.add("v1", "v1: IPv4-mapped GIDs", kind="v1", opcode=T.OPC["RC_SEND_ONLY"],
                 paylen=48, sip="::ffff:10.0.0.2", dip="::ffff:10.0.0.1", psn=16)
        self.add("v1", "v1: VLAN 100/6", kind="v1", opcode=T.OPC["RC_SEND_ONLY"], paylen=40,
                 sip="fe80::5054:ff:fe00:2", dip="fe80::5054:ff:fe00:1", vlan=(100, 6), psn=17)
        return self.entries


def generate(outdir, seed=T.SEED):
    """Write the captures and manifest into outdir; return the manifest list."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    entries = Gen(seed).build_all()
    files, manifest = {}, []
    for fam, fr, e in entries:
        fname = f"gen_{fam}.pcap"
        files.setdefault(fname, []).append(fr)
        e = dict(e, file=fname, frame=len(files[fname]), hex=fr.hex())
        manifest.append(e)
    for fname, frames in files.items():
        T.write_pcap(outdir / fname, frames)
    (outdir / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return manifest


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_captures.py OUTDIR")
    m = generate(sys.argv[1])
    print(f"wrote {len(m)} frames in {len({e['file'] for e in m})} files to {sys.argv[1]}")
