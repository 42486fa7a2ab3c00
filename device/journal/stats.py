"""Statistics kept across games, keyed by player name: the leaderboard (a small JSON file in the
state directory, next to the journals). Written atomically (a temporary file fsync'd, renamed over
the old one, then the folder fsync'd), so a power cut leaves the old board or the new one, never
half of one, and a board once saved stays saved."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

FILE_NAME = "leaderboard.json"


@dataclass
class PlayerRecord:
    name: str
    games: int = 0
    wins: int = 0
    slaps_won: int = 0
    wrong_slaps: int = 0
    reactions: int = 0
    reaction_sum_ms: float = 0.0
    fastest_ms: float | None = None

    @property
    def mean_reaction_ms(self) -> float | None:
        return round(self.reaction_sum_ms / self.reactions, 1) if self.reactions else None


class Leaderboard:
    """Players by name; bots are not on the board."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.players: dict[str, PlayerRecord] = {}
        self.warning: str | None = None
        if path is not None and path.exists():
            self._load(path)

    def _load(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            for row in data.get("players", []):
                rec = PlayerRecord(**row)
                self.players[rec.name] = rec
        except (OSError, ValueError, TypeError) as e:
            # A damaged board must never stop a game: start a new one, keep the old file aside.
            self.warning = f"{path}: unreadable leaderboard ({e}); starting a new one"
            self.players = {}
            set_aside(path)

    def add_game(self, seat_stats: list[dict[str, Any]], winner: int | None) -> None:
        """Add one finished game (``Table.seat_stats()``, and the winning seat)."""
        for s in seat_stats:
            if s["bot"]:
                continue
            rec = self.players.setdefault(s["name"], PlayerRecord(s["name"]))
            rec.games += 1
            rec.wins += int(winner == s["seat"])
            rec.slaps_won += s["slaps_won"]
            rec.wrong_slaps += s["wrong_slaps"]
            if s["reactions"]:
                rec.reactions += s["reactions"]
                rec.reaction_sum_ms += s["mean_reaction_ms"] * s["reactions"]
                fastest = s["fastest_reaction_ms"]
                rec.fastest_ms = fastest if rec.fastest_ms is None else min(rec.fastest_ms, fastest)

    def rows(self, limit: int = 8) -> list[PlayerRecord]:
        """Best first: wins, then slaps won, then the fastest average reaction."""
        return sorted(self.players.values(),
                      key=lambda r: (-r.wins, -r.slaps_won, r.mean_reaction_ms or 1e9, r.name))[:limit]

    def save(self) -> None:
        if self.path is not None:
            write_json_atomically(self.path, {"version": 1, "players": [asdict(r) for r in self.players.values()]})


def write_json_atomically(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to a temporary file beside ``path``, fsync it, rename it over
    ``path``, fsync the folder: a power cut leaves the old file or the new one, never half of
    one (the leaderboard, the remembered names, the menu's choices)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=1)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)  # the rename itself survives a power cut


def set_aside(path: Path) -> None:
    """A damaged state file is renamed ``.damaged`` (kept for a look, out of the box's way); a
    folder that refuses the rename is no error."""
    try:
        path.rename(path.with_suffix(".damaged"))
    except OSError:
        pass


def fsync_dir(folder: Path) -> None:
    """Make the entries of ``folder`` durable (a rename in it); a file system that cannot fsync
    a directory is no error."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
