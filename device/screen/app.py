"""The box you play: the composition root of `slapbox play` and its main loop.

Everything is chosen here, by name, once: the input backend (keyboard | gpio | script:FILE), the
screen (an SDL window, fullscreen kmsdrm, or none), sound, LEDs, the journal. Then one loop, in
order: read inputs (stamped at the source), run the clock's due callbacks (bots, scripts), advance
the table, hand its output to the feed, sound and LEDs, build the scene, draw what changed, flip,
report `Shown` for the cards that flip first drew, wait for the next input or deadline.

Outside a game (attract mode, menus, game over) any station drives the menus: tap = next, hold =
choose. During a game station buttons are only slaps and flips; the MENU button (Esc in developer
mode) pauses, and holding it 5 s asks for a safe shutdown (never run in developer mode).
"""

from __future__ import annotations

import datetime
import logging
import queue
import shlex
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.clock import SPIN_NS, MonotonicClock, wait_for
from device.config.schema import Config, ms_to_ns
from device.inputs.press import MENU_STATION, Press, Stuck, Unstuck
from device.journal.journal import (
    FileJournal,
    JournalError,
    default_dir,
    journal_name,
    read_journal,
    unfinished,
)
from device.journal.replay import ReplayMismatch, continue_game
from device.journal.stats import FILE_NAME, Leaderboard
from device.rules.events import GameOver, PileWon
from device.screen.menu import TEMPOS, Menu, Settings
from device.service.notify import Notifier
from device.table.arbiter import ArbiterSettings, Award, WrongSlapCall
from device.table.runner import Runner
from device.table.session import DEFAULT_NAMES, GameSpec, bot_hands, bot_minds, make_table, spec_from_header
from device.table.table import DecisionNeeded, Judged, Table, TableSettings, ToShow, assign_seats

log = logging.getLogger("slapbox")
MS = 1_000_000
HOLD_NS = 600 * MS          # a press held this long is a "hold" (choose) outside a game
SHUTDOWN_HOLD_NS = 5000 * MS
IDLE_WAIT_NS = 250 * MS     # the longest the loop sleeps when nothing is due
REFRESH_NS = 250 * MS       # redraw at least this often (banners and flashes expire)
KEY_POLL_NS = 10 * MS       # developer mode: how often keys are read while cards are moving
QUIET_KEY_POLL_NS = 50 * MS  # ... and when nothing has happened for HOT_NS
HOT_NS = 3000 * MS
BOX_POLL_NS = 100 * MS      # the box: SDL's events (none expected) are looked at this often


@dataclass
class Options:
    """What `slapbox play` was asked for (config merged with the command line)."""

    settings: Settings
    names: list[str] = field(default_factory=lambda: list(DEFAULT_NAMES))
    size: tuple[int, int] = (800, 480)
    fullscreen: bool = False
    driver: str = ""
    source: str = "keyboard"
    seed: int | None = None
    packs: list[list[int]] | None = None
    journal: str = ""  # "" default dir, "none", or a folder
    service: bool = False
    headless: bool = False
    start_now: bool = False  # straight into a game (no menu): --preset/--deal/--players given
    all_bots: bool = False   # every seat a bot (watch them play)
    shutdown_command: str = "systemctl poweroff"
    idle_attract_ns: int = 90_000 * MS
    spin_ns: int = SPIN_NS  # [service] spin_ms: see device.clock.wait_for
    resume: bool = False     # go on with the newest unfinished game of the journal folder
    arbiter: ArbiterSettings = field(default_factory=ArbiterSettings)
    timing: dict[str, Any] = field(default_factory=dict)
    pins: dict[str, Any] = field(default_factory=dict)


def table_settings(opts: Options) -> TableSettings:
    t = opts.timing
    tempo = ms_to_ns(TEMPOS.get(opts.settings.tempo, t.get("tempo_ms", 900)))
    if opts.settings.tempo == "custom":
        tempo = ms_to_ns(t.get("tempo_ms", 900))
    return TableSettings(flip_mode=opts.settings.flip_mode, tempo_ns=tempo,
                         tempo_speedup=float(t.get("tempo_speedup", 0.0)),
                         tempo_min_ns=min(tempo, ms_to_ns(t.get("tempo_min_ms", 350))),
                         auto_flip_timeout_ns=ms_to_ns(t.get("auto_flip_timeout_ms", 4000)),
                         first_card_ns=ms_to_ns(t.get("first_card_ms", 1500)),
                         pile_pause_ns=ms_to_ns(t.get("pile_pause_ms", 1200)))


def arbiter_settings(cfg: Config) -> ArbiterSettings:
    t = cfg.section("timing")
    return ArbiterSettings(settle_ns=ms_to_ns(t["settle_ms"]), tie_ns=ms_to_ns(t["tie_window_ms"]),
                           grace_ns=ms_to_ns(t["grace_ms"]), release_ns=ms_to_ns(t["release_ms"]),
                           stuck_ns=ms_to_ns(t["stuck_ms"]),
                           collect_delay_ns=ms_to_ns(t["collect_delay_ms"]))


def journal_folder(opts: Options) -> Path | None:
    if opts.journal == "none":
        return None
    return Path(opts.journal) if opts.journal else default_dir(service=opts.service)


# --- input backends, chosen by name ---------------------------------------------------------
class Inputs:
    """The stations' buttons from one backend; presses land in ``inbox`` (the thread boundary)."""

    def __init__(self, source: str, opts: Options, clock: MonotonicClock, wake: Any = None) -> None:
        self.source = source
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.gpio = None
        self.keyboard = None
        self.script: list | None = None
        self._wake = wake
        if source == "gpio":
            from device.inputs.gpio import GpioInputs, StationPins, make_factory
            pins = opts.pins
            stations = [StationPins(p["slap"], p.get("flip"), p.get("led")) for p in pins["stations"]]
            self.gpio = GpioInputs(stations, self._sink, menu_pin=pins.get("menu"),
                                   factory=make_factory(pins.get("factory", "lgpio")), clock=clock,
                                   release_ns=opts.arbiter.release_ns, stuck_ns=opts.arbiter.stuck_ns)
        elif source.startswith("script:"):
            from device.inputs.script import load_script
            self.script = load_script(source.split(":", 1)[1])
        elif source != "keyboard":
            raise ValueError(f"input {source!r}: expected keyboard, gpio or script:FILE")

    def _sink(self, item: Any) -> None:
        # Runs on gpiozero's callback thread: only enqueue, then wake the main loop.
        self.inbox.put(item)
        if self._wake is not None:
            self._wake()

    def stations(self) -> int:
        if self.gpio is not None:
            return len(self.gpio.stations)
        return 8

    def set_led(self, station: int, on: bool) -> None:
        if self.gpio is not None and station is not None and 0 <= station < len(self.gpio.stations):
            self.gpio.set_led(station, on)

    def blink(self, station: int, times: int, on_ns: int) -> None:
        if self.gpio is not None and station is not None and 0 <= station < len(self.gpio.stations):
            self.gpio.blink(station, times=times, on_ns=on_ns)

    def close(self) -> None:
        if self.gpio is not None:
            self.gpio.close()


# --- a game at the table --------------------------------------------------------------------
class Match:
    """One game: its table, runner (bots, scripts), journal and feed."""

    def __init__(self, opts: Options, clock: MonotonicClock, stations: list[int], *,
                 attract: bool = False, feed_factory: Any = None, script: list | None = None,
                 headless: bool = False, on_item: Any = None,
                 resumed: tuple[GameSpec, Table, FileJournal] | None = None) -> None:
        self.attract = attract
        self.feed_factory = feed_factory
        self.on_item = on_item
        self.resumed = resumed is not None
        if resumed is not None:
            self.spec, self.table, self.journal = resumed
            self._run(clock, feed_factory, on_item, headless, None)
            return
        s = opts.settings
        players = max(s.players, len(stations)) if not attract else s.players
        from device.rules.presets import PRESETS
        spec_p = PRESETS[s.preset]
        if opts.packs is not None and not attract:
            players = len(opts.packs)
        players = max(spec_p.min_players, min(players, spec_p.max_players))
        seats = assign_seats(players, [] if attract else stations, opts.names, bots="free", level=s.level)
        seed = opts.seed if opts.seed is not None and not attract else time.monotonic_ns() % (2**32)
        self.spec = GameSpec(s.preset, seed, seats, dict(s.options), None if attract else opts.packs,
                             opts.arbiter, table_settings(opts))
        self.journal: FileJournal | None = None
        folder = None if attract else journal_folder(opts)
        start = clock.now_ns()
        wall = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        if folder is not None:
            try:
                self.journal = FileJournal(folder / journal_name(s.preset, seed, wall))
            except OSError as e:
                log.warning("journal: cannot write in %s (%s); playing without a journal", folder, e)
        self.table: Table = make_table(self.spec, start_ns=start, journal=self.journal, wall=wall)
        self._run(clock, feed_factory, on_item, headless, script)

    def _run(self, clock: MonotonicClock, feed_factory: Any, on_item: Any, headless: bool,
             script: list | None) -> None:
        self.feed = feed_factory(self.table) if feed_factory else None
        self.runner = Runner(self.table, clock, hands=bot_hands(self.table),
                             minds=bot_minds(self.table), headless=headless, outputs=[self._out])
        if script:
            self.runner.schedule_script(script)

    @classmethod
    def resume(cls, opts: Options, clock: MonotonicClock, *, feed_factory: Any = None,
               headless: bool = False, on_item: Any = None) -> Match | None:
        """The newest unfinished game of the journal folder (a crash or a power cut stopped it),
        replayed from its journal into a fresh table that goes on now, on this clock, appending
        to the same journal. None if there is none or it cannot be replayed (said in the log)."""
        folder = journal_folder(opts)
        path = unfinished(folder) if folder is not None else None
        if path is None:
            return None
        try:
            head, records, _ = read_journal(path)
            if _failed_resumes(records) >= 3:
                raise JournalError(f"{path}: resumed 3 times without anything happening since")
            spec = spec_from_header(head)
            # no screen, no menu to unpause it: a headless box goes on at once
            taken = continue_game(path, clock.now_ns(), unpause=headless)
        except Exception as e:  # noqa: BLE001 - whatever the file holds, the box must start
            reason = str(e) if isinstance(e, (JournalError, ReplayMismatch, OSError)) else repr(e)
            log.warning("resume: %s; starting afresh (the journal is marked left)", reason)
            _leave(path)
            return None
        for w in taken.result.warnings:
            log.warning("resume: %s", w)
        if taken.table is None or taken.journal is None:
            return None  # it had ended: its end is now written
        table, journal = taken.table, taken.journal
        log.info("resume: %s, %d inputs replayed", path, taken.result.inputs)
        return cls(opts, clock, [], feed_factory=feed_factory, headless=headless, on_item=on_item,
                   resumed=(spec, table, journal))

    def _out(self, item: Any, now: int) -> None:
        if self.feed is not None:
            self.feed.push(item, now)
        if self.on_item is not None:
            self.on_item(item, self)

    @property
    def over(self) -> bool:
        return self.table.game.outcome() is not None

    def close(self) -> None:
        """The process stops (quit, shutdown, a signal): the journal is closed as it is, and an
        unfinished game can be resumed by the next start (`resume`)."""
        if self.journal is not None:
            self.journal.close()

    def abandon(self) -> None:
        """The players left this game (the menu's quit, a new game): it will not be resumed."""
        if self.journal is not None and not self.over:
            self.journal.write({"k": "abandon", "t": self.table.now_ns})
        self.close()


def _failed_resumes(records: list[dict[str, Any]]) -> int:
    """How many times the journal was resumed with nothing played since (a box that dies while
    showing a resumed game would otherwise resume it, and die, at every boot)."""
    n = 0
    for r in reversed(records):
        if r["k"] == "resume":
            n += 1
        elif r["k"] not in ("pause", "tick"):
            break
    return n


def _leave(path: Path) -> None:
    """Mark a journal's game as left, so no start tries to resume it again."""
    try:
        j = FileJournal(path, background=False)
        j.write({"k": "abandon", "t": 0})
        j.close()
    except OSError as e:
        log.warning("resume: cannot mark %s as left (%s)", path, e)


def run_headless(opts: Options) -> int:
    """`slapbox play --headless`: the real clock, no screen; bots fill free seats."""
    clock = MonotonicClock()
    # No window, so no keyboard: the buttons come from GPIO or a script, bots fill the other seats.
    inputs = Inputs(opts.source, opts, clock) if opts.source != "keyboard" else None
    stations: list[int] = []
    if inputs is not None and inputs.gpio is not None:
        stations = list(range(inputs.stations()))
    elif inputs is not None and inputs.script:
        stations = sorted({p.station for p in inputs.script if p.station >= 0})
    match = Match.resume(opts, clock, headless=True) if opts.resume else None
    if match is None:
        match = Match(opts, clock, stations, script=inputs.script if inputs else None,
                      headless=True)
    print(f"slapbox play --headless: {'resumed ' if match.resumed else ''}{match.spec.preset}, "
          f"{len(match.table.seats)} seats, seed {match.spec.seed}"
          + (f", journal {match.journal.path}" if match.journal else ""), flush=True)
    notifier = Notifier()  # systemd: ready now, then alive from the loop (the watchdog)
    notifier.ready()
    try:
        match.runner.run_realtime(inputs.inbox if inputs else None, tick_ns=500 * MS,
                                  spin_ns=opts.spin_ns, on_tick=notifier.alive)
    except KeyboardInterrupt:
        print("slapbox play: stopped", flush=True)
        return 130
    finally:
        notifier.stopping()
        notifier.close()
        match.close()
        if inputs is not None:
            inputs.close()
    print(_result_line(match.table), flush=True)
    return 0


def _result_line(table: Table) -> str:
    outcome = table.game.outcome()
    if outcome is None:
        return "game unfinished"
    names = {s.seat: s.name for s in table.seats}
    if outcome.winner is not None:
        return f"{outcome.termination}: seat {outcome.winner} ({names[outcome.winner]}) wins"
    return f"{outcome.termination}: no winner"


def run_virtual_fallback(opts: Options, reason: str) -> int:
    """No display could open: say so in one line and play a bots' game in virtual time."""
    from device.clock import VirtualClock
    print(f"slapbox play: no display ({reason}); playing a bots' game in virtual time instead",
          flush=True)
    s = opts.settings
    seats = assign_seats(s.players, [], opts.names, bots="free", level=s.level)
    options = dict(s.options)
    options.setdefault("max_rounds", 2000)
    spec = GameSpec(s.preset, opts.seed if opts.seed is not None else 1, seats, options, opts.packs,
                    opts.arbiter, table_settings(opts))
    clock = VirtualClock(0)
    table = make_table(spec, start_ns=0)
    Runner(table, clock, hands=bot_hands(table), minds=bot_minds(table)).run_virtual()
    game = table.game
    print(f"{s.preset}, {len(seats)} bots, seed {spec.seed}: {_result_line(table)} after "
          f"{game.cards} cards, {game.tricks} tricks, {game.rounds} turns", flush=True)
    return 0


# --- the screen app -------------------------------------------------------------------------
class App:
    """Attract mode, menus, the game, pause, pass-the-box, game over: one state at a time."""

    def __init__(self, opts: Options, display: Any) -> None:
        import pygame

        from device.screen import scene as sc
        from device.screen.feed import Feed
        from device.screen.render import Renderer
        from device.screen.sound import Sounds

        self.pg = pygame
        self.sc = sc
        self.opts = opts
        self.display = display
        self.renderer = Renderer()
        self.clock = MonotonicClock()
        self._wake_type = pygame.event.custom_type()
        self.inputs = Inputs(opts.source, opts, self.clock, wake=self._post_wake)
        self.keyboard = None
        from device.inputs.keyboard import DEFAULT_KEYS, KeyboardSource, describe_keys
        self.keyboard = KeyboardSource(DEFAULT_KEYS)
        self.key_help = describe_keys(DEFAULT_KEYS, 8)
        self.sounds = Sounds.open(opts.settings.volume / 100)
        self.Feed = Feed
        self.leaderboard = Leaderboard(None if journal_folder(opts) is None
                                       else journal_folder(opts) / FILE_NAME)  # type: ignore[operator]
        self.menu = Menu(opts.settings, dev_mode=not opts.service)
        self.mode = "attract"
        self.joined: list[int] = []
        self.match: Match | None = None
        self.running = True
        self.help = False
        self.message: list[str] | None = None
        self._message_until = 0
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
        resumed = Match.resume(opts, self.clock, feed_factory=self._feed_for,
                               on_item=self._sound_and_leds) if opts.resume else None
        if resumed is not None:
            # the game a crash or a power cut stopped: back on the table, paused until the
            # players choose to go on
            self._end_match()
            self.match = resumed
            self.joined = sorted(s.station for s in resumed.table.seats
                                 if s.station is not None and not s.bot)
            self.mode = "game"
            self._pause(True)
            self.message = ["resumed"]
            self._message_until = self.clock.now_ns() + 3000 * MS
        elif opts.start_now:
            self.joined = [] if opts.all_bots else self._present_stations()
            self._start_game()

    def _present_stations(self) -> list[int]:
        """Stations that play when the game starts at once: the keyboard's first station, every
        wired GPIO station, or the stations a script presses."""
        if self.inputs.gpio is not None:
            return list(range(self.inputs.stations()))
        if self.inputs.script:
            return sorted({p.station for p in self.inputs.script if p.station >= 0})
        return [0]

    def _post_wake(self) -> None:
        try:
            self.pg.event.post(self.pg.event.Event(self._wake_type))
        except self.pg.error:
            pass

    # --- the loop -----------------------------------------------------------------------
    def run(self) -> int:
        from device.table.runner import real_time_switch_interval
        real_time_switch_interval()
        pg = self.pg
        notifier = Notifier()  # systemd's watchdog: a loop that freezes gets the box restarted
        try:
            while self.running:
                for ev in pg.event.get():
                    self._on_event(ev, self.clock.now_ns())
                self._drain_inputs()
                self._tick(self.clock.now_ns())
                self._draw()
                if not self._ready:
                    self._ready = notifier.ready()  # the first frame is up (tried until sent)
                notifier.alive(self.clock.now_ns())
                self._wait()
        finally:
            notifier.stopping()
            notifier.close()
            if self.match is not None:
                self.match.close()
            self.inputs.close()
        return 0

    def _wait(self) -> None:
        now = self.clock.now_ns()
        deadlines = [self.clock.next_deadline()]
        due = self.match.table.next_deadline() if self.match is not None else None
        deadlines.append(due)
        if self.inputs.gpio is not None:
            deadlines.append(self.inputs.gpio.next_deadline())
        if self.held or self.menu_down is not None:
            deadlines.append(now + 50 * MS)
        deadlines.append(now + IDLE_WAIT_NS)
        wait_ns = max(0, min(d for d in deadlines if d is not None) - now)
        # Block on the input queue, where GPIO presses land from their thread, so a press wakes
        # the loop at once. SDL's own event wait polls (a few % of a core doing nothing), so
        # keys are read by looking every KEY_POLL_NS instead (they are stamped when read anyway).
        if self.opts.source != "keyboard":
            step = BOX_POLL_NS
        elif now - self._last_output < HOT_NS or self.held or self.menu_down is not None:
            step = KEY_POLL_NS  # cards are moving: keys are read (and stamped) often
        else:
            step = QUIET_KEY_POLL_NS
        timeout_ns = min(wait_ns, step)
        if timeout_ns <= 0:
            return
        # the last moments before a judgement or a card are watched, not slept (wait_for)
        until = now + timeout_ns
        spin = self.opts.spin_ns if due is not None and until >= due else 0
        self._woken = wait_for(self.inputs.inbox, until, spin, self.clock.now_ns)

    # --- inputs ---------------------------------------------------------------------------
    def _on_event(self, ev: Any, t: int) -> None:
        pg = self.pg
        self._dirty = True
        if ev.type == pg.QUIT:
            self.running = False
            return
        if ev.type in (pg.KEYDOWN, pg.KEYUP):
            if ev.type == pg.KEYDOWN and ev.key == pg.K_F1:
                self.help = not self.help
                return
            if self._menu_keys(ev):
                return
            press = self.keyboard.handle(ev, t) if self.keyboard is not None else None
            if press is not None:
                self._on_press(press, t)
        elif ev.type == pg.MOUSEBUTTONDOWN and self.mode in ("menu", "pause"):
            # a click chooses the highlighted item (left button) or steps it back (right button)
            self._menu_action(self.menu.choose(-1 if getattr(ev, "button", 1) == 3 else 1))
        elif ev.type == pg.MOUSEWHEEL and self.mode in ("menu", "pause"):
            (self.menu.prev if ev.y > 0 else self.menu.next)()

    def _menu_keys(self, ev: Any) -> bool:
        """Developer mode: arrows, Enter and Esc drive the menus directly."""
        pg = self.pg
        if ev.type != pg.KEYDOWN or self.mode not in ("menu", "pause", "over", "attract"):
            return False
        if self.mode in ("menu", "pause"):
            if ev.key in (pg.K_DOWN, pg.K_TAB):
                self.menu.next()
            elif ev.key == pg.K_UP:
                self.menu.prev()
            elif ev.key in (pg.K_RETURN, pg.K_KP_ENTER, pg.K_RIGHT, pg.K_SPACE):
                self._menu_action(self.menu.choose())
            elif ev.key == pg.K_LEFT:
                self._menu_action(self.menu.choose(-1))
            else:
                return False
            self.last_input = self.clock.now_ns()
            return True
        if ev.key in (pg.K_RETURN, pg.K_SPACE):
            self._to_menu()
            return True
        return False

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
                self._on_press(item, now)
            elif isinstance(item, (Stuck, Unstuck)) and self.match is not None:
                self.match.table.submit(item, now)
        if self.inputs.gpio is not None:
            self.inputs.gpio.poll(self.clock.now_ns())

    def _on_press(self, press: Press, arrival: int) -> None:
        self.last_input = arrival
        self._dirty = True
        if press.station == MENU_STATION:
            self._on_menu_button(press, arrival)
            return
        if self.mode == "game" and self.match is not None:
            if self._pending_human() is not None:
                self._choose_with(press)
                return
            self.match.table.submit(press, arrival)
            return
        # Outside a game: tap = next, hold = choose; the first press of a station joins it.
        if press.edge == "press":
            if press.station not in self.joined and self.mode in ("attract", "menu"):
                self.joined.append(press.station)
                if self.mode == "attract":
                    self._to_menu()
                return
            self.held[press.station] = press.t_ns
        else:
            t0 = self.held.pop(press.station, None)
            if press.station in self.hold_done:
                self.hold_done.discard(press.station)
            elif t0 is not None:
                self._tap()

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
        elif self.mode in ("menu", "over", "attract"):
            if self.mode == "menu" and self.menu.page == "rules":
                self.menu.page, self.menu.cursor = "main", 0
            else:
                self._to_menu()

    def _tap(self) -> None:
        if self.mode in ("menu", "pause"):
            self.menu.next()
        elif self.mode == "over":
            self._to_menu()

    def _hold(self) -> None:
        if self.mode == "game" and self.private and self._pending_human() is not None:
            self._choose_current()
            return
        if self.mode in ("menu", "pause"):
            self._menu_action(self.menu.choose())
        elif self.mode == "over":
            self._start_game()

    # --- states ---------------------------------------------------------------------------
    def _menu_action(self, action: str | None) -> None:
        if action == "start":
            self._start_game()
        elif action == "resume":
            self._pause(False)
        elif action == "quit_game":
            self._end_match()
            self._to_menu()
        elif action == "quit":
            self.running = False
        elif action == "shutdown":
            self._shutdown()
        if action is None and self.sounds is not None:
            self.sounds.set_volume(self.opts.settings.volume / 100)

    def _to_menu(self) -> None:
        if self.match is not None and self.match.attract:
            self._end_match()
        self.mode = "menu"
        self.menu = Menu(self.opts.settings, dev_mode=not self.opts.service)

    def _start_attract(self) -> None:
        self._end_match()
        self.mode = "attract"
        self.joined = []
        self.match = Match(self.opts, self.clock, [], attract=True, feed_factory=self._feed_for,
                           on_item=self._sound_and_leds)
        self.shown = set()

    def _feed_for(self, table: Table) -> Any:
        return self.Feed(lang=self.opts.settings.lang, names=[s.name for s in table.seats])

    def _start_game(self) -> None:
        self._end_match()
        if not self.joined and not self.opts.all_bots and self.opts.source == "keyboard":
            self.joined = [0]  # the laptop's own player: station 1's keys
        self.match = Match(self.opts, self.clock, sorted(self.joined), feed_factory=self._feed_for,
                           script=self.inputs.script, on_item=self._sound_and_leds)
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
            self.menu = Menu(self.opts.settings, "pause", dev_mode=not self.opts.service)

    def _shutdown(self) -> None:
        if not self.opts.service:
            self.message = ["shutdown.dev"]
            self._message_until = self.clock.now_ns() + 2500 * MS
            return
        self.message = ["shutdown.now"]
        self._draw()
        try:
            subprocess.run(shlex.split(self.opts.shutdown_command), check=False, timeout=30)
        except (OSError, subprocess.SubprocessError) as e:
            log.error("shutdown command %r failed: %s", self.opts.shutdown_command, e)
        self.running = False

    # --- time -----------------------------------------------------------------------------
    def _tick(self, now: int) -> None:
        for station, t0 in list(self.held.items()):
            if station not in self.hold_done and now - t0 >= HOLD_NS:
                self.hold_done.add(station)
                self.held.pop(station, None)
                self._hold()
        if self.menu_down is not None and now - self.menu_down >= SHUTDOWN_HOLD_NS:
            self.menu_down = None
            self._shutdown()
        if self.message is not None and now >= self._message_until and self.message != ["shutdown.now"]:
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
        if self.mode in ("menu", "over") and now - self.last_input > self.opts.idle_attract_ns:
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
                self.inputs.set_led(s.station, s.seat == seat)  # type: ignore[arg-type]
        elif isinstance(item, Judged):
            st = match.table.seats[item.seat].station
            if isinstance(item.decision, Award):
                if sounds:
                    sounds.play("slap")
                self.inputs.blink(st, 3, 150 * MS)  # type: ignore[arg-type]
            elif isinstance(item.decision, WrongSlapCall):
                if sounds:
                    sounds.play("wrong")
                self.inputs.blink(st, 6, 60 * MS)  # type: ignore[arg-type]
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
        self.mode = "over"
        self.over_since = now
        self.last_input = now

    # --- norvégienne choices ----------------------------------------------------------------
    def _pending_human(self) -> int | None:
        if self.match is None:
            return None
        seat = self.match.table.pending_decision()
        if seat is None or self.match.table.seats[seat].bot:
            return None
        return seat

    def _choose_with(self, press: Press) -> None:
        """The seat whose choice it is uses its own buttons: first press looks, tap = next,
        hold = choose (as soon as the loop sees it held; see _hold)."""
        seat = self._pending_human()
        table = self.match.table  # type: ignore[union-attr]
        if seat is None or table.seats[seat].station != press.station:
            return
        if press.edge == "press":
            if not self.private:
                self.private = True
                self._looker = seat
                self.hold_done.add(press.station)
                return
            self.held[press.station] = press.t_ns
            return
        t0 = self.held.pop(press.station, None)
        if press.station in self.hold_done:
            self.hold_done.discard(press.station)
            return
        if t0 is None:
            return
        if press.t_ns - t0 >= HOLD_NS:  # a hold the loop did not see yet (released at once)
            self._choose_current()
        else:
            self.chooser_cursor = (self.chooser_cursor + 1) % max(1, len(self.decisions()))

    def decisions(self) -> list[Any]:
        """The pending seat's choices in the chooser's order: "ready" first in the swap phase
        (most players keep their cards), then the rest as the rules list them."""
        from device.rules.actions import Ready
        actions = self.match.table.legal_decisions() if self.match is not None else []
        return [a for a in actions if isinstance(a, Ready)] + [a for a in actions if not isinstance(a, Ready)]

    def _choose_current(self) -> None:
        """The pending seat's choice under the cursor is made."""
        seat = self._pending_human()
        if seat is None or self.match is None:
            return
        table = self.match.table
        actions = self.decisions()
        if actions:
            table.decide(seat, actions[self.chooser_cursor % len(actions)], self.clock.now_ns())
            self.chooser_cursor = 0

    # --- drawing --------------------------------------------------------------------------
    def _scene(self) -> Any:
        sc = self.sc
        size = self.display.size
        lang = self.opts.settings.lang
        now = self.clock.now_ns()
        if self.message is not None:
            return sc.message_scene(self.message, size, lang)
        if self.help:
            return sc.help_scene(self.key_help.split("; "), size, lang)
        match = self.match
        if self.mode == "attract":
            names = [self.opts.names[i] if i < len(self.opts.names) else str(i + 1) for i in self.joined]
            return sc.attract_scene(match.table if match else None, match.feed if match else None,
                                    now, size, lang, names)
        if self.mode == "menu":
            names = [self.opts.names[i] if i < len(self.opts.names) else str(i + 1) for i in self.joined]
            return sc.menu_scene(self.menu.view(), size, lang, joined=names)
        if self.mode == "over" and match is not None:
            return sc.over_scene(match.table, size, lang, self.leaderboard.rows())
        if match is None:
            return sc.menu_scene(self.menu.view(), size, lang)
        note = self._keys_note(match.table) if self.opts.source == "keyboard" else None
        seat = self._pending_human()
        if self.mode == "game" and seat is not None:
            if not self.private:
                return sc.pass_scene(seat, match.table.seats[seat].name, size, lang)
            actions = self.decisions()
            chooser = sc.chooser_view(match.table, seat, actions, self.chooser_cursor, lang)
            # the chooser needs the room the keys' note would take
            return sc.game_scene(match.table, match.feed, now, size, lang, chooser=chooser,
                                 private_seat=seat)
        scene = sc.game_scene(match.table, match.feed, now, size, lang, note=note)
        if self.mode == "pause":
            return sc.menu_scene(self.menu.view(), size, lang, background=scene)
        return scene

    def _keys_note(self, table: Table) -> str:
        """Developer mode: each person's keys, and why keys read together are a tie."""
        from device.inputs.keyboard import DEFAULT_KEYS
        from device.screen.i18n import tr
        lang = self.opts.settings.lang
        keys = [tr(lang, "keys.station", station=s.name, slap=DEFAULT_KEYS[s.station][0].upper(),
                   flip=DEFAULT_KEYS[s.station][1].upper())
                for s in table.seats if not s.bot and s.station in DEFAULT_KEYS]
        return " · ".join(keys + [tr(lang, "keys.menu")]) + "\n" + tr(lang, "keys.note")

    def _draw(self) -> None:
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
        scene = self._scene()
        if scene == self.last_scene:
            return
        dirty = self.renderer.draw(scene, self.display.surface)
        t_flip = self.display.flip(dirty)
        if self.last_scene is None:
            w, h = self.display.size
            print(f"slapbox play: first frame, {w}x{h}", flush=True)
        self.last_scene = scene
        match = self.match
        if match is not None and self.mode in ("game", "attract", "pause"):
            for k in getattr(scene, "card_numbers", ()):
                if k not in self.shown:
                    self.shown.add(k)
                    match.runner.shown(k, t_flip)  # the presenter: Shown after the first flip


__all__ = ["App", "Options", "run_headless", "run_virtual_fallback", "Inputs", "Match"]
