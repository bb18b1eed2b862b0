// SPDX-License-Identifier: MIT
/*
 * Unit test of froce_uart_link.c against fake_bridge.c (a model of the
 * bridge) in a child process: on a socketpair for the protocol and fault
 * cases, then through a Unix socket, TCP and a pty (the serial path).
 * Prints "ok"/"FAIL" per check and "N passed, N failed"; exits non-zero on
 * failure. Built with ASan and UBSan by the Makefile.
 */
#define _GNU_SOURCE
#include "../froce_uart_link.h"
#include "../froce_uart_proto.h"
#include "fake_bridge.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int passed, failed;
static struct fake_ctl *ctl;
static pid_t child = -1;

#define CHECK(cond, ...)                                                      \
	do {                                                                  \
		if (cond) {                                                   \
			passed++;                                             \
		} else {                                                      \
			failed++;                                             \
			printf("FAIL  %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                  \
			printf("\n");                                         \
		}                                                             \
	} while (0)

static long long ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void reset_ctl(void)
{
	memset(ctl, 0, sizeof(*ctl));
}

static void stop_child(void)
{
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
		child = -1;
	}
}

/* the fake device on one end of a socketpair, the link on the other */
static struct froce_link *start_pair(unsigned int timeout_ms, unsigned int retries)
{
	struct froce_link_opts o = { .timeout_ms = timeout_ms, .retries = retries };
	struct froce_link *l;
	char err[256];
	int sv[2], rc;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		perror("socketpair");
		exit(2);
	}
	child = fork();
	if (child == 0) {
		close(sv[0]);
		fake_bridge_serve(sv[1], ctl);
		_exit(0);
	}
	close(sv[1]);
	rc = froce_link_open_fd(&l, sv[0], 0, &o, err, sizeof(err));
	CHECK(rc == 0 && l, "open_fd: %d %s", rc, err);
	if (rc) {
		stop_child();
		exit(1);
	}
	return l;
}

static void stop_pair(struct froce_link *l)
{
	int st = 0;

	froce_link_close(l);
	waitpid(child, &st, 0);		/* the device sees EOF and exits */
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the device process ended with status %#x", st);
	child = -1;
}

static void t_info(void)
{
	struct froce_link *l;
	struct froce_link_info i;
	const struct froce_link_info *c;

	reset_ctl();
	l = start_pair(500, 2);
	c = froce_link_cached_info(l);
	CHECK(c->version == FROCE_UART_PROTO_VERSION && c->bar0_addr_width == FAKE_BAR0_AW &&
		      c->bar2_addr_width == FAKE_BAR2_AW && c->num_vectors == FAKE_VECTORS,
	      "cached info %u %u %u %u", c->version, c->bar0_addr_width, c->bar2_addr_width, c->num_vectors);
	CHECK(c->mem_base == FAKE_MEM_BASE && c->mem_size == 1u << FAKE_MEM_AW, "window %llx %llx",
	      (unsigned long long)c->mem_base, (unsigned long long)c->mem_size);
	CHECK(froce_link_info(l, &i) == 0 && i.user_id == 0xFA4EB41D, "user id %x", i.user_id);
	CHECK(ctl->requests == 2, "%d requests", ctl->requests);
	CHECK(strcmp(froce_link_errmsg(l), "") == 0, "errmsg '%s'", froce_link_errmsg(l));
	stop_pair(l);
}

static void t_bar(void)
{
	struct froce_link *l;
	uint32_t v = 0;
	int rc, n;

	reset_ctl();
	l = start_pair(500, 2);
	srand(1);
	for (int k = 0; k < 50; k++) {
		uint32_t off = (uint32_t)(rand() % (1 << FAKE_BAR0_AW)) & ~3u, w = (uint32_t)rand() * 2654435761u;

		rc = froce_link_bar0_write32(l, off, w);
		CHECK(rc == 0, "w32 %#x: %d %s", off, rc, froce_link_errmsg(l));
		rc = froce_link_bar0_read32(l, off, &v);
		CHECK(rc == 0 && v == w, "r32 %#x: %d %#x != %#x", off, rc, v, w);
		CHECK(memcmp(ctl->bar0 + off, &w, 4) == 0, "device BAR0 at %#x", off);
	}
	n = ctl->requests;
	CHECK(froce_link_bar0_read32(l, 2, &v) == -EINVAL, "misaligned read");
	CHECK(froce_link_bar0_write32(l, 1u << FAKE_BAR0_AW, 0) == -ERANGE, "beyond BAR0");
	CHECK(froce_link_db_write64(l, 4, 0) == -EINVAL, "misaligned doorbell");
	CHECK(froce_link_db_write64(l, 1u << FAKE_BAR2_AW, 0) == -ERANGE, "beyond BAR2");
	CHECK(ctl->requests == n, "a rejected argument was sent");
	CHECK(strstr(froce_link_errmsg(l), "DB_WR64 0x100000") != NULL, "errmsg '%s'", froce_link_errmsg(l));

	rc = froce_link_db_write64(l, 0x1008, 0x1122334455667788ull);
	CHECK(rc == 0 && ctl->db_writes == 1 && ctl->last_db_off == 0x1008 &&
		      ctl->last_db_val == 0x1122334455667788ull,
	      "doorbell: %d %d %#x %#llx", rc, ctl->db_writes, ctl->last_db_off, (unsigned long long)ctl->last_db_val);

	ctl->axi_error = 2;
	rc = froce_link_bar0_read32(l, 0x40, &v);
	CHECK(rc == -EIO && strstr(froce_link_errmsg(l), "SLVERR"), "SLVERR: %d %s", rc, froce_link_errmsg(l));
	ctl->axi_error = 3;
	rc = froce_link_db_write64(l, 0x10, 1);
	CHECK(rc == -EIO && strstr(froce_link_errmsg(l), "DECERR"), "DECERR: %d %s", rc, froce_link_errmsg(l));
	CHECK(froce_link_bar0_read32(l, 0x40, &v) == 0, "after an error: %s", froce_link_errmsg(l));
	stop_pair(l);
}

static void t_mem(void)
{
	static uint8_t buf[3000], back[3000];
	struct froce_link *l;
	int rc, n;

	reset_ctl();
	l = start_pair(500, 2);
	srand(2);
	for (int k = 0; k < 40; k++) {
		size_t len = (size_t)(k < 4 ? k * 256 + (k & 1) : rand() % (int)sizeof(buf));
		uint64_t off = (uint64_t)rand() % ((1u << FAKE_MEM_AW) - len + 1);
		int w0 = ctl->mem_writes;

		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)rand();
		rc = froce_link_mem_write(l, FAKE_MEM_BASE + off, buf, len);
		CHECK(rc == 0, "write %zu at %#llx: %d %s", len, (unsigned long long)off, rc, froce_link_errmsg(l));
		CHECK(ctl->mem_writes - w0 == (int)((len + 255) / 256), "write %zu: %d requests", len,
		      ctl->mem_writes - w0);
		CHECK(memcmp(ctl->mem + off, buf, len) == 0, "device memory after write %zu", len);
		memset(back, 0xEE, sizeof(back));
		rc = froce_link_mem_read(l, FAKE_MEM_BASE + off, back, len);
		CHECK(rc == 0 && memcmp(back, buf, len) == 0, "read %zu at %#llx: %d", len, (unsigned long long)off,
		      rc);
	}
	n = ctl->requests;
	CHECK(froce_link_mem_read(l, FAKE_MEM_BASE - 1, buf, 2) == -ERANGE, "below the window");
	CHECK(froce_link_mem_write(l, FAKE_MEM_BASE + (1u << FAKE_MEM_AW) - 10, buf, 11) == -ERANGE, "past the end");
	CHECK(froce_link_mem_write(l, ~0ull - 4, buf, 8) == -ERANGE, "wrapping");
	CHECK(ctl->requests == n, "a rejected range was sent");
	CHECK(froce_link_mem_write(l, FAKE_MEM_BASE + (1u << FAKE_MEM_AW) - 10, buf, 10) == 0, "to the end");
	CHECK(froce_link_mem_read(l, FAKE_MEM_BASE + (1u << FAKE_MEM_AW), buf, 0) == 0, "0 bytes at the end");
	stop_pair(l);
}

/* a lost answer to a write: resent, executed once */
static void t_lost_answer(void)
{
	struct froce_link_stats s;
	struct froce_link *l;
	uint32_t v;
	long long t0;
	int rc;

	reset_ctl();
	l = start_pair(100, 3);
	ctl->drop_rsp = 1;
	t0 = ms();
	rc = froce_link_db_write64(l, 0x2000, 42);
	CHECK(rc == 0 && ctl->db_writes == 1 && ctl->dups == 1, "doorbell: %d, %d writes, %d dups", rc,
	      ctl->db_writes, ctl->dups);
	CHECK(ms() - t0 >= 100, "resent before the timeout (%lld ms)", ms() - t0);
	ctl->drop_rsp = 2;
	rc = froce_link_bar0_write32(l, 0x8, 7);
	CHECK(rc == 0 && ctl->bar0_writes == 1 && ctl->dups == 3, "BAR0 write: %d, %d writes, %d dups", rc,
	      ctl->bar0_writes, ctl->dups);
	ctl->drop_rsp = 1;
	rc = froce_link_mem_write(l, FAKE_MEM_BASE + 5, "abc", 3);
	CHECK(rc == 0 && ctl->mem_writes == 1 && ctl->dups == 4, "mem write: %d, %d writes", rc, ctl->mem_writes);
	ctl->drop_rsp = 1;
	rc = froce_link_bar0_read32(l, 0x8, &v);
	CHECK(rc == 0 && v == 7, "read after a lost answer: %d %u", rc, v);
	froce_link_get_stats(l, &s);
	CHECK(s.resends == 5 && s.timeouts == 5, "resends %llu timeouts %llu", (unsigned long long)s.resends,
	      (unsigned long long)s.timeouts);
	/* every attempt lost: ETIMEDOUT, still executed exactly once */
	ctl->drop_rsp = 4;
	t0 = ms();
	rc = froce_link_db_write64(l, 0x2008, 43);
	CHECK(rc == -ETIMEDOUT && ctl->db_writes == 2, "all lost: %d, %d writes", rc, ctl->db_writes);
	CHECK(ms() - t0 >= 400 && ms() - t0 < 2000, "4 attempts of 100 ms took %lld ms", ms() - t0);
	CHECK(strstr(froce_link_errmsg(l), "no answer") != NULL, "errmsg '%s'", froce_link_errmsg(l));
	stop_pair(l);
}

/* requests corrupted or cut on the wire: BAD_CRC/TIMEOUT, resent at once */
static void t_corrupted_request(void)
{
	struct froce_link *l;
	long long t0;
	int rc;

	reset_ctl();
	l = start_pair(1000, 3);
	ctl->corrupt_req = 2;
	t0 = ms();
	rc = froce_link_db_write64(l, 0x3000, 1);
	CHECK(rc == 0 && ctl->db_writes == 1 && ctl->dups == 0, "%d, %d writes", rc, ctl->db_writes);
	CHECK(ms() - t0 < 500, "waited %lld ms for a BAD_CRC answer", ms() - t0);
	ctl->cut_req = 1;
	rc = froce_link_mem_write(l, FAKE_MEM_BASE, "xy", 2);
	CHECK(rc == 0 && ctl->mem_writes == 1, "cut: %d", rc);
	ctl->corrupt_req = 4;
	rc = froce_link_db_write64(l, 0x3008, 1);
	CHECK(rc == -EBADMSG && ctl->db_writes == 1, "always corrupted: %d", rc);
	CHECK(froce_link_db_write64(l, 0x3008, 1) == 0 && ctl->db_writes == 2, "then fine");
	stop_pair(l);
}

/* answers corrupted, garbage, stale answers */
static void t_bad_answers(void)
{
	struct froce_link_stats s;
	struct froce_link *l;
	uint32_t v = 0, vec = 0;
	uint8_t buf[300];
	int rc;

	reset_ctl();
	l = start_pair(100, 3);
	ctl->bar0[0x10] = 0x5A;
	ctl->corrupt_rsp = 1;
	rc = froce_link_bar0_read32(l, 0x10, &v);
	CHECK(rc == 0 && v == 0x5A, "corrupted answer: %d %#x", rc, v);
	froce_link_get_stats(l, &s);
	CHECK(s.bad_frames >= 1 && s.resends == 1, "bad frames %llu", (unsigned long long)s.bad_frames);
	/* a bad frame may have been an interrupt frame: every vector reported */
	rc = froce_link_wait_irq(l, 0, &vec);
	CHECK(rc == 0 && vec == 0xFFFFFFFFu, "after a bad frame: %d %#x", rc, vec);
	CHECK(froce_link_wait_irq(l, 0, &vec) == -ETIMEDOUT && vec == 0, "then nothing");

	ctl->garbage = 50;
	memset(ctl->mem, 0xA5, 300);
	rc = froce_link_mem_read(l, FAKE_MEM_BASE, buf, 300);
	CHECK(rc == 0 && buf[0] == 0xA5 && buf[299] == 0xA5, "after garbage: %d", rc);
	froce_link_get_stats(l, &s);
	CHECK(s.garbage > 0 && s.resends == 1, "garbage %llu resends %llu", (unsigned long long)s.garbage,
	      (unsigned long long)s.resends);

	/* an answer later than the timeout: the resend's answer is stale */
	ctl->delay_ms = 150;
	rc = froce_link_bar0_write32(l, 0x20, 9);
	ctl->delay_ms = 0;
	CHECK(rc == 0 && ctl->bar0_writes == 1, "slow answer: %d", rc);
	rc = froce_link_bar0_read32(l, 0x20, &v);
	CHECK(rc == 0 && v == 9, "after a slow answer: %d %u", rc, v);
	froce_link_get_stats(l, &s);
	CHECK(s.stale >= 1, "stale %llu", (unsigned long long)s.stale);
	stop_pair(l);
}

static void t_irq(void)
{
	struct froce_link_stats s;
	struct froce_link *l;
	uint32_t v, vec = 0;
	long long t0;
	int rc;

	reset_ctl();
	l = start_pair(500, 2);
	ctl->irq_before = 0x5;
	rc = froce_link_bar0_read32(l, 0, &v);
	CHECK(rc == 0, "read with an interrupt frame before its answer: %d", rc);
	ctl->irq_before = 0x40;
	rc = froce_link_mem_write(l, FAKE_MEM_BASE, "q", 1);
	t0 = ms();
	rc = froce_link_wait_irq(l, 1000, &vec);
	CHECK(rc == 0 && vec == 0x45 && ms() - t0 < 50, "queued interrupts: %d %#x", rc, vec);
	CHECK(froce_link_wait_irq(l, 0, &vec) == -ETIMEDOUT, "consumed");
	t0 = ms();
	rc = froce_link_wait_irq(l, 60, &vec);
	CHECK(rc == -ETIMEDOUT && ms() - t0 >= 60 && ms() - t0 < 1000, "timeout: %d after %lld ms", rc, ms() - t0);
	ctl->irq_send = 1u << 31;
	rc = froce_link_wait_irq(l, 2000, &vec);
	CHECK(rc == 0 && vec == 1u << 31, "waited for: %d %#x", rc, vec);
	/* a lost interrupt frame (a gap in the numbers): every vector */
	ctl->irq_skip = 1;
	ctl->irq_send = 0x2;
	rc = froce_link_wait_irq(l, 2000, &vec);
	if (rc == 0 && vec == 0)
		rc = froce_link_wait_irq(l, 2000, &vec);
	CHECK(rc == 0 && vec == 0xFFFFFFFFu, "gap: %d %#x", rc, vec);
	froce_link_get_stats(l, &s);
	CHECK(s.irq_frames == 4 && s.irq_lost == 1, "irq frames %llu lost %llu", (unsigned long long)s.irq_frames,
	      (unsigned long long)s.irq_lost);
	stop_pair(l);
}

static void t_dead(void)
{
	struct froce_link *l;
	uint32_t v, vec;
	int rc;

	reset_ctl();
	l = start_pair(500, 2);
	ctl->die = 1;
	rc = froce_link_bar0_read32(l, 0, &v);
	CHECK(rc == -ECONNRESET, "device gone: %d %s", rc, froce_link_errmsg(l));
	CHECK(froce_link_bar0_read32(l, 0, &v) == -ENOTCONN, "then dead");
	CHECK(froce_link_wait_irq(l, 10, &vec) == -ENOTCONN, "wait_irq dead");
	stop_pair(l);
}

static void t_bad_specs(void)
{
	static const struct {
		const char *spec;
		int rc;
	} cases[] = {
		{ "unix:/nonexistent/froce.sock", -ENOENT },
		{ "unix:", -EINVAL },
		{ "tcp:localhost", -EINVAL },
		{ "tcp::80", -EINVAL },
		{ "/nonexistent/ttyUSB9@3000000", -ENOENT },
		{ "/dev/null@3000000", -ENOTTY },
		{ "/dev/null@12345", -EINVAL },
		{ "/dev/null@fast", -EINVAL },
		{ "@3000000", -EINVAL },
	};
	struct froce_link *l;
	char err[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;

		err[0] = 0;
		rc = froce_link_open(&l, cases[i].spec, NULL, err, sizeof(err));
		CHECK(rc == cases[i].rc && l == NULL && err[0], "%s: %d (%s), want %d", cases[i].spec, rc, err,
		      cases[i].rc);
	}
}

static void use(struct froce_link *l, const char *what)
{
	uint32_t v = 0;
	uint8_t buf[600], back[600];

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7);
	CHECK(froce_link_bar0_write32(l, 0x100, 0xCAFEF00D) == 0 && froce_link_bar0_read32(l, 0x100, &v) == 0 &&
		      v == 0xCAFEF00D,
	      "%s: BAR0 %#x %s", what, v, froce_link_errmsg(l));
	CHECK(froce_link_mem_write(l, FAKE_MEM_BASE + 3, buf, sizeof(buf)) == 0 &&
		      froce_link_mem_read(l, FAKE_MEM_BASE + 3, back, sizeof(back)) == 0 &&
		      memcmp(buf, back, sizeof(buf)) == 0,
	      "%s: memory %s", what, froce_link_errmsg(l));
}

static void serve_one(int lfd)
{
	child = fork();
	if (child == 0) {
		int c = accept(lfd, NULL, NULL);

		if (c >= 0)
			fake_bridge_serve(c, ctl);
		_exit(0);
	}
	close(lfd);
}

static void t_transports(void)
{
	struct froce_link *l;
	char err[256], spec[160], dir[] = "/tmp/froce-uart-test-XXXXXX";
	struct sockaddr_un su = { .sun_family = AF_UNIX };
	struct sockaddr_in si = { .sin_family = AF_INET };
	socklen_t sl = sizeof(si);
	int lfd, rc, m;

	/* Unix socket */
	reset_ctl();
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(su.sun_path, sizeof(su.sun_path), "%s/link.sock", dir);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&su, sizeof(su)) < 0 || listen(lfd, 1) < 0) {
		perror("unix listen");
		exit(2);
	}
	serve_one(lfd);
	snprintf(spec, sizeof(spec), "unix:%s", su.sun_path);
	rc = froce_link_open(&l, spec, NULL, err, sizeof(err));
	CHECK(rc == 0, "%s: %d %s", spec, rc, err);
	if (rc == 0) {
		use(l, "unix");
		stop_pair(l);
	} else {
		stop_child();
	}
	unlink(su.sun_path);
	rmdir(dir);

	/* TCP on the loopback */
	reset_ctl();
	si.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&si, sizeof(si)) < 0 || listen(lfd, 1) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&si, &sl) < 0) {
		perror("tcp listen");
		exit(2);
	}
	serve_one(lfd);
	snprintf(spec, sizeof(spec), "tcp:127.0.0.1:%u", ntohs(si.sin_port));
	rc = froce_link_open(&l, spec, NULL, err, sizeof(err));
	CHECK(rc == 0, "%s: %d %s", spec, rc, err);
	if (rc == 0) {
		use(l, "tcp");
		stop_pair(l);
	} else {
		stop_child();
	}

	/* a pty: the serial path (termios raw 8N1) */
	reset_ctl();
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0) {
		printf("skip  pty: %s\n", strerror(errno));
		return;
	}
	snprintf(spec, sizeof(spec), "%s@3000000", ptsname(m));
	child = fork();
	if (child == 0) {
		fake_bridge_serve(m, ctl);
		_exit(0);
	}
	rc = froce_link_open(&l, spec, NULL, err, sizeof(err));
	CHECK(rc == 0, "%s: %d %s", spec, rc, err);
	if (rc == 0) {
		use(l, "pty");
		froce_link_close(l);
	}
	close(m);
	stop_child();
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	ctl = mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctl == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {
		{ "info", t_info }, { "bar", t_bar }, { "mem", t_mem }, { "lost_answer", t_lost_answer },
		{ "corrupted_request", t_corrupted_request }, { "bad_answers", t_bad_answers }, { "irq", t_irq },
		{ "dead", t_dead }, { "bad_specs", t_bad_specs }, { "transports", t_transports },
	};
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		int f0 = failed, p0 = passed;

		tests[i].fn();
		printf("%s  %s (%d checks)\n", failed == f0 ? "ok  " : "FAIL", tests[i].name, passed - p0 + failed - f0);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
