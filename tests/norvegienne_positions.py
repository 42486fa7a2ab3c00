"""Norvégienne positions for the tests of the rules and of the bots: cards by rank, a game set up
anywhere (not a test module: pytest puts this folder on the import path for the tests)."""

from __future__ import annotations

from itertools import count

from device.rules.cards import card
from device.rules.norvegienne import NorvegienneGame
from device.rules.presets import PRESETS
from device.rules.rng import Streams

DEFAULTS = dict(PRESETS["norvegienne"].defaults)
_suits: dict[int, count] = {}


def c(rank: int) -> int:
    """A card of ``rank``, each call a new suit, so cards of one test are distinct."""
    return card(rank, next(_suits.setdefault(rank, count())) % 4)


def cs(*ranks: int) -> list[int]:
    return [c(r) for r in ranks]


def position(hands, up=None, down=None, *, stock=(), pile=(), turn=0, options=None, seed=0, last_layer=None):
    n = len(hands)
    # Each seat keeps face-down cards by default so that emptying the hand does not win.
    return NorvegienneGame.from_position(
        {**DEFAULTS, **(options or {})}, hands, up or [[] for _ in range(n)],
        down or [cs(3) for _ in range(n)], stock, pile, turn, Streams(seed), last_layer=last_layer)
