"""The bridge's wire protocol and the device's message logic: one pure module for CPython and MicroPython.

Everything both ends must agree on lives here: COBS framing with a CRC-32 (``binascii.crc32``),
the message layouts (``struct``, little-endian), sequence numbers and acknowledgements, the
extension of a wrapping µs counter to 64 bits, the leading-edge bookkeeping of every button, and
the device side of a session (`Device`). `firmware_bridge/PROTOCOL.md` is the specification; this
module is its reference implementation.

It runs unchanged on MicroPython (the Pico's firmware, and the tests under MicroPython on Node.js):
integers only (the RP2040 port's floats are single precision), no ``typing``, ``dataclasses`` or
``__future__``, no f-strings with conversions, ``collections.deque`` with a maxlen given
positionally, and no time source: every time is an argument.
"""

import binascii
import struct
from collections import deque

PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 0
FIRMWARE_VERSION = (0, 1, 0)

# -- message types (PROTOCOL.md, "Messages") ----------------------------------------------------
HOST_HELLO = 0x01  # host -> device
HELLO = 0x02       # device -> host
CONFIG = 0x03      # host -> device
EDGE = 0x04        # device -> host
ACK = 0x05         # host -> device
HEARTBEAT = 0x06   # device -> host
PING = 0x07        # host -> device
PONG = 0x08        # device -> host
LED = 0x09         # host -> device
ERROR = 0x0A       # both ways
REPL = 0x0B        # host -> device
BYE = 0x0C         # device -> host

NAMES = {HOST_HELLO: "host-hello", HELLO: "hello", CONFIG: "config", EDGE: "edge", ACK: "ack",
         HEARTBEAT: "heartbeat", PING: "ping", PONG: "pong", LED: "led", ERROR: "error",
         REPL: "repl", BYE: "bye"}

# fixed-size payloads; HELLO has a fixed head and one 3-byte record per station, then the menu pin
FORMATS = {
    HOST_HELLO: "<BB",        # protocol major, minor
    HELLO: "<BBBBBIB",        # protocol major, minor, firmware major, minor, patch, boot id, stations
    CONFIG: "<IIIHBI",        # boot id, release µs, stuck µs, buttons mask, menu, resume ack
    EDGE: "<IQbBB",           # seq, device µs, station, button, kind
    ACK: "<I",                # every seq up to this one was received
    HEARTBEAT: "<QIIIHHII",   # device µs, edges, dropped, resent, queue hwm, queue len, bad rx, last seq
    PING: "<IQ",              # ping id, host time (echoed back, opaque to the device)
    PONG: "<IQQQ",            # ping id, echoed host time, device µs at receipt, device µs at send
    LED: "<BBHHB",            # station, mode, on ms, off ms, times
    ERROR: "<BBI",            # code, message type it is about, argument
    REPL: "<I",               # magic
    BYE: "<B",                # reason
}
SIZES = {}
for _t in FORMATS:
    SIZES[_t] = struct.calcsize(FORMATS[_t])

# buttons and edge kinds as they are on the wire
SLAP = 0
FLIP = 1
MENU = 2
BUTTON_NAMES = ("slap", "flip", "menu")
PRESS = 0
RELEASE = 1
STUCK = 2
UNSTUCK = 3
KIND_NAMES = ("press", "release", "stuck", "unstuck")
MENU_STATION = -1
MENU_BIT = 16          # button bit of the MENU button; station s's slap is bit 2s, its flip 2s+1
NO_PIN = 0xFF
MAX_STATIONS = 8

LED_OFF = 0
LED_ON = 1
LED_BLINK = 2

# error codes (PROTOCOL.md, "error")
E_VERSION = 1        # a frame of another protocol major version
E_UNKNOWN = 2        # a message type this side does not know (arg: the type)
E_LENGTH = 3         # a payload shorter than its layout
E_NOT_CONFIGURED = 4  # an edge or LED message before CONFIG
E_BAD_VALUE = 5      # a field out of range (arg: which field, 1-based)
E_OVERFLOW = 6       # the device's event queue was full: events were dropped (arg: how many)
ERROR_NAMES = {E_VERSION: "protocol version", E_UNKNOWN: "unknown message type",
               E_LENGTH: "payload too short", E_NOT_CONFIGURED: "not configured yet",
               E_BAD_VALUE: "value out of range", E_OVERFLOW: "event queue overflow"}

REPL_MAGIC = 0x4C504552  # b"REPL" read little-endian: a stray frame cannot hand over the port

HEADER = 2               # version byte, type byte
CRC_SIZE = 4
MAX_PAYLOAD = 64
MAX_BODY = HEADER + MAX_PAYLOAD + CRC_SIZE
MAX_WIRE = MAX_BODY + 2  # COBS adds one byte per 254 and the leading code byte
DELIMITER = b"\x00"

_U32 = 0xFFFFFFFF


class FrameError(ValueError):
    """A frame or message that cannot be read; the message says what was wrong and what was expected."""

    def __init__(self, kind, message):
        super().__init__(message)  # MicroPython's ValueError has no __init__ to call by name
        self.kind = kind


# -- COBS ----------------------------------------------------------------------------------------

def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: ``data`` with every zero byte removed (no delimiter added)."""
    out = bytearray()
    segs = bytes(data).split(b"\x00")
    last = len(segs) - 1
    for i in range(len(segs)):
        seg = segs[i]
        n = len(seg)
        j = 0
        while n - j >= 254:
            out.append(0xFF)
            out += seg[j:j + 254]
            j += 254
            if j == n and i == last:
                return bytes(out)  # a final run of exactly 254: no closing code (as PyPI cobs)
        out.append(n - j + 1)
        out += seg[j:]
    return bytes(out)


def cobs_decode(enc):
    """The inverse of `cobs_encode`; raises `FrameError` on a malformed encoding."""
    out = bytearray()
    n = len(enc)
    i = 0
    while i < n:
        code = enc[i]
        if code == 0:
            raise FrameError("cobs", "COBS: zero byte at offset %d inside a frame "
                                     "(expected zeros only as frame delimiters)" % i)
        end = i + code
        if end > n:
            raise FrameError("cobs", "COBS: block at offset %d claims %d bytes but the frame "
                                     "has only %d (expected a complete frame)" % (i, code - 1, n - i - 1))
        out += enc[i + 1:end]
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


# -- frames --------------------------------------------------------------------------------------

def crc32(data):
    return binascii.crc32(data) & _U32


def encode_frame(mtype, payload):
    """One frame on the wire: COBS(version, type, payload, CRC-32 LE) and the 0x00 delimiter."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload of %d bytes, expected at most %d" % (len(payload), MAX_PAYLOAD))
    body = bytes((PROTOCOL_MAJOR, mtype)) + bytes(payload)
    return cobs_encode(body + struct.pack("<I", crc32(body))) + DELIMITER


def decode_frame(enc):
    """(type, payload) of one frame without its delimiter; raises `FrameError` naming the fault."""
    if len(enc) > MAX_WIRE:
        raise FrameError("overlong", "frame of %d bytes, expected at most %d" % (len(enc), MAX_WIRE))
    body = cobs_decode(enc)
    n = len(body)
    if n < HEADER + CRC_SIZE:
        raise FrameError("short", "frame of %d bytes, expected at least %d (version, type, CRC-32)"
                         % (n, HEADER + CRC_SIZE))
    got = body[n - 4] | (body[n - 3] << 8) | (body[n - 2] << 16) | (body[n - 1] << 24)
    want = crc32(body[:n - 4])
    if got != want:
        raise FrameError("crc", "frame of %d bytes: CRC-32 0x%08x, expected 0x%08x (corrupted "
                                "on the line)" % (n, got, want))
    if body[0] != PROTOCOL_MAJOR:
        raise FrameError("version", "frame of protocol version %d, expected %d"
                         % (body[0], PROTOCOL_MAJOR))
    return body[1], body[2:n - 4]


def pack(mtype, *fields):
    """A frame of message ``mtype`` with the fields of its layout."""
    return encode_frame(mtype, struct.pack(FORMATS[mtype], *fields))


def unpack(mtype, payload):
    """The fields of a fixed-layout message; longer payloads are accepted (later minor versions
    may append fields), shorter ones raise `FrameError`."""
    fmt = FORMATS.get(mtype)
    if fmt is None:
        raise FrameError("unknown", "message type 0x%02x, expected one of 0x01..0x0c" % mtype)
    size = SIZES[mtype]
    if len(payload) < size:
        raise FrameError("length", "%s message of %d bytes, expected at least %d"
                         % (NAMES[mtype], len(payload), size))
    return struct.unpack(fmt, payload[:size])


def pack_hello(boot_id, stations, menu_pin, firmware=FIRMWARE_VERSION):
    """HELLO: versions, boot id, and for each station its (slap, flip, led) pins (NO_PIN: none)."""
    if len(stations) > MAX_STATIONS:
        raise ValueError("%d stations, expected at most %d" % (len(stations), MAX_STATIONS))
    p = struct.pack(FORMATS[HELLO], PROTOCOL_MAJOR, PROTOCOL_MINOR, firmware[0], firmware[1],
                    firmware[2], boot_id & _U32, len(stations))
    for s in stations:
        p += struct.pack("<BBB", s[0], s[1], s[2])
    return encode_frame(HELLO, p + struct.pack("<B", menu_pin))


def unpack_hello(payload):
    """(major, minor, firmware tuple, boot id, [(slap, flip, led)...], menu pin) of a HELLO."""
    head = unpack(HELLO, payload)
    n = head[6]
    if n > MAX_STATIONS:
        raise FrameError("value", "hello: %d stations, expected at most %d" % (n, MAX_STATIONS))
    need = SIZES[HELLO] + 3 * n + 1
    if len(payload) < need:
        raise FrameError("length", "hello with %d stations of %d bytes, expected at least %d"
                         % (n, len(payload), need))
    stations = []
    o = SIZES[HELLO]
    for i in range(n):
        stations.append((payload[o], payload[o + 1], payload[o + 2]))
        o += 3
    return head[0], head[1], (head[2], head[3], head[4]), head[5], stations, payload[o]


class FrameReader:
    """Splits a byte stream at delimiters into decoded frames, in a bounded buffer.

    ``feed(data)`` returns the list of (type, payload) read; every fault is counted in
    ``errors[kind]`` and the last one described in ``last_error``. Bytes beyond `MAX_WIRE` without
    a delimiter are dropped until the next delimiter (one "overlong" error), so the buffer never
    holds more than `MAX_WIRE` bytes whatever arrives.
    """

    def __init__(self):
        self._buf = bytearray()
        self._skipping = False
        self.frames = 0
        self.errors = {}
        self.last_error = ""

    def error(self, kind, message):
        self.errors[kind] = self.errors.get(kind, 0) + 1
        self.last_error = message

    def reset(self):
        """Forget a partial frame (a new connection starts clean)."""
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data):
        out = []
        start = 0
        n = len(data)
        while start < n:
            z = data.find(b"\x00", start)
            if z < 0:
                if not self._skipping:
                    self._buf += data[start:]
                    if len(self._buf) > MAX_WIRE:
                        self.error("overlong", "more than %d bytes without a frame delimiter, "
                                               "expected frames of at most %d" % (MAX_WIRE, MAX_WIRE))
                        self._buf = bytearray()
                        self._skipping = True
                break
            if self._skipping:
                self._skipping = False
            else:
                if self._buf:
                    self._buf += data[start:z]
                    chunk = bytes(self._buf)
                    self._buf = bytearray()
                else:
                    chunk = data[start:z]
                if chunk:  # an empty frame (two delimiters) is a resync, not an error
                    if len(chunk) > MAX_WIRE:
                        self.error("overlong", "frame of %d bytes, expected at most %d"
                                   % (len(chunk), MAX_WIRE))
                    else:
                        try:
                            out.append(decode_frame(chunk))
                            self.frames += 1
                        except FrameError as e:
                            self.error(e.kind, str(e))
            start = z + 1
        return out


# -- device time ---------------------------------------------------------------------------------

class TimeExtender:
    """Extends a wrapping counter (``time.ticks_us`` wraps at 2**30 on the RP2040) to 64 bits.

    Correct as long as it is read at least once per half period (~9 min for 30 bits).
    """

    def __init__(self, bits=30):
        self.period = 1 << bits
        self._mask = self.period - 1
        self._last = 0
        self._high = 0
        self._started = False

    def extend(self, raw):
        raw &= self._mask
        if self._started and raw < self._last:
            self._high += self.period
        self._started = True
        self._last = raw
        return self._high + raw


# -- the device side -----------------------------------------------------------------------------

_NEVER = 1 << 62


class Button:
    """Leading-edge bookkeeping of one button, in device µs (as device/inputs/debounce.py on the host).

    Any change seen while released is contact: the press, stamped at that sample. The button is then
    locked until it has been stably up for ``release_us`` (the release, stamped at its last rise),
    and reported stuck if not released within ``stuck_us`` of the press.
    """

    def __init__(self, station, button):
        self.station = station
        self.button = button
        self.locked = False
        self.low = False
        self.stuck = False
        self.up_since = 0
        self.stuck_at = _NEVER

    def deadline(self, release_us):
        if not self.locked:
            return _NEVER
        if self.low:
            return self.stuck_at
        return min(self.up_since + release_us, self.stuck_at)


class Device:
    """The device end of a session, fed bytes and samples; frames to send collect in ``tx``.

    ``stations``: (slap, flip, led) pins per station (NO_PIN where absent); ``menu_pin`` likewise.
    Times are device µs (64-bit, from the caller). Unacknowledged edge events are kept (at most
    ``queue_size``) and resent after ``resend_us`` without an ack, and after every CONFIG that
    names this boot id; a full queue drops the new event and counts it.
    """

    def __init__(self, boot_id, stations, menu_pin=NO_PIN, queue_size=64, heartbeat_us=250000,
                 resend_us=200000, firmware=FIRMWARE_VERSION):
        self.boot_id = boot_id & _U32
        self.stations = list(stations)
        self.menu_pin = menu_pin
        self.firmware = firmware
        self.heartbeat_us = heartbeat_us
        self.resend_us = resend_us
        self.reader = FrameReader()
        self.tx = []
        self.configured = False
        self.release_us = 20000
        self.stuck_us = 3000000
        self.buttons = {}  # bit -> Button, the watched ones (CONFIG says which)
        self.leds = [LED_OFF] * len(self.stations)
        self.led_cmds = []  # (station, mode, on_ms, off_ms, times) for the pin layer to apply
        self.queue = deque((), queue_size)
        self.queue_size = queue_size
        self.seq = 0
        self.acked = 0
        self.edges = 0
        self.dropped = 0
        self.resent = 0
        self.hwm = 0
        self.bad_rx = 0
        self.repl_requested = False
        self._next_heartbeat = 0
        self._sent_at = 0  # when the oldest unacked event was last sent
        self._last_resend = -_NEVER
        self.send_hello()

    # -- to the host --

    def send_hello(self):
        self.tx.append(pack_hello(self.boot_id, self.stations, self.menu_pin, self.firmware))

    def _error(self, code, about, arg):
        self.tx.append(pack(ERROR, code, about, arg & _U32))

    def take_tx(self):
        """The frames to send, in order (the caller writes them to the port)."""
        out = self.tx
        self.tx = []
        return out

    # -- from the host --

    def receive(self, data, now_us):
        """Bytes from the host, received at ``now_us``."""
        before = self.reader.frames
        errs = sum(self.reader.errors.values())
        for mtype, payload in self.reader.feed(data):
            try:
                self._handle(mtype, payload, now_us)
            except FrameError as e:
                self.bad_rx += 1
                self._error(E_UNKNOWN if e.kind == "unknown" else E_LENGTH, mtype, len(payload))
        self.bad_rx += sum(self.reader.errors.values()) - errs
        return self.reader.frames - before

    def _handle(self, mtype, payload, now_us):
        if mtype == PING:
            pid, t1 = unpack(PING, payload)
            self.tx.append(pack(PONG, pid, t1, now_us, now_us))
        elif mtype == ACK:
            (n,) = unpack(ACK, payload)
            self._ack(n, now_us)
        elif mtype == HOST_HELLO:
            major, _minor = unpack(HOST_HELLO, payload)
            self.configured = False
            if major != PROTOCOL_MAJOR:
                self._error(E_VERSION, HOST_HELLO, PROTOCOL_MAJOR)
            self.send_hello()
        elif mtype == CONFIG:
            self._config(unpack(CONFIG, payload), now_us)
        elif mtype == LED:
            station, mode, on_ms, off_ms, times = unpack(LED, payload)
            if not 0 <= station < len(self.stations):
                self._error(E_BAD_VALUE, LED, 1)
            elif mode > LED_BLINK:
                self._error(E_BAD_VALUE, LED, 2)
            else:
                self.leds[station] = mode
                self.led_cmds.append((station, mode, on_ms, off_ms, times))
        elif mtype == REPL:
            (magic,) = unpack(REPL, payload)
            if magic == REPL_MAGIC:
                self.repl_requested = True
                self.tx.append(pack(BYE, 0))
            else:
                self._error(E_BAD_VALUE, REPL, 1)
        elif mtype == ERROR:
            pass  # the host complains; it also counts on its side
        else:
            self._error(E_UNKNOWN, mtype, mtype)

    def _config(self, fields, now_us):
        boot_id, release_us, stuck_us, mask, menu, ack = fields
        self.release_us = release_us
        self.stuck_us = stuck_us if stuck_us else _NEVER
        watched = {}
        for s in range(len(self.stations)):
            for b in (SLAP, FLIP):
                bit = 2 * s + b
                if mask >> bit & 1 and (b == SLAP or self.stations[s][1] != NO_PIN):
                    watched[bit] = self.buttons.get(bit) or Button(s, b)
        if menu and self.menu_pin != NO_PIN:
            watched[MENU_BIT] = self.buttons.get(MENU_BIT) or Button(MENU_STATION, MENU)
        self.buttons = watched
        self.configured = True
        if boot_id == self.boot_id:
            self._ack(ack, now_us)
        self._resend(now_us)
        self._next_heartbeat = now_us

    def _ack(self, n, now_us):
        if n > self.seq:
            return  # acknowledges what was never sent: ignore (a confused host)
        q = self.queue
        advanced = False
        while q and q[0][0] <= n:
            q.popleft()
            advanced = True
        if n > self.acked:
            self.acked = n
        if advanced:
            self._sent_at = now_us
        elif q and n == self.acked and now_us - self._last_resend >= self.resend_us // 4:
            # an ack that does not advance while events wait: the host saw a gap (go-back-N)
            self._resend(now_us)

    def _resend(self, now_us):
        if not self.configured:
            return
        for item in self.queue:
            self.tx.append(item[1])
            self.resent += 1
        self._sent_at = now_us
        self._last_resend = now_us

    # -- from the pins --

    def _event(self, station, button, kind, t_us):
        self.edges += 1
        if len(self.queue) >= self.queue_size:
            self.dropped += 1
            return
        self.seq += 1
        frame = pack(EDGE, self.seq, t_us, station, button, kind)
        if not self.queue:
            self._sent_at = t_us
        self.queue.append((self.seq, frame))
        if len(self.queue) > self.hwm:
            self.hwm = len(self.queue)
        if self.configured:
            self.tx.append(frame)

    def sample(self, changed, levels, t_us):
        """Pins that ``changed`` (a button-bit mask) with the ``levels`` after (bit set = up), all
        read at the one instant ``t_us``."""
        self.poll(t_us)
        for bit in self.buttons:
            if not changed >> bit & 1:
                continue
            b = self.buttons[bit]
            up = levels >> bit & 1
            if not b.locked:
                # any change while released is contact (a fall may have been missed)
                b.locked = True
                b.low = True
                b.stuck = False
                b.stuck_at = t_us + self.stuck_us
                self._event(b.station, b.button, PRESS, t_us)
                if up:
                    b.low = False
                    b.up_since = t_us
            elif up:
                b.low = False
                b.up_since = t_us
            else:
                b.low = True

    def poll(self, now_us):
        """Releases and stuck buttons due by ``now_us``."""
        for bit in self.buttons:
            b = self.buttons[bit]
            while b.locked:
                release_at = _NEVER if b.low else b.up_since + self.release_us
                if release_at <= now_us and release_at <= b.stuck_at:
                    b.locked = False
                    self._event(b.station, b.button, RELEASE, b.up_since)
                    if b.stuck:
                        b.stuck = False
                        self._event(b.station, b.button, UNSTUCK, b.up_since)
                elif b.stuck_at <= now_us and not b.stuck:
                    b.stuck = True
                    self._event(b.station, b.button, STUCK, b.stuck_at)
                    b.stuck_at = _NEVER
                else:
                    break

    def next_deadline(self, now_us):
        """The next µs at which `tick` has something to do."""
        d = self._next_heartbeat if self.configured else _NEVER
        if self.queue and self.configured:
            d = min(d, self._sent_at + self.resend_us)
        for bit in self.buttons:
            d = min(d, self.buttons[bit].deadline(self.release_us))
        return max(d, now_us)

    def tick(self, now_us):
        """Deadlines: releases, stuck buttons, the heartbeat, resends of unacknowledged events."""
        self.poll(now_us)
        if not self.configured:
            return
        if self.queue and now_us - self._sent_at >= self.resend_us:
            self._resend(now_us)
        if now_us >= self._next_heartbeat:
            self._next_heartbeat = now_us + self.heartbeat_us
            self.tx.append(pack(HEARTBEAT, now_us, self.edges & _U32, self.dropped & _U32,
                                self.resent & _U32, min(self.hwm, 0xFFFF),
                                min(len(self.queue), 0xFFFF), self.bad_rx & _U32,
                                self.seq & _U32))

    def reset_link(self):
        """The host went away (unplugged): wait for its next HOST_HELLO before sending events."""
        self.configured = False
        self.reader.reset()
