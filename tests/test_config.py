"""The configuration file: defaults, every kind of error with file, key and reason, and `to_toml`."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest

import device.config.schema as config
from device.config.schema import ConfigError, Field, Schema, load_config, ms_to_ns, toml_value
from device.rules.presets import OPTIONS, PRESET_NAMES, PRESETS


@pytest.fixture(autouse=True)
def no_system_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests never read the machine's /etc/slapbox/config.toml nor $SLAPBOX_CONFIG."""
    monkeypatch.delenv(config.ENV_VAR, raising=False)
    monkeypatch.setattr(config, "DEFAULT_PATH", str(tmp_path / "absent" / "config.toml"))


def write(tmp_path: Path, text: str, name: str = "config.toml") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def errors_of(tmp_path: Path, text: str) -> list[str]:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as exc:
        load_config(path)
    return exc.value.errors


def one_error(tmp_path: Path, text: str) -> str:
    errors = errors_of(tmp_path, text)
    assert len(errors) == 1, errors
    path = str(tmp_path / "config.toml")
    assert errors[0].startswith(path + ": ")
    return errors[0][len(path) + 2:]


# --- defaults and where the file comes from ---------------------------------------------------

def test_a_missing_default_file_means_every_default() -> None:
    cfg = load_config(None)
    assert not cfg.found
    assert cfg.path == config.DEFAULT_PATH
    assert cfg.game.preset == "bataille-corse"
    assert cfg.game.players == 4
    assert cfg.game.names == ["Anna", "Ben", "Chloé", "David", "Emma", "Farid", "Gaëlle", "Hugo"]
    assert cfg.game.bots == "free"
    assert cfg.game.bot_level == "normal"
    assert cfg.game.seed == "random"
    # The preset's own defaults are filled in, in RULES.md's order.
    assert cfg.game.options == {k: PRESETS["bataille-corse"].defaults[k] for k in OPTIONS
                                if k in PRESETS["bataille-corse"].defaults}
    assert dict(cfg.section("timing")) == {
        "settle_ms": 8, "tie_window_ms": 1, "grace_ms": 500, "release_ms": 20, "stuck_ms": 3000,
        "collect_delay_ms": 800, "tempo_ms": 900, "tempo_speedup": 0.0, "tempo_min_ms": 350,
        "auto_flip_timeout_ms": 4000, "first_card_ms": 1500, "pile_pause_ms": 1200}


def test_an_empty_file_means_every_default(tmp_path: Path) -> None:
    cfg = load_config(write(tmp_path, ""))
    assert cfg.found
    assert cfg.as_dict() == load_config(None).as_dict()


def test_a_missing_file_named_explicitly_is_an_error(tmp_path: Path) -> None:
    path = str(tmp_path / "nope.toml")
    with pytest.raises(ConfigError) as exc:
        load_config(path)
    assert exc.value.errors == [f"{path}: no such file"]


def test_the_environment_variable_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, '[game]\npreset = "paix"\n')
    monkeypatch.setenv(config.ENV_VAR, path)
    assert load_config(None).game.preset == "paix"
    monkeypatch.setenv(config.ENV_VAR, str(tmp_path / "gone.toml"))
    with pytest.raises(ConfigError, match="gone.toml: no such file"):
        load_config(None)


def test_a_directory_or_non_utf8_file_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as exc:
        load_config(str(tmp_path))
    assert exc.value.errors == [f"{tmp_path}: is a directory, expected a TOML file"]
    p = tmp_path / "latin1.toml"
    p.write_bytes('[game]\nnames = ["Chloé"]\n'.encode("latin-1"))
    with pytest.raises(ConfigError) as exc:
        load_config(str(p))
    assert exc.value.errors == [f"{p}: line 2, column 15: not UTF-8 text (save the file as UTF-8)"]


# --- syntax, unknown keys, types, ranges --------------------------------------------------------

def test_invalid_toml_names_line_and_column(tmp_path: Path) -> None:
    assert one_error(tmp_path, '[game]\npreset = "paix"\nplayers = \n') == \
        "line 3, column 11: invalid TOML: invalid value"
    assert one_error(tmp_path, "[game\n") == \
        "line 1, column 6: invalid TOML: expected ']' at the end of a table declaration"


def test_unknown_key_says_did_you_mean(tmp_path: Path) -> None:
    assert one_error(tmp_path, '[game]\nprest = "paix"\n') == "game.prest: unknown key (did you mean 'preset'?)"
    assert one_error(tmp_path, "[timing]\nsettle = 5\n") == \
        "timing.settle: unknown key (did you mean 'settle_ms'?)"
    assert one_error(tmp_path, "[timing]\nzzz = 5\n") == "timing.zzz: unknown key"


def test_unknown_section_says_did_you_mean(tmp_path: Path) -> None:
    assert one_error(tmp_path, "[gmae]\nplayers = 3\n") == "gmae: unknown section (did you mean 'game'?)"
    assert one_error(tmp_path, "[zz]\n") == ("zz: unknown section; sections are: "
                                             + ", ".join(config.SCHEMA.sections))


def test_a_key_outside_its_section_names_the_section(tmp_path: Path) -> None:
    assert one_error(tmp_path, "players = 3\n") == \
        "players: unknown key (did you mean game.players, under [game]?)"


def test_a_section_that_is_not_a_table(tmp_path: Path) -> None:
    assert one_error(tmp_path, 'game = "paix"\n') == "game: expected a table ([game]), got 'paix'"


@pytest.mark.parametrize("line, error", [
    ('players = "4"', "game.players: expected a whole number from 2 to 11, got '4'"),
    ("players = true", "game.players: expected a whole number from 2 to 11, got true"),
    ("players = 4.0", "game.players: expected a whole number from 2 to 11, got 4.0"),
    ("players = 12", "game.players: expected a whole number from 2 to 11, got 12"),
    ('preset = "war"', "game.preset: expected one of 'bataille-corse', 'strip-jack-naked', "
                       "'egyptian-ratscrew', 'bataille', 'paix', 'norvegienne', got 'war'"),
    ('bot_level = "expert"', "game.bot_level: expected one of 'easy', 'normal', 'hard', got 'expert'"),
    ('names = "Anna"', "game.names: expected a list of strings, got 'Anna'"),
    ('names = ["Anna", 2]', "game.names: expected a list of strings, got ['Anna', 2]"),
    ('names = ["Anna", " "]', "game.names: a name cannot be empty"),
    ('names = ["Anna", "Anna"]', "game.names: each name must be different, got 'Anna' twice"),
    ('names = ["Maximilienne-Augustine"]',
     "game.names: names are at most 16 characters, got 'Maximilienne-Augustine'"),
    ('bots = "all"', "game.bots: expected 'free' or a list of seat numbers, got 'all'"),
    ("bots = [1, 1]", "game.bots: each seat at most once, got [1, 1]"),
    ("bots = [4]", "game.bots: seats are numbered 0 to 3 for 4 players, got [4]"),
    ("seed = -1", "game.seed: expected 'random' or a whole number >= 0, got -1"),
    ("seed = 1979-05-27", "game.seed: expected 'random' or a whole number >= 0, got 1979-05-27"),
    ("options = 3", "game.options: expected a table, got 3"),
])
def test_game_key_errors_name_key_and_reason(tmp_path: Path, line: str, error: str) -> None:
    assert one_error(tmp_path, f"[game]\n{line}\n") == error


@pytest.mark.parametrize("line, error", [
    ("settle_ms = 0", "timing.settle_ms: expected a number from 0.1 to 100, got 0"),
    ('settle_ms = "8"', "timing.settle_ms: expected a number from 0.1 to 100, got '8'"),
    ("settle_ms = nan", "timing.settle_ms: expected a number from 0.1 to 100, got nan"),
    ("grace_ms = -5", "timing.grace_ms: expected a number from 1 to 5000, got -5"),
    ("tempo_speedup = 0.6", "timing.tempo_speedup: expected a number from 0 to 0.5, got 0.6"),
    ("stuck_ms = 100000", "timing.stuck_ms: expected a number from 500 to 60000, got 100000"),
    ("tie_window_ms = 9", "timing.tie_window_ms: must not exceed settle_ms (8), got 9"),
    ("tempo_min_ms = 1000", "timing.tempo_min_ms: must not exceed tempo_ms (900), got 1000"),
])
def test_timing_errors_name_key_and_reason(tmp_path: Path, line: str, error: str) -> None:
    assert one_error(tmp_path, f"[timing]\n{line}\n") == error


def test_timings_take_fractions_of_a_millisecond(tmp_path: Path) -> None:
    cfg = load_config(write(tmp_path, "[timing]\nsettle_ms = 2.5\ntie_window_ms = 0.25\n"))
    assert cfg.timing.settle_ms == 2.5
    assert ms_to_ns(cfg.timing.settle_ms) == 2_500_000
    assert ms_to_ns(cfg.timing.tie_window_ms) == 250_000
    assert ms_to_ns(8) == 8_000_000


def test_every_error_is_reported_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, '[game]\nprest = "x"\nplayers = 9\n[game.options]\nwrong_slap = "pot-4"\n'
                           'tie_cards_down = 3\n[timing]\nsettle_ms = 0\n[gmae]\n')
    with pytest.raises(ConfigError) as exc:
        load_config(path)
    assert exc.value.errors == [
        f"{path}: gmae: unknown section (did you mean 'game'?)",
        f"{path}: game.prest: unknown key (did you mean 'preset'?)",
        f"{path}: game.players: bataille-corse takes 2 to 8 players, got 9",
        f"{path}: game.options.wrong_slap: expected one of 'pot-2', 'pot-1', 'pot-3', 'bottom-1'..'bottom-3', 'lockout', 'lockout-1'..'lockout-10', 'gift', 'none', got 'pot-4'",
        f"{path}: game.options.tie_cards_down: does not apply to bataille-corse (it applies to bataille, paix)",
        f"{path}: timing.settle_ms: expected a number from 0.1 to 100, got 0",
    ]
    assert str(exc.value) == "\n".join(exc.value.errors)


# --- players and options against the preset ----------------------------------------------------

@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_players_range_follows_the_preset(tmp_path: Path, preset: str) -> None:
    p = PRESETS[preset]
    for n in (p.min_players, p.max_players):
        assert load_config(write(tmp_path, f'[game]\npreset = "{preset}"\nplayers = {n}\n')).game.players == n
    if p.max_players < 11:
        n = p.max_players + 1
        assert one_error(tmp_path, f'[game]\npreset = "{preset}"\nplayers = {n}\n') == \
            f"game.players: {preset} takes {p.min_players} to {p.max_players} players, got {n}"


def test_bataille_takes_2_to_4_players(tmp_path: Path) -> None:
    assert one_error(tmp_path, '[game]\npreset = "bataille"\nplayers = 6\n') == \
        "game.players: bataille takes 2 to 4 players, got 6"


def _valid_value(key: str) -> str:
    spec = OPTIONS[key]
    if spec.kind == "choice":
        return toml_value(spec.choices[-1])
    return {"bool": "false", "int": str(spec.low), "int-or-none": '"none"', "patterns": '["sandwich"]'}[spec.kind]


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("key", list(OPTIONS))
def test_an_option_applies_only_to_its_presets(tmp_path: Path, preset: str, key: str) -> None:
    text = f'[game]\npreset = "{preset}"\nplayers = 2\n[game.options]\n{key} = {_valid_value(key)}\n'
    if preset in OPTIONS[key].presets:
        cfg = load_config(write(tmp_path, text))
        written = tomllib.loads(text)["game"]["options"][key]
        assert cfg.game.options[key] == OPTIONS[key].check(written)
        assert cfg.game.given["options"] == {key: written}
    else:
        assert one_error(tmp_path, text) == (f"game.options.{key}: does not apply to {preset} "
                                             f"(it applies to {', '.join(OPTIONS[key].presets)})")


def test_options_are_normalised_as_the_rules_core_wants(tmp_path: Path) -> None:
    cfg = load_config(write(tmp_path, '[game.options]\nslaps = ["tens", "sandwich"]\nmax_rounds = 500\n'
                                      'wrong_slap = "lockout"\ndeck = 108\n'))
    assert cfg.game.options["slaps"] == ("doubles", "sandwich", "tens")
    assert cfg.game.options["max_rounds"] == 500
    assert cfg.game.options["wrong_slap"] == "lockout"
    assert cfg.game.options["deck"] == 108
    assert cfg.game.options["borrow"] is True  # the preset's default is kept
    cfg = load_config(write(tmp_path, '[game]\npreset = "paix"\n[game.options]\nmax_rounds = "none"\n'))
    assert cfg.game.options["max_rounds"] is None


@pytest.mark.parametrize("line, error", [
    ('wrong_slap = "pot-4"', "expected one of 'pot-2', 'pot-1', 'pot-3', 'bottom-1'..'bottom-3', 'lockout', 'lockout-1'..'lockout-10', 'gift', 'none', got 'pot-4'"),
    ("deck = 53", "expected one of 52, 54, 104, 108, got 53"),
    ('deck = "54"', "expected one of 52, 54, 104, 108, got '54'"),
    ("borrow = 1", "expected true or false, got 1"),
    ("max_rounds = 0", 'expected a whole number from 1 to 10000000, or "none", got 0'),
    ('slaps = ["sandwitch"]', "'sandwitch' is not a slap pattern (did you mean 'sandwich'?); patterns are: "
     "doubles, sandwich, big-mac, top-bottom, marriage, divorce, tens, ten-on-top, run, flush"),
    ('slaps = 3', "expected a list of 'doubles', 'sandwich', 'big-mac', 'top-bottom', 'marriage', "
     "'divorce', 'tens', 'ten-on-top', 'run', 'flush' ('doubles' is always on), got 3"),
])
def test_option_values_are_checked_by_their_spec(tmp_path: Path, line: str, error: str) -> None:
    key = line.split(" ")[0]
    assert one_error(tmp_path, f"[game.options]\n{line}\n") == f"game.options.{key}: {error}"


def test_unknown_option_says_did_you_mean_or_lists_the_presets_options(tmp_path: Path) -> None:
    assert one_error(tmp_path, "[game.options]\nwrong_slapp = 1\n") == \
        "game.options.wrong_slapp: unknown option (did you mean 'wrong_slap'?)"
    assert one_error(tmp_path, '[game]\npreset = "paix"\n[game.options]\nzz = 1\n') == (
        "game.options.zz: unknown option; the options of paix are: "
        "deck, max_rounds, tie_cards_down, tie_joiners, shuffle_pickup")


def test_options_are_still_checked_when_the_preset_is_wrong(tmp_path: Path) -> None:
    errors = errors_of(tmp_path, '[game]\npreset = "war"\n[game.options]\ndeck = 53\nrank_all = true\n')
    assert [e.split(": ", 1)[1] for e in errors] == [
        "game.preset: expected one of 'bataille-corse', 'strip-jack-naked', 'egyptian-ratscrew', "
        "'bataille', 'paix', 'norvegienne', got 'war'",
        "game.options.deck: expected one of 52, 54, 104, 108, got 53",
    ]


def test_given_holds_only_what_the_file_set(tmp_path: Path) -> None:
    cfg = load_config(write(tmp_path, '[game]\nplayers = 3\n[game.options]\ndeck = 108\n'))
    assert cfg.game.given == {"players": 3, "options": {"deck": 108}}
    assert cfg.timing.given == {}


# --- to_toml ------------------------------------------------------------------------------------

def test_to_toml_of_the_defaults_loads_back_to_the_same_values(tmp_path: Path) -> None:
    cfg = load_config(None)
    again = load_config(write(tmp_path, cfg.to_toml()))
    assert again.as_dict() == cfg.as_dict()


def test_to_toml_round_trip_with_every_kind_of_value(tmp_path: Path) -> None:
    text = ('[game]\npreset = "paix"\nplayers = 3\nnames = ["Zoé", "Jean \\"Jo\\" D.", "back\\\\slash"]\n'
            'bots = [0, 2]\nbot_level = "hard"\nseed = 123456789\n'
            '[game.options]\nmax_rounds = "none"\ntie_joiners = "tied"\ndeck = 104\n'
            "[timing]\nsettle_ms = 2.5\ntie_window_ms = 0.125\ntempo_speedup = 0.05\n")
    cfg = load_config(write(tmp_path, text))
    out = cfg.to_toml()
    again = load_config(write(tmp_path, out, "again.toml"))
    assert again.as_dict() == cfg.as_dict()
    assert again.game.names == ["Zoé", 'Jean "Jo" D.', "back\\slash"]
    assert again.game.options["max_rounds"] is None
    assert again.timing.tie_window_ms == 0.125


def test_to_toml_documents_every_key(tmp_path: Path) -> None:
    lines = load_config(None).to_toml().splitlines()
    keys = [i for i, line in enumerate(lines) if line and not line.startswith(("#", "["))]
    others = sum(len(spec.fields) for name, spec in config.SCHEMA.sections.items() if name != "game")
    assert len(keys) == len(config.SCHEMA.sections["game"].fields) - 1 + len(PRESETS["bataille-corse"].defaults) + others
    for i in keys:
        assert lines[i - 1].startswith("# "), lines[i]
    assert "[game.options]" in lines
    assert all(len(line) <= 100 for line in lines if line.startswith("#"))
    assert any(line.startswith("# the penalty for a wrong slap (one of 'pot-2'") for line in lines)


@pytest.mark.parametrize("value", [0, -3, 2**63 - 1, 0.1, 1e-9, 1e300, True, "a\tb\u00e9\x01", [1, "x"], None,
                                   {"a b": 1}])
def test_toml_value_is_read_back_as_written(value: object) -> None:
    back = tomllib.loads(f"v = {toml_value(value)}")["v"]
    assert back == ("none" if value is None else value)


# --- the schema machinery -----------------------------------------------------------------------

def test_a_section_is_registered_once() -> None:
    schema = Schema()
    schema.register_section("x", [Field("a", "int", 1, "a")], "x")
    with pytest.raises(ValueError, match=r"\[x\] is already registered"):
        schema.register_section("x", [], "x")
    with pytest.raises(ValueError, match="declares a key twice"):
        schema.register_section("y", [Field("a", "int", 1, "a"), Field("a", "int", 1, "a")], "y")
    with pytest.raises(ValueError, match="kind must be one of"):
        Field("a", "integer", 1, "a")


def test_a_section_owned_elsewhere_checks_its_keys_and_documents_them(tmp_path: Path) -> None:
    def even(v: int) -> int:
        if v % 2:
            raise ValueError(f"expected an even number, got {v}")
        return v

    def validate(values: dict, err) -> None:  # noqa: ANN001
        if values.get("low", 0) > values.get("high", 99):
            err("low", "must not exceed high")

    schema = Schema()
    schema.register_section("pins", [
        Field("slap", "list[int]", [17, 27], "GPIO of each station's SLAP button", low=0, high=27),
        Field("step", "int", 2, "an even step", check=even),
        Field("low", "int", 1, "low"), Field("high", "int", 5, "high"),
    ], "Direct GPIO wiring.", validate=validate)
    path = write(tmp_path, "[pins]\nslap = [17, 40]\nstep = 3\nlow = 9\n")
    with pytest.raises(ConfigError) as exc:
        load_config(path, schema=schema)
    assert exc.value.errors == [
        f"{path}: pins.slap: expected a list of whole numbers from 0 to 27, got [17, 40]",
        f"{path}: pins.step: expected an even number, got 3",
        f"{path}: pins.low: must not exceed high",
    ]
    cfg = load_config(write(tmp_path, "[pins]\nslap = [5]\n"), schema=schema)
    assert cfg.pins.slap == [5] and cfg.section("pins")["step"] == 2
    assert "# Direct GPIO wiring.\n[pins]\n# GPIO of each station's SLAP button" in cfg.to_toml()
    with pytest.raises(AttributeError, match=r"\[pins\] has no key 'nope'"):
        cfg.pins.nope  # noqa: B018


def test_defaults_are_not_shared_between_configs() -> None:
    a = load_config(None)
    a.game.names.append("Zed")
    assert "Zed" not in load_config(None).game.names


def test_ms_to_ns_is_exact_for_whole_microseconds() -> None:
    assert ms_to_ns(0.001) == 1_000
    assert ms_to_ns(1.5) == 1_500_000
    assert math.isclose(ms_to_ns(3000) / 1e9, 3.0)


# --- values no file should hold: one line each, never an internal error -----------------------

@pytest.mark.parametrize("text, expected", [
    ("[game]\nplayers = " + "9" * 4301 + "\n",
     "game.players: expected a whole number from 2 to 11, got a number of 4,301 digits"),
    ("[game]\nplayers = " + "9" * 5000 + "\n",
     "game.players: expected a whole number from 2 to 11, got a number of 5,000 digits"),
    ("[timing]\nsettle_ms = 1" + "0" * 310 + "\n",
     "timing.settle_ms: expected a number from 0.1 to 100, got a number of 311 digits"),
    ("[game]\nseed = 1" + "0" * 40 + "\n",
     "game.seed: expected"),
    ("[game]\nnames = " + "[" * 400 + "]" * 400 + "\n",
     "game.names: expected a list of strings, got a value nested 400 levels deep"),
    ("[game]\nnames = " + "[" * 5000 + "]" * 5000 + "\n",
     "game.names: expected a list of strings, got a value nested too deeply"),
    ("[game.options]\ndeck = " + "{a = " * 300 + "1" + "}" * 300 + "\n",
     "game.options.deck: expected"),
])
def test_a_huge_number_or_a_deep_nesting_is_one_line_naming_the_key(tmp_path: Path, text: str,
                                                                       expected: str) -> None:
    assert one_error(tmp_path, text).startswith(expected)


def test_huge_or_deep_values_are_refused_by_config_check_and_show_with_their_exit_codes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from device.cli import main
    path = write(tmp_path, "[game]\nnames = " + "[" * 400 + "]" * 400 + "\n")
    assert main(["config", "check", path]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{path}: game.names: expected a list of strings")
    assert main(["config", "show", path]) == 2
    assert capsys.readouterr().err == err


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    p = tmp_path / "config.toml"
    p.write_bytes(b"\xef\xbb\xbf[game]\nplayers = 3\n")
    assert load_config(str(p)).game.players == 3


def test_a_fifo_or_a_device_is_refused_without_reading_it(tmp_path: Path) -> None:
    import os
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError) as exc:
        load_config(str(fifo))  # would block forever if opened for reading
    assert exc.value.errors == [f"{fifo}: not a regular file (a FIFO), expected a TOML file"]
    with pytest.raises(ConfigError) as exc:
        load_config("/dev/zero")
    assert exc.value.errors == ["/dev/zero: not a regular file (a character device), expected a TOML file"]


def test_the_screens_language_comes_from_the_config_else_the_locale_else_english() -> None:
    from device.screen.config import screen_lang, system_lang
    assert load_config(None).display.lang == "auto"
    assert screen_lang("fr", {}) == "fr" and screen_lang("en", {"LANG": "fr_FR.UTF-8"}) == "en"
    assert screen_lang("auto", {"LANG": "fr_FR.UTF-8"}) == "fr"
    assert system_lang({"LANG": "fr_CA.UTF-8", "LC_ALL": "de_DE.UTF-8"}) == "en"  # LC_ALL first
    assert system_lang({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "fr_BE"}) == "fr"
    assert system_lang({"LANG": "C.UTF-8"}) == "en" and system_lang({}) == "en"


def test_config_show_says_that_the_files_seat_numbers_count_from_0() -> None:
    assert "# Seat and station numbers in this file count from 0: seat 0 is the screen's seat 1." \
        in load_config(None).to_toml().splitlines()
