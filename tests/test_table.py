"""The table end to end in virtual time: presses from scripts, bots and GPIO, judged and applied."""

from __future__ import annotations

import json
import queue
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from device.clock import VirtualClock
from device.inputs.gpio import GpioInputs, StampedMockPin, StationPins
from device.inputs.press import Press, Stuck
from device.inputs.script import ScriptedPress
from device.journal.journal import FileJournal, MemoryJournal, read_journal
from device.journal.replay import ReplayMismatch, replay
from device.rules.cards import parse_deal
from device.rules.events import PileWon
from device.rules.events import WrongSlap as RulesWrongSlap
from device.table.arbiter import ArbiterSettings, Award, Ignored, WrongSlapCall
from device.table.runner import Runner
from device.table.session import GameSpec, bot_hands, bot_minds, make_table
from device.table.table import Judged, Seat, StationStuck, TableSettings, ToShow, assign_seats

MS = 1_000_000
FIRST = 1500 * MS   # the first card is laid at 1.5 s
TEMPO = 900 * MS    # then one card every 0.9 s (cards 1, 2, 3 at 1.5, 2.4, 3.3 s)


def card_time(k: int) -> int:
    return FIRST + (k - 1) * TEMPO


def humans(n: int) -> list[Seat]:
    return [Seat(s, f"P{s}", station=s) for s in range(n)]


def table_for(deal: str, *, seats=None, preset="bataille-corse", settings=None, journal=None, options=None,
              arbiter=None):
    packs = parse_deal(deal, allow_any_number=False)
    seats = seats or humans(len(packs))
    spec = GameSpec(preset, 1, seats, options or {}, packs, arbiter=arbiter or ArbiterSettings(),
                    table=settings or TableSettings())
    clock = VirtualClock(0)
    table = make_table(spec, start_ns=0, journal=journal if journal is not None else MemoryJournal())
    outputs: list = []
    runner = Runner(table, clock, hands=bot_hands(table), minds=bot_minds(table),
                    outputs=[lambda item, now: outputs.append((now, item))])
    return table, runner, clock, outputs


def script(*presses: tuple[int, int, int]) -> list[ScriptedPress]:
    """(station, stamp, arrival) triples."""
    return [ScriptedPress(t, a, s, "slap", "press") for s, t, a in presses]


def judgements(outputs):
    return [item.decision for _, item in outputs if isinstance(item, Judged)]


def piles(outputs):
    return [item for _, item in outputs if isinstance(item, PileWon)]


# --- the tests DESIGN.md and the issue ask for, through the whole table ---------------------
def test_a_press_delivered_later_but_stamped_earlier_wins():
    # Cards: 5 (seat 0), 5 (seat 1): a double shown at 2.4 s. Station 1 slaps at +300 ms and its
    # press arrives at once; station 0 slapped at +299 ms but its press arrives 6 ms late.
    table, runner, clock, out = table_for("5234/5678")
    t = card_time(2)
    runner.schedule_script(script((1, t + 300 * MS, t + 300 * MS), (0, t + 299 * MS, t + 306 * MS)))
    runner.run_virtual(limit_ns=t + 400 * MS)
    award = next(d for d in judgements(out) if isinstance(d, Award))
    assert (award.station, award.card, award.margin_ns) == (0, 2, 1 * MS)
    assert piles(out) == [PileWon(0, "slap:doubles", 2, 0)]


def test_the_settle_time_is_what_makes_the_earlier_stamp_win():
    # With no settle time, the press that arrived first is judged alone and wins.
    from device.table.arbiter import ArbiterSettings
    packs = parse_deal("5234/5678")
    spec = GameSpec("bataille-corse", 1, humans(2), {}, packs,
                    arbiter=ArbiterSettings(settle_ns=0, tie_ns=0))
    clock = VirtualClock(0)
    table = make_table(spec, start_ns=0, journal=MemoryJournal())
    out: list = []
    runner = Runner(table, clock, outputs=[lambda i, n: out.append((n, i))])
    t = card_time(2)
    runner.schedule_script(script((1, t + 300 * MS, t + 300 * MS), (0, t + 299 * MS, t + 306 * MS)))
    runner.run_virtual(limit_ns=t + 400 * MS)
    assert piles(out) == [PileWon(1, "slap:doubles", 2, 0)]


def test_equal_stamps_are_decided_by_the_rotating_priority_and_recorded_as_a_tie():
    table, runner, clock, out = table_for("5234/5678/99")
    t = card_time(2) + 250 * MS
    runner.schedule_script(script((0, t, t), (1, t, t), (2, t + 800_000, t + 800_000)))
    runner.run_virtual(limit_ns=t + 100 * MS)
    award = next(d for d in judgements(out) if isinstance(d, Award))
    assert award.by_tie_rule and {s for s, _ in award.contenders} == {0, 1, 2}
    first = table.arbiter.priority  # the winner went to the back of the priority
    assert first[-1] == award.station


def test_a_press_stamped_before_the_double_was_shown_is_a_wrong_slap_even_if_it_arrives_after():
    table, runner, clock, out = table_for("5234/5678")
    t = card_time(2)
    runner.schedule_script(script((0, t - 1 * MS, t + 5 * MS)))
    runner.run_virtual(limit_ns=t + 100 * MS)
    assert judgements(out) == [WrongSlapCall(0, t - 1 * MS, 1)]
    assert RulesWrongSlap(0, 2, False) in [i for _, i in out]
    assert table.game.slappable() == "doubles"  # the double is still there for the others


def test_a_slap_stamped_before_the_next_card_was_shown_but_delivered_after_wins_with_that_card():
    table, runner, clock, out = table_for("5A34/5678")
    t3 = card_time(3)  # the Ace covers the double at 3.3 s
    runner.schedule_script(script((1, t3 - 2 * MS, t3 + 4 * MS)))
    runner.run_virtual(limit_ns=t3 + 100 * MS)
    award = next(d for d in judgements(out) if isinstance(d, Award))
    assert award.card == 2
    assert piles(out) == [PileWon(1, "slap:doubles", 3, 0)]  # the Ace goes with it


def test_a_lost_race_inside_grace_is_not_punished_but_a_press_after_the_next_card_is():
    table, runner, clock, out = table_for("5262/5378")
    t = card_time(2)
    runner.schedule_script(script(
        (0, t + 300 * MS, t + 300 * MS),     # wins the double
        (1, t + 420 * MS, t + 420 * MS),     # lost race, inside grace: ignored
    ))
    runner.run_virtual(limit_ns=t + 600 * MS)
    decisions = judgements(out)
    assert isinstance(decisions[0], Award) and decisions[0].station == 0
    assert decisions[1] == Ignored(1, t + 420 * MS, "grace")
    # The winner leads again after the pile pause; station 1 slaps the new, single card late.
    next_card = t + 300 * MS + 8 * MS + table.settings.pile_pause_ns
    runner.schedule_script(script((1, next_card + 600 * MS, next_card + 600 * MS)))
    runner.run_virtual(limit_ns=next_card + 700 * MS)
    assert isinstance(judgements(out)[-1], WrongSlapCall)


def test_eight_stations_slapping_within_100_us_one_winner_every_contender_recorded():
    deal = "/".join(["55"] + ["5" + "23456789"[i] for i in range(7)])
    table, runner, clock, out = table_for(deal)
    t = card_time(2) + 200 * MS
    runner.schedule_script(script(*[(s, t + s * 13_000, t + 50 * MS) for s in range(8)]))
    runner.run_virtual(limit_ns=t + 100 * MS)
    decisions = judgements(out)
    awards = [d for d in decisions if isinstance(d, Award)]
    assert len(awards) == 1 and len(awards[0].contenders) == 8
    assert sorted(d.station for d in decisions) == list(range(8))  # one judgement per press


def test_a_stuck_button_does_not_block_the_others_and_is_reported():
    table, runner, clock, out = table_for("5234/5678/9")
    t = card_time(2)
    table.submit(Stuck(0, "slap", t - 3000 * MS))
    runner.schedule_script(script((0, t + 200 * MS, t + 200 * MS), (2, t + 350 * MS, t + 350 * MS)))
    runner.run_virtual(limit_ns=t + 500 * MS)
    assert StationStuck(0, "slap", True) in [i for _, i in out]
    assert piles(out) == [PileWon(2, "slap:doubles", 2, 0)]  # station 2 wins; station 0 is ignored


def test_an_arriving_player_comes_into_play_by_winning_a_valid_double():
    table, runner, clock, out = table_for("5234/5678")
    # a press before anything can be slapped: judged, costs nothing, and seats nobody
    table.submit(Press(5, "slap", "press", 100 * MS, "gpio"), 100 * MS)
    runner.run_virtual(limit_ns=200 * MS)
    assert len(table.seats) == 2
    t = card_time(2)
    runner.schedule_script(script((5, t + 250 * MS, t + 250 * MS)))
    runner.run_virtual(limit_ns=t + 400 * MS)
    assert len(table.seats) == 3 and table.seats[2].station == 5
    assert piles(out) == [PileWon(2, "slap:doubles", 2, 0)]
    assert table.game.in_play[2]


def test_a_slap_during_the_collect_delay_wins_the_pile_instead():
    table, runner, clock, out = table_for("Q346/993")  # Q, then seat 1 pays 9, 9: won + a double
    t = card_time(3)
    runner.schedule_script(script((1, t + 500 * MS, t + 500 * MS)))
    runner.run_virtual(limit_ns=t + 2000 * MS)
    assert piles(out)[0] == PileWon(1, "slap:doubles", 3, 0)


def test_the_collect_waits_for_a_slap_still_in_flight():
    table, runner, clock, out = table_for("Q346/993")
    t = card_time(3)
    collect = t + table.arbiter_settings.collect_delay_ns
    # stamped 1 ms before the collect, delivered 5 ms after it: still judged first, and wins
    runner.schedule_script(script((1, collect - 1 * MS, collect + 5 * MS)))
    runner.run_virtual(limit_ns=collect + 100 * MS)
    assert piles(out)[0] == PileWon(1, "slap:doubles", 3, 0)


def test_flip_buttons_lay_a_card_and_the_box_flips_for_a_seat_that_waits():
    settings = TableSettings(flip_mode="buttons", auto_flip_timeout_ns=4000 * MS)
    table, runner, clock, out = table_for("5234/5678", settings=settings)
    runner.schedule_script([ScriptedPress(200 * MS, 200 * MS, 0, "flip", "press")])
    runner.run_virtual(limit_ns=300 * MS)
    shows = [(now, i.card) for now, i in out if isinstance(i, ToShow)]
    assert shows == [(200 * MS, 1)]  # seat 0 flipped at once, before the first-card timer
    runner.run_virtual(limit_ns=200 * MS + 4000 * MS)
    shows = [(now, i.card) for now, i in out if isinstance(i, ToShow)]
    assert shows[-1] == (4200 * MS, 2)  # seat 1 never pressed: the box flipped for it


def test_gpio_end_to_end_with_gpiozero_mock_pins():
    # Two stations wired to MockFactory pins; a bounce train on station 1's slap pin right after
    # the double is shown is one press, judged for station 1 at its first edge.
    factory = MockFactory(pin_class=StampedMockPin)
    q: queue.SimpleQueue = queue.SimpleQueue()
    table, runner, clock, out = table_for("5234/5678")
    gpio = GpioInputs([StationPins(slap=17), StationPins(slap=5)], q, factory=factory, clock=clock)
    try:
        runner.run_virtual(limit_ns=card_time(2))
        t = card_time(2) + 275_123_456
        pin = factory.pin(5)
        for i in range(20):  # 20 edges in 3 ms
            pin.drive(0 if i % 2 == 0 else 1, t + i * 150_000)
        clock.advance_to(t + 3 * MS)
        while not q.empty():
            table.submit(q.get_nowait(), clock.now_ns())
        runner.run_virtual(limit_ns=t + 50 * MS)
        award = next(d for d in judgements(out) if isinstance(d, Award))
        assert (award.station, award.t_ns) == (1, t)
        assert piles(out) == [PileWon(1, "slap:doubles", 2, 0)]
    finally:
        gpio.close()


# --- journal and replay --------------------------------------------------------------------
def bot_game(tmp_path: Path, preset: str, seed: int, players: int = 4) -> Path:
    seats = assign_seats(players, [], ["A", "B", "C", "D"], bots="free",
                         level=("easy", "normal", "hard")[seed % 3])
    spec = GameSpec(preset, seed, seats, {"max_rounds": 600})
    path = tmp_path / f"{preset}-{seed}.jsonl"
    journal = FileJournal(path)
    clock = VirtualClock(0)
    table = make_table(spec, start_ns=0, journal=journal)
    Runner(table, clock, hands=bot_hands(table), minds=bot_minds(table), latency_ns=3 * MS).run_virtual()
    journal.close()
    assert table.game.outcome() is not None
    return path


@pytest.mark.parametrize("preset", ["bataille-corse", "egyptian-ratscrew", "strip-jack-naked",
                                    "bataille", "paix", "norvegienne"])
def test_replay_reproduces_every_judgement_of_random_bot_games(tmp_path, preset):
    for seed in range(4 if preset in ("bataille-corse", "egyptian-ratscrew") else 2):
        path = bot_game(tmp_path, preset, seed, players=3 if preset in ("bataille", "paix") else 4)
        result = replay(path)
        assert result.finished and result.checked > 10
        _, records, _ = read_journal(path)
        assert result.table.game.outcome() is not None


def test_a_changed_judgement_is_named_by_replay(tmp_path):
    path = bot_game(tmp_path, "bataille-corse", 5)
    lines = path.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"k":"judge"' in line and '"kind":"award"' in line)
    lines[i] = lines[i].replace('"by_tie_rule":false', '"by_tie_rule":true')
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayMismatch, match=f"line {i + 1}:"):
        replay(path)


def test_a_truncated_journal_still_loads_and_replays_up_to_where_it_stops(tmp_path):
    path = bot_game(tmp_path, "egyptian-ratscrew", 2)
    data = path.read_bytes()
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(data[: len(data) * 2 // 3])  # cut in the middle of a line
    result = replay(torn)
    assert not result.finished and result.warnings and "torn last line" in result.warnings[0]


def test_the_journal_is_flushed_per_record_and_synced_at_every_won_pile(tmp_path):
    journal = MemoryJournal()
    table, runner, clock, out = table_for("5234/5678", journal=journal)
    t = card_time(2)
    runner.schedule_script(script((1, t + 300 * MS, t + 300 * MS)))
    runner.run_virtual(limit_ns=t + 400 * MS)
    assert journal.syncs == 1
    kinds = [r["k"] for r in journal.records]
    assert kinds[0] == "header" and "press" in kinds and "judge" in kinds
    press = next(r for r in journal.records if r["k"] == "press")
    assert press["t"] == t + 300 * MS and press["arrival"] == t + 300 * MS
    # a file journal has every record on disk as soon as it is written (in the foreground) ...
    path = tmp_path / "j.jsonl"
    fj = FileJournal(path, background=False)
    fj.write({"k": "header"})
    assert path.read_text() == '{"k":"header"}\n'
    fj.close()
    # ... or as soon as its writer thread takes it, in order, never blocking the table
    path = tmp_path / "k.jsonl"
    bj = FileJournal(path)
    for i in range(500):
        bj.write({"k": "tick", "t": i})
        if i % 50 == 0:
            bj.sync()
    bj.drain()
    assert [json.loads(line)["t"] for line in path.read_text().splitlines()] == list(range(500))
    bj.close()
    assert bj.error is None


def test_a_paused_table_lays_no_card_and_its_bots_wait_for_the_menu_to_close():
    seats = assign_seats(2, [], ["A", "B"], bots="free")
    spec = GameSpec("norvegienne", 4, seats, {})
    clock = VirtualClock(0)
    journal = MemoryJournal()
    table = make_table(spec, start_ns=0, journal=journal)
    runner = Runner(table, clock, minds=bot_minds(table))
    runner.dispatch(0)  # seat 0's bot starts thinking
    table.pause(True)
    clock.advance_to(5000 * MS)
    assert not [r for r in journal.records if r["k"] == "decide"]  # nobody moved while paused
    table.pause(False)
    runner.run_virtual(limit_ns=20_000 * MS)
    decided = [r for r in journal.records if r["k"] == "decide"]
    assert decided and decided[0]["t"] >= 5000 * MS
