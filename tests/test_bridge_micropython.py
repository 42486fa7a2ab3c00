"""The shared protocol module under real MicroPython (1.27, WebAssembly on Node.js) makes the same
bytes as under CPython: codec, frames, and a whole device session."""

from __future__ import annotations

import sys
from pathlib import Path

from micropython_node import needs_node, run_micropython

import firmware_bridge.protocol as P

ROOT = Path(__file__).resolve().parents[1]

# Runs unchanged on both interpreters; writes every byte it produced to OUT.
SCENARIO = r'''
import struct
import protocol as P

chunks = []
def emit(b):
    chunks.append(struct.pack("<H", len(b)) + bytes(b))

for data in (b"", b"\x00", b"\x00\x00", bytes(range(256)), b"\x01" * 254, b"\x01" * 255,
             b"\xff" * 600, bytes([i * 7 % 256 for i in range(513)])):
    enc = P.cobs_encode(data)
    emit(enc)
    emit(P.cobs_decode(enc))
    emit(struct.pack("<I", P.crc32(data)))

emit(P.pack(P.EDGE, 1, 2 ** 63 + 5, -1, 2, 3))
emit(P.pack(P.HEARTBEAT, 2 ** 64 - 1, 1, 2, 3, 4, 5, 6, 7))
emit(P.pack_hello(0xCAFEBABE, [(0, 1, 20), (2, 255, 255)], 28))

x = P.TimeExtender(30)
for raw in (5, 1 << 29, (1 << 30) - 1, 3, 1 << 29, 7):
    emit(struct.pack("<Q", x.extend(raw)))

# a device session: hello, config, presses with bounce, a ping, acks, a lost ack, a resend
d = P.Device(0x12345678, [(0, 1, 20), (2, 3, 21), (4, 255, 22)], menu_pin=28)
t = 1000000
d.receive(P.pack(P.HOST_HELLO, 1, 0), t)
d.receive(P.pack(P.CONFIG, 0x12345678, 20000, 3000000, 0x3F, 1, 0), t + 10)
d.sample(1, 0x1FFFE, t + 1000)            # station 0 slap down
d.sample(1, 0x1FFFF, t + 1200)            # bounce up
d.sample(1, 0x1FFFE, t + 1300)            # bounce down
d.sample(1 | 4, 0x1FFFA, t + 5000)        # station 1 slap down with it, one reading
d.sample(5, 0x1FFFF, t + 90000)           # both up
d.tick(t + 200000)
d.receive(P.pack(P.PING, 7, 123456789), t + 200001)
d.receive(P.pack(P.ACK, 2), t + 200100)
d.tick(t + 700000)                        # the rest unacked: resent
d.receive(P.pack(P.LED, 1, 2, 150, 150, 3) + P.pack(P.REPL, 1), t + 700100)
d.sample(1 << 16, 0x0FFFF, t + 800000)   # MENU held past the stuck time
d.tick(t + 4000000)
d.receive(b"\x13\x37garbage\x00" + P.pack(P.ACK, 99), t + 4000100)
for f in d.take_tx():
    emit(f)
r = P.FrameReader()
stream = b"".join([P.pack(P.ACK, i) for i in range(5)])
for i in range(0, len(stream), 3):
    for mtype, payload in r.feed(stream[i:i + 3]):
        emit(bytes([mtype]) + payload)
emit(struct.pack("<IIIII", d.edges, d.dropped, d.resent, d.hwm, d.bad_rx))

with open(OUT, "wb") as f:
    for c in chunks:
        f.write(c)
'''

def _cpython(tmp_path: Path) -> bytes:
    out = tmp_path / "cpython.bin"
    sys.modules.setdefault("protocol", P)
    exec(SCENARIO, {"OUT": str(out), "__name__": "scenario"})
    return out.read_bytes()


def test_the_scenario_exercises_the_session(tmp_path: Path) -> None:
    data = _cpython(tmp_path)
    frames = []
    i = 0
    while i < len(data):
        n = int.from_bytes(data[i:i + 2], "little")
        frames.append(data[i + 2:i + 2 + n])
        i += 2 + n
    kinds = [P.decode_frame(f[:-1])[0] for f in frames if f.endswith(b"\x00") and len(f) > 5
             and b"\x00" not in f[:-1]]
    assert kinds.count(P.EDGE) >= 6 and P.PONG in kinds and P.BYE not in kinds  # bad magic
    assert P.ERROR in kinds and P.HEARTBEAT in kinds


@needs_node
def test_micropython_on_node_makes_byte_identical_frames(tmp_path: Path) -> None:
    protocol = ROOT / "firmware_bridge" / "protocol.py"
    assert run_micropython(tmp_path, [protocol], SCENARIO) == _cpython(tmp_path)
