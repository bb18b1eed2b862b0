#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate rtl/crc/froce_crc32_matrices.vh, the constant XOR masks used by
rtl/crc/froce_crc32_step.v.

CRC convention: Ethernet / RoCE ICRC CRC-32, reflected, polynomial
0xEDB88320 (reflected form). The CRC register is exactly the register of the
software byte-wise reflected algorithm

    r = (r >> 8) ^ T[(r ^ b) & 0xff]

with no init and no final xor inside the step (the caller applies those).
Byte i of a beat is data[8*i+7:8*i]; byte 0 goes first on the wire.

Everything here is linear over GF(2), so every matrix is obtained by applying
the software step to unit vectors (column i = image of input bit i).

Emitted macros (Verilog-2005 sized hex literals, usable in any context):

  FROCE_CRC32_STEP_MASKS_<W>   for W = DATA_WIDTH in {8, 32, 64, 128, 256, 512}
      32 masks of (W+32) bits. Mask k sits in bits [k*(W+32) +: W+32] and
      out[k] = ^({data, crc_in} & mask_k), i.e. mask bit i selects
      {data, crc_in}[i] (crc_in in the low 32 bits). Each literal is written
      as <data part>_<crc part>.

  FROCE_CRC32_UNSHIFT_MASKS
      U_j = A^(-8*2^j) for j = 0..UNSHIFT_COUNT-1, where A processes one zero
      bit (r -> (r >> 1) ^ (r & 1 ? POLY : 0)), i.e. U_j undoes 2^j zero
      bytes. U_j does not depend on DATA_WIDTH, so one table serves all
      widths; DATA_WIDTH uses U_0 .. U_(log2(DATA_WIDTH/8)-1). Output bit b of
      U_j is ^(x & mask) with mask in bits [1024*j + 32*b +: 32]. Each U_j is
      one 1024-bit literal, rows (output bits) 31..0 separated by '_'.

  FROCE_CRC32_UNSHIFT_COUNT    number of U_j matrices in the table (6).

  FROCE_CRC32_RESIDUE_<W>
      W/8 32-bit constants; constant k (bits [32*k +: 32]) is the register
      after running a frame *and its own CRC* (least significant byte first)
      and then k zero bytes: A^(8k) * 0xDEBB20E3. A checker that runs the
      CRC over the ICRC too, zero-padding the last beat, compares its
      register with constant k, k = the number of padding bytes, instead of
      undoing the padding (which costs log2(W) matrix stages).

Usage:
  python3 scripts/gen_crc.py            write the file
  python3 scripts/gen_crc.py --check    exit 1 if the checked-in file differs
"""

import argparse
import os
import random
import sys
import zlib

POLY = 0xEDB88320
MASK32 = 0xFFFFFFFF
WIDTHS = (8, 32, 64, 128, 256, 512)
UNSHIFT_COUNT = 6  # log2(512 / 8)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(REPO, "rtl", "crc", "froce_crc32_matrices.vh")
RELPATH = "rtl/crc/froce_crc32_matrices.vh"


def make_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ (POLY if c & 1 else 0)
        table.append(c)
    return table


TABLE = make_table()


def sw_step(r, data):
    """Software byte-wise reflected CRC step (no init, no final xor)."""
    for b in data:
        r = (r >> 8) ^ TABLE[(r ^ b) & 0xFF]
    return r


def zero_bit(r):
    """A: process one zero bit."""
    return (r >> 1) ^ (POLY if r & 1 else 0)


def zero_bit_inverse(r):
    """A^-1. POLY bit 31 is set, so bit 31 of A(r) tells whether r[0] was 1."""
    if r & 0x80000000:
        return (((r ^ POLY) << 1) | 1) & MASK32
    return (r << 1) & MASK32


def columns_to_masks(columns, n_out):
    """columns[i] = image of input unit vector i; returns per-output masks."""
    masks = []
    for k in range(n_out):
        m = 0
        for i, col in enumerate(columns):
            if (col >> k) & 1:
                m |= 1 << i
        masks.append(m)
    return masks


def apply_masks(masks, x):
    out = 0
    for k, m in enumerate(masks):
        out |= (bin(x & m).count("1") & 1) << k
    return out


def step_masks(width):
    """Masks over {data, crc_in} for one full beat of width/8 bytes."""
    nbytes = width // 8
    columns = []
    for i in range(32 + width):
        if i < 32:
            r, data = 1 << i, bytes(nbytes)
        else:
            r, data = 0, ((1 << (i - 32)).to_bytes(nbytes, "little"))
        columns.append(sw_step(r, data))
    return columns_to_masks(columns, 32)


def unshift_masks(j):
    """U_j = A^(-8*2^j) as 32 per-output masks over the 32-bit register."""
    columns = []
    for i in range(32):
        r = 1 << i
        for _ in range(8 << j):
            r = zero_bit_inverse(r)
        columns.append(r)
    return columns_to_masks(columns, 32)


def self_check(step, unshift):
    """Cross-check the matrices against the software algorithm."""
    assert zlib.crc32(b"123456789") == 0xCBF43926
    assert sw_step(MASK32, b"123456789") ^ MASK32 == 0xCBF43926
    rng = random.Random(1)
    for width, masks in step.items():
        nbytes = width // 8
        for _ in range(64):
            r = rng.getrandbits(32)
            data = bytes(rng.getrandbits(8) for _ in range(nbytes))
            x = (int.from_bytes(data, "little") << 32) | r
            assert apply_masks(masks, x) == sw_step(r, data), width
            # Zero-padding + un-shift reproduces a partial beat.
            for n in range(1, nbytes + 1):
                y = sw_step(r, data[:n] + bytes(nbytes - n))
                k = nbytes - n
                for j, u in enumerate(unshift):
                    if (k >> j) & 1:
                        y = apply_masks(u, y)
                assert y == sw_step(r, data[:n]), (width, n)
    for j, u in enumerate(unshift):
        for _ in range(16):
            r = rng.getrandbits(32)
            y = r
            for _ in range(8 << j):
                y = zero_bit(y)
            assert apply_masks(u, y) == r, j
            assert sw_step(apply_masks(u, r), bytes(1 << j)) == r, j


def hexdigits(value, bits):
    return format(value, "0%dx" % ((bits + 3) // 4))


RESIDUE = 0xDEBB20E3  # register after a frame followed by its own CRC


def residue_table(width):
    r, table = RESIDUE, []
    for _ in range(width // 8):
        table.append(r)
        r = sw_step(r, b"\0")
    return table


def render(step, unshift):
    out = []
    w = out.append
    w("// SPDX-License-Identifier: MIT")
    w("// CRC-32 (reflected, poly 0xEDB88320) XOR masks for froce_crc32_step.")
    w("// GENERATED by scripts/gen_crc.py -- do not edit; regenerate with")
    w("//   python3 scripts/gen_crc.py   (check: python3 scripts/gen_crc.py --check)")
    w("//")
    w("// Register convention: r = (r >> 8) ^ T[(r ^ b) & 0xff], no init/final xor.")
    w("// Data byte i of a beat is data[8*i+7:8*i], byte 0 first on the wire.")
    w("//")
    w("// FROCE_CRC32_STEP_MASKS_<W>: 32 masks of (W+32) bits, mask k in bits")
    w("//   [k*(W+32) +: W+32]; crc_out[k] = ^({data, crc_in} & mask_k).")
    w("//   Listed from mask 31 down to mask 0, each as <data part>_<crc part>.")
    w("// FROCE_CRC32_UNSHIFT_MASKS: U_j = A^(-8*2^j) (undo 2^j zero bytes, A = one")
    w("//   zero bit), j = 0..FROCE_CRC32_UNSHIFT_COUNT-1, independent of W.")
    w("//   Output bit b of U_j: ^(x & mask), mask in bits [1024*j + 32*b +: 32].")
    w("//   Listed from U_5 down to U_0, rows 31..0 separated by '_'.")
    w("")
    w("`ifndef FROCE_CRC32_MATRICES_VH")
    w("`define FROCE_CRC32_MATRICES_VH")
    w("")
    w("`define FROCE_CRC32_UNSHIFT_COUNT %d" % UNSHIFT_COUNT)
    w("")
    for width in WIDTHS:
        bits = width + 32
        w("`define FROCE_CRC32_STEP_MASKS_%d { \\" % width)
        masks = step[width]
        for k in range(31, -1, -1):
            m = masks[k]
            lit = "%d'h%s_%s" % (bits, hexdigits(m >> 32, width), hexdigits(m & MASK32, 32))
            w("    %s%s" % (lit, ", \\" if k else " \\"))
        w("}")
        w("")
    w("`define FROCE_CRC32_UNSHIFT_MASKS { \\")
    for j in range(UNSHIFT_COUNT - 1, -1, -1):
        rows = "_".join(hexdigits(unshift[j][b], 32) for b in range(31, -1, -1))
        w("    1024'h%s%s" % (rows, ", \\" if j else " \\"))
    w("}")
    w("")
    for width in WIDTHS:
        table = residue_table(width)
        w("`define FROCE_CRC32_RESIDUE_%d %d'h%s" % (
            width, 32 * len(table), "_".join("%08x" % v for v in reversed(table))))
    w("")
    w("`endif // FROCE_CRC32_MATRICES_VH")
    return "\n".join(out) + "\n"


def generate():
    step = {width: step_masks(width) for width in WIDTHS}
    unshift = [unshift_masks(j) for j in range(UNSHIFT_COUNT)]
    self_check(step, unshift)
    return render(step, unshift)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with the checked-in file; exit 1 if it differs")
    ap.add_argument("-o", "--output", default=OUTPUT,
                    help="output path (default: %s)" % RELPATH)
    args = ap.parse_args()

    text = generate()
    if args.check:
        try:
            with open(args.output, "r", encoding="ascii") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            why = "is missing" if current is None else "differs from the generator output"
            print("gen_crc.py --check: FAIL: %s %s; run `python3 scripts/gen_crc.py` "
                  "and commit the result" % (args.output, why), file=sys.stderr)
            return 1
        print("gen_crc.py --check: OK: %s is up to date" % args.output)
        return 0
    with open(args.output, "w", encoding="ascii") as f:
        f.write(text)
    print("gen_crc.py: wrote %s" % args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
