// SPDX-License-Identifier: MIT
// Firmware DMA: one transfer at a time between host memory (AXI4, through froce_dma_rd/wr) and the soft core's RAM.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The engine behind the DMA_* registers of froce_fw (firmware/fw_hal.h
 * hal_dma_read/hal_dma_write). A transfer is started with `start` and the
 * operands beside it; `busy` stays high until it is complete, `error` then
 * tells whether it failed.
 *
 *   dir 0 (host -> RAM): one froce_dma_rd descriptor; the realigned stream
 *     (byte 0 of beat 0 = the byte at host_addr) is written into the RAM one
 *     32-bit word per cycle. Done when every word is written and the read
 *     status came back.
 *   dir 1 (RAM -> host): one froce_dma_wr descriptor; the RAM is read one
 *     word per cycle into stream beats (a beat of DATA_WIDTH/32 words is
 *     handed on in the cycle its last word arrives, so reading does not
 *     pause between beats unless the writer holds tready low). Done when
 *     froce_dma_wr reports the status, which it does after the last B
 *     response: a later transfer never reaches the host before an earlier one.
 *
 * Operands: len 4..4096 bytes, a multiple of 4; host_addr and local_addr
 * 4-byte aligned; [local_addr, local_addr + len) inside the RAM (byte
 * addresses from 0). Anything else: error at once, busy never rises, no bus
 * traffic. The host range may cross 4 KiB pages (froce_dma_rd/wr split the
 * bursts). A start while busy is ignored.
 *
 * error = the DMA engine's status was not DMA_ERR_OK (a beat or burst answered
 * SLVERR or DECERR) or the operands were refused. On a read error the words
 * are still written (with whatever data the slave returned).
 *
 * RAM port: ram_en/ram_we/ram_addr/ram_wdata are a request this cycle to a
 * synchronous RAM port whose read data (ram_rdata) is valid the next cycle.
 * The engine uses the port only while busy (froce_fw gives it the port for
 * the whole transfer), at most once per cycle.
 *
 * Speed: 4 bytes per cycle on the RAM side once data flows; a 4 KiB read
 * takes about 1024 cycles plus the host's latency (bursts of MAX_BURST_BEATS,
 * two in flight).
 */
module froce_fw_dma #(
    parameter DATA_WIDTH = 64,                      // AXI data width: 64, 128, 256 or 512
    parameter RAM_ADDR_WIDTH = 14,                  // RAM: 2**RAM_ADDR_WIDTH 32-bit words
    parameter MAX_BURST_BEATS = 2048 / DATA_WIDTH,  // AXI burst: 256 bytes (power of two >= 2)
    parameter BUF_DEPTH = 2 * MAX_BURST_BEATS       // froce_dma_rd data buffer: two bursts
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Transfer */
    input  wire                         start,
    input  wire                         dir,            // 0 host -> RAM, 1 RAM -> host
    input  wire [63:0]                  host_addr,
    input  wire [31:0]                  local_addr,     // RAM byte address
    input  wire [31:0]                  len,            // bytes
    output wire                         busy,
    output wire                         error,

    /* RAM port (the engine's while busy) */
    output wire                         ram_en,
    output wire                         ram_we,
    output wire [RAM_ADDR_WIDTH-1:0]    ram_addr,       // word address
    output wire [31:0]                  ram_wdata,
    input  wire [31:0]                  ram_rdata,      // the cycle after a read

    /* AXI4 master: read */
    output wire [0:0]                   m_axi_arid,
    output wire [63:0]                  m_axi_araddr,
    output wire [7:0]                   m_axi_arlen,
    output wire [2:0]                   m_axi_arsize,
    output wire [1:0]                   m_axi_arburst,
    output wire                         m_axi_arlock,
    output wire [3:0]                   m_axi_arcache,
    output wire [2:0]                   m_axi_arprot,
    output wire                         m_axi_arvalid,
    input  wire                         m_axi_arready,
    input  wire [0:0]                   m_axi_rid,
    input  wire [DATA_WIDTH-1:0]        m_axi_rdata,
    input  wire [1:0]                   m_axi_rresp,
    input  wire                         m_axi_rlast,
    input  wire                         m_axi_rvalid,
    output wire                         m_axi_rready,

    /* AXI4 master: write */
    output wire [0:0]                   m_axi_awid,
    output wire [63:0]                  m_axi_awaddr,
    output wire [7:0]                   m_axi_awlen,
    output wire [2:0]                   m_axi_awsize,
    output wire [1:0]                   m_axi_awburst,
    output wire                         m_axi_awlock,
    output wire [3:0]                   m_axi_awcache,
    output wire [2:0]                   m_axi_awprot,
    output wire                         m_axi_awvalid,
    input  wire                         m_axi_awready,
    output wire [DATA_WIDTH-1:0]        m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]      m_axi_wstrb,
    output wire                         m_axi_wlast,
    output wire                         m_axi_wvalid,
    input  wire                         m_axi_wready,
    input  wire [0:0]                   m_axi_bid,
    input  wire [1:0]                   m_axi_bresp,
    input  wire                         m_axi_bvalid,
    output wire                         m_axi_bready
);

localparam NW = DATA_WIDTH / 32;                    // RAM words per stream beat
localparam CW = $clog2(NW) + 1;                     // word counts within a beat, 0..NW
localparam [CW-1:0] NW_C = NW[CW-1:0];
localparam [32:0] RAM_BYTES = 33'd4 << RAM_ADDR_WIDTH;

initial begin
    if (DATA_WIDTH != 64 && DATA_WIDTH != 128 && DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $display("froce_fw_dma: DATA_WIDTH must be 64, 128, 256 or 512");
        $finish;
    end
    if (RAM_ADDR_WIDTH < 2 || RAM_ADDR_WIDTH > 20) begin
        $display("froce_fw_dma: RAM_ADDR_WIDTH must be 2..20");
        $finish;
    end
end

generate
    if ((DATA_WIDTH != 64 && DATA_WIDTH != 128 && DATA_WIDTH != 256 && DATA_WIDTH != 512) ||
        RAM_ADDR_WIDTH < 2 || RAM_ADDR_WIDTH > 20) begin : g_bad_parameter
        froce_fw_dma_bad_parameter u_bad_parameter ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * Start, operand checks, completion
 * ------------------------------------------------------------------------ */

reg busy_reg = 1'b0;
reg err_reg = 1'b0;
reg dir_reg = 1'b0;
reg desc_valid_reg = 1'b0;                          // descriptor offered to the engine of dir_reg
reg [63:0] desc_addr_reg = 64'd0;
reg [15:0] desc_len_reg = 16'd0;
reg st_got_reg = 1'b0;                              // the engine's status came back
reg [10:0] wl_reg = 11'd0;                          // words left: to write (dir 0) / to read (dir 1)
reg [RAM_ADDR_WIDTH-1:0] addr_reg = {RAM_ADDR_WIDTH{1'b0}};

wire [32:0] local_end = {1'b0, local_addr} + {1'b0, len};
wire bad_ops = len < 32'd4 || len > 32'd4096 || len[1:0] != 2'b00 || host_addr[1:0] != 2'b00 ||
               local_addr[1:0] != 2'b00 || local_end > RAM_BYTES;
wire go = start && !busy_reg;

wire desc_rd_ready, desc_wr_ready;
wire desc_fire = desc_valid_reg && (dir_reg ? desc_wr_ready : desc_rd_ready);

wire rd_st_valid, wr_st_valid;
wire [3:0] rd_st_error, wr_st_error;
wire st_valid = dir_reg ? wr_st_valid : rd_st_valid;
wire [3:0] st_error = dir_reg ? wr_st_error : rd_st_error;

// host -> RAM state (below)
reg [DATA_WIDTH-1:0] buf_reg;
reg [CW-1:0] buf_cnt_reg = {CW{1'b0}};
// RAM -> host state (below)
reg out_valid_reg = 1'b0;

wire done = busy_reg && st_got_reg && (dir_reg || (wl_reg == 11'd0 && buf_cnt_reg == {CW{1'b0}}));

assign busy = busy_reg;
assign error = err_reg;

/* ------------------------------------------------------------------------
 * host -> RAM: stream beats into a shift register, one word per cycle out
 * ------------------------------------------------------------------------ */

wire [DATA_WIDTH-1:0] rd_tdata;
wire rd_tvalid;
wire rd_write = busy_reg && !dir_reg && buf_cnt_reg != {CW{1'b0}};
wire [10:0] rd_wl_after = wl_reg - {10'd0, rd_write};
// a beat is taken when the register is empty or empties this cycle, and
// words are left after this cycle's (rd_wl_after != 0, without the subtract:
// the DMA reader's output handshake waits for it)
wire rd_words_left = wl_reg[10:1] != 10'd0 || (wl_reg[0] && !rd_write);
wire rd_tready = busy_reg && !dir_reg && buf_cnt_reg <= {{(CW-1){1'b0}}, 1'b1} && rd_words_left;
wire rd_take = rd_tvalid && rd_tready;
wire [CW-1:0] rd_take_words = rd_wl_after >= {{(11-CW){1'b0}}, NW_C} ? NW_C : rd_wl_after[CW-1:0];

/* ------------------------------------------------------------------------
 * RAM -> host: words read into an assembly register, beats handed on whole
 * ------------------------------------------------------------------------ */

reg [DATA_WIDTH-1:0] asm_reg;
reg [CW-1:0] asm_n_reg = {CW{1'b0}};               // words of the beat being assembled, 0 = none
reg [CW-1:0] iss_cnt_reg = {CW{1'b0}};             // of them, reads issued
reg [CW-1:0] asm_cnt_reg = {CW{1'b0}};             // of them, words arrived before this cycle
reg rd_pend_reg = 1'b0;                             // a RAM read was issued last cycle: ram_rdata is its word
reg [DATA_WIDTH-1:0] out_data_reg;

wire wr_tready;
wire out_free = !out_valid_reg || wr_tready;
wire [CW-1:0] asm_have = asm_cnt_reg + {{(CW-1){1'b0}}, rd_pend_reg};
wire asm_move = asm_n_reg != {CW{1'b0}} && iss_cnt_reg == asm_n_reg && asm_have == asm_n_reg && out_free;
wire wr_issue_cur = asm_n_reg != {CW{1'b0}} && iss_cnt_reg != asm_n_reg;
wire wr_issue_new = (asm_n_reg == {CW{1'b0}} || asm_move) && wl_reg != 11'd0;
wire wr_issue = busy_reg && dir_reg && (wr_issue_cur || wr_issue_new);
wire [CW-1:0] wr_new_words = wl_reg >= {{(11-CW){1'b0}}, NW_C} ? NW_C : wl_reg[CW-1:0];

// the assembly register with this cycle's word in its place
reg [DATA_WIDTH-1:0] asm_merged;
integer i;
always @* begin
    asm_merged = asm_reg;
    for (i = 0; i < NW; i = i + 1)
        if (rd_pend_reg && asm_cnt_reg == i[CW-1:0])
            asm_merged[32*i +: 32] = ram_rdata;
end

/* ------------------------------------------------------------------------
 * Registers
 * ------------------------------------------------------------------------ */

always @(posedge clk) begin
    if (desc_fire)
        desc_valid_reg <= 1'b0;
    if (busy_reg && st_valid) begin
        st_got_reg <= 1'b1;
        if (st_error != 4'd0)
            err_reg <= 1'b1;
    end
    if (done)
        busy_reg <= 1'b0;

    // host -> RAM
    if (rd_write) begin
        addr_reg <= addr_reg + 1'b1;
        wl_reg <= wl_reg - 1'b1;
    end
    if (rd_take) begin
        buf_reg <= rd_tdata;
        buf_cnt_reg <= rd_take_words;
    end else if (rd_write) begin
        buf_reg <= buf_reg >> 32;
        buf_cnt_reg <= buf_cnt_reg - 1'b1;
    end

    // RAM -> host
    rd_pend_reg <= wr_issue;
    if (wr_issue) begin
        addr_reg <= addr_reg + 1'b1;
        wl_reg <= wl_reg - 1'b1;
    end
    if (busy_reg && dir_reg) begin
        if (asm_move) begin
            out_data_reg <= asm_merged;
            asm_cnt_reg <= {CW{1'b0}};
        end else if (rd_pend_reg) begin
            asm_reg <= asm_merged;
            asm_cnt_reg <= asm_have;
        end
        if (wr_issue_new) begin
            asm_n_reg <= wr_new_words;
            iss_cnt_reg <= {{(CW-1){1'b0}}, 1'b1};
        end else if (asm_move) begin
            asm_n_reg <= {CW{1'b0}};
            iss_cnt_reg <= {CW{1'b0}};
        end else if (wr_issue) begin
            iss_cnt_reg <= iss_cnt_reg + 1'b1;
        end
    end
    if (asm_move && busy_reg && dir_reg)
        out_valid_reg <= 1'b1;
    else if (wr_tready)
        out_valid_reg <= 1'b0;

    if (go) begin
        dir_reg <= dir;
        st_got_reg <= 1'b0;
        asm_n_reg <= {CW{1'b0}};
        iss_cnt_reg <= {CW{1'b0}};
        asm_cnt_reg <= {CW{1'b0}};
        buf_cnt_reg <= {CW{1'b0}};
        if (bad_ops) begin
            err_reg <= 1'b1;
        end else begin
            busy_reg <= 1'b1;
            err_reg <= 1'b0;
            desc_valid_reg <= 1'b1;
            desc_addr_reg <= host_addr;
            desc_len_reg <= len[15:0];
            wl_reg <= len[12:2];
            addr_reg <= local_addr[RAM_ADDR_WIDTH+1:2];
        end
    end

    if (rst) begin
        busy_reg <= 1'b0;
        err_reg <= 1'b0;
        dir_reg <= 1'b0;
        desc_valid_reg <= 1'b0;
        st_got_reg <= 1'b0;
        wl_reg <= 11'd0;
        buf_cnt_reg <= {CW{1'b0}};
        asm_n_reg <= {CW{1'b0}};
        iss_cnt_reg <= {CW{1'b0}};
        asm_cnt_reg <= {CW{1'b0}};
        rd_pend_reg <= 1'b0;
        out_valid_reg <= 1'b0;
    end
end

assign ram_en = rd_write || wr_issue;
assign ram_we = rd_write;
assign ram_addr = addr_reg;
assign ram_wdata = buf_reg[31:0];

wire [31:0] unused_local = local_addr;               // bits above the RAM are checked by bad_ops

/* ------------------------------------------------------------------------
 * The DMA engines (one tag, one ID, small bursts: this is the control plane)
 * ------------------------------------------------------------------------ */

wire [0:0] unused_rd_st_tag, unused_wr_st_tag, unused_rd_tid;
wire [DATA_WIDTH/8-1:0] unused_rd_tkeep;
wire unused_rd_tlast;

froce_dma_rd #(
    .DATA_WIDTH(DATA_WIDTH),
    .TAG_WIDTH(1),
    .AXI_ID_WIDTH(1),
    .MAX_BURST_BEATS(MAX_BURST_BEATS),
    .MAX_OUTSTANDING(2),
    .BUF_DEPTH(BUF_DEPTH),
    .REQ_DEPTH(2)
) u_dma_rd (
    .clk(clk),
    .rst(rst),
    .s_rd_desc_addr(desc_addr_reg),
    .s_rd_desc_len(desc_len_reg),
    .s_rd_desc_tag(1'b0),
    .s_rd_desc_valid(desc_valid_reg && !dir_reg),
    .s_rd_desc_ready(desc_rd_ready),
    .m_rd_status_tag(unused_rd_st_tag),
    .m_rd_status_error(rd_st_error),
    .m_rd_status_valid(rd_st_valid),
    .m_rd_status_ready(1'b1),
    .m_rd_axis_tdata(rd_tdata),
    .m_rd_axis_tkeep(unused_rd_tkeep),
    .m_rd_axis_tvalid(rd_tvalid),
    .m_rd_axis_tready(rd_tready),
    .m_rd_axis_tlast(unused_rd_tlast),
    .m_rd_axis_tid(unused_rd_tid),
    .m_axi_arid(m_axi_arid),
    .m_axi_araddr(m_axi_araddr),
    .m_axi_arlen(m_axi_arlen),
    .m_axi_arsize(m_axi_arsize),
    .m_axi_arburst(m_axi_arburst),
    .m_axi_arlock(m_axi_arlock),
    .m_axi_arcache(m_axi_arcache),
    .m_axi_arprot(m_axi_arprot),
    .m_axi_arvalid(m_axi_arvalid),
    .m_axi_arready(m_axi_arready),
    .m_axi_rid(m_axi_rid),
    .m_axi_rdata(m_axi_rdata),
    .m_axi_rresp(m_axi_rresp),
    .m_axi_rlast(m_axi_rlast),
    .m_axi_rvalid(m_axi_rvalid),
    .m_axi_rready(m_axi_rready)
);

froce_dma_wr #(
    .DATA_WIDTH(DATA_WIDTH),
    .TAG_WIDTH(1),
    .AXI_ID_WIDTH(1),
    .MAX_BURST_BEATS(MAX_BURST_BEATS),
    .MAX_OUTSTANDING(2),
    .REQ_DEPTH(2)
) u_dma_wr (
    .clk(clk),
    .rst(rst),
    .s_wr_desc_addr(desc_addr_reg),
    .s_wr_desc_len(desc_len_reg),
    .s_wr_desc_tag(1'b0),
    .s_wr_desc_valid(desc_valid_reg && dir_reg),
    .s_wr_desc_ready(desc_wr_ready),
    .s_wr_axis_tdata(out_data_reg),
    .s_wr_axis_tkeep({(DATA_WIDTH/8){1'b1}}),
    .s_wr_axis_tvalid(out_valid_reg),
    .s_wr_axis_tready(wr_tready),
    .s_wr_axis_tlast(1'b0),
    .m_wr_status_tag(unused_wr_st_tag),
    .m_wr_status_error(wr_st_error),
    .m_wr_status_valid(wr_st_valid),
    .m_wr_status_ready(1'b1),
    .m_axi_awid(m_axi_awid),
    .m_axi_awaddr(m_axi_awaddr),
    .m_axi_awlen(m_axi_awlen),
    .m_axi_awsize(m_axi_awsize),
    .m_axi_awburst(m_axi_awburst),
    .m_axi_awlock(m_axi_awlock),
    .m_axi_awcache(m_axi_awcache),
    .m_axi_awprot(m_axi_awprot),
    .m_axi_awvalid(m_axi_awvalid),
    .m_axi_awready(m_axi_awready),
    .m_axi_wdata(m_axi_wdata),
    .m_axi_wstrb(m_axi_wstrb),
    .m_axi_wlast(m_axi_wlast),
    .m_axi_wvalid(m_axi_wvalid),
    .m_axi_wready(m_axi_wready),
    .m_axi_bid(m_axi_bid),
    .m_axi_bresp(m_axi_bresp),
    .m_axi_bvalid(m_axi_bvalid),
    .m_axi_bready(m_axi_bready)
);

endmodule

`resetall
