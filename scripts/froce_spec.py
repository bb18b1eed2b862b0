"""Load and check the froce hardware-interface spec (spec/*.toml).

load(root) returns a Spec: the merged TOML plus derived data (header bit
offsets, expanded layouts, absolute register offsets, the spec hash). Every
consistency rule of the schema is checked here; a violation raises SpecError
naming the offending entry. Used by scripts/gen_hw.py and tests/gen.
"""

import json
import re
import tomllib
import zlib
from dataclasses import dataclass
from pathlib import Path

SPEC_FILES = ("protocol.toml", "device.toml", "formats.toml", "commands.toml")
NAME_RE = re.compile(r"^[A-Z0-9][A-Z0-9_]*$")
POSITIONS = ("FIRST", "MIDDLE", "LAST", "ONLY")


class SpecError(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise SpecError(msg)


@dataclass
class Field:
    """One field of a little-endian layout, after embedding is resolved."""
    name: str
    lsb: int            # bit in the little-endian byte vector (byte 0 = bits 7:0)
    width: int
    word: str           # "DW", "QW" or "BYTE" (byte array)
    index: int          # dword / qword index, or byte offset for byte arrays
    shift: int          # bit within the word
    enum: str = None
    doc: str = ""


def _strip_docs(obj):
    if isinstance(obj, dict):
        return {k: _strip_docs(v) for k, v in obj.items() if k != "doc"}
    if isinstance(obj, list):
        return [_strip_docs(v) for v in obj]
    return obj


class Spec:
    def __init__(self, raw, files):
        self.raw = raw
        self.files = files
        self.hash = zlib.crc32(json.dumps(_strip_docs(raw), sort_keys=True).encode())
        v = raw["version"]
        self.version = (v["major"], v["minor"], v["patch"])
        self.pci = raw["pci"]
        self.license = raw["meta"]["license"]
        self.consts = raw.get("const", [])
        self.headers = [self._header(h) for h in raw.get("header", [])]
        self.header_len = {h["name"]: h["len"] for h in self.headers}
        self.opcodes = self._opcodes(raw["opcodes"])
        self.bundles = {n: self._bundle(n, b) for n, b in raw.get("bundle", {}).items()}
        rhdr_ext = [f for f in self.bundles.get("RHDR", {}).get("fields", []) if f["name"] == "ext"]
        longest = max(op["ext_len"] for op in self.opcodes["ops"])
        need(not rhdr_ext or rhdr_ext[0]["width"] == 8 * longest,
             f"RHDR ext must hold the longest extension-header run ({longest} bytes)")
        self.commands = raw.get("command", [])
        self.enums = {e["name"]: e for e in raw.get("enum", [])}
        need("CMD" not in self.enums, "enum CMD is generated from [[command]]")
        self.enums["CMD"] = {"name": "CMD", "width": 16, "radix": "hex",
                             "doc": "mailbox command opcodes (MBOX_HDR.OPCODE)",
                             "values": [{"name": c["name"], "value": c["opcode"],
                                         "doc": c.get("doc", "")} for c in self.commands]}
        for e in self.enums.values():
            self._check_enum(e)
        self.counters = raw.get("counter", [])
        # Layouts: the declared ones, then one IN/OUT pair per command
        # (out = "counters": one qword per counter, in counter order).
        self.layout_raw = {}
        for lay in raw.get("layout", []):
            need(lay["name"] not in self.layout_raw, f"layout {lay['name']} twice")
            self.layout_raw[lay["name"]] = lay
        for c in self.commands:
            if c.get("out") == "counters":
                c["out"] = [{"name": n["name"].upper(), "qw": i, "bits": [63, 0], "doc": n.get("doc", "")}
                            for i, n in enumerate(self.counters)]
            for kind in ("in", "out"):
                if c.get(kind):
                    name = f"CMD_{c['name']}_{kind.upper()}"
                    self.layout_raw[name] = {"name": name, "fields": c[kind],
                                             "doc": f"{c['name']} {kind}put"}
        self.layouts = {n: self._layout(l) for n, l in self.layout_raw.items()}
        self.blocks = self._bar0(raw["bar0"])
        names = [c["name"] for c in self.counters]
        need(len(set(names)) == len(names), "counter names must be unique")
        need(all(re.match(r"^[a-z][a-z0-9_]*$", n) for n in names), "counter names are lower case")
        cnt = next(b for b in self.blocks if b["name"] == "COUNTERS")
        need(8 * len(names) <= cnt["size"], "more counters than the COUNTERS block holds")

    # -- wire headers: big-endian, offsets from the first bit on the wire
    def _header(self, h):
        need(NAME_RE.match(h["name"]), f"header name {h['name']}")
        off, fields = 0, []
        for f in h["fields"]:
            need(NAME_RE.match(f["name"]) and f["width"] > 0, f"header {h['name']} field {f}")
            fields.append(dict(f, off=off))
            off += f["width"]
        need(off % 8 == 0, f"header {h['name']} is {off} bits, not whole bytes")
        return dict(h, fields=fields, len=off // 8)

    def _opcodes(self, ops):
        order = ops["ext_order"]
        need(all(x in self.header_len for x in order), "ext_order names unknown headers")
        seen_v, seen_n, out = set(), set(), []
        for op in ops["ops"]:
            name, value = op["name"], op["value"]
            need(NAME_RE.match(name) and name not in seen_n, f"opcode name {name}")
            need(0 <= value < 256 and value not in seen_v, f"opcode {name} value {value:#x}")
            need(op["pos"] in POSITIONS, f"opcode {name} pos {op['pos']}")
            idx = [order.index(x) if x in order else -1 for x in op["ext"]]
            need(-1 not in idx and idx == sorted(set(idx)), f"opcode {name}: ext not in IBA order")
            seen_v.add(value)
            seen_n.add(name)
            ext_len = sum(self.header_len[x] for x in op["ext"])
            need(ext_len < 64, f"opcode {name}: ext_len {ext_len} does not fit 6 bits")
            out.append(dict(op, ext_len=ext_len,
                            first=op["pos"] in ("FIRST", "ONLY"),
                            last=op["pos"] in ("LAST", "ONLY")))
        return dict(ext_order=order, ops=out)

    def _bundle(self, name, b):
        lsb, fields = 0, []
        for f in b["fields"]:
            need(re.match(r"^[a-z][a-z0-9_]*$", f["name"]), f"bundle {name} field {f['name']}")
            fields.append(dict(f, lsb=lsb))
            lsb += f["width"]
        need(len({f["name"] for f in fields}) == len(fields), f"bundle {name}: duplicate field")
        return dict(b, fields=fields, width=lsb)

    def _check_enum(self, e):
        need(NAME_RE.match(e["name"]), f"enum name {e['name']}")
        names = [v["name"] for v in e["values"]]
        need(len(set(names)) == len(names), f"enum {e['name']}: duplicate name")
        vals = [v["value"] for v in e["values"]]
        need(len(set(vals)) == len(vals), f"enum {e['name']}: duplicate value")
        for v in e["values"]:
            need(NAME_RE.match(v["name"]), f"enum {e['name']} value name {v['name']}")
            need(0 <= v["value"] < (1 << e["width"]), f"enum {e['name']}.{v['name']} exceeds width")

    # -- little-endian layouts (host memory)
    def _expand(self, lname, fields, base_dw, prefix, depth=0):
        need(depth < 4, f"layout {lname}: embedding too deep")
        out = []
        for f in fields:
            where = f"layout {lname} field {f.get('name', f.get('layout'))}"
            if "layout" in f:
                sub = self.layout_raw.get(f["layout"])
                need(sub is not None, f"{where}: unknown layout")
                pre = prefix + (f["name"] + "_" if "name" in f else "")
                out += self._expand(lname, sub["fields"], base_dw + f["dw"], pre, depth + 1)
                continue
            name = prefix + f["name"]
            need(NAME_RE.match(f["name"]), f"{where}: bad name")
            if "bytes" in f:
                byte = 4 * (base_dw + f["dw"])
                out.append(Field(name, 8 * byte, 8 * f["bytes"], "BYTE", byte, 0, None, f.get("doc", "")))
                continue
            hi, lo = f["bits"]
            need(0 <= lo <= hi, f"{where}: bits must be [hi, lo]")
            if "qw" in f:
                need(base_dw % 2 == 0, f"{where}: qword field embedded at an odd dword")
                idx, wbits, word = f["qw"] + base_dw // 2, 64, "QW"
            else:
                idx, wbits, word = f["dw"] + base_dw, 32, "DW"
            need(hi < wbits, f"{where}: bit {hi} outside its {wbits}-bit word")
            enum = f.get("enum")
            if enum:
                need(enum in self.enums, f"{where}: unknown enum {enum}")
                top = max(v["value"] for v in self.enums[enum]["values"])
                need(top < (1 << (hi - lo + 1)), f"{where}: enum {enum} does not fit")
            out.append(Field(name, idx * wbits + lo, hi - lo + 1, word, idx, lo, enum, f.get("doc", "")))
        return out

    def _layout(self, lay):
        fields = self._expand(lay["name"], lay["fields"], 0, "")
        used = {}
        for f in fields:
            need(f.name not in used, f"layout {lay['name']}: field {f.name} twice")
            used[f.name] = f
        bits = sorted((f.lsb, f.lsb + f.width, f.name) for f in fields)
        for (a0, a1, an), (b0, b1, bn) in zip(bits, bits[1:]):
            need(a1 <= b0, f"layout {lay['name']}: {an} overlaps {bn}")
        end = (max(b[1] for b in bits) + 7) // 8 if bits else 0
        size = lay.get("size", (end + 7) // 8 * 8)
        need(end <= size, f"layout {lay['name']}: fields end at byte {end}, size {size}")
        return dict(lay, fields=fields, size=size)

    # -- BAR0
    def _bar0(self, bar):
        blocks, prev_end = [], 0
        size = next(c["value"] for c in self.consts if c["name"] == "BAR0_SIZE")
        for b in bar["block"]:
            need(b["base"] >= prev_end and b["base"] + b["size"] <= size,
                 f"block {b['name']} overlaps or leaves BAR0")
            prev_end = b["base"] + b["size"]
            regs, offs = [], set()
            for r in b.get("reg", []):
                where = f"register {r['name']}"
                need(r["offset"] % 4 == 0 and r["offset"] < b["size"] and r["offset"] not in offs,
                     f"{where}: bad or duplicate offset")
                offs.add(r["offset"])
                acc = r.get("access")
                need(acc in ("ro", "rw", "wo", "w1s"), f"{where}: access {acc}")
                used = 0
                for f in r.get("fields", []):
                    hi, lo = f["bits"]
                    need(0 <= lo <= hi < 32, f"{where}.{f['name']}: bits")
                    mask = ((1 << (hi - lo + 1)) - 1) << lo
                    need(not used & mask, f"{where}.{f['name']}: overlaps")
                    used |= mask
                regs.append(dict(r, addr=b["base"] + r["offset"]))
            blocks.append(dict(b, reg=regs))
        return blocks


def load(root):
    root = Path(root)
    raw, files = {}, []
    for fn in SPEC_FILES:
        path = root / "spec" / fn
        files.append(f"spec/{fn}")
        with open(path, "rb") as f:
            data = tomllib.load(f)
        for key, val in data.items():
            if key in raw and isinstance(val, list) and isinstance(raw[key], list):
                raw[key] = raw[key] + val
            else:
                need(key not in raw, f"{fn}: top-level key {key} defined twice")
                raw[key] = val
    return Spec(raw, files)
