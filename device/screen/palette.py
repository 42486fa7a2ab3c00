"""The box's colours: eight seat colours, table and text colours, and the WCAG contrast check."""

from __future__ import annotations

RGB = tuple[int, int, int]

# Okabe-Ito's palette stays distinct under the common colour-vision deficiencies. Its black is
# useless on a dark table, so seat 8 takes a light grey instead; the order puts the most
# distinct hues first because most games have 2 to 4 seats.
SEAT_COLOURS: tuple[RGB, ...] = (
    (230, 159, 0),    # orange
    (86, 180, 233),   # sky blue
    (0, 158, 115),    # bluish green
    (240, 228, 66),   # yellow
    (0, 114, 178),    # blue
    (213, 94, 0),     # vermillion
    (204, 121, 167),  # reddish purple
    (187, 187, 187),  # light grey
)
SEAT_NAMES_EN = ("orange", "sky blue", "green", "yellow", "blue", "vermillion", "purple", "grey")

BLACK: RGB = (17, 17, 17)
WHITE: RGB = (255, 255, 255)

TABLE: RGB = (14, 52, 40)          # dark felt green behind everything
BANNER_BG: RGB = (8, 28, 22)       # the event line
PANEL_BG: RGB = (22, 38, 34)       # seat strip, menus
HIGHLIGHT_BG: RGB = (40, 70, 60)   # selected menu entry
TEXT: RGB = (245, 245, 240)
TEXT_MUTED: RGB = (178, 196, 188)  # secondary lines (cards left, hints)
TEXT_WARN: RGB = (255, 196, 64)    # wrong slap, stuck button
TEXT_GOOD: RGB = (120, 230, 150)   # a won slap

CARD_FACE: RGB = (252, 252, 248)
CARD_EDGE: RGB = (120, 120, 120)
SUIT_RED: RGB = (200, 16, 32)
SUIT_BLACK: RGB = BLACK
BACK_MAIN: RGB = (30, 60, 140)
BACK_LINES: RGB = (90, 130, 210)
BACK_BORDER: RGB = (245, 245, 245)


def _channel(c: int) -> float:
    s = c / 255
    return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4


def relative_luminance(rgb: RGB) -> float:
    """WCAG 2.x relative luminance of an sRGB colour, 0 (black) to 1 (white)."""
    r, g, b = rgb
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast_ratio(fg: RGB, bg: RGB) -> float:
    """WCAG 2.x contrast ratio, 1 to 21; body text needs at least 4.5."""
    for name, c in (("fg", fg), ("bg", bg)):
        if len(c) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in c):
            raise ValueError(f"contrast_ratio: {name} {c!r} is not an (r, g, b) triple of 0..255")
    a, b = relative_luminance(fg), relative_luminance(bg)
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


def ink_on(bg: RGB) -> RGB:
    """BLACK or WHITE, whichever reads better on ``bg`` (text on a seat-coloured tag)."""
    return BLACK if contrast_ratio(BLACK, bg) >= contrast_ratio(WHITE, bg) else WHITE


def seat_colour(seat: int) -> RGB:
    """The colour of ``seat`` (0-based); seats beyond 8 reuse the list."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_ink(seat: int) -> RGB:
    """The text colour on a tag filled with the seat's colour."""
    return ink_on(seat_colour(seat))


# Every (text, background) pair the screen draws text with; the tests hold each to 4.5:1.
TEXT_PAIRS: tuple[tuple[str, RGB, RGB], ...] = (
    ("text on table", TEXT, TABLE),
    ("muted on table", TEXT_MUTED, TABLE),
    ("warn on table", TEXT_WARN, TABLE),
    ("good on table", TEXT_GOOD, TABLE),
    ("text on banner", TEXT, BANNER_BG),
    ("warn on banner", TEXT_WARN, BANNER_BG),
    ("good on banner", TEXT_GOOD, BANNER_BG),
    ("text on panel", TEXT, PANEL_BG),
    ("muted on panel", TEXT_MUTED, PANEL_BG),
    ("warn on panel", TEXT_WARN, PANEL_BG),
    ("text on highlight", TEXT, HIGHLIGHT_BG),
    ("red rank on card", SUIT_RED, CARD_FACE),
    ("black rank on card", SUIT_BLACK, CARD_FACE),
) + tuple((f"ink on seat {i + 1}", ink_on(c), c) for i, c in enumerate(SEAT_COLOURS))
