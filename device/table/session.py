"""Builds one game at a table: the rules, the seats, the table, its journal header (the parts of a
game that demo, play and replay share)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from device import __version__
from device.bots.hands import PROFILES, SlapBot
from device.bots.minds import RuleBot
from device.journal.journal import JOURNAL_VERSION
from device.rules.base import Game
from device.rules.presets import new_game
from device.table.arbiter import ArbiterSettings
from device.table.table import Seat, Table, TableSettings

DEFAULT_NAMES = ["Anna", "Ben", "Chloé", "David", "Emma", "Farid", "Gaëlle", "Hugo"]


@dataclass
class GameSpec:
    """Everything that decides a game (what the journal header holds)."""

    preset: str
    seed: int
    seats: list[Seat]
    options: dict[str, Any] = field(default_factory=dict)
    packs: list[list[int]] | None = None  # fixed packs (a --deal); None: shuffled from the seed
    arbiter: ArbiterSettings = field(default_factory=ArbiterSettings)
    table: TableSettings = field(default_factory=TableSettings)


def build_game(spec: GameSpec) -> Game:
    return new_game(spec.preset, players=len(spec.seats), seed=spec.seed, options=spec.options,
                    packs=spec.packs, slapping=True)


def header(spec: GameSpec, game: Game, start_ns: int, wall: str | None = None) -> dict[str, Any]:
    packs = game.dealt
    return {
        "version": JOURNAL_VERSION, "software": __version__, "preset": spec.preset,
        "options": {k: list(v) if isinstance(v, tuple) else v
                    for k, v in game.options.items()},
        "seed": spec.seed, "packs": packs,
        "seats": [{"seat": s.seat, "name": s.name, "station": s.station, "bot": s.bot,
                   "level": s.level} for s in spec.seats],
        "arbiter": spec.arbiter.to_dict(), "table": spec.table.to_dict(),
        "start_ns": start_ns, "wall": wall,
    }


def spec_from_header(h: dict[str, Any]) -> GameSpec:
    seats = [Seat(s["seat"], s["name"], s["station"], s["bot"], s.get("level", "normal"))
             for s in h["seats"]]
    return GameSpec(h["preset"], h["seed"], seats, dict(h["options"]), h.get("packs"),
                    ArbiterSettings.from_dict(h["arbiter"]), TableSettings(**h["table"]))


def make_table(spec: GameSpec, *, start_ns: int, journal: Any = None, wall: str | None = None,
               write_header: bool = True) -> Table:
    game = build_game(spec)
    return Table(game, spec.seats, start_ns=start_ns, arbiter=spec.arbiter, settings=spec.table,
                 journal=journal,
                 header=header(spec, game, start_ns, wall) if write_header else None)


def bot_hands(table: Table) -> dict[int, SlapBot]:
    """A slap model for every bot seat, each on its own stream (``slapbot:<seat>``), knowing some
    of the game's active slap patterns (drawn on that stream: `device.bots.hands.learn`)."""
    game = table.game
    streams, opts = game.streams, game.options
    run_wraps, colour = bool(opts.get("run_wraps")), bool(opts.get("marriage_colour"))
    return {s.seat: SlapBot(s.seat, PROFILES[s.level], streams[f"slapbot:{s.seat}"], game.patterns,
                            run_wraps=run_wraps, marriage_colour=colour)
            for s in table.seats if s.bot}


def bot_minds(table: Table) -> dict[int, RuleBot]:
    """A decision bot for every bot seat of a game with decisions (``bot:<seat>`` streams)."""
    streams = table.game.streams
    return {s.seat: RuleBot(streams[f"bot:{s.seat}"]) for s in table.seats if s.bot}
