// SPDX-License-Identifier: MIT
// Store-and-forward buffer after the RX parser: only packets whose verdict is
// OK (or NOT_ROCE, to the netdev path) come out; the rest are dropped whole.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * The parser gives its verdict on the last beat of a payload, after the
 * payload has streamed by. Nothing of a packet with a bad ICRC may reach
 * host memory, so the payload is written into a ring and becomes visible only
 * when its last beat carries an acceptable verdict; otherwise the write
 * pointer rolls back and the packet is gone. Its header bundle waits in a
 * small queue and is released or dropped with it.
 *
 * Routing: RoCE packets with verdict OK leave on m_roce_*, frames with verdict
 * NOT_ROCE (whole frames) on m_net_*; every other verdict is dropped. The
 * port's receive filter (SET_PORT, from the firmware: port_*) applies on the
 * way: a RoCE packet is kept only when its destination MAC is the port's; a
 * frame for the netdev when its destination is the port's MAC, broadcast,
 * multicast with port_allmulti, or anything with port_promisc, and when it
 * is at most port_mtu + 18 bytes (Ethernet header and one VLAN tag; the FCS
 * is gone). The address part of the filter is decided when the header
 * bundle arrives (two bits kept per bundle, not its MAC), the length as the
 * beats arrive (bytes left under the limit, in a register), so that the
 * commit decision starts at registers. A RoCE packet for another MAC is dropped even in promiscuous
 * mode (its headers are not in the ring, so it cannot go to the netdev
 * whole). Filtered packets are counted apart (stat_filtered; one larger than
 * the ring counts as an overflow). A
 * packet larger than the ring is dropped (OVERFLOW) instead of blocking the
 * input forever. One status pulse per input packet tells the counters what
 * happened.
 *
 * The ring is one RAM shared by both outputs (packets leave in arrival
 * order); an output that is not ready holds back the packets behind it.
 *
 * RoCE headers leave through their own queue as soon as their packet is
 * committed, ahead of the payload: the consumer can work on packet N+1's
 * header while packet N's payload still streams out. Payloads follow the
 * headers in the same order; a RoCE packet's last beat waits until its header
 * has been taken, so a consumer always sees a header before the end of its
 * payload.
 */
module froce_rx_pkt_buffer #(
    parameter DATA_WIDTH = 64,              // stream width in bits
    parameter DEPTH = 4096,                 // ring size in beats, a power of two
    parameter HDR_DEPTH = 16                // headers buffered, a power of two
) (
    input  wire                      clk,
    input  wire                      rst,

    /* From the parser */
    input  wire [`FROCE_RHDR_W-1:0]  s_hdr,
    input  wire                      s_hdr_valid,
    output wire                      s_hdr_ready,
    input  wire [DATA_WIDTH-1:0]     s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]   s_axis_tkeep,
    input  wire                      s_axis_tvalid,
    output wire                      s_axis_tready,
    input  wire                      s_axis_tlast,
    input  wire [3:0]                s_axis_tuser,   // verdict on the tlast beat

    /* The port's receive filter (SET_PORT) */
    input  wire [47:0]               port_mac,
    input  wire [15:0]               port_mtu,
    input  wire                      port_promisc,
    input  wire                      port_allmulti,

    /* Good RoCE packets: header bundle and payload */
    output wire [`FROCE_RHDR_W-1:0]  m_roce_hdr,
    output wire                      m_roce_hdr_valid,
    input  wire                      m_roce_hdr_ready,
    output wire [DATA_WIDTH-1:0]     m_roce_tdata,
    output wire [DATA_WIDTH/8-1:0]   m_roce_tkeep,
    output wire                      m_roce_tvalid,
    input  wire                      m_roce_tready,
    output wire                      m_roce_tlast,

    /* Frames that are not RoCE, whole, for the netdev ring */
    output wire [DATA_WIDTH-1:0]     m_net_tdata,
    output wire [DATA_WIDTH/8-1:0]   m_net_tkeep,
    output wire                      m_net_tvalid,
    input  wire                      m_net_tready,
    output wire                      m_net_tlast,

    /* One pulse per input packet */
    output wire                      stat_valid,
    output wire                      stat_roce,      // kept: RoCE
    output wire                      stat_net,       // kept: not RoCE
    output wire                      stat_dropped,   // dropped for its verdict
    output wire                      stat_filtered,  // dropped by the port's filter
    output wire                      stat_overflow   // dropped: larger than the ring
);

localparam W = DATA_WIDTH / 8;
localparam AW = $clog2(DEPTH);
localparam HAW = $clog2(HDR_DEPTH);
localparam RW = `FROCE_RHDR_W;
localparam EW = DATA_WIDTH + W + 1;             // data, keep, last

initial begin
    if ((1 << AW) != DEPTH || (1 << HAW) != HDR_DEPTH || DEPTH < 4 || HDR_DEPTH < 2) begin
        $display("froce_rx_pkt_buffer: DEPTH and HDR_DEPTH must be powers of two");
        $finish;
    end
end

/* ------------------------------------------------------------------------
 * Write side
 * ------------------------------------------------------------------------ */

reg [EW-1:0] ring [0:DEPTH-1];
reg [AW:0] wr_ptr_reg = 0;          // next beat to write (uncommitted)
reg [AW:0] commit_ptr_reg = 0;      // end of the last committed packet
reg [AW:0] rd_ptr_reg = 0;
reg overflow_reg = 1'b0;            // the packet being written did not fit

// Header bundles, in arrival order, in one RAM: [hdr_rd_ptr, hdr_pend_ptr)
// have their packet's verdict (a RoCE packet kept, for the consumer, or
// skipped: dropped, filtered, or a frame for the netdev), [hdr_pend_ptr,
// hdr_wr_ptr) wait for it. (One RAM with one read port: the bundles are
// wide, and two FIFOs, pending and committed, each held a copy.) The
// destination MAC the filter needs is kept apart with its own read port.
// The bundles live in block RAM, read a cycle after their address (below;
// a read colliding with a write is never used).
(* ram_style = "block", no_rw_check *)
reg [RW-1:0] hdr_ram [0:HDR_DEPTH-1];
reg [1:0] hdr_dst_ram [0:HDR_DEPTH-1];   // {a netdev frame may pass, the port's MAC}
reg [HDR_DEPTH-1:0] hdr_skip = 0;
reg [HAW:0] hdr_wr_ptr = 0, hdr_pend_ptr = 0, hdr_rd_ptr = 0;
wire [HAW:0] hdr_used = hdr_wr_ptr - hdr_rd_ptr;
wire pend_empty = hdr_pend_ptr == hdr_wr_ptr;
// committed packets: route (1 = netdev) until the packet has left the ring
wire done_net;
wire done_empty, unused_done_full;
wire [HAW:0] done_count;

wire [AW:0] ring_used = wr_ptr_reg - rd_ptr_reg;
wire ring_full = ring_used[AW];
// room for the verdicts to land: a committed packet needs a slot in done
wire done_room = done_count < HDR_DEPTH[HAW:0] - 1'b1;

// The payload beat is taken once its header is in the pending FIFO, so that
// the verdict can be paired with it; a full ring drops the packet.
assign s_hdr_ready = hdr_used < HDR_DEPTH[HAW:0];
assign s_axis_tready = !pend_empty && done_room;
wire s_fire = s_axis_tvalid && s_axis_tready;

wire [3:0] verdict = s_axis_tuser;
wire is_roce = verdict == `FROCE_VERDICT_OK;
wire is_net = verdict == `FROCE_VERDICT_NOT_ROCE;

// the filter: the frame's destination MAC from its header bundle, its length
// counted here (bytes before this beat + this beat's)
// (the address filter, worked out as the header bundle is written)
wire [47:0] hdr_dst = s_hdr[`FROCE_RHDR_ETH_DST_LSB +: 48];
wire hdr_dst_own = hdr_dst == port_mac;
wire hdr_dst_mcast = hdr_dst[40];   // I/G bit: the first byte's LSB (broadcast included)
wire hdr_net_addr_ok = hdr_dst_own || (hdr_dst_mcast && (&hdr_dst || port_allmulti)) || port_promisc;
wire [1:0] dst_bits = hdr_dst_ram[hdr_pend_ptr[HAW-1:0]];
wire dst_own = dst_bits[0];
wire net_addr_ok = dst_bits[1];
// bytes the frame may still have: loaded with the limit between frames,
// less each beat taken; too_long_reg once a beat went past it
reg [16:0] room_reg = 17'd0;
reg too_long_reg = 1'b0;
reg in_frame_reg = 1'b0;
reg [$clog2(W):0] beat_bytes;
integer bi;
always @* begin
    beat_bytes = 0;
    for (bi = 0; bi < W; bi = bi + 1)
        beat_bytes = beat_bytes + {{$clog2(W){1'b0}}, s_axis_tkeep[bi]};
end
wire [16:0] max_bytes = {1'b0, port_mtu} + 17'd18;
wire beat_fits = !too_long_reg && {{(16 - $clog2(W)){1'b0}}, beat_bytes} <= room_reg;
wire net_pass = net_addr_ok && beat_fits;
wire keep_roce = is_roce && dst_own;
wire keep_net = is_net && net_pass;
wire filtered = (is_roce && !dst_own) || (is_net && !net_pass);

always @(posedge clk) begin
    if (!in_frame_reg)
        room_reg <= max_bytes;
    if (s_fire) begin
        in_frame_reg <= !s_axis_tlast;
        if (beat_fits)
            room_reg <= room_reg - {{(16 - $clog2(W)){1'b0}}, beat_bytes};
        else
            too_long_reg <= 1'b1;
        if (s_axis_tlast) begin
            room_reg <= max_bytes;
            too_long_reg <= 1'b0;
        end
    end
    if (rst) begin
        in_frame_reg <= 1'b0;
        too_long_reg <= 1'b0;
    end
end
wire fits = !ring_full && !overflow_reg;
wire commit = s_fire && s_axis_tlast && (keep_roce || keep_net) && fits;

always @(posedge clk) begin
    if (s_fire) begin
        if (fits) begin
            ring[wr_ptr_reg[AW-1:0]] <= {s_axis_tlast, s_axis_tkeep, s_axis_tdata};
            wr_ptr_reg <= wr_ptr_reg + 1'b1;
        end else begin
            overflow_reg <= 1'b1;
        end
        if (s_axis_tlast) begin
            overflow_reg <= 1'b0;
            if (commit)
                commit_ptr_reg <= wr_ptr_reg + 1'b1;
            else
                wr_ptr_reg <= commit_ptr_reg;   // roll back
        end
    end
    if (rst) begin
        wr_ptr_reg <= 0;
        commit_ptr_reg <= 0;
        overflow_reg <= 1'b0;
    end
end

// the consumer's head: a skipped entry leaves by itself. The head's bundle
// is read every cycle at hdr_rd_ptr into hdr_q_reg, so it is the head's
// once the pointer has stood still for a cycle: one idle cycle after each
// move. (The head entry is never being written: it was written before its
// payload could end, two cycles before it can be the head, and its slot is
// not reused while it is in the RAM.)
wire hdr_head = hdr_rd_ptr != hdr_pend_ptr;
wire hdr_head_skip = hdr_skip[hdr_rd_ptr[HAW-1:0]];
wire hdr_take;
wire hdr_pop = hdr_take || (hdr_head && hdr_head_skip);
reg [RW-1:0] hdr_q_reg = {RW{1'b0}};
reg hdr_moved_reg = 1'b0;
always @(posedge clk) begin
    hdr_q_reg <= hdr_ram[hdr_rd_ptr[HAW-1:0]];
    hdr_moved_reg <= hdr_pop;
    if (rst)
        hdr_moved_reg <= 1'b0;
end
always @(posedge clk) begin
    if (s_hdr_valid && s_hdr_ready) begin
        hdr_ram[hdr_wr_ptr[HAW-1:0]] <= s_hdr;
        hdr_dst_ram[hdr_wr_ptr[HAW-1:0]] <= {hdr_net_addr_ok, hdr_dst_own};
        hdr_wr_ptr <= hdr_wr_ptr + 1'b1;
    end
    if (s_fire && s_axis_tlast) begin
        hdr_skip[hdr_pend_ptr[HAW-1:0]] <= !(commit && keep_roce);
        hdr_pend_ptr <= hdr_pend_ptr + 1'b1;
    end
    if (hdr_pop)
        hdr_rd_ptr <= hdr_rd_ptr + 1'b1;
    if (rst) begin
        hdr_wr_ptr <= 0;
        hdr_pend_ptr <= 0;
        hdr_rd_ptr <= 0;
    end
end

froce_fifo #(
    .WIDTH(1),
    .DEPTH(HDR_DEPTH)
) u_done (
    .clk(clk),
    .rst(rst),
    .wr_data(keep_net),
    .wr_en(commit),
    .rd_data(done_net),
    .rd_en(pkt_done),
    .count(done_count),
    .empty(done_empty),
    .full(unused_done_full)
);

reg stat_valid_reg = 1'b0;
reg stat_roce_reg = 1'b0;
reg stat_net_reg = 1'b0;
reg stat_dropped_reg = 1'b0;
reg stat_filtered_reg = 1'b0;
reg stat_overflow_reg = 1'b0;
always @(posedge clk) begin
    stat_valid_reg <= s_fire && s_axis_tlast;
    stat_roce_reg <= commit && keep_roce;
    stat_net_reg <= commit && keep_net;
    stat_dropped_reg <= s_fire && s_axis_tlast && !is_roce && !is_net;
    stat_filtered_reg <= s_fire && s_axis_tlast && filtered && fits;
    stat_overflow_reg <= s_fire && s_axis_tlast && (is_roce || is_net) && !fits;
    if (rst) begin
        stat_valid_reg <= 1'b0;
        stat_roce_reg <= 1'b0;
        stat_net_reg <= 1'b0;
        stat_dropped_reg <= 1'b0;
        stat_filtered_reg <= 1'b0;
        stat_overflow_reg <= 1'b0;
    end
end

/* ------------------------------------------------------------------------
 * Read side: committed packets in order, to the output their route names
 * ------------------------------------------------------------------------ */

wire route_net = done_net;
// headers taken whose packet's last beat has not left yet (the packet at the
// output first); at most HDR_DEPTH
reg [HAW:0] hdr_ahead_reg = 0;

// Output register stage: the RAM read is registered, so the head beat is
// fetched one cycle ahead into out_*; pkt_done pops the packet's route.
reg out_valid_reg = 1'b0;
reg [EW-1:0] out_reg = 0;
reg out_net_reg = 1'b0;
wire out_last = out_reg[EW-1];
// a RoCE packet's last beat waits until its header has been taken, so the
// two outputs stay paired
wire roce_last_ok = !out_last || hdr_ahead_reg != 0;
wire out_ready = out_net_reg ? m_net_tready : m_roce_tready && roce_last_ok;
wire out_take = out_valid_reg && out_ready;
wire pkt_done = out_take && out_last;

// Fetch the next beat when the output register is empty or being emptied,
// and only beats of committed packets. The first beat of a packet is fetched
// only once the previous packet has fully left (its route and header are at
// the head of the done FIFO until then): one idle output cycle per packet.
wire can_fetch = rd_ptr_reg != commit_ptr_reg && !done_empty &&
                 (!out_valid_reg || (out_take && !out_last));

always @(posedge clk) begin
    if (out_take)
        out_valid_reg <= 1'b0;
    if (can_fetch) begin
        out_valid_reg <= 1'b1;
        out_reg <= ring[rd_ptr_reg[AW-1:0]];
        out_net_reg <= route_net;
        rd_ptr_reg <= rd_ptr_reg + 1'b1;
    end
    if (rst) begin
        out_valid_reg <= 1'b0;
        rd_ptr_reg <= 0;
    end
end

assign m_roce_tdata = out_reg[DATA_WIDTH-1:0];
assign m_roce_tkeep = out_reg[DATA_WIDTH +: W];
assign m_roce_tlast = out_last;
assign m_roce_tvalid = out_valid_reg && !out_net_reg && roce_last_ok;
assign m_net_tdata = out_reg[DATA_WIDTH-1:0];
assign m_net_tkeep = out_reg[DATA_WIDTH +: W];
assign m_net_tlast = out_last;
assign m_net_tvalid = out_valid_reg && out_net_reg;

assign m_roce_hdr = hdr_q_reg;
assign m_roce_hdr_valid = hdr_head && !hdr_head_skip && !hdr_moved_reg;

assign hdr_take = m_roce_hdr_valid && m_roce_hdr_ready;
wire roce_done = pkt_done && !out_net_reg;
always @(posedge clk) begin
    if (hdr_take && !roce_done)
        hdr_ahead_reg <= hdr_ahead_reg + 1'b1;
    else if (!hdr_take && roce_done)
        hdr_ahead_reg <= hdr_ahead_reg - 1'b1;
    if (rst)
        hdr_ahead_reg <= 0;
end

assign stat_valid = stat_valid_reg;
assign stat_roce = stat_roce_reg;
assign stat_net = stat_net_reg;
assign stat_dropped = stat_dropped_reg;
assign stat_filtered = stat_filtered_reg;
assign stat_overflow = stat_overflow_reg;

endmodule

`resetall
