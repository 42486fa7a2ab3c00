"""Reads the stations' buttons from the Pi's own GPIO pins (gpiozero, lgpio) and lights their LEDs.

Wiring: every button between its GPIO pin and ground, with the pin's internal pull-up, so level 0
means pressed. All library and kernel debounce is off: debounce filters report the END of a bounce
train, and the slap must be stamped at the FIRST contact. Our own `Debouncer` takes the first
falling edge as the press and locks the button until it is stably released.

What the edge stamps are (read in gpiozero 2.0's ``pins/lgpio.py`` and ``pins/pi.py``): lgpio calls
``LGPIOPin._call_when_changed(chip, gpio, level, ticks)`` from its own callback thread with the
kernel's GPIO event timestamp ``ticks`` in integer nanoseconds (the GPIO character device's v2
line events, stamped in the interrupt handler on CLOCK_MONOTONIC — the same clock as Python's
``time.monotonic_ns``; lgpio's docs warn that very old kernels used the epoch instead, which
``max_skew_ns`` below catches). gpiozero divides it by 1e9 and hands the pin's ``when_changed``
callback ``(ticks, state)`` with ticks in float seconds; we turn that back into int ns at once
(a double keeps whole nanoseconds for ~100 days of uptime, a few ns after that). lgpio also reports
level 2 for a watchdog timeout, which is not an edge and is dropped. gpiozero holds
``when_changed`` by a weak reference (``WeakMethod`` for a bound method, ``ref`` otherwise): a
lambda would be collected and silently never called, so each pin's callback is a bound method of a
`_PinWatch` that this backend keeps alive. ``MockPin`` calls the same callback with
``(self._last_change, self._state)``, seconds from ``time.monotonic()``; `StampedMockPin` lets a test
choose that stamp.

Threads stop at the sink: the callback thread only runs the debouncer (under a lock, shared with
`poll` on the main thread) and enqueues immutable events.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gpiozero import LED
from gpiozero.pins.mock import MockFactory, MockPin

from device.clock import Clock, Handle
from device.inputs.debounce import MENU_STUCK_NS, RELEASE_NS, STUCK_NS, Debouncer
from device.inputs.leds import StationLeds
from device.inputs.pins import ROLES, GpioConfigError, pin_map_problems
from device.inputs.press import MENU_STATION, RawEdge, Sink, make_sink, station_label

__all__ = ["StationPins", "GpioInputs", "GpioConfigError", "StampedMockPin", "make_factory",
           "check_pins", "MENU_STUCK_NS"]

log = logging.getLogger("slapbox")




@dataclass(frozen=True)
class StationPins:
    """The BCM GPIO numbers of one station: its SLAP button, optional FLIP button and LED."""

    slap: int
    flip: int | None = None
    led: int | None = None


def check_pins(stations: Sequence[StationPins], menu_pin: int | None) -> None:
    """Raise `GpioConfigError` naming every problem of a pin map (`device.inputs.pins`)."""
    table = [{role: getattr(sp, role) for role in ROLES} for sp in stations]
    problems = pin_map_problems(table, menu_pin)
    if problems:
        raise GpioConfigError("\n".join(f"gpio: {key}: {reason}" for key, reason in problems))


class StampedMockPin(MockPin):
    """A gpiozero mock pin whose edges carry a stamp chosen by the caller (for virtual time)."""

    _state: bool

    def drive(self, level: int, t_ns: int, reported: int | None = None) -> None:
        """Set the input to ``level`` (0 = pressed) as if the edge was stamped at ``t_ns``.

        The kernel stamps an edge in its hard interrupt and reads the level later, so the level
        it reports may not be the one the edge made: ``reported`` (default ``level``) is what the
        callback is told, and the edge is delivered even if the level did not change (the other
        edge of the pair was merged away)."""
        assert self._function == "input"
        level_b = bool(level)
        said = level_b if reported is None else bool(reported)
        if self._state == level_b and reported is None:
            return
        self._state = level_b
        self._last_change = t_ns / 1e9  # what lgpio's ticks look like once gpiozero got them
        wanted = ("both", "rising") if said else ("both", "falling")
        if self._edges in wanted and self._when_changed is not None:
            super(MockPin, self)._call_when_changed(self._last_change, said)

    def lose(self, level: int) -> None:
        """The input goes to ``level`` and its edge is lost (a line's 16-event buffer overflowed)."""
        self._state = bool(level)


def make_factory(name: str = "lgpio") -> Any:
    """A gpiozero pin factory by name: ``lgpio`` (a Raspberry Pi) or ``mock`` (anywhere)."""
    if name == "lgpio":
        try:
            from gpiozero.pins.lgpio import LGPIOFactory  # imports lgpio: only on a Pi
            return LGPIOFactory()
        except Exception as e:  # noqa: BLE001 -- no lgpio, no GPIO chip, no permission: say which
            raise GpioConfigError(
                f"gpio: the lgpio pin factory cannot start ({type(e).__name__}: {e}); on a Raspberry "
                "Pi install python3-lgpio and use a venv with system site packages (see hardware.md); "
                'elsewhere use --input keyboard, or [pins] factory = "mock"') from None
    if name == "mock":
        return MockFactory(pin_class=StampedMockPin)
    raise GpioConfigError(f"gpio: pin factory {name!r}, expected lgpio or mock")


class _PinWatch:
    """Owns one input pin's callback (gpiozero keeps only a weak reference to it)."""

    def __init__(self, owner: GpioInputs, pin: Any, debouncer: Debouncer, number: int = -1) -> None:
        self.owner = owner
        self.pin = pin
        self.number = number
        self.debouncer = debouncer

    def on_edge(self, ticks: float, state: int) -> None:
        """gpiozero's ``when_changed(ticks, state)``, on lgpio's callback thread."""
        self.owner._edge(self.debouncer, ticks, state, self.number)


class GpioInputs(StationLeds):
    """The GPIO backend: buttons in (as `Press`/`Stuck`/`Unstuck` on the sink), LEDs out.

    The main thread calls `poll(now_ns)` at `next_deadline()` to report releases and stuck
    buttons; presses themselves are enqueued at once from the callback thread.
    """

    def __init__(self, stations: Sequence[StationPins], sink: Any, *,
                 menu_pin: int | None = None, factory: Any = None, clock: Clock | None = None,
                 release_ns: int = RELEASE_NS, stuck_ns: int = STUCK_NS,
                 menu_stuck_ns: int = MENU_STUCK_NS, lag_ns: int = 2_000_000,
                 max_skew_ns: int = 1_000_000_000, source: str = "gpio",
                 record_edges: bool = False) -> None:
        """``lag_ns``: edges stamped more than this before ``poll``'s now are assumed delivered.
        ``max_skew_ns``: a stamp further than this from ``clock``'s now is not on the monotonic
        clock (an old kernel's epoch stamps); such edges are stamped with the clock instead."""
        stations = tuple(stations)
        check_pins(stations, menu_pin)
        self._sink: Sink = make_sink(sink)
        self._factory = factory if factory is not None else make_factory("lgpio")
        self._clock = clock
        self._lag = lag_ns
        self._max_skew = max_skew_ns
        self._lock = threading.Lock()
        self._watches: list[_PinWatch] = []  # strong references for gpiozero's weak ones
        self._leds: list[LED | None] = []
        self._blinks: dict[int, Handle] = {}
        self.stamp_fallbacks = 0  # edges whose kernel stamp was not on the monotonic clock
        self.record_edges = record_edges  # every raw edge and pin read goes to the sink too
        self.stations = stations
        self.menu_pin = menu_pin
        pins = [p for sp in stations for p in (sp.slap, sp.flip) if p is not None]
        if menu_pin is not None:
            pins.append(menu_pin)
        self._factory.reserve_pins(self, *pins)
        try:
            t0 = clock.now_ns() if clock is not None else 0
            for i, sp in enumerate(stations):
                self._watch(sp.slap, i, "slap", source, release_ns, stuck_ns, t0)
                if sp.flip is not None:
                    self._watch(sp.flip, i, "flip", source, release_ns, stuck_ns, t0)
                self._leds.append(None if sp.led is None
                                  else LED(sp.led, pin_factory=self._factory))
            if menu_pin is not None:
                self._watch(menu_pin, MENU_STATION, "menu", source, release_ns, menu_stuck_ns, t0)
        except BaseException:
            self.close()
            raise

    def _conflicts_with(self, other: object) -> bool:
        """gpiozero's reservation protocol: no other device may share our pins."""
        return True

    def _watch(self, number: int, station: int, button: str, source: str, release_ns: int,
               stuck_ns: int, t0: int) -> None:
        pin = self._factory.pin(number)
        # order matters on lgpio: setting function cancels the alert callback and setting pull
        # re-claims the line, so the callback is attached last
        pin.function = "input"
        pin.pull = "up"
        pin.bounce = None  # lgpio: kernel debounce 0 (it would stamp the end of the bounce)
        pin.edges = "both"
        level = 1 if pin.state else 0
        deb = Debouncer(station, button, self._sink, source=source, release_ns=release_ns,
                        stuck_ns=stuck_ns, level=level, t_ns=t0,
                        read_level=lambda: 1 if pin.state else 0)
        watch = _PinWatch(self, pin, deb, number)
        if self.record_edges:
            sink = self._sink

            def on_read(level: int, t: int, seen: int) -> None:
                sink(RawEdge(station, button, number, "read", level, t, seen, None, None))
            deb.on_read = on_read
        self._watches.append(watch)
        pin.when_changed = watch.on_edge

    # --- inputs ------------------------------------------------------------------------------

    def _edge(self, deb: Debouncer, ticks: float, state: int, pin: int = -1) -> None:
        if state > 1:
            return  # lgpio watchdog timeout: no level change
        t_ns = round(ticks * 1e9)
        if self._clock is not None:
            now = self._clock.now_ns()
            if abs(now - t_ns) > self._max_skew:
                self.stamp_fallbacks += 1
                t_ns = now
        level = 1 if state else 0
        with self._lock:
            if self.record_edges:  # the evidence first, then what the debouncer makes of it
                self._sink(RawEdge(deb.station, deb.button, pin, "edge", level, t_ns, None, None,
                                   None))
            deb.edge(level, t_ns)

    def next_deadline(self) -> int | None:
        """When `poll` next has a release or a stuck button to report, or None."""
        with self._lock:
            ds = [d for w in self._watches if (d := w.debouncer.next_deadline()) is not None]
        return min(ds) + self._lag if ds else None

    def poll(self, now_ns: int) -> None:
        """Report releases and stuck buttons due by ``now_ns`` (minus the delivery lag)."""
        horizon = now_ns - self._lag
        with self._lock:
            for w in self._watches:
                deb = w.debouncer
                before = deb.repairs
                deb.poll(horizon, seen_ns=now_ns)
                if deb.repairs != before:
                    log.warning("gpio: station %s %s: its release edge was lost; released on "
                                "reading the pin (%d repairs so far)", station_label(deb.station),
                                deb.button, self.repairs)

    @property
    def repairs(self) -> int:
        """Releases whose edge was lost, found by reading the pins (shown by `slapbox selftest`)."""
        return sum(w.debouncer.repairs for w in self._watches)

    @property
    def merged(self) -> int:
        """Edges the kernel merged away (two edges in a row with the same label)."""
        return sum(w.debouncer.merged for w in self._watches)

    def station_faults(self) -> dict[int, int]:
        """Per station, the releases found by reading its pins (their edge was lost)."""
        faults: dict[int, int] = {}
        for w in self._watches:
            faults[w.debouncer.station] = faults.get(w.debouncer.station, 0) + w.debouncer.repairs
        return faults

    def stuck(self) -> list[tuple[int, str]]:
        """(station, button) of every button currently stuck."""
        with self._lock:
            return [(w.debouncer.station, w.debouncer.button)
                    for w in self._watches if w.debouncer.stuck]

    # --- lifetime ----------------------------------------------------------------------------

    def close(self) -> None:
        """Detach callbacks, switch LEDs off, free the pins."""
        self._stop_blinking()
        for w in self._watches:
            w.pin.when_changed = None
        self._watches.clear()
        for led in self._leds:
            if led is not None:
                led.close()
        self._leds.clear()
        self._factory.release_all(self)

    def __enter__(self) -> GpioInputs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
