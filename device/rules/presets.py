"""The presets of RULES.md, every option with its default, and the one factory for games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from device.errors import SlapboxError
from device.rules.base import Family, Game
from device.rules.cards import DealError, deal, make_deck, parse_deal, shuffle
from device.rules.rng import Streams
from device.rules.slaps import SLAP_ORDER, SlapPattern

#: every slap pattern, in the order a matched one is named (RULES.md 3)
SLAP_PATTERNS: tuple[SlapPattern, ...] = SLAP_ORDER
#: the wrong-slap penalties (RULES.md 3 and the options table), the default first
WRONG_SLAPS: tuple[str, ...] = (
    "pot-2", "pot-1", "pot-3", "bottom-1", "bottom-2", "bottom-3", "lockout",
    *(f"lockout-{n}" for n in range(1, 11)), "gift", "none")
_SLAPPING = ("bataille-corse", "egyptian-ratscrew")
CHALLENGE = ("bataille-corse", "strip-jack-naked", "egyptian-ratscrew")
BATTLE = ("bataille", "paix")
SHEDDING = ("norvegienne",)
PRESET_NAMES = CHALLENGE + BATTLE + SHEDDING
#: how an option's value is checked (``OptionSpec.check``)
OptionKind = Literal["choice", "bool", "int", "int-or-none", "patterns"]


@dataclass(frozen=True)
class OptionSpec:
    """One option of RULES.md's table: which presets take it, its values, its doc line."""

    name: str
    presets: tuple[str, ...]
    kind: OptionKind
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None
    doc: str = ""

    def describe(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(_runs(self.choices))
        if self.kind == "patterns":
            return "a list of " + ", ".join(repr(p) for p in SLAP_PATTERNS) + " ('doubles' is always on)"
        if self.kind == "int":
            return f"a whole number from {self.low} to {self.high}"
        return f"a whole number from {self.low} to {self.high}, or \"none\""

    def check(self, value: Any) -> Any:
        """The normalised value, or ValueError saying what was expected."""
        ok: bool
        if self.kind == "bool":
            ok = isinstance(value, bool)
        elif self.kind == "choice":
            ok = value in self.choices and type(value) is type(self.choices[0])
        elif self.kind == "patterns":
            ok = isinstance(value, (list, tuple)) and all(v in SLAP_PATTERNS for v in value)
            if ok:
                return tuple(p for p in SLAP_PATTERNS if p == "doubles" or p in value)
        elif self.kind == "int":
            ok = self._in_range(value)
        else:  # int-or-none
            if value is None or value == "none":
                return None
            ok = self._in_range(value)
        if not ok:
            raise ValueError(f"expected {self.describe()}, got {value!r}")
        return value

    def _in_range(self, value: Any) -> bool:
        """A whole number (not a bool) from ``low`` to ``high``; a number option declares both."""
        low, high = self.low, self.high
        assert low is not None and high is not None, f"option {self.name}: a number option needs low and high"
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _runs(choices: tuple[Any, ...]) -> list[str]:
    """Choices as a player reads them: ``'lockout-1'..'lockout-10'`` for a run of numbered ones."""
    out: list[str] = []
    i = 0
    while i < len(choices):
        c = choices[i]
        if not isinstance(c, str):
            out.append(str(c))
            i += 1
            continue
        stem, _, n = c.rpartition("-")
        j = i
        while (n.isdigit() and j + 1 < len(choices) and isinstance(choices[j + 1], str)
               and choices[j + 1] == f"{stem}-{int(n) + j + 1 - i}"):
            j += 1
        out.append(repr(c) if j - i < 2 else f"{c!r}..{choices[j]!r}")
        i = j + 1
    return out


ALL_CHALLENGE = CHALLENGE
OPTIONS: dict[str, OptionSpec] = {o.name: o for o in (
    OptionSpec("deck", CHALLENGE + BATTLE, "choice", (52, 54, 104, 108),
               doc="cards in play: 52, 54 (2 jokers), 104 (two 52), 108 (two 54)"),
    OptionSpec("slaps", ("bataille-corse", "egyptian-ratscrew"), "patterns",
               doc="what can be slapped besides doubles"),
    OptionSpec("run_wraps", _SLAPPING, "bool", doc="with run: K-A-2 is a run too"),
    OptionSpec("marriage_colour", _SLAPPING, "bool",
               doc="with marriage: the King and Queen must be of the same colour"),
    OptionSpec("wrong_slap", _SLAPPING, "choice", WRONG_SLAPS,
               doc="the penalty for a wrong slap"),
    OptionSpec("wrong_flip", _SLAPPING, "choice", ("none", "pot-1"),
               doc="FLIP buttons: a FLIP pressed out of turn costs one card to the pot"),
    OptionSpec("tens_stop", _SLAPPING, "bool",
               doc="a 10 laid as an attempt ends the challenge: nobody wins the pile"),
    OptionSpec("borrow", CHALLENGE, "bool",
               doc="a challenged seat that runs out lays its remaining attempts from the challenger's pack"),
    OptionSpec("borrow_spares_last", ("bataille-corse",), "bool",
               doc="when borrowing, the lender always keeps its last card"),
    OptionSpec("out_when", CHALLENGE, "choice", ("last-card", "must-lay"),
               doc="a seat is out when it lays its last card, or only when it must lay and has none"),
    OptionSpec("late_join", ("bataille-corse", "egyptian-ratscrew"), "bool",
               doc="players arriving during the game may slap their way in"),
    OptionSpec("max_rounds", PRESET_NAMES, "int-or-none", low=1, high=10_000_000,
               doc="round limit (turns for presets 1-3 and 5); the seat with most cards wins"),
    OptionSpec("tie_cards_down", BATTLE, "int", low=1, high=5,
               doc="face-down cards each seat lays in a battle or peace"),
    OptionSpec("tie_joiners", BATTLE, "choice", ("tied", "all"),
               doc="who joins a battle or peace: the tied seats, or every seat in play"),
    OptionSpec("shuffle_pickup", BATTLE, "bool", doc="shuffle won cards before they go under the pack"),
    OptionSpec("voluntary_pickup", SHEDDING, "bool", doc="a seat may pick up the pile even when it can play"),
    OptionSpec("blind_chain", SHEDDING, "bool", doc="keep turning face-down cards while they can be laid"),
    OptionSpec("ace_on_seven", SHEDDING, "bool", doc="an Ace may be laid on a 7"),
    OptionSpec("rank_all", SHEDDING, "bool", doc="play on to rank every seat"),
)}


@dataclass(frozen=True)
class Preset:
    name: str
    family: Family
    min_players: int
    max_players: int
    defaults: dict[str, Any] = field(default_factory=dict)


_CORSE_SLAP = {"slaps": ("doubles",), "run_wraps": False, "marriage_colour": False,
               "wrong_slap": "pot-2", "wrong_flip": "none", "tens_stop": False, "late_join": True}
PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("bataille-corse", "challenge", 2, 8, {
        "deck": 54, **_CORSE_SLAP, "borrow": True, "borrow_spares_last": False,
        "out_when": "last-card", "max_rounds": None}),
    Preset("strip-jack-naked", "challenge", 2, 8, {
        "deck": 52, "borrow": False, "out_when": "must-lay", "max_rounds": None}),
    Preset("egyptian-ratscrew", "challenge", 2, 8, {
        "deck": 52, **_CORSE_SLAP, "borrow": False, "out_when": "last-card", "max_rounds": None}),
    Preset("bataille", "battle", 2, 4, {
        "deck": 52, "max_rounds": None, "tie_cards_down": 3, "tie_joiners": "tied",
        "shuffle_pickup": False}),
    Preset("paix", "battle", 2, 4, {
        "deck": 52, "max_rounds": 1000, "tie_cards_down": 5, "tie_joiners": "all",
        "shuffle_pickup": False}),
    Preset("norvegienne", "shedding", 2, 11, {
        "max_rounds": 10_000, "voluntary_pickup": False, "blind_chain": False,
        "ace_on_seven": True, "rank_all": False}),
)}


class OptionError(SlapboxError, ValueError):
    """An unknown option, or a value the option does not take."""


#: the longest option text read (the longest real value, every slap pattern listed, is ~110
#: characters); longer text is refused before it is parsed: int() of thousands of digits is slow,
#: and Python refuses past 4,300
OPTION_TEXT_MAX = 200


def check_option_text(key: str, text: str) -> None:
    """Refuse the text of option ``key`` (as ``KEY=VALUE`` gives it) before it is parsed when it
    names no option or is too long to be one of its values; OptionError names the option and what
    it takes."""
    opt = OPTIONS.get(key)
    if opt is None:
        raise OptionError(f"unknown option {key!r}; options are: {', '.join(OPTIONS)}")
    if len(text) > OPTION_TEXT_MAX:
        raise OptionError(f"option {key!r}: expected {opt.describe()}, got a text of {len(text):,} "
                          f"characters (at most {OPTION_TEXT_MAX} are read)")


def resolve_options(preset: str, given: dict[str, Any] | None = None) -> dict[str, Any]:
    """The preset's defaults overridden by ``given``, each value checked."""
    spec = PRESETS[preset]
    options = dict(spec.defaults)
    for key, value in (given or {}).items():
        opt = OPTIONS.get(key)
        if opt is None:
            raise OptionError(f"unknown option {key!r}; options are: {', '.join(OPTIONS)}")
        if preset not in opt.presets:
            raise OptionError(f"option {key!r} does not apply to {preset} "
                              f"(it applies to {', '.join(opt.presets)})")
        try:
            options[key] = opt.check(value)
        except ValueError as e:
            raise OptionError(f"option {key!r}: {e}") from None
    return options


def new_game(preset: str, *, players: int | None = None, seed: int = 0,
             options: dict[str, Any] | None = None,
             packs: Sequence[Sequence[int]] | Mapping[str, Any] | None = None,
             deal_spec: str | None = None, slapping: bool = True) -> Game:
    """Build a game. ``packs`` (or ``deal_spec``) fixes every pack, top card first; otherwise the
    preset's deck is shuffled with the seed's ``deal`` stream and dealt one card at a time.
    ``packs`` is what a game records as ``dealt``, so ``new_game(preset, seed=seed,
    options=options, packs=game.dealt)`` rebuilds ``game`` (norvégienne: its recorded deal).

    ``slapping=False`` is the simulator's table: nobody slaps, so number values cannot matter.
    """
    if preset not in PRESETS:
        raise OptionError(f"unknown preset {preset!r}; presets are: {', '.join(PRESETS)}")
    spec = PRESETS[preset]
    opts = resolve_options(preset, options)
    streams = Streams(seed)
    if deal_spec is not None:
        if spec.family == "shedding":
            raise DealError(f"deal: not accepted for {preset} (its deal has hands, face-up and face-down cards)")
        packs = parse_deal(deal_spec, allow_any_number=spec.family == "challenge" and not slapping)
    fixed: Sequence[Sequence[int]] | None = None  # the packs (challenge, battle)
    recorded = None  # norvégienne's deal
    seats: int | None = None
    if packs is not None and spec.family == "shedding":
        from device.rules.norvegienne import read_deal
        recorded = read_deal(packs)
        seats = len(recorded.hand)
    elif isinstance(packs, Mapping):
        raise DealError(f"deal: {preset} is dealt one pack per seat (a list of card lists), not {sorted(packs)}")
    elif packs is not None:
        fixed = packs
        seats = len(packs)
    if seats is not None:
        if players is not None and players != seats:
            raise DealError(f"deal: {seats} packs for {players} players (they must agree)")
        players = seats
    if players is None:
        players = 2
    if not spec.min_players <= players <= spec.max_players:
        raise OptionError(f"players: {preset} takes {spec.min_players} to {spec.max_players}, not {players}")
    if spec.family == "challenge":
        from device.rules.challenge import ChallengeGame
        if fixed is None:
            fixed = _shuffled_deal(opts["deck"], players, streams)
        return ChallengeGame(preset, opts, fixed, streams, slapping=slapping)
    if spec.family == "battle":
        from device.rules.battle import BattleGame
        if fixed is None:
            fixed = _shuffled_deal(opts["deck"], players, streams)
        return BattleGame(preset, opts, fixed, streams)
    from device.rules.norvegienne import NorvegienneGame
    return NorvegienneGame(opts, players, streams, recorded)


def _shuffled_deal(deck_size: int, players: int, streams: Streams) -> list[list[int]]:
    deck = make_deck(deck_size)
    shuffle(deck, streams["deal"])
    return deal(deck, players)
