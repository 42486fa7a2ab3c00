"""The bridge firmware's CPU-side logic (firmware_bridge/firmware/bridge_core.py): counter and timer
extension, the sample ring, decoding into the shared Device (lock-out, releases, counters, resend
after a reconnect), LEDs and the main loop; on CPython and, byte for byte, on MicroPython 1.27
under Node.js (as tests/test_bridge_micropython.py runs the shared protocol module)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from micropython_node import needs_node, run_micropython

import firmware_bridge.protocol as P
from firmware_bridge.firmware import bridge_core as C

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware_bridge" / "firmware"
M32 = 0xFFFFFFFF

# Runs unchanged on both interpreters; asserts as it goes and writes what it produced to OUT.
SCENARIO = r'''
import struct
import protocol as P
import bridge_core as C

M32 = 0xFFFFFFFF
chunks = []
def emit(b):
    chunks.append(struct.pack("<H", len(b)) + bytes(b))
def q(v):
    emit(struct.pack("<q", v))

# -- extension of wrapping readings
assert C.extend32(5, 5) == 5
assert C.extend32(M32, (1 << 32) + 3) == M32           # read just before the wrap
assert C.extend32(2, (5 << 32) + 10) == (5 << 32) + 2
assert C.extend32(M32 - 1, (5 << 32) + 10) == (4 << 32) + M32 - 1
for raw, ref in ((0, 0), (7, 1 << 40), (M32, (1 << 33) - 1), (123, (1 << 63) + 5)):
    q(C.extend32(raw, ref))

# -- the PIO counter: 125 MHz, divider 12.5, 10 cycles a loop = exactly 1 µs
clk = C.CounterClock.from_divider(10 ** 12, 10, 125000000, 12, 128)
assert clk.num == clk.den
assert clk.us(M32, 10 ** 12) == 10 ** 12                 # loop 0
assert clk.us(M32 - 41, 10 ** 12 + 100) == 10 ** 12 + 41
# loop 2**32 + 7 (the counter wrapped once), read 71.6 min later
assert clk.us((-1 - 7) & M32, 10 ** 12 + (1 << 32) + 50) == 10 ** 12 + (1 << 32) + 7
# 133 MHz: divider 13.3 is 13 + 77/256, so a loop is 10 * 3405 / (256 * 133) µs
c133 = C.CounterClock.from_divider(0, 10, 133000000, 13, 77)
for k in (0, 1, 1000, 10 ** 6, (1 << 32) + 5):
    t = c133.us((-1 - k) & M32, k * 2)
    assert t == k * 10 * 3405 * 1000000 // (256 * 133000000), k
    q(t)
x0 = C.CounterClock(500, x0=3)                         # started with X = 3
assert [x0.us(x, 600) for x in (2, 1, 0, M32, M32 - 1)] == [500, 501, 502, 503, 504]
assert C.TimerClock().us(10, (3 << 32) + 20) == (3 << 32) + 10

# -- the ring: pairs in order, an overrun counted and skipped
got = []
def out(a, b, now):
    got.append((a, b))
w = [0] * 8
r = C.Ring(w, 0, 8)
for i in range(3):
    w[2 * i] = 100 + i
    w[2 * i + 1] = 200 + i
assert r.drain(6, out, 0) == 3 and got == [(100, 200), (101, 201), (102, 202)]
assert r.drain(6, out, 0) == 0
for n in range(6, 6 + 2 * 9, 2):                       # 9 pairs into 4 slots: lapped
    w[n % 8] = 1000 + n
    w[n % 8 + 1] = 2000 + n
got = []
r.drain(6 + 18, out, 0)
assert r.overruns == 6 and got == [(1018, 2018), (1020, 2020), (1022, 2022)], (r.overruns, got)
r2 = C.Ring([7, 8, 9, 10], 0, 4)
r2.read = M32 - 1                                      # the writer's count wraps too
got = []
assert r2.drain(0, out, 0) == 1 and r2.read == 0 and got == [(9, 10)]

# -- LEDs
leds = C.Leds(3)
leds.command(0, P.LED_ON, 0, 0, 0, 0)
leds.command(1, P.LED_BLINK, 100, 50, 2, 1000)
leds.command(7, P.LED_ON, 0, 0, 0, 0)                  # no such station: ignored
seen = [leds.levels(t) for t in (1000, 100999, 101000, 150999, 151000, 300999, 301000, 10 ** 7)]
assert seen == [3, 3, 1, 1, 3, 1, 1, 1], seen
leds.command(2, P.LED_BLINK, 10, 10, 0, 0)
assert leds.levels(10 ** 9 + 5000) == 5 and leds.levels(10 ** 9 + 15000) == 1
leds.command(0, P.LED_OFF, 0, 0, 0, 0)
assert leds.levels(0) == 4

# -- the main loop over a fake Pico: PIO words in, frames out
class Hw:
    def __init__(self):
        self.t = 10 ** 9
        self.inbox = []
        self.words = [0] * 64
        self.written = 0
        self.sent = []
        self.leds = []
        self.lost = 0
    def now_us(self):
        return self.t
    def read(self):
        return self.inbox.pop(0) if self.inbox else b""
    def write(self, f):
        self.sent.append(f)
    def push(self, levels, us):                        # the PIO's pair for loop k = us - anchor
        k = us - ANCHOR
        self.words[self.written % 64] = levels
        self.words[self.written % 64 + 1] = (-1 - k) & M32
        self.written += 2
    def drain(self, feed, now):
        ring.drain(self.written, feed, now)
        n = self.lost
        self.lost = 0
        return n
    def set_leds(self, bits):
        self.leds.append(bits)

ANCHOR = 10 ** 9 - (1 << 32) + 1000                    # the counter wrapped once already
hw = Hw()
ring = C.Ring(hw.words, 0, 64)
stations, menu = C.layout(3, flip=True)
assert stations == [(0, 1, 17), (2, 3, 18), (4, 5, 19)] and menu == 16
assert C.layout(2, flip=False, leds=False)[0] == [(0, 255, 255), (2, 255, 255)]
dev = P.Device(0x5EED1234, stations, menu)
dec = C.Decoder(dev, C.CounterClock(ANCHOR))
b = C.Bridge(dev, hw, dec, C.Leds(3))
UP = C.ALL_UP
def step(dt=1, data=None):
    if data is not None:
        hw.inbox.append(data)
    hw.t += dt
    return b.step()

assert step()                                          # the boot hello goes out
hw.push(UP, hw.t - 5)                                  # the sampler's first pair: all up
step(10, P.pack(P.HOST_HELLO, 1, 0))
step(10, P.pack(P.CONFIG, 0x5EED1234, 20000, 3000000, 0x3F, 1, 0))
t_press = hw.t + 3
hw.push(UP & ~1, t_press)                              # station 0 slap, with a bounce train
hw.push(UP, t_press + 40)
hw.push(UP & ~1, t_press + 90)
hw.push(UP & ~(1 | 4), t_press + 2000)                 # station 1's slap lands too
hw.push(UP & ~(1 | 4), t_press + 2001)                 # (a repeated sample: no change, no event)
hw.t = t_press + 2100
step(1)
hw.push(UP, t_press + 50000)                           # both up, then stable
hw.t = t_press + 50001
step(1)
hw.t = t_press + 70002
step(1)                                                # released 20 ms after the last rise
step(5, P.pack(P.PING, 9, 123456789))
step(5, P.pack(P.ACK, 2))
dev.reset_link()                                       # unplugged: events keep, unsent
hw.push(UP & ~(1 << 16), hw.t + 10)                    # MENU while unplugged
hw.t += 400000
step(1)
step(5, P.pack(P.HOST_HELLO, 1, 0))
step(5, P.pack(P.CONFIG, 0x5EED1234, 20000, 3000000, 0x3F, 1, 2))   # resend everything after 2
step(5, P.pack(P.LED, 1, P.LED_BLINK, 100, 100, 2))
hw.t += 150000
step(1)
hw.lost = 3                                            # the ring lapped: counted as dropped
step(1)
assert step(5, P.pack(P.REPL, 0x4C504552)) is False    # hands back to the REPL
edges = []
kinds = []
for f in hw.sent:
    emit(f)
    mtype, payload = P.decode_frame(f[:-1])
    kinds.append(mtype)
    if mtype == P.EDGE:
        edges.append(P.unpack(P.EDGE, payload))
assert kinds[0] == P.HELLO and kinds[-1] == P.BYE and P.PONG in kinds and P.HEARTBEAT in kinds
T = t_press
by_seq = {}
for e in edges:
    if e[0] in by_seq:
        assert by_seq[e[0]] == e[1:]                   # a resend is the same event
    else:
        by_seq[e[0]] = e[1:]
assert sorted(by_seq) == [1, 2, 3, 4, 5]
assert [by_seq[i] for i in (1, 2, 3, 4)] == [(T, 0, 0, 0), (T + 2000, 1, 0, 0), (T + 50000, 0, 0, 1),
                                             (T + 50000, 1, 0, 1)], by_seq
assert by_seq[5][1:] == (-1, 2, 0)                     # MENU pressed while unplugged, delivered
seqs = [e[0] for e in edges]
i = seqs.index(5)
assert seqs[i - 2:i + 1] == [3, 4, 5], seqs            # after the reconnect: 3, 4 (unacked), 5
assert hw.leds[0] == 0 and 2 in hw.leds and hw.leds[-1] == 0, hw.leds
assert dev.dropped == 3 and dev.edges == 5, (dev.dropped, dev.edges)
emit(struct.pack("<IIIIII", dec.pairs, dec.changes, dev.edges, dev.dropped, dev.resent, b.steps))
for v in hw.leds:
    emit(struct.pack("<B", v))

with open(OUT, "wb") as f:
    for c in chunks:
        f.write(c)
'''

def _cpython(tmp_path: Path) -> bytes:
    out = tmp_path / "cpython.bin"
    saved = {k: sys.modules.get(k) for k in ("protocol", "bridge_core")}
    sys.modules["protocol"] = P
    sys.modules["bridge_core"] = C
    try:
        exec(SCENARIO, {"OUT": str(out), "__name__": "scenario"})
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return out.read_bytes()


def test_the_scenario_passes_on_cpython(tmp_path: Path) -> None:
    assert len(_cpython(tmp_path)) > 500


@needs_node
def test_micropython_on_node_runs_the_firmware_logic_byte_for_byte(tmp_path: Path) -> None:
    libs = [ROOT / "firmware_bridge" / "protocol.py", FIRMWARE / "bridge_core.py"]
    assert run_micropython(tmp_path, libs, SCENARIO) == _cpython(tmp_path)


def test_a_sample_stamped_before_the_last_one_is_clamped() -> None:
    got = []

    class Dev:
        def sample(self, changed: int, levels: int, t: int) -> None:
            got.append((changed, levels, t))

    class Clock:
        def us(self, word: int, now: int) -> int:
            return word

    d = C.Decoder(Dev(), Clock())
    d.feed(C.ALL_UP ^ 1, 100, 0)
    d.feed(C.ALL_UP, 90, 0)           # a time going back (never from the PIO): held at 100
    d.feed(C.ALL_UP | 1 << 20, 95, 0)  # a pin outside the buttons: no change
    assert got == [(1, C.ALL_UP ^ 1, 100), (1, C.ALL_UP, 100)] and d.pairs == 3


def test_layout_refuses_a_station_count_it_cannot_wire() -> None:
    with pytest.raises(ValueError, match="expected 1 to 8"):
        C.layout(9)
    assert C.layout(8)[0][7] == (14, 15, 27)


def test_the_firmware_files_keep_to_micropython() -> None:
    # the shared rules of protocol.py: no typing, dataclasses, __future__ in what goes on the Pico
    for name in ("bridge_core.py", "bridge_pio.py", "bridge_rp2.py", "bridge_config.py", "main.py"):
        text = (FIRMWARE / name).read_text()
        imports = re.findall(r"^\s*(?:from|import)\s+(\w+)", text, re.M)
        assert not {"typing", "dataclasses", "__future__"} & set(imports), (name, imports)
        assert not re.search(r"\bf[\"']", text), name  # no f-strings
