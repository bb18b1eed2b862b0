// SPDX-License-Identifier: MIT
// vhost-user device side; see vhost_user.h.
#include "vhost_user.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace froce_vhost {

namespace {

constexpr uint16_t kDescNext = 1, kDescWrite = 2, kDescIndirect = 4;

void close_fds(std::vector<int> &fds) {
    for (int fd : fds)
        if (fd >= 0) ::close(fd);
    fds.clear();
}

Status read_full(int fd, void *buf, size_t n) {
    uint8_t *p = static_cast<uint8_t *>(buf);
    while (n) {
        ssize_t r = ::read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return errorf("read: %s", std::strerror(errno));
        if (r == 0) return errorf("connection closed in the middle of a message");
        p += r;
        n -= size_t(r);
    }
    return Status();
}

}  // namespace

const char *vu_request_name(uint32_t r) {
    switch (r) {
    case VU_GET_FEATURES: return "GET_FEATURES";
    case VU_SET_FEATURES: return "SET_FEATURES";
    case VU_SET_OWNER: return "SET_OWNER";
    case VU_RESET_OWNER: return "RESET_OWNER";
    case VU_SET_MEM_TABLE: return "SET_MEM_TABLE";
    case VU_SET_LOG_BASE: return "SET_LOG_BASE";
    case VU_SET_LOG_FD: return "SET_LOG_FD";
    case VU_SET_VRING_NUM: return "SET_VRING_NUM";
    case VU_SET_VRING_ADDR: return "SET_VRING_ADDR";
    case VU_SET_VRING_BASE: return "SET_VRING_BASE";
    case VU_GET_VRING_BASE: return "GET_VRING_BASE";
    case VU_SET_VRING_KICK: return "SET_VRING_KICK";
    case VU_SET_VRING_CALL: return "SET_VRING_CALL";
    case VU_SET_VRING_ERR: return "SET_VRING_ERR";
    case VU_GET_PROTOCOL_FEATURES: return "GET_PROTOCOL_FEATURES";
    case VU_SET_PROTOCOL_FEATURES: return "SET_PROTOCOL_FEATURES";
    case VU_GET_QUEUE_NUM: return "GET_QUEUE_NUM";
    case VU_SET_VRING_ENABLE: return "SET_VRING_ENABLE";
    case VU_SET_SLAVE_REQ_FD: return "SET_SLAVE_REQ_FD";
    case VU_GET_CONFIG: return "GET_CONFIG";
    case VU_SET_CONFIG: return "SET_CONFIG";
    case VU_VRING_KICK: return "VRING_KICK";
    default: return "unknown request";
    }
}

// ---- GuestMemory ----------------------------------------------------------------

Status GuestMemory::add(int fd, uint64_t gpa, uint64_t size, uint64_t uva, uint64_t mmap_offset) {
    if (size == 0) return errorf("memory region of size 0");
    if (gpa + size < gpa || uva + size < uva || mmap_offset + size < mmap_offset)
        return errorf("memory region gpa %#" PRIx64 " size %#" PRIx64 " wraps", gpa, size);
    for (const GuestRegion &r : regions_)
        if (gpa < r.gpa + r.size && r.gpa < gpa + size)
            return errorf("memory region gpa %#" PRIx64 " size %#" PRIx64 " overlaps another", gpa, size);
    const size_t len = size_t(mmap_offset + size);
    void *m = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return errorf("mmap of memory region (%#zx bytes, gpa %#" PRIx64 "): %s", len, gpa, std::strerror(errno));
    GuestRegion r;
    r.gpa = gpa;
    r.size = size;
    r.uva = uva;
    r.map = m;
    r.map_len = len;
    r.ptr = static_cast<uint8_t *>(m) + mmap_offset;
    regions_.push_back(r);
    return Status();
}

void GuestMemory::clear() {
    for (GuestRegion &r : regions_) ::munmap(r.map, r.map_len);
    regions_.clear();
}

// ---- Chain / Vring ------------------------------------------------------------------

uint32_t Chain::write(const void *data, uint32_t n) {
    const uint8_t *s = static_cast<const uint8_t *>(data);
    uint32_t done = 0;
    for (const Seg &seg : in) {
        if (done >= n) break;
        uint32_t l = std::min(seg.len, n - done);
        std::memcpy(seg.p, s + done, l);
        done += l;
    }
    return done;
}

Status Vring::resolve(const GuestMemory &m) {
    desc_ = nullptr;
    avail_ = nullptr;
    used_ = nullptr;
    if (!addr_set || num == 0) return Status();
    uint8_t *d = m.uva(desc_uva, uint64_t(num) * 16);
    uint8_t *a = m.uva(avail_uva, 4 + uint64_t(num) * 2);
    uint8_t *u = m.uva(used_uva, 4 + uint64_t(num) * 8);
    if (!d || !a || !u)
        return errorf("vring addresses desc %#" PRIx64 " avail %#" PRIx64 " used %#" PRIx64
                      " (num %u) not inside the memory table",
                      desc_uva, avail_uva, used_uva, num);
    if ((desc_uva & 15) || (avail_uva & 1) || (used_uva & 3))
        return errorf("vring addresses desc %#" PRIx64 " avail %#" PRIx64 " used %#" PRIx64 " misaligned",
                      desc_uva, avail_uva, used_uva);
    desc_ = reinterpret_cast<Desc *>(d);
    avail_ = reinterpret_cast<uint16_t *>(a);
    used_ = u;
    return Status();
}

unsigned Vring::pending() const {
    if (!ready()) return 0;
    uint16_t idx = __atomic_load_n(&avail_[1], __ATOMIC_ACQUIRE);
    return uint16_t(idx - last_avail);
}

int Vring::pop(const GuestMemory &m, Chain *c, std::string *err) {
    if (!ready()) return 0;
    uint16_t idx = __atomic_load_n(&avail_[1], __ATOMIC_ACQUIRE);
    if (idx == last_avail) return 0;
    if (uint16_t(idx - last_avail) > num) {
        *err = "available index " + std::to_string(idx) + " runs more than the ring size ahead of " +
               std::to_string(last_avail);
        return -1;
    }
    const uint16_t head = __atomic_load_n(&avail_[2 + last_avail % num], __ATOMIC_RELAXED);
    last_avail++;
    c->head = head;
    c->out.clear();
    c->in.clear();
    c->in_len = 0;
    if (head >= num) {
        *err = "descriptor head " + std::to_string(head) + " beyond the ring size " + std::to_string(num);
        return -1;
    }
    uint16_t i = head;
    for (uint32_t n = 0;; n++) {
        if (n >= num) {
            *err = "descriptor chain longer than the ring (a loop?)";
            return -1;
        }
        Desc d;
        std::memcpy(&d, &desc_[i], sizeof d);
        if (d.flags & kDescIndirect) {
            *err = "indirect descriptor (not negotiated)";
            return -1;
        }
        uint8_t *p = d.len ? m.gpa(d.addr, d.len) : nullptr;
        if (d.len && !p) {
            char b[128];
            std::snprintf(b, sizeof b, "descriptor %u: buffer %#" PRIx64 "+%u outside the memory table", i, d.addr,
                          d.len);
            *err = b;
            return -1;
        }
        if (d.flags & kDescWrite) {
            if (d.len) c->in.push_back({p, d.len});
            c->in_len += d.len;
        } else {
            if (!c->in.empty()) {
                *err = "device-readable descriptor after a writable one";
                return -1;
            }
            if (c->out.size() + d.len > 65536) {
                *err = "device-readable part of a chain larger than 64 KiB";
                return -1;
            }
            c->out.insert(c->out.end(), p, p + d.len);
        }
        if (!(d.flags & kDescNext)) break;
        if (d.next >= num) {
            *err = "descriptor next " + std::to_string(d.next) + " beyond the ring size";
            return -1;
        }
        i = d.next;
    }
    return 1;
}

void Vring::push(uint16_t head, uint32_t len) {
    if (!used_) return;
    uint8_t *e = used_ + 4 + size_t(used_idx % num) * 8;
    uint32_t id = head;
    std::memcpy(e, &id, 4);
    std::memcpy(e + 4, &len, 4);
    used_idx++;
    __atomic_store_n(reinterpret_cast<uint16_t *>(used_ + 2), used_idx, __ATOMIC_RELEASE);
}

void Vring::notify() {
    if (call_fd < 0) return;
    uint64_t one = 1;
    ssize_t r;
    do {
        r = ::write(call_fd, &one, sizeof one);
    } while (r < 0 && errno == EINTR);
}

void Vring::drain_kick() {
    if (kick_fd < 0) return;
    uint64_t v;
    ssize_t r;
    do {
        r = ::read(kick_fd, &v, sizeof v);
    } while (r < 0 && errno == EINTR);
}

void Vring::reset() {
    if (kick_fd >= 0) ::close(kick_fd);
    if (call_fd >= 0) ::close(call_fd);
    *this = Vring();
}

// ---- VhostUserDevice ----------------------------------------------------------------

VhostUserDevice::~VhostUserDevice() {
    disconnect();
    if (listen_fd_ >= 0) {
        ::close(listen_fd_);
        ::unlink(path_.c_str());
    }
}

Status VhostUserDevice::listen(const std::string &path) {
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    if (path.empty() || path.size() >= sizeof sa.sun_path)
        return errorf("socket path '%s': empty or longer than %zu bytes", path.c_str(), sizeof sa.sun_path - 1);
    std::memcpy(sa.sun_path, path.c_str(), path.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errorf("socket: %s", std::strerror(errno));
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
        Status s = errorf("remove stale %s: %s", path.c_str(), std::strerror(errno));
        ::close(fd);
        return s;
    }
    if (::bind(fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) != 0 || ::listen(fd, 1) != 0) {
        Status s = errorf("bind/listen %s: %s", path.c_str(), std::strerror(errno));
        ::close(fd);
        return s;
    }
    listen_fd_ = fd;
    path_ = path;
    return Status();
}

Status VhostUserDevice::accept_one() {
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) return errorf("accept: %s", std::strerror(errno));
    if (connected()) {
        ::close(fd);
        return errorf("a second front end connected while one is attached");
    }
    adopt(fd);
    return Status();
}

void VhostUserDevice::adopt(int fd) {
    disconnect();
    conn_fd_ = fd;
}

void VhostUserDevice::disconnect() {
    if (conn_fd_ >= 0) ::close(conn_fd_);
    conn_fd_ = -1;
    if (slave_fd_ >= 0) ::close(slave_fd_);
    slave_fd_ = -1;
    for (Vring &v : vrings_) v.reset();
    mem_.clear();
    features_ = proto_ = 0;
    mem_changed = true;
}

Status VhostUserDevice::reply(uint32_t req, const void *payload, uint32_t size) {
    uint8_t buf[kVuHeaderSize + 64];
    if (size > 64) return errorf("reply too large");
    uint32_t h[3] = {req, kVuVersion | kVuFlagReply, size};
    std::memcpy(buf, h, kVuHeaderSize);
    std::memcpy(buf + kVuHeaderSize, payload, size);
    size_t n = kVuHeaderSize + size, off = 0;
    while (off < n) {
        ssize_t r = ::send(conn_fd_, buf + off, n - off, MSG_NOSIGNAL);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return errorf("send reply to %s: %s", vu_request_name(req), std::strerror(errno));
        off += size_t(r);
    }
    return Status();
}

Status VhostUserDevice::handle_message(bool *closed) {
    *closed = false;
    uint8_t hdr[kVuHeaderSize];
    alignas(8) uint8_t payload[kVuMaxPayload];
    std::vector<int> fds;
    iovec iov{hdr, sizeof hdr};
    alignas(cmsghdr) char cbuf[CMSG_SPACE(kVuMaxFds * sizeof(int))];
    msghdr mh{};
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    mh.msg_control = cbuf;
    mh.msg_controllen = sizeof cbuf;
    ssize_t r;
    do {
        r = ::recvmsg(conn_fd_, &mh, MSG_CMSG_CLOEXEC);
    } while (r < 0 && errno == EINTR);
    if (r == 0 || (r < 0 && (errno == ECONNRESET || errno == EPIPE))) {
        disconnect();
        *closed = true;
        return Status();
    }
    if (r < 0) return errorf("recvmsg: %s", std::strerror(errno));
    for (cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < n; i++) {
                int fd;
                std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                fds.push_back(fd);
            }
        }
    }
    if (mh.msg_flags & MSG_CTRUNC) {
        close_fds(fds);
        return errorf("message with more than %u file descriptors", kVuMaxFds);
    }
    if (size_t(r) < sizeof hdr) {
        Status s = read_full(conn_fd_, hdr + r, sizeof hdr - size_t(r));
        if (!s.ok()) {
            close_fds(fds);
            return s.context("message header");
        }
    }
    uint32_t req = ld32(hdr), flags = ld32(hdr + 4), size = ld32(hdr + 8);
    if ((flags & 3) != kVuVersion) {
        close_fds(fds);
        return errorf("%s: header flags %#x: version %u, expected %u", vu_request_name(req), flags, flags & 3,
                      kVuVersion);
    }
    if (size > kVuMaxPayload) {
        close_fds(fds);
        return errorf("%s: payload size %u larger than %u", vu_request_name(req), size, kVuMaxPayload);
    }
    Status s = read_full(conn_fd_, payload, size);
    if (!s.ok()) {
        close_fds(fds);
        return s.context(std::string(vu_request_name(req)) + " payload");
    }
    bool replied = false;
    s = dispatch(req, payload, size, fds, &replied);
    close_fds(fds);   // whatever dispatch did not take
    if (!s.ok()) return s.context(vu_request_name(req));
    if ((flags & kVuFlagNeedReply) && !replied && (proto_ & kVuProtoReplyAck)) {
        uint64_t zero = 0;
        FROCE_TRY(reply(req, &zero, sizeof zero));
    }
    return Status();
}

Status VhostUserDevice::dispatch(uint32_t req, const uint8_t *p, uint32_t size, std::vector<int> &fds,
                                 bool *replied) {
    auto need = [&](uint32_t n) -> Status {
        if (size < n) return errorf("payload %u bytes, need %u", size, n);
        return Status();
    };
    auto vring_index = [&](uint32_t idx, Vring **v) -> Status {
        if (idx >= kNumVrings) return errorf("vring index %u (the device has %u)", idx, kNumVrings);
        *v = &vrings_[idx];
        return Status();
    };
    switch (req) {
    case VU_SET_OWNER:
    case VU_RESET_OWNER:
        return Status();
    case VU_GET_FEATURES: {
        uint64_t f = kVirtioFeatVersion1 | kVuFeatProtocol;
        *replied = true;
        return reply(req, &f, 8);
    }
    case VU_SET_FEATURES:
        FROCE_TRY(need(8));
        features_ = ld64(p);
        if (features_ & ~(kVirtioFeatVersion1 | kVuFeatProtocol))
            return errorf("features %#" PRIx64 " beyond the offered VERSION_1 | PROTOCOL_FEATURES", features_);
        return Status();
    case VU_GET_PROTOCOL_FEATURES: {
        uint64_t f = kVuProtoReplyAck | kVuProtoSlaveReq;
        *replied = true;
        return reply(req, &f, 8);
    }
    case VU_SET_PROTOCOL_FEATURES:
        FROCE_TRY(need(8));
        proto_ = ld64(p);
        if (proto_ & ~(kVuProtoReplyAck | kVuProtoSlaveReq))
            return errorf("protocol features %#" PRIx64 " beyond the offered REPLY_ACK | SLAVE_REQ", proto_);
        return Status();
    case VU_SET_SLAVE_REQ_FD:
        if (fds.size() != 1) return errorf("%zu file descriptors, expected 1", fds.size());
        if (slave_fd_ >= 0) ::close(slave_fd_);
        slave_fd_ = fds[0];
        fds.clear();
        return Status();
    case VU_SET_MEM_TABLE: {
        FROCE_TRY(need(8));
        uint32_t num = ld32(p);
        if (num == 0 || num > kVuMaxRegions) return errorf("%u regions (1..%u)", num, kVuMaxRegions);
        FROCE_TRY(need(8 + num * 32));
        if (fds.size() != num) return errorf("%u regions but %zu file descriptors", num, fds.size());
        mem_.clear();
        for (uint32_t i = 0; i < num; i++) {
            const uint8_t *r = p + 8 + i * 32;
            Status s = mem_.add(fds[i], ld64(r), ld64(r + 8), ld64(r + 16), ld64(r + 24));
            if (!s.ok()) {
                mem_.clear();
                return s;
            }
        }
        for (Vring &v : vrings_) FROCE_TRY(v.resolve(mem_));
        mem_changed = true;
        return Status();
    }
    case VU_SET_VRING_NUM: {
        FROCE_TRY(need(8));
        Vring *v = nullptr;
        FROCE_TRY(vring_index(ld32(p), &v));
        uint32_t num = ld32(p + 4);
        if (num == 0 || num > 32768 || (num & (num - 1)))
            return errorf("vring %u size %u: not a power of two in 1..32768", ld32(p), num);
        v->num = num;
        return v->resolve(mem_);
    }
    case VU_SET_VRING_BASE: {
        FROCE_TRY(need(8));
        Vring *v = nullptr;
        FROCE_TRY(vring_index(ld32(p), &v));
        v->last_avail = v->used_idx = uint16_t(ld32(p + 4));
        return Status();
    }
    case VU_GET_VRING_BASE: {
        FROCE_TRY(need(8));
        Vring *v = nullptr;
        FROCE_TRY(vring_index(ld32(p), &v));
        uint32_t st[2] = {ld32(p), v->last_avail};
        v->enabled = false;
        *replied = true;
        return reply(req, st, 8);
    }
    case VU_SET_VRING_ADDR: {
        FROCE_TRY(need(40));
        Vring *v = nullptr;
        FROCE_TRY(vring_index(ld32(p), &v));
        v->desc_uva = ld64(p + 8);
        v->used_uva = ld64(p + 16);
        v->avail_uva = ld64(p + 24);
        v->addr_set = true;
        return v->resolve(mem_);
    }
    case VU_SET_VRING_KICK:
    case VU_SET_VRING_CALL:
    case VU_SET_VRING_ERR: {
        FROCE_TRY(need(8));
        uint64_t u = ld64(p);
        Vring *v = nullptr;
        FROCE_TRY(vring_index(uint32_t(u & 0xff), &v));
        const bool nofd = (u & kVuVringNoFd) != 0;
        if (nofd ? !fds.empty() : fds.size() != 1)
            return errorf("vring %u: %zu file descriptors with%s the no-fd flag", unsigned(u & 0xff), fds.size(),
                          nofd ? "" : "out");
        if (req == VU_SET_VRING_KICK && nofd) return errorf("vring kick without an eventfd (in-band kicks were not negotiated)");
        int fd = nofd ? -1 : fds[0];
        fds.clear();
        int *slot = req == VU_SET_VRING_KICK ? &v->kick_fd : req == VU_SET_VRING_CALL ? &v->call_fd : nullptr;
        if (!slot) {   // error eventfd: not used
            if (fd >= 0) ::close(fd);
            return Status();
        }
        if (*slot >= 0) ::close(*slot);
        *slot = fd;
        if (fd >= 0 && req == VU_SET_VRING_KICK) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        return Status();
    }
    case VU_SET_VRING_ENABLE: {
        FROCE_TRY(need(8));
        Vring *v = nullptr;
        FROCE_TRY(vring_index(ld32(p), &v));
        v->enabled = ld32(p + 4) != 0;
        return Status();
    }
    case VU_GET_QUEUE_NUM: {
        uint64_t n = kNumVrings;
        *replied = true;
        return reply(req, &n, 8);
    }
    default:
        return errorf("request %u (%s) not supported", req, vu_request_name(req));
    }
}

}  // namespace froce_vhost
