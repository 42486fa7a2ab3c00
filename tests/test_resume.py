"""A game stopped by a crash or a power cut goes on from its journal, on a new clock, exactly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from device.clock import VirtualClock
from device.inputs.script import ScriptedPress
from device.journal import FileJournal, read_journal, unfinished
from device.replay import replay
from device.runner import Runner
from device.session import GameSpec, make_table
from device.table import Seat

MS = 1_000_000


def spec() -> GameSpec:
    # a shuffled pack: challenges, doubles, slaps and collects on both sides of the cut
    return GameSpec("bataille-corse", 3, [Seat(0, "A", station=0), Seat(1, "B", station=1)],
                    {"max_rounds": 300})


def slaps() -> list[ScriptedPress]:
    # both stations slap now and then for a minute: valid slaps, lost races, wrong slaps, and one
    # press stamped before the cut that arrives after its settle time began (in flight)
    out = []
    for i in range(60):
        t = 1700 * MS + i * 650 * MS
        out.append(ScriptedPress(t, t + 2 * MS, i % 2, "slap", "press"))
        if i % 3 == 0:
            out.append(ScriptedPress(t + 400 * MS, t + 400 * MS, (i + 1) % 2, "slap", "press"))
    return out


def decisions(path: Path) -> list[tuple]:
    """Every judgement and rules event, without its times (they move with the clock)."""
    _, records, _ = read_journal(path)
    out = []
    for r in records:
        if r["k"] == "judge":
            out.append((r["kind"], r["station"], r.get("reason"), r.get("card")))
        elif r["k"] in ("event", "end"):
            out.append(tuple(sorted((k, json.dumps(v)) for k, v in r.items() if k != "t")))
    return out


def test_a_game_resumed_on_a_restarted_clock_goes_on_exactly_as_if_never_stopped(tmp_path):
    # the reference: the whole game in one go
    whole = tmp_path / "whole.jsonl"
    j = FileJournal(whole, background=False)
    table = make_table(spec(), start_ns=0, journal=j)
    runner = Runner(table, VirtualClock(0))
    runner.schedule_script(slaps())
    runner.run_virtual()
    j.close()
    outcome = table.game.outcome()
    assert outcome is not None

    # the same game cut 3 ms after the press stamped 8.85 s arrived: it is in flight (delivered,
    # not yet judged: its settle time runs to 8.858 s)
    stamp = 1700 * MS + 11 * 650 * MS
    cut = stamp + 3 * MS
    path = tmp_path / "cut.jsonl"
    j = FileJournal(path, background=False)
    table = make_table(spec(), start_ns=0, journal=j)
    runner = Runner(table, VirtualClock(0))
    runner.schedule_script(slaps())
    runner.run_virtual(limit_ns=cut)
    j.close()  # the process dies here
    assert unfinished(tmp_path) == path and table.arbiter.next_deadline() is not None

    # the box restarts: its monotonic clock is back near zero
    result = replay(path)
    resumed = result.table
    assert resumed.game.card_counts() == table.game.card_counts()
    j = FileJournal(path, background=False)
    resumed.attach_journal(j)
    restart = 40 * MS
    shift = restart - result.last_ns
    assert result.last_ns == stamp + 2 * MS  # the in-flight press's arrival: the last input
    resumed.resume(shift)
    runner = Runner(resumed, VirtualClock(restart))
    runner.schedule_script([p for p in slaps() if p.arrival_ns > cut])  # what never arrived
    runner.run_virtual()
    j.close()

    assert decisions(path) == decisions(whole)
    assert resumed.game.outcome() == outcome
    _, records, _ = read_journal(path)
    assert [r["shift"] for r in records if r["k"] == "resume"] == [shift]
    # the press in flight was judged after the restart, at its stamp on the new clock
    after = records[[r["k"] for r in records].index("resume"):]
    assert next(r for r in after if r["k"] == "judge")["t_ns"] == stamp + shift
    again = replay(path)  # the journal, old part and new, replays exactly
    assert again.finished
    assert again.checked == len([r for r in records if r["k"] in ("judge", "event", "end")])


def test_only_the_newest_unfinished_journal_is_resumed_and_a_torn_tail_is_cut(tmp_path):
    assert unfinished(tmp_path) is None
    old = tmp_path / "a.jsonl"
    old.write_text('{"k":"header","version":1}\n{"k":"tick","t":1}\n')
    assert unfinished(tmp_path) == old
    new = tmp_path / "b.jsonl"
    new.write_text('{"k":"header","version":1}\n{"k":"end","outcome":"win","winner":0,"t":2}\n')
    os.utime(new, ns=(old.stat().st_mtime_ns + 10**9,) * 2)
    assert unfinished(tmp_path) is None  # the newest game finished: nothing to resume
    new.write_text('{"k":"header","version":1}\n{"k":"abandon","t":2}\n')
    os.utime(new, ns=(old.stat().st_mtime_ns + 10**9,) * 2)
    assert unfinished(tmp_path) is None  # left by the players: not resumed either
    # appending after a torn last line first cuts it, so every line stays whole
    torn = tmp_path / "torn.jsonl"
    torn.write_text('{"k":"header","version":1}\n{"k":"tick","t":1}\n{"k":"ti')
    j = FileJournal(torn, background=False)
    j.write({"k": "tick", "t": 2})
    j.close()
    assert torn.read_text() == '{"k":"header","version":1}\n{"k":"tick","t":1}\n{"k":"tick","t":2}\n'


CONFIG = """
[game]
preset = "bataille-corse"
players = 2
seed = 7

[game.options]
max_rounds = 40

[timing]
tempo_ms = 100
tempo_min_ms = 100
first_card_ms = 0
pile_pause_ms = 0
collect_delay_ms = 50
"""


def _wait_for(what: str, check, deadline_s: float):
    """Poll ``check`` until it returns something true; fail naming ``what`` at the deadline."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.05)  # a polling step, not a wait for time to pass: the deadline bounds it
    raise AssertionError(f"timed out after {deadline_s} s waiting for {what}")


def test_a_killed_box_resumes_its_game_from_the_journal_and_finishes_it(tmp_path):
    # a real process on the real clock, bots in both seats, a fast table; killed (SIGKILL, as a
    # power cut would) once card 12 is on the pile, then started again with --resume
    config = tmp_path / "config.toml"
    config.write_text(CONFIG)
    folder = tmp_path / "journals"
    cmd = [sys.executable, "-m", "device.cli", "play", "--config", str(config), "--headless",
           "--bots", "all", "--journal", str(folder)]
    first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             stdin=subprocess.DEVNULL)
    try:
        path = _wait_for("the journal", lambda: next(iter(folder.glob("*.jsonl")), None), 30)
        _wait_for("card 12 shown", lambda: '"k":"shown","card":12,' in path.read_text(), 30)
    finally:
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=30)
    assert first.returncode == -signal.SIGKILL
    assert '"k":"end"' not in path.read_text() and unfinished(folder) == path

    second = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, timeout=120,
                            stdin=subprocess.DEVNULL)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "resumed bataille-corse" in second.stdout and str(path) in second.stdout
    assert "wins" in second.stdout or "no winner" in second.stdout
    _, records, _ = read_journal(path)
    kinds = [r["k"] for r in records]
    assert kinds.count("resume") == 1 and kinds.count("end") == 1
    assert kinds.index("resume") < kinds.index("end")
    shown = [r["card"] for r in records if r["k"] == "shown"]
    assert shown == sorted(shown) and max(shown) > 12  # the game went on from where it stood
    result = replay(path)  # and the whole journal, both lives, replays exactly
    assert result.finished and unfinished(folder) is None
