"""Reads the stations' buttons through libgpiod v2 (the kernel's GPIO character device), counting
every edge the kernel lost; LEDs stay on gpiozero.

Why beside the gpio backend (read in libgpiod's ``bindings/python/gpiod`` 2.2 and the kernel's
``gpiolib-cdev.c``): lgpio requests one line at a time with the kernel's default 16-event buffer
and drops the events' sequence numbers, so an overflow (the oldest event dropped) goes unseen.
Here each button line is **its own request** (a chattering button cannot push another button's
edges out of a shared buffer) with the kernel's largest buffer (``event_buffer_size`` 1024:
``GPIO_V2_LINES_MAX * 16``; a larger request is silently capped to it), both edges, pull-up bias,
``Clock.MONOTONIC`` stamps (``EdgeEvent.timestamp_ns``, taken in the hard interrupt), and no
debounce (``debounce_period`` 0: a debounced edge is the END of the bounce).

Every event's ``line_seqno`` and ``global_seqno`` are checked (both start at 1 and grow by one per
event; with one line per request the kernel makes them equal): a jump is that many lost edges,
counted in ``lost``, and the line is re-read and logged. Two events in a row with the same label
and no gap between them mean the kernel merged an edge away (it labels an edge by reading the
level after its interrupt); they are counted in ``merged``. The events then go, unchanged, to the
same `Debouncer` as the gpio backend: while released any edge is first contact, whatever label it
carries; a lost release is found by reading the line at the debouncer's deadlines.

Threads: the bindings are not thread-safe, so ONE reader thread owns the requests: it waits on
their file descriptors (and a wake pipe), reads and translates events, and reads lines at the
deadlines the main thread posts with `poll(now_ns)`; it only ever enqueues into the sink. The main
thread sees the debouncers' state under a lock (``next_deadline``, ``stuck``).

`FakeChip` (device.inputs.gpiod_fake, re-exported here) is a shipped fake with the real request's
shape (``fd``, ``read_edge_events``, ``get_value``, ``release``) and the kernel's buffer behaviour
(oldest dropped, sequence numbers kept), so tests and `slapbox selftest` on a laptop run the very
code a Pi runs.
"""

from __future__ import annotations

import contextlib
import glob
import logging
import os
import select
import threading
from collections.abc import Sequence
from typing import Any, Protocol

from device.clock import Clock, Handle
from device.inputs.debounce import MENU_STUCK_NS, RELEASE_NS, STUCK_NS, Debouncer
from device.inputs.gpio import GpioConfigError, StationPins, check_pins
from device.inputs.leds import StationLeds
from device.inputs.press import MENU_STATION, RawEdge, Sink, make_sink, station_label

__all__ = [
    "EVENT_BUFFER_MAX",
    "HEADER_CHIPS",
    "INSTALL_HINT",
    "FakeChip",
    "FakeEdgeEvent",
    "FakeRequest",
    "GpiodInputs",
    "KernelLines",
    "find_chip",
    "load_gpiod",
]

from device.inputs.gpiod_fake import EVENT_BUFFER_MAX, FakeChip, FakeEdgeEvent, FakeRequest  # noqa: E402

log = logging.getLogger("slapbox")

#: the labels of the chip that drives the 40-pin header (Pi Zero 2 W/3, Pi 4, Pi 5)
HEADER_CHIPS = ("pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1")
INSTALL_HINT = ("gpiod: the libgpiod v2 Python bindings are missing: pip install 'slapbox[gpiod]' "
                "(gpiod >= 2.2) into the box's venv (Bookworm's python3-libgpiod is the old v1 "
                "API; on Trixie apt install python3-libgpiod), or use --input gpio")


def load_gpiod() -> Any:
    """The ``gpiod`` module (libgpiod v2 bindings, >= 2.2), or GpioConfigError with INSTALL_HINT."""
    try:
        import gpiod  # the optional [gpiod] extra
    except ImportError:
        raise GpioConfigError(INSTALL_HINT) from None
    version = tuple(int(p) for p in getattr(gpiod, "__version__", "0").split(".")[:2]
                    if p.isdigit())
    if not hasattr(gpiod, "request_lines") or version < (2, 2):
        raise GpioConfigError(f"gpiod {getattr(gpiod, '__version__', '?')} is not the v2 API "
                              f">= 2.2; {INSTALL_HINT}")
    return gpiod


def find_chip(gpiod: Any, paths: Sequence[str] | None = None) -> str:
    """The path of the GPIO chip behind the 40-pin header, found by its label."""
    paths = sorted(glob.glob("/dev/gpiochip*")) if paths is None else paths
    seen = []
    for path in paths:
        try:
            with gpiod.Chip(path) as chip:
                label = chip.get_info().label
        except OSError:
            continue
        seen.append(f"{path} ({label})")
        if label in HEADER_CHIPS:
            return path
    raise GpioConfigError("gpiod: no GPIO chip of the 40-pin header ("
                          + ", ".join(HEADER_CHIPS) + ") among "
                          + (", ".join(seen) or "no /dev/gpiochip*")
                          + '; set [pins] chip = "/dev/gpiochipN"')


class Lines(Protocol):
    """Where button lines are requested: the kernel (`KernelLines`) or `FakeChip`."""

    chip: str

    def request(self, offset: int, consumer: str) -> Any:
        """One input line: edges both ways, pull-up, monotonic stamps, no debounce."""


class KernelLines:
    """Requests lines from the kernel through libgpiod v2 (only on Linux with the bindings)."""

    def __init__(self, chip: str = "auto") -> None:
        self._gpiod = load_gpiod()
        self.chip = find_chip(self._gpiod) if chip == "auto" else chip

    def request(self, offset: int, consumer: str) -> Any:
        from datetime import timedelta

        from gpiod.line import Bias, Direction, Edge
        from gpiod.line import Clock as EventClock
        settings = self._gpiod.LineSettings(
            direction=Direction.INPUT, edge_detection=Edge.BOTH, bias=Bias.PULL_UP,
            event_clock=EventClock.MONOTONIC, debounce_period=timedelta(0))
        try:
            return self._gpiod.request_lines(self.chip, consumer=consumer,
                                             config={offset: settings},
                                             event_buffer_size=EVENT_BUFFER_MAX)
        except OSError as e:
            raise GpioConfigError(f"gpiod: cannot request GPIO {offset} on {self.chip} "
                                  f"({e.strerror or e}): is it used by another program or "
                                  "overlay, and is the user in group gpio?") from None


# --- the backend ---------------------------------------------------------------------------
class _Line:
    """One button line: its request, its debouncer, and what its sequence numbers said."""

    __slots__ = (
        "debouncer",
        "gaps",
        "global_seq",
        "line_seq",
        "lost",
        "merged",
        "offset",
        "request",
        "rising",
    )

    def __init__(self, request: Any, offset: int, debouncer: Debouncer) -> None:
        self.request = request
        self.offset = offset
        self.debouncer = debouncer
        self.line_seq = 0    # the kernel numbers a request's events from 1
        self.global_seq = 0
        self.rising: bool | None = None
        self.lost = 0
        self.merged = 0
        self.gaps = 0

    def level(self) -> int:
        v = self.request.get_value(self.offset)
        return 1 if getattr(v, "value", v) else 0

    def level_at_deadline(self) -> int:
        """The line's level for a debouncer deadline. If events are waiting behind the read, the
        level may be a NEW press's (the line went down after the release this deadline is
        about): the labels answer instead, and the waiting events come as edges next."""
        level = self.level()
        waiting = select.poll()
        waiting.register(self.request.fd, select.POLLIN)
        if waiting.poll(0):
            return 0 if self.rising is False else 1
        return level


def _is_rising(event: Any) -> bool:
    kind = event.event_type
    return getattr(kind, "name", kind) == "RISING_EDGE" or kind == 1


class GpiodInputs(StationLeds):
    """The gpiod backend: buttons in (as `Press`/`Stuck`/`Unstuck` on the sink), LEDs out
    (gpiozero, ``led_factory``). Same interface as `GpioInputs`, plus ``lost``."""

    _backend = "gpiod"

    def __init__(self, stations: Sequence[StationPins], sink: Any, *,
                 menu_pin: int | None = None, lines: Lines | None = None,
                 led_factory: Any = None, clock: Clock | None = None,
                 release_ns: int = RELEASE_NS, stuck_ns: int = STUCK_NS,
                 menu_stuck_ns: int = MENU_STUCK_NS, lag_ns: int = 2_000_000,
                 max_skew_ns: int = 1_000_000_000, source: str = "gpiod",
                 record_edges: bool = False, chip: str = "auto") -> None:
        stations = tuple(stations)
        check_pins(stations, menu_pin)
        self._sink: Sink = make_sink(sink)
        self._clock = clock
        self._lag = lag_ns
        self._max_skew = max_skew_ns
        self._lock = threading.Lock()
        self._lines: list[_Line] = []
        self._by_fd: dict[int, _Line] = {}
        self._leds: list[Any] = []
        self._blinks: dict[int, Handle] = {}
        self._horizon: int | None = None
        self._asked = 0   # requests posted by poll/sync, and how many the reader has done
        self._done = 0
        self._done_cv = threading.Condition(self._lock)
        self._stop = False
        self._thread: threading.Thread | None = None
        self._lines_poller: Any = None
        self.stamp_fallbacks = 0
        self.record_edges = record_edges
        self.error: str | None = None
        self.stations = stations
        self.menu_pin = menu_pin
        self.source = source
        self._wake_r, self._wake_w = os.pipe()
        try:
            self._provider: Lines = lines if lines is not None else KernelLines(chip)
            t0 = clock.now_ns() if clock is not None else 0
            for i, sp in enumerate(stations):
                self._watch(sp.slap, i, "slap", release_ns, stuck_ns, t0)
                if sp.flip is not None:
                    self._watch(sp.flip, i, "flip", release_ns, stuck_ns, t0)
            if menu_pin is not None:
                self._watch(menu_pin, MENU_STATION, "menu", release_ns, menu_stuck_ns, t0)
            if any(sp.led is not None for sp in stations):
                from gpiozero import LED

                from device.inputs.gpio import make_factory
                factory = led_factory if led_factory is not None else make_factory("lgpio")
                self._leds = [None if sp.led is None else LED(sp.led, pin_factory=factory)
                              for sp in stations]
            else:
                self._leds = [None] * len(stations)
        except BaseException:
            self.close()
            raise
        self._thread = threading.Thread(target=self._run, name="slapbox-gpiod", daemon=True)
        self._thread.start()

    def _watch(self, offset: int, station: int, button: str, release_ns: int, stuck_ns: int,
               t0: int) -> None:
        req = self._provider.request(offset, f"slapbox-{station_label(station).lower()}-{button}")
        line: _Line
        deb = Debouncer(station, button, self._sink, source=self.source, release_ns=release_ns,
                        stuck_ns=stuck_ns, t_ns=t0, read_level=lambda: line.level_at_deadline(),
                        level=1 if getattr(req.get_value(offset), "value", 1) else 0)
        line = _Line(req, offset, deb)
        if self.record_edges:
            sink = self._sink

            def on_read(level: int, t: int, seen: int) -> None:
                sink(RawEdge(station, button, offset, "read", level, t, seen, None, None))
            deb.on_read = on_read
        self._lines.append(line)
        self._by_fd[req.fd] = line

    # --- the reader thread -----------------------------------------------------------------

    def _run(self) -> None:
        poller = select.poll()
        poller.register(self._wake_r, select.POLLIN)
        lines_only = select.poll()
        for fd in self._by_fd:
            poller.register(fd, select.POLLIN)
            lines_only.register(fd, select.POLLIN)
        self._lines_poller = lines_only
        try:
            while not self._stop:
                ready = poller.poll()
                woken = False
                for fd, _mask in ready:
                    if fd == self._wake_r:
                        woken = True
                    elif fd in self._by_fd:
                        self._read(self._by_fd[fd])
                if woken:  # after the lines: an edge written before the wake is read first
                    os.read(self._wake_r, 4096)
                    self._apply_posted()
        except Exception as e:  # noqa: BLE001 -- a chip gone away: say it once, stop reading
            self.error = f"{type(e).__name__}: {e}"
            log.error("gpiod: the reader stopped (%s); buttons are no longer read", self.error)
        finally:
            with self._lock:
                self._done = self._asked
                self._done_cv.notify_all()

    def _read(self, line: _Line) -> None:
        events = line.request.read_edge_events()
        with self._lock:
            self.translate(line, events)

    def translate(self, line: _Line, events: Sequence[Any]) -> None:
        """Feed one line's events to its debouncer, checking sequence numbers (lock held)."""
        deb = line.debouncer
        gap_seen = 0
        for ev in events:
            lost = max(ev.line_seqno - line.line_seq - 1, ev.global_seqno - line.global_seq - 1, 0)
            line.line_seq, line.global_seq = ev.line_seqno, ev.global_seqno
            rising = _is_rising(ev)
            if lost:
                line.lost += lost
                line.gaps += 1
                gap_seen += lost
            elif line.rising is not None and rising == line.rising:
                line.merged += 1
            line.rising = rising
            t_ns = int(ev.timestamp_ns)
            if self._clock is not None:
                now = self._clock.now_ns()
                if abs(now - t_ns) > self._max_skew:
                    self.stamp_fallbacks += 1
                    t_ns = now
            level = 1 if rising else 0
            if self.record_edges:
                self._sink(RawEdge(deb.station, deb.button, line.offset, "edge", level, t_ns,
                                   None, ev.line_seqno, ev.global_seqno))
            deb.edge(level, t_ns)
        if gap_seen:
            # the labels around a gap cannot be trusted: read the line now and say what it is;
            # the debouncer reads it again at its next deadline, where a lost release is repaired
            level = line.level()
            log.warning("gpiod: station %s %s (GPIO %d): %d edge(s) lost by the kernel's buffer "
                        "(%d so far); the line reads %s now", station_label(deb.station), deb.button,
                        line.offset, gap_seen, self.lost, "up" if level else "down")

    def _apply_posted(self) -> None:
        # Events already on the lines first: a deadline's read of a line that a new press has
        # pulled down, before that press's edge was taken, would call the button held and the
        # press bounce. (Only the kernel's few microseconds between stamp and queue remain.)
        for fd, _mask in self._lines_poller.poll(0):
            if fd in self._by_fd:
                self._read(self._by_fd[fd])
        with self._lock:
            horizon, self._horizon = self._horizon, None
            if horizon is not None:
                for line in self._lines:
                    deb = line.debouncer
                    before = deb.repairs
                    deb.poll(horizon - self._lag, seen_ns=horizon)
                    if deb.repairs != before:
                        log.warning("gpiod: station %s %s: its release edge was lost; released on "
                                    "reading the line (%d repairs so far)", station_label(deb.station),
                                    deb.button, self.repairs)
            self._done = self._asked
            self._done_cv.notify_all()

    def _post(self, horizon: int | None) -> int:
        with self._lock:
            if horizon is not None:
                self._horizon = horizon if self._horizon is None else max(self._horizon, horizon)
            self._asked += 1
            ticket = self._asked
        if not self._stop:
            with contextlib.suppress(OSError):  # closing meanwhile
                os.write(self._wake_w, b".")
        return ticket

    def sync(self, timeout_s: float = 2.0) -> bool:
        """Wait until the reader has read every event already on the lines and applied every
        `poll` posted so far (tests, the self-test); False if it did not within ``timeout_s``."""
        ticket = self._post(None)
        with self._lock:
            return self._done_cv.wait_for(lambda: self._done >= ticket or self._thread is None
                                          or not self._thread.is_alive(), timeout_s)

    # --- the main thread's side --------------------------------------------------------------

    def next_deadline(self) -> int | None:
        """When `poll` next has a release or a stuck button to report, or None."""
        with self._lock:
            ds = [d for ln in self._lines if (d := ln.debouncer.next_deadline()) is not None]
        return min(ds) + self._lag if ds else None

    def poll(self, now_ns: int) -> None:
        """Ask the reader thread to report releases and stuck buttons due by ``now_ns`` (minus the
        delivery lag); it reads the lines there (the requests are the reader's alone)."""
        self._post(now_ns)

    @property
    def repairs(self) -> int:
        """Releases whose edge was lost, found by reading the lines."""
        return sum(ln.debouncer.repairs for ln in self._lines)

    @property
    def merged(self) -> int:
        """Edges the kernel merged away (two events with the same label, no gap between)."""
        return sum(ln.merged for ln in self._lines)

    @property
    def lost(self) -> int:
        """Edges the kernel dropped (sequence-number gaps)."""
        return sum(ln.lost for ln in self._lines)

    def station_faults(self) -> dict[int, int]:
        """Per station, the edges its lines lost (sequence gaps) or had repaired."""
        with self._lock:
            faults: dict[int, int] = {}
            for ln in self._lines:
                st = ln.debouncer.station
                faults[st] = faults.get(st, 0) + ln.lost + ln.debouncer.repairs
            return faults

    def line_counts(self) -> dict[int, dict[str, int]]:
        """Per GPIO: lost, gaps, merged, repairs (for `slapbox selftest`)."""
        with self._lock:
            return {ln.offset: {"lost": ln.lost, "gaps": ln.gaps, "merged": ln.merged,
                                "repairs": ln.debouncer.repairs} for ln in self._lines}

    def stuck(self) -> list[tuple[int, str]]:
        with self._lock:
            return [(ln.debouncer.station, ln.debouncer.button)
                    for ln in self._lines if ln.debouncer.stuck]

    # --- lifetime ----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the reader, release the lines, switch LEDs off."""
        self._stop_blinking()
        self._stop = True
        thread, self._thread = self._thread, None
        if thread is not None:
            os.write(self._wake_w, b"x")
            thread.join(timeout=5.0)
        for line in self._lines:
            with contextlib.suppress(Exception):
                line.request.release()
        self._lines.clear()
        self._by_fd.clear()
        for led in self._leds:
            if led is not None:
                led.close()
        self._leds.clear()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wake_r = self._wake_w = -1

    def __enter__(self) -> GpiodInputs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
