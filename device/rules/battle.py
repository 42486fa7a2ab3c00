"""Bataille and Paix (RULES.md section 4): rounds of turned cards, battles and peaces, as a state machine."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from device.rules import cards as cardlib
from device.rules.actions import Action, Collect, Lay, Slap
from device.rules.base import Family, Game, IllegalAction, Outcome
from device.rules.events import Battle, CollectPending, Event, GameOver, Laid, PileWon, SeatOut
from device.rules.presets import PRESETS
from device.rules.rng import Streams

# bytes.translate table: card int -> rank, so a position compares packs by rank only (suits never count).
_RANK_OF = bytes((c >> 2) for c in range(256))


class _Entry:
    """One seat's cards in one stage: face-down cards, then the face-up card.

    ``card`` is the card that counts for this seat in this stage. ``up`` is the face-up card laid
    in it, or None when the seat had no card left and ``kept`` its previous face-up card, which
    counts again and stays where it lies on the table (RULES Decision).
    """

    __slots__ = ("card", "down", "up")

    def __init__(self, down: list[int], card: int, *, kept: bool = False) -> None:
        self.down = down
        self.card = card
        self.up: int | None = None if kept else card


class BattleGame(Game):
    """``bataille`` (highest rank wins) and ``paix`` (lowest rank wins).

    A round: every seat in play turns its top card (stage 0). A tie for the winning rank starts a
    battle (or peace) stage joined by the tied seats or by every seat of the round
    (``tie_joiners``); each joiner lays ``tie_cards_down`` cards face down, then one face up. A
    single winner collects the whole table (``Collect``), which ends the round.
    """

    family: ClassVar[Family] = "battle"
    cards: int = 0

    def seat_in_play(self, seat: int) -> bool:
        return self._in_play[seat]

    def __init__(self, preset: str, options: dict[str, Any], packs: Sequence[Sequence[int]],
                 streams: Streams) -> None:
        if preset not in ("bataille", "paix"):
            raise ValueError(f"BattleGame plays 'bataille' or 'paix', not {preset!r}")
        for seat, pack in enumerate(packs):
            for c in pack:
                if not isinstance(c, int) or not 2 <= c >> 2 <= cardlib.JOKER:
                    raise cardlib.DealError(
                        f"deal: pack {seat} holds card {c!r}, which {preset} cannot compare "
                        "(expected cards of rank 2..A or a joker)")
        self.preset = preset
        self.options = {**PRESETS[preset].defaults, **options}
        self.streams = streams
        self.peace = preset == "paix"
        self.down_count: int = self.options["tie_cards_down"]
        self.all_join: bool = self.options["tie_joiners"] == "all"
        self.shuffle_pickup: bool = self.options["shuffle_pickup"]
        self.max_rounds: int | None = self.options["max_rounds"]
        self.cards = 0
        self.tricks = 0
        self.rounds = 0
        self._packs: list[deque[int]] = [deque(p) for p in packs]
        self.dealt = [list(p) for p in packs]
        self._total = sum(len(p) for p in packs)
        self._in_play = [bool(p) for p in packs]
        self._table: list[dict[int, _Entry]] = []
        self._joiners: list[int] = []   # seats laying in the current stage, in seat order
        self._next = 0                  # index in _joiners of the next seat to lay
        self._pending: int | None = None
        self._outcome: Outcome | None = None
        self._seen: set[bytes] = set()
        holders = [s for s, p in enumerate(packs) if p]
        if len(holders) <= 1:
            self._outcome = Outcome("win", holders[0]) if holders else Outcome("draw", None)
            return
        if not self.shuffle_pickup:  # shuffled pick-ups make repeats meaningless
            self._seen.add(self._position())
        self._start_round()

    # --- the interface ----------------------------------------------------------------------
    def current_seat(self) -> int | None:
        if self._outcome is not None or self._pending is not None:
            return None
        return self._joiners[self._next]

    def legal_actions(self) -> list[Action]:
        if self._outcome is not None:
            return []
        if self._pending is not None:
            return [Collect(self._pending)]
        return [Lay(self._joiners[self._next])]

    def apply(self, action: Action) -> list[Event]:
        if self._outcome is not None:
            raise IllegalAction(f"the game is over ({self._outcome.termination}); no more moves")
        if isinstance(action, Slap):
            raise IllegalAction(f"no slapping in {self.preset}")
        if isinstance(action, Lay):
            if self._pending is not None:
                raise IllegalAction(f"seat {self._pending} must collect the table before anyone lays")
            seat = self._joiners[self._next]
            if action.seat != seat:
                raise IllegalAction(f"it is seat {seat}'s turn to lay, not seat {action.seat}'s")
            events: list[Event] = []
            self._lay(seat, events)
            return events
        if isinstance(action, Collect):
            if self._pending is None:
                raise IllegalAction("nothing to collect: the table has no winner yet")
            if action.seat != self._pending:
                raise IllegalAction(f"seat {self._pending} won the table, not seat {action.seat}")
            events = []
            self._collect(events)
            return events
        raise IllegalAction(f"{type(action).__name__} is not a move of {self.preset} (only Lay and Collect)")

    def outcome(self) -> Outcome | None:
        return self._outcome

    def play_out(self, decide: Callable[[Game], Action] | None = None) -> Outcome:
        """Play to the end: every move is forced, so this skips the legality checks of ``apply``
        (the same internal steps, hence the same result; a test checks it)."""
        sink: list[Event] = []
        while self._outcome is None:
            if self._pending is not None:
                self._collect(sink)
            else:
                self._lay(self._joiners[self._next], sink)
            sink.clear()
        return self._outcome

    def all_cards(self) -> list[int]:
        out = [c for p in self._packs for c in p]
        out.extend(self._table_cards())
        return out

    def pack(self, seat: int) -> list[int]:
        """``seat``'s pack, top card first."""
        return list(self._packs[seat])

    def seat_count(self) -> int:
        return len(self._packs)

    def card_counts(self) -> list[int]:
        return [len(p) for p in self._packs]

    def snapshot(self) -> dict[str, Any]:
        """Base counters plus pack sizes, in-play flags, the table stage by stage, the seats laying
        in the current stage (``joiners``), the next to lay and the pending winner. A table entry is ``{"down": [...], "up": card}``; a seat that had no card left has
        ``"up": None`` and ``"kept"``: its earlier face-up card, which counts for it there."""
        snap = super().snapshot()
        table = []
        for stage in self._table:
            view: dict[int, dict[str, Any]] = {}
            for seat, e in stage.items():
                view[seat] = {"down": list(e.down), "up": e.up}
                if e.up is None:
                    view[seat]["kept"] = e.card
            table.append(view)
        snap.update({
            "preset": self.preset,
            "packs": [len(p) for p in self._packs],
            "in_play": list(self._in_play),
            "table": table,
            "joiners": list(self._joiners) if self._table else [],
            "to_lay": self.current_seat(),
            "pending": self._pending,
            "outcome": None if self._outcome is None else
            {"termination": self._outcome.termination, "winner": self._outcome.winner},
        })
        return snap

    # --- the steps ------------------------------------------------------------------------------
    def _start_round(self) -> None:
        self._joiners = [s for s, inp in enumerate(self._in_play) if inp]
        self._table = [{}]
        self._next = 0

    def _lay(self, seat: int, events: list[Event]) -> None:
        """Lay ``seat``'s cards for the current stage; resolve the stage when it was the last."""
        pack = self._packs[seat]
        stage = self._table[-1]
        if len(self._table) == 1:
            c = pack.popleft()
            self.cards += 1
            stage[seat] = _Entry([], c)
            events.append(Laid(seat, c))
        elif pack:
            n = min(self.down_count, len(pack) - 1)  # a short pack still turns its last card up
            down = [pack.popleft() for _ in range(n)]
            up = pack.popleft()
            self.cards += n + 1
            stage[seat] = _Entry(down, up)
            events.extend(Laid(seat, c, face_up=False) for c in down)
            events.append(Laid(seat, up))
        else:
            # RULES Decision: no card left, so the seat's previous face-up card counts here too.
            stage[seat] = _Entry([], self._table[-2][seat].card, kept=True)
        self._next += 1
        if self._next == len(self._joiners):
            self._resolve(events)

    def _resolve(self, events: list[Event]) -> None:
        stage = self._table[-1]
        ranks = {seat: e.card >> 2 for seat, e in stage.items()}
        best = min(ranks.values()) if self.peace else max(ranks.values())
        tied = [seat for seat in self._joiners if ranks[seat] == best]
        if len(tied) == 1:
            self._pending = tied[0]
            events.append(CollectPending(tied[0]))
            return
        joiners = list(self._table[0]) if self.all_join else tied
        self._table.append({})
        self._joiners = joiners
        self._next = 0
        events.append(Battle(tuple(joiners), len(self._table) - 1, peace=self.peace))
        if not any(self._packs[s] for s in joiners):
            self._end(Outcome("draw", None), events)

    def _table_cards(self) -> list[int]:
        """The table in pick-up order: stage by stage, seat by seat, face-down before face-up."""
        out: list[int] = []
        for stage in self._table:
            for e in stage.values():  # seats were entered in seat order
                out.extend(e.down)
                if e.up is not None:
                    out.append(e.up)
        return out

    def _collect(self, events: list[Event]) -> None:
        winner = self._pending
        assert winner is not None
        won = self._table_cards()
        if self.shuffle_pickup:
            cardlib.shuffle(won, self.streams["pickup"])
        self._packs[winner].extend(won)
        self._pending = None
        self._table = []
        self.tricks += 1
        self.rounds += 1
        events.append(PileWon(winner, "round", len(won)))
        for seat, pack in enumerate(self._packs):
            if self._in_play[seat] and not pack:
                self._in_play[seat] = False
                events.append(SeatOut(seat))
        if len(self._packs[winner]) == self._total:
            self._end(Outcome("win", winner), events)
            return
        if not self.shuffle_pickup:
            key = self._position()
            if key in self._seen:
                self._end(Outcome("loop", None), events)
                return
            self._seen.add(key)
        if self.max_rounds is not None and self.rounds >= self.max_rounds:
            # RULES.md 4: paix still running at its limit is a draw whatever the counts ("match
            # nul"); bataille reports the limit and the seat with most cards (a tie: no winner).
            self._end(Outcome("draw", None) if self.peace else Outcome("limit", self._count_winner()), events)
            return
        self._start_round()

    def _position(self) -> bytes:
        """Every pack in order by rank only, and which seats are in play (no one leads here)."""
        flags = bytes(self._in_play)
        return flags + b"\x00".join(bytes(p) for p in self._packs).translate(_RANK_OF)

    def _end(self, outcome: Outcome, events: list[Event]) -> None:
        self._outcome = outcome
        events.append(GameOver(outcome.termination, outcome.winner))

    def _end_game(self, outcome: Outcome, events: list[Event]) -> None:
        self._end(outcome, events)

    def trick_in_progress(self) -> bool:
        """A round is under way: a card of it is on the table, or its winner has yet to collect
        (between rounds the table is empty)."""
        return self._pending is not None or any(self._table)
