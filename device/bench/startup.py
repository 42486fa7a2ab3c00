"""Start-up cost of the commands a box runs at boot: wall time and instructions to the first frame.

``slapbox bench startup`` runs, each as a fresh process and each after one warm run (the page
cache, the bytecode -- written under a temporary ``PYTHONPYCACHEPREFIX``, as a box's install
compiles it -- and the box's own caches in its state folder are then as on a box that has started
before):
- ``play``: ``slapbox play`` on SDL's dummy video driver, stopped as soon as its first frame is
  flipped (the box reads ``SLAPBOX_EXIT_AFTER_FIRST_FRAME=1``);
- ``screenshot``: ``slapbox screenshot --scene menu --size 800x480`` (start, imports, fonts, a scene);
- ``simulate``: ``slapbox simulate --seed 1`` (the rules alone, no pygame).

For each: the wall time (the median of ``--runs`` runs, and the fastest) and, where valgrind is
installed, the instructions executed (``valgrind --tool=callgrind``, the total Ir): the figure
that carries over to a Pi Zero 2 W (DESIGN.md's budget: start to first frame <= 600 M). The
callgrind runs go side by side (a count does not depend on the machine's load). A benchmark: it
prints figures and never fails on a time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

GOAL_INSTRUCTIONS = 600_000_000  # DESIGN.md: start to first frame
EXIT_AFTER_FIRST_FRAME = "SLAPBOX_EXIT_AFTER_FIRST_FRAME"  # device.screen.app reads it


@dataclass
class Case:
    """One command to start: its name, what it is, its arguments and environment."""

    name: str
    title: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    expect: str = ""  # a text its standard output must hold when it went well
    wall: list[float] = field(default_factory=list)
    instructions: int | None = None
    error: str | None = None


def cases(tmp: Path, size: str) -> list[Case]:
    """The three commands, writing into ``tmp``."""
    return [
        Case("play", f"slapbox play, to its first frame (SDL dummy, {size})",
             ["play", "--driver", "dummy", "--window", size, "--journal", "none", "--lang", "en"],
             {EXIT_AFTER_FIRST_FRAME: "1", "SDL_VIDEODRIVER": "dummy"}, expect="first frame"),
        Case("screenshot", f"slapbox screenshot --scene menu --size {size}",
             ["screenshot", "--scene", "menu", "--size", size, str(tmp / "menu.png")],
             expect="menu.png"),
        Case("simulate", "slapbox simulate --seed 1", ["simulate", "--seed", "1"], expect="seed 1"),
    ]


def command() -> list[str]:
    """How to start ``slapbox``: the console script next to this Python (as the box and a user
    start it), else the CLI's main through ``-c``."""
    script = Path(sys.executable).parent / "slapbox"
    if script.is_file():
        return [sys.executable, str(script)]
    return [sys.executable, "-c", "import sys; from device.cli import main; sys.exit(main())"]


def run_once(case: Case, env: dict[str, str], prefix: Sequence[str] = ()) -> float:
    """Run ``case`` once; its wall time in seconds. Raises RuntimeError if it failed."""
    t0 = time.perf_counter()
    proc = subprocess.run([*prefix, *command(), *case.args], env={**env, **case.env},
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=900)
    wall = time.perf_counter() - t0
    if proc.returncode != 0 or case.expect not in proc.stdout:
        tail = " / ".join((proc.stderr or proc.stdout).strip().splitlines()[-3:])
        raise RuntimeError(f"exit status {proc.returncode}: {tail or 'no output'}")
    return wall


def callgrind(case: Case, env: dict[str, str], out: Path) -> int:
    """The instructions ``case`` executes (valgrind --tool=callgrind, total Ir)."""
    run_once(case, env, ["valgrind", "--tool=callgrind", "--quiet",
                         f"--callgrind-out-file={out}"])
    return total_ir(out.read_text(encoding="utf-8", errors="replace"))


def total_ir(text: str) -> int:
    """The total of a callgrind output file (its ``totals:`` or ``summary:`` line)."""
    for line in text.splitlines():
        if line.startswith(("totals:", "summary:")):
            return int(line.split()[1])
    raise RuntimeError("callgrind wrote no totals")


def report(found: list[Case], valgrind: bool, runs: int) -> list[str]:
    lines = [f"slapbox bench startup: each command after a warm run (which compiles the bytecode, "
             f"as a box's install does); wall: median of {runs} run(s) (fastest); instructions: "
             "valgrind --tool=callgrind, total Ir"]
    for c in found:
        if c.error:
            lines.append(f"  {c.name:<10} {c.title}: failed: {c.error}")
            continue
        wall = f"wall {statistics.median(c.wall):.3f} s ({min(c.wall):.3f})"
        if c.instructions is not None:
            ins = f"instructions {c.instructions / 1e6:,.0f} M"
        else:
            ins = "instructions: not counted" + ("" if valgrind else " (valgrind is not installed)")
        lines.append(f"  {c.name:<10} {wall}, {ins}: {c.title}")
    lines.append(f"goal (DESIGN.md): start to first frame <= {GOAL_INSTRUCTIONS / 1e6:,.0f} M "
                 "instructions")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="slapbox bench startup", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, metavar="N", help="timed runs of each (3)")
    ap.add_argument("--size", default="800x480", metavar="WxH", help="window and picture size")
    ap.add_argument("--only", action="append", choices=["play", "screenshot", "simulate"],
                    help="measure only this command (repeatable)")
    ap.add_argument("--no-callgrind", action="store_true", help="wall times only")
    args = ap.parse_args(argv)
    valgrind = shutil.which("valgrind") is not None
    with tempfile.TemporaryDirectory(prefix="slapbox-startup-") as name:
        tmp = Path(name)
        config = tmp / "config.toml"
        config.write_text("", encoding="utf-8")  # every default, whatever /etc/slapbox holds
        env = {**os.environ, "SLAPBOX_CONFIG": str(config), "XDG_STATE_HOME": str(tmp / "state"),
               "XDG_CACHE_HOME": str(tmp / "cache"), "SDL_AUDIODRIVER": "dummy"}
        env.pop("SLAPBOX_DEBUG", None)
        # Bytecode as on a box (its install compiles it): the warm run writes it, into tmp.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        found = [c for c in cases(tmp, args.size) if not args.only or c.name in args.only]
        for c in found:
            try:
                run_once(c, env)  # the warm run
                c.wall = [run_once(c, env) for _ in range(max(1, args.runs))]
            except (RuntimeError, OSError, subprocess.SubprocessError) as e:
                c.error = str(e)
        if valgrind and not args.no_callgrind:
            todo = [c for c in found if c.error is None]

            def count(c: Case) -> None:
                try:
                    c.instructions = callgrind(c, env, tmp / f"callgrind.{c.name}")
                except (RuntimeError, OSError, ValueError, subprocess.SubprocessError) as e:
                    c.error = f"callgrind: {e}"
            with ThreadPoolExecutor(max_workers=max(1, min(len(todo), os.cpu_count() or 1))) as pool:
                list(pool.map(count, todo))
    print("\n".join(report(found, valgrind, max(1, args.runs))), flush=True)
    return 1 if any(c.error for c in found) else 0


if __name__ == "__main__":
    raise SystemExit(main())
