"""Says whether a pile can be slapped, and by which pattern (RULES.md, presets 1 and 3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from device.rules.cards import ACE, ANY_NUMBER, JOKER, KING, QUEEN

#: the slap patterns of RULES.md (the ``slaps`` option names them), in the order a matched
#: pattern is named when several match ("doubles, sandwich, big-mac, ... run, flush")
SlapPattern = Literal["doubles", "sandwich", "big-mac", "top-bottom", "marriage", "divorce", "tens",
                      "ten-on-top", "run", "flush"]
SLAP_ORDER: tuple[SlapPattern, ...] = ("doubles", "sandwich", "big-mac", "top-bottom", "marriage",
                                       "divorce", "tens", "ten-on-top", "run", "flush")
_KQ = {KING, QUEEN}


def _tens_value(r: int) -> int:
    """Value for the `tens` pattern: number cards at face value, Ace 1, others none (0)."""
    if 2 <= r <= 10:
        return r
    return 1 if r == ACE else 0


def _red(c: int) -> bool:
    """Hearts and diamonds (suits 1 and 2 of ``cards.SUITS``)."""
    return 1 <= c & 3 <= 2


def _is_run(a: int, b: int, c: int, wraps: bool) -> bool:
    """Three ranks (oldest first) in a row, up or down; Ace high or low; K-A-2 only with ``wraps``.
    A joker or an any-number card is part of no run."""
    if not (2 <= a <= ACE and 2 <= b <= ACE and 2 <= c <= ACE):
        return False
    d1, d2 = b - a, c - b
    if wraps:  # ranks on a circle of 13: every run, the Ace's included
        d1, d2 = d1 % 13, d2 % 13
        return d1 == d2 and d1 in (1, 12)
    if d1 == d2 and d1 in (1, -1):
        return True
    # Ace low: A-2-3 and 3-2-A
    a, b, c = (1 if r == ACE else r for r in (a, b, c))
    d1, d2 = b - a, c - b
    return d1 == d2 and d1 in (1, -1)


def slap_pattern(pile: Sequence[int], patterns: Sequence[str], *, run_wraps: bool = False,
                 marriage_colour: bool = False) -> SlapPattern | None:
    """The first pattern of ``patterns`` that the pile shows, or None (``patterns`` in
    ``SLAP_ORDER``, as ``OptionSpec.check`` gives them).

    Rank 0 (a number card whose value does not matter) never matches anything; a joker matches a
    joker where ranks are compared and is part of no run, flush, marriage, divorce or sum.
    """
    n = len(pile)
    if n < 2:
        return None
    t = pile[-1]
    top = t >> 2
    second = pile[-2] >> 2
    for p in patterns:
        if p == "doubles":
            if top == second and top != ANY_NUMBER:
                return "doubles"
        elif p == "sandwich":
            if n >= 3 and top == pile[-3] >> 2 and top != ANY_NUMBER:
                return "sandwich"
        elif p == "big-mac":
            if n >= 4 and top == pile[-4] >> 2 and top != ANY_NUMBER:
                return "big-mac"
        elif p == "top-bottom":
            if n >= 3 and top == pile[0] >> 2 and top != ANY_NUMBER:
                return "top-bottom"
        elif p == "marriage":
            if top != second and top in _KQ and second in _KQ and (
                    not marriage_colour or _red(t) == _red(pile[-2])):
                return "marriage"
        elif p == "divorce":
            if n >= 3 and top in _KQ and top != pile[-3] >> 2 and pile[-3] >> 2 in _KQ:
                return "divorce"
        elif p == "tens":
            a, b = _tens_value(top), _tens_value(second)
            if a and b and a + b == 10:
                return "tens"
        elif p == "ten-on-top":
            if top == 10:
                return "ten-on-top"
        elif p == "run":
            if n >= 3 and _is_run(pile[-3] >> 2, second, top, run_wraps):
                return "run"
        elif p == "flush":
            if n >= 4 and ANY_NUMBER < top < JOKER:
                s = t & 3
                if all(ANY_NUMBER < c >> 2 < JOKER and c & 3 == s for c in pile[-4:-1]):
                    return "flush"
    return None
