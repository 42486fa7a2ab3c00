"""Measures the CPU cost of the press path: bouncing edges -> debounce -> arbiter -> judgements.

``python -m device.bench_press``: 8 stations slap doubles (and sometimes nothing) in virtual time,
every press and release a train of bouncing edges, through one `Debouncer` per station and one
`Arbiter`, as the table would drive them. Prints presses per second of CPU (goal >= 100,000) and
the wall-clock processing time per press (p50/p99: its edge trains, the arbiter call they make,
and its share of the judging).
"""

from __future__ import annotations

import argparse
import sys
import time
from random import Random

from device.arbiter import Arbiter, ArbiterSettings, Award, WrongSlap
from device.inputs.debounce import Debouncer
from device.inputs.press import Press

__all__ = ["main", "make_script", "run"]

MS = 1_000_000
US = 1_000
ROUND_NS = 60 * MS      # a card every 60 ms: fast enough to hurt, slow enough to release
HOLD_NS = 25 * MS       # how long a slap keeps the button down
LATENCY_NS = 100 * US   # edge stamp -> table


def make_script(presses: int, stations: int, bounce: int, release_bounce: int,
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
            for i in range(len(who) - 1, 0, -1):
                j = int(rng.random() * (i + 1))
                who[i], who[j] = who[j], who[i]
            who = who[:2 + int(rng.random() * (stations - 1))]
        else:
            who = [int(rng.random() * stations)] if rng.random() < 0.3 else []
        for s in who:
            t = t0 + 2 * MS + int(rng.random() * 4 * MS)
            for i in range(bounce | 1):  # down, up, down ... ends down
                script.append((t + i * 120 * US, 0, s, i % 2))
            up = t + HOLD_NS
            for i in range(release_bounce | 1):  # up, down, up ... ends up
                script.append((up + i * 120 * US, 0, s, 1 - i % 2))
            made += 1
        t0 += ROUND_NS
    script.sort(key=lambda e: e[0])
    return script, made


def run(script: list[tuple[int, int, int, int]], stations: int, *, timed: bool,
        ) -> tuple[int, list[int], dict[str, int]]:
    """Drive the press path through ``script`` as the table's loop would.

    Returns the wall-clock ns for everything (counts["cpu_ns"]: the process's CPU ns), each press's ns (if ``timed``), and counts. The loop
    calls the arbiter only at its deadlines and polls a debouncer only when it is due, as the
    real main loop does.
    """
    settings = ArbiterSettings()
    settle = settings.settle_ns
    arbiter = Arbiter(stations, Random(1), settings)
    counts = {"award": 0, "wrong": 0, "ignored": 0, "presses": 0}
    deadline = [1 << 62]

    def sink(ev: object) -> None:
        if type(ev) is Press and ev.edge == "press":
            counts["presses"] += 1
            t = ev.t_ns
            arbiter.press(ev.station, t, t + LATENCY_NS)
            if t + settle < deadline[0]:
                deadline[0] = t + settle

    debs = [Debouncer(s, "slap", sink, release_ns=settings.release_ns,
                      stuck_ns=settings.stuck_ns) for s in range(stations)]

    def judge(now: int) -> None:
        for d in arbiter.advance(now):
            if type(d) is Award:
                counts["award"] += 1
                arbiter.pile_won(now)
            elif type(d) is WrongSlap:
                counts["wrong"] += 1
            else:
                counts["ignored"] += 1
        nd = arbiter.next_deadline()
        deadline[0] = (1 << 62) if nd is None else nd

    clock = time.perf_counter_ns
    per_press: list[int] = []
    edge = [d.edge for d in debs]
    begin = clock()
    cpu = time.process_time_ns()
    if not timed:
        for t, kind, a, b in script:
            if t > deadline[0]:
                judge(t - 1)
            if kind == 0:
                edge[a](b, t)
            else:
                arbiter.shown(a, t, bool(b))
    else:
        # each press costs its own edges (and the judging done meanwhile), until its
        # station's next press starts
        cost = [0] * stations
        made = [0] * stations
        for t, kind, a, b in script:
            start = clock()
            if t > deadline[0]:
                judge(t - 1)
            if kind == 0:
                before = counts["presses"]
                edge[a](b, t)
                spent = clock() - start
                if counts["presses"] != before:
                    if made[a]:
                        per_press.append(cost[a])
                    cost[a] = 0
                    made[a] += 1
                cost[a] += spent
            else:
                arbiter.shown(a, t, bool(b))
        per_press.extend(c for c, m in zip(cost, made) if m)
    judge(1 << 61)
    for d in debs:
        d.poll(1 << 61)
    total = clock() - begin
    counts["cpu_ns"] = time.process_time_ns() - cpu
    return total, per_press, counts


def _pct(xs: list[int], q: float) -> int:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m device.bench_press", description=__doc__)
    ap.add_argument("--presses", type=int, default=100_000, help="presses to make (100000)")
    ap.add_argument("--stations", type=int, default=8, help="stations, 1..8 (8)")
    ap.add_argument("--bounce", type=int, default=11,
                    help="edges in each press's bounce train, made odd (11)")
    ap.add_argument("--release-bounce", type=int, default=7,
                    help="edges in each release's bounce train (7)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not 1 <= args.stations <= 8 or args.presses < 1 or args.bounce < 1 \
            or args.release_bounce < 0:
        print("bench_press: expected --stations 1..8, --presses >= 1, --bounce >= 1, "
              "--release-bounce >= 0", file=sys.stderr)
        return 2
    script, made = make_script(args.presses, args.stations, args.bounce, args.release_bounce,
                               args.seed)
    edges = sum(1 for e in script if e[1] == 0)
    run(script[: len(script) // 10], args.stations, timed=False)  # warm up
    # throughput: best of 3 untimed passes, on the process's CPU time (other processes on the
    # machine do not count against it) and on the wall clock
    passes = [run(script, args.stations, timed=False) for _ in range(3)]
    cpu = min(p[2]["cpu_ns"] for p in passes)
    wall = min(p[0] for p in passes)
    _, per_press, counts = run(script, args.stations, timed=True)
    rate = made / (cpu / 1e9)
    print(f"press path: {made} presses, {args.stations} stations, {edges} edges "
          f"({args.bounce | 1}-edge press and {args.release_bounce | 1}-edge release bounce "
          f"trains), {counts['award']} awards, {counts['wrong']} wrong slaps, "
          f"{counts['ignored']} ignored")
    print(f"throughput: {rate:,.0f} presses/s of CPU ({cpu / 1e6:.0f} ms), "
          f"{made / (wall / 1e9):,.0f} presses/s of wall clock ({wall / 1e6:.0f} ms), "
          f"{edges / (cpu / 1e9):,.0f} edges/s; goal >= 100,000 presses/s: "
          f"{'met' if rate >= 100_000 else 'NOT met'}")
    print(f"per press (wall clock, its edges + the arbiter calls made meanwhile): "
          f"p50 {_pct(per_press, 0.50) / 1e3:.1f} us, p99 {_pct(per_press, 0.99) / 1e3:.1f} us")
    t0 = time.perf_counter_ns()
    for _ in range(100_000):
        pass
    print(f"machine: an empty Python loop step takes {(time.perf_counter_ns() - t0) / 1e5:.0f} ns "
          "here (compare across machines)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
