#!/usr/bin/env python3
"""Generate froce's hardware-interface files from spec/*.toml.

    scripts/gen_hw.py           write every generated file that changed
    scripts/gen_hw.py --check   exit 1 naming each stale or missing file

Outputs: include/froce_hw.h (C, macros only), rtl/include/froce_hw.vh
(Verilog `defines), rtl/roce/froce_opcode_info.v (opcode decoder) and the
generated sections of docs/hw-interface.md (between GENERATED markers).
The C header and the Verilog include carry the same names; the C header adds
what only C uses (word indexes, masks, X-macro lists).
"""

import argparse
import re
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import froce_spec  # noqa: E402
from froce_spec import need  # noqa: E402

OUT_H = "include/froce_hw.h"
OUT_VH = "rtl/include/froce_hw.vh"
OUT_OPINFO = "rtl/roce/froce_opcode_info.v"
OUT_DOC = "docs/hw-interface.md"
DOC_SECTIONS = ("identity", "constants", "enums", "headers", "opcodes", "rhdr",
                "registers", "layouts", "commands", "counters")


# ---------------------------------------------------------------------------
# Definitions shared by the C header and the Verilog include

class Defs:
    def __init__(self):
        self.items, self.seen = [], set()

    def sec(self, title, doc=None):
        self.items.append(("sec", title))
        self.doc(doc)

    def doc(self, text):
        if text:
            self.items.append(("doc", text))

    def d(self, name, value, w=None, fmt="dec", doc=None, v=True):
        """FROCE_<name> = value. w: Verilog literal size; fmt: dec, hex, mask;
        v=False: C only. doc: comment put above it (in Verilog only with it)."""
        need(name not in self.seen, f"macro FROCE_{name} generated twice")
        self.seen.add(name)
        self.items.append(("def", name, value, w, fmt, v, doc))

    def c_only(self, text):
        self.items.append(("c", text))


def c_value(value, w, fmt):
    if fmt == "mask":
        return f"0x{value:08X}U" if value < (1 << 32) else f"0x{value:016X}ULL"
    if fmt == "hex":
        return f"0x{value:0{(w + 3) // 4 if w else 1}X}"
    return str(value)


def v_value(value, w, fmt):
    if w is None:
        return str(value)
    if fmt == "hex":
        return f"{w}'h{value:0{(w + 3) // 4}X}"
    return f"{w}'d{value}"


def pad_tabs(left, col=56):
    return left + "\t" * max(1, -(-(col - len(left)) // 8))


def comment(text, lead, width=78):
    return [lead + line for line in textwrap.wrap(text, width - len(lead), break_on_hyphens=False)]


def c_comment(text):
    if not text:
        return []
    body = comment(text, " * ")
    return ["/* " + body[0][3:] + " */"] if len(body) == 1 else ["/*"] + body + [" */"]


C_HELPERS = """\
/*
 * Layout fields F (e.g. FROCE_CQE_OWNER) come with F_DW or F_QW (index of the
 * 32- or 64-bit little-endian word holding it), F_SHIFT, F_W, F_MASK (a
 * constant GENMASK-style mask for FIELD_PREP/FIELD_GET) and F_LSB (bit in the
 * byte vector, as the RTL sees it). Outside the kernel, on a CPU-order word
 * (FROCE_FIELD_PREP computes in the type of the mask, U or ULL):
 */
#define FROCE_FIELD_GET(F, word)	(((word) & F##_MASK) >> F##_SHIFT)
#define FROCE_FIELD_PREP(F, val)	((((val) + (F##_MASK & 0)) << F##_SHIFT) & F##_MASK)"""


def v_banner(banner):
    out = []
    for para in banner[1:]:
        out += comment(para, "// ") if para else ["//"]
    return out


def render_c(defs, banner, guard):
    out = [f"/* SPDX-License-Identifier: {banner[0]} */", "/*"]
    for para in banner[1:]:
        out += comment(para, " * ") if para else [" *"]
    out += [" */", "", f"#ifndef {guard}", f"#define {guard}", "", C_HELPERS]
    for item in defs.items:
        if item[0] == "sec":
            out += ["", f"/* ---- {item[1]} ---- */"]
        elif item[0] == "doc":
            out += c_comment(item[1])
        elif item[0] == "c":
            out += item[1].split("\n")
        else:
            _, name, value, w, fmt, _v, doc = item
            out += c_comment(doc) + [pad_tabs(f"#define FROCE_{name}") + c_value(value, w, fmt)]
    return "\n".join(out + ["", f"#endif /* {guard} */", ""])


def render_vh(defs, banner):
    out = [f"// SPDX-License-Identifier: {banner[0]}"] + v_banner(banner)
    out += ["", "`ifndef FROCE_HW_VH", "`define FROCE_HW_VH"]
    for item in defs.items:
        if item[0] == "sec":
            out += ["", f"// ---- {item[1]} ----"]
        elif item[0] == "doc":
            out += comment(item[1], "// ")
        elif item[0] == "def" and item[5]:
            _, name, value, w, fmt, _v, doc = item
            out += (comment(doc, "// ") if doc else []) + [
                f"`define {'FROCE_' + name:<52} {v_value(value, w, fmt)}"]
    return "\n".join(out + ["", "`endif // FROCE_HW_VH", ""])


# ---------------------------------------------------------------------------
# Building the definitions from the spec

def enum_fmt(e):
    return e.get("radix", "dec")


def build_defs(spec):
    D = Defs()
    major, minor, patch = spec.version
    D.sec("interface version and PCI identity")
    D.d("HW_VERSION_MAJOR", major, 8)
    D.d("HW_VERSION_MINOR", minor, 8)
    D.d("HW_VERSION_PATCH", patch, 16)
    D.d("HW_VERSION", major << 24 | minor << 16 | patch, 32, "hex",
        "MAJOR << 24 | MINOR << 16 | PATCH, as in the HW_VERSION register")
    D.d("HW_SPEC_HASH", spec.hash, 32, "hex", "CRC-32 of the spec without doc strings")
    D.d("PCI_VENDOR_ID", spec.pci["vendor_id"], 16, "hex")
    D.d("PCI_DEVICE_ID", spec.pci["device_id"], 16, "hex")
    D.d("PCI_CLASS_CODE", spec.pci["class_code"], 24, "hex")
    D.d("PCI_REVISION", spec.pci["revision"], 8, "hex")

    D.sec("constants")
    for c in spec.consts:
        D.d(c["name"], c["value"], c.get("width"), c.get("radix", "hex" if "width" in c else "dec"),
            c.get("doc"))

    for e in spec.enums.values():
        D.sec(f"enum {e['name']}", e.get("doc"))
        for v in e["values"]:
            D.d(f"{e['name']}_{v['name']}", v["value"], e["width"], enum_fmt(e), v.get("doc"))
        errnos = [v for v in e["values"] if "errno" in v]
        if errnos:
            D.c_only(f"/* X(name, value, errno) for every {e['name']} value */\n"
                     + xmacro(f"FROCE_{e['name']}_LIST(X)",
                              [f"X({v['name']}, {c_value(v['value'], e['width'], enum_fmt(e))}, "
                               f"{v['errno']})" for v in errnos]))

    for h in spec.headers:
        D.sec(f"header {h['name']}, {h['len']} bytes",
              f"{h['doc']}. _OFF: bit offset from the first bit on the wire; _W: bits.")
        D.d(f"{h['name']}_LEN", h["len"])
        for f in h["fields"]:
            D.d(f"{h['name']}_{f['name']}_OFF", f["off"])
            D.d(f"{h['name']}_{f['name']}_W", f["width"])

    ops, order = spec.opcodes["ops"], spec.opcodes["ext_order"]
    D.sec("BTH opcodes")
    for op in ops:
        D.d(f"OP_{op['name']}", op["value"], 8, "hex")
    flags = [*order, "PAYLOAD", "FIRST", "LAST"]
    for i, fl in enumerate(flags):
        D.d(f"OPF_{fl}", 1 << i, None, "hex", "flags of FROCE_OPCODE_LIST" if i == 0 else None, False)
    rows = []
    for op in ops:
        fl = [f"FROCE_OPF_{x}" for x in op["ext"]] + ["FROCE_OPF_PAYLOAD"] * op["payload"]
        fl += ["FROCE_OPF_FIRST"] * op["first"] + ["FROCE_OPF_LAST"] * op["last"]
        rows.append(f"X({op['name']}, 0x{op['value']:02X}, {' | '.join(fl) or '0'}, {op['ext_len']})")
    D.c_only("/* X(name, opcode, FROCE_OPF_* flags, ext_len) for every valid opcode */\n"
             + xmacro("FROCE_OPCODE_LIST(X)", rows))

    for bname, b in spec.bundles.items():
        D.sec(f"bundle {bname}, {b['width']} bits", f"{b['doc']}; packed LSB-first.")
        for f in b["fields"]:
            D.d(f"{bname}_{f['name'].upper()}_LSB", f["lsb"], doc=f.get("doc"))
            D.d(f"{bname}_{f['name'].upper()}_W", f["width"])
        D.d(f"{bname}_W", b["width"], doc=f"total bits of {bname}")

    aw = next(c["value"] for c in spec.consts if c["name"] == "BAR0_ADDR_W")
    for blk in spec.blocks:
        D.sec(f"BAR0 block {blk['name']}", blk.get("doc"))
        D.d(f"BAR0_{blk['name']}_BASE", blk["base"], aw, "hex")
        D.d(f"BAR0_{blk['name']}_SIZE", blk["size"], None, "hex")
        for r in blk["reg"]:
            D.d(f"REG_{r['name']}", r["addr"], aw, "hex", f"{r['access']}: {r.get('doc', '')}".rstrip(": "))
            for f in r.get("fields", []):
                hi, lo = f["bits"]
                n = f"REG_{r['name']}_{f['name']}"
                D.d(f"{n}_SHIFT", lo, doc=f.get("doc"))
                D.d(f"{n}_W", hi - lo + 1)
                D.d(f"{n}_MASK", ((1 << (hi - lo + 1)) - 1) << lo, None, "mask", v=False)

    for lname, lay in spec.layouts.items():
        D.sec(f"layout {lname}, {lay['size']} bytes", lay.get("doc"))
        D.d(f"{lname}_SIZE", lay["size"])
        for f in lay["fields"]:
            n = f"{lname}_{f.name}"
            D.doc(f"{lname}.{f.name}" + (f": {f.doc}" if f.doc else "")
                  + (f" (FROCE_{f.enum}_*)" if f.enum else ""))
            if f.word == "BYTE":
                D.d(f"{n}_BYTE", f.index)
                D.d(f"{n}_BYTES", f.width // 8)
                continue
            D.d(f"{n}_{f.word}", f.index, v=False)
            D.d(f"{n}_SHIFT", f.shift, v=False)
            D.d(f"{n}_W", f.width)
            D.d(f"{n}_MASK", ((1 << f.width) - 1) << f.shift, None, "mask", v=False)
            D.d(f"{n}_LSB", f.lsb)

    D.sec("mailbox commands")
    rows = []
    for c in spec.commands:
        sizes = [spec.layouts.get(f"CMD_{c['name']}_{k}", {}).get("size", 0) for k in ("IN", "OUT")]
        rows.append(f"X({c['name']}, 0x{c['opcode']:04X}, {sizes[0]}, {sizes[1]})")
    D.c_only("/* X(name, opcode, input bytes, output bytes) for every command */\n"
             + xmacro("FROCE_CMD_LIST(X)", rows))

    D.sec("counters", "index i is at BAR0 FROCE_BAR0_COUNTERS_BASE + 8 * i and in QUERY_COUNTERS output")
    for i, cnt in enumerate(spec.counters):
        D.d(f"CNT_{cnt['name'].upper()}", i, doc=cnt.get("doc"))
    D.d("CNT_NUM", len(spec.counters))
    D.c_only("/* X(NAME, name) for every counter, in index order */\n"
             + xmacro("FROCE_COUNTER_LIST(X)",
                      [f"X({c['name'].upper()}, {c['name']})" for c in spec.counters]))
    return D


def xmacro(head, rows):
    lines = [f"#define {head}"] + ["\t" + r for r in rows]
    return " \\\n".join(lines)


# ---------------------------------------------------------------------------
# The opcode decoder

def render_opinfo(spec, banner):
    order = spec.opcodes["ext_order"]
    cols = ["reth", "aeth", "deth", "immdt", "ieth", "atomiceth", "atomicacketh"]
    need(sorted(c.upper() for c in cols) == sorted(order), "opcode_info ports must cover ext_order")
    ports = ["valid"] + [f"has_{c}" for c in cols] + ["has_payload", "pos_first", "pos_last"]
    L = [f"// SPDX-License-Identifier: {banner[0]}"] + v_banner(banner)
    L += ["", "`resetall", "`timescale 1ns / 1ps", "`default_nettype none", "",
          "/*",
          " * BTH opcode decoder: which extension headers follow the 12-byte BTH,",
          " * their total length (ext_len, bytes, in IBA order), whether payload",
          " * follows and the packet's place in its message (FIRST: pos_first,",
          " * MIDDLE: neither, LAST: pos_last, ONLY and single-packet: both).",
          " * Opcodes outside the table (RD, XRC, reserved) give valid = 0 and",
          " * all other outputs 0. Purely combinational.",
          " */",
          "module froce_opcode_info (",
          "    input  wire [7:0] opcode,", ""]
    L += [f"    output wire       {p}," for p in ports] + ["    output wire [5:0] ext_len", ");", ""]
    L += ["    // info = {valid, 7'b{" + ", ".join(cols) + "},",
          "    //         has_payload, pos_first, pos_last, ext_len}",
          "    reg [16:0] info;", "",
          "    always @* begin", "        case (opcode)"]
    for op in spec.opcodes["ops"]:
        hdr = "".join("1" if c.upper() in op["ext"] else "0" for c in cols)
        row = (f"8'h{op['value']:02X}: info = {{1'b1, 7'b{hdr}, 1'b{int(op['payload'])}, "
               f"1'b{int(op['first'])}, 1'b{int(op['last'])}, 6'd{op['ext_len']}}};")
        L.append(f"            {row:<58} // {op['name']}")
    L += ["            default: info = 17'd0;", "        endcase", "    end", "",
          "    assign {" + ", ".join(ports) + ",", "            ext_len} = info;", "",
          "endmodule", "", "`resetall", ""]
    return "\n".join(L)


# ---------------------------------------------------------------------------
# Markdown tables for docs/hw-interface.md

def table(head, rows):
    esc = [[str(c).replace("|", "\\|") for c in r] for r in rows]
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                     + ["| " + " | ".join(r) + " |" for r in esc])


def md_enum_ref(e):
    return f" (enum `{e}`)" if e else ""


def md_layout(spec, fields):
    rows = []
    for f in fields:
        doc = f.get("doc", "")
        if "layout" in f:
            sub = spec.layouts[f["layout"]]
            last = f["dw"] + sub["size"] // 4 - 1
            name = f.get("name", "")
            rows.append([f"dw {f['dw']}-{last}", "", f"`{name}_*`" if name else "(fields as named)",
                         f"layout {f['layout']} embedded here. {doc}".strip()])
        elif "bytes" in f:
            b = 4 * f["dw"]
            rows.append([f"bytes {b}-{b + f['bytes'] - 1}", "", f"`{f['name']}`", doc])
        else:
            word = f"qw {f['qw']}" if "qw" in f else f"dw {f['dw']}"
            hi, lo = f["bits"]
            rows.append([word, f"{hi}:{lo}" if hi != lo else str(lo), f"`{f['name']}`",
                         (doc + md_enum_ref(f.get("enum"))).strip()])
    return table(["Word", "Bits", "Field", "Description"], rows)


def doc_sections(spec):
    S = {}
    major, minor, patch = spec.version
    S["identity"] = table(["Item", "Value", "Macro"], [
        ["Interface version", f"{major}.{minor}.{patch}", "`FROCE_HW_VERSION_*`"],
        ["Spec hash", f"0x{spec.hash:08X}", "`FROCE_HW_SPEC_HASH`"],
        ["PCI vendor:device", f"{spec.pci['vendor_id']:04x}:{spec.pci['device_id']:04x}",
         "`FROCE_PCI_VENDOR_ID`, `FROCE_PCI_DEVICE_ID`"],
        ["PCI class", f"0x{spec.pci['class_code']:06x}", "`FROCE_PCI_CLASS_CODE`"]])
    S["constants"] = table(["Macro", "Value", "Description"], [
        [f"`FROCE_{c['name']}`", v_value(c["value"], c.get("width"), c.get("radix", "hex")),
         c.get("doc", "")] for c in spec.consts])
    parts = []
    for e in spec.enums.values():
        parts.append(f"**`FROCE_{e['name']}_*`** ({e['width']} bits): {e.get('doc', '')}\n\n"
                     + table(["Name", "Value", "Description"],
                             [[v["name"], c_value(v["value"], e["width"], enum_fmt(e)),
                               v.get("doc", "") + (f" (errno {v['errno']})" if "errno" in v else "")]
                              for v in e["values"]]))
    S["enums"] = "\n\n".join(parts)
    parts = []
    for h in spec.headers:
        parts.append(f"**{h['name']}** — {h['doc']}, {h['len']} bytes\n\n"
                     + table(["Field", "Bit offset", "Width", "Byte", "Description"],
                             [[f["name"], f["off"], f["width"], f["off"] // 8, f.get("doc", "")]
                              for f in h["fields"]]))
    S["headers"] = "\n\n".join(parts)
    S["opcodes"] = table(["Opcode", "Name", "Extension headers", "ext_len", "Payload", "Position"], [
        [f"0x{op['value']:02X}", op["name"], " ".join(op["ext"]) or "-", op["ext_len"],
         "yes" if op["payload"] else "no", op["pos"]] for op in spec.opcodes["ops"]])
    parts = []
    for bname, b in spec.bundles.items():
        parts.append(f"`FROCE_{bname}_W` = {b['width']} bits.\n\n" + table(
            ["Field", "LSB", "Width", "Description"],
            [[f["name"], f["lsb"], f["width"], f.get("doc", "")] for f in b["fields"]]))
    S["rhdr"] = "\n\n".join(parts)
    rows = [[f"0x{b['base']:04X}", f"0x{b['size']:X}", b["name"], b.get("doc", "")] for b in spec.blocks]
    parts = [table(["Base", "Size", "Block", "Description"], rows)]
    for blk in spec.blocks:
        if not blk["reg"]:
            continue
        rows = []
        for r in blk["reg"]:
            rows.append([f"0x{r['addr']:04X}", f"`{r['name']}`", r["access"], "31:0" if not r.get("fields")
                         else "", "", str(r.get("reset", "")), r.get("doc", "")])
            for f in r.get("fields", []):
                hi, lo = f["bits"]
                rows.append(["", "", f.get("access", ""), f"{hi}:{lo}" if hi != lo else str(lo),
                             f"`{f['name']}`", str(f.get("reset", "")), f.get("doc", "")])
        parts.append(f"**Block {blk['name']}** — {blk.get('doc', '')}\n\n" + table(
            ["Offset", "Register", "Access", "Bits", "Field", "Reset", "Description"], rows))
    S["registers"] = "\n\n".join(parts)
    parts = [f"**{n}** — {lay['size']} bytes. {lay.get('doc', '')}\n\n" + md_layout(spec, lay["fields"])
             for n, lay in spec.layout_raw.items() if not n.startswith("CMD_")]
    S["layouts"] = "\n\n".join(parts)
    rows, parts = [], []
    for c in spec.commands:
        sz = [spec.layouts.get(f"CMD_{c['name']}_{k}", {}).get("size", 0) for k in ("IN", "OUT")]
        rows.append([f"0x{c['opcode']:04X}", f"`{c['name']}`", sz[0], sz[1], c.get("doc", "")])
        for kind in ("in", "out"):
            if c.get(kind):
                parts.append(f"**{c['name']}** {kind}put (`FROCE_CMD_{c['name']}_{kind.upper()}_*`)\n\n"
                             + md_layout(spec, c[kind]))
    S["commands"] = "\n\n".join([table(["Opcode", "Command", "In bytes", "Out bytes", "Description"],
                                       rows)] + parts)
    cbase = next(b["base"] for b in spec.blocks if b["name"] == "COUNTERS")
    S["counters"] = table(["Index", "Name", "BAR0 offset", "Description"], [
        [i, f"`{c['name']}`", f"0x{cbase + 8 * i:04X}", c.get("doc", "")]
        for i, c in enumerate(spec.counters)])
    return S


def splice_doc(text, sections, spec):
    """Replace every GENERATED section of the doc; None if a marker is missing."""
    for name in DOC_SECTIONS:
        pat = re.compile(rf"(<!-- BEGIN GENERATED {name} -->\n).*?(<!-- END GENERATED {name} -->)", re.S)
        if not pat.search(text):
            return None
        body = (f"<!-- generated by scripts/gen_hw.py from {', '.join(spec.files)}; do not edit -->\n\n"
                f"{sections[name]}\n\n")
        text = pat.sub(lambda m: m.group(1) + body + m.group(2), text)
    return text


def skeleton_doc():
    return "# froce hardware interface\n\n" + "".join(
        f"## {n}\n\n<!-- BEGIN GENERATED {n} -->\n<!-- END GENERATED {n} -->\n\n" for n in DOC_SECTIONS)


# ---------------------------------------------------------------------------

def generate(root):
    """Return {path: expected content}; doc content is None if its markers are missing."""
    spec = froce_spec.load(root)
    banner = [spec.license,
              f"froce hardware interface v{'.'.join(map(str, spec.version))}",
              f"Generated by scripts/gen_hw.py from {', '.join(spec.files)}; do not edit."]
    defs = build_defs(spec)
    out = {OUT_H: render_c(defs, banner, "FROCE_HW_H"),
           OUT_VH: render_vh(defs, banner),
           OUT_OPINFO: render_opinfo(spec, banner)}
    doc = Path(root, OUT_DOC)
    text = doc.read_text() if doc.exists() else skeleton_doc()
    out[OUT_DOC] = splice_doc(text, doc_sections(spec), spec)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="report stale or missing files, write nothing")
    ap.add_argument("--root", default=Path(__file__).resolve().parent.parent, type=Path,
                    help="repository root (default: the one holding this script)")
    args = ap.parse_args()
    try:
        files = generate(args.root)
    except froce_spec.SpecError as e:
        print(f"gen_hw: spec error: {e}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, ValueError) as e:  # a key missing or of the wrong type
        print(f"gen_hw: malformed spec: {e!r}", file=sys.stderr)
        return 2
    bad = 0
    for rel, want in files.items():
        path = args.root / rel
        have = path.read_text() if path.exists() else None
        if want is None:
            print(f"gen_hw: {rel}: GENERATED markers missing", file=sys.stderr)
            bad += 1
        elif have != want:
            state = "missing" if have is None else "stale"
            if args.check:
                print(f"gen_hw: {state}: {rel}", file=sys.stderr)
                bad += 1
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(want)
                print(f"gen_hw: wrote {rel}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
