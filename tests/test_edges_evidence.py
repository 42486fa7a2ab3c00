"""Raw edges as evidence: with --record-edges the journal holds every raw edge the GPIO backend
received (and every read of a pin), and `slapbox replay --from-edges` re-derives the presses from
them through the same debouncer and re-judges the whole game, naming the first judgement that
differs: a disputed slap on a box is re-judged on a laptop from what the kernel delivered."""

from __future__ import annotations

import json
import queue

from gpiozero.pins.mock import MockFactory

from device.cli import main
from device.clock import VirtualClock
from device.inputs.gpio import GpioInputs, StampedMockPin, StationPins
from device.journal.journal import FileJournal, read_journal
from device.journal.replay import replay
from device.rules.cards import parse_deal
from device.table.runner import Runner
from device.table.seats import Seat
from device.table.session import GameSpec, make_table

MS = 1_000_000
US = 1_000


def play_recorded(path, steps):
    """Two stations on mock pins, recording edges, on a 5234/5678 deal (a double at 2,400 ms);
    ``steps``: (t_ms, station, action) with action "press", "release", "bounce-up", "lose-up"."""
    factory = MockFactory(pin_class=StampedMockPin)
    q: queue.SimpleQueue = queue.SimpleQueue()
    clock = VirtualClock(0)
    gpio = GpioInputs([StationPins(17), StationPins(5)], q, factory=factory, clock=clock,
                      record_edges=True, lag_ns=0)
    spec = GameSpec("bataille-corse", 1, [Seat(0, "Anna", 0), Seat(1, "Ben", 1)], {},
                    parse_deal("5234/5678", allow_any_number=False))
    journal = FileJournal(path, background=False)
    table = make_table(spec, start_ns=0, journal=journal)
    runner = Runner(table, clock)
    pins = {0: factory.pin(17), 1: factory.pin(5)}
    plan = sorted(steps)
    t = 0
    while t <= 3500 * MS:
        while plan and plan[0][0] * MS <= t:
            _, station, action = plan.pop(0)
            pin = pins[station]
            if action == "press":
                pin.drive(0, t)
            elif action == "release":
                pin.drive(1, t)
            elif action == "bounce-up":  # the first contact bounced open before the level read
                pin.drive(0, t)
                pin.drive(1, t + 20 * US, reported=1)
                pin.drive(0, t + 40 * US, reported=0)
            elif action == "lose-up":  # released, but the edge was lost (buffer overflow)
                pin.lose(1)
        gpio.poll(t)
        runner.step(t, q)
        t += 1 * MS
    journal.close()
    gpio.close()
    return table


def test_a_recorded_game_re_judged_from_its_raw_edges_gives_the_same_judgements(tmp_path):
    path = tmp_path / "game.jsonl"
    play_recorded(path, [(2450, 1, "bounce-up"), (2451, 0, "press"), (2600, 0, "release"),
                                 (2700, 1, "lose-up"), (3000, 1, "press"), (3100, 1, "release")])
    _, records, _ = read_journal(path)
    kinds = {r["kind"] for r in records if r["k"] == "edge"}
    assert kinds == {"edge", "read"}  # the edges, and the pin reads that found the lost release
    assert any(r["k"] == "judge" and r["kind"] == "award" and r["station"] == 1 for r in records)
    result = replay(path, from_edges=True)
    assert result.checked > 0
    assert main(["replay", "--from-edges", str(path)]) == 0


def test_a_disputed_slap_re_judged_from_the_edges_names_the_first_judgement_that_differs(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    play_recorded(path, [(2450, 1, "press"), (2451, 0, "press"), (2600, 0, "release"),
                         (2600, 1, "release")])
    lines = path.read_text().splitlines()
    # the edges say station 1 touched first; pretend the box had taken station 0's press as first
    for i, line in enumerate(lines):
        r = json.loads(line)
        if r["k"] == "edge" and r["station"] == 0 and r["kind"] == "edge" and r["level"] == 0:
            r["t"] = 2449 * MS  # station 0's first contact, now stamped before station 1's
            lines[i] = json.dumps(r)
            break
    path.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(path)]) == 0  # the recorded presses still agree with the judgements
    assert main(["replay", "--from-edges", str(path)]) == 1
    err = capsys.readouterr().err
    assert "different:" in err and '"kind":"award"' in err and "line" in err


def test_a_journal_without_edges_cannot_be_re_judged_from_them(tmp_path, capsys):
    path = tmp_path / "plain.jsonl"
    assert main(["demo", "--deal", "5234/5678", "--journal", str(tmp_path), "--max-rounds", "5"]) == 0
    path = next(tmp_path.glob("*.jsonl"))
    capsys.readouterr()
    assert main(["replay", "--from-edges", str(path)]) == 2
    err = capsys.readouterr().err
    assert "no raw edges in this journal" in err and err.count("\n") == 1


def test_a_journal_of_an_older_version_is_refused_in_one_line(tmp_path, capsys):
    path = tmp_path / "old.jsonl"
    path.write_text('{"k":"header","version":1}\n{"k":"tick","t":1}\n')
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "journal version 1; this slapbox reads version 2" in err and err.count("\n") == 1
