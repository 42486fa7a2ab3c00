"""Arguments shared by the commands that start a game (simulate, demo, play)."""

from __future__ import annotations

import argparse
import secrets
import tomllib
from typing import Any

from device.config.schema import did_you_mean
from device.rules.presets import OPTIONS, PRESET_NAMES, PRESETS, SLAP_PATTERNS, OptionError, check_option_text

#: seats any preset takes (each preset's own range is checked once the preset is known)
PLAYERS = (min(p.min_players for p in PRESETS.values()), max(p.max_players for p in PRESETS.values()))
SEED_MAX = 2**63 - 1  # a seed fits the journal's name and any tool's 64-bit integer
SEED_RANGE = "0 to 2**63-1"
_DIGITS = 40  # longer text is not even converted (int() of 4,300+ digits raises)


def _whole(text: str, low: int, high: int | None, expected: str) -> int:
    digits = text.strip().lstrip("+-")
    if len(digits) > _DIGITS and digits.isdigit():
        raise argparse.ArgumentTypeError(f"expected {expected}, got a number of {len(digits):,} digits")
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text[:40]!r}") from None
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"expected {expected}, got {value}")
    return value


def positive_int(text: str) -> int:
    return _whole(text, 1, None, "a whole number of at least 1")


def players_value(text: str) -> int:
    low, high = PLAYERS
    return _whole(text, low, high, f"a whole number from {low} to {high}")


def seed_value(text: str) -> int:
    return _whole(text, 0, SEED_MAX, f"a whole number from {SEED_RANGE}")


def add_game_arguments(parser: argparse.ArgumentParser, *, preset_default: str | None = None) -> None:
    parser.add_argument("--preset", choices=PRESET_NAMES, default=preset_default, metavar="NAME",
                        help="the game: " + ", ".join(PRESET_NAMES))
    parser.add_argument("--players", type=players_value, metavar="N",
                        help=f"number of seats, {PLAYERS[0]} to {PLAYERS[1]} (each game has its own range)")
    parser.add_argument("--seed", type=seed_value, metavar="S",
                        help=f"the game seed, {SEED_RANGE} (default: a random one, printed)")
    parser.add_argument("--deal", metavar="SPEC",
                        help="fix every pack instead of shuffling: packs separated by '/', seat 1 "
                             "first, top card first, one character per card: 2-9 T J Q K A X (joker) "
                             "- (a number card whose value does not matter)")
    parser.add_argument("--max-rounds", type=positive_int, metavar="R",
                        help="round limit (bataille/paix rounds, or turns); overrides the preset's")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option of RULES.md's table, e.g. wrong_slap=pot-1, "
                             "slaps=doubles,sandwich, borrow=false (repeatable); options: "
                             + ", ".join(OPTIONS))


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; a value is read as TOML (true, 3, ["a"]) or else taken as text; slap
    patterns are a TOML list or names separated by commas (``slaps=doubles,sandwich``)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(f"--option {pair!r}: expected KEY=VALUE, e.g. wrong_slap=pot-1")
        if key not in OPTIONS:
            raise OptionError(f"--option {key!r}: unknown option; options are: {', '.join(OPTIONS)}")
        text = text.strip()
        check_option_text(key, text)  # a value too long to be one is refused before it is read
        try:
            value = tomllib.loads(f"v = {text}")["v"]
        except (tomllib.TOMLDecodeError, ValueError, RecursionError):
            value = {"on": True, "off": False}.get(text, text)
        if OPTIONS[key].kind == "patterns":
            value = _patterns(key, value)
        options[key] = value
    return options


def _patterns(key: str, value: Any) -> Any:
    """A patterns option's value: names separated by commas become a list, and an unknown name
    is refused by name, with the patterns there are (other values are left to the option's check)."""
    if isinstance(value, str):
        value = [name.strip() for name in value.split(",")]
        if "" in value:
            raise OptionError(f"--option {key!r}: expected slap patterns separated by commas, e.g. "
                              f"{key}=doubles,sandwich; patterns are: {', '.join(SLAP_PATTERNS)}")
    if isinstance(value, list):
        for name in value:
            if isinstance(name, str) and name not in SLAP_PATTERNS:
                raise OptionError(f"--option {key!r}: {name!r} is not a slap pattern"
                                  f"{did_you_mean(name, SLAP_PATTERNS)}; "
                                  f"patterns are: {', '.join(SLAP_PATTERNS)}")
    return value


def pick_seed(seed: int | None) -> int:
    """The given seed, or a fresh random one (printed by the commands, so any game can be replayed)."""
    return seed if seed is not None else secrets.randbelow(2**32)
