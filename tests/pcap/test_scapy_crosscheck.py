#!/usr/bin/python3
"""froce-pcap on NEW captures generated with scapy (gen_captures.py).

The frames (written to a temporary directory, never into the repo) cover what
the rxe vectors do not: RC SEND with immediate and with invalidate, RDMA WRITE
with immediate, READ REQUEST/RESPONSE FIRST/MIDDLE/LAST at path MTUs 256, 512,
2048 and 4096, COMPARE_SWAP and FETCH_ADD with their ATOMIC ACKNOWLEDGE
(AtomicAckETH), ACK/RNR NAK/NAK, UC SEND/WRITE with immediate, UD SEND with
immediate and to QP1, CNP, VLAN (PCP != 0, VID 4094 and 7), TOS/ECN and IPv6
traffic class/flow label, TTL 1 and 255, FECN/BECN, pad counts 1..3,
0-byte payloads (58-byte frame, and padded to 60), 4096-byte payloads, PSNs
around 2^24, other MACs/ports/P_Keys/addresses, over IPv4, IPv6 and RoCE v1.

  1. `check` at --width 64/512 and with --stall 0.3: every frame verdict ok,
     icrc ok, every field equal to the parameters the frame was built from
     (CNP: paylen 16, the reserved bytes, or 0);
  2. `rebuild` at --width 64/512: every frame byte-identical to its input (a
     frame padded to 60 bytes may come back unpadded or padded with the same
     zeros);
  3. the ICRC on every rebuilt frame equals scapy.contrib.roce's ICRC for it
     (RoCE v2 IPv4, VLAN or not; scapy 2.5 computes none for IPv6 / v1, those
     are checked with froce_testlib's ICRC, itself checked on the rxe IPv6
     vectors by test_icrc_model.py).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import froce_testlib as T  # noqa: E402
from froce_testlib import check, log  # noqa: E402
import gen_captures  # noqa: E402


def main():
    T.require_tool()
    with T.tmpdir("crosscheck") as td:
        manifest = gen_captures.generate(td)
        files = {}
        for e in manifest:
            files.setdefault(e["file"], []).append(e)
        log(f"generated {len(manifest)} frames in {len(files)} captures: "
            + ", ".join(f"{f} ({len(v)})" for f, v in sorted(files.items())))
        for fname, ents in sorted(files.items()):
            path = Path(td) / fname
            frames = T.read_pcap(path)
            check([bytes.fromhex(e["hex"]) for e in ents] == frames, f"internal: {fname} round trip")
            for e, fr in zip(ents, frames):
                if e["expect"]["kind"] == "v2-ipv4":
                    check(T.scapy_icrc(fr) == fr[T.roce_geometry(fr)[3] - 4:T.roce_geometry(fr)[3]],
                          f"internal: {e['name']}: generated ICRC is not scapy's")
            # 1. decode
            modes = T.seeds_and_modes()
            for mode, run in zip(modes, T.run_check_modes(path, len(frames), modes)):
                for i, (e, got) in enumerate(zip(ents, run.lines), 1):
                    ctx = f"{fname} frame {i} [{e['name']}] ({T.mode_str(mode)})"
                    T.compare_ok(ctx, got, e["expect"], {k: set(v) for k, v in e["alt"].items()})
            log(f"{fname}: {len(frames)} frames decode with every field right "
                f"(width 64/512, stall 0/0.3)")
            # 2./3. rebuild
            n_scapy = n_own = 0
            for width in (64, 512):
                out = Path(td) / f"rebuilt{width}_{fname}"
                cmd = T.run_rebuild(path, out, len(frames), width)
                got = T.read_pcap(out)
                check(len(got) == len(frames), f"`{cmd}`: {len(got)} frames out, {len(frames)} in")
                for i, (e, a, b) in enumerate(zip(ents, frames, got), 1):
                    ctx = f"{fname} frame {i} [{e['name']}] rebuilt at --width {width}"
                    if e["rebuild"].startswith("prefix:"):
                        n = int(e["rebuild"].split(":")[1])
                        T.diff_frames(ctx + f" (first {n} bytes)", a[:n], b[:n])
                        check(len(b) == n or b == a, f"{ctx}: {len(b)} bytes, expected {n} "
                              f"(unpadded) or the {len(a)}-byte padded input; got {b.hex()}")
                    else:
                        T.diff_frames(ctx, a, b)
                    kind, _, _, end = T.roce_geometry(b)
                    if kind == "v2-ipv4":
                        s = T.scapy_icrc(b)
                        check(s == b[end - 4:end], f"{ctx}: ICRC on the rebuilt frame "
                              f"{b[end - 4:end].hex()}, scapy computes {s.hex()}")
                        n_scapy += 1
                    else:
                        s = T.compute_icrc(b)
                        check(s == b[end - 4:end], f"{ctx}: ICRC on the rebuilt frame "
                              f"{b[end - 4:end].hex()}, the README rule gives {s.hex()}")
                        n_own += 1
            log(f"{fname}: rebuilt byte-identical at width 64 and 512; rebuilt ICRC == scapy's "
                f"on {n_scapy}, == README rule (IPv6/v1) on {n_own}")


if __name__ == "__main__":
    T.run_main(main)
