"""The game screen's frame: its rectangles for a window size, the card fan and the info panel.

The rectangles (banner, pile, info panel, seat strip, note) are shared by every game family; each
family's module draws its own cards into them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from device.screen import palette
from device.screen.layout import (
    CARD_ASPECT,
    FAN_CARDS,
    FAN_STEP,
    MAX_SEATS,
    Layout,
    Rect,
    compute_layout,
    min_card_height,
)
from device.screen.scene.model import Box, Scene
from device.screen.scene.text import ELLIPSIS, Column, ellipsize, line_height, text_width, wrap


@dataclass
class Frame:
    """The game screen's rectangles for one size, seat count and note."""

    lay: Layout
    size: tuple[int, int]
    m: int
    banner: Rect
    pile: Rect
    info: Rect
    strip: Rect
    seats: tuple[tuple[Rect, Rect, Rect], ...]   # (box, tag, text)
    note: Rect | None
    note_lines: tuple[str, ...]
    card_h: int
    min_h: int

    @property
    def small(self) -> int:
        return self.lay.fonts.small

    @property
    def body(self) -> int:
        return self.lay.fonts.body

    @property
    def floor(self) -> int:
        """The smallest text size allowed at this window size."""
        return self.lay.fonts.small

    @property
    def card_w(self) -> int:
        return round(self.card_h * CARD_ASPECT)


def _shift(r: Rect, dy: int) -> Rect:
    return Rect(r.x, r.y + dy, r.w, r.h)


def name_lines(size: tuple[int, int], names: list[str]) -> int:
    """2 when a name would not fit beside a two-digit card count in its seat box at the smallest
    text size (long names take two lines), else 1."""
    lay = compute_layout(*size, max(1, min(MAX_SEATS, len(names))))
    room = lay.seats[0].text.w - text_width("88", lay.fonts.small) - lay.margin // 2
    return 2 if any(text_width(n, lay.fonts.small) > room for n in names) else 1


@lru_cache(maxsize=32)
def game_frame(size: tuple[int, int], seats: int, note: str | None = None, names: int = 1) -> Frame:
    """Cached: the same window, seats, note and name lines give the same rectangles (treat as
    read-only)."""
    w, h = size
    lay = compute_layout(w, h, max(1, min(MAX_SEATS, seats)), names)
    m = lay.margin
    min_h = min_card_height(w, h)
    small = lay.fonts.small
    lines: list[str] = []
    note_h = 0
    if note:
        for para in note.split("\n"):
            lines += wrap(para, small, w - 2 * m)
        room = lay.pile.h - 2 * m - min_h  # the note never pushes the cards under the glyph floor
        fit_lines = max(0, min(len(lines), room // line_height(small)))
        if fit_lines < len(lines) and fit_lines:
            lines = lines[:fit_lines - 1] + [ellipsize(lines[fit_lines - 1] + " " + ELLIPSIS, small, w - 2 * m)]
        lines = lines[:fit_lines]
        note_h = len(lines) * line_height(small) + (m if lines else 0)
    pile = Rect(lay.pile.x, lay.pile.y, lay.pile.w, lay.pile.h - note_h)
    info = Rect(lay.info.x, lay.info.y, lay.info.w, lay.info.h - note_h)
    strip = _shift(lay.strip, -note_h)
    boxes = tuple((_shift(b.rect, -note_h), _shift(b.tag, -note_h), _shift(b.text, -note_h)) for b in lay.seats)
    note_rect = Rect(0, h - note_h, w, note_h) if note_h else None
    card_h = max(min_h, min(lay.card_h, pile.h - 2 * m))
    return Frame(lay, size, m, lay.banner, pile, info, strip, boxes, note_rect, tuple(lines), card_h, min_h)


def fan_slots(pile: Rect, card_h: int, m: int, with_bottom: bool) -> tuple[Rect, list[Rect]]:
    """(bottom card slot, fan slots top card first), centred in ``pile`` like the layout's."""
    card_w = round(card_h * CARD_ASPECT)
    step = math.ceil(card_w * FAN_STEP)
    gap = 2 * m
    row_w = (card_w + gap if with_bottom else 0) + card_w + (FAN_CARDS - 1) * step
    x0 = pile.x + (pile.w - row_w) // 2
    y0 = pile.y + (pile.h - card_h) // 2
    bottom = Rect(x0, y0, card_w, card_h)
    fan_x = x0 + (card_w + gap if with_bottom else 0)
    return bottom, [Rect(fan_x + (FAN_CARDS - 1 - i) * step, y0, card_w, card_h) for i in range(FAN_CARDS)]


def seat_names(table: Any) -> list[str]:
    return [s.name for s in table.seats] if table is not None else []


def info_box(scene: Scene, fr: Frame) -> Column:
    scene.boxes.append(Box(fr.info, palette.PANEL_BG, radius=fr.m))
    return Column(fr.info, palette.PANEL_BG, fr.m)
