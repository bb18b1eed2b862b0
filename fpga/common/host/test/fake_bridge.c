// SPDX-License-Identifier: MIT
/*
 * Software model of froce_uart_host_bridge (fake_bridge.h): parses request
 * frames from a byte stream as the RTL does (hunt for SOF_REQ, length from
 * CMD bit 7 and LEN, CRC, statuses, resend memory) and answers them.
 */
#define _GNU_SOURCE
#include "fake_bridge.h"
#include "../froce_uart_proto.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct dev {
	int fd;
	struct fake_ctl *ctl;
	uint8_t irq_seq;
	bool dup_valid;
	uint8_t dup_tag, dup_status;
	uint16_t dup_crc;
	uint16_t cnt_bad_crc, cnt_timeout, cnt_dup, cnt_irq;
};

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

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == ENOTSOCK)
			w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* one byte, or -1 at EOF */
static int get_byte(struct dev *d)
{
	uint8_t b;

	for (;;) {
		ssize_t r = read(d->fd, &b, 1);

		if (r == 1)
			return b;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd pfd = { .fd = d->fd, .events = POLLIN };

			poll(&pfd, 1, 100);
			continue;
		}
		return -1;
	}
}

static int send_frame(struct dev *d, uint8_t sof, uint8_t cmd, uint8_t tag, uint8_t status, const uint8_t *data,
		      uint16_t dlen, bool corrupt)
{
	uint8_t f[FROCE_UART_RSP_HDR_LEN + FROCE_UART_MAX_DATA + FROCE_UART_CRC_LEN];
	size_t n = FROCE_UART_RSP_HDR_LEN;

	f[0] = sof;
	f[1] = cmd;
	f[2] = tag;
	f[3] = status;
	put_le(f + 4, dlen, 2);
	if (dlen)
		memcpy(f + n, data, dlen);
	n += dlen;
	put_le(f + n, crc16(f, n), 2);
	n += FROCE_UART_CRC_LEN;
	if (corrupt)
		f[n - 1 - (dlen ? 2 : 0)] ^= 0x10;
	return write_all(d->fd, f, n);
}

static int send_irq(struct dev *d, uint32_t bits)
{
	uint8_t data[FROCE_UART_IRQ_LEN];

	if (d->ctl->irq_skip > 0) {
		d->ctl->irq_skip--;
		d->irq_seq++;
		d->cnt_irq++;
	}
	put_le(data, bits, 4);
	d->cnt_irq++;
	return send_frame(d, FROCE_UART_SOF_IRQ, FROCE_UART_CMD_IRQ, d->irq_seq++, FROCE_UART_STATUS_OK, data,
			  FROCE_UART_IRQ_LEN, false);
}

static int respond(struct dev *d, uint8_t cmd, uint8_t tag, uint8_t status, const uint8_t *data, uint16_t dlen)
{
	struct fake_ctl *c = d->ctl;

	if (c->delay_ms)
		usleep((useconds_t)c->delay_ms * 1000);
	if (c->irq_before) {
		uint32_t bits = c->irq_before;

		c->irq_before = 0;
		if (send_irq(d, bits) < 0)
			return -1;
	}
	if (c->garbage > 0) {
		uint8_t junk[64];

		for (int i = 0; i < c->garbage && i < 64; i++)
			junk[i] = (uint8_t)(0x5A ^ (i * 37));	/* includes SOF_RSP look-alikes */
		if (write_all(d->fd, junk, (size_t)(c->garbage < 64 ? c->garbage : 64)) < 0)
			return -1;
		c->garbage = 0;
	}
	if (c->drop_rsp > 0) {
		c->drop_rsp--;
		return 0;
	}
	if (status != FROCE_UART_STATUS_OK)
		dlen = 0;
	bool corrupt = c->corrupt_rsp > 0;

	if (corrupt)
		c->corrupt_rsp--;
	return send_frame(d, FROCE_UART_SOF_RSP, cmd, tag, status, data, dlen, corrupt);
}

static uint8_t axi_status(struct dev *d)
{
	if (d->ctl->axi_error) {
		uint8_t s = (uint8_t)(FROCE_UART_STATUS_AXI | (d->ctl->axi_error & 3));

		d->ctl->axi_error = 0;
		return s;
	}
	return FROCE_UART_STATUS_OK;
}

/* executes a good frame; returns the status, DATA in out (olen bytes) */
static uint8_t execute(struct dev *d, uint8_t cmd, uint8_t len, uint64_t addr, const uint8_t *pay, uint8_t *out,
		       uint16_t *olen)
{
	struct fake_ctl *c = d->ctl;
	unsigned int n = len + 1u;
	uint64_t off = addr - FAKE_MEM_BASE;

	*olen = 0;
	switch (cmd) {
	case FROCE_UART_CMD_INFO:
		memset(out, 0, FROCE_UART_INFO_LEN);
		put_le(out + FROCE_UART_INFO_OFF_MAGIC, FROCE_UART_INFO_MAGIC, 4);
		out[FROCE_UART_INFO_OFF_VERSION] = FROCE_UART_PROTO_VERSION;
		out[FROCE_UART_INFO_OFF_BAR0_AW] = FAKE_BAR0_AW;
		out[FROCE_UART_INFO_OFF_BAR2_AW] = FAKE_BAR2_AW;
		out[FROCE_UART_INFO_OFF_VECTORS] = FAKE_VECTORS;
		put_le(out + FROCE_UART_INFO_OFF_MEM_BASE, FAKE_MEM_BASE, 8);
		put_le(out + FROCE_UART_INFO_OFF_MEM_SIZE, 1u << FAKE_MEM_AW, 8);
		put_le(out + FROCE_UART_INFO_OFF_CNT_BAD_CRC, d->cnt_bad_crc, 2);
		put_le(out + FROCE_UART_INFO_OFF_CNT_TIMEOUT, d->cnt_timeout, 2);
		put_le(out + FROCE_UART_INFO_OFF_USER_ID, 0xFA4EB41D, 4);
		put_le(out + FROCE_UART_INFO_OFF_CNT_DUP, d->cnt_dup, 2);
		put_le(out + FROCE_UART_INFO_OFF_CNT_IRQ, d->cnt_irq, 2);
		*olen = FROCE_UART_INFO_LEN;
		return FROCE_UART_STATUS_OK;
	case FROCE_UART_CMD_BAR0_RD32:
	case FROCE_UART_CMD_BAR0_WR32: {
		uint8_t s;

		if (n != 4 || addr % 4)
			return FROCE_UART_STATUS_BAD_ARG;
		if (addr >> FAKE_BAR0_AW)
			return FROCE_UART_STATUS_OUT_OF_WINDOW;
		s = axi_status(d);
		if (cmd == FROCE_UART_CMD_BAR0_WR32) {
			memcpy(c->bar0 + addr, pay, 4);
			c->bar0_writes++;
		} else if (s == FROCE_UART_STATUS_OK) {
			memcpy(out, c->bar0 + addr, 4);
			*olen = 4;
		}
		return s;
	}
	case FROCE_UART_CMD_DB_WR64:
		if (n != 8 || addr % 8)
			return FROCE_UART_STATUS_BAD_ARG;
		if (addr >> FAKE_BAR2_AW)
			return FROCE_UART_STATUS_OUT_OF_WINDOW;
		c->db_writes++;
		c->last_db_off = (uint32_t)addr;
		c->last_db_val = get_le(pay, 8);
		return axi_status(d);
	case FROCE_UART_CMD_MEM_RD:
	case FROCE_UART_CMD_MEM_WR:
		if (addr < FAKE_MEM_BASE || off + n > (1u << FAKE_MEM_AW))
			return FROCE_UART_STATUS_OUT_OF_WINDOW;
		if (cmd == FROCE_UART_CMD_MEM_WR) {
			memcpy(c->mem + off, pay, n);
			c->mem_writes++;
		} else {
			memcpy(out, c->mem + off, n);
			*olen = (uint16_t)n;
		}
		return FROCE_UART_STATUS_OK;
	default:
		return FROCE_UART_STATUS_BAD_CMD;
	}
}

static bool is_write(uint8_t cmd)
{
	return cmd == FROCE_UART_CMD_BAR0_WR32 || cmd == FROCE_UART_CMD_DB_WR64 || cmd == FROCE_UART_CMD_MEM_WR;
}

int fake_bridge_serve(int fd, struct fake_ctl *c)
{
	struct dev d = { .fd = fd, .ctl = c };
	uint8_t f[FROCE_UART_REQ_HDR_LEN + FROCE_UART_MAX_DATA + FROCE_UART_CRC_LEN];
	uint8_t out[FROCE_UART_MAX_DATA];

	for (;;) {
		size_t n = 0, need;
		uint16_t olen, crc;
		uint8_t status;
		int b;

		/* idle: interrupt frames the test asked for, then hunt */
		for (;;) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };

			if (c->irq_send) {
				uint32_t bits = c->irq_send;

				c->irq_send = 0;
				if (send_irq(&d, bits) < 0)
					return 0;
			}
			if (poll(&pfd, 1, 5) > 0)
				break;
		}
		b = get_byte(&d);
		if (b < 0)
			return 0;
		if (b != FROCE_UART_SOF_REQ)
			continue;
		f[n++] = (uint8_t)b;
		while (n < FROCE_UART_REQ_HDR_LEN) {
			if ((b = get_byte(&d)) < 0)
				return 0;
			f[n++] = (uint8_t)b;
		}
		need = FROCE_UART_REQ_HDR_LEN + ((f[1] & FROCE_UART_CMD_PAYLOAD_FLAG) ? f[3] + 1u : 0) +
		       FROCE_UART_CRC_LEN;
		while (n < need) {
			if ((b = get_byte(&d)) < 0)
				return 0;
			f[n++] = (uint8_t)b;
		}
		c->requests++;
		if (c->die)
			return 0;
		if (c->cut_req > 0) {
			/* as if only SOF, CMD, TAG had arrived: the frame timeout */
			c->cut_req--;
			d.cnt_timeout++;
			if (respond(&d, f[1], f[2], FROCE_UART_STATUS_TIMEOUT, NULL, 0) < 0)
				return 0;
			continue;
		}
		if (c->corrupt_req > 0) {
			c->corrupt_req--;
			f[4] ^= 0x01;				/* an address bit */
		}
		crc = (uint16_t)get_le(f + need - FROCE_UART_CRC_LEN, 2);
		if (crc != crc16(f, need - FROCE_UART_CRC_LEN)) {
			d.cnt_bad_crc++;
			status = FROCE_UART_STATUS_BAD_CRC;
			olen = 0;
		} else if (is_write(f[1]) && d.dup_valid && f[2] == d.dup_tag && crc == d.dup_crc) {
			d.cnt_dup++;
			c->dups++;
			status = d.dup_status;
			olen = 0;
		} else {
			status = execute(&d, f[1], f[3], get_le(f + 4, 8), f + FROCE_UART_REQ_HDR_LEN, out, &olen);
			d.dup_valid = is_write(f[1]);
			d.dup_tag = f[2];
			d.dup_crc = crc;
			d.dup_status = status;
		}
		if (respond(&d, f[1], f[2], status, out, olen) < 0)
			return 0;
	}
}
