"""Play: a window on a laptop (keyboard keys are the buttons, bots fill free seats), fullscreen on the box.

Where no display opens, it says so in one line and plays a bots' game in virtual time instead,
printing the result. --headless runs the real clock without a screen (GPIO or a script as input).
"""

from __future__ import annotations

import argparse

from device.commands.common import add_game_arguments, parse_options
from device.inputs.keyboard import DEFAULT_KEYS, describe_keys
from device.screen.menu import TEMPOS, Settings
from device.table.timing import TIME_LIMIT_MIN

#: --match's words (device.table.config checks them, as it does [game] match)
MATCH_HELP = "single, best-of-3, best-of-5, best-of-7, or minutes-M: as many games as M minutes hold (5 to 180)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser)
    parser.add_argument("--window", metavar="WxH", help="window size (default: [display] size, 800x480)")
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen (the box)")
    parser.add_argument("--driver", metavar="NAME", help='SDL video driver (e.g. kmsdrm, x11, dummy)')
    parser.add_argument("--bots", choices=["free", "all"], default="free",
                        help="free: bots take the seats no station joined; all: watch bots play")
    parser.add_argument("--level", choices=["easy", "normal", "hard"], help="the bots' difficulty")
    parser.add_argument("--tempo", metavar="MS|slow|normal|fast",
                        help="time between two cards: " + ", ".join(f"{k} {v} ms" for k, v in TEMPOS.items())
                        + ", or a number of milliseconds")
    parser.add_argument("--flip-mode", choices=["auto", "buttons"], help="who turns the cards")
    parser.add_argument("--time-limit", metavar="MIN|none",
                        help=f"a game's time limit, {TIME_LIMIT_MIN[0]} to {TIME_LIMIT_MIN[1]} minutes, or "
                             "none (default: [game] time_limit_min): at the limit the game ends when the "
                             "current trick (round, turn) ends, and the seat with most cards wins "
                             "(norvégienne: fewest; a tie is a draw); the time the menu is open does not "
                             "count; the screen shows the time left in the last minute")
    parser.add_argument("--match", metavar="single|best-of-N|minutes-M",
                        help=f"what a party plays: {MATCH_HELP} (default: [game] match)")
    parser.add_argument("--input", metavar="keyboard|gpio|gpiod|bridge:URL|script:FILE",
                        help="where the buttons come from (default: [inputs] source)")
    parser.add_argument("--journal", metavar="DIR|none", help="where the game's journal goes")
    parser.add_argument("--record-edges", action="store_true", default=None,
                        help="also journal every raw button edge (GPIO), for "
                             "slapbox replay --from-edges (default: [inputs] record_edges)")
    parser.add_argument("--lang", choices=["fr", "en"],
                        help="language of the screen for this run (default: the menu's last choice, "
                             "else [display] lang, whose auto is the system locale: fr… French, else "
                             "English)")
    parser.add_argument("--headless", action="store_true",
                        help="no screen: the real clock, GPIO or script input, bots in free seats")
    parser.add_argument("--service", action="store_true",
                        help="run as the box's service (kiosk): MENU held 5 s may shut the box down; "
                             "an unfinished game is resumed (as --resume)")
    parser.add_argument("--resume", action="store_true",
                        help="go on with the newest game of the journal folder if a crash or a "
                             "power cut stopped it (replayed from its journal, then paused)")
    parser.epilog = ("Keys (developer mode): " + describe_keys(DEFAULT_KEYS) + ". Esc: menu, F1: help. "
                     "In menus: arrows and Enter, or a station's button (tap = next, hold = choose).")


def _window(text: str) -> tuple[int, int]:
    from device.screen.config import parse_size
    from device.rules.presets import OptionError
    try:
        return parse_size(text)
    except ValueError as e:
        raise OptionError(f"--window: {e}") from None


def run(args: argparse.Namespace) -> int:
    from device.config.schema import load_config
    from device.screen.config import parse_size, screen_lang
    from device.table.config import TEMPO_MS, check_match, time_limit_text
    from device.rules.cards import DealError, parse_deal
    from device.rules.presets import PRESETS, OptionError, resolve_options
    from device.box import Options, arbiter_settings, check_source
    from device.box import run as run_box

    cfg = load_config(args.config)
    game, display, inputs = cfg.section("game"), cfg.section("display"), cfg.section("inputs")
    service = cfg.section("service")
    preset = args.preset or game["preset"]
    options = dict(cfg.game.given.get("options", {})) if args.preset in (None, game["preset"]) else {}
    options.update(parse_options(args.option))
    if args.max_rounds is not None:
        options["max_rounds"] = args.max_rounds
    resolve_options(preset, options)  # refuse a bad option now, in one line
    tempo = "normal"
    timing = dict(cfg.section("timing"))
    if args.tempo:
        if args.tempo in TEMPOS:
            tempo = args.tempo
        else:
            try:
                timing["tempo_ms"] = float(args.tempo)
            except ValueError:
                raise OptionError(f"--tempo: expected slow, normal, fast or milliseconds, got {args.tempo!r}") from None
            low, high = TEMPO_MS
            if not low <= timing["tempo_ms"] <= high:
                raise OptionError(f"--tempo: expected {low} to {high} ms, got {args.tempo}")
            tempo = "custom"
    elif "tempo_ms" in cfg.section("timing").given:
        tempo = "custom"
    time_limit, match = game["time_limit_min"], game["match"]
    try:
        if args.time_limit is not None:
            time_limit = time_limit_text(args.time_limit)
    except ValueError as e:
        raise OptionError(f"--time-limit: {e}") from None
    try:
        if args.match is not None:
            match = check_match(args.match)
    except ValueError as e:
        raise OptionError(f"--match: {e}") from None
    spec = PRESETS[preset]
    players = args.players or game["players"]
    packs = None
    if args.deal is not None:
        if spec.family == "shedding":
            raise DealError(f"deal: not accepted for {preset}")
        packs = parse_deal(args.deal, allow_any_number=False)
        players = len(packs)
    if not spec.min_players <= players <= spec.max_players:
        raise OptionError(f"players: {preset} takes {spec.min_players} to {spec.max_players}, not {players}")
    given = {"preset": args.preset, "players": args.players if args.deal is None else len(packs or ()),
             "level": args.level, "tempo": args.tempo, "flip_mode": args.flip_mode, "lang": args.lang,
             "options": args.option or args.max_rounds,
             "time_limit_min": args.time_limit is not None, "match": args.match}
    settings = Settings(preset=preset, players=players, level=args.level or game["bot_level"],
                        tempo=tempo, flip_mode=args.flip_mode or inputs["flip_mode"],
                        lang=args.lang or screen_lang(display["lang"]), volume=cfg.section("sound")["volume"],
                        options=options, time_limit_min=time_limit, match=match,
                        # the command line wins for this run (the menu's remembered choices do not)
                        pinned=frozenset(k for k, v in given.items() if v))
    seed = args.seed if args.seed is not None else (game["seed"] if isinstance(game["seed"], int) else None)
    opts = Options(settings=settings, names=list(game["names"]),
                   size=_window(args.window) if args.window else parse_size(display["size"]),
                   fullscreen=args.fullscreen or display["fullscreen"],
                   driver=args.driver if args.driver is not None else display["driver"],
                   source=args.input or inputs["source"], seed=seed, packs=packs,
                   journal=args.journal if args.journal is not None else service["journal_dir"],
                   service=args.service, headless=args.headless,
                   start_now=any(v is not None for v in (args.preset, args.deal, args.players))
                   or args.bots == "all",
                   shutdown_command=service["shutdown_command"],
                   idle_attract_ns=service["idle_attract_s"] * 1_000_000_000,
                   spin_ns=round(service["spin_ms"] * 1_000_000),
                   resume=args.resume or args.service,
                   arbiter=arbiter_settings(cfg), timing=timing, pins=dict(cfg.section("pins")),
                   all_bots=args.bots == "all",
                   record_edges=bool(args.record_edges or inputs["record_edges"]),
                   journal_keep_games=service["journal_keep_games"],
                   journal_max_mb=service["journal_max_mb"])
    check_source(opts.source)
    return run_box(opts)
