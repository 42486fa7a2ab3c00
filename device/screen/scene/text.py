"""Text measuring: a line's width in the bundled font, and fitting, wrapping and stacking lines.

Pure: widths come from a table of the font's advances (measured once at size 1000) with a safety
margin, so wrapping and shrinking are decided here and tested without a display; the renderer only
squeezes a line that would still overflow its ``max_w``.
"""

from __future__ import annotations

import math

from device.screen.layout import Fonts, Rect
from device.screen.scene.model import RGB, Text

_CHARS = (' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~'
          '\xa0¡¢£¤¥¦§¨©ª«¬\xad®¯°±²³´µ¶·¸¹º»¼½¾¿ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõö÷'
          'øùúûüýþÿœŒ…’–—')
# Advance widths of pygame's default font at size 1000 (pygame-ce 2.5), in the order of _CHARS.
_W1000 = (191, 229, 325, 382, 382, 611, 496, 163, 229, 229, 267, 401, 191, 229, 191, 191, 382, 382, 382,
          382, 382, 382, 382, 382, 382, 382, 229, 229, 401, 401, 401, 420, 669, 496, 496, 496, 496, 458,
          420, 535, 497, 191, 382, 496, 420, 572, 496, 534, 458, 534, 496, 458, 420, 496, 458, 649, 458,
          458, 420, 229, 208, 228, 401, 412, 229, 382, 420, 382, 420, 382, 229, 419, 420, 191, 191, 382,
          191, 611, 420, 420, 420, 420, 267, 381, 229, 420, 382, 534, 382, 382, 343, 267, 193, 267, 401,
          191, 228, 382, 381, 382, 382, 193, 382, 229, 525, 254, 381, 401, 0, 525, 228, 416, 401, 242,
          241, 229, 420, 382, 191, 229, 241, 251, 382, 597, 597, 597, 420, 496, 496, 496, 496, 496, 497,
          686, 496, 458, 458, 458, 458, 199, 199, 220, 204, 496, 496, 534, 534, 534, 534, 534, 401, 534,
          496, 496, 496, 496, 458, 458, 420, 382, 382, 382, 382, 382, 382, 611, 382, 382, 382, 382, 382,
          198, 200, 220, 204, 420, 420, 420, 420, 420, 420, 420, 401, 420, 420, 420, 420, 420, 382, 420,
          383, 649, 687, 687, 191, 389, 694)
_ADVANCE = dict(zip(_CHARS, _W1000))
# Hinting widens small text by up to 14 % over the linear estimate (measured, sizes 14 to 120).
_HINTING = 1.14
ELLIPSIS = "…"


def text_width(text: str, px: int) -> int:
    """An upper bound of the rendered width of ``text`` at font size ``px``."""
    units = sum(_ADVANCE.get(ch, 700) for ch in text)
    return math.ceil(units * px * _HINTING / 1000)


def line_height(px: int) -> int:
    return Fonts.line(px)


def text_rect(t: Text) -> Rect:
    """Where a text's ink may reach: its aligned left edge, its width bound, one line high."""
    width = text_width(t.text, t.px)
    left = {"left": t.x, "center": t.x - width // 2, "right": t.x - width}[t.align]
    return Rect(left, t.y, width, line_height(t.px))


def ellipsize(text: str, px: int, max_w: int) -> str:
    """``text`` cut with an ellipsis to fit ``max_w``."""
    if text_width(text, px) <= max_w:
        return text
    while text and text_width(text.rstrip() + ELLIPSIS, px) > max_w:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


def _pieces(word: str, px: int, max_w: int) -> list[str]:
    """A word wider than the line, broken after its hyphens, else between letters with a hyphen."""
    out: list[str] = []
    while text_width(word, px) > max_w:
        cut = max((i + 1 for i, ch in enumerate(word[:-1]) if ch == "-" and text_width(word[:i + 1], px) <= max_w),
                  default=0)
        if cut:
            out.append(word[:cut])
        else:
            cut = len(word) - 1
            while cut > 1 and text_width(word[:cut] + "-", px) > max_w:
                cut -= 1
            if cut <= 1 or text_width(word[:cut] + "-", px) > max_w:
                return out + [ellipsize(word, px, max_w)]  # not even two letters fit
            out.append(word[:cut] + "-")
        word = word[cut:]
    return out + [word]


def wrap(text: str, px: int, max_w: int) -> list[str]:
    """Greedy word wrap; a word longer than the line is broken (after a hyphen if it has one)."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = word if not current else current + " " + word
        if text_width(candidate, px) <= max_w:
            current = candidate
            continue
        if current:
            lines.append(current)
        pieces = _pieces(word, px, max_w)
        lines += pieces[:-1]
        current = pieces[-1]
    if current or not lines:
        lines.append(current)
    return lines


def fit(text: str, px: int, max_w: int, floor: int) -> tuple[str, int]:
    """One line: the largest size from ``px`` down to ``floor`` that fits, else cut at ``floor``."""
    size = px
    while size > floor and text_width(text, size) > max_w:
        size -= 1
    return ellipsize(text, size, max_w), size


Para = tuple[str, int, RGB, int]  # text, font size, colour, gap above


class Column:
    """Stacks wrapped lines of text down a rectangle until it is full."""

    def __init__(self, rect: Rect, bg: RGB, pad: int, layer: int = 0, align: str = "left") -> None:
        self.rect, self.bg, self.pad, self.layer, self.align = rect, bg, pad, layer, align
        self.y = rect.y + pad
        self.texts: list[Text] = []
        self.full = False

    def room(self) -> int:
        """The height left for text."""
        return self.rect.bottom - self.pad // 2 - self.y

    def height(self, text: str, px: int, gap: int = 0) -> int:
        """How high ``text`` would stand in the column (0 for no text)."""
        if not text:
            return 0
        return gap + len(wrap(text, px, self.rect.w - 2 * self.pad)) * line_height(px)

    def add(self, text: str, px: int, colour: RGB, *, gap: int = 0, max_lines: int = 4) -> bool:
        """Wrap ``text`` into the column, whole or not at all: False (and nothing added) when its
        lines do not all fit (more than ``max_lines``, or under the bottom); text is never cut."""
        if self.full or not text:
            return False
        width = self.rect.w - 2 * self.pad
        lines = wrap(text, px, width)
        lh = line_height(px)
        if len(lines) > max_lines or gap + len(lines) * lh > self.room():
            return False
        x = {"left": self.rect.x + self.pad, "center": self.rect.x + self.rect.w // 2,
             "right": self.rect.right - self.pad}[self.align]
        y = self.y + gap
        for line in lines:
            self.texts.append(Text(x, y, px, line, colour, self.bg, self.align, width, self.layer))
            y += lh
        self.y = y
        return True

    def fill(self, groups: list[tuple[int, list[Para]]]) -> None:
        """Place groups of paragraphs (``rank``, [(text, px, colour, gap), ...]) in their order; when
        they do not all fit, the least important groups (highest rank, the later first) are left
        out whole, so the panel gives room instead of cutting a sentence."""
        keep = [g for g in groups if any(p[0] for p in g[1])]

        def height(gs: list[tuple[int, list[Para]]]) -> int:
            return sum(self.height(t, px, gap) for _, ps in gs for t, px, _, gap in ps)

        while keep and height(keep) > self.room():
            del keep[max(range(len(keep)), key=lambda i: (keep[i][0], i))]
        for _, ps in keep:
            for t, px, colour, gap in ps:
                self.add(t, px, colour, gap=gap, max_lines=99)
