"""The challenge games (presets 1-3): Bataille corse, Strip Jack Naked, Egyptian Ratscrew.

One state machine for the three presets; they differ only by options (RULES.md's table): deck,
slap patterns, wrong-slap penalty (``penalties.py``), tens as stoppers, borrowing, when a seat is
out, late joining.

Who acts: the seat whose turn it is lays (`Lay`); when a challenge is won the table waits its
collect delay and applies `Collect` (a valid slap during that pause wins the pile instead); any
seat that is not locked out may `Slap` at any moment; a newcomer may `Join`. ``play_out`` is the
simulator's loop (nobody slaps): the same rules, with the common case (a seat laying from a pack
that keeps at least one card) inlined for speed; every other case goes through the same methods
as ``apply``. Tests check that both paths give identical games.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from device.rules import penalties
from device.rules.actions import Action, Collect, FlipOutOfTurn, Join, Lay, Slap
from device.rules.base import Family, Game, IllegalAction, Outcome
from device.rules.cards import ACE, JACK, JOKER, KING, QUEEN, name
from device.rules.events import (
    ChallengeStopped,
    CollectPending,
    Event,
    GameOver,
    Joined,
    Laid,
    Owes,
    PileReason,
    PileWon,
    SeatBack,
    SeatOut,
)
from device.rules.rng import Streams
from device.rules.slaps import SlapPattern, slap_pattern

MAX_SEATS = 8
ATTEMPTS = {JACK: 1, QUEEN: 2, KING: 3, ACE: 4, JOKER: 5}
# Attempts a card sets, indexed by the card's int value (0: a number card).
_ATTEMPTS_OF_CARD = [ATTEMPTS.get(c >> 2, 0) for c in range(64)]
# For loop detection without slapping: number cards are alike, faces by their attempts.
_LOOP_NORM = bytes(_ATTEMPTS_OF_CARD) + bytes(range(64, 256))
# With ``tens_stop`` a 10 matters too: it is told apart from the other number cards (6: no face).
_LOOP_NORM_TENS = bytes(6 if c >> 2 == 10 else a for c, a in enumerate(_ATTEMPTS_OF_CARD)) + bytes(range(64, 256))


def _position_key(packs: Sequence[deque[int]], turn: int, flags: tuple[int, ...],
                  norm: bytes = _LOOP_NORM) -> bytes:
    """A position for loop detection: every pack in order (number cards alike), who leads, and
    which seats are in play (``flags``: 64 + in-play bit; 64 and up are not cards, so the
    translation leaves them alone)."""
    flat: list[int] = []
    for p in packs:
        flat.extend(p)
        flat.append(255)
    flat.append(64 + turn)
    flat.extend(flags)
    return bytes(flat).translate(norm)


_SLAP_REASON: dict[SlapPattern, PileReason] = {
    "doubles": "slap:doubles", "sandwich": "slap:sandwich", "big-mac": "slap:big-mac",
    "top-bottom": "slap:top-bottom", "marriage": "slap:marriage", "divorce": "slap:divorce",
    "tens": "slap:tens", "ten-on-top": "slap:ten-on-top", "run": "slap:run", "flush": "slap:flush"}


class ChallengeGame(Game):
    """Presets ``bataille-corse``, ``strip-jack-naked`` and ``egyptian-ratscrew``."""

    family: ClassVar[Family] = "challenge"
    has_challenges: ClassVar[bool] = True

    def seat_in_play(self, seat: int) -> bool:
        return self.in_play[seat]

    def __init__(self, preset: str, options: dict[str, Any], packs: Sequence[Sequence[int]],
                 streams: Streams, *, slapping: bool = True) -> None:
        self.preset = preset
        self.options = dict(options)
        self.streams = streams
        self.slapping = slapping and "slaps" in options
        self.patterns: tuple[str, ...] = tuple(options.get("slaps", ()))
        self.run_wraps: bool = bool(options.get("run_wraps", False))
        self.marriage_colour: bool = bool(options.get("marriage_colour", False))
        self.tens_stop: bool = bool(options.get("tens_stop", False))
        self.borrow: bool = options["borrow"]
        self.spares_last: bool = options.get("borrow_spares_last", False)
        self.last_card_out: bool = options["out_when"] == "last-card"
        self.late_join: bool = bool(options.get("late_join", False)) and self.slapping
        self.max_rounds: int | None = options.get("max_rounds")
        self.wrong_slap: str = options.get("wrong_slap", "none")
        self.penalty = penalties.read_penalty(self.wrong_slap)
        self.flip_pay = self.slapping and options.get("wrong_flip", "none") == "pot-1"

        self.packs: list[deque[int]] = [deque(p) for p in packs]
        self.dealt: list[list[int]] = [list(p) for p in packs]
        self.in_play: list[bool] = [bool(p) for p in packs]
        self.locked: list[bool] = [False] * len(packs)
        self.pile: list[int] = []
        self.pot: list[int] = []
        self.under: list[int] = []  # bottom-N: face down under the pile, part of no pattern
        self.unlock_at: dict[int, int] = {}  # lockout-N: seat -> the `laid` count that unlocks it
        self.flip_fined: set[int] = set()  # seats charged for a wrong flip since the last card
        self.pile_base = 0  # the `cards` count when the pile was last empty
        self._pile_patterns: list[SlapPattern | None] = []  # slap pattern after each card of the pile
        self.turn = 0
        self.owed = 0  # attempts the seat whose turn it is still has to lay
        self.challenger: int | None = None  # the seat whose face card set the current challenge
        self.collector: int | None = None  # the seat that won the challenge and will collect
        self._paying = False  # the seat whose turn it is has laid at least one attempt
        self.laid = 0  # cards laid on the pile (a slap's ``at_card`` counts these)
        self.paid = 0  # cards paid to the pot for wrong slaps (face down on the table)
        self.tricks = self.rounds = 0
        self._outcome: Outcome | None = None
        self._seen: set[bytes] | None = None if self.slapping else set()
        # Brent's cycle finder, used by play_out from the first card (see _brent_step):
        # (saved key, saved turn, saved len(pack 0), power, lam) or None.
        self._brent: tuple[bytes, int, int, int, int] | None = None

        events: list[Event] = []
        self.start_events = events
        if not any(self.in_play):
            self._finish(Outcome("draw", None), events)
            return
        if not self.in_play[0]:
            self.turn = self._next(0)
        if not self._settle(events):
            self._trick_started(events)

    # --- the interface -------------------------------------------------------------------
    @property
    def cards(self) -> int:
        return self.laid + self.paid

    def current_seat(self) -> int | None:
        if self._outcome is not None or self.collector is not None:
            return None
        return self.turn

    def legal_actions(self) -> list[Action]:
        if self._outcome is not None:
            return []
        actions: list[Action] = [Collect(self.collector) if self.collector is not None
                                 else Lay(self.turn)]
        if self.slapping:
            actions += [Slap(s) for s in range(len(self.packs)) if not self.locked[s]]
        if self.flip_pay:
            actions += [FlipOutOfTurn(s) for s in range(len(self.packs))
                        if penalties.wrong_flip_costs(self, s)]
        if self.late_join and len(self.packs) < MAX_SEATS:
            actions.append(Join(len(self.packs)))
        return actions

    def outcome(self) -> Outcome | None:
        return self._outcome

    def seat_count(self) -> int:
        return len(self.packs)

    def card_counts(self) -> list[int]:
        return [len(p) for p in self.packs]

    def all_cards(self) -> list[int]:
        cards = [c for p in self.packs for c in p]
        return cards + self.under + self.pile + self.pot

    def slappable(self) -> SlapPattern | None:
        """The pattern the pile shows now (None: a slap now is a wrong slap)."""
        if not self.slapping or not self._pile_patterns:
            return None
        return self._pile_patterns[-1]

    def slappable_at(self, card: int) -> SlapPattern | None:
        """The pattern the pile showed just after card number ``card`` was laid, if that card is
        still on the pile (None otherwise: a slap on it is wrong, or comes too late)."""
        i = card - self.pile_base - 1
        return self._pile_patterns[i] if 0 <= i < len(self._pile_patterns) else None

    def apply(self, action: Action) -> list[Event]:
        if self._outcome is not None:
            raise IllegalAction("the game is over")
        seat = action.seat
        events: list[Event] = []
        if isinstance(action, Lay):
            if self.collector is not None:
                raise IllegalAction(f"seat {self.collector} is about to collect the pile; nobody lays now")
            if seat != self.turn:
                raise IllegalAction(f"it is seat {self.turn}'s turn to lay, not seat {seat}'s")
            self._lay(events)
        elif isinstance(action, Collect):
            if self.collector is None:
                raise IllegalAction("there is no won pile to collect")
            if seat != self.collector:
                raise IllegalAction(f"seat {self.collector} won the pile, not seat {seat}")
            self._collect(seat, "challenge", events)
        elif isinstance(action, Slap):
            self._slap(seat, action.at_card, events)
        elif isinstance(action, Join):
            self._join(seat, events)
        elif isinstance(action, FlipOutOfTurn):
            if not penalties.wrong_flip_costs(self, seat):
                raise IllegalAction(f"a FLIP of seat {seat} costs nothing now (its turn, no card, "
                                    "already paid on this card, or wrong_flip is none)")
            penalties.wrong_flip(self, seat, events)
        else:
            raise IllegalAction(f"{type(action).__name__} is not an action of {self.preset}")
        self._after(events)
        return events

    # --- laying --------------------------------------------------------------------------
    def _lay(self, events: list[Event]) -> None:
        s = self.turn
        source = s
        if not self.packs[s]:
            # Only a paying seat that can borrow is ever left to lay from an empty pack.
            lender = self._lender(s)
            assert lender is not None, "a seat with no card lays only when it can borrow"
            source = lender
        c = self.packs[source].popleft()
        self._put(c, events)
        events.append(Laid(s, c, borrowed_from=None if source == s else source))
        attempts = _ATTEMPTS_OF_CARD[c]
        if attempts:
            # A seat whose last card set the challenge being answered stays in play: the challenge
            # is settled only when the pile is won (RULES.md, Out); if it comes back, it borrows.
            self.rounds += 1
            self.challenger = s
            self.owed = attempts
            self._paying = False
            nxt = self._next(s)
            self.turn = nxt
            if nxt != s:  # else s is the last seat in play: _after makes it win
                events.append(Owes(nxt, attempts))
        elif self.owed and self.tens_stop and c >> 2 == 10:
            self._stopped(s, events)
        elif self.owed:
            self.owed -= 1
            self._paying = True
            if self.owed == 0:
                self.rounds += 1
                self._challenge_won(events)
                if self.last_card_out and not self.packs[s]:
                    self._out(s, events)
            else:
                events.append(Owes(s, self.owed))
        else:
            self.rounds += 1
            if self.last_card_out and not self.packs[s]:
                self._out(s, events)
            self.turn = self._next(s)

    def _put(self, c: int, events: list[Event]) -> None:
        self.pile.append(c)
        self.laid += 1
        if self.slapping:
            self._pile_patterns.append(slap_pattern(self.pile, self.patterns, run_wraps=self.run_wraps,
                                                    marriage_colour=self.marriage_colour))
            if self.unlock_at or self.flip_fined:
                penalties.card_laid(self, events)

    def _stopped(self, s: int, events: list[Event]) -> None:
        """``tens_stop``: seat ``s`` laid a 10 as an attempt. The challenge ends, nobody wins the
        pile, and the next seat lays as at the start of a trick (the pile stays where it is)."""
        self.rounds += 1
        self.owed = 0
        self.challenger = None
        self._paying = False
        events.append(ChallengeStopped(s))
        if self.last_card_out and not self.packs[s]:
            self._out(s, events)
        self.turn = self._next(s)

    def _lender(self, s: int) -> int | None:
        """Whose pack a challenged seat with none lays from: the challenger, else the next seat
        back with cards (keeping its last card with ``borrow_spares_last``)."""
        keep = 1 if self.spares_last else 0
        n = len(self.packs)
        start = self.challenger if self.challenger is not None else s
        for i in range(n):
            t = (start - i) % n
            if t != s and len(self.packs[t]) > keep:
                return t
        return None

    def _challenge_won(self, events: list[Event]) -> None:
        winner = self.challenger
        assert winner is not None, "a challenge is won only while one is owed"
        self.collector = winner
        self.owed = 0
        self._paying = False
        events.append(CollectPending(winner))

    # --- piles ---------------------------------------------------------------------------
    def _take_pile(self, seat: int, reason: PileReason, events: list[Event]) -> None:
        """``seat`` puts the pile, then the pot, under its pack (a trick if the pile had cards)."""
        n_pile, n_pot = len(self.pile), len(self.pot) + len(self.under)
        pack = self.packs[seat]
        if self.under:  # Decision: the cards under the pile come first, as they lie at its bottom
            pack.extend(self.under)
            self.under.clear()
        pack.extend(self.pile)
        pack.extend(self.pot)
        self.pile.clear()
        self.pot.clear()
        self._pile_patterns.clear()
        self.pile_base = self.laid
        if n_pile:
            self.tricks += 1
        events.append(PileWon(seat, reason, n_pile, n_pot))

    def _collect(self, seat: int, reason: PileReason, events: list[Event]) -> None:
        self._take_pile(seat, reason, events)
        self.collector = self.challenger = None
        self.owed = 0
        self._paying = False
        if self.slapping:
            # lockout-N lasts for its cards, a won pile or not
            self.locked = [s in self.unlock_at for s in range(len(self.packs))]
        if not self.in_play[seat]:
            self.in_play[seat] = True
            events.append(SeatBack(seat))
        for t, p in enumerate(self.packs):
            if self.in_play[t] and not p:
                self._out(t, events)
        self.turn = seat
        if not self._settle(events):
            self._trick_started(events)

    def _trick_started(self, events: list[Event]) -> None:
        """Loop detection (simulator only: with slapping, a repeated position may still end)."""
        if self._brent is not None:
            if self._brent_step(events):
                return
            return
        if self._seen is None:
            return
        key = _position_key(self.packs, self.turn, tuple(64 + f for f in self.in_play),
                            _LOOP_NORM_TENS if self.tens_stop else _LOOP_NORM)
        if key in self._seen:
            self._finish(Outcome("loop", None), events)
        else:
            self._seen.add(key)

    # --- slaps ---------------------------------------------------------------------------
    def _slap(self, seat: int, at_card: int | None, events: list[Event]) -> None:
        if not self.slapping:
            raise IllegalAction(f"nobody slaps in {self.preset} here")
        if not 0 <= seat < len(self.packs):
            raise IllegalAction(f"there is no seat {seat}")
        if self.locked[seat]:
            raise IllegalAction(f"seat {seat} is locked out until the pile is next won"
                                if seat not in self.unlock_at else
                                f"seat {seat} is locked out until card {self.unlock_at[seat]} is laid")
        if at_card is None:  # judged on the pile as it is now
            pattern = self._pile_patterns[-1] if self._pile_patterns else None
        else:
            k = at_card
            if k > self.laid:
                raise IllegalAction(f"card {k} has not been laid yet")
            if k < self.pile_base or k == self.pile_base > 0:
                raise IllegalAction(f"card {k} is no longer on the pile (the pile was won since)")
            pattern = self.slappable_at(k)
        if pattern is not None:
            self._collect(seat, _SLAP_REASON[pattern], events)
            return
        penalties.wrong_slap(self, seat, events)

    def _join(self, seat: int, events: list[Event]) -> None:
        if not self.late_join:
            raise IllegalAction(f"late joining is off in this game of {self.preset}")
        if len(self.packs) >= MAX_SEATS:
            raise IllegalAction(f"all {MAX_SEATS} seats are taken")
        if seat != len(self.packs):
            raise IllegalAction(f"the next free seat is {len(self.packs)}, not {seat}")
        self.packs.append(deque())
        self.dealt.append([])
        self.in_play.append(False)
        self.locked.append(False)
        events.append(Joined(seat))

    # --- seats and the end ---------------------------------------------------------------
    def _next(self, s: int) -> int:
        """The next seat clockwise after ``s`` that is still in play; ``s`` itself when no other
        seat is (then the game is settled before anyone lays again)."""
        n = len(self.in_play)
        for i in range(1, n):
            t = (s + i) % n
            if self.in_play[t]:
                return t
        return s

    def _out(self, seat: int, events: list[Event]) -> None:
        self.in_play[seat] = False
        events.append(SeatOut(seat))

    def _after(self, events: list[Event]) -> None:
        """After every action: resolve seats that cannot lay, then the end and the round limit."""
        if self._settle(events):
            return
        while self.collector is None:
            s = self.turn
            if self.in_play[s] and self.packs[s]:
                break
            if self.in_play[s] and self.owed and self.borrow and self._lender(s) is not None:
                break  # it lays from a borrowed pack
            # A seat that must lay (or pay) and has no card is out (an out seat never lays);
            # a challenged seat that cannot pay loses the challenge.
            if self.owed:
                if self._paying:
                    self.rounds += 1
                self._challenge_won(events)
            else:
                self.turn = self._next(s)
            if self.in_play[s]:
                self._out(s, events)
            if self._settle(events):
                return
        if self.max_rounds is not None and self.rounds >= self.max_rounds:
            self._finish(self._limit_outcome(), events)

    def _settle(self, events: list[Event]) -> bool:
        """When at most one seat is in play it takes the pile and the pot and wins. True if over."""
        if self._outcome is not None:
            return True
        if self.in_play.count(True) > 1:  # after every action: the usual answer, counted in C
            return False
        playing = [s for s, p in enumerate(self.in_play) if p]
        if not playing:
            self._finish(Outcome("draw", None), events)
            return True
        winner = playing[0]
        if self.pile or self.pot:
            self._take_pile(winner, "challenge" if self.collector == winner else "last-seat", events)
        self.collector = None
        self.turn = winner
        self._finish(Outcome("win", winner), events)
        return True

    def _limit_outcome(self) -> Outcome:
        return Outcome("limit", self._count_winner())

    def _finish(self, outcome: Outcome, events: list[Event]) -> None:
        self._outcome = outcome
        events.append(GameOver(outcome.termination, outcome.winner))

    def _end_game(self, outcome: Outcome, events: list[Event]) -> None:
        # the time limit, between tricks: a pot a wrong slap fed since stays on the table
        self._finish(outcome, events)

    # --- the simulator's loop ------------------------------------------------------------
    def play_out(self, decide: Callable[[Game], Action] | None = None) -> Outcome:
        """Play to the end with nobody slapping. Same result as applying the forced actions one by
        one (tested).

        The simulator and the benchmarks live here, so the common case is inlined on local
        variables: a seat laying from a pack that keeps a card, and a won challenge whose
        collection puts no seat out. Everything else (a pack running out, borrowing, the round
        limit, the end) is handed to the same methods ``apply`` uses, then the loop goes on.

        Loops: from a fresh game, Brent's algorithm keeps one saved position instead of every
        position (building a position's key costs more than playing its trick); once it finds
        the cycle's length, ``_first_repeat`` replays the deal to stop exactly where the first
        repeated position is reached, as the set of every position would have.
        """
        if self.slapping or self.tens_stop:  # a 10 that stops a challenge: the full path
            return super().play_out(decide)
        if self._seen is not None and self.laid == 0 and len(self._seen) == 1 and self._outcome is None:
            key = next(iter(self._seen))
            self._seen = None
            self._brent = (key, self.turn, len(self.packs[0]), 1, 0)
        self._run(None)
        outcome = self._outcome
        assert outcome is not None, "with no trick to stop at, _run plays to the end"
        return outcome

    def _run(self, stop_tricks: int | None) -> None:
        """The simulator's loop; stops at the end, or at the trick start ``stop_tricks``."""
        packs, pile, attempts_of, seen = self.packs, self.pile, _ATTEMPTS_OF_CARD, self._seen
        norm = _LOOP_NORM
        limit = self.max_rounds if self.max_rounds is not None else 1 << 62
        stop_at = stop_tricks if stop_tricks is not None else -1
        scratch: list[Event] = []
        while self._outcome is None and self.tricks != stop_at:
            if self.collector is not None:
                self._collect(self.collector, "challenge", scratch)
            else:
                self._after(scratch)  # a seat that cannot lay is resolved first
                if self._outcome is None and self.collector is None:
                    self._lay(scratch)
            self._after(scratch)
            scratch.clear()
            if self._outcome is not None or self.collector is not None or self.tricks == stop_at:
                continue
            # Fast section, on locals; written back before any full-path call.
            n = len(packs)
            playing = [t for t in range(n) if self.in_play[t]]
            nxt = [0] * n
            for t in range(n):
                nxt[t] = self._next(t)
            flags = tuple(64 + f for f in self.in_play)
            p0, p1 = packs[0], packs[-1]
            brent = self._brent
            if brent is not None:
                b_key, b_turn, b_len0, b_power, b_lam = brent
            # Without slaps the pile only grows until it is won, so `laid` is derived from it.
            laid_before_pile = self.laid - len(pile)
            rounds, tricks = self.rounds, self.tricks
            owed, turn = self.owed, self.turn
            # The challenger's seat, -1 for none: read only while a challenge is owed (owed > 0).
            challenger = -1 if self.challenger is None else self.challenger
            set_owed = owed + 1 if self._paying else owed  # what the challenge asked (for _paying)
            collector = None
            stop = limit - 1
            while True:
                pack = packs[turn]
                if len(pack) < 2 or rounds >= stop:
                    break
                c = pack.popleft()
                a = attempts_of[c]
                if a:
                    pile.append(c)
                    rounds += 1
                    challenger = turn
                    owed = set_owed = a
                    turn = nxt[turn]
                elif owed:
                    pile.append(c)
                    owed -= 1
                    if owed:
                        continue
                    rounds += 1
                    winner = challenger
                    won = packs[winner]
                    won.extend(pile)
                    if not all(packs[t] for t in playing):
                        # Someone is out: let the full path collect. Undo the inline extend.
                        for _ in range(len(pile)):
                            won.pop()
                        collector = winner
                        break
                    laid_before_pile += len(pile)
                    pile.clear()
                    tricks += 1
                    challenger = -1
                    turn = winner
                    if brent is not None:  # _brent_step, inlined
                        b_lam += 1
                        if turn == b_turn and len(p0) == b_len0:
                            key = (bytes((*p0, 255, *p1, 255, 64 + turn, *flags)).translate(norm)
                                   if n == 2 else _position_key(packs, turn, flags))
                            if key == b_key:
                                collector = -2  # the cycle's length is b_lam
                                break
                        if b_lam == b_power:
                            b_key = (bytes((*p0, 255, *p1, 255, 64 + turn, *flags)).translate(norm)
                                     if n == 2 else _position_key(packs, turn, flags))
                            b_turn, b_len0, b_power, b_lam = turn, len(p0), b_power * 2, 0
                    elif seen is not None:
                        if n == 2:  # the same bytes as _position_key, spelt out for speed
                            key = bytes((*p0, 255, *p1, 255, 64 + turn, *flags)).translate(norm)
                        else:
                            key = _position_key(packs, turn, flags)
                        if key in seen:
                            collector = -1  # a loop: finish through the full path below
                            break
                        seen.add(key)
                    if tricks == stop_at:
                        break
                else:
                    pile.append(c)
                    rounds += 1
                    turn = nxt[turn]
            self.laid, self.rounds, self.tricks = laid_before_pile + len(pile), rounds, tricks
            self.owed, self.challenger, self.turn = owed, None if challenger < 0 else challenger, turn
            self._paying = 0 < owed < set_owed
            self.pile_base = laid_before_pile
            if brent is not None:
                self._brent = (b_key, b_turn, b_len0, b_power, b_lam)
            if collector == -1:
                self._finish(Outcome("loop", None), scratch)
            elif collector == -2:
                self._first_repeat(b_lam, scratch)
            elif collector is not None:
                self.collector = collector

    def _brent_step(self, events: list[Event]) -> bool:
        """One trick start under Brent's algorithm; True when the game ended in a loop."""
        brent = self._brent
        assert brent is not None
        b_key, b_turn, b_len0, b_power, b_lam = brent
        b_lam += 1
        flags = tuple(64 + f for f in self.in_play)
        if self.turn == b_turn and len(self.packs[0]) == b_len0:
            if _position_key(self.packs, self.turn, flags) == b_key:
                self._first_repeat(b_lam, events)
                return True
        if b_lam == b_power:
            b_key = _position_key(self.packs, self.turn, flags)
            b_turn, b_len0, b_power, b_lam = self.turn, len(self.packs[0]), b_power * 2, 0
        self._brent = (b_key, b_turn, b_len0, b_power, b_lam)
        return False

    def _first_repeat(self, period: int, events: list[Event]) -> None:
        """Brent found a cycle of ``period`` tricks: replay the deal to where the first repeated
        position is reached (trick mu + period), take that state, and end the game in a loop."""
        def fresh() -> ChallengeGame:
            game = ChallengeGame(self.preset, self.options, self.dealt, self.streams, slapping=False)
            game._seen = None
            return game

        def key(game: ChallengeGame) -> bytes:
            return _position_key(game.packs, game.turn, tuple(64 + f for f in game.in_play))

        behind, ahead = fresh(), fresh()
        ahead._run(period)
        while key(behind) != key(ahead):
            behind._run(behind.tricks + 1)
            ahead._run(ahead.tricks + 1)
        for attr in ("packs", "in_play", "locked", "pile", "pot", "under", "pile_base", "_pile_patterns",
                     "turn", "owed", "challenger", "collector", "_paying", "laid", "paid",
                     "tricks", "rounds"):
            setattr(self, attr, getattr(ahead, attr))
        self._brent = None
        self._finish(Outcome("loop", None), events)

    # --- views ---------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        snap = super().snapshot()
        snap.update({
            "preset": self.preset,
            "packs": [len(p) for p in self.packs],
            "in_play": list(self.in_play),
            "locked": list(self.locked),
            "pile": [name(c) for c in self.pile],
            "pot": len(self.pot),
            "under": len(self.under),
            "turn": self.current_seat(),
            "owed": self.owed,
            "challenger": self.challenger,
            "collector": self.collector,
            "slappable": self.slappable(),
        })
        return snap

    def state_key(self) -> tuple[object, ...]:
        """Everything that decides the rest of the game (for tests comparing two runs)."""
        return (tuple(tuple(p) for p in self.packs), tuple(self.pile), tuple(self.pot),
                tuple(self.under), tuple(sorted(self.unlock_at.items())), tuple(sorted(self.flip_fined)),
                tuple(self.in_play), tuple(self.locked), self.turn, self.owed, self.challenger,
                self.collector, self.cards, self.tricks, self.rounds, self._outcome)
