/* SPDX-License-Identifier: MIT */
/* Device-wide commands: NOP, QUERY_FW, QUERY_CAPS, QUERY_PORT, SET_PORT,
 * the GID table and QUERY_COUNTERS. */
#include "fw_string.h"

#include "fw_int.h"

#define BAD_PARAM FROCE_CMD_STATUS_BAD_PARAM
#define OK FROCE_CMD_STATUS_OK

uint8_t fw_cmd_NOP(struct fw_cmd *c)
{
	(void)c;
	return OK;
}

uint8_t fw_cmd_QUERY_FW(struct fw_cmd *c)
{
	SET_DW(c->out, FROCE_CMD_QUERY_FW_OUT_VER_MAJOR, FW_VERSION_MAJOR);
	SET_DW(c->out, FROCE_CMD_QUERY_FW_OUT_VER_MINOR, FW_VERSION_MINOR);
	SET_DW(c->out, FROCE_CMD_QUERY_FW_OUT_VER_PATCH, FW_VERSION_PATCH);
	SET_DW(c->out, FROCE_CMD_QUERY_FW_OUT_SPEC_HASH, FROCE_HW_SPEC_HASH);
	SET_DW(c->out, FROCE_CMD_QUERY_FW_OUT_BUILD_ID, FW_BUILD_ID);
	return OK;
}

/* The largest WQE (2^WQE_SHIFT_MAX bytes) bounds SGEs and inline data; a UD
 * send spends the most on its segments, so it sets the device-wide figure. */
#define WQE_MAX_BYTES (1u << FROCE_WQE_SHIFT_MAX)
#define SEND_ROOM (WQE_MAX_BYTES - FROCE_WQE_CTRL_SIZE - FROCE_WQE_UD_SIZE)
#define MAX_SEND_SGE (SEND_ROOM / FROCE_WQE_DATA_SIZE)
#define MAX_RECV_SGE ((WQE_MAX_BYTES - FROCE_RQ_WQE_HDR_SIZE) / FROCE_WQE_DATA_SIZE)
#define MAX_MSG_BYTES 0x80000000u	/* 2 GiB, the largest SGE length the WQE carries sensibly */
#define PAGE_SIZES (((1u << (FROCE_MR_PAGE_SHIFT_MAX + 1)) - 1) & ~((1u << FROCE_MR_PAGE_SHIFT_MIN) - 1))

uint8_t fw_cmd_QUERY_CAPS(struct fw_cmd *c)
{
	uint8_t *o = c->out;

	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP, fw.num_qps ? fw.num_qps - 1 : 0);	/* QPN 0 unused */
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_CQ, fw.num_cqs);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_PD, fw.num_pds ? fw.num_pds - 1 : 0);	/* PDN 0: rings */
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_MR, fw.num_mrs ? fw.num_mrs - 1 : 0);	/* key 0 unused */
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_MTT, fw.num_mtt);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_CQE, 1u << FW_CQ_LOG_MAX);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP_WR, 1u << FW_QP_LOG_MAX);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_SEND_SGE, MAX_SEND_SGE);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_RECV_SGE, MAX_RECV_SGE);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_INLINE, SEND_ROOM);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_EQ, fw.num_eqs);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_NUM_GID, fw.num_gids);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP_RD_ATOM, fw.rd_atomic_max);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_QP_INIT_RD_ATOM, fw.rd_atomic_max);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_MTU, FROCE_MTU_4096);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_NUM_PORTS, 1);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_MSG_SZ, MAX_MSG_BYTES);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_PAGE_SIZE_CAP, PAGE_SIZES);
	/* MR index 0 is kept for it; the engine has no physical-address MR
	 * yet, so key 0 fails translation until it does */
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_LOCAL_DMA_LKEY, 0);
	SET_DW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_UAR, fw.num_uars);
	SET_QW(o, FROCE_CMD_QUERY_CAPS_OUT_MAX_MR_SIZE, (uint64_t)fw.num_mtt << FROCE_MR_PAGE_SHIFT_MAX);
	return OK;
}

/* ib_mtu of an Ethernet MTU: what is left after the largest RoCE headers
 * (GRH/IP 40, UDP 8, BTH 12, XRC 4, AtomicETH 28, ICRC 4), as Linux's
 * iboe_get_mtu() computes it; never below 256, the smallest IB MTU. */
uint32_t fw_ib_mtu_of(uint32_t eth_mtu)
{
	const uint32_t room = eth_mtu > 96 ? eth_mtu - 96 : 0;

	if (room >= 4096)
		return FROCE_MTU_4096;
	if (room >= 2048)
		return FROCE_MTU_2048;
	if (room >= 1024)
		return FROCE_MTU_1024;
	return room >= 512 ? FROCE_MTU_512 : FROCE_MTU_256;
}

/* a station address: 48 bits, not zero, not multicast (bit 0 of the first
 * wire byte, which is bit 40 of the number) */
static bool unicast_mac(uint64_t mac)
{
	return mac != 0 && !(mac >> 48) && !((mac >> 40) & 1);
}

uint8_t fw_cmd_QUERY_PORT(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = { RSV(FROCE_CMD_QUERY_PORT_IN_PORT) };
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_QUERY_PORT_IN_SIZE / 4);

	if (st)
		return st;
	if (GET_DW(c->in, FROCE_CMD_QUERY_PORT_IN_PORT) != FW_PORT)
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_QUERY_PORT_IN_PORT));
	const uint32_t link = hal_link_status();
	const bool up = (link & FROCE_REG_LINK_STATUS_UP_MASK) != 0;
	uint8_t *o = c->out;

	SET_DW(o, FROCE_CMD_QUERY_PORT_OUT_STATE, up ? FROCE_PORT_STATE_ACTIVE : FROCE_PORT_STATE_DOWN);
	SET_DW(o, FROCE_CMD_QUERY_PORT_OUT_ACTIVE_MTU, fw_ib_mtu_of(fw.mtu));
	SET_DW(o, FROCE_CMD_QUERY_PORT_OUT_MAX_MTU, FROCE_MTU_4096);
	SET_DW(o, FROCE_CMD_QUERY_PORT_OUT_SPEED_GBPS, up ? FROCE_FIELD_GET(FROCE_REG_LINK_STATUS_SPEED_GBPS, link) : 0);
	SET_DW(o, FROCE_CMD_QUERY_PORT_OUT_MTU, fw.mtu);
	SET_QW(o, FROCE_CMD_QUERY_PORT_OUT_MAC, fw.mac);
	return OK;
}

uint8_t fw_cmd_SET_PORT(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = {
		RSV(FROCE_CMD_SET_PORT_IN_PORT), RSV(FROCE_CMD_SET_PORT_IN_PROMISC),
		RSV(FROCE_CMD_SET_PORT_IN_ALLMULTI), RSV(FROCE_CMD_SET_PORT_IN_MTU),
		RSV_QW(FROCE_CMD_SET_PORT_IN_MAC),
	};
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_SET_PORT_IN_SIZE / 4);

	if (st)
		return st;
	const uint32_t mtu = GET_DW(c->in, FROCE_CMD_SET_PORT_IN_MTU);
	const uint64_t mac = GET_QW(c->in, FROCE_CMD_SET_PORT_IN_MAC);

	if (GET_DW(c->in, FROCE_CMD_SET_PORT_IN_PORT) != FW_PORT)
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_SET_PORT_IN_PORT));
	if (mtu < FW_ETH_MTU_MIN || mtu > FW_ETH_MTU_MAX)
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_SET_PORT_IN_MTU));
	if (!unicast_mac(mac))
		return refuse(c, BAD_PARAM, OFF_QW(FROCE_CMD_SET_PORT_IN_MAC));
	fw.mac = mac;
	fw.mtu = mtu;
	fw.promisc = (uint8_t)GET_DW(c->in, FROCE_CMD_SET_PORT_IN_PROMISC);
	fw.allmulti = (uint8_t)GET_DW(c->in, FROCE_CMD_SET_PORT_IN_ALLMULTI);
	hal_port_set(mac, mtu, fw.promisc, fw.allmulti);
	return OK;
}

/* ---- GID table ---- */

static uint8_t gid_index(struct fw_cmd *c, uint32_t index, uint32_t off)
{
	return index < fw.num_gids ? OK : refuse(c, FROCE_CMD_STATUS_BAD_INDEX, off);
}

static bool all_zero(const uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

uint8_t fw_cmd_ADD_GID(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = {
		RSV(FROCE_CMD_ADD_GID_IN_INDEX), RSV(FROCE_CMD_ADD_GID_IN_TYPE), RSV(FROCE_CMD_ADD_GID_IN_VLAN_EN),
		RSV(FROCE_CMD_ADD_GID_IN_VLAN_ID), RSV_QW(FROCE_CMD_ADD_GID_IN_SMAC),
		RSV_BYTES16(FROCE_CMD_ADD_GID_IN_GID),
	};
	const uint8_t *in = c->in;
	const uint32_t index = GET_DW(in, FROCE_CMD_ADD_GID_IN_INDEX);
	const uint32_t type = GET_DW(in, FROCE_CMD_ADD_GID_IN_TYPE);
	const uint32_t vlan_en = GET_DW(in, FROCE_CMD_ADD_GID_IN_VLAN_EN);
	const uint32_t vlan_id = GET_DW(in, FROCE_CMD_ADD_GID_IN_VLAN_ID);
	const uint64_t smac = GET_QW(in, FROCE_CMD_ADD_GID_IN_SMAC);
	const uint8_t *gid = in + FROCE_CMD_ADD_GID_IN_GID_BYTE;
	uint8_t st;

	if (GET_DW(in, FROCE_CMD_ADD_GID_IN_VALID))	/* QUERY_GID output only */
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_ADD_GID_IN_VALID));
	st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_ADD_GID_IN_SIZE / 4);
	if (st)
		return st;
	st = gid_index(c, index, OFF_DW(FROCE_CMD_ADD_GID_IN_INDEX));
	if (st)
		return st;
	if (type != FROCE_GID_TYPE_ROCE_V1 && type != FROCE_GID_TYPE_ROCE_V2)
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_ADD_GID_IN_TYPE));
	if (!vlan_en && vlan_id)
		return refuse(c, BAD_PARAM, OFF_DW(FROCE_CMD_ADD_GID_IN_VLAN_ID));
	if (!unicast_mac(smac))
		return refuse(c, BAD_PARAM, OFF_QW(FROCE_CMD_ADD_GID_IN_SMAC));
	if (all_zero(gid, FROCE_CMD_ADD_GID_IN_GID_BYTES))
		return refuse(c, BAD_PARAM, FROCE_CMD_ADD_GID_IN_GID_BYTE);

	uint8_t *img = fw.gid[index];

	memset(img, 0, FROCE_GID_CTX_SIZE);
	SET_DW(img, FROCE_GID_CTX_TYPE, type);
	SET_DW(img, FROCE_GID_CTX_VLAN_EN, vlan_en);
	SET_DW(img, FROCE_GID_CTX_VLAN_ID, vlan_id);
	SET_DW(img, FROCE_GID_CTX_VALID, 1);
	SET_QW(img, FROCE_GID_CTX_SMAC, smac);
	memcpy(img + FROCE_GID_CTX_GID_BYTE, gid, FROCE_GID_CTX_GID_BYTES);
	fw_ctx_write(FROCE_CTL_GID_BASE + index * (uint32_t)FROCE_GID_CTX_SIZE, img, FROCE_GID_CTX_SIZE);
	return OK;
}

uint8_t fw_cmd_DEL_GID(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = { RSV(FROCE_CMD_DEL_GID_IN_INDEX) };
	const uint32_t index = GET_DW(c->in, FROCE_CMD_DEL_GID_IN_INDEX);
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_DEL_GID_IN_SIZE / 4);

	if (st)
		return st;
	st = gid_index(c, index, OFF_DW(FROCE_CMD_DEL_GID_IN_INDEX));
	if (st)
		return st;
	if (!GET_DW(fw.gid[index], FROCE_GID_CTX_VALID))
		return refuse(c, FROCE_CMD_STATUS_BAD_RES_STATE, OFF_DW(FROCE_CMD_DEL_GID_IN_INDEX));
	memset(fw.gid[index], 0, FROCE_GID_CTX_SIZE);
	fw_ctx_clear(FROCE_CTL_GID_BASE + index * (uint32_t)FROCE_GID_CTX_SIZE, FROCE_GID_CTX_SIZE);
	return OK;
}

uint8_t fw_cmd_QUERY_GID(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = { RSV(FROCE_CMD_QUERY_GID_IN_INDEX) };
	const uint32_t index = GET_DW(c->in, FROCE_CMD_QUERY_GID_IN_INDEX);
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_QUERY_GID_IN_SIZE / 4);

	if (st)
		return st;
	st = gid_index(c, index, OFF_DW(FROCE_CMD_QUERY_GID_IN_INDEX));
	if (st)
		return st;
	const uint8_t *img = fw.gid[index];
	uint8_t *o = c->out;

	SET_DW(o, FROCE_CMD_QUERY_GID_OUT_INDEX, index);
	SET_DW(o, FROCE_CMD_QUERY_GID_OUT_TYPE, GET_DW(img, FROCE_GID_CTX_TYPE));
	SET_DW(o, FROCE_CMD_QUERY_GID_OUT_VLAN_EN, GET_DW(img, FROCE_GID_CTX_VLAN_EN));
	SET_DW(o, FROCE_CMD_QUERY_GID_OUT_VLAN_ID, GET_DW(img, FROCE_GID_CTX_VLAN_ID));
	SET_DW(o, FROCE_CMD_QUERY_GID_OUT_VALID, GET_DW(img, FROCE_GID_CTX_VALID));
	SET_QW(o, FROCE_CMD_QUERY_GID_OUT_SMAC, GET_QW(img, FROCE_GID_CTX_SMAC));
	memcpy(o + FROCE_CMD_QUERY_GID_OUT_GID_BYTE, img + FROCE_GID_CTX_GID_BYTE, FROCE_GID_CTX_GID_BYTES);
	return OK;
}

/* ---- counters ---- */

/* 64-bit counter i on the control bus: read high, low, high again, so a
 * carry between the two halves is never half seen */
static uint64_t read_counter(uint32_t i)
{
	const uint32_t off = FROCE_CTL_CORE_BASE + 8 * i;
	uint32_t hi = hal_ctl_read32(off + 4);
	uint32_t lo = hal_ctl_read32(off);
	const uint32_t hi2 = hal_ctl_read32(off + 4);

	if (hi2 != hi) {
		lo = hal_ctl_read32(off);
		hi = hi2;
	}
	return (uint64_t)hi << 32 | lo;
}

uint8_t fw_cmd_QUERY_COUNTERS(struct fw_cmd *c)
{
	static const struct fw_rsv rsv[] = { RSV(FROCE_CMD_QUERY_COUNTERS_IN_CLEAR) };
	uint8_t st = fw_check_reserved(c, rsv, NELEM(rsv), 0, FROCE_CMD_QUERY_COUNTERS_IN_SIZE / 4);

	if (st)
		return st;
	const bool clear = GET_DW(c->in, FROCE_CMD_QUERY_COUNTERS_IN_CLEAR);

	/* the engine's counters cannot be zeroed: CLEAR moves the baseline
	 * QUERY_COUNTERS subtracts (BAR0 COUNTERS keep counting from reset) */
	for (uint32_t i = 0; i < FROCE_CNT_NUM; i++) {
		const uint64_t raw = read_counter(i);

		st64(c->out + 8 * i, raw - fw.cnt_base[i]);
		if (clear)
			fw.cnt_base[i] = raw;
	}
	return OK;
}
