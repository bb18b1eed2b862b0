// SPDX-License-Identifier: MIT
// Firmware bridge (test scaffolding until froce_core has its soft core): the
// firmware's command handlers (firmware/src), compiled natively into the
// harness, serve each NIC's mailbox and reach the engine through the
// simulation-only control port that froce_core still has (Nic::ctl_*).
//
// Linked only into the *-fwbridge binaries (make -C sim/core bridge): a static
// initializer installs BridgeTransport as Host's transport. Host, froce-perf
// and froce-scenario are the same code as in the plain binaries; only the
// command blocks are served by the native firmware instead of the RTL's soft
// core. What it stands in for, per fw_hal.h call:
//   hal_ctl_*        Nic::ctl_read32 / ctl_write32 (blocking, the simulation runs)
//   hal_dma_*        the NIC's host memory, at once (the DMA engine is not modelled)
//   hal_mbox_*       CMD_DOORBELL and CMD_ADDR are written to BAR0 as the driver
//                    does, the block address is read back from BAR0 CMD_ADDR,
//                    CMD_STATUS is kept here (BAR0 CMD_STATUS reads 0 without
//                    the soft core)
//   hal_eq_post      refused (no EQE port without the soft core): CMD_DONE
//                    events are not modelled; Host polls DONE
//   hal_async_poll   nothing (the engine raises no events yet)
//   hal_platform     froce_core's default sizes; the arena the RV32 image
//                    leaves in a 64 KiB RAM (41888 bytes: 128 QPs, 128 CQs,
//                    512 MRs, 32768 MTT entries, as on the soft core)
// Each NIC has its own firmware state: `fw` is swapped in around every call.
// Goes away with the control port.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "host.h"
#include "hwfield.h"
#include "mailbox.h"
#include "nic.h"

extern "C" {
#include "fw.h"
}

namespace froce_sim {
namespace {

constexpr uint32_t kArenaBytes = 41888;   // firmware/README.md, "RAM and tables"

struct FwInstance {
    Nic *nic = nullptr;
    std::vector<uint32_t> arena = std::vector<uint32_t>(kArenaBytes / 4);
    fw_state saved{};
    bool booted = false;
    uint64_t block = 0;             // CMD_ADDR as BAR0 holds it
    uint32_t cmd_status = 0;        // what the firmware wrote to CMD_STATUS
    uint32_t fw_version = 0;
    bool ready = false;
    uint64_t eq_refused = 0;        // EQEs the firmware wanted to post
    std::string console;
    Status err;                     // first control-bus error during a call
};

FwInstance *g_cur = nullptr;

// Runs f with inst's firmware state in `fw`.
template <class F>
void with_fw(FwInstance &inst, F f) {
    fw = inst.saved;
    g_cur = &inst;
    f();
    inst.saved = fw;
    g_cur = nullptr;
}

class BridgeTransport : public MboxTransport {
public:
    explicit BridgeTransport(Nic &nic) { inst_.nic = &nic; }

    Status start(uint64_t block_pa) override {
        Nic &nic = *inst_.nic;
        const std::string who = "NIC " + nic.name() + " (firmware bridge)";
        if (!inst_.booted) {
            int rc = -1;
            with_fw(inst_, [&] {
                rc = fw_init();
                if (rc == 0) hal_dev_ready(0);
            });
            FROCE_TRY(inst_.err.context(who + ": fw_init"));
            if (rc) return errorf("%s: fw_init failed: %s", who.c_str(), inst_.console.c_str());
            inst_.booted = true;
        }
        FROCE_TRY(nic.bar0_write32(FROCE_REG_CMD_ADDR_LO, uint32_t(block_pa)).context(who));
        FROCE_TRY(nic.bar0_write32(FROCE_REG_CMD_ADDR_HI, uint32_t(block_pa >> 32)).context(who));
        return Status();
    }

    Status run(uint16_t token, const std::string &what, uint64_t *cycles) override {
        Nic &nic = *inst_.nic;
        const std::string who = "NIC " + nic.name() + " (firmware bridge): " + what;
        const uint64_t t0 = nic.cycle();
        const uint32_t db = uint32_t(token) << FROCE_REG_CMD_DOORBELL_TOKEN_SHIFT;
        FROCE_TRY(nic.bar0_write32(FROCE_REG_CMD_DOORBELL, db).context(who));
        // the block address the hardware latched with the doorbell
        uint32_t lo = 0, hi = 0;
        FROCE_TRY(nic.bar0_read32(FROCE_REG_CMD_ADDR_LO, &lo).context(who));
        FROCE_TRY(nic.bar0_read32(FROCE_REG_CMD_ADDR_HI, &hi).context(who));
        inst_.block = uint64_t(hi) << 32 | lo;
        inst_.err = Status();
        with_fw(inst_, [&] { fw_mbox_service(db, inst_.block); });
        FROCE_TRY(inst_.err.context(who));
        uint8_t w[4];
        nic.mem().read(inst_.block + 4 * FROCE_MBOX_HDR_DONE_DW, w, 4);
        if (!(ld32(w) & FROCE_MBOX_HDR_DONE_MASK))
            return errorf("%s: DONE not set in the block at %#" PRIx64 " (CMD_STATUS %#x)", who.c_str(), inst_.block,
                          inst_.cmd_status);
        if (cycles) *cycles = nic.cycle() - t0;
        return Status();
    }

    FwInstance inst_;
};

const bool kInstalled = [] {
    Host::set_transport_factory([](Nic &nic, const HostConfig &) -> std::unique_ptr<MboxTransport> {
        static bool said = false;
        if (!said) {
            std::fprintf(stderr, "firmware bridge: the native firmware serves the mailbox over the control port "
                                 "(not the soft core)\n");
            said = true;
        }
        return std::make_unique<BridgeTransport>(nic);
    });
    return true;
}();

}  // namespace
}  // namespace froce_sim

using froce_sim::g_cur;

// ---- fw_hal.h on the bridge ---------------------------------------------------

extern "C" {

uint32_t hal_ctl_read32(uint32_t off) {
    uint32_t v = 0;
    froce_sim::Status s = g_cur->nic->ctl_read32(off, &v);
    if (!s.ok() && g_cur->err.ok()) g_cur->err = s;
    return v;
}

void hal_ctl_write32(uint32_t off, uint32_t val) {
    froce_sim::Status s = g_cur->nic->ctl_write32(off, val);
    if (!s.ok() && g_cur->err.ok()) g_cur->err = s;
}

int hal_dma_read(uint64_t addr, void *dst, uint32_t len) {
    g_cur->nic->mem().read(addr, static_cast<uint8_t *>(dst), len);
    return 0;
}

int hal_dma_write(uint64_t addr, const void *src, uint32_t len) {
    g_cur->nic->mem().write(addr, static_cast<const uint8_t *>(src), len);
    return 0;
}

int hal_eq_post(uint32_t, const uint32_t *) {
    g_cur->eq_refused++;
    return -1;
}

bool hal_mbox_poll(uint32_t *, uint64_t *) { return false; }

void hal_mbox_status(uint32_t cmd_status) { g_cur->cmd_status = cmd_status; }

void hal_dev_ready(uint32_t fw_version) {
    g_cur->fw_version = fw_version;
    g_cur->ready = true;
}

void hal_heartbeat(uint32_t) {}

bool hal_ms_tick(void) { return false; }

uint32_t hal_link_status(void) {
    return FROCE_REG_LINK_STATUS_UP_MASK | 10u << FROCE_REG_LINK_STATUS_SPEED_GBPS_SHIFT;
}

void hal_port_set(uint64_t, uint32_t, bool, bool) {}

bool hal_async_poll(struct fw_async_event *) { return false; }

void hal_platform(struct fw_platform *p) {
    p->num_qps = 256;
    p->num_cqs = 256;
    p->num_eqs = 8;
    p->num_gids = 16;
    p->num_uars = froce_sim::Nic::kNumUars;
    p->num_vectors = FROCE_MSIX_MAX_VECTORS;
    p->num_pds = 256;
    p->rd_atomic_max = 8;
    p->perm_mac = 0;
    p->arena = g_cur->arena.data();
    p->arena_bytes = froce_sim::kArenaBytes;
}

void hal_console_putc(char c) { g_cur->console.push_back(c); }

}  // extern "C"
