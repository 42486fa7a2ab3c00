"""The rules' frozen values behave as the dataclasses they replaced (device/rules/values.py)."""

from __future__ import annotations

import pytest

from device.rules.actions import Action, Slap
from device.rules.events import Laid, Owes, PileWon
from device.rules.values import FrozenValueError


def test_values_take_positional_and_keyword_arguments_with_their_defaults():
    assert Laid(0, 5) == Laid(seat=0, card=5, borrowed_from=None, face_up=True)
    assert Slap(1).at_card is None and Slap(1, at_card=4).at_card == 4
    with pytest.raises(TypeError, match="missing its argument 'card'"):
        Laid(0)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected or repeated argument 'colour'"):
        Laid(0, 5, colour=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="takes 4 arguments, 5 were given"):
        Laid(0, 5, None, True, 9)  # type: ignore[call-arg]


def test_values_are_equal_and_hashed_by_type_and_fields_and_read_as_dataclasses_did():
    assert Owes(0, 5) != Laid(0, 5) and Owes(0, 5) == Owes(0, 5)
    assert len({Owes(0, 5), Owes(0, 5), Owes(1, 5)}) == 2
    assert repr(PileWon(1, "round", 3)) == "PileWon(seat=1, reason='round', cards=3, pot=0)"
    assert Slap._fields == ("seat", "at_card") and Slap.__match_args__ == ("seat", "at_card")
    assert isinstance(Slap(0), Action) and not hasattr(Slap(0), "__dict__")  # slotted


def test_values_are_frozen():
    e = Laid(0, 5)
    with pytest.raises(FrozenValueError, match="Laid is frozen"):
        e.card = 6  # type: ignore[misc]
    with pytest.raises(FrozenValueError):
        del e.seat  # type: ignore[misc]
    assert e == Laid(0, 5)
