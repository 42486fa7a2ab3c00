"""A match: a series of games (one, best of N, or as many as M minutes hold) with its running score.

Plain data, no clock of its own: the caller says when each game ended. Players are keyed by their
names (a late joiner enters between games with a score of nought; a bot seat is a player too).
Best of N ends as soon as one player has won more than half of the N games, or after N games; a
timed match starts no game once its minutes have passed. The match winner has won the most
games; a tie for most is broken by the cards held at the end of the last game (the seat with most
cards then), and is a draw if that ties too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

MIN_NS = 60_000_000_000
BEST_OF = (3, 5, 7)
MINUTES = (10, 15, 20, 30, 45, 60)  # the menu's timed matches
MINUTES_RANGE = (5, 180)            # what the config and the command line accept
LAST_GAME_NS = MIN_NS               # a timed match starts no game with less than this left
#: the menu's choices, in the order a tap steps them
MATCH_CHOICES = ("single", *(f"best-of-{n}" for n in BEST_OF), *(f"minutes-{m}" for m in MINUTES))


@dataclass(frozen=True)
class MatchPlan:
    """``kind``: "single", "best" (``n`` games) or "minutes" (``n`` minutes)."""

    kind: str
    n: int = 1

    @classmethod
    def parse(cls, text: str) -> MatchPlan:
        """``single``, ``best-of-N`` (N: 3, 5 or 7) or ``minutes-M`` (M in 5..180); ValueError
        saying what is expected."""
        expected = ('expected "single", "best-of-3", "best-of-5", "best-of-7" or "minutes-M" '
                    f'(M from {MINUTES_RANGE[0]} to {MINUTES_RANGE[1]})')
        if text == "single":
            return cls("single")
        stem, _, n = str(text).rpartition("-")
        if n.isdigit() and stem == "best-of" and int(n) in BEST_OF and n == str(int(n)):
            return cls("best", int(n))
        if n.isdigit() and stem == "minutes" and n == str(int(n)) and MINUTES_RANGE[0] <= int(n) <= MINUTES_RANGE[1]:
            return cls("minutes", int(n))
        raise ValueError(f"{expected}, got {text!r}")

    def __str__(self) -> str:
        return {"single": "single", "best": f"best-of-{self.n}", "minutes": f"minutes-{self.n}"}[self.kind]


@dataclass
class GameResult:
    winner: str | None            # None: a draw
    cards: dict[str, int]         # cards each player held at the end
    timed: bool = False           # it ended on its time limit


@dataclass
class Series:
    """The games of one match and its score."""

    plan: MatchPlan
    start_ns: int
    wins: dict[str, int] = field(default_factory=dict)    # every player seen, in seat order
    seats: dict[str, int] = field(default_factory=dict)   # each player's seat in the last game
    games: list[GameResult] = field(default_factory=list)
    photo: tuple[str, str, int] | None = None             # closest photo finish: winner, runner-up, margin
    last_ns: int = 0                                      # when the last game ended

    def add_player(self, name: str, seat: int) -> None:
        """A player at the table (a late joiner enters with no wins)."""
        self.wins.setdefault(name, 0)
        self.seats[name] = seat

    def photo_finish(self, winner: str, runner_up: str, margin_ns: int) -> None:
        """A slap won by ``margin_ns`` over ``runner_up``: kept if it is the closest so far."""
        if self.photo is None or margin_ns < self.photo[2]:
            self.photo = (winner, runner_up, margin_ns)

    def add_game(self, names: Sequence[str], winner: int | None, cards: Sequence[int], now_ns: int,
                 *, timed: bool = False) -> None:
        """A game ended at ``now_ns``: ``names`` by seat, the winning seat (None: a draw), the
        cards each seat held."""
        for seat, name in enumerate(names):
            self.add_player(name, seat)
        won = names[winner] if winner is not None else None
        if won is not None:
            self.wins[won] += 1
        self.games.append(GameResult(won, dict(zip(names, cards)), timed))
        self.last_ns = now_ns

    # --- where the match stands ----------------------------------------------------------------
    def over(self, now_ns: int | None = None) -> bool:
        """No game is to follow: judged at ``now_ns`` (a timed match's minutes may pass while the
        players look at the standings), or when the last game ended."""
        played = len(self.games)
        if self.plan.kind == "single":
            return played >= 1
        if self.plan.kind == "best":
            return played >= self.plan.n or max(self.wins.values(), default=0) > self.plan.n // 2
        now = self.last_ns if now_ns is None else max(self.last_ns, now_ns)
        # less than a minute left: no game is worth starting (it would be won by the deal)
        return played >= 1 and now - self.start_ns >= self.plan.n * MIN_NS - LAST_GAME_NS

    def time_left_ns(self, now_ns: int) -> int | None:
        """A timed match: what is left of its minutes (the next game's time limit)."""
        if self.plan.kind != "minutes":
            return None
        return max(0, self.start_ns + self.plan.n * MIN_NS - now_ns)

    def minutes_left(self, now_ns: int) -> int | None:
        """A timed match: whole minutes left (rounded up; 0 once they have passed)."""
        left = self.time_left_ns(now_ns)
        return None if left is None else -(-left // MIN_NS)

    def leaders(self) -> list[str]:
        """Who leads: most games won, then (a tie) most cards at the end of the last game."""
        if not self.wins:
            return []
        top = max(self.wins.values())
        first = [n for n, w in self.wins.items() if w == top]
        if len(first) > 1 and self.games:
            cards = self.games[-1].cards
            most = max(cards.get(n, 0) for n in first)
            first = [n for n in first if cards.get(n, 0) == most]
        return first

    def winner(self, now_ns: int | None = None) -> str | None:
        """The match's winner once it is over (None: a draw, or not over)."""
        leaders = self.leaders()
        return leaders[0] if self.over(now_ns) and len(leaders) == 1 else None

    # --- kept across a crash or a power cut (device.screen.party writes it beside the journals) ---
    def to_dict(self, now_ns: int) -> dict[str, Any]:
        """The match as JSON keeps it; the clock's readings become how long it has run (a
        monotonic clock starts again after a reboot)."""
        return {"plan": str(self.plan), "elapsed_ns": max(0, now_ns - self.start_ns),
                "since_last_ns": max(0, now_ns - self.last_ns) if self.games else None,
                "wins": dict(self.wins), "seats": dict(self.seats),
                "games": [{"winner": g.winner, "cards": g.cards, "timed": g.timed} for g in self.games],
                "photo": list(self.photo) if self.photo else None}

    @classmethod
    def from_dict(cls, data: dict[str, Any], now_ns: int) -> Series:
        """The inverse of ``to_dict``, on this clock; ValueError (or KeyError, TypeError) if it
        is not one."""
        series = cls(MatchPlan.parse(data["plan"]), now_ns - int(data["elapsed_ns"]))
        series.wins = {str(k): int(v) for k, v in data["wins"].items()}
        series.seats = {str(k): int(v) for k, v in data["seats"].items()}
        series.games = [GameResult(g["winner"], {str(k): int(v) for k, v in g["cards"].items()},
                                   bool(g["timed"])) for g in data["games"]]
        if data.get("photo"):
            w, r, margin = data["photo"]
            series.photo = (str(w), str(r), int(margin))
        since = data.get("since_last_ns")
        series.last_ns = now_ns - int(since) if since is not None else series.start_ns
        return series

    def standings(self) -> list[tuple[str, int, int, int | None, bool]]:
        """(name, seat, games won, cards at the end of the last game if it was timed, leads),
        by games won then seat: what the standings screen lists."""
        leaders = self.leaders() if self.games else []
        last = self.games[-1] if self.games else None
        order = sorted(self.wins, key=lambda n: (-self.wins[n], self.seats.get(n, 99), n))
        return [(n, self.seats.get(n, 0), self.wins[n],
                 last.cards.get(n) if last is not None and last.timed else None,
                 len(leaders) == 1 and n == leaders[0]) for n in order]


__all__ = ["MATCH_CHOICES", "MatchPlan", "Series", "GameResult", "BEST_OF", "MINUTES", "MINUTES_RANGE"]
