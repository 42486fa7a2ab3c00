"""The host end of the bridge: a session fed bytes, and a supervised reader thread on any pyserial URL.

Two levels, as pyserial's own ``serial.threaded``: `HostSession` is fed bytes and times and
returns the bytes to send, and never sees a port, so every fault is tested by feeding bytes; `Link`
owns a port opened with ``serial.serial_for_url`` (``/dev/ttyACM0``, ``/dev/slapbox-bridge``,
``socket://HOST:PORT``, ``loop://``) and a reader thread on the pattern of
``serial.threaded.ReaderThread`` (``read(in_waiting or 1)`` with a timeout, data handed to the
protocol object), with what ReaderThread lacks: the frame buffer is bounded (`FrameReader`), an
exception in the protocol is counted and the session restarted instead of ending the thread for
good, the port is reopened with backoff when it goes away, and a silent bridge counts as gone.

Never a false press: an event is delivered only from a frame whose CRC-32, version, layout and
fields are right, from a configured session, with exactly the next sequence number of the current
boot id. Duplicates and replays are acknowledged again and dropped; a gap asks for a resend.
Every rejected frame is counted by kind in ``counters``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from device.errors import SlapboxError
from firmware_bridge import protocol as P
from firmware_bridge.clocksync import ClockSync, HostClocks, NotSynced

__all__ = ["BridgeConfig", "BridgeEdge", "BridgeStatus", "HostSession", "Link", "LinkTimeout",
           "BridgeURLError", "check_url", "source_of", "parse_source"]

log = logging.getLogger("slapbox.bridge")

MS = 1_000_000
S = 1_000_000_000


class BridgeURLError(SlapboxError, ValueError):
    """A port URL pyserial cannot open."""


class LinkTimeout(Exception):
    """The bridge said nothing for too long (or never answered the handshake)."""


class BridgeConfig(NamedTuple):
    """What the host asks of the bridge (sent in CONFIG) and how patient it is."""

    stations: int | None = None  # None: every station the bridge has
    flip: bool = True
    menu: bool = True
    release_ns: int = 20 * MS
    stuck_ns: int = 3 * S
    silence_ns: int = 1 * S        # no valid frame for this long: the link is gone
    fast_ping_ns: int = 10 * MS    # ping period for the first fast_for_ns of a session
    fast_for_ns: int = 10 * S
    ping_ns: int = 50 * MS         # ping period afterwards


class BridgeEdge(NamedTuple):
    """One event from the bridge, mapped: kind "press"/"release"/"stuck"/"unstuck"."""

    station: int
    button: str
    kind: str
    t_ns: int        # on the host's clock
    device_us: int   # as the bridge stamped it
    err_ns: int      # the mapping's error bar
    seq: int


class BridgeStatus(NamedTuple):
    """The link's state for the screen: "connecting", "syncing", "connected" or "disconnected"."""

    state: str
    reason: str
    t_ns: int

    @property
    def connected(self) -> bool:
        return self.state == "connected"


def source_of(device_us: int, err_ns: int) -> str:
    """The ``source`` of a bridge Press: keeps the raw device time and the error bar in the journal."""
    return f"bridge@{device_us}us~{(err_ns + 999) // 1000}us"


def parse_source(source: str) -> tuple[int, int] | None:
    """(device µs, error bar µs) from a `source_of` string, or None for another source."""
    if not source.startswith("bridge@") or "us~" not in source or not source.endswith("us"):
        return None
    dev, err = source[7:-2].split("us~", 1)
    try:
        return int(dev), int(err)
    except ValueError:
        return None


def check_url(url: object) -> str:
    """``url`` if pyserial can make a port of it; else `BridgeURLError` saying what is expected."""
    import serial

    expected = ("expected a serial device (/dev/ttyACM0, /dev/slapbox-bridge) or a pyserial URL "
                "(socket://HOST:PORT, loop://)")
    if not isinstance(url, str) or not url.strip():
        raise BridgeURLError(f"bridge: port {url!r}: {expected}")
    try:
        serial.serial_for_url(url, do_not_open=True)
    except (ValueError, serial.SerialException) as e:
        raise BridgeURLError(f"bridge: port {url!r}: {e}; {expected}") from None
    if url.startswith("socket://"):
        rest = url[9:].split("?", 1)[0]
        host, _, port = rest.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise BridgeURLError(f"bridge: port {url!r}: expected socket://HOST:PORT with a port "
                                 "number 1..65535")
    return url


class HostSession:
    """The host's side of one bridge, over successive connections (pure: bytes and times in).

    ``emit(BridgeEdge)`` is called for each accepted event in sequence order; ``status(state,
    reason)`` when the state changes. Times are the raw host clock (``clocks.raw_ns``) in ns.
    """

    def __init__(self, config: BridgeConfig, clocks: HostClocks,
                 emit: Callable[[BridgeEdge], object],
                 status: Callable[[str, str], object] = lambda s, r: None,
                 sync: ClockSync | None = None) -> None:
        self.config = config
        self.clocks = clocks
        self.sync = sync or ClockSync()
        self._emit = emit
        self._status = status
        self.reader = P.FrameReader()
        self.state = "connecting"
        self.boot_id: int | None = None
        self.hello: tuple[Any, ...] | None = None
        self.last_seq = 0
        self.counters: dict[str, int] = {}
        self.heartbeat: dict[str, int] = {}
        self.leds: dict[int, bytes] = {}  # the last LED frame of each station, sent again on resume
        self._pending: list[tuple[int, int, int, int, int]] = []  # in order, until the clock syncs
        self._pings: dict[int, int] = {}
        self._ping_id = 0
        self._session_start = 0
        self._next_ping = 0
        self._last_rx = 0
        self._next_hello = 0
        self._configured = False
        self._mask = 0
        self._menu = False

    # --- bookkeeping -----------------------------------------------------------------------

    def count(self, kind: str, n: int = 1) -> None:
        self.counters[kind] = self.counters.get(kind, 0) + n

    def errors(self) -> dict[str, int]:
        """Every fault counted so far: the frame reader's and the session's."""
        out = dict(self.reader.errors)
        for k, v in self.counters.items():
            out[k] = out.get(k, 0) + v
        return out

    def _set(self, state: str, reason: str) -> None:
        if state != self.state:
            self.state = state
            self._status(state, reason)

    # --- the connection's life ---------------------------------------------------------------

    def connection_made(self, now: int) -> bytes:
        self.reader.reset()
        self._configured = False
        self._session_start = now
        self._last_rx = now
        self._next_hello = now + 300 * MS
        self._next_ping = now
        self._pings.clear()
        self._set("connecting", "port open, waiting for the bridge's hello")
        # a lone delimiter first: the device drops whatever partial frame it held
        return P.DELIMITER + P.pack(P.HOST_HELLO, P.PROTOCOL_MAJOR, P.PROTOCOL_MINOR)

    def connection_lost(self, reason: str) -> None:
        self._configured = False
        self._set("disconnected", reason)

    def tick(self, now: int) -> bytes:
        """Pings and handshake retries due by ``now``; raises `LinkTimeout` on a silent bridge."""
        if now - self._last_rx > self.config.silence_ns:
            raise LinkTimeout(f"no valid frame from the bridge for "
                              f"{(now - self._last_rx) / S:.1f} s (expected a heartbeat every "
                              f"0.25 s)")
        out = b""
        if not self._configured:
            if now >= self._next_hello:
                self._next_hello = now + 300 * MS
                out += P.pack(P.HOST_HELLO, P.PROTOCOL_MAJOR, P.PROTOCOL_MINOR)
            return out
        return out

    def ping_due(self, now: int) -> bool:
        return self._configured and now >= self._next_ping

    def ping(self, now: int) -> bytes:
        """A PING stamped ``now``: write it at once (its stamp is the send time, t1)."""
        fast = now - self._session_start < self.config.fast_for_ns
        self._next_ping = now + (self.config.fast_ping_ns if fast else self.config.ping_ns)
        self._ping_id = (self._ping_id + 1) & 0xFFFFFFFF
        self._pings[self._ping_id] = now
        if len(self._pings) > 64:
            del self._pings[next(iter(self._pings))]
        return P.pack(P.PING, self._ping_id, now & 0xFFFFFFFFFFFFFFFF)

    def data_received(self, data: bytes, now: int) -> bytes:
        """Bytes from the bridge, read at ``now``; returns the bytes to send back."""
        out = []
        need_ack = False
        for mtype, payload in self.reader.feed(data):
            try:
                r = self._handle(mtype, payload, now)
            except P.FrameError as e:
                self.count(e.kind)
                log.warning("bridge: %s", e)
                continue
            self._last_rx = now
            if r is True:
                need_ack = True
            elif r:
                out.append(r)
        if need_ack:
            out.append(P.pack(P.ACK, self.last_seq))
        return b"".join(out)

    # --- messages ------------------------------------------------------------------------------

    def _handle(self, mtype: int, payload: bytes, now: int) -> bytes | bool | None:
        if mtype == P.EDGE:
            return self._edge(P.unpack(P.EDGE, payload), now)
        if mtype == P.PONG:
            pid, t1, t2, t3 = P.unpack(P.PONG, payload)
            if self._pings.pop(pid, None) != t1:
                self.count("stale pong")
                return None
            if self.sync.add(t1, t2, t3, now):
                self._flush(now)
            return None
        if mtype == P.HEARTBEAT:
            f = P.unpack(P.HEARTBEAT, payload)
            self.heartbeat = dict(zip(("device_us", "edges", "dropped", "resent", "queue_hwm",
                                       "queue_len", "bad_rx", "last_seq"), f))
            if self._configured and f[7] > self.last_seq:
                return True  # events we have not seen: ask again (an ack that does not advance)
            return None
        if mtype == P.HELLO:
            return self._hello(P.unpack_hello(payload), now)
        if mtype == P.ERROR:
            code, about, arg = P.unpack(P.ERROR, payload)
            self.count("device error")
            log.warning("bridge: the bridge reports %s about %s (%d)",
                        P.ERROR_NAMES.get(code, f"error {code}"),
                        P.NAMES.get(about, f"type {about}"), arg)
            return None
        if mtype == P.BYE:
            self._configured = False
            self._set("disconnected", "the bridge handed its port to the MicroPython REPL")
            return None
        if mtype in P.NAMES:
            self.count("unexpected")  # a host-to-device message coming back: an echoing port
            return None
        raise P.FrameError("unknown", f"message type 0x{mtype:02x}, expected one the bridge sends "
                                      "(hello, edge, heartbeat, pong, error, bye)")

    def _hello(self, hello: tuple[Any, ...], now: int) -> bytes | None:
        major, minor, firmware, boot_id, stations, menu_pin = hello
        if major != P.PROTOCOL_MAJOR:
            self.count("version")
            self._set("disconnected", f"the bridge speaks protocol {major}.{minor}, expected "
                                      f"{P.PROTOCOL_MAJOR}.x: update its firmware")
            return None
        if self.boot_id is not None and boot_id != self.boot_id:
            self.count("reset")
            log.warning("bridge: it restarted (boot id %08x -> %08x); events it had not "
                        "delivered are lost", self.boot_id, boot_id)
            self.sync.reset()
            self.last_seq = 0
            self._pending.clear()
            self._set("syncing", f"the bridge restarted (boot id {self.boot_id:08x} -> "
                                 f"{boot_id:08x}): presses it had not sent are lost")
        self.boot_id = boot_id
        self.hello = hello
        want = len(stations) if self.config.stations is None else min(self.config.stations,
                                                                     len(stations))
        mask = 0
        for s in range(want):
            mask |= 1 << (2 * s)
            if self.config.flip and stations[s][1] != P.NO_PIN:
                mask |= 1 << (2 * s + 1)
        cfg = P.pack(P.CONFIG, boot_id, self.config.release_ns // 1000,
                     self.config.stuck_ns // 1000, mask,
                     1 if self.config.menu and menu_pin != P.NO_PIN else 0, self.last_seq)
        self._configured = True
        self._mask = mask
        self._menu = bool(self.config.menu and menu_pin != P.NO_PIN)
        self._set("connected" if self.sync.ready else "syncing",
                  f"bridge firmware {'.'.join(map(str, firmware))}, {len(stations)} stations")
        return cfg + b"".join(self.leds.values())

    def _edge(self, f: tuple[int, ...], now: int) -> bool | None:
        seq, t_us, station, button, kind = f
        if not self._configured:
            self.count("before config")
            return None
        if seq <= self.last_seq:
            self.count("duplicate")
            return True  # acknowledge again: the bridge may have missed our ack
        if seq != self.last_seq + 1:
            self.count("gap")
            return True  # an ack that does not advance: the bridge resends from last_seq + 1
        if kind >= len(P.KIND_NAMES) or not self._wanted(station, button):
            # a valid frame with impossible fields: a broken firmware, never a press
            self.count("bad field")
            self.last_seq = seq
            return True
        self.last_seq = seq
        self._pending.append((seq, t_us, station, button, kind))
        self._flush(now)
        return True

    def _wanted(self, station: int, button: int) -> bool:
        if button == P.MENU:
            return station == P.MENU_STATION and self._menu
        if button not in (P.SLAP, P.FLIP) or not 0 <= station < P.MAX_STATIONS:
            return False
        return bool(self._mask >> (2 * station + button) & 1)

    def _flush(self, now: int) -> None:
        if not self._pending:
            if self.state == "syncing" and self.sync.ready and self._configured:
                self._set("connected", "clock synchronised")
            return
        if not self.sync.ready:
            return
        for seq, t_us, station, button, kind in self._pending:
            try:
                raw, err = self.sync.to_raw(t_us)
            except NotSynced:
                return
            t_ns, err2 = self.clocks.to_host(raw)
            self._emit(BridgeEdge(station, P.BUTTON_NAMES[button], P.KIND_NAMES[kind], t_ns,
                                  t_us, err + err2, seq))
        self._pending.clear()
        if self.state == "syncing" and self._configured:
            self._set("connected", "clock synchronised")

    def led_frame(self, station: int, mode: int, on_ms: int = 0, off_ms: int = 0,
                  times: int = 0) -> bytes:
        frame = P.pack(P.LED, station, mode, on_ms, off_ms, times)
        self.leds[station] = frame
        return frame


class Link:
    """A `HostSession` on a port that is reopened by itself (see module doc).

    ``on_edge`` and ``on_status`` run on the reader thread: they must only enqueue.
    """

    def __init__(self, url: str, config: BridgeConfig, clocks: HostClocks,
                 on_edge: Callable[[BridgeEdge], object],
                 on_status: Callable[[BridgeStatus], object] = lambda s: None,
                 open_port: Callable[..., Any] | None = None,
                 backoff_s: tuple[float, float] = (0.05, 1.0), read_timeout_s: float = 0.01,
                 name: str = "bridge-reader") -> None:
        self.url = check_url(url)
        self.clocks = clocks
        self._on_status = on_status
        self.session = HostSession(config, clocks, on_edge, self._status)
        if open_port is None:
            import serial
            open_port = serial.serial_for_url
        self._open_port = open_port
        self._backoff = backoff_s
        self._read_timeout = read_timeout_s
        self._stop = threading.Event()
        self._lock = threading.Lock()  # the session and the port's writes
        self._port: Any = None
        self.connections = 0
        self.status = BridgeStatus("connecting", "not started", clocks.host_ns())
        self._thread = threading.Thread(target=self._supervise, name=name, daemon=True)

    def start(self) -> Link:
        self._thread.start()
        return self

    def _status(self, state: str, reason: str) -> None:
        self.status = BridgeStatus(state, reason, self.clocks.host_ns())
        log.info("bridge: %s (%s)", state, reason)
        self._on_status(self.status)

    def counters(self) -> dict[str, int]:
        with self._lock:
            c = self.session.errors()
        c["connections"] = self.connections
        return c

    def send(self, data: bytes) -> bool:
        """Write to the bridge now if connected (from any thread); False if not connected."""
        with self._lock:
            port = self._port
            if port is None or not self.session._configured:
                return False
            try:
                port.write(data)
                return True
            except Exception:  # noqa: BLE001 -- the reader sees the same fault and reconnects
                return False

    def led(self, station: int, mode: int, on_ms: int = 0, off_ms: int = 0, times: int = 0) -> None:
        with self._lock:
            frame = self.session.led_frame(station, mode, on_ms, off_ms, times)
        self.send(frame)

    def _supervise(self) -> None:
        delay = self._backoff[0]
        while not self._stop.is_set():
            opened = False
            try:
                opened = self._connection()
            except Exception as e:  # noqa: BLE001 -- a bug must not end the link for good
                self.session.count("internal")
                log.exception("bridge: reader failed (%s); starting again", e)
                with self._lock:
                    self.session.connection_lost(f"internal error: {type(e).__name__}: {e}")
            if opened:
                delay = self._backoff[0]
            else:
                delay = min(delay * 2, self._backoff[1])
            self._stop.wait(delay)

    def _connection(self) -> bool:
        try:
            port = self._open_port(self.url, timeout=self._read_timeout)
        except Exception as e:  # noqa: BLE001 -- SerialException, OSError, ValueError: say it
            with self._lock:
                self.session.count("open failed")
                self.session._set("disconnected", f"cannot open {self.url}: {e}")
            return False
        self.connections += 1
        reason = "closed"
        try:
            with self._lock:
                self._port = port
                port.write(self.session.connection_made(self.clocks.raw_ns()))
            # socket:// reports in_waiting as 0 or 1: after the first byte, drain what has come
            # with a zero timeout (free for sockets; a tty's in_waiting is exact already)
            drain = self.url.startswith("socket://")
            while not self._stop.is_set():
                data = port.read(port.in_waiting or 1)
                now = self.clocks.raw_ns()  # t4 of a pong: when its first byte was read
                if data and drain:
                    port.timeout = 0
                    data += port.read(P.MAX_WIRE * 16)
                    port.timeout = self._read_timeout
                with self._lock:
                    out = self.session.data_received(data, now) if data else b""
                    out += self.session.tick(now)
                    if out:
                        port.write(out)
                    if self.session.ping_due(now):
                        port.write(self.session.ping(self.clocks.raw_ns()))
        except LinkTimeout as e:
            reason = str(e)
        except Exception as e:  # noqa: BLE001 -- the port went away (SerialException, OSError)
            reason = f"{self.url}: {e}"
        finally:
            with self._lock:
                self._port = None
                self.session.connection_lost(reason)
            try:
                port.close()
            except Exception:  # noqa: BLE001
                pass
        return True

    def close(self, timeout_s: float = 2.0) -> None:
        """Stop the thread and close the port."""
        self._stop.set()
        port = self._port
        if port is not None:
            try:
                if hasattr(port, "cancel_read"):
                    port.cancel_read()
            except Exception:  # noqa: BLE001
                pass
        if self._thread.is_alive():
            self._thread.join(timeout_s)

    def __enter__(self) -> Link:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def wait_until(pred: Callable[[], bool], timeout_s: float, poll_s: float = 0.005) -> bool:
    """For tests and tools: wait until ``pred()`` holds, or the deadline passes (never a fixed sleep)."""
    deadline = time.monotonic() + timeout_s
    while not pred():
        if time.monotonic() > deadline:
            return False
        time.sleep(poll_s)
    return True
