// SPDX-License-Identifier: MIT
// Soft-core subsystem: froce_cpu + its RAM + an MMIO master port for peripherals (console, mailbox, ...).
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Address map (docs/cpu.md):
 *
 *   [ram_base, ram_base + 4 * 2**RAM_ADDR_WIDTH)     RAM (code and data), both ports
 *   [MMIO_BASE, MMIO_BASE + 2**MMIO_ADDR_WIDTH)      the m_mmio_* port, data side only
 *   anything else                                    access fault (err response)
 *
 * The RAM answers every request one cycle after it (ready always high).
 * Unmapped addresses, and fetches outside the RAM, are accepted at once and
 * answered with err one cycle later. Data requests in the MMIO window are
 * passed to m_mmio_* unchanged (full address, be, wdata), with the same
 * handshake as the core's ports (froce_cpu.v): the peripheral may hold
 * m_mmio_req_ready low and answer any number of cycles later, and must give
 * exactly one response per transferred request, not in the transfer cycle.
 * The core has one data request in flight at a time, so responses from the
 * RAM, the MMIO port and the error path never overlap.
 *
 * ram_base must be a multiple of the RAM size and the RAM must not overlap
 * the MMIO window; a board top ties ram_base and boot_addr to constants and
 * synthesis folds them. They are ports so that one simulation model runs
 * programs linked at any address (sim/cpu, froce-cpu-sim).
 */
module froce_cpu_top #(
    parameter RAM_ADDR_WIDTH = 14,              // RAM size: 2**RAM_ADDR_WIDTH 32-bit words (14: 64 KiB)
    parameter RAM_INIT_FILE = "",               // $readmemh image for the RAM (scripts/elf2hex.py), "" for none
    parameter [31:0] MMIO_BASE = 32'h10000000,  // MMIO window base, a multiple of its size
    parameter MMIO_ADDR_WIDTH = 16              // MMIO window size: 2**MMIO_ADDR_WIDTH bytes
) (
    input  wire        clk,
    input  wire        rst,

    /* Configuration (constants in a board top) */
    input  wire [31:0] ram_base,                // RAM base address, a multiple of the RAM size
    input  wire [31:0] boot_addr,               // first instruction fetched after reset

    /* MMIO master port (same handshake as the core's data port) */
    output wire        m_mmio_req_valid,
    input  wire        m_mmio_req_ready,
    output wire [31:0] m_mmio_req_addr,
    output wire        m_mmio_req_we,
    output wire [3:0]  m_mmio_req_be,
    output wire [31:0] m_mmio_req_wdata,
    input  wire        m_mmio_rsp_valid,
    input  wire [31:0] m_mmio_rsp_rdata,
    input  wire        m_mmio_rsp_err,

    /* Interrupt requests (levels, synchronous to clk) */
    input  wire        irq_external,
    input  wire        irq_timer,

    /* Retirement trace (froce_cpu.v) */
    output wire        trace_valid,
    output wire [31:0] trace_pc,
    output wire [31:0] trace_insn,
    output wire        trace_trap,
    output wire [31:0] trace_cause,
    output wire [4:0]  trace_rd,
    output wire [31:0] trace_rd_wdata,
    output wire        trace_store,
    output wire [31:0] trace_store_addr,
    output wire [3:0]  trace_store_be,
    output wire [31:0] trace_store_wdata
);

initial begin
    if (MMIO_BASE[1:0] != 2'b00 || MMIO_ADDR_WIDTH < 2 || MMIO_ADDR_WIDTH > 31) begin
        $display("froce_cpu_top: MMIO_BASE must be word aligned and MMIO_ADDR_WIDTH 2..31");
        $finish;
    end
end

/* Core ports */
wire        ibus_req_valid;
wire        ibus_req_ready;
wire [31:0] ibus_req_addr;
wire        ibus_rsp_valid;
wire [31:0] ibus_rsp_rdata;
wire        ibus_rsp_err;
wire        dbus_req_valid;
wire        dbus_req_ready;
wire [31:0] dbus_req_addr;
wire        dbus_req_we;
wire [3:0]  dbus_req_be;
wire [31:0] dbus_req_wdata;
wire        dbus_rsp_valid;
wire [31:0] dbus_rsp_rdata;
wire        dbus_rsp_err;

froce_cpu u_cpu (
    .clk(clk),
    .rst(rst),
    .boot_addr(boot_addr),
    .ibus_req_valid(ibus_req_valid),
    .ibus_req_ready(ibus_req_ready),
    .ibus_req_addr(ibus_req_addr),
    .ibus_rsp_valid(ibus_rsp_valid),
    .ibus_rsp_rdata(ibus_rsp_rdata),
    .ibus_rsp_err(ibus_rsp_err),
    .dbus_req_valid(dbus_req_valid),
    .dbus_req_ready(dbus_req_ready),
    .dbus_req_addr(dbus_req_addr),
    .dbus_req_we(dbus_req_we),
    .dbus_req_be(dbus_req_be),
    .dbus_req_wdata(dbus_req_wdata),
    .dbus_rsp_valid(dbus_rsp_valid),
    .dbus_rsp_rdata(dbus_rsp_rdata),
    .dbus_rsp_err(dbus_rsp_err),
    .irq_external(irq_external),
    .irq_timer(irq_timer),
    .trace_valid(trace_valid),
    .trace_pc(trace_pc),
    .trace_insn(trace_insn),
    .trace_trap(trace_trap),
    .trace_cause(trace_cause),
    .trace_rd(trace_rd),
    .trace_rd_wdata(trace_rd_wdata),
    .trace_store(trace_store),
    .trace_store_addr(trace_store_addr),
    .trace_store_be(trace_store_be),
    .trace_store_wdata(trace_store_wdata)
);

// ---------------------------------------------------------------- decode

/* bits above the RAM / MMIO window must match the base */
wire [31:0] ram_mask  = ~((32'd4 << RAM_ADDR_WIDTH) - 32'd1);
wire [31:0] mmio_mask = ~((32'd1 << MMIO_ADDR_WIDTH) - 32'd1);

wire i_hit_ram  = (ibus_req_addr & ram_mask) == (ram_base & ram_mask);
wire d_hit_ram  = (dbus_req_addr & ram_mask) == (ram_base & ram_mask);
wire d_hit_mmio = (dbus_req_addr & mmio_mask) == (MMIO_BASE & mmio_mask);

// ---------------------------------------------------------------- fetch side

/* one cycle to answer: from the RAM, or err for a fetch outside it */
reg i_rsp_reg = 1'b0;
reg i_err_reg = 1'b0;

assign ibus_req_ready = 1'b1;
assign ibus_rsp_valid = i_rsp_reg;
assign ibus_rsp_err   = i_err_reg;

always @(posedge clk) begin
    i_rsp_reg <= ibus_req_valid;
    i_err_reg <= ibus_req_valid && !i_hit_ram;
    if (rst) begin
        i_rsp_reg <= 1'b0;
        i_err_reg <= 1'b0;
    end
end

// ---------------------------------------------------------------- data side

wire d_req_ram  = dbus_req_valid && d_hit_ram;
wire d_req_mmio = dbus_req_valid && !d_hit_ram && d_hit_mmio;
wire d_req_none = dbus_req_valid && !d_hit_ram && !d_hit_mmio;

reg d_ram_rsp_reg = 1'b0;       // RAM answers this cycle
reg d_err_rsp_reg = 1'b0;       // unmapped address: err this cycle

assign dbus_req_ready = d_hit_mmio && !d_hit_ram ? m_mmio_req_ready : 1'b1;
assign dbus_rsp_valid = d_ram_rsp_reg || d_err_rsp_reg || m_mmio_rsp_valid;
assign dbus_rsp_err   = d_err_rsp_reg || (m_mmio_rsp_valid && m_mmio_rsp_err);

always @(posedge clk) begin
    d_ram_rsp_reg <= d_req_ram;
    d_err_rsp_reg <= d_req_none;
    if (rst) begin
        d_ram_rsp_reg <= 1'b0;
        d_err_rsp_reg <= 1'b0;
    end
end

assign m_mmio_req_valid = d_req_mmio;
assign m_mmio_req_addr  = dbus_req_addr;
assign m_mmio_req_we    = dbus_req_we;
assign m_mmio_req_be    = dbus_req_be;
assign m_mmio_req_wdata = dbus_req_wdata;

// ---------------------------------------------------------------- RAM

wire [31:0] ram_b_rdata;

froce_cpu_ram #(
    .ADDR_WIDTH(RAM_ADDR_WIDTH),
    .INIT_FILE(RAM_INIT_FILE)
) u_ram (
    .clk(clk),
    .a_en(ibus_req_valid && i_hit_ram),
    .a_addr(ibus_req_addr[RAM_ADDR_WIDTH+1:2]),
    .a_rdata(ibus_rsp_rdata),
    .b_en(d_req_ram),
    .b_we(dbus_req_we ? dbus_req_be : 4'd0),
    .b_addr(dbus_req_addr[RAM_ADDR_WIDTH+1:2]),
    .b_wdata(dbus_req_wdata),
    .b_rdata(ram_b_rdata)
);

assign dbus_rsp_rdata = m_mmio_rsp_valid ? m_mmio_rsp_rdata : ram_b_rdata;

endmodule

`resetall
