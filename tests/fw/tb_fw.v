// SPDX-License-Identifier: MIT
// Icarus smoke bench of froce_fw: the firmware image through INIT_FILE ($readmemh)
// until the boot banner's first line is on the console. The control bus answers
// every access at once (reads 0); host memory and the event engine stay idle.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_fw;

parameter INIT_FILE = "";
parameter EXPECT = "froce fw 0x00010000";
parameter MAX_CYCLES = 200000;

reg clk = 1'b0;
reg rst = 1'b1;
always #5 clk = ~clk;

wire        m_ctl_valid, m_ctl_write;
wire [22:0] m_ctl_addr;
wire [31:0] m_ctl_wdata;
reg         ctl_rvalid = 1'b0;
wire        console_valid;
wire [7:0]  console_data;

// a control bus that takes every access and answers reads with 0 a cycle later
always @(posedge clk)
    ctl_rvalid <= m_ctl_valid && !m_ctl_write && !ctl_rvalid;

wire [31:0] cmd_status, fw_version, heartbeat;
wire dev_ready, port_promisc, port_allmulti, port_cfg_we, m_eqe_valid, s_async_ready;
wire [47:0] port_mac;
wire [15:0] port_mtu;
wire [5:0] m_eqe_eqn;
wire [95:0] m_eqe_dw;
wire [0:0] arid, awid;
wire [63:0] araddr, awaddr, wdata;
wire [7:0] arlen, awlen, wstrb;
wire [2:0] arsize, arprot, awsize, awprot;
wire [1:0] arburst, awburst;
wire [3:0] arcache, awcache;
wire arlock, arvalid, rready, awlock, awvalid, wlast, wvalid, bready;

froce_fw #(
    .INIT_FILE(INIT_FILE),
    .CLK_HZ(1000000),
    .NUM_QPS(64),
    .NUM_CQS(32)
) dut (
    .clk(clk),
    .rst(rst),
    .m_ctl_valid(m_ctl_valid),
    .m_ctl_ready(1'b1),
    .m_ctl_write(m_ctl_write),
    .m_ctl_addr(m_ctl_addr),
    .m_ctl_wdata(m_ctl_wdata),
    .m_ctl_rdata(32'd0),
    .m_ctl_rvalid(ctl_rvalid),
    .mbox_db_valid(1'b0),
    .mbox_db_value(32'd0),
    .mbox_addr(64'd0),
    .cmd_status(cmd_status),
    .fw_version(fw_version),
    .dev_ready(dev_ready),
    .heartbeat(heartbeat),
    .link_status(32'd0),
    .port_mac(port_mac),
    .port_mtu(port_mtu),
    .port_promisc(port_promisc),
    .port_allmulti(port_allmulti),
    .port_cfg_we(port_cfg_we),
    .m_eqe_valid(m_eqe_valid),
    .m_eqe_ready(1'b1),
    .m_eqe_eqn(m_eqe_eqn),
    .m_eqe_dw(m_eqe_dw),
    .s_eqe_done(1'b0),
    .s_eqe_dropped(1'b0),
    .s_async_valid(1'b0),
    .s_async_ready(s_async_ready),
    .s_async_type(8'd0),
    .s_async_subtype(8'd0),
    .s_async_id(24'd0),
    .console_valid(console_valid),
    .console_data(console_data),
    .m_axi_arid(arid), .m_axi_araddr(araddr), .m_axi_arlen(arlen), .m_axi_arsize(arsize),
    .m_axi_arburst(arburst), .m_axi_arlock(arlock), .m_axi_arcache(arcache), .m_axi_arprot(arprot),
    .m_axi_arvalid(arvalid), .m_axi_arready(1'b0),
    .m_axi_rid(1'b0), .m_axi_rdata(64'd0), .m_axi_rresp(2'b00), .m_axi_rlast(1'b0), .m_axi_rvalid(1'b0),
    .m_axi_rready(rready),
    .m_axi_awid(awid), .m_axi_awaddr(awaddr), .m_axi_awlen(awlen), .m_axi_awsize(awsize),
    .m_axi_awburst(awburst), .m_axi_awlock(awlock), .m_axi_awcache(awcache), .m_axi_awprot(awprot),
    .m_axi_awvalid(awvalid), .m_axi_awready(1'b0),
    .m_axi_wdata(wdata), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast), .m_axi_wvalid(wvalid), .m_axi_wready(1'b0),
    .m_axi_bid(1'b0), .m_axi_bresp(2'b00), .m_axi_bvalid(1'b0), .m_axi_bready(bready)
);

reg [8*64-1:0] line = 0;
integer n = 0;
integer cycles = 0;

always @(posedge clk) begin
    cycles <= cycles + 1;
    if (!rst && console_valid) begin
        if (console_data == 8'h0A) begin
            if (line == EXPECT) begin
                $display("tb_fw: PASS console \"%0s\" after %0d cycles", line, cycles);
            end else begin
                $display("tb_fw: FAIL console \"%0s\", expected \"%0s\"", line, EXPECT);
            end
            $finish;
        end
        line <= {line[8*63-1:0], console_data};
        n <= n + 1;
    end
    if (cycles == MAX_CYCLES) begin
        $display("tb_fw: FAIL no console line within %0d cycles (\"%0s\" so far)", MAX_CYCLES, line);
        $finish;
    end
end

initial begin
    repeat (5) @(posedge clk);
    rst <= 1'b0;
end

endmodule

`resetall
