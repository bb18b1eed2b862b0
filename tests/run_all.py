#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs every froce check in order and ends with 'N passed, N failed'.

Each check is a command; its output goes to build/test-logs/<name>.log and,
when it fails, the tail of that log is printed. Consecutive froce-perf runs
(they build nothing and share nothing) run two at a time, the machine having
two cores; their results are printed in order. Options:
  --list           print the check names and exit
  --only NAME...   run only these checks (prefix match)
  --keep-going     do not stop at the first failure (default: run all)
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = "/usr/bin/python3"
PCAP = os.path.join("build", "bin", "froce-pcap")


def roundtrip(width, count, stall, seed):
    return [PCAP, "roundtrip", "--width", str(width), "--count", str(count),
            "--stall", str(stall), "--seed", str(seed)]


# (name, command); in the order CI wants them: static checks, unit tests,
# integration, synthesis
PERF = os.path.join("build", "bin", "froce-perf")


def perf(*args):
    return [PERF, *args]


CHECKS = [
    ("generated-files-current", [PY, "scripts/gen_hw.py", "--check"]),
    ("crc-matrices-current", [PY, "scripts/gen_crc.py", "--check"]),
    ("hw-interface-header", ["bash", "tests/gen/run.sh"]),
    ("lint", ["bash", "scripts/lint.sh"]),
    ("crc-and-checksum-units", ["bash", "tests/rtl/crc/run.sh"]),
    ("parser-icarus", ["bash", "tests/rtl/parser/run.sh"]),
    ("rx-packet-buffer", ["bash", "tests/rtl/pktbuf/run.sh"]),
    # the host port's quiesce across a device reset: random AXI traffic cut by
    # drains against the AXI memory model (VALID stability, WLAST, memory shadow)
    ("axi-quiesce", ["bash", "tests/rtl/axi_quiesce/run.sh"]),
    ("sim-models-asan", ["bash", "tests/sim/run.sh"]),
    ("mr-mtt-translation", ["bash", "tests/rtl/mem/run.sh"]),
    ("dma-engines", ["bash", "tests/rtl/dma/run.sh"]),
    ("axi-mux", ["bash", "tests/rtl/axi_mux/run.sh"]),
    ("axis-pack-split", ["bash", "tests/rtl/axis/run.sh"]),
    ("doorbells", ["bash", "tests/rtl/doorbell/run.sh"]),
    # the statistics counters (one RAM, small accumulators) against plain counters
    ("statistics-counters", ["bash", "tests/rtl/counters/run.sh"]),
    # our Ethernet MACs against cocotbext-eth's XGMII and RGMII models (cocotb
    # venv pinned by scripts/cocotb_venv.sh, cached outside the checkout)
    ("eth-mac10g", ["bash", "tests/eth/mac10g/run.sh"]),
    ("eth-mac1g-rgmii", ["bash", "tests/eth/mac1g/run.sh"]),
    # our 10GBASE-R PCS against our own Clause 49 model (baser_model.py), and
    # MAC -> PCS -> lane (bit slips, sync-header errors, bit flips) -> PCS -> MAC
    ("eth-pcs10g", ["bash", "tests/eth/pcs10g/run.sh"]),
    ("eth-mac-pcs-loop", ["bash", "tests/eth/mac_pcs_loop/run.sh"]),
    # board host glue: XDMA AXI-bridge BAR split, DMA upsizer, MSI-X emitter
    ("fpga-host-glue", ["bash", "tests/fpga_common/glue/run.sh"]),
    # board clock crossings: async FIFO, async frame FIFO, AXI4 and AXI-Lite CDC
    ("fpga-cdc", ["bash", "tests/fpga_common/cdc/run.sh"]),
    # Board A (Alveo U200): fpga.v/fpga_core.v lint against the stubs, the write
    # arbiter bench, the Vivado TCL flow under a mocked Vivado (with broken
    # copies that must fail), Yosys synth_xilinx of fpga_core (froce_core boxed)
    ("fpga-alveo-u200", ["bash", "tests/fpga_alveo/run.sh"]),
    # Board B (ECPIX-5): fpga.v/fpga_core lint against the ECP5 stubs, the
    # pins against fpga's ports, the MDIO poller's bench and mutants, the
    # board's logic around a stand-in froce_core through Yosys, nextpnr and
    # ecppack with every clock met (the whole core does not fit the ECP5-85
    # yet: docs/fpga-fit.md; ECPIX5_PNR=1 also tries the real bitstream)
    ("fpga-ecpix5", ["env", "ECPIX5_PNR=0", "bash", "tests/fpga_ecpix5/run.sh"]),
    # the UART host link of boards without PCIe (ECPIX-5): bridge + host-memory
    # RAM against Python models, the C library against the RTL and a C model
    ("fpga-uart-link", ["bash", "tests/fpga_common/uart/run.sh"]),
    # the RV32I soft core: ISA tests on froce-cpu-sim (Verilator) and Icarus,
    # negative controls, mutants of the core
    ("soft-core-isa", ["bash", "tests/cpu/run.sh"]),
    # firmware: RV32 image, native unit tests (gcc and clang, ASan/UBSan)
    # against a model of the hardware, a short fuzz run of the command decoder
    ("firmware", ["bash", "firmware/tests/run.sh"]),
    ("firmware-on-core", ["bash", "firmware/tests/run_rv32.sh"]),
    ("fw-subsystem", ["bash", "tests/fw/run.sh"]),
    ("mailbox-vs-firmware", ["bash", "tests/core/mbox.sh"]),
    ("driver-build-w1", ["make", "-s", "-C", "driver", "check-w1"]),
    ("driver-unit", ["make", "-s", "-C", "driver", "test"]),
    ("provider-unit", ["make", "-s", "-C", "provider", "test"]),
    ("two-nic-cosim", ["bash", "tests/core/run.sh"]),
    # the full stack: froce.ko in User-Mode Linux against the simulated NIC
    # (vhost-user PCI transport), libibverbs with our provider, perftest;
    # the first UML check builds the kernel (cached outside the checkout)
    ("uml-transport", ["bash", "tests/uml/transport.sh"]),
    ("uml-driver-probe", ["bash", "tests/uml/probe.sh"]),
    ("uml-harness-selftest", ["bash", "sim/uml/selftest.sh"]),
    ("stack-froce-froce", ["bash", "tests/uml/cosim.sh", "froce-froce"]),
    ("stack-froce-rxe", ["bash", "tests/uml/cosim.sh", "froce-rxe"]),
    # the ECPIX-5 board in Verilator (fpga_core: froce_core, UART host link,
    # RGMII MAC, MDIO): an rxe guest's unmodified ibv_rc_pingpong -c against
    # froce-pingpong on the guest's serial line, both directions
    # Board A (Alveo U200) under the real stack: its fpga_core (XDMA BAR split
    # + CDC, write arbiter, 64->256 upsizer, AXI CDC, MSI-X emitter, MAC, PCS
    # on a modelled 10GBASE-R lane) as the NIC behind froce.ko
    ("baser-lane-model", ["make", "-s", "-C", "sim/core", "baser-test"]),
    ("uml-transport-alveo", ["bash", "tests/uml/transport.sh", "alveo"]),
    ("stack-alveo-froce-rxe", ["bash", "tests/uml/cosim.sh", "froce-rxe", "--board", "alveo"]),
    ("stack-ecpix5-rxe", ["bash", "tests/uml/cosim.sh", "ecpix5-rxe"]),
    # two simulated ECPIX-5 boards cabled together, froce-pingpong on both;
    # one unplugged board (no link: refused)
    ("board-ecpix5-sim", ["bash", "tests/fpga_ecpix5/board_sim.sh"]),
    # error paths with asserted outcomes (and their negative control)
    ("cosim-error-scenarios", ["bash", "tests/core/scenarios.sh"]),
    # every frame of write/send/read/atomic captures through scapy+ICRC,
    # tshark and the RTL parser
    ("cosim-frames-checked", ["bash", "tests/core/frames.sh"]),
    # go-back-N on long messages (issue 14): a NAK acted on at the next
    # packet, ACKs inside the message, adaptive retransmission. 8 x 1 MB at
    # 3 % drop and 3 % reordering within 2 ms of simulated time per message
    # (--max-cycles: 8 x 312 500 cycles at 156.25 MHz; clean: 0.87 ms each)
    ("cosim-1mb-3pct-drop-reorder", perf("write", "--size", "1000000", "--iters", "8", "--mtu", "1024",
                                         "--drop", "0.03", "--reorder", "0.03", "--seed", "5",
                                         "--max-cycles", "2500000")),
    # one 16 MiB message at 3 % drop (both directions), MTU 1024, each op
    ("cosim-write-16mib-3pct-drop", perf("write", "--size", "16777216", "--iters", "1", "--depth", "1",
                                         "--mtu", "1024", "--drop", "0.03", "--page-shift", "21", "--seed", "41")),
    ("cosim-read-16mib-3pct-drop", perf("read", "--size", "16777216", "--iters", "1", "--depth", "1",
                                        "--mtu", "1024", "--drop", "0.03", "--page-shift", "21", "--seed", "42")),
    ("cosim-send-16mib-3pct-drop", perf("send", "--size", "16777216", "--iters", "1", "--depth", "1",
                                        "--mtu", "1024", "--drop", "0.03", "--page-shift", "21", "--seed", "43")),
    # READs of several QPs on a wire that drops, reorders and duplicates:
    # reordered and copied go-back-N resends must not void each other's jobs
    # (these ran at 0.14 Gb/s or not at all before; now 4.2 and 7.3 Gb/s)
    ("cosim-read-2qps-mtu256-3pct-faults", perf("read", "--size", "65537", "--iters", "20", "--mtu", "256",
                                                "--qps", "2", "--depth", "16", "--page-shift", "21",
                                                "--drop", "0.03", "--reorder", "0.03", "--dup", "0.03",
                                                "--seed", "23", "--max-cycles", "3000000")),
    ("cosim-read-1mib-2qps-drop-reorder", perf("read", "--size", "1048571", "--iters", "4", "--mtu", "4096",
                                               "--qps", "2", "--depth", "16", "--page-shift", "21",
                                               "--drop", "0.02", "--reorder", "0.02", "--seed", "23",
                                               "--max-cycles", "4000000")),
    # froce-perf (built by tests/core/run.sh) on a lossy wire: every byte and
    # completion verified; --timeout 5 = ACK timeout 4.096 us * 2^5
    ("cosim-write-5pct-faults", perf("write", "--size", "5000", "--iters", "40", "--qps", "2",
                                     "--drop", "0.05", "--dup", "0.05", "--reorder", "0.05",
                                     "--corrupt", "0.05", "--timeout", "5", "--seed", "11")),
    ("cosim-send-5pct-faults", perf("send", "--size", "9000", "--iters", "30", "--mtu", "1024",
                                    "--drop", "0.05", "--dup", "0.05", "--reorder", "0.05",
                                    "--corrupt", "0.05", "--timeout", "5", "--seed", "12")),
    ("cosim-write-1pct-drop", perf("write", "--size", "65536", "--iters", "16", "--drop", "0.01",
                                   "--timeout", "5", "--seed", "13")),
    ("cosim-mtu256-sges-unaligned", perf("write", "--size", "1000", "--iters", "30", "--mtu", "256",
                                         "--sges", "3", "--unaligned", "--seed", "14")),
    ("cosim-write-4qps-mtu256", perf("write", "--size", "3000", "--iters", "40", "--qps", "4",
                                     "--mtu", "256", "--seed", "16")),
    ("cosim-send-inline-8qps", perf("send", "--size", "100", "--iters", "40", "--qps", "8",
                                    "--inline", "--seed", "15")),
    # immediate data on a lossy wire: WRITE ONLY and WRITE LAST with
    # immediate (each takes a receive at B) and SEND with immediate; every
    # receive CQE's opcode, length and immediate checked
    ("cosim-write-imm-only-faults", perf("write", "--size", "1000", "--iters", "30", "--mtu", "1024", "--imm",
                                         "--qps", "2", "--drop", "0.03", "--dup", "0.03", "--reorder", "0.03",
                                         "--timeout", "5", "--seed", "31")),
    ("cosim-write-imm-last-faults", perf("write", "--size", "3000", "--iters", "30", "--mtu", "1024", "--imm",
                                         "--drop", "0.03", "--reorder", "0.03", "--timeout", "5", "--seed", "32")),
    ("cosim-send-imm-sges-faults", perf("send", "--size", "2500", "--iters", "30", "--mtu", "1024", "--imm",
                                        "--sges", "2", "--drop", "0.03", "--corrupt", "0.03", "--timeout", "5",
                                        "--seed", "33")),
    # READ and atomics on a lossy wire: atomics answered from the replay
    # cache, never executed twice (froce-perf checks every old value and B's
    # final value)
    ("cosim-read-5pct-faults", perf("read", "--size", "5000", "--iters", "40", "--qps", "2",
                                    "--drop", "0.05", "--dup", "0.05", "--reorder", "0.05",
                                    "--corrupt", "0.05", "--timeout", "5", "--seed", "17")),
    ("cosim-read-mtu256-sges-unaligned", perf("read", "--size", "3000", "--iters", "30", "--mtu", "256",
                                              "--sges", "3", "--unaligned", "--qps", "4", "--seed", "18")),
    ("cosim-atomic-5pct-faults", perf("atomic", "--iters", "300", "--qps", "2",
                                      "--drop", "0.05", "--dup", "0.05", "--reorder", "0.05",
                                      "--corrupt", "0.05", "--timeout", "5", "--seed", "19")),
    ("cosim-atomic-1pct-each", perf("atomic", "--iters", "200", "--drop", "0.01", "--dup", "0.01",
                                    "--reorder", "0.01", "--corrupt", "0.01", "--timeout", "5", "--seed", "20")),
    # both NICs requester and responder at once (--bidir), lossy wire
    ("cosim-read-bidir-5pct-faults", perf("read", "--size", "7000", "--iters", "30", "--qps", "2", "--bidir",
                                          "--drop", "0.05", "--dup", "0.05", "--reorder", "0.05",
                                          "--corrupt", "0.05", "--timeout", "5", "--seed", "21")),
    ("cosim-send-bidir-5pct-faults", perf("send", "--size", "9000", "--iters", "20", "--qps", "2", "--mtu", "1024",
                                          "--bidir", "--drop", "0.05", "--dup", "0.05", "--reorder", "0.05",
                                          "--corrupt", "0.05", "--timeout", "5", "--seed", "21")),
    ("icrc-reference-model", [PY, "tests/pcap/test_icrc_model.py"]),
    ("rxe-vectors-decode", [PY, "tests/pcap/test_rxe_vectors.py"]),
    ("rxe-vectors-rebuild", [PY, "tests/pcap/test_rebuild.py"]),
    ("icrc-bitflips", [PY, "tests/pcap/test_bitflip.py"]),
    ("malformed-frames", [PY, "tests/pcap/test_malformed.py"]),
    ("unseen-captures-scapy", [PY, "tests/pcap/test_scapy_crosscheck.py"]),
    ("roundtrip-w64", roundtrip(64, 1500, 0.0, 1)),
    ("roundtrip-w64-backpressure", roundtrip(64, 1500, 0.4, 2)),
    ("roundtrip-w512", roundtrip(512, 3000, 0.0, 3)),
    ("roundtrip-w512-backpressure", roundtrip(512, 3000, 0.4, 4)),
    ("builder-length-errors", [PCAP, "lenerr", "--width", "64"]),
    ("builder-length-errors-w512", [PCAP, "lenerr", "--width", "512", "--stall", "0.3"]),
    ("synth-self-test", [PY, "scripts/synth.py", "--self-test"]),
    # the path ranking of make -C fpga/ecpix5 paths, on a hand-made netlist
    ("logic-paths-self-test", [PY, "scripts/logic_paths.py", "--self-test"]),
    ("synth", [PY, "scripts/synth.py", "--quick"]),
]


def run_check(name, cmd, logdir):
    """runs one check; returns (exit status, seconds, log path)"""
    log = os.path.join(logdir, name + ".log")
    t0 = time.time()
    with open(log, "w") as f:
        rc = subprocess.call(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL)
    return rc, time.time() - t0, log


def log_tail(log, n):
    with open(log, errors="replace") as f:
        return f.read().splitlines()[-n:]


def batches(checks):
    """consecutive froce-perf runs together (run in parallel), every other check alone"""
    out = []
    for c in checks:
        if c[1][0] == PERF and out and out[-1][0][1][0] == PERF:
            out[-1].append(c)
        else:
            out.append([c])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    checks = CHECKS
    if args.list:
        for name, cmd in checks:
            print(f"{name:32} {' '.join(cmd)}")
        return 0
    if args.only:
        checks = [c for c in checks if any(c[0].startswith(o) for o in args.only)]
    logdir = os.path.join(ROOT, "build", "test-logs")
    os.makedirs(logdir, exist_ok=True)
    passed = failed = 0
    failures = []
    start = time.time()
    i = 0
    for batch in batches(checks):
        if len(batch) == 1:
            print(f"[{i + 1}/{len(checks)}] {batch[0][0]} ...", end="", flush=True)
            results = [run_check(batch[0][0], batch[0][1], logdir)]
        else:
            with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
                results = list(ex.map(lambda c: run_check(c[0], c[1], logdir), batch))
        for (name, _), (rc, dt, log) in zip(batch, results):
            i += 1
            if len(batch) > 1:
                print(f"[{i}/{len(checks)}] {name} ...", end="")
            if rc == 0:
                passed += 1
                print(f" PASS ({dt:.1f} s)")
            else:
                failed += 1
                failures.append((name, rc, log))
                print(f" FAIL (exit {rc}, {dt:.1f} s) — log: {os.path.relpath(log, ROOT)}")
                for line in log_tail(log, 25):
                    print("    | " + line)
            sys.stdout.flush()
    print(f"total {time.time() - start:.0f} s")
    # Again at the end, short: a CI report often keeps only the last lines.
    for name, rc, log in failures:
        print(f"FAILED {name} (exit {rc}):")
        for line in log_tail(log, 8):
            print("    | " + line)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
