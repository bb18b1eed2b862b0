// SPDX-License-Identifier: MIT
// Host link over a UART for boards without PCIe: framed, CRC-checked requests for BAR0 registers, BAR2 doorbells and the host-memory RAM, one response each, and interrupt frames.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * The host (fpga/common/host/froce_uart_link.c) sends requests over the
 * UART; each request gets exactly one response, in order. The protocol's
 * numbers are in fpga/common/host/froce_uart_proto.h (the localparams
 * below carry the same names without FROCE_UART_ and are checked against
 * it by tests/fpga_common/uart/check_proto.py); fpga/common/host/README.md
 * describes the frames.
 *
 * Request (host -> device), multi-byte fields little-endian:
 *
 *   byte     field     meaning
 *   0        SOF_REQ   0xA5
 *   1        CMD       command; bit 7 (CMD_PAYLOAD_FLAG): payload follows
 *   2        TAG       echoed in the response
 *   3        LEN       byte count - 1 (1..256)
 *   4..11    ADDR      64-bit address or offset
 *   12..     PAYLOAD   LEN + 1 bytes, only when CMD bit 7 is set
 *   last 2   CRC       CRC-16/CCITT-FALSE of every byte before it
 *
 * Response (device -> host):
 *
 *   0        SOF_RSP   0x5A (SOF_IRQ 0x96 for an interrupt frame)
 *   1        CMD       the request's CMD (CMD_IRQ for an interrupt frame)
 *   2        TAG       the request's TAG (interrupt frame: its number)
 *   3        STATUS
 *   4..5     DLEN      data bytes (0..256); 0 unless STATUS is OK
 *   6..      DATA      DLEN bytes
 *   last 2   CRC       as above
 *
 * Commands (the address check failing gives OUT_OF_WINDOW, a wrong LEN or
 * alignment BAD_ARG, an AXI BRESP/RRESP r != OKAY gives STATUS_AXI | r):
 *
 *   INFO       0x01  DATA: INFO_LEN bytes (magic, version, the windows,
 *                    counters; offsets in froce_uart_proto.h)
 *   BAR0_RD32  0x02  LEN 3, ADDR 4-aligned < 2^BAR0_ADDR_WIDTH; one
 *                    AXI-Lite read on m_axil_*; DATA: 4 bytes
 *   MEM_RD     0x04  ADDR..ADDR+LEN in the memory window
 *                    [MEM_BASE, MEM_BASE + 2^MEM_ADDR_WIDTH); DATA: LEN + 1
 *                    bytes, each read from m_mem_* just before it is sent
 *   BAR0_WR32  0x82  LEN 3, as BAR0_RD32; one AXI-Lite write, WSTRB 0xF
 *   DB_WR64    0x83  LEN 7, ADDR 8-aligned < 2^BAR2_ADDR_WIDTH; exactly
 *                    one 64-bit write on m_axil_db_*, WSTRB 0xFF
 *   MEM_WR     0x84  LEN + 1 payload bytes to ADDR.. in the window, after
 *                    the CRC checked (a bad frame changes nothing): one
 *                    m_mem_* write per byte (its lane's strobe), in order
 *
 * Parser: bytes from the receiver wait in an RX_FIFO_DEPTH-byte FIFO
 * (block RAM; bytes arriving while it is full are dropped and counted:
 * overrun), the payload in a 256-byte frame buffer (block RAM). In
 * idle, bytes other than SOF_REQ are discarded; SOF_REQ starts a frame
 * whose length follows from CMD bit 7 and LEN alone, so unknown commands
 * are framed too. Then:
 *   - bad CRC: STATUS BAD_CRC (CMD, TAG as received), nothing executed;
 *     the parser hunts for the next SOF_REQ.
 *   - no byte for TIMEOUT_CYCLES in the middle of a frame: the frame is
 *     dropped (counted); if its TAG had arrived, STATUS TIMEOUT is sent
 *     with it, so the host can resend at once. The link never wedges.
 *   - unknown CMD (good CRC): BAD_CMD.
 * A frame is executed and answered before the next byte is parsed.
 *
 * Exactly-once writes: the host resends a request with the same TAG when a
 * response is lost. Reads and MEM_WR may simply run again, but a
 * BAR0 write can have side effects (CMD_DOORBELL, EQ_DOORBELL) and so can
 * a doorbell. The bridge therefore remembers the TAG, CRC and STATUS of
 * the last executed write (BAR0_WR32, DB_WR64, MEM_WR): a write frame with
 * the same TAG and CRC is answered with the stored STATUS and not executed
 * again (counted: INFO CNT_DUP). Any other request with a good CRC
 * forgets it (the host sends INFO when it opens the link, so a new
 * program's first write is never mistaken for a resend); BAD_CRC and
 * TIMEOUT frames leave it.
 *
 * Interrupts: irq_valid/irq_vector (froce_core m_msix_*) is always taken
 * (irq_ready = 1) and sets a pending bit per vector (vectors >=
 * NUM_VECTORS are ignored). Between requests (idle, before the next
 * SOF_REQ is taken) pending bits go out as an interrupt frame: SOF_IRQ,
 * CMD_IRQ, TAG = its number (mod 256; INFO CNT_IRQ counts them and tells
 * the host the next number), DATA = the 32-bit pending bitmap, which is
 * then cleared. Bits set again meanwhile wait for the next frame, so
 * nothing is lost and bursts coalesce. When a request is waiting in the
 * FIFO, at most one interrupt frame goes before it (an interrupt storm
 * cannot starve requests, nor fill the FIFO behind them). froce_core
 * raises a vector only after the EQE it announces is written (B
 * received), and the RAM holds a write from its W handshake, so a host
 * read after the frame sees the EQE. Interrupt frames are not
 * acknowledged: the host detects a lost one by a gap in their numbers.
 *
 * Rates: one request or frame at a time; the parser and executor take a
 * few cycles per byte (MEM_WR: 3 per byte after the frame, MEM_RD: about
 * 6 per byte while sending), the UART ten bit times (333 cycles at 100 MHz
 * and 3 Mbaud), so the UART is the limit: about 300 KB/s each way, a
 * 256-byte MEM_RD or MEM_WR about 0.9 ms on the wire, a BAR0 read
 * 28 bytes there and back (about 0.1 ms plus the USB latency).
 *
 * Timing: the FIFO's and the frame buffer's block RAM outputs (slow on
 * ECP5: about 5.8 ns clock-to-out) go to a register through at most one
 * level of logic; the 40-byte INFO multiplexer has its own register;
 * interrupt pending bits reach the state machine as one registered flag.
 * froce_uart_host (this bridge and froce_axi_ram) places and routes at
 * 111 to 114 MHz on an ECP5-85 (nextpnr, out of context).
 *
 * Not handled: an AXI-Lite slave that never answers stalls the bridge
 * (froce_core's BAR0 and BAR2 always answer).
 */
module froce_uart_host_bridge #(
    parameter CLK_HZ = 100000000,               // clk frequency in Hz
    parameter BAUD = 3000000,                   // UART bit rate (FT2232H: 3 Mbaud); CLK_HZ >= 4 * BAUD
    parameter BAR0_ADDR_WIDTH = 14,             // BAR0 window 2^N bytes, 12..32 (froce_core FROCE_BAR0_ADDR_W)
    parameter BAR2_ADDR_WIDTH = 20,             // BAR2 doorbell window 2^N bytes, 12..32 (froce_core DB_ADDR_W)
    parameter MEM_ADDR_WIDTH = 16,              // host-memory window 2^N bytes, 12..24 (froce_axi_ram)
    parameter [63:0] MEM_BASE = 64'h0,          // address of the window (froce_axi_ram MEM_BASE), aligned to its size
    parameter NUM_VECTORS = 32,                 // interrupt vectors, 1..32
    parameter TIMEOUT_CYCLES = CLK_HZ / 100,    // idle cycles that end a partial frame (> 2 byte times; 10 ms)
    parameter RX_FIFO_DEPTH = 512,              // receive FIFO bytes, a power of two >= 16
    parameter [31:0] USER_ID = 32'd0            // INFO USER_ID (e.g. a build id)
) (
    input  wire                         clk,
    input  wire                         rst,

    /* UART pins (uart_rxd asynchronous) */
    input  wire                         uart_rxd,
    output wire                         uart_txd,

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

    /* AXI4-Lite master, write only: BAR2 doorbells (froce_core s_axil_db_*) */
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

    /* Host-memory RAM word port (froce_axi_ram s_mem_*) */
    output wire                         m_mem_req,
    output wire                         m_mem_we,
    output wire [MEM_ADDR_WIDTH-4:0]    m_mem_addr,
    output wire [63:0]                  m_mem_wdata,
    output wire [7:0]                   m_mem_wstrb,
    input  wire                         m_mem_ack,
    input  wire                         m_mem_rvalid,
    input  wire [63:0]                  m_mem_rdata,

    /* Interrupt requests (froce_core m_msix_*) */
    input  wire                         irq_valid,
    input  wire [4:0]                   irq_vector,
    output wire                         irq_ready
);

/* Protocol numbers: fpga/common/host/froce_uart_proto.h (checked) */
localparam [7:0] PROTO_VERSION = 8'd1;
localparam [31:0] INFO_MAGIC = 32'h4C555246;
localparam [7:0] SOF_REQ = 8'hA5;
localparam [7:0] SOF_RSP = 8'h5A;
localparam [7:0] SOF_IRQ = 8'h96;
localparam REQ_HDR_LEN = 12;
localparam RSP_HDR_LEN = 6;
localparam CRC_LEN = 2;
localparam MAX_DATA = 256;
localparam [15:0] CRC_POLY = 16'h1021;
localparam [15:0] CRC_INIT = 16'hFFFF;
localparam [7:0] CMD_PAYLOAD_FLAG = 8'h80;
localparam [7:0] CMD_INFO = 8'h01;
localparam [7:0] CMD_BAR0_RD32 = 8'h02;
localparam [7:0] CMD_MEM_RD = 8'h04;
localparam [7:0] CMD_BAR0_WR32 = 8'h82;
localparam [7:0] CMD_DB_WR64 = 8'h83;
localparam [7:0] CMD_MEM_WR = 8'h84;
localparam [7:0] CMD_IRQ = 8'h7E;
localparam [7:0] STATUS_OK = 8'h00;
localparam [7:0] STATUS_BAD_CRC = 8'h01;
localparam [7:0] STATUS_BAD_CMD = 8'h02;
localparam [7:0] STATUS_BAD_ARG = 8'h03;
localparam [7:0] STATUS_OUT_OF_WINDOW = 8'h04;
localparam [7:0] STATUS_TIMEOUT = 8'h05;
localparam [7:0] STATUS_AXI = 8'h08;
localparam INFO_LEN = 40;
localparam IRQ_LEN = 4;

localparam MW = MEM_ADDR_WIDTH;
localparam WW = MEM_ADDR_WIDTH - 3;             // RAM word index bits
localparam TW = $clog2(TIMEOUT_CYCLES + 1);
localparam [31:0] TIMEOUT_LAST_C = TIMEOUT_CYCLES - 1;
localparam [TW-1:0] TIMEOUT_LAST = TIMEOUT_LAST_C[TW-1:0];
localparam [63:0] BASE_C = MEM_BASE;
localparam [63:0] MEM_SIZE = 64'd1 << MEM_ADDR_WIDTH;
localparam [31:0] NV_C = NUM_VECTORS;
localparam [31:0] BAR0_AW_C = BAR0_ADDR_WIDTH;
localparam [31:0] BAR2_AW_C = BAR2_ADDR_WIDTH;
localparam [31:0] VEC_MASK = NUM_VECTORS >= 32 ? 32'hFFFFFFFF : (32'd1 << NUM_VECTORS) - 32'd1;
localparam [31:0] DATA_START_C = RSP_HDR_LEN;
localparam [31:0] INFO_END_C = RSP_HDR_LEN + INFO_LEN;
localparam [31:0] IRQ_END_C = RSP_HDR_LEN + IRQ_LEN;
localparam [31:0] HDR_LAST_C = REQ_HDR_LEN - 2;     // idx of the last header byte after SOF
localparam [31:0] CRC_LAST_C = CRC_LEN - 1;
localparam [9:0] DATA_START = DATA_START_C[9:0];
localparam [9:0] INFO_END = INFO_END_C[9:0];
localparam [9:0] IRQ_END = IRQ_END_C[9:0];
localparam [7:0] HDR_LAST = HDR_LAST_C[7:0];
localparam [7:0] CRC_LAST = CRC_LAST_C[7:0];
localparam [9:0] CRC_LAST_W = CRC_LAST_C[9:0];

localparam [4:0]
    S_IDLE       = 5'd0,    // interrupt frame, or hunting for SOF_REQ
    S_HDR        = 5'd1,    // CMD, TAG, LEN, ADDR
    S_PAY        = 5'd2,    // payload into the frame buffer
    S_CRC        = 5'd3,    // the two CRC bytes
    S_CHECK      = 5'd4,    // CRC, resend, command and argument checks
    S_RD32       = 5'd5,    // BAR0 read: AR
    S_RD32_RESP  = 5'd6,    // BAR0 read: R
    S_WR         = 5'd7,    // BAR0 or BAR2 write: AW and W
    S_WR_RESP    = 5'd8,    // B
    S_MW_READ    = 5'd9,    // MEM_WR: read a payload byte from the buffer
    S_MW_LOAD    = 5'd10,   // MEM_WR: into buf_q2_reg
    S_MW_WRITE   = 5'd11,   // MEM_WR: write it to the RAM (one byte lane)
    S_RSP        = 5'd12,   // set up the response or interrupt frame
    S_TX_BYTE    = 5'd13,   // next byte of the frame (or fetch data)
    S_TX_WAIT    = 5'd14,   // byte handed to the UART transmitter
    S_FETCH      = 5'd15,   // MEM_RD: read the RAM word of the next byte
    S_FETCH_WAIT = 5'd16,   // MEM_RD: take the byte from it
    S_INFO       = 5'd17;   // INFO: take the byte from info_byte_reg

localparam [1:0]
    SRC_WORD = 2'd0,        // DATA from d32_reg (BAR0_RD32, interrupt frame)
    SRC_MEM  = 2'd1,        // DATA from the RAM (MEM_RD)
    SRC_INFO = 2'd2;        // DATA from the INFO words

initial begin
    if (BAR0_ADDR_WIDTH < 12 || BAR0_ADDR_WIDTH > 32 || BAR2_ADDR_WIDTH < 12 || BAR2_ADDR_WIDTH > 32 ||
        MEM_ADDR_WIDTH < 12 || MEM_ADDR_WIDTH > 24 || (MEM_BASE & (MEM_SIZE - 64'd1)) != 64'd0 ||
        NUM_VECTORS < 1 || NUM_VECTORS > 32 || RX_FIFO_DEPTH < 16 ||
        (1 << $clog2(RX_FIFO_DEPTH)) != RX_FIFO_DEPTH || TIMEOUT_CYCLES <= 20 * (CLK_HZ / BAUD)) begin
        $display("froce_uart_host_bridge: bad parameters");
        $finish;
    end
end

generate
    if (BAR0_ADDR_WIDTH < 12 || BAR0_ADDR_WIDTH > 32 || BAR2_ADDR_WIDTH < 12 || BAR2_ADDR_WIDTH > 32 ||
        MEM_ADDR_WIDTH < 12 || MEM_ADDR_WIDTH > 24 || (MEM_BASE & (MEM_SIZE - 64'd1)) != 64'd0 ||
        NUM_VECTORS < 1 || NUM_VECTORS > 32 || RX_FIFO_DEPTH < 16 ||
        (1 << $clog2(RX_FIFO_DEPTH)) != RX_FIFO_DEPTH || TIMEOUT_CYCLES <= 20 * (CLK_HZ / BAUD)) begin : g_bad_parameter
        froce_uart_host_bridge_bad_parameter u_bad_parameter ();
    end
endgenerate

// CRC-16/CCITT-FALSE, one byte
function [15:0] crc16_byte;
    input [15:0] crc;
    input [7:0] data;
    integer i;
    reg [15:0] c;
    begin
        c = crc ^ {data, 8'h00};
        for (i = 0; i < 8; i = i + 1)
            c = c[15] ? {c[14:0], 1'b0} ^ CRC_POLY : {c[14:0], 1'b0};
        crc16_byte = c;
    end
endfunction

/* ------------------------------------------------------------------------
 * UART and receive FIFO
 * ------------------------------------------------------------------------ */

wire [7:0] rx_data;
wire rx_valid;
wire rx_ferr;
wire [7:0] fifo_data;
wire fifo_empty;
reg [7:0] rxb_reg = 8'd0;                           // the next received byte for the parser
reg rxb_valid_reg = 1'b0;
wire fifo_full;
wire [$clog2(RX_FIFO_DEPTH):0] unused_fifo_count;
wire fifo_rd;
wire tx_ready;
reg [7:0] tx_data_reg = 8'd0, tx_data_next;
reg tx_valid_reg = 1'b0, tx_valid_next;

froce_uart_rx #(
    .CLK_HZ(CLK_HZ),
    .BAUD(BAUD)
) u_rx (
    .clk(clk),
    .rst(rst),
    .rxd(uart_rxd),
    .m_data(rx_data),
    .m_valid(rx_valid),
    .framing_error(rx_ferr)
);

froce_fifo #(
    .WIDTH(8),
    .DEPTH(RX_FIFO_DEPTH),
    .REG_OUT(1)
) u_rx_fifo (
    .clk(clk),
    .rst(rst),
    .wr_data(rx_data),
    .wr_en(rx_valid),
    .rd_data(fifo_data),
    .rd_en(fifo_rd),
    .count(unused_fifo_count),
    .empty(fifo_empty),
    .full(fifo_full)
);

froce_uart_tx #(
    .CLK_HZ(CLK_HZ),
    .BAUD(BAUD)
) u_tx (
    .clk(clk),
    .rst(rst),
    .s_data(tx_data_reg),
    .s_valid(tx_valid_reg),
    .s_ready(tx_ready),
    .txd(uart_txd)
);

/* ------------------------------------------------------------------------
 * Frame buffer: the payload of the current request, byte by byte
 * ------------------------------------------------------------------------ */

reg [7:0] buf_mem [0:255];
reg [7:0] buf_q_reg = 8'd0;
reg [7:0] buf_q2_reg = 8'd0;                        // buf_q_reg a cycle later (MEM_WR data)
reg buf_we;
reg [7:0] idx_reg = 8'd0, idx_next;                 // byte index in the field / payload

// written at idx_reg while the payload arrives, read at idx_reg by MEM_WR
always @(posedge clk) begin
    if (buf_we)
        buf_mem[idx_reg] <= rxb_reg;
    buf_q_reg <= buf_mem[idx_reg];
    buf_q2_reg <= buf_q_reg;
end

/* ------------------------------------------------------------------------
 * Request parser, executor and frame transmitter
 * ------------------------------------------------------------------------ */

reg [4:0]       state_reg = S_IDLE, state_next;
reg [7:0]       cmd_reg = 8'd0, cmd_next;
reg [7:0]       tag_reg = 8'd0, tag_next;
reg [7:0]       len_reg = 8'd0, len_next;
reg [63:0]      addr_reg = 64'd0, addr_next;
reg [15:0]      crc_reg = CRC_INIT, crc_next;       // CRC of the request so far
reg [15:0]      rx_crc_reg = 16'd0, rx_crc_next;    // CRC field of the request
reg [63:0]      pay_reg = 64'd0, pay_next;          // the last 8 payload bytes (BAR0/BAR2 write data)
reg [TW-1:0]    tcnt_reg = {TW{1'b0}}, tcnt_next;   // idle cycles in a frame
reg             is_irq_reg = 1'b0, is_irq_next;     // the frame being sent is an interrupt frame
reg [7:0]       status_reg = 8'd0, status_next;
reg [9:0]       data_end_reg = 10'd0, data_end_next; // RSP_HDR_LEN + DLEN
reg [9:0]       tx_idx_reg = 10'd0, tx_idx_next;    // byte of the frame being sent
reg [15:0]      tx_crc_reg = CRC_INIT, tx_crc_next;
reg [31:0]      d32_reg = 32'd0, d32_next;          // BAR0 read data, interrupt bitmap
reg [7:0]       byte_reg = 8'd0, byte_next;         // the next DATA byte to send
reg [2:0]       lane_reg = 3'd0, lane_next;         // byte lane in the RAM word / d32_reg
reg             have_reg = 1'b0, have_next;         // byte_reg holds the next DATA byte
reg [1:0]       src_reg = SRC_WORD, src_next;
reg [5:0]       didx_reg = 6'd0, didx_next;         // DATA byte being sent (INFO, d32_reg: < 64)
reg [WW-1:0]    waddr_reg = {WW{1'b0}}, waddr_next; // RAM word (or INFO word) to access next
reg             mem_req_reg = 1'b0, mem_req_next;
reg             mem_we_reg = 1'b0, mem_we_next;
reg             arvalid_reg = 1'b0, arvalid_next;
reg             awvalid_reg = 1'b0, awvalid_next;
reg             wvalid_reg = 1'b0, wvalid_next;
reg             wsel_reg = 1'b0, wsel_next;         // write to 0: BAR0, 1: BAR2
reg             dup_valid_reg = 1'b0, dup_valid_next; // last executed request was a write
reg [7:0]       dup_tag_reg = 8'd0, dup_tag_next;
reg [15:0]      dup_crc_reg = 16'd0, dup_crc_next;
reg [7:0]       dup_status_reg = 8'd0, dup_status_next;
reg [31:0]      irq_pend_reg = 32'd0;
reg             irq_last_reg = 1'b0, irq_last_next; // the last frame sent was an interrupt frame
reg             irq_any_reg = 1'b0;                 // irq_pend_reg != 0 a cycle ago (pending bits are
                                                    // cleared only when taken, and S_IDLE comes back
                                                    // long after that: 1 here means bits are pending)

// window checks, registered from addr_reg/len_reg (stable two cycles
// before S_CHECK: the CRC bytes come after them)
reg             bar0_in_reg = 1'b0, bar2_in_reg = 1'b0, mem_in_reg = 1'b0, mem_end_reg = 1'b0;

// event counters (INFO), modulo 2^16
reg [15:0]      cnt_framing_reg = 16'd0, cnt_overrun_reg = 16'd0, cnt_bad_crc_reg = 16'd0;
reg [15:0]      cnt_timeout_reg = 16'd0, cnt_dup_reg = 16'd0, cnt_irq_reg = 16'd0;

// events of this cycle
reg             pop;
reg             irq_take;
reg             ev_bad_crc, ev_timeout, ev_dup, ev_irq_sent;
reg             waiting;                            // in a frame, no byte this cycle

wire            cmd_is_write = cmd_reg == CMD_BAR0_WR32 || cmd_reg == CMD_DB_WR64 || cmd_reg == CMD_MEM_WR;
wire            aw_ready = wsel_reg ? m_axil_db_awready : m_axil_awready;
wire            w_ready = wsel_reg ? m_axil_db_wready : m_axil_wready;
wire            b_valid = wsel_reg ? m_axil_db_bvalid : m_axil_bvalid;
wire [1:0]      b_resp = wsel_reg ? m_axil_db_bresp : m_axil_bresp;
wire [MW:0]     mem_last = {1'b0, addr_reg[MW-1:0]} + {{(MW - 7){1'b0}}, len_reg};   // carry: past the window
wire            in_data = tx_idx_reg >= DATA_START && tx_idx_reg < data_end_reg;

// the FIFO's head (a block RAM read register, slow to leave) is copied to
// rxb_reg before the parser looks at it; refilled when empty (the parser
// takes at most one byte every two cycles)
assign fifo_rd = !fifo_empty && !rxb_valid_reg;

always @(posedge clk) begin
    if (fifo_rd) begin
        rxb_reg <= fifo_data;
        rxb_valid_reg <= 1'b1;
    end else if (pop) begin
        rxb_valid_reg <= 1'b0;
    end
    if (rst)
        rxb_valid_reg <= 1'b0;
end

assign m_axil_araddr = addr_reg[BAR0_ADDR_WIDTH-1:0];
assign m_axil_arvalid = arvalid_reg;
assign m_axil_rready = state_reg == S_RD32_RESP;
assign m_axil_awaddr = addr_reg[BAR0_ADDR_WIDTH-1:0];
assign m_axil_awvalid = awvalid_reg && !wsel_reg;
assign m_axil_wdata = pay_reg[63:32];
assign m_axil_wstrb = 4'hF;
assign m_axil_wvalid = wvalid_reg && !wsel_reg;
assign m_axil_bready = state_reg == S_WR_RESP && !wsel_reg;
assign m_axil_db_awaddr = addr_reg[BAR2_ADDR_WIDTH-1:0];
assign m_axil_db_awvalid = awvalid_reg && wsel_reg;
assign m_axil_db_wdata = pay_reg;
assign m_axil_db_wstrb = 8'hFF;
assign m_axil_db_wvalid = wvalid_reg && wsel_reg;
assign m_axil_db_bready = state_reg == S_WR_RESP && wsel_reg;

assign m_mem_req = mem_req_reg;
assign m_mem_we = mem_we_reg;
assign m_mem_addr = waddr_reg;
assign m_mem_wdata = {8{buf_q2_reg}};               // one byte per write, in every lane
assign m_mem_wstrb = 8'd1 << lane_reg;              // and its strobe

assign irq_ready = 1'b1;

// INFO data, word k (bytes 8k .. 8k + 7)
function [63:0] info_word;
    input [2:0] k;
    begin
        case (k)
            3'd0: info_word = {NV_C[7:0], BAR2_AW_C[7:0], BAR0_AW_C[7:0], PROTO_VERSION, INFO_MAGIC};
            3'd1: info_word = BASE_C;
            3'd2: info_word = MEM_SIZE;
            3'd3: info_word = {cnt_timeout_reg, cnt_bad_crc_reg, cnt_overrun_reg, cnt_framing_reg};
            3'd4: info_word = {cnt_irq_reg, cnt_dup_reg, USER_ID};
            default: info_word = 64'd0;
        endcase
    end
endfunction

// byte lane of a 64-bit word
function [7:0] lane_of;
    input [63:0] w;
    input [2:0] lane;
    integer i;
    begin
        lane_of = w[7:0];
        for (i = 1; i < 8; i = i + 1)
            if (lane == i[2:0])
                lane_of = w[i * 8 +: 8];
    end
endfunction

// the INFO byte didx_reg, registered (the 40-byte multiplexer is not in
// front of byte_reg's other inputs)
reg [7:0] info_byte_reg = 8'd0;

always @(posedge clk)
    info_byte_reg <= lane_of(info_word(didx_reg[5:3]), didx_reg[2:0]);

// byte tx_idx_reg of the frame being sent
reg [7:0] tx_byte;
always @* begin
    if (in_data)
        tx_byte = byte_reg;
    else if (tx_idx_reg == data_end_reg)
        tx_byte = tx_crc_reg[7:0];
    else if (tx_idx_reg > data_end_reg)
        tx_byte = tx_crc_reg[15:8];
    else
        case (tx_idx_reg[2:0])
            3'd0: tx_byte = is_irq_reg ? SOF_IRQ : SOF_RSP;
            3'd1: tx_byte = cmd_reg;
            3'd2: tx_byte = tag_reg;
            3'd3: tx_byte = status_reg;
            3'd4: tx_byte = data_end_reg[7:0] - DATA_START[7:0];
            default: tx_byte = {7'd0, data_end_reg - DATA_START > 10'd255};
        endcase
end

always @* begin
    state_next = state_reg;
    cmd_next = cmd_reg;
    tag_next = tag_reg;
    len_next = len_reg;
    addr_next = addr_reg;
    idx_next = idx_reg;
    crc_next = crc_reg;
    rx_crc_next = rx_crc_reg;
    pay_next = pay_reg;
    tcnt_next = tcnt_reg;
    is_irq_next = is_irq_reg;
    status_next = status_reg;
    data_end_next = data_end_reg;
    tx_idx_next = tx_idx_reg;
    tx_crc_next = tx_crc_reg;
    tx_data_next = tx_data_reg;
    tx_valid_next = tx_valid_reg;
    d32_next = d32_reg;
    byte_next = byte_reg;
    lane_next = lane_reg;
    have_next = have_reg;
    src_next = src_reg;
    didx_next = didx_reg;
    waddr_next = waddr_reg;
    mem_req_next = mem_req_reg;
    mem_we_next = mem_we_reg;
    arvalid_next = arvalid_reg;
    awvalid_next = awvalid_reg;
    wvalid_next = wvalid_reg;
    wsel_next = wsel_reg;
    dup_valid_next = dup_valid_reg;
    dup_tag_next = dup_tag_reg;
    dup_crc_next = dup_crc_reg;
    dup_status_next = dup_status_reg;
    irq_last_next = irq_last_reg;

    pop = 1'b0;
    irq_take = 1'b0;
    buf_we = 1'b0;
    ev_bad_crc = 1'b0;
    ev_timeout = 1'b0;
    ev_dup = 1'b0;
    ev_irq_sent = 1'b0;
    waiting = 1'b0;

    case (state_reg)
        S_IDLE: begin
            idx_next = 8'd0;
            tcnt_next = {TW{1'b0}};
            if (irq_any_reg && (!rxb_valid_reg || !irq_last_reg)) begin
                irq_take = 1'b1;
                is_irq_next = 1'b1;
                cmd_next = CMD_IRQ;
                tag_next = cnt_irq_reg[7:0];
                status_next = STATUS_OK;
                d32_next = irq_pend_reg;
                state_next = S_RSP;
            end else if (rxb_valid_reg) begin
                pop = 1'b1;
                irq_last_next = 1'b0;
                if (rxb_reg == SOF_REQ) begin
                    is_irq_next = 1'b0;
                    crc_next = crc16_byte(CRC_INIT, SOF_REQ);
                    state_next = S_HDR;
                end
            end
        end
        S_HDR: begin
            if (rxb_valid_reg) begin
                pop = 1'b1;
                tcnt_next = {TW{1'b0}};
                crc_next = crc16_byte(crc_reg, rxb_reg);
                idx_next = idx_reg + 1'b1;
                case (idx_reg)
                    8'd0: cmd_next = rxb_reg;
                    8'd1: tag_next = rxb_reg;
                    8'd2: len_next = rxb_reg;
                    default: addr_next = {rxb_reg, addr_reg[63:8]};
                endcase
                if (idx_reg == HDR_LAST) begin
                    idx_next = 8'd0;
                    state_next = (cmd_reg & CMD_PAYLOAD_FLAG) != 8'd0 ? S_PAY : S_CRC;
                end
            end else begin
                waiting = 1'b1;
            end
        end
        S_PAY: begin
            if (rxb_valid_reg) begin
                pop = 1'b1;
                tcnt_next = {TW{1'b0}};
                crc_next = crc16_byte(crc_reg, rxb_reg);
                buf_we = 1'b1;
                pay_next = {rxb_reg, pay_reg[63:8]};
                idx_next = idx_reg + 1'b1;
                if (idx_reg == len_reg) begin
                    idx_next = 8'd0;
                    state_next = S_CRC;
                end
            end else begin
                waiting = 1'b1;
            end
        end
        S_CRC: begin
            if (rxb_valid_reg) begin
                pop = 1'b1;
                tcnt_next = {TW{1'b0}};
                rx_crc_next = {rxb_reg, rx_crc_reg[15:8]};
                idx_next = idx_reg + 1'b1;
                if (idx_reg == CRC_LAST)
                    state_next = S_CHECK;
            end else begin
                waiting = 1'b1;
            end
        end
        S_CHECK: begin
            idx_next = 8'd0;
            state_next = S_RSP;
            status_next = STATUS_OK;
            if (rx_crc_reg != crc_reg) begin
                status_next = STATUS_BAD_CRC;
                ev_bad_crc = 1'b1;
            end else if (cmd_is_write && dup_valid_reg && tag_reg == dup_tag_reg && rx_crc_reg == dup_crc_reg) begin
                status_next = dup_status_reg;                   // a resend: answered, not executed
                ev_dup = 1'b1;
            end else begin
                case (cmd_reg)
                    CMD_INFO: ;
                    CMD_BAR0_RD32, CMD_BAR0_WR32: begin
                        if (len_reg != 8'd3 || addr_reg[1:0] != 2'd0) begin
                            status_next = STATUS_BAD_ARG;
                        end else if (!bar0_in_reg) begin
                            status_next = STATUS_OUT_OF_WINDOW;
                        end else if (cmd_reg == CMD_BAR0_RD32) begin
                            arvalid_next = 1'b1;
                            state_next = S_RD32;
                        end else begin
                            wsel_next = 1'b0;
                            awvalid_next = 1'b1;
                            wvalid_next = 1'b1;
                            state_next = S_WR;
                        end
                    end
                    CMD_DB_WR64: begin
                        if (len_reg != 8'd7 || addr_reg[2:0] != 3'd0) begin
                            status_next = STATUS_BAD_ARG;
                        end else if (!bar2_in_reg) begin
                            status_next = STATUS_OUT_OF_WINDOW;
                        end else begin
                            wsel_next = 1'b1;
                            awvalid_next = 1'b1;
                            wvalid_next = 1'b1;
                            state_next = S_WR;
                        end
                    end
                    CMD_MEM_RD, CMD_MEM_WR: begin
                        if (!mem_in_reg || !mem_end_reg) begin
                            status_next = STATUS_OUT_OF_WINDOW;
                        end else if (cmd_reg == CMD_MEM_WR) begin
                            lane_next = addr_reg[2:0];
                            waddr_next = addr_reg[MW-1:3];
                            state_next = S_MW_READ;
                        end
                    end
                    default: status_next = STATUS_BAD_CMD;
                endcase
            end
        end
        S_RD32: begin
            if (m_axil_arready) begin
                arvalid_next = 1'b0;
                state_next = S_RD32_RESP;
            end
        end
        S_RD32_RESP: begin
            if (m_axil_rvalid) begin
                d32_next = m_axil_rdata;
                status_next = m_axil_rresp == 2'b00 ? STATUS_OK : STATUS_AXI | {6'd0, m_axil_rresp};
                state_next = S_RSP;
            end
        end
        S_WR: begin
            if (aw_ready)
                awvalid_next = 1'b0;
            if (w_ready)
                wvalid_next = 1'b0;
            if (!awvalid_next && !wvalid_next)
                state_next = S_WR_RESP;
        end
        S_WR_RESP: begin
            if (b_valid) begin
                status_next = b_resp == 2'b00 ? STATUS_OK : STATUS_AXI | {6'd0, b_resp};
                state_next = S_RSP;
            end
        end
        S_MW_READ: begin
            state_next = S_MW_LOAD;                             // buf_q_reg: payload byte idx_reg
        end
        S_MW_LOAD: begin
            mem_req_next = 1'b1;                                // buf_q2_reg: the byte, from the next cycle
            mem_we_next = 1'b1;
            state_next = S_MW_WRITE;
        end
        S_MW_WRITE: begin
            if (m_mem_ack) begin
                mem_req_next = 1'b0;
                mem_we_next = 1'b0;
                lane_next = lane_reg + 1'b1;
                if (lane_reg == 3'd7)
                    waddr_next = waddr_reg + 1'b1;
                if (idx_reg == len_reg) begin
                    state_next = S_RSP;
                end else begin
                    idx_next = idx_reg + 1'b1;
                    state_next = S_MW_READ;
                end
            end
        end
        S_RSP: begin
            tx_idx_next = 10'd0;
            tx_crc_next = CRC_INIT;
            didx_next = 6'd0;
            have_next = 1'b0;
            src_next = SRC_WORD;
            data_end_next = DATA_START;
            if (status_reg == STATUS_OK) begin
                case (cmd_reg)
                    CMD_INFO: begin
                        data_end_next = INFO_END;
                        src_next = SRC_INFO;
                    end
                    CMD_BAR0_RD32: data_end_next = DATA_START + 10'd4;
                    CMD_IRQ: if (is_irq_reg) data_end_next = IRQ_END;
                    CMD_MEM_RD: begin
                        data_end_next = DATA_START + {2'd0, len_reg} + 10'd1;
                        src_next = SRC_MEM;
                        lane_next = addr_reg[2:0];
                        waddr_next = addr_reg[MW-1:3];
                    end
                    default: ;
                endcase
            end
            // remember an executed write for resends; other good requests forget
            if (!is_irq_reg && status_reg != STATUS_BAD_CRC && status_reg != STATUS_TIMEOUT) begin
                dup_valid_next = cmd_is_write;
                dup_tag_next = tag_reg;
                dup_crc_next = rx_crc_reg;
                dup_status_next = status_reg;
            end
            state_next = S_TX_BYTE;
        end
        S_TX_BYTE: begin
            if (in_data && !have_reg) begin
                have_next = 1'b1;
                case (src_reg)
                    SRC_MEM: begin
                        have_next = 1'b0;
                        mem_req_next = 1'b1;
                        mem_we_next = 1'b0;
                        state_next = S_FETCH;
                    end
                    SRC_INFO: begin
                        have_next = 1'b0;
                        state_next = S_INFO;
                    end
                    default: byte_next = lane_of({32'd0, d32_reg}, didx_reg[2:0]);
                endcase
            end else begin
                tx_data_next = tx_byte;
                tx_valid_next = 1'b1;
                state_next = S_TX_WAIT;
            end
        end
        S_TX_WAIT: begin
            if (tx_ready) begin
                tx_valid_next = 1'b0;
                tx_idx_next = tx_idx_reg + 1'b1;
                if (tx_idx_reg < data_end_reg)
                    tx_crc_next = crc16_byte(tx_crc_reg, tx_data_reg);
                if (in_data) begin
                    have_next = 1'b0;
                    didx_next = didx_reg + 1'b1;
                    lane_next = lane_reg + 1'b1;
                    if (lane_reg == 3'd7)
                        waddr_next = waddr_reg + 1'b1;
                end
                if (tx_idx_reg == data_end_reg + CRC_LAST_W) begin
                    ev_irq_sent = is_irq_reg;
                    irq_last_next = is_irq_reg;
                    state_next = S_IDLE;
                end else begin
                    state_next = S_TX_BYTE;
                end
            end
        end
        S_FETCH: begin
            if (m_mem_ack) begin
                mem_req_next = 1'b0;
                state_next = S_FETCH_WAIT;
            end
        end
        S_INFO: begin
            byte_next = info_byte_reg;                          // of didx_reg, settled since S_TX_WAIT
            have_next = 1'b1;
            state_next = S_TX_BYTE;
        end
        S_FETCH_WAIT: begin
            if (m_mem_rvalid) begin
                byte_next = lane_of(m_mem_rdata, lane_reg);
                have_next = 1'b1;
                state_next = S_TX_BYTE;
            end
        end
        default: state_next = S_IDLE;
    endcase

    // a frame stalled mid-way: drop it; answer TIMEOUT once its TAG is known
    if (waiting) begin
        tcnt_next = tcnt_reg + 1'b1;
        if (tcnt_reg == TIMEOUT_LAST) begin
            ev_timeout = 1'b1;
            if (state_reg == S_HDR && idx_reg < 8'd2) begin
                state_next = S_IDLE;
            end else begin
                status_next = STATUS_TIMEOUT;
                state_next = S_RSP;
            end
        end
    end
end

wire [31:0] irq_set = irq_valid && {27'd0, irq_vector} < NV_C ? 32'd1 << irq_vector : 32'd0;

always @(posedge clk) begin
    state_reg <= state_next;
    cmd_reg <= cmd_next;
    tag_reg <= tag_next;
    len_reg <= len_next;
    addr_reg <= addr_next;
    idx_reg <= idx_next;
    crc_reg <= crc_next;
    rx_crc_reg <= rx_crc_next;
    pay_reg <= pay_next;
    tcnt_reg <= tcnt_next;
    is_irq_reg <= is_irq_next;
    status_reg <= status_next;
    data_end_reg <= data_end_next;
    tx_idx_reg <= tx_idx_next;
    tx_crc_reg <= tx_crc_next;
    tx_data_reg <= tx_data_next;
    tx_valid_reg <= tx_valid_next;
    d32_reg <= d32_next;
    byte_reg <= byte_next;
    lane_reg <= lane_next;
    have_reg <= have_next;
    src_reg <= src_next;
    didx_reg <= didx_next;
    waddr_reg <= waddr_next;
    mem_req_reg <= mem_req_next;
    mem_we_reg <= mem_we_next;
    arvalid_reg <= arvalid_next;
    awvalid_reg <= awvalid_next;
    wvalid_reg <= wvalid_next;
    wsel_reg <= wsel_next;
    dup_valid_reg <= dup_valid_next;
    dup_tag_reg <= dup_tag_next;
    dup_crc_reg <= dup_crc_next;
    dup_status_reg <= dup_status_next;
    irq_last_reg <= irq_last_next;

    irq_pend_reg <= ((irq_pend_reg & ~(irq_take ? irq_pend_reg : 32'd0)) | irq_set) & VEC_MASK;
    irq_any_reg <= irq_pend_reg != 32'd0 && !irq_take;

    bar0_in_reg <= addr_reg >> BAR0_ADDR_WIDTH == 64'd0;
    bar2_in_reg <= addr_reg >> BAR2_ADDR_WIDTH == 64'd0;
    mem_in_reg <= addr_reg >> MW == BASE_C >> MW;
    mem_end_reg <= !mem_last[MW];

    // event counters, modulo 2^16 (the host takes differences)
    if (rx_ferr)
        cnt_framing_reg <= cnt_framing_reg + 1'b1;
    if (rx_valid && fifo_full)
        cnt_overrun_reg <= cnt_overrun_reg + 1'b1;
    if (ev_bad_crc)
        cnt_bad_crc_reg <= cnt_bad_crc_reg + 1'b1;
    if (ev_timeout)
        cnt_timeout_reg <= cnt_timeout_reg + 1'b1;
    if (ev_dup)
        cnt_dup_reg <= cnt_dup_reg + 1'b1;
    if (ev_irq_sent)
        cnt_irq_reg <= cnt_irq_reg + 1'b1;      // also the interrupt frames' numbers

    if (rst) begin
        state_reg <= S_IDLE;
        tx_valid_reg <= 1'b0;
        mem_req_reg <= 1'b0;
        mem_we_reg <= 1'b0;
        arvalid_reg <= 1'b0;
        awvalid_reg <= 1'b0;
        wvalid_reg <= 1'b0;
        dup_valid_reg <= 1'b0;
        irq_pend_reg <= 32'd0;
        irq_any_reg <= 1'b0;
        irq_last_reg <= 1'b0;
        cnt_framing_reg <= 16'd0;
        cnt_overrun_reg <= 16'd0;
        cnt_bad_crc_reg <= 16'd0;
        cnt_timeout_reg <= 16'd0;
        cnt_dup_reg <= 16'd0;
        cnt_irq_reg <= 16'd0;
    end
end

// MAX_DATA: 256, as LEN's eight bits allow; the frame buffer above holds it
wire unused_params = MAX_DATA == 256;

endmodule

`resetall
