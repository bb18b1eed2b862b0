// SPDX-License-Identifier: MIT
// AXI4-Lite write guard: answers writes itself while the slave behind it is in reset, so a write the slave took and lost in the reset still gets its B response.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Counts the AW and W handshakes on the port (s_axil_*) that have no B
 * response yet. With hold = 0 and nothing owed by the guard, everything
 * passes through to the slave (m_axil_*). While hold = 1 (the slave is in
 * reset), and afterwards until every write started on the port has had its
 * B, the guard takes AW and W itself (AWREADY = WREADY = 1, the write is
 * dropped) and sends one OKAY B per AW + W pair owed, whether the slave or
 * the guard took them: the slave lost what it held when it was reset. The
 * slave sees no VALID meanwhile, so it starts clean.
 *
 * A B the slave offers in the cycle hold rises is still taken by the port.
 */
module froce_axil_wr_guard #(
    parameter ADDR_WIDTH = 16,
    parameter DATA_WIDTH = 64,
    parameter CNT_WIDTH = 4             // writes outstanding on the port: < 2^CNT_WIDTH
) (
    input  wire                         clk,
    input  wire                         rst,
    input  wire                         hold,

    input  wire [ADDR_WIDTH-1:0]        s_axil_awaddr,
    input  wire                         s_axil_awvalid,
    output wire                         s_axil_awready,
    input  wire [DATA_WIDTH-1:0]        s_axil_wdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axil_wstrb,
    input  wire                         s_axil_wvalid,
    output wire                         s_axil_wready,
    output wire [1:0]                   s_axil_bresp,
    output wire                         s_axil_bvalid,
    input  wire                         s_axil_bready,

    output wire [ADDR_WIDTH-1:0]        m_axil_awaddr,
    output wire                         m_axil_awvalid,
    input  wire                         m_axil_awready,
    output wire [DATA_WIDTH-1:0]        m_axil_wdata,
    output wire [DATA_WIDTH/8-1:0]      m_axil_wstrb,
    output wire                         m_axil_wvalid,
    input  wire                         m_axil_wready,
    input  wire [1:0]                   m_axil_bresp,
    input  wire                         m_axil_bvalid,
    output wire                         m_axil_bready
);

reg [CNT_WIDTH-1:0] aw_owed, w_owed;    // handshakes on the port without a B
reg answering;                          // the guard owns the port

assign m_axil_awaddr = s_axil_awaddr;
assign m_axil_wdata = s_axil_wdata;
assign m_axil_wstrb = s_axil_wstrb;
assign m_axil_awvalid = s_axil_awvalid && !answering;
assign m_axil_wvalid = s_axil_wvalid && !answering;
assign s_axil_awready = answering ? !(&aw_owed) : m_axil_awready;
assign s_axil_wready = answering ? !(&w_owed) : m_axil_wready;
wire own_b = aw_owed != {CNT_WIDTH{1'b0}} && w_owed != {CNT_WIDTH{1'b0}};
assign s_axil_bvalid = answering ? own_b : m_axil_bvalid;
assign s_axil_bresp = answering ? 2'b00 : m_axil_bresp;
assign m_axil_bready = !answering && s_axil_bready;

wire aw_fire = s_axil_awvalid && s_axil_awready;
wire w_fire = s_axil_wvalid && s_axil_wready;
wire b_fire = s_axil_bvalid && s_axil_bready;
wire [CNT_WIDTH-1:0] aw_next = aw_owed + {{(CNT_WIDTH-1){1'b0}}, aw_fire} - {{(CNT_WIDTH-1){1'b0}}, b_fire};
wire [CNT_WIDTH-1:0] w_next = w_owed + {{(CNT_WIDTH-1){1'b0}}, w_fire} - {{(CNT_WIDTH-1){1'b0}}, b_fire};

always @(posedge clk) begin
    aw_owed <= aw_next;
    w_owed <= w_next;
    // own the port from hold until it is quiet; give it back only when no
    // write is half-way (the slave must see whole AW + W pairs)
    if (hold)
        answering <= 1'b1;
    else if (answering && aw_next == {CNT_WIDTH{1'b0}} && w_next == {CNT_WIDTH{1'b0}})
        answering <= 1'b0;
    if (rst) begin
        aw_owed <= {CNT_WIDTH{1'b0}};
        w_owed <= {CNT_WIDTH{1'b0}};
        answering <= 1'b0;
    end
end

endmodule

`resetall
