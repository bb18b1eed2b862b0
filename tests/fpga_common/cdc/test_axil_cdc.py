# SPDX-License-Identifier: MIT
"""froce_axil_cdc: AxiLiteMaster (s_clk) -> DUT -> AxiLiteRam (m_clk), random
pauses on every channel. Four workers in disjoint regions at once: writes of
random length at unaligned addresses (the master splits them into words with
partial strobes), random prot, reads of random spans, some issued back to
back without waiting. Reads equal a Python model, every response is OKAY,
the RAM equals the model at the end, and every channel delivered exactly the
beats it took, in order, with several requests outstanding."""
import cocotb
from cocotb.triggers import Combine, Timer
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiLiteRam, AxiResp

from axi_tb import AXIL_CHANNELS, Crossing, Outstanding, random_pauses
from cdc_tb import NEGATIVE, TIMEOUT_US, reset_both, rng, start_clock

RAM = 1 << 12
WORKERS = 4
REGION = RAM // WORKERS


async def run(dut, s_ns, m_ns, name, ops):
    r = rng(name)
    start_clock(dut.s_clk, s_ns)
    start_clock(dut.m_clk, m_ns, phase_ns=r.uniform(0, m_ns))
    master = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.s_clk, dut.s_rst)
    ram = AxiLiteRam(AxiLiteBus.from_prefix(dut, "m_axil"), dut.m_clk, dut.m_rst, size=RAM)
    for m in (master, ram):
        m.write_if.log.setLevel("WARNING")
        m.read_if.log.setLevel("WARNING")
    random_pauses(r, [master.write_if.aw_channel, master.write_if.w_channel, master.write_if.b_channel,
                      master.read_if.ar_channel, master.read_if.r_channel,
                      ram.write_if.aw_channel, ram.write_if.w_channel, ram.write_if.b_channel,
                      ram.read_if.ar_channel, ram.read_if.r_channel])
    cross = Crossing(dut, "s_axil", "m_axil", AXIL_CHANNELS)
    outst = Outstanding(dut, "s_axil", dut.s_clk, ids=False)
    await reset_both(dut.s_clk, dut.s_rst, dut.m_clk, dut.m_rst)

    model = bytearray(r.getrandbits(8) for _ in range(RAM))
    ram.write(0, bytes(model))
    stats = {"writes": 0, "reads": 0}

    async def worker(k):
        base = k * REGION
        mine = 0                    # this worker's single writes
        for op in range(ops):
            n = r.randint(1, 40)
            a = base + r.randint(0, REGION - n)
            if r.random() < 0.2:
                # a write and a read of two disjoint spans, issued together
                b = base if a - base >= 64 else base + REGION - 64
                data = bytes(r.getrandbits(8) for _ in range(n))
                ev_w = master.init_write(a, data)
                ev_r = master.init_read(b, 64) if not (b < a + n and a < b + 64) else None
                model_b = bytes(model[b:b + 64])
                model[a:a + n] = data
                await ev_w.wait()
                assert ev_w.data.resp == AxiResp.OKAY
                if ev_r is not None:
                    await ev_r.wait()
                    assert ev_r.data.resp == AxiResp.OKAY
                    assert bytes(ev_r.data.data) == model_b, f"read {b:#x}+64 differs from the model"
                    stats["reads"] += 1
                stats["writes"] += 1
            elif r.random() < 0.55:
                data = bytes(r.getrandbits(8) for _ in range(n))
                resp = await master.write(a, data, prot=r.randint(0, 7))
                assert resp.resp == AxiResp.OKAY, f"write {a:#x}: {resp.resp}"
                model[a:a + n] = data
                mine += 1
                if NEGATIVE and k == 0 and mine == 2:
                    # the negative control: one byte in the RAM changed behind the bench
                    ram.write(a, bytes([model[a] ^ 0x40]))
                stats["writes"] += 1
            else:
                resp = await master.read(a, n, prot=r.randint(0, 7))
                assert resp.resp == AxiResp.OKAY, f"read {a:#x}: {resp.resp}"
                assert bytes(resp.data) == bytes(model[a:a + n]), f"read {a:#x}+{n} differs from the model"
                stats["reads"] += 1

    await Combine(*[cocotb.start_soon(worker(k)) for k in range(WORKERS)])
    await Timer(int(50 * max(s_ns, m_ns) * 1000), "ps")
    got = ram.read(0, RAM)
    bad = [i for i in range(RAM) if got[i] != model[i]]
    assert not bad, f"{len(bad)} RAM bytes differ from the model, first at {bad[0]:#x}"
    counts = cross.check()
    dut._log.info("%s: %s, beats %s, outstanding: %d writes, %d reads",
                  name, stats, counts, outst.max_writes, outst.max_reads)
    assert outst.max_writes >= 3 and outst.max_reads >= 3, "too few requests in flight at once"


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_axil_s_fast(dut):
    """master clock 4.0 ns, RAM clock 6.4 ns"""
    await run(dut, 4.0, 6.4, "axil_s_fast", 25)


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_axil_m_fast(dut):
    """master clock 6.4 ns, RAM clock 4.0 ns"""
    await run(dut, 6.4, 4.0, "axil_m_fast", 25)
