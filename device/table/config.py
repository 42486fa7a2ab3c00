"""The table's config sections: [game] (what is played, by whom) and [timing] (the arbiter's and
the table's clocks), declared next to the code that reads them.

Each default is the one of the code itself (`ArbiterSettings`, `TableSettings`, `DEFAULT_NAMES`),
so the config, the journal header and a table built in a test agree by construction.
"""

from __future__ import annotations

from typing import Any

from device.config.schema import ErrorFn, Field, did_you_mean, is_int, num, register_section, show
from device.journal.names import NAME_MAX  # what fits under a seat on the small screen
from device.rules.presets import OPTIONS, PRESET_NAMES, PRESETS, SLAP_PATTERNS
from device.table.arbiter import ArbiterSettings
from device.table.series import BEST_OF, MINUTES_RANGE, MatchPlan
from device.table.session import DEFAULT_NAMES
from device.table.timing import TIME_LIMIT_MIN, TableSettings

MS = 1_000_000


# --- [game]: what is played, by whom ------------------------------------------------------------



def _check_names(names: list[str]) -> list[str]:
    for n in names:
        if not n.strip():
            raise ValueError("a name cannot be empty")
        if len(n) > NAME_MAX:
            raise ValueError(f"names are at most {NAME_MAX} characters, got {n!r}")
    seen: set[str] = set()
    for n in names:
        if n in seen:  # statistics and the leaderboard are keyed by name
            raise ValueError(f"each name must be different, got {n!r} twice")
        seen.add(n)
    return names


def _check_bots(value: Any) -> Any:
    if value == "free":
        return value
    if isinstance(value, list) and all(is_int(v) for v in value):
        if len(set(value)) != len(value):
            raise ValueError(f"each seat at most once, got {show(value)}")
        return value
    raise ValueError(f"expected 'free' or a list of seat numbers, got {show(value)}")


def _check_seed(value: Any) -> Any:
    if value == "random" or (is_int(value) and value >= 0):
        return value
    raise ValueError(f"expected 'random' or a whole number >= 0, got {show(value)}")


#: [game] match and --match: a single game, the best of N games, or games for M minutes
MATCH_EXPECTED = ('"single", ' + ", ".join(f'"best-of-{n}"' for n in BEST_OF)
                  + f' or "minutes-M" (M from {MINUTES_RANGE[0]} to {MINUTES_RANGE[1]})')
TIME_LIMIT_EXPECTED = (f'"none" or a whole number of minutes from {TIME_LIMIT_MIN[0]} to '
                       f'{TIME_LIMIT_MIN[1]}')


def check_time_limit(value: Any) -> int | None:
    """[game] time_limit_min: minutes, or None for "none" (ValueError: what is expected)."""
    if value is None or value == "none":
        return None
    if is_int(value) and TIME_LIMIT_MIN[0] <= value <= TIME_LIMIT_MIN[1]:
        return int(value)
    raise ValueError(f"expected {TIME_LIMIT_EXPECTED}, got {show(value)}")


def time_limit_text(text: str) -> int | None:
    """--time-limit MIN as typed: ``none`` or a whole number of minutes (ValueError otherwise)."""
    word = text.strip()
    if word.isascii() and word.isdigit() and len(word) <= 6:
        return check_time_limit(int(word))
    if word == "none":
        return None
    raise ValueError(f"expected {TIME_LIMIT_EXPECTED}, got {text[:40]!r}")


def check_match(value: Any) -> str:
    """[game] match (and --match): ``single``, ``best-of-N`` or ``minutes-M``, as given
    (device.table.series.MatchPlan reads it)."""
    if isinstance(value, str):
        try:
            return str(MatchPlan.parse(value))
        except ValueError:
            pass
    raise ValueError(f"expected {MATCH_EXPECTED}, got {show(value)}")


def _option_doc(key: str) -> str:
    spec = OPTIONS[key]
    return f"{spec.doc} ({spec.describe()})"


def _validate_game(values: dict[str, Any], err: ErrorFn) -> None:
    preset = values.get("preset")
    players = values.get("players")
    if preset is not None and players is not None:
        p = PRESETS[preset]
        if not p.min_players <= players <= p.max_players:
            err("players", f"{preset} takes {p.min_players} to {p.max_players} players, got {players}")
            players = None
    bots = values.get("bots")
    if isinstance(bots, list) and players is not None:
        outside = [b for b in bots if not 0 <= b < players]
        if outside:
            err("bots", f"seats are numbered 0 to {players - 1} for {players} players, got {show(outside)}")
    given = values.get("options")
    if given is None:
        return
    options: dict[str, Any] = dict(PRESETS[preset].defaults) if preset is not None else {}
    for key, value in given.items():
        opt = OPTIONS.get(key)
        if opt is None:
            known = [k for k, o in OPTIONS.items() if preset is None or preset in o.presets]
            hint = did_you_mean(key, OPTIONS)
            where = f" of {preset}" if preset is not None else ""
            err(f"options.{key}", "unknown option" + (hint or f"; the options{where} are: {', '.join(known)}"))
            continue
        if opt.kind == "patterns" and isinstance(value, str):
            value = [name.strip() for name in value.split(",")]  # "doubles,sandwich", as --option takes
        if opt.kind == "patterns" and isinstance(value, list):
            bad = [v for v in value if isinstance(v, str) and v not in SLAP_PATTERNS]
            if bad:
                err(f"options.{key}", f"{bad[0]!r} is not a slap pattern{did_you_mean(bad[0], SLAP_PATTERNS)}"
                    f"; patterns are: {', '.join(SLAP_PATTERNS)}")
                continue
        try:
            checked = opt.check(value)
        except ValueError as e:
            err(f"options.{key}", str(e))
            continue
        if preset is not None and preset not in opt.presets:
            err(f"options.{key}", f"does not apply to {preset} (it applies to {', '.join(opt.presets)})")
            continue
        options[key] = checked
    # Written in the rule book's order, so `config show` reads like RULES.md's table.
    values["options"] = {k: options[k] for k in OPTIONS if k in options}


GAME_FIELDS = (
    Field("preset", "str", "bataille-corse", "the game played (RULES.md's presets)", choices=PRESET_NAMES),
    Field("players", "int", 4, "seats at the table, within the preset's range: "
          + ", ".join(f"{p.name} {p.min_players}-{p.max_players}" for p in PRESETS.values()),
          low=2, high=11),
    Field("names", "list[str]", DEFAULT_NAMES, "player names by seat; seats beyond the list are called by number",
          check=_check_names),
    Field("bots", "any", "free", 'seats played by the box: a list of seat numbers (0 is the first), '
          'or "free" for every seat no station joined', check=_check_bots),
    Field("bot_level", "str", "normal", "how quick and clever the bots are", choices=("easy", "normal", "hard")),
    Field("seed", "any", "random", 'the game seed (a whole number >= 0 replays the same deal), or "random"',
          check=_check_seed),
    Field("options", "table", {}, "the rule options of RULES.md's table; only those of the preset are accepted\n"
          "(the preset's defaults are filled in)", key_doc=_option_doc),
    Field("time_limit_min", "any", None, f"a game's time limit: {TIME_LIMIT_EXPECTED}; at the limit the game "
          "ends when the current trick (round, turn) ends, and the seat with most cards wins (norvégienne: "
          "fewest), a tie for most is a draw; the time a menu is open does not count (a table setting: "
          "slapbox simulate ignores it)", check=check_time_limit),
    Field("match", "str", "single", "what a party plays: one game, the best of N games or as many games as "
          f"M minutes hold; {MATCH_EXPECTED}", check=check_match),
)

register_section("game", GAME_FIELDS, "What is played and by whom.", validate=_validate_game)


# --- [timing]: the arbiter's and the table's clocks (DESIGN.md) ---------------------------------

def _validate_timing(values: dict[str, Any], err: ErrorFn) -> None:
    tie, settle = values.get("tie_window_ms"), values.get("settle_ms")
    if tie is not None and settle is not None and tie > settle:
        # A tie contender stamped after the decision was taken could not be heard.
        err("tie_window_ms", f"must not exceed settle_ms ({num(settle)}), got {num(tie)}")
    low, tempo = values.get("tempo_min_ms"), values.get("tempo_ms")
    if low is not None and tempo is not None and low > tempo:
        err("tempo_min_ms", f"must not exceed tempo_ms ({num(tempo)}), got {num(low)}")
    release, stuck = values.get("release_ms"), values.get("stuck_ms")
    if release is not None and stuck is not None and stuck <= release:
        err("stuck_ms", f"must exceed release_ms ({num(release)}), got {num(stuck)}")


_A, _T = ArbiterSettings(), TableSettings()  # the one place of each timing's default


def _ms(ns: int) -> int | float:
    return ns // MS if ns % MS == 0 else ns / MS


#: the tempo's range in milliseconds, wherever a tempo is given (config, --tempo, the menu)
TEMPO_MS = (100, 10_000)

TIMING_FIELDS = (
    Field("settle_ms", "number", _ms(_A.settle_ns), "after the first valid slap, wait this long for "
          "earlier-stamped presses still in flight", low=0.1, high=100),
    Field("tie_window_ms", "number", _ms(_A.tie_ns), "slaps this close to the first are a tie, decided by "
          "the rotating priority (at most settle_ms)", low=0.01, high=50),
    Field("grace_ms", "number", _ms(_A.grace_ns), "after a pile is won, presses are ignored for at least "
          "this long (a lost race is not a wrong slap)", low=1, high=5000),
    Field("release_ms", "number", _ms(_A.release_ns), "a button must stay up this long to count as "
          "released (bounce never makes a second press)", low=1, high=500),
    Field("stuck_ms", "number", _ms(_A.stuck_ns), "a button held longer is ignored until released",
          low=500, high=60000),
    Field("collect_delay_ms", "number", _ms(_A.collect_delay_ns), "pause before a won challenge is "
          "collected; a valid slap during it wins the pile instead", low=1, high=5000),
    Field("tempo_ms", "number", _ms(_T.tempo_ns), "time between two automatic flips",
          low=TEMPO_MS[0], high=TEMPO_MS[1]),
    Field("tempo_speedup", "number", _T.tempo_speedup, "fraction by which the tempo shortens per won pile "
          "(0 keeps it steady)", low=0, high=0.5),
    Field("tempo_min_ms", "number", _ms(_T.tempo_min_ns), "the tempo never gets shorter than this",
          low=50, high=10000),
    Field("auto_flip_timeout_ms", "number", _ms(_T.auto_flip_timeout_ns), "a seat with a FLIP button that "
          "has not flipped after this long has its card flipped by the box", low=500, high=60000),
    Field("first_card_ms", "number", _ms(_T.first_card_ns), "from the start of a game to its first card",
          low=0, high=30000),
    Field("pile_pause_ms", "number", _ms(_T.pile_pause_ns), "after a won pile, before the winner's first "
          "card (time to see who won and by how much)", low=0, high=30000),
)

register_section("timing", TIMING_FIELDS, "Timings in milliseconds (fractions allowed); the arbiter's "
                 "values are written in each journal header.", validate=_validate_timing)
