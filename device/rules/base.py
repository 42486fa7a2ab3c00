"""The small fixed interface every game implements (in the manner of OpenSpiel), and its values."""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from device.errors import SlapboxError
from device.rules.actions import Action, Collect, Slap
from device.rules.events import Event, Termination
from device.rules.slaps import SlapPattern

if TYPE_CHECKING:
    from device.rules.rng import Streams

#: what a game records of its deal, JSON-ready: each seat's pack, top card first (challenge, battle),
#: or norvégienne's ``{"down", "up", "hand": a list of cards per seat, "stock": top card first}``
Dealt = list[list[int]] | dict[str, Any]

#: the three shapes of game in the rule book (challenge: Bataille corse and its cousins; battle:
#: bataille and paix; shedding: norvégienne)
Family = Literal["challenge", "battle", "shedding"]


class IllegalAction(SlapboxError):
    """An action the rules forbid now; the message says why (a player can act on it)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``win`` (winner set), ``draw`` (paix at its round limit included),
    ``loop`` (a repeated position: the deal never ends, a draw), ``limit`` (round limit; winner
    is the seat with most cards, fewest in norvégienne, or None for a tie), or ``time`` (the
    table's time limit, `Game.end_on_time`; the winner as at a limit, paix included)."""

    termination: Termination
    winner: int | None = None


class Game(abc.ABC):
    """A pure state machine: whose move, legal actions, apply, outcome.

    Counters the simulator reports: ``cards`` (cards moved from a pack onto the table),
    ``tricks`` (times a pile was collected) and ``rounds`` (bataille/paix rounds, or turns).
    """

    #: the preset this game plays (a class may play several: bataille and paix)
    preset: str
    family: ClassVar[Family]
    #: the game waits for a seat's choice at every turn (norvégienne); the others only lay
    has_decisions: ClassVar[bool] = False
    #: face cards set challenges (the table counts the longest chain of them)
    has_challenges: ClassVar[bool] = False
    tricks: int
    rounds: int
    options: dict[str, Any]
    streams: Streams
    #: slapping is on (a challenge game with slap patterns)
    slapping: bool = False
    #: the active slap patterns, in RULES.md's names
    patterns: tuple[str, ...] = ()
    #: the cards on the pile, bottom first
    pile: Sequence[int] = ()
    #: the ``cards`` count when the pile was last empty (slaps name cards by that count)
    pile_base: int = 0
    #: the seat that won the pile and will collect it, if any
    collector: int | None = None
    #: per seat: locked out of slapping until the pile is won
    locked: Sequence[bool] = ()
    #: the cards as dealt (what the journal keeps as "packs"; ``new_game(packs=...)`` rebuilds the
    #: game from it), or None for a game set up mid-play
    dealt: Dealt | None = None
    #: what happened while the game was set up (deals, burns), before any action
    start_events: list[Event] = []

    @property
    @abc.abstractmethod
    def cards(self) -> int:
        """Cards moved from a pack onto the table. Read-only to the game's users: a game keeps it
        as a plain counter (``cards: int = 0`` in its class body, counted up) or computes it."""

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

    def seat_in_play(self, seat: int) -> bool:
        """Whether ``seat`` still plays (it holds cards, or may win some back)."""
        return self.card_counts()[seat] > 0

    # --- the end on time (the table's time limit: RULES.md options, ``time_limit_min``) ------
    def trick_in_progress(self) -> bool:
        """Whether a trick is under way, which a game ended on time plays to its end first: here
        (the challenge games) the pile holds cards or a seat is about to collect it; bataille and
        paix: a round is being laid or awaits its collect; norvégienne: a turn is not over."""
        return bool(self.pile) or self.collector is not None

    def end_on_time(self) -> list[Event]:
        """End the game now because the table's time ran out (the table calls it once no trick
        is in progress): Outcome ``time``, won on cards (`_count_winner`; a tie: no winner).
        Nothing moves, so no card is created or lost; ``GameOver`` comes through the game's own
        end, as at any other end. An ended game returns no event."""
        if self.outcome() is not None:
            return []
        events: list[Event] = []
        self._end_game(Outcome("time", self._count_winner()), events)
        return events

    def _count_winner(self) -> int | None:
        """Who wins a game cut short (a round limit, the time limit): the seat with most cards,
        None for a tie (norvégienne overrides it: fewest)."""
        counts = self.card_counts()
        best = max(counts)
        leaders = [s for s, c in enumerate(counts) if c == best]
        return leaders[0] if len(leaders) == 1 else None

    @abc.abstractmethod
    def _end_game(self, outcome: Outcome, events: list[Event]) -> None:
        """The game's own end: set ``outcome`` and append ``GameOver``."""

    def slappable_at(self, card: int) -> SlapPattern | None:
        """The slap pattern the pile showed while card number ``card`` was on top, or None (a
        game without slapping: always None)."""
        return None

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
