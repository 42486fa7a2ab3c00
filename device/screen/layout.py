"""Where things go on the screen for a window size: banner, pile, info panel, seat strip, card size.

Pure (no pygame) so it is tested for every supported size without a display. Everything scales
from a 480x320 reference screen (the smallest usual Pi panel); the rank glyph floor scales with it:
24 px at 480x320, 36 px at 800x480.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from device.errors import SlapboxError

# Card proportions, shared with cardart so a layout can promise a rank glyph height without pygame.
CARD_ASPECT = 5 / 7            # width / height of a poker card
CORNER_GLYPH_RATIO = 0.19      # ink height of the corner rank glyph / card height (cardart fits it)
FAN_STEP = 0.36                # horizontal offset between fanned cards / card width: the corner
                               # index (rank and suit) of each card under the top stays visible
FAN_CARDS = 4                  # top cards shown: doubles, sandwiches and tens need 2-3
REFERENCE = (480, 320)
MIN_SIZE = (320, 240)
MIN_GLYPH_PX = 24              # at the reference size
MIN_TEXT_PX = 16               # line height of the smallest text at the reference size
LINE_RATIO = 0.76              # pygame's default font: line height / requested size (measured)
MAX_SEATS = 8


@dataclass(frozen=True, slots=True)
class Rect:
    """An integer rectangle (x, y, width, height), like pygame.Rect but pure."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.w // 2, self.y + self.h // 2

    def contains(self, other: Rect) -> bool:
        return (self.x <= other.x and self.y <= other.y
                and other.right <= self.right and other.bottom <= self.bottom)

    def overlaps(self, other: Rect) -> bool:
        return (self.x < other.right and other.x < self.right
                and self.y < other.bottom and other.y < self.bottom)

    def inset(self, d: int) -> Rect:
        return Rect(self.x + d, self.y + d, max(0, self.w - 2 * d), max(0, self.h - 2 * d))

    def as_tuple(self) -> tuple[int, int, int, int]:
        """For ``pygame.Rect(*r.as_tuple())``."""
        return self.x, self.y, self.w, self.h


@dataclass(frozen=True, slots=True)
class Fonts:
    """Sizes to pass to ``pygame.font.Font(None, size)``; ``line(size)`` is the height of a line."""

    small: int   # seat strip, hints
    body: int    # banner, info panel, menus
    title: int   # menu and game-over titles
    big: int     # slap result, "Wrong slap!"

    @staticmethod
    def line(size: int) -> int:
        return math.ceil(size * LINE_RATIO)


@dataclass(frozen=True, slots=True)
class SeatBox:
    """One seat in the strip: ``tag`` is filled with the seat colour, ``text`` holds two lines
    (name and cards left, then status)."""

    seat: int
    rect: Rect
    tag: Rect
    text: Rect


@dataclass(frozen=True, slots=True)
class Layout:
    """Every rectangle of the game screen for one window size and seat count."""

    size: tuple[int, int]
    scale: float
    margin: int
    fonts: Fonts
    banner: Rect          # one line telling the last event
    pile: Rect            # the cards in the middle
    info: Rect            # slap result, challenge count, pile and pot counts
    strip: Rect           # the seats
    seats: tuple[SeatBox, ...]
    card_w: int
    card_h: int
    fan: tuple[Rect, ...]  # fan[0] is the top card, fan[1] the one under it, ...
    bottom_card: Rect      # the bottom card of the pile (for the top-bottom slap)
    overlay: Rect          # menus, pass-the-box, game over: drawn over the rest
    min_glyph: int         # the rank glyph height this size promises

    @property
    def regions(self) -> dict[str, Rect]:
        """The top-level areas, which never overlap."""
        return {"banner": self.banner, "pile": self.pile, "info": self.info, "strip": self.strip}


class LayoutError(SlapboxError, ValueError):
    """A window too small, or a seat count the box does not have."""


def min_glyph_px(width: int, height: int) -> int:
    """The smallest rank glyph height allowed at this window size (24 px at 480x320, 36 at 800x480)."""
    return math.ceil(MIN_GLYPH_PX * _scale(width, height))


def min_card_height(width: int, height: int) -> int:
    """The smallest card whose corner rank glyph meets ``min_glyph_px``."""
    return math.ceil(min_glyph_px(width, height) / CORNER_GLYPH_RATIO)


def _scale(width: int, height: int) -> float:
    return min(width / REFERENCE[0], height / REFERENCE[1])


def _fonts(scale: float) -> Fonts:
    # 22 is the default font's smallest size whose line is >= 16 px; never go below it except on
    # windows smaller than the reference, and even then keep text legible (line >= 12 px).
    floor = 22 if scale >= 1 else 16

    def size(base: float) -> int:
        return max(floor, round(base * scale))

    return Fonts(small=size(22), body=size(24), title=size(36), big=size(44))


def _seat_grid(seats: int, strip_w: int, min_w: int, gap: int) -> tuple[int, int]:
    """(rows, columns) with as few rows as fit."""
    for rows in range(1, seats + 1):
        cols = math.ceil(seats / rows)
        if cols * min_w + (cols - 1) * gap <= strip_w:
            return rows, cols
    return seats, 1


def compute_layout(width: int, height: int, seats: int = MAX_SEATS, name_lines: int = 1) -> Layout:
    """The layout of a ``width`` x ``height`` window (>= 320x240) with ``seats`` seats (1..8);
    ``name_lines`` 2: each seat box holds a name on two lines (long names), over the status."""
    for label, v in (("width", width), ("height", height), ("seats", seats)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise LayoutError(f"layout: {label} must be a whole number, got {v!r}")
    if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
        raise LayoutError(f"layout: window {width}x{height} is too small "
                          f"(expected at least {MIN_SIZE[0]}x{MIN_SIZE[1]})")
    if not 1 <= seats <= MAX_SEATS:
        raise LayoutError(f"layout: {seats} seats (expected 1 to {MAX_SEATS})")

    scale = _scale(width, height)
    fonts = _fonts(scale)
    m = max(4, round(6 * scale))
    line_small, line_body = Fonts.line(fonts.small), Fonts.line(fonts.body)

    banner = Rect(0, 0, width, line_body + m)

    # Seat strip at the bottom: a tag, then "name  cards" (the name on one or two lines) over "status".
    box_h = (max(1, min(2, name_lines)) + 1) * line_small + m
    min_box_w = round(4.8 * fonts.small)
    rows, cols = _seat_grid(seats, width - 2 * m, min_box_w, m)
    strip_h = rows * box_h + (rows + 1) * m
    strip = Rect(0, height - strip_h, width, strip_h)
    box_w = (width - 2 * m - (cols - 1) * m) // cols
    boxes = []
    tag_w = max(6, round(line_small * 0.5))
    for s in range(seats):
        r, c = divmod(s, cols)
        rect = Rect(m + c * (box_w + m), strip.y + m + r * (box_h + m), box_w, box_h)
        tag = Rect(rect.x, rect.y, tag_w, rect.h)
        text = Rect(rect.x + tag_w + m // 2, rect.y + m // 2, rect.w - tag_w - m, rect.h - m)
        boxes.append(SeatBox(s, rect, tag, text))

    # Between banner and strip: the pile on the left, the info panel on the right. The info panel
    # gives up width first when the cards would otherwise fall below the glyph floor.
    mid_y = banner.bottom + m
    mid_h = strip.y - m - mid_y
    gap = m * 2
    row_units = 2 + (FAN_CARDS - 1) * FAN_STEP
    floor_h = min_card_height(width, height)
    for info_w in (max(round(5 * fonts.body), round(0.26 * width)), round(3 * fonts.body)):
        pile = Rect(m, mid_y, width - info_w - 3 * m, mid_h)
        card_h = min(pile.h - 2 * m, math.floor((pile.w - gap - 2 * m) / (row_units * CARD_ASPECT)))
        if card_h >= floor_h:
            break
    info = Rect(pile.right + m, mid_y, width - pile.right - 2 * m, mid_h)
    card_h = max(card_h, 1)
    card_w = round(card_h * CARD_ASPECT)
    step = math.ceil(card_w * FAN_STEP)
    row_w = card_w + gap + card_w + (FAN_CARDS - 1) * step
    x0 = pile.x + (pile.w - row_w) // 2
    y0 = pile.y + (pile.h - card_h) // 2
    bottom_card = Rect(x0, y0, card_w, card_h)
    fan_x = x0 + card_w + gap
    fan = tuple(Rect(fan_x + (FAN_CARDS - 1 - i) * step, y0, card_w, card_h) for i in range(FAN_CARDS))

    ow, oh = round(width * 0.84), round(height * 0.84)
    overlay = Rect((width - ow) // 2, (height - oh) // 2, ow, oh)

    return Layout(size=(width, height), scale=scale, margin=m, fonts=fonts, banner=banner, pile=pile,
                  info=info, strip=strip, seats=tuple(boxes), card_w=card_w, card_h=card_h, fan=fan,
                  bottom_card=bottom_card, overlay=overlay, min_glyph=min_glyph_px(width, height))
