// SPDX-License-Identifier: MIT
// MSI-X emitter: writes MSI-X messages as AXI4 writes after every earlier DMA write completed, with per-vector and function masking and the pending bit array.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * A request {vector, message address, message data} (s_req_*) becomes one
 * AXI4 write of the 4 data bytes to the address (bits 1:0 forced to 0: the
 * table's address is dword aligned), on m_axi_*: AWLEN 0, AWSIZE the full
 * bus width (the XDMA slave bridge takes no narrow transfers) with WSTRB
 * selecting the 4 bytes at the address, AWID = AXI_ID, WDATA the data in
 * every dword. BREADY is always 1; B responses are not waited for or checked.
 *
 * s_req_addr/s_req_data must be the MSI-X table entry of s_req_vector as it
 * is in every cycle of the request (read from the table with s_req_vector,
 * e.g. combinationally from the BAR0 registers), not a copy taken when the
 * request was raised: software may mask the vector, rewrite the entry and
 * unmask it while a request waits for s_req_ready, and the message must go
 * to the new address.
 *
 * Masking (PCIe Base Spec, MSI-X): a vector is deliverable while
 * msix_enable = 1, msix_func_mask = 0 and its vec_mask bit = 0. While it is
 * not, no message is sent for it and a request for it sets pba[vector]
 * instead (several requests coalesce into one pending bit). A vector whose
 * pending bit is set is delivered once it becomes deliverable: one message,
 * and pba[vector] is cleared when that write is issued (AW and W accepted).
 * MSI-X disabled is treated like the function mask: the spec forbids MSI-X
 * messages then and does not define pending bits; latching them means an
 * event raised while the driver enables MSI-X (Linux sets ENABLE with the
 * function mask, then unmasks) is not lost. Masks may change at any time;
 * the check is made again in the cycle before the write is issued, and a
 * vector masked at any point between the request and that cycle goes to the
 * PBA instead (so a message never uses an address software may have changed
 * under the mask). A pending bit is cleared only by its delivery or by rst
 * (function reset); software cannot clear it.
 *
 * Pending deliveries use the table as it is at send time, as the spec
 * requires (software changes an entry's address/data under the mask, e.g. to
 * move an IRQ to another CPU): tbl_vector selects an entry, and tbl_addr /
 * tbl_data must show it TBL_LATENCY cycles later (0: combinational read,
 * 1: one register). tbl_vector is held while the emitter waits.
 *
 * Ordering with DMA writes (an MSI-X must never overtake the EQE it
 * announces): the emitter watches the handshakes of the DMA write path
 * (dma_aw_fire/dma_aw_id: AWVALID && AWREADY and AWID; dma_b_fire/dma_b_id:
 * BVALID && BREADY and BID, e.g. of froce_core m_axi_*) and counts the
 * writes outstanding per ID. When it takes a request (when a pending
 * delivery has read the table) it notes, per ID, the writes outstanding
 * after that cycle's handshakes (an AW in the request's own cycle counts),
 * and each later B of that ID takes one off the note: AXI returns the B
 * responses of one ID in AW order, so the first B responses of an ID after
 * the note are exactly those of the noted writes. The message is issued
 * once every note is 0: every DMA write whose AW handshake was no later
 * than the request has had its B. Later DMA writes do not hold the message
 * back (no starvation under continuous DMA). Plain counts of AWs and Bs
 * would not do: B responses of different IDs may come in any order, so a B
 * of a later write could be taken for one of an earlier write.
 * The DMA path must be idle across rst; at most 2^DMA_OUT_WIDTH - 1 writes
 * of one ID outstanding. Watch the path at a point every write the message
 * depends on has already passed when the request comes (froce_core's event
 * engine raises a vector only after its EQE write's status, so its m_axi_*
 * port qualifies); the emitter's own writes need not pass that point.
 *
 * One message at a time. In state IDLE a deliverable pending vector (lowest
 * number first) goes before a new request; s_req_ready is high only in IDLE
 * with no deliverable pending vector. A request whose vector is not
 * deliverable is taken in one cycle (it only sets the pending bit). A vector
 * >= NUM_VECTORS is taken and ignored. sent_valid pulses with sent_vector
 * when a message is issued.
 */
module froce_msix_emitter #(
    parameter NUM_VECTORS = 32,         // MSI-X vectors, 1..2048
    parameter DATA_WIDTH = 64,          // AXI data width: 64..512, a power of two
    parameter ID_WIDTH = 4,             // AXI ID width
    parameter [ID_WIDTH-1:0] AXI_ID = {ID_WIDTH{1'b0}},  // AWID of every message
    parameter DMA_ID_WIDTH = 4,         // ID width of the watched DMA write path, 1..6
    parameter DMA_OUT_WIDTH = 8,        // per-ID outstanding write counters, 2..16 bits
    parameter TBL_LATENCY = 1,          // table read latency in cycles, 0..7
    parameter VW = NUM_VECTORS > 1 ? $clog2(NUM_VECTORS) : 1   // derived: leave at the default
) (
    input  wire                         clk,
    input  wire                         rst,

    /* Requests */
    input  wire                         s_req_valid,
    output wire                         s_req_ready,
    input  wire [VW-1:0]                s_req_vector,
    input  wire [63:0]                  s_req_addr,
    input  wire [31:0]                  s_req_data,

    /* MSI-X state: capability (from the PCIe IP's configuration interface)
     * and per-vector mask bits (MSI-X table vector control bit 0) */
    input  wire                         msix_enable,
    input  wire                         msix_func_mask,
    input  wire [NUM_VECTORS-1:0]       vec_mask,

    /* MSI-X table read port (pending deliveries) */
    output wire [VW-1:0]                tbl_vector,
    input  wire [63:0]                  tbl_addr,
    input  wire [31:0]                  tbl_data,

    /* DMA write path: AW and B handshakes */
    input  wire                         dma_aw_fire,
    input  wire [DMA_ID_WIDTH-1:0]      dma_aw_id,
    input  wire                         dma_b_fire,
    input  wire [DMA_ID_WIDTH-1:0]      dma_b_id,

    /* Pending bit array */
    output wire [NUM_VECTORS-1:0]       pba,

    /* Sent messages */
    output wire                         sent_valid,
    output wire [VW-1:0]                sent_vector,

    /* AXI4 master: write address */
    output wire [ID_WIDTH-1:0]          m_axi_awid,
    output wire [63:0]                  m_axi_awaddr,
    output wire [7:0]                   m_axi_awlen,
    output wire [2:0]                   m_axi_awsize,
    output wire [1:0]                   m_axi_awburst,
    output wire                         m_axi_awlock,
    output wire [3:0]                   m_axi_awcache,
    output wire [2:0]                   m_axi_awprot,
    output wire                         m_axi_awvalid,
    input  wire                         m_axi_awready,

    /* AXI4 master: write data */
    output wire [DATA_WIDTH-1:0]        m_axi_wdata,
    output wire [DATA_WIDTH/8-1:0]      m_axi_wstrb,
    output wire                         m_axi_wlast,
    output wire                         m_axi_wvalid,
    input  wire                         m_axi_wready,

    /* AXI4 master: write response (always ready, not checked) */
    input  wire [ID_WIDTH-1:0]          m_axi_bid,
    input  wire [1:0]                   m_axi_bresp,
    input  wire                         m_axi_bvalid,
    output wire                         m_axi_bready
);

localparam WB = DATA_WIDTH / 8;
localparam KW = $clog2(WB);
localparam [2:0] SIZE_C = KW[2:0];
localparam [2:0] LAT_C = TBL_LATENCY[2:0];
localparam [VW:0] NV_C = NUM_VECTORS[VW:0];

initial begin
    if (NUM_VECTORS < 1 || NUM_VECTORS > 2048 || VW != (NUM_VECTORS > 1 ? $clog2(NUM_VECTORS) : 1) ||
        WB < 8 || WB > 64 || (1 << KW) != WB || DMA_ID_WIDTH < 1 || DMA_ID_WIDTH > 6 || DMA_OUT_WIDTH < 2 || DMA_OUT_WIDTH > 16 ||
        TBL_LATENCY < 0 || TBL_LATENCY > 7) begin
        $display("froce_msix_emitter: bad parameters");
        $finish;
    end
end

// The same checks, fatal at elaboration in every tool (Yosys ignores
// initial blocks): a deliberately nonexistent module named after the problem.
generate
    if (NUM_VECTORS < 1 || NUM_VECTORS > 2048 || VW != (NUM_VECTORS > 1 ? $clog2(NUM_VECTORS) : 1) ||
        WB < 8 || WB > 64 || (1 << KW) != WB || DMA_ID_WIDTH < 1 || DMA_ID_WIDTH > 6 || DMA_OUT_WIDTH < 2 || DMA_OUT_WIDTH > 16 ||
        TBL_LATENCY < 0 || TBL_LATENCY > 7) begin : g_bad_parameter
        froce_msix_emitter_bad_parameter u_bad_parameter ();
    end
endgenerate

localparam NID = 1 << DMA_ID_WIDTH;
localparam OW = DMA_OUT_WIDTH;

localparam [2:0]
    ST_IDLE   = 3'd0,   // pending vector or new request
    ST_LOOKUP = 3'd1,   // reading the table for a pending vector
    ST_WAIT   = 3'd2,   // waiting for the noted DMA writes
    ST_SEND   = 3'd3;   // AW and W out

reg [2:0]               state_reg = ST_IDLE, state_next;
reg [VW-1:0]            vec_reg = {VW{1'b0}}, vec_next;
reg [63:0]              addr_reg = 64'd0, addr_next;
reg [31:0]              data_reg = 32'd0, data_next;
reg [2:0]               lat_reg = 3'd0, lat_next;
reg                     aw_valid_reg = 1'b0, aw_valid_next;
reg                     w_valid_reg = 1'b0, w_valid_next;
reg [NUM_VECTORS-1:0]   pba_reg = {NUM_VECTORS{1'b0}}, pba_next;
reg                     sent_reg = 1'b0, sent_next;
reg                     note_c;                                 // note the outstanding DMA writes

// Per DMA ID (OW bits each): writes outstanding, and noted writes not yet
// answered.
reg [NID*OW-1:0]        out_reg = {NID*OW{1'b0}}, out_next;
reg [NID*OW-1:0]        need_reg = {NID*OW{1'b0}}, need_next;

wire func_ok = msix_enable && !msix_func_mask;
wire [NUM_VECTORS-1:0] pend_ok = func_ok ? pba_reg & ~vec_mask : {NUM_VECTORS{1'b0}};

// lowest deliverable pending vector
reg [VW-1:0] pend_vec;
integer pi;
always @* begin
    pend_vec = {VW{1'b0}};
    for (pi = NUM_VECTORS - 1; pi >= 0; pi = pi - 1)
        if (pend_ok[pi])
            pend_vec = pi[VW-1:0];
end

wire req_in_range = {1'b0, s_req_vector} < NV_C;
wire req_ok = func_ok && req_in_range && !vec_mask[s_req_vector];
wire cur_ok = func_ok && !vec_mask[vec_reg];
wire dma_caught_up = need_reg == {NID*OW{1'b0}};

assign s_req_ready = state_reg == ST_IDLE && pend_ok == {NUM_VECTORS{1'b0}};

always @* begin
    state_next = state_reg;
    vec_next = vec_reg;
    addr_next = addr_reg;
    data_next = data_reg;
    lat_next = lat_reg;
    aw_valid_next = aw_valid_reg && !m_axi_awready;
    w_valid_next = w_valid_reg && !m_axi_wready;
    pba_next = pba_reg;
    sent_next = 1'b0;
    note_c = 1'b0;

    case (state_reg)
        ST_IDLE: begin
            if (pend_ok != {NUM_VECTORS{1'b0}}) begin
                vec_next = pend_vec;
                lat_next = LAT_C;
                state_next = ST_LOOKUP;
            end else if (s_req_valid) begin
                if (req_ok) begin
                    vec_next = s_req_vector;
                    addr_next = s_req_addr;
                    data_next = s_req_data;
                    note_c = 1'b1;
                    state_next = ST_WAIT;
                end else if (req_in_range) begin
                    pba_next[s_req_vector] = 1'b1;
                end
            end
        end
        ST_LOOKUP: begin
            if (!cur_ok) begin
                state_next = ST_IDLE;           // still pending
            end else if (lat_reg == 3'd0) begin
                addr_next = tbl_addr;
                data_next = tbl_data;
                note_c = 1'b1;
                state_next = ST_WAIT;
            end else begin
                lat_next = lat_reg - 1'b1;
            end
        end
        ST_WAIT: begin
            if (!cur_ok) begin
                pba_next[vec_reg] = 1'b1;
                state_next = ST_IDLE;
            end else if (dma_caught_up) begin
                aw_valid_next = 1'b1;
                w_valid_next = 1'b1;
                state_next = ST_SEND;
            end
        end
        ST_SEND: begin
            if (!aw_valid_next && !w_valid_next) begin
                pba_next[vec_reg] = 1'b0;
                sent_next = 1'b1;
                state_next = ST_IDLE;
            end
        end
        default: state_next = ST_IDLE;
    endcase
end

// outstanding DMA writes per ID, and the notes
integer di;
reg [OW-1:0] out_i, need_i;
always @* begin
    out_next = out_reg;
    need_next = need_reg;
    for (di = 0; di < NID; di = di + 1) begin
        out_i = out_reg[di * OW +: OW];
        need_i = need_reg[di * OW +: OW];
        if (dma_b_fire && dma_b_id == di[DMA_ID_WIDTH-1:0]) begin
            if (out_i != {OW{1'b0}})
                out_i = out_i - 1'b1;
            if (need_i != {OW{1'b0}})
                need_i = need_i - 1'b1;
        end
        if (dma_aw_fire && dma_aw_id == di[DMA_ID_WIDTH-1:0])
            out_i = out_i + 1'b1;
        if (note_c)
            need_i = out_i;
        out_next[di * OW +: OW] = out_i;
        need_next[di * OW +: OW] = need_i;
    end
end

always @(posedge clk) begin
    state_reg <= state_next;
    vec_reg <= vec_next;
    addr_reg <= addr_next;
    data_reg <= data_next;
    lat_reg <= lat_next;
    aw_valid_reg <= aw_valid_next;
    w_valid_reg <= w_valid_next;
    pba_reg <= pba_next;
    sent_reg <= sent_next;
    out_reg <= out_next;
    need_reg <= need_next;
    if (rst) begin
        state_reg <= ST_IDLE;
        aw_valid_reg <= 1'b0;
        w_valid_reg <= 1'b0;
        pba_reg <= {NUM_VECTORS{1'b0}};
        sent_reg <= 1'b0;
        out_reg <= {NID*OW{1'b0}};
        need_reg <= {NID*OW{1'b0}};
    end
end

assign tbl_vector = vec_reg;
assign pba = pba_reg;
assign sent_valid = sent_reg;
assign sent_vector = vec_reg;

wire [KW-1:0] lane_off = {addr_reg[KW-1:2], 2'b00};

assign m_axi_awid = AXI_ID;
assign m_axi_awaddr = {addr_reg[63:2], 2'b00};
assign m_axi_awlen = 8'd0;
assign m_axi_awsize = SIZE_C;
assign m_axi_awburst = 2'b01;                       // INCR
assign m_axi_awlock = 1'b0;
assign m_axi_awcache = 4'b0011;                     // normal, non-cacheable, bufferable
assign m_axi_awprot = 3'b000;
assign m_axi_awvalid = aw_valid_reg;
assign m_axi_wdata = {(DATA_WIDTH / 32){data_reg}};
assign m_axi_wstrb = {{(WB - 4){1'b0}}, 4'hF} << lane_off;
assign m_axi_wlast = 1'b1;
assign m_axi_wvalid = w_valid_reg;
assign m_axi_bready = 1'b1;

wire unused_b = &{1'b0, m_axi_bid, m_axi_bresp, m_axi_bvalid, addr_reg[1:0]};

endmodule

`resetall
