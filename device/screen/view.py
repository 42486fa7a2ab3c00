"""Which scene the screen app shows now (message, help, attract, menu, game, pause, game over), and its hints.

The app (device.screen.app) holds the state; this module only reads it and hands it to the scene
builders (device.screen.scene), in the app's language. Hints are shown only where they mean
something: the keys of the people at the keyboard, and why keys read together are a tie only in a
game with slapping.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from device.inputs.keyboard import DEFAULT_KEYS
from device.screen import i18n
from device.screen.menu import CARD_PAGE
from device.screen.scene import party as party_scenes
from device.screen.scene.rules_card import PAGE_NS

if TYPE_CHECKING:
    from device.screen.app import App
    from device.table.table import Table


def scene_of(app: App) -> Any:
    """The scene ``app`` shows now."""
    sc = app.sc
    size = app.display.size
    lang = app.opts.settings.lang
    now = app.clock.now_ns()
    if app.message is not None:
        return sc.message_scene([i18n.tr(lang, key, **dict(kw)) for key, kw in app.message], size, lang)
    if app.help:
        return help_card(app, size, lang, now)
    match = app.match
    names = [app.party.name_of(i) for i in app.joined]
    if app.mode == "attract":
        return sc.attract_scene(match.table if match else None, match.feed if match else None,
                                now, size, lang, names)
    if app.mode == "join":
        return party_scenes.join_scene(app.party.join_view(now), size, lang)
    if app.mode == "names":
        return party_scenes.names_scene(app.party.names_view(), size, lang)
    if app.mode == "standings":
        return party_scenes.standings_scene(app.party.standings_view(now), size, lang)
    if app.mode == "menu" and app.menu.page == CARD_PAGE:
        s = app.opts.settings
        return sc.rules_card_scene(s.options, s.preset, size, lang, page=_page(app, now),
                                   time_limit_min=s.time_limit_min)
    if app.mode == "menu":
        return sc.menu_scene(app.menu.view(), size, lang, joined=names)
    if app.mode == "over" and match is not None:
        footer = ("over.again" if not app.party.in_match() else
                  "over.rematch" if app.party.match_over() else "over.match")
        return sc.over_scene(match.table, size, lang, app.leaderboard.rows(), footer_key=footer)
    if match is None:
        return sc.menu_scene(app.menu.view(), size, lang)
    note = keys_note(match.table, lang, app.opts.settings.flip_mode) if app.opts.source == "keyboard" else None
    seat = app.pending_human()
    if app.mode == "game" and seat is not None:
        if not app.private:
            return sc.pass_scene(seat, match.table.seats[seat].name, size, lang)
        actions = app.decisions()
        chooser = sc.chooser_view(match.table, seat, actions, app.chooser_cursor, lang)
        # the chooser needs the room the keys' note would take
        return sc.game_scene(match.table, match.feed, now, size, lang, chooser=chooser, private_seat=seat)
    scene = sc.game_scene(match.table, match.feed, now, size, lang, note=note)
    if app.mode == "pause":
        return sc.menu_scene(app.menu.view(), size, lang, background=scene)
    return scene


def keys_note(table: Table, lang: str, flip_mode: str = "auto") -> str:
    """Developer mode's note under the game: each keyboard player's keys for what this game
    uses, the menu and help keys, and (only with slapping) why keys read together are a tie."""
    people = [s for s in table.seats if not s.bot and s.station in DEFAULT_KEYS]
    lines = []
    for s in people:
        slap, flip = (k.upper() for k in DEFAULT_KEYS[s.station])  # type: ignore[index]
        if table.slapping:
            lines.append(i18n.tr(lang, "keys.station", station=s.name, slap=slap, flip=flip))
        elif table.game.family == "shedding":
            lines.append(i18n.tr(lang, "keys.station.choose", station=s.name, slap=slap))
        elif flip_mode == "buttons":
            lines.append(i18n.tr(lang, "keys.station.flip", station=s.name, flip=flip))
    text = " · ".join(lines + [i18n.tr(lang, "keys.menu")])
    return text + "\n" + i18n.tr(lang, "keys.note") if table.slapping and people else text


def help_lines(lang: str) -> list[str]:
    """F1's key map: each station's keys, in the screen's language."""
    return [i18n.tr(lang, "keys.station", station=i18n.tr(lang, "seat.default", n=s + 1),
                    slap=k[0].upper(), flip=k[1].upper()) for s, k in sorted(DEFAULT_KEYS.items())]


def help_card(app: App, size: tuple[int, int], lang: str, now: int) -> Any:
    """F1's help: the key map on its first page, then the rules card of the game on the table
    (or, outside a game, of the game being set up)."""
    match, s = app.match, app.opts.settings
    options, preset, minutes = s.options, s.preset, s.time_limit_min
    if match is not None and not match.attract and app.mode in ("game", "pause", "over"):
        options, preset = match.table.game.options, match.table.game.preset
        limit = match.table.settings.time_limit_ns  # the game's own (a timed match's game: its rest)
        minutes = None if limit is None else max(1, -(-limit // 60_000_000_000))
    lead = help_lines(lang) + [i18n.tr(lang, "keys.menu"), i18n.tr(lang, "keys.note")]
    return app.sc.rules_card_scene(options, preset, size, lang, page=_page(app, now),
                                   time_limit_min=minutes, lead=lead,
                                   lead_title=i18n.tr(lang, "help.title"),
                                   footer=i18n.tr(lang, "help.close"), kind="help")


def _page(app: App, now: int) -> int:
    """The rules card's page: the first one after the last input, the next one every PAGE_NS
    (nothing else turns them: a tap is the menu's, and keys wait while the help is up)."""
    return max(0, now - app.last_input) // PAGE_NS
