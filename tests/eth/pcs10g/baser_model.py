# SPDX-License-Identifier: MIT
"""Our own model of the 10GBASE-R line side: 64B/66B blocks (IEEE 802.3 Clause 49).

Written from the standard (Table 49-1 control codes, Table 49-7 block
formats, 49.2.6 scrambler, 49.2.13 T_TYPE/R_TYPE and the receive state
machine of Figure 49-15), for the benches of our PCS and MAC. It talks to
cocotbext-eth's XgmiiFrame on the frame side.

Conventions (the ones of docs/ethernet-pcs10g.md, "Bit order"):

  payload   64-bit int, bit i = the i-th payload bit on the line; the block
            type field is payload[7:0], data lane j of a data block is
            payload[8j+7:8j], the control code of lane i is
            payload[8+7i +: 7] in every control block
  hdr       2-bit int, hdr[0] = the first header bit on the line: the data
            header "01" is 0b10 (SYNC_DATA), the control header "10" is
            0b01 (SYNC_CTRL)
  reverse   the GT bus order with BIT_REVERSE = 1: data[63] first (the
            payload mirrored) and the two header bits swapped

Layers, each usable alone (the unit tests in test_pcs10g.py do):

  encode_word / decode_block      one XGMII word <-> one 66-bit block
  Scrambler / Descrambler         x^58 + x^39 + 1 over the payload
  LaneScheduler                   frames -> XGMII words (gap, DIC, lane 0/4)
  BlockTx / BlockRx               the source and sink without a simulator
  BaseRSource / BaseRSink         cocotb models on data[63:0] / hdr[1:0]
"""

import logging
from collections import deque, namedtuple

import cocotb
from cocotb.queue import Queue
from cocotb.triggers import Event, First, RisingEdge, Timer
from cocotb.utils import get_sim_time

from cocotbext.eth import XgmiiFrame
from cocotbext.eth.reset import Reset

M64 = (1 << 64) - 1
M58 = (1 << 58) - 1

SYNC_DATA = 0b10            # line order "01"
SYNC_CTRL = 0b01            # line order "10"

# XGMII control characters (Clause 46, Table 46-3)
XG_IDLE = 0x07
XG_LPI = 0x06
XG_START = 0xFB
XG_TERM = 0xFD
XG_ERROR = 0xFE
XG_SEQ_OS = 0x9C
XG_SIG_OS = 0x5C

# Table 49-1: XGMII control character -> 7-bit 10GBASE-R control code
CODE_OF_XGMII = {
    0x07: 0x00,             # /I/  idle
    0x06: 0x06,             # /LI/ low power idle
    0xFE: 0x1E,             # /E/  error
    0x1C: 0x2D,             # reserved
    0x3C: 0x33,             # reserved
    0x7C: 0x4B,             # reserved
    0xBC: 0x55,             # reserved
    0xDC: 0x66,             # reserved
    0xF7: 0x78,             # reserved
}
XGMII_OF_CODE = {v: k for k, v in CODE_OF_XGMII.items()}
# O codes: sequence ordered set (/Q/, 0x9C) and signal ordered set (/Fsig/, 0x5C)
O_OF_XGMII = {0x9C: 0x0, 0x5C: 0xF}
XGMII_OF_O = {v: k for k, v in O_OF_XGMII.items()}

# Table 49-7, one entry per control block type: the field of each XGMII lane
# 0..7 as (kind, first payload bit). Kinds: "C" 7-bit control code, "O"
# 4-bit O code (lane 0 or 4 of an ordered set), "D" data byte, "S" /S/ and
# "T" /T/ (no bits of their own: the block type says where they are).
# Payload bits not covered by the type field or a field are unused (zero).
_C = [("C", 8 + 7 * i) for i in range(8)]
FORMATS = {
    0x1E: tuple(_C),
    0x2D: tuple(_C[:4]) + (("O", 36), ("D", 40), ("D", 48), ("D", 56)),
    0x33: tuple(_C[:4]) + (("S", None), ("D", 40), ("D", 48), ("D", 56)),
    0x66: (("O", 32), ("D", 8), ("D", 16), ("D", 24), ("S", None), ("D", 40), ("D", 48), ("D", 56)),
    0x55: (("O", 32), ("D", 8), ("D", 16), ("D", 24), ("O", 36), ("D", 40), ("D", 48), ("D", 56)),
    0x78: (("S", None), ("D", 8), ("D", 16), ("D", 24), ("D", 32), ("D", 40), ("D", 48), ("D", 56)),
    0x4B: (("O", 32), ("D", 8), ("D", 16), ("D", 24)) + tuple(_C[4:]),
    # terminate in lane k: data lanes 0..k-1 from bit 8, /T/, then the codes
    # of lanes k+1..7 at their fixed places 8 + 7 * lane
    0x87: (("T", None),) + tuple(_C[1:]),
    0x99: (("D", 8), ("T", None)) + tuple(_C[2:]),
    0xAA: (("D", 8), ("D", 16), ("T", None)) + tuple(_C[3:]),
    0xB4: (("D", 8), ("D", 16), ("D", 24), ("T", None)) + tuple(_C[4:]),
    0xCC: (("D", 8), ("D", 16), ("D", 24), ("D", 32), ("T", None)) + tuple(_C[5:]),
    0xD2: (("D", 8), ("D", 16), ("D", 24), ("D", 32), ("D", 40), ("T", None)) + tuple(_C[6:]),
    0xE1: (("D", 8), ("D", 16), ("D", 24), ("D", 32), ("D", 40), ("D", 48), ("T", None), _C[7]),
    0xFF: (("D", 8), ("D", 16), ("D", 24), ("D", 32), ("D", 40), ("D", 48), ("D", 56), ("T", None)),
}
TERM_TYPES = (0x87, 0x99, 0xAA, 0xB4, 0xCC, 0xD2, 0xE1, 0xFF)   # /T/ in lane 0..7
_WIDTH = {"C": 7, "O": 4, "D": 8, "S": 0, "T": 0}


def _unused_mask(fmt):
    used = 0xFF
    for kind, pos in fmt:
        if pos is not None:
            used |= ((1 << _WIDTH[kind]) - 1) << pos
    return ~used & M64


UNUSED = {bt: _unused_mask(fmt) for bt, fmt in FORMATS.items()}

# EBLOCK_T / EBLOCK_R: 0x1E with /E/ in all eight lanes; its XGMII word
EBLOCK = 0x1E | sum(0x1E << (8 + 7 * i) for i in range(8))
E_WORD = (0xFEFEFEFEFEFEFEFE, 0xFF)
IDLE_WORD = (0x0707070707070707, 0xFF)


def bitrev(v, n):
    return int(f"{v:0{n}b}"[::-1], 2)


def to_bus(hdr, payload, reverse):
    """Line order -> the GT bus (data, hdr) of the given bit order."""
    if reverse:
        return bitrev(payload, 64), ((hdr & 1) << 1) | (hdr >> 1)
    return payload, hdr


def from_bus(data, hdr, reverse):
    """The GT bus -> line order (hdr, payload). The mapping is its own inverse."""
    d, h = to_bus(hdr, data, reverse)
    return h, d


# ---------------------------------------------------------------------------
# One block
# ---------------------------------------------------------------------------

def _lanes(d, c):
    return [((d >> 8 * i) & 0xFF, (c >> i) & 1) for i in range(8)]


def _lane_fits(kind, byte, ctrl):
    if kind == "D":
        return not ctrl
    if not ctrl:
        return False
    if kind == "C":
        return byte in CODE_OF_XGMII
    if kind == "O":
        return byte in O_OF_XGMII
    if kind == "S":
        return byte == XG_START
    return byte == XG_TERM      # "T"


def encode_word(d, c):
    """T_TYPE and ENCODE for one XGMII word (d: 64 bits, lane i in bits
    8i+7:8i; c: 8 control bits): (hdr, payload) in line order, or None if
    the word is not a valid block (T_TYPE = E: the transmitter then sends
    EBLOCK_T). /E/ is allowed after /T/ and next to an ordered set, not in an
    all-control 0x1E block."""
    if c == 0:
        return SYNC_DATA, d
    lanes = _lanes(d, c)
    for bt, fmt in FORMATS.items():
        if not all(_lane_fits(kind, b, k) for (kind, _), (b, k) in zip(fmt, lanes)):
            continue
        if bt == 0x1E and any(b == XG_ERROR for b, _ in lanes):
            return None
        p = bt
        for (kind, pos), (b, _) in zip(fmt, lanes):
            if kind == "D":
                p |= b << pos
            elif kind == "C":
                p |= CODE_OF_XGMII[b] << pos
            elif kind == "O":
                p |= O_OF_XGMII[b] << pos
        return SYNC_CTRL, p
    return None


Decoded = namedtuple("Decoded", "rtype d c kind problem", defaults=(None, None))
"""decode_block's result: rtype one of "C" "S" "T" "D" "E"; (d, c) the XGMII
word (E_WORD for "E"); for an invalid block, kind ("sync", "type", "code",
"unused") and problem (a description), else None. An "E" without a problem
is a well-formed error block (0x1E carrying /E/ codes)."""


def decode_block(hdr, payload, strict=False):
    """R_TYPE and DECODE for one descrambled block in line order. With
    strict, non-zero unused bits make the block invalid too (a receiver
    ignores them; a transmitter must send zeros)."""
    if hdr == SYNC_DATA:
        return Decoded("D", payload, 0)
    if hdr != SYNC_CTRL:
        return Decoded("E", *E_WORD, "sync", f"invalid sync header {hdr:02b}")
    bt = payload & 0xFF
    fmt = FORMATS.get(bt)
    if fmt is None:
        return Decoded("E", *E_WORD, "type", f"invalid block type 0x{bt:02x}")
    if strict and payload & UNUSED[bt]:
        return Decoded("E", *E_WORD, "unused",
                       f"block type 0x{bt:02x} with unused bits set: {payload & UNUSED[bt]:#018x}")
    rtype = "C"
    d = c = 0
    has_error_code = False
    for lane, (kind, pos) in enumerate(fmt):
        if kind == "D":
            d |= ((payload >> pos) & 0xFF) << 8 * lane
            continue
        c |= 1 << lane
        if kind == "C":
            code = (payload >> pos) & 0x7F
            x = XGMII_OF_CODE.get(code)
            if x is None:
                return Decoded("E", *E_WORD, "code",
                               f"block type 0x{bt:02x}: invalid control code 0x{code:02x} in lane {lane}")
            has_error_code |= x == XG_ERROR
        elif kind == "O":
            o = (payload >> pos) & 0xF
            x = XGMII_OF_O.get(o)
            if x is None:
                return Decoded("E", *E_WORD, "code", f"block type 0x{bt:02x}: invalid O code 0x{o:x} in lane {lane}")
        elif kind == "S":
            x, rtype = XG_START, "S"
        else:
            x, rtype = XG_TERM, "T"
        d |= x << 8 * lane
    if bt == 0x1E and has_error_code:
        return Decoded("E", *E_WORD)
    return Decoded(rtype, d, c)


# ---------------------------------------------------------------------------
# Scrambler, x^58 + x^39 + 1 (49.2.6), 64 payload bits per call
# ---------------------------------------------------------------------------
#
# Line bit n: y[n] = x[n] ^ y[n-39] ^ y[n-58] (scrambler), x[n] = y[n] ^
# y[n-39] ^ y[n-58] (descrambler), y the scrambled stream. Both keep the
# last 58 scrambled bits, the oldest in bit 0 and the newest in bit 57, so
# that R = state | y << 58 holds y[n-58] at bit n and y[n-39] at bit n + 19.

class Scrambler:
    def __init__(self, state=M58):
        self.state = state & M58

    def __call__(self, x):
        s = self.state
        # bits 0..38 need only the old bits
        lo = (x ^ (s >> 19) ^ s) & ((1 << 39) - 1)
        r = s | lo << 58
        # bits 39..63 need y[0..24] of this block as well
        hi = ((x >> 39) ^ (r >> 58) ^ (r >> 39)) & ((1 << 25) - 1)
        y = lo | hi << 39
        self.state = y >> 6
        return y


class Descrambler:
    def __init__(self, state=0):
        self.state = state & M58

    def __call__(self, y):
        r = self.state | y << 58
        self.state = y >> 6
        return (y ^ (r >> 19) ^ r) & M64


# ---------------------------------------------------------------------------
# Source side without a simulator
# ---------------------------------------------------------------------------

class LaneScheduler:
    """Frames -> a stream of XGMII words, 8 lanes per call of next_word().

    A frame (XgmiiFrame: preamble, SFD, payload, FCS; optional per-byte ctrl
    flags) goes out as /S/ (in place of its first preamble byte), the rest
    of its bytes, /T/. The gap is counted in lanes from /T/ (included) to
    the next /S/; /S/ goes only to lane 0 or 4. With enable_dic, the next
    /S/ goes to the first allowed lane at least ifg - 3 + dic after /T/, and
    dic becomes dic + ifg - gap (0..3) - the deficit idle count of 802.3
    46.3.1.4: gaps ifg - 3 .. ifg + 3, averaging ifg. Without it, the first
    allowed lane at least ifg after /T/. A frame that finds the line idle
    starts at the next allowed lane.
    """

    def __init__(self, ifg=12, enable_dic=True, start_lanes=(0, 4)):
        assert set(start_lanes) <= {0, 4} and start_lanes
        self.ifg = ifg
        self.enable_dic = enable_dic
        self.start_lanes = tuple(start_lanes)
        self.frames = deque()
        self.lanes = deque()        # (byte, ctrl) still to send, from lane position self.pos
        self.pos = 0                # absolute lane index of self.lanes[0]; a multiple of 8 between words
        self.last_term = None       # absolute lane index of the last /T/
        self.dic = 0
        self.started = []           # (frame, absolute lane index of its /S/) since the last clear

    def busy(self):
        """Frames queued, or the last /T/ not yet out."""
        return bool(self.frames) or (self.last_term is not None and self.last_term >= self.pos)

    def _allowed(self, p):
        return p % 8 in self.start_lanes

    def _schedule(self, frame):
        frame.normalize()
        assert frame.data[0] == 0x55 and not frame.ctrl[0], "frame does not start with a preamble byte"
        s = self.pos + len(self.lanes)
        if self.last_term is not None:
            need = self.ifg - 3 + self.dic if self.enable_dic else self.ifg
            s = max(s, self.last_term + need)
        while not self._allowed(s):
            s += 1
        if self.last_term is not None and self.enable_dic:
            self.dic = min(max(self.dic + self.ifg - (s - self.last_term), 0), 3)
        self.lanes.extend([(XG_IDLE, 1)] * (s - self.pos - len(self.lanes)))
        self.lanes.append((XG_START, 1))
        self.lanes.extend(zip(frame.data[1:], frame.ctrl[1:]))
        self.last_term = s + len(frame.data)
        self.lanes.append((XG_TERM, 1))
        frame.start_lane = s % 8
        self.started.append((frame, s))

    def add(self, frame):
        self.frames.append(frame)

    def next_word(self):
        """The next 8 lanes as (d, c); also returns the frames whose /T/ went
        out in this word: ((d, c), [frames])."""
        while len(self.lanes) < 8 and self.frames:
            self._schedule(self.frames.popleft())
        if len(self.lanes) < 8:
            self.lanes.extend([(XG_IDLE, 1)] * (8 - len(self.lanes)))
        d = c = 0
        for i in range(8):
            b, k = self.lanes.popleft()
            d |= b << 8 * i
            c |= k << i
        self.pos += 8
        done = []
        while self.started and self.started[0][1] + len(self.started[0][0].data) < self.pos:
            done.append(self.started.pop(0)[0])
        return (d, c), done

    def clear(self):
        """Drop the queued frames (not one already on the line)."""
        self.frames.clear()


class BlockTx:
    """LaneScheduler -> 66-bit blocks: ENCODE, EBLOCK_T for what is not a
    valid block (counted in .eblocks_sent), the scrambler."""

    def __init__(self, scramble=True, ifg=12, enable_dic=True, start_lanes=(0, 4), scrambler_state=M58):
        self.lanes = LaneScheduler(ifg, enable_dic, start_lanes)
        self.scramble = scramble
        self.scrambler = Scrambler(scrambler_state)
        self.eblocks_sent = 0
        self.log = logging.getLogger("cocotb.baser_model.tx")

    def next_block(self):
        """((hdr, payload) in line order after the scrambler, frames completed)."""
        (d, c), done = self.lanes.next_word()
        blk = encode_word(d, c)
        if blk is None:
            self.eblocks_sent += 1
            self.log.warning("XGMII word %016x/%02x is no valid block: EBLOCK_T sent", d, c)
            blk = (SYNC_CTRL, EBLOCK)
        h, p = blk
        if self.scramble:
            p = self.scrambler(p)
        return (h, p), done


# ---------------------------------------------------------------------------
# Sink side without a simulator
# ---------------------------------------------------------------------------

BlockError = namedtuple("BlockError", "time index hdr payload kind text")
"""An invalid block seen by BlockRx: sim time (or None), block index since
start, header and descrambled payload (line order), kind ("sync", "type",
"code", "unused", "sequence", "x") and a description."""


class BlockRx:
    """66-bit blocks -> XGMII words: descrambler, R_TYPE/DECODE, and the
    receive state machine of Figure 49-15 (RX_INIT/C/D/T/E; block lock and
    BER are not modelled: every block counts). Each block comes out one
    block later (the state machine needs R_TYPE_NEXT for T blocks), as
    EBLOCK_R's word where the standard enters RX_E.

    Every block that is not a valid block in its place is recorded in
    .errors (BlockError) and logged as a warning: invalid sync header,
    invalid block type, control code or O code, unused bits set (strict),
    a transition into RX_E by a valid block (C or S inside a frame, D or T
    outside one, S right after an error, T not followed by S or C). A
    well-formed error block (0x1E with /E/ codes) is not invalid: it is
    counted in .eblocks. The first block after start is only used to fill
    the descrambler (58 bits of history) and is not decoded.
    """

    def __init__(self, scramble=True, strict=True, log=None):
        self.scramble = scramble
        self.strict = strict
        self.log = log or logging.getLogger("cocotb.baser_model.rx")
        self.reset()
        self.errors = []
        self.eblocks = 0

    def reset(self):
        self.descrambler = Descrambler()
        self.synced = not self.scramble
        self.state = "INIT"
        self.pending = None         # (Decoded, time, index, hdr, payload)
        self.index = 0

    def _error(self, time, index, hdr, payload, kind, text):
        self.errors.append(BlockError(time, index, hdr, payload, kind, text))
        self.log.warning("block %s: %s (hdr %s payload %016x)", index, text, f"{hdr:02b}", payload)

    def push_invalid(self, time=None, text="bus value not 0/1"):
        """A block that could not be read (X/Z): an error, /E/ in its place."""
        dec = Decoded("E", *E_WORD, "x", text)
        self._error(time, self.index, 0, 0, "x", text)
        self.descrambler = Descrambler()
        self.synced = not self.scramble
        return self._advance((dec, time, self.index, 0, 0))

    def push(self, hdr, payload, time=None):
        """One block (line order, scrambled if scramble). Returns the XGMII
        words now decided: [] or [(d, c, time)] of the previous block."""
        y = payload
        if self.scramble:
            payload = self.descrambler(y)
        if not self.synced:
            self.synced = True
            self.index += 1
            return self._advance(None)
        dec = decode_block(hdr, payload, self.strict)
        if dec.problem:
            self._error(time, self.index, hdr, payload, dec.kind, dec.problem)
        elif dec.rtype == "E":
            self.eblocks += 1
        cur = (dec, time, self.index, hdr, payload)
        self.index += 1
        return self._advance(cur)

    def _advance(self, cur):
        prev, self.pending = self.pending, cur
        if prev is None:
            return []
        dec, time, index, hdr, payload = prev
        nxt = cur[0].rtype if cur is not None else "E"
        t = dec.rtype
        st = self.state
        # Figure 49-15 without lock/hi_ber
        if st in ("INIT", "C", "T"):
            ok = {"C": "C", "S": "D"}.get(t)
        elif st == "D":
            ok = {"D": "D"}.get(t)
            if t == "T" and nxt in ("S", "C"):
                ok = "T"
        else:   # "E"
            ok = {"C": "C", "D": "D"}.get(t)
            if t == "T" and nxt in ("S", "C"):
                ok = "T"
        if ok is None:
            if t != "E":
                why = {"D": "data block outside a frame",
                       "T": ("terminate block outside a frame" if st not in ("D", "E")
                             else f"terminate block followed by R_TYPE {nxt}"),
                       "C": "control block inside a frame",
                       "S": "start block inside a frame" if st == "D" else "start block right after an error"}[t]
                self._error(time, index, hdr, payload, "sequence", f"{why} (state RX_{st})")
            self.state = "E"
            return [(*E_WORD, time)]
        self.state = ok
        return [(dec.d, dec.c, time)]


class FrameAssembler:
    """XGMII words -> XgmiiFrame, as cocotbext-eth's XgmiiSink reads them: a
    frame starts at /S/ (stored as 0x55) and ends at the first control
    character; /T/ is dropped, any other control character is kept as the
    frame's last byte with ctrl = 1. start_lane is the lane of /S/;
    sim_time_start/end are the word's time plus lane * lane_time."""

    def __init__(self):
        self.frame = None

    def push(self, d, c, time=None, lane_time=0):
        done = []
        for i in range(8):
            b = (d >> 8 * i) & 0xFF
            k = (c >> i) & 1
            if self.frame is None:
                if k and b == XG_START:
                    self.frame = XgmiiFrame(bytearray([0x55]), [0])
                    self.frame.start_lane = i
                    if time is not None:
                        self.frame.sim_time_start = time + i * lane_time
            elif k:
                if b != XG_TERM:
                    self.frame.data.append(b)
                    self.frame.ctrl.append(1)
                if time is not None:
                    self.frame.sim_time_end = time + i * lane_time
                done.append(self.frame)
                self.frame = None
            else:
                self.frame.data.append(b)
                self.frame.ctrl.append(0)
        return done


# ---------------------------------------------------------------------------
# cocotb models
# ---------------------------------------------------------------------------

def _resolvable(sig):
    v = sig.value
    return v.is_resolvable if hasattr(v, "is_resolvable") else True


class BaseRSource(Reset):
    """Drives one 66-bit block per rising clock edge on data[63:0]/hdr[1:0]
    (the GT side of a PCS receiver): the frames of send(), idle blocks in
    between. Options: scramble, reverse (the BIT_REVERSE = 1 bus order),
    ifg (12) and enable_dic (True: gaps 9..15 averaging 12, starts on lanes
    0 and 4), start_lanes. Interface as cocotbext-eth's XgmiiSource: send,
    send_nowait, count, empty, idle, wait, clear; frames get start_lane,
    sim_time_start/end, and tx_complete is handled."""

    def __init__(self, data, hdr, clock, reset=None, reset_active_level=True, *, scramble=True,
                 reverse=False, ifg=12, enable_dic=True, start_lanes=(0, 4), scrambler_state=M58):
        self.log = logging.getLogger(f"cocotb.{data._path}")
        self.data = data
        self.hdr = hdr
        self.clock = clock
        self.reverse = reverse
        self.tx = BlockTx(scramble, ifg, enable_dic, start_lanes, scrambler_state)
        self.tx.log = self.log
        self.queue_frames = 0
        self.idle_event = Event()
        self.idle_event.set()
        self.in_flight = {}          # id(frame) -> frame sent into the scheduler, not yet complete
        self._run_cr = None
        assert len(data) == 64 and len(hdr) == 2
        self._init_reset(reset, reset_active_level)

    @property
    def eblocks_sent(self):
        return self.tx.eblocks_sent

    async def send(self, frame):
        self.send_nowait(frame)

    def send_nowait(self, frame):
        frame = XgmiiFrame(frame)
        self.tx.lanes.add(frame)
        self.idle_event.clear()

    def count(self):
        return len(self.tx.lanes.frames)

    def empty(self):
        return not self.tx.lanes.frames

    def idle(self):
        return not self.tx.lanes.busy()

    async def wait(self):
        await self.idle_event.wait()

    def clear(self):
        for f in list(self.tx.lanes.frames):
            f.sim_time_end = None
            f.handle_tx_complete()
        self.tx.lanes.clear()
        self.idle_event.set()

    def _handle_reset(self, state):
        if state:
            if self._run_cr is not None:
                self._run_cr.kill()
                self._run_cr = None
            for f, _ in self.tx.lanes.started:
                self.log.warning("frame cut by reset")
                f.handle_tx_complete()
            self.tx.lanes.started.clear()
            self.tx.lanes.lanes = deque()
            self.tx.lanes.last_term = None
        elif self._run_cr is None:
            self._run_cr = cocotb.start_soon(self._run())

    async def _run(self):
        edge = RisingEdge(self.clock)
        while True:
            await edge
            t = get_sim_time()
            (h, p), done = self.tx.next_block()
            d, hb = to_bus(h, p, self.reverse)
            self.data.value = d
            self.hdr.value = hb
            for f, s in self.tx.lanes.started:
                if self.tx.lanes.pos - 8 <= s < self.tx.lanes.pos:
                    f.sim_time_start = t
            for f in done:
                f.sim_time_end = t
                f.handle_tx_complete()
            if not self.tx.lanes.busy():
                self.idle_event.set()


class BaseRSink(Reset):
    """Samples one 66-bit block per rising clock edge on data[63:0]/hdr[1:0]
    (the GT side of a PCS transmitter), descrambles (scramble), decodes and
    reassembles frames (see BlockRx and FrameAssembler). Invalid blocks are
    in .errors (BlockError), logged as warnings; well-formed error blocks
    are counted in .eblocks. Interface as cocotbext-eth's XgmiiSink: recv,
    recv_nowait, count, empty, idle, clear, wait. clear() drops received
    frames; clear_errors() the error record."""

    def __init__(self, data, hdr, clock, reset=None, reset_active_level=True, *, scramble=True,
                 reverse=False, strict=True):
        self.log = logging.getLogger(f"cocotb.{data._path}")
        self.data = data
        self.hdr = hdr
        self.clock = clock
        self.reverse = reverse
        self.rx = BlockRx(scramble, strict, self.log)
        self.asm = FrameAssembler()
        self.queue = Queue()
        self.active_event = Event()
        self.blocks = 0
        self._run_cr = None
        assert len(data) == 64 and len(hdr) == 2
        self._init_reset(reset, reset_active_level)

    @property
    def errors(self):
        return self.rx.errors

    @property
    def eblocks(self):
        return self.rx.eblocks

    def clear_errors(self):
        self.rx.errors.clear()
        self.rx.eblocks = 0

    def _recv(self, frame, compact):
        if self.queue.empty():
            self.active_event.clear()
        if compact:
            frame.compact()
        return frame

    async def recv(self, compact=True):
        return self._recv(await self.queue.get(), compact)

    def recv_nowait(self, compact=True):
        return self._recv(self.queue.get_nowait(), compact)

    def count(self):
        return self.queue.qsize()

    def empty(self):
        return self.queue.empty()

    def idle(self):
        return self.asm.frame is None

    def clear(self):
        while not self.queue.empty():
            self.queue.get_nowait()
        self.active_event.clear()

    async def wait(self, timeout=0, timeout_unit=None):
        if not self.empty():
            return
        if timeout:
            await First(self.active_event.wait(), Timer(timeout, timeout_unit))
        else:
            await self.active_event.wait()

    def _handle_reset(self, state):
        if state:
            if self._run_cr is not None:
                self._run_cr.kill()
                self._run_cr = None
            self.rx.reset()
            self.asm.frame = None
        elif self._run_cr is None:
            self._run_cr = cocotb.start_soon(self._run())

    async def _run(self):
        edge = RisingEdge(self.clock)
        last = None
        lane_time = 0
        while True:
            await edge
            t = get_sim_time()
            if last is not None:
                lane_time = (t - last) // 8
            last = t
            self.blocks += 1
            if _resolvable(self.data) and _resolvable(self.hdr):
                h, p = from_bus(int(self.data.value), int(self.hdr.value), self.reverse)
                words = self.rx.push(h, p, t)
            else:
                words = self.rx.push_invalid(t)
            for d, c, wt in words:
                for f in self.asm.push(d, c, wt, lane_time):
                    f.compact()
                    self.queue.put_nowait(f)
                    self.active_event.set()


__all__ = [
    "SYNC_DATA", "SYNC_CTRL", "CODE_OF_XGMII", "XGMII_OF_CODE", "O_OF_XGMII", "XGMII_OF_O", "FORMATS",
    "TERM_TYPES", "UNUSED", "EBLOCK", "E_WORD", "IDLE_WORD", "bitrev", "to_bus", "from_bus", "encode_word",
    "decode_block", "Decoded", "Scrambler", "Descrambler", "LaneScheduler", "BlockTx", "BlockRx", "BlockError",
    "FrameAssembler", "BaseRSource", "BaseRSink",
]
