"""Decides what the screen shows: a pure scene model (boxes, texts, cards, bars) built from the table
and the feed, apart from drawing it (device.screen.render draws a Scene with pygame).

Pure: no pygame, no clock. Text widths come from a table of the bundled font's advances (measured
once at size 1000) with a safety margin, so wrapping and shrinking are decided here and tested
without a display; the renderer only squeezes a line that would still overflow its ``max_w``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from device.rules import actions as act
from device.rules import events as ev
from device.rules.cards import rank
from device.screen import i18n, palette
from device.screen.feed import Feed
from device.screen.layout import (
    CARD_ASPECT,
    CORNER_GLYPH_RATIO,
    FAN_CARDS,
    FAN_STEP,
    MAX_SEATS,
    Fonts,
    Layout,
    Rect,
    compute_layout,
    min_card_height,
    min_glyph_px,
)

RGB = palette.RGB
Pair = tuple[str, Any]

# --- the model -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Box:
    """A filled rectangle (``fill`` None: outline only), drawn under the texts of its layer."""

    rect: Rect
    fill: RGB | None
    border: RGB | None = None
    width: int = 0          # border width in px
    radius: int = 0
    alpha: int = 255        # < 255: a see-through veil (menus over a game)
    layer: int = 0


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text, ``px`` as for ``pygame.font.Font(None, px)``; ``y`` is its top; ``x`` is
    its left, centre or right edge by ``align``. ``bg`` is the colour behind it (the contrast check
    and the renderer both use it); ``max_w``: the width it was fitted to."""

    x: int
    y: int
    px: int
    text: str
    colour: RGB
    bg: RGB
    align: str = "left"
    max_w: int | None = None
    layer: int = 0


@dataclass(frozen=True, slots=True)
class CardSprite:
    """A card at (x, y), ``height`` px high; ``number``: its card number k (for ``Shown``), if live."""

    card: int | None
    x: int
    y: int
    height: int
    face_up: bool = True
    number: int | None = None
    layer: int = 0

    @property
    def width(self) -> int:
        return round(self.height * CARD_ASPECT)


@dataclass(frozen=True, slots=True)
class Bar:
    """A solid bar (seat colour tags, the reaction-time chart)."""

    rect: Rect
    fill: RGB
    layer: int = 0


@dataclass
class Scene:
    """Everything one frame shows. Drawn per layer: boxes, bars, cards, then texts."""

    size: tuple[int, int]
    kind: str
    background: RGB = palette.TABLE
    boxes: list[Box] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    cards: list[CardSprite] = field(default_factory=list)
    bars: list[Bar] = field(default_factory=list)
    card_numbers: tuple[int, ...] = ()

    def all_text(self) -> str:
        """Every text of the scene, one per line (for tests and logs)."""
        return "\n".join(t.text for t in self.texts)


@dataclass(frozen=True)
class ChooserView:
    """A choice for the player holding the box: tap = next option, hold = choose.
    ``cards[i]``: the hand cards option i would lay (raised on screen when it is under the cursor)."""

    title: str
    options: list[str]
    cursor: int = 0
    cards: tuple[tuple[int, ...], ...] = ()


# --- text measure (pure) -------------------------------------------------------------------------

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


def ellipsize(text: str, px: int, max_w: int) -> str:
    """``text`` cut with an ellipsis to fit ``max_w``."""
    if text_width(text, px) <= max_w:
        return text
    while text and text_width(text.rstrip() + ELLIPSIS, px) > max_w:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


def wrap(text: str, px: int, max_w: int) -> list[str]:
    """Greedy word wrap; a word longer than the line is cut with an ellipsis."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = word if not current else current + " " + word
        if text_width(candidate, px) <= max_w:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = word if text_width(word, px) <= max_w else ellipsize(word, px, max_w)
    if current or not lines:
        lines.append(current)
    return lines


def fit(text: str, px: int, max_w: int, floor: int) -> tuple[str, int]:
    """One line: the largest size from ``px`` down to ``floor`` that fits, else cut at ``floor``."""
    size = px
    while size > floor and text_width(text, size) > max_w:
        size -= 1
    return ellipsize(text, size, max_w), size


# --- checks --------------------------------------------------------------------------------------

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


# --- building blocks -----------------------------------------------------------------------------

@dataclass
class _Frame:
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


@lru_cache(maxsize=32)
def _frame(size: tuple[int, int], seats: int, note: str | None = None) -> _Frame:
    """Cached: the same window, seats and note give the same rectangles (treat as read-only)."""
    w, h = size
    lay = compute_layout(w, h, max(1, min(MAX_SEATS, seats)))
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
    return _Frame(lay, size, m, lay.banner, pile, info, strip, boxes, note_rect, tuple(lines), card_h, min_h)


def _fan(pile: Rect, card_h: int, m: int, with_bottom: bool) -> tuple[Rect, list[Rect]]:
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


class _Column:
    """Stacks wrapped lines of text down a rectangle until it is full."""

    def __init__(self, rect: Rect, bg: RGB, pad: int, layer: int = 0, align: str = "left") -> None:
        self.rect, self.bg, self.pad, self.layer, self.align = rect, bg, pad, layer, align
        self.y = rect.y + pad
        self.texts: list[Text] = []
        self.full = False

    def add(self, text: str, px: int, colour: RGB, *, gap: int = 0, max_lines: int = 4) -> bool:
        """Wrap ``text`` into the column; False (and nothing added) when not even a line fits."""
        if self.full or not text:
            return False
        width = self.rect.w - 2 * self.pad
        lines = wrap(text, px, width)
        if len(lines) > max_lines:
            lines = lines[:max_lines - 1] + [ellipsize(" ".join(lines[max_lines - 1:]), px, width)]
        lh = line_height(px)
        y = self.y + gap
        placed = 0
        for line in lines:
            if y + lh > self.rect.bottom - self.pad // 2:
                self.full = True
                break
            x = {"left": self.rect.x + self.pad, "center": self.rect.x + self.rect.w // 2,
                 "right": self.rect.right - self.pad}[self.align]
            if placed < len(lines) - 1 and y + 2 * lh > self.rect.bottom - self.pad // 2:
                line = ellipsize(line + " " + ELLIPSIS, px, width)  # the rest will not fit
                self.full = True
            self.texts.append(Text(x, y, px, line, colour, self.bg, self.align, width, self.layer))
            y += lh
            placed += 1
            if self.full:
                break
        if placed:
            self.y = y
        return placed > 0


def _names(table: Any) -> list[str]:
    return [s.name for s in table.seats] if table is not None else []


def _tone(tone: str) -> RGB:
    return {"good": palette.TEXT_GOOD, "warn": palette.TEXT_WARN}.get(tone, palette.TEXT)


def _rank_name(lang: str, c: int) -> str:
    """``the 7``, ``the Queen``: a card by rank only (suits never matter in norvégienne)."""
    r = rank(c)
    return i18n.tr(lang, "card.number", n=r) if r <= 10 else i18n.tr(lang, f"card.rank.{r}")


def _cards_phrase(lang: str, cards: Sequence[int]) -> str:
    if len(cards) == 1:
        return _rank_name(lang, cards[0])
    r = rank(cards[0])
    ranks = i18n.tr(lang, "ranks.number", n=r) if r <= 10 else i18n.tr(lang, f"ranks.{r}")
    k = len(cards)
    count = i18n.tr(lang, f"count.{k}") if 2 <= k <= 8 else str(k)
    return f"{count} {ranks}"


_RANK_SHORT = {11: "J", 12: "Q", 13: "K", 14: "A", 15: "X", 0: "?"}


def _short(c: int) -> str:
    r = rank(c)
    return _RANK_SHORT.get(r, str(r))


# --- the game ------------------------------------------------------------------------------------

def game_scene(table: Any, feed: Feed, now_ns: int, size: tuple[int, int], lang: str, *,
               note: str | None = None, chooser: ChooserView | None = None,
               private_seat: int | None = None) -> Scene:
    """The table during a game: banner, pile (or battle stages, or norvégienne), info panel, seats.

    ``private_seat`` (norvégienne, after "pass the box"): that seat's hand and ``chooser`` are shown;
    without it, no hand is ever drawn."""
    game = table.game
    family = table.family
    if note is not None and note in i18n.CATALOGUES[lang]:
        note = i18n.tr(lang, note)  # a catalogue key ("keys.note") or the text itself
    fr = _frame(size, len(table.seats), note)
    scene = Scene(size, "game")
    names = _names(table)
    # A long banner may take a second line where the cards leave room above them.
    cards_top = fr.pile.y + (fr.pile.h - fr.card_h) // 2
    if family == "battle" or private_seat is not None:
        cards_top = fr.pile.y
    banner_bottom = _banner(scene, fr, feed, now_ns, lang, names, cards_top, family)
    if banner_bottom + fr.m > fr.info.y:  # a two-line banner: the info panel starts under it
        top = banner_bottom + fr.m
        fr = replace(fr, info=Rect(fr.info.x, top, fr.info.w, fr.info.bottom - top))
    if family == "battle":
        _battle_table(scene, fr, table, feed, now_ns, lang, names)
    elif family == "shedding":
        if private_seat is not None:
            _norv_private(scene, fr, table, private_seat, chooser, lang, names)
        else:
            _norv_public(scene, fr, table, feed, now_ns, lang, names)
    else:
        _challenge_pile(scene, fr, table, feed, now_ns, lang, names)
    _seats(scene, fr, table, feed, now_ns, lang)
    _note(scene, fr)
    scene.card_numbers = tuple(sorted(c.number for c in scene.cards if c.number is not None))
    return scene


def _banner(scene: Scene, fr: _Frame, feed: Feed, now_ns: int, lang: str, names: list[str],
            cards_top: int, family: str) -> int:
    """The latest event on the banner; a long sentence takes a second line if the cards leave
    room, else it shrinks, else it is cut."""
    b = fr.banner
    items = feed.banner(now_ns, 1)
    text = ""
    if items:
        e = items[0].event
        if isinstance(e, ev.CollectPending) and family == "battle":
            text = i18n.tr(lang, "round.winner", name=i18n.seat_name(lang, names, e.seat))
        else:
            text = i18n.describe(e, lang, names)
    colour = _tone(items[0].tone) if items else palette.TEXT
    width = b.w - 2 * fr.m
    px = fr.body
    lines = wrap(text, px, width) if text else []
    lh = line_height(px)
    room = cards_top - b.y - fr.m // 2
    rect = b
    if len(lines) > 1 and 2 * lh + fr.m <= room:
        lines = lines[:2] if len(lines) <= 2 else [lines[0], ellipsize(" ".join(lines[1:]), px, width)]
        rect = Rect(b.x, b.y, b.w, 2 * lh + fr.m)
    elif len(lines) > 1:
        line, px = fit(text, fr.body, width, fr.floor)
        lines = [line]
    scene.boxes.append(Box(rect, palette.BANNER_BG))
    y = rect.y + (rect.h - len(lines) * line_height(px)) // 2
    for line in lines:
        scene.texts.append(Text(b.x + fr.m, y, px, line, colour, palette.BANNER_BG, "left", width))
        y += line_height(px)
    return rect.bottom


def _info_box(scene: Scene, fr: _Frame) -> _Column:
    scene.boxes.append(Box(fr.info, palette.PANEL_BG, radius=fr.m))
    return _Column(fr.info, palette.PANEL_BG, fr.m)


def _photo_lines(col: _Column, fr: _Frame, feed: Feed, now_ns: int, lang: str, names: list[str]) -> None:
    photo = feed.live_photo(now_ns)
    if photo is None:
        return
    nm = lambda s: i18n.seat_name(lang, names, s)  # noqa: E731
    head = i18n.slap_result(lang, nm(photo.winner), photo.margin_ns if photo.runners_up else None,
                            tie_window_ns=photo.tie_window_ns if photo.by_tie_rule else None)
    col.add(head.replace(" ms", "\u00a0ms").replace(" µs", "\u00a0µs"), fr.body, palette.TEXT_GOOD)
    for seat, offset in photo.runners_up[:3]:
        margin = i18n.format_ns(lang, offset).replace(" ", "\u00a0")  # never wrap "5.9 | ms"
        col.add(i18n.tr(lang, "slap.runner", name=nm(seat), margin=margin),
                fr.small, palette.TEXT_MUTED, max_lines=2)


def _wrong_lines(col: _Column, fr: _Frame, feed: Feed, now_ns: int, lang: str, names: list[str]) -> None:
    flash = feed.live_wrong(now_ns)
    if flash is None:
        return
    name = i18n.seat_name(lang, names, flash.seat)
    col.add(i18n.tr(lang, "wrong.title"), fr.body, palette.TEXT_WARN, gap=fr.m // 2)
    if flash.locked_out:
        detail = i18n.tr(lang, "wrong.locked", name=name)
    elif flash.paid:
        detail = i18n.tr(lang, "wrong.penalty", name=name, n=flash.paid)
    else:
        detail = i18n.tr(lang, "wrong.none", name=name)
    col.add(detail, fr.small, palette.TEXT)


def _challenge_pile(scene: Scene, fr: _Frame, table: Any, feed: Feed, now_ns: int, lang: str,
                    names: list[str]) -> None:
    game = table.game
    pile = list(game.pile)
    base = game.pile_base
    top_bottom = "top-bottom" in game.patterns
    bottom, fan = _fan(fr.pile, fr.card_h, fr.m, top_bottom)
    n = len(pile)
    shown: list[tuple[int, int | None]] = []  # (face, number), bottom of the fan first
    if n:
        first = max(0, n - FAN_CARDS)
        shown = [(pile[i], base + i + 1) for i in range(first, n)]
        if top_bottom and n > FAN_CARDS:
            scene.cards.append(CardSprite(pile[0], bottom.x, bottom.y, fr.card_h, True, base + 1))
            _caption(scene, fr, bottom, i18n.tr(lang, "pile.bottom"), palette.TEXT_MUTED)
    else:
        won = feed.live_won(now_ns)
        if won is not None and won.cards:
            shown = [(face, None) for _, face in won.cards[-FAN_CARDS:]]
            _caption(scene, fr, fan[0], i18n.tr(lang, "pile.taken", name=i18n.seat_name(lang, names, won.seat)),
                     palette.TEXT_GOOD, left=fan[-1].x)
        else:
            scene.boxes.append(Box(fan[0], None, palette.TEXT_MUTED, max(1, fr.m // 3), fr.m))
    for j, (face, number) in enumerate(shown):
        slot = fan[len(shown) - 1 - j]
        scene.cards.append(CardSprite(face, slot.x, slot.y, fr.card_h, True, number))

    col = _info_box(scene, fr)
    _photo_lines(col, fr, feed, now_ns, lang, names)
    _wrong_lines(col, fr, feed, now_ns, lang, names)
    collector = game.collector
    if collector is not None:
        col.add(i18n.tr(lang, "event.collect_pending", name=i18n.seat_name(lang, names, collector)),
                fr.small, palette.TEXT_GOOD, gap=fr.m // 2)
    elif game.owed and game.current_seat() is not None:
        col.add(i18n.tr(lang, "challenge.title"), fr.small, palette.TEXT_MUTED, gap=fr.m // 2)
        col.add(i18n.seat_name(lang, names, game.turn), fr.body, palette.TEXT, max_lines=1)
        col.add(i18n.tr(lang, "challenge.left", n=game.owed), fr.body, palette.TEXT_WARN, max_lines=1)
    if n:
        col.add(i18n.tr(lang, "pile.count", n=n), fr.small, palette.TEXT_MUTED, gap=fr.m // 2)
    if game.pot:
        col.add(i18n.tr(lang, "pot.count", n=len(game.pot)), fr.small, palette.TEXT_MUTED)
    scene.texts += col.texts


def _caption(scene: Scene, fr: _Frame, under: Rect, text: str, colour: RGB, *, left: int | None = None) -> None:
    """A line under a card, if the pile area has room for it."""
    y = under.bottom + fr.m // 2
    if y + line_height(fr.small) > fr.pile.bottom:
        return
    x = under.x if left is None else left
    width = fr.pile.right - x
    line, px = fit(text, fr.small, width, fr.floor)
    scene.texts.append(Text(x, y, px, line, colour, palette.TABLE, "left", width))


def _battle_table(scene: Scene, fr: _Frame, table: Any, feed: Feed, now_ns: int, lang: str,
                  names: list[str]) -> None:
    """Bataille and paix: each seat's cards of this round, stage by stage, as a column."""
    game = table.game
    snap = game.snapshot()
    stages: list[dict[int, dict[str, Any]]] = snap["table"]
    seats: list[int] = []
    for stage in stages[:1]:
        seats += list(stage)
    if len(stages) == 1:
        seats += [s for s in snap["joiners"] if s not in seats]
    seats.sort()
    # Card numbers follow the order cards were laid: stage by stage, seat by seat, down then up.
    total = sum(len(e["down"]) + (e["up"] is not None) for st in stages for e in st.values())
    k = table.card_no - total
    columns: dict[int, list[tuple[int, bool, int]]] = {s: [] for s in seats}
    for st in stages:
        for seat, e in st.items():
            for c in e["down"]:
                k += 1
                columns.setdefault(seat, []).append((c, False, k))
            if e["up"] is not None:
                k += 1
                columns.setdefault(seat, []).append((e["up"], True, k))
    area = fr.pile
    bar_h = max(4, fr.m)
    avail = area.h - bar_h - fr.m

    def offsets(cards: list[tuple[int, bool, int]], h: int) -> list[int]:
        # A face-up card under another shows its corner index; a face-down one only its edge.
        out, y = [], 0
        for i, (_, up, _) in enumerate(cards):
            out.append(y)
            y += round((0.27 if up else 0.10) * h)
        return out

    def height_of(cards: list[tuple[int, bool, int]], h: int, squeeze: float) -> int:
        offs = offsets(cards, h)
        return h + round(offs[-1] * squeeze) if offs else h

    h, squeeze = fr.card_h, 1.0
    worst = max(columns.values(), key=len, default=[])
    while h > fr.min_h and height_of(worst, h, 1.0) > avail:
        h -= 1
    if worst and height_of(worst, h, 1.0) > avail:
        squeeze = max(0.0, (avail - h) / max(1, offsets(worst, h)[-1]))
    w = round(h * CARD_ASPECT)
    n = max(1, len(seats))
    step = min(w + 2 * fr.m, (area.w - 2 * fr.m - w) // max(1, n - 1)) if n > 1 else 0
    row_w = w + step * (n - 1)
    x0 = area.x + (area.w - row_w) // 2
    pending = snap.get("pending")
    for i, seat in enumerate(seats):
        x = x0 + i * step
        y = area.y + fr.m // 2
        scene.bars.append(Bar(Rect(x, y, w, bar_h), palette.seat_colour(seat)))
        y += bar_h + fr.m // 2
        cards = columns.get(seat, [])
        if not cards:
            scene.boxes.append(Box(Rect(x, y, w, h), None, palette.TEXT_MUTED, max(1, fr.m // 3), fr.m))
            continue
        offs = offsets(cards, h)
        for (c, up, num), dy in zip(cards, offs):
            scene.cards.append(CardSprite(c, x, y + round(dy * squeeze), h, up, num))
        if pending == seat:
            last = round(offs[-1] * squeeze)
            d = max(2, fr.m // 2)
            scene.boxes.append(Box(Rect(x - d, y + last - d, w + 2 * d, h + 2 * d), None,
                                   palette.TEXT_GOOD, max(2, fr.m // 2), fr.m, layer=0))

    col = _info_box(scene, fr)
    nm = lambda s: i18n.seat_name(lang, names, s)  # noqa: E731
    battle = feed.battle
    if len(stages) > 1 and battle is not None:
        col.add(i18n.tr(lang, "peace.title" if battle.peace else "battle.title"), fr.body, palette.TEXT_WARN)
        col.add(i18n.join_names(lang, [nm(s) for s in battle.seats]), fr.small, palette.TEXT)
        if battle.stage > 1:
            col.add(i18n.tr(lang, "battle.stage", n=battle.stage), fr.small, palette.TEXT_MUTED)
    if pending is not None:
        col.add(i18n.tr(lang, "round.winner", name=nm(pending)), fr.body, palette.TEXT_GOOD, gap=fr.m // 2)
    on_table = sum(len(c) for c in columns.values())
    col.add(i18n.tr(lang, "table.count", n=on_table), fr.small, palette.TEXT_MUTED, gap=fr.m // 2)
    scene.texts += col.texts


def _norv_pile_cards(scene: Scene, fr: _Frame, table: Any, slots: list[Rect], h: int) -> None:
    pile = list(table.game.pile)
    n = len(pile)
    first = max(0, n - len(slots))
    shown = pile[first:]
    for j, c in enumerate(shown):
        slot = slots[len(shown) - 1 - j]
        number = table.card_no - n + first + j + 1
        scene.cards.append(CardSprite(c, slot.x, slot.y, h, True, number if number > 0 else None))
    if not shown:
        scene.boxes.append(Box(slots[0], None, palette.TEXT_MUTED, max(1, fr.m // 3), fr.m))


def _norv_counts(col: _Column, fr: _Frame, game: Any, lang: str) -> None:
    col.add(i18n.tr(lang, "pile.count", n=len(game.pile)), fr.small, palette.TEXT_MUTED, gap=fr.m // 2,
            max_lines=2)
    col.add(i18n.tr(lang, "stock.count", n=len(game.stock)), fr.small, palette.TEXT_MUTED, max_lines=1)
    col.add(i18n.tr(lang, "burned.count", n=len(game.burned)), fr.small, palette.TEXT_MUTED, max_lines=1)


def _norv_public(scene: Scene, fr: _Frame, table: Any, feed: Feed, now_ns: int, lang: str,
                 names: list[str]) -> None:
    game = table.game
    _, fan = _fan(fr.pile, fr.card_h, fr.m, False)
    _norv_pile_cards(scene, fr, table, fan, fr.card_h)
    col = _info_box(scene, fr)
    nm = lambda s: i18n.seat_name(lang, names, s)  # noqa: E731
    if game.phase == "swap" and game.current_seat() is not None:
        col.add(i18n.tr(lang, "swap.phase", name=nm(game.current_seat())), fr.small, palette.TEXT)
    if game.target is not None:
        col.add(i18n.tr(lang, "ace.answer", name=nm(game.target)), fr.small, palette.TEXT_WARN)
    burn = feed.live_burn(now_ns)
    if burn is not None:
        col.add(i18n.tr(lang, f"event.burned.{burn.why}" if burn.why in ("ten", "four") else "event.burned",
                        name=nm(burn.seat), cards=i18n.tr(lang, "cards", n=burn.cards)),
                fr.small, palette.TEXT_GOOD)
    _norv_counts(col, fr, game, lang)
    scene.texts += col.texts


def _norv_private(scene: Scene, fr: _Frame, table: Any, seat: int, chooser: ChooserView | None,
                  lang: str, names: list[str]) -> None:
    """The hand of the seat holding the box, the pile's top card, and its choice."""
    game = table.game
    view = game.view(seat)
    hand: list[int] = list(view["hand"])
    area = Rect(fr.m, fr.pile.y, fr.size[0] - 2 * fr.m, fr.pile.h)
    lh_body, lh_small = line_height(fr.body), line_height(fr.small)
    # title, the option under the cursor, the next one, the hint
    text_need = 2 * lh_small + 2 * lh_body + fr.m
    lift = max(4, round(0.07 * fr.card_h))
    h = max(fr.min_h, min(fr.card_h, area.h - text_need - lift - fr.m))
    w = round(h * CARD_ASPECT)
    y = area.y + lift + fr.m // 2
    # The pile's top card on the left, with the counts under it.
    pile_slot = Rect(area.x, y, w, h)
    _norv_pile_cards(scene, fr, table, [pile_slot], h)
    # The hand as a fan; the cards of the option under the cursor are raised.
    raised: set[int] = set()
    if chooser is not None and chooser.cards and 0 <= chooser.cursor < len(chooser.cards):
        raised = set(chooser.cards[chooser.cursor])
    hx = pile_slot.right + 3 * fr.m
    # A rule between the pile and the hand, so nobody takes the pile's card for their own.
    scene.bars.append(Bar(Rect(pile_slot.right + fr.m + fr.m // 2 - 1, y, max(2, fr.m // 3), h), palette.TEXT_MUTED))
    room = area.right - hx
    full_step = math.ceil(w * FAN_STEP)
    fits = max(1, 1 + (room - w) // full_step) if room >= w else 1
    shown = hand
    more = 0
    if len(hand) > fits:
        first_raised = next((i for i, c in enumerate(hand) if c in raised), 0)
        start = max(0, min(first_raised, len(hand) - (fits - 1)))
        shown = hand[start:start + fits - 1]
        more = len(hand) - len(shown)
    step = full_step
    for i, c in enumerate(shown):
        dy = -lift if c in raised else 0
        scene.cards.append(CardSprite(c, hx + i * step, y + dy, h, True, None))
    if more:
        x = hx + len(shown) * step + fr.m
        line, px = fit(i18n.tr(lang, "chooser.more", n=more), fr.small, max(0, area.right - x), fr.floor)
        if area.right - x > fr.small:
            scene.texts.append(Text(x, y + h // 2, px, line, palette.TEXT_MUTED, palette.TABLE, "left",
                                    area.right - x))
    # The choice, under the cards.
    ty = y + h + fr.m
    col = _Column(Rect(area.x, ty, area.w, area.bottom - ty), palette.TABLE, 0)
    if chooser is not None and chooser.options:
        col.add(chooser.title, fr.small, palette.TEXT_MUTED, max_lines=1)
        cur = chooser.cursor % len(chooser.options)
        y_cur = col.y
        if col.add("» " + chooser.options[cur], fr.body, palette.TEXT, max_lines=1):
            pad = max(2, fr.m // 2)
            scene.boxes.append(Box(Rect(area.x - pad, y_cur - pad // 2, area.w + 2 * pad,
                                        col.y - y_cur + pad), palette.HIGHLIGHT_BG, radius=fr.m))
            col.texts[-1] = replace(col.texts[-1], bg=palette.HIGHLIGHT_BG)
        if len(chooser.options) > 1:
            nxt = chooser.options[(cur + 1) % len(chooser.options)]
            col.add("  " + nxt, fr.small, palette.TEXT_MUTED, max_lines=1, gap=max(2, fr.m // 2))
        col.add(i18n.tr(lang, "menu.nav"), fr.small, palette.TEXT_MUTED, max_lines=1)
    else:
        col.add(i18n.tr(lang, "stock.count", n=len(game.stock)) + "   "
                + i18n.tr(lang, "burned.count", n=len(game.burned)), fr.small, palette.TEXT_MUTED)
    scene.texts += col.texts


def _seat_status(table: Any, feed: Feed, seat: int, now_ns: int, lang: str) -> tuple[str, RGB]:
    game = table.game
    outcome = game.outcome()
    s = table.seats[seat]
    if outcome is not None:
        if outcome.winner == seat:
            return i18n.tr(lang, "status.winner"), palette.TEXT_GOOD
        return "", palette.TEXT_MUTED
    if feed.flash(seat, now_ns) is not None:
        return i18n.tr(lang, "status.wrong"), palette.TEXT_WARN
    if seat < game.seat_count() and not game.seat_in_play(seat):
        return i18n.tr(lang, "status.out"), palette.TEXT_MUTED
    locked = game.locked
    if seat < len(locked) and locked[seat]:
        return i18n.tr(lang, "status.locked"), palette.TEXT_WARN
    if s.station is not None and any(st == s.station for st, _ in table.stuck):
        return i18n.tr(lang, "status.stuck"), palette.TEXT_WARN
    if table.family == "challenge" and game.owed and game.current_seat() == seat:
        return i18n.tr(lang, "status.owes", n=game.owed), palette.TEXT_WARN
    if table.family == "shedding" and game.up[seat]:
        # Face-up cards are public; whose turn it is shows by the highlighted box.
        return " ".join(_short(c) for c in game.up[seat]), palette.TEXT
    if game.current_seat() == seat:
        return i18n.tr(lang, "status.turn"), palette.TEXT
    if s.bot:
        return i18n.tr(lang, "status.bot"), palette.TEXT_MUTED
    return "", palette.TEXT_MUTED


def _seats(scene: Scene, fr: _Frame, table: Any, feed: Feed, now_ns: int, lang: str) -> None:
    game = table.game
    scene.boxes.append(Box(fr.strip, palette.PANEL_BG))
    counts = game.card_counts()
    current = game.current_seat()
    small = fr.small
    lh = line_height(small)
    for seat, (box, tag, text) in enumerate(fr.seats):
        if seat >= len(table.seats):
            break
        mine = current == seat and game.outcome() is None
        bg = palette.HIGHLIGHT_BG if mine else palette.PANEL_BG
        if mine:
            scene.boxes.append(Box(box, bg, palette.seat_colour(seat), max(2, fr.m // 3)))
        scene.bars.append(Bar(tag, palette.seat_colour(seat)))
        count = str(counts[seat]) if seat < len(counts) else ""
        cw = text_width(count, small)
        name_w = text.w - cw - fr.m // 2
        name, px = fit(table.seats[seat].name, small, max(0, name_w), fr.floor)
        y = text.y + (text.h - 2 * lh) // 2
        scene.texts.append(Text(text.x, y, px, name, palette.TEXT, bg, "left", name_w))
        scene.texts.append(Text(text.right, y, small, count, palette.TEXT, bg, "right", cw))
        status, colour = _seat_status(table, feed, seat, now_ns, lang)
        if status:
            line, px = fit(status, small, text.w, fr.floor)
            scene.texts.append(Text(text.x, y + lh, px, line, colour, bg, "left", text.w))


def _note(scene: Scene, fr: _Frame) -> None:
    if fr.note is None:
        return
    scene.boxes.append(Box(fr.note, palette.BANNER_BG))
    y = fr.note.y + fr.m // 2
    for line in fr.note_lines:
        scene.texts.append(Text(fr.m, y, fr.small, line, palette.TEXT_MUTED, palette.BANNER_BG, "left",
                                fr.size[0] - 2 * fr.m))
        y += line_height(fr.small)


# --- norvégienne choices -------------------------------------------------------------------------

def norvegienne_chooser(table: Any, seat: int, lang: str, cursor: int = 0) -> tuple[ChooserView, list[act.Action]]:
    """The choices of ``seat`` (whose decision the table waits for), in words, with their actions
    (``options[i]`` says ``actions[i]``)."""
    actions = table.legal_decisions() if table.pending_decision() == seat else []
    return chooser_view(table, seat, actions, cursor, lang), actions


def chooser_view(table_or_game: Any, seat: int, actions: Sequence[act.Action], cursor: int, lang: str) -> ChooserView:
    """``actions`` (a seat's legal decisions) in words, for the screen's chooser. Pass the table
    rather than the game to name the Ace's targets by their players' names."""
    names = _names(table_or_game) if hasattr(table_or_game, "seats") else []
    options: list[str] = []
    cards: list[tuple[int, ...]] = []
    for a in actions:
        if isinstance(a, act.Play):
            options.append(i18n.tr(lang, "chooser.play", cards=_cards_phrase(lang, a.cards)))
            cards.append(tuple(a.cards))
        elif isinstance(a, act.PickUp):
            options.append(i18n.tr(lang, "chooser.pickup"))
            cards.append(())
        elif isinstance(a, act.Target):
            options.append(i18n.tr(lang, "chooser.target", name=i18n.seat_name(lang, names, a.target)))
            cards.append(())
        elif isinstance(a, act.Swap):
            options.append(i18n.tr(lang, "chooser.swap", hand=_rank_name(lang, a.hand_card),
                                   up=_rank_name(lang, a.up_card)))
            cards.append((a.hand_card,))
        elif isinstance(a, act.Ready):
            options.append(i18n.tr(lang, "chooser.ready"))
            cards.append(())
        elif isinstance(a, act.Reveal):
            options.append(i18n.tr(lang, "chooser.reveal"))
            cards.append(())
        else:
            options.append(type(a).__name__)
            cards.append(())
    title = i18n.tr(lang, "chooser.title", name=i18n.seat_name(lang, names, seat))
    return ChooserView(title, options, cursor % len(options) if options else 0, tuple(cards))


# --- overlays: menus, attract, pass the box, game over, help, messages --------------------------

def _overlay(scene: Scene, lay: Layout, *, layer: int, veil: bool, height: int | None = None) -> Rect:
    """The panel menus and messages sit on (``height``: shorter than the layout's, centred)."""
    w, h = scene.size
    if veil:
        scene.boxes.append(Box(Rect(0, 0, w, h), palette.BLACK, alpha=150, layer=layer))
    o = lay.overlay
    if height is not None and height < o.h:
        o = Rect(o.x, (h - height) // 2, o.w, height)
    scene.boxes.append(Box(o, palette.PANEL_BG, palette.TEXT_MUTED, max(1, lay.margin // 3), lay.margin,
                           layer=layer))
    return o


def _merge(into: Scene, bg: Scene) -> None:
    into.background = bg.background
    into.boxes += bg.boxes
    into.texts += bg.texts
    into.cards += bg.cards
    into.bars += bg.bars


def _value_text(lang: str, key: str, args: Iterable[Pair]) -> str:
    kw = dict(args)
    if key == "value.patterns":
        kw["patterns"] = i18n.join_names(lang, [i18n.tr(lang, f"pattern.{p}") for p in kw.get("patterns", ())])
    return i18n.tr(lang, key, **kw)


def menu_scene(view: Any, size: tuple[int, int], lang: str, *, joined: Sequence[str] = (),
               background: Scene | None = None) -> Scene:
    """A menu page (``Menu.view()``): the title, the items with the cursor's highlighted, the
    navigation hint and who has joined; over ``background`` (a veiled game) when given."""
    scene = Scene(size, "menu")
    if background is not None:
        _merge(scene, background)
    lay = compute_layout(*size)
    layer = 1
    m, fonts = lay.margin, lay.fonts
    inner_w = lay.overlay.w - 2 * m
    title, tpx = fit(i18n.tr(lang, view.title), fonts.title, inner_w, fonts.body)
    foot = [i18n.tr(lang, view.hint)]
    if joined:
        foot.append(i18n.tr(lang, "attract.joined", n=len(joined)) + ": " + i18n.join_names(lang, list(joined)))
    foot_lines = [ln for f in foot for ln in wrap(f, fonts.small, inner_w)][:3]
    foot_h = len(foot_lines) * line_height(fonts.small)
    row_h = line_height(fonts.body) + m // 2
    items = list(view.items)
    needed = 2 * m + line_height(tpx) + m // 2 + len(items) * row_h + m + foot_h
    o = _overlay(scene, lay, layer=layer, veil=background is not None, height=needed)
    inner = o.inset(m)
    scene.texts.append(Text(inner.x + inner.w // 2, inner.y, tpx, title, palette.TEXT, palette.PANEL_BG,
                            "center", inner.w, layer))
    y = inner.y + line_height(tpx) + m // 2
    bottom = inner.bottom - foot_h - m // 2
    visible = max(1, (bottom - y) // row_h)
    sel = next((i for i, it in enumerate(items) if it.selected), 0)
    start = min(max(0, sel - visible // 2), max(0, len(items) - visible))
    for i, it in enumerate(items[start:start + visible], start):
        bg = palette.HIGHLIGHT_BG if it.selected else palette.PANEL_BG
        row = Rect(inner.x, y, inner.w, row_h)
        if it.selected:
            scene.boxes.append(Box(row, bg, palette.TEXT_MUTED, 1, m // 2, layer=layer))
        label = ("» " if it.selected else "  ") + i18n.tr(lang, it.label)
        value = _value_text(lang, it.value, it.value_args) if it.value else ""
        pad = m
        ty = y + (row_h - line_height(fonts.body)) // 2
        vw = 0
        if value:
            value, vpx = fit(value, fonts.body, (inner.w - 2 * pad) * 3 // 5, fonts.small)
            vw = text_width(value, vpx)
            scene.texts.append(Text(row.right - pad, ty, vpx, value, palette.TEXT, bg, "right", vw, layer))
        lw = inner.w - 2 * pad - vw - (m if value else 0)
        label, lpx = fit(label, fonts.body, lw, fonts.small)
        scene.texts.append(Text(row.x + pad, ty, lpx, label, palette.TEXT, bg, "left", lw, layer))
        y += row_h
    if start > 0 or start + visible < len(items):
        more = f"{sel + 1}/{len(items)}"
        scene.texts.append(Text(inner.right, inner.y, fonts.small, more, palette.TEXT_MUTED, palette.PANEL_BG,
                                "right", text_width(more, fonts.small), layer))
    fy = inner.bottom - foot_h
    for line in foot_lines:
        scene.texts.append(Text(inner.x + inner.w // 2, fy, fonts.small, line, palette.TEXT_MUTED,
                                palette.PANEL_BG, "center", inner.w, layer))
        fy += line_height(fonts.small)
    return scene


def attract_scene(table: Any, feed: Feed, now_ns: int, size: tuple[int, int], lang: str,
                  joined: Sequence[str] = ()) -> Scene:
    """Attract mode: a bots' game behind a veil, "Press any button to join", who has joined."""
    scene = Scene(size, "attract")
    if table is not None:
        _merge(scene, game_scene(table, feed if feed is not None else Feed(), now_ns, size, lang))
    lay = compute_layout(*size)
    w, h = size
    layer = 1
    scene.boxes.append(Box(Rect(0, 0, w, h), palette.BLACK, alpha=140, layer=layer))
    m, fonts = lay.margin, lay.fonts
    lines: list[tuple[str, int, RGB]] = [(i18n.tr(lang, "attract.title"), fonts.big, palette.TEXT),
                                         (i18n.tr(lang, "attract.join"), fonts.body, palette.TEXT)]
    if joined:
        lines.append((i18n.tr(lang, "attract.joined", n=len(joined)) + ": "
                      + i18n.join_names(lang, list(joined)), fonts.small, palette.TEXT_GOOD))
        lines.append((i18n.tr(lang, "attract.start"), fonts.small, palette.TEXT_MUTED))
    panel_w = min(w - 2 * m, max(text_width(t, px) for t, px, _ in lines) + 4 * m)
    wrapped = [(ln, px, c) for t, px, c in lines for ln in wrap(t, px, panel_w - 2 * m)]
    panel_h = sum(line_height(px) for _, px, _ in wrapped) + (len(wrapped) + 2) * (m // 2) + m
    panel = Rect((w - panel_w) // 2, max(m, (h - panel_h) // 2), panel_w, min(h - 2 * m, panel_h))
    scene.boxes.append(Box(panel, palette.PANEL_BG, palette.TEXT_MUTED, max(1, m // 3), m, layer=layer))
    col = _Column(panel, palette.PANEL_BG, m, layer, "center")
    for t, px, c in lines:
        col.add(t, px, c, gap=m // 2)
    scene.texts += col.texts
    return scene


def pass_scene(seat: int, name: str, size: tuple[int, int], lang: str) -> Scene:
    """"Pass the box to seat N, press to look": no hand is on screen."""
    scene = Scene(size, "pass")
    lay = compute_layout(*size)
    m, fonts = lay.margin, lay.fonts
    w, h = size
    colour = palette.seat_colour(seat)
    ink = palette.seat_ink(seat)
    band_h = line_height(fonts.big) + 2 * m
    band = Rect(0, h // 2 - band_h - m, w, band_h)
    scene.boxes.append(Box(band, colour))
    big, px = fit(name, fonts.big, w - 2 * m, fonts.body)
    scene.texts.append(Text(w // 2, band.y + (band_h - line_height(px)) // 2, px, big, ink, colour, "center",
                            w - 2 * m))
    col = _Column(Rect(0, band.bottom + m, w, h - band.bottom - m), palette.TABLE, 2 * m, 0, "center")
    col.add(i18n.tr(lang, "pass.to", n=seat + 1), fonts.body, palette.TEXT)
    col.add(i18n.tr(lang, "pass.hide"), fonts.small, palette.TEXT_MUTED, gap=m)
    scene.texts += col.texts
    return scene


def _over_title(table: Any, lang: str) -> tuple[str, str]:
    names = _names(table)
    outcome = table.game.outcome()
    title = i18n.tr(lang, "over.title")
    if outcome is None:
        return title, ""
    if outcome.winner is not None:
        return title, i18n.tr(lang, "over.winner", name=i18n.seat_name(lang, names, outcome.winner))
    key = {"loop": "over.loop", "limit": "over.limit"}.get(outcome.termination, "over.draw")
    return title, i18n.tr(lang, key)


def _table_rows(scene: Scene, area: Rect, m: int, px: int, floor: int, header: list[str],
                rows: list[list[str]], first_w: int, *, colours: list[RGB] | None = None,
                bars: list[float | None] | None = None, bar_colours: list[RGB] | None = None) -> int:
    """A small table: a name column (``first_w``), optionally a bar column, then right-aligned
    number columns sized to their widest cell. Returns the y under it."""
    cols = len(header) - 1
    widths = [max(text_width(r[i + 1], px) for r in [header] + rows) for i in range(cols)]
    gap = m
    nums_w = sum(widths) + gap * cols
    bar_w = area.w - first_w - nums_w - gap if bars is not None else 0
    if bar_w < 3 * m:
        bar_w = 0
    lh = line_height(px)
    y = area.y
    for ri, row in enumerate([header] + rows):
        if y + lh > area.bottom:
            break
        colour = palette.TEXT_MUTED if ri == 0 else (colours[ri - 1] if colours else palette.TEXT)
        name, npx = fit(row[0], px, first_w - gap // 2, floor)
        scene.texts.append(Text(area.x, y, npx, name, colour, palette.TABLE, "left", first_w))
        x = area.x + first_w
        if bars is not None and bar_w and ri > 0 and bars[ri - 1] is not None:
            length = max(2, round(bar_w * bars[ri - 1]))  # type: ignore[operator]
            bh = max(4, lh * 2 // 3)
            fill = bar_colours[ri - 1] if bar_colours else palette.TEXT_MUTED
            scene.bars.append(Bar(Rect(x, y + (lh - bh) // 2, length, bh), fill))
        x += bar_w + (gap if bar_w else 0)
        for i in range(cols):
            x += widths[i] + gap
            scene.texts.append(Text(x - gap, y, px, row[i + 1], colour, palette.TABLE, "right", widths[i]))
        y += lh + (m // 3)
    return y


def over_scene(table: Any, size: tuple[int, int], lang: str, leaderboard_rows: Sequence[Any] = (), *,
               page: int = 0) -> Scene:
    """Game over: the winner, then per seat its mean reaction (a bar), slaps won and wrong slaps, the
    longest challenge chain, and the leaderboard (``page`` 1: the leaderboard alone, for small
    screens where it does not fit under the game's statistics)."""
    scene = Scene(size, "over")
    lay = compute_layout(*size)
    m, fonts = lay.margin, lay.fonts
    w, h = size
    title, winner = _over_title(table, lang)
    t, px = fit(title, fonts.title, w - 2 * m, fonts.body)
    scene.texts.append(Text(w // 2, m, px, t, palette.TEXT, palette.TABLE, "center", w - 2 * m))
    y = m + line_height(px)
    if winner:
        t, wpx = fit(winner, fonts.body, w - 2 * m, fonts.small)
        scene.texts.append(Text(w // 2, y, wpx, t, palette.TEXT_GOOD, palette.TABLE, "center", w - 2 * m))
        y += line_height(wpx)
    y += m
    footer = i18n.tr(lang, "over.again")
    fy = h - m - line_height(fonts.small)
    scene.texts.append(Text(w // 2, fy, fonts.small, ellipsize(footer, fonts.small, w - 2 * m),
                            palette.TEXT_MUTED, palette.TABLE, "center", w - 2 * m))
    area = Rect(m, y, w - 2 * m, fy - m // 2 - y)
    px = fonts.small
    name_w = min(area.w // 3, max(text_width(s.name, px) for s in table.seats) + m)
    if page == 0:
        stats = table.seat_stats()
        if table.slapping:
            means = [s["mean_reaction_ms"] for s in stats]
            top = max((v for v in means if v is not None), default=None)
            header = ["", i18n.tr(lang, "stats.short.reaction"), i18n.tr(lang, "stats.short.slaps"),
                      i18n.tr(lang, "stats.short.wrong")]
            rows = [[s["name"], i18n.tr(lang, "ms", value=_num(lang, s["mean_reaction_ms"]))
                     if s["mean_reaction_ms"] is not None else "-", str(s["slaps_won"]), str(s["wrong_slaps"])]
                    for s in stats]
            fractions = [None if v is None or not top else v / top for v in means]
        else:
            counts = table.game.card_counts()
            top = max(counts) or 1
            header = ["", i18n.tr(lang, "stats.short.cards")]
            rows = [[s["name"], str(c)] for s, c in zip(stats, counts)]
            fractions = [c / top for c in counts]
        y = _table_rows(scene, area, m, px, fonts.small, header, rows, name_w, bars=fractions,
                        bar_colours=[palette.seat_colour(s["seat"]) for s in stats])
        if table.family == "challenge":
            line = i18n.tr(lang, "over.chain", n=table.longest_chain)
            if y + line_height(px) <= area.bottom:
                t, cpx = fit(line, px, area.w, fonts.small)
                scene.texts.append(Text(area.x, y + m // 2, cpx, t, palette.TEXT_MUTED, palette.TABLE, "left", area.w))
                y += line_height(px) + m
        area = Rect(area.x, y + m // 2, area.w, area.bottom - y - m // 2)
    if leaderboard_rows and area.h >= 3 * line_height(px):
        t, lpx = fit(i18n.tr(lang, "stats.leaderboard"), fonts.body, area.w, fonts.small)
        scene.texts.append(Text(area.x, area.y, lpx, t, palette.TEXT, palette.TABLE, "left", area.w))
        area = Rect(area.x, area.y + line_height(lpx), area.w, area.h - line_height(lpx))
        header = ["", i18n.tr(lang, "stats.short.games"), i18n.tr(lang, "stats.short.wins"),
                  i18n.tr(lang, "stats.short.slaps"), i18n.tr(lang, "stats.short.wrong"),
                  i18n.tr(lang, "stats.short.reaction"), i18n.tr(lang, "stats.short.fastest")]
        rows = [[r.name, str(r.games), str(r.wins), str(r.slaps_won), str(r.wrong_slaps),
                 _ms(lang, r.mean_reaction_ms), _ms(lang, r.fastest_ms)] for r in leaderboard_rows]
        if w < 600:  # a small panel: the reaction columns would crowd out the names
            header, rows = header[:5], [r[:5] for r in rows]
        lw = min(area.w // 3, max(text_width(r[0], px) for r in rows) + m)
        _table_rows(scene, area, m, px, fonts.small, header, rows, lw)
    return scene


def _num(lang: str, v: float | None) -> str:
    if v is None:
        return "-"
    text = f"{v:.0f}"
    return text


def _ms(lang: str, v: float | None) -> str:
    return "-" if v is None else i18n.tr(lang, "ms", value=_num(lang, v))


def _lines_scene(kind: str, title: str | None, lines: Sequence[str], size: tuple[int, int]) -> Scene:
    scene = Scene(size, kind)
    lay = compute_layout(*size)
    m, fonts = lay.margin, lay.fonts
    if title is None:
        o = _overlay(scene, lay, layer=0, veil=False)
    else:  # help: the key map needs the whole screen on a small panel
        o = Rect(m, m, size[0] - 2 * m, size[1] - 2 * m)
        scene.boxes.append(Box(o, palette.PANEL_BG, palette.TEXT_MUTED, max(1, m // 3), m))
    col = _Column(o, palette.PANEL_BG, 2 * m if title is None else m + m // 2, 0,
                  "center" if title is None else "left")
    if title:
        col.align = "center"
        col.add(title, fonts.title, palette.TEXT)
        col.align = "left"
    for line in lines:
        col.add(line, fonts.small if title else fonts.body, palette.TEXT if title is None else palette.TEXT,
                gap=m // 3, max_lines=3)
    if title is None:
        # Centre the message block vertically in the panel.
        used = col.y - (o.y + 2 * m)
        dy = max(0, (o.h - 4 * m - used) // 2)
        col.texts = [replace(t, y=t.y + dy) for t in col.texts]
    scene.texts += col.texts
    return scene


def help_scene(key_lines: Sequence[str], size: tuple[int, int], lang: str) -> Scene:
    """Developer mode's F1: the key map, the menu keys and the keyboard note."""
    lines = list(key_lines) + [i18n.tr(lang, "keys.menu"), i18n.tr(lang, "keys.note")]
    return _lines_scene("help", i18n.tr(lang, "help.title"), lines, size)


def message_scene(lines: Sequence[str], size: tuple[int, int], lang: str) -> Scene:
    """A few centred lines (shutdown confirmation, errors a player can act on)."""
    i18n._catalogue(lang)  # a bad language is refused here as everywhere
    return _lines_scene("message", None, lines, size)


__all__ = ["Scene", "Box", "Text", "CardSprite", "Bar", "ChooserView", "check_contrast", "check_glyphs",
           "game_scene", "menu_scene", "attract_scene", "pass_scene", "over_scene", "help_scene",
           "message_scene", "norvegienne_chooser", "chooser_view", "text_width", "wrap", "fit", "ellipsize"]
