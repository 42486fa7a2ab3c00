"""Arguments shared by the commands that start a game (simulate, demo, play)."""

from __future__ import annotations

import argparse
import secrets
import tomllib
from typing import Any

from device.rules.presets import OPTIONS, PRESET_NAMES, OptionError


def _whole(text: str, low: int, expected: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {value}")
    return value


def positive_int(text: str) -> int:
    return _whole(text, 1, "a whole number of at least 1")


def seed_value(text: str) -> int:
    return _whole(text, 0, "a whole number >= 0")


def add_game_arguments(parser: argparse.ArgumentParser, *, preset_default: str | None = None) -> None:
    parser.add_argument("--preset", choices=PRESET_NAMES, default=preset_default, metavar="NAME",
                        help="the game: " + ", ".join(PRESET_NAMES))
    parser.add_argument("--players", type=positive_int, metavar="N", help="number of seats")
    parser.add_argument("--seed", type=seed_value, metavar="S",
                        help="the game seed (default: a random one, printed)")
    parser.add_argument("--deal", metavar="SPEC",
                        help="fix every pack instead of shuffling: packs separated by '/', seat 0 "
                             "first, top card first, one character per card: 2-9 T J Q K A X (joker) "
                             "- (a number card whose value does not matter)")
    parser.add_argument("--max-rounds", type=positive_int, metavar="R",
                        help="round limit (bataille/paix rounds, or turns); overrides the preset's")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option of RULES.md's table, e.g. wrong_slap=pot-1, "
                             "slaps=[\"sandwich\"], borrow=false (repeatable); options: "
                             + ", ".join(OPTIONS))


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs; a value is read as TOML (true, 3, ["a"]) or else taken as text."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise OptionError(f"--option {pair!r}: expected KEY=VALUE, e.g. wrong_slap=pot-1")
        if key not in OPTIONS:
            raise OptionError(f"--option {key!r}: unknown option; options are: {', '.join(OPTIONS)}")
        text = text.strip()
        try:
            value = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            value = {"on": True, "off": False}.get(text, text)
        options[key] = value
    return options


def pick_seed(seed: int | None) -> int:
    """The given seed, or a fresh random one (printed by the commands, so any game can be replayed)."""
    return seed if seed is not None else secrets.randbelow(2**32)
