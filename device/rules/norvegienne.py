"""Bataille norvégienne (RULES.md section 5): the shedding game of hands, face-up and face-down cards.

A pure state machine: a swap phase (each seat in seat order swaps hand and face-up cards, then says
it is ready), then turns of plays, pick-ups, Ace targets and blind reveals until a seat has no card
left (or every seat is ranked, option ``rank_all``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from device.rules import cards as cardlib
from device.rules.actions import Action, PickUp, Play, Ready, Reveal, Swap, Target
from device.rules.base import Family, Game, IllegalAction, Outcome
from device.rules.cards import ACE
from device.rules.events import (
    AceTarget,
    Burned,
    Drew,
    Event,
    Finished,
    GameOver,
    PickedUp,
    Played,
    Revealed,
    SeatOut,
    Skipped,
    Swapped,
    TookUp,
)
from device.rules.rng import Streams, randbelow

HAND_SIZE = 3  # dealt to each of hand, face-up and face-down; the hand is drawn back to it
MIN_SEATS, MAX_SEATS = 2, 11
TWO, SEVEN, EIGHT, TEN = 2, 7, 8, 10
_RANK_WORDS = {cardlib.JACK: "Jack", cardlib.QUEEN: "Queen", cardlib.KING: "King", ACE: "Ace"}


def rank_word(r: int) -> str:
    """``9``, ``Queen``, ``Ace``: how a player names a rank."""
    return _RANK_WORDS.get(r, str(r))


def a_rank(r: int) -> str:
    """``a 9``, ``an 8``, ``an Ace``."""
    word = rank_word(r)
    return ("an " if word[0] in "8A" else "a ") + word


class Deal(NamedTuple):
    """Norvégienne's deal: per seat its face-down, face-up and hand cards; the stock, top card first."""

    down: list[list[int]]
    up: list[list[int]]
    hand: list[list[int]]
    stock: list[int]

    def recorded(self) -> dict[str, Any]:
        """The JSON-ready record a journal keeps (``read_deal`` reads it back)."""
        return {"down": [list(d) for d in self.down], "up": [list(u) for u in self.up],
                "hand": [list(h) for h in self.hand], "stock": list(self.stock)}


_DEAL_SHAPE = ("norvegienne's deal is {'down': [...], 'up': [...], 'hand': [...]} with 3 cards per "
               "seat each, and 'stock': the rest of the deck, top card first")


def read_deal(recorded: object) -> Deal:
    """A recorded deal (``Deal.recorded``) checked: 2 to 11 seats, 3 cards each face down, face up
    and in hand, and with the stock exactly one deck (52 cards, 104 from 6 seats). DealError if not."""
    if not isinstance(recorded, Mapping) or set(recorded) != {"down", "up", "hand", "stock"}:
        raise cardlib.DealError(f"deal: {_DEAL_SHAPE}")
    parts: list[list[list[int]]] = []
    for key in ("down", "up", "hand"):
        seats = recorded[key]
        if not isinstance(seats, list) or not all(isinstance(cards, list) for cards in seats):
            raise cardlib.DealError(f"deal: {key!r} must hold one list of cards per seat ({_DEAL_SHAPE})")
        parts.append(seats)
    n = len(parts[0])
    if not MIN_SEATS <= n <= MAX_SEATS or any(len(p) != n for p in parts):
        raise cardlib.DealError(f"deal: norvegienne takes {MIN_SEATS} to {MAX_SEATS} seats, each with "
                                f"face-down, face-up and hand cards; got {', '.join(str(len(p)) for p in parts)}")
    for key, seats in zip(("down", "up", "hand"), parts):
        for seat, cards in enumerate(seats):
            if len(cards) != HAND_SIZE:
                raise cardlib.DealError(f"deal: seat {seat} has {len(cards)} {key} cards, not {HAND_SIZE} cards")
    stock = recorded["stock"]
    if not isinstance(stock, list):
        raise cardlib.DealError(f"deal: 'stock' must be a list of cards ({_DEAL_SHAPE})")
    every = [c for seats in parts for cards in seats for c in cards] + stock
    for c in every:
        if isinstance(c, bool) or not isinstance(c, int) or not 2 <= c >> 2 <= ACE:
            raise cardlib.DealError(f"deal: {c!r} is not a card (cards are rank * 4 + suit, ranks 2 to 14)")
    size = 52 if n <= 5 else 104
    if Counter(every) != Counter(cardlib.make_deck(size)):
        raise cardlib.DealError(f"deal: the cards dealt to {n} seats and the stock must be exactly "
                                f"{'one 52-card deck' if size == 52 else 'two 52-card decks'}")
    return Deal([list(d) for d in parts[0]], [list(u) for u in parts[1]], [list(h) for h in parts[2]],
                list(stock))


def _default_options() -> dict[str, Any]:
    from device.rules.presets import PRESETS  # presets builds games lazily: no import cycle
    return dict(PRESETS["norvegienne"].defaults)


class NorvegienneGame(Game):
    """One game of norvégienne for 2 to 11 seats.

    Phases: ``swap`` (current seat = first seat not ready), ``play``, ``over``. In ``play`` the
    seat to act is, in order of precedence: the seat that laid an Ace and must choose a target
    (``Target``), the target that must answer the Ace or pick up, or the seat whose turn it is.
    """

    preset = "norvegienne"
    family: ClassVar[Family] = "shedding"
    has_decisions: ClassVar[bool] = True
    cards: int = 0

    def seat_in_play(self, seat: int) -> bool:
        return self.in_play[seat]

    def __init__(self, options: dict[str, Any], players: int, streams: Streams,
                 deal: Deal | None = None) -> None:
        """A new game: the deck shuffled with the ``deal`` stream and dealt, or the given ``deal``
        (a recorded one, from ``read_deal``), which then decides every card."""
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_SEATS <= players <= MAX_SEATS:
            raise ValueError(f"players: norvegienne takes {MIN_SEATS} to {MAX_SEATS}, not {players!r}")
        self._setup(options, players, streams)
        if deal is None:
            deck = cardlib.make_deck(52 if players <= 5 else 104)
            cardlib.shuffle(deck, streams["deal"])
            cards = iter(deck)
            down: list[list[int]] = [[] for _ in range(players)]
            up: list[list[int]] = [[] for _ in range(players)]
            hand: list[list[int]] = [[] for _ in range(players)]
            # One at a time, seat 0 first: 3 face-down each, then 3 face-up on them, then 3 in hand.
            for where in (down, up, hand):
                for _ in range(HAND_SIZE):
                    for seat in range(players):
                        where[seat].append(next(cards))
            deal = Deal(down, up, hand, list(cards))  # stock: top card first
        elif len(deal.hand) != players:
            raise cardlib.DealError(f"deal: {len(deal.hand)} seats for {players} players (they must agree)")
        self.dealt = deal.recorded()
        for seat in range(players):
            self.down[seat] += deal.down[seat]
            self.up[seat] += deal.up[seat]
            self.hands[seat] += deal.hand[seat]
        self.stock = list(deal.stock)

    def _setup(self, options: dict[str, Any], players: int, streams: Streams) -> None:
        self.options = {**_default_options(), **options}
        self.voluntary_pickup = bool(self.options["voluntary_pickup"])
        self.blind_chain = bool(self.options["blind_chain"])
        self.ace_on_seven = bool(self.options["ace_on_seven"])
        self.rank_all = bool(self.options["rank_all"])
        self.max_rounds: int | None = self.options["max_rounds"]
        self.streams = streams
        self.n = players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.up: list[list[int]] = [[] for _ in range(players)]
        self.down: list[list[int]] = [[] for _ in range(players)]
        self.stock = []  # typed by __init__: list[int], top card first
        self.pile: list[int] = []  # bottom first, top card last
        self.burned: list[int] = []
        self.phase = "swap"
        self.ready = [False] * players
        self.turn = 0
        self.chooser: int | None = None  # laid an Ace, must choose a target
        self.target: int | None = None  # must answer the Ace (Ace or 2) or pick up
        self.last_layer: int | None = None  # leads after a pick-up
        self.in_play = [True] * players
        self.places: list[int] = []  # seats in the order they ran out of cards
        self._outcome: Outcome | None = None
        self.cards = 0
        self.tricks = 0
        self.rounds = 0

    @classmethod
    def from_position(cls, options: dict[str, Any], hands: Sequence[Sequence[int]],
                      up: Sequence[Sequence[int]], down: Sequence[Sequence[int]],
                      stock: Sequence[int] = (), pile: Sequence[int] = (), turn: int = 0,
                      streams: Streams | None = None, last_layer: int | None = None) -> NorvegienneGame:
        """A game already in play (swap phase over) at a given position, for tests and examples.

        ``stock`` top card first, ``pile`` bottom card first. ``last_layer`` (who leads after a
        pick-up) defaults to the seat before ``turn``. A seat set up with an empty hand is
        normalised as play would have left it (it draws, or takes its face-up cards).
        """
        players = len(hands)
        if not MIN_SEATS <= players <= MAX_SEATS or len(up) != players or len(down) != players:
            raise ValueError(f"position: hands, up and down need one entry per seat "
                             f"({MIN_SEATS} to {MAX_SEATS} seats), got {len(hands)}, {len(up)}, {len(down)}")
        if not 0 <= turn < players:
            raise ValueError(f"position: turn must be a seat from 0 to {players - 1}, not {turn}")
        game = cls.__new__(cls)
        game._setup(options, players, streams if streams is not None else Streams(0))
        game.hands = [list(h) for h in hands]
        game.up = [list(u) for u in up]
        game.down = [list(d) for d in down]
        game.stock = list(stock)
        game.pile = list(pile)
        game.phase = "play"
        game.ready = [True] * players
        game.turn = turn
        game.last_layer = last_layer if last_layer is not None or not pile else (turn - 1) % players
        for seat in range(players):
            game._refill(seat, [])
            if not game._has_cards(seat):
                raise ValueError(f"position: seat {seat} has no card at all (it would have won already)")
        return game

    # --- the Game interface -------------------------------------------------------------------
    def current_seat(self) -> int | None:
        if self._outcome is not None:
            return None
        if self.phase == "swap":
            return self.ready.index(False)
        if self.chooser is not None:
            return self.chooser
        if self.target is not None:
            return self.target
        return self.turn

    def outcome(self) -> Outcome | None:
        return self._outcome

    def seat_count(self) -> int:
        return self.n

    def card_counts(self) -> list[int]:
        return [len(self.hands[s]) + len(self.up[s]) + len(self.down[s]) for s in range(self.n)]

    def all_cards(self) -> list[int]:
        out: list[int] = []
        for seat in range(self.n):
            out += self.hands[seat] + self.up[seat] + self.down[seat]
        return out + self.stock + self.pile + self.burned

    def legal_actions(self) -> list[Action]:
        seat = self.current_seat()
        if seat is None:
            return []
        if self.phase == "swap":
            pairs = sorted({(h, u) for h in self.hands[seat] for u in self.up[seat]})
            return [Swap(seat, h, u) for h, u in pairs] + [Ready(seat)]
        if self.chooser is not None:
            return [Target(seat, t) for t in self._targets(seat)]
        actions: list[Action] = []
        hand = self.hands[seat]
        if hand:
            by_rank: dict[int, list[int]] = {}
            for c in sorted(hand):
                by_rank.setdefault(c >> 2, []).append(c)
            for r, same in by_rank.items():
                if self._why_not(r, seat) is None:
                    actions += [Play(seat, tuple(same[:k])) for k in range(1, len(same) + 1)]
            can_play = bool(actions)
        else:
            can_play = True  # a face-down card can always be turned
        # A seat picks up only when it cannot play, a seat targeted by an Ace included: it must
        # answer when it can (RULES.md 5, Decision), unless voluntary_pickup.
        if self.pile and (self.voluntary_pickup or not can_play):
            actions.append(PickUp(seat))
        if not hand and self.down[seat]:
            actions.append(Reveal(seat))
        return actions

    def apply(self, action: Action) -> list[Event]:
        if self._outcome is not None:
            raise IllegalAction("the game is over")
        if not isinstance(action, Action):
            raise IllegalAction(f"expected an action (Swap, Ready, Play, PickUp, Target, Reveal), got {action!r}")
        seat = action.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction(f"there is no seat {seat!r} (seats are 0 to {self.n - 1})")
        current = self.current_seat()
        if self.phase == "swap":
            return self._apply_swap(action, current)
        if seat != current:
            raise IllegalAction(f"only seat {current} may play now")
        if isinstance(action, Target):
            return self._apply_target(action)
        if self.chooser is not None:
            raise IllegalAction(f"seat {seat} laid an Ace: it must first choose the seat that picks up the pile")
        if isinstance(action, Play):
            return self._apply_play(action)
        if isinstance(action, PickUp):
            return self._apply_pickup(seat)
        if isinstance(action, Reveal):
            return self._apply_reveal(seat)
        if isinstance(action, (Swap, Ready)):
            raise IllegalAction("swapping is over: cards may only be swapped before play starts")
        raise IllegalAction(f"norvégienne has no {type(action).__name__} action "
                            "(expected Play, PickUp, Target or Reveal)")

    def snapshot(self) -> dict[str, Any]:
        """Everything, for journals and tests: per seat its hand, face-up cards and face-down count."""
        snap = super().snapshot()
        snap.update({
            "preset": self.preset,
            "phase": self.phase,
            "turn": self.current_seat(),
            "seats": [{"hand": sorted(self.hands[s]), "up": list(self.up[s]), "down": len(self.down[s]),
                       "ready": self.ready[s], "in_play": self.in_play[s]} for s in range(self.n)],
            "pile": list(self.pile),
            "stock": len(self.stock),
            "burned": len(self.burned),
            "ace_chooser": self.chooser,
            "ace_target": self.target,
            "last_layer": self.last_layer,
            "places": list(self.places),
            "outcome": None if self._outcome is None else
            {"termination": self._outcome.termination, "winner": self._outcome.winner},
        })
        return snap

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see ("pass the box"): its own hand; of every seat the hand size, the
        face-up cards and the face-down count; the pile, stock and burned sizes; whose move it is."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise ValueError(f"view: there is no seat {seat!r} (seats are 0 to {self.n - 1})")
        return {
            "seat": seat,
            "phase": self.phase,
            "turn": self.current_seat(),
            "hand": sorted(self.hands[seat]),
            "seats": [{"hand": len(self.hands[s]), "up": list(self.up[s]), "down": len(self.down[s]),
                       "in_play": self.in_play[s]} for s in range(self.n)],
            "pile": list(self.pile),
            "stock": len(self.stock),
            "burned": len(self.burned),
            "ace_chooser": self.chooser,
            "ace_target": self.target,
            "places": list(self.places),
            "outcome": None if self._outcome is None else
            {"termination": self._outcome.termination, "winner": self._outcome.winner},
        }

    # --- the steps ----------------------------------------------------------------------------
    def _apply_swap(self, action: Action, current: int | None) -> list[Event]:
        seat = action.seat
        if not isinstance(action, (Swap, Ready)):
            raise IllegalAction(f"seat {current} must swap cards or say it is ready before play starts")
        if seat != current:
            raise IllegalAction(f"only seat {current} may swap now (seats swap in seat order)")
        if isinstance(action, Ready):
            self.ready[seat] = True
            if all(self.ready):
                self.phase = "play"
                self.turn = 0  # seat 0, left of the dealer, leads
            return []
        hand, up = self.hands[seat], self.up[seat]
        if action.hand_card not in hand:
            raise IllegalAction(f"seat {seat} has no {self._name(action.hand_card)} in its hand")
        if action.up_card not in up:
            raise IllegalAction(f"seat {seat} has no {self._name(action.up_card)} among its face-up cards")
        hand[hand.index(action.hand_card)] = action.up_card
        up[up.index(action.up_card)] = action.hand_card
        return [Swapped(seat, action.hand_card, action.up_card)]

    def _apply_target(self, action: Target) -> list[Event]:
        seat = action.seat
        if self.chooser is None:
            raise IllegalAction("no Ace is waiting for a target: a target is chosen right after laying an Ace")
        targets = self._targets(seat)
        if action.target not in targets:
            raise IllegalAction(f"seat {action.target!r} cannot be sent the pile: choose another seat in play "
                                f"({', '.join(map(str, targets))})")
        self.chooser = None
        self.target = action.target
        return [AceTarget(seat, action.target)]

    def _apply_play(self, action: Play) -> list[Event]:
        seat, played = action.seat, action.cards
        if isinstance(played, list):  # as a journal or a screen may hand them over
            played = tuple(played)
        hand = self.hands[seat]
        if not isinstance(played, tuple) or not played:
            raise IllegalAction("a play needs at least one card")
        if not hand:
            raise IllegalAction(f"seat {seat} has no card in hand: it turns a face-down card (Reveal)")
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in played):
            raise IllegalAction(f"a play is a list of cards, got {played!r}")
        if len({c >> 2 for c in played}) != 1:
            raise IllegalAction("the cards of one play must all have the same rank")
        missing = Counter(played) - Counter(hand)
        if missing:
            names = ", ".join(self._name(c) for c in sorted(missing.elements()))
            raise IllegalAction(f"seat {seat} does not hold {names} in its hand")
        reason = self._why_not(played[0] >> 2, seat)
        if reason is not None:
            raise IllegalAction(reason)
        for c in played:
            hand.remove(c)
        self.rounds += 1
        events = self._lay(seat, played, "hand")
        self._check_limit(events)
        return events

    def _apply_pickup(self, seat: int) -> list[Event]:
        if not self.pile:
            raise IllegalAction("there is no pile to pick up")
        if not self.voluntary_pickup and self._can_play(seat):
            if self.target == seat:
                raise IllegalAction(f"seat {seat} must answer the Ace when it can, with an Ace or a 2 "
                                    "(or turn a face-down card), so it may not pick up the pile")
            raise IllegalAction(f"seat {seat} can play, so it may not pick up the pile "
                                "(a seat picks up only when it cannot play)")
        self.rounds += 1
        events = self._take_pile(seat, [])
        self._check_limit(events)
        return events

    def _apply_reveal(self, seat: int) -> list[Event]:
        if self.hands[seat]:
            raise IllegalAction(f"seat {seat} still has cards in its hand: it plays from its hand first")
        if not self.down[seat]:
            raise IllegalAction(f"seat {seat} has no face-down card left")
        down = self.down[seat]
        card = down.pop(randbelow(self.streams["reveal"], len(down)))
        self.rounds += 1
        playable = self._why_not(card >> 2, seat) is None
        events: list[Event] = [Revealed(seat, card, playable)]
        if playable:
            events += self._lay(seat, (card,), "down")
        else:
            # It picks up the pile with that card, and must empty its hand before turning another.
            events += self._take_pile(seat, [card])
        self._check_limit(events)
        return events

    def _lay(self, seat: int, played: Sequence[int], source: str) -> list[Event]:
        """Put cards on the pile and apply what they do: burn, Ace, 8s, then whose turn it is."""
        events: list[Event] = [Played(seat, tuple(played), source)]
        self.target = None  # an Ace answered with an Ace or a 2: the pile stays
        self.pile.extend(played)
        self.cards += len(played)
        self.last_layer = seat
        r = played[0] >> 2
        burn = None
        if r == TEN:
            burn = "ten"
        elif len(self.pile) >= 4 and all(c >> 2 == r for c in self.pile[-4:]):
            burn = "four"  # across plays, 2s too
        if burn is not None:
            events.append(Burned(seat, len(self.pile), burn))
            self.burned += self.pile
            self.pile.clear()
            self.tricks += 1
        self._refill(seat, events)
        if not self._has_cards(seat):
            self._finish(seat, events)
            if self._outcome is not None:
                return events
        if burn is not None:
            # Decision (RULES): the burner leads again; skips of 8s in the burning play do not apply.
            self.turn = seat if self.in_play[seat] else self._next_in_play(seat)
        elif r == ACE:
            self.chooser = seat
        elif r == EIGHT:
            # One seat passed over per 8, counting every seat in play in order, the layer included.
            order = self._cycle_after(seat)
            skipped = tuple(order[i % len(order)] for i in range(len(played)))
            events.append(Skipped(skipped))
            self.turn = order[len(played) % len(order)]
        elif source == "down" and self.blind_chain and self.in_play[seat]:
            # Option blind_chain ("peut en prendre une autre"): read as going on turning while the
            # cards can be laid; there is no pass action, so the chain stops only at a card that
            # cannot be laid, an Ace, an 8 or the last card.
            self.turn = seat
        else:
            self.turn = self._next_in_play(seat)
        return events

    def _take_pile(self, seat: int, extra: list[int]) -> list[Event]:
        """``seat`` takes the pile (and ``extra``, a turned card) into its hand; the last seat to
        have laid cards leads (if it has no card left, the next seat in play)."""
        taken = self.pile + extra
        self.hands[seat] += taken
        self.pile = []
        self.tricks += 1
        self.target = None
        leader = self.last_layer if self.last_layer is not None else seat
        self.turn = leader if self.in_play[leader] else self._next_in_play(leader)
        return [PickedUp(seat, len(taken))]

    def _refill(self, seat: int, events: list[Event]) -> None:
        """Draw back to 3 while the stock lasts; with the stock gone, an empty hand takes the face-up cards."""
        hand = self.hands[seat]
        if self.stock and len(hand) < HAND_SIZE:
            k = min(HAND_SIZE - len(hand), len(self.stock))
            hand += self.stock[:k]
            del self.stock[:k]
            events.append(Drew(seat, k))
        if not hand and not self.stock and self.up[seat]:
            taken = tuple(self.up[seat])
            hand += taken
            self.up[seat] = []
            events.append(TookUp(seat, taken))

    def _finish(self, seat: int, events: list[Event]) -> None:
        """``seat`` has no card left: it wins, or (``rank_all``) takes the next place."""
        self.in_play[seat] = False
        self.places.append(seat)
        if self.rank_all:
            events += [Finished(seat, len(self.places)), SeatOut(seat)]
            rest = [s for s in range(self.n) if self.in_play[s]]
            if len(rest) > 1:
                return
            for last in rest:
                self.in_play[last] = False
                self.places.append(last)
                events.append(Finished(last, len(self.places)))
        self._end(Outcome("win", self.places[0]), events)

    def _check_limit(self, events: list[Event]) -> None:
        if self._outcome is not None or self.max_rounds is None or self.rounds < self.max_rounds:
            return
        self._end(Outcome("limit", self._count_winner()), events)

    def _count_winner(self) -> int | None:
        # Decision: norvégienne is a shedding game, so at the turn limit (or the time limit) the
        # seat with the FEWEST cards wins (a tie for fewest: no winner); a seat already ranked
        # first (rank_all) keeps its win.
        if self.places:
            return self.places[0]
        counts = self.card_counts()
        fewest = min(counts)
        return counts.index(fewest) if counts.count(fewest) == 1 else None

    def trick_in_progress(self) -> bool:
        """A turn is not over: the seat that laid an Ace has yet to name its target (between
        turns, after any other decision, the game may end on time)."""
        return self.chooser is not None

    def _end_game(self, outcome: Outcome, events: list[Event]) -> None:
        self._end(outcome, events)

    def _end(self, outcome: Outcome, events: list[Event]) -> None:
        self._outcome = outcome
        self.phase = "over"
        self.chooser = self.target = None
        events.append(GameOver(outcome.termination, outcome.winner))

    # --- helpers ------------------------------------------------------------------------------
    def _why_not(self, r: int, seat: int) -> str | None:
        """Why a card of rank ``r`` cannot be laid now by ``seat`` (None: it can)."""
        if self.target == seat:
            if r in (ACE, TWO):
                return None
            return (f"seat {seat} must answer the Ace with an Ace or a 2, or pick up the pile "
                    f"({a_rank(r)} is not an answer)")
        if not self.pile or r == TWO:
            return None
        top = self.pile[-1] >> 2
        if top == TWO:
            return None
        if top == SEVEN:
            if r <= SEVEN or (r == ACE and self.ace_on_seven):
                return None
            return f"{a_rank(r)} cannot be laid on a 7 (after a 7 the next play must be 7 or lower)"
        if r >= top:
            return None
        return f"{a_rank(r)} cannot be laid on {a_rank(top)}"

    def _can_play(self, seat: int) -> bool:
        hand = self.hands[seat]
        if not hand:
            return bool(self.down[seat])
        return any(self._why_not(r, seat) is None for r in {c >> 2 for c in hand})

    def _has_cards(self, seat: int) -> bool:
        return bool(self.hands[seat] or self.up[seat] or self.down[seat])

    def _targets(self, seat: int) -> list[int]:
        return [s for s in range(self.n) if self.in_play[s] and s != seat]

    def _next_in_play(self, seat: int) -> int:
        for k in range(1, self.n + 1):
            s = (seat + k) % self.n
            if self.in_play[s]:
                return s
        return seat

    def _cycle_after(self, seat: int) -> list[int]:
        """Seats in play in turn order, starting after ``seat`` (``seat`` last, if in play)."""
        return [s for k in range(1, self.n + 1) if self.in_play[s := (seat + k) % self.n]]

    @staticmethod
    def _name(c: Any) -> str:
        if isinstance(c, int) and not isinstance(c, bool) and 2 <= c >> 2 <= ACE:
            return f"{rank_word(c >> 2)} ({cardlib.name(c)})"
        return repr(c)
