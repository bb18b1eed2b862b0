// SPDX-License-Identifier: MIT
// Icarus bench: the Linux rxe frames through froce_rx_parser, with random
// idle and back-pressure cycles; checks verdict, opcode, PSN and QPN of each.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

module froce_rx_parser_tb;

parameter DATA_WIDTH = 64;                  // stream width under test
parameter NFRAMES = 216;                    // frames in the vector files
parameter NBYTES = 262144;                  // size of the byte memory
parameter EXPECT_VERDICT = 0;               // FROCE_VERDICT_* every frame must get
parameter SEED = 1;                         // for the idle/back-pressure pattern

localparam W = DATA_WIDTH / 8;

reg clk = 1'b0;
reg rst = 1'b1;
always #5 clk = ~clk;

reg [7:0] frame_bytes [0:NBYTES-1];
reg [63:0] index [0:NFRAMES-1];
reg [55:0] expect_mem [0:NFRAMES-1];

reg [DATA_WIDTH-1:0] s_tdata = 0;
reg [W-1:0] s_tkeep = 0;
reg s_tvalid = 1'b0;
reg s_tlast = 1'b0;
wire s_tready;
wire [`FROCE_RHDR_W-1:0] m_hdr;
wire m_hdr_valid;
reg m_hdr_ready = 1'b0;
wire [DATA_WIDTH-1:0] m_tdata;
wire [W-1:0] m_tkeep;
wire m_tvalid;
reg m_tready = 1'b0;
wire m_tlast;
wire [3:0] m_tuser;
wire stat_valid;
wire [3:0] stat_verdict;

froce_rx_parser #(
    .DATA_WIDTH(DATA_WIDTH)
) dut (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_tdata),
    .s_axis_tkeep(s_tkeep),
    .s_axis_tvalid(s_tvalid),
    .s_axis_tready(s_tready),
    .s_axis_tlast(s_tlast),
    .m_hdr(m_hdr),
    .m_hdr_valid(m_hdr_valid),
    .m_hdr_ready(m_hdr_ready),
    .m_axis_tdata(m_tdata),
    .m_axis_tkeep(m_tkeep),
    .m_axis_tvalid(m_tvalid),
    .m_axis_tready(m_tready),
    .m_axis_tlast(m_tlast),
    .m_axis_tuser(m_tuser),
    .stat_valid(stat_valid),
    .stat_verdict(stat_verdict)
);

integer seed = SEED;
integer errors = 0;
integer hdrs = 0;
integer ends = 0;
integer stats = 0;
integer cycles = 0;

// Source: frames back to back, a random idle cycle now and then
integer f = 0;
integer off = 0;
integer i;
integer start, len;
always @(posedge clk) begin
    cycles <= cycles + 1;
    if (!rst && (!s_tvalid || s_tready)) begin
        s_tvalid <= 1'b0;
        if (f < NFRAMES && ($random(seed) & 3) != 0) begin
            start = index[f][63:32];
            len = index[f][31:0];
            for (i = 0; i < W; i = i + 1) begin
                s_tdata[8*i +: 8] <= off + i < len ? frame_bytes[start + off + i] : 8'h00;
                s_tkeep[i] <= off + i < len;
            end
            s_tvalid <= 1'b1;
            s_tlast <= off + W >= len;
            if (off + W >= len) begin
                off = 0;
                f = f + 1;
            end else begin
                off = off + W;
            end
        end
    end
    m_hdr_ready <= ($random(seed) & 3) != 0;
    m_tready <= ($random(seed) & 3) != 0;
end

// Sinks
always @(posedge clk) begin
    if (m_hdr_valid && m_hdr_ready) begin
        if (m_hdr[`FROCE_RHDR_OPCODE_LSB +: `FROCE_RHDR_OPCODE_W] != expect_mem[hdrs][55:48] ||
                m_hdr[`FROCE_RHDR_PSN_LSB +: `FROCE_RHDR_PSN_W] != expect_mem[hdrs][47:24] ||
                m_hdr[`FROCE_RHDR_DQPN_LSB +: `FROCE_RHDR_DQPN_W] != expect_mem[hdrs][23:0]) begin
            $display("FAIL frame %0d: opcode/psn/qpn %h/%0d/%h, expected %h/%0d/%h", hdrs + 1,
                     m_hdr[`FROCE_RHDR_OPCODE_LSB +: `FROCE_RHDR_OPCODE_W],
                     m_hdr[`FROCE_RHDR_PSN_LSB +: `FROCE_RHDR_PSN_W],
                     m_hdr[`FROCE_RHDR_DQPN_LSB +: `FROCE_RHDR_DQPN_W],
                     expect_mem[hdrs][55:48], expect_mem[hdrs][47:24], expect_mem[hdrs][23:0]);
            errors = errors + 1;
        end
        hdrs = hdrs + 1;
    end
    if (m_tvalid && m_tready && m_tlast) begin
        if (m_tuser != EXPECT_VERDICT) begin
            $display("FAIL frame %0d: verdict %0d, expected %0d", ends + 1, m_tuser, EXPECT_VERDICT);
            errors = errors + 1;
        end
        ends = ends + 1;
    end
    if (stat_valid)
        stats = stats + 1;
end

initial begin
    $readmemh("frames.mem", frame_bytes);
    $readmemh("index.mem", index);
    $readmemh("expect.mem", expect_mem);
    repeat (4) @(posedge clk);
    rst <= 1'b0;
    while ((ends < NFRAMES || hdrs < NFRAMES) && cycles < 200000)
        @(posedge clk);
    repeat (4) @(posedge clk);
    if (ends != NFRAMES || hdrs != NFRAMES || stats != NFRAMES) begin
        $display("FAIL: %0d headers, %0d payload ends, %0d status pulses for %0d frames (%0d cycles)",
                 hdrs, ends, stats, NFRAMES, cycles);
        errors = errors + 1;
    end
    if (errors == 0)
        $display("PASS: %0d frames at DATA_WIDTH %0d, verdict %0d, %0d cycles", NFRAMES, DATA_WIDTH,
                 EXPECT_VERDICT, cycles);
    $finish;
end

endmodule

`resetall
