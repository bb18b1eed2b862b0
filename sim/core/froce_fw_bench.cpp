// SPDX-License-Identifier: MIT
// froce-fw-bench: how long the firmware takes for the driver's commands, on
// one simulated froce_core with the firmware image on its soft core. For each
// command: device cycles from the first BAR0 write of the command to DONE in
// the command block (polled every cycle), the instructions the core retired
// in that time and their CPI (the core's minstret, read through
// sim/core/froce_core.vlt). A benchmark: it reports figures, `make bench`
// runs it (scripts/bench_fw.sh); correctness is tested elsewhere.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "froce_hw.h"
#include "host.h"
#include "nic.h"

using namespace froce_sim;

namespace {

constexpr double kClockMhz = 156.25;

struct Figure {
    std::string what;
    std::vector<uint64_t> cycles, instret;
    void add(uint64_t c, uint64_t i) {
        cycles.push_back(c);
        instret.push_back(i);
    }
};

struct Bench {
    Nic nic;
    Host host;
    std::vector<Figure> figs;

    Bench(const NicConfig &nc, const HostConfig &hc) : nic(nc), host(nic, hc) {}

    Figure &fig(const std::string &what) {
        for (Figure &f : figs)
            if (f.what == what) return f;
        figs.push_back(Figure{what, {}, {}});
        return figs.back();
    }

    // Runs fn and records the device cycles and retired instructions it took.
    Status measure(const std::string &what, const std::function<Status()> &fn) {
        const uint64_t t0 = nic.cycle(), i0 = nic.fw_instret();
        FROCE_TRY(fn().context(what));
        fig(what).add(nic.cycle() - t0, nic.fw_instret() - i0);
        return Status();
    }
};

void print_table(const std::vector<Figure> &figs) {
    std::printf("%-34s %6s %10s %10s %10s %12s %6s %10s\n", "command", "runs", "min cyc", "mean cyc", "max cyc",
                "instructions", "CPI", "us @156.25");
    for (const Figure &f : figs) {
        uint64_t sum = 0, isum = 0;
        for (size_t k = 0; k < f.cycles.size(); k++) {
            sum += f.cycles[k];
            isum += f.instret[k];
        }
        const double n = double(f.cycles.size());
        const double mean = double(sum) / n;
        std::printf("%-34s %6zu %10" PRIu64 " %10.0f %10" PRIu64 " %12.0f %6.2f %10.1f\n", f.what.c_str(),
                    f.cycles.size(), *std::min_element(f.cycles.begin(), f.cycles.end()), mean,
                    *std::max_element(f.cycles.begin(), f.cycles.end()), double(isum) / n,
                    isum ? double(sum) / double(isum) : 0.0, mean / kClockMhz);
    }
}

int run(unsigned reps, unsigned mem_latency) {
    NicConfig nc;
    nc.name = "A";
    nc.fw_console = false;
    nc.mem.r_lat_min = nc.mem.r_lat_max = mem_latency;
    nc.mem.b_lat_min = nc.mem.b_lat_max = mem_latency;
    HostConfig hc;
    hc.name = "A";
    hc.mbox.poll_cycles = 1;   // DONE seen in the cycle it lands

    Bench b(nc, hc);
    Status st = b.measure("boot + QUERY_FW + QUERY_CAPS", [&] { return b.host.fw_init(); });
    uint32_t pdn = 0;
    if (st.ok()) st = b.measure("NOP", [&] { return b.host.mailbox()->nop(); });
    if (st.ok()) st = b.measure("ALLOC_PD", [&] { return b.host.alloc_pd(&pdn); });
    Buffer mr_buf;
    if (st.ok()) st = b.host.alloc(1u << 20, &mr_buf, 12);
    for (unsigned r = 0; st.ok() && r < reps; r++) {
        st = b.measure("NOP", [&] { return b.host.mailbox()->nop(); });
        Cq *scq = nullptr, *rcq = nullptr;
        if (st.ok()) st = b.measure("CREATE_CQ 256 CQEs (2 pages)", [&] { return b.host.create_cq(8, pdn, &scq); });
        if (st.ok()) st = b.host.create_cq(8, pdn, &rcq);
        Qp *qp = nullptr;
        QpCaps caps;
        caps.max_send_wr = caps.max_recv_wr = 64;
        Path path;
        path.dgid = Gid::ipv4(10, 0, 0, 2);
        path.dmac = 0x020000000002ull;
        if (st.ok() && r == 0) st = b.host.set_gid(0, Gid::ipv4(10, 0, 0, 1), 0x020000000001ull);
        auto to_rts = [&]() -> Status {
            FROCE_TRY(b.measure("  CREATE_QP RC 64/64 WQEs", [&] { return b.host.create_qp(pdn, caps, scq, rcq, &qp); }));
            FROCE_TRY(b.measure("  MODIFY_QP RESET->INIT", [&] {
                return b.host.modify_qp_init(qp, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE |
                                                     FROCE_ACCESS_REMOTE_READ);
            }));
            FROCE_TRY(b.measure("  MODIFY_QP INIT->RTR", [&] {
                return b.host.modify_qp_rtr(qp, path, 2, 0x100, FROCE_MTU_4096);
            }));
            return b.measure("  MODIFY_QP RTR->RTS", [&] { return b.host.modify_qp_rts(qp, 0x200); });
        };
        if (st.ok()) st = b.measure("CREATE_QP and RESET->INIT->RTR->RTS", to_rts);
        Mr mr;
        if (st.ok())
            st = b.measure("REG_MR 1 MiB (256 x 4 KiB, LIST)", [&] {
                return b.host.reg_mr(pdn, mr_buf.va, mr_buf.len, FROCE_ACCESS_LOCAL_WRITE | FROCE_ACCESS_REMOTE_WRITE,
                                     &mr, 12);
            });
        if (st.ok()) st = b.measure("DEREG_MR 1 MiB", [&] { return b.host.dereg_mr(&mr); });
    }
    if (!st.ok()) {
        std::fprintf(stderr, "froce-fw-bench: %s\n", st.message().c_str());
        for (const std::string &l : b.nic.console_log()) std::fprintf(stderr, "  fw: %s\n", l.c_str());
        return 1;
    }
    std::printf("froce-fw-bench: firmware commands on froce_core's soft core (default table sizes, 64 KiB RAM),\n"
                "host memory latency %u cycles; cycles from the command's first BAR0 write to DONE in the block\n\n",
                mem_latency);
    print_table(b.figs);
    uint64_t cyc = 0, ins = 0;
    for (const Figure &f : b.figs) {
        if (f.what.rfind("  ", 0) == 0 || f.what.rfind("boot", 0) == 0) continue;
        for (size_t k = 0; k < f.cycles.size(); k++) {
            cyc += f.cycles[k];
            ins += f.instret[k];
        }
    }
    std::printf("\ncommand loop CPI (every command above, boot excluded): %.2f (%" PRIu64 " cycles, %" PRIu64
                " instructions)\n",
                ins ? double(cyc) / double(ins) : 0.0, cyc, ins);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    unsigned reps = 4, latency = 20;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = unsigned(std::strtoul(argv[++i], nullptr, 0));
        } else if (!std::strcmp(argv[i], "--mem-latency") && i + 1 < argc) {
            latency = unsigned(std::strtoul(argv[++i], nullptr, 0));
        } else {
            std::fprintf(stderr, "usage: froce-fw-bench [--reps N (1..32, default 4)] [--mem-latency CYCLES (default 20)]\n");
            return 2;
        }
    }
    if (reps < 1 || reps > 32 || latency > 10000) {
        std::fprintf(stderr, "froce-fw-bench: --reps must be 1..32 and --mem-latency at most 10000\n");
        return 2;
    }
    return run(reps, latency);
}
