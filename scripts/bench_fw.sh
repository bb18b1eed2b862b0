#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Firmware figures (not a test): cycles, instructions and CPI of the driver's
# commands on froce_core's soft core (froce-fw-bench: one simulated NIC with
# the firmware image, host memory at 20 and at 100 cycles of latency), and
# the image size. Results go into docs/performance.md by hand.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "== firmware image"
make -s -C firmware image | grep '^firmware image'
echo "== building froce-fw-bench (sim/core)"
make -s -C sim/core fw-bench >/dev/null
for lat in 20 100; do
	echo
	build/bin/froce-fw-bench --reps 4 --mem-latency "$lat"
done
