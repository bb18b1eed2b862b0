// SPDX-License-Identifier: MIT
/*
 * froce-pingpong: the board-side peer of rdma-core's ibv_rc_pingpong
 * (libibverbs/examples/rc_pingpong.c of rdma-core 44, Debian 12's
 * ibverbs-utils), for a froce board on the UART host link (froce_board.h).
 *
 *   froce-pingpong [options] --ip A.B.C.D --mac MAC            server: listens
 *   froce-pingpong [options] --ip A.B.C.D --mac MAC HOST       client: connects
 *
 * The unmodified ibv_rc_pingpong runs on the PC (over rxe, say), this
 * program on the same PC drives the board; the two meet over TCP (localhost
 * when both run on the PC) and exchange what rc_pingpong exchanges, byte for
 * byte: "LID:QPN:PSN:GID" as "%04x:%06x:%06x:%s" with the GID as 32 hex
 * digits and the terminating NUL (52 bytes) each way, then "done" with its
 * NUL from the client. The board's GID is its IPv4 address as ::ffff:a.b.c.d
 * (RoCE v2); the board has no ARP, so it sends to --peer-mac, and the PC
 * needs a neighbour entry for the board's address (printed).
 *
 * The ping-pong itself is rc_pingpong's: rx_depth receives posted, the
 * client sends first, each side sends its next message once its last send
 * and a receive have completed, receives are reposted when one is left; -c
 * writes 0 at every page start of the client's buffer (the buffer is
 * otherwise 0x7b) and makes the server check those bytes at the end. The
 * summary lines are rc_pingpong's.
 */
#define _GNU_SOURCE
#include "froce_board.h"
#include "froce_hw.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netpacket/packet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* rc_pingpong's wr_ids, also its "pending" bits */
enum {
	PP_RECV_WRID = 1,
	PP_SEND_WRID = 2,
};

/* rc_pingpong's message: sizeof its template, NUL included */
#define PP_MSG_SIZE sizeof("0000:000000:000000:00000000000000000000000000000000")
#define PP_GID_HEX 32
/* the client's last word, NUL included */
#define PP_DONE "done"

/* -c: rc_pingpong's client writes i / page_size % sizeof(char) at byte i of
 * every page, which is 0, and its server expects that */
#define PP_CHK_BYTE 0
/* what rc_pingpong fills its buffer with */
#define PP_FILL_BYTE 0x7b

struct pp_dest {
	uint32_t lid;
	uint32_t qpn;
	uint32_t psn;
	uint8_t gid[16];
};

struct pp_opts {
	const char *link;
	const char *servername;		/* HOST: be the client; NULL: the server */
	unsigned int tcp_port;
	uint32_t size;
	uint8_t mtu;			/* FROCE_MTU_* */
	unsigned int mtu_bytes;		/* -m as given */
	unsigned int rx_depth;
	int iters;
	uint8_t gid_index;
	bool chk;
	uint8_t ip[4];
	uint8_t mac[6];
	uint8_t peer_mac[6];
	bool have_ip, have_mac, have_peer_mac;
	unsigned int timeout_ms;
	uint16_t eth_mtu;
};

struct pp_ctx {
	struct froce_board *b;
	uint32_t pdn;
	uint64_t buf;			/* window address of the message buffer */
	uint32_t size;
	struct froce_board_mr mr;
	struct froce_board_cq *cq;
	struct froce_board_qp *qp;
	unsigned int rx_depth;
	int pending;
	bool have_pd, have_buf, have_mr;
};

__attribute__((format(printf, 1, 2))) static void note(const char *fmt, ...)
{
	va_list ap;

	fputs("froce-pingpong: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- rc_pingpong's connection exchange (pure) ---- */

/* rdma-core's gid_to_wire_gid: each 32-bit word of the GID, as its bytes
 * stand in wire order, in 8 hex digits: the 16 bytes in order */
static void pp_gid_to_wire(const uint8_t gid[16], char wire[PP_GID_HEX + 1])
{
	for (int i = 0; i < 16; i++)
		snprintf(wire + 2 * i, 3, "%02x", gid[i]);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* n hex digits at s; -1 if one is not */
static long parse_hex(const char *s, unsigned int n)
{
	long v = 0;

	for (unsigned int i = 0; i < n; i++) {
		const int d = hex_digit(s[i]);

		if (d < 0)
			return -1;
		v = v << 4 | d;
	}
	return v;
}

/* rdma-core's wire_gid_to_gid, strict: exactly 32 hex digits */
static int pp_wire_to_gid(const char *wire, uint8_t gid[16])
{
	for (int i = 0; i < 16; i++) {
		const long v = parse_hex(wire + 2 * i, 2);

		if (v < 0)
			return -EINVAL;
		gid[i] = (uint8_t)v;
	}
	return wire[PP_GID_HEX] ? -EINVAL : 0;
}

/* the message rc_pingpong's sprintf(msg, "%04x:%06x:%06x:%s", ...) makes,
 * NUL included; -EINVAL if a number is wider than its field */
static int pp_format_dest(char msg[PP_MSG_SIZE], const struct pp_dest *d)
{
	char gid[PP_GID_HEX + 1];

	if (d->lid > 0xffff || d->qpn > 0xffffff || d->psn > 0xffffff)
		return -EINVAL;
	pp_gid_to_wire(d->gid, gid);
	snprintf(msg, PP_MSG_SIZE, "%04x:%06x:%06x:%s", d->lid, d->qpn, d->psn, gid);
	return 0;
}

/* the peer's message; rc_pingpong reads it with sscanf("%x:%x:%x:%s"),
 * this insists on the exact layout its sprintf makes */
static int pp_parse_dest(const char msg[PP_MSG_SIZE], struct pp_dest *d)
{
	static const struct {
		unsigned int off, digits;
	} f[3] = { { 0, 4 }, { 5, 6 }, { 12, 6 } };
	long v[3];

	for (int i = 0; i < 3; i++) {
		v[i] = parse_hex(msg + f[i].off, f[i].digits);
		if (v[i] < 0 || msg[f[i].off + f[i].digits] != ':')
			return -EINVAL;
	}
	if (msg[PP_MSG_SIZE - 1] || pp_wire_to_gid(msg + 19, d->gid))
		return -EINVAL;
	d->lid = (uint32_t)v[0];
	d->qpn = (uint32_t)v[1];
	d->psn = (uint32_t)v[2];
	return 0;
}

/* the printable form of a message, for an error about it */
static void pp_show(const char *msg, size_t n, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < outlen; i++) {
		const unsigned char c = (unsigned char)msg[i];

		o += (size_t)snprintf(out + o, outlen - o, c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
	}
	out[o] = '\0';
}

/* rc_pingpong's -m values */
static uint8_t pp_mtu_enum(long mtu)
{
	switch (mtu) {
	case 256:
		return FROCE_MTU_256;
	case 512:
		return FROCE_MTU_512;
	case 1024:
		return FROCE_MTU_1024;
	case 2048:
		return FROCE_MTU_2048;
	case 4096:
		return FROCE_MTU_4096;
	default:
		return 0;
	}
}

static unsigned int pp_mtu_bytes(uint8_t mtu)
{
	switch (mtu) {
	case FROCE_MTU_256:
		return 256;
	case FROCE_MTU_512:
		return 512;
	case FROCE_MTU_1024:
		return 1024;
	case FROCE_MTU_2048:
		return 2048;
	case FROCE_MTU_4096:
		return 4096;
	default:
		return 0;
	}
}

/* ---- TCP ---- */

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		const ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* len bytes; *got: how many came before an error or the end */
static int read_all(int fd, void *buf, size_t len, size_t *got)
{
	char *p = buf;

	*got = 0;
	while (*got < len) {
		const ssize_t n = read(fd, p + *got, len - *got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		*got += (size_t)n;
	}
	return 0;
}

static int send_dest(int fd, const struct pp_dest *my)
{
	char msg[PP_MSG_SIZE];

	if (pp_format_dest(msg, my)) {
		note("local address does not fit rc_pingpong's message (QPN %#x, PSN %#x)", my->qpn, my->psn);
		return -1;
	}
	if (write_all(fd, msg, sizeof(msg))) {
		note("could not send the local address: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int recv_dest(int fd, struct pp_dest *rem)
{
	char msg[PP_MSG_SIZE], shown[4 * PP_MSG_SIZE + 1];
	size_t got;

	if (read_all(fd, msg, sizeof(msg), &got)) {
		note("could not read the remote address: %zu of %zu bytes came (%s)", got, sizeof(msg),
		     got ? "connection closed" : strerror(errno));
		return -1;
	}
	if (pp_parse_dest(msg, rem)) {
		pp_show(msg, sizeof(msg), shown, sizeof(shown));
		note("bad remote address \"%s\": not rc_pingpong's LID:QPN:PSN:GID (%%04x:%%06x:%%06x:32 hex digits)",
		     shown);
		return -1;
	}
	return 0;
}

/* client: connect, send ours, read theirs, send "done" (rc_pingpong's order) */
static int pp_client_exch_dest(const char *host, unsigned int port, const struct pp_dest *my, struct pp_dest *rem)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *t;
	char service[16];
	int fd = -1, rc;

	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc) {
		note("%s for %s:%u", gai_strerror(rc), host, port);
		return -1;
	}
	for (t = res; t; t = t->ai_next) {
		fd = socket(t->ai_family, t->ai_socktype, t->ai_protocol);
		if (fd < 0)
			continue;
		if (!connect(fd, t->ai_addr, t->ai_addrlen))
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		note("could not connect to %s:%u (is ibv_rc_pingpong's server running?)", host, port);
		return -1;
	}
	rc = send_dest(fd, my);
	if (!rc)
		rc = recv_dest(fd, rem);
	if (!rc && write_all(fd, PP_DONE, sizeof(PP_DONE))) {
		note("could not send \"done\": %s", strerror(errno));
		rc = -1;
	}
	close(fd);
	return rc;
}

/* server: listen on every address (rc_pingpong's AI_PASSIVE) and take one
 * connection */
static int pp_server_accept(unsigned int port)
{
	struct addrinfo hints = { .ai_flags = AI_PASSIVE, .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *t;
	char service[16];
	int fd = -1, conn, one = 1, rc;

	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(NULL, service, &hints, &res);
	if (rc) {
		note("%s for port %u", gai_strerror(rc), port);
		return -1;
	}
	for (t = res; t; t = t->ai_next) {
		fd = socket(t->ai_family, t->ai_socktype, t->ai_protocol);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(fd, t->ai_addr, t->ai_addrlen))
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0 || listen(fd, 1)) {
		note("could not listen on TCP port %u: %s", port, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	note("waiting for ibv_rc_pingpong to connect to TCP port %u", port);
	conn = accept(fd, NULL, NULL);
	close(fd);
	if (conn < 0)
		note("accept: %s", strerror(errno));
	return conn;
}

static int pp_server_finish(int fd, const struct pp_dest *my)
{
	char done[sizeof(PP_DONE)], shown[4 * sizeof(PP_DONE) + 1];
	size_t got;

	if (send_dest(fd, my))
		return -1;
	if (read_all(fd, done, sizeof(done), &got)) {
		note("could not read \"done\": %zu of %zu bytes came", got, sizeof(done));
		return -1;
	}
	if (memcmp(done, PP_DONE, sizeof(done))) {
		pp_show(done, sizeof(done), shown, sizeof(shown));
		note("the client sent \"%s\" instead of \"done\"", shown);
		return -1;
	}
	return 0;
}

/* ---- the PC side: where the board's address lives ---- */

static void mac_str(const uint8_t mac[6], char s[18])
{
	snprintf(s, 18, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
}

/*
 * The interface of this PC whose IPv4 subnet holds ip (the netdev rxe must
 * run on to reach the board) and its MAC: 0, or -ENOENT if there is none.
 */
static int pc_netdev_for(const uint8_t ip[4], char name[64], uint8_t mac[6], bool *have_mac)
{
	struct ifaddrs *ifs, *i;
	uint32_t want;
	int rc = -ENOENT;

	*have_mac = false;
	memcpy(&want, ip, 4);
	if (getifaddrs(&ifs))
		return -errno;
	for (i = ifs; i; i = i->ifa_next) {
		const struct sockaddr_in *a = (const void *)i->ifa_addr, *m = (const void *)i->ifa_netmask;

		if (!a || !m || a->sin_family != AF_INET || !m->sin_addr.s_addr)
			continue;
		if ((a->sin_addr.s_addr & m->sin_addr.s_addr) == (want & m->sin_addr.s_addr) &&
		    a->sin_addr.s_addr != want) {
			snprintf(name, 64, "%s", i->ifa_name);
			rc = 0;
			break;
		}
	}
	for (i = ifs; !rc && i; i = i->ifa_next) {
		const struct sockaddr_ll *ll = (const void *)i->ifa_addr;

		if (ll && ll->sll_family == AF_PACKET && ll->sll_halen == 6 && !strcmp(i->ifa_name, name)) {
			memcpy(mac, ll->sll_addr, 6);
			*have_mac = true;
		}
	}
	freeifaddrs(ifs);
	return rc;
}

/* ---- the board side ---- */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int board_fail(struct pp_ctx *ctx, const char *what)
{
	note("%s: %s", what, froce_board_errmsg(ctx->b));
	return -1;
}

/* the port up, its MTU large enough for the path MTU */
static int wait_port(struct pp_ctx *ctx, const struct pp_opts *o)
{
	const long long deadline = now_ms() + o->timeout_ms;
	struct froce_board_port port;

	for (;;) {
		if (froce_board_query_port(ctx->b, &port))
			return board_fail(ctx, "QUERY_PORT");
		if (port.state == FROCE_PORT_STATE_ACTIVE)
			break;
		if (now_ms() > deadline) {
			note("the board's Ethernet port is not up after %u ms (state %u): check the cable and the PC's interface",
			     o->timeout_ms, port.state);
			return -1;
		}
		usleep(200000);
	}
	if (port.active_mtu < o->mtu) {
		note("path MTU %u does not fit the board's Ethernet MTU %u: raise --eth-mtu (and the PC's interface MTU)",
		     o->mtu_bytes, port.mtu);
		return -1;
	}
	note("port up at %u Gb/s, Ethernet MTU %u", port.speed_gbps, port.mtu);
	return 0;
}

static int pp_init_ctx(struct pp_ctx *ctx, const struct pp_opts *o, long page_size)
{
	struct froce_board_qp_init init = {
		.max_send_wr = 1,
		.max_recv_wr = o->rx_depth,
		.max_send_sge = 1,
		.max_recv_sge = 1,
	};
	const struct froce_board_qp_attr attr = {
		.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_PKEY_INDEX | FROCE_QP_ATTR_PORT | FROCE_QP_ATTR_ACCESS_FLAGS,
		.state = FROCE_QP_STATE_INIT,
		.pkey_index = 0,
		.port = 1,
		.access = 0,
	};
	uint8_t *img;
	int rc;

	ctx->size = o->size;
	ctx->rx_depth = o->rx_depth;
	/* rc_pingpong: memalign(page_size), filled with 0x7b; with -c the
	 * client puts 0 at every page start before its first send */
	if (froce_board_mem_alloc(ctx->b, o->size, (uint64_t)page_size, "message buffer", &ctx->buf))
		return board_fail(ctx, "lower -s or -r");
	ctx->have_buf = true;
	img = malloc(o->size);
	if (!img) {
		note("out of memory");
		return -1;
	}
	memset(img, PP_FILL_BYTE, o->size);
	if (o->chk && o->servername)
		for (uint32_t i = 0; i < o->size; i += (uint32_t)page_size)
			img[i] = PP_CHK_BYTE;
	rc = froce_board_mem_write(ctx->b, ctx->buf, img, o->size);
	free(img);
	if (rc)
		return board_fail(ctx, "message buffer");

	if (froce_board_alloc_pd(ctx->b, &ctx->pdn))
		return board_fail(ctx, "ALLOC_PD");
	ctx->have_pd = true;
	if (froce_board_reg_mr(ctx->b, ctx->pdn, ctx->buf, o->size, FROCE_ACCESS_LOCAL_WRITE, &ctx->mr))
		return board_fail(ctx, "REG_MR");
	ctx->have_mr = true;
	if (froce_board_create_cq(ctx->b, o->rx_depth + 1, &ctx->cq))
		return board_fail(ctx, "creating the CQ (-r sets its size)");
	init.pdn = ctx->pdn;
	init.send_cq = ctx->cq;
	init.recv_cq = ctx->cq;
	if (froce_board_create_qp(ctx->b, &init, &ctx->qp))
		return board_fail(ctx, "creating the QP (-r sets its receive queue)");
	if (froce_board_modify_qp(ctx->b, ctx->qp, &attr))
		return board_fail(ctx, "QP to INIT");
	return 0;
}

static int pp_close_ctx(struct pp_ctx *ctx)
{
	if (ctx->qp && froce_board_destroy_qp(ctx->b, ctx->qp))
		return board_fail(ctx, "DESTROY_QP");
	ctx->qp = NULL;
	if (ctx->cq && froce_board_destroy_cq(ctx->b, ctx->cq))
		return board_fail(ctx, "DESTROY_CQ");
	ctx->cq = NULL;
	if (ctx->have_mr && froce_board_dereg_mr(ctx->b, &ctx->mr))
		return board_fail(ctx, "DEREG_MR");
	ctx->have_mr = false;
	if (ctx->have_pd && froce_board_dealloc_pd(ctx->b, ctx->pdn))
		return board_fail(ctx, "DEALLOC_PD");
	ctx->have_pd = false;
	if (ctx->have_buf)
		froce_board_mem_free(ctx->b, ctx->buf);
	ctx->have_buf = false;
	return 0;
}

/* n receives of the whole buffer (rc_pingpong's pp_post_recv, in one batch) */
static int pp_post_recv(struct pp_ctx *ctx, unsigned int n)
{
	const struct froce_board_sge sge = { .addr = ctx->buf, .len = ctx->size, .lkey = ctx->mr.lkey };
	struct froce_board_recv_wr *wr;
	int rc;

	if (!n)
		return 0;
	wr = calloc(n, sizeof(*wr));
	if (!wr) {
		note("out of memory");
		return -1;
	}
	for (unsigned int i = 0; i < n; i++)
		wr[i] = (struct froce_board_recv_wr){ .wr_id = PP_RECV_WRID, .sg_list = &sge, .num_sge = 1 };
	rc = froce_board_post_recv(ctx->b, ctx->qp, wr, n);
	free(wr);
	return rc ? board_fail(ctx, "post receive") : 0;
}

static int pp_post_send(struct pp_ctx *ctx)
{
	const struct froce_board_sge sge = { .addr = ctx->buf, .len = ctx->size, .lkey = ctx->mr.lkey };
	const struct froce_board_send_wr wr = {
		.wr_id = PP_SEND_WRID, .sg_list = &sge, .num_sge = 1, .signaled = true,
	};

	return froce_board_post_send(ctx->b, ctx->qp, &wr, 1) ? board_fail(ctx, "post send") : 0;
}

/* rc_pingpong's pp_connect_ctx: RTR with the peer's QPN, PSN and GID, then RTS */
static int pp_connect_ctx(struct pp_ctx *ctx, const struct pp_opts *o, uint32_t my_psn, const struct pp_dest *dest)
{
	struct froce_board_qp_attr attr = {
		.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_AV | FROCE_QP_ATTR_PATH_MTU | FROCE_QP_ATTR_DEST_QPN |
			FROCE_QP_ATTR_RQ_PSN | FROCE_QP_ATTR_MAX_DEST_RD_ATOMIC | FROCE_QP_ATTR_MIN_RNR_TIMER,
		.state = FROCE_QP_STATE_RTR,
		.path_mtu = o->mtu,
		.dest_qpn = dest->qpn,
		.rq_psn = dest->psn,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.av = {
			.sgid_index = o->gid_index,
			.hop_limit = 1,
			.net_type = FROCE_KIND_ROCE_V2_IPV4,
		},
	};
	static const uint8_t zero[16];
	char gid[INET6_ADDRSTRLEN];

	/* rc_pingpong goes without a GRH when the peer's GID is 0: RoCE cannot */
	if (!memcmp(dest->gid, zero, sizeof(zero))) {
		note("the peer sent GID 0: start ibv_rc_pingpong with -g <index of its IPv4 RoCE v2 GID> (RoCE needs a GRH)");
		return -1;
	}
	if (!froce_board_gid_is_ipv4(dest->gid)) {
		inet_ntop(AF_INET6, dest->gid, gid, sizeof(gid));
		note("the peer's GID %s is not an IPv4 one: give ibv_rc_pingpong -g the index of its IPv4 RoCE v2 GID (the board's GID is IPv4)",
		     gid);
		return -1;
	}
	memcpy(attr.av.dmac, o->peer_mac, 6);
	memcpy(attr.av.dgid, dest->gid, 16);
	if (froce_board_modify_qp(ctx->b, ctx->qp, &attr))
		return board_fail(ctx, "QP to RTR");

	attr = (struct froce_board_qp_attr){
		.mask = FROCE_QP_ATTR_STATE | FROCE_QP_ATTR_TIMEOUT | FROCE_QP_ATTR_RETRY_CNT | FROCE_QP_ATTR_RNR_RETRY |
			FROCE_QP_ATTR_SQ_PSN | FROCE_QP_ATTR_MAX_QP_RD_ATOMIC,
		.state = FROCE_QP_STATE_RTS,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.sq_psn = my_psn,
		.max_rd_atomic = 1,
	};
	if (froce_board_modify_qp(ctx->b, ctx->qp, &attr))
		return board_fail(ctx, "QP to RTS");
	return 0;
}

/* rc_pingpong's parse_single_wc */
static int parse_single_wc(struct pp_ctx *ctx, int *scnt, int *rcnt, int *routs, int iters,
			   const struct froce_board_wc *wc)
{
	if (wc->status != FROCE_WC_SUCCESS) {
		note("completion error on QP %#x: status %s (%u), vendor error %s (%u), wr_id %d (%s)", wc->qpn,
		     froce_board_wc_status_name(wc->status), wc->status, froce_board_vendor_err_name(wc->vendor_err),
		     wc->vendor_err, (int)wc->wr_id, wc->wr_id == PP_SEND_WRID ? "send" : "receive");
		return -1;
	}
	switch ((int)wc->wr_id) {
	case PP_SEND_WRID:
		++*scnt;
		break;
	case PP_RECV_WRID:
		if (--*routs <= 1) {
			if (pp_post_recv(ctx, ctx->rx_depth - (unsigned int)*routs))
				return -1;
			*routs = (int)ctx->rx_depth;
		}
		++*rcnt;
		break;
	default:
		note("completion for unknown wr_id %d", (int)wc->wr_id);
		return -1;
	}
	ctx->pending &= ~(int)wc->wr_id;
	if (*scnt < iters && !ctx->pending) {
		if (pp_post_send(ctx))
			return -1;
		ctx->pending = PP_RECV_WRID | PP_SEND_WRID;
	}
	return 0;
}

/* the ping-pong; 0 when iters messages went each way */
static int pp_run(struct pp_ctx *ctx, const struct pp_opts *o, int routs)
{
	long long last = now_ms();
	int rcnt = 0, scnt = 0;

	while (rcnt < o->iters || scnt < o->iters) {
		struct froce_board_wc wc[2];
		int ne = froce_board_poll_cq(ctx->b, ctx->cq, wc, 2);

		if (ne < 0)
			return board_fail(ctx, "poll CQ");
		if (!ne) {
			if (now_ms() - last > o->timeout_ms) {
				note("no completion for %u ms (%d of %d sent, %d of %d received): is ibv_rc_pingpong running, does the PC have the board's neighbour entry, is -m the same on both sides?",
				     o->timeout_ms, scnt, o->iters, rcnt, o->iters);
				return -1;
			}
			continue;
		}
		last = now_ms();
		for (int i = 0; i < ne; i++)
			if (parse_single_wc(ctx, &scnt, &rcnt, &routs, o->iters, &wc[i]))
				return -1;
	}
	return 0;
}

/* -c on the server: rc_pingpong's check of every page start */
static int pp_check_buf(struct pp_ctx *ctx, long page_size)
{
	int bad = 0;

	for (uint32_t i = 0; i < ctx->size; i += (uint32_t)page_size) {
		uint8_t v;

		if (froce_board_mem_read(ctx->b, ctx->buf + i, &v, 1))
			return board_fail(ctx, "reading the buffer back");
		if (v != PP_CHK_BYTE) {
			printf("invalid data in page %d\n", (int)(i / page_size));
			bad++;
		}
	}
	return bad ? -1 : 0;
}

/* ---- options ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: froce-pingpong [options] --ip A.B.C.D --mac MAC          start a server and wait for ibv_rc_pingpong\n"
		"       froce-pingpong [options] --ip A.B.C.D --mac MAC HOST     connect to ibv_rc_pingpong's server at HOST\n"
		"\n"
		"ibv_rc_pingpong's options:\n"
		"  -p, --port=PORT        TCP port to listen on or connect to (default 18515)\n"
		"  -s, --size=SIZE        message size (default 4096)\n"
		"  -m, --mtu=MTU          path MTU: 256, 512, 1024, 2048, 4096 (default 1024)\n"
		"  -r, --rx-depth=N       receives posted at a time (default 16: the board's window is small)\n"
		"  -n, --iters=N          exchanges (default 1000)\n"
		"  -g, --gid-idx=N        the board's GID table entry for --ip (default 0)\n"
		"  -c, --chk              validate the received buffer (as ibv_rc_pingpong -c)\n"
		"the board:\n"
		"  --link=SPEC            UART link: /dev/ttyUSBn[@baud], unix:PATH, tcp:HOST:PORT\n"
		"                         (default $FROCE_UART or /dev/ttyUSB1@3000000; per-request timeout\n"
		"                         $FROCE_UART_TIMEOUT_MS)\n"
		"  --ip=A.B.C.D           the board's IPv4 address: its RoCE v2 GID ::ffff:A.B.C.D\n"
		"  --mac=MAC              the board's station MAC (RoCE is received only for it)\n"
		"  --peer-mac=MAC         where the board sends (the PC's interface; default: the MAC of the\n"
		"                         PC interface on --ip's subnet)\n"
		"  --eth-mtu=N            the board's Ethernet MTU (default 1500)\n"
		"  --timeout-ms=MS        longest wait for the device: READY, a command, the port, a\n"
		"                         completion (default 10000; a simulated board needs far more)\n");
}

static bool parse_num(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end && *v <= max;
}

static bool parse_mac(const char *s, uint8_t mac[6])
{
	for (int i = 0; i < 6; i++) {
		const long v = parse_hex(s + 3 * i, 2);

		if (v < 0 || s[3 * i + 2] != (i < 5 ? ':' : '\0'))
			return false;
		mac[i] = (uint8_t)v;
	}
	return true;
}

__attribute__((format(printf, 1, 2))) static int bad_option(const char *fmt, ...)
{
	va_list ap;

	fputs("froce-pingpong: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (--help for the options)\n", stderr);
	return -1;
}

enum {
	OPT_LINK = 0x100,
	OPT_IP,
	OPT_MAC,
	OPT_PEER_MAC,
	OPT_ETH_MTU,
	OPT_TIMEOUT,
};

static int parse_opts(int argc, char **argv, struct pp_opts *o)
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "size", required_argument, NULL, 's' },
		{ "mtu", required_argument, NULL, 'm' },
		{ "rx-depth", required_argument, NULL, 'r' },
		{ "iters", required_argument, NULL, 'n' },
		{ "gid-idx", required_argument, NULL, 'g' },
		{ "chk", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "link", required_argument, NULL, OPT_LINK },
		{ "ip", required_argument, NULL, OPT_IP },
		{ "mac", required_argument, NULL, OPT_MAC },
		{ "peer-mac", required_argument, NULL, OPT_PEER_MAC },
		{ "eth-mtu", required_argument, NULL, OPT_ETH_MTU },
		{ "timeout-ms", required_argument, NULL, OPT_TIMEOUT },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long v;
	int c;

	o->link = getenv("FROCE_UART");
	if (!o->link || !*o->link)
		o->link = "/dev/ttyUSB1@3000000";
	o->tcp_port = 18515;
	o->size = 4096;
	o->mtu = FROCE_MTU_1024;
	o->mtu_bytes = 1024;
	o->rx_depth = 16;
	o->iters = 1000;
	o->timeout_ms = 10000;
	o->eth_mtu = 1500;
	while ((c = getopt_long(argc, argv, "p:s:m:r:n:g:ch", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (!parse_num(optarg, 65535, &v))
				return bad_option("-p: not a TCP port: %s", optarg);
			o->tcp_port = (unsigned int)v;
			break;
		case 's':
			if (!parse_num(optarg, UINT32_MAX, &v) || !v)
				return bad_option("-s: not a message size: %s", optarg);
			o->size = (uint32_t)v;
			break;
		case 'm':
			if (!parse_num(optarg, 4096, &v) || !pp_mtu_enum((long)v))
				return bad_option("-m: not 256, 512, 1024, 2048 or 4096: %s", optarg);
			o->mtu = pp_mtu_enum((long)v);
			o->mtu_bytes = (unsigned int)v;
			break;
		case 'r':
			if (!parse_num(optarg, 1u << 16, &v) || !v)
				return bad_option("-r: not a receive depth (1 to 65536): %s", optarg);
			o->rx_depth = (unsigned int)v;
			break;
		case 'n':
			if (!parse_num(optarg, INT32_MAX, &v) || !v)
				return bad_option("-n: not a number of iterations: %s", optarg);
			o->iters = (int)v;
			break;
		case 'g':
			if (!parse_num(optarg, 255, &v))
				return bad_option("-g: not a GID index: %s", optarg);
			o->gid_index = (uint8_t)v;
			break;
		case 'c':
			o->chk = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case OPT_LINK:
			o->link = optarg;
			break;
		case OPT_IP: {
			struct in_addr a;

			if (inet_pton(AF_INET, optarg, &a) != 1)
				return bad_option("--ip: not an IPv4 address: %s", optarg);
			memcpy(o->ip, &a, 4);
			o->have_ip = true;
			break;
		}
		case OPT_MAC:
			if (!parse_mac(optarg, o->mac) || (o->mac[0] & 1) || !froce_board_mac_u64(o->mac))
				return bad_option("--mac: not a unicast MAC address (xx:xx:xx:xx:xx:xx): %s", optarg);
			o->have_mac = true;
			break;
		case OPT_PEER_MAC:
			if (!parse_mac(optarg, o->peer_mac) || (o->peer_mac[0] & 1) || !froce_board_mac_u64(o->peer_mac))
				return bad_option("--peer-mac: not a unicast MAC address (xx:xx:xx:xx:xx:xx): %s",
						  optarg);
			o->have_peer_mac = true;
			break;
		case OPT_ETH_MTU:
			if (!parse_num(optarg, UINT16_MAX, &v) || !v)
				return bad_option("--eth-mtu: not an MTU: %s", optarg);
			o->eth_mtu = (uint16_t)v;
			break;
		case OPT_TIMEOUT:
			if (!parse_num(optarg, INT32_MAX, &v) || !v)
				return bad_option("--timeout-ms: not a time in ms: %s", optarg);
			o->timeout_ms = (unsigned int)v;
			break;
		default:
			return bad_option("unknown option");
		}
	}
	if (optind == argc - 1)
		o->servername = argv[optind];
	else if (optind < argc)
		return bad_option("one HOST at most");
	if (!o->have_ip || !o->have_mac)
		return bad_option("--ip and --mac are needed: the board's address and MAC");
	return 0;
}

/* the PC interface on the board's subnet: the neighbour entry the PC needs
 * (the board does not answer ARP) and the default --peer-mac */
static int find_peer(struct pp_opts *o)
{
	char dev[64], ip[INET_ADDRSTRLEN], mac[18], pmac[18];
	uint8_t dev_mac[6];
	bool have_dev_mac;
	int rc = pc_netdev_for(o->ip, dev, dev_mac, &have_dev_mac);

	inet_ntop(AF_INET, o->ip, ip, sizeof(ip));
	mac_str(o->mac, mac);
	if (rc) {
		if (!o->have_peer_mac) {
			note("--peer-mac is needed: no interface of this PC is on the subnet of %s to take it from", ip);
			return -1;
		}
		note("on the machine that runs ibv_rc_pingpong: ip neigh replace %s lladdr %s nud permanent dev <the netdev under rxe>",
		     ip, mac);
		return 0;
	}
	if (!o->have_peer_mac) {
		if (!have_dev_mac) {
			note("--peer-mac is needed: %s (on the subnet of %s) has no Ethernet address", dev, ip);
			return -1;
		}
		memcpy(o->peer_mac, dev_mac, 6);
		o->have_peer_mac = true;
	}
	mac_str(o->peer_mac, pmac);
	note("the board sends to %s; the PC needs (as root, once): ip neigh replace %s lladdr %s nud permanent dev %s",
	     pmac, ip, mac, dev);
	return 0;
}

static int open_board(struct froce_link **link, struct froce_board **b, const struct pp_opts *o)
{
	const char *tmo = getenv("FROCE_UART_TIMEOUT_MS");
	struct froce_board_opts bo = { .ready_timeout_ms = o->timeout_ms, .cmd_timeout_ms = o->timeout_ms };
	struct froce_link_opts lo;
	const struct froce_win *w;
	const struct froce_board_fw *fw;
	unsigned long long v;
	char err[512];

	froce_link_opts_init(&lo, strncmp(o->link, "unix:", 5) && strncmp(o->link, "tcp:", 4));
	if (tmo && *tmo) {
		if (!parse_num(tmo, UINT32_MAX, &v)) {
			note("FROCE_UART_TIMEOUT_MS: not a time in ms: %s", tmo);
			return -1;
		}
		lo.timeout_ms = (unsigned int)v;
	}
	if (froce_link_open(link, o->link, &lo, err, sizeof(err))) {
		note("link %s: %s", o->link, err);
		return -1;
	}
	note("link %s open; resetting the board", o->link);
	if (froce_board_open(b, *link, &bo, err, sizeof(err))) {
		note("board: %s", err);
		froce_link_close(*link);
		return -1;
	}
	fw = froce_board_fw(*b);
	w = froce_board_win(*b);
	note("firmware %u.%u.%u, host-memory window %llu bytes at %#llx", fw->major, fw->minor, fw->patch,
	     (unsigned long long)w->size, (unsigned long long)w->base);
	return 0;
}

/* what the run cost on the link; resends and bad frames point at the cable */
static void report_link(const struct froce_link *link)
{
	struct froce_link_stats st;

	froce_link_get_stats(link, &st);
	note("link: %llu requests, %llu resent, %llu timed out, %llu bad frames from the board",
	     (unsigned long long)st.requests, (unsigned long long)st.resends, (unsigned long long)st.timeouts,
	     (unsigned long long)st.bad_frames);
}

/* SET_PORT with the station MAC, the GID of --ip */
static int setup_port(struct pp_ctx *ctx, const struct pp_opts *o)
{
	const struct froce_board_caps *caps = froce_board_caps(ctx->b);
	uint8_t gid[16];

	if (o->gid_index >= caps->num_gid) {
		note("-g %u: the board has %u GID table entries", o->gid_index, caps->num_gid);
		return -1;
	}
	if (o->mtu > caps->max_mtu) {
		note("-m %u: the board's largest path MTU is %u", o->mtu_bytes, pp_mtu_bytes(caps->max_mtu));
		return -1;
	}
	if (o->size > caps->max_msg_sz) {
		note("-s %u: the board's largest message is %u bytes", o->size, caps->max_msg_sz);
		return -1;
	}
	if (froce_board_set_port(ctx->b, o->mac, o->eth_mtu))
		return board_fail(ctx, "SET_PORT");
	froce_board_gid_ipv4(gid, o->ip);
	if (froce_board_add_gid(ctx->b, o->gid_index, FROCE_GID_TYPE_ROCE_V2, gid, o->mac))
		return board_fail(ctx, "ADD_GID");
	return wait_port(ctx, o);
}

static int pingpong(struct pp_ctx *ctx, const struct pp_opts *o, long page_size)
{
	struct pp_dest my = { 0 }, rem;
	struct timeval start, end;
	char gid[INET6_ADDRSTRLEN];
	int fd = -1, routs;

	if (pp_init_ctx(ctx, o, page_size))
		return -1;
	if (pp_post_recv(ctx, ctx->rx_depth))
		return -1;
	routs = (int)ctx->rx_depth;

	my.qpn = ctx->qp->qpn;
	my.psn = (uint32_t)lrand48() & 0xffffff;
	froce_board_gid_ipv4(my.gid, o->ip);
	inet_ntop(AF_INET6, my.gid, gid, sizeof(gid));
	printf("  local address:  LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s\n", my.lid, my.qpn, my.psn, gid);
	fflush(stdout);

	if (o->servername) {
		if (pp_client_exch_dest(o->servername, o->tcp_port, &my, &rem))
			return -1;
	} else {
		fd = pp_server_accept(o->tcp_port);
		if (fd < 0)
			return -1;
		if (recv_dest(fd, &rem) || pp_connect_ctx(ctx, o, my.psn, &rem) || pp_server_finish(fd, &my)) {
			close(fd);
			return -1;
		}
		close(fd);
	}
	inet_ntop(AF_INET6, rem.gid, gid, sizeof(gid));
	printf("  remote address: LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s\n", rem.lid, rem.qpn, rem.psn, gid);
	fflush(stdout);
	if (o->servername && pp_connect_ctx(ctx, o, my.psn, &rem))
		return -1;

	ctx->pending = PP_RECV_WRID;
	if (o->servername) {
		if (pp_post_send(ctx))
			return -1;
		ctx->pending |= PP_SEND_WRID;
	}
	gettimeofday(&start, NULL);
	if (pp_run(ctx, o, routs))
		return -1;
	gettimeofday(&end, NULL);

	/* rc_pingpong's arithmetic, float and all, for the same figures */
	{
		float usec = (float)((end.tv_sec - start.tv_sec) * 1000000 + (end.tv_usec - start.tv_usec));
		long long bytes = (long long)o->size * o->iters * 2;

		printf("%lld bytes in %.2f seconds = %.2f Mbit/sec\n", bytes, usec / 1000000., bytes * 8. / usec);
		printf("%d iters in %.2f seconds = %.2f usec/iter\n", o->iters, usec / 1000000., usec / o->iters);
	}
	if (!o->servername && o->chk && pp_check_buf(ctx, page_size))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct pp_opts o = { 0 };
	struct pp_ctx ctx = { 0 };
	struct froce_link *link;
	long page_size = sysconf(_SC_PAGESIZE);
	int rc;

	if (parse_opts(argc, argv, &o))
		return 2;
	if (find_peer(&o))
		return 1;
	srand48(getpid() * time(NULL));
	if (open_board(&link, &ctx.b, &o))
		return 1;
	rc = setup_port(&ctx, &o);
	if (!rc)
		rc = pingpong(&ctx, &o, page_size);
	if (pp_close_ctx(&ctx))
		rc = -1;
	froce_board_close(ctx.b);
	report_link(link);
	froce_link_close(link);
	return rc ? 1 : 0;
}
