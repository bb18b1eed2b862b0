/* SPDX-License-Identifier: MIT */
/*
 * Negative controls of tests/run_rv32.sh: a planted firmware misbehaviour,
 * linked only into fw-tests-rv32-neg<T_PLANT>.elf with -Wl,--wrap=<the HAL
 * call> (the firmware's calls into the model go through the wrapper; the
 * suite's images never contain this file). Each must make the run on the
 * core fail, naming the test group that ran:
 *   1  hal_mbox_status: every CMD_STATUS the firmware writes has the low
 *      STATUS bit flipped -> CHECK failures (tutil.c t_run_full), main
 *      returns the number of the group;
 *   2  hal_ctl_write32: the 10th control-bus write is 2 bytes off -> the
 *      model aborts ("unaligned control write"), abort() exits with the group;
 *   3  hal_dma_read: a word load from dst + 1 -> load address misaligned trap
 *      (mcause 4), t_trap reports mcause/mepc/mtval and exits with the group.
 */
#include <stdint.h>

#include "fw.h"

#if T_PLANT == 1
void __real_hal_mbox_status(uint32_t cmd_status);
void __wrap_hal_mbox_status(uint32_t cmd_status);

void __wrap_hal_mbox_status(uint32_t cmd_status)
{
	__real_hal_mbox_status(cmd_status ^ 1u << FROCE_REG_CMD_STATUS_STATUS_SHIFT);
}
#elif T_PLANT == 2
void __real_hal_ctl_write32(uint32_t off, uint32_t val);
void __wrap_hal_ctl_write32(uint32_t off, uint32_t val);

void __wrap_hal_ctl_write32(uint32_t off, uint32_t val)
{
	static unsigned n;

	__real_hal_ctl_write32(++n == 10 ? off + 2 : off, val);
}
#elif T_PLANT == 3
int __real_hal_dma_read(uint64_t addr, void *dst, uint32_t len);
int __wrap_hal_dma_read(uint64_t addr, void *dst, uint32_t len);

int __wrap_hal_dma_read(uint64_t addr, void *dst, uint32_t len)
{
	const int r = __real_hal_dma_read(addr, dst, len);

	/* the compiler must not know dst + 1 is misaligned: through a volatile pointer */
	uint8_t *volatile p = (uint8_t *)dst + 1;

	return r + (int)(*(volatile uint32_t *)(void *)p & 0);
}
#else
#error "T_PLANT: 1, 2 or 3"
#endif
