"""Drives bouncing edges through the press path: one `Debouncer` per station, the `Arbiter`, and
(table mode) a real table with its rules and journal, in virtual time, timing each part. The
measuring loops of `slapbox bench press` (`device.bench.press` prints their figures)."""


from __future__ import annotations

import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import Any

from device.bench.scenarios import (
    _NEVER,
    LATENCY_NS,
    MS,
    Bounce,
    Edge,
)
from device.inputs.debounce import Debouncer
from device.inputs.press import Press
from device.journal.journal import FileJournal, MemoryJournal
from device.rules.cards import shuffle
from device.table.arbiter import Arbiter, ArbiterSettings, Award, Ignored, WrongSlapCall
from device.table.session import GameSpec, make_table
from device.table.table import Judged, Shown, Table, ToShow

__all__ = ["JOURNALS", "run", "run_arbiter", "run_table", "plan_table", "TableResult"]

# ---------------------------------------------------------------------------------------------
# Mode 1: debounce + arbiter



JOURNALS = ("none", "memory", "file")


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
            due = table.next_deadline()
            nd = _NEVER if due is None else due
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
        last = table.next_deadline()
        if last is None or last > end + settings.settle_ns + LATENCY_NS:
            break
        step(last)
    share.clear()
    for s in range(stations):
        if current[s] >= 0:
            per_press[current[s]] += cost[s]
    journals.finish()
    wall = clock() - begin_wall - setup_wall
    cpu = cpu_clock() - begin_cpu - setup_cpu
    return TableResult(presses, *_tally(kinds), releases,
                       i, games, cards, cpu, wall, per_press)


