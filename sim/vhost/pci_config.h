// SPDX-License-Identifier: MIT
// Configuration space of one type-0 PCI function: identity, command register,
// memory BARs (32- or 64-bit, sizing by writing all ones), a capability list
// with MSI-X. Every byte has a write mask; what is not writable keeps its value.
#pragma once

#include <cstdint>
#include <cstring>

namespace froce_vhost {

class PciConfig {
public:
    static constexpr unsigned kSize = 4096;
    static constexpr uint16_t kCmdWritable = 0x0547;   // IO, MEM, MASTER, PARITY, SERR, INTX_DISABLE
    static constexpr uint16_t kMsixEnable = 0x8000, kMsixFuncMask = 0x4000;

    PciConfig(uint16_t vendor, uint16_t device, uint32_t class_code, uint8_t revision) {
        std::memset(cfg_, 0, sizeof cfg_);
        std::memset(wmask_, 0, sizeof wmask_);
        put16(0x00, vendor);
        put16(0x02, device);
        put16(0x04, 0);
        mask16(0x04, kCmdWritable);
        cfg_[0x08] = revision;
        cfg_[0x09] = uint8_t(class_code);
        cfg_[0x0a] = uint8_t(class_code >> 8);
        cfg_[0x0b] = uint8_t(class_code >> 16);
        cfg_[0x0e] = 0;                    // header type 0, single function
        put16(0x2c, vendor);               // subsystem vendor / id
        put16(0x2e, device);
        cfg_[0x3c] = 0;                    // interrupt line: scratch for the OS
        wmask_[0x3c] = 0xff;
        cfg_[0x3d] = 0;                    // no INTx pin: MSI-X only
    }

    // Memory BAR i (i and i + 1 for a 64-bit one) of size bytes (a power of two >= 16).
    void set_bar(unsigned i, uint64_t size, bool is64, bool prefetch) {
        const unsigned off = 0x10 + 4 * i;
        uint64_t mask = ~(size - 1) & ~uint64_t(0xf);
        uint32_t flags = (is64 ? 0x4u : 0u) | (prefetch ? 0x8u : 0u);
        put32(off, flags);
        mask32(off, uint32_t(mask));
        if (is64) {
            put32(off + 4, 0);
            mask32(off + 4, uint32_t(mask >> 32));
        }
    }

    // MSI-X capability at cap_off (the only capability).
    void add_msix(uint8_t cap_off, unsigned table_size, uint8_t table_bir, uint32_t table_off, uint8_t pba_bir,
                  uint32_t pba_off) {
        msix_ = cap_off;
        put16(0x06, uint16_t(get16(0x06) | 0x0010));   // status: capability list
        cfg_[0x34] = cap_off;
        cfg_[cap_off] = 0x11;                          // MSI-X
        cfg_[cap_off + 1] = 0;                         // last capability
        put16(cap_off + 2, uint16_t(table_size - 1));
        mask16(cap_off + 2, kMsixEnable | kMsixFuncMask);
        put32(cap_off + 4, table_off | table_bir);
        put32(cap_off + 8, pba_off | pba_bir);
    }

    // Reads of 1, 2, 4 or 8 bytes; beyond the space: all ones.
    uint64_t read(uint32_t off, unsigned size) const {
        if (off >= kSize || size > kSize - off) return ~uint64_t(0);
        uint64_t v = 0;
        std::memcpy(&v, cfg_ + off, size);
        return v;
    }
    void write(uint32_t off, unsigned size, uint64_t v) {
        if (off >= kSize || size > kSize - off) return;
        for (unsigned i = 0; i < size && i < 8; i++) {
            uint8_t m = wmask_[off + i];
            cfg_[off + i] = uint8_t((cfg_[off + i] & ~m) | (uint8_t(v >> (8 * i)) & m));
        }
    }

    uint16_t command() const { return get16(0x04); }
    uint16_t msix_control() const { return msix_ ? get16(msix_ + 2) : 0; }
    bool msix_enabled() const { return (msix_control() & kMsixEnable) != 0; }
    bool msix_function_masked() const { return (msix_control() & kMsixFuncMask) != 0; }

private:
    uint8_t cfg_[kSize];
    uint8_t wmask_[kSize];
    uint8_t msix_ = 0;

    void put16(unsigned o, uint16_t v) { std::memcpy(cfg_ + o, &v, 2); }
    void put32(unsigned o, uint32_t v) { std::memcpy(cfg_ + o, &v, 4); }
    uint16_t get16(unsigned o) const {
        uint16_t v;
        std::memcpy(&v, cfg_ + o, 2);
        return v;
    }
    void mask16(unsigned o, uint16_t m) { std::memcpy(wmask_ + o, &m, 2); }
    void mask32(unsigned o, uint32_t m) { std::memcpy(wmask_ + o, &m, 4); }
};

}  // namespace froce_vhost
