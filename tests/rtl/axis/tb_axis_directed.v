// SPDX-License-Identifier: MIT
// Icarus directed bench: froce_axis_pack feeding froce_axis_split, a few hand-made packets and commands.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Byte value = its index in the stream of pack input bytes (mod 256).
 * Packets (pieces -> packed bytes) and the split commands for them:
 *   1. pieces 3, 0, W+5, W      (2W+8 bytes); commands 2, W+3, 0, W+3 last
 *   2. one empty piece          (0 bytes);    command 0 last (no output)
 *   3. piece W                  (W bytes);    command W+4 last: 4 zero bytes, err_mismatch
 *   4. piece 5                  (5 bytes);    command 2 last: 3 bytes dropped, err_mismatch
 *   5. pieces 0, 7              (7 bytes);    commands 7 last: intact
 * The split output is checked byte by byte, with tkeep and tlast; the output
 * is stalled on a fixed pattern. Prints one PASS line or FAIL lines.
 */
module tb_axis_directed;

parameter DATA_WIDTH = 64;
localparam W = DATA_WIDTH / 8;

reg clk = 1'b0;
reg rst = 1'b1;
always #5 clk = !clk;

// pack input
reg [DATA_WIDTH-1:0] s_tdata = {DATA_WIDTH{1'b0}};
reg [W-1:0] s_tkeep = {W{1'b0}};
reg s_tvalid = 1'b0, s_tlast = 1'b0, s_tuser = 1'b0;
wire s_tready;

// pack -> split
wire [DATA_WIDTH-1:0] p_tdata;
wire [W-1:0] p_tkeep;
wire p_tvalid, p_tready, p_tlast;

// split commands and output
reg [31:0] c_len = 32'd0;
reg c_last = 1'b0, c_valid = 1'b0;
wire c_ready;
wire [DATA_WIDTH-1:0] m_tdata;
wire [W-1:0] m_tkeep;
wire m_tvalid, m_tlast, err;
reg m_tready = 1'b0;

froce_axis_pack #(.DATA_WIDTH(DATA_WIDTH)) pack_inst (
    .clk(clk), .rst(rst),
    .s_axis_tdata(s_tdata), .s_axis_tkeep(s_tkeep), .s_axis_tvalid(s_tvalid), .s_axis_tready(s_tready),
    .s_axis_tlast(s_tlast), .s_axis_tuser(s_tuser),
    .m_axis_tdata(p_tdata), .m_axis_tkeep(p_tkeep), .m_axis_tvalid(p_tvalid), .m_axis_tready(p_tready),
    .m_axis_tlast(p_tlast)
);

froce_axis_split #(.DATA_WIDTH(DATA_WIDTH)) split_inst (
    .clk(clk), .rst(rst),
    .s_axis_tdata(p_tdata), .s_axis_tkeep(p_tkeep), .s_axis_tvalid(p_tvalid), .s_axis_tready(p_tready),
    .s_axis_tlast(p_tlast),
    .s_cmd_len(c_len), .s_cmd_last(c_last), .s_cmd_valid(c_valid), .s_cmd_ready(c_ready),
    .m_axis_tdata(m_tdata), .m_axis_tkeep(m_tkeep), .m_axis_tvalid(m_tvalid), .m_axis_tready(m_tready),
    .m_axis_tlast(m_tlast), .err_mismatch(err)
);

// expected split output: one entry per byte
reg [7:0] exp_val [0:4095];
reg exp_end [0:4095];
integer n_exp = 0, n_got = 0, errors = 0, pulses = 0, cyc = 0;
integer in_byte = 0;            // next pack input byte value
integer i;

task expect_piece(input integer first, input integer len, input integer valid);
    integer j;
    begin
        for (j = 0; j < len; j = j + 1) begin
            exp_val[n_exp] = j < valid ? first + j : 0;
            exp_end[n_exp] = j == len - 1;
            n_exp = n_exp + 1;
        end
    end
endtask

task send_piece(input integer len, input eop);
    integer pos, k, j;
    begin
        pos = 0;
        while (pos < len || (len == 0 && pos == 0)) begin
            k = len - pos > W ? W : len - pos;
            for (j = 0; j < W; j = j + 1)
                s_tdata[8*j +: 8] = j < k ? in_byte + pos + j : 8'hee;
            s_tkeep = {W{1'b1}} >> (W - k);
            if (k == 0) s_tkeep = {W{1'b0}};
            s_tlast = pos + k == len;
            s_tuser = eop;
            s_tvalid = 1'b1;
            @(posedge clk);
            while (!s_tready) @(posedge clk);
            #1;
            s_tvalid = 1'b0;
            pos = pos + k;
            if (len == 0) pos = 1;
        end
        in_byte = in_byte + len;
    end
endtask

task send_cmd(input integer len, input last);
    begin
        c_len = len;
        c_last = last;
        c_valid = 1'b1;
        @(posedge clk);
        while (!c_ready) @(posedge clk);
        #1;
        c_valid = 1'b0;
    end
endtask

// output checker
always @(posedge clk) begin
    cyc <= cyc + 1;
    if (!rst && err) pulses = pulses + 1;
    if (!rst && m_tvalid && m_tready) begin
        for (i = 0; i < W; i = i + 1) begin
            if (m_tkeep[i]) begin
                if (n_got >= n_exp) begin
                    $display("FAIL: byte %0d: more output than expected", n_got);
                    errors = errors + 1;
                end else begin
                    if (m_tdata[8*i +: 8] !== exp_val[n_got]) begin
                        $display("FAIL: byte %0d is %h, expected %h", n_got, m_tdata[8*i +: 8], exp_val[n_got]);
                        errors = errors + 1;
                    end
                    if ((i == W - 1 || !m_tkeep[i+1]) && m_tlast !== exp_end[n_got]) begin
                        $display("FAIL: byte %0d: tlast %b at a beat end, expected %b", n_got, m_tlast, exp_end[n_got]);
                        errors = errors + 1;
                    end
                    if (i != W - 1 && m_tkeep[i+1] && exp_end[n_got]) begin
                        $display("FAIL: byte %0d ends a piece but the beat goes on", n_got);
                        errors = errors + 1;
                    end
                end
                n_got = n_got + 1;
            end else if (m_tdata[8*i +: 8] !== 8'h00) begin
                $display("FAIL: output byte lane %0d outside tkeep is %h", i, m_tdata[8*i +: 8]);
                errors = errors + 1;
            end
        end
        if (m_tkeep[0] !== 1'b1) begin
            $display("FAIL: output beat with tkeep %b", m_tkeep);
            errors = errors + 1;
        end
    end
end

// output stall pattern: ready 3 cycles of 4
always @(posedge clk) m_tready <= (cyc % 4) != 1;

initial begin
    // packet 1: bytes 0 .. 2W+7
    expect_piece(0, 2, 2);
    expect_piece(2, W + 3, W + 3);
    expect_piece(W + 5, W + 3, W + 3);
    // packet 3: bytes 2W+8 .. 3W+7, then 4 zeros
    expect_piece(2 * W + 8, W + 4, W);
    // packet 4: 2 of 5 bytes
    expect_piece(3 * W + 8, 2, 2);
    // packet 5: 7 bytes
    expect_piece(3 * W + 13, 7, 7);

    repeat (4) @(posedge clk);
    #1 rst = 1'b0;

    fork
        begin
            send_piece(3, 1'b0);
            send_piece(0, 1'b0);
            send_piece(W + 5, 1'b0);
            send_piece(W, 1'b1);
            send_piece(0, 1'b1);
            send_piece(W, 1'b1);
            send_piece(5, 1'b1);
            send_piece(0, 1'b0);
            send_piece(7, 1'b1);
        end
        begin
            send_cmd(2, 1'b0);
            send_cmd(W + 3, 1'b0);
            send_cmd(0, 1'b0);
            send_cmd(W + 3, 1'b1);
            send_cmd(0, 1'b1);
            send_cmd(W + 4, 1'b1);
            send_cmd(2, 1'b1);
            send_cmd(7, 1'b1);
        end
    join

    repeat (100) @(posedge clk);
    if (n_got != n_exp) begin
        $display("FAIL: %0d output bytes, expected %0d", n_got, n_exp);
        errors = errors + 1;
    end
    if (pulses != 2) begin
        $display("FAIL: %0d err_mismatch cycles, expected 2", pulses);
        errors = errors + 1;
    end
    if (errors == 0)
        $display("PASS: pack -> split directed, DATA_WIDTH=%0d, %0d bytes, 2 mismatches flagged", DATA_WIDTH, n_got);
    $finish;
end

endmodule

`resetall
