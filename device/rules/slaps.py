"""Says whether a pile can be slapped, and by which pattern (RULES.md, presets 1 and 3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from device.rules.cards import ACE, ANY_NUMBER, KING, QUEEN

#: the slap patterns of RULES.md (the ``slaps`` option names them)
SlapPattern = Literal["doubles", "sandwich", "top-bottom", "marriage", "tens"]


def _tens_value(r: int) -> int:
    """Value for the `tens` pattern: number cards at face value, Ace 1, others none (0)."""
    if 2 <= r <= 10:
        return r
    return 1 if r == ACE else 0


def slap_pattern(pile: Sequence[int], patterns: Sequence[str]) -> SlapPattern | None:
    """The first pattern of ``patterns`` that the pile shows, or None.

    Rank 0 (a number card whose value does not matter) never matches anything.
    """
    n = len(pile)
    if n < 2:
        return None
    top = pile[-1] >> 2
    second = pile[-2] >> 2
    for p in patterns:
        if p == "doubles":
            if top == second and top != ANY_NUMBER:
                return "doubles"
        elif p == "sandwich":
            if n >= 3 and top == pile[-3] >> 2 and top != ANY_NUMBER:
                return "sandwich"
        elif p == "top-bottom":
            if n >= 3 and top == pile[0] >> 2 and top != ANY_NUMBER:
                return "top-bottom"
        elif p == "marriage":
            if {top, second} == {KING, QUEEN}:
                return "marriage"
        elif p == "tens":
            a, b = _tens_value(top), _tens_value(second)
            if a and b and a + b == 10:
                return "tens"
    return None
