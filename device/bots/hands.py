"""Bots' hands: when a bot slaps, from a human-like model per difficulty, on its own random stream.

A bot "sees" each card when the screen shows it and presses like a person would: after a reaction
time drawn from an ex-Gaussian distribution (a normal plus an exponential tail: the usual fit of
human reaction times, Ratcliff 1979, Psychological Bulletin 86:446; Whelan 2008, The Psychological
Record 58:475), sometimes not at all (a miss), and now and then on a card that cannot be slapped
(a false alarm, the go/no-go commission error). Figures: simple visual reaction times of young
adults are about 250 ms (Jain et al. 2015, Int J Appl Basic Med Res 5:124); recognising a double
among other cards is a choice task, slower by roughly 100-200 ms (Hick-Hyman law), so "normal"
centres on about 550 ms, "hard" on an alert expert's 370 ms, "easy" on a distracted 760 ms.

Bots are not threads: the runner schedules the returned stamp on the clock, and the press goes
through the table like any button's (source "bot", station = the bot's seat).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from random import Random

MS = 1_000_000


@dataclass(frozen=True)
class SlapProfile:
    """A difficulty: ex-Gaussian reaction (mu, sigma, tau), misses and false alarms."""

    name: str
    mu_ns: int
    sigma_ns: int
    tau_ns: int
    miss: float          # chance of not slapping a slappable pile
    false_alarm: float   # chance of slapping a card that cannot be slapped
    floor_ns: int = 150 * MS  # faster than this is anticipation, not reaction

    @property
    def mean_ns(self) -> int:
        return self.mu_ns + self.tau_ns


PROFILES: dict[str, SlapProfile] = {
    "easy": SlapProfile("easy", 560 * MS, 70 * MS, 200 * MS, miss=0.30, false_alarm=0.03),
    "normal": SlapProfile("normal", 420 * MS, 50 * MS, 130 * MS, miss=0.12, false_alarm=0.015),
    "hard": SlapProfile("hard", 300 * MS, 35 * MS, 70 * MS, miss=0.03, false_alarm=0.005),
}


def ex_gaussian(rng: Random, mu: float, sigma: float, tau: float) -> float:
    """A draw from mu + sigma*N(0,1) + Exp(tau), built on ``rng.random()`` only (Box-Muller)."""
    u1 = 1.0 - rng.random()  # (0, 1]
    u2 = rng.random()
    normal = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    expo = -tau * math.log(1.0 - rng.random())
    return mu + sigma * normal + expo


class SlapBot:
    """One bot seat's slapping hand."""

    def __init__(self, seat: int, profile: SlapProfile, rng: Random) -> None:
        self.seat = seat
        self.profile = profile
        self.rng = rng

    def react(self, shown_ns: int, slappable: bool) -> int | None:
        """The stamp of this bot's press for a card shown at ``shown_ns``, or None (no press)."""
        p = self.profile
        roll = self.rng.random()
        if slappable and roll < p.miss or not slappable and roll >= p.false_alarm:
            return None
        delay = ex_gaussian(self.rng, p.mu_ns, p.sigma_ns, p.tau_ns)
        if not slappable:
            delay *= 0.8  # a false alarm is an impulsive press
        return shown_ns + max(p.floor_ns, int(delay))
