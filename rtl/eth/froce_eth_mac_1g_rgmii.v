// SPDX-License-Identifier: MIT
// 1 Gb/s Ethernet MAC with an RGMII PHY interface and DATA_WIDTH-bit AXI-Stream frame ports.

`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * froce_eth_mac_1g_tx/_rx (byte MACs) + froce_eth_rgmii_phy_if + width
 * conversion between the DATA_WIDTH-bit frame ports and the byte MACs
 * (see docs/ethernet-mac1g.md). Frames on the ports are destination MAC ..
 * payload, without preamble and FCS; tkeep is contiguous from bit 0, every
 * beat full except the last. 1000 Mb/s only.
 *
 * Clock domains (the frame ports are NOT in the core clock domain; a board
 * top puts asynchronous FIFOs between them and froce_core):
 *
 *   gtx_clk   125 MHz, ours: s_axis_*, tx_* counters, the RGMII output
 *   gtx_clk90 gtx_clk + 90 degrees, only for the forwarded TXC (USE_CLK90)
 *   rx_clk    125 MHz from the PHY (= rgmii_rx_clk): m_axis_*, rx_*
 *             counters; rx_rst is gtx_rst synchronised to it
 *
 * Transmit (s_axis_*): a two-beat buffer feeds the MAC a byte per clock.
 * Once a frame has started, its beats must keep up with the wire (one beat
 * per W = DATA_WIDTH/8 clocks; the buffer absorbs input pauses of up to
 * W - 2 clocks within a frame): if the buffer runs dry the MAC ends the
 * frame with tx_er (tx_underrun). Supply whole frames from a frame FIFO.
 * s_axis_tuser = 1 on any beat of a frame aborts it, as in the 10G MAC: the
 * frame is sent to its end and its FCS bytes go out with tx_er (tx_aborted).
 * A beat with tkeep = 0 carries no byte: on a tlast beat it still ends the
 * frame (the previous byte becomes the last), a frame with no byte at all
 * is dropped.
 *
 * Receive (m_axis_*): no tready, a beat can come every clock (at most
 * one in DATA_WIDTH/8 within a frame). tuser = 1 on the tlast beat marks a
 * bad frame (FCS, rx_er, runt, oversize); tdata bytes outside tkeep are 0.
 */
module froce_eth_mac_1g_rgmii #(
    parameter DATA_WIDTH = 64,          // frame port width in bits: a power of two, 16..512
    parameter USE_CLK90 = 1,            // 1: forward TXC from gtx_clk90; 0: from gtx_clk (PHY adds the TX delay)
    parameter IFG = 12,                 // minimum idle bytes between transmitted frames, 12..255
    parameter MAX_FRAME = 9600,         // longest received frame, bytes without FCS
    parameter COUNTER_WIDTH = 32        // width of the statistics counters (they wrap)
) (
    /* Clocks and reset */
    input  wire                         gtx_clk,
    input  wire                         gtx_clk90,
    input  wire                         gtx_rst,            // synchronous to gtx_clk
    output wire                         rx_clk,             // the PHY's receive clock
    output wire                         rx_rst,             // gtx_rst synchronised to rx_clk

    /* Transmit frames (gtx_clk) */
    input  wire [DATA_WIDTH-1:0]        s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axis_tkeep,
    input  wire                         s_axis_tvalid,
    output wire                         s_axis_tready,
    input  wire                         s_axis_tlast,
    input  wire                         s_axis_tuser,       // on any beat: abort the frame

    /* Received frames (rx_clk), no backpressure */
    output wire [DATA_WIDTH-1:0]        m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_axis_tkeep,
    output wire                         m_axis_tvalid,
    output wire                         m_axis_tlast,
    output wire                         m_axis_tuser,       // on the tlast beat: bad frame

    /* RGMII */
    input  wire                         rgmii_rx_clk,
    input  wire [3:0]                   rgmii_rxd,
    input  wire                         rgmii_rx_ctl,
    output wire                         rgmii_tx_clk,
    output wire [3:0]                   rgmii_txd,
    output wire                         rgmii_tx_ctl,

    /* Transmit statistics (gtx_clk) */
    output wire [COUNTER_WIDTH-1:0]     tx_frames,
    output wire [COUNTER_WIDTH-1:0]     tx_aborted,
    output wire [COUNTER_WIDTH-1:0]     tx_underrun,

    /* Receive statistics (rx_clk) */
    output wire [COUNTER_WIDTH-1:0]     rx_frames_ok,
    output wire [COUNTER_WIDTH-1:0]     rx_bad_fcs,
    output wire [COUNTER_WIDTH-1:0]     rx_err,
    output wire [COUNTER_WIDTH-1:0]     rx_runt,
    output wire [COUNTER_WIDTH-1:0]     rx_oversize
);

// bytes per beat
localparam W = DATA_WIDTH / 8;
// width of a byte index within a beat
localparam IW = $clog2(W);
// width of a byte count 0..W
localparam CW = $clog2(W + 1);

initial begin
    if ((1 << $clog2(DATA_WIDTH)) != DATA_WIDTH || DATA_WIDTH < 16 || DATA_WIDTH > 512) begin
        $display("froce_eth_mac_1g_rgmii: DATA_WIDTH must be a power of two, 16..512");
        $finish;
    end
end

wire [7:0] gmii_txd;
wire       gmii_tx_en;
wire       gmii_tx_er;
wire [7:0] gmii_rxd;
wire       gmii_rx_dv;
wire       gmii_rx_er;

froce_eth_rgmii_phy_if #(
    .USE_CLK90(USE_CLK90)
) u_phy_if (
    .gtx_clk(gtx_clk),
    .gtx_clk90(gtx_clk90),
    .gtx_rst(gtx_rst),
    .mac_gmii_txd(gmii_txd),
    .mac_gmii_tx_en(gmii_tx_en),
    .mac_gmii_tx_er(gmii_tx_er),
    .mac_gmii_rx_clk(rx_clk),
    .mac_gmii_rx_rst(rx_rst),
    .mac_gmii_rxd(gmii_rxd),
    .mac_gmii_rx_dv(gmii_rx_dv),
    .mac_gmii_rx_er(gmii_rx_er),
    .rgmii_rx_clk(rgmii_rx_clk),
    .rgmii_rxd(rgmii_rxd),
    .rgmii_rx_ctl(rgmii_rx_ctl),
    .rgmii_tx_clk(rgmii_tx_clk),
    .rgmii_txd(rgmii_txd),
    .rgmii_tx_ctl(rgmii_tx_ctl)
);

/*
 * Transmit: beats -> bytes.
 *
 * cur_* is the beat being serialised (byte cur_idx goes to the MAC), nxt_*
 * the one behind it; s_axis_tready = !nxt_valid, a register. The last
 * byte of a beat without tlast is offered only once the next beat is there,
 * because an empty (tkeep = 0) tlast beat after it makes that byte the
 * frame's last. Empty beats are stored only in that case (as "markers");
 * other empty beats are taken and dropped. A marker can only ever sit in
 * nxt: the beat in front of it has no tlast, so it waits for the marker.
 * A stored beat's user bit is the OR of tuser over the frame's beats so
 * far (abort_pending_reg), so the tlast byte carries any abort to the MAC.
 */
reg [DATA_WIDTH-1:0] cur_data_reg = {DATA_WIDTH{1'b0}};
reg [CW-1:0]         cur_cnt_reg = {CW{1'b0}};      // bytes in the beat, 1..W
reg                  cur_last_reg = 1'b0;
reg                  cur_user_reg = 1'b0;
reg                  cur_valid_reg = 1'b0;
reg [IW-1:0]         cur_idx_reg = {IW{1'b0}};
reg [DATA_WIDTH-1:0] nxt_data_reg = {DATA_WIDTH{1'b0}};
reg [CW-1:0]         nxt_cnt_reg = {CW{1'b0}};      // 0 only for a marker
reg                  nxt_last_reg = 1'b0;
reg                  nxt_user_reg = 1'b0;
reg                  nxt_valid_reg = 1'b0;
reg                  in_frame_reg = 1'b0;           // the last stored beat had no tlast
reg                  abort_pending_reg = 1'b0;      // tuser seen on a taken beat of the current frame

// bytes in the input beat: the run of ones of tkeep from bit 0
reg [CW-1:0] s_cnt;
integer k;
always @* begin
    s_cnt = {CW{1'b0}};
    for (k = W - 1; k >= 0; k = k - 1) begin
        if (!s_axis_tkeep[k])
            s_cnt = k[CW-1:0];
    end
    if (&s_axis_tkeep)
        s_cnt = W[CW-1:0];
end

wire [7:0] mac_tx_tdata;
wire       mac_tx_tvalid;
wire       mac_tx_tready;
wire       mac_tx_tlast;
wire       mac_tx_tuser;

wire cur_at_end = {1'b0, cur_idx_reg} == cur_cnt_reg - 1'b1;      // CW = IW + 1
wire nxt_marker = nxt_valid_reg && nxt_cnt_reg == {CW{1'b0}};

/* verilator lint_off UNUSEDSIGNAL */
wire [DATA_WIDTH-1:0] cur_shifted = cur_data_reg >> {cur_idx_reg, 3'b000};  // (only the low byte is used)
/* verilator lint_on UNUSEDSIGNAL */

assign mac_tx_tdata = cur_shifted[7:0];
assign mac_tx_tvalid = cur_valid_reg && (!cur_at_end || cur_last_reg || nxt_valid_reg);
assign mac_tx_tlast = cur_at_end && (cur_last_reg || nxt_marker);
assign mac_tx_tuser = cur_last_reg ? cur_user_reg : nxt_user_reg;
assign s_axis_tready = !nxt_valid_reg;

wire s_take = s_axis_tvalid && !nxt_valid_reg;
wire s_empty = s_cnt == {CW{1'b0}};
wire s_store = s_take && (!s_empty || (s_axis_tlast && in_frame_reg));
wire s_user = s_axis_tuser || abort_pending_reg;
wire cur_done = mac_tx_tvalid && mac_tx_tready && cur_at_end;
wire cur_free = !cur_valid_reg || cur_done;

always @(posedge gtx_clk) begin
    if (mac_tx_tvalid && mac_tx_tready)
        cur_idx_reg <= cur_idx_reg + 1'b1;

    if (cur_free) begin
        cur_idx_reg <= {IW{1'b0}};
        if (nxt_valid_reg) begin
            // a marker behind the finished beat was used as its tlast
            cur_valid_reg <= !nxt_marker;
            cur_data_reg <= nxt_data_reg;
            cur_cnt_reg <= nxt_cnt_reg;
            cur_last_reg <= nxt_last_reg;
            cur_user_reg <= nxt_user_reg;
            nxt_valid_reg <= 1'b0;
        end else begin
            cur_valid_reg <= s_store;
            cur_data_reg <= s_axis_tdata;
            cur_cnt_reg <= s_cnt;
            cur_last_reg <= s_axis_tlast;
            cur_user_reg <= s_user;
        end
    end else if (s_store) begin
        nxt_valid_reg <= 1'b1;
        nxt_data_reg <= s_axis_tdata;
        nxt_cnt_reg <= s_cnt;
        nxt_last_reg <= s_axis_tlast;
        nxt_user_reg <= s_user;
    end

    if (s_take && (!s_empty || s_axis_tlast))
        in_frame_reg <= !s_axis_tlast;
    if (s_take)
        abort_pending_reg <= s_user && !s_axis_tlast;

    if (gtx_rst) begin
        cur_valid_reg <= 1'b0;
        cur_idx_reg <= {IW{1'b0}};
        nxt_valid_reg <= 1'b0;
        in_frame_reg <= 1'b0;
        abort_pending_reg <= 1'b0;
    end
end

froce_eth_mac_1g_tx #(
    .MIN_FRAME_LEN(64),
    .IFG(IFG),
    .COUNTER_WIDTH(COUNTER_WIDTH)
) u_tx (
    .clk(gtx_clk),
    .rst(gtx_rst),
    .s_axis_tdata(mac_tx_tdata),
    .s_axis_tvalid(mac_tx_tvalid),
    .s_axis_tready(mac_tx_tready),
    .s_axis_tlast(mac_tx_tlast),
    .s_axis_tuser(mac_tx_tuser),
    .gmii_txd(gmii_txd),
    .gmii_tx_en(gmii_tx_en),
    .gmii_tx_er(gmii_tx_er),
    .tx_frames(tx_frames),
    .tx_aborted(tx_aborted),
    .tx_underrun(tx_underrun)
);

/*
 * Receive: bytes -> beats. Bytes collect in acc_data_reg from byte 0; a beat
 * goes out (registered) when it is full or the byte has tlast.
 */
wire [7:0] mac_rx_tdata;
wire       mac_rx_tvalid;
wire       mac_rx_tlast;
wire       mac_rx_tuser;

froce_eth_mac_1g_rx #(
    .MAX_FRAME(MAX_FRAME),
    .COUNTER_WIDTH(COUNTER_WIDTH)
) u_rx (
    .clk(rx_clk),
    .rst(rx_rst),
    .gmii_rxd(gmii_rxd),
    .gmii_rx_dv(gmii_rx_dv),
    .gmii_rx_er(gmii_rx_er),
    .m_axis_tdata(mac_rx_tdata),
    .m_axis_tvalid(mac_rx_tvalid),
    .m_axis_tlast(mac_rx_tlast),
    .m_axis_tuser(mac_rx_tuser),
    .rx_frames_ok(rx_frames_ok),
    .rx_bad_fcs(rx_bad_fcs),
    .rx_err(rx_err),
    .rx_runt(rx_runt),
    .rx_oversize(rx_oversize)
);

reg [DATA_WIDTH-1:0] acc_data_reg = {DATA_WIDTH{1'b0}};
reg [IW-1:0]         acc_idx_reg = {IW{1'b0}};          // next byte position
reg [DATA_WIDTH-1:0] rx_tdata_reg = {DATA_WIDTH{1'b0}};
reg [W-1:0]          rx_tkeep_reg = {W{1'b0}};
reg                  rx_tvalid_reg = 1'b0;
reg                  rx_tlast_reg = 1'b0;
reg                  rx_tuser_reg = 1'b0;

// the accumulator with this clock's byte written at acc_idx_reg
reg [DATA_WIDTH-1:0] acc_with_byte;
integer b;
always @* begin
    acc_with_byte = acc_data_reg;
    for (b = 0; b < W; b = b + 1) begin
        if (acc_idx_reg == b[IW-1:0])
            acc_with_byte[8*b +: 8] = mac_rx_tdata;
    end
end

wire acc_at_end = &acc_idx_reg;
// tkeep of a beat ending at acc_idx_reg: bits 0..acc_idx_reg
wire [W-1:0] acc_keep = ~({W{1'b1}} << acc_idx_reg) | ({{(W - 1){1'b0}}, 1'b1} << acc_idx_reg);

always @(posedge rx_clk) begin
    rx_tvalid_reg <= 1'b0;
    if (mac_rx_tvalid) begin
        if (mac_rx_tlast || acc_at_end) begin
            rx_tdata_reg <= acc_with_byte;
            rx_tkeep_reg <= acc_keep;
            rx_tvalid_reg <= 1'b1;
            rx_tlast_reg <= mac_rx_tlast;
            rx_tuser_reg <= mac_rx_tlast && mac_rx_tuser;
            acc_data_reg <= {DATA_WIDTH{1'b0}};
            acc_idx_reg <= {IW{1'b0}};
        end else begin
            acc_data_reg <= acc_with_byte;
            acc_idx_reg <= acc_idx_reg + 1'b1;
        end
    end
    if (rx_rst) begin
        rx_tvalid_reg <= 1'b0;
        acc_data_reg <= {DATA_WIDTH{1'b0}};
        acc_idx_reg <= {IW{1'b0}};
    end
end

assign m_axis_tdata = rx_tdata_reg;
assign m_axis_tkeep = rx_tkeep_reg;
assign m_axis_tvalid = rx_tvalid_reg;
assign m_axis_tlast = rx_tlast_reg;
assign m_axis_tuser = rx_tuser_reg;

endmodule

`resetall
