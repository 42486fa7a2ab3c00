"""Actions: what a seat (or the table) does. Frozen values; the table journals them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Action:
    seat: int


@dataclass(frozen=True, slots=True)
class Lay(Action):
    """Lay the top card of the pack (bataille/paix: this stage's cards for the seat)."""


@dataclass(frozen=True, slots=True)
class Slap(Action):
    """Slap the pile. Judged by the rules: a valid slap wins the pile, a wrong one pays.

    ``at_card``: the number of the card (the game's ``cards`` counter just after it was laid) that
    was on top when the slapper pressed, as the arbiter judged from the stamps; a slap stamped
    before the next card was shown is judged on that pile and wins the newer cards too. None: now.
    """

    at_card: int | None = None


@dataclass(frozen=True, slots=True)
class Collect(Action):
    """The seat that won the pile takes it (the table applies it after the collect delay)."""


@dataclass(frozen=True, slots=True)
class Join(Action):
    """A late player takes the next free seat (``seat`` must be that seat number)."""


@dataclass(frozen=True, slots=True)
class FlipOutOfTurn(Action):
    """A FLIP pressed by a seat whose turn it is not (FLIP buttons): refused as a lay; with
    ``wrong_flip = pot-1`` it costs the seat one card to the pot, at most once per card laid.
    ``legal_actions`` lists it only for the seats it would cost."""


# --- norvégienne ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Swap phase: exchange a hand card with one of the seat's face-up cards."""

    hand_card: int
    up_card: int


@dataclass(frozen=True, slots=True)
class Ready(Action):
    """Swap phase: this seat has finished swapping."""


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Lay one or more cards of the same rank (from the hand, or the face-up cards)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PickUp(Action):
    """Take the whole pile into the hand."""


@dataclass(frozen=True, slots=True)
class Target(Action):
    """After an Ace: the seat that must pick up the pile unless it answers."""

    target: int


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Turn one of the seat's face-down cards, chosen at random (a chance step)."""


ACTION_TYPES: dict[str, type[Action]] = {
    cls.__name__: cls for cls in (Lay, Slap, Collect, Join, FlipOutOfTurn, Swap, Ready, Play, PickUp,
                                  Target, Reveal)
}


def action_to_dict(action: Action) -> dict[str, Any]:
    d: dict[str, Any] = {"type": type(action).__name__, "seat": action.seat}
    for field in type(action).__dataclass_fields__:
        if field != "seat":
            value = getattr(action, field)
            d[field] = list(value) if isinstance(value, tuple) else value
    return d


def action_from_dict(d: Mapping[str, Any]) -> Action:
    cls = ACTION_TYPES[d["type"]]
    kwargs: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v)
                              for k, v in d.items() if k != "type"}
    return cls(**kwargs)
