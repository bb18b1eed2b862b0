#!/usr/bin/python3
"""Self-test of the suite's own reference models (does not need froce-pcap).

Everything the other tests take as "expected" comes from tshark, scapy, the
rxe CSV, or froce_testlib's ICRC and decoder.  This test makes sure the last
two deserve that trust:
  1. every CSV row matches its pcap frame byte for byte (frame_hex, length,
     opcode, PSN, ICRC wire bytes, CRC-32 value, ok flag) and froce_testlib's
     ICRC reproduces the ICRC of all 216 rxe frames (IPv4, IPv6, VLAN);
  2. scapy.contrib.roce recomputes the same ICRC for every IPv4 rxe frame
     (scapy 2.5 has no IPv6 ICRC) and for every generated IPv4 frame;
  3. a second, bitwise CRC-32 with masks built field by field agrees with
     froce_testlib on every rxe and generated frame (IPv4, IPv6, RoCE v1);
  4. the masks are right: changing a masked (variant) field leaves the ICRC
     unchanged, changing any other covered byte changes it;
  5. froce_testlib.analyze() decodes every rxe frame exactly as tshark does,
     and every generated frame as its generation parameters say (and tshark
     agrees with those parameters where it dissects the frame).
"""

import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import froce_testlib as T  # noqa: E402
from froce_testlib import check, log  # noqa: E402


def crc32_bitwise(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def icrc_fieldwise(fr):
    """ICRC written independently of froce_testlib.icrc_input: parse the
    headers field by field, rebuild the masked pseudo-packet, bitwise CRC."""
    et = struct.unpack(">H", fr[12:14])[0]
    l3 = 14
    if et == 0x8100:
        et = struct.unpack(">H", fr[16:18])[0]
        l3 = 18
    if et == 0x0800:
        ver_ihl, _tos, tot, ident, frag, _ttl, proto, _csum = struct.unpack(">BBHHHBBH", fr[l3:l3 + 12])
        src, dst = fr[l3 + 12:l3 + 16], fr[l3 + 16:l3 + 20]
        ip = struct.pack(">BBHHHBBH", ver_ihl, 0xFF, tot, ident, frag, 0xFF, proto, 0xFFFF) + src + dst
        l4 = l3 + (ver_ihl & 15) * 4
        sport, dport, ulen, _ = struct.unpack(">HHHH", fr[l4:l4 + 8])
        pseudo = ip + struct.pack(">HHHH", sport, dport, ulen, 0xFFFF)
        bth, end = l4 + 8, l3 + tot
    else:
        w0, plen, nh, _hl = struct.unpack(">IHBB", fr[l3:l3 + 8])
        w0 = (w0 & 0xF0000000) | 0x0FFFFFFF      # version kept; tclass + flow label = 1s
        pseudo = struct.pack(">IHBB", w0, plen, nh, 0xFF) + fr[l3 + 8:l3 + 40]
        if et == 0x86DD:
            sport, dport, ulen, _ = struct.unpack(">HHHH", fr[l3 + 40:l3 + 48])
            pseudo += struct.pack(">HHHH", sport, dport, ulen, 0xFFFF)
            bth = l3 + 48
        else:
            bth = l3 + 40
        end = l3 + 40 + plen
    b = fr[bth:bth + 12]
    pseudo += b[0:4] + b"\xff" + b[5:12] + fr[bth + 12:end - 4]
    return struct.pack("<I", crc32_bitwise(b"\xff" * 8 + pseudo))


def main():
    T.require_vectors()
    import logging
    logging.getLogger("scapy").setLevel(logging.ERROR)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import gen_captures

    # 1. CSV <-> pcap <-> our ICRC
    rows = T.read_csv_vectors()
    caps = {name: T.read_pcap(T.VECTORS / name) for name in T.RXE_PCAPS}
    check(len(rows) == sum(len(v) for v in caps.values()),
          f"CSV has {len(rows)} rows, pcaps have {sum(len(v) for v in caps.values())} frames")
    seen = set()
    for r in rows:
        ctx = f"{r['file']} frame {r['frame']}"
        check(r["file"] in caps, f"{ctx}: CSV names an unknown file")
        fr = caps[r["file"]][int(r["frame"]) - 1]
        seen.add((r["file"], int(r["frame"])))
        check(bytes.fromhex(r["frame_hex"]) == fr, f"{ctx}: CSV frame_hex differs from the pcap")
        check(int(r["frame_len"]) == len(fr), f"{ctx}: CSV length {r['frame_len']} != {len(fr)}")
        _, _, bth, end = T.roce_geometry(fr)
        check(int(r["opcode"], 16) == fr[bth], f"{ctx}: CSV opcode {r['opcode']} != 0x{fr[bth]:02x}")
        check(int(r["psn"]) == int.from_bytes(fr[bth + 9:bth + 12], "big"), f"{ctx}: CSV PSN differs")
        check(bytes.fromhex(r["icrc_wire_bytes"]) == fr[end - 4:end], f"{ctx}: CSV ICRC bytes differ")
        check(int(r["icrc_crc32_value"], 16) == struct.unpack("<I", fr[end - 4:end])[0],
              f"{ctx}: CSV CRC-32 value is not the wire bytes read little-endian")
        mine = T.compute_icrc(fr)
        check((mine == fr[end - 4:end]) == (r["icrc_ok"] == "True"),
              f"{ctx}: our ICRC {mine.hex()} vs wire {fr[end - 4:end].hex()}, CSV ok={r['icrc_ok']}")
        check(r["icrc_ok"] == "True", f"{ctx}: CSV marks a golden frame as bad")
    check(len(seen) == len(rows), "CSV has duplicate rows")
    log(f"CSV: {len(rows)} rows match their pcap frames; our ICRC matches all {len(rows)}")

    # 2./3. scapy and the bitwise implementation
    n4 = n_all = 0
    for name, frames in caps.items():
        for i, fr in enumerate(frames, 1):
            kind = T.roce_geometry(fr)[0]
            if kind == "v2-ipv4":
                check(T.scapy_icrc(fr) == T.compute_icrc(fr), f"{name} frame {i}: scapy's ICRC differs from ours")
                n4 += 1
            check(icrc_fieldwise(fr) == T.compute_icrc(fr), f"{name} frame {i}: bitwise ICRC differs")
            n_all += 1
    log(f"scapy.contrib.roce agrees on {n4} IPv4 rxe frames; bitwise CRC agrees on {n_all}")

    with T.tmpdir("model") as td:
        manifest = gen_captures.generate(td)
        gen_frames = {}
        for e in manifest:
            fr = bytes.fromhex(e["hex"])
            gen_frames.setdefault(e["file"], []).append(fr)
            ctx = f"generated {e['name']}"
            check(icrc_fieldwise(fr) == T.compute_icrc(fr), f"{ctx}: bitwise ICRC differs from ours")
            if e["expect"]["kind"] == "v2-ipv4":
                check(T.scapy_icrc(fr) == T.compute_icrc(fr), f"{ctx}: scapy's ICRC differs from ours")
        log(f"generated frames: bitwise and (IPv4) scapy ICRC agree on {len(manifest)} frames")

        # 4. masks
        variant_ipv4 = {1, 8, 10, 11}                 # TOS, TTL, header checksum
        variant_ipv6 = {0: 0x0F, 1: 0xFF, 2: 0xFF, 3: 0xFF, 7: 0xFF}
        tested = 0
        samples = [caps["rxe_rc_send_roce_only.pcap"][0], caps["rxe_ipv6_roce_only.pcap"][5],
                   caps["rxe_vlan_roce_only.pcap"][1], gen_frames["gen_v1.pcap"][0]]
        for fr in samples:
            kind, l3, bth, end = T.roce_geometry(fr)
            ref = T.compute_icrc(fr)
            for off in range(l3, end - 4):
                for bit in range(8):
                    b = bytearray(fr)
                    b[off] ^= 1 << bit
                    rel = off - l3
                    if kind == "v2-ipv4":
                        masked = rel in variant_ipv4 or off in (bth - 2, bth - 1, bth + 4)
                    else:
                        masked = bool(variant_ipv6.get(rel, 0) & (1 << bit)) or off == bth + 4 or \
                            (kind == "v2-ipv6" and off in (bth - 2, bth - 1))
                    if rel in (2, 3) and kind == "v2-ipv4" or rel in (4, 5) and kind != "v2-ipv4":
                        continue  # a length: moves the ICRC; covered by the bit-flip test
                    same = T.compute_icrc(bytes(b)) == ref
                    check(same == masked, f"{kind}: flipping bit {bit} of byte {off} "
                          f"{'changed' if masked else 'did not change'} the ICRC")
                    tested += 1
        log(f"ICRC masks: {tested} single-bit changes behave as the README rule says")

        # 5. reference decoder vs tshark / generation parameters
        n = 0
        for name, frames in caps.items():
            ts = T.tshark_decode(T.VECTORS / name)
            check(len(ts) == len(frames), f"tshark saw {len(ts)} frames in {name}, expected {len(frames)}")
            for i, (fr, t) in enumerate(zip(frames, ts), 1):
                mine = T.expected_ok_fields(fr)
                mine.pop("len")
                t = dict(t)
                kind = t.pop("kind")
                check(T.analyze(fr).kind == kind, f"{name} frame {i}: kind differs from tshark")
                t.pop("len")
                check(set(mine) == set(t), f"{name} frame {i}: keys differ: ours {sorted(mine)} "
                      f"tshark {sorted(t)}")
                for k in t:
                    check(T.values_equal(k, mine[k], t[k]),
                          f"{name} frame {i}: {k}: ours {mine[k]} tshark {t[k]}")
                n += 1
        log(f"reference decoder == tshark on all {n} rxe frames")
        for fname, frames in gen_frames.items():
            ts = T.tshark_decode(Path(td) / fname)
            ents = [e for e in manifest if e["file"] == fname]
            check(len(ts) == len(frames) == len(ents), f"{fname}: tshark saw {len(ts)} frames, "
                  f"wrote {len(frames)}")
            for fr, t, e in zip(frames, ts, ents):
                ctx = f"generated {e['name']}"
                mine = T.expected_ok_fields(fr)
                want = {k: v for k, v in e["expect"].items() if k not in ("verdict", "icrc", "kind")}
                check(set(mine) == set(want), f"{ctx}: keys: decoder {sorted(mine)} params {sorted(want)}")
                for k, v in want.items():
                    check(T.values_equal(k, mine[k], v), f"{ctx}: {k}: decoder {mine[k]}, params {v}")
                check(T.analyze(fr).kind == e["expect"]["kind"], f"{ctx}: kind")
                # tshark: BTH and addressing always; extension headers unless
                # tshark hands the payload to another dissector (QP1 MADs) or
                # does not know the opcode (CNP).
                skip_ext = int(want["dqpn"], 16) == 1 or want["opcode"] == "0x81"
                for k, v in t.items():
                    if k in ("kind", "len") or (skip_ext and k in T.EXT_KEYS + ["paylen"]):
                        continue
                    if k == "paylen" and want["opcode"] in ("0x16", "0x17", "0x04") and v == "0":
                        continue  # tshark 4.0 drops tiny SEND payloads after IETH / empty sends
                    check(k in want, f"{ctx}: tshark decodes {k}={v}, not in the parameters")
                    check(T.values_equal(k, v, want[k]), f"{ctx}: {k}: tshark {v}, params {want[k]}")
        log(f"reference decoder == generation parameters on {len(manifest)} generated frames; "
            "tshark agrees where it dissects")


if __name__ == "__main__":
    T.run_main(main)
