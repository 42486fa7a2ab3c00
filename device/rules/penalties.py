"""What a wrong slap or a wrong flip costs in the challenge games (RULES.md 3, ``wrong_slap``
and ``wrong_flip``): the pot, cards under the pile, a lockout, or the pile given away."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from device.rules.events import Event, LockedOut, Unlocked, WrongFlip, WrongSlap

if TYPE_CHECKING:
    from device.rules.challenge import ChallengeGame


@dataclass(frozen=True, slots=True)
class Penalty:
    """A ``wrong_slap`` value read once: ``pay`` cards to the pot (``under``: under the pile),
    a lockout until the pile is won (``lock``) or for ``lock_cards`` cards, or the ``gift``."""

    pay: int = 0
    under: bool = False
    lock: bool = False
    lock_cards: int = 0
    gift: bool = False


def read_penalty(rule: str) -> Penalty:
    """``pot-N``, ``bottom-N``, ``lockout``, ``lockout-N``, ``gift`` or ``none`` (checked by the
    option already)."""
    kind, _, n = rule.partition("-")
    if kind == "pot":
        return Penalty(pay=int(n))
    if kind == "bottom":
        return Penalty(pay=int(n), under=True)
    if kind == "lockout":
        return Penalty(lock_cards=int(n)) if n else Penalty(lock=True)
    if kind == "gift":
        return Penalty(gift=True)
    return Penalty()


def wrong_slap(game: ChallengeGame, seat: int, events: list[Event]) -> None:
    """``seat`` slapped a pile that shows no active pattern: it pays the table's penalty.

    Decision (RULES.md 1): a slapper who must pay cards and has none pays nothing but is locked
    out until the pile is next won; a seat emptied by paying is out at once.
    """
    p = game.penalty
    if p.gift:
        # the pile and the pot go to the next seat in play after the slapper, who leads
        events.append(WrongSlap(seat, 0))
        if game.pile:
            game._collect(game._next(seat), "gift", events)
        return
    if p.lock_cards:
        game.locked[seat] = True
        game.unlock_at[seat] = game.laid + p.lock_cards
        events.append(WrongSlap(seat, 0, True))
        events.append(LockedOut(seat, p.lock_cards))
        return
    pack = game.packs[seat]
    pay = min(p.pay, len(pack))
    lock = p.lock or (p.pay > 0 and not pack)
    dest = game.under if p.under else game.pot
    for _ in range(pay):
        dest.append(pack.popleft())
    game.paid += pay
    game.locked[seat] = lock
    events.append(WrongSlap(seat, pay, lock, "under" if p.under and pay else "pot"))
    if lock:
        events.append(LockedOut(seat))
    if pay and not pack and game.in_play[seat]:
        game._out(seat, events)


def card_laid(game: ChallengeGame, events: list[Event]) -> None:
    """A card was laid: ``lockout-N`` seats whose N cards are down may slap again, and every seat
    may be charged for a wrong flip again."""
    game.flip_fined.clear()
    if game.unlock_at:
        for s, at in sorted(game.unlock_at.items()):
            if game.laid >= at:
                del game.unlock_at[s]
                game.locked[s] = False
                events.append(Unlocked(s))


def wrong_flip_costs(game: ChallengeGame, seat: int) -> bool:
    """Whether a FLIP pressed by ``seat`` now is out of turn and costs it a card (``pot-1``):
    not the seat that lays next (the collector, during the collect pause), one with a card,
    not yet charged since the last card was laid."""
    if not game.flip_pay or seat in game.flip_fined or not game.packs[seat]:
        return False
    return seat != (game.collector if game.collector is not None else game.turn)


def wrong_flip(game: ChallengeGame, seat: int, events: list[Event]) -> None:
    """``seat`` pays one card to the pot for a FLIP out of turn (checked by ``wrong_flip_costs``)."""
    pack = game.packs[seat]
    game.pot.append(pack.popleft())
    game.paid += 1
    game.flip_fined.add(seat)
    events.append(WrongFlip(seat, 1))
    if not pack and game.in_play[seat]:
        game._out(seat, events)
