// SPDX-License-Identifier: MIT
// PCIe BAR accesses from the XDMA's AXI4 master split into single AXI4-Lite accesses: BAR0 (32-bit, froce_core s_axil_*) and the BAR2 doorbell window (64-bit, s_axil_db_*).
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Address decode: a burst belongs to BAR0 when
 * AxADDR[ADDR_WIDTH-1:BAR0_ADDR_WIDTH] == BAR0_BASE[ADDR_WIDTH-1:BAR0_ADDR_WIDTH],
 * to BAR2 likewise, else to no window. The windows are at least 4 KiB and
 * aligned to their size, so a legal burst (never crossing 4 KiB) lies in one
 * window; the decision is made once per burst from AxADDR. The AXI-Lite
 * address is the offset in the window.
 *
 * Units: BAR0 is accessed in dwords (4 bytes, 4-byte aligned), BAR2 in
 * qwords (8 bytes, 8-byte aligned). Each beat of a burst is split into the
 * units of the bus word that hold bytes of the beat, in address order:
 *
 *   bytes of beat k   the byte lanes AXI gives the beat of an INCR burst:
 *                     [AxADDR mod bus bytes, end of the AxSIZE-aligned
 *                     transfer) for beat 0, the whole aligned transfer at
 *                     address + k 2^AxSIZE for later beats
 *   write             a unit is written when one of its bytes is in the beat
 *                     AND has its WSTRB bit set: one AXI-Lite write with the
 *                     unit's data and those strobes (other strobes 0); a unit
 *                     without a set strobe is not written
 *   read              every unit holding a byte of the beat is read with one
 *                     AXI-Lite read; its data lands in the unit's lanes of
 *                     the R beat (lanes not read return 0)
 *
 * So a 4-byte BAR0 access is one 32-bit AXI-Lite access; an 8-byte BAR0
 * access is two, low dword first; an 8-byte, 8-byte aligned BAR2 write is
 * exactly ONE 64-bit AXI-Lite write with WSTRB 8'hFF (never two 32-bit
 * halves: froce_doorbell counts a doorbell with any other strobe as
 * malformed, which is what a 4-byte doorbell write is meant to be); a
 * 64-byte write-combined burst to BAR2 is eight doorbells in address order.
 *
 * Reads carry no strobes: a full-width read beat at an unaligned address
 * covers the rest of the bus word (AXI's definition), and every unit in it
 * is read. The XDMA uses the full width only for requests longer than one
 * dword, so 4-byte register reads are one access each; an 8-byte read also
 * reads the dwords after it in the bus word. BAR0 reads have no side effect
 * but the counter high-word latch, which stays right for 8-byte counter
 * reads (each low word is read just before its high word).
 *
 * Outside both windows: writes are dropped and answered OKAY, reads return
 * 0 with OKAY. Not DECERR: the XDMA turns DECERR/SLVERR into an Unsupported
 * Request / Completer Abort completion, which the host reports through AER
 * and on some platforms escalates to a fatal machine check; froce_bar0 makes
 * the same choice for unmapped offsets in BAR0 ("a driver bug must not hang
 * or abort the PCIe transaction"). Errors an AXI-Lite slave does return are
 * passed on: BRESP is the worst of a burst's AXI-Lite responses, RRESP the
 * worst of a beat's (DECERR > SLVERR > OKAY).
 *
 * BAR2 reads: froce_core's doorbell window is write-only (no AR/R on
 * s_axil_db_*). With BAR2_READ_ENABLE = 0 (the default) a read in BAR2 is
 * answered here like one outside the windows (0, OKAY) and m_axil_db_ar*
 * are tied off; with 1 it is split into 64-bit reads like a write.
 *
 * Ordering: one burst at a time, from AW/AR acceptance to the last B/R beat;
 * when AW and AR are both valid the write goes first (PCIe: a read must not
 * pass a posted write; here a read also waits for every AXI-Lite B of the
 * write before it). Responses therefore come back in acceptance order with
 * their own ID. AXI-Lite writes of one burst are pipelined (the next unit is
 * issued while earlier B responses are outstanding); reads are issued one at
 * a time. Measured with an AXI-Lite slave that answers at once (the
 * bench's): a lone doorbell write takes about 9 cycles from AWVALID to the B
 * handshake (about 28 M doorbells/s at 250 MHz), the doorbells of one
 * write-combined burst about 2 cycles each.
 *
 * Not supported: FIXED and WRAP bursts (converted as INCR; the XDMA issues
 * INCR only), AxSIZE wider than the bus (clamped), WLAST not on the last
 * beat. In simulation each prints "froce_axi_bar_split: ERROR ..." and
 * increments sim_errors (left out when SYNTHESIS is defined).
 * AxLOCK/AxCACHE/AxPROT are ignored (an exclusive access gets OKAY, i.e.
 * fails, as AXI defines for a slave without exclusive support).
 */
module froce_axi_bar_split #(
    parameter DATA_WIDTH = 256,                 // AXI data width: 64, 128, 256 or 512
    parameter ADDR_WIDTH = 64,                  // AXI address width, >= every window width, <= 64
    parameter ID_WIDTH = 4,                     // AXI ID width
    parameter [63:0] BAR0_BASE = 64'h0,         // AXI address of BAR0 (aligned to its size)
    parameter BAR0_ADDR_WIDTH = 14,             // BAR0 size 2^BAR0_ADDR_WIDTH bytes, 12..32 (froce_core: FROCE_BAR0_ADDR_W)
    parameter [63:0] BAR2_BASE = 64'h100000,    // AXI address of BAR2 (aligned to its size)
    parameter BAR2_ADDR_WIDTH = 20,             // BAR2 size 2^BAR2_ADDR_WIDTH bytes, 12..32 (froce_core: DB_ADDR_W)
    parameter BAR2_READ_ENABLE = 0              // 1: BAR2 reads go to m_axil_db_ar*/r*; 0: they read 0 here
) (
    input  wire                         clk,
    input  wire                         rst,

    /* AXI4 slave (the XDMA AXI master, BAR accesses): write address */
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
    input  wire [DATA_WIDTH-1:0]        s_axi_wdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axi_wstrb,
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
    output wire [DATA_WIDTH-1:0]        s_axi_rdata,
    output wire [1:0]                   s_axi_rresp,
    output wire                         s_axi_rlast,
    output wire                         s_axi_rvalid,
    input  wire                         s_axi_rready,

    /* AXI4-Lite master: BAR0 (froce_core s_axil_*) */
    output wire [BAR0_ADDR_WIDTH-1:0]   m_axil_awaddr,
    output wire                         m_axil_awvalid,
    input  wire                         m_axil_awready,
    output wire [31:0]                  m_axil_wdata,
    output wire [3:0]                   m_axil_wstrb,
    output wire                         m_axil_wvalid,
    input  wire                         m_axil_wready,
    input  wire [1:0]                   m_axil_bresp,
    input  wire                         m_axil_bvalid,
    output wire                         m_axil_bready,
    output wire [BAR0_ADDR_WIDTH-1:0]   m_axil_araddr,
    output wire                         m_axil_arvalid,
    input  wire                         m_axil_arready,
    input  wire [31:0]                  m_axil_rdata,
    input  wire [1:0]                   m_axil_rresp,
    input  wire                         m_axil_rvalid,
    output wire                         m_axil_rready,

    /* AXI4-Lite master: BAR2 doorbell window (froce_core s_axil_db_*);
     * ar/r only with BAR2_READ_ENABLE (else outputs 0, inputs ignored) */
    output wire [BAR2_ADDR_WIDTH-1:0]   m_axil_db_awaddr,
    output wire                         m_axil_db_awvalid,
    input  wire                         m_axil_db_awready,
    output wire [63:0]                  m_axil_db_wdata,
    output wire [7:0]                   m_axil_db_wstrb,
    output wire                         m_axil_db_wvalid,
    input  wire                         m_axil_db_wready,
    input  wire [1:0]                   m_axil_db_bresp,
    input  wire                         m_axil_db_bvalid,
    output wire                         m_axil_db_bready,
    output wire [BAR2_ADDR_WIDTH-1:0]   m_axil_db_araddr,
    output wire                         m_axil_db_arvalid,
    input  wire                         m_axil_db_arready,
    input  wire [63:0]                  m_axil_db_rdata,
    input  wire [1:0]                   m_axil_db_rresp,
    input  wire                         m_axil_db_rvalid,
    output wire                         m_axil_db_rready
);

localparam NB = DATA_WIDTH / 8;                 // bytes per beat
localparam KB = $clog2(NB);
localparam NU = NB / 4;                         // dword units per beat (BAR2 uses the low NB / 8)
localparam UW = $clog2(NU);                     // unit index bits
localparam LAW = BAR0_ADDR_WIDTH > BAR2_ADDR_WIDTH ? BAR0_ADDR_WIDTH : BAR2_ADDR_WIDTH;
localparam OUTW = 16;                           // AXI-Lite writes awaiting B (< NU * 256)

localparam [1:0] WIN_NONE = 2'd0, WIN_BAR0 = 2'd1, WIN_BAR2 = 2'd2;

localparam [3:0]
    ST_IDLE  = 4'd0,    // waiting for AW (first) or AR
    ST_WDATA = 4'd1,    // waiting for the W beat
    ST_WUNIT = 4'd2,    // issuing the beat's AXI-Lite writes
    ST_WRESP = 4'd3,    // waiting for the last AXI-Lite B
    ST_BRESP = 4'd4,    // B to the master
    ST_RBEAT = 4'd5,    // computing the units of a read beat
    ST_RUNIT = 4'd6,    // issuing the next AXI-Lite read
    ST_RWAIT = 4'd7,    // waiting for its R
    ST_RDATA = 4'd8;    // R beat to the master

initial begin
    if (NB < 8 || NB > 64 || (1 << KB) != NB || ADDR_WIDTH > 64 ||
        BAR0_ADDR_WIDTH < 12 || BAR0_ADDR_WIDTH > 32 || BAR2_ADDR_WIDTH < 12 || BAR2_ADDR_WIDTH > 32 ||
        ADDR_WIDTH < BAR0_ADDR_WIDTH || ADDR_WIDTH < BAR2_ADDR_WIDTH ||
        (BAR0_BASE & ((64'd1 << BAR0_ADDR_WIDTH) - 64'd1)) != 64'd0 ||
        (BAR2_BASE & ((64'd1 << BAR2_ADDR_WIDTH) - 64'd1)) != 64'd0) begin
        $display("froce_axi_bar_split: bad parameters");
        $finish;
    end
end

// The same checks, fatal at elaboration in every tool (Yosys ignores
// initial blocks): a deliberately nonexistent module named after the problem.
generate
    if (NB < 8 || NB > 64 || (1 << KB) != NB || ADDR_WIDTH > 64 ||
        BAR0_ADDR_WIDTH < 12 || BAR0_ADDR_WIDTH > 32 || BAR2_ADDR_WIDTH < 12 || BAR2_ADDR_WIDTH > 32 ||
        ADDR_WIDTH < BAR0_ADDR_WIDTH || ADDR_WIDTH < BAR2_ADDR_WIDTH ||
        (BAR0_BASE & ((64'd1 << BAR0_ADDR_WIDTH) - 64'd1)) != 64'd0 ||
        (BAR2_BASE & ((64'd1 << BAR2_ADDR_WIDTH) - 64'd1)) != 64'd0) begin : g_bad_parameter
        froce_axi_bar_split_bad_parameter u_bad_parameter ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

localparam [63:0] BAR0_BASE_C = BAR0_BASE;
localparam [63:0] BAR2_BASE_C = BAR2_BASE;

// worse of two responses: DECERR > SLVERR > EXOKAY > OKAY
function [1:0] worst;
    input [1:0] a;
    input [1:0] b;
    begin
        worst = a > b ? a : b;
    end
endfunction

// AxSIZE clamped to the bus width
function [2:0] clamp_size;
    input [2:0] size;
    begin
        clamp_size = size > KB[2:0] ? KB[2:0] : size;
    end
endfunction

// byte lanes of the beat at addr: [addr, end of its 2^size-aligned transfer)
function [NB-1:0] beat_lanes;
    input [KB-1:0] addr;
    input [2:0] size;
    reg [KB:0] lo, hi;
    integer i;
    begin
        lo = {1'b0, addr};
        hi = ({1'b0, addr} & ~(({{KB{1'b0}}, 1'b1} << size) - 1'b1)) + ({{KB{1'b0}}, 1'b1} << size);
        for (i = 0; i < NB; i = i + 1)
            beat_lanes[i] = i >= lo && i < hi;
    end
endfunction

// units (dwords for BAR0, qwords for BAR2) holding a set byte
function [NU-1:0] units_of;
    input [NB-1:0] bytes;
    input qword;
    integer i;
    begin
        units_of = {NU{1'b0}};
        for (i = 0; i < NU; i = i + 1)
            if (qword)
                units_of[i] = i < NB / 8 && |bytes[(i % (NB / 8)) * 8 +: 8];
            else
                units_of[i] = |bytes[i * 4 +: 4];
    end
endfunction

// lowest set unit
function [UW-1:0] first_unit;
    input [NU-1:0] units;
    integer i;
    begin
        first_unit = {UW{1'b0}};
        for (i = NU - 1; i >= 0; i = i - 1)
            if (units[i])
                first_unit = i[UW-1:0];
    end
endfunction

/* ------------------------------------------------------------------------
 * Burst state machine
 * ------------------------------------------------------------------------ */

reg [3:0]               state_reg = ST_IDLE, state_next;
reg [ID_WIDTH-1:0]      id_reg = {ID_WIDTH{1'b0}}, id_next;
reg [ADDR_WIDTH-1:0]    addr_reg = {ADDR_WIDTH{1'b0}}, addr_next;     // address of the current beat
reg [2:0]               size_reg = 3'd0, size_next;
reg [7:0]               beats_reg = 8'd0, beats_next;                  // beats after the current one
reg [1:0]               win_reg = WIN_NONE, win_next;
reg [DATA_WIDTH-1:0]    data_reg = {DATA_WIDTH{1'b0}}, data_next;      // W beat, or R beat being filled
reg [NB-1:0]            strb_reg = {NB{1'b0}}, strb_next;
reg [NU-1:0]            units_reg = {NU{1'b0}}, units_next;            // units still to access
reg [UW-1:0]            unit_reg = {UW{1'b0}}, unit_next;              // unit of the AXI-Lite read in flight
reg [1:0]               resp_reg = 2'b00, resp_next;
reg [OUTW-1:0]          wout_reg = {OUTW{1'b0}}, wout_next;            // AXI-Lite writes awaiting B

// AXI-Lite request registers, shared by both ports (sel: 0 BAR0, 1 BAR2)
reg                     l_sel_reg = 1'b0, l_sel_next;
reg [LAW-1:0]           l_addr_reg = {LAW{1'b0}}, l_addr_next;
reg [63:0]              l_wdata_reg = 64'd0, l_wdata_next;
reg [7:0]               l_wstrb_reg = 8'd0, l_wstrb_next;
reg                     l_awvalid_reg = 1'b0, l_awvalid_next;
reg                     l_wvalid_reg = 1'b0, l_wvalid_next;
reg                     l_arvalid_reg = 1'b0, l_arvalid_next;

wire l_awready = l_sel_reg ? m_axil_db_awready : m_axil_awready;
wire l_wready = l_sel_reg ? m_axil_db_wready : m_axil_wready;
wire l_arready;
wire l_bvalid = m_axil_bvalid || m_axil_db_bvalid;
wire [1:0] l_bresp = (m_axil_bvalid ? m_axil_bresp : 2'b00) | (m_axil_db_bvalid ? m_axil_db_bresp : 2'b00);
wire l_rvalid;
wire [63:0] l_rdata;
wire [1:0] l_rresp;

wire is_q = win_reg == WIN_BAR2;                        // qword units
wire [NB-1:0] lanes = beat_lanes(addr_reg[KB-1:0], clamp_size(size_reg));
wire [NB-1:0] w_bytes = lanes & s_axi_wstrb;
wire last_beat = beats_reg == 8'd0;
wire [UW-1:0] unit = first_unit(units_reg);
wire [KB-1:0] unit_off = is_q ? {unit, 2'b00} << 1 : {unit, 2'b00};   // byte offset in the beat
wire [ADDR_WIDTH-1:0] unit_addr = {addr_reg[ADDR_WIDTH-1:KB], unit_off};
wire [1:0] r_win = win_reg == WIN_BAR2 && BAR2_READ_ENABLE == 0 ? WIN_NONE : win_reg;

// next beat address (INCR): 2^size above the aligned address
wire [ADDR_WIDTH-1:0] size_mask = ({{(ADDR_WIDTH-1){1'b0}}, 1'b1} << clamp_size(size_reg)) - 1'b1;
wire [ADDR_WIDTH-1:0] addr_incr = (addr_reg & ~size_mask) + size_mask + 1'b1;

// window of the AW/AR address
wire [1:0] aw_win = s_axi_awaddr[ADDR_WIDTH-1:BAR0_ADDR_WIDTH] == BAR0_BASE_C[ADDR_WIDTH-1:BAR0_ADDR_WIDTH] ? WIN_BAR0 :
                    s_axi_awaddr[ADDR_WIDTH-1:BAR2_ADDR_WIDTH] == BAR2_BASE_C[ADDR_WIDTH-1:BAR2_ADDR_WIDTH] ? WIN_BAR2 :
                    WIN_NONE;
wire [1:0] ar_win = s_axi_araddr[ADDR_WIDTH-1:BAR0_ADDR_WIDTH] == BAR0_BASE_C[ADDR_WIDTH-1:BAR0_ADDR_WIDTH] ? WIN_BAR0 :
                    s_axi_araddr[ADDR_WIDTH-1:BAR2_ADDR_WIDTH] == BAR2_BASE_C[ADDR_WIDTH-1:BAR2_ADDR_WIDTH] ? WIN_BAR2 :
                    WIN_NONE;

wire l_free = (!l_awvalid_reg || l_awready) && (!l_wvalid_reg || l_wready);

assign s_axi_awready = state_reg == ST_IDLE;
assign s_axi_arready = state_reg == ST_IDLE && !s_axi_awvalid;
assign s_axi_wready = state_reg == ST_WDATA;

always @* begin
    state_next = state_reg;
    id_next = id_reg;
    addr_next = addr_reg;
    size_next = size_reg;
    beats_next = beats_reg;
    win_next = win_reg;
    data_next = data_reg;
    strb_next = strb_reg;
    units_next = units_reg;
    unit_next = unit_reg;
    resp_next = resp_reg;
    wout_next = wout_reg;
    l_sel_next = l_sel_reg;
    l_addr_next = l_addr_reg;
    l_wdata_next = l_wdata_reg;
    l_wstrb_next = l_wstrb_reg;
    l_awvalid_next = l_awvalid_reg && !l_awready;
    l_wvalid_next = l_wvalid_reg && !l_wready;
    l_arvalid_next = l_arvalid_reg && !l_arready;

    if (l_bvalid) begin
        wout_next = wout_next - 1'b1;
        resp_next = worst(resp_next, l_bresp);
    end

    case (state_reg)
        ST_IDLE: begin
            resp_next = 2'b00;
            if (s_axi_awvalid) begin
                id_next = s_axi_awid;
                addr_next = s_axi_awaddr;
                size_next = s_axi_awsize;
                beats_next = s_axi_awlen;
                win_next = aw_win;
                state_next = ST_WDATA;
            end else if (s_axi_arvalid) begin
                id_next = s_axi_arid;
                addr_next = s_axi_araddr;
                size_next = s_axi_arsize;
                beats_next = s_axi_arlen;
                win_next = ar_win;
                state_next = ST_RBEAT;
            end
        end
        ST_WDATA: begin
            if (s_axi_wvalid) begin
                data_next = s_axi_wdata;
                strb_next = w_bytes;
                units_next = win_reg == WIN_NONE ? {NU{1'b0}} : units_of(w_bytes, is_q);
                state_next = ST_WUNIT;
            end
        end
        ST_WUNIT: begin
            if (units_reg == {NU{1'b0}}) begin
                if (last_beat) begin
                    state_next = ST_WRESP;
                end else begin
                    addr_next = addr_incr;
                    beats_next = beats_reg - 1'b1;
                    state_next = ST_WDATA;
                end
            end else if (l_free) begin
                l_sel_next = is_q;
                l_addr_next = unit_addr[LAW-1:0];
                if (is_q) begin
                    l_wdata_next = data_reg[unit * 64 +: 64];
                    l_wstrb_next = strb_reg[unit * 8 +: 8];
                end else begin
                    l_wdata_next = {32'd0, data_reg[unit * 32 +: 32]};
                    l_wstrb_next = {4'd0, strb_reg[unit * 4 +: 4]};
                end
                l_awvalid_next = 1'b1;
                l_wvalid_next = 1'b1;
                wout_next = wout_next + 1'b1;
                units_next[unit] = 1'b0;
            end
        end
        ST_WRESP: begin
            if (wout_reg == {OUTW{1'b0}})
                state_next = ST_BRESP;
        end
        ST_BRESP: begin
            if (s_axi_bready)
                state_next = ST_IDLE;
        end
        ST_RBEAT: begin
            data_next = {DATA_WIDTH{1'b0}};
            resp_next = 2'b00;
            units_next = r_win == WIN_NONE ? {NU{1'b0}} : units_of(lanes, is_q);
            state_next = ST_RUNIT;
        end
        ST_RUNIT: begin
            if (units_reg == {NU{1'b0}}) begin
                state_next = ST_RDATA;
            end else begin
                l_sel_next = is_q;
                l_addr_next = unit_addr[LAW-1:0];
                l_arvalid_next = 1'b1;
                unit_next = unit;
                units_next[unit] = 1'b0;
                state_next = ST_RWAIT;
            end
        end
        ST_RWAIT: begin
            if (l_rvalid) begin
                if (is_q)
                    data_next[unit_reg * 64 +: 64] = l_rdata;
                else
                    data_next[unit_reg * 32 +: 32] = l_rdata[31:0];
                resp_next = worst(resp_reg, l_rresp);
                state_next = ST_RUNIT;
            end
        end
        ST_RDATA: begin
            if (s_axi_rready) begin
                if (last_beat) begin
                    state_next = ST_IDLE;
                end else begin
                    addr_next = addr_incr;
                    beats_next = beats_reg - 1'b1;
                    state_next = ST_RBEAT;
                end
            end
        end
        default: state_next = ST_IDLE;
    endcase
end

always @(posedge clk) begin
    state_reg <= state_next;
    id_reg <= id_next;
    addr_reg <= addr_next;
    size_reg <= size_next;
    beats_reg <= beats_next;
    win_reg <= win_next;
    data_reg <= data_next;
    strb_reg <= strb_next;
    units_reg <= units_next;
    unit_reg <= unit_next;
    resp_reg <= resp_next;
    wout_reg <= wout_next;
    l_sel_reg <= l_sel_next;
    l_addr_reg <= l_addr_next;
    l_wdata_reg <= l_wdata_next;
    l_wstrb_reg <= l_wstrb_next;
    l_awvalid_reg <= l_awvalid_next;
    l_wvalid_reg <= l_wvalid_next;
    l_arvalid_reg <= l_arvalid_next;
    if (rst) begin
        state_reg <= ST_IDLE;
        units_reg <= {NU{1'b0}};
        wout_reg <= {OUTW{1'b0}};
        l_awvalid_reg <= 1'b0;
        l_wvalid_reg <= 1'b0;
        l_arvalid_reg <= 1'b0;
    end
end

assign s_axi_bid = id_reg;
assign s_axi_bresp = resp_reg;
assign s_axi_bvalid = state_reg == ST_BRESP;

assign s_axi_rid = id_reg;
assign s_axi_rdata = data_reg;
assign s_axi_rresp = resp_reg;
assign s_axi_rlast = last_beat;
assign s_axi_rvalid = state_reg == ST_RDATA;

/* ------------------------------------------------------------------------
 * AXI-Lite ports
 * ------------------------------------------------------------------------ */

assign m_axil_awaddr = l_addr_reg[BAR0_ADDR_WIDTH-1:0];
assign m_axil_awvalid = l_awvalid_reg && !l_sel_reg;
assign m_axil_wdata = l_wdata_reg[31:0];
assign m_axil_wstrb = l_wstrb_reg[3:0];
assign m_axil_wvalid = l_wvalid_reg && !l_sel_reg;
assign m_axil_bready = 1'b1;
assign m_axil_araddr = l_addr_reg[BAR0_ADDR_WIDTH-1:0];
assign m_axil_arvalid = l_arvalid_reg && !l_sel_reg;
assign m_axil_rready = state_reg == ST_RWAIT && !l_sel_reg;

assign m_axil_db_awaddr = l_addr_reg[BAR2_ADDR_WIDTH-1:0];
assign m_axil_db_awvalid = l_awvalid_reg && l_sel_reg;
assign m_axil_db_wdata = l_wdata_reg;
assign m_axil_db_wstrb = l_wstrb_reg;
assign m_axil_db_wvalid = l_wvalid_reg && l_sel_reg;
assign m_axil_db_bready = 1'b1;

generate
    if (BAR2_READ_ENABLE != 0) begin : g_bar2_read
        assign m_axil_db_araddr = l_addr_reg[BAR2_ADDR_WIDTH-1:0];
        assign m_axil_db_arvalid = l_arvalid_reg && l_sel_reg;
        assign m_axil_db_rready = state_reg == ST_RWAIT && l_sel_reg;
        assign l_arready = l_sel_reg ? m_axil_db_arready : m_axil_arready;
        assign l_rvalid = l_sel_reg ? m_axil_db_rvalid : m_axil_rvalid;
        assign l_rdata = l_sel_reg ? m_axil_db_rdata : {32'd0, m_axil_rdata};
        assign l_rresp = l_sel_reg ? m_axil_db_rresp : m_axil_rresp;
    end else begin : g_no_bar2_read
        // no BAR2 read is ever issued (r_win maps BAR2 reads to WIN_NONE)
        assign m_axil_db_araddr = {BAR2_ADDR_WIDTH{1'b0}};
        assign m_axil_db_arvalid = 1'b0;
        assign m_axil_db_rready = 1'b0;
        assign l_arready = m_axil_arready;
        assign l_rvalid = m_axil_rvalid;
        assign l_rdata = {32'd0, m_axil_rdata};
        assign l_rresp = m_axil_rresp;
        wire unused_db_r = &{1'b0, m_axil_db_arready, m_axil_db_rdata, m_axil_db_rresp, m_axil_db_rvalid};
    end
endgenerate

wire unused_inputs = &{1'b0, s_axi_awlock, s_axi_awcache, s_axi_awprot, s_axi_arlock, s_axi_arcache,
                       s_axi_arprot, s_axi_wlast, unit_addr};

/* ------------------------------------------------------------------------
 * Simulation checks
 * ------------------------------------------------------------------------ */

`ifndef SYNTHESIS
integer sim_errors = 0;

always @(posedge clk) begin
    if (!rst) begin
        if (s_axi_awvalid && s_axi_awready && (s_axi_awburst != 2'b01 || s_axi_awsize > KB[2:0])) begin
            $display("froce_axi_bar_split: ERROR unsupported AW burst %0d size %0d", s_axi_awburst, s_axi_awsize);
            sim_errors <= sim_errors + 1;
        end
        if (s_axi_arvalid && s_axi_arready && (s_axi_arburst != 2'b01 || s_axi_arsize > KB[2:0])) begin
            $display("froce_axi_bar_split: ERROR unsupported AR burst %0d size %0d", s_axi_arburst, s_axi_arsize);
            sim_errors <= sim_errors + 1;
        end
        if (s_axi_wvalid && s_axi_wready && s_axi_wlast != last_beat) begin
            $display("froce_axi_bar_split: ERROR WLAST %0d, beats left %0d", s_axi_wlast, beats_reg);
            sim_errors <= sim_errors + 1;
        end
    end
end
`endif

endmodule

`resetall
