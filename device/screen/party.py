"""The party around the games: the button check that seats players, their names, the match and its standings.

The screen app (device.screen.app) hands this part its stations' taps and holds while one of its
screens is up, and each finished game; it says what to show (device.screen.view reads ``join_view``,
``names_view`` and ``standings_view``). The order of a night at the box:

1. **join** (the button check, from the menu's Start or Button check): each station that presses
   is seated, lights its LED, shows its colour and seat and plays its own note; a press again
   flashes it (the button works); a stuck, bouncing or edge-losing button is named with what to
   do. A joined player's hold goes on; MENU goes back to the menu.
2. **names**: every player without a name picks one at once with their own button (tap = next,
   hold = choose: device.screen.picker); MENU lets the others keep their default names and starts.
3. the games of the **match** (device.table.series): between two games the standings, where a
   hold starts the next game and a new station's press joins it (it picks its name first); at the
   end the match's winner, where a hold is the rematch (same players, same settings).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from device.inputs.press import Press
from device.journal.names import FILE_NAME as NAMES_FILE
from device.journal.names import NameBook
from device.journal.stats import write_json_atomically
from device.screen.picker import NamePicker, unique_names
from device.screen.scene.model import JoinView, NamesView, StandingRow, StandingsView, StationTile
from device.table.seats import default_name
from device.table.series import MatchPlan, Series

if TYPE_CHECKING:
    from device.screen.app import App
    from device.table.match import Match

log = logging.getLogger("slapbox")
MS = 1_000_000
FLASH_NS = 400 * MS       # a tile stays lit this long after its press
CHATTER_NS = 40 * MS      # two presses of one button closer than this: it bounces
CHATTER_COUNT = 3         # ... this many times during the check: it is named
MATCH_FILE = "match.json"  # the match being played (its score survives a crash or a power cut)


class Party:
    """Who joined, their names, the match (see the module docstring)."""

    def __init__(self, app: App) -> None:
        self.app = app
        folder = app.box.folder
        self.book = NameBook(None if folder is None else folder / NAMES_FILE)
        self._match_path = None if folder is None else folder / MATCH_FILE
        if self.book.warning:
            log.warning("names: %s", self.book.warning)
        self.names: dict[int, str] = {}          # station -> the name it plays under (kept all match)
        self.full: set[int] = set()              # stations that pressed when no seat was left
        self.named: set[int] = set()             # stations that chose (or kept their default)
        self.typing = False                      # developer mode: F2, the keyboard types a name
        self.pickers: dict[int, NamePicker] = {}
        self.series: Series | None = None
        self.lit: dict[int, int] = {}            # station -> lit until
        self.stuck: set[int] = set()
        self._last_press: dict[int, int] = {}
        self._bounces: dict[int, int] = {}
        self._faults0: dict[int, int] = {}       # the backends' per-station counters at the check's start

    # --- names ---------------------------------------------------------------------------------
    def default_name(self, station: int) -> str:
        return default_name(self.app.opts.names, station)

    def name_of(self, station: int) -> str:
        return self.names.get(station) or self.default_name(station)

    def seat_names(self) -> dict[int, str]:
        """Each joined station's name for the next game, each name once: a player keeps the name
        it has (its score in the match is kept under it); a newcomer whose name is taken gets a
        number after it."""
        stations = sorted(self.app.joined)
        kept = {s: self.names[s] for s in stations if s in self.names}
        fresh = [s for s in stations if s not in kept]
        made = unique_names([*kept.values(), *(self.name_of(s) for s in fresh)])[len(kept):]
        return {s: kept.get(s) or made[fresh.index(s)] for s in stations}

    def current_name(self, station: int) -> str:
        """The name ``station`` has now: the one it chose, else the one it plays under, else its default."""
        picker = self.pickers.get(station)
        if picker is not None and picker.done:
            return picker.name
        return self.name_of(station)

    def taken(self, station: int) -> set[str]:
        """The names the other seated players have now (not offered to ``station``)."""
        return {self.current_name(s) for s in self.app.joined if s != station}

    def forget(self, name: str) -> None:
        """The menu's "forget a name": the box no longer offers it (kept on disk at once)."""
        if self.book.forget(name):
            self._save_book()

    def _save_book(self) -> None:
        try:
            self.book.save()
        except OSError as e:
            log.warning("names: cannot save (%s)", e.strerror or e)

    # --- the button check / join screen -------------------------------------------------------
    def open_join(self, now: int) -> None:
        app = self.app
        app.mode = "join"
        self.names.clear()  # a new seating: everyone picks a name again (one tap away if remembered)
        self.named.clear()
        self.full.clear()
        self._trim_to_seats()
        self._bounces.clear()
        self._faults0 = app.inputs.station_faults()
        for s in app.joined:
            app.inputs.set_led(s, True)

    def seats_left(self) -> int:
        from device.rules.presets import PRESETS
        return PRESETS[self.app.opts.settings.preset].max_players - len(self.app.joined)

    def _trim_to_seats(self) -> None:
        """More stations joined (in the menu) than the game seats: the last ones wait."""
        app = self.app
        while self.seats_left() < 0:
            self.full.add(app.joined.pop())

    def join(self, station: int, now: int) -> None:
        """``station`` pressed for the first time: seated, lit, heard (when the game has a seat
        left; else its tile says the table is full)."""
        app = self.app
        if station not in app.joined:
            if self.seats_left() <= 0:
                self.full.add(station)
                return
            app.joined.append(station)
            self.full.discard(station)
        self._flash(station, now)
        app.inputs.set_led(station, True)

    def check_press(self, press: Press, now: int) -> None:
        """A joined station's press on the check screen: it flashes; presses closer than a
        human can make them are counted as bounces."""
        if press.edge != "press":
            return
        last = self._last_press.get(press.station)
        self._last_press[press.station] = press.t_ns
        if last is not None and press.t_ns - last < CHATTER_NS:
            self._bounces[press.station] = self._bounces.get(press.station, 0) + 1
        self._flash(press.station, now)
        self.app.inputs.blink(press.station, 1, 120 * MS)

    def _flash(self, station: int, now: int) -> None:
        self.lit[station] = now + FLASH_NS
        sounds = self.app.sounds
        if sounds is not None:
            sounds.play(f"station{station % 8 + 1}")

    def on_stuck(self, station: int, stuck: bool) -> None:
        (self.stuck.add if stuck else self.stuck.discard)(station)

    def problem(self, station: int, faults: dict[int, int]) -> str | None:
        """What is wrong with ``station``'s button (``faults``: the backend's counts now)."""
        if station in self.full:
            return "full"
        if station in self.stuck:
            return "stuck"
        if self._bounces.get(station, 0) >= CHATTER_COUNT:
            return "chatter"
        if faults.get(station, 0) > self._faults0.get(station, 0):
            return "lost"
        return None

    def join_view(self, now: int) -> JoinView:
        app = self.app
        faults = app.inputs.station_faults()  # read once a frame (gpiod's takes its reader's lock)
        joined = sorted(app.joined)
        count = app.inputs.stations()
        stations = sorted(set(range(count)) | set(joined))
        names = self.seat_names()
        tiles = tuple(StationTile(s, s in joined, joined.index(s) if s in joined else None,
                                  names.get(s, self.default_name(s)), self.problem(s, faults),
                                  self.lit.get(s, 0) > now) for s in stations)
        players = app.box.plan(joined).seats if joined else []
        bots = sum(1 for seat in players if seat.bot)
        return JoinView(tiles, bots, bool(joined) or app.opts.all_bots)

    # --- names ---------------------------------------------------------------------------------
    def open_names(self, now: int) -> None:
        """Every joined player without a name picks one; nobody left to name: the game starts."""
        app = self.app
        joined = sorted(app.joined)
        for s in joined:
            if s not in self.named and s not in self.pickers:
                self.pickers[s] = NamePicker(s, joined.index(s), self.default_name(s), self.book.names)
        if not self.pickers:
            self.start_game()
            return
        app.mode = "names"

    def tap(self, station: int) -> None:
        picker = self.pickers.get(station)
        if picker is not None:
            picker.tap(self.taken(station))

    def hold(self, station: int) -> None:
        picker = self.pickers.get(station)
        if picker is not None:
            picker.hold(self.taken(station))
            self._names_done_check()

    def keyboard_picker(self) -> NamePicker | None:
        """Developer mode: the picker the laptop's keyboard types into (the first not done)."""
        return next((p for s, p in sorted(self.pickers.items()) if not p.done), None)

    def _names_done_check(self) -> None:
        if self.pickers and all(p.done for p in self.pickers.values()):
            self.finish_names()

    def finish_names(self) -> None:
        """The names are chosen (MENU: the players still choosing keep their defaults)."""
        for s, p in self.pickers.items():
            self.named.add(s)
            if p.done:
                self.names[s] = p.name
                if p.name != self.default_name(s):
                    self.book.use(p.name)
        self.pickers = {}
        self.typing = False
        self._save_book()
        self.start_game()

    def names_view(self) -> NamesView:
        return NamesView(tuple(p.view(self.taken(s)) for s, p in sorted(self.pickers.items())))

    # --- the match -----------------------------------------------------------------------------
    def start_game(self) -> None:
        """The next game of the match (a new match if none is running)."""
        app = self.app
        now = app.clock.now_ns()
        if self.series is None or self.series.over(now):
            self.series = Series(self._plan(), now)
        names = self.seat_names()
        self.names.update(names)  # each keeps it for the whole match (its score is under it)
        # a timed match ends on time: its last game ends with it
        app.start_game(names, time_limit_ns=self.series.time_left_ns(now))
        assert app.match is not None
        for seat in app.match.table.seats:
            self.series.add_player(seat.name, seat.seat)
        self._keep()

    def _plan(self) -> MatchPlan:
        try:
            return MatchPlan.parse(self.app.opts.settings.match)
        except ValueError as e:
            log.warning("match: %s; playing single games", e)
            return MatchPlan("single")

    def match_over(self) -> bool:
        return self.series is not None and self.series.over(self.app.clock.now_ns())

    def in_match(self) -> bool:
        """A match of more than one game is being played (its standings come between games)."""
        return self.series is not None and self.series.plan.kind != "single"

    def photo_finish(self, decision: Any, seat: int | None, seat_of: Mapping[int, int], match: Match) -> None:
        """A slap won against a runner-up: the match keeps its closest."""
        if self.series is None or seat is None or decision.margin_ns is None or not decision.runners_up:
            return
        other = seat_of.get(decision.runners_up[0][0])  # the table maps bots' hands too
        seats = match.table.seats
        if other is None or not 0 <= other < len(seats):
            return
        self.series.photo_finish(seats[seat].name, seats[other].name, decision.margin_ns)

    def game_over(self, match: Match, now: int) -> str:
        """A game ended: the match's score; the mode the app shows next ("over" for a single
        game, "standings" in a match)."""
        table = match.table
        outcome = table.game.outcome()
        if self.series is None:
            self.series = Series(self._plan(), now)
        self.series.add_game([s.name for s in table.seats], outcome.winner if outcome else None,
                             table.game.card_counts(), now,
                             timed=outcome is not None and outcome.termination == "time")
        self._keep()
        return "over" if self.series.plan.kind == "single" else "standings"

    def standings_view(self, now: int) -> StandingsView:
        series = self.series
        if series is None:
            return StandingsView((), 0, None)
        rows = tuple(StandingRow(n, seat, wins, cards, lead)
                     for n, seat, wins, cards, lead in series.standings())
        last = series.games[-1].winner if series.games else None
        over = series.over(now)
        return StandingsView(rows, len(series.games), series.plan.n if series.plan.kind == "best" else None,
                             series.minutes_left(now), last, series.photo, over,
                             series.winner(now) if over else None)

    def next_game(self) -> None:
        """The standings' hold: the next game (late joiners name themselves first), or the
        rematch once the match is over."""
        now = self.app.clock.now_ns()
        if self.series is not None and self.series.over(now):
            self.series = None
        self.open_names(now)

    # --- developer mode: the keyboard ---------------------------------------------------------
    def key(self, ev: Any) -> bool:
        """A key on the party's screens: Enter is the laptop player's hold (join: start; names:
        choose; the standings: next game). On the names screen F2 types a name for the first
        player still choosing (letters, Backspace, Enter when done, Esc to stop typing); without
        it the station keys are that player's buttons, as on the box."""
        pg = self.app.pg
        app = self.app
        enter = ev.key in (pg.K_RETURN, pg.K_KP_ENTER)
        now = app.clock.now_ns()
        if app.mode == "join" and enter:
            if not app.joined:
                self.join(0, now)
            self.open_names(now)
            return True
        if app.mode == "standings" and enter:
            self.next_game()
            return True
        picker = self.keyboard_picker() if app.mode == "names" else None
        if picker is None:
            return False
        if not self.typing:
            if ev.key == pg.K_F2:
                self.typing = True
                picker.type_text("")  # the wheel opens: what is typed shows there
            elif enter:
                self.hold(picker.station)
            else:
                return False
            return True
        if ev.key == pg.K_ESCAPE:
            self.typing = False
        elif enter:
            self.typing = False
            picker.enter(self.taken(picker.station))
            self._names_done_check()
        elif ev.key == pg.K_BACKSPACE:
            picker.backspace()
        else:
            picker.type_text(getattr(ev, "unicode", "") or "")
        return True

    # --- the match across a crash or a power cut -----------------------------------------------
    def _keep(self) -> None:
        """Write the match beside the journals (a game resumed after a crash finds its score)."""
        if self._match_path is None or self.series is None or self.series.plan.kind == "single":
            return
        match = self.app.match
        journal = match.journal.path.name if match is not None and match.journal is not None else None
        data = {"version": 1, "series": self.series.to_dict(self.app.clock.now_ns()), "game": journal,
                "names": {str(s): n for s, n in self.names.items()}, "named": sorted(self.named)}
        try:
            write_json_atomically(self._match_path, data)
        except OSError as e:
            log.warning("match: cannot save %s (%s)", self._match_path, e.strerror or e)

    def resume(self, match: Match) -> None:
        """The game a crash stopped is back: its match too, if the kept one has its players."""
        path = self._match_path
        if path is None or not path.exists():
            return
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            series = Series.from_dict(data["series"], self.app.clock.now_ns())
            names = {int(s): str(n) for s, n in data["names"].items()}
            named = {int(s) for s in data["named"]}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            log.warning("match: %s ignored (%s)", path, e)
            return
        game = match.journal.path.name if match.journal is not None else None
        if data.get("game") != game:  # the kept match was not playing this game
            return
        self.series, self.names, self.named = series, names, named

    def end(self) -> None:
        """Back to the menu: the match is over (the players and their names stay seated)."""
        if self._match_path is not None and self.series is not None:
            try:
                self._match_path.unlink(missing_ok=True)
            except OSError:
                pass
        self.series = None
        self.pickers = {}
        self.typing = False
        for s in self.app.joined:
            self.app.inputs.set_led(s, False)  # lit by the button check


__all__ = ["Party"]
