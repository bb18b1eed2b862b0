// SPDX-License-Identifier: MIT
// Definitions shared by the transport-engine blocks (froce_core, its tx and
// rx engines). Device-internal: nothing here crosses the hardware/firmware
// boundary, so it lives here rather than in spec/. Include after froce_hw.vh.

`ifndef FROCE_CORE_DEFS_VH
`define FROCE_CORE_DEFS_VH

// In-flight table entry: one per WQE the requester has sent and the completer
// has not retired; written by the requester, read by both engines.
// bits: first PSN [23:0], last PSN [47:24], WQE index [63:48], signaled [64]
// (a CQE is due when it retires), WQE opcode [72:65], message bytes [104:73]
`define FROCE_INFLIGHT_FIRST_PSN_LSB 0
`define FROCE_INFLIGHT_LAST_PSN_LSB 24
`define FROCE_INFLIGHT_INDEX_LSB 48
`define FROCE_INFLIGHT_SIGNALED_LSB 64
`define FROCE_INFLIGHT_OPCODE_LSB 65
`define FROCE_INFLIGHT_BYTES_LSB 73
`define FROCE_INFLIGHT_BITS 105

`endif
