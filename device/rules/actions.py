"""Actions: what a seat (or the table) does. Frozen values; the table journals them."""

from __future__ import annotations

from collections.abc import Mapping
from device.rules.values import Value, value
from typing import Any


@value
class Action(Value):
    seat: int


@value
class Lay(Action):
    """Lay the top card of the pack (bataille/paix: this stage's cards for the seat)."""


@value
class Slap(Action):
    """Slap the pile. Judged by the rules: a valid slap wins the pile, a wrong one pays.

    ``at_card``: the number of the card (the game's ``cards`` counter just after it was laid) that
    was on top when the slapper pressed, as the arbiter judged from the stamps; a slap stamped
    before the next card was shown is judged on that pile and wins the newer cards too. None: now.
    """

    at_card: int | None = None


@value
class Collect(Action):
    """The seat that won the pile takes it (the table applies it after the collect delay)."""


@value
class Join(Action):
    """A late player takes the next free seat (``seat`` must be that seat number)."""


@value
class FlipOutOfTurn(Action):
    """A FLIP pressed by a seat whose turn it is not (FLIP buttons): refused as a lay; with
    ``wrong_flip = pot-1`` it costs the seat one card to the pot, at most once per card laid.
    ``legal_actions`` lists it only for the seats it would cost."""


# --- norvégienne ---------------------------------------------------------------------------
@value
class Swap(Action):
    """Swap phase: exchange a hand card with one of the seat's face-up cards."""

    hand_card: int
    up_card: int


@value
class Ready(Action):
    """Swap phase: this seat has finished swapping."""


@value
class Play(Action):
    """Lay one or more cards of the same rank (from the hand, or the face-up cards)."""

    cards: tuple[int, ...]


@value
class PickUp(Action):
    """Take the whole pile into the hand."""


@value
class Target(Action):
    """After an Ace: the seat that must pick up the pile unless it answers."""

    target: int


@value
class Reveal(Action):
    """Turn one of the seat's face-down cards, chosen at random (a chance step)."""


ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls for cls in (Lay, Slap, Collect, Join, FlipOutOfTurn, Swap, Ready, Play, PickUp,
                                  Target, Reveal)
}


def action_to_dict(action: Action) -> dict[str, Any]:
    d: dict[str, Any] = {"type": type(action).__name__, "seat": action.seat}
    for field in action._fields:
        if field != "seat":
            v = getattr(action, field)
            d[field] = list(v) if isinstance(v, tuple) else v
    return d


def action_from_dict(d: Mapping[str, Any]) -> Action:
    cls = ACTION_TYPES[d["type"]]
    kwargs: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v)
                              for k, v in d.items() if k != "type"}
    return cls(**kwargs)
