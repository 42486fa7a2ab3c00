"""The challenge games' table (presets 1-3): the pile as a fan, photo finishes, wrong slaps, challenges."""

from __future__ import annotations

from typing import Any

from device.rules import events as ev
from device.screen import i18n, palette
from device.screen.feed import Feed
from device.screen.layout import FAN_CARDS, Rect
from device.screen.scene.frame import Frame, fan_slots, info_box
from device.screen.scene.model import RGB, Box, CardSprite, ChooserView, Scene, Text
from device.screen.scene.text import Para, fit, line_height

CARDS_AT_TOP = False


def banner_text(event: ev.Event, lang: str, names: list[str]) -> str | None:
    return None


def seat_status(game: Any, seat: int, lang: str) -> tuple[str, RGB] | None:
    """The seat that owes cards to a challenge, and how many."""
    if game.owed and game.current_seat() == seat:
        return i18n.tr(lang, "status.owes", n=game.owed), palette.TEXT_WARN
    return None


def _photo_lines(fr: Frame, feed: Feed, now_ns: int, lang: str, names: list[str]) -> list[tuple[int, list[Para]]]:
    """The slap's winner (kept first) and up to three runners-up (the first left out when room is short)."""
    photo = feed.live_photo(now_ns)
    if photo is None:
        return []
    nm = lambda s: i18n.seat_name(lang, names, s)
    head = i18n.slap_result(lang, nm(photo.winner), photo.margin_ns if photo.runners_up else None,
                            tie_window_ns=photo.tie_window_ns if photo.by_tie_rule else None)
    out: list[tuple[int, list[Para]]] = [
        (0, [(head.replace(" ms", "\u00a0ms").replace(" µs", "\u00a0µs"), fr.body, palette.TEXT_GOOD, 0)])]
    pattern = feed.won_pattern(now_ns)
    if pattern is not None:  # the pattern that made the slap valid: "Sandwich!"
        out.insert(0, (0, [(i18n.tr(lang, f"slap.named.{pattern}"), fr.body, palette.TEXT_GOOD, 0)]))
    for seat, offset in photo.runners_up[:3]:
        margin = i18n.format_ns(lang, offset).replace(" ", "\u00a0")  # never wrap "5.9 | ms"
        out.append((3, [(i18n.tr(lang, "slap.runner", name=nm(seat), margin=margin), fr.small, palette.TEXT_MUTED, 0)]))
    return out


def _wrong_lines(fr: Frame, feed: Feed, now_ns: int, lang: str, names: list[str],
                 patterns: tuple[str, ...] = ()) -> list[tuple[int, list[Para]]]:
    """"Wrong slap!" and its penalty (the banner and the seat box say it too: left out first)."""
    flash = feed.live_wrong(now_ns)
    if flash is None:
        return []
    name = i18n.seat_name(lang, names, flash.seat)
    if flash.locked_out:
        detail = i18n.tr(lang, "wrong.locked", name=name)
    elif flash.paid:
        detail = i18n.tr(lang, "wrong.penalty", name=name, n=flash.paid)
    else:
        detail = i18n.tr(lang, "wrong.none", name=name)
    out = [(1, [(i18n.tr(lang, "wrong.title"), fr.body, palette.TEXT_WARN, fr.m // 2)]),
           (4, [(detail, fr.small, palette.TEXT, 0)])]
    if patterns:  # what the pile did not show: "No doubles or sandwich here"
        shown = i18n.join_names(lang, [i18n.tr(lang, f"pattern.{p}") for p in patterns])
        out.append((5, [(i18n.tr(lang, "slap.not", patterns=shown), fr.small, palette.TEXT_MUTED, 0)]))
    return out


def draw(scene: Scene, fr: Frame, table: Any, feed: Feed, now_ns: int, lang: str, names: list[str], *,
         private_seat: int | None = None, chooser: ChooserView | None = None) -> None:
    """The pile as a fan, top card first (and its bottom card where top-bottom slaps count), or the
    cards just won; the info panel: a photo finish, a wrong slap, the challenge, the counts."""
    game = table.game
    pile = list(game.pile)
    base = game.pile_base
    top_bottom = "top-bottom" in game.patterns
    bottom, fan = fan_slots(fr.pile, fr.card_h, fr.m, top_bottom)
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

    # The info panel gives room instead of cutting: the state of play (the slap's winner, the
    # challenge, the collect) stays; the counts, then the runners-up and details go first.
    groups = (_photo_lines(fr, feed, now_ns, lang, names)
              + _wrong_lines(fr, feed, now_ns, lang, names, tuple(game.patterns)))
    collector = game.collector
    if collector is not None:
        groups.append((0, [(i18n.tr(lang, "event.collect_pending", name=i18n.seat_name(lang, names, collector)),
                            fr.small, palette.TEXT_GOOD, fr.m // 2)]))
    elif game.owed and game.current_seat() is not None:
        groups.append((0, [(i18n.tr(lang, "challenge.title"), fr.small, palette.TEXT_MUTED, fr.m // 2),
                           (i18n.seat_name(lang, names, game.turn), fr.body, palette.TEXT, 0),
                           (i18n.tr(lang, "challenge.left", n=game.owed), fr.body, palette.TEXT_WARN, 0)]))
    if n:
        groups.append((2, [(i18n.tr(lang, "pile.count", n=n), fr.small, palette.TEXT_MUTED, fr.m // 2)]))
    if game.pot:
        groups.append((2, [(i18n.tr(lang, "pot.count", n=len(game.pot)), fr.small, palette.TEXT_MUTED, 0)]))
    col = info_box(scene, fr)
    col.fill(groups)
    scene.texts += col.texts


def _caption(scene: Scene, fr: Frame, under: Rect, text: str, colour: RGB, *, left: int | None = None) -> None:
    """A line under a card, if the pile area has room for it."""
    y = under.bottom + fr.m // 2
    if y + line_height(fr.small) > fr.pile.bottom:
        return
    x = under.x if left is None else left
    width = fr.pile.right - x
    line, px = fit(text, fr.small, width, fr.floor)
    scene.texts.append(Text(x, y, px, line, colour, palette.TABLE, "left", width))
