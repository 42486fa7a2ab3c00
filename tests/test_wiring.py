"""slapbox wiring: the pin map on the 40-pin header, its conflicts named, and an SVG that parses."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from device.cli import main
from device.inputs.header import BCM_AT, PHYSICAL, conflicts, notes, svg, wiring_rows
from device.inputs.pins import BOOT_PULL_UP, DEFAULT_STATIONS, NO_LED_PINS, pin_map_problems

SVG = "{http://www.w3.org/2000/svg}"


def test_the_header_maps_every_bcm_pin_0_to_27_once() -> None:
    assert sorted(PHYSICAL) == list(range(28))
    assert len([b for b in BCM_AT.values() if b is None]) == 12
    assert (PHYSICAL[2], PHYSICAL[14], PHYSICAL[17], PHYSICAL[26], PHYSICAL[21]) == (3, 8, 11, 37, 40)


def test_the_default_pin_map_follows_the_led_rules() -> None:
    leds = [st["led"] for st in DEFAULT_STATIONS]
    assert not set(leds) & set(NO_LED_PINS)
    assert not set(leds) & set(BOOT_PULL_UP)


def test_an_led_on_gpio_2_or_3_is_refused_with_the_reason() -> None:
    [(key, reason)] = pin_map_problems([{"slap": 17, "led": 3}], None)
    assert key == "stations[0].led" and "1.8 kOhm" in reason


def test_every_configured_pin_is_in_the_svg_and_it_parses(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[pins]\nloopback = {drive = 4, reference = 14}\n")
    out = tmp_path / "w.svg"
    assert main(["--config", str(cfg), "wiring", "--svg", str(out)]) == 0
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG}svg"
    texts = {t.get("data-gpio"): "".join(t.itertext()) for t in root.iter(f"{SVG}text")
             if t.get("data-gpio")}
    wired = {p for st in DEFAULT_STATIONS for p in st.values()} | {26, 4, 14}
    for pin in wired:
        assert ":" in texts[str(pin)], pin  # "GPIO17: station 1 SLAP"
    assert "loopback drive" in texts["4"] and "loopback reference" in texts["14"]
    loop = {p.get("data-loopback") for p in root.iter(f"{SVG}path") if p.get("data-loopback")}
    slaps_and_flips = {st[k] for st in DEFAULT_STATIONS for k in ("slap", "flip")}
    assert loop == {str(p) for p in slaps_and_flips | {26, 14}}  # every input, no LED


def test_the_table_names_station_gpio_header_pin_and_other_uses(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("")
    assert main(["--config", str(cfg), "wiring"]) == 0
    out = capsys.readouterr().out
    assert "1         SLAP          17     11  SPI1 CE1, pull-down at boot" in out
    assert "no conflict" in out


def test_a_pin_the_spi_panel_takes_is_named_as_a_conflict(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("")
    assert main(["--config", str(cfg), "wiring", "--with", "spi-panel"]) == 1
    out = capsys.readouterr().out
    assert ("conflict: GPIO 17 (header pin 11, station 1 SLAP): also taken by panel touch IRQ "
            "(spi-panel)") in out
    assert "GPIO 24" in out and "GPIO 25" in out


def test_boot_pull_up_and_uart_pins_are_named() -> None:
    rows = wiring_rows([{"slap": 14, "led": 7}], None)
    assert conflicts(rows) == []
    needs = notes(rows)
    assert any("gpio=7=op,dl" in c for c in needs)
    assert any("enable_uart=0" in c for c in needs)
    root = ET.fromstring(svg(rows))
    assert any("(*)" in "".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    rows = wiring_rows([{"slap": 17}, {"slap": 17}], None)
    assert conflicts(rows) == ["GPIO 17 (header pin 11, station 2 SLAP): GPIO 17 is also "
                               "station 1 SLAP"]


#: hardware.md's pin maps: hardware/wiring/<name>.toml, drawn with these boards attached
MAPS = {"hdmi": [], "hdmi-i2s": ["i2s"], "spi-panel": ["spi-panel"],
        "spi-panel-i2s": ["spi-panel", "i2s"]}
FOLDER = Path(__file__).parent.parent / "hardware" / "wiring"


@pytest.mark.parametrize("name", sorted(MAPS))
def test_the_committed_diagrams_are_what_the_command_draws(name: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """hardware.md's maps have no conflict and their pictures are `slapbox wiring --svg`'s."""
    out = tmp_path / "w.svg"
    args = ["--config", str(FOLDER / f"{name}.toml"), "wiring", "--svg", str(out),
            "--title", f"slapbox wiring: {name}"]
    for board in MAPS[name]:
        args += ["--with", board]
    assert main(args) == 0, capsys.readouterr().out
    assert out.read_text(encoding="utf-8") == (FOLDER / f"{name}.svg").read_text(encoding="utf-8")
