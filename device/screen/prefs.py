"""Remembers the menu's choices (game, seats, difficulty, tempo, flip mode, house rules, language, volume, match, time limit) between starts.

One small JSON file in the box's state folder (beside the journals and the leaderboard; none with
``--journal none``), written atomically: a temporary file, fsync, rename, fsync of the folder, so a
power cut leaves the old choices or the new ones. A corrupt or unreadable file is ignored with one
log line.

Which value wins, per setting: the command line (for that run, and it is not remembered), else the
menu's last choice, else the configuration file, else the default. The file also keeps what the
configuration said when the choice was made: if the configuration changed since, the
configuration wins (the host's newer edit), so the last change wins wherever it was made.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from device.journal.stats import write_json_atomically
from device.rules.presets import PRESETS, resolve_options
from device.screen.menu import LANGS, LEVELS, TEMPOS, Settings
from device.table.series import MatchPlan
from device.table.timing import TIME_LIMIT_MIN

log = logging.getLogger("slapbox")

FILE_NAME = "menu.json"
VERSION = 1
#: the settings the menu sets, in the file's order
REMEMBERED = ("preset", "players", "level", "tempo", "flip_mode", "options", "lang", "volume",
              "time_limit_min", "match")


def _valid(key: str, value: Any, s: Settings) -> bool:
    """A remembered value this version can use (a file from another version may hold others)."""
    if key == "preset":
        return value in PRESETS
    if key == "players":
        spec = PRESETS[s.preset]
        return isinstance(value, int) and not isinstance(value, bool) and spec.min_players <= value <= spec.max_players
    if key == "level":
        return value in LEVELS
    if key == "tempo":
        return value in TEMPOS
    if key == "flip_mode":
        return value in ("auto", "buttons")
    if key == "lang":
        return value in LANGS
    if key == "volume":
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100
    if key == "time_limit_min":
        low, high = TIME_LIMIT_MIN
        return value is None or (type(value) is int and low <= value <= high)
    if key == "match":
        try:
            MatchPlan.parse(value)
        except (ValueError, TypeError):
            return False
        return True
    if key == "options":
        if not isinstance(value, dict):
            return False
        try:
            resolve_options(s.preset, dict(value))
        except (ValueError, TypeError):  # OptionError is a ValueError
            return False
        return True
    return False


class Prefs:
    """The remembered choices of one state folder (``folder`` None: nothing is remembered)."""

    def __init__(self, folder: Path | None) -> None:
        self.path = None if folder is None else folder / FILE_NAME
        self.base: dict[str, Any] = {}   # what the configuration (and defaults) gave at start

    def restore(self, s: Settings, pinned: frozenset[str] = frozenset()) -> list[str]:
        """Put the remembered choices into ``s`` (but not the ``pinned`` ones, which the command
        line set); returns the keys restored."""
        self.base = {k: _plain(getattr(s, k)) for k in REMEMBERED}
        data = self._read()
        choices, base = data.get("choices", {}), data.get("base", {})
        restored = []
        for key in REMEMBERED:  # preset first: players and options are checked against it
            if key in pinned or key not in choices or base.get(key) != self.base[key]:
                continue
            if _valid(key, choices[key], s):
                setattr(s, key, dict(choices[key]) if key == "options" else choices[key])
                restored.append(key)
        return restored

    def save(self, s: Settings, pinned: frozenset[str] = frozenset()) -> None:
        """Remember ``s`` (a pinned key keeps what the file had); a failure is one log line."""
        if self.path is None:
            return
        old = self._read(quiet=True)
        choices = {k: _plain(getattr(s, k)) for k in REMEMBERED}
        for key in pinned:
            if key in old.get("choices", {}):
                choices[key] = old["choices"][key]
            else:
                choices.pop(key, None)
        if choices == old.get("choices") and self.base == old.get("base"):
            return
        try:
            write_json_atomically(self.path, {"version": VERSION, "choices": choices, "base": self.base})
        except OSError as e:
            log.warning("menu choices: cannot save %s (%s)", self.path, e.strerror or e)

    def _read(self, quiet: bool = False) -> dict[str, Any]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, RecursionError) as e:
            if not quiet:
                log.warning("menu choices: %s ignored (%s)", self.path, e)
            return {}
        if not isinstance(data, dict) or not isinstance(data.get("choices"), dict) \
                or not isinstance(data.get("base", {}), dict):
            if not quiet:
                log.warning("menu choices: %s ignored (not a slapbox menu file)", self.path)
            return {}
        return data


def _plain(value: Any) -> Any:
    """A setting as JSON keeps it (tuples are lists)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
