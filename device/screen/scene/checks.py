"""The legibility checks every scene must pass: text contrast and the cards' corner glyph size."""

from __future__ import annotations

import math

from device.screen import palette
from device.screen.layout import CORNER_GLYPH_RATIO, min_glyph_px
from device.screen.scene.model import Scene


def check_contrast(scene: Scene, minimum: float = 4.5) -> list[str]:
    """Every text whose colour reads below ``minimum``:1 against its background."""
    out = []
    for t in scene.texts:
        ratio = palette.contrast_ratio(t.colour, t.bg)
        if ratio < minimum:
            out.append(f"{scene.kind}: text {t.text!r} is {ratio:.2f}:1 on {t.bg} (needs {minimum}:1)")
    return out


def glyph_px(card_height: int) -> int:
    """The corner rank glyph height the card art promises on a card this high."""
    return math.ceil(CORNER_GLYPH_RATIO * card_height)


def check_glyphs(scene: Scene) -> list[str]:
    """Every face-up card whose corner rank glyph is under the size's floor (24 px at 480x320,
    36 px at 800x480), from the layout's promised glyph ratio."""
    floor = min_glyph_px(*scene.size)
    return [f"{scene.kind}: card {c.card} at ({c.x}, {c.y}) is {c.height} px high: glyph "
            f"{glyph_px(c.height)} px < {floor} px" for c in scene.cards
            if c.face_up and glyph_px(c.height) < floor]
