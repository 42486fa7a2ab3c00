"""The screen's config sections: [display] (size, fullscreen, SDL driver, language) and [sound].

Declared next to the screen's code; pure (no pygame), so `slapbox config check` runs anywhere.
"""

from __future__ import annotations

import re
from typing import Any

from device.config.schema import Field, register_section

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


register_section("display", DISPLAY_FIELDS, "The screen.")
register_section("sound", SOUND_FIELDS, "Sound through the default audio device (none: silent).")
