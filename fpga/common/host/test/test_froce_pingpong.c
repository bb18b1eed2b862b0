// SPDX-License-Identifier: MIT
/*
 * Unit test of froce-pingpong's pure parts and of its TCP exchange (ASan +
 * UBSan). The program's source is included with its main() renamed, so its
 * static functions are tested as they are.
 *
 * The expectations are rdma-core 44's rc_pingpong.c and pingpong.c as they
 * behave: gid_to_wire_gid prints each 32-bit word of the GID, loaded in host
 * order and swapped to big endian, with "%08x", which is the 16 bytes in
 * order as hex; the message is sprintf("%04x:%06x:%06x:%s") into a buffer of
 * sizeof "0000:000000:000000:" + 32 hex digits (52 bytes), all of it sent;
 * the client reads the server's 52 bytes and writes "done" with its NUL (5
 * bytes); the server reads 52, replies 52, reads the 5. Reference peers in
 * threads play the other side with exactly those bytes.
 */
#define main froce_pingpong_main
#include "../froce_pingpong.c"
#undef main

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>

static int passed, failed;

#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		if (cond) {                                                     \
			passed++;                                               \
		} else {                                                        \
			failed++;                                               \
			printf("FAIL  %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                    \
			printf("\n");                                           \
		}                                                               \
	} while (0)

static bool contains_str(const char *s, const char *sub)
{
	return strstr(s, sub) != NULL;
}

/* ---- stderr capture (the program reports through note()) ---- */

static int saved_stderr = -1;
static char capture_path[] = "/tmp/froce-pp-test-XXXXXX";

static void capture_begin(void)
{
	int fd = mkstemp(capture_path);

	fflush(stderr);
	saved_stderr = dup(2);
	dup2(fd, 2);
	close(fd);
}

static void capture_end(char *buf, size_t len)
{
	FILE *f;
	size_t n = 0;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	f = fopen(capture_path, "r");
	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	unlink(capture_path);
	strcpy(capture_path, "/tmp/froce-pp-test-XXXXXX");
}

/* ---- pure parts ---- */

/* ::ffff:10.77.0.1 and fe80::211:22ff:fe33:4455 */
static const uint8_t gid_v4[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 77, 0, 1 };
static const uint8_t gid_ll[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 };
/* rc_pingpong's message for LID 0, QPN 0x12, PSN 0xabcdef, gid_v4, NUL included */
static const char msg_v4[] = "0000:000012:abcdef:00000000000000000000ffff0a4d0001";

static void t_gid_wire(void)
{
	char wire[PP_GID_HEX + 1];
	uint8_t gid[16];

	pp_gid_to_wire(gid_v4, wire);
	CHECK(!strcmp(wire, "00000000000000000000ffff0a4d0001"), "%s", wire);
	pp_gid_to_wire(gid_ll, wire);
	CHECK(!strcmp(wire, "fe800000000000000211" "22fffe334455"), "%s", wire);
	CHECK(pp_wire_to_gid(wire, gid) == 0 && !memcmp(gid, gid_ll, 16), "round trip");
	CHECK(pp_wire_to_gid("FE800000000000000211" "22FFFE334455", gid) == 0 && !memcmp(gid, gid_ll, 16),
	      "upper case");
	CHECK(pp_wire_to_gid("fe800000000000000211" "22fffe33445", gid) == -EINVAL, "31 digits");
	CHECK(pp_wire_to_gid("fe800000000000000211" "22fffe3344550", gid) == -EINVAL, "33 digits");
	CHECK(pp_wire_to_gid("fe80000000000000021g" "22fffe334455", gid) == -EINVAL, "not hex");
}

static void t_message(void)
{
	struct pp_dest d = { .lid = 0, .qpn = 0x12, .psn = 0xabcdef }, r;
	char msg[PP_MSG_SIZE], bad[PP_MSG_SIZE];

	CHECK(PP_MSG_SIZE == 52 && sizeof(msg_v4) == PP_MSG_SIZE, "rc_pingpong's message is 52 bytes");
	memcpy(d.gid, gid_v4, 16);
	memset(msg, 'x', sizeof(msg));
	CHECK(pp_format_dest(msg, &d) == 0 && !memcmp(msg, msg_v4, PP_MSG_SIZE), "%.52s", msg);
	CHECK(pp_parse_dest(msg_v4, &r) == 0 && r.lid == 0 && r.qpn == 0x12 && r.psn == 0xabcdef &&
		      !memcmp(r.gid, gid_v4, 16),
	      "parse");
	CHECK(pp_parse_dest("FFFF:FFFFFF:ABCDEF:FE80000000000000021122FFFE334455", &r) == 0 && r.lid == 0xffff &&
		      r.qpn == 0xffffff && !memcmp(r.gid, gid_ll, 16),
	      "upper case, widest values");
	d.qpn = 1u << 24;
	CHECK(pp_format_dest(msg, &d) == -EINVAL, "QPN wider than 6 digits");
	d.qpn = 0x12;
	d.lid = 0x10000;
	CHECK(pp_format_dest(msg, &d) == -EINVAL, "LID wider than 4 digits");

	memcpy(bad, msg_v4, PP_MSG_SIZE);
	bad[PP_MSG_SIZE - 1] = 'x';
	CHECK(pp_parse_dest(bad, &r) == -EINVAL, "no NUL");
	memcpy(bad, msg_v4, PP_MSG_SIZE);
	bad[11] = '-';
	CHECK(pp_parse_dest(bad, &r) == -EINVAL, "separator");
	memcpy(bad, msg_v4, PP_MSG_SIZE);
	bad[2] = 'z';
	CHECK(pp_parse_dest(bad, &r) == -EINVAL, "LID not hex");
	memcpy(bad, msg_v4, PP_MSG_SIZE);
	bad[40] = '\0';
	CHECK(pp_parse_dest(bad, &r) == -EINVAL, "short GID");
}

static void t_options(void)
{
	static const long mtus[] = { 256, 512, 1024, 2048, 4096 };
	unsigned long long v;
	uint8_t mac[6];

	for (unsigned int i = 0; i < sizeof(mtus) / sizeof(mtus[0]); i++)
		CHECK(pp_mtu_enum(mtus[i]) && pp_mtu_bytes(pp_mtu_enum(mtus[i])) == mtus[i], "MTU %ld", mtus[i]);
	CHECK(pp_mtu_enum(1000) == 0 && pp_mtu_enum(8192) == 0 && pp_mtu_bytes(0) == 0, "bad MTUs");
	CHECK(pp_mtu_enum(1024) == FROCE_MTU_1024, "1024");

	CHECK(parse_mac("02:00:00:77:00:0A", mac) && mac[0] == 2 && mac[3] == 0x77 && mac[5] == 0x0a, "MAC");
	CHECK(!parse_mac("02:00:00:77:00", mac) && !parse_mac("02:00:00:77:00:01:", mac) &&
		      !parse_mac("02-00-00-77-00-01", mac) && !parse_mac("0g:00:00:77:00:01", mac) &&
		      !parse_mac("2:00:00:77:00:01", mac),
	      "bad MACs");
	CHECK(parse_num("18515", 65535, &v) && v == 18515 && parse_num("0x10", 100, &v) && v == 16, "numbers");
	CHECK(!parse_num("", 10, &v) && !parse_num("-1", 10, &v) && !parse_num("12a", 100, &v) &&
		      !parse_num("65536", 65535, &v) && !parse_num("99999999999999999999999", UINT64_MAX, &v),
	      "bad numbers");
}

static int run_parse(int argc, char **argv, struct pp_opts *o)
{
	char err[1024];
	int rc;

	memset(o, 0, sizeof(*o));
	optind = 0;
	capture_begin();
	rc = parse_opts(argc, argv, o);
	capture_end(err, sizeof(err));
	return rc;
}

static void t_parse_opts(void)
{
	char *a1[] = { "x", "--ip", "10.77.0.1", "--mac", "02:00:00:77:00:01", NULL };
	char *a2[] = { "x", "-p", "0x4000", "-s", "8000", "-m", "2048", "-r", "3", "-n", "7", "-g", "2", "-c",
		       "--link=unix:/tmp/s", "--ip=10.0.0.9", "--mac=02:00:00:00:00:09", "--peer-mac", "02:00:00:00:00:08",
		       "--eth-mtu", "9000", "--timeout-ms", "60000", "somehost", NULL };
	char *a3[] = { "x", "--ip", "10.77.0.1", NULL };
	char *a4[] = { "x", "--ip", "10.77.0.1", "--mac", "02:00:00:77:00:01", "h1", "h2", NULL };
	char *a5[] = { "x", "--ip", "10.77.0.1", "--mac", "02:00:00:77:00:01", "-s", "0", NULL };
	char *a6[] = { "x", "--ip", "10.77.0.1", "--mac", "02:00:00:77:00:01", "-e", NULL };
	struct pp_opts o;

	unsetenv("FROCE_UART");
	CHECK(run_parse(5, a1, &o) == 0 && !strcmp(o.link, "/dev/ttyUSB1@3000000") && !o.servername &&
		      o.tcp_port == 18515 && o.size == 4096 && o.mtu == FROCE_MTU_1024 && o.rx_depth == 16 &&
		      o.iters == 1000 && o.gid_index == 0 && !o.chk && o.timeout_ms == 10000 && o.eth_mtu == 1500 &&
		      o.ip[0] == 10 && o.ip[3] == 1 && o.mac[5] == 1 && !o.have_peer_mac,
	      "defaults");
	setenv("FROCE_UART", "tcp:localhost:5555", 1);
	CHECK(run_parse(5, a1, &o) == 0 && !strcmp(o.link, "tcp:localhost:5555"), "$FROCE_UART");
	unsetenv("FROCE_UART");
	CHECK(run_parse(24, a2, &o) == 0 && o.tcp_port == 0x4000 && o.size == 8000 && o.mtu == FROCE_MTU_2048 &&
		      o.mtu_bytes == 2048 && o.rx_depth == 3 && o.iters == 7 && o.gid_index == 2 && o.chk &&
		      !strcmp(o.link, "unix:/tmp/s") && o.ip[3] == 9 && o.mac[5] == 9 && o.have_peer_mac &&
		      o.peer_mac[5] == 8 && o.eth_mtu == 9000 && o.timeout_ms == 60000 &&
		      o.servername && !strcmp(o.servername, "somehost"),
	      "every option");
	CHECK(run_parse(3, a3, &o) < 0, "no --mac");
	CHECK(run_parse(7, a4, &o) < 0, "two hosts");
	CHECK(run_parse(7, a5, &o) < 0, "size 0");
	CHECK(run_parse(6, a6, &o) < 0, "rc_pingpong's -e is not supported");
}

static void t_netdev(void)
{
	static const uint8_t lo_ip[4] = { 127, 0, 0, 2 }, none[4] = { 203, 0, 113, 77 };
	uint8_t mac[6];
	char name[64] = "";
	bool have_mac;

	CHECK(pc_netdev_for(lo_ip, name, mac, &have_mac) == 0 && !strcmp(name, "lo"), "127.0.0.2 is on lo: %s", name);
	CHECK(pc_netdev_for(none, name, mac, &have_mac) == -ENOENT, "TEST-NET-3 is on no interface");
}

/* ---- the exchange against reference peers ---- */

static unsigned int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	bind(fd, (struct sockaddr *)&a, sizeof(a));
	getsockname(fd, (struct sockaddr *)&a, &len);
	close(fd);
	return ntohs(a.sin_port);
}

/* what the reference peer sends and what it got */
struct peer {
	unsigned int port;
	const char *send;		/* its message */
	size_t send_len;
	const char *done;		/* client: what it sends after the reply */
	size_t done_len;
	char got[128];			/* what came from our side */
	size_t got_len;
	int listen_fd;
};

/* rc_pingpong's server: read 52, reply 52, read what comes (5: "done") */
static void *ref_server(void *arg)
{
	struct peer *p = arg;
	int fd = accept(p->listen_fd, NULL, NULL);
	ssize_t n;

	close(p->listen_fd);
	if (fd < 0)
		return NULL;
	read_all(fd, p->got, PP_MSG_SIZE, &p->got_len);
	if (p->got_len == PP_MSG_SIZE) {
		write_all(fd, p->send, p->send_len);
		n = read(fd, p->got + PP_MSG_SIZE, sizeof(p->got) - PP_MSG_SIZE);
		if (n > 0)
			p->got_len += (size_t)n;
	}
	close(fd);
	return NULL;
}

/* rc_pingpong's client: send 52, read 52, send "done" and its NUL */
static void *ref_client(void *arg)
{
	struct peer *p = arg;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)p->port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = -1;

	for (int i = 0; i < 200 && fd < 0; i++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
			close(fd);
			fd = -1;
			usleep(10000);
		}
	}
	if (fd < 0)
		return NULL;
	write_all(fd, p->send, p->send_len);
	if (p->done) {
		read_all(fd, p->got, PP_MSG_SIZE, &p->got_len);
		write_all(fd, p->done, p->done_len);
	}
	close(fd);
	return NULL;
}

static void t_client_exchange(void)
{
	/* the server's reply: LID 0, QPN 0x17, PSN 0x123456, gid_ll */
	static const char reply[] = "0000:000017:123456:fe80000000000000021122fffe334455";
	struct peer p = { .send = reply, .send_len = sizeof(reply) };
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct pp_dest my = { .qpn = 0x12, .psn = 0xabcdef }, rem;
	pthread_t th;
	char err[1024];
	int rc;

	memcpy(my.gid, gid_v4, 16);
	p.port = free_port();
	a.sin_port = htons((uint16_t)p.port);
	p.listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	bind(p.listen_fd, (struct sockaddr *)&a, sizeof(a));
	listen(p.listen_fd, 1);
	pthread_create(&th, NULL, ref_server, &p);
	capture_begin();
	rc = pp_client_exch_dest("127.0.0.1", p.port, &my, &rem);
	capture_end(err, sizeof(err));
	pthread_join(th, NULL);
	CHECK(rc == 0, "client exchange: %s", err);
	CHECK(p.got_len == PP_MSG_SIZE + sizeof(PP_DONE) && !memcmp(p.got, msg_v4, PP_MSG_SIZE) &&
		      !memcmp(p.got + PP_MSG_SIZE, "done", 5),
	      "the client sent its 52 bytes, then \"done\\0\" (%zu bytes)", p.got_len);
	CHECK(rem.qpn == 0x17 && rem.psn == 0x123456 && !memcmp(rem.gid, gid_ll, 16), "the server's address");

	capture_begin();
	rc = pp_client_exch_dest("127.0.0.1", free_port(), &my, &rem);
	capture_end(err, sizeof(err));
	CHECK(rc < 0 && contains_str(err, "could not connect to 127.0.0.1"), "nobody listens: %s", err);
}

static int server_side(struct peer *p, struct pp_dest *rem, char *err, size_t errlen)
{
	struct pp_dest my = { .qpn = 0x12, .psn = 0xabcdef };
	pthread_t th;
	int fd, rc = -1;

	memcpy(my.gid, gid_v4, 16);
	p->port = free_port();
	pthread_create(&th, NULL, ref_client, p);
	capture_begin();
	fd = pp_server_accept(p->port);
	if (fd >= 0) {
		rc = recv_dest(fd, rem);
		if (!rc)
			rc = pp_server_finish(fd, &my);
		close(fd);
	}
	capture_end(err, errlen);
	pthread_join(th, NULL);
	return rc;
}

static void t_server_exchange(void)
{
	static const char hello[] = "0000:000017:123456:fe80000000000000021122fffe334455";
	struct peer p = { .send = hello, .send_len = sizeof(hello), .done = "done", .done_len = 5 };
	struct pp_dest rem;
	char err[1024];

	CHECK(server_side(&p, &rem, err, sizeof(err)) == 0, "server exchange: %s", err);
	CHECK(contains_str(err, "waiting for ibv_rc_pingpong to connect to TCP port"), "waiting note: %s", err);
	CHECK(rem.qpn == 0x17 && rem.psn == 0x123456 && !memcmp(rem.gid, gid_ll, 16), "the client's address");
	CHECK(p.got_len == PP_MSG_SIZE && !memcmp(p.got, msg_v4, PP_MSG_SIZE), "the server's 52 bytes");

	p = (struct peer){ .send = hello, .send_len = 10 };
	CHECK(server_side(&p, &rem, err, sizeof(err)) < 0 &&
		      contains_str(err, "could not read the remote address: 10 of 52 bytes came (connection closed)"),
	      "a short message: %s", err);

	p = (struct peer){ .send = "0000:000017:123456:fe80000000000000021122fffe33445Z", .send_len = 52 };
	CHECK(server_side(&p, &rem, err, sizeof(err)) < 0 &&
		      contains_str(err, "bad remote address \"0000:000017:123456:fe80000000000000021122fffe33445Z\\x00\""),
	      "a bad message: %s", err);

	p = (struct peer){ .send = hello, .send_len = sizeof(hello), .done = "nope", .done_len = 5 };
	CHECK(server_side(&p, &rem, err, sizeof(err)) < 0 && contains_str(err, "the client sent \"nope\\x00\" instead of \"done\""),
	      "not done: %s", err);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	t_gid_wire();
	t_message();
	t_options();
	t_parse_opts();
	t_netdev();
	t_client_exchange();
	t_server_exchange();
	printf("test_froce_pingpong: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
