// SPDX-License-Identifier: MIT
// Unit test of sim/models/axi_mem.h on its own: flat and sparse storage, bounds, error ranges,
// strobes, W before AW, in-order responses under random latency, and the protocol checks.
//
// The "master" here is this file: it drives AxiMemPins directly, cycle by cycle.
// Prints one PASS line, or FAIL lines and exits 1.

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>

#include "axi_mem.h"

using namespace froce_sim;

namespace {

int failures = 0;

void check(bool ok, const char *what) {
    if (!ok) {
        failures++;
        std::printf("FAIL: %s\n", what);
    }
}

struct RBeat {
    std::vector<uint8_t> data;
    uint8_t resp;
    bool last;
};

// Issues one read burst and collects its beats (the master is always ready).
std::vector<RBeat> read_burst(AxiMem &m, uint64_t addr, unsigned len, unsigned size, int max_cycles = 10000) {
    AxiMemPins p;
    std::vector<RBeat> out;
    bool ar_done = false;
    for (int c = 0; c < max_cycles && out.size() < len + 1; c++) {
        m.drive(p);
        p.arvalid = !ar_done;
        p.araddr = addr;
        p.arlen = uint8_t(len);
        p.arsize = uint8_t(size);
        p.arburst = 1;
        p.rready = true;
        if (p.arvalid && p.arready) ar_done = true;
        if (p.rvalid && p.rready)
            out.push_back({std::vector<uint8_t>(p.rdata.begin(), p.rdata.begin() + m.config().data_bytes), p.rresp,
                           p.rlast});
        m.clock(p);
    }
    return out;
}

struct WBeat {
    std::vector<uint8_t> data;
    uint64_t strb;
    bool last;
};

// Writes one burst; W beats go first when w_first, the AW after them. Returns BRESP (or 0xff on timeout).
uint8_t write_burst(AxiMem &m, uint64_t addr, unsigned len, const std::vector<WBeat> &beats, bool w_first) {
    AxiMemPins p;
    size_t wi = 0;
    bool aw_done = false;
    for (int c = 0; c < 10000; c++) {
        m.drive(p);
        p.awvalid = !aw_done && (!w_first || wi == beats.size());
        p.awaddr = addr;
        p.awlen = uint8_t(len);
        p.awsize = 0;
        while ((1u << p.awsize) < m.config().data_bytes) p.awsize++;
        p.awburst = 1;
        p.wvalid = wi < beats.size();
        if (p.wvalid) {
            std::copy(beats[wi].data.begin(), beats[wi].data.end(), p.wdata.begin());
            p.wstrb = beats[wi].strb;
            p.wlast = beats[wi].last;
        }
        p.bready = true;
        uint8_t resp = 0xff;
        if (p.awvalid && p.awready) aw_done = true;
        if (p.wvalid && p.wready) wi++;
        if (p.bvalid) resp = p.bresp;
        m.clock(p);
        if (resp != 0xff) return resp;
    }
    return 0xff;
}

}  // namespace

int main() {
    // ---- flat memory, bounded, 8-byte bus ----
    {
        AxiMemConfig c;
        c.data_bytes = 8;
        c.sparse = false;
        c.base = 0x10000;
        c.size = 0x3ff8;   // ends inside a 4 KiB page, so a legal burst can run past it
        AxiMem m(c);
        check(m.peek(0x10005) == AxiMem::pattern(0x10005), "flat: untouched byte reads as pattern(addr)");
        check(m.peek(0x20000) == 0 && !m.in_bounds(0x20000), "flat: out of bounds reads 0");

        // strobed write of beat 0x10008: bytes 1, 2 and 7
        std::vector<WBeat> w = {{{1, 2, 3, 4, 5, 6, 7, 8}, 0x86, true}};
        uint8_t resp = write_burst(m, 0x10008, 0, w, false);
        check(resp == AXI_OKAY, "flat: write answered OKAY");
        check(m.peek(0x10009) == 2 && m.peek(0x1000a) == 3 && m.peek(0x1000f) == 8, "flat: strobed bytes written");
        check(m.peek(0x10008) == AxiMem::pattern(0x10008) && m.peek(0x1000b) == AxiMem::pattern(0x1000b),
              "flat: unstrobed bytes untouched");

        // W beats before the AW
        std::vector<WBeat> w2 = {{{9, 9, 9, 9, 9, 9, 9, 9}, 0xff, false}, {{7, 7, 7, 7, 7, 7, 7, 7}, 0x0f, true}};
        resp = write_burst(m, 0x10100, 1, w2, true);
        check(resp == AXI_OKAY && m.peek(0x10100) == 9 && m.peek(0x10108) == 7 &&
                  m.peek(0x1010c) == AxiMem::pattern(0x1010c),
              "flat: W before AW applied to the right addresses");

        // read back, unaligned address: beats are aligned
        auto r = read_burst(m, 0x10101, 1, 3);
        check(r.size() == 2 && r[0].data[0] == 9 && r[1].data[0] == 7 && !r[0].last && r[1].last,
              "flat: read burst data and RLAST");

        // out of bounds: DECERR, zero data, nothing written
        r = read_burst(m, 0x13ff0, 1, 3);
        check(r.size() == 2 && r[0].resp == AXI_OKAY && r[1].resp == AXI_DECERR && r[1].data[0] == 0,
              "flat: beat past the end answers DECERR with zero data");
        check(m.violations().empty(), "flat: no protocol violation so far");
        check(m.idle(), "flat: idle after the bursts");
    }

    // ---- sparse, 64-byte bus, error ranges, random latency, in-order responses ----
    {
        AxiMemConfig c;
        c.data_bytes = 64;
        c.seed = 7;
        c.ar_ready_pct = 50;
        c.r_valid_pct = 50;
        c.r_lat_min = 1;
        c.r_lat_max = 40;
        AxiMem m(c);
        m.add_error_range(0xdead0040, 0xdead0041, AXI_SLVERR);
        m.add_error_range(0xdead0080, 0xdead00c0, AXI_DECERR);
        check(m.beat_resp(0xdead007f) == AXI_SLVERR && m.beat_resp(0xdead0081) == AXI_DECERR &&
                  m.beat_resp(0xdead0000) == AXI_OKAY,
              "sparse: beat_resp over the aligned beat");
        std::vector<uint8_t> buf(200);
        for (unsigned i = 0; i < buf.size(); i++) buf[i] = uint8_t(i);
        m.write(0xfffffffffffff000ull, buf.data(), buf.size());
        check(m.peek(0xfffffffffffff0c7ull) == 199, "sparse: backdoor write near the top of the address space");

        // several bursts in flight: responses come back in order
        AxiMemPins p;
        std::deque<uint64_t> expect;   // beat addresses in order
        uint64_t addrs[3] = {0xdead0000, 0x1000, 0xfffffffffffff000ull};
        unsigned issued = 0;
        std::vector<RBeat> got;
        std::vector<uint64_t> got_addr;
        for (int cyc = 0; cyc < 5000 && got.size() < 3 * 4; cyc++) {
            m.drive(p);
            p.arvalid = issued < 3;
            if (p.arvalid) {
                p.araddr = addrs[issued];
                p.arlen = 3;
                p.arsize = 6;
                p.arburst = 1;
            }
            p.rready = true;
            if (p.arvalid && p.arready) {
                for (unsigned b = 0; b < 4; b++) expect.push_back(addrs[issued] + 64 * b);
                issued++;
            }
            if (p.rvalid) {
                got.push_back({std::vector<uint8_t>(p.rdata.begin(), p.rdata.begin() + 64), p.rresp, p.rlast});
                got_addr.push_back(expect.front());
                expect.pop_front();
            }
            m.clock(p);
        }
        bool ok = got.size() == 12;
        for (size_t i = 0; ok && i < got.size(); i++) {
            uint8_t resp = m.resp_for(got_addr[i], 64);
            ok = got[i].resp == resp && got[i].last == (i % 4 == 3);
            if (resp == AXI_OKAY)
                for (unsigned j = 0; j < 64 && ok; j++) ok = got[i].data[j] == m.peek(got_addr[i] + j);
        }
        check(ok, "sparse: three bursts in flight answered in order with the right data and responses");
        check(got.size() == 12 && got[1].resp == AXI_SLVERR && got[2].resp == AXI_DECERR,
              "sparse: error ranges answered per beat");
        check(m.stats().r_beats == 12 && m.stats().err_beats == 2, "sparse: stats count beats and error beats");
    }

    // ---- protocol checks ----
    {
        AxiMemConfig c;
        c.data_bytes = 8;
        AxiMem m(c);
        read_burst(m, 0xff8, 1, 3);   // crosses 4 KiB
        read_burst(m, 0x2000, 0, 2);  // AxSIZE 4 bytes on an 8-byte bus
        std::vector<WBeat> w = {{{0, 0, 0, 0, 0, 0, 0, 0}, 0xff, false}, {{0, 0, 0, 0, 0, 0, 0, 0}, 0xff, false}};
        write_burst(m, 0x3000, 1, w, false);   // no WLAST on the last beat (B still comes back)
        check(m.violations().size() == 3, "protocol: 4 KiB crossing, AxSIZE and WLAST violations recorded");
        for (const auto &v : m.violations()) std::printf("  (expected) violation: %s\n", v.c_str());
    }

    if (failures) {
        std::printf("FAIL: %d check(s) of the AxiMem model failed\n", failures);
        return 1;
    }
    std::printf("PASS: AxiMem model unit test\n");
    return 0;
}
