"""The press storms and contests the benchmarks replay: bouncing edge trains (`Bounce`), the
arbiter's doubles script, the storm of presses, and the table a storm is played on.

Shared by `slapbox bench press` (virtual time) and `slapbox bench lateness` (the real clock).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any

from device.rules.cards import DealError, parse_deal, shuffle
from device.table.session import GameSpec
from device.table.table import Seat, TableSettings

MS = 1_000_000
US = 1_000
ROUND_NS = 60 * MS      # arbiter mode: a card every 60 ms, fast enough to hurt, slow enough to release
HOLD_NS = 25 * MS       # arbiter mode: how long a slap keeps the button down
LATENCY_NS = 100 * US   # edge stamp -> table (GPIO: the kernel stamps, lgpio's thread delivers)
#: 8 packs of seven 5s: a card on a 5 is always a double; only a pile's first card is not slappable
DEAL = "/".join(["5555555"] * 8)
_NEVER = 1 << 62


@dataclass(frozen=True)
class Bounce:
    """How the contacts bounce: edges per press train and per release train.

    A fixed count (``press=21``) makes trains of exactly that many edges (made odd: a press train
    ends down, a release train ends up), 120 us apart. None is the **arcade** model: arcade buttons
    are snap-action microswitches, whose contacts settle in about a millisecond with a handful
    to a dozen rebounds (Ganssle's measurements of 18 switches, "A Guide to Debouncing", found
    most settling within a few ms; Horowitz & Hill give "10 to 100 times over about 1 ms" for
    ordinary contacts; a snap action is at the clean end). So: a press train of 1-15 edges
    (mean 8), a release train of 1-9 (mean 5), irregular gaps of 10-200 us (bounce is not
    rhythmic), so a train lasts ~0.75 ms on average and under 3 ms.
    """

    press: int | None = None
    release: int | None = None

    def describe(self) -> str:
        p = "1-15 (arcade)" if self.press is None else str(self.press | 1)
        r = "1-9 (arcade)" if self.release is None else str(self.release | 1)
        return f"press trains of {p} edges, release trains of {r} edges"

    def train(self, rng: Random, release: bool) -> list[int]:
        """Offsets (ns) of one train's edges from its first; odd count."""
        fixed = self.release if release else self.press
        if fixed is not None:
            return [i * 120 * US for i in range(fixed | 1)]
        n = 1 + 2 * int(rng.random() * (5 if release else 8))
        offsets = [0]
        t = 0
        for _ in range(n - 1):
            t += 10 * US + int(rng.random() * 190 * US)
            offsets.append(t)
        return offsets


ARCADE = Bounce()


def percentile(xs: list[int], q: float) -> int:
    """The ``q`` quantile (0..1) of ``xs`` (nearest rank); 0 for no samples."""
    if not xs:
        return 0
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]




def make_script(presses: int, stations: int, bounce: Bounce,
                seed: int) -> tuple[list[tuple[int, int, int, int]], int]:
    """Inputs in time order: (t, kind, a, b) with kind 0 = edge (station, level), 1 = shown
    (card, slappable). Returns the script and how many presses it holds."""
    rng = Random(seed)
    script: list[tuple[int, int, int, int]] = []
    made = 0
    card = 0
    t0 = ROUND_NS
    while made < presses:
        card += 1
        slappable = card % 3 == 0
        script.append((t0, 1, card, int(slappable)))
        if slappable:
            who = list(range(stations))
            shuffle(who, rng)
            who = who[:2 + int(rng.random() * (stations - 1))]
        else:
            who = [int(rng.random() * stations)] if rng.random() < 0.3 else []
        for s in who:
            t = t0 + 2 * MS + int(rng.random() * 4 * MS)
            for i, dt in enumerate(bounce.train(rng, False)):  # down, up, down ... ends down
                script.append((t + dt, 0, s, i % 2))
            up = t + HOLD_NS
            for i, dt in enumerate(bounce.train(rng, True)):  # up, down, up ... ends up
                script.append((up + dt, 0, s, 1 - i % 2))
            made += 1
        t0 += ROUND_NS
    script.sort(key=lambda e: e[0])
    return script, made




def table_spec(deal: str = DEAL, seed: int = 1, options: dict[str, Any] | None = None,
               settings: TableSettings | None = None) -> GameSpec:
    """A bataille-corse game with one human seat per pack, seat s on station s."""
    packs = parse_deal(deal, allow_any_number=False)
    if not 2 <= len(packs) <= 8:
        raise DealError(f"deal: {len(packs)} packs, expected 2 to 8 (one per station)")
    seats = [Seat(s, f"P{s}", station=s) for s in range(len(packs))]
    return GameSpec("bataille-corse", seed, seats, dict(options or {}), packs,
                    table=settings or TableSettings())



Edge = tuple[int, int, int, int]  # (arrival, stamp, station, level)


# The storm: what `device.bench.lateness` plays under the real clock, and the table mode's default.
#: a fast table, so cards, windows and won piles keep coming during the storm
STORM_TABLE = TableSettings(tempo_ns=300 * MS, first_card_ns=200 * MS, pile_pause_ns=400 * MS)
#: no penalty for a wrong slap: the storm never empties a pack, so the game lasts the whole run
STORM_OPTIONS = {"wrong_slap": "none"}
#: a station's storm cycle: press train, 20-60 ms held, release train, 40-100 ms up: ~9 presses/s
STORM_PRESSES_PER_S = 9


def storm(seconds: float, stations: int, bounce: Bounce, seed: int) -> list[tuple[int, int, int]]:
    """Scripted edges (t_ns from the start, station, level), in time order: each station slaps,
    holds 20-60 ms, releases, waits 20-80 ms after its release settled, and slaps again."""
    rng = Random(seed)
    end = int(seconds * 1e9)
    out: list[tuple[int, int, int]] = []
    for s in range(stations):
        t = int(rng.random() * 50 * MS)
        while t < end:
            last = t
            for i, dt in enumerate(bounce.train(rng, False)):  # down, up ... ends down
                out.append((t + dt, s, i % 2))
                last = t + dt
            up = last + 20 * MS + int(rng.random() * 40 * MS)
            for i, dt in enumerate(bounce.train(rng, True)):  # up, down ... ends up
                out.append((up + dt, s, 1 - i % 2))
                last = up + dt
            t = last + 40 * MS + int(rng.random() * 60 * MS)  # 20 ms to settle, then a wait
    out.sort()
    return out


def storm_edges(presses: int, stations: int, bounce: Bounce, seed: int) -> list[Edge]:
    """`storm` in the table mode's form, (arrival, stamp, station, level), long enough for about
    ``presses`` presses (every station slapping over and over, whatever the cards)."""
    seconds = presses / (stations * STORM_PRESSES_PER_S)
    return [(t + LATENCY_NS, t, s, level) for t, s, level in storm(seconds, stations, bounce, seed)]
