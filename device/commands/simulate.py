"""Play one whole game with nobody slapping and print how it ended (add --json for tools).

The contract other tools rely on: ``--json`` prints exactly one JSON object with at least
``preset, seed, outcome (win|draw|loop|limit), winner, cards, tricks, rounds``.
"""

from __future__ import annotations

import argparse
import json
import sys

from device.bots.minds import decider, make_players
from device.commands.common import add_game_arguments, parse_options, pick_seed
from device.rules.presets import PRESETS, new_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.epilog = ("Without --deal the preset's deck is shuffled with the seed and dealt as "
                     "RULES.md says; games with decisions (norvegienne) use the bots. Players "
                     "default to the number of packs of --deal, else 2.")


def simulate(preset: str, *, players: int | None = None, seed: int | None = None,
             deal: str | None = None, max_rounds: int | None = None,
             options: dict | None = None) -> dict:
    """Play the game out and return the JSON contract's fields."""
    options = dict(options or {})
    if max_rounds is not None:
        options["max_rounds"] = max_rounds
    used_seed = seed if (seed is not None or deal is not None) else pick_seed(None)
    game = new_game(preset, players=players if players is not None or deal else 2,
                    seed=used_seed or 0, options=options, deal_spec=deal, slapping=False)
    decide = None
    if PRESETS[preset].family == "shedding":
        decide = decider(make_players(["rule"] * game.seat_count(), game.streams))
    outcome = game.play_out(decide)
    return {"preset": preset, "seed": used_seed, "players": game.seat_count(),
            "outcome": outcome.termination, "winner": outcome.winner,
            "cards": game.cards, "tricks": game.tricks, "rounds": game.rounds,
            "counts": game.card_counts()}


def run(args: argparse.Namespace) -> int:
    preset = args.preset or "bataille-corse"
    result = simulate(preset, players=args.players, seed=args.seed, deal=args.deal,
                      max_rounds=args.max_rounds, options=parse_options(args.option))
    if args.json:
        json.dump(result, sys.stdout)
        sys.stdout.write("\n")
        return 0
    unit = "rounds" if PRESETS[preset].family == "battle" else "turns"
    seed = "fixed deal" if result["seed"] is None else f"seed {result['seed']}"
    how = {"win": f"seat {result['winner']} wins",
           "draw": "a draw",
           "loop": "a loop: this deal never ends (a draw)",
           "limit": "round limit reached: " + (f"seat {result['winner']} has most cards"
                                               if result["winner"] is not None else "a tie, no winner")}
    print(f"{preset}, {result['players']} players, {seed}: {how[result['outcome']]} after "
          f"{result['cards']} cards, {result['tricks']} tricks, {result['rounds']} {unit}.")
    return 0
