#!/usr/bin/env python3
"""Tests of the spec and of scripts/gen_hw.py (run by tests/gen/run.sh).

- naming contract: the macro names and values other parts of the project code
  against exist in both headers, and every Verilog macro has a C twin;
- opcode table: the set of valid opcodes is exactly the one froce supports,
  and every row agrees with rules derived from the IBA opcode names;
- froce_opcode_info.v, simulated with Icarus for all 256 opcodes, matches the
  spec row by row;
- staleness check: in a scratch copy of the tree, --check passes, then fails
  (exit 1, naming the right files) after each kind of change: spec edits,
  hand edits of generated files, a deleted output, a removed doc marker; an
  inconsistent spec is rejected (exit 2); regenerating makes it pass again.
"""

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import froce_spec  # noqa: E402

OUTPUTS = ["include/froce_hw.h", "rtl/include/froce_hw.vh", "rtl/roce/froce_opcode_info.v",
           "docs/hw-interface.md"]
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print(f"FAIL {msg}")


def expected_from_name(name):
    """What IBA implies for an opcode from its name alone."""
    ext = []
    if "RDMA_WRITE_FIRST" in name or "RDMA_WRITE_ONLY" in name or "READ_REQUEST" in name:
        ext.append("RETH")
    if name.startswith("UD_"):
        ext.append("DETH")
    if name.endswith(("COMPARE_SWAP", "FETCH_ADD")):
        ext.append("ATOMICETH")
    if any(s in name for s in ("READ_RESPONSE_FIRST", "READ_RESPONSE_LAST", "READ_RESPONSE_ONLY",
                               "_ACKNOWLEDGE")):
        ext.append("AETH")
    if name.endswith("ATOMIC_ACKNOWLEDGE"):
        ext.append("ATOMICACKETH")
    if name.endswith("WITH_IMMEDIATE"):
        ext.append("IMMDT")
    if name.endswith("WITH_INVALIDATE"):
        ext.append("IETH")
    payload = any(s in name for s in ("SEND", "RDMA_WRITE", "READ_RESPONSE")) or name == "CNP"
    pos = next((p for p in ("FIRST", "MIDDLE", "LAST") if f"_{p}" in name), "ONLY")
    return ext, payload, pos


def test_opcode_table(spec):
    ops = spec.opcodes["ops"]
    want = set(range(0x00, 0x15)) | {0x16, 0x17} | set(range(0x20, 0x2C)) | {0x64, 0x65, 0x81}
    check({op["value"] for op in ops} == want, "valid opcode set is RC, UC, UD and CNP exactly")
    base = {"RC": 0x00, "UC": 0x20, "UD": 0x60}
    rc = {op["name"][3:]: op["value"] for op in ops if op["name"].startswith("RC_")}
    for op in ops:
        name = op["name"]
        ext, payload, pos = expected_from_name(name)
        check(op["ext"] == ext, f"{name}: ext {op['ext']} != {ext}")
        check(op["payload"] == payload, f"{name}: payload")
        check(op["pos"] == pos, f"{name}: pos {op['pos']} != {pos}")
        if name[:3] in ("UC_", "UD_"):
            check(op["value"] - base[name[:2]] == rc.get(name[3:]),
                  f"{name}: code differs from the RC opcode of the same name")
    print(f"ok   opcode table: {len(ops)} opcodes follow the IBA naming rules")


def test_opcode_info_sim(spec, tmp):
    exe = tmp / "tb_opcode_info"
    subprocess.run(["iverilog", "-g2005", "-Wall", "-I", str(ROOT / "rtl/include"), "-o", str(exe),
                    str(ROOT / "tests/gen/tb_opcode_info.v"),
                    str(ROOT / "rtl/roce/froce_opcode_info.v")], check=True)
    out = subprocess.run(["vvp", "-n", str(exe)], check=True, capture_output=True, text=True).stdout
    rows = {int(line.split()[1], 16): line.split()[2:] for line in out.splitlines()
            if line.startswith("OP ")}
    check(len(rows) == 256, "simulation printed 256 opcodes")
    check("DONE errors=0" in out, "testbench self-checks")
    cols = ["RETH", "AETH", "DETH", "IMMDT", "IETH", "ATOMICETH", "ATOMICACKETH"]
    table = {op["value"]: op for op in spec.opcodes["ops"]}
    bad = 0
    for code in range(256):
        op = table.get(code)
        if op is None:
            want = ["0", "0000000", "0", "0", "0", "0"]
        else:
            want = ["1", "".join("1" if c in op["ext"] else "0" for c in cols),
                    str(int(op["payload"])), str(int(op["first"])), str(int(op["last"])),
                    str(op["ext_len"])]
        if rows.get(code) != want:
            bad += 1
            check(False, f"froce_opcode_info 0x{code:02x}: {rows.get(code)} != {want}")
    if not bad:
        print("ok   froce_opcode_info matches the spec for all 256 opcodes")


# The names other parts of the project code against (the RTL naming contract).
CONTRACT_HEADERS = {
    "ETH": [("DST", 48), ("SRC", 48), ("TYPE", 16)],
    "VLAN": [("PCP", 3), ("DEI", 1), ("VID", 12), ("TYPE", 16)],
    "IPV4": [("VERSION", 4), ("IHL", 4), ("TOS", 8), ("TOTAL_LEN", 16), ("ID", 16), ("FLAGS", 3),
             ("FRAG_OFF", 13), ("TTL", 8), ("PROTOCOL", 8), ("CHECKSUM", 16), ("SRC", 32),
             ("DST", 32)],
    "IPV6": [("VERSION", 4), ("TCLASS", 8), ("FLOW_LABEL", 20), ("PAYLOAD_LEN", 16),
             ("NEXT_HDR", 8), ("HOP_LIMIT", 8), ("SRC", 128), ("DST", 128)],
    "UDP": [("SPORT", 16), ("DPORT", 16), ("LEN", 16), ("CHECKSUM", 16)],
    "GRH": [("IPVER", 4), ("TCLASS", 8), ("FLOW_LABEL", 20), ("PAYLEN", 16), ("NXTHDR", 8),
            ("HOPLMT", 8), ("SGID", 128), ("DGID", 128)],
    "BTH": [("OPCODE", 8), ("SE", 1), ("M", 1), ("PADCNT", 2), ("TVER", 4), ("PKEY", 16),
            ("FECN", 1), ("BECN", 1), ("RESV6A", 6), ("DQPN", 24), ("ACKREQ", 1), ("RESV7", 7),
            ("PSN", 24)],
    "RETH": [("VA", 64), ("RKEY", 32), ("DMALEN", 32)],
    "AETH": [("SYNDROME", 8), ("MSN", 24)],
    "DETH": [("QKEY", 32), ("RESV8", 8), ("SQPN", 24)],
    "IMMDT": [("IMM", 32)],
    "IETH": [("RKEY", 32)],
    "ATOMICETH": [("VA", 64), ("RKEY", 32), ("SWAP", 64), ("CMP", 64)],
    "ATOMICACKETH": [("ORIG", 64)],
}
CONTRACT_VLITERALS = {
    "ETHERTYPE_IPV4": "16'h0800", "ETHERTYPE_IPV6": "16'h86DD", "ETHERTYPE_VLAN": "16'h8100",
    "ETHERTYPE_ROCE": "16'h8915", "IPPROTO_UDP": "8'd17", "UDP_PORT_ROCE": "16'd4791",
    "GRH_NXTHDR_BTH": "8'h1B", "BTH_TVER": "4'd0", "DEFAULT_PKEY": "16'hFFFF",
    "KIND_NOT_ROCE": "3'd0", "KIND_ROCE_V2_IPV4": "3'd1", "KIND_ROCE_V2_IPV6": "3'd2",
    "KIND_ROCE_V1": "3'd3", "VERDICT_OK": "4'd0", "VERDICT_ICRC_BAD": "4'd1",
    "VERDICT_NOT_ROCE": "4'd2", "VERDICT_TRUNCATED": "4'd3", "VERDICT_BAD_LENGTH": "4'd4",
    "VERDICT_BAD_VERSION": "4'd5", "VERDICT_BAD_OPCODE": "4'd6", "VERDICT_IP_CSUM": "4'd7",
    "VERDICT_OVERSIZE": "4'd8", "OP_RC_SEND_FIRST": "8'h00", "OP_RC_ACKNOWLEDGE": "8'h11",
    "OP_RC_ATOMIC_ACKNOWLEDGE": "8'h12", "OP_RC_COMPARE_SWAP": "8'h13", "OP_RC_FETCH_ADD": "8'h14",
    "OP_RC_RDMA_READ_REQUEST": "8'h0C", "OP_RC_RDMA_READ_RESPONSE_FIRST": "8'h0D",
    "OP_RC_SEND_LAST_WITH_INVALIDATE": "8'h16", "OP_RC_SEND_ONLY_WITH_INVALIDATE": "8'h17",
    "OP_UD_SEND_ONLY": "8'h64", "OP_CNP": "8'h81",
}
CONTRACT_RHDR = [
    ("kind", 3), ("vlan_en", 1), ("vlan_pcp", 3), ("vlan_dei", 1), ("vlan_vid", 12),
    ("eth_dst", 48), ("eth_src", 48), ("sgid", 128), ("dgid", 128), ("tclass", 8),
    ("flow_label", 20), ("hop_limit", 8), ("ip_id", 16), ("ip_df", 1), ("udp_sport", 16),
    ("opcode", 8), ("se", 1), ("migreq", 1), ("padcnt", 2), ("tver", 4), ("pkey", 16), ("fecn", 1),
    ("becn", 1), ("dqpn", 24), ("ackreq", 1), ("psn", 24), ("ext", 224), ("payload_len", 16),
]


def read_defines(path, pattern):
    out = {}
    for line in path.read_text().splitlines():
        m = re.match(pattern, line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def literal_value(text):
    text = text.rstrip("ULu")
    m = re.fullmatch(r"(\d+)'([hdb])([0-9A-Fa-f_]+)", text)
    if m:
        return int(m.group(3).replace("_", ""), {"h": 16, "d": 10, "b": 2}[m.group(2)])
    return int(text, 0)


def test_contract():
    c = read_defines(ROOT / "include/froce_hw.h", r"#define FROCE_(\w+)\s+(\S+)$")
    v = read_defines(ROOT / "rtl/include/froce_hw.vh", r"`define FROCE_(\w+)\s+(\S+)$")
    missing = []
    for h, fields in CONTRACT_HEADERS.items():
        off = 0
        for name, width in fields:
            for suffix, want in (("OFF", off), ("W", width)):
                key = f"{h}_{name}_{suffix}"
                if v.get(key) != str(want) or c.get(key) != str(want):
                    missing.append(f"{key}={want} (C {c.get(key)}, V {v.get(key)})")
            off += width
        if v.get(f"{h}_LEN") != str(off // 8):
            missing.append(f"{h}_LEN={off // 8}")
    for key, lit in CONTRACT_VLITERALS.items():
        if v.get(key) != lit or key not in c or literal_value(c[key]) != literal_value(lit):
            missing.append(f"{key}={lit} (C {c.get(key)}, V {v.get(key)})")
    lsb = 0
    for name, width in CONTRACT_RHDR:
        for suffix, want in (("LSB", lsb), ("W", width)):
            key = f"RHDR_{name.upper()}_{suffix}"
            if v.get(key) != str(want) or c.get(key) != str(want):
                missing.append(f"{key}={want}")
        lsb += width
    if v.get("RHDR_W") != str(lsb):
        missing.append(f"RHDR_W={lsb}")
    check(not missing, f"naming contract: {missing}")
    differ = [k for k, val in v.items() if k not in c or literal_value(c[k]) != literal_value(val)]
    check(not differ, f"Verilog macros missing or different in C: {differ}")
    if not missing and not differ:
        print(f"ok   naming contract holds; all {len(v)} Verilog macros exist in C with equal values")


def gen(root, *args):
    r = subprocess.run([sys.executable, str(root / "scripts/gen_hw.py"), *args],
                       capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def scratch_tree(tmp):
    """A minimal copy of the tree with everything the generator reads and writes."""
    root = tmp / "tree"
    for d in ("spec", "scripts"):
        shutil.copytree(ROOT / d, root / d, ignore=shutil.ignore_patterns("__pycache__"))
    for rel in OUTPUTS:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, root / rel)
    return root


def expect_check(root, rc_want, must_name, what, must_not=()):
    rc, out = gen(root, "--check")
    ok = rc == rc_want and all(m in out for m in must_name) and not any(m in out for m in must_not)
    check(ok, f"--check after {what}: exit {rc} (want {rc_want}), output: {out.strip()!r}")
    if ok:
        print(f"ok   --check after {what}: exit {rc}" + (f", names {', '.join(must_name)}"
                                                            if must_name else ""))


def edit(path, old, new):
    text = path.read_text()
    assert old in text, f"{path}: {old!r} not found"
    path.write_text(text.replace(old, new, 1))


def test_staleness(tmp):
    root = scratch_tree(tmp)
    expect_check(root, 0, [], "copying the tree")
    # 1. spec change that moves a wire field: every generated file changes
    spec = root / "spec/protocol.toml"
    saved = spec.read_text()
    edit(spec, '{ name = "RESV7", width = 7 }', '{ name = "RESV7", width = 6 },\n'
               '    { name = "RESV1", width = 1 }')
    expect_check(root, 1, [f"stale: {o}" for o in OUTPUTS if "opcode_info" not in o],
                 "adding a BTH field", must_not=["froce_opcode_info.v"])
    spec.write_text(saved)
    # 2. opcode table change: the decoder is named stale
    edit(spec, 'value = 0x03, ext = ["IMMDT"]', 'value = 0x03, ext = []')
    expect_check(root, 1, ["stale: rtl/roce/froce_opcode_info.v"], "dropping an opcode's ImmDt")
    spec.write_text(saved)
    # 3. version bump in the device spec
    dev = root / "spec/device.toml"
    edit(dev, "patch = 0", "patch = 1")
    expect_check(root, 1, [f"stale: {o}" for o in OUTPUTS], "a version bump")
    # regenerate and the check passes again (deterministic output)
    rc, out = gen(root)
    check(rc == 0 and "wrote" in out, f"regenerate: {out}")
    expect_check(root, 0, [], "regenerating")
    rc, out = gen(root)
    check(rc == 0 and "wrote" not in out, "a second run writes nothing")
    # 4. hand edit of a generated file; 5. a deleted output; 6. a lost doc marker
    vh = root / "rtl/include/froce_hw.vh"
    vh.write_text(vh.read_text() + "`define FROCE_HAND_EDIT 1\n")
    (root / "include/froce_hw.h").unlink()
    doc = root / "docs/hw-interface.md"
    edit(doc, "<!-- END GENERATED opcodes -->", "")
    expect_check(root, 1, ["stale: rtl/include/froce_hw.vh", "missing: include/froce_hw.h",
                           "docs/hw-interface.md: GENERATED markers missing"],
                 "a hand edit, a deleted header and a removed doc marker")
    # 7. an inconsistent spec is an error, not a silent regeneration
    fmt = root / "spec/formats.toml"
    edit(fmt, '{ name = "OWNER", dw = 7, bits = [31, 31]', '{ name = "OWNER", dw = 7, bits = [15, 15]')
    expect_check(root, 2, ["overlaps"], "overlapping CQE fields")
    fmt.write_text(fmt.read_text().replace("bits = [15, 15]", "bits = [31, 31]", 1))
    # 8. RHDR's ext must hold the longest extension-header run (AtomicETH)
    edit(spec, '{ name = "ext", width = 224', '{ name = "ext", width = 192')
    expect_check(root, 2, ["RHDR ext must hold the longest extension-header run (28 bytes)"],
                 "an RHDR ext shorter than AtomicETH")


def main():
    spec = froce_spec.load(ROOT)
    test_contract()
    test_opcode_table(spec)
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        test_opcode_info_sim(spec, tmp)
        test_staleness(tmp)
    print(f"test_gen: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
