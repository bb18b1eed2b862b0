#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The provider exports no symbols and binds the private ABI it was written
# for: verbs_register_driver_34 and the ibv_cmd_* helpers at IBVERBS_PRIVATE_34.
set -eu
lib=$1
syms=$(objdump -T "$lib")
if echo "$syms" | awk '$2 == "g" && $4 != "*UND*"' | grep -q .; then
	echo "FAIL: $lib exports symbols:" >&2
	echo "$syms" | awk '$2 == "g" && $4 != "*UND*"' >&2
	exit 1
fi
for s in verbs_register_driver_34 _verbs_init_and_alloc_context \
	ibv_cmd_get_context ibv_cmd_create_qp ibv_cmd_modify_qp; do
	echo "$syms" | grep -E "\\(IBVERBS_PRIVATE_34\\) +$s\$" >/dev/null || {
		echo "FAIL: $s not bound at IBVERBS_PRIVATE_34" >&2
		exit 1
	}
done
echo "provider symbols: ok"
