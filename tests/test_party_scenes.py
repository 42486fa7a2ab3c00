"""The party screens as pure scenes: the button check / join screen, the name pickers and a match's
standings, legible at both panel sizes and in both languages, from 1 to 8 players with 16-character
names, and drawn by the renderer (SDL's dummy driver)."""

from __future__ import annotations

import os

import pytest

from device.screen import i18n, palette, samples
from device.screen.scene import (
    Scene,
    check_contrast,
    check_text_clear,
    check_text_fits,
    join_scene,
    names_scene,
    standings_scene,
    text_width,
)
from device.screen.scene.model import JoinView, NamesView, PickerView, StandingRow, StandingsView, StationTile
from device.screen.scene.party import PROBLEMS
from device.table.config import NAME_MAX

# Headless SDL for the renderer (pygame is imported by the render test only, after this).
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

SIZES = [(800, 480), (480, 320)]
SIZE_IDS = ["800x480", "480x320"]
LANGS = ["en", "fr"]
COUNTS = [1, 4, 8]
NAMES = ("Marie-Hélène Roy",) + samples.LONG_NAMES[1:]
FIX = {"en": {"stuck": "free the button", "chatter": "check its wires", "lost": "check the wiring",
              "full": "wait for a seat"},
       "fr": {"stuck": "libérez le bouton", "chatter": "vérifiez ses fils",
              "lost": "vérifiez le câblage", "full": "attendez une place"}}
READY = {"en": "ready", "fr": "prêt"}


def _clean(scene: Scene) -> None:
    assert check_contrast(scene) == []
    assert check_text_fits(scene) == []   # nothing cut, wider than its box or out of the window
    assert check_text_clear(scene) == []  # nothing over other text or across a panel's edge


def _words(scene: Scene) -> str:
    return " ".join(t.text for t in scene.texts).replace("\u00a0", " ")


def _say(lang: str, key: str, **kw: object) -> str:
    """The words of ``key`` as ``_words`` reads them (no-break spaces as spaces)."""
    return i18n.tr(lang, key, **kw).replace("\u00a0", " ")


def _squeezed(scene: Scene) -> str:
    """The scene's words without spaces and hyphens: a name wrapped over two lines still reads."""
    return _words(scene).replace(" ", "").replace("-", "")


def _has_name(scene: Scene, name: str) -> bool:
    return name.replace(" ", "").replace("-", "") in _squeezed(scene)


def _tiles(n: int, problems: tuple[str | None, ...] = (None, "stuck", None, "chatter", "lost"),
           ) -> tuple[StationTile, ...]:
    """n stations: every third one not joined yet, the first lit, problems in turn."""
    return tuple(StationTile(s, s % 3 != 2, s if s % 3 != 2 else None, NAMES[s], problems[s % len(problems)],
                             lit=s == 0) for s in range(n))


def test_the_long_names_are_as_long_as_a_name_may_be():
    assert {len(n) for n in NAMES} == {NAME_MAX} and len(NAMES) == 8


# --- the button check / join screen ----------------------------------------------------------------

@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_join_screen_shows_every_station_its_player_and_what_to_do_about_a_stuck_button(size, lang, n):
    tiles = _tiles(n, ("stuck", None, None))
    scene = join_scene(JoinView(tiles, bots=8 - n, can_start=True), size, lang)
    _clean(scene)
    assert scene.kind == "join"
    words = _words(scene)
    assert _say(lang, "join.title") in words
    for t in tiles:
        assert _say(lang, "join.station", n=t.station + 1) in words
        assert _has_name(scene, t.name) == t.joined, t
    assert FIX[lang]["stuck"] in words
    assert (READY[lang] in words) == any(t.joined and t.problem is None for t in tiles)
    assert (_say(lang, "join.bots", n=8 - n) if n < 8 else _say(lang, "join.bots.none")) in words


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("problem", PROBLEMS)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_every_problem_is_named_on_its_station_with_what_to_do(size, lang, problem, n):
    tiles = tuple(StationTile(s, s % 2 == 0, s if s % 2 == 0 else None, NAMES[s], problem) for s in range(n))
    scene = join_scene(JoinView(tiles, bots=0, can_start=True), size, lang)
    _clean(scene)
    words = _words(scene)
    assert _say(lang, f"join.problem.{problem}") in words and FIX[lang][problem] in words


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_three_different_problems_at_eight_stations_each_stay_named_on_their_tile(size, lang):
    scene = join_scene(JoinView(_tiles(8), bots=0, can_start=True), size, lang)
    _clean(scene)
    words = _words(scene)
    assert all(_say(lang, f"join.problem.{p}") in words for p in ("stuck", "chatter", "lost"))
    assert FIX[lang]["stuck"] in words  # the first advice always has room


def test_a_station_not_joined_is_a_grey_dash_and_a_lit_one_is_framed():
    tiles = (StationTile(0, True, 0, "Anna", lit=True), StationTile(1, False, None, "Ben"))
    scene = join_scene(JoinView(tiles, bots=1, can_start=True), (480, 320), "en")
    assert "—" in [t.text for t in scene.texts] and "Ben" not in _words(scene)
    frames = [b for b in scene.boxes if b.fill is None and b.border is not None]
    assert len(frames) == 1
    anna = next(t for t in scene.texts if t.text == "Anna")
    frame = frames[0].rect
    assert frame.x < anna.x < frame.right and frame.y < anna.y < frame.bottom
    dash = next(t for t in scene.texts if t.text == "—")
    assert dash.colour != anna.colour and not frame.x < dash.x < frame.right


@pytest.mark.parametrize("lang", LANGS)
def test_the_footer_counts_the_bots_and_says_how_to_start_or_to_join(lang):
    one = StationTile(0, True, 0, "Anna")
    ready = _words(join_scene(JoinView((one,), bots=1, can_start=True), (480, 320), lang))
    assert _say(lang, "join.bots", n=1) in ready and _say(lang, "join.hint") in ready
    none = StationTile(0, False, None, "Anna")
    waiting = _words(join_scene(JoinView((none,), bots=0, can_start=False), (480, 320), lang))
    assert _say(lang, "join.bots.none") in waiting and _say(lang, "join.wait") in waiting
    assert {"en": "Press a button to join", "fr": "Appuyez sur un bouton pour jouer"}[lang] in waiting


# --- the name pickers ------------------------------------------------------------------------------

def _pickers(n: int) -> tuple[PickerView, ...]:
    """n pickers, every stage in turn: a remembered name, new name, keep the default, the wheel on a
    letter, on delete, on space with nothing typed, done."""
    stages = [{"stage": "list", "current": NAMES[0]}, {"stage": "list", "current_key": "names.new"},
              {"stage": "list", "current_key": "names.keep"},
              {"stage": "wheel", "typed": NAMES[3][:15], "letter": "t", "upcoming": ("u", "v", "w", "x")},
              {"stage": "wheel", "typed": "Anne", "letter_key": "wheel.delete",
               "upcoming": ("wheel.done", "a")},
              {"stage": "done", "name": NAMES[5]},
              {"stage": "wheel", "typed": "", "letter_key": "wheel.space",
               "upcoming": ("wheel.delete", "wheel.done")},
              {"stage": "wheel", "typed": "Zo", "letter_key": "wheel.done",
               "upcoming": ("wheel.space", "a", "b")}]
    return tuple(PickerView(s, s, default=NAMES[s], **stages[s % len(stages)]) for s in range(n))


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_every_picker_shows_its_stage_in_its_own_panel(size, lang, n):
    pickers = _pickers(n)
    scene = names_scene(NamesView(pickers), size, lang)
    _clean(scene)
    assert scene.kind == "names"
    words = _words(scene)
    assert _say(lang, "names.title") in words and _say(lang, "names.footer") in words
    assert _say(lang, "names.hint") in words  # in the panels, or once in the footer
    expected = {0: NAMES[0], 1: _say(lang, "names.new"), 2: _say(lang, "names.keep", default=NAMES[2]),
                3: NAMES[3][:15] + "_", 4: _say(lang, "wheel.delete"), 5: NAMES[5],
                6: _say(lang, "wheel.space"), 7: _say(lang, "wheel.done")}
    for s in range(n):
        assert _has_name(scene, expected[s]), (s, expected[s], words)
    if n > 5:
        assert READY[lang] in words
    # a panel per picker, in its seat colour
    assert sorted(b.fill for b in scene.bars) == sorted(palette.seat_colour(s) for s in range(n))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_wheel_shows_the_letter_under_the_cursor_big_and_the_next_ones_small(size):
    picker = PickerView(0, 0, "wheel", "Anna", typed="Ann", letter="a", upcoming=("b", "c", "d"))
    scene = names_scene(NamesView((picker,)), size, "en")
    _clean(scene)
    by_text = {t.text: t for t in scene.texts}
    assert by_text["a"].px > by_text["Ann_"].px and by_text["b c d"].px < by_text["a"].px


def test_the_documented_keys_are_in_both_catalogues():
    for key in ("names.new", "names.keep", "wheel.space", "wheel.delete", "wheel.done"):
        assert all(key in cat for cat in i18n.CATALOGUES.values()), key
    assert i18n.placeholders(i18n.CATALOGUES["en"]["names.keep"]) == {"default"}


# --- a match's standings ---------------------------------------------------------------------------

def _rows(n: int, cards: bool) -> tuple[StandingRow, ...]:
    return tuple(StandingRow(NAMES[s], s, wins=max(0, 3 - s), cards=7 * s if cards else None, leader=s == 0)
                 for s in range(n))


def _standings(n: int) -> list[tuple[StandingsView, str]]:
    """(view, the title it must show) for: best of 5, a timed match, its last game, a draw, won, drawn."""
    photo = (NAMES[1], NAMES[0], 3_200_000)
    return [
        (StandingsView(_rows(n, False), 3, 5, last_winner=NAMES[0], photo=photo), "best_of"),
        (StandingsView(_rows(n, True), 2, None, minutes_left=7, last_winner=NAMES[n - 1], photo=photo),
         "timed"),
        (StandingsView(_rows(n, True), 4, None, minutes_left=0, last_winner=None), "timed.end"),
        (StandingsView(_rows(n, False), 5, 5, photo=photo, over=True, winner=NAMES[0]), "match_won"),
        (StandingsView(_rows(n, False), 5, 5, over=True, winner=None), "match_draw"),
    ]


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_standings_say_which_game_who_won_the_table_and_the_closest_photo_finish(size, lang, n):
    for view, title in _standings(n):
        scene = standings_scene(view, size, lang)
        _clean(scene)
        words = _words(scene)
        kw = {"played": view.played, "total": view.total, "minutes": view.minutes_left, "winner": view.winner}
        wanted = i18n.placeholders(i18n.CATALOGUES[lang][f"standings.{title}"])
        needed = {k: v for k, v in kw.items() if k in wanted}
        assert _say(lang, f"standings.{title}", **needed) in words, (title, words)
        if not view.over:
            said = (_say(lang, "standings.won", name=view.last_winner) if view.last_winner
                    else _say(lang, "standings.draw"))
            assert said in words
        footer = _say(lang, "standings.rematch" if view.over else "standings.next")
        assert footer in words
        for row in view.rows:
            assert _has_name(scene, row.name), row.name
        assert _say(lang, "standings.leader") in words
        assert (_say(lang, "stats.short.cards") in words) == any(r.cards is not None for r in view.rows)
        if view.photo is not None:
            winner, runner, margin = view.photo
            line = _say(lang, "standings.photo", winner=winner, runner=runner,
                        time=i18n.format_ns(lang, margin))
            assert line in words, words
            assert {"en": "3.2 ms", "fr": "3,2 ms"}[lang] in words


def test_a_leaders_row_is_highlighted_and_marked_in_words():
    rows = (StandingRow("Anna", 0, 2, leader=True), StandingRow("Ben", 1, 2, leader=True),
            StandingRow("Chloé", 2, 0))
    scene = standings_scene(StandingsView(rows, 4, 7, last_winner="Ben"), (480, 320), "en")
    _clean(scene)
    assert [t.text for t in scene.texts].count("leader") == 2
    assert [t.bg for t in scene.texts if t.text in ("Anna", "Ben", "Chloé")] == [
        (40, 70, 60), (40, 70, 60), (14, 52, 40)]


# --- the samples and the renderer ------------------------------------------------------------------

def test_the_party_screens_are_samples_for_the_screenshot_command():
    assert {"join", "names", "standings", "standings-over"} <= set(samples.NAMES)
    assert samples.build("standings-over", (480, 320), "fr").kind == "standings"


def _every_scene(size: tuple[int, int], lang: str) -> list[Scene]:
    out = []
    for n in COUNTS:
        out.append(join_scene(JoinView(_tiles(n), bots=8 - n, can_start=n > 1), size, lang))
        out.append(names_scene(NamesView(_pickers(n)), size, lang))
        out += [standings_scene(view, size, lang) for view, _ in _standings(n)]
    return out


@pytest.fixture(scope="module")
def renderer():
    import pygame

    from device.screen.render import Renderer
    pygame.font.init()
    return Renderer()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_every_party_scene_renders_off_screen_and_no_text_is_squeezed(size, lang, renderer):
    import pygame

    from device.screen.render import Renderer
    for scene in _every_scene(size, lang):
        surface = pygame.Surface(size)
        assert [tuple(r) for r in Renderer().draw(scene, surface)] == [(0, 0, *size)]
        for t in scene.texts:  # the pure width estimate bounds what pygame draws
            assert renderer.font(t.px).size(t.text)[0] <= text_width(t.text, t.px), t.text
