"""The legibility checks every scene must pass: text contrast, the cards' corner glyph size, and text
that stays whole inside its box, clear of other text, cards and the panels drawn over it."""

from __future__ import annotations

import math

from device.screen import palette
from device.screen.layout import CORNER_GLYPH_RATIO, Rect, min_glyph_px
from device.screen.scene.model import Scene
from device.screen.scene.text import ELLIPSIS, text_rect, text_width


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


def check_text_fits(scene: Scene) -> list[str]:
    """Every text that is cut (ends with an ellipsis), wider than the width it was fitted to, or
    outside the window."""
    w, h = scene.size
    out = []
    for t in scene.texts:
        width = text_width(t.text, t.px)
        left = {"left": t.x, "center": t.x - width // 2, "right": t.x - width}[t.align]
        if t.text.rstrip().endswith(ELLIPSIS):
            out.append(f"{scene.kind}: text {t.text!r} is cut")
        elif t.max_w is not None and width > t.max_w + 1:
            out.append(f"{scene.kind}: text {t.text!r} is {width} px wide in a box of {t.max_w} px")
        elif left < 0 or left + width > w or t.y < 0 or t.y + t.px * 0.76 > h + 1:
            out.append(f"{scene.kind}: text {t.text!r} leaves the window")
    return out


def check_text_clear(scene: Scene) -> list[str]:
    """Every text that overlaps another text of its layer, crosses the edge of a panel of its layer,
    lies on a card of its layer, or is (partly) hidden under a panel drawn over it (a higher layer:
    the attract panel, a menu)."""
    out = []
    rects = [(t, text_rect(t)) for t in scene.texts if t.text.strip()]
    for i, (a, ra) in enumerate(rects):
        for b, rb in rects[i + 1:]:
            if a.layer == b.layer and ra.overlaps(rb):
                out.append(f"{scene.kind}: text {a.text!r} overlaps text {b.text!r}")
        for box in scene.boxes:
            if box.fill is None or box.alpha < 255 or not ra.overlaps(box.rect):
                continue
            if box.layer > a.layer:
                out.append(f"{scene.kind}: text {a.text!r} is under a panel at {box.rect.as_tuple()}")
            elif box.layer == a.layer and not box.rect.contains(ra):
                out.append(f"{scene.kind}: text {a.text!r} crosses the edge of a box at {box.rect.as_tuple()}")
        for c in scene.cards:
            if c.layer == a.layer and ra.overlaps(Rect(c.x, c.y, c.width, c.height)):
                out.append(f"{scene.kind}: text {a.text!r} lies on the card at ({c.x}, {c.y})")
    return out
