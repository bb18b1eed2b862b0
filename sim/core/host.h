// SPDX-License-Identifier: MIT
// In-process host for one simulated NIC: what the driver, the firmware and the
// rdma-core provider will do, done directly on the harness.
//
//  * memory: a physical page allocator in the NIC's host memory (4 KiB pages
//    handed out in a seeded random order, so nothing is contiguous and the MTT
//    translation is exercised; larger MR pages come from contiguous, aligned
//    chunks) and a virtual address space of made-up user VAs (from
//    0x7f0000001000 up), so an IOVA is never a DMA address. Backdoor
//    read/write of VA ranges through the page map.
//  * firmware: GID table, MR/MTT registration and invalidation, CQ and QP
//    contexts, the IB QP state machine (RESET -> INIT -> RTR -> RTS), all over
//    the internal control bus; every context written dword 0 last.
//  * provider: SQ/RQ WQEs built in the rings, doorbells, CQ polling with the
//    owner-bit rule, CQ arming.
//
// Every function checks its arguments and returns a Status that says what is
// wrong. Objects (Cq, Qp) are owned by the Host and live as long as it does.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "froce_hw.h"
#include "nic.h"
#include "status.h"

namespace froce_sim {

struct Gid {
    uint8_t raw[16] = {};    // wire order
    static Gid ipv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d);   // ::ffff:a.b.c.d
    static Status parse(const std::string &s, Gid *out);           // dotted IPv4 or IPv6 text
    bool is_ipv4_mapped() const;
    std::string str() const;
};

// MAC addresses are 48-bit numbers, first wire byte most significant.
std::string mac_str(uint64_t mac);

struct HostConfig {
    std::string name = "A";
    uint64_t seed = 1;
    uint64_t phys_base = 0x100000000ull;      // 4 KiB page pool [phys_base, + phys_pages * 4 KiB)
    uint32_t phys_pages = 1u << 18;           // 1 GiB
    bool shuffle_pages = true;                // hand pool pages out in a seeded random order
    uint64_t chunk_base = 0x4000000000ull;    // contiguous chunks for MR pages > 4 KiB
    uint64_t chunk_size = 1ull << 34;
    uint64_t va_base = 0x7f0000001000ull;     // first user VA
    // table sizes the firmware may use; fw_init() replaces NUM_MRS/NUM_MTT
    // with what MRT_REGS reports
    uint32_t num_mrs = 1024, num_mtt = 65536, num_qps = 256, num_cqs = 256, num_gids = 16;
    uint32_t num_uars = Nic::kNumUars;
};

struct Buffer {
    uint64_t va = 0;
    uint64_t len = 0;
    unsigned page_shift = 12;   // the physical backing is contiguous in chunks of this size
};

struct Mr {
    uint32_t index = 0;
    uint32_t key = 0;           // lkey = rkey = index << FROCE_KEY_TAG_W | tag
    uint32_t pdn = 0;
    uint64_t iova = 0, length = 0;
    unsigned page_shift = 12;
    uint32_t mtt_base = 0, npages = 0;
    uint8_t access = 0;
    bool valid = false;
};

struct Cqe {
    uint32_t qpn = 0;
    uint8_t opcode = 0;         // FROCE_CQE_OP_*
    uint16_t wqe_index = 0;
    uint8_t status = 0;         // FROCE_WC_*
    uint8_t vendor_err = 0;     // FROCE_VENDOR_ERR_*
    uint32_t byte_cnt = 0;
    uint32_t imm_inv = 0;
    uint32_t src_qpn = 0;
    bool grh = false, with_imm = false, with_inv = false, vlan = false, solicited = false;
    uint8_t net_type = 0;
    uint64_t smac = 0;
    uint16_t vlan_id = 0;
    bool owner = false;
    uint64_t cycle = 0;         // when poll_cq found it
    std::string str() const;
};
// Decodes a 32-byte CQE image; encode_cqe is its inverse (tests, models).
Cqe decode_cqe(const uint8_t *img);
void encode_cqe(const Cqe &c, uint8_t *img);

struct Cq {
    uint32_t cqn = 0;
    unsigned log_size = 0;
    Buffer ring;
    Mr mr;
    uint32_t uar = 0, slot = 0;
    uint32_t ci = 0;            // CQEs consumed (free-running)
    uint8_t arm_sn = 0;
    uint32_t eqn = 0;           // CQC.EQN
    uint32_t size() const { return 1u << log_size; }
};

// Event queue entry (layout EQE).
struct Eqe {
    uint8_t type = 0;           // FROCE_EQE_TYPE_*
    uint8_t subtype = 0;
    uint32_t id = 0;            // CQN for COMPLETION
    bool owner = false;
    uint64_t cycle = 0;         // when poll_eq found it
    std::string str() const;
};

// An event queue: a physically contiguous ring of EQEs in kernel memory.
struct Eq {
    uint32_t eqn = 0;
    unsigned log_size = 0;
    uint32_t vector = 0;        // MSI-X vector
    Buffer ring;
    uint64_t pa = 0;            // DMA address of the ring
    uint32_t ci = 0;            // EQEs consumed (free-running)
    uint32_t size() const { return 1u << log_size; }
};

// A frame the netdev RX ring delivered (an NRX_DESC with DONE).
struct NetRxFrame {
    std::vector<uint8_t> data;  // PKT_LEN bytes read from the buffer
    uint32_t pkt_len = 0;
    uint8_t verdict = 0;        // FROCE_VERDICT_*
    bool err = false;
    uint32_t index = 0;         // descriptor number (free-running)
    uint64_t va = 0;            // the buffer posted with it
    uint32_t buf_len = 0;
    uint64_t cycle = 0;         // when netdev_poll_rx found it
};

// Address vector of a connected QP's path (layout AV).
struct Path {
    uint8_t sgid_index = 0;
    uint8_t hop_limit = 64;
    uint8_t tclass = 0;
    uint8_t net_type = FROCE_KIND_ROCE_V2_IPV4;
    uint32_t flow_label = 0;
    uint16_t udp_sport = 0;     // 0 = hardware picks
    bool vlan_en = false;
    uint16_t vlan_id = 0;
    uint64_t dmac = 0;
    Gid dgid;
};

struct QpCaps {
    uint8_t type = FROCE_QP_TYPE_RC;
    uint32_t max_send_wr = 64, max_recv_wr = 64;   // rounded up to powers of two
    uint32_t max_send_sge = 1, max_recv_sge = 1;
    uint32_t max_inline = 0;
    bool sig_all = false;
    uint32_t qkey = 0;
};

struct Qp {
    uint32_t qpn = 0;
    QpCaps caps;
    Cq *scq = nullptr, *rcq = nullptr;
    uint32_t uar = 0, sq_slot = 0, rq_slot = 0;
    Buffer ring;
    Mr ring_mr;
    uint64_t sq_va = 0, rq_va = 0;
    unsigned sq_log = 0, sq_shift = 0, rq_log = 0, rq_shift = 0;
    uint8_t state = FROCE_QP_STATE_RESET;
    uint8_t qpc[FROCE_QPC_SIZE] = {};   // the context as last written (LOAD_* bits cleared)
    uint64_t sq_pi = 0, sq_ci = 0;      // WQEs posted / completed (free-running)
    uint64_t rq_pi = 0, rq_ci = 0;
    uint32_t sq_size() const { return 1u << sq_log; }
    uint32_t rq_size() const { return 1u << rq_log; }
};

// Where a UD send goes: the datagram's address vector, QP and Q_Key (a Q_Key
// with bit 31 set means the sending QP's own).
struct UdDest {
    Path av;
    uint32_t qpn = 0;
    uint32_t qkey = 0;
};

struct Sge {
    uint64_t addr = 0;
    uint32_t len = 0;
    uint32_t lkey = 0;
};

struct SendWr {
    uint8_t opcode = FROCE_WQE_OP_RDMA_WRITE;   // FROCE_WQE_OP_*
    bool signaled = true, solicited = false, fence = false;
    bool inline_data = false;    // copy the SGEs' bytes into the WQE (INLINE)
    std::vector<Sge> sg;
    uint64_t remote_addr = 0;    // RDMA and atomics
    uint32_t rkey = 0;
    uint64_t compare_add = 0;    // FETCH_ADD: addend; CMP_SWP: compare value
    uint64_t swap = 0;           // CMP_SWP: swap value
    uint32_t imm_inv = 0;        // *_WITH_IMM (be32toh of the wire value), SEND_WITH_INV rkey
    UdDest ud;                   // UD QPs
};

struct RecvWr {
    std::vector<Sge> sg;
};

// Bytes of the SQ WQE a request needs (control + segments + data/inline).
uint32_t sq_wqe_bytes(uint8_t qp_type, uint8_t opcode, unsigned num_sge, unsigned inline_len, bool inl);

// The WQE images post_send / post_recv write (pure functions, no memory access):
// a whole 2^wqe_shift-byte WQE, unused bytes zero. inline_bytes is the payload
// when wr.inline_data is set (post_send gathers it from wr.sg).
Status build_sq_wqe(uint8_t qp_type, unsigned wqe_shift, const SendWr &wr, uint16_t wqe_index,
                    const std::vector<uint8_t> &inline_bytes, std::vector<uint8_t> *out);
Status build_rq_wqe(unsigned wqe_shift, const RecvWr &wr, uint16_t wqe_index, std::vector<uint8_t> *out);

class Host {
public:
    Host(Nic &nic, const HostConfig &cfg);
    Nic &nic() { return nic_; }
    const HostConfig &config() const { return cfg_; }
    const std::string &name() const { return cfg_.name; }

    // ---- memory ----
    // A buffer of len bytes at a fresh VA whose offset in its first 2^page_shift
    // page is `offset`; the backing is contiguous in chunks of 2^page_shift.
    Status alloc(uint64_t len, Buffer *out, unsigned page_shift = 12, uint64_t offset = 0);
    Status translate(uint64_t va, uint64_t *pa) const;
    Status write(uint64_t va, const void *src, uint64_t n);
    Status read(uint64_t va, void *dst, uint64_t n) const;
    Status fill(uint64_t va, uint8_t byte, uint64_t n);
    // 4 KiB physical page numbers (pa >> 12) backing some buffer, sorted.
    std::vector<uint64_t> backing_pages() const;

    // ---- firmware ----
    // Waits until the MR table is cleared after reset (MRT_REGS.INIT == 0)
    // and takes NUM_MRS / NUM_MTT from MRT_REGS.
    Status fw_init(uint64_t max_cycles = 100000);
    Status set_gid(unsigned index, const Gid &gid, uint64_t smac, unsigned type = FROCE_GID_TYPE_ROCE_V2,
                   bool vlan_en = false, uint16_t vlan_id = 0);
    Status clear_gid(unsigned index);
    // Registers [va, va + len) with `access` (FROCE_ACCESS_* bits) in PD pdn.
    // page_shift 0 = the buffer's backing page shift.
    Status reg_mr(uint32_t pdn, uint64_t va, uint64_t len, uint8_t access, Mr *out, unsigned page_shift = 0);
    // reg_mr at a chosen, free MR index (tests: re-registering an index gives
    // a new tag, so the old key must stop working).
    Status reg_mr_at(uint32_t index, uint32_t pdn, uint64_t va, uint64_t len, uint8_t access, Mr *out,
                     unsigned page_shift = 0);
    bool mr_index_free(uint32_t index) const { return index < mr_used_.size() && !mr_used_[index]; }
    Status dereg_mr(Mr *mr);
    // eqn: the EQ that gets this CQ's completion events (CQC.EQN)
    Status create_cq(unsigned log_size, uint32_t pdn, Cq **out, uint32_t eqn = 0);
    // Event queue eqn with 2^log_size EQEs (6..12) raising MSI-X `vector`:
    // EQ 0 through the BAR0 EQ0_ADDR/EQ0_CFG registers, EQ n >= 1 as an EQC
    // on the control bus. Also unmasks the vector in the BAR0 MSI-X table.
    Status create_eq(uint32_t eqn, unsigned log_size, uint32_t vector, Eq **out);
    // Appends up to max valid EQEs (owner rule of the CQE) to *out; moves eq->ci.
    Status poll_eq(Eq *eq, unsigned max, std::vector<Eqe> *out);
    // EQ_DOORBELL {CI = eq->ci, EQN, ARM}: with arm, the vector fires at the
    // next EQE (at once if EQEs beyond CI exist); without, only CI moves.
    Status eq_doorbell(Eq *eq, bool arm);
    Status arm_eq(Eq *eq) { return eq_doorbell(eq, true); }
    // Internal counter FROCE_ICNT_<idx> (64 bits) at CTL_ICNT_BASE + 8 * idx.
    Status read_icounter(unsigned idx, uint64_t *v);
    // BAR0 counter FROCE_CNT_<idx>: low word (latches the high word), then high word.
    Status read_counter64(unsigned idx, uint64_t *v);
    Status arm_cq(Cq *cq, bool solicited_only);
    // arm_cq through any UAR page and slot (tests: a page the CQ is not bound to).
    Status arm_cq_on(Cq *cq, bool solicited_only, uint32_t uar_page, uint32_t slot);
    // A whole UAR page no queue will be bound to (all its slots taken).
    Status alloc_uar_page(uint32_t *page);
    Status create_qp(uint32_t pdn, const QpCaps &caps, Cq *scq, Cq *rcq, Qp **out);
    Status modify_qp_init(Qp *qp, uint8_t access);
    Status modify_qp_rtr(Qp *qp, const Path &path, uint32_t dest_qpn, uint32_t rq_psn, unsigned mtu_enum,
                         unsigned min_rnr_timer = 1, unsigned max_dest_rd_atomic = 16);
    Status modify_qp_rts(Qp *qp, uint32_t sq_psn, unsigned timeout = 14, unsigned retry_cnt = 7,
                         unsigned rnr_retry = 7, unsigned max_rd_atomic = 16);
    Status modify_qp_err(Qp *qp);
    // A UD QP from INIT to RTS (no path: each send carries its own); the
    // path MTU bounds a datagram.
    Status modify_qp_ud_rts(Qp *qp, unsigned mtu_enum, uint32_t sq_psn);
    // Reads a context back over the control bus (dwords).
    Status read_ctx(uint32_t byte_off, unsigned dwords, std::vector<uint32_t> *out);
    // Writes a context image: dwords 1..n-1, then dword 0.
    Status write_ctx(uint32_t byte_off, const uint8_t *img, unsigned bytes);
    // Counter FROCE_CNT_<idx> (the core keeps the low 32 bits) at CTL_CORE_BASE + 8 * idx.
    Status read_counter(unsigned idx, uint32_t *v);

    // ---- netdev (what the kernel driver's netdev does; BAR0 NETDEV block) ----
    // Allocates and zeroes both descriptor rings (2^tx_log / 2^rx_log NTX_DESC /
    // NRX_DESC, 4..15, physically contiguous), programs NTX_/NRX_ ADDR and CFG
    // (ENABLE), NETDEV_IRQ = vector and unmasks the vector in the MSI-X table.
    Status netdev_open(unsigned tx_log, unsigned rx_log, uint32_t vector);
    // Clears ENABLE on both rings (the hardware zeroes PI and CI); the rings
    // stay allocated, netdev_open may follow again.
    Status netdev_close();
    // Posts one RX buffer [va, va + buf_len) (physically contiguous, 1..65535
    // bytes): an NRX_DESC at PI with dw3 = 0, then NRX_PI.
    Status netdev_post_rx(uint64_t va, uint32_t buf_len);
    // Appends up to max delivered frames (DONE set, in ring order) to *out.
    Status netdev_poll_rx(unsigned max, std::vector<NetRxFrame> *out);
    // Sends one frame from the TX ring, split into `pieces` buffers (1..16,
    // each a fresh buffer, the last with EOP): the frame's bytes are cut at
    // the given lengths (cuts.size() == pieces - 1, summing to less than the
    // frame; empty = equal parts). Writes the descriptors, then NTX_PI.
    Status netdev_send(const std::vector<uint8_t> &frame, unsigned pieces = 1,
                       const std::vector<uint32_t> &cuts = {});
    // Reaps TX descriptors with DONE: *done += descriptors, *errors += those
    // with ERR (either pointer may be null).
    Status netdev_poll_tx(unsigned *done, unsigned *errors);
    // NETDEV_ARM: fire again at once if something completed since the last
    // MSI-X, else at the next completion.
    Status netdev_arm();
    uint32_t netdev_tx_posted() const { return ntx_pi_; }
    uint32_t netdev_tx_reaped() const { return ntx_ci_; }
    uint32_t netdev_rx_posted() const { return nrx_pi_; }
    uint32_t netdev_rx_reaped() const { return nrx_ci_; }

    // ---- provider ----
    Status post_send(Qp *qp, const SendWr &wr);
    // post_send in two halves (tests: a doorbell on a foreign page): the WQE
    // written and counted as posted, then DB_QP {SQ, PI = posted} rung on any
    // UAR page and slot.
    Status post_send_wqe(Qp *qp, const SendWr &wr);
    Status ring_sq(Qp *qp, uint32_t uar_page, uint32_t slot);
    Status post_recv(Qp *qp, const RecvWr &wr);
    // Appends up to max CQEs to *out. Also retires SQ/RQ WQEs of the QPs named
    // (an SQ CQE completes its WQE and the unsignaled ones before it); a CQE
    // naming an unknown QP or a WQE that is not outstanding is an error (the
    // CQE is still appended).
    Status poll_cq(Cq *cq, unsigned max, std::vector<Cqe> *out);
    Qp *qp_by_qpn(uint32_t qpn);

    uint64_t doorbells_rung() const { return doorbells_; }

private:
    Nic &nic_;
    HostConfig cfg_;
    std::mt19937_64 rng_;
    // memory
    std::vector<uint32_t> pool_;   // free 4 KiB pool pages (indexes), popped from the back
    uint64_t chunk_next_ = 0;
    uint64_t va_next_ = 0;
    std::unordered_map<uint64_t, uint64_t> page_map_;   // VA page -> PA page (4 KiB numbers)
    // firmware tables
    std::vector<uint8_t> mr_used_, mr_tag_;
    std::map<uint32_t, uint32_t> mtt_free_;   // base -> count
    std::vector<uint8_t> qpn_used_, cqn_used_;
    std::vector<std::unique_ptr<Cq>> cqs_;
    std::vector<std::unique_ptr<Eq>> eqs_;
    std::vector<std::unique_ptr<Qp>> qps_;
    std::unordered_map<uint32_t, Qp *> qp_map_;
    unsigned uar_next_ = 1;
    std::vector<uint32_t> uar_slots_used_;
    uint64_t doorbells_ = 0;
    // netdev rings
    bool nd_open_ = false;
    unsigned ntx_log_ = 0, nrx_log_ = 0;
    Buffer ntx_ring_, nrx_ring_;
    uint32_t ntx_pi_ = 0, ntx_ci_ = 0, nrx_pi_ = 0, nrx_ci_ = 0;   // free-running
    std::vector<std::pair<uint64_t, uint32_t>> nrx_bufs_;         // per RX slot: VA, BUF_LEN
    Status dma_addr(uint64_t va, uint64_t len, uint64_t *pa, const char *what) const;

    uint64_t pick(uint64_t n) { return n ? rng_() % n : 0; }
    Status alloc_index(std::vector<uint8_t> &used, uint32_t lo, const char *what, uint32_t *out);
    // index < 0: a random free one
    Status reg_mr_index(int64_t index, uint32_t pdn, uint64_t va, uint64_t len, uint8_t access, Mr *out,
                        unsigned page_shift);
    Status alloc_mtt(uint32_t n, uint32_t *base);
    void free_mtt(uint32_t base, uint32_t n);
    Status alloc_db_slot(uint32_t *page, uint32_t *slot);
    Status write_qpc(Qp *qp);
    Status check_qp(const Qp *qp, const char *what) const;
    Status check_path(const Path &path) const;
};

}  // namespace froce_sim
