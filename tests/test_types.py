"""The typed parts pass ``mypy --strict``: the rules core and the bots (the table joins them later)."""

from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: the packages checked with --strict, relative to the repository's root
STRICT = ["device/rules", "device/bots"]


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                    reason="mypy is not installed (pip install -e '.[dev]' brings it)")
def test_the_typed_packages_pass_mypy_strict() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", "/dev/null",
         *STRICT],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, f"mypy --strict {' '.join(STRICT)}:\n{proc.stdout}{proc.stderr}"
