// SPDX-License-Identifier: MIT
// Netdev rings: plain Ethernet TX and RX descriptor rings for the kernel's
// netdev, the Ethernet TX frame mux and the NAPI-style interrupt.
`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "froce_hw.vh"

/*
 * See docs/transport-engine.md "Netdev rings" and docs/hw-interface.md.
 *
 * TX ring (NTX_*): while PI != the next descriptor to fetch, descriptor n
 * (16 bytes at ADDR + 16 (n mod 2^LOG_SIZE)) is read, then its buffer (LEN
 * bytes; LEN = 0 contributes nothing); the buffers of one frame (up to EOP)
 * are packed (froce_axis_pack) into a store-and-forward frame FIFO, so a frame
 * goes out on the wire only once it is whole. After the frame's end, dword 3
 * of each of its descriptors is written with DONE (and ERR if the frame was
 * dropped: a DMA read error, a frame larger than the FIFO or of zero bytes),
 * CI moving past each one. DONE means the buffer may be reused.
 *
 * RX ring (NRX_*): the non-RoCE frames of froce_rx_pkt_buffer enter a frame
 * FIFO that never waits (s_net_tready = 1: the RoCE path behind it in the
 * packet buffer never stalls on the netdev); a frame meeting a full FIFO is
 * dropped. For the frame at the FIFO head: with the ring disabled or no
 * descriptor posted (PI == CI) it is dropped at once; otherwise descriptor CI
 * is read and, if BUF_LEN >= the frame length, the frame is written to ADDR,
 * then (after the data write completed) dword 3 {PKT_LEN, VERDICT NOT_ROCE,
 * ERR on a write error, DONE}; CI + 1. A frame longer than BUF_LEN is dropped
 * and the descriptor stays for the next frame (nothing is written). Every
 * drop counts on inc_rx_dropped.
 *
 * Clearing ENABLE (a CFG write with ENABLE = 0) stops a ring: the operation in
 * progress finishes its DMA (an AXI burst cannot be abandoned), a TX frame in
 * progress is rolled back out of the FIFO (never half-sent), an RX frame is
 * discarded or, if already written, not completed (no DONE); then CI and the
 * fetch pointer return to 0 (BAR0 zeroes PI).
 *
 * DMA: one read port (TX descriptors and buffers, RX descriptors) and one
 * write port (RX frames and dword 3 of both rings), each carrying one request
 * at a time, the owner alternating; a request is finished when its data and
 * its status are through, so an RX DONE is issued only after its frame's
 * write got its B responses.
 *
 * Ethernet TX: frames of the tx_builder (s_roce_*) and of the TX FIFO share
 * m_eth_* through a frame mux: the grant is taken when a frame's first beat
 * is presented and held to its tlast, alternating between the two sources
 * when both wait, so beats of two frames never interleave.
 *
 * Interrupt: one vector (irq_vector) for both rings. A completion (a TX frame
 * written back, an RX frame delivered) while armed makes the vector pending
 * and disarms; irq_arm (NETDEV_ARM) fires at once if a completion happened
 * since the last firing, else arms. Armed after reset. irq_pending is held
 * until irq_taken (the MSI-X request handshake).
 */
module froce_netdev #(
    parameter DATA_WIDTH = 64,
    parameter FIFO_BYTES = 16384        // each frame FIFO (TX and RX), bytes: the largest frame
) (
    input  wire                     clk,
    input  wire                     rst,

    /* BAR0 NETDEV registers */
    input  wire [63:0]              ntx_addr,
    input  wire [4:0]               ntx_log,
    input  wire                     ntx_en,
    input  wire [15:0]              ntx_pi,
    input  wire                     ntx_cfg_we,
    output wire [15:0]              ntx_ci,
    input  wire [63:0]              nrx_addr,
    input  wire [4:0]               nrx_log,
    input  wire                     nrx_en,
    input  wire [15:0]              nrx_pi,
    input  wire                     nrx_cfg_we,
    output wire [15:0]              nrx_ci,
    input  wire [4:0]               irq_vector_cfg,
    input  wire                     irq_arm,

    /* non-RoCE frames from the packet buffer */
    input  wire [DATA_WIDTH-1:0]    s_net_tdata,
    input  wire [DATA_WIDTH/8-1:0]  s_net_tkeep,
    input  wire                     s_net_tvalid,
    output wire                     s_net_tready,
    input  wire                     s_net_tlast,

    /* RoCE frames from the tx_builder, and the Ethernet TX port */
    input  wire [DATA_WIDTH-1:0]    s_roce_tdata,
    input  wire [DATA_WIDTH/8-1:0]  s_roce_tkeep,
    input  wire                     s_roce_tvalid,
    output wire                     s_roce_tready,
    input  wire                     s_roce_tlast,
    output wire [DATA_WIDTH-1:0]    m_eth_tdata,
    output wire [DATA_WIDTH/8-1:0]  m_eth_tkeep,
    output wire                     m_eth_tvalid,
    input  wire                     m_eth_tready,
    output wire                     m_eth_tlast,

    /* DMA read engine (froce_dma_rd) */
    output wire [63:0]              m_rd_desc_addr,
    output wire [15:0]              m_rd_desc_len,
    output wire                     m_rd_desc_valid,
    input  wire                     m_rd_desc_ready,
    input  wire [DATA_WIDTH-1:0]    s_rd_tdata,
    input  wire [DATA_WIDTH/8-1:0]  s_rd_tkeep,
    input  wire                     s_rd_tvalid,
    output wire                     s_rd_tready,
    input  wire                     s_rd_tlast,
    input  wire                     s_rd_st_valid,
    input  wire [3:0]               s_rd_st_err,

    /* DMA write engine (froce_dma_wr) */
    output wire [63:0]              m_wr_desc_addr,
    output wire [15:0]              m_wr_desc_len,
    output wire                     m_wr_desc_valid,
    input  wire                     m_wr_desc_ready,
    output wire [DATA_WIDTH-1:0]    m_wr_tdata,
    output wire                     m_wr_tvalid,
    input  wire                     m_wr_tready,
    output wire                     m_wr_tlast,
    input  wire                     s_wr_st_valid,
    input  wire [3:0]               s_wr_st_err,

    /* interrupt */
    output reg                      irq_pending,
    output wire [4:0]               irq_vector,
    input  wire                     irq_taken,

    output wire                     inc_tx_pkts,
    output wire                     inc_rx_pkts,
    output wire [1:0]               inc_rx_dropped  // 0..2 this cycle
);

localparam W = DATA_WIDTH / 8;
localparam DEPTH = FIFO_BYTES / W;

// ---------------------------------------------------------------------------
// ring geometry
// ---------------------------------------------------------------------------

wire [4:0] tx_log = ntx_log < 5'd4 ? 5'd4 : ntx_log > 5'd15 ? 5'd15 : ntx_log;
wire [4:0] rx_log = nrx_log < 5'd4 ? 5'd4 : nrx_log > 5'd15 ? 5'd15 : nrx_log;
wire [15:0] tx_mask = ~(16'hFFFF << tx_log);
wire [15:0] rx_mask = ~(16'hFFFF << rx_log);

reg [15:0] tx_cur;              // next TX descriptor to fetch
reg [15:0] tx_ci_r;             // TX descriptors written back
reg [15:0] rx_ci_r;             // RX descriptors filled
assign ntx_ci = tx_ci_r;
assign nrx_ci = rx_ci_r;

wire [63:0] tx_cur_desc = ntx_addr + {44'd0, tx_cur & tx_mask, 4'd0};
wire [63:0] tx_ci_desc = ntx_addr + {44'd0, tx_ci_r & tx_mask, 4'd0};
wire [63:0] rx_ci_desc = nrx_addr + {44'd0, rx_ci_r & rx_mask, 4'd0};

// ---------------------------------------------------------------------------
// DMA read port: one request at a time
// ---------------------------------------------------------------------------

localparam [1:0] K_TX_DESC = 2'd0, K_TX_BUF = 2'd1, K_RX_DESC = 2'd2;

wire tx_rd_req, rx_rd_req;
wire [63:0] tx_rd_addr;
wire [15:0] tx_rd_len;
wire [1:0] tx_rd_kind;
reg rd_busy, rd_got_last, rd_got_st, rd_err, rd_last_rx;
reg [1:0] rd_kind;
wire rd_pick_rx = rx_rd_req && (!tx_rd_req || !rd_last_rx);
assign m_rd_desc_valid = !rd_busy && (tx_rd_req || rx_rd_req);
assign m_rd_desc_addr = rd_pick_rx ? rx_ci_desc : tx_rd_addr;
assign m_rd_desc_len = rd_pick_rx ? 16'd16 : tx_rd_len;
wire rd_grant = m_rd_desc_valid && m_rd_desc_ready;
wire tx_rd_grant = rd_grant && !rd_pick_rx;
wire rx_rd_grant = rd_grant && rd_pick_rx;

// TX buffer bytes go to the packer; descriptors are always taken
wire pk_s_ready;
wire rd_to_pack = rd_busy && rd_kind == K_TX_BUF;
assign s_rd_tready = rd_to_pack ? pk_s_ready : 1'b1;
wire rd_beat = s_rd_tvalid && s_rd_tready;
wire rd_fin = rd_busy && (rd_got_last || (rd_beat && s_rd_tlast)) && (rd_got_st || s_rd_st_valid);
wire rd_fin_err = rd_err || (s_rd_st_valid && s_rd_st_err != 4'd0);
wire tx_rd_fin = rd_fin && rd_kind != K_RX_DESC;
wire rx_rd_fin = rd_fin && rd_kind == K_RX_DESC;

// descriptor image (16 bytes)
reg [127:0] desc_buf;
wire [127:0] desc_next;
generate
    if (DATA_WIDTH >= 128) begin : g_desc_wide
        assign desc_next = s_rd_tdata[127:0];
    end else begin : g_desc_narrow
        assign desc_next = {s_rd_tdata[63:0], desc_buf[127:64]};
    end
endgenerate
// the image as it stands once the request finishes (the last beat may be this cycle)
wire [127:0] desc_img = rd_beat ? desc_next : desc_buf;

always @(posedge clk) begin
    if (rd_beat && rd_busy && rd_kind != K_TX_BUF)
        desc_buf <= desc_next;
    if (rd_grant) begin
        rd_busy <= 1'b1;
        rd_got_last <= 1'b0;
        rd_got_st <= 1'b0;
        rd_err <= 1'b0;
        rd_kind <= rd_pick_rx ? K_RX_DESC : tx_rd_kind;
        rd_last_rx <= rd_pick_rx;
    end
    if (rd_busy) begin
        if (rd_beat && s_rd_tlast)
            rd_got_last <= 1'b1;
        if (s_rd_st_valid) begin
            rd_got_st <= 1'b1;
            if (s_rd_st_err != 4'd0)
                rd_err <= 1'b1;
        end
        if (rd_fin)
            rd_busy <= 1'b0;
    end
    if (rst) begin
        rd_busy <= 1'b0;
        rd_last_rx <= 1'b0;
        rd_kind <= K_TX_DESC;
    end
end

// ---------------------------------------------------------------------------
// DMA write port: one request at a time
// ---------------------------------------------------------------------------

wire tx_wr_req, rx_wr_req;
wire [63:0] rx_wr_addr;
wire [15:0] rx_wr_len;
wire rx_wr_small;
wire [31:0] tx_wr_data, rx_wr_data;
reg wr_busy, wr_small, wr_small_sent, wr_last_rx;
reg [31:0] wr_small_data;
wire wr_pick_rx = rx_wr_req && (!tx_wr_req || !wr_last_rx);
assign m_wr_desc_valid = !wr_busy && (tx_wr_req || rx_wr_req);
assign m_wr_desc_addr = wr_pick_rx ? rx_wr_addr : tx_ci_desc + 64'd12;
assign m_wr_desc_len = wr_pick_rx ? rx_wr_len : 16'd4;
wire wr_grant = m_wr_desc_valid && m_wr_desc_ready;
wire tx_wr_grant = wr_grant && !wr_pick_rx;
wire rx_wr_grant = wr_grant && wr_pick_rx;
reg wr_owner_rx;
wire wr_fin = wr_busy && s_wr_st_valid;
wire wr_fin_err = s_wr_st_err != 4'd0;
wire tx_wr_fin = wr_fin && !wr_owner_rx;
wire rx_wr_fin = wr_fin && wr_owner_rx;

// RX frame data from the RX FIFO
wire [DATA_WIDTH-1:0] rxf_tdata;
wire [W-1:0] unused_rxf_tkeep;
wire rxf_tvalid, rxf_tlast;
wire rxf_tready;
wire [15:0] rxf_len;
wire rxf_len_valid;
wire rx_streaming = wr_busy && !wr_small;

reg [DATA_WIDTH-1:0] small_beat;
always @* begin
    small_beat = {DATA_WIDTH{1'b0}};
    small_beat[31:0] = wr_small_data;
end
assign m_wr_tdata = wr_small ? small_beat : rxf_tdata;
assign m_wr_tvalid = wr_busy && (wr_small ? !wr_small_sent : rxf_tvalid);
assign m_wr_tlast = wr_small ? 1'b1 : rxf_tlast;

always @(posedge clk) begin
    if (wr_grant) begin
        wr_busy <= 1'b1;
        wr_owner_rx <= wr_pick_rx;
        wr_last_rx <= wr_pick_rx;
        wr_small <= wr_pick_rx ? rx_wr_small : 1'b1;
        wr_small_data <= wr_pick_rx ? rx_wr_data : tx_wr_data;
        wr_small_sent <= 1'b0;
    end
    if (wr_busy && wr_small && m_wr_tvalid && m_wr_tready)
        wr_small_sent <= 1'b1;
    if (wr_fin)
        wr_busy <= 1'b0;
    if (rst) begin
        wr_busy <= 1'b0;
        wr_last_rx <= 1'b0;
        wr_owner_rx <= 1'b0;
        wr_small <= 1'b1;
        wr_small_sent <= 1'b0;
    end
end

// ---------------------------------------------------------------------------
// Interrupt
// ---------------------------------------------------------------------------

reg irq_armed, irq_since;       // armed; a completion since the last firing
wire tx_complete, rx_complete;
wire completion = tx_complete || rx_complete;
assign irq_vector = irq_vector_cfg;
wire irq_fire_c = completion && irq_armed;
wire irq_since_n = irq_since || (completion && !irq_armed);
always @(posedge clk) begin
    if (irq_taken)
        irq_pending <= 1'b0;
    if (irq_arm) begin
        irq_since <= 1'b0;
        if (irq_since_n) begin
            // completions since the last firing: fire again at once
            irq_pending <= 1'b1;
            irq_armed <= 1'b0;
        end else begin
            irq_armed <= 1'b1;
            if (irq_fire_c)
                irq_pending <= 1'b1;
        end
    end else if (irq_fire_c) begin
        irq_pending <= 1'b1;
        irq_armed <= 1'b0;
        irq_since <= 1'b0;
    end else begin
        irq_since <= irq_since_n;
    end
    if (rst) begin
        irq_pending <= 1'b0;
        irq_armed <= 1'b1;
        irq_since <= 1'b0;
    end
end

// ---------------------------------------------------------------------------
// TX ring
// ---------------------------------------------------------------------------

localparam [3:0] T_IDLE = 4'd0, T_DREQ = 4'd1, T_DWAIT = 4'd2, T_BREQ = 4'd3, T_BWAIT = 4'd4,
                 T_END = 4'd5, T_EWAIT = 4'd6, T_WB = 4'd7, T_WBWAIT = 4'd8;
reg [3:0] tx_state;
reg tx_abort;                   // ENABLE cleared while busy
reg tx_err;                     // the frame is dropped (ERR in its descriptors)
reg tx_eop;
reg [63:0] tx_buf_addr;
reg [15:0] tx_buf_len;
reg tx_end_drop;

wire tx_disable = ntx_cfg_we && !ntx_en;
wire tx_go = !tx_abort && !tx_disable;
assign tx_rd_req = tx_go && ((tx_state == T_DREQ && ntx_en && ntx_pi != tx_cur) || tx_state == T_BREQ);
assign tx_rd_addr = tx_state == T_BREQ ? tx_buf_addr : tx_cur_desc;
assign tx_rd_len = tx_state == T_BREQ ? tx_buf_len : 16'd16;
assign tx_rd_kind = tx_state == T_BREQ ? K_TX_BUF : K_TX_DESC;
assign tx_wr_req = tx_state == T_WB && tx_go;
assign tx_wr_data = {1'b1, tx_err, 30'd0};
assign tx_complete = tx_state == T_WBWAIT && tx_wr_fin && tx_ci_r + 1'b1 == tx_cur && !tx_abort;

// packer: the buffers of a frame, then an empty end piece
wire [DATA_WIDTH-1:0] pk_m_tdata;
wire [W-1:0] pk_m_tkeep;
wire pk_m_tvalid, pk_m_tready, pk_m_tlast;
wire pk_end = tx_state == T_END;
// REG_IN: the TX state's decisions (pk_end, rd_to_pack) reach the packer's
// count and shifts only through a register
froce_axis_pack #(.DATA_WIDTH(DATA_WIDTH), .REG_IN(1)) tx_pack (
    .clk(clk), .rst(rst),
    .s_axis_tdata(pk_end ? {DATA_WIDTH{1'b0}} : s_rd_tdata),
    .s_axis_tkeep(pk_end ? {W{1'b0}} : s_rd_tkeep),
    .s_axis_tvalid(pk_end || (rd_to_pack && s_rd_tvalid)),
    .s_axis_tready(pk_s_ready),
    .s_axis_tlast(pk_end || s_rd_tlast), .s_axis_tuser(pk_end),
    .m_axis_tdata(pk_m_tdata), .m_axis_tkeep(pk_m_tkeep), .m_axis_tvalid(pk_m_tvalid),
    .m_axis_tready(pk_m_tready), .m_axis_tlast(pk_m_tlast)
);

wire [DATA_WIDTH-1:0] txf_tdata;
wire [W-1:0] txf_tkeep;
wire txf_tvalid, txf_tready, txf_tlast;
wire [15:0] unused_txf_len;
wire unused_txf_len_valid;
wire txf_commit, txf_drop;
froce_frame_fifo #(.DATA_WIDTH(DATA_WIDTH), .DEPTH(DEPTH), .FRAMES(32), .DROP_FULL(0)) tx_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(pk_m_tdata), .s_axis_tkeep(pk_m_tkeep), .s_axis_tvalid(pk_m_tvalid),
    .s_axis_tready(pk_m_tready), .s_axis_tlast(pk_m_tlast), .s_axis_tdrop(tx_end_drop),
    .m_axis_tdata(txf_tdata), .m_axis_tkeep(txf_tkeep), .m_axis_tvalid(txf_tvalid),
    .m_axis_tready(txf_tready), .m_axis_tlast(txf_tlast),
    .m_len(unused_txf_len), .m_len_valid(unused_txf_len_valid),
    .stat_commit(txf_commit), .stat_drop(txf_drop)
);

// after a descriptor without buffer read, or after its buffer
wire [3:0] tx_next = (tx_eop || tx_abort) ? T_END : T_DREQ;
always @(posedge clk) begin
    case (tx_state)
    T_IDLE: begin
        tx_err <= 1'b0;
        if (tx_abort) begin
            tx_abort <= 1'b0;
            tx_cur <= 16'd0;
            tx_ci_r <= 16'd0;
        end else if (ntx_en && ntx_pi != tx_cur) begin
            tx_state <= T_DREQ;
        end
    end
    T_DREQ: begin
        if (tx_abort)
            tx_state <= T_END;
        else if (tx_rd_grant)
            tx_state <= T_DWAIT;
    end
    T_DWAIT: if (tx_rd_fin) begin
        tx_buf_addr <= desc_img[`FROCE_NTX_DESC_ADDR_LSB +: 64];
        tx_buf_len <= desc_img[`FROCE_NTX_DESC_LEN_LSB +: 16];
        tx_eop <= desc_img[`FROCE_NTX_DESC_EOP_LSB];
        tx_cur <= tx_cur + 1'b1;
        if (rd_fin_err) begin
            // a descriptor that cannot be read: its frame ends here
            tx_err <= 1'b1;
            tx_state <= T_END;
        end else if (desc_img[`FROCE_NTX_DESC_LEN_LSB +: 16] == 16'd0 || tx_err) begin
            // nothing to read (an empty buffer, or the frame is already lost)
            tx_state <= (desc_img[`FROCE_NTX_DESC_EOP_LSB] || tx_abort) ? T_END : T_DREQ;
        end else begin
            tx_state <= T_BREQ;
        end
    end
    T_BREQ: begin
        if (tx_abort)
            tx_state <= T_END;
        else if (tx_rd_grant)
            tx_state <= T_BWAIT;
    end
    T_BWAIT: if (tx_rd_fin) begin
        if (rd_fin_err)
            tx_err <= 1'b1;
        tx_state <= tx_next;
    end
    T_END: if (pk_s_ready) tx_state <= T_EWAIT;
    T_EWAIT: if (txf_commit || txf_drop) begin
        if (txf_drop)
            tx_err <= 1'b1;
        tx_state <= tx_abort ? T_IDLE : T_WB;
    end
    T_WB: begin
        if (tx_abort)
            tx_state <= T_IDLE;
        else if (tx_wr_grant)
            tx_state <= T_WBWAIT;
    end
    T_WBWAIT: if (tx_wr_fin) begin
        tx_ci_r <= tx_ci_r + 1'b1;
        tx_state <= (tx_abort || tx_ci_r + 1'b1 == tx_cur) ? T_IDLE : T_WB;
    end
    default: tx_state <= T_IDLE;
    endcase
    if (tx_state == T_END)
        tx_end_drop <= tx_err || tx_abort;
    if (tx_disable)
        tx_abort <= 1'b1;
    if (rst) begin
        tx_state <= T_IDLE;
        tx_abort <= 1'b0;
        tx_err <= 1'b0;
        tx_cur <= 16'd0;
        tx_ci_r <= 16'd0;
        tx_end_drop <= 1'b0;
    end
end

// ---------------------------------------------------------------------------
// RX ring
// ---------------------------------------------------------------------------

localparam [2:0] R_IDLE = 3'd0, R_DREQ = 3'd1, R_DWAIT = 3'd2, R_DROP = 3'd3, R_WREQ = 3'd4,
                 R_WDATA = 3'd5, R_DONE = 3'd6, R_DONEWAIT = 3'd7;
reg [2:0] rx_state;
reg rx_abort;
reg [63:0] rx_buf_addr;
reg [15:0] rx_len;
reg rx_werr;

// frames arrive straight from the RX packet buffer's block-RAM output: a
// register slice in front of the ring's FIFO, whose drop and commit
// decisions would otherwise start at the block RAM
wire [DATA_WIDTH-1:0] rxs_tdata;
wire [DATA_WIDTH/8-1:0] rxs_tkeep;
wire rxs_tvalid, rxs_tready, rxs_tlast;
froce_reg_slice #(.WIDTH(DATA_WIDTH + DATA_WIDTH / 8 + 1)) rx_slice (
    .clk(clk), .rst(rst),
    .s_data({s_net_tlast, s_net_tkeep, s_net_tdata}), .s_valid(s_net_tvalid), .s_ready(s_net_tready),
    .m_data({rxs_tlast, rxs_tkeep, rxs_tdata}), .m_valid(rxs_tvalid), .m_ready(rxs_tready)
);

wire rxf_commit, rxf_drop;
froce_frame_fifo #(.DATA_WIDTH(DATA_WIDTH), .DEPTH(DEPTH), .FRAMES(32), .DROP_FULL(1)) rx_fifo (
    .clk(clk), .rst(rst),
    .s_axis_tdata(rxs_tdata), .s_axis_tkeep(rxs_tkeep), .s_axis_tvalid(rxs_tvalid),
    .s_axis_tready(rxs_tready), .s_axis_tlast(rxs_tlast), .s_axis_tdrop(1'b0),
    .m_axis_tdata(rxf_tdata), .m_axis_tkeep(unused_rxf_tkeep), .m_axis_tvalid(rxf_tvalid),
    .m_axis_tready(rxf_tready), .m_axis_tlast(rxf_tlast),
    .m_len(rxf_len), .m_len_valid(rxf_len_valid),
    .stat_commit(rxf_commit), .stat_drop(rxf_drop)
);

wire rx_disable = nrx_cfg_we && !nrx_en;
wire rx_go = !rx_abort && !rx_disable;
assign rx_rd_req = rx_state == R_DREQ && rx_go;
assign rx_wr_req = (rx_state == R_WREQ || rx_state == R_DONE) && rx_go;
assign rx_wr_addr = rx_state == R_DONE ? rx_ci_desc + 64'd12 : rx_buf_addr;
assign rx_wr_len = rx_state == R_DONE ? 16'd4 : rx_len;
assign rx_wr_small = rx_state == R_DONE;
reg [31:0] rx_dw3;
always @* begin
    rx_dw3 = 32'd0;
    rx_dw3[`FROCE_NRX_DESC_PKT_LEN_LSB - 96 +: 16] = rx_len;
    rx_dw3[`FROCE_NRX_DESC_VERDICT_LSB - 96 +: 4] = `FROCE_VERDICT_NOT_ROCE;
    rx_dw3[`FROCE_NRX_DESC_ERR_LSB - 96] = rx_werr;
    rx_dw3[`FROCE_NRX_DESC_DONE_LSB - 96] = 1'b1;
end
assign rx_wr_data = rx_dw3;
assign rxf_tready = rx_state == R_DROP || (rx_state == R_WDATA && rx_streaming && m_wr_tready);
wire rx_frame_end = rxf_tvalid && rxf_tready && rxf_tlast;
wire rx_drop_done = rx_state == R_DROP && rx_frame_end;
assign rx_complete = rx_state == R_DONEWAIT && rx_wr_fin;

always @(posedge clk) begin
    case (rx_state)
    R_IDLE: begin
        if (rx_abort) begin
            rx_abort <= 1'b0;
            rx_ci_r <= 16'd0;
        end else if (rxf_len_valid) begin
            rx_len <= rxf_len;
            rx_werr <= 1'b0;
            rx_state <= (nrx_en && nrx_pi != rx_ci_r) ? R_DREQ : R_DROP;
        end
    end
    R_DREQ: begin
        if (rx_abort)
            rx_state <= R_DROP;
        else if (rx_rd_grant)
            rx_state <= R_DWAIT;
    end
    R_DWAIT: if (rx_rd_fin) begin
        rx_buf_addr <= desc_img[`FROCE_NRX_DESC_ADDR_LSB +: 64];
        // a descriptor read error, a buffer too small or a ring being
        // stopped: the frame is dropped, the descriptor stays
        if (rd_fin_err || rx_abort || desc_img[`FROCE_NRX_DESC_BUF_LEN_LSB +: 16] < rx_len)
            rx_state <= R_DROP;
        else
            rx_state <= R_WREQ;
    end
    R_DROP: if (rx_drop_done) rx_state <= R_IDLE;
    R_WREQ: begin
        if (rx_abort)
            rx_state <= R_DROP;
        else if (rx_wr_grant)
            rx_state <= R_WDATA;
    end
    R_WDATA: if (rx_wr_fin) begin
        rx_werr <= wr_fin_err;
        rx_state <= rx_abort ? R_IDLE : R_DONE;
    end
    R_DONE: begin
        if (rx_abort)
            rx_state <= R_IDLE;
        else if (rx_wr_grant)
            rx_state <= R_DONEWAIT;
    end
    R_DONEWAIT: if (rx_wr_fin) begin
        rx_ci_r <= rx_ci_r + 1'b1;
        rx_state <= R_IDLE;
    end
    default: rx_state <= R_IDLE;
    endcase
    if (rx_disable)
        rx_abort <= 1'b1;
    if (rst) begin
        rx_state <= R_IDLE;
        rx_abort <= 1'b0;
        rx_ci_r <= 16'd0;
        rx_werr <= 1'b0;
    end
end

// ---------------------------------------------------------------------------
// Ethernet TX frame mux: tx_builder (0) and the TX FIFO (1)
// ---------------------------------------------------------------------------

// The mux's output goes through a register slice: the TX FIFO's beats come
// from block RAM, and the MAC's FIFO (a clock crossing on the boards)
// decides on them
reg mux_lock, mux_sel, mux_prio;
wire mux_pick = (s_roce_tvalid && txf_tvalid) ? mux_prio : txf_tvalid;
wire mux_cur = mux_lock ? mux_sel : mux_pick;
wire [DATA_WIDTH-1:0] mux_tdata = mux_cur ? txf_tdata : s_roce_tdata;
wire [DATA_WIDTH/8-1:0] mux_tkeep = mux_cur ? txf_tkeep : s_roce_tkeep;
wire mux_tlast = mux_cur ? txf_tlast : s_roce_tlast;
wire mux_tvalid = mux_cur ? txf_tvalid : s_roce_tvalid;
wire mux_tready;
assign s_roce_tready = !mux_cur && mux_tready;
assign txf_tready = mux_cur && mux_tready;
wire mux_fire = mux_tvalid && mux_tready;

froce_reg_slice #(.WIDTH(DATA_WIDTH + DATA_WIDTH / 8 + 1)) tx_slice (
    .clk(clk), .rst(rst),
    .s_data({mux_tlast, mux_tkeep, mux_tdata}), .s_valid(mux_tvalid), .s_ready(mux_tready),
    .m_data({m_eth_tlast, m_eth_tkeep, m_eth_tdata}), .m_valid(m_eth_tvalid), .m_ready(m_eth_tready)
);

always @(posedge clk) begin
    // the grant is taken with a frame's first beat presented, held to its tlast
    if (!mux_lock && mux_tvalid) begin
        mux_lock <= 1'b1;
        mux_sel <= mux_pick;
    end
    if (mux_fire && mux_tlast) begin
        mux_lock <= 1'b0;
        mux_prio <= !mux_cur;
    end
    if (rst) begin
        mux_lock <= 1'b0;
        mux_sel <= 1'b0;
        mux_prio <= 1'b0;
    end
end

// ---------------------------------------------------------------------------
// Counters
// ---------------------------------------------------------------------------

// increments of froce_core's counters (froce_counters), this cycle
assign inc_tx_pkts = mux_fire && mux_tlast && mux_cur;
assign inc_rx_pkts = rx_complete && !rx_werr;
// RX drops: at the FIFO (full) and in the ring (no descriptor, too long)
assign inc_rx_dropped = {1'b0, rxf_drop} + {1'b0, rx_drop_done};

wire unused_nd = ^{unused_txf_len, unused_txf_len_valid, unused_rxf_tkeep, rxf_commit, desc_img[127:81]};

endmodule

`resetall
