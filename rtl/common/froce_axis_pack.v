// SPDX-License-Identifier: MIT
// AXI-Stream gather packer: concatenates pieces (each starting at byte 0) into one packed packet.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Operation (see docs/axis-pack-split.md):
 *
 *   Input: a sequence of PIECES. A piece starts at byte 0 of its first beat;
 *   every beat is full except possibly the piece's last (tlast), whose tkeep
 *   is contiguous from bit 0; an empty piece is one beat with tkeep = 0 and
 *   tlast. s_axis_tuser = 1 on a piece's tlast beat ends the output PACKET.
 *
 *   Output: the bytes of all pieces of a packet, in order, packed: every beat
 *   full except the last, tlast on the last. A packet of zero bytes is one
 *   beat with tkeep = 0 and tlast. tdata bytes outside tkeep are zero.
 *
 *   Datapath: an accumulator of up to W bytes (W = DATA_WIDTH / 8). Each
 *   input beat's bytes are shifted up by the accumulator's count and ORed in;
 *   when the sum exceeds W the low W bytes go out as a full beat and the rest
 *   stay. A full accumulator is held back (not sent) until a byte more
 *   arrives or the packet ends, so that the packet's last beat can carry
 *   tlast even when the final piece is empty. When the end-of-packet beat is
 *   taken the accumulator is marked final and goes out with tlast in the next
 *   cycle, while the first beat of the next packet is taken into the emptied
 *   accumulator.
 *
 *   Each input beat contributes the bytes under its tkeep's run of ones from
 *   bit 0 (count trailing ones); s_axis_tlast matters only together with
 *   s_axis_tuser (a piece end without packet end changes nothing).
 *
 * Caller errors: a tkeep with holes contributes only the bytes below its
 * lowest zero bit (the others are dropped); a non-full beat that is not a
 * piece's last contributes its low bytes and the output stays packed; tuser
 * without tlast is ignored. None of these can stall the module.
 *
 * Throughput: one input beat per cycle whenever the output is not stalled,
 * regardless of piece or packet boundaries (no extra cycle anywhere). Output
 * beats never outnumber input beats. Latency: the last beat of a packet (or
 * a held-back full beat) leaves one cycle after the beat that completed it.
 * s_axis_tready = !m_axis_tvalid || m_axis_tready (a combinational path from
 * m_axis_tready; the output is a register).
 *
 * REG_IN = 1 puts a register slice (froce_reg_slice) in front: s_axis_tready
 * and everything the packing logic reads then come from flip-flops, so the
 * producer's logic and the packer's byte shifts are separate timing paths;
 * one cycle more of latency, the same throughput.
 */
module froce_axis_pack #(
    parameter DATA_WIDTH = 64,                  // stream width in bits: 64, 128, 256 or 512
    parameter REG_IN = 0                        // 1: a register slice on the input (see above)
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Pieces in */
    input  wire [DATA_WIDTH-1:0]        s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axis_tkeep,
    input  wire                         s_axis_tvalid,
    output wire                         s_axis_tready,
    input  wire                         s_axis_tlast,       // last beat of a piece
    input  wire                         s_axis_tuser,       // on the tlast beat: last piece of the packet

    /* Packed packet out */
    output wire [DATA_WIDTH-1:0]        m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_axis_tkeep,
    output wire                         m_axis_tvalid,
    input  wire                         m_axis_tready,
    output wire                         m_axis_tlast
);

localparam W = DATA_WIDTH / 8;                      // bytes per beat
localparam KW = $clog2(W);
localparam CW = KW + 1;                             // byte counts 0..W
localparam TW = KW + 2;                             // byte counts 0..2W

localparam [TW-1:0] W_T = W[TW-1:0];

initial begin
    if (W < 8 || W > 64 || (1 << KW) != W) begin
        $display("froce_axis_pack: DATA_WIDTH must be 64, 128, 256 or 512");
        $finish;
    end
end

// fatal at elaboration in every tool (Yosys ignores initial blocks)
generate
    if (W < 8 || W > 64 || (1 << KW) != W) begin : g_bad_parameter
        froce_axis_pack_bad_parameter u_bad_parameter ();
    end
endgenerate

/* ------------------------------------------------------------------------
 * Input, through a register slice when REG_IN
 * ------------------------------------------------------------------------ */

wire [DATA_WIDTH-1:0] i_tdata;
wire [W-1:0] i_tkeep;
wire i_tvalid, i_tready, i_tlast, i_tuser;

generate
    if (REG_IN != 0) begin : g_reg_in
        froce_reg_slice #(.WIDTH(DATA_WIDTH + W + 2)) in_slice (
            .clk(clk), .rst(rst),
            .s_data({s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser}),
            .s_valid(s_axis_tvalid), .s_ready(s_axis_tready),
            .m_data({i_tdata, i_tkeep, i_tlast, i_tuser}),
            .m_valid(i_tvalid), .m_ready(i_tready)
        );
    end else begin : g_direct_in
        assign {i_tdata, i_tkeep, i_tlast, i_tuser, i_tvalid} =
            {s_axis_tdata, s_axis_tkeep, s_axis_tlast, s_axis_tuser, s_axis_tvalid};
        assign s_axis_tready = i_tready;
    end
endgenerate

/* ------------------------------------------------------------------------
 * Input beat: bytes below the lowest zero of tkeep
 * ------------------------------------------------------------------------ */

reg [W-1:0] in_keep;                                // prefix AND of tkeep
reg [CW-1:0] in_n;                                  // its number of ones
reg [DATA_WIDTH-1:0] in_data;                       // tdata, other bytes zeroed
wire [W:0] in_keep_x = {1'b0, in_keep};
integer i;

always @* begin
    in_keep[0] = i_tkeep[0];
    for (i = 1; i < W; i = i + 1)
        in_keep[i] = in_keep[i-1] & i_tkeep[i];
    // in_keep is a thermometer code: its top one (at most one such bit) names the count
    in_n = {CW{1'b0}};
    for (i = 0; i < W; i = i + 1)
        if (in_keep_x[i] && !in_keep_x[i+1])
            in_n = in_n | (i[CW-1:0] + 1'b1);
    for (i = 0; i < W; i = i + 1)
        in_data[8*i +: 8] = in_keep[i] ? i_tdata[8*i +: 8] : 8'd0;
end

wire in_eop = i_tlast && i_tuser;

/* ------------------------------------------------------------------------
 * Accumulator and output register
 * ------------------------------------------------------------------------ */

reg [DATA_WIDTH-1:0] acc_reg = {DATA_WIDTH{1'b0}}, acc_next;
reg [CW-1:0] cnt_reg = {CW{1'b0}}, cnt_next;       // bytes in acc_reg, 0..W
reg fin_reg = 1'b0, fin_next;                       // acc_reg is the packet's last beat

reg ot_valid_reg = 1'b0, ot_valid_next;
reg [DATA_WIDTH-1:0] ot_data_reg = {DATA_WIDTH{1'b0}};
reg [W-1:0] ot_keep_reg = {W{1'b0}};
reg ot_last_reg = 1'b0;

reg emit_c, emit_fin_c;

wire ot_free = !ot_valid_reg || m_axis_tready;
wire in_fire = i_tvalid && ot_free;

// a final accumulator leaves in this cycle: the input joins an empty one
wire [CW-1:0] base_cnt = fin_reg ? {CW{1'b0}} : cnt_reg;
wire [DATA_WIDTH-1:0] base_acc = fin_reg ? {DATA_WIDTH{1'b0}} : acc_reg;
wire [2*DATA_WIDTH-1:0] cat = {{DATA_WIDTH{1'b0}}, base_acc} |
                              ({{DATA_WIDTH{1'b0}}, in_data} << {base_cnt, 3'b000});
wire [TW-1:0] total = {1'b0, base_cnt} + {1'b0, in_n};
wire over = total > W_T;                            // a full beat leaves now
wire [TW-1:0] rest = total - W_T;
wire unused_rest = rest[TW-1];
wire [W-1:0] fin_keep = ~({W{1'b1}} << cnt_reg);

assign i_tready = ot_free;

always @* begin
    acc_next = acc_reg;
    cnt_next = cnt_reg;
    fin_next = fin_reg;
    ot_valid_next = ot_valid_reg && !m_axis_tready;
    emit_c = 1'b0;
    emit_fin_c = 1'b0;

    if (ot_free && fin_reg) begin
        emit_fin_c = 1'b1;
        ot_valid_next = 1'b1;
        acc_next = {DATA_WIDTH{1'b0}};
        cnt_next = {CW{1'b0}};
        fin_next = 1'b0;
    end

    if (in_fire) begin
        if (over) begin
            // only when !fin_reg: total <= W after a final accumulator
            emit_c = 1'b1;
            ot_valid_next = 1'b1;
            acc_next = cat[2*DATA_WIDTH-1:DATA_WIDTH];
            cnt_next = rest[CW-1:0];
        end else begin
            acc_next = cat[DATA_WIDTH-1:0];
            cnt_next = total[CW-1:0];
        end
        fin_next = in_eop;
    end
end

always @(posedge clk) begin
    acc_reg <= acc_next;
    cnt_reg <= cnt_next;
    fin_reg <= fin_next;
    ot_valid_reg <= ot_valid_next;

    if (emit_fin_c) begin
        ot_data_reg <= acc_reg;
        ot_keep_reg <= fin_keep;
        ot_last_reg <= 1'b1;
    end
    if (emit_c) begin
        ot_data_reg <= cat[DATA_WIDTH-1:0];
        ot_keep_reg <= {W{1'b1}};
        ot_last_reg <= 1'b0;
    end

    if (rst) begin
        acc_reg <= {DATA_WIDTH{1'b0}};
        cnt_reg <= {CW{1'b0}};
        fin_reg <= 1'b0;
        ot_valid_reg <= 1'b0;
    end
end

assign m_axis_tdata = ot_data_reg;
assign m_axis_tkeep = ot_keep_reg;
assign m_axis_tvalid = ot_valid_reg;
assign m_axis_tlast = ot_last_reg;

endmodule

`resetall
