"""The journal: every game's inputs and judgements as JSON lines, append-only, flushed per record.

A header (software version, preset, options, seed, dealt packs, seats and stations, arbiter and
table settings), then every input in the order the table received it (presses with their stamp
*and* arrival, `shown`, ticks of the table's time, players' decisions) and every judgement and
rules event. Every record is flushed to the file as soon as it is written (the writer thread
writes whatever is queued in one go, never holding a record back for a later one) and fsync'd at
every won pile and at the end, so a crash or a power cut loses at most the lines being written: a
torn last line is tolerated on reading.
"""

from __future__ import annotations

import json
import os
import queue
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from device.errors import SlapboxError

#: 2: judgements name their station and seat (bots' hands at station 8 + seat), one contest per
#: pile, locks by stamp, raw edges (``edge``) and arriving players (``join``) recorded
JOURNAL_VERSION = 2
INPUT_KINDS = ("press", "shown", "stuck", "unstuck", "tick", "decide", "pause", "resume",
               "abandon", "edge")
#: outputs: what the table wrote of its own judgements (``time_up``: the time limit ran out)
OUTPUT_KINDS = ("judge", "event", "end", "refused", "join", "time_up")


_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class JournalError(SlapboxError, ValueError):
    """A journal file that cannot be read: names the file, the line and what was expected."""


class FileJournal:
    """Appends records to one file; ``sync()`` makes them durable (fsync).

    With ``background`` (the default) a writer thread does the writing: it takes everything
    queued, writes it and flushes it in one system call, and fsyncs where asked. An fsync on an SD
    card can take tens of milliseconds, and the main loop (judgements, frames) must never wait for
    the disk. ``close()`` (or ``drain()``) waits until everything queued is on disk.
    """

    _SYNC = object()
    _STOP = object()

    def __init__(self, path: str | os.PathLike[str], *, background: bool = True) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        cut_torn_tail(self.path)  # a resumed game appends after its last whole line
        self._file = open(self.path, "a", encoding="utf-8")
        self.error: OSError | None = None  # the first write error (the game goes on without)
        self._queue: queue.SimpleQueue[Any] | None = None
        self._thread: threading.Thread | None = None
        if background:
            self._queue = queue.SimpleQueue()
            self._thread = threading.Thread(target=self._writer, name="journal", daemon=True)
            self._thread.start()

    def write(self, record: dict[str, Any]) -> None:
        if self._queue is not None:
            self._queue.put(record)
        else:
            self._write(record)

    def sync(self) -> None:
        if self._queue is not None:
            self._queue.put(self._SYNC)
        else:
            self._fsync()

    def drain(self) -> None:
        """Wait until every record written so far is in the file."""
        if self._queue is not None:
            done = threading.Event()
            self._queue.put(done)
            done.wait()

    def close(self) -> None:
        if self._thread is not None and self._queue is not None:
            self._queue.put(self._STOP)
            self._thread.join()
            self._thread = None
        if not self._file.closed:
            self._fsync()
            self._file.close()

    def _writer(self) -> None:
        # Whatever is queued when the thread wakes is written at once, then flushed, in one
        # system call: during a storm of presses that is a handful of records, and no record
        # ever waits for a later one (the queue is empty whenever the thread sleeps).
        q = self._queue
        assert q is not None
        dumps = _dumps
        while True:
            item = q.get()
            lines: list[str] = []
            while True:
                if isinstance(item, dict):
                    lines.append(dumps(item))
                else:
                    self._put(lines)
                    if item is self._STOP:
                        return
                    if item is self._SYNC:
                        self._fsync()
                    elif isinstance(item, threading.Event):
                        item.set()
                try:
                    item = q.get_nowait()
                except queue.Empty:
                    break
            self._put(lines)

    def _write(self, record: dict[str, Any]) -> None:
        self._put([_dumps(record)])

    def _put(self, lines: list[str]) -> None:
        """Write ``lines`` (JSON texts) and flush; empties the list."""
        if not lines:
            return
        if self.error is None:
            try:
                self._file.write("\n".join(lines) + "\n")
                self._file.flush()
            except OSError as e:  # a full or failing card: keep playing, say so once
                self.error = e
        lines.clear()

    def _fsync(self) -> None:
        if self.error is None:
            try:
                os.fsync(self._file.fileno())
            except OSError as e:
                self.error = e


class MemoryJournal:
    """Keeps records in a list (tests, replay)."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.syncs = 0

    def write(self, record: dict[str, Any]) -> None:
        # A copy through JSON: exactly what a file would hold (tuples become lists ...).
        self.records.append(json.loads(json.dumps(record, ensure_ascii=False)))

    def sync(self) -> None:
        self.syncs += 1

    def close(self) -> None:
        pass


def cut_torn_tail(path: Path) -> None:
    """If ``path`` ends in a torn line (cut off while written), remove that line."""
    try:
        with open(path, "rb+") as f:
            size = f.seek(0, os.SEEK_END)
            if size == 0:
                return
            f.seek(size - 1)
            if f.read(1) == b"\n":
                return
            back = min(size, 1 << 20)  # a record is far shorter than this
            f.seek(size - back)
            tail = f.read(back)
            f.truncate(size - back + tail.rfind(b"\n") + 1)
    except FileNotFoundError:
        return


def unfinished(folder: str | os.PathLike[str]) -> Path | None:
    """The newest journal in ``folder`` if its game was neither finished nor abandoned (a crash
    or a power cut stopped it): the one the kiosk resumes. None if there is none."""
    try:
        paths = sorted(Path(folder).glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
    except OSError:
        return None
    if not paths:
        return None
    newest = paths[-1]
    try:
        _, records, _ = read_journal(newest)
    except JournalError:
        return None
    if any(r["k"] in ("end", "abandon") for r in records):
        return None
    return newest


#: [service] journal_keep_games and journal_max_mb's defaults: a game's journal is tens to
#: hundreds of kB (a long one with raw edges a few MB), so this is months of parties and at
#: most about 2 % of a 16 GB card, whatever the years
KEEP_GAMES = 1000
MAX_MB = 256


def rotate(folder: str | os.PathLike[str], keep_games: int = KEEP_GAMES, max_mb: float = MAX_MB,
           *, protect: Sequence[str | os.PathLike[str]] = ()) -> list[Path]:
    """Delete the oldest journals of ``folder`` until the newest ``keep_games`` are left and they
    take at most ``max_mb`` MB; returns what was deleted. Never deleted: the journals in
    ``protect`` (the game being played) and the one that could be resumed (``unfinished``).
    Called when a game starts; a file that cannot be read or deleted is skipped, never an error."""
    keep = {Path(p).resolve() for p in protect}
    resumable = unfinished(folder)
    if resumable is not None:
        keep.add(resumable.resolve())
    found: list[tuple[int, str, Path, int]] = []
    try:
        for path in Path(folder).glob("*.jsonl"):
            try:
                st = path.stat()
            except OSError:
                continue
            found.append((st.st_mtime_ns, path.name, path, st.st_size))
    except OSError:
        return []
    found.sort(reverse=True)  # newest first
    budget = max_mb * 1_000_000
    kept = used = 0
    full = False  # once one journal is too many, every older one is too
    deleted: list[Path] = []
    for _, _, path, size in found:
        if path.resolve() in keep:
            kept += 1
            used += size
            continue
        full = full or kept >= keep_games or used + size > budget
        if not full:
            kept += 1
            used += size
            continue
        try:
            path.unlink()
            deleted.append(path)
        except OSError:
            pass
    return deleted


def default_dir(service: bool = False) -> Path:
    """``/var/lib/slapbox`` for the service; ``$XDG_STATE_HOME/slapbox`` (~/.local/state) otherwise."""
    if service:
        return Path("/var/lib/slapbox")
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "slapbox"


def journal_name(preset: str, seed: int | None, stamp: str) -> str:
    """``20261129-221500-bataille-corse-1234.jsonl`` (``stamp``: the wall time, for humans)."""
    safe = re.sub(r"[^0-9A-Za-z-]", "", stamp)
    return f"{safe}-{preset}-{'deal' if seed is None else seed}.jsonl"


def read_journal(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
    """(header, records after it, warnings). A torn last line is dropped with a warning; any other
    unreadable line is a JournalError naming the file and line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise JournalError(f"{path}: cannot read the journal: {e.strerror or e}") from None
    lines = data.split(b"\n")
    torn = lines[-1] != b""  # a complete file ends with a newline
    if not torn:
        lines.pop()
    records: list[dict[str, Any]] = []
    warnings: list[str] = []
    for i, raw in enumerate(lines, start=1):
        last = i == len(lines)
        try:
            record = json.loads(raw.decode("utf-8"))
            if not isinstance(record, dict) or not isinstance(record.get("k"), str):
                raise ValueError("not a record")
        except (ValueError, UnicodeDecodeError):
            if last and (torn or i > 1):
                warnings.append(f"{path}: line {i}: torn last line ignored (the game was cut off "
                                "while writing it)")
                break
            raise JournalError(f"{path}: line {i}: expected one JSON object with a \"k\" "
                               f"(record kind), got {raw[:60]!r}") from None
        records.append(record)
    if not records or records[0].get("k") != "header":
        raise JournalError(f"{path}: line 1: expected the journal header (a record with "
                           "\"k\": \"header\")")
    header = records.pop(0)
    if header.get("version") != JOURNAL_VERSION:
        raise JournalError(f"{path}: line 1: journal version {header.get('version')!r}; this "
                           f"slapbox reads version {JOURNAL_VERSION} (a version 1 journal was "
                           "judged by rules since made fairer, so it cannot replay here: use the "
                           "slapbox that wrote it)")
    return header, records, warnings
