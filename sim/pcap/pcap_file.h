// SPDX-License-Identifier: MIT
// Minimal pcap (LINKTYPE_ETHERNET) reader and writer.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

struct PcapFrame {
	uint32_t ts_sec = 0;
	uint32_t ts_frac = 0;  // micro- or nanoseconds, as in the file
	std::vector<uint8_t> data;
};

struct PcapFile {
	bool nanosecond = false;
	uint32_t linktype = 1;
	std::vector<PcapFrame> frames;
};

// Both return false and fill *err with a message on failure.
bool pcap_read(const std::string &path, PcapFile *out, std::string *err);
bool pcap_write(const std::string &path, const PcapFile &file, std::string *err);
