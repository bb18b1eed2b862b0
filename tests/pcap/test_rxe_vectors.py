#!/usr/bin/python3
"""froce-pcap check on the Linux rxe golden vectors.

For every frame of every rxe pcap, at --width 64 and 512, each without and
with random back-pressure (--stall 0.3, fixed --seed):
  * verdict=ok and icrc=ok (every golden frame carries a good ICRC: the CSV
    says so and test_icrc_model.py recomputes it);
  * every field equals tshark's decoding of the same frame (kind, len, MACs,
    VLAN, addresses, TOS/traffic class, TTL/hop limit, UDP source port, all
    BTH fields, RETH/AETH/DETH fields, payload length), FECN/BECN from the BTH
    bytes tshark reports; no extension field the opcode does not carry;
  * opcode, PSN and length equal the CSV row of the frame;
  * the four runs print identical lines (width and stalls change nothing).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import froce_testlib as T  # noqa: E402
from froce_testlib import check, log  # noqa: E402


def main():
    T.require_vectors()
    T.require_tool()
    rows = {}
    for r in T.read_csv_vectors():
        rows[(r["file"], int(r["frame"]))] = r
    total = 0
    for name in T.RXE_PCAPS:
        path = T.VECTORS / name
        frames = T.read_pcap(path)
        ts = T.tshark_decode(path)
        check(len(ts) == len(frames), f"{name}: tshark saw {len(ts)} frames, pcap has {len(frames)}")
        want = []
        for i, (fr, t) in enumerate(zip(frames, ts), 1):
            r = rows.get((name, i))
            check(r is not None, f"{name} frame {i}: no CSV row")
            check(r["icrc_ok"] == "True", f"{name} frame {i}: CSV says the ICRC is bad")
            check(t["kind"] != "not-roce", f"{name} frame {i}: tshark does not see RoCE")
            check(t["opcode"] == r["opcode"] and t["psn"] == r["psn"] and t["len"] == r["frame_len"],
                  f"{name} frame {i}: tshark and CSV disagree (opcode/psn/len)")
            want.append(t)
        first = None
        modes = T.seeds_and_modes()
        for mode, run in zip(modes, T.run_check_modes(path, len(frames), modes)):
            for i, (got, w) in enumerate(zip(run.lines, want), 1):
                ctx = f"{name} frame {i} ({T.mode_str(mode)})"
                r = rows[(name, i)]
                T.compare_ok(ctx, got, w)
                check(T.values_equal("opcode", got["opcode"], r["opcode"]),
                      f"{ctx}: opcode={got['opcode']}, CSV says {r['opcode']}")
                check(got["psn"] == r["psn"], f"{ctx}: psn={got['psn']}, CSV says {r['psn']}")
                check(got["len"] == r["frame_len"], f"{ctx}: len={got['len']}, CSV says {r['frame_len']}")
            check(run.summary.get("ok") == str(len(frames)),
                  f"{name} ({T.mode_str(mode)}): summary ok={run.summary.get('ok')}, expected {len(frames)}")
            lines = [T.fmt_line(d) for d in run.lines]
            if first is None:
                first = (mode, lines)
            else:
                for i, (a, b) in enumerate(zip(first[1], lines), 1):
                    check(a == b, f"{name} frame {i}: output differs between "
                          f"`{T.mode_str(first[0])}` and `{T.mode_str(mode)}`:\n  {a}\n  {b}")
        log(f"{name}: {len(frames)} frames x {len(T.seeds_and_modes())} runs "
            f"(width 64/512, stall 0/0.3): verdict ok, every field == tshark, opcode/psn/len == CSV")
        total += len(frames)
    log(f"{total} golden frames checked")


if __name__ == "__main__":
    T.run_main(main)
