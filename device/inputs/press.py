"""The input events every backend produces: a stamped button edge, and stuck/unstuck reports.

Backends (gpio, bridge, keyboard, script, bots) only stamp and enqueue these immutable records; the
table, on the main thread, decides what they mean. The stamp ``t_ns`` is taken at the source (the
kernel's edge timestamp, the microcontroller's counter, the moment a key is read) on the host's
monotonic clock in integer nanoseconds.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Union

from device.errors import SlapboxError
from device.records import typed

__all__ = ["station_label", "Press", "Stuck", "Unstuck", "LinkStatus", "RawEdge", "InputEvent", "BUTTONS", "EDGES", "MENU_STATION", "BOT_STATION",
           "PressFormatError", "event_from_dict", "make_sink", "Sink"]

BUTTONS = ("slap", "flip", "menu")
EDGES = ("press", "release")
#: the box's own MENU button belongs to no station
MENU_STATION = -1
#: a bot seat's presses carry station BOT_STATION + its seat (no button has those numbers), so
#: every press the arbiter orders names a station, and the tie rotation runs over stations
BOT_STATION = 8


def station_label(station: int) -> str:
    """A station as people count it, for messages: from 1, or MENU for the box's MENU button."""
    return "MENU" if station == MENU_STATION else str(station + 1)


class PressFormatError(SlapboxError, ValueError):
    """A press record (script, journal, wire) that cannot be read."""


def _int(d: Mapping[str, Any], key: str, what: str, low: int | None = None) -> int:
    if key not in d:
        raise PressFormatError(f"{what}: missing {key!r} (expected an integer)")
    v = d[key]
    if not isinstance(v, int) or isinstance(v, bool):
        raise PressFormatError(f"{what}: {key}={v!r} is not an integer")
    if low is not None and v < low:
        raise PressFormatError(f"{what}: {key}={v} is below {low}")
    return v


def _choice(d: Mapping[str, Any], key: str, what: str, choices: tuple[str, ...]) -> str:
    v = d.get(key)
    if not isinstance(v, str) or v not in choices:
        raise PressFormatError(f"{what}: {key}={v!r}, expected one of {', '.join(choices)}")
    return v


def _station(d: Mapping[str, Any], what: str) -> int:
    return _int(d, "station", what, low=MENU_STATION)


class _PressFields(NamedTuple):
    station: int
    button: str
    edge: str
    t_ns: int
    source: str


class _ButtonFields(NamedTuple):
    station: int
    button: str
    t_ns: int


# Immutable records that cross the thread boundary (device.records: typed NamedTuples, built on
# the hot path of every button). Validation lives in from_dict (the input from outside).
@typed
class Press(_PressFields):
    """One button edge: ``edge`` "press" (first contact) or "release" (stably up again)."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "press", "station": self.station, "button": self.button,
                "edge": self.edge, "t_ns": self.t_ns, "source": self.source}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Press:
        what = "press record"
        if not isinstance(d, Mapping):
            raise PressFormatError(f"{what}: expected an object, got {type(d).__name__}")
        source = d.get("source", "script")
        if not isinstance(source, str) or not source:
            raise PressFormatError(f"{what}: source={source!r} is not a non-empty string")
        return cls(_station(d, what), _choice(d, "button", what, BUTTONS),
                   _choice(d, "edge", what, EDGES), _int(d, "t_ns", what), source)


@typed
class Stuck(_ButtonFields):
    """A button held down past the stuck time: ignored until released (the screen says so)."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "stuck", "station": self.station, "button": self.button, "t_ns": self.t_ns}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Stuck:
        what = "stuck record"
        return cls(_station(d, what), _choice(d, "button", what, BUTTONS), _int(d, "t_ns", what))


@typed
class Unstuck(_ButtonFields):
    """A stuck button is stably released again (``t_ns``: its last rising edge)."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "unstuck", "station": self.station, "button": self.button,
                "t_ns": self.t_ns}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Unstuck:
        what = "unstuck record"
        return cls(_station(d, what), _choice(d, "button", what, BUTTONS), _int(d, "t_ns", what))


class _EdgeFields(NamedTuple):
    station: int
    button: str
    pin: int
    kind: str
    level: int
    t_ns: int
    seen_ns: int | None
    line_seq: int | None
    global_seq: int | None


@typed
class RawEdge(_EdgeFields):
    """Evidence, journaled with ``--record-edges``: one raw edge as the backend received it
    (``kind`` "edge": its stamp and the level as reported), or one read of the pin's real level
    (``kind`` "read": at the deadline ``t_ns``, read at ``seen_ns``). Sequence numbers where the
    backend has them. `slapbox replay --from-edges` re-derives the presses from these."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"k": "edge", "kind": self.kind, "station": self.station,
                             "button": self.button, "pin": self.pin, "level": self.level,
                             "t": self.t_ns}
        for key in ("seen_ns", "line_seq", "global_seq"):
            v = getattr(self, key)
            if v is not None:
                d[key.replace("_ns", "")] = v
        return d


class _LinkFields(NamedTuple):
    source: str
    state: str
    reason: str
    t_ns: int


@typed
class LinkStatus(_LinkFields):
    """A backend's link to its buttons changed (the bridge: "connecting", "syncing", "connected",
    "disconnected", and why). While it is not connected the box pauses rather than judge without
    the buttons."""

    __slots__ = ()

    @property
    def connected(self) -> bool:
        return self.state == "connected"


InputEvent = Union[Press, Stuck, Unstuck]
Sink = Callable[[Union[InputEvent, LinkStatus, RawEdge]], object]

_KINDS: dict[str, type[Press] | type[Stuck] | type[Unstuck]] = {
    "press": Press, "stuck": Stuck, "unstuck": Unstuck}


def event_from_dict(d: Mapping[str, Any]) -> InputEvent:
    """Read any input event written by ``to_dict`` (its "kind" says which)."""
    if not isinstance(d, Mapping):
        raise PressFormatError(f"input event: expected an object, got {type(d).__name__}")
    cls = _KINDS.get(d.get("kind", "press"))
    if cls is None:
        raise PressFormatError(f"input event: kind={d.get('kind')!r}, "
                               f"expected one of {', '.join(_KINDS)}")
    return cls.from_dict(d)


def make_sink(target: queue.SimpleQueue[Any] | Sink) -> Sink:
    """Where a backend puts its events: a `queue.SimpleQueue` (thread-safe) or any callable."""
    if isinstance(target, queue.SimpleQueue):
        return target.put
    if callable(target):
        return target
    raise TypeError(f"sink: expected a queue.SimpleQueue or a callable, got {type(target).__name__}")
