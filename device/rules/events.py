"""Typed events the rules emit when an action is applied: the screen words them, never the core.

Each is a frozen value; ``event_to_dict`` gives the journal's form.
"""

from __future__ import annotations

from device.rules.values import Value, value
from typing import Any, Literal

#: how a game ended (``Outcome.termination``, ``GameOver.termination``); ``time``: the table's time
#: limit ran out (``Game.end_on_time``)
Termination = Literal["win", "draw", "loop", "limit", "time"]
#: why a seat took the pile: a won challenge, a slap on a pattern, the last seat in play, a
#: bataille/paix round, a challenged seat that could not pay, a wrong slap's ``gift``
PileReason = Literal["challenge", "last-seat", "round", "forfeit", "gift", "slap:doubles",
                     "slap:sandwich", "slap:big-mac", "slap:top-bottom", "slap:marriage",
                     "slap:divorce", "slap:tens", "slap:ten-on-top", "slap:run", "slap:flush"]
#: where a wrong slap's (or a wrong flip's) cards went: the pot, or face down under the pile
PaidTo = Literal["pot", "under"]


@value
class Event(Value):
    pass


@value
class Laid(Event):
    """``seat`` put ``card`` on the pile. ``borrowed_from``: whose pack it came from, when borrowed.
    ``face_up`` is False for the face-down cards of a battle or peace."""

    seat: int
    card: int
    borrowed_from: int | None = None
    face_up: bool = True


@value
class Owes(Event):
    """``seat`` must lay ``n`` more attempts (a challenge; ``n`` counts down as it pays)."""

    seat: int
    n: int


@value
class ChallengeStopped(Event):
    """``tens_stop``: ``seat`` laid a 10 as an attempt; the challenge ends, nobody wins the pile."""

    seat: int


@value
class CollectPending(Event):
    """``seat`` won the challenge; it takes the pile after the collect delay unless a slap steals it."""

    seat: int


@value
class PileWon(Event):
    """``seat`` took the pile (``cards`` cards) and the pot (``pot`` cards).

    reason: ``challenge``, ``slap:<pattern>`` (a pattern of ``slaps.SLAP_ORDER``), ``last-seat``
    (only one seat left in play), ``round`` (bataille/paix), ``forfeit`` (the challenged seat could
    not pay), ``gift`` (a wrong slap with ``wrong_slap = gift`` sent it to the next seat in play).
    ``pot`` counts the cards under the pile (``bottom-N``) too.
    """

    seat: int
    reason: PileReason
    cards: int
    pot: int = 0


@value
class WrongSlap(Event):
    """``seat`` slapped a pile that could not be slapped and paid ``paid`` cards to the pot
    (``to = "under"``: face down under the pile, ``bottom-N``)."""

    seat: int
    paid: int
    locked_out: bool = False
    to: PaidTo = "pot"


@value
class LockedOut(Event):
    """``seat`` may not slap until the pile is next won (``cards`` > 0: for the next ``cards``
    cards laid, ``lockout-N``; then `Unlocked`)."""

    seat: int
    cards: int = 0


@value
class Unlocked(Event):
    """``lockout-N``: ``seat`` may slap again (its N cards have been laid)."""

    seat: int


@value
class WrongFlip(Event):
    """``seat`` pressed FLIP out of turn (``wrong_flip = pot-1``) and paid ``paid`` cards to the pot."""

    seat: int
    paid: int


@value
class SeatOut(Event):
    seat: int


@value
class SeatBack(Event):
    """An out (or newly joined) seat won a pile and is back in play."""

    seat: int


@value
class Joined(Event):
    seat: int


@value
class Battle(Event):
    """bataille/paix: a tie for the winning rank; ``seats`` join a battle (or a peace)."""

    seats: tuple[int, ...]
    stage: int
    peace: bool = False


@value
class Swapped(Event):
    seat: int
    hand_card: int
    up_card: int


@value
class Played(Event):
    """norvégienne: ``seat`` laid ``cards`` (same rank); ``source``: hand, up or down."""

    seat: int
    cards: tuple[int, ...]
    source: str = "hand"


@value
class Drew(Event):
    seat: int
    n: int


@value
class PickedUp(Event):
    """``seat`` took the pile (``cards`` cards) into its hand."""

    seat: int
    cards: int


@value
class Burned(Event):
    """The pile (``cards`` cards) left the game; ``why``: ``ten`` or ``four``."""

    seat: int
    cards: int
    why: str


@value
class Skipped(Event):
    """Eights: these seats lose their turn."""

    seats: tuple[int, ...]


@value
class AceTarget(Event):
    seat: int
    target: int


@value
class Revealed(Event):
    """A face-down card was turned."""

    seat: int
    card: int
    playable: bool


@value
class Finished(Event):
    """norvégienne with ``rank_all``: ``seat`` has no cards left and takes ``place`` (1 = first)."""

    seat: int
    place: int


@value
class GameOver(Event):
    """termination: win, draw, loop, limit, time; winner may be None."""

    termination: Termination
    winner: int | None


def event_to_dict(event: Event) -> dict[str, Any]:
    d: dict[str, Any] = {"type": type(event).__name__}
    for name in event._fields:
        v = getattr(event, name)
        d[name] = list(v) if isinstance(v, tuple) else v
    return d


@value
class TookUp(Event):
    """norvégienne: the stock is empty and ``seat``'s hand is too, so its face-up ``cards`` go into
    its hand (RULES: "takes its 3 face-up cards into its hand")."""

    seat: int
    cards: tuple[int, ...]
