// SPDX-License-Identifier: MIT
/*
 * froce-uart: bring-up tool for a froce board on the UART host link.
 *
 *   froce-uart [-d LINK] [-t MS] [-r N] COMMAND [ARGS]
 *
 *   info                   the bridge's INFO (windows, counters)
 *   r32 OFF                read a BAR0 register
 *   w32 OFF VAL            write a BAR0 register
 *   db OFF VAL             one 64-bit doorbell write to BAR2
 *   dump ADDR LEN          hex dump of host memory
 *   memw ADDR HEX          write bytes (hex string) to host memory
 *   memtest ADDR LEN [SEED]  write pseudo-random bytes, read back, compare
 *   wait-irq MS            wait for interrupts, print the vector bitmap
 *
 * LINK: -d, else $FROCE_UART, else /dev/ttyUSB1@3000000 (the ECPIX-5's
 * FT2232H channel B); see froce_link_open(). -t: timeout per attempt in
 * ms (also $FROCE_UART_TIMEOUT_MS), -r: resends.
 */
#define _GNU_SOURCE
#include "froce_uart_link.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr,
		"usage: froce-uart [-d LINK] [-t MS] [-r N] COMMAND [ARGS]\n"
		"  info | r32 OFF | w32 OFF VAL | db OFF VAL | dump ADDR LEN | memw ADDR HEX\n"
		"  | memtest ADDR LEN [SEED] | wait-irq MS\n"
		"LINK: /dev/ttyUSBn[@baud] | unix:PATH | tcp:HOST:PORT (default $FROCE_UART or\n"
		"/dev/ttyUSB1@3000000)\n");
	exit(2);
}

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s) {
		fprintf(stderr, "froce-uart: not a number: %s\n", s);
		exit(2);
	}
	return v;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int check(struct froce_link *l, int rc)
{
	if (rc < 0) {
		fprintf(stderr, "froce-uart: %s\n", froce_link_errmsg(l));
		froce_link_close(l);
		exit(1);
	}
	return rc;
}

static void hexdump(uint64_t addr, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 16) {
		size_t k = n - i < 16 ? n - i : 16;

		printf("%016" PRIx64 " ", addr + i);
		for (size_t j = 0; j < 16; j++)
			printf(j < k ? " %02x" : "   ", p[i + j]);
		printf("  ");
		for (size_t j = 0; j < k; j++)
			putchar(isprint(p[i + j]) ? p[i + j] : '.');
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	const char *spec = getenv("FROCE_UART");
	const char *tmo = getenv("FROCE_UART_TIMEOUT_MS");
	struct froce_link_opts o;
	struct froce_link *l;
	char err[256];
	int opt, rc;
	long retries = -1;
	const char *cmd;

	if (!spec || !*spec)
		spec = "/dev/ttyUSB1@3000000";
	while ((opt = getopt(argc, argv, "d:t:r:h")) != -1) {
		switch (opt) {
		case 'd': spec = optarg; break;
		case 't': tmo = optarg; break;
		case 'r': retries = (long)num(optarg); break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();
	cmd = argv[optind];
	argc -= optind + 1;
	argv += optind + 1;

	froce_link_opts_init(&o, strncmp(spec, "unix:", 5) && strncmp(spec, "tcp:", 4));
	if (tmo && *tmo) {
		o.timeout_ms = (unsigned int)num(tmo);
	}
	if (retries >= 0)
		o.retries = (unsigned int)retries;
	rc = froce_link_open(&l, spec, &o, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "froce-uart: %s\n", err);
		return 1;
	}

	if (!strcmp(cmd, "info") && argc == 0) {
		struct froce_link_info i;

		check(l, froce_link_info(l, &i));
		printf("protocol    %u\n", i.version);
		printf("user_id     0x%08" PRIx32 "\n", i.user_id);
		printf("bar0        %u bytes\n", 1u << i.bar0_addr_width);
		printf("bar2        %u bytes\n", 1u << i.bar2_addr_width);
		printf("vectors     %u\n", i.num_vectors);
		printf("mem_base    0x%016" PRIx64 "\n", i.mem_base);
		printf("mem_size    0x%" PRIx64 "\n", i.mem_size);
		printf("framing     %u\noverrun     %u\nbad_crc     %u\ntimeout     %u\ndup         %u\nirq         %u\n",
		       i.cnt_framing, i.cnt_overrun, i.cnt_bad_crc, i.cnt_timeout, i.cnt_dup, i.cnt_irq);
	} else if (!strcmp(cmd, "r32") && argc == 1) {
		uint32_t v;

		check(l, froce_link_bar0_read32(l, (uint32_t)num(argv[0]), &v));
		printf("0x%08" PRIx32 "\n", v);
	} else if (!strcmp(cmd, "w32") && argc == 2) {
		check(l, froce_link_bar0_write32(l, (uint32_t)num(argv[0]), (uint32_t)num(argv[1])));
	} else if (!strcmp(cmd, "db") && argc == 2) {
		check(l, froce_link_db_write64(l, (uint32_t)num(argv[0]), num(argv[1])));
	} else if (!strcmp(cmd, "dump") && argc == 2) {
		uint64_t addr = num(argv[0]);
		size_t n = (size_t)num(argv[1]);
		uint8_t *p = malloc(n ? n : 1);

		if (!p)
			return 1;
		check(l, froce_link_mem_read(l, addr, p, n));
		hexdump(addr, p, n);
		free(p);
	} else if (!strcmp(cmd, "memw") && argc == 2) {
		const char *h = argv[1];
		size_t n = strlen(h) / 2;
		uint8_t *p = malloc(n ? n : 1);

		if (!p)
			return 1;
		for (size_t i = 0; i < n; i++) {
			int hi = hexval(h[2 * i]), lo = hexval(h[2 * i + 1]);

			if (hi < 0 || lo < 0)
				break;
			p[i] = (uint8_t)(hi << 4 | lo);
			if (i + 1 == n)
				h = NULL;
		}
		if (h || strlen(argv[1]) % 2) {
			fprintf(stderr, "froce-uart: not a string of hex byte pairs: %s\n", argv[1]);
			return 2;
		}
		check(l, froce_link_mem_write(l, num(argv[0]), p, n));
		free(p);
	} else if (!strcmp(cmd, "memtest") && (argc == 2 || argc == 3)) {
		uint64_t addr = num(argv[0]), x = argc == 3 ? num(argv[2]) : 1;
		size_t n = (size_t)num(argv[1]), bad = 0;
		uint8_t *p = malloc(n ? n : 1), *q = malloc(n ? n : 1);

		if (!p || !q)
			return 1;
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			p[i] = (uint8_t)x;
		}
		check(l, froce_link_mem_write(l, addr, p, n));
		check(l, froce_link_mem_read(l, addr, q, n));
		for (size_t i = 0; i < n; i++)
			bad += p[i] != q[i];
		printf("memtest %zu bytes at 0x%" PRIx64 ": %s (%zu bad)\n", n, addr, bad ? "FAIL" : "ok", bad);
		free(p);
		free(q);
		if (bad) {
			froce_link_close(l);
			return 1;
		}
	} else if (!strcmp(cmd, "wait-irq") && argc == 1) {
		uint32_t vec;

		check(l, froce_link_wait_irq(l, (int)num(argv[0]), &vec));
		printf("vectors 0x%08" PRIx32 "\n", vec);
	} else {
		froce_link_close(l);
		usage();
	}
	froce_link_close(l);
	return 0;
}
