// SPDX-License-Identifier: MIT
// froce-perf: perftest-like workloads between two simulated froce NICs, with
// every byte and every completion checked. See README.md in this directory.
#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
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
    "usage: froce-perf write|read|send|atomic [options]\n"
    "  --size BYTES       message size (default 4096; atomic: always 8)\n"
    "  --iters N          messages per QP (default 100)\n"
    "  --qps N            RC QP pairs, 1..64 (default 1)\n"
    "  --bidir            both directions at once: --qps pairs with A as the requester, as many with B\n"
    "  --mtu M            path MTU 256|512|1024|2048|4096 (default 4096)\n"
    "  --depth N          WQEs outstanding per QP, 1..1024 (default 8)\n"
    "  --drop P --dup P --reorder P --corrupt P   wire fault probabilities 0..1 (both directions)\n"
    "  --seed N           seed of everything (default 1)\n"
    "  --pcap FILE        capture both directions into FILE\n"
    "  --latency N        wire latency in cycles (default 0)\n"
    "  --max-cycles N     total cycle limit (default: automatic)\n"
    "  --idle-cycles N    fail after N cycles without a completion (default 300000 + 3 ACK timeouts\n"
    "                     + a cycle per byte of one message on every QP)\n"
    "  --inline           RDMA WRITE / SEND data inline in the WQE (size <= 480)\n"
    "  --imm              RDMA WRITE / SEND with immediate data (a WRITE then takes a receive at B;\n"
    "                     every receive CQE's opcode, length and immediate checked)\n"
    "  --sges N           split every message over N SGEs (default 1, at most 30)\n"
    "  --unaligned        odd buffer and slot addresses\n"
    "  --page-shift S     MR page shift 12..21 for data buffers (default 12; >12 = contiguous chunks)\n"
    "  --ipv6             RoCE v2 over IPv6 (GIDs fd00::1 / fd00::2)\n"
    "  --atomic-op OP     fadd|cswap|mix (default mix; mix also sends failing compares)\n"
    "  --timeout T        QPC ACK timeout exponent (default 8: 4.096 us * 2^8)\n"
    "  --grace N          cycles the responder's data may land after the requester's completion (default 0)\n"
    "  --mem-latency A-B  host memory read/write latency range in cycles (default 10-10)\n"
    "  --mem-ready PCT    host memory AXI ready/valid probability in % (default 100)\n"
    "  --x-init MODE      zero|ones|random initial values of the RTL registers (default random)\n"
    "  --verbose          setup details and every completion\n"
    "  --inject-error     negative control: change one source byte behind the NIC's back (must FAIL)\n";

[[noreturn]] void usage_exit(const char *why) {
    if (why) std::fprintf(stderr, "froce-perf: %s\n", why);
    std::fputs(kUsage, stderr);
    std::exit(2);
}

enum class Test { WRITE, READ, SEND, ATOMIC };
enum class AtomicOp { FADD, CSWAP, MIX };

struct Opts {
    Test test = Test::WRITE;
    const char *test_name = "write";
    uint64_t size = 4096;
    bool size_given = false;
    uint64_t iters = 100;
    unsigned qps = 1;
    unsigned mtu = 4096;
    unsigned depth = 8;
    double drop = 0, dup = 0, reorder = 0, corrupt = 0;
    uint64_t seed = 1;
    std::string pcap;
    uint64_t latency = 0;
    uint64_t max_cycles = 0;
    uint64_t idle_cycles = 0;   // 0 = 300000 + 3 ACK timeouts + qps * size
    bool inl = false;
    bool imm = false;           // *_WITH_IMM opcodes (write, send)
    bool bidir = false;         // also run the same pairs with B as the requester
    unsigned sges = 1;
    bool unaligned = false;
    unsigned page_shift = 12;
    bool ipv6 = false;
    AtomicOp aop = AtomicOp::MIX;
    unsigned timeout = 8;
    uint64_t grace = 0;
    unsigned mem_lat_min = 10, mem_lat_max = 10;
    unsigned mem_ready = 100;
    int x_init = 2;
    bool verbose = false;
    bool inject = false;
};

uint64_t parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi) {
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-') usage_exit((std::string(opt) + ": needs a number").c_str());
    unsigned long long v = std::strtoull(s, &end, 0);
    if (errno || *end || v < lo || v > hi) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s %s: expected an integer in %" PRIu64 "..%" PRIu64, opt, s, lo, hi);
        usage_exit(buf);
    }
    return v;
}

double parse_prob(const char *opt, const char *s) {
    char *end;
    if (!s) usage_exit((std::string(opt) + ": needs a probability").c_str());
    double v = std::strtod(s, &end);
    if (*end || !(v >= 0 && v <= 1)) usage_exit((std::string(opt) + " " + s + ": expected 0..1").c_str());
    return v;
}

Opts parse(int argc, char **argv) {
    Opts o;
    if (argc < 2) usage_exit("missing test");
    std::string t = argv[1];
    if (t == "write") o.test = Test::WRITE;
    else if (t == "read") o.test = Test::READ;
    else if (t == "send") o.test = Test::SEND;
    else if (t == "atomic") o.test = Test::ATOMIC;
    else if (t == "-h" || t == "--help") {
        std::fputs(kUsage, stdout);
        std::exit(0);
    } else usage_exit(("unknown test '" + t + "'").c_str());
    o.test_name = argv[1];
    for (int i = 2; i < argc; i++) {
        std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        auto need = [&]() {
            if (!v) usage_exit((a + ": missing value").c_str());
            i++;
            return v;
        };
        if (a == "--size") {
            o.size = parse_u64("--size", need(), 0, 1ull << 31);
            o.size_given = true;
        } else if (a == "--iters") o.iters = parse_u64("--iters", need(), 1, 100000000);
        else if (a == "--qps") o.qps = unsigned(parse_u64("--qps", need(), 1, 64));
        else if (a == "--mtu") {
            o.mtu = unsigned(parse_u64("--mtu", need(), 256, 4096));
            if (o.mtu & (o.mtu - 1)) usage_exit("--mtu: 256, 512, 1024, 2048 or 4096");
        } else if (a == "--depth") o.depth = unsigned(parse_u64("--depth", need(), 1, 1024));
        else if (a == "--drop") o.drop = parse_prob("--drop", need());
        else if (a == "--dup") o.dup = parse_prob("--dup", need());
        else if (a == "--reorder") o.reorder = parse_prob("--reorder", need());
        else if (a == "--corrupt") o.corrupt = parse_prob("--corrupt", need());
        else if (a == "--seed") o.seed = parse_u64("--seed", need(), 0, ~0ull);
        else if (a == "--pcap") o.pcap = need();
        else if (a == "--latency") o.latency = parse_u64("--latency", need(), 0, 100000000);
        else if (a == "--max-cycles") o.max_cycles = parse_u64("--max-cycles", need(), 1, ~0ull);
        else if (a == "--idle-cycles") o.idle_cycles = parse_u64("--idle-cycles", need(), 1, ~0ull);
        else if (a == "--inline") o.inl = true;
        else if (a == "--imm") o.imm = true;
        else if (a == "--bidir") o.bidir = true;
        else if (a == "--sges") o.sges = unsigned(parse_u64("--sges", need(), 1, 30));
        else if (a == "--unaligned") o.unaligned = true;
        else if (a == "--page-shift") o.page_shift = unsigned(parse_u64("--page-shift", need(), 12, 21));
        else if (a == "--ipv6") o.ipv6 = true;
        else if (a == "--atomic-op") {
            std::string m = need();
            if (m == "fadd") o.aop = AtomicOp::FADD;
            else if (m == "cswap") o.aop = AtomicOp::CSWAP;
            else if (m == "mix") o.aop = AtomicOp::MIX;
            else usage_exit("--atomic-op: fadd, cswap or mix");
        } else if (a == "--timeout") o.timeout = unsigned(parse_u64("--timeout", need(), 0, 31));
        else if (a == "--grace") o.grace = parse_u64("--grace", need(), 0, 100000000);
        else if (a == "--mem-latency") {
            std::string m = need();
            unsigned lo, hi;
            char extra;
            if (std::sscanf(m.c_str(), "%u-%u%c", &lo, &hi, &extra) == 2 && lo >= 1 && lo <= hi && hi <= 100000) {
                o.mem_lat_min = lo;
                o.mem_lat_max = hi;
            } else if (std::sscanf(m.c_str(), "%u%c", &lo, &extra) == 1 && lo >= 1 && lo <= 100000) {
                o.mem_lat_min = o.mem_lat_max = lo;
            } else usage_exit("--mem-latency: N or MIN-MAX cycles, 1..100000");
        } else if (a == "--mem-ready") o.mem_ready = unsigned(parse_u64("--mem-ready", need(), 1, 100));
        else if (a == "--x-init") {
            std::string m = need();
            if (m == "zero") o.x_init = 0;
            else if (m == "ones") o.x_init = 1;
            else if (m == "random") o.x_init = 2;
            else usage_exit("--x-init: zero, ones or random");
        } else if (a == "--verbose" || a == "-v") o.verbose = true;
        else if (a == "--inject-error") o.inject = true;
        else if (a == "-h" || a == "--help") {
            std::fputs(kUsage, stdout);
            std::exit(0);
        } else usage_exit(("unknown option '" + a + "'").c_str());
    }
    if (o.test == Test::ATOMIC) {
        if (o.size_given && o.size != 8) usage_exit("atomic: --size must be 8 (or left out)");
        o.size = 8;
        if (o.inl) usage_exit("atomic: --inline makes no sense");
        o.sges = 1;
    }
    if (o.imm && o.test != Test::WRITE && o.test != Test::SEND)
        usage_exit("--imm: only write and send carry immediate data");
    if (o.inl) {
        if (o.test == Test::READ) usage_exit("read: --inline makes no sense");
        if (o.size > 480) usage_exit("--inline: size must be <= 480 (the WQE is at most 512 bytes)");
        if (o.sges > 1 && o.size > 480) usage_exit("--inline: size too large");
    }
    return o;
}

unsigned mtu_enum(unsigned mtu) {
    switch (mtu) {
    case 256: return FROCE_MTU_256;
    case 512: return FROCE_MTU_512;
    case 1024: return FROCE_MTU_1024;
    case 2048: return FROCE_MTU_2048;
    default: return FROCE_MTU_4096;
    }
}

uint64_t mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Payload byte j of message `iter` on QP q.
void gen_data(uint64_t seed, unsigned q, uint64_t iter, uint8_t *dst, uint64_t len) {
    uint64_t base = mix64(seed ^ (uint64_t(q) << 48) ^ (iter * 0x100000001B3ull));
    for (uint64_t j = 0; j < len; j += 8) {
        uint64_t w = mix64(base + j);
        for (unsigned k = 0; k < 8 && j + k < len; k++) dst[j + k] = uint8_t(w >> (8 * k));
    }
}

// Each host's GID index 0 and MAC (set in Perf::setup, used in every path).
Status gid_of(const Host &h, bool ipv6, Gid *g) {
    const bool is_a = h.name() == "A";
    return Gid::parse(ipv6 ? (is_a ? "fd00::1" : "fd00::2") : (is_a ? "10.0.0.1" : "10.0.0.2"), g);
}
uint64_t mac_of(const Host &h) { return h.name() == "A" ? 0x020000000001ull : 0x020000000002ull; }

// A buffer of `nslots` slots of `slot_len` bytes with guard bytes before,
// between and after them; `shadow` holds what every byte must contain.
struct Region {
    Buffer buf;
    Mr mr;
    uint64_t slot_len = 0, guard = 0, stride = 0;
    unsigned nslots = 0;
    std::vector<uint8_t> shadow;
    uint64_t slot_va(unsigned k) const { return buf.va + guard + uint64_t(k) * stride; }
    uint64_t slot_off(unsigned k) const { return guard + uint64_t(k) * stride; }
};

// One QP pair: "a" names the requester side, "b" the responder side. In a
// --bidir run the second half of the pairs has NIC B as the requester.
struct QpCtx {
    unsigned idx = 0;
    Host *ha = nullptr, *hb = nullptr;
    Qp *qa = nullptr, *qb = nullptr;
    Cq *a_scq = nullptr, *a_rcq = nullptr, *b_scq = nullptr, *b_rcq = nullptr;
    Region a_reg, b_reg;                 // A's local buffers, B's buffers
    uint64_t posted = 0, completed = 0;  // SQ WQEs on A
    uint64_t recv_posted = 0, recv_done = 0;
    std::vector<uint64_t> post_cycle;
    uint64_t lat_sum = 0;
    // atomics
    uint64_t value = 0;                 // B's target as it must be after the WQEs executed so far
    std::vector<uint64_t> expect_old;   // per iteration
    std::vector<uint8_t> atomic_op;
};

// min / average / max of a series of cycle counts
struct CycleStat {
    uint64_t n = 0, sum = 0, min = 0, max = 0;
    void add(uint64_t v) {
        min = n == 0 || v < min ? v : min;
        max = v > max ? v : max;
        sum += v;
        n++;
    }
};

class Perf {
public:
    explicit Perf(const Opts &o) : o_(o) {}
    int run();

private:
    const Opts &o_;
    std::unique_ptr<Sim> sim_;
    std::unique_ptr<Host> ha_, hb_;
    uint32_t pd_a_ = 0, pd_b_ = 0;   // each host's one PD (allocated in setup, its own user context)
    uint32_t pd_of(const Host &h) const { return &h == ha_.get() ? pd_a_ : pd_b_; }
    std::vector<QpCtx> q_;
    std::string fail_;
    uint64_t last_progress_ = 0;
    uint64_t t_start_ = 0, t_end_ = 0;
    uint64_t total_completed_ = 0, total_iters_ = 0;
    uint64_t late_ = 0;
    unsigned next_report_ = 1;
    // Latency breakdown, only when one message is in flight at a time on a
    // clean wire (one QP, depth 1): doorbell accepted -> first byte of the
    // requester's frame on the wire, and last byte of the frame that completes
    // the message into the completing NIC -> its CQE seen in host memory
    // (polled every cycle, so at most one cycle late). The completing NIC is
    // B (receive CQE) for SEND, A (requester CQE after the ACK, READ
    // response or atomic acknowledgement) otherwise.
    bool breakdown_ = false;
    bool await_first_byte_ = false;
    uint64_t posted_at_nic_cycle_ = 0;
    CycleStat db_to_first_byte_, last_byte_to_cqe_;
    void breakdown_step();
    void breakdown_cqe(Nic &nic, const Cqe &e);

    bool failf(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    Status setup();
    Status setup_qp(QpCtx &c);
    Status make_region(Host &h, Region &r, unsigned nslots, uint64_t slot_len, uint8_t access, bool align8);
    Status check_slot(Host &h, const Region &r, unsigned k, const char *what, bool *ok);
    Status check_region(Host &h, const Region &r, const char *what);
    std::vector<Sge> split(const Region &r, unsigned k, uint64_t len) const;
    Status post_one(QpCtx &c);
    Status post_recv(QpCtx &c);
    // SENDs and WRITEs with immediate data consume B's receives
    bool takes_receives() const { return o_.test == Test::SEND || (o_.test == Test::WRITE && o_.imm); }
    // the immediate data of message i of QP pair q
    uint32_t imm_of(unsigned q, uint64_t i) const {
        return uint32_t(mix64(o_.seed ^ (uint64_t(q) << 48) ^ (i * 0x9E3779B97F4A7C15ull) ^ 0x1313));
    }
    Status handle_send_cqe(QpCtx &c, const Cqe &e);
    Status handle_recv_cqe(QpCtx &c, const Cqe &e);
    Status poll_all();
    std::string waiting_report() const;
    void print_table() const;
    void print_retrans();
};

bool Perf::failf(const char *fmt, ...) {
    if (!fail_.empty()) return false;
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fail_ = buf;
    return false;
}

Status Perf::make_region(Host &h, Region &r, unsigned nslots, uint64_t slot_len, uint8_t access, bool align8) {
    std::mt19937_64 rng(mix64(o_.seed * 31 + nslots + slot_len + q_.size()));
    r.nslots = nslots;
    r.slot_len = slot_len;
    if (align8) r.guard = 64;
    else if (o_.unaligned) r.guard = 61 + 2 * (rng() % 8);   // odd
    else r.guard = 64;
    const uint64_t len_rounded = (o_.unaligned && !align8) ? slot_len : (slot_len + 63) / 64 * 64;
    r.stride = len_rounded + r.guard;
    const uint64_t total = r.guard + uint64_t(nslots) * r.stride;
    const uint64_t page = uint64_t(1) << o_.page_shift;
    uint64_t off;
    if (o_.unaligned && !align8) off = 1 + 2 * (rng() % (std::min<uint64_t>(page, 4096) / 2 - 1));
    else off = 64 * (rng() % (std::min<uint64_t>(page, 4096) / 64));
    FROCE_TRY(h.alloc(total, &r.buf, o_.page_shift, off));
    r.shadow.resize(total);
    for (uint64_t i = 0; i < total; i++) r.shadow[i] = uint8_t(mix64(r.buf.va + i + 0x5151) >> 13);
    FROCE_TRY(h.write(r.buf.va, r.shadow.data(), total));
    FROCE_TRY(h.reg_mr(pd_of(h), r.buf.va, total, access, &r.mr, o_.page_shift));
    return Status();
}

std::vector<Sge> Perf::split(const Region &r, unsigned k, uint64_t len) const {
    std::vector<Sge> v;
    if (len == 0) return v;
    unsigned n = unsigned(std::min<uint64_t>(o_.sges, len));
    uint64_t piece = len / n, at = 0;
    for (unsigned i = 0; i < n; i++) {
        Sge s;
        s.addr = r.slot_va(k) + at;
        s.len = uint32_t(i + 1 == n ? len - at : piece);
        s.lkey = r.mr.key;
        at += s.len;
        v.push_back(s);
    }
    return v;
}

Status Perf::setup_qp(QpCtx &c) {
    const unsigned depth = o_.depth;
    unsigned cq_log = 4;
    while ((1u << cq_log) < 4 * depth) cq_log++;
    const uint32_t pd_a = pd_of(*c.ha), pd_b = pd_of(*c.hb);
    FROCE_TRY(c.ha->create_cq(cq_log, pd_a, &c.a_scq));
    FROCE_TRY(c.ha->create_cq(cq_log, pd_a, &c.a_rcq));
    FROCE_TRY(c.hb->create_cq(cq_log, pd_b, &c.b_scq));
    FROCE_TRY(c.hb->create_cq(cq_log, pd_b, &c.b_rcq));
    QpCaps caps;
    caps.max_send_wr = depth;
    caps.max_recv_wr = 2 * depth;
    caps.max_send_sge = o_.sges;
    caps.max_recv_sge = o_.sges;
    caps.max_inline = o_.inl ? uint32_t(o_.size) : 0;
    FROCE_TRY(c.ha->create_qp(pd_a, caps, c.a_scq, c.a_rcq, &c.qa));
    FROCE_TRY(c.hb->create_qp(pd_b, caps, c.b_scq, c.b_rcq, &c.qb));

    const uint8_t LW = FROCE_ACCESS_LOCAL_WRITE;
    switch (o_.test) {
    case Test::WRITE:
        FROCE_TRY(make_region(*c.ha, c.a_reg, depth, o_.size, LW, false));
        FROCE_TRY(make_region(*c.hb, c.b_reg, depth, o_.size, LW | FROCE_ACCESS_REMOTE_WRITE, false));
        break;
    case Test::SEND:
        FROCE_TRY(make_region(*c.ha, c.a_reg, depth, o_.size, LW, false));
        FROCE_TRY(make_region(*c.hb, c.b_reg, 2 * depth, o_.size, LW, false));
        break;
    case Test::READ:
        FROCE_TRY(make_region(*c.ha, c.a_reg, depth, o_.size, LW, false));
        FROCE_TRY(make_region(*c.hb, c.b_reg, depth, o_.size, FROCE_ACCESS_REMOTE_READ, false));
        break;
    case Test::ATOMIC:
        FROCE_TRY(make_region(*c.ha, c.a_reg, depth, 8, LW, true));
        FROCE_TRY(make_region(*c.hb, c.b_reg, 1, 8, LW | FROCE_ACCESS_REMOTE_ATOMIC, true));
        break;
    }
    if (o_.test == Test::ATOMIC) {
        // B's counter starts at a seeded value
        c.value = mix64(o_.seed ^ (0xA70ull << 20) ^ c.idx);
        uint8_t b[8];
        st64(b, c.value);
        std::memcpy(&c.b_reg.shadow[c.b_reg.slot_off(0)], b, 8);
        FROCE_TRY(c.hb->write(c.b_reg.slot_va(0), b, 8));
    }

    const uint8_t remote = FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_READ | FROCE_ACCESS_REMOTE_ATOMIC;
    FROCE_TRY(c.ha->modify_qp_init(c.qa, remote));
    FROCE_TRY(c.hb->modify_qp_init(c.qb, remote));
    uint32_t psn_a = uint32_t(mix64(o_.seed * 7 + c.idx) & 0xFFFFFF);
    uint32_t psn_b = uint32_t(mix64(o_.seed * 11 + c.idx) & 0xFFFFFF);
    if (c.idx == 1) psn_a = 0xFFFFFF - 3;   // one QP crosses the PSN wrap early
    Path to_b, to_a;
    to_b.net_type = to_a.net_type = o_.ipv6 ? FROCE_KIND_ROCE_V2_IPV6 : FROCE_KIND_ROCE_V2_IPV4;
    FROCE_TRY(gid_of(*c.hb, o_.ipv6, &to_b.dgid));
    FROCE_TRY(gid_of(*c.ha, o_.ipv6, &to_a.dgid));
    to_b.dmac = mac_of(*c.hb);
    to_a.dmac = mac_of(*c.ha);
    to_b.udp_sport = uint16_t(0xC000 | (c.qa->qpn & 0x3FFF));
    to_a.udp_sport = uint16_t(0xC000 | (c.qb->qpn & 0x3FFF));
    FROCE_TRY(c.ha->modify_qp_rtr(c.qa, to_b, c.qb->qpn, psn_b, mtu_enum(o_.mtu)));
    FROCE_TRY(c.hb->modify_qp_rtr(c.qb, to_a, c.qa->qpn, psn_a, mtu_enum(o_.mtu)));
    FROCE_TRY(c.ha->modify_qp_rts(c.qa, psn_a, o_.timeout));
    FROCE_TRY(c.hb->modify_qp_rts(c.qb, psn_b, o_.timeout));
    c.post_cycle.assign(o_.iters, 0);
    if (o_.test == Test::ATOMIC) {
        c.expect_old.assign(o_.iters, 0);
        c.atomic_op.assign(o_.iters, 0);
    }
    if (o_.verbose)
        std::fprintf(stderr,
                     "qp %u: requester %s qpn %#x (uar %u, psn %#x, ring va %#" PRIx64 ") <-> responder %s qpn %#x "
                     "(uar %u, psn %#x); requester buf va %#" PRIx64 " key %#x, responder buf va %#" PRIx64 " key %#x\n",
                     c.idx, c.ha->name().c_str(), c.qa->qpn, c.qa->uar, psn_a, c.qa->ring.va, c.hb->name().c_str(), c.qb->qpn, c.qb->uar, psn_b, c.a_reg.buf.va,
                     c.a_reg.mr.key, c.b_reg.buf.va, c.b_reg.mr.key);
    return Status();
}

Status Perf::setup() {
    SimConfig sc;
    sc.a.seed = o_.seed * 2 + 1;
    sc.b.seed = o_.seed * 2 + 2;
    for (NicConfig *n : {&sc.a, &sc.b}) {
        n->x_init = o_.x_init;
        n->mem.r_lat_min = n->mem.b_lat_min = o_.mem_lat_min;
        n->mem.r_lat_max = n->mem.b_lat_max = o_.mem_lat_max;
        n->mem.ar_ready_pct = n->mem.aw_ready_pct = n->mem.w_ready_pct = o_.mem_ready;
        n->mem.r_valid_pct = n->mem.b_valid_pct = o_.mem_ready;
        n->mem.seed = n->seed * 13 + 5;
    }
    for (froce::FaultConfig *f : {&sc.a_to_b, &sc.b_to_a}) {
        f->drop = o_.drop;
        f->dup = o_.dup;
        f->reorder = o_.reorder;
        f->corrupt = o_.corrupt;
        f->latency = o_.latency;
    }
    sc.a_to_b.seed = mix64(o_.seed * 2 + 101);
    sc.b_to_a.seed = mix64(o_.seed * 2 + 102);
    sc.pcap = o_.pcap;
    sim_ = std::make_unique<Sim>(sc);
    FROCE_TRY(sim_->init_status());
    HostConfig ca, cb;
    ca.name = "A";
    cb.name = "B";
    ca.seed = o_.seed * 2 + 1;
    cb.seed = o_.seed * 2 + 2;
    ca.mac = 0x020000000001ull;   // mac_of(): the receive filter passes what the peer sends
    cb.mac = 0x020000000002ull;
    ha_ = std::make_unique<Host>(sim_->a(), ca);
    hb_ = std::make_unique<Host>(sim_->b(), cb);
    FROCE_TRY(ha_->fw_init().context("NIC A firmware"));
    FROCE_TRY(hb_->fw_init().context("NIC B firmware"));
    for (Host *h : {ha_.get(), hb_.get()}) {
        Gid g;
        FROCE_TRY(gid_of(*h, o_.ipv6, &g));
        FROCE_TRY(h->set_gid(0, g, mac_of(*h)));
    }
    FROCE_TRY(ha_->alloc_pd(&pd_a_).context("NIC A"));
    FROCE_TRY(hb_->alloc_pd(&pd_b_).context("NIC B"));
    q_.resize(o_.bidir ? 2 * o_.qps : o_.qps);
    for (unsigned i = 0; i < q_.size(); i++) {
        q_[i].idx = i;
        const bool reverse = i >= o_.qps;   // --bidir: B is the requester
        q_[i].ha = reverse ? hb_.get() : ha_.get();
        q_[i].hb = reverse ? ha_.get() : hb_.get();
        FROCE_TRY(setup_qp(q_[i]).context("QP pair " + std::to_string(i)));
    }
    if (takes_receives())
        for (QpCtx &c : q_)
            while (c.recv_posted < std::min<uint64_t>(2 * o_.depth, o_.iters)) FROCE_TRY(post_recv(c));
    FROCE_TRY(sim_->a().wait_doorbells(100000).context("setup"));
    FROCE_TRY(sim_->b().wait_doorbells(100000).context("setup"));
    return Status();
}

Status Perf::post_recv(QpCtx &c) {
    const unsigned k = unsigned(c.recv_posted % c.b_reg.nslots);
    RecvWr wr;
    wr.sg = split(c.b_reg, k, o_.size);
    FROCE_TRY(c.hb->post_recv(c.qb, wr));
    c.recv_posted++;
    return Status();
}

Status Perf::post_one(QpCtx &c) {
    const uint64_t i = c.posted;
    const unsigned k = unsigned(i % o_.depth);
    SendWr wr;
    wr.signaled = true;
    switch (o_.test) {
    case Test::WRITE:
    case Test::SEND: {
        std::vector<uint8_t> d(o_.size);
        gen_data(o_.seed, c.idx, i, d.data(), d.size());
        std::memcpy(&c.a_reg.shadow[c.a_reg.slot_off(k)], d.data(), d.size());
        FROCE_TRY(c.ha->write(c.a_reg.slot_va(k), d.data(), d.size()));
        if (o_.test == Test::WRITE)
            wr.opcode = o_.imm ? FROCE_WQE_OP_RDMA_WRITE_WITH_IMM : FROCE_WQE_OP_RDMA_WRITE;
        else
            wr.opcode = o_.imm ? FROCE_WQE_OP_SEND_WITH_IMM : FROCE_WQE_OP_SEND;
        if (o_.imm) wr.imm_inv = imm_of(c.idx, i);
        wr.sg = split(c.a_reg, k, o_.size);
        wr.inline_data = o_.inl;
        if (o_.test == Test::WRITE) {
            wr.remote_addr = c.b_reg.slot_va(k);
            wr.rkey = c.b_reg.mr.key;
        }
        break;
    }
    case Test::READ: {
        std::vector<uint8_t> d(o_.size);
        gen_data(o_.seed, c.idx, i, d.data(), d.size());
        std::memcpy(&c.b_reg.shadow[c.b_reg.slot_off(k)], d.data(), d.size());
        FROCE_TRY(c.hb->write(c.b_reg.slot_va(k), d.data(), d.size()));
        // A's destination slot back to its guard bytes, so a short read shows
        FROCE_TRY(c.ha->write(c.a_reg.slot_va(k), &c.a_reg.shadow[c.a_reg.slot_off(k)], o_.size));
        wr.opcode = FROCE_WQE_OP_RDMA_READ;
        wr.sg = split(c.a_reg, k, o_.size);
        wr.remote_addr = c.b_reg.slot_va(k);
        wr.rkey = c.b_reg.mr.key;
        break;
    }
    case Test::ATOMIC: {
        uint64_t r = mix64(o_.seed ^ (uint64_t(c.idx) << 40) ^ (i * 0x9E37ull) ^ 0xA7);
        bool cswap = o_.aop == AtomicOp::CSWAP || (o_.aop == AtomicOp::MIX && (r & 1));
        c.expect_old[i] = c.value;
        if (cswap) {
            bool hit = o_.aop == AtomicOp::CSWAP || ((r >> 1) & 3) != 0;   // mix: 1 in 4 compares fail
            wr.opcode = FROCE_WQE_OP_ATOMIC_CMP_SWP;
            wr.compare_add = hit ? c.value : c.value ^ (1ull << (r >> 58));
            wr.swap = mix64(r);
            if (hit) c.value = wr.swap;
        } else {
            wr.opcode = FROCE_WQE_OP_ATOMIC_FETCH_ADD;
            wr.compare_add = (r >> 8) | 1;
            c.value += wr.compare_add;
        }
        c.atomic_op[i] = wr.opcode;
        // result slot back to guard bytes
        FROCE_TRY(c.ha->write(c.a_reg.slot_va(k), &c.a_reg.shadow[c.a_reg.slot_off(k)], 8));
        wr.sg = split(c.a_reg, k, 8);
        wr.remote_addr = c.b_reg.slot_va(0);
        wr.rkey = c.b_reg.mr.key;
        break;
    }
    }
    FROCE_TRY(c.ha->post_send(c.qa, wr));
    if (o_.inject && c.idx == 0 && i == o_.iters / 2 && o_.size > 0 && !o_.inl) {
        // negative control: the data the NIC fetches differs from what the checker expects
        Host &h = o_.test == Test::READ ? *c.hb : *c.ha;
        const Region &r = o_.test == Test::READ ? c.b_reg : o_.test == Test::ATOMIC ? c.b_reg : c.a_reg;
        const unsigned slot = o_.test == Test::ATOMIC ? 0 : k;
        uint8_t b;
        FROCE_TRY(h.read(r.slot_va(slot) + o_.size / 2, &b, 1));
        b ^= 0x20;
        FROCE_TRY(h.write(r.slot_va(slot) + o_.size / 2, &b, 1));
    }
    c.post_cycle[i] = sim_->cycle();
    if (breakdown_) {
        await_first_byte_ = true;
        posted_at_nic_cycle_ = sim_->a().stats().cycles;
    }
    if (t_start_ == 0 && total_completed_ == 0) t_start_ = sim_->cycle();
    c.posted++;
    return Status();
}

Status Perf::check_slot(Host &h, const Region &r, unsigned k, const char *what, bool *ok) {
    const uint64_t from = r.slot_off(k) - r.guard, len = r.guard + r.stride;   // guard before, slot, guard after
    std::vector<uint8_t> got(len);
    FROCE_TRY(h.read(r.buf.va + from, got.data(), len));
    *ok = true;
    for (uint64_t j = 0; j < len; j++) {
        if (got[j] != r.shadow[from + j]) {
            *ok = false;
            int64_t rel = int64_t(from + j) - int64_t(r.slot_off(k));
            char buf[400];
            std::snprintf(buf, sizeof buf,
                          "%s: slot %u byte %" PRId64 " (VA %#" PRIx64 ", %s) is %#04x, expected %#04x", what, k, rel,
                          r.buf.va + from + j,
                          rel < 0 ? "guard before the slot" : uint64_t(rel) < r.slot_len ? "data" : "guard after the slot",
                          got[j], r.shadow[from + j]);
            return Status::error(buf);
        }
    }
    return Status();
}

Status Perf::check_region(Host &h, const Region &r, const char *what) {
    std::vector<uint8_t> got(r.shadow.size());
    FROCE_TRY(h.read(r.buf.va, got.data(), got.size()));
    for (uint64_t j = 0; j < got.size(); j++)
        if (got[j] != r.shadow[j])
            return errorf("%s: byte %" PRIu64 " of the region (VA %#" PRIx64 ") is %#04x, expected %#04x", what, j,
                          r.buf.va + j, got[j], r.shadow[j]);
    return Status();
}

Status Perf::handle_send_cqe(QpCtx &c, const Cqe &e) {
    const uint64_t i = c.completed;
    if (i >= c.posted) return errorf("QP %u: requester CQE with nothing outstanding: %s", c.idx, e.str().c_str());
    static const uint8_t op_of[] = {FROCE_CQE_OP_RDMA_WRITE, FROCE_CQE_OP_RDMA_READ, FROCE_CQE_OP_SEND, 0};
    uint8_t want_op = op_of[int(o_.test)];
    if (o_.test == Test::ATOMIC)
        want_op = c.atomic_op[i] == FROCE_WQE_OP_ATOMIC_CMP_SWP ? FROCE_CQE_OP_COMP_SWAP : FROCE_CQE_OP_FETCH_ADD;
    if (e.status != FROCE_WC_SUCCESS)
        return errorf("QP %u WQE %" PRIu64 ": requester CQE status %u vendor_err %u (%s)", c.idx, i, e.status,
                      e.vendor_err, e.str().c_str());
    if (e.opcode != want_op || e.qpn != c.qa->qpn || e.wqe_index != (i & 0xFFFF))
        return errorf("QP %u WQE %" PRIu64 ": requester CQE %s; expected opcode %#04x qpn %#x wqe_index %u", c.idx, i,
                      e.str().c_str(), want_op, c.qa->qpn, unsigned(i & 0xFFFF));
    if (o_.test == Test::READ && e.byte_cnt != o_.size)
        return errorf("QP %u WQE %" PRIu64 ": RDMA READ CQE byte_cnt %u, expected %" PRIu64, c.idx, i, e.byte_cnt, o_.size);
    const unsigned k = unsigned(i % o_.depth);
    bool ok = false;
    switch (o_.test) {
    case Test::WRITE: {
        std::vector<uint8_t> d(o_.size);
        gen_data(o_.seed, c.idx, i, d.data(), d.size());
        std::memcpy(&c.b_reg.shadow[c.b_reg.slot_off(k)], d.data(), d.size());
        Status s = check_slot(*c.hb, c.b_reg, k, "the responder's RDMA WRITE target", &ok);
        for (uint64_t g = 0; !ok && g < o_.grace; g++) {
            sim_->step(1);
            s = check_slot(*c.hb, c.b_reg, k, "the responder's RDMA WRITE target", &ok);
            if (ok) late_++;
        }
        if (!ok) return s.context("QP " + std::to_string(c.idx) + " WQE " + std::to_string(i) + " (at the requester's completion)");
        break;
    }
    case Test::READ: {
        std::vector<uint8_t> d(o_.size);
        gen_data(o_.seed, c.idx, i, d.data(), d.size());
        std::memcpy(&c.a_reg.shadow[c.a_reg.slot_off(k)], d.data(), d.size());
        Status s = check_slot(*c.ha, c.a_reg, k, "the requester's RDMA READ destination", &ok);
        if (!ok) return s.context("QP " + std::to_string(c.idx) + " WQE " + std::to_string(i));
        break;
    }
    case Test::ATOMIC: {
        uint8_t b[8];
        st64(b, c.expect_old[i]);
        std::memcpy(&c.a_reg.shadow[c.a_reg.slot_off(k)], b, 8);
        Status s = check_slot(*c.ha, c.a_reg, k, "the requester's atomic result (the old value at the responder)", &ok);
        if (!ok) return s.context("QP " + std::to_string(c.idx) + " WQE " + std::to_string(i) +
                                  (c.atomic_op[i] == FROCE_WQE_OP_ATOMIC_CMP_SWP ? " CMP_SWP" : " FETCH_ADD"));
        break;
    }
    case Test::SEND:
        break;   // data checked at the receive CQE
    }
    c.lat_sum += e.cycle - c.post_cycle[i];
    c.completed++;
    if (o_.test != Test::SEND) breakdown_cqe(sim_->a(), e);
    return Status();
}

void Perf::breakdown_step() {
    if (!breakdown_ || !await_first_byte_) return;
    const NicStats &st = sim_->a().stats();
    if (st.last_doorbell_cycle >= posted_at_nic_cycle_ && st.last_tx_first_beat_cycle >= st.last_doorbell_cycle) {
        db_to_first_byte_.add(st.last_tx_first_beat_cycle - st.last_doorbell_cycle);
        await_first_byte_ = false;
    }
}

void Perf::breakdown_cqe(Nic &nic, const Cqe &e) {
    if (!breakdown_) return;
    // e.cycle counts simulator cycles; the NIC's counters run beside them
    const uint64_t last_in = nic.stats().last_rx_last_beat_cycle + (sim_->cycle() - nic.stats().cycles);
    if (e.cycle >= last_in) last_byte_to_cqe_.add(e.cycle - last_in);
}

Status Perf::handle_recv_cqe(QpCtx &c, const Cqe &e) {
    const uint64_t r = c.recv_done;
    if (!takes_receives()) return errorf("QP %u: unexpected receive CQE on B: %s", c.idx, e.str().c_str());
    if (r >= c.recv_posted) return errorf("QP %u: receive CQE with no receive posted: %s", c.idx, e.str().c_str());
    if (e.status != FROCE_WC_SUCCESS)
        return errorf("QP %u receive %" PRIu64 ": CQE status %u vendor_err %u (%s)", c.idx, r, e.status, e.vendor_err,
                      e.str().c_str());
    // receives complete in message order: receive r is message r's
    const uint8_t want_op = o_.test == Test::WRITE ? FROCE_CQE_OP_RECV_RDMA_WITH_IMM : FROCE_CQE_OP_RECV;
    if (e.opcode != want_op || e.qpn != c.qb->qpn || e.wqe_index != (r & 0xFFFF) || e.byte_cnt != o_.size ||
        e.with_imm != o_.imm || (o_.imm && e.imm_inv != imm_of(c.idx, r)) || e.with_inv)
        return errorf("QP %u receive %" PRIu64 ": CQE %s; expected opcode %#04x qpn %#x wqe_index %u byte_cnt %" PRIu64
                      " %s%#x",
                      c.idx, r, e.str().c_str(), want_op, c.qb->qpn, unsigned(r & 0xFFFF), o_.size,
                      o_.imm ? "immediate " : "no immediate, no invalidate; the would-be immediate ",
                      imm_of(c.idx, r));
    if (o_.test == Test::WRITE) {
        // the data went where the RETH said (checked at the requester's
        // completion); the receive buffer stays as it was
        c.recv_done++;
        if (c.recv_posted < o_.iters) FROCE_TRY(post_recv(c));
        return Status();
    }
    const unsigned k = unsigned(r % c.b_reg.nslots);
    std::vector<uint8_t> d(o_.size);
    gen_data(o_.seed, c.idx, r, d.data(), d.size());
    std::memcpy(&c.b_reg.shadow[c.b_reg.slot_off(k)], d.data(), d.size());
    bool ok;
    Status s = check_slot(*c.hb, c.b_reg, k, "the responder's receive buffer", &ok);
    if (!ok) return s.context("QP " + std::to_string(c.idx) + " receive " + std::to_string(r));
    c.recv_done++;
    breakdown_cqe(sim_->b(), e);
    if (c.recv_posted < o_.iters) FROCE_TRY(post_recv(c));
    return Status();
}

Status Perf::poll_all() {
    std::vector<Cqe> v;
    for (QpCtx &c : q_) {
        const std::string nic_a = "NIC " + c.ha->name(), nic_b = "NIC " + c.hb->name();
        v.clear();
        Status s = c.ha->poll_cq(c.a_scq, 64, &v);
        for (const Cqe &e : v) {
            if (o_.verbose) std::fprintf(stderr, "cycle %" PRIu64 " %s qp %u CQE %s\n", sim_->cycle(), c.ha->name().c_str(), c.idx, e.str().c_str());
            FROCE_TRY(handle_send_cqe(c, e));
            total_completed_++;
            last_progress_ = sim_->cycle();
            t_end_ = sim_->cycle();
        }
        FROCE_TRY(s.context(nic_a));
        v.clear();
        s = c.ha->poll_cq(c.a_rcq, 64, &v);
        if (!v.empty()) return errorf("QP %u: unexpected CQE on the requester's (%s) receive CQ: %s", c.idx, c.ha->name().c_str(), v[0].str().c_str());
        FROCE_TRY(s.context(nic_a));
        v.clear();
        s = c.hb->poll_cq(c.b_rcq, 64, &v);
        for (const Cqe &e : v) {
            if (o_.verbose) std::fprintf(stderr, "cycle %" PRIu64 " %s qp %u CQE %s\n", sim_->cycle(), c.hb->name().c_str(), c.idx, e.str().c_str());
            FROCE_TRY(handle_recv_cqe(c, e));
            last_progress_ = sim_->cycle();
        }
        FROCE_TRY(s.context(nic_b));
        v.clear();
        s = c.hb->poll_cq(c.b_scq, 64, &v);
        if (!v.empty()) return errorf("QP %u: unexpected CQE on the responder's (%s) send CQ: %s", c.idx, c.hb->name().c_str(), v[0].str().c_str());
        FROCE_TRY(s.context(nic_b));
    }
    return Status();
}

std::string Perf::waiting_report() const {
    std::string s;
    for (const QpCtx &c : q_) {
        char buf[400];
        if (c.completed < c.posted) {
            std::snprintf(buf, sizeof buf,
                          "  QP %u (%s qpn %#x -> %s qpn %#x): waiting for WQE %" PRIu64 " (wqe_index %u, posted at cycle %" PRIu64
                          "); %" PRIu64 " posted, %" PRIu64 " completed",
                          c.idx, c.ha->name().c_str(), c.qa->qpn, c.hb->name().c_str(), c.qb->qpn, c.completed,
                          unsigned(c.completed & 0xFFFF),
                          c.post_cycle[c.completed], c.posted, c.completed);
        } else {
            std::snprintf(buf, sizeof buf, "  QP %u: %" PRIu64 " posted, %" PRIu64 " completed", c.idx, c.posted,
                          c.completed);
        }
        s += buf;
        if (takes_receives()) {
            std::snprintf(buf, sizeof buf, "; receives posted %" PRIu64 ", completed %" PRIu64, c.recv_posted, c.recv_done);
            s += buf;
        }
        s += "\n";
    }
    s += "  " + sim_->a().port_state() + "\n  " + sim_->b().port_state() + "\n  " + sim_->stats_line() + "\n";
    return s;
}

// Loss recovery as each NIC counted it (BAR0 counters): PSN-sequence NAKs
// sent and received, ACK timeouts at the QP's timeout and adaptive ones,
// duplicates the responder saw, requests it dropped out of sequence
void Perf::print_retrans() {
    for (Host *h : {ha_.get(), hb_.get()}) {
        uint64_t v[7] = {};
        const unsigned idx[6] = {FROCE_CNT_PACKET_SEQ_ERR, FROCE_CNT_OUT_OF_SEQUENCE, FROCE_CNT_DUPLICATE_REQUEST,
                                 FROCE_CNT_LOCAL_ACK_TIMEOUT_ERR, FROCE_CNT_RETRY_EXCEEDED_ERR, FROCE_CNT_SENT_PKTS};
        Status s;
        for (unsigned i = 0; i < 6 && s.ok(); i++) s = h->read_counter64(idx[i], &v[i]);
        if (s.ok()) s = h->read_icounter(FROCE_ICNT_ADP_RETRANS, &v[6]);
        if (!s.ok()) {
            std::printf("retrans %s: counters not readable: %s\n", h->name().c_str(), s.message().c_str());
            continue;
        }
        std::printf("retrans %s: sent_pkts %" PRIu64 " seq_naks_rcvd %" PRIu64 " out_of_sequence %" PRIu64
                    " duplicates %" PRIu64 " timeouts %" PRIu64 " adaptive_timeouts %" PRIu64 " retry_exceeded %" PRIu64 "\n",
                    h->name().c_str(), v[5], v[0], v[1], v[2], v[3], v[6], v[4]);
    }
}

void Perf::print_table() const {
    const uint64_t cycles = t_end_ > t_start_ ? t_end_ - t_start_ : 1;
    const double secs = double(cycles) * kNsPerCycle * 1e-9;
    const uint64_t msgs = total_completed_;
    const double bytes = double(msgs) * double(o_.size);
    uint64_t lat = 0;
    for (const QpCtx &c : q_) lat += c.lat_sum;
    std::printf("---------------------------------------------------------------------------------------\n");
    std::printf(" froce-perf %s  qps %u  depth %u  mtu %u  clock %.2f MHz (%.1f ns/cycle)\n", o_.test_name, o_.qps,
                o_.depth, o_.mtu, kClockMHz, kNsPerCycle);
    std::printf("---------------------------------------------------------------------------------------\n");
    std::printf(" %-10s %-12s %-18s %-16s %-22s %s\n", "#bytes", "#iterations", "BW average[Gb/sec]", "MsgRate[Mpps]",
                "avg latency[cycles]", "cycles");
    std::printf(" %-10" PRIu64 " %-12" PRIu64 " %-18.3f %-16.4f %-22.1f %" PRIu64 "\n", o_.size, msgs,
                bytes * 8 / secs / 1e9, double(msgs) / secs / 1e6, msgs ? double(lat) / double(msgs) : 0.0, cycles);
    std::printf("---------------------------------------------------------------------------------------\n");
    if (db_to_first_byte_.n && last_byte_to_cqe_.n) {
        auto line = [](const char *what, const CycleStat &c) {
            std::printf(" %-40s avg %8.1f  min %6" PRIu64 "  max %6" PRIu64 " cycles (%" PRIu64 " messages)\n", what,
                        double(c.sum) / double(c.n), c.min, c.max, c.n);
        };
        line("doorbell -> first byte on the wire", db_to_first_byte_);
        line("last byte in -> CQE in host memory", last_byte_to_cqe_);
        std::printf("---------------------------------------------------------------------------------------\n");
    }
}

int Perf::run() {
    total_iters_ = o_.iters * o_.qps * (o_.bidir ? 2 : 1);
    breakdown_ = !o_.bidir && o_.qps == 1 && o_.depth == 1 && o_.drop == 0 && o_.dup == 0 && o_.reorder == 0 && o_.corrupt == 0;
    Status s = setup();
    if (!s.ok()) {
        std::printf("result: FAIL setup: %s\n", s.message().c_str());
        return 1;
    }
    const uint64_t auto_max = 2000000 + total_iters_ * (20000 + o_.size * 8);
    const uint64_t max_cycles = o_.max_cycles ? o_.max_cycles : auto_max;
    const uint64_t begin = sim_->cycle();
    // ACK timeout: 4.096 us * 2^T = 640 cycles * 2^T at 156.25 MHz
    // A message takes size / 8 cycles on a clean wire; the QPs take turns WQE
    // by WQE, so the next completion may come after one message of each QP.
    // Eight times that covers any loss rate the tests use (5 % at MTU 256
    // takes about 4x); past it the engine is stalled, not slow.
    const uint64_t idle_limit = o_.idle_cycles ? o_.idle_cycles
                                               : 300000 + 3 * (uint64_t(640) << o_.timeout) +
                                                     uint64_t(o_.qps) * (o_.bidir ? 2 : 1) * o_.size;
    last_progress_ = begin;
    while (total_completed_ < total_iters_) {
        for (QpCtx &c : q_)
            while (c.posted < o_.iters && c.posted - c.completed < o_.depth) {
                s = post_one(c);
                if (!s.ok()) break;
            }
        if (s.ok()) {
            sim_->step(1);
            breakdown_step();
            s = poll_all();
        }
        if (!s.ok()) {
            failf("%s", s.message().c_str());
            break;
        }
        if (total_completed_ * 10 >= total_iters_ * next_report_ && next_report_ <= 10) {
            std::fprintf(stderr, "froce-perf: %3u%% (%" PRIu64 "/%" PRIu64 " messages, cycle %" PRIu64 ")\n",
                         unsigned(total_completed_ * 100 / total_iters_), total_completed_, total_iters_, sim_->cycle());
            while (total_completed_ * 10 >= total_iters_ * next_report_ && next_report_ <= 10) next_report_++;
        }
        if (sim_->cycle() - last_progress_ > idle_limit) {
            failf("timeout: no completion for %" PRIu64 " cycles (cycle %" PRIu64 ")\n%s", idle_limit,
                  sim_->cycle(), waiting_report().c_str());
            break;
        }
        if (sim_->cycle() - begin > max_cycles) {
            failf("timeout: cycle limit %" PRIu64 " reached\n%s", max_cycles, waiting_report().c_str());
            break;
        }
    }
    if (fail_.empty()) {
        // quiet period: no further completions, wires drain
        sim_->flush_wires();
        for (int i = 0; i < 5000; i++) {
            sim_->step(1);
            s = poll_all();
            if (!s.ok()) {
                failf("after the last completion: %s", s.message().c_str());
                break;
            }
        }
    }
    if (fail_.empty()) {
        for (QpCtx &c : q_) {
            if (o_.test == Test::ATOMIC) {
                // B's target holds the last result (checked below); the
                // region check covers the guard bytes around it
                uint8_t v[8];
                st64(v, c.value);
                std::memcpy(&c.b_reg.shadow[c.b_reg.slot_off(0)], v, 8);
            }
            if (takes_receives() && c.recv_done != o_.iters) {
                failf("QP %u: %" PRIu64 " receive completions, expected %" PRIu64, c.idx, c.recv_done, o_.iters);
                break;
            }
            s = check_region(*c.ha, c.a_reg, "the requester's buffer");
            if (s.ok()) s = check_region(*c.hb, c.b_reg, "the responder's buffer");
            if (!s.ok()) {
                failf("final memory check, QP %u: %s", c.idx, s.message().c_str());
                break;
            }
            if (o_.test == Test::ATOMIC) {
                uint8_t b[8];
                s = c.hb->read(c.b_reg.slot_va(0), b, 8);
                if (s.ok() && ld64(b) != c.value)
                    failf("QP %u: B's atomic target holds %#" PRIx64 ", expected %#" PRIx64
                          " (an atomic executed twice or not at all?)",
                          c.idx, ld64(b), c.value);
            }
        }
    }
    if (fail_.empty()) {
        for (Host *h : {ha_.get(), hb_.get()}) {
            std::vector<uint64_t> allowed = h->backing_pages();
            for (uint64_t p : h->nic().mem().written_pages())
                if (!std::binary_search(allowed.begin(), allowed.end(), p)) {
                    failf("NIC %s wrote host page %#" PRIx64 "000, which backs no buffer", h->name().c_str(), p);
                    break;
                }
            if (!h->nic().mem().violations().empty())
                failf("NIC %s AXI protocol violation: %s", h->name().c_str(), h->nic().mem().violations()[0].c_str());
            if (h->nic().stats().tx_keep_errors)
                failf("NIC %s sent %" PRIu64 " beats with a bad tkeep", h->name().c_str(), h->nic().stats().tx_keep_errors);
            if (h->nic().stats().doorbell_bresp_err)
                failf("NIC %s answered %" PRIu64 " doorbells with an error BRESP", h->name().c_str(),
                      h->nic().stats().doorbell_bresp_err);
        }
    }
    print_table();
    std::printf("wire: %s\n", sim_->stats_line().c_str());
    print_retrans();
    if (late_) std::printf("note: %" PRIu64 " RDMA WRITEs landed at B after A's completion (within --grace)\n", late_);
    if (!fail_.empty()) {
        std::printf("result: FAIL %s %s\n", o_.test_name, fail_.c_str());
        return 1;
    }
    std::printf("result: ok %s size=%" PRIu64 " iters=%" PRIu64 " qps=%u depth=%u mtu=%u: %" PRIu64
                " messages, every byte and completion checked, guards intact\n",
                o_.test_name, o_.size, o_.iters, o_.qps, o_.depth, o_.mtu, total_completed_);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    Opts o = parse(argc, argv);
    Perf p(o);
    return p.run();
}
