"""Benchmark: the rule-based norvégienne bot against a random legal player over seeded 2-seat games.

``slapbox bench bots --games 1000`` prints the rule bot's win rate. Game ``i`` uses
seed ``first_seed + i``; the rule bot sits in seat 0 in even games and in seat 1 in odd ones.
The match itself is pure (no clock); only ``main`` prints.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from device.bots.minds import decider, make_players
from device.rules.presets import new_game


@dataclass(frozen=True)
class MatchResult:
    games: int
    rule_wins: int
    random_wins: int
    no_winner: int  # turn limit reached with a tie for fewest cards
    limits: int  # games ended by the turn limit (whoever won them)
    turns: int

    @property
    def win_rate(self) -> float:
        return self.rule_wins / self.games if self.games else 0.0


def match(games: int, first_seed: int = 0, options: dict[str, Any] | None = None) -> MatchResult:
    """Play ``games`` seeded 2-seat games of RuleBot against RandomBot, alternating seat 0."""
    rule_wins = random_wins = no_winner = limits = turns = 0
    for i in range(games):
        seed = first_seed + i
        rule_seat = i % 2
        kinds = ["rule", "random"] if rule_seat == 0 else ["random", "rule"]
        game = new_game("norvegienne", players=2, seed=seed, options=options)
        outcome = game.play_out(decider(make_players(kinds, game.streams)))
        turns += game.rounds
        limits += outcome.termination == "limit"
        if outcome.winner is None:
            no_winner += 1
        elif outcome.winner == rule_seat:
            rule_wins += 1
        else:
            random_wins += 1
    return MatchResult(games, rule_wins, random_wins, no_winner, limits, turns)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="slapbox bench bots",
                                     description="RuleBot against a random legal player, 2 seats.")
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games: expected a whole number of at least 1, got {args.games}")
    r = match(args.games, args.seed)
    print(f"norvegienne, 2 seats, {r.games} games (seeds {args.seed}..{args.seed + r.games - 1}, "
          f"rule bot alternating seat 0/1): rule bot won {r.rule_wins} ({100 * r.win_rate:.1f}%), "
          f"random won {r.random_wins}, no winner {r.no_winner}; turn limit reached {r.limits}; "
          f"{r.turns / r.games:.0f} turns per game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
