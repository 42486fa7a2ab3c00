"""What the table tells its outputs besides the rules' events (a card to draw, a judgement, a stuck
button, a decision awaited), and the one input an output sends back: `Shown`.

Typed NamedTuples (device.records): one is built for every card and every judgement.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from device.records import typed
from device.table.arbiter import Decision


@typed
class Shown(NamedTuple):
    """Input from the presenter: card number ``card`` became visible at ``t_ns``."""

    card: int
    t_ns: int


@typed
class ToShow(NamedTuple):
    """Card number ``card`` (1, 2, ... for the whole game) was laid: draw it, then report Shown."""

    card: int
    seat: int
    face: int


class _SameSeat(dict[int, int]):
    """Station number -> seat where they are the same (a judgement built by hand, in a test)."""

    def __missing__(self, station: int) -> int:
        return station


@typed
class Judged(NamedTuple):
    """The arbiter's judgement of a press, with the seat it concerns (None: a station without a
    seat, a player arriving); ``seat_of`` maps the judgement's stations (its contenders) to seats."""

    seat: int | None
    decision: Decision
    seat_of: Mapping[int, int] = _SameSeat()


@typed
class StationStuck(NamedTuple):
    station: int
    button: str
    stuck: bool


@typed
class DecisionNeeded(NamedTuple):
    seat: int
