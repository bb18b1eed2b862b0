// SPDX-License-Identifier: MIT
// The RoCE header bundle (RHDR, layout generated into froce_hw.h) as C++ words.
#pragma once

#include <cstdint>
#include <cstring>

#include "froce_hw.h"

namespace froce {

struct Rhdr {
	static constexpr int kWords = (FROCE_RHDR_W + 31) / 32;
	uint32_t w[kWords] = {};

	uint64_t get(int lsb, int width) const
	{
		uint64_t v = 0;
		for (int i = 0; i < width; i++)
			v |= static_cast<uint64_t>(w[(lsb + i) / 32] >> ((lsb + i) % 32) & 1) << i;
		return v;
	}

	void set(int lsb, int width, uint64_t v)
	{
		for (int i = 0; i < width; i++) {
			uint32_t &word = w[(lsb + i) / 32];
			uint32_t bit = 1u << ((lsb + i) % 32);
			word = (v >> i & 1) ? (word | bit) : (word & ~bit);
		}
	}

	// 128-bit fields (GIDs) as 16 bytes, most significant first (wire order)
	void get_bytes128(int lsb, uint8_t out[16]) const
	{
		for (int i = 0; i < 16; i++)
			out[15 - i] = static_cast<uint8_t>(get(lsb + 8 * i, 8));
	}

	void set_bytes128(int lsb, const uint8_t in[16])
	{
		for (int i = 0; i < 16; i++)
			set(lsb + 8 * i, 8, in[15 - i]);
	}

	// A field of the extension headers (ext: their wire bytes, the first in
	// the most significant byte), `off` bits from ext's first bit on the
	// wire, as the headers' _OFF constants count
	uint64_t ext_get(int off, int width) const
	{
		return get(FROCE_RHDR_EXT_LSB + FROCE_RHDR_EXT_W - off - width, width);
	}

	void ext_set(int off, int width, uint64_t v)
	{
		set(FROCE_RHDR_EXT_LSB + FROCE_RHDR_EXT_W - off - width, width, v);
	}

	bool operator==(const Rhdr &o) const { return std::memcmp(w, o.w, sizeof(w)) == 0; }
};

} // namespace froce

// Field access by name: RHDR_GET(h, PSN), RHDR_SET(h, PSN, 5); extension
// header fields by header and field, after `pre` bytes of other headers:
// RHDR_EXT_GET(h, 0, RETH, VA), RHDR_EXT_GET(h, FROCE_DETH_LEN, IMMDT, IMM)
#define RHDR_GET(h, F) ((h).get(FROCE_RHDR_##F##_LSB, FROCE_RHDR_##F##_W))
#define RHDR_SET(h, F, v) ((h).set(FROCE_RHDR_##F##_LSB, FROCE_RHDR_##F##_W, (v)))
#define RHDR_EXT_GET(h, pre, H, F) ((h).ext_get(8 * (pre) + FROCE_##H##_##F##_OFF, FROCE_##H##_##F##_W))
#define RHDR_EXT_SET(h, pre, H, F, v) ((h).ext_set(8 * (pre) + FROCE_##H##_##F##_OFF, FROCE_##H##_##F##_W, (v)))
