"""The rules card: the house rules of a game, each slap pattern with a small drawn pile that shows it.

Pure: no pygame. The example cards are drawn face up at the smallest height whose corner glyph
meets the size's floor (device.screen.layout), so the card does not fit one screen when many
patterns are on: it comes in pages, which turn by themselves (``PAGE_NS``; the screen picks the
page from the time, as nothing else turns them). A page never cuts a pattern or a sentence.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from device.rules.cards import KING, QUEEN, card
from device.rules.presets import OPTIONS, PRESETS, SLAP_PATTERNS
from device.screen import i18n, palette
from device.screen.layout import CARD_ASPECT, FAN_STEP, Rect, compute_layout, min_card_height
from device.screen.scene.model import RGB, Box, CardSprite, Scene, Text
from device.screen.scene.text import ELLIPSIS, fit, line_height, text_width, wrap

MS = 1_000_000
PAGE_NS = 6000 * MS  # how long a page of the card stays up before the next one
_S, _H, _D, _C = range(4)  # suits (device.rules.cards.SUITS)
#: a pile that shows each pattern of RULES.md 3 (oldest card first, the top card last), and shows
#: no pattern named before it in RULES.md's order, so the box would call it by this name
EXAMPLES: dict[str, tuple[int, ...]] = {
    "doubles": (card(8, _S), card(8, _H)),
    "sandwich": (card(7, _C), card(KING, _H), card(7, _D)),
    "big-mac": (card(6, _C), card(9, _H), card(2, _D), card(6, _S)),
    # 5 cards: with 3, the bottom card is also the third one (a sandwich), with 4 a big mac
    "top-bottom": (card(5, _D), card(9, _S), card(3, _C), card(8, _H), card(5, _S)),
    "marriage": (card(KING, _H), card(QUEEN, _H)),  # one colour: a marriage with marriage_colour too
    "divorce": (card(KING, _S), card(4, _D), card(QUEEN, _S)),
    "tens": (card(3, _C), card(7, _D)),
    "ten-on-top": (card(4, _S), card(10, _H)),
    "run": (card(4, _C), card(5, _H), card(6, _S)),
    "flush": (card(2, _H), card(9, _H), card(5, _H), card(8, _H)),
}
#: a slapping game's options listed whatever their value, then those listed with their pattern;
#: its other options are listed only when they differ from the preset's
ALWAYS = ("wrong_slap", "wrong_flip", "tens_stop")
WITH_PATTERN = {"run_wraps": "run", "marriage_colour": "marriage"}


def _value(options: Mapping[str, Any], preset: str, name: str) -> Any:
    return options.get(name, PRESETS[preset].defaults.get(name))


def active_patterns(options: Mapping[str, Any], preset: str) -> tuple[str, ...]:
    """The slap patterns ``options`` (the house rules that differ from the preset's, or all of
    them) turn on, in RULES.md's order; none for a game without slapping."""
    if preset not in OPTIONS["slaps"].presets:
        return ()
    on = set(_value(options, preset, "slaps") or ())
    return tuple(p for p in SLAP_PATTERNS if p == "doubles" or p in on)


def value_text(lang: str, name: str, value: Any) -> str:
    """An option's value as the card words it ("2 cards to the pot", "on", "54 cards")."""
    if isinstance(value, bool):
        return i18n.tr(lang, "value.on" if value else "value.off")
    if value is None:
        return i18n.tr(lang, "value.none")
    if name == "deck":
        return i18n.tr(lang, "value.deck", n=value)
    if isinstance(value, int):
        return i18n.tr(lang, "number", n=value)
    return i18n.tr(lang, f"value.{name}.{value}")


def rule_lines(options: Mapping[str, Any], preset: str, lang: str,
               time_limit_min: int | None = None) -> list[str]:
    """One line per house rule the card lists besides the patterns: a slapping game's penalties
    and pattern options, and its other options that differ from the preset's; every option of a
    game without slapping; the time limit when there is one."""
    defaults = PRESETS[preset].defaults
    mine = [o for o in OPTIONS if preset in OPTIONS[o].presets and o != "slaps"]
    patterns = active_patterns(options, preset)
    if patterns:
        first = [o for o in (*ALWAYS, *WITH_PATTERN) if o in mine]
        mine = first + [o for o in mine if o not in first]
    out = []
    for name in mine:
        value = _value(options, preset, name)
        if patterns and name not in ALWAYS and value == defaults.get(name) and (
                WITH_PATTERN.get(name) not in patterns):
            continue
        out.append(i18n.tr(lang, "rulescard.line", label=i18n.tr(lang, f"option.{name}"),
                           value=value_text(lang, name, value)))
    if time_limit_min is not None:
        out.append(i18n.tr(lang, "rulescard.time_limit", n=time_limit_min))
    return out


# --- the rows of a page: lines of text, or pattern examples side by side ------------------------
@dataclass(frozen=True)
class _Line:
    text: str
    lines: tuple[str, ...]
    px: int
    colour: RGB
    gap: int

    def height(self) -> int:
        return self.gap + len(self.lines) * line_height(self.px)


@dataclass(frozen=True)
class _Example:
    pattern: str
    label: tuple[str, ...]  # the pattern's name, on one or two lines
    width: int


@dataclass(frozen=True)
class _Examples:
    cells: tuple[_Example, ...]
    label_px: int
    card_h: int
    gap: int

    def label_h(self) -> int:
        return max(len(c.label) for c in self.cells) * line_height(self.label_px)

    def height(self) -> int:
        return self.gap + self.label_h() + self.gap // 2 + self.card_h


_Row = _Line | _Examples


@dataclass(frozen=True)
class _Geometry:
    size: tuple[int, int]
    m: int
    panel: Rect
    inner: Rect
    small: int
    body: int
    title: int
    card_h: int
    card_w: int
    step: int


def _geometry(size: tuple[int, int]) -> _Geometry:
    w, h = size
    lay = compute_layout(w, h)
    m = lay.margin
    panel = Rect(m, m, w - 2 * m, h - 2 * m)
    pad = m + m // 2
    card_h = min_card_height(w, h)
    card_w = round(card_h * CARD_ASPECT)
    return _Geometry(size, m, panel, panel.inset(pad), lay.fonts.small, lay.fonts.body, lay.fonts.title,
                     card_h, card_w, math.ceil(card_w * FAN_STEP))


def _fan_width(g: _Geometry, n: int) -> int:
    return g.card_w + (n - 1) * g.step


def _example(g: _Geometry, lang: str, pattern: str) -> _Example:
    name = i18n.tr(lang, f"pattern.{pattern}")
    name = name[:1].upper() + name[1:]
    width = _fan_width(g, len(EXAMPLES[pattern]))
    lines = wrap(name, g.body, width)
    if len(lines) > 2 or any(ln.endswith(ELLIPSIS) for ln in lines):  # a long name widens its cell
        width = min(g.inner.w, max(width, text_width(name, g.body)))
        lines = wrap(name, g.body, width)
    return _Example(pattern, tuple(lines), width)


def _example_rows(g: _Geometry, lang: str, patterns: Sequence[str]) -> list[_Examples]:
    """The patterns' examples, as many side by side as the width takes, in RULES.md's order."""
    rows: list[_Examples] = []
    row: list[_Example] = []
    gap = 2 * g.m
    for p in patterns:
        cell = _example(g, lang, p)
        if row and sum(c.width for c in row) + gap * len(row) + cell.width > g.inner.w:
            rows.append(_Examples(tuple(row), g.body, g.card_h, g.m))
            row = []
        row.append(cell)
    if row:
        rows.append(_Examples(tuple(row), g.body, g.card_h, g.m))
    return rows


def _lines(g: _Geometry, texts: Sequence[str], colour: RGB = palette.TEXT) -> list[_Line]:
    return [_Line(t, tuple(wrap(t, g.small, g.inner.w)), g.small, colour, g.m // 3) for t in texts if t]


def _pages(rows: Sequence[_Row], room: int) -> list[list[_Row]]:
    """Rows in their order, a new page when the next one does not fit whole."""
    pages: list[list[_Row]] = []
    page: list[_Row] = []
    used = 0
    for row in rows:
        if page and used + row.height() > room:
            pages.append(page)
            page, used = [], 0
        page.append(row)
        used += row.height()
    if page:
        pages.append(page)
    return pages


def rules_card_pages(options: Mapping[str, Any], preset: str, size: tuple[int, int], lang: str, *,
                     time_limit_min: int | None = None, lead: Sequence[str] = (),
                     lead_title: str | None = None, footer: str | None = None,
                     kind: str = "rules-card") -> list[Scene]:
    """Every page of the rules card of ``preset`` played with ``options`` (the house rules that
    differ from the preset's, as ``Settings.options``, or all of them, as ``Game.options``).

    ``lead``: lines on pages of their own before the rules (F1's key map), titled ``lead_title``;
    ``footer``: the line at the bottom of every page (default: how to go back, and that the
    pages turn by themselves when there are several)."""
    g = _geometry(size)
    rules_title = _title(g, lang, preset)
    many = footer is None
    foot_text = footer if footer is not None else i18n.tr(lang, "rulescard.hint.pages")
    foot = wrap(foot_text, g.small, g.inner.w)
    head_h = line_height(g.title) + g.m // 2
    room = g.inner.h - head_h - len(foot) * line_height(g.small) - g.m // 2
    lead_pages = _pages(_lines(g, lead), room)
    rule_rows: list[_Row] = [*_example_rows(g, lang, active_patterns(options, preset)),
                             *_lines(g, rule_lines(options, preset, lang, time_limit_min))]
    rule_pages = _pages(rule_rows, room) or [[]]
    titled = [(lead_title or rules_title, p) for p in lead_pages] + [(rules_title, p) for p in rule_pages]
    if many and len(titled) == 1:
        foot = wrap(i18n.tr(lang, "rulescard.hint"), g.small, g.inner.w)
    return [_draw(g, lang, kind, title, rows, foot, i + 1, len(titled))
            for i, (title, rows) in enumerate(titled)]


def rules_card_scene(options: Mapping[str, Any], preset: str, size: tuple[int, int], lang: str, *,
                     page: int = 0, time_limit_min: int | None = None, lead: Sequence[str] = (),
                     lead_title: str | None = None, footer: str | None = None,
                     kind: str = "rules-card") -> Scene:
    """Page ``page`` of the rules card (counted on from the last page back to the first)."""
    pages = rules_card_pages(options, preset, size, lang, time_limit_min=time_limit_min, lead=lead,
                             lead_title=lead_title, footer=footer, kind=kind)
    return pages[page % len(pages)]


def _title(g: _Geometry, lang: str, preset: str) -> str:
    """"<game>: house rules", or only the game's name when that does not fit."""
    game = i18n.tr(lang, f"preset.{preset}")
    room = _title_room(g)
    for text in (i18n.tr(lang, "rulescard.title", game=game), game):
        line, _ = fit(text, g.title, room, g.small)
        if not line.endswith(ELLIPSIS):
            return text
    return game


def _title_room(g: _Geometry) -> int:
    """The title's width: the centre of the top line, clear of the page number at its right."""
    marker = text_width("88/88", g.small) + g.m
    return g.inner.w - 2 * marker


def _draw(g: _Geometry, lang: str, kind: str, title: str, rows: Sequence[_Row], foot: Sequence[str],
          page: int, pages: int) -> Scene:
    scene = Scene(g.size, kind)
    scene.boxes.append(Box(g.panel, palette.PANEL_BG, palette.TEXT_MUTED, max(1, g.m // 3), g.m))
    inner, bg = g.inner, palette.PANEL_BG
    line, tpx = fit(title, g.title, _title_room(g), g.small)
    scene.texts.append(Text(inner.x + inner.w // 2, inner.y, tpx, line, palette.TEXT, bg, "center",
                            _title_room(g)))
    if pages > 1:
        mark = i18n.tr(lang, "rulescard.page", page=page, pages=pages)
        scene.texts.append(Text(inner.right, inner.y, g.small, mark, palette.TEXT_MUTED, bg, "right",
                                text_width(mark, g.small)))
    y = inner.y + line_height(g.title) + g.m // 2
    for row in rows:
        if isinstance(row, _Line):
            ty = y + row.gap
            for ln in row.lines:
                scene.texts.append(Text(inner.x, ty, row.px, ln, row.colour, bg, "left", inner.w))
                ty += line_height(row.px)
        else:
            _draw_examples(scene, g, row, y)
        y += row.height()
    fy = inner.bottom - len(foot) * line_height(g.small)
    for ln in foot:
        scene.texts.append(Text(inner.x + inner.w // 2, fy, g.small, ln, palette.TEXT_MUTED, bg, "center",
                                inner.w))
        fy += line_height(g.small)
    return scene


def _draw_examples(scene: Scene, g: _Geometry, row: _Examples, y: int) -> None:
    """Each pattern's name over its pile, fanned oldest card first as on the game screen (each
    card's corner index stays visible under the next), the row centred."""
    gap = 2 * g.m
    width = sum(c.width for c in row.cells) + gap * (len(row.cells) - 1)
    x = g.inner.x + (g.inner.w - width) // 2
    top = y + row.gap
    cards_y = top + row.label_h() + row.gap // 2
    for cell in row.cells:
        ty = top
        for ln in cell.label:
            scene.texts.append(Text(x, ty, row.label_px, ln, palette.TEXT, palette.PANEL_BG, "left",
                                    cell.width))
            ty += line_height(row.label_px)
        for i, c in enumerate(EXAMPLES[cell.pattern]):
            scene.cards.append(CardSprite(c, x + i * g.step, cards_y, row.card_h))
        x += cell.width + gap
