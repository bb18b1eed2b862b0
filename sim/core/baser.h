// SPDX-License-Identifier: MIT
// The 10GBASE-R line side (IEEE 802.3 Clause 49) in C++, for board models
// whose Ethernet port is a GT lane (AlveoNic): whole Ethernet frames <->
// 64B/66B blocks, and the receiving GT's gearbox with its bit slip.
//
// Conventions (those of docs/ethernet-pcs10g.md and of the Python model
// tests/eth/pcs10g/baser_model.py, which the unit test checks against):
//
//   Block.payload  bit i = the i-th payload bit on the line; the block type
//                  is payload[7:0], data lane j of a data block is
//                  payload[8j+7:8j], the control code of lane i is
//                  payload[8+7i +: 7]
//   Block.hdr      hdr bit 0 = the first header bit on the line: the data
//                  header "01" is 0b10 (kSyncData), control "10" is 0b01
//   bus order      what the GT exchanges with the PCS: line order, or with
//                  reverse (the PCS's BIT_REVERSE = 1) the payload mirrored
//                  and the two header bits swapped
//
// Frames on both ends are Ethernet frames without preamble and FCS (what
// the NIC models and froce::Wire carry). The encoder pads to 60 bytes, adds
// the FCS, the preamble and the SFD; the decoder checks and strips them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace froce_sim {
namespace baser {

constexpr uint8_t kSyncData = 0b10;     // line order "01"
constexpr uint8_t kSyncCtrl = 0b01;     // line order "10"
constexpr uint64_t kMask58 = (uint64_t(1) << 58) - 1;
constexpr unsigned kMinFrame = 60;      // without FCS: shorter frames are padded

struct Block {
    uint8_t hdr = kSyncCtrl;
    uint64_t payload = 0;
    bool operator==(const Block &o) const { return hdr == o.hdr && payload == o.payload; }
};

// Ethernet FCS (CRC-32, reflected, as sent: low byte first).
uint32_t fcs32(const uint8_t *data, size_t n);

// Line order <-> bus order (the mapping is its own inverse).
void to_bus(const Block &b, bool reverse, uint64_t *data, uint8_t *hdr);
Block from_bus(uint64_t data, uint8_t hdr, bool reverse);

// x^58 + x^39 + 1 over the 64 payload bits of a block (49.2.6): y[n] =
// x[n] ^ y[n-39] ^ y[n-58]. The state is the last 58 scrambled bits, the
// oldest in bit 0.
class Scrambler {
public:
    explicit Scrambler(uint64_t state = kMask58) : state_(state & kMask58) {}
    uint64_t operator()(uint64_t x);
    uint64_t state() const { return state_; }

private:
    uint64_t state_;
};

// Self-synchronising: right after 58 received bits whatever the state.
class Descrambler {
public:
    explicit Descrambler(uint64_t state = 0) : state_(state & kMask58) {}
    uint64_t operator()(uint64_t y);

private:
    uint64_t state_;
};

struct EncoderConfig {
    unsigned ifg = 12;              // lanes from /T/ (included) to the next /S/
    bool dic = true;                // deficit idle count (46.3.1.4): gaps ifg-3..ifg+3, average ifg
    bool start_lane4 = true;        // /S/ in lane 4 too (block 0x33), else lane 0 only
    bool scramble = true;
    uint64_t scrambler_state = kMask58;
};

struct EncoderStats {
    uint64_t blocks = 0, frames = 0, bytes = 0;   // frames whose /T/ went out; their bytes without FCS
    uint64_t padded = 0;                          // frames shorter than 60 bytes, padded
    uint64_t eblocks = 0;                         // words no block type encodes (sent as /E/; a bug here)
};

// Frames -> 66-bit blocks, one per next(): the XGMII lanes of the frames
// (the gap and start lanes of the Python model's LaneScheduler, so both
// produce the same blocks), ENCODE, the scrambler. Idle blocks between
// frames.
class BlockEncoder {
public:
    explicit BlockEncoder(const EncoderConfig &cfg = EncoderConfig());
    // A frame without preamble and FCS.
    void push(const std::vector<uint8_t> &frame);
    // The next block (line order, scrambled).
    Block next();
    // Frames pushed whose /T/ has not gone out yet.
    size_t frames_pending() const { return queued_.size() + started_.size(); }
    // A frame's /T/ went out in the last next(): how many (their sizes in stats).
    unsigned frames_done_last() const { return done_last_; }
    const EncoderStats &stats() const { return st_; }

private:
    struct Lane {
        uint8_t byte;
        bool ctrl;
    };
    void schedule(const std::vector<uint8_t> &line);
    Block encode(const Lane *w);

    EncoderConfig cfg_;
    Scrambler scr_;
    std::deque<std::vector<uint8_t>> queued_;   // frames as on the line (preamble .. FCS)
    std::deque<Lane> lanes_;                   // lanes still to send, from absolute lane pos_
    uint64_t pos_ = 0;
    bool have_term_ = false;
    uint64_t last_term_ = 0;                   // absolute lane of the last /T/
    unsigned dic_ = 0;
    struct Started {
        uint64_t term;                          // absolute lane of its /T/
        size_t bytes;                           // frame bytes without FCS
    };
    std::deque<Started> started_;
    unsigned done_last_ = 0;
    EncoderStats st_;
};

struct DecoderStats {
    uint64_t blocks = 0;
    uint64_t frames = 0, bytes = 0;            // good frames out, bytes without FCS
    uint64_t bad_sync = 0;                     // sync header 00 or 11
    uint64_t bad_block = 0;                    // unknown block type or control code, /E/ blocks
    uint64_t sequence = 0;                     // a valid block in the wrong place (Figure 49-15)
    uint64_t bad_preamble = 0, bad_fcs = 0, runts = 0;
    uint64_t frames_dropped = 0;               // frames lost to any of the above
};

// 66-bit blocks -> frames: the descrambler, R_TYPE and DECODE, the receive
// state machine's sequence rules (a frame is /S/, data, /T/ followed by a
// control or start block; anything else in between drops it), then the
// preamble, SFD and FCS of each frame (checked and stripped). The first
// block only fills the descrambler.
class BlockDecoder {
public:
    explicit BlockDecoder(bool scramble = true) : scramble_(scramble) {}
    void push(const Block &scrambled);
    bool pop(std::vector<uint8_t> *frame);
    // Between /S/ and the block after /T/.
    bool in_frame() const { return state_ == State::Data || pending_; }
    const DecoderStats &stats() const { return st_; }
    // Start again (a reset of the transmitter): the next block fills the descrambler.
    void restart();

private:
    enum class State { Idle, Data, Error };
    void drop(uint64_t *counter);
    void finish();

    bool scramble_;
    bool synced_ = false;
    Descrambler desc_;
    State state_ = State::Idle;
    std::vector<uint8_t> cur_;                 // bytes after /S/: preamble rest, SFD, frame, FCS
    bool pending_ = false;                     // cur_ ended with /T/; the next block decides
    std::deque<std::vector<uint8_t>> out_;
    DecoderStats st_;
};

// The receiving GT's 64B/66B gearbox as the PCS sees it (the bench model
// tests/eth/pcs10g/tb_pcs10g_lane.v in C++): a 66-bit window over the
// serial stream {this cycle's block, the last one}, registered; a slip
// request moves it one bit later after slip_latency cycles (from bit 66 it
// wraps to 1, repeating 65 bits once, as the gearbox pauses).
class RxGearbox {
public:
    RxGearbox(unsigned start_pos, unsigned slip_latency, bool reverse);
    // One rising edge of the receive clock: in is the line's block of this
    // cycle (line order), slip the PCS's serdes_rx_bitslip at the edge.
    void clock(const Block &in, bool slip);
    // What the GT drives until the next edge (bus order).
    uint64_t data() const { return out_data_; }
    uint8_t hdr() const { return out_hdr_; }
    unsigned pos() const { return pos_; }
    uint64_t slips() const { return slips_; }

private:
    unsigned pos_, latency_;
    bool reverse_;
    unsigned __int128 prev_ = 0;               // last cycle's block, 66 bits: hdr, then payload
    uint64_t slip_pipe_ = 0;                   // bit i: a request i + 1 cycles old
    uint64_t slips_ = 0;
    uint64_t out_data_ = 0;
    uint8_t out_hdr_ = 0;
};

}  // namespace baser
}  // namespace froce_sim
