"""slapbox selftest: what the box finds, and the loopback's figures on mock pins (a modelled
interrupt order), through both backends."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from device.cli import main
from device.clock import VirtualClock
from device.commands.selftest import discover, free_pins
from device.inputs.gpio import GpioInputs, StampedMockPin, StationPins
from device.inputs.gpiod import FakeChip, GpiodInputs
from device.inputs.loopback import IrqModel, MockRig, percentile, run_loopback

T0 = 1_000_000_000_000
STATIONS = [StationPins(17, 27, 22), StationPins(5, 6, 13)]
LOOP = {"drive": 4, "reference": 14}


def _gpio_rig(seed: int, model: IrqModel) -> tuple[object, MockRig]:
    factory, clock = MockFactory(pin_class=StampedMockPin), VirtualClock(T0)

    def open_backend(st: list[StationPins], sink: object, menu_pin: int | None) -> GpioInputs:
        return GpioInputs(st, sink, menu_pin=menu_pin, factory=factory, clock=clock,
                          record_edges=True)
    rig = MockRig([5, 6, 14, 17, 26, 27], lambda p, lv, t: factory.pin(p).drive(lv, t), clock,
                  random.Random(seed), model)
    return open_backend, rig


def test_the_spread_is_the_modelled_ascending_gpio_order() -> None:
    model = IrqModel(per_pin_ns=500, jitter_ns=0, late_rate=0.0)
    open_backend, rig = _gpio_rig(1, model)
    rep = run_loopback("gpio", open_backend, STATIONS, 26, LOOP, rig, pulses=20)
    meds = rep.medians()
    # ranks among 5, 6, 14 (the reference), 17, 26, 27: offsets of -2..+3 steps
    assert meds == {5: -1000, 6: -500, 17: 500, 26: 1000, 27: 1500}
    assert rep.spread_ns == 2500 and rep.ordered and rep.step_ns == 500
    assert all(f.presses == 20 and f.missed == 0 and f.bounce == 0 for f in rep.inputs)
    assert rep.problems == [] and "under a tenth" in rep.verdict()


def test_a_late_stamp_shows_in_the_p99_not_the_median() -> None:
    open_backend, rig = _gpio_rig(3, IrqModel(per_pin_ns=400, jitter_ns=100, late_rate=0.02))
    rep = run_loopback("gpio", open_backend, STATIONS, 26, LOOP, rig, pulses=300)
    f27 = next(f for f in rep.inputs if f.gpio == 27)
    assert abs(percentile(f27.offsets, 0.5) - 1200) < 200
    assert percentile(f27.offsets, 0.99) > 10_000


def test_the_gpiod_backend_counts_no_lost_edge_on_a_clean_loopback() -> None:
    chip, clock = FakeChip(), VirtualClock(T0)

    def open_backend(st: list[StationPins], sink: object, menu_pin: int | None) -> GpiodInputs:
        return GpiodInputs(st, sink, menu_pin=menu_pin, lines=chip,
                           led_factory=MockFactory(pin_class=StampedMockPin), clock=clock,
                           record_edges=True)
    rig = MockRig([5, 6, 14, 17, 26, 27], chip.drive, clock, random.Random(2),
                  IrqModel(jitter_ns=0, late_rate=0.0))
    rep = run_loopback("gpiod", open_backend, STATIONS, 26, LOOP, rig, pulses=30)
    assert rep.lost == 0 and rep.ordered and rep.problems == []
    assert all(f.presses == 30 for f in rep.inputs)


def test_an_unwired_input_is_a_failed_check() -> None:
    factory, clock = MockFactory(pin_class=StampedMockPin), VirtualClock(T0)

    def open_backend(st: list[StationPins], sink: object, menu_pin: int | None) -> GpioInputs:
        return GpioInputs(st, sink, menu_pin=menu_pin, factory=factory, clock=clock,
                          record_edges=True)
    rig = MockRig([5, 6, 14, 17, 26], lambda p, lv, t: factory.pin(p).drive(lv, t), clock,
                  random.Random(1))  # 27's resistor is missing
    rep = run_loopback("gpio", open_backend, STATIONS, 26, LOOP, rig, pulses=3, wait_s=0.05)
    assert rep.problems == ["GPIO 27 (station 1 FLIP): 3 of 3 pulses not seen: is its loopback "
                            "resistor wired?"]


def test_without_a_reference_pin_the_menu_is_the_reference() -> None:
    open_backend, rig = _gpio_rig(1, IrqModel(per_pin_ns=300, jitter_ns=0, late_rate=0.0))
    rig.inputs = (5, 6, 17, 26, 27)
    rep = run_loopback("gpio", open_backend, STATIONS, 26, {"drive": 4}, rig, pulses=5)
    assert rep.reference == 26 and rep.medians()[27] == 300


@pytest.mark.parametrize("backend", ["gpio", "gpiod"])
def test_on_a_laptop_it_runs_on_mock_pins_and_says_what_it_could_not_check(
        backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('[pins]\nfactory = "mock"\nloopback = {drive = 4, reference = 14}\n')
    assert main(["--config", str(cfg), "selftest", "--json", "--pulses", "40",
                 "--input", backend]) == 0
    out = json.loads(capsys.readouterr().out)
    lb = out["loopback"]
    assert out["mock"] and lb["backend"] == backend and lb["ordered"]
    assert {f["gpio"] for f in lb["inputs"]} == {17, 27, 5, 6, 23, 24, 16, 20, 26}
    assert all(f["presses"] == 40 for f in lb["inputs"])
    assert any("interrupt order" in c for c in out["could_not_check"])


def test_the_text_report_names_the_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('[pins]\nfactory = "mock"\n')
    assert main(["--config", str(cfg), "selftest", "--pulses", "20"]) == 0
    out = capsys.readouterr().out
    assert "mock pins: nothing below was measured" in out
    assert "spread between pins (the wiring bias)" in out and "tie window:" in out
    assert "on mock pins the test wires drive = GPIO 4" in out


def test_discovery_reads_the_machine_from_its_files(tmp_path: Path) -> None:
    (tmp_path / "proc/device-tree").mkdir(parents=True)
    (tmp_path / "proc/device-tree/model").write_text("Raspberry Pi 4 Model B Rev 1.5\x00")
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev/gpiochip0").write_text("")
    (tmp_path / "sys/bus/gpio/devices/gpiochip0").mkdir(parents=True)
    (tmp_path / "sys/bus/gpio/devices/gpiochip0/label").write_text("pinctrl-bcm2711\n")
    conn = tmp_path / "sys/class/drm/card1-HDMI-A-1"
    conn.mkdir(parents=True)
    (conn / "status").write_text("connected\n")
    (conn / "modes").write_text("1920x1080\n1280x720\n")
    (tmp_path / "proc/asound").mkdir(parents=True)
    (tmp_path / "proc/asound/cards").write_text(
        " 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n                      vc4-hdmi-0\n")
    found = discover(tmp_path)
    assert found["board"] == "Raspberry Pi 4 Model B Rev 1.5"
    assert found["gpio_chips"] == [{"path": "/dev/gpiochip0", "label": "pinctrl-bcm2711"}]
    assert found["drm"][0]["mode"] == "1920x1080" and found["drm"][0]["status"] == "connected"
    assert found["audio"] == ["0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0"]
    assert found["bridge"] is None


def test_free_pins_put_gpio_2_and_3_last() -> None:
    pins = {"stations": [{"slap": 17}], "menu": 26}
    free = free_pins(pins)
    assert free[:2] == [4, 5] and free[-2:] == [2, 3] and 17 not in free and 26 not in free
