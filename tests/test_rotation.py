"""Journals never fill the card: rotation keeps the newest N and at most M MB, never the game
being played or the one that could be resumed; the leaderboard's folder is fsync'd after its rename."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from device.box import Box, Options
from device.clock import VirtualClock
from device.config.schema import ConfigError, load_config
from device.journal import stats
from device.journal.journal import JOURNAL_VERSION, KEEP_GAMES, MAX_MB, rotate, unfinished
from device.screen.menu import Settings


def journal(folder: Path, n: int, *, finished: bool = True, size: int = 0) -> Path:
    """Journal number ``n`` (a larger n is newer), of about ``size`` bytes."""
    path = folder / f"2026-{n:04d}-bataille-corse-{n}.jsonl"
    lines = [{"k": "header", "version": JOURNAL_VERSION}]
    if size:
        lines.append({"k": "tick", "t": 0, "pad": "x" * size})
    if finished:
        lines.append({"k": "end", "t": 1})
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    os.utime(path, ns=(n * 1_000_000_000, n * 1_000_000_000))
    return path


def names(folder: Path) -> list[int]:
    return sorted(int(p.stem.rsplit("-", 1)[1]) for p in folder.glob("*.jsonl"))


def test_rotation_keeps_the_newest_games(tmp_path: Path) -> None:
    for n in range(1, 11):
        journal(tmp_path, n)
    (tmp_path / "leaderboard.json").write_text("{}")
    deleted = rotate(tmp_path, keep_games=3, max_mb=100)
    assert names(tmp_path) == [8, 9, 10]
    assert sorted(p.name for p in deleted) == sorted(f"2026-{n:04d}-bataille-corse-{n}.jsonl"
                                                     for n in range(1, 8))
    assert (tmp_path / "leaderboard.json").exists()  # only journals are rotated
    assert rotate(tmp_path, keep_games=3, max_mb=100) == []  # idempotent


def test_rotation_keeps_at_most_max_mb(tmp_path: Path) -> None:
    for n in range(1, 7):
        journal(tmp_path, n, size=300_000)
    rotate(tmp_path, keep_games=100, max_mb=1)
    assert names(tmp_path) == [4, 5, 6]  # 3 x 300 kB fit in 1 MB, a 4th does not
    assert sum(p.stat().st_size for p in tmp_path.glob("*.jsonl")) <= 1_000_000


def test_once_one_journal_is_too_many_every_older_one_is_too(tmp_path: Path) -> None:
    journal(tmp_path, 1)              # small, old
    journal(tmp_path, 2, size=900_000)
    journal(tmp_path, 3, size=300_000)
    rotate(tmp_path, keep_games=100, max_mb=1)
    assert names(tmp_path) == [3]     # never a hole: the newest games, in a row


def test_rotation_never_deletes_the_game_being_played_nor_the_resumable_one(tmp_path: Path) -> None:
    playing = journal(tmp_path, 1, finished=False, size=2_000_000)  # the oldest, and too big
    for n in range(2, 8):
        journal(tmp_path, n)
    resumable = journal(tmp_path, 8, finished=False, size=2_000_000)
    assert unfinished(tmp_path) == resumable
    rotate(tmp_path, keep_games=1, max_mb=1, protect=[playing])
    assert names(tmp_path) == [1, 8]
    assert playing.exists() and resumable.exists()


def test_a_new_game_rotates_the_folder_and_keeps_itself(tmp_path: Path) -> None:
    folder = tmp_path / "journal"
    folder.mkdir()
    for n in range(1, 6):
        journal(folder, n)
    opts = Options(settings=Settings(preset="bataille-corse", players=2, lang="en"),
                   journal=str(folder), journal_keep_games=2)
    box = Box(opts, clock=VirtualClock(0))
    match = box.new_match([0])
    try:
        assert match.journal is not None
        left = {p.name for p in folder.glob("*.jsonl")}
        assert left == {match.journal.path.name, "2026-0005-bataille-corse-5.jsonl"}
    finally:
        match.close()
        box.close()


def test_rotation_defaults_are_in_the_config(tmp_path: Path) -> None:
    service = load_config(os.devnull).section("service")
    assert (service["journal_keep_games"], service["journal_max_mb"]) == (KEEP_GAMES, MAX_MB)
    cfg = tmp_path / "config.toml"
    cfg.write_text("[service]\njournal_keep_games = 20\njournal_max_mb = 64.5\n")
    service = load_config(str(cfg)).section("service")
    assert (service["journal_keep_games"], service["journal_max_mb"]) == (20, 64.5)
    cfg.write_text("[service]\njournal_keep_games = 0\n")
    with pytest.raises(ConfigError) as e:
        load_config(str(cfg))
    assert any("service.journal_keep_games" in line for line in e.value.errors)


def test_the_leaderboard_folder_is_fsynced_after_the_rename(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / stats.FILE_NAME
    synced: list[tuple[bool, bool]] = []  # (a directory?, the board already in place?)
    real = os.fsync

    def recorder(fd: int) -> None:
        synced.append((stat.S_ISDIR(os.fstat(fd).st_mode), path.exists()))
        real(fd)
    monkeypatch.setattr(os, "fsync", recorder)
    board = stats.Leaderboard(path)
    board.add_game([{"seat": 0, "name": "Ana", "bot": False, "slaps_won": 2, "wrong_slaps": 0,
                     "reactions": 0}], winner=0)
    board.save()
    assert synced == [(False, False), (True, True)]  # the file's data, then the folder's rename
    assert stats.Leaderboard(path).players["Ana"].wins == 1
