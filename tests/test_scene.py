"""The scene model: what the screen shows for a given table state, decided without pygame."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from device.clock import VirtualClock
from device.rules import events as ev
from device.rules.actions import Lay, Slap
from device.rules.cards import card, parse_deal
from device.rules.norvegienne import NorvegienneGame
from device.rules.rng import Streams
from device.screen import palette, samples
from device.screen.feed import Feed
from device.screen.layout import Rect, min_card_height
from device.screen.menu import Menu, Settings
from device.screen.scene import (
    Bar,
    Box,
    CardSprite,
    Scene,
    Text,
    check_contrast,
    check_glyphs,
    check_text_clear,
    check_text_fits,
    chooser_view,
    ellipsize,
    fit,
    game_scene,
    menu_scene,
    norvegienne_chooser,
    over_scene,
    pass_scene,
    text_width,
    wrap,
)
from device.table.arbiter import Award, WrongSlapCall
from device.table.runner import Runner
from device.table.session import GameSpec, make_table
from device.table.table import Judged, Seat, Table, ToShow

MS = 1_000_000
SIZES = [(480, 320), (800, 480)]
NAMES = ["Anna", "Ben", "Chloé", "David"]


def _seats(n: int) -> list[Seat]:
    return [Seat(i, NAMES[i], station=i, bot=False) for i in range(n)]


def _table(preset: str, deal: str, options: dict | None = None) -> Table:
    packs = parse_deal(deal)
    spec = GameSpec(preset, 1, _seats(len(packs)), dict(options or {}), packs)
    return make_table(spec, start_ns=0)


def _lay_cards(table: Table, n: int) -> Feed:
    """The table lays ``n`` cards at its tempo (nobody slaps); the feed sees everything."""
    feed = Feed()
    clock = VirtualClock(0)
    runner = Runner(table, clock, outputs=[feed.push])
    target = table.card_no + n
    t = 0
    while table.card_no < target:
        t += 50 * MS
        runner.run_virtual(limit_ns=t)
    return feed


def _texts(scene: Scene) -> str:
    """Every text of the scene, wrapped lines joined again (and no-break spaces as spaces)."""
    return " ".join(scene.all_text().split())


# --- the pile --------------------------------------------------------------------------------

def test_the_pile_shows_the_top_cards_of_the_pile_in_order_with_their_card_numbers():
    table = _table("bataille-corse", "2345678/9-----", {"slaps": ["doubles"]})
    feed = _lay_cards(table, 7)
    game = table.game
    assert len(game.pile) == 7
    scene = game_scene(table, feed, table.now_ns, (800, 480), "en")
    sprites = sorted(scene.cards, key=lambda c: c.x)
    assert [c.card for c in sprites] == game.pile[-4:]  # fanned left to right, top card last
    assert [c.number for c in sprites] == [game.pile_base + i + 1 for i in range(3, 7)]
    assert scene.card_numbers == (4, 5, 6, 7)
    assert all(c.face_up for c in sprites)
    assert "7 cards in the pile" in _texts(scene)


def test_top_and_bottom_on_shows_the_bottom_card_apart_from_the_fan():
    table = _table("bataille-corse", "2345678/9-----", {"slaps": ["doubles", "top-bottom"]})
    feed = _lay_cards(table, 6)
    scene = game_scene(table, feed, table.now_ns, (480, 320), "en")
    sprites = sorted(scene.cards, key=lambda c: c.x)
    assert sprites[0].card == table.game.pile[0] and sprites[0].number == 1
    assert [c.card for c in sprites[1:]] == table.game.pile[-4:]
    assert "bottom" in _texts(scene)


def test_an_empty_pile_shows_no_card_and_no_card_number():
    table = _table("bataille-corse", "2345678/9-----")
    scene = game_scene(table, Feed(), 0, (480, 320), "en")
    assert scene.cards == [] and scene.card_numbers == ()


# --- slaps -----------------------------------------------------------------------------------

def test_after_a_slap_the_info_panel_names_the_winner_and_the_margin():
    table = _table("bataille-corse", "2345678/9-----")
    feed = _lay_cards(table, 2)
    t = table.now_ns
    award = Award(2, 1, t + 400 * MS, ((1, t + 400 * MS),), ((0, t + 403_200_000),), 3_200_000, False)
    feed.push(Judged(1, award), t + 410 * MS)
    scene = game_scene(table, feed, t + 420 * MS, (480, 320), "en")
    text = " ".join(_texts(scene).split())
    assert "Ben first by 3.2 ms" in text
    assert "Anna (+3.2" in text
    fr = " ".join(_texts(game_scene(table, feed, t + 420 * MS, (800, 480), "fr")).split())
    assert "Ben d'abord, avec 3,2" in fr


def test_a_tie_says_the_rotation_chose_the_winner():
    table = _table("bataille-corse", "2345678/9-----")
    feed = Feed(tie_window_ns=1 * MS)
    t = 5_000 * MS
    award = Award(2, 0, t + 400_000, ((0, t + 400_000), (1, t)), (), 400_000, True)  # Ben a hair earlier
    feed.push(Judged(0, award), t + 10 * MS)
    scene = game_scene(table, feed, t + 20 * MS, (800, 480), "en")
    assert "Tie (< 1 ms): rotation chose Anna" in " ".join(_texts(scene).split())
    assert "Ben (+400" in _texts(scene)


def test_a_wrong_slap_flashes_on_its_seat_with_its_penalty():
    table = _table("bataille-corse", "2345678/9-----", {"wrong_slap": "pot-2"})
    feed = _lay_cards(table, 1)
    t = table.now_ns
    feed.push(Judged(1, WrongSlapCall(1, t, 1)), t)
    for e in table.game.apply(Slap(1, at_card=1)):
        feed.push(e, t)
    scene = game_scene(table, feed, t + 100 * MS, (800, 480), "en")
    text = " ".join(_texts(scene).split())
    assert "Wrong slap!" in text and "Ben pays 2 cards to the pot" in text
    assert "wrong slap" in text  # Ben's seat box
    later = game_scene(table, feed, t + 10_000 * MS, (800, 480), "en")
    assert "Wrong slap!" not in _texts(later)


def test_a_locked_out_seat_shows_locked_out():
    table = _table("egyptian-ratscrew", "2345678/9-----/3333", {"wrong_slap": "lockout"})
    feed = _lay_cards(table, 1)
    for e in table.game.apply(Slap(2, at_card=1)):
        feed.push(e, table.now_ns)
    scene = game_scene(table, feed, table.now_ns + 5000 * MS, (480, 320), "en")
    seat_texts = [t.text for t in scene.texts if t.y > scene.size[1] * 0.8]
    assert "locked out" in seat_texts


def test_the_banner_keeps_the_won_pile_over_a_seat_coming_back():
    feed = Feed()
    feed.push(ev.PileWon(2, "slap:doubles", 14), 1000)
    feed.push(ev.SeatBack(2), 1000)
    feed.push(ev.Laid(0, card(5, 0)), 2000)
    assert isinstance(feed.banner(3000)[0].event, ev.PileWon)
    assert isinstance(feed.banner(10_000 * MS)[0].event, ev.Laid)  # once the win has expired


def test_the_challenge_count_says_how_many_are_left():
    table = _table("bataille-corse", "K2345678/9-----")
    feed = _lay_cards(table, 2)  # a King, then one of the 3 attempts
    assert table.game.owed == 2
    scene = game_scene(table, feed, table.now_ns, (800, 480), "en")
    text = _texts(scene)
    assert "Challenge" in text and "2 left" in text and "owes 2" in text
    assert feed.challenge is not None and feed.challenge.left == 2


def test_the_feed_is_deterministic_given_the_same_items_and_times():
    items = [(ToShow(1, 0, card(5, 0)), 10), (ev.Laid(0, card(5, 0)), 10), (ev.Owes(1, 3), 20),
             (ev.PileWon(0, "challenge", 4), 30)]
    a, b = Feed(), Feed()
    for item, t in items:
        a.push(item, t)
        b.push(item, t)
    assert a.lines == b.lines and a.won == b.won and a.challenge is None
    assert a.won is not None and a.won.cards == ((1, card(5, 0)),)


# --- bataille / paix -------------------------------------------------------------------------

def test_a_battle_shows_each_seats_stack_with_consecutive_card_numbers():
    m = samples.moment("battle")
    scene = game_scene(m.table, m.feed, m.now_ns, (800, 480), "en")
    assert any(not c.face_up for c in scene.cards)  # the battle's face-down cards
    numbers = sorted(c.number for c in scene.cards)
    assert numbers == list(range(m.table.card_no - len(numbers) + 1, m.table.card_no + 1))
    assert "Battle!" in _texts(scene)


def test_a_battle_rounds_winner_leaves_the_banner_when_the_next_rounds_first_card_is_laid():
    table = _table("bataille", "2K3456/A45678")
    feed = Feed()
    runner = Runner(table, VirtualClock(0), outputs=[feed.push])
    t = 0
    while table.card_no < 3:  # round 1 (K beats 2 ... A beats 2), then round 2's first card
        t += 10 * MS
        runner.run_virtual(limit_ns=t)
    scene = game_scene(table, feed, t, (800, 480), "en")
    assert "wins the round" not in _texts(scene) and "takes the round" not in _texts(scene)


# --- norvégienne -----------------------------------------------------------------------------

def _norv_table() -> Table:
    c = card
    game = NorvegienneGame.from_position(
        {}, hands=[[c(3, 0), c(3, 1), c(9, 2)], [c(4, 0), c(11, 1), c(13, 2)]],
        up=[[c(5, 0), c(12, 0), c(14, 0)], [c(6, 1), c(7, 2), c(8, 3)]],
        down=[[c(2, 0)] * 3, [c(2, 1)] * 3], stock=[c(10, 3)], pile=[c(2, 3)], turn=0, streams=Streams(1))
    return Table(game, _seats(2), start_ns=0)


def test_a_norvegienne_hand_appears_only_for_the_private_seat():
    table = _norv_table()
    hand = set(table.game.hands[0])
    public = game_scene(table, Feed(), 0, (480, 320), "en")
    assert not hand & {s.card for s in public.cards}
    chooser, actions = norvegienne_chooser(table, 0, "en")
    private = game_scene(table, Feed(), 0, (480, 320), "en", chooser=chooser, private_seat=0)
    assert hand <= {s.card for s in private.cards}
    assert not set(table.game.hands[1]) & {s.card for s in private.cards}
    assert "Lay two 3s" in chooser.options and len(actions) == len(chooser.options)
    assert chooser.options[0] in _texts(private)


def test_norvegienne_seats_show_their_face_up_cards_and_the_counts():
    table = _norv_table()
    text = _texts(game_scene(table, Feed(), 0, (800, 480), "en"))
    assert "5 Q A" in text and "6 7 8" in text
    assert "stock: 1" in text


def test_the_chooser_raises_the_cards_of_the_option_under_the_cursor():
    table = _norv_table()
    chooser, actions = norvegienne_chooser(table, 0, "en")
    i = chooser.options.index("Lay two 3s")
    chooser = type(chooser)(chooser.title, chooser.options, i, chooser.cards)
    scene = game_scene(table, Feed(), 0, (800, 480), "en", chooser=chooser, private_seat=0)
    threes = [s for s in scene.cards if s.card in (card(3, 0), card(3, 1))]
    nine = next(s for s in scene.cards if s.card == card(9, 2))
    assert all(s.y < nine.y for s in threes)


# --- menus and the other screens ------------------------------------------------------------

def test_the_menu_highlights_the_item_under_the_cursor_and_shows_values():
    menu = Menu(Settings(lang="en"), "rules:penalties")
    menu.settings.preset = "bataille-corse"
    menu.cursor = 0
    scene = menu_scene(menu.view(), (480, 320), "en", joined=["Anna"])
    highlighted = [t.text for t in scene.texts if t.bg == palette.HIGHLIGHT_BG]
    assert highlighted and highlighted[-1].startswith("» ")
    assert "pot" in _texts(scene).lower()  # the penalty item reads its value
    assert "1 player joined: Anna" in _texts(scene)


def test_pass_the_box_names_the_seat_and_draws_no_card():
    scene = pass_scene(2, "Chloé", (480, 320), "en")
    assert scene.cards == []
    assert "Pass the box to seat 3, press to look" in " ".join(_texts(scene).split("\n"))


def test_game_over_names_the_winner_and_charts_the_mean_reaction_per_player():
    m = samples.moment("over")
    scene = over_scene(m.table, (800, 480), "en", samples.LEADERBOARD)
    text = _texts(scene)
    winner = m.table.seats[m.table.game.outcome().winner].name  # whoever the bots let win
    assert "Game over" in text and f"{winner} wins!" in text
    chain = m.table.longest_chain
    assert chain >= 2 and f"Longest challenge chain: {chain} face cards" in text and "Leaderboard" in text
    assert text.index("Chloé 9 4 61 9") < text.index("Anna 7 2 40 14")  # the board's order
    stats = m.table.seat_stats()
    chart = [b for b in scene.bars if b.fill in palette.SEAT_COLOURS]
    assert len(chart) == sum(s["mean_reaction_ms"] is not None for s in stats)
    slowest = max(range(len(stats)), key=lambda i: stats[i]["mean_reaction_ms"] or 0)
    assert max(chart, key=lambda b: b.rect.w).fill == palette.seat_colour(slowest)


# --- checks ----------------------------------------------------------------------------------

def test_check_glyphs_flags_a_card_under_the_floor_and_contrast_a_faint_text():
    small = min_card_height(480, 320) - 10
    scene = Scene((480, 320), "test", cards=[CardSprite(card(5), 0, 0, small), CardSprite(None, 0, 0, 40, False)],
                  texts=[Text(0, 0, 22, "faint", (120, 120, 120), (100, 100, 100))])
    assert len(check_glyphs(scene)) == 1 and "glyph" in check_glyphs(scene)[0]
    assert len(check_contrast(scene)) == 1 and "'faint'" in check_contrast(scene)[0]


@pytest.mark.parametrize("size", SIZES, ids=["480x320", "800x480"])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("name", samples.NAMES)
def test_every_scene_meets_glyph_size_and_contrast_and_stays_in_the_window(name, lang, size):
    scene = samples.build(name, size, lang)
    assert check_glyphs(scene) == []
    assert check_contrast(scene) == []
    assert check_text_fits(scene) == []  # nothing cut, wider than its box or out of the window
    assert check_text_clear(scene) == []  # nothing over other text, a box's edge, a card or under a panel
    w, h = size
    for t in scene.texts:
        width = text_width(t.text, t.px)
        left = {"left": t.x, "center": t.x - width // 2, "right": t.x - width}[t.align]
        assert left >= 0 and left + width <= w and 0 <= t.y and t.y + t.px * 0.76 <= h + 1, (t.text, t)
        if t.max_w is not None:
            assert width <= t.max_w + 1, (t.text, width, t.max_w)
    for c in scene.cards:
        assert 0 <= c.x and c.x + c.width <= w and 0 <= c.y and c.y + c.height <= h, c
    for b in scene.bars:
        assert isinstance(b, Bar) and b.rect.x >= 0 and b.rect.right <= w


@pytest.mark.parametrize("size", [(320, 240), (1024, 600), (1920, 1080), (600, 1024)],
                         ids=["320x240", "1024x600", "1920x1080", "portrait"])
def test_other_window_sizes_keep_the_glyph_floor(size):
    for name in ("game", "battle", "norvegienne", "photo-finish", "game-dev"):
        scene = samples.build(name, size, "fr")
        assert check_glyphs(scene) == [] and check_contrast(scene) == []


def test_text_helpers_wrap_fit_and_cut():
    assert wrap("one two three", 22, text_width("one two", 22)) == ["one two", "three"]
    text, px = fit("a long sentence", 24, text_width("a long sentence", 23), 20)
    assert text == "a long sentence" and px <= 23
    cut = ellipsize("a very long sentence indeed", 22, 80)
    assert cut.endswith("…") and text_width(cut, 22) <= 80


def test_an_unknown_sample_is_refused_with_the_list():
    with pytest.raises(samples.SampleError, match="unknown scene 'nope' .*attract"):
        samples.build("nope", (480, 320))


def test_the_scene_model_imports_no_pygame():
    code = ("import sys, device.screen.scene, device.screen.feed, device.screen.samples; "
            "sys.exit('pygame' in sys.modules)")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    assert subprocess.run([sys.executable, "-c", code], cwd=root).returncode == 0


def test_lay_helper_really_lays():
    # Guard for the helper above: the table lays through Lay actions at its tempo.
    table = _table("bataille-corse", "2345/6789")
    _lay_cards(table, 3)
    assert table.card_no == 3 and isinstance(table.game.legal_actions()[0], Lay)


def test_chooser_view_words_a_seats_actions_from_the_game_alone():
    table = _norv_table()
    actions = table.legal_decisions()
    view = chooser_view(table.game, 0, actions, 5, "fr")
    assert len(view.options) == len(actions) and view.cursor == 5 % len(actions)
    assert "Poser deux 3" in view.options and view.title == "Place 1, à vous"


def test_the_feed_words_its_banner_in_its_own_language_and_names():
    feed = Feed(lang="en", names=["Anna", "Ben", "Chloé"])
    feed.push(ev.PileWon(2, "slap:doubles", 14), 1000)
    assert feed.banner_text(2000) == "Chloé slaps the double and takes 14 cards"
    assert feed.banner_text(2000, "fr") == "Chloé tape le doublé et ramasse 14 cartes"


def test_a_note_given_as_a_catalogue_key_is_translated():
    table = _table("bataille-corse", "2345678/9-----")
    scene = game_scene(table, Feed(), 0, (800, 480), "en", note="keys.note")
    assert "Keys are stamped when read" in _texts(scene)


@pytest.mark.parametrize("preset", ["norvegienne", "bataille"])
def test_the_end_of_a_game_without_slapping_shows_no_slap_statistics(preset):
    m = samples.play_until(preset, 3, 1, lambda *_: False)
    assert m.table.game.outcome() is not None and not m.table.slapping
    for size in SIZES:
        for lang, words in (("en", ("slaps", "wrong", "reaction", "best")),
                            ("fr", ("tapes", "fausses", "réaction", "record"))):
            texts = {t.text for t in over_scene(m.table, size, lang, samples.LEADERBOARD).texts}
            assert not texts & set(words), (size, lang, texts)


def test_check_text_fits_flags_a_cut_text_a_text_wider_than_its_box_and_one_outside_the_window():
    ink, bg = palette.TEXT, palette.TABLE
    scene = Scene((480, 320), "test", texts=[
        Text(0, 0, 22, "11 cards in t…", ink, bg), Text(0, 40, 22, "3 cartes sur le tas", ink, bg, max_w=40),
        Text(470, 80, 22, "off the edge", ink, bg), Text(0, 120, 22, "fine", ink, bg, max_w=200)])
    assert [e.split(": ", 1)[1] for e in check_text_fits(scene)] == [
        "text '11 cards in t…' is cut",
        f"text '3 cartes sur le tas' is {text_width('3 cartes sur le tas', 22)} px wide in a box of 40 px",
        "text 'off the edge' leaves the window"]


def test_check_text_clear_flags_text_over_text_across_a_box_on_a_card_and_under_a_panel():
    ink, bg = palette.TEXT, palette.TABLE
    scene = Scene((480, 320), "test", texts=[
        Text(0, 0, 22, "one", ink, bg), Text(10, 5, 22, "two", ink, bg),
        Text(95, 100, 22, "edge", ink, bg), Text(300, 10, 22, "on a card", ink, bg),
        Text(200, 250, 22, "hidden", ink, bg), Text(0, 290, 22, "clear", ink, bg)],
        boxes=[Box(Rect(0, 90, 100, 40), palette.PANEL_BG), Box(Rect(150, 240, 200, 40), palette.PANEL_BG, layer=1),
               Box(Rect(0, 0, 480, 320), palette.BLACK, alpha=140, layer=1)],
        cards=[CardSprite(card(5), 320, 0, 100)])
    found = [e.split(": ", 1)[1] for e in check_text_clear(scene)]
    assert found == ["text 'one' overlaps text 'two'", "text 'edge' crosses the edge of a box at (0, 90, 100, 40)",
                     "text 'on a card' lies on the card at (320, 0)",
                     "text 'hidden' is under a panel at (150, 240, 200, 40)"]


@pytest.mark.parametrize("size", SIZES, ids=["480x320", "800x480"])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("name", [n for n in samples.NAMES if n not in ("menu", "rules", "pass", "help", "shutdown")])
def test_a_full_table_of_16_character_names_shows_every_name_whole(name, lang, size):
    # 8 seats (4 in bataille and paix), every name NAME_MAX long: a name takes two lines, never cut.
    from device.table.config import NAME_MAX
    assert {len(n) for n in samples.LONG_NAMES} == {NAME_MAX} and len(samples.LONG_NAMES) == 8
    scene = samples.build(name, size, lang, crowd=True)
    assert check_glyphs(scene) == [] and check_contrast(scene) == [] and check_text_clear(scene) == []
    assert check_text_fits(scene) == []  # nothing cut: not the banner, not the game-over tables
    if scene.kind in ("game", "attract", "menu"):
        strip = [t for t in scene.texts if t.layer == 0 and t.y > size[1] // 2 and t.bg != palette.BANNER_BG]
        assert all(not t.text.endswith("…") for t in strip), [t.text for t in strip]
        squeeze = lambda text: text.replace("-", "").replace(" ", "")
        joined = squeeze("".join(t.text for t in strip))
        seats = len(samples.moment("battle" if name in ("battle", "peace") else "game", True).table.seats)
        if scene.kind == "game":  # (a menu or the attract panel may hide the strip)
            assert sum(squeeze(n) in joined for n in samples.LONG_NAMES) == seats, joined


def test_a_long_word_breaks_after_its_hyphen_else_with_one_and_the_panel_leaves_out_whole_lines():
    from device.screen.scene.text import Column
    assert wrap("Anne-Sophie", 22, text_width("Anne-Sop", 22)) == ["Anne-", "Sophie"]
    lines = wrap("Bartholomew", 22, text_width("Bartho-", 22))
    assert all(ln.endswith("-") for ln in lines[:-1]) and "".join(ln.rstrip("-") for ln in lines) == "Bartholomew"
    col = Column(Rect(0, 0, 200, 60), palette.PANEL_BG, 4)
    col.fill([(0, [("kept first", 22, palette.TEXT, 0)]), (4, [("a detail " * 6, 22, palette.TEXT, 0)]),
              (2, [("count", 22, palette.TEXT, 0)])])
    assert [t.text for t in col.texts] == ["kept first", "count"]
