"""The game screen: the banner, the family's table, the seat strip and the note, as one Scene.

A game with a time limit shows the time left at the banner's right end in its last minute
("0:42"), then "Last trick!" while the trick in progress is played out."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from device.rules import events as ev
from device.rules.base import Family
from device.screen import i18n, palette
from device.screen.feed import Feed
from device.screen.layout import Rect
from device.screen.scene import battle, challenge, norvegienne
from device.screen.scene.frame import Frame, game_frame, name_lines, seat_names
from device.screen.scene.model import RGB, Bar, Box, ChooserView, Scene, Text
from device.screen.scene.text import fit, line_height, text_width, wrap
from device.table.timing import COUNTDOWN_NS, countdown


class FamilyScreen(Protocol):
    """What a game family's module adds to the game screen (see challenge, battle, norvegienne)."""

    #: the family's cards start at the top of the pile area (else they are centred in it)
    CARDS_AT_TOP: bool

    def banner_text(self, event: ev.Event, lang: str, names: list[str]) -> str | None:
        """The banner's words for ``event`` where the family words it its own way, else None."""

    def draw(self, scene: Scene, fr: Frame, table: Any, feed: Feed, now_ns: int, lang: str,
             names: list[str], *, private_seat: int | None, chooser: ChooserView | None) -> None:
        """The family's cards in the pile area and its lines in the info panel."""

    def seat_status(self, game: Any, seat: int, lang: str) -> tuple[str, RGB] | None:
        """The family's own status line under a seat's name (after the common ones), or None."""


FAMILIES: dict[Family, FamilyScreen] = {"challenge": challenge, "battle": battle, "shedding": norvegienne}


def _tone(tone: str) -> RGB:
    return {"good": palette.TEXT_GOOD, "warn": palette.TEXT_WARN}.get(tone, palette.TEXT)


def game_scene(table: Any, feed: Feed, now_ns: int, size: tuple[int, int], lang: str, *,
               note: str | None = None, chooser: ChooserView | None = None,
               private_seat: int | None = None) -> Scene:
    """The table during a game: banner, pile (or battle stages, or norvégienne), info panel, seats.

    ``private_seat`` (norvégienne, after "pass the box"): that seat's hand and ``chooser`` are shown;
    without it, no hand is ever drawn."""
    family = FAMILIES[table.game.family]
    if note is not None and note in i18n.CATALOGUES[lang]:
        note = i18n.tr(lang, note)  # a catalogue key ("keys.note") or the text itself
    names = seat_names(table)
    fr = game_frame(size, len(table.seats), note, name_lines(size, names))
    scene = Scene(size, "game")
    # A long banner may take a second line where the cards leave room above them.
    cards_top = fr.pile.y + (fr.pile.h - fr.card_h) // 2
    if family.CARDS_AT_TOP or private_seat is not None:
        cards_top = fr.pile.y
    banner_bottom = _banner(scene, fr, feed, now_ns, lang, names, cards_top, family,
                            _clock_text(table, now_ns, lang))
    if banner_bottom + fr.m > fr.info.y:  # a two-line banner: the info panel starts under it
        top = banner_bottom + fr.m
        fr = replace(fr, info=Rect(fr.info.x, top, fr.info.w, fr.info.bottom - top))
    family.draw(scene, fr, table, feed, now_ns, lang, names, private_seat=private_seat, chooser=chooser)
    _seats(scene, fr, table, feed, now_ns, lang, family)
    _note(scene, fr)
    scene.card_numbers = tuple(sorted(c.number for c in scene.cards if c.number is not None))
    return scene


def _clock_text(table: Any, now_ns: int, lang: str) -> str | None:
    """The time limit's corner: the time left in the last minute, "Last trick!" once it ran out
    while a trick goes on; None otherwise (no limit, time to spare, the game over)."""
    if table.game.outcome() is not None:
        return None
    if table.time_up:
        return i18n.tr(lang, "time.last_trick")
    left = table.time_left_ns(now_ns)
    return countdown(left) if left is not None and left <= COUNTDOWN_NS else None


def _banner(scene: Scene, fr: Frame, feed: Feed, now_ns: int, lang: str, names: list[str],
            cards_top: int, family: FamilyScreen, clock: str | None = None) -> int:
    """The latest event on the banner; a long sentence takes a second line if the cards leave
    room, else it shrinks, else it is cut. ``clock`` (the time limit's corner) takes the
    banner's right end, the sentence the rest."""
    b = fr.banner
    items = feed.banner(now_ns, 1)
    text = ""
    if items:
        e = items[0].event
        own = family.banner_text(e, lang, names)
        text = own if own is not None else i18n.describe(e, lang, names)
    colour = _tone(items[0].tone) if items else palette.TEXT
    width = b.w - 2 * fr.m
    clock_px = fr.body
    if clock is not None:
        clock, clock_px = fit(clock, fr.body, b.w // 3, fr.floor)
        width -= text_width(clock, clock_px) + fr.m
    room = cards_top - b.y - fr.m // 2
    rect = b
    px, lines = _banner_lines(text, fr.body, fr.floor, width, room, fr.m)
    if not lines and items:
        # too long even on two small lines (long names at a crowded table): first names only
        short = [n.replace("-", " ").split(" ")[0] for n in names]
        own = family.banner_text(items[0].event, lang, short)
        text = own if own is not None else i18n.describe(items[0].event, lang, short)
        px, lines = _banner_lines(text, fr.body, fr.floor, width, room, fr.m)
    if not lines and text:
        line, px = fit(text, fr.body, width, fr.floor)
        lines = [line]
    if len(lines) == 2:
        rect = Rect(b.x, b.y, b.w, 2 * line_height(px) + fr.m)
    scene.boxes.append(Box(rect, palette.BANNER_BG))
    y = rect.y + (rect.h - len(lines) * line_height(px)) // 2
    for line in lines:
        scene.texts.append(Text(b.x + fr.m, y, px, line, colour, palette.BANNER_BG, "left", width))
        y += line_height(px)
    if clock is not None:
        cy = rect.y + (rect.h - line_height(clock_px)) // 2
        scene.texts.append(Text(rect.right - fr.m, cy, clock_px, clock, palette.TEXT_WARN, palette.BANNER_BG,
                                "right", text_width(clock, clock_px)))
    return rect.bottom


def _banner_lines(text: str, body: int, floor: int, width: int, room: int, margin: int
                  ) -> tuple[int, list[str]]:
    """The banner's lines at the largest size that shows ``text`` whole: one line, or two where
    the cards leave ``room``; ([] when neither fits down to ``floor``)."""
    if not text:
        return body, []
    for px in range(body, floor - 1, -1):
        lines = wrap(text, px, width)
        if len(lines) == 1:
            return px, lines
        if len(lines) == 2 and 2 * line_height(px) + margin <= room:
            return px, lines
    return body, []


def _seat_status(table: Any, feed: Feed, seat: int, now_ns: int, lang: str,
                 family: FamilyScreen) -> tuple[str, RGB]:
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
    own = family.seat_status(game, seat, lang)
    if own is not None:
        return own
    if game.current_seat() == seat:
        return i18n.tr(lang, "status.turn"), palette.TEXT
    if s.bot:
        return i18n.tr(lang, "status.bot"), palette.TEXT_MUTED
    return "", palette.TEXT_MUTED


def _seats(scene: Scene, fr: Frame, table: Any, feed: Feed, now_ns: int, lang: str,
           family: FamilyScreen) -> None:
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
        rows = max(2, text.h // lh)  # the name's lines, then the status
        lines, at = _name_lines(table.seats[seat].name, small, text.w, text.w - cw - fr.m // 2, rows - 1)
        y = text.y + (text.h - rows * lh) // 2
        for i, line in enumerate(lines):
            w = text.w - (cw + fr.m // 2 if i == at else 0)
            name, px = fit(line, small, w, fr.floor)
            scene.texts.append(Text(text.x, y + i * lh, px, name, palette.TEXT, bg, "left", w))
        scene.texts.append(Text(text.right, y + at * lh, small, count, palette.TEXT, bg, "right", cw))
        status, colour = _seat_status(table, feed, seat, now_ns, lang, family)
        if status:
            line, px = fit(status, small, text.w, fr.floor)
            scene.texts.append(Text(text.x, y + (rows - 1) * lh, px, line, colour, bg, "left", text.w))


def _name_lines(name: str, px: int, full: int, short: int, most: int) -> tuple[list[str], int]:
    """A seat's name on at most ``most`` lines ``full`` wide, one of them ``short`` enough to hold
    the card count, and which: one line if it fits beside the count, else two lines broken at a
    space or after a hyphen (the most even break), else broken inside the word."""
    if text_width(name, px) <= short or most < 2:
        return [name], 0
    breaks = [(name[:i], name[i + 1:]) for i, ch in enumerate(name) if ch == " "]
    breaks += [(name[:i + 1], name[i + 1:]) for i, ch in enumerate(name[:-1]) if ch == "-"]
    for at, (first, second) in ((0, (short, full)), (1, (full, short))):
        fits = [(a, b) for a, b in breaks if a and b and text_width(a, px) <= first and text_width(b, px) <= second]
        if fits:
            a, b = min(fits, key=lambda ab: abs(text_width(ab[0], px) - text_width(ab[1], px)))
            return [a, b], at
    for at, (first, second) in ((0, (short, full)), (1, (full, short))):
        for i in range(len(name) - 1, 1, -1):  # the longest first part, with a hyphen
            a, b = name[:i].rstrip() + ("" if name[i - 1] in " -" else "-"), name[i:].lstrip()
            if b and text_width(a, px) <= first and text_width(b, px) <= second:
                return [a, b], at
    return [name], 0  # too long even on two lines: cut (the checks flag it)


def _note(scene: Scene, fr: Frame) -> None:
    if fr.note is None:
        return
    scene.boxes.append(Box(fr.note, palette.BANNER_BG))
    y = fr.note.y + fr.m // 2
    for line in fr.note_lines:
        scene.texts.append(Text(fr.m, y, fr.small, line, palette.TEXT_MUTED, palette.BANNER_BG, "left",
                                fr.size[0] - 2 * fr.m))
        y += line_height(fr.small)
