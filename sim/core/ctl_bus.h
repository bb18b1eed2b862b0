// SPDX-License-Identifier: MIT
// Master for the internal control bus of froce_core (ctl_valid/ctl_ready,
// ctl_write, ctl_addr = byte offset >> 2, ctl_wdata; read data on ctl_rvalid,
// in order). One access at a time. Shared by Nic (on Vfroce_core) and the
// self-test (on a top with only the MR/MTT block), so the same code is checked
// against real RTL. M is any Verilated model with those port names.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <functional>
#include <string>

#include "froce_hw.h"
#include "status.h"

namespace froce_sim {

struct CtlMaster {
    bool active = false, accepted = false, is_write = false, got = false;
    uint32_t addr = 0, wdata = 0, rdata = 0;
    unsigned reads_out = 0;
    uint64_t writes = 0, reads = 0, stray_rvalid = 0;

    // Inputs of the model for this cycle (before eval).
    template <class M>
    void drive(M *m) const {
        m->ctl_valid = active && !accepted;
        m->ctl_write = is_write;
        m->ctl_addr = addr;
        m->ctl_wdata = wdata;
    }
    // Handshakes of this cycle (after eval, before the clock edge).
    template <class M>
    void sample(const M *m) {
        if (m->ctl_valid && m->ctl_ready) {
            accepted = true;
            if (is_write) writes++;
            else {
                reads++;
                reads_out++;
            }
        }
        if (m->ctl_rvalid) {
            if (reads_out > 0) {
                reads_out--;
                rdata = m->ctl_rdata;
                got = true;
            } else {
                stray_rvalid++;
            }
        }
    }

    // One blocking access; advance() lets one cycle pass.
    Status access(const std::string &who, bool write, uint32_t byte_off, uint32_t wd, uint32_t *rd, uint64_t timeout,
                  const std::function<void()> &advance, uint64_t now) {
        const char *what = write ? "ctl_write32" : "ctl_read32";
        if (byte_off & 3) return errorf("%s: %s(%#x): offset not 4-byte aligned", who.c_str(), what, byte_off);
        if (byte_off >= FROCE_CTL_SPAN)
            return errorf("%s: %s(%#x): beyond the control bus (CTL_SPAN %#x)", who.c_str(), what, byte_off,
                          unsigned(FROCE_CTL_SPAN));
        if (!write && !rd) return errorf("%s: ctl_read32: null output", who.c_str());
        if (active) return errorf("%s: %s: control access already in progress", who.c_str(), what);
        const uint64_t stray0 = stray_rvalid;
        active = true;
        accepted = got = false;
        is_write = write;
        addr = byte_off >> 2;
        wdata = wd;
        uint64_t waited = 0;
        while (!accepted) {
            if (waited++ >= timeout) {
                active = false;
                return errorf("%s: %s(byte offset %#x%s): ctl_ready not seen within %" PRIu64
                              " cycles (from cycle %" PRIu64 "); the control bus does not answer",
                              who.c_str(), what, byte_off, write ? ", write" : "", timeout, now);
            }
            advance();
        }
        if (!write) {
            waited = 0;
            while (!got) {
                if (waited++ >= timeout) {
                    active = false;
                    reads_out = 0;
                    return errorf("%s: ctl_read32(byte offset %#x): accepted but no ctl_rvalid within %" PRIu64
                                  " cycles",
                                  who.c_str(), byte_off, timeout);
                }
                advance();
            }
            *rd = rdata;
        }
        active = false;
        if (stray_rvalid != stray0)
            return errorf("%s: %s(byte offset %#x): ctl_rvalid seen %" PRIu64
                          " time(s) with no read outstanding (the control bus is not driven properly)",
                          who.c_str(), what, byte_off, stray_rvalid - stray0);
        return Status();
    }
};

}  // namespace froce_sim
