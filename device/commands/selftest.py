"""Check the box itself: what hardware it finds, and how fair its own wiring is (the loopback).

  slapbox selftest                      what it finds, then the loopback test ([pins] loopback)
  slapbox selftest --input gpiod        through the gpiod backend (default: [inputs] source, or gpio)
  slapbox selftest --mock               on mock pins (the default where there is no GPIO chip)
  slapbox selftest --json               the same as one JSON object

It lists the board, the GPIO chip and which GPIO backends can run, the display (DRM connectors,
framebuffers), audio cards and the bridge. With the loopback wired (hardware.md, "The self-test")
it pulses the drive pin N times and reports per button input the stamp offset against the
reference input (median, p99), the spread between pins (the wiring bias), edges lost (gpiod) or
repaired (gpio) and bounce, and what that means for the tie window. On mock pins the stamps come
from a model of the GPIO bank's interrupt handler: it says so, and what it could not check.
Exit status 1 when a check failed (an input never seen, a press missing or doubled, lost edges).
"""

from __future__ import annotations

import argparse
import glob
import importlib
import json
import random
from pathlib import Path
from typing import Any

from device.commands.common import positive_int

__all__ = ["add_arguments", "discover", "free_pins", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--input", choices=("gpio", "gpiod"), default=None,
                        help="the backend to test (default: [inputs] source if gpio or gpiod, "
                             "else gpio)")
    parser.add_argument("--mock", action="store_true",
                        help="mock pins even on a Pi (the default where no GPIO chip is found)")
    parser.add_argument("--pulses", type=positive_int, default=200, metavar="N",
                        help="loopback pulses (default 200; 60 ms each on a Pi)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="the mock interrupt model's noise seed (default 1)")


# --- what the box finds ------------------------------------------------------------------------
def _read(path: Path) -> str | None:
    try:
        return path.read_text(errors="replace").replace("\x00", "").strip()
    except OSError:
        return None


def _module(name: str) -> str | None:
    """The version of an importable module ("" if it has none), or None if it cannot import."""
    try:
        mod = importlib.import_module(name)
    except Exception:  # noqa: BLE001 -- lgpio raises more than ImportError off a Pi
        return None
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:  # noqa: BLE001 -- a Debian package without metadata
        return str(getattr(mod, "__version__", ""))


def discover(root: Path = Path("/")) -> dict[str, Any]:
    """What this machine has: board, GPIO chips, backends, display, audio, bridge."""
    found: dict[str, Any] = {"board": _read(root / "proc/device-tree/model")}
    chips = []
    for dev in sorted(glob.glob(str(root / "dev/gpiochip*"))):
        name = Path(dev).name
        label = _read(root / "sys/bus/gpio/devices" / name / "label")
        if label is None:  # older kernels: the label sits with the sysfs chip of that device
            for d in glob.glob(str(root / "sys/class/gpio/gpiochip*")):
                if (Path(d) / "device" / name).exists():
                    label = _read(Path(d) / "label")
        chips.append({"path": f"/dev/{name}", "label": label})
    found["gpio_chips"] = chips
    found["backends"] = {"gpiozero": _module("gpiozero"), "lgpio": _module("lgpio"),
                         "gpiod": _module("gpiod")}
    displays = []
    for status in sorted(glob.glob(str(root / "sys/class/drm/card*-*/status"))):
        conn = Path(status).parent
        card = conn.name.split("-")[0]
        driver = (root / "sys/class/drm" / card / "device/driver")
        modes = (_read(conn / "modes") or "").splitlines()
        displays.append({"connector": conn.name, "status": _read(Path(status)),
                         "mode": modes[0] if modes else None,
                         "driver": driver.resolve().name if driver.exists() else None})
    found["drm"] = displays
    found["framebuffers"] = [
        {"device": f"/dev/{Path(fb).name}", "name": _read(Path(fb) / "name"),
         "size": (_read(Path(fb) / "virtual_size") or "").replace(",", "x") or None}
        for fb in sorted(glob.glob(str(root / "sys/class/graphics/fb*")))]
    cards = _read(root / "proc/asound/cards")
    found["audio"] = [ln.strip() for ln in (cards or "").splitlines()
                      if ln.strip() and ln.strip()[0].isdigit()]
    found["bridge"] = "/dev/slapbox-bridge" if (root / "dev/slapbox-bridge").exists() else None
    return found


def _found_lines(found: dict[str, Any], source: str) -> list[str]:
    b = found["backends"]
    chips = ", ".join(f"{c['path']} ({c['label'] or 'label unknown'})"
                      for c in found["gpio_chips"]) or "none"
    backends = ", ".join(f"{k} {v or ''}".strip() if v is not None else f"{k} missing"
                         for k, v in b.items())
    connected = [d for d in found["drm"] if d["status"] == "connected"]
    drm = ", ".join(f"{d['connector']} {d['mode'] or '?'} ({d['driver'] or 'driver?'})"
                    for d in connected) or "no connected DRM output"
    fbs = ", ".join(f"{f['device']} {f['name']} {f['size']}" for f in found["framebuffers"])
    return [f"board: {found['board'] or 'not a Raspberry Pi (no /proc/device-tree/model)'}",
            f"GPIO chips: {chips}",
            f"GPIO backends: {backends}; configured: {source}",
            f"display: {drm}" + (f"; framebuffers: {fbs}" if fbs else ""),
            f"audio: {'; '.join(found['audio']) or 'no sound card'}",
            f"bridge: {found['bridge'] or 'no /dev/slapbox-bridge'}"
            + (f" (configured: {source})" if source.startswith("bridge:") else "")]


def free_pins(pins: dict[str, Any]) -> list[int]:
    """GPIO 2-27 the pin map leaves free (for a loopback on mock pins), LED-safe ones first."""
    from device.inputs.pins import PIN_RANGE, used_pins
    used = used_pins(pins.get("stations"), pins.get("menu"))
    return sorted((p for p in PIN_RANGE if p not in used), key=lambda p: (p in (2, 3), p))


# --- the loopback ------------------------------------------------------------------------------
def _loopback(args: argparse.Namespace, cfg: Any, mock: bool, notes: list[str]) -> Any:
    from device.clock import MonotonicClock, VirtualClock
    from device.config.schema import ms_to_ns
    from device.inputs.gpio import GpioInputs, StationPins, make_factory
    from device.inputs.loopback import IrqModel, MockRig, PinRig, loopback_inputs, run_loopback
    pins = dict(cfg.section("pins"))
    timing = cfg.section("timing")
    source = cfg.section("inputs")["source"]
    backend = args.input or (source if source in ("gpio", "gpiod") else "gpio")
    lb = dict(pins.get("loopback") or {})
    if not lb:
        if not mock:
            notes.append("loopback: not wired ([pins] loopback is empty): wire one spare output "
                         "to every button input and a spare reference input, each through "
                         "1 kOhm, and set [pins] loopback = {drive = N, reference = M} "
                         "(hardware.md, 'The self-test')")
            return None
        spare = free_pins(pins)
        lb = {"drive": spare[0]} if len(spare) < 2 else {"drive": spare[0], "reference": spare[1]}
        notes.append(f"loopback: [pins] loopback is empty; on mock pins the test wires drive = "
                     f"GPIO {lb['drive']}" + (f", reference = GPIO {lb['reference']}"
                                              if "reference" in lb else ", reference = MENU"))
    stations = [StationPins(p["slap"], p.get("flip"), p.get("led")) for p in pins["stations"]]
    menu = pins.get("menu")
    release_ns, stuck_ns = ms_to_ns(timing["release_ms"]), ms_to_ns(timing["stuck_ms"])
    tie_ns = ms_to_ns(timing["tie_window_ms"])
    factory = make_factory("mock" if mock else "lgpio")
    clock: Any = VirtualClock(1_000_000_000_000) if mock else MonotonicClock()
    chip: Any = None
    if backend == "gpiod":
        from device.inputs.gpiod import FakeChip, GpiodInputs, KernelLines
        chip = FakeChip() if mock else KernelLines(pins.get("chip", "auto"))

        def open_backend(st: Any, sink: Any, menu_pin: int | None) -> Any:
            return GpiodInputs(st, sink, menu_pin=menu_pin, lines=chip, led_factory=factory,
                               clock=clock, release_ns=release_ns, stuck_ns=stuck_ns,
                               record_edges=True)
    else:
        def open_backend(st: Any, sink: Any, menu_pin: int | None) -> Any:
            return GpioInputs(st, sink, menu_pin=menu_pin, factory=factory, clock=clock,
                              release_ns=release_ns, stuck_ns=stuck_ns, record_edges=True)
    names, ref = loopback_inputs(stations, menu, lb)
    rig: Any
    if mock:
        model = IrqModel()
        if backend == "gpiod":
            def deliver(pin: int, level: int, t: int) -> None:
                chip.drive(pin, level, t)
        else:
            def deliver(pin: int, level: int, t: int) -> None:
                factory.pin(pin).drive(level, t)
        rig = MockRig(sorted(set(names) | {ref}), deliver, clock, random.Random(args.seed), model)
        notes.append(f"mock pins: the stamps come from a model of the bank's interrupt handler "
                     f"(ascending GPIO order, {model.per_pin_ns} ns a pin, {model.jitter_ns} ns "
                     f"jitter, 1 in {round(1 / model.late_rate)} stamps {model.late_ns // 1000} "
                     "us late): the figures check the analysis, they measure nothing")
    else:
        rig = PinRig(lb["drive"], factory, clock)
    try:
        return run_loopback(backend, open_backend, stations, menu, lb, rig, pulses=args.pulses,
                            release_ns=release_ns, tie_window_ns=tie_ns)
    finally:
        if isinstance(rig, PinRig):
            rig.close()
        factory.close()


def _us(ns: int) -> str:
    return f"{ns / 1000:+.1f} us"


def _report_lines(rep: Any) -> list[str]:
    from device.inputs.header import PHYSICAL
    d = rep.to_dict()
    where = "mock pins" if rep.mock else "the box's pins"
    out = [f"loopback: {rep.backend} backend on {where}, {rep.pulses} pulses, drive GPIO "
           f"{rep.drive}, reference GPIO {rep.reference} (header pin {PHYSICAL[rep.reference]})",
           f"  {'input':<16} {'GPIO':>4} {'pin':>4} {'median':>10} {'p99':>10} {'missed':>6} "
           f"{'bounce':>6} {'presses':>7}"]
    for f in d["inputs"]:
        out.append(f"  {f['input']:<16} {f['gpio']:>4} {PHYSICAL[f['gpio']]:>4} "
                   f"{_us(f['median_ns']) if 'median_ns' in f else '-':>10} "
                   f"{_us(f['p99_ns']) if 'p99_ns' in f else '-':>10} {f['missed']:>6} "
                   f"{f['bounce']:>6} {f['presses']:>7}")
    out.append(f"spread between pins (the wiring bias): {rep.spread_ns / 1000:.1f} us; in "
               f"ascending GPIO order: {'yes' if rep.ordered else 'no'} (about "
               f"{rep.step_ns} ns a GPIO rank)")
    lost = (f"edges lost: {rep.lost}" if rep.backend == "gpiod"
            else "edges lost: not counted by the gpio backend (lgpio drops sequence numbers)")
    out.append(f"{lost}; releases repaired: {rep.repaired}; merged edges: {rep.merged}")
    out.append(f"tie window: {rep.verdict()}")
    out += [f"FAILED: {p}" for p in rep.problems]
    return out


def run(args: argparse.Namespace) -> int:
    from device.config.schema import load_config
    cfg = load_config(getattr(args, "config", None))
    source = cfg.section("inputs")["source"]
    found = discover()
    notes: list[str] = []
    mock = (args.mock or not found["gpio_chips"]
            or cfg.section("pins")["factory"] == "mock")
    if mock and not args.mock:
        notes.append("no GPIO chip here (or [pins] factory = \"mock\"): mock pins")
    rep = _loopback(args, cfg, mock, notes)
    not_checked = []
    if mock:
        not_checked += ["the real interrupt order and latency of this board's GPIO bank (run on "
                        "the Pi with the loopback wired)",
                        "edges lost under load on real lines (gpiod counts them on a Pi)",
                        "the pull-ups, the 1 kOhm series resistors and the leads' length",
                        "the LEDs' drivers and their state at boot"]
    if not found["drm"] and not found["framebuffers"]:
        not_checked.append("the display (no DRM connector or framebuffer here)")
    if not found["audio"]:
        not_checked.append("audio (no sound card here)")
    if args.json:
        print(json.dumps({"found": found, "source": source, "mock": mock, "notes": notes,
                          "loopback": None if rep is None else rep.to_dict(),
                          "could_not_check": not_checked}, indent=2))
    else:
        print("slapbox selftest" + (" (mock pins: nothing below was measured on a Raspberry Pi)"
                                    if mock else ""))
        for line in _found_lines(found, source) + notes:
            print(line)
        if rep is not None:
            print()
            for line in _report_lines(rep):
                print(line)
        if not_checked:
            print("could not check: " + "; ".join(not_checked))
    return 1 if rep is not None and rep.problems else 0
