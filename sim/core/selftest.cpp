// SPDX-License-Identifier: MIT
// froce-sim-selftest: checks the co-simulation harness itself.
//
//   froce-sim-selftest [--core] [--seed N] [--keep DIR]
//
// Default sections (must pass today):
//   ctl     the control-bus master (ctl_bus.h, the code Nic uses) against real
//           RTL: froce_mr_xlate behind the CTL map (froce_ctl_mrt_top.v):
//           MRT_REGS, MR_CTX and MTT write/read-back, VALID rules, unmapped words
//   mem     host page allocator and VA map (Host on a Nic's memory)
//   wqe     SQ/RQ WQE images and CQE decode against the froce_hw.h macros;
//           the CQE owner rule over several ring passes (poll_cq)
//   wire    two wires sharing one pcap tap; read back with tshark if installed
//   sim     lockstep stepping of two NICs
//   mbox    the BAR0 mailbox transport: a bounded DEV_STATUS.READY wait
//           without the firmware; with it, commands and CMD_ADDR/CMD_STATUS
// --core adds the section that needs froce_core with its firmware (the soft
// core behind BAR0 CMD_*):
//   core    fw_init, GIDs, PD, MR (REG, DEREG, a stale key, reg_mr_at), CQ,
//           QP to RTS with QUERY_QP, QUERY_COUNTERS, through the mailbox
// Prints one line per check, "PASS: ..." or "FAIL: ..." at the end; exit 1 on failure.
#include <sys/stat.h>
#include <unistd.h>

#include <cinttypes>
#include <cmath>
#include <map>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "Vfroce_ctl_mrt_top.h"
#include "ctl_bus.h"
#include "host.h"
#include "hwfield.h"
#include "sim.h"
#include "verilated.h"
#include "wire.h"

using namespace froce_sim;

namespace {

int g_fail = 0, g_checks = 0;

#define CHECK(cond, ...)                                        \
    do {                                                        \
        g_checks++;                                             \
        if (!(cond)) {                                          \
            g_fail++;                                           \
            std::printf("  check failed (%s:%d): ", __FILE__, __LINE__); \
            std::printf(__VA_ARGS__);                           \
            std::printf("\n");                                  \
        }                                                       \
    } while (0)
#define CHECK_OK(expr)                                                            \
    do {                                                                          \
        Status _s = (expr);                                                       \
        CHECK(_s.ok(), "%s: %s", #expr, _s.message().c_str());                    \
    } while (0)

// ---------------------------------------------------------------------------
// ctl: CtlMaster against froce_mr_xlate

struct MrtBench {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vfroce_ctl_mrt_top> top;
    CtlMaster ctl;
    uint64_t cyc = 0;
    MrtBench() {
        ctx = std::make_unique<VerilatedContext>();
        ctx->randReset(2);
        top = std::make_unique<Vfroce_ctl_mrt_top>(ctx.get(), "mrt");
        top->rst = 1;
        top->ctl_valid = 0;
        for (int i = 0; i < 8; i++) {
            top->clk = 0;
            top->eval();
            top->clk = 1;
            top->eval();
        }
        top->clk = 0;
        top->rst = 0;
        top->eval();
    }
    void tick() {
        ctl.drive(top.get());
        top->eval();
        ctl.sample(top.get());
        top->clk = 1;
        top->eval();
        top->clk = 0;
        cyc++;
    }
    Status wr(uint32_t off, uint32_t v) {
        return ctl.access("mrt", true, off, v, nullptr, 5000, [this] { tick(); }, cyc);
    }
    Status rd(uint32_t off, uint32_t *v) { return ctl.access("mrt", false, off, 0, v, 5000, [this] { tick(); }, cyc); }
};

void test_ctl(uint64_t seed) {
    std::printf("== ctl: control-bus master against froce_mr_xlate (real RTL)\n");
    MrtBench b;
    std::mt19937_64 rng(seed);
    const uint32_t regs = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_REGS_OFF;
    uint32_t v = 0;
    // the MR table clears after reset: INIT reads 1, MR words wait for ctl_ready
    CHECK_OK(b.rd(regs + 4 * FROCE_MRT_REGS_INIT_DW, &v));
    CHECK(v & FROCE_MRT_REGS_INIT_MASK, "MRT_REGS.INIT should be set right after reset (read %#x)", v);
    uint64_t t0 = b.cyc;
    CHECK_OK(b.rd(FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + 4 * FROCE_MR_CTX_VALID_DW, &v));
    CHECK(v == 0, "MR 0 VALID after reset reads %#x", v);
    CHECK(b.cyc - t0 >= 900, "an MR read during the table clear should wait (~1024 cycles), took %" PRIu64, b.cyc - t0);
    CHECK_OK(b.rd(regs + 4 * FROCE_MRT_REGS_NUM_MRS_DW, &v));
    CHECK(v == 1024, "NUM_MRS %u", v);
    CHECK_OK(b.rd(regs + 4 * FROCE_MRT_REGS_NUM_MTT_DW, &v));
    CHECK(v == 65536, "NUM_MTT %u", v);
    CHECK_OK(b.rd(regs + 4 * FROCE_MRT_REGS_BUSY_DW, &v));
    CHECK(v == 0, "MRT_REGS dw0 after the clear: %#x", v);

    // MR contexts written as Host::reg_mr does: dw0..dw6 staged, dw7 commits
    struct E {
        uint32_t idx;
        uint8_t img[FROCE_MR_CTX_SIZE];
    };
    std::vector<E> es;
    std::set<uint32_t> used;
    for (int n = 0; n < 40; n++) {
        E e;
        do e.idx = uint32_t(rng() % 1024);
        while (!used.insert(e.idx).second);
        std::memset(e.img, 0, sizeof e.img);
        unsigned ps = 12 + unsigned(rng() % 10);
        FSET_DW(e.img, FROCE_MR_CTX_PDN, rng());
        FSET_DW(e.img, FROCE_MR_CTX_TAG, rng());
        FSET_DW(e.img, FROCE_MR_CTX_ACCESS, rng() & 0xF);
        FSET_DW(e.img, FROCE_MR_CTX_PAGE_SHIFT, ps);
        FSET_QW(e.img, FROCE_MR_CTX_IOVA, rng());
        FSET_QW(e.img, FROCE_MR_CTX_LENGTH, rng() >> 20);
        FSET_DW(e.img, FROCE_MR_CTX_MTT_BASE, rng() & 0xFFFF);
        FSET_DW(e.img, FROCE_MR_CTX_VALID, 1);
        const uint32_t off = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + e.idx * FROCE_MR_CTX_SIZE;
        for (unsigned dw = 0; dw < 8; dw++) CHECK_OK(b.wr(off + 4 * dw, ld32(e.img + 4 * dw)));
        es.push_back(e);
    }
    // one with an out-of-range page shift: stored invalid
    uint8_t bad[FROCE_MR_CTX_SIZE] = {};
    FSET_DW(bad, FROCE_MR_CTX_PAGE_SHIFT, 25);
    FSET_DW(bad, FROCE_MR_CTX_VALID, 1);
    uint32_t bad_idx = 0;
    while (used.count(bad_idx)) bad_idx++;
    for (unsigned dw = 0; dw < 8; dw++)
        CHECK_OK(b.wr(FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + bad_idx * 32 + 4 * dw, ld32(bad + 4 * dw)));
    CHECK_OK(b.rd(FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + bad_idx * 32 + 4 * FROCE_MR_CTX_VALID_DW, &v));
    CHECK(v == 0, "MR with PAGE_SHIFT 25 reads VALID %u, expected 0", v);
    unsigned mismatches = 0;
    for (const E &e : es) {
        const uint32_t off = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + e.idx * FROCE_MR_CTX_SIZE;
        for (unsigned dw = 0; dw < 8; dw++) {
            CHECK_OK(b.rd(off + 4 * dw, &v));
            uint32_t want = ld32(e.img + 4 * dw);
            if (dw == FROCE_MR_CTX_ACCESS_DW) want &= ~(FROCE_MR_CTX_ACCESS_MASK & ~0x0Fu);
            if (dw == FROCE_MR_CTX_MTT_BASE_DW) want &= 0xFFFF;   // log2 NUM_MTT bits stored
            if (v != want && mismatches++ < 5)
                CHECK(false, "MR %u dw%u reads %#010x, wrote %#010x", e.idx, dw, v, want);
        }
    }
    CHECK(mismatches == 0, "%u MR_CTX words differ after read-back", mismatches);
    // invalidate one: VALID=0 alone
    CHECK_OK(b.wr(FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + es[0].idx * 32 + 4 * FROCE_MR_CTX_VALID_DW, 0));
    CHECK_OK(b.rd(FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + es[0].idx * 32 + 4 * FROCE_MR_CTX_VALID_DW, &v));
    CHECK(v == 0, "MR %u after dereg reads VALID %u", es[0].idx, v);

    // MTT entries: low dword, then high dword commits
    std::vector<std::pair<uint32_t, uint64_t>> mtt;
    for (int n = 0; n < 64; n++) {
        uint32_t j = uint32_t(rng() % 65536);
        uint64_t a = (rng() & 0x0000FFFFFFFFF000ull);
        mtt.push_back({j, a});
        uint8_t e[FROCE_MTT_ENTRY_SIZE] = {};
        FSET_QW(e, FROCE_MTT_ENTRY_ADDR, a);
        const uint32_t off = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MTT_OFF + j * FROCE_MTT_ENTRY_SIZE;
        CHECK_OK(b.wr(off, ld32(e)));
        CHECK_OK(b.wr(off + 4, ld32(e + 4)));
    }
    std::map<uint32_t, uint64_t> last;
    for (auto &p : mtt) last[p.first] = p.second;
    mismatches = 0;
    for (auto &p : last) {
        uint32_t lo, hi;
        const uint32_t off = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MTT_OFF + p.first * FROCE_MTT_ENTRY_SIZE;
        CHECK_OK(b.rd(off, &lo));
        CHECK_OK(b.rd(off + 4, &hi));
        if ((uint64_t(hi) << 32 | lo) != p.second && mismatches++ < 5)
            CHECK(false, "MTT %u reads %#" PRIx64 ", wrote %#" PRIx64, p.first, uint64_t(hi) << 32 | lo, p.second);
    }
    CHECK(mismatches == 0, "%u MTT entries differ after read-back", mismatches);
    // words beyond the tables read 0; accesses outside the MRT block are accepted
    CHECK_OK(b.rd(FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + 4096 * 32, &v));
    CHECK(v == 0, "MR 4096 (beyond the table) reads %#x", v);
    CHECK_OK(b.rd(regs + 12, &v));
    CHECK(v == 0, "MRT_REGS dw3 reads %#x", v);
    // argument checks of the master
    CHECK(!b.wr(2, 0).ok(), "unaligned control write must be refused");
    CHECK(!b.rd(FROCE_CTL_SPAN, &v).ok(), "control read beyond CTL_SPAN must be refused");
    CHECK(b.ctl.stray_rvalid == 0, "%" PRIu64 " stray ctl_rvalid", b.ctl.stray_rvalid);
    std::printf("   %" PRIu64 " control writes, %" PRIu64 " reads, %" PRIu64 " cycles\n", b.ctl.writes, b.ctl.reads,
                b.cyc);
}

// ---------------------------------------------------------------------------
// mem: page allocator and VA map

void test_mem(uint64_t seed) {
    std::printf("== mem: host page allocator and VA map\n");
    NicConfig nc;
    nc.name = "M";
    Nic nic(nc);
    HostConfig hc;
    hc.seed = seed;
    hc.name = "M";
    Host h(nic, hc);
    std::vector<Buffer> bufs;
    std::set<uint64_t> pa_pages;
    uint64_t consecutive = 0, pairs = 0;
    for (int i = 0; i < 20; i++) {
        Buffer b;
        CHECK_OK(h.alloc(1 + uint64_t(i) * 5000, &b, 12, uint64_t(i) * 97 % 4096));
        CHECK(b.va >= hc.va_base, "buffer VA %#" PRIx64 " below the VA base", b.va);
        CHECK((b.va & 0xfff) == uint64_t(i) * 97 % 4096, "buffer offset in page");
        for (const Buffer &o : bufs)
            CHECK(b.va >= o.va + o.len + 4096 || b.va + b.len + 4096 <= o.va, "buffers %#" PRIx64 " and %#" PRIx64
                  " closer than a page", b.va, o.va);
        uint64_t prev = 0;
        for (uint64_t va = b.va & ~0xfffull; va < b.va + b.len; va += 4096) {
            uint64_t pa;
            CHECK_OK(h.translate(va, &pa));
            CHECK(pa != va, "VA %#" PRIx64 " maps to the same PA", va);
            CHECK((pa & 0xfff) == 0, "PA not page aligned");
            CHECK(pa_pages.insert(pa >> 12).second, "PA page %#" PRIx64 " handed out twice", pa);
            if (prev) {
                pairs++;
                if (pa == prev + 4096) consecutive++;
            }
            prev = pa;
        }
        bufs.push_back(b);
    }
    CHECK(pairs > 20 && consecutive * 10 < pairs, "pages are not shuffled: %" PRIu64 " of %" PRIu64
          " neighbours contiguous", consecutive, pairs);
    // write/read across page boundaries
    std::vector<uint8_t> d(9000), r(9000);
    std::mt19937_64 rng(seed);
    for (auto &x : d) x = uint8_t(rng());
    const Buffer &b = bufs[3];   // 15001 bytes
    CHECK_OK(h.write(b.va + 100, d.data(), d.size()));
    CHECK_OK(h.read(b.va + 100, r.data(), r.size()));
    CHECK(d == r, "read-back differs");
    // the bytes really are at the translated physical addresses
    uint64_t pa;
    CHECK_OK(h.translate(b.va + 100 + 5000, &pa));
    CHECK(nic.mem().peek(pa) == d[5000], "byte at translated PA differs");
    // unmapped VAs are refused
    CHECK(!h.write(hc.va_base - 4096, d.data(), 1).ok(), "write to an unmapped VA must fail");
    CHECK(!h.read(b.va + b.len + 8192 * 4, r.data(), 1).ok() || true, "(gap may be mapped by a later buffer)");
    // large pages: contiguous and aligned chunks
    Buffer big;
    CHECK_OK(h.alloc(5 << 20, &big, 21, 12345));
    CHECK((big.va & ((1 << 21) - 1)) == 12345, "2 MiB buffer offset");
    for (uint64_t c = big.va & ~((1ull << 21) - 1); c < big.va + big.len; c += 1 << 21) {
        uint64_t p0;
        CHECK_OK(h.translate(c, &p0));
        CHECK((p0 & ((1 << 21) - 1)) == 0, "2 MiB chunk at PA %#" PRIx64 " not aligned", p0);
        uint64_t p1;
        CHECK_OK(h.translate(c + (1 << 21) - 1, &p1));
        CHECK(p1 == p0 + (1 << 21) - 1, "2 MiB chunk not contiguous");
    }
    CHECK(!h.alloc(10, &big, 11).ok(), "page shift 11 must be refused");
    CHECK(!h.alloc(10, &big, 12, 4096).ok(), "offset >= page must be refused");
    auto bp = h.backing_pages();
    CHECK(bp.size() >= pa_pages.size() + 3 * 512, "backing_pages lists %zu pages", bp.size());
}

// ---------------------------------------------------------------------------
// wqe: WQE/CQE images against the froce_hw.h macros

uint32_t dw(const std::vector<uint8_t> &w, unsigned off_bytes, unsigned i) { return ld32(w.data() + off_bytes + 4 * i); }
uint64_t qw(const std::vector<uint8_t> &w, unsigned off_bytes, unsigned i) { return ld64(w.data() + off_bytes + 8 * i); }

void test_wqe(uint64_t seed) {
    std::printf("== wqe: WQE/CQE images against froce_hw.h\n");
    std::mt19937_64 rng(seed);
    for (int n = 0; n < 300; n++) {
        SendWr wr;
        static const uint8_t ops[] = {FROCE_WQE_OP_SEND, FROCE_WQE_OP_SEND_WITH_IMM, FROCE_WQE_OP_RDMA_WRITE,
                                      FROCE_WQE_OP_RDMA_WRITE_WITH_IMM, FROCE_WQE_OP_RDMA_READ,
                                      FROCE_WQE_OP_ATOMIC_CMP_SWP, FROCE_WQE_OP_ATOMIC_FETCH_ADD, FROCE_WQE_OP_NOP};
        wr.opcode = ops[rng() % 8];
        wr.signaled = rng() & 1;
        wr.solicited = rng() & 1;
        wr.fence = rng() & 1;
        const bool atomic = wr.opcode == FROCE_WQE_OP_ATOMIC_CMP_SWP || wr.opcode == FROCE_WQE_OP_ATOMIC_FETCH_ADD;
        const bool rdma = wr.opcode >= FROCE_WQE_OP_RDMA_WRITE && wr.opcode <= FROCE_WQE_OP_RDMA_READ;
        wr.inline_data = !atomic && wr.opcode != FROCE_WQE_OP_RDMA_READ && (rng() % 3 == 0);
        std::vector<uint8_t> inl;
        unsigned nsge = atomic ? 1 : unsigned(rng() % 5);
        if (wr.inline_data) {
            inl.resize(rng() % 200);
            for (auto &x : inl) x = uint8_t(rng());
        } else {
            for (unsigned i = 0; i < nsge; i++) wr.sg.push_back({rng(), uint32_t(rng()), uint32_t(rng())});
        }
        wr.remote_addr = rng();
        wr.rkey = uint32_t(rng());
        wr.compare_add = rng();
        wr.swap = rng();
        wr.imm_inv = uint32_t(rng());
        uint16_t idx = uint16_t(rng());
        std::vector<uint8_t> w;
        CHECK_OK(build_sq_wqe(FROCE_QP_TYPE_RC, 9, wr, idx, inl, &w));
        if (w.size() != 512) continue;
        const uint32_t d0 = dw(w, 0, 0);
        CHECK(FROCE_FIELD_GET(FROCE_WQE_CTRL_OPCODE, d0) == wr.opcode, "OPCODE");
        CHECK(FROCE_FIELD_GET(FROCE_WQE_CTRL_SIGNALED, d0) == wr.signaled, "SIGNALED");
        CHECK(FROCE_FIELD_GET(FROCE_WQE_CTRL_SOLICITED, d0) == wr.solicited, "SOLICITED");
        CHECK(FROCE_FIELD_GET(FROCE_WQE_CTRL_FENCE, d0) == wr.fence, "FENCE");
        CHECK(FROCE_FIELD_GET(FROCE_WQE_CTRL_INLINE, d0) == wr.inline_data, "INLINE");
        CHECK(FROCE_FIELD_GET(FROCE_WQE_CTRL_WQE_INDEX, dw(w, 0, FROCE_WQE_CTRL_WQE_INDEX_DW)) == idx, "WQE_INDEX");
        CHECK(FROCE_FIELD_GET(FROCE_WQE_CTRL_IMM_INV, dw(w, 0, FROCE_WQE_CTRL_IMM_INV_DW)) == wr.imm_inv, "IMM_INV");
        unsigned seg = FROCE_WQE_CTRL_SIZE;
        if (rdma) {
            CHECK(FROCE_FIELD_GET(FROCE_WQE_RADDR_VA, qw(w, seg, FROCE_WQE_RADDR_VA_QW)) == wr.remote_addr, "RADDR VA");
            CHECK(FROCE_FIELD_GET(FROCE_WQE_RADDR_RKEY, dw(w, seg, FROCE_WQE_RADDR_RKEY_DW)) == wr.rkey, "RKEY");
            seg += FROCE_WQE_RADDR_SIZE;
        } else if (atomic) {
            bool cs = wr.opcode == FROCE_WQE_OP_ATOMIC_CMP_SWP;
            CHECK(FROCE_FIELD_GET(FROCE_WQE_ATOMIC_VA, qw(w, seg, FROCE_WQE_ATOMIC_VA_QW)) == wr.remote_addr, "ATOMIC VA");
            CHECK(FROCE_FIELD_GET(FROCE_WQE_ATOMIC_RKEY, dw(w, seg, FROCE_WQE_ATOMIC_RKEY_DW)) == wr.rkey, "ATOMIC RKEY");
            CHECK(FROCE_FIELD_GET(FROCE_WQE_ATOMIC_SWAP_ADD, qw(w, seg, FROCE_WQE_ATOMIC_SWAP_ADD_QW)) ==
                      (cs ? wr.swap : wr.compare_add), "SWAP_ADD");
            CHECK(FROCE_FIELD_GET(FROCE_WQE_ATOMIC_COMPARE, qw(w, seg, FROCE_WQE_ATOMIC_COMPARE_QW)) ==
                      (cs ? wr.compare_add : 0), "COMPARE");
            seg += FROCE_WQE_ATOMIC_SIZE;
        }
        if (wr.inline_data) {
            CHECK(FROCE_FIELD_GET(FROCE_WQE_CTRL_INLINE_LEN, dw(w, 0, FROCE_WQE_CTRL_INLINE_LEN_DW)) == inl.size(),
                  "INLINE_LEN");
            CHECK(std::memcmp(w.data() + seg, inl.data(), inl.size()) == 0, "inline bytes");
            seg += unsigned((inl.size() + 15) / 16 * 16);
        } else {
            for (const Sge &s : wr.sg) {
                CHECK(FROCE_FIELD_GET(FROCE_WQE_DATA_ADDR, qw(w, seg, FROCE_WQE_DATA_ADDR_QW)) == s.addr, "SGE ADDR");
                CHECK(FROCE_FIELD_GET(FROCE_WQE_DATA_LEN, dw(w, seg, FROCE_WQE_DATA_LEN_DW)) == s.len, "SGE LEN");
                CHECK(FROCE_FIELD_GET(FROCE_WQE_DATA_LKEY, dw(w, seg, FROCE_WQE_DATA_LKEY_DW)) == s.lkey, "SGE LKEY");
                seg += FROCE_WQE_DATA_SIZE;
            }
        }
        CHECK(FROCE_FIELD_GET(FROCE_WQE_CTRL_DS, d0) * FROCE_WQE_SEG == seg, "DS %u, segments end at %u",
              unsigned(FROCE_FIELD_GET(FROCE_WQE_CTRL_DS, d0)), seg);
        for (unsigned i = seg; i < w.size(); i++)
            if (w[i]) {
                CHECK(false, "byte %u past the last segment is %#x", i, w[i]);
                break;
            }
    }
    // size limits
    SendWr big;
    big.opcode = FROCE_WQE_OP_RDMA_WRITE;
    big.sg.resize(4);
    std::vector<uint8_t> w;
    CHECK(!build_sq_wqe(FROCE_QP_TYPE_RC, 6, big, 0, {}, &w).ok(), "4 SGEs + RADDR must not fit a 64-byte WQE");
    big.sg.resize(2);
    CHECK_OK(build_sq_wqe(FROCE_QP_TYPE_RC, 6, big, 0, {}, &w));
    // RQ WQE
    RecvWr rw;
    for (int i = 0; i < 3; i++) rw.sg.push_back({rng(), uint32_t(rng()), uint32_t(rng())});
    CHECK_OK(build_rq_wqe(6, rw, 0xBEEF, &w));
    CHECK(FROCE_FIELD_GET(FROCE_RQ_WQE_HDR_WQE_INDEX, dw(w, 0, FROCE_RQ_WQE_HDR_WQE_INDEX_DW)) == 0xBEEF, "RQ WQE_INDEX");
    CHECK(FROCE_FIELD_GET(FROCE_RQ_WQE_HDR_NUM_SGE, dw(w, 0, FROCE_RQ_WQE_HDR_NUM_SGE_DW)) == 3, "RQ NUM_SGE");
    CHECK(FROCE_FIELD_GET(FROCE_WQE_DATA_LKEY, dw(w, 16 + 32, FROCE_WQE_DATA_LKEY_DW)) == rw.sg[2].lkey, "RQ SGE 2");
    rw.sg.resize(4);
    CHECK(!build_rq_wqe(6, rw, 0, &w).ok(), "4 SGEs must not fit a 64-byte RQ WQE");

    // CQE: encode with the raw macros, decode with decode_cqe
    for (int n = 0; n < 300; n++) {
        uint32_t d[8] = {};
        uint64_t smac = rng() & 0xFFFFFFFFFFFFull, vid = rng() & 0xFFF;
        Cqe c;
        c.qpn = uint32_t(rng() & 0xFFFFFF);
        c.opcode = uint8_t(rng());
        c.wqe_index = uint16_t(rng());
        c.status = uint8_t(rng() % 22);
        c.vendor_err = uint8_t(rng() % 16);
        c.byte_cnt = uint32_t(rng());
        c.imm_inv = uint32_t(rng());
        c.src_qpn = uint32_t(rng() & 0xFFFFFF);
        c.grh = rng() & 1;
        c.with_imm = rng() & 1;
        c.with_inv = rng() & 1;
        c.vlan = rng() & 1;
        c.solicited = rng() & 1;
        c.net_type = uint8_t(rng() & 7);
        c.owner = rng() & 1;
        d[FROCE_CQE_QPN_DW] |= FROCE_FIELD_PREP(FROCE_CQE_QPN, c.qpn);
        d[FROCE_CQE_OPCODE_DW] |= FROCE_FIELD_PREP(FROCE_CQE_OPCODE, uint32_t(c.opcode));
        d[FROCE_CQE_WQE_INDEX_DW] |= FROCE_FIELD_PREP(FROCE_CQE_WQE_INDEX, uint32_t(c.wqe_index));
        d[FROCE_CQE_STATUS_DW] |= FROCE_FIELD_PREP(FROCE_CQE_STATUS, uint32_t(c.status));
        d[FROCE_CQE_VENDOR_ERR_DW] |= FROCE_FIELD_PREP(FROCE_CQE_VENDOR_ERR, uint32_t(c.vendor_err));
        d[FROCE_CQE_BYTE_CNT_DW] |= FROCE_FIELD_PREP(FROCE_CQE_BYTE_CNT, c.byte_cnt);
        d[FROCE_CQE_IMM_INV_DW] |= FROCE_FIELD_PREP(FROCE_CQE_IMM_INV, c.imm_inv);
        d[FROCE_CQE_SRC_QPN_DW] |= FROCE_FIELD_PREP(FROCE_CQE_SRC_QPN, c.src_qpn);
        d[FROCE_CQE_GRH_DW] |= FROCE_FIELD_PREP(FROCE_CQE_GRH, uint32_t(c.grh));
        d[FROCE_CQE_WITH_IMM_DW] |= FROCE_FIELD_PREP(FROCE_CQE_WITH_IMM, uint32_t(c.with_imm));
        d[FROCE_CQE_WITH_INV_DW] |= FROCE_FIELD_PREP(FROCE_CQE_WITH_INV, uint32_t(c.with_inv));
        d[FROCE_CQE_VLAN_DW] |= FROCE_FIELD_PREP(FROCE_CQE_VLAN, uint32_t(c.vlan));
        d[FROCE_CQE_SOLICITED_DW] |= FROCE_FIELD_PREP(FROCE_CQE_SOLICITED, uint32_t(c.solicited));
        d[FROCE_CQE_NET_TYPE_DW] |= FROCE_FIELD_PREP(FROCE_CQE_NET_TYPE, uint32_t(c.net_type));
        d[FROCE_CQE_OWNER_DW] |= FROCE_FIELD_PREP(FROCE_CQE_OWNER, uint32_t(c.owner));
        uint64_t q3 = FROCE_FIELD_PREP(FROCE_CQE_SMAC, smac) | FROCE_FIELD_PREP(FROCE_CQE_VLAN_ID, vid);
        d[2 * FROCE_CQE_SMAC_QW] |= uint32_t(q3);
        d[2 * FROCE_CQE_SMAC_QW + 1] |= uint32_t(q3 >> 32);
        uint8_t img[32];
        for (int i = 0; i < 8; i++) st32(img + 4 * i, d[i]);
        Cqe x = decode_cqe(img);
        bool same = x.qpn == c.qpn && x.opcode == c.opcode && x.wqe_index == c.wqe_index && x.status == c.status &&
                    x.vendor_err == c.vendor_err && x.byte_cnt == c.byte_cnt && x.imm_inv == c.imm_inv &&
                    x.src_qpn == c.src_qpn && x.grh == c.grh && x.with_imm == c.with_imm && x.with_inv == c.with_inv &&
                    x.vlan == c.vlan && x.solicited == c.solicited && x.net_type == c.net_type && x.smac == smac &&
                    x.vlan_id == vid && x.owner == c.owner;
        CHECK(same, "CQE decode differs: %s", x.str().c_str());
        uint8_t img2[32];
        c.smac = smac;
        c.vlan_id = uint16_t(vid);
        encode_cqe(c, img2);
        CHECK(std::memcmp(img, img2, 32) == 0, "encode_cqe differs from the macro image");
    }

    // owner rule over three passes of an 8-entry ring, with poll_cq
    NicConfig nc;
    nc.name = "W";
    Nic nic(nc);
    HostConfig hc;
    hc.name = "W";
    Host h(nic, hc);
    Cq cq;
    cq.log_size = 3;
    CHECK_OK(h.alloc(32 * 8, &cq.ring));
    CHECK_OK(h.fill(cq.ring.va, 0, 32 * 8));
    std::vector<Cqe> got;
    Status s = h.poll_cq(&cq, 16, &got);
    CHECK(got.empty(), "zeroed ring yields %zu CQEs", got.size());
    uint32_t pi = 0;
    for (int round = 0; round < 6; round++) {
        unsigned n = 1 + unsigned(rng() % 8);   // never more than the ring
        n = std::min<unsigned>(n, 8 - (pi - cq.ci));
        for (unsigned i = 0; i < n; i++, pi++) {
            Cqe c;
            c.qpn = 0x777;
            c.wqe_index = uint16_t(pi);
            c.owner = !((pi >> 3) & 1);
            uint8_t img[32];
            encode_cqe(c, img);
            CHECK_OK(h.write(cq.ring.va + (pi & 7) * 32, img, 32));
        }
        got.clear();
        s = h.poll_cq(&cq, 16, &got);   // QP 0x777 is unknown: an error, the CQEs still come
        CHECK(!s.ok(), "a CQE naming an unknown QP must be reported");
        CHECK(got.size() == n, "round %d: polled %zu CQEs, %u written", round, got.size(), n);
        for (unsigned i = 0; i < got.size(); i++)
            CHECK(got[i].wqe_index == uint16_t(pi - n + i), "CQE order");
        CHECK(cq.ci == pi, "ci %u pi %u", cq.ci, pi);
    }
    CHECK(pi > 16, "the test should wrap the ring at least twice (pi %u)", pi);
}

// ---------------------------------------------------------------------------
// wire: two directions into one pcap, read back with tshark

std::vector<uint8_t> udp_frame(uint8_t src, uint8_t dst, uint16_t len, uint8_t fill) {
    std::vector<uint8_t> f(14 + 20 + 8 + len, fill);
    const uint8_t mac_d[6] = {2, 0, 0, 0, 0, dst}, mac_s[6] = {2, 0, 0, 0, 0, src};
    std::memcpy(&f[0], mac_d, 6);
    std::memcpy(&f[6], mac_s, 6);
    f[12] = 0x08;
    f[13] = 0x00;
    uint8_t *ip = &f[14];
    std::memset(ip, 0, 20);
    ip[0] = 0x45;
    uint16_t tot = uint16_t(20 + 8 + len);
    ip[2] = uint8_t(tot >> 8);
    ip[3] = uint8_t(tot);
    ip[8] = 64;
    ip[9] = 17;
    ip[12] = 10, ip[15] = src;
    ip[16] = 10, ip[19] = dst;
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2) sum += uint32_t(ip[i]) << 8 | ip[i + 1];
    while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
    ip[10] = uint8_t(~sum >> 8);
    ip[11] = uint8_t(~sum);
    uint8_t *udp = ip + 20;
    udp[0] = 0xC0, udp[1] = 0x00;
    udp[2] = 0x12, udp[3] = 0xB7;   // 4791
    udp[4] = uint8_t((8 + len) >> 8), udp[5] = uint8_t(8 + len);
    udp[6] = udp[7] = 0;
    return f;
}

void test_wire(const std::string &dir) {
    std::printf("== wire: shared pcap tap at 6.4 ns per cycle\n");
    const std::string path = dir + "/selftest-wire.pcap";
    {
        froce::PcapTap tap(path, kNsPerCycle);
        CHECK(tap.ok(), "cannot write %s", path.c_str());
        froce::FaultConfig f;
        f.latency = 5;
        froce::Wire ab(f, &tap), ba(f, &tap);
        uint64_t delivered = 0;
        for (uint64_t cyc = 0; cyc < 2000; cyc++) {
            if (cyc % 100 == 0) ab.send(udp_frame(1, 2, uint16_t(100 + cyc / 100), 0xAA), cyc);
            if (cyc % 100 == 50) ba.send(udp_frame(2, 1, 60, 0xBB), cyc);
            std::vector<uint8_t> fr;
            while (ab.receive(&fr, cyc)) delivered++;
            while (ba.receive(&fr, cyc)) delivered++;
        }
        CHECK(delivered == 40, "%" PRIu64 " frames delivered, 40 sent", delivered);
    }
    if (access("/usr/bin/tshark", X_OK) != 0) {
        std::printf("   tshark not installed: pcap read-back skipped\n");
        return;
    }
    std::string cmd = "tshark -r '" + path + "' -T fields -e frame.time_epoch -e ip.src -e udp.dstport 2>/dev/null";
    FILE *p = popen(cmd.c_str(), "r");
    CHECK(p != nullptr, "popen tshark");
    if (!p) return;
    char line[256];
    int n = 0, bad = 0;
    while (std::fgets(line, sizeof line, p)) {
        double t;
        char src[64];
        unsigned port;
        if (std::sscanf(line, "%lf %63s %u", &t, src, &port) != 3) {
            if (bad++ < 3) std::printf("   tshark: %s", line);
            continue;
        }
        // frame k of A->B was sent at cycle 100*k (k = 0..19), B->A at 100*k + 50
        double cyc = t * 1e9 / kNsPerCycle;
        long r = std::lround(cyc);
        if (std::fabs(cyc - double(r)) > 0.01 || r % 50 != 0 || port != 4791) bad++;
        if ((r % 100 == 0) != (std::string(src) == "10.0.0.1")) bad++;
        n++;
    }
    int rc = pclose(p);
    CHECK(rc == 0, "tshark exit status %d", rc);
    CHECK(n == 40 && bad == 0, "tshark read %d frames (40 expected), %d bad", n, bad);
    std::printf("   tshark read %d frames from %s\n", n, path.c_str());
}

// ---------------------------------------------------------------------------
// sim: lockstep

void test_sim() {
    std::printf("== sim: two NICs in lockstep\n");
    SimConfig sc;
    Sim sim(sc);
    CHECK_OK(sim.init_status());
    uint64_t a0 = sim.a().cycle(), b0 = sim.b().cycle();
    sim.step(1000);
    CHECK(sim.cycle() == 1000, "sim cycle %" PRIu64, sim.cycle());
    CHECK(sim.a().cycle() - a0 == 1000 && sim.b().cycle() - b0 == 1000, "NICs not in lockstep");
    // a blocking call on one NIC steps both
    CHECK_OK(sim.a().wait_doorbells(10));
    SimConfig bad;
    bad.a_to_b.drop = 1.5;
    Sim s2(bad);
    CHECK(!s2.init_status().ok(), "drop 1.5 must be refused");
    CHECK(!sim.a().doorbell(Nic::kNumUars, 0, 0).ok(), "doorbell page beyond NUM_UARS must be refused");
    CHECK(!sim.a().doorbell(1, FROCE_UAR_DB_SLOTS, 0).ok(), "doorbell slot beyond the page must be refused");
}

// ---------------------------------------------------------------------------
// mbox: the BAR0 mailbox transport (NicMboxTransport) on froce_core. Without
// the firmware in froce_core, start() must give up after ready_cycles with an
// error saying what it read; with it, commands go through and BAR0 CMD_*
// agrees with the block.

class HostDma : public MboxMem {
public:
    HostDma(Host &h, Nic &n) : h_(h), n_(n) {}
    Status dma_write(uint64_t pa, const void *src, size_t len) override {
        n_.mem().write(pa, static_cast<const uint8_t *>(src), len);
        return Status();
    }
    Status dma_read(uint64_t pa, void *dst, size_t len) override {
        n_.mem().read(pa, static_cast<uint8_t *>(dst), len);
        return Status();
    }
    Status dma_page(uint64_t *pa) override {
        Buffer b;
        FROCE_TRY(h_.alloc(4096, &b));
        FROCE_TRY(h_.fill(b.va, 0, 4096));
        return h_.translate(b.va, pa);
    }

private:
    Host &h_;
    Nic &n_;
};

void test_mbox_transport() {
    std::printf("== mbox: the BAR0 mailbox transport\n");
    SimConfig sc;
    Sim sim(sc);
    HostConfig hc;
    Host h(sim.a(), hc);
    HostDma mem(h, sim.a());
    MboxTiming t;
    t.ready_cycles = 20000;
    t.cmd_cycles = 200000;
    t.poll_cycles = 16;
    NicMboxTransport tr(sim.a(), t);
    Mailbox mb(mem, tr, "NIC A");
    const uint64_t c0 = sim.a().cycle();
    Status s = mb.start();
    const uint64_t waited = sim.a().cycle() - c0;
    if (!s.ok()) {
        std::printf("  no firmware behind BAR0 CMD_* yet: %s\n", s.message().c_str());
        CHECK(s.message().find("DEV_STATUS.READY not set") != std::string::npos && waited >= t.ready_cycles &&
                  waited < t.ready_cycles + 2000,
              "READY wait bounded by ready_cycles (%" PRIu64 " cycles): %s", waited, s.message().c_str());
        s = mb.nop();
        CHECK(!s.ok() && s.message().find("not started") != std::string::npos, "a command before start: %s",
              s.message().c_str());
        return;
    }
    CHECK_OK(mb.nop());
    FwInfo fi;
    CHECK_OK(mb.query_fw(&fi));
    CHECK(fi.spec_hash == FROCE_HW_SPEC_HASH, "QUERY_FW SPEC_HASH %#x", fi.spec_hash);
    uint32_t lo = 0, hi = 0, cs = 0;
    CHECK_OK(sim.a().bar0_read32(FROCE_REG_CMD_ADDR_LO, &lo));
    CHECK_OK(sim.a().bar0_read32(FROCE_REG_CMD_ADDR_HI, &hi));
    CHECK((uint64_t(hi) << 32 | lo) == mb.block_pa(), "CMD_ADDR %#x%08x, block %#" PRIx64, hi, lo, mb.block_pa());
    const uint16_t tok = mb.next_token();
    uint8_t st = 0;
    uint32_t syn = 0;
    CHECK_OK(mb.exec_raw(0x7777, {}, 0, nullptr, &st, &syn));
    CHECK(st == FROCE_CMD_STATUS_BAD_OPCODE && syn == 0x80000000u, "unknown opcode: status %#x syndrome %#x", st, syn);
    CHECK_OK(sim.a().bar0_read32(FROCE_REG_CMD_STATUS, &cs));
    CHECK(cs == (uint32_t(tok) | uint32_t(FROCE_CMD_STATUS_BAD_OPCODE) << FROCE_REG_CMD_STATUS_STATUS_SHIFT),
          "CMD_STATUS %#x after the refused command (token %#x, not BUSY)", cs, tok);
}

// ---------------------------------------------------------------------------
// core: the driver through the firmware's mailbox on the real froce_core
//
// The contexts the firmware writes are not read back here (the control bus is
// the firmware's): MR_CTX, MTT entries, QPC, CQC and GID_CTX are decoded field
// by field by the firmware's unit tests (firmware/tests: test_mr.c, test_qp.c,
// test_res.c) and by froce-mbox-selftest (sim/core/mbox_selftest.cpp, this
// command layer against the firmware). This section checks what the driver
// sees: the outputs of the commands.

void test_core(uint64_t seed) {
    std::printf("== core: the driver through the firmware's mailbox on froce_core\n");
    SimConfig sc;
    sc.a.ctl_timeout = 20000;
    Sim sim(sc);
    HostConfig hc;
    hc.seed = seed;
    Host h(sim.a(), hc);
    Status s = h.fw_init();
    CHECK(s.ok(), "fw_init: %s", s.message().c_str());
    if (!s.ok()) return;
    const FwCaps &caps = h.caps();
    CHECK(h.fw_info().spec_hash == FROCE_HW_SPEC_HASH, "QUERY_FW: SPEC_HASH %#x", h.fw_info().spec_hash);
    CHECK(caps.max_qp >= 2 && caps.max_mr >= 1 && caps.num_gid >= 1 && caps.max_uar == Nic::kNumUars,
          "QUERY_CAPS: MAX_QP %u MAX_MR %u NUM_GID %u MAX_UAR %u", caps.max_qp, caps.max_mr, caps.num_gid, caps.max_uar);
    Gid g = Gid::ipv4(10, 0, 0, 1);
    CHECK_OK(h.set_gid(0, g, 0x020000000001ull));
    uint32_t pd = 0;
    CHECK_OK(h.alloc_pd(&pd));
    CHECK(h.pd_uar(pd) >= 1, "the PD's user context has a UAR page of its own (%" PRId64 ")", h.pd_uar(pd));
    Buffer b;
    CHECK_OK(h.alloc(3 * 4096 + 100, &b, 12, 0x234));
    Mr mr;
    s = h.reg_mr(pd, b.va, b.len, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE, &mr);
    CHECK(s.ok(), "reg_mr: %s", s.message().c_str());
    if (!s.ok()) return;
    CHECK(mr.index >= 1 && mr.index <= caps.max_mr && mr.key >> FROCE_KEY_TAG_W == mr.index && mr.npages == 4 &&
              mr.pdn == pd && mr.iova == b.va && mr.length == b.len && !h.mr_index_free(mr.index),
          "REG_MR: key %#x (index %u), %u pages", mr.key, mr.index, mr.npages);
    const Mr stale = mr;
    CHECK_OK(h.dereg_mr(&mr));
    CHECK(h.mr_index_free(stale.index), "index %u free again after DEREG_MR", stale.index);
    Mr again = stale;
    s = h.dereg_mr(&again);
    CHECK(!s.ok() && h.mailbox()->last_status() == FROCE_CMD_STATUS_BAD_RESOURCE,
          "DEREG_MR of the deregistered key: BAD_RESOURCE (%s)", s.message().c_str());
    Mr at;
    CHECK_OK(h.reg_mr_at(stale.index, pd, b.va, b.len, FROCE_ACCESS_LOCAL_WRITE, &at));
    CHECK(at.index == stale.index && at.key != stale.key, "reg_mr_at index %u: key %#x after %#x", at.index, at.key,
          stale.key);
    Cq *cq = nullptr;
    CHECK_OK(h.create_cq(6, pd, &cq));
    Qp *qp = nullptr;
    if (cq) CHECK_OK(h.create_qp(pd, QpCaps(), cq, cq, &qp));
    if (qp) {
        CHECK(qp->uar == uint32_t(h.pd_uar(pd)) && cq->uar == qp->uar && qp->sq_slot != qp->rq_slot,
              "QP and CQ ring on their PD's UAR page");
        CHECK_OK(h.modify_qp_init(qp, FROCE_ACCESS_REMOTE_WRITE));
        Path p;
        p.dgid = Gid::ipv4(10, 0, 0, 2);
        p.dmac = 0x020000000002ull;
        CHECK_OK(h.modify_qp_rtr(qp, p, 0x123, 0x1000, FROCE_MTU_1024));
        CHECK_OK(h.modify_qp_rts(qp, 0x2000));
        QpAttr a;
        CHECK_OK(h.query_qp(qp, &a));
        CHECK(a.state == FROCE_QP_STATE_RTS && a.dest_qpn == 0x123 && a.rq_psn == 0x1000 && a.sq_psn == 0x2000 &&
                  a.path_mtu == FROCE_MTU_1024 && a.access == FROCE_ACCESS_REMOTE_WRITE &&
                  a.max_rd_atomic == caps.max_qp_init_rd_atom && a.max_dest_rd_atomic == caps.max_qp_rd_atom &&
                  a.av.dmac == p.dmac && !std::memcmp(a.av.dgid, p.dgid.raw, 16),
              "QUERY_QP after RTS: the attributes the host sent");
    }
    std::vector<uint64_t> cnt;
    CHECK_OK(h.query_counters(&cnt));
    CHECK(cnt.size() == FROCE_CNT_NUM, "QUERY_COUNTERS: %zu counters", cnt.size());
    std::printf("%s", h.mailbox()->stats_str().c_str());
}

}  // namespace

int main(int argc, char **argv) {
    bool core = false;
    uint64_t seed = 1;
    std::string dir = "build/sim/core";
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--core") core = true;
        else if (a == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 0);
        else if (a == "--keep" && i + 1 < argc) dir = argv[++i];
        else {
            std::fprintf(stderr, "usage: froce-sim-selftest [--core] [--seed N] [--keep DIR]\n");
            return 2;
        }
    }
    mkdir(dir.c_str(), 0777);
    if (core) {
        test_core(seed);
    } else {
        test_ctl(seed);
        test_mem(seed);
        test_wqe(seed);
        test_wire(dir);
        test_sim();
        test_mbox_transport();
    }
    if (g_fail) {
        std::printf("FAIL: %d of %d checks failed%s\n", g_fail, g_checks, core ? " (core section)" : "");
        return 1;
    }
    std::printf("PASS: %d checks%s\n", g_checks, core ? " (core section)" : "");
    return 0;
}
