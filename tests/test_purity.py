"""The rules core is pure: no hardware or display library, no clock, no global random generator."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys
import textwrap

RULES = pathlib.Path(__file__).resolve().parent.parent / "device" / "rules"
ALLOWED_MODULES = {"device.errors", "__future__", "abc", "collections", "collections.abc", "dataclasses", "typing",
                   "hashlib", "random", "itertools", "functools", "math", "enum", "bisect"}


def test_the_rules_core_imports_only_pure_standard_modules():
    for path in sorted(RULES.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
                if node.module == "random":
                    # Only the generator class, seeded per named stream; never the global one.
                    assert [a.name for a in node.names] == ["Random"], f"{path.name}: {ast.unparse(node)}"
            else:
                continue
            for name in names:
                assert name.startswith("device.rules") or name in ALLOWED_MODULES, (
                    f"{path.name} imports {name}: the rules core must stay pure")


def test_playing_every_preset_reads_no_clock_and_loads_no_hardware_or_display_library():
    # A fresh interpreter, so that nothing else has imported those libraries first.
    code = textwrap.dedent("""
        import sys, time, random
        def no_clock(*a, **k):
            raise AssertionError("the rules core read the clock")
        for name in ("time", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
                     "time_ns", "process_time"):
            setattr(time, name, no_clock)
        def no_global_random(*a, **k):
            raise AssertionError("the rules core used the global random generator")
        for name in ("random", "randint", "randrange", "choice", "shuffle", "sample", "seed"):
            setattr(random, name, no_global_random)
        from device.rules.presets import PRESET_NAMES, PRESETS, new_game
        from device.bots.minds import decider, make_players
        for preset in PRESET_NAMES:
            for seed in range(5):
                game = new_game(preset, players=3, seed=seed, slapping=False)
                decide = decider(make_players(["rule"] * 3, game.streams))
                game.play_out(decide)
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in
                        ("pygame", "gpiozero", "serial", "lgpio", "pigpio", "RPi"))
        print(loaded)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
