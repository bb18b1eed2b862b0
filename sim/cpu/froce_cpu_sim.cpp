// SPDX-License-Identifier: MIT
// froce-cpu-sim: runs a RISC-V ELF on the Verilated froce_cpu_top (core + RAM) with the
// simulator's MMIO devices (console, interrupt lines, scratch register) and the
// riscv-tests tohost convention. Usage: see usage() and sim/cpu/README.md.
#include "Vfroce_cpu_top.h"
#include "Vfroce_cpu_top___024root.h"
#include "elf_image.h"
#include "sim_mmio.h"
#include "verilated.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#ifndef RAM_ADDR_WIDTH
#error "RAM_ADDR_WIDTH must match the model's froce_cpu_top RAM_ADDR_WIDTH (sim/cpu/Makefile)"
#endif

namespace {

constexpr uint32_t RAM_BYTES = 4u << RAM_ADDR_WIDTH;
constexpr uint32_t MMIO_BYTES = 1u << 16;   // froce_cpu_top MMIO_ADDR_WIDTH (default)

// exit statuses
constexpr int EXIT_PASS = 0;
constexpr int EXIT_TEST_FAILED = 1;     // tohost = (N << 1) | 1, or another non-pass value
constexpr int EXIT_BAD_INPUT = 2;       // usage, unreadable or unsuitable ELF
constexpr int EXIT_TIMEOUT = 3;         // --max-cycles reached without a tohost write

const char *const PROG = "froce-cpu-sim";

void usage(FILE *f)
{
    std::fprintf(f,
        "usage: %s [options] PROGRAM.elf\n"
        "Runs PROGRAM on the froce_cpu Verilator model until it writes tohost.\n"
        "  --max-cycles N     give up after N clock cycles (default 10000000), exit %d\n"
        "  --trace            one line per retired or trapping instruction on stderr\n"
        "  --mmio-accept N    MMIO device holds ready low N cycles per request (default 1)\n"
        "  --mmio-latency N   MMIO response N >= 1 cycles after the request is accepted (default 2)\n"
        "Console (0x%08x) output goes to stdout; the result and cycles/instret/CPI to stderr.\n"
        "Exit: %d pass (tohost = 1), %d test failed (tohost = N << 1 | 1), %d bad input, %d timeout.\n",
        PROG, EXIT_TIMEOUT, SIM_CONSOLE, EXIT_PASS, EXIT_TEST_FAILED, EXIT_BAD_INPUT, EXIT_TIMEOUT);
}

[[noreturn]] void fail_input(const std::string &msg)
{
    std::fprintf(stderr, "%s: error: %s\n", PROG, msg.c_str());
    std::exit(EXIT_BAD_INPUT);
}

bool parse_u64(const char *s, uint64_t &v)
{
    if (!s || !*s || *s == '-')
        return false;
    char *end = nullptr;
    errno = 0;
    v = std::strtoull(s, &end, 0);
    return errno == 0 && *end == '\0';
}

std::string hex32(uint32_t v)
{
    char b[16];
    std::snprintf(b, sizeof b, "0x%08" PRIx32, v);
    return b;
}

// The simulator's MMIO devices behind froce_cpu_top's m_mmio_* port
// (sim_mmio.h). One request in flight at a time, like the core.
struct MmioDevices {
    uint64_t accept_wait = 1;       // cycles ready stays low once valid is seen
    uint64_t latency = 2;           // cycles from transfer to response
    bool irq_ext = false;
    bool irq_timer = false;
    uint64_t irq_ext_after = 0;     // cycles until irq_ext is set; 0 = nothing pending
    uint32_t scratch = 0;

    uint64_t waited = 0;            // cycles the current request has waited for ready
    bool busy = false;              // a response is scheduled
    uint64_t rsp_due = 0;
    uint32_t rsp_rdata = 0;
    bool rsp_err = false;

    bool ready() const { return !busy && waited >= accept_wait; }

    // a request transferred in cycle `now`
    void access(uint64_t now, uint32_t addr, bool we, uint32_t be, uint32_t wdata)
    {
        uint32_t mask = 0;
        for (int i = 0; i < 4; i++)
            if (be & (1u << i))
                mask |= 0xffu << (8 * i);
        uint32_t rdata = 0;
        bool err = false;
        switch (addr) {
        case SIM_CONSOLE:
            if (we && (be & 1))
                std::fputc(int(wdata & 0xff), stdout);
            break;
        case SIM_IRQ_EXT:
            if (we && (be & 1))
                irq_ext = wdata & 1;
            rdata = irq_ext;
            break;
        case SIM_IRQ_EXT_AFTER:
            if (we)
                irq_ext_after = wdata & mask;
            rdata = uint32_t(irq_ext_after);
            break;
        case SIM_IRQ_TIMER:
            if (we && (be & 1))
                irq_timer = wdata & 1;
            rdata = irq_timer;
            break;
        case SIM_SCRATCH:
            if (we)
                scratch = (scratch & ~mask) | (wdata & mask);
            rdata = scratch;
            break;
        default:
            err = true;
            break;
        }
        busy = true;
        rsp_due = now + latency;
        rsp_rdata = we ? 0 : rdata;
        rsp_err = err;
        waited = 0;
    }

    // once per cycle, after the clock edge
    void tick()
    {
        if (irq_ext_after > 0 && --irq_ext_after == 0)
            irq_ext = true;
    }
};

} // namespace

int main(int argc, char **argv)
{
    uint64_t max_cycles = 10000000;
    bool trace = false;
    MmioDevices dev;
    std::string path;

    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto value = [&](uint64_t &v) {
            if (i + 1 >= argc || !parse_u64(argv[i + 1], v))
                fail_input(a + " needs a non-negative integer");
            i++;
        };
        if (a == "--max-cycles") {
            value(max_cycles);
            if (max_cycles == 0)
                fail_input("--max-cycles must be at least 1");
        } else if (a == "--trace") {
            trace = true;
        } else if (a == "--mmio-accept") {
            value(dev.accept_wait);
        } else if (a == "--mmio-latency") {
            value(dev.latency);
            if (dev.latency == 0)
                fail_input("--mmio-latency must be at least 1 (no response in the request cycle)");
        } else if (a == "-h" || a == "--help") {
            usage(stdout);
            return EXIT_PASS;
        } else if (!a.empty() && a[0] == '-') {
            usage(stderr);
            fail_input("unknown option " + a);
        } else if (path.empty()) {
            path = a;
        } else {
            usage(stderr);
            fail_input("more than one program given");
        }
    }
    if (path.empty()) {
        usage(stderr);
        fail_input("no program given");
    }

    ElfImage img;
    std::string err;
    if (!elf_load(path, img, err))
        fail_input(err);

    // RAM: the RAM_BYTES-aligned window holding the lowest segment; every
    // segment, the entry point and tohost must fall inside it
    uint32_t lowest = img.segments[0].addr;
    for (const auto &s : img.segments)
        lowest = std::min(lowest, s.addr);
    const uint32_t ram_base = lowest & ~(RAM_BYTES - 1);
    const uint64_t ram_end = uint64_t(ram_base) + RAM_BYTES;
    const std::string ram_desc = std::to_string(RAM_BYTES / 1024) + " KiB RAM at " + hex32(ram_base);
    if (ram_base < SIM_MMIO_BASE + uint64_t(MMIO_BYTES) && SIM_MMIO_BASE < ram_end)
        fail_input(path + ": the " + ram_desc + " would overlap the MMIO window at " + hex32(SIM_MMIO_BASE));
    for (const auto &s : img.segments)
        if (uint64_t(s.addr) + s.memsz > ram_end)
            fail_input(path + ": segment at " + hex32(s.addr) + " (" + std::to_string(s.memsz) +
                       " bytes) lies outside the " + ram_desc);
    if (img.entry < ram_base || img.entry >= ram_end || (img.entry & 3))
        fail_input(path + ": entry point " + hex32(img.entry) + " is not a word in the " + ram_desc);
    const auto th = img.symbols.find("tohost");
    if (th == img.symbols.end())
        fail_input(path + ": no tohost symbol (the program must define the riscv-tests 'tohost' variable)");
    const uint32_t tohost = th->second;
    if (tohost < ram_base || tohost >= ram_end || (tohost & 3))
        fail_input(path + ": tohost (" + hex32(tohost) + ") is not a word in the " + ram_desc);

    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(0, static_cast<char **>(nullptr));
    auto top = std::make_unique<Vfroce_cpu_top>(ctx.get());

    top->clk = 0;
    top->rst = 1;
    top->ram_base = ram_base;
    top->boot_addr = img.entry;
    top->m_mmio_req_ready = 0;
    top->m_mmio_rsp_valid = 0;
    top->m_mmio_rsp_rdata = 0;
    top->m_mmio_rsp_err = 0;
    top->irq_external = 0;
    top->irq_timer = 0;
    top->eval();

    // backdoor load (public_flat_rw in froce_cpu_sim.vlt): zero, then the segments
    auto &mem = top->rootp->froce_cpu_top__DOT__u_ram__DOT__mem;
    for (uint32_t w = 0; w < RAM_BYTES / 4; w++)
        mem[w] = 0;
    for (const auto &s : img.segments)
        for (size_t i = 0; i < s.data.size(); i++) {
            const uint32_t off = s.addr - ram_base + uint32_t(i);
            mem[off / 4] |= uint32_t(s.data[i]) << (8 * (off % 4));
        }

    for (int i = 0; i < 4; i++) {
        top->clk = 1;
        top->eval();
        top->clk = 0;
        top->eval();
    }
    top->rst = 0;

    uint64_t cycle = 0, instret = 0, traps = 0;
    int status = -1;
    uint32_t tohost_value = 0;
    while (status < 0) {
        if (cycle >= max_cycles) {
            status = EXIT_TIMEOUT;
            break;
        }
        // inputs for this cycle
        const bool rsp = dev.busy && dev.rsp_due == cycle;
        top->m_mmio_req_ready = dev.ready();
        top->m_mmio_rsp_valid = rsp;
        top->m_mmio_rsp_rdata = rsp ? dev.rsp_rdata : 0xdeadbeef;
        top->m_mmio_rsp_err = rsp && dev.rsp_err;
        top->irq_external = dev.irq_ext;
        top->irq_timer = dev.irq_timer;
        top->eval();
        if (rsp)
            dev.busy = false;

        // what happens in this cycle
        if (top->m_mmio_req_valid) {
            if (top->m_mmio_req_ready)
                dev.access(cycle, top->m_mmio_req_addr, top->m_mmio_req_we, top->m_mmio_req_be,
                           top->m_mmio_req_wdata);
            else
                dev.waited++;
        }
        if (top->trace_valid) {
            if (top->trace_trap)
                traps++;
            else
                instret++;
            if (trace) {
                std::fflush(stdout);
                std::fprintf(stderr, "%10" PRIu64 " %08" PRIx32 " %08" PRIx32, cycle, top->trace_pc, top->trace_insn);
                if (top->trace_trap)
                    std::fprintf(stderr, " trap mcause=%08" PRIx32, top->trace_cause);
                if (top->trace_rd)
                    std::fprintf(stderr, " x%-2u=%08" PRIx32, unsigned(top->trace_rd), top->trace_rd_wdata);
                if (top->trace_store)
                    std::fprintf(stderr, " mem[%08" PRIx32 "] be=%x <= %08" PRIx32, top->trace_store_addr,
                                 unsigned(top->trace_store_be), top->trace_store_wdata);
                std::fputc('\n', stderr);
            }
            if (top->trace_store && top->trace_store_addr == tohost) {
                uint32_t v = 0;
                for (int i = 0; i < 4; i++)
                    if (top->trace_store_be & (1u << i))
                        v |= top->trace_store_wdata & (0xffu << (8 * i));
                if (v != 0) {   // 0 is "nothing to report" in the HTIF convention
                    tohost_value = v;
                    status = v == 1 ? EXIT_PASS : EXIT_TEST_FAILED;
                }
            }
        }

        top->clk = 1;
        top->eval();
        top->clk = 0;
        cycle++;
        dev.tick();
    }
    std::fflush(stdout);
    top->final();

    switch (status) {
    case EXIT_PASS:
        std::fprintf(stderr, "%s: PASS %s\n", PROG, path.c_str());
        break;
    case EXIT_TEST_FAILED:
        if (tohost_value & 1)
            std::fprintf(stderr, "%s: FAIL %s: test %" PRIu32 " failed (tohost = %s)\n", PROG, path.c_str(),
                         tohost_value >> 1, hex32(tohost_value).c_str());
        else
            std::fprintf(stderr, "%s: FAIL %s: tohost = %s is not a result (HTIF system calls are not supported)\n",
                         PROG, path.c_str(), hex32(tohost_value).c_str());
        break;
    default:
        std::fprintf(stderr, "%s: TIMEOUT %s: no tohost write in %" PRIu64 " cycles (--max-cycles)\n", PROG,
                     path.c_str(), max_cycles);
        break;
    }
    std::fprintf(stderr, "%s: cycles %" PRIu64 " instret %" PRIu64 " traps %" PRIu64 " cpi %.3f\n", PROG, cycle, instret,
                 traps, instret ? double(cycle) / double(instret) : 0.0);
    return status;
}
