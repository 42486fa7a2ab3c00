"""Replays a journal: feeds its recorded inputs to a fresh table in journal order and checks that
every judgement and every rules event comes out the same. The same file replays the same on any
machine (nothing here reads a clock; bots' presses and decisions are in the journal as inputs)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.errors import SlapboxError
from device.inputs.debounce import MENU_STUCK_NS
from device.inputs.press import Press, Stuck, Unstuck
from device.journal.journal import (
    INPUT_KINDS,
    OUTPUT_KINDS,
    FileJournal,
    JournalError,
    MemoryJournal,
    cut_torn_tail,
    read_journal,
)
from device.rules.actions import action_from_dict
from device.rules.base import IllegalAction
from device.table.session import make_table, spec_from_header
from device.table.table import Shown, Table


class ReplayMismatch(SlapboxError):
    """The first record where the replayed game differs from the journal."""


@dataclass
class ReplayResult:
    path: Path
    inputs: int
    checked: int
    warnings: list[str]
    finished: bool
    table: Table
    last_ns: int  # the latest time any input record holds: where the game stood when it stopped
    # judgements and events the replay made past the journal's end (a power cut lost them)
    missing: list[dict[str, Any]]


def _line_of(records: list[dict[str, Any]]) -> list[int]:
    return [i + 2 for i in range(len(records))]  # the header is line 1


def replay(path: str | Path, *, from_edges: bool = False) -> ReplayResult:
    """Replay ``path``; raises ReplayMismatch naming the first difference, JournalError if
    unreadable. ``from_edges``: re-derive the presses from the recorded raw edges first (a
    disputed slap re-judged from what the kernel delivered)."""
    path = Path(path)
    head, records, warnings = read_journal(path)
    if from_edges:
        if not any(r["k"] == "edge" for r in records):
            raise JournalError(f"{path}: no raw edges in this journal (record them with "
                               "slapbox play --record-edges, or [inputs] record_edges = true)")
        records = edges_to_inputs(head, records)
    try:
        spec = spec_from_header(head)
    except (KeyError, TypeError, ValueError) as e:
        raise JournalError(f"{path}: line 1: the header cannot rebuild the game ({e})") from None
    produced = MemoryJournal()
    table = make_table(spec, start_ns=head["start_ns"], journal=produced, write_header=False)
    expected = [(line, r) for line, r in zip(_line_of(records), records) if r["k"] in OUTPUT_KINDS]
    inputs = 0
    last = head["start_ns"]
    written = 0  # outputs the journal holds before the current record
    made = seen = 0  # outputs the replay has written, counted over its first ``seen`` records
    for line, r in zip(_line_of(records), records):
        if r["k"] in OUTPUT_KINDS:
            written += 1
        elif r["k"] in INPUT_KINDS:
            # the table writes its outputs as it goes: an input the table received after some
            # output must come after it in the file (a reordered journal is not the game's)
            new = produced.records[seen:]
            made += sum(1 for x in new if x["k"] in OUTPUT_KINDS)
            seen += len(new)
            if made > written and not from_edges:
                want = expected[written][1] if written < len(expected) else None
                raise ReplayMismatch(
                    f"{path}: line {line}: this {r['k']!r} record comes before "
                    f"{_show(want) if want else 'what the table wrote before it'}, which the table "
                    "had already written: the records are not in an order the table could have "
                    "written them")
        if r["k"] == "resume" and type(r.get("t")) is int:
            last = r["t"]  # a new clock (after a reboot, it may read less than the old one)
        for key in ("t", "arrival"):
            v = r.get(key)
            if type(v) is int and v > last and r["k"] in INPUT_KINDS:
                last = v
        k = r["k"]
        try:
            if k == "press":
                table.submit(Press(r["station"], r["button"], r["edge"], r["t"], r["source"]), r["arrival"])
            elif k == "shown":
                table.submit(Shown(r["card"], r["t"]))
            elif k in ("stuck", "unstuck"):
                cls = Stuck if k == "stuck" else Unstuck
                table.submit(cls(r["station"], r["button"], r["t"]))
            elif k == "tick":
                table.advance(r["t"])
            elif k == "decide":
                table.decide(r["seat"], action_from_dict(r["action"]), r["t"])
            elif k == "pause":
                table.advance(r["t"])  # the table's time when it was paused (nothing was due)
                table.pause(r["on"])
            elif k == "resume":
                table.resume(r["shift"])
            else:
                continue
        except (KeyError, TypeError, ValueError) as e:
            raise JournalError(f"{path}: line {line}: a {k!r} record that cannot be replayed ({e})") from None
        except IllegalAction as e:
            raise ReplayMismatch(f"{path}: line {line}: the rules refuse this {k!r} record "
                                 f"({e})") from None
        inputs += 1
    got = [r for r in produced.records if r["k"] in OUTPUT_KINDS]
    for i, (line, want) in enumerate(expected):
        if i >= len(got):
            raise ReplayMismatch(f"{path}: line {line}: the journal has {_show(want)}, the replay "
                                 "produced nothing more")
        if got[i] != want:
            raise ReplayMismatch(f"{path}: line {line}: the journal has {_show(want)}, the replay "
                                 f"gives {_show(got[i])}")
    finished = any(r["k"] == "end" for r in records)
    if len(got) > len(expected) and finished:
        raise ReplayMismatch(f"{path}: the replay produced more than the journal: {_show(got[len(expected)])}")
    return ReplayResult(path, inputs, len(expected), warnings, finished, table, last,
                        got[len(expected):])


@dataclass
class Continued:
    """A game taken up again from its journal (`continue_game`)."""

    table: Table | None          # None: the game had ended (its end is now in the file)
    journal: FileJournal | None  # the same file, appended to (None with no table)
    result: ReplayResult


def continue_game(path: str | Path, now_ns: int, *, unpause: bool = False) -> Continued:
    """Take up the game of ``path`` where a crash or a power cut stopped it, on a clock reading
    ``now_ns``: cut a torn last line, replay the journal into a fresh table, write back what the
    replay made that the file had lost (judgements, events: the file keeps replaying), then move
    the table onto the new clock (a journaled ``resume``) and append to the same file from there.
    ``unpause``: a table that stopped paused goes on (no screen to unpause it). Raises what
    `replay` raises (JournalError, ReplayMismatch) and OSError."""
    path = Path(path)
    cut_torn_tail(path)
    result = replay(path)
    journal = FileJournal(path)
    for record in result.missing:
        journal.write(record)
    table = result.table
    if table.game.outcome() is not None:
        journal.close()
        return Continued(None, None, result)
    table.attach_journal(journal)
    table.resume(now_ns - result.last_ns, now_ns)
    if unpause and table.paused:
        table.advance(now_ns)  # on the new clock first, as a real-time loop does
        table.pause(False)
    return Continued(table, journal, result)


def _show(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def edges_to_inputs(head: dict[str, Any], records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The journal's inputs with the presses of its recorded buttons re-derived from their raw
    edges (``edge`` records, ``--record-edges``) through the box's own debouncer: a recorded
    press from such a button is dropped, and what the debouncer makes of each edge (or of each
    read of the pin) takes its place, arriving when the edge did."""
    from device.inputs.debounce import Debouncer
    from device.table.arbiter import ArbiterSettings

    arb = ArbiterSettings.from_dict(head["arbiter"])
    debouncers: dict[tuple[int, str], Debouncer] = {}
    reads: dict[tuple[int, str], list[int]] = {}
    made: list[Any] = []
    recorded = {(r["station"], r["button"]) for r in records if r["k"] == "edge"}

    def debouncer(key: tuple[int, str]) -> Debouncer:
        if key not in debouncers:
            reads[key] = []
            stuck = MENU_STUCK_NS if key[1] == "menu" else arb.stuck_ns
            debouncers[key] = Debouncer(key[0], key[1], made.append, source="gpio",
                                        release_ns=arb.release_ns, stuck_ns=stuck, t_ns=head["start_ns"],
                                        read_level=lambda: reads[key].pop(0))
        return debouncers[key]

    out: list[dict[str, Any]] = []
    for r in records:
        k = r["k"]
        if k == "press" and (r["station"], r["button"]) in recorded and r.get("source") == "gpio":
            continue  # re-derived below
        if k in ("stuck", "unstuck") and (r["station"], r["button"]) in recorded:
            continue
        if k != "edge":
            out.append(r)
            continue
        key = (r["station"], r["button"])
        deb = debouncer(key)
        made.clear()
        if r["kind"] == "edge":
            deb.edge(r["level"], r["t"])
            arrival = r["t"]
        else:  # a read of the pin at a deadline: the same poll, the same answer
            reads[key].append(r["level"])
            deb.poll(r["t"], r.get("seen", r["t"]))
            arrival = r.get("seen", r["t"])
        for item in made:
            if isinstance(item, Press):
                out.append({"k": "press", "station": item.station, "button": item.button,
                            "edge": item.edge, "t": item.t_ns, "arrival": max(arrival, item.t_ns),
                            "source": item.source, "derived": True})
            else:
                out.append({"k": "stuck" if isinstance(item, Stuck) else "unstuck",
                            "station": item.station, "button": item.button, "t": item.t_ns})
    return out
