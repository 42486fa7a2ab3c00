"""The stations' config sections: [inputs] (where the buttons come from, who flips) and [pins]
(the box's GPIO wiring, checked by `device.inputs.pins`)."""

from __future__ import annotations

from typing import Any

from device.config.schema import ErrorFn, Field, register_section
from device.inputs.pins import (
    DEFAULT_MENU_PIN,
    DEFAULT_STATIONS,
    PIN_RANGE,
    loopback_problems,
    pin_map_problems,
)

INPUT_FIELDS = (
    Field("source", "str", "keyboard", 'where the stations\' buttons come from: "keyboard" (developer '
          'mode), "gpio" (the box\'s own pins through gpiozero and lgpio), "gpiod" (the same pins read '
          'through libgpiod v2: every lost edge counted; pip install "slapbox[gpiod]"), "bridge:URL" (a Pico on USB: /dev/slapbox-bridge, or a '
          'pyserial URL such as socket://127.0.0.1:PORT) or "script:FILE" (recorded presses)'),
    Field("record_edges", "bool", False, "journal every raw edge the GPIO backend receives (and "
          "every read of a pin), so `slapbox replay --from-edges` can re-judge a disputed slap "
          "from what the kernel delivered"),
    Field("flip_mode", "str", "auto", 'who turns the cards: "auto" (the box, at the tempo) or '
          '"buttons" (each station\'s FLIP button)', choices=("auto", "buttons")),
)


def _validate_inputs(values: dict[str, Any], err: ErrorFn) -> None:
    source = values.get("source")
    if not isinstance(source, str):
        return
    if source.startswith("bridge:"):
        from firmware_bridge.link import BridgeURLError, check_url
        try:
            check_url(source.split(":", 1)[1])
        except BridgeURLError as e:
            err("source", str(e))
    elif source not in ("keyboard", "gpio", "gpiod") and not source.startswith("script:"):
        err("source", "expected 'keyboard', 'gpio', 'gpiod', 'bridge:URL' or 'script:FILE', "
                      f"got {source!r}")


PINS_FIELDS = (
    Field("factory", "str", "lgpio", 'gpiozero pin factory: "lgpio" on a Raspberry Pi, "mock" to '
          "try the wiring without one", choices=("lgpio", "mock")),
    Field("menu", "int", DEFAULT_MENU_PIN, "BCM number of the MENU button's pin (button to ground)",
          low=PIN_RANGE.start, high=PIN_RANGE.stop - 1),
    Field("stations", "any", DEFAULT_STATIONS, "one table per station, in station order: BCM pin "
          "numbers of its SLAP button, and optionally its FLIP button and LED, e.g. "
          "{slap = 17, flip = 27, led = 22} (see hardware.md for a map per display type; no LED "
          "on GPIO 2 or 3)"),
    Field("chip", "str", "auto", 'the GPIO chip the gpiod backend opens: "auto" finds the 40-pin '
          'header\'s (pinctrl-bcm2835/bcm2711/rp1), or a path such as "/dev/gpiochip0"'),
    Field("loopback", "any", {}, "the self-test's wiring (`slapbox selftest`): {} when not wired, "
          "or {drive = 4, reference = 14}: one spare output pin driving every button input and the "
          "spare reference input, each through its own 1 kOhm resistor (without reference the MENU "
          "input is the reference; see hardware.md)"),
)


def _validate_pins(values: dict[str, Any], err: ErrorFn) -> None:
    problems = pin_map_problems(values.get("stations"), values.get("menu"))
    if not problems:
        problems = loopback_problems(values.get("loopback"), values.get("stations"),
                                     values.get("menu"))
    for key, reason in problems:
        err(key, reason)
    chip = values.get("chip")
    if isinstance(chip, str) and chip != "auto" and not chip.startswith("/dev/"):
        err("chip", f'expected "auto" or a device path such as "/dev/gpiochip0", got {chip!r}')


register_section("inputs", INPUT_FIELDS, "The stations' buttons.", validate=_validate_inputs)
register_section("pins", PINS_FIELDS, "GPIO wiring of the box (BCM numbers; buttons to ground, "
                 "internal pull-ups; no debounce).", validate=_validate_pins)
