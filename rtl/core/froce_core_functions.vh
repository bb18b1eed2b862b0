// SPDX-License-Identifier: MIT
// Functions shared by the transport-engine blocks. Included inside a module
// body (Verilog-2005 functions live in modules), so there is no include guard.
// (Function-like macros would do too, but crash Icarus 11 in library mode.)

// Path MTU enum (FROCE_MTU_*) -> log2 of the bytes; out-of-range codes act as 256 / 4096
function [3:0] mtu_log2;
    input [2:0] code;
    begin
        mtu_log2 = 4'd7 + {1'b0, code < 3'd1 ? 3'd1 : code > 3'd5 ? 3'd5 : code};
    end
endfunction

// Path MTU enum -> bytes
function [12:0] mtu_bytes;
    input [2:0] code;
    begin
        mtu_bytes = 13'd1 << mtu_log2(code);
    end
endfunction

// Packets of a READ response of len bytes at MTU 2^shift (at least one)
/* verilator lint_off UNUSEDSIGNAL */   // packets[32:24]: at most 2^23 packets (2 GiB / 256)
function [23:0] read_packets;
    input [31:0] len;
    input [3:0] shift;
    reg [32:0] rounded;
    reg [32:0] packets;
    begin
        rounded = {1'b0, len} + ((33'd1 << shift) - 33'd1);
        packets = rounded >> shift;
        read_packets = len == 32'd0 ? 24'd1 : packets[23:0];
    end
endfunction
/* verilator lint_on UNUSEDSIGNAL */

// MR/MTT translation status -> CQE vendor syndrome of a failed local key
function [7:0] lkey_vendor_err;
    input [2:0] status;
    begin
        case (status)
        `FROCE_XLATE_PD_MISMATCH: lkey_vendor_err = `FROCE_VENDOR_ERR_LKEY_PD;
        `FROCE_XLATE_BOUNDS: lkey_vendor_err = `FROCE_VENDOR_ERR_LKEY_BOUNDS;
        `FROCE_XLATE_ACCESS: lkey_vendor_err = `FROCE_VENDOR_ERR_LKEY_ACCESS;
        default: lkey_vendor_err = `FROCE_VENDOR_ERR_LKEY_INVALID;
        endcase
    end
endfunction

// WQE opcode (FROCE_WQE_OP_*) -> CQE opcode of its completion
function [7:0] cqe_opcode_of_wqe;
    input [7:0] op;
    begin
        case (op)
        `FROCE_WQE_OP_RDMA_WRITE, `FROCE_WQE_OP_RDMA_WRITE_WITH_IMM: cqe_opcode_of_wqe = `FROCE_CQE_OP_RDMA_WRITE;
        `FROCE_WQE_OP_RDMA_READ: cqe_opcode_of_wqe = `FROCE_CQE_OP_RDMA_READ;
        `FROCE_WQE_OP_ATOMIC_CMP_SWP: cqe_opcode_of_wqe = `FROCE_CQE_OP_COMP_SWAP;
        `FROCE_WQE_OP_ATOMIC_FETCH_ADD: cqe_opcode_of_wqe = `FROCE_CQE_OP_FETCH_ADD;
        `FROCE_WQE_OP_NOP: cqe_opcode_of_wqe = `FROCE_CQE_OP_NOP;
        default: cqe_opcode_of_wqe = `FROCE_CQE_OP_SEND;
        endcase
    end
endfunction

// PSN a comes before PSN b (24-bit serial arithmetic: within half the space)
function psn_before;
    input [23:0] a;
    input [23:0] b;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [23:0] d;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        d = a - b;
        psn_before = d[23];
    end
endfunction
