// SPDX-License-Identifier: MIT
// froce soft core: a small multi-cycle RV32I + Zicsr processor, machine mode only.
`resetall
`timescale 1ns / 1ps
`default_nettype none

/*
 * Architecture (docs/cpu.md has the long form)
 * --------------------------------------------
 * One instruction at a time, six states:
 *
 *   FETCH  the fetch request for pc_reg waits for ibus_req_ready
 *   IWAIT  waiting for the fetch response; when it comes the instruction is
 *          latched and the register file (synchronous read) is read with the
 *          rs1/rs2 fields of the response word
 *   EXEC   decode and execute. An instruction that IWAIT found sequential
 *          (ALU without a shift, LUI, AUIPC, CSR, FENCE, WFI: legal, no
 *          fetch fault, nothing that can redirect) completes here and, in
 *          the same cycle, issues the fetch of pc + 4. Jumps, branches,
 *          shifts by 0, MRET and traps complete here and fetch from FETCH
 *          in the next cycle; a load or store registers its data request
 *          for DREQ
 *   DREQ   the data request (from registers) waits for dbus_req_ready
 *   DWAIT  waiting for the data response; the load result is written back,
 *          and the next fetch issued, in the cycle the response arrives
 *
 *   SHIFT  shifts move the rs1 operand register 4 or 1 places per cycle, then
 *          complete like an ALU instruction
 *
 * Every request leaves from registers or from the fast path above, so no
 * decision of EXEC (operands, compare, trap) reaches a memory port in the
 * cycle it is made: that path, through the bus decode into the RAM's
 * enables, bounded the whole NIC's clock on an FPGA.
 *
 * With memories that accept every request and answer one cycle later (block
 * RAM) that is 2 cycles per sequential instruction, 3 for jumps, branches,
 * MRET, shifts by 0 and trap entry, 4 for loads and stores, 3 + n/4 + n%4
 * for a shift by n > 0.
 *
 * Memory interface (the same rules on both ports)
 * -----------------------------------------------
 * Request channel: *_req_valid, *_req_ready and the request fields.
 *   - A request is transferred in a cycle with valid && ready.
 *   - Once valid is high the core keeps it high, with every request field
 *     unchanged, until the transfer. valid never depends on ready, so ready
 *     may depend combinationally on valid.
 *   - *_req_addr is a byte address with bits 1:0 zero: requests are whole
 *     32-bit words. dbus_req_be marks the bytes a load wants or a store
 *     writes (bit n = bits 8n+7:8n); dbus_req_wdata carries a store's bytes
 *     in their lanes. Reads have no side effects on bytes outside be.
 *   - The core has at most one request in flight per port: it issues a new
 *     request on a port only after the response of the previous one.
 * Response channel: *_rsp_valid, *_rsp_rdata, *_rsp_err.
 *   - Every transferred request (loads, stores and fetches) gets exactly one
 *     response, one cycle after the transfer at the earliest (never in the
 *     transfer cycle), and any number of cycles later. The core always
 *     accepts it (there is no response ready).
 *   - rdata is the whole word (the core picks the bytes of a load); it is
 *     ignored for stores. err = 1 reports an access fault: cause 1
 *     (instruction), 5 (load) or 7 (store), mtval = the address.
 * Combinational paths from inputs to outputs: ibus_req_* may depend on
 * dbus_rsp_valid/err (the fetch after a load or store is issued in the
 * cycle its response arrives) and on irq_* (a pending interrupt replaces
 * the instruction in EXEC, which then fetches from FETCH); dbus_req_* come
 * from registers; no output depends on a *_req_ready.
 *
 * Interrupts: irq_external (mip.MEIP, cause 0x8000000B) and irq_timer
 * (mip.MTIP, cause 0x80000007) are levels, synchronous to clk, held until
 * the handler clears their source. They are checked in EXEC: when
 * mstatus.MIE and the matching mie bit are set, the instruction in EXEC is
 * not executed and mepc = its pc. External has priority over timer.
 *
 * Retirement trace: trace_valid is high for one cycle per instruction that
 * retires or traps, with the other trace_* fields describing it. Nothing in
 * the core depends on it; a board top leaves it unconnected.
 */
module froce_cpu (
    input  wire        clk,
    input  wire        rst,                 // synchronous, active high

    /* Configuration (constant in a real design) */
    input  wire [31:0] boot_addr,           // pc after reset; bits 1:0 ignored

    /* Instruction fetch port */
    output wire        ibus_req_valid,
    input  wire        ibus_req_ready,
    output wire [31:0] ibus_req_addr,       // word aligned
    input  wire        ibus_rsp_valid,
    input  wire [31:0] ibus_rsp_rdata,
    input  wire        ibus_rsp_err,        // instruction access fault

    /* Data port */
    output wire        dbus_req_valid,
    input  wire        dbus_req_ready,
    output wire [31:0] dbus_req_addr,       // word aligned
    output wire        dbus_req_we,         // 1 store, 0 load
    output wire [3:0]  dbus_req_be,         // byte lanes read or written
    output wire [31:0] dbus_req_wdata,
    input  wire        dbus_rsp_valid,
    input  wire [31:0] dbus_rsp_rdata,
    input  wire        dbus_rsp_err,        // load/store access fault

    /* Interrupt requests: levels, synchronous to clk */
    input  wire        irq_external,        // mip.MEIP
    input  wire        irq_timer,           // mip.MTIP

    /* Retirement trace (simulation and debug) */
    output wire        trace_valid,         // an instruction retired or trapped this cycle
    output wire [31:0] trace_pc,
    output wire [31:0] trace_insn,
    output wire        trace_trap,          // it trapped (or was interrupted): nothing retired
    output wire [31:0] trace_cause,         // mcause written, when trace_trap
    output wire [4:0]  trace_rd,            // register written, 0 if none
    output wire [31:0] trace_rd_wdata,
    output wire        trace_store,         // a store retired: the three fields below
    output wire [31:0] trace_store_addr,    // word address
    output wire [3:0]  trace_store_be,
    output wire [31:0] trace_store_wdata
);

/* Major opcodes (RISC-V unprivileged spec, base opcode map) */
localparam [6:0] OPC_LOAD     = 7'b0000011;
localparam [6:0] OPC_MISC_MEM = 7'b0001111;
localparam [6:0] OPC_OP_IMM   = 7'b0010011;
localparam [6:0] OPC_AUIPC    = 7'b0010111;
localparam [6:0] OPC_STORE    = 7'b0100011;
localparam [6:0] OPC_OP       = 7'b0110011;
localparam [6:0] OPC_LUI      = 7'b0110111;
localparam [6:0] OPC_BRANCH   = 7'b1100011;
localparam [6:0] OPC_JALR     = 7'b1100111;
localparam [6:0] OPC_JAL      = 7'b1101111;
localparam [6:0] OPC_SYSTEM   = 7'b1110011;

/* SYSTEM instructions with funct3 = 0, full encodings */
localparam [31:0] INSN_ECALL  = 32'h00000073;
localparam [31:0] INSN_EBREAK = 32'h00100073;
localparam [31:0] INSN_MRET   = 32'h30200073;
localparam [31:0] INSN_WFI    = 32'h10500073;

/* CSR addresses (privileged spec, tables 2.2-2.5) */
localparam [11:0] CSR_MSTATUS    = 12'h300;
localparam [11:0] CSR_MISA       = 12'h301;
localparam [11:0] CSR_MIE        = 12'h304;
localparam [11:0] CSR_MTVEC      = 12'h305;
localparam [11:0] CSR_MSTATUSH   = 12'h310;
localparam [11:0] CSR_MSCRATCH   = 12'h340;
localparam [11:0] CSR_MEPC       = 12'h341;
localparam [11:0] CSR_MCAUSE     = 12'h342;
localparam [11:0] CSR_MTVAL      = 12'h343;
localparam [11:0] CSR_MIP        = 12'h344;
localparam [11:0] CSR_MCYCLE     = 12'hB00;
localparam [11:0] CSR_MINSTRET   = 12'hB02;
localparam [11:0] CSR_MCYCLEH    = 12'hB80;
localparam [11:0] CSR_MINSTRETH  = 12'hB82;
localparam [11:0] CSR_CYCLE      = 12'hC00;
localparam [11:0] CSR_TIME       = 12'hC01;
localparam [11:0] CSR_INSTRET    = 12'hC02;
localparam [11:0] CSR_CYCLEH     = 12'hC80;
localparam [11:0] CSR_TIMEH      = 12'hC81;
localparam [11:0] CSR_INSTRETH   = 12'hC82;
localparam [11:0] CSR_MVENDORID  = 12'hF11;
localparam [11:0] CSR_MARCHID    = 12'hF12;
localparam [11:0] CSR_MIMPID     = 12'hF13;
localparam [11:0] CSR_MHARTID    = 12'hF14;
localparam [11:0] CSR_MCONFIGPTR = 12'hF15;

/* misa: MXL = 1 (32 bits), extension I */
localparam [31:0] MISA_VALUE = 32'h40000100;

/* Exception and interrupt codes (mcause bits 3:0) */
localparam [3:0] EXC_INSN_MISALIGNED  = 4'd0;
localparam [3:0] EXC_INSN_ACCESS      = 4'd1;
localparam [3:0] EXC_ILLEGAL          = 4'd2;
localparam [3:0] EXC_BREAKPOINT       = 4'd3;
localparam [3:0] EXC_LOAD_MISALIGNED  = 4'd4;
localparam [3:0] EXC_LOAD_ACCESS      = 4'd5;
localparam [3:0] EXC_STORE_MISALIGNED = 4'd6;
localparam [3:0] EXC_STORE_ACCESS     = 4'd7;
localparam [3:0] EXC_ECALL_M          = 4'd11;
localparam [3:0] INT_M_TIMER          = 4'd7;
localparam [3:0] INT_M_EXTERNAL       = 4'd11;

/* States */
localparam [2:0] S_FETCH = 3'd0;
localparam [2:0] S_IWAIT = 3'd1;
localparam [2:0] S_EXEC  = 3'd2;
localparam [2:0] S_DREQ  = 3'd3;
localparam [2:0] S_DWAIT = 3'd4;
localparam [2:0] S_SHIFT = 3'd5;

// ---------------------------------------------------------------- state

reg [2:0]  state_reg = S_FETCH, state_next;
reg [31:2] pc_reg = 30'd0;          // pc of the instruction being fetched or executed
reg [31:0] insn_reg = 32'd0;
reg        ifault_reg = 1'b0;       // the fetch of insn_reg returned err
reg        seq_reg = 1'b0;          // insn_reg completes in EXEC and goes on at pc + 4 (predecoded)
reg        illegal_reg = 1'b0;      // insn_reg raises illegal-instruction (predecoded)
/* the data request, registered in EXEC for DREQ */
reg [31:2] dreq_addr_reg = 30'd0;
reg        dreq_we_reg = 1'b0;
reg [3:0]  dreq_be_reg = 4'd0;
reg [31:0] dreq_wdata_reg = 32'd0;
reg [4:0]  shamt_reg = 5'd0;        // shift places still to go in SHIFT

/* CSR state */
reg        mstatus_mie_reg = 1'b0;
reg        mstatus_mpie_reg = 1'b0;
reg        mie_meie_reg = 1'b0;
reg        mie_mtie_reg = 1'b0;
reg [31:2] mtvec_reg = 30'd0;       // direct mode only: MODE (bits 1:0) reads 0
reg [31:0] mscratch_reg = 32'd0;
reg [31:2] mepc_reg = 30'd0;        // IALIGN = 32: bits 1:0 read 0
reg        mcause_int_reg = 1'b0;   // mcause is WLRL: bit 31 and bits 3:0 are held
reg [3:0]  mcause_code_reg = 4'd0;
reg [31:0] mtval_reg = 32'd0;
reg [63:0] mcycle_reg = 64'd0;
reg [63:0] minstret_reg = 64'd0;

// ---------------------------------------------------------------- register file

/*
 * 31 x 32 bits, one write port, two synchronous read ports. The read
 * addresses come straight from the fetch response, so the operands are ready
 * in EXEC; the outputs hold until the next fetch response, through DREQ and
 * DWAIT. x0 is never written and reads as zero through the mux below (its
 * storage word is unused). Reads and writes never happen in the same cycle:
 * writes happen in EXEC or DWAIT, reads in IWAIT.
 */
reg [31:0] regfile [0:31];
reg [31:0] rf_rdata1_reg = 32'd0;
reg [31:0] rf_rdata2_reg = 32'd0;
wire       rf_re = state_reg == S_IWAIT && ibus_rsp_valid;
reg        rf_we;
reg [31:0] rf_wdata;
wire       shift_run;                   // SHIFT state, places left: shift the rs1 operand

always @(posedge clk) begin
    if (rf_re) begin
        rf_rdata1_reg <= regfile[ibus_rsp_rdata[19:15]];
        rf_rdata2_reg <= regfile[ibus_rsp_rdata[24:20]];
    end else if (shift_run) begin
        rf_rdata1_reg <= shift_step;
    end
    if (rf_we)
        regfile[insn_reg[11:7]] <= rf_wdata;
end

// ---------------------------------------------------------------- decode

wire [4:0]  rd       = insn_reg[11:7];
wire [2:0]  funct3   = insn_reg[14:12];
wire [4:0]  rs1      = insn_reg[19:15];
wire        funct7_5 = insn_reg[30];     // SUB, SRA/SRAI (the other funct7 bits: decode only)

wire [31:0] imm_u = {insn_reg[31:12], 12'd0};

/*
 * Predecode: the instruction classes, the operand selects and the
 * immediates EXEC uses are worked out in IWAIT from the fetch response and
 * registered with insn_reg (pd_*), so EXEC's adder, compares and write-back
 * start at flip-flops instead of behind an opcode decode. The fields below
 * name them as the decode would.
 */
localparam PD_STORE = 0, PD_LUI = 1, PD_AUIPC = 2, PD_BRANCH = 3, PD_JAL = 4, PD_JALR = 5,
           PD_CSR = 6, PD_ECALL = 7, PD_EBREAK = 8, PD_MRET = 9, PD_SHIFT = 10, PD_OP_B_RS2 = 11,
           PD_RS1_ZERO = 12, PD_RS2_ZERO = 13, PD_WRITES_RD = 14, PD_SUB = 15, PD_BRANCH_ODD = 16,
           PD_JAL_ODD = 17, PD_MEM = 18, PD_BITS = 19;
reg [PD_BITS-1:0] pd_reg = {PD_BITS{1'b0}};
reg [31:0] pd_op_b_imm_reg = 32'd0;     // op_b's immediate: imm_s for stores, else imm_i
reg [31:0] pd_pc_off_reg = 32'd0;       // pc-relative offset: imm_b, imm_j or imm_u

function [PD_BITS-1:0] predecode;
    input [31:0] w;
    reg [6:0] op;
    begin
        op = w[6:0];
        predecode = {PD_BITS{1'b0}};
        predecode[PD_STORE]     = op == OPC_STORE;
        predecode[PD_LUI]       = op == OPC_LUI;
        predecode[PD_AUIPC]     = op == OPC_AUIPC;
        predecode[PD_BRANCH]    = op == OPC_BRANCH;
        predecode[PD_JAL]       = op == OPC_JAL;
        predecode[PD_JALR]      = op == OPC_JALR;
        // CSRRW/S/C and the immediate forms
        predecode[PD_CSR]       = op == OPC_SYSTEM && w[13:12] != 2'b00;
        predecode[PD_ECALL]     = w == INSN_ECALL;
        predecode[PD_EBREAK]    = w == INSN_EBREAK;
        predecode[PD_MRET]      = w == INSN_MRET;
        predecode[PD_SHIFT]     = (op == OPC_OP || op == OPC_OP_IMM) && w[13:12] == 2'b01;
        predecode[PD_OP_B_RS2]  = op == OPC_OP || op == OPC_BRANCH;
        predecode[PD_RS1_ZERO]  = w[19:15] == 5'd0;
        predecode[PD_RS2_ZERO]  = w[24:20] == 5'd0;
        predecode[PD_WRITES_RD] = w[11:7] != 5'd0 &&
                                  (op == OPC_LOAD || op == OPC_OP || op == OPC_OP_IMM || op == OPC_LUI ||
                                   op == OPC_AUIPC || op == OPC_JAL || op == OPC_JALR ||
                                   (op == OPC_SYSTEM && w[13:12] != 2'b00));
        predecode[PD_SUB]       = op == OPC_OP && w[30];
        predecode[PD_BRANCH_ODD] = op == OPC_BRANCH && w[8];     // imm_b[1]
        predecode[PD_JAL_ODD]   = op == OPC_JAL && w[21];        // imm_j[1]
        predecode[PD_MEM]       = op == OPC_LOAD || op == OPC_STORE;
    end
endfunction

/* the immediates, from the fetch response */
wire [31:0] fw = ibus_rsp_rdata;
wire [31:0] fw_op_b_imm = fw[6:0] == OPC_STORE ? {{20{fw[31]}}, fw[31:25], fw[11:7]}     // imm_s
                                               : {{20{fw[31]}}, fw[31:20]};             // imm_i
wire [31:0] fw_pc_off = fw[6:0] == OPC_BRANCH ? {{19{fw[31]}}, fw[31], fw[7], fw[30:25], fw[11:8], 1'b0} :
                        fw[6:0] == OPC_JAL    ? {{11{fw[31]}}, fw[31], fw[19:12], fw[20], fw[30:21], 1'b0} :
                                                {fw[31:12], 12'd0};                     // b, j, u

wire is_store    = pd_reg[PD_STORE];
wire is_lui      = pd_reg[PD_LUI];
wire is_auipc    = pd_reg[PD_AUIPC];
wire is_branch   = pd_reg[PD_BRANCH];
wire is_jal      = pd_reg[PD_JAL];
wire is_jalr     = pd_reg[PD_JALR];
wire is_csr      = pd_reg[PD_CSR];
wire is_ecall    = pd_reg[PD_ECALL];
wire is_ebreak   = pd_reg[PD_EBREAK];
wire is_mret     = pd_reg[PD_MRET];
wire is_mem      = pd_reg[PD_MEM];

/* Encodings this core executes (the CSR address is checked separately) */
function encoding_legal;
    input [31:0] w;
    reg [2:0] f3;
    reg [6:0] f7;
    begin
        f3 = w[14:12];
        f7 = w[31:25];
        case (w[6:0])
            OPC_LOAD:     encoding_legal = f3 != 3'b011 && f3 != 3'b110 && f3 != 3'b111;
            OPC_STORE:    encoding_legal = f3[2] == 1'b0 && f3[1:0] != 2'b11;
            OPC_OP_IMM:   encoding_legal = f3 == 3'b001 ? f7 == 7'b0000000 :
                                           f3 == 3'b101 ? (f7 == 7'b0000000 || f7 == 7'b0100000) : 1'b1;
            OPC_OP:       encoding_legal = f7 == 7'b0000000 ||
                                           (f7 == 7'b0100000 && (f3 == 3'b000 || f3 == 3'b101));
            OPC_BRANCH:   encoding_legal = f3[2:1] != 2'b01;
            OPC_JALR:     encoding_legal = f3 == 3'b000;
            OPC_JAL, OPC_LUI, OPC_AUIPC:
                          encoding_legal = 1'b1;
            // FENCE (rs1, rd and fm are ignored, as the spec asks) and FENCE.I:
            // no-ops, there are no caches or buffers to order
            OPC_MISC_MEM: encoding_legal = f3[2:1] == 2'b00;
            OPC_SYSTEM:   encoding_legal = f3 == 3'b000 ? (w == INSN_ECALL || w == INSN_EBREAK ||
                                                           w == INSN_MRET || w == INSN_WFI) :
                                           f3 != 3'b100;
            default:      encoding_legal = 1'b0;
        endcase
    end
endfunction

/* Illegal instruction: not a legal encoding, or a CSR access the CSR does
 * not allow. Decoded from the fetch response in IWAIT (illegal_reg), so
 * EXEC's trap, retire and write enables start at a register. */
function insn_illegal;
    input [31:0] w;
    begin
        insn_illegal = !encoding_legal(w) ||
                       (w[6:0] == OPC_SYSTEM && w[13:12] != 2'b00 && csr_insn_illegal(w[31:20], w[13:12], w[19:15]));
    end
endfunction

/* Sequential: legal, completes in EXEC whatever its operands, never
 * redirects (no jump, branch, MRET, ECALL, EBREAK, memory access or shift:
 * a shift by 0 is only known from rs2). Decoded from the fetch response so
 * that EXEC may issue the next fetch without waiting for its own decisions. */
function sequential;
    input [31:0] w;
    reg [6:0] op;
    begin
        op = w[6:0];
        sequential = !insn_illegal(w) &&
                     (((op == OPC_OP_IMM || op == OPC_OP) && w[13:12] != 2'b01) ||
                      op == OPC_LUI || op == OPC_AUIPC || op == OPC_MISC_MEM || w == INSN_WFI ||
                      (op == OPC_SYSTEM && w[13:12] != 2'b00));
    end
endfunction

// ---------------------------------------------------------------- execute

wire [31:0] rs1_val = pd_reg[PD_RS1_ZERO] ? 32'd0 : rf_rdata1_reg;
wire [31:0] rs2_val = pd_reg[PD_RS2_ZERO] ? 32'd0 : rf_rdata2_reg;

/* Second ALU operand: rs2 for register-register ops and branches, else an immediate */
wire [31:0] op_b = pd_reg[PD_OP_B_RS2] ? rs2_val : pd_op_b_imm_reg;

/* ADD/ADDI, load/store addresses and the JALR target share this adder */
wire [31:0] sum = rs1_val + op_b;
/* its two low bits again, in plain logic: the alignment checks (trap and
 * retire decisions) then do not start with the adder's carry cell */
wire [1:0] sum_lo = {rs1_val[1] ^ op_b[1] ^ (rs1_val[0] & op_b[0]), rs1_val[0] ^ op_b[0]};
/* SUB, SLT[I][U] and branch comparisons */
wire [32:0] diff = {1'b0, rs1_val} - {1'b0, op_b};
wire        lt_u = diff[32];
wire        lt_s = (rs1_val[31] != op_b[31]) ? rs1_val[31] : lt_u;
wire        eq   = diff[31:0] == 32'd0;

/*
 * Shifts are multi-cycle: the rs1 operand register is the shift register.
 * EXEC loads the shift amount; each SHIFT cycle moves the operand 4 places
 * while 4 or more remain, else 1, then one more cycle completes the
 * instruction: a shift by n > 0 takes 1 + n/4 + n%4 extra cycles (at most
 * 11), by 0 none. The result is the operand register itself.
 */
wire        is_shift   = pd_reg[PD_SHIFT];
wire        shift_left = !funct3[2];
wire        shift_fill = funct7_5 && rf_rdata1_reg[31];     // SRA/SRAI
wire        shift_by4  = shamt_reg[4:2] != 3'd0;
reg  [31:0] shift_step;
always @* begin
    case ({shift_left, shift_by4})
        2'b11:   shift_step = {rf_rdata1_reg[27:0], 4'd0};
        2'b10:   shift_step = {rf_rdata1_reg[30:0], 1'b0};
        2'b01:   shift_step = {{4{shift_fill}}, rf_rdata1_reg[31:4]};
        default: shift_step = {shift_fill, rf_rdata1_reg[31:1]};
    endcase
end

reg [31:0] alu_res;
always @* begin
    case (funct3)
        3'b000:  alu_res = pd_reg[PD_SUB] ? diff[31:0] : sum;
        3'b010:  alu_res = {31'd0, lt_s};
        3'b011:  alu_res = {31'd0, lt_u};
        3'b100:  alu_res = rs1_val ^ op_b;
        3'b110:  alu_res = rs1_val | op_b;
        3'b111:  alu_res = rs1_val & op_b;
        default: alu_res = rs1_val;        // 001 SLL, 101 SRL/SRA: shifted in place
    endcase
end

reg branch_cond;
always @* begin
    case (funct3)
        3'b000:  branch_cond = eq;         // BEQ
        3'b001:  branch_cond = !eq;        // BNE
        3'b100:  branch_cond = lt_s;       // BLT
        3'b101:  branch_cond = !lt_s;      // BGE
        3'b110:  branch_cond = lt_u;       // BLTU
        default: branch_cond = !lt_u;      // BGEU (010/011 are illegal)
    endcase
end

/* pc-relative targets: branches, JAL, AUIPC */
wire [31:0] pc        = {pc_reg, 2'b00};
wire [31:0] pc_plus4  = pc + 32'd4;
wire [31:0] pc_rel    = pc + pd_pc_off_reg;
wire        jump      = is_jal || is_jalr || (is_branch && branch_cond);
wire [31:0] jump_addr = is_jalr ? {sum[31:1], 1'b0} : pc_rel;
/* Targets are even by construction; bit 1 set means not 4-byte aligned.
 * pc is 4-byte aligned, so a JAL's or branch's target is misaligned exactly
 * when its offset's bit 1 is set: known from the instruction alone. A
 * branch with such an offset (no compiler emits one without the C
 * extension) spends one more cycle in EXEC (odd_stall), so that whether it
 * is taken, and so traps, comes from a register (odd_taken_reg): the branch
 * compare then reaches only the next pc, never the trap and retire logic. */
wire        branch_odd = pd_reg[PD_BRANCH_ODD];
reg         odd_pass_reg;          // EXEC's second cycle of such a branch
reg         odd_taken_reg;         // branch_cond of its first
wire        jump_misaligned = pd_reg[PD_JAL_ODD] || (is_jalr && sum_lo[1]) ||
                              (branch_odd && odd_pass_reg && odd_taken_reg);

// ---------------------------------------------------------------- loads and stores

wire [1:0] mem_off = sum_lo;
wire [1:0] mem_size = funct3[1:0];                   // 00 byte, 01 half, 10 word
wire       mem_misaligned = (mem_size == 2'b01 && mem_off[0]) || (mem_size == 2'b10 && mem_off != 2'b00);

reg [3:0] mem_be;
always @* begin
    case (mem_size)
        2'b00:   mem_be = 4'b0001 << mem_off;
        2'b01:   mem_be = mem_off[1] ? 4'b1100 : 4'b0011;
        default: mem_be = 4'b1111;
    endcase
end

wire [31:0] store_data = mem_size == 2'b00 ? {4{rs2_val[7:0]}} :
                         mem_size == 2'b01 ? {2{rs2_val[15:0]}} : rs2_val;

/* load result: the addressed bytes moved to bit 0, then sign or zero extended */
wire [31:0] load_shifted = dbus_rsp_rdata >> {mem_off, 3'b000};
reg  [31:0] load_data;
always @* begin
    case (mem_size)
        2'b00:   load_data = {{24{load_shifted[7] && !funct3[2]}}, load_shifted[7:0]};
        2'b01:   load_data = {{16{load_shifted[15] && !funct3[2]}}, load_shifted[15:0]};
        default: load_data = load_shifted;
    endcase
end

// ---------------------------------------------------------------- CSRs

wire [31:0] mstatus_val = {19'd0, 2'b11, 3'd0, mstatus_mpie_reg, 3'd0, mstatus_mie_reg, 3'd0};
wire [31:0] mie_val     = {20'd0, mie_meie_reg, 3'd0, mie_mtie_reg, 7'd0};
wire [31:0] mip_val     = {20'd0, irq_external, 3'd0, irq_timer, 7'd0};
wire [31:0] mcause_val  = {mcause_int_reg, 27'd0, mcause_code_reg};

/* The CSR an instruction names, as a small index predecoded in IWAIT
 * (pd_csr_reg), so the read mux and the write enables do not wait for a
 * 12-bit address compare. The read-only aliases (cycle, time, instret)
 * share their counter's index: a write to them is illegal, so never made.
 * The one table of the CSRs this core has: CI_NONE is an unknown CSR. */
localparam [3:0] CI_NONE = 4'd0, CI_MSTATUS = 4'd1, CI_MISA = 4'd2, CI_MIE = 4'd3, CI_MTVEC = 4'd4,
                 CI_MSCRATCH = 4'd5, CI_MEPC = 4'd6, CI_MCAUSE = 4'd7, CI_MTVAL = 4'd8, CI_MIP = 4'd9,
                 CI_MCYCLE = 4'd10, CI_MCYCLEH = 4'd11, CI_MINSTRET = 4'd12, CI_MINSTRETH = 4'd13,
                 CI_ZERO = 4'd14;      // mstatush and the IDs: read 0, writes ignored
function [3:0] csr_index;
    input [11:0] a;
    begin
        case (a)
            CSR_MSTATUS:   csr_index = CI_MSTATUS;
            CSR_MISA:      csr_index = CI_MISA;
            CSR_MIE:       csr_index = CI_MIE;
            CSR_MTVEC:     csr_index = CI_MTVEC;
            CSR_MSCRATCH:  csr_index = CI_MSCRATCH;
            CSR_MEPC:      csr_index = CI_MEPC;
            CSR_MCAUSE:    csr_index = CI_MCAUSE;
            CSR_MTVAL:     csr_index = CI_MTVAL;
            CSR_MIP:       csr_index = CI_MIP;
            CSR_MCYCLE, CSR_CYCLE, CSR_TIME:
                           csr_index = CI_MCYCLE;
            CSR_MCYCLEH, CSR_CYCLEH, CSR_TIMEH:
                           csr_index = CI_MCYCLEH;
            CSR_MINSTRET, CSR_INSTRET:
                           csr_index = CI_MINSTRET;
            CSR_MINSTRETH, CSR_INSTRETH:
                           csr_index = CI_MINSTRETH;
            CSR_MSTATUSH, CSR_MVENDORID, CSR_MARCHID, CSR_MIMPID, CSR_MHARTID, CSR_MCONFIGPTR:
                           csr_index = CI_ZERO;
            default:       csr_index = CI_NONE;
        endcase
    end
endfunction

/* the CSRs this core has (csr_rdata below reads them) */
function csr_known;
    input [11:0] a;
    begin
        csr_known = csr_index(a) != CI_NONE;
    end
endfunction

/* a CSR instruction that raises illegal-instruction: an unknown CSR, or a
 * write (CSRRW[I] always, CSRRS[I]/CSRRC[I] with rs1 or uimm not 0) to a
 * read-only one (0xC00-0xFFF) */
function csr_insn_illegal;
    input [11:0] addr;
    input [1:0]  f3_lo;         // funct3[1:0]: 01 CSRRW[I]
    input [4:0]  src;           // rs1 or uimm
    begin
        csr_insn_illegal = !csr_known(addr) || ((f3_lo == 2'b01 || src != 5'd0) && addr[11:10] == 2'b11);
    end
endfunction

reg [3:0] pd_csr_reg = CI_NONE;

reg [31:0] csr_rdata;
always @* begin
    case (pd_csr_reg)
        CI_MSTATUS:    csr_rdata = mstatus_val;
        CI_MISA:       csr_rdata = MISA_VALUE;
        CI_MIE:        csr_rdata = mie_val;
        CI_MTVEC:      csr_rdata = {mtvec_reg, 2'b00};
        CI_MSCRATCH:   csr_rdata = mscratch_reg;
        CI_MEPC:       csr_rdata = {mepc_reg, 2'b00};
        CI_MCAUSE:     csr_rdata = mcause_val;
        CI_MTVAL:      csr_rdata = mtval_reg;
        CI_MIP:        csr_rdata = mip_val;
        CI_MCYCLE:     csr_rdata = mcycle_reg[31:0];
        CI_MCYCLEH:    csr_rdata = mcycle_reg[63:32];
        CI_MINSTRET:   csr_rdata = minstret_reg[31:0];
        CI_MINSTRETH:  csr_rdata = minstret_reg[63:32];
        default:       csr_rdata = 32'd0;     // CI_ZERO (CI_NONE is illegal, never read)
    endcase
end

/*
 * CSRRW[I] always writes; CSRRS[I]/CSRRC[I] write only when rs1 (or the
 * immediate) is not zero. CSRs 0xC00-0xFFF are read-only by their address.
 * Writes to misa, mip and mstatush are legal and change nothing.
 */
wire        csr_write   = funct3[1:0] == 2'b01 || rs1 != 5'd0;
wire [31:0] csr_operand = funct3[2] ? {27'd0, rs1} : rs1_val;
reg  [31:0] csr_wdata;
always @* begin
    case (funct3[1:0])
        2'b01:   csr_wdata = csr_operand;
        2'b10:   csr_wdata = csr_rdata | csr_operand;
        default: csr_wdata = csr_rdata & ~csr_operand;
    endcase
end

// ---------------------------------------------------------------- control

wire irq_ext_pending   = irq_external && mie_meie_reg;
wire irq_timer_pending = irq_timer && mie_mtie_reg;
wire irq_take          = mstatus_mie_reg && (irq_ext_pending || irq_timer_pending);
wire illegal           = illegal_reg;

/* Synchronous exception (or interrupt) raised in EXEC, in priority order */
reg        exec_trap;
reg        exec_trap_int;
reg [3:0]  exec_trap_code;
always @* begin
    exec_trap = 1'b1;
    exec_trap_int = 1'b0;
    exec_trap_code = EXC_ILLEGAL;
    if (irq_take) begin
        exec_trap_int = 1'b1;
        exec_trap_code = irq_ext_pending ? INT_M_EXTERNAL : INT_M_TIMER;
    end else if (ifault_reg) begin
        exec_trap_code = EXC_INSN_ACCESS;
    end else if (illegal) begin
        exec_trap_code = EXC_ILLEGAL;
    end else if (is_ecall) begin
        exec_trap_code = EXC_ECALL_M;
    end else if (is_ebreak) begin
        exec_trap_code = EXC_BREAKPOINT;
    end else if (jump_misaligned) begin
        exec_trap_code = EXC_INSN_MISALIGNED;
    end else if (is_mem && mem_misaligned) begin
        exec_trap_code = is_store ? EXC_STORE_MISALIGNED : EXC_LOAD_MISALIGNED;
    end else begin
        exec_trap = 1'b0;
    end
end
/* mtval of that trap, chosen by the same priorities but without the
 * operand-dependent conditions (a jump's target and a load's or store's
 * address cannot both be the cause): the value does not wait for the
 * branch compare, only the decision to trap does */
wire [31:0] exec_trap_tval = irq_take                   ? 32'd0 :
                             (ifault_reg || (!illegal && is_ebreak)) ? pc :
                             illegal                    ? insn_reg :
                             (is_jal || is_jalr || is_branch) ? jump_addr :
                             is_mem                     ? sum : 32'd0;

wire in_exec     = state_reg == S_EXEC;
/* an odd-offset branch's first EXEC cycle (no cause of higher priority) */
wire odd_stall   = in_exec && branch_odd && !odd_pass_reg && !(irq_take || ifault_reg || illegal);
/* EXEC goes on at pc + 4 in this cycle: decided by registers and irq_* only */
wire exec_fast   = in_exec && seq_reg && !irq_take;
wire mem_start   = in_exec && !exec_trap && is_mem;
wire shift_start = in_exec && !exec_trap && is_shift && op_b[4:0] != 5'd0;
assign shift_run = state_reg == S_SHIFT && shamt_reg != 5'd0;
wire shift_done  = state_reg == S_SHIFT && shamt_reg == 5'd0;
/* retires without a memory access: in EXEC, or at the end of a shift */
wire exec_done   = (in_exec && !odd_stall && !exec_trap && !is_mem && !shift_start) || shift_done;
wire mem_done  = state_reg == S_DWAIT && dbus_rsp_valid;
wire mem_fault = mem_done && dbus_rsp_err;
wire retire    = exec_done || (mem_done && !dbus_rsp_err);
wire trap      = (in_exec && exec_trap) || mem_fault;
wire fetch_now = exec_done || (in_exec && exec_trap) || mem_done;

/* Where the next instruction comes from */
wire [31:0] next_pc = trap                  ? {mtvec_reg, 2'b00} :
                      (exec_done && is_mret) ? {mepc_reg, 2'b00} :
                      (exec_done && jump)    ? jump_addr : pc_plus4;

/* Register write-back */
always @* begin
    rf_we = retire && pd_reg[PD_WRITES_RD];
    if (state_reg == S_DWAIT)
        rf_wdata = load_data;
    else if (is_lui)
        rf_wdata = imm_u;
    else if (is_auipc)
        rf_wdata = pc_rel;
    else if (is_jal || is_jalr)
        rf_wdata = pc_plus4;
    else if (is_csr)
        rf_wdata = csr_rdata;
    else
        rf_wdata = alu_res;
end

always @* begin
    state_next = state_reg;
    case (state_reg)
        S_FETCH: if (ibus_req_ready) state_next = S_IWAIT;
        S_IWAIT: if (ibus_rsp_valid) state_next = S_EXEC;
        S_EXEC:  begin
            if (odd_stall)
                state_next = S_EXEC;
            else if (exec_fast)
                state_next = ibus_req_ready ? S_IWAIT : S_FETCH;
            else if (mem_start)
                state_next = S_DREQ;
            else if (shift_start)
                state_next = S_SHIFT;
            else
                state_next = S_FETCH;     // jump, branch, MRET, trap: fetch next_pc from pc_reg
        end
        S_DREQ:  if (dbus_req_ready) state_next = S_DWAIT;
        S_DWAIT: if (dbus_rsp_valid) state_next = ibus_req_ready ? S_IWAIT : S_FETCH;
        S_SHIFT: if (shift_done) state_next = ibus_req_ready ? S_IWAIT : S_FETCH;
        default: state_next = S_FETCH;
    endcase
end

/* CSR writes by CSR instructions (they retire in EXEC). Of exec_trap's
 * causes only those a CSR instruction can have are spelled out: the jump
 * and memory alignment checks (operand-dependent, behind the branch
 * compare and the address adder) never apply to one, and leaving them out
 * keeps the counters' and CSRs' write enables off those paths. */
wire csr_trap = irq_take || ifault_reg || illegal;
wire csr_we = in_exec && is_csr && csr_write && !csr_trap;

always @(posedge clk) begin
    state_reg <= state_next;
    odd_pass_reg <= odd_stall;
    odd_taken_reg <= branch_cond;
    if (fetch_now)
        pc_reg <= next_pc[31:2];
    if (rf_re) begin
        insn_reg <= ibus_rsp_rdata;
        ifault_reg <= ibus_rsp_err;
        seq_reg <= sequential(ibus_rsp_rdata) && !ibus_rsp_err;
        illegal_reg <= insn_illegal(ibus_rsp_rdata);
        pd_reg <= predecode(ibus_rsp_rdata);
        pd_op_b_imm_reg <= fw_op_b_imm;
        pd_pc_off_reg <= fw_pc_off;
        pd_csr_reg <= csr_index(fw[31:20]);
    end
    if (mem_start) begin
        dreq_addr_reg <= sum[31:2];
        dreq_we_reg <= is_store;
        dreq_be_reg <= mem_be;
        dreq_wdata_reg <= store_data;
    end
    if (shift_start)
        shamt_reg <= op_b[4:0];
    else if (shift_run)
        shamt_reg <= shamt_reg - (shift_by4 ? 5'd4 : 5'd1);

    /* counters: a CSR write replaces the value the instruction would otherwise leave */
    mcycle_reg <= mcycle_reg + 64'd1;
    if (retire)
        minstret_reg <= minstret_reg + 64'd1;

    if (csr_we) begin
        case (pd_csr_reg)
            CI_MSTATUS: begin
                mstatus_mie_reg <= csr_wdata[3];
                mstatus_mpie_reg <= csr_wdata[7];
            end
            CI_MIE: begin
                mie_meie_reg <= csr_wdata[11];
                mie_mtie_reg <= csr_wdata[7];
            end
            CI_MTVEC:      mtvec_reg <= csr_wdata[31:2];
            CI_MSCRATCH:   mscratch_reg <= csr_wdata;
            CI_MEPC:       mepc_reg <= csr_wdata[31:2];
            CI_MCAUSE: begin
                mcause_int_reg <= csr_wdata[31];
                mcause_code_reg <= csr_wdata[3:0];
            end
            CI_MTVAL:      mtval_reg <= csr_wdata;
            CI_MCYCLE:     mcycle_reg[31:0] <= csr_wdata;
            CI_MCYCLEH:    mcycle_reg[63:32] <= csr_wdata;
            CI_MINSTRET:   minstret_reg[31:0] <= csr_wdata;
            CI_MINSTRETH:  minstret_reg[63:32] <= csr_wdata;
            default: ;     // misa, mip, mstatush: writes ignored
        endcase
    end

    if (exec_done && is_mret) begin
        mstatus_mie_reg <= mstatus_mpie_reg;
        mstatus_mpie_reg <= 1'b1;
    end

    if (trap) begin
        mepc_reg <= pc_reg;
        mstatus_mpie_reg <= mstatus_mie_reg;
        mstatus_mie_reg <= 1'b0;
        if (mem_fault) begin
            mcause_int_reg <= 1'b0;
            mcause_code_reg <= is_store ? EXC_STORE_ACCESS : EXC_LOAD_ACCESS;
            mtval_reg <= sum;
        end else begin
            mcause_int_reg <= exec_trap_int;
            mcause_code_reg <= exec_trap_code;
            mtval_reg <= exec_trap_tval;
        end
    end

    if (rst) begin
        state_reg <= S_FETCH;
        odd_pass_reg <= 1'b0;
        pc_reg <= boot_addr[31:2];
        mstatus_mie_reg <= 1'b0;
        mstatus_mpie_reg <= 1'b0;
        mie_meie_reg <= 1'b0;
        mie_mtie_reg <= 1'b0;
        mtvec_reg <= 30'd0;
        mcause_int_reg <= 1'b0;
        mcause_code_reg <= 4'd0;
        mcycle_reg <= 64'd0;
        minstret_reg <= 64'd0;
    end
end

// ---------------------------------------------------------------- ports

/* bits that are zero by construction or ignored by definition */
wire [3:0] unused_bits = {boot_addr[1:0], next_pc[1:0]};

/* Fetches: from FETCH (pc_reg), or issued where the next address is known
 * from registers: EXEC of a sequential instruction and the end of a shift
 * (pc + 4), DWAIT's response (pc + 4, or the trap vector on a fault) */
wire fetch_issue = exec_fast || shift_done || mem_done;
assign ibus_req_valid = state_reg == S_FETCH || fetch_issue;
assign ibus_req_addr  = state_reg == S_FETCH ? pc : mem_fault ? {mtvec_reg, 2'b00} : pc_plus4;

assign dbus_req_valid = state_reg == S_DREQ;
assign dbus_req_addr  = {dreq_addr_reg, 2'b00};
assign dbus_req_we    = dreq_we_reg;
assign dbus_req_be    = dreq_be_reg;
assign dbus_req_wdata = dreq_wdata_reg;

assign trace_valid      = retire || trap;
assign trace_pc         = pc;
assign trace_insn       = insn_reg;
assign trace_trap       = trap;
assign trace_cause      = mem_fault ? {28'd0, is_store ? EXC_STORE_ACCESS : EXC_LOAD_ACCESS}
                                    : {exec_trap_int, 27'd0, exec_trap_code};
assign trace_rd         = rf_we ? rd : 5'd0;
assign trace_rd_wdata   = rf_wdata;                 // meaningful when trace_rd != 0
assign trace_store      = mem_done && !dbus_rsp_err && is_store;
assign trace_store_addr = dbus_req_addr;
assign trace_store_be   = dreq_be_reg;
assign trace_store_wdata = dreq_wdata_reg;

endmodule

`resetall
