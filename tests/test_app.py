"""`slapbox play`'s states driven like a person would: station buttons and keys, with SDL's dummy
video driver (no window), the real table and rules. Times are passed in, so nothing sleeps."""

from __future__ import annotations

import json
import os
import subprocess
import sys

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from device.inputs.press import MENU_STATION, Press  # noqa: E402
from device.rules.actions import action_to_dict  # noqa: E402
from device.screen.app import HOLD_NS, App  # noqa: E402
from device.screen.menu import Settings  # noqa: E402

MS = 1_000_000


def tap(app: App, station: int, t: int) -> None:
    app.press(Press(station, "slap", "press", t, "gpio"), t)
    app.press(Press(station, "slap", "release", t + 100 * MS, "gpio"), t + 100 * MS)


def hold(app: App, station: int, t: int) -> None:
    app.press(Press(station, "slap", "press", t, "gpio"), t)
    app.tick(t + HOLD_NS + 1)  # held long enough: chosen while still down
    app.press(Press(station, "slap", "release", t + HOLD_NS + 50 * MS, "gpio"), t + HOLD_NS + 50 * MS)


def test_attract_mode_any_press_joins_then_tap_is_next_and_hold_chooses(make_app):
    app = make_app()
    assert app.mode == "attract" and app.match is not None and app.match.attract
    app.draw()
    t = app.clock.now_ns()
    tap(app, 2, t)  # station 3 joins: the menu opens
    assert app.mode == "menu" and app.joined == [2]
    tap(app, 2, t + 200 * MS)
    assert app.menu.current() == "preset"
    hold(app, 2, t + 400 * MS)  # steps the game to the next preset
    assert app.opts.settings.preset == "strip-jack-naked"
    tap(app, 5, t + 1500 * MS)  # another station joins
    assert app.joined == [2, 5]
    app.menu.cursor = 0
    hold(app, 2, t + 2000 * MS)  # Start: the button check, where the joined stations are seated
    assert app.mode == "join"
    hold(app, 5, t + 3000 * MS)  # a joined player's hold: the names
    assert app.mode == "names"
    hold(app, 2, t + 4000 * MS)  # each keeps the default name (the first choice) ...
    assert app.mode == "names"
    hold(app, 5, t + 5000 * MS)  # ... and once everyone has chosen, the game starts
    assert app.mode == "game"
    seats = app.match.table.seats
    assert [(s.station, s.bot) for s in seats] == [(2, False), (5, False), (None, True)]


def test_keyboard_start_menu_key_pauses_and_resumes(make_app):
    app = make_app()
    for _ in range(4):  # attract -> menu, Start -> the button check, station 1 joins -> names, keep it
        app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN), app.clock.now_ns())
    assert app.mode == "game"
    assert app.match.table.seats[0].station == 0 and not app.match.table.seats[0].bot
    app.draw()
    t = app.clock.now_ns()
    app.press(Press(MENU_STATION, "menu", "press", t, "keyboard"), t)
    app.press(Press(MENU_STATION, "menu", "release", t + 80 * MS, "keyboard"), t + 80 * MS)
    assert app.mode == "pause" and app.match.table.paused
    assert app.match.table.next_deadline() is None  # no card is laid while paused
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN), app.clock.now_ns())  # Resume
    assert app.mode == "game" and not app.match.table.paused


def test_the_presenter_reports_shown_after_the_flip_that_first_drew_a_card(make_app):
    app = make_app(start_now=True)
    table = app.match.table
    flips = []
    real_flip = app.display.flip

    def flip(dirty=None):
        flips.append(real_flip(dirty))
        return flips[-1]

    app.display.flip = flip
    app.tick(table.start_ns + table.settings.first_card_ns)  # the first card is laid
    assert table.card_no == 1 and 1 not in table.shown_at  # laid, not yet seen
    app.draw()
    assert app.shown == {1} and table.shown_at[1] == flips[-1]  # stamped right after the flip
    app.draw()  # nothing new: no second Shown
    assert app.shown == {1} and table.shown_at[1] == flips[0]


def test_a_norvegienne_player_looks_after_passing_the_box_and_chooses_with_its_button(make_app):
    app = make_app(settings=Settings(preset="norvegienne", players=2, lang="en"), start_now=True)
    table = app.match.table
    assert table.pending_decision() == 0 and not table.seats[0].bot
    scene = app.scene()
    assert scene.kind == "pass"  # nobody's hand is on screen yet
    t = app.clock.now_ns()
    app.press(Press(0, "slap", "press", t, "gpio"), t)  # "press to look"
    app.press(Press(0, "slap", "release", t + 50 * MS, "gpio"), t + 50 * MS)
    assert app.private and app.scene().kind == "game"
    app.press(Press(1, "slap", "press", t + 60 * MS, "gpio"), t + 60 * MS)  # not its turn: ignored
    options = app.decisions()
    tap_t = t + 200 * MS
    app.press(Press(0, "slap", "press", tap_t, "gpio"), tap_t)
    app.press(Press(0, "slap", "release", tap_t + 100 * MS, "gpio"), tap_t + 100 * MS)
    assert app.chooser_cursor == 1 % len(options)
    hold_t = t + 500 * MS
    app.press(Press(0, "slap", "press", hold_t, "gpio"), hold_t)
    app.press(Press(0, "slap", "release", hold_t + HOLD_NS + MS, "gpio"), hold_t + HOLD_NS + MS)
    app.match.journal.drain()
    records = [json.loads(line) for line in app.match.journal.path.read_text().splitlines()]
    decided = [r for r in records if r["k"] == "decide"]
    assert decided and decided[0]["seat"] == 0
    assert decided[0]["action"] == json.loads(json.dumps(action_to_dict(options[1 % len(options)])))


def test_game_over_adds_to_the_leaderboard_and_a_hold_plays_again(make_app, tmp_path):
    app = make_app(settings=Settings(preset="strip-jack-naked", players=2, lang="en"),
                   start_now=True, packs=[[44, 20], [24]])  # a Jack, then a 5; seat 1 has one 6
    table = app.match.table
    t = table.start_ns
    for _ in range(20):
        t += 500 * MS
        app.tick(t)
        app.draw()
        if app.mode == "over":
            break
    assert app.mode == "over"
    board = json.loads((tmp_path / "journal" / "leaderboard.json").read_text())
    assert [p["name"] for p in board["players"]] == ["Anna"]
    assert app.scene().kind == "over"
    hold(app, 0, app.clock.now_ns())  # a hold on the game-over screen plays again
    assert app.mode == "game" and not app.match.over


def test_without_a_display_play_says_so_and_plays_a_bot_game(tmp_path):
    (tmp_path / "empty.toml").write_text("")
    env = {**os.environ, "SDL_VIDEODRIVER": "nonexistent", "SLAPBOX_CONFIG": str(tmp_path / "empty.toml")}
    proc = subprocess.run([sys.executable, "-m", "device.cli", "play", "--players", "3"],
                          capture_output=True, text=True, timeout=120, env=env,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("slapbox play: no display (") and "virtual time" in lines[0]
    assert "bataille-corse, 3 bots" in lines[1] and "cards" in lines[1]
    assert "Traceback" not in proc.stderr


def test_on_a_machine_without_a_screen_play_says_so_instead_of_drawing_where_no_one_sees(tmp_path):
    # no X, no Wayland, no driver asked for: SDL would fall back to its offscreen driver
    (tmp_path / "empty.toml").write_text("")
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["SLAPBOX_CONFIG"] = str(tmp_path / "empty.toml")
    proc = subprocess.run([sys.executable, "-m", "device.cli", "play", "--players", "2"],
                          capture_output=True, text=True, timeout=120, env=env,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith("slapbox play: no display (") and "no screen to draw on" in first


def test_station_leds_show_whose_turn_it_is_and_blink_on_a_won_slap(make_app):
    pins = {"factory": "mock", "menu": 26,
            "stations": [{"slap": 17, "led": 22}, {"slap": 5, "led": 13}]}
    app = make_app(source="gpio", pins=pins, start_now=True, packs=[[20, 28, 32], [20, 36, 40]])
    table = app.match.table
    assert [(s.station, s.bot) for s in table.seats] == [(0, False), (1, False)]
    factory = app.inputs.gpio._factory
    led = {0: factory.pin(22), 1: factory.pin(13)}
    t = table.start_ns + table.settings.first_card_ns
    app.tick(t)  # seat 0 lays a 5: seat 1's turn
    assert (led[0].state, led[1].state) == (0, 1)
    app.tick(t + table.settings.tempo_ns)  # seat 1 lays a 5: a double, seat 0's turn
    assert (led[0].state, led[1].state) == (1, 0)
    app.draw()  # the double is shown; station 2 slaps it
    slap_t = table.shown_at[2] + 200 * MS
    app.press(Press(1, "slap", "press", slap_t, "gpio"), slap_t)
    app.tick(slap_t + 10 * MS)  # judged: station 2's LED blinks (on first), station 1's is off
    assert table.game.in_play and table.stats[1].slaps_won == 1
    assert led[1].state == 1
    app.tick(slap_t + 10 * MS + 151 * MS)
    assert led[1].state == 0  # ... and off again: a blink


def test_the_mouse_drives_the_menu_in_developer_mode(make_app):
    app = make_app()
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN), app.clock.now_ns())  # attract -> menu
    app.handle_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1), app.clock.now_ns())
    assert app.menu.current() == "preset"
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(10, 10)), app.clock.now_ns())
    assert app.opts.settings.preset == "strip-jack-naked"
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=3, pos=(10, 10)), app.clock.now_ns())
    assert app.opts.settings.preset == "bataille-corse"
    app.handle_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1), app.clock.now_ns())
    app.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(10, 10)), app.clock.now_ns())
    assert app.mode == "join"  # a click on Start opens the button check


def test_a_norvegienne_hold_seen_by_the_loop_chooses_and_the_same_player_keeps_looking(make_app):
    app = make_app(settings=Settings(preset="norvegienne", players=2, lang="en"), start_now=True)
    table = app.match.table
    t = app.clock.now_ns()
    app.press(Press(0, "slap", "press", t, "keyboard"), t)  # look
    app.press(Press(0, "slap", "release", t + 50 * MS, "keyboard"), t + 50 * MS)
    first = app.decisions()[0]
    assert type(first).__name__ == "Ready"  # the swap phase offers "ready" first
    app.press(Press(0, "slap", "press", t + 70 * MS, "keyboard"), t + 70 * MS)  # tap: next
    app.press(Press(0, "slap", "release", t + 90 * MS, "keyboard"), t + 90 * MS)
    second = app.decisions()[1]
    app.press(Press(0, "slap", "press", t + 100 * MS, "keyboard"), t + 100 * MS)
    app.tick(t + 100 * MS + HOLD_NS + 1)  # still held: the loop chooses now
    app.press(Press(0, "slap", "release", t + 100 * MS + HOLD_NS + 80 * MS, "keyboard"),
                  t + 100 * MS + HOLD_NS + 80 * MS)
    app.match.journal.drain()
    records = [json.loads(line) for line in app.match.journal.path.read_text().splitlines()]
    decided = [r for r in records if r["k"] == "decide"]
    assert len(decided) == 1 and decided[0]["action"] == json.loads(json.dumps(action_to_dict(second)))
    assert table.pending_decision() == 0  # a swap: still seat 0's choice, no need to look again
    assert app.private and app.scene().kind == "game"


def test_a_game_stopped_by_a_crash_comes_back_paused_and_quitting_it_leaves_it(make_app, tmp_path):
    from device.journal.journal import read_journal, unfinished
    app = make_app()
    for _ in range(4):  # attract -> menu, Start -> the button check, station 1 joins -> names, keep it
        app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN), app.clock.now_ns())
    t = app.clock.now_ns()
    app.tick(t + 3000 * MS)  # the first cards are laid
    table = app.match.table
    cards, path = table.game.cards, app.match.journal.path
    assert cards >= 2
    app.match.close()  # the process dies: the journal stays as it is, unfinished
    app.match = None
    assert unfinished(tmp_path / "journal") == path

    again = make_app(resume=True)
    assert again.mode == "pause" and again.match.resumed
    # the words, not the catalogue's key (it once showed "resumed")
    assert [t.text for t in again.scene().texts] == ["The game goes on where it stopped"]
    resumed = again.match.table
    assert resumed.paused and resumed.game.cards == cards
    assert resumed.game.card_counts() == table.game.card_counts()
    assert again.match.journal.path == path
    assert again.joined == [0]  # the players who were at the table play again after it
    again.menu_action("quit_game")  # the players leave it: it is not resumed again
    assert again.mode == "menu"
    assert read_journal(path)[1][-1]["k"] == "abandon" and unfinished(tmp_path / "journal") is None
    assert make_app(resume=True).mode == "attract"


def test_a_game_waits_while_its_buttons_link_is_down_and_resume_is_refused_until_it_is_back(make_app):
    from device.inputs.press import LinkStatus
    app = make_app(start_now=True)
    t = app.clock.now_ns()
    app.inputs.inbox.put(LinkStatus("bridge", "disconnected", "unplugged", t))
    app.step(t)
    assert app.mode == "pause" and app.match.table.paused
    said = " ".join(text.text for text in app.scene().texts)
    assert "The buttons are disconnected (unplugged): the game waits for them" == said
    app.menu_action("resume")  # without its buttons the game would judge nobody
    assert app.match.table.paused
    app.inputs.inbox.put(LinkStatus("bridge", "connected", "clock synchronised", t + 10**9))
    app.step(t + 10**9)
    assert "The buttons are back" in " ".join(text.text for text in app.scene().texts)
    app.menu_action("resume")
    assert app.mode == "game" and not app.match.table.paused


# --- words on screen: catalogue keys are never drawn raw ----------------------------------------

def _said_keys() -> set[str]:
    """Every catalogue key the app passes to ``say`` (read from its source)."""
    import re
    from pathlib import Path
    import device.screen.app as app_module
    source = Path(app_module.__file__).read_text(encoding="utf-8")
    return set(re.findall(r"say\(\s*\"([\w.]+)\"", source))


def _raw_keys(texts: list[str]) -> list[str]:
    from device.screen import i18n
    keys = {k for cat in i18n.CATALOGUES.values() for k in cat if "." in k}
    return [t for t in texts if t.strip() in keys or any(w in keys for w in t.split())]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_message_the_app_says_is_in_both_catalogues_and_drawn_as_words(make_app, lang):
    from device.screen import i18n
    keys = _said_keys()
    assert {"resumed", "shutdown.dev", "shutdown.now", "link.lost", "link.back"} <= keys
    app = make_app(settings=Settings(preset="bataille-corse", players=3, lang=lang))
    for key in sorted(keys):
        assert all(key in cat for cat in i18n.CATALOGUES.values()), key
        placeholders = {p: "x" for p in i18n.placeholders(i18n.CATALOGUES[lang][key])}
        app.say(key, **placeholders)
        texts = [t.text for t in app.scene().texts]
        assert texts and _raw_keys(texts) == [] and key not in " ".join(texts), (key, texts)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_sample_scene_draws_words_never_catalogue_keys(lang):
    from device.screen import samples
    for name in samples.NAMES:
        for size in ((800, 480), (480, 320)):
            texts = [t.text for t in samples.build(name, size, lang).texts]
            assert _raw_keys(texts) == [], (name, size, texts)


def test_the_box_says_shutting_down_while_its_shutdown_command_runs(make_app, tmp_path):
    marker = tmp_path / "ran"
    app = make_app(service=True, shutdown_command=f"touch {marker}")
    app.menu_action("shutdown")
    assert marker.exists() and not app.running
    assert [t.text for t in app.last_scene.texts] == ["Shutting down…"]


def test_holding_esc_in_developer_mode_says_shutdown_does_nothing(make_app):
    app = make_app()
    t = app.clock.now_ns()
    app.press(Press(MENU_STATION, "menu", "press", t, "keyboard"), t)
    app.tick(t + 5001 * MS)
    assert " ".join(t.text for t in app.scene().texts) == "Shutdown does nothing in developer mode"


# --- F1: help pauses the game, Esc or F1 closes it -------------------------------------------

def _key(app: App, key: int, t: int) -> None:
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""), t)
    app.handle_event(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=""), t + 50 * MS)


@pytest.mark.parametrize("close", [pygame.K_ESCAPE, pygame.K_F1])
def test_f1_help_pauses_the_game_says_how_to_close_and_esc_or_f1_closes_it(make_app, close):
    app = make_app(start_now=True)
    t = app.clock.now_ns()
    _key(app, pygame.K_F1, t)
    assert app.help and app.match.table.paused
    cards = app.match.table.card_no
    app.tick(t + 20_000 * MS)  # the game does not go on behind the help
    assert app.match.table.card_no == cards
    assert "Esc or F1 closes this help" in " ".join(t.text for t in app.scene().texts)
    _key(app, close, t + 20_100 * MS)
    assert not app.help and app.mode == "game" and not app.match.table.paused


def test_help_over_the_pause_menu_closes_back_to_the_pause_menu(make_app):
    app = make_app(start_now=True)
    t = app.clock.now_ns()
    _key(app, pygame.K_ESCAPE, t)
    assert app.mode == "pause"
    _key(app, pygame.K_F1, t + 200 * MS)
    _key(app, pygame.K_ESCAPE, t + 400 * MS)
    assert not app.help and app.mode == "pause" and app.match.table.paused


# --- hints only where they mean something -------------------------------------------------------

def _all_text(app: App) -> str:
    return " ".join(t.text for t in app.scene().texts)


def test_the_keys_note_is_shown_in_a_slapping_game_with_a_keyboard_player(make_app):
    app = make_app(start_now=True, source="keyboard")
    text = _all_text(app)
    assert "slap A, flip Z" in text and "Keys are stamped when read" in text


def test_no_slap_hints_in_a_bots_only_game(make_app):
    app = make_app(start_now=True, all_bots=True, source="keyboard")
    text = _all_text(app)
    assert "slap" not in text and "Keys are stamped" not in text


@pytest.mark.parametrize("preset", ["bataille", "paix", "norvegienne"])
def test_no_slap_hints_in_a_game_without_slapping(make_app, preset):
    settings = Settings(preset=preset, players=3, lang="en")
    app = make_app(start_now=True, source="keyboard", settings=settings)
    text = _all_text(app)
    assert "slap" not in text and "Keys are stamped" not in text


# --- the menu's choices are remembered -----------------------------------------------------------

def _step(app: App, item: str, times: int = 1) -> None:
    app.menu.cursor = app.menu.items().index(item)
    for _ in range(times):
        app.menu_action(app.menu.choose())


def test_the_menus_choices_are_remembered_at_the_next_start(make_app, tmp_path):
    app = make_app()
    app._to_menu()
    _step(app, "lang")        # en -> fr
    _step(app, "volume", 2)   # 60 -> 80 -> 100
    _step(app, "preset")      # bataille-corse -> strip-jack-naked
    _step(app, "level")
    saved = json.loads((tmp_path / "journal" / "menu.json").read_text(encoding="utf-8"))
    assert saved["choices"]["lang"] == "fr" and saved["base"]["lang"] == "en"
    again = make_app()
    s = again.opts.settings
    assert (s.lang, s.volume, s.preset, s.level) == ("fr", 100, "strip-jack-naked", "hard")
    assert "Appuyez sur un bouton" in " ".join(t.text for t in again.scene().texts)
    assert [p.name for p in (tmp_path / "journal").iterdir() if p.name.startswith(".")] == []


def test_the_command_line_wins_over_a_remembered_choice_and_a_changed_config_too(make_app):
    app = make_app()
    _step(app, "lang")  # en -> fr, remembered
    pinned = Settings(preset="bataille-corse", players=3, lang="en", pinned=frozenset({"lang"}))
    assert make_app(settings=pinned).opts.settings.lang == "en"  # --lang en, for this run
    # the configuration says fr now where it said en when fr was chosen: the newer edit wins
    edited = Settings(preset="bataille-corse", players=3, lang="fr", volume=20)
    assert make_app(settings=edited).opts.settings.lang == "fr"
    assert make_app().opts.settings.lang == "fr"


def test_a_corrupt_choices_file_is_ignored_with_one_log_line(make_app, tmp_path, caplog):
    folder = tmp_path / "journal"
    folder.mkdir()
    (folder / "menu.json").write_text('{"choices": {"lang": "fr"', encoding="utf-8")
    with caplog.at_level("WARNING", logger="slapbox"):
        app = make_app()
    assert app.opts.settings.lang == "en"
    assert [r.getMessage() for r in caplog.records if "menu choices" in r.getMessage()] == [
        f"menu choices: {folder / 'menu.json'} ignored (Expecting ',' delimiter: line 1 column 26 (char 25))"]
    (folder / "menu.json").write_text('{"choices": {"lang": "de", "players": 99, "volume": "x"}}')
    assert make_app().opts.settings.lang == "en"  # values this version cannot use are left


def test_nothing_is_remembered_without_a_journal_folder(tmp_path):
    from device.screen.prefs import Prefs
    prefs = Prefs(None)
    s = Settings(lang="en")
    assert prefs.restore(s) == []
    prefs.save(s)  # nowhere to write: nothing happens
