"""`slapbox simulate`: the contract other tools rely on, through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from device.cli import main
from device.rules.presets import PRESET_NAMES

RECORD = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
ENDLESS = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"


def simulate_json(capsys, *args: str) -> dict:
    assert main(["simulate", *args, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1  # exactly one JSON object
    return json.loads(out)


def test_json_contract_on_the_record_deal(capsys):
    result = simulate_json(capsys, "--preset", "strip-jack-naked", "--deal", RECORD)
    assert result["preset"] == "strip-jack-naked" and result["seed"] is None
    assert (result["outcome"], result["winner"]) == ("win", 1)
    assert (result["cards"], result["tricks"]) == (8344, 1164)
    assert isinstance(result["rounds"], int) and result["rounds"] > result["tricks"]


def test_the_endless_deal_is_a_loop_with_the_totals_when_first_repeated(capsys):
    result = simulate_json(capsys, "--preset", "strip-jack-naked", "--deal", ENDLESS)
    assert (result["outcome"], result["winner"], result["cards"], result["tricks"]) == (
        "loop", None, 474, 66)


def test_max_rounds_counts_turns_and_gives_the_seat_with_most_cards(capsys):
    result = simulate_json(capsys, "--preset", "strip-jack-naked", "--deal", RECORD,
                           "--max-rounds", "100")
    assert result["outcome"] == "limit" and result["rounds"] == 100
    counts = result["counts"]
    assert result["winner"] == (None if counts[0] == counts[1] else counts.index(max(counts)))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_plays_out_and_the_same_seed_gives_the_same_game(capsys, preset):
    first = simulate_json(capsys, "--preset", preset, "--seed", "42", "--players", "3")
    again = simulate_json(capsys, "--preset", preset, "--seed", "42", "--players", "3")
    assert first == again
    assert first["seed"] == 42 and first["players"] == 3
    assert first["outcome"] in ("win", "draw", "loop", "limit")
    if first["outcome"] == "win":
        assert 0 <= first["winner"] < 3


def test_without_a_seed_a_random_one_is_chosen_and_reported(capsys):
    result = simulate_json(capsys, "--preset", "bataille")
    assert isinstance(result["seed"], int)
    assert simulate_json(capsys, "--preset", "bataille", "--seed", str(result["seed"])) == result


def test_deal_rules(capsys):
    # Packs may have any length, even empty; the first pack is seat 0.
    result = simulate_json(capsys, "--preset", "bataille-corse", "--deal", "K--/-")
    assert result["outcome"] == "win" and result["winner"] == 0 and result["cards"] == 4
    assert simulate_json(capsys, "--preset", "bataille", "--deal", "A2/3K")["players"] == 2


@pytest.mark.parametrize("args,needle", [
    (["--preset", "bataille", "--deal", "2-/34"], "'-'"),
    (["--preset", "paix", "--deal", "2-/34"], "'-'"),
    (["--preset", "norvegienne", "--deal", "23/45"], "not accepted for norvegienne"),
    (["--preset", "bataille-corse", "--deal", "23/4Z"], "'Z' is not a card"),
    (["--preset", "bataille-corse", "--deal", "23/45", "--players", "3"], "must agree"),
    (["--preset", "nope"], "invalid choice: 'nope' (choose from 'bataille-corse'"),
    (["--preset", "bataille", "--players", "5"], "bataille takes 2 to 4, not 5"),
    (["--preset", "bataille-corse", "--max-rounds", "0"], "at least 1"),
    (["--preset", "bataille-corse", "--seed", "-3"], "whole number from 0 to 2**63-1"),
    (["--preset", "bataille-corse", "--option", "wrong_slap=pot-9"], "'pot-2', 'pot-1'"),
    (["--preset", "paix", "--option", "borrow=true"], "does not apply to paix"),
    (["--preset", "bataille-corse", "--deal", "K" * 30_000 + "/" + "-" * 30_000], "at most 208 cards"),
    (["--preset", "bataille-corse", "--deal", "/"], "no cards at all"),
    (["--preset", "bataille-corse", "--deal", "///"], "no cards at all"),
    (["--preset", "bataille-corse", "--deal", "K/" * 17], "at most 16 packs"),
])
def test_bad_input_is_one_line_and_exit_status_2(capsys, args, needle):
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_human_summary(capsys):
    assert main(["simulate", "--preset", "strip-jack-naked", "--deal", ENDLESS]) == 0
    assert "never ends" in capsys.readouterr().out


def test_paix_at_its_round_limit_is_a_draw_whatever_the_counts_and_never_a_tie(capsys):
    result = simulate_json(capsys, "--preset", "paix", "--seed", "25")
    assert (result["outcome"], result["winner"], result["rounds"]) == ("draw", None, 1000)
    assert result["counts"] == [34, 18]
    assert main(["simulate", "--preset", "paix", "--seed", "25"]) == 0
    out = capsys.readouterr().out
    assert "draw after 1,000 rounds, 34\u201318" in out and "tie" not in out


def test_bataille_at_its_round_limit_the_seat_with_most_cards_wins_a_tie_for_most_is_a_draw(capsys):
    result = simulate_json(capsys, "--preset", "bataille", "--deal", "K23/534", "--max-rounds", "1")
    assert (result["outcome"], result["winner"], result["counts"]) == ("limit", 0, [4, 2])
    assert main(["simulate", "--preset", "bataille", "--deal", "K23/534", "--max-rounds", "1"]) == 0
    assert "seat 1 has most cards" in capsys.readouterr().out
    result = simulate_json(capsys, "--preset", "bataille", "--deal", "K23/534", "--max-rounds", "2")
    assert (result["outcome"], result["winner"], result["counts"]) == ("limit", None, [3, 3])
    assert main(["simulate", "--preset", "bataille", "--deal", "K23/534", "--max-rounds", "2"]) == 0
    assert "a tie for most cards, 3\u20133" in capsys.readouterr().out


def test_the_installed_command_prints_one_json_object():
    proc = subprocess.run([sys.executable, "-m", "device.cli", "simulate", "--preset",
                           "egyptian-ratscrew", "--seed", "7", "--json"],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert {"preset", "seed", "outcome", "winner", "cards", "tricks", "rounds"} <= set(result)
