#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Unit tests of the pure parts of sim/uml/cosim.py (no UML needed):
  python3 sim/uml/test_cosim.py"""
import contextlib
import io
import os
import sys
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cosim  # noqa: E402

DEVINFO = ("hca_id:\trxe0\n\ttransport:\t\t\tInfiniBand (0)\n"
           "\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
           "\t\t\tlink_layer:\t\tEthernet\n"
           "\t\t\tGID[  0]:\t\tfe80::ff:fe77:2, RoCE v2\n"
           "\t\t\tGID[  1]:\t\t::ffff:10.77.0.2, RoCE v2\n")

BW = """\
---------------------------------------------------------------------------------------
 #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]
 65536      2000             3.35               3.33   \t\t   0.006356
---------------------------------------------------------------------------------------
"""
BW_ZERO = BW.replace("3.33", "0.00")
LAT = """\
 #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] 
 64      2000          34.29          2698.27      39.64    \t       88.87       \t298.72 \t\t2258.41 \t\t2686.03
---------------------------------------------------------------------------------------
"""


class Checks(unittest.TestCase):
    def test_expectations_ignore_whitespace(self):
        exp = ["hca_id: rxe0", "state: PORT_ACTIVE", "link_layer: Ethernet",
               cosim.gid_line(1, "10.77.0.2")]
        self.assertEqual(cosim.missing_expectations(DEVINFO, exp), [])

    def test_missing_expectations_reported(self):
        self.assertEqual(cosim.missing_expectations(DEVINFO, ["hca_id: froce0", "Ethernet"]),
                         ["hca_id: froce0"])
        # the IPv4 GID at another index is not the one expected
        self.assertEqual(cosim.missing_expectations(DEVINFO, [cosim.gid_line(0, "10.77.0.2")]),
                         [cosim.gid_line(0, "10.77.0.2")])

    def test_gid_line(self):
        self.assertEqual(cosim.gid_line("1", "10.77.0.1"), "GID[  1]: ::ffff:10.77.0.1, RoCE v2")
        self.assertEqual(cosim.gid_line(100, "10.0.0.1"), "GID[100]: ::ffff:10.0.0.1, RoCE v2")

    def test_perftest_bw(self):
        rows = cosim.perftest_rows(BW)
        self.assertEqual(rows, [{"#bytes": "65536", "#iterations": "2000",
                                 "BW peak[Gb/sec]": "3.35", "BW average[Gb/sec]": "3.33",
                                 "MsgRate[Mpps]": "0.006356"}])
        self.assertIsNone(cosim.check_perftest(BW, 65536, "BW average[Gb/sec]"))
        self.assertIn("is 0.00", cosim.check_perftest(BW_ZERO, 65536, "BW average[Gb/sec]"))
        self.assertIn("no result row", cosim.check_perftest(BW, 4096, "BW average[Gb/sec]"))
        self.assertIn("no perftest", cosim.check_perftest("Waiting for client", 1, "x"))

    def test_perftest_lat(self):
        rows = cosim.perftest_rows(LAT)
        self.assertEqual(rows[0]["t_avg[usec]"], "88.87")
        self.assertEqual(rows[0]["99.9% percentile[usec]"], "2686.03")
        self.assertIsNone(cosim.check_perftest(LAT, 64, "t_avg[usec]"))

    def test_records(self):
        self.assertEqual(cosim.parse_rc("0 100.5 102.0\n"), (0, 1.5))
        self.assertEqual(cosim.parse_rc("124 1 61")[0], 124)
        with self.assertRaises(ValueError):
            cosim.parse_rc("0")
        self.assertEqual(cosim.parse_setup("DEV=rxe0\nNETDEV=vec0\nGIDX=1\n"),
                         {"DEV": "rxe0", "NETDEV": "vec0", "GIDX": "1"})

    def test_run_dir(self):
        # the default place: under the checkout, wherever that is
        self.assertEqual(cosim.check_run_dir(os.path.join(cosim.ROOT, "build", "cosim", "r")), [])
        for bad in ("/dev/shm/r", "/proc/r", "/mnt/r", "/etc/libibverbs.d/r", "rel/dir",
                    os.path.join(cosim.ROOT, "a b")):
            self.assertTrue(cosim.check_run_dir(bad), bad)
        # kept visible by guest-tmpfs.sh
        for good in ("/tmp/x/build/cosim/r", "/run/r", "/var/tmp/r", "/tmpfoo/r"):
            self.assertEqual(cosim.check_run_dir(good), [], good)


class Stale(unittest.TestCase):
    def test_stale_sources(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "src")
            os.makedirs(src)
            for name, mtime in (("old.c", 100), ("new.h", 300), ("new.txt", 300)):
                with open(os.path.join(src, name), "w"):
                    pass
                os.utime(os.path.join(src, name), (mtime, mtime))
            ko = os.path.join(d, "froce.ko")
            open(ko, "w").close()
            os.utime(ko, (200, 200))
            self.assertEqual(cosim.stale_sources(ko, [src]), [os.path.join(src, "new.h")])
            self.assertEqual(cosim.stale_sources(os.path.join(d, "none.ko"), [src]), [])


def simulate(steps):
    """run the guests' step lists with the server/client rule; True if all finish"""
    lists = {g: [s for s in steps if s.guest == g] for g in cosim.GUEST_NAMES}
    pos = {g: 0 for g in lists}
    listening, done = set(), set()
    progress = True
    while progress:
        progress = False
        for g, lst in lists.items():
            if pos[g] == len(lst):
                continue
            s = lst[pos[g]]
            if s.kind == "run":
                ok = True
            elif s.kind == "server":
                listening.add(s.sync)
                ok = s.sync in done
            else:
                ok = s.sync in listening
                if ok:
                    done.add(s.sync)
            if ok:
                pos[g] += 1
                progress = True
    return all(pos[g] == len(lists[g]) for g in lists)


class Plan(unittest.TestCase):
    def test_plans(self):
        for topo in cosim.TOPOLOGIES:
            for short in (False, True):
                steps = cosim.plan(topo, short)
                self.assertEqual([s.num for s in steps], list(range(1, len(steps) + 1)))
                for s in steps:
                    s.line()   # no tab or newline in any field
                servers = [s for s in steps if s.kind == "server"]
                clients = [s for s in steps if s.kind == "client"]
                self.assertEqual(len(servers), len(clients))
                for srv in servers:
                    cl = [c for c in clients if c.sync == srv.sync]
                    self.assertEqual(len(cl), 1)
                    self.assertNotEqual(cl[0].guest, srv.guest)
                    self.assertTrue(cl[0].command.endswith(" $PEER"))
                self.assertEqual(len({s.sync for s in servers}), len(servers))
                self.assertTrue(simulate(steps), (topo, short))
                if topo == "ecpix5-rxe":
                    continue
                # each tool runs in both directions
                for tool in ("ibv_rc_pingpong", "ib_write_bw"):
                    self.assertEqual({s.guest for s in servers if s.command.startswith(tool)},
                                     {"A", "B"})

    def test_board_plan(self):
        # one guest (the PC); the PC's own ibv_rc_pingpong against froce-pingpong,
        # each as server once, the client to localhost
        for short in (False, True):
            steps = cosim.plan("ecpix5-rxe", short)
            self.assertEqual({s.guest for s in steps}, {"B"})
            pp = [s for s in steps if "froce-pingpong" in s.command]
            self.assertEqual(len(pp), 2)
            for s in pp:
                self.assertIn("ibv_rc_pingpong -d $DEV -g $GIDX", s.command)
                self.assertIn(cosim.BOARD_LINK, s.command)
            self.assertTrue(pp[0].command.startswith("ibv_rc_pingpong"))
            self.assertTrue(pp[1].command.startswith("FROCE_UART_TIMEOUT_MS=5000 " + cosim.FROCE_PINGPONG))
            self.assertEqual(sum(s.command.count(" localhost") for s in pp), 2)

    def test_short_plan(self):
        tools = {s.command.split()[0] for s in cosim.plan("rxe-rxe", True)}
        self.assertEqual(tools, {"ibv_devinfo", "ibv_rc_pingpong", "ib_write_bw"})
        full = {s.command.split()[0] for s in cosim.plan("froce-rxe", False)}
        self.assertTrue({"rdma", "ibv_devices", "ping", "ethtool", "ib_read_bw", "ib_send_bw",
                         "ib_write_lat"} <= full)

    def test_simulate_detects_deadlock(self):
        steps = cosim.plan("rxe-rxe", True)
        # swap the order on one guest: A waits as a client for B, B for A
        a = [s for s in steps if s.guest == "A" and s.kind != "run"]
        a[0].kind, a[1].kind = a[1].kind, a[0].kind
        a[0].sync, a[1].sync = a[1].sync, a[0].sync
        self.assertFalse(simulate(steps))

    def test_select_step(self):
        steps = cosim.plan("rxe-rxe", True)
        self.assertEqual(cosim.select_step(steps, "3").num, 3)
        self.assertEqual(cosim.select_step(steps, "B:ib_write_bw").num, 8)
        with self.assertRaises(SystemExit):
            cosim.select_step(steps, "C:nothing")

    def test_counts(self):
        steps = cosim.plan("rxe-rxe", True)
        steps[0].status, steps[1].status, steps[2].status = "ok", "FAIL", "killed"
        self.assertEqual(cosim.count(steps), (1, 1))
        self.assertEqual(cosim.summary_lines("rxe-rxe", steps)[-1],
                         "cosim rxe-rxe: 1 passed, 1 failed")

    def test_list(self):
        buf = io.StringIO()
        with redirect_stdout(buf):
            self.assertEqual(cosim.main(["--topology", "froce-froce", "--list"]), 0)
        self.assertIn("ib_write_lat", buf.getvalue())

    def test_board_option(self):
        """--board alveo picks froce-uml-sim-alveo, only for the froce topologies"""
        buf = io.StringIO()
        with redirect_stdout(buf):
            self.assertEqual(cosim.main(["--topology", "froce-rxe", "--board", "alveo", "--list"]), 0)
        self.assertIn("ib_write_bw", buf.getvalue())
        with redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            with self.assertRaises(SystemExit):
                cosim.main(["--topology", "rxe-rxe", "--board", "alveo", "--list"])
        args = type("Args", (), {"topology": "froce-froce", "short": True, "bw": None, "drop_pct": 0.0,
                                 "board": "alveo"})()
        self.assertEqual(cosim.Run(args).sim_bin, cosim.SIM_ALVEO)
        args.board = "core"
        self.assertEqual(cosim.Run(args).sim_bin, cosim.SIM)


if __name__ == "__main__":
    unittest.main()
