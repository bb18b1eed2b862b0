// SPDX-License-Identifier: MIT
// AXI4 master-side quiesce: lets the masters behind it be reset at any time while every transaction already started on the port is completed by AXI's rules.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Sits between froce_core's AXI4 interconnect (s_axi_*, the masters) and the
 * host-memory port (m_axi_*). With drain = 0 it passes everything through,
 * with two differences that cost no bandwidth in practice:
 *   - a W beat passes only once the AW of its burst has been offered (the
 *     interconnect never offers one earlier; AXI lets the slave wait for W
 *     before it takes the AW, so W must not wait for the AW handshake), so
 *     the block knows the burst every W beat belongs to: each AW's length
 *     goes into a FIFO of bursts owed W beats when it is first offered;
 *   - at most BURSTS such bursts (a new AW is not offered while BURSTS are;
 *     the interconnect's own W order FIFO is smaller).
 *
 * drain = 1 (the masters are in reset, so their VALIDs and READYs are
 * meaningless) finishes what the port started, as the slave expects:
 *   - an AW or AR that was offered and not yet accepted when drain rose (an
 *     AXI VALID must stay up until its handshake) is offered again from a
 *     copy taken every cycle, unchanged, until accepted; likewise a W beat;
 *   - every accepted AW gets all its W beats: the beats not yet sent leave as
 *     WSTRB = 0 beats (they write nothing), WLAST on the burst's last;
 *   - R and B responses are taken (RREADY = BREADY = 1) and dropped.
 * busy is high while anything is outstanding (an offered or accepted AW/AR
 * without its B / last R, an unfinished W burst): with drain = 1 the port
 * is idle once busy falls, and stays idle while drain stays 1.
 * Between drain = 1 and the next transfer the masters see a clean port:
 * s_axi_* READY/VALID are 0 while drain = 1, and responses to transactions of
 * before the drain never reach them afterwards (busy must be 0 before drain
 * falls; froce_dev_reset ensures it).
 *
 * Outstanding counts are OUT_WIDTH bits: at most 2^OUT_WIDTH - 1 ARs and as
 * many AWs without their responses (the DMA engines have far fewer tags).
 */
module froce_axi_quiesce #(
    parameter DATA_WIDTH = 64,
    parameter ID_WIDTH = 4,
    parameter BURSTS = 16,              // AW bursts with W beats owed: a power of two >= 2
    parameter OUT_WIDTH = 10            // outstanding AR / AW (B) counter width
) (
    input  wire                         clk,
    input  wire                         rst,
    input  wire                         drain,
    output wire                         busy,

    /* masters */
    input  wire [ID_WIDTH-1:0]          s_axi_awid,
    input  wire [63:0]                  s_axi_awaddr,
    input  wire [7:0]                   s_axi_awlen,
    input  wire [2:0]                   s_axi_awsize,
    input  wire [1:0]                   s_axi_awburst,
    input  wire                         s_axi_awlock,
    input  wire [3:0]                   s_axi_awcache,
    input  wire [2:0]                   s_axi_awprot,
    input  wire                         s_axi_awvalid,
    output wire                         s_axi_awready,
    input  wire [DATA_WIDTH-1:0]        s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axi_wstrb,
    input  wire                         s_axi_wlast,
    input  wire                         s_axi_wvalid,
    output wire                         s_axi_wready,
    output wire [ID_WIDTH-1:0]          s_axi_bid,
    output wire [1:0]                   s_axi_bresp,
    output wire                         s_axi_bvalid,
    input  wire                         s_axi_bready,
    input  wire [ID_WIDTH-1:0]          s_axi_arid,
    input  wire [63:0]                  s_axi_araddr,
    input  wire [7:0]                   s_axi_arlen,
    input  wire [2:0]                   s_axi_arsize,
    input  wire [1:0]                   s_axi_arburst,
    input  wire                         s_axi_arlock,
    input  wire [3:0]                   s_axi_arcache,
    input  wire [2:0]                   s_axi_arprot,
    input  wire                         s_axi_arvalid,
    output wire                         s_axi_arready,
    output wire [ID_WIDTH-1:0]          s_axi_rid,
    output wire [DATA_WIDTH-1:0]        s_axi_rdata,
    output wire [1:0]                   s_axi_rresp,
    output wire                         s_axi_rlast,
    output wire                         s_axi_rvalid,
    input  wire                         s_axi_rready,

    /* host memory */
    output wire [ID_WIDTH-1:0]          m_axi_awid,
    output wire [63:0]                  m_axi_awaddr,
    output wire [7:0]                   m_axi_awlen,
    output wire [2:0]                   m_axi_awsize,
    output wire [1:0]                   m_axi_awburst,
    output wire                         m_axi_awlock,
    output wire [3:0]                   m_axi_awcache,
    output wire [2:0]                   m_axi_awprot,
    output wire                         m_axi_awvalid,
    input  wire                         m_axi_awready,
    output wire [DATA_WIDTH-1:0]        m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]      m_axi_wstrb,
    output wire                         m_axi_wlast,
    output wire                         m_axi_wvalid,
    input  wire                         m_axi_wready,
    input  wire [ID_WIDTH-1:0]          m_axi_bid,
    input  wire [1:0]                   m_axi_bresp,
    input  wire                         m_axi_bvalid,
    output wire                         m_axi_bready,
    output wire [ID_WIDTH-1:0]          m_axi_arid,
    output wire [63:0]                  m_axi_araddr,
    output wire [7:0]                   m_axi_arlen,
    output wire [2:0]                   m_axi_arsize,
    output wire [1:0]                   m_axi_arburst,
    output wire                         m_axi_arlock,
    output wire [3:0]                   m_axi_arcache,
    output wire [2:0]                   m_axi_arprot,
    output wire                         m_axi_arvalid,
    input  wire                         m_axi_arready,
    input  wire [ID_WIDTH-1:0]          m_axi_rid,
    input  wire [DATA_WIDTH-1:0]        m_axi_rdata,
    input  wire [1:0]                   m_axi_rresp,
    input  wire                         m_axi_rlast,
    input  wire                         m_axi_rvalid,
    output wire                         m_axi_rready
);

localparam SW = DATA_WIDTH / 8;
localparam BW = $clog2(BURSTS);
localparam AXW = ID_WIDTH + 64 + 8 + 3 + 2 + 1 + 4 + 3;    // an AW or AR

initial begin
    if (BURSTS < 2 || (BURSTS & (BURSTS - 1)) != 0) begin
        $display("froce_axi_quiesce: BURSTS must be a power of two >= 2");
        $finish;
    end
end

// ---- bursts whose W beats are owed: their AWLEN, oldest first ----
reg [7:0] blen [0:BURSTS-1];
reg [BW:0] b_wr, b_rd;          // one extra bit: full vs empty
wire b_empty = b_wr == b_rd;
wire b_full = b_wr == {~b_rd[BW], b_rd[BW-1:0]};
wire [7:0] head_len = blen[b_rd[BW-1:0]];
reg [7:0] head_sent;            // W beats of the head burst already accepted

// ---- copies of what is offered, for the drain ----
reg aw_held, ar_held, w_held;   // offered and not accepted in the last cycle
reg [AXW-1:0] aw_copy, ar_copy;
reg [DATA_WIDTH-1:0] w_copy_data;
reg [SW-1:0] w_copy_strb;
reg w_copy_last;

reg [OUT_WIDTH-1:0] aw_out, ar_out;   // accepted AWs without B, ARs without last R

// AW: pass-through while running (held back while BURSTS are owed W beats)
wire [AXW-1:0] s_aw = {s_axi_awid, s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst,
                       s_axi_awlock, s_axi_awcache, s_axi_awprot};
wire [AXW-1:0] s_ar = {s_axi_arid, s_axi_araddr, s_axi_arlen, s_axi_arsize, s_axi_arburst,
                       s_axi_arlock, s_axi_arcache, s_axi_arprot};
wire [AXW-1:0] m_aw = drain ? aw_copy : s_aw;
wire [AXW-1:0] m_ar = drain ? ar_copy : s_ar;
assign {m_axi_awid, m_axi_awaddr, m_axi_awlen, m_axi_awsize, m_axi_awburst,
        m_axi_awlock, m_axi_awcache, m_axi_awprot} = m_aw;
assign {m_axi_arid, m_axi_araddr, m_axi_arlen, m_axi_arsize, m_axi_arburst,
        m_axi_arlock, m_axi_arcache, m_axi_arprot} = m_ar;
// an AW offered and not taken (aw_held) is in the FIFO already: it stays
// offered whatever the FIFO's state
wire aw_room = !b_full || aw_held;
assign m_axi_awvalid = drain ? aw_held : (s_axi_awvalid && aw_room);
assign s_axi_awready = !drain && m_axi_awready && aw_room;
// an AW shown for the first time: its burst joins the FIFO
wire aw_new = m_axi_awvalid && !aw_held;
assign m_axi_arvalid = drain ? ar_held : s_axi_arvalid;
assign s_axi_arready = !drain && m_axi_arready;

// W: the masters' beats once their AW is offered; in the drain, a held beat
// first, then WSTRB = 0 beats to the end of every owed burst
wire dummy_last = head_sent == head_len;
assign m_axi_wvalid = drain ? (w_held || !b_empty) : (s_axi_wvalid && !b_empty);
assign m_axi_wdata = drain ? (w_held ? w_copy_data : {DATA_WIDTH{1'b0}}) : s_axi_wdata;
assign m_axi_wstrb = drain ? (w_held ? w_copy_strb : {SW{1'b0}}) : s_axi_wstrb;
assign m_axi_wlast = drain ? (w_held ? w_copy_last : dummy_last) : s_axi_wlast;
assign s_axi_wready = !drain && m_axi_wready && !b_empty;

// R and B: to the masters while running, dropped in the drain
assign s_axi_rid = m_axi_rid;
assign s_axi_rdata = m_axi_rdata;
assign s_axi_rresp = m_axi_rresp;
assign s_axi_rlast = m_axi_rlast;
assign s_axi_rvalid = m_axi_rvalid && !drain;
assign m_axi_rready = drain || s_axi_rready;
assign s_axi_bid = m_axi_bid;
assign s_axi_bresp = m_axi_bresp;
assign s_axi_bvalid = m_axi_bvalid && !drain;
assign m_axi_bready = drain || s_axi_bready;

wire aw_fire = m_axi_awvalid && m_axi_awready;
wire ar_fire = m_axi_arvalid && m_axi_arready;
wire w_fire = m_axi_wvalid && m_axi_wready;
wire b_fire = m_axi_bvalid && m_axi_bready;
wire r_last_fire = m_axi_rvalid && m_axi_rready && m_axi_rlast;

assign busy = aw_held || ar_held || w_held || !b_empty || aw_out != {OUT_WIDTH{1'b0}} ||
              ar_out != {OUT_WIDTH{1'b0}};

always @(posedge clk) begin
    if (aw_new)
        blen[b_wr[BW-1:0]] <= m_axi_awlen;
end

always @(posedge clk) begin
    // a beat is the head burst's last by WLAST: the masters' own while
    // running, the held copy's or the count's in the drain
    if (w_fire) begin
        if (m_axi_wlast) begin
            head_sent <= 8'd0;
            b_rd <= b_rd + 1'b1;
        end else begin
            head_sent <= head_sent + 1'b1;
        end
    end
    if (aw_new)
        b_wr <= b_wr + 1'b1;
    aw_out <= aw_out + {{(OUT_WIDTH-1){1'b0}}, aw_fire} - {{(OUT_WIDTH-1){1'b0}}, b_fire};
    ar_out <= ar_out + {{(OUT_WIDTH-1){1'b0}}, ar_fire} - {{(OUT_WIDTH-1){1'b0}}, r_last_fire};
    // copies: refreshed every cycle while running, frozen in the drain
    if (!drain) begin
        aw_held <= m_axi_awvalid && !m_axi_awready;
        ar_held <= m_axi_arvalid && !m_axi_arready;
        w_held <= m_axi_wvalid && !m_axi_wready;
        aw_copy <= s_aw;
        ar_copy <= s_ar;
        w_copy_data <= s_axi_wdata;
        w_copy_strb <= s_axi_wstrb;
        w_copy_last <= s_axi_wlast;
    end else begin
        if (aw_fire)
            aw_held <= 1'b0;
        if (ar_fire)
            ar_held <= 1'b0;
        if (w_fire)
            w_held <= 1'b0;
    end
    if (rst) begin
        b_wr <= {(BW+1){1'b0}};
        b_rd <= {(BW+1){1'b0}};
        head_sent <= 8'd0;
        aw_out <= {OUT_WIDTH{1'b0}};
        ar_out <= {OUT_WIDTH{1'b0}};
        aw_held <= 1'b0;
        ar_held <= 1'b0;
        w_held <= 1'b0;
    end
end

endmodule

`resetall
