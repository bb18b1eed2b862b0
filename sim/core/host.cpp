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
// driver: the firmware through its mailbox

namespace {

Host::TransportFactory &transport_factory() {
    static Host::TransportFactory f;
    return f;
}

}  // namespace

void Host::set_transport_factory(TransportFactory f) { transport_factory() = std::move(f); }

Status Host::DmaMem::dma_write(uint64_t pa, const void *src, size_t n) {
    h_.nic_.mem().write(pa, static_cast<const uint8_t *>(src), n);
    return Status();
}

Status Host::DmaMem::dma_read(uint64_t pa, void *dst, size_t n) {
    h_.nic_.mem().read(pa, static_cast<uint8_t *>(dst), n);
    return Status();
}

// A kernel page (dma_alloc_coherent): one pool page, zeroed.
Status Host::DmaMem::dma_page(uint64_t *pa) {
    Buffer b;
    FROCE_TRY(h_.alloc(kPage, &b));
    FROCE_TRY(h_.fill(b.va, 0, kPage));
    return h_.translate(b.va, pa);
}

// A command's error, with the table size when the firmware had no free entry.
Status Host::limit(Status s, const std::string &caps) const {
    if (!s.ok() && mbox_ && mbox_->last_status() == FROCE_CMD_STATUS_EXCEED_LIM)
        return errorf("%s (QUERY_CAPS: %s)", s.message().c_str(), caps.c_str());
    return s;
}

Status Host::need_fw(const char *what) const {
    if (!fw_up_) return errorf("%s: host %s: the firmware is not started (fw_init)", what, cfg_.name.c_str());
    return Status();
}

Status Host::fw_init() {
    if (fw_up_) return Status();
    const std::string ctx = "fw_init";
    if (transport_factory()) transport_ = transport_factory()(nic_, cfg_);
    else transport_ = std::make_unique<NicMboxTransport>(nic_, cfg_.mbox);
    if (!transport_) return errorf("%s: the transport factory gave no transport", ctx.c_str());
    mbox_ = std::make_unique<Mailbox>(dma_, *transport_, "NIC " + cfg_.name);
    FROCE_TRY(mbox_->start().context(ctx));
    FROCE_TRY(mbox_->query_fw(&fw_info_).context(ctx));
    if (fw_info_.spec_hash != FROCE_HW_SPEC_HASH)
        return errorf("%s: the firmware (%u.%u.%u, build %#x) was built from spec hash %#x, this host from %#x",
                      ctx.c_str(), fw_info_.major, fw_info_.minor, fw_info_.patch, fw_info_.build_id,
                      fw_info_.spec_hash, unsigned(FROCE_HW_SPEC_HASH));
    FROCE_TRY(mbox_->query_caps(&caps_).context(ctx));
    if (caps_.max_qp < 2 || caps_.max_cq < 1 || caps_.max_pd < 1 || caps_.max_mr < 1 || caps_.num_gid < 1 ||
        caps_.max_uar < 2 || caps_.max_uar > Nic::kNumUars || caps_.max_eq < 1)
        return errorf("%s: QUERY_CAPS reports MAX_QP %u MAX_CQ %u MAX_PD %u MAX_MR %u NUM_GID %u MAX_UAR %u MAX_EQ %u",
                      ctx.c_str(), caps_.max_qp, caps_.max_cq, caps_.max_pd, caps_.max_mr, caps_.num_gid,
                      caps_.max_uar, caps_.max_eq);
    PortInfo pi;
    FROCE_TRY(mbox_->query_port(&pi).context(ctx));
    port_.mac = pi.mac;
    port_.mtu = pi.mtu;
    if (cfg_.mac) {
        PortSet ps = port_;
        ps.mac = cfg_.mac;
        ps.allmulti = true;   // as froce.ko: no multicast list in SET_PORT
        FROCE_TRY(mbox_->set_port(ps).context(ctx + ": SET_PORT with the station MAC"));
        port_ = ps;
    }
    uar_owned_.assign(caps_.max_uar, 0);
    uar_owned_[0] = 1;   // the kernel's
    uar_slots_used_.assign(caps_.max_uar, 0);
    fw_up_ = true;
    return Status();
}

Status Host::set_gid(unsigned index, const Gid &gid, uint64_t smac, unsigned type, bool vlan_en, uint16_t vlan_id) {
    FROCE_TRY(need_fw("set_gid"));
    if (index >= caps_.num_gid) return errorf("set_gid: index %u beyond the %u entries", index, caps_.num_gid);
    if (type != FROCE_GID_TYPE_ROCE_V1 && type != FROCE_GID_TYPE_ROCE_V2)
        return errorf("set_gid: type %u is not ROCE_V1 or ROCE_V2", type);
    if (!field_fits(smac, 48)) return errorf("set_gid: MAC %#" PRIx64 " is wider than 48 bits", smac);
    if (!field_fits(vlan_id, FROCE_GID_CTX_VLAN_ID_W)) return errorf("set_gid: VLAN %u out of range", vlan_id);
    GidEntry g;
    g.index = index;
    g.type = type;
    g.vlan_en = vlan_en;
    g.vlan_id = vlan_id;
    g.smac = smac;
    std::memcpy(g.gid, gid.raw, 16);
    return mbox_->add_gid(g).context("set_gid");
}

Status Host::clear_gid(unsigned index) {
    FROCE_TRY(need_fw("clear_gid"));
    return mbox_->del_gid(index).context("clear_gid");
}

Status Host::query_port(PortInfo *out) {
    FROCE_TRY(need_fw("query_port"));
    if (!out) return errorf("query_port: null output");
    return mbox_->query_port(out).context("query_port");
}

Status Host::set_port(const PortSet &p) {
    FROCE_TRY(need_fw("set_port"));
    FROCE_TRY(mbox_->set_port(p).context("set_port"));
    port_ = p;
    return Status();
}

// ---- user contexts, PDs ----

Status Host::alloc_ucontext(uint32_t *uar) {
    FROCE_TRY(need_fw("alloc_ucontext"));
    if (!uar) return errorf("alloc_ucontext: null output");
    for (uint32_t p = 1; p < uar_owned_.size(); p++) {
        if (!uar_owned_[p]) {
            uar_owned_[p] = 1;
            *uar = p;
            return Status();
        }
    }
    return errorf("alloc_ucontext: all %zu UAR pages are taken", uar_owned_.size());
}

Status Host::alloc_pd(uint32_t *pdn, int64_t uar) {
    FROCE_TRY(need_fw("alloc_pd"));
    if (!pdn) return errorf("alloc_pd: null output");
    uint32_t page = 0;
    if (uar < 0) {
        FROCE_TRY(alloc_ucontext(&page).context("alloc_pd"));
    } else {
        if (uint64_t(uar) >= uar_owned_.size() || !uar_owned_[size_t(uar)])
            return errorf("alloc_pd: UAR page %" PRId64 " is no user context of host %s (alloc_ucontext)", uar,
                          cfg_.name.c_str());
        page = uint32_t(uar);
    }
    FROCE_TRY(limit(mbox_->alloc_pd(page, pdn), "MAX_PD " + std::to_string(caps_.max_pd)).context("alloc_pd"));
    pd_uar_[*pdn] = page;
    return Status();
}

Status Host::dealloc_pd(uint32_t pdn) {
    FROCE_TRY(need_fw("dealloc_pd"));
    FROCE_TRY(mbox_->dealloc_pd(pdn).context("dealloc_pd"));
    pd_uar_.erase(pdn);
    return Status();
}

int64_t Host::pd_uar(uint32_t pdn) const {
    auto it = pd_uar_.find(pdn);
    return it == pd_uar_.end() ? -1 : int64_t(it->second);
}

Status Host::alloc_slot(uint32_t page, uint32_t *slot) {
    if (page >= uar_slots_used_.size()) return errorf("UAR page %u beyond the %zu pages", page, uar_slots_used_.size());
    if (uar_slots_used_[page] >= FROCE_UAR_DB_SLOTS)
        return errorf("UAR page %u: all %u doorbell slots taken", page, unsigned(FROCE_UAR_DB_SLOTS));
    *slot = uar_slots_used_[page]++;
    return Status();
}

// ---- MRs ----

unsigned Host::backing_shift(uint64_t va, uint64_t len) const {
    // the largest page shift the backing allows is what alloc() used; find it by trying down from 21
    for (unsigned s = FROCE_MR_PAGE_SHIFT_MAX; s > 12; s--) {
        const uint64_t m = (uint64_t(1) << s) - 1;
        const uint64_t first = va & ~m, last = (va + len - 1) & ~m;
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
        if (okc) return s;
    }
    return 12;
}

Status Host::dma_pages(uint64_t va, uint64_t len, unsigned page_shift, std::vector<uint64_t> *pages) const {
    const uint64_t m = (uint64_t(1) << page_shift) - 1;
    const uint64_t first = va & ~m, last = (va + len - 1) & ~m;
    const uint64_t npages = ((last - first) >> page_shift) + 1;
    if (npages > (uint64_t(1) << 30)) return errorf("%" PRIu64 " pages", npages);
    pages->clear();
    for (uint64_t i = 0; i < npages; i++) {
        uint64_t c = first + (i << page_shift), pa0;
        FROCE_TRY(translate(c, &pa0));
        if (pa0 & m)
            return errorf("page at VA %#" PRIx64 " is at PA %#" PRIx64 ", not aligned to 2^%u", c, pa0, page_shift);
        for (uint64_t k = 1; k < ((m + 1) >> 12); k++) {
            uint64_t pa;
            FROCE_TRY(translate(c + (k << 12), &pa));
            if (pa != pa0 + (k << 12))
                return errorf("VA %#" PRIx64 " is not physically contiguous over 2^%u bytes", c, page_shift);
        }
        pages->push_back(pa0);
    }
    return Status();
}

Status Host::reg_mr(uint32_t pdn, uint64_t va, uint64_t len, uint8_t access, Mr *out, unsigned page_shift) {
    FROCE_TRY(need_fw("reg_mr"));
    if (!out) return errorf("reg_mr: null output");
    if (len == 0) return errorf("reg_mr: zero length");
    if (access & ~0x0Fu) return errorf("reg_mr: access %#x has bits beyond REMOTE_ATOMIC", access);
    if (va + len < va && va + len != 0) return errorf("reg_mr: IOVA %#" PRIx64 " + %#" PRIx64 " wraps past 2^64", va, len);
    if (page_shift == 0) {
        uint64_t pa;
        FROCE_TRY(translate(va, &pa).context("reg_mr"));
        page_shift = backing_shift(va, len);
    }
    if (page_shift < FROCE_MR_PAGE_SHIFT_MIN || page_shift > FROCE_MR_PAGE_SHIFT_MAX)
        return errorf("reg_mr: page shift %u outside %u..%u", page_shift, unsigned(FROCE_MR_PAGE_SHIFT_MIN),
                      unsigned(FROCE_MR_PAGE_SHIFT_MAX));
    std::vector<uint64_t> pages;
    FROCE_TRY(dma_pages(va, len, page_shift, &pages).context("reg_mr"));
    RegMrIn in;
    in.pdn = pdn;
    in.access = access;
    in.iova = va;
    in.length = len;
    FROCE_TRY(mbox_->make_buf(pages, page_shift, cfg_.buf_policy, &in.pbl).context("reg_mr"));
    uint32_t lkey = 0, rkey = 0;
    FROCE_TRY(limit(mbox_->reg_mr(in, &lkey, &rkey),
                    "MAX_MR " + std::to_string(caps_.max_mr) + ", MAX_MTT " + std::to_string(caps_.max_mtt)).context("reg_mr"));
    if (rkey != lkey) return errorf("reg_mr: REG_MR gave lkey %#x but rkey %#x", lkey, rkey);
    Mr mr;
    mr.index = lkey >> FROCE_KEY_TAG_W;
    mr.key = lkey;
    mr.pdn = pdn;
    mr.iova = va;
    mr.length = len;
    mr.page_shift = page_shift;
    mr.npages = uint32_t(pages.size());
    mr.access = access;
    mr.valid = true;
    mr_keys_[mr.index] = mr.key;
    *out = mr;
    return Status();
}

bool Host::mr_index_free(uint32_t index) const {
    return fw_up_ && index >= 1 && index <= caps_.max_mr && !mr_keys_.count(index);
}

Status Host::reg_mr_at(uint32_t index, uint32_t pdn, uint64_t va, uint64_t len, uint8_t access, Mr *out,
                       unsigned page_shift) {
    FROCE_TRY(need_fw("reg_mr_at"));
    if (index == 0 || index > caps_.max_mr) return errorf("reg_mr_at: MR index %u outside 1..%u", index, caps_.max_mr);
    if (!mr_index_free(index)) return errorf("reg_mr_at: MR index %u is in use", index);
    // the firmware hands out the lowest free index: fill the ones below
    std::vector<Mr> fillers;
    Status st;
    Mr mr;
    for (;;) {
        st = reg_mr(pdn, va, len, access, &mr, page_shift);
        if (!st.ok() || mr.index == index) break;
        if (mr.index > index) {
            st = errorf("reg_mr_at: the firmware gave MR index %u: index %u is not free there (a ring MR?)", mr.index,
                        index);
            fillers.push_back(mr);
            break;
        }
        fillers.push_back(mr);
    }
    for (Mr &f : fillers) {
        Status d = dereg_mr(&f);
        if (st.ok() && !d.ok()) st = d.context("reg_mr_at: filler");
    }
    if (!st.ok()) return st.context("reg_mr_at");
    *out = mr;
    return Status();
}

Status Host::dereg_mr(Mr *mr) {
    FROCE_TRY(need_fw("dereg_mr"));
    if (!mr || !mr->valid) return errorf("dereg_mr: not a registered MR");
    FROCE_TRY(mbox_->dereg_mr(mr->key).context("dereg_mr"));
    auto it = mr_keys_.find(mr->index);
    if (it != mr_keys_.end() && it->second == mr->key) mr_keys_.erase(it);
    mr->valid = false;
    return Status();
}

// ---- CQs ----

Status Host::create_cq(unsigned log_size, uint32_t pdn, Cq **out, uint32_t eqn) {
    FROCE_TRY(need_fw("create_cq"));
    if (!out) return errorf("create_cq: null output");
    if (log_size < 1 || (uint64_t(1) << log_size) > caps_.max_cqe)
        return errorf("create_cq: log size %u outside 1..log2(MAX_CQE %u)", log_size, caps_.max_cqe);
    const int64_t uar = pd_uar(pdn);
    if (uar < 0) return errorf("create_cq: PD %u is not one of host %s's (alloc_pd)", pdn, cfg_.name.c_str());
    auto cq = std::make_unique<Cq>();
    cq->log_size = log_size;
    cq->eqn = eqn;
    cq->uar = uint32_t(uar);
    const uint64_t bytes = uint64_t(FROCE_CQE_SIZE) << log_size;
    FROCE_TRY(alloc(bytes, &cq->ring).context("create_cq"));   // whole pages from its start
    FROCE_TRY(fill(cq->ring.va, 0, cq->ring.len).context("create_cq"));
    std::vector<uint64_t> pages;
    FROCE_TRY(dma_pages(cq->ring.va, uint64_t(ring_pages(bytes)) << 12, 12, &pages).context("create_cq"));
    BufDesc ring;
    FROCE_TRY(mbox_->make_buf(pages, 12, cfg_.buf_policy == BufPolicy::CONTIG ? BufPolicy::AUTO : cfg_.buf_policy,
                              &ring).context("create_cq"));
    FROCE_TRY(limit(mbox_->create_cq(ring, log_size, eqn, cq->uar, &cq->cqn),
                    "MAX_CQ " + std::to_string(caps_.max_cq) + ", MAX_MR " + std::to_string(caps_.max_mr)).context("create_cq"));
    FROCE_TRY(alloc_slot(cq->uar, &cq->slot).context("create_cq"));
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
    if (eqn != 0) {
        FROCE_TRY(need_fw("create_eq"));
        if (eqn >= caps_.max_eq) return errorf("create_eq: EQN %u beyond the %u EQs", eqn, caps_.max_eq);
    }
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
        // the ring as one CONTIG BUF of 4 KiB pages (the event engine writes by DMA address)
        BufDesc ring;
        ring.addr = eq->pa;
        ring.num_pages = ring_pages(bytes);
        ring.page_shift = 12;
        ring.level = FROCE_BUF_LEVEL_CONTIG;
        // the firmware gives the lowest free EQN: EQs created on the same ring
        // fill the free ones below eqn (no CQ reports to them, so the engine
        // never writes there), then go again
        std::vector<uint32_t> fillers;
        Status st;
        for (;;) {
            uint32_t got = 0;
            st = mbox_->create_eq(ring, log_size, vector, &got);
            if (!st.ok() || got == eqn) break;
            fillers.push_back(got);
            if (got > eqn) {
                st = errorf("the firmware gave EQN %u: EQ %u is not free there", got, eqn);
                break;
            }
        }
        for (uint32_t f : fillers) {
            Status d = mbox_->destroy_eq(f);
            if (st.ok() && !d.ok()) st = d;
        }
        FROCE_TRY(st.context("create_eq"));
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
    FROCE_TRY(nic_.bar0_read32(FROCE_BAR0_ICOUNTERS_BASE + 8 * idx, &lo).context("read_icounter"));
    FROCE_TRY(nic_.bar0_read32(FROCE_BAR0_ICOUNTERS_BASE + 8 * idx + 4, &hi).context("read_icounter"));
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

Status Host::read_counter(unsigned idx, uint32_t *v) {
    if (!v) return errorf("read_counter: null output");
    if (idx >= FROCE_CNT_NUM) return errorf("read_counter: counter %u beyond the %u counters", idx, unsigned(FROCE_CNT_NUM));
    return nic_.bar0_read32(FROCE_BAR0_COUNTERS_BASE + 8 * idx, v).context("read_counter");
}

Status Host::query_counters(std::vector<uint64_t> *out, bool clear) {
    FROCE_TRY(need_fw("query_counters"));
    if (!out) return errorf("query_counters: null output");
    return mbox_->query_counters(clear, out).context("query_counters");
}

Status Host::alloc_uar_page(uint32_t *page) {
    FROCE_TRY(need_fw("alloc_uar_page"));
    if (!page) return errorf("alloc_uar_page: null output");
    // from the top, away from the pages user contexts take first
    for (uint32_t p = uint32_t(uar_owned_.size()) - 1; p >= 1; p--) {
        if (!uar_owned_[p] && uar_slots_used_[p] == 0) {
            uar_owned_[p] = 1;
            uar_slots_used_[p] = FROCE_UAR_DB_SLOTS;
            *page = p;
            return Status();
        }
    }
    return errorf("alloc_uar_page: no UAR page without a context");
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
    FROCE_TRY(need_fw("create_qp"));
    if (!out || !scq || !rcq) return errorf("create_qp: null CQ or output");
    if (caps.type != FROCE_QP_TYPE_RC && caps.type != FROCE_QP_TYPE_UC && caps.type != FROCE_QP_TYPE_UD)
        return errorf("create_qp: QP type %u not RC, UC or UD", caps.type);
    if (caps.max_send_wr < 1 || caps.max_send_wr > caps_.max_qp_wr || caps.max_recv_wr < 1 ||
        caps.max_recv_wr > caps_.max_qp_wr)
        return errorf("create_qp: max_send_wr %u / max_recv_wr %u outside 1..%u (MAX_QP_WR)", caps.max_send_wr,
                      caps.max_recv_wr, caps_.max_qp_wr);
    if (caps.qkey && caps.type != FROCE_QP_TYPE_UD)
        return errorf("create_qp: a Q_Key (%#x) on a QP of type %u: Q_Keys are for UD QPs", caps.qkey, caps.type);
    const int64_t uar = pd_uar(pdn);
    if (uar < 0) return errorf("create_qp: PD %u is not one of host %s's (alloc_pd)", pdn, cfg_.name.c_str());
    if (scq->uar != uint32_t(uar) || rcq->uar != uint32_t(uar))
        return errorf("create_qp: PD %u is in the user context of UAR page %" PRId64 ", the CQs %u and %u in pages "
                      "%u and %u: a QP's PD and CQs belong to one context",
                      pdn, uar, scq->cqn, rcq->cqn, scq->uar, rcq->uar);
    auto qp = std::make_unique<Qp>();
    qp->caps = caps;
    qp->pdn = pdn;
    qp->scq = scq;
    qp->rcq = rcq;
    qp->uar = uint32_t(uar);
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
    const uint32_t sq_pages = ring_pages(sq_len), rq_pages = ring_pages(rq_len);
    // SQ pages, then the RQ from the next page on
    FROCE_TRY(alloc((uint64_t(sq_pages) << 12) + rq_len, &qp->ring).context("create_qp"));
    FROCE_TRY(fill(qp->ring.va, 0, qp->ring.len).context("create_qp"));
    qp->sq_va = qp->ring.va;
    qp->rq_va = qp->ring.va + (uint64_t(sq_pages) << 12);
    std::vector<uint64_t> sqp, rqp;
    FROCE_TRY(dma_pages(qp->sq_va, uint64_t(sq_pages) << 12, 12, &sqp).context("create_qp"));
    FROCE_TRY(dma_pages(qp->rq_va, uint64_t(rq_pages) << 12, 12, &rqp).context("create_qp"));
    const BufPolicy pol = cfg_.buf_policy == BufPolicy::CONTIG ? BufPolicy::AUTO : cfg_.buf_policy;
    CreateQpIn in;
    in.type = caps.type;
    in.sig_all = caps.sig_all;
    in.pdn = pdn;
    in.send_cqn = scq->cqn;
    in.recv_cqn = rcq->cqn;
    in.uar = qp->uar;
    in.log_sq_size = qp->sq_log;
    in.sq_wqe_shift = qp->sq_shift;
    in.log_rq_size = qp->rq_log;
    in.rq_wqe_shift = qp->rq_shift;
    FROCE_TRY(mbox_->make_buf(sqp, 12, pol, &in.sq_buf).context("create_qp"));
    FROCE_TRY(mbox_->make_buf(rqp, 12, pol, &in.rq_buf).context("create_qp"));
    FROCE_TRY(limit(mbox_->create_qp(in, &qp->qpn),
                    "MAX_QP " + std::to_string(caps_.max_qp) + ", MAX_MR " + std::to_string(caps_.max_mr)).context("create_qp"));
    if (qp_map_.count(qp->qpn)) return errorf("create_qp: the firmware gave QPN %#x, which host %s has", qp->qpn, cfg_.name.c_str());
    // SQ and RQ doorbells in the context's page, a slot each
    FROCE_TRY(alloc_slot(qp->uar, &qp->sq_slot).context("create_qp"));
    FROCE_TRY(alloc_slot(qp->uar, &qp->rq_slot).context("create_qp"));
    qp->state = FROCE_QP_STATE_RESET;
    qp_map_[qp->qpn] = qp.get();
    *out = qp.get();
    qps_.push_back(std::move(qp));
    return Status();
}

Status Host::check_qp(const Qp *qp, const char *what) const {
    if (!qp) return errorf("%s: null QP", what);
    auto it = qp_map_.find(qp->qpn);
    if (it == qp_map_.end() || it->second != qp) return errorf("%s: QP %#x does not belong to host %s", what, qp->qpn,
                                                                cfg_.name.c_str());
    return Status();
}

Status Host::modify(Qp *qp, const QpAttr &a, const char *what) {
    FROCE_TRY(mbox_->modify_qp(qp->qpn, a).context(what));
    qp->state = uint8_t(a.state);
    return Status();
}

Status Host::modify_qp_init(Qp *qp, uint8_t access) {
    FROCE_TRY(need_fw("modify_qp_init"));
    FROCE_TRY(check_qp(qp, "modify_qp_init"));
    if (qp->state != FROCE_QP_STATE_RESET && qp->state != FROCE_QP_STATE_INIT)
        return errorf("modify_qp_init: QP %#x is in state %u, not RESET or INIT", qp->qpn, qp->state);
    if (access & ~0x0Fu) return errorf("modify_qp_init: access %#x has unknown bits", access);
    if (qp->caps.type == FROCE_QP_TYPE_UD && access)
        return errorf("modify_qp_init: QP %#x is a UD QP: no access flags (%#x)", qp->qpn, access);
    return modify(qp, qp_to_init(qp->caps.type, access, qp->caps.qkey), "modify_qp_init");
}

Status Host::check_path(const Path &path) const {
    if (path.sgid_index >= caps_.num_gid) return errorf("SGID index %u", path.sgid_index);
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
    FROCE_TRY(need_fw("modify_qp_rtr"));
    FROCE_TRY(check_qp(qp, "modify_qp_rtr"));
    if (qp->caps.type != FROCE_QP_TYPE_RC && qp->caps.type != FROCE_QP_TYPE_UC)
        return errorf("modify_qp_rtr: QP %#x is not connected (modify_qp_ud_rts)", qp->qpn);
    if (qp->state != FROCE_QP_STATE_INIT)
        return errorf("modify_qp_rtr: QP %#x is in state %u, not INIT", qp->qpn, qp->state);
    if (mtu_enum < FROCE_MTU_256 || mtu_enum > FROCE_MTU_4096) return errorf("modify_qp_rtr: MTU enum %u", mtu_enum);
    if (!field_fits(dest_qpn, FROCE_QPC_DEST_QPN_W) || !field_fits(rq_psn, FROCE_QPC_RQ_PSN_W))
        return errorf("modify_qp_rtr: dest QPN %#x or RQ PSN %#x wider than 24 bits", dest_qpn, rq_psn);
    if (max_dest_rd_atomic == kDeviceMax) max_dest_rd_atomic = caps_.max_qp_rd_atom;
    if (!field_fits(min_rnr_timer, FROCE_QPC_MIN_RNR_TIMER_W) || max_dest_rd_atomic > 255)
        return errorf("modify_qp_rtr: min_rnr_timer %u / max_dest_rd_atomic %u out of range", min_rnr_timer,
                      max_dest_rd_atomic);
    FROCE_TRY(check_path(path).context("modify_qp_rtr"));
    AvAttr av;
    av.sgid_index = path.sgid_index;
    av.hop_limit = path.hop_limit;
    av.tclass = path.tclass;
    av.net_type = path.net_type;
    av.vlan_en = path.vlan_en;
    av.flow_label = path.flow_label;
    av.udp_sport = path.udp_sport;
    av.vlan_id = path.vlan_id;
    av.dmac = path.dmac;
    std::memcpy(av.dgid, path.dgid.raw, 16);
    return modify(qp, qp_rc_to_rtr(av, mtu_enum, dest_qpn, rq_psn, min_rnr_timer, max_dest_rd_atomic), "modify_qp_rtr");
}

Status Host::modify_qp_rts(Qp *qp, uint32_t sq_psn, unsigned timeout, unsigned retry_cnt, unsigned rnr_retry,
                           unsigned max_rd_atomic) {
    FROCE_TRY(need_fw("modify_qp_rts"));
    FROCE_TRY(check_qp(qp, "modify_qp_rts"));
    if (qp->caps.type != FROCE_QP_TYPE_RC && qp->caps.type != FROCE_QP_TYPE_UC)
        return errorf("modify_qp_rts: QP %#x is not connected (modify_qp_ud_rts)", qp->qpn);
    if (qp->state != FROCE_QP_STATE_RTR)
        return errorf("modify_qp_rts: QP %#x is in state %u, not RTR", qp->qpn, qp->state);
    if (max_rd_atomic == kDeviceMax) max_rd_atomic = caps_.max_qp_init_rd_atom;
    if (!field_fits(sq_psn, 24) || !field_fits(timeout, FROCE_QPC_TIMEOUT_W) || retry_cnt > 7 || rnr_retry > 7 ||
        max_rd_atomic > 255)
        return errorf("modify_qp_rts: SQ PSN %#x, timeout %u, retry %u, rnr_retry %u or max_rd_atomic %u out of range",
                      sq_psn, timeout, retry_cnt, rnr_retry, max_rd_atomic);
    return modify(qp, qp_rc_to_rts(sq_psn, timeout, retry_cnt, rnr_retry, max_rd_atomic), "modify_qp_rts");
}

Status Host::modify_qp_ud_rts(Qp *qp, unsigned mtu_enum, uint32_t sq_psn) {
    FROCE_TRY(need_fw("modify_qp_ud_rts"));
    FROCE_TRY(check_qp(qp, "modify_qp_ud_rts"));
    if (qp->caps.type != FROCE_QP_TYPE_UD)
        return errorf("modify_qp_ud_rts: QP %#x is not a UD QP", qp->qpn);
    if (qp->state != FROCE_QP_STATE_INIT)
        return errorf("modify_qp_ud_rts: QP %#x is in state %u, not INIT", qp->qpn, qp->state);
    if (mtu_enum < FROCE_MTU_256 || mtu_enum > FROCE_MTU_4096) return errorf("modify_qp_ud_rts: MTU enum %u", mtu_enum);
    if (!field_fits(sq_psn, 24)) return errorf("modify_qp_ud_rts: SQ PSN %#x wider than 24 bits", sq_psn);
    PortInfo pi;
    FROCE_TRY(mbox_->query_port(&pi).context("modify_qp_ud_rts"));
    if (pi.active_mtu != mtu_enum) {
        PortSet ps = port_;
        ps.mac = pi.mac;
        ps.mtu = eth_mtu_for(mtu_enum);
        FROCE_TRY(set_port(ps).context("modify_qp_ud_rts: the port's MTU"));
    }
    FROCE_TRY(modify(qp, qp_ud_to_rtr(), "modify_qp_ud_rts"));
    return modify(qp, qp_ud_to_rts(sq_psn), "modify_qp_ud_rts");
}

Status Host::modify_qp_err(Qp *qp) {
    FROCE_TRY(need_fw("modify_qp_err"));
    FROCE_TRY(check_qp(qp, "modify_qp_err"));
    return modify(qp, qp_to_state(FROCE_QP_STATE_ERR), "modify_qp_err");
}

Status Host::query_qp(Qp *qp, QpAttr *out) {
    FROCE_TRY(need_fw("query_qp"));
    FROCE_TRY(check_qp(qp, "query_qp"));
    if (!out) return errorf("query_qp: null output");
    return mbox_->query_qp(qp->qpn, out).context("query_qp");
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
        if (!inline_bytes.empty()) std::memcpy(seg, inline_bytes.data(), inline_bytes.size());
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
