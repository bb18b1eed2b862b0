// SPDX-License-Identifier: MIT
// froce-mbox-selftest: the driver's command layer (mailbox.cpp) against the
// real firmware command handlers (firmware/src/*.c), natively, no RTL.
//
// The firmware runs on firmware/tests/model_hal.c (software model of the
// hardware behind fw_hal.h: control-bus tables with the RTL's staging rules,
// sparse host memory, the mailbox registers). The transport here does what
// BAR0 CMD_DOORBELL does: it latches {TOKEN} and CMD_ADDR in the model's
// mailbox registers and lets the firmware's main loop run once
// (fw_run_once -> hal_mbox_poll -> fw_mbox_service). After every command the
// firmware's bookkeeping is checked against the model's tables
// (check_consistency), and a refused command must have changed nothing
// (snapshot_diff).
//
// The cases drive the sequences the in-process Host sends (the driver policy
// of mailbox.h: ring_pages, qp_to_init, qp_rc_to_rtr, ...) and assert on the
// decoded outputs and on the contexts the firmware wrote into the model:
// QUERY_FW/CAPS/PORT, SET_PORT, ADD/DEL/QUERY_GID, ALLOC_PD, CREATE_EQ,
// CREATE_CQ (CONTIG and LIST rings), CREATE_QP, RC RESET -> INIT -> RTR ->
// RTS and UD INIT -> RTR -> RTS with QUERY_QP, REG_MR 1 MiB over LIST and
// LIST2 (and 4 MiB over a three-list LIST2, 2 MiB pages CONTIG), DEREG_MR,
// QUERY_COUNTERS with CLEAR, and refusals: unknown opcode, header token,
// short IN_LEN, stale key, foreign PD, busy CQ, illegal transition, encoder
// range checks; the per-opcode statistics; teardown to an empty firmware.
//
// Prints "PASS: N checks" or the failures and "FAIL: ..."; exit 1 on failure.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hwfield.h"
#include "mailbox.h"

extern "C" {
#include "check.h"
#include "model_hal.h"
}

using namespace froce_sim;

namespace {

int g_fail = 0, g_checks = 0;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        g_checks++;                                                       \
        if (!(cond)) {                                                    \
            g_fail++;                                                     \
            std::printf("  check failed (%s:%d): ", __FILE__, __LINE__);  \
            std::printf(__VA_ARGS__);                                     \
            std::printf("\n");                                            \
        }                                                                 \
    } while (0)
#define CHECK_OK(expr)                                                                      \
    do {                                                                                    \
        Status _s = (expr);                                                                 \
        CHECK(_s.ok(), "%s: %s", #expr, _s.message().c_str());                              \
    } while (0)
#define CHECK_EQ(a, b)                                                                                        \
    CHECK(uint64_t(a) == uint64_t(b), "%s = %#" PRIx64 ", expected %s = %#" PRIx64, #a, uint64_t(a), #b,     \
          uint64_t(b))

// ---- host memory of the model ------------------------------------------------

class ModelMem : public MboxMem {
public:
    Status dma_write(uint64_t pa, const void *src, size_t n) override {
        model_write(pa, src, n);   // aborts on an unmapped page
        return Status();
    }
    Status dma_read(uint64_t pa, void *dst, size_t n) override {
        model_read(pa, dst, n);
        return Status();
    }
    Status dma_page(uint64_t *pa) override {
        *pa = next_;
        model_map(next_, 4096);
        next_ += 2 * 4096;   // an unmapped page between any two
        pages_++;
        return Status();
    }
    // ring pages the firmware never reads, mapped anyway (descending, not contiguous)
    uint64_t ring_page() {
        ring_ -= 2 * 4096;
        model_map(ring_, 4096);
        return ring_;
    }
    unsigned pages_ = 0;

private:
    uint64_t next_ = 0x300000000ull;
    uint64_t ring_ = 0x3F0000000ull;
};

// ---- the BAR0 CMD_* block of the model ------------------------------------------

class ModelTransport : public MboxTransport {
public:
    Status start(uint64_t block_pa) override {
        if (!M.ready) return errorf("model: DEV_STATUS.READY not set");
        block_ = block_pa;
        return Status();
    }
    Status run(uint16_t token, const std::string &what, uint64_t *cycles) override {
        snapshot *snap = snapshot_take();
        const uint64_t ops = M.ctl_writes + M.ctl_reads + M.dma_reads + M.dma_writes;
        // CMD_DOORBELL: the value and CMD_ADDR latched, PENDING set
        M.db_pending = true;
        M.db_value = uint32_t(token) << FROCE_REG_CMD_DOORBELL_TOKEN_SHIFT;
        M.db_block = block_;
        fw_run_once();
        Status s;
        if (M.db_pending) s = errorf("%s: the firmware did not take the doorbell", what.c_str());
        const uint32_t cs = M.cmd_status;
        if (s.ok() && (FROCE_FIELD_GET(FROCE_REG_CMD_STATUS_BUSY, cs) || FROCE_FIELD_GET(FROCE_REG_CMD_STATUS_TOKEN, cs) != token))
            s = errorf("%s: CMD_STATUS %#x after the command (BUSY or another token)", what.c_str(), cs);
        uint8_t hdr[16];
        model_read(block_, hdr, sizeof hdr);
        const uint32_t st = FGET_DW(hdr, FROCE_MBOX_HDR_STATUS);
        if (s.ok() && FROCE_FIELD_GET(FROCE_REG_CMD_STATUS_STATUS, cs) != st)
            s = errorf("%s: CMD_STATUS.STATUS %#x, block STATUS %#x", what.c_str(), unsigned(FROCE_FIELD_GET(FROCE_REG_CMD_STATUS_STATUS, cs)), st);
        const char *inc = check_consistency();
        if (s.ok() && inc) s = errorf("%s: firmware bookkeeping inconsistent afterwards: %s", what.c_str(), inc);
        if (st != FROCE_CMD_STATUS_OK) {
            const char *d = snapshot_diff(snap);
            if (s.ok() && d) s = errorf("%s: refused (%s) yet changed state: %s", what.c_str(),
                                        cmd_status_name(uint8_t(st)).c_str(), d);
        }
        snapshot_free(snap);
        // no clock in the model: the cost is the control-bus accesses and DMA transfers
        if (cycles) *cycles = M.ctl_writes + M.ctl_reads + M.dma_reads + M.dma_writes - ops;
        return s;
    }

private:
    uint64_t block_ = 0;
};

// The platform: froce_core's default sizes, the arena the RV32 image leaves
// in a 64 KiB RAM (firmware/README.md: 41888 bytes).
model_cfg platform() {
    model_cfg c{};
    c.num_qps = 256;
    c.num_cqs = 256;
    c.num_eqs = 8;
    c.num_gids = 16;
    c.num_uars = 256;
    c.num_vectors = 32;
    c.num_pds = 256;
    c.rd_atomic_max = 8;
    c.num_mrs = 1024;
    c.num_mtt = 65536;
    c.arena_bytes = 41888;
    c.perm_mac = 0x02AABBCCDD01ull;
    c.link_status = FROCE_REG_LINK_STATUS_UP_MASK | 10u << FROCE_REG_LINK_STATUS_SPEED_GBPS_SHIFT;
    return c;
}

const uint8_t *qpc_of(uint32_t qpn) { return M.qpc + size_t(qpn) * FROCE_QPC_SIZE; }
const uint8_t *mr_of(uint32_t key) { return M.mr + size_t(key >> FROCE_KEY_TAG_W) * FROCE_MR_CTX_SIZE; }
uint64_t mtt_at(uint32_t j) { return t_ld64(M.mtt + 8 * size_t(j)); }

// The MR behind `key`: MR_CTX fields and its MTT entries.
void check_mr_ctx(const char *what, uint32_t key, uint32_t pdn, uint32_t access, unsigned shift, uint64_t iova,
                  uint64_t len, const std::vector<uint64_t> &pages) {
    const uint8_t *e = mr_of(key);
    CHECK(FGET_DW(e, FROCE_MR_CTX_VALID) == 1, "%s: MR_CTX.VALID", what);
    CHECK(FGET_DW(e, FROCE_MR_CTX_PDN) == pdn, "%s: MR_CTX.PDN %u, expected %u", what, FGET_DW(e, FROCE_MR_CTX_PDN), pdn);
    CHECK(FGET_DW(e, FROCE_MR_CTX_TAG) == (key & 0xFF), "%s: MR_CTX.TAG", what);
    CHECK(FGET_DW(e, FROCE_MR_CTX_ACCESS) == access, "%s: MR_CTX.ACCESS %#x", what, FGET_DW(e, FROCE_MR_CTX_ACCESS));
    CHECK(FGET_DW(e, FROCE_MR_CTX_PAGE_SHIFT) == shift, "%s: MR_CTX.PAGE_SHIFT %u", what, FGET_DW(e, FROCE_MR_CTX_PAGE_SHIFT));
    CHECK(FGET_QW(e, FROCE_MR_CTX_IOVA) == iova, "%s: MR_CTX.IOVA %#" PRIx64, what, FGET_QW(e, FROCE_MR_CTX_IOVA));
    CHECK(FGET_QW(e, FROCE_MR_CTX_LENGTH) == len, "%s: MR_CTX.LENGTH %#" PRIx64, what, FGET_QW(e, FROCE_MR_CTX_LENGTH));
    const uint32_t base = FGET_DW(e, FROCE_MR_CTX_MTT_BASE);
    unsigned bad = 0;
    for (size_t i = 0; i < pages.size(); i++)
        if (mtt_at(base + uint32_t(i)) != pages[i] && !bad++)
            CHECK(false, "%s: MTT entry %zu is %#" PRIx64 ", page %#" PRIx64, what, i, mtt_at(base + uint32_t(i)), pages[i]);
    CHECK(bad == 0, "%s: %u of %zu MTT entries differ", what, bad, pages.size());
}

// Pages of an MR of `len` bytes at IOVA `iova` in 2^shift pages (made-up
// addresses: the firmware never reads MR pages), descending and spread.
std::vector<uint64_t> mr_pages(uint64_t iova, uint64_t len, unsigned shift) {
    const uint64_t n = ((iova + len - 1) >> shift) - (iova >> shift) + 1;
    std::vector<uint64_t> v;
    for (uint64_t i = 0; i < n; i++) v.push_back(0x4000000000ull + ((5000 - i) << (shift + 1)));
    return v;
}

struct Rig {
    ModelMem mem;
    ModelTransport tr;
    Mailbox mb{mem, tr, "model"};
};

// ---------------------------------------------------------------------------

void test_device(Rig &r) {
    std::printf("== device: QUERY_FW, QUERY_CAPS, QUERY_PORT, SET_PORT\n");
    FwInfo fi;
    CHECK_OK(r.mb.query_fw(&fi));
    CHECK(fi.major == FW_VERSION_MAJOR && fi.minor == FW_VERSION_MINOR && fi.patch == FW_VERSION_PATCH,
          "QUERY_FW version %u.%u.%u", fi.major, fi.minor, fi.patch);
    CHECK_EQ(fi.spec_hash, FROCE_HW_SPEC_HASH);
    FwCaps c;
    CHECK_OK(r.mb.query_caps(&c));
    // firmware/README.md: 41888 bytes of arena give 128 QPs, 128 CQs, 512 MRs, 32768 MTT entries
    CHECK_EQ(c.max_qp, 127);
    CHECK_EQ(c.max_cq, 128);
    CHECK_EQ(c.max_pd, 255);
    CHECK_EQ(c.max_mr, 511);
    CHECK_EQ(c.max_mtt, 32768);
    CHECK_EQ(c.max_cqe, 65536);
    CHECK_EQ(c.max_qp_wr, 32768);
    CHECK_EQ(c.max_eq, 8);
    CHECK_EQ(c.num_gid, 16);
    CHECK_EQ(c.max_qp_rd_atom, 8);
    CHECK_EQ(c.max_qp_init_rd_atom, 8);
    CHECK_EQ(c.max_mtu, FROCE_MTU_4096);
    CHECK_EQ(c.num_ports, 1);
    CHECK_EQ(c.max_uar, 256);
    CHECK_EQ(c.local_dma_lkey, 0);
    CHECK_EQ(c.page_size_cap, 0x3FF000u);   // page shifts 12..21
    CHECK_EQ(c.max_mr_size, uint64_t(32768) << 21);
    CHECK(c.max_send_sge > 0 && c.max_recv_sge > 0 && c.max_inline > 0 && c.max_msg_sz == 0x80000000u,
          "SGE/inline/message caps %u %u %u %#x", c.max_send_sge, c.max_recv_sge, c.max_inline, c.max_msg_sz);
    PortInfo p;
    CHECK_OK(r.mb.query_port(&p));
    CHECK(p.state == FROCE_PORT_STATE_ACTIVE && p.speed_gbps == 10 && p.mtu == 1500 && p.active_mtu == FROCE_MTU_1024 &&
              p.max_mtu == FROCE_MTU_4096 && p.mac == 0x02AABBCCDD01ull,
          "QUERY_PORT state %u speed %u mtu %u active %u max %u mac %#" PRIx64, p.state, p.speed_gbps, p.mtu, p.active_mtu,
          p.max_mtu, p.mac);
    CHECK_EQ(ib_mtu_of_eth(1500), FROCE_MTU_1024);
    // SET_PORT to the Ethernet MTU of each ib_mtu: QUERY_PORT shows it back
    for (uint32_t m = FROCE_MTU_256; m <= FROCE_MTU_4096; m++) {
        PortSet ps;
        ps.mtu = eth_mtu_for(m);
        ps.mac = 0x02AABBCCDD77ull;
        ps.promisc = m == FROCE_MTU_512;
        CHECK_OK(r.mb.set_port(ps));
        CHECK_OK(r.mb.query_port(&p));
        CHECK(p.active_mtu == m && p.mtu == ps.mtu && p.mac == ps.mac, "SET_PORT MTU %u: active_mtu %u mtu %u", ps.mtu,
              p.active_mtu, p.mtu);
        CHECK(M.port_mtu == ps.mtu && M.port_mac == ps.mac && M.port_promisc == ps.promisc, "hal_port_set got it");
        ps.mtu = eth_mtu_for(m) - 1;   // one byte less: the next smaller ib_mtu
        if (m > FROCE_MTU_256 && ps.mtu >= 68) {
            CHECK_OK(r.mb.set_port(ps));
            CHECK_OK(r.mb.query_port(&p));
            CHECK(p.active_mtu == m - 1, "Ethernet MTU %u: active_mtu %u, expected %u", ps.mtu, p.active_mtu, m - 1);
        }
    }
    PortSet back;
    back.mac = 0x02AABBCCDD01ull;
    CHECK_OK(r.mb.set_port(back));
    PortSet bad = back;
    bad.mac = 0x03AABBCCDD01ull;   // multicast
    Status s = r.mb.set_port(bad);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_PARAM &&
              s.message().find("SET_PORT: BAD_PARAM") != std::string::npos && s.message().find("(MAC)") != std::string::npos,
          "SET_PORT with a multicast MAC: %s", s.message().c_str());
    CHECK_OK(r.mb.nop());
}

void test_gids(Rig &r) {
    std::printf("== GIDs: ADD_GID, QUERY_GID, DEL_GID\n");
    GidEntry g;
    g.index = 0;
    g.type = FROCE_GID_TYPE_ROCE_V2;
    g.smac = 0x020000000001ull;
    const uint8_t v4[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1};
    std::memcpy(g.gid, v4, 16);
    CHECK_OK(r.mb.add_gid(g));
    GidEntry g6 = g;
    g6.index = 3;
    g6.vlan_en = true;
    g6.vlan_id = 0x123;
    const uint8_t v6[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xb};
    std::memcpy(g6.gid, v6, 16);
    CHECK_OK(r.mb.add_gid(g6));
    for (const GidEntry *w : {&g, &g6}) {
        GidEntry q;
        CHECK_OK(r.mb.query_gid(w->index, &q));
        CHECK(q.valid && q.index == w->index && q.type == w->type && q.vlan_en == w->vlan_en && q.vlan_id == w->vlan_id &&
                  q.smac == w->smac && !std::memcmp(q.gid, w->gid, 16),
              "QUERY_GID %u decodes what ADD_GID sent", w->index);
        const uint8_t *ctx = M.gid + size_t(w->index) * FROCE_GID_CTX_SIZE;
        CHECK(FGET_DW(ctx, FROCE_GID_CTX_VALID) && FGET_DW(ctx, FROCE_GID_CTX_TYPE) == w->type &&
                  FGET_DW(ctx, FROCE_GID_CTX_VLAN_EN) == w->vlan_en && FGET_DW(ctx, FROCE_GID_CTX_VLAN_ID) == w->vlan_id &&
                  FGET_QW(ctx, FROCE_GID_CTX_SMAC) == w->smac &&
                  !std::memcmp(ctx + FROCE_GID_CTX_GID_BYTE, w->gid, 16),
              "GID_CTX %u in the engine's table", w->index);
    }
    CHECK_OK(r.mb.del_gid(3));
    GidEntry q;
    CHECK_OK(r.mb.query_gid(3, &q));
    CHECK(!q.valid, "GID 3 invalid after DEL_GID");
    Status s = r.mb.del_gid(3);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_RES_STATE, "DEL_GID of an empty entry: %s",
          s.message().c_str());
    g.index = 16;
    s = r.mb.add_gid(g);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_INDEX && r.mb.last_syndrome() == 0,
          "ADD_GID beyond the table: %s", s.message().c_str());
    g.index = 1;   // the IPv6 GID again at 1, for the UD QP's kind check below
    std::memcpy(g.gid, v6, 16);
    CHECK_OK(r.mb.add_gid(g));
}

struct Objs {
    uint32_t pd1 = 0, pd2 = 0, eq1 = 0, cq_s = 0, cq_r = 0, cq_other = 0, qp_rc = 0, qp_ud = 0;
    std::vector<uint64_t> rcq_pages, sq_pages, rq_pages;
};

void test_resources(Rig &r, Objs &o) {
    std::printf("== PDs, EQ, CQs: ALLOC_PD, CREATE_EQ, CREATE_CQ (CONTIG and LIST rings)\n");
    CHECK_OK(r.mb.alloc_pd(1, &o.pd1));
    CHECK_OK(r.mb.alloc_pd(2, &o.pd2));
    CHECK(o.pd1 == 1 && o.pd2 == 2, "PDNs %u %u (first free from 1; 0 is the rings')", o.pd1, o.pd2);
    // EQ 1: a contiguous ring of 64 EQEs (one page)
    const uint64_t eq_ring = r.mem.ring_page();
    BufDesc eb;
    CHECK_OK(r.mb.make_buf({eq_ring}, 12, BufPolicy::AUTO, &eb));
    CHECK(eb.level == FROCE_BUF_LEVEL_CONTIG && eb.addr == eq_ring && eb.num_pages == ring_pages(16u << 6),
          "EQ ring BUF: level %u pages %u", eb.level, eb.num_pages);
    CHECK_OK(r.mb.create_eq(eb, 6, 3, &o.eq1));
    CHECK_EQ(o.eq1, 1);
    const uint8_t *eqc = M.eqc + size_t(o.eq1) * FROCE_EQC_SIZE;
    CHECK(FGET_DW(eqc, FROCE_EQC_VALID) && FGET_DW(eqc, FROCE_EQC_LOG_SIZE) == 6 && FGET_DW(eqc, FROCE_EQC_VECTOR) == 3 &&
              FGET_QW(eqc, FROCE_EQC_ADDR) == eq_ring,
          "EQC 1: valid, log 6, vector 3, ring address");
    // the send CQ: 32 CQEs, one page, CONTIG; the receive CQ: 256 CQEs over 2 pages, LIST
    BufDesc cb;
    const uint64_t s_page = r.mem.ring_page();
    CHECK_OK(r.mb.make_buf({s_page}, 12, BufPolicy::AUTO, &cb));
    CHECK_OK(r.mb.create_cq(cb, 5, 0, 1, &o.cq_s));
    for (uint32_t i = 0; i < ring_pages(32u << 8); i++) o.rcq_pages.push_back(r.mem.ring_page());
    CHECK_EQ(o.rcq_pages.size(), 2);
    CHECK_OK(r.mb.make_buf(o.rcq_pages, 12, BufPolicy::AUTO, &cb));
    CHECK(cb.level == FROCE_BUF_LEVEL_LIST && cb.num_pages == 2, "receive CQ ring BUF: LIST of 2 (level %u)", cb.level);
    CHECK_OK(r.mb.create_cq(cb, 8, o.eq1, 1, &o.cq_r));
    CHECK_OK(r.mb.make_buf({r.mem.ring_page()}, 12, BufPolicy::AUTO, &cb));
    CHECK_OK(r.mb.create_cq(cb, 5, 0, 2, &o.cq_other));   // another user context's CQ
    CHECK(o.cq_s == 0 && o.cq_r == 1 && o.cq_other == 2, "CQNs %u %u %u (first free from 0)", o.cq_s, o.cq_r, o.cq_other);
    const uint8_t *cqc = M.cqc + size_t(o.cq_r) * FROCE_CQC_SIZE;
    CHECK(FGET_DW(cqc, FROCE_CQC_VALID) && FGET_DW(cqc, FROCE_CQC_LOG_SIZE) == 8 && FGET_DW(cqc, FROCE_CQC_EQN) == o.eq1 &&
              FGET_DW(cqc, FROCE_CQC_UAR) == 1 && FGET_DW(cqc, FROCE_CQC_PDN) == 0 && FGET_QW(cqc, FROCE_CQC_VA) == 0,
          "CQC of the receive CQ: log 8, EQ 1, UAR 1, ring MR in PD 0 at IOVA 0");
    const uint32_t rkey = FGET_DW(cqc, FROCE_CQC_RING_KEY);
    check_mr_ctx("receive CQ ring MR", rkey, 0, FROCE_ACCESS_LOCAL_WRITE, 12, 0, 32u << 8, o.rcq_pages);
    CHECK_EQ(M.n_eqes, 0);   // no EQE without CMD_DOORBELL.EVENT
}

// The RC QP: 64 SQ WQEs of 128 bytes (2 pages), 32 RQ WQEs of 64 bytes (1 page).
void test_qp_rc(Rig &r, Objs &o) {
    std::printf("== RC QP: CREATE_QP (LIST rings), RESET -> INIT -> RTR -> RTS, QUERY_QP\n");
    CreateQpIn q;
    q.type = FROCE_QP_TYPE_RC;
    q.sig_all = true;
    q.pdn = o.pd1;
    q.send_cqn = o.cq_s;
    q.recv_cqn = o.cq_r;
    q.uar = 1;
    q.log_sq_size = 6;
    q.sq_wqe_shift = 7;
    q.log_rq_size = 5;
    q.rq_wqe_shift = 6;
    const uint32_t nsq = ring_pages(uint64_t(1) << 13), nrq = ring_pages(uint64_t(1) << 11);
    CHECK(nsq == 2 && nrq == 1, "ring pages %u %u", nsq, nrq);
    for (uint32_t i = 0; i < nsq; i++) o.sq_pages.push_back(r.mem.ring_page());
    for (uint32_t i = 0; i < nrq; i++) o.rq_pages.push_back(r.mem.ring_page());
    CHECK_OK(r.mb.make_buf(o.sq_pages, 12, BufPolicy::AUTO, &q.sq_buf));
    CHECK_OK(r.mb.make_buf(o.rq_pages, 12, BufPolicy::LIST, &q.rq_buf));   // one page, as a LIST
    CHECK(q.sq_buf.level == FROCE_BUF_LEVEL_LIST && q.rq_buf.level == FROCE_BUF_LEVEL_LIST && q.sq_buf.addr != q.rq_buf.addr,
          "two LIST BUFs in one command use different list pages");
    // a PD of another user context: refused, nothing changes
    CreateQpIn foreign = q;
    foreign.pdn = o.pd2;
    uint32_t qpn = 0;
    Status s = r.mb.create_qp(foreign, &qpn);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_RESOURCE &&
              r.mb.last_syndrome() == 4 * FROCE_CMD_CREATE_QP_IN_PDN_DW &&
              s.message().find("CREATE_QP: BAD_RESOURCE") != std::string::npos &&
              s.message().find("input byte 4 (PDN)") != std::string::npos,
          "CREATE_QP with another context's PD: %s", s.message().c_str());
    foreign = q;
    foreign.recv_cqn = o.cq_other;
    s = r.mb.create_qp(foreign, &qpn);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_RESOURCE &&
              s.message().find("(RECV_CQN)") != std::string::npos,
          "CREATE_QP with another context's CQ: %s", s.message().c_str());
    CHECK_OK(r.mb.create_qp(q, &o.qp_rc));
    CHECK_EQ(o.qp_rc, 2);   // QPN 0 unused, 1 is the GSI QP's
    const uint8_t *c = qpc_of(o.qp_rc);
    CHECK(FGET_DW(c, FROCE_QPC_STATE) == FROCE_QP_STATE_RESET && FGET_DW(c, FROCE_QPC_TYPE) == FROCE_QP_TYPE_RC &&
              FGET_DW(c, FROCE_QPC_SIG_ALL) == 1 && FGET_DW(c, FROCE_QPC_PDN) == o.pd1 &&
              FGET_DW(c, FROCE_QPC_SCQN) == o.cq_s && FGET_DW(c, FROCE_QPC_RCQN) == o.cq_r &&
              FGET_DW(c, FROCE_QPC_SQ_LOG_SIZE) == 6 && FGET_DW(c, FROCE_QPC_SQ_WQE_SHIFT) == 7 &&
              FGET_DW(c, FROCE_QPC_RQ_LOG_SIZE) == 5 && FGET_DW(c, FROCE_QPC_RQ_WQE_SHIFT) == 6 &&
              FGET_DW(c, FROCE_QPC_UAR) == 1 && FGET_QW(c, FROCE_QPC_SQ_VA) == 0 &&
              FGET_QW(c, FROCE_QPC_RQ_VA) == uint64_t(nsq) << 12,
          "QPC after CREATE_QP: what CreateQpIn said; SQ at IOVA 0, RQ on the page after the SQ");
    CHECK_EQ(M.qpc_load[o.qp_rc], FROCE_QPC_LOAD_RESET_MASK);
    std::vector<uint64_t> ring = o.sq_pages;
    ring.insert(ring.end(), o.rq_pages.begin(), o.rq_pages.end());
    check_mr_ctx("QP ring MR", FGET_DW(c, FROCE_QPC_RING_KEY), o.pd1, FROCE_ACCESS_LOCAL_WRITE, 12, 0,
                 (uint64_t(nsq) << 12) + (uint64_t(1) << 11), ring);

    // an illegal transition: RESET -> RTS
    s = r.mb.modify_qp(o.qp_rc, qp_rc_to_rts(1, 14, 7, 7, 8));
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_QP_STATE &&
              s.message().find("(ATTR_MASK)") != std::string::npos,
          "RESET -> RTS: %s", s.message().c_str());

    const uint32_t access = FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ |
                            FROCE_ACCESS_REMOTE_ATOMIC;
    CHECK_OK(r.mb.modify_qp(o.qp_rc, qp_to_init(FROCE_QP_TYPE_RC, access, 0)));
    CHECK(FGET_DW(c, FROCE_QPC_STATE) == FROCE_QP_STATE_INIT && FGET_DW(c, FROCE_QPC_ACCESS) == access,
          "QPC after INIT: state, access");
    CHECK_EQ(M.qpc_load[o.qp_rc], 0);
    AvAttr av;
    av.sgid_index = 0;
    av.hop_limit = 64;
    av.tclass = 0x28;
    av.net_type = FROCE_KIND_ROCE_V2_IPV4;
    av.flow_label = 0xABCDE;
    av.udp_sport = 0xC002;
    av.dmac = 0x020000000002ull;
    const uint8_t dgid[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 2};
    std::memcpy(av.dgid, dgid, 16);
    // an IPv6 kind on the IPv4 GID: refused, syndrome the NET_TYPE field
    AvAttr av6 = av;
    av6.net_type = FROCE_KIND_ROCE_V2_IPV6;
    s = r.mb.modify_qp(o.qp_rc, qp_rc_to_rtr(av6, FROCE_MTU_4096, 0x1234, 0x55, 1, 8));
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_PARAM && s.message().find("AV_NET_TYPE") != std::string::npos,
          "RTR with an AV whose kind does not match the SGID: %s", s.message().c_str());
    s = r.mb.modify_qp(o.qp_rc, qp_rc_to_rtr(av, FROCE_MTU_4096, 0x1234, 0x55, 1, 16));
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_PARAM &&
              s.message().find("MAX_DEST_RD_ATOMIC") != std::string::npos,
          "RTR with max_dest_rd_atomic 16 > RD_ATOMIC_MAX 8: %s", s.message().c_str());
    CHECK_OK(r.mb.modify_qp(o.qp_rc, qp_rc_to_rtr(av, FROCE_MTU_4096, 0x1234, 0x55, 1, 8)));
    CHECK(FGET_DW(c, FROCE_QPC_STATE) == FROCE_QP_STATE_RTR && FGET_DW(c, FROCE_QPC_PATH_MTU) == FROCE_MTU_4096 &&
              FGET_DW(c, FROCE_QPC_DEST_QPN) == 0x1234 && FGET_DW(c, FROCE_QPC_RQ_PSN) == 0x55 &&
              FGET_DW(c, FROCE_QPC_MIN_RNR_TIMER) == 1 && FGET_DW(c, FROCE_QPC_MAX_DEST_RD_ATOMIC) == 8 &&
              FGET_DW(c, FROCE_QPC_AV_TCLASS) == 0x28 && FGET_DW(c, FROCE_QPC_AV_FLOW_LABEL) == 0xABCDE &&
              FGET_DW(c, FROCE_QPC_AV_UDP_SPORT) == 0xC002 && FGET_DW(c, FROCE_QPC_AV_HOP_LIMIT) == 64 &&
              FGET_DW(c, FROCE_QPC_AV_NET_TYPE) == FROCE_KIND_ROCE_V2_IPV4 &&
              FGET_QW(c, FROCE_QPC_AV_DMAC) == 0x020000000002ull && !std::memcmp(c + FROCE_QPC_AV_DGID_BYTE, dgid, 16),
          "QPC after RTR: path, PSN, AV");
    CHECK_EQ(M.qpc_load[o.qp_rc], FROCE_QPC_LOAD_RQ_PSN_MASK);
    CHECK_OK(r.mb.modify_qp(o.qp_rc, qp_rc_to_rts(0xFFFFFC, 14, 7, 6, 8)));
    CHECK(FGET_DW(c, FROCE_QPC_STATE) == FROCE_QP_STATE_RTS && FGET_DW(c, FROCE_QPC_SQ_PSN) == 0xFFFFFC &&
              FGET_DW(c, FROCE_QPC_TIMEOUT) == 14 && FGET_DW(c, FROCE_QPC_RETRY_CNT) == 7 &&
              FGET_DW(c, FROCE_QPC_RNR_RETRY) == 6 && FGET_DW(c, FROCE_QPC_MAX_RD_ATOMIC) == 8,
          "QPC after RTS: PSN, timers, depth");
    CHECK_EQ(M.qpc_load[o.qp_rc], FROCE_QPC_LOAD_SQ_PSN_MASK);
    QpAttr a;
    CHECK_OK(r.mb.query_qp(o.qp_rc, &a));
    CHECK(a.state == FROCE_QP_STATE_RTS && a.cur_state == FROCE_QP_STATE_RTS && a.path_mtu == FROCE_MTU_4096 &&
              a.access == access && a.port == 1 && a.rq_psn == 0x55 && a.sq_psn == 0xFFFFFC && a.timeout == 14 &&
              a.retry_cnt == 7 && a.rnr_retry == 6 && a.dest_qpn == 0x1234 && a.min_rnr_timer == 1 &&
              a.max_rd_atomic == 8 && a.max_dest_rd_atomic == 8 && a.pkey_index == 0 && a.av.tclass == 0x28 &&
              a.av.flow_label == 0xABCDE && a.av.udp_sport == 0xC002 && a.av.dmac == av.dmac &&
              a.av.net_type == FROCE_KIND_ROCE_V2_IPV4 && !std::memcmp(a.av.dgid, dgid, 16) && !a.sq_draining,
          "QUERY_QP decodes the attributes sent");
    // the CQs are in use now
    s = r.mb.destroy_cq(o.cq_r);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_RESOURCE_BUSY && s.message().find("(CQN)") != std::string::npos,
          "DESTROY_CQ of a CQ with a QP: %s", s.message().c_str());
    // encoder range checks: never reach the firmware
    const uint64_t before = r.mb.stats().count(FROCE_CMD_CREATE_QP) ? r.mb.stats().at(FROCE_CMD_CREATE_QP).count : 0;
    CreateQpIn big = q;
    big.pdn = 1u << 24;
    s = r.mb.create_qp(big, &qpn);
    CHECK(!s.ok() && s.message().find("PDN = 0x1000000 does not fit") != std::string::npos, "PDN 2^24: %s",
          s.message().c_str());
    QpAttr wide = qp_rc_to_rts(1u << 24, 14, 7, 7, 8);
    s = r.mb.modify_qp(o.qp_rc, wide);
    CHECK(!s.ok() && s.message().find("SQ_PSN") != std::string::npos, "SQ PSN 2^24: %s", s.message().c_str());
    CHECK_EQ(r.mb.stats().at(FROCE_CMD_CREATE_QP).count, before);
}

void test_qp_ud(Rig &r, Objs &o) {
    std::printf("== UD QP: INIT (Q_Key), RTR (the port's MTU), RTS\n");
    CreateQpIn q;
    q.type = FROCE_QP_TYPE_UD;
    q.pdn = o.pd1;
    q.send_cqn = q.recv_cqn = o.cq_s;
    q.uar = 1;
    q.log_sq_size = 4;
    q.sq_wqe_shift = 8;
    q.log_rq_size = 4;
    q.rq_wqe_shift = 6;
    std::vector<uint64_t> sq, rq;
    for (uint32_t i = 0; i < ring_pages(1u << 12); i++) sq.push_back(r.mem.ring_page());
    for (uint32_t i = 0; i < ring_pages(1u << 10); i++) rq.push_back(r.mem.ring_page());
    CHECK_OK(r.mb.make_buf(sq, 12, BufPolicy::AUTO, &q.sq_buf));
    CHECK_OK(r.mb.make_buf(rq, 12, BufPolicy::AUTO, &q.rq_buf));
    CHECK_OK(r.mb.create_qp(q, &o.qp_ud));
    CHECK_EQ(o.qp_ud, 3);
    // the Host's own Q_Key rule: bit 31 only for privileged QPs
    Status s = r.mb.modify_qp(o.qp_ud, qp_to_init(FROCE_QP_TYPE_UD, 0, 0x80000001u));
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_PARAM && s.message().find("(QKEY)") != std::string::npos,
          "a controlled Q_Key on a user QP: %s", s.message().c_str());
    CHECK_OK(r.mb.modify_qp(o.qp_ud, qp_to_init(FROCE_QP_TYPE_UD, 0, 0x1234ABCD)));
    CHECK_OK(r.mb.modify_qp(o.qp_ud, qp_ud_to_rtr()));
    CHECK_OK(r.mb.modify_qp(o.qp_ud, qp_ud_to_rts(0x42)));
    const uint8_t *c = qpc_of(o.qp_ud);
    CHECK(FGET_DW(c, FROCE_QPC_STATE) == FROCE_QP_STATE_RTS && FGET_DW(c, FROCE_QPC_TYPE) == FROCE_QP_TYPE_UD &&
              FGET_DW(c, FROCE_QPC_QKEY) == 0x1234ABCD && FGET_DW(c, FROCE_QPC_PATH_MTU) == ib_mtu_of_eth(1500) &&
              FGET_DW(c, FROCE_QPC_SQ_PSN) == 0x42 && FGET_DW(c, FROCE_QPC_ACCESS) == 0,
          "UD QPC: Q_Key, PATH_MTU from the port (%u), SQ PSN", FGET_DW(c, FROCE_QPC_PATH_MTU));
    QpAttr a;
    CHECK_OK(r.mb.query_qp(o.qp_ud, &a));
    CHECK(a.state == FROCE_QP_STATE_RTS && a.qkey == 0x1234ABCD && a.sq_psn == 0x42, "QUERY_QP of the UD QP");
    // to ERR and back to RESET
    CHECK_OK(r.mb.modify_qp(o.qp_ud, qp_to_state(FROCE_QP_STATE_ERR)));
    CHECK_EQ(FGET_DW(c, FROCE_QPC_STATE), FROCE_QP_STATE_ERR);
    CHECK_OK(r.mb.modify_qp(o.qp_ud, qp_to_state(FROCE_QP_STATE_RESET)));
    CHECK_EQ(M.qpc_load[o.qp_ud], FROCE_QPC_LOAD_RESET_MASK);
}

void test_mrs(Rig &r, Objs &o) {
    std::printf("== MRs: REG_MR 1 MiB (LIST, LIST2), 4 MiB (LIST2 of 3 lists), 2 MiB pages (CONTIG), DEREG_MR\n");
    const uint32_t acc = FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ;
    struct Case {
        const char *what;
        uint64_t iova, len;
        unsigned shift;
        BufPolicy pol;
        unsigned level, lists;
    } cases[] = {
        {"1 MiB, 4 KiB pages, LIST", 0x7f0000001234ull, 1 << 20, 12, BufPolicy::AUTO, FROCE_BUF_LEVEL_LIST, 1},
        {"1 MiB, 4 KiB pages, LIST2", 0x7f0000201000ull, 1 << 20, 12, BufPolicy::LIST2, FROCE_BUF_LEVEL_LIST2, 2},
        {"4 MiB, 4 KiB pages, LIST2 of 3 lists", 0x7f0001000800ull, 4 << 20, 12, BufPolicy::AUTO, FROCE_BUF_LEVEL_LIST2, 4},
        {"1 MiB in one 2 MiB page, CONTIG", 0x7f0004100000ull, 1 << 20, 21, BufPolicy::AUTO, FROCE_BUF_LEVEL_CONTIG, 0},
    };
    std::vector<uint32_t> keys;
    for (const Case &k : cases) {
        const std::vector<uint64_t> pages = mr_pages(k.iova, k.len, k.shift);
        const unsigned before = r.mem.pages_;
        RegMrIn in;
        in.pdn = o.pd1;
        in.access = acc;
        in.iova = k.iova;
        in.length = k.len;
        CHECK_OK(r.mb.make_buf(pages, k.shift, k.pol, &in.pbl));
        CHECK(in.pbl.level == k.level && in.pbl.num_pages == pages.size(), "%s: BUF level %u, %u pages", k.what,
              in.pbl.level, in.pbl.num_pages);
        uint32_t lkey = 0, rkey = 0;
        CHECK_OK(r.mb.reg_mr(in, &lkey, &rkey));
        CHECK(lkey == rkey && (lkey >> FROCE_KEY_TAG_W) >= 1, "%s: lkey %#x rkey %#x", k.what, lkey, rkey);
        check_mr_ctx(k.what, lkey, o.pd1, acc, k.shift, k.iova, k.len, pages);
        CHECK(r.mem.pages_ - before <= k.lists, "%s: %u new list pages (lists are reused)", k.what, r.mem.pages_ - before);
        keys.push_back(lkey);
    }
    // the same list pages serve the next command: nothing was allocated for the second 1 MiB LIST
    // the keys: lowest free index each time (the rings took the first ones), tags advance per index
    for (size_t i = 1; i < keys.size(); i++)
        CHECK((keys[i] >> 8) == (keys[0] >> 8) + i, "key %zu index %u follows %u", i, keys[i] >> 8, keys[0] >> 8);
    // DEREG, then the same index again: a new tag; the old key is stale
    const uint32_t old = keys[1];
    CHECK_OK(r.mb.dereg_mr(old));
    CHECK(FGET_DW(mr_of(old), FROCE_MR_CTX_VALID) == 0, "MR_CTX invalid after DEREG_MR");
    RegMrIn in;
    in.pdn = o.pd1;
    in.access = FROCE_ACCESS_LOCAL_WRITE;
    in.iova = 0x1000;
    in.length = 4096;
    CHECK_OK(r.mb.make_buf({0x5000000000ull}, 12, BufPolicy::AUTO, &in.pbl));
    uint32_t again = 0;
    CHECK_OK(r.mb.reg_mr(in, &again, nullptr));
    CHECK((again >> 8) == (old >> 8) && again != old && (again & 0xFF) == ((old + 1) & 0xFF),
          "re-registration at index %u: key %#x after %#x", old >> 8, again, old);
    Status s = r.mb.dereg_mr(old);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_RESOURCE && r.mb.last_syndrome() == 0 &&
              s.message().find("DEREG_MR: BAD_RESOURCE") != std::string::npos &&
              s.message().find("input byte 0 (LKEY)") != std::string::npos,
          "DEREG_MR of the stale key: %s", s.message().c_str());
    s = r.mb.dereg_mr(0);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_RESOURCE, "DEREG_MR of key 0: %s", s.message().c_str());
    // a ring MR's key is not the driver's to deregister
    s = r.mb.dereg_mr(FGET_DW(qpc_of(o.qp_rc), FROCE_QPC_RING_KEY));
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_RESOURCE, "DEREG_MR of a QP ring key: %s",
          s.message().c_str());
    // REMOTE_WRITE without LOCAL_WRITE
    in.access = FROCE_ACCESS_REMOTE_WRITE;
    CHECK_OK(r.mb.make_buf({0x5000000000ull}, 12, BufPolicy::AUTO, &in.pbl));
    s = r.mb.reg_mr(in, nullptr, nullptr);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_PARAM && s.message().find("(ACCESS)") != std::string::npos,
          "REG_MR REMOTE_WRITE without LOCAL_WRITE: %s", s.message().c_str());
    // a page count that does not match IOVA and LENGTH
    in.access = FROCE_ACCESS_LOCAL_WRITE;
    in.iova = 0x1800;   // crosses into a second page
    CHECK_OK(r.mb.make_buf({0x5000000000ull}, 12, BufPolicy::AUTO, &in.pbl));
    s = r.mb.reg_mr(in, nullptr, nullptr);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_PARAM && s.message().find("PBL_NUM_PAGES") != std::string::npos,
          "REG_MR with one page for two: %s", s.message().c_str());
    CHECK_OK(r.mb.dereg_mr(again));
    for (size_t i = 0; i < keys.size(); i++)
        if (i != 1) CHECK_OK(r.mb.dereg_mr(keys[i]));
}

void test_counters(Rig &r) {
    std::printf("== QUERY_COUNTERS (CLEAR moves the baseline)\n");
    for (unsigned i = 0; i < FROCE_CNT_NUM; i++) M.counters[i] = 0x100000000ull * i + 1000 + i;
    std::vector<uint64_t> v;
    CHECK_OK(r.mb.query_counters(false, &v));
    bool same = v.size() == FROCE_CNT_NUM;
    for (unsigned i = 0; same && i < FROCE_CNT_NUM; i++) same = v[i] == M.counters[i];
    CHECK(same, "QUERY_COUNTERS: every counter as the engine has it");
    CHECK_OK(r.mb.query_counters(true, &v));
    M.counters[FROCE_CNT_SENT_PKTS] += 5;
    M.counters[FROCE_CNT_DOORBELL_DROPPED] += 2;
    CHECK_OK(r.mb.query_counters(false, &v));
    bool cleared = true;
    for (unsigned i = 0; i < FROCE_CNT_NUM; i++)
        cleared &= v[i] == (i == FROCE_CNT_SENT_PKTS ? 5u : i == FROCE_CNT_DOORBELL_DROPPED ? 2u : 0u);
    CHECK(cleared, "after CLEAR: only what moved since (SENT_PKTS %" PRIu64 ", DOORBELL_DROPPED %" PRIu64 ")",
          v[FROCE_CNT_SENT_PKTS], v[FROCE_CNT_DOORBELL_DROPPED]);
}

void test_header(Rig &r) {
    std::printf("== header refusals: unknown opcode, token, IN_LEN, OUT_LEN\n");
    uint8_t st = 0;
    uint32_t syn = 0;
    std::vector<uint8_t> out;
    CHECK_OK(r.mb.exec_raw(0x7777, {}, 0, &out, &st, &syn));
    CHECK(st == FROCE_CMD_STATUS_BAD_OPCODE && syn == 0x80000000u, "opcode 0x7777: status %#x syndrome %#x", st, syn);
    CHECK(syndrome_str(0x7777, st, syn) == "header byte 0 (OPCODE)", "syndrome text: %s",
          syndrome_str(0x7777, st, syn).c_str());
    Status s = r.mb.exec(0x7777, {}, &out);
    CHECK(!s.ok() && s.message().find("not a command") != std::string::npos, "exec of an unknown opcode: %s",
          s.message().c_str());
    CHECK_OK(r.mb.exec_raw_token(FROCE_CMD_NOP, {}, 0, &out, &st, &syn, 1));
    CHECK(st == FROCE_CMD_STATUS_BAD_PARAM && syn == (0x80000000u | 2), "header TOKEN differs: status %#x syndrome %#x",
          st, syn);
    CHECK(syndrome_str(FROCE_CMD_NOP, st, syn) == "header byte 2 (TOKEN)", "%s", syndrome_str(FROCE_CMD_NOP, st, syn).c_str());
    CHECK_OK(r.mb.exec_raw(FROCE_CMD_ALLOC_PD, std::vector<uint8_t>(4, 0), 8, &out, &st, &syn));
    CHECK(st == FROCE_CMD_STATUS_BAD_SIZE && syn == (0x80000000u | 4), "short IN_LEN: status %#x syndrome %#x", st, syn);
    CHECK_OK(r.mb.exec_raw(FROCE_CMD_QUERY_FW, {}, 8, &out, &st, &syn));
    CHECK(st == FROCE_CMD_STATUS_BAD_SIZE && syn == (0x80000000u | 6), "short OUT_LEN: status %#x syndrome %#x", st, syn);
    // a longer input is accepted, its tail ignored
    std::vector<uint8_t> in(64, 0);
    FSET_DW(in.data(), FROCE_CMD_ALLOC_PD_IN_UAR, 5);
    CHECK_OK(r.mb.exec_raw(FROCE_CMD_ALLOC_PD, in, 8, &out, &st, &syn));
    CHECK(st == FROCE_CMD_STATUS_OK, "longer IN_LEN accepted: status %#x", st);
    if (st == FROCE_CMD_STATUS_OK) CHECK_OK(r.mb.dealloc_pd(FGET_DW(out.data(), FROCE_CMD_ALLOC_PD_OUT_PDN)));
    CHECK(cmd_status_name(FROCE_CMD_STATUS_BAD_QP_STATE) == "BAD_QP_STATE" && cmd_status_name(0x77) == "status 0x77" &&
              cmd_name(FROCE_CMD_REG_MR) == "REG_MR",
          "names");
    CHECK(syndrome_str(FROCE_CMD_NOP, FROCE_CMD_STATUS_BAD_PARAM, 0x80000FFFu) == "CMD_ADDR not 4 KiB aligned", "block address");
    // reserved bits: the offset of their dword (the high dword of SET_PORT.MAC; MODIFY_QP's dword 2)
    CHECK(syndrome_str(FROCE_CMD_SET_PORT, FROCE_CMD_STATUS_BAD_PARAM, 12) == "input byte 12 (reserved bits in the dword of MAC)",
          "reserved bits: %s", syndrome_str(FROCE_CMD_SET_PORT, FROCE_CMD_STATUS_BAD_PARAM, 12).c_str());
    std::vector<uint8_t> mq;
    CHECK_OK(Mailbox::encode_modify_qp(2, qp_to_state(FROCE_QP_STATE_ERR), &mq));
    mq[8] = 1;   // a bit in dword 2, which has no field
    s = r.mb.exec(FROCE_CMD_MODIFY_QP, mq, &out);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_PARAM && r.mb.last_syndrome() == 8 &&
              s.message().find("input byte 8 (dword 2, no field in it)") != std::string::npos,
          "MODIFY_QP with a reserved bit: %s", s.message().c_str());
}

void test_teardown(Rig &r, Objs &o) {
    std::printf("== teardown: DESTROY_QP, DESTROY_CQ, DESTROY_EQ, DEALLOC_PD\n");
    Status s = r.mb.dealloc_pd(o.pd1);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_RESOURCE_BUSY, "DEALLOC_PD of a PD with QPs: %s",
          s.message().c_str());
    s = r.mb.destroy_eq(o.eq1);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_RESOURCE_BUSY, "DESTROY_EQ with a CQ: %s", s.message().c_str());
    CHECK_OK(r.mb.destroy_qp(o.qp_rc));
    CHECK_OK(r.mb.destroy_qp(o.qp_ud));
    s = r.mb.destroy_qp(o.qp_rc);
    CHECK(!s.ok() && r.mb.last_status() == FROCE_CMD_STATUS_BAD_RESOURCE, "DESTROY_QP twice: %s", s.message().c_str());
    for (uint32_t cq : {o.cq_s, o.cq_r, o.cq_other}) CHECK_OK(r.mb.destroy_cq(cq));
    CHECK_OK(r.mb.destroy_eq(o.eq1));
    CHECK_OK(r.mb.dealloc_pd(o.pd1));
    CHECK_OK(r.mb.dealloc_pd(o.pd2));
    // nothing left: every MR (rings included) gone, the MTT empty
    unsigned live = 0;
    for (uint32_t i = 1; i < fw.num_mrs; i++) live += (fw.mr[i].flags & FW_F_USED) != 0;
    unsigned mtt = 0;
    for (uint32_t w = 0; w < (fw.num_mtt + 31) / 32; w++) mtt += __builtin_popcount(fw.mtt_used[w]);
    CHECK(live == 0 && mtt == 0, "after teardown: %u MRs, %u MTT entries in use", live, mtt);
}

void test_stats(Rig &r) {
    std::printf("== per-opcode statistics\n");
    const auto &st = r.mb.stats();
    CHECK(st.count(FROCE_CMD_MODIFY_QP) && st.at(FROCE_CMD_MODIFY_QP).count == 13 &&
              st.at(FROCE_CMD_MODIFY_QP).failed == 5,
          "MODIFY_QP: %" PRIu64 " sent, %" PRIu64 " refused", st.count(FROCE_CMD_MODIFY_QP) ? st.at(FROCE_CMD_MODIFY_QP).count : 0,
          st.count(FROCE_CMD_MODIFY_QP) ? st.at(FROCE_CMD_MODIFY_QP).failed : 0);
    CHECK(st.count(FROCE_CMD_REG_MR) && st.at(FROCE_CMD_REG_MR).count == 7 && st.at(FROCE_CMD_REG_MR).failed == 2,
          "REG_MR: %" PRIu64 " sent, %" PRIu64 " refused", st.count(FROCE_CMD_REG_MR) ? st.at(FROCE_CMD_REG_MR).count : 0,
          st.count(FROCE_CMD_REG_MR) ? st.at(FROCE_CMD_REG_MR).failed : 0);
    CHECK(st.count(FROCE_CMD_REG_MR) && st.at(FROCE_CMD_REG_MR).max_cycles > 1000,
          "REG_MR of 4 MiB costs control-bus writes (%" PRIu64 " accesses)",
          st.count(FROCE_CMD_REG_MR) ? st.at(FROCE_CMD_REG_MR).max_cycles : 0);
    std::printf("%s", r.mb.stats_str().c_str());
}

}  // namespace

int main() {
    setvbuf(stdout, nullptr, _IONBF, 0);
    const model_cfg cfg = platform();
    model_init(&cfg);
    CHECK(fw_init() == 0, "fw_init");
    hal_dev_ready(0);   // what fw_main does next: DEV_STATUS.READY
    {
        Rig r;
        CHECK_OK(r.mb.start());
        Objs o;
        test_device(r);
        test_gids(r);
        test_resources(r, o);
        test_qp_rc(r, o);
        test_qp_ud(r, o);
        test_mrs(r, o);
        test_counters(r);
        test_header(r);
        test_stats(r);
        test_teardown(r, o);
    }
    model_free();
    if (g_fail) {
        std::printf("FAIL: %d of %d checks failed\n", g_fail, g_checks);
        return 1;
    }
    std::printf("PASS: %d checks\n", g_checks);
    return 0;
}
