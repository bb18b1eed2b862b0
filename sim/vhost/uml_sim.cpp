// SPDX-License-Identifier: MIT
// froce-uml-sim: UmlNic and UmlSim; see uml_sim.h.
#include "uml_sim.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "froce_hw.h"
#include "nic.h"
#include "sim.h"

namespace froce_vhost {

using froce_sim::MsixMessage;
using froce_sim::Nic;
using froce_sim::NicConfig;
using froce_sim::NicModel;

namespace {

// cycles between two looks at the command queues inside a chunk
constexpr uint64_t kSliceCycles = 8;

uint64_t now_ns() {
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now().time_since_epoch())
                        .count());
}

}  // namespace

// ---- UmlNic --------------------------------------------------------------------------

UmlNic::UmlNic(NicModel &nic, uint64_t mac, unsigned index)
    : nic_(nic), vu_("NIC " + nic.name()), mac_(mac), index_(index) {}

void UmlNic::warn(const char *fmt, ...) {
    if (warn_budget_ == 0) return;
    if (--warn_budget_ == 0) {
        std::fprintf(stderr, "froce-uml-sim: NIC %s: further warnings suppressed\n", nic_.name().c_str());
        return;
    }
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    std::fprintf(stderr, "froce-uml-sim: NIC %s: %s\n", nic_.name().c_str(), buf);
}

Status UmlNic::init() {
    uint32_t uar = 0, irq = 0;
    FROCE_TRY(nic_.bar0_read32(FROCE_REG_UAR_INFO, &uar).context("UAR_INFO"));
    FROCE_TRY(nic_.bar0_read32(FROCE_REG_IRQ_INFO, &irq).context("IRQ_INFO"));
    FROCE_TRY(nic_.bar0_read32(FROCE_REG_CAPS, &caps_).context("CAPS"));
    num_pages_ = (uar & FROCE_REG_UAR_INFO_NUM_PAGES_MASK) >> FROCE_REG_UAR_INFO_NUM_PAGES_SHIFT;
    num_vectors_ = (irq & FROCE_REG_IRQ_INFO_NUM_VECTORS_MASK) >> FROCE_REG_IRQ_INFO_NUM_VECTORS_SHIFT;
    const unsigned page_shift = (uar & FROCE_REG_UAR_INFO_PAGE_SHIFT_MASK) >> FROCE_REG_UAR_INFO_PAGE_SHIFT_SHIFT;
    if (page_shift != FROCE_UAR_PAGE_SHIFT)
        return errorf("NIC %s: UAR_INFO %#x: page shift %u, expected %u", nic_.name().c_str(), uar, page_shift,
                      unsigned(FROCE_UAR_PAGE_SHIFT));
    if (num_pages_ == 0 || num_vectors_ == 0 || num_vectors_ > FROCE_MSIX_MAX_VECTORS)
        return errorf("NIC %s: UAR_INFO %#x / IRQ_INFO %#x: no UAR pages or vectors out of 1..%u", nic_.name().c_str(),
                      uar, irq, unsigned(FROCE_MSIX_MAX_VECTORS));
    cfg_ = std::make_unique<PciConfig>(FROCE_PCI_VENDOR_ID, FROCE_PCI_DEVICE_ID, FROCE_PCI_CLASS_CODE,
                                       FROCE_PCI_REVISION);
    cfg_->set_bar(0, FROCE_BAR0_SIZE, true, false);
    uint64_t bar2 = uint64_t(num_pages_) << FROCE_UAR_PAGE_SHIFT;
    uint64_t bar2_pow2 = 1;
    while (bar2_pow2 < bar2) bar2_pow2 <<= 1;
    cfg_->set_bar(2, bar2_pow2, true, false);
    cfg_->add_msix(kMsixCapOffset, num_vectors_, 0, FROCE_BAR0_MSIX_TABLE_BASE, 0, FROCE_BAR0_MSIX_PBA_BASE);
    shadow_.assign(num_pages_, Shadow());
    for (auto &e : msix_table_) e = {0, 0, 0, 1};
    nic_.mem().set_backing([this](uint64_t a, uint64_t n) { return vu_.mem().gpa(a, n); });
    nic_.set_msix_message_hook([this](const MsixMessage &m) { queue_msi(m); });
    msix_state_to_model();
    return Status();
}

void UmlNic::msix_state_to_model() { nic_.set_msix_state(cfg_->msix_enabled(), cfg_->msix_function_masked()); }

uint64_t UmlNic::activity() const {
    const froce_sim::NicStats &s = nic_.stats();
    const froce_sim::AxiMemStats &m = nic_.mem().stats();
    return st_.cfg_reads + st_.cfg_writes + st_.mmio_reads + st_.mmio_writes + st_.memsets + s.doorbells + s.msix +
           s.tx_frames + s.rx_frames + m.ar_bursts + m.aw_bursts + s.console_bytes + msi_q_.size();
}

void UmlNic::on_disconnect() {
    msi_q_.clear();
    for (unsigned i : bound_) shadow_[i] = Shadow();
    bound_.clear();
    shadow_index_ = shadow_lo_ = shadow_hi_ = 0;
    for (auto &e : msix_table_) e = {0, 0, 0, 1};
    cfg_->write(0x04, 2, 0);                               // command register
    cfg_->write(kMsixCapOffset + 2, 2, 0);                 // MSI-X off
    msix_state_to_model();
}

// ---- command queue ---------------------------------------------------------------------

Status UmlNic::service_commands() {
    Vring &q = vu_.vring(kQueueCmd);
    if (!q.ready()) return Status();
    unsigned n = 0;
    for (;;) {
        Chain c;
        std::string err;
        int r = q.pop(vu_.mem(), &c, &err);
        if (r == 0) break;
        if (r < 0) return errorf("NIC %s: command queue: %s", nic_.name().c_str(), err.c_str());
        uint32_t written = 0;
        FROCE_TRY(request(c, &written));
        q.push(c.head, written);
        n++;
    }
    if (n) q.notify();
    return Status();
}

Status UmlNic::request(Chain &c, uint32_t *written) {
    *written = 0;
    if (c.out.size() < kPcidevHdr)
        return errorf("NIC %s: request of %zu bytes, shorter than the %u-byte header", nic_.name().c_str(),
                      c.out.size(), kPcidevHdr);
    const uint8_t op = c.out[0], bar = c.out[1];
    const uint32_t size = ld32(&c.out[4]);
    const uint64_t addr = ld64(&c.out[8]);
    const uint8_t *data = c.out.data() + kPcidevHdr;
    const size_t data_len = c.out.size() - kPcidevHdr;
    const char *nm = nic_.name().c_str();
    switch (op) {
    case PCIDEV_OP_CFG_READ: {
        if (size != 1 && size != 2 && size != 4 && size != 8)
            return errorf("NIC %s: CFG_READ of %u bytes", nm, size);
        if (c.in_len < size) return errorf("NIC %s: CFG_READ of %u bytes into a %u-byte buffer", nm, size, c.in_len);
        uint64_t v = cfg_->read(uint32_t(addr), size);
        if (addr >= PciConfig::kSize) v = ~uint64_t(0);
        *written = c.write(&v, size);
        st_.cfg_reads++;
        return Status();
    }
    case PCIDEV_OP_CFG_WRITE: {
        // virt-pci in 6.1 sends memset_io as CFG_WRITE {bar, addr = BAR
        // offset, size = length, data[0] = the byte} (um_pci_bar_set; its
        // message is padded to the 24 bytes of a real config write). A real
        // config write has bar 0 and 1, 2, 4 or 8 bytes: anything else is
        // that memset; a memset of 1/2/4/8 bytes in BAR0 cannot be told
        // apart (the driver does not use memset_io), nor can one with a
        // single data byte (a front end that sends just the byte).
        const bool cfg_size = size == 1 || size == 2 || size == 4 || size == 8;
        if (data_len >= 1 && (data_len == 1 || bar != 0 || !cfg_size)) {
            mmio_memset(bar, addr, size, data[0]);
            return Status();
        }
        if (!cfg_size) return errorf("NIC %s: CFG_WRITE of %u bytes", nm, size);
        if (data_len < size) return errorf("NIC %s: CFG_WRITE of %u bytes with %zu data bytes", nm, size, data_len);
        uint64_t v = 0;
        std::memcpy(&v, data, size);
        if (addr < PciConfig::kSize) cfg_->write(uint32_t(addr), size, v);
        msix_state_to_model();
        st_.cfg_writes++;
        return Status();
    }
    case PCIDEV_OP_MMIO_READ: {
        if (size == 0 || size > 4096) return errorf("NIC %s: MMIO_READ of %u bytes", nm, size);
        if (c.in_len < size) return errorf("NIC %s: MMIO_READ of %u bytes into a %u-byte buffer", nm, size, c.in_len);
        std::vector<uint8_t> buf(size, 0xff);
        const uint64_t t0 = now_ns();
        mmio_read(bar, addr, size, buf.data());
        const uint64_t dt = now_ns() - t0;
        st_.read_ns += dt;
        st_.read_ns_max = std::max(st_.read_ns_max, dt);
        *written = c.write(buf.data(), size);
        st_.mmio_reads++;
        return Status();
    }
    case PCIDEV_OP_MMIO_WRITE:
        if (size == 0 || size > 4096) return errorf("NIC %s: MMIO_WRITE of %u bytes", nm, size);
        if (data_len < size) return errorf("NIC %s: MMIO_WRITE of %u bytes with %zu data bytes", nm, size, data_len);
        mmio_write(bar, addr, size, data);
        st_.mmio_writes++;
        return Status();
    case PCIDEV_OP_MMIO_MEMSET:
        if (data_len < 1) return errorf("NIC %s: MMIO_MEMSET without a data byte", nm);
        mmio_memset(bar, addr, size, data[0]);
        return Status();
    default:
        return errorf("NIC %s: request op %u not handled on the command queue", nm, op);
    }
}

// ---- BAR0 / BAR2 -----------------------------------------------------------------------------

uint32_t UmlNic::bar0_read(uint32_t off) {
    switch (off) {
    case FROCE_REG_MAC_LO: return uint32_t(mac_);
    case FROCE_REG_MAC_HI: return uint32_t(mac_ >> 32) & FROCE_REG_MAC_HI_MAC_MASK;
    case FROCE_REG_UAR_SHADOW_INDEX: return shadow_index_;
    case FROCE_REG_UAR_SHADOW_ADDR_LO: return shadow_lo_;
    case FROCE_REG_UAR_SHADOW_ADDR_HI: return shadow_hi_;
    default: break;
    }
    if (off >= FROCE_BAR0_UAR_SHADOW_BASE && off < FROCE_BAR0_UAR_SHADOW_BASE + FROCE_BAR0_UAR_SHADOW_SIZE) return 0;
    uint32_t v = 0;
    Status s = nic_.bar0_read32(off, &v);
    if (!s.ok()) {
        st_.mmio_errors++;
        warn("BAR0 read %#x: %s (answered 0xffffffff)", off, s.message().c_str());
        return 0xffffffffu;
    }
    if (off == FROCE_REG_CAPS) v |= FROCE_REG_CAPS_UAR_SHADOW_MASK;
    return v;
}

void UmlNic::bar0_write(uint32_t off, uint32_t v) {
    switch (off) {
    case FROCE_REG_MAC_LO:
    case FROCE_REG_MAC_HI: return;   // read-only (the board's EEPROM)
    case FROCE_REG_UAR_SHADOW_INDEX: shadow_index_ = v & FROCE_REG_UAR_SHADOW_INDEX_INDEX_MASK; return;
    case FROCE_REG_UAR_SHADOW_ADDR_LO: shadow_lo_ = v; return;
    case FROCE_REG_UAR_SHADOW_ADDR_HI:
        shadow_hi_ = v;
        shadow_commit();
        return;
    default: break;
    }
    if (off >= FROCE_BAR0_UAR_SHADOW_BASE && off < FROCE_BAR0_UAR_SHADOW_BASE + FROCE_BAR0_UAR_SHADOW_SIZE) return;
    if (off >= FROCE_BAR0_MSIX_TABLE_BASE && off < FROCE_BAR0_MSIX_TABLE_BASE + 32 * 16)
        msix_table_[(off - FROCE_BAR0_MSIX_TABLE_BASE) / 16][(off & 15) / 4] = v;
    Status s = nic_.bar0_write32(off, v);
    if (!s.ok()) {
        st_.mmio_errors++;
        warn("BAR0 write %#x = %#x: %s", off, v, s.message().c_str());
    }
}

void UmlNic::mmio_read(unsigned bar, uint64_t addr, uint32_t size, uint8_t *out) {
    if (bar == 0 && addr < FROCE_BAR0_SIZE && size <= FROCE_BAR0_SIZE - addr) {
        // whole dwords from the model; bytes outside [addr, addr + size) dropped
        const uint64_t first = addr & ~uint64_t(3), end = addr + size;
        for (uint64_t d = first; d < end; d += 4) {
            uint32_t v = bar0_read(uint32_t(d));
            for (unsigned i = 0; i < 4; i++)
                if (d + i >= addr && d + i < end) out[d + i - addr] = uint8_t(v >> (8 * i));
        }
        return;
    }
    if (bar == 2 && addr < (uint64_t(num_pages_) << FROCE_UAR_PAGE_SHIFT)) {
        std::memset(out, 0, size);   // the doorbell window is write-only
        return;
    }
    st_.mmio_errors++;
    warn("MMIO read of %u bytes at BAR%u + %#" PRIx64 ": nothing there (all ones)", size, bar, addr);
}

void UmlNic::mmio_write(unsigned bar, uint64_t addr, uint32_t size, const uint8_t *data) {
    if (bar == 0 && addr < FROCE_BAR0_SIZE && size <= FROCE_BAR0_SIZE - addr) {
        if ((addr & 3) || (size & 3)) {
            st_.mmio_errors++;
            warn("BAR0 write of %u bytes at %#" PRIx64 ": only whole dwords are implemented (dropped)", size, addr);
            return;
        }
        for (uint32_t i = 0; i < size; i += 4) bar0_write(uint32_t(addr + i), ld32(data + i));
        return;
    }
    if (bar == 2 && addr < (uint64_t(num_pages_) << FROCE_UAR_PAGE_SHIFT) &&
        size <= (uint64_t(num_pages_) << FROCE_UAR_PAGE_SHIFT) - addr) {
        if ((addr & 7) || (size & 7)) {
            // the hardware ignores anything but aligned 64-bit writes
            st_.mmio_errors++;
            warn("BAR2 write of %u bytes at %#" PRIx64 ": not a 64-bit doorbell (dropped)", size, addr);
            return;
        }
        for (uint32_t i = 0; i < size; i += 8) {
            const uint64_t a = addr + i;
            Status s = nic_.doorbell(uint32_t(a >> FROCE_UAR_PAGE_SHIFT),
                                     uint32_t((a & ((1u << FROCE_UAR_PAGE_SHIFT) - 1)) / 8), ld64(data + i));
            if (!s.ok()) warn("%s", s.message().c_str());
            st_.bar2_doorbells++;
        }
        return;
    }
    st_.mmio_errors++;
    warn("MMIO write of %u bytes at BAR%u + %#" PRIx64 ": nothing there (dropped)", size, bar, addr);
}

void UmlNic::mmio_memset(unsigned bar, uint64_t addr, uint32_t size, uint8_t v) {
    st_.memsets++;
    if (size == 0) return;
    if (size > (1u << 20)) {
        st_.mmio_errors++;
        warn("MMIO memset of %u bytes at BAR%u + %#" PRIx64 ": too large (dropped)", size, bar, addr);
        return;
    }
    std::vector<uint8_t> buf(size, v);
    mmio_write(bar, addr, size, buf.data());
}

// ---- shadow UAR pages -------------------------------------------------------------------------

void UmlNic::shadow_commit() {
    const uint64_t gpa = uint64_t(shadow_hi_) << 32 | shadow_lo_;
    const unsigned idx = shadow_index_;
    if (idx >= num_pages_) {
        st_.mmio_errors++;
        warn("UAR_SHADOW: index %u beyond the %u UAR pages (ignored)", idx, num_pages_);
        return;
    }
    Shadow &sh = shadow_[idx];
    if (sh.bound) {
        sh = Shadow();
        for (size_t i = 0; i < bound_.size(); i++)
            if (bound_[i] == idx) {
                bound_.erase(bound_.begin() + long(i));
                break;
            }
    }
    if (gpa == 0) return;   // unbound
    if (gpa & 7) {
        st_.mmio_errors++;
        warn("UAR_SHADOW: page %u address %#" PRIx64 " not 8-byte aligned (ignored)", idx, gpa);
        return;
    }
    if (!vu_.mem().gpa(gpa, 1u << FROCE_UAR_PAGE_SHIFT))
        warn("UAR_SHADOW: page %u address %#" PRIx64 " outside guest memory (bound, polled once it is there)", idx,
             gpa);
    sh.gpa = gpa;
    sh.bound = true;
    bound_.push_back(idx);
}

void UmlNic::scan_shadow() {
    for (unsigned idx : bound_) {
        Shadow &sh = shadow_[idx];
        const uint8_t *p = vu_.mem().gpa(sh.gpa, 1u << FROCE_UAR_PAGE_SHIFT);
        if (!p) {
            if (!sh.warned) warn("UAR_SHADOW: page %u at %#" PRIx64 " not in guest memory", idx, sh.gpa);
            sh.warned = true;
            continue;
        }
        const uint64_t *slots = reinterpret_cast<const uint64_t *>(p);
        for (unsigned s = 0; s < FROCE_UAR_DB_SLOTS; s++) {
            const uint64_t v = __atomic_load_n(&slots[s], __ATOMIC_RELAXED);
            if (v == sh.last[s]) continue;
            sh.last[s] = v;
            if (v == 0) continue;   // a zeroed slot (TYPE 0) is no doorbell
            Status st = nic_.doorbell(idx, s, v);
            if (!st.ok()) warn("%s", st.message().c_str());
            st_.shadow_doorbells++;
        }
    }
}

// ---- MSI-X ---------------------------------------------------------------------------------------

void UmlNic::queue_msi(const MsixMessage &m) {
    msi_q_.push_back(m);
    if (msi_q_.size() > st_.msi_backlog_max) st_.msi_backlog_max = msi_q_.size();
}

Status UmlNic::flush_msi() {
    if (msi_q_.empty()) return Status();
    Vring &q = vu_.vring(kQueueIrq);
    if (!vu_.connected() || !q.ready()) return Status();
    if (!cfg_->msix_enabled()) {
        st_.msi_not_enabled += msi_q_.size();
        warn("%zu MSI-X request(s) while MSI-X is disabled in the config space (not sent)", msi_q_.size());
        msi_q_.clear();
        return Status();
    }
    if (cfg_->msix_function_masked()) return Status();   // held until unmasked
    unsigned n = 0;
    while (!msi_q_.empty()) {
        Chain c;
        std::string err;
        int r = q.pop(vu_.mem(), &c, &err);
        if (r == 0) break;   // no free buffer: the rest waits
        if (r < 0) return errorf("NIC %s: interrupt queue: %s", nic_.name().c_str(), err.c_str());
        // a board's message is what its emitter wrote; the bare core's
        // request is composed from the table as it is now
        const MsixMessage &m = msi_q_.front();
        uint64_t addr = m.addr;
        uint32_t data = m.data;
        if (!nic_.sends_msix_messages()) {
            const auto &e = msix_table_[m.vector & 31];
            addr = uint64_t(e[1]) << 32 | e[0];
            data = e[2];
        }
        uint8_t msg[kPcidevHdr + 4] = {};
        msg[0] = PCIDEV_OP_MSI;
        const uint32_t size = 4;
        std::memcpy(msg + 4, &size, 4);
        std::memcpy(msg + 8, &addr, 8);
        std::memcpy(msg + kPcidevHdr, &data, 4);
        if (c.in_len < sizeof msg)
            return errorf("NIC %s: interrupt buffer of %u bytes, need %zu", nic_.name().c_str(), c.in_len, sizeof msg);
        q.push(c.head, c.write(msg, sizeof msg));
        msi_q_.pop_front();
        st_.msi_sent++;
        n++;
    }
    if (n) q.notify();
    return Status();
}

void UmlNic::check_dma() {
    const std::vector<std::string> &viol = nic_.mem().violations();
    if (viol.size() > dma_viol_seen_) {
        st_.dma_violations += viol.size() - dma_viol_seen_;
        warn("AXI protocol violation on the DMA port: %s", viol.back().c_str());
        dma_viol_seen_ = viol.size();
    }
    const froce_sim::AxiMemStats &m = nic_.mem().stats();
    if (m.err_beats == dma_err_seen_) return;
    st_.dma_errors += m.err_beats - dma_err_seen_;
    warn("DMA outside guest memory: %" PRIu64 " beat(s) answered DECERR, the latest at %#" PRIx64,
         m.err_beats - dma_err_seen_, m.last_err_addr);
    dma_err_seen_ = m.err_beats;
}

// ---- UmlSim -------------------------------------------------------------------------------------------

UmlSim::UmlSim(const UmlSimConfig &cfg) : cfg_(cfg), rxbuf_(65536 + 64) {}

UmlSim::~UmlSim() = default;

Status UmlSim::init() {
    const unsigned n = cfg_.socks.empty() ? cfg_.nics : unsigned(cfg_.socks.size());
    if (n < 1 || n > 2) return errorf("%u NICs: one or two are supported", n);
    if (cfg_.drop_pct < 0 || cfg_.drop_pct > 100) return errorf("--drop-pct %g: not in 0..100", cfg_.drop_pct);
    froce::FaultConfig f1, f2;
    f1.drop = f2.drop = cfg_.drop_pct / 100.0;
    f1.seed = cfg_.seed;
    f2.seed = cfg_.seed + 1;
    for (const froce::FaultConfig *f : {&f1, &f2}) {
        std::string e = f->check();
        if (!e.empty()) return errorf("wire: %s", e.c_str());
    }
    if (!cfg_.pcap.empty()) {
        tap_ = std::make_unique<froce::PcapTap>(cfg_.pcap, froce_sim::kNsPerCycle);
        if (!tap_->ok()) return errorf("pcap %s: cannot write", cfg_.pcap.c_str());
    }
    // two NICs: the wires between them (sim.h's arrangement); one NIC: the
    // wire to and from the fd
    if (n == 2) {
        ab_ = std::make_unique<froce::Wire>(f1, tap_.get());
        ba_ = std::make_unique<froce::Wire>(f2, tap_.get());
    } else {
        to_fd_ = std::make_unique<froce::Wire>(f1, tap_.get());
        from_fd_ = std::make_unique<froce::Wire>(f2, tap_.get());
    }
    for (unsigned i = 0; i < n; i++) {
        NicConfig nc;
        nc.name = std::string(1, char('A' + i));
        nc.seed = cfg_.seed + i;
        nc.fw_console = cfg_.fw_console;
        nics_.push_back(cfg_.make_nic ? cfg_.make_nic(nc) : std::make_unique<Nic>(nc));
        nics_.back()->set_stepper([this] { step(1); });
        unics_.push_back(std::make_unique<UmlNic>(*nics_.back(), cfg_.mac_base + i, i));
    }
    for (auto &u : unics_) FROCE_TRY(u->init());
    ever_connected_.assign(unics_.size(), false);
    for (size_t i = 0; i < cfg_.socks.size(); i++)
        FROCE_TRY(unics_[i]->vu().listen(cfg_.socks[i]).context("NIC " + unics_[i]->nic().name()));
    if (!cfg_.ready_file.empty()) {
        const std::string tmp = cfg_.ready_file + ".tmp";
        FILE *f = std::fopen(tmp.c_str(), "w");
        if (!f) return errorf("--ready-file %s: %s", tmp.c_str(), std::strerror(errno));
        std::fprintf(f, "%d\n", int(::getpid()));
        std::fclose(f);
        if (std::rename(tmp.c_str(), cfg_.ready_file.c_str()) != 0)
            return errorf("--ready-file %s: %s", cfg_.ready_file.c_str(), std::strerror(errno));
    }
    return Status();
}

uint64_t UmlSim::cycle() const { return cycle_; }

void UmlSim::step1() {
    NicModel &nic = *nics_[0];
    nic.tick();
    std::vector<uint8_t> f;
    while (nic.tx_pop(&f)) to_fd_->send(std::move(f), cycle_);
    while (from_fd_->receive(&f, cycle_)) nic.rx_push(std::move(f));
    cycle_++;
}

void UmlSim::step2() {
    NicModel &a = *nics_[0], &b = *nics_[1];
    a.tick();
    b.tick();
    std::vector<uint8_t> f;
    while (a.tx_pop(&f)) ab_->send(std::move(f), cycle_);
    while (b.tx_pop(&f)) ba_->send(std::move(f), cycle_);
    while (ab_->receive(&f, cycle_)) b.rx_push(std::move(f));
    while (ba_->receive(&f, cycle_)) a.rx_push(std::move(f));
    cycle_++;
}

void UmlSim::step(uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        if (nics_.size() == 2) step2();
        else step1();
    }
}

void UmlSim::pump_wire_fd_out() {
    if (!to_fd_) return;
    std::vector<uint8_t> f;
    while (to_fd_->receive(&f, cycle_)) {
        if (cfg_.wire_fd < 0) continue;
        ssize_t r;
        do {
            r = ::send(cfg_.wire_fd, f.data(), f.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
        } while (r < 0 && errno == EINTR);
        if (r < 0) fd_tx_dropped_++;   // peer not reading (or gone): the frame is lost, as on a link
        else fd_tx_++;
    }
}

void UmlSim::pump_wire_fd_in() {
    if (cfg_.wire_fd < 0 || !from_fd_) return;
    // at most a few frames ahead of the NIC: the socket buffer holds the rest
    while (nics_[0]->rx_pending() < 16) {
        ssize_t r = ::recv(cfg_.wire_fd, rxbuf_.data(), rxbuf_.size(), MSG_DONTWAIT);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        fd_rx_++;
        from_fd_->send(std::vector<uint8_t>(rxbuf_.begin(), rxbuf_.begin() + r), cycle_);
    }
}

Status UmlSim::round(bool *all_gone) {
    *all_gone = false;
    // ---- 1. poll ----
    std::vector<pollfd> pf;
    struct Src {
        unsigned nic;
        int kind;   // 0 listen, 1 connection, 2 kick q0, 3 kick q1, 4 wire
    };
    std::vector<Src> src;
    for (unsigned i = 0; i < unics_.size(); i++) {
        VhostUserDevice &vu = unics_[i]->vu();
        if (!vu.connected() && vu.listen_fd() >= 0) {
            pf.push_back({vu.listen_fd(), POLLIN, 0});
            src.push_back({i, 0});
        }
        if (vu.connected()) {
            pf.push_back({vu.conn_fd(), POLLIN, 0});
            src.push_back({i, 1});
            for (unsigned q = 0; q < 2; q++)
                if (vu.vring(q).kick_fd >= 0) {
                    pf.push_back({vu.vring(q).kick_fd, POLLIN, 0});
                    src.push_back({i, int(2 + q)});
                }
        }
    }
    if (cfg_.wire_fd >= 0 && from_fd_ && nics_[0]->rx_pending() < 16) {
        pf.push_back({cfg_.wire_fd, POLLIN, 0});
        src.push_back({0, 4});
    }
    int r = ::poll(pf.data(), pf.size(), idle_ ? cfg_.idle_poll_ms : 0);
    if (r < 0 && errno != EINTR) return errorf("poll: %s", std::strerror(errno));
    // ---- 2. events ----
    for (size_t k = 0; r > 0 && k < pf.size(); k++) {
        if (!pf[k].revents) continue;
        UmlNic &u = *unics_[src[k].nic];
        VhostUserDevice &vu = u.vu();
        switch (src[k].kind) {
        case 0:
            FROCE_TRY(vu.accept_one().context(vu.name()));
            ever_connected_[src[k].nic] = true;
            std::printf("froce-uml-sim: NIC %s: front end connected\n", u.nic().name().c_str());
            std::fflush(stdout);
            idle_ = false;
            break;
        case 1: {
            // every message already there (the front end waits for each reply)
            for (;;) {
                bool closed = false;
                FROCE_TRY(vu.handle_message(&closed).context(vu.name()));
                if (closed) {
                    u.on_disconnect();
                    std::printf("froce-uml-sim: NIC %s: front end went away\n", u.nic().name().c_str());
                    std::fflush(stdout);
                    break;
                }
                pollfd one{vu.conn_fd(), POLLIN, 0};
                if (::poll(&one, 1, 0) <= 0 || !(one.revents & (POLLIN | POLLHUP | POLLERR))) break;
            }
            idle_ = false;
            break;
        }
        case 2:
        case 3:
            if (vu.connected()) vu.vring(unsigned(src[k].kind - 2)).drain_kick();
            break;
        case 4:
            pump_wire_fd_in();
            break;
        }
    }
    for (auto &u : unics_) {
        if (u->vu().mem_changed) u->vu().mem_changed = false;
        if (u->vu().connected()) {
            FROCE_TRY(u->service_commands());
            FROCE_TRY(u->flush_msi());
        }
    }
    // ---- 3. time, in slices: a request on a command queue (one load of
    // its available index, no system call) ends the chunk early, so that an
    // MMIO read never waits for a whole chunk ----
    uint64_t todo = idle_ ? cfg_.idle_chunk_cycles : cfg_.chunk_cycles;
    while (todo) {
        const uint64_t n = std::min<uint64_t>(todo, kSliceCycles);
        step(n);
        todo -= n;
        bool waiting = false;
        for (auto &u : unics_) waiting |= u->vu().vring(kQueueCmd).pending() > 0;
        if (waiting) break;
    }
    pump_wire_fd_out();
    // ---- 4. after the chunk ----
    uint64_t act = fd_rx_ + fd_tx_;
    for (auto &u : unics_) {
        u->scan_shadow();
        u->check_dma();
        if (u->vu().connected()) {
            FROCE_TRY(u->service_commands());
            FROCE_TRY(u->flush_msi());
        }
        act += u->activity();
    }
    if (act != last_activity_) {
        last_activity_ = act;
        last_active_cycle_ = cycle();
        idle_ = false;
    } else if (cycle() - last_active_cycle_ >= cfg_.idle_cycles) {
        idle_ = true;
    }
    bool any_connected = false, all_were = true;
    for (size_t i = 0; i < unics_.size(); i++) {
        any_connected |= unics_[i]->vu().connected();
        all_were &= bool(ever_connected_[i]);
    }
    *all_gone = !cfg_.socks.empty() && all_were && !any_connected;
    return Status();
}

std::string UmlSim::stats_line() const {
    char buf[2048];
    int n = std::snprintf(buf, sizeof buf, "froce-uml-sim: stats: cycles %" PRIu64, cycle());
    for (const auto &u : unics_) {
        const UmlNicStats &s = u->stats();
        const NicModel &nic = u->nic();
        n += std::snprintf(buf + n, sizeof buf - size_t(n),
                           "; NIC %s: mmio reads %" PRIu64 " writes %" PRIu64 " (avg read %.1f us, max %.1f us), cfg reads %" PRIu64
                           " writes %" PRIu64 ", doorbells %" PRIu64 " (bar2 %" PRIu64 " shadow %" PRIu64
                           "), msis %" PRIu64 " (backlog max %" PRIu64 "), frames tx %" PRIu64 " rx %" PRIu64
                           ", dma errors %" PRIu64 " (protocol violations %" PRIu64 "), mmio errors %" PRIu64,
                           nic.name().c_str(), s.mmio_reads, s.mmio_writes,
                           s.mmio_reads ? double(s.read_ns) / 1000.0 / double(s.mmio_reads) : 0.0,
                           double(s.read_ns_max) / 1000.0, s.cfg_reads,
                           s.cfg_writes, nic.stats().doorbells, s.bar2_doorbells, s.shadow_doorbells, s.msi_sent,
                           s.msi_backlog_max, nic.stats().tx_frames, nic.stats().rx_frames, s.dma_errors,
                           s.dma_violations, s.mmio_errors);
        if (n >= int(sizeof buf)) break;
        const std::string extra = nic.extra_stats();
        if (!extra.empty()) n += std::snprintf(buf + n, sizeof buf - size_t(n), ", %s", extra.c_str());
        if (n >= int(sizeof buf)) break;
    }
    std::string out(buf);
    if (ab_) {
        auto w = [](const char *name, const froce::WireStats &ws) {
            char b[256];
            std::snprintf(b, sizeof b,
                          "%s sent %" PRIu64 " delivered %" PRIu64 " dropped %" PRIu64 " dup %" PRIu64
                          " reordered %" PRIu64 " corrupted %" PRIu64,
                          name, ws.sent, ws.delivered, ws.dropped, ws.duplicated, ws.reordered, ws.corrupted);
            return std::string(b);
        };
        char c[64];
        std::snprintf(c, sizeof c, "; wire: cycles %" PRIu64 "; ", cycle_);
        out += c + w("A->B", ab_->stats()) + "; " + w("B->A", ba_->stats());
    }
    if (to_fd_) {
        char w[192];
        std::snprintf(w, sizeof w, "; wire fd: to %" PRIu64 " (lost %" PRIu64 ") from %" PRIu64 ", dropped %" PRIu64,
                      fd_tx_, fd_tx_dropped_, fd_rx_, to_fd_->stats().dropped + from_fd_->stats().dropped);
        out += w;
    }
    return out;
}

}  // namespace froce_vhost
