"""Sample screens built deterministically, for ``slapbox screenshot``, the tests and the docs: bots'
games played in virtual time up to an interesting moment (a photo finish, a wrong slap, a challenge,
a battle, a norvégienne choice), with a Feed fed from the runner's outputs.

Pure of pygame: this builds Scenes; device.screen.render draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from device.clock import VirtualClock
from device.errors import SlapboxError
from device.inputs.keyboard import DEFAULT_KEYS
from device.journal.stats import PlayerRecord
from device.rules import events as ev
from device.screen import i18n
from device.screen.feed import Feed
from device.screen.menu import Menu, Settings
from device.screen.scene import (
    Scene,
    attract_scene,
    game_scene,
    help_scene,
    join_scene,
    menu_scene,
    message_scene,
    names_scene,
    norvegienne_chooser,
    over_scene,
    pass_scene,
    standings_scene,
)
from device.screen.scene.model import JoinView, NamesView, PickerView, StandingRow, StandingsView, StationTile
from device.table.arbiter import Award, WrongSlapCall
from device.table.runner import Runner
from device.table.session import DEFAULT_NAMES, GameSpec, bot_hands, bot_minds, make_table
from device.table.table import Judged, Table, assign_seats

MS = 1_000_000
STEP_NS = 20 * MS          # how far virtual time moves between two checks for the moment
LIMIT_NS = 3600 * 1000 * MS


class SampleError(SlapboxError, ValueError):
    """An unknown sample name, or a game that never reached its moment."""


@dataclass
class Moment:
    """A table stopped at an interesting time, with the feed the screen would have."""

    table: Table
    feed: Feed
    now_ns: int


def play_until(preset: str, players: int, seed: int, stop: Callable[[Table, Feed, list[Any]], bool], *,
               options: dict[str, Any] | None = None, level: str = "normal",
               limit_ns: int = LIMIT_NS, names: Sequence[str] = DEFAULT_NAMES) -> Moment:
    """Play a bots' game in virtual time and stop at the first check where ``stop(table, feed,
    items since the last check)`` is true (or at the end of the game)."""
    seats = assign_seats(players, [], list(names), bots="free", level=level)
    spec = GameSpec(preset, seed, seats, dict(options or {}))
    clock = VirtualClock(0)
    table = make_table(spec, start_ns=0)
    feed = Feed(tie_window_ns=table.arbiter_settings.tie_ns)
    batch: list[Any] = []

    def output(item: Any, now_ns: int) -> None:
        feed.push(item, now_ns)
        batch.append(item)

    runner = Runner(table, clock, hands=bot_hands(table), minds=bot_minds(table), outputs=[output])
    t = 0
    while t < limit_ns:
        t += STEP_NS
        runner.run_virtual(limit_ns=t)
        items, batch[:] = list(batch), []
        if stop(table, feed, items) or table.game.outcome() is not None:
            break
        if table.next_deadline() is None and clock.next_deadline() is None:
            break
    return Moment(table, feed, max(t, clock.now_ns()))


# --- the moments ---------------------------------------------------------------------------------

def _busy_pile(table: Table, feed: Feed, items: list[Any]) -> bool:
    g = table.game
    return len(g.pile) >= 4 and not g.owed and g.collector is None and feed.live_photo(table.now_ns) is None  # type: ignore[attr-defined]


def _photo_finish(table: Table, feed: Feed, items: list[Any]) -> bool:
    return any(isinstance(i, Judged) and isinstance(i.decision, Award) and i.decision.runners_up
               for i in items)


def _wrong_slap(table: Table, feed: Feed, items: list[Any]) -> bool:
    return any(isinstance(i, Judged) and isinstance(i.decision, WrongSlapCall) for i in items) and \
        any(isinstance(i, ev.WrongSlap) and i.paid for i in items)


def _challenge(table: Table, feed: Feed, items: list[Any]) -> bool:
    g = table.game
    return g.owed >= 2 and len(g.pile) >= 3 and g.pile[-1] >> 2 >= 12  # type: ignore[attr-defined]


def _battle(table: Table, feed: Feed, items: list[Any]) -> bool:
    snap = table.game.snapshot()
    return len(snap["table"]) >= 2 and snap["pending"] is not None


def _norv_choice(table: Table, feed: Feed, items: list[Any]) -> bool:
    g = table.game
    return (g.phase == "play" and table.pending_decision() == 0 and len(g.pile) >= 1  # type: ignore[attr-defined]
            and len(g.hands[0]) >= 3 and len(table.legal_decisions()) >= 2)  # type: ignore[attr-defined]


def _lockout(table: Table, feed: Feed, items: list[Any]) -> bool:
    return any(table.game.locked) and len(table.game.pile) >= 2


# A full table of the longest names the config allows (NAME_MAX, 16 characters): the crowd samples.
LONG_NAMES = ("Marie-Antoinette", "Maximilien Roche", "Anne-Sophie Roux", "Gaëlle Montagnac",
              "Bartholomew Kent", "Alexandra Dupuis", "Wilhelmina Grant", "Pierre-Alexandre")


@lru_cache(maxsize=None)
def moment(name: str, crowd: bool = False) -> Moment:
    """The table and feed of a sample moment (computed once per process; treat as read-only);
    ``crowd``: the same moment at a table of 8 seats with 16-character names."""
    def play(preset: str, players: int, seed: int, stop: Callable[[Table, Feed, list[Any]], bool],
             **kw: Any) -> Moment:
        if crowd:  # as many seats as the game takes, up to 8
            most = 4 if preset in ("bataille", "paix") else 8
            return play_until(preset, most, seed, stop, names=LONG_NAMES, **kw)
        return play_until(preset, players, seed, stop, **kw)

    if name == "game":
        return play("bataille-corse", 4, 3, _busy_pile, options={"slaps": ["doubles", "sandwich", "top-bottom"]})
    if name == "photo-finish":
        return play("bataille-corse", 4, 1, _photo_finish, level="hard")
    if name == "wrong-slap":
        return play("bataille-corse", 4, 2, _wrong_slap, level="easy")
    if name == "challenge":
        return play("bataille-corse", 3, 4, _challenge)
    if name == "lockout":
        return play("egyptian-ratscrew", 4, 5, _lockout, level="easy", options={"wrong_slap": "lockout"})
    if name == "battle":
        return play("bataille", 3, 2, _battle)
    if name == "peace":
        return play("paix", 3, 3, _battle)
    if name == "norvegienne":
        return play("norvegienne", 4, 1, _norv_choice)
    if name == "over":
        return play("bataille-corse", 4, 1, lambda *_: False, options={"max_rounds": 400})
    raise SampleError(f"no sample moment {name!r}")


LEADERBOARD = [
    PlayerRecord("Chloé", games=9, wins=4, slaps_won=61, wrong_slaps=9, reactions=70,
                 reaction_sum_ms=70 * 402.5, fastest_ms=288.1),
    PlayerRecord("Anna", games=7, wins=2, slaps_won=40, wrong_slaps=14, reactions=52,
                 reaction_sum_ms=52 * 431.0, fastest_ms=301.7),
    PlayerRecord("Ben", games=8, wins=2, slaps_won=35, wrong_slaps=5, reactions=49,
                 reaction_sum_ms=49 * 455.9, fastest_ms=318.4),
    PlayerRecord("Gaëlle", games=3, wins=0, slaps_won=8, wrong_slaps=3, reactions=11,
                 reaction_sum_ms=11 * 512.3, fastest_ms=377.0),
]


def _menu(page: str, cursor: int, lang: str) -> Any:
    menu = Menu(Settings(lang=lang), page)
    menu.cursor = cursor
    return menu.view()


def _dev_note(lang: str) -> str:
    keys = [i18n.tr(lang, "keys.station", station=i18n.tr(lang, "seat.default", n=s + 1),
                    slap=k[0].upper(), flip=k[1].upper()) for s, k in sorted(DEFAULT_KEYS.items())[:4]]
    return i18n.tr(lang, "keys.note") + "\n" + "; ".join(keys)


def _game(name: str, size: tuple[int, int], lang: str, crowd: bool, **kw: Any) -> Scene:
    m = moment(name, crowd)
    return game_scene(m.table, m.feed, m.now_ns, size, lang, **kw)


def _norvegienne(size: tuple[int, int], lang: str, crowd: bool) -> Scene:
    m = moment("norvegienne", crowd)
    chooser, _ = norvegienne_chooser(m.table, 0, lang, cursor=1)
    return game_scene(m.table, m.feed, m.now_ns, size, lang, chooser=chooser, private_seat=0)


def _names(crowd: bool, n: int) -> list[str]:
    return list(LONG_NAMES if crowd else DEFAULT_NAMES)[:n]


def _board(crowd: bool) -> list[PlayerRecord]:
    return [replace(r, name=LONG_NAMES[i]) for i, r in enumerate(LEADERBOARD)] if crowd else LEADERBOARD


def _attract(size: tuple[int, int], lang: str, crowd: bool) -> Scene:
    m = moment("game", crowd)
    return attract_scene(m.table, m.feed, m.now_ns, size, lang, _names(crowd, 2))


def _help(size: tuple[int, int], lang: str, crowd: bool) -> Scene:
    return help_scene([i18n.tr(lang, "keys.station", station=i18n.tr(lang, "seat.default", n=s + 1),
                               slap=k[0].upper(), flip=k[1].upper()) for s, k in sorted(DEFAULT_KEYS.items())],
                      size, lang)


def _join(size: tuple[int, int], lang: str, crowd: bool) -> Scene:
    """The button check: stations that pressed (one lit), one not yet, one stuck down, one bouncing."""
    names = list(LONG_NAMES if crowd else DEFAULT_NAMES)
    n = 8 if crowd else 4
    problems = {2: "stuck", 5: "chatter"}
    tiles = tuple(StationTile(s, s != 3, s if s != 3 else None, names[s], problems.get(s), lit=s == 0)
                  for s in range(n))
    return join_scene(JoinView(tiles, bots=8 - n if crowd else 2, can_start=True), size, lang)


def _names_view(crowd: bool) -> NamesView:
    names = list(LONG_NAMES if crowd else DEFAULT_NAMES)
    pickers = [PickerView(0, 0, "list", names[0], current=names[0]),
               PickerView(1, 1, "wheel", names[1], typed=names[1][:3], letter="e", upcoming=("f", "g", "h")),
               PickerView(2, 2, "list", names[2], current_key="names.keep"),
               PickerView(3, 3, "done", names[3], name=names[3])]
    if crowd:
        pickers += [PickerView(4, 4, "list", names[4], current_key="names.new"),
                    PickerView(5, 5, "wheel", names[5], typed=names[5][:15], letter_key="wheel.done",
                               upcoming=("wheel.space", "wheel.delete", "a")),
                    PickerView(6, 6, "wheel", names[6], typed="", letter_key="wheel.space",
                               upcoming=("a", "b")),
                    PickerView(7, 7, "done", names[7], name=names[7])]
    return NamesView(tuple(pickers))


def _standings(size: tuple[int, int], lang: str, crowd: bool, over: bool = False) -> Scene:
    """A best-of-5 match after game 3 (``over``: after game 5, won)."""
    names = list(LONG_NAMES if crowd else DEFAULT_NAMES)[:8 if crowd else 4]
    wins = [3, 1, 1, 0, 0, 0, 0, 0] if over else [2, 1, 0, 0, 0, 0, 0, 0]
    rows = tuple(StandingRow(nm, s, wins[s], leader=s == 0) for s, nm in enumerate(names))
    view = StandingsView(rows, played=5 if over else 3, total=5, last_winner=names[0],
                         photo=(names[1], names[0], 3_200_000), over=over, winner=names[0] if over else None)
    return standings_scene(view, size, lang)


Builder = Callable[[tuple[int, int], str, bool], Scene]
BUILDERS: dict[str, Builder] = {
    "attract": _attract,
    "menu": lambda size, lang, crowd: menu_scene(_menu("main", 1, lang), size, lang, joined=_names(crowd, 2)),
    "rules": lambda size, lang, crowd: menu_scene(_menu("rules", 2, lang), size, lang),
    "pause": lambda size, lang, crowd: menu_scene(_menu("pause", 0, lang), size, lang,
                                                  background=_game("challenge", size, lang, crowd)),
    "game": lambda size, lang, crowd: _game("game", size, lang, crowd),
    "game-dev": lambda size, lang, crowd: _game("game", size, lang, crowd, note=_dev_note(lang)),
    "photo-finish": lambda size, lang, crowd: _game("photo-finish", size, lang, crowd),
    "wrong-slap": lambda size, lang, crowd: _game("wrong-slap", size, lang, crowd),
    "challenge": lambda size, lang, crowd: _game("challenge", size, lang, crowd),
    "lockout": lambda size, lang, crowd: _game("lockout", size, lang, crowd),
    "battle": lambda size, lang, crowd: _game("battle", size, lang, crowd),
    "peace": lambda size, lang, crowd: _game("peace", size, lang, crowd),
    "norvegienne": _norvegienne,
    "norvegienne-table": lambda size, lang, crowd: _game("norvegienne", size, lang, crowd),
    "pass": lambda size, lang, crowd: pass_scene(1, _names(crowd, 2)[1], size, lang),
    "over": lambda size, lang, crowd: over_scene(moment("over", crowd).table, size, lang, _board(crowd)),
    "over-board": lambda size, lang, crowd: over_scene(moment("over", crowd).table, size, lang, _board(crowd),
                                                       page=1),
    "help": _help,
    "join": _join,
    "names": lambda size, lang, crowd: names_scene(_names_view(crowd), size, lang),
    "standings": _standings,
    "standings-over": lambda size, lang, crowd: _standings(size, lang, crowd, over=True),
    "shutdown": lambda size, lang, crowd: message_scene([i18n.tr(lang, "shutdown.hold"),
                                                         i18n.tr(lang, "shutdown.dev")], size, lang),
}
NAMES = tuple(BUILDERS)


def build(name: str, size: tuple[int, int], lang: str = "en", crowd: bool = False) -> Scene:
    """The sample scene ``name`` at ``size`` in ``lang`` (``crowd``: at a table of 8 seats with
    16-character names); SampleError lists the names."""
    if name not in BUILDERS:
        raise SampleError(f"unknown scene {name!r} (expected one of: {', '.join(NAMES)})")
    return BUILDERS[name](size, lang, crowd)
