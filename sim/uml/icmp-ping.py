#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A minimal IPv4 ping for the co-simulation guests (the host has no ping
binary installed; guests run the host's userland). Needs CAP_NET_RAW.

  icmp-ping.py [-c COUNT] [-w DEADLINE] [-i INTERVAL] HOST

Sends echo requests until COUNT replies arrived or DEADLINE seconds passed;
exit 0 when COUNT replies arrived, 1 otherwise."""
import argparse
import os
import socket
import struct
import sys
import time


def checksum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def echo_request(ident, seq, payload):
    hdr = struct.pack("!BBHHH", 8, 0, 0, ident, seq)
    csum = checksum(hdr + payload)
    return struct.pack("!BBHHH", 8, 0, csum, ident, seq) + payload


def parse_reply(packet, ident):
    """(seq, ttl) of an echo reply with our identifier in an IPv4 packet, else None"""
    if len(packet) < 20:
        return None
    ihl = (packet[0] & 0x0F) * 4
    icmp = packet[ihl:ihl + 8]
    if len(icmp) < 8:
        return None
    typ, code, _, rid, seq = struct.unpack("!BBHHH", icmp)
    if typ != 0 or code != 0 or rid != ident:
        return None
    return seq, packet[8]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-c", type=int, default=3, help="replies wanted")
    ap.add_argument("-w", type=float, default=10, help="deadline, seconds")
    ap.add_argument("-i", type=float, default=0.5, help="interval, seconds")
    ap.add_argument("host")
    a = ap.parse_args()
    addr = socket.gethostbyname(a.host)
    sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    ident = os.getpid() & 0xFFFF
    payload = b"froce-cosim-ping" * 3
    sent = {}
    got = 0
    seq = 0
    start = time.monotonic()
    next_send = start
    print("PING %s: %d data bytes" % (addr, len(payload)), flush=True)
    while got < a.c and time.monotonic() - start < a.w:
        now = time.monotonic()
        if now >= next_send:
            seq += 1
            sent[seq] = now
            sock.sendto(echo_request(ident, seq, payload), (addr, 0))
            next_send = now + a.i
        sock.settimeout(max(0.01, min(next_send, start + a.w) - time.monotonic()))
        try:
            packet, src = sock.recvfrom(65535)
        except socket.timeout:
            continue
        r = parse_reply(packet, ident)
        if r is None or src[0] != addr or r[0] not in sent:
            continue
        ms = (time.monotonic() - sent.pop(r[0])) * 1000
        got += 1
        print("%d bytes from %s: icmp_seq=%d ttl=%d time=%.2f ms"
              % (len(packet) - (packet[0] & 0x0F) * 4, addr, r[0], r[1], ms), flush=True)
    print("--- %s: %d packets transmitted, %d received" % (addr, seq, got))
    return 0 if got >= a.c else 1


if __name__ == "__main__":
    sys.exit(main())
