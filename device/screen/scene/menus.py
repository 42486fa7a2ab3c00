"""The screens between games: menus, attract mode, pass the box, help and messages."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from device.screen import i18n, palette
from device.screen.feed import Feed
from device.screen.layout import Layout, Rect, compute_layout
from device.screen.scene.game import game_scene
from device.screen.scene.model import RGB, Box, Scene, Text
from device.screen.scene.text import Column, fit, line_height, text_rect, text_width, wrap

Pair = tuple[str, Any]


def _overlay(scene: Scene, lay: Layout, *, layer: int, veil: bool, height: int | None = None) -> Rect:
    """The panel menus and messages sit on (``height``: shorter than the layout's, centred)."""
    w, h = scene.size
    if veil:
        scene.boxes.append(Box(Rect(0, 0, w, h), palette.BLACK, alpha=150, layer=layer))
    o = lay.overlay
    if height is not None and height < o.h:
        o = Rect(o.x, (h - height) // 2, o.w, height)
    _clear_under(scene, o, layer)
    scene.boxes.append(Box(o, palette.PANEL_BG, palette.TEXT_MUTED, max(1, lay.margin // 3), lay.margin,
                           layer=layer))
    return o


def _clear_under(scene: Scene, panel: Rect, layer: int) -> None:
    """A panel drawn over a game hides the game's texts it touches: every text under it and every
    text of a box it overlaps (a sentence is hidden whole, never left half under the panel)."""
    touched = [b.rect for b in scene.boxes if b.layer < layer and b.fill is not None and b.alpha == 255
               and b.rect.overlaps(panel)]
    scene.texts = [t for t in scene.texts if t.layer >= layer or not (
        text_rect(t).overlaps(panel) or any(r.contains(text_rect(t)) for r in touched))]


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
    if "what" in kw:  # a value made of another catalogue entry and a number ("2 cards to the pot")
        kw["what"] = i18n.tr(lang, str(kw["what"]))
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
    items = list(view.items)
    rows = [_row(lang, it, inner_w, m, fonts.body, fonts.small) for it in items]
    heights = [len(r[0]) * line_height(r[1]) + m // 2 for r in rows]
    sel = next((i for i, it in enumerate(items) if it.selected), 0)
    head = line_height(tpx) + m // 2
    needed = 2 * m + head + sum(heights) + m + foot_h
    o = _overlay(scene, lay, layer=layer, veil=background is not None, height=needed)
    inner = o.inset(m)
    scene.texts.append(Text(inner.x + inner.w // 2, inner.y, tpx, title, palette.TEXT, palette.PANEL_BG,
                            "center", inner.w, layer))
    y = inner.y + head
    start, end = _window(heights, sel, inner.bottom - foot_h - m // 2 - y)
    visible = end - start
    for i in range(start, end):
        it, (lines, lpx, value, vpx), row_h = items[i], rows[i], heights[i]
        bg = palette.HIGHLIGHT_BG if it.selected else palette.PANEL_BG
        row = Rect(inner.x, y, inner.w, row_h)
        if it.selected:
            scene.boxes.append(Box(row, bg, palette.TEXT_MUTED, 1, m // 2, layer=layer))
        ty = y + m // 4
        vw = text_width(value, vpx) if value else 0
        if value:
            scene.texts.append(Text(row.right - m, ty, vpx, value, palette.TEXT, bg, "right", vw, layer))
        lw = inner.w - 2 * m - vw - (m if value else 0)
        for line in lines:
            scene.texts.append(Text(row.x + m, ty, lpx, line, palette.TEXT, bg, "left", lw, layer))
            ty += line_height(lpx)
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


def _row(lang: str, it: Any, inner_w: int, m: int, body: int, small: int) -> tuple[list[str], int, str, int]:
    """A menu item's label lines (one, else two: a long label wraps rather than being cut), their
    size, its value and the value's size."""
    value = _value_text(lang, it.value, it.value_args) if it.value else ""
    vpx = body
    if value:
        value, vpx = fit(value, body, (inner_w - 2 * m) * 3 // 5, small)
    lw = inner_w - 2 * m - (text_width(value, vpx) + m if value else 0)
    mark, words = ("» " if it.selected else "  "), i18n.tr(lang, it.label)
    line, lpx = fit(mark + words, body, lw, small)
    if text_width(mark + words, lpx) <= lw:
        return [line], lpx, value, vpx
    indent = "\u00a0" * (3 if it.selected else 2)  # as wide as the mark: line 2 starts under line 1's words
    for px in (body, small):
        lines = wrap(words, px, lw - text_width(indent, px))
        if len(lines) <= 2:
            return [mark + lines[0]] + [indent + ln for ln in lines[1:]], px, value, vpx
    return [line], lpx, value, vpx  # three lines even small: cut (the checks flag it)


def _window(heights: list[int], sel: int, room: int) -> tuple[int, int]:
    """The rows shown: the selected one and as many around it as fit, below first."""
    start, end = sel, sel + 1
    used = heights[sel] if heights else 0
    grew = True
    while grew:
        grew = False
        for below in (True, False):
            if below and end < len(heights) and used + heights[end] <= room:
                used += heights[end]
                end += 1
                grew = True
            elif not below and start > 0 and used + heights[start - 1] <= room:
                start -= 1
                used += heights[start]
                grew = True
    return start, end


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
    _clear_under(scene, panel, layer)
    scene.boxes.append(Box(panel, palette.PANEL_BG, palette.TEXT_MUTED, max(1, m // 3), m, layer=layer))
    col = Column(panel, palette.PANEL_BG, m, layer, "center")
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
    col = Column(Rect(0, band.bottom + m, w, h - band.bottom - m), palette.TABLE, 2 * m, 0, "center")
    col.add(i18n.tr(lang, "pass.to", n=seat + 1), fonts.body, palette.TEXT)
    col.add(i18n.tr(lang, "pass.hide"), fonts.small, palette.TEXT_MUTED, gap=m)
    scene.texts += col.texts
    return scene


def _lines_scene(kind: str, title: str | None, lines: Sequence[str], size: tuple[int, int]) -> Scene:
    scene = Scene(size, kind)
    lay = compute_layout(*size)
    m, fonts = lay.margin, lay.fonts
    if title is None:
        o = _overlay(scene, lay, layer=0, veil=False)
    else:  # help: the key map needs the whole screen on a small panel
        o = Rect(m, m, size[0] - 2 * m, size[1] - 2 * m)
        scene.boxes.append(Box(o, palette.PANEL_BG, palette.TEXT_MUTED, max(1, m // 3), m))
    col = Column(o, palette.PANEL_BG, 2 * m if title is None else m + m // 2, 0,
                  "center" if title is None else "left")
    if title:
        col.align = "center"
        col.add(title, fonts.title, palette.TEXT)
        col.align = "left"
    for line in lines:
        col.add(line, fonts.small if title else fonts.body, palette.TEXT, gap=m // 3, max_lines=3)
    if title is None:
        # Centre the message block vertically in the panel.
        used = col.y - (o.y + 2 * m)
        dy = max(0, (o.h - 4 * m - used) // 2)
        col.texts = [replace(t, y=t.y + dy) for t in col.texts]
    scene.texts += col.texts
    return scene


def help_scene(key_lines: Sequence[str], size: tuple[int, int], lang: str) -> Scene:
    """Developer mode's F1: how to close it, the key map, the menu keys and the keyboard note."""
    lines = [i18n.tr(lang, "help.close")] + list(key_lines) + [i18n.tr(lang, "keys.menu"),
                                                               i18n.tr(lang, "keys.note")]
    return _lines_scene("help", i18n.tr(lang, "help.title"), lines, size)


def message_scene(lines: Sequence[str], size: tuple[int, int], lang: str) -> Scene:
    """A few centred lines (shutdown confirmation, errors a player can act on)."""
    i18n._catalogue(lang)  # a bad language is refused here as everywhere
    return _lines_scene("message", None, lines, size)
