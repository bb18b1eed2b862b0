// SPDX-License-Identifier: MIT
// The device ("slave") side of vhost-user as User-Mode Linux's virtio_uml
// front end speaks it (arch/um/drivers/virtio_uml.c, vhost_user.h): one UNIX
// stream socket per device, the message handshake, the memory table (every
// region mmap'ed with its guest-physical base), split virtqueues (descriptor
// walking, used ring, kick and call eventfds) and REPLY_ACK acknowledgements.
// Nothing here knows about PCI; see uml_nic.h for that.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hwfield.h"
#include "status.h"

namespace froce_vhost {

using froce_sim::errorf;
using froce_sim::Status;
// little-endian loads from message and guest-memory bytes
using froce_sim::ld32;
using froce_sim::ld64;

// ---- protocol constants (vhost-user spec; arch/um/drivers/vhost_user.h) ----
enum VuRequest : uint32_t {
    VU_GET_FEATURES = 1,
    VU_SET_FEATURES = 2,
    VU_SET_OWNER = 3,
    VU_RESET_OWNER = 4,
    VU_SET_MEM_TABLE = 5,
    VU_SET_LOG_BASE = 6,
    VU_SET_LOG_FD = 7,
    VU_SET_VRING_NUM = 8,
    VU_SET_VRING_ADDR = 9,
    VU_SET_VRING_BASE = 10,
    VU_GET_VRING_BASE = 11,
    VU_SET_VRING_KICK = 12,
    VU_SET_VRING_CALL = 13,
    VU_SET_VRING_ERR = 14,
    VU_GET_PROTOCOL_FEATURES = 15,
    VU_SET_PROTOCOL_FEATURES = 16,
    VU_GET_QUEUE_NUM = 17,
    VU_SET_VRING_ENABLE = 18,
    VU_SET_SLAVE_REQ_FD = 21,
    VU_GET_CONFIG = 24,
    VU_SET_CONFIG = 25,
    VU_VRING_KICK = 35,
};
constexpr uint32_t kVuVersion = 1;              // flags bits 1:0
constexpr uint32_t kVuFlagReply = 1u << 2;
constexpr uint32_t kVuFlagNeedReply = 1u << 3;
constexpr uint64_t kVuFeatProtocol = 1ull << 30;   // VHOST_USER_F_PROTOCOL_FEATURES
constexpr uint64_t kVirtioFeatVersion1 = 1ull << 32;
constexpr uint64_t kVuProtoReplyAck = 1ull << 3;
constexpr uint64_t kVuProtoSlaveReq = 1ull << 5;
constexpr uint64_t kVuVringNoFd = 1ull << 8;       // VHOST_USER_VRING_POLL_MASK
constexpr uint32_t kVuHeaderSize = 12;
constexpr uint32_t kVuMaxPayload = 4096;
constexpr unsigned kVuMaxRegions = 8;
constexpr unsigned kVuMaxFds = 8;

const char *vu_request_name(uint32_t req);

// ---- guest memory: the regions of SET_MEM_TABLE ----------------------------
struct GuestRegion {
    uint64_t gpa = 0, size = 0, uva = 0;
    uint8_t *ptr = nullptr;     // gpa maps here
    void *map = nullptr;        // the whole mmap (from file offset 0)
    size_t map_len = 0;
};

class GuestMemory {
public:
    GuestMemory() = default;
    ~GuestMemory() { clear(); }
    GuestMemory(const GuestMemory &) = delete;
    GuestMemory &operator=(const GuestMemory &) = delete;

    // mmap of fd (not kept open): [mmap_offset, mmap_offset + size) is guest
    // [gpa, gpa + size) and front-end virtual [uva, uva + size).
    Status add(int fd, uint64_t gpa, uint64_t size, uint64_t uva, uint64_t mmap_offset);
    void clear();
    // Host pointer of guest-physical [a, a + n) inside one region, else nullptr.
    uint8_t *gpa(uint64_t a, uint64_t n) const {
        for (const GuestRegion &r : regions_)
            if (a >= r.gpa && n <= r.size && a - r.gpa <= r.size - n) return r.ptr + (a - r.gpa);
        return nullptr;
    }
    // The same for front-end virtual addresses (vring addresses).
    uint8_t *uva(uint64_t a, uint64_t n) const {
        for (const GuestRegion &r : regions_)
            if (a >= r.uva && n <= r.size && a - r.uva <= r.size - n) return r.ptr + (a - r.uva);
        return nullptr;
    }
    const std::vector<GuestRegion> &regions() const { return regions_; }

private:
    std::vector<GuestRegion> regions_;
};

// ---- split virtqueue ----------------------------------------------------------

// One descriptor chain popped from the available ring.
struct Chain {
    uint16_t head = 0;
    std::vector<uint8_t> out;                  // device-readable bytes, concatenated
    struct Seg {
        uint8_t *p;
        uint32_t len;
    };
    std::vector<Seg> in;                       // device-writable buffers, in order
    uint32_t in_len = 0;                       // their total size
    // Copies n bytes into the writable buffers; returns the bytes written.
    uint32_t write(const void *data, uint32_t n);
};

class Vring {
public:
    uint32_t num = 0;
    uint64_t desc_uva = 0, avail_uva = 0, used_uva = 0;
    bool addr_set = false;
    uint16_t last_avail = 0;      // next available entry to take
    uint16_t used_idx = 0;        // next used entry to fill
    int kick_fd = -1, call_fd = -1;
    bool enabled = false;

    // Host pointers of the rings from the addresses and the memory table.
    Status resolve(const GuestMemory &m);
    bool ready() const { return enabled && desc_ != nullptr; }
    // Available buffers not taken yet (0 when not ready).
    unsigned pending() const;
    // 1: a chain in *c; 0: none available; -1: malformed (*err says why; the
    // chain is consumed).
    int pop(const GuestMemory &m, Chain *c, std::string *err);
    void push(uint16_t head, uint32_t len);
    void notify();                // call eventfd
    void drain_kick();            // read the kick eventfd (non-blocking)
    void reset();                 // close fds, forget everything

private:
    struct Desc {
        uint64_t addr;
        uint32_t len;
        uint16_t flags, next;
    };
    Desc *desc_ = nullptr;
    uint16_t *avail_ = nullptr;   // flags, idx, ring[num]
    uint8_t *used_ = nullptr;     // flags u16, idx u16, ring[num] {u32 id, u32 len}
};

// ---- the connection -------------------------------------------------------------

struct VhostStats {
    uint64_t messages = 0;
};

class VhostUserDevice {
public:
    static constexpr unsigned kNumVrings = 2;

    explicit VhostUserDevice(std::string name) : name_(std::move(name)) {}
    ~VhostUserDevice();
    VhostUserDevice(const VhostUserDevice &) = delete;
    VhostUserDevice &operator=(const VhostUserDevice &) = delete;

    const std::string &name() const { return name_; }
    // Creates the listening socket (a stale socket file is removed).
    Status listen(const std::string &path);
    int listen_fd() const { return listen_fd_; }
    // Takes the pending connection (listen_fd readable); one at a time.
    Status accept_one();
    // Uses an already connected stream socket (tests).
    void adopt(int fd);
    int conn_fd() const { return conn_fd_; }
    bool connected() const { return conn_fd_ >= 0; }
    // Reads and handles one message (conn_fd readable). *closed: the front
    // end hung up (the connection state is dropped). A malformed message is
    // an error (the caller ends the connection or the program).
    Status handle_message(bool *closed);
    // Drops the connection and every mapping and fd it brought.
    void disconnect();

    Vring &vring(unsigned i) { return vrings_[i]; }
    const GuestMemory &mem() const { return mem_; }
    uint64_t features() const { return features_; }
    uint64_t protocol_features() const { return proto_; }
    // Set once SET_MEM_TABLE was handled (cleared by the caller).
    bool mem_changed = false;

private:
    std::string name_, path_;
    int listen_fd_ = -1, conn_fd_ = -1, slave_fd_ = -1;
    GuestMemory mem_;
    Vring vrings_[kNumVrings];
    uint64_t features_ = 0, proto_ = 0;

    Status reply(uint32_t req, const void *payload, uint32_t size);
    Status dispatch(uint32_t req, const uint8_t *p, uint32_t size, std::vector<int> &fds, bool *replied);
};

}  // namespace froce_vhost
