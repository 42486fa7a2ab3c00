"""The rules card (F1 and the House rules menu): it lists the game's active slap patterns, each with a
drawn pile the rules core calls by that pattern's name, and its house rules, legibly on both panels."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from device.inputs.press import MENU_STATION, Press  # noqa: E402
from device.rules.presets import PRESET_NAMES, PRESETS, SLAP_PATTERNS  # noqa: E402
from device.rules.slaps import slap_pattern  # noqa: E402
from device.screen import i18n  # noqa: E402
from device.screen.app import HOLD_NS, App  # noqa: E402
from device.screen.menu import CARD_PAGE, Menu, Settings  # noqa: E402
from device.screen.scene import (  # noqa: E402
    Scene,
    check_contrast,
    check_glyphs,
    check_text_clear,
    check_text_fits,
    line_height,
    rules_card_pages,
)
from device.screen.scene.rules_card import EXAMPLES, PAGE_NS, active_patterns, rule_lines  # noqa: E402
from device.screen.view import help_lines  # noqa: E402

MS = 1_000_000
SIZES = [(800, 480), (480, 320)]


def _name(lang: str, pattern: str) -> str:
    text = i18n.tr(lang, f"pattern.{pattern}")
    return text[:1].upper() + text[1:]


def drawn_examples(pages: list[Scene], lang: str) -> dict[str, list[int]]:
    """Each pattern named on the card, with the cards drawn under its name (oldest first, as the
    fan lays them left to right)."""
    by_name = {_name(lang, p): p for p in SLAP_PATTERNS}
    out: dict[str, list[int]] = {}
    for scene in pages:
        for c in scene.cards:
            # the label lines standing over this card's column, just above the cards
            label = [t for t in scene.texts if t.align == "left" and t.max_w is not None
                     and t.x <= c.x < t.x + t.max_w and c.y - 3 * line_height(t.px) <= t.y < c.y]
            name = " ".join(t.text for t in sorted(label, key=lambda t: t.y))
            assert name in by_name, f"card {c.card} is drawn under {name!r}, no pattern's name"
            assert c.face_up and c.card is not None
            out.setdefault(by_name[name], []).append(c.card)
    return out


def _all_text(pages: list[Scene]) -> str:
    return "\n".join(s.all_text() for s in pages)


def _toggle(settings: Settings, *patterns: str) -> None:
    """Switch patterns on or off as a player does: the House rules' patterns page, one hold each."""
    menu = Menu(settings, "rules:patterns")
    for p in patterns:
        menu.cursor = menu.items().index(f"pattern:{p}")
        menu.choose()


# --- the examples ------------------------------------------------------------------------------
@pytest.mark.parametrize("pattern", SLAP_PATTERNS)
def test_each_example_pile_is_slappable_and_the_box_calls_it_by_that_pattern(pattern):
    pile = EXAMPLES[pattern]
    assert 2 <= len(pile) <= 5
    assert slap_pattern(pile, (pattern,)) == pattern
    for wraps in (False, True):
        for colour in (False, True):
            # with every pattern on, no pattern named before it matches: "Sandwich!" for the sandwich
            assert slap_pattern(pile, SLAP_PATTERNS, run_wraps=wraps, marriage_colour=colour) == pattern


# --- what the card lists -----------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_the_card_lists_exactly_the_active_patterns_each_over_its_example(size):
    s = Settings(preset="egyptian-ratscrew", lang="en")
    pages = rules_card_pages(s.options, s.preset, size, "en")
    assert drawn_examples(pages, "en") == {"doubles": list(EXAMPLES["doubles"])}  # the preset's default
    _toggle(s, "run", "sandwich", "flush")
    assert active_patterns(s.options, s.preset) == ("doubles", "sandwich", "run", "flush")
    pages = rules_card_pages(s.options, s.preset, size, "en")
    drawn = drawn_examples(pages, "en")
    assert drawn == {p: list(EXAMPLES[p]) for p in ("doubles", "sandwich", "run", "flush")}
    text = _all_text(pages)
    for p in set(SLAP_PATTERNS) - set(drawn):
        assert _name("en", p) not in text
    _toggle(s, "sandwich")  # off again
    assert set(drawn_examples(rules_card_pages(s.options, s.preset, size, "en"), "en")) == {
        "doubles", "run", "flush"}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", SIZES)
def test_the_drawn_examples_match_their_pattern_for_the_rules_core(size, lang):
    options = {"slaps": list(SLAP_PATTERNS), "run_wraps": True, "marriage_colour": True}
    pages = rules_card_pages(options, "bataille-corse", size, lang)
    drawn = drawn_examples(pages, lang)
    assert list(drawn) == list(SLAP_PATTERNS)  # every pattern, in the rule book's order
    for pattern, pile in drawn.items():
        assert slap_pattern(pile, SLAP_PATTERNS, run_wraps=True, marriage_colour=True) == pattern


def test_a_slapping_game_has_a_line_for_its_penalties_and_its_patterns_options():
    s = Settings(preset="bataille-corse", lang="en", time_limit_min=10)
    _toggle(s, "run")
    s.options.update(wrong_slap="lockout-3", run_wraps=True, deck=108)
    lines = rule_lines(s.options, s.preset, "en", s.time_limit_min)
    assert lines == ["Wrong slap: no slapping for 3 cards", "Flip out of turn: no penalty",
                     "Tens stop a challenge: off", "Runs wrap (K-A-2): on",
                     "Deck: 108 cards", "Time limit: 10 min"]
    # the marriage's colour is listed once the marriage is on; the preset's own rules stay off
    _toggle(s, "marriage")
    assert "Marriage of one colour: off" in rule_lines(s.options, s.preset, "en")
    assert not any(ln.startswith("Borrow") for ln in rule_lines(s.options, s.preset, "en"))
    assert rule_lines(s.options, s.preset, "fr")[0] == "Fausse tape\u00a0: plus de tape pendant 3 cartes"
    text = _all_text(rules_card_pages(s.options, s.preset, (480, 320), "en", time_limit_min=10))
    for line in lines:
        assert line in text


@pytest.mark.parametrize("preset", [p for p in PRESET_NAMES if "slaps" not in PRESETS[p].defaults])
def test_a_game_without_slapping_lists_all_its_options_and_no_cards(preset):
    pages = rules_card_pages({}, preset, (480, 320), "en")
    assert all(not s.cards for s in pages)
    text = _all_text(pages)
    for name in PRESETS[preset].defaults:
        assert i18n.tr("en", f"option.{name}") + ":" in text


# --- legible on both panels, in both languages, with everything on -------------------------------
def _problems(pages: list[Scene]) -> list[str]:
    return [p for s in pages for p in check_contrast(s) + check_glyphs(s) + check_text_fits(s)
            + check_text_clear(s)]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", SIZES)
def test_with_every_pattern_and_rule_on_every_page_passes_the_legibility_checks(size, lang):
    options = {"slaps": list(SLAP_PATTERNS), "run_wraps": True, "marriage_colour": True,
               "wrong_slap": "lockout-10", "wrong_flip": "pot-1", "tens_stop": True, "deck": 108,
               "borrow": False, "borrow_spares_last": True, "out_when": "must-lay", "late_join": False,
               "max_rounds": 3000}
    pages = rules_card_pages(options, "bataille-corse", size, lang, time_limit_min=30)
    assert len(pages) > 1 and _problems(pages) == []
    assert i18n.tr(lang, "rulescard.page", page=len(pages), pages=len(pages)) in pages[-1].all_text()
    # the help: the key map on pages of its own first, then the same card
    lead = help_lines(lang) + [i18n.tr(lang, "keys.menu"), i18n.tr(lang, "keys.note")]
    helped = rules_card_pages(options, "bataille-corse", size, lang, time_limit_min=30, lead=lead,
                              lead_title=i18n.tr(lang, "help.title"), footer=i18n.tr(lang, "help.close"))
    assert _problems(helped) == [] and len(helped) > len(pages)
    assert all(line in helped[0].all_text() for line in help_lines(lang))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_games_card_passes_the_checks_at_both_sizes(preset):
    for size in SIZES:
        for lang in ("en", "fr"):
            assert _problems(rules_card_pages({}, preset, size, lang, time_limit_min=5)) == []


# --- the menu page and F1, driven through the app ---------------------------------------------------
def test_the_house_rules_page_opens_the_rules_card_and_it_goes_back():
    for preset in ("egyptian-ratscrew", "bataille"):
        menu = Menu(Settings(preset=preset), "rules")
        assert menu.items()[-2:] == [CARD_PAGE, "back"]
        menu.cursor = menu.items().index(CARD_PAGE)
        assert menu.choose() is None and menu.page == CARD_PAGE and menu.items() == ["up"]
        menu.choose()  # hold: back
        assert menu.page == "rules" and menu.current() == CARD_PAGE


def _hold(app: App, station: int, t: int) -> None:
    app.press(Press(station, "slap", "press", t, "gpio"), t)
    app.tick(t + HOLD_NS + 1)
    app.press(Press(station, "slap", "release", t + HOLD_NS + 50 * MS, "gpio"), t + HOLD_NS + 50 * MS)


def _key(app: App, key: int, t: int) -> None:
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""), t)
    app.handle_event(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=""), t + 50 * MS)


def test_the_menus_rules_card_shows_the_settings_rules_turns_its_pages_and_menu_goes_back(make_app):
    settings = Settings(preset="bataille-corse", players=3, lang="en", options={"slaps": list(SLAP_PATTERNS)})
    app = make_app(settings=settings)
    t = app.clock.now_ns()
    app.press(Press(1, "slap", "press", t, "gpio"), t)  # station 2 joins: the menu opens
    app.press(Press(1, "slap", "release", t + 80 * MS, "gpio"), t + 80 * MS)
    assert app.mode == "menu"
    app.menu.cursor = app.menu.items().index("rules")
    _hold(app, 1, t + 200 * MS)
    app.menu.cursor = app.menu.items().index(CARD_PAGE)
    _hold(app, 1, t + 1500 * MS)
    assert app.menu.page == CARD_PAGE
    first = app.scene()
    assert first.kind == "rules-card" and "Bataille Corse: house rules" in first.all_text()
    assert drawn_examples([first], "en") == {p: list(EXAMPLES[p]) for p in ("doubles", "sandwich")}
    app.clock.advance_to(app.last_input + PAGE_NS)  # a page's time after the hold that opened it
    second = app.scene()
    assert second.kind == "rules-card" and second != first  # the next page, by itself
    assert set(drawn_examples([second], "en")) == {"big-mac", "top-bottom"}
    t = app.clock.now_ns()
    app.press(Press(MENU_STATION, "menu", "press", t, "gpio"), t)
    app.press(Press(MENU_STATION, "menu", "release", t + 80 * MS, "gpio"), t + 80 * MS)
    assert app.mode == "menu" and app.menu.page == "rules" and app.menu.current() == CARD_PAGE
    assert app.scene().kind == "menu"


def test_f1_shows_the_key_map_then_the_rules_card_of_the_game_on_the_table(make_app):
    settings = Settings(preset="egyptian-ratscrew", players=2, lang="en",
                        options={"slaps": ["doubles", "marriage"], "wrong_slap": "gift"})
    app = make_app(settings=settings, start_now=True)
    t = app.clock.now_ns()
    _key(app, pygame.K_F1, t)
    assert app.help and app.match.table.paused
    keys = app.scene()
    assert keys.kind == "help" and "Esc or F1 closes this help" in keys.all_text()
    assert all(line in keys.all_text() for line in help_lines("en"))
    pages = []
    while len(pages) < 10:  # a page's time each: the game's rules, then round again to the keys
        app.clock.advance_by(PAGE_NS)
        if app.scene() == keys:
            break
        pages.append(app.scene())
    assert 1 <= len(pages) < 10
    assert all(p.kind == "help" and "Esc or F1 closes this help" in p.all_text() for p in pages)
    assert drawn_examples(pages, "en") == {p: list(EXAMPLES[p]) for p in ("doubles", "marriage")}
    text = _all_text(pages)
    assert "Egyptian Ratscrew: house rules" in text
    for line in ("Wrong slap: the pile to the next seat", "Marriage of one colour: off"):
        assert line in text
    _key(app, pygame.K_F1, app.clock.now_ns())
    assert not app.help and app.scene().kind == "game"
