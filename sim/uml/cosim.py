#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Full-stack co-simulation: User-Mode Linux guests on the host's own root
(hostfs) wired into a topology, running the standard RDMA tools.

  sim/uml/cosim.py --topology {rxe-rxe,froce-froce,froce-rxe,ecpix5-rxe} [--short]
                   [--keep RUN_DIR] [--timeout S] [--list]
                   [--step-timeout S] [--setup-wait S] [--pcap] [--drop-pct P] [--board core|alveo]
                   [--inject-fail STEP] [--inject-hang STEP] [--inject-expect STEP]
                   [--inject-calib STEP]

rxe-rxe      two guests joined by a socketpair on vec0 (fd transport), rxe on both
froce-froce  froce-uml-sim with two NICs, both guests load froce.ko
froce-rxe    froce-uml-sim with one NIC and a wire fd; guest A froce, guest B rxe
             (--board alveo: froce-uml-sim-alveo, each NIC the Alveo U200 board core
             around froce_core instead of the bare core; both froce topologies)
ecpix5-rxe   froce-ecpix5-sim (the ECPIX-5 board: RGMII to guest B's vec0, its UART
             on guest B's /dev/ttyS1); guest B is the user's PC: rxe, unmodified
             ibv_rc_pingpong against froce-pingpong driving the board over the UART

Each step's output is printed under a header naming guest and command, with
its exit status and duration; a step fails on a non-zero exit, a timeout or a
missing expected string, and the run stops there. The last line is
'cosim TOPOLOGY: N passed, N failed'. Exit status 0 only if every step passed.
See sim/uml/README.md.
"""
import argparse
import os
import random
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
INIT = os.path.join(HERE, "guest-init.sh")
SIM = os.environ.get("FROCE_UML_SIM") or os.path.join(ROOT, "build", "bin", "froce-uml-sim")
# the same simulator with the Alveo U200 board core as each NIC (--board alveo)
SIM_ALVEO = os.environ.get("FROCE_UML_SIM_ALVEO") or os.path.join(ROOT, "build", "bin", "froce-uml-sim-alveo")
BOARDS = ("core", "alveo")
FROCE_KO = os.path.join(ROOT, "build", "uml", "froce.ko")
# libibverbs appends "-rdmav34.so" to an absolute driver path
PROVIDER = os.path.join(ROOT, "build", "provider", "libfroce")
PROVIDER_SO = PROVIDER + "-rdmav34.so"
ECPIX5_SIM = os.environ.get("FROCE_ECPIX5_SIM") or os.path.join(ROOT, "build", "bin", "froce-ecpix5-sim")
FROCE_PINGPONG = os.path.join(ROOT, "build", "fpga_common", "host", "froce-pingpong")
TOPOLOGIES = ("rxe-rxe", "froce-froce", "froce-rxe", "ecpix5-rxe")
# the simulated ECPIX-5 in ecpix5-rxe: the PC (guest B) reaches it at this
# address and MAC (no ARP on the board: the PC gets a permanent neighbour)
BOARD_IP = "10.77.0.1"
BOARD_MAC = "02:00:00:77:00:01"
BOARD_LINK = "/dev/ttyS1@3000000"
VIRTIO_DEVICE_ID = 1234          # CONFIG_UML_PCI_OVER_VIRTIO_DEVICE_ID
# vec0's MTU: 9000 lets rxe-rxe run RoCE MTU 4096; against froce the rxe side
# keeps 1500 (RoCE MTU 1024) like an ordinary Ethernet port
VEC_MTU = {"rxe-rxe": 9000, "froce-rxe": 1500, "ecpix5-rxe": 1500}
GUEST_MEM = "512M"
# directories the guest mounts something else over: a run dir there would be
# invisible (its tmpfs over /tmp, /run, /var/tmp and /dev/shm keeps the run
# directory and the checkout visible: guest-tmpfs.sh)
GUEST_MOUNTS = ("/dev", "/proc", "/sys", "/etc/libibverbs.d", "/mnt")
INJECTED_EXPECT = "cosim-injected-expectation-that-never-appears"
# The timeout of a step --inject-hang makes hang: long enough for its command to
# finish first on a busy machine, so only the hang is what times out.
INJECTED_HANG_TIMEOUT = 15
RETRY_MARK = "cosim: retry:"     # guest-init.sh's line before a pair's next attempt


# ---------------------------------------------------------------- pure parts

def normalize(text):
    """collapse every run of whitespace to one space (tool output is tab-aligned)"""
    return re.sub(r"\s+", " ", text).strip()


def missing_expectations(output, expects):
    """the expected strings (whitespace-insensitive) that output lacks"""
    norm = normalize(output)
    return [e for e in expects if normalize(e) not in norm]


def perftest_rows(output):
    """the result rows of perftest's table: dicts keyed by the header's columns
    (as printed, e.g. '#bytes', 'BW average[Gb/sec]', 't_avg[usec]')"""
    lines = output.splitlines()
    rows = []
    for i, line in enumerate(lines):
        if not line.strip().startswith("#bytes"):
            continue
        # a column name is '#word' or words up to one ending in ']' ('BW peak[Gb/sec]')
        cols, cur = [], []
        for word in line.split():
            cur.append(word)
            if word.startswith("#") or word.endswith("]"):
                cols.append(" ".join(cur))
                cur = []
        for row in lines[i + 1:]:
            vals = row.split()
            if not vals or not vals[0].isdigit():
                break
            rows.append(dict(zip(cols, vals)))
    return rows


def check_perftest(output, size, column):
    """None if the table has a row for size whose column is a positive number,
    else what is wrong"""
    rows = perftest_rows(output)
    if not rows:
        return "no perftest result table"
    for r in rows:
        if r.get("#bytes") == str(size):
            try:
                v = float(r.get(column, ""))
            except ValueError:
                return "no column %r in the result row" % column
            if v <= 0:
                return "%s is %s" % (column, r[column])
            return None
    return "no result row for %d bytes" % size


def parse_rc(text):
    """'rc start end' written by guest-init.sh -> (rc, seconds)"""
    parts = text.split()
    if len(parts) != 3:
        raise ValueError("bad rc record %r" % text)
    return int(parts[0]), float(parts[2]) - float(parts[1])


def parse_setup(text):
    """KEY=VALUE lines -> dict"""
    out = {}
    for line in text.splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def gid_line(index, ip):
    """how ibv_devinfo -v prints the RoCE v2 IPv4-mapped GID of ip at index"""
    try:
        idx = "%3d" % int(index)
    except ValueError:
        idx = index
    return "GID[%s]: ::ffff:%s, RoCE v2" % (idx, ip)


def check_run_dir(path):
    """reasons why path cannot be a run directory shared with the guests"""
    problems = []
    if not os.path.isabs(path):
        problems.append("not absolute")
    if re.search(r"\s", path):
        problems.append("contains whitespace (it goes on the kernel command line)")
    for d in GUEST_MOUNTS:
        if path == d or path.startswith(d + "/"):
            problems.append("under %s, which the guests cover with their own mounts" % d)
    return problems


def stale_sources(target, dirs):
    """the .c/.h files under dirs newer than target"""
    try:
        t = os.path.getmtime(target)
    except OSError:
        return []
    newer = []
    for d in dirs:
        for base, _, files in os.walk(d):
            for f in files:
                p = os.path.join(base, f)
                if f.endswith((".c", ".h")) and os.path.getmtime(p) > t:
                    newer.append(p)
    return sorted(newer)


class Step:
    """one command on one guest; server/client steps come in pairs joined by sync"""

    def __init__(self, guest, name, command, timeout, kind="run", sync="-", expects=()):
        self.num = 0
        self.guest = guest
        self.name = name
        self.command = command
        self.timeout = int(timeout)
        self.kind = kind
        self.sync = sync
        self.expects = list(expects)
        self.table = None        # (size, column): perftest result row to check
        # filled in while running
        self.status = "not run"
        self.rc = None
        self.seconds = None
        self.detail = ""

    @property
    def label(self):
        return "%s:%s" % (self.guest, self.name)

    def line(self):
        for field in (self.kind, self.sync, self.command):
            if "\t" in field or "\n" in field:
                raise ValueError("tab or newline in step %s" % self.label)
        return "%d\t%s\t%d\t%s\t%s\n" % (self.num, self.kind, self.timeout, self.sync, self.command)


# sizes: (rc_pingpong iterations, bw message size, bw iterations, lat iterations,
#         per-step timeout)
SIZES = {
    ("rxe", False): (1000, 65536, 2000, 2000, 120),
    ("rxe", True): (10, 4096, 50, 50, 60),
    # the simulated NIC runs about 1000x slower than real time
    ("froce", False): (100, 16384, 200, 200, 900),
    ("froce", True): (10, 4096, 50, 50, 300),
}

GUEST_NAMES = ("A", "B")


class LossyRelay(threading.Thread):
    """rxe-rxe with --drop-pct: the guests' vector interfaces meet here instead of
    in one socketpair, and each frame is lost with probability P (seeded), as
    froce-uml-sim's fault injector does on the froce topologies"""

    def __init__(self, a, b, pct, seed=1):
        super().__init__(daemon=True)
        self.socks = (a, b)
        self.p = pct / 100.0
        self.rng = random.Random(seed)
        self.halt = False
        self.passed = self.dropped = 0

    def run(self):
        peer = {self.socks[0].fileno(): self.socks[1], self.socks[1].fileno(): self.socks[0]}
        while not self.halt:
            try:
                ready, _, _ = select.select(self.socks, [], [], 0.2)
            except (OSError, ValueError):
                return
            for s in ready:
                try:
                    frame = s.recv(65536)
                except OSError:
                    return
                if self.rng.random() < self.p:
                    self.dropped += 1
                    continue
                try:
                    peer[s.fileno()].send(frame)
                    self.passed += 1
                except OSError:
                    pass


def bw_arg(text):
    """--bw SIZE:ITERS"""
    try:
        size, iters = (int(x) for x in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError("expected SIZE:ITERS, e.g. 1048576:20")
    if not (1 <= size <= 1 << 31 and 1 <= iters <= 1000000):
        raise argparse.ArgumentTypeError("SIZE 1..2^31, ITERS 1..1000000")
    return size, iters


def plan(topology, short, bw=None, lossy=False):
    """the ordered list of steps; both guests handle their pairs in the same order;
    bw = (size, iterations) of ib_write_bw instead of the defaults; lossy: the
    wire loses frames (no UD pingpong: a lost datagram is never sent again and
    the tool waits for it forever)"""
    if topology == "ecpix5-rxe":
        return board_plan(short)
    kind = "rxe" if topology == "rxe-rxe" else "froce"
    pp_n, bw_s, bw_n, lat_n, tmo = SIZES[(kind, short)]
    if bw:
        bw_s, bw_n = bw
    steps = []

    def solo(name, command, expects, timeout=tmo, guests=GUEST_NAMES):
        for g in guests:
            steps.append(Step(g, name, command, timeout, expects=expects))

    # guests with a froce NIC (A, and B too in froce-froce)
    froce_guests = {"rxe-rxe": (), "froce-rxe": ("A",)}.get(topology, GUEST_NAMES)

    def pair(tool, args, expects_server, expects_client, table=None, label=None):
        for server, client in (("A", "B"), ("B", "A")):
            sync = "%s-%s%s" % ((label or tool).replace(" ", "-"), server, client)
            name = "%s (server %s, client %s)" % (label or tool, server, client)
            steps.append(Step(server, name, "%s %s" % (tool, args), tmo, "server", sync,
                              expects_server))
            steps.append(Step(client, name, "%s %s $PEER" % (tool, args), tmo, "client", sync,
                              expects_client))
            # the client's table: the server side of some tests prints peak 0
            steps[-1].table = table

    devinfo_expects = ["hca_id: {dev}", "state: PORT_ACTIVE", "link_layer: Ethernet",
                       "{gidline}"]
    if short:
        solo("ibv_devinfo", "ibv_devinfo -v -d $DEV", devinfo_expects)
    else:
        solo("rdma link show", "rdma link show",
             ["link {dev}/1 state ACTIVE", "netdev {netdev}"])
        solo("ibv_devices", "ibv_devices", ["{dev}"])
        solo("ibv_devinfo", "ibv_devinfo -v -d $DEV", devinfo_expects + ["fe80:"])
        solo("ping", "ping -c 3 -w 30 -i 0.5 $PEER", [" 0% packet loss"],
             timeout=60)
        # froce: the netdev's ethtool view, RoCE v1 and v2 GIDs, the rdma_cm
        # default RoCE mode switched through configfs and back
        solo("ethtool -i", "ethtool -i $NETDEV", ["driver: froce", "bus-info: "],
             guests=froce_guests)
        solo("GID types", "ibv_devinfo -v -d $DEV | grep GID", ["RoCE v1", "RoCE v2"],
             guests=froce_guests)
        # RoCE active MTU follows the netdev's: the largest IB MTU that fits
        port = "ibv_devinfo -d $DEV | grep active_mtu"
        solo("MTU follows netdev",
             "ip link set $NETDEV mtu 9000 && %s && ip link set $NETDEV mtu 1500 && %s"
             % (port, port), ["active_mtu: 4096 (5) active_mtu: 1024 (3)"],
             guests=froce_guests)
        # a process killed with its verbs objects open leaves nothing behind
        # (rc_pingpong's server makes its PD, MR, CQ and QP before it listens)
        res = "rdma res show $DEV"
        solo("objects released on kill",
             "b=$(%s); ibv_rc_pingpong -d $DEV -g $GIDX & p=$!; sleep 5; %s; kill -9 $p; "
             "wait $p; sleep 1; e=$(%s); echo \"$e\"; [ \"$b\" = \"$e\" ] && echo RELEASED"
             % (res, res, res), ["pd 1 cq 1 qp 1", "mr 1 ctx 1", "RELEASED"], guests=froce_guests)
        cm = "/sys/kernel/config/rdma_cm/$DEV"
        solo("default_roce_mode",
             "mkdir %s && m=%s/ports/1/default_roce_mode && cat $m && "
             "echo 'IB/RoCE v1' > $m && cat $m && echo 'RoCE v2' > $m && cat $m && rmdir %s"
             % (cm, cm, cm), ["RoCE v2\nIB/RoCE v1\nRoCE v2"], guests=froce_guests)
    pp = "-d $DEV -i 1 -g $GIDX -c -n %d" % pp_n
    pair("ibv_rc_pingpong", pp, ["iters in"], ["iters in"])
    if kind == "froce" and not lossy:
        # UD QPs with address handles (the short run too: cheap, and the
        # only user of create_user_ah)
        pair("ibv_ud_pingpong", "-d $DEV -i 1 -g $GIDX -c -s 512 -n %d" % pp_n,
             ["iters in"], ["iters in"])
    if kind == "froce" and not short:
        # completion events (req_notify_cq, the completion EQ's interrupt,
        # ibv_get_cq_event) instead of polling
        pair("ibv_rc_pingpong", pp + " -e", ["iters in"], ["iters in"],
             label="ibv_rc_pingpong -e (events)")
    if topology == "froce-froce" and not short:
        # the other encapsulations between two froce NICs: RoCE v1 (GRH,
        # EtherType 0x8915) and RoCE v2 over IPv6 (the link-local GIDs)
        pair("ibv_rc_pingpong", pp.replace("$GIDX", "$GIDX_V1"), ["iters in"], ["iters in"],
             label="ibv_rc_pingpong RoCE v1")
        pair("ibv_rc_pingpong", pp.replace("$GIDX", "$GIDX_V6"), ["iters in"], ["iters in"],
             label="ibv_rc_pingpong IPv6")
    perf = "-d $DEV -i 1 -x $GIDX -F --report_gbits"
    bw = "%s -s %d -n %d" % (perf, bw_s, bw_n)
    table = "#bytes"
    avg = (bw_s, "BW average[Gb/sec]")
    pair("ib_write_bw", bw, ["RDMA_Write BW Test", table], ["RDMA_Write BW Test", table], avg)
    if not short:
        # perftest gives each side the peer's outstanding-read count as its
        # max_rd_atomic; rxe offers 128, froce (like mlx5) takes at most 8 and
        # refuses more (as rxe does): both sides ask for 8, which both support
        rd = bw + (" -o 8" if kind == "froce" else "")
        pair("ib_read_bw", rd, ["RDMA_Read BW Test", table], ["RDMA_Read BW Test", table], avg)
        pair("ib_send_bw", bw, ["Send BW Test", table], ["Send BW Test", table], avg)
        lat = "%s -s 64 -n %d" % (perf, lat_n)
        pair("ib_write_lat", lat, ["RDMA_Write Latency Test", table, "t_avg"],
             ["RDMA_Write Latency Test", table, "t_avg"], (64, "t_avg[usec]"))
    if not short:
        # after the traffic: the device counters, through ethtool and rdma_hw_stats
        solo("ethtool -S", "ethtool -S $NETDEV", ["sent_pkts:", "rcvd_pkts:", "netdev_tx_pkts:"],
             guests=froce_guests)
        solo("rdma statistic", "rdma statistic show link $DEV/1", ["sent_pkts", "rdma_sends"],
             guests=froce_guests)
        solo("port counters", "cat /sys/class/infiniband/$DEV/ports/1/counters/port_xmit_packets",
             [], guests=froce_guests)
    for i, s in enumerate(steps, 1):
        s.num = i
    return steps


def board_plan(short):
    """ecpix5-rxe: guest B is the PC cabled to the board; both programs of a
    pingpong run on it (their TCP exchange over localhost), the PC's
    unmodified ibv_rc_pingpong on rxe and froce-pingpong on the UART"""
    n, size, tmo = (10, 1024, 600) if short else (50, 4096, 1200)
    steps = [Step("B", "ibv_devinfo", "ibv_devinfo -d $DEV", 60, expects=["state: PORT_ACTIVE"]),
             Step("B", "neighbour for the board",
                  "ip neigh replace %s lladdr %s dev $NETDEV nud permanent && ip neigh show %s"
                  % (BOARD_IP, BOARD_MAC, BOARD_IP), 30, expects=["PERMANENT"])]
    # a simulated board answers a UART request in milliseconds, not the
    # 250 ms froce_uart_link allows a serial line, and its reset takes
    # seconds: longer timeouts than on hardware
    board = "FROCE_UART_TIMEOUT_MS=5000 %s --link %s --ip %s --mac %s -c -n %d -s %d --timeout-ms 120000" % (
        FROCE_PINGPONG, BOARD_LINK, BOARD_IP, BOARD_MAC, n, size)
    pc = "ibv_rc_pingpong -d $DEV -g $GIDX -c -n %d -s %d" % (n, size)
    # a server starts first and listens on TCP 18515; the client retries
    # until it is there; both must finish and print their summary, and
    # ibv_rc_pingpong's -c check (it only prints "invalid data in page N")
    # must find nothing
    both = ("%s >/tmp/server.out 2>&1 & s=$!; sleep 2; for i in 1 2 3 4 5 6 7 8 9 10; do %s && c=0 && break; "
            "c=$?; sleep 2; done; wait $s; r=$?; cat /tmp/server.out; echo \"server exit $r, client exit $c\"; "
            "[ $r = 0 ] && [ $c = 0 ] && ! grep -q 'invalid data' /tmp/server.out")
    steps.append(Step("B", "board client, PC server", both % (pc, board + " localhost"), tmo,
                      expects=["iters in", "server exit 0, client exit 0"]))
    steps.append(Step("B", "board server, PC client", both % (board, pc + " localhost"), tmo,
                      expects=["iters in", "server exit 0, client exit 0"]))
    for i, s in enumerate(steps, 1):
        s.num = i
    return steps


def select_step(steps, selector):
    """a step by number or by GUEST:NAME-prefix (first match)"""
    if selector.isdigit():
        for s in steps:
            if s.num == int(selector):
                return s
    else:
        for s in steps:
            if s.label.startswith(selector):
                return s
    raise SystemExit("cosim: no step matches %r (see --list)" % selector)


FAILED = ("FAIL", "TIMEOUT")


def count(steps):
    """(passed, failed); steps cut short by another step's failure count as neither"""
    return (sum(1 for s in steps if s.status == "ok"),
            sum(1 for s in steps if s.status in FAILED))


def summary_lines(topology, steps):
    w = max([len(s.name) for s in steps] + [4])
    out = ["%3s  %-5s  %-*s  %-7s  %8s  %s" % ("#", "guest", w, "step", "result", "seconds",
                                               "detail")]
    for s in steps:
        secs = "%8.2f" % s.seconds if s.seconds is not None else "%8s" % "-"
        out.append("%3d  %-5s  %-*s  %-7s  %s  %s" % (s.num, s.guest, w, s.name, s.status,
                                                     secs, s.detail))
    passed, failed = count(steps)
    out.append("cosim %s: %d passed, %d failed" % (topology, passed, failed))
    return out


# ---------------------------------------------------------------- running

class Failure(Exception):
    pass


class Guest:
    def __init__(self, name, role, ip, peer, cpu):
        self.name = name
        self.role = role
        self.ip = ip
        self.peer = peer
        self.cpu = cpu
        self.extra = []          # kernel command line words (vec0, virtio_uml)
        self.fds = []            # fds the UML process inherits
        self.proc = None
        self.started = None
        self.booted = False
        self.setup = None
        self.steps = []
        self.next = 0


class Run:
    def __init__(self, args):
        self.args = args
        self.topology = args.topology
        self.t0 = time.monotonic()
        self.steps = plan(self.topology, args.short, args.bw, args.drop_pct > 0)
        self.guests = {}
        self.sim = None
        self.sim_log = None
        self.shm = None
        self.run_dir = None
        self.umid = "cosim%d" % os.getpid()
        self.held = []           # socketpair ends, closed once the children hold them
        self.relay = None        # rxe-rxe with --drop-pct: LossyRelay
        self.sim_bin = SIM_ALVEO if getattr(args, "board", "core") == "alveo" else SIM

    def log(self, msg):
        print("[%7.1fs] %s" % (time.monotonic() - self.t0, msg), flush=True)

    # ---- preparation
    def prepare(self):
        kernel = os.environ.get("FROCE_UML_KERNEL")
        if not kernel:
            r = subprocess.run([os.path.join(HERE, "build-kernel.sh"), "--print"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if r.returncode != 0:
                raise Failure("no UML kernel: run sim/uml/build-kernel.sh (%s)" % r.stderr.strip())
            kernel = os.path.join(r.stdout.strip(), "linux")
        if not os.access(kernel, os.X_OK):
            raise Failure("UML kernel %s not executable" % kernel)
        self.kernel = kernel
        need = []
        if self.topology == "ecpix5-rxe":
            need = [(ECPIX5_SIM, "froce-ecpix5-sim (make -C sim/ecpix5)"),
                    (FROCE_PINGPONG, "froce-pingpong (make -C fpga/common/host)")]
        elif self.topology != "rxe-rxe":
            need = [(SIM_ALVEO, "froce-uml-sim-alveo (make -C sim/core uml-sim-alveo, or set "
                                "FROCE_UML_SIM_ALVEO)") if self.sim_bin == SIM_ALVEO else
                    (SIM, "froce-uml-sim (make -C sim/core uml-sim, or set FROCE_UML_SIM)"),
                    (FROCE_KO, "UML froce.ko (sim/uml/build-kernel.sh)"),
                    (PROVIDER_SO, "provider (make -C provider)")]
        for path, what in need:
            if not os.path.exists(path):
                raise Failure("missing %s: %s" % (path, what))
        if self.topology not in ("rxe-rxe", "ecpix5-rxe"):
            stale = stale_sources(FROCE_KO, [os.path.join(ROOT, "driver"),
                                             os.path.join(ROOT, "include")])
            if stale:
                self.log("warning: %s is older than %s (run sim/uml/build-kernel.sh)"
                         % (os.path.relpath(FROCE_KO, ROOT),
                            ", ".join(os.path.relpath(p, ROOT) for p in stale[:3])))
        for path in (ROOT, PROVIDER):
            if re.search(r"\s", path):
                raise Failure("path %r contains whitespace" % path)

        if self.args.keep:
            self.run_dir = os.path.abspath(self.args.keep)
            if os.path.exists(self.run_dir) and os.listdir(self.run_dir):
                raise Failure("run directory %s exists and is not empty" % self.run_dir)
        else:
            base = os.path.join(ROOT, "build", "cosim")
            os.makedirs(base, exist_ok=True)
            self.run_dir = tempfile.mkdtemp(prefix=self.topology + "-", dir=base)
        problems = check_run_dir(self.run_dir)
        if problems:
            raise Failure("run directory %s: %s" % (self.run_dir, "; ".join(problems)))
        os.makedirs(os.path.join(self.run_dir, "sync"), exist_ok=True)
        # UML's memory files must be on a tmpfs
        self.shm = tempfile.mkdtemp(prefix="froce-cosim-", dir="/dev/shm")
        os.makedirs(os.path.join(self.shm, "tmp"))
        os.makedirs(os.path.join(self.shm, "uml"))

        cpus = sorted(os.sched_getaffinity(0))
        c_sim, c_guest = cpus[0], cpus[-1]
        if self.topology == "rxe-rxe":
            a = Guest("A", "rxe", "10.77.0.1", "10.77.0.2", cpus[0])
            b = Guest("B", "rxe", "10.77.0.2", "10.77.0.1", cpus[-1])
        elif self.topology == "ecpix5-rxe":
            a = None
            b = Guest("B", "rxe", "10.77.0.2", BOARD_IP, c_guest)
        else:
            a = Guest("A", "froce", "10.77.0.1", "10.77.0.2", c_guest)
            b = Guest("B", "froce" if self.topology == "froce-froce" else "rxe",
                      "10.77.0.2", "10.77.0.1", c_guest)
        self.sim_cpu = c_sim
        self.guests = {g.name: g for g in (a, b) if g is not None}
        for s in self.steps:
            self.guests[s.guest].steps.append(s)
        for sel in self.args.inject_fail or []:
            s = select_step(self.steps, sel)
            s.command += " && exit 3"
            self.log("injected failure: step %d %s exits 3" % (s.num, s.label))
        if self.args.step_timeout:
            for s in self.steps:
                s.timeout = self.args.step_timeout
        for sel in self.args.inject_hang or []:
            # Only the hung step gets the short timeout: a global one would let a
            # slow earlier step on a busy machine time out first.
            s = select_step(self.steps, sel)
            s.command += "; sleep 100000"
            s.timeout = INJECTED_HANG_TIMEOUT
            self.log("injected failure: step %d %s hangs (timeout %d s)"
                     % (s.num, s.label, s.timeout))
        for sel in self.args.inject_calib or []:
            s = select_step(self.steps, sel)
            s.command += " && echo 'Correlation coefficient r^2: 0 < 0.9 (injected)' >&2"
            self.log("injected: step %d %s reports perftest's calibration failure"
                     % (s.num, s.label))
        for sel in self.args.inject_expect or []:
            s = select_step(self.steps, sel)
            s.expects.append(INJECTED_EXPECT)
            self.log("injected failure: step %d %s expects a string that never appears"
                     % (s.num, s.label))
        for g in self.guests.values():
            d = os.path.join(self.run_dir, g.name)
            os.makedirs(d)
            with open(os.path.join(d, "steps"), "w") as f:
                for s in g.steps:
                    f.write(s.line())

    # ---- processes
    def start_sim(self, socks, wire_fd=None):
        ready = os.path.join(self.shm, "sim.ready")
        cmd = ["taskset", "-c", str(self.sim_cpu), self.sim_bin]
        for s in socks:
            cmd += ["--sock", s]
        cmd += ["--ready-file", ready]
        fds = ()
        if wire_fd is not None:
            cmd += ["--wire-fd", str(wire_fd)]
            fds = (wire_fd,)
        if self.args.pcap:
            cmd += ["--pcap", os.path.join(self.run_dir, "wire.pcap")]
        if self.args.drop_pct:
            cmd += ["--drop-pct", "%g" % self.args.drop_pct]
        self.sim_log = os.path.join(self.run_dir, "froce-uml-sim.log")
        self.log("starting %s" % " ".join(cmd[3:]))
        with open(self.sim_log, "w") as log:
            self.sim = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                        pass_fds=fds, start_new_session=True)
        deadline = time.monotonic() + 30
        while not os.path.exists(ready):
            if self.sim.poll() is not None:
                raise Failure("froce-uml-sim exited with %d before it was ready (log: %s)"
                              % (self.sim.returncode, self.sim_log))
            if time.monotonic() > deadline:
                raise Failure("froce-uml-sim not ready after 30 s")
            time.sleep(0.05)
        self.log("froce-uml-sim ready")

    def mhz(self):
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("cpu MHz"):
                    return line.split(":")[1].strip()
        return "1000.000"

    def lpj(self):
        """loops_per_jiffy for the host's clock: UML calibrates its delay loop
        at boot, and on a busy host it measures a fraction of the CPU (seen:
        28 %), which makes every udelay() that much shorter - among them the
        ~40000 x udelay(1) virt-pci waits for an MMIO read before it gives
        up (about 11 ms instead of 40). Its loop is one iteration per cycle."""
        hz = 100
        try:
            with open(os.path.join(os.path.dirname(self.kernel), ".config")) as f:
                for line in f:
                    if line.startswith("CONFIG_HZ="):
                        hz = int(line.split("=")[1])
        except (OSError, ValueError):
            pass
        return int(float(self.mhz()) * 1e6 / hz)

    def kernel_cmdline(self, g):
        words = ["umid=%s%s" % (self.umid, g.name), "uml_dir=" + os.path.join(self.shm, "uml"),
                 "mem=" + GUEST_MEM, "rootfstype=hostfs", "rootflags=/", "rw", "init=" + INIT,
                 "con0=null,fd:1", "con=null", "ssl=null", "lpj=%d" % self.lpj()] + g.extra
        env = {"COSIM_RUN": self.run_dir, "COSIM_GUEST": g.name, "COSIM_ROLE": g.role,
               "COSIM_IP": g.ip, "COSIM_PEER": g.peer, "COSIM_MHZ": self.mhz(),
               "COSIM_MTU": str(VEC_MTU.get(self.topology, 1500)),
               "COSIM_WAIT": str(self.guest_wait(g))}
        if g.role == "froce":
            env["COSIM_KO"] = FROCE_KO
            env["COSIM_PROVIDER"] = PROVIDER
        words += ["%s=%s" % kv for kv in sorted(env.items())]
        for w in words:
            if re.search(r"\s", w):
                raise Failure("whitespace in kernel command line word %r" % w)
        return words

    def start_guest(self, g):
        cmd = ["taskset", "-c", str(g.cpu), self.kernel] + self.kernel_cmdline(g)
        env = dict(os.environ, TMPDIR=os.path.join(self.shm, "tmp"))
        g.console = os.path.join(self.run_dir, g.name + ".console")
        with open(g.console, "w") as log:
            g.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log,
                                      stderr=subprocess.STDOUT, env=env, pass_fds=g.fds,
                                      start_new_session=True)
        g.started = time.monotonic()
        self.log("guest %s (%s, %s) started on cpu %d" % (g.name, g.role, g.ip, g.cpu))

    def start(self):
        if self.topology == "ecpix5-rxe":
            self.start_board()
            return
        a, b = self.guests["A"], self.guests["B"]
        socks = []
        if self.topology == "rxe-rxe" and self.args.drop_pct:
            pa, pb = self.socketpair()
            qa, qb = self.socketpair()
            self.vec(a, pa, 1)
            self.vec(b, qb, 2)
            # the relay keeps its ends
            self.held = [x for x in self.held if x not in (pb, qa)]
            self.relay = LossyRelay(pb, qa, self.args.drop_pct)
            self.relay.start()
            self.log("rxe-rxe through a relay losing %g %% of the frames" % self.args.drop_pct)
        elif self.topology == "rxe-rxe":
            pa, pb = self.socketpair()
            self.vec(a, pa, 1)
            self.vec(b, pb, 2)
        elif self.topology == "froce-froce":
            socks = [os.path.join(self.shm, "nic%d.sock" % i) for i in (1, 2)]
            self.start_sim(socks)
            a.extra.append("virtio_uml.device=%s:%d" % (socks[0], VIRTIO_DEVICE_ID))
            b.extra.append("virtio_uml.device=%s:%d" % (socks[1], VIRTIO_DEVICE_ID))
        else:
            socks = [os.path.join(self.shm, "nic1.sock")]
            pa, pb = self.socketpair()
            self.start_sim(socks, wire_fd=pa.fileno())
            pa.close()
            a.extra.append("virtio_uml.device=%s:%d" % (socks[0], VIRTIO_DEVICE_ID))
            self.vec(b, pb, 2)
        for g in (a, b):
            self.start_guest(g)
        # the children hold their ends now
        for s in self.held:
            s.close()
        self.held = []

    def start_board(self):
        """the simulated ECPIX-5: its RGMII line is guest B's vec0, its UART
        guest B's second serial line (/dev/ttyS1)"""
        b = self.guests["B"]
        wire_sim, wire_guest = self.socketpair()
        uart_sim, uart_guest = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        for s in (uart_sim, uart_guest):
            s.set_inheritable(True)
        self.held += [uart_sim, uart_guest]
        ready = os.path.join(self.shm, "sim.ready")
        cmd = ["taskset", "-c", str(self.sim_cpu), ECPIX5_SIM, "--uart-fd", str(uart_sim.fileno()),
               "--wire-fd", str(wire_sim.fileno()), "--ready-file", ready]
        if self.args.pcap:
            cmd += ["--pcap", os.path.join(self.run_dir, "wire.pcap")]
        self.sim_log = os.path.join(self.run_dir, "froce-ecpix5-sim.log")
        self.log("starting %s" % " ".join(cmd[3:]))
        with open(self.sim_log, "w") as log:
            self.sim = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                        pass_fds=(uart_sim.fileno(), wire_sim.fileno()),
                                        start_new_session=True)
        deadline = time.monotonic() + 30
        while not os.path.exists(ready):
            if self.sim.poll() is not None:
                raise Failure("froce-ecpix5-sim exited with %d before it was ready (log: %s)"
                              % (self.sim.returncode, self.sim_log))
            if time.monotonic() > deadline:
                raise Failure("froce-ecpix5-sim not ready after 30 s")
            time.sleep(0.05)
        b.fds.append(uart_guest.fileno())
        b.extra.append("ssl1=fd:%d" % uart_guest.fileno())
        self.vec(b, wire_guest, 2)
        self.start_guest(b)
        for s in self.held:
            s.close()
        self.held = []

    def socketpair(self):
        pa, pb = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        for s in (pa, pb):
            s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
            s.set_inheritable(True)
        self.held += [pa, pb]
        return pa, pb

    def vec(self, g, sock, n):
        g.fds.append(sock.fileno())
        g.extra.append("vec0:transport=fd,fd=%d,mac=02:00:00:77:00:%02x,mtu=%d"
                       % (sock.fileno(), n, VEC_MTU[self.topology]))

    # ---- monitoring
    def gpath(self, g, name):
        return os.path.join(self.run_dir, g.name, name)

    def read(self, path):
        try:
            with open(path, errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def console_tail(self, g, n=30):
        text = self.read(getattr(g, "console", "")) or ""
        lines = text.splitlines()[-n:]
        return "\n".join("    | " + l for l in lines)

    def fail(self, step, status, message, detail=None):
        """stop the run: message names the step; detail (default message) goes in the table"""
        if step is not None:
            step.status = status
            step.detail = detail or message
        raise Failure(message)

    def finish_step(self, g, s, rc_text):
        rc, secs = parse_rc(rc_text)
        s.rc, s.seconds = rc, secs
        out = self.read(self.gpath(g, "%d.out" % s.num)) or ""
        fmt = {"dev": g.setup.get("DEV", "?"), "netdev": g.setup.get("NETDEV", "?"),
               "gidx": g.setup.get("GIDX", "?"), "ip": g.ip,
               "gidline": gid_line(g.setup.get("GIDX", "?"), g.ip)}
        expects = [e.format(**fmt) for e in s.expects]
        missing = missing_expectations(out, expects)
        # after a calibration retry (guest-init.sh) only the last attempt counts
        retries = out.count(RETRY_MARK)
        last = out.rsplit(RETRY_MARK, 1)[-1]
        table_error = check_perftest(last, *s.table) if s.table and rc == 0 else None
        print("==== [step %d/%d] guest %s: %s ====" % (s.num, len(self.steps), g.name,
                                                      self.shown(g, s.command)), flush=True)
        sys.stdout.write(out if out.endswith("\n") or not out else out + "\n")
        if rc == 124:
            s.status, s.detail = "TIMEOUT", "timed out after %d s" % s.timeout
        elif rc != 0:
            s.status, s.detail = "FAIL", "exit %d" % rc
        elif missing:
            s.status = "FAIL"
            s.detail = "missing: " + ", ".join(repr(m) for m in missing)
        elif table_error:
            s.status, s.detail = "FAIL", table_error
        else:
            s.status, s.detail = "ok", ""
        if retries:
            note = "%d retr%s after perftest's clock calibration failed" % (
                retries, "y" if retries == 1 else "ies")
            s.detail = note + ("; " + s.detail if s.detail else "")
        print("---- exit %d, %.2f s, %s%s ----" % (rc, secs, s.status,
                                                    (": " + s.detail) if s.detail else ""),
              flush=True)
        self.log("step %d/%d %s %s: %s (%.2f s)" % (s.num, len(self.steps), g.name, s.name,
                                                   s.status, secs))
        if s.status != "ok":
            self.fail(s, s.status, "step %d (%s) %s" % (s.num, s.label, s.detail), s.detail)

    def shown(self, g, command):
        """command with the guest's variables filled in, as it ran"""
        env = dict(g.setup or {}, PEER=g.peer, IP=g.ip, TOOLS="sim/uml")
        return re.sub(r"\$([A-Z]+)", lambda m: env.get(m.group(1), m.group(0)), command)

    def poll_guest(self, g, now):
        exited = g.proc.poll() is not None   # before reading its files: they are final then
        if not g.booted:
            t = self.read(self.gpath(g, "booted"))
            if t is not None:
                g.booted = True
                self.log("guest %s: boot done in %.1f s (guest uptime %s s)"
                         % (g.name, now - g.started, t.strip()))
            elif now - g.started > self.boot_timeout(g):
                self.fail(None, "", "guest %s did not boot in %d s\n%s"
                          % (g.name, self.boot_timeout(g), self.console_tail(g)))
        if g.booted and g.setup is None:
            t = self.read(self.gpath(g, "setup"))
            fail = self.read(self.gpath(g, "setup.fail"))
            if fail is not None:
                self.fail(None, "", "guest %s setup failed: %s\n%s"
                          % (g.name, fail.strip(), self.console_tail(g)))
            if t is not None:
                g.setup = parse_setup(t)
                self.log("guest %s: setup done in %.1f s: %s" % (
                    g.name, now - g.started,
                    " ".join("%s=%s" % kv for kv in sorted(g.setup.items()))))
            elif now - g.started > 60 + 4 * self.guest_wait(g):
                self.fail(None, "", "guest %s: no setup after %.0f s"
                          % (g.name, now - g.started))
        while g.setup is not None and g.next < len(g.steps):
            s = g.steps[g.next]
            rc = self.read(self.gpath(g, "%d.rc" % s.num))
            if rc is None:
                st = self.read(self.gpath(g, "%d.start" % s.num))
                if st is not None:
                    if s.status == "not run":
                        s.status = "running"
                        s.t_start = now
                    if now - s.t_start > s.timeout + 30:
                        self.fail(s, "TIMEOUT", "step %d (%s) still running after %d s"
                                  % (s.num, s.label, s.timeout + 30))
                break
            self.finish_step(g, s, rc)
            g.next += 1
        if exited and (g.setup is None or g.next < len(g.steps)):
            s = g.steps[g.next] if g.setup is not None else None
            self.fail(s, "FAIL", "guest %s exited (%d) %s\n%s" % (
                g.name, g.proc.returncode,
                "during step %d (%s)" % (s.num, s.label) if s else "before its setup finished",
                self.console_tail(g)))

    def boot_timeout(self, g):
        """seconds from start to init (PCI enumeration over the simulator is slow)"""
        return 120 if g.role == "rxe" else 300

    def guest_wait(self, g):
        """seconds the guest waits for its device, port and GID"""
        if self.args.setup_wait:
            return self.args.setup_wait
        return 60 if g.role == "rxe" else 600

    def monitor(self):
        deadline = self.t0 + self.args.timeout
        while True:
            now = time.monotonic()
            if now > deadline:
                running = [s for s in self.steps if s.status == "running"]
                self.fail(running[0] if running else None, "TIMEOUT",
                          "overall timeout of %d s%s" % (
                              self.args.timeout,
                              " during step %d (%s)" % (running[0].num, running[0].label)
                              if running else ""))
            if self.sim is not None and self.sim.poll() is not None:
                # it exits 0 once every front end disconnected: fine after the froce
                # guests powered off (the other guest may still be finishing its step)
                alive = [g.name for g in self.guests.values()
                         if (g.role == "froce" or self.topology == "ecpix5-rxe")
                         and g.proc.poll() is None]
                if self.sim.returncode != 0 or alive:
                    self.fail(None, "", "the simulator exited with %d while guest(s) %s ran "
                              "(log: %s)" % (self.sim.returncode, ",".join(alive) or "-",
                                             self.sim_log))
            for g in self.guests.values():
                self.poll_guest(g, now)
            if all(g.next == len(g.steps) for g in self.guests.values()):
                return
            time.sleep(0.1)

    def shutdown(self):
        """after success: guests power off, then the simulator exits by itself"""
        for g in self.guests.values():
            try:
                g.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.fail(None, "", "guest %s did not power off in 30 s" % g.name)
            self.log("guest %s powered off (exit %d)" % (g.name, g.proc.returncode))
        if self.sim is not None:
            try:
                rc = self.sim.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.fail(None, "", "the simulator still running 30 s after the guests ended")
            if rc != 0:
                self.fail(None, "", "the simulator exited with %d (log: %s)"
                          % (rc, self.sim_log))
            self.log("the simulator exited 0")

    def kill_all(self):
        guests = [g.proc for g in self.guests.values() if g.proc is not None]
        self.kill(guests)
        if self.sim is not None and self.sim.poll() is None:
            # SIGTERM first: the simulator closes its pcap and log itself
            self.sim.terminate()
            try:
                self.sim.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill([self.sim])
        # UML's helper processes (same command line) may take a moment to go
        for _ in range(50):
            left = self.leftovers()
            if not left:
                break
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.1)

    def kill(self, procs):
        """SIGKILL each process's group (each was started in its own session)"""
        for p in procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass

    def leftovers(self):
        """pids whose command line carries this run's private tmpfs directory
        (every guest and the simulator have it there: uml_dir=, --ready-file)"""
        found = []
        if not self.shm:
            return found
        mine = [self.shm.encode() + b"/"]
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open("/proc/%s/cmdline" % d, "rb") as f:
                    cmdline = f.read()
            except OSError:
                continue
            if any(m in cmdline for m in mine):
                found.append(int(d))
        return found

    def diagnostics(self):
        """after a failure: what the steps still running printed so far, the end
        of every console and of the simulator's log"""
        for s in self.steps:
            if s.status != "running":
                continue
            g = self.guests[s.guest]
            text = "".join(self.read(self.gpath(g, "%d.%s" % (s.num, f))) or ""
                           for f in ("out", "attempt"))
            print("---- step %d (%s) was still running; its output so far ----" % (s.num, s.label))
            print("\n".join("    | " + l for l in text.splitlines()[-40:]))
        for g in self.guests.values():
            if getattr(g, "console", None):
                print("---- last lines of guest %s's console (%s) ----" % (g.name, g.console))
                print(self.console_tail(g, 20))
        if self.sim_log:
            text = self.read(self.sim_log) or ""
            print("---- last lines of %s ----" % self.sim_log)
            print("\n".join("    | " + l for l in text.splitlines()[-20:]))
        sys.stdout.flush()

    def cleanup(self):
        self.kill_all()
        for s in self.held:
            s.close()
        if self.relay:
            self.relay.halt = True
            self.relay.join(2)
            for x in self.relay.socks:
                x.close()
            self.log("relay: %d frames passed, %d dropped" % (self.relay.passed, self.relay.dropped))
        left = self.leftovers()
        if self.shm:
            shutil.rmtree(self.shm, ignore_errors=True)
        if self.run_dir:
            if self.args.keep:
                self.log("run directory kept: %s" % self.run_dir)
            else:
                shutil.rmtree(self.run_dir, ignore_errors=True)
        if left:
            self.log("processes left after the run: %s" % left)
            return "processes left after the run: %s" % left
        return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--topology", required=True, choices=TOPOLOGIES)
    ap.add_argument("--short", action="store_true", help="ibv_devinfo, rc_pingpong, short ib_write_bw")
    ap.add_argument("--bw", type=bw_arg, metavar="SIZE:ITERS",
                    help="ib_write_bw/ib_read_bw/ib_send_bw message size and iterations (e.g. 1048576:20)")
    ap.add_argument("--keep", metavar="RUN_DIR", help="use and keep this run directory")
    ap.add_argument("--timeout", type=int, help="overall timeout, seconds")
    ap.add_argument("--list", action="store_true", help="print the steps and exit")
    ap.add_argument("--setup-wait", type=int, metavar="S",
                    help="how long a guest waits for its device, port and GID "
                         "(default 60 s with rxe, 600 s with froce)")
    ap.add_argument("--pcap", action="store_true", help="froce-uml-sim writes RUN_DIR/wire.pcap")
    ap.add_argument("--drop-pct", type=float, default=0.0, metavar="P",
                    help="lose P %% of the frames on the wire (froce topologies: froce-uml-sim's "
                         "fault injector; rxe-rxe: a relay in this script)")
    ap.add_argument("--board", choices=BOARDS, default="core",
                    help="the simulated NICs of the froce topologies: the bare froce_core (core) or the "
                         "Alveo U200 board core around it (alveo: froce-uml-sim-alveo)")
    ap.add_argument("--inject-fail", action="append", metavar="STEP",
                    help="make STEP (number or GUEST:NAME prefix) exit 3 (harness self-test)")
    ap.add_argument("--step-timeout", type=int, metavar="S",
                    help="every step's timeout (default: by topology and --short)")
    ap.add_argument("--inject-hang", action="append", metavar="STEP",
                    help="make STEP hang after its command, with a timeout of %d s "
                         "(harness self-test)" % INJECTED_HANG_TIMEOUT)
    ap.add_argument("--inject-calib", action="append", metavar="STEP",
                    help="make a perftest STEP report a clock calibration failure "
                         "(the pair is retried; harness self-test)")
    ap.add_argument("--inject-expect", action="append", metavar="STEP",
                    help="add an expected string STEP never prints (harness self-test)")
    args = ap.parse_args(argv)
    if args.topology == "ecpix5-rxe" and args.drop_pct:
        ap.error("--drop-pct: not with ecpix5-rxe (the board's simulator has no fault injector)")
    if args.board != "core" and args.topology not in ("froce-froce", "froce-rxe"):
        ap.error("--board %s: only with froce-froce and froce-rxe" % args.board)
    if args.timeout is None:
        args.timeout = {"rxe-rxe": 600}.get(args.topology, 7200)
        if args.short:
            args.timeout //= 2

    if args.list:
        for s in plan(args.topology, args.short, args.bw, args.drop_pct > 0):
            print("%3d  %s  %-6s  %4d s  %s" % (s.num, s.guest, s.kind, s.timeout, s.command))
        return 0

    run = Run(args)
    run.log("cosim %s%s%s: %d steps" % (args.topology, " (short)" if args.short else "",
                                        ", board %s" % args.board if args.board != "core" else "",
                                        len(run.steps)))

    def on_signal(signum, frame):
        raise Failure("interrupted by signal %d" % signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    ok = False
    error = None
    try:
        run.prepare()
        run.log("run directory %s, UML memory in %s" % (run.run_dir, run.shm))
        run.start()
        run.monitor()
        run.shutdown()
        ok = True
    except Failure as e:
        error = str(e)
        run.log("FAILED: " + error)
        run.diagnostics()
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        left = run.cleanup()
    if left:
        ok = False
        error = error or left
    if left:
        run.log("FAILED: " + left)
    for s in run.steps:
        if s.status == "running":
            s.status = "killed"
    print()
    for line in summary_lines(args.topology, run.steps)[:-1]:
        print(line)
    if error:
        print("failed: " + error.splitlines()[0])
    passed, failed = count(run.steps)
    if not ok and failed == 0:
        failed = 1   # a failure outside the steps (boot, setup, simulator) still fails the run
    print("cosim %s: %d passed, %d failed" % (args.topology, passed, failed))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
