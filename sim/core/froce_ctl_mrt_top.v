// SPDX-License-Identifier: MIT
// Simulation-only top for froce-sim-selftest: froce_mr_xlate behind the
// control-bus port of froce_core (23-bit word address in the CTL_* map), so
// that the harness's control-bus master is checked against real RTL before
// froce_core decodes its bus. Only the MR/MTT block (FROCE_CTL_MRT_BASE) is
// present; other addresses are accepted, ignored on write and read as 0 with
// the same two-cycle latency. Translation requests are tied off.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

module froce_ctl_mrt_top #(
    parameter NUM_MRS = 1024,
    parameter NUM_MTT = 65536
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         ctl_valid,
    output wire         ctl_ready,
    input  wire         ctl_write,
    input  wire [22:0]  ctl_addr,
    input  wire [31:0]  ctl_wdata,
    output wire [31:0]  ctl_rdata,
    output wire         ctl_rvalid
);

    localparam [22:0] MRT_WORD = `FROCE_CTL_MRT_BASE >> 2;
    localparam [22:0] MRT_WORDS = `FROCE_MRT_CTL_SPAN >> 2;

    wire in_mrt = ctl_addr >= MRT_WORD && ctl_addr < MRT_WORD + MRT_WORDS;
    wire [22:0] mrt_word = ctl_addr - MRT_WORD;

    wire        mrt_ready;
    wire [31:0] mrt_rdata;
    wire        mrt_rvalid;

    // reads of other addresses: zero, two cycles later (like the MRT block)
    reg [1:0] other_rd;
    always @(posedge clk) begin
        if (rst) other_rd <= 2'b00;
        else other_rd <= {other_rd[0], ctl_valid && !in_mrt && !ctl_write};
    end

    assign ctl_ready = in_mrt ? mrt_ready : 1'b1;
    assign ctl_rvalid = mrt_rvalid || other_rd[1];
    assign ctl_rdata = mrt_rvalid ? mrt_rdata : 32'd0;

    /* verilator lint_off PINCONNECTEMPTY */
    froce_mr_xlate #(
        .NUM_MRS(NUM_MRS),
        .NUM_MTT(NUM_MTT),
        .TAG_W(8)
    ) u_mrt (
        .clk(clk),
        .rst(rst),
        .ctl_valid(ctl_valid && in_mrt),
        .ctl_ready(mrt_ready),
        .ctl_write(ctl_write),
        .ctl_addr(mrt_word[21:0]),
        .ctl_wdata(ctl_wdata),
        .ctl_rdata(mrt_rdata),
        .ctl_rvalid(mrt_rvalid),
        .s_req_valid(1'b0),
        .s_req_ready(),
        .s_req_key(32'd0),
        .s_req_pd(24'd0),
        .s_req_va(64'd0),
        .s_req_len(32'd0),
        .s_req_access(4'd0),
        .s_req_tag(8'd0),
        .m_seg_valid(),
        .m_seg_ready(1'b1),
        .m_seg_addr(),
        .m_seg_len(),
        .m_seg_first(),
        .m_seg_last(),
        .m_seg_status(),
        .m_seg_tag(),
        .busy()
    );
    /* verilator lint_on PINCONNECTEMPTY */

endmodule

`resetall
