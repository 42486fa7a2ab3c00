"""The start-up benchmark prints its figures (not timed), and what makes the start cheap keeps
the behaviour: the commands' help lines, the sounds' cache."""

from __future__ import annotations

import importlib
import inspect
import re
import shutil
from pathlib import Path

import pytest

from device import cli
from device.bench import startup
from device.screen import sound


def test_bench_startup_prints_plausible_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code = startup.main(["--runs", "1"])
    out = capsys.readouterr().out
    with capsys.disabled():  # CI's log shows the figures
        print("\n" + out)
    assert code == 0, out
    lines = {m.group(1): m for m in re.finditer(
        r"^  (play|screenshot|simulate) +wall ([0-9.]+) s \(([0-9.]+)\), (?:instructions ([0-9,]+) M"
        r"|instructions: not counted)", out, re.M)}
    assert set(lines) == {"play", "screenshot", "simulate"}, out
    for m in lines.values():
        assert 0 < float(m.group(3)) <= float(m.group(2)) < 120
        if shutil.which("valgrind"):
            assert 10 <= int(m.group(4).replace(",", "")) <= 50_000  # millions of instructions
    assert "goal (DESIGN.md): start to first frame <= 600 M instructions" in out


def test_callgrind_totals_are_read() -> None:
    assert startup.total_ir("events: Ir\nsummary: 123456\ntotals: 123456\n") == 123456
    with pytest.raises(RuntimeError):
        startup.total_ir("events: Ir\n")


def test_help_lines_read_without_parsing_match_the_docstrings() -> None:
    for name, module in cli.available_commands().items():
        doc = inspect.cleandoc(importlib.import_module(module).__doc__ or "")
        assert cli._summary(module) == doc.splitlines()[0].strip(), name


def test_sounds_are_synthesised_once_then_read_from_the_cache(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    build = sound._synth_bytes.__wrapped__
    first = build("slap", 22050, 2, tmp_path)
    assert first == sound.synthesize("slap", 22050, 2).tobytes()
    assert len(list(tmp_path.glob("sound-slap-22050-2-*.s16"))) == 1
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert build("slap", 22050, 2, blocked / "cache") == first  # an unwritable cache is no error

    def never(*args: object) -> None:
        raise AssertionError("synthesised again")
    monkeypatch.setattr(sound, "synthesize", never)
    assert build("slap", 22050, 2, tmp_path) == first
