"""The screen's config sections: [display] (size, fullscreen, SDL driver, language) and [sound].

Declared next to the screen's code; pure (no pygame), so `slapbox config check` runs anywhere.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

from device.config.schema import Field, register_section

SIZE = re.compile(r"^(\d{3,4})x(\d{3,4})$")


def parse_size(text: str) -> tuple[int, int]:
    """``800x480`` -> (800, 480); ValueError naming what was expected."""
    m = SIZE.match(text.strip()) if isinstance(text, str) else None
    if not m or int(m.group(1)) < 320 or int(m.group(2)) < 240:
        raise ValueError(f"expected a size like 800x480 (at least 320x240), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def system_lang(env: Mapping[str, str] | None = None) -> str:
    """The screen's language from the locale, as gettext reads it (LC_ALL, then LC_MESSAGES,
    then LANG): ``fr`` for a French locale, else ``en``."""
    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


def screen_lang(configured: str, env: Mapping[str, str] | None = None) -> str:
    """``[display] lang`` as a language: itself, or the locale's for "auto"."""
    return system_lang(env) if configured == "auto" else configured


def _size(value: Any) -> Any:
    parse_size(value)
    return value


DISPLAY_FIELDS = (
    Field("size", "str", "800x480", "window size in developer mode (WxH); fullscreen uses the panel's own",
          check=_size),
    Field("fullscreen", "bool", False, "fill the screen (the box); false opens a window (developer mode)"),
    Field("driver", "str", "", 'SDL video driver: "" lets SDL choose (a window on a desktop); "kmsdrm" '
          "for the kiosk without a desktop; \"dummy\" draws nowhere"),
    Field("lang", "str", "auto", 'language of the screen: "auto" follows the system locale (LC_ALL, '
          'LC_MESSAGES, LANG: fr… is French, anything else English); the menu\'s choice is remembered',
          choices=("auto", "fr", "en")),
)
SOUND_FIELDS = (
    Field("volume", "int", 60, "volume in percent (0 is silent)", low=0, high=100),
)


register_section("display", DISPLAY_FIELDS, "The screen.")
register_section("sound", SOUND_FIELDS, "Sound through the default audio device (none: silent).")
