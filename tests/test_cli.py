"""The `slapbox` command frame: subcommands, help, one-line errors and exit codes, `config check/show`."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

import device.cli as cli
import device.config.schema as config
from device.cli import main

FAKE = textwrap.dedent('''\
    """A test command that fails on demand (loaded only when chosen)."""

    from device.rules.presets import PRESET_NAMES, resolve_options

    IMPORTED = True


    def add_arguments(parser):
        parser.add_argument("--preset", choices=PRESET_NAMES, default="bataille-corse")
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
        parser.add_argument("--fail", choices=["deal", "config", "bug", "exit"])


    def run(args):
        options = dict(o.split("=", 1) for o in args.option)
        resolve_options(args.preset, options)
        if args.fail == "deal":
            from device.rules.cards import DealError
            raise DealError("deal: 3 packs for 4 players (they must agree)")
        if args.fail == "config":
            from device.config.schema import ConfigError
            raise ConfigError(["a.toml: game.players: bad", "a.toml: timing.settle_ms: bad"])
        if args.fail == "bug":
            raise RuntimeError("boom\\nsecond line")
        if args.fail == "exit":
            raise SystemExit(3)
        print("ran", args.preset, getattr(args, "config", None))
        return 0
    ''')


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(config.ENV_VAR, raising=False)
    monkeypatch.delenv("SLAPBOX_DEBUG", raising=False)
    monkeypatch.setattr(config, "DEFAULT_PATH", str(tmp_path / "absent.toml"))


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    """A command `fake` from a module outside the package, to drive every kind of failure."""
    d = tmp_path / "cmds"
    d.mkdir()
    (d / "slapbox_fake_cmd.py").write_text(FAKE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(d))
    monkeypatch.setitem(cli.COMMANDS, "fake", "slapbox_fake_cmd")
    yield str(d)
    sys.modules.pop("slapbox_fake_cmd", None)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "config.toml"
    p.write_text(text, encoding="utf-8")
    return str(p)


# --- help and the command registry --------------------------------------------------------------

def test_no_command_prints_help_and_succeeds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 0 and err == ""
    assert out.startswith("usage: slapbox")
    assert "config" in out


def test_help_lists_every_command_with_its_docstring_without_importing_it(
        capsys: pytest.CaptureFixture[str], fake: str) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "fake" in out and "A test command that fails on demand" in out
    assert "Check the configuration file" in out
    assert "slapbox_fake_cmd" not in sys.modules


def test_only_commands_whose_module_exists_are_offered(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(cli.COMMANDS, "ghost", "device.commands.ghost_not_written_yet")
    assert "ghost" not in cli.available_commands()
    code, _, err = run(capsys, "ghost")
    assert code == 2
    assert err.startswith("slapbox: error: argument COMMAND: invalid choice: 'ghost' (choose from ")
    assert err.count("\n") == 1


def test_each_command_has_help(capsys: pytest.CaptureFixture[str], fake: str) -> None:
    for argv in (["config", "--help"], ["config", "check", "--help"], ["fake", "--help"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0
        assert out.startswith("usage: slapbox " + " ".join(argv[:-1]))


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert (code, out) == (0, "slapbox 0.1.0\n")


# --- one-line errors and exit codes -------------------------------------------------------------

def test_an_unknown_preset_names_the_accepted_ones(capsys: pytest.CaptureFixture[str], fake: str) -> None:
    code, out, err = run(capsys, "fake", "--preset", "war")
    assert code == 2 and out == ""
    assert err == ("slapbox fake: error: argument --preset: invalid choice: 'war' (choose from "
                   "'bataille-corse', 'strip-jack-naked', 'egyptian-ratscrew', 'bataille', 'paix', "
                   "'norvegienne')\n")


def test_unrecognised_arguments_are_blamed_on_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "config", "check", "--frobnicate")
    assert code == 2
    assert err == "slapbox config check: error: unrecognized arguments: --frobnicate\n"


def test_a_missing_action_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "config")
    assert code == 2
    assert err == "slapbox config: error: the following arguments are required: {check,show}\n"


def test_a_bad_rule_option_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], fake: str) -> None:
    code, _, err = run(capsys, "fake", "--option", "wrong_slap=pot-4")
    assert code == 2
    assert err == ("slapbox fake: error: option 'wrong_slap': expected one of 'pot-2', 'pot-1', "
                   "'pot-3', 'bottom-1'..'bottom-3', 'lockout', 'lockout-1'..'lockout-10', 'gift', "
                   "'none', got 'pot-4'\n")


def test_a_bad_deal_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], fake: str) -> None:
    code, _, err = run(capsys, "fake", "--fail", "deal")
    assert (code, err) == (2, "slapbox fake: error: deal: 3 packs for 4 players (they must agree)\n")


def test_a_config_error_in_a_command_is_one_line_per_error_exit_2(
        capsys: pytest.CaptureFixture[str], fake: str) -> None:
    code, _, err = run(capsys, "fake", "--fail", "config")
    assert (code, err) == (2, "a.toml: game.players: bad\na.toml: timing.settle_ms: bad\n")


def test_an_internal_error_is_one_line_exit_70_without_traceback(
        capsys: pytest.CaptureFixture[str], fake: str) -> None:
    code, _, err = run(capsys, "fake", "--fail", "bug")
    assert code == 70
    assert err == ("slapbox: internal error: RuntimeError: boom / second line "
                   "(set SLAPBOX_DEBUG=1 to see the traceback)\n")


def test_slapbox_debug_shows_the_traceback(capsys: pytest.CaptureFixture[str], fake: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLAPBOX_DEBUG", "1")
    code, _, err = run(capsys, "fake", "--fail", "bug")
    assert code == 70
    assert "Traceback (most recent call last)" in err
    assert err.endswith("slapbox: internal error: RuntimeError: boom / second line\n")


def test_a_command_may_exit_with_its_own_status(capsys: pytest.CaptureFixture[str], fake: str) -> None:
    assert run(capsys, "fake", "--fail", "exit")[0] == 3


def test_config_may_be_given_before_or_after_the_command(capsys: pytest.CaptureFixture[str], fake: str) -> None:
    assert run(capsys, "--config", "x.toml", "fake")[1] == "ran bataille-corse x.toml\n"
    assert run(capsys, "fake", "--config", "y.toml")[1] == "ran bataille-corse y.toml\n"
    assert run(capsys, "--config=z.toml", "fake")[1] == "ran bataille-corse z.toml\n"
    assert run(capsys, "fake")[1] == "ran bataille-corse None\n"


# --- slapbox config check / show ----------------------------------------------------------------

def test_config_check_ok(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, '[game]\npreset = "paix"\nplayers = 3\n')
    assert run(capsys, "config", "check", path) == (0, f"ok: {path}\n", "")
    assert run(capsys, "--config", path, "config", "check") == (0, f"ok: {path}\n", "")
    assert run(capsys, "config", "check") == \
        (0, f"ok: {config.DEFAULT_PATH} (no such file: every key has its default)\n", "")


def test_config_check_prints_every_error_and_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, '[game]\nplayers = 9\n[game.options]\nwrong_slap = "pot-4"\n')
    code, out, err = run(capsys, "config", "check", path)
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"{path}: game.players: bataille-corse takes 2 to 8 players, got 9",
        f"{path}: game.options.wrong_slap: expected one of 'pot-2', 'pot-1', 'pot-3', 'bottom-1'..'bottom-3', 'lockout', 'lockout-1'..'lockout-10', 'gift', 'none', got 'pot-4'",
    ]
    missing = str(tmp_path / "missing.toml")
    assert run(capsys, "config", "check", missing) == (1, "", f"{missing}: no such file\n")


def test_config_show_prints_the_effective_configuration(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, '[game]\npreset = "norvegienne"\nplayers = 11\n[timing]\ntempo_ms = 700\n')
    code, out, err = run(capsys, "config", "show", path)
    assert (code, err) == (0, "")
    assert out.startswith(f"# read from {path}\n")
    shown = tomllib.loads(out)
    assert shown["game"]["players"] == 11
    assert shown["game"]["options"]["ace_on_seven"] is True
    assert shown["timing"]["tempo_ms"] == 700
    assert shown["timing"]["settle_ms"] == 8
    (tmp_path / "shown.toml").write_text(out, encoding="utf-8")
    assert config.load_config(str(tmp_path / "shown.toml")).as_dict() == config.load_config(path).as_dict()


def test_config_show_of_a_bad_file_prints_the_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "[game]\nplayers = 'x'\n")
    assert run(capsys, "config", "show", path) == \
        (2, "", f"{path}: game.players: expected a whole number from 2 to 11, got 'x'\n")


def test_config_takes_its_file_before_or_after_each_command_word(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    path = write(tmp_path, '[game]\npreset = "paix"\n')
    for argv in (["--config", path, "config", "show"], ["config", "--config", path, "show"],
                 ["config", "show", "--config", path], ["config", "check", "--config", path]):
        code, out, err = run(capsys, *argv)
        assert (code, err) == (0, ""), argv
        assert path in out, argv


def test_simulate_refuses_an_invalid_config_and_uses_its_game_section(capsys: pytest.CaptureFixture[str],
                                                                       tmp_path: Path) -> None:
    import json
    bad = write(tmp_path, "[game]\nplayers = 'x'\n")
    assert run(capsys, "simulate", "--config", bad, "--seed", "3") == \
        (2, "", f"{bad}: game.players: expected a whole number from 2 to 11, got 'x'\n")
    good = write(tmp_path, '[game]\npreset = "paix"\nplayers = 3\nseed = 7\n')
    code, out, _ = run(capsys, "--config", good, "simulate", "--json")
    result = json.loads(out)
    assert (code, result["preset"], result["players"], result["seed"]) == (0, "paix", 3, 7)
    code, out, _ = run(capsys, "simulate", "--config", good, "--json", "--players", "2", "--seed", "9")
    assert (json.loads(out)["players"], json.loads(out)["seed"]) == (2, 9)  # the command line wins


@pytest.mark.parametrize("argv, message", [
    (["--players", "two"], "--players: expected a whole number from 2 to 11, got 'two'"),
    (["--players", "1"], "--players: expected a whole number from 2 to 11, got 1"),
    (["--players", "12"], "--players: expected a whole number from 2 to 11, got 12"),
    (["--seed", "9" * 300], "--seed: expected a whole number from 0 to 2**63-1, got a number of 300 digits"),
    (["--seed", "-1"], "--seed: expected a whole number from 0 to 2**63-1, got -1"),
])
def test_a_bad_number_of_players_or_seed_says_the_real_range(capsys: pytest.CaptureFixture[str],
                                                             argv: list[str], message: str) -> None:
    code, out, err = run(capsys, "simulate", *argv)
    assert (code, out) == (2, "")
    assert err == f"slapbox simulate: error: argument {message}\n"


def test_the_seeds_range_is_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--help")
    assert code == 0 and "0 to 2**63-1" in " ".join(out.split())


def test_tempo_on_the_command_line_has_the_configs_range(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    from device.table.config import TEMPO_MS
    low, high = TEMPO_MS
    code, _, err = run(capsys, "play", "--headless", "--tempo", "50", "--journal", "none")
    assert code == 2 and err == f"slapbox play: error: --tempo: expected {low} to {high} ms, got 50\n"
    path = write(tmp_path, "[timing]\ntempo_ms = 50\n")
    code, _, err = run(capsys, "config", "check", path)
    assert code == 1 and err == f"{path}: timing.tempo_ms: expected a number from {low} to {high}, got 50\n"


# --- a real process ------------------------------------------------------------------------------

def test_a_real_process_gives_one_line_and_no_traceback(fake: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([fake, str(Path(cli.__file__).parents[1])])}
    env.pop("SLAPBOX_DEBUG", None)
    code = ("import device.cli as c; c.COMMANDS['fake'] = 'slapbox_fake_cmd'; "
            "raise SystemExit(c.main())")
    p = subprocess.run([sys.executable, "-c", code, "fake", "--option", "wrong_slap=pot-4"],
                       capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert p.stderr.startswith("slapbox fake: error: option 'wrong_slap': expected one of")
    # `python -m device.cli` is the same program.
    bad = write(tmp_path, "[game]\nplayers = 1\n")
    p = subprocess.run([sys.executable, "-m", "device.cli", "config", "check", bad],
                       capture_output=True, text=True, env=env, timeout=60)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == f"{bad}: game.players: expected a whole number from 2 to 11, got 1\n"


def test_a_bridge_input_with_a_bad_port_is_one_line_naming_what_is_expected(capsys):
    from device.cli import main
    assert main(["play", "--headless", "--input", "bridge:socket://nohost", "--journal", "none"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bridge: port 'socket://nohost'" in err and "Traceback" not in err


def test_every_bench_target_and_bridge_action_is_reached_through_the_slapbox_command(capsys):
    from device.cli import main
    assert main(["bench", "engine", "--seconds", "0.01"]) == 0
    assert "record deal (strip-jack-naked, 8344 cards" in capsys.readouterr().out
    assert main(["bench", "bots", "--games", "2"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert main(["bridge", "emulate", "--listen", "nowhere"]) == 2
    assert "nowhere" in capsys.readouterr().err


def test_people_read_seat_numbers_from_1_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--help")
    assert code == 0 and "seat 1 first" in " ".join(out.split()) and "seat 0" not in out


def test_an_option_value_of_5000_digits_is_one_line_naming_the_option(capsys):
    from device.cli import main
    assert main(["simulate", "--preset", "bataille", "--option", "tie_cards_down=" + "9" * 5000]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tie_cards_down" in err and "Traceback" not in err


def test_a_script_that_cannot_be_read_stops_play_before_any_display_is_tried(tmp_path, capsys, monkeypatch):
    from device import box
    from device.cli import main
    monkeypatch.setattr(box, "run_screen", lambda opts: (_ for _ in ()).throw(AssertionError("display")))
    assert main(["play", "--input", f"script:{tmp_path / 'nonexistent.jsonl'}", "--journal", "none"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nonexistent.jsonl" in err and "cannot read the script" in err


def test_a_journal_whose_records_were_reordered_is_refused_by_replay(tmp_path, capsys):
    from device.cli import main
    assert main(["demo", "--deal", "5234/5678", "--journal", str(tmp_path), "--max-rounds", "6"]) == 0
    path = next(tmp_path.glob("*.jsonl"))
    lines = path.read_text().splitlines()
    import json
    shown = next(i for i, line in enumerate(lines) if json.loads(line)["k"] == "shown")
    laid = max(i for i in range(shown) if json.loads(lines[i]).get("type") == "Laid")
    lines.insert(laid, lines.pop(shown))  # card 1's shown now comes before its Laid
    path.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "different:" in err and "not in an order the table could have written" in err


@pytest.mark.parametrize("record, expected", [
    ('{"k": "press", "station": 0, "button": "slap", "edge": "press"}', "without its time 't'"),
    ('{"k": "press", "station": 0, "button": "slap", "edge": "press", "t": "soon"}', "t='soon'"),
    ('{"k": "press", "station": 0, "button": "slap", "edge": "press", "t": Infinity}', "t=inf"),
    ('{"k": "press", "station": 99, "button": "slap", "edge": "press", "t": 5}', "station=99"),
    ('{"k": "press", "station": 0, "button": "zap", "edge": "press", "t": 5}', "button='zap'"),
    ('{"k": "press", "station": 0, "button": "slap", "edge": "sideways", "t": 5}', "edge='sideways'"),
])
def test_a_press_script_in_the_journals_shape_is_checked_like_a_plain_one(tmp_path, capsys, record, expected):
    from device.cli import main
    script = tmp_path / "s.jsonl"
    script.write_text('{"k": "header", "version": 2, "start_ns": 0}\n' + record + "\n")
    assert main(["demo", "--script", str(script), "--journal", "none"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err and "line 2" in err and "Traceback" not in err


# --- slap patterns on the command line: names separated by commas (issue #15) --------------------
PATTERN_LIST = "doubles, sandwich, big-mac, top-bottom, marriage, divorce, tens, ten-on-top, run, flush"


@pytest.mark.parametrize("text, patterns", [
    ("doubles,sandwich", ("doubles", "sandwich")),
    ("run, tens", ("doubles", "tens", "run")),        # doubles is always on; the rule book's order
    ("sandwich", ("doubles", "sandwich")),             # one name is a list of one
    ('["sandwich", "flush"]', ("doubles", "sandwich", "flush")),  # a TOML list still works
])
def test_slap_patterns_on_the_command_line_are_names_separated_by_commas(text, patterns):
    from device.commands.common import parse_options
    from device.rules.presets import resolve_options
    given = parse_options([f"slaps={text}", "wrong_slap=pot-1"])
    assert resolve_options("egyptian-ratscrew", given)["slaps"] == patterns
    assert resolve_options("egyptian-ratscrew", given)["wrong_slap"] == "pot-1"


def test_simulate_takes_slaps_as_a_comma_separated_list(capsys):
    assert main(["simulate", "--preset", "egyptian-ratscrew", "--seed", "3",
                 "--option", "slaps=doubles,sandwich"]) == 0
    assert "egyptian-ratscrew, 2 players, seed 3" in capsys.readouterr().out


@pytest.mark.parametrize("text, error", [
    ("doubles,sandwitch", "'sandwitch' is not a slap pattern (did you mean 'sandwich'?); patterns are: "
     + PATTERN_LIST),
    ('["doubles", "zz"]', "'zz' is not a slap pattern; patterns are: " + PATTERN_LIST),
    ("doubles,,run", "expected slap patterns separated by commas, e.g. slaps=doubles,sandwich; "
     "patterns are: " + PATTERN_LIST),
])
def test_a_bad_slap_pattern_is_one_line_naming_the_option_and_the_patterns(capsys, text, error):
    assert main(["simulate", "--preset", "egyptian-ratscrew", "--option", f"slaps={text}"]) == 2
    assert capsys.readouterr().err == f"slapbox simulate: error: --option 'slaps': {error}\n"
