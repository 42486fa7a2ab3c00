"""The small fixed interface every game implements (in the manner of OpenSpiel), and its values."""

from __future__ import annotations

import abc
from dataclasses import dataclass
from collections.abc import Callable
from typing import Any, ClassVar, Literal

from device.rules.actions import Action, Collect, Slap
from device.rules.events import Event

Termination = Literal["win", "draw", "loop", "limit"]


class IllegalAction(Exception):
    """An action the rules forbid now; the message says why (a player can act on it)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``win`` (winner set), ``draw``, ``loop`` (a repeated position: the deal
    never ends, a draw), or ``limit`` (round limit; winner is the seat with most cards or None)."""

    termination: Termination
    winner: int | None = None


class Game(abc.ABC):
    """A pure state machine: whose move, legal actions, apply, outcome.

    Counters the simulator reports: ``cards`` (cards moved from a pack onto the table),
    ``tricks`` (times a pile was collected) and ``rounds`` (bataille/paix rounds, or turns).
    """

    preset: ClassVar[str]
    cards: int
    tricks: int
    rounds: int

    @abc.abstractmethod
    def current_seat(self) -> int | None:
        """The seat whose move it is, or None when only the table can act (collect) or it is over."""

    @abc.abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action that ``apply`` would accept now (slaps by any seat included)."""

    @abc.abstractmethod
    def apply(self, action: Action) -> list[Event]:
        """Apply one action and return what happened as typed events.

        Raises IllegalAction (the game is unchanged) when the rules forbid it.
        """

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game goes on."""

    @property
    def over(self) -> bool:
        return self.outcome() is not None

    @abc.abstractmethod
    def all_cards(self) -> list[int]:
        """Every card the game holds, wherever it is (packs, pile, pot, hands, burned...)."""

    @abc.abstractmethod
    def seat_count(self) -> int:
        """Seats, including players who joined late and seats that are out."""

    @abc.abstractmethod
    def card_counts(self) -> list[int]:
        """Cards each seat holds (pack, or hand + face-up + face-down)."""

    def play_out(self, decide: Callable[[Game], Action] | None = None) -> Outcome:
        """Play to the end with nobody slapping: forced moves are applied, and ``decide(game)``
        chooses whenever a seat has a real choice (norvégienne). Games may override this with a
        faster loop that must give the same result."""
        while (result := self.outcome()) is None:
            actions = [a for a in self.legal_actions() if not isinstance(a, Slap)]
            collect = [a for a in actions if isinstance(a, Collect)]
            if collect:
                self.apply(collect[0])
            elif len(actions) == 1:
                self.apply(actions[0])
            elif decide is None:
                raise IllegalAction(f"seat {self.current_seat()} has a choice and no one to decide it")
            else:
                self.apply(decide(self))
        return result

    def snapshot(self) -> dict[str, Any]:
        """A plain-data view of the state for screens, journals and tests."""
        return {"cards": self.cards, "tricks": self.tricks, "rounds": self.rounds,
                "counts": self.card_counts()}
