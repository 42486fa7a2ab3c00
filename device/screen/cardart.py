"""Card pictures drawn by the program: faces, jokers, any-number cards and backs, at any height.

Suits are drawn as shapes, never taken from a font (few fonts have the suit glyphs); shapes are
drawn at 2 or 4 times the size and smoothed down. Rank glyphs come from pygame's bundled font,
fitted so the corner glyph's ink is ``CORNER_GLYPH_RATIO`` of the card height, which is what lets
the pure layout promise a glyph height. Surfaces are cached by (card, height): treat them as
read-only (copy before drawing on one).
"""

from __future__ import annotations

import math
import os
from functools import lru_cache

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from device.rules.cards import ANY_NUMBER, CHAR_OF_RANK, JACK, JOKER, KING, rank, suit  # noqa: E402
from device.screen import palette  # noqa: E402
from device.screen.layout import CARD_ASPECT, CORNER_GLYPH_RATIO  # noqa: E402

MIN_HEIGHT, MAX_HEIGHT = 20, 4096


def _ss(height: int) -> int:
    """Supersampling factor for shapes. A power of two: smoothscale by 3 leaves opaque pixels at
    alpha 253 (pygame-ce 2.5.8), which would make the face see-through."""
    return 4 if height <= 400 else 2

RANK_TEXT = {r: ("10" if r == 10 else CHAR_OF_RANK[r]) for r in range(2, 15)}
RANK_TEXT[ANY_NUMBER] = "?"

# Where things sit, as fractions of the card (x of width, y of height).
_INDEX_X, _INDEX_Y = 0.06, 0.04          # top-left of the corner rank glyph's ink
_INDEX_MAX_W = 0.27                      # corner glyph ink width (wider ones are condensed)
_INDEX_SUIT = 0.10                       # corner suit size
_CENTRE_GLYPH = 0.24                     # centre rank glyph ink height
_CENTRE_SUIT = 0.16                      # the two big suits above and below the centre glyph


def card_size(height: int) -> tuple[int, int]:
    """(width, height) of a card drawn ``height`` pixels high."""
    return round(height * CARD_ASPECT), height


def is_red(c: int) -> bool:
    """Hearts and diamonds; for jokers, one of each pair (suits 1 and 3) is red."""
    s = suit(c)
    return s in (1, 3) if rank(c) == JOKER else s in (1, 2)


def _check(c: int, height: int) -> None:
    if (not isinstance(c, int) or isinstance(c, bool) or c < 0
            or (rank(c) not in RANK_TEXT and rank(c) != JOKER)):
        raise ValueError(f"card {c!r}: expected rank*4+suit with rank 0 or 2..15")
    _check_height(height)


def _check_height(height: int) -> None:
    if not isinstance(height, int) or isinstance(height, bool) or not MIN_HEIGHT <= height <= MAX_HEIGHT:
        raise ValueError(f"card height {height!r}: expected a whole number of pixels "
                         f"from {MIN_HEIGHT} to {MAX_HEIGHT}")


@lru_cache(maxsize=64)
def _font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, size)


def _ink(text: str, size: int, colour: palette.RGB) -> pygame.Surface:
    """``text`` rendered and cropped to its ink (non-transparent pixels)."""
    surf = _font(size).render(text, True, colour)
    return surf.subsurface(surf.get_bounding_rect()).copy()


@lru_cache(maxsize=256)
def _fit_size(ink_height: int, texts: tuple[str, ...]) -> int:
    """The smallest font size whose ink is at least ``ink_height`` px for every one of ``texts``."""
    size = max(4, int(ink_height / 0.52))  # the default font's capitals are about half its size
    while min(_ink(t, size, palette.BLACK).get_height() for t in texts) > ink_height and size > 4:
        size -= 1
    while min(_ink(t, size, palette.BLACK).get_height() for t in texts) < ink_height:
        size += 1
    return size


_INDEX_TEXTS = tuple(RANK_TEXT[r] for r in range(2, 15))


def _glyph(text: str, ink_height: int, max_w: int, colour: palette.RGB) -> pygame.Surface:
    """A rank glyph whose ink is ``ink_height`` high (at least), condensed to ``max_w`` if wider."""
    g = _ink(text, _fit_size(ink_height, _INDEX_TEXTS), colour)
    if g.get_width() > max_w:
        g = pygame.transform.smoothscale(g, (max_w, g.get_height()))
    return g


def corner_glyph(c: int, height: int) -> pygame.Surface:
    """The corner rank glyph of card ``c`` as drawn on a card ``height`` px high (cropped to ink)."""
    _check(c, height)
    w, h = card_size(height)
    colour = palette.SUIT_RED if is_red(c) else palette.SUIT_BLACK
    return _glyph(RANK_TEXT[rank(c)], math.ceil(CORNER_GLYPH_RATIO * h), round(_INDEX_MAX_W * w), colour)


def rank_glyph_height(card_height: int) -> int:
    """The pixel height of the smallest corner rank glyph (2..10, J, Q, K, A) on a card this high,
    measured from the ink of the rendered glyphs."""
    _check_height(card_height)
    return min(corner_glyph(r * 4, card_height).get_height() for r in range(2, 15))


# --- shapes -------------------------------------------------------------------------------------

def _heart_points(x: float, y: float, s: float, flip: bool = False) -> list[tuple[float, float]]:
    """A heart filling the box (x, y, s, s); ``flip`` points it up (the body of a spade)."""
    pts = []
    for i in range(120):
        t = 2 * math.pi * i / 120
        px = 16 * math.sin(t) ** 3
        py = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((px, py))
    # The curve spans x -16..16 and y -17..12 (y up); map it onto the box.
    out = []
    for px, py in pts:
        u = (px + 16) / 32
        v = (12 - py) / 29
        if flip:
            v = 1 - v
        out.append((x + u * s, y + v * s))
    return out


def _draw_suit(surf: pygame.Surface, s: int, box: tuple[float, float, float], colour: palette.RGB) -> None:
    """Suit ``s`` (0 spades, 1 hearts, 2 diamonds, 3 clubs) in the square box (x, y, size)."""
    x, y, size = box
    if s == 1:
        pygame.draw.polygon(surf, colour, _heart_points(x + 0.02 * size, y + 0.06 * size, 0.96 * size))
    elif s == 2:
        cx = x + size / 2
        pygame.draw.polygon(surf, colour, [(cx, y), (x + 0.86 * size, y + size / 2), (cx, y + size),
                                           (x + 0.14 * size, y + size / 2)])
    elif s == 0:
        body = 0.84 * size
        pygame.draw.polygon(surf, colour, _heart_points(x + (size - body) / 2, y, body, flip=True))
        _draw_stem(surf, x, y, size, colour)
    else:
        r = 0.24 * size
        cx = x + size / 2
        for ox, oy in ((cx, y + r), (x + r, y + 0.56 * size), (x + size - r, y + 0.56 * size)):
            pygame.draw.circle(surf, colour, (round(ox), round(oy)), round(r))
        pygame.draw.polygon(surf, colour, [(cx, y + r), (x + r, y + 0.56 * size),
                                           (x + size - r, y + 0.56 * size)])
        _draw_stem(surf, x, y, size, colour)


def _draw_stem(surf: pygame.Surface, x: float, y: float, size: float, colour: palette.RGB) -> None:
    # A flared foot, its sides curving in, as on printed spades and clubs.
    cx = x + size / 2
    top = y + 0.5 * size
    pts = [(cx - 0.04 * size, top)]
    for i in range(9):
        t = i / 8
        pts.append((cx - 0.04 * size - 0.2 * size * t * t, top + 0.5 * size * t))
    pts.append((cx + 0.24 * size, y + size))
    for i in range(8, -1, -1):
        t = i / 8
        pts.append((cx + 0.04 * size + 0.2 * size * t * t, top + 0.5 * size * t))
    pygame.draw.polygon(surf, colour, pts)


def _star_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.42
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def _scaled(points: list[tuple[float, float]], k: float) -> list[tuple[float, float]]:
    return [(px * k, py * k) for px, py in points]


def _base(w: int, h: int, fill: palette.RGB, edge: palette.RGB) -> pygame.Surface:
    """A supersampled rounded card (caller draws more shapes on it, then calls ``_finish``)."""
    k = _ss(h)
    big = pygame.Surface((w * k, h * k), pygame.SRCALPHA)
    radius = max(2, round(0.07 * w)) * k
    pygame.draw.rect(big, edge, big.get_rect(), border_radius=radius)
    line = max(1, round(h / 120)) * k
    pygame.draw.rect(big, fill, big.get_rect().inflate(-2 * line, -2 * line), border_radius=radius - line)
    return big


def _finish(big: pygame.Surface, w: int, h: int) -> pygame.Surface:
    return pygame.transform.smoothscale(big, (w, h))


# --- cards --------------------------------------------------------------------------------------

@lru_cache(maxsize=512)
def render_card(c: int, height: int) -> pygame.Surface:
    """Card ``c`` face up, ``height`` px high, on a transparent (SRCALPHA) surface. Cached."""
    _check(c, height)
    w, h = card_size(height)
    r, s = rank(c), suit(c)
    colour = palette.SUIT_RED if is_red(c) else palette.SUIT_BLACK
    big = _base(w, h, palette.CARD_FACE, palette.CARD_EDGE)
    k = _ss(h)

    # Shapes first, at supersampled size.
    glyph = None if r == JOKER else corner_glyph(c, height)
    index_x, index_y = round(_INDEX_X * w), round(_INDEX_Y * h)
    if glyph is not None:
        gw, gh = glyph.get_size()
    else:
        gh = math.ceil(CORNER_GLYPH_RATIO * h)
        gw = gh
    col_cx = index_x + gw / 2
    small = _INDEX_SUIT * h
    small_y = index_y + gh + 0.025 * h
    centre = _CENTRE_SUIT * h
    top_box = (w / 2 - centre / 2, 0.11 * h, centre)
    if r == JOKER:
        for cx, cy, rad in ((col_cx, index_y + gh / 2, gh / 2),
                            (w / 2, top_box[1] + centre / 2, centre * 0.6)):
            pygame.draw.polygon(big, colour, _scaled(_star_points(cx, cy, rad), k))
    else:
        _draw_suit(big, s, (k * (col_cx - small / 2), k * small_y, k * small), colour)
        _draw_suit(big, s, tuple(k * v for v in top_box), colour)  # type: ignore[arg-type]
        if JACK <= r <= KING:
            # Court cards get a frame so they read as "face card" at a glance, even in a fan.
            frame = pygame.Rect(round(0.24 * w * k), round(0.355 * h * k),
                                round(0.52 * w * k), round(0.29 * h * k))
            pygame.draw.rect(big, colour, frame, width=max(1, round(h / 100)) * k, border_radius=4 * k)
    # The lower half is the upper half turned round, as on a printed card.
    upper = big.subsurface((0, 0, w * k, h * k // 2)).copy()
    # Clear first: blending onto a transparent pixel copies it exactly (onto an opaque one, the
    # blend's rounding would leave the face at alpha 253).
    lower = pygame.Rect(0, h * k - upper.get_height(), w * k, upper.get_height())
    big.fill((0, 0, 0, 0), lower)
    big.blit(pygame.transform.rotate(upper, 180), lower)
    card = _finish(big, w, h)

    # Text at final size, so the measured glyph is the drawn glyph.
    if glyph is not None:
        card.blit(glyph, (index_x, index_y))
        card.blit(pygame.transform.rotate(glyph, 180), (w - index_x - gw, h - index_y - gh))
        text = RANK_TEXT[r]
        centre_glyph = _glyph(text, round(_CENTRE_GLYPH * h), round(0.5 * w), colour)
    else:
        centre_glyph = _ink("JOKER", _fit_size(round(0.11 * h), ("JOKER",)), colour)
        if centre_glyph.get_width() > round(0.72 * w):
            centre_glyph = pygame.transform.smoothscale(
                centre_glyph, (round(0.72 * w), centre_glyph.get_height()))
    cw, ch = centre_glyph.get_size()
    card.blit(centre_glyph, ((w - cw) // 2, (h - ch) // 2))
    return card


@lru_cache(maxsize=32)
def render_back(height: int) -> pygame.Surface:
    """A face-down card, ``height`` px high: a white border round a blue lattice. Cached."""
    _check_height(height)
    w, h = card_size(height)
    k = _ss(h)
    big = _base(w, h, palette.BACK_BORDER, palette.CARD_EDGE)
    border = max(2, round(0.06 * w))
    inner = pygame.Rect(border * k, border * k, (w - 2 * border) * k, (h - 2 * border) * k)
    pygame.draw.rect(big, palette.BACK_MAIN, inner, border_radius=max(1, round(0.04 * w)) * k)
    big.set_clip(inner)
    step = max(4, round(w / 8)) * k
    line = max(1, round(w / 70)) * k
    span = inner.w + inner.h
    for d in range(-span, span, step):
        x0, x1 = inner.x + d, inner.x + d + inner.h
        pygame.draw.line(big, palette.BACK_LINES, (x0, inner.y), (x1, inner.bottom), line)
        pygame.draw.line(big, palette.BACK_LINES, (x0, inner.bottom), (x1, inner.y), line)
    # A diamond medallion in the middle, so a back is recognisable even when small.
    cx, cy, rx, ry = w * k / 2, h * k / 2, 0.22 * w * k, 0.16 * h * k
    for colour, f in ((palette.BACK_BORDER, 1.0), (palette.BACK_MAIN, 0.7)):
        pygame.draw.polygon(big, colour, [(cx, cy - ry * f), (cx + rx * f, cy), (cx, cy + ry * f), (cx - rx * f, cy)])
    big.set_clip(None)
    return _finish(big, w, h)


def clear_cache() -> None:
    """Forget rendered cards (e.g. after the window was resized for good)."""
    render_card.cache_clear()
    render_back.cache_clear()
