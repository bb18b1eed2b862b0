// SPDX-License-Identifier: MIT
// In-process host for one simulated NIC: what the driver and the rdma-core
// provider will do, done directly on the harness; the firmware's part goes
// through its mailbox.
//
//  * memory: a physical page allocator in the NIC's host memory (4 KiB pages
//    handed out in a seeded random order, so nothing is contiguous and the MTT
//    translation is exercised; larger MR pages come from contiguous, aligned
//    chunks) and a virtual address space of made-up user VAs (from
//    0x7f0000001000 up), so an IOVA is never a DMA address. Backdoor
//    read/write of VA ranges through the page map.
//  * driver: firmware commands through the mailbox (mailbox.h: the command
//    block in host memory, BAR0 CMD_ADDR / CMD_DOORBELL, DONE polled): GID
//    table, PDs, MR registration (page lists), CQs, EQs n >= 1, QPs and the
//    IB state machine; the firmware picks every number (PDN, CQN, EQN, QPN,
//    MR index) and owns the contexts. BAR0 for what the driver owns itself:
//    EQ 0, the MSI-X table, the netdev rings, the counters. User contexts are
//    UAR pages (a PD belongs to one; its QPs and CQs ring on it).
//  * provider: SQ/RQ WQEs built in the rings, doorbells, CQ polling with the
//    owner-bit rule, CQ arming.
//
// Every function checks its arguments and returns a Status that says what is
// wrong. Objects (Cq, Qp) are owned by the Host and live as long as it does.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "froce_hw.h"
#include "mailbox.h"
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
    MboxTiming mbox;                          // how long fw_init and a command may take
    BufPolicy buf_policy = BufPolicy::AUTO;   // how MR and ring page lists are described (BUF.LEVEL)
    uint64_t mac = 0;                         // station MAC: fw_init sends SET_PORT with it (the port's
                                              // receive filter, as the driver does at netdev open); 0: none
};

struct Buffer {
    uint64_t va = 0;
    uint64_t len = 0;
    unsigned page_shift = 12;   // the physical backing is contiguous in chunks of this size
};

struct Mr {
    uint32_t index = 0;
    uint32_t key = 0;           // lkey = rkey = index << FROCE_KEY_TAG_W | tag (REG_MR's answer)
    uint32_t pdn = 0;
    uint64_t iova = 0, length = 0;
    unsigned page_shift = 12;
    uint32_t npages = 0;        // MTT entries (the firmware picks where)
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

// The firmware maps the ring through an MR of its own (PD 0, IOVA 0).
struct Cq {
    uint32_t cqn = 0;
    unsigned log_size = 0;
    Buffer ring;
    uint32_t uar = 0, slot = 0;   // the UAR page of its user context (its PD's) and its doorbell slot
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

// One ring buffer: the SQ's pages, then the RQ from the next page on (the
// firmware maps both through one MR in the QP's PD, the SQ at IOVA 0).
struct Qp {
    uint32_t qpn = 0;
    uint32_t pdn = 0;
    QpCaps caps;
    Cq *scq = nullptr, *rcq = nullptr;
    uint32_t uar = 0, sq_slot = 0, rq_slot = 0;   // its PD's UAR page
    Buffer ring;
    uint64_t sq_va = 0, rq_va = 0;
    unsigned sq_log = 0, sq_shift = 0, rq_log = 0, rq_shift = 0;
    uint8_t state = FROCE_QP_STATE_RESET;   // as the last MODIFY_QP left it
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

    // ---- driver: firmware commands through the mailbox ----
    // Device start: DEV_STATUS.READY (bounded by config().mbox.ready_cycles),
    // a page for the command block, CMD_ADDR, QUERY_FW (its SPEC_HASH must be
    // FROCE_HW_SPEC_HASH) and QUERY_CAPS: every table size comes from there.
    Status fw_init();
    bool fw_up() const { return fw_up_; }
    const FwInfo &fw_info() const { return fw_info_; }
    const FwCaps &caps() const { return caps_; }
    // The command layer (statistics per opcode: mailbox()->stats()); null before fw_init.
    Mailbox *mailbox() { return mbox_.get(); }
    // How fw_init builds the transport (tests; default: NicMboxTransport on
    // the NIC's BAR0). One for the whole process, set before any fw_init.
    using TransportFactory = std::function<std::unique_ptr<MboxTransport>(Nic &, const HostConfig &)>;
    static void set_transport_factory(TransportFactory f);

    // ADD_GID / DEL_GID of entry `index`.
    Status set_gid(unsigned index, const Gid &gid, uint64_t smac, unsigned type = FROCE_GID_TYPE_ROCE_V2,
                   bool vlan_en = false, uint16_t vlan_id = 0);
    Status clear_gid(unsigned index);
    Status query_port(PortInfo *out);
    // SET_PORT {MAC, MTU, PROMISC, ALLMULTI}.
    Status set_port(const PortSet &p);

    // User contexts are UAR pages (page 0 is the kernel's): a fresh page for
    // a new context, from page 1 up.
    Status alloc_ucontext(uint32_t *uar);
    // ALLOC_PD for the user context of UAR page `uar`; uar < 0: a new
    // context (alloc_ucontext) of its own. The PD's page is where the QPs and
    // CQs created with it ring their doorbells.
    Status alloc_pd(uint32_t *pdn, int64_t uar = -1);
    Status dealloc_pd(uint32_t pdn);
    // UAR page of a PD this host allocated (-1 if none).
    int64_t pd_uar(uint32_t pdn) const;

    // REG_MR of [va, va + len) with `access` (FROCE_ACCESS_* bits) in PD pdn:
    // the pages of the buffer's backing (page_shift 0 = the largest the
    // backing allows) as a BUF (config().buf_policy). The firmware picks the
    // MR index (the lowest free one) and the MTT range.
    Status reg_mr(uint32_t pdn, uint64_t va, uint64_t len, uint8_t access, Mr *out, unsigned page_shift = 0);
    // reg_mr at a chosen MR index (tests: re-registering an index gives a new
    // tag, so the old key must stop working): MRs registered with the same
    // parameters fill the free indexes below it, then are deregistered.
    // The index must be free (mr_index_free).
    Status reg_mr_at(uint32_t index, uint32_t pdn, uint64_t va, uint64_t len, uint8_t access, Mr *out,
                     unsigned page_shift = 0);
    // From this host's own bookkeeping: index is 1..MAX_MR and no MR this host
    // registered has it. (The firmware's ring MRs of CQs and QPs also take
    // indexes; this host does not learn which.)
    bool mr_index_free(uint32_t index) const;
    // DEREG_MR of mr->key.
    Status dereg_mr(Mr *mr);

    // CREATE_CQ of 2^log_size CQEs (a zeroed ring, its pages as a BUF) in
    // the user context of PD pdn (its UAR page; CQs have no PD of their
    // own). eqn: the EQ that gets its completion events (CQC.EQN; must exist).
    Status create_cq(unsigned log_size, uint32_t pdn, Cq **out, uint32_t eqn = 0);
    // Event queue eqn with 2^log_size EQEs (6..12) raising MSI-X `vector`: a
    // zeroed, physically contiguous ring; EQ 0 through the BAR0
    // EQ0_ADDR/EQ0_CFG registers (the driver's), EQ n >= 1 through CREATE_EQ
    // (the firmware picks the lowest free EQN: EQs created and destroyed
    // again fill the free ones below n). Also unmasks the vector in the BAR0
    // MSI-X table.
    Status create_eq(uint32_t eqn, unsigned log_size, uint32_t vector, Eq **out);
    // Appends up to max valid EQEs (owner rule of the CQE) to *out; moves eq->ci.
    Status poll_eq(Eq *eq, unsigned max, std::vector<Eqe> *out);
    // EQ_DOORBELL {CI = eq->ci, EQN, ARM}: with arm, the vector fires at the
    // next EQE (at once if EQEs beyond CI exist); without, only CI moves.
    Status eq_doorbell(Eq *eq, bool arm);
    Status arm_eq(Eq *eq) { return eq_doorbell(eq, true); }
    // Internal counter FROCE_ICNT_<idx> (64 bits) from BAR0 ICOUNTERS: low
    // word (latches the high word), then high word.
    Status read_icounter(unsigned idx, uint64_t *v);
    // BAR0 counter FROCE_CNT_<idx>: low word (latches the high word), then high word.
    Status read_counter64(unsigned idx, uint64_t *v);
    // Its low 32 bits (one BAR0 read).
    Status read_counter(unsigned idx, uint32_t *v);
    // QUERY_COUNTERS: every counter since the last CLEAR (the firmware's
    // baseline; BAR0 keeps counting from reset).
    Status query_counters(std::vector<uint64_t> *out, bool clear = false);
    Status arm_cq(Cq *cq, bool solicited_only);
    // arm_cq through any UAR page and slot (tests: a page the CQ is not bound to).
    Status arm_cq_on(Cq *cq, bool solicited_only, uint32_t uar_page, uint32_t slot);
    // A whole UAR page no context and no queue will use (all its slots taken).
    Status alloc_uar_page(uint32_t *page);

    // CREATE_QP in PD pdn with both CQs in the PD's user context: SQ and RQ
    // rings in one zeroed buffer (SQ pages, then the RQ from the next page),
    // WQE sizes from max_send_sge / max_inline / max_recv_sge, doorbell slots
    // in the PD's UAR page. The firmware picks the QPN (lowest free from 2).
    Status create_qp(uint32_t pdn, const QpCaps &caps, Cq *scq, Cq *rcq, Qp **out);
    // The depth QUERY_CAPS reports (MAX_QP_RD_ATOM, MAX_QP_INIT_RD_ATOM) for
    // max_dest_rd_atomic / max_rd_atomic.
    static constexpr unsigned kDeviceMax = ~0u;
    // MODIFY_QP RESET/INIT -> INIT {PKEY_INDEX 0, PORT 1, ACCESS_FLAGS}; a UD
    // QP gets {PKEY_INDEX, PORT, QKEY = caps.qkey} and no access flags.
    Status modify_qp_init(Qp *qp, uint8_t access);
    // RC: INIT -> RTR {AV from path, PATH_MTU, DEST_QPN, RQ_PSN, MIN_RNR_TIMER, MAX_DEST_RD_ATOMIC}.
    Status modify_qp_rtr(Qp *qp, const Path &path, uint32_t dest_qpn, uint32_t rq_psn, unsigned mtu_enum,
                         unsigned min_rnr_timer = 1, unsigned max_dest_rd_atomic = kDeviceMax);
    // RC: RTR -> RTS {SQ_PSN, TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC}.
    Status modify_qp_rts(Qp *qp, uint32_t sq_psn, unsigned timeout = 14, unsigned retry_cnt = 7,
                         unsigned rnr_retry = 7, unsigned max_rd_atomic = kDeviceMax);
    // Any state the IB rules allow (not RESET) -> ERR.
    Status modify_qp_err(Qp *qp);
    // A UD QP from INIT to RTS (no path: each send carries its own). A UD
    // QP's path MTU is the port's (the firmware sets it at INIT -> RTR):
    // SET_PORT makes the port's Ethernet MTU give mtu_enum first if needed.
    Status modify_qp_ud_rts(Qp *qp, unsigned mtu_enum, uint32_t sq_psn);
    // QUERY_QP.
    Status query_qp(Qp *qp, QpAttr *out);

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
    // driver state
    class DmaMem : public MboxMem {
    public:
        explicit DmaMem(Host &h) : h_(h) {}
        Status dma_write(uint64_t pa, const void *src, size_t n) override;
        Status dma_read(uint64_t pa, void *dst, size_t n) override;
        Status dma_page(uint64_t *pa) override;

    private:
        Host &h_;
    } dma_{*this};
    std::unique_ptr<MboxTransport> transport_;
    std::unique_ptr<Mailbox> mbox_;
    bool fw_up_ = false;
    FwInfo fw_info_;
    FwCaps caps_;
    PortSet port_;                             // what SET_PORT last said (MAC from QUERY_PORT at fw_init)
    std::map<uint32_t, uint32_t> pd_uar_;      // PDN -> UAR page
    std::map<uint32_t, uint32_t> mr_keys_;     // MR index -> key, registered by this host
    std::vector<uint8_t> uar_owned_;           // UAR page given to a context or alloc_uar_page
    std::vector<uint32_t> uar_slots_used_;
    std::vector<std::unique_ptr<Cq>> cqs_;
    std::vector<std::unique_ptr<Eq>> eqs_;
    std::vector<std::unique_ptr<Qp>> qps_;
    std::unordered_map<uint32_t, Qp *> qp_map_;
    uint64_t doorbells_ = 0;
    // netdev rings
    bool nd_open_ = false;
    unsigned ntx_log_ = 0, nrx_log_ = 0;
    Buffer ntx_ring_, nrx_ring_;
    uint32_t ntx_pi_ = 0, ntx_ci_ = 0, nrx_pi_ = 0, nrx_ci_ = 0;   // free-running
    std::vector<std::pair<uint64_t, uint32_t>> nrx_bufs_;         // per RX slot: VA, BUF_LEN
    Status dma_addr(uint64_t va, uint64_t len, uint64_t *pa, const char *what) const;

    uint64_t pick(uint64_t n) { return n ? rng_() % n : 0; }
    Status need_fw(const char *what) const;
    Status limit(Status s, const std::string &caps) const;
    Status alloc_slot(uint32_t page, uint32_t *slot);
    // DMA addresses of the 2^page_shift pages under [va, va + len)
    Status dma_pages(uint64_t va, uint64_t len, unsigned page_shift, std::vector<uint64_t> *pages) const;
    // the largest page shift (12..21) the backing of [va, va + len) allows
    unsigned backing_shift(uint64_t va, uint64_t len) const;
    Status check_qp(const Qp *qp, const char *what) const;
    Status check_path(const Path &path) const;
    Status modify(Qp *qp, const QpAttr &a, const char *what);
};

}  // namespace froce_sim
