/* SPDX-License-Identifier: MIT */
/*
 * froce UART host link: a host program's access to a froce board that has
 * no PCIe (ECP5 boards), through froce_uart_host_bridge over the FT2232H
 * UART, a Unix socket or TCP (simulators). Everything a PCIe driver does:
 * BAR0 registers, BAR2 doorbells, the "host memory" window that the NIC's
 * DMA reads and writes, and interrupts. Protocol: froce_uart_proto.h and
 * README.md in this folder.
 *
 * Every function returns 0 or a negative errno value, and leaves a message
 * for froce_link_errmsg():
 *   -EINVAL      bad argument (alignment, length; checked before sending,
 *                or BAD_ARG from the device)
 *   -ERANGE      outside the window (checked against INFO before sending,
 *                or OUT_OF_WINDOW)
 *   -EIO         the device's AXI access failed (SLVERR/DECERR), or a
 *                read/write on the link failed
 *   -EOPNOTSUPP  the device does not know the command (BAD_CMD)
 *   -EPROTO      a malformed answer (wrong length, unknown status)
 *   -ETIMEDOUT   no answer after all attempts (froce_link_wait_irq: no
 *                interrupt in time)
 *   -EBADMSG     the request arrived corrupted at every attempt
 *   -ECONNRESET  the link closed; the handle is dead (-ENOTCONN after)
 *
 * Retries: a request is sent again (same TAG, same bytes) when no answer
 * comes within the timeout or the device answers BAD_CRC or TIMEOUT (the
 * request was corrupted or cut on the wire: not executed). That is safe
 * for every command:
 *   - idempotent, resending cannot hurt: INFO, BAR0_RD32 (BAR0 reads have
 *     no side effect beyond the counter high-word latch, which the next
 *     low-word read sets again), MEM_RD, and MEM_WR (the same bytes to the
 *     same place; the NIC does not touch a buffer the host is still
 *     writing, as it learns of it only through a later doorbell);
 *   - not idempotent: BAR0_WR32 to trigger registers (CMD_DOORBELL,
 *     EQ_DOORBELL with ARM) and DB_WR64 (doorbells). For these the bridge
 *     keeps the TAG, CRC and status of the last executed write and answers
 *     a resend of it without executing it again: they are exactly once.
 *     The library keeps one request outstanding and a new TAG per request,
 *     and froce_link_open() sends INFO first (which makes the bridge forget
 *     its last write, so a new program is never taken for a resend).
 *
 * A handle is not thread-safe: one request at a time.
 */
#ifndef FROCE_UART_LINK_H
#define FROCE_UART_LINK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct froce_link;

struct froce_link_opts {
	/* wait for an answer, per attempt, on top of the frames' time on the
	 * wire (at the serial baud rate; sockets have none) */
	unsigned int timeout_ms;
	/* attempts after the first */
	unsigned int retries;
};

/* defaults: 250 ms (serial) or 2000 ms (sockets), 3 retries */
void froce_link_opts_init(struct froce_link_opts *opts, int is_serial);

/* INFO: the device's description and counters */
struct froce_link_info {
	uint8_t version;		/* FROCE_UART_PROTO_VERSION */
	uint8_t bar0_addr_width;	/* BAR0 is 2^bar0_addr_width bytes */
	uint8_t bar2_addr_width;	/* BAR2 (doorbells) is 2^bar2_addr_width bytes */
	uint8_t num_vectors;		/* interrupt vectors */
	uint64_t mem_base;		/* host-memory window: DMA addresses */
	uint64_t mem_size;		/*   [mem_base, mem_base + mem_size) */
	uint32_t user_id;		/* the bitstream's id */
	uint16_t cnt_framing;		/* bytes with a bad stop bit */
	uint16_t cnt_overrun;		/* bytes lost to a full receive FIFO */
	uint16_t cnt_bad_crc;		/* requests with a bad CRC */
	uint16_t cnt_timeout;		/* requests cut mid-way */
	uint16_t cnt_dup;		/* resent writes answered, not executed */
	uint16_t cnt_irq;		/* interrupt frames sent (wraps) */
};

struct froce_link_stats {
	uint64_t requests;		/* requests made */
	uint64_t resends;		/* requests sent again */
	uint64_t timeouts;		/* attempts without an answer */
	uint64_t bad_frames;		/* device frames dropped: bad CRC or malformed */
	uint64_t stale;			/* answers to earlier attempts, dropped */
	uint64_t garbage;		/* bytes outside frames, dropped */
	uint64_t irq_frames;		/* interrupt frames received */
	uint64_t irq_lost;		/* times an interrupt frame may have been lost */
};

/*
 * Opens a link and checks the device with INFO. spec:
 *   /dev/ttyUSB1@3000000     serial device, raw 8N1 at the baud rate
 *                            (default 3000000 when "@baud" is left out)
 *   unix:/path/to/socket     Unix stream socket (a simulator)
 *   tcp:host:port            TCP
 * opts may be NULL (defaults). On failure *link is NULL and err (if not
 * NULL) holds a message.
 */
int froce_link_open(struct froce_link **link, const char *spec, const struct froce_link_opts *opts,
		    char *err, size_t errlen);
/* The same on a connected stream fd (a socket, or a tty already set up),
 * which the link then owns; baud: the tty's rate, for the wire time in the
 * timeouts (0 for a socket). */
int froce_link_open_fd(struct froce_link **link, int fd, unsigned int baud, const struct froce_link_opts *opts,
		       char *err, size_t errlen);
void froce_link_close(struct froce_link *link);

/* The INFO of the last froce_link_info() call (or of the open). */
const struct froce_link_info *froce_link_cached_info(const struct froce_link *link);
int froce_link_info(struct froce_link *link, struct froce_link_info *info);

/* BAR0: 32-bit, off 4-aligned below 2^bar0_addr_width */
int froce_link_bar0_read32(struct froce_link *link, uint32_t off, uint32_t *val);
int froce_link_bar0_write32(struct froce_link *link, uint32_t off, uint32_t val);

/* BAR2 doorbell: one 64-bit write, off 8-aligned below 2^bar2_addr_width */
int froce_link_db_write64(struct froce_link *link, uint32_t off, uint64_t val);

/* Host memory: any length inside [mem_base, mem_base + mem_size), split
 * into FROCE_UART_MAX_DATA-byte requests (not atomic as a whole). */
int froce_link_mem_read(struct froce_link *link, uint64_t addr, void *buf, size_t len);
int froce_link_mem_write(struct froce_link *link, uint64_t addr, const void *buf, size_t len);

/*
 * Waits for interrupts: *vectors gets the bitmap of the vectors raised
 * since the last call (frames that came while waiting for answers are
 * kept, not lost) and the bitmap is cleared. timeout_ms: 0 only looks at
 * what has arrived, < 0 waits for ever. Interrupt frames are not
 * acknowledged; if one may have been lost (a gap in their numbers, or a
 * device frame with a bad CRC) every vector is reported, so a caller that
 * checks its queues for each reported vector never misses an event.
 * Returns 0 with *vectors != 0, or -ETIMEDOUT.
 */
int froce_link_wait_irq(struct froce_link *link, int timeout_ms, uint32_t *vectors);

/* The message of the last error ("" after success). */
const char *froce_link_errmsg(const struct froce_link *link);
/* The file descriptor (for poll(); reading it directly breaks the link). */
int froce_link_fd(const struct froce_link *link);
void froce_link_get_stats(const struct froce_link *link, struct froce_link_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* FROCE_UART_LINK_H */
