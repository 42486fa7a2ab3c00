"""The box's own config sections: [display], [sound], [inputs], [pins] and [service].

Owned here, next to the composition root that reads them (device.screen.app); registered into the one
schema of device.config.schema, so `slapbox config check` knows every key.
"""

from __future__ import annotations

import re
from typing import Any

from device.config.schema import ErrorFn, Field, register_section

SIZE = re.compile(r"^(\d{3,4})x(\d{3,4})$")


def parse_size(text: str) -> tuple[int, int]:
    """``800x480`` -> (800, 480); ValueError naming what was expected."""
    m = SIZE.match(text.strip()) if isinstance(text, str) else None
    if not m or int(m.group(1)) < 320 or int(m.group(2)) < 240:
        raise ValueError(f"expected a size like 800x480 (at least 320x240), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def _size(value: Any) -> Any:
    parse_size(value)
    return value


DISPLAY_FIELDS = (
    Field("size", "str", "800x480", "window size in developer mode (WxH); fullscreen uses the panel's own",
          check=_size),
    Field("fullscreen", "bool", False, "fill the screen (the box); false opens a window (developer mode)"),
    Field("driver", "str", "", 'SDL video driver: "" lets SDL choose (a window on a desktop); "kmsdrm" '
          "for the kiosk without a desktop; \"dummy\" draws nowhere"),
    Field("lang", "str", "fr", "language of the screen", choices=("fr", "en")),
)
SOUND_FIELDS = (
    Field("volume", "int", 60, "volume in percent (0 is silent)", low=0, high=100),
)
INPUT_FIELDS = (
    Field("source", "str", "keyboard", 'where the stations\' buttons come from: "keyboard" (developer '
          'mode), "gpio" (the box\'s own pins) or "script:FILE" (recorded presses)'),
    Field("flip_mode", "str", "auto", 'who turns the cards: "auto" (the box, at the tempo) or '
          '"buttons" (each station\'s FLIP button)', choices=("auto", "buttons")),
)


def _validate_inputs(values: dict[str, Any], err: ErrorFn) -> None:
    source = values.get("source")
    if isinstance(source, str) and source not in ("keyboard", "gpio") and not source.startswith("script:"):
        err("source", f"expected 'keyboard', 'gpio' or 'script:FILE', got {source!r}")


DEFAULT_STATIONS = [{"slap": 17, "flip": 27, "led": 22}, {"slap": 5, "flip": 6, "led": 13},
                    {"slap": 23, "flip": 24, "led": 25}, {"slap": 16, "flip": 20, "led": 21}]
PINS_FIELDS = (
    Field("factory", "str", "lgpio", 'gpiozero pin factory: "lgpio" on a Raspberry Pi, "mock" to '
          "try the wiring without one", choices=("lgpio", "mock")),
    Field("menu", "int", 26, "BCM number of the MENU button's pin (button to ground)", low=2, high=27),
    Field("stations", "any", DEFAULT_STATIONS, "one table per station, in station order: BCM pin "
          "numbers of its SLAP button, and optionally its FLIP button and LED, e.g. "
          "{slap = 17, flip = 27, led = 22} (see hardware.md for a map per display type)"),
)


def _validate_pins(values: dict[str, Any], err: ErrorFn) -> None:
    stations = values.get("stations")
    if stations is None:
        return
    if not isinstance(stations, list) or not 1 <= len(stations) <= 8:
        err("stations", "expected a list of 1 to 8 tables like {slap = 17, flip = 27, led = 22}")
        return
    used: dict[int, str] = {}
    menu = values.get("menu")
    if isinstance(menu, int):
        used[menu] = "menu"
    for i, st in enumerate(stations):
        where = f"stations[{i}]"
        if not isinstance(st, dict) or "slap" not in st:
            err(where, "expected a table with at least slap = <BCM pin>")
            continue
        for key, pin in st.items():
            if key not in ("slap", "flip", "led"):
                err(f"{where}.{key}", "unknown key; expected slap, flip or led")
                continue
            if not isinstance(pin, int) or isinstance(pin, bool) or not 2 <= pin <= 27:
                err(f"{where}.{key}", f"expected a BCM pin number from 2 to 27, got {pin!r}")
                continue
            if pin in used:
                err(f"{where}.{key}", f"pin {pin} is already used by {used[pin]}")
            used[pin] = f"{where}.{key}"


SERVICE_FIELDS = (
    Field("shutdown_command", "str", "systemctl poweroff", "run when MENU is held 5 s and the shutdown "
          "is confirmed (never in developer mode)"),
    Field("journal_dir", "str", "", 'where journals and the leaderboard go; "" means /var/lib/slapbox '
          'for the service, $XDG_STATE_HOME/slapbox otherwise; "none" keeps no journal'),
    Field("spin_ms", "number", 2, "the main loop stops sleeping this long before a judgement or a card "
          "is due and watches the clock, so it is on time even when the system wakes it late; it "
          "costs a core for that long (0: always sleep)", low=0, high=20),
    Field("idle_attract_s", "int", 90, "after this long without a press outside a game, the attract mode "
          "(a bots' demo game) starts", low=10, high=3600),
)

register_section("display", DISPLAY_FIELDS, "The screen.")
register_section("sound", SOUND_FIELDS, "Sound through the default audio device (none: silent).")
register_section("inputs", INPUT_FIELDS, "The stations' buttons.", validate=_validate_inputs)
register_section("pins", PINS_FIELDS, "GPIO wiring of the box (BCM numbers; buttons to ground, "
                 "internal pull-ups; no debounce).", validate=_validate_pins)
register_section("service", SERVICE_FIELDS, "The kiosk service.")
