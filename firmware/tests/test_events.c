/* SPDX-License-Identifier: MIT */
/* Asynchronous events: engine events to EQ 0, link changes, EQ refusals. */
#include "tutil.h"

#define A(x) FROCE_QP_ATTR_##x

void test_events(void)
{
	t_boot(&t_cfg);
	const uint32_t pdn = t_alloc_pd(1), cqn = t_create_cq(4, 0, 1);
	struct t_qp_args a = { FROCE_QP_TYPE_UD, 0, 0, pdn, cqn, cqn, 1, 2, 6, 2, 6, FROCE_BUF_LEVEL_CONTIG };
	const uint32_t qpn = t_create_qp(&a);

	CHECK_EQ(t_modify(qpn, A(STATE) | A(PKEY_INDEX) | A(PORT) | A(QKEY), FROCE_QP_STATE_INIT), OK);
	unsigned n = M.n_eqes;

	/* QP fatal: EQE on EQ 0, the QP is in ERR in the engine and for QUERY_QP */
	model_async_push(FROCE_EQE_TYPE_QP_EVENT, FROCE_QP_EV_FATAL, qpn);
	fw_poll_events();
	CHECK_EQ(M.n_eqes, n + 1);
	CHECK_EQ(M.eqes[n].eqn, 0);
	CHECK_EQ(M.eqes[n].dw[0], FROCE_EQE_TYPE_QP_EVENT | FROCE_QP_EV_FATAL << FROCE_EQE_SUBTYPE_SHIFT);
	CHECK_EQ(M.eqes[n].dw[1], qpn);
	CHECK_EQ(TGET(M.qpc + (size_t)qpn * FROCE_QPC_SIZE, FROCE_QPC_STATE), FROCE_QP_STATE_ERR);
	t_consistent(__LINE__);
	struct res r = RUN_OK(QUERY_QP, (IN8((uint8_t)qpn)));

	CHECK_EQ(TGET(r.out, FROCE_CMD_QUERY_QP_OUT_STATE), FROCE_QP_STATE_ERR);
	/* COMM_EST is passed on and changes nothing */
	model_async_push(FROCE_EQE_TYPE_QP_EVENT, FROCE_QP_EV_COMM_EST, qpn);
	/* events naming nothing, or of unknown kinds, are dropped and counted */
	model_async_push(FROCE_EQE_TYPE_QP_EVENT, FROCE_QP_EV_FATAL, 9);
	model_async_push(FROCE_EQE_TYPE_QP_EVENT, 99, qpn);
	model_async_push(FROCE_EQE_TYPE_CQ_ERROR, FROCE_CQ_EV_OVERRUN, 7);
	model_async_push(FROCE_EQE_TYPE_CMD_DONE, 0, 0);
	model_async_push(FROCE_EQE_TYPE_CQ_ERROR, FROCE_CQ_EV_ACCESS_ERR, cqn);
	n = M.n_eqes;
	const uint32_t dropped = fw.async_dropped;

	fw_poll_events();
	CHECK_EQ(M.n_eqes, n + 2);
	CHECK_EQ(M.eqes[n].dw[0], FROCE_EQE_TYPE_QP_EVENT | FROCE_QP_EV_COMM_EST << FROCE_EQE_SUBTYPE_SHIFT);
	CHECK_EQ(M.eqes[n + 1].dw[0], FROCE_EQE_TYPE_CQ_ERROR | FROCE_CQ_EV_ACCESS_ERR << FROCE_EQE_SUBTYPE_SHIFT);
	CHECK_EQ(M.eqes[n + 1].dw[1], cqn);
	CHECK_EQ(fw.async_dropped, dropped + 4);
	/* a fatal event of a QP in RESET is stale */
	CHECK_EQ(t_modify(qpn, A(STATE), FROCE_QP_STATE_RESET), OK);
	model_async_push(FROCE_EQE_TYPE_QP_EVENT, FROCE_QP_EV_ACCESS_ERR, qpn);
	n = M.n_eqes;
	fw_poll_events();
	CHECK_EQ(M.n_eqes, n);
	CHECK_EQ(TGET(M.qpc + (size_t)qpn * FROCE_QPC_SIZE, FROCE_QPC_STATE), FROCE_QP_STATE_RESET);
	/* no more than 16 events per poll: the mailbox is not starved */
	for (unsigned i = 0; i < 20; i++)
		model_async_push(FROCE_EQE_TYPE_CQ_ERROR, FROCE_CQ_EV_OVERRUN, cqn);
	n = M.n_eqes;
	fw_poll_events();
	CHECK_EQ(M.n_eqes, n + 16);
	fw_poll_events();
	CHECK_EQ(M.n_eqes, n + 20);

	/* link down, up: one PORT_CHANGE each, nothing while unchanged */
	n = M.n_eqes;
	M.link_status = 0;
	fw_poll_events();
	fw_poll_events();
	M.link_status = FROCE_REG_LINK_STATUS_UP_MASK;
	fw_poll_events();
	CHECK_EQ(M.n_eqes, n + 2);
	CHECK_EQ(M.eqes[n].dw[0], FROCE_EQE_TYPE_PORT_CHANGE | FROCE_PORT_EV_DOWN << FROCE_EQE_SUBTYPE_SHIFT);
	CHECK_EQ(M.eqes[n + 1].dw[0], FROCE_EQE_TYPE_PORT_CHANGE | FROCE_PORT_EV_ACTIVE << FROCE_EQE_SUBTYPE_SHIFT);

	/* an EQ that refuses the EQE: counted, the command still completes */
	M.eq_refuse = true;
	const uint32_t lost = fw.eq_dropped;

	r = t_run_full(FROCE_CMD_NOP, NULL, 0, 0, false, 0);
	CHECK_EQ(r.status, OK);
	fw_mbox_service(0x999 | FROCE_REG_CMD_DOORBELL_EVENT_MASK, BLOCK);
	CHECK_EQ(fw.eq_dropped, lost + 1);
	M.eq_refuse = false;
	t_consistent(__LINE__);
}
