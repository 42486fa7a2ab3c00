"""The layout shows the flow (DESIGN.md, "Layout"): one package per stage, each module saying its
one job in its first line, the benchmarks apart, each default in one place, callers asking the
game instead of reaching into it."""

from __future__ import annotations

import ast
import pathlib

from device.config.schema import load_config
from device.inputs.pins import PIN_RANGE, pin_map_problems
from device.table.arbiter import ArbiterSettings
from device.table.session import DEFAULT_NAMES
from device.table.table import TableSettings

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEVICE = ROOT / "device"
MODULES = sorted(p for p in DEVICE.rglob("*.py"))
#: modules allowed past 600 lines, with the one job that needs the length
LONG = {
    "screen/i18n.py": "the screen's two language catalogues, key by key side by side",
    "rules/challenge.py": "one engine for three presets: the single-action rules and the simulator's "
                          "fast loop that a property test holds equal to them",
}
STAGES = ("inputs", "bots", "table", "rules", "journal", "screen", "service", "bench", "commands",
          "config")


def _tree(path: pathlib.Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def test_every_stage_is_a_package_and_every_module_says_its_one_job_in_its_first_line():
    for stage in STAGES:
        assert (DEVICE / stage / "__init__.py").is_file(), f"device/{stage}/ is not a package"
    for path in MODULES:
        doc = ast.get_docstring(_tree(path))
        assert doc and doc.splitlines()[0].strip(), f"{path.relative_to(ROOT)}: no first-line docstring"


def test_no_module_is_over_600_lines_unless_its_one_job_needs_it():
    for path in MODULES:
        rel = path.relative_to(DEVICE).as_posix()
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= 600 or rel in LONG, f"device/{rel}: {lines} lines, over 600"


def test_nothing_in_the_product_imports_the_benchmarks():
    for path in MODULES:
        rel = path.relative_to(DEVICE).as_posix()
        if rel.startswith("bench/") or rel == "commands/bench.py":
            continue  # `slapbox bench` names its targets by module, imported only when run
        for node in ast.walk(_tree(path)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith("device.bench"), f"device/{rel} imports {name}"


def test_nothing_outside_the_rules_reaches_past_the_game_interface():
    for path in MODULES:
        rel = path.relative_to(DEVICE).as_posix()
        if rel.startswith("rules/"):
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr":
                target = ast.unparse(node.args[0])
                assert "game" not in target, f"device/{rel}: getattr({target}, ...) on a game"
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                owner = ast.unparse(node.value)
                assert not owner.endswith("game"), f"device/{rel}: {owner}.{node.attr} is a game's private"


def test_each_timing_default_is_the_codes_own():
    timing = load_config(None).section("timing")
    a, t = ArbiterSettings(), TableSettings()
    ms = 1_000_000
    assert [timing[k] * ms for k in ("settle_ms", "tie_window_ms", "grace_ms", "release_ms", "stuck_ms",
                                     "collect_delay_ms")] == [a.settle_ns, a.tie_ns, a.grace_ns,
                                                              a.release_ns, a.stuck_ns, a.collect_delay_ns]
    assert [timing[k] * ms for k in ("tempo_ms", "tempo_min_ms", "auto_flip_timeout_ms", "first_card_ms",
                                     "pile_pause_ms")] == [t.tempo_ns, t.tempo_min_ns, t.auto_flip_timeout_ns,
                                                           t.first_card_ns, t.pile_pause_ns]
    assert load_config(None).section("game")["names"] == DEFAULT_NAMES


def test_the_default_names_are_written_once():
    hits = [p for p in MODULES if '"Anna", "Ben"' in p.read_text(encoding="utf-8")]
    assert [p.relative_to(DEVICE).as_posix() for p in hits] == ["table/session.py"]


def test_the_hat_id_eeprom_pins_are_never_a_station_or_the_menu():
    assert PIN_RANGE == range(2, 28)
    for pin in (0, 1, 28):
        assert pin_map_problems([{"slap": pin}], None) == [
            ("stations[0].slap", f"expected a BCM pin number from 2 to 27, got {pin}")]
        assert pin_map_problems([{"slap": 17}], pin)[0][0] == "menu"
    assert pin_map_problems([{"slap": 2, "flip": 27}], 3) == []
