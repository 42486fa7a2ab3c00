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
from device.config.schema import is_int, load_config
from device.rules.presets import PRESETS, new_game, resolve_options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.epilog = ("Without --deal the preset's deck is shuffled with the seed and dealt as "
                     "RULES.md says; games with decisions (norvegienne) use the bots. Players "
                     "default to the number of packs of --deal, else [game] players if the "
                     "configuration sets it, else 2; [game] preset, seed and options likewise.")


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
    given = load_config(args.config).section("game").given  # an invalid file is refused here
    preset = args.preset or given.get("preset", "bataille-corse")
    options = dict(given.get("options", {})) if args.preset in (None, given.get("preset")) else {}
    options.update(parse_options(args.option))
    seed = args.seed if args.seed is not None else given.get("seed") if is_int(given.get("seed")) else None
    players = args.players or (given.get("players") if args.deal is None else None)
    result = simulate(preset, players=players, seed=seed, deal=args.deal,
                      max_rounds=args.max_rounds, options=options)
    if args.json:
        json.dump(result, sys.stdout)
        sys.stdout.write("\n")
        return 0
    if args.max_rounds is not None:
        options["max_rounds"] = args.max_rounds
    print(summary(result, resolve_options(preset, options)["max_rounds"]))
    return 0


def summary(result: dict, max_rounds: int | None) -> str:
    """The human line: how the game ended; at a round limit, the counts (never "a tie" unless
    the counts tie)."""
    preset = result["preset"]
    unit = "rounds" if PRESETS[preset].family == "battle" else "turns"
    seed = "fixed deal" if result["seed"] is None else f"seed {result['seed']}"
    counts = "\u2013".join(str(c) for c in result["counts"])
    totals = f"{result['cards']:,} cards, {result['tricks']:,} tricks, {result['rounds']:,} {unit}"
    outcome, winner = result["outcome"], result["winner"]
    if winner is not None:
        winner += 1  # people count seats from 1 (the JSON keeps the file's 0-based seat)
    fewest = PRESETS[preset].family == "shedding"
    if outcome == "limit":
        best = "fewest" if fewest else "most"
        how = (f"seat {winner} has {best} cards" if winner is not None
               else f"a tie for {best} cards, {counts}")
        return f"{preset}, {result['players']} players, {seed}: round limit reached after {totals}: {how}."
    if outcome == "draw" and preset == "paix" and result["rounds"] == max_rounds:
        # paix at its round limit: a draw whatever the counts (RULES.md 4)
        return (f"{preset}, {result['players']} players, {seed}: draw after {result['rounds']:,} "
                f"{unit}, {counts} ({result['cards']:,} cards, {result['tricks']:,} tricks).")
    how = {"win": f"seat {winner} wins", "draw": "a draw",
           "loop": "a loop: this deal never ends (a draw)"}[outcome]
    return f"{preset}, {result['players']} players, {seed}: {how} after {totals}."
