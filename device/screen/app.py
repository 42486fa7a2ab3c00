"""The screen app: attract mode, menus, the game, pause, pass-the-box, game over — one mode at a time.

It receives its clock, inputs, journal folder, sound and display from the composition root
(`device.box`) and is driven by the one real-time loop (`device.table.loop`), or by a test through
the same public methods in virtual time: ``step`` (one pass: SDL's events, the inputs, what is
due, the frame), ``press`` and ``handle_event`` (one input), ``tick`` (time passes), ``draw``.

Outside a game (attract mode, menus, game over) any station drives the menus: tap = next, hold =
choose. During a game station buttons are only slaps and flips; the MENU button (Esc in developer
mode) pauses, and holding it 5 s asks for a safe shutdown (never run in developer mode).
"""

from __future__ import annotations

import logging
import os
import queue
import shlex
import subprocess
from typing import TYPE_CHECKING, Any

from device.clock import Clock
from device.inputs.press import MENU_STATION, LinkStatus, Press, RawEdge, Stuck, Unstuck
from device.journal.stats import FILE_NAME, Leaderboard
from device.rules.events import GameOver, PileWon
from device.screen.chooser import HOLD_NS, Choosing
from device.screen.menu import Menu
from device.screen.party import Party
from device.table.arbiter import Award, WrongSlapCall
from device.table.match import Match
from device.table.table import DecisionNeeded, Judged, Table, ToShow

if TYPE_CHECKING:
    from device.box import Box, Options

log = logging.getLogger("slapbox")
MS = 1_000_000
SHUTDOWN_HOLD_NS = 5000 * MS
IDLE_WAIT_NS = 250 * MS     # the longest the loop sleeps when nothing is due
REFRESH_NS = 250 * MS       # redraw at least this often (banners and flashes expire)
KEY_POLL_NS = 10 * MS       # developer mode: how often keys are read while cards are moving
QUIET_KEY_POLL_NS = 50 * MS  # ... and when nothing has happened for HOT_NS
HOT_NS = 3000 * MS
BOX_POLL_NS = 100 * MS      # the box: SDL's events (none expected) are looked at this often
#: the screens where a station's first press seats it
JOINING = ("attract", "menu", "join", "names", "standings", "over")
#: set to "1", the app stops once its first frame is flipped (slapbox bench startup)
EXIT_AFTER_FIRST_FRAME = "SLAPBOX_EXIT_AFTER_FIRST_FRAME"


class App(Choosing):
    """Attract mode, menus, the game, pause, pass-the-box, game over: one state at a time."""

    def __init__(self, opts: Options, display: Any, *, clock: Clock | None = None,
                 sounds: Any = None, box: Box | None = None) -> None:
        """``box`` (or, without one, a box built on ``clock``) gives the inputs, the journal
        folder and the games; ``sounds`` None is a silent box."""
        import pygame

        from device.box import Box
        from device.inputs.keyboard import DEFAULT_KEYS, KeyboardSource
        from device.screen import scene as sc
        from device.screen.feed import Feed
        from device.screen.render import Renderer

        self.pg = pygame
        self.sc = sc
        self.opts = opts
        self.display = display
        self.renderer = Renderer()
        self._wake_type = pygame.event.custom_type()
        self.box = box if box is not None else Box(opts, clock=clock, wake=self._post_wake)
        self.clock = self.box.clock
        self.inputs = self.box.inputs
        self.keyboard = KeyboardSource(DEFAULT_KEYS)
        self.sounds = sounds
        self.Feed = Feed
        folder = self.box.folder
        self.leaderboard = Leaderboard(None if folder is None else folder / FILE_NAME)
        from device.screen.prefs import Prefs
        self.prefs = Prefs(self.box.folder)  # the menu's choices, remembered between starts
        if self.prefs.restore(opts.settings, opts.settings.pinned) and sounds is not None:
            sounds.set_volume(opts.settings.volume / 100)
        self.party = Party(self)  # the button check, the players' names, the match
        self.menu = self._new_menu()
        self.mode = "attract"
        self.joined: list[int] = []
        self.match: Match | None = None
        self._running = True
        self.help = False
        self._help_paused = False  # the help paused the game (and closing it goes on)
        self._now = 0              # the latest time the loop passed in (virtual time may lead the clock)
        #: what the message screen says: catalogue keys with their values, translated when drawn
        self.message: tuple[tuple[str, tuple[tuple[str, object], ...]], ...] | None = None
        self._message_until = 0
        self.unlinked: LinkStatus | None = None  # the buttons' link is down: the game waits
        self._ready = False
        self.shown: set[int] = set()
        self.last_scene: Any = None
        self._woken: Any = None             # the input that ended the last wait
        self.held: dict[int, int] = {}      # station -> press time (menus: tap / hold)
        self.hold_done: set[int] = set()
        self.menu_down: int | None = None   # MENU button press time
        self.last_input = self.clock.now_ns()
        self.private = False                # norvégienne: the hand is shown (after "press to look")
        self._looker: int | None = None     # ... to this seat
        self.chooser_cursor = 0
        self.over_since = 0
        self._dirty = True
        self._last_output = 0
        self._drawn_state: Any = None
        self._next_refresh = 0
        self._start_attract()
        resumed = self.box.resume_match(feed_factory=self._feed_for,
                                        on_item=self._sound_and_leds) if opts.resume else None
        if resumed is not None:
            # the game a crash or a power cut stopped: back on the table, paused until the
            # players choose to go on
            self._end_match()
            self.match = resumed
            self.joined = sorted(s.station for s in resumed.table.seats
                                 if s.station is not None and not s.bot)
            self.party.resume(resumed)  # and its match's score, if it was one
            self.mode = "game"
            self._pause(True)
            self.say("resumed", ms=3000)
        elif opts.start_now:
            self.joined = [] if opts.all_bots else self._present_stations()
            self._start_game()

    def _present_stations(self) -> list[int]:
        """Who plays a game started at once: keyboard station 1, every wired station, a script's."""
        if self.inputs.wired is not None:
            return list(range(self.inputs.stations()))
        if self.inputs.script:
            return sorted({p.station for p in self.inputs.script if p.station >= 0})
        return [0]

    def _post_wake(self) -> None:
        try:
            self.pg.event.post(self.pg.event.Event(self._wake_type))
        except self.pg.error:
            pass

    # --- the loop (device.table.loop drives these) -------------------------------------------
    @property
    def running(self) -> bool:
        return self._running

    @property
    def ready(self) -> bool:
        """The first frame is up (systemd's READY=1 is sent then)."""
        return self.last_scene is not None

    def step(self, now_ns: int | None = None, woken: Any | None = None) -> None:
        """One pass of the loop: SDL's events, ``woken`` then the other inputs, what is due, the
        frame."""
        self._woken = woken
        for ev in self.pg.event.get():
            self.handle_event(ev, self.clock.now_ns())
        self._drain_inputs()
        self.tick(self.clock.now_ns())
        self.draw()

    def close(self) -> None:
        """The process stops: the game's journal is closed as it is (a later start may resume
        it), the inputs are released."""
        if self.match is not None:
            self.match.close()
        self.box.close()

    def wake_at(self, now_ns: int) -> tuple[int, int | None]:
        """When the loop must look again at the latest, and the table's deadline."""
        now = now_ns
        deadlines = [self.clock.next_deadline()]
        due = self.match.table.next_deadline() if self.match is not None else None
        deadlines.append(due)
        if self.inputs.wired is not None:
            deadlines.append(self.inputs.wired.next_deadline())
        if self.held or self.menu_down is not None:
            deadlines.append(now + 50 * MS)
        deadlines.append(now + IDLE_WAIT_NS)
        wait_ns = max(0, min(d for d in deadlines if d is not None) - now)
        # The loop blocks on the input queue, where GPIO presses land from their thread, so a
        # press wakes it at once. SDL's own event wait polls (a few % of a core doing nothing),
        # so keys are read by looking every KEY_POLL_NS instead (they are stamped when read).
        if self.opts.source != "keyboard":
            step = BOX_POLL_NS
        elif now - self._last_output < HOT_NS or self.held or self.menu_down is not None:
            step = KEY_POLL_NS  # cards are moving: keys are read (and stamped) often
        else:
            step = QUIET_KEY_POLL_NS
        return now + min(wait_ns, step), due

    # --- inputs ---------------------------------------------------------------------------
    def handle_event(self, ev: Any, t: int) -> None:
        pg = self.pg
        self._dirty = True
        if ev.type == pg.QUIT:
            self._running = False
            return
        if ev.type in (pg.KEYDOWN, pg.KEYUP):
            if ev.type == pg.KEYDOWN and (ev.key == pg.K_F1 or (self.help and ev.key == pg.K_ESCAPE)):
                self._show_help(not self.help)
                return
            if self.help:
                return  # the keys wait while the help is up (the game is paused behind it)
            if self._menu_keys(ev):
                return
            press = self.keyboard.handle(ev, t) if self.keyboard is not None else None
            if press is not None:
                self.press(press, t)
        elif ev.type == pg.MOUSEBUTTONDOWN and self.mode in ("menu", "pause"):
            # a click chooses the highlighted item (left button) or steps it back (right button)
            self.menu_action(self.menu.choose(-1 if getattr(ev, "button", 1) == 3 else 1))
        elif ev.type == pg.MOUSEWHEEL and self.mode in ("menu", "pause"):
            (self.menu.prev if ev.y > 0 else self.menu.next)()

    def _show_help(self, on: bool) -> None:
        """F1's help: a game waits behind it (paused here unless the pause menu already is); its
        pages turn from the moment it opens (the key map first)."""
        self.help = on
        self.last_input = max(self.clock.now_ns(), self._now)
        table = self.match.table if self.match is not None and not self.match.attract else None
        if on and table is not None and self.mode == "game" and not table.paused:
            table.pause(True)
            self._help_paused = True
        elif not on and self._help_paused:
            self._help_paused = False
            if table is not None and self.mode == "game":
                table.pause(False)

    def _menu_keys(self, ev: Any) -> bool:
        """Developer mode: arrows, Enter and Esc drive the menus directly."""
        pg = self.pg
        if ev.type == pg.KEYDOWN and self.mode in ("join", "names", "standings"):
            return self.party.key(ev)
        if ev.type != pg.KEYDOWN or self.mode not in ("menu", "pause", "over", "attract"):
            return False
        if self.mode in ("menu", "pause"):
            if ev.key in (pg.K_DOWN, pg.K_TAB):
                self.menu.next()
            elif ev.key == pg.K_UP:
                self.menu.prev()
            elif ev.key in (pg.K_RETURN, pg.K_KP_ENTER, pg.K_RIGHT, pg.K_SPACE):
                self.menu_action(self.menu.choose())
            elif ev.key == pg.K_LEFT:
                self.menu_action(self.menu.choose(-1))
            else:
                return False
            self.last_input = self.clock.now_ns()
            return True
        if ev.key in (pg.K_RETURN, pg.K_SPACE):
            self._to_menu()
            return True
        return False

    def say(self, *keys: str, ms: int | None = 3000, **kw: object) -> None:
        """Show catalogue ``keys`` (one line each, with ``kw`` as their values) for ``ms``
        milliseconds (None: until the box stops)."""
        self.message = tuple((k, tuple(sorted(kw.items()))) for k in keys)
        now = max(self.clock.now_ns(), self._now)
        self._message_until = (1 << 62) if ms is None else now + ms * MS
        self._dirty = True

    def _on_link(self, status: LinkStatus) -> None:
        """The buttons' link (the bridge) went down or came back: a game waits while it is down."""
        self._dirty = True
        if not status.connected:
            log.warning("buttons (%s): %s%s", status.source, status.state,
                        f" ({status.reason})" if status.reason else "")
            first = self.unlinked is None
            self.unlinked = status
            if self.mode == "game":
                self._pause(True)
            if first:
                self.say("link.lost", ms=None, reason=status.reason or status.state)
            return
        if self.unlinked is not None:
            self.unlinked = None
            self.say("link.back")  # the pause menu's Resume goes on

    def _drain_inputs(self) -> None:
        while True:
            item, self._woken = self._woken, None  # the item that woke the loop comes first
            if item is None:
                try:
                    item = self.inputs.inbox.get_nowait()
                except queue.Empty:
                    break
            now = self.clock.now_ns()
            if isinstance(item, Press):
                self.press(item, now)
            elif isinstance(item, (Stuck, Unstuck)):
                self.party.on_stuck(item.station, isinstance(item, Stuck))  # the button check names it
                if self.match is not None:
                    self.match.table.submit(item, now)
            elif isinstance(item, LinkStatus):
                self._on_link(item)
            elif type(item) is RawEdge and self.match is not None:
                self.match.table.submit(item, now)  # evidence for the journal
        if self.inputs.wired is not None:
            self.inputs.wired.poll(self.clock.now_ns())

    def press(self, press: Press, arrival: int) -> None:
        self.last_input = arrival
        self._dirty = True
        if press.station == MENU_STATION:
            self._on_menu_button(press, arrival)
            return
        if self.mode == "game" and self.match is not None:
            if self.pending_human() is not None:
                self._choose_with(press)
                return
            self.match.table.submit(press, arrival)
            return
        # Outside a game: tap = next, hold = choose; the first press of a station joins it
        # (between games too: a late joiner plays the next one; with --bots all, nobody joins).
        if press.edge == "press":
            if self.opts.all_bots and self.mode == "attract":
                return self._to_menu()
            if press.station not in self.joined and self.mode in JOINING and not self.opts.all_bots:
                self.party.join(press.station, arrival)
                if self.mode == "attract":
                    self._to_menu()
                elif self.mode == "names":
                    self.party.open_names(arrival)  # the newcomer picks a name too
                return
            if self.mode == "join":
                self.party.check_press(press, arrival)
            self.held[press.station] = press.t_ns
            self.hold_done.discard(press.station)  # a hold whose release went to a game is over
        else:
            t0 = self.held.pop(press.station, None)
            if press.station in self.hold_done:
                self.hold_done.discard(press.station)
            elif t0 is not None:
                self._tap(press.station)

    def _on_menu_button(self, press: Press, now: int) -> None:
        if press.edge == "press":
            self.menu_down = press.t_ns
            return
        down, self.menu_down = self.menu_down, None
        if down is None or self.message is not None:
            return
        if self.mode == "game":
            self._pause(True)
        elif self.mode == "pause":
            self._pause(False)
        elif self.mode == "names":
            self.party.finish_names()  # the players still choosing keep their default names
        elif self.mode in ("menu", "over", "attract", "join", "standings"):
            if self.mode == "menu" and self.menu.page.startswith("rules"):
                self.menu.back()  # a house-rule group's page goes up to the groups, then the menu
            else:
                self._to_menu()

    def _tap(self, station: int) -> None:
        if self.mode in ("menu", "pause"):
            self.menu.next()
        elif self.mode == "names":
            self.party.tap(station)
        elif self.mode == "standings":
            self.mode = "over"      # the last game's statistics ...
        elif self.mode == "over":
            if self.party.in_match():
                self.mode = "standings"  # ... and back to the match
            else:
                self._to_menu()

    def _hold(self, station: int) -> None:
        if self.mode == "game" and self.private and self.pending_human() is not None:
            self._choose_current()
            return
        if self.mode in ("menu", "pause"):
            self.menu_action(self.menu.choose())
        elif self.mode == "join":
            if station in self.joined:
                self.party.open_names(self.clock.now_ns())
        elif self.mode == "names":
            self.party.hold(station)
        elif self.mode in ("over", "standings"):
            self.party.next_game()  # the next game of the match, or the rematch

    # --- states ---------------------------------------------------------------------------
    def menu_action(self, action: str | None) -> None:
        """Do what the menu's chosen item says (start, resume, quit_game, quit, shutdown)."""
        if action in ("start", "check"):
            self._open_join()
        elif action is not None and action.startswith("forget:"):
            self.party.forget(action.split(":", 1)[1])
            self.menu.known_names = list(self.party.book.names)
            return
        elif action == "resume":
            if self.unlinked is not None:  # without its buttons the game would judge nobody
                self.say("link.lost", ms=None, reason=self.unlinked.reason or self.unlinked.state)
                return
            self._pause(False)
        elif action == "quit_game":
            self._end_match()
            self._to_menu()
        elif action == "quit":
            self._running = False
        elif action == "shutdown":
            self._shutdown()
        if action is None:  # a setting stepped: heard at once, remembered for the next start
            if self.sounds is not None:
                self.sounds.set_volume(self.opts.settings.volume / 100)
            self.prefs.save(self.opts.settings, self.opts.settings.pinned)

    def _new_menu(self, page: str = "main") -> Menu:
        return Menu(self.opts.settings, page, dev_mode=not self.opts.service,
                    names=self.party.book.names)

    def _to_menu(self) -> None:
        if self.match is not None and self.match.attract:
            self._end_match()
        self.party.end()
        self.mode = "menu"
        self.menu = self._new_menu()

    def _open_join(self) -> None:
        """The button check, which seats the players (the menu's Start and Button check)."""
        if self.match is not None and self.match.attract:
            self._end_match()
        if self.opts.all_bots:
            self.party.start_game()  # nobody to seat: the bots play
            return
        self.party.open_join(self.clock.now_ns())

    def _start_attract(self) -> None:
        self._end_match()
        self.party.end()  # an unfinished match, names half picked, the check's LEDs: all gone
        self.mode = "attract"
        self.joined = []
        self.match = self.box.new_match([], attract=True, feed_factory=self._feed_for,
                                        on_item=self._sound_and_leds)
        self.shown = set()

    def _feed_for(self, table: Table) -> Any:
        return self.Feed(lang=self.opts.settings.lang, names=[s.name for s in table.seats])

    def _start_game(self) -> None:
        self.start_game(None)

    def start_game(self, names: dict[int, str] | None, *, time_limit_ns: int | None = None) -> None:
        """A game starts now with the joined stations (``names``: theirs, by station; None:
        the config's names by seat; ``time_limit_ns``: at most this long, a timed match's rest)."""
        self._end_match()
        if not self.joined and not self.opts.all_bots and self.opts.source == "keyboard":
            self.joined = [0]  # the laptop's own player: station 1's keys
        self.match = self.box.new_match(sorted(self.joined), feed_factory=self._feed_for,
                                        on_item=self._sound_and_leds, names=names,
                                        time_limit_ns=time_limit_ns)
        self.party.named.update(self.joined)  # a rematch asks no one for a name again
        self.mode = "game"
        self.shown = set()
        self.private = False
        self.chooser_cursor = 0

    def _end_match(self) -> None:
        if self.match is not None:
            self.match.abandon()
            self.match = None

    def _pause(self, on: bool) -> None:
        if self.match is None:
            return
        self.match.table.pause(on)
        self.mode = "pause" if on else "game"
        if on:
            self.menu = self._new_menu("pause")

    def _shutdown(self) -> None:
        if not self.opts.service:
            self.say("shutdown.dev", ms=2500)
            return
        self.say("shutdown.now", ms=None)
        self.draw()
        try:
            subprocess.run(shlex.split(self.opts.shutdown_command), check=False, timeout=30)
        except (OSError, subprocess.SubprocessError) as e:
            log.error("shutdown command %r failed: %s", self.opts.shutdown_command, e)
        self._running = False

    # --- time -----------------------------------------------------------------------------
    def tick(self, now: int) -> None:
        self._now = max(self._now, now)
        for station, t0 in list(self.held.items()):
            if station not in self.hold_done and now - t0 >= HOLD_NS:
                self.hold_done.add(station)
                self.held.pop(station, None)
                self._hold(station)
        if self.menu_down is not None and now - self.menu_down >= SHUTDOWN_HOLD_NS:
            self.menu_down = None
            self._shutdown()
        if self.message is not None and now >= self._message_until:
            self.message = None
        match = self.match
        if match is not None and self.mode in ("game", "attract", "pause"):
            match.runner.step(now)  # its outputs reach the feed, sound and LEDs (_sound_and_leds)
            if match.over:
                if not match.attract:
                    if self.mode == "game":
                        self._game_over(now)
                elif self.over_since == 0:
                    self.over_since = now
                elif now - self.over_since > 4000 * MS:  # the demo's end stays up a moment
                    self.over_since = 0
                    self._start_attract()
        idle = self.mode in ("menu", "join") or (self.mode == "over" and not self.party.in_match())
        if idle and now - self.last_input > self.opts.idle_attract_ns:  # a match waits for its players
            self._start_attract()

    def _sound_and_leds(self, item: Any, match: Match) -> None:
        self._dirty = True
        self._last_output = self.clock.now_ns()
        sounds = self.sounds if not match.attract else None
        if isinstance(item, ToShow):
            if sounds:
                sounds.play("flip")
            seat = match.table.game.current_seat()
            for s in match.table.seats:
                self.inputs.set_led(s.station, s.seat == seat)
        elif isinstance(item, Judged) and item.seat is not None:  # None: a station without a seat
            st = match.table.seats[item.seat].station
            if isinstance(item.decision, Award):
                if sounds:
                    sounds.play("slap")
                if not match.attract:
                    self.party.photo_finish(item.decision, item.seat, item.seat_of, match)
                self.inputs.blink(st, 3, 150 * MS)
            elif isinstance(item.decision, WrongSlapCall):
                if sounds:
                    sounds.play("wrong")
                self.inputs.blink(st, 6, 60 * MS)
        elif isinstance(item, PileWon) and item.reason == "challenge" and sounds:
            sounds.play("win")
        elif isinstance(item, GameOver) and sounds:
            sounds.play("game_over")
        elif isinstance(item, DecisionNeeded):
            if item.seat != self._looker:  # the box passes to another player: hide the hand
                self.private = False
            self.chooser_cursor = 0

    def _game_over(self, now: int) -> None:
        match = self.match
        assert match is not None
        outcome = match.table.game.outcome()
        self.leaderboard.add_game(match.table.seat_stats(), outcome.winner if outcome else None)
        try:
            self.leaderboard.save()
        except OSError as e:
            log.warning("leaderboard: cannot save (%s)", e)
        match.close()
        self.mode = self.party.game_over(match, now)  # "over", or the match's standings
        self.over_since = now
        self.last_input = now

    # --- drawing --------------------------------------------------------------------------
    def scene(self) -> Any:
        """The scene the screen shows now (device.screen.view decides it)."""
        from device.screen.view import scene_of
        return scene_of(self)

    def draw(self) -> None:
        # Build a scene only when something happened (an input, the table's output, a new mode)
        # or a refresh is due (banners that expire): an idle box costs next to nothing.
        now = self.clock.now_ns()
        state = (self.mode, self.help, self.message, self.private, self.chooser_cursor,
                 self.menu.page, self.menu.cursor, len(self.joined))
        if not self._dirty and state == self._drawn_state and now < self._next_refresh:
            return
        self._dirty = False
        self._drawn_state = state
        self._next_refresh = now + REFRESH_NS
        scene = self.scene()
        if scene == self.last_scene:
            return
        dirty = self.renderer.draw(scene, self.display.surface)
        t_flip = self.display.flip(dirty)
        if self.last_scene is None:
            w, h = self.display.size
            print(f"slapbox play: first frame, {w}x{h}", flush=True)
            from device.box import end_of_start
            end_of_start()
            if os.environ.get(EXIT_AFTER_FIRST_FRAME) == "1":
                self._running = False  # slapbox bench startup: the start is what it measures
        self.last_scene = scene
        match = self.match
        if match is not None and self.mode in ("game", "attract", "pause"):
            for k in getattr(scene, "card_numbers", ()):
                if k not in self.shown:
                    self.shown.add(k)
                    match.runner.shown(k, t_flip)  # the presenter: Shown after the first flip


__all__ = ["App", "HOLD_NS"]
