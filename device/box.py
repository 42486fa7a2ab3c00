"""The composition root: the config and the command line become settings, backends are chosen by
name, and the one clock is made here and handed down.

`slapbox play` comes here. Everything is chosen once: the input backend (keyboard | gpio |
script:FILE), the screen (an SDL window, fullscreen kmsdrm, or none), sound, LEDs, the journal's
folder, the clock. Nothing below builds its own clock or picks its own backend: the screen app
(`device.screen.app`), the headless loop and the games receive what they use from here, so a test
can build the whole box on a virtual clock.
"""

from __future__ import annotations

import gc
import logging
import queue
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from device.clock import SPIN_NS, Clock, MonotonicClock, VirtualClock
from device.config.schema import Config, ms_to_ns
from device.inputs.press import LinkStatus
from device.inputs.script import ScriptedPress
from device.rules.presets import OptionError
from device.journal.journal import KEEP_GAMES, MAX_MB, default_dir, rotate, unfinished
from device.journal.resume import resume_newest
from device.screen.menu import TEMPOS, Settings
from device.service.notify import Notifier
from device.table.arbiter import ArbiterSettings
from device.table.match import FeedFactory, Match, OnItem, result_line
from device.table.runner import Runner
from device.table.seats import default_name
from device.table.session import DEFAULT_NAMES, GameSpec, bot_hands, bot_minds, make_table
from device.table.table import TableSettings, assign_seats

log = logging.getLogger("slapbox")
MS = 1_000_000


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
    record_edges: bool = False  # journal every raw edge (evidence for replay --from-edges)
    journal_keep_games: int = KEEP_GAMES  # [service]: journals kept when a game starts ...
    journal_max_mb: float = MAX_MB        # ... and the most they take


def table_settings(opts: Options) -> TableSettings:
    """The table's timings: the menu's tempo over the config's [timing] (defaults: TableSettings),
    and the menu's time limit (Settings.time_limit_min: [game] time_limit_min or --time-limit)."""
    t, d = opts.timing, TableSettings()
    minutes = opts.settings.time_limit_min
    if opts.settings.tempo in TEMPOS:
        tempo = ms_to_ns(TEMPOS[opts.settings.tempo])
    else:  # "custom": the config's or the command line's milliseconds
        tempo = ms_to_ns(t["tempo_ms"]) if "tempo_ms" in t else d.tempo_ns

    def ns(key: str, default: int) -> int:
        return ms_to_ns(t[key]) if key in t else default
    return TableSettings(flip_mode=opts.settings.flip_mode, tempo_ns=tempo,
                         tempo_speedup=float(t.get("tempo_speedup", d.tempo_speedup)),
                         tempo_min_ns=min(tempo, ns("tempo_min_ms", d.tempo_min_ns)),
                         auto_flip_timeout_ns=ns("auto_flip_timeout_ms", d.auto_flip_timeout_ns),
                         first_card_ns=ns("first_card_ms", d.first_card_ns),
                         pile_pause_ns=ns("pile_pause_ms", d.pile_pause_ns),
                         time_limit_ns=None if minutes is None else minutes * 60_000 * MS)


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


def cache_folder(opts: Options) -> Path:
    """Where what the box prepares once (its sounds) is kept: ``cache/`` in the state folder
    (the journals' folder, or the default one when journals are off)."""
    return (journal_folder(opts) or default_dir(service=opts.service)) / "cache"


# --- input backends, chosen by name ---------------------------------------------------------
#: what ``--input`` and ``[inputs] source`` take
SOURCES = "keyboard, gpio, gpiod, bridge:URL (a serial device or pyserial URL) or script:FILE"


def check_source(source: str) -> str:
    """``source`` if it names a backend (a bridge's URL is checked too); else OptionError."""
    if source in ("keyboard", "gpio", "gpiod") or source.startswith("script:"):
        return source
    if source.startswith("bridge:"):
        from firmware_bridge.link import check_url
        check_url(source.split(":", 1)[1])
        return source
    raise OptionError(f"--input: expected {SOURCES}, got {source!r}")


class Inputs:
    """The stations' buttons from one backend; presses land in ``inbox`` (the thread boundary)."""

    def __init__(self, source: str, opts: Options, clock: Clock, wake: Any = None) -> None:
        self.source = source
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.gpio: Any = None
        self.bridge: Any = None
        self.keyboard = None
        self.script: list[ScriptedPress] | None = None
        self._wake = wake
        if source.startswith("bridge:"):
            from device.inputs.bridge import BridgeInput
            from firmware_bridge.link import check_url
            self.bridge = BridgeInput(check_url(source.split(":", 1)[1]), self._sink, clock=clock,
                                      release_ns=opts.arbiter.release_ns,
                                      stuck_ns=opts.arbiter.stuck_ns, status_to_sink=True)
        elif source == "gpio":
            from device.inputs.gpio import GpioInputs, StationPins, make_factory
            pins = opts.pins
            stations = [StationPins(p["slap"], p.get("flip"), p.get("led")) for p in pins["stations"]]
            self.gpio = GpioInputs(stations, self._sink, menu_pin=pins.get("menu"),
                                   factory=make_factory(pins.get("factory", "lgpio")), clock=clock,
                                   release_ns=opts.arbiter.release_ns, stuck_ns=opts.arbiter.stuck_ns,
                                   record_edges=opts.record_edges)
        elif source == "gpiod":
            # libgpiod v2 for the buttons (every lost edge counted), gpiozero for the LEDs
            from device.inputs.gpio import StationPins, make_factory
            from device.inputs.gpiod import FakeChip, GpiodInputs
            pins = opts.pins
            stations = [StationPins(p["slap"], p.get("flip"), p.get("led")) for p in pins["stations"]]
            mock = pins.get("factory", "lgpio") == "mock"
            self.gpio = GpiodInputs(stations, self._sink, menu_pin=pins.get("menu"),
                                    lines=FakeChip() if mock else None,
                                    led_factory=make_factory("mock") if mock else None,
                                    chip=pins.get("chip", "auto"), clock=clock,
                                    release_ns=opts.arbiter.release_ns,
                                    stuck_ns=opts.arbiter.stuck_ns, record_edges=opts.record_edges)
        elif source.startswith("script:"):
            from device.inputs.script import load_script
            self.script = load_script(source.split(":", 1)[1])
        elif source != "keyboard":
            raise OptionError(f"input {source!r}: expected {SOURCES}")

    def _sink(self, item: Any) -> None:
        # Runs on gpiozero's callback thread: only enqueue, then wake the main loop.
        self.inbox.put(item)
        if self._wake is not None:
            self._wake()

    @property
    def wired(self) -> Any:
        """The backend with pins and LEDs (gpio or the bridge), or None."""
        return self.gpio if self.gpio is not None else self.bridge

    def stations(self) -> int:
        """How many stations the buttons have (the bridge: once its hello said so; else 1)."""
        if self.wired is not None:
            return max(1, len(self.wired.stations))
        return 8

    def station_faults(self) -> dict[int, int]:
        """Per station, the edges its backend lost or had to repair so far (the button check
        names a station whose count grows); the keyboard and the bridge count none per station."""
        return self.gpio.station_faults() if self.gpio is not None else {}

    def set_led(self, station: int | None, on: bool) -> None:
        wired = self.wired
        if wired is not None and station is not None and 0 <= station < len(wired.stations):
            wired.set_led(station, on)

    def blink(self, station: int | None, times: int, on_ns: int) -> None:
        wired = self.wired
        if wired is not None and station is not None and 0 <= station < len(wired.stations):
            wired.blink(station, times=times, on_ns=on_ns)

    def close(self) -> None:
        if self.wired is not None:
            self.wired.close()



# --- the box: what every part receives -------------------------------------------------------
class Box:
    """The box's parts, built once: the clock, the inputs, the journal folder, and the games."""

    def __init__(self, opts: Options, *, clock: Clock | None = None,
                 wake: Callable[[], None] | None = None) -> None:
        self.opts = opts
        self.clock: Clock = clock if clock is not None else MonotonicClock()
        self.inputs = Inputs(opts.source, opts, self.clock, wake=wake)
        self.folder = journal_folder(opts)

    def plan(self, stations: list[int], *, attract: bool = False,
             names: Mapping[int, str] | None = None, time_limit_ns: int | None = None) -> GameSpec:
        """The next game: the menu's settings, the joined stations in seats, bots in the rest.
        ``names``: the players' names by station (the party's); the bots then take the
        config's names no player has. None: the config's names by seat. ``time_limit_ns``: the
        game lasts at most this long (a timed match's rest), whatever its own time limit."""
        from device.rules.presets import PRESETS
        opts, s = self.opts, self.opts.settings
        players = max(s.players, len(stations)) if not attract else s.players
        if opts.packs is not None and not attract:
            players = len(opts.packs)
        preset = PRESETS[s.preset]
        players = max(preset.min_players, min(players, preset.max_players))
        seat_names = opts.names if names is None or attract else _seat_names(
            sorted(set(stations))[:players], players, names, opts.names)
        seats = assign_seats(players, [] if attract else stations, seat_names, bots="free",
                             level=s.level)
        seed = opts.seed if opts.seed is not None and not attract else time.monotonic_ns() % (2**32)
        table = table_settings(opts)
        if time_limit_ns is not None and not attract:
            own = table.time_limit_ns
            table = replace(table, time_limit_ns=max(1, time_limit_ns if own is None else min(own, time_limit_ns)))
        return GameSpec(s.preset, seed, seats, dict(s.options), None if attract else opts.packs,
                        opts.arbiter, table)

    def new_match(self, stations: list[int], *, attract: bool = False,
                  feed_factory: FeedFactory | None = None, on_item: OnItem | None = None,
                  headless: bool = False, names: Mapping[int, str] | None = None,
                  time_limit_ns: int | None = None) -> Match:
        """A game starts now: journaled (unless attract mode), the script's presses scheduled;
        the oldest journals beyond [service] journal_keep_games and journal_max_mb are deleted
        (never this game's, nor one that could be resumed)."""
        folder = None if attract else self.folder
        resumable = unfinished(folder) if folder is not None else None
        spec = self.plan(stations, attract=attract, names=names, time_limit_ns=time_limit_ns)
        match = Match.start(spec, self.clock, folder,
                            attract=attract, feed_factory=feed_factory, on_item=on_item,
                            headless=headless, script=None if attract else self.inputs.script)
        if folder is not None:
            playing = [p for p in (resumable, match.journal and match.journal.path) if p]
            for path in rotate(folder, self.opts.journal_keep_games, self.opts.journal_max_mb,
                               protect=playing):
                log.info("journal: %s deleted (the oldest beyond the [service] limits)", path.name)
        return match

    def resume_match(self, *, feed_factory: FeedFactory | None = None, on_item: OnItem | None = None,
                     headless: bool = False) -> Match | None:
        """The game a crash or a power cut stopped, if any (headless: it goes on at once)."""
        taken = resume_newest(self.folder, self.clock.now_ns(), unpause=headless)
        if taken is None:
            return None
        return Match(taken.spec, taken.table, taken.journal, self.clock, feed_factory=feed_factory,
                     on_item=on_item, headless=headless, resumed=True)

    def close(self) -> None:
        self.inputs.close()


def _seat_names(joined: list[int], players: int, names: Mapping[int, str],
                defaults: list[str]) -> list[str]:
    """The names by seat: the joined stations' (in seat order), then the bots': "Robot 1",
    "Robot 2"... (never a player's default name: a guest who sits down later at that station
    must not take over a bot's score in a match)."""
    mine = [names.get(st) or default_name(defaults, st) for st in joined]
    bots: list[str] = []
    k = 1
    while len(mine) + len(bots) < players:
        if f"Robot {k}" not in mine:
            bots.append(f"Robot {k}")
        k += 1
    return mine + bots


def end_of_start() -> None:
    """The box is up: if the start ran without the cyclic garbage collector (device.cli), what it
    built is frozen out of the collector's sweeps (a full sweep in the game then skips it) and the
    collector runs again."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def run_headless(opts: Options, *, clock: Clock | None = None) -> int:
    """`slapbox play --headless`: the real clock, no screen; bots fill free seats."""
    # No window, so no keyboard: the buttons come from GPIO or a script, bots fill the other seats.
    box = Box(opts, clock=clock)
    inputs = box.inputs
    stations: list[int] = []
    if inputs.wired is not None:
        stations = list(range(inputs.stations()))
    elif inputs.script:
        stations = sorted({p.station for p in inputs.script if p.station >= 0})
    match = box.resume_match(headless=True) if opts.resume else None
    if match is None:
        match = box.new_match(stations, headless=True)
    print(f"slapbox play --headless: {'resumed ' if match.resumed else ''}{match.spec.preset}, "
          f"{len(match.table.seats)} seats, seed {match.spec.seed}"
          + (f", journal {match.journal.path}" if match.journal else ""), flush=True)
    notifier = Notifier()  # systemd: ready now, then alive from the loop (the watchdog)
    end_of_start()
    try:
        match.runner.on_other = _pause_while_unlinked(match)
        match.runner.run_realtime(inputs.inbox, tick_ns=500 * MS, spin_ns=opts.spin_ns, notifier=notifier)
    except KeyboardInterrupt:
        print("slapbox play: stopped", flush=True)
        return 130
    finally:
        notifier.stopping()
        notifier.close()
        match.close()
        box.close()
    print(result_line(match.table), flush=True)
    return 0


def _pause_while_unlinked(match: Match) -> Callable[[Any, int], None]:
    """Headless: the game waits while the buttons' link is down, and goes on when it is back."""
    def on_other(item: Any, now_ns: int) -> None:
        if isinstance(item, LinkStatus):
            log.warning("buttons (%s): %s%s", item.source, item.state,
                        f" ({item.reason})" if item.reason else "")
            if match.table.game.outcome() is None:
                match.table.pause(not item.connected)
    return on_other


def run_virtual_fallback(opts: Options, reason: str) -> int:
    """No display could open: say so in one line and play a bots' game in virtual time."""
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
    print(f"{s.preset}, {len(seats)} bots, seed {spec.seed}: {result_line(table)} after "
          f"{game.cards} cards, {game.tricks} tricks, {game.rounds} turns", flush=True)
    return 0


def run_screen(opts: Options) -> int:
    """The screen app on the real clock: a window (developer mode) or the panel (the box)."""
    from device.screen.display import DisplayUnavailable, open_display
    clock = MonotonicClock()
    try:
        screen = open_display(opts.size, fullscreen=opts.fullscreen, driver=opts.driver or None,
                              now=clock.now_ns)
    except DisplayUnavailable as e:
        return run_virtual_fallback(opts, e.reason)
    from device.screen.app import App
    from device.screen.sound import Sounds
    from device.table.loop import run_loop
    app = App(opts, screen, clock=clock,
              sounds=Sounds.open(opts.settings.volume / 100, cache=cache_folder(opts)))
    notifier = Notifier()  # systemd's watchdog: a loop that freezes gets the box restarted
    try:
        run_loop(app, clock, app.inputs.inbox, spin_ns=opts.spin_ns, notifier=notifier)
    finally:
        notifier.stopping()
        notifier.close()
        app.close()
    return 0


def run(opts: Options) -> int:
    """`slapbox play` once its options are known: its inputs are checked before anything starts
    (a script that cannot be read stops it, whatever the display)."""
    if opts.source.startswith("script:"):
        from device.inputs.script import load_script
        load_script(opts.source.split(":", 1)[1])
    return run_headless(opts) if opts.headless else run_screen(opts)


__all__ = ["Options", "Box", "Inputs", "table_settings", "arbiter_settings", "journal_folder",
           "run", "run_headless", "run_screen", "run_virtual_fallback"]
