# SPDX-License-Identifier: MIT
"""froce_eth_mac_10g with its TX FIFO (TX_FIFO_BYTES = 16384): a source that
pauses anywhere inside frames, AxiStreamSource -> DUT -> XgmiiSink."""
import itertools

import cocotb
from cocotb.triggers import ClockCycles

from mac10g_tb import MAX_FRAME, TB, AxiStreamFrame, TxLaneMonitor, check_tx_frame, padded, random_payload, rng


@cocotb.test()
async def test_txfifo_gaps(dut):
    """Random frames 14..9600 bytes with tvalid dropping at random inside
    them: all go out intact, no underrun; a frame with tuser on a middle
    beat never reaches the wire (tx_fifo_dropped); gaps stay >= 9."""
    r = rng("test_txfifo_gaps")
    tb = TB(dut)
    mon = TxLaneMonitor(dut)
    await tb.reset()
    tb.source.set_pause_generator(itertools.cycle([r.random() < 0.3 for _ in range(101)]))

    sizes = [14, 60, 64, 65] + [r.randint(14, 1518) for _ in range(24)] + [MAX_FRAME, r.randint(2000, MAX_FRAME)]
    r.shuffle(sizes)
    payloads = [random_payload(r, n) for n in sizes]
    aborted = random_payload(r, 300)
    for i, p in enumerate(payloads):
        await tb.source.send(AxiStreamFrame(p))
        if i == len(payloads) // 2:
            await tb.source.send(AxiStreamFrame(aborted, tuser=[0] * 100 + [1] * 8 + [0] * 192))

    for i, p in enumerate(payloads):
        check_tx_frame(await tb.tx_recv(), p, f"frame {i} ({len(p)} bytes)")
    await ClockCycles(dut.clk, 50)
    assert tb.xsink.empty(), "the aborted frame reached the wire"
    c = tb.counters("tx_frames", "tx_bytes", "tx_aborted", "tx_oversize", "tx_underrun", "tx_fifo_dropped")
    assert c == {"tx_frames": len(payloads), "tx_bytes": sum(len(padded(p)) + 4 for p in payloads),
                 "tx_aborted": 0, "tx_oversize": 0, "tx_underrun": 0, "tx_fifo_dropped": 1}, c
    gaps, _ = mon.gaps()
    assert min(gaps) >= 9, f"a gap of {min(gaps)} bytes"
