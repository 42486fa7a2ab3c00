"""Measures the CPU cost of the press path: bouncing edges -> debounce -> arbiter (-> table) -> judgements.

``python -m device.bench.press`` (or ``slapbox bench press``) runs two modes, in virtual time:

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
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any

from device.inputs.debounce import Debouncer
from device.inputs.press import Press
from device.journal.journal import FileJournal, MemoryJournal
from device.rules.cards import DealError, parse_deal, shuffle
from device.table.arbiter import Arbiter, ArbiterSettings, Award, Ignored, WrongSlapCall
from device.table.session import GameSpec, make_table
from device.table.table import Judged, Seat, Shown, Table, TableSettings, ToShow

__all__ = ["Bounce", "ARCADE", "DEAL", "main", "make_script", "run", "run_arbiter", "run_table",
           "plan_table", "table_spec", "TableResult", "percentile"]

MS = 1_000_000
US = 1_000
ROUND_NS = 60 * MS      # arbiter mode: a card every 60 ms, fast enough to hurt, slow enough to release
HOLD_NS = 25 * MS       # arbiter mode: how long a slap keeps the button down
LATENCY_NS = 100 * US   # edge stamp -> table (GPIO: the kernel stamps, lgpio's thread delivers)
#: 8 packs of seven 5s: a card on a 5 is always a double; only a pile's first card is not slappable
DEAL = "/".join(["5555555"] * 8)
_NEVER = 1 << 62


@dataclass(frozen=True)
class Bounce:
    """How the contacts bounce: edges per press train and per release train.

    A fixed count (``press=21``) makes trains of exactly that many edges (made odd: a press train
    ends down, a release train ends up), 120 us apart. None is the **arcade** model: arcade buttons
    are snap-action microswitches, whose contacts settle in about a millisecond with a handful
    to a dozen rebounds (Ganssle's measurements of 18 switches, "A Guide to Debouncing", found
    most settling within a few ms; Horowitz & Hill give "10 to 100 times over about 1 ms" for
    ordinary contacts; a snap action is at the clean end). So: a press train of 1-15 edges
    (mean 8), a release train of 1-9 (mean 5), irregular gaps of 10-200 us (bounce is not
    rhythmic), so a train lasts ~0.75 ms on average and under 3 ms.
    """

    press: int | None = None
    release: int | None = None

    def describe(self) -> str:
        p = "1-15 (arcade)" if self.press is None else str(self.press | 1)
        r = "1-9 (arcade)" if self.release is None else str(self.release | 1)
        return f"press trains of {p} edges, release trains of {r} edges"

    def train(self, rng: Random, release: bool) -> list[int]:
        """Offsets (ns) of one train's edges from its first; odd count."""
        fixed = self.release if release else self.press
        if fixed is not None:
            return [i * 120 * US for i in range(fixed | 1)]
        n = 1 + 2 * int(rng.random() * (5 if release else 8))
        offsets = [0]
        t = 0
        for _ in range(n - 1):
            t += 10 * US + int(rng.random() * 190 * US)
            offsets.append(t)
        return offsets


ARCADE = Bounce()


def percentile(xs: list[int], q: float) -> int:
    """The ``q`` quantile (0..1) of ``xs`` (nearest rank); 0 for no samples."""
    if not xs:
        return 0
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


# ---------------------------------------------------------------------------------------------
# Mode 1: debounce + arbiter


def make_script(presses: int, stations: int, bounce: Bounce,
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
            shuffle(who, rng)
            who = who[:2 + int(rng.random() * (stations - 1))]
        else:
            who = [int(rng.random() * stations)] if rng.random() < 0.3 else []
        for s in who:
            t = t0 + 2 * MS + int(rng.random() * 4 * MS)
            for i, dt in enumerate(bounce.train(rng, False)):  # down, up, down ... ends down
                script.append((t + dt, 0, s, i % 2))
            up = t + HOLD_NS
            for i, dt in enumerate(bounce.train(rng, True)):  # up, down, up ... ends up
                script.append((up + dt, 0, s, 1 - i % 2))
            made += 1
        t0 += ROUND_NS
    script.sort(key=lambda e: e[0])
    return script, made


def run_arbiter(script: list[tuple[int, int, int, int]], stations: int, *, timed: bool,
                ) -> tuple[int, list[int], dict[str, int]]:
    """Drive debounce + arbiter through ``script`` as the table's loop would.

    Returns the wall-clock ns for everything (counts["cpu_ns"]: the process's CPU ns), each
    press's ns (if ``timed``), and counts. The loop calls the arbiter only at its deadlines and
    polls a debouncer only when it is due, as the real main loop does.
    """
    settings = ArbiterSettings()
    settle = settings.settle_ns
    arbiter = Arbiter(stations, Random(1), settings)
    presses = award = wrong = ignored = 0
    deadline = _NEVER  # the arbiter's next deadline (a closure cell: the loop reads it per edge)

    def sink(ev: object) -> None:
        nonlocal presses, deadline
        if type(ev) is Press and ev.edge == "press":
            presses += 1
            t = ev.t_ns
            arbiter.press(ev.station, t, t + LATENCY_NS)
            if t + settle < deadline:
                deadline = t + settle

    debs = [Debouncer(s, "slap", sink, release_ns=settings.release_ns,
                      stuck_ns=settings.stuck_ns) for s in range(stations)]

    def judge(now: int) -> None:
        nonlocal award, wrong, ignored, deadline
        for d in arbiter.advance(now):
            if type(d) is Award:
                award += 1
                arbiter.pile_won(now)
            elif type(d) is WrongSlapCall:
                wrong += 1
            else:
                ignored += 1
        nd = arbiter.next_deadline()
        deadline = _NEVER if nd is None else nd

    clock = time.perf_counter_ns
    per_press: list[int] = []
    edge = [d.edge for d in debs]
    shown = arbiter.shown
    begin = clock()
    cpu = time.process_time_ns()
    if not timed:
        for t, kind, a, b in script:
            if t > deadline:
                judge(t - 1)
            if kind == 0:
                edge[a](b, t)
            else:
                shown(a, t, b == 1)
    else:
        # each press costs its own edges (and the judging done meanwhile), until its
        # station's next press starts
        cost = [0] * stations
        made = [0] * stations
        for t, kind, a, b in script:
            start = clock()
            if t > deadline:
                judge(t - 1)
            if kind == 0:
                before = presses
                edge[a](b, t)
                spent = clock() - start
                if presses != before:
                    if made[a]:
                        per_press.append(cost[a])
                    cost[a] = 0
                    made[a] += 1
                cost[a] += spent
            else:
                shown(a, t, b == 1)
        per_press.extend(c for c, m in zip(cost, made) if m)
    judge(1 << 61)
    for d in debs:
        d.poll(1 << 61)
    total = clock() - begin
    counts = {"award": award, "wrong": wrong, "ignored": ignored, "presses": presses,
              "cpu_ns": time.process_time_ns() - cpu}
    return total, per_press, counts


run = run_arbiter  # the name this module's first version had


# ---------------------------------------------------------------------------------------------
# Mode 2: debounce + arbiter + table (the rules, the journal, the runner's loop)


def table_spec(deal: str = DEAL, seed: int = 1, options: dict[str, Any] | None = None,
               settings: TableSettings | None = None) -> GameSpec:
    """A bataille-corse game with one human seat per pack, seat s on station s."""
    packs = parse_deal(deal, allow_any_number=False)
    if not 2 <= len(packs) <= 8:
        raise DealError(f"deal: {len(packs)} packs, expected 2 to 8 (one per station)")
    seats = [Seat(s, f"P{s}", station=s) for s in range(len(packs))]
    return GameSpec("bataille-corse", seed, seats, dict(options or {}), packs,
                    table=settings or TableSettings())


@dataclass
class TableResult:
    """What one pass of the table mode did and cost."""

    presses: int        # presses submitted to a table whose game was on
    judged: int         # judgements drained from the tables (one per press)
    award: int
    wrong: int
    ignored: int
    releases: int       # release records submitted
    edges: int
    games: int
    cards: int          # cards shown
    cpu_ns: int         # process CPU of the loop, game set-up excluded
    wall_ns: int        # wall clock of the loop, game set-up excluded
    per_press: list[int]  # wall-clock ns per press (timed passes only)
    debounce_cpu_ns: int = 0  # untimed passes: the part of cpu_ns spent debouncing the edges
    writer_cpu_ns: int = 0    # untimed passes: the part of cpu_ns of the file journal's thread


Edge = tuple[int, int, int, int]  # (arrival, stamp, station, level)


def plan_table(presses: int, bounce: Bounce, seed: int, spec: GameSpec) -> list[Edge]:
    """Every edge of a table-mode run, in arrival order: people who react to the cards the
    table shows (so it is made by running the table once). Replaying it through a fresh table
    with the same spec reproduces the same game, which the measured passes do."""
    rng = Random(seed)
    stations = len(spec.seats)
    out: list[Edge] = []

    def react(table: Table, card: int, now: int) -> list[Edge]:
        # on a double, 2 to all stations slap 150-400 ms after it is shown; on any other card,
        # now and then one station slaps wrongly
        if table.slappable_at(card):
            who = list(range(stations))
            shuffle(who, rng)
            who = who[:2 + int(rng.random() * (stations - 1))]
        else:
            who = [int(rng.random() * stations)] if rng.random() < 0.15 else []
        new: list[Edge] = []
        for s in who:
            t = now + 150 * MS + int(rng.random() * 250 * MS)
            last = t
            for i, dt in enumerate(bounce.train(rng, False)):
                new.append((t + dt + LATENCY_NS, t + dt, s, i % 2))
                last = t + dt
            up = last + 60 * MS + int(rng.random() * 100 * MS)
            for i, dt in enumerate(bounce.train(rng, True)):
                new.append((up + dt + LATENCY_NS, up + dt, s, 1 - i % 2))
        return new

    _drive(spec, [], journal=None, react=react, record=out, stop_after=presses)
    return out


# The storm: what `device.bench.lateness` plays under the real clock, and the table mode's default.
#: a fast table, so cards, windows and won piles keep coming during the storm
STORM_TABLE = TableSettings(tempo_ns=300 * MS, first_card_ns=200 * MS, pile_pause_ns=400 * MS)
#: no penalty for a wrong slap: the storm never empties a pack, so the game lasts the whole run
STORM_OPTIONS = {"wrong_slap": "none"}
#: a station's storm cycle: press train, 20-60 ms held, release train, 40-100 ms up: ~9 presses/s
STORM_PRESSES_PER_S = 9


def storm(seconds: float, stations: int, bounce: Bounce, seed: int) -> list[tuple[int, int, int]]:
    """Scripted edges (t_ns from the start, station, level), in time order: each station slaps,
    holds 20-60 ms, releases, waits 20-80 ms after its release settled, and slaps again."""
    rng = Random(seed)
    end = int(seconds * 1e9)
    out: list[tuple[int, int, int]] = []
    for s in range(stations):
        t = int(rng.random() * 50 * MS)
        while t < end:
            last = t
            for i, dt in enumerate(bounce.train(rng, False)):  # down, up ... ends down
                out.append((t + dt, s, i % 2))
                last = t + dt
            up = last + 20 * MS + int(rng.random() * 40 * MS)
            for i, dt in enumerate(bounce.train(rng, True)):  # up, down ... ends up
                out.append((up + dt, s, 1 - i % 2))
                last = up + dt
            t = last + 40 * MS + int(rng.random() * 60 * MS)  # 20 ms to settle, then a wait
    out.sort()
    return out


def storm_edges(presses: int, stations: int, bounce: Bounce, seed: int) -> list[Edge]:
    """`storm` in the table mode's form, (arrival, stamp, station, level), long enough for about
    ``presses`` presses (every station slapping over and over, whatever the cards)."""
    seconds = presses / (stations * STORM_PRESSES_PER_S)
    return [(t + LATENCY_NS, t, s, level) for t, s, level in storm(seconds, stations, bounce, seed)]


def run_table(edges: list[Edge], spec: GameSpec, *, journal: str = "none", timed: bool,
              stop_after: int | None = None) -> TableResult:
    """Replay ``edges`` (from `plan_table` or `storm_edges`) through debouncers and a table, as
    the box's loop. Untimed: the throughput pass, a loop with nothing in it but the press path;
    timed: each press's wall-clock cost too (the loop that measures costs more itself)."""
    if not timed:
        return _replay(spec, edges, journal=journal, stop_after=stop_after)
    return _drive(spec, edges, journal=journal, react=None, record=None,
                  stop_after=stop_after)


def _replay(spec: GameSpec, edges: list[Edge], *, journal: str,
            stop_after: int | None) -> TableResult:
    """`_drive`'s deliveries and steps for an untimed replay, in two measured parts: the GPIO
    thread's (every edge through its station's `Debouncer`, the records it puts on the queue)
    and the main loop's (each record submitted to the table at its arrival, then a step; a step
    at each of the table's deadlines). The debouncers depend on nothing but their edges, so the
    records and their order are the ones an interleaved run makes."""
    settings = spec.arbiter
    clock, cpu_clock = time.perf_counter_ns, time.process_time_ns
    limit = _NEVER if stop_after is None else stop_after
    begin_wall, begin_cpu = clock(), cpu_clock()
    # the GPIO thread: edges -> records, with the arrival of the edge that made them (a press's
    # first edge can also end the station's previous lock: its release comes with the press)
    inbox: list[Any] = []
    records: list[tuple[int, tuple[Press, ...]]] = []
    debs = [Debouncer(s, "slap", inbox.append, release_ns=settings.release_ns,
                      stuck_ns=settings.stuck_ns) for s in range(len(spec.seats))]
    edge_of = [d.edge for d in debs]
    add = records.append
    used = presses = releases = 0
    full = False
    for arrival, stamp, s, level in edges:
        edge_of[s](level, stamp)
        used += 1
        if inbox:
            for k, ev in enumerate(inbox):
                if ev.edge == "press":
                    if presses == limit:
                        full = True
                        del inbox[k:]
                        break
                    presses += 1
                else:
                    releases += 1
            if inbox:
                add((arrival, tuple(inbox)))
                inbox.clear()
            if full:
                break
    debounce_cpu, debounce_wall = cpu_clock() - begin_cpu, clock() - begin_wall

    # the main loop: records -> table; Runner.step after each, and at each deadline. Its CPU is
    # the main thread's; a file journal's writer thread adds the rest of the process's.
    games = cards = 0
    kinds: list[type] = []  # the type of every judgement drained, in order
    setup_cpu = setup_wall = setup_thread = 0
    journals = _Journals(journal)
    thread_clock = time.thread_time_ns
    begin_wall, begin_cpu, begin_thread = clock(), cpu_clock(), thread_clock()

    def new_table(now: int) -> Table:
        nonlocal games, setup_cpu, setup_wall, setup_thread
        c0, w0, th0 = cpu_clock(), clock(), thread_clock()
        t = make_table(spec, start_ns=now, journal=journals.new())
        games += 1
        setup_cpu += cpu_clock() - c0
        setup_wall += clock() - w0
        setup_thread += thread_clock() - th0
        return t

    table = new_table(0)

    def step(now: int, last: bool = False) -> int:
        # Runner.step, headless: drain, advance, drain until nothing is left; the presenter
        # reports each card shown at once. Returns the table's next deadline (a new game's, if
        # this one ended; ``last``: the ended game's final step).
        nonlocal table, cards
        advance = True
        if not table.outbox:
            table.advance(now)
            if not table.outbox:
                nd = table.next_deadline()
                return _NEVER if nd is None else nd
            advance = False
        while True:
            for item in table.drain():
                cls = type(item)
                if cls is Judged:
                    kinds.append(type(item[1]))  # its decision's
                elif cls is ToShow:
                    table.submit(Shown(item.card, now))
                    cards += 1
            if not table.outbox and advance:
                table.advance(now)
                advance = False
            if not table.outbox:
                break
        if not last and table.game.outcome() is not None:
            # a game ended: judge what is in flight, then a new game on the same buttons
            step(table.now_ns + settings.settle_ns, True)
            table = new_table(table.now_ns)
        nd = table.next_deadline()
        return _NEVER if nd is None else nd

    nd = step(0)
    submit = table.submit
    for arrival, evs in records:
        if nd < arrival:
            while nd < arrival:
                nd = step(nd)
            submit = table.submit  # a game may have ended: the new table's
        for ev in evs:
            submit(ev, arrival)
        nd = step(arrival)  # the loop wakes once for what one edge brought
        submit = table.submit
    # judge the presses still in flight (their deadlines are at most a settle time away)
    end = table.now_ns + settings.settle_ns + LATENCY_NS
    while nd <= end:
        nd = step(nd)
    main_cpu = thread_clock() - begin_thread - setup_thread
    journals.finish()  # the writer threads' last records reach the disk
    table_cpu = cpu_clock() - begin_cpu - setup_cpu
    table_wall = clock() - begin_wall - setup_wall
    return TableResult(presses, *_tally(kinds), releases, used, games, cards,
                       debounce_cpu + table_cpu, debounce_wall + table_wall, [],
                       debounce_cpu_ns=debounce_cpu,
                       writer_cpu_ns=max(0, table_cpu - main_cpu))


def _tally(kinds: list[type]) -> tuple[int, int, int, int]:
    """(judged, award, wrong, ignored) from the types of the judgements drained."""
    n = Counter(kinds)
    return len(kinds), n[Award], n[WrongSlapCall], n[Ignored]


class _Journals:
    """The journals of one pass: none, one `MemoryJournal` per game (every record copied through
    JSON), or the box's `FileJournal` per game, in a temporary directory."""

    def __init__(self, kind: str) -> None:
        if kind not in JOURNALS:
            raise ValueError(f"journal: expected one of {', '.join(JOURNALS)}, got {kind!r}")
        self.kind = kind
        self._tmp = tempfile.TemporaryDirectory(prefix="slapbox-bench-") if kind == "file" else None
        self._files: list[FileJournal] = []

    def new(self) -> FileJournal | MemoryJournal | None:
        if self.kind == "memory":
            return MemoryJournal()
        if self._tmp is None:
            return None
        j = FileJournal(f"{self._tmp.name}/game-{len(self._files)}.jsonl")
        self._files.append(j)
        return j

    def finish(self) -> None:
        for j in self._files:
            j.close()
        if self._tmp is not None:
            self._tmp.cleanup()


def _drive(spec: GameSpec, edges: list[Edge], *, journal: str | None,
           react: Callable[[Table, int, int], list[Edge]] | None, record: list[Edge] | None,
           stop_after: int | None) -> TableResult:
    """The timed pass (each press's wall-clock cost), and the planning pass (whose timings go
    unused). ``react`` (planning): new edges for each card shown, merged into the ones still to
    come; ``record`` collects every edge consumed."""
    settings = spec.arbiter
    inbox: list[Any] = []  # the queue the GPIO thread fills (here: the debouncers' sink)
    stations = len(spec.seats)
    debs = [Debouncer(s, "slap", inbox.append, release_ns=settings.release_ns,
                      stuck_ns=settings.stuck_ns) for s in range(stations)]
    edge_of = [d.edge for d in debs]
    pending = list(edges)
    n_edges = len(pending)
    i = 0
    games = cards = presses = releases = 0
    kinds: list[type] = []  # the type of every judgement drained, in order
    setup_cpu = setup_wall = 0
    clock = time.perf_counter_ns
    cpu_clock = time.process_time_ns
    # timed: cost[s] accrues to station s's current press; key (station, stamp) -> its index
    per_press: list[int] = []
    cost = [0] * stations
    current = [-1] * stations
    index_of: dict[tuple[int, int], int] = {}
    share: list[int] = []  # press indexes the current loop pass's cost is split among

    journals = _Journals(journal or "none")

    def new_table(now: int) -> Table:
        nonlocal games, setup_cpu, setup_wall
        c0, w0 = cpu_clock(), clock()
        t = make_table(spec, start_ns=now, journal=journals.new())
        games += 1
        setup_cpu += cpu_clock() - c0
        setup_wall += clock() - w0
        return t

    begin_wall, begin_cpu = clock(), cpu_clock()
    table = new_table(0)

    def dispatch(now: int) -> None:
        # Runner.dispatch, headless: the presenter reports each laid card shown at once
        nonlocal pending, n_edges, i, cards
        while True:
            items = table.drain()
            if not items:
                return
            for item in items:
                cls = type(item)
                if cls is ToShow:
                    table.submit(Shown(item.card, now))
                    cards += 1
                    if react is not None:
                        new = react(table, item.card, now)
                        if new:
                            pending = pending[i:] + new
                            pending.sort()
                            i = 0
                            n_edges = len(pending)
                elif cls is Judged:
                    d = item.decision
                    kinds.append(type(d))
                    share.append(index_of.pop((d.station, d.t_ns)))

    def charge(spent: int) -> None:
        # a loop pass's cost, split among the presses it judged (or delivered)
        if share:
            part = spent // len(share)
            for k in share:
                per_press[k] += part
            share.clear()

    def step(now: int) -> None:
        # Runner.step without the inbox (delivered just before) and without bots
        dispatch(now)
        table.advance(now)
        dispatch(now)

    limit = _NEVER if stop_after is None else stop_after
    stepped = True
    nd = _NEVER
    while presses < limit:
        if stepped:
            # the table changes only when it is given something: like the runner's loop, ask
            # for its next deadline once per pass, not once per bouncing edge
            nd = table.next_deadline()
            if nd is None:
                nd = _NEVER
            stepped = False
        if i < n_edges and pending[i][0] <= nd:
            arrival, stamp, s, level = e = pending[i]
            i += 1
            if record is not None:
                record.append(e)
            t0 = clock()
            edge_of[s](level, stamp)
            if not inbox:
                cost[s] += clock() - t0
                continue
            for ev in inbox:
                if ev.edge == "press":
                    if current[s] >= 0:
                        per_press[current[s]] += cost[s]
                    cost[s] = 0
                    if table.game.outcome() is None:
                        presses += 1
                        current[s] = len(per_press)
                        index_of[(s, ev.t_ns)] = len(per_press)
                        per_press.append(0)
                        share.append(len(per_press) - 1)
                    else:
                        current[s] = -1
                else:
                    releases += 1
                table.submit(ev, arrival)
            inbox.clear()
            step(arrival)
            stepped = True
            charge(clock() - t0)
        elif react is None and i >= n_edges:
            break  # a replay ends with its edges
        elif nd < _NEVER:
            stepped = True
            t0 = clock()
            step(nd)
            charge(clock() - t0)
        else:
            break  # nothing more will happen
        if table.game.outcome() is not None:
            # a game ended: judge what is in flight, then a new game on the same buttons
            table.advance(table.now_ns + settings.settle_ns)
            dispatch(table.now_ns)
            share.clear()
            table = new_table(table.now_ns)
            stepped = True
    # judge the presses still in flight (their deadlines are at most a settle time away)
    end = table.now_ns
    while True:
        nd = table.next_deadline()
        if nd is None or nd > end + settings.settle_ns + LATENCY_NS:
            break
        step(nd)
    share.clear()
    for s in range(stations):
        if current[s] >= 0:
            per_press[current[s]] += cost[s]
    journals.finish()
    wall = clock() - begin_wall - setup_wall
    cpu = cpu_clock() - begin_cpu - setup_cpu
    return TableResult(presses, *_tally(kinds), releases,
                       i, games, cards, cpu, wall, per_press)


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
JOURNALS = ("none", "memory", "file")


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
    ap = argparse.ArgumentParser(prog="python -m device.bench.press", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=("all", "arbiter", "table"), default="all",
                    help="arbiter: debounce + arbiter; table: through a real Table (default all)")
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
