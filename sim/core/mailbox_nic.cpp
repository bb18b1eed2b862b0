// SPDX-License-Identifier: MIT
// NicMboxTransport: the mailbox over BAR0 CMD_* of a simulated froce_core
// (see mailbox.h). Apart from mailbox.cpp so that the command layer links
// without a Verilated model (the native test, mbox_selftest.cpp).
#include <cinttypes>

#include "hwfield.h"
#include "mailbox.h"
#include "nic.h"

namespace froce_sim {

Status NicMboxTransport::start(uint64_t block_pa) {
    const std::string nic = "NIC " + nic_.name();
    const uint64_t t0 = nic_.cycle();
    for (;;) {
        uint32_t st = 0;
        FROCE_TRY(nic_.bar0_read32(FROCE_REG_DEV_STATUS, &st).context("DEV_STATUS"));
        if (st & FROCE_REG_DEV_STATUS_FATAL_MASK) {
            uint32_t syn = 0;
            FROCE_TRY(nic_.bar0_read32(FROCE_REG_FATAL_SYNDROME, &syn).context("FATAL_SYNDROME"));
            return errorf("%s: DEV_STATUS.FATAL, FATAL_SYNDROME %#x (code %#x, info %#x)", nic.c_str(), syn,
                          syn & FROCE_REG_FATAL_SYNDROME_CODE_MASK, syn >> FROCE_REG_FATAL_SYNDROME_INFO_SHIFT);
        }
        if (st & FROCE_REG_DEV_STATUS_READY_MASK) break;
        const uint64_t waited = nic_.cycle() - t0;
        if (waited >= t_.ready_cycles) {
            uint32_t ver = 0, hb = 0;
            FROCE_TRY(nic_.bar0_read32(FROCE_REG_FW_VERSION, &ver).context("FW_VERSION"));
            FROCE_TRY(nic_.bar0_read32(FROCE_REG_HEARTBEAT, &hb).context("HEARTBEAT"));
            return errorf("%s: DEV_STATUS.READY not set after waiting %" PRIu64 " cycles (cycle %" PRIu64
                          "; DEV_STATUS %#x, FW_VERSION %#x, HEARTBEAT %#x): the firmware did not come up (is the "
                          "soft core in froce_core?)",
                          nic.c_str(), waited, nic_.cycle(), st, ver, hb);
        }
        for (unsigned i = 0; i < t_.poll_cycles; i++) nic_.advance();
    }
    FROCE_TRY(nic_.bar0_write32(FROCE_REG_CMD_ADDR_LO, uint32_t(block_pa)).context("CMD_ADDR_LO"));
    FROCE_TRY(nic_.bar0_write32(FROCE_REG_CMD_ADDR_HI, uint32_t(block_pa >> 32)).context("CMD_ADDR_HI"));
    block_ = block_pa;
    started_ = true;
    return Status();
}

Status NicMboxTransport::run(uint16_t token, const std::string &what, uint64_t *cycles) {
    const std::string nic = "NIC " + nic_.name();
    if (!started_) return errorf("%s: %s: the mailbox transport is not started", nic.c_str(), what.c_str());
    const uint64_t t0 = nic_.cycle();
    FROCE_TRY(nic_.bar0_write32(FROCE_REG_CMD_DOORBELL, uint32_t(token) << FROCE_REG_CMD_DOORBELL_TOKEN_SHIFT)
                  .context(what + ": CMD_DOORBELL"));
    for (;;) {
        uint8_t w[4];
        nic_.mem().read(block_ + 4 * FROCE_MBOX_HDR_DONE_DW, w, 4);
        if (ld32(w) & FROCE_MBOX_HDR_DONE_MASK) break;
        const uint64_t waited = nic_.cycle() - t0;
        if (waited >= t_.cmd_cycles) {
            uint32_t cs = 0;
            FROCE_TRY(nic_.bar0_read32(FROCE_REG_CMD_STATUS, &cs).context(what + ": CMD_STATUS"));
            return errorf("%s: %s: DONE not set %" PRIu64 " cycles after CMD_DOORBELL (cycle %" PRIu64
                          "); CMD_STATUS %#x: BUSY %u, TOKEN %#x, STATUS %s",
                          nic.c_str(), what.c_str(), waited, nic_.cycle(), cs,
                          unsigned(FROCE_FIELD_GET(FROCE_REG_CMD_STATUS_BUSY, cs)),
                          unsigned(FROCE_FIELD_GET(FROCE_REG_CMD_STATUS_TOKEN, cs)),
                          cmd_status_name(uint8_t(FROCE_FIELD_GET(FROCE_REG_CMD_STATUS_STATUS, cs))).c_str());
        }
        for (unsigned i = 0; i < t_.poll_cycles; i++) nic_.advance();
    }
    if (cycles) *cycles = nic_.cycle() - t0;
    return Status();
}

}  // namespace froce_sim
