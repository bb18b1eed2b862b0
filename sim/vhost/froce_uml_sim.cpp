// SPDX-License-Identifier: MIT
// froce-uml-sim: simulated froce NICs for User-Mode Linux guests (PCI over
// virtio, vhost-user). See README.md in this directory.
//
// Built twice (sim/core/Makefile): froce-uml-sim with the bare froce_core
// (froce_sim::Nic), and with FROCE_UML_SIM_ALVEO defined
// froce-uml-sim-alveo, whose NICs are the Alveo U200 board core
// (froce_sim::AlveoNic). Same command line.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/socket.h>

#include "uml_sim.h"
#ifdef FROCE_UML_SIM_ALVEO
#include "alveo_nic.h"
#endif

namespace {

#ifdef FROCE_UML_SIM_ALVEO
constexpr const char *kProg = "froce-uml-sim-alveo";
constexpr const char *kBoard = "the Alveo U200 board core (fpga_core: XDMA bridge glue, MSI-X emitter, MAC, PCS, "
                               "10GBASE-R lane)";
#else
constexpr const char *kProg = "froce-uml-sim";
constexpr const char *kBoard = "the bare froce_core";
#endif

volatile sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

void usage(FILE *f) {
    std::fprintf(f,
                 "usage: %s --sock PATH [--sock PATH2] [--wire-fd FD] [--pcap FILE] [--drop-pct N]\n"
                 "                     [--seed N] [--ready-file F] [--mac-base HEX] [--quiet-fw]\n"
                 "                     [--chunk CYCLES] [--idle-chunk CYCLES]\n"
                 "  each NIC:    %s\n"
                 "  one --sock:  NIC A, its Ethernet port on --wire-fd (an inherited AF_UNIX SOCK_DGRAM end,\n"
                 "               one frame per datagram, no FCS; required)\n"
                 "  two --sock:  NICs A and B joined by the simulated wire\n"
                 "  UML side:    linux ... virtio_uml.device=PATH:1234\n"
                 "  --mac-base:  MAC of NIC A as 12 hex digits (colons allowed), NIC i gets base + i;\n"
                 "               default 02:00:00:00:00:01\n",
                 kProg, kBoard);
}

bool parse_u64(const char *s, int base, uint64_t *v) {
    char *end = nullptr;
    errno = 0;
    unsigned long long x = std::strtoull(s, &end, base);
    if (errno || end == s || *end) return false;
    *v = x;
    return true;
}

bool parse_mac(std::string s, uint64_t *v) {
    std::string h;
    for (char c : s)
        if (c != ':') h += c;
    if (h.size() > 2 && (h.compare(0, 2, "0x") == 0 || h.compare(0, 2, "0X") == 0)) h = h.substr(2);
    if (h.empty() || h.size() > 12) return false;
    return parse_u64(h.c_str(), 16, v);
}

}  // namespace

int main(int argc, char **argv) {
    froce_vhost::UmlSimConfig cfg;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto val = [&](const char *name) -> const char * {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "froce-uml-sim: %s needs a value\n", name);
                std::exit(2);
            }
            return argv[++i];
        };
        uint64_t u = 0;
        if (a == "--sock") {
            cfg.socks.push_back(val("--sock"));
        } else if (a == "--wire-fd") {
            if (!parse_u64(val("--wire-fd"), 10, &u) || u > 1000000) {
                std::fprintf(stderr, "froce-uml-sim: --wire-fd: not a file descriptor number\n");
                return 2;
            }
            cfg.wire_fd = int(u);
        } else if (a == "--pcap") {
            cfg.pcap = val("--pcap");
        } else if (a == "--drop-pct") {
            const char *s = val("--drop-pct");
            char *end = nullptr;
            cfg.drop_pct = std::strtod(s, &end);
            if (end == s || *end || cfg.drop_pct < 0 || cfg.drop_pct > 100) {
                std::fprintf(stderr, "froce-uml-sim: --drop-pct %s: not a percentage\n", s);
                return 2;
            }
        } else if (a == "--seed") {
            if (!parse_u64(val("--seed"), 0, &cfg.seed)) {
                std::fprintf(stderr, "froce-uml-sim: --seed: not a number\n");
                return 2;
            }
        } else if (a == "--ready-file") {
            cfg.ready_file = val("--ready-file");
        } else if (a == "--mac-base") {
            if (!parse_mac(val("--mac-base"), &cfg.mac_base)) {
                std::fprintf(stderr, "froce-uml-sim: --mac-base: not a 48-bit hex MAC\n");
                return 2;
            }
        } else if (a == "--chunk") {
            if (!parse_u64(val("--chunk"), 0, &u) || u == 0 || u > 1000000) {
                std::fprintf(stderr, "froce-uml-sim: --chunk: cycles 1..1000000\n");
                return 2;
            }
            cfg.chunk_cycles = unsigned(u);
        } else if (a == "--idle-chunk") {
            if (!parse_u64(val("--idle-chunk"), 0, &u) || u == 0 || u > 1000000) {
                std::fprintf(stderr, "froce-uml-sim: --idle-chunk: cycles 1..1000000\n");
                return 2;
            }
            cfg.idle_chunk_cycles = unsigned(u);
        } else if (a == "--quiet-fw") {
            cfg.fw_console = false;
        } else if (a == "-h" || a == "--help") {
            usage(stdout);
            return 0;
        } else {
            std::fprintf(stderr, "froce-uml-sim: unknown argument '%s'\n", a.c_str());
            usage(stderr);
            return 2;
        }
    }
    if (cfg.socks.empty() || cfg.socks.size() > 2) {
        std::fprintf(stderr, "froce-uml-sim: one or two --sock needed\n");
        usage(stderr);
        return 2;
    }
    if (cfg.socks.size() == 1) {
        if (cfg.wire_fd < 0) {
            std::fprintf(stderr, "froce-uml-sim: one --sock needs --wire-fd\n");
            return 2;
        }
        int type = 0;
        socklen_t len = sizeof type;
        if (::getsockopt(cfg.wire_fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_DGRAM) {
            std::fprintf(stderr, "froce-uml-sim: --wire-fd %d: not a datagram socket\n", cfg.wire_fd);
            return 2;
        }
        ::fcntl(cfg.wire_fd, F_SETFL, ::fcntl(cfg.wire_fd, F_GETFL) | O_NONBLOCK);
        ::fcntl(cfg.wire_fd, F_SETFD, FD_CLOEXEC);
    } else if (cfg.wire_fd >= 0) {
        std::fprintf(stderr, "froce-uml-sim: --wire-fd is for one --sock (two NICs share the simulated wire)\n");
        return 2;
    }

    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;   // no SA_RESTART: poll() returns EINTR
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

#ifdef FROCE_UML_SIM_ALVEO
    cfg.make_nic = [](const froce_sim::NicConfig &nc) -> std::unique_ptr<froce_sim::NicModel> {
        return std::make_unique<froce_sim::AlveoNic>(nc);
    };
#endif
    froce_vhost::UmlSim sim(cfg);
    froce_sim::Status s = sim.init();
    if (!s.ok()) {
        std::fprintf(stderr, "froce-uml-sim: %s\n", s.message().c_str());
        return 1;
    }
    for (size_t i = 0; i < cfg.socks.size(); i++)
        std::printf("froce-uml-sim: NIC %c: listening on %s (%s; %u UAR pages, %u MSI-X vectors)\n", char('A' + i),
                    cfg.socks[i].c_str(), sim.unic(unsigned(i)).nic().board(), sim.unic(unsigned(i)).num_uar_pages(),
                    sim.unic(unsigned(i)).num_vectors());
    std::fflush(stdout);
    int rc = 0;
    for (;;) {
        if (g_stop) {
            std::printf("froce-uml-sim: signal, stopping\n");
            break;
        }
        bool gone = false;
        s = sim.round(&gone);
        if (!s.ok()) {
            std::fprintf(stderr, "froce-uml-sim: protocol error: %s\n", s.message().c_str());
            rc = 1;
            break;
        }
        if (gone) {
            std::printf("froce-uml-sim: every front end disconnected\n");
            break;
        }
    }
    std::printf("%s\n", sim.stats_line().c_str());
    std::fflush(stdout);
    return rc;   // the sockets are removed on the way out
}
