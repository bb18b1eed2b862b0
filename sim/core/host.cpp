// SPDX-License-Identifier: MIT
// In-process host (driver + firmware + provider) for one NIC; see host.h.
#include "host.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "hwfield.h"

namespace froce_sim {

// ---------------------------------------------------------------------------
// GIDs, MACs, CQEs

Gid Gid::ipv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
    Gid g;
    g.raw[10] = g.raw[11] = 0xff;
    g.raw[12] = a;
    g.raw[13] = b;
    g.raw[14] = c;
    g.raw[15] = d;
    return g;
}

Status Gid::parse(const std::string &s, Gid *out) {
    if (!out) return errorf("Gid::parse: null output");
    in_addr a4;
    if (inet_pton(AF_INET, s.c_str(), &a4) == 1) {
        const uint8_t *b = reinterpret_cast<const uint8_t *>(&a4.s_addr);
        *out = ipv4(b[0], b[1], b[2], b[3]);
        return Status();
    }
    in6_addr a6;
    if (inet_pton(AF_INET6, s.c_str(), &a6) == 1) {
        std::memcpy(out->raw, &a6, 16);
        return Status();
    }
    return errorf("'%s' is neither an IPv4 nor an IPv6 address", s.c_str());
}

bool Gid::is_ipv4_mapped() const {
    for (int i = 0; i < 10; i++)
        if (raw[i]) return false;
    return raw[10] == 0xff && raw[11] == 0xff;
}

std::string Gid::str() const {
    char buf[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, raw, buf, sizeof buf);
    return buf;
}

std::string mac_str(uint64_t mac) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", unsigned(mac >> 40) & 255,
                  unsigned(mac >> 32) & 255, unsigned(mac >> 24) & 255, unsigned(mac >> 16) & 255,
                  unsigned(mac >> 8) & 255, unsigned(mac) & 255);
    return buf;
}

Cqe decode_cqe(const uint8_t *img) {
    Cqe c;
    c.qpn = FGET_DW(img, FROCE_CQE_QPN);
    c.opcode = uint8_t(FGET_DW(img, FROCE_CQE_OPCODE));
    c.wqe_index = uint16_t(FGET_DW(img, FROCE_CQE_WQE_INDEX));
    c.status = uint8_t(FGET_DW(img, FROCE_CQE_STATUS));
    c.vendor_err = uint8_t(FGET_DW(img, FROCE_CQE_VENDOR_ERR));
    c.byte_cnt = FGET_DW(img, FROCE_CQE_BYTE_CNT);
    c.imm_inv = FGET_DW(img, FROCE_CQE_IMM_INV);
    c.src_qpn = FGET_DW(img, FROCE_CQE_SRC_QPN);
    c.grh = FGET_DW(img, FROCE_CQE_GRH);
    c.with_imm = FGET_DW(img, FROCE_CQE_WITH_IMM);
    c.with_inv = FGET_DW(img, FROCE_CQE_WITH_INV);
    c.vlan = FGET_DW(img, FROCE_CQE_VLAN);
    c.solicited = FGET_DW(img, FROCE_CQE_SOLICITED);
    c.net_type = uint8_t(FGET_DW(img, FROCE_CQE_NET_TYPE));
    c.smac = FGET_QW(img, FROCE_CQE_SMAC);
    c.vlan_id = uint16_t(FGET_QW(img, FROCE_CQE_VLAN_ID));
    c.owner = FGET_DW(img, FROCE_CQE_OWNER);
    return c;
}

void encode_cqe(const Cqe &c, uint8_t *img) {
    std::memset(img, 0, FROCE_CQE_SIZE);
    FSET_DW(img, FROCE_CQE_QPN, c.qpn);
    FSET_DW(img, FROCE_CQE_OPCODE, c.opcode);
    FSET_DW(img, FROCE_CQE_WQE_INDEX, c.wqe_index);
    FSET_DW(img, FROCE_CQE_STATUS, c.status);
    FSET_DW(img, FROCE_CQE_VENDOR_ERR, c.vendor_err);
    FSET_DW(img, FROCE_CQE_BYTE_CNT, c.byte_cnt);
    FSET_DW(img, FROCE_CQE_IMM_INV, c.imm_inv);
    FSET_DW(img, FROCE_CQE_SRC_QPN, c.src_qpn);
    FSET_DW(img, FROCE_CQE_GRH, c.grh);
    FSET_DW(img, FROCE_CQE_WITH_IMM, c.with_imm);
    FSET_DW(img, FROCE_CQE_WITH_INV, c.with_inv);
    FSET_DW(img, FROCE_CQE_VLAN, c.vlan);
    FSET_DW(img, FROCE_CQE_SOLICITED, c.solicited);
    FSET_DW(img, FROCE_CQE_NET_TYPE, c.net_type);
    FSET_QW(img, FROCE_CQE_SMAC, c.smac);
    FSET_QW(img, FROCE_CQE_VLAN_ID, c.vlan_id);
    FSET_DW(img, FROCE_CQE_OWNER, c.owner);
}

std::string Cqe::str() const {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "qpn %#x opcode %#04x wqe_index %u status %u vendor_err %u byte_cnt %u imm_inv %#x%s%s%s "
                  "owner %d",
                  qpn, opcode, wqe_index, status, vendor_err, byte_cnt, imm_inv, with_imm ? " with_imm" : "",
                  with_inv ? " with_inv" : "", solicited ? " solicited" : "", int(owner));
    return buf;
}

uint32_t sq_wqe_bytes(uint8_t qp_type, uint8_t opcode, unsigned num_sge, unsigned inline_len, bool inl) {
    uint32_t n = FROCE_WQE_CTRL_SIZE;
    if (qp_type == FROCE_QP_TYPE_UD || qp_type == FROCE_QP_TYPE_GSI) n += FROCE_WQE_UD_SIZE;
    else if (opcode == FROCE_WQE_OP_ATOMIC_CMP_SWP || opcode == FROCE_WQE_OP_ATOMIC_FETCH_ADD)
        n += FROCE_WQE_ATOMIC_SIZE;
    else if (opcode == FROCE_WQE_OP_RDMA_WRITE || opcode == FROCE_WQE_OP_RDMA_WRITE_WITH_IMM ||
             opcode == FROCE_WQE_OP_RDMA_READ)
        n += FROCE_WQE_RADDR_SIZE;
    if (inl) n += (inline_len + FROCE_WQE_SEG - 1) / FROCE_WQE_SEG * FROCE_WQE_SEG;
    else n += num_sge * FROCE_WQE_DATA_SIZE;
    return n;
}

namespace {

unsigned log2_ceil(uint64_t v) {
    unsigned l = 0;
    while ((uint64_t(1) << l) < v) l++;
    return l;
}

constexpr uint64_t kPage = 4096;

}  // namespace

// ---------------------------------------------------------------------------
// memory

Host::Host(Nic &nic, const HostConfig &cfg) : nic_(nic), cfg_(cfg), rng_(cfg.seed * 0xD1B54A32D192ED03ull + 7) {
    pool_.resize(cfg_.phys_pages);
    for (uint32_t i = 0; i < cfg_.phys_pages; i++) pool_[i] = cfg_.phys_pages - 1 - i;   // popped from the back
    if (cfg_.shuffle_pages) std::shuffle(pool_.begin(), pool_.end(), rng_);
    chunk_next_ = cfg_.chunk_base;
    va_next_ = cfg_.va_base;
    mr_used_.assign(cfg_.num_mrs, 0);
    mr_tag_.resize(cfg_.num_mrs);
    for (auto &t : mr_tag_) t = uint8_t(rng_());
    mr_used_[0] = 1;   // key 0 is never handed out
    mtt_free_[0] = cfg_.num_mtt;
    qpn_used_.assign(cfg_.num_qps, 0);
    qpn_used_[0] = qpn_used_[FROCE_QPN_GSI] = 1;
    cqn_used_.assign(cfg_.num_cqs, 0);
    uar_slots_used_.assign(cfg_.num_uars, 0);
}

Status Host::alloc(uint64_t len, Buffer *out, unsigned page_shift, uint64_t offset) {
    if (!out) return errorf("alloc: null output");
    if (page_shift < FROCE_MR_PAGE_SHIFT_MIN || page_shift > FROCE_MR_PAGE_SHIFT_MAX)
        return errorf("alloc: page shift %u outside %u..%u", page_shift, unsigned(FROCE_MR_PAGE_SHIFT_MIN),
                      unsigned(FROCE_MR_PAGE_SHIFT_MAX));
    const uint64_t chunk = uint64_t(1) << page_shift;
    if (offset >= chunk) return errorf("alloc: offset %#" PRIx64 " not below the page size %#" PRIx64, offset, chunk);
    if (len > (uint64_t(1) << 36)) return errorf("alloc: %" PRIu64 " bytes is more than this model offers", len);
    const uint64_t span = std::max<uint64_t>(1, (offset + len + chunk - 1) / chunk);
    // a random unmapped gap before every buffer, so neighbours never touch
    uint64_t va = (va_next_ + chunk - 1) & ~(chunk - 1);
    va += chunk * (1 + pick(3));
    if (page_shift == 12) {
        if (pool_.size() < span)
            return errorf("alloc: out of host pages (%zu free, %" PRIu64 " needed)", pool_.size(), span);
        for (uint64_t i = 0; i < span; i++) {
            uint64_t pa_page = (cfg_.phys_base >> 12) + pool_.back();
            pool_.pop_back();
            page_map_[(va >> 12) + i] = pa_page;
        }
    } else {
        for (uint64_t i = 0; i < span; i++) {
            uint64_t pa = (chunk_next_ + chunk - 1) & ~(chunk - 1);
            pa += chunk * pick(2);   // not adjacent to the previous chunk, sometimes
            if (pa + chunk > cfg_.chunk_base + cfg_.chunk_size)
                return errorf("alloc: out of contiguous host memory for %#" PRIx64 "-byte chunks", chunk);
            chunk_next_ = pa + chunk;
            for (uint64_t k = 0; k < chunk / kPage; k++) page_map_[((va + i * chunk) >> 12) + k] = (pa >> 12) + k;
        }
    }
    va_next_ = va + span * chunk;
    out->va = va + offset;
    out->len = len;
    out->page_shift = page_shift;
    return Status();
}

Status Host::translate(uint64_t va, uint64_t *pa) const {
    auto it = page_map_.find(va >> 12);
    if (it == page_map_.end()) return errorf("VA %#" PRIx64 " is not mapped on host %s", va, cfg_.name.c_str());
    *pa = (it->second << 12) | (va & 0xfff);
    return Status();
}

Status Host::write(uint64_t va, const void *src, uint64_t n) {
    const uint8_t *s = static_cast<const uint8_t *>(src);
    uint64_t done = 0;
    while (done < n) {
        uint64_t pa;
        FROCE_TRY(translate(va + done, &pa).context("write"));
        uint64_t k = std::min<uint64_t>(n - done, kPage - ((va + done) & 0xfff));
        nic_.mem().write(pa, s + done, size_t(k));
        done += k;
    }
    return Status();
}

Status Host::read(uint64_t va, void *dst, uint64_t n) const {
    uint8_t *d = static_cast<uint8_t *>(dst);
    uint64_t done = 0;
    while (done < n) {
        uint64_t pa;
        FROCE_TRY(translate(va + done, &pa).context("read"));
        uint64_t k = std::min<uint64_t>(n - done, kPage - ((va + done) & 0xfff));
        nic_.mem().read(pa, d + done, size_t(k));
        done += k;
    }
    return Status();
}

Status Host::fill(uint64_t va, uint8_t byte, uint64_t n) {
    std::vector<uint8_t> b(std::min<uint64_t>(n, 1 << 16), byte);
    for (uint64_t done = 0; done < n;) {
        uint64_t k = std::min<uint64_t>(n - done, b.size());
        FROCE_TRY(write(va + done, b.data(), k));
        done += k;
    }
    return Status();
}

std::vector<uint64_t> Host::backing_pages() const {
    std::vector<uint64_t> v;
    v.reserve(page_map_.size());
    for (const auto &kv : page_map_) v.push_back(kv.second);
    std::sort(v.begin(), v.end());
    return v;
}

// ---------------------------------------------------------------------------
// firmware

Status Host::write_ctx(uint32_t byte_off, const uint8_t *img, unsigned bytes) {
    if (bytes % 4 || bytes == 0) return errorf("write_ctx: %u bytes is not a whole number of dwords", bytes);
    for (unsigned dw = 1; dw < bytes / 4; dw++) FROCE_TRY(nic_.ctl_write32(byte_off + 4 * dw, ld32(img + 4 * dw)));
    return nic_.ctl_write32(byte_off, ld32(img));
}

Status Host::read_ctx(uint32_t byte_off, unsigned dwords, std::vector<uint32_t> *out) {
    if (!out) return errorf("read_ctx: null output");
    out->clear();
    for (unsigned dw = 0; dw < dwords; dw++) {
        uint32_t v;
        FROCE_TRY(nic_.ctl_read32(byte_off + 4 * dw, &v));
        out->push_back(v);
    }
    return Status();
}

Status Host::read_counter(unsigned idx, uint32_t *v) {
    if (!v) return errorf("read_counter: null output");
    if (idx >= FROCE_CNT_NUM) return errorf("read_counter: counter %u beyond the %u counters", idx, unsigned(FROCE_CNT_NUM));
    return nic_.ctl_read32(FROCE_CTL_CORE_BASE + 8 * idx, v).context("read_counter");
}

Status Host::fw_init(uint64_t max_cycles) {
    const uint32_t regs = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_REGS_OFF;
    uint64_t start = nic_.cycle();
    for (;;) {
        uint32_t w0;
        FROCE_TRY(nic_.ctl_read32(regs + 4 * FROCE_MRT_REGS_INIT_DW, &w0).context("fw_init: MRT_REGS"));
        if (!(w0 & FROCE_MRT_REGS_INIT_MASK)) break;
        if (nic_.cycle() - start > max_cycles)
            return errorf("fw_init: MRT_REGS.INIT still set after %" PRIu64 " cycles", max_cycles);
    }
    uint32_t n_mrs, n_mtt;
    FROCE_TRY(nic_.ctl_read32(regs + 4 * FROCE_MRT_REGS_NUM_MRS_DW, &n_mrs).context("fw_init"));
    FROCE_TRY(nic_.ctl_read32(regs + 4 * FROCE_MRT_REGS_NUM_MTT_DW, &n_mtt).context("fw_init"));
    if (n_mrs < 2 || n_mtt < 2 || (n_mrs & (n_mrs - 1)) || (n_mtt & (n_mtt - 1)))
        return errorf("fw_init: MRT_REGS reports NUM_MRS %u NUM_MTT %u (expected powers of two >= 2; "
                      "is the MR/MTT block on the control bus?)", n_mrs, n_mtt);
    if (n_mrs != cfg_.num_mrs) {
        cfg_.num_mrs = n_mrs;
        mr_used_.assign(n_mrs, 0);
        mr_used_[0] = 1;
        mr_tag_.resize(n_mrs);
        for (auto &t : mr_tag_) t = uint8_t(rng_());
    }
    if (n_mtt != cfg_.num_mtt) {
        cfg_.num_mtt = n_mtt;
        mtt_free_.clear();
        mtt_free_[0] = n_mtt;
    }
    return Status();
}

Status Host::set_gid(unsigned index, const Gid &gid, uint64_t smac, unsigned type, bool vlan_en, uint16_t vlan_id) {
    if (index >= cfg_.num_gids) return errorf("set_gid: index %u beyond the %u entries", index, cfg_.num_gids);
    if (type != FROCE_GID_TYPE_ROCE_V1 && type != FROCE_GID_TYPE_ROCE_V2)
        return errorf("set_gid: type %u is not ROCE_V1 or ROCE_V2", type);
    if (!field_fits(smac, 48)) return errorf("set_gid: MAC %#" PRIx64 " is wider than 48 bits", smac);
    if (!field_fits(vlan_id, FROCE_GID_CTX_VLAN_ID_W)) return errorf("set_gid: VLAN %u out of range", vlan_id);
    uint8_t img[FROCE_GID_CTX_SIZE] = {};
    FSET_DW(img, FROCE_GID_CTX_TYPE, type);
    FSET_DW(img, FROCE_GID_CTX_VLAN_EN, vlan_en);
    FSET_DW(img, FROCE_GID_CTX_VLAN_ID, vlan_id);
    FSET_DW(img, FROCE_GID_CTX_VALID, 1);
    FSET_QW(img, FROCE_GID_CTX_SMAC, smac);
    std::memcpy(img + FROCE_GID_CTX_GID_BYTE, gid.raw, FROCE_GID_CTX_GID_BYTES);
    return write_ctx(FROCE_CTL_GID_BASE + index * FROCE_GID_CTX_SIZE, img, sizeof img).context("set_gid");
}

Status Host::clear_gid(unsigned index) {
    if (index >= cfg_.num_gids) return errorf("clear_gid: index %u beyond the %u entries", index, cfg_.num_gids);
    uint8_t img[FROCE_GID_CTX_SIZE] = {};
    return write_ctx(FROCE_CTL_GID_BASE + index * FROCE_GID_CTX_SIZE, img, sizeof img).context("clear_gid");
}

Status Host::alloc_index(std::vector<uint8_t> &used, uint32_t lo, const char *what, uint32_t *out) {
    std::vector<uint32_t> free;
    for (uint32_t i = lo; i < used.size(); i++)
        if (!used[i]) free.push_back(i);
    if (free.empty()) return errorf("no free %s (%zu in the table)", what, used.size());
    *out = free[pick(free.size())];
    used[*out] = 1;
    return Status();
}

Status Host::alloc_mtt(uint32_t n, uint32_t *base) {
    for (auto it = mtt_free_.begin(); it != mtt_free_.end(); ++it) {
        if (it->second >= n) {
            *base = it->first;
            uint32_t rest = it->second - n, b = it->first + n;
            mtt_free_.erase(it);
            if (rest) mtt_free_[b] = rest;
            return Status();
        }
    }
    return errorf("MTT full: no %u consecutive free entries of %u", n, cfg_.num_mtt);
}

void Host::free_mtt(uint32_t base, uint32_t n) {
    if (!n) return;
    auto it = mtt_free_.emplace(base, n).first;
    auto next = std::next(it);
    if (next != mtt_free_.end() && it->first + it->second == next->first) {
        it->second += next->second;
        mtt_free_.erase(next);
    }
    if (it != mtt_free_.begin()) {
        auto prev = std::prev(it);
        if (prev->first + prev->second == it->first) {
            prev->second += it->second;
            mtt_free_.erase(it);
        }
    }
}

Status Host::reg_mr(uint32_t pdn, uint64_t va, uint64_t len, uint8_t access, Mr *out, unsigned page_shift) {
    return reg_mr_index(-1, pdn, va, len, access, out, page_shift);
}

Status Host::reg_mr_at(uint32_t index, uint32_t pdn, uint64_t va, uint64_t len, uint8_t access, Mr *out,
                       unsigned page_shift) {
    if (index == 0 || index >= cfg_.num_mrs) return errorf("reg_mr_at: MR index %u outside 1..%u", index, cfg_.num_mrs - 1);
    if (mr_used_[index]) return errorf("reg_mr_at: MR index %u is in use", index);
    return reg_mr_index(index, pdn, va, len, access, out, page_shift);
}

Status Host::reg_mr_index(int64_t want, uint32_t pdn, uint64_t va, uint64_t len, uint8_t access, Mr *out,
                          unsigned page_shift) {
    if (!out) return errorf("reg_mr: null output");
    if (len == 0) return errorf("reg_mr: zero length");
    if (!field_fits(pdn, FROCE_MR_CTX_PDN_W)) return errorf("reg_mr: PDN %#x wider than 24 bits", pdn);
    if (access & ~0x0Fu) return errorf("reg_mr: access %#x has bits beyond REMOTE_ATOMIC", access);
    if ((access & (FROCE_ACCESS_REMOTE_WRITE | FROCE_ACCESS_REMOTE_ATOMIC)) && !(access & FROCE_ACCESS_LOCAL_WRITE))
        return errorf("reg_mr: REMOTE_WRITE/REMOTE_ATOMIC require LOCAL_WRITE (access %#x)", access);
    if (va + len < va && va + len != 0) return errorf("reg_mr: IOVA %#" PRIx64 " + %#" PRIx64 " wraps past 2^64", va, len);
    if (page_shift == 0) {
        auto it = page_map_.find(va >> 12);
        if (it == page_map_.end()) return errorf("reg_mr: VA %#" PRIx64 " is not mapped", va);
        page_shift = 12;
        // the largest page shift the backing allows is what alloc() used; find it by trying down from 21
        for (unsigned s = FROCE_MR_PAGE_SHIFT_MAX; s > 12; s--) {
            uint64_t m = (uint64_t(1) << s) - 1;
            uint64_t first = va & ~m, last = (va + len - 1) & ~m;
            bool okc = true;
            for (uint64_t c = first; okc && c <= last; c += m + 1) {
                uint64_t pa0;
                if (!translate(c, &pa0).ok() || (pa0 & m)) {
                    okc = false;
                    break;
                }
                for (uint64_t k = 1; k < ((m + 1) >> 12); k++) {
                    uint64_t pa;
                    if (!translate(c + (k << 12), &pa).ok() || pa != pa0 + (k << 12)) {
                        okc = false;
                        break;
                    }
                }
            }
            if (okc) {
                page_shift = s;
                break;
            }
        }
    }
    if (page_shift < FROCE_MR_PAGE_SHIFT_MIN || page_shift > FROCE_MR_PAGE_SHIFT_MAX)
        return errorf("reg_mr: page shift %u outside %u..%u", page_shift, unsigned(FROCE_MR_PAGE_SHIFT_MIN),
                      unsigned(FROCE_MR_PAGE_SHIFT_MAX));
    const uint64_t m = (uint64_t(1) << page_shift) - 1;
    const uint64_t first = va & ~m, last = (va + len - 1) & ~m;
    const uint64_t npages = ((last - first) >> page_shift) + 1;
    if (npages > cfg_.num_mtt) return errorf("reg_mr: %" PRIu64 " pages exceed the MTT", npages);
    std::vector<uint64_t> pages;
    for (uint64_t i = 0; i < npages; i++) {
        uint64_t c = first + (i << page_shift), pa0;
        FROCE_TRY(translate(c, &pa0).context("reg_mr"));
        if (pa0 & m)
            return errorf("reg_mr: page at VA %#" PRIx64 " is at PA %#" PRIx64 ", not aligned to 2^%u", c, pa0,
                          page_shift);
        for (uint64_t k = 1; k < ((m + 1) >> 12); k++) {
            uint64_t pa;
            FROCE_TRY(translate(c + (k << 12), &pa).context("reg_mr"));
            if (pa != pa0 + (k << 12))
                return errorf("reg_mr: VA %#" PRIx64 " is not physically contiguous over 2^%u bytes", c, page_shift);
        }
        pages.push_back(pa0);
    }
    uint32_t index, mtt_base;
    if (want < 0) {
        FROCE_TRY(alloc_index(mr_used_, 1, "MR index", &index).context("reg_mr"));
    } else {
        index = uint32_t(want);
        mr_used_[index] = 1;
    }
    Status s = alloc_mtt(uint32_t(npages), &mtt_base);
    if (!s.ok()) {
        mr_used_[index] = 0;
        return s.context("reg_mr");
    }
    uint8_t tag = ++mr_tag_[index];
    const uint32_t mtt_off = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MTT_OFF;
    for (uint64_t i = 0; i < npages; i++) {
        uint8_t e[FROCE_MTT_ENTRY_SIZE] = {};
        FSET_QW(e, FROCE_MTT_ENTRY_ADDR, pages[i]);
        uint32_t off = mtt_off + uint32_t((mtt_base + i) * FROCE_MTT_ENTRY_SIZE);
        FROCE_TRY(nic_.ctl_write32(off, ld32(e)).context("reg_mr: MTT"));
        FROCE_TRY(nic_.ctl_write32(off + 4, ld32(e + 4)).context("reg_mr: MTT"));
    }
    uint8_t img[FROCE_MR_CTX_SIZE] = {};
    FSET_DW(img, FROCE_MR_CTX_PDN, pdn);
    FSET_DW(img, FROCE_MR_CTX_TAG, tag);
    FSET_DW(img, FROCE_MR_CTX_ACCESS, access);
    FSET_DW(img, FROCE_MR_CTX_PAGE_SHIFT, page_shift);
    FSET_QW(img, FROCE_MR_CTX_IOVA, va);
    FSET_QW(img, FROCE_MR_CTX_LENGTH, len);
    FSET_DW(img, FROCE_MR_CTX_MTT_BASE, mtt_base);
    FSET_DW(img, FROCE_MR_CTX_VALID, 1);
    const uint32_t mr_off = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + index * FROCE_MR_CTX_SIZE;
    // dwords 0..6 are staged, dword 7 (VALID) commits the entry
    for (unsigned dw = 0; dw < FROCE_MR_CTX_SIZE / 4; dw++)
        FROCE_TRY(nic_.ctl_write32(mr_off + 4 * dw, ld32(img + 4 * dw)).context("reg_mr: MR_CTX"));
    Mr mr;
    mr.index = index;
    mr.key = (index << FROCE_KEY_TAG_W) | tag;
    mr.pdn = pdn;
    mr.iova = va;
    mr.length = len;
    mr.page_shift = page_shift;
    mr.mtt_base = mtt_base;
    mr.npages = uint32_t(npages);
    mr.access = access;
    mr.valid = true;
    *out = mr;
    return Status();
}

Status Host::dereg_mr(Mr *mr) {
    if (!mr || !mr->valid) return errorf("dereg_mr: not a registered MR");
    if (mr->index >= cfg_.num_mrs || !mr_used_[mr->index]) return errorf("dereg_mr: MR index %u not in use", mr->index);
    const uint32_t mr_off = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_MR_OFF + mr->index * FROCE_MR_CTX_SIZE;
    FROCE_TRY(nic_.ctl_write32(mr_off + 4 * FROCE_MR_CTX_VALID_DW, 0).context("dereg_mr"));
    // wait until no translation through the old entry is in flight before the MTT range is reused
    const uint32_t regs = FROCE_CTL_MRT_BASE + FROCE_MRT_CTL_REGS_OFF;
    for (unsigned i = 0;; i++) {
        uint32_t w;
        FROCE_TRY(nic_.ctl_read32(regs + 4 * FROCE_MRT_REGS_BUSY_DW, &w).context("dereg_mr"));
        if (!(w & FROCE_MRT_REGS_BUSY_MASK)) break;
        if (i > 100000) return errorf("dereg_mr: MRT_REGS.BUSY stays set");
    }
    free_mtt(mr->mtt_base, mr->npages);
    mr_used_[mr->index] = 0;
    mr->valid = false;
    return Status();
}

Status Host::alloc_db_slot(uint32_t *page, uint32_t *slot) {
    for (unsigned tries = 0; tries < cfg_.num_uars; tries++) {
        uint32_t p = uar_next_;
        uar_next_ = uar_next_ + 1 >= cfg_.num_uars ? 1 : uar_next_ + 1;   // page 0 is the kernel's
        if (uar_slots_used_[p] < FROCE_UAR_DB_SLOTS) {
            *page = p;
            *slot = uar_slots_used_[p]++;
            return Status();
        }
    }
    return errorf("no free doorbell slot in any UAR page");
}

Status Host::create_cq(unsigned log_size, uint32_t pdn, Cq **out, uint32_t eqn) {
    if (!out) return errorf("create_cq: null output");
    if (log_size < 1 || log_size > 20) return errorf("create_cq: log size %u outside 1..20", log_size);
    auto cq = std::make_unique<Cq>();
    cq->log_size = log_size;
    cq->eqn = eqn;
    if (!field_fits(eqn, FROCE_CQC_EQN_W)) return errorf("create_cq: EQN %u wider than %u bits", eqn, unsigned(FROCE_CQC_EQN_W));
    FROCE_TRY(alloc(uint64_t(FROCE_CQE_SIZE) << log_size, &cq->ring).context("create_cq"));
    FROCE_TRY(fill(cq->ring.va, 0, cq->ring.len).context("create_cq"));
    FROCE_TRY(reg_mr(pdn, cq->ring.va, cq->ring.len, FROCE_ACCESS_LOCAL_WRITE, &cq->mr).context("create_cq"));
    FROCE_TRY(alloc_index(cqn_used_, 0, "CQ number", &cq->cqn).context("create_cq"));
    FROCE_TRY(alloc_db_slot(&cq->uar, &cq->slot).context("create_cq"));
    uint8_t img[FROCE_CQC_SIZE] = {};
    FSET_DW(img, FROCE_CQC_LOG_SIZE, log_size);
    FSET_DW(img, FROCE_CQC_VALID, 1);
    FSET_DW(img, FROCE_CQC_RING_KEY, cq->mr.key);
    FSET_DW(img, FROCE_CQC_PDN, pdn);
    FSET_DW(img, FROCE_CQC_UAR, cq->uar);
    FSET_DW(img, FROCE_CQC_EQN, eqn);
    FSET_QW(img, FROCE_CQC_VA, cq->ring.va);
    FROCE_TRY(write_ctx(FROCE_CTL_CQC_BASE + cq->cqn * FROCE_CQC_SIZE, img, sizeof img).context("create_cq"));
    *out = cq.get();
    cqs_.push_back(std::move(cq));
    return Status();
}

std::string Eqe::str() const {
    char buf[128];
    std::snprintf(buf, sizeof buf, "EQE type %#04x subtype %u id %#x owner %d", type, subtype, id, int(owner));
    return buf;
}

Status Host::create_eq(uint32_t eqn, unsigned log_size, uint32_t vector, Eq **out) {
    if (!out) return errorf("create_eq: null output");
    if (log_size < 6 || log_size > 12) return errorf("create_eq: log size %u outside 6..12", log_size);
    if (vector >= FROCE_MSIX_MAX_VECTORS) return errorf("create_eq: vector %u beyond %u", vector, unsigned(FROCE_MSIX_MAX_VECTORS));
    if (eqn >= (1u << FROCE_REG_EQ_DOORBELL_EQN_W)) return errorf("create_eq: EQN %u beyond the doorbell's EQN field", eqn);
    for (auto &e : eqs_)
        if (e->eqn == eqn) return errorf("create_eq: EQ %u exists", eqn);
    auto eq = std::make_unique<Eq>();
    eq->eqn = eqn;
    eq->log_size = log_size;
    eq->vector = vector;
    const uint64_t bytes = uint64_t(FROCE_EQE_SIZE) << log_size;
    const unsigned ps = std::max<unsigned>(12, log2_ceil(uint32_t(bytes)));
    FROCE_TRY(alloc(bytes, &eq->ring, ps).context("create_eq"));   // contiguous, aligned to its size
    FROCE_TRY(fill(eq->ring.va, 0, bytes).context("create_eq"));
    FROCE_TRY(translate(eq->ring.va, &eq->pa).context("create_eq"));
    // MSI-X table entry: some address/data (the bridge forms the message), unmasked
    const uint32_t ent = FROCE_BAR0_MSIX_TABLE_BASE + 16 * vector;
    FROCE_TRY(nic_.bar0_write32(ent + 0, 0xFEE00000u).context("create_eq"));
    FROCE_TRY(nic_.bar0_write32(ent + 4, 0).context("create_eq"));
    FROCE_TRY(nic_.bar0_write32(ent + 8, vector).context("create_eq"));
    FROCE_TRY(nic_.bar0_write32(ent + 12, 0).context("create_eq"));
    if (eqn == 0) {
        FROCE_TRY(nic_.bar0_write32(FROCE_REG_EQ0_CFG, 0).context("create_eq"));
        FROCE_TRY(nic_.bar0_write32(FROCE_REG_EQ0_ADDR_LO, uint32_t(eq->pa)).context("create_eq"));
        FROCE_TRY(nic_.bar0_write32(FROCE_REG_EQ0_ADDR_HI, uint32_t(eq->pa >> 32)).context("create_eq"));
        uint32_t cfg = 0;
        cfg |= uint32_t(log_size) << FROCE_REG_EQ0_CFG_LOG_SIZE_SHIFT;
        cfg |= uint32_t(vector) << FROCE_REG_EQ0_CFG_VECTOR_SHIFT;
        cfg |= 1u << FROCE_REG_EQ0_CFG_ENABLE_SHIFT;
        FROCE_TRY(nic_.bar0_write32(FROCE_REG_EQ0_CFG, cfg).context("create_eq"));
    } else {
        uint8_t img[FROCE_EQC_SIZE] = {};
        FSET_DW(img, FROCE_EQC_LOG_SIZE, log_size);
        FSET_DW(img, FROCE_EQC_VECTOR, vector);
        FSET_DW(img, FROCE_EQC_VALID, 1);
        FSET_QW(img, FROCE_EQC_ADDR, eq->pa);
        FROCE_TRY(write_ctx(FROCE_CTL_EQC_BASE + eqn * FROCE_EQC_SIZE, img, sizeof img).context("create_eq"));
    }
    *out = eq.get();
    eqs_.push_back(std::move(eq));
    return Status();
}

Status Host::poll_eq(Eq *eq, unsigned max, std::vector<Eqe> *out) {
    if (!eq || !out) return errorf("poll_eq: null EQ or output");
    for (unsigned n = 0; n < max; n++) {
        uint8_t img[FROCE_EQE_SIZE];
        const uint64_t va = eq->ring.va + uint64_t(eq->ci & (eq->size() - 1)) * FROCE_EQE_SIZE;
        FROCE_TRY(read(va, img, sizeof img).context("poll_eq"));
        const bool owner = FGET_DW(img, FROCE_EQE_OWNER);
        if (owner != !((eq->ci >> eq->log_size) & 1)) break;
        Eqe e;
        e.type = uint8_t(FGET_DW(img, FROCE_EQE_TYPE));
        e.subtype = uint8_t(FGET_DW(img, FROCE_EQE_SUBTYPE));
        e.id = FGET_DW(img, FROCE_EQE_ID);
        e.owner = owner;
        e.cycle = nic_.cycle();
        out->push_back(e);
        eq->ci++;
    }
    return Status();
}

Status Host::eq_doorbell(Eq *eq, bool arm) {
    if (!eq) return errorf("eq_doorbell: null EQ");
    uint32_t v = (eq->ci & 0xFFFFFFu) << FROCE_REG_EQ_DOORBELL_CI_SHIFT;
    v |= eq->eqn << FROCE_REG_EQ_DOORBELL_EQN_SHIFT;
    if (arm) v |= 1u << FROCE_REG_EQ_DOORBELL_ARM_SHIFT;
    return nic_.bar0_write32(FROCE_REG_EQ_DOORBELL, v).context("eq_doorbell");
}

// ---------------------------------------------------------------------------
// netdev rings

// The DMA address of [va, va + len), which must be physically contiguous.
Status Host::dma_addr(uint64_t va, uint64_t len, uint64_t *pa, const char *what) const {
    FROCE_TRY(translate(va, pa).context(what));
    for (uint64_t off = kPage - (va & 0xfff); off < len; off += kPage) {
        uint64_t p = 0;
        FROCE_TRY(translate(va + off, &p).context(what));
        if (p != *pa + off)
            return errorf("%s: [%#" PRIx64 ", +%" PRIu64 ") is not physically contiguous", what, va, len);
    }
    return Status();
}

Status Host::netdev_open(unsigned tx_log, unsigned rx_log, uint32_t vector) {
    if (tx_log < 4 || tx_log > 15 || rx_log < 4 || rx_log > 15)
        return errorf("netdev_open: ring log sizes %u, %u outside 4..15", tx_log, rx_log);
    if (vector >= FROCE_MSIX_MAX_VECTORS)
        return errorf("netdev_open: vector %u beyond %u", vector, unsigned(FROCE_MSIX_MAX_VECTORS));
    FROCE_TRY(netdev_close().context("netdev_open"));
    struct {
        unsigned log;
        Buffer *ring;
        uint32_t lo, hi, cfg;
    } rings[] = {{tx_log, &ntx_ring_, FROCE_REG_NTX_ADDR_LO, FROCE_REG_NTX_ADDR_HI, FROCE_REG_NTX_CFG},
                 {rx_log, &nrx_ring_, FROCE_REG_NRX_ADDR_LO, FROCE_REG_NRX_ADDR_HI, FROCE_REG_NRX_CFG}};
    static_assert(FROCE_NTX_DESC_SIZE == 16 && FROCE_NRX_DESC_SIZE == 16, "16-byte netdev descriptors");
    for (auto &r : rings) {
        const uint64_t bytes = uint64_t(16) << r.log;
        const unsigned ps = std::max<unsigned>(12, log2_ceil(bytes));   // contiguous, 4 KiB aligned
        FROCE_TRY(alloc(bytes, r.ring, ps).context("netdev_open"));
        FROCE_TRY(fill(r.ring->va, 0, bytes).context("netdev_open"));
        uint64_t pa = 0;
        FROCE_TRY(translate(r.ring->va, &pa).context("netdev_open"));
        FROCE_TRY(nic_.bar0_write32(r.lo, uint32_t(pa)).context("netdev_open"));
        FROCE_TRY(nic_.bar0_write32(r.hi, uint32_t(pa >> 32)).context("netdev_open"));
        const uint32_t cfg = uint32_t(r.log) << FROCE_REG_NTX_CFG_LOG_SIZE_SHIFT | 1u << FROCE_REG_NTX_CFG_ENABLE_SHIFT;
        FROCE_TRY(nic_.bar0_write32(r.cfg, cfg).context("netdev_open"));
    }
    const uint32_t ent = FROCE_BAR0_MSIX_TABLE_BASE + 16 * vector;
    FROCE_TRY(nic_.bar0_write32(ent + 0, 0xFEE00000u).context("netdev_open"));
    FROCE_TRY(nic_.bar0_write32(ent + 4, 0).context("netdev_open"));
    FROCE_TRY(nic_.bar0_write32(ent + 8, vector).context("netdev_open"));
    FROCE_TRY(nic_.bar0_write32(ent + 12, 0).context("netdev_open"));
    FROCE_TRY(nic_.bar0_write32(FROCE_REG_NETDEV_IRQ, vector << FROCE_REG_NETDEV_IRQ_VECTOR_SHIFT).context("netdev_open"));
    ntx_log_ = tx_log;
    nrx_log_ = rx_log;
    ntx_pi_ = ntx_ci_ = nrx_pi_ = nrx_ci_ = 0;
    nrx_bufs_.assign(size_t(1) << rx_log, {0, 0});
    nd_open_ = true;
    return Status();
}

Status Host::netdev_close() {
    FROCE_TRY(nic_.bar0_write32(FROCE_REG_NTX_CFG, 0).context("netdev_close"));
    FROCE_TRY(nic_.bar0_write32(FROCE_REG_NRX_CFG, 0).context("netdev_close"));
    ntx_pi_ = ntx_ci_ = nrx_pi_ = nrx_ci_ = 0;
    nd_open_ = false;
    return Status();
}

Status Host::netdev_post_rx(uint64_t va, uint32_t buf_len) {
    if (!nd_open_) return errorf("netdev_post_rx: netdev not open");
    if (buf_len == 0 || buf_len > 0xFFFF) return errorf("netdev_post_rx: buffer length %u outside 1..65535", buf_len);
    const uint32_t size = 1u << nrx_log_;
    if (nrx_pi_ - nrx_ci_ >= size) return errorf("netdev_post_rx: RX ring full (%u buffers posted)", size);
    uint64_t pa = 0;
    FROCE_TRY(dma_addr(va, buf_len, &pa, "netdev_post_rx"));
    uint8_t d[16] = {};
    FSET_QW(d, FROCE_NRX_DESC_ADDR, pa);
    FSET_DW(d, FROCE_NRX_DESC_BUF_LEN, buf_len);
    const uint32_t slot = nrx_pi_ & (size - 1);
    FROCE_TRY(write(nrx_ring_.va + 16 * uint64_t(slot), d, sizeof d).context("netdev_post_rx"));
    nrx_bufs_[slot] = {va, buf_len};
    nrx_pi_++;
    return nic_.bar0_write32(FROCE_REG_NRX_PI, (nrx_pi_ & 0xFFFF) << FROCE_REG_NRX_PI_PI_SHIFT).context("netdev_post_rx");
}

Status Host::netdev_poll_rx(unsigned max, std::vector<NetRxFrame> *out) {
    if (!out) return errorf("netdev_poll_rx: null output");
    if (!nd_open_) return errorf("netdev_poll_rx: netdev not open");
    const uint32_t size = 1u << nrx_log_;
    for (unsigned n = 0; n < max && nrx_ci_ != nrx_pi_; n++) {
        const uint32_t slot = nrx_ci_ & (size - 1);
        uint8_t d[16];
        FROCE_TRY(read(nrx_ring_.va + 16 * uint64_t(slot), d, sizeof d).context("netdev_poll_rx"));
        if (!FGET_DW(d, FROCE_NRX_DESC_DONE)) break;
        NetRxFrame f;
        f.pkt_len = FGET_DW(d, FROCE_NRX_DESC_PKT_LEN);
        f.verdict = uint8_t(FGET_DW(d, FROCE_NRX_DESC_VERDICT));
        f.err = FGET_DW(d, FROCE_NRX_DESC_ERR);
        f.index = nrx_ci_;
        f.va = nrx_bufs_[slot].first;
        f.buf_len = nrx_bufs_[slot].second;
        f.cycle = nic_.cycle();
        if (f.pkt_len > f.buf_len)
            return errorf("netdev_poll_rx: descriptor %u: PKT_LEN %u larger than its buffer (%u)", nrx_ci_, f.pkt_len,
                          f.buf_len);
        f.data.resize(f.pkt_len);
        FROCE_TRY(read(f.va, f.data.data(), f.pkt_len).context("netdev_poll_rx"));
        out->push_back(std::move(f));
        nrx_ci_++;
    }
    return Status();
}

Status Host::netdev_send(const std::vector<uint8_t> &frame, unsigned pieces, const std::vector<uint32_t> &cuts) {
    if (!nd_open_) return errorf("netdev_send: netdev not open");
    if (frame.empty() || frame.size() > 0xFFFF) return errorf("netdev_send: frame of %zu bytes (1..65535)", frame.size());
    if (pieces < 1 || pieces > 16) return errorf("netdev_send: %u pieces (1..16)", pieces);
    if (!cuts.empty() && cuts.size() != pieces - 1)
        return errorf("netdev_send: %zu cut lengths for %u pieces", cuts.size(), pieces);
    const uint32_t size = 1u << ntx_log_;
    if (ntx_pi_ - ntx_ci_ + pieces > size)
        return errorf("netdev_send: TX ring full (%u of %u descriptors in use, %u needed)", ntx_pi_ - ntx_ci_, size, pieces);
    std::vector<uint32_t> lens;
    uint64_t used = 0;
    for (unsigned i = 0; i + 1 < pieces; i++) {
        const uint32_t l = cuts.empty() ? uint32_t(frame.size() / pieces) : cuts[i];
        lens.push_back(l);
        used += l;
    }
    if (used >= frame.size()) return errorf("netdev_send: cuts of %" PRIu64 " bytes leave nothing for the last piece", used);
    lens.push_back(uint32_t(frame.size() - used));
    uint64_t off = 0;
    for (unsigned i = 0; i < pieces; i++) {
        Buffer b;
        const unsigned ps = std::max<unsigned>(12, log2_ceil(uint64_t(lens[i]) + 64));
        FROCE_TRY(alloc(std::max<uint32_t>(lens[i], 1), &b, ps, 8 * pick(8)).context("netdev_send"));
        uint64_t pa = 0;
        if (lens[i]) FROCE_TRY(write(b.va, frame.data() + off, lens[i]).context("netdev_send"));
        FROCE_TRY(dma_addr(b.va, std::max<uint32_t>(lens[i], 1), &pa, "netdev_send"));
        uint8_t d[16] = {};
        FSET_QW(d, FROCE_NTX_DESC_ADDR, pa);
        FSET_DW(d, FROCE_NTX_DESC_LEN, lens[i]);
        FSET_DW(d, FROCE_NTX_DESC_EOP, i + 1 == pieces ? 1 : 0);
        const uint32_t slot = (ntx_pi_ + i) & (size - 1);
        FROCE_TRY(write(ntx_ring_.va + 16 * uint64_t(slot), d, sizeof d).context("netdev_send"));
        off += lens[i];
    }
    ntx_pi_ += pieces;
    return nic_.bar0_write32(FROCE_REG_NTX_PI, (ntx_pi_ & 0xFFFF) << FROCE_REG_NTX_PI_PI_SHIFT).context("netdev_send");
}

Status Host::netdev_poll_tx(unsigned *done, unsigned *errors) {
    if (!nd_open_) return errorf("netdev_poll_tx: netdev not open");
    const uint32_t size = 1u << ntx_log_;
    while (ntx_ci_ != ntx_pi_) {
        uint8_t d[16];
        FROCE_TRY(read(ntx_ring_.va + 16 * uint64_t(ntx_ci_ & (size - 1)), d, sizeof d).context("netdev_poll_tx"));
        if (!FGET_DW(d, FROCE_NTX_DESC_DONE)) break;
        if (done) (*done)++;
        if (errors && FGET_DW(d, FROCE_NTX_DESC_ERR)) (*errors)++;
        ntx_ci_++;
    }
    return Status();
}

Status Host::netdev_arm() {
    if (!nd_open_) return errorf("netdev_arm: netdev not open");
    return nic_.bar0_write32(FROCE_REG_NETDEV_ARM, 1u << FROCE_REG_NETDEV_ARM_ARM_SHIFT).context("netdev_arm");
}

Status Host::read_icounter(unsigned idx, uint64_t *v) {
    if (!v) return errorf("read_icounter: null output");
    if (idx >= FROCE_ICNT_NUM) return errorf("read_icounter: counter %u beyond the %u counters", idx, unsigned(FROCE_ICNT_NUM));
    uint32_t lo = 0, hi = 0;
    FROCE_TRY(nic_.ctl_read32(FROCE_CTL_ICNT_BASE + 8 * idx, &lo).context("read_icounter"));
    FROCE_TRY(nic_.ctl_read32(FROCE_CTL_ICNT_BASE + 8 * idx + 4, &hi).context("read_icounter"));
    *v = uint64_t(hi) << 32 | lo;
    return Status();
}

Status Host::read_counter64(unsigned idx, uint64_t *v) {
    if (!v) return errorf("read_counter64: null output");
    if (idx >= FROCE_CNT_NUM) return errorf("read_counter64: counter %u beyond the %u counters", idx, unsigned(FROCE_CNT_NUM));
    uint32_t lo = 0, hi = 0;
    FROCE_TRY(nic_.bar0_read32(FROCE_BAR0_COUNTERS_BASE + 8 * idx, &lo).context("read_counter64"));
    FROCE_TRY(nic_.bar0_read32(FROCE_BAR0_COUNTERS_BASE + 8 * idx + 4, &hi).context("read_counter64"));
    *v = uint64_t(hi) << 32 | lo;
    return Status();
}

Status Host::alloc_uar_page(uint32_t *page) {
    if (!page) return errorf("alloc_uar_page: null output");
    // from the top, away from the pages create_cq / create_qp rotate through first
    for (uint32_t p = cfg_.num_uars - 1; p >= 1; p--) {
        if (uar_slots_used_[p] == 0) {
            uar_slots_used_[p] = FROCE_UAR_DB_SLOTS;
            *page = p;
            return Status();
        }
    }
    return errorf("alloc_uar_page: no UAR page without doorbell slots in use");
}

Status Host::arm_cq(Cq *cq, bool solicited_only) {
    if (!cq) return errorf("arm_cq: null CQ");
    return arm_cq_on(cq, solicited_only, cq->uar, cq->slot).context("arm_cq");
}

Status Host::arm_cq_on(Cq *cq, bool solicited_only, uint32_t uar_page, uint32_t slot) {
    if (!cq) return errorf("arm_cq_on: null CQ");
    cq->arm_sn = (cq->arm_sn + 1) & 0xF;
    uint8_t db[FROCE_DB_CQ_SIZE] = {};
    FSET_DW(db, FROCE_DB_CQ_CQN, cq->cqn);
    FSET_DW(db, FROCE_DB_CQ_TYPE, FROCE_DB_TYPE_CQ_ARM);
    FSET_DW(db, FROCE_DB_CQ_CI, cq->ci & 0xFFFFFF);
    FSET_DW(db, FROCE_DB_CQ_SOLICITED, solicited_only);
    FSET_DW(db, FROCE_DB_CQ_SN, cq->arm_sn);
    doorbells_++;
    return nic_.doorbell(uar_page, slot, ld64(db));
}

Status Host::create_qp(uint32_t pdn, const QpCaps &caps, Cq *scq, Cq *rcq, Qp **out) {
    if (!out || !scq || !rcq) return errorf("create_qp: null CQ or output");
    if (caps.type != FROCE_QP_TYPE_RC && caps.type != FROCE_QP_TYPE_UC && caps.type != FROCE_QP_TYPE_UD)
        return errorf("create_qp: QP type %u not RC, UC or UD", caps.type);
    if (caps.max_send_wr < 1 || caps.max_send_wr > 32768 || caps.max_recv_wr < 1 || caps.max_recv_wr > 32768)
        return errorf("create_qp: max_send_wr %u / max_recv_wr %u outside 1..32768", caps.max_send_wr,
                      caps.max_recv_wr);
    if (!field_fits(pdn, FROCE_QPC_PDN_W)) return errorf("create_qp: PDN %#x wider than 24 bits", pdn);
    auto qp = std::make_unique<Qp>();
    qp->caps = caps;
    qp->scq = scq;
    qp->rcq = rcq;
    // SQ WQE: the largest of the opcodes this QP may post
    uint32_t sq_bytes = std::max({sq_wqe_bytes(caps.type, FROCE_WQE_OP_RDMA_WRITE, caps.max_send_sge, 0, false),
                                  sq_wqe_bytes(caps.type, FROCE_WQE_OP_ATOMIC_FETCH_ADD, 1, 0, false),
                                  sq_wqe_bytes(caps.type, FROCE_WQE_OP_RDMA_WRITE, 0, caps.max_inline, true)});
    uint32_t rq_bytes = FROCE_RQ_WQE_HDR_SIZE + caps.max_recv_sge * FROCE_WQE_DATA_SIZE;
    qp->sq_shift = std::max<unsigned>(FROCE_WQE_SHIFT_MIN, log2_ceil(sq_bytes));
    qp->rq_shift = std::max<unsigned>(FROCE_WQE_SHIFT_MIN, log2_ceil(rq_bytes));
    if (qp->sq_shift > FROCE_WQE_SHIFT_MAX)
        return errorf("create_qp: an SQ WQE of %u bytes (max_send_sge %u, max_inline %u) exceeds %u bytes", sq_bytes,
                      caps.max_send_sge, caps.max_inline, 1u << FROCE_WQE_SHIFT_MAX);
    if (qp->rq_shift > FROCE_WQE_SHIFT_MAX)
        return errorf("create_qp: an RQ WQE of %u bytes (max_recv_sge %u) exceeds %u bytes", rq_bytes,
                      caps.max_recv_sge, 1u << FROCE_WQE_SHIFT_MAX);
    qp->sq_log = log2_ceil(caps.max_send_wr);
    qp->rq_log = log2_ceil(caps.max_recv_wr);
    const uint64_t sq_len = uint64_t(1) << (qp->sq_log + qp->sq_shift);
    const uint64_t rq_len = uint64_t(1) << (qp->rq_log + qp->rq_shift);
    FROCE_TRY(alloc(sq_len + rq_len, &qp->ring).context("create_qp"));
    FROCE_TRY(fill(qp->ring.va, 0, qp->ring.len).context("create_qp"));
    FROCE_TRY(reg_mr(pdn, qp->ring.va, qp->ring.len, FROCE_ACCESS_LOCAL_WRITE, &qp->ring_mr).context("create_qp"));
    qp->sq_va = qp->ring.va;
    qp->rq_va = qp->ring.va + sq_len;
    FROCE_TRY(alloc_index(qpn_used_, 2, "QP number", &qp->qpn).context("create_qp"));
    FROCE_TRY(alloc_db_slot(&qp->uar, &qp->sq_slot).context("create_qp"));
    // the RQ doorbell goes to the same UAR page, the next free slot
    if (uar_slots_used_[qp->uar] >= FROCE_UAR_DB_SLOTS) return errorf("create_qp: UAR page %u full", qp->uar);
    qp->rq_slot = uar_slots_used_[qp->uar]++;

    uint8_t *c = qp->qpc;
    FSET_DW(c, FROCE_QPC_STATE, FROCE_QP_STATE_RESET);
    FSET_DW(c, FROCE_QPC_TYPE, caps.type);
    FSET_DW(c, FROCE_QPC_SIG_ALL, caps.sig_all);
    FSET_DW(c, FROCE_QPC_PDN, pdn);
    FSET_DW(c, FROCE_QPC_SCQN, scq->cqn);
    FSET_DW(c, FROCE_QPC_RCQN, rcq->cqn);
    FSET_DW(c, FROCE_QPC_QKEY, caps.qkey);
    FSET_DW(c, FROCE_QPC_SQ_LOG_SIZE, qp->sq_log);
    FSET_DW(c, FROCE_QPC_SQ_WQE_SHIFT, qp->sq_shift);
    FSET_DW(c, FROCE_QPC_RQ_LOG_SIZE, qp->rq_log);
    FSET_DW(c, FROCE_QPC_RQ_WQE_SHIFT, qp->rq_shift);
    FSET_DW(c, FROCE_QPC_UAR, qp->uar);
    FSET_DW(c, FROCE_QPC_RING_KEY, qp->ring_mr.key);
    FSET_QW(c, FROCE_QPC_SQ_VA, qp->sq_va);
    FSET_QW(c, FROCE_QPC_RQ_VA, qp->rq_va);
    FSET_DW(c, FROCE_QPC_LOAD_RESET, 1);
    FROCE_TRY(write_qpc(qp.get()).context("create_qp"));
    qp->state = FROCE_QP_STATE_RESET;
    qp_map_[qp->qpn] = qp.get();
    *out = qp.get();
    qps_.push_back(std::move(qp));
    return Status();
}

Status Host::write_qpc(Qp *qp) {
    Status s = write_ctx(FROCE_CTL_QPC_BASE + qp->qpn * FROCE_QPC_SIZE, qp->qpc, FROCE_QPC_SIZE);
    // LOAD_* are actions, not state
    FSET_DW(qp->qpc, FROCE_QPC_LOAD_RESET, 0);
    FSET_DW(qp->qpc, FROCE_QPC_LOAD_RQ_PSN, 0);
    FSET_DW(qp->qpc, FROCE_QPC_LOAD_SQ_PSN, 0);
    return s;
}

Status Host::check_qp(const Qp *qp, const char *what) const {
    if (!qp) return errorf("%s: null QP", what);
    auto it = qp_map_.find(qp->qpn);
    if (it == qp_map_.end() || it->second != qp) return errorf("%s: QP %#x does not belong to host %s", what, qp->qpn,
                                                                cfg_.name.c_str());
    return Status();
}

Status Host::modify_qp_init(Qp *qp, uint8_t access) {
    FROCE_TRY(check_qp(qp, "modify_qp_init"));
    if (qp->state != FROCE_QP_STATE_RESET && qp->state != FROCE_QP_STATE_INIT)
        return errorf("modify_qp_init: QP %#x is in state %u, not RESET or INIT", qp->qpn, qp->state);
    if (access & ~0x0Fu) return errorf("modify_qp_init: access %#x has unknown bits", access);
    FSET_DW(qp->qpc, FROCE_QPC_STATE, FROCE_QP_STATE_INIT);
    FSET_DW(qp->qpc, FROCE_QPC_ACCESS, access);
    FROCE_TRY(write_qpc(qp).context("modify_qp_init"));
    qp->state = FROCE_QP_STATE_INIT;
    return Status();
}

Status Host::check_path(const Path &path) const {
    if (path.sgid_index >= cfg_.num_gids) return errorf("SGID index %u", path.sgid_index);
    if (path.net_type != FROCE_KIND_ROCE_V2_IPV4 && path.net_type != FROCE_KIND_ROCE_V2_IPV6 &&
        path.net_type != FROCE_KIND_ROCE_V1)
        return errorf("net type %u", path.net_type);
    if (path.net_type == FROCE_KIND_ROCE_V2_IPV4 && !path.dgid.is_ipv4_mapped())
        return errorf("RoCE v2 IPv4 path with DGID %s (not ::ffff:a.b.c.d)", path.dgid.str().c_str());
    if (!field_fits(path.dmac, 48) || !field_fits(path.flow_label, 20) || !field_fits(path.vlan_id, 12))
        return errorf("DMAC, flow label or VLAN out of range");
    return Status();
}

Status Host::modify_qp_rtr(Qp *qp, const Path &path, uint32_t dest_qpn, uint32_t rq_psn, unsigned mtu_enum,
                           unsigned min_rnr_timer, unsigned max_dest_rd_atomic) {
    FROCE_TRY(check_qp(qp, "modify_qp_rtr"));
    if (qp->state != FROCE_QP_STATE_INIT)
        return errorf("modify_qp_rtr: QP %#x is in state %u, not INIT", qp->qpn, qp->state);
    if (mtu_enum < FROCE_MTU_256 || mtu_enum > FROCE_MTU_4096) return errorf("modify_qp_rtr: MTU enum %u", mtu_enum);
    if (!field_fits(dest_qpn, FROCE_QPC_DEST_QPN_W) || !field_fits(rq_psn, FROCE_QPC_RQ_PSN_W))
        return errorf("modify_qp_rtr: dest QPN %#x or RQ PSN %#x wider than 24 bits", dest_qpn, rq_psn);
    if (!field_fits(min_rnr_timer, FROCE_QPC_MIN_RNR_TIMER_W) || max_dest_rd_atomic > 255)
        return errorf("modify_qp_rtr: min_rnr_timer %u / max_dest_rd_atomic %u out of range", min_rnr_timer,
                      max_dest_rd_atomic);
    FROCE_TRY(check_path(path).context("modify_qp_rtr"));
    uint8_t *c = qp->qpc;
    FSET_DW(c, FROCE_QPC_STATE, FROCE_QP_STATE_RTR);
    FSET_DW(c, FROCE_QPC_PATH_MTU, mtu_enum);
    FSET_DW(c, FROCE_QPC_DEST_QPN, dest_qpn);
    FSET_DW(c, FROCE_QPC_RQ_PSN, rq_psn);
    FSET_DW(c, FROCE_QPC_LOAD_RQ_PSN, 1);
    FSET_DW(c, FROCE_QPC_MIN_RNR_TIMER, min_rnr_timer);
    FSET_DW(c, FROCE_QPC_MAX_DEST_RD_ATOMIC, max_dest_rd_atomic);
    FSET_DW(c, FROCE_QPC_AV_SGID_INDEX, path.sgid_index);
    FSET_DW(c, FROCE_QPC_AV_HOP_LIMIT, path.hop_limit);
    FSET_DW(c, FROCE_QPC_AV_TCLASS, path.tclass);
    FSET_DW(c, FROCE_QPC_AV_NET_TYPE, path.net_type);
    FSET_DW(c, FROCE_QPC_AV_VLAN_EN, path.vlan_en);
    FSET_DW(c, FROCE_QPC_AV_FLOW_LABEL, path.flow_label);
    FSET_DW(c, FROCE_QPC_AV_UDP_SPORT, path.udp_sport);
    FSET_DW(c, FROCE_QPC_AV_VLAN_ID, path.vlan_id);
    FSET_QW(c, FROCE_QPC_AV_DMAC, path.dmac);
    std::memcpy(c + FROCE_QPC_AV_DGID_BYTE, path.dgid.raw, FROCE_QPC_AV_DGID_BYTES);
    FROCE_TRY(write_qpc(qp).context("modify_qp_rtr"));
    qp->state = FROCE_QP_STATE_RTR;
    return Status();
}

Status Host::modify_qp_rts(Qp *qp, uint32_t sq_psn, unsigned timeout, unsigned retry_cnt, unsigned rnr_retry,
                           unsigned max_rd_atomic) {
    FROCE_TRY(check_qp(qp, "modify_qp_rts"));
    if (qp->state != FROCE_QP_STATE_RTR)
        return errorf("modify_qp_rts: QP %#x is in state %u, not RTR", qp->qpn, qp->state);
    if (!field_fits(sq_psn, 24) || !field_fits(timeout, FROCE_QPC_TIMEOUT_W) || retry_cnt > 7 || rnr_retry > 7 ||
        max_rd_atomic > 255)
        return errorf("modify_qp_rts: SQ PSN %#x, timeout %u, retry %u, rnr_retry %u or max_rd_atomic %u out of range",
                      sq_psn, timeout, retry_cnt, rnr_retry, max_rd_atomic);
    uint8_t *c = qp->qpc;
    FSET_DW(c, FROCE_QPC_STATE, FROCE_QP_STATE_RTS);
    FSET_DW(c, FROCE_QPC_SQ_PSN, sq_psn);
    FSET_DW(c, FROCE_QPC_LOAD_SQ_PSN, 1);
    FSET_DW(c, FROCE_QPC_TIMEOUT, timeout);
    FSET_DW(c, FROCE_QPC_RETRY_CNT, retry_cnt);
    FSET_DW(c, FROCE_QPC_RNR_RETRY, rnr_retry);
    FSET_DW(c, FROCE_QPC_MAX_RD_ATOMIC, max_rd_atomic);
    FROCE_TRY(write_qpc(qp).context("modify_qp_rts"));
    qp->state = FROCE_QP_STATE_RTS;
    return Status();
}

Status Host::modify_qp_ud_rts(Qp *qp, unsigned mtu_enum, uint32_t sq_psn) {
    FROCE_TRY(check_qp(qp, "modify_qp_ud_rts"));
    if (qp->caps.type != FROCE_QP_TYPE_UD)
        return errorf("modify_qp_ud_rts: QP %#x is not a UD QP", qp->qpn);
    if (qp->state != FROCE_QP_STATE_INIT)
        return errorf("modify_qp_ud_rts: QP %#x is in state %u, not INIT", qp->qpn, qp->state);
    if (mtu_enum < FROCE_MTU_256 || mtu_enum > FROCE_MTU_4096) return errorf("modify_qp_ud_rts: MTU enum %u", mtu_enum);
    if (!field_fits(sq_psn, 24)) return errorf("modify_qp_ud_rts: SQ PSN %#x wider than 24 bits", sq_psn);
    uint8_t *c = qp->qpc;
    FSET_DW(c, FROCE_QPC_PATH_MTU, mtu_enum);
    FSET_DW(c, FROCE_QPC_STATE, FROCE_QP_STATE_RTR);
    FROCE_TRY(write_qpc(qp).context("modify_qp_ud_rts"));
    qp->state = FROCE_QP_STATE_RTR;
    FSET_DW(c, FROCE_QPC_STATE, FROCE_QP_STATE_RTS);
    FSET_DW(c, FROCE_QPC_SQ_PSN, sq_psn);
    FSET_DW(c, FROCE_QPC_LOAD_SQ_PSN, 1);
    FROCE_TRY(write_qpc(qp).context("modify_qp_ud_rts"));
    qp->state = FROCE_QP_STATE_RTS;
    return Status();
}

Status Host::modify_qp_err(Qp *qp) {
    FROCE_TRY(check_qp(qp, "modify_qp_err"));
    FSET_DW(qp->qpc, FROCE_QPC_STATE, FROCE_QP_STATE_ERR);
    FROCE_TRY(write_qpc(qp).context("modify_qp_err"));
    qp->state = FROCE_QP_STATE_ERR;
    return Status();
}

// ---------------------------------------------------------------------------
// provider

Qp *Host::qp_by_qpn(uint32_t qpn) {
    auto it = qp_map_.find(qpn);
    return it == qp_map_.end() ? nullptr : it->second;
}

Status build_sq_wqe(uint8_t qp_type, unsigned wqe_shift, const SendWr &wr, uint16_t wqe_index,
                    const std::vector<uint8_t> &inline_bytes, std::vector<uint8_t> *out) {
    if (!out) return errorf("build_sq_wqe: null output");
    if (wqe_shift < FROCE_WQE_SHIFT_MIN || wqe_shift > FROCE_WQE_SHIFT_MAX)
        return errorf("build_sq_wqe: WQE shift %u outside %u..%u", wqe_shift, unsigned(FROCE_WQE_SHIFT_MIN),
                      unsigned(FROCE_WQE_SHIFT_MAX));
    const uint8_t op = wr.opcode;
    if (op > FROCE_WQE_OP_ATOMIC_FETCH_ADD) return errorf("build_sq_wqe: opcode %#x unknown", op);
    const bool rdma = op == FROCE_WQE_OP_RDMA_WRITE || op == FROCE_WQE_OP_RDMA_WRITE_WITH_IMM || op == FROCE_WQE_OP_RDMA_READ;
    const bool atomic = op == FROCE_WQE_OP_ATOMIC_CMP_SWP || op == FROCE_WQE_OP_ATOMIC_FETCH_ADD;
    if (wr.inline_data && inline_bytes.size() > 0xFFFF) return errorf("build_sq_wqe: inline data too long");
    const uint32_t bytes = sq_wqe_bytes(qp_type, op, unsigned(wr.sg.size()), unsigned(inline_bytes.size()), wr.inline_data);
    if (bytes > (1u << wqe_shift))
        return errorf("build_sq_wqe: WQE of %u bytes exceeds the %u-byte SQ WQE", bytes, 1u << wqe_shift);
    if (bytes / FROCE_WQE_SEG > (FROCE_WQE_CTRL_DS_MASK >> FROCE_WQE_CTRL_DS_SHIFT))
        return errorf("build_sq_wqe: %u segments do not fit WQE_CTRL.DS", bytes / FROCE_WQE_SEG);
    out->assign(size_t(1) << wqe_shift, 0);
    uint8_t *p = out->data();
    FSET_DW(p, FROCE_WQE_CTRL_OPCODE, op);
    FSET_DW(p, FROCE_WQE_CTRL_SIGNALED, wr.signaled);
    FSET_DW(p, FROCE_WQE_CTRL_SOLICITED, wr.solicited);
    FSET_DW(p, FROCE_WQE_CTRL_FENCE, wr.fence);
    FSET_DW(p, FROCE_WQE_CTRL_INLINE, wr.inline_data);
    FSET_DW(p, FROCE_WQE_CTRL_DS, bytes / FROCE_WQE_SEG);
    FSET_DW(p, FROCE_WQE_CTRL_WQE_INDEX, wqe_index);
    FSET_DW(p, FROCE_WQE_CTRL_IMM_INV, wr.imm_inv);
    if (wr.inline_data) FSET_DW(p, FROCE_WQE_CTRL_INLINE_LEN, inline_bytes.size());
    uint8_t *seg = p + FROCE_WQE_CTRL_SIZE;
    if (qp_type == FROCE_QP_TYPE_UD || qp_type == FROCE_QP_TYPE_GSI) {
        // (the hardware refuses other opcodes on a UD QP; tests build them)
        FSET_DW(seg, FROCE_WQE_UD_DQPN, wr.ud.qpn);
        FSET_DW(seg, FROCE_WQE_UD_QKEY, wr.ud.qkey);
        const Path &av = wr.ud.av;
        FSET_DW(seg, FROCE_WQE_UD_AV_SGID_INDEX, av.sgid_index);
        FSET_DW(seg, FROCE_WQE_UD_AV_HOP_LIMIT, av.hop_limit);
        FSET_DW(seg, FROCE_WQE_UD_AV_TCLASS, av.tclass);
        FSET_DW(seg, FROCE_WQE_UD_AV_NET_TYPE, av.net_type);
        FSET_DW(seg, FROCE_WQE_UD_AV_VLAN_EN, av.vlan_en);
        FSET_DW(seg, FROCE_WQE_UD_AV_FLOW_LABEL, av.flow_label);
        FSET_DW(seg, FROCE_WQE_UD_AV_UDP_SPORT, av.udp_sport);
        FSET_DW(seg, FROCE_WQE_UD_AV_VLAN_ID, av.vlan_id);
        FSET_QW(seg, FROCE_WQE_UD_AV_DMAC, av.dmac);
        std::memcpy(seg + FROCE_WQE_UD_AV_DGID_BYTE, av.dgid.raw, FROCE_WQE_UD_AV_DGID_BYTES);
        seg += FROCE_WQE_UD_SIZE;
    } else if (rdma) {
        FSET_QW(seg, FROCE_WQE_RADDR_VA, wr.remote_addr);
        FSET_DW(seg, FROCE_WQE_RADDR_RKEY, wr.rkey);
        seg += FROCE_WQE_RADDR_SIZE;
    } else if (atomic) {
        FSET_QW(seg, FROCE_WQE_ATOMIC_VA, wr.remote_addr);
        FSET_DW(seg, FROCE_WQE_ATOMIC_RKEY, wr.rkey);
        FSET_QW(seg, FROCE_WQE_ATOMIC_SWAP_ADD, op == FROCE_WQE_OP_ATOMIC_CMP_SWP ? wr.swap : wr.compare_add);
        FSET_QW(seg, FROCE_WQE_ATOMIC_COMPARE, op == FROCE_WQE_OP_ATOMIC_CMP_SWP ? wr.compare_add : 0);
        seg += FROCE_WQE_ATOMIC_SIZE;
    }
    if (wr.inline_data) {
        std::memcpy(seg, inline_bytes.data(), inline_bytes.size());
    } else {
        for (const Sge &s : wr.sg) {
            FSET_QW(seg, FROCE_WQE_DATA_ADDR, s.addr);
            FSET_DW(seg, FROCE_WQE_DATA_LEN, s.len);
            FSET_DW(seg, FROCE_WQE_DATA_LKEY, s.lkey);
            seg += FROCE_WQE_DATA_SIZE;
        }
    }
    return Status();
}

Status build_rq_wqe(unsigned wqe_shift, const RecvWr &wr, uint16_t wqe_index, std::vector<uint8_t> *out) {
    if (!out) return errorf("build_rq_wqe: null output");
    if (wqe_shift < FROCE_WQE_SHIFT_MIN || wqe_shift > FROCE_WQE_SHIFT_MAX)
        return errorf("build_rq_wqe: WQE shift %u outside %u..%u", wqe_shift, unsigned(FROCE_WQE_SHIFT_MIN),
                      unsigned(FROCE_WQE_SHIFT_MAX));
    const size_t bytes = FROCE_RQ_WQE_HDR_SIZE + wr.sg.size() * FROCE_WQE_DATA_SIZE;
    if (bytes > (size_t(1) << wqe_shift) || wr.sg.size() > 255)
        return errorf("build_rq_wqe: %zu SGEs do not fit a %u-byte RQ WQE", wr.sg.size(), 1u << wqe_shift);
    out->assign(size_t(1) << wqe_shift, 0);
    uint8_t *p = out->data();
    FSET_DW(p, FROCE_RQ_WQE_HDR_WQE_INDEX, wqe_index);
    FSET_DW(p, FROCE_RQ_WQE_HDR_NUM_SGE, wr.sg.size());
    uint8_t *seg = p + FROCE_RQ_WQE_HDR_SIZE;
    for (const Sge &s : wr.sg) {
        FSET_QW(seg, FROCE_WQE_DATA_ADDR, s.addr);
        FSET_DW(seg, FROCE_WQE_DATA_LEN, s.len);
        FSET_DW(seg, FROCE_WQE_DATA_LKEY, s.lkey);
        seg += FROCE_WQE_DATA_SIZE;
    }
    return Status();
}

Status Host::post_send(Qp *qp, const SendWr &wr) {
    FROCE_TRY(post_send_wqe(qp, wr));
    return ring_sq(qp, qp->uar, qp->sq_slot).context("post_send");
}

Status Host::ring_sq(Qp *qp, uint32_t uar_page, uint32_t slot) {
    FROCE_TRY(check_qp(qp, "ring_sq"));
    uint8_t db[FROCE_DB_QP_SIZE] = {};
    FSET_DW(db, FROCE_DB_QP_QPN, qp->qpn);
    FSET_DW(db, FROCE_DB_QP_TYPE, FROCE_DB_TYPE_SQ);
    FSET_DW(db, FROCE_DB_QP_PI, qp->sq_pi & 0xFFFF);
    doorbells_++;
    return nic_.doorbell(uar_page, slot, ld64(db));
}

Status Host::post_send_wqe(Qp *qp, const SendWr &wr) {
    FROCE_TRY(check_qp(qp, "post_send"));
    const uint8_t op = wr.opcode;
    const bool rdma = op == FROCE_WQE_OP_RDMA_WRITE || op == FROCE_WQE_OP_RDMA_WRITE_WITH_IMM || op == FROCE_WQE_OP_RDMA_READ;
    const bool atomic = op == FROCE_WQE_OP_ATOMIC_CMP_SWP || op == FROCE_WQE_OP_ATOMIC_FETCH_ADD;
    const bool send = op == FROCE_WQE_OP_SEND || op == FROCE_WQE_OP_SEND_WITH_IMM || op == FROCE_WQE_OP_SEND_WITH_INV;
    if (!rdma && !atomic && !send && op != FROCE_WQE_OP_NOP) return errorf("post_send: QP %#x: opcode %#x unknown", qp->qpn, op);
    if (qp->state != FROCE_QP_STATE_RTS)
        return errorf("post_send: QP %#x is in state %u, not RTS", qp->qpn, qp->state);
    if (qp->caps.type == FROCE_QP_TYPE_UD) {
        if (op != FROCE_WQE_OP_SEND && op != FROCE_WQE_OP_SEND_WITH_IMM)
            return errorf("post_send: QP %#x: a UD QP only sends (opcode %#x)", qp->qpn, op);
        if (!field_fits(wr.ud.qpn, FROCE_WQE_UD_DQPN_W))
            return errorf("post_send: QP %#x: destination QPN %#x wider than 24 bits", qp->qpn, wr.ud.qpn);
        FROCE_TRY(check_path(wr.ud.av).context("post_send: UD address vector"));
    }
    if (qp->sq_pi - qp->sq_ci >= qp->sq_size())
        return errorf("post_send: QP %#x: SQ full (%" PRIu64 " posted, %" PRIu64 " completed, %u entries)", qp->qpn,
                      qp->sq_pi, qp->sq_ci, qp->sq_size());
    if (wr.sg.size() > (wr.inline_data ? 64 : qp->caps.max_send_sge))
        return errorf("post_send: QP %#x: %zu SGEs, max_send_sge %u", qp->qpn, wr.sg.size(), qp->caps.max_send_sge);
    uint64_t total = 0;
    for (const Sge &s : wr.sg) total += s.len;
    if (total > 0x80000000ull) return errorf("post_send: QP %#x: message of %" PRIu64 " bytes exceeds 2^31", qp->qpn, total);
    if (atomic) {
        if (wr.sg.size() != 1 || wr.sg[0].len != 8)
            return errorf("post_send: QP %#x: an atomic needs exactly one 8-byte SGE", qp->qpn);
        if (wr.remote_addr & 7) return errorf("post_send: QP %#x: atomic address %#" PRIx64 " not 8-byte aligned", qp->qpn, wr.remote_addr);
        if (wr.inline_data) return errorf("post_send: QP %#x: atomics cannot be inline", qp->qpn);
    }
    if (wr.inline_data) {
        if (op == FROCE_WQE_OP_RDMA_READ || op == FROCE_WQE_OP_NOP)
            return errorf("post_send: QP %#x: INLINE is only for SEND and RDMA WRITE", qp->qpn);
        if (total > qp->caps.max_inline)
            return errorf("post_send: QP %#x: %" PRIu64 " inline bytes, max_inline %u", qp->qpn, total, qp->caps.max_inline);
    }
    const uint32_t bytes = sq_wqe_bytes(qp->caps.type, op, unsigned(wr.sg.size()), unsigned(total), wr.inline_data);
    if (bytes > (1u << qp->sq_shift))
        return errorf("post_send: QP %#x: WQE of %u bytes exceeds the %u-byte SQ WQE", qp->qpn, bytes, 1u << qp->sq_shift);

    std::vector<uint8_t> inl;
    if (wr.inline_data) {
        inl.resize(size_t(total));
        size_t at = 0;
        for (const Sge &sg : wr.sg) {
            FROCE_TRY(read(sg.addr, inl.data() + at, sg.len).context("post_send: inline data"));
            at += sg.len;
        }
    }
    std::vector<uint8_t> w;
    FROCE_TRY(build_sq_wqe(qp->caps.type, qp->sq_shift, wr, uint16_t(qp->sq_pi), inl, &w).context("post_send"));
    const uint64_t slot_va = qp->sq_va + ((qp->sq_pi & (qp->sq_size() - 1)) << qp->sq_shift);
    FROCE_TRY(write(slot_va, w.data(), w.size()).context("post_send"));
    qp->sq_pi++;
    return Status();
}

Status Host::post_recv(Qp *qp, const RecvWr &wr) {
    FROCE_TRY(check_qp(qp, "post_recv"));
    if (qp->state == FROCE_QP_STATE_RESET)
        return errorf("post_recv: QP %#x is in RESET", qp->qpn);
    if (qp->rq_pi - qp->rq_ci >= qp->rq_size())
        return errorf("post_recv: QP %#x: RQ full (%" PRIu64 " posted, %" PRIu64 " completed, %u entries)", qp->qpn,
                      qp->rq_pi, qp->rq_ci, qp->rq_size());
    if (wr.sg.size() > qp->caps.max_recv_sge)
        return errorf("post_recv: QP %#x: %zu SGEs, max_recv_sge %u", qp->qpn, wr.sg.size(), qp->caps.max_recv_sge);
    std::vector<uint8_t> w;
    FROCE_TRY(build_rq_wqe(qp->rq_shift, wr, uint16_t(qp->rq_pi), &w).context("post_recv"));
    const uint64_t slot_va = qp->rq_va + ((qp->rq_pi & (qp->rq_size() - 1)) << qp->rq_shift);
    FROCE_TRY(write(slot_va, w.data(), w.size()).context("post_recv"));
    qp->rq_pi++;
    uint8_t db[FROCE_DB_QP_SIZE] = {};
    FSET_DW(db, FROCE_DB_QP_QPN, qp->qpn);
    FSET_DW(db, FROCE_DB_QP_TYPE, FROCE_DB_TYPE_RQ);
    FSET_DW(db, FROCE_DB_QP_PI, qp->rq_pi & 0xFFFF);
    doorbells_++;
    return nic_.doorbell(qp->uar, qp->rq_slot, ld64(db)).context("post_recv");
}

Status Host::poll_cq(Cq *cq, unsigned max, std::vector<Cqe> *out) {
    if (!cq || !out) return errorf("poll_cq: null CQ or output");
    Status err;
    for (unsigned n = 0; n < max; n++) {
        uint8_t img[FROCE_CQE_SIZE];
        const uint64_t va = cq->ring.va + uint64_t(cq->ci & (cq->size() - 1)) * FROCE_CQE_SIZE;
        FROCE_TRY(read(va, img, sizeof img).context("poll_cq"));
        const bool want = !((cq->ci >> cq->log_size) & 1);
        if (bool(FGET_DW(img, FROCE_CQE_OWNER)) != want) break;
        Cqe c = decode_cqe(img);
        c.cycle = nic_.cycle();
        cq->ci++;
        out->push_back(c);
        Qp *qp = qp_by_qpn(c.qpn);
        if (!qp) {
            if (err.ok()) err = errorf("poll_cq: CQ %u: CQE names QP %#x, which host %s does not have (%s)", cq->cqn,
                                       c.qpn, cfg_.name.c_str(), c.str().c_str());
            continue;
        }
        if (c.opcode & 0x80) {
            if (qp->rcq != cq && err.ok())
                err = errorf("poll_cq: receive CQE of QP %#x on CQ %u, its receive CQ is %u", c.qpn, cq->cqn, qp->rcq->cqn);
            if (qp->rq_ci >= qp->rq_pi) {
                if (err.ok()) err = errorf("poll_cq: receive CQE of QP %#x with no RQ WQE outstanding (%s)", c.qpn, c.str().c_str());
            } else if (c.wqe_index != (qp->rq_ci & 0xFFFF)) {
                if (err.ok()) err = errorf("poll_cq: receive CQE of QP %#x for RQ WQE %u, expected %u (in order)", c.qpn,
                                           c.wqe_index, unsigned(qp->rq_ci & 0xFFFF));
                qp->rq_ci++;
            } else {
                qp->rq_ci++;
            }
        } else {
            if (qp->scq != cq && err.ok())
                err = errorf("poll_cq: send CQE of QP %#x on CQ %u, its send CQ is %u", c.qpn, cq->cqn, qp->scq->cqn);
            const uint64_t delta = (uint64_t(c.wqe_index) - qp->sq_ci) & 0xFFFF;
            if (delta >= qp->sq_pi - qp->sq_ci) {
                if (err.ok()) err = errorf("poll_cq: send CQE of QP %#x for SQ WQE %u, which is not outstanding "
                                           "(completed %" PRIu64 ", posted %" PRIu64 "; %s)",
                                           c.qpn, c.wqe_index, qp->sq_ci, qp->sq_pi, c.str().c_str());
            } else {
                qp->sq_ci += delta + 1;
            }
        }
    }
    return err;
}

}  // namespace froce_sim
