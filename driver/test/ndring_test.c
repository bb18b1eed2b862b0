// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Host unit test of froce_ndring.h: netdev descriptor encoding and decoding
 * against the byte layout of docs/hw-interface.md (NTX_DESC, NRX_DESC) and
 * the ring index arithmetic, built with the shims in test/shim under
 * ASan/UBSan ('make -C driver test').
 */

#include <stdio.h>
#include <string.h>

#include <linux/kernel.h>

#include "froce_ndring.h"

static int failures;

#include "check.h"

static void test_ntx(void)
{
	u8 d[FROCE_NTX_DESC_SIZE] __aligned(16);
	u32 st;

	CHECK(sizeof(d) == 16);
	memset(d, 0xaa, sizeof(d));
	froce_ntx_desc_fill(d, 0x123456789abcdef0ULL, 1514, true);
	/* ADDR: qword 0, little-endian */
	CHECK(rd32(d, 0) == 0x9abcdef0 && rd32(d, 4) == 0x12345678);
	/* dw2: LEN 15:0, EOP 16 */
	CHECK(rd32(d, 8) == (1514u | 1u << 16));
	/* dw3 cleared: not DONE */
	CHECK(rd32(d, 12) == 0);
	st = froce_ntx_desc_status(d);
	CHECK(!froce_ntx_done(st) && !froce_ntx_err(st));

	froce_ntx_desc_fill(d, 0, 0xffff, false);
	CHECK(rd32(d, 8) == 0xffff);

	/* the hardware writes dw3 = {DONE 31, ERR 30} */
	wr32(d, 12, 0x80000000);
	st = froce_ntx_desc_status(d);
	CHECK(froce_ntx_done(st) && !froce_ntx_err(st));
	wr32(d, 12, 0xc0000000);
	st = froce_ntx_desc_status(d);
	CHECK(froce_ntx_done(st) && froce_ntx_err(st));
	/* the rest of the descriptor is not looked at */
	wr32(d, 12, 0x40000000);
	CHECK(!froce_ntx_done(froce_ntx_desc_status(d)));
}

static void test_nrx(void)
{
	u8 d[FROCE_NRX_DESC_SIZE] __aligned(16);
	u32 st;

	CHECK(sizeof(d) == 16);
	memset(d, 0x55, sizeof(d));
	froce_nrx_desc_fill(d, 0xfedcba9876543210ULL, 1536);
	CHECK(rd32(d, 0) == 0x76543210 && rd32(d, 4) == 0xfedcba98);
	/* dw2: BUF_LEN 15:0, the rest zero */
	CHECK(rd32(d, 8) == 1536);
	CHECK(rd32(d, 12) == 0);
	CHECK(!froce_nrx_done(froce_nrx_desc_status(d)));

	/* dw3 as froce_netdev.v writes it: PKT_LEN, VERDICT NOT_ROCE, DONE */
	wr32(d, 12, 60u | (u32)FROCE_VERDICT_NOT_ROCE << 16 | 1u << 31);
	st = froce_nrx_desc_status(d);
	CHECK(froce_nrx_done(st) && !froce_nrx_err(st));
	CHECK(froce_nrx_pkt_len(st) == 60);
	CHECK(froce_nrx_verdict(st) == FROCE_VERDICT_NOT_ROCE);
	wr32(d, 12, 0xffffu | 0xfu << 16 | 3u << 30);
	st = froce_nrx_desc_status(d);
	CHECK(froce_nrx_done(st) && froce_nrx_err(st));
	CHECK(froce_nrx_pkt_len(st) == 0xffff && froce_nrx_verdict(st) == 0xf);
	/* the descriptor's own fields are untouched by the status */
	CHECK(rd32(d, 8) == 1536);
}

static void test_ring_index(void)
{
	const u32 size = 256;
	u32 head, tail;

	CHECK(froce_ring_free(0, 0, size) == size);
	CHECK(froce_ring_used(0, 0) == 0);
	CHECK(froce_ring_free(size, 0, size) == 0);
	CHECK(froce_ring_slot(size, size) == 0);
	CHECK(froce_ring_slot(size + 3, size) == 3);

	/* across the u32 wrap */
	tail = 0xffffff80u;
	head = tail + 200;
	CHECK(head == 72);
	CHECK(froce_ring_used(head, tail) == 200);
	CHECK(froce_ring_free(head, tail, size) == 56);
	CHECK(froce_ring_slot(tail, size) == 0x80);
	CHECK(froce_ring_slot(head, size) == 72);

	/* PI: low 16 bits, consistent across the u32 and u16 wraps */
	CHECK(froce_ring_pi(0x12345) == 0x2345);
	CHECK(froce_ring_pi(0xffffffffu) == 0xffff);
	CHECK(froce_ring_pi(0xffffffffu + 1) == 0);
	/* PI mod ring size is the slot, the way the hardware indexes */
	for (head = 0xfffffe00u; head != 0x200; head++)
		if ((froce_ring_pi(head) & (size - 1)) !=
		    froce_ring_slot(head, size))
			failures++;
	/* the largest ring (2^15) still divides 2^16 */
	CHECK((froce_ring_pi(0x18000) & 0x7fff) == froce_ring_slot(0x18000, 0x8000));
}

int main(void)
{
	test_ntx();
	test_nrx();
	test_ring_index();
	if (failures) {
		fprintf(stderr, "ndring_test: %d failures\n", failures);
		return 1;
	}
	printf("ndring_test: ok\n");
	return 0;
}
