// SPDX-License-Identifier: MIT
// The driver's command layer: firmware mailbox commands (spec/commands.toml)
// built into and parsed out of the 4 KiB command block, independent of how the
// block reaches the firmware.
//
//   block (host memory, 4 KiB aligned):  MBOX_HDR at 0, input at MBOX_IN_OFF,
//                                        output at MBOX_OUT_OFF
//   Mailbox::exec: header (DONE clear) and input written, then the transport
//   rings CMD_DOORBELL {TOKEN} and waits for DONE; then STATUS, SYNDROME and
//   the output are read back.
//
// Three pieces:
//   * MboxMem: the host memory the layer writes (block, BUF page lists);
//   * MboxTransport: how a block gets to the firmware and how DONE is waited
//     for (NicMboxTransport: BAR0 CMD_* of a simulated froce_core; the native
//     test hands the block to the firmware's fw_mbox_service);
//   * Mailbox: typed commands, BUF descriptors (CONTIG / LIST / LIST2),
//     errors that name the command, the CMD_STATUS and the syndrome's field,
//     and a count of commands and cycles per opcode.
//
// The "driver policy" functions at the end (ring_pages, qp_to_init, ...) are
// what the in-process Host sends for each step, kept here so the native test
// (mbox_selftest.cpp) checks exactly those encodings against the firmware.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "froce_hw.h"
#include "status.h"

namespace froce_sim {

class Nic;

// ---- names -----------------------------------------------------------------

// "CREATE_QP"; an unknown opcode: "opcode 0x1234".
std::string cmd_name(uint16_t opcode);
// "BAD_PARAM"; an unknown value: "status 0x77".
std::string cmd_status_name(uint8_t status);
// Input and output bytes of a command (FROCE_CMD_LIST); false for an unknown opcode.
bool cmd_sizes(uint16_t opcode, uint32_t *in_bytes, uint32_t *out_bytes);
// What a SYNDROME says: "input byte 4 (PDN)", "header byte 4 (IN_LEN)", "block
// address not 4 KiB aligned", "0x0" for a status without a field.
std::string syndrome_str(uint16_t opcode, uint8_t status, uint32_t syndrome);

// ---- what the layer needs from the host -----------------------------------

// Host memory by DMA (physical) address.
class MboxMem {
public:
    virtual ~MboxMem() = default;
    virtual Status dma_write(uint64_t pa, const void *src, size_t n) = 0;
    virtual Status dma_read(uint64_t pa, void *dst, size_t n) = 0;
    // A 4 KiB aligned page for the command block or a page list.
    virtual Status dma_page(uint64_t *pa) = 0;
};

// How a command block reaches the firmware.
class MboxTransport {
public:
    virtual ~MboxTransport() = default;
    // Once, before the first command: wait until the firmware takes
    // commands, tell it the block's address (CMD_ADDR).
    virtual Status start(uint64_t block_pa) = 0;
    // The block holds the header (DONE clear) and the input: ring
    // CMD_DOORBELL {token} and wait until DONE is set in the block (host
    // memory). *cycles: how long it took (device cycles, 0 if not modelled).
    // `what` names the command in error messages ("CREATE_QP token 0x12").
    virtual Status run(uint16_t token, const std::string &what, uint64_t *cycles) = 0;
};

// Waiting bounds of NicMboxTransport (device cycles).
struct MboxTiming {
    // The soft core's boot (fw_init clears every context over the control
    // bus) is about half a million instructions at a CPI near 3 (docs/cpu.md):
    // about 1.5 M cycles. A command is bounded by its own size: REG_MR is
    // linear in the pages (about 87 500 cycles per MiB of 4 KiB pages,
    // docs/performance.md), so froce-perf's SEND receive region at 1 MiB
    // messages and depth 16 (32 slots, 32 MiB) outlasted a 2 M limit (by
    // that rate, about 2.8 M); 20 M leaves room for about 200 MiB (the
    // driver waits 5 s, about 780 M cycles at 156.25 MHz).
    uint64_t ready_cycles = 4000000;   // DEV_STATUS.READY, from start()
    uint64_t cmd_cycles = 20000000;    // DONE after CMD_DOORBELL
    // DONE is read from host memory every this many cycles: a command's
    // cycle count (MboxCmdStats) is exact to this many cycles.
    unsigned poll_cycles = 64;
};

// BAR0 CMD_* of a simulated froce_core: start() waits for DEV_STATUS.READY
// (FATAL: the FATAL_SYNDROME in the error) and writes CMD_ADDR_LO/HI; run()
// writes CMD_DOORBELL {TOKEN} and lets cycles pass (Nic::advance) until DONE
// shows in host memory (backdoor read every poll_cycles), bounded by
// cmd_cycles; a timeout names the command, token, cycles waited and CMD_STATUS.
class NicMboxTransport : public MboxTransport {
public:
    NicMboxTransport(Nic &nic, const MboxTiming &t) : nic_(nic), t_(t) {}
    Status start(uint64_t block_pa) override;
    Status run(uint16_t token, const std::string &what, uint64_t *cycles) override;

private:
    Nic &nic_;
    MboxTiming t_;
    uint64_t block_ = 0;
    bool started_ = false;
};

// ---- command structures (fields as in spec/commands.toml) ------------------

struct FwInfo {
    unsigned major = 0, minor = 0, patch = 0;
    uint32_t spec_hash = 0, build_id = 0;
};

struct FwCaps {
    uint32_t max_qp = 0, max_cq = 0, max_pd = 0, max_mr = 0, max_mtt = 0, max_cqe = 0;
    uint32_t max_qp_wr = 0, max_send_sge = 0, max_recv_sge = 0, max_inline = 0;
    uint32_t max_eq = 0, num_gid = 0, max_qp_rd_atom = 0, max_qp_init_rd_atom = 0;
    uint32_t max_mtu = 0, num_ports = 0, max_msg_sz = 0, page_size_cap = 0, local_dma_lkey = 0, max_uar = 0;
    uint64_t max_mr_size = 0;
};

struct PortInfo {
    unsigned state = 0, active_mtu = 0, max_mtu = 0, speed_gbps = 0;
    uint32_t mtu = 0;   // Ethernet MTU
    uint64_t mac = 0;
};

struct PortSet {
    bool promisc = false, allmulti = false;
    uint32_t mtu = 1500;
    uint64_t mac = 0;
};

struct GidEntry {
    uint32_t index = 0, type = FROCE_GID_TYPE_ROCE_V2;
    bool vlan_en = false, valid = false;   // valid: QUERY_GID only
    uint32_t vlan_id = 0;
    uint64_t smac = 0;
    uint8_t gid[16] = {};
};

// Layout BUF.
struct BufDesc {
    uint64_t addr = 0;
    uint32_t num_pages = 0;
    unsigned page_shift = 12;
    unsigned level = FROCE_BUF_LEVEL_CONTIG;
};

// How Mailbox::make_buf describes a page list: AUTO = CONTIG when the pages
// are physically contiguous (one page included), LIST up to 512 pages, LIST2
// beyond; the others force that level (CONTIG needs contiguous pages).
enum class BufPolicy { AUTO, CONTIG, LIST, LIST2 };

struct CreateQpIn {
    uint32_t type = FROCE_QP_TYPE_RC;
    bool priv = false, sig_all = false;
    uint32_t pdn = 0, send_cqn = 0, recv_cqn = 0, uar = 0;
    unsigned log_sq_size = 0, sq_wqe_shift = FROCE_WQE_SHIFT_MIN, log_rq_size = 0, rq_wqe_shift = FROCE_WQE_SHIFT_MIN;
    BufDesc sq_buf, rq_buf;
};

// Address vector fields of QPATTR (AV_*).
struct AvAttr {
    uint32_t sgid_index = 0, hop_limit = 64, tclass = 0, net_type = FROCE_KIND_ROCE_V2_IPV4;
    bool vlan_en = false;
    uint32_t flow_label = 0, udp_sport = 0, vlan_id = 0;
    uint64_t dmac = 0;
    uint8_t dgid[16] = {};
};

// Layout QPATTR: MODIFY_QP input (the fields `mask` selects, FROCE_QP_ATTR_*)
// and QUERY_QP output.
struct QpAttr {
    uint32_t mask = 0;
    uint32_t state = 0, cur_state = 0, path_mtu = 0;
    bool en_sqd_async_notify = false, sq_draining = false;
    uint32_t access = 0, port = 0, qkey = 0, rq_psn = 0, timeout = 0, sq_psn = 0, retry_cnt = 0, rnr_retry = 0;
    uint32_t dest_qpn = 0, min_rnr_timer = 0, max_rd_atomic = 0, max_dest_rd_atomic = 0, pkey_index = 0;
    AvAttr av;
};

struct RegMrIn {
    uint32_t pdn = 0, access = 0;
    uint64_t iova = 0, length = 0;
    BufDesc pbl;
};

// Commands and device cycles per opcode.
struct MboxCmdStats {
    uint64_t count = 0, failed = 0;   // failed: refused by the firmware
    uint64_t cycles = 0, max_cycles = 0;
};

// ---- the command layer -----------------------------------------------------

class Mailbox {
public:
    // name prefixes every error ("NIC A").
    Mailbox(MboxMem &mem, MboxTransport &t, std::string name = "");
    // Takes a page for the block and starts the transport.
    Status start();
    bool started() const { return started_; }
    uint64_t block_pa() const { return block_; }

    // One command: IN_LEN = in.size() (must fit MBOX_IN_MAX), OUT_LEN =
    // out_len; *out gets out_len bytes of the output area. A refusal is not
    // an error here: *status and *syndrome say what the firmware answered.
    // Errors: the block cannot be written, the transport failed (no DONE).
    Status exec_raw(uint16_t opcode, const std::vector<uint8_t> &in, uint32_t out_len, std::vector<uint8_t> *out,
                    uint8_t *status, uint32_t *syndrome);
    // The command with its own input and output sizes (cmd_sizes); in is
    // padded with zeros. A status other than OK is an error naming the
    // command, the status and the syndrome.
    Status exec(uint16_t opcode, const std::vector<uint8_t> &in, std::vector<uint8_t> *out);
    // STATUS and SYNDROME of the last command that reached the firmware.
    uint8_t last_status() const { return last_status_; }
    uint32_t last_syndrome() const { return last_syndrome_; }
    // Token the next command carries (tests: a header token differing from
    // the doorbell's is another matter, see exec_raw_token).
    uint16_t next_token() const { return token_; }
    // exec_raw with the header's TOKEN = doorbell token + hdr_token_delta.
    Status exec_raw_token(uint16_t opcode, const std::vector<uint8_t> &in, uint32_t out_len,
                          std::vector<uint8_t> *out, uint8_t *status, uint32_t *syndrome, int hdr_token_delta);

    // BUF descriptor of pages[] (DMA addresses of 2^page_shift pages, in
    // order). LIST and LIST2 write the lists into pages the Mailbox keeps
    // (reused from one command to the next, so a BUF is valid until the
    // next command has run).
    Status make_buf(const std::vector<uint64_t> &pages, unsigned page_shift, BufPolicy policy, BufDesc *out);

    // typed commands
    Status nop();
    Status query_fw(FwInfo *out);
    Status query_caps(FwCaps *out);
    Status query_port(PortInfo *out);
    Status set_port(const PortSet &p);
    Status add_gid(const GidEntry &g);
    Status del_gid(uint32_t index);
    Status query_gid(uint32_t index, GidEntry *out);
    Status alloc_pd(uint32_t uar, uint32_t *pdn);
    Status dealloc_pd(uint32_t pdn);
    Status create_eq(const BufDesc &ring, unsigned log_size, unsigned vector, uint32_t *eqn);
    Status destroy_eq(uint32_t eqn);
    Status create_cq(const BufDesc &ring, unsigned log_size, uint32_t eqn, uint32_t uar, uint32_t *cqn);
    Status destroy_cq(uint32_t cqn);
    Status create_qp(const CreateQpIn &in, uint32_t *qpn);
    Status modify_qp(uint32_t qpn, const QpAttr &a);
    Status query_qp(uint32_t qpn, QpAttr *out);
    Status destroy_qp(uint32_t qpn);
    Status reg_mr(const RegMrIn &in, uint32_t *lkey, uint32_t *rkey);
    Status dereg_mr(uint32_t lkey);
    // FROCE_CNT_NUM counters since the last CLEAR (the engine keeps counting).
    Status query_counters(bool clear, std::vector<uint64_t> *out);

    const std::map<uint16_t, MboxCmdStats> &stats() const { return stats_; }
    // One line per opcode used: count, refused, cycles total / mean / max.
    std::string stats_str() const;

    // encoders (exposed for tests; each checks that every value fits its field)
    static Status encode_create_qp(const CreateQpIn &in, std::vector<uint8_t> *img);
    static Status encode_modify_qp(uint32_t qpn, const QpAttr &a, std::vector<uint8_t> *img);
    static void decode_query_qp(const uint8_t *out, QpAttr *a);

private:
    MboxMem &mem_;
    MboxTransport &t_;
    std::string name_;
    bool started_ = false;
    uint64_t block_ = 0;
    uint16_t token_ = 1;
    uint8_t last_status_ = 0;
    uint32_t last_syndrome_ = 0;
    std::vector<uint64_t> list_pages_;   // pages for BUF lists, reused
    size_t list_used_ = 0;               // taken since the last command
    std::map<uint16_t, MboxCmdStats> stats_;

    std::string prefix() const { return name_.empty() ? std::string() : name_ + ": "; }
    Status list_page(uint64_t *pa);
    Status run(uint16_t opcode, const std::vector<uint8_t> &in, std::vector<uint8_t> *out);
};

// ---- driver policy: what Host sends -----------------------------------------

// 4 KiB ring pages for `bytes` of ring (at least one): BUF.NUM_PAGES.
uint32_t ring_pages(uint64_t bytes);

// MODIFY_QP attributes of each step of Host (mask included). The masks are
// the IB ones the firmware enforces: RESET/INIT -> INIT with PKEY_INDEX 0,
// PORT 1 and ACCESS_FLAGS (RC) or QKEY (UD, GSI).
QpAttr qp_to_init(uint32_t qp_type, uint32_t access, uint32_t qkey);
QpAttr qp_rc_to_rtr(const AvAttr &av, uint32_t path_mtu, uint32_t dest_qpn, uint32_t rq_psn, uint32_t min_rnr_timer,
                    uint32_t max_dest_rd_atomic);
QpAttr qp_rc_to_rts(uint32_t sq_psn, uint32_t timeout, uint32_t retry_cnt, uint32_t rnr_retry, uint32_t max_rd_atomic);
// UD: INIT -> RTR takes no attribute (the port's MTU), RTR -> RTS the SQ PSN.
QpAttr qp_ud_to_rtr();
QpAttr qp_ud_to_rts(uint32_t sq_psn);
// STATE only (ERR, RESET, SQD, ...).
QpAttr qp_to_state(uint32_t state);
// The ib_mtu enum the firmware gives a UD QP for an Ethernet MTU (iboe_get_mtu).
uint32_t ib_mtu_of_eth(uint32_t eth_mtu);
// The Ethernet MTU whose ib_mtu is exactly mtu_enum (256 + 96 ... 4096 + 96).
uint32_t eth_mtu_for(uint32_t mtu_enum);

}  // namespace froce_sim
