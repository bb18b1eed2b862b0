// SPDX-License-Identifier: MIT
/*
 * froce UART host link: requests to froce_uart_host_bridge over a serial
 * port or a socket (froce_uart_link.h; frames: froce_uart_proto.h).
 */
#define _GNU_SOURCE
#include "froce_uart_link.h"
#include "froce_uart_proto.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define REQ_MAX (FROCE_UART_REQ_HDR_LEN + FROCE_UART_MAX_DATA + FROCE_UART_CRC_LEN)
#define RSP_MAX (FROCE_UART_RSP_HDR_LEN + FROCE_UART_MAX_DATA + FROCE_UART_CRC_LEN)
#define RXBUF_LEN 4096

struct froce_link {
	int fd;
	bool is_socket;			/* send() with MSG_NOSIGNAL */
	bool dead;			/* the link closed */
	unsigned int baud;		/* serial: for the wire time; 0: none */
	struct froce_link_opts opts;
	uint8_t tag;			/* TAG of the last request */
	struct froce_link_info info;
	/* interrupts */
	uint32_t irq_pending;
	bool irq_seq_known;
	uint8_t irq_seq;		/* number of the next interrupt frame */
	bool irq_maybe_lost;
	/* received bytes not yet parsed: rx[rx_head, rx_tail) */
	uint8_t rx[RXBUF_LEN];
	size_t rx_head, rx_tail;
	struct froce_link_stats stats;
	char err[256];
};

/* a device frame */
struct frame {
	uint8_t sof, cmd, tag, status;
	uint16_t dlen;
	uint8_t data[FROCE_UART_MAX_DATA];
};

static int fail(struct froce_link *l, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct froce_link *l, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->err, sizeof(l->err), fmt, ap);
	va_end(ap);
	return rc;
}

static uint16_t crc16(const uint8_t *p, size_t n)
{
	uint16_t crc = FROCE_UART_CRC_INIT;

	while (n--) {
		crc ^= (uint16_t)(*p++ << 8);
		for (int i = 0; i < 8; i++)
			crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ FROCE_UART_CRC_POLY) : (uint16_t)(crc << 1);
	}
	return crc;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void froce_link_opts_init(struct froce_link_opts *opts, int is_serial)
{
	opts->timeout_ms = is_serial ? 250 : 2000;
	opts->retries = 3;
}

/* ------------------------------------------------------------------------
 * Bytes on the link
 * ------------------------------------------------------------------------ */

static int link_lost(struct froce_link *l, int rc, const char *what)
{
	l->dead = true;
	return fail(l, rc, "link %s: %s", what, rc == -ECONNRESET ? "closed by the other end" : strerror(-rc));
}

static int send_all(struct froce_link *l, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = l->is_socket ? send(l->fd, p, n, MSG_NOSIGNAL) : write(l->fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				struct pollfd pfd = { .fd = l->fd, .events = POLLOUT };

				if (poll(&pfd, 1, 1000) < 0 && errno != EINTR)
					return link_lost(l, -errno, "poll");
				continue;
			}
			return link_lost(l, errno == EPIPE ? -ECONNRESET : -errno, "write");
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* read what is there, waiting until deadline (ms, CLOCK_MONOTONIC; < 0:
 * for ever) for at least one byte */
static int fill(struct froce_link *l, int64_t deadline)
{
	if (l->rx_head > 0) {
		memmove(l->rx, l->rx + l->rx_head, l->rx_tail - l->rx_head);
		l->rx_tail -= l->rx_head;
		l->rx_head = 0;
	}
	for (;;) {
		struct pollfd pfd = { .fd = l->fd, .events = POLLIN };
		int wait = -1;
		ssize_t r;
		int pr;

		if (deadline >= 0) {
			int64_t left = deadline - now_ms();

			wait = left < 0 ? 0 : (int)left;
		}
		pr = poll(&pfd, 1, wait);
		if (pr < 0) {
			if (errno == EINTR)
				continue;
			return link_lost(l, -errno, "poll");
		}
		if (pr == 0)
			return -ETIMEDOUT;
		r = read(l->fd, l->rx + l->rx_tail, RXBUF_LEN - l->rx_tail);
		if (r < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
				continue;
			return link_lost(l, -errno, "read");
		}
		if (r == 0)
			return link_lost(l, -ECONNRESET, "read");
		l->rx_tail += (size_t)r;
		return 0;
	}
}

/*
 * The next well-formed device frame, waiting until deadline. Bytes that do
 * not start a frame are skipped; a candidate frame with an impossible DLEN,
 * a bad CRC or a malformed interrupt frame costs only its start byte
 * (the search goes on from the next byte), so a frame right behind a
 * corrupted one is still found.
 */
static int recv_frame(struct froce_link *l, int64_t deadline, struct frame *f)
{
	for (;;) {
		uint8_t *b = l->rx + l->rx_head;
		size_t n = l->rx_tail - l->rx_head;
		size_t need;
		int rc;

		if (n > 0 && b[0] != FROCE_UART_SOF_RSP && b[0] != FROCE_UART_SOF_IRQ) {
			l->rx_head++;
			l->stats.garbage++;
			continue;
		}
		if (n >= FROCE_UART_RSP_HDR_LEN) {
			uint16_t dlen = (uint16_t)get_le(b + 4, 2);
			bool is_irq = b[0] == FROCE_UART_SOF_IRQ;

			if (dlen > FROCE_UART_MAX_DATA ||
			    (is_irq && (b[1] != FROCE_UART_CMD_IRQ || b[3] != FROCE_UART_STATUS_OK ||
					dlen != FROCE_UART_IRQ_LEN))) {
				l->rx_head++;
				l->stats.bad_frames++;
				continue;
			}
			need = FROCE_UART_RSP_HDR_LEN + dlen + FROCE_UART_CRC_LEN;
			if (n >= need) {
				if (crc16(b, need - FROCE_UART_CRC_LEN) != get_le(b + need - FROCE_UART_CRC_LEN, 2)) {
					/* it may have been an interrupt frame */
					l->irq_maybe_lost = true;
					l->rx_head++;
					l->stats.bad_frames++;
					continue;
				}
				f->sof = b[0];
				f->cmd = b[1];
				f->tag = b[2];
				f->status = b[3];
				f->dlen = dlen;
				memcpy(f->data, b + FROCE_UART_RSP_HDR_LEN, dlen);
				l->rx_head += need;
				return 0;
			}
		}
		rc = fill(l, deadline);
		if (rc < 0)
			return rc;
	}
}

static void take_irq(struct froce_link *l, const struct frame *f)
{
	l->stats.irq_frames++;
	if (l->irq_seq_known && f->tag != l->irq_seq)
		l->irq_maybe_lost = true;
	l->irq_seq_known = true;
	l->irq_seq = (uint8_t)(f->tag + 1);
	l->irq_pending |= (uint32_t)get_le(f->data, 4);
}

/* ------------------------------------------------------------------------
 * Requests
 * ------------------------------------------------------------------------ */

static const char *cmd_name(uint8_t cmd)
{
	switch (cmd) {
	case FROCE_UART_CMD_INFO: return "INFO";
	case FROCE_UART_CMD_BAR0_RD32: return "BAR0_RD32";
	case FROCE_UART_CMD_BAR0_WR32: return "BAR0_WR32";
	case FROCE_UART_CMD_DB_WR64: return "DB_WR64";
	case FROCE_UART_CMD_MEM_RD: return "MEM_RD";
	case FROCE_UART_CMD_MEM_WR: return "MEM_WR";
	default: return "?";
	}
}

static int status_error(struct froce_link *l, uint8_t cmd, uint64_t addr, uint8_t status)
{
	static const char *const axi[] = { "OKAY", "EXOKAY", "SLVERR", "DECERR" };

	switch (status) {
	case FROCE_UART_STATUS_BAD_ARG:
		return fail(l, -EINVAL, "%s %#llx: bad argument (length or alignment)", cmd_name(cmd),
			    (unsigned long long)addr);
	case FROCE_UART_STATUS_OUT_OF_WINDOW:
		return fail(l, -ERANGE, "%s %#llx: outside the window", cmd_name(cmd), (unsigned long long)addr);
	case FROCE_UART_STATUS_BAD_CMD:
		return fail(l, -EOPNOTSUPP, "%s: command not supported by the device", cmd_name(cmd));
	default:
		if ((status & ~3) == FROCE_UART_STATUS_AXI)
			return fail(l, -EIO, "%s %#llx: AXI %s", cmd_name(cmd), (unsigned long long)addr,
				    axi[status & 3]);
		return fail(l, -EPROTO, "%s: unknown status %#x", cmd_name(cmd), status);
	}
}

/*
 * One request and its answer, resent as froce_uart_link.h describes. For
 * commands with a payload, len bytes of data are sent; otherwise len is the
 * byte count asked for. rdata gets rlen bytes of a good answer's DATA.
 */
static int transact(struct froce_link *l, uint8_t cmd, uint64_t addr, size_t len, const void *data,
		    void *rdata, size_t rlen)
{
	uint8_t req[REQ_MAX];
	size_t n = FROCE_UART_REQ_HDR_LEN;
	bool corrupted = false;
	int64_t wait_ms;
	struct frame f;

	if (l->dead)
		return fail(l, -ENOTCONN, "link closed");
	if (len < 1 || len > FROCE_UART_MAX_DATA)
		return fail(l, -EINVAL, "%s: length %zu", cmd_name(cmd), len);
	l->tag++;
	req[0] = FROCE_UART_SOF_REQ;
	req[1] = cmd;
	req[2] = l->tag;
	req[3] = (uint8_t)(len - 1);
	put_le(req + 4, addr, 8);
	if (cmd & FROCE_UART_CMD_PAYLOAD_FLAG) {
		memcpy(req + n, data, len);
		n += len;
	}
	put_le(req + n, crc16(req, n), 2);
	n += FROCE_UART_CRC_LEN;

	/* the frames' time on the wire (10 bits a byte), then the timeout */
	wait_ms = l->opts.timeout_ms;
	if (l->baud)
		wait_ms += (int64_t)(n + RSP_MAX) * 10 * 1000 / l->baud + 1;
	l->stats.requests++;

	for (unsigned int attempt = 0;; attempt++) {
		int64_t deadline;
		int rc = send_all(l, req, n);

		if (rc < 0)
			return rc;
		deadline = now_ms() + wait_ms;
		corrupted = false;
		for (;;) {
			rc = recv_frame(l, deadline, &f);
			if (rc == -ETIMEDOUT) {
				l->stats.timeouts++;
				break;
			}
			if (rc < 0)
				return rc;
			if (f.sof == FROCE_UART_SOF_IRQ) {
				take_irq(l, &f);
				continue;
			}
			if (f.tag != l->tag || f.cmd != cmd) {
				l->stats.stale++;	/* an answer to an earlier attempt */
				continue;
			}
			if (f.status == FROCE_UART_STATUS_BAD_CRC || f.status == FROCE_UART_STATUS_TIMEOUT) {
				corrupted = true;	/* not executed: resend at once */
				break;
			}
			if (f.status != FROCE_UART_STATUS_OK)
				return status_error(l, cmd, addr, f.status);
			if (f.dlen != rlen)
				return fail(l, -EPROTO, "%s: %u data bytes, expected %zu", cmd_name(cmd), f.dlen,
					    rlen);
			if (rlen)
				memcpy(rdata, f.data, rlen);
			l->err[0] = 0;
			return 0;
		}
		if (attempt >= l->opts.retries)
			break;
		l->stats.resends++;
	}
	if (corrupted)
		return fail(l, -EBADMSG, "%s %#llx: the device received the request corrupted %u times",
			    cmd_name(cmd), (unsigned long long)addr, l->opts.retries + 1);
	return fail(l, -ETIMEDOUT, "%s %#llx: no answer after %u attempts of %lld ms", cmd_name(cmd),
		    (unsigned long long)addr, l->opts.retries + 1, (long long)wait_ms);
}

int froce_link_info(struct froce_link *l, struct froce_link_info *info)
{
	uint8_t d[FROCE_UART_INFO_LEN];
	struct froce_link_info i;
	int rc = transact(l, FROCE_UART_CMD_INFO, 0, 1, NULL, d, sizeof(d));

	if (rc < 0)
		return rc;
	if (get_le(d + FROCE_UART_INFO_OFF_MAGIC, 4) != FROCE_UART_INFO_MAGIC)
		return fail(l, -EPROTO, "INFO: bad magic %#llx: not a froce UART bridge",
			    (unsigned long long)get_le(d + FROCE_UART_INFO_OFF_MAGIC, 4));
	i.version = d[FROCE_UART_INFO_OFF_VERSION];
	i.bar0_addr_width = d[FROCE_UART_INFO_OFF_BAR0_AW];
	i.bar2_addr_width = d[FROCE_UART_INFO_OFF_BAR2_AW];
	i.num_vectors = d[FROCE_UART_INFO_OFF_VECTORS];
	i.mem_base = get_le(d + FROCE_UART_INFO_OFF_MEM_BASE, 8);
	i.mem_size = get_le(d + FROCE_UART_INFO_OFF_MEM_SIZE, 8);
	i.user_id = (uint32_t)get_le(d + FROCE_UART_INFO_OFF_USER_ID, 4);
	i.cnt_framing = (uint16_t)get_le(d + FROCE_UART_INFO_OFF_CNT_FRAMING, 2);
	i.cnt_overrun = (uint16_t)get_le(d + FROCE_UART_INFO_OFF_CNT_OVERRUN, 2);
	i.cnt_bad_crc = (uint16_t)get_le(d + FROCE_UART_INFO_OFF_CNT_BAD_CRC, 2);
	i.cnt_timeout = (uint16_t)get_le(d + FROCE_UART_INFO_OFF_CNT_TIMEOUT, 2);
	i.cnt_dup = (uint16_t)get_le(d + FROCE_UART_INFO_OFF_CNT_DUP, 2);
	i.cnt_irq = (uint16_t)get_le(d + FROCE_UART_INFO_OFF_CNT_IRQ, 2);
	if (i.version != FROCE_UART_PROTO_VERSION)
		return fail(l, -EPROTO, "INFO: protocol version %u, this library speaks %u", i.version,
			    FROCE_UART_PROTO_VERSION);
	if (i.bar0_addr_width > 32 || i.bar2_addr_width > 32 || i.num_vectors > 32 || i.mem_size == 0 ||
	    i.mem_base + i.mem_size < i.mem_base)
		return fail(l, -EPROTO, "INFO: impossible windows");
	/* no interrupt frame is sent while INFO's answer is: the next one
	 * has this number */
	if (!l->irq_seq_known) {
		l->irq_seq_known = true;
		l->irq_seq = (uint8_t)i.cnt_irq;
	}
	l->info = i;
	if (info)
		*info = i;
	return 0;
}

const struct froce_link_info *froce_link_cached_info(const struct froce_link *l)
{
	return &l->info;
}

static int check_bar(struct froce_link *l, const char *what, uint32_t off, unsigned int align, unsigned int aw)
{
	if (off % align)
		return fail(l, -EINVAL, "%s %#x: not %u-byte aligned", what, off, align);
	if (aw < 32 && off >> aw)
		return fail(l, -ERANGE, "%s %#x: beyond the %u-byte window", what, off, 1u << aw);
	return 0;
}

int froce_link_bar0_read32(struct froce_link *l, uint32_t off, uint32_t *val)
{
	uint8_t d[4];
	int rc = check_bar(l, "BAR0_RD32", off, 4, l->info.bar0_addr_width);

	if (rc == 0)
		rc = transact(l, FROCE_UART_CMD_BAR0_RD32, off, 4, NULL, d, 4);
	if (rc == 0)
		*val = (uint32_t)get_le(d, 4);
	return rc;
}

int froce_link_bar0_write32(struct froce_link *l, uint32_t off, uint32_t val)
{
	uint8_t d[4];
	int rc = check_bar(l, "BAR0_WR32", off, 4, l->info.bar0_addr_width);

	put_le(d, val, 4);
	return rc ? rc : transact(l, FROCE_UART_CMD_BAR0_WR32, off, 4, d, NULL, 0);
}

int froce_link_db_write64(struct froce_link *l, uint32_t off, uint64_t val)
{
	uint8_t d[8];
	int rc = check_bar(l, "DB_WR64", off, 8, l->info.bar2_addr_width);

	put_le(d, val, 8);
	return rc ? rc : transact(l, FROCE_UART_CMD_DB_WR64, off, 8, d, NULL, 0);
}

static int check_mem(struct froce_link *l, const char *what, uint64_t addr, size_t len)
{
	const struct froce_link_info *i = &l->info;

	if (addr < i->mem_base || addr - i->mem_base > i->mem_size || len > i->mem_size - (addr - i->mem_base))
		return fail(l, -ERANGE, "%s %#llx+%zu: outside the window %#llx+%#llx", what,
			    (unsigned long long)addr, len, (unsigned long long)i->mem_base,
			    (unsigned long long)i->mem_size);
	return 0;
}

int froce_link_mem_read(struct froce_link *l, uint64_t addr, void *buf, size_t len)
{
	uint8_t *p = buf;
	int rc = check_mem(l, "MEM_RD", addr, len);

	while (rc == 0 && len) {
		size_t n = len < FROCE_UART_MAX_DATA ? len : FROCE_UART_MAX_DATA;

		rc = transact(l, FROCE_UART_CMD_MEM_RD, addr, n, NULL, p, n);
		addr += n;
		p += n;
		len -= n;
	}
	return rc;
}

int froce_link_mem_write(struct froce_link *l, uint64_t addr, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int rc = check_mem(l, "MEM_WR", addr, len);

	while (rc == 0 && len) {
		size_t n = len < FROCE_UART_MAX_DATA ? len : FROCE_UART_MAX_DATA;

		rc = transact(l, FROCE_UART_CMD_MEM_WR, addr, n, p, NULL, 0);
		addr += n;
		p += n;
		len -= n;
	}
	return rc;
}

int froce_link_wait_irq(struct froce_link *l, int timeout_ms, uint32_t *vectors)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	struct frame f;

	*vectors = 0;
	if (l->dead)
		return fail(l, -ENOTCONN, "link closed");
	for (;;) {
		int rc;

		if (l->irq_maybe_lost) {
			uint32_t all = l->info.num_vectors >= 32 ? 0xFFFFFFFFu : (1u << l->info.num_vectors) - 1;

			l->irq_maybe_lost = false;
			l->stats.irq_lost++;
			l->irq_pending |= all;
		}
		if (l->irq_pending) {
			*vectors = l->irq_pending;
			l->irq_pending = 0;
			l->err[0] = 0;
			return 0;
		}
		rc = recv_frame(l, deadline, &f);
		if (rc == -ETIMEDOUT)
			return fail(l, -ETIMEDOUT, "no interrupt in %d ms", timeout_ms);
		if (rc < 0)
			return rc;
		if (f.sof == FROCE_UART_SOF_IRQ)
			take_irq(l, &f);
		else
			l->stats.stale++;
	}
}

/* ------------------------------------------------------------------------
 * Opening
 * ------------------------------------------------------------------------ */

static speed_t baud_constant(unsigned int baud)
{
	static const struct {
		unsigned int baud;
		speed_t b;
	} table[] = {
		{ 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 }, { 57600, B57600 },
		{ 115200, B115200 }, { 230400, B230400 }, { 460800, B460800 }, { 500000, B500000 },
		{ 576000, B576000 }, { 921600, B921600 }, { 1000000, B1000000 }, { 1152000, B1152000 },
		{ 1500000, B1500000 }, { 2000000, B2000000 }, { 2500000, B2500000 }, { 3000000, B3000000 },
		{ 3500000, B3500000 }, { 4000000, B4000000 },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].baud == baud)
			return table[i].b;
	return 0;
}

static void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int open_serial(const char *spec, unsigned int *baud_out, char *err, size_t errlen)
{
	char path[256];
	const char *at = strrchr(spec, '@');
	unsigned long baud = 3000000;
	struct termios t;
	speed_t b;
	int fd;

	if (at) {
		char *end;

		errno = 0;
		baud = strtoul(at + 1, &end, 10);
		if (errno || *end || end == at + 1) {
			set_err(err, errlen, "%s: bad baud rate", spec);
			return -EINVAL;
		}
	}
	if ((size_t)(at ? at - spec : (ptrdiff_t)strlen(spec)) >= sizeof(path) || spec[0] == 0 || at == spec) {
		set_err(err, errlen, "%s: bad device path", spec);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%.*s", (int)(at ? at - spec : (ptrdiff_t)strlen(spec)), spec);
	b = baud_constant((unsigned int)baud);
	if (!b) {
		set_err(err, errlen, "%s: baud rate %lu not supported", spec, baud);
		return -EINVAL;
	}
	fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;

		set_err(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (tcgetattr(fd, &t) < 0) {
		int e = errno;

		set_err(err, errlen, "%s: not a serial port: %s", path, strerror(e));
		close(fd);
		return -e;
	}
	/* raw 8N1, no flow control, reads return what is there */
	cfmakeraw(&t);
	t.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CRTSCTS | CSIZE);
	t.c_cflag |= CS8 | CLOCAL | CREAD;
	t.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	cfsetispeed(&t, b);
	cfsetospeed(&t, b);
	if (tcsetattr(fd, TCSANOW, &t) < 0) {
		int e = errno;

		set_err(err, errlen, "%s: cannot set %lu 8N1: %s", path, baud, strerror(e));
		close(fd);
		return -e;
	}
	ioctl(fd, TIOCEXCL);		/* one program at a time (root may still open it) */
	tcflush(fd, TCIOFLUSH);		/* what an earlier program left */
	*baud_out = (unsigned int)baud;
	return fd;
}

static int open_unix(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (!*path || strlen(path) >= sizeof(sa.sun_path)) {
		set_err(err, errlen, "unix:%s: bad socket path", path);
		return -EINVAL;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;

		set_err(err, errlen, "unix:%s: %s", path, strerror(e));
		if (fd >= 0)
			close(fd);
		return -e;
	}
	return fd;
}

static int open_tcp(const char *hostport, char *err, size_t errlen)
{
	char host[256];
	const char *colon = strrchr(hostport, ':');
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
	int fd = -1, e = 0, one = 1, g;

	if (!colon || colon == hostport || !colon[1] || (size_t)(colon - hostport) >= sizeof(host)) {
		set_err(err, errlen, "tcp:%s: expected tcp:host:port", hostport);
		return -EINVAL;
	}
	snprintf(host, sizeof(host), "%.*s", (int)(colon - hostport), hostport);
	g = getaddrinfo(host, colon + 1, &hints, &res);
	if (g) {
		set_err(err, errlen, "tcp:%s: %s", hostport, gai_strerror(g));
		return -EHOSTUNREACH;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		e = errno;
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		set_err(err, errlen, "tcp:%s: %s", hostport, strerror(e));
		return -(e ? e : ECONNREFUSED);
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

int froce_link_open_fd(struct froce_link **out, int fd, unsigned int baud, const struct froce_link_opts *opts,
		       char *err, size_t errlen)
{
	struct froce_link *l;
	struct stat st;
	int rc;

	*out = NULL;
	l = calloc(1, sizeof(*l));
	if (!l) {
		close(fd);
		set_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	l->fd = fd;
	l->is_socket = fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
	l->baud = baud;
	if (opts)
		l->opts = *opts;
	else
		froce_link_opts_init(&l->opts, !l->is_socket);
	/* until INFO says otherwise: room for the INFO request itself */
	l->info.bar0_addr_width = 32;
	l->info.bar2_addr_width = 32;
	l->tag = (uint8_t)(now_ms() ^ getpid());
	rc = froce_link_info(l, NULL);
	if (rc < 0) {
		set_err(err, errlen, "%s", l->err);
		froce_link_close(l);
		return rc;
	}
	*out = l;
	return 0;
}

int froce_link_open(struct froce_link **out, const char *spec, const struct froce_link_opts *opts, char *err,
		    size_t errlen)
{
	unsigned int baud = 0;
	int fd;

	*out = NULL;
	if (!spec) {
		set_err(err, errlen, "no link given");
		return -EINVAL;
	}
	if (!strncmp(spec, "unix:", 5))
		fd = open_unix(spec + 5, err, errlen);
	else if (!strncmp(spec, "tcp:", 4))
		fd = open_tcp(spec + 4, err, errlen);
	else
		fd = open_serial(spec, &baud, err, errlen);
	if (fd < 0)
		return fd;
	return froce_link_open_fd(out, fd, baud, opts, err, errlen);
}

void froce_link_close(struct froce_link *l)
{
	if (!l)
		return;
	close(l->fd);
	free(l);
}

const char *froce_link_errmsg(const struct froce_link *l)
{
	return l->err;
}

int froce_link_fd(const struct froce_link *l)
{
	return l->fd;
}

void froce_link_get_stats(const struct froce_link *l, struct froce_link_stats *stats)
{
	*stats = l->stats;
}
