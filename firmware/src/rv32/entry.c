/* SPDX-License-Identifier: MIT */
/* C entry and trap report of the RV32 image. */
#include "fw.h"

void fw_entry(void);
void fw_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval);

void fw_entry(void)
{
	fw_main();
}

void fw_trap(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
	fw_puts("\nfw: trap mcause=");
	fw_puthex(mcause);
	fw_puts(" mepc=");
	fw_puthex(mepc);
	fw_puts(" mtval=");
	fw_puthex(mtval);
	fw_puts(", halted\n");
	for (;;)
		;
}
