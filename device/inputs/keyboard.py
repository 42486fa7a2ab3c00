"""Keyboard keys as the stations' buttons (developer mode): one slap key and one flip key per station.

SDL gives pygame-ce's key events no timestamp, so a key is stamped when the main loop reads it:
keys read in the same frame keep SDL's order but their stamps fall within microseconds of each
other, inside the tie window, so the tie rule decides between them (the screen says so). Esc is
the MENU button; F1 is help. Neither Esc nor an F-key is ever a station's key.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

from device.errors import SlapboxError
from device.inputs.press import MENU_STATION, Press

# station -> (slap key, flip key), by pygame key name; spread over the keyboard so that up to
# eight people can crowd round one laptop.
DEFAULT_KEYS: dict[int, tuple[str, str]] = {
    0: ("a", "z"), 1: ("p", "o"), 2: ("v", "b"), 3: ("5", "6"),
    4: ("x", "c"), 5: ("m", "l"), 6: ("1", "2"), 7: ("9", "8"),
}
MENU_KEY = "escape"
HELP_KEY = "f1"
FORBIDDEN = {"escape", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12"}


class KeyMapError(SlapboxError, ValueError):
    """A key map that reuses a key, or uses Esc or an F-key."""


def describe_keys(keys: Mapping[int, tuple[str, str]] = DEFAULT_KEYS, stations: int = 8) -> str:
    """``station 1: slap A, flip Z; ...`` for --help and the screen."""
    return "; ".join(f"station {s + 1}: slap {keys[s][0].upper()}, flip {keys[s][1].upper()}"
                     for s in sorted(keys) if s < stations)


class KeyboardSource:
    """Turns pygame key events into `Press` records, stamped by the caller when it read them."""

    def __init__(self, keys: Mapping[int, tuple[str, str]] = DEFAULT_KEYS) -> None:
        import pygame

        self._codes: dict[int, tuple[int, str]] = {}
        seen: set[str] = set()
        for station, pair in keys.items():
            for button, key in zip(("slap", "flip"), pair):
                if key in FORBIDDEN:
                    raise KeyMapError(f"station {station}: {button} key {key!r}: Esc and F-keys "
                                      "belong to the box (menu, help)")
                if key in seen:
                    raise KeyMapError(f"station {station}: {button} key {key!r} is already used")
                seen.add(key)
                try:
                    with warnings.catch_warnings():  # works before pygame.init(); it only warns
                        warnings.simplefilter("ignore")
                        code = pygame.key.key_code(key)
                except ValueError:
                    raise KeyMapError(f"station {station}: {button} key {key!r} is not a key "
                                      "name pygame knows") from None
                self._codes[code] = (station, button)
        self._codes[pygame.K_ESCAPE] = (MENU_STATION, "menu")
        self._down = pygame.KEYDOWN
        self._up = pygame.KEYUP
        self._held: set[int] = set()

    def station_of(self, key: int) -> tuple[int, str] | None:
        return self._codes.get(key)

    def handle(self, event: object, t_ns: int) -> Press | None:
        """The press (or release) a key event means, stamped ``t_ns``; None for other events."""
        etype = getattr(event, "type", None)
        if etype not in (self._down, self._up):
            return None
        key = getattr(event, "key", None)
        if not isinstance(key, int):
            return None
        hit = self._codes.get(key)
        if hit is None:
            return None
        if etype == self._down:
            if key in self._held:
                return None  # key repeat is never a second press
            self._held.add(key)
            return Press(hit[0], hit[1], "press", t_ns, "keyboard")
        self._held.discard(key)
        return Press(hit[0], hit[1], "release", t_ns, "keyboard")
