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
from device.journal.journal import FileJournal, read_journal, unfinished
from device.journal.replay import continue_game, replay
from device.rules.cards import parse_deal
from device.table.runner import Runner
from device.table.session import GameSpec, make_table
from device.table.table import Seat

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


def first_life(path: Path, limit_ns: int | None, start_ns: int = 0):
    """The scripted game in ``path`` from its start up to ``limit_ns`` (None: to its end); the
    journal is left as a dying process leaves it. Returns the table."""
    j = FileJournal(path, background=False)
    table = make_table(spec(), start_ns=start_ns, journal=j)
    runner = Runner(table, VirtualClock(start_ns))
    runner.schedule_script(slaps())
    runner.run_virtual(limit_ns=limit_ns)
    j.close()
    return table


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
    outcome = first_life(whole, None).game.outcome()
    assert outcome is not None

    # the same game cut 3 ms after the press stamped 8.85 s arrived: it is in flight (delivered,
    # not yet judged: its settle time runs to 8.858 s)
    stamp = 1700 * MS + 11 * 650 * MS
    cut = stamp + 3 * MS
    path = tmp_path / "cut.jsonl"
    table = first_life(path, cut)  # the process dies here
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
    old.write_text('{"k":"header","version":2}\n{"k":"tick","t":1}\n')
    assert unfinished(tmp_path) == old
    new = tmp_path / "b.jsonl"
    new.write_text('{"k":"header","version":2}\n{"k":"end","outcome":"win","winner":0,"t":2}\n')
    os.utime(new, ns=(old.stat().st_mtime_ns + 10**9,) * 2)
    assert unfinished(tmp_path) is None  # the newest game finished: nothing to resume
    new.write_text('{"k":"header","version":2}\n{"k":"abandon","t":2}\n')
    os.utime(new, ns=(old.stat().st_mtime_ns + 10**9,) * 2)
    assert unfinished(tmp_path) is None  # left by the players: not resumed either
    # appending after a torn last line first cuts it, so every line stays whole
    torn = tmp_path / "torn.jsonl"
    torn.write_text('{"k":"header","version":2}\n{"k":"tick","t":1}\n{"k":"ti')
    j = FileJournal(torn, background=False)
    j.write({"k": "tick", "t": 2})
    j.close()
    assert torn.read_text() == '{"k":"header","version":2}\n{"k":"tick","t":1}\n{"k":"tick","t":2}\n'


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


def _cut_and_resume(path: Path, limit_ns: int | None, restart_ns: int, script) -> tuple:
    """One life of the game in ``path``: replayed, moved to a clock reading ``restart_ns``, run
    with ``script`` (what arrives in this life, times from the game's start) up to ``limit_ns``
    on the new clock (None: the end)."""
    taken = continue_game(path, restart_ns)
    table = taken.table
    assert table is not None and taken.journal is not None
    shift = restart_ns - taken.result.last_ns
    runner = Runner(table, VirtualClock(restart_ns))
    runner.schedule_script(script)
    runner.run_virtual(limit_ns=limit_ns)
    taken.journal.close()
    return table, shift


def test_two_power_cuts_in_one_game_each_resume_from_where_it_stood(tmp_path):
    whole = tmp_path / "whole.jsonl"
    ref = first_life(whole, None)

    path = tmp_path / "cut.jsonl"
    first_cut = 6 * 10**9
    first_life(path, 1000 * 10**9 + first_cut, start_ns=1000 * 10**9)  # first boot: a large clock
    # second life: the clock restarted at 20 s; it runs 3 s more, then the power goes again
    table, shift = _cut_and_resume(path, 23 * 10**9, 20 * 10**9,
                                   [p for p in slaps() if p.arrival_ns > first_cut])
    assert table.game.outcome() is None
    second_cut = 23 * 10**9 - shift - 1000 * 10**9  # the same moment, from the game's start
    # third life: the clock restarted at 15 s, less than the second life's times
    table, _ = _cut_and_resume(path, None, 15 * 10**9,
                               [p for p in slaps() if p.arrival_ns > second_cut])
    assert decisions(path) == decisions(whole)
    assert table.game.outcome() == ref.game.outcome()
    assert replay(path).finished


def test_a_pause_replays_and_a_slap_won_while_paused_leaves_no_stale_collect(tmp_path):
    # seat 0 lays an ace; seat 1 pays 2, 3, 7, 7: the challenge is won (collect pending) on a
    # double. The menu pauses the table; station 1's slap on that double, judged meanwhile, wins
    # the pile instead; on resuming, the stopped collect timer must not fire on nothing.
    packs = parse_deal("AK5/23779", allow_any_number=False)
    spec2 = GameSpec("bataille-corse", 1, [Seat(0, "A", station=0), Seat(1, "B", station=1)],
                     {}, packs)
    path = tmp_path / "p.jsonl"
    j = FileJournal(path, background=False)
    table = make_table(spec2, start_ns=0, journal=j)
    runner = Runner(table, VirtualClock(0))
    fifth = 1500 * MS + 4 * 900 * MS
    runner.schedule_script([ScriptedPress(fifth + 300 * MS, fifth + 300 * MS, 1, "slap", "press")])
    runner.run_virtual(limit_ns=fifth + 100 * MS)
    assert getattr(table.game, "collector", None) == 0
    table.advance(fifth + 100 * MS)  # the loop's step: time passes, nothing is due ...
    table.pause(True)                # ... and the menu opens
    runner.run_virtual(limit_ns=fifth + 2000 * MS)
    assert getattr(table.game, "collector", None) is None  # the slap won the pile meanwhile
    table.advance(fifth + 2000 * MS)
    table.pause(False)
    assert set(table._timers) == {"flip"}  # the stopped collect is gone: seat 1 lays next
    runner.run_virtual(limit_ns=fifth + 20_000 * MS)  # the game goes on
    j.close()
    assert table.game.cards > 5
    # and the journal, pauses included, replays exactly
    assert replay(path).finished == (table.game.outcome() is not None)


def _opts(folder: Path):
    from device.box import Options
    from device.screen.menu import Settings
    return Options(settings=Settings(), journal=str(folder))


def test_resume_leaves_a_journal_it_cannot_replay_or_that_had_ended(tmp_path):
    from device.clock import MonotonicClock
    from device.box import Box
    folder = tmp_path / "j"
    folder.mkdir()
    # a journal the rules refuse (a decision in a game that has none): marked left, not a crash
    path = folder / "a.jsonl"
    j = FileJournal(path, background=False)
    table = make_table(spec(), start_ns=0, journal=j)
    Runner(table, VirtualClock(0)).run_virtual(limit_ns=3000 * MS)
    j.write({"k": "decide", "seat": 1, "action": {"type": "Lay", "seat": 1}, "t": 3000 * MS})
    j.close()
    assert unfinished(folder) == path
    assert Box(_opts(folder), clock=MonotonicClock()).resume_match(headless=True) is None
    assert read_journal(path)[1][-1]["k"] == "abandon" and unfinished(folder) is None
    # a game that ended, whose "end" line was torn by the power cut: left, not shown again
    path = folder / "b.jsonl"
    j = FileJournal(path, background=False)
    table = make_table(spec(), start_ns=0, journal=j)
    Runner(table, VirtualClock(0)).run_virtual()
    j.close()
    data = path.read_bytes()
    end = data.rindex(b'{"k":"end"')
    path.write_bytes(data[: end + 12])
    assert unfinished(folder) == path
    assert Box(_opts(folder), clock=MonotonicClock()).resume_match(headless=True) is None
    assert unfinished(folder) is None


def test_a_headless_box_resumes_a_game_that_stopped_paused_and_plays_on(tmp_path):
    from device.clock import MonotonicClock
    from device.box import Box
    folder = tmp_path / "j"
    path = folder / "a.jsonl"
    j = FileJournal(path, background=False)
    table = make_table(spec(), start_ns=0, journal=j)
    Runner(table, VirtualClock(0)).run_virtual(limit_ns=3000 * MS)
    table.pause(True)
    j.close()
    cards = table.game.cards
    clock = MonotonicClock()
    match = Box(_opts(folder), clock=clock).resume_match(headless=True)
    try:
        assert match is not None and match.resumed
        assert not match.table.paused  # no screen, no menu: it goes on by itself
        assert match.table.next_deadline() is not None
        match.runner.step(clock.now_ns())
        assert match.table.game.cards <= cards + 1  # from now on: no catching up on the gap
    finally:
        match.close()
    # a box that keeps dying while it shows a resumed game stops trying after 3 resumes
    tries = 0
    while (again := Box(_opts(folder), clock=clock).resume_match(headless=True)) is not None:
        again.close()  # it dies before anything happens
        tries += 1
        assert tries <= 3
    kinds = [r["k"] for r in read_journal(path)[1] if r["k"] not in ("pause", "tick")]
    assert kinds[-4:] == ["resume", "resume", "resume", "abandon"]
    assert unfinished(folder) is None


def test_judgements_a_power_cut_lost_are_written_back_so_the_journal_keeps_replaying(tmp_path):
    whole = tmp_path / "whole.jsonl"
    ref = first_life(whole, None)
    # cut just after a judgement, then lose the judgement and events at the end of the file
    stamp = 1700 * MS + 11 * 650 * MS
    cut = stamp + 9 * MS
    path = tmp_path / "cut.jsonl"
    first_life(path, cut)
    lines = path.read_text().splitlines(keepends=True)
    lost = 0
    while '"k":"judge"' in lines[-1] or '"k":"event"' in lines[-1]:
        lines.pop()
        lost += 1
    assert lost >= 1
    path.write_text("".join(lines))
    # two more lives: both replay, and the game ends as it would have
    _, shift = _cut_and_resume(path, 27 * 10**9, 25 * 10**9,
                               [p for p in slaps() if p.arrival_ns > cut])
    second_cut = 27 * 10**9 - shift
    _cut_and_resume(path, None, 10**9, [p for p in slaps() if p.arrival_ns > second_cut])
    assert decisions(path) == decisions(whole)
    assert replay(path).finished


def test_a_slow_frame_after_a_won_challenge_does_not_stop_the_game():
    # card 5 wins seat 0's challenge at 5.1 s; the loop next runs 0.804 s later (a stall): the
    # card is laid, the collect delay has passed already, and the card is reported shown after
    # the moment the pile was due to go. The pile is won then, not earlier.
    from device.journal.journal import MemoryJournal
    packs = parse_deal("AK5/23779", allow_any_number=False)
    spec2 = GameSpec("bataille-corse", 1, [Seat(0, "A", station=0), Seat(1, "B", station=1)],
                     {}, packs)
    table = make_table(spec2, start_ns=0, journal=MemoryJournal())
    clock = VirtualClock(0)
    runner = Runner(table, clock)
    fifth = 1500 * MS + 4 * 900 * MS
    runner.run_virtual(limit_ns=fifth - 1)
    for t in (fifth + 804 * MS, fifth + 820 * MS, fifth + 900 * MS):
        clock.advance_to(t)
        runner.step(t)
    assert table.game.cards == 5 and getattr(table.game, "collector", None) is None
    assert table.game.card_counts() == [7, 1]  # seat 0 took the pile of 5
