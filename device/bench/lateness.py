"""Measures how late slap judgements are made under the real clock, during a storm of presses.

``slapbox bench lateness`` (or ``slapbox bench lateness``): a bataille-corse table (8 human
seats on stations 0-7, the deal of `device.bench.press`) driven by
``Runner(table, MonotonicClock()).run_realtime(inbox, until_ns=...)``, the box's headless main
loop. A feeder thread plays the GPIO callback thread: it sleeps until each scripted edge's time,
runs that station's `Debouncer` with the edge stamped at its scripted time (the kernel's stamp)
and puts the records on the ``inbox`` queue. Every station slaps over and over, bouncing.

A press is due for judgement at its stamp + settle (or on arrival, if later). For every
judgement it records how long after that deadline the table actually made it: the wall clock
(``time.monotonic_ns()``) when the table called ``arbiter.advance(due)``, minus ``due``. Prints
p50/p99/max and the count (goal: p99 <= 1 ms), and the delivery delay (edge stamp -> table).
The loop watches the clock for the last ``--spin-ms`` before each deadline (`device.clock.wait_for`)
and the report says what that cost. Beside it: the machine's own floor (how late a bare timed
wait wakes) and, on a virtual machine, how much CPU time the hypervisor took meanwhile.
It is a benchmark: the figures depend on the machine and its load; nothing passes or fails.
"""

from __future__ import annotations

import argparse
import os
import queue
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.bench.scenarios import (
    ARCADE,
    DEAL,
    STORM_OPTIONS,
    STORM_TABLE,
    Bounce,
    percentile,
    storm,
    table_spec,
)
from device.clock import SPIN_NS, MonotonicClock
from device.inputs.debounce import Debouncer
from device.inputs.press import Press
from device.journal.journal import FileJournal, MemoryJournal
from device.table.arbiter import Award, WrongSlapCall
from device.table.runner import Runner
from device.table.session import make_table

__all__ = ["LatenessResult", "storm", "run", "main"]

MS = 1_000_000
LEAD_NS = 50 * MS    # from building the table to its start
TAIL_NS = 150 * MS   # after the last edge: every press in flight is judged by then


@dataclass
class LatenessResult:
    """What the run measured; the counts agree when every press was judged exactly once."""

    lateness_ns: list[int] = field(default_factory=list)  # one per judgement
    delivery_ns: list[int] = field(default_factory=list)  # arrival - stamp, one per press
    emitted: int = 0     # presses the debouncers put on the queue
    received: int = 0    # presses the table handed the arbiter
    judged: int = 0      # judgements the arbiter gave
    award: int = 0
    wrong: int = 0
    ignored: int = 0
    edges: int = 0
    seconds: float = 0.0
    game_over: bool = False  # the game ended before the storm did
    cpu_share: float = 0.0   # the process's CPU time over the storm's wall time (1.0 = a core)
    steal_ms: int | None = None  # CPU time the hypervisor took from this machine meanwhile


def _feed(edges: list[tuple[int, int, int]], start: int, debs: list[Debouncer],
          stop: threading.Event) -> None:
    """The GPIO callback thread's part: each edge at its time, stamped with its time."""
    clock = time.monotonic_ns
    for t_rel, s, level in edges:
        t = start + t_rel
        now = clock()
        if t > now:
            if stop.wait((t - now) / 1e9):
                return
        debs[s].edge(level, t)


def steal_ms() -> int | None:
    """CPU time (ms, all CPUs) a hypervisor has taken from this virtual machine since boot: the
    "steal" column of /proc/stat (None where there is none: not Linux, or unreadable)."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
        return int(fields[8]) * 1000 // (os.sysconf("SC_CLK_TCK") or 100)
    except (OSError, ValueError, IndexError):
        return None


def wake_floor(samples: int = 200, wait_ns: int = 2 * MS) -> list[int]:
    """How late a bare ``SimpleQueue.get(timeout)`` wakes on this machine now (ns per wait):
    the floor under the table's lateness (the OS, the load, the other processes)."""
    q: queue.SimpleQueue[Any] = queue.SimpleQueue()
    out = []
    for _ in range(samples):
        due = time.monotonic_ns() + wait_ns
        try:
            q.get(timeout=wait_ns / 1e9)
        except queue.Empty:
            pass
        out.append(time.monotonic_ns() - due)
    return out


def run(seconds: float = 20.0, *, stations: int = 8, bounce: Bounce = ARCADE, seed: int = 1,
        journal: str = "none", deal: str = DEAL, spin_ns: int = SPIN_NS) -> LatenessResult:
    """One storm of ``seconds`` against a real-time table; see the module doc."""
    spec = table_spec(deal, seed, STORM_OPTIONS, STORM_TABLE)
    if not 1 <= stations <= len(spec.seats):
        raise ValueError(f"stations: expected 1..{len(spec.seats)}, got {stations}")
    edges = storm(seconds, stations, bounce, seed)
    res = LatenessResult(edges=len(edges), seconds=seconds)
    tmp = None
    jour: Any = None
    if journal == "memory":
        jour = MemoryJournal()
    elif journal == "file":
        tmp = tempfile.TemporaryDirectory(prefix="slapbox-bench-")
        jour = FileJournal(Path(tmp.name) / "lateness.jsonl")
    elif journal != "none":
        raise ValueError(f"journal: expected none, memory or file, got {journal!r}")
    clock = MonotonicClock()
    start = clock.now_ns() + LEAD_NS
    table = make_table(spec, start_ns=start, journal=jour)
    arbiter = table.arbiter
    assert arbiter is not None  # bataille-corse slaps
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    put = inbox.put
    settings = spec.arbiter

    def sink(ev: Any) -> None:  # on the feeder thread: only count and enqueue
        if type(ev) is Press and ev.edge == "press":
            res.emitted += 1
        put(ev)

    debs = [Debouncer(s, "slap", sink, release_ns=settings.release_ns,
                      stuck_ns=settings.stuck_ns) for s in range(stations)]

    # watch the arbiter from outside: what it is given and when it judges
    judge_at = arbiter.advance
    take = arbiter.press
    monotonic = time.monotonic_ns

    def advance(now_ns: int) -> list[Any]:
        late = monotonic() - now_ns  # the table passes the arbiter's deadline
        out = judge_at(now_ns)
        for d in out:
            res.lateness_ns.append(late)
            k = type(d)
            if k is Award:
                res.award += 1
            elif k is WrongSlapCall:
                res.wrong += 1
            else:
                res.ignored += 1
        return out

    def press(station: int, t_ns: int, arrival_ns: int) -> int:
        res.received += 1
        res.delivery_ns.append(arrival_ns - t_ns)
        return take(station, t_ns, arrival_ns)

    arbiter.advance = advance  # type: ignore[method-assign]
    arbiter.press = press  # type: ignore[method-assign]
    stop = threading.Event()
    feeder = threading.Thread(target=_feed, args=(edges, start, debs, stop),
                              name="bench-feeder", daemon=True)
    feeder.start()
    try:
        cpu0, wall0, steal0 = time.process_time_ns(), time.monotonic_ns(), steal_ms()
        Runner(table, clock).run_realtime(inbox, until_ns=start + int(seconds * 1e9) + TAIL_NS,
                                          spin_ns=spin_ns)
        res.cpu_share = (time.process_time_ns() - cpu0) / max(1, time.monotonic_ns() - wall0)
        steal1 = steal_ms()
        res.steal_ms = None if steal0 is None or steal1 is None else steal1 - steal0
    finally:
        stop.set()
        feeder.join()
        if isinstance(jour, FileJournal):
            jour.close()
        if tmp is not None:
            tmp.cleanup()
    res.judged = len(res.lateness_ns)
    res.game_over = table.game.outcome() is not None
    return res


def report(res: LatenessResult, stations: int, journal: str,
           floor: list[int] | None = None, spin_ns: int = SPIN_NS) -> list[str]:
    lat, dl = res.lateness_ns, res.delivery_ns
    p99 = percentile(lat, 0.99)
    lines = [
        f"lateness under the real clock: {res.seconds:g} s storm, {stations} stations, "
        f"{res.emitted} presses ({res.edges} edges) from a feeder thread, journal {journal}",
        f"  judgements: {res.judged} ({res.award} awards, {res.wrong} wrong slaps, "
        f"{res.ignored} ignored) of {res.received} presses the table received",
        f"  made after their settle deadline by: p50 {percentile(lat, 0.50) / 1e3:.0f} us, "
        f"p99 {p99 / 1e3:.0f} us, max {max(lat, default=0) / 1e3:.0f} us; "
        f"goal p99 <= 1 ms: {'met' if lat and p99 <= 1_000_000 else 'NOT met'}",
        f"  delivery (edge stamp -> table): p50 {percentile(dl, 0.50) / 1e3:.0f} us, "
        f"p99 {percentile(dl, 0.99) / 1e3:.0f} us, max {max(dl, default=0) / 1e3:.0f} us",
        f"  the loop watched the clock for the last {spin_ns / 1e6:g} ms before each table "
        f"deadline; the process used {res.cpu_share:.0%} of a core (feeder thread included)",
    ]
    if res.steal_ms:
        lines.append(f"  the hypervisor took {res.steal_ms} ms of CPU time from this machine's "
                     f"{os.cpu_count()} CPUs during the {res.seconds:g} s storm ('steal' in "
                     "/proc/stat): whatever runs on a CPU it takes stalls, spinning or not")
    if floor:
        lines.append(f"  machine floor (a bare 2 ms queue wait, no table): late by p50 "
                     f"{percentile(floor, 0.50) / 1e3:.0f} us, p99 {percentile(floor, 0.99) / 1e3:.0f}"
                     f" us, max {max(floor) / 1e3:.0f} us")
    if res.game_over:
        lines.append("  (the game ended before the storm did: later presses were not judged)")
    if not res.emitted == res.received == res.judged:
        lines.append(f"  WARNING: {res.emitted} presses emitted, {res.received} received, "
                     f"{res.judged} judged: expected all three equal")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="slapbox bench lateness", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=20.0,
                    help="length of the storm (20: about 1,450 judgements, so that p99 is not "
                         "just the worst two or three)")
    ap.add_argument("--stations", type=int, default=8, help="stations slapping, 1..8 (8)")
    ap.add_argument("--journal", choices=("none", "memory", "file"), default="none",
                    help="the table's journal: none, a MemoryJournal, or a file in a temporary "
                         "directory, flushed per record and fsync'd per won pile (default none)")
    ap.add_argument("--spin-ms", type=float, default=SPIN_NS / 1e6, metavar="MS",
                    help="the main loop watches the clock instead of sleeping for the last MS "
                         f"before a deadline (default {SPIN_NS / 1e6:g}; 0 always sleeps)")
    ap.add_argument("--seed", type=int, default=1)
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    if not 1 <= args.stations <= 8 or not 0 < args.seconds <= 600 or \
            not 0 <= args.spin_ms <= 100:
        print("bench lateness: expected --stations 1..8, --seconds between 0 and 600 and "
              "--spin-ms between 0 and 100", file=sys.stderr)
        return 2
    floor = wake_floor()
    spin_ns = int(args.spin_ms * 1e6)
    res = run(args.seconds, stations=args.stations, seed=args.seed, journal=args.journal,
              spin_ns=spin_ns)
    for line in report(res, args.stations, args.journal, floor, spin_ns):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
