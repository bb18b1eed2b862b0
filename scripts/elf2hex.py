#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn a RISC-V ELF32 program into a $readmemh image for froce_cpu_ram.

The image is one 32-bit word per line (8 hex digits), word 0 first: the word
at the RAM's base address. This is what froce_cpu_top's RAM_INIT_FILE reads,
so the firmware is baked into the bitstream this way; the Icarus ISA bench
(tests/cpu/run.sh) uses it too.

    scripts/elf2hex.py [--words N] [--base ADDR] PROGRAM.elf OUT.hex

--words: RAM size in 32-bit words (default 16384, 64 KiB: froce_cpu_top's
default RAM_ADDR_WIDTH 14). --base: the RAM's base address (default: the
lowest loadable address rounded down to the RAM size, as froce-cpu-sim does).
Prints "base=0x... entry=0x... tohost=0x..." (tohost=none without that
symbol). Exits 2 with a message on bad input: not an ELF, not 32-bit
little-endian RISC-V, a segment outside the RAM.

Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import struct
import sys

EM_RISCV = 243
PT_LOAD = 1
SHT_SYMTAB = 2


class ElfError(Exception):
    pass


def load(path: str) -> tuple[int, list[tuple[int, int, bytes]], dict[str, int]]:
    """(entry, [(addr, memsz, data)], {symbol: value}) of an ELF32 executable."""
    with open(path, "rb") as f:
        buf = f.read()
    if buf[:4] != b"\x7fELF":
        raise ElfError(f"{path} is not an ELF file")
    if buf[4] != 1:
        raise ElfError(f"{path} is not a 32-bit ELF (build with -march=rv32i_zicsr -mabi=ilp32)")
    if buf[5] != 1:
        raise ElfError(f"{path} is not little-endian")
    if len(buf) < 52:
        raise ElfError(f"{path}: truncated ELF header")
    (e_type, e_machine, _, e_entry, e_phoff, e_shoff, _, _, e_phentsize, e_phnum,
     e_shentsize, e_shnum, _) = struct.unpack_from("<HHIIIIIHHHHHH", buf, 16)
    if e_machine != EM_RISCV:
        raise ElfError(f"{path} is not a RISC-V ELF (e_machine {e_machine})")
    if e_type != 2:
        raise ElfError(f"{path} is not an executable (e_type {e_type})")

    def need(off: int, size: int, what: str) -> None:
        if off < 0 or off + size > len(buf):
            raise ElfError(f"{path}: {what} points outside the file")

    segs = []
    need(e_phoff, e_phnum * e_phentsize, "program header table")
    for i in range(e_phnum):
        p_type, p_offset, _, p_paddr, p_filesz, p_memsz, _, _ = struct.unpack_from(
            "<IIIIIIII", buf, e_phoff + i * e_phentsize)
        if p_type != PT_LOAD or p_memsz == 0:
            continue
        if p_filesz > p_memsz:
            raise ElfError(f"{path}: program header {i} has p_filesz > p_memsz")
        need(p_offset, p_filesz, f"program header {i}")
        segs.append((p_paddr, p_memsz, buf[p_offset:p_offset + p_filesz]))
    if not segs:
        raise ElfError(f"{path} has no loadable segment")

    syms: dict[str, int] = {}
    if e_shnum:
        need(e_shoff, e_shnum * e_shentsize, "section header table")
        shdrs = [struct.unpack_from("<IIIIIIIIII", buf, e_shoff + i * e_shentsize) for i in range(e_shnum)]
        for sh in shdrs:
            if sh[1] != SHT_SYMTAB or sh[6] >= e_shnum:
                continue
            strtab = shdrs[sh[6]]
            need(sh[4], sh[5], "symbol table")
            need(strtab[4], strtab[5], "string table")
            strs = buf[strtab[4]:strtab[4] + strtab[5]]
            for off in range(sh[4], sh[4] + sh[5] - 15, 16):
                st_name, st_value = struct.unpack_from("<II", buf, off)
                if st_name and st_name < len(strs):
                    end = strs.find(b"\0", st_name)
                    if end > st_name:
                        syms.setdefault(strs[st_name:end].decode(errors="replace"), st_value)
    return e_entry, segs, syms


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", type=lambda s: int(s, 0), default=16384, help="RAM size in 32-bit words")
    ap.add_argument("--base", type=lambda s: int(s, 0), default=None, help="RAM base address")
    ap.add_argument("elf")
    ap.add_argument("hex")
    args = ap.parse_args()
    size = args.words * 4
    if args.words <= 0 or args.words & (args.words - 1):
        print("elf2hex: --words must be a power of two", file=sys.stderr)
        return 2
    try:
        entry, segs, syms = load(args.elf)
    except (OSError, ElfError) as e:
        print(f"elf2hex: error: {e}", file=sys.stderr)
        return 2
    base = args.base if args.base is not None else min(a for a, _, _ in segs) & ~(size - 1)
    if base % size:
        print(f"elf2hex: error: base 0x{base:08x} is not a multiple of the RAM size", file=sys.stderr)
        return 2
    image = bytearray(size)
    for addr, memsz, data in segs:
        if addr < base or addr + memsz > base + size:
            print(f"elf2hex: error: segment at 0x{addr:08x} ({memsz} bytes) lies outside the "
                  f"{size // 1024} KiB RAM at 0x{base:08x}", file=sys.stderr)
            return 2
        image[addr - base:addr - base + len(data)] = data
    with open(args.hex, "w") as f:
        for w in range(args.words):
            f.write(f"{int.from_bytes(image[4 * w:4 * w + 4], 'little'):08x}\n")
    tohost = syms.get("tohost")
    print(f"base=0x{base:08x} entry=0x{entry:08x} tohost=" + (f"0x{tohost:08x}" if tohost is not None else "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
