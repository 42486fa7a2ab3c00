"""Decision bots for norvégienne: a rule-based player and a uniformly random legal player.

Both choose from ``game.legal_actions()`` and, for what they know, ``game.view(seat)`` (what that
seat may see), so a bot never peeks at another seat's hand. Each is deterministic given its
random stream, on which only ``random()`` is called.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Any, Protocol

from device.rules.actions import Action, PickUp, Play, Ready, Reveal, Swap, Target
from device.rules.base import Game
from device.rules.cards import ACE
from device.rules.norvegienne import NorvegienneGame
from device.rules.rng import Streams, randbelow

TWO, TEN = 2, 10
SPECIALS = (TWO, TEN, ACE)


class Player(Protocol):
    def choose(self, game: Game, seat: int) -> Action: ...


def up_value(r: int) -> int:
    """How much a rank is worth face up, where it is played late with no stock to draw from:
    2s and 10s first (they can always be laid, or burn), then the Ace, then by rank."""
    return {TWO: 17, TEN: 16, ACE: 15}.get(r, r)


class RandomBot:
    """Chooses uniformly among the legal actions."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, game: Game, seat: int) -> Action:
        actions = game.legal_actions()
        if not actions:
            raise ValueError(f"RandomBot: seat {seat} has nothing to do (the game is over or not its move)")
        return actions[randbelow(self.rng, len(actions))]


class RuleBot:
    """A sensible player: strong cards face up, lowest playable rank first (all its copies),
    2s, 10s and Aces saved for when nothing else goes, the pile sent to the seat nearest to
    winning, and the pile picked up only when forced. The stream only breaks exact ties."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng

    def choose(self, game: Game, seat: int) -> Action:
        actions = game.legal_actions()
        if not actions:
            raise ValueError(f"RuleBot: seat {seat} has nothing to do (the game is over or not its move)")
        if len(actions) == 1:
            return actions[0]
        if not isinstance(game, NorvegienneGame):
            raise TypeError(f"RuleBot: decides only norvegienne, not {game.preset}")
        view = game.view(seat)
        if view["phase"] == "swap":
            return self._swap(actions, view)
        targets = [a for a in actions if isinstance(a, Target)]
        if targets:
            return self._target(targets, view)
        plays = [a for a in actions if isinstance(a, Play)]
        if view["ace_target"] == seat:
            return self._answer_ace(plays, actions)
        if plays:
            return self._play(plays, view)
        reveal = [a for a in actions if isinstance(a, Reveal)]
        if reveal:
            return reveal[0]  # turning a card may lay it; picking up never sheds one
        return next(a for a in actions if isinstance(a, PickUp))

    def _swap(self, actions: list[Action], view: dict[str, Any]) -> Action:
        """Swap the best hand card for the worst face-up card while that improves the face-up cards."""
        seat = view["seat"]
        ups = view["seats"][seat]["up"]
        hand = view["hand"]
        swaps = [a for a in actions if isinstance(a, Swap)]
        if swaps and hand and ups:
            best = max(hand, key=lambda c: up_value(c >> 2))
            worst = min(ups, key=lambda c: up_value(c >> 2))
            if up_value(best >> 2) > up_value(worst >> 2):
                for a in swaps:
                    if a.hand_card == best and a.up_card == worst:
                        return a
        return next(a for a in actions if isinstance(a, Ready))

    def _target(self, targets: list[Target], view: dict[str, Any]) -> Action:
        """The seat with the fewest cards is closest to winning: it gets the pile."""
        def held(s: int) -> int:
            info = view["seats"][s]
            hand: int = info["hand"]
            down: int = info["down"]
            return hand + len(info["up"]) + down
        fewest = min(held(a.target) for a in targets)
        tied = [a for a in targets if held(a.target) == fewest]
        return tied[0] if len(tied) == 1 else tied[randbelow(self.rng, len(tied))]

    @staticmethod
    def _answer_ace(plays: list[Play], actions: list[Action]) -> Action:
        """Send the pile on with one Ace, else stop it with one 2; turn a card; pick up last."""
        for r in (ACE, TWO):
            for a in plays:
                if a.cards[0] >> 2 == r and len(a.cards) == 1:
                    return a
        for action in actions:
            if isinstance(action, Reveal):
                return action
        return next(a for a in actions if isinstance(a, PickUp))

    @staticmethod
    def _play(plays: list[Play], view: dict[str, Any]) -> Action:
        ordinary = [a for a in plays if a.cards[0] >> 2 not in SPECIALS]
        if ordinary:
            # Lowest rank first, every copy of it at once (sheds the most while keeping high cards).
            return min(ordinary, key=lambda a: (a.cards[0] >> 2, -len(a.cards)))
        singles = {a.cards[0] >> 2: a for a in plays if len(a.cards) == 1}
        pile = len(view["pile"])
        # Nothing ordinary goes: on a big pile send it away (Ace) or burn it (10); on a small one
        # spend the cheapest special. A 10 on an empty pile burns itself and the seat leads again.
        order = (ACE, TEN, TWO) if pile >= 4 else (TEN, TWO, ACE)
        for r in order:
            if r in singles:
                return singles[r]
        return plays[0]


def make_players(kinds: Sequence[str], streams: Streams) -> list[Player]:
    """Players by name (``rule`` or ``random``), seat ``i`` drawing from stream ``bot:i``."""
    players: list[Player] = []
    for seat, kind in enumerate(kinds):
        if kind == "rule":
            players.append(RuleBot(streams[f"bot:{seat}"]))
        elif kind == "random":
            players.append(RandomBot(streams[f"bot:{seat}"]))
        else:
            raise ValueError(f"bot: unknown kind {kind!r} (expected 'rule' or 'random')")
    return players


def decider(players: Sequence[Player]) -> Callable[[Game], Action]:
    """A ``decide(game)`` for ``Game.play_out``: asks the player of the seat to move."""
    def decide(game: Game) -> Action:
        seat = game.current_seat()
        if seat is None:
            raise ValueError("decide: no seat is to move (the game is over, or the table collects)")
        return players[seat].choose(game, seat)
    return decide
