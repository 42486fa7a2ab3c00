"""The screen's building blocks: colours, words, card art, layout and sounds, off-screen."""

from __future__ import annotations

import inspect
import itertools
import logging
import os
import subprocess
import sys
import tempfile

# Headless SDL before pygame is imported anywhere in this process.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from device.rules import events as ev  # noqa: E402
from device.rules.cards import ANY_NUMBER, JOKER, card, make_deck  # noqa: E402
from device.rules.presets import OPTIONS, PRESET_NAMES, SLAP_PATTERNS  # noqa: E402
from device.screen import cardart, i18n, layout, palette  # noqa: E402
from device.screen.sound import NAMES, Sounds, synthesize  # noqa: E402

SIZES = [(320, 240), (480, 320), (800, 480), (1024, 600), (1280, 720), (1920, 1080),
         (640, 480), (600, 1024), (2560, 400)]
NAMES_3 = ["Anna", "Ben", "Chloé"]


# --- palette --------------------------------------------------------------------------------------

def test_contrast_ratio_matches_wcag_reference_values():
    assert palette.contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert palette.contrast_ratio((255, 255, 255), (255, 255, 255)) == pytest.approx(1.0)
    # WCAG's own example pair: #777 on white is just under 4.5:1.
    assert palette.contrast_ratio((0x77, 0x77, 0x77), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("label,fg,bg", palette.TEXT_PAIRS, ids=[p[0] for p in palette.TEXT_PAIRS])
def test_every_text_and_background_pair_is_at_least_4_5_to_1(label, fg, bg):
    assert palette.contrast_ratio(fg, bg) >= 4.5, label


def test_eight_distinct_seat_colours():
    assert len(set(palette.SEAT_COLOURS)) == 8
    for a, b in itertools.combinations(palette.SEAT_COLOURS, 2):
        assert sum(abs(x - y) for x, y in zip(a, b)) > 60


def test_contrast_ratio_rejects_a_bad_colour_with_a_clear_message():
    with pytest.raises(ValueError, match=r"fg .* is not an \(r, g, b\)"):
        palette.contrast_ratio((300, 0, 0), (0, 0, 0))


# --- i18n -----------------------------------------------------------------------------------------

def test_both_catalogues_have_the_same_keys_and_placeholders():
    fr, en = i18n.CATALOGUES["fr"], i18n.CATALOGUES["en"]
    assert set(fr) == set(en), set(fr) ^ set(en)
    for key in en:
        assert i18n.placeholders(fr[key]) == i18n.placeholders(en[key]), key


def test_catalogues_use_only_characters_the_bundled_font_draws():
    allowed_extra = set("œŒ…’–—")
    for lang, cat in i18n.CATALOGUES.items():
        for key, text in cat.items():
            bad = {ch for ch in text if ord(ch) > 0xFF and ch not in allowed_extra}
            assert not bad, (lang, key, bad)


def _event_classes() -> set[type]:
    return {c for _, c in inspect.getmembers(ev, inspect.isclass)
            if issubclass(c, ev.Event) and c is not ev.Event}


SAMPLE_EVENTS = [
    ev.Laid(0, card(12, 1)), ev.Laid(1, card(7, 0), borrowed_from=0), ev.Laid(2, card(3, 2), face_up=False),
    ev.Laid(0, card(JOKER, 0)), ev.Laid(0, card(ANY_NUMBER, 0)),
    ev.Owes(1, 3), ev.Owes(1, 1), ev.CollectPending(0),
    ev.PileWon(2, "slap:doubles", 12, 2), ev.PileWon(0, "challenge", 11), ev.PileWon(0, "last-seat", 5),
    ev.PileWon(1, "round", 4), ev.PileWon(1, "forfeit", 3), ev.PileWon(1, "slap:sandwich", 6),
    ev.PileWon(1, "slap:top-bottom", 6), ev.PileWon(1, "slap:marriage", 6), ev.PileWon(1, "slap:tens", 6),
    ev.WrongSlap(0, 2), ev.WrongSlap(0, 1), ev.WrongSlap(0, 0), ev.WrongSlap(0, 0, locked_out=True),
    ev.LockedOut(1), ev.SeatOut(2), ev.SeatBack(2), ev.Joined(3),
    ev.ChallengeStopped(1), ev.Unlocked(1), ev.WrongFlip(0, 1), ev.WrongFlip(0, 0),
    ev.PileWon(1, "slap:run", 6), ev.PileWon(1, "slap:flush", 6), ev.PileWon(1, "gift", 6),
    ev.Battle((0, 1), 1), ev.Battle((0, 1, 2), 2, peace=True),
    ev.Swapped(0, card(7, 1), card(14, 0)),
    ev.Played(0, (card(12, 0), card(12, 1))), ev.Played(1, (card(5, 3),), "up"),
    ev.Played(1, (card(9, 2),), "down"), ev.TookUp(0, (card(5, 0), card(9, 1), card(13, 2))),
    ev.Drew(0, 2), ev.Drew(0, 1), ev.PickedUp(1, 9), ev.Burned(0, 7, "ten"), ev.Burned(0, 8, "four"),
    ev.Skipped((1,)), ev.Skipped((1, 2)), ev.AceTarget(0, 1),
    ev.Revealed(0, card(10, 0), True), ev.Revealed(0, card(4, 0), False), ev.Finished(1, 1),
    ev.GameOver("win", 2), ev.GameOver("draw", None), ev.GameOver("loop", None),
    ev.GameOver("limit", 0), ev.GameOver("limit", None),
]


def test_every_event_class_has_a_description_in_both_languages():
    classes = _event_classes()
    names = {c.__name__ for c in classes}
    assert names <= set(i18n.DESCRIBERS), names - set(i18n.DESCRIBERS)
    assert {type(e) for e in SAMPLE_EVENTS} == classes
    for e, lang in itertools.product(SAMPLE_EVENTS, i18n.LANGUAGES):
        text = i18n.describe(e, lang, NAMES_3)
        assert text and "{" not in text and text != type(e).__name__, (e, lang, text)
        assert text[0].isupper(), text


def test_pilewon_slap_doubles_reads_chloe_slaps_the_double_and_takes_14_cards():
    e = ev.PileWon(2, "slap:doubles", 12, 2)
    assert i18n.describe(e, "en", NAMES_3) == "Chloé slaps the double and takes 14 cards"
    assert i18n.describe(e, "fr", NAMES_3) == "Chloé tape le doublé et ramasse 14 cartes"


def test_cards_and_seats_are_named_in_each_language():
    assert i18n.describe(ev.Laid(0, card(12, 1)), "en", NAMES_3) == "Anna lays the Queen of hearts"
    assert i18n.describe(ev.Laid(0, card(12, 1)), "fr", NAMES_3) == "Anna pose la dame de cœur"
    assert i18n.describe(ev.Owes(4, 1), "en") == "Seat 5 owes 1 card"
    assert i18n.describe(ev.Owes(4, 1), "fr") == "Place 5 doit 1 carte"
    assert i18n.describe(ev.Battle((0, 1, 2), 1), "en", NAMES_3) == "Battle! Anna, Ben and Chloé"


def test_slap_result_gives_margin_runners_up_and_tie():
    en = i18n.slap_result("en", "Chloé", 3_200_000, [("Ben", 3_200_000), ("Anna", 12_000_000)])
    assert en == "Chloé first by 3.2 ms, then Ben (+3.2 ms) and Anna (+12 ms)"
    fr = i18n.slap_result("fr", "Chloé", 3_200_000)
    assert fr == "Chloé d'abord, avec 3,2\u00a0ms d'avance".replace("\u00a0", " ")
    assert i18n.slap_result("en", "Anna", 400_000, tie_window_ns=1_000_000) == "Tie (< 1 ms): rotation chose Anna"


def test_ui_keys_cover_presets_options_and_their_values():
    for lang in i18n.LANGUAGES:
        for p in PRESET_NAMES:
            assert i18n.tr(lang, f"preset.{p}")
        for name, spec in OPTIONS.items():
            assert i18n.tr(lang, f"option.{name}")
            if spec.kind == "choice" and isinstance(spec.choices[0], str):
                for v in spec.choices:
                    assert i18n.tr(lang, f"value.{name}.{v}")
        for p in SLAP_PATTERNS:
            assert i18n.tr(lang, f"pattern.{p}")
    assert i18n.tr("fr", "preset.norvegienne") == "Bataille norvégienne"
    assert i18n.tr("en", "challenge.left", n=3) == "3 left"
    assert i18n.tr("en", "pass.to", n=3) == "Pass the box to seat 3, press to look"
    assert "same frame" in i18n.tr("en", "keys.note")


def test_french_plural_is_singular_for_zero_and_one():
    assert i18n.tr("fr", "cards", n=0) == "0 carte"
    assert i18n.tr("en", "cards", n=0) == "0 cards"
    assert i18n.tr("en", "cards", n=1) == "1 card"


def test_french_keeps_punctuation_on_the_line():
    assert i18n.tr("fr", "wrong.title") == "Fausse tape\u00a0!"


def test_bad_language_key_or_placeholder_gives_a_clear_message():
    with pytest.raises(ValueError, match="language 'de': expected one of fr, en"):
        i18n.tr("de", "menu.quit")
    with pytest.raises(ValueError, match="no text 'menu.nope'"):
        i18n.tr("en", "menu.nope")
    with pytest.raises(ValueError, match="needs 'n'"):
        i18n.tr("en", "status.owes")


# --- layout ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("seats", range(1, 9))
def test_layout_rectangles_are_inside_the_window_and_do_not_overlap(size, seats):
    w, h = size
    lay = layout.compute_layout(w, h, seats)
    window = layout.Rect(0, 0, w, h)
    for name, r in lay.regions.items():
        assert window.contains(r) and r.w > 0 and r.h > 0, (name, r)
    for (na, a), (nb, b) in itertools.combinations(lay.regions.items(), 2):
        assert not a.overlaps(b), (na, nb)
    assert len(lay.seats) == seats
    for box in lay.seats:
        assert lay.strip.contains(box.rect) and box.rect.contains(box.tag) and box.rect.contains(box.text)
        assert box.text.h >= 2 * layout.Fonts.line(lay.fonts.small)
    for a, b in itertools.combinations(lay.seats, 2):
        assert not a.rect.overlaps(b.rect)
    for r in (*lay.fan, lay.bottom_card):
        assert lay.pile.contains(r)
    assert all(not lay.bottom_card.overlaps(r) for r in lay.fan)
    assert window.contains(lay.overlay)
    assert lay.card_h >= layout.min_card_height(w, h)


def test_the_glyph_floor_is_24_px_at_480x320_and_36_px_at_800x480():
    assert layout.min_glyph_px(480, 320) == 24
    assert layout.min_glyph_px(800, 480) == 36


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_rank_glyphs_meet_the_minimum_at_the_layout_card_height(size):
    lay = layout.compute_layout(*size)
    assert cardart.rank_glyph_height(lay.card_h) >= lay.min_glyph


@pytest.mark.parametrize("size", [(480, 320), (800, 480)], ids=["480x320", "800x480"])
def test_text_is_at_least_16_px_at_the_reference_sizes(size):
    fonts = layout.compute_layout(*size).fonts
    pygame.font.init()
    for s in (fonts.small, fonts.body, fonts.title, fonts.big):
        assert layout.Fonts.line(s) >= 16
        assert pygame.font.Font(None, s).get_linesize() >= 16
        assert pygame.font.Font(None, s).get_linesize() <= layout.Fonts.line(s)


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (1920, 1080)], ids=["480", "800", "1920"])
def test_fan_leaves_each_lower_cards_corner_index_visible(size):
    # Doubles and sandwiches are judged by eye: the rank under the top card must show.
    lay = layout.compute_layout(*size)
    step = lay.fan[0].x - lay.fan[1].x
    w, _ = cardart.card_size(lay.card_h)
    for r in (*range(2, 15), ANY_NUMBER):
        glyph_right = round(cardart._INDEX_X * w) + cardart.corner_glyph(card(r), lay.card_h).get_width()
        assert glyph_right < step, r


def test_layout_refuses_a_tiny_window_and_bad_seat_counts():
    with pytest.raises(layout.LayoutError, match="window 300x200 is too small"):
        layout.compute_layout(300, 200)
    with pytest.raises(layout.LayoutError, match="9 seats"):
        layout.compute_layout(480, 320, 9)


def test_pure_modules_import_no_pygame():
    code = ("import sys; import device.screen.palette, device.screen.i18n, device.screen.layout; "
            "sys.exit('pygame' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=os.path.dirname(os.path.dirname(__file__))).returncode == 0


# --- card art -------------------------------------------------------------------------------------

def _heights() -> list[int]:
    return [layout.compute_layout(480, 320).card_h, layout.compute_layout(800, 480).card_h]


@pytest.mark.parametrize("height", _heights())
def test_every_card_of_a_108_deck_and_the_back_render_off_screen(height):
    size = cardart.card_size(height)
    cards = sorted(set(make_deck(108))) + [card(ANY_NUMBER, s) for s in range(4)]
    for c in cards:
        surf = cardart.render_card(c, height)
        assert surf.get_size() == size
        assert surf.get_flags() & pygame.SRCALPHA
        assert surf.get_at((0, 0)).a == 0          # rounded corner is transparent
        assert surf.get_at((size[0] // 2, 2)).a == 255
        assert cardart.render_card(c, height) is surf  # cached
    back = cardart.render_back(height)
    assert back.get_size() == size and back.get_at((0, 0)).a == 0


def _reds(surf: pygame.Surface) -> int:
    w, h = surf.get_size()
    return sum(1 for x in range(0, w, 2) for y in range(0, h, 2)
               if (p := surf.get_at((x, y))).r > 150 and p.g < 80 and p.b < 80 and p.a > 200)


def test_hearts_and_diamonds_are_red_spades_and_clubs_black():
    h = 150
    for s, red in ((0, False), (1, True), (2, True), (3, False)):
        assert (_reds(cardart.render_card(card(9, s), h)) > 50) is red, s


def test_the_four_suits_are_four_different_shapes():
    h = 200
    w, _ = cardart.card_size(h)
    box = pygame.Rect(w // 2 - 20, round(0.11 * h), 40, round(0.16 * h))  # the big upper suit
    masks = []
    for s in range(4):
        surf = cardart.render_card(card(9, s), h).subsurface(box)
        masks.append(frozenset((x, y) for x in range(box.w) for y in range(box.h)
                               if max(surf.get_at((x, y))[:3]) < 230))
    for a, b in itertools.combinations(masks, 2):
        assert len(a ^ b) > 40


def test_jokers_any_number_cards_and_backs_look_different_from_number_cards():
    h = 150
    raw = {name: pygame.image.tobytes(surf, "RGBA") for name, surf in (
        ("joker", cardart.render_card(card(JOKER, 0), h)), ("any", cardart.render_card(card(ANY_NUMBER, 0), h)),
        ("two", cardart.render_card(card(2, 0), h)), ("back", cardart.render_back(h)))}
    assert len(set(raw.values())) == 4


def test_bad_cards_and_heights_give_a_clear_message():
    with pytest.raises(ValueError, match="card 5: expected rank"):
        cardart.render_card(5, 100)
    with pytest.raises(ValueError, match="card height 5"):
        cardart.render_card(card(2), 5)


def test_sample_row_is_saved_for_a_human_to_look_at():
    h = layout.compute_layout(800, 480).card_h
    w, _ = cardart.card_size(h)
    row = [card(14, 0), card(10, 1), card(12, 2), card(11, 3), card(13, 1), card(7, 0),
           card(ANY_NUMBER, 2), card(JOKER, 0), card(JOKER, 1)]
    out = pygame.Surface(((w + 8) * (len(row) + 1) + 8, h + 16))
    out.fill(palette.TABLE)
    for i, c in enumerate(row):
        out.blit(cardart.render_card(c, h), (8 + i * (w + 8), 8))
    out.blit(cardart.render_back(h), (8 + len(row) * (w + 8), 8))
    path = os.path.join(tempfile.gettempdir(), "cardart_sample.png")
    pygame.image.save(out, path)
    assert os.path.getsize(path) > 1000


# --- sound ----------------------------------------------------------------------------------------

@pytest.fixture
def fresh_mixer():
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()


def test_sounds_play_on_the_dummy_driver(fresh_mixer, caplog):
    with caplog.at_level(logging.WARNING, logger="slapbox.sound"):
        sounds = Sounds.open(0.5)
    assert not sounds.silent and not caplog.records
    for name in NAMES:
        sounds.play(name)
    sounds.set_volume(0.0)
    sounds.play("slap")
    with pytest.raises(ValueError, match="sound 'boing': expected one of"):
        sounds.play("boing")
    with pytest.raises(ValueError, match="volume 2: expected a number from 0 to 1"):
        sounds.set_volume(2)


def test_no_audio_device_gives_a_silent_box_and_one_log_line(fresh_mixer, monkeypatch, caplog):
    monkeypatch.setenv("SDL_AUDIODRIVER", "nonexistent")
    with caplog.at_level(logging.WARNING, logger="slapbox.sound"):
        sounds = Sounds.open(0.8)
        for name in NAMES:
            sounds.play(name)
        sounds.set_volume(0.3)
    assert sounds.silent
    assert len(caplog.records) == 1 and caplog.records[0].name == "slapbox.sound"
    assert "no audio device" in caplog.records[0].getMessage()


@pytest.mark.parametrize("name", NAMES)
def test_synthesized_sounds_are_short_16_bit_and_not_silent(name):
    samples = synthesize(name, 22050, 2)
    assert samples.typecode == "h" and len(samples) % 2 == 0
    assert 0.03 < len(samples) / 2 / 22050 < 1.2
    assert max(abs(v) for v in samples) > 5000
    assert samples[0::2] == samples[1::2]


def test_without_an_audio_device_the_box_prints_one_line_at_most(tmp_path):
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_AUDIODRIVER", "PULSE_SERVER")}
    env["XDG_RUNTIME_DIR"] = str(tmp_path)  # no sound server's socket there
    code = ("import logging, sys; logging.basicConfig(stream=sys.stderr, format='%(message)s'); "
            "from device.screen.sound import Sounds, no_audio_reason; "
            "sys.exit(0 if no_audio_reason() else 3); ")
    if subprocess.run([sys.executable, "-c", code], env=env).returncode == 3:
        pytest.skip("this machine has a sound card")
    code = ("import logging, sys; logging.basicConfig(stream=sys.stderr, format='%(message)s'); "
            "from device.screen.sound import Sounds; s = Sounds.open(0.5); s.play('slap'); s.close(); "
            "import pygame; pygame.quit()")
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0
    assert p.stderr.count("\n") <= 1 and "ALSA lib" not in p.stderr and "XDG" not in p.stderr, p.stderr


def test_no_audio_reason_reads_the_sound_cards_and_the_servers_sockets(tmp_path, monkeypatch):
    from device.screen.sound import no_audio_reason
    monkeypatch.delenv("SDL_AUDIODRIVER", raising=False)
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    cards = tmp_path / "cards"
    cards.write_text("--- no soundcards ---\n")
    assert no_audio_reason(str(cards), str(tmp_path)) == "no sound card, no sound server"
    assert no_audio_reason(str(tmp_path / "absent"), str(tmp_path)) == "no sound card, no sound server"
    cards.write_text(" 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n")
    assert no_audio_reason(str(cards), str(tmp_path)) is None
    cards.write_text("--- no soundcards ---\n")
    (tmp_path / "pipewire-0").touch()
    assert no_audio_reason(str(cards), str(tmp_path)) is None
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    assert no_audio_reason(str(tmp_path / "absent"), "") is None
