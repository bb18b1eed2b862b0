// SPDX-License-Identifier: MIT
// Field access on little-endian byte images of the layouts in froce_hw.h.
//
//   uint8_t qpc[FROCE_QPC_SIZE] = {};
//   FSET_DW(qpc, FROCE_QPC_STATE, FROCE_QP_STATE_INIT);   // field in a dword
//   FSET_QW(qpc, FROCE_QPC_SQ_VA, va);                    // field in a qword
//   uint32_t s = FGET_DW(qpc, FROCE_QPC_STATE);
//
// Every offset comes from the generated _DW/_QW/_SHIFT/_MASK macros.
#pragma once

#include <cstdint>
#include <cstring>

#include "froce_hw.h"

namespace froce_sim {

inline uint32_t ld32(const uint8_t *p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline void st32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = uint8_t(v >> (8 * i));
}
inline uint64_t ld64(const uint8_t *p) { return uint64_t(ld32(p)) | uint64_t(ld32(p + 4)) << 32; }
inline void st64(uint8_t *p, uint64_t v) {
    st32(p, uint32_t(v));
    st32(p + 4, uint32_t(v >> 32));
}

inline void field_set32(uint8_t *buf, unsigned dw, uint32_t mask, unsigned shift, uint64_t v) {
    uint32_t w = ld32(buf + 4 * dw);
    w = (w & ~mask) | ((uint32_t(v) << shift) & mask);
    st32(buf + 4 * dw, w);
}
inline uint32_t field_get32(const uint8_t *buf, unsigned dw, uint32_t mask, unsigned shift) {
    return (ld32(buf + 4 * dw) & mask) >> shift;
}
inline void field_set64(uint8_t *buf, unsigned qw, uint64_t mask, unsigned shift, uint64_t v) {
    uint64_t w = ld64(buf + 8 * qw);
    w = (w & ~mask) | ((v << shift) & mask);
    st64(buf + 8 * qw, w);
}
inline uint64_t field_get64(const uint8_t *buf, unsigned qw, uint64_t mask, unsigned shift) {
    return (ld64(buf + 8 * qw) & mask) >> shift;
}

// Does value v fit in field F (w bits)?
inline bool field_fits(uint64_t v, unsigned w) { return w >= 64 || v < (uint64_t(1) << w); }

}  // namespace froce_sim

#define FSET_DW(buf, F, v) ::froce_sim::field_set32((buf), F##_DW, F##_MASK, F##_SHIFT, (v))
#define FGET_DW(buf, F) ::froce_sim::field_get32((buf), F##_DW, F##_MASK, F##_SHIFT)
#define FSET_QW(buf, F, v) ::froce_sim::field_set64((buf), F##_QW, F##_MASK, F##_SHIFT, (v))
#define FGET_QW(buf, F) ::froce_sim::field_get64((buf), F##_QW, F##_MASK, F##_SHIFT)
