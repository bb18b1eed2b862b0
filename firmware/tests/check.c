/* SPDX-License-Identifier: MIT */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fw.h"
#include "model_hal.h"

static char msg[512];

#define BAD(...) \
	do { \
		snprintf(msg, sizeof msg, __VA_ARGS__); \
		return msg; \
	} while (0)

static bool zero(const uint8_t *p, size_t n)
{
	typedef uint32_t __attribute__((may_alias)) word;
	size_t i = 0;

	/* a word at a time where aligned (the tables are): the run on the soft core calls this a lot */
	if (!((uintptr_t)p & 3))
		for (; i + 4 <= n; i += 4)
			if (*(const word *)(const void *)(p + i))
				return false;
	for (; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static bool mtt_bit(uint32_t j)
{
	return (fw.mtt_used[j >> 5] >> (j & 31)) & 1;
}

const char *check_consistency(void)
{
	uint32_t *pd_refs = calloc(fw.num_pds + 1, 4), *cq_refs = calloc(fw.num_cqs + 1, 4);
	uint32_t *eq_refs = calloc(fw.num_eqs + 1, 4);
	uint8_t *mtt_owner = calloc(fw.num_mtt + 1, 1);
	const char *err = NULL;

#define FAIL(...) \
	do { \
		snprintf(msg, sizeof msg, __VA_ARGS__); \
		err = msg; \
		goto out; \
	} while (0)

	if (M.stage_written || M.mr_written || M.mtt_lo_index >= 0)
		FAIL("a context is half written after the command (stage %#x, MR %#x, MTT %lld)", M.stage_written,
		     M.mr_written, (long long)M.mtt_lo_index);
	/* MRs: hardware entry, MTT ranges */
	for (uint32_t i = 0; i < fw.num_mrs; i++) {
		const struct fw_mr *mr = &fw.mr[i];
		const uint8_t *e = M.mr + (size_t)i * FROCE_MR_CTX_SIZE;

		if (i == 0) {
			if (mr->flags != FW_F_USED || !zero(e, FROCE_MR_CTX_SIZE))
				FAIL("MR 0 is not the reserved, invalid entry");
			continue;
		}
		if (!(mr->flags & FW_F_USED)) {
			if (!zero(e, FROCE_MR_CTX_SIZE) || mr->npages || mr->mtt_base)
				FAIL("free MR %u: MR_CTX not zero or pages kept", i);
			continue;
		}
		if (TGET(e, FROCE_MR_CTX_VALID) != 1 || TGET(e, FROCE_MR_CTX_TAG) != mr->tag ||
		    TGET(e, FROCE_MR_CTX_PDN) != mr->pd || TGET(e, FROCE_MR_CTX_MTT_BASE) != mr->mtt_base)
			FAIL("MR %u: MR_CTX (valid %u tag %u pdn %u base %u) differs from the bookkeeping (tag %u pd %u base %u)",
			     i, TGET(e, FROCE_MR_CTX_VALID), TGET(e, FROCE_MR_CTX_TAG), TGET(e, FROCE_MR_CTX_PDN),
			     TGET(e, FROCE_MR_CTX_MTT_BASE), mr->tag, mr->pd, mr->mtt_base);
		if (!mr->npages || mr->mtt_base + (uint64_t)mr->npages > fw.num_mtt)
			FAIL("MR %u: MTT range %u+%u outside the MTT", i, mr->mtt_base, mr->npages);
		for (uint32_t j = mr->mtt_base; j < mr->mtt_base + mr->npages; j++) {
			if (mtt_owner[j])
				FAIL("MTT entry %u belongs to two MRs", j);
			mtt_owner[j] = 1;
		}
		if (!(mr->flags & FW_F_RING)) {
			if (mr->pd == FW_PDN_RINGS || mr->pd >= fw.num_pds || !(fw.pd[mr->pd].flags & FW_F_USED))
				FAIL("MR %u in PD %u, which is not allocated", i, mr->pd);
			pd_refs[mr->pd]++;
		}
	}
	for (uint32_t j = 0; j < fw.num_mtt; j++)
		if (mtt_bit(j) != mtt_owner[j])
			FAIL("MTT bitmap bit %u is %d but %s MR owns the entry", j, mtt_bit(j), mtt_owner[j] ? "an" : "no");
	/* CQs */
	for (uint32_t n = 0; n < fw.num_cqs; n++) {
		const struct fw_cq *cq = &fw.cq[n];
		const uint8_t *e = M.cqc + (size_t)n * FROCE_CQC_SIZE;

		if (!(cq->flags & FW_F_USED)) {
			if (!zero(e, FROCE_CQC_SIZE))
				FAIL("free CQ %u: CQC not zero", n);
			continue;
		}
		const struct fw_mr *mr = cq->ring_mr < fw.num_mrs ? &fw.mr[cq->ring_mr] : NULL;

		if (!mr || !(mr->flags & FW_F_RING) || mr->pd != FW_PDN_RINGS)
			FAIL("CQ %u: ring MR %u is not a ring MR in the rings' PD", n, cq->ring_mr);
		if (TGET(e, FROCE_CQC_VALID) != 1 || TGET(e, FROCE_CQC_LOG_SIZE) != cq->log_size ||
		    TGET(e, FROCE_CQC_RING_KEY) != (cq->ring_mr << FROCE_KEY_TAG_W | mr->tag) ||
		    TGET(e, FROCE_CQC_PDN) != FW_PDN_RINGS || TGET(e, FROCE_CQC_UAR) != cq->uar ||
		    TGET(e, FROCE_CQC_EQN) != cq->eqn || TGETQ(e, FROCE_CQC_VA) != 0)
			FAIL("CQ %u: CQC differs from the bookkeeping", n);
		if (t_ld64(M.mr + (size_t)cq->ring_mr * FROCE_MR_CTX_SIZE + 8 * FROCE_MR_CTX_LENGTH_QW) !=
		    (uint64_t)FROCE_CQE_SIZE << cq->log_size)
			FAIL("CQ %u: ring MR length is not the ring's", n);
		if (cq->eqn >= fw.num_eqs || !(fw.eq[cq->eqn].flags & FW_F_USED))
			FAIL("CQ %u reports to EQ %u, which does not exist", n, cq->eqn);
		eq_refs[cq->eqn]++;
	}
	/* QPs */
	for (uint32_t q = 0; q < fw.num_qps; q++) {
		const uint8_t *img = fw.qpc[q], *e = M.qpc + (size_t)q * FROCE_QPC_SIZE;

		if (memcmp(img, e, FROCE_QPC_SIZE))
			FAIL("QP %u: the firmware's QPC copy differs from the hardware's", q);
		if (!(fw.qp_flags[q] & FW_F_USED)) {
			if (!zero(e, FROCE_QPC_SIZE))
				FAIL("free QP %u: QPC not zero", q);
			continue;
		}
		const uint32_t pdn = TGET(e, FROCE_QPC_PDN), uar = TGET(e, FROCE_QPC_UAR);
		const uint32_t scqn = TGET(e, FROCE_QPC_SCQN), rcqn = TGET(e, FROCE_QPC_RCQN);
		const uint32_t key = TGET(e, FROCE_QPC_RING_KEY), ring = key >> FROCE_KEY_TAG_W;
		const uint32_t type = TGET(e, FROCE_QPC_TYPE);

		if (q == 0 || (q == FROCE_QPN_GSI) != (type == FROCE_QP_TYPE_GSI))
			FAIL("QP %u has type %u", q, type);
		if (TGET(e, FROCE_QPC_STATE) > FROCE_QP_STATE_ERR)
			FAIL("QP %u in state %u", q, TGET(e, FROCE_QPC_STATE));
		if (pdn == FW_PDN_RINGS || pdn >= fw.num_pds || !(fw.pd[pdn].flags & FW_F_USED) || fw.pd[pdn].uar != uar)
			FAIL("QP %u: PD %u missing or of another context", q, pdn);
		if (scqn >= fw.num_cqs || rcqn >= fw.num_cqs || !(fw.cq[scqn].flags & FW_F_USED) ||
		    !(fw.cq[rcqn].flags & FW_F_USED) || fw.cq[scqn].uar != uar || fw.cq[rcqn].uar != uar)
			FAIL("QP %u: CQs %u/%u missing or of another context", q, scqn, rcqn);
		if ((fw.qp_flags[q] & FW_F_PRIV) && uar != 0)
			FAIL("QP %u is privileged on UAR %u", q, uar);
		if (ring >= fw.num_mrs || !(fw.mr[ring].flags & FW_F_RING) || fw.mr[ring].pd != pdn ||
		    (key & 0xFF) != fw.mr[ring].tag)
			FAIL("QP %u: ring key %#x names no ring MR of its PD", q, key);
		pd_refs[pdn]++;
		cq_refs[scqn]++;
		cq_refs[rcqn]++;
	}
	/* ring MRs each belong to exactly one CQ or QP */
	for (uint32_t i = 1; i < fw.num_mrs; i++) {
		unsigned owners = 0;

		if (!(fw.mr[i].flags & FW_F_RING))
			continue;
		for (uint32_t n = 0; n < fw.num_cqs; n++)
			owners += (fw.cq[n].flags & FW_F_USED) && fw.cq[n].ring_mr == i;
		for (uint32_t q = 0; q < fw.num_qps; q++)
			owners += (fw.qp_flags[q] & FW_F_USED) &&
				  TGET(fw.qpc[q], FROCE_QPC_RING_KEY) >> FROCE_KEY_TAG_W == i;
		if (owners != 1)
			FAIL("ring MR %u has %u owners", i, owners);
	}
	for (uint32_t p = 0; p < fw.num_pds; p++) {
		if (p == FW_PDN_RINGS) {
			if (fw.pd[p].flags != FW_F_USED || fw.pd[p].refs)
				FAIL("PD %u (the rings') is not reserved", p);
			continue;
		}
		if (fw.pd[p].refs != pd_refs[p])
			FAIL("PD %u: refs %u, but %u MRs and QPs use it", p, fw.pd[p].refs, pd_refs[p]);
		if (!(fw.pd[p].flags & FW_F_USED) && (fw.pd[p].refs || fw.pd[p].uar))
			FAIL("free PD %u keeps state", p);
	}
	for (uint32_t n = 0; n < fw.num_cqs; n++)
		if (fw.cq[n].refs != cq_refs[n])
			FAIL("CQ %u: refs %u, but %u QP references", n, fw.cq[n].refs, cq_refs[n]);
	for (uint32_t n = 0; n < fw.num_eqs; n++) {
		const uint8_t *e = M.eqc + (size_t)n * FROCE_EQC_SIZE;

		if (fw.eq[n].refs != eq_refs[n])
			FAIL("EQ %u: refs %u, but %u CQs use it", n, fw.eq[n].refs, eq_refs[n]);
		if (n == 0) {
			if (!(fw.eq[0].flags & FW_F_USED))
				FAIL("EQ 0 not marked present");
			continue;
		}
		if (!(fw.eq[n].flags & FW_F_USED)) {
			if (!zero(e, FROCE_EQC_SIZE))
				FAIL("free EQ %u: EQC not zero", n);
		} else if (TGET(e, FROCE_EQC_VALID) != 1 || TGET(e, FROCE_EQC_LOG_SIZE) != fw.eq[n].log_size ||
			   TGET(e, FROCE_EQC_VECTOR) != fw.eq[n].vector) {
			FAIL("EQ %u: EQC differs from the bookkeeping", n);
		}
	}
	for (uint32_t g = 0; g < fw.num_gids; g++)
		if (memcmp(fw.gid[g], M.gid + (size_t)g * FROCE_GID_CTX_SIZE, FROCE_GID_CTX_SIZE))
			FAIL("GID %u: the firmware's copy differs from the hardware's", g);
out:
	free(pd_refs);
	free(cq_refs);
	free(eq_refs);
	free(mtt_owner);
	return err;
#undef FAIL
}

struct snapshot {
	struct fw_state fw;
	uint8_t *arena;
	uint8_t *qpc, *cqc, *eqc, *gid, *mr, *mtt;
	uint64_t ctl_writes;
	uint64_t port_sets;
	unsigned n_eqes;
};

static uint8_t *dup(const void *p, size_t n)
{
	uint8_t *d = malloc(n ? n : 1);

	memcpy(d, p, n);
	return d;
}

#define TABLES(X) \
	X(qpc, (size_t)M.cfg.num_qps * FROCE_QPC_SIZE) \
	X(cqc, (size_t)M.cfg.num_cqs * FROCE_CQC_SIZE) \
	X(eqc, (size_t)M.cfg.num_eqs * FROCE_EQC_SIZE) \
	X(gid, (size_t)M.cfg.num_gids * FROCE_GID_CTX_SIZE) \
	X(mr, (size_t)M.cfg.num_mrs * FROCE_MR_CTX_SIZE) \
	X(mtt, (size_t)M.cfg.num_mtt * FROCE_MTT_ENTRY_SIZE)

struct snapshot *snapshot_take(void)
{
	struct snapshot *s = calloc(1, sizeof *s);

	s->fw = fw;
	s->arena = dup(M.arena, M.cfg.arena_bytes);
#define TAKE(name, size) s->name = dup(M.name, size);
	TABLES(TAKE)
#undef TAKE
	s->ctl_writes = M.ctl_writes;
	s->port_sets = M.port_sets;
	s->n_eqes = M.n_eqes;
	return s;
}

const char *snapshot_diff(const struct snapshot *s)
{
	if (M.ctl_writes != s->ctl_writes)
		BAD("%llu control-bus writes", (unsigned long long)(M.ctl_writes - s->ctl_writes));
	if (memcmp(&s->fw, &fw, sizeof fw))
		BAD("struct fw_state changed");
	if (memcmp(s->arena, M.arena, M.cfg.arena_bytes))
		for (uint32_t i = 0; i < M.cfg.arena_bytes; i++)
			if (s->arena[i] != M.arena[i])
				BAD("firmware arena byte %u changed (%#x -> %#x)", i, s->arena[i], M.arena[i]);
#define CMP(name, size) \
	if (memcmp(s->name, M.name, size)) \
		BAD("model table " #name " changed");
	TABLES(CMP)
#undef CMP
	if (M.port_sets != s->port_sets)
		BAD("port reprogrammed");
	return NULL;
}

void snapshot_free(struct snapshot *s)
{
	if (!s)
		return;
	free(s->arena);
#define FREE(name, size) free(s->name);
	TABLES(FREE)
#undef FREE
	free(s);
}
