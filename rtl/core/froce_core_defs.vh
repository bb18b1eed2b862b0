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


// Response header, packed: the fields of a parsed header (RHDR, froce_hw.vh)
// an ACK, NAK, atomic ACK or READ response carries, as the rx engine makes it
// and the tx engine sends it; the others are zero but for IP DF (1) and the
// P_Key (0xFFFF). Packed for the response queue and the READ job FIFO, whose
// entries were whole RHDRs (resp_pack / resp_unpack in
// froce_core_functions.vh).
`define FROCE_RESP_KIND_LSB 0
`define FROCE_RESP_VLAN_EN_LSB 3
`define FROCE_RESP_VLAN_PCP_LSB 4
`define FROCE_RESP_VLAN_VID_LSB 7
`define FROCE_RESP_ETH_DST_LSB 19
`define FROCE_RESP_ETH_SRC_LSB 67
`define FROCE_RESP_SGID_LSB 115
`define FROCE_RESP_DGID_LSB 243
`define FROCE_RESP_TCLASS_LSB 371
`define FROCE_RESP_FLOW_LABEL_LSB 379
`define FROCE_RESP_HOP_LIMIT_LSB 399
`define FROCE_RESP_UDP_SPORT_LSB 407
`define FROCE_RESP_OPCODE_LSB 423
`define FROCE_RESP_DQPN_LSB 431
`define FROCE_RESP_PSN_LSB 455
`define FROCE_RESP_AETH_SYNDROME_LSB 479
`define FROCE_RESP_AETH_MSN_LSB 487
`define FROCE_RESP_ATOMICACK_ORIG_LSB 511
`define FROCE_RESP_W 575

`endif
