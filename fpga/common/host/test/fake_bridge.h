/* SPDX-License-Identifier: MIT */
/*
 * A software model of froce_uart_host_bridge for the library's unit test:
 * the same protocol (froce_uart_proto.h), the same checks and statuses,
 * the same resend memory and interrupt frames, plus faults to inject. It
 * serves one stream fd until the other end closes it.
 */
#ifndef FAKE_BRIDGE_H
#define FAKE_BRIDGE_H

#include <stdint.h>

#define FAKE_BAR0_AW 14
#define FAKE_BAR2_AW 20
#define FAKE_MEM_AW 16
#define FAKE_MEM_BASE 0x0000001234560000ull
#define FAKE_VECTORS 32

/* shared between the test (parent) and the device (child): mmap'ed */
struct fake_ctl {
	/* faults, each counted down as it is used */
	int drop_rsp;		/* execute, but do not send the answer */
	int corrupt_rsp;	/* flip a bit in the answer's DATA or CRC */
	int corrupt_req;	/* the request arrives with a flipped bit */
	int cut_req;		/* the request stops after 3 bytes (TIMEOUT answer) */
	int garbage;		/* bytes of noise before the next answer */
	int delay_ms;		/* wait before every answer (not counted down) */
	uint32_t irq_before;	/* an interrupt frame with this bitmap before the next answer */
	int irq_skip;		/* the next interrupt frame's number jumps by one (a lost frame) */
	int axi_error;		/* the next BAR access answers STATUS_AXI | axi_error */
	int die;		/* close the link at the next request */
	uint32_t irq_send;	/* send an interrupt frame with this bitmap now (the test polls it) */
	/* observations */
	int requests;		/* frames received (good or not) */
	int bar0_writes, db_writes, mem_writes, dups;
	uint32_t last_db_off;
	uint64_t last_db_val;
	uint8_t bar0[1 << FAKE_BAR0_AW];
	uint8_t mem[1 << FAKE_MEM_AW];
};

/* serves fd until EOF or ctl->die; returns 0 */
int fake_bridge_serve(int fd, struct fake_ctl *ctl);

#endif
