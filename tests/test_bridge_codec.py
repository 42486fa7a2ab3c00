"""The bridge's framing and messages: codec against independent oracles, PROTOCOL.md's frames,
split/merged/garbled/truncated streams, and fuzzing that never yields a false press."""

from __future__ import annotations

import random
import re
import zlib
from pathlib import Path

import pytest
from cobs import cobs as pypi_cobs
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as P
from firmware_bridge.clocksync import HostClocks
from firmware_bridge.link import BridgeConfig, BridgeEdge, HostSession

PROTOCOL_MD = Path(P.__file__).with_name("PROTOCOL.md")
FUZZ = settings(max_examples=300, derandomize=True, deadline=None)


# --- codec against PyPI's cobs and zlib ------------------------------------------------------

@FUZZ
@given(st.binary(max_size=700))
def test_cobs_encoding_is_the_one_pypi_cobs_makes(data: bytes) -> None:
    assert P.cobs_encode(data) == pypi_cobs.encode(data)
    assert P.cobs_decode(pypi_cobs.encode(data)) == data


@pytest.mark.parametrize("n", [0, 1, 253, 254, 255, 507, 508, 509])
@pytest.mark.parametrize("fill", [b"\x01", b"\x00", b"\xff"])
def test_cobs_block_boundaries_match_pypi_cobs(n: int, fill: bytes) -> None:
    data = fill * n
    assert P.cobs_encode(data) == pypi_cobs.encode(data)
    assert b"\x00" not in P.cobs_encode(data)


@FUZZ
@given(st.binary(max_size=200))
def test_crc_is_zlibs_crc32(data: bytes) -> None:
    assert P.crc32(data) == zlib.crc32(data)


def test_crc_check_value() -> None:
    assert P.crc32(b"123456789") == 0xCBF43926


MESSAGES = [
    (P.HOST_HELLO, (1, 0)), (P.CONFIG, (0xDEADBEEF, 20000, 3000000, 0xFFFF, 1, 77)),
    (P.EDGE, (1, 2**63 + 5, -1, 2, 3)), (P.ACK, (0xFFFFFFFF,)),
    (P.HEARTBEAT, (2**64 - 1, 1, 2, 3, 4, 5, 6, 7)), (P.PING, (9, 2**64 - 1)),
    (P.PONG, (9, 1, 2, 3)), (P.LED, (7, 2, 65535, 1, 0)), (P.ERROR, (6, 4, 99)),
    (P.REPL, (P.REPL_MAGIC,)), (P.BYE, (0,)),
]


@pytest.mark.parametrize("mtype,fields", MESSAGES)
def test_every_message_round_trips(mtype: int, fields: tuple[int, ...]) -> None:
    frame = P.pack(mtype, *fields)
    assert frame.endswith(b"\x00") and b"\x00" not in frame[:-1]
    assert len(frame) <= P.MAX_WIRE + 1
    t, payload = P.decode_frame(frame[:-1])
    assert t == mtype and P.unpack(t, payload) == fields


def test_hello_round_trips_with_its_stations() -> None:
    stations = [(0, 1, 20), (2, P.NO_PIN, P.NO_PIN), (4, 5, 22)]
    t, payload = P.decode_frame(P.pack_hello(0xCAFE, stations, 28)[:-1])
    assert t == P.HELLO
    assert P.unpack_hello(payload) == (1, 0, P.FIRMWARE_VERSION, 0xCAFE, stations, 28)


def test_a_later_minor_version_may_append_fields() -> None:
    t, payload = P.decode_frame(P.encode_frame(P.ACK, b"\x05\x00\x00\x00extra")[:-1])
    assert P.unpack(t, payload) == (5,)


# --- PROTOCOL.md's worked frames -------------------------------------------------------------

NAMED = {"button": {"slap": 0, "flip": 1, "menu": 2},
         "kind": {"press": 0, "release": 1, "stuck": 2, "unstuck": 3},
         "mode": {"off": 0, "on": 1, "blink": 2}}
TYPES = {name: t for t, name in P.NAMES.items()}


def _examples() -> list[tuple[str, dict[str, str], bytes, bytes, bytes]]:
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    found = re.findall(r"example: (\S+)(.*)\nbody: +([0-9a-f ]+)\ncrc32: +([0-9a-f ]+)\n"
                       r"wire: +([0-9a-f ]+)\n", text)
    out = []
    for name, rest, body, crc, wire in found:
        fields = dict(kv.split("=", 1) for kv in rest.split())
        out.append((name, fields, bytes.fromhex(body), bytes.fromhex(crc), bytes.fromhex(wire)))
    return out


def _value(key: str, v: str) -> int:
    if key in NAMED:
        return NAMED[key][v]
    return int(v, 16) if v.startswith("0x") else int(v)


def test_protocol_md_has_a_worked_frame_of_every_message() -> None:
    assert {name for name, *_ in _examples()} == set(TYPES)


@pytest.mark.parametrize("name,fields,body,crc,wire", _examples(), ids=lambda x: str(x)[:20])
def test_protocol_md_frame_decodes_to_its_fields(name: str, fields: dict[str, str], body: bytes,
                                                  crc: bytes, wire: bytes) -> None:
    assert wire[-1] == 0
    assert pypi_cobs.decode(wire[:-1]) == body + crc  # the independent decoder agrees
    assert zlib.crc32(body).to_bytes(4, "little") == crc
    mtype, payload = P.decode_frame(wire[:-1])
    assert mtype == TYPES[name] and bytes((1, mtype)) + payload == body
    if mtype == P.HELLO:
        major, minor, fw, boot, stations, menu = P.unpack_hello(payload)
        assert (major, minor, boot, menu) == tuple(_value(k, fields[k]) for k in
                                                   ("major", "minor", "boot_id", "menu_pin"))
        assert ".".join(map(str, fw)) == fields["firmware"]
        assert stations == [tuple(int(p) for p in s.split("/"))
                            for s in fields["stations"].split(",")]
        return
    values = tuple(_value(k, v) for k, v in fields.items())
    assert P.unpack(mtype, payload) == values
    assert P.pack(mtype, *values) == wire  # and the encoder makes it byte for byte


# --- streams: split, merged, garbled, truncated ----------------------------------------------

EDGES = [P.pack(P.EDGE, i, 1000 * i, i % 4, 0, 0) for i in range(1, 9)]


def test_frames_split_anywhere_are_read_whole() -> None:
    stream = b"".join(EDGES)
    for cut in range(1, len(stream)):
        r = P.FrameReader()
        assert r.feed(stream[:cut]) + r.feed(stream[cut:]) == [P.decode_frame(f[:-1]) for f in EDGES]
        assert r.errors == {}


def test_frames_fed_one_byte_at_a_time_are_read_whole() -> None:
    r = P.FrameReader()
    got = [f for b in b"".join(EDGES) for f in r.feed(bytes([b]))]
    assert len(got) == len(EDGES) and r.errors == {}


def test_a_garbled_frame_is_dropped_and_counted_and_its_neighbours_survive() -> None:
    bad = bytearray(EDGES[1])
    bad[-3] ^= 0x01  # inside the CRC: the COBS layout stays valid, the checksum does not
    assert bad[-3] != 0
    r = P.FrameReader()
    got = r.feed(EDGES[0] + bytes(bad) + EDGES[2])
    assert got == [P.decode_frame(EDGES[0][:-1]), P.decode_frame(EDGES[2][:-1])]
    assert r.errors == {"crc": 1}
    assert "CRC-32" in r.last_error and "expected" in r.last_error


def test_a_truncated_frame_is_dropped_not_glued_to_the_next() -> None:
    r = P.FrameReader()
    got = r.feed(EDGES[0][:9] + b"\x00" + EDGES[1])
    assert got == [P.decode_frame(EDGES[1][:-1])]
    assert sum(r.errors.values()) == 1


def test_an_endless_frame_is_bounded_and_the_stream_recovers() -> None:
    r = P.FrameReader()
    for _ in range(100):
        assert r.feed(b"\x01" * 1000) == []
        assert len(r._buf) <= P.MAX_WIRE
    assert r.feed(b"\x00" + EDGES[0]) == [P.decode_frame(EDGES[0][:-1])]
    assert r.errors == {"overlong": 1}


def test_another_major_version_is_refused_with_a_message() -> None:
    body = bytes((2, P.ACK, 1, 0, 0, 0))
    frame = P.cobs_encode(body + zlib.crc32(body).to_bytes(4, "little"))
    with pytest.raises(P.FrameError, match="protocol version 2, expected 1"):
        P.decode_frame(frame)


# --- the host session: only valid, next-in-sequence edges become presses ---------------------

def _session() -> tuple[HostSession, list[BridgeEdge]]:
    got: list[BridgeEdge] = []
    now = [0]
    clocks = HostClocks(lambda: now[0], lambda: now[0])
    s = HostSession(BridgeConfig(), clocks, got.append)
    s.connection_made(0)
    s.data_received(P.pack_hello(0xB007, [(0, 1, 20)] * 4, 28), 1)
    # a clock: device µs = host ns / 1000, 20 pongs over 0.4 s
    for i in range(20):
        t = 20_000_000 * i
        s._pings[i + 1] = t
        s.data_received(P.pack(P.PONG, i + 1, t, t // 1000 + 50, t // 1000 + 50), t + 100_000)
    assert s.sync.ready and s.state == "connected"
    return s, got


def test_in_order_edges_are_delivered_once_and_acknowledged() -> None:
    s, got = _session()
    out = s.data_received(b"".join(EDGES[:3]), 10**9)
    assert [e.seq for e in got] == [1, 2, 3]
    assert P.decode_frame(out.split(b"\x00")[0]) == (P.ACK, (3).to_bytes(4, "little"))
    assert abs(got[0].t_ns - 1_000_000) < 100_000  # device 1000 µs -> host ~1 ms


def test_duplicates_and_replays_never_become_a_second_press() -> None:
    s, got = _session()
    s.data_received(EDGES[0] + EDGES[0] + EDGES[1] + EDGES[0] + EDGES[1], 10**9)
    assert [e.seq for e in got] == [1, 2]
    assert s.errors()["duplicate"] == 3


def test_a_gap_waits_for_the_resend_and_keeps_the_order() -> None:
    s, got = _session()
    s.data_received(EDGES[0] + EDGES[2], 10**9)  # 2 was lost on the line
    assert [e.seq for e in got] == [1] and s.errors()["gap"] == 1
    s.data_received(EDGES[1] + EDGES[2], 10**9)  # the device resends from 2
    assert [e.seq for e in got] == [1, 2, 3]


def test_a_valid_frame_with_an_impossible_station_is_not_a_press() -> None:
    s, got = _session()
    s.data_received(P.pack(P.EDGE, 1, 5, 7, 0, 0) + P.pack(P.EDGE, 2, 6, 0, 9, 0), 10**9)
    assert got == [] and s.errors()["bad field"] == 2


def test_edges_before_the_config_are_ignored() -> None:
    got: list[BridgeEdge] = []
    clocks = HostClocks(lambda: 0, lambda: 0)
    s = HostSession(BridgeConfig(), clocks, got.append)
    s.connection_made(0)
    s.data_received(EDGES[0], 1)
    assert got == [] and s.errors()["before config"] == 1


def test_a_new_boot_id_is_a_reset_the_host_reports() -> None:
    s, got = _session()
    states: list[tuple[str, str]] = []
    s._status = lambda st, why: states.append((st, why))
    s.data_received(EDGES[0], 10**9)
    s.data_received(P.pack_hello(0xB008, [(0, 1, 20)] * 4, 28), 10**9)
    assert s.errors()["reset"] == 1 and s.last_seq == 0
    assert states and "restarted" in states[-1][1]
    s.data_received(EDGES[0], 2 * 10**9)  # seq 1 again, from the new boot: accepted once synced
    assert s.last_seq == 1


# --- fuzzing under fixed seeds ---------------------------------------------------------------

@FUZZ
@seed(20240611)
@given(st.binary(max_size=4000))
def test_random_bytes_never_raise_and_never_press(data: bytes) -> None:
    s, got = _session()
    s.data_received(data, 10**9)
    assert got == []


@FUZZ
@seed(11)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 7), st.integers(0, 255)),
                max_size=40), st.integers(1, 40))
def test_mutated_streams_deliver_only_true_events_once_in_order(
        mutations: list[tuple[int, int, int]], chunk: int) -> None:
    stream = bytearray(b"".join(EDGES))
    for pos, bit, byte in mutations:
        i = pos % len(stream)
        if byte % 3 == 0:
            stream[i] ^= 1 << bit          # a flipped bit
        elif byte % 3 == 1:
            del stream[i]                  # a lost byte
        else:
            stream.insert(i, byte)         # an extra byte
    s, got = _session()
    for i in range(0, len(stream), chunk):
        s.data_received(bytes(stream[i:i + chunk]), 10**9)
    truth = {i: (i % 4, "slap", "press", 1000 * i) for i in range(1, 9)}
    assert [e.seq for e in got] == list(range(1, len(got) + 1))
    for e in got:
        assert (e.station, e.button, e.kind, e.device_us) == truth[e.seq]


def test_a_million_random_bytes_make_no_press() -> None:
    rnd = random.Random(5)
    s, got = _session()
    for _ in range(250):
        s.data_received(rnd.randbytes(4000), 10**9)
    assert got == []
    assert sum(s.errors().values()) > 1000  # and every bad chunk was counted
