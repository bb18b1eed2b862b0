// SPDX-License-Identifier: MIT
// froce-ecpix5-sim: the ECPIX-5 board core (fpga/ecpix5/rtl/fpga_core.v,
// Verilated) with its board around it: the USB UART's host end on a socket,
// the RGMII PHY's line on a datagram socket (one Ethernet frame per
// datagram, no FCS), the PHY's MDIO registers. See README.md here.
#include <cerrno>
#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "Vfpga_core.h"
#include "board_models.h"
#include "verilated.h"
#include "wire.h"

namespace {

using froce_ecpix5::MdioPhy;
using froce_ecpix5::RgmiiPhy;
using froce_ecpix5::RgmiiPins;
using froce_ecpix5::UartLine;

// The build's parameters (sim/ecpix5/Makefile passes the same to Verilator).
constexpr uint64_t kCoreHalfNs = SIM_CORE_HALF_NS;   // core_clk
constexpr uint64_t kGtxHalfNs = 4;                    // 125 MHz
constexpr double kBaud = SIM_BAUD;
constexpr unsigned kPhyAddr = 0;

volatile sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

struct Config {
    std::string uart_path;      // --uart unix:PATH: listen here
    int uart_fd = -1;           // --uart-fd N: an inherited, connected stream
    int wire_fd = -1;           // --wire-fd N: an inherited datagram socket
    std::string pcap, ready_file;
    double link_after_us = 50;  // the PHY reports a link this long after start
    double max_seconds = 0;     // wall-clock limit, 0 = none
    uint64_t seed = 1;
    bool verbose = false;
};

void usage(FILE *f) {
    std::fprintf(f,
                 "usage: froce-ecpix5-sim (--uart unix:PATH | --uart-fd FD) [--wire-fd FD] [--pcap FILE]\n"
                 "                        [--ready-file F] [--link-after-us US] [--max-seconds S] [--seed N] [-v]\n"
                 "  --uart unix:PATH  listen on a Unix stream socket for the host program (froce_uart_link's\n"
                 "                    unix:PATH); one connection at a time, the next one after it closes\n"
                 "  --uart-fd FD      an inherited, connected stream (a UML serial line's host end); the\n"
                 "                    simulator exits when it closes\n"
                 "  --wire-fd FD      the PHY's line: an inherited AF_UNIX SOCK_DGRAM end, one Ethernet frame\n"
                 "                    per datagram without FCS (a UML vector interface's transport=fd);\n"
                 "                    without it the line is unplugged (no link)\n"
                 "  UART: %.0f baud, core clock %.2f MHz (the model's build parameters)\n",
                 kBaud, 1000.0 / double(2 * kCoreHalfNs));
}

bool parse_u64(const char *s, uint64_t *v) {
    char *end = nullptr;
    errno = 0;
    unsigned long long x = std::strtoull(s, &end, 10);
    if (errno || end == s || *end) return false;
    *v = x;
    return true;
}

double wall_seconds() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

class Board {
public:
    explicit Board(const Config &cfg)
        : cfg_(cfg), uart_(1e9 / kBaud), mdio_(kPhyAddr) {
        ctx_.reset(new VerilatedContext);
        ctx_->randReset(2);
        ctx_->randSeed(int(cfg.seed & 0x7fffffff));
        top_.reset(new Vfpga_core(ctx_.get()));
        if (!cfg.pcap.empty()) tap_.reset(new froce::PcapTap(cfg.pcap, 1.0));
    }
    ~Board() { top_->final(); }

    bool pcap_ok() const { return !tap_ || tap_->ok(); }
    uint64_t now_ns() const { return t_ns_; }
    uint64_t core_cycles() const { return core_cycles_; }
    UartLine &uart() { return uart_; }
    RgmiiPhy &phy() { return phy_; }
    MdioPhy &mdio() { return mdio_; }
    bool idle() const { return !uart_.busy() && !phy_.busy(); }

    // Runs until simulated time has advanced by at least ns.
    void run_ns(uint64_t ns) {
        const uint64_t end = t_ns_ + ns;
        while (t_ns_ < end) edge();
    }

private:
    void edge() {
        // the next edge of either clock (they coincide at times)
        uint64_t t = std::min(core_next_, gtx_next_);
        bool core_edge = core_next_ == t, gtx_edge = gtx_next_ == t;
        t_ns_ = t;
        if (core_edge) {
            core_clk_ = !core_clk_;
            core_next_ += kCoreHalfNs;
            top_->core_clk = core_clk_;
            top_->core_rst = core_cycles_ < 16;
            top_->uart_rxd = uart_.rxd_at(t);
            top_->phy_mdio_i = mdio_line_;
        }
        bool rising_gtx = false;
        if (gtx_edge) {
            gtx_clk_ = !gtx_clk_;
            gtx_next_ += kGtxHalfNs;
            rising_gtx = gtx_clk_;
            top_->gtx_clk = gtx_clk_;
            top_->gtx_clk90 = gtx_clk_;      // unused: the PHY delays TXC (RGMII_USE_CLK90 = 0)
            top_->rgmii_rx_clk = gtx_clk_;
            top_->gtx_rst = gtx_cycles_ < 16;
            RgmiiPins rx = phy_.rx_pins(rising_gtx);
            top_->rgmii_rxd = rx.d;
            top_->rgmii_rx_ctl = rx.ctl;
        }
        top_->eval();
        if (gtx_edge) {
            phy_.tx_sample(rising_gtx, {uint8_t(top_->rgmii_txd), bool(top_->rgmii_tx_ctl)});
            if (rising_gtx) gtx_cycles_++;
        }
        if (core_edge) {
            uart_.sample_txd(t, top_->uart_txd);
            mdio_.set_link(cfg_.wire_fd >= 0 && double(t) >= cfg_.link_after_us * 1000.0);
            int d = mdio_.step(top_->phy_mdc, top_->phy_mdio_o, top_->phy_mdio_t);
            // the line: the master when it drives, else the PHY, else the pull-up
            mdio_line_ = !top_->phy_mdio_t ? bool(top_->phy_mdio_o) : d >= 0 ? bool(d) : true;
            if (core_clk_) core_cycles_++;
        }
    }

    Config cfg_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vfpga_core> top_;
    std::unique_ptr<froce::PcapTap> tap_;
    UartLine uart_;
    RgmiiPhy phy_;
    MdioPhy mdio_;
    uint64_t t_ns_ = 0, core_next_ = 0, gtx_next_ = 1;   // gtx 1 ns after core: no fixed phase
    bool core_clk_ = false, gtx_clk_ = false, mdio_line_ = true;
    uint64_t core_cycles_ = 0, gtx_cycles_ = 0;

public:
    // a frame into the capture (both directions), stamped with simulated time
    void tap(const std::vector<uint8_t> &f) {
        if (tap_) tap_->write(f, t_ns_);
    }
};

int listen_unix(const std::string &path) {
    sockaddr_un sa{};
    if (path.size() >= sizeof sa.sun_path) {
        std::fprintf(stderr, "froce-ecpix5-sim: --uart: path too long: %s\n", path.c_str());
        return -1;
    }
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    sa.sun_family = AF_UNIX;
    std::memcpy(sa.sun_path, path.c_str(), path.size());
    ::unlink(path.c_str());
    if (::bind(fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) != 0 || ::listen(fd, 1) != 0) {
        std::fprintf(stderr, "froce-ecpix5-sim: --uart %s: %s\n", path.c_str(), std::strerror(errno));
        ::close(fd);
        return -1;
    }
    return fd;
}

bool set_nonblock(int fd) { return ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK) == 0; }

}  // namespace

int main(int argc, char **argv) {
    Config cfg;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto val = [&](const char *name) -> const char * {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "froce-ecpix5-sim: %s needs a value\n", name);
                std::exit(2);
            }
            return argv[++i];
        };
        uint64_t u = 0;
        if (a == "--uart") {
            std::string s = val("--uart");
            if (s.compare(0, 5, "unix:") != 0 || s.size() == 5) {
                std::fprintf(stderr, "froce-ecpix5-sim: --uart: expected unix:PATH, got '%s'\n", s.c_str());
                return 2;
            }
            cfg.uart_path = s.substr(5);
        } else if (a == "--uart-fd" || a == "--wire-fd") {
            if (!parse_u64(val(a.c_str()), &u) || u > 1000000) {
                std::fprintf(stderr, "froce-ecpix5-sim: %s: not a file descriptor number\n", a.c_str());
                return 2;
            }
            (a == "--uart-fd" ? cfg.uart_fd : cfg.wire_fd) = int(u);
        } else if (a == "--pcap") {
            cfg.pcap = val("--pcap");
        } else if (a == "--ready-file") {
            cfg.ready_file = val("--ready-file");
        } else if (a == "--link-after-us" || a == "--max-seconds") {
            const char *s = val(a.c_str());
            char *end = nullptr;
            double d = std::strtod(s, &end);
            if (end == s || *end || d < 0) {
                std::fprintf(stderr, "froce-ecpix5-sim: %s: not a number >= 0: %s\n", a.c_str(), s);
                return 2;
            }
            (a == "--link-after-us" ? cfg.link_after_us : cfg.max_seconds) = d;
        } else if (a == "--seed") {
            if (!parse_u64(val("--seed"), &u)) {
                std::fprintf(stderr, "froce-ecpix5-sim: --seed: not a number\n");
                return 2;
            }
            cfg.seed = u;
        } else if (a == "-v") {
            cfg.verbose = true;
        } else if (a == "-h" || a == "--help") {
            usage(stdout);
            return 0;
        } else {
            std::fprintf(stderr, "froce-ecpix5-sim: unknown argument '%s'\n", a.c_str());
            usage(stderr);
            return 2;
        }
    }
    if (cfg.uart_path.empty() == (cfg.uart_fd < 0)) {
        std::fprintf(stderr, "froce-ecpix5-sim: give exactly one of --uart unix:PATH and --uart-fd FD\n");
        usage(stderr);
        return 2;
    }
    if (cfg.wire_fd >= 0) {
        int type = 0;
        socklen_t len = sizeof type;
        if (::getsockopt(cfg.wire_fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_DGRAM) {
            std::fprintf(stderr, "froce-ecpix5-sim: --wire-fd %d: not a datagram socket\n", cfg.wire_fd);
            return 2;
        }
        set_nonblock(cfg.wire_fd);
        ::fcntl(cfg.wire_fd, F_SETFD, FD_CLOEXEC);
    }
    int listen_fd = -1, uart_fd = cfg.uart_fd;
    if (!cfg.uart_path.empty()) {
        listen_fd = listen_unix(cfg.uart_path);
        if (listen_fd < 0) return 1;
    } else {
        struct stat st;
        if (::fstat(uart_fd, &st) != 0) {
            std::fprintf(stderr, "froce-ecpix5-sim: --uart-fd %d: %s\n", uart_fd, std::strerror(errno));
            return 2;
        }
        set_nonblock(uart_fd);
    }
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGPIPE, SIG_IGN);

    Board board(cfg);
    if (!board.pcap_ok()) {
        std::fprintf(stderr, "froce-ecpix5-sim: --pcap %s: cannot write\n", cfg.pcap.c_str());
        return 1;
    }
    if (!cfg.ready_file.empty()) {
        FILE *f = std::fopen(cfg.ready_file.c_str(), "w");
        if (!f || std::fputs("ready\n", f) < 0 || std::fclose(f) != 0) {
            std::fprintf(stderr, "froce-ecpix5-sim: --ready-file %s: cannot write\n", cfg.ready_file.c_str());
            return 1;
        }
    }
    std::printf("froce-ecpix5-sim: running (UART %s, wire %s)\n",
                cfg.uart_path.empty() ? "fd" : cfg.uart_path.c_str(), cfg.wire_fd >= 0 ? "fd" : "unplugged");
    std::fflush(stdout);

    // The loop: simulate a slice, then move bytes and frames without
    // blocking. When nothing moved for a while (the host program thinks,
    // a guest boots), poll with a timeout so the simulator leaves the CPU to
    // them; the slice stays short so a request is answered soon.
    constexpr uint64_t kSliceNs = 2000;
    constexpr uint64_t kIdleAfterNs = 20000000;   // 20 ms of simulated time without traffic
    const double t0 = wall_seconds();
    uint64_t last_active_ns = 0;
    uint64_t uart_in = 0, uart_out = 0, frames_in = 0, frames_out = 0;
    bool uart_closed = false, wire_closed = cfg.wire_fd < 0;
    int rc = 0;
    std::vector<uint8_t> buf(16384);
    while (!g_stop) {
        board.run_ns(kSliceNs);
        bool active = !board.idle();

        // UART: bytes from the FPGA out, bytes from the host in (at most
        // what the line carries in a few slices: the model queues the rest)
        auto &rxq = board.uart().received();
        if (uart_fd >= 0 && !rxq.empty()) {
            std::vector<uint8_t> out(rxq.begin(), rxq.end());
            ssize_t n = ::send(uart_fd, out.data(), out.size(), MSG_NOSIGNAL);
            if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) n = ::write(uart_fd, out.data(), out.size());
            if (n > 0) {
                rxq.erase(rxq.begin(), rxq.begin() + n);
                uart_out += uint64_t(n);
            }
        } else if (uart_fd < 0) {
            rxq.clear();   // nobody listens: the bytes fall off the line
        }
        const bool idle = !active && board.now_ns() - last_active_ns > kIdleAfterNs;
        std::vector<pollfd> pf;
        if (listen_fd >= 0 && uart_fd < 0) pf.push_back({listen_fd, POLLIN, 0});
        if (uart_fd >= 0 && board.uart().tx_pending() < 256) pf.push_back({uart_fd, POLLIN, 0});
        if (cfg.wire_fd >= 0 && !wire_closed && board.phy().rx_pending() < 16) pf.push_back({cfg.wire_fd, POLLIN, 0});
        int r = ::poll(pf.data(), pf.size(), idle ? 1 : 0);
        if (r < 0 && errno != EINTR) {
            std::fprintf(stderr, "froce-ecpix5-sim: poll: %s\n", std::strerror(errno));
            rc = 1;
            break;
        }
        for (size_t k = 0; r > 0 && k < pf.size(); k++) {
            if (!pf[k].revents) continue;
            if (pf[k].fd == listen_fd) {
                uart_fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
                if (cfg.verbose && uart_fd >= 0) std::fprintf(stderr, "froce-ecpix5-sim: host connected\n");
                active = true;
            } else if (pf[k].fd == uart_fd) {
                ssize_t n = ::read(uart_fd, buf.data(), 512);
                if (n > 0) {
                    board.uart().send(buf.data(), size_t(n));
                    uart_in += uint64_t(n);
                    active = true;
                } else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                    ::close(uart_fd);
                    uart_fd = -1;
                    if (cfg.verbose) std::fprintf(stderr, "froce-ecpix5-sim: host went away\n");
                    if (listen_fd < 0) uart_closed = true;
                }
            } else if (pf[k].fd == cfg.wire_fd) {
                for (int j = 0; j < 16; j++) {
                    ssize_t n = ::recv(cfg.wire_fd, buf.data(), buf.size(), MSG_DONTWAIT);
                    if (n > 0) {
                        std::vector<uint8_t> f(buf.begin(), buf.begin() + n);
                        board.tap(f);
                        board.phy().send(std::move(f));
                        frames_in++;
                        active = true;
                    } else {
                        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
                            wire_closed = true;
                        break;
                    }
                }
            }
        }
        // frames the FPGA sent go to the peer
        auto &txq = board.phy().transmitted();
        while (!txq.empty()) {
            if (cfg.wire_fd >= 0 && !wire_closed) {
                ssize_t n = ::send(cfg.wire_fd, txq.front().data(), txq.front().size(), MSG_DONTWAIT | MSG_NOSIGNAL);
                if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
                if (n < 0) wire_closed = true;
            }
            board.tap(txq.front());
            txq.pop_front();
            frames_out++;
            active = true;
        }
        if (active) last_active_ns = board.now_ns();

        // the host's line closed (--uart-fd: a UML guest powered off): the board goes with it
        if (uart_closed) break;
        if (cfg.max_seconds > 0 && wall_seconds() - t0 > cfg.max_seconds) {
            std::fprintf(stderr, "froce-ecpix5-sim: --max-seconds %.0f reached\n", cfg.max_seconds);
            rc = 1;
            break;
        }
    }
    const double wall = wall_seconds() - t0;
    const auto &ps = board.phy().stats();
    std::printf("froce-ecpix5-sim: stats: %.3f ms simulated in %.1f s (%.0f core cycles/s); uart bytes in %" PRIu64
                " out %" PRIu64 " framing errors %" PRIu64 "; frames to FPGA %" PRIu64 " from FPGA %" PRIu64
                " (bad fcs %" PRIu64 " bad preamble %" PRIu64 " tx_er %" PRIu64 " runts %" PRIu64
                "); mdio reads %" PRIu64 "\n",
                double(board.now_ns()) / 1e6, wall, wall > 0 ? double(board.core_cycles()) / wall : 0.0, uart_in,
                uart_out, board.uart().framing_errors(), frames_in, frames_out, ps.tx_bad_fcs, ps.tx_bad_preamble,
                ps.tx_errors, ps.tx_runts, board.mdio().reads());
    if (ps.tx_bad_fcs || ps.tx_bad_preamble || ps.tx_errors || ps.tx_runts || board.uart().framing_errors()) {
        std::fprintf(stderr, "froce-ecpix5-sim: the FPGA sent malformed frames or UART bytes (see stats)\n");
        rc = 1;
    }
    if (!board.pcap_ok()) {
        std::fprintf(stderr, "froce-ecpix5-sim: writing the pcap failed\n");
        rc = 1;
    }
    if (listen_fd >= 0) {
        ::close(listen_fd);
        ::unlink(cfg.uart_path.c_str());
    }
    return rc;
}
