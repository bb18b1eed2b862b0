// SPDX-License-Identifier: MIT
// Host-memory block RAM for a board without PCIe: an AXI4 slave (64-bit, bursts, IDs) for froce_core's DMA master and a simple word port for the UART host bridge.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The RAM holds 2^MEM_ADDR_WIDTH bytes and answers AXI addresses
 * [MEM_BASE, MEM_BASE + 2^MEM_ADDR_WIDTH) (MEM_BASE aligned to the size).
 * Storage: 64-bit words, one write port with byte strobes and one
 * registered read port, built from slices as deep as the RAM and
 * SLICE_W = 8 / 4 / 2 / 1 bits wide for up to 2K / 4K / 8K / 16K words
 * (ECP5 DP16KD: 2K x 9, 4K x 4, 8K x 2, 16K x 1), so that each slice is
 * one block RAM and no multiplexer follows the block RAMs' slow
 * clock-to-out (64 KiB: 32 blocks of 8K x 2). Deeper RAMs (more than 128
 * KiB) take several blocks per slice. Zero after configuration (no init
 * file: the bitstream zeroes block RAM; simulation zeroes it explicitly).
 *
 * AXI4 slave (s_axi_*), 64-bit data:
 *   - a burst is decoded once, from AxADDR: it is in the window when
 *     AxADDR[ADDR_WIDTH-1:MEM_ADDR_WIDTH] matches MEM_BASE. Outside, every
 *     read beat returns 0 with DECERR and writes change nothing and get
 *     BRESP DECERR (the burst's W beats are still taken).
 *   - INCR and FIXED bursts of 1..256 beats; WRAP is treated as INCR. The
 *     beat address advances by 2^AxSIZE from the AxSIZE-aligned address
 *     (AxSIZE above 3 is taken as 3). Only the low 12 bits advance: a burst
 *     never crosses 4 KiB (AXI), and one that does wraps in its page.
 *   - writes honour WSTRB as given (narrow transfers: the master's strobes
 *     select the lanes); reads return the whole 64-bit word of each beat.
 *   - WLAST is not checked: the burst ends after AWLEN + 1 beats.
 *   - IDs are echoed. One write burst and one read burst at a time, each
 *     channel independent: AWREADY while no write burst is open, BVALID
 *     after its last beat; ARREADY while no read burst is still issuing
 *     (the next burst's AR is taken while the last beats of the previous
 *     one are in the R pipeline). Full rate: one W beat and one R beat per
 *     cycle; R data comes 4 cycles after the AR handshake at the earliest
 *     (the RAM's read register, a register behind it, the R FIFO's output
 *     register: every output starts at a flip-flop).
 *   - AxLOCK, AxCACHE, AxPROT are ignored (an exclusive access gets OKAY).
 *
 * Host port (s_mem_*), for froce_uart_host_bridge: one 64-bit word per
 * request. s_mem_req with s_mem_we, s_mem_addr (word index in the window),
 * s_mem_wdata/s_mem_wstrb is held until s_mem_ack; the request is taken
 * into registers (s_mem_ack whenever the previous one is done: at most
 * every other cycle) and done in the next cycle, with priority: the AXI
 * side loses that cycle on the port it uses (WREADY low for a write, no
 * read issued for a read). A read's data is on s_mem_rdata while
 * s_mem_rvalid pulses, three cycles after the ack. The bridge requests at
 * most one word every few cycles, so DMA is never starved.
 *
 * Ordering: an AXI write is in the RAM in the cycle of its W handshake,
 * before its B; a host write the cycle after its ack, before the bridge's
 * next request is taken and long before its response leaves. A reader
 * that waits for the B (or the bridge's response) sees the write.
 */
module froce_axi_ram #(
    parameter ADDR_WIDTH = 64,              // AXI address width, > MEM_ADDR_WIDTH, <= 64
    parameter ID_WIDTH = 4,                 // AXI ID width
    parameter MEM_ADDR_WIDTH = 16,          // RAM size 2^MEM_ADDR_WIDTH bytes, 12..24
    parameter [63:0] MEM_BASE = 64'h0       // AXI address of byte 0 of the RAM, aligned to its size
) (
    input  wire                         clk,
    input  wire                         rst,

    /* AXI4 slave: write address */
    input  wire [ID_WIDTH-1:0]          s_axi_awid,
    input  wire [ADDR_WIDTH-1:0]        s_axi_awaddr,
    input  wire [7:0]                   s_axi_awlen,
    input  wire [2:0]                   s_axi_awsize,
    input  wire [1:0]                   s_axi_awburst,
    input  wire                         s_axi_awlock,
    input  wire [3:0]                   s_axi_awcache,
    input  wire [2:0]                   s_axi_awprot,
    input  wire                         s_axi_awvalid,
    output wire                         s_axi_awready,

    /* AXI4 slave: write data */
    input  wire [63:0]                  s_axi_wdata,
    input  wire [7:0]                   s_axi_wstrb,
    input  wire                         s_axi_wlast,
    input  wire                         s_axi_wvalid,
    output wire                         s_axi_wready,

    /* AXI4 slave: write response */
    output wire [ID_WIDTH-1:0]          s_axi_bid,
    output wire [1:0]                   s_axi_bresp,
    output wire                         s_axi_bvalid,
    input  wire                         s_axi_bready,

    /* AXI4 slave: read address */
    input  wire [ID_WIDTH-1:0]          s_axi_arid,
    input  wire [ADDR_WIDTH-1:0]        s_axi_araddr,
    input  wire [7:0]                   s_axi_arlen,
    input  wire [2:0]                   s_axi_arsize,
    input  wire [1:0]                   s_axi_arburst,
    input  wire                         s_axi_arlock,
    input  wire [3:0]                   s_axi_arcache,
    input  wire [2:0]                   s_axi_arprot,
    input  wire                         s_axi_arvalid,
    output wire                         s_axi_arready,

    /* AXI4 slave: read data */
    output wire [ID_WIDTH-1:0]          s_axi_rid,
    output wire [63:0]                  s_axi_rdata,
    output wire [1:0]                   s_axi_rresp,
    output wire                         s_axi_rlast,
    output wire                         s_axi_rvalid,
    input  wire                         s_axi_rready,

    /* Host port (the UART host bridge): one word per request */
    input  wire                         s_mem_req,
    input  wire                         s_mem_we,
    input  wire [MEM_ADDR_WIDTH-4:0]    s_mem_addr,
    input  wire [63:0]                  s_mem_wdata,
    input  wire [7:0]                   s_mem_wstrb,
    output wire                         s_mem_ack,
    output wire                         s_mem_rvalid,
    output wire [63:0]                  s_mem_rdata
);

localparam MW = MEM_ADDR_WIDTH;
localparam WW = MEM_ADDR_WIDTH - 3;         // word index bits
localparam DEPTH = 1 << WW;

localparam [1:0] RESP_OKAY = 2'b00, RESP_DECERR = 2'b11;
localparam [1:0] BURST_FIXED = 2'b00;

localparam [1:0]
    W_IDLE = 2'd0,      // waiting for AW
    W_DATA = 2'd1,      // taking W beats
    W_RESP = 2'd2;      // B to the master

initial begin
    if (MEM_ADDR_WIDTH < 12 || MEM_ADDR_WIDTH > 24 || ADDR_WIDTH <= MEM_ADDR_WIDTH || ADDR_WIDTH > 64 ||
        ID_WIDTH < 1 || (MEM_BASE & ((64'd1 << MEM_ADDR_WIDTH) - 64'd1)) != 64'd0 ||
        (ADDR_WIDTH < 64 && (MEM_BASE >> ADDR_WIDTH) != 64'd0)) begin
        $display("froce_axi_ram: bad parameters");
        $finish;
    end
end

generate
    if (MEM_ADDR_WIDTH < 12 || MEM_ADDR_WIDTH > 24 || ADDR_WIDTH <= MEM_ADDR_WIDTH || ADDR_WIDTH > 64 ||
        ID_WIDTH < 1 || (MEM_BASE & ((64'd1 << MEM_ADDR_WIDTH) - 64'd1)) != 64'd0 ||
        (ADDR_WIDTH < 64 && (MEM_BASE >> ADDR_WIDTH) != 64'd0)) begin : g_bad_parameter
        froce_axi_ram_bad_parameter u_bad_parameter ();
    end
endgenerate

localparam [63:0] BASE_C = MEM_BASE;

// the next beat address: 2^size above the size-aligned address, in the
// same 4 KiB page (only the low 12 bits change)
function [MW-1:0] next_addr;
    input [MW-1:0] addr;
    input [2:0] size;
    input [1:0] burst;
    reg [11:0] step;
    begin
        step = 12'd1 << (size > 3'd3 ? 3'd3 : size);
        next_addr = addr;
        if (burst != BURST_FIXED)
            next_addr[11:0] = (addr[11:0] & ~(step - 1'b1)) + step;
    end
endfunction

/* ------------------------------------------------------------------------
 * Storage: slices with one write port and one registered read port each
 * ------------------------------------------------------------------------ */

wire            mem_we;
wire [WW-1:0]   mem_waddr;
wire [63:0]     mem_wdata;
wire [7:0]      mem_wstrb;
wire            mem_re;
wire [WW-1:0]   mem_raddr;
wire [63:0]     mem_rdata;

// slice width: one block RAM per slice where the depth allows
localparam SLICE_W = DEPTH <= 2048 ? 8 : DEPTH <= 4096 ? 4 : DEPTH <= 8192 ? 2 : 1;

genvar g;
generate
    for (g = 0; g < 64 / SLICE_W; g = g + 1) begin : g_slice
        reg [SLICE_W-1:0] slice_mem [0:DEPTH-1];
        reg [SLICE_W-1:0] q_reg = {SLICE_W{1'b0}};

`ifndef SYNTHESIS
        // zero in simulation; on ECP5 the bitstream zeroes block RAM
        // (an initial loop here costs Yosys minutes)
        integer i;

        initial begin
            for (i = 0; i < DEPTH; i = i + 1)
                slice_mem[i] = {SLICE_W{1'b0}};
        end
`endif

        always @(posedge clk) begin
            if (mem_we && mem_wstrb[g * SLICE_W / 8])
                slice_mem[mem_waddr] <= mem_wdata[g * SLICE_W +: SLICE_W];
            if (mem_re)
                q_reg <= slice_mem[mem_raddr];
        end

        assign mem_rdata[g * SLICE_W +: SLICE_W] = q_reg;
    end
endgenerate

/* ------------------------------------------------------------------------
 * Host port
 * ------------------------------------------------------------------------ */

// a request is taken into registers and done in the next cycle, so that
// the bridge's logic and the AXI handshakes meet only at flip-flops
reg             h_valid_reg = 1'b0;
reg             h_we_reg = 1'b0;
reg [WW-1:0]    h_addr_reg = {WW{1'b0}};
reg [63:0]      h_wdata_reg = 64'd0;
reg [7:0]       h_wstrb_reg = 8'd0;

wire h_wr = h_valid_reg && h_we_reg;
wire h_rd = h_valid_reg && !h_we_reg;

assign s_mem_ack = s_mem_req && !h_valid_reg;

always @(posedge clk) begin
    h_valid_reg <= s_mem_ack;
    if (s_mem_ack) begin
        h_we_reg <= s_mem_we;
        h_addr_reg <= s_mem_addr;
        h_wdata_reg <= s_mem_wdata;
        h_wstrb_reg <= s_mem_wstrb;
    end
    if (rst)
        h_valid_reg <= 1'b0;
end

/* ------------------------------------------------------------------------
 * AXI write
 * ------------------------------------------------------------------------ */

reg [1:0]           w_state_reg = W_IDLE, w_state_next;
reg [ID_WIDTH-1:0]  w_id_reg = {ID_WIDTH{1'b0}}, w_id_next;
reg [MW-1:0]        w_addr_reg = {MW{1'b0}}, w_addr_next;
reg [2:0]           w_size_reg = 3'd0, w_size_next;
reg [1:0]           w_burst_reg = 2'd0, w_burst_next;
reg [7:0]           w_left_reg = 8'd0, w_left_next;     // beats after the current one
reg                 w_in_reg = 1'b0, w_in_next;         // burst in the window

wire aw_in = s_axi_awaddr[ADDR_WIDTH-1:MW] == BASE_C[ADDR_WIDTH-1:MW];
wire w_fire = s_axi_wvalid && s_axi_wready;

assign s_axi_awready = w_state_reg == W_IDLE;
assign s_axi_wready = w_state_reg == W_DATA && !h_wr;
assign s_axi_bvalid = w_state_reg == W_RESP;
assign s_axi_bid = w_id_reg;
assign s_axi_bresp = w_in_reg ? RESP_OKAY : RESP_DECERR;

assign mem_we = h_wr || (w_fire && w_in_reg);
assign mem_waddr = h_wr ? h_addr_reg : w_addr_reg[MW-1:3];
assign mem_wdata = h_wr ? h_wdata_reg : s_axi_wdata;
assign mem_wstrb = h_wr ? h_wstrb_reg : s_axi_wstrb;

always @* begin
    w_state_next = w_state_reg;
    w_id_next = w_id_reg;
    w_addr_next = w_addr_reg;
    w_size_next = w_size_reg;
    w_burst_next = w_burst_reg;
    w_left_next = w_left_reg;
    w_in_next = w_in_reg;

    case (w_state_reg)
        W_IDLE: begin
            if (s_axi_awvalid) begin
                w_id_next = s_axi_awid;
                w_addr_next = s_axi_awaddr[MW-1:0];
                w_size_next = s_axi_awsize;
                w_burst_next = s_axi_awburst;
                w_left_next = s_axi_awlen;
                w_in_next = aw_in;
                w_state_next = W_DATA;
            end
        end
        W_DATA: begin
            if (w_fire) begin
                w_addr_next = next_addr(w_addr_reg, w_size_reg, w_burst_reg);
                w_left_next = w_left_reg - 1'b1;
                if (w_left_reg == 8'd0)
                    w_state_next = W_RESP;
            end
        end
        W_RESP: begin
            if (s_axi_bready)
                w_state_next = W_IDLE;
        end
        default: w_state_next = W_IDLE;
    endcase
end

always @(posedge clk) begin
    w_state_reg <= w_state_next;
    w_id_reg <= w_id_next;
    w_addr_reg <= w_addr_next;
    w_size_reg <= w_size_next;
    w_burst_reg <= w_burst_next;
    w_left_reg <= w_left_next;
    w_in_reg <= w_in_next;

    if (rst)
        w_state_reg <= W_IDLE;
end

/* ------------------------------------------------------------------------
 * Reads: issue (the RAM's address) -> the RAM's read register (stage 1) ->
 * rdata_reg (stage 2, after the RAM's depth multiplexer, so that no logic
 * follows the block RAM's slow clock-to-out) -> host port, or the R FIFO
 * (the AXI R channel, from a register). An AXI beat is issued only while
 * fewer than R_SLOTS beats are issued and not yet taken by the master,
 * so the FIFO (R_SLOTS + 1 entries with its output register) never
 * overflows; four slots cover the round trip, for one beat per cycle.
 * ------------------------------------------------------------------------ */

localparam R_SLOTS = 4;
localparam RW = ID_WIDTH + 64 + 1 + 2;      // R FIFO entry: id, data, last, resp

reg                 r_active_reg = 1'b0, r_active_next;  // burst still issuing
reg [ID_WIDTH-1:0]  r_id_reg = {ID_WIDTH{1'b0}}, r_id_next;
reg [MW-1:0]        r_addr_reg = {MW{1'b0}}, r_addr_next;
reg [2:0]           r_size_reg = 3'd0, r_size_next;
reg [1:0]           r_burst_reg = 2'd0, r_burst_next;
reg [7:0]           r_left_reg = 8'd0, r_left_next;
reg                 r_in_reg = 1'b0, r_in_next;
reg [2:0]           r_pend_reg = 3'd0;                  // beats issued, R not yet taken

// read pipeline tags: stage 1 (RAM register), stage 2 (rdata_reg)
reg                 s1_valid_reg = 1'b0, s2_valid_reg = 1'b0;
reg                 s1_host_reg = 1'b0, s2_host_reg = 1'b0;
reg [ID_WIDTH-1:0]  s1_id_reg = {ID_WIDTH{1'b0}}, s2_id_reg = {ID_WIDTH{1'b0}};
reg                 s1_last_reg = 1'b0, s2_last_reg = 1'b0;
reg                 s1_in_reg = 1'b0, s2_in_reg = 1'b0;
reg [63:0]          rdata_reg = 64'd0;

wire [RW-1:0]       rq_out;
wire                rq_empty;
wire                rq_full;
wire [$clog2(R_SLOTS):0] unused_rq_count;

wire ar_in = s_axi_araddr[ADDR_WIDTH-1:MW] == BASE_C[ADDR_WIDTH-1:MW];
wire r_pop = !rq_empty && s_axi_rready;
wire r_issue = r_active_reg && !h_rd && r_pend_reg < R_SLOTS;

assign s_axi_arready = !r_active_reg;
assign s_axi_rvalid = !rq_empty;
assign {s_axi_rid, s_axi_rdata, s_axi_rlast, s_axi_rresp} = rq_out;

assign mem_re = h_rd || (r_issue && r_in_reg);
assign mem_raddr = h_rd ? h_addr_reg : r_addr_reg[MW-1:3];

assign s_mem_rvalid = s2_valid_reg && s2_host_reg;
assign s_mem_rdata = rdata_reg;

froce_fifo #(
    .WIDTH(RW),
    .DEPTH(R_SLOTS),
    .REG_OUT(1)
) u_r_fifo (
    .clk(clk),
    .rst(rst),
    .wr_data({s2_id_reg, s2_in_reg ? rdata_reg : 64'd0, s2_last_reg, s2_in_reg ? RESP_OKAY : RESP_DECERR}),
    .wr_en(s2_valid_reg && !s2_host_reg),
    .rd_data(rq_out),
    .rd_en(r_pop),
    .count(unused_rq_count),
    .empty(rq_empty),
    .full(rq_full)
);

always @* begin
    r_active_next = r_active_reg;
    r_id_next = r_id_reg;
    r_addr_next = r_addr_reg;
    r_size_next = r_size_reg;
    r_burst_next = r_burst_reg;
    r_left_next = r_left_reg;
    r_in_next = r_in_reg;

    if (!r_active_reg) begin
        if (s_axi_arvalid) begin
            r_active_next = 1'b1;
            r_id_next = s_axi_arid;
            r_addr_next = s_axi_araddr[MW-1:0];
            r_size_next = s_axi_arsize;
            r_burst_next = s_axi_arburst;
            r_left_next = s_axi_arlen;
            r_in_next = ar_in;
        end
    end else if (r_issue) begin
        r_addr_next = next_addr(r_addr_reg, r_size_reg, r_burst_reg);
        r_left_next = r_left_reg - 1'b1;
        if (r_left_reg == 8'd0)
            r_active_next = 1'b0;
    end
end

always @(posedge clk) begin
    r_active_reg <= r_active_next;
    r_id_reg <= r_id_next;
    r_addr_reg <= r_addr_next;
    r_size_reg <= r_size_next;
    r_burst_reg <= r_burst_next;
    r_left_reg <= r_left_next;
    r_in_reg <= r_in_next;
    r_pend_reg <= r_pend_reg + {2'd0, r_issue} - {2'd0, r_pop};

    s1_valid_reg <= h_rd || r_issue;
    s1_host_reg <= h_rd;
    s1_id_reg <= r_id_reg;
    s1_last_reg <= r_left_reg == 8'd0;
    s1_in_reg <= r_in_reg;
    s2_valid_reg <= s1_valid_reg;
    s2_host_reg <= s1_host_reg;
    s2_id_reg <= s1_id_reg;
    s2_last_reg <= s1_last_reg;
    s2_in_reg <= s1_in_reg;
    rdata_reg <= mem_rdata;

    if (rst) begin
        r_active_reg <= 1'b0;
        r_pend_reg <= 3'd0;
        s1_valid_reg <= 1'b0;
        s2_valid_reg <= 1'b0;
    end
end
wire unused_rq_full = rq_full;

// deliberately unused AXI inputs
wire unused_axi = &{1'b0, s_axi_wlast, s_axi_awlock, s_axi_awcache, s_axi_awprot,
                    s_axi_arlock, s_axi_arcache, s_axi_arprot};

endmodule

`resetall
