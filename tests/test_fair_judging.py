"""Fair judging at the arbiter's boundaries (issue "Fair judging on real edges", DESIGN.md "Slap
arbitration"): each contest a bug report described, scripted in virtual time with the default
timings, and judged by stamp, never by arrival."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_table import MS, judgements, piles, script, table_for

from device.inputs.press import BOT_STATION, Press
from device.rules.events import Joined, PileWon, WrongSlap
from device.table.arbiter import ArbiterSettings, Award, Ignored, WrongSlapCall
from device.table.outputs import Shown
from device.table.seats import Seat

ROOT = Path(__file__).resolve().parents[1]
US = 1_000


def awards(out):
    return [d for d in judgements(out) if isinstance(d, Award)]


def refused(table):
    return [r for r in table._journal.records if r["k"] == "refused"]


def test_slaps_on_one_pile_are_one_contest_with_one_award_whatever_window_each_falls_in():
    # 5, 5, 5: card 3 is shown at 3,300 ms; station 0 slaps card 2's window, station 1 card 3's
    table, runner, clock, out = table_for("55234/5789T")
    runner.schedule_script(script((0, 3299_900 * US, 3299_900 * US), (1, 3300_500 * US, 3300_500 * US)))
    runner.run_virtual(limit_ns=3600 * MS)
    (award,) = awards(out)  # exactly one award, and the rules refused nothing
    assert award.by_tie_rule and sorted(s for s, _ in award.contenders) == [0, 1]  # 0.6 ms: a tie
    assert award.margin_ns == 600 * US
    assert [d.reason for d in judgements(out) if isinstance(d, Ignored)] == ["lost"]
    assert not refused(table) and len(piles(out)) == 1


def test_a_press_stamped_later_than_the_contenders_on_that_pile_is_a_lost_race():
    table, runner, clock, out = table_for("55234/5789T")
    runner.schedule_script(script((0, 3299_000 * US, 3299_000 * US), (1, 3302_000 * US, 3302_000 * US)))
    runner.run_virtual(limit_ns=3600 * MS)
    (award,) = awards(out)
    assert award.station == 0 and not award.by_tie_rule
    assert [(d.station, d.reason) for d in judgements(out) if isinstance(d, Ignored)] == [(1, "lost")]
    assert not [e for _, e in out if isinstance(e, WrongSlap)]


def _collect_contest(deal, presses):
    table, runner, clock, out = table_for(deal)
    runner.schedule_script(script(*presses))
    runner.run_virtual(limit_ns=6000 * MS)
    return table, out


def test_a_challenge_pile_is_won_at_its_collect_moment_whenever_a_later_press_arrives():
    # K----/755-- (K2346/75589): card 4 (a 5 on a 5, shown at 4,200 ms) ends the challenge for seat 0,
    # collected at 5,000 ms. A press stamped 5,003 is a lost race, delivered at once or late.
    for arrival in (5003, 5009):
        table, out = _collect_contest("K2346/75589", [(1, 5003 * MS, arrival * MS)])
        assert not awards(out), arrival
        assert [d.reason for d in judgements(out)] == ["grace"]
        assert piles(out)[0].seat == 0 and piles(out)[0].reason == "challenge"


def test_after_the_collect_moment_a_press_on_a_pile_that_is_no_double_costs_nothing():
    for arrival in (5003, 5009):  # K----/7-3-- (K2346/74389): the pile is not a double
        table, out = _collect_contest("K2346/74389", [(1, 5003 * MS, arrival * MS)])
        assert not [e for _, e in out if isinstance(e, WrongSlap)], arrival
        assert [d.reason for d in judgements(out)] == ["grace"]


def test_the_collect_does_not_slip_while_presses_keep_coming():
    table, out = _collect_contest("K2346/74389", [(1, 5007 * MS, 5007 * MS), (0, 5014 * MS, 5014 * MS)])
    assert not [e for _, e in out if isinstance(e, WrongSlap)]
    won = next(now for now, item in out if isinstance(item, PileWon))
    assert won == 5000 * MS + ArbiterSettings().settle_ns  # collected a settle time after the moment


def test_a_press_stamped_before_the_collect_moment_and_in_flight_still_steals_the_pile():
    table, out = _collect_contest("K2346/75589", [(1, 4999 * MS, 5006 * MS)])
    (award,) = awards(out)
    assert award.station == 1 and piles(out)[0] == PileWon(1, "slap:doubles", 4, 0)


def test_a_lost_race_on_the_next_card_is_not_a_wrong_slap_grace_starts_at_the_winning_press():
    # 52234/5789T: station 0 wins the double at 3,299.9 ms; station 1 presses at 3,300.5 ms, after
    # card 3 (a 2) is shown: a lost race, not a wrong slap that pays 2
    table, runner, clock, out = table_for("52234/5789T")
    runner.schedule_script(script((0, 3299_900 * US, 3299_900 * US), (1, 3300_500 * US, 3300_500 * US)))
    runner.run_virtual(limit_ns=3600 * MS)
    assert [a.station for a in awards(out)] == [0]
    assert not [e for _, e in out if isinstance(e, WrongSlap)]
    assert [(d.station, d.reason) for d in judgements(out) if isinstance(d, Ignored)] == [(1, "grace")]


def test_an_arriving_players_slap_is_judged_and_winning_it_brings_them_in_with_the_pile():
    table, runner, clock, out = table_for("5234/5678")  # two seats; the double at 2,400 ms
    runner.schedule_script(script((2, 2500 * MS, 2500 * MS), (0, 2501 * MS, 2501 * MS)))
    runner.run_virtual(limit_ns=2700 * MS)
    (award,) = awards(out)
    assert award.station == 2 and not award.by_tie_rule
    assert [e for _, e in out if isinstance(e, Joined)] == [Joined(2)]
    assert piles(out) == [PileWon(2, "slap:doubles", 2, 0)]
    assert table.seats[2].station == 2 and table.game.in_play[2]


def test_a_wrong_slap_of_a_station_without_a_seat_costs_nothing_and_seats_nobody():
    table, runner, clock, out = table_for("5234/5678")
    runner.schedule_script(script((4, 1700 * MS, 1700 * MS)))
    runner.run_virtual(limit_ns=2000 * MS)
    assert [type(d) for d in judgements(out)] == [WrongSlapCall]
    assert len(table.seats) == 2 and not [e for _, e in out if isinstance(e, WrongSlap)]


def test_a_lock_applies_in_stamp_order_so_the_next_press_of_that_station_is_locked_not_the_pile():
    # wrong_slap = lockout; settle 30 ms > release 20 ms, so one station can press twice in flight:
    # a wrong slap at 2,395 ms, then a slap on the double at 2,401: locked; station 1 wins at 2,410
    table, runner, clock, out = table_for("5234/5678", options={"wrong_slap": "lockout"},
                                          arbiter=ArbiterSettings(settle_ns=30 * MS))
    runner.schedule_script(script((0, 2395 * MS, 2395 * MS), (0, 2401 * MS, 2401 * MS),
                                  (1, 2410 * MS, 2410 * MS)))
    runner.run_virtual(limit_ns=2700 * MS)
    kinds = [(type(d).__name__, d.station) for d in judgements(out)]
    assert kinds[:2] == [("WrongSlapCall", 0), ("Ignored", 0)]
    assert [d.reason for d in judgements(out) if isinstance(d, Ignored)] == ["locked"]
    assert [a.station for a in awards(out)] == [1] and piles(out)[0].seat == 1
    assert not refused(table)


def test_presenter_faults_are_refused_logged_and_counted_never_raised():
    table, runner, clock, out = table_for("5234/5678")
    runner.run_virtual(limit_ns=2450 * MS)  # cards 1 and 2 shown (headless: at once)
    t2 = table.shown_at[2]
    table.submit(Shown(2, t2 + 1 * MS))     # a second Shown for card 2: no second window
    table.submit(Shown(9, t2 + 2 * MS))     # a card never laid
    table.submit(Shown(1, t2 - 5 * MS))     # stamped before the previous one (and shown already)
    assert table.refused_shown == 3 and table.shown_at[2] == t2
    assert [r["why"] for r in refused(table)] == [
        "that card was already shown", "no card 9 was laid (cards laid: 2)", "that card was already shown"]
    runner.schedule_script(script((0, 2500 * MS, 2500 * MS)))
    runner.run_virtual(limit_ns=2700 * MS)
    assert [a.station for a in awards(out)] == [0]  # the window was not split


def test_a_shown_stamped_before_the_one_before_it_is_refused():
    table, runner, clock, out = table_for("5234/5678")
    runner.run_virtual(limit_ns=1600 * MS)  # card 1 shown at 1,500 ms
    table.outbox.clear()
    table.card_no = 2  # card 2 laid (as if the presenter were slow to report it)
    table.submit(Shown(2, 1400 * MS))
    assert table.refused_shown == 1 and 2 not in table.shown_at


def test_a_bot_seats_buttons_are_ignored_and_judgements_name_station_and_seat():
    seats = [Seat(0, "Anna", station=3), Seat(1, "Bot", station=5, bot=True)]
    table, runner, clock, out = table_for("5234/5678", seats=seats)
    runner.hands.clear()  # no bot reactions: only the buttons below
    table.submit(Press(5, "slap", "press", 2500 * MS, "gpio"), 2500 * MS)  # the bot seat's button
    table.submit(Press(3, "slap", "press", 2501 * MS, "gpio"), 2501 * MS)
    runner.run_virtual(limit_ns=2700 * MS)
    assert len(table.seats) == 2  # the bot seat's button joined nothing
    (award,) = awards(out)
    assert award.station == 3 and [d.station for d in judgements(out)] == [3]
    judge = next(r for r in table._journal.records if r["k"] == "judge")
    assert (judge["station"], judge["seat"]) == (3, 0)


def test_the_tie_rotation_runs_over_stations_and_a_bot_hand_has_its_own_station():
    seats = [Seat(0, "Anna", station=6), Seat(1, "Bot", bot=True)]
    table, runner, clock, out = table_for("5234/5678", seats=seats)
    runner.hands.clear()
    t = 2500 * MS
    table.submit(Press(6, "slap", "press", t, "gpio"), t)
    table.submit(Press(BOT_STATION + 1, "slap", "press", t, "bot"), t)
    runner.run_virtual(limit_ns=2700 * MS)
    (award,) = awards(out)
    assert award.by_tie_rule and sorted(s for s, _ in award.contenders) == [6, BOT_STATION + 1]
    assert table.arbiter.priority[-1] == award.station  # the tie winner moved to the back
    assert set(table.arbiter.priority) == set(range(16))


def test_a_contest_from_a_bug_report_is_one_demo_command(tmp_path):
    s = tmp_path / "contest.jsonl"
    s.write_text('{"t_ms": 3299.9, "station": 0}\n{"t_ms": 3300.5, "station": 1}\n')
    p = subprocess.run([sys.executable, "-m", "device.cli", "demo", "--deal", "55234/5789T",
                        "--script", str(s), "--journal", "none", "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    kinds = [j["kind"] for j in json.loads(p.stdout)["judgements"]]
    assert kinds.count("award") == 1 and kinds == ["award", "ignored"]
    p = subprocess.run([sys.executable, "-m", "device.cli", "demo", "--script", str(s), "--bots", "all"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "--script with --bots all" in p.stderr and p.stderr.count("\n") == 1


def test_a_script_using_only_station_3_takes_seat_0_and_bots_take_the_rest(tmp_path, capsys):
    from device.cli import main
    s = tmp_path / "one.jsonl"
    s.write_text('{"t_ms": 2500, "station": 3}\n')
    assert main(["demo", "--deal", "5234/5678", "--script", str(s), "--journal", "none", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [(x["seat"], x["name"], x["bot"]) for x in result["seats"]][:2] == [(0, "Anna", False), (1, "Ben", True)]
    assert result["judgements"][0]["station"] == 3 and result["judgements"][0]["seat"] == 0


def test_a_lockout_for_n_cards_ends_at_the_table_when_its_cards_are_laid():
    # lockout-1: station 0's wrong slap at 1,700 ms locks it for the next card; that card (a double,
    # laid at 2,400 ms) unlocks it, so its slap at 2,500 wins the pile
    table, runner, clock, out = table_for("5234/5678", options={"wrong_slap": "lockout-1"})
    runner.schedule_script(script((0, 1700 * MS, 1700 * MS), (0, 2500 * MS, 2500 * MS)))
    runner.run_virtual(limit_ns=2700 * MS)
    assert [type(d).__name__ for d in judgements(out)] == ["WrongSlapCall", "Award"]
    assert piles(out)[0].seat == 0 and not refused(table)


def test_a_lockout_for_n_cards_goes_on_past_a_won_pile():
    # lockout-3: station 1 is locked for 3 cards; station 0 wins the double at card 2 meanwhile;
    # station 1's slap on the next pile before its 3 cards are laid is still locked
    table, runner, clock, out = table_for("55234/5789T", options={"wrong_slap": "lockout-3"})
    runner.schedule_script(script((1, 1700 * MS, 1700 * MS), (0, 2500 * MS, 2500 * MS),
                                  (1, 4000 * MS, 4000 * MS)))  # card 3 laid at 3,600: 2 of its 3
    runner.run_virtual(limit_ns=4700 * MS)
    kinds = [(type(d).__name__, d.station, getattr(d, "reason", None)) for d in judgements(out)]
    assert kinds == [("WrongSlapCall", 1, None), ("Award", 0, None), ("Ignored", 1, "locked")]
    assert not refused(table)
