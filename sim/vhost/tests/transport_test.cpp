// SPDX-License-Identifier: MIT
// froce-uml-transport-test: plays User-Mode Linux's virtio_uml/virt-pci front
// end over a socketpair against froce-uml-sim's transport (UmlSim with one
// NIC, the real Verilated core and firmware), no UML involved:
//   handshake (features, protocol features with REPLY_ACK acks, slave fd,
//   memory table with a memfd region whose guest-physical base and front-end
//   virtual base differ, both vrings); config space (identity, BAR sizing,
//   the MSI-X capability); BAR0 reads of ID/CAPS/MAC through the model; the
//   firmware's DMA into the memfd (QUERY_FW through the mailbox, completion
//   EQE on EQ 0); the MSI on the interrupt queue with the address/data the
//   "guest" wrote into the MSI-X table; MSIs beyond the free interrupt
//   buffers are held and sent when buffers come back; the Function Mask holds
//   an interrupt until it is cleared; a shadow-UAR doorbell
//   and a BAR2 doorbell reaching the model; DMA outside the memory table
//   answered DECERR and counted; malformed messages refused; no AXI protocol
//   violation on the DMA port (on the board also: every MSI-X request of the
//   core written by the emitter and taken as an interrupt, BAR IDs echoed,
//   block lock); disconnect.
// One "ok <case>" / "FAIL <case>: why" line per case; exit 1 on any failure.
// Built a second time with FROCE_UML_SIM_ALVEO as
// froce-uml-transport-test-alveo: the same cases against the Alveo U200
// board core (AlveoNic), whose MSI-X messages come from its emitter.
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "froce_hw.h"
#include "hwfield.h"
#include "mailbox.h"
#include "uml_sim.h"
#ifdef FROCE_UML_SIM_ALVEO
#include "alveo_nic.h"
#endif

using namespace froce_vhost;
using froce_sim::ld32;
using froce_sim::st32;

namespace {

int g_fail = 0;

void result(bool ok, const char *name, const char *fmt = "", ...) __attribute__((format(printf, 3, 4)));
void result(bool ok, const char *name, const char *fmt, ...) {
    if (ok) {
        std::printf("ok %s\n", name);
    } else {
        char buf[512];
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        std::printf("FAIL %s: %s\n", name, buf);
        g_fail++;
    }
    std::fflush(stdout);
}

// ---- guest memory layout (offsets in the memfd) ----
constexpr uint64_t kMemSize = 4 << 20;
constexpr uint64_t kGpaBase = 0x400000;             // UML: the region starts past the kernel image
constexpr uint64_t kUvaBase = 0x7f1200000000ull;    // front-end virtual address of the region
constexpr uint32_t kQ0Num = 64, kQ1Num = 16;
constexpr uint64_t kQ0Desc = 0x0000, kQ0Avail = 0x1000, kQ0Used = 0x2000;
constexpr uint64_t kQ1Desc = 0x3000, kQ1Avail = 0x4000, kQ1Used = 0x5000;
constexpr uint64_t kIrqBufs = 0x6000;               // 32 bytes apart
constexpr uint64_t kReqOut = 0x8000, kReqIn = 0x9000;
constexpr uint64_t kEqRing = 0x10000;
constexpr uint64_t kCmdBlock = 0x20000;
constexpr uint64_t kShadowPage = 0x30000;
constexpr unsigned kIrqBufLen = 20;                 // MAX_IRQ_MSG_SIZE of virt-pci
constexpr uint32_t kMsiData = 42;

class FrontEnd {
public:
    UmlSim &sim;
    int sock = -1, memfd = -1;
    uint8_t *mem = nullptr;
    int kick[2] = {-1, -1}, call[2] = {-1, -1};
    int slave_peer = -1;
    uint16_t q0_avail = 0, q0_used_seen = 0, q1_avail = 0, q1_used_seen = 0;

    explicit FrontEnd(UmlSim &s) : sim(s) {}

    uint8_t *at(uint64_t off) { return mem + off; }
    static uint64_t gpa(uint64_t off) { return kGpaBase + off; }

    bool setup(std::string *err) {
        int sv[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return *err = "socketpair", false;
        sock = sv[0];
        sim.unic(0).vu().adopt(sv[1]);
        memfd = ::memfd_create("guest", 0);
        if (memfd < 0 || ::ftruncate(memfd, kMemSize) != 0) return *err = "memfd", false;
        void *m = ::mmap(nullptr, kMemSize, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
        if (m == MAP_FAILED) return *err = "mmap", false;
        mem = static_cast<uint8_t *>(m);
        for (int i = 0; i < 2; i++) {
            kick[i] = ::eventfd(0, EFD_NONBLOCK);
            call[i] = ::eventfd(0, EFD_NONBLOCK);
        }
        return true;
    }

    // Lets the device run until pred() or max_rounds rounds passed.
    template <class P>
    bool pump(P pred, unsigned max_rounds, std::string *err) {
        for (unsigned i = 0; i < max_rounds; i++) {
            if (pred()) return true;
            bool gone = false;
            froce_sim::Status s = sim.round(&gone);
            if (!s.ok()) {
                *err = "round: " + s.message();
                return false;
            }
        }
        if (pred()) return true;
        *err = "timed out";
        return false;
    }

    bool readable() {
        pollfd p{sock, POLLIN, 0};
        return ::poll(&p, 1, 0) > 0;
    }

    // Sends a message; with want_reply, waits for the reply's payload.
    bool msg(uint32_t req, const void *payload, uint32_t size, std::vector<int> fds, bool need_reply,
             bool want_reply, std::vector<uint8_t> *reply, std::string *err) {
        uint8_t buf[12 + 512];
        uint32_t h[3] = {req, kVuVersion | (need_reply ? kVuFlagNeedReply : 0u), size};
        std::memcpy(buf, h, 12);
        std::memcpy(buf + 12, payload, size);
        iovec iov{buf, 12 + size};
        msghdr mh{};
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        alignas(cmsghdr) char cbuf[CMSG_SPACE(8 * sizeof(int))];
        if (!fds.empty()) {
            mh.msg_control = cbuf;
            mh.msg_controllen = CMSG_SPACE(fds.size() * sizeof(int));
            cmsghdr *c = CMSG_FIRSTHDR(&mh);
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(fds.size() * sizeof(int));
            std::memcpy(CMSG_DATA(c), fds.data(), fds.size() * sizeof(int));
        }
        if (::sendmsg(sock, &mh, 0) != ssize_t(12 + size)) return *err = "sendmsg", false;
        if (!want_reply && !need_reply) {
            bool gone = false;
            froce_sim::Status s = sim.round(&gone);
            if (!s.ok()) return *err = "round: " + s.message(), false;
            return true;
        }
        if (!pump([&] { return readable(); }, 50, err)) return *err = std::string(vu_request_name(req)) + ": no reply", false;
        uint8_t rh[12];
        if (::recv(sock, rh, 12, MSG_WAITALL) != 12) return *err = "reply header", false;
        uint32_t rreq = ld32(rh), rflags = ld32(rh + 4), rsize = ld32(rh + 8);
        if (rreq != req || rflags != (kVuVersion | kVuFlagReply) || rsize > 512) {
            char b[128];
            std::snprintf(b, sizeof b, "%s: reply header req %u flags %#x size %u", vu_request_name(req), rreq,
                          rflags, rsize);
            return *err = b, false;
        }
        reply->resize(rsize);
        if (rsize && ::recv(sock, reply->data(), rsize, MSG_WAITALL) != ssize_t(rsize)) return *err = "reply", false;
        return true;
    }

    bool set(uint32_t req, const void *p, uint32_t n, std::vector<int> fds, std::string *err) {
        std::vector<uint8_t> r;
        if (!msg(req, p, n, fds, true, false, &r, err)) return false;
        if (r.size() != 8 || froce_sim::ld64(r.data()) != 0) return *err = std::string(vu_request_name(req)) + ": ack not 0", false;
        return true;
    }
    bool get(uint32_t req, uint64_t *v, std::string *err) {
        std::vector<uint8_t> r;
        if (!msg(req, nullptr, 0, {}, false, true, &r, err)) return false;
        if (r.size() != 8) return *err = "reply size", false;
        *v = froce_sim::ld64(r.data());
        return true;
    }

    bool vring_setup(unsigned i, uint32_t num, uint64_t desc, uint64_t avail, uint64_t used, std::string *err) {
        uint64_t idx = i;
        uint32_t st[2] = {i, num};
        uint32_t base[2] = {i, 0};
        struct {
            uint32_t index, flags;
            uint64_t desc, used, avail, log;
        } __attribute__((packed)) a = {i, 0, kUvaBase + desc, kUvaBase + used, kUvaBase + avail, 0};
        uint32_t en[2] = {i, 1};
        return set(VU_SET_VRING_CALL, &idx, 8, {call[i]}, err) && set(VU_SET_VRING_NUM, st, 8, {}, err) &&
               set(VU_SET_VRING_BASE, base, 8, {}, err) && set(VU_SET_VRING_ADDR, &a, sizeof a, {}, err) &&
               set(VU_SET_VRING_KICK, &idx, 8, {kick[i]}, err) && set(VU_SET_VRING_ENABLE, en, 8, {}, err);
    }

    void put_desc(uint64_t table, uint16_t i, uint64_t addr, uint32_t len, uint16_t flags, uint16_t next) {
        uint8_t *d = at(table) + 16 * i;
        std::memcpy(d, &addr, 8);
        std::memcpy(d + 8, &len, 4);
        std::memcpy(d + 12, &flags, 2);
        std::memcpy(d + 14, &next, 2);
    }
    void avail_add(uint64_t avail, uint32_t num, uint16_t *idx, uint16_t head) {
        uint16_t *a = reinterpret_cast<uint16_t *>(at(avail));
        a[2 + *idx % num] = head;
        (*idx)++;
        __atomic_store_n(&a[1], *idx, __ATOMIC_RELEASE);
    }
    uint16_t used_idx(uint64_t used) {
        return __atomic_load_n(reinterpret_cast<uint16_t *>(at(used) + 2), __ATOMIC_ACQUIRE);
    }
    void do_kick(unsigned i) {
        uint64_t one = 1;
        if (::write(kick[i], &one, 8) != 8) std::perror("kick");
    }

    // Posts interrupt buffer i (descriptor i of queue 1).
    void post_irq_buf(uint16_t i) {
        put_desc(kQ1Desc, i, gpa(kIrqBufs + 32 * i), kIrqBufLen, 2 /* WRITE */, 0);
        avail_add(kQ1Avail, kQ1Num, &q1_avail, i);
    }

    // One virtio_pcidev request on queue 0; reads get their data back.
    bool request(uint8_t op, uint8_t bar, uint64_t addr, uint32_t size, const void *data, uint32_t data_len,
                 std::vector<uint8_t> *out, std::string *err) {
        uint8_t *o = at(kReqOut);
        std::memset(o, 0, 16);
        o[0] = op;
        o[1] = bar;
        std::memcpy(o + 4, &size, 4);
        std::memcpy(o + 8, &addr, 8);
        if (data_len) std::memcpy(o + 16, data, data_len);
        const bool read = out != nullptr;
        put_desc(kQ0Desc, 0, gpa(kReqOut), 16 + data_len, read ? 1 : 0, 1);
        if (read) {
            std::memset(at(kReqIn), 0xee, size);
            put_desc(kQ0Desc, 1, gpa(kReqIn), size, 2, 0);
        }
        avail_add(kQ0Avail, kQ0Num, &q0_avail, 0);
        do_kick(0);
        const uint16_t want = uint16_t(q0_used_seen + 1);
        if (!pump([&] { return used_idx(kQ0Used) == want; }, 20, err)) return false;
        q0_used_seen = want;
        if (read) {
            uint32_t len;
            std::memcpy(&len, at(kQ0Used) + 4 + 8 * ((want - 1) % kQ0Num) + 4, 4);
            if (len != size) return *err = "used length " + std::to_string(len) + " for a read of " + std::to_string(size), false;
            out->assign(at(kReqIn), at(kReqIn) + size);
        }
        return true;
    }
    bool cfg_read(uint32_t off, uint32_t size, uint64_t *v, std::string *err) {
        std::vector<uint8_t> d;
        if (!request(PCIDEV_OP_CFG_READ, 0, off, size, nullptr, 0, &d, err)) return false;
        *v = 0;
        std::memcpy(v, d.data(), size);
        return true;
    }
    bool cfg_write(uint32_t off, uint32_t size, uint64_t v, std::string *err) {
        uint8_t d[8];
        std::memcpy(d, &v, 8);
        return request(PCIDEV_OP_CFG_WRITE, 0, off, size, d, 8, nullptr, err);
    }
    bool rd32(uint32_t off, uint32_t *v, std::string *err) {
        std::vector<uint8_t> d;
        if (!request(PCIDEV_OP_MMIO_READ, 0, off, 4, nullptr, 0, &d, err)) return false;
        *v = ld32(d.data());
        return true;
    }
    bool wr32(uint32_t off, uint32_t v, std::string *err) {
        return request(PCIDEV_OP_MMIO_WRITE, 0, off, 4, &v, 4, nullptr, err);
    }

    // The next message on the interrupt queue (waits up to max_rounds).
    bool next_irq(uint8_t *op, uint64_t *addr, uint32_t *data, unsigned max_rounds, std::string *err) {
        const uint16_t want = uint16_t(q1_used_seen + 1);
        if (!pump([&] { return uint16_t(used_idx(kQ1Used) - q1_used_seen) >= 1; }, max_rounds, err)) return false;
        uint32_t id, len;
        const uint8_t *e = at(kQ1Used) + 4 + 8 * ((want - 1) % kQ1Num);
        std::memcpy(&id, e, 4);
        std::memcpy(&len, e + 4, 4);
        q1_used_seen = want;
        if (id >= 10 || len != kIrqBufLen) return *err = "used entry id " + std::to_string(id) + " len " + std::to_string(len), false;
        const uint8_t *b = at(kIrqBufs + 32 * id);
        *op = b[0];
        std::memcpy(addr, b + 8, 8);
        *data = ld32(b + 16);
        return true;
    }
};

}  // namespace

int main() {
    UmlSimConfig cfg;
    cfg.nics = 1;
    cfg.fw_console = false;
#ifdef FROCE_UML_SIM_ALVEO
    cfg.make_nic = [](const froce_sim::NicConfig &nc) -> std::unique_ptr<froce_sim::NicModel> {
        return std::make_unique<froce_sim::AlveoNic>(nc);
    };
#endif
    int wire[2];   // the NIC's Ethernet port: [1] is the simulator's end
    if (::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0, wire) != 0) return 1;
    cfg.wire_fd = wire[1];
    UmlSim sim(cfg);
    froce_sim::Status s = sim.init();
    if (!s.ok()) {
        std::printf("FAIL init: %s\n", s.message().c_str());
        return 1;
    }
    UmlNic &un = sim.unic(0);
    FrontEnd fe(sim);
    std::string err;
    if (!fe.setup(&err)) {
        std::printf("FAIL setup: %s\n", err.c_str());
        return 1;
    }

    // ---- handshake ----
    {
        uint64_t f = 0, pf = 0, zero = 0;
        bool ok = fe.msg(VU_SET_OWNER, nullptr, 0, {}, false, false, nullptr, &err) &&
                  fe.get(VU_GET_FEATURES, &f, &err);
        ok = ok && f == (kVirtioFeatVersion1 | kVuFeatProtocol);
        ok = ok && fe.get(VU_GET_PROTOCOL_FEATURES, &pf, &err) && pf == 0x28;
        uint64_t want_pf = 0x28;
        // the front end only sets NEED_REPLY once REPLY_ACK is agreed: no ack for this one
        ok = ok && fe.msg(VU_SET_PROTOCOL_FEATURES, &want_pf, 8, {}, false, false, nullptr, &err) &&
             !fe.readable();
        int sp[2];
        ok = ok && ::socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0;
        fe.slave_peer = sp[0];
        ok = ok && fe.set(VU_SET_SLAVE_REQ_FD, &zero, 0, {sp[1]}, &err);
        ::close(sp[1]);
        uint64_t feat = kVirtioFeatVersion1 | kVuFeatProtocol;
        ok = ok && fe.set(VU_SET_FEATURES, &feat, 8, {}, &err);
        struct {
            uint32_t num, pad;
            uint64_t gpa, size, uva, off;
        } __attribute__((packed)) mt = {1, 0, kGpaBase, kMemSize, kUvaBase, 0};
        ok = ok && fe.set(VU_SET_MEM_TABLE, &mt, sizeof mt, {fe.memfd}, &err);
        ok = ok && fe.vring_setup(0, kQ0Num, kQ0Desc, kQ0Avail, kQ0Used, &err) &&
             fe.vring_setup(1, kQ1Num, kQ1Desc, kQ1Avail, kQ1Used, &err);
        for (uint16_t i = 0; i < 10; i++) fe.post_irq_buf(i);
        fe.do_kick(1);
        ok = ok && un.vu().protocol_features() == 0x28 && un.vu().mem().regions().size() == 1;
        result(ok, "handshake", "%s (features %#" PRIx64 ", protocol features %#" PRIx64 ")", err.c_str(), f, pf);
        if (!ok) return 1;
    }

    // ---- config space ----
    {
        uint64_t v = 0;
        bool ok = true;
        std::string why;
        auto expect = [&](uint32_t off, uint32_t size, uint64_t want, const char *what) {
            if (!ok) return;
            if (!fe.cfg_read(off, size, &v, &err)) {
                ok = false;
                why = err;
            } else if (v != want) {
                ok = false;
                char b[160];
                std::snprintf(b, sizeof b, "%s (cfg %#x/%u) = %#" PRIx64 ", want %#" PRIx64, what, off, size, v, want);
                why = b;
            }
        };
        expect(0x00, 4, uint32_t(FROCE_PCI_DEVICE_ID) << 16 | FROCE_PCI_VENDOR_ID, "vendor/device");
        expect(0x08, 4, uint32_t(FROCE_PCI_CLASS_CODE) << 8 | FROCE_PCI_REVISION, "class/revision");
        expect(0x0e, 1, 0, "header type");
        expect(0x06, 2, 0x0010, "status");
        expect(0x34, 1, kMsixCapOffset, "capability pointer");
        expect(kMsixCapOffset, 2, 0x0011, "MSI-X capability id, next");
        expect(kMsixCapOffset + 2, 2, un.num_vectors() - 1, "MSI-X table size");
        expect(kMsixCapOffset + 4, 4, FROCE_BAR0_MSIX_TABLE_BASE | 0, "MSI-X table offset/BIR");
        expect(kMsixCapOffset + 8, 4, FROCE_BAR0_MSIX_PBA_BASE | 0, "MSI-X PBA offset/BIR");
        expect(0x10, 4, 0x4, "BAR0 flags (64-bit memory)");
        // sizing
        for (uint32_t off = 0x10; off <= 0x24; off += 4)
            if (ok && !fe.cfg_write(off, 4, 0xffffffff, &err)) ok = false, why = err;
        uint32_t bar2 = 1;
        while (bar2 < (un.num_uar_pages() << FROCE_UAR_PAGE_SHIFT)) bar2 <<= 1;
        expect(0x10, 4, (~uint32_t(FROCE_BAR0_SIZE - 1) & ~0xfu) | 0x4, "BAR0 sized");
        expect(0x14, 4, 0xffffffff, "BAR0 high sized");
        expect(0x18, 4, (~(bar2 - 1) & ~0xfu) | 0x4, "BAR2 sized");
        expect(0x1c, 4, 0xffffffff, "BAR2 high sized");
        expect(0x20, 4, 0, "BAR4 (none)");
        expect(0x24, 4, 0, "BAR5 (none)");
        if (ok) ok = fe.cfg_write(0x10, 4, 0xf0100000, &err) && fe.cfg_write(0x14, 4, 0, &err);
        expect(0x10, 4, 0xf0100004, "BAR0 assigned");
        expect(0x00, 2, FROCE_PCI_VENDOR_ID, "vendor after a write");
        if (ok) ok = fe.cfg_write(0x00, 4, 0, &err);   // read-only
        expect(0x00, 2, FROCE_PCI_VENDOR_ID, "vendor after a write");
        if (ok) ok = fe.cfg_write(0x04, 2, 0x0006, &err);
        expect(0x04, 2, 0x0006, "command (MEM | MASTER)");
        if (ok) ok = fe.cfg_write(kMsixCapOffset + 2, 2, 0x8000 | 0x7ff, &err);
        expect(kMsixCapOffset + 2, 2, 0x8000 | (un.num_vectors() - 1), "MSI-X enabled, table size kept");
        result(ok && un.config().msix_enabled(), "config-space", "%s", why.empty() ? err.c_str() : why.c_str());
    }

    // ---- BAR0 through the model; platform registers ----
    {
        uint32_t id = 0, caps = 0, lo = 0, hi = 0, uar = 0;
        bool ok = fe.rd32(FROCE_REG_ID, &id, &err) && fe.rd32(FROCE_REG_CAPS, &caps, &err) &&
                  fe.rd32(FROCE_REG_MAC_LO, &lo, &err) && fe.rd32(FROCE_REG_MAC_HI, &hi, &err) &&
                  fe.rd32(FROCE_REG_UAR_INFO, &uar, &err);
        ok = ok && id == (uint32_t(FROCE_PCI_DEVICE_ID) << 16 | FROCE_PCI_VENDOR_ID) &&
             (caps & FROCE_REG_CAPS_UAR_SHADOW_MASK) && lo == 0x00000001 && hi == 0x0200 &&
             (uar & FROCE_REG_UAR_INFO_NUM_PAGES_MASK) == un.num_uar_pages();
        result(ok, "bar0-read", "%s ID %#x CAPS %#x MAC %#x:%#x UAR_INFO %#x", err.c_str(), id, caps, hi, lo, uar);
        // an 8-byte read gives two registers; SCRATCH reads back
        std::vector<uint8_t> d;
        uint32_t sc = 0;
        ok = fe.wr32(FROCE_REG_SCRATCH, 0x5a5aa5a5, &err) && fe.rd32(FROCE_REG_SCRATCH, &sc, &err) &&
             fe.request(PCIDEV_OP_MMIO_READ, 0, FROCE_REG_ID, 8, nullptr, 0, &d, &err);
        ok = ok && sc == 0x5a5aa5a5 && ld32(d.data()) == id && ld32(d.data() + 4) != 0;
        result(ok, "bar0-scratch-and-8-byte-read", "%s SCRATCH %#x", err.c_str(), sc);
    }

    // ---- firmware ready, EQ 0, QUERY_FW by the mailbox: DMA into the memfd, MSI ----
    {
        uint32_t st = 0;
        bool ok = true;
        const uint64_t t0 = sim.cycle();
        while (ok) {
            ok = fe.rd32(FROCE_REG_DEV_STATUS, &st, &err);
            if (!ok || (st & FROCE_REG_DEV_STATUS_READY_MASK)) break;
            if (sim.cycle() - t0 > 6000000) {
                ok = false;
                err = "DEV_STATUS.READY not set after 6M cycles";
                break;
            }
            for (int i = 0; i < 40; i++) {
                bool gone;
                (void)sim.round(&gone);
            }
        }
        result(ok, "firmware-ready", "%s (DEV_STATUS %#x)", err.c_str(), st);
        if (!ok) return 1;

        // MSI-X table entry 0 as Linux writes it: address 0xa0000, data = irq number
        ok = fe.wr32(FROCE_BAR0_MSIX_TABLE_BASE + 0, 0xa0000, &err) && fe.wr32(FROCE_BAR0_MSIX_TABLE_BASE + 4, 0, &err) &&
             fe.wr32(FROCE_BAR0_MSIX_TABLE_BASE + 8, kMsiData, &err) &&
             fe.wr32(FROCE_BAR0_MSIX_TABLE_BASE + 12, 0, &err);
        // EQ 0 (64 EQEs) armed
        ok = ok && fe.wr32(FROCE_REG_EQ0_CFG, 0, &err) &&
             fe.wr32(FROCE_REG_EQ0_ADDR_LO, uint32_t(FrontEnd::gpa(kEqRing)), &err) &&
             fe.wr32(FROCE_REG_EQ0_ADDR_HI, uint32_t(FrontEnd::gpa(kEqRing) >> 32), &err) &&
             fe.wr32(FROCE_REG_EQ0_CFG, 6u | FROCE_REG_EQ0_CFG_ENABLE_MASK, &err) &&
             fe.wr32(FROCE_REG_EQ_DOORBELL, FROCE_REG_EQ_DOORBELL_ARM_MASK, &err);
        // QUERY_FW block
        uint32_t in_len = 0, out_len = 0;
        froce_sim::cmd_sizes(FROCE_CMD_QUERY_FW, &in_len, &out_len);
        uint8_t *blk = fe.at(kCmdBlock);
        std::memset(blk, 0, 4096);
        const uint16_t token = 0x1234;
        st32(blk + 0, FROCE_CMD_QUERY_FW | uint32_t(token) << FROCE_MBOX_HDR_TOKEN_SHIFT);
        st32(blk + 4, in_len | out_len << FROCE_MBOX_HDR_OUT_LEN_SHIFT);
        ok = ok && fe.wr32(FROCE_REG_CMD_ADDR_LO, uint32_t(FrontEnd::gpa(kCmdBlock)), &err) &&
             fe.wr32(FROCE_REG_CMD_ADDR_HI, 0, &err) &&
             fe.wr32(FROCE_REG_CMD_DOORBELL, token | FROCE_REG_CMD_DOORBELL_EVENT_MASK, &err);
        const uint64_t c0 = sim.cycle();
        ok = ok && fe.pump([&] { return (__atomic_load_n(reinterpret_cast<uint32_t *>(blk + 12), __ATOMIC_ACQUIRE) &
                                         FROCE_MBOX_HDR_DONE_MASK) != 0; },
                           20000, &err);
        const uint32_t status = ld32(blk + 12) & FROCE_MBOX_HDR_STATUS_MASK;
        const uint32_t hash = ld32(blk + FROCE_MBOX_OUT_OFF + 4 * FROCE_CMD_QUERY_FW_OUT_SPEC_HASH_DW);
        ok = ok && status == 0 && hash == FROCE_HW_SPEC_HASH;
        result(ok, "dma-query-fw", "%s (status %u, spec hash %#x, %" PRIu64 " cycles)", err.c_str(), status, hash,
               sim.cycle() - c0);
        // the CMD_DONE EQE and its MSI
        uint8_t op = 0;
        uint64_t addr = 0;
        uint32_t data = 0;
        bool ok2 = ok && fe.next_irq(&op, &addr, &data, 2000, &err);
        ok2 = ok2 && op == PCIDEV_OP_MSI && addr == 0xa0000 && data == kMsiData;
        const uint32_t eqe_dw3 = ld32(fe.at(kEqRing) + 12);
        result(ok2 && eqe_dw3 != 0, "msi-eq0", "%s (op %u addr %#" PRIx64 " data %u, EQE dw3 %#x)", err.c_str(), op,
               addr, data, eqe_dw3);
    }

    // ---- MSIs beyond the free interrupt buffers wait, none is dropped ----
    {
        const unsigned free_bufs = 9;   // 10 posted, one used above
        const uint64_t sent0 = un.stats().msi_sent;
        // vector 0's message as the guest programmed it (a board's model sends the message it got)
        for (int i = 0; i < 12; i++) un.queue_msi(froce_sim::MsixMessage{0, 0xa0000, kMsiData});
        bool ok = fe.pump([&] { return un.stats().msi_sent - sent0 == free_bufs; }, 50, &err);
        // stays there
        for (int i = 0; i < 20; i++) {
            bool gone;
            (void)sim.round(&gone);
        }
        ok = ok && un.stats().msi_sent - sent0 == free_bufs && un.msi_backlog() == 3;
        // the guest recycles three buffers
        for (uint16_t i = 0; i < 3; i++) {
            uint8_t op;
            uint64_t a;
            uint32_t d;
            ok = ok && fe.next_irq(&op, &a, &d, 1, &err);
        }
        uint16_t first = 0;
        for (uint16_t i = 0; i < 3; i++) fe.post_irq_buf(uint16_t(first + i));
        fe.do_kick(1);
        ok = ok && fe.pump([&] { return un.msi_backlog() == 0; }, 50, &err) &&
             un.stats().msi_sent - sent0 == 12;
        result(ok, "msi-backlog", "%s (sent %" PRIu64 ", backlog %zu)", err.c_str(), un.stats().msi_sent - sent0,
               un.msi_backlog());
    }

    // ---- the capability's Function Mask holds an interrupt; clearing it sends
    // it. The bare core's requests wait in UmlNic; a board's emitter (its
    // msix_func_mask input follows the config space) keeps the vector's PBA
    // bit and writes the message on unmask ----
    {
        uint8_t op = 0;
        uint64_t a = 0;
        uint32_t d = 0;
        bool ok = true;
        while (ok && fe.used_idx(kQ1Used) != fe.q1_used_seen) ok = fe.next_irq(&op, &a, &d, 1, &err);
        for (uint16_t i = 0; i < 3; i++) fe.post_irq_buf(i);
        fe.do_kick(1);
        const bool board = un.nic().sends_msix_messages();
        const uint64_t sent0 = un.stats().msi_sent;
        ok = ok && fe.cfg_write(kMsixCapOffset + 2, 2, 0xc000, &err) && un.config().msix_function_masked();
        // EQ 0 armed again past the EQE read above, then a command with its completion event
        uint8_t *blk = fe.at(kCmdBlock);
        uint32_t in_len = 0, out_len = 0;
        froce_sim::cmd_sizes(FROCE_CMD_QUERY_FW, &in_len, &out_len);
        std::memset(blk, 0, 64);
        const uint16_t token = 0x2345;
        st32(blk + 0, FROCE_CMD_QUERY_FW | uint32_t(token) << FROCE_MBOX_HDR_TOKEN_SHIFT);
        st32(blk + 4, in_len | out_len << FROCE_MBOX_HDR_OUT_LEN_SHIFT);
        ok = ok && fe.wr32(FROCE_REG_EQ_DOORBELL, FROCE_REG_EQ_DOORBELL_ARM_MASK | 1, &err) &&
             fe.wr32(FROCE_REG_CMD_ADDR_LO, uint32_t(FrontEnd::gpa(kCmdBlock)), &err) &&
             fe.wr32(FROCE_REG_CMD_DOORBELL, token | FROCE_REG_CMD_DOORBELL_EVENT_MASK, &err);
        ok = ok && fe.pump([&] { return (__atomic_load_n(reinterpret_cast<uint32_t *>(blk + 12), __ATOMIC_ACQUIRE) &
                                         FROCE_MBOX_HDR_DONE_MASK) != 0; },
                           20000, &err);
        for (int i = 0; ok && i < 200; i++) {
            bool gone;
            (void)sim.round(&gone);
        }
        uint32_t pba = 0;
        ok = ok && fe.rd32(FROCE_BAR0_MSIX_PBA_BASE, &pba, &err);
        const bool held = un.stats().msi_sent == sent0 && (!board || (pba & 1));
        ok = ok && held && fe.cfg_write(kMsixCapOffset + 2, 2, 0x8000, &err) && fe.next_irq(&op, &a, &d, 2000, &err) &&
             op == PCIDEV_OP_MSI && a == 0xa0000 && d == kMsiData && un.stats().msi_sent == sent0 + 1;
        uint32_t pba_after = 0;
        ok = ok && fe.rd32(FROCE_BAR0_MSIX_PBA_BASE, &pba_after, &err) && (pba_after & 1) == 0;
        result(ok, "msi-function-mask", "%s (held %d, PBA %#x then %#x, sent %" PRIu64 ", message %#" PRIx64 "/%u)",
               err.c_str(), int(held), pba, pba_after, un.stats().msi_sent - sent0, a, d);
    }

    // ---- shadow UAR and BAR2 doorbells reach the model ----
    {
        froce_sim::NicModel &nic = un.nic();
        const uint64_t db0 = nic.stats().doorbells;
        bool ok = fe.wr32(FROCE_REG_UAR_SHADOW_INDEX, 3, &err) &&
                  fe.wr32(FROCE_REG_UAR_SHADOW_ADDR_LO, uint32_t(FrontEnd::gpa(kShadowPage)), &err) &&
                  fe.wr32(FROCE_REG_UAR_SHADOW_ADDR_HI, 0, &err);
        uint32_t idx = 0;
        ok = ok && fe.rd32(FROCE_REG_UAR_SHADOW_INDEX, &idx, &err) && idx == 3;
        // a doorbell value in slot 5 (a CQ of no context: the core drops it, but answers the write)
        uint64_t *slot = reinterpret_cast<uint64_t *>(fe.at(kShadowPage)) + 5;
        __atomic_store_n(slot, 0x0000000500000002ull, __ATOMIC_RELEASE);
        ok = ok && fe.pump([&] { return nic.stats().doorbells == db0 + 1; }, 50, &err);
        const bool one = un.stats().shadow_doorbells == 1;
        // unchanged slot: nothing more
        for (int i = 0; i < 10; i++) {
            bool gone;
            (void)sim.round(&gone);
        }
        ok = ok && one && nic.stats().doorbells == db0 + 1;
        result(ok, "shadow-uar-doorbell", "%s (doorbells %" PRIu64 ", shadow %" PRIu64 ")", err.c_str(),
               nic.stats().doorbells - db0, un.stats().shadow_doorbells);
        // unbind: later changes are ignored
        ok = fe.wr32(FROCE_REG_UAR_SHADOW_ADDR_LO, 0, &err) && fe.wr32(FROCE_REG_UAR_SHADOW_ADDR_HI, 0, &err);
        __atomic_store_n(slot, 0x0000000600000002ull, __ATOMIC_RELEASE);
        for (int i = 0; i < 10; i++) {
            bool gone;
            (void)sim.round(&gone);
        }
        ok = ok && nic.stats().doorbells == db0 + 1;
        // BAR2: page 1 slot 7, one 64-bit write
        uint64_t v = 0x0000000700000002ull;
        ok = ok && fe.request(PCIDEV_OP_MMIO_WRITE, 2, (1u << FROCE_UAR_PAGE_SHIFT) + 7 * 8, 8, &v, 8, nullptr, &err) &&
             fe.pump([&] { return nic.stats().doorbells == db0 + 2; }, 50, &err) && un.stats().bar2_doorbells == 1;
        result(ok, "unbind-and-bar2-doorbell", "%s (doorbells %" PRIu64 ")", err.c_str(), nic.stats().doorbells - db0);
    }

    // ---- memset_io as 6.1 sends it (CFG_WRITE with one data byte) reaches BAR0 ----
    {
        uint8_t b = 0x11;
        uint32_t sc = 0;
        bool ok = fe.request(PCIDEV_OP_CFG_WRITE, 0, FROCE_REG_SCRATCH, 4, &b, 1, nullptr, &err) &&
                  fe.rd32(FROCE_REG_SCRATCH, &sc, &err) && sc == 0x11111111;
        uint64_t vend = 0;
        ok = ok && fe.cfg_read(0, 2, &vend, &err) && vend == FROCE_PCI_VENDOR_ID;
        // as 6.1 really sends it: the 24-byte message of a config write, bar
        // 2, size = length: 16 bytes of BAR2 = two doorbells
        froce_sim::NicModel &nic = un.nic();
        const uint64_t db0 = nic.stats().doorbells;
        uint8_t padded[8] = {0x11, 0, 0, 0, 0, 0, 0, 0};
        ok = ok && fe.request(PCIDEV_OP_CFG_WRITE, 2, (1u << FROCE_UAR_PAGE_SHIFT) + 8 * 8, 16, padded, 8, nullptr,
                              &err) &&
             fe.pump([&] { return nic.stats().doorbells == db0 + 2; }, 50, &err);
        ok = ok && fe.cfg_read(0, 2, &vend, &err) && vend == FROCE_PCI_VENDOR_ID;
        result(ok, "memset-quirk", "%s (SCRATCH %#x, doorbells %" PRIu64 ")", err.c_str(), sc,
               nic.stats().doorbells - db0);
    }

    // ---- DMA outside the memory table: DECERR, counted, no crash ----
    {
        uint8_t *blk = fe.at(kCmdBlock);
        uint32_t in_len = 0, out_len = 0;
        froce_sim::cmd_sizes(FROCE_CMD_QUERY_FW, &in_len, &out_len);
        std::memset(blk, 0, 64);
        const uint64_t outside = kGpaBase + kMemSize + 0x100000;   // 4 KiB aligned, beyond the region
        bool ok = fe.wr32(FROCE_REG_CMD_ADDR_LO, uint32_t(outside), &err) && fe.wr32(FROCE_REG_CMD_ADDR_HI, 0, &err) &&
                  fe.wr32(FROCE_REG_CMD_DOORBELL, 0x77, &err) &&
                  fe.pump([&] { return un.stats().dma_errors > 0; }, 20000, &err);
        result(ok, "dma-outside-decerr", "%s (dma errors %" PRIu64 ")", err.c_str(), un.stats().dma_errors);
    }

    // ---- a frame from the wire fd (one datagram, no FCS) reaches the NIC's Ethernet RX ----
    {
        froce_sim::NicModel &nic = un.nic();
        const uint64_t rx0 = nic.stats().rx_frames;
        std::vector<uint8_t> arp(42, 0);
        std::memset(arp.data(), 0xff, 6);                              // broadcast
        const uint8_t src[6] = {0x02, 0, 0, 0, 0, 0x99};
        std::memcpy(arp.data() + 6, src, 6);
        arp[12] = 0x08;
        arp[13] = 0x06;                                                 // ARP
        bool ok = ::send(wire[0], arp.data(), arp.size(), 0) == ssize_t(arp.size()) &&
                  fe.pump([&] { return nic.stats().rx_frames == rx0 + 1; }, 200, &err);
        ok = ok && sim.frames_from_wire() == 1 && nic.stats().rx_bytes >= arp.size();
        result(ok, "wire-fd-rx", "%s (frames from the fd %" PRIu64 ", NIC rx %" PRIu64 ")", err.c_str(),
               sim.frames_from_wire(), nic.stats().rx_frames - rx0);
    }

    // ---- malformed messages are refused with an error ----
    {
        struct Case {
            const char *what;
            std::vector<uint8_t> bytes;
        };
        auto hdr = [](uint32_t req, uint32_t flags, uint32_t size, std::vector<uint8_t> payload) {
            std::vector<uint8_t> m(12 + payload.size());
            std::memcpy(&m[0], &req, 4);
            std::memcpy(&m[4], &flags, 4);
            std::memcpy(&m[8], &size, 4);
            for (size_t i = 0; i < payload.size(); i++) m[12 + i] = payload[i];
            return m;
        };
        std::vector<Case> cases = {
            {"bad version", hdr(VU_SET_OWNER, 2, 0, {})},
            {"payload too large", hdr(VU_SET_FEATURES, 1, 100000, {})},
            {"short payload", hdr(VU_SET_FEATURES, 1, 4, {0, 0, 0, 0})},
            {"vring index 7", hdr(VU_SET_VRING_NUM, 1, 8, {7, 0, 0, 0, 64, 0, 0, 0})},
            {"vring size 3", hdr(VU_SET_VRING_NUM, 1, 8, {0, 0, 0, 0, 3, 0, 0, 0})},
            {"mem table without fds", hdr(VU_SET_MEM_TABLE, 1, 40, std::vector<uint8_t>(40, 0))},
            {"unknown request", hdr(99, 1, 0, {})},
        };
        bool all = true;
        std::string why;
        for (const Case &c : cases) {
            int sv[2];
            if (::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return 1;
            VhostUserDevice d("test");
            d.adopt(sv[1]);
            if (::write(sv[0], c.bytes.data(), c.bytes.size()) != ssize_t(c.bytes.size())) return 1;
            bool closed = false;
            froce_sim::Status r = d.handle_message(&closed);
            if (r.ok()) {
                all = false;
                why += std::string(" '") + c.what + "' accepted;";
            }
            ::close(sv[0]);
        }
        // a malformed command-queue chain ends the round with an error
        fe.put_desc(kQ0Desc, 0, FrontEnd::gpa(kReqOut), 8, 0, 0);   // shorter than the header
        fe.avail_add(kQ0Avail, kQ0Num, &fe.q0_avail, 0);
        bool gone = false;
        froce_sim::Status r = sim.round(&gone);
        if (r.ok()) {
            all = false;
            why += " short request accepted;";
        }
        result(all, "malformed-refused", "%s", why.c_str());
    }

    // ---- no AXI protocol violation on the DMA port over the whole run; on the
    // board every emitter message was taken as an interrupt, no BAR
    // transaction came back with a wrong ID, the PCS found block lock ----
    {
        bool ok = un.stats().dma_violations == 0;
        std::string what = "dma protocol violations " + std::to_string(un.stats().dma_violations);
#ifdef FROCE_UML_SIM_ALVEO
        const auto *board = dynamic_cast<const froce_sim::AlveoNic *>(&un.nic());
        ok = ok && board;
        if (board) {
            const froce_sim::AlveoStats &b = board->board_stats();
            ok = ok && b.bar_protocol_errors == 0 && b.msi_errors == 0 && b.stray_emitter_writes == 0 &&
                 b.msi_writes == b.emitter_sent && b.emitter_sent == b.core_msix_requests && b.msi_writes >= 2 &&
                 b.link_up_cycle != 0;
            what += "; " + board->extra_stats();
        }
#endif
        result(ok, "dma-and-board-clean", "%s", what.c_str());
    }

    // ---- the front end goes away ----
    {
        ::close(fe.sock);
        bool ok = fe.pump([&] { return !un.vu().connected(); }, 10, &err);
        result(ok && un.vu().mem().regions().empty(), "disconnect", "%s", err.c_str());
    }

    std::printf("%s\n", sim.stats_line().c_str());
    std::printf("%s\n", g_fail ? "FAIL transport" : "ok transport");
    return g_fail ? 1 : 0;
}
