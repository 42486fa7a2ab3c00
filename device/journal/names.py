"""The names the box remembers (players pick theirs with their own button): most recent first, with a cap.

One small JSON file in the state directory (next to the journals and the leaderboard), written
atomically like the leaderboard (a temporary file fsync'd, renamed over the old one, the folder
fsync'd), so a power cut leaves the old list or the new one. A damaged file is set aside
(``names.damaged``) and the box starts a new list: a name list never stops a game.
"""

from __future__ import annotations

import json
from pathlib import Path

from device.journal.stats import set_aside, write_json_atomically

FILE_NAME = "names.json"
#: names kept (the oldest used goes first): a party's worth, and a short list to tap through
CAP = 24
#: the longest name (what fits under a seat on the small screen; the config's [game] names agree)
NAME_MAX = 16
#: ... and the widest: the names the wheel and the keyboard make are no wider than this (fewer
#: letters when they are wide ones, W or M); the name screens are sized for it
WIDEST_NAME = "Marie-Hélène Dup"


def check_name(name: str) -> str:
    """``name`` with its spaces tidied; ValueError saying what is wrong (empty, too long)."""
    tidy = " ".join(str(name).split())
    if not tidy:
        raise ValueError("a name cannot be empty")
    if len(tidy) > NAME_MAX:
        raise ValueError(f"names are at most {NAME_MAX} characters, got {tidy!r}")
    if not all(ch.isprintable() for ch in tidy):
        raise ValueError(f"a name holds printable characters only, got {tidy!r}")
    return tidy


class NameBook:
    """The remembered names of one state folder (``path`` None: nothing is kept on disk)."""

    def __init__(self, path: Path | None, cap: int = CAP) -> None:
        if cap < 1:
            raise ValueError(f"cap: expected at least 1 name, got {cap}")
        self.path = path
        self.cap = cap
        self.names: list[str] = []  # most recent first
        self.warning: str | None = None
        if path is not None and path.exists():
            self._load(path)

    def _load(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            raw = data["names"] if isinstance(data, dict) else None
            if not isinstance(raw, list):
                raise ValueError("expected {\"names\": [...]}")
            names: list[str] = []
            for n in raw:  # an entry this version cannot use is skipped, the rest kept
                try:
                    tidy = check_name(n) if isinstance(n, str) else None
                except ValueError:
                    continue
                if tidy is not None and tidy not in names:
                    names.append(tidy)
            self.names = names[:self.cap]
        except (OSError, ValueError, KeyError, RecursionError) as e:
            self.warning = f"{path}: unreadable name list ({e}); starting a new one"
            self.names = []
            set_aside(path)

    def use(self, name: str) -> str:
        """``name`` played now: it goes first (the oldest beyond the cap is dropped). Returns it tidied."""
        tidy = check_name(name)
        if tidy in self.names:
            self.names.remove(tidy)
        self.names.insert(0, tidy)
        del self.names[self.cap:]
        return tidy

    def forget(self, name: str) -> bool:
        """The box no longer offers ``name``; False if it did not know it."""
        if name not in self.names:
            return False
        self.names.remove(name)
        return True

    def save(self) -> None:
        if self.path is not None:
            write_json_atomically(self.path, {"version": 1, "names": self.names})


__all__ = ["CAP", "FILE_NAME", "NAME_MAX", "WIDEST_NAME", "NameBook", "check_name"]
