"""The box's pin map: which BCM GPIO each station's SLAP and FLIP buttons and LED use, and the
MENU button's; checked by one validator for the config file and the GPIO backends alike."""

from __future__ import annotations

from typing import Any

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
            else:
                used[pin] = f"{where}.{key}"
    return problems


__all__ = ["PIN_RANGE", "ROLES", "MAX_STATIONS", "DEFAULT_STATIONS", "DEFAULT_MENU_PIN",
           "pin_map_problems"]
