"""Random slap games in virtual time for the arbiter's promises: one award per won pile (`slapbox
bench press --mode awards`: 100,000 games take minutes), and arrival order that does not matter.

Each game is a bataille-corse deal of 2-4 human seats whose stations slap at random moments, each
press delivered some delay after its stamp; the table, the rules and the arbiter are the box's own.
"""

from __future__ import annotations

import types
from random import Random
from typing import Any

from device.inputs.script import ScriptedPress
from device.journal.journal import MemoryJournal
from device.rules.cards import make_deck, shuffle
from device.rules.events import PileWon
from device.table.arbiter import Award
from device.table.outputs import Judged
from device.table.runner import Runner
from device.table.seats import Seat
from device.table.session import GameSpec, make_table
from device.table.table import TableSettings

MS = 1_000_000
SETTINGS = TableSettings(tempo_ns=250 * MS, first_card_ns=200 * MS, pile_pause_ns=300 * MS)
LIMIT_NS = 20_000 * MS


def random_presses(rng: Random) -> list[tuple[int, int]]:
    """(station, stamp) slaps of a game: ~4 a second at random, some in bursts a hair apart."""
    out: list[tuple[int, int]] = []
    t = 0
    while t < LIMIT_NS // 4:
        t += int(rng.expovariate(1 / (250 * MS))) + 1
        out.append((rng.randrange(4), t))
        if rng.random() < 0.3:  # a close race
            out.append((rng.randrange(4), t + rng.randrange(3 * MS)))
    return out


def _table(seed: int) -> tuple[Any, Runner, list[Any]]:
    rng = Random(seed)
    players = 2 + seed % 3
    deck = make_deck(54)
    shuffle(deck, rng)
    packs = [deck[i::players] for i in range(players)]
    seats = [Seat(s, f"P{s}", station=s) for s in range(players)]
    options = {"slaps": ["doubles", "sandwich", "top-bottom"], "max_rounds": 400,
               "wrong_slap": ("pot-1", "lockout", "none")[seed % 3]}
    spec = GameSpec("bataille-corse", seed, seats, options, packs, table=SETTINGS)
    from device.clock import VirtualClock
    clock = VirtualClock(0)
    table = make_table(spec, start_ns=0, journal=MemoryJournal())
    out: list[Any] = []
    runner = Runner(table, clock, outputs=[lambda item, now: out.append(item)])
    return table, runner, out


def judgements(seed: int, presses: list[tuple[int, int]], delays: list[int]) -> list[dict[str, Any]]:
    """The judge records of one game whose ``presses`` arrive ``delays`` after their stamps."""
    table, runner, _ = _table(seed)
    players = len(table.seats)
    runner.schedule_script([ScriptedPress(t, t + d, s % players, "slap", "press")
                            for (s, t), d in zip(presses, delays)])
    runner.run_virtual(limit_ns=LIMIT_NS)
    return [r for r in table._journal.records if r["k"] in ("judge", "refused")]


#: what the arrival-order test reaches through one name
contest_game = types.SimpleNamespace(random_presses=random_presses, judgements=judgements)


def one_award_per_pile(games: int, seed: int = 0) -> tuple[int, int, int]:
    """Play ``games`` random games with random slaps and random delivery delays; raise
    AssertionError at the first pile with two awards, an award the rules refused, or a pile won by
    a slap without its award. Returns (games, piles won by a slap, awards)."""
    piles = awards = 0
    for g in range(games):
        rng = Random(seed * 1_000_003 + g)
        table, runner, out = _table(seed * 1_000_003 + g)
        players = len(table.seats)
        presses = random_presses(rng)
        runner.schedule_script([ScriptedPress(t, t + rng.randrange(7 * MS), s % players, "slap", "press")
                                for s, t in presses])
        runner.run_virtual(limit_ns=LIMIT_NS)
        pending = 0  # awards since the last won pile
        for item in out:
            if isinstance(item, Judged) and isinstance(item.decision, Award):
                pending += 1
                awards += 1
                assert pending == 1, f"game {g}: two awards for one pile"
            elif isinstance(item, PileWon):
                if item.reason.startswith("slap:"):
                    assert pending == 1, f"game {g}: a pile won by a slap without its award"
                    piles += 1
                elif pending:
                    raise AssertionError(f"game {g}: an award, then the pile went by {item.reason}")
                pending = 0
        refused = [r for r in table._journal.records if r["k"] == "refused"]
        assert not refused, f"game {g}: the rules refused {refused[0]}"
    return games, piles, awards
