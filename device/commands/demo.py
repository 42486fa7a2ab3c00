"""Play a whole game in virtual time, bots in the seats, and print the winner and statistics.

Identical arguments give identical output (nothing in it depends on the wall clock); a default round
limit makes every demo end. The journal it writes can be replayed with `slapbox replay`.

``--time-limit MIN`` gives the game a time limit on the virtual clock (the table's own: it ends
with the trick in progress, the seat with most cards winning).

``--script FILE`` plays a contest as a bug report tells it: the script's presses (the press-script
format, times from the table's start) in virtual time; the script's stations take seats in station
order (a script using only station 3 takes seat 0), bots take the rest (``--bots all`` is refused),
and every judgement is printed. Timings are the defaults unless ``--config`` says otherwise.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import sys

from device.clock import VirtualClock
from device.commands.common import add_game_arguments, parse_options
from device.inputs.script import load_script
from device.journal.journal import FileJournal, default_dir, journal_name
from device.rules.cards import parse_deal
from device.rules.presets import PRESETS, OptionError
from device.table.arbiter import ArbiterSettings, Award, WrongSlapCall
from device.table.outputs import Judged
from device.table.runner import Runner
from device.table.session import DEFAULT_NAMES, GameSpec, bot_hands, bot_minds, make_table
from device.table.table import TableSettings, assign_seats
from device.table.timing import MINUTE_NS, TIME_LIMIT_MIN

DEFAULT_LIMIT = 2000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser, preset_default="bataille-corse")
    parser.set_defaults(seed=1)
    parser.add_argument("--bots", choices=["free", "all"], default=None,
                        help="free: bots take the seats the script's stations do not (the default "
                             "with --script); all: bots in every seat (the default without)")
    parser.add_argument("--script", metavar="FILE",
                        help="scripted presses (JSON lines: {\"t_ms\": 3299.9, \"station\": 0}, "
                             "times from the table's start, stations numbered from 0), played in "
                             "virtual time; every judgement is printed")
    parser.add_argument("--level", choices=["easy", "normal", "hard"], default="normal",
                        help="the bots' difficulty (reaction time, misses, false alarms)")
    parser.add_argument("--journal", metavar="DIR|none", default=None,
                        help=f"where the game's journal goes (default {default_dir()}), or none")
    parser.add_argument("--time-limit", metavar="MIN|none",
                        help=f"a time limit of {TIME_LIMIT_MIN[0]} to {TIME_LIMIT_MIN[1]} minutes on the "
                             "virtual clock: the game ends when the trick in progress ends, the seat with "
                             "most cards winning (norvégienne: fewest; a tie is a draw)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.epilog = (f"The seed defaults to 1 and the round limit to {DEFAULT_LIMIT} turns (or the "
                     "preset's own limit), so the same command always plays the same game.")


def run(args: argparse.Namespace) -> int:
    preset = args.preset
    family = PRESETS[preset].family
    options = parse_options(args.option)
    if args.max_rounds is not None:
        options["max_rounds"] = args.max_rounds
    elif options.get("max_rounds") is None and PRESETS[preset].defaults.get("max_rounds") is None:
        options["max_rounds"] = DEFAULT_LIMIT  # a --option max_rounds=N is kept (and checked)
    script = load_script(args.script) if args.script is not None else None
    bots = args.bots or ("free" if script is not None else "all")
    if script is not None and bots == "all":
        raise OptionError("--script with --bots all: every seat would be a bot, so nobody would "
                          "press the script's buttons; expected --bots free (the default)")
    stations = sorted({p.station for p in script if 0 <= p.station}) if script else []
    packs = None
    if args.deal is not None:
        if family == "shedding":
            from device.rules.cards import DealError
            raise DealError(f"deal: not accepted for {preset}")
        packs = parse_deal(args.deal, allow_any_number=False)
    players = len(packs) if packs else (args.players or max(len(stations), PRESETS[preset].min_players + (
        2 if PRESETS[preset].max_players >= 4 else 0)))
    if len(stations) > players:
        raise OptionError(f"--script presses {len(stations)} stations ({', '.join(str(s + 1) for s in stations)}) "
                          f"but the game has {players} seats")
    seats = assign_seats(players, stations, DEFAULT_NAMES, bots="free", level=args.level)
    arbiter, table_settings = _timings(args)
    if args.time_limit is not None:
        from device.table.config import time_limit_text
        try:
            minutes = time_limit_text(args.time_limit)
        except ValueError as e:
            raise OptionError(f"--time-limit: {e}") from None
        table_settings = dataclasses.replace(
            table_settings, time_limit_ns=None if minutes is None else minutes * MINUTE_NS)
    spec = GameSpec(preset, args.seed, seats, options, packs, arbiter, table_settings)
    journal = None
    where = args.journal if args.journal is not None else str(default_dir())
    if where != "none":
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        journal = FileJournal(f"{where}/{journal_name(preset, args.seed, 'demo-' + stamp)}")
    clock = VirtualClock(0)
    table = make_table(spec, start_ns=0, journal=journal)
    runner = Runner(table, clock, hands=bot_hands(table), minds=bot_minds(table))
    judged: list[tuple[int, Judged]] = []
    if script is not None:
        runner.outputs.append(lambda item, now: judged.append((now, item)) if isinstance(item, Judged)
                              else None)
        runner.schedule_script(script)
    runner.run_virtual()
    if journal is not None:
        journal.close()
        print(f"journal: {journal.path}", file=sys.stderr)
    game = table.game
    outcome = game.outcome()
    assert outcome is not None
    stats = table.seat_stats()
    result = {"preset": preset, "seed": args.seed, "players": len(table.seats), "level": args.level,
              "outcome": outcome.termination, "winner": outcome.winner, "cards": game.cards,
              "tricks": game.tricks, "rounds": game.rounds, "table_time_s": round(clock.now_ns() / 1e9, 3),
              "longest_chain": table.longest_chain, "seats": stats}
    if script is not None:
        result["judgements"] = [{"at_ns": now, "seat": j.seat, **j.decision.to_dict()} for now, j in judged]
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    if script is not None:
        names_by_seat = {s.seat: s.name for s in table.seats}
        for now, j in judged:
            print(judgement_line(now, j, names_by_seat))
    names: dict[int | None, str] = {s.seat: s.name for s in table.seats}
    w = outcome.winner + 1 if outcome.winner is not None else None  # people count seats from 1
    best = "fewest" if family == "shedding" else "most"
    on_cards = (f"seat {w} ({names.get(outcome.winner)}) has {best} cards" if outcome.winner is not None
                else "a tie")
    who = {"win": f"seat {w} ({names.get(outcome.winner)}) wins",
           "draw": "a draw", "loop": "a loop: this deal never ends (a draw)",
           "limit": "round limit: " + on_cards, "time": "time limit: " + on_cards}[outcome.termination]
    minutes, seconds = divmod(int(clock.now_ns() // 1_000_000_000), 60)
    unit = "rounds" if family == "battle" else "turns"
    humans = sum(1 for s in table.seats if not s.bot)
    bots_n = len(table.seats) - humans
    who_plays = ", ".join(part for part in (
        f"{bots_n} bots ({args.level})" if bots_n else "",
        f"{humans} scripted" if humans else "") if part)
    print(f"demo: {preset}, {who_plays}, seed {args.seed}")
    print(f"{who} after {game.cards} cards, {game.tricks} tricks, {game.rounds} {unit} "
          f"({minutes} min {seconds:02d} s at the table)")
    if table.slapping:
        print(f"{'seat':<5}{'name':<10}{'slaps won':>10}{'wrong slaps':>13}{'mean reaction':>15}{'fastest':>10}")
        for s in stats:
            mean = f"{s['mean_reaction_ms']:.1f} ms" if s["mean_reaction_ms"] is not None else "-"
            fast = f"{s['fastest_reaction_ms']:.1f} ms" if s["fastest_reaction_ms"] is not None else "-"
            print(f"{s['seat'] + 1:<5}{s['name']:<10}{s['slaps_won']:>10}{s['wrong_slaps']:>13}{mean:>15}{fast:>10}")
    if family == "challenge":
        print(f"longest challenge chain: {table.longest_chain} face cards")
    return 0


def _timings(args: argparse.Namespace) -> tuple[ArbiterSettings, TableSettings]:
    """The defaults, or the [timing] of the configuration named by --config (or $SLAPBOX_CONFIG)."""
    import os

    from device.config.schema import ENV_VAR, load_config
    if args.config is None and not os.environ.get(ENV_VAR):
        return ArbiterSettings(), TableSettings()
    from device.box import Options, arbiter_settings, table_settings
    from device.screen.menu import Settings
    cfg = load_config(args.config)
    timing = dict(cfg.section("timing"))
    tempo = "custom" if "tempo_ms" in cfg.section("timing").given else "normal"
    limit = cfg.section("game")["time_limit_min"]  # --time-limit, if given, replaces it
    return arbiter_settings(cfg), table_settings(Options(settings=Settings(tempo=tempo, time_limit_min=limit),
                                                         timing=timing))


def judgement_line(now_ns: int, j: Judged, names: dict[int, str]) -> str:
    """One judgement as a person reads it: when, whose press, what was decided and why."""
    d = j.decision
    who = f"station {d.station + 1}" + (f" ({names[j.seat]}, seat {j.seat + 1})" if j.seat is not None
                                       else " (no seat)")
    at = f"{now_ns / 1e6:9.3f} ms  press at {d.t_ns / 1e6:.3f} ms  {who}: "
    if isinstance(d, Award):
        rest = f"wins the pile (card {d.card})"
        if d.margin_ns is not None:
            rest += f", by {d.margin_ns / 1e6:.3f} ms"
        if d.by_tie_rule:
            rest += f", a tie of {len(d.contenders)} settled by the rotation"
        return at + rest
    if isinstance(d, WrongSlapCall):
        return at + "wrong slap" + (f" (card {d.card} on top)" if d.card is not None else " (no card)")
    return at + f"ignored ({d.reason})"
