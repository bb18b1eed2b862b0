// SPDX-License-Identifier: MIT
// Cycle driver for the Verilator model of froce_pcap_top: queues of frames in,
// decoded headers, payloads and built frames out, random back-pressure.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <verilated.h>

#include "froce_hw.h"
#include "rhdr.h"

namespace froce {

// Port accessors for the two ways Verilator represents a port: an integer
// (up to 64 bits) or a VlWide word array.
inline void put_bytes(uint64_t &port, const uint8_t *b, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= static_cast<uint64_t>(b[i]) << (8 * i);
	port = v;
}

template <std::size_t N> void put_bytes(VlWide<N> &port, const uint8_t *b, int n)
{
	for (std::size_t i = 0; i < N; i++)
		port[i] = 0;
	for (int i = 0; i < n; i++)
		port[i / 4] |= static_cast<uint32_t>(b[i]) << (8 * (i % 4));
}

inline void get_bytes(const uint64_t &port, uint8_t *b, int n)
{
	for (int i = 0; i < n; i++)
		b[i] = static_cast<uint8_t>(port >> (8 * i));
}

template <std::size_t N> void get_bytes(const VlWide<N> &port, uint8_t *b, int n)
{
	for (int i = 0; i < n; i++)
		b[i] = static_cast<uint8_t>(port[i / 4] >> (8 * (i % 4)));
}

template <class T> uint64_t keep_value(const T &port) { return static_cast<uint64_t>(port); }

template <std::size_t N> void put_hdr(VlWide<N> &port, const Rhdr &h)
{
	static_assert(N == Rhdr::kWords, "RHDR width mismatch between RTL and C header");
	for (std::size_t i = 0; i < N; i++)
		port[i] = h.w[i];
}

template <std::size_t N> Rhdr get_hdr(const VlWide<N> &port)
{
	Rhdr h;
	for (std::size_t i = 0; i < N; i++)
		h.w[i] = port[i];
	return h;
}

struct RxResult {
	Rhdr hdr;
	std::vector<uint8_t> data;  // payload (RoCE) or whole frame (not RoCE)
	int verdict = -1;           // tuser on the tlast beat
	int stat_verdict = -1;      // the status pulse for the frame
};

struct TxJob {
	Rhdr hdr;
	std::vector<uint8_t> payload;
	// Deliberately wrong payload frame length, for error tests (bytes added
	// or removed relative to payload_len); 0 for a correct one.
	int length_skew = 0;
};

struct TxResult {
	std::vector<uint8_t> frame;
	bool error = false;
};

struct Stats {
	uint64_t cycles = 0;
	uint64_t rx_in_beats = 0, rx_in_first = 0, rx_in_last = 0;
	uint64_t tx_out_beats = 0, tx_out_first = 0, tx_out_last = 0;
	uint64_t tx_len_err = 0;
};

class EngineError : public std::runtime_error {
	using std::runtime_error::runtime_error;
};

// M is the Verilated model class, DW its DATA_WIDTH.
template <class M, int DW> class Engine {
public:
	static constexpr int W = DW / 8;

	Engine(uint64_t seed, double stall) : rng_(seed), stall_(stall)
	{
		ctx_ = std::make_unique<VerilatedContext>();
		m_ = std::make_unique<M>(ctx_.get(), "froce_pcap_top");
		m_->clk = 0;
		m_->rst = 1;
		for (int i = 0; i < 4; i++)
			tick_raw();
		m_->rst = 0;
		tick_raw();
	}

	~Engine() { m_->final(); }

	// Opcode table straight from the RTL (froce_opcode_info).
	uint16_t opcode_info(uint8_t op)
	{
		m_->probe_opcode = op;
		m_->eval();
		return m_->probe_info;
	}

	void rx_push(std::vector<uint8_t> frame) { rx_in_.push_back(std::move(frame)); rx_pushed_++; }
	void tx_push(TxJob job)
	{
		tx_hdr_in_.push_back(job.hdr);
		std::vector<uint8_t> p = job.payload;
		if (job.length_skew > 0)
			p.resize(p.size() + job.length_skew, 0xa5);
		else if (job.length_skew < 0)
			p.resize(p.size() > size_t(-job.length_skew) ? p.size() + job.length_skew : 0);
		tx_pay_in_.push_back(std::move(p));
		tx_pushed_++;
	}

	// When set, every frame the builder emits is queued into the parser.
	void set_chain(bool on) { chain_ = on; }

	std::vector<RxResult> rx_out;
	std::vector<TxResult> tx_out;
	Stats stats;

	// Runs until every queued frame came out of its block.
	void run()
	{
		uint64_t idle = 0;
		while (rx_out.size() < rx_pushed_ || tx_out.size() < tx_pushed_) {
			if (step())
				idle = 0;
			else if (++idle > 20000)
				throw EngineError("pipeline hang: no handshake for 20000 cycles (rx " +
						  std::to_string(rx_out.size()) + "/" +
						  std::to_string(rx_pushed_) + ", tx " +
						  std::to_string(tx_out.size()) + "/" +
						  std::to_string(tx_pushed_) + ")");
		}
		// let any status pulse of the last frame land
		for (int i = 0; i < 4; i++)
			step();
		if (stat_seen_ != rx_out.size())
			throw EngineError("status pulses (" + std::to_string(stat_seen_) +
					  ") do not match frames out (" +
					  std::to_string(rx_out.size()) + ")");
		for (size_t i = 0; i < rx_out.size(); i++)
			if (rx_out[i].stat_verdict != rx_out[i].verdict)
				throw EngineError("frame " + std::to_string(i + 1) + ": status verdict " +
						  std::to_string(rx_out[i].stat_verdict) +
						  " differs from tuser " +
						  std::to_string(rx_out[i].verdict));
	}

private:
	bool stalled() { return stall_ > 0 && coin_(rng_) < stall_; }

	void tick_raw()
	{
		m_->clk = 0;
		m_->eval();
		m_->clk = 1;
		m_->eval();
		stats.cycles++;
	}

	// One clock cycle; returns whether any handshake happened.
	bool step()
	{
		uint8_t buf[W];
		m_->clk = 0;

		/* drive inputs */
		bool rx_v = !rx_in_.empty() && !stalled();
		if (rx_v) {
			const std::vector<uint8_t> &f = rx_in_.front();
			size_t off = rx_off_;
			int n = static_cast<int>(std::min<size_t>(W, f.size() - off));
			put_bytes(m_->rx_s_tdata, f.data() + off, n);
			m_->rx_s_tkeep = n >= 64 ? ~0ull : ((1ull << n) - 1);
			m_->rx_s_tlast = off + W >= f.size();
		}
		m_->rx_s_tvalid = rx_v;
		m_->rx_m_hdr_ready = !stalled();
		m_->rx_m_tready = !stalled();

		bool txh_v = !tx_hdr_in_.empty() && !stalled();
		if (txh_v)
			put_hdr(m_->tx_s_hdr, tx_hdr_in_.front());
		m_->tx_s_hdr_valid = txh_v;
		bool txp_v = !tx_pay_in_.empty() && !stalled();
		if (txp_v) {
			const std::vector<uint8_t> &p = tx_pay_in_.front();
			size_t off = tx_off_;
			int n = static_cast<int>(std::min<size_t>(W, p.size() - off));
			put_bytes(m_->tx_s_tdata, p.data() + off, n);
			m_->tx_s_tkeep = n >= 64 ? ~0ull : ((1ull << n) - 1);
			m_->tx_s_tlast = off + W >= p.size();
		}
		m_->tx_s_tvalid = txp_v;
		m_->tx_m_tready = !stalled();

		m_->eval();

		/* sample handshakes before the edge */
		bool rx_in_fire = m_->rx_s_tvalid && m_->rx_s_tready;
		bool rx_hdr_fire = m_->rx_m_hdr_valid && m_->rx_m_hdr_ready;
		bool rx_out_fire = m_->rx_m_tvalid && m_->rx_m_tready;
		bool txh_fire = m_->tx_s_hdr_valid && m_->tx_s_hdr_ready;
		bool txp_fire = m_->tx_s_tvalid && m_->tx_s_tready;
		bool tx_out_fire = m_->tx_m_tvalid && m_->tx_m_tready;

		if (m_->rx_stat_valid) {
			stat_verdicts_.push_back(m_->rx_stat_verdict);
			stat_seen_++;
		}
		if (m_->tx_stat_len_err)
			stats.tx_len_err++;

		if (rx_hdr_fire)
			rx_hdrs_.push_back(get_hdr(m_->rx_m_hdr));
		if (rx_out_fire) {
			uint64_t keep = keep_value(m_->rx_m_tkeep);
			get_bytes(m_->rx_m_tdata, buf, W);
			for (int i = 0; i < W; i++)
				if (keep >> i & 1)
					rx_data_.push_back(buf[i]);
			if (m_->rx_m_tlast) {
				rx_payloads_.push_back(std::move(rx_data_));
				rx_data_.clear();
				rx_verdicts_.push_back(m_->rx_m_tuser);
			} else if (m_->rx_m_tuser) {
				throw EngineError("tuser set on a beat that is not the last");
			}
		}
		// the two channels are independent; pair them in order
		while (!rx_hdrs_.empty() && !rx_payloads_.empty()) {
			RxResult r;
			r.hdr = rx_hdrs_.front();
			rx_hdrs_.pop_front();
			r.data = std::move(rx_payloads_.front());
			rx_payloads_.pop_front();
			r.verdict = rx_verdicts_.front();
			rx_verdicts_.pop_front();
			rx_out.push_back(std::move(r));
		}
		if (tx_out_fire) {
			uint64_t keep = keep_value(m_->tx_m_tkeep);
			get_bytes(m_->tx_m_tdata, buf, W);
			for (int i = 0; i < W; i++)
				if (keep >> i & 1)
					tx_data_.push_back(buf[i]);
			if (stats.tx_out_beats == 0)
				stats.tx_out_first = stats.cycles;
			stats.tx_out_beats++;
			stats.tx_out_last = stats.cycles;
			if (m_->tx_m_tlast) {
				TxResult t;
				t.frame = std::move(tx_data_);
				tx_data_.clear();
				t.error = m_->tx_m_tuser;
				if (chain_)
					rx_push(t.frame);
				tx_out.push_back(std::move(t));
			}
		}

		m_->clk = 1;
		m_->eval();
		stats.cycles++;

		/* advance the input queues */
		if (rx_in_fire) {
			if (stats.rx_in_beats == 0)
				stats.rx_in_first = stats.cycles;
			stats.rx_in_beats++;
			stats.rx_in_last = stats.cycles;
			rx_off_ += W;
			if (rx_off_ >= rx_in_.front().size()) {
				rx_in_.pop_front();
				rx_off_ = 0;
			}
		}
		if (txh_fire)
			tx_hdr_in_.pop_front();
		if (txp_fire) {
			tx_off_ += W;
			if (tx_off_ >= tx_pay_in_.front().size()) {
				tx_pay_in_.pop_front();
				tx_off_ = 0;
			}
		}
		// match status pulses to frames in order
		while (!stat_verdicts_.empty() && stat_matched_ < rx_out.size()) {
			rx_out[stat_matched_++].stat_verdict = stat_verdicts_.front();
			stat_verdicts_.pop_front();
		}
		return rx_in_fire || rx_hdr_fire || rx_out_fire || txh_fire || txp_fire || tx_out_fire;
	}

	std::unique_ptr<VerilatedContext> ctx_;
	std::unique_ptr<M> m_;
	std::mt19937_64 rng_;
	std::uniform_real_distribution<double> coin_{0.0, 1.0};
	double stall_;
	bool chain_ = false;

	std::deque<std::vector<uint8_t>> rx_in_;
	size_t rx_off_ = 0;
	size_t rx_pushed_ = 0;
	std::deque<Rhdr> rx_hdrs_;
	std::vector<uint8_t> rx_data_;
	std::deque<std::vector<uint8_t>> rx_payloads_;
	std::deque<int> rx_verdicts_;
	std::deque<int> stat_verdicts_;
	size_t stat_seen_ = 0, stat_matched_ = 0;

	std::deque<Rhdr> tx_hdr_in_;
	std::deque<std::vector<uint8_t>> tx_pay_in_;
	size_t tx_off_ = 0;
	size_t tx_pushed_ = 0;
	std::vector<uint8_t> tx_data_;
};

} // namespace froce
