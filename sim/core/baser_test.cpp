// SPDX-License-Identifier: MIT
// froce-baser-test: unit tests of the C++ 10GBASE-R model (baser.h). One
// line per case, "ok NAME" or "FAIL NAME: why"; exit 1 if any failed.
#include <cinttypes>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "baser.h"

using namespace froce_sim::baser;

namespace {

int g_failed = 0;

void result(bool ok, const char *name, const std::string &why = "") {
    if (ok) std::printf("ok %s\n", name);
    else std::printf("FAIL %s: %s\n", name, why.c_str());
    if (!ok) g_failed++;
}

std::vector<uint8_t> pattern_frame(unsigned k, unsigned len) {
    std::vector<uint8_t> f(len);
    for (unsigned i = 0; i < len; i++) f[i] = uint8_t(k * 7 + i * 13);
    return f;
}

// tests/eth/pcs10g/baser_model.py, BlockTx() (ifg 12, DIC, /S/ in lanes 0
// and 4, scrambler state all ones) fed XgmiiFrame.from_payload of the
// pattern_frame()s of lengths 42, 64, 67, 72, 100: its first 64 blocks
// (hdr, scrambled payload), line order.
const Block kPythonBlocks[64] = {
    {1, 0x9c0016d555555578ull}, {2, 0x87273ea1724432ffull},
    {2, 0x43b0b82599d4351aull}, {2, 0xe2df37c5b9d19fc8ull},
    {2, 0xeb7dc842262ee19bull}, {2, 0xcf588c0071c63735ull},
    {2, 0x73bb9457ad810decull}, {2, 0x3bd91ee8837c2fe1ull},
    {2, 0x7c01e1e84e8284feull}, {1, 0x288f5e39a1cafeb3ull},
    {1, 0xa5ece4eca1283719ull}, {2, 0x99774b4691a383d9ull},
    {2, 0xbfde1f0ec3b6657cull}, {2, 0xfe79b7741ebcee57ull},
    {2, 0xd388741dde8451bdull}, {2, 0x4340781e29cd9fdaull},
    {2, 0xc04cc5ceda6ed1b0ull}, {2, 0x9696830077560c68ull},
    {2, 0xac13e618985960a1ull}, {2, 0xaf1faafd51bf49ddull},
    {1, 0x6b7dfafc7a938308ull}, {1, 0xd760a3de4f173002ull},
    {2, 0xe206c0ea1c38e6b2ull}, {2, 0xe0747304c24cd9d6ull},
    {2, 0xcc7a6c62f8f406acull}, {2, 0x42ae80918ff9fe74ull},
    {2, 0xb156238db0eb2844ull}, {2, 0x44b7b640942e859bull},
    {2, 0x8b6cde8528efcd16ull}, {2, 0xc70c49d97b004212ull},
    {2, 0x06113d8aa2fccaafull}, {1, 0xdf77a3758dc6dfcfull},
    {1, 0x8d784ee26de6a18aull}, {2, 0xc8c5b1e8e0c5bee5ull},
    {2, 0x33eefddeb138b4c2ull}, {2, 0x5ce9d40b5571b33aull},
    {2, 0x4f6642b3198ce57full}, {2, 0x53801798d7dce498ull},
    {2, 0xaedda26ab3574910ull}, {2, 0x25bff25bbc77362cull},
    {2, 0x050adab651db37bfull}, {2, 0x28f7a2bd141119d7ull},
    {2, 0x279985163f228c64ull}, {1, 0xbb9eb287943e01a9ull},
    {1, 0x2f66d017d109bbffull}, {2, 0xb7379b4b39797852ull},
    {2, 0x3c4cd932c0421d2dull}, {2, 0xfc5d9c9632bf54acull},
    {2, 0x4bd2a2d8313e9b6bull}, {2, 0x0d787d92263703fdull},
    {2, 0x2d7fa6d4e3ace8ecull}, {2, 0x0ccd2201932fbc8aull},
    {2, 0x7484c8fa870773fbull}, {2, 0x8f8ea845e73a55a4ull},
    {2, 0x8ccbf1a267625635ull}, {2, 0xa6dbdf2cf3775d93ull},
    {2, 0xa926f93b5958266full}, {2, 0x2826eccc91fb28fdull},
    {1, 0x2f6088d66b678027ull}, {1, 0x584717b4e9e9f52bull},
    {1, 0xef5fc372f02c7dbeull}, {1, 0x5339377a64210890ull},
    {1, 0xbcd063f4750b390eull}, {1, 0xf01821d1b9e5d6c0ull},
};
const unsigned kPythonLens[5] = {42, 64, 67, 72, 100};

void test_scrambler() {
    std::mt19937_64 rng(5);
    Scrambler s(rng());
    Descrambler d(rng());   // another state: in sync after one block
    bool ok = true;
    std::string why;
    for (unsigned i = 0; i < 1000; i++) {
        const uint64_t x = rng();
        const uint64_t y = s(x);
        const uint64_t back = d(y);
        if (i > 0 && back != x) {
            ok = false;
            char b[128];
            std::snprintf(b, sizeof b, "block %u: %016" PRIx64 " came back as %016" PRIx64, i, x, back);
            why = b;
            break;
        }
    }
    result(ok, "scrambler-roundtrip-self-sync", why);

    // bit-serial reference of y[n] = x[n] ^ y[n-39] ^ y[n-58]
    std::vector<int> hist(58, 1);   // y[-58..-1], all ones: Scrambler's default state
    Scrambler s2;
    ok = true;
    for (unsigned blk = 0; blk < 50 && ok; blk++) {
        const uint64_t x = rng();
        uint64_t ref = 0;
        for (unsigned n = 0; n < 64; n++) {
            const size_t m = hist.size();
            const int y = int((x >> n) & 1) ^ hist[m - 39] ^ hist[m - 58];
            hist.push_back(y);
            ref |= uint64_t(y) << n;
        }
        if (s2(x) != ref) ok = false;
    }
    result(ok, "scrambler-equals-bit-serial-reference", "word-parallel scrambler differs from x^58+x^39+1");
}

void test_python_sequence() {
    BlockEncoder enc;
    for (unsigned k = 0; k < 5; k++) enc.push(pattern_frame(k, kPythonLens[k]));
    bool ok = true;
    char why[200] = "";
    for (unsigned i = 0; i < 64; i++) {
        const Block b = enc.next();
        if (!(b == kPythonBlocks[i])) {
            std::snprintf(why, sizeof why, "block %u: {%u, %016" PRIx64 "}, the Python model has {%u, %016" PRIx64 "}",
                          i, b.hdr, b.payload, kPythonBlocks[i].hdr, kPythonBlocks[i].payload);
            ok = false;
            break;
        }
    }
    result(ok && enc.stats().frames == 5 && enc.stats().padded == 1, "encoder-equals-python-model", why);

    // and the Python model's blocks decode into its frames (padded to 60):
    // descrambled here from the known start state, so that block 0 counts
    Descrambler d(kMask58);
    BlockDecoder plain(false);
    plain.push(Block{kSyncCtrl, 0x1E});
    for (const Block &b : kPythonBlocks) plain.push(Block{b.hdr, d(b.payload)});
    std::vector<uint8_t> f;
    unsigned n = 0;
    ok = true;
    while (plain.pop(&f)) {
        std::vector<uint8_t> want = pattern_frame(n, kPythonLens[n]);
        if (want.size() < kMinFrame) want.resize(kMinFrame, 0);
        if (f != want) ok = false;
        n++;
    }
    result(ok && n == 5 && plain.stats().bad_block == 0 && plain.stats().sequence == 0,
           "decoder-reads-python-blocks", "frames " + std::to_string(n));
}

// the PCS's block lock in a few lines (froce_eth_pcs_block_lock): an invalid
// header slips, then headers are ignored for slip_wait cycles; 64 valid in a
// row lock
struct LockModel {
    unsigned wait = 0, good = 0;
    bool locked = false;
    uint64_t slips = 0;
    bool step(uint8_t hdr_line) {
        if (wait) {
            wait--;
            return false;
        }
        const bool valid = hdr_line == kSyncData || hdr_line == kSyncCtrl;
        if (locked) return false;
        if (!valid) {
            good = 0;
            wait = 16;
            slips++;
            return true;
        }
        if (++good >= 64) locked = true;
        return false;
    }
};

void test_roundtrip_through_gearbox(bool reverse, unsigned start_pos, uint64_t seed) {
    std::mt19937_64 rng(seed);
    BlockEncoder enc;
    RxGearbox gb(start_pos, 4, reverse);
    LockModel lock;
    BlockDecoder dec;
    std::vector<std::vector<uint8_t>> sent;
    bool slip = false;
    uint64_t cycle = 0, locked_at = 0;
    const unsigned nframes = 200;
    std::vector<std::vector<uint8_t>> got;
    while (cycle < 400000 && got.size() < nframes) {
        gb.clock(enc.next(), slip);
        const Block line = from_bus(gb.data(), gb.hdr(), reverse);
        slip = lock.step(line.hdr);
        if (lock.locked) {
            if (!locked_at) {
                locked_at = cycle;
                for (unsigned i = 0; i < nframes; i++) {
                    const unsigned len = i % 10 == 0 ? unsigned(rng() % 60) + 1
                                         : i % 10 == 1 ? 1514 : unsigned(60 + rng() % 1455);
                    std::vector<uint8_t> f(len);
                    for (auto &b : f) b = uint8_t(rng());
                    enc.push(f);
                    if (f.size() < kMinFrame) f.resize(kMinFrame, 0);
                    sent.push_back(f);
                }
            }
            dec.push(line);
            std::vector<uint8_t> f;
            while (dec.pop(&f)) got.push_back(f);
        }
        cycle++;
    }
    char name[96], why[256];
    std::snprintf(name, sizeof name, "roundtrip-gearbox-%s-pos%u", reverse ? "reversed" : "straight", start_pos);
    bool ok = lock.locked && got == sent && dec.stats().bad_fcs == 0 && dec.stats().sequence == 0 &&
              enc.stats().frames == nframes;
    std::snprintf(why, sizeof why,
                  "locked %d after %" PRIu64 " cycles, %" PRIu64 " slips (gearbox pos %u); frames %zu of %zu equal %d; "
                  "bad fcs %" PRIu64 " sequence %" PRIu64 " bad block %" PRIu64,
                  int(lock.locked), locked_at, lock.slips, gb.pos(), got.size(), sent.size(), int(got == sent),
                  dec.stats().bad_fcs, dec.stats().sequence, dec.stats().bad_block);
    result(ok, name, why);
}

void test_errors() {
    // a flipped payload bit inside a frame: FCS error, frame dropped; the next one arrives
    BlockEncoder enc;
    BlockDecoder dec;
    std::vector<Block> blocks;
    blocks.push_back(enc.next());   // an idle block: fills the decoder's descrambler
    enc.push(pattern_frame(1, 100));
    enc.push(pattern_frame(2, 100));
    for (unsigned i = 0; i < 60; i++) blocks.push_back(enc.next());
    // block 1 is the first frame's /S/; flip a bit of its data in block 4
    blocks[4].payload ^= uint64_t(1) << 20;
    for (const Block &b : blocks) dec.push(b);
    std::vector<uint8_t> f;
    unsigned n = 0;
    bool second = false;
    while (dec.pop(&f)) {
        n++;
        second = f == pattern_frame(2, 100);
    }
    // the self-synchronising descrambler spreads one line error to three bits
    result(n == 1 && second && dec.stats().bad_fcs == 1, "bit-error-fcs",
           "frames " + std::to_string(n) + ", bad fcs " + std::to_string(dec.stats().bad_fcs));

    // an invalid sync header inside a frame drops it
    BlockEncoder e2;
    BlockDecoder d2;
    blocks.clear();
    blocks.push_back(e2.next());
    e2.push(pattern_frame(3, 200));
    e2.push(pattern_frame(4, 64));
    for (unsigned i = 0; i < 80; i++) blocks.push_back(e2.next());
    blocks[6].hdr = 0;
    for (const Block &b : blocks) d2.push(b);
    n = 0;
    second = false;
    while (d2.pop(&f)) {
        n++;
        second = f == pattern_frame(4, 64);
    }
    result(n == 1 && second && d2.stats().bad_sync == 1 && d2.stats().frames_dropped == 1, "bad-sync-header-drops",
           "frames " + std::to_string(n));

    // /T/ followed by a data block: not a frame (RX_E)
    BlockDecoder d3(false);
    d3.push(Block{kSyncCtrl, 0x1E});
    uint64_t s0 = 0x78 | (uint64_t(0x55) << 8) | (uint64_t(0x55) << 16) | (uint64_t(0x55) << 24) |
                  (uint64_t(0x55) << 32) | (uint64_t(0x55) << 40) | (uint64_t(0x55) << 48) | (uint64_t(0xD5) << 56);
    d3.push(Block{kSyncCtrl, s0});
    for (unsigned i = 0; i < 8; i++) d3.push(Block{kSyncData, 0x0123456789abcdefull});
    d3.push(Block{kSyncCtrl, 0x87});
    d3.push(Block{kSyncData, 0});
    result(!d3.pop(&f) && d3.stats().sequence >= 1, "terminate-then-data-drops");

    // frames shorter than 64 bytes with FCS on the line: runts
    BlockDecoder d4(false);
    d4.push(Block{kSyncCtrl, 0x1E});
    d4.push(Block{kSyncCtrl, s0});
    for (unsigned i = 0; i < 4; i++) d4.push(Block{kSyncData, 0});
    d4.push(Block{kSyncCtrl, 0x87});
    d4.push(Block{kSyncCtrl, 0x1E});
    result(!d4.pop(&f) && d4.stats().runts == 1, "runt-dropped");
}

}  // namespace

int main() {
    test_scrambler();
    test_python_sequence();
    test_roundtrip_through_gearbox(true, 0, 1);
    test_roundtrip_through_gearbox(true, 33, 2);
    test_roundtrip_through_gearbox(true, 66, 3);
    test_roundtrip_through_gearbox(false, 17, 4);
    test_errors();
    std::printf("froce-baser-test: %d failed\n", g_failed);
    return g_failed ? 1 : 0;
}
