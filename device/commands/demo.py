"""Play a whole game with bots in every seat, in virtual time, and print the winner and statistics.

Identical arguments give identical output (nothing in it depends on the wall clock); a default round
limit makes every demo end. The journal it writes can be replayed with `slapbox replay`.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys

from device.clock import VirtualClock
from device.commands.common import add_game_arguments, parse_options
from device.journal.journal import FileJournal, default_dir, journal_name
from device.rules.cards import parse_deal
from device.rules.presets import PRESETS
from device.table.runner import Runner
from device.table.session import DEFAULT_NAMES, GameSpec, bot_hands, bot_minds, make_table
from device.table.table import assign_seats

DEFAULT_LIMIT = 2000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser, preset_default="bataille-corse")
    parser.set_defaults(seed=1)
    parser.add_argument("--bots", choices=["all"], default="all",
                        help="who plays: bots in every seat (the only choice in a demo)")
    parser.add_argument("--level", choices=["easy", "normal", "hard"], default="normal",
                        help="the bots' difficulty (reaction time, misses, false alarms)")
    parser.add_argument("--journal", metavar="DIR|none", default=None,
                        help=f"where the game's journal goes (default {default_dir()}), or none")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.epilog = (f"The seed defaults to 1 and the round limit to {DEFAULT_LIMIT} turns (or the "
                     "preset's own limit), so the same command always plays the same game.")


def run(args: argparse.Namespace) -> int:
    preset = args.preset
    family = PRESETS[preset].family
    options = parse_options(args.option)
    if args.max_rounds is not None:
        options["max_rounds"] = args.max_rounds
    elif PRESETS[preset].defaults.get("max_rounds") is None:
        options["max_rounds"] = DEFAULT_LIMIT
    packs = None
    if args.deal is not None:
        if family == "shedding":
            from device.rules.cards import DealError
            raise DealError(f"deal: not accepted for {preset}")
        packs = parse_deal(args.deal, allow_any_number=False)
    players = len(packs) if packs else (args.players or PRESETS[preset].min_players + (
        2 if PRESETS[preset].max_players >= 4 else 0))
    seats = assign_seats(players, [], DEFAULT_NAMES, bots="free", level=args.level)
    spec = GameSpec(preset, args.seed, seats, options, packs)
    journal = None
    where = args.journal if args.journal is not None else str(default_dir())
    if where != "none":
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        journal = FileJournal(f"{where}/{journal_name(preset, args.seed, 'demo-' + stamp)}")
    clock = VirtualClock(0)
    table = make_table(spec, start_ns=0, journal=journal)
    runner = Runner(table, clock, hands=bot_hands(table), minds=bot_minds(table))
    runner.run_virtual()
    if journal is not None:
        journal.close()
        print(f"journal: {journal.path}", file=sys.stderr)
    game = table.game
    outcome = game.outcome()
    assert outcome is not None
    stats = table.seat_stats()
    result = {"preset": preset, "seed": args.seed, "players": len(table.seats), "level": args.level,
              "outcome": outcome.termination, "winner": outcome.winner, "cards": game.cards,
              "tricks": game.tricks, "rounds": game.rounds, "table_time_s": round(clock.now_ns() / 1e9, 3),
              "longest_chain": table.longest_chain, "seats": stats}
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    names: dict[int | None, str] = {s.seat: s.name for s in table.seats}
    who = {"win": f"seat {outcome.winner} ({names.get(outcome.winner)}) wins",
           "draw": "a draw", "loop": "a loop: this deal never ends (a draw)",
           "limit": "round limit: " + (f"seat {outcome.winner} ({names.get(outcome.winner)}) has most cards"
                                       if outcome.winner is not None else "a tie")}[outcome.termination]
    minutes, seconds = divmod(int(clock.now_ns() // 1_000_000_000), 60)
    unit = "rounds" if family == "battle" else "turns"
    print(f"demo: {preset}, {len(table.seats)} bots ({args.level}), seed {args.seed}")
    print(f"{who} after {game.cards} cards, {game.tricks} tricks, {game.rounds} {unit} "
          f"({minutes} min {seconds:02d} s at the table)")
    if table.slapping:
        print(f"{'seat':<5}{'name':<10}{'slaps won':>10}{'wrong slaps':>13}{'mean reaction':>15}{'fastest':>10}")
        for s in stats:
            mean = f"{s['mean_reaction_ms']:.1f} ms" if s["mean_reaction_ms"] is not None else "-"
            fast = f"{s['fastest_reaction_ms']:.1f} ms" if s["fastest_reaction_ms"] is not None else "-"
            print(f"{s['seat']:<5}{s['name']:<10}{s['slaps_won']:>10}{s['wrong_slaps']:>13}{mean:>15}{fast:>10}")
    if family == "challenge":
        print(f"longest challenge chain: {table.longest_chain} face cards")
    return 0
