"""When things happen at a table: its settings (tempo, timers, a game's time limit) and what the
time limit tells the outputs when it runs out.

The time limit (RULES.md options, ``time_limit_min``) is a table setting, not a rule: the table
counts playing time only (a pause stops the count, a resumed game keeps what was left) and, when
the time runs out, journals ``time_up``, hands out `TimeUp` and ends the game at the end of the
trick in progress (`Game.trick_in_progress`, `Game.end_on_time`), at once if none is.
`slapbox simulate` has no table clock, so it ignores the limit.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from device.records import typed

MS = 1_000_000
MINUTE_NS = 60_000 * MS
#: a time limit's range in minutes, wherever one is given (config, --time-limit, the menu)
TIME_LIMIT_MIN = (1, 60)
#: the screen counts the time down in the last minute
COUNTDOWN_NS = MINUTE_NS


@dataclass(frozen=True)
class TableSettings:
    """When things happen (the config's [timing] section, in nanoseconds; the time limit from
    [game] time_limit_min)."""

    flip_mode: str = "auto"            # auto: the box turns cards at the tempo; buttons: FLIP
    tempo_ns: int = 900 * MS           # between two cards
    tempo_speedup: float = 0.0         # the tempo shortens by this fraction per won pile ...
    tempo_min_ns: int = 350 * MS       # ... down to this
    auto_flip_timeout_ns: int = 4000 * MS  # buttons mode: the box flips for a seat that waits
    first_card_ns: int = 1500 * MS     # from the start to the first card
    pile_pause_ns: int = 1200 * MS     # after a won pile, before the winner's first card
    time_limit_ns: int | None = None   # a game's playing time (None: no limit)

    def __post_init__(self) -> None:
        if self.flip_mode not in ("auto", "buttons"):
            raise ValueError(f"flip_mode: expected 'auto' or 'buttons', got {self.flip_mode!r}")
        if not 0.0 <= self.tempo_speedup <= 0.5:
            raise ValueError(f"tempo_speedup: expected 0 to 0.5, got {self.tempo_speedup}")
        if self.time_limit_ns is not None and (type(self.time_limit_ns) is not int or self.time_limit_ns <= 0):
            raise ValueError(f"time_limit_ns: expected a positive whole number of nanoseconds or None, "
                             f"got {self.time_limit_ns!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@typed
class TimeUp(NamedTuple):
    """The game's time ran out at ``t_ns``. ``last_trick``: a trick was in progress, so the game
    ends when it does ("Time! The game ends with this trick"); else it ended at once."""

    t_ns: int
    last_trick: bool


def countdown(left_ns: int) -> str:
    """The time left as the screen shows it, ``0:42`` (whole seconds rounded up, so ``0:00``
    only once the time is up)."""
    seconds = -(-max(0, left_ns) // 1_000_000_000)
    return f"{seconds // 60}:{seconds % 60:02d}"


__all__ = ["COUNTDOWN_NS", "MINUTE_NS", "TIME_LIMIT_MIN", "TableSettings", "TimeUp", "countdown"]
