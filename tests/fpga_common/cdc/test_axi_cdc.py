# SPDX-License-Identifier: MIT
"""froce_axi_cdc: AxiMaster (s_clk) -> DUT -> AxiRam (m_clk), random pauses
on every channel of both models. Four workers in disjoint regions of the RAM
run at once: random INCR bursts of random length, size (narrow transfers
with their strobes on a 64-bit bus), unaligned start, random cache/prot/qos;
sometimes several writes then several reads issued back to back without
waiting. Every read must equal a Python model of the memory, every response
be OKAY, and at the end the RAM equals the model byte for byte. Monitors on
both sides check that every channel delivered exactly the beats it took, in
order (bursts, IDs, strobes and sidebands unchanged), and that several
transactions with distinct IDs were outstanding at once."""
import cocotb
from cocotb.triggers import Combine, Timer
from cocotbext.axi import AxiBus, AxiMaster, AxiRam, AxiResp

from axi_tb import AXI_CHANNELS, Crossing, Outstanding, random_pauses
from cdc_tb import NEGATIVE, TIMEOUT_US, params, reset_both, rng, start_clock

P = params()
DATA_WIDTH = P.get("DATA_WIDTH", 64)
BYTES = DATA_WIDTH // 8
MAX_SIZE = BYTES.bit_length() - 1
RAM = 1 << 16
WORKERS = 4
REGION = RAM // WORKERS


async def run(dut, s_ns, m_ns, name, ops):
    r = rng(name)
    start_clock(dut.s_clk, s_ns)
    start_clock(dut.m_clk, m_ns, phase_ns=r.uniform(0, m_ns))
    master = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.s_clk, dut.s_rst)
    ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.m_clk, dut.m_rst, size=RAM)
    for m in (master, ram):
        m.write_if.log.setLevel("WARNING")
        m.read_if.log.setLevel("WARNING")
    random_pauses(r, [master.write_if.aw_channel, master.write_if.w_channel, master.write_if.b_channel,
                      master.read_if.ar_channel, master.read_if.r_channel,
                      ram.write_if.aw_channel, ram.write_if.w_channel, ram.write_if.b_channel,
                      ram.read_if.ar_channel, ram.read_if.r_channel])
    cross = Crossing(dut, "s_axi", "m_axi", AXI_CHANNELS)
    outst = Outstanding(dut, "s_axi", dut.s_clk)
    await reset_both(dut.s_clk, dut.s_rst, dut.m_clk, dut.m_rst)

    model = bytearray(RAM)
    init = bytes(r.getrandbits(8) for _ in range(RAM))
    ram.write(0, init)
    model[:] = init
    stats = {"writes": 0, "reads": 0, "bytes": 0}

    def pick(base, wr):
        size = r.choice([MAX_SIZE, MAX_SIZE, r.randint(0, MAX_SIZE)])
        length = r.randint(1, min(24 << size, 520))
        if size == MAX_SIZE and r.random() < 0.05:
            length = r.randint(1000, 256 * BYTES)       # up to 256-beat bursts
        addr = base + r.randint(0, REGION - length)
        kw = {"size": size}
        if wr:
            kw.update(cache=r.randint(0, 15), prot=r.randint(0, 7), qos=r.randint(0, 15))
        return addr, length, kw

    async def worker(k):
        base = k * REGION
        mine = 0                    # this worker's single writes
        # first, one long transfer each way that crosses a 4 KiB boundary:
        # the master splits it into a short burst and one of about 240 beats
        a, n = base + 0x1000 - 100 + k, 2048 - 3 * k
        data = bytes(r.getrandbits(8) for _ in range(n))
        resp = await master.write(a, data)
        assert resp.resp == AxiResp.OKAY
        model[a:a + n] = data
        resp = await master.read(a - 5, n + 9)
        assert bytes(resp.data) == bytes(model[a - 5:a + n + 4]), f"long read {a - 5:#x} differs from the model"
        # and one narrow, unaligned transfer each way (sizes 0..2 over the workers)
        a, n = base + 0x2000 + 3 + k, 37
        data = bytes(r.getrandbits(8) for _ in range(n))
        resp = await master.write(a, data, size=k % MAX_SIZE)
        assert resp.resp == AxiResp.OKAY
        model[a:a + n] = data
        resp = await master.read(a - 2, n + 4, size=(k + 1) % MAX_SIZE)
        assert bytes(resp.data) == bytes(model[a - 2:a + n + 2]), f"narrow read {a - 2:#x} differs from the model"
        for op in range(ops):
            if r.random() < 0.25:
                # three writes to disjoint spans, then their three reads, each
                # issued without waiting for the previous one
                cuts = sorted(r.sample(range(base, base + REGION), 3)) + [base + REGION]
                jobs = []
                for a, nxt in zip(cuts, cuts[1:]):
                    size = r.randint(0, MAX_SIZE)
                    n = r.randint(1, min(nxt - a, 24 << size, 300))
                    data = bytes(r.getrandbits(8) for _ in range(n))
                    jobs.append((a, data, master.init_write(a, data, size=size)))
                    model[a:a + n] = data
                for a, d, ev in jobs:
                    await ev.wait()
                    assert ev.data.resp == AxiResp.OKAY, f"write {a:#x}: {ev.data.resp}"
                reads = [(a, len(d), master.init_read(a, len(d))) for a, d, _ in jobs]
                for a, n, ev in reads:
                    await ev.wait()
                    assert ev.data.resp == AxiResp.OKAY, f"read {a:#x}: {ev.data.resp}"
                    assert bytes(ev.data.data) == bytes(model[a:a + n]), f"read {a:#x}+{n} differs from the model"
                stats["writes"] += len(jobs)
                stats["reads"] += len(jobs)
                continue
            addr, length, kw = pick(base, r.random() < 0.6)
            if "qos" in kw:
                data = bytes(r.getrandbits(8) for _ in range(length))
                resp = await master.write(addr, data, **kw)
                assert resp.resp == AxiResp.OKAY, f"write {addr:#x}: {resp.resp}"
                model[addr:addr + length] = data
                mine += 1
                if NEGATIVE and k == 0 and mine == 2:
                    # the negative control: one byte in the RAM changed behind the bench
                    ram.write(addr, bytes([model[addr] ^ 0x40]))
                stats["writes"] += 1
                stats["bytes"] += length
            else:
                resp = await master.read(addr, length, **kw)
                assert resp.resp == AxiResp.OKAY, f"read {addr:#x}: {resp.resp}"
                assert bytes(resp.data) == bytes(model[addr:addr + length]), \
                    f"read {addr:#x}+{length} size {kw['size']} differs from the model"
                stats["reads"] += 1
                stats["bytes"] += length

    await Combine(*[cocotb.start_soon(worker(k)) for k in range(WORKERS)])
    await Timer(int(50 * max(s_ns, m_ns) * 1000), "ps")
    got = ram.read(0, RAM)
    bad = [i for i in range(RAM) if got[i] != model[i]]
    assert not bad, f"{len(bad)} RAM bytes differ from the model, first at {bad[0]:#x}"
    counts = cross.check()
    # what the bursts covered (fields of the AW/AR beats the monitors saw)
    for ch in ("aw", "ar"):
        beats = cross.mon[ch][0].beats      # (id, addr, len, size, burst, ...)
        assert max(b[2] for b in beats) >= 200, f"no {ch} burst of 200+ beats"
        assert any(b[3] < MAX_SIZE for b in beats), f"no narrow {ch} burst"
        assert any(b[1] % BYTES for b in beats), f"no unaligned {ch} address"
        assert len({b[0] for b in beats}) >= 4, f"fewer than 4 {ch} IDs used"
    assert any(0 < b[1] < (1 << BYTES) - 1 for b in cross.mon["w"][0].beats), "no partial strobe"
    dut._log.info("%s: %s, beats %s, outstanding: %d writes (%d IDs), %d reads (%d IDs)",
                  name, stats, counts, outst.max_writes, outst.max_write_ids,
                  outst.max_reads, outst.max_read_ids)
    assert outst.max_writes >= 3 and outst.max_write_ids >= 2, "too few writes in flight at once"
    assert outst.max_reads >= 3 and outst.max_read_ids >= 2, "too few reads in flight at once"


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_axi_s_fast(dut):
    """master clock 4.0 ns, RAM clock 6.4 ns"""
    await run(dut, 4.0, 6.4, "axi_s_fast", 12)


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_axi_m_fast(dut):
    """master clock 6.4 ns, RAM clock 4.0 ns"""
    await run(dut, 6.4, 4.0, "axi_m_fast", 12)
