// SPDX-License-Identifier: MIT
// The driver's command layer (transport independent); see mailbox.h.
#include "mailbox.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "hwfield.h"

namespace froce_sim {

namespace {

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
std::string strf(const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

// ---- syndrome decoding: where each input field starts ----------------------

struct FieldPos {
    uint16_t opcode;
    uint16_t off;         // byte offset the firmware reports (4 DW + SHIFT / 8, 8 QW + SHIFT / 8, BYTE)
    uint16_t first_dw, last_dw;   // input dwords the field occupies
    const char *name;
};

#define OFF_DW_(F) (4u * F##_DW + F##_SHIFT / 8u)
#define OFF_QW_(F) (8u * F##_QW + F##_SHIFT / 8u)
#define FDW(C, F) {FROCE_CMD_##C, OFF_DW_(FROCE_CMD_##C##_IN_##F), FROCE_CMD_##C##_IN_##F##_DW, \
                   FROCE_CMD_##C##_IN_##F##_DW, #F}
#define FQW(C, F) {FROCE_CMD_##C, OFF_QW_(FROCE_CMD_##C##_IN_##F), 2 * FROCE_CMD_##C##_IN_##F##_QW, \
                   2 * FROCE_CMD_##C##_IN_##F##_QW + 1, #F}
#define FBYTE(C, F) {FROCE_CMD_##C, FROCE_CMD_##C##_IN_##F##_BYTE, FROCE_CMD_##C##_IN_##F##_BYTE / 4, \
                     (FROCE_CMD_##C##_IN_##F##_BYTE + FROCE_CMD_##C##_IN_##F##_BYTES - 1) / 4, #F}
#define FDW_HDR(F) {0, OFF_DW_(FROCE_MBOX_HDR_##F), FROCE_MBOX_HDR_##F##_DW, FROCE_MBOX_HDR_##F##_DW, #F}

const FieldPos kInFields[] = {
    FDW(QUERY_PORT, PORT),
    FDW(SET_PORT, PORT),
    FDW(SET_PORT, PROMISC),
    FDW(SET_PORT, ALLMULTI),
    FDW(SET_PORT, MTU),
    FQW(SET_PORT, MAC),
    FDW(ADD_GID, INDEX),
    FDW(ADD_GID, TYPE),
    FDW(ADD_GID, VLAN_EN),
    FDW(ADD_GID, VLAN_ID),
    FDW(ADD_GID, VALID),
    FQW(ADD_GID, SMAC),
    FBYTE(ADD_GID, GID),
    FDW(DEL_GID, INDEX),
    FDW(QUERY_GID, INDEX),
    FDW(ALLOC_PD, UAR),
    FDW(DEALLOC_PD, PDN),
    FQW(CREATE_EQ, BUF_ADDR),
    FDW(CREATE_EQ, BUF_NUM_PAGES),
    FDW(CREATE_EQ, BUF_PAGE_SHIFT),
    FDW(CREATE_EQ, BUF_LEVEL),
    FDW(CREATE_EQ, LOG_SIZE),
    FDW(CREATE_EQ, VECTOR),
    FDW(DESTROY_EQ, EQN),
    FQW(CREATE_CQ, BUF_ADDR),
    FDW(CREATE_CQ, BUF_NUM_PAGES),
    FDW(CREATE_CQ, BUF_PAGE_SHIFT),
    FDW(CREATE_CQ, BUF_LEVEL),
    FDW(CREATE_CQ, LOG_SIZE),
    FDW(CREATE_CQ, EQN),
    FDW(CREATE_CQ, UAR),
    FDW(DESTROY_CQ, CQN),
    FDW(CREATE_QP, TYPE),
    FDW(CREATE_QP, PRIV),
    FDW(CREATE_QP, SIG_ALL),
    FDW(CREATE_QP, PDN),
    FDW(CREATE_QP, SEND_CQN),
    FDW(CREATE_QP, RECV_CQN),
    FDW(CREATE_QP, UAR),
    FDW(CREATE_QP, LOG_SQ_SIZE),
    FDW(CREATE_QP, SQ_WQE_SHIFT),
    FDW(CREATE_QP, LOG_RQ_SIZE),
    FDW(CREATE_QP, RQ_WQE_SHIFT),
    FQW(CREATE_QP, SQ_BUF_ADDR),
    FDW(CREATE_QP, SQ_BUF_NUM_PAGES),
    FDW(CREATE_QP, SQ_BUF_PAGE_SHIFT),
    FDW(CREATE_QP, SQ_BUF_LEVEL),
    FQW(CREATE_QP, RQ_BUF_ADDR),
    FDW(CREATE_QP, RQ_BUF_NUM_PAGES),
    FDW(CREATE_QP, RQ_BUF_PAGE_SHIFT),
    FDW(CREATE_QP, RQ_BUF_LEVEL),
    FDW(MODIFY_QP, QPN),
    FDW(MODIFY_QP, ATTR_MASK),
    FDW(MODIFY_QP, STATE),
    FDW(MODIFY_QP, CUR_STATE),
    FDW(MODIFY_QP, PATH_MTU),
    FDW(MODIFY_QP, EN_SQD_ASYNC_NOTIFY),
    FDW(MODIFY_QP, SQ_DRAINING),
    FDW(MODIFY_QP, ACCESS_FLAGS),
    FDW(MODIFY_QP, PORT),
    FDW(MODIFY_QP, QKEY),
    FDW(MODIFY_QP, RQ_PSN),
    FDW(MODIFY_QP, TIMEOUT),
    FDW(MODIFY_QP, SQ_PSN),
    FDW(MODIFY_QP, RETRY_CNT),
    FDW(MODIFY_QP, RNR_RETRY),
    FDW(MODIFY_QP, DEST_QPN),
    FDW(MODIFY_QP, MIN_RNR_TIMER),
    FDW(MODIFY_QP, MAX_RD_ATOMIC),
    FDW(MODIFY_QP, MAX_DEST_RD_ATOMIC),
    FDW(MODIFY_QP, PKEY_INDEX),
    FDW(MODIFY_QP, AV_SGID_INDEX),
    FDW(MODIFY_QP, AV_HOP_LIMIT),
    FDW(MODIFY_QP, AV_TCLASS),
    FDW(MODIFY_QP, AV_NET_TYPE),
    FDW(MODIFY_QP, AV_VLAN_EN),
    FDW(MODIFY_QP, AV_FLOW_LABEL),
    FDW(MODIFY_QP, AV_UDP_SPORT),
    FDW(MODIFY_QP, AV_VLAN_ID),
    FQW(MODIFY_QP, AV_DMAC),
    FBYTE(MODIFY_QP, AV_DGID),
    FDW(QUERY_QP, QPN),
    FDW(DESTROY_QP, QPN),
    FDW(REG_MR, PDN),
    FDW(REG_MR, ACCESS),
    FQW(REG_MR, IOVA),
    FQW(REG_MR, LENGTH),
    FQW(REG_MR, PBL_ADDR),
    FDW(REG_MR, PBL_NUM_PAGES),
    FDW(REG_MR, PBL_PAGE_SHIFT),
    FDW(REG_MR, PBL_LEVEL),
    FDW(DEREG_MR, LKEY),
    FDW(QUERY_COUNTERS, CLEAR),
};

const FieldPos kHdrFields[] = {
    FDW_HDR(OPCODE), FDW_HDR(TOKEN), FDW_HDR(IN_LEN), FDW_HDR(OUT_LEN), FDW_HDR(SYNDROME), FDW_HDR(STATUS),
};

// "NAME" or "A/B" of the fields at byte `off`; else those in its dword.
std::string fields_at(const FieldPos *tab, size_t n, uint16_t opcode, bool any_opcode, uint32_t off) {
    std::string at, in_dw;
    for (size_t i = 0; i < n; i++) {
        const FieldPos &f = tab[i];
        if (!any_opcode && f.opcode != opcode) continue;
        if (f.off == off) at += (at.empty() ? "" : "/") + std::string(f.name);
        if (off / 4 >= f.first_dw && off / 4 <= f.last_dw) in_dw += (in_dw.empty() ? "" : ", ") + std::string(f.name);
    }
    if (!at.empty()) return at;
    if (!in_dw.empty()) return "reserved bits in the dword of " + in_dw;
    return strf("dword %u, no field in it", off / 4);
}

// ---- field encoding with a range check --------------------------------------

struct Enc {
    uint8_t *img;
    std::string err;
    void dw(unsigned dw, uint32_t mask, unsigned shift, uint64_t v, const char *name) {
        const uint64_t max = uint64_t(mask) >> shift;
        if (v > max) {
            if (err.empty()) err = strf("%s = %#" PRIx64 " does not fit (at most %#" PRIx64 ")", name, v, max);
            return;
        }
        field_set32(img, dw, mask, shift, v);
    }
    void qw(unsigned qw, uint64_t mask, unsigned shift, uint64_t v, const char *name) {
        const uint64_t max = mask >> shift;
        if (v > max) {
            if (err.empty()) err = strf("%s = %#" PRIx64 " does not fit (at most %#" PRIx64 ")", name, v, max);
            return;
        }
        field_set64(img, qw, mask, shift, v);
    }
};
#define E_DW(e, L, F, v) (e).dw(FROCE_CMD_##L##_##F##_DW, FROCE_CMD_##L##_##F##_MASK, FROCE_CMD_##L##_##F##_SHIFT, (v), #F)
#define E_QW(e, L, F, v) (e).qw(FROCE_CMD_##L##_##F##_QW, FROCE_CMD_##L##_##F##_MASK, FROCE_CMD_##L##_##F##_SHIFT, (v), #F)
#define D_DW(img, L, F) FGET_DW(img, FROCE_CMD_##L##_##F)
#define D_QW(img, L, F) FGET_QW(img, FROCE_CMD_##L##_##F)

// A BUF at byte `off` of an input image.
void enc_buf(Enc &e, uint32_t off, const BufDesc &b, const char *what) {
    Enc s{e.img + off, ""};
    s.qw(FROCE_BUF_ADDR_QW, FROCE_BUF_ADDR_MASK, FROCE_BUF_ADDR_SHIFT, b.addr, "ADDR");
    s.dw(FROCE_BUF_NUM_PAGES_DW, FROCE_BUF_NUM_PAGES_MASK, FROCE_BUF_NUM_PAGES_SHIFT, b.num_pages, "NUM_PAGES");
    s.dw(FROCE_BUF_PAGE_SHIFT_DW, FROCE_BUF_PAGE_SHIFT_MASK, FROCE_BUF_PAGE_SHIFT_SHIFT, b.page_shift, "PAGE_SHIFT");
    s.dw(FROCE_BUF_LEVEL_DW, FROCE_BUF_LEVEL_MASK, FROCE_BUF_LEVEL_SHIFT, b.level, "LEVEL");
    if (!s.err.empty() && e.err.empty()) e.err = std::string(what) + "." + s.err;
}

}  // namespace

// ---------------------------------------------------------------------------
// names

std::string cmd_name(uint16_t opcode) {
#define NAME(n, op, in, out) \
    if (opcode == (op)) return #n;
    FROCE_CMD_LIST(NAME)
#undef NAME
    return strf("opcode %#06x", opcode);
}

std::string cmd_status_name(uint8_t status) {
#define NAME(n, v, errno_) \
    if (status == (v)) return #n;
    FROCE_CMD_STATUS_LIST(NAME)
#undef NAME
    return strf("status %#04x", status);
}

bool cmd_sizes(uint16_t opcode, uint32_t *in_bytes, uint32_t *out_bytes) {
#define SZ(n, op, in, out)       \
    if (opcode == (op)) {        \
        *in_bytes = (in);        \
        *out_bytes = (out);      \
        return true;             \
    }
    FROCE_CMD_LIST(SZ)
#undef SZ
    *in_bytes = *out_bytes = 0;
    return false;
}

std::string syndrome_str(uint16_t opcode, uint8_t status, uint32_t syndrome) {
    if (syndrome == (0x80000000u | 0xFFFu)) return "CMD_ADDR not 4 KiB aligned";
    if (syndrome & 0x80000000u) {
        const uint32_t off = syndrome & 0xFFFu;
        return strf("header byte %u (%s)", off,
                    fields_at(kHdrFields, sizeof kHdrFields / sizeof kHdrFields[0], 0, true, off).c_str());
    }
    switch (status) {
    case FROCE_CMD_STATUS_BAD_PARAM:
    case FROCE_CMD_STATUS_BAD_RESOURCE:
    case FROCE_CMD_STATUS_RESOURCE_BUSY:
    case FROCE_CMD_STATUS_BAD_RES_STATE:
    case FROCE_CMD_STATUS_BAD_INDEX:
    case FROCE_CMD_STATUS_BAD_QP_STATE:
        return strf("input byte %u (%s)", syndrome,
                    fields_at(kInFields, sizeof kInFields / sizeof kInFields[0], opcode, false, syndrome).c_str());
    default:
        if (syndrome == 0) return "0";
        return strf("%#x (input byte %u: %s)", syndrome, syndrome,
                    fields_at(kInFields, sizeof kInFields / sizeof kInFields[0], opcode, false, syndrome).c_str());
    }
}

// ---------------------------------------------------------------------------
// driver policy

uint32_t ring_pages(uint64_t bytes) {
    const uint64_t n = (bytes + 4095) >> 12;
    return n ? uint32_t(n) : 1;
}

QpAttr qp_to_init(uint32_t qp_type, uint32_t access, uint32_t qkey) {
    QpAttr a;
    a.state = FROCE_QP_STATE_INIT;
    a.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_PKEY_INDEX | FROCE_QP_ATTR_PORT;
    a.pkey_index = 0;
    a.port = 1;
    if (qp_type == FROCE_QP_TYPE_RC || qp_type == FROCE_QP_TYPE_UC) {
        a.mask |= FROCE_QP_ATTR_ACCESS_FLAGS;
        a.access = access;
    } else {
        a.mask |= FROCE_QP_ATTR_QKEY;
        a.qkey = qkey;
    }
    return a;
}

QpAttr qp_rc_to_rtr(const AvAttr &av, uint32_t path_mtu, uint32_t dest_qpn, uint32_t rq_psn, uint32_t min_rnr_timer,
                    uint32_t max_dest_rd_atomic) {
    QpAttr a;
    a.state = FROCE_QP_STATE_RTR;
    a.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_AV | FROCE_QP_ATTR_PATH_MTU | FROCE_QP_ATTR_DEST_QPN |
             FROCE_QP_ATTR_RQ_PSN | FROCE_QP_ATTR_MAX_DEST_RD_ATOMIC | FROCE_QP_ATTR_MIN_RNR_TIMER;
    a.av = av;
    a.path_mtu = path_mtu;
    a.dest_qpn = dest_qpn;
    a.rq_psn = rq_psn;
    a.min_rnr_timer = min_rnr_timer;
    a.max_dest_rd_atomic = max_dest_rd_atomic;
    return a;
}

QpAttr qp_rc_to_rts(uint32_t sq_psn, uint32_t timeout, uint32_t retry_cnt, uint32_t rnr_retry, uint32_t max_rd_atomic) {
    QpAttr a;
    a.state = FROCE_QP_STATE_RTS;
    a.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_TIMEOUT | FROCE_QP_ATTR_RETRY_CNT | FROCE_QP_ATTR_RNR_RETRY |
             FROCE_QP_ATTR_SQ_PSN | FROCE_QP_ATTR_MAX_QP_RD_ATOMIC;
    a.sq_psn = sq_psn;
    a.timeout = timeout;
    a.retry_cnt = retry_cnt;
    a.rnr_retry = rnr_retry;
    a.max_rd_atomic = max_rd_atomic;
    return a;
}

QpAttr qp_ud_to_rtr() { return qp_to_state(FROCE_QP_STATE_RTR); }

QpAttr qp_ud_to_rts(uint32_t sq_psn) {
    QpAttr a;
    a.state = FROCE_QP_STATE_RTS;
    a.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_SQ_PSN;
    a.sq_psn = sq_psn;
    return a;
}

QpAttr qp_to_state(uint32_t state) {
    QpAttr a;
    a.state = state;
    a.mask = FROCE_QP_ATTR_STATE;
    return a;
}

uint32_t ib_mtu_of_eth(uint32_t eth_mtu) {
    const uint32_t room = eth_mtu > 96 ? eth_mtu - 96 : 0;
    if (room >= 4096) return FROCE_MTU_4096;
    if (room >= 2048) return FROCE_MTU_2048;
    if (room >= 1024) return FROCE_MTU_1024;
    return room >= 512 ? FROCE_MTU_512 : FROCE_MTU_256;
}

uint32_t eth_mtu_for(uint32_t mtu_enum) { return (128u << mtu_enum) + 96; }

// ---------------------------------------------------------------------------
// Mailbox

Mailbox::Mailbox(MboxMem &mem, MboxTransport &t, std::string name) : mem_(mem), t_(t), name_(std::move(name)) {}

Status Mailbox::start() {
    if (started_) return Status();
    FROCE_TRY(mem_.dma_page(&block_).context("mailbox: command block"));
    if (block_ & (FROCE_MBOX_SIZE - 1))
        return errorf("%smailbox: command block at %#" PRIx64 " is not 4 KiB aligned", prefix().c_str(), block_);
    std::vector<uint8_t> zero(FROCE_MBOX_SIZE, 0);
    FROCE_TRY(mem_.dma_write(block_, zero.data(), zero.size()).context("mailbox"));
    FROCE_TRY(t_.start(block_).context("mailbox"));
    started_ = true;
    return Status();
}

Status Mailbox::exec_raw(uint16_t opcode, const std::vector<uint8_t> &in, uint32_t out_len, std::vector<uint8_t> *out,
                         uint8_t *status, uint32_t *syndrome) {
    return exec_raw_token(opcode, in, out_len, out, status, syndrome, 0);
}

Status Mailbox::exec_raw_token(uint16_t opcode, const std::vector<uint8_t> &in, uint32_t out_len,
                               std::vector<uint8_t> *out, uint8_t *status, uint32_t *syndrome, int hdr_token_delta) {
    const std::string what = cmd_name(opcode);
    if (!started_) return errorf("%s%s: the mailbox is not started (fw_init)", prefix().c_str(), what.c_str());
    if (in.size() > FROCE_MBOX_IN_MAX || out_len > FROCE_MBOX_OUT_MAX)
        return errorf("%s%s: %zu input / %u output bytes exceed the block (%u / %u)", prefix().c_str(), what.c_str(),
                      in.size(), out_len, unsigned(FROCE_MBOX_IN_MAX), unsigned(FROCE_MBOX_OUT_MAX));
    const uint16_t token = token_++;
    uint8_t hdr[FROCE_MBOX_HDR_SIZE] = {};
    FSET_DW(hdr, FROCE_MBOX_HDR_OPCODE, opcode);
    FSET_DW(hdr, FROCE_MBOX_HDR_TOKEN, uint16_t(token + hdr_token_delta));
    FSET_DW(hdr, FROCE_MBOX_HDR_IN_LEN, in.size());
    FSET_DW(hdr, FROCE_MBOX_HDR_OUT_LEN, out_len);
    // SYNDROME, STATUS and DONE are the firmware's; DONE starts clear
    if (!in.empty()) FROCE_TRY(mem_.dma_write(block_ + FROCE_MBOX_IN_OFF, in.data(), in.size()).context(prefix() + what));
    FROCE_TRY(mem_.dma_write(block_, hdr, sizeof hdr).context(prefix() + what));
    uint64_t cycles = 0;
    const std::string tag = strf("%s token %#x", what.c_str(), token);
    Status s = t_.run(token, tag, &cycles);
    list_used_ = 0;   // the firmware is done with the page lists
    MboxCmdStats &st = stats_[opcode];
    st.count++;
    st.cycles += cycles;
    st.max_cycles = std::max(st.max_cycles, cycles);
    if (!s.ok()) return s.context("mailbox");
    uint8_t back[FROCE_MBOX_HDR_SIZE];
    FROCE_TRY(mem_.dma_read(block_, back, sizeof back).context(prefix() + what));
    if (!FGET_DW(back, FROCE_MBOX_HDR_DONE))
        return errorf("%s%s: the transport returned but DONE is clear in the block", prefix().c_str(), tag.c_str());
    last_status_ = uint8_t(FGET_DW(back, FROCE_MBOX_HDR_STATUS));
    last_syndrome_ = FGET_DW(back, FROCE_MBOX_HDR_SYNDROME);
    if (last_status_ != FROCE_CMD_STATUS_OK) st.failed++;
    if (status) *status = last_status_;
    if (syndrome) *syndrome = last_syndrome_;
    if (out) {
        out->assign(out_len, 0);
        if (out_len) FROCE_TRY(mem_.dma_read(block_ + FROCE_MBOX_OUT_OFF, out->data(), out_len).context(prefix() + what));
    }
    return Status();
}

Status Mailbox::run(uint16_t opcode, const std::vector<uint8_t> &in, std::vector<uint8_t> *out) {
    uint32_t in_size = 0, out_size = 0;
    if (!cmd_sizes(opcode, &in_size, &out_size))
        return errorf("%s%s: not a command of spec/commands.toml", prefix().c_str(), cmd_name(opcode).c_str());
    if (in.size() > in_size)
        return errorf("%s%s: %zu input bytes, the command has %u", prefix().c_str(), cmd_name(opcode).c_str(),
                      in.size(), in_size);
    std::vector<uint8_t> pad(in);
    pad.resize(in_size, 0);
    uint8_t status = 0;
    uint32_t syn = 0;
    FROCE_TRY(exec_raw(opcode, pad, out_size, out, &status, &syn));
    if (status == FROCE_CMD_STATUS_OK) return Status();
    const std::string syn_s = syndrome_str(opcode, status, syn);
    if (syn_s == "0")   // a status without a field (EXCEED_LIM, INTERNAL_ERR)
        return errorf("%s%s: %s", prefix().c_str(), cmd_name(opcode).c_str(), cmd_status_name(status).c_str());
    return errorf("%s%s: %s, syndrome %#x: %s", prefix().c_str(), cmd_name(opcode).c_str(),
                  cmd_status_name(status).c_str(), syn, syn_s.c_str());
}

Status Mailbox::exec(uint16_t opcode, const std::vector<uint8_t> &in, std::vector<uint8_t> *out) {
    return run(opcode, in, out);
}

std::string Mailbox::stats_str() const {
    std::string s;
    for (const auto &kv : stats_) {
        const MboxCmdStats &c = kv.second;
        s += strf("%-16s %6" PRIu64 " commands %4" PRIu64 " refused  cycles %10" PRIu64 " total %8" PRIu64
                  " mean %8" PRIu64 " max\n",
                  cmd_name(kv.first).c_str(), c.count, c.failed, c.cycles, c.count ? c.cycles / c.count : 0,
                  c.max_cycles);
    }
    return s;
}

Status Mailbox::list_page(uint64_t *pa) {
    if (list_used_ < list_pages_.size()) {
        *pa = list_pages_[list_used_++];
        return Status();
    }
    FROCE_TRY(mem_.dma_page(pa).context(prefix() + "page list"));
    if (*pa & 0xFFF) return errorf("%spage list page %#" PRIx64 " is not 4 KiB aligned", prefix().c_str(), *pa);
    list_pages_.push_back(*pa);
    list_used_++;
    return Status();
}

Status Mailbox::make_buf(const std::vector<uint64_t> &pages, unsigned page_shift, BufPolicy policy, BufDesc *out) {
    if (!out) return errorf("make_buf: null output");
    if (pages.empty()) return errorf("make_buf: no pages");
    if (page_shift < 12 || page_shift > 30) return errorf("make_buf: page shift %u outside 12..30", page_shift);
    const uint64_t psize = uint64_t(1) << page_shift;
    bool contig = true;
    for (size_t i = 0; i < pages.size() && contig; i++) contig = pages[i] == pages[0] + i * psize;
    const size_t n = pages.size();
    const size_t per = FROCE_BUF_LIST_ENTRIES;
    unsigned level;
    switch (policy) {
    case BufPolicy::CONTIG: level = FROCE_BUF_LEVEL_CONTIG; break;
    case BufPolicy::LIST: level = FROCE_BUF_LEVEL_LIST; break;
    case BufPolicy::LIST2: level = FROCE_BUF_LEVEL_LIST2; break;
    default: level = contig ? FROCE_BUF_LEVEL_CONTIG : n <= per ? FROCE_BUF_LEVEL_LIST : FROCE_BUF_LEVEL_LIST2;
    }
    if (level == FROCE_BUF_LEVEL_CONTIG && !contig)
        return errorf("make_buf: CONTIG asked for %zu pages that are not physically contiguous", n);
    if (level == FROCE_BUF_LEVEL_LIST && n > per) return errorf("make_buf: %zu pages do not fit one LIST page", n);
    if (n > per * per) return errorf("make_buf: %zu pages exceed a LIST2 (%zu)", n, per * per);
    out->num_pages = uint32_t(n);
    out->page_shift = page_shift;
    out->level = level;
    if (level == FROCE_BUF_LEVEL_CONTIG) {
        out->addr = pages[0];
        return Status();
    }
    auto write_list = [&](uint64_t list, size_t first, size_t count) -> Status {
        std::vector<uint8_t> b(8 * count);
        for (size_t i = 0; i < count; i++) st64(&b[8 * i], pages[first + i]);
        return mem_.dma_write(list, b.data(), b.size()).context(prefix() + "page list");
    };
    if (level == FROCE_BUF_LEVEL_LIST) {
        FROCE_TRY(list_page(&out->addr));
        return write_list(out->addr, 0, n);
    }
    uint64_t top;
    FROCE_TRY(list_page(&top));
    std::vector<uint8_t> ptrs;
    for (size_t first = 0; first < n; first += per) {
        uint64_t list;
        FROCE_TRY(list_page(&list));
        FROCE_TRY(write_list(list, first, std::min(per, n - first)));
        uint8_t p[8];
        st64(p, list);
        ptrs.insert(ptrs.end(), p, p + 8);
    }
    FROCE_TRY(mem_.dma_write(top, ptrs.data(), ptrs.size()).context(prefix() + "page list"));
    out->addr = top;
    return Status();
}

// ---------------------------------------------------------------------------
// typed commands

Status Mailbox::nop() { return run(FROCE_CMD_NOP, {}, nullptr); }

Status Mailbox::query_fw(FwInfo *o) {
    std::vector<uint8_t> out;
    FROCE_TRY(run(FROCE_CMD_QUERY_FW, {}, &out));
    const uint8_t *p = out.data();
    o->major = D_DW(p, QUERY_FW_OUT, VER_MAJOR);
    o->minor = D_DW(p, QUERY_FW_OUT, VER_MINOR);
    o->patch = D_DW(p, QUERY_FW_OUT, VER_PATCH);
    o->spec_hash = D_DW(p, QUERY_FW_OUT, SPEC_HASH);
    o->build_id = D_DW(p, QUERY_FW_OUT, BUILD_ID);
    return Status();
}

Status Mailbox::query_caps(FwCaps *o) {
    std::vector<uint8_t> out;
    FROCE_TRY(run(FROCE_CMD_QUERY_CAPS, {}, &out));
    const uint8_t *p = out.data();
#define CAP(f, F) o->f = D_DW(p, QUERY_CAPS_OUT, F);
    CAP(max_qp, MAX_QP) CAP(max_cq, MAX_CQ) CAP(max_pd, MAX_PD) CAP(max_mr, MAX_MR) CAP(max_mtt, MAX_MTT)
    CAP(max_cqe, MAX_CQE) CAP(max_qp_wr, MAX_QP_WR) CAP(max_send_sge, MAX_SEND_SGE) CAP(max_recv_sge, MAX_RECV_SGE)
    CAP(max_inline, MAX_INLINE) CAP(max_eq, MAX_EQ) CAP(num_gid, NUM_GID) CAP(max_qp_rd_atom, MAX_QP_RD_ATOM)
    CAP(max_qp_init_rd_atom, MAX_QP_INIT_RD_ATOM) CAP(max_mtu, MAX_MTU) CAP(num_ports, NUM_PORTS)
    CAP(max_msg_sz, MAX_MSG_SZ) CAP(page_size_cap, PAGE_SIZE_CAP) CAP(local_dma_lkey, LOCAL_DMA_LKEY)
    CAP(max_uar, MAX_UAR)
#undef CAP
    o->max_mr_size = D_QW(p, QUERY_CAPS_OUT, MAX_MR_SIZE);
    return Status();
}

Status Mailbox::query_port(PortInfo *o) {
    std::vector<uint8_t> in(FROCE_CMD_QUERY_PORT_IN_SIZE, 0), out;
    FSET_DW(in.data(), FROCE_CMD_QUERY_PORT_IN_PORT, 1);
    FROCE_TRY(run(FROCE_CMD_QUERY_PORT, in, &out));
    const uint8_t *p = out.data();
    o->state = D_DW(p, QUERY_PORT_OUT, STATE);
    o->active_mtu = D_DW(p, QUERY_PORT_OUT, ACTIVE_MTU);
    o->max_mtu = D_DW(p, QUERY_PORT_OUT, MAX_MTU);
    o->speed_gbps = D_DW(p, QUERY_PORT_OUT, SPEED_GBPS);
    o->mtu = D_DW(p, QUERY_PORT_OUT, MTU);
    o->mac = D_QW(p, QUERY_PORT_OUT, MAC);
    return Status();
}

Status Mailbox::set_port(const PortSet &ps) {
    std::vector<uint8_t> in(FROCE_CMD_SET_PORT_IN_SIZE, 0);
    Enc e{in.data(), ""};
    E_DW(e, SET_PORT_IN, PORT, 1);
    E_DW(e, SET_PORT_IN, PROMISC, ps.promisc);
    E_DW(e, SET_PORT_IN, ALLMULTI, ps.allmulti);
    E_DW(e, SET_PORT_IN, MTU, ps.mtu);
    E_QW(e, SET_PORT_IN, MAC, ps.mac);
    if (!e.err.empty()) return errorf("%sSET_PORT: %s", prefix().c_str(), e.err.c_str());
    return run(FROCE_CMD_SET_PORT, in, nullptr);
}

Status Mailbox::add_gid(const GidEntry &g) {
    std::vector<uint8_t> in(FROCE_CMD_ADD_GID_IN_SIZE, 0);
    Enc e{in.data(), ""};
    E_DW(e, ADD_GID_IN, INDEX, g.index);
    E_DW(e, ADD_GID_IN, TYPE, g.type);
    E_DW(e, ADD_GID_IN, VLAN_EN, g.vlan_en);
    E_DW(e, ADD_GID_IN, VLAN_ID, g.vlan_id);
    E_QW(e, ADD_GID_IN, SMAC, g.smac);
    if (!e.err.empty()) return errorf("%sADD_GID: %s", prefix().c_str(), e.err.c_str());
    std::memcpy(&in[FROCE_CMD_ADD_GID_IN_GID_BYTE], g.gid, FROCE_CMD_ADD_GID_IN_GID_BYTES);
    return run(FROCE_CMD_ADD_GID, in, nullptr);
}

Status Mailbox::del_gid(uint32_t index) {
    std::vector<uint8_t> in(FROCE_CMD_DEL_GID_IN_SIZE, 0);
    Enc e{in.data(), ""};
    E_DW(e, DEL_GID_IN, INDEX, index);
    if (!e.err.empty()) return errorf("%sDEL_GID: %s", prefix().c_str(), e.err.c_str());
    return run(FROCE_CMD_DEL_GID, in, nullptr);
}

Status Mailbox::query_gid(uint32_t index, GidEntry *o) {
    std::vector<uint8_t> in(FROCE_CMD_QUERY_GID_IN_SIZE, 0), out;
    Enc e{in.data(), ""};
    E_DW(e, QUERY_GID_IN, INDEX, index);
    if (!e.err.empty()) return errorf("%sQUERY_GID: %s", prefix().c_str(), e.err.c_str());
    FROCE_TRY(run(FROCE_CMD_QUERY_GID, in, &out));
    const uint8_t *p = out.data();
    o->index = D_DW(p, QUERY_GID_OUT, INDEX);
    o->type = D_DW(p, QUERY_GID_OUT, TYPE);
    o->vlan_en = D_DW(p, QUERY_GID_OUT, VLAN_EN);
    o->vlan_id = D_DW(p, QUERY_GID_OUT, VLAN_ID);
    o->valid = D_DW(p, QUERY_GID_OUT, VALID);
    o->smac = D_QW(p, QUERY_GID_OUT, SMAC);
    std::memcpy(o->gid, p + FROCE_CMD_QUERY_GID_OUT_GID_BYTE, 16);
    return Status();
}

Status Mailbox::alloc_pd(uint32_t uar, uint32_t *pdn) {
    std::vector<uint8_t> in(FROCE_CMD_ALLOC_PD_IN_SIZE, 0), out;
    Enc e{in.data(), ""};
    E_DW(e, ALLOC_PD_IN, UAR, uar);
    if (!e.err.empty()) return errorf("%sALLOC_PD: %s", prefix().c_str(), e.err.c_str());
    FROCE_TRY(run(FROCE_CMD_ALLOC_PD, in, &out));
    *pdn = D_DW(out.data(), ALLOC_PD_OUT, PDN);
    return Status();
}

Status Mailbox::dealloc_pd(uint32_t pdn) {
    std::vector<uint8_t> in(FROCE_CMD_DEALLOC_PD_IN_SIZE, 0);
    Enc e{in.data(), ""};
    E_DW(e, DEALLOC_PD_IN, PDN, pdn);
    if (!e.err.empty()) return errorf("%sDEALLOC_PD: %s", prefix().c_str(), e.err.c_str());
    return run(FROCE_CMD_DEALLOC_PD, in, nullptr);
}

Status Mailbox::create_eq(const BufDesc &ring, unsigned log_size, unsigned vector, uint32_t *eqn) {
    std::vector<uint8_t> in(FROCE_CMD_CREATE_EQ_IN_SIZE, 0), out;
    Enc e{in.data(), ""};
    enc_buf(e, 8 * FROCE_CMD_CREATE_EQ_IN_BUF_ADDR_QW, ring, "BUF");
    E_DW(e, CREATE_EQ_IN, LOG_SIZE, log_size);
    E_DW(e, CREATE_EQ_IN, VECTOR, vector);
    if (!e.err.empty()) return errorf("%sCREATE_EQ: %s", prefix().c_str(), e.err.c_str());
    FROCE_TRY(run(FROCE_CMD_CREATE_EQ, in, &out));
    *eqn = D_DW(out.data(), CREATE_EQ_OUT, EQN);
    return Status();
}

Status Mailbox::destroy_eq(uint32_t eqn) {
    std::vector<uint8_t> in(FROCE_CMD_DESTROY_EQ_IN_SIZE, 0);
    Enc e{in.data(), ""};
    E_DW(e, DESTROY_EQ_IN, EQN, eqn);
    if (!e.err.empty()) return errorf("%sDESTROY_EQ: %s", prefix().c_str(), e.err.c_str());
    return run(FROCE_CMD_DESTROY_EQ, in, nullptr);
}

Status Mailbox::create_cq(const BufDesc &ring, unsigned log_size, uint32_t eqn, uint32_t uar, uint32_t *cqn) {
    std::vector<uint8_t> in(FROCE_CMD_CREATE_CQ_IN_SIZE, 0), out;
    Enc e{in.data(), ""};
    enc_buf(e, 8 * FROCE_CMD_CREATE_CQ_IN_BUF_ADDR_QW, ring, "BUF");
    E_DW(e, CREATE_CQ_IN, LOG_SIZE, log_size);
    E_DW(e, CREATE_CQ_IN, EQN, eqn);
    E_DW(e, CREATE_CQ_IN, UAR, uar);
    if (!e.err.empty()) return errorf("%sCREATE_CQ: %s", prefix().c_str(), e.err.c_str());
    FROCE_TRY(run(FROCE_CMD_CREATE_CQ, in, &out));
    *cqn = D_DW(out.data(), CREATE_CQ_OUT, CQN);
    return Status();
}

Status Mailbox::destroy_cq(uint32_t cqn) {
    std::vector<uint8_t> in(FROCE_CMD_DESTROY_CQ_IN_SIZE, 0);
    Enc e{in.data(), ""};
    E_DW(e, DESTROY_CQ_IN, CQN, cqn);
    if (!e.err.empty()) return errorf("%sDESTROY_CQ: %s", prefix().c_str(), e.err.c_str());
    return run(FROCE_CMD_DESTROY_CQ, in, nullptr);
}

Status Mailbox::encode_create_qp(const CreateQpIn &q, std::vector<uint8_t> *img) {
    img->assign(FROCE_CMD_CREATE_QP_IN_SIZE, 0);
    Enc e{img->data(), ""};
    E_DW(e, CREATE_QP_IN, TYPE, q.type);
    E_DW(e, CREATE_QP_IN, PRIV, q.priv);
    E_DW(e, CREATE_QP_IN, SIG_ALL, q.sig_all);
    E_DW(e, CREATE_QP_IN, PDN, q.pdn);
    E_DW(e, CREATE_QP_IN, SEND_CQN, q.send_cqn);
    E_DW(e, CREATE_QP_IN, RECV_CQN, q.recv_cqn);
    E_DW(e, CREATE_QP_IN, UAR, q.uar);
    E_DW(e, CREATE_QP_IN, LOG_SQ_SIZE, q.log_sq_size);
    E_DW(e, CREATE_QP_IN, SQ_WQE_SHIFT, q.sq_wqe_shift);
    E_DW(e, CREATE_QP_IN, LOG_RQ_SIZE, q.log_rq_size);
    E_DW(e, CREATE_QP_IN, RQ_WQE_SHIFT, q.rq_wqe_shift);
    enc_buf(e, 8 * FROCE_CMD_CREATE_QP_IN_SQ_BUF_ADDR_QW, q.sq_buf, "SQ_BUF");
    enc_buf(e, 8 * FROCE_CMD_CREATE_QP_IN_RQ_BUF_ADDR_QW, q.rq_buf, "RQ_BUF");
    if (!e.err.empty()) return errorf("CREATE_QP: %s", e.err.c_str());
    return Status();
}

Status Mailbox::create_qp(const CreateQpIn &q, uint32_t *qpn) {
    std::vector<uint8_t> in, out;
    FROCE_TRY(encode_create_qp(q, &in).context(name_));
    FROCE_TRY(run(FROCE_CMD_CREATE_QP, in, &out));
    *qpn = D_DW(out.data(), CREATE_QP_OUT, QPN);
    return Status();
}

Status Mailbox::encode_modify_qp(uint32_t qpn, const QpAttr &a, std::vector<uint8_t> *img) {
    img->assign(FROCE_CMD_MODIFY_QP_IN_SIZE, 0);
    uint8_t *p = img->data();
    Enc e{p, ""};
#define M_DW(F, v) E_DW(e, MODIFY_QP_IN, F, v)
    M_DW(QPN, qpn);
    M_DW(ATTR_MASK, a.mask);
    M_DW(STATE, a.state);
    M_DW(CUR_STATE, a.cur_state);
    M_DW(PATH_MTU, a.path_mtu);
    M_DW(EN_SQD_ASYNC_NOTIFY, a.en_sqd_async_notify);
    M_DW(SQ_DRAINING, a.sq_draining);
    M_DW(ACCESS_FLAGS, a.access);
    M_DW(PORT, a.port);
    M_DW(QKEY, a.qkey);
    M_DW(RQ_PSN, a.rq_psn);
    M_DW(TIMEOUT, a.timeout);
    M_DW(SQ_PSN, a.sq_psn);
    M_DW(RETRY_CNT, a.retry_cnt);
    M_DW(RNR_RETRY, a.rnr_retry);
    M_DW(DEST_QPN, a.dest_qpn);
    M_DW(MIN_RNR_TIMER, a.min_rnr_timer);
    M_DW(MAX_RD_ATOMIC, a.max_rd_atomic);
    M_DW(MAX_DEST_RD_ATOMIC, a.max_dest_rd_atomic);
    M_DW(PKEY_INDEX, a.pkey_index);
    M_DW(AV_SGID_INDEX, a.av.sgid_index);
    M_DW(AV_HOP_LIMIT, a.av.hop_limit);
    M_DW(AV_TCLASS, a.av.tclass);
    M_DW(AV_NET_TYPE, a.av.net_type);
    M_DW(AV_VLAN_EN, a.av.vlan_en);
    M_DW(AV_FLOW_LABEL, a.av.flow_label);
    M_DW(AV_UDP_SPORT, a.av.udp_sport);
    M_DW(AV_VLAN_ID, a.av.vlan_id);
#undef M_DW
    E_QW(e, MODIFY_QP_IN, AV_DMAC, a.av.dmac);
    std::memcpy(p + FROCE_CMD_MODIFY_QP_IN_AV_DGID_BYTE, a.av.dgid, FROCE_CMD_MODIFY_QP_IN_AV_DGID_BYTES);
    if (!e.err.empty()) return errorf("MODIFY_QP: %s", e.err.c_str());
    return Status();
}

void Mailbox::decode_query_qp(const uint8_t *p, QpAttr *a) {
#define Q_DW(F) D_DW(p, QUERY_QP_OUT, F)
    a->mask = 0;
    a->state = Q_DW(STATE);
    a->cur_state = Q_DW(CUR_STATE);
    a->path_mtu = Q_DW(PATH_MTU);
    a->en_sqd_async_notify = Q_DW(EN_SQD_ASYNC_NOTIFY);
    a->sq_draining = Q_DW(SQ_DRAINING);
    a->access = Q_DW(ACCESS_FLAGS);
    a->port = Q_DW(PORT);
    a->qkey = Q_DW(QKEY);
    a->rq_psn = Q_DW(RQ_PSN);
    a->timeout = Q_DW(TIMEOUT);
    a->sq_psn = Q_DW(SQ_PSN);
    a->retry_cnt = Q_DW(RETRY_CNT);
    a->rnr_retry = Q_DW(RNR_RETRY);
    a->dest_qpn = Q_DW(DEST_QPN);
    a->min_rnr_timer = Q_DW(MIN_RNR_TIMER);
    a->max_rd_atomic = Q_DW(MAX_RD_ATOMIC);
    a->max_dest_rd_atomic = Q_DW(MAX_DEST_RD_ATOMIC);
    a->pkey_index = Q_DW(PKEY_INDEX);
    a->av.sgid_index = Q_DW(AV_SGID_INDEX);
    a->av.hop_limit = Q_DW(AV_HOP_LIMIT);
    a->av.tclass = Q_DW(AV_TCLASS);
    a->av.net_type = Q_DW(AV_NET_TYPE);
    a->av.vlan_en = Q_DW(AV_VLAN_EN);
    a->av.flow_label = Q_DW(AV_FLOW_LABEL);
    a->av.udp_sport = Q_DW(AV_UDP_SPORT);
    a->av.vlan_id = Q_DW(AV_VLAN_ID);
#undef Q_DW
    a->av.dmac = D_QW(p, QUERY_QP_OUT, AV_DMAC);
    std::memcpy(a->av.dgid, p + FROCE_CMD_QUERY_QP_OUT_AV_DGID_BYTE, FROCE_CMD_QUERY_QP_OUT_AV_DGID_BYTES);
}

Status Mailbox::modify_qp(uint32_t qpn, const QpAttr &a) {
    std::vector<uint8_t> in;
    FROCE_TRY(encode_modify_qp(qpn, a, &in).context(name_));
    return run(FROCE_CMD_MODIFY_QP, in, nullptr);
}

Status Mailbox::query_qp(uint32_t qpn, QpAttr *o) {
    std::vector<uint8_t> in(FROCE_CMD_QUERY_QP_IN_SIZE, 0), out;
    Enc e{in.data(), ""};
    E_DW(e, QUERY_QP_IN, QPN, qpn);
    if (!e.err.empty()) return errorf("%sQUERY_QP: %s", prefix().c_str(), e.err.c_str());
    FROCE_TRY(run(FROCE_CMD_QUERY_QP, in, &out));
    decode_query_qp(out.data(), o);
    return Status();
}

Status Mailbox::destroy_qp(uint32_t qpn) {
    std::vector<uint8_t> in(FROCE_CMD_DESTROY_QP_IN_SIZE, 0);
    Enc e{in.data(), ""};
    E_DW(e, DESTROY_QP_IN, QPN, qpn);
    if (!e.err.empty()) return errorf("%sDESTROY_QP: %s", prefix().c_str(), e.err.c_str());
    return run(FROCE_CMD_DESTROY_QP, in, nullptr);
}

Status Mailbox::reg_mr(const RegMrIn &r, uint32_t *lkey, uint32_t *rkey) {
    std::vector<uint8_t> in(FROCE_CMD_REG_MR_IN_SIZE, 0), out;
    Enc e{in.data(), ""};
    E_DW(e, REG_MR_IN, PDN, r.pdn);
    E_DW(e, REG_MR_IN, ACCESS, r.access);
    E_QW(e, REG_MR_IN, IOVA, r.iova);
    E_QW(e, REG_MR_IN, LENGTH, r.length);
    enc_buf(e, 8 * FROCE_CMD_REG_MR_IN_PBL_ADDR_QW, r.pbl, "PBL");
    if (!e.err.empty()) return errorf("%sREG_MR: %s", prefix().c_str(), e.err.c_str());
    FROCE_TRY(run(FROCE_CMD_REG_MR, in, &out));
    if (lkey) *lkey = D_DW(out.data(), REG_MR_OUT, LKEY);
    if (rkey) *rkey = D_DW(out.data(), REG_MR_OUT, RKEY);
    return Status();
}

Status Mailbox::dereg_mr(uint32_t lkey) {
    std::vector<uint8_t> in(FROCE_CMD_DEREG_MR_IN_SIZE, 0);
    Enc e{in.data(), ""};
    E_DW(e, DEREG_MR_IN, LKEY, lkey);
    if (!e.err.empty()) return errorf("%sDEREG_MR: %s", prefix().c_str(), e.err.c_str());
    return run(FROCE_CMD_DEREG_MR, in, nullptr);
}

Status Mailbox::query_counters(bool clear, std::vector<uint64_t> *o) {
    std::vector<uint8_t> in(FROCE_CMD_QUERY_COUNTERS_IN_SIZE, 0), out;
    FSET_DW(in.data(), FROCE_CMD_QUERY_COUNTERS_IN_CLEAR, clear);
    FROCE_TRY(run(FROCE_CMD_QUERY_COUNTERS, in, &out));
    static_assert(FROCE_CMD_QUERY_COUNTERS_OUT_SIZE == 8 * FROCE_CNT_NUM, "one qword per counter");
    o->resize(FROCE_CNT_NUM);
    for (unsigned i = 0; i < FROCE_CNT_NUM; i++) (*o)[i] = ld64(&out[8 * i]);
    return Status();
}

}  // namespace froce_sim
