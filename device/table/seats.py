"""Who sits where: seats for the stations that joined, bots in the rest, and how each seat did."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MS = 1_000_000
#: seats at one table (the challenge games' largest)
MAX_SEATS = 8


@dataclass(frozen=True)
class Seat:
    """Who sits where: a station's player, or a bot (whose station buttons are ignored)."""

    seat: int
    name: str
    station: int | None = None
    bot: bool = False
    level: str = "normal"


def default_name(names: Sequence[str], index: int) -> str:
    """The config's name number ``index`` (a seat's, or a station's in a party), else the number
    people count it by."""
    return names[index] if 0 <= index < len(names) else f"{index + 1}"


def assign_seats(players: int, stations: list[int], names: list[str], *, bots: str | list[int] = "free",
                 level: str = "normal") -> list[Seat]:
    """Seats go to the stations that joined, in station order; bots take the free seats."""
    joined = sorted(set(stations))[:players]
    bot_seats = set(range(len(joined), players)) if bots == "free" else set(bots)
    seats = []
    station_iter = iter(joined)
    for s in range(players):
        is_bot = s in bot_seats
        station = None if is_bot else next(station_iter, None)
        if station is None:
            is_bot = True
        name = default_name(names, s)
        seats.append(Seat(s, name, station, is_bot, level))
    return seats


@dataclass
class SeatStats:
    """What the end-of-game screen and `demo` report per seat."""

    slaps_won: int = 0
    wrong_slaps: int = 0
    reactions_ns: list[int] = field(default_factory=list)  # valid slaps: stamp - card shown

    def to_dict(self) -> dict[str, Any]:
        r = self.reactions_ns
        return {"slaps_won": self.slaps_won, "wrong_slaps": self.wrong_slaps,
                "reactions": len(r), "mean_reaction_ms": round(sum(r) / len(r) / MS, 1) if r else None,
                "fastest_reaction_ms": round(min(r) / MS, 1) if r else None}
