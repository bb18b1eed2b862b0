// SPDX-License-Identifier: MIT
// Icarus directed bench: one unaligned 4 KiB-crossing read, one unaligned write and one len-0 read.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module tb_dma_directed #(
    parameter DATA_WIDTH = 64           // AXI and stream data width in bits
);

localparam W = DATA_WIDTH / 8;
localparam KW = $clog2(W);
localparam MEM_BYTES = 16384;           // memory window, repeated over the address space
localparam [63:0] RD_ADDR = 64'h0000_7f00_0000_0ffd;
localparam RD_LEN = 3 * W + 5;          // crosses the 4 KiB boundary at 0x1000
localparam [63:0] WR_ADDR = 64'h0000_7f00_0000_1ffb;
localparam WR_LEN = 2 * W + 3;

reg clk = 1'b0;
reg rst = 1'b1;
always #5 clk = !clk;

reg [7:0] mem [0:MEM_BYTES-1];
integer errors = 0;
integer i;

/* read engine */
reg [63:0] rd_desc_addr = 64'd0;
reg [15:0] rd_desc_len = 16'd0;
reg [7:0] rd_desc_tag = 8'd0;
reg rd_desc_valid = 1'b0;
wire rd_desc_ready;
wire [7:0] rd_st_tag;
wire [3:0] rd_st_err;
wire rd_st_valid;
wire [DATA_WIDTH-1:0] rd_tdata;
wire [W-1:0] rd_tkeep;
wire rd_tvalid, rd_tlast;
wire [7:0] rd_tid;
wire [3:0] arid;
wire [63:0] araddr;
wire [7:0] arlen;
wire [2:0] arsize, arprot;
wire [1:0] arburst;
wire arlock;
wire [3:0] arcache;
wire arvalid, rready;
reg arready = 1'b0;
reg [DATA_WIDTH-1:0] rdata = {DATA_WIDTH{1'b0}};
reg rvalid = 1'b0, rlast = 1'b0;

froce_dma_rd #(
    .DATA_WIDTH(DATA_WIDTH)
) rd_inst (
    .clk(clk), .rst(rst),
    .s_rd_desc_addr(rd_desc_addr), .s_rd_desc_len(rd_desc_len), .s_rd_desc_tag(rd_desc_tag),
    .s_rd_desc_valid(rd_desc_valid), .s_rd_desc_ready(rd_desc_ready),
    .m_rd_status_tag(rd_st_tag), .m_rd_status_error(rd_st_err), .m_rd_status_valid(rd_st_valid),
    .m_rd_status_ready(1'b1),
    .m_rd_axis_tdata(rd_tdata), .m_rd_axis_tkeep(rd_tkeep), .m_rd_axis_tvalid(rd_tvalid),
    .m_rd_axis_tready(1'b1), .m_rd_axis_tlast(rd_tlast), .m_rd_axis_tid(rd_tid),
    .m_axi_arid(arid), .m_axi_araddr(araddr), .m_axi_arlen(arlen), .m_axi_arsize(arsize),
    .m_axi_arburst(arburst), .m_axi_arlock(arlock), .m_axi_arcache(arcache), .m_axi_arprot(arprot),
    .m_axi_arvalid(arvalid), .m_axi_arready(arready),
    .m_axi_rid(4'd0), .m_axi_rdata(rdata), .m_axi_rresp(2'b00), .m_axi_rlast(rlast),
    .m_axi_rvalid(rvalid), .m_axi_rready(rready)
);

/* write engine */
reg [63:0] wr_desc_addr = 64'd0;
reg [15:0] wr_desc_len = 16'd0;
reg [7:0] wr_desc_tag = 8'd0;
reg wr_desc_valid = 1'b0;
wire wr_desc_ready;
reg [DATA_WIDTH-1:0] wr_tdata = {DATA_WIDTH{1'b0}};
reg wr_tvalid = 1'b0;
wire wr_tready;
wire [7:0] wr_st_tag;
wire [3:0] wr_st_err;
wire wr_st_valid;
wire [3:0] awid;
wire [63:0] awaddr;
wire [7:0] awlen;
wire [2:0] awsize, awprot;
wire [1:0] awburst;
wire awlock;
wire [3:0] awcache;
wire awvalid, wlast, wvalid, bready;
wire [DATA_WIDTH-1:0] wdata;
wire [W-1:0] wstrb;
reg awready = 1'b0;
reg bvalid = 1'b0;
wire wready;                        // = w_busy, below

froce_dma_wr #(
    .DATA_WIDTH(DATA_WIDTH)
) wr_inst (
    .clk(clk), .rst(rst),
    .s_wr_desc_addr(wr_desc_addr), .s_wr_desc_len(wr_desc_len), .s_wr_desc_tag(wr_desc_tag),
    .s_wr_desc_valid(wr_desc_valid), .s_wr_desc_ready(wr_desc_ready),
    .s_wr_axis_tdata(wr_tdata), .s_wr_axis_tkeep({W{1'b1}}), .s_wr_axis_tvalid(wr_tvalid),
    .s_wr_axis_tready(wr_tready), .s_wr_axis_tlast(1'b0),
    .m_wr_status_tag(wr_st_tag), .m_wr_status_error(wr_st_err), .m_wr_status_valid(wr_st_valid),
    .m_wr_status_ready(1'b1),
    .m_axi_awid(awid), .m_axi_awaddr(awaddr), .m_axi_awlen(awlen), .m_axi_awsize(awsize),
    .m_axi_awburst(awburst), .m_axi_awlock(awlock), .m_axi_awcache(awcache), .m_axi_awprot(awprot),
    .m_axi_awvalid(awvalid), .m_axi_awready(awready),
    .m_axi_wdata(wdata), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast), .m_axi_wvalid(wvalid),
    .m_axi_wready(wready),
    .m_axi_bid(4'd0), .m_axi_bresp(2'b00), .m_axi_bvalid(bvalid), .m_axi_bready(bready)
);

/* AXI slave: one read and one write burst at a time, memory repeats every MEM_BYTES */
reg [63:0] r_addr = 64'd0;
reg [8:0] r_left = 9'd0;
reg r_busy = 1'b0;
reg [63:0] w_addr = 64'd0;
reg w_busy = 1'b0;
assign wready = w_busy;
integer b;

always @(posedge clk) begin
    arready <= !r_busy;
    if (arvalid && arready) begin
        r_busy <= 1'b1;
        r_addr <= araddr;
        r_left <= {1'b0, arlen} + 9'd1;
        arready <= 1'b0;
        if (araddr[11:0] + ({4'd0, arlen} + 12'd1) * W > 4096)
            begin $display("FAIL: AR %h len %0d crosses 4 KiB", araddr, arlen); errors = errors + 1; end
    end
    if (rvalid && rready) begin
        rvalid <= 1'b0;
        if (rlast) r_busy <= 1'b0;
    end
    if (r_busy && (!rvalid || rready) && r_left != 0) begin
        for (b = 0; b < W; b = b + 1)
            rdata[8*b +: 8] <= mem[(r_addr + b) % MEM_BYTES];
        rvalid <= 1'b1;
        rlast <= r_left == 9'd1;
        r_left <= r_left - 9'd1;
        r_addr <= r_addr + W;
    end

    awready <= !w_busy && !bvalid;
    if (awvalid && awready) begin
        w_busy <= 1'b1;
        w_addr <= awaddr;
        awready <= 1'b0;
    end
    if (wvalid && wready) begin
        for (b = 0; b < W; b = b + 1)
            if (wstrb[b]) mem[(w_addr + b) % MEM_BYTES] <= wdata[8*b +: 8];
        w_addr <= w_addr + W;
        if (wlast) begin
            w_busy <= 1'b0;
            bvalid <= 1'b1;
        end
    end
    if (bvalid && bready) bvalid <= 1'b0;
end

/* checks on the read stream */
integer rd_pos = 0;
always @(posedge clk) begin
    if (rd_tvalid) begin
        for (b = 0; b < W; b = b + 1)
            if (rd_pos + b < RD_LEN) begin
                if (!rd_tkeep[b] || rd_tdata[8*b +: 8] != ((RD_ADDR + rd_pos + b) % 251)) begin
                    $display("FAIL: read byte %0d: %h keep %b", rd_pos + b, rd_tdata[8*b +: 8], rd_tkeep[b]);
                    errors = errors + 1;
                end
            end else if (rd_tkeep[b]) begin
                $display("FAIL: read tkeep set past the end at byte %0d", rd_pos + b);
                errors = errors + 1;
            end
        if (rd_tlast != (rd_pos + W >= RD_LEN) || rd_tid != 8'h11) begin
            $display("FAIL: read beat at %0d: tlast %b tid %h", rd_pos, rd_tlast, rd_tid);
            errors = errors + 1;
        end
        rd_pos = rd_pos + W;
    end
end

integer rd_status = 0, wr_status = 0;
always @(posedge clk) begin
    if (rd_st_valid) begin
        rd_status = rd_status + 1;
        if ((rd_status == 1 && (rd_st_tag != 8'h11 || rd_st_err != 4'd0)) ||
            (rd_status == 2 && (rd_st_tag != 8'h12 || rd_st_err != 4'd3))) begin
            $display("FAIL: read status %0d: tag %h error %0d", rd_status, rd_st_tag, rd_st_err);
            errors = errors + 1;
        end
    end
    if (wr_st_valid) begin
        wr_status = wr_status + 1;
        if (wr_st_tag != 8'h21 || wr_st_err != 4'd0) begin
            $display("FAIL: write status: tag %h error %0d", wr_st_tag, wr_st_err);
            errors = errors + 1;
        end
    end
end

integer beat, timeout;
reg [7:0] exp;
initial begin
    for (i = 0; i < MEM_BYTES; i = i + 1)
        mem[i] = (RD_ADDR - (RD_ADDR % MEM_BYTES) + i) % 251;
    repeat (4) @(posedge clk);
    rst <= 1'b0;
    @(posedge clk);

    // read: unaligned, crosses 4 KiB; then a len-0 read
    rd_desc_addr <= RD_ADDR; rd_desc_len <= RD_LEN; rd_desc_tag <= 8'h11; rd_desc_valid <= 1'b1;
    @(posedge clk);
    while (!rd_desc_ready) @(posedge clk);
    rd_desc_len <= 16'd0; rd_desc_tag <= 8'h12;
    @(posedge clk);
    while (!rd_desc_ready) @(posedge clk);
    rd_desc_valid <= 1'b0;

    // write: unaligned start and end, bytes 0x80 + i
    wr_desc_addr <= WR_ADDR; wr_desc_len <= WR_LEN; wr_desc_tag <= 8'h21; wr_desc_valid <= 1'b1;
    @(posedge clk);
    while (!wr_desc_ready) @(posedge clk);
    wr_desc_valid <= 1'b0;
    for (beat = 0; beat * W < WR_LEN; beat = beat + 1) begin
        for (b = 0; b < W; b = b + 1)
            wr_tdata[8*b +: 8] <= 8'h80 + beat * W + b;
        wr_tvalid <= 1'b1;
        @(posedge clk);
        while (!wr_tready) @(posedge clk);
    end
    wr_tvalid <= 1'b0;

    timeout = 0;
    while ((rd_status < 2 || wr_status < 1) && timeout < 2000) begin
        @(posedge clk);
        timeout = timeout + 1;
    end
    repeat (10) @(posedge clk);
    if (rd_status != 2 || wr_status != 1) begin
        $display("FAIL: statuses: %0d read, %0d write (timeout)", rd_status, wr_status);
        errors = errors + 1;
    end
    if (rd_pos != ((RD_LEN + W - 1) / W) * W) begin
        $display("FAIL: read delivered %0d beats", rd_pos / W);
        errors = errors + 1;
    end
    // written bytes, and W bytes either side untouched
    for (i = -W; i < WR_LEN + W; i = i + 1) begin
        exp = (i >= 0 && i < WR_LEN) ? 8'h80 + i : (RD_ADDR - (RD_ADDR % MEM_BYTES) + (WR_ADDR + i) % MEM_BYTES) % 251;
        if (mem[(WR_ADDR + i) % MEM_BYTES] != exp) begin
            $display("FAIL: memory byte %0d of the write: %h, expected %h", i, mem[(WR_ADDR + i) % MEM_BYTES], exp);
            errors = errors + 1;
        end
    end
    if (errors == 0)
        $display("PASS: DATA_WIDTH=%0d directed read (%0d B at %h), len-0 read, write (%0d B at %h)",
                 DATA_WIDTH, RD_LEN, RD_ADDR, WR_LEN, WR_ADDR);
    else
        $display("FAIL: %0d error(s)", errors);
    $finish;
end

endmodule

`resetall
