// SPDX-License-Identifier: MIT
// Minimal ELF32 reader (see elf_image.h). Every offset and size read from the
// file is checked against the file's length before use.
#include "elf_image.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>

namespace {

// [off, off + len) lies inside a buffer of size n, without overflow
bool in_file(uint64_t off, uint64_t len, size_t n) { return off <= n && len <= n - off; }

template <typename T> T read_at(const std::vector<uint8_t> &buf, uint64_t off)
{
    T v;
    std::memcpy(&v, buf.data() + off, sizeof v);
    return v;   // the host is little endian like the target (checked in main)
}

} // namespace

bool elf_load(const std::string &path, ElfImage &img, std::string &err)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        err = "cannot open " + path;
        return false;
    }
    std::vector<uint8_t> buf((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const size_t n = buf.size();

    if (n < EI_NIDENT || std::memcmp(buf.data(), ELFMAG, SELFMAG) != 0) {
        err = path + " is not an ELF file";
        return false;
    }
    if (buf[EI_CLASS] != ELFCLASS32) {
        err = path + " is not a 32-bit ELF (EI_CLASS " + std::to_string(buf[EI_CLASS]) +
              "); build with -march=rv32i_zicsr -mabi=ilp32";
        return false;
    }
    if (buf[EI_DATA] != ELFDATA2LSB) {
        err = path + " is not little-endian";
        return false;
    }
    if (n < sizeof(Elf32_Ehdr)) {
        err = path + ": truncated ELF header";
        return false;
    }
    const auto eh = read_at<Elf32_Ehdr>(buf, 0);
    if (eh.e_machine != EM_RISCV) {
        err = path + " is not a RISC-V ELF (e_machine " + std::to_string(eh.e_machine) + ")";
        return false;
    }
    if (eh.e_type != ET_EXEC) {
        err = path + " is not an executable (e_type " + std::to_string(eh.e_type) + ")";
        return false;
    }
    img.entry = eh.e_entry;

    // program headers: PT_LOAD segments
    if (eh.e_phnum == 0 || eh.e_phentsize != sizeof(Elf32_Phdr) ||
        !in_file(eh.e_phoff, uint64_t(eh.e_phnum) * sizeof(Elf32_Phdr), n)) {
        err = path + ": missing or truncated program header table";
        return false;
    }
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        const auto ph = read_at<Elf32_Phdr>(buf, eh.e_phoff + uint64_t(i) * sizeof(Elf32_Phdr));
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        if (ph.p_filesz > ph.p_memsz || !in_file(ph.p_offset, ph.p_filesz, n)) {
            err = path + ": program header " + std::to_string(i) + " points outside the file";
            return false;
        }
        if (uint64_t(ph.p_paddr) + ph.p_memsz > (uint64_t(1) << 32)) {
            err = path + ": segment " + std::to_string(i) + " wraps the 32-bit address space";
            return false;
        }
        ElfSegment seg;
        seg.addr = ph.p_paddr;
        seg.memsz = ph.p_memsz;
        seg.data.assign(buf.begin() + ph.p_offset, buf.begin() + ph.p_offset + ph.p_filesz);
        img.segments.push_back(std::move(seg));
    }
    if (img.segments.empty()) {
        err = path + " has no loadable segment";
        return false;
    }

    // section headers: the symbol table (optional: a stripped file has none)
    if (eh.e_shnum == 0)
        return true;
    if (eh.e_shentsize != sizeof(Elf32_Shdr) || !in_file(eh.e_shoff, uint64_t(eh.e_shnum) * sizeof(Elf32_Shdr), n)) {
        err = path + ": truncated section header table";
        return false;
    }
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        const auto sh = read_at<Elf32_Shdr>(buf, eh.e_shoff + uint64_t(i) * sizeof(Elf32_Shdr));
        if (sh.sh_type != SHT_SYMTAB)
            continue;
        if (sh.sh_link >= eh.e_shnum || sh.sh_entsize != sizeof(Elf32_Sym) || !in_file(sh.sh_offset, sh.sh_size, n)) {
            err = path + ": bad symbol table";
            return false;
        }
        const auto strh = read_at<Elf32_Shdr>(buf, eh.e_shoff + uint64_t(sh.sh_link) * sizeof(Elf32_Shdr));
        if (!in_file(strh.sh_offset, strh.sh_size, n)) {
            err = path + ": bad string table";
            return false;
        }
        for (uint64_t off = 0; off + sizeof(Elf32_Sym) <= sh.sh_size; off += sizeof(Elf32_Sym)) {
            const auto sym = read_at<Elf32_Sym>(buf, sh.sh_offset + off);
            if (sym.st_name == 0 || sym.st_name >= strh.sh_size)
                continue;
            const char *name = reinterpret_cast<const char *>(buf.data() + strh.sh_offset + sym.st_name);
            const size_t maxlen = strh.sh_size - sym.st_name;
            const size_t len = strnlen(name, maxlen);
            if (len == maxlen)
                continue;   // not terminated inside the table
            img.symbols.emplace(std::string(name, len), sym.st_value);
        }
    }
    return true;
}
