// SPDX-License-Identifier: MIT
// One direction of a simulated Ethernet link with a seeded fault injector.
#include "wire.h"

#include <cmath>

namespace froce {

namespace {
constexpr size_t kEthHeader = 14;
}

std::string FaultConfig::check() const
{
	const struct {
		const char *name;
		double p;
	} probs[] = {{"drop", drop}, {"dup", dup}, {"reorder", reorder}, {"corrupt", corrupt}};
	for (const auto &x : probs)
		if (!(x.p >= 0.0 && x.p <= 1.0))
			return std::string(x.name) + " probability must be between 0 and 1";
	return "";
}

PcapTap::PcapTap(const std::string &path, double ns_per_cycle) : ns_per_cycle_(ns_per_cycle)
{
	f_ = fopen(path.c_str(), "wb");
	if (!f_)
		return;
	const uint32_t hdr[6] = {0xa1b23c4du, 0x00040002u, 0, 0, 262144, 1};
	failed_ = fwrite(hdr, 4, 6, f_) != 6;
}

PcapTap::~PcapTap()
{
	if (f_)
		fclose(f_);
}

void PcapTap::write(const std::vector<uint8_t> &frame, uint64_t cycle)
{
	if (!ok())
		return;
	uint64_t ns = static_cast<uint64_t>(std::llround(static_cast<double>(cycle) * ns_per_cycle_));
	const uint32_t len = static_cast<uint32_t>(frame.size());
	const uint32_t rec[4] = {static_cast<uint32_t>(ns / 1000000000u),
				 static_cast<uint32_t>(ns % 1000000000u), len, len};
	failed_ = failed_ || fwrite(rec, 4, 4, f_) != 4 ||
		  (len && fwrite(frame.data(), 1, len, f_) != len);
}

Wire::Wire(const FaultConfig &cfg, PcapTap *tap) : cfg_(cfg), tap_(tap), rng_(cfg.seed) {}

void Wire::enqueue(std::vector<uint8_t> frame, uint64_t now)
{
	if (tap_)
		tap_->write(frame, now);
	queue_.push_back({now + cfg_.latency, std::move(frame)});
}

void Wire::send(std::vector<uint8_t> frame, uint64_t now)
{
	stats_.sent++;
	if (chance(cfg_.drop)) {
		stats_.dropped++;
		return;
	}
	if (frame.size() > kEthHeader && chance(cfg_.corrupt)) {
		size_t bit = kEthHeader * 8 + rng_() % ((frame.size() - kEthHeader) * 8);
		frame[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
		stats_.corrupted++;
	}
	bool dup = chance(cfg_.dup);
	if (!held_ && chance(cfg_.reorder)) {
		// goes out right after the next frame
		held_ = true;
		held_since_ = now;
		held_frame_ = std::move(frame);
		stats_.reordered++;
		if (dup) {
			stats_.duplicated++;
			enqueue(held_frame_, now);
		}
		return;
	}
	if (dup) {
		stats_.duplicated++;
		enqueue(frame, now);
	}
	enqueue(std::move(frame), now);
	if (held_) {
		held_ = false;
		enqueue(std::move(held_frame_), now);
	}
}

void Wire::flush(uint64_t now)
{
	if (held_) {
		held_ = false;
		enqueue(std::move(held_frame_), now);
	}
}

bool Wire::receive(std::vector<uint8_t> *frame, uint64_t now)
{
	if (held_ && now >= held_since_ + cfg_.reorder_hold)
		flush(now);
	if (queue_.empty() || queue_.front().due > now)
		return false;
	*frame = std::move(queue_.front().frame);
	queue_.pop_front();
	stats_.delivered++;
	return true;
}

} // namespace froce
