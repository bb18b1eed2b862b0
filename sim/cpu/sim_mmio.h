/* SPDX-License-Identifier: MIT */
/*
 * froce-cpu-sim's MMIO devices (froce_cpu_top's m_mmio_* port; docs/cpu.md).
 * Plain #defines: included by the simulator (C++) and by test programs
 * (assembly and C). Every register is one 32-bit word; an access to any other
 * offset in the window is answered with err (a load/store access fault).
 */
#ifndef FROCE_SIM_MMIO_H
#define FROCE_SIM_MMIO_H

#define SIM_MMIO_BASE        0x10000000  /* froce_cpu_top MMIO_BASE */

/* W: byte 0 goes to the simulator's stdout. R: 0 */
#define SIM_CONSOLE          0x10000000
/* R/W: bit 0 drives irq_external (mip.MEIP) */
#define SIM_IRQ_EXT          0x10000004
/* W: N > 0 sets irq_external N cycles after the write; 0 cancels. R: cycles left */
#define SIM_IRQ_EXT_AFTER    0x10000008
/* R/W: bit 0 drives irq_timer (mip.MTIP) */
#define SIM_IRQ_TIMER        0x1000000c
/* R/W: a plain 32-bit register with byte enables (MMIO path tests) */
#define SIM_SCRATCH          0x10000010

#endif
