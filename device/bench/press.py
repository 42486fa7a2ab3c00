"""Measures the CPU cost of the press path: bouncing edges -> debounce -> arbiter (-> table) -> judgements.

``slapbox bench press`` (or ``slapbox bench press``) runs two modes, in virtual time:

- ``arbiter``: 8 stations slap doubles (and sometimes nothing) through one `Debouncer` per station
  and one `Arbiter`, called only at its deadlines, as the table would (no rules, no journal).
- ``table``: the box's whole press path. A bataille-corse game with 8 human seats on stations
  0-7, built by `device.session.make_table` from a fixed deal of one rank (every card after a
  pile's first makes a double, so slaps are valid). Each station's edges go through its
  `Debouncer` (the GPIO thread's job); the records it emits for one edge are submitted to the
  table at that edge's arrival, then the loop does what `Runner.step` does headless: a `Shown`
  for each `ToShow` it drains, `advance` at the table's deadlines. Two scenarios (`scenario`):
  ``storm``, `device.bench.lateness`'s storm of presses in virtual time, and ``doubles``, where
  every window draws 2-8 slaps and every press also pays for rules work (cards, won piles).
  Measured with the journal off and with the box's `FileJournal` (its writer thread on its own).

Every press and every release is a train of bouncing edges. The default is the ``arcade`` model
(see `Bounce`); ``--bounce 20`` gives the old harsh fixed trains (20 edges made odd: 21).

It prints presses per second of CPU, for the arbiter + table (the main loop's part; the goal is
>= 100,000), for the debouncing (the GPIO thread's part) and for the whole, and the wall-clock
processing time per press, p50/p99: the debouncing of its own edge trains, its share of the loop
pass that delivered it, and its share of the loop pass that judged it (a pass that judged 5
presses counts 1/5 to each). Laying cards and the table's timers belong to no press: they count
in the throughput only.
"""

from __future__ import annotations

import argparse
import sys
import time

from device.bench.press_path import JOURNALS, plan_table, run_arbiter, run_table
from device.bench.scenarios import (
    DEAL,
    LATENCY_NS,
    MS,
    STORM_OPTIONS,
    STORM_PRESSES_PER_S,
    STORM_TABLE,
    Bounce,
    Edge,
    make_script,
    percentile,
    storm_edges,
    table_spec,
)
from device.rules.cards import DealError
from device.table.session import GameSpec

# ---------------------------------------------------------------------------------------------


def _bounce_arg(text: str) -> int | None:
    if text == "arcade":
        return None
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected 'arcade' or a number of edges >= 1, "
                                         f"got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected 'arcade' or a number of edges >= 1, got {n}")
    return n


def _rate(n: int, ns: int) -> float:
    return n / (ns / 1e9) if ns > 0 else 0.0


def _goal(rate: float) -> str:
    return "met" if rate >= 100_000 else "NOT met"


def bench_arbiter(presses: int, stations: int, bounce: Bounce, seed: int) -> list[str]:
    script, made = make_script(presses, stations, bounce, seed)
    edges = sum(1 for e in script if e[1] == 0)
    run_arbiter(script[: len(script) // 10], stations, timed=False)  # warm up
    # throughput: best of 3 untimed passes, on the process's CPU time (other processes on the
    # machine do not count against it) and on the wall clock
    passes = [run_arbiter(script, stations, timed=False) for _ in range(3)]
    cpu = min(p[2]["cpu_ns"] for p in passes)
    wall = min(p[0] for p in passes)
    _, per_press, counts = run_arbiter(script, stations, timed=True)
    rate = _rate(made, cpu)
    return [
        f"debounce + arbiter: {made} presses, {stations} stations, {edges} edges, "
        f"{counts['award']} awards, {counts['wrong']} wrong slaps, {counts['ignored']} ignored",
        f"  throughput: {rate:,.0f} presses/s of CPU ({cpu / 1e6:.0f} ms), "
        f"{_rate(made, wall):,.0f} presses/s of wall clock, {_rate(edges, cpu):,.0f} edges/s "
        "(parts of the path, in one loop: the goal is for the arbiter + table, below)",
        f"  per press (wall clock: its edges + the arbiter work meanwhile): "
        f"p50 {percentile(per_press, 0.50) / 1e3:.1f} us, "
        f"p99 {percentile(per_press, 0.99) / 1e3:.1f} us",
    ]


SCENARIOS = ("storm", "doubles")


def scenario(name: str, presses: int, bounce: Bounce, seed: int,
             deal: str = DEAL) -> tuple[GameSpec, list[Edge], str]:
    """The table mode's input: its game, its edges and a line saying what it is.

    ``storm``: `device.bench.lateness`'s storm in virtual time: 8 stations slapping over and over
    (~9 presses/s each) whatever the cards, on a fast table (a card every 300 ms); about one
    press in ten lands in a slap window, the rest are wrong slaps (no penalty) and lost races.
    ``doubles``: people who react to the cards, on a deal where every card after a pile's first
    is a double: every window draws 2-8 slaps, so each press also pays for ~0.4 cards laid and
    ~0.2 piles won by the rules (the harshest mix for the table: rules work in every press).
    """
    if name == "storm":
        spec = table_spec(deal, seed, STORM_OPTIONS, STORM_TABLE)
        stations = len(spec.seats)
        return spec, storm_edges(presses, stations, bounce, seed), (
            f"storm: {stations} stations slapping ~{STORM_PRESSES_PER_S}/s each whatever the "
            f"cards, a card every {STORM_TABLE.tempo_ns // MS} ms")
    if name == "doubles":
        spec = table_spec(deal, seed)
        return spec, plan_table(presses, bounce, seed, spec), (
            "doubles: people slap the doubles (2-8 per window) and now and then a wrong card; "
            "every card after a pile's first is a double")
    raise ValueError(f"scenario: expected one of {', '.join(SCENARIOS)}, got {name!r}")


def bench_table(presses: int, bounce: Bounce, seed: int, deal: str,
                journals: list[str], scenarios: tuple[str, ...] = SCENARIOS) -> list[str]:
    lines = [f"debounce + arbiter + table: bataille-corse, {len(table_spec(deal, seed).seats)} "
             f"human seats, deal {deal if len(deal) <= 40 else deal[:37] + '...'}"]
    for name in scenarios:
        spec, edges, what = scenario(name, presses, bounce, seed, deal)
        lines.append(f" {what}")
        for journal in journals:
            run_table(edges[: len(edges) // 10], spec, journal=journal, timed=False)  # warm up
            # best of 5 untimed passes, on the process's CPU time (other processes on the
            # machine do not count against it), each part on its own
            passes = [run_table(edges, spec, journal=journal, timed=False) for _ in range(5)]
            debounce = min(p.debounce_cpu_ns for p in passes)
            main_loop = min(p.cpu_ns - p.debounce_cpu_ns - p.writer_cpu_ns for p in passes)
            writer = min(p.writer_cpu_ns for p in passes)
            wall = min(p.wall_ns for p in passes)
            r = run_table(edges, spec, journal=journal, timed=True)
            n = r.presses
            rate = _rate(n, main_loop)
            kind = {"none": "off", "memory": "in memory (records copied through JSON)",
                    "file": "to a file (the box's FileJournal and its writer thread)"}[journal]
            lines += [
                f"  journal {kind}: {n} presses judged {r.judged} times ({r.award} awards, "
                f"{r.wrong} wrong slaps, {r.ignored} ignored), {r.edges} edges, "
                f"{r.cards} cards shown, {r.games} games",
                f"    arbiter + table (the main loop): {rate:,.0f} presses/s of CPU "
                f"({main_loop / n / 1e3:.1f} us a press); goal >= 100,000 presses/s: "
                f"{_goal(rate)}",
                f"    debouncing the bounce trains (the GPIO thread): {_rate(n, debounce):,.0f} "
                f"presses/s of CPU ({debounce / n / 1e3:.1f} us a press)",
            ]
            if journal == "file":
                lines.append(f"    the journal's writer thread: {_rate(n, writer):,.0f} presses/s "
                             f"of CPU ({writer / n / 1e3:.1f} us a press)")
            lines += [
                f"    the whole path: {_rate(n, main_loop + debounce + writer):,.0f} presses/s "
                f"of CPU, {_rate(n, wall):,.0f} presses/s of wall clock",
                f"    per press (wall clock: its edges, its delivery, its share of its "
                f"judgement): p50 {percentile(r.per_press, 0.50) / 1e3:.1f} us, "
                f"p99 {percentile(r.per_press, 0.99) / 1e3:.1f} us",
            ]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="slapbox bench press", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=("all", "arbiter", "table", "awards", "once"), default="all",
                    help="arbiter: debounce + arbiter; table: through a real Table (default all: "
                         "both); awards: checks one award per won pile over --games random "
                         "slap games (minutes); once: the storm's --table-presses through the "
                         "table once, untimed, for valgrind (instructions a press: the "
                         "difference with --dry, divided by the presses)")
    ap.add_argument("--dry", action="store_true",
                    help="once mode: plan the presses but do not play them (valgrind's baseline)")
    ap.add_argument("--games", type=int, default=100_000, metavar="N",
                    help="awards mode: random games with random slaps and delivery delays "
                         "(default 100,000)")
    ap.add_argument("--presses", type=int, default=100_000,
                    help="arbiter mode: presses to make (100000)")
    ap.add_argument("--table-presses", type=int, default=20_000,
                    help="table mode: presses to make (20000; a table pass is ~5x slower)")
    ap.add_argument("--stations", type=int, default=8, help="arbiter mode: stations, 1..8 (8)")
    ap.add_argument("--bounce", type=_bounce_arg, default=None, metavar="arcade|N",
                    help="edges in each press's bounce train, made odd (default arcade: 1-15)")
    ap.add_argument("--release-bounce", type=_bounce_arg, default=None, metavar="arcade|N",
                    help="edges in each release's bounce train, made odd (default arcade: 1-9)")
    ap.add_argument("--journal", choices=("both",) + JOURNALS, default="both",
                    help="table mode: journal off, in memory, to a file as the box writes it, or "
                         "both off and to a file (default both)")
    ap.add_argument("--scenario", choices=("both",) + SCENARIOS, default="both",
                    help="table mode: storm (8 stations slapping whatever the cards, as bench "
                         "lateness), doubles (every card a double: rules work in every press), "
                         "or both (default)")
    ap.add_argument("--deal", default=DEAL, metavar="SPEC",
                    help="table mode: the packs, one per station (default: 8 packs of seven 5s)")
    ap.add_argument("--seed", type=int, default=1)
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    if not 1 <= args.stations <= 8 or args.presses < 1 or args.table_presses < 1:
        print("bench press: expected --stations 1..8, --presses >= 1 and --table-presses >= 1",
              file=sys.stderr)
        return 2
    if args.bounce is not None and args.release_bounce is None:
        args.release_bounce = args.bounce  # a fixed train asked for: the same on release
    bounce = Bounce(args.bounce, args.release_bounce)
    try:
        table_spec(args.deal, args.seed)
    except DealError as e:
        print(f"bench press: {e}", file=sys.stderr)
        return 2
    print(f"press path, {bounce.describe()}, stamp -> table {LATENCY_NS / 1e3:.0f} us")
    if args.mode == "once":
        from device.bench.press_path import run_table
        from device.bench.scenarios import ARCADE as arcade
        from device.bench.scenarios import STORM_OPTIONS as opts
        from device.bench.scenarios import STORM_TABLE as tbl
        from device.bench.scenarios import storm_edges as edges_of
        from device.bench.scenarios import table_spec as spec_of
        spec = spec_of(options=opts, settings=tbl)
        edges = edges_of(args.table_presses, 8, arcade, args.seed)
        if not args.dry:
            run_table(edges, spec, timed=False)
        print(f"once: {args.table_presses:,} storm presses " + ("planned only (--dry)" if args.dry
                                                                else "through the table, untimed"))
        return 0
    if args.mode == "awards":
        from device.bench.awards import one_award_per_pile
        t0 = time.perf_counter()
        try:
            games, piles, awards = one_award_per_pile(args.games, seed=args.seed)
        except AssertionError as e:
            print(f"awards: FAILED: {e}")
            return 1
        print(f"awards: {games:,} random games, {piles:,} piles won by a slap, {awards:,} awards: "
              f"exactly one award per won pile, none refused by the rules "
              f"({time.perf_counter() - t0:.0f} s)")
        return 0
    if args.mode in ("all", "arbiter"):
        for line in bench_arbiter(args.presses, args.stations, bounce, args.seed):
            print(line, flush=True)
    if args.mode in ("all", "table"):
        journals = ["none", "file"] if args.journal == "both" else [args.journal]
        scenarios = SCENARIOS if args.scenario == "both" else (args.scenario,)
        for line in bench_table(args.table_presses, bounce, args.seed, args.deal, journals,
                                scenarios):
            print(line, flush=True)
    t0 = time.perf_counter_ns()
    for _ in range(100_000):
        pass
    print(f"machine: an empty Python loop step takes {(time.perf_counter_ns() - t0) / 1e5:.0f} ns "
          "here (compare across machines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
