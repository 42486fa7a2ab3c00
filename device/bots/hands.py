"""Bots' hands: when a bot slaps, from a human-like model per difficulty, on its own random stream.

A bot "sees" each card when the screen shows it and presses like a person would: after a reaction
time drawn from an ex-Gaussian distribution (a normal plus an exponential tail: the usual fit of
human reaction times, Ratcliff 1979, Psychological Bulletin 86:446; Whelan 2008, The Psychological
Record 58:475), sometimes not at all (a miss), and now and then on a card that cannot be slapped
(a false alarm, the go/no-go commission error). Figures: simple visual reaction times of young
adults are about 250 ms (Jain et al. 2015, Int J Appl Basic Med Res 5:124); recognising a double
among other cards is a choice task, slower by roughly 100-200 ms (Hick-Hyman law), so "normal"
centres on about 550 ms, "hard" on an alert expert's 370 ms, "easy" on a distracted 760 ms.

What a bot sees follows the game's active slap patterns (RULES.md section 3). Each bot knows some
of them, drawn once on its stream when it sits down (the table below): a pattern it knows it slaps
(unless it misses), one it does not know it does not see, and a pattern that is not switched on it
never knows. Lures are what make people slap wrongly (a 5 on a 6 looks like a double), so a pile
that almost shows a pattern the bot knows (`near`) is slapped at the profile's `mistake` rate
instead of the lower `false_alarm` rate of a pile that shows nothing.

Bots are not threads: the runner schedules the returned stamp on the clock, and the press goes
through the table like any button's (source "bot", station = the bot's seat).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from device.rules.cards import ACE, JACK, KING, QUEEN
from device.rules.rng import randbelow
from device.rules.slaps import SLAP_ORDER, slap_pattern

MS = 1_000_000
#: "every other active pattern" in a profile's ``others``
ALL = len(SLAP_ORDER)

#: How easy a pattern is to see, easiest first: the order in which a bot is likely to have learnt
#: them (a draw weights each by its place: doubles 10 ... flush 1). Rank patterns on the two or
#: three top cards come first; sums, pairs of faces and runs need a second look; a flush needs
#: four suits, which nobody watches.
EASE: tuple[str, ...] = ("doubles", "sandwich", "top-bottom", "ten-on-top", "marriage", "tens",
                         "big-mac", "divorce", "run", "flush")
#: the patterns that have lures (`near`): a bot that knows one of them now and then slaps a lure
LURES = frozenset({"doubles", "sandwich", "run", "tens", "marriage"})


@dataclass(frozen=True)
class SlapProfile:
    """A difficulty: ex-Gaussian reaction (mu, sigma, tau), misses, false alarms, and how many of
    the active patterns it knows and how often it mistakes a near-pattern for one."""

    name: str
    mu_ns: int
    sigma_ns: int
    tau_ns: int
    miss: float          # chance of not slapping a pile that shows a pattern it knows
    false_alarm: float   # chance of slapping a pile that shows nothing it knows
    others: tuple[int, int] = (ALL, ALL)  # how many active patterns besides doubles it knows: lo..hi
    mistake: float = 0.0  # chance of slapping a pile that almost shows a pattern it knows (`near`)
    floor_ns: int = 150 * MS  # faster than this is anticipation, not reaction

    @property
    def mean_ns(self) -> int:
        return self.mu_ns + self.tau_ns


#: The difficulties. What each knows of the active patterns (doubles, when on, always: it is the
#: game's own pattern) and how it errs:
#:
#: level   | patterns known besides doubles        | near-pattern slapped | false alarm | miss
#: easy    | 1 or 2 of the others                  | 25 %                 | 3 %         | 30 %
#: normal  | 5 to 8 of the others: most            | 10 %                 | 1.5 %       | 12 %
#: hard    | all of them                           | 3 %                  | 0.5 %       | 3 %
#:
#: (the others drawn at creation, weighted by `EASE` (`learn`); never more than are switched on:
#: with doubles and sandwich on, easy knows both, as hard does.)
PROFILES: dict[str, SlapProfile] = {
    "easy": SlapProfile("easy", 560 * MS, 70 * MS, 200 * MS, miss=0.30, false_alarm=0.03,
                        others=(1, 2), mistake=0.25),
    "normal": SlapProfile("normal", 420 * MS, 50 * MS, 130 * MS, miss=0.12, false_alarm=0.015,
                          others=(5, 8), mistake=0.10),
    "hard": SlapProfile("hard", 300 * MS, 35 * MS, 70 * MS, miss=0.03, false_alarm=0.005,
                        others=(ALL, ALL), mistake=0.03),
}


def ex_gaussian(rng: Random, mu: float, sigma: float, tau: float) -> float:
    """A draw from mu + sigma*N(0,1) + Exp(tau), built on ``rng.random()`` only (Box-Muller)."""
    u1 = 1.0 - rng.random()  # (0, 1]
    u2 = rng.random()
    normal = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    expo = -tau * math.log(1.0 - rng.random())
    return mu + sigma * normal + expo


def learn(rng: Random, profile: SlapProfile, active: Sequence[str]) -> tuple[str, ...]:
    """The active patterns a bot of ``profile`` knows, in ``SLAP_ORDER`` (as ``slap_pattern``
    takes them): doubles if on, and ``profile.others`` of the rest, drawn on ``rng`` without
    replacement, each weighted by its place in `EASE`. Draws nothing when it knows them all."""
    on = set(active)
    rest = [p for p in EASE[1:] if p in on]
    lo, hi = profile.others
    count = lo + randbelow(rng, hi - lo + 1) if hi > lo and len(rest) > lo else lo
    if count >= len(rest):
        chosen = set(rest)
    else:
        chosen = set()
        weights = {p: len(EASE) - EASE.index(p) for p in rest}
        for _ in range(count):
            r = rng.random() * sum(weights.values())
            for p, w in weights.items():
                r -= w
                if r < 0:
                    break
            chosen.add(p)
            del weights[p]
    if "doubles" in on:
        chosen.add("doubles")
    return tuple(p for p in SLAP_ORDER if p in chosen)


def _ranked(r: int) -> bool:
    """A rank that has a place in a run (2..Ace: not a joker or an any-number card)."""
    return 2 <= r <= ACE


def _value(r: int) -> int:
    """A card's value for `tens` (number cards, Ace 1; 0: none)."""
    return r if 2 <= r <= 10 else 1 if r == ACE else 0


def near(pile: Sequence[int], known: Sequence[str]) -> bool:
    """Does the pile (top last) almost show one of the ``known`` patterns? The lures: doubles or a
    sandwich one rank off (a 5 on a 6, 5-x-6); a run broken by one or laid out of order (4-5-7,
    5-7-6); two cards adding up to 9 or 11 for tens; a Jack with a King or Queen for a marriage."""
    n = len(pile)
    if n < 2:
        return False
    top, second = pile[-1] >> 2, pile[-2] >> 2
    third = pile[-3] >> 2 if n >= 3 else 0
    for p in known:
        if p == "doubles":
            if abs(top - second) == 1 and _ranked(top) and _ranked(second):
                return True
        elif p == "sandwich":
            if n >= 3 and abs(top - third) == 1 and _ranked(top) and _ranked(third):
                return True
        elif p == "run":
            ranks = {top, second, third}  # an exact run is seen as one, never tested here
            if n >= 3 and len(ranks) == 3 and max(ranks) - min(ranks) <= 3 and all(map(_ranked, ranks)):
                return True
        elif p == "tens":
            a, b = _value(top), _value(second)
            if a and b and a + b in (9, 11):
                return True
        elif p == "marriage" and {top, second} in ({JACK, QUEEN}, {JACK, KING}):
            return True
    return False


class SlapBot:
    """One bot seat's slapping hand, knowing ``known`` of the game's active ``patterns``."""

    def __init__(self, seat: int, profile: SlapProfile, rng: Random,
                 patterns: Sequence[str] = ("doubles",), *, run_wraps: bool = False,
                 marriage_colour: bool = False) -> None:
        self.seat = seat
        self.profile = profile
        self.rng = rng
        self.known = learn(rng, profile, patterns)
        self._known = frozenset(self.known)
        #: the known patterns that have lures (none: `near` is never asked)
        self._lures = tuple(p for p in self.known if p in LURES) if profile.mistake > profile.false_alarm else ()
        self.run_wraps, self.marriage_colour = run_wraps, marriage_colour

    def sees(self, pattern: str | None, pile: Sequence[int] = ()) -> str | None:
        """The pattern this bot sees on ``pile`` (top last), of which the game names ``pattern``
        (its first active one): that one if it knows it, else another it knows there, else None."""
        if pattern is None or pattern in self._known:
            return pattern
        if not pile or not self.known:
            return None
        return slap_pattern(pile, self.known, run_wraps=self.run_wraps,
                            marriage_colour=self.marriage_colour)

    def react(self, shown_ns: int, pattern: str | None, pile: Sequence[int] = ()) -> int | None:
        """The stamp of this bot's press for a card shown at ``shown_ns``, or None (no press).
        ``pattern``: the pattern the game says the pile shows (None: nothing); ``pile``: the pile
        as the card made it, top last (to see other patterns it knows, and near ones)."""
        p = self.profile
        seen = self.sees(pattern, pile)
        roll = self.rng.random()
        if seen is not None:
            if roll < p.miss:
                return None
        elif roll >= (p.mistake if self._lures and near(pile, self._lures) else p.false_alarm):
            return None
        delay = ex_gaussian(self.rng, p.mu_ns, p.sigma_ns, p.tau_ns)
        if seen is None:
            delay *= 0.8  # a false alarm is an impulsive press
        return shown_ns + max(p.floor_ns, int(delay))
