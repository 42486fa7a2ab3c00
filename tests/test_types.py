"""The code is typed: the rules core, the bots and the table pass ``mypy --strict`` (python-chess's
standard for its core); everything else passes ``mypy`` with the project's [tool.mypy] settings."""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: the packages checked with --strict, relative to the repository's root
STRICT = ["device/rules", "device/bots", "device/table"]


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", "/dev/null",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


def test_the_rules_core_the_bots_and_the_table_pass_mypy_strict() -> None:
    proc = _mypy("--strict", *STRICT)
    assert proc.returncode == 0, f"mypy --strict {' '.join(STRICT)}:\n{proc.stdout}{proc.stderr}"


def test_the_whole_program_passes_mypy() -> None:
    proc = _mypy()  # the files and settings of pyproject.toml's [tool.mypy]
    assert proc.returncode == 0, f"mypy:\n{proc.stdout}{proc.stderr}"
    assert "no issues found" in proc.stdout and " 0 source files" not in proc.stdout
