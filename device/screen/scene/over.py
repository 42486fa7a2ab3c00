"""The game-over screen: the winner, each seat's statistics and the leaderboard."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from device.screen import i18n, palette
from device.screen.layout import Rect, compute_layout
from device.screen.scene.frame import seat_names
from device.screen.scene.model import RGB, Bar, Scene, Text
from device.screen.scene.text import ellipsize, fit, line_height, text_width


def _over_title(table: Any, lang: str) -> tuple[str, str]:
    names = seat_names(table)
    outcome = table.game.outcome()
    title = i18n.tr(lang, "over.title")
    if outcome is None:
        return title, ""
    if outcome.winner is not None:
        return title, i18n.tr(lang, "over.winner", name=i18n.seat_name(lang, names, outcome.winner))
    key = {"loop": "over.loop", "limit": "over.limit", "time": "over.time"}.get(outcome.termination, "over.draw")
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
    while cols > 1 and nums_w + 4 * px > area.w:  # the last columns go before the names are cut
        cols -= 1
        nums_w -= widths.pop() + gap
    first_w = min(first_w, area.w - nums_w - gap)
    bar_w = area.w - first_w - nums_w - gap if bars is not None else 0
    if bar_w < 3 * m:
        bar_w = 0
    lh = line_height(px)
    y = area.y
    for ri, row in enumerate([header] + rows):
        if y + lh > area.bottom:
            break
        colour = palette.TEXT_MUTED if ri == 0 else (colours[ri - 1] if colours else palette.TEXT)
        label = row[0]
        if text_width(label, floor) > first_w - gap // 2:
            label = label.replace("-", " ").split(" ")[0]  # a long name: its first name
        name, npx = fit(label, px, first_w - gap // 2, floor)
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
               page: int = 0, footer_key: str = "over.again") -> Scene:
    """Game over: the winner, then per seat its mean reaction (a bar), slaps won and wrong slaps (in
    a game without slapping: its cards), the longest challenge chain, and the leaderboard (games
    and wins only, without slapping) (``page`` 1: the leaderboard alone, for small
    screens where it does not fit under the game's statistics). ``footer_key``: what a hold and
    a tap do (a single game, or a game of a match)."""
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
    footer = i18n.tr(lang, footer_key)  # what a hold and a tap do here
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
        if table.game.has_challenges:
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
        if not table.slapping:  # a game without slapping: its players' slap records mean nothing here
            header, rows = header[:3], [r[:3] for r in rows]
        elif w < 600:  # a small panel: the reaction columns would crowd out the names
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
