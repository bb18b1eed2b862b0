// SPDX-License-Identifier: MIT
// Icarus bench for the soft core: runs one ISA test image ($readmemh) until it writes tohost.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * MODE 0: froce_cpu_top, its RAM preloaded through RAM_INIT_FILE (the path a
 *         firmware image takes into the bitstream).
 * MODE 1: froce_cpu alone, on a memory model in this bench that holds
 *         *_req_ready low and delays every response by a random number of
 *         cycles on both ports (wait-state tolerance), with the same address
 *         map as froce_cpu_top.
 * Both: the MMIO devices of froce-cpu-sim (sim/cpu/sim_mmio.h: console,
 * interrupt lines, scratch register, err for other offsets), and tohost
 * watched on the retirement trace.
 *
 * Plusargs: +ram_base=HEX +boot=HEX +tohost=HEX (from scripts/elf2hex.py),
 * +max_cycles=N (default 200000), +seed=N (MODE 1, default 1).
 * Prints "PASS cycles=.. instret=..", "FAIL test N" or "TIMEOUT" and
 * finishes.
 */
module tb_cpu #(
    parameter MODE = 0,                 // 0: froce_cpu_top + RAM, 1: core + random wait states
    parameter INIT_FILE = ""            // $readmemh image (64 KiB RAM)
) ();

localparam RAM_AW = 14;
localparam [31:0] MMIO_BASE = 32'h10000000;

reg clk = 1'b0;
reg rst = 1'b1;
always #5 clk = !clk;

reg [31:0] ram_base = 32'h80000000;
reg [31:0] boot_addr = 32'h80000000;
reg [31:0] tohost = 32'h80001000;
integer max_cycles = 200000;
integer seed = 1;

/* MMIO device state (sim_mmio.h) */
reg        irq_ext = 1'b0;
reg        irq_timer = 1'b0;
reg [31:0] irq_ext_after = 32'd0;
reg [31:0] scratch = 32'd0;

/* MMIO port, driven by the top (MODE 0) or by the memory model (MODE 1) */
wire        mmio_req_valid;
wire        mmio_req_ready;
wire [31:0] mmio_req_addr;
wire        mmio_req_we;
wire [3:0]  mmio_req_be;
wire [31:0] mmio_req_wdata;
reg         mmio_rsp_valid = 1'b0;
reg  [31:0] mmio_rsp_rdata = 32'd0;
reg         mmio_rsp_err = 1'b0;

wire        trace_valid;
wire [31:0] trace_pc;
wire [31:0] trace_insn;
wire        trace_trap;
wire [31:0] trace_cause;
wire [4:0]  trace_rd;
wire [31:0] trace_rd_wdata;
wire        trace_store;
wire [31:0] trace_store_addr;
wire [3:0]  trace_store_be;
wire [31:0] trace_store_wdata;

/* MMIO device: ready after one wait cycle, response two cycles after the transfer */
reg mmio_wait = 1'b0;
reg mmio_busy = 1'b0;
reg [1:0] mmio_delay = 2'd0;
assign mmio_req_ready = mmio_wait && !mmio_busy;
wire [31:0] be_mask = {{8{mmio_req_be[3]}}, {8{mmio_req_be[2]}}, {8{mmio_req_be[1]}}, {8{mmio_req_be[0]}}};

always @(posedge clk) begin
    mmio_rsp_valid <= 1'b0;
    mmio_wait <= mmio_req_valid && !mmio_req_ready;
    if (irq_ext_after != 32'd0) begin
        irq_ext_after <= irq_ext_after - 32'd1;
        if (irq_ext_after == 32'd1)
            irq_ext <= 1'b1;
    end
    if (mmio_busy) begin
        if (mmio_delay == 2'd0) begin
            mmio_rsp_valid <= 1'b1;
            mmio_busy <= 1'b0;
        end
        mmio_delay <= mmio_delay - 2'd1;
    end
    if (mmio_req_valid && mmio_req_ready) begin
        mmio_busy <= 1'b1;
        mmio_delay <= 2'd0;
        mmio_wait <= 1'b0;
        mmio_rsp_err <= 1'b0;
        mmio_rsp_rdata <= 32'd0;
        case (mmio_req_addr)
            32'h10000000: if (mmio_req_we && mmio_req_be[0]) $write("%c", mmio_req_wdata[7:0]);
            32'h10000004: begin
                if (mmio_req_we && mmio_req_be[0]) irq_ext <= mmio_req_wdata[0];
                if (!mmio_req_we) mmio_rsp_rdata <= {31'd0, irq_ext};
            end
            32'h10000008: begin
                if (mmio_req_we) irq_ext_after <= mmio_req_wdata & be_mask;
                if (!mmio_req_we) mmio_rsp_rdata <= irq_ext_after;
            end
            32'h1000000c: begin
                if (mmio_req_we && mmio_req_be[0]) irq_timer <= mmio_req_wdata[0];
                if (!mmio_req_we) mmio_rsp_rdata <= {31'd0, irq_timer};
            end
            32'h10000010: begin
                if (mmio_req_we) scratch <= (scratch & ~be_mask) | (mmio_req_wdata & be_mask);
                if (!mmio_req_we) mmio_rsp_rdata <= scratch;
            end
            default: mmio_rsp_err <= 1'b1;
        endcase
    end
    if (rst) begin
        mmio_busy <= 1'b0;
        mmio_wait <= 1'b0;
    end
end

generate
if (MODE == 0) begin : g_top
    froce_cpu_top #(
        .RAM_ADDR_WIDTH(RAM_AW),
        .RAM_INIT_FILE(INIT_FILE)
    ) dut (
        .clk(clk),
        .rst(rst),
        .ram_base(ram_base),
        .boot_addr(boot_addr),
        .m_mmio_req_valid(mmio_req_valid),
        .m_mmio_req_ready(mmio_req_ready),
        .m_mmio_req_addr(mmio_req_addr),
        .m_mmio_req_we(mmio_req_we),
        .m_mmio_req_be(mmio_req_be),
        .m_mmio_req_wdata(mmio_req_wdata),
        .m_mmio_rsp_valid(mmio_rsp_valid),
        .m_mmio_rsp_rdata(mmio_rsp_rdata),
        .m_mmio_rsp_err(mmio_rsp_err),
        .irq_external(irq_ext),
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
end else begin : g_core
    /* memory model with random wait states */
    reg [31:0] mem [0:(1 << RAM_AW) - 1];
    initial $readmemh(INIT_FILE, mem);

    wire        ibus_req_valid;
    wire [31:0] ibus_req_addr;
    wire        dbus_req_valid;
    wire [31:0] dbus_req_addr;
    wire        dbus_req_we;
    wire [3:0]  dbus_req_be;
    wire [31:0] dbus_req_wdata;
    reg         i_ready = 1'b0;
    reg         i_rsp_valid = 1'b0;
    reg  [31:0] i_rsp_rdata = 32'd0;
    reg         i_rsp_err = 1'b0;
    reg         d_ready = 1'b0;
    reg         d_rsp_valid = 1'b0;
    reg  [31:0] d_rsp_rdata = 32'd0;
    reg         d_rsp_err = 1'b0;
    reg         i_pend = 1'b0;
    reg         d_pend = 1'b0;
    reg  [2:0]  i_delay = 3'd0;
    reg  [2:0]  d_delay = 3'd0;
    reg  [31:0] i_data = 32'd0;
    reg  [31:0] d_data = 32'd0;
    reg         i_err = 1'b0;
    reg         d_err = 1'b0;
    reg         d_mmio = 1'b0;              // the data request went to the MMIO device

    wire i_hit = ibus_req_addr[31:RAM_AW+2] == ram_base[31:RAM_AW+2];
    wire d_hit = dbus_req_addr[31:RAM_AW+2] == ram_base[31:RAM_AW+2];
    wire d_to_mmio = dbus_req_addr[31:16] == MMIO_BASE[31:16];
    wire [RAM_AW-1:0] d_idx = dbus_req_addr[RAM_AW+1:2];

    assign mmio_req_valid = dbus_req_valid && !d_hit && d_to_mmio;
    assign mmio_req_addr = dbus_req_addr;
    assign mmio_req_we = dbus_req_we;
    assign mmio_req_be = dbus_req_be;
    assign mmio_req_wdata = dbus_req_wdata;

    always @(posedge clk) begin
        /* ready: random, only while nothing is pending on the port */
        i_ready <= !i_pend && ($random(seed) & 3) != 0;
        d_ready <= !d_pend && ($random(seed) & 3) != 0;
        i_rsp_valid <= 1'b0;
        d_rsp_valid <= 1'b0;
        if (i_pend) begin
            if (i_delay == 3'd0) begin
                i_rsp_valid <= 1'b1;
                i_rsp_rdata <= i_data;
                i_rsp_err <= i_err;
                i_pend <= 1'b0;
            end
            i_delay <= i_delay - 3'd1;
        end
        if (ibus_req_valid && i_ready) begin
            i_pend <= 1'b1;
            i_ready <= 1'b0;
            i_delay <= $random(seed) & 3;
            i_data <= mem[ibus_req_addr[RAM_AW+1:2]];
            i_err <= !i_hit;
        end
        if (d_pend && !d_mmio) begin
            if (d_delay == 3'd0) begin
                d_rsp_valid <= 1'b1;
                d_rsp_rdata <= d_data;
                d_rsp_err <= d_err;
                d_pend <= 1'b0;
            end
            d_delay <= d_delay - 3'd1;
        end
        if (d_pend && d_mmio && mmio_rsp_valid)
            d_pend <= 1'b0;
        if (dbus_req_valid && (d_hit || !d_to_mmio) && d_ready) begin
            d_pend <= 1'b1;
            d_mmio <= 1'b0;
            d_ready <= 1'b0;
            d_delay <= $random(seed) & 3;
            d_data <= mem[d_idx];
            d_err <= !d_hit;
            if (d_hit && dbus_req_we) begin
                if (dbus_req_be[0]) mem[d_idx][7:0] <= dbus_req_wdata[7:0];
                if (dbus_req_be[1]) mem[d_idx][15:8] <= dbus_req_wdata[15:8];
                if (dbus_req_be[2]) mem[d_idx][23:16] <= dbus_req_wdata[23:16];
                if (dbus_req_be[3]) mem[d_idx][31:24] <= dbus_req_wdata[31:24];
            end
        end
        if (mmio_req_valid && mmio_req_ready) begin
            d_pend <= 1'b1;
            d_mmio <= 1'b1;
        end
        if (rst) begin
            i_pend <= 1'b0;
            d_pend <= 1'b0;
        end
    end

    froce_cpu dut (
        .clk(clk),
        .rst(rst),
        .boot_addr(boot_addr),
        .ibus_req_valid(ibus_req_valid),
        .ibus_req_ready(i_ready),
        .ibus_req_addr(ibus_req_addr),
        .ibus_rsp_valid(i_rsp_valid),
        .ibus_rsp_rdata(i_rsp_rdata),
        .ibus_rsp_err(i_rsp_err),
        .dbus_req_valid(dbus_req_valid),
        .dbus_req_ready(d_to_mmio && !d_hit ? mmio_req_ready : d_ready),
        .dbus_req_addr(dbus_req_addr),
        .dbus_req_we(dbus_req_we),
        .dbus_req_be(dbus_req_be),
        .dbus_req_wdata(dbus_req_wdata),
        .dbus_rsp_valid(d_rsp_valid || mmio_rsp_valid),
        .dbus_rsp_rdata(mmio_rsp_valid ? mmio_rsp_rdata : d_rsp_rdata),
        .dbus_rsp_err(mmio_rsp_valid ? mmio_rsp_err : d_rsp_err),
        .irq_external(irq_ext),
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
end
endgenerate

/* run, watch tohost */
integer cycles = 0;
integer instret = 0;
always @(posedge clk) begin
    if (!rst) begin
        cycles = cycles + 1;
        if (trace_valid && !trace_trap)
            instret = instret + 1;
        if (trace_valid && trace_store && trace_store_addr == tohost && trace_store_wdata != 32'd0) begin
            if (trace_store_wdata == 32'd1)
                $display("PASS cycles=%0d instret=%0d", cycles, instret);
            else
                $display("FAIL test %0d (tohost = 0x%08h)", trace_store_wdata >> 1, trace_store_wdata);
            $finish;
        end
        if (cycles >= max_cycles) begin
            $display("TIMEOUT after %0d cycles", cycles);
            $finish;
        end
    end
end

initial begin
    if (INIT_FILE == "") begin
        $display("FAIL: no INIT_FILE");
        $finish;
    end
    if (!$value$plusargs("ram_base=%h", ram_base)) ram_base = 32'h80000000;
    if (!$value$plusargs("boot=%h", boot_addr)) boot_addr = ram_base;
    if (!$value$plusargs("tohost=%h", tohost)) begin
        $display("FAIL: +tohost=HEX missing");
        $finish;
    end
    if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 200000;
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    repeat (4) @(posedge clk);
    rst <= 1'b0;
end

endmodule

`resetall
