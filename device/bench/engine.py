"""Rules engine speed: cards per second of every preset through the simulator's loop, and the
longest known Beggar-my-neighbour deal (`slapbox bench engine`).

Benchmarks print figures; they never pass or fail on a time (machines are shared and noisy).
"""

from __future__ import annotations

import argparse
import statistics
import time

from device.bots.minds import decider, make_players
from device.rules.presets import PRESET_NAMES, PRESETS, new_game

RECORD_DEAL = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"  # 8,344 cards, 1,164 tricks


def bench_engine(seconds: float, players: int) -> list[str]:
    """Whole games with nobody slapping (the simulator's loop), seeded 0, 1, 2 ..."""
    lines = [f"{'preset':<18} {'games':>6} {'cards':>9} {'cards/s':>11}   (players={players}, "
             f"~{seconds:g} s each, games built and played)"]
    for preset in PRESET_NAMES:
        n = max(PRESETS[preset].min_players, min(players, PRESETS[preset].max_players))
        games = cards = 0
        elapsed = 0.0
        while elapsed < seconds:
            t0 = time.perf_counter()
            game = new_game(preset, players=n, seed=games, slapping=False,
                            options={"max_rounds": 20_000})
            decide = None
            if PRESETS[preset].family == "shedding":
                decide = decider(make_players(["rule"] * n, game.streams))
            game.play_out(decide)
            elapsed += time.perf_counter() - t0
            games += 1
            cards += game.cards
        lines.append(f"{preset:<18} {games:>6} {cards:>9} {cards / elapsed:>11,.0f}")
    runs: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(runs) < 5:
        game = new_game("strip-jack-naked", deal_spec=RECORD_DEAL, slapping=False)
        t0 = time.perf_counter()
        game.play_out()
        runs.append(time.perf_counter() - t0)
    best, median = min(runs), statistics.median(runs)
    lines.append(f"record deal (strip-jack-naked, {game.cards} cards, {game.tricks} tricks): "
                 f"median {median * 1e3:.2f} ms = {game.cards / median:,.0f} cards/s; "
                 f"best {best * 1e3:.2f} ms = {game.cards / best:,.0f} cards/s ({len(runs)} runs)")
    return lines



def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="slapbox bench engine", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0, metavar="S",
                    help="time spent on each preset (default 1)")
    ap.add_argument("--players", type=int, default=2, metavar="N", help="seats (default 2)")
    args = ap.parse_args(argv)
    for line in bench_engine(args.seconds, args.players):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
