// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Compile test: include/froce_hw.h used the way the froce driver will use it,
 * with the kernel's FIELD_PREP/FIELD_GET (which reject non-constant or
 * non-contiguous masks at compile time), __le32/__le64 words and errno names
 * in the command status list. Built by tests/gen/run.sh, never loaded.
 */
#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/types.h>

#include "froce_hw.h"

static_assert(FROCE_CQE_OWNER_MASK == BIT(31));
static_assert(FROCE_CQE_SMAC_MASK == GENMASK_ULL(47, 0));
static_assert(FROCE_WQE_CTRL_DS_MASK == GENMASK(21, 16));
static_assert(FROCE_REG_EQ_DOORBELL_EQN_MASK == GENMASK(29, 24));
static_assert(FROCE_REG_CMD_DOORBELL_EVENT_MASK == BIT(31));

/* Command status to errno, straight from the spec's table */
static int froce_cmd_errno(u8 status)
{
	switch (status) {
#define FROCE_STATUS_CASE(name, value, err) case value: return -(err);
	FROCE_CMD_STATUS_LIST(FROCE_STATUS_CASE)
#undef FROCE_STATUS_CASE
	}
	return -EIO;
}

/* Build a SEND WQE and read back a CQE with typed little-endian words */
static int froce_hw_selftest(void)
{
	__le32 wqe[FROCE_WQE_BB / 4] = {};
	__le32 cqe[FROCE_CQE_SIZE / 4] = {};
	__le64 *wqe64 = (__le64 *)wqe, *cqe64 = (__le64 *)cqe;
	const unsigned int data = FROCE_WQE_CTRL_SIZE / 8; /* first qword of the data segment */

	wqe[FROCE_WQE_CTRL_OPCODE_DW] =
		cpu_to_le32(FIELD_PREP(FROCE_WQE_CTRL_OPCODE_MASK, FROCE_WQE_OP_SEND) |
			    FIELD_PREP(FROCE_WQE_CTRL_SIGNALED_MASK, 1) |
			    FIELD_PREP(FROCE_WQE_CTRL_DS_MASK, 2));
	wqe[FROCE_WQE_CTRL_WQE_INDEX_DW] = cpu_to_le32(FIELD_PREP(FROCE_WQE_CTRL_WQE_INDEX_MASK, 7));
	wqe64[data + FROCE_WQE_DATA_ADDR_QW] = cpu_to_le64(0x1000);
	wqe[2 * data + FROCE_WQE_DATA_LEN_DW] = cpu_to_le32(64);
	wqe[2 * data + FROCE_WQE_DATA_LKEY_DW] = cpu_to_le32(0x100);

	cqe[FROCE_CQE_STATUS_DW] = cpu_to_le32(FIELD_PREP(FROCE_CQE_STATUS_MASK, FROCE_WC_SUCCESS) |
					       FIELD_PREP(FROCE_CQE_WQE_INDEX_MASK, 7));
	cqe64[FROCE_CQE_SMAC_QW] = cpu_to_le64(FIELD_PREP(FROCE_CQE_SMAC_MASK, 0x525400000001ULL) |
					       FIELD_PREP(FROCE_CQE_VLAN_ID_MASK, 100));
	cqe[FROCE_CQE_OWNER_DW] |= cpu_to_le32(FIELD_PREP(FROCE_CQE_OWNER_MASK, 1));

	if (FIELD_GET(FROCE_CQE_OWNER_MASK, le32_to_cpu(cqe[FROCE_CQE_OWNER_DW])) != 1 ||
	    FIELD_GET(FROCE_CQE_VLAN_ID_MASK, le64_to_cpu(cqe64[FROCE_CQE_VLAN_ID_QW])) != 100 ||
	    FIELD_GET(FROCE_CQE_WQE_INDEX_MASK, le32_to_cpu(cqe[FROCE_CQE_WQE_INDEX_DW])) != 7)
		return -EINVAL;
	return froce_cmd_errno(FROCE_CMD_STATUS_OK);
}

static int __init froce_hw_kmod_init(void)
{
	return froce_hw_selftest();
}
module_init(froce_hw_kmod_init);

MODULE_DESCRIPTION("froce_hw.h kernel compile test");
MODULE_LICENSE("Dual BSD/GPL");
