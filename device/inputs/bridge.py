"""Reads the stations' buttons through the microcontroller bridge (any pyserial URL) and lights their LEDs.

The bridge debounces on its side (first contact is the press, at its own µs stamp) and this backend
only maps those stamps onto the host clock (`firmware_bridge.clocksync`) and enqueues `Press`,
`Stuck` and `Unstuck` records. Each Press keeps the bridge's raw stamp and the mapping's error bar
in its ``source``: ``bridge@<device µs>us~<error µs>us`` (`firmware_bridge.link.parse_source`).

Threads stop at the sink: the link's reader thread calls the sink and ``on_status`` and nothing
else. While the link is not ``connected`` (unplugged, restarting, clock not yet synchronised) the
screen should say so and pause the game: ``connected``, ``status`` and ``on_status`` tell it, and
with ``status_to_sink=True`` every status is also put on the sink as a `LinkStatus` record, in
order with the presses.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, NamedTuple

from device.clock import Clock
from device.errors import SlapboxError
from device.inputs.press import MENU_STATION, LinkStatus, Press, Sink, Stuck, Unstuck, make_sink
from firmware_bridge import protocol as P
from firmware_bridge.clocksync import HostClocks
from firmware_bridge.link import BridgeConfig, BridgeEdge, BridgeStatus, BridgeURLError, Link, source_of

__all__ = ["BridgeInput", "BridgeStation", "BridgeStatus", "BridgeURLError", "BridgeConfigError"]


class BridgeConfigError(SlapboxError, ValueError):
    """A bridge setting that cannot work (LED of a station the bridge does not have...)."""


class BridgeStation(NamedTuple):
    """The bridge's pins of one station, as its hello reported them (None: not wired)."""

    slap: int
    flip: int | None
    led: int | None


class BridgeInput:
    """The bridge backend: buttons in (on the sink), LEDs out, with a connected/disconnected status.

    Same shape as `device.inputs.gpio.GpioInputs`: ``stations``, ``set_led``, ``blink``,
    ``next_deadline``, ``poll``, ``stuck``, ``close``, a context manager.
    """

    def __init__(self, url: str, sink: Any, *, clock: Clock,
                 clocks: HostClocks | None = None, stations: int | None = None,
                 release_ns: int = 20_000_000, stuck_ns: int = 3_000_000_000,
                 on_status: Callable[[BridgeStatus], object] | None = None,
                 status_to_sink: bool = False, open_port: Callable[..., Any] | None = None,
                 start: bool = True) -> None:
        """``clock``: the box's clock (stamps are put on it). ``clocks``: how the host clocks are
        read (default: CLOCK_MONOTONIC_RAW for the fit, ``clock.now_ns`` for the stamps).
        ``url``: /dev/ttyACM0, /dev/slapbox-bridge, socket://HOST:PORT, loop://."""
        if stations is not None and not 1 <= stations <= P.MAX_STATIONS:
            raise BridgeConfigError(f"bridge: stations={stations!r}, expected 1 to "
                                    f"{P.MAX_STATIONS} (or none: all the bridge has)")
        self._sink: Sink = make_sink(sink)
        self._clock = clock
        self._on_status = on_status
        self._status_to_sink = status_to_sink
        self._lock = threading.Lock()
        self._stuck: set[tuple[int, str]] = set()
        self.clocks = clocks or HostClocks.system(clock.now_ns)
        config = BridgeConfig(stations=stations, release_ns=release_ns, stuck_ns=stuck_ns)
        self.link = Link(url, config, self.clocks, self._edge, self._status, open_port=open_port)
        if start:
            self.link.start()

    # --- from the reader thread: only enqueue ---------------------------------------------------

    def _edge(self, e: BridgeEdge) -> None:
        station = MENU_STATION if e.button == "menu" else e.station
        if e.kind in ("press", "release"):
            self._sink(Press(station, e.button, e.kind, e.t_ns, source_of(e.device_us, e.err_ns)))
        elif e.kind == "stuck":
            with self._lock:
                self._stuck.add((station, e.button))
            self._sink(Stuck(station, e.button, e.t_ns))
        else:
            with self._lock:
                self._stuck.discard((station, e.button))
            self._sink(Unstuck(station, e.button, e.t_ns))

    def _status(self, status: BridgeStatus) -> None:
        if self._status_to_sink:
            self._sink(LinkStatus("bridge", status.state, status.reason, status.t_ns))
        if self._on_status is not None:
            self._on_status(status)

    # --- what the box asks -------------------------------------------------------------------

    @property
    def status(self) -> BridgeStatus:
        """The latest state: "connecting", "syncing", "connected" or "disconnected", and why."""
        return self.link.status

    @property
    def connected(self) -> bool:
        """True while presses can be judged: linked, configured and the clock synchronised."""
        return self.link.status.connected

    @property
    def stations(self) -> tuple[BridgeStation, ...]:
        """The stations the bridge reported (empty until its first hello)."""
        hello = self.link.session.hello
        if hello is None:
            return ()
        n = len(hello[4]) if self.link.session.config.stations is None else \
            min(len(hello[4]), self.link.session.config.stations)
        return tuple(BridgeStation(s, None if f == P.NO_PIN else f, None if led == P.NO_PIN else led)
                     for s, f, led in hello[4][:n])

    def counters(self) -> dict[str, int]:
        """Every error counted (frames rejected by kind, resets, reconnections...)."""
        return self.link.counters()

    def next_deadline(self) -> int | None:
        """The bridge applies release and stuck times itself: nothing to poll for."""
        return None

    def poll(self, now_ns: int) -> None:
        """Nothing to do: the bridge reports releases and stuck buttons as they happen."""

    def stuck(self) -> list[tuple[int, str]]:
        """(station, button) of every button currently stuck."""
        with self._lock:
            return sorted(self._stuck)

    def _check_station(self, station: int) -> None:
        n = len(self.stations) or P.MAX_STATIONS
        if not isinstance(station, int) or isinstance(station, bool) or not 0 <= station < n:
            raise BridgeConfigError(f"bridge: LED of station {station!r}, expected a station "
                                    f"0..{n - 1}")

    def set_led(self, station: int, on: bool) -> None:
        """Light (or not) the station's LED; stops any blink. Kept and sent again after a reconnect."""
        self._check_station(station)
        self.link.led(station, P.LED_ON if on else P.LED_OFF)

    def blink(self, station: int, times: int | None = 3, on_ns: int = 150_000_000,
              off_ns: int = 150_000_000) -> None:
        """Blink the station's LED ``times`` times (None: until `set_led`); the bridge times it."""
        self._check_station(station)
        if times is not None and not 1 <= times <= 255:
            raise BridgeConfigError(f"bridge: blink times={times!r}, expected 1..255 or None")
        self.link.led(station, P.LED_BLINK, min(on_ns // 1_000_000, 0xFFFF),
                      min(off_ns // 1_000_000, 0xFFFF), 0 if times is None else times)

    def close(self) -> None:
        """Stop the reader thread and close the port."""
        self.link.close()

    def __enter__(self) -> BridgeInput:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
