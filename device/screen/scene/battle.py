"""The battle games' table (bataille, paix): each seat's cards of the round, stage by stage."""

from __future__ import annotations

from typing import Any

from device.rules import events as ev
from device.screen import i18n, palette
from device.screen.feed import Feed
from device.screen.layout import CARD_ASPECT, Rect
from device.screen.scene.frame import Frame, info_box
from device.screen.scene.model import RGB, Bar, Box, CardSprite, ChooserView, Scene

CARDS_AT_TOP = True


def banner_text(event: ev.Event, lang: str, names: list[str]) -> str | None:
    """A round's winner is named as such (the table collects the round for them)."""
    if isinstance(event, ev.CollectPending):
        return i18n.tr(lang, "round.winner", name=i18n.seat_name(lang, names, event.seat))
    return None


def seat_status(game: Any, seat: int, lang: str) -> tuple[str, RGB] | None:
    return None


def draw(scene: Scene, fr: Frame, table: Any, feed: Feed, now_ns: int, lang: str, names: list[str], *,
         private_seat: int | None = None, chooser: ChooserView | None = None) -> None:
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

    col = info_box(scene, fr)
    nm = lambda s: i18n.seat_name(lang, names, s)
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
