"""The norvégienne table: the pile's top cards, the hand of the seat holding the box, its choices in words."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from device.rules import actions as act
from device.rules import events as ev
from device.rules.cards import rank
from device.screen import i18n, palette
from device.screen.feed import Feed
from device.screen.layout import CARD_ASPECT, FAN_STEP, Rect
from device.screen.scene.frame import Frame, fan_slots, info_box, seat_names
from device.screen.scene.model import RGB, Bar, Box, CardSprite, ChooserView, Scene, Text
from device.screen.scene.text import Column, fit, line_height

CARDS_AT_TOP = False


def banner_text(event: ev.Event, lang: str, names: list[str]) -> str | None:
    return None


def seat_status(game: Any, seat: int, lang: str) -> tuple[str, RGB] | None:
    """A seat's face-up cards: they are public (whose turn it is shows by the highlighted box)."""
    if game.up[seat]:
        return " ".join(_short(c) for c in game.up[seat]), palette.TEXT
    return None


def draw(scene: Scene, fr: Frame, table: Any, feed: Feed, now_ns: int, lang: str, names: list[str], *,
         private_seat: int | None = None, chooser: ChooserView | None = None) -> None:
    """The pile and the counts for all to see; after "pass the box", ``private_seat``'s hand and
    ``chooser`` instead."""
    if private_seat is not None:
        _private(scene, fr, table, private_seat, chooser, lang, names)
    else:
        _public(scene, fr, table, feed, now_ns, lang, names)


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


def _pile_cards(scene: Scene, fr: Frame, table: Any, slots: list[Rect], h: int) -> None:
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


def _counts(col: Column, fr: Frame, game: Any, lang: str) -> None:
    col.add(i18n.tr(lang, "pile.count", n=len(game.pile)), fr.small, palette.TEXT_MUTED, gap=fr.m // 2,
            max_lines=2)
    col.add(i18n.tr(lang, "stock.count", n=len(game.stock)), fr.small, palette.TEXT_MUTED, max_lines=1)
    col.add(i18n.tr(lang, "burned.count", n=len(game.burned)), fr.small, palette.TEXT_MUTED, max_lines=1)


def _public(scene: Scene, fr: Frame, table: Any, feed: Feed, now_ns: int, lang: str,
                 names: list[str]) -> None:
    game = table.game
    _, fan = fan_slots(fr.pile, fr.card_h, fr.m, False)
    _pile_cards(scene, fr, table, fan, fr.card_h)
    col = info_box(scene, fr)
    nm = lambda s: i18n.seat_name(lang, names, s)
    if game.phase == "swap" and game.current_seat() is not None:
        col.add(i18n.tr(lang, "swap.phase", name=nm(game.current_seat())), fr.small, palette.TEXT)
    if game.target is not None:
        col.add(i18n.tr(lang, "ace.answer", name=nm(game.target)), fr.small, palette.TEXT_WARN)
    burn = feed.live_burn(now_ns)
    if burn is not None:
        col.add(i18n.tr(lang, f"event.burned.{burn.why}" if burn.why in ("ten", "four") else "event.burned",
                        name=nm(burn.seat), cards=i18n.tr(lang, "cards", n=burn.cards)),
                fr.small, palette.TEXT_GOOD)
    _counts(col, fr, game, lang)
    scene.texts += col.texts


def _private(scene: Scene, fr: Frame, table: Any, seat: int, chooser: ChooserView | None,
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
    _pile_cards(scene, fr, table, [pile_slot], h)
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
    col = Column(Rect(area.x, ty, area.w, area.bottom - ty), palette.TABLE, 0)
    if chooser is not None and chooser.options:
        col.add(chooser.title, fr.small, palette.TEXT_MUTED, max_lines=1)
        cur = chooser.cursor % len(chooser.options)
        pad = max(2, fr.m // 2)
        top = col.y  # the highlight stays clear of the title's line
        if col.add("» " + chooser.options[cur], fr.body, palette.TEXT, max_lines=1):
            scene.boxes.append(Box(Rect(area.x - pad, top, area.w + 2 * pad,
                                        col.y + pad // 2 - top), palette.HIGHLIGHT_BG, radius=fr.m))
            col.texts[-1] = replace(col.texts[-1], bg=palette.HIGHLIGHT_BG)
        if len(chooser.options) > 1:
            nxt = chooser.options[(cur + 1) % len(chooser.options)]
            col.add("  " + nxt, fr.small, palette.TEXT_MUTED, max_lines=1, gap=max(2, fr.m // 2))
        col.add(i18n.tr(lang, "menu.nav"), fr.small, palette.TEXT_MUTED, max_lines=1)
    else:
        col.add(i18n.tr(lang, "stock.count", n=len(game.stock)) + "   "
                + i18n.tr(lang, "burned.count", n=len(game.burned)), fr.small, palette.TEXT_MUTED)
    scene.texts += col.texts


# --- norvégienne choices -------------------------------------------------------------------------

def norvegienne_chooser(table: Any, seat: int, lang: str, cursor: int = 0) -> tuple[ChooserView, list[act.Action]]:
    """The choices of ``seat`` (whose decision the table waits for), in words, with their actions
    (``options[i]`` says ``actions[i]``)."""
    actions = table.legal_decisions() if table.pending_decision() == seat else []
    return chooser_view(table, seat, actions, cursor, lang), actions


def chooser_view(table_or_game: Any, seat: int, actions: Sequence[act.Action], cursor: int, lang: str) -> ChooserView:
    """``actions`` (a seat's legal decisions) in words, for the screen's chooser. Pass the table
    rather than the game to name the Ace's targets by their players' names."""
    names = seat_names(table_or_game) if hasattr(table_or_game, "seats") else []
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
