# SPDX-License-Identifier: MIT
"""Checks that the bridge's protocol localparams equal the header's
constants: every localparam of froce_uart_host_bridge.v named like a
FROCE_UART_* constant of froce_uart_proto.h (without the prefix) must have
its value, and the header's commands, statuses and start bytes must all be
in the RTL. Prints one line per problem; exit status 1 if any.

    python3 check_proto.py [bridge.v] [proto.h]
"""

import os
import re
import sys

from uart_proto import HEADER, ROOT, read_header

RTL = os.path.join(ROOT, "fpga", "common", "rtl", "froce_uart_host_bridge.v")


def verilog_value(text):
    text = text.strip().replace("_", "")
    m = re.fullmatch(r"(\d+)?'([hdbo])([0-9a-fA-F]+)", text)
    if m:
        return int(m.group(3), {"h": 16, "d": 10, "b": 2, "o": 8}[m.group(2)])
    if re.fullmatch(r"\d+", text):
        return int(text)
    return None         # an expression: not a protocol constant


def rtl_localparams(path):
    out = {}
    with open(path) as f:
        for m in re.finditer(r"localparam\s+(?:\[[^\]]*\]\s*)?(\w+)\s*=\s*([^;,]+)[;,]", f.read()):
            out[m.group(1)] = verilog_value(m.group(2))
    return out


def main():
    rtl_path = sys.argv[1] if len(sys.argv) > 1 else RTL
    hdr_path = sys.argv[2] if len(sys.argv) > 2 else HEADER
    hdr = read_header(hdr_path)
    rtl = rtl_localparams(rtl_path)
    bad = 0
    for name, value in sorted(hdr.items()):
        if name in rtl:
            if rtl[name] != value:
                print(f"{name}: RTL {rtl[name]!r}, header {value:#x}")
                bad += 1
        elif re.match(r"(CMD|STATUS|SOF)_", name) or name in ("PROTO_VERSION", "INFO_MAGIC", "CRC_POLY",
                                                             "CRC_INIT", "INFO_LEN", "IRQ_LEN"):
            print(f"{name}: in the header, not in the RTL")
            bad += 1
    shared = sorted(set(hdr) & set(rtl))
    if not bad:
        print(f"{len(shared)} constants agree: {' '.join(shared)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
