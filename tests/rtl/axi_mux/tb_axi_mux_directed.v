// SPDX-License-Identifier: MIT
// Icarus directed bench for froce_axi_mux (two read and two write masters): arbitration order, ID scheme, routing by ID, W order.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * 1. Both read masters raise ARVALID together (master 0 ID 3, master 1 ID 5):
 *    round-robin from reset grants master 1 first; the bus sees ARID 0x15
 *    then 0x03, each master's ARREADY pulses once.
 * 2. The slave answers master 0's ID first, then master 1's, interleaving:
 *    every beat reaches only the master its ID names, with its own ID.
 * 3. Both write masters raise AWVALID and WVALID together (two-beat bursts):
 *    the bus's W beats follow the AW order, whole bursts, and the B
 *    responses, sent in the opposite order, reach the right masters.
 * Prints one PASS line, or FAIL lines.
 */
module tb_axi_mux_directed;

localparam DW = 64;

reg clk = 1'b0;
reg rst = 1'b1;
always #5 clk = ~clk;

reg [7:0] s_arid = 8'h53;               // {master 1 ID 5, master 0 ID 3}
reg [127:0] s_araddr = {64'h2000, 64'h1000};
reg [1:0] s_arvalid = 2'b00;
wire [1:0] s_arready;
wire [7:0] s_rid;
wire [2*DW-1:0] s_rdata;
wire [3:0] s_rresp;
wire [1:0] s_rlast, s_rvalid;
reg [1:0] s_rready = 2'b11;

reg [7:0] s_awid = 8'h21;
reg [127:0] s_awaddr = {64'h4000, 64'h3000};
reg [1:0] s_awvalid = 2'b00;
wire [1:0] s_awready;
reg [2*DW-1:0] s_wdata = {64'hB0, 64'hA0};
reg [1:0] s_wlast = 2'b00;
reg [1:0] s_wvalid = 2'b00;
wire [1:0] s_wready;
wire [7:0] s_bid;
wire [3:0] s_bresp;
wire [1:0] s_bvalid;
reg [1:0] s_bready = 2'b11;

wire [5:0] m_arid, m_awid;
wire [63:0] m_araddr, m_awaddr;
wire [7:0] unused_m_arlen, unused_m_awlen;
wire [2:0] unused_m_arsize, unused_m_awsize, unused_m_arprot, unused_m_awprot;
wire [1:0] unused_m_arburst, unused_m_awburst;
wire unused_m_arlock, unused_m_awlock;
wire [3:0] unused_m_arcache, unused_m_awcache;
wire m_arvalid, m_awvalid;
reg m_arready = 1'b1, m_awready = 1'b1;
reg [5:0] m_rid = 6'd0;
reg [DW-1:0] m_rdata = {DW{1'b0}};
reg m_rlast = 1'b0, m_rvalid = 1'b0;
wire m_rready;
wire [DW-1:0] m_wdata;
wire [7:0] unused_m_wstrb;
wire m_wlast, m_wvalid;
reg m_wready = 1'b1;
reg [5:0] m_bid = 6'd0;
reg m_bvalid = 1'b0;
wire m_bready;

froce_axi_mux #(
    .DATA_WIDTH(DW),
    .N_RD(2),
    .N_WR(2),
    .S_ID_WIDTH(4),
    .M_ID_WIDTH(6),
    .W_FIFO_DEPTH(4)
) dut (
    .clk(clk), .rst(rst),
    .s_axi_arid(s_arid), .s_axi_araddr(s_araddr), .s_axi_arlen(16'h0000), .s_axi_arsize(6'o33),
    .s_axi_arburst(4'b0101), .s_axi_arlock(2'b00), .s_axi_arcache(8'h33), .s_axi_arprot(6'o00),
    .s_axi_arvalid(s_arvalid), .s_axi_arready(s_arready),
    .s_axi_rid(s_rid), .s_axi_rdata(s_rdata), .s_axi_rresp(s_rresp), .s_axi_rlast(s_rlast),
    .s_axi_rvalid(s_rvalid), .s_axi_rready(s_rready),
    .s_axi_awid(s_awid), .s_axi_awaddr(s_awaddr), .s_axi_awlen(16'h0101), .s_axi_awsize(6'o33),
    .s_axi_awburst(4'b0101), .s_axi_awlock(2'b00), .s_axi_awcache(8'h33), .s_axi_awprot(6'o00),
    .s_axi_awvalid(s_awvalid), .s_axi_awready(s_awready),
    .s_axi_wdata(s_wdata), .s_axi_wstrb(16'hffff), .s_axi_wlast(s_wlast), .s_axi_wvalid(s_wvalid),
    .s_axi_wready(s_wready),
    .s_axi_bid(s_bid), .s_axi_bresp(s_bresp), .s_axi_bvalid(s_bvalid), .s_axi_bready(s_bready),
    .m_axi_arid(m_arid), .m_axi_araddr(m_araddr), .m_axi_arlen(unused_m_arlen), .m_axi_arsize(unused_m_arsize),
    .m_axi_arburst(unused_m_arburst), .m_axi_arlock(unused_m_arlock), .m_axi_arcache(unused_m_arcache),
    .m_axi_arprot(unused_m_arprot), .m_axi_arvalid(m_arvalid), .m_axi_arready(m_arready),
    .m_axi_rid(m_rid), .m_axi_rdata(m_rdata), .m_axi_rresp(2'b00), .m_axi_rlast(m_rlast),
    .m_axi_rvalid(m_rvalid), .m_axi_rready(m_rready),
    .m_axi_awid(m_awid), .m_axi_awaddr(m_awaddr), .m_axi_awlen(unused_m_awlen), .m_axi_awsize(unused_m_awsize),
    .m_axi_awburst(unused_m_awburst), .m_axi_awlock(unused_m_awlock), .m_axi_awcache(unused_m_awcache),
    .m_axi_awprot(unused_m_awprot), .m_axi_awvalid(m_awvalid), .m_axi_awready(m_awready),
    .m_axi_wdata(m_wdata), .m_axi_wstrb(unused_m_wstrb), .m_axi_wlast(m_wlast), .m_axi_wvalid(m_wvalid),
    .m_axi_wready(m_wready),
    .m_axi_bid(m_bid), .m_axi_bresp(2'b10), .m_axi_bvalid(m_bvalid), .m_axi_bready(m_bready)
);

integer errors = 0;

// bus-side logs
reg [5:0] ar_log [0:7];
reg [5:0] aw_log [0:7];
reg [63:0] w_log [0:7];
reg w_last_log [0:7];
integer n_ar = 0, n_aw = 0, n_w = 0;
// master-side logs
reg [63:0] r_got [0:1][0:7];
reg [3:0] r_id_got [0:1][0:7];
integer n_r0 = 0, n_r1 = 0, n_b0 = 0, n_b1 = 0, n_arr0 = 0, n_arr1 = 0;
reg [3:0] b_id_got [0:1];

always @(posedge clk) begin
    if (m_arvalid && m_arready) begin ar_log[n_ar] <= m_arid; n_ar <= n_ar + 1; end
    if (m_awvalid && m_awready) begin aw_log[n_aw] <= m_awid; n_aw <= n_aw + 1; end
    if (m_wvalid && m_wready) begin w_log[n_w] <= m_wdata; w_last_log[n_w] <= m_wlast; n_w <= n_w + 1; end
    if (s_arvalid[0] && s_arready[0]) n_arr0 <= n_arr0 + 1;
    if (s_arvalid[1] && s_arready[1]) n_arr1 <= n_arr1 + 1;
    if (s_rvalid[0] && s_rready[0]) begin
        r_got[0][n_r0] <= s_rdata[63:0]; r_id_got[0][n_r0] <= s_rid[3:0]; n_r0 <= n_r0 + 1;
    end
    if (s_rvalid[1] && s_rready[1]) begin
        r_got[1][n_r1] <= s_rdata[127:64]; r_id_got[1][n_r1] <= s_rid[7:4]; n_r1 <= n_r1 + 1;
    end
    if (s_bvalid[0] && s_bready[0]) begin b_id_got[0] <= s_bid[3:0]; n_b0 <= n_b0 + 1; end
    if (s_bvalid[1] && s_bready[1]) begin b_id_got[1] <= s_bid[7:4]; n_b1 <= n_b1 + 1; end
end

// masters: drop ARVALID/AWVALID after their handshake; W beats as the engines would
always @(posedge clk) begin
    if (!rst) begin
        // only on a handshake, so the stimulus below may raise VALIDs
        if (|(s_arvalid & s_arready)) s_arvalid <= s_arvalid & ~s_arready;
        if (|(s_awvalid & s_awready)) s_awvalid <= s_awvalid & ~s_awready;
        if (s_wvalid[0] && s_wready[0]) begin
            if (s_wlast[0]) s_wvalid[0] <= 1'b0;
            s_wlast[0] <= 1'b1; s_wdata[63:0] <= s_wdata[63:0] + 1'b1;
        end
        if (s_wvalid[1] && s_wready[1]) begin
            if (s_wlast[1]) s_wvalid[1] <= 1'b0;
            s_wlast[1] <= 1'b1; s_wdata[127:64] <= s_wdata[127:64] + 1'b1;
        end
    end
end

task check;
    input cond;
    input [8*64-1:0] what;
    begin
        if (cond !== 1'b1) begin     // X counts as a failure
            $display("FAIL: %0s", what);
            errors = errors + 1;
        end
    end
endtask

task r_beat;
    input [5:0] id;
    input [63:0] data;
    input last;
    begin
        m_rid <= id; m_rdata <= data; m_rlast <= last; m_rvalid <= 1'b1;
        @(posedge clk);
        while (!m_rready) @(posedge clk);
        m_rvalid <= 1'b0;
    end
endtask

task b_resp;
    input [5:0] id;
    begin
        m_bid <= id; m_bvalid <= 1'b1;
        @(posedge clk);
        while (!m_bready) @(posedge clk);
        m_bvalid <= 1'b0;
    end
endtask

initial begin
    repeat (4) @(posedge clk);
    rst <= 1'b0;
    @(posedge clk);

    // 1. AR arbitration and IDs
    s_arvalid <= 2'b11;
    repeat (6) @(posedge clk);
    check(n_ar == 2, "two ARs on the bus");
    check(ar_log[0] == 6'h15 && ar_log[1] == 6'h03, "AR order 1, 0 and ARID {index, ID}");
    check(n_arr0 == 1 && n_arr1 == 1, "one ARREADY per read master");

    // 2. R routed by ID, out of order across IDs, interleaved
    r_beat(6'h03, 64'hC0, 1'b0);
    r_beat(6'h15, 64'hD0, 1'b0);
    r_beat(6'h03, 64'hC1, 1'b1);
    r_beat(6'h15, 64'hD1, 1'b1);
    repeat (4) @(posedge clk);
    check(n_r0 == 2 && n_r1 == 2, "two R beats per read master");
    check(r_got[0][0] == 64'hC0 && r_got[0][1] == 64'hC1 && r_id_got[0][0] == 4'd3, "master 0 R data and RID");
    check(r_got[1][0] == 64'hD0 && r_got[1][1] == 64'hD1 && r_id_got[1][1] == 4'd5, "master 1 R data and RID");

    // 3. AW/W order and B routing
    s_awvalid <= 2'b11;
    s_wvalid <= 2'b11;
    repeat (10) @(posedge clk);
    check(n_aw == 2 && aw_log[0] == 6'h12 && aw_log[1] == 6'h01, "AW order 1, 0 and AWID {index, ID}");
    check(n_w == 4, "four W beats on the bus");
    check(w_log[0] == 64'hB0 && w_log[1] == 64'hB1 && w_log[2] == 64'hA0 && w_log[3] == 64'hA1,
          "W beats in AW order, whole bursts");
    check(!w_last_log[0] && w_last_log[1] && !w_last_log[2] && w_last_log[3], "WLAST on each burst's end");
    b_resp(6'h01);
    b_resp(6'h12);
    repeat (4) @(posedge clk);
    check(n_b0 == 1 && n_b1 == 1 && b_id_got[0] == 4'd1 && b_id_got[1] == 4'd2, "B routed by BID");
    check(s_bresp == 4'b1010, "BRESP passed through");

    if (errors == 0)
        $display("PASS: froce_axi_mux directed (arbitration, IDs, R/B routing, W order)");
    else
        $display("FAIL: %0d check(s) failed", errors);
    $finish;
end

endmodule

`resetall
