// SPDX-License-Identifier: MIT
// Definitions shared by the transport-engine blocks (froce_core, its tx and
// rx engines). Device-internal: nothing here crosses the hardware/firmware
// boundary, so it lives here rather than in spec/. Include after froce_hw.vh.

`ifndef FROCE_CORE_DEFS_VH
`define FROCE_CORE_DEFS_VH

// In-flight table entry: one per WQE the requester has sent and the completer
// has not retired; written by the requester, read by both engines (the
// requester reads the first PSN only, so that field is a table of its own).
// The WQE index is not stored: the entry of WQE i is slot i mod OUTSTANDING,
// and the completer reads it at its own index.
// bits: first PSN [23:0], last PSN [47:24], signaled [48] (a CQE is due when
// it retires), WQE opcode [56:49], message bytes [88:57]
`define FROCE_INFLIGHT_FIRST_PSN_LSB 0
`define FROCE_INFLIGHT_LAST_PSN_LSB 24
`define FROCE_INFLIGHT_SIGNALED_LSB 48
`define FROCE_INFLIGHT_OPCODE_LSB 49
`define FROCE_INFLIGHT_BYTES_LSB 57
`define FROCE_INFLIGHT_BITS 89


// A response (ACK, NAK, atomic ACK, or the AETH of a READ response job) as
// the rx engine hands it to the tx engine through the response queue: only
// what is its own. The path (MACs, GIDs, VLAN, traffic class, flow label,
// hop limit, UDP source port) and the destination QP come from the QP's
// context in the tx engine, as rxe addresses its responses from the QP's
// address vector; echoing the request's headers made every queue entry 575
// bits wide.
`define FROCE_RESP_OPCODE_LSB 0
`define FROCE_RESP_PSN_LSB 8
`define FROCE_RESP_AETH_SYNDROME_LSB 32
`define FROCE_RESP_AETH_MSN_LSB 40
`define FROCE_RESP_ATOMICACK_ORIG_LSB 64
`define FROCE_RESP_W 128

`endif
