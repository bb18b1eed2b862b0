// SPDX-License-Identifier: MIT
// Minimal pcap (LINKTYPE_ETHERNET) reader and writer.
#include "pcap_file.h"

#include <memory>

namespace {

constexpr uint32_t kMagicUs = 0xa1b2c3d4;
constexpr uint32_t kMagicNs = 0xa1b23c4d;
constexpr uint32_t kMaxSnap = 262144;

uint32_t swap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
}

struct FileCloser {
	void operator()(FILE *f) const { fclose(f); }
};

} // namespace

bool pcap_read(const std::string &path, PcapFile *out, std::string *err)
{
	std::unique_ptr<FILE, FileCloser> f(fopen(path.c_str(), "rb"));
	if (!f) {
		*err = path + ": cannot open";
		return false;
	}
	uint32_t hdr[6];
	if (fread(hdr, 4, 6, f.get()) != 6) {
		*err = path + ": not a pcap file (short header)";
		return false;
	}
	bool swapped = false;
	if (hdr[0] == kMagicUs || hdr[0] == kMagicNs) {
		out->nanosecond = hdr[0] == kMagicNs;
	} else if (swap32(hdr[0]) == kMagicUs || swap32(hdr[0]) == kMagicNs) {
		swapped = true;
		out->nanosecond = swap32(hdr[0]) == kMagicNs;
	} else {
		*err = path + ": not a pcap file (bad magic; pcapng is not supported)";
		return false;
	}
	auto fix = [&](uint32_t v) { return swapped ? swap32(v) : v; };
	out->linktype = fix(hdr[5]) & 0x0fffffff;
	if (out->linktype != 1) {
		*err = path + ": link type " + std::to_string(out->linktype) +
		       " is not Ethernet (1)";
		return false;
	}
	out->frames.clear();
	for (;;) {
		uint32_t rec[4];
		size_t n = fread(rec, 4, 4, f.get());
		if (n == 0)
			break;
		if (n != 4) {
			*err = path + ": truncated record header";
			return false;
		}
		PcapFrame fr;
		fr.ts_sec = fix(rec[0]);
		fr.ts_frac = fix(rec[1]);
		uint32_t caplen = fix(rec[2]);
		if (caplen > kMaxSnap) {
			*err = path + ": record of " + std::to_string(caplen) + " bytes is too large";
			return false;
		}
		fr.data.resize(caplen);
		if (caplen && fread(fr.data.data(), 1, caplen, f.get()) != caplen) {
			*err = path + ": truncated record";
			return false;
		}
		out->frames.push_back(std::move(fr));
	}
	return true;
}

bool pcap_write(const std::string &path, const PcapFile &file, std::string *err)
{
	std::unique_ptr<FILE, FileCloser> f(fopen(path.c_str(), "wb"));
	if (!f) {
		*err = path + ": cannot create";
		return false;
	}
	const uint32_t hdr[6] = {file.nanosecond ? kMagicNs : kMagicUs, 0x00040002u, 0,
				 0, kMaxSnap, file.linktype};
	bool ok = fwrite(hdr, 4, 6, f.get()) == 6;
	for (const PcapFrame &fr : file.frames) {
		const uint32_t len = static_cast<uint32_t>(fr.data.size());
		const uint32_t rec[4] = {fr.ts_sec, fr.ts_frac, len, len};
		ok = ok && fwrite(rec, 4, 4, f.get()) == 4;
		ok = ok && (len == 0 || fwrite(fr.data.data(), 1, len, f.get()) == len);
	}
	if (!ok) {
		*err = path + ": write failed";
		return false;
	}
	return true;
}
