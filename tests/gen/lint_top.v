// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
// Lint wrapper: uses rtl/include/froce_hw.vh the way RTL will (part selects of
// the RHDR bundle and of a CQE, sized constants in comparisons and case
// labels) so that `verilator --lint-only -Wall` checks the macros' widths.
// Included twice on purpose: the include guard must make that harmless.

`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"
`include "froce_hw.vh"

module lint_top (
    input  wire [`FROCE_RHDR_W-1:0]        rhdr,
    input  wire [8*`FROCE_CQE_SIZE-1:0]    cqe,
    input  wire [`FROCE_BAR0_ADDR_W-1:0]   addr,
    output wire                            roce_ack,
    output wire [`FROCE_BTH_PSN_W-1:0]     psn,
    output wire                            owner,
    output reg  [31:0]                     rdata,
    output wire [5:0]                      ext_len,
    output wire [10:0]                     flags
);

    wire [7:0] opcode = rhdr[`FROCE_RHDR_OPCODE_LSB +: `FROCE_RHDR_OPCODE_W];
    wire [2:0] kind = rhdr[`FROCE_RHDR_KIND_LSB +: `FROCE_RHDR_KIND_W];
    wire [7:0] cqe_status = cqe[`FROCE_CQE_STATUS_LSB +: `FROCE_CQE_STATUS_W];

    assign roce_ack = (kind == `FROCE_KIND_ROCE_V2_IPV4) && (opcode == `FROCE_OP_RC_ACKNOWLEDGE)
                      && (rhdr[`FROCE_RHDR_PKEY_LSB +: `FROCE_RHDR_PKEY_W] == `FROCE_DEFAULT_PKEY)
                      && (cqe_status == `FROCE_WC_SUCCESS);
    assign psn = rhdr[`FROCE_RHDR_PSN_LSB +: `FROCE_RHDR_PSN_W];
    assign owner = cqe[`FROCE_CQE_OWNER_LSB];

    always @* begin
        case (addr)
            `FROCE_REG_ID:         rdata = {`FROCE_PCI_DEVICE_ID, `FROCE_PCI_VENDOR_ID};
            `FROCE_REG_HW_VERSION: rdata = `FROCE_HW_VERSION;
            `FROCE_REG_SPEC_HASH:  rdata = `FROCE_HW_SPEC_HASH;
            default:               rdata = 32'd0;
        endcase
    end

    froce_opcode_info u_info (
        .opcode           (opcode),
        .valid            (flags[10]),
        .has_reth         (flags[9]),
        .has_aeth         (flags[8]),
        .has_deth         (flags[7]),
        .has_immdt        (flags[6]),
        .has_ieth         (flags[5]),
        .has_atomiceth    (flags[4]),
        .has_atomicacketh (flags[3]),
        .has_payload      (flags[2]),
        .pos_first        (flags[1]),
        .pos_last         (flags[0]),
        .ext_len          (ext_len)
    );

    // Unused on purpose: the rest of the bundle and of the CQE.
    wire unused_ok = &{1'b0, rhdr, cqe};

endmodule

`resetall
