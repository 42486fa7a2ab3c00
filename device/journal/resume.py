"""Resume after a crash or a power cut: find the newest unfinished game and put it back on a table.

The game is replayed from its journal into a fresh table that goes on now, on the new clock,
appending to the same journal (`device.journal.replay.continue_game`). A journal that cannot be
replayed, whose game had ended, or that was resumed three times with nothing played since is
marked left, so a box that keeps dying on one game starts afresh instead of crash-looping.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.journal.journal import FileJournal, JournalError, read_journal, unfinished
from device.journal.replay import ReplayMismatch, continue_game
from device.table.session import GameSpec, spec_from_header
from device.table.table import Table

log = logging.getLogger("slapbox")
#: resumes in a row with nothing played since, after which the game is left
MAX_FAILED_RESUMES = 3


@dataclass
class Resumed:
    """A game back on a table: what decides it, the table, and its journal (still appending)."""

    path: Path
    spec: GameSpec
    table: Table
    journal: FileJournal


def resume_newest(folder: Path | None, now_ns: int, *, unpause: bool = False) -> Resumed | None:
    """The newest unfinished game of ``folder``, on a table that goes on at ``now_ns``; None if
    there is none or it cannot go on (said in the log; the journal is then marked left)."""
    path = unfinished(folder) if folder is not None else None
    if path is None:
        return None
    try:
        head, records, _ = read_journal(path)
        if failed_resumes(records) >= MAX_FAILED_RESUMES:
            raise JournalError(f"{path}: resumed {MAX_FAILED_RESUMES} times without anything "
                               "happening since")
        spec = spec_from_header(head)
        taken = continue_game(path, now_ns, unpause=unpause)
    except Exception as e:  # noqa: BLE001 - whatever the file holds, the box must start
        reason = str(e) if isinstance(e, (JournalError, ReplayMismatch, OSError)) else repr(e)
        log.warning("resume: %s; starting afresh (the journal is marked left)", reason)
        mark_left(path)
        return None
    for w in taken.result.warnings:
        log.warning("resume: %s", w)
    if taken.table is None or taken.journal is None:
        return None  # it had ended: its end is now written
    log.info("resume: %s, %d inputs replayed", path, taken.result.inputs)
    return Resumed(path, spec, taken.table, taken.journal)


def failed_resumes(records: list[dict[str, Any]]) -> int:
    """How many times the journal was resumed with nothing played since (a box that dies while
    showing a resumed game would otherwise resume it, and die, at every boot)."""
    n = 0
    for r in reversed(records):
        if r["k"] == "resume":
            n += 1
        elif r["k"] not in ("pause", "tick"):
            break
    return n


def mark_left(path: Path) -> None:
    """Mark a journal's game as left, so no start tries to resume it again."""
    try:
        j = FileJournal(path, background=False)
        j.write({"k": "abandon", "t": 0})
        j.close()
    except OSError as e:
        log.warning("resume: cannot mark %s as left (%s)", path, e)


__all__ = ["Resumed", "resume_newest", "failed_resumes", "mark_left", "MAX_FAILED_RESUMES"]
