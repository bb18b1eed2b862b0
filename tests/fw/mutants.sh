#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Mutation check of the firmware-subsystem tests: each deliberate bug below, in
# a copy of rtl/fw, must make froce-fw-dma-test, froce-fw-test or the bus test
# fail (or hang: a timeout counts as caught). Run by tests/fw/run.sh --mutants
# after its normal steps (it needs build/firmware/froce-fw.hex and
# build/tests/fw/bus_test.hex). About 20 s per mutant on 2 cores.
#
#   tests/fw/mutants.sh          every mutant
#   tests/fw/mutants.sh 3 7      only mutants 3 and 7
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
WORK=build/tests/fw/mutants
HEX="$ROOT/build/firmware/froce-fw.hex"
BUS="$ROOT/build/tests/fw/bus_test.hex"
[[ -f $HEX && -f $BUS ]] || { echo "mutants.sh: run tests/fw/run.sh first"; exit 2; }

# file ~ sed expression ~ what the bug is
MUTANTS=(
    "froce_fw_dma.v~s/? NW_C : rd_wl_after\[CW-1:0\]/? NW_C : NW_C/~host->RAM: the last beat writes a whole beat of words"
    "froce_fw_dma.v~s/busy_reg \&\& st_got_reg \&\& (dir_reg ||/busy_reg \&\& (dir_reg ? wl_reg == 11'd0 : st_got_reg) \&\& (dir_reg ||/~RAM->host: done when the RAM is read, before the B responses"
    "froce_fw_dma.v~s/ || local_end > RAM_BYTES;/;/~no check of the RAM range"
    "froce_fw_dma.v~s/asm_have == asm_n_reg \&\& out_free;/asm_have == asm_n_reg;/~RAM->host: a beat overwrites one the writer has not taken"
    "froce_fw_dma.v~s/addr_reg <= addr_reg + 1'b1;/addr_reg <= addr_reg + 1'b1 + dir_reg;/~RAM->host: RAM address steps by two"
    "froce_fw.v~s/if (io_rd \&\& io_off == IO_CMD_DB)/if (io_rd \&\& io_off == IO_CMD_STATUS)/~reading CMD_DB does not clear PENDING"
    "froce_fw.v~s/if (io_rd \&\& io_off == IO_MS_TICK)/if (io_rd \&\& io_off == IO_CMD_STATUS)/~MS_TICK is not read-to-clear"
    "froce_fw.v~s/eq_wait_reg <= 1'b1;/eq_wait_reg <= 1'b0;/~EQ_STATUS.BUSY drops at the handshake, not at s_eqe_done"
    "froce_fw.v~s/wire as_pop = io_rd \&\& io_off == IO_ASYNC_ID/wire as_pop = io_rd \&\& io_off == IO_ASYNC_EV/~ASYNC_EV pops instead of ASYNC_ID"
    "froce_fw.v~s/(NUM_VECTORS % 256) << /(NUM_EQS % 256) << /~IRQ_INFO.NUM_VECTORS carries NUM_EQS"
    "froce_fw.v~s/ \&\& dbus_req_addr\[27:0\] < CTL_SPAN_C;/;/~control-bus window without the CTL_SPAN check"
    "froce_fw.v~s/ctl_addr_reg <= dbus_req_addr\[24:2\];/ctl_addr_reg <= {dbus_req_addr[23:2], 1'b0};/~m_ctl_addr loses bit 0"
    "froce_fw.v~s/assign port_mac = port_mac_reg;/assign port_mac = st_mac_reg;/~port_mac shows the staged MAC"
    "froce_fw.v~s/wire d_hit_io = dbus_req_addr\[31:12\] == 20'h20000 \&\& d_word;/wire d_hit_io = dbus_req_addr[31:12] == 20'h20000;/~sub-word peripheral accesses accepted"
    "froce_fw.v~s/assign dbus_req_ready = d_hit_ram ? !dma_busy :/assign dbus_req_ready = d_hit_ram ? 1'b1 :/~RAM data accesses do not wait for a DMA transfer"
    "froce_fw.v~s/i_err_reg <= ibus_req_valid \&\& !i_hit_ram;/i_err_reg <= 1'b0;/~fetches outside the RAM do not fault"
    "froce_fw.v~s/wire dma_start = io_wr \&\& io_off == IO_DMA_CTRL \&\& wd\[0\];/wire dma_start = io_wr \&\& io_off == IO_DMA_CTRL;/~DMA_CTRL starts without its start bit"
    "froce_fw.v~s/if (s_eqe_done \&\& (eq_wait_reg || eq_fire)) begin/if (s_eqe_done \&\& eq_fire) begin/~s_eqe_done after the handshake ignored"
)

caught=0
missed=0
n=0
for m in "${MUTANTS[@]}"; do
    n=$((n + 1))
    if [[ $# -gt 0 && " $* " != *" $n "* ]]; then continue; fi
    IFS='~' read -r file expr what <<<"$m"
    dir="$WORK/m$n"
    rm -rf "$dir"
    mkdir -p "$dir/sim"
    cp -r rtl include "$dir/"
    cp -r sim/models sim/fw "$dir/sim/"
    sed -i "$expr" "$dir/rtl/fw/$file"
    if cmp -s "rtl/fw/$file" "$dir/rtl/fw/$file"; then
        echo "mutant $n: the sed did not apply ($what)"
        missed=$((missed + 1))
        continue
    fi
    if ! make -s -C "$dir/sim/fw" BUILD="$ROOT/$dir/build" FW_HEX="$HEX" VWARN=-Wno-fatal >"$dir/make.log" 2>&1; then
        echo "mutant $n: does not build ($what)"; tail -5 "$dir/make.log"
        missed=$((missed + 1))
        continue
    fi
    why=""
    timeout 120 "$dir/build/bin/froce-fw-dma-test" >"$dir/dma.log" 2>&1 || why+=" dma-test"
    timeout 120 "$dir/build/bin/froce-fw-test" >"$dir/fw.log" 2>&1 || why+=" fw-test"
    timeout 120 "$dir/build/bin/froce-fw-test" --slow --seed 2 >"$dir/fw-slow.log" 2>&1 || why+=" fw-test--slow"
    timeout 120 "$dir/build/bin/froce-fw-test" --bus-test "$BUS" >"$dir/bus.log" 2>&1 || why+=" bus-test"
    if [[ -n $why ]]; then
        echo "mutant $n caught by$why: $what"
        caught=$((caught + 1))
        rm -rf "$dir"
    else
        echo "mutant $n NOT CAUGHT: $what"
        missed=$((missed + 1))
    fi
done
echo "mutants: $caught caught, $missed not caught"
[[ $missed -eq 0 ]]
