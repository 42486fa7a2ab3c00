"""The stations' config sections: [inputs] (where the buttons come from, who flips) and [pins]
(the box's GPIO wiring, checked by `device.inputs.pins`)."""

from __future__ import annotations

from typing import Any

from device.config.schema import ErrorFn, Field, register_section
from device.inputs.pins import DEFAULT_MENU_PIN, DEFAULT_STATIONS, PIN_RANGE, pin_map_problems

INPUT_FIELDS = (
    Field("source", "str", "keyboard", 'where the stations\' buttons come from: "keyboard" (developer '
          'mode), "gpio" (the box\'s own pins), "bridge:URL" (a Pico on USB: /dev/slapbox-bridge, or a '
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
    elif source not in ("keyboard", "gpio") and not source.startswith("script:"):
        err("source", f"expected 'keyboard', 'gpio', 'bridge:URL' or 'script:FILE', got {source!r}")


PINS_FIELDS = (
    Field("factory", "str", "lgpio", 'gpiozero pin factory: "lgpio" on a Raspberry Pi, "mock" to '
          "try the wiring without one", choices=("lgpio", "mock")),
    Field("menu", "int", DEFAULT_MENU_PIN, "BCM number of the MENU button's pin (button to ground)",
          low=PIN_RANGE.start, high=PIN_RANGE.stop - 1),
    Field("stations", "any", DEFAULT_STATIONS, "one table per station, in station order: BCM pin "
          "numbers of its SLAP button, and optionally its FLIP button and LED, e.g. "
          "{slap = 17, flip = 27, led = 22} (see hardware.md for a map per display type)"),
)


def _validate_pins(values: dict[str, Any], err: ErrorFn) -> None:
    for key, reason in pin_map_problems(values.get("stations"), values.get("menu")):
        err(key, reason)


register_section("inputs", INPUT_FIELDS, "The stations' buttons.", validate=_validate_inputs)
register_section("pins", PINS_FIELDS, "GPIO wiring of the box (BCM numbers; buttons to ground, "
                 "internal pull-ups; no debounce).", validate=_validate_pins)
