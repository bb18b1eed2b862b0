// SPDX-License-Identifier: MIT
// froce-fw-dma-test: froce_fw_dma (rtl/fw) alone, against a RAM model with one
// cycle of read latency and the AXI host-memory model: random transfers in both
// directions (lengths 4..4096, host addresses 4 mod 8, page crossings), error
// ranges, refused operands, starts while busy, back-pressure; every byte of the
// RAM and around the host range checked. Also measures 4 KiB transfer times.
#include "Vfroce_fw_dma.h"
#include "axi_mem.h"
#include "verilated.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#ifndef T_RAM_ADDR_WIDTH
#error "build with sim/fw/Makefile"
#endif

using froce_sim::AxiMem;
using froce_sim::AxiMemConfig;
using froce_sim::AxiMemPins;

namespace {

constexpr uint32_t RAM_WORDS = 1u << T_RAM_ADDR_WIDTH;
constexpr uint32_t RAM_BYTES = 4 * RAM_WORDS;
constexpr uint64_t HOST = 0x1000000000ull;

unsigned g_fail = 0;
#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            if (g_fail < 30) { \
                std::printf("    FAIL %s:%d: ", __FILE__, __LINE__); \
                std::printf(__VA_ARGS__); \
                std::printf("\n"); \
            } \
            g_fail++; \
        } \
    } while (0)

struct Tb {
    std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
    std::unique_ptr<Vfroce_fw_dma> m{new Vfroce_fw_dma(ctx.get())};
    AxiMem host;
    AxiMemPins pins;
    std::vector<uint32_t> ram = std::vector<uint32_t>(RAM_WORDS);
    uint32_t rdata = 0;
    uint64_t now = 0;
    unsigned port_misuse = 0;
    // inputs for the next cycle
    bool start = false, dir = false;
    uint64_t haddr = 0;
    uint32_t local = 0, len = 0;

    explicit Tb(const AxiMemConfig &c) : host(c) {}

    void step()
    {
        host.drive(pins);
        m->m_axi_arready = pins.arready;
        m->m_axi_rvalid = pins.rvalid;
        uint64_t rd = 0;
        for (int i = 0; i < 8; i++) rd |= uint64_t(pins.rdata[i]) << (8 * i);
        m->m_axi_rdata = rd;
        m->m_axi_rresp = pins.rresp;
        m->m_axi_rlast = pins.rlast;
        m->m_axi_rid = 0;
        m->m_axi_awready = pins.awready;
        m->m_axi_wready = pins.wready;
        m->m_axi_bvalid = pins.bvalid;
        m->m_axi_bresp = pins.bresp;
        m->m_axi_bid = 0;
        m->ram_rdata = rdata;
        m->start = start;
        m->dir = dir;
        m->host_addr = haddr;
        m->local_addr = local;
        m->len = len;
        m->clk = 0;
        m->eval();

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
        for (int i = 0; i < 8; i++) pins.wdata[i] = uint8_t(m->m_axi_wdata >> (8 * i));
        pins.wstrb = m->m_axi_wstrb;
        pins.wlast = m->m_axi_wlast;
        pins.bready = m->m_axi_bready;
        host.clock(pins);
        // the RAM port: only while busy; read data the next cycle
        if (m->ram_en) {
            if (!m->busy) port_misuse++;
            if (m->ram_we) ram[m->ram_addr] = m->ram_wdata;
            else rdata = ram[m->ram_addr];
        }
        m->clk = 1;
        m->eval();
        now++;
        start = false;
    }
};

struct Xfer {
    bool dir;
    uint64_t host;
    uint32_t local, len;
};

// one transfer: returns cycles from start to busy low (0 if refused)
uint64_t run(Tb &tb, const Xfer &x, bool expect_refused, bool expect_error, std::mt19937_64 &rng, bool poke_busy)
{
    const std::vector<uint32_t> ram0 = tb.ram;
    const uint64_t lo = x.host >= 16 ? x.host - 16 : 0, hi = x.host + x.len + 16;
    std::vector<uint8_t> host0(hi - lo);
    tb.host.read(lo, host0.data(), host0.size());
    const auto st0 = tb.host.stats();

    tb.start = true;
    tb.dir = x.dir;
    tb.haddr = x.host;
    tb.local = x.local;
    tb.len = x.len;
    tb.step();
    // the operands are taken at the start: change them now
    tb.haddr = rng();
    tb.local = uint32_t(rng());
    tb.len = uint32_t(rng());
    tb.dir = !x.dir;
    const uint64_t t0 = tb.now;
    if (expect_refused) {
        CHECK(!tb.m->busy && tb.m->error, "refused %s host %#" PRIx64 " local %#x len %u: busy %d error %d",
              x.dir ? "write" : "read", x.host, x.local, x.len, tb.m->busy, tb.m->error);
        for (int i = 0; i < 50; i++) tb.step();
        CHECK(tb.host.stats().ar_bursts == st0.ar_bursts && tb.host.stats().aw_bursts == st0.aw_bursts,
              "refused transfer made bus traffic");
        CHECK(tb.ram == ram0, "refused transfer changed the RAM");
        return 0;
    }
    CHECK(tb.m->busy, "transfer not busy after start");
    const uint64_t poke_at = poke_busy ? 1 + rng() % 40 : ~0ull;
    uint64_t n = 0;
    while (tb.m->busy && n < 200000) {
        if (n == poke_at) tb.start = true;     // ignored while busy (operands are junk)
        tb.step();
        n++;
    }
    const uint64_t cycles = tb.now - t0;
    CHECK(!tb.m->busy, "transfer never finished");
    CHECK(tb.m->error == expect_error, "%s host %#" PRIx64 " local %#x len %u: error %d, expected %d",
          x.dir ? "write" : "read", x.host, x.local, x.len, tb.m->error, expect_error);
    const auto &st = tb.host.stats();
    if (x.dir) {
        // busy falls only after every B response
        CHECK(st.b_resps == st.aw_bursts && tb.host.idle(), "write done before its B responses (%llu of %llu)",
              (unsigned long long)st.b_resps, (unsigned long long)st.aw_bursts);
        CHECK(tb.ram == ram0, "a write changed the RAM");
        if (!expect_error) {
            std::vector<uint8_t> got(hi - lo);
            tb.host.read(lo, got.data(), got.size());
            unsigned bad = 0;
            for (uint64_t a = lo; a < hi; a++) {
                uint8_t want = host0[a - lo];
                if (a >= x.host && a < x.host + x.len) {
                    const uint32_t off = x.local + uint32_t(a - x.host);
                    want = uint8_t(tb.ram[off / 4] >> (8 * (off % 4)));
                }
                if (got[a - lo] != want) bad++;
            }
            CHECK(bad == 0, "write host %#" PRIx64 " local %#x len %u: %u bytes wrong around and in the range",
                  x.host, x.local, x.len, bad);
        }
    } else {
        CHECK(tb.host.idle(), "read done with bursts in flight");
        unsigned bad = 0;
        for (uint32_t w = 0; w < RAM_WORDS; w++) {
            const uint32_t a = 4 * w;
            if (a >= x.local && a < x.local + x.len) {
                if (expect_error) continue;
                uint8_t b[4];
                tb.host.read(x.host + (a - x.local), b, 4);
                const uint32_t want = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
                if (tb.ram[w] != want) bad++;
            } else if (tb.ram[w] != ram0[w]) {
                bad++;
            }
        }
        CHECK(bad == 0, "read host %#" PRIx64 " local %#x len %u: %u RAM words wrong", x.host, x.local, x.len, bad);
    }
    for (int i = 0; i < 5; i++) tb.step();
    return cycles;
}

uint32_t pick_len(std::mt19937_64 &rng)
{
    static const uint32_t edges[] = {4, 8, 12, 16, 60, 64, 68, 252, 256, 260, 4088, 4092, 4096};
    if (rng() % 3 == 0) return edges[rng() % (sizeof edges / sizeof edges[0])];
    return 4 * (1 + uint32_t(rng() % 1024));
}

unsigned random_run(const AxiMemConfig &hc, uint64_t seed, unsigned count, const char *name)
{
    Tb tb(hc);
    std::mt19937_64 rng(seed);
    for (auto &w : tb.ram) w = uint32_t(rng());
    tb.m->rst = 1;
    for (int i = 0; i < 5; i++) tb.step();
    tb.m->rst = 0;
    const unsigned f0 = g_fail;
    unsigned reads = 0, writes = 0, errors = 0, refused = 0;
    for (unsigned i = 0; i < count; i++) {
        Xfer x;
        x.dir = rng() & 1;
        x.len = pick_len(rng);
        // host: 4-aligned, often 4 mod 8, often near a page end
        x.host = HOST + (rng() % 64) * 4096 + (rng() % 2 ? 4096 - 4 * (rng() % 64) : 4 * (rng() % 1024));
        x.local = 4 * uint32_t(rng() % ((RAM_BYTES - x.len) / 4 + 1));
        bool refuse = false, err = false;
        const unsigned kind = rng() % 20;
        if (kind == 0) {
            refuse = true;
            switch (rng() % 6) {
            case 0: x.len = 0; break;
            case 1: x.len = 4100 + 4 * uint32_t(rng() % 100); break;
            case 2: x.len = x.len - 1 - uint32_t(rng() % 3); break;
            case 3: x.host += 1 + rng() % 3; break;
            case 4: x.local += 1 + uint32_t(rng() % 3); break;
            default: x.local = RAM_BYTES - x.len + 4 * (1 + uint32_t(rng() % 8)); break;
            }
            if (x.len == 0 && rng() % 2) x.len = 2;
        } else if (kind < 3) {
            err = true;
            const uint64_t at = x.host + 4 * (rng() % (x.len / 4));
            tb.host.add_error_range(at, at + 4, rng() % 2 ? froce_sim::AXI_SLVERR : froce_sim::AXI_DECERR);
        }
        run(tb, x, refuse, err, rng, rng() % 4 == 0);
        tb.host.clear_error_ranges();
        if (refuse) refused++;
        else if (err) errors++;
        else if (x.dir) writes++;
        else reads++;
    }
    CHECK(tb.port_misuse == 0, "the RAM port was used while not busy (%u cycles)", tb.port_misuse);
    for (const auto &v : tb.host.violations()) CHECK(false, "AXI: %s", v.c_str());
    const bool ok = g_fail == f0;
    std::printf("%s %-22s %u reads, %u writes, %u with bus errors, %u refused (%llu cycles)\n", ok ? "ok  " : "FAIL",
                name, reads, writes, errors, refused, (unsigned long long)tb.now);
    return ok ? 0 : 1;
}

uint64_t time_4k(unsigned lat, bool dir)
{
    AxiMemConfig hc;
    hc.data_bytes = 8;
    hc.r_lat_min = hc.r_lat_max = lat;
    hc.b_lat_min = hc.b_lat_max = lat;
    Tb tb(hc);
    std::mt19937_64 rng(1);
    tb.m->rst = 1;
    for (int i = 0; i < 5; i++) tb.step();
    tb.m->rst = 0;
    return run(tb, {dir, HOST + 4, 4, 4096}, false, false, rng, false);
}

}  // namespace

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    unsigned count = 400;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--seed" && i + 1 < argc) seed = std::stoull(argv[++i]);
        else if (a == "--count" && i + 1 < argc) count = unsigned(std::stoul(argv[++i]));
        else {
            std::fprintf(stderr, "usage: froce-fw-dma-test [--seed N] [--count N]\n");
            return 2;
        }
    }
    unsigned failed = 0, passed = 0;
    AxiMemConfig fast;
    fast.data_bytes = 8;
    fast.seed = seed;
    AxiMemConfig slow = fast;
    slow.ar_ready_pct = slow.aw_ready_pct = 50;
    slow.w_ready_pct = 60;
    slow.r_valid_pct = 60;
    slow.b_valid_pct = 50;
    slow.r_lat_min = 1;
    slow.r_lat_max = 60;
    slow.b_lat_min = 1;
    slow.b_lat_max = 60;
    const unsigned r1 = random_run(fast, seed, count, "random, no back-pressure");
    const unsigned r2 = random_run(slow, seed + 100, count, "random, back-pressure");
    failed += r1 + r2;
    passed += 2 - r1 - r2;

    const uint64_t rd1 = time_4k(1, false), wr1 = time_4k(1, true);
    const uint64_t rd100 = time_4k(100, false), wr100 = time_4k(100, true);
    const bool tok = rd1 > 0 && rd1 < 1300 && wr1 > 0 && wr1 < 1300;
    std::printf("%s %-22s 4 KiB at host 4 mod 8: read %llu, write %llu cycles (latency 1); "
                "read %llu, write %llu (latency 100)\n",
                tok ? "ok  " : "FAIL", "4 KiB timing", (unsigned long long)rd1, (unsigned long long)wr1,
                (unsigned long long)rd100, (unsigned long long)wr100);
    (tok ? passed : failed)++;
    std::printf("froce-fw-dma-test: %u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
