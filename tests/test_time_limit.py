"""A game's time limit (RULES.md options, ``time_limit_min``): at the limit the game ends when the
current trick (round, turn) ends; the seat with most cards wins, a tie for most is a draw
(norvégienne: fewest cards). A table setting, in virtual time here: no test sleeps."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import device.config.schema as config
from device import box
from device.cli import main
from device.clock import VirtualClock
from device.config.schema import ConfigError, load_config
from device.journal.journal import FileJournal, MemoryJournal, read_journal
from device.journal.replay import ReplayMismatch, continue_game, replay
from device.rules import events as ev
from device.rules.actions import Collect, Lay, Play, Target
from device.rules.base import Outcome
from device.rules.cards import card, parse_deal
from device.rules.norvegienne import NorvegienneGame
from device.rules.presets import new_game
from device.screen.feed import Feed
from device.screen.scene import check_contrast, check_glyphs, check_text_clear, check_text_fits, game_scene
from device.table.runner import Runner
from device.table.session import GameSpec, bot_hands, bot_minds, make_table, spec_from_header
from device.table.table import Seat, Table, TableSettings, TimeUp, assign_seats
from device.table.timing import countdown

MS = 1_000_000
S = 1000 * MS
MIN = 60 * S
PRESETS = ["bataille-corse", "egyptian-ratscrew", "strip-jack-naked", "bataille", "paix", "norvegienne"]
NAMES = ["Anna", "Ben", "Chloé", "David", "Emma", "Farid", "Gaëlle", "Hugo"]


@pytest.fixture(autouse=True)
def no_system_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(config.ENV_VAR, raising=False)
    monkeypatch.setattr(config, "DEFAULT_PATH", str(tmp_path / "absent" / "config.toml"))


def bots_spec(preset: str, seed: int = 3, players: int = 3, limit_ns: int | None = MIN) -> GameSpec:
    seats = assign_seats(players, [], NAMES, bots="free")
    return GameSpec(preset, seed, seats, {}, table=TableSettings(time_limit_ns=limit_ns))


def bots_game(spec: GameSpec, journal: Any = None, until_ns: int | None = None) -> tuple[Table, list[Any]]:
    """The bots play ``spec`` in virtual time (to its end, or ``until_ns``); every output item."""
    table = make_table(spec, start_ns=0, journal=journal)
    items: list[Any] = []
    Runner(table, VirtualClock(0), hands=bot_hands(table), minds=bot_minds(table),
           outputs=[lambda item, now: items.append(item)]).run_virtual(limit_ns=until_ns)
    return table, items


def humans_table(preset: str, deal: str, limit_ns: int, journal: Any = None, **timing: int) -> Table:
    packs = parse_deal(deal)
    seats = [Seat(i, NAMES[i], station=i) for i in range(len(packs))]
    spec = GameSpec(preset, 1, seats, {}, packs, table=TableSettings(time_limit_ns=limit_ns, **timing))
    return make_table(spec, start_ns=0, journal=journal)


def kinds(records: list[dict[str, Any]]) -> list[str]:
    return [r["k"] for r in records]


def rules_events(records: list[dict[str, Any]]) -> list[str]:
    return [r["type"] for r in records if r["k"] == "event"]


# --- the rules core: the end on time ---------------------------------------------------------

def test_a_game_ended_on_time_is_won_by_the_seat_with_most_cards_and_moves_no_card():
    game = new_game("bataille-corse", players=3, packs=parse_deal("2345/67/89-"), seed=1)
    before = sorted(game.all_cards())
    assert not game.trick_in_progress()
    assert game.end_on_time() == [ev.GameOver("time", 0)]
    assert game.outcome().termination == "time" and game.outcome().winner == 0
    assert sorted(game.all_cards()) == before and game.card_counts() == [4, 2, 3]
    assert game.end_on_time() == []  # an ended game stays as it ended


def test_a_tie_for_most_cards_at_the_time_limit_is_a_draw():
    game = new_game("strip-jack-naked", players=2, packs=parse_deal("234/567"), seed=1)
    assert game.end_on_time() == [ev.GameOver("time", None)]


def test_a_challenge_trick_is_in_progress_from_its_first_card_until_its_pile_is_collected():
    game = new_game("strip-jack-naked", players=2, packs=parse_deal("J234/5678"), seed=1)
    game.apply(Lay(0))  # a Jack: seat 1 owes one card
    assert game.trick_in_progress()
    game.apply(Lay(1))
    assert game.collector == 0 and game.trick_in_progress()
    game.apply(Collect(0))
    assert not game.pile and not game.trick_in_progress()


def test_a_bataille_round_is_in_progress_from_its_first_card_until_it_is_collected():
    game = new_game("bataille", players=2, packs=parse_deal("K2/34"), seed=1)
    assert not game.trick_in_progress()
    game.apply(Lay(0))
    assert game.trick_in_progress()
    game.apply(Lay(1))
    assert game.trick_in_progress()  # its winner has yet to collect
    game.apply(Collect(0))
    assert not game.trick_in_progress()


def ace_position(hand1: list[int]) -> NorvegienneGame:
    return NorvegienneGame.from_position(
        {}, hands=[[card(14, 0), card(5, 0)], hand1, [card(6, 1), card(7, 1)]],
        up=[[card(9, s)] for s in range(3)], down=[[card(3, s)] for s in range(3)], turn=0)


def test_norvegienne_on_time_the_fewest_cards_win_and_a_turn_ends_once_its_ace_has_a_target():
    game = ace_position([card(4, 1), card(8, 1)])
    assert not game.trick_in_progress()  # between turns
    game.apply(Play(0, (card(14, 0),)))
    assert game.trick_in_progress()  # the Ace's target is still to be named
    game.apply(Target(0, 1))
    assert not game.trick_in_progress()
    assert game.card_counts() == [3, 4, 4]
    assert game.end_on_time() == [ev.GameOver("time", 0)]
    tie = ace_position([card(4, 1)])
    tie.apply(Play(0, (card(14, 0),)))
    assert tie.end_on_time() == [ev.GameOver("time", None)]  # 3, 3, 4: a tie for fewest


def test_norvegienne_ranked_first_keeps_its_win_on_time():
    game = NorvegienneGame.from_position(
        {"rank_all": True}, hands=[[card(5, 0)], [card(4, 1), card(8, 1)], [card(6, 1)]],
        up=[[], [card(9, 1)], [card(9, 2)]], down=[[], [card(3, 1)], [card(3, 2)]], turn=0)
    game.apply(Play(0, (card(5, 0),)))
    assert game.places == [0] and game.outcome() is None
    assert game.end_on_time() == [ev.GameOver("time", 0)]


# --- the table: when the time runs out ---------------------------------------------------------

def test_a_timed_bots_game_ends_when_its_trick_does_and_the_seat_with_most_cards_wins():
    journal = MemoryJournal()
    table, items = bots_game(bots_spec("bataille-corse"), journal)
    game = table.game
    outcome = game.outcome()
    assert outcome.termination == "time"
    counts = game.card_counts()
    leaders = [s for s, n in enumerate(counts) if n == max(counts)]
    assert outcome.winner == (leaders[0] if len(leaders) == 1 else None)
    assert sorted(game.all_cards()) == sorted(c for pack in game.dealt for c in pack)  # none lost
    records = journal.records
    up = kinds(records).index("time_up")
    assert records[up] == {"k": "time_up", "t": MIN, "last_trick": True}
    assert [i for i in items if type(i) is TimeUp] == [TimeUp(MIN, True)]
    # the trick in progress was played out first: cards laid after the time, its pile won, then the end
    after = rules_events(records[up:])
    assert "Laid" in after and after[-2:] == ["PileWon", "GameOver"]
    assert not game.pile and records[-1]["k"] == "end" and records[-1]["outcome"] == "time"
    assert records[-1]["t"] > MIN


@pytest.mark.parametrize("preset", ["bataille", "paix"])
def test_a_timed_bataille_ends_with_its_round(preset):
    journal = MemoryJournal()
    table, _ = bots_game(bots_spec(preset), journal)
    assert table.game.outcome().termination == "time"
    up = kinds(journal.records).index("time_up")
    assert rules_events(journal.records[up:])[-2:] == ["PileWon", "GameOver"]
    assert not table.game.trick_in_progress()


def test_with_no_trick_in_progress_the_game_ends_at_once_and_equal_packs_are_a_draw():
    journal = MemoryJournal()
    table = humans_table("bataille", "2345/6789", 1 * S, journal)  # the first card is due at 1.5 s
    Runner(table, VirtualClock(0)).run_virtual()
    assert table.game.outcome() == Outcome("time", None)
    assert table.card_no == 0
    assert [r for r in journal.records if r["k"] in ("time_up", "end")] == [
        {"k": "time_up", "t": S, "last_trick": False},
        {"k": "end", "outcome": "time", "winner": None, "t": S}]


def test_a_timed_norvegienne_ends_between_two_turns():
    journal = MemoryJournal()
    table, _ = bots_game(bots_spec("norvegienne"), journal)
    records = journal.records
    up = kinds(records).index("time_up")
    assert records[up]["last_trick"] is False and records[up + 1:] == [
        {"k": "event", "type": "GameOver", "termination": "time", "winner": table.game.outcome().winner},
        {"k": "end", "outcome": "time", "winner": table.game.outcome().winner, "t": MIN}]
    counts = table.game.card_counts()
    fewest = [s for s, n in enumerate(counts) if n == min(counts)]
    assert table.game.outcome().winner == (fewest[0] if len(fewest) == 1 else None)


def test_norvegienne_waits_for_the_aces_target_before_it_ends_on_time():
    game = ace_position([card(4, 1), card(8, 1)])
    table = Table(game, [Seat(i, NAMES[i], station=i) for i in range(3)], start_ns=0,
                  settings=TableSettings(time_limit_ns=10 * S))
    table.decide(0, Play(0, (card(14, 0),)), 4 * S)
    table.advance(11 * S)
    assert table.time_up and game.outcome() is None and table.pending_decision() == 0
    table.decide(0, Target(0, 1), 12 * S)
    assert game.outcome() == Outcome("time", 0)


def test_the_time_a_menu_is_open_does_not_count():
    journal = MemoryJournal()
    table = humans_table("bataille", "K2345678/9TJQA234", MIN, journal)
    runner = Runner(table, VirtualClock(0))
    runner.run_virtual(limit_ns=30 * S)
    table.advance(30 * S)
    assert table.time_left_ns(30 * S) == 30 * S
    table.pause(True)
    table.advance(600 * S)  # ten minutes in the menu
    assert table.time_left_ns(600 * S) == 30 * S and not table.time_up
    table.pause(False)
    assert table.time_left_ns(610 * S) == 20 * S
    runner.run_virtual()
    assert next(r for r in journal.records if r["k"] == "time_up")["t"] == 630 * S
    assert table.game.outcome().termination == "time"


def decisions(path: Path) -> list[tuple[Any, ...]]:
    """The rules' events, the time-up and the end, without their times (they move with the clock)."""
    _, records, _ = read_journal(path)
    return [tuple(sorted((k, json.dumps(v)) for k, v in r.items() if k != "t"))
            for r in records if r["k"] in ("event", "end", "time_up")]


def test_a_resumed_game_keeps_the_time_it_had_left_on_the_new_clock(tmp_path):
    whole = tmp_path / "whole.jsonl"
    once = FileJournal(whole, background=False)
    Runner(humans_table("bataille", "K2345678/9TJQA234", MIN, once), VirtualClock(0)).run_virtual()
    once.close()
    path = tmp_path / "cut.jsonl"
    journal = FileJournal(path, background=False)
    table = humans_table("bataille", "K2345678/9TJQA234", MIN, journal)
    Runner(table, VirtualClock(0)).run_virtual(limit_ns=40 * S)
    journal.close()  # a power cut at 40 s

    restart = 5 * S  # the box's clock starts again near zero
    resumed = continue_game(path, restart)
    last = resumed.result.last_ns
    shift = restart - last
    assert resumed.table.time_left_ns(restart) == MIN - last
    Runner(resumed.table, VirtualClock(restart)).run_virtual()
    resumed.journal.close()
    _, records, _ = read_journal(path)
    assert next(r for r in records if r["k"] == "time_up")["t"] == MIN + shift
    assert decisions(path) == decisions(whole)
    assert replay(path).finished


def test_a_game_paused_when_it_stopped_keeps_its_time_left_through_the_resume(tmp_path):
    path = tmp_path / "paused.jsonl"
    journal = FileJournal(path, background=False)
    table = humans_table("bataille", "K2345678/9TJQA234", MIN, journal)
    Runner(table, VirtualClock(0)).run_virtual(limit_ns=20 * S)
    table.advance(20 * S)
    table.pause(True)
    journal.close()
    resumed = continue_game(path, 3 * S, unpause=True)
    assert resumed.table.time_left_ns(3 * S) == 40 * S and not resumed.table.paused
    Runner(resumed.table, VirtualClock(3 * S)).run_virtual()
    resumed.journal.close()
    _, records, _ = read_journal(path)
    assert next(r for r in records if r["k"] == "time_up")["t"] == 43 * S


# --- the journal ---------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESETS)
def test_a_timed_game_replays_from_its_journal_to_the_same_end(tmp_path, preset):
    path = tmp_path / f"{preset}.jsonl"
    journal = FileJournal(path, background=False)
    table, _ = bots_game(bots_spec(preset, seed=5, players=3), journal)
    journal.close()
    assert table.game.outcome().termination == "time"
    result = replay(path)
    assert result.finished and result.table.game.outcome() == table.game.outcome()
    assert result.table.time_up
    header, records, _ = read_journal(path)
    assert header["table"]["time_limit_ns"] == MIN
    assert kinds(records).count("time_up") == 1


def test_a_changed_time_up_record_is_named_by_replay(tmp_path):
    path = tmp_path / "j.jsonl"
    journal = FileJournal(path, background=False)
    bots_game(bots_spec("bataille-corse"), journal)
    journal.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if '"k":"time_up"' in line)
    lines[i] = lines[i].replace('"last_trick":true', '"last_trick":false')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReplayMismatch, match=f"line {i + 1}:"):
        replay(path)


def test_a_journal_from_before_the_time_limit_still_loads():
    journal = MemoryJournal()
    make_table(bots_spec("bataille-corse", limit_ns=None), start_ns=0, journal=journal)
    header = journal.records[0]
    del header["table"]["time_limit_ns"]
    assert spec_from_header(header).table.time_limit_ns is None


# --- the configuration and the command line -------------------------------------------------

def write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "config.toml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_game_time_limit_min_is_minutes_or_none_and_a_bad_value_names_the_key(tmp_path):
    assert load_config(None).section("game")["time_limit_min"] is None
    assert load_config(write(tmp_path, "[game]\ntime_limit_min = 5\n")).section("game")["time_limit_min"] == 5
    assert load_config(write(tmp_path, '[game]\ntime_limit_min = "none"\n')).section("game")["time_limit_min"] is None
    for bad, shown in (("0", "0"), ("61", "61"), ('"five"', "'five'"), ("2.5", "2.5"), ("true", "true")):
        path = write(tmp_path, f"[game]\ntime_limit_min = {bad}\n")
        with pytest.raises(ConfigError) as exc:
            load_config(path)
        expected = f'{path}: game.time_limit_min: expected "none" or a whole number of minutes from 1 to 60'
        assert exc.value.errors == [f"{expected}, got {shown}"]


def test_game_match_is_single_best_of_n_or_minutes_and_a_bad_value_names_the_key(tmp_path):
    assert load_config(None).section("game")["match"] == "single"
    for good in ("single", "best-of-3", "best-of-5", "best-of-7", "minutes-5", "minutes-180"):
        assert load_config(write(tmp_path, f'[game]\nmatch = "{good}"\n')).section("game")["match"] == good
    for bad in ("best-of-4", "minutes-4", "minutes-181", "twice"):
        path = write(tmp_path, f'[game]\nmatch = "{bad}"\n')
        with pytest.raises(ConfigError) as exc:
            load_config(path)
        assert len(exc.value.errors) == 1 and exc.value.errors[0].startswith(f"{path}: game.match: expected ")
        assert f"got '{bad}'" in exc.value.errors[0]


def test_config_show_writes_both_keys_so_they_load_back(tmp_path):
    cfg = load_config(write(tmp_path, '[game]\ntime_limit_min = 12\nmatch = "minutes-30"\n'))
    again = load_config(write(tmp_path, cfg.to_toml()))
    assert (again.section("game")["time_limit_min"], again.section("game")["match"]) == (12, "minutes-30")
    default = load_config(write(tmp_path, load_config(None).to_toml()))
    assert default.section("game")["time_limit_min"] is None


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[box.Options]:
    """`slapbox play` stops where the box would start: the options it was given."""
    seen: list[box.Options] = []
    monkeypatch.setattr(box, "run", lambda opts: seen.append(opts) or 0)
    return seen


def test_play_time_limit_and_match_map_to_the_menus_settings_and_the_table(capsys, started, tmp_path):
    assert main(["play", "--headless", "--journal", "none", "--time-limit", "5", "--match", "best-of-3"]) == 0
    s = started[-1].settings
    assert (s.time_limit_min, s.match) == (5, "best-of-3")
    assert {"time_limit_min", "match"} <= s.pinned  # the command line's, for this run only
    assert box.table_settings(started[-1]).time_limit_ns == 5 * MIN
    path = write(tmp_path, '[game]\ntime_limit_min = 7\nmatch = "minutes-45"\n')
    assert main(["--config", path, "play", "--headless", "--journal", "none"]) == 0
    s = started[-1].settings
    assert (s.time_limit_min, s.match) == (7, "minutes-45") and not {"time_limit_min", "match"} & s.pinned
    assert main(["--config", path, "play", "--headless", "--journal", "none", "--time-limit", "none"]) == 0
    assert started[-1].settings.time_limit_min is None and box.table_settings(started[-1]).time_limit_ns is None
    assert main(["play", "--headless", "--journal", "none"]) == 0
    assert box.table_settings(started[-1]).time_limit_ns is None


@pytest.mark.parametrize("argv, message", [
    (["--time-limit", "0"], '--time-limit: expected "none" or a whole number of minutes from 1 to 60, got 0'),
    (["--time-limit", "ten"], ('--time-limit: expected "none" or a whole number of minutes from 1 to 60, '
                               "got 'ten'")),
    (["--match", "best-of-4"], ('--match: expected "single", "best-of-3", "best-of-5", "best-of-7" or '
                                "\"minutes-M\" (M from 5 to 180), got 'best-of-4'")),
])
def test_a_bad_time_limit_or_match_on_the_command_line_is_one_line_naming_the_flag(capsys, started, argv,
                                                                                  message):
    assert main(["play", "--headless", "--journal", "none", *argv]) == 2
    assert capsys.readouterr().err == f"slapbox play: error: {message}\n" and not started


def test_help_tells_the_time_limit_and_the_match(capsys):
    assert main(["play", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--time-limit MIN|none" in out and "1 to 60 minutes" in out and "most cards" in out
    assert "--match single|best-of-N|minutes-M" in out and "best-of-7" in out
    assert main(["demo", "--help"]) == 0
    assert "--time-limit MIN|none" in capsys.readouterr().out


def test_a_demo_with_a_one_minute_limit_ends_by_time_and_replays(capsys, tmp_path):
    assert main(["demo", "--time-limit", "1", "--players", "3", "--journal", str(tmp_path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outcome"] == "time" and 60 <= result["table_time_s"] < 120
    (path,) = tmp_path.glob("*.jsonl")
    assert replay(path).finished
    assert main(["demo", "--time-limit", "1", "--players", "3", "--journal", "none"]) == 0
    assert "time limit: " in capsys.readouterr().out


def test_a_demo_takes_the_configs_time_limit_and_a_given_round_limit(capsys, tmp_path):
    path = write(tmp_path, "[game]\ntime_limit_min = 1\n")
    assert main(["--config", path, "demo", "--preset", "bataille", "--journal", "none", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == "time"  # only simulate ignores it
    assert main(["demo", "--preset", "bataille", "--option", "max_rounds=5", "--journal", "none", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outcome"] in ("limit", "win", "draw", "loop") and result["rounds"] <= 5
    assert main(["demo", "--option", "max_rounds=0", "--journal", "none"]) == 2
    assert "max_rounds" in capsys.readouterr().err
    assert main(["demo", "--time-limit", "\u00b2", "--journal", "none"]) == 2
    err = capsys.readouterr().err
    assert "--time-limit: expected" in err and "Traceback" not in err


def test_simulate_ignores_the_time_limit(capsys, tmp_path):
    args = ["simulate", "--preset", "bataille", "--seed", "4", "--json"]
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)
    path = write(tmp_path, "[game]\ntime_limit_min = 1\n")
    assert main(["--config", path, *args]) == 0
    assert json.loads(capsys.readouterr().out) == plain and plain["outcome"] != "time"


# --- the screen ----------------------------------------------------------------------------------

def texts(scene: Any) -> str:
    return " ".join(scene.all_text().split())


def clocks(scene: Any) -> list[str]:
    """The texts that read as a countdown (``0:42``)."""
    return [t.text for t in scene.texts if re.fullmatch(r"\d+:\d\d", t.text)]


def legible(scene: Any) -> list[str]:
    return check_contrast(scene) + check_glyphs(scene) + check_text_fits(scene) + check_text_clear(scene)


def test_the_countdown_reads_minutes_and_seconds_rounded_up():
    assert [countdown(n) for n in (60 * S, 42 * S, 41 * S + 1, 500 * MS, 0)] == [
        "1:00", "0:42", "0:42", "0:01", "0:00"]


@pytest.mark.parametrize("size", [(800, 480), (480, 320)])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_game_screen_shows_the_time_left_only_in_the_last_minute(size, lang):
    table = humans_table("bataille-corse", "2345678/9-----", 2 * MIN)
    feed = Feed()
    Runner(table, VirtualClock(0), outputs=[feed.push]).run_virtual(limit_ns=5 * S)
    assert clocks(game_scene(table, feed, 59 * S, size, lang)) == []  # 1:01 left
    assert clocks(game_scene(table, feed, MIN, size, lang)) == ["1:00"]
    late = game_scene(table, feed, 2 * MIN - 42 * S, size, lang)
    assert clocks(late) == ["0:42"] and legible(late) == []


def crowded_table(limit_ns: int) -> tuple[Table, Feed]:
    names = ["Marie-Christine", "Jean-Christophe", "Anne-Charlotte", "Pierre-Alexandre",
             "Marie-Antoinette", "Charles-Edouard", "Louise-Margaux", "Maximilien Roux"]
    seats = [Seat(i, names[i], station=i) for i in range(8)]
    spec = GameSpec("bataille-corse", 2, seats, {}, table=TableSettings(time_limit_ns=limit_ns))
    table = make_table(spec, start_ns=0)
    feed = Feed()
    Runner(table, VirtualClock(0), outputs=[feed.push]).run_virtual(limit_ns=limit_ns + 2 * S)
    return table, feed


@pytest.mark.parametrize("size", [(800, 480), (480, 320)])
def test_once_the_time_is_up_the_screen_says_last_trick_until_the_game_ends(size):
    table, feed = crowded_table(30 * S)
    assert table.time_up and table.game.outcome() is None and table.game.trick_in_progress()
    now = table.now_ns
    en, fr = game_scene(table, feed, now, size, "en"), game_scene(table, feed, now, size, "fr")
    assert "Last trick!" in texts(en) and "Dernier pli !" in texts(fr)
    assert legible(en) == [] and legible(fr) == []
    Runner(table, VirtualClock(now), outputs=[feed.push]).run_virtual()
    over = game_scene(table, feed, table.now_ns, size, "en")
    assert table.game.outcome().termination == "time" and "Last trick!" not in texts(over)


def test_a_game_without_a_time_limit_shows_no_clock():
    table = humans_table("bataille-corse", "2345678/9-----", MIN)
    plain = make_table(GameSpec("bataille-corse", 1, [Seat(0, "A", station=0), Seat(1, "B", station=1)], {},
                                parse_deal("2345678/9-----")), start_ns=0)
    assert plain.time_left_ns(0) is None and table.time_left_ns(10 * S) == 50 * S
    assert clocks(game_scene(plain, Feed(), 59 * S, (480, 320), "en")) == []
