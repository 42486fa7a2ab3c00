"""The box around the game: menus, keyboard keys, the leaderboard, the box's config, headless play."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from device.config.schema import ConfigError, load_config
from device.journal.stats import Leaderboard
from device.rules.presets import OPTIONS
from device.screen.menu import Menu, Settings, option_values

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


# --- menus ---------------------------------------------------------------------------------
def test_tap_moves_to_the_next_item_and_hold_steps_a_setting():
    menu = Menu(Settings(preset="bataille-corse", players=4))
    assert menu.current() == "start"
    menu.next()
    assert menu.current() == "preset"
    assert menu.choose() is None and menu.settings.preset == "strip-jack-naked"
    menu.next()
    for _ in range(6):  # players step 5, 6, 7, 8, then wrap to 2, 3
        menu.choose()
    assert menu.settings.players == 3
    menu.prev()
    menu.prev()
    assert menu.current() == "start" and menu.choose() == "start"


def test_changing_the_game_keeps_players_in_its_range_and_resets_house_rules():
    s = Settings(preset="egyptian-ratscrew", players=8, options={"wrong_slap": "pot-1"})
    menu = Menu(s)
    menu.cursor = menu.items().index("preset")
    menu.choose()  # -> bataille (2 to 4 players)
    assert s.preset == "bataille" and s.players == 4 and s.options == {}


def test_house_rules_page_lists_the_presets_options_and_steps_them():
    # a game without slapping: one page of its own options
    s = Settings(preset="bataille")
    menu = Menu(s)
    menu.cursor = menu.items().index("rules")
    menu.choose()
    assert menu.page == "rules"
    names = [i.split(":", 1)[1] for i in menu.items() if i.startswith("option:")]
    assert names == [o for o in OPTIONS if "bataille" in OPTIONS[o].presets]
    menu.cursor = menu.items().index("back")
    menu.choose()
    assert menu.page == "main" and menu.current() == "rules"
    labels = [item.label for item in menu.view().items]
    assert labels[0] == "menu.start" and "menu.house_rules" in labels


def test_a_slapping_games_house_rules_are_grouped_and_every_option_is_on_one_page():
    s = Settings(preset="egyptian-ratscrew")
    menu = Menu(s)
    menu.cursor = menu.items().index("rules")
    menu.choose()
    assert menu.items() == ["rules:patterns", "rules:penalties", "rules:challenge", "rules:card", "back"]
    seen: list[str] = []
    for page in ("rules:patterns", "rules:penalties", "rules:challenge"):
        menu.cursor = menu.items().index(page)
        menu.choose()
        assert menu.page == page and len(menu.items()) <= 13  # tap = next stays usable
        seen += [i.split(":", 1)[1] for i in menu.items() if i.startswith("option:")]
        menu.back()
        assert menu.page == "rules" and menu.current() == page
    assert sorted(seen + ["slaps", "wrong_slap"]) == sorted(
        o for o in OPTIONS if "egyptian-ratscrew" in OPTIONS[o].presets)
    menu.cursor = menu.items().index("rules:penalties")
    menu.choose()
    menu.cursor = menu.items().index("penalty:kind")
    before = s.option_value("wrong_slap")
    menu.choose()  # the next kind of penalty
    assert s.option_value("wrong_slap") != before
    menu.back()
    menu.back()
    assert menu.page == "main" and menu.current() == "rules"


def test_the_pause_menu_offers_shutdown_only_on_the_box():
    assert Menu(Settings(), "pause", dev_mode=True).items() == ["resume", "quit_game"]
    assert Menu(Settings(), "pause", dev_mode=False).items() == ["resume", "quit_game", "shutdown"]
    assert "quit" in Menu(Settings(), dev_mode=True).items()
    assert "shutdown" in Menu(Settings(), dev_mode=False).items()


# --- keyboard ------------------------------------------------------------------------------
def test_keyboard_keys_are_stations_buttons_and_esc_is_the_menu():
    import pygame

    from device.inputs.keyboard import DEFAULT_KEYS, KeyboardSource, KeyMapError

    kb = KeyboardSource()
    down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a)
    p = kb.handle(down, 123)
    assert (p.station, p.button, p.edge, p.t_ns, p.source) == (0, "slap", "press", 123, "keyboard")
    assert kb.handle(down, 124) is None  # a repeat while held is never a second press
    up = kb.handle(pygame.event.Event(pygame.KEYUP, key=pygame.K_a), 200)
    assert (up.edge, up.t_ns) == ("release", 200)
    esc = kb.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE), 300)
    assert (esc.station, esc.button) == (-1, "menu")
    assert len({k for pair in DEFAULT_KEYS.values() for k in pair}) == 16
    with pytest.raises(KeyMapError, match="Esc and F-keys"):
        KeyboardSource({0: ("f1", "z")})
    with pytest.raises(KeyMapError, match="already used"):
        KeyboardSource({0: ("a", "a")})


# --- leaderboard ---------------------------------------------------------------------------
def seat(seat, name, won, wrong, mean, fastest, bot=False, n=3):
    return {"seat": seat, "name": name, "bot": bot, "slaps_won": won, "wrong_slaps": wrong,
            "reactions": n if mean else 0, "mean_reaction_ms": mean, "fastest_reaction_ms": fastest}


def test_leaderboard_keeps_players_by_name_across_games(tmp_path):
    path = tmp_path / "leaderboard.json"
    board = Leaderboard(path)
    board.add_game([seat(0, "Anna", 3, 1, 400.0, 350.0), seat(1, "Bot", 9, 0, 300.0, 250.0, bot=True)], 0)
    board.save()
    again = Leaderboard(path)
    again.add_game([seat(0, "Ben", 5, 0, 500.0, 450.0), seat(1, "Anna", 1, 2, 300.0, 280.0)], 1)
    rows = again.rows()
    assert [r.name for r in rows] == ["Anna", "Ben"]  # bots are not on the board
    anna = rows[0]
    assert (anna.games, anna.wins, anna.slaps_won, anna.wrong_slaps) == (2, 2, 4, 3)
    assert anna.mean_reaction_ms == 350.0 and anna.fastest_ms == 280.0


def test_a_damaged_leaderboard_is_put_aside_never_stops_a_game(tmp_path):
    path = tmp_path / "leaderboard.json"
    path.write_text("{not json")
    board = Leaderboard(path)
    assert board.warning and "unreadable" in board.warning and board.rows() == []
    assert (tmp_path / "leaderboard.damaged").exists()


# --- the box's config sections -------------------------------------------------------------
def config_errors(tmp_path: Path, text: str) -> list[str]:
    f = tmp_path / "c.toml"
    f.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_config(str(f))
    return e.value.errors


def test_pin_map_errors_name_the_station_key_and_reason(tmp_path):
    errors = config_errors(tmp_path, '[pins]\nmenu = 26\nstations = [{slap = 17, led = 26}, '
                                     '{slap = 40}, {flip = 5}, {slap = 6, bell = 7}]\n')
    assert any("pins.stations[0].led: pin 26 is already used by menu" in e for e in errors)
    assert any("pins.stations[1].slap: expected a BCM pin number from 2 to 27, got 40" in e for e in errors)
    assert any("pins.stations[2]: expected a table with at least slap" in e for e in errors)
    assert any("pins.stations[3].bell: unknown key" in e for e in errors)


def test_display_and_inputs_values_are_checked(tmp_path):
    errors = config_errors(tmp_path, '[display]\nsize = "800 by 480"\n[inputs]\nsource = "joystick"\n')
    assert any("display.size: expected a size like 800x480" in e for e in errors)
    assert any("inputs.source: expected 'keyboard', 'gpio', 'gpiod', 'bridge:URL' or 'script:FILE', got 'joystick'" in e
               for e in errors)


# --- headless play on the real clock -------------------------------------------------------
def test_headless_play_judges_a_scripted_slap_on_the_real_clock(tmp_path):
    # Seat 0 (station 0, scripted) and an easy bot. Cards at 1.5 s and 2.5 s make a double;
    # station 0 slaps 200 ms after it, faster than an easy bot ever does (its reactions are
    # 560 ms +- 70 ms plus a tail), and long before the next card. The journal says who won it.
    script = tmp_path / "presses.jsonl"
    script.write_text(json.dumps({"t_ms": 2700, "station": 0, "button": "slap"}) + "\n")
    journal = tmp_path / "journal"
    (tmp_path / "empty.toml").write_text("# every key has its default\n")
    env = {**os.environ, "SLAPBOX_CONFIG": str(tmp_path / "empty.toml")}
    proc = subprocess.run(
        [sys.executable, "-m", "device.cli", "play", "--headless", "--deal", "53/59", "--tempo", "1000",
         "--level", "easy", "--input", f"script:{script}", "--journal", str(journal), "--seed", "1"],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "win: seat 1 (Anna) wins" in proc.stdout
    records = [json.loads(line) for f in journal.glob("*.jsonl") for line in f.read_text().splitlines()]
    awards = [r for r in records if r["k"] == "judge" and r["kind"] == "award"]
    assert awards and awards[0]["station"] == 0
    assert [r["k"] for r in records].count("end") == 1


@pytest.mark.parametrize("args,needle", [
    (["play", "--window", "10x10", "--headless"], "--window: expected a size like 800x480"),
    (["play", "--input", "script:/no/such/file", "--headless"], "/no/such/file: cannot read the script"),
    (["play", "--input", "joystick", "--headless"], "expected keyboard, gpio, gpiod, bridge:URL (a serial device or pyserial URL) or script:FILE"),
    (["play", "--tempo", "fast2", "--headless"], "--tempo: expected slow, normal, fast or milliseconds"),
    (["replay", "/no/such/journal.jsonl"], "cannot read the journal"),
    (["demo", "--preset", "paix", "--players", "9"], "paix takes 2 to 4, not 9"),
    (["play", "--input", "gpio", "--headless"], "the lgpio pin factory cannot start"),
])
def test_bad_input_to_the_box_commands_is_one_line_and_exit_2(capsys, tmp_path, monkeypatch, args, needle):
    from device.cli import main

    (tmp_path / "empty.toml").write_text("")
    monkeypatch.setenv("SLAPBOX_CONFIG", str(tmp_path / "empty.toml"))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_the_tables_timings_come_from_the_config(tmp_path):
    from device.box import Options, table_settings
    from device.screen.menu import Settings

    f = tmp_path / "c.toml"
    f.write_text("[timing]\nfirst_card_ms = 250\npile_pause_ms = 400\nauto_flip_timeout_ms = 2500\n")
    timing = dict(load_config(str(f)).section("timing"))
    ts = table_settings(Options(settings=Settings(tempo="fast"), timing=timing))
    assert (ts.first_card_ns, ts.pile_pause_ns, ts.auto_flip_timeout_ns, ts.tempo_ns) == (
        250_000_000, 400_000_000, 2_500_000_000, 550_000_000)


def test_a_bridge_source_in_the_config_names_a_port_pyserial_can_open(tmp_path):
    errors = config_errors(tmp_path, '[inputs]\nsource = "bridge:socket://nohost"\n')
    assert len(errors) == 1 and "inputs.source: bridge: port 'socket://nohost'" in errors[0]
    f = tmp_path / "ok.toml"
    f.write_text('[inputs]\nsource = "bridge:socket://127.0.0.1:7777"\n')
    assert load_config(str(f)).section("inputs")["source"] == "bridge:socket://127.0.0.1:7777"


def test_without_a_screen_or_a_wayland_session_play_prints_no_stray_libwayland_error():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER")}
    proc = subprocess.run([sys.executable, "-m", "device.cli", "play", "--bots", "all", "--preset", "bataille",
                           "--journal", "none", "--max-rounds", "30"], capture_output=True, text=True,
                          env=env, timeout=120, cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 0, proc.stderr
    assert "XDG_RUNTIME_DIR" not in proc.stderr + proc.stdout  # it came from SDL's Wayland probe
    assert "no display" in proc.stdout
