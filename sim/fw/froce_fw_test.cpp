// SPDX-License-Identifier: MIT
// froce-fw-test: block test of froce_fw (rtl/fw) running the real firmware image
// against C++ models of host memory (AXI4), froce_core's control bus and event
// engine, the mailbox and the engine's event FIFO. Usage: see usage() and
// sim/fw/README.md.
#include "Vfroce_fw.h"
#include "Vfroce_fw___024root.h"
#include "axi_mem.h"
#include "froce_hw.h"
#include "verilated.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

// Parameters the model was built with (sim/fw/Makefile passes the same values
// to Verilator with -G and to this file with -D).
#ifndef T_NUM_QPS
#error "build with sim/fw/Makefile"
#endif

using froce_sim::AxiMem;
using froce_sim::AxiMemConfig;
using froce_sim::AxiMemPins;

namespace {

constexpr uint32_t RAM_WORDS = 1u << T_RAM_ADDR_WIDTH;
constexpr uint64_t BLOCK = 0x100000000ull;          // the command block (above 4 GiB)
constexpr uint64_t T_MAC = T_MAC_VALUE;

// ---------------------------------------------------------------- checks

struct Checks {
    unsigned failed = 0;
    std::string cur;
    void fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)))
    {
        va_list ap;
        std::printf("    FAIL %s:%d [%s]: ", file, line, cur.c_str());
        va_start(ap, fmt);
        std::vprintf(fmt, ap);
        va_end(ap);
        std::printf("\n");
        failed++;
    }
};
Checks g_checks;

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) g_checks.fail(__FILE__, __LINE__, __VA_ARGS__); \
    } while (0)
#define CHECK_EQ(a, b) \
    do { \
        const unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b); \
        if (va_ != vb_) g_checks.fail(__FILE__, __LINE__, "%s = %#llx, expected %s = %#llx", #a, va_, #b, vb_); \
    } while (0)

uint32_t ld32(const uint8_t *p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
uint64_t ld64(const uint8_t *p) { return uint64_t(ld32(p)) | uint64_t(ld32(p + 4)) << 32; }
void st32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = uint8_t(v >> (8 * i));
}
void st64(uint8_t *p, uint64_t v)
{
    st32(p, uint32_t(v));
    st32(p + 4, uint32_t(v >> 32));
}

// field access on little-endian byte images (F_DW / F_QW, F_SHIFT, F_MASK)
#define GET(buf, F) FROCE_FIELD_GET(F, ld32((buf) + 4 * F##_DW))
#define SET(buf, F, v) \
    st32((buf) + 4 * F##_DW, (ld32((buf) + 4 * F##_DW) & ~F##_MASK) | FROCE_FIELD_PREP(F, uint32_t(v)))
#define GETQ(buf, F) ld64((buf) + 8 * F##_QW)
#define SETQ(buf, F, v) st64((buf) + 8 * F##_QW, uint64_t(v))

// a committed context as bytes (zeros, FROCE_QPC_SIZE of them, if it was never written)
std::vector<uint8_t> ctx_bytes(const std::map<uint32_t, std::vector<uint32_t>> &table, uint32_t index)
{
    std::vector<uint8_t> b(FROCE_QPC_SIZE, 0);
    const auto it = table.find(index);
    if (it == table.end()) return b;
    for (size_t i = 0; i < it->second.size() && 4 * i < b.size(); i++) st32(&b[4 * i], it->second[i]);
    return b;
}

// ---------------------------------------------------------------- control-bus slave

// froce_core's ctl_* port as the firmware sees it: MRT_REGS and counter reads;
// context writes with the engine's staging rule (QPC/CQC/GID/EQC share one
// staging register, dword 0 commits; MR_CTX commits with dword 7; MTT low then
// high). Every access is logged; anything the RTL would not accept is an error.
struct CtlModel {
    // configuration
    unsigned ready_pct = 100;
    unsigned lat_min = 1, lat_max = 1;
    uint64_t ready_from = 0;            // ready stays low before this cycle (the core's init after reset)
    unsigned init_reads = 3;            // MRT_REGS reads answering INIT = 1
    bool echo_mode = false;             // bus test: every read answers 0xC0DE0000 ^ word address
    uint32_t num_mrs = 1024, num_mtt = 65536;
    uint64_t counters[FROCE_CNT_NUM] = {};
    std::mt19937_64 rng{7};

    // pins this cycle
    bool ready = false, rvalid = false;
    uint32_t rdata = 0;

    struct Access {
        uint64_t cycle;
        bool write;
        uint32_t addr;                  // word address
        uint32_t data;
    };
    std::vector<Access> log;
    std::vector<std::string> errors;
    std::deque<std::pair<uint64_t, uint32_t>> rq;   // read responses: due cycle, data
    bool held = false;                  // valid seen without ready last cycle
    uint32_t held_addr = 0, held_data = 0;
    bool held_write = false;

    // committed contexts
    std::map<uint32_t, std::vector<uint32_t>> qpc, cqc, gid, eqc, mr;
    std::map<uint32_t, uint64_t> mtt;
    std::map<uint32_t, uint32_t> qpc_load;          // load bits of the last QPC commit
    unsigned qpc_commits = 0, cqc_commits = 0, gid_commits = 0, eqc_commits = 0, mr_commits = 0, mtt_writes = 0;
    uint32_t stage[32] = {};
    uint32_t stage_mask = 0, stage_base = 0xFFFFFFFFu;
    uint32_t mr_stage[8] = {};
    uint32_t mr_mask = 0, mr_index = 0;
    int64_t mtt_lo_index = -1;
    uint32_t mtt_lo = 0;

    void error(const char *fmt, ...) __attribute__((format(printf, 2, 3)))
    {
        char buf[256];
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        if (errors.size() < 20) errors.push_back(buf);
    }

    bool chance(unsigned pct) { return pct >= 100 || std::uniform_int_distribution<unsigned>(0, 99)(rng) < pct; }

    void drive(uint64_t now)
    {
        ready = now >= ready_from && chance(ready_pct);
        rvalid = !rq.empty() && rq.front().first <= now;
        rdata = rvalid ? rq.front().second : 0xDEADBEEFu;
    }

    uint32_t read_value(uint32_t off)
    {
        if (echo_mode) return 0xC0DE0000u ^ (off >> 2);
        const uint32_t regs = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_REGS_OFF;
        if (off >= regs && off < regs + FROCE_MRT_REGS_SIZE) {
            switch ((off - regs) / 4) {
            case FROCE_MRT_REGS_BUSY_DW:
                if (init_reads) {
                    init_reads--;
                    return FROCE_MRT_REGS_INIT_MASK;
                }
                return 0;
            case FROCE_MRT_REGS_NUM_MRS_DW: return num_mrs;
            case FROCE_MRT_REGS_NUM_MTT_DW: return num_mtt;
            default: return 0;
            }
        }
        if (off >= FROCE_CTL_CORE_BASE && off < FROCE_CTL_CORE_BASE + 8 * FROCE_CNT_NUM) {
            const uint64_t c = counters[(off - FROCE_CTL_CORE_BASE) / 8];
            return (off & 4) ? uint32_t(c >> 32) : uint32_t(c);
        }
        if (off >= FROCE_CTL_ICNT_BASE && off < FROCE_CTL_ICNT_BASE + 8 * FROCE_ICNT_NUM) return 0;
        error("read of ctl offset %#x: nothing readable there", off);
        return 0;
    }

    void ctx_write(const char *what, std::map<uint32_t, std::vector<uint32_t>> &table, unsigned *commits,
                   uint32_t index, uint32_t ctx_bytes, uint32_t off, uint32_t val)
    {
        const uint32_t dw = (off % ctx_bytes) / 4, base = off - off % ctx_bytes;
        const uint32_t all = ctx_bytes / 4 >= 32 ? 0xFFFFFFFEu : ((1u << (ctx_bytes / 4)) - 1) & ~1u;
        if (stage_mask && stage_base != base)
            error("%s %u dw%u written while %#x has staged dwords %#x", what, index, dw, stage_base, stage_mask);
        if (dw) {
            stage[dw] = val;
            stage_mask |= 1u << dw;
            stage_base = base;
            return;
        }
        if (stage_mask != all)
            error("%s %u committed with staged dwords %#x, not %#x", what, index, stage_mask, all);
        std::vector<uint32_t> e(ctx_bytes / 4);
        e[0] = val;
        for (uint32_t i = 1; i < ctx_bytes / 4; i++) e[i] = stage[i];
        table[index] = e;
        (*commits)++;
        stage_mask = 0;
        stage_base = 0xFFFFFFFFu;
    }

    void write(uint32_t off, uint32_t val)
    {
        if (echo_mode) return;
        if (off < FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_SPAN) {
            const uint32_t o = off - FROCE_CTL_MRT_BASE;
            if (o >= FROCE_MRT_CTL_MTT_OFF) {
                const uint32_t j = (o - FROCE_MRT_CTL_MTT_OFF) / FROCE_MTT_ENTRY_SIZE;
                if (j >= num_mtt) error("MTT write beyond the table: %u", j);
                if (!(o & 4)) {
                    mtt_lo = val;
                    mtt_lo_index = j;
                } else {
                    if (mtt_lo_index != int64_t(j)) error("MTT %u high dword without its low dword", j);
                    mtt[j] = uint64_t(val) << 32 | mtt_lo;
                    mtt_lo_index = -1;
                    mtt_writes++;
                }
                return;
            }
            if (o >= FROCE_MRT_CTL_REGS_OFF) {
                error("write to MRT_REGS (%#x)", off);
                return;
            }
            const uint32_t i = o / FROCE_MR_CTX_SIZE, dw = (o / 4) & 7;
            if (i >= num_mrs) error("MR_CTX write beyond the table: %u", i);
            if (mr_mask && mr_index != i) error("MR %u dw%u written while MR %u is staged", i, dw, mr_index);
            if (dw < 7) {
                mr_stage[dw] = val;
                mr_mask |= 1u << dw;
                mr_index = i;
                return;
            }
            if (mr_mask != 0x7F) error("MR %u committed with staged dwords %#x", i, mr_mask);
            std::vector<uint32_t> e(8);
            for (int k = 0; k < 7; k++) e[k] = mr_stage[k];
            e[7] = val;
            mr[i] = e;
            mr_commits++;
            mr_mask = 0;
            return;
        }
        if (off >= FROCE_CTL_QPC_BASE && off < FROCE_CTL_CQC_BASE) {
            const uint32_t q = (off - FROCE_CTL_QPC_BASE) / FROCE_QPC_SIZE;
            if (q >= T_NUM_QPS) error("QPC write beyond the table: QP %u", q);
            const uint32_t loads =
                FROCE_QPC_LOAD_RESET_MASK | FROCE_QPC_LOAD_RQ_PSN_MASK | FROCE_QPC_LOAD_SQ_PSN_MASK;
            if ((off & (FROCE_QPC_SIZE - 1)) == 0) {
                qpc_load[q] = val & loads;
                val &= ~loads;          // actions, not stored
            }
            ctx_write("QPC", qpc, &qpc_commits, q, FROCE_QPC_SIZE, off - FROCE_CTL_QPC_BASE, val);
        } else if (off >= FROCE_CTL_CQC_BASE && off < FROCE_CTL_GID_BASE) {
            const uint32_t n = (off - FROCE_CTL_CQC_BASE) / FROCE_CQC_SIZE;
            if (n >= T_NUM_CQS) error("CQC write beyond the table: CQ %u", n);
            ctx_write("CQC", cqc, &cqc_commits, n, FROCE_CQC_SIZE, off - FROCE_CTL_CQC_BASE, val);
        } else if (off >= FROCE_CTL_GID_BASE && off < FROCE_CTL_CORE_BASE) {
            const uint32_t n = (off - FROCE_CTL_GID_BASE) / FROCE_GID_CTX_SIZE;
            if (n >= T_NUM_GIDS) error("GID write beyond the table: %u", n);
            ctx_write("GID", gid, &gid_commits, n, FROCE_GID_CTX_SIZE, off - FROCE_CTL_GID_BASE, val);
        } else if (off >= FROCE_CTL_EQC_BASE && off < FROCE_CTL_SPAN) {
            const uint32_t n = (off - FROCE_CTL_EQC_BASE) / FROCE_EQC_SIZE;
            if (n == 0 || n >= T_NUM_EQS) error("EQC write to EQ %u", n);
            ctx_write("EQC", eqc, &eqc_commits, n, FROCE_EQC_SIZE, off - FROCE_CTL_EQC_BASE, val);
        } else {
            error("write to ctl offset %#x: nothing writable there", off);
        }
    }

    // handshakes of this cycle (DUT outputs after eval, before the edge)
    void sample(const Vfroce_fw *m, uint64_t now)
    {
        const bool valid = m->m_ctl_valid;
        if (held && (!valid || m->m_ctl_addr != held_addr || bool(m->m_ctl_write) != held_write ||
                     (held_write && m->m_ctl_wdata != held_data)))
            error("cycle %" PRIu64 ": m_ctl request dropped or changed before ready", now);
        if (valid && ready) {
            const uint32_t a = m->m_ctl_addr;
            log.push_back({now, bool(m->m_ctl_write), a, m->m_ctl_wdata});
            if (m->m_ctl_write) {
                write(a << 2, m->m_ctl_wdata);
            } else {
                if (!rq.empty()) error("cycle %" PRIu64 ": a second read while one is outstanding", now);
                const unsigned lat = lat_max <= lat_min ? lat_min
                                                        : std::uniform_int_distribution<unsigned>(lat_min, lat_max)(rng);
                rq.push_back({now + lat, read_value(a << 2)});
            }
            held = false;
        } else {
            held = valid;
            held_addr = m->m_ctl_addr;
            held_write = m->m_ctl_write;
            held_data = m->m_ctl_wdata;
        }
        if (rvalid) rq.pop_front();
    }
};

// ---------------------------------------------------------------- event engine

struct EqModel {
    unsigned ready_pct = 100;
    unsigned done_delay = 5;
    uint64_t drop_mask = 0;             // EQNs whose posts are dropped
    std::mt19937_64 rng{11};

    bool ready = false, done = false, dropped = false;
    struct Post {
        uint64_t cycle;
        unsigned eqn;
        uint32_t dw[3];
        bool dropped;
    };
    std::vector<Post> posts;
    std::deque<std::pair<uint64_t, bool>> dones;
    std::vector<std::string> errors;
    bool held = false;
    uint64_t held_dw[2] = {};
    unsigned held_eqn = 0;

    void drive(uint64_t now)
    {
        ready = ready_pct >= 100 || std::uniform_int_distribution<unsigned>(0, 99)(rng) < ready_pct;
        done = !dones.empty() && dones.front().first <= now;
        dropped = done && dones.front().second;
    }

    void sample(const Vfroce_fw *m, uint64_t now)
    {
        const bool valid = m->m_eqe_valid;
        if (held && (!valid || m->m_eqe_eqn != held_eqn || m->m_eqe_dw[0] != uint32_t(held_dw[0]) ||
                     m->m_eqe_dw[1] != uint32_t(held_dw[0] >> 32) || m->m_eqe_dw[2] != uint32_t(held_dw[1])))
            if (errors.size() < 20) errors.push_back("m_eqe request dropped or changed before ready");
        if (valid && ready) {
            if (!dones.empty() && errors.size() < 20) errors.push_back("a second EQE before the previous done");
            Post p{now, m->m_eqe_eqn, {m->m_eqe_dw[0], m->m_eqe_dw[1], m->m_eqe_dw[2]}, ((drop_mask >> m->m_eqe_eqn) & 1) != 0};
            posts.push_back(p);
            dones.push_back({now + done_delay, p.dropped});
            held = false;
        } else {
            held = valid;
            held_eqn = m->m_eqe_eqn;
            held_dw[0] = uint64_t(m->m_eqe_dw[1]) << 32 | m->m_eqe_dw[0];
            held_dw[1] = m->m_eqe_dw[2];
        }
        if (done) dones.pop_front();
    }
};

// ---------------------------------------------------------------- the bench

struct AsyncEv {
    uint8_t type, subtype;
    uint32_t id;
};

struct Tb {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vfroce_fw> m;
    AxiMem host;
    AxiMemPins pins;
    CtlModel ctl;
    EqModel eq;
    uint64_t now = 0;
    bool verbose = false;

    // mailbox
    bool db_pulse = false;
    uint32_t db_value = 0;
    uint64_t db_addr = 0;
    // engine events
    std::deque<AsyncEv> async_q;
    uint64_t async_pushed = 0;
    uint64_t async_stalls = 0;          // cycles valid was refused
    // link
    uint32_t link = FROCE_REG_LINK_STATUS_UP_MASK | 25u << FROCE_REG_LINK_STATUS_SPEED_GBPS_SHIFT;
    // observed
    std::string console, line;
    std::vector<std::string> lines;
    unsigned port_we = 0;
    uint32_t last_heartbeat = 0;
    unsigned heartbeat_changes = 0;
    std::vector<std::string> errors;
    bool saw_busy = false;
    uint32_t busy_token = 0;
    std::function<void(const std::string &)> on_line;

    explicit Tb(const AxiMemConfig &hc) : ctx(new VerilatedContext), host(hc)
    {
        m.reset(new Vfroce_fw(ctx.get()));
    }

    void error(const std::string &s)
    {
        if (errors.size() < 20) errors.push_back(s);
    }

    void step()
    {
        // 1. slave outputs for this cycle
        host.drive(pins);
        m->m_axi_arready = pins.arready;
        m->m_axi_rvalid = pins.rvalid;
        m->m_axi_rdata = ld64(pins.rdata.data());
        m->m_axi_rresp = pins.rresp;
        m->m_axi_rlast = pins.rlast;
        m->m_axi_rid = pins.rid & 1;
        m->m_axi_awready = pins.awready;
        m->m_axi_wready = pins.wready;
        m->m_axi_bvalid = pins.bvalid;
        m->m_axi_bresp = pins.bresp;
        m->m_axi_bid = pins.bid & 1;
        ctl.drive(now);
        m->m_ctl_ready = ctl.ready;
        m->m_ctl_rvalid = ctl.rvalid;
        m->m_ctl_rdata = ctl.rdata;
        eq.drive(now);
        m->m_eqe_ready = eq.ready;
        m->s_eqe_done = eq.done;
        m->s_eqe_dropped = eq.dropped;
        m->s_async_valid = !async_q.empty();
        if (!async_q.empty()) {
            m->s_async_type = async_q.front().type;
            m->s_async_subtype = async_q.front().subtype;
            m->s_async_id = async_q.front().id;
        }
        m->mbox_db_valid = db_pulse;
        m->mbox_db_value = db_value;
        m->mbox_addr = db_addr;
        db_pulse = false;
        m->link_status = link;

        m->clk = 0;
        m->eval();

        // 2. handshakes of this cycle
        pins.arvalid = m->m_axi_arvalid;
        pins.araddr = m->m_axi_araddr;
        pins.arlen = m->m_axi_arlen;
        pins.arsize = m->m_axi_arsize;
        pins.arburst = m->m_axi_arburst;
        pins.arid = m->m_axi_arid;
        pins.rready = m->m_axi_rready;
        pins.awvalid = m->m_axi_awvalid;
        pins.awaddr = m->m_axi_awaddr;
        pins.awlen = m->m_axi_awlen;
        pins.awsize = m->m_axi_awsize;
        pins.awburst = m->m_axi_awburst;
        pins.awid = m->m_axi_awid;
        pins.wvalid = m->m_axi_wvalid;
        st64(pins.wdata.data(), m->m_axi_wdata);
        pins.wstrb = m->m_axi_wstrb;
        pins.wlast = m->m_axi_wlast;
        pins.bready = m->m_axi_bready;
        host.clock(pins);
        ctl.sample(m.get(), now);
        eq.sample(m.get(), now);
        if (m->s_async_valid) {
            if (m->s_async_ready) {
                async_q.pop_front();
                async_pushed++;
            } else {
                async_stalls++;
            }
        }
        if (m->console_valid) {
            const char c = char(m->console_data);
            console += c;
            if (c == '\n') {
                if (verbose) std::printf("    fw| %s\n", line.c_str());
                lines.push_back(line);
                const std::string l = line;
                line.clear();
                if (on_line) on_line(l);
            } else {
                line += c;
            }
        }
        if (m->port_cfg_we) port_we++;
        if (m->heartbeat != last_heartbeat) {
            if (m->heartbeat != last_heartbeat + 1 && m->heartbeat != 0xBEEF) {
                char b[96];
                std::snprintf(b, sizeof b, "heartbeat went from %u to %u", last_heartbeat, unsigned(m->heartbeat));
                error(b);
            }
            last_heartbeat = m->heartbeat;
            heartbeat_changes++;
        }
        if ((m->cmd_status & FROCE_REG_CMD_STATUS_BUSY_MASK) &&
            (m->cmd_status & FROCE_REG_CMD_STATUS_TOKEN_MASK) == busy_token)
            saw_busy = true;

        // 3. the edge
        m->clk = 1;
        m->eval();
        now++;
    }

    void reset()
    {
        m->rst = 1;
        for (int i = 0; i < 8; i++) step();
        m->rst = 0;
    }

    // run until pred() or timeout; returns pred()
    bool run_until(const std::function<bool()> &pred, uint64_t timeout)
    {
        for (uint64_t i = 0; i < timeout; i++) {
            if (pred()) return true;
            step();
        }
        return pred();
    }

    void run(uint64_t cycles)
    {
        for (uint64_t i = 0; i < cycles; i++) step();
    }

    bool trapped() const { return console.find("trap mcause") != std::string::npos; }
};

// ---------------------------------------------------------------- the driver's side

struct CmdResult {
    bool completed = false;             // CMD_STATUS left BUSY with this token
    bool done = false;                  // DONE in the block
    uint8_t status = 0xFF;              // block STATUS
    uint32_t syndrome = 0;
    uint32_t cmd_status = 0;            // the CMD_STATUS output afterwards
    std::vector<uint8_t> out = std::vector<uint8_t>(FROCE_MBOX_OUT_MAX, 0);  // output area when DONE appeared
    uint64_t cycles_done = 0;           // doorbell to DONE in the block
    uint64_t cycles_status = 0;         // doorbell to CMD_STATUS not BUSY
    size_t eqes_before = 0;
};

struct Driver {
    Tb &tb;
    uint16_t token = 0x100;
    uint64_t host_next = 0x200000000ull;

    explicit Driver(Tb &t) : tb(t) {}

    uint64_t alloc(uint64_t bytes)
    {
        const uint64_t a = host_next;
        host_next += ((bytes + 4095) & ~4095ull) + 4096;   // a gap after every range
        return a;
    }

    void write(uint64_t a, const void *p, size_t n) { tb.host.write(a, static_cast<const uint8_t *>(p), n); }
    void read(uint64_t a, void *p, size_t n) const { tb.host.read(a, static_cast<uint8_t *>(p), n); }
    void write64(uint64_t a, uint64_t v)
    {
        uint8_t b[8];
        st64(b, v);
        write(a, b, 8);
    }

    static void sizes(uint16_t op, uint32_t *in, uint32_t *out)
    {
#define SZ(name, o, i, u) \
    if (op == o) { \
        *in = i; \
        *out = u; \
        return; \
    }
        FROCE_CMD_LIST(SZ)
#undef SZ
        *in = 0;
        *out = 0;
    }

    // One command through the block at `block`: header and input written,
    // the rest of the block set to a known pattern, CMD_DOORBELL rung; waits
    // for CMD_STATUS to leave BUSY (and for DONE when the block is writable).
    CmdResult run(uint16_t op, const uint8_t *in, bool event = false, uint64_t block = BLOCK, int token_delta = 0,
                  bool expect_done = true, uint64_t timeout = 3000000)
    {
        uint32_t in_size, out_size;
        sizes(op, &in_size, &out_size);
        std::vector<uint8_t> blk(FROCE_MBOX_SIZE, 0);
        std::memset(&blk[FROCE_MBOX_OUT_OFF], 0xCD, FROCE_MBOX_OUT_MAX);
        SET(blk.data(), FROCE_MBOX_HDR_OPCODE, op);
        SET(blk.data(), FROCE_MBOX_HDR_TOKEN, uint16_t(token + token_delta));
        SET(blk.data(), FROCE_MBOX_HDR_IN_LEN, in_size);
        SET(blk.data(), FROCE_MBOX_HDR_OUT_LEN, out_size);
        SET(blk.data(), FROCE_MBOX_HDR_SYNDROME, 0xFFFFFFFFu);
        SET(blk.data(), FROCE_MBOX_HDR_STATUS, 0xEE);
        if (in) std::memcpy(&blk[FROCE_MBOX_IN_OFF], in, in_size);
        // the block is written where it is mapped; a block address not 4 KiB
        // aligned is still written (the firmware must not read it)
        write(block, blk.data(), blk.size());

        CmdResult r;
        r.eqes_before = tb.eq.posts.size();
        tb.saw_busy = false;
        tb.busy_token = token;
        tb.db_pulse = true;
        tb.db_value = token | (event ? FROCE_REG_CMD_DOORBELL_EVENT_MASK : 0u);
        tb.db_addr = block;
        const uint64_t t0 = tb.now;
        const uint32_t want = token;
        auto done_now = [&]() {
            uint8_t w[4];
            tb.host.read(block + 4 * FROCE_MBOX_HDR_DONE_DW, w, 4);
            return (ld32(w) & FROCE_MBOX_HDR_DONE_MASK) != 0;
        };
        auto status_now = [&]() {
            const uint32_t s = tb.m->cmd_status;
            return tb.now > t0 + 1 && !(s & FROCE_REG_CMD_STATUS_BUSY_MASK) &&
                   (s & FROCE_REG_CMD_STATUS_TOKEN_MASK) == want;
        };
        for (uint64_t i = 0; i < timeout && !(r.completed && (r.done || !expect_done)); i++) {
            if (!r.done && done_now()) {
                r.done = true;
                r.cycles_done = tb.now - t0;
                std::vector<uint8_t> b(FROCE_MBOX_SIZE);
                read(block, b.data(), b.size());
                r.status = uint8_t(GET(b.data(), FROCE_MBOX_HDR_STATUS));
                r.syndrome = GET(b.data(), FROCE_MBOX_HDR_SYNDROME);
                r.out.assign(b.begin() + FROCE_MBOX_OUT_OFF, b.end());
            }
            if (!r.completed && status_now()) {
                r.completed = true;
                r.cycles_status = tb.now - t0;
            }
            tb.step();
        }
        r.cmd_status = tb.m->cmd_status;
        if (event) {
            // the CMD_DONE EQE is posted after CMD_STATUS
            tb.run_until([&]() { return tb.eq.posts.size() > r.eqes_before; }, 20000);
        } else {
            tb.run(200);        // nothing else may follow
        }
        token++;
        return r;
    }

    // a command expected to succeed; checks the completion protocol
    CmdResult ok(uint16_t op, const uint8_t *in, int line)
    {
        CmdResult r = run(op, in);
        check_completion(r, op, FROCE_CMD_STATUS_OK, 0, line);
        return r;
    }

    void check_completion(const CmdResult &r, uint16_t op, uint8_t status, uint32_t syndrome, int line)
    {
        const uint16_t tok = uint16_t(token - 1);
        uint32_t in_size, out_size;
        sizes(op, &in_size, &out_size);
        CHECK(r.completed, "line %d: opcode %#x: CMD_STATUS never left BUSY with token %#x (it is %#x)", line, op,
              tok, r.cmd_status);
        CHECK(r.done, "line %d: opcode %#x: DONE never set in the block", line, op);
        CHECK(r.status == status && r.syndrome == syndrome,
              "line %d: opcode %#x: status %#x syndrome %#x, expected %#x / %#x", line, op, r.status, r.syndrome,
              status, syndrome);
        CHECK_EQ(r.cmd_status, uint32_t(tok) | uint32_t(status) << FROCE_REG_CMD_STATUS_STATUS_SHIFT);
        CHECK(tb.saw_busy, "line %d: opcode %#x: CMD_STATUS never showed BUSY with the token", line, op);
        // exactly the output bytes are written (on success), nothing else
        for (uint32_t i = 0; i < r.out.size(); i++) {
            if (r.out[i] != 0xCD && (status != FROCE_CMD_STATUS_OK || i >= out_size)) {
                CHECK(false, "line %d: opcode %#x: output byte %u written", line, op, i);
                break;
            }
        }
    }
};

// ---------------------------------------------------------------- cases

struct Ctx {
    Tb &tb;
    Driver &drv;
    // state that later cases use
    uint32_t pdn = 0, cqn = 0, cqn2 = 0, qpn = 0;
    uint64_t boot_cycles = 0, nop_done = 0, nop_status = 0, cq_cycles = 0, cq_big_cycles = 0;
};

const uint32_t UAR = 1;

void case_boot(Ctx &c)
{
    Tb &tb = c.tb;
    const uint64_t t0 = tb.now;
    const bool ready = tb.run_until([&]() { return tb.m->dev_ready || tb.trapped(); }, 5000000);
    c.boot_cycles = tb.now - t0;
    CHECK(ready && tb.m->dev_ready, "DEV_READY not set within 5M cycles (console: %s)", tb.console.c_str());
    if (!tb.m->dev_ready) return;
    const uint32_t v = tb.m->fw_version;
    CHECK(v != 0, "FW_VERSION is 0");
    CHECK_EQ(v, 0u << FROCE_REG_FW_VERSION_MAJOR_SHIFT | 1u << FROCE_REG_FW_VERSION_MINOR_SHIFT);
    tb.run(100);
    CHECK(tb.console.rfind("froce fw 0x00010000\n", 0) == 0, "boot banner: console is \"%s\"", tb.console.c_str());
    CHECK(tb.lines.size() == 1, "console: %zu lines at boot (\"%s\")", tb.lines.size(), tb.console.c_str());
    CHECK_EQ(tb.m->cmd_status, 0);
    CHECK_EQ(tb.ctl.init_reads, 0);     // MRT_REGS.INIT was polled until clear
    // every context the firmware owns was cleared, dword 0 last
    CHECK_EQ(tb.ctl.qpc.size(), T_NUM_QPS);
    for (const auto &kv : tb.ctl.qpc) {
        bool zero = true;
        for (uint32_t d : kv.second) zero = zero && d == 0;
        CHECK(zero, "QPC %u not cleared", kv.first);
        CHECK(tb.ctl.qpc_load[kv.first] == FROCE_QPC_LOAD_RESET_MASK, "QPC %u: load bits %#x", kv.first,
              tb.ctl.qpc_load[kv.first]);
    }
    CHECK_EQ(tb.ctl.cqc.size(), T_NUM_CQS);
    CHECK_EQ(tb.ctl.eqc.size(), T_NUM_EQS - 1);
    CHECK_EQ(tb.ctl.gid.size(), T_NUM_GIDS);
    // hal_port_set at init: the permanent MAC and MTU 1500, committed once
    CHECK_EQ(tb.port_we, 1);
    CHECK_EQ(tb.m->port_mac, T_MAC);
    CHECK_EQ(tb.m->port_mtu, 1500);
    CHECK_EQ(tb.m->port_promisc, 0);
    CHECK_EQ(tb.m->port_allmulti, 0);
    CHECK(!tb.ctl.log.empty() && tb.ctl.log.front().cycle >= tb.ctl.ready_from, "control access before ready");
}

void case_nop(Ctx &c)
{
    CmdResult r = c.drv.ok(FROCE_CMD_NOP, nullptr, __LINE__);
    c.nop_done = r.cycles_done;
    c.nop_status = r.cycles_status;
    CHECK(c.tb.eq.posts.size() == r.eqes_before, "NOP without EVENT posted an EQE");
    // a second one, back to back
    r = c.drv.ok(FROCE_CMD_NOP, nullptr, __LINE__);
}

void case_query_fw(Ctx &c)
{
    CmdResult r = c.drv.ok(FROCE_CMD_QUERY_FW, nullptr, __LINE__);
    const uint8_t *o = r.out.data();
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_FW_OUT_VER_MAJOR), 0);
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_FW_OUT_VER_MINOR), 1);
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_FW_OUT_VER_PATCH), 0);
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_FW_OUT_SPEC_HASH), FROCE_HW_SPEC_HASH);
}

void case_query_caps(Ctx &c)
{
    CmdResult r = c.drv.ok(FROCE_CMD_QUERY_CAPS, nullptr, __LINE__);
    const uint8_t *o = r.out.data();
    // the platform registers (NUM_QPS, NUM_CQS, IRQ_INFO, NUM_GIDS,
    // UAR_INFO, RD_ATOMIC_MAX) and MRT_REGS as the firmware reports them
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP), T_NUM_QPS - 1);
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_CQ), T_NUM_CQS);
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_PD), 255);
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_MR), c.tb.ctl.num_mrs - 1);
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_MTT), c.tb.ctl.num_mtt);
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_EQ), T_NUM_EQS);
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_CAPS_OUT_NUM_GID), T_NUM_GIDS);
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP_RD_ATOM), T_RD_ATOMIC_MAX);
    CHECK_EQ(GET(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_UAR), T_NUM_UARS);
}

void case_port(Ctx &c)
{
    uint8_t in[FROCE_CMD_SET_PORT_IN_SIZE] = {};
    SET(in, FROCE_CMD_QUERY_PORT_IN_PORT, 1);
    CmdResult r = c.drv.ok(FROCE_CMD_QUERY_PORT, in, __LINE__);
    CHECK_EQ(GET(r.out.data(), FROCE_CMD_QUERY_PORT_OUT_STATE), FROCE_PORT_STATE_ACTIVE);
    CHECK_EQ(GET(r.out.data(), FROCE_CMD_QUERY_PORT_OUT_SPEED_GBPS), 25);   // LINK_STATUS input
    CHECK_EQ(GET(r.out.data(), FROCE_CMD_QUERY_PORT_OUT_MTU), 1500);
    CHECK_EQ(GETQ(r.out.data(), FROCE_CMD_QUERY_PORT_OUT_MAC), T_MAC);     // PERM_MAC_LO/HI

    const unsigned we0 = c.tb.port_we;
    std::memset(in, 0, sizeof in);
    SET(in, FROCE_CMD_SET_PORT_IN_PORT, 1);
    SET(in, FROCE_CMD_SET_PORT_IN_PROMISC, 1);
    SET(in, FROCE_CMD_SET_PORT_IN_MTU, 4200);
    SETQ(in, FROCE_CMD_SET_PORT_IN_MAC, 0x0266778899AAull);
    c.drv.ok(FROCE_CMD_SET_PORT, in, __LINE__);
    CHECK_EQ(c.tb.port_we, we0 + 1);
    CHECK_EQ(c.tb.m->port_mac, 0x0266778899AAull);
    CHECK_EQ(c.tb.m->port_mtu, 4200);
    CHECK_EQ(c.tb.m->port_promisc, 1);
    CHECK_EQ(c.tb.m->port_allmulti, 0);
}

uint32_t create_cq(Ctx &c, unsigned log_size, std::vector<uint64_t> &pages, uint64_t *cycles)
{
    const uint32_t n = (uint32_t(FROCE_CQE_SIZE) << log_size) / 4096;
    pages.clear();
    for (uint32_t i = 0; i < n; i++) pages.push_back(c.drv.alloc(4096));   // not contiguous
    const uint64_t list = c.drv.alloc(4096);
    for (uint32_t i = 0; i < n; i++) c.drv.write64(list + 8 * i, pages[i]);
    uint8_t in[FROCE_CMD_CREATE_CQ_IN_SIZE] = {};
    SETQ(in, FROCE_CMD_CREATE_CQ_IN_BUF_ADDR, list);
    SET(in, FROCE_CMD_CREATE_CQ_IN_BUF_NUM_PAGES, n);
    SET(in, FROCE_CMD_CREATE_CQ_IN_BUF_PAGE_SHIFT, 12);
    SET(in, FROCE_CMD_CREATE_CQ_IN_BUF_LEVEL, FROCE_BUF_LEVEL_LIST);
    SET(in, FROCE_CMD_CREATE_CQ_IN_LOG_SIZE, log_size);
    SET(in, FROCE_CMD_CREATE_CQ_IN_EQN, 0);
    SET(in, FROCE_CMD_CREATE_CQ_IN_UAR, UAR);
    const unsigned cqc0 = c.tb.ctl.cqc_commits, mr0 = c.tb.ctl.mr_commits, mtt0 = c.tb.ctl.mtt_writes;
    CmdResult r = c.drv.ok(FROCE_CMD_CREATE_CQ, in, __LINE__);
    *cycles = r.cycles_done;
    const uint32_t cqn = GET(r.out.data(), FROCE_CMD_CREATE_CQ_OUT_CQN);
    CHECK(cqn < T_NUM_CQS, "CQN %u", cqn);
    CHECK_EQ(c.tb.ctl.cqc_commits, cqc0 + 1);
    CHECK_EQ(c.tb.ctl.mr_commits, mr0 + 1);
    CHECK_EQ(c.tb.ctl.mtt_writes, mtt0 + n);
    const std::vector<uint8_t> cq = ctx_bytes(c.tb.ctl.cqc, cqn);
    CHECK_EQ(GET(cq.data(), FROCE_CQC_VALID), 1);
    CHECK_EQ(GET(cq.data(), FROCE_CQC_LOG_SIZE), log_size);
    CHECK_EQ(GET(cq.data(), FROCE_CQC_EQN), 0);
    CHECK_EQ(GET(cq.data(), FROCE_CQC_UAR), UAR);
    CHECK_EQ(GET(cq.data(), FROCE_CQC_PDN), 0);
    CHECK_EQ(GETQ(cq.data(), FROCE_CQC_VA), 0);
    const uint32_t key = GET(cq.data(), FROCE_CQC_RING_KEY);
    const uint32_t mri = key >> FROCE_KEY_TAG_W;
    CHECK(c.tb.ctl.mr.count(mri), "ring key %#x names MR %u, never written", key, mri);
    const std::vector<uint8_t> mr = ctx_bytes(c.tb.ctl.mr, mri);
    CHECK_EQ(GET(mr.data(), FROCE_MR_CTX_VALID), 1);
    CHECK_EQ(GET(mr.data(), FROCE_MR_CTX_TAG), key & 0xFF);
    CHECK_EQ(GET(mr.data(), FROCE_MR_CTX_PDN), 0);
    CHECK_EQ(GET(mr.data(), FROCE_MR_CTX_PAGE_SHIFT), 12);
    CHECK_EQ(GETQ(mr.data(), FROCE_MR_CTX_IOVA), 0);
    CHECK_EQ(GETQ(mr.data(), FROCE_MR_CTX_LENGTH), uint64_t(FROCE_CQE_SIZE) << log_size);
    const uint32_t base = GET(mr.data(), FROCE_MR_CTX_MTT_BASE);
    unsigned bad = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!c.tb.ctl.mtt.count(base + i) || c.tb.ctl.mtt[base + i] != pages[i]) bad++;
    CHECK(bad == 0, "%u of %u MTT entries from MTT_BASE %u do not hold the ring pages", bad, n, base);
    return cqn;
}

void case_pd_cq(Ctx &c)
{
    uint8_t in[8] = {};
    SET(in, FROCE_CMD_ALLOC_PD_IN_UAR, UAR);
    CmdResult r = c.drv.ok(FROCE_CMD_ALLOC_PD, in, __LINE__);
    c.pdn = GET(r.out.data(), FROCE_CMD_ALLOC_PD_OUT_PDN);
    CHECK(c.pdn != 0, "PDN 0 (the rings' PD) handed out");

    std::vector<uint64_t> pages;
    c.cqn = create_cq(c, 9, pages, &c.cq_cycles);       // 16 KiB: a list of 4 pages
    // a full 4 KiB page list (512 pages, read in 16 DMA reads of 256 bytes)
    const uint64_t r0 = c.tb.host.stats().ar_bursts;
    c.cqn2 = create_cq(c, 16, pages, &c.cq_big_cycles);
    CHECK(c.cqn2 != c.cqn, "the same CQN twice");
    CHECK(c.tb.host.stats().ar_bursts - r0 >= 16, "page list read in %llu bursts",
          (unsigned long long)(c.tb.host.stats().ar_bursts - r0));
}

void case_event(Ctx &c)
{
    CmdResult r = c.drv.run(FROCE_CMD_NOP, nullptr, true);
    c.drv.check_completion(r, FROCE_CMD_NOP, FROCE_CMD_STATUS_OK, 0, __LINE__);
    const uint16_t tok = uint16_t(c.drv.token - 1);
    CHECK(c.tb.eq.posts.size() == r.eqes_before + 1, "%zu EQEs for one command with EVENT",
          c.tb.eq.posts.size() - r.eqes_before);
    if (c.tb.eq.posts.size() == r.eqes_before + 1) {
        const EqModel::Post &p = c.tb.eq.posts.back();
        CHECK_EQ(p.eqn, 0);
        CHECK_EQ(p.dw[0], FROCE_EQE_TYPE_CMD_DONE);
        CHECK_EQ(p.dw[1], 0);
        CHECK_EQ(p.dw[2], uint32_t(tok) | uint32_t(FROCE_CMD_STATUS_OK) << FROCE_EQE_STATUS_SHIFT);
    }
    // an EQ that drops: the command still completes, the next one too
    c.tb.eq.drop_mask = 1;
    r = c.drv.run(FROCE_CMD_QUERY_FW, nullptr, true);
    c.drv.check_completion(r, FROCE_CMD_QUERY_FW, FROCE_CMD_STATUS_OK, 0, __LINE__);
    CHECK(c.tb.eq.posts.size() == r.eqes_before + 1 && c.tb.eq.posts.back().dropped, "dropped EQE not offered once");
    c.tb.eq.drop_mask = 0;
    c.drv.ok(FROCE_CMD_NOP, nullptr, __LINE__);
}

void case_dma_error(Ctx &c)
{
    // the block itself unreadable: CMD_STATUS says INTERNAL_ERR, block untouched
    const uint64_t blk = c.drv.alloc(4096);
    c.tb.host.add_error_range(blk, blk + 64, froce_sim::AXI_SLVERR);
    CmdResult r = c.drv.run(FROCE_CMD_NOP, nullptr, false, blk, 0, false);
    const uint16_t tok = uint16_t(c.drv.token - 1);
    CHECK(r.completed, "unreadable block: CMD_STATUS never final (%#x)", r.cmd_status);
    CHECK_EQ(r.cmd_status, uint32_t(tok) | uint32_t(FROCE_CMD_STATUS_INTERNAL_ERR) << FROCE_REG_CMD_STATUS_STATUS_SHIFT);
    CHECK(!r.done, "DONE written into an unreadable block");
    c.tb.host.clear_error_ranges();
    uint8_t w[4];
    c.tb.host.read(blk + 12, w, 4);
    CHECK_EQ(ld32(w), 0xEE);            // STATUS/DONE dword as the driver left it

    // output area unwritable: the header says INTERNAL_ERR (written after the failed output)
    const uint64_t blk2 = c.drv.alloc(4096);
    c.tb.host.add_error_range(blk2 + FROCE_MBOX_OUT_OFF, blk2 + FROCE_MBOX_SIZE, froce_sim::AXI_DECERR);
    r = c.drv.run(FROCE_CMD_QUERY_FW, nullptr, false, blk2);
    c.tb.host.clear_error_ranges();
    CHECK(r.completed && r.done, "unwritable output: completed %d done %d", r.completed, r.done);
    CHECK_EQ(r.status, FROCE_CMD_STATUS_INTERNAL_ERR);
    // and the mailbox works afterwards
    c.drv.ok(FROCE_CMD_NOP, nullptr, __LINE__);
}

void case_bad_header(Ctx &c)
{
    CmdResult r = c.drv.run(0x7777, nullptr);
    c.drv.check_completion(r, 0x7777, FROCE_CMD_STATUS_BAD_OPCODE,
                           0x80000000u | (4 * FROCE_MBOX_HDR_OPCODE_DW + FROCE_MBOX_HDR_OPCODE_SHIFT / 8), __LINE__);
    r = c.drv.run(FROCE_CMD_NOP, nullptr, false, BLOCK, 1);
    c.drv.check_completion(r, FROCE_CMD_NOP, FROCE_CMD_STATUS_BAD_PARAM,
                           0x80000000u | (4 * FROCE_MBOX_HDR_TOKEN_DW + FROCE_MBOX_HDR_TOKEN_SHIFT / 8), __LINE__);
    // a block address not 4 KiB aligned: no bus traffic at all
    const auto s0 = c.tb.host.stats();
    r = c.drv.run(FROCE_CMD_NOP, nullptr, false, BLOCK + 0x40, 0, false);
    const uint16_t tok = uint16_t(c.drv.token - 1);
    CHECK_EQ(r.cmd_status, uint32_t(tok) | uint32_t(FROCE_CMD_STATUS_BAD_PARAM) << FROCE_REG_CMD_STATUS_STATUS_SHIFT);
    CHECK(c.tb.host.stats().ar_bursts == s0.ar_bursts && c.tb.host.stats().aw_bursts == s0.aw_bursts,
          "a misaligned block address caused DMA");
}

void case_heartbeat(Ctx &c)
{
    Tb &tb = c.tb;
    const uint32_t h0 = tb.m->heartbeat;
    const unsigned ch0 = tb.heartbeat_changes;
    const uint64_t ms = T_CLK_HZ / 1000, n = 40;
    tb.run(n * ms);
    const uint32_t d = tb.m->heartbeat - h0;
    CHECK(h0 > 0, "heartbeat 0 after boot");
    CHECK(d >= n - 2 && d <= n + 1, "heartbeat moved %u in %llu ms", d, (unsigned long long)n);
    CHECK_EQ(tb.heartbeat_changes - ch0, d);
}

void case_async(Ctx &c)
{
    Tb &tb = c.tb;
    // a QP of the same user context
    uint8_t in[FROCE_CMD_CREATE_QP_IN_SIZE] = {};
    SET(in, FROCE_CMD_CREATE_QP_IN_TYPE, FROCE_QP_TYPE_RC);
    SET(in, FROCE_CMD_CREATE_QP_IN_PDN, c.pdn);
    SET(in, FROCE_CMD_CREATE_QP_IN_SEND_CQN, c.cqn);
    SET(in, FROCE_CMD_CREATE_QP_IN_RECV_CQN, c.cqn);
    SET(in, FROCE_CMD_CREATE_QP_IN_UAR, UAR);
    SET(in, FROCE_CMD_CREATE_QP_IN_LOG_SQ_SIZE, 6);
    SET(in, FROCE_CMD_CREATE_QP_IN_SQ_WQE_SHIFT, 6);
    SET(in, FROCE_CMD_CREATE_QP_IN_LOG_RQ_SIZE, 6);
    SET(in, FROCE_CMD_CREATE_QP_IN_RQ_WQE_SHIFT, 6);
    SETQ(in, FROCE_CMD_CREATE_QP_IN_SQ_BUF_ADDR, c.drv.alloc(4096));
    SET(in, FROCE_CMD_CREATE_QP_IN_SQ_BUF_NUM_PAGES, 1);
    SET(in, FROCE_CMD_CREATE_QP_IN_SQ_BUF_PAGE_SHIFT, 12);
    SETQ(in, FROCE_CMD_CREATE_QP_IN_RQ_BUF_ADDR, c.drv.alloc(4096));
    SET(in, FROCE_CMD_CREATE_QP_IN_RQ_BUF_NUM_PAGES, 1);
    SET(in, FROCE_CMD_CREATE_QP_IN_RQ_BUF_PAGE_SHIFT, 12);
    CmdResult r = c.drv.ok(FROCE_CMD_CREATE_QP, in, __LINE__);
    c.qpn = GET(r.out.data(), FROCE_CMD_CREATE_QP_OUT_QPN);
    CHECK(c.qpn >= 2 && c.qpn < T_NUM_QPS, "QPN %u", c.qpn);

    auto expect_eqe = [&](uint8_t type, uint8_t sub, uint32_t id, size_t before, int line) {
        tb.run_until([&]() { return tb.eq.posts.size() > before; }, 50000);
        tb.run(2000);
        CHECK(tb.eq.posts.size() == before + 1, "line %d: %zu EQEs for one event", line, tb.eq.posts.size() - before);
        if (tb.eq.posts.size() != before + 1) return;
        const EqModel::Post &p = tb.eq.posts.back();
        CHECK(p.eqn == 0 && p.dw[0] == (uint32_t(type) | uint32_t(sub) << FROCE_EQE_SUBTYPE_SHIFT) && p.dw[1] == id &&
                  p.dw[2] == 0,
              "line %d: EQE eqn %u dw %#x %#x %#x, expected type %u sub %u id %u", line, p.eqn, p.dw[0], p.dw[1],
              p.dw[2], type, sub, id);
    };
    auto expect_none = [&](size_t before, int line) {
        tb.run(20000);
        CHECK(tb.eq.posts.size() == before, "line %d: an EQE for an event that names nothing live", line);
    };

    // COMM_EST on the live QP: forwarded
    size_t b = tb.eq.posts.size();
    tb.async_q.push_back({FROCE_EQE_TYPE_QP_EVENT, FROCE_QP_EV_COMM_EST, c.qpn});
    expect_eqe(FROCE_EQE_TYPE_QP_EVENT, FROCE_QP_EV_COMM_EST, c.qpn, b, __LINE__);
    // FATAL while in RESET: a stale event, dropped; on a QP nobody created: dropped
    b = tb.eq.posts.size();
    tb.async_q.push_back({FROCE_EQE_TYPE_QP_EVENT, FROCE_QP_EV_FATAL, c.qpn});
    tb.async_q.push_back({FROCE_EQE_TYPE_QP_EVENT, FROCE_QP_EV_COMM_EST, T_NUM_QPS - 1});
    expect_none(b, __LINE__);
    // to INIT, then FATAL: the QPC goes to ERR and the event is forwarded
    uint8_t mq[FROCE_CMD_MODIFY_QP_IN_SIZE] = {};
    SET(mq, FROCE_CMD_MODIFY_QP_IN_QPN, c.qpn);
    SET(mq, FROCE_CMD_MODIFY_QP_IN_ATTR_MASK,
        FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_ACCESS_FLAGS | FROCE_QP_ATTR_PKEY_INDEX | FROCE_QP_ATTR_PORT);
    SET(mq, FROCE_CMD_MODIFY_QP_IN_STATE, FROCE_QP_STATE_INIT);
    SET(mq, FROCE_CMD_MODIFY_QP_IN_ACCESS_FLAGS, FROCE_ACCESS_LOCAL_WRITE);
    SET(mq, FROCE_CMD_MODIFY_QP_IN_PORT, 1);
    c.drv.ok(FROCE_CMD_MODIFY_QP, mq, __LINE__);
    CHECK_EQ(GET(ctx_bytes(tb.ctl.qpc, c.qpn).data(), FROCE_QPC_STATE), FROCE_QP_STATE_INIT);
    b = tb.eq.posts.size();
    const unsigned q0 = tb.ctl.qpc_commits;
    tb.async_q.push_back({FROCE_EQE_TYPE_QP_EVENT, FROCE_QP_EV_FATAL, c.qpn});
    expect_eqe(FROCE_EQE_TYPE_QP_EVENT, FROCE_QP_EV_FATAL, c.qpn, b, __LINE__);
    CHECK_EQ(tb.ctl.qpc_commits, q0 + 1);
    CHECK_EQ(GET(ctx_bytes(tb.ctl.qpc, c.qpn).data(), FROCE_QPC_STATE), FROCE_QP_STATE_ERR);
    // a CQ error on a live CQ
    b = tb.eq.posts.size();
    tb.async_q.push_back({FROCE_EQE_TYPE_CQ_ERROR, FROCE_CQ_EV_OVERRUN, c.cqn2});
    expect_eqe(FROCE_EQE_TYPE_CQ_ERROR, FROCE_CQ_EV_OVERRUN, c.cqn2, b, __LINE__);
    // more events than the FIFO holds, pushed back to back: all delivered in order
    b = tb.eq.posts.size();
    const uint64_t stalls0 = tb.async_stalls;
    for (int i = 0; i < 40; i++)
        tb.async_q.push_back({FROCE_EQE_TYPE_QP_EVENT, FROCE_QP_EV_LAST_WQE_REACHED, c.qpn});
    tb.run_until([&]() { return tb.eq.posts.size() >= b + 40; }, 2000000);
    tb.run(2000);
    CHECK(tb.eq.posts.size() == b + 40, "%zu EQEs for 40 events", tb.eq.posts.size() - b);
    CHECK(tb.async_stalls > stalls0, "the event FIFO never pushed back (s_async_ready always high)");
    bool all = true;
    for (size_t i = b; i < tb.eq.posts.size(); i++)
        all = all && tb.eq.posts[i].dw[0] ==
                         (FROCE_EQE_TYPE_QP_EVENT | uint32_t(FROCE_QP_EV_LAST_WQE_REACHED) << FROCE_EQE_SUBTYPE_SHIFT);
    CHECK(all, "a burst EQE differs");
}

void case_link(Ctx &c)
{
    Tb &tb = c.tb;
    size_t b = tb.eq.posts.size();
    tb.link = 0;
    tb.run_until([&]() { return tb.eq.posts.size() > b; }, 50000);
    CHECK(tb.eq.posts.size() == b + 1 &&
              tb.eq.posts.back().dw[0] ==
                  (FROCE_EQE_TYPE_PORT_CHANGE | uint32_t(FROCE_PORT_EV_DOWN) << FROCE_EQE_SUBTYPE_SHIFT),
          "no PORT_CHANGE DOWN EQE after LINK_STATUS went down");
    b = tb.eq.posts.size();
    tb.link = FROCE_REG_LINK_STATUS_UP_MASK | 10u << FROCE_REG_LINK_STATUS_SPEED_GBPS_SHIFT;
    tb.run_until([&]() { return tb.eq.posts.size() > b; }, 50000);
    CHECK(tb.eq.posts.size() == b + 1 &&
              tb.eq.posts.back().dw[0] ==
                  (FROCE_EQE_TYPE_PORT_CHANGE | uint32_t(FROCE_PORT_EV_ACTIVE) << FROCE_EQE_SUBTYPE_SHIFT),
          "no PORT_CHANGE ACTIVE EQE after LINK_STATUS came up");
}

void case_counters(Ctx &c)
{
    for (unsigned i = 0; i < FROCE_CNT_NUM; i++)
        c.tb.ctl.counters[i] = (uint64_t(i + 1) << 32) | (0x1000u * i + 7);
    uint8_t in[8] = {};
    CmdResult r = c.drv.ok(FROCE_CMD_QUERY_COUNTERS, in, __LINE__);
    unsigned bad = 0;
    for (unsigned i = 0; i < FROCE_CNT_NUM; i++)
        if (ld64(&r.out[8 * i]) != c.tb.ctl.counters[i]) bad++;
    CHECK(bad == 0, "%u of %u counters wrong in QUERY_COUNTERS", bad, unsigned(FROCE_CNT_NUM));
}

// ---------------------------------------------------------------- bus test

bool load_hex(Tb &tb, const std::string &path)
{
    std::ifstream f(path);
    if (!f) return false;
    // after the initial blocks ran ($readmemh of INIT_FILE), or they would overwrite it
    tb.m->clk = 0;
    tb.m->rst = 1;
    tb.m->eval();
    auto &mem = tb.m->rootp->froce_fw__DOT__u_ram__DOT__mem;
    for (uint32_t i = 0; i < RAM_WORDS; i++) mem[i] = 0;
    std::string s;
    uint32_t i = 0;
    while (f >> s && i < RAM_WORDS) mem[i++] = uint32_t(std::stoul(s, nullptr, 16));
    return i > 0;
}

void case_bus(Tb &tb)
{
    const uint64_t H = 0x100000000ull;
    // host words for the DMA reads; an error range for the failing read
    for (uint32_t i = 0; i < 1023; i++) {
        uint8_t b[4];
        st32(b, 0xA5000000u + i);
        tb.host.write(H + 0x804 + 4 * i, b, 4);
    }
    tb.host.add_error_range(H + 0x5020, H + 0x5028, froce_sim::AXI_SLVERR);
    tb.async_q.push_back({2, 5, 0x123456});
    tb.async_q.push_back({3, 1, 7});
    tb.async_q.push_back({2, 1, 0xABCDEF});
    tb.ctl.echo_mode = true;
    tb.eq.drop_mask = 1u << 3;
    tb.eq.done_delay = 40;
    tb.on_line = [&](const std::string &l) {
        if (l == "DOORBELL") {
            tb.db_pulse = true;
            tb.db_value = 0x80001234u;
            tb.db_addr = 0xABCD000000001000ull;
        }
    };
    const bool end = tb.run_until(
        [&]() {
            return tb.console.find("BUS PASS\n") != std::string::npos ||
                   (tb.console.find("BUS FAIL") != std::string::npos && tb.console.back() == '\n');
        },
        3000000);
    tb.run(100);
    CHECK(end, "the bus test never finished; console:\n%s", tb.console.c_str());
    CHECK(tb.console.find("BUS PASS\n") != std::string::npos, "bus test program: %s", tb.console.c_str());
    // the console saw only whole-word writes (the byte store to CONSOLE faulted)
    CHECK(tb.console.find('X') == std::string::npos, "a faulting sb reached the console");
    // platform registers as printed by the program
    for (const std::string &l : tb.lines) {
        if (l.rfind("platform", 0) != 0) continue;
        std::istringstream is(l.substr(8));
        std::vector<uint32_t> v;
        std::string w;
        while (is >> w) v.push_back(uint32_t(std::stoul(w, nullptr, 16)));
        const std::vector<uint32_t> want = {
            T_NUM_QPS, T_NUM_CQS,
            uint32_t(T_NUM_VECTORS) << FROCE_REG_IRQ_INFO_NUM_VECTORS_SHIFT | uint32_t(T_NUM_EQS) << FROCE_REG_IRQ_INFO_NUM_EQ_SHIFT,
            T_NUM_GIDS,
            uint32_t(T_NUM_UARS) << FROCE_REG_UAR_INFO_NUM_PAGES_SHIFT | uint32_t(FROCE_UAR_PAGE_SHIFT) << FROCE_REG_UAR_INFO_PAGE_SHIFT_SHIFT,
            0, T_RD_ATOMIC_MAX, uint32_t(T_MAC), uint32_t(T_MAC >> 32)};
        CHECK(v == want, "platform registers: %s", l.c_str());
    }
    // the control-bus accesses, exactly
    const auto &lg = tb.ctl.log;
    CHECK(lg.size() == 4, "%zu control-bus accesses, expected 4", lg.size());
    if (lg.size() == 4) {
        CHECK(!lg[0].write && lg[0].addr == 0, "access 0: %d %#x", lg[0].write, lg[0].addr);
        CHECK(!lg[1].write && lg[1].addr == 0x7FFFFF, "access 1: %d %#x", lg[1].write, lg[1].addr);
        CHECK(lg[2].write && lg[2].addr == 0x7FFFFF && lg[2].data == 0x12345678, "access 2: %d %#x %#x", lg[2].write,
              lg[2].addr, lg[2].data);
        CHECK(lg[3].write && lg[3].addr == 0x100 && lg[3].data == 0x9ABCDEF0, "access 3: %d %#x %#x", lg[3].write,
              lg[3].addr, lg[3].data);
    }
    // EQE posts: EQ 3 (dropped) then EQ 1, same dwords (the writes while busy were ignored)
    const auto &ps = tb.eq.posts;
    CHECK(ps.size() == 2, "%zu EQE posts, expected 2", ps.size());
    if (ps.size() == 2) {
        CHECK(ps[0].eqn == 3 && ps[0].dropped && ps[1].eqn == 1 && !ps[1].dropped, "EQNs %u %u", ps[0].eqn, ps[1].eqn);
        for (const auto &p : ps)
            CHECK(p.dw[0] == 0x11111111u && p.dw[1] == 0x22222222u && p.dw[2] == 0x33333333u, "EQE dw %#x %#x %#x",
                  p.dw[0], p.dw[1], p.dw[2]);
    }
    // DMA writes to the host: 4092 bytes at H + 0x2FFC, 8 bytes at H + 0x4004
    unsigned bad = 0;
    uint8_t b[4];
    for (uint32_t i = 0; i < 1023; i++) {
        tb.host.read(H + 0x2FFC + 4 * i, b, 4);
        if (ld32(b) != 0xA5000000u + i) bad++;
    }
    CHECK(bad == 0, "%u of 1023 words wrong in the RAM -> host copy", bad);
    for (uint64_t a : {H + 0x2FF8, H + 0x3FF8, H + 0x4000, H + 0x400C}) {
        uint8_t e[4];
        tb.host.read(a, b, 4);
        for (int k = 0; k < 4; k++) e[k] = AxiMem::pattern(a + k);
        CHECK(std::memcmp(b, e, 4) == 0, "host word at %#llx written", (unsigned long long)a);
    }
    tb.host.read(H + 0x4004, b, 4);
    CHECK_EQ(ld32(b), 0);
    tb.host.read(H + 0x4008, b, 4);
    CHECK_EQ(ld32(b), 0xA5000000u);
    // the refused transfers moved nothing: reads 4092 + 64 + 1024 + 4 bytes
    // (512 + 8 + 129 + 1 beats), writes 4092 + 8 bytes at 4 mod 8 (512 + 2 beats)
    const auto &st = tb.host.stats();
    CHECK(st.r_beats == 512 + 8 + 129 + 1 && st.w_beats == 512 + 2, "AXI beats: %llu R, %llu W",
          (unsigned long long)st.r_beats, (unsigned long long)st.w_beats);
    // port, BAR0-visible words
    CHECK_EQ(tb.port_we, 1);
    CHECK_EQ(tb.m->port_mac, 0x0A0BCCDDEEFFull);
    CHECK_EQ(tb.m->port_mtu, 9000);
    CHECK_EQ(tb.m->port_promisc, 0);
    CHECK_EQ(tb.m->port_allmulti, 1);
    CHECK_EQ(tb.m->cmd_status, 0xC0FFEE01u);
    CHECK_EQ(tb.m->fw_version, 0x01020304u);
    CHECK_EQ(tb.m->heartbeat, 0xBEEFu);
    CHECK_EQ(tb.m->dev_ready, 1);
}

// ---------------------------------------------------------------- main

void usage(FILE *f)
{
    std::fprintf(f,
                 "usage: froce-fw-test [--seed N] [--slow] [--verbose] [--bus-test PROGRAM.hex]\n"
                 "Runs the firmware image baked into the model (INIT_FILE=%s) through the\n"
                 "block-test cases; --slow adds back-pressure and latency on every port;\n"
                 "--bus-test loads PROGRAM.hex instead and runs the bus-level test.\n"
                 "Prints one line per case and 'N passed, N failed'; exit 1 on any failure.\n",
                 T_INIT_FILE);
}

}  // namespace

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    bool slow = false, verbose = false;
    std::string bus_hex;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--seed" && i + 1 < argc) seed = std::stoull(argv[++i]);
        else if (a == "--slow") slow = true;
        else if (a == "--verbose") verbose = true;
        else if (a == "--bus-test" && i + 1 < argc) bus_hex = argv[++i];
        else if (a == "--help" || a == "-h") {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }

    AxiMemConfig hc;
    hc.data_bytes = 8;
    hc.seed = seed;
    if (slow) {
        hc.ar_ready_pct = hc.aw_ready_pct = 60;
        hc.w_ready_pct = 70;
        hc.r_valid_pct = 70;
        hc.b_valid_pct = 60;
        hc.r_lat_min = 20;
        hc.r_lat_max = 120;
        hc.b_lat_min = 10;
        hc.b_lat_max = 80;
    } else {
        hc.r_lat_min = hc.r_lat_max = 8;
        hc.b_lat_min = hc.b_lat_max = 8;
    }
    Tb tb(hc);
    tb.verbose = verbose;
    tb.ctl.rng.seed(seed * 3 + 1);
    tb.eq.rng.seed(seed * 5 + 2);
    tb.ctl.ready_from = 3000;           // froce_core clears its doorbell tables after reset
    if (slow) {
        tb.ctl.ready_pct = 50;
        tb.ctl.lat_min = 1;
        tb.ctl.lat_max = 12;
        tb.eq.ready_pct = 40;
        tb.eq.done_delay = 30;
    } else {
        tb.ctl.lat_min = tb.ctl.lat_max = 2;
    }

    struct Result {
        std::string name;
        bool ok;
    };
    std::vector<Result> results;
    auto run_case = [&](const char *name, const std::function<void()> &f) {
        const unsigned f0 = g_checks.failed;
        g_checks.cur = name;
        const uint64_t t0 = tb.now;
        f();
        // model-side protocol errors fail the case that caused them
        for (const auto &e : tb.ctl.errors) CHECK(false, "control bus: %s", e.c_str());
        for (const auto &e : tb.eq.errors) CHECK(false, "event engine: %s", e.c_str());
        for (const auto &e : tb.host.violations()) CHECK(false, "AXI: %s", e.c_str());
        for (const auto &e : tb.errors) CHECK(false, "%s", e.c_str());
        CHECK(!tb.trapped(), "the firmware trapped: %s", tb.console.c_str());
        tb.ctl.errors.clear();
        tb.eq.errors.clear();
        tb.errors.clear();
        const bool ok = g_checks.failed == f0;
        std::printf("%s %-14s (%llu cycles)\n", ok ? "ok  " : "FAIL", name, (unsigned long long)(tb.now - t0));
        std::fflush(stdout);
        results.push_back({name, ok});
    };

    if (!bus_hex.empty()) {
        if (!load_hex(tb, bus_hex)) {
            std::fprintf(stderr, "froce-fw-test: cannot read %s\n", bus_hex.c_str());
            return 2;
        }
        tb.reset();
        run_case("bus-test", [&]() { case_bus(tb); });
        for (const std::string &l : tb.lines) std::printf("    bus| %s\n", l.c_str());
    } else {
        {
            std::ifstream f(T_INIT_FILE);
            if (!f) {
                std::fprintf(stderr, "froce-fw-test: %s missing (make -C firmware)\n", T_INIT_FILE);
                return 2;
            }
        }
        tb.reset();
        Driver drv(tb);
        Ctx c{tb, drv};
        run_case("boot", [&]() { case_boot(c); });
        if (tb.m->dev_ready) {
            run_case("nop", [&]() { case_nop(c); });
            run_case("query-fw", [&]() { case_query_fw(c); });
            run_case("query-caps", [&]() { case_query_caps(c); });
            run_case("port", [&]() { case_port(c); });
            run_case("pd-cq", [&]() { case_pd_cq(c); });
            run_case("event", [&]() { case_event(c); });
            run_case("dma-error", [&]() { case_dma_error(c); });
            run_case("bad-header", [&]() { case_bad_header(c); });
            run_case("heartbeat", [&]() { case_heartbeat(c); });
            run_case("async", [&]() { case_async(c); });
            run_case("link", [&]() { case_link(c); });
            run_case("counters", [&]() { case_counters(c); });
        }
        std::printf("cycles: boot to READY %llu, NOP doorbell to DONE %llu (to CMD_STATUS %llu), "
                    "CREATE_CQ 4 pages %llu, CREATE_CQ 512 pages %llu\n",
                    (unsigned long long)c.boot_cycles, (unsigned long long)c.nop_done,
                    (unsigned long long)c.nop_status, (unsigned long long)c.cq_cycles,
                    (unsigned long long)c.cq_big_cycles);
    }
    unsigned passed = 0, failed = 0;
    for (const auto &r : results) (r.ok ? passed : failed)++;
    std::printf("froce-fw-test%s%s: %u passed, %u failed\n", slow ? " --slow" : "", bus_hex.empty() ? "" : " --bus-test",
                passed, failed);
    return failed ? 1 : 0;
}
