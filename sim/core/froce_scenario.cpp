// SPDX-License-Identifier: MIT
// froce-scenario: error-path scenarios between two simulated froce NICs (A
// requester, B responder), each asserting its outcome: completions and their
// statuses, host memory byte for byte, the core's counters and the frames on
// the wire. See README.md in this directory.
#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "froce_hw.h"
#include "host.h"
#include "hwfield.h"
#include "sim.h"

using namespace froce_sim;

namespace {

const char *kUsage =
    "usage: froce-scenario NAME [--seed N] [--verbose] [--inject-error] [--pcap FILE]\n"
    "       froce-scenario all [--seed N] [--verbose] [--inject-error]\n"
    "       froce-scenario --list\n"
    "  --inject-error  negative control: each scenario runs without its error (good key, intact\n"
    "                  wire, receive posted, right UAR page) and must FAIL\n"
    "  --pcap FILE     write both directions of the wire to FILE (one scenario only)\n";

[[noreturn]] void usage_exit(const char *why) {
    if (why) std::fprintf(stderr, "froce-scenario: %s\n", why);
    std::fputs(kUsage, stderr);
    std::exit(2);
}

std::string sfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string sfmt(const char *fmt, ...) {
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

uint64_t mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

const char *wc_name(uint8_t s) {
    switch (s) {
    case FROCE_WC_SUCCESS: return "SUCCESS";
    case FROCE_WC_LOC_LEN_ERR: return "LOC_LEN_ERR";
    case FROCE_WC_LOC_PROT_ERR: return "LOC_PROT_ERR";
    case FROCE_WC_WR_FLUSH_ERR: return "WR_FLUSH_ERR";
    case FROCE_WC_REM_INV_REQ_ERR: return "REM_INV_REQ_ERR";
    case FROCE_WC_REM_ACCESS_ERR: return "REM_ACCESS_ERR";
    case FROCE_WC_REM_OP_ERR: return "REM_OP_ERR";
    case FROCE_WC_RETRY_EXC_ERR: return "RETRY_EXC_ERR";
    case FROCE_WC_RNR_RETRY_EXC_ERR: return "RNR_RETRY_EXC_ERR";
    default: return "?";
    }
}

// ---------------------------------------------------------------------------
// frames on the wire (RoCE v2 over IPv4 without VLAN: all these scenarios use)

constexpr uint8_t kNakRemoteAccess = (FROCE_AETH_TYPE_NAK << 5) | 2;   // AETH syndrome, IBA 9.7.5.2.3

struct Frame {
    int dir = 0;             // 0 A->B, 1 B->A
    uint64_t cycle = 0;
    bool roce = false;
    uint8_t opcode = 0;
    uint32_t psn = 0;
    uint8_t syndrome = 0;    // AETH of (atomic) acknowledges
    // the path (RoCE v2 over IPv4): MACs, IPv4 addresses, TOS, TTL, UDP source port, BTH DestQP
    uint64_t eth_dst = 0, eth_src = 0;
    uint32_t ip_src = 0, ip_dst = 0;
    uint8_t tos = 0, ttl = 0;
    uint16_t sport = 0;
    uint32_t dqpn = 0;
    bool is_request() const { return roce && opcode <= FROCE_OP_RC_RDMA_READ_REQUEST; }
    bool is_ack() const { return roce && opcode == FROCE_OP_RC_ACKNOWLEDGE; }
    bool is_rnr_nak() const { return is_ack() && (syndrome >> 5) == FROCE_AETH_TYPE_RNR_NAK; }
};

Frame parse_frame(int dir, const std::vector<uint8_t> &f, uint64_t cycle) {
    Frame r;
    r.dir = dir;
    r.cycle = cycle;
    if (f.size() < 14 + 20 + 8 + 12 || f[12] != 0x08 || f[13] != 0x00) return r;
    const size_t ihl = size_t(f[14] & 15) * 4;
    if (f[14 + 9] != 17 || f.size() < 14 + ihl + 8 + 12) return r;
    const size_t udp = 14 + ihl, bth = udp + 8;
    if ((unsigned(f[udp + 2]) << 8 | f[udp + 3]) != 4791) return r;
    r.roce = true;
    r.opcode = f[bth];
    for (int i = 0; i < 6; i++) {
        r.eth_dst = r.eth_dst << 8 | f[i];
        r.eth_src = r.eth_src << 8 | f[6 + i];
    }
    for (int i = 0; i < 4; i++) {
        r.ip_src = r.ip_src << 8 | f[14 + 12 + i];
        r.ip_dst = r.ip_dst << 8 | f[14 + 16 + i];
    }
    r.tos = f[14 + 1];
    r.ttl = f[14 + 8];
    r.sport = uint16_t(f[udp] << 8 | f[udp + 1]);
    r.dqpn = uint32_t(f[bth + 5]) << 16 | uint32_t(f[bth + 6]) << 8 | f[bth + 7];
    r.psn = uint32_t(f[bth + 9]) << 16 | uint32_t(f[bth + 10]) << 8 | f[bth + 11];
    if ((r.opcode == FROCE_OP_RC_ACKNOWLEDGE || r.opcode == FROCE_OP_RC_ATOMIC_ACKNOWLEDGE) && f.size() >= bth + 16)
        r.syndrome = f[bth + 12];
    return r;
}

// ---------------------------------------------------------------------------
// environment: two NICs, their hosts, QP pairs, CQE collection, checks

// A buffer of `len` bytes with `guard` bytes before and after, filled with a
// seeded pattern; the MR (if any) covers only the middle part.
struct Region {
    Buffer buf;
    Mr mr;
    uint64_t guard = 0, len = 0;
    std::vector<uint8_t> shadow;   // what every byte must hold
    uint64_t va() const { return buf.va + guard; }
    uint64_t off(uint64_t va_) const { return va_ - buf.va; }
};

// Env::pair_cfg() fills in the PDs: Env's default PD on each NIC (each in a
// user context, i.e. UAR page, of its own).
struct PairCfg {
    uint32_t pd_a = 0, pd_b = 0;
    uint8_t access_b = FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ | FROCE_ACCESS_REMOTE_ATOMIC;
    unsigned mtu_enum = FROCE_MTU_1024;
    unsigned timeout_a = 14, retry_cnt_a = 7, rnr_retry_a = 7;
    unsigned min_rnr_timer_b = 1;   // 0.01 ms = 1563 cycles
    uint32_t eqn_a = 0, eqn_b = 0;  // CQC.EQN of each side's CQs
    Path to_b, to_a;                // A's path to B and B's to A (the GIDs and MACs are set by make_pair)
};

struct Pair {
    Qp *qa = nullptr, *qb = nullptr;
    Cq *a_scq = nullptr, *a_rcq = nullptr, *b_scq = nullptr, *b_rcq = nullptr;
    std::vector<Cqe> a_send, a_recv, b_send, b_recv;
};

// Counter snapshot of one NIC.
struct Counters {
    uint32_t v[FROCE_CNT_NUM] = {};
};

constexpr unsigned kMtu = 1024;   // FROCE_MTU_1024, every pair

class Env {
public:
    Env(uint64_t seed, bool verbose, bool quiet, bool inject, const std::string &pcap = "")
        : seed_(seed), verbose_(verbose), quiet_(quiet), inject_(inject), pcap_(pcap) {}
    Status setup();

    Sim &sim() { return *sim_; }
    Host &a() { return *ha_; }
    Host &b() { return *hb_; }
    uint64_t seed() const { return seed_; }
    bool verbose() const { return verbose_; }
    // negative control: leave the error out, the scenario's checks must fail
    bool inject() const { return inject_; }

    // Pair parameters with Env's default PDs (pd_a on A, pd_b on B).
    PairCfg pair_cfg() const {
        PairCfg pc;
        pc.pd_a = pd_a_;
        pc.pd_b = pd_b_;
        return pc;
    }
    Status make_pair(const PairCfg &pc, Pair **out);
    Status make_region(Host &h, uint64_t len, uint64_t guard, uint32_t pdn, uint8_t access, bool reg, Region *r);
    // First byte of the region (data and guards) that differs from its shadow, "" if none.
    std::string region_diff(Host &h, const Region &r);
    Status write_data(Host &h, Region &r, uint64_t va, uint64_t len, uint64_t tag);

    Status poll();
    // Steps until done() (checked after every cycle's poll); an error names
    // `what` and the state of both ports if max_cycles pass first.
    Status run_until(const std::function<bool()> &done, uint64_t max_cycles, const std::string &what);
    Status quiet(uint64_t cycles);
    Status snapshot(Host &h, Counters *c);
    // B's EQ 0 (the driver's async event queue: CMD_DONE, QP events, port
    // changes), created at the first call; *out gets the EQEs polled so far.
    Status b_async_events(std::vector<Eqe> **out);
    // BAR0 DEV_CTRL.RESET on NIC A or B (write_reset false: the negative
    // control, no reset), then a new driver instance on it (fw_init, GID 0,
    // a PD): the old host's objects are gone, and with them every pair.
    // *ready_cycles: from the reset write to DEV_STATUS.READY.
    Status reset_nic(bool nic_a, bool write_reset, uint64_t *ready_cycles);

    // frames seen since the start
    const std::vector<Frame> &frames() const { return frames_; }

    // Prints the outcome of one assertion; the first failure is the scenario's.
    bool check(bool ok, const std::string &what, const std::string &got = "");
    void note(const std::string &s);
    void info(const std::string &s);
    const std::string &failure() const { return fail_; }
    // Harness-level checks at the end: AXI protocol, doorbell BRESP, tkeep.
    void final_checks();

private:
    uint64_t seed_;
    bool verbose_, quiet_, inject_;
    std::string pcap_;
    std::unique_ptr<Sim> sim_;
    std::unique_ptr<Host> ha_, hb_;
    Eq *b_eq0_ = nullptr;
    std::vector<Eqe> b_eq0_events_;
    std::vector<std::unique_ptr<Pair>> pairs_;
    std::vector<Frame> frames_;
    std::string fail_;
    unsigned regions_ = 0, resets_ = 0;
    uint32_t pd_a_ = 0, pd_b_ = 0;   // allocated in setup()
};

Status Env::setup() {
    SimConfig sc;
    sc.a.seed = seed_ * 2 + 1;
    sc.b.seed = seed_ * 2 + 2;
    for (NicConfig *n : {&sc.a, &sc.b}) {
        n->mem.r_lat_min = n->mem.b_lat_min = 10;
        n->mem.r_lat_max = n->mem.b_lat_max = 10;
        n->mem.seed = n->seed * 13 + 5;
    }
    sc.a_to_b.seed = mix64(seed_ * 2 + 101);
    sc.b_to_a.seed = mix64(seed_ * 2 + 102);
    sc.pcap = pcap_;
    sim_ = std::make_unique<Sim>(sc);
    FROCE_TRY(sim_->init_status());
    sim_->set_frame_hook([this](int dir, const std::vector<uint8_t> &f, uint64_t cycle) {
        frames_.push_back(parse_frame(dir, f, cycle));
    });
    HostConfig ca, cb;
    ca.name = "A";
    cb.name = "B";
    ca.seed = seed_ * 2 + 1;
    cb.seed = seed_ * 2 + 2;
    ca.mac = 0x020000000001ull;
    cb.mac = 0x020000000002ull;
    ha_ = std::make_unique<Host>(sim_->a(), ca);
    hb_ = std::make_unique<Host>(sim_->b(), cb);
    FROCE_TRY(ha_->fw_init().context("NIC A firmware"));
    FROCE_TRY(hb_->fw_init().context("NIC B firmware"));
    FROCE_TRY(ha_->set_gid(0, Gid::ipv4(10, 0, 0, 1), 0x020000000001ull));
    FROCE_TRY(hb_->set_gid(0, Gid::ipv4(10, 0, 0, 2), 0x020000000002ull));
    FROCE_TRY(ha_->alloc_pd(&pd_a_).context("NIC A"));
    FROCE_TRY(hb_->alloc_pd(&pd_b_).context("NIC B"));
    return Status();
}

Status Env::reset_nic(bool nic_a, bool write_reset, uint64_t *ready_cycles) {
    std::unique_ptr<Host> &h = nic_a ? ha_ : hb_;
    Nic &n = h->nic();
    const char *name = nic_a ? "A" : "B";
    const uint64_t c0 = sim_->cycle();
    if (write_reset) FROCE_TRY(n.bar0_write32(FROCE_REG_DEV_CTRL, FROCE_REG_DEV_CTRL_RESET_MASK));
    uint32_t st = 0;
    FROCE_TRY(n.bar0_read32(FROCE_REG_DEV_STATUS, &st));
    check(!(st & FROCE_REG_DEV_STATUS_READY_MASK), sfmt("NIC %s: DEV_STATUS.READY reads 0 right after the reset", name),
          sfmt("DEV_STATUS %#x", st));
    pairs_.clear();
    if (!nic_a) {
        b_eq0_ = nullptr;
        b_eq0_events_.clear();
    }
    HostConfig c;
    c.name = name;
    c.seed = seed_ * 2 + (nic_a ? 1 : 2) + 1000 * ++resets_;
    c.mac = nic_a ? 0x020000000001ull : 0x020000000002ull;
    auto nh = std::make_unique<Host>(n, c);
    FROCE_TRY(nh->fw_init().context(sfmt("NIC %s after the reset", name)));
    *ready_cycles = sim_->cycle() - c0;
    FROCE_TRY(nh->set_gid(0, Gid::ipv4(10, 0, 0, nic_a ? 1 : 2), nic_a ? 0x020000000001ull : 0x020000000002ull));
    FROCE_TRY(nh->alloc_pd(nic_a ? &pd_a_ : &pd_b_));
    h = std::move(nh);
    return Status();
}

Status Env::make_pair(const PairCfg &pc, Pair **out) {
    auto p = std::make_unique<Pair>();
    FROCE_TRY(ha_->create_cq(5, pc.pd_a, &p->a_scq, pc.eqn_a));
    FROCE_TRY(ha_->create_cq(5, pc.pd_a, &p->a_rcq, pc.eqn_a));
    FROCE_TRY(hb_->create_cq(5, pc.pd_b, &p->b_scq, pc.eqn_b));
    FROCE_TRY(hb_->create_cq(5, pc.pd_b, &p->b_rcq, pc.eqn_b));
    QpCaps caps;
    caps.max_send_wr = 16;
    caps.max_recv_wr = 16;
    FROCE_TRY(ha_->create_qp(pc.pd_a, caps, p->a_scq, p->a_rcq, &p->qa));
    FROCE_TRY(hb_->create_qp(pc.pd_b, caps, p->b_scq, p->b_rcq, &p->qb));
    const uint8_t all = FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ | FROCE_ACCESS_REMOTE_ATOMIC;
    FROCE_TRY(ha_->modify_qp_init(p->qa, all));
    FROCE_TRY(hb_->modify_qp_init(p->qb, pc.access_b));
    const uint32_t psn_a = uint32_t(mix64(seed_ * 7 + pairs_.size()) & 0xFFFFFF);
    const uint32_t psn_b = uint32_t(mix64(seed_ * 11 + pairs_.size()) & 0xFFFFFF);
    Path to_b = pc.to_b, to_a = pc.to_a;
    to_b.dgid = Gid::ipv4(10, 0, 0, 2);
    to_b.dmac = 0x020000000002ull;
    to_a.dgid = Gid::ipv4(10, 0, 0, 1);
    to_a.dmac = 0x020000000001ull;
    FROCE_TRY(ha_->modify_qp_rtr(p->qa, to_b, p->qb->qpn, psn_b, pc.mtu_enum));
    FROCE_TRY(hb_->modify_qp_rtr(p->qb, to_a, p->qa->qpn, psn_a, pc.mtu_enum, pc.min_rnr_timer_b));
    FROCE_TRY(ha_->modify_qp_rts(p->qa, psn_a, pc.timeout_a, pc.retry_cnt_a, pc.rnr_retry_a));
    FROCE_TRY(hb_->modify_qp_rts(p->qb, psn_b));
    info(sfmt("pair %zu: A qpn %#x (uar %u, sq psn %#x, timeout %u, retry_cnt %u, rnr_retry %u) <-> B qpn %#x "
              "(uar %u, access %#x, min_rnr_timer %u)",
              pairs_.size(), p->qa->qpn, p->qa->uar, psn_a, pc.timeout_a, pc.retry_cnt_a, pc.rnr_retry_a, p->qb->qpn,
              p->qb->uar, pc.access_b, pc.min_rnr_timer_b));
    *out = p.get();
    pairs_.push_back(std::move(p));
    return Status();
}

Status Env::make_region(Host &h, uint64_t len, uint64_t guard, uint32_t pdn, uint8_t access, bool reg, Region *r) {
    const uint64_t salt = mix64(seed_ ^ (uint64_t(++regions_) << 32) ^ (h.name() == "A" ? 0xA : 0xB));
    r->guard = guard;
    r->len = len;
    FROCE_TRY(h.alloc(guard + len + guard, &r->buf, 12, 64 * (salt % 48)));
    r->shadow.resize(r->buf.len);
    for (uint64_t i = 0; i < r->buf.len; i++) r->shadow[i] = uint8_t(mix64(salt + i) >> 17);
    FROCE_TRY(h.write(r->buf.va, r->shadow.data(), r->buf.len));
    if (reg) FROCE_TRY(h.reg_mr(pdn, r->va(), len, access, &r->mr));
    return Status();
}

Status Env::write_data(Host &h, Region &r, uint64_t va, uint64_t len, uint64_t tag) {
    for (uint64_t i = 0; i < len; i++) r.shadow[r.off(va) + i] = uint8_t(mix64(seed_ * 977 + tag * 0x10001 + i) >> 9);
    return h.write(va, &r.shadow[r.off(va)], len);
}

std::string Env::region_diff(Host &h, const Region &r) {
    std::vector<uint8_t> got(r.buf.len);
    Status s = h.read(r.buf.va, got.data(), got.size());
    if (!s.ok()) return s.message();
    for (uint64_t j = 0; j < got.size(); j++) {
        if (got[j] == r.shadow[j]) continue;
        uint64_t n = 0;
        for (uint64_t k = j; k < got.size(); k++) n += got[k] != r.shadow[k];
        const int64_t rel = int64_t(j) - int64_t(r.guard);
        return sfmt("byte %" PRId64 " (%s, VA %#" PRIx64 ") is %#04x, expected %#04x; %" PRIu64 " bytes differ", rel,
                    rel < 0 ? "guard before" : uint64_t(rel) < r.len ? "inside" : "guard after", r.buf.va + j, got[j],
                    r.shadow[j], n);
    }
    return "";
}

Status Env::poll() {
    for (auto &p : pairs_) {
        struct {
            Host *h;
            Cq *cq;
            std::vector<Cqe> *v;
            const char *name;
        } cqs[] = {{ha_.get(), p->a_scq, &p->a_send, "A's send CQ"},
                   {ha_.get(), p->a_rcq, &p->a_recv, "A's receive CQ"},
                   {hb_.get(), p->b_scq, &p->b_send, "B's send CQ"},
                   {hb_.get(), p->b_rcq, &p->b_recv, "B's receive CQ"}};
        for (auto &c : cqs) {
            const size_t before = c.v->size();
            Status s = c.h->poll_cq(c.cq, 16, c.v);
            for (size_t i = before; i < c.v->size(); i++)
                info(sfmt("cycle %" PRIu64 " %s: %s (%s)", sim_->cycle(), c.name, (*c.v)[i].str().c_str(),
                          wc_name((*c.v)[i].status)));
            FROCE_TRY(s.context(c.name));
        }
    }
    return Status();
}

Status Env::run_until(const std::function<bool()> &done, uint64_t max_cycles, const std::string &what) {
    const uint64_t start = sim_->cycle();
    FROCE_TRY(poll());
    while (!done()) {
        if (sim_->cycle() - start >= max_cycles)
            return errorf("hang: %s did not happen within %" PRIu64 " cycles (cycle %" PRIu64 ")\n  %s\n  %s\n  %s",
                          what.c_str(), max_cycles, sim_->cycle(), sim_->a().port_state().c_str(),
                          sim_->b().port_state().c_str(), sim_->stats_line().c_str());
        sim_->step(1);
        FROCE_TRY(poll());
    }
    return Status();
}

Status Env::quiet(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; i++) {
        sim_->step(1);
        FROCE_TRY(poll());
    }
    return Status();
}

Status Env::snapshot(Host &h, Counters *c) {
    for (unsigned i = 0; i < FROCE_CNT_NUM; i++) FROCE_TRY(h.read_counter(i, &c->v[i]));
    return Status();
}

Status Env::b_async_events(std::vector<Eqe> **out) {
    if (!b_eq0_) FROCE_TRY(hb_->create_eq(0, 6, FROCE_MSIX_VECTOR_ASYNC, &b_eq0_));
    FROCE_TRY(hb_->poll_eq(b_eq0_, 64, &b_eq0_events_));
    *out = &b_eq0_events_;
    return Status();
}

bool Env::check(bool ok, const std::string &what, const std::string &got) {
    if (!quiet_ || verbose_)
        std::printf("  %s %s%s%s\n", ok ? "ok  " : "FAIL", what.c_str(), ok || got.empty() ? "" : ": ", ok ? "" : got.c_str());
    if (!ok && fail_.empty()) fail_ = what + (got.empty() ? "" : ": " + got);
    return ok;
}

void Env::note(const std::string &s) {
    if (!quiet_ || verbose_) std::printf("  note %s\n", s.c_str());
}

void Env::info(const std::string &s) {
    if (verbose_) std::printf("    %s\n", s.c_str());
}

void Env::final_checks() {
    for (Host *h : {ha_.get(), hb_.get()}) {
        const Nic &n = h->nic();
        check(n.mem().violations().empty(), sfmt("NIC %s: no AXI protocol violation", h->name().c_str()),
              n.mem().violations().empty() ? "" : n.mem().violations()[0]);
        check(n.stats().doorbell_bresp_err == 0, sfmt("NIC %s: every doorbell answered OKAY", h->name().c_str()),
              sfmt("%" PRIu64 " error responses", n.stats().doorbell_bresp_err));
        check(n.stats().tx_keep_errors == 0, sfmt("NIC %s: no TX beat with a bad tkeep", h->name().c_str()),
              sfmt("%" PRIu64 " beats", n.stats().tx_keep_errors));
    }
}

// ---------------------------------------------------------------------------
// helpers shared by the scenarios

SendWr write_wr(uint64_t src, uint32_t len, uint32_t lkey, uint64_t raddr, uint32_t rkey) {
    SendWr wr;
    wr.opcode = FROCE_WQE_OP_RDMA_WRITE;
    wr.sg.push_back({src, len, lkey});
    wr.remote_addr = raddr;
    wr.rkey = rkey;
    return wr;
}

SendWr send_wr(uint64_t src, uint32_t len, uint32_t lkey) {
    SendWr wr;
    wr.opcode = FROCE_WQE_OP_SEND;
    wr.sg.push_back({src, len, lkey});
    return wr;
}

std::string cqe_str(const Cqe &c) { return sfmt("%s (%s)", c.str().c_str(), wc_name(c.status)); }

// The CQE `i` of v has status, WQE index and (if op >= 0) opcode as expected.
void check_cqe(Env &e, const std::vector<Cqe> &v, size_t i, const char *who, uint32_t qpn, uint16_t wqe, uint8_t status,
               int op) {
    std::string what = sfmt("%s CQE %zu: qpn %#x WQE %u %s", who, i, qpn, wqe, wc_name(status));
    if (op >= 0) what += sfmt(" opcode %#04x", op);
    if (i >= v.size()) {
        e.check(false, what, sfmt("only %zu CQEs", v.size()));
        return;
    }
    const Cqe &c = v[i];
    e.check(c.qpn == qpn && c.wqe_index == wqe && c.status == status && (op < 0 || c.opcode == op), what, cqe_str(c));
}

uint32_t delta(const Counters &before, const Counters &after, unsigned idx) { return after.v[idx] - before.v[idx]; }

// ---------------------------------------------------------------------------
// 1. access violations

enum class Acc { BAD_RKEY, WRONG_PD, NO_REMOTE_WRITE, QP_NO_REMOTE_WRITE, OOB_END, OOB_START, STALE_KEY };

const char *acc_label(Acc k) {
    switch (k) {
    case Acc::BAD_RKEY: return "rkey naming no MR";
    case Acc::WRONG_PD: return "MR in another PD than B's QP";
    case Acc::NO_REMOTE_WRITE: return "MR without REMOTE_WRITE";
    case Acc::QP_NO_REMOTE_WRITE: return "QP access without REMOTE_WRITE";
    case Acc::OOB_END: return "range ending 64 bytes past the MR";
    case Acc::OOB_START: return "range starting 64 bytes before the MR";
    case Acc::STALE_KEY: return "rkey of a deregistered MR (index re-registered)";
    }
    return "?";
}

constexpr uint64_t kWriteLen = 3 * kMtu;   // 3 packets
constexpr uint64_t kGuard = 256;

// A writes kWriteLen bytes to B with the bad parameters, then two good
// 1-packet WRITEs to another of B's MRs. Asserts the IB outcome.
Status access_case(Env &e, Acc kind, Region *tgt_out) {
    e.note(sfmt("case: %s", acc_label(kind)));
    PairCfg pc = e.pair_cfg();
    const bool inj = e.inject();
    if (inj) e.note("--inject-error: the WRITE is valid, this case must FAIL");
    if (kind == Acc::QP_NO_REMOTE_WRITE && !inj) pc.access_b = FROCE_ACCESS_REMOTE_READ | FROCE_ACCESS_REMOTE_ATOMIC;
    Pair *p;
    FROCE_TRY(e.make_pair(pc, &p));
    const uint8_t LW = FROCE_ACCESS_LOCAL_WRITE, RW = FROCE_ACCESS_REMOTE_WRITE;
    Region src, tgt, good;
    uint32_t tgt_pd = pc.pd_b;   // WRONG_PD: another PD of B's QP's user context
    if (kind == Acc::WRONG_PD && !inj) FROCE_TRY(e.b().alloc_pd(&tgt_pd, e.b().pd_uar(pc.pd_b)));
    FROCE_TRY(e.make_region(e.a(), kWriteLen + 2 * kMtu, 64, pc.pd_a, LW, true, &src));
    FROCE_TRY(e.make_region(e.b(), kWriteLen, kGuard, tgt_pd,
                            kind == Acc::NO_REMOTE_WRITE && !inj ? uint8_t(LW | FROCE_ACCESS_REMOTE_READ) : uint8_t(LW | RW), true,
                            &tgt));
    FROCE_TRY(e.make_region(e.b(), 2 * kMtu, kGuard, pc.pd_b, LW | RW, true, &good));
    FROCE_TRY(e.write_data(e.a(), src, src.va(), src.len, 1));

    uint32_t rkey = tgt.mr.key;
    uint64_t raddr = tgt.va();
    switch (kind) {
    case Acc::BAD_RKEY: {
        uint32_t idx = 0;
        for (uint32_t i = 1023; i >= 1 && !idx; i--)
            if (e.b().mr_index_free(i)) idx = i;
        if (!idx) return errorf("no free MR index on B");
        rkey = (idx << FROCE_KEY_TAG_W) | (tgt.mr.key & 0xFF);
        e.note(sfmt("rkey %#x: MR index %u is not registered on B", rkey, idx));
        break;
    }
    case Acc::OOB_END: raddr = tgt.va() + 64; break;
    case Acc::OOB_START: raddr = tgt.va() - 64; break;
    case Acc::STALE_KEY: {
        const Mr old = tgt.mr;
        FROCE_TRY(e.b().dereg_mr(&tgt.mr));
        FROCE_TRY(e.b().reg_mr_at(old.index, pc.pd_b, tgt.va(), tgt.len, LW | RW, &tgt.mr));
        e.check(tgt.mr.index == old.index && tgt.mr.key != old.key,
                sfmt("re-registration at MR index %u gives a new key (old %#x)", old.index, old.key),
                sfmt("index %u key %#x", tgt.mr.index, tgt.mr.key));
        rkey = old.key;
        break;
    }
    default: break;
    }
    if (inj) {
        rkey = tgt.mr.key;
        raddr = tgt.va();
    }
    e.info(sfmt("WRITE %" PRIu64 " bytes to VA %#" PRIx64 " rkey %#x (MR [%#" PRIx64 ", +%" PRIu64 ") key %#x pd %u access %#x)",
                kWriteLen, raddr, rkey, tgt.mr.iova, tgt.mr.length, tgt.mr.key, tgt.mr.pdn, tgt.mr.access));

    Counters a0, b0, a1, b1;
    FROCE_TRY(e.snapshot(e.a(), &a0));
    FROCE_TRY(e.snapshot(e.b(), &b0));
    std::vector<Eqe> *b_events;
    FROCE_TRY(e.b_async_events(&b_events));
    const size_t ev0 = b_events->size();
    const size_t f0 = e.frames().size();
    FROCE_TRY(e.a().post_send(p->qa, write_wr(src.va(), uint32_t(kWriteLen), src.mr.key, raddr, rkey)));
    FROCE_TRY(e.a().post_send(p->qa, write_wr(src.va() + kWriteLen, kMtu, src.mr.key, good.va(), good.mr.key)));
    FROCE_TRY(e.a().post_send(p->qa, write_wr(src.va() + kWriteLen + kMtu, kMtu, src.mr.key, good.va() + kMtu, good.mr.key)));
    FROCE_TRY(e.run_until([&] { return p->a_send.size() >= 3; }, 400000, "A's three completions"));
    FROCE_TRY(e.quiet(5000));
    FROCE_TRY(e.snapshot(e.a(), &a1));
    FROCE_TRY(e.snapshot(e.b(), &b1));

    e.check(p->a_send.size() == 3, "A: exactly 3 send CQEs", sfmt("%zu", p->a_send.size()));
    check_cqe(e, p->a_send, 0, "A", p->qa->qpn, 0, FROCE_WC_REM_ACCESS_ERR, FROCE_CQE_OP_RDMA_WRITE);
    check_cqe(e, p->a_send, 1, "A", p->qa->qpn, 1, FROCE_WC_WR_FLUSH_ERR, -1);
    check_cqe(e, p->a_send, 2, "A", p->qa->qpn, 2, FROCE_WC_WR_FLUSH_ERR, -1);
    std::string d = e.region_diff(e.b(), tgt);
    e.check(d.empty(), sfmt("B's target region unchanged (%" PRIu64 " bytes + %" PRIu64 " guard bytes each side)", tgt.len, tgt.guard), d);
    d = e.region_diff(e.b(), good);
    e.check(d.empty(), "B's region of the two later WRITEs unchanged (B's QP is in error)", d);
    d = e.region_diff(e.a(), src);
    e.check(d.empty(), "A's source region unchanged", d);
    const uint32_t acc = delta(b0, b1, FROCE_CNT_RESP_REMOTE_ACCESS_ERRORS);
    e.check(acc >= 1, "B: RESP_REMOTE_ACCESS_ERRORS moved by at least 1",
            sfmt("moved by %u%s", acc,
                 kind == Acc::QP_NO_REMOTE_WRITE ? " (B did NAK with remote access error, see below: the responder's QP "
                                                   "access check does not count what its MR check counts)" : ""));
    e.note(sfmt("B RESP_REMOTE_ACCESS_ERRORS +%u; A REQ_CQE_ERROR +%u, REQ_REMOTE_ACCESS_ERRORS +%u, PACKET_SEQ_ERR +%u",
                acc, delta(a0, a1, FROCE_CNT_REQ_CQE_ERROR), delta(a0, a1, FROCE_CNT_REQ_REMOTE_ACCESS_ERRORS),
                delta(a0, a1, FROCE_CNT_PACKET_SEQ_ERR)));
    // counter semantics beyond the brief's assertions: reported, not failed
    if (delta(a0, a1, FROCE_CNT_REQ_REMOTE_ACCESS_ERRORS) != 1)
        e.note("A: REQ_REMOTE_ACCESS_ERRORS (remote access NAKs received) did not move by 1: not wired in froce_core.v");
    if (delta(a0, a1, FROCE_CNT_PACKET_SEQ_ERR) != 0)
        e.note("A: PACKET_SEQ_ERR (NAK-sequence-error packets received) moved on a remote-access NAK");
    unsigned naks = 0;
    for (size_t i = f0; i < e.frames().size(); i++)
        if (e.frames()[i].dir == 1 && e.frames()[i].is_ack() && e.frames()[i].syndrome == kNakRemoteAccess) naks++;
    e.check(naks >= 1, "B sent a remote-access-error NAK (AETH syndrome 0x62)", sfmt("%u such NAKs", naks));
    e.check(p->b_recv.empty() && p->b_send.empty(), "B: no CQE on its receive or send CQ",
            p->b_recv.empty() ? (p->b_send.empty() ? "" : cqe_str(p->b_send[0])) : cqe_str(p->b_recv[0]));
    e.check(p->a_recv.empty(), "A: no CQE on its receive CQ", p->a_recv.empty() ? "" : cqe_str(p->a_recv[0]));
    // the responder's error is an affiliated asynchronous event (IB: local
    // access violation work queue error): the engine tells the firmware,
    // which moves B's QP to ERR and posts QP_EVENT/ACCESS_ERR on EQ 0
    FROCE_TRY(e.b_async_events(&b_events));
    std::string evs;
    unsigned acc_events = 0;
    for (size_t i = ev0; i < b_events->size(); i++) {
        const Eqe &ev = (*b_events)[i];
        evs += (evs.empty() ? "" : ", ") + ev.str();
        if (ev.type == FROCE_EQE_TYPE_QP_EVENT && ev.subtype == FROCE_QP_EV_ACCESS_ERR && ev.id == p->qb->qpn)
            acc_events++;
    }
    e.check(acc_events == 1 && b_events->size() - ev0 == 1,
            sfmt("B: exactly one EQE on EQ 0, QP_EVENT ACCESS_ERR naming QP %#x", p->qb->qpn), evs.empty() ? "none" : evs);
    QpAttr qa;
    FROCE_TRY(e.b().query_qp(p->qb, &qa));
    e.check(qa.state == FROCE_QP_STATE_ERR, "B: QUERY_QP says its QP is in ERR", sfmt("state %u", qa.state));
    if (tgt_out) *tgt_out = std::move(tgt);
    return Status();
}

// Control: a WRITE exactly covering the MR, on a fresh pair, succeeds.
Status access_control(Env &e, Region &tgt) {
    e.note("control: a WRITE covering exactly the MR, on a fresh QP pair");
    PairCfg pc = e.pair_cfg();
    Pair *p;
    FROCE_TRY(e.make_pair(pc, &p));
    Region src;
    FROCE_TRY(e.make_region(e.a(), kWriteLen, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src));
    FROCE_TRY(e.write_data(e.a(), src, src.va(), src.len, 2));
    Counters b0, b1;
    FROCE_TRY(e.snapshot(e.b(), &b0));
    FROCE_TRY(e.a().post_send(p->qa, write_wr(src.va(), uint32_t(kWriteLen), src.mr.key, tgt.mr.iova, tgt.mr.key)));
    FROCE_TRY(e.run_until([&] { return p->a_send.size() >= 1; }, 400000, "the control WRITE's completion"));
    FROCE_TRY(e.quiet(2000));
    FROCE_TRY(e.snapshot(e.b(), &b1));
    check_cqe(e, p->a_send, 0, "A (control)", p->qa->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_WRITE);
    std::memcpy(&tgt.shadow[tgt.guard], &src.shadow[src.guard], kWriteLen);
    std::string d = e.region_diff(e.b(), tgt);
    e.check(d.empty(), "B's MR holds the control data, guards intact", d);
    e.check(delta(b0, b1, FROCE_CNT_RESP_REMOTE_ACCESS_ERRORS) == 0, "B: RESP_REMOTE_ACCESS_ERRORS unchanged by the control",
            sfmt("+%u", delta(b0, b1, FROCE_CNT_RESP_REMOTE_ACCESS_ERRORS)));
    e.check(p->b_recv.empty(), "B: no receive CQE for the control WRITE", p->b_recv.empty() ? "" : cqe_str(p->b_recv[0]));
    return Status();
}

Status sc_bad_rkey(Env &e) { return access_case(e, Acc::BAD_RKEY, nullptr); }
Status sc_wrong_pd(Env &e) { return access_case(e, Acc::WRONG_PD, nullptr); }
Status sc_no_remote_write(Env &e) { return access_case(e, Acc::NO_REMOTE_WRITE, nullptr); }
Status sc_qp_no_remote_write(Env &e) { return access_case(e, Acc::QP_NO_REMOTE_WRITE, nullptr); }

Status sc_out_of_bounds(Env &e) {
    Region tgt;
    FROCE_TRY(access_case(e, Acc::OOB_END, nullptr));
    FROCE_TRY(access_case(e, Acc::OOB_START, &tgt));
    return access_control(e, tgt);
}

Status sc_stale_key(Env &e) {
    Region tgt;
    FROCE_TRY(access_case(e, Acc::STALE_KEY, &tgt));
    return access_control(e, tgt);   // the new key works
}

// ---------------------------------------------------------------------------
// 2. retry-exceeded

// A READ of 16 packets, then a WRITE with an rkey naming no MR. Four READ
// responses arrive, the next two are lost (B->A cut), the rest arrive out of
// sequence and are dropped; then B's remote-access NAK for the WRITE comes.
// The NAK's PSN acknowledges everything before it, but the READ's data is
// incomplete: it must not complete as SUCCESS. It is flushed (WR_FLUSH_ERR)
// and the WRITE fails with REM_ACCESS_ERR.
Status sc_nak_after_lost_read(Env &e) {
    PairCfg pc = e.pair_cfg();
    Pair *p;
    FROCE_TRY(e.make_pair(pc, &p));
    const uint8_t LW = FROCE_ACCESS_LOCAL_WRITE;
    const uint64_t rlen = 16 * kMtu;
    Region dst, src, rsrc;
    FROCE_TRY(e.make_region(e.a(), rlen, kGuard, pc.pd_a, LW, true, &dst));
    FROCE_TRY(e.make_region(e.a(), kMtu, 64, pc.pd_a, LW, true, &src));
    FROCE_TRY(e.make_region(e.b(), rlen, kGuard, pc.pd_b, LW | FROCE_ACCESS_REMOTE_READ, true, &rsrc));
    FROCE_TRY(e.write_data(e.b(), rsrc, rsrc.va(), rsrc.len, 7));
    FROCE_TRY(e.write_data(e.a(), src, src.va(), src.len, 8));
    uint32_t idx = 0;
    for (uint32_t i = 1023; i >= 1 && !idx; i--)
        if (e.b().mr_index_free(i)) idx = i;
    if (!idx) return errorf("no free MR index on B");
    const uint32_t bad_rkey = (idx << FROCE_KEY_TAG_W) | (rsrc.mr.key & 0xFF);

    SendWr rd;
    rd.opcode = FROCE_WQE_OP_RDMA_READ;
    rd.sg.push_back({dst.va(), uint32_t(rlen), dst.mr.key});
    rd.remote_addr = rsrc.va();
    rd.rkey = rsrc.mr.key;
    const size_t f0 = e.frames().size();
    auto responses = [&] {
        unsigned n = 0;
        for (size_t i = f0; i < e.frames().size(); i++) {
            const Frame &f = e.frames()[i];
            if (f.dir == 1 && f.roce && f.opcode >= FROCE_OP_RC_RDMA_READ_RESPONSE_FIRST &&
                f.opcode <= FROCE_OP_RC_RDMA_READ_RESPONSE_ONLY)
                n++;
        }
        return n;
    };
    FROCE_TRY(e.a().post_send(p->qa, rd));
    FROCE_TRY(e.a().post_send(p->qa, write_wr(src.va(), kMtu, src.mr.key, rsrc.va(), bad_rkey)));
    if (e.inject()) {
        e.note("--inject-error: no READ response is lost, this scenario must FAIL");
    } else {
        FROCE_TRY(e.run_until([&] { return responses() >= 4; }, 200000, "B's first four READ responses"));
        e.sim().set_cut(false, true);
        FROCE_TRY(e.run_until([&] { return responses() >= 6; }, 200000, "B's 5th and 6th READ responses"));
        e.sim().set_cut(false, false);
        e.note("B->A cut for READ responses 5 and 6: they are lost, the rest arrive out of sequence");
    }
    FROCE_TRY(e.run_until([&] { return p->a_send.size() >= 2; }, 400000, "A's two completions"));
    FROCE_TRY(e.quiet(5000));

    e.check(p->a_send.size() == 2, "A: exactly 2 send CQEs", sfmt("%zu", p->a_send.size()));
    check_cqe(e, p->a_send, 0, "A (the READ, data incomplete)", p->qa->qpn, 0, FROCE_WC_WR_FLUSH_ERR, -1);
    check_cqe(e, p->a_send, 1, "A (the WRITE, bad rkey)", p->qa->qpn, 1, FROCE_WC_REM_ACCESS_ERR, FROCE_CQE_OP_RDMA_WRITE);
    unsigned naks = 0;
    for (size_t i = f0; i < e.frames().size(); i++)
        if (e.frames()[i].dir == 1 && e.frames()[i].is_ack() && e.frames()[i].syndrome == kNakRemoteAccess) naks++;
    e.check(naks >= 1, "B sent a remote-access-error NAK after the READ responses", sfmt("%u such NAKs", naks));
    std::string d = e.region_diff(e.b(), rsrc);
    e.check(d.empty(), "B's READ source unchanged", d);
    return Status();
}

Status sc_retry_exceeded(Env &e) {
    PairCfg pc = e.pair_cfg();
    pc.timeout_a = 3;     // 640 << 3 = 5120 cycles
    pc.retry_cnt_a = 3;
    const unsigned retry = pc.retry_cnt_a, nwqe = 3;
    const uint64_t len = 2 * kMtu;                       // 2 packets per WRITE
    const unsigned pkts = nwqe * unsigned(len / kMtu);   // packets after the cut
    Pair *p;
    FROCE_TRY(e.make_pair(pc, &p));
    Region src, dst;
    FROCE_TRY(e.make_region(e.a(), (nwqe + 1) * len, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src));
    FROCE_TRY(e.make_region(e.b(), (nwqe + 1) * len, kGuard, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE,
                            true, &dst));
    FROCE_TRY(e.write_data(e.a(), src, src.va(), src.len, 3));
    // the link works before the cut
    FROCE_TRY(e.a().post_send(p->qa, write_wr(src.va(), uint32_t(len), src.mr.key, dst.va(), dst.mr.key)));
    FROCE_TRY(e.run_until([&] { return p->a_send.size() >= 1; }, 400000, "the first WRITE's completion"));
    check_cqe(e, p->a_send, 0, "A (before the cut)", p->qa->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_WRITE);
    std::memcpy(&dst.shadow[dst.guard], &src.shadow[src.guard], len);

    if (e.inject()) {
        e.note("--inject-error: the wire stays intact, this scenario must FAIL");
    } else {
        e.sim().set_cut(false, true);
        e.note("B->A cut: every frame B sends from now on is lost");
    }
    Counters a0, b0, a1, b1;
    uint64_t adp0 = 0, adp1 = 0;
    FROCE_TRY(e.snapshot(e.a(), &a0));
    FROCE_TRY(e.snapshot(e.b(), &b0));
    FROCE_TRY(e.a().read_icounter(FROCE_ICNT_ADP_RETRANS, &adp0));
    const size_t f0 = e.frames().size();
    const uint64_t c0 = e.sim().cycle();
    for (unsigned i = 1; i <= nwqe; i++)
        FROCE_TRY(e.a().post_send(p->qa, write_wr(src.va() + i * len, uint32_t(len), src.mr.key, dst.va() + i * len, dst.mr.key)));
    const uint64_t tmo = uint64_t(640) << pc.timeout_a;
    FROCE_TRY(e.run_until([&] { return p->a_send.size() >= 1 + nwqe; }, (retry + 3) * tmo + 200000,
                          "A's completions after the cut"));
    const uint64_t c1 = e.sim().cycle();
    FROCE_TRY(e.quiet(3 * tmo));   // nothing more may be sent
    FROCE_TRY(e.snapshot(e.a(), &a1));
    FROCE_TRY(e.snapshot(e.b(), &b1));
    FROCE_TRY(e.a().read_icounter(FROCE_ICNT_ADP_RETRANS, &adp1));
    // adaptive retransmission first: 4096 cycles (froce_rx_engine's
    // AR_BASE_CYCLES at MTU 1024) is below the QP's 5120, the doubled 8192 is
    // not; that expiry resends too but uses no retry
    const unsigned adp = 1;
    e.check(adp1 - adp0 == adp, sfmt("A: %u adaptive expiry before the QP's own timeouts (icnt_adp_retrans)", adp),
            sfmt("%" PRIu64, adp1 - adp0));
    e.note(sfmt("RETRY_EXC_ERR %" PRIu64 " cycles after the posts (ACK timeout %" PRIu64 " cycles, retry_cnt %u)", c1 - c0,
                tmo, retry));

    e.check(p->a_send.size() == 1 + nwqe, sfmt("A: exactly %u send CQEs after the cut", nwqe), sfmt("%zu", p->a_send.size() - 1));
    check_cqe(e, p->a_send, 1, "A", p->qa->qpn, 1, FROCE_WC_RETRY_EXC_ERR, FROCE_CQE_OP_RDMA_WRITE);
    for (unsigned i = 2; i <= nwqe; i++) check_cqe(e, p->a_send, i, "A", p->qa->qpn, uint16_t(i), FROCE_WC_WR_FLUSH_ERR, -1);
    const uint32_t tmos = delta(a0, a1, FROCE_CNT_LOCAL_ACK_TIMEOUT_ERR);
    e.check(tmos == retry + 1, sfmt("A: LOCAL_ACK_TIMEOUT_ERR moved by retry_cnt + 1 = %u (retry_cnt expiries resend, one more fails)", retry + 1),
            sfmt("moved by %u", tmos));
    e.check(delta(a0, a1, FROCE_CNT_RETRY_EXCEEDED_ERR) == 1, "A: RETRY_EXCEEDED_ERR moved by 1",
            sfmt("moved by %u", delta(a0, a1, FROCE_CNT_RETRY_EXCEEDED_ERR)));
    // frames A sent after the cut: every round resends all packets from the oldest WQE (go-back-N)
    unsigned sent = 0, resent = 0;
    std::set<uint32_t> psns;
    std::vector<uint64_t> round_start;
    for (size_t i = f0; i < e.frames().size(); i++) {
        const Frame &f = e.frames()[i];
        if (f.dir != 0 || !f.is_request()) continue;
        sent++;
        if (!psns.insert(f.psn).second) resent++;
        if (sent % pkts == 1) round_start.push_back(f.cycle);
    }
    e.check(psns.size() == pkts, sfmt("A sent %u distinct PSNs after the cut", pkts), sfmt("%zu", psns.size()));
    e.check(resent == (retry + adp) * pkts,
            sfmt("A retransmitted (retry_cnt + %u) x %u = %u frames (go-back-N from the oldest WQE)", adp, pkts,
                 (retry + adp) * pkts),
            sfmt("%u retransmitted, %u request frames in all", resent, sent));
    std::string gaps;
    for (size_t i = 1; i < round_start.size(); i++) gaps += sfmt(" %" PRIu64, round_start[i] - round_start[i - 1]);
    e.note(sfmt("cycles between transmission rounds:%s", gaps.c_str()));
    const uint32_t dups = delta(b0, b1, FROCE_CNT_DUPLICATE_REQUEST);
    e.check(dups == (retry + adp) * pkts,
            sfmt("B: DUPLICATE_REQUEST moved by %u (every retransmission reached B)", (retry + adp) * pkts),
            sfmt("moved by %u", dups));
    for (unsigned i = 1; i <= nwqe; i++) std::memcpy(&dst.shadow[dst.guard + i * len], &src.shadow[src.guard + i * len], len);
    std::string d = e.region_diff(e.b(), dst);
    e.check(d.empty(), "B executed every WRITE (its ACKs were lost, not the requests); guards intact", d);
    e.check(e.sim().stats().cut_b_to_a > 0, "B's answers were lost on the cut wire",
            sfmt("%" PRIu64 " frames cut", e.sim().stats().cut_b_to_a));
    e.check(p->b_recv.empty() && p->b_send.empty(), "B: no CQE", p->b_recv.empty() ? "" : cqe_str(p->b_recv[0]));
    return Status();
}

// ---------------------------------------------------------------------------
// 2b. go-back-N inside a long message (docs/transport-engine.md "Loss recovery")

// Drops A->B request frame number `nth` after the call (0-based) and, if
// drop_nak, B's first PSN-sequence NAK after it. *lost_psn gets the PSN.
void drop_one_request(Env &e, unsigned nth, bool drop_nak, uint32_t *lost_psn) {
    auto seen = std::make_shared<unsigned>(0);
    auto nak_done = std::make_shared<bool>(!drop_nak);
    e.sim().set_drop_filter([=](int dir, const std::vector<uint8_t> &f) {
        Frame fr = parse_frame(dir, f, 0);
        if (dir == 0 && fr.is_request() && (*seen)++ == nth) {
            *lost_psn = fr.psn;
            return true;
        }
        if (dir == 1 && !*nak_done && *seen > nth && fr.is_ack() &&
            fr.syndrome == ((FROCE_AETH_TYPE_NAK << 5) | FROCE_AETH_NAK_PSN_SEQ_ERR)) {
            *nak_done = true;
            return true;
        }
        return false;
    });
}

// One 256-packet WRITE (MTU 1024) that loses request packet 100 (and, with
// drop_nak, B's NAK for it): completes SUCCESS with B's data intact; the
// figures the scenarios below check.
struct LossyWrite {
    uint32_t lost = 0;            // PSN of the lost packet
    size_t f0 = 0;                // first frame of the WRITE
    uint64_t took = 0;            // cycles from the post to the CQE
    Counters a0, a1;              // A's counters before / after
    uint64_t adp = 0;             // A's adaptive expiries (ICNT_ADP_RETRANS)
};
constexpr unsigned kLossyPkts = 256, kLossyAt = 100;

Status lossy_write(Env &e, bool drop_nak, uint64_t tag, LossyWrite *w) {
    PairCfg pc = e.pair_cfg();     // timeout 14: 4.096 us * 2^14 = 67 ms
    Pair *p;
    FROCE_TRY(e.make_pair(pc, &p));
    const uint64_t len = uint64_t(kLossyPkts) * kMtu;
    Region src, dst;
    FROCE_TRY(e.make_region(e.a(), len, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src));
    FROCE_TRY(e.make_region(e.b(), len, kGuard, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE, true, &dst));
    FROCE_TRY(e.write_data(e.a(), src, src.va(), src.len, tag));
    if (e.inject())
        e.note("--inject-error: nothing is lost, this scenario must FAIL");
    else
        drop_one_request(e, kLossyAt, drop_nak, &w->lost);
    uint64_t adp0 = 0, adp1 = 0;
    FROCE_TRY(e.snapshot(e.a(), &w->a0));
    FROCE_TRY(e.a().read_icounter(FROCE_ICNT_ADP_RETRANS, &adp0));
    w->f0 = e.frames().size();
    const uint64_t c0 = e.sim().cycle();
    FROCE_TRY(e.a().post_send(p->qa, write_wr(src.va(), uint32_t(len), src.mr.key, dst.va(), dst.mr.key)));
    FROCE_TRY(e.run_until([&] { return p->a_send.size() >= 1; }, 2000000, "the WRITE's completion"));
    w->took = e.sim().cycle() - c0;
    FROCE_TRY(e.quiet(5000));
    FROCE_TRY(e.snapshot(e.a(), &w->a1));
    FROCE_TRY(e.a().read_icounter(FROCE_ICNT_ADP_RETRANS, &adp1));
    w->adp = adp1 - adp0;
    check_cqe(e, p->a_send, 0, "A", p->qa->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_WRITE);
    std::memcpy(&dst.shadow[dst.guard], &src.shadow[src.guard], len);
    std::string d = e.region_diff(e.b(), dst);
    e.check(d.empty(), "B holds the message; guards intact", d);
    return Status();
}

// B NAKs the lost packet's PSN once; A must act on it at the next packet
// boundary (not after the other 155 packets of the message), resend from
// that PSN only, and complete without a timeout.
Status sc_nak_mid_message(Env &e) {
    LossyWrite w;
    FROCE_TRY(lossy_write(e, false, 21, &w));
    // B's NAK, then A's request frames until the lost PSN goes out again
    uint64_t nak_cycle = 0;
    unsigned requests = 0, after_nak = 0, resent_at = 0;
    bool resent = false;
    for (size_t i = w.f0; i < e.frames().size(); i++) {
        const Frame &f = e.frames()[i];
        if (f.dir == 1 && f.is_ack() && (f.syndrome >> 5) == FROCE_AETH_TYPE_NAK && !nak_cycle) nak_cycle = f.cycle + 1;
        if (f.dir != 0 || !f.is_request()) continue;
        requests++;
        if (nak_cycle && !resent) {
            after_nak++;
            if (f.psn == w.lost) {
                resent = true;
                resent_at = after_nak;
            }
        }
    }
    e.check(nak_cycle != 0, "B sent a PSN-sequence NAK");
    e.check(resent && resent_at <= 4,
            "A resent the lost PSN within 4 request frames of B's NAK (it stopped the message at the next packet)",
            resent ? sfmt("it was request frame %u after the NAK", resent_at) : "never resent");
    e.check(requests <= kLossyPkts + 16, sfmt("A sent at most %u + 16 request frames", kLossyPkts),
            sfmt("%u", requests));
    e.check(delta(w.a0, w.a1, FROCE_CNT_PACKET_SEQ_ERR) == 1, "A: PACKET_SEQ_ERR moved by 1",
            sfmt("moved by %u", delta(w.a0, w.a1, FROCE_CNT_PACKET_SEQ_ERR)));
    e.check(delta(w.a0, w.a1, FROCE_CNT_LOCAL_ACK_TIMEOUT_ERR) == 0, "A: no ACK timeout",
            sfmt("moved by %u", delta(w.a0, w.a1, FROCE_CNT_LOCAL_ACK_TIMEOUT_ERR)));
    return Status();
}

// B's NAK is lost too. B then ignores everything past the gap (IBA: one NAK
// per sequence error), so only A's timer repairs it: one adaptive expiry
// (4096 cycles, 26 us at MTU 1024; not the QP's 67 ms timeout), a resend
// from the oldest unacknowledged PSN (ACKs every 16 packets acknowledged the
// packets before the loss), not from the start of the message.
Status sc_lost_nak(Env &e) {
    LossyWrite w;
    FROCE_TRY(lossy_write(e, true, 22, &w));
    e.check(w.adp == 1, "A: exactly one adaptive retransmission (icnt_adp_retrans)", sfmt("%" PRIu64, w.adp));
    e.check(delta(w.a0, w.a1, FROCE_CNT_LOCAL_ACK_TIMEOUT_ERR) == 0, "A: no expiry of the QP's own timeout",
            sfmt("moved by %u", delta(w.a0, w.a1, FROCE_CNT_LOCAL_ACK_TIMEOUT_ERR)));
    // about 256 packets of 1 KiB at 138 cycles, one short timer, a few resent
    e.check(w.took < 40000 + 4096 + 20000, "the WRITE completed within its clean time + one adaptive timer + 20000 cycles",
            sfmt("%" PRIu64 " cycles", w.took));
    // the resend: the first request frame whose PSN is below one sent before it
    uint32_t first = 0, high = 0, resend_from = 0;
    bool any = false, went_back = false;
    for (size_t i = w.f0; i < e.frames().size(); i++) {
        const Frame &f = e.frames()[i];
        if (f.dir != 0 || !f.is_request()) continue;
        if (!any) {
            first = high = f.psn;
            any = true;
        } else if (!went_back && ((f.psn - high) & 0x800000)) {
            went_back = true;
            resend_from = f.psn;
        } else if (!went_back) {
            high = f.psn;
        }
    }
    e.check(went_back, "A went back (go-back-N)");
    const uint32_t from_off = (resend_from - first) & 0xFFFFFF, lost_off = (w.lost - first) & 0xFFFFFF;
    e.check(went_back && from_off > 0 && from_off <= lost_off && lost_off - from_off < 16,
            "A resent from the oldest unacknowledged PSN (at most 15 packets before the lost one), not the message's start",
            sfmt("resent from packet %u, lost packet %u", from_off, lost_off));
    return Status();
}

// 3. RNR

unsigned count_rnr_naks(const Env &e, size_t from) {
    unsigned n = 0;
    for (size_t i = from; i < e.frames().size(); i++)
        if (e.frames()[i].dir == 1 && e.frames()[i].is_rnr_nak()) n++;
    return n;
}

Status sc_rnr_infinite(Env &e) {
    PairCfg pc = e.pair_cfg();
    pc.rnr_retry_a = 7;       // infinite
    pc.min_rnr_timer_b = 1;   // 1563 cycles
    const uint64_t len = 2500;   // 3 packets
    const unsigned rounds = 10;  // more than 7: 7 must mean "forever"
    Pair *p;
    FROCE_TRY(e.make_pair(pc, &p));
    Region src, dst;
    FROCE_TRY(e.make_region(e.a(), len, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src));
    FROCE_TRY(e.make_region(e.b(), len, kGuard, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE, true, &dst));
    FROCE_TRY(e.write_data(e.a(), src, src.va(), len, 4));
    RecvWr rw;
    rw.sg.push_back({dst.va(), uint32_t(len), dst.mr.key});
    if (e.inject()) {
        e.note("--inject-error: the receive is posted first, this scenario must FAIL");
        FROCE_TRY(e.b().post_recv(p->qb, rw));
    }
    Counters a0, b0, a1, b1;
    FROCE_TRY(e.snapshot(e.a(), &a0));
    FROCE_TRY(e.snapshot(e.b(), &b0));
    const size_t f0 = e.frames().size();
    FROCE_TRY(e.a().post_send(p->qa, send_wr(src.va(), uint32_t(len), src.mr.key)));
    FROCE_TRY(e.run_until([&] { return count_rnr_naks(e, f0) >= rounds || !p->a_send.empty(); }, 400000,
                          sfmt("%u RNR NAKs from B", rounds)));
    FROCE_TRY(e.snapshot(e.a(), &a1));
    FROCE_TRY(e.snapshot(e.b(), &b1));
    const uint32_t sent = delta(b0, b1, FROCE_CNT_SEND_RNR_ERR), rcvd = delta(a0, a1, FROCE_CNT_RCVD_RNR_ERR);
    e.check(p->a_send.empty(), sfmt("A: the SEND has not completed after %u RNR NAKs (rnr_retry 7 = infinite)", rounds),
            p->a_send.empty() ? "" : cqe_str(p->a_send[0]));
    e.check(sent >= rounds, sfmt("B: SEND_RNR_ERR moved by at least %u", rounds), sfmt("moved by %u", sent));
    e.check(rcvd >= rounds - 1, sfmt("A: RCVD_RNR_ERR moved by at least %u", rounds - 1), sfmt("moved by %u", rcvd));
    e.check(p->b_recv.empty(), "B: no receive CQE yet", p->b_recv.empty() ? "" : cqe_str(p->b_recv[0]));
    e.note(sfmt("B SEND_RNR_ERR +%u, OUT_OF_BUFFER +%u; A RCVD_RNR_ERR +%u", sent, delta(b0, b1, FROCE_CNT_OUT_OF_BUFFER), rcvd));
    // B posts the receive: the next retry gets through
    if (!e.inject()) FROCE_TRY(e.b().post_recv(p->qb, rw));
    FROCE_TRY(e.run_until([&] { return !p->a_send.empty() && !p->b_recv.empty(); }, 400000,
                          "the SEND's completions after the receive was posted"));
    FROCE_TRY(e.quiet(5000));
    check_cqe(e, p->a_send, 0, "A", p->qa->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_SEND);
    check_cqe(e, p->b_recv, 0, "B receive", p->qb->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RECV);
    if (!p->b_recv.empty())
        e.check(p->b_recv[0].byte_cnt == len, sfmt("B receive CQE byte_cnt %" PRIu64, len), sfmt("%u", p->b_recv[0].byte_cnt));
    e.check(p->a_send.size() == 1 && p->b_recv.size() == 1, "exactly one CQE on each side",
            sfmt("A %zu, B %zu", p->a_send.size(), p->b_recv.size()));
    std::memcpy(&dst.shadow[dst.guard], &src.shadow[src.guard], len);
    std::string d = e.region_diff(e.b(), dst);
    e.check(d.empty(), "B's receive buffer holds the SEND's bytes, guards intact", d);
    return Status();
}

Status sc_rnr_finite(Env &e) {
    PairCfg pc = e.pair_cfg();
    pc.rnr_retry_a = 2;
    pc.min_rnr_timer_b = 1;
    const unsigned nwqe = 3;
    const uint64_t len = 512;   // 1 packet each
    Pair *p;
    FROCE_TRY(e.make_pair(pc, &p));
    Region src, dst;
    FROCE_TRY(e.make_region(e.a(), nwqe * len, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src));
    FROCE_TRY(e.make_region(e.b(), nwqe * len, kGuard, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE, true, &dst));
    FROCE_TRY(e.write_data(e.a(), src, src.va(), src.len, 5));
    if (e.inject()) {
        e.note("--inject-error: receives are posted, this scenario must FAIL");
        for (unsigned i = 0; i < nwqe; i++) {
            RecvWr rw;
            rw.sg.push_back({dst.va() + i * len, uint32_t(len), dst.mr.key});
            FROCE_TRY(e.b().post_recv(p->qb, rw));
        }
    }
    Counters a0, b0, a1, b1;
    FROCE_TRY(e.snapshot(e.a(), &a0));
    FROCE_TRY(e.snapshot(e.b(), &b0));
    const size_t f0 = e.frames().size();
    for (unsigned i = 0; i < nwqe; i++) FROCE_TRY(e.a().post_send(p->qa, send_wr(src.va() + i * len, uint32_t(len), src.mr.key)));
    FROCE_TRY(e.run_until([&] { return p->a_send.size() >= nwqe; }, 400000, "A's completions (no receive is ever posted)"));
    FROCE_TRY(e.quiet(20000));   // > several RNR delays: nothing more may happen
    FROCE_TRY(e.snapshot(e.a(), &a1));
    FROCE_TRY(e.snapshot(e.b(), &b1));
    e.check(p->a_send.size() == nwqe, sfmt("A: exactly %u send CQEs", nwqe), sfmt("%zu", p->a_send.size()));
    check_cqe(e, p->a_send, 0, "A", p->qa->qpn, 0, FROCE_WC_RNR_RETRY_EXC_ERR, FROCE_CQE_OP_SEND);
    for (unsigned i = 1; i < nwqe; i++) check_cqe(e, p->a_send, i, "A", p->qa->qpn, uint16_t(i), FROCE_WC_WR_FLUSH_ERR, -1);
    const unsigned want = pc.rnr_retry_a + 1;   // the first RNR NAK, then rnr_retry retries each NAKed
    const unsigned wire = count_rnr_naks(e, f0);
    const uint32_t sent = delta(b0, b1, FROCE_CNT_SEND_RNR_ERR), rcvd = delta(a0, a1, FROCE_CNT_RCVD_RNR_ERR);
    e.check(wire == want, sfmt("RNR NAKs on the wire: rnr_retry + 1 = %u", want), sfmt("%u", wire));
    e.check(sent == want, sfmt("B: SEND_RNR_ERR moved by %u", want), sfmt("moved by %u", sent));
    e.check(rcvd == want, sfmt("A: RCVD_RNR_ERR moved by %u", want), sfmt("moved by %u", rcvd));
    // how soon after each RNR NAK the NAKed PSN went out again (IB: not before the RNR timer)
    std::string gaps;
    uint64_t last_nak = 0;
    uint32_t nak_psn = 0;
    bool have = false;
    unsigned early = 0;
    for (size_t i = f0; i < e.frames().size(); i++) {
        const Frame &f = e.frames()[i];
        if (f.dir == 1 && f.is_rnr_nak()) {
            last_nak = f.cycle;
            nak_psn = f.psn;
            have = true;
        } else if (have && f.dir == 0 && f.is_request() && f.psn == nak_psn) {
            gaps += sfmt(" %" PRIu64, f.cycle - last_nak);
            if (f.cycle - last_nak < 1563) early++;
            have = false;
        }
    }
    e.note(sfmt("cycles from each RNR NAK to the resend of its PSN:%s (RNR timer 1563 cycles)", gaps.c_str()));
    if (early)
        e.note(sfmt("%u resend(s) came before the RNR timer expired (a PSN-sequence NAK for the later WQEs made A rewind at once)",
                    early));
    const uint32_t rnr_exc = delta(a0, a1, FROCE_CNT_RNR_NAK_RETRY_ERR);
    e.check(rnr_exc == 1, "A: RNR_NAK_RETRY_ERR moved by 1", sfmt("moved by %u", rnr_exc));
    std::string d = e.region_diff(e.b(), dst);
    e.check(d.empty(), "B's memory unchanged", d);
    e.check(p->b_recv.empty() && p->b_send.empty(), "B: no CQE", p->b_recv.empty() ? "" : cqe_str(p->b_recv[0]));
    return Status();
}

// ---------------------------------------------------------------------------
// 4. foreign UAR page

Status sc_foreign_uar(Env &e) {
    PairCfg pc = e.pair_cfg();
    Pair *p, *other;
    FROCE_TRY(e.make_pair(pc, &p));
    // the other pair's A side in a PD of another user context: its QP and CQs ring on another UAR page
    PairCfg po = pc;
    FROCE_TRY(e.a().alloc_pd(&po.pd_a));
    FROCE_TRY(e.make_pair(po, &other));
    uint32_t spare;
    FROCE_TRY(e.a().alloc_uar_page(&spare));
    const uint64_t len = 2 * kMtu;
    Region src, dst;
    FROCE_TRY(e.make_region(e.a(), len, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src));
    FROCE_TRY(e.make_region(e.b(), len, kGuard, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE, true, &dst));
    FROCE_TRY(e.write_data(e.a(), src, src.va(), len, 6));
    e.check(p->qa->uar != spare && p->qa->uar != other->qa->uar,
            sfmt("A's QP %#x is bound to UAR page %u; foreign pages %u (unused) and %u (QP %#x's)", p->qa->qpn, p->qa->uar,
                 spare, other->qa->uar, other->qa->qpn));
    Counters a0, a1, a2;
    FROCE_TRY(e.snapshot(e.a(), &a0));
    size_t f0 = e.frames().size();
    FROCE_TRY(e.a().post_send_wqe(p->qa, write_wr(src.va(), uint32_t(len), src.mr.key, dst.va(), dst.mr.key)));
    if (e.inject()) {
        e.note("--inject-error: the first doorbell goes to the QP's own page, this scenario must FAIL");
        FROCE_TRY(e.a().ring_sq(p->qa, p->qa->uar, p->qa->sq_slot));
    } else {
        FROCE_TRY(e.a().ring_sq(p->qa, spare, 0));
    }
    FROCE_TRY(e.a().ring_sq(p->qa, other->qa->uar, other->qa->sq_slot));
    FROCE_TRY(e.sim().a().wait_doorbells(10000));
    FROCE_TRY(e.quiet(5000));
    FROCE_TRY(e.snapshot(e.a(), &a1));
    unsigned from_a = 0;
    for (size_t i = f0; i < e.frames().size(); i++) from_a += e.frames()[i].dir == 0;
    e.check(from_a == 0, "no frame left A for 5000 cycles after two SQ doorbells on foreign pages", sfmt("%u frames", from_a));
    e.check(delta(a0, a1, FROCE_CNT_DOORBELL_DROPPED) == 2, "A: DOORBELL_DROPPED moved by 2",
            sfmt("moved by %u", delta(a0, a1, FROCE_CNT_DOORBELL_DROPPED)));
    e.check(p->a_send.empty(), "A: no completion", p->a_send.empty() ? "" : cqe_str(p->a_send[0]));
    std::string d = e.region_diff(e.b(), dst);
    e.check(d.empty(), "B's memory unchanged", d);
    // the right page: the WQE goes out and completes
    FROCE_TRY(e.a().ring_sq(p->qa, p->qa->uar, p->qa->sq_slot));
    FROCE_TRY(e.run_until([&] { return !p->a_send.empty(); }, 400000, "the completion after the right doorbell"));
    FROCE_TRY(e.quiet(2000));
    check_cqe(e, p->a_send, 0, "A", p->qa->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_WRITE);
    std::memcpy(&dst.shadow[dst.guard], &src.shadow[src.guard], len);
    d = e.region_diff(e.b(), dst);
    e.check(d.empty(), "B's memory holds the WRITE after the right doorbell, guards intact", d);
    FROCE_TRY(e.snapshot(e.a(), &a2));
    e.check(delta(a1, a2, FROCE_CNT_DOORBELL_DROPPED) == 0, "A: DOORBELL_DROPPED unchanged by the right doorbell",
            sfmt("moved by %u", delta(a1, a2, FROCE_CNT_DOORBELL_DROPPED)));
    e.check(other->a_send.empty(), "the other QP (whose page was used) got no completion",
            other->a_send.empty() ? "" : cqe_str(other->a_send[0]));

    // CQ doorbells: froce_doorbell checks the page; froce_core takes the arms and ignores them (no EQ yet)
    Counters c0, c1, c2;
    FROCE_TRY(e.snapshot(e.a(), &c0));
    FROCE_TRY(e.a().arm_cq_on(p->a_scq, false, spare, 1));
    FROCE_TRY(e.a().arm_cq_on(p->a_scq, false, other->a_scq->uar, other->a_scq->slot));
    FROCE_TRY(e.sim().a().wait_doorbells(10000));
    FROCE_TRY(e.quiet(200));
    FROCE_TRY(e.snapshot(e.a(), &c1));
    e.check(delta(c0, c1, FROCE_CNT_DOORBELL_DROPPED) == 2, "A: two CQ arm doorbells on foreign pages: DOORBELL_DROPPED moved by 2",
            sfmt("moved by %u", delta(c0, c1, FROCE_CNT_DOORBELL_DROPPED)));
    FROCE_TRY(e.a().arm_cq(p->a_scq, false));
    FROCE_TRY(e.sim().a().wait_doorbells(10000));
    FROCE_TRY(e.quiet(200));
    FROCE_TRY(e.snapshot(e.a(), &c2));
    e.check(delta(c1, c2, FROCE_CNT_DOORBELL_DROPPED) == 0, "A: a CQ arm on the CQ's own page is not dropped",
            sfmt("moved by %u", delta(c1, c2, FROCE_CNT_DOORBELL_DROPPED)));
    e.note("a CQ arm on its own page reaches the CQ engine (the cq-events scenario checks what it does)");
    return Status();
}

// ---------------------------------------------------------------------------
// 5. completion events: CQ arming, EQEs, EQ arming, MSI-X

// A -> B SENDs of 64 bytes into B's receive CQ (bound to an EQ of B), one
// receive posted per SEND.
struct EvRig {
    Pair *p = nullptr;
    Region src, dst;
    unsigned sent = 0;
};

Status ev_rig(Env &e, uint32_t eqn_a, uint32_t eqn_b, EvRig *r) {
    PairCfg pc = e.pair_cfg();
    pc.eqn_a = eqn_a;
    pc.eqn_b = eqn_b;
    FROCE_TRY(e.make_pair(pc, &r->p));
    FROCE_TRY(e.make_region(e.a(), 4096, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &r->src));
    FROCE_TRY(e.make_region(e.b(), 4096, 64, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE, true, &r->dst));
    return Status();
}

// One SEND (solicited or not); waits for B's receive CQE.
Status ev_send(Env &e, EvRig &r, bool solicited) {
    RecvWr rw;
    rw.sg.push_back({r.dst.va(), 64, r.dst.mr.key});
    FROCE_TRY(e.b().post_recv(r.p->qb, rw));
    SendWr wr = send_wr(r.src.va() + 64 * (r.sent % 32), 64, r.src.mr.key);
    wr.solicited = solicited;
    const size_t want = r.p->b_recv.size() + 1;
    FROCE_TRY(e.a().post_send(r.p->qa, wr));
    r.sent++;
    return e.run_until([&] { return r.p->b_recv.size() >= want; }, 200000, "B's receive CQE");
}

// Polls eq while stepping `cycles` cycles (and the CQs), appending to *v.
Status ev_collect(Env &e, Host &h, Eq *eq, uint64_t cycles, std::vector<Eqe> *v) {
    Status st;
    FROCE_TRY(h.poll_eq(eq, 64, v));
    for (uint64_t i = 0; i < cycles; i++) {
        FROCE_TRY(e.quiet(1));
        if (i % 16 == 0) FROCE_TRY(h.poll_eq(eq, 64, v));
    }
    return h.poll_eq(eq, 64, v);
}

// Arms cq; under --inject-error the arm is left out.
Status ev_arm(Env &e, Host &h, Cq *cq, bool solicited) {
    if (e.inject()) return Status();
    FROCE_TRY(h.arm_cq(cq, solicited));
    return h.nic().wait_doorbells(10000);
}

std::string eqes_str(const std::vector<Eqe> &v, size_t from) {
    std::string r;
    for (size_t i = from; i < v.size(); i++) r += (r.empty() ? "" : ", ") + v[i].str();
    return r.empty() ? "none" : r;
}

// The EQEs v[from..] are exactly n COMPLETIONs naming cqn.
void check_eqes(Env &e, const std::vector<Eqe> &v, size_t from, size_t n, uint32_t cqn, const std::string &what) {
    bool ok = v.size() - from == n;
    for (size_t i = from; ok && i < v.size(); i++) ok = v[i].type == FROCE_EQE_TYPE_COMPLETION && v[i].id == cqn;
    e.check(ok, sfmt("%s: %zu COMPLETION EQE(s) naming CQ %#x", what.c_str(), n, cqn), eqes_str(v, from));
}

Status sc_cq_events(Env &e) {
    if (e.inject()) e.note("--inject-error: no CQ is ever armed, this scenario must FAIL");
    EvRig r;
    Eq *eqb, *eqa;
    FROCE_TRY(e.b().create_eq(1, 6, 3, &eqb));   // EQ 1 through CREATE_EQ, 64 EQEs (before the CQs that name it)
    FROCE_TRY(ev_rig(e, 0, 1, &r));
    FROCE_TRY(e.a().create_eq(0, 6, 0, &eqa));   // EQ 0 through BAR0
    Cq *rcq = r.p->b_rcq;
    Host &b = e.b();
    std::vector<Eqe> ev, eva;

    // no arm: CQEs but no EQE
    FROCE_TRY(ev_send(e, r, false));
    FROCE_TRY(ev_send(e, r, true));
    FROCE_TRY(ev_collect(e, b, eqb, 2000, &ev));
    e.check(ev.empty(), "no EQE for 2 CQEs (one solicited) on a CQ never armed", eqes_str(ev, 0));

    // one EQE per arm, however many CQEs follow
    FROCE_TRY(ev_arm(e, b, rcq, false));
    for (int i = 0; i < 3; i++) FROCE_TRY(ev_send(e, r, false));
    FROCE_TRY(ev_collect(e, b, eqb, 2000, &ev));
    check_eqes(e, ev, 0, 1, rcq->cqn, "arm, then 3 SENDs");
    size_t n0 = ev.size();
    FROCE_TRY(ev_send(e, r, false));
    FROCE_TRY(ev_collect(e, b, eqb, 2000, &ev));
    check_eqes(e, ev, n0, 0, rcq->cqn, "a 4th SEND after the event, no new arm");

    // solicited-only arm: ignores unsolicited SENDs, fires on a solicited one
    n0 = ev.size();
    FROCE_TRY(ev_arm(e, b, rcq, true));
    FROCE_TRY(ev_send(e, r, false));
    FROCE_TRY(ev_send(e, r, false));
    FROCE_TRY(ev_collect(e, b, eqb, 2000, &ev));
    check_eqes(e, ev, n0, 0, rcq->cqn, "solicited-only arm, 2 unsolicited SENDs");
    FROCE_TRY(ev_send(e, r, true));
    FROCE_TRY(ev_send(e, r, true));
    FROCE_TRY(ev_collect(e, b, eqb, 2000, &ev));
    check_eqes(e, ev, n0, 1, rcq->cqn, "then 2 solicited SENDs");
    e.check(!r.p->b_recv.empty() && r.p->b_recv.back().solicited, "B's receive CQE of a solicited SEND has SOLICITED set",
            r.p->b_recv.empty() ? "no CQE" : cqe_str(r.p->b_recv.back()));

    // an arm whose CI is behind the producer index fires at once (no traffic)
    n0 = ev.size();
    rcq->ci -= 1;   // as if the last CQE had not been polled when arming
    Status st = ev_arm(e, b, rcq, false);
    rcq->ci += 1;
    FROCE_TRY(st);
    FROCE_TRY(ev_collect(e, b, eqb, 500, &ev));
    check_eqes(e, ev, n0, 1, rcq->cqn, "arm with CI one behind, no new CQE");
    // solicited-only arm with the CQE beyond CI unsolicited: no event; with a solicited one beyond CI: at once
    FROCE_TRY(ev_send(e, r, false));
    n0 = ev.size();
    rcq->ci -= 1;
    st = ev_arm(e, b, rcq, true);
    rcq->ci += 1;
    FROCE_TRY(st);
    FROCE_TRY(ev_collect(e, b, eqb, 500, &ev));
    check_eqes(e, ev, n0, 0, rcq->cqn, "solicited-only arm, the one CQE beyond CI unsolicited");
    rcq->ci -= 2;   // beyond CI now: a solicited CQE and the unsolicited one
    st = ev_arm(e, b, rcq, true);
    rcq->ci += 2;
    FROCE_TRY(st);
    FROCE_TRY(ev_collect(e, b, eqb, 500, &ev));
    check_eqes(e, ev, n0, 1, rcq->cqn, "solicited-only arm, a solicited CQE beyond CI");

    // the EQ ring wraps: > 64 events (stale-CI arms), the owner bit flips on the second pass
    FROCE_TRY(b.eq_doorbell(eqb, false));
    const size_t wrap0 = ev.size();
    const unsigned extra = 70;
    for (unsigned i = 0; i < extra; i++) {
        rcq->ci -= 1;
        st = ev_arm(e, b, rcq, false);
        rcq->ci += 1;
        FROCE_TRY(st);
        FROCE_TRY(ev_collect(e, b, eqb, 60, &ev));
        FROCE_TRY(b.eq_doorbell(eqb, false));   // hand the consumed EQEs back (CI)
    }
    check_eqes(e, ev, wrap0, extra, rcq->cqn, sfmt("%u stale-CI arms", extra));
    unsigned bad_owner = 0, second_pass = 0;
    for (size_t i = 0; i < ev.size(); i++) {
        const bool want = !((i >> eqb->log_size) & 1);
        bad_owner += ev[i].owner != want;
        second_pass += !want;
    }
    e.check(ev.size() > eqb->size() && second_pass > 0 && bad_owner == 0,
            sfmt("EQ of %u entries wrapped: %zu EQEs, owner 1 on the first pass and 0 on the second", eqb->size(), ev.size()),
            sfmt("%zu EQEs, %u on the second pass, %u with a wrong owner", ev.size(), second_pass, bad_owner));

    // an error CQE fires a solicited-only arm (A's send CQ, EQ 0 of A through BAR0)
    Cq *scq = r.p->a_scq;
    FROCE_TRY(ev_arm(e, e.a(), scq, true));
    FROCE_TRY(ev_send(e, r, true));   // a successful SEND: its send CQE is neither solicited nor an error
    FROCE_TRY(ev_collect(e, e.a(), eqa, 2000, &eva));
    check_eqes(e, eva, 0, 0, scq->cqn, "A: solicited-only arm, a successful SEND's send CQE");
    // B's region has no REMOTE_WRITE: the WRITE completes with REM_ACCESS_ERR
    const size_t s0 = r.p->a_send.size();
    FROCE_TRY(e.a().post_send(r.p->qa, write_wr(r.src.va(), 64, r.src.mr.key, r.dst.va(), r.dst.mr.key)));
    FROCE_TRY(e.run_until([&] { return r.p->a_send.size() > s0; }, 200000, "A's WRITE completion"));
    e.check(r.p->a_send.back().status == FROCE_WC_REM_ACCESS_ERR, "A: WRITE to an MR without REMOTE_WRITE: REM_ACCESS_ERR",
            cqe_str(r.p->a_send.back()));
    FROCE_TRY(ev_collect(e, e.a(), eqa, 2000, &eva));
    check_eqes(e, eva, 0, 1, scq->cqn, "A: solicited-only arm, then an error CQE (EQ 0, BAR0)");
    uint64_t eqes = 0;
    FROCE_TRY(b.read_icounter(FROCE_ICNT_EQES, &eqes));
    e.check(eqes == ev.size(), sfmt("B: internal counter EQES = %zu EQEs polled", ev.size()), sfmt("%" PRIu64, eqes));
    e.check(e.sim().b().stats().msix == 0 && e.sim().a().stats().msix == 0, "no MSI-X request: no EQ was armed",
            sfmt("A %" PRIu64 ", B %" PRIu64, e.sim().a().stats().msix, e.sim().b().stats().msix));
    return Status();
}

// Arms eq; under --inject-error the EQ arm is left out.
Status ev_arm_eq(Env &e, Host &h, Eq *eq) {
    if (e.inject()) return h.eq_doorbell(eq, false);
    return h.arm_eq(eq);
}

Status sc_eq_msix(Env &e) {
    if (e.inject()) e.note("--inject-error: EQ doorbells never carry ARM, this scenario must FAIL");
    EvRig r;
    Host &b = e.b();
    const Nic &nb = e.sim().b();
    Eq *eqb;
    const unsigned vec = 5;
    FROCE_TRY(b.create_eq(2, 6, vec, &eqb));   // before the CQs that name it
    FROCE_TRY(ev_rig(e, 0, 2, &r));
    // the MSI-X table entry of the vector: the message carries it
    const uint32_t tab = FROCE_BAR0_MSIX_TABLE_BASE + 16 * vec;
    const uint64_t msg_addr = 0xfee01000ull | (uint64_t(e.seed() & 0xff) << 40);
    const uint32_t msg_data = 0x4000u + uint32_t(e.seed() & 0xfff);
    FROCE_TRY(b.nic().bar0_write32(tab, uint32_t(msg_addr)));
    FROCE_TRY(b.nic().bar0_write32(tab + 4, uint32_t(msg_addr >> 32)));
    FROCE_TRY(b.nic().bar0_write32(tab + 8, msg_data));
    Cq *rcq = r.p->b_rcq;
    std::vector<Eqe> ev;
    auto msix = [&](unsigned v) { return nb.stats().msix_per_vector[v]; };
    auto one_event = [&](bool arm_cq) -> Status {   // an armed CQ, a SEND: one EQE
        if (arm_cq) {
            FROCE_TRY(b.arm_cq(rcq, false));
            FROCE_TRY(b.nic().wait_doorbells(10000));
        }
        return ev_send(e, r, false);
    };

    // EQ not armed: the EQE is written, no MSI-X
    FROCE_TRY(one_event(true));
    FROCE_TRY(ev_collect(e, b, eqb, 1000, &ev));
    check_eqes(e, ev, 0, 1, rcq->cqn, "EQ not armed: an event");
    e.check(nb.stats().msix == 0, "no MSI-X while the EQ is not armed", sfmt("%" PRIu64, nb.stats().msix));

    // armed with nothing beyond CI: quiet until the next EQE, then one MSI-X for three EQEs
    FROCE_TRY(ev_arm_eq(e, b, eqb));
    FROCE_TRY(ev_collect(e, b, eqb, 500, &ev));
    e.check(nb.stats().msix == 0, "EQ armed with no EQE beyond CI: no MSI-X yet", sfmt("%" PRIu64, nb.stats().msix));
    size_t n0 = ev.size();
    for (int i = 0; i < 3; i++) FROCE_TRY(one_event(true));
    FROCE_TRY(ev_collect(e, b, eqb, 1000, &ev));
    check_eqes(e, ev, n0, 3, rcq->cqn, "3 events on the armed EQ");
    e.check(msix(vec) == 1 && nb.stats().msix == 1, sfmt("exactly one MSI-X, on the EQ's vector %u, for 3 EQEs", vec),
            sfmt("vector %u: %" PRIu64 ", all vectors: %" PRIu64, vec, msix(vec), nb.stats().msix));
    e.check(nb.stats().msix_last_addr[vec] == msg_addr && nb.stats().msix_last_data[vec] == msg_data,
            "the MSI-X carries its table entry's address and data",
            sfmt("address %#" PRIx64 " data %#x, table %#" PRIx64 " %#x", nb.stats().msix_last_addr[vec],
                 nb.stats().msix_last_data[vec], msg_addr, msg_data));

    // arming with EQEs beyond CI raises the vector at once
    FROCE_TRY(one_event(true));   // EQ disarmed: written, not signalled
    const uint32_t ci_now = eqb->ci;
    FROCE_TRY(e.quiet(500));      // not polled: the EQE stays beyond CI
    e.check(msix(vec) == 1, "an EQE after the MSI-X, EQ not re-armed: no MSI-X", sfmt("%" PRIu64, msix(vec)));
    const uint64_t t0 = e.sim().cycle();
    FROCE_TRY(ev_arm_eq(e, b, eqb));
    uint64_t t1 = 0;
    FROCE_TRY(e.run_until([&] { if (msix(vec) >= 2 && !t1) t1 = e.sim().cycle(); return msix(vec) >= 2 || e.sim().cycle() - t0 > 300; },
                          1000, "the MSI-X after arming"));
    e.check(msix(vec) == 2 && t1 && t1 - t0 < 100, "arming the EQ with an EQE beyond CI: MSI-X at once",
            sfmt("%" PRIu64 " MSI-X, %" PRIu64 " cycles after the arm", msix(vec), t1 ? t1 - t0 : 0));
    FROCE_TRY(ev_collect(e, b, eqb, 200, &ev));
    e.check(eqb->ci == ci_now + 1, "the pending EQE was there to poll", sfmt("CI %u -> %u", ci_now, eqb->ci));

    // a masked vector: the request waits in the PBA until unmasked
    const uint32_t vctl = FROCE_BAR0_MSIX_TABLE_BASE + 16 * vec + 12;
    FROCE_TRY(b.nic().bar0_write32(vctl, 1));
    FROCE_TRY(ev_arm_eq(e, b, eqb));
    FROCE_TRY(one_event(true));
    FROCE_TRY(ev_collect(e, b, eqb, 500, &ev));
    uint32_t pba = 0, vc = 0;
    FROCE_TRY(b.nic().bar0_read32(FROCE_BAR0_MSIX_PBA_BASE, &pba));
    FROCE_TRY(b.nic().bar0_read32(vctl, &vc));
    e.check(msix(vec) == 2 && ((pba >> vec) & 1) && vc == 1, sfmt("vector %u masked: no MSI-X, PBA bit set", vec),
            sfmt("%" PRIu64 " MSI-X, PBA %#x, vector control %#x", msix(vec), pba, vc));
    FROCE_TRY(b.nic().bar0_write32(vctl, 0));
    FROCE_TRY(e.quiet(50));
    FROCE_TRY(b.nic().bar0_read32(FROCE_BAR0_MSIX_PBA_BASE, &pba));
    e.check(msix(vec) == 3 && pba == 0, "unmasked: the pending MSI-X is sent, PBA clear",
            sfmt("%" PRIu64 " MSI-X, PBA %#x", msix(vec), pba));

    // EQ 0 of A through BAR0, its own vector
    Eq *eqa;
    FROCE_TRY(e.a().create_eq(0, 6, 2, &eqa));
    std::vector<Eqe> eva;
    FROCE_TRY(ev_arm_eq(e, e.a(), eqa));
    FROCE_TRY(e.a().arm_cq(r.p->a_scq, false));
    FROCE_TRY(e.sim().a().wait_doorbells(10000));
    FROCE_TRY(ev_send(e, r, false));
    FROCE_TRY(ev_collect(e, e.a(), eqa, 1000, &eva));
    check_eqes(e, eva, 0, 1, r.p->a_scq->cqn, "A: EQ 0 (BAR0), send CQ armed, a SEND");
    const Nic &na = e.sim().a();
    e.check(na.stats().msix == 1 && na.stats().msix_per_vector[2] == 1, "A: one MSI-X, on EQ 0's vector 2",
            sfmt("%" PRIu64 " MSI-X, %" PRIu64 " on vector 2", na.stats().msix, na.stats().msix_per_vector[2]));

    // counters and BAR0 registers
    uint64_t im = 0;
    FROCE_TRY(b.read_icounter(FROCE_ICNT_MSIX, &im));
    e.check(im == nb.stats().msix, "B: internal counter MSIX = MSI-X requests seen on the port", sfmt("%" PRIu64 " vs %" PRIu64, im, nb.stats().msix));
    uint32_t id = 0, ver = 0, hash = 0, irq = 0, sc = 0, cmd = 0, cmd0 = 0, unm = 0;
    Nic &bn = b.nic();
    FROCE_TRY(bn.bar0_read32(FROCE_REG_ID, &id));
    FROCE_TRY(bn.bar0_read32(FROCE_REG_HW_VERSION, &ver));
    FROCE_TRY(bn.bar0_read32(FROCE_REG_SPEC_HASH, &hash));
    FROCE_TRY(bn.bar0_read32(FROCE_REG_IRQ_INFO, &irq));
    FROCE_TRY(bn.bar0_write32(FROCE_REG_SCRATCH, 0x5A5AC3C3u));
    FROCE_TRY(bn.bar0_read32(FROCE_REG_SCRATCH, &sc));
    // CMD_ADDR_LO is the mailbox's (rw): it reads back, then the driver's block address goes back
    FROCE_TRY(bn.bar0_read32(FROCE_REG_CMD_ADDR_LO, &cmd0));
    FROCE_TRY(bn.bar0_write32(FROCE_REG_CMD_ADDR_LO, 0x12345000u));
    FROCE_TRY(bn.bar0_read32(FROCE_REG_CMD_ADDR_LO, &cmd));
    FROCE_TRY(bn.bar0_write32(FROCE_REG_CMD_ADDR_LO, cmd0));
    FROCE_TRY(bn.bar0_read32(0x0FFC, &unm));
    e.check(id == (uint32_t(FROCE_PCI_DEVICE_ID) << 16 | FROCE_PCI_VENDOR_ID) && ver == FROCE_HW_VERSION &&
                hash == FROCE_HW_SPEC_HASH && sc == 0x5A5AC3C3u && cmd == 0x12345000u &&
                cmd0 == uint32_t(b.mailbox()->block_pa()) && unm == 0 &&
                ((irq >> FROCE_REG_IRQ_INFO_NUM_VECTORS_SHIFT) & 0xFF) == FROCE_MSIX_MAX_VECTORS,
            "BAR0: ID, HW_VERSION, SPEC_HASH, IRQ_INFO, SCRATCH and CMD_ADDR_LO (the command block's) read back; an "
            "unmapped offset reads 0",
            sfmt("ID %#x HW_VERSION %#x SPEC_HASH %#x IRQ_INFO %#x SCRATCH %#x CMD_ADDR_LO %#x (block %#x) unmapped %#x",
                 id, ver, hash, irq, sc, cmd, cmd0, unm));
    uint64_t pk64 = 0;
    std::vector<uint64_t> qc;
    FROCE_TRY(b.read_counter64(FROCE_CNT_RCVD_PKTS, &pk64));
    FROCE_TRY(b.query_counters(&qc));
    e.check(pk64 != 0 && pk64 <= qc[FROCE_CNT_RCVD_PKTS] && (pk64 >> 32) == 0,
            "BAR0 counter RCVD_PKTS (64-bit) agrees with QUERY_COUNTERS (the firmware's read of the control bus)",
            sfmt("BAR0 %" PRIu64 ", QUERY_COUNTERS %" PRIu64, pk64, qc[FROCE_CNT_RCVD_PKTS]));
    return Status();
}

// ---------------------------------------------------------------------------
// 5. UD datagrams

// One side of the UD test: a UD QP and its CQs, completions collected.
struct UdSide {
    Qp *qp = nullptr;
    Cq *scq = nullptr, *rcq = nullptr;
    std::vector<Cqe> send, recv;
};

struct UdCase {
    const char *what;
    uint32_t len;
    bool imm, inl, ipv6;
    uint32_t split;       // receive buffer in two SGEs, the first this long (0: one SGE)
};

uint16_t ip4_checksum(const uint8_t *h) {
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2) sum += uint32_t(h[i]) << 8 | h[i + 1];
    while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
    return uint16_t(~sum);
}

// The 40-byte GRH area the receiver must see for a datagram of len bytes
// (ib_grh; IPv4 in the last 20 bytes). ip_id: IPv4 identification as it
// arrived (the sender picks it).
std::vector<uint8_t> expected_grh(const Path &av, const Gid &sgid, uint32_t len, bool imm, uint16_t ip_id) {
    std::vector<uint8_t> g(40, 0);
    const uint32_t pad = (4 - len % 4) % 4;
    const uint32_t udp_len = 8 + 12 + 8 + (imm ? 4 : 0) + len + pad + 4;
    if (av.net_type == FROCE_KIND_ROCE_V2_IPV4) {
        uint8_t *h = &g[20];
        h[0] = 0x45;
        h[1] = av.tclass;
        h[2] = uint8_t((udp_len + 20) >> 8);
        h[3] = uint8_t(udp_len + 20);
        h[4] = uint8_t(ip_id >> 8);
        h[5] = uint8_t(ip_id);
        h[6] = 0x40;   // DF
        h[8] = av.hop_limit;
        h[9] = 17;
        std::memcpy(h + 12, sgid.raw + 12, 4);
        std::memcpy(h + 16, av.dgid.raw + 12, 4);
        const uint16_t c = ip4_checksum(h);
        h[10] = uint8_t(c >> 8);
        h[11] = uint8_t(c);
    } else {
        const uint32_t w0 = 6u << 28 | uint32_t(av.tclass) << 20 | av.flow_label;
        for (int i = 0; i < 4; i++) g[i] = uint8_t(w0 >> (24 - 8 * i));
        g[4] = uint8_t(udp_len >> 8);
        g[5] = uint8_t(udp_len);
        g[6] = 17;
        g[7] = av.hop_limit;
        std::memcpy(&g[8], sgid.raw, 16);
        std::memcpy(&g[24], av.dgid.raw, 16);
    }
    return g;
}

Status sc_ud(Env &e) {
    const uint32_t qkey_b = 0x1234ABCD, qkey_a = 0x0BADF00D;
    const unsigned mtu = 1024;
    UdSide A, B;
    Gid a6, b6;
    FROCE_TRY(Gid::parse("fe80::a", &a6));
    FROCE_TRY(Gid::parse("fe80::b", &b6));
    FROCE_TRY(e.a().set_gid(1, a6, 0x020000000001ull));
    FROCE_TRY(e.b().set_gid(1, b6, 0x020000000002ull));
    const PairCfg pds = e.pair_cfg();   // Env's PD on each side
    struct {
        Host *h;
        UdSide *s;
        uint32_t qkey, pd;
    } sides[] = {{&e.a(), &A, qkey_a, pds.pd_a}, {&e.b(), &B, qkey_b, pds.pd_b}};
    for (auto &sd : sides) {
        FROCE_TRY(sd.h->create_cq(5, sd.pd, &sd.s->scq));
        FROCE_TRY(sd.h->create_cq(5, sd.pd, &sd.s->rcq));
        QpCaps caps;
        caps.type = FROCE_QP_TYPE_UD;
        caps.max_send_wr = caps.max_recv_wr = 16;
        caps.max_recv_sge = 2;
        caps.max_inline = 64;
        caps.qkey = sd.qkey;
        FROCE_TRY(sd.h->create_qp(sd.pd, caps, sd.s->scq, sd.s->rcq, &sd.s->qp));
        FROCE_TRY(sd.h->modify_qp_init(sd.s->qp, 0));
        FROCE_TRY(sd.h->modify_qp_ud_rts(sd.s->qp, FROCE_MTU_1024, uint32_t(mix64(e.seed() + sd.qkey) & 0xFFFFFF)));
    }
    e.info(sfmt("UD QPs: A %#x (Q_Key %#x), B %#x (Q_Key %#x), MTU %u", A.qp->qpn, qkey_a, B.qp->qpn, qkey_b, mtu));
    auto poll = [&]() -> Status {
        for (auto &sd : sides) {
            FROCE_TRY(sd.h->poll_cq(sd.s->scq, 16, &sd.s->send));
            FROCE_TRY(sd.h->poll_cq(sd.s->rcq, 16, &sd.s->recv));
        }
        return Status();
    };
    // Env's stepping, with these CQs polled every cycle
    auto wait = [&](size_t a_send, size_t b_recv, const char *what) -> Status {
        Status polled;
        FROCE_TRY(e.run_until([&] {
            polled = poll();
            return !polled.ok() || (A.send.size() >= a_send && B.recv.size() >= b_recv);
        }, 60000, sfmt("%s (%zu send CQEs at A, %zu receive CQEs at B)", what, a_send, b_recv)));
        return polled;
    };
    auto settle = [&](uint64_t cycles) -> Status {
        FROCE_TRY(e.quiet(cycles));
        return poll();
    };

    const uint64_t kSlot = 1280;
    const unsigned kSlots = 12;
    Region src, dst;
    FROCE_TRY(e.make_region(e.a(), 2 * mtu, 64, pds.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src));
    FROCE_TRY(e.make_region(e.b(), kSlots * kSlot, kGuard, pds.pd_b, FROCE_ACCESS_LOCAL_WRITE, true, &dst));
    FROCE_TRY(e.write_data(e.a(), src, src.va(), src.len, 21));
    unsigned slot = 0;
    // (--inject-error: the good datagrams carry a Q_Key B does not have)
    const uint32_t good_qkey = e.inject() ? qkey_b ^ 1 : qkey_b;
    if (e.inject()) e.note("--inject-error: datagrams carry a wrong Q_Key, this scenario must FAIL");

    auto dest = [&](bool ipv6) {
        UdDest d;
        d.qpn = B.qp->qpn;
        d.qkey = good_qkey;
        d.av.dmac = 0x020000000002ull;
        d.av.hop_limit = ipv6 ? 7 : 33;
        if (ipv6) {
            d.av.net_type = FROCE_KIND_ROCE_V2_IPV6;
            d.av.sgid_index = 1;
            d.av.dgid = b6;
            d.av.tclass = 0x28;
            d.av.flow_label = 0x12345;
        } else {
            d.av.dgid = Gid::ipv4(10, 0, 0, 2);
            d.av.tclass = 0x02;
        }
        return d;
    };
    auto send = [&](uint32_t len, bool imm, bool inl, const UdDest &d, uint32_t src_off = 0) {
        SendWr wr;
        wr.opcode = imm ? FROCE_WQE_OP_SEND_WITH_IMM : FROCE_WQE_OP_SEND;
        wr.imm_inv = 0xC0DE0000u + len;
        wr.inline_data = inl;
        wr.sg.push_back({src.va() + src_off, len, src.mr.key});
        wr.ud = d;
        return e.a().post_send(A.qp, wr);
    };
    // the receive for slot s: capacity bytes in one or two SGEs
    auto recv = [&](unsigned s, uint32_t capacity, uint32_t split, RecvWr *out) {
        RecvWr rw;
        const uint64_t base = dst.va() + s * kSlot;
        if (split) {
            rw.sg.push_back({base, split, dst.mr.key});
            rw.sg.push_back({base + 100, capacity - split, dst.mr.key});
        } else {
            rw.sg.push_back({base, capacity, dst.mr.key});
        }
        *out = rw;
        return e.b().post_recv(B.qp, rw);
    };
    // B's buffer after a datagram of len bytes from src offset src_off: the
    // GRH area (IPv4 identification as it arrived) and the payload, scattered
    // over the receive's SGEs; "" if every byte of the region is as expected
    auto landed = [&](const RecvWr &rw, const UdDest &d, const Gid &sgid, uint32_t len, bool imm, uint64_t src_off,
                      std::string *diff) -> Status {
        auto grh_va = [&](uint32_t at) {
            return at < rw.sg[0].len ? rw.sg[0].addr + at : rw.sg[1].addr + (at - rw.sg[0].len);
        };
        uint8_t id[2] = {};
        for (uint32_t i = 0; i < 2; i++) FROCE_TRY(e.b().read(grh_va(24 + i), &id[i], 1));
        std::vector<uint8_t> msg = expected_grh(d.av, sgid, len, imm, uint16_t(id[0] << 8 | id[1]));
        msg.insert(msg.end(), src.shadow.begin() + src.guard + src_off, src.shadow.begin() + src.guard + src_off + len);
        size_t at = 0;
        for (const Sge &sg : rw.sg)
            for (uint32_t i = 0; i < sg.len && at < msg.size(); i++) dst.shadow[dst.off(sg.addr) + i] = msg[at++];
        *diff = e.region_diff(e.b(), dst);
        if (!diff->empty()) FROCE_TRY(e.b().read(dst.buf.va, dst.shadow.data(), dst.shadow.size()));   // report once
        return Status();
    };

    // -- 1. datagrams of every size class, both network types, IMM, inline, split buffers
    const UdCase cases[] = {
        {"0 bytes, IPv4", 0, false, false, false, 0},
        {"1 byte with immediate, IPv4", 1, true, false, false, 0},
        {"MTU-1 bytes into a 13 + rest split buffer (GRH across SGEs)", mtu - 1, false, false, false, 13},
        {"MTU bytes into a buffer of exactly GRH + MTU", mtu, false, false, false, 0},
        {"100 bytes with immediate, IPv6 (tclass, flow label, hop limit)", 100, true, false, true, 0},
        {"60 bytes inline, IPv4", 60, false, true, false, 40},
    };
    Counters b0, b1, a0, a1;
    FROCE_TRY(e.snapshot(e.b(), &b0));
    FROCE_TRY(e.snapshot(e.a(), &a0));
    const size_t f0 = e.frames().size();
    unsigned sent = 0, received = 0;
    for (const UdCase &c : cases) {
        RecvWr rw;
        const UdDest d = dest(c.ipv6);
        FROCE_TRY(recv(slot, 40 + c.len, c.split, &rw));
        FROCE_TRY(send(c.len, c.imm, c.inl, d, 8 * sent));
        sent++;
        received++;
        FROCE_TRY(wait(sent, received, c.what));
        const Cqe &r = B.recv.back();
        const Cqe &s = A.send.back();
        e.check(s.status == FROCE_WC_SUCCESS && s.opcode == FROCE_CQE_OP_SEND && s.wqe_index == uint16_t(sent - 1),
                sfmt("%s: A's send CQE SUCCESS", c.what), cqe_str(s));
        e.check(r.status == FROCE_WC_SUCCESS && r.opcode == FROCE_CQE_OP_RECV && r.byte_cnt == 40 + c.len &&
                    r.src_qpn == A.qp->qpn && r.grh && r.with_imm == c.imm && (!c.imm || r.imm_inv == 0xC0DE0000u + c.len) &&
                    r.net_type == d.av.net_type && r.smac == 0x020000000001ull && r.qpn == B.qp->qpn,
                sfmt("%s: B's receive CQE: RECV, byte_cnt %u, src_qp %#x, GRH, SMAC, net type%s", c.what, 40 + c.len,
                     A.qp->qpn, c.imm ? ", immediate" : ""),
                cqe_str(r));
        std::string diff;
        FROCE_TRY(landed(rw, d, c.ipv6 ? a6 : Gid::ipv4(10, 0, 0, 1), c.len, c.imm, 8 * (sent - 1), &diff));
        e.check(diff.empty(), sfmt("%s: GRH area and payload in B's buffer, nothing else touched", c.what), diff);
        slot++;
    }
    FROCE_TRY(e.snapshot(e.b(), &b1));
    FROCE_TRY(e.snapshot(e.a(), &a1));
    unsigned ud_frames = 0, other = 0;
    for (size_t i = f0; i < e.frames().size(); i++) {
        const Frame &f = e.frames()[i];
        if (f.dir == 0 && f.roce && (f.opcode == FROCE_OP_UD_SEND_ONLY || f.opcode == FROCE_OP_UD_SEND_ONLY_WITH_IMMEDIATE))
            ud_frames++;
        else if (f.roce)
            other++;
    }
    const unsigned v4 = unsigned(std::count_if(std::begin(cases), std::end(cases), [](const UdCase &c) { return !c.ipv6; }));
    e.check(ud_frames == v4 && other == 0, sfmt("wire: %u IPv4 UD SEND frames A->B, no ACK or other RoCE frame", v4),
            sfmt("%u UD, %u other", ud_frames, other));
    e.check(delta(b0, b1, FROCE_CNT_RDMA_RECVS) == sent, sfmt("B: RDMA_RECVS moved by %u", sent),
            sfmt("%u", delta(b0, b1, FROCE_CNT_RDMA_RECVS)));
    e.check(delta(a0, a1, FROCE_CNT_RDMA_SENDS) == sent, sfmt("A: RDMA_SENDS moved by %u", sent),
            sfmt("%u", delta(a0, a1, FROCE_CNT_RDMA_SENDS)));

    // -- 2. no receive posted: the datagram is lost, OUT_OF_BUFFER counts it
    FROCE_TRY(e.snapshot(e.b(), &b0));
    uint64_t qk0 = 0, qk1 = 0;
    FROCE_TRY(e.b().read_icounter(FROCE_ICNT_QKEY_DROPPED, &qk0));
    FROCE_TRY(send(32, false, false, dest(false)));
    sent++;
    FROCE_TRY(wait(sent, received, "a datagram with no receive posted"));
    FROCE_TRY(settle(3000));
    FROCE_TRY(e.snapshot(e.b(), &b1));
    e.check(B.recv.size() == received && delta(b0, b1, FROCE_CNT_OUT_OF_BUFFER) == 1,
            "no receive posted: datagram dropped, B's OUT_OF_BUFFER moved by 1",
            sfmt("%zu receive CQEs, OUT_OF_BUFFER moved by %u", B.recv.size(), delta(b0, b1, FROCE_CNT_OUT_OF_BUFFER)));

    // -- 3. a Q_Key that is not B's (the WQE asks for A's own, bit 31): dropped
    // and counted; the posted receive waits for the next good datagram
    RecvWr rw;
    FROCE_TRY(recv(slot, 40 + 64, 0, &rw));
    UdDest own = dest(false);
    own.qkey = 0x80000000u;
    FROCE_TRY(send(64, false, false, own));
    sent++;
    FROCE_TRY(wait(sent, received, "a datagram with A's Q_Key"));
    FROCE_TRY(settle(3000));
    FROCE_TRY(e.b().read_icounter(FROCE_ICNT_QKEY_DROPPED, &qk1));
    e.check(B.recv.size() == received && qk1 - qk0 == 1, "wrong Q_Key: dropped, B's Q_Key counter moved by 1",
            sfmt("%zu receive CQEs, counter moved by %" PRIu64, B.recv.size(), qk1 - qk0));
    FROCE_TRY(send(64, false, false, dest(false), 64));
    sent++;
    received++;
    FROCE_TRY(wait(sent, received, "the good datagram after the wrong Q_Key"));
    e.check(B.recv.back().status == FROCE_WC_SUCCESS && B.recv.back().byte_cnt == 40 + 64,
            "the next good datagram takes the waiting receive", cqe_str(B.recv.back()));
    std::string diff;
    FROCE_TRY(landed(rw, dest(false), Gid::ipv4(10, 0, 0, 1), 64, false, 64, &diff));
    e.check(diff.empty(), "its GRH and payload in the receive buffer", diff);
    slot++;

    // -- 4. a receive too small for GRH + payload: LOC_LEN_ERR, nothing written,
    // the QP goes on receiving
    FROCE_TRY(e.snapshot(e.b(), &b0));
    FROCE_TRY(recv(slot, 40 + 200 - 1, 0, &rw));
    FROCE_TRY(send(200, false, false, dest(false)));
    sent++;
    received++;
    FROCE_TRY(wait(sent, received, "a datagram one byte too long for its receive"));
    FROCE_TRY(e.snapshot(e.b(), &b1));
    e.check(B.recv.back().status == FROCE_WC_LOC_LEN_ERR && delta(b0, b1, FROCE_CNT_RESP_LOCAL_LENGTH_ERROR) == 1,
            "receive too small: LOC_LEN_ERR, RESP_LOCAL_LENGTH_ERROR moved by 1",
            cqe_str(B.recv.back()) + sfmt(", counter moved by %u", delta(b0, b1, FROCE_CNT_RESP_LOCAL_LENGTH_ERROR)));
    diff = e.region_diff(e.b(), dst);
    e.check(diff.empty(), "nothing written for it", diff);
    slot++;
    FROCE_TRY(recv(slot, 40 + 16, 0, &rw));
    FROCE_TRY(send(16, false, false, dest(false)));
    sent++;
    received++;
    FROCE_TRY(wait(sent, received, "a datagram after the length error"));
    e.check(B.recv.back().status == FROCE_WC_SUCCESS, "B still receives after the length error", cqe_str(B.recv.back()));
    FROCE_TRY(e.b().read(dst.buf.va, dst.shadow.data(), dst.shadow.size()));
    slot++;

    // -- 5. a datagram longer than the MTU: LOC_LEN_ERR on A, the rest of its
    // SQ flushes; nothing reaches B
    const size_t b_before = B.recv.size();
    FROCE_TRY(recv(slot, 40 + 1100, 0, &rw));
    FROCE_TRY(send(mtu + 1, false, false, dest(false)));
    FROCE_TRY(send(8, false, false, dest(false)));
    sent += 2;
    FROCE_TRY(wait(sent, received, "the over-MTU datagram's completions"));
    FROCE_TRY(settle(3000));
    e.check(A.send[sent - 2].status == FROCE_WC_LOC_LEN_ERR && A.send[sent - 1].status == FROCE_WC_WR_FLUSH_ERR,
            "MTU + 1 bytes: LOC_LEN_ERR, the next send WR_FLUSH_ERR",
            cqe_str(A.send[sent - 2]) + " / " + cqe_str(A.send[sent - 1]));
    e.check(B.recv.size() == b_before, "B received nothing", sfmt("%zu receive CQEs", B.recv.size() - b_before));
    e.check(A.recv.empty() && B.send.empty(), "no CQE on A's receive or B's send CQ");
    return Status();
}

// ---------------------------------------------------------------------------
// netdev rings

constexpr uint64_t kMacA = 0x020000000001ull, kMacB = 0x020000000002ull;

void put_mac(std::vector<uint8_t> &f, size_t at, uint64_t mac) {
    for (int i = 0; i < 6; i++) f[at + i] = uint8_t(mac >> (40 - 8 * i));
}

// An ARP request (EtherType 0x0806), padded to 60 bytes.
std::vector<uint8_t> arp_frame(uint64_t dst, uint64_t src, uint8_t tag) {
    std::vector<uint8_t> f(60, 0);
    put_mac(f, 0, dst);
    put_mac(f, 6, src);
    f[12] = 0x08;
    f[13] = 0x06;
    const uint8_t hdr[8] = {0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x01};
    std::memcpy(&f[14], hdr, 8);
    put_mac(f, 22, src);
    f[28] = 10; f[29] = 0; f[30] = 0; f[31] = tag;
    f[38] = 10; f[39] = 0; f[40] = 0; f[41] = 2;
    for (size_t i = 42; i < f.size(); i++) f[i] = uint8_t(tag + i);   // padding: recognisable
    return f;
}

// An IPv4 UDP frame of `len` bytes (>= 60) to `port` (not 4791), valid IP checksum.
std::vector<uint8_t> udp_frame(uint64_t dst, uint64_t src, size_t len, uint16_t port, uint64_t salt) {
    std::vector<uint8_t> f(len, 0);
    put_mac(f, 0, dst);
    put_mac(f, 6, src);
    f[12] = 0x08;
    f[13] = 0x00;
    const size_t ip_len = len - 14;
    uint8_t *ip = &f[14];
    ip[0] = 0x45;
    ip[2] = uint8_t(ip_len >> 8);
    ip[3] = uint8_t(ip_len);
    ip[8] = 64;
    ip[9] = 17;
    ip[12] = 10; ip[13] = 0; ip[14] = 0; ip[15] = 1;
    ip[16] = 10; ip[17] = 0; ip[18] = 0; ip[19] = 2;
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2) sum += uint32_t(ip[i]) << 8 | ip[i + 1];
    while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
    ip[10] = uint8_t(~sum >> 8);
    ip[11] = uint8_t(~sum);
    uint8_t *udp = ip + 20;
    udp[0] = 0x30; udp[1] = 0x39;                       // sport 12345
    udp[2] = uint8_t(port >> 8); udp[3] = uint8_t(port);
    udp[4] = uint8_t((ip_len - 20) >> 8); udp[5] = uint8_t(ip_len - 20);
    for (size_t i = 14 + 28; i < len; i++) f[i] = uint8_t(mix64(salt + i) >> 13);
    return f;
}

std::string hexdiff(const std::vector<uint8_t> &got, const std::vector<uint8_t> &want) {
    if (got.size() != want.size()) return sfmt("%zu bytes, expected %zu", got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++)
        if (got[i] != want[i]) return sfmt("byte %zu is %#04x, expected %#04x", i, got[i], want[i]);
    return "";
}

// A Region for netdev buffers: physically contiguous (one 8 KiB chunk), not
// registered, filled with a seeded pattern.
Status nd_region(Env &e, Host &h, uint64_t len, uint64_t guard, Region *r) {
    static uint64_t n = 0;
    const uint64_t salt = mix64(e.seed() * 0x5bd1e995ull + (++n) * 0x9E37ull + (h.name() == "A" ? 1 : 2));
    if (2 * guard + len + 512 > 8192) return errorf("nd_region: %" PRIu64 " bytes do not fit a chunk", 2 * guard + len);
    r->guard = guard;
    r->len = len;
    FROCE_TRY(h.alloc(guard + len + guard, &r->buf, 13, 8 * (salt % 64)));
    r->shadow.resize(r->buf.len);
    for (uint64_t i = 0; i < r->buf.len; i++) r->shadow[i] = uint8_t(mix64(salt + i) >> 17);
    return h.write(r->buf.va, r->shadow.data(), r->buf.len);
}

Status nd_cnt(Host &h, unsigned idx, uint64_t *v) { return h.read_counter64(idx, v); }

struct NdCounts {
    uint64_t tx = 0, rx = 0, drop = 0;
};
Status nd_counts(Host &h, NdCounts *c) {
    FROCE_TRY(nd_cnt(h, FROCE_CNT_NETDEV_TX_PKTS, &c->tx));
    FROCE_TRY(nd_cnt(h, FROCE_CNT_NETDEV_RX_PKTS, &c->rx));
    FROCE_TRY(nd_cnt(h, FROCE_CNT_NETDEV_RX_DROPPED, &c->drop));
    return Status();
}
std::string nd_str(const NdCounts &c) {
    return sfmt("tx_pkts %" PRIu64 " rx_pkts %" PRIu64 " rx_dropped %" PRIu64, c.tx, c.rx, c.drop);
}

// Waits until every TX descriptor h posted is DONE (reaped); counts errors.
Status nd_tx_drain(Env &e, Host &h, unsigned *errors, uint64_t max_cycles = 200000) {
    Status st;
    FROCE_TRY(e.run_until([&] {
        if (st.ok()) st = h.netdev_poll_tx(nullptr, errors);
        return !st.ok() || h.netdev_tx_reaped() == h.netdev_tx_posted();
    }, max_cycles, sfmt("%s: every netdev TX descriptor DONE", h.name().c_str())));
    return st;
}

// Waits until h's RX ring delivered n more frames (appended to *out).
Status nd_rx_wait(Env &e, Host &h, size_t n, std::vector<NetRxFrame> *out, uint64_t max_cycles = 200000) {
    const size_t want = out->size() + n;
    Status st;
    FROCE_TRY(e.run_until([&] {
        if (st.ok()) st = h.netdev_poll_rx(64, out);
        return !st.ok() || out->size() >= want;
    }, max_cycles, sfmt("%s: %zu netdev frames delivered", h.name().c_str(), n)));
    return st;
}

// The frame delivered as `got` is `want`, complete and marked as the parser's NOT_ROCE.
void check_rx_frame(Env &e, const NetRxFrame &got, const std::vector<uint8_t> &want, const std::string &what) {
    std::string d = hexdiff(got.data, want);
    e.check(d.empty() && got.pkt_len == want.size() && got.verdict == FROCE_VERDICT_NOT_ROCE && !got.err,
            what + sfmt(": %zu bytes byte-exact, PKT_LEN, VERDICT NOT_ROCE, DONE without ERR", want.size()),
            sfmt("PKT_LEN %u verdict %u err %d; %s", got.pkt_len, got.verdict, got.err, d.c_str()));
}

Status sc_netdev(Env &e) {
    const bool inj = e.inject();
    if (inj) e.note("--inject-error: an RX buffer is posted before the no-buffer frame and the too-long frame fits; must FAIL");
    Host &a = e.a(), &b = e.b();
    Nic &na = e.sim().a(), &nb = e.sim().b();
    const unsigned va_ = 6, vb = 7;   // MSI-X vectors of A's and B's netdev
    auto msix = [&](Nic &n, unsigned v) { return n.stats().msix_per_vector[v]; };

    uint32_t caps = 0;
    FROCE_TRY(na.bar0_read32(FROCE_REG_CAPS, &caps));
    e.check((caps >> FROCE_REG_CAPS_NETDEV_SHIFT) & 1, "CAPS.NETDEV set", sfmt("CAPS %#x", caps));

    // the host library refuses bad input
    const std::vector<uint8_t> arp0 = arp_frame(0xFFFFFFFFFFFFull, kMacA, 1);
    e.check(!a.netdev_send(arp0).ok(), "netdev_send before netdev_open is refused");
    e.check(!a.netdev_open(3, 4, va_).ok() && !a.netdev_open(4, 16, va_).ok() && !a.netdev_open(4, 4, 40).ok(),
            "netdev_open refuses ring log sizes outside 4..15 and a vector beyond 31");
    FROCE_TRY(a.netdev_open(4, 4, va_));
    FROCE_TRY(b.netdev_open(4, 5, vb));
    e.check(!a.netdev_send({}).ok() && !a.netdev_send(arp0, 17).ok() && !a.netdev_send(arp0, 2, {60}).ok() &&
                !b.netdev_post_rx(0x7f0000001000ull, 0).ok(),
            "empty frame, 17 pieces, cuts leaving an empty last piece, zero-length RX buffer: refused");
    uint32_t cfg = 0;
    FROCE_TRY(nb.bar0_read32(FROCE_REG_NRX_CFG, &cfg));
    e.check(cfg == (5u | 1u << FROCE_REG_NRX_CFG_ENABLE_SHIFT), "NRX_CFG reads back LOG_SIZE 5, ENABLE", sfmt("%#x", cfg));

    NdCounts a0, b0, a1, b1;
    FROCE_TRY(nd_counts(a, &a0));
    FROCE_TRY(nd_counts(b, &b0));
    e.check(a0.tx == 0 && a0.rx == 0 && a0.drop == 0 && b0.tx == 0 && b0.rx == 0 && b0.drop == 0,
            "netdev counters start at 0", "A " + nd_str(a0) + ", B " + nd_str(b0));

    // 1. B has no RX buffer: the ARP frame is dropped and counted, nothing waits
    std::vector<NetRxFrame> brx, arx;
    Region spare;
    if (inj) {
        FROCE_TRY(nd_region(e, b, 2048, 64, &spare));
        FROCE_TRY(b.netdev_post_rx(spare.va(), 2048));
    }
    unsigned a_err = 0, b_err = 0;
    FROCE_TRY(a.netdev_send(arp_frame(kMacB, kMacA, 1)));
    FROCE_TRY(nd_tx_drain(e, a, &a_err));
    FROCE_TRY(e.quiet(3000));
    FROCE_TRY(b.netdev_poll_rx(16, &brx));
    FROCE_TRY(nd_counts(a, &a1));
    FROCE_TRY(nd_counts(b, &b1));
    e.check(a1.tx == 1 && b1.drop == 1 && b1.rx == 0 && brx.empty(),
            "no RX buffer posted: the frame is dropped (B netdev_rx_dropped 1, rx_pkts 0), A netdev_tx_pkts 1",
            "A " + nd_str(a1) + ", B " + nd_str(b1) + sfmt(", %zu frames delivered", brx.size()));
    e.check(msix(na, va_) == 1 && msix(nb, vb) == 0,
            "MSI-X: A's vector fired for its first TX completion (armed after reset); B's did not (a drop completes nothing)",
            sfmt("A vector %u: %" PRIu64 ", B vector %u: %" PRIu64, va_, msix(na, va_), vb, msix(nb, vb)));

    // 2. three frames A -> B: ARP (1 descriptor), UDP port 5000 in 3 descriptors (1 + 150 + 149 bytes),
    //    a 1514-byte UDP frame in 2 descriptors
    std::vector<std::vector<uint8_t>> fr = {arp_frame(kMacB, kMacA, 2), udp_frame(kMacB, kMacA, 300, 5000, 77),
                                            udp_frame(kMacB, kMacA, 1514, 53, 99)};
    std::vector<Region> rb(3);
    for (auto &r : rb) {
        FROCE_TRY(nd_region(e, b, 2048, 64, &r));
        FROCE_TRY(b.netdev_post_rx(r.va(), 2048));
    }
    FROCE_TRY(a.netdev_send(fr[0], 1));
    FROCE_TRY(a.netdev_send(fr[1], 3, {1, 150}));
    FROCE_TRY(a.netdev_send(fr[2], 2));
    const size_t skip = brx.size();   // the injected run delivered the first frame into `spare`
    FROCE_TRY(nd_rx_wait(e, b, 3 + skip - brx.size(), &brx));
    FROCE_TRY(nd_tx_drain(e, a, &a_err));
    for (size_t i = 0; i < 3; i++) {
        const NetRxFrame &g = brx[skip + i];
        check_rx_frame(e, g, fr[i], sfmt("B RX frame %zu (%s, %s)", i, i ? "IPv4 UDP" : "ARP",
                                         i == 1 ? "3 TX descriptors" : i == 2 ? "2 TX descriptors" : "1 TX descriptor"));
        Region &r = rb[i];
        std::memcpy(&r.shadow[r.guard], fr[i].data(), fr[i].size());
        std::string d = e.region_diff(b, r);
        e.check(d.empty() && g.va == r.va(), sfmt("B RX buffer %zu: the frame, then untouched bytes and guards", i), d);
    }
    e.check(a_err == 0 && a.netdev_tx_reaped() == 7, "A: all 7 TX descriptors DONE, none with ERR",
            sfmt("%u reaped, %u ERR", a.netdev_tx_reaped(), a_err));
    uint32_t ntx_ci = 0, nrx_ci = 0;
    FROCE_TRY(e.quiet(200));   // CI moves when the DONE write's B response is back, after DONE is visible
    FROCE_TRY(na.bar0_read32(FROCE_REG_NTX_CI, &ntx_ci));
    FROCE_TRY(nb.bar0_read32(FROCE_REG_NRX_CI, &nrx_ci));
    e.check(ntx_ci == 7 && nrx_ci == 3 + skip, "NTX_CI (A) 7, NRX_CI (B) 3", sfmt("NTX_CI %u NRX_CI %u", ntx_ci, nrx_ci));
    FROCE_TRY(nd_counts(a, &a1));
    FROCE_TRY(nd_counts(b, &b1));
    e.check(a1.tx == 4 && b1.rx == 3 && b1.drop == 1, "counters: A netdev_tx_pkts 4, B netdev_rx_pkts 3, rx_dropped 1",
            "A " + nd_str(a1) + ", B " + nd_str(b1));
    e.check(msix(nb, vb) == 1 && msix(na, va_) == 1,
            "MSI-X: one on B's netdev vector for 3 deliveries, none more on A's (not re-armed)",
            sfmt("B vector %u: %" PRIu64 ", A vector %u: %" PRIu64, vb, msix(nb, vb), va_, msix(na, va_)));

    // 3. a frame longer than the buffer: dropped, the buffer and its guards untouched; an exact fit is delivered
    Region small;
    FROCE_TRY(nd_region(e, b, 100, 64, &small));
    FROCE_TRY(b.netdev_post_rx(small.va(), 100));
    const std::vector<uint8_t> big = udp_frame(kMacB, kMacA, inj ? 96 : 200, 5001, 5);
    FROCE_TRY(a.netdev_send(big, 2));
    FROCE_TRY(nd_tx_drain(e, a, &a_err));
    FROCE_TRY(e.quiet(3000));
    const size_t n3 = brx.size();
    FROCE_TRY(b.netdev_poll_rx(16, &brx));
    FROCE_TRY(nd_counts(b, &b1));
    std::string d = e.region_diff(b, small);
    e.check(brx.size() == n3 && b1.drop == 2 && b1.rx == 3 && d.empty(),
            "200-byte frame, 100-byte buffer: dropped (rx_dropped 2), no byte written into the buffer or its guards",
            sfmt("%zu delivered, ", brx.size() - n3) + nd_str(b1) + (d.empty() ? "" : "; " + d));
    const std::vector<uint8_t> fit = udp_frame(kMacB, kMacA, 100, 5002, 6);
    FROCE_TRY(a.netdev_send(fit, 1));
    FROCE_TRY(nd_rx_wait(e, b, 1, &brx));
    check_rx_frame(e, brx.back(), fit, "100-byte frame into the same 100-byte buffer");
    std::memcpy(&small.shadow[small.guard], fit.data(), fit.size());
    d = e.region_diff(b, small);
    e.check(d.empty(), "the 100-byte buffer holds the frame, guards intact", d);
    FROCE_TRY(e.quiet(500));
    e.check(msix(nb, vb) == 1, "no MSI-X for more completions until NETDEV_ARM", sfmt("%" PRIu64, msix(nb, vb)));

    // 4. NETDEV_ARM: completions since the last MSI-X fire at once; with none, the next completion does
    uint64_t t0 = e.sim().cycle(), t1 = 0;
    FROCE_TRY(b.netdev_arm());
    FROCE_TRY(e.run_until([&] { if (msix(nb, vb) >= 2 && !t1) t1 = e.sim().cycle(); return msix(nb, vb) >= 2 || e.sim().cycle() - t0 > 300; },
                          1000, "the MSI-X after NETDEV_ARM"));
    e.check(msix(nb, vb) == 2 && t1 && t1 - t0 < 100, "NETDEV_ARM with completions since the last MSI-X: fires at once",
            sfmt("%" PRIu64 " MSI-X, %" PRIu64 " cycles after the write", msix(nb, vb), t1 ? t1 - t0 : 0));
    FROCE_TRY(b.netdev_arm());
    FROCE_TRY(e.quiet(2000));
    e.check(msix(nb, vb) == 2, "NETDEV_ARM with nothing completed since: quiet", sfmt("%" PRIu64, msix(nb, vb)));
    Region one;
    FROCE_TRY(nd_region(e, b, 2048, 64, &one));
    FROCE_TRY(b.netdev_post_rx(one.va(), 2048));
    const std::vector<uint8_t> arp3 = arp_frame(kMacB, kMacA, 3);
    FROCE_TRY(a.netdev_send(arp3));
    FROCE_TRY(nd_rx_wait(e, b, 1, &brx));
    check_rx_frame(e, brx.back(), arp3, "ARP after the re-arm");
    FROCE_TRY(e.quiet(200));
    e.check(msix(nb, vb) == 3, "armed: the next delivery raises one MSI-X", sfmt("%" PRIu64, msix(nb, vb)));
    uint32_t pba = 0;
    FROCE_TRY(nb.bar0_read32(FROCE_BAR0_MSIX_PBA_BASE, &pba));
    e.check(pba == 0, "PBA clear", sfmt("%#x", pba));

    // 5. RoCE RDMA WRITEs A -> B while netdev frames flow both ways
    Pair *p;
    PairCfg pc = e.pair_cfg();
    FROCE_TRY(e.make_pair(pc, &p));
    const uint8_t LW = FROCE_ACCESS_LOCAL_WRITE, RW = FROCE_ACCESS_REMOTE_WRITE;
    const uint32_t wlen = 16384, nw = 4;
    Region src, dst;
    FROCE_TRY(e.make_region(a, wlen * nw, 64, pc.pd_a, LW, true, &src));
    FROCE_TRY(e.make_region(b, wlen * nw, 256, pc.pd_b, LW | RW, true, &dst));
    FROCE_TRY(e.write_data(a, src, src.va(), src.len, 11));
    NdCounts a2, b2;
    FROCE_TRY(nd_counts(a, &a2));
    FROCE_TRY(nd_counts(b, &b2));
    const unsigned nf = 8;
    std::vector<std::vector<uint8_t>> ab, ba;
    std::vector<Region> ra(nf), rb2(nf);
    for (unsigned i = 0; i < nf; i++) {
        FROCE_TRY(nd_region(e, a, 2048, 64, &ra[i]));
        FROCE_TRY(a.netdev_post_rx(ra[i].va(), 2048));
        FROCE_TRY(nd_region(e, b, 2048, 64, &rb2[i]));
        FROCE_TRY(b.netdev_post_rx(rb2[i].va(), 2048));
        const size_t la = 60 + (mix64(e.seed() * 31 + i) % 1455), lb = 60 + (mix64(e.seed() * 37 + i) % 1455);
        ab.push_back(i % 3 == 0 ? arp_frame(kMacB, kMacA, uint8_t(10 + i)) : udp_frame(kMacB, kMacA, la, 6000 + i, 1000 + i));
        ba.push_back(i % 3 == 1 ? arp_frame(kMacA, kMacB, uint8_t(40 + i)) : udp_frame(kMacA, kMacB, lb, 7000 + i, 2000 + i));
    }
    for (uint32_t k = 0; k < nw; k++)
        FROCE_TRY(a.post_send(p->qa, write_wr(src.va() + k * wlen, wlen, src.mr.key, dst.va() + k * wlen, dst.mr.key)));
    for (unsigned i = 0; i < nf; i++) {
        FROCE_TRY(a.netdev_send(ab[i], 1 + i % 2));
        FROCE_TRY(b.netdev_send(ba[i], 1 + (i + 1) % 2));
    }
    const size_t nb0 = brx.size();
    const size_t f0 = e.frames().size();
    Status st;
    FROCE_TRY(e.run_until([&] {
        if (st.ok()) st = a.netdev_poll_rx(64, &arx);
        if (st.ok()) st = b.netdev_poll_rx(64, &brx);
        return !st.ok() || (p->a_send.size() >= nw && arx.size() >= nf && brx.size() >= nb0 + nf);
    }, 2000000, "RDMA WRITEs and netdev frames both ways"));
    FROCE_TRY(st);
    FROCE_TRY(nd_tx_drain(e, a, &a_err));
    FROCE_TRY(nd_tx_drain(e, b, &b_err));
    for (uint32_t k = 0; k < nw; k++) check_cqe(e, p->a_send, k, "A send", p->qa->qpn, uint16_t(k), FROCE_WC_SUCCESS, -1);
    std::memcpy(&dst.shadow[dst.guard], &src.shadow[src.guard], wlen * nw);
    d = e.region_diff(b, dst);
    e.check(d.empty(), sfmt("RDMA WRITE %u x %u bytes A -> B byte-exact with netdev traffic alongside", nw, wlen), d);
    bool ok_ab = arx.size() == nf && brx.size() == nb0 + nf, ok_d = true;
    std::string why;
    for (unsigned i = 0; ok_ab && i < nf; i++) {
        std::string x = hexdiff(brx[nb0 + i].data, ab[i]), y = hexdiff(arx[i].data, ba[i]);
        if (!x.empty() || brx[nb0 + i].verdict != FROCE_VERDICT_NOT_ROCE || brx[nb0 + i].err) {
            ok_d = false;
            why = sfmt("A->B frame %u: %s", i, x.c_str());
        }
        if (!y.empty() || arx[i].verdict != FROCE_VERDICT_NOT_ROCE || arx[i].err) {
            ok_d = false;
            why = sfmt("B->A frame %u: %s", i, y.c_str());
        }
    }
    e.check(ok_ab && ok_d, sfmt("%u netdev frames each way during the WRITEs, byte-exact, in order", nf),
            ok_ab ? why : sfmt("A got %zu, B got %zu", arx.size(), brx.size() - nb0));
    e.check(a_err == 0 && b_err == 0, "no TX descriptor with ERR", sfmt("A %u, B %u", a_err, b_err));
    NdCounts a3, b3;
    FROCE_TRY(nd_counts(a, &a3));
    FROCE_TRY(nd_counts(b, &b3));
    e.check(a3.tx - a2.tx == nf && b3.tx - b2.tx == nf && a3.rx - a2.rx == nf && b3.rx - b2.rx == nf &&
                a3.drop == a2.drop && b3.drop == b2.drop,
            sfmt("counters: netdev_tx_pkts and netdev_rx_pkts +%u on both NICs, no drop", nf),
            "A " + nd_str(a3) + ", B " + nd_str(b3));
    uint64_t icrc_a = 0, icrc_b = 0, bad_a = 0, bad_b = 0;
    FROCE_TRY(a.read_counter64(FROCE_CNT_RX_ICRC_ENCAPSULATED, &icrc_a));
    FROCE_TRY(b.read_counter64(FROCE_CNT_RX_ICRC_ENCAPSULATED, &icrc_b));
    FROCE_TRY(a.read_counter64(FROCE_CNT_RX_BAD_PKTS, &bad_a));
    FROCE_TRY(b.read_counter64(FROCE_CNT_RX_BAD_PKTS, &bad_b));
    e.check(icrc_a == 0 && icrc_b == 0 && bad_a == 0 && bad_b == 0, "no ICRC error, no bad packet on either NIC (frames never interleaved)",
            sfmt("ICRC A %" PRIu64 " B %" PRIu64 ", bad A %" PRIu64 " B %" PRIu64, icrc_a, icrc_b, bad_a, bad_b));
    uint64_t first = UINT64_MAX, last = 0, mixed_ab = 0, mixed_ba = 0;
    for (size_t i = f0; i < e.frames().size(); i++) {
        const Frame &f = e.frames()[i];
        if (f.dir == 0 && f.is_request()) {
            first = std::min(first, f.cycle);
            last = std::max(last, f.cycle);
        }
    }
    for (size_t i = f0; i < e.frames().size(); i++) {
        const Frame &f = e.frames()[i];
        if (!f.roce && f.cycle > first && f.cycle < last) (f.dir == 0 ? mixed_ab : mixed_ba)++;
    }
    e.check(mixed_ab > 0 && mixed_ba > 0, "netdev frames went out in both directions while the WRITE packets were being sent",
            sfmt("A->B %" PRIu64 ", B->A %" PRIu64 " netdev frames between cycles %" PRIu64 " and %" PRIu64, mixed_ab,
                 mixed_ba, first, last));
    uint64_t plain[2] = {0, 0};
    for (const Frame &f : e.frames())
        if (!f.roce) plain[f.dir]++;
    e.check(plain[0] == a3.tx && plain[1] == b3.tx, "every non-RoCE frame on the wire is a netdev TX frame (A->B, B->A)",
            sfmt("wire %" PRIu64 "/%" PRIu64 ", netdev_tx_pkts %" PRIu64 "/%" PRIu64, plain[0], plain[1], a3.tx, b3.tx));

    // 6. clearing ENABLE: B's RX ring stopped (frames dropped, CI 0); A stops its TX ring right after
    //    posting a 3-descriptor frame (sent whole or not at all), then both rings reopen and work
    FROCE_TRY(b.netdev_close());
    FROCE_TRY(e.quiet(50));
    uint32_t ci_b = 1, pi_dummy = 0;
    FROCE_TRY(nb.bar0_read32(FROCE_REG_NRX_CI, &ci_b));
    FROCE_TRY(nb.bar0_read32(FROCE_REG_NRX_PI, &pi_dummy));
    e.check(ci_b == 0 && pi_dummy == 0, "B: ENABLE cleared: NRX_CI reads 0 (NRX_PI is write-only, reads 0)",
            sfmt("CI %u PI %u", ci_b, pi_dummy));
    NdCounts b4, b5, a5;
    FROCE_TRY(nd_counts(b, &b4));
    const std::vector<uint8_t> lost = udp_frame(kMacB, kMacA, 400, 5003, 7);
    FROCE_TRY(a.netdev_send(lost, 3));
    FROCE_TRY(a.netdev_close());
    FROCE_TRY(e.quiet(3000));
    FROCE_TRY(nd_counts(b, &b5));
    FROCE_TRY(nd_counts(a, &a5));
    FROCE_TRY(na.bar0_read32(FROCE_REG_NTX_CI, &ntx_ci));
    e.check(ntx_ci == 0 && b5.rx == b4.rx && b5.drop - b4.drop == a5.tx - a3.tx && a5.tx - a3.tx <= 1,
            "A's TX ring stopped mid-frame: NTX_CI 0; the frame went out whole or not at all; B's stopped RX ring dropped it",
            sfmt("NTX_CI %u, A tx +%" PRIu64 ", B rx +%" PRIu64 " dropped +%" PRIu64, ntx_ci, a5.tx - a3.tx, b5.rx - b4.rx,
                 b5.drop - b4.drop));
    e.note(sfmt("the frame posted just before ENABLE was cleared was %s", a5.tx - a3.tx ? "sent whole" : "abandoned"));
    FROCE_TRY(a.netdev_open(4, 4, va_));
    FROCE_TRY(b.netdev_open(4, 4, vb));
    Region again;
    FROCE_TRY(nd_region(e, b, 2048, 64, &again));
    FROCE_TRY(b.netdev_post_rx(again.va(), 2048));
    const std::vector<uint8_t> after = udp_frame(kMacB, kMacA, 333, 5004, 8);
    FROCE_TRY(a.netdev_send(after, 3, {100, 100}));
    std::vector<NetRxFrame> brx2;
    FROCE_TRY(nd_rx_wait(e, b, 1, &brx2));
    check_rx_frame(e, brx2[0], after, "after reopening both rings: a 3-descriptor frame");
    return Status();
}


// ---------------------------------------------------------------------------
// device reset

// BAR0 DEV_CTRL.RESET in the middle of a 256 KiB WRITE: first on B (DMA
// writes of the message in flight, frames arriving), then on A (DMA reads of
// the payload, a frame on the wire), each followed by a new driver instance.
// Every AXI transaction the reset cut is completed by AXI's rules (the host
// memory model checks WLAST, VALID stability and leftovers), doorbells in
// flight get their B, READY drops at once and comes back, the old contexts
// are gone (A's frames for the old QP find no QP at B), the counters restart,
// the MSI-X table and masks stay, and the NICs carry a WRITE and a READ again.
Status sc_dev_reset(Env &e) {
    const bool reset = !e.inject();
    if (!reset) e.note("--inject-error: DEV_CTRL.RESET is never written, this scenario must FAIL");
    PairCfg pc = e.pair_cfg();
    pc.timeout_a = 8;   // 1 ms: A resends soon after B's reset, 7 times
    Pair *p;
    FROCE_TRY(e.make_pair(pc, &p));
    const uint64_t len = 256 * 1024;
    Region src, dst;
    FROCE_TRY(e.make_region(e.a(), len, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src));
    FROCE_TRY(e.make_region(e.b(), len, kGuard, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE, true,
                            &dst));
    FROCE_TRY(e.write_data(e.a(), src, src.va(), src.len, 41));
    // an MSI-X entry of B, unmasked: the reset keeps it (the PCI core owns it)
    const uint32_t tab = FROCE_BAR0_MSIX_TABLE_BASE + 16 * 3;
    const uint32_t entry[4] = {0xfee0300cu, 0x1u, 0x4123u + uint32_t(e.seed() & 0xff), 0u};
    for (unsigned i = 0; i < 4; i++) FROCE_TRY(e.b().nic().bar0_write32(tab + 4 * i, entry[i]));
    FROCE_TRY(e.b().nic().bar0_write32(FROCE_REG_SCRATCH, 0x5a5a1234u));
    FROCE_TRY(e.a().post_send(p->qa, write_wr(src.va(), uint32_t(len), src.mr.key, dst.va(), dst.mr.key)));
    const Nic &na = e.sim().a(), &nb = e.sim().b();
    const uint64_t brx0 = nb.stats().rx_frames;
    FROCE_TRY(e.run_until([&] { return nb.stats().rx_frames >= brx0 + 64; }, 200000, "64 frames of the WRITE at B"));

    // B: doorbells on their way while the reset comes (UAR page 1 is B's
    // first user page: values the doorbell unit refuses, answered all the same)
    for (uint32_t i = 0; i < 4; i++) FROCE_TRY(e.b().nic().doorbell(1, i, 0xdead0000u + i));
    uint64_t ready_b = 0;
    FROCE_TRY(e.reset_nic(false, reset, &ready_b));
    FROCE_TRY(e.b().nic().wait_doorbells(20000));
    e.info(sfmt("B: READY %" PRIu64 " cycles after the reset write", ready_b));
    e.check(ready_b < 2000000, "B: READY again within 2 M cycles", sfmt("%" PRIu64 " cycles", ready_b));
    uint32_t v[4] = {}, scratch = 0;
    for (unsigned i = 0; i < 4; i++) FROCE_TRY(e.b().nic().bar0_read32(tab + 4 * i, &v[i]));
    FROCE_TRY(e.b().nic().bar0_read32(FROCE_REG_SCRATCH, &scratch));
    e.check(std::equal(v, v + 4, entry), "B: the MSI-X table entry and its mask survive the reset",
            sfmt("%#x %#x %#x %#x", v[0], v[1], v[2], v[3]));
    e.check(scratch == 0, "B: SCRATCH cleared by the reset", sfmt("%#x", scratch));

    // A resends (no ACK came): those frames name a QP B no longer has
    const uint64_t atx0 = na.stats().tx_frames;
    FROCE_TRY(e.run_until([&] { return na.stats().tx_frames >= atx0 + 1; }, 400000, "a resend from A"));
    FROCE_TRY(e.quiet(2000));
    uint32_t b_writes = 0, b_no_qp = 0;
    FROCE_TRY(e.b().read_counter(FROCE_CNT_RX_WRITE_REQUESTS, &b_writes));
    FROCE_TRY(e.b().read_counter(FROCE_CNT_RX_NO_QP, &b_no_qp));
    e.check(b_writes == 0 && b_no_qp > 0, "B after its reset: no WRITE accepted, A's frames for the old QP find no QP",
            sfmt("RX_WRITE_REQUESTS %u, RX_NO_QP %u", b_writes, b_no_qp));

    // A: reset in the middle of a 1 MiB WRITE to the restarted B
    Pair *p2;
    pc = e.pair_cfg();
    FROCE_TRY(e.make_pair(pc, &p2));
    const uint64_t len1 = 1024 * 1024;
    Region src1, dst1;
    FROCE_TRY(e.make_region(e.a(), len1, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src1));
    FROCE_TRY(e.make_region(e.b(), len1, kGuard, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE, true,
                            &dst1));
    FROCE_TRY(e.a().post_send(p2->qa, write_wr(src1.va(), uint32_t(len1), src1.mr.key, dst1.va(), dst1.mr.key)));
    const uint64_t brx1 = nb.stats().rx_frames;
    FROCE_TRY(e.run_until([&] { return nb.stats().rx_frames >= brx1 + 100; }, 400000, "100 frames of the 1 MiB WRITE"));
    uint64_t ready_a = 0;
    FROCE_TRY(e.reset_nic(true, reset, &ready_a));
    e.info(sfmt("A: READY %" PRIu64 " cycles after the reset write", ready_a));
    e.check(ready_a < 2000000, "A: READY again within 2 M cycles", sfmt("%" PRIu64 " cycles", ready_a));
    FROCE_TRY(e.quiet(5000));
    const uint64_t atx1 = na.stats().tx_frames;
    FROCE_TRY(e.quiet(20000));
    e.check(na.stats().tx_frames == atx1, "A after the reset: nothing sent without work",
            sfmt("%" PRIu64 " frames", na.stats().tx_frames - atx1));
    e.check(na.mem().idle() && nb.mem().idle(), "A and B: no AXI transaction left open");

    // both restarted: a WRITE and a READ on a new pair, byte for byte
    Pair *q;
    pc = e.pair_cfg();
    FROCE_TRY(e.make_pair(pc, &q));
    const uint64_t len2 = 64 * 1024, rlen = 16 * 1024;
    Region src2, dst2, rsrc, rdst;
    FROCE_TRY(e.make_region(e.a(), len2, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src2));
    FROCE_TRY(e.make_region(e.b(), len2, kGuard, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE, true,
                            &dst2));
    FROCE_TRY(e.make_region(e.b(), rlen, 64, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_READ, true, &rsrc));
    FROCE_TRY(e.make_region(e.a(), rlen, kGuard, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &rdst));
    FROCE_TRY(e.write_data(e.a(), src2, src2.va(), src2.len, 42));
    FROCE_TRY(e.write_data(e.b(), rsrc, rsrc.va(), rsrc.len, 43));
    SendWr rd;
    rd.opcode = FROCE_WQE_OP_RDMA_READ;
    rd.sg.push_back({rdst.va(), uint32_t(rlen), rdst.mr.key});
    rd.remote_addr = rsrc.va();
    rd.rkey = rsrc.mr.key;
    FROCE_TRY(e.a().post_send(q->qa, write_wr(src2.va(), uint32_t(len2), src2.mr.key, dst2.va(), dst2.mr.key)));
    FROCE_TRY(e.a().post_send(q->qa, rd));
    FROCE_TRY(e.run_until([&] { return q->a_send.size() >= 2; }, 400000, "the WRITE and the READ after the resets"));
    check_cqe(e, q->a_send, 0, "A", q->qa->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_WRITE);
    check_cqe(e, q->a_send, 1, "A", q->qa->qpn, 1, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_READ);
    std::memcpy(&dst2.shadow[dst2.guard], &src2.shadow[src2.guard], len2);
    std::memcpy(&rdst.shadow[rdst.guard], &rsrc.shadow[rsrc.guard], rlen);
    std::string d = e.region_diff(e.b(), dst2);
    e.check(d.empty(), "B holds the WRITE; guards intact", d);
    d = e.region_diff(e.a(), rdst);
    e.check(d.empty(), "A holds the READ; guards intact", d);
    return Status();
}

// QP contexts committed while a long WRITE (2 MiB) streams on the same NIC: a QPC
// commit waits for a cycle in which neither engine writes per-QP state
// (froce_core holds it on the control bus), and the transmit engine offers
// one in every packet of a WQE, so the commits go through between the WRITE's
// packets rather than after its last one. The WRITE completes intact, the new
// QP reaches RTS, and a short WRITE on it lands. `--inject-error`: the QP is
// made only after the WRITE completed, so "in flight" must fail.
Status sc_commit_mid_write(Env &e) {
    PairCfg pc = e.pair_cfg();
    Pair *p;
    FROCE_TRY(e.make_pair(pc, &p));
    const uint64_t len = 2ull << 20;
    Region src, dst;
    FROCE_TRY(e.make_region(e.a(), len, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src));
    FROCE_TRY(e.make_region(e.b(), len, kGuard, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE, true, &dst));
    FROCE_TRY(e.write_data(e.a(), src, src.va(), src.len, 31));
    const size_t f0 = e.frames().size();
    FROCE_TRY(e.a().post_send(p->qa, write_wr(src.va(), uint32_t(len), src.mr.key, dst.va(), dst.mr.key)));
    auto requests = [&] {
        size_t n = 0;
        for (size_t i = f0; i < e.frames().size(); i++) n += e.frames()[i].dir == 0 && e.frames()[i].is_request();
        return n;
    };
    FROCE_TRY(e.run_until([&] { return requests() >= 64; }, 400000, "64 request frames of the WRITE"));
    if (e.inject()) {
        e.note("--inject-error: the QP is made after the WRITE, this scenario must FAIL");
        FROCE_TRY(e.run_until([&] { return p->a_send.size() >= 1; }, 4000000, "the WRITE's completion"));
    }
    // a second pair: on A a CQ and a QP through INIT, RTR and RTS (QPC commits)
    const uint64_t c0 = e.sim().cycle();
    Pair *q;
    FROCE_TRY(e.make_pair(pc, &q));
    const uint64_t c1 = e.sim().cycle();
    FROCE_TRY(e.run_until([&] { return p->a_send.size() >= 1; }, 4000000, "the WRITE's completion"));
    uint64_t last_req = 0;
    for (size_t i = f0; i < e.frames().size(); i++)
        if (e.frames()[i].dir == 0 && e.frames()[i].is_request()) last_req = e.frames()[i].cycle;
    const std::string when = sfmt("made in cycles %" PRIu64 "..%" PRIu64 ", the WRITE's last request frame at %" PRIu64,
                                  c0, c1, last_req);
    e.info(when);
    e.check(c1 < last_req, "the second pair's contexts were committed while A's WRITE was still sending", when);
    check_cqe(e, p->a_send, 0, "A", p->qa->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_WRITE);
    std::memcpy(&dst.shadow[dst.guard], &src.shadow[src.guard], len);
    std::string d = e.region_diff(e.b(), dst);
    e.check(d.empty(), "B holds the 2 MiB message; guards intact", d);
    // the new pair carries traffic
    Region s2, d2;
    const uint64_t len2 = 8192;
    FROCE_TRY(e.make_region(e.a(), len2, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &s2));
    FROCE_TRY(e.make_region(e.b(), len2, kGuard, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE, true, &d2));
    FROCE_TRY(e.write_data(e.a(), s2, s2.va(), s2.len, 32));
    FROCE_TRY(e.a().post_send(q->qa, write_wr(s2.va(), uint32_t(len2), s2.mr.key, d2.va(), d2.mr.key)));
    FROCE_TRY(e.run_until([&] { return q->a_send.size() >= 1; }, 200000, "the new pair's WRITE"));
    check_cqe(e, q->a_send, 0, "A (new pair)", q->qa->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_WRITE);
    std::memcpy(&d2.shadow[d2.guard], &s2.shadow[s2.guard], len2);
    d = e.region_diff(e.b(), d2);
    e.check(d.empty(), "B holds the new pair's 8 KiB; guards intact", d);
    return Status();
}

// The port's receive filter (SET_PORT, applied by froce_rx_pkt_buffer): B's
// netdev gets frames for its MAC, broadcast, multicast with all-multicast and
// anything in promiscuous mode, up to MTU + 18 bytes; B's RDMA engine gets
// RoCE packets for its MAC only. Every other frame is dropped and counted
// (ICNT_RX_FILTERED), and nothing of it reaches host memory.
Status sc_port_filter(Env &e) {
    const bool inj = e.inject();
    if (inj) e.note("--inject-error: B stays promiscuous and keeps its MAC; must FAIL");
    Host &a = e.a(), &b = e.b();
    const uint64_t other = 0x02000000aaaaull, mcast = 0x01005e0000fbull;
    FROCE_TRY(a.netdev_open(4, 4, 6));
    FROCE_TRY(b.netdev_open(4, 5, 7));
    std::vector<Region> rb(24);
    for (auto &r : rb) {
        FROCE_TRY(nd_region(e, b, 2048, 64, &r));
        FROCE_TRY(b.netdev_post_rx(r.va(), 2048));
    }
    auto filtered = [&](uint64_t *v) { return b.read_icounter(FROCE_ICNT_RX_FILTERED, v); };
    // sends the frames, then reports which arrived (by their salt, in order)
    uint8_t salt = 0;
    auto exchange = [&](const std::vector<std::pair<uint64_t, size_t>> &to, std::vector<uint8_t> *got,
                        uint64_t *filt) -> Status {
        uint64_t f0 = 0, f1 = 0;
        FROCE_TRY(filtered(&f0));
        std::vector<std::vector<uint8_t>> sent;
        for (const auto &t : to) {
            sent.push_back(udp_frame(t.first, kMacA, t.second, 5000, ++salt));
            FROCE_TRY(a.netdev_send(sent.back()));
        }
        unsigned err = 0;
        FROCE_TRY(nd_tx_drain(e, a, &err));
        FROCE_TRY(e.quiet(4000));
        std::vector<NetRxFrame> rx;
        FROCE_TRY(b.netdev_poll_rx(32, &rx));
        got->clear();
        for (const NetRxFrame &f : rx)
            for (size_t i = 0; i < sent.size(); i++)
                if (f.data == sent[i]) got->push_back(uint8_t(i));
        for (const NetRxFrame &f : rx) FROCE_TRY(b.netdev_post_rx(f.va, 2048));
        FROCE_TRY(filtered(&f1));
        *filt = f1 - f0;
        return Status();
    };
    auto list = [](const std::vector<uint8_t> &v) {
        std::string s;
        for (uint8_t i : v) s += sfmt("%s%u", s.empty() ? "" : " ", i);
        return "[" + s + "]";
    };
    std::vector<uint8_t> got;
    uint64_t filt = 0;
    PortSet ps;
    ps.mac = kMacB;
    ps.mtu = 1500;

    // after fw_init: B's MAC, all-multicast, not promiscuous
    ps.allmulti = true;
    ps.promisc = inj;
    FROCE_TRY(b.set_port(ps));
    FROCE_TRY(exchange({{kMacB, 200}, {other, 200}, {mcast, 200}, {0xFFFFFFFFFFFFull, 200}, {kMacB, 1514}}, &got, &filt));
    e.check(got == std::vector<uint8_t>({0, 2, 3, 4}) && filt == 1,
            "all-multicast: own MAC, multicast, broadcast and a 1514-byte frame delivered, another MAC filtered",
            list(got) + sfmt(", %" PRIu64 " filtered", filt));

    ps.allmulti = false;
    FROCE_TRY(b.set_port(ps));
    FROCE_TRY(exchange({{mcast, 200}, {0xFFFFFFFFFFFFull, 200}, {other, 200}, {kMacB, 100}}, &got, &filt));
    e.check(got == std::vector<uint8_t>({1, 3}) && filt == 2,
            "no all-multicast: multicast and another MAC filtered, broadcast and own MAC delivered",
            list(got) + sfmt(", %" PRIu64 " filtered", filt));

    ps.promisc = true;
    ps.mtu = 1000;
    FROCE_TRY(b.set_port(ps));
    ps.promisc = inj;
    FROCE_TRY(b.set_port(ps));
    FROCE_TRY(exchange({{kMacB, 1018}, {kMacB, 1019}, {other, 300}}, &got, &filt));
    e.check(got == std::vector<uint8_t>({0}) && filt == 2, "MTU 1000: 1018 bytes delivered, 1019 filtered",
            list(got) + sfmt(", %" PRIu64 " filtered", filt));
    ps.promisc = true;
    FROCE_TRY(b.set_port(ps));
    FROCE_TRY(exchange({{other, 300}, {mcast, 300}, {kMacB, 300}}, &got, &filt));
    e.check(got == std::vector<uint8_t>({0, 1, 2}) && filt == 0, "promiscuous: every frame delivered",
            list(got) + sfmt(", %" PRIu64 " filtered", filt));

    // RoCE: B takes another MAC; A's WRITE to B's old MAC is filtered even in
    // promiscuous mode, and goes through (resent) once B has its MAC back
    PairCfg pc = e.pair_cfg();
    pc.timeout_a = 5;   // 640 << 5 = 20480 cycles
    Pair *p;
    FROCE_TRY(e.make_pair(pc, &p));
    Region src, dst;
    const uint64_t len = 8 * kMtu;
    FROCE_TRY(e.make_region(a, len, 64, pc.pd_a, FROCE_ACCESS_LOCAL_WRITE, true, &src));
    FROCE_TRY(e.make_region(b, len, kGuard, pc.pd_b, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE, true, &dst));
    FROCE_TRY(e.write_data(a, src, src.va(), src.len, 51));
    ps.mtu = 1500;
    ps.mac = inj ? kMacB : other;
    FROCE_TRY(b.set_port(ps));
    uint64_t f0 = 0, f1 = 0;
    FROCE_TRY(filtered(&f0));
    FROCE_TRY(a.post_send(p->qa, write_wr(src.va(), uint32_t(len), src.mr.key, dst.va(), dst.mr.key)));
    FROCE_TRY(e.quiet(15000));
    FROCE_TRY(filtered(&f1));
    std::string d = e.region_diff(b, dst);
    e.check(f1 - f0 >= 8 && p->a_send.empty() && d.empty(),
            "B's MAC changed: A's 8 WRITE packets (and resends) filtered, B's memory untouched, no completion",
            sfmt("%" PRIu64 " filtered, %zu CQEs", f1 - f0, p->a_send.size()) + (d.empty() ? "" : ", " + d));
    ps.mac = kMacB;
    FROCE_TRY(b.set_port(ps));
    FROCE_TRY(e.run_until([&] { return p->a_send.size() >= 1; }, 400000, "the WRITE after B's MAC is back"));
    check_cqe(e, p->a_send, 0, "A", p->qa->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_WRITE);
    std::memcpy(&dst.shadow[dst.guard], &src.shadow[src.guard], len);
    d = e.region_diff(b, dst);
    e.check(d.empty(), "B holds the WRITE (resent after a timeout); guards intact", d);
    return Status();
}

// ---------------------------------------------------------------------------
// response-path

// ---------------------------------------------------------------------------
// fence

// A READ of 8 packets, then a WRITE with FENCE, then a plain WRITE. The
// fenced WRITE waits for every earlier WQE (froce fences all of them, IB
// asks at least for earlier READs and atomics): its first packet leaves A
// only after the READ's last response has reached A. The control, a WRITE
// without FENCE behind a second READ, goes out while that READ's responses
// are still on their way (so the check can tell the two apart). All four
// complete with SUCCESS and the data arrive intact.
Status sc_fence(Env &e) {
    PairCfg pc = e.pair_cfg();
    Pair *p;
    FROCE_TRY(e.make_pair(pc, &p));
    const uint8_t LW = FROCE_ACCESS_LOCAL_WRITE;
    const uint64_t rlen = 8 * kMtu, wlen = 256;
    Region rdst, rsrc, wsrc, wdst;
    FROCE_TRY(e.make_region(e.a(), 2 * rlen, kGuard, pc.pd_a, LW, true, &rdst));
    FROCE_TRY(e.make_region(e.b(), 2 * rlen, kGuard, pc.pd_b, LW | FROCE_ACCESS_REMOTE_READ, true, &rsrc));
    FROCE_TRY(e.make_region(e.a(), 2 * wlen, 64, pc.pd_a, LW, true, &wsrc));
    FROCE_TRY(e.make_region(e.b(), 2 * wlen, kGuard, pc.pd_b, LW | FROCE_ACCESS_REMOTE_WRITE, true, &wdst));
    FROCE_TRY(e.write_data(e.b(), rsrc, rsrc.va(), rsrc.len, 21));
    FROCE_TRY(e.write_data(e.a(), wsrc, wsrc.va(), wsrc.len, 22));

    // the frames of this scenario: A's WRITE requests and B's READ responses, in wire order
    const size_t f0 = e.frames().size();
    auto last_response = [&](size_t from, size_t to) {
        size_t last = SIZE_MAX;
        for (size_t i = from; i < to; i++) {
            const Frame &f = e.frames()[i];
            if (f.dir == 1 && f.roce && f.dqpn == p->qa->qpn && f.opcode >= FROCE_OP_RC_RDMA_READ_RESPONSE_FIRST &&
                f.opcode <= FROCE_OP_RC_RDMA_READ_RESPONSE_ONLY)
                last = i;
        }
        return last;
    };
    auto first_write = [&](size_t from) {
        for (size_t i = from; i < e.frames().size(); i++) {
            const Frame &f = e.frames()[i];
            if (f.dir == 0 && f.roce && f.dqpn == p->qb->qpn && f.opcode >= FROCE_OP_RC_RDMA_WRITE_FIRST &&
                f.opcode <= FROCE_OP_RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE)
                return i;
        }
        return SIZE_MAX;
    };
    auto read_wr = [&](uint64_t off) {
        SendWr rd;
        rd.opcode = FROCE_WQE_OP_RDMA_READ;
        rd.sg.push_back({rdst.va() + off, uint32_t(rlen), rdst.mr.key});
        rd.remote_addr = rsrc.va() + off;
        rd.rkey = rsrc.mr.key;
        return rd;
    };

    // 1. READ, then a fenced WRITE
    SendWr fw = write_wr(wsrc.va(), uint32_t(wlen), wsrc.mr.key, wdst.va(), wdst.mr.key);
    fw.fence = !e.inject();
    if (e.inject()) e.note("--inject-error: the WRITE is posted without FENCE, this scenario must FAIL");
    FROCE_TRY(e.a().post_send(p->qa, read_wr(0)));
    FROCE_TRY(e.a().post_send(p->qa, fw));
    FROCE_TRY(e.run_until([&] { return p->a_send.size() >= 2; }, 400000, "the READ's and the fenced WRITE's completions"));
    const size_t f1 = e.frames().size();
    const size_t w1 = first_write(f0), r1 = last_response(f0, f1);
    e.check(r1 != SIZE_MAX && w1 != SIZE_MAX, "the READ's responses and the WRITE are on the wire",
            sfmt("last response at frame %zd, WRITE at %zd", ssize_t(r1), ssize_t(w1)));
    e.check(w1 > r1, "the fenced WRITE leaves A after the READ's last response came in",
            sfmt("WRITE at frame %zu, last READ response at %zu (from %zu)", w1, r1, f0));

    // 2. control: READ, then a WRITE without FENCE goes out at once
    FROCE_TRY(e.a().post_send(p->qa, read_wr(rlen)));
    FROCE_TRY(e.a().post_send(p->qa, write_wr(wsrc.va() + wlen, uint32_t(wlen), wsrc.mr.key, wdst.va() + wlen,
                                              wdst.mr.key)));
    FROCE_TRY(e.run_until([&] { return p->a_send.size() >= 4; }, 400000, "the control READ's and WRITE's completions"));
    FROCE_TRY(e.quiet(2000));
    const size_t w2 = first_write(f1), r2 = last_response(f1, e.frames().size());
    e.check(w2 != SIZE_MAX && r2 != SIZE_MAX && w2 < r2,
            "control: a WRITE without FENCE leaves A before the READ's last response came in",
            sfmt("WRITE at frame %zd, last READ response at %zd", ssize_t(w2), ssize_t(r2)));

    e.check(p->a_send.size() == 4, "A: exactly 4 send CQEs", sfmt("%zu", p->a_send.size()));
    check_cqe(e, p->a_send, 0, "A (READ)", p->qa->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_READ);
    check_cqe(e, p->a_send, 1, "A (fenced WRITE)", p->qa->qpn, 1, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_WRITE);
    check_cqe(e, p->a_send, 2, "A (control READ)", p->qa->qpn, 2, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_READ);
    check_cqe(e, p->a_send, 3, "A (control WRITE)", p->qa->qpn, 3, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_WRITE);
    std::memcpy(&rdst.shadow[rdst.guard], &rsrc.shadow[rsrc.guard], 2 * rlen);
    std::memcpy(&wdst.shadow[wdst.guard], &wsrc.shadow[wsrc.guard], 2 * wlen);
    std::string d = e.region_diff(e.a(), rdst);
    e.check(d.empty(), "A's READ buffer holds B's data, guards intact", d);
    d = e.region_diff(e.b(), wdst);
    e.check(d.empty(), "B's MR holds both WRITEs' data, guards intact", d);
    return Status();
}

// Responses are addressed from the responder QP's address vector, as rxe does
// (qp->pri_av, qp->src_port), not echoed from the request: every frame a QP
// sends, request or response, carries its own AV's traffic class and UDP
// source port (the hop limit too; a response answers an AV hop limit of 0
// with 64). Pair 1: A's AV has sport 0xD456, TTL 33, TOS 0x10; B's has sport
// 0xC123, hop limit 0, TOS 0x28. A sends it a WRITE, a READ, an atomic and a
// WRITE whose first packet is lost (B NAKs); B only answers. Pair 2: default
// source ports (the QP's own), B's AV TTL 7, TOS 0x48; B sends a 256 KiB
// WRITE and answers a READ from A. Pair 1's responses reach B's tx engine
// while it is in the middle of pair 2's WRITE, so its ACKs go out between
// two packets of another QP's message, each with its own QP's path. Queued
// behind that WRITE, pair 1's READ responses and atomic ACK reach A back to
// back: the atomic ACK arrives while the last READ response's payload is
// still being written (this once hung A's receive path for good).
Status sc_response_path(Env &e) {
    PairCfg pc1 = e.pair_cfg(), pc2 = e.pair_cfg();
    pc1.to_b.udp_sport = 0xD456;
    pc1.to_b.hop_limit = 33;
    pc1.to_b.tclass = 0x10;
    pc1.to_a.udp_sport = 0xC123;
    pc1.to_a.hop_limit = 0;
    pc1.to_a.tclass = 0x28;
    pc2.to_a.hop_limit = 7;
    pc2.to_a.tclass = 0x48;
    Pair *p1, *p2;
    FROCE_TRY(e.make_pair(pc1, &p1));
    FROCE_TRY(e.make_pair(pc2, &p2));
    const uint8_t LW = FROCE_ACCESS_LOCAL_WRITE;
    const uint8_t REM = FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ | FROCE_ACCESS_REMOTE_ATOMIC;
    const uint64_t big = 256 * 1024;
    Region a_src, a_dst, b_tgt, b_src, a_tgt;
    FROCE_TRY(e.make_region(e.a(), 8 * kMtu, 64, pc1.pd_a, LW, true, &a_src));
    FROCE_TRY(e.make_region(e.a(), 8 * kMtu, kGuard, pc1.pd_a, LW, true, &a_dst));
    FROCE_TRY(e.make_region(e.b(), 8 * kMtu, kGuard, pc1.pd_b, LW | REM, true, &b_tgt));
    FROCE_TRY(e.make_region(e.b(), big, 64, pc1.pd_b, LW | REM, true, &b_src));
    FROCE_TRY(e.make_region(e.a(), big, kGuard, pc1.pd_a, LW | REM, true, &a_tgt));
    FROCE_TRY(e.write_data(e.a(), a_src, a_src.va(), a_src.len, 21));
    FROCE_TRY(e.write_data(e.b(), b_tgt, b_tgt.va(), b_tgt.len, 22));
    FROCE_TRY(e.write_data(e.b(), b_src, b_src.va(), b_src.len, 23));

    // the first packet of A's second 3-packet WRITE on pair 1 is lost
    bool dropped = false;
    const uint32_t qb1 = p1->qb->qpn;
    unsigned firsts = 0;
    e.sim().set_drop_filter([&](int dir, const std::vector<uint8_t> &f) {
        if (dir != 0 || dropped) return false;
        const Frame fr = parse_frame(dir, f, 0);
        if (!fr.roce || fr.dqpn != qb1 || fr.opcode != FROCE_OP_RC_RDMA_WRITE_FIRST) return false;
        if (++firsts < 2) return false;
        dropped = true;
        return true;
    });
    const size_t f0 = e.frames().size();
    // B's long WRITE on pair 2 first: B's tx engine is then between its packets
    FROCE_TRY(e.b().post_send(p2->qb, write_wr(b_src.va(), uint32_t(big), b_src.mr.key, a_tgt.va(), a_tgt.mr.key)));
    FROCE_TRY(e.run_until([&] {
        unsigned n = 0;
        for (size_t i = f0; i < e.frames().size(); i++) n += e.frames()[i].dir == 1;
        return n >= 8;
    }, 100000, "B's first packets of the 256 KiB WRITE"));
    // A on pair 1: WRITE, READ, fetch-and-add, WRITE (first packet lost)
    FROCE_TRY(e.a().post_send(p1->qa, write_wr(a_src.va(), 3 * kMtu, a_src.mr.key, b_tgt.va(), b_tgt.mr.key)));
    SendWr rd;
    rd.opcode = FROCE_WQE_OP_RDMA_READ;
    rd.sg.push_back({a_dst.va(), 3 * kMtu - 100, a_dst.mr.key});
    rd.remote_addr = b_tgt.va() + 4 * kMtu;
    rd.rkey = b_tgt.mr.key;
    FROCE_TRY(e.a().post_send(p1->qa, rd));
    SendWr fa;
    fa.opcode = FROCE_WQE_OP_ATOMIC_FETCH_ADD;
    fa.sg.push_back({a_dst.va() + 4 * kMtu, 8, a_dst.mr.key});
    fa.remote_addr = b_tgt.va() + 7 * kMtu;
    fa.rkey = b_tgt.mr.key;
    fa.compare_add = 5;
    FROCE_TRY(e.a().post_send(p1->qa, fa));
    FROCE_TRY(e.a().post_send(p1->qa, write_wr(a_src.va() + 3 * kMtu, 3 * kMtu, a_src.mr.key, b_tgt.va() + kMtu / 2,
                                                b_tgt.mr.key)));
    // A on pair 2: a READ of B's memory (B's READ responses and B's WRITE share B's QP)
    SendWr rd2 = rd;
    rd2.sg[0] = {a_dst.va() + 5 * kMtu, 2 * kMtu, a_dst.mr.key};
    rd2.remote_addr = b_src.va() + 1000;
    rd2.rkey = b_src.mr.key;
    FROCE_TRY(e.a().post_send(p2->qa, rd2));
    FROCE_TRY(e.run_until([&] { return p1->a_send.size() >= 4 && p2->a_send.size() >= 1 && p2->b_send.size() >= 1; },
                          2000000, "every completion"));
    FROCE_TRY(e.quiet(5000));
    e.sim().set_drop_filter(nullptr);
    e.check(dropped, "the first packet of A's second WRITE was lost on the wire");
    for (size_t i = 0; i < 4; i++) check_cqe(e, p1->a_send, i, "A pair 1", p1->qa->qpn, uint16_t(i), FROCE_WC_SUCCESS, -1);
    check_cqe(e, p2->a_send, 0, "A pair 2 (READ)", p2->qa->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_READ);
    check_cqe(e, p2->b_send, 0, "B pair 2 (WRITE)", p2->qb->qpn, 0, FROCE_WC_SUCCESS, FROCE_CQE_OP_RDMA_WRITE);

    // what every frame must carry; --inject-error expects pair 1's responses to echo the request's port
    const uint64_t mac_a = 0x020000000001ull, mac_b = 0x020000000002ull;
    const uint32_t ip_a = 0x0A000001, ip_b = 0x0A000002;
    const uint16_t b1_sport = e.inject() ? 0xD456 : 0xC123;
    if (e.inject()) e.note("--inject-error: pair 1's responses expected to echo A's source port, this scenario must FAIL");
    unsigned bad = 0, b1_acks = 0, b1_rresp = 0, b1_aack = 0, b1_naks = 0, b2_req = 0, b2_rresp = 0, a2_acks = 0;
    unsigned b1_between = 0;   // pair 1 responses sent between two packets of B's pair 2 WRITE
    uint16_t a2_sport = 0, b2_sport = 0;   // the ports the hardware picked on pair 2
    bool b2_seen = false, b2_done = false;
    std::string first_bad;
    for (size_t i = f0; i < e.frames().size(); i++) {
        const Frame &f = e.frames()[i];
        if (!f.roce) continue;
        const bool from_b = f.dir == 1;
        const bool response = f.opcode >= FROCE_OP_RC_RDMA_READ_RESPONSE_FIRST &&
                               f.opcode <= FROCE_OP_RC_ATOMIC_ACKNOWLEDGE;
        std::string why;
        if (f.eth_src != (from_b ? mac_b : mac_a) || f.eth_dst != (from_b ? mac_a : mac_b) ||
            f.ip_src != (from_b ? ip_b : ip_a) || f.ip_dst != (from_b ? ip_a : ip_b))
            why = "addresses";
        uint16_t want_sport = 0;
        uint8_t want_tos = 0, want_ttl = 0;
        if (from_b && f.dqpn == p1->qa->qpn) {
            want_sport = b1_sport, want_tos = 0x28, want_ttl = 64;
            if (!response) why += " B sent a request on pair 1";
            b1_acks += f.opcode == FROCE_OP_RC_ACKNOWLEDGE;
            b1_naks += f.is_ack() && (f.syndrome >> 5) == FROCE_AETH_TYPE_NAK;
            b1_rresp += f.opcode >= FROCE_OP_RC_RDMA_READ_RESPONSE_FIRST && f.opcode <= FROCE_OP_RC_RDMA_READ_RESPONSE_ONLY;
            b1_aack += f.opcode == FROCE_OP_RC_ATOMIC_ACKNOWLEDGE;
            b1_between += b2_seen && !b2_done;
        } else if (!from_b && f.dqpn == p1->qb->qpn) {
            want_sport = 0xD456, want_tos = 0x10, want_ttl = 33;
            if (response) why += " A sent a response on pair 1";
        } else if (from_b && f.dqpn == p2->qa->qpn) {
            if (!b2_sport) b2_sport = f.sport;
            want_sport = b2_sport, want_tos = 0x48, want_ttl = 7;
            b2_rresp += response;
            if (!response) {
                b2_req++;
                b2_seen = true;
                b2_done = f.opcode == FROCE_OP_RC_RDMA_WRITE_LAST;
            }
        } else if (!from_b && f.dqpn == p2->qb->qpn) {
            if (!a2_sport) a2_sport = f.sport;
            want_sport = a2_sport, want_tos = 0, want_ttl = 64;
            a2_acks += f.is_ack();
        } else {
            why += " DestQP of no pair";
        }
        if (f.sport != want_sport) why += sfmt(" UDP sport %#x, expected %#x", f.sport, want_sport);
        if (f.tos != want_tos) why += sfmt(" TOS %#x, expected %#x", f.tos, want_tos);
        if (f.ttl != want_ttl) why += sfmt(" TTL %u, expected %u", f.ttl, want_ttl);
        if (!why.empty()) {
            if (!bad++) first_bad = sfmt("frame %zu (%s, opcode %#x, DestQP %#x): %s", i - f0, from_b ? "B->A" : "A->B",
                                         f.opcode, f.dqpn, why.c_str());
        }
    }
    e.check(bad == 0, "every frame carries its own QP's path (MACs, IPs, TOS, TTL, UDP source port)",
            sfmt("%u frames wrong, first: %s", bad, first_bad.c_str()));
    e.check(b1_acks >= 2 && b1_naks >= 1 && b1_rresp == 3 && b1_aack == 1,
            "B answered pair 1 with ACKs, a sequence NAK, 3 READ responses and an atomic ACK",
            sfmt("%u ACKs (%u NAKs), %u READ responses, %u atomic ACKs", b1_acks, b1_naks, b1_rresp, b1_aack));
    e.check(b1_between >= 1, "some of them went out between two packets of B's pair 2 WRITE",
            sfmt("%u did", b1_between));
    e.check(b2_req == big / kMtu && b2_rresp == 2 && a2_acks >= 1,
            "pair 2: B's 256 WRITE packets and 2 READ responses, A's ACKs, each side on its own port",
            sfmt("%u requests, %u READ responses, %u ACKs from A", b2_req, b2_rresp, a2_acks));
    e.check((b2_sport & 0xC000) == 0xC000 && (a2_sport & 0xC000) == 0xC000,
            "pair 2's ports were picked from the dynamic range", sfmt("A %#x, B %#x", a2_sport, b2_sport));
    // the data
    std::vector<uint8_t> got(3 * kMtu - 100);
    FROCE_TRY(e.a().read(a_dst.va(), got.data(), got.size()));
    e.check(std::memcmp(got.data(), &b_tgt.shadow[b_tgt.off(b_tgt.va() + 4 * kMtu)], got.size()) == 0,
            "A's READ on pair 1 returned B's bytes");
    for (uint64_t i = 0; i < 3 * kMtu; i++) b_tgt.shadow[b_tgt.off(b_tgt.va()) + i] = a_src.shadow[a_src.off(a_src.va()) + i];
    for (uint64_t i = 0; i < 3 * kMtu; i++)
        b_tgt.shadow[b_tgt.off(b_tgt.va() + kMtu / 2) + i] = a_src.shadow[a_src.off(a_src.va() + 3 * kMtu) + i];
    uint8_t *target = &b_tgt.shadow[b_tgt.off(b_tgt.va() + 7 * kMtu)];
    const uint64_t before = ld64(target);
    st64(target, before + 5);
    uint8_t orig[8];
    FROCE_TRY(e.a().read(a_dst.va() + 4 * kMtu, orig, 8));
    e.check(ld64(orig) == before, "the atomic ACK carried the original value",
            sfmt("%#" PRIx64 ", expected %#" PRIx64, ld64(orig), before));
    std::string d = e.region_diff(e.b(), b_tgt);
    e.check(d.empty(), "B's memory holds both WRITEs and the fetch-and-add", d);
    for (uint64_t i = 0; i < big; i++) a_tgt.shadow[a_tgt.off(a_tgt.va()) + i] = b_src.shadow[b_src.off(b_src.va()) + i];
    d = e.region_diff(e.a(), a_tgt);
    e.check(d.empty(), "A's memory holds B's 256 KiB WRITE", d);
    return Status();
}

// ---------------------------------------------------------------------------

struct ScenarioDef {
    const char *name;
    Status (*fn)(Env &);
    const char *what;
};

const ScenarioDef kScenarios[] = {
    {"bad-rkey", sc_bad_rkey, "RDMA WRITE with an rkey naming no MR: REM_ACCESS_ERR, flushes, B untouched"},
    {"wrong-pd", sc_wrong_pd, "RDMA WRITE to an MR of another PD than B's QP"},
    {"no-remote-write", sc_no_remote_write, "RDMA WRITE to an MR without REMOTE_WRITE"},
    {"qp-no-remote-write", sc_qp_no_remote_write, "RDMA WRITE to a QP whose access flags lack REMOTE_WRITE"},
    {"out-of-bounds", sc_out_of_bounds, "RDMA WRITE ending past / starting before the MR; exact fit succeeds"},
    {"stale-key", sc_stale_key, "RDMA WRITE with the key of a deregistered MR whose index was re-registered"},
    {"nak-after-lost-read", sc_nak_after_lost_read, "fatal NAK behind a READ whose responses were lost: READ flushed, not SUCCESS"},
    {"retry-exceeded", sc_retry_exceeded, "B stops answering: ACK timeouts, RETRY_EXC_ERR after retry_cnt resends"},
    {"nak-mid-message", sc_nak_mid_message, "a 256-packet WRITE loses packet 100: A resends it within a packet of B's NAK"},
    {"lost-nak", sc_lost_nak, "... and B's NAK is lost: one adaptive expiry, resend from the oldest unacknowledged PSN"},
    {"rnr-infinite", sc_rnr_infinite, "SEND with no receive posted, rnr_retry 7: retries until the receive comes"},
    {"rnr-finite", sc_rnr_finite, "SEND with no receive ever, rnr_retry 2: RNR_RETRY_EXC_ERR after 3 RNR NAKs"},
    {"foreign-uar", sc_foreign_uar, "SQ / CQ doorbells on a UAR page the queue is not bound to are dropped"},
    {"cq-events", sc_cq_events, "CQ arming: one EQE per arm, solicited-only arms, error CQEs, stale-CI arms, EQ wrap"},
    {"eq-msix", sc_eq_msix, "EQ arming and MSI-X: only when armed, once per arm, at once with pending EQEs, masking, BAR0"},
    {"ud", sc_ud, "UD datagrams: GRH area, source QP and SMAC in the CQE, Q_Key, no receive, short receive, over MTU"},
    {"dev-reset", sc_dev_reset, "DEV_CTRL.RESET mid-WRITE on B then A: AXI completed, doorbells answered, contexts gone, traffic again"},
    {"commit-mid-write", sc_commit_mid_write, "a new pair made (QPC commits on A and B) while a 2 MiB WRITE streams: made between its packets, both intact"},
    {"port-filter", sc_port_filter, "SET_PORT receive filter: own MAC, broadcast, all-multicast, promiscuous, MTU; RoCE for another MAC dropped"},
    {"fence", sc_fence, "a WRITE with FENCE leaves only after the READ before it has all its responses; without, at once"},
    {"response-path", sc_response_path, "responses addressed from the responder QP's AV (MACs, IPs, TOS, TTL, own UDP port), also between another QP's packets"},
    {"netdev", sc_netdev, "netdev rings: ARP/UDP frames A -> B byte-exact, multi-descriptor TX, drops, NETDEV_ARM, RoCE alongside"},
};

// Runs one scenario in a fresh simulation; 0 = ok.
int run_one(const ScenarioDef &d, uint64_t seed, bool verbose, bool quiet, bool inject, const std::string &pcap = "") {
    if (!quiet || verbose) std::printf("== %s (seed %" PRIu64 "): %s\n", d.name, seed, d.what);
    Env e(seed, verbose, quiet, inject, pcap);
    Status s = e.setup();
    if (s.ok()) s = d.fn(e);
    if (s.ok()) e.final_checks();
    std::string why = !s.ok() ? s.message() : e.failure();
    if (!s.ok() && !e.failure().empty()) why += " (earlier: " + e.failure() + ")";
    if (why.empty()) {
        std::printf("result: ok %s (%" PRIu64 " cycles)\n", d.name, e.sim().cycle());
        return 0;
    }
    std::printf("result: FAIL %s: %s\n", d.name, why.c_str());
    return 1;
}

uint64_t parse_u64(const char *opt, const char *s) {
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-') usage_exit((std::string(opt) + ": needs a number").c_str());
    unsigned long long v = std::strtoull(s, &end, 0);
    if (errno || *end) usage_exit((std::string(opt) + " " + s + ": not a number").c_str());
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) usage_exit("missing scenario name");
    std::string name;
    uint64_t seed = 1;
    bool verbose = false, inject = false;
    std::string pcap;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--list") {
            for (const auto &d : kScenarios) std::printf("%-20s %s\n", d.name, d.what);
            return 0;
        } else if (a == "-h" || a == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (a == "--seed") {
            seed = parse_u64("--seed", i + 1 < argc ? argv[i + 1] : nullptr);
            i++;
        } else if (a == "--verbose" || a == "-v") {
            verbose = true;
        } else if (a == "--inject-error") {
            inject = true;
        } else if (a == "--pcap") {
            if (i + 1 >= argc || !argv[i + 1][0]) usage_exit("--pcap: needs a file name");
            pcap = argv[++i];
        } else if (!a.empty() && a[0] == '-') {
            usage_exit(("unknown option '" + a + "'").c_str());
        } else if (name.empty()) {
            name = a;
        } else {
            usage_exit("one scenario name (or all)");
        }
    }
    if (name.empty()) usage_exit("missing scenario name");
    if (name == "all") {
        if (!pcap.empty()) usage_exit("--pcap: name one scenario");
        unsigned failed = 0, n = 0;
        for (const auto &d : kScenarios) {
            failed += unsigned(run_one(d, seed, verbose, true, inject));
            n++;
            std::fflush(stdout);
        }
        std::printf("%u scenarios, %u passed, %u failed\n", n, n - failed, failed);
        return failed ? 1 : 0;
    }
    for (const auto &d : kScenarios)
        if (name == d.name) return run_one(d, seed, verbose, false, inject, pcap);
    usage_exit(("unknown scenario '" + name + "' (--list shows them)").c_str());
}
