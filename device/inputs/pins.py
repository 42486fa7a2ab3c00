"""The box's pin map: which BCM GPIO each station's SLAP and FLIP buttons and LED use, and the
MENU button's; checked by one validator for the config file and the GPIO backends alike."""

from __future__ import annotations

from typing import Any

from device.errors import SlapboxError

#: BCM GPIO numbers a station may use: GPIO 0 and 1 are the HAT ID EEPROM's I2C pins (ID_SD,
#: ID_SC), which the firmware probes at boot; 28 and up are not on the 40-pin header
PIN_RANGE = range(2, 28)
#: what one station may wire, in order
ROLES = ("slap", "flip", "led")
MAX_STATIONS = 8
DEFAULT_STATIONS: list[dict[str, int]] = [
    {"slap": 17, "flip": 27, "led": 22}, {"slap": 5, "flip": 6, "led": 13},
    {"slap": 23, "flip": 24, "led": 25}, {"slap": 16, "flip": 20, "led": 21}]
DEFAULT_MENU_PIN = 26
#: GPIO 2 and 3 are I2C1 with fixed 1.8 kOhm pull-ups on the board: a MOSFET-driven lamp there is
#: lit whenever the program is not driving the pin (and I2S HATs often need them): no LED there
NO_LED_PINS = (2, 3)
#: GPIO 0-8 are pulled up at boot (50-65 kOhm): against a gate pull-down a lamp there glows until
#: the program starts, unless config.txt drives it low (``gpio=<pins>=op,dl``); LEDs prefer 9-27
BOOT_PULL_UP = range(9)


class GpioConfigError(SlapboxError, ValueError):
    """A pin map that cannot work (pin out of range, pin used twice, too many stations)."""


def _is_pin(pin: Any) -> bool:
    return isinstance(pin, int) and not isinstance(pin, bool) and pin in PIN_RANGE


def pin_map_problems(stations: Any, menu: Any = None) -> list[tuple[str, str]]:
    """Every problem of a pin map as (key, reason): ``stations`` is a list of tables like
    ``{"slap": 17, "flip": 27, "led": 22}`` (flip and led optional), ``menu`` a pin or None."""
    expected = f"a BCM pin number from {PIN_RANGE.start} to {PIN_RANGE.stop - 1}"
    if not isinstance(stations, list) or not 1 <= len(stations) <= MAX_STATIONS:
        n = f"{len(stations)} stations" if isinstance(stations, list) else repr(stations)
        return [("stations", f"{n}: expected a list of 1 to {MAX_STATIONS} tables like "
                             "{slap = 17, flip = 27, led = 22}")]
    problems: list[tuple[str, str]] = []
    used: dict[int, str] = {}
    if menu is not None:
        if _is_pin(menu):
            used[menu] = "menu"
        else:
            problems.append(("menu", f"expected {expected}, got {menu!r}"))
    for i, st in enumerate(stations):
        where = f"stations[{i}]"
        if not isinstance(st, dict) or st.get("slap") is None:
            problems.append((where, "expected a table with at least slap = <BCM pin>"))
            continue
        for key, pin in st.items():
            if key not in ROLES:
                problems.append((f"{where}.{key}", "unknown key; expected slap, flip or led"))
            elif pin is None:
                continue
            elif not _is_pin(pin):
                problems.append((f"{where}.{key}", f"expected {expected}, got {pin!r}"))
            elif pin in used:
                problems.append((f"{where}.{key}", f"pin {pin} is already used by {used[pin]}"))
            elif key == "led" and pin in NO_LED_PINS:
                problems.append((f"{where}.{key}", f"no LED on GPIO {pin}: its 1.8 kOhm board "
                                 "pull-up lights the lamp whenever the program is not driving it "
                                 "(and I2S HATs need it); use a pin from 9 to 27 (hardware.md)"))
            else:
                used[pin] = f"{where}.{key}"
    return problems


def used_pins(stations: Any, menu: Any = None) -> dict[int, str]:
    """BCM pin -> the key that uses it (``stations[0].slap``, ``menu``), for a valid pin map."""
    used: dict[int, str] = {}
    if _is_pin(menu):
        used[menu] = "menu"
    for i, st in enumerate(stations if isinstance(stations, list) else []):
        if isinstance(st, dict):
            for key in ROLES:
                pin = st.get(key)
                if isinstance(pin, int) and _is_pin(pin) and pin not in used:
                    used[pin] = f"stations[{i}].{key}"
    return used


def led_advice(stations: Any) -> list[tuple[str, str]]:
    """LEDs on pins pulled up at boot (not an error: config.txt can drive them low)."""
    out: list[tuple[str, str]] = []
    for pin, key in used_pins(stations).items():
        if key.endswith(".led") and pin in BOOT_PULL_UP:
            out.append((key, f"GPIO {pin} is pulled up at boot: its lamp glows until slapbox "
                             f"starts unless config.txt says gpio={pin}=op,dl (or move it to 9-27)"))
    return out


def loopback_problems(loopback: Any, stations: Any, menu: Any = None) -> list[tuple[str, str]]:
    """Problems of ``[pins] loopback`` (the self-test's wiring): ``{}`` (not wired) or
    ``{drive = N}`` with an optional ``reference = M``, both pins no button or LED uses (without a
    reference the MENU button's input is the reference)."""
    if loopback is None or loopback == {}:
        return []
    shape = "expected {} or a table like {drive = 4, reference = 14}"
    if not isinstance(loopback, dict):
        return [("loopback", f"{shape}, got {loopback!r}")]
    problems: list[tuple[str, str]] = []
    used = used_pins(stations, menu)
    expected = f"a BCM pin number from {PIN_RANGE.start} to {PIN_RANGE.stop - 1}"
    if "drive" not in loopback:
        problems.append(("loopback", f"{shape}: drive is missing"))
    for key, pin in loopback.items():
        where = f"loopback.{key}"
        if key not in ("drive", "reference"):
            problems.append((where, "unknown key; expected drive or reference"))
        elif not _is_pin(pin):
            problems.append((where, f"expected {expected}, got {pin!r}"))
        elif pin in used:
            problems.append((where, f"pin {pin} is already used by {used[pin]}: the loopback "
                                    "needs a spare pin"))
    if loopback.get("drive") is not None and loopback.get("drive") == loopback.get("reference"):
        problems.append(("loopback.reference", "the reference input cannot be the drive pin"))
    if "reference" not in loopback and not _is_pin(menu):
        problems.append(("loopback", "without a reference pin the MENU input is the reference, "
                                     "and there is no MENU pin"))
    return problems


__all__ = [
    "GpioConfigError",
    "BOOT_PULL_UP",
    "DEFAULT_MENU_PIN",
    "DEFAULT_STATIONS",
    "MAX_STATIONS",
    "NO_LED_PINS",
    "PIN_RANGE",
    "ROLES",
    "led_advice",
    "loopback_problems",
    "pin_map_problems",
    "used_pins",
]
