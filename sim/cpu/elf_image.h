// SPDX-License-Identifier: MIT
// Minimal ELF32 little-endian RISC-V reader for froce-cpu-sim: loadable segments and the symbol table.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

struct ElfSegment {
    uint32_t addr = 0;              // p_paddr (the load address)
    uint32_t memsz = 0;             // bytes in memory; bytes past data.size() are zero
    std::vector<uint8_t> data;      // the p_filesz bytes from the file
};

struct ElfImage {
    uint32_t entry = 0;
    std::vector<ElfSegment> segments;               // PT_LOAD with p_memsz > 0, file order
    std::map<std::string, uint32_t> symbols;        // name -> st_value (named symbols only)
};

// Reads path into img. On failure returns false and sets err to a sentence
// naming the problem (not an ELF, wrong class, byte order or machine, not an
// executable, truncated tables or segments).
bool elf_load(const std::string &path, ElfImage &img, std::string &err);
