// SPDX-License-Identifier: MIT
// One direction of a simulated Ethernet link with a seeded fault injector and
// an optional pcap tap, for connecting two NIC models (or a NIC and a peer).
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <random>
#include <string>
#include <vector>

namespace froce {

// Probabilities per frame, each in [0, 1]; faults are drawn independently.
struct FaultConfig {
	double drop = 0;     // frame lost
	double dup = 0;      // frame delivered twice
	double reorder = 0;  // frame held back and delivered after the next one
	double corrupt = 0;  // one bit flipped past the Ethernet header (what
			     // the MAC's FCS would not see: damage inside the
			     // sender; the ICRC has to catch it)
	uint64_t seed = 1;
	uint64_t latency = 0;  // cycles from send to the earliest delivery
	// A frame held back for reordering goes out after the next frame, or
	// after this many cycles if no frame follows (the end of a burst).
	uint64_t reorder_hold = 1000;

	// "" when valid, else what is wrong
	std::string check() const;
};

struct WireStats {
	uint64_t sent = 0, delivered = 0;
	uint64_t dropped = 0, duplicated = 0, reordered = 0, corrupted = 0;
};

// Streaming pcap writer (LINKTYPE_ETHERNET, nanosecond timestamps).
class PcapTap {
public:
	// ns_per_cycle converts simulation cycles into capture timestamps.
	PcapTap(const std::string &path, double ns_per_cycle);
	~PcapTap();
	PcapTap(const PcapTap &) = delete;
	PcapTap &operator=(const PcapTap &) = delete;

	bool ok() const { return f_ != nullptr && !failed_; }
	void write(const std::vector<uint8_t> &frame, uint64_t cycle);

private:
	FILE *f_ = nullptr;
	double ns_per_cycle_;
	bool failed_ = false;
};

class Wire {
public:
	explicit Wire(const FaultConfig &cfg, PcapTap *tap = nullptr);

	// Puts a frame on the wire at cycle `now`.
	void send(std::vector<uint8_t> frame, uint64_t now);
	// Takes the next frame that has arrived by cycle `now`; false if none.
	bool receive(std::vector<uint8_t> *frame, uint64_t now);
	// Releases a frame held back for reordering (end of traffic).
	void flush(uint64_t now);
	// Frames on the wire not yet delivered (including one held back).
	size_t in_flight() const { return queue_.size() + (held_ ? 1 : 0); }

	const WireStats &stats() const { return stats_; }

private:
	struct Slot {
		uint64_t due;
		std::vector<uint8_t> frame;
	};
	void enqueue(std::vector<uint8_t> frame, uint64_t now);
	bool chance(double p) { return p > 0 && coin_(rng_) < p; }

	FaultConfig cfg_;
	PcapTap *tap_;
	std::mt19937_64 rng_;
	std::uniform_real_distribution<double> coin_{0.0, 1.0};
	std::deque<Slot> queue_;
	bool held_ = false;
	uint64_t held_since_ = 0;
	std::vector<uint8_t> held_frame_;
	WireStats stats_;
};

} // namespace froce
