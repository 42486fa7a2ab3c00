"""Drawing scenes with pygame off-screen: every sample scene, dirty rectangles, the display and the
screenshot command."""

from __future__ import annotations

import os

# Headless SDL before pygame is imported anywhere in this process.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from device.cli import main  # noqa: E402
from device.rules.cards import card  # noqa: E402
from device.screen import palette, samples  # noqa: E402
from device.screen.display import DisplayUnavailable, open_display  # noqa: E402
from device.screen.layout import Rect  # noqa: E402
from device.screen.render import Renderer, render_scene  # noqa: E402
from device.screen.scene import Box, CardSprite, Scene, Text, text_width  # noqa: E402

SIZES = [(480, 320), (800, 480)]


@pytest.fixture(scope="module")
def renderer() -> Renderer:
    pygame.font.init()
    return Renderer()


def _colours(surface: pygame.Surface) -> int:
    """How many distinct colours a coarse grid of the surface shows."""
    w, h = surface.get_size()
    return len({tuple(surface.get_at((x, y)))[:3] for x in range(0, w, 7) for y in range(0, h, 7)})


@pytest.mark.parametrize("size", SIZES, ids=["480x320", "800x480"])
@pytest.mark.parametrize("name", samples.NAMES)
def test_every_scene_renders_off_screen(name, size, renderer):
    scene = samples.build(name, size, "fr" if name in ("menu", "norvegienne", "over") else "en")
    surface = pygame.Surface(size)
    dirty = Renderer().draw(scene, surface)
    assert [tuple(r) for r in dirty] == [(0, 0, *size)]  # the first frame is drawn whole
    assert _colours(surface) > 4, "the scene is (nearly) one colour"
    # The pure width estimate is an upper bound of what pygame draws: nothing is squeezed.
    for t in scene.texts:
        real = renderer.font(t.px).size(t.text)[0]
        assert real <= text_width(t.text, t.px), (t.text, real, text_width(t.text, t.px))


def test_a_face_up_card_is_drawn_where_the_scene_puts_it(renderer):
    scene = Scene((480, 320), "test", cards=[CardSprite(card(14, 1), 100, 50, 140, True, 1)])
    surface = pygame.Surface((480, 320))
    renderer.forget()
    renderer.draw(scene, surface)
    assert tuple(surface.get_at((100 + 50, 50 + 70)))[:3] == palette.CARD_FACE  # the card's middle
    assert tuple(surface.get_at((10, 10)))[:3] == palette.TABLE


def test_only_what_changed_is_redrawn_and_the_result_equals_a_full_redraw():
    base = [Box(Rect(0, 0, 480, 30), palette.BANNER_BG),
            Text(5, 5, 24, "Anna lays the 5 of spades", palette.TEXT, palette.BANNER_BG),
            CardSprite(card(5, 0), 200, 80, 140, True, 1)]
    a = Scene((480, 320), "game", boxes=[base[0]], texts=[base[1]], cards=[base[2]])
    b = Scene((480, 320), "game", boxes=[base[0]], texts=[Text(5, 5, 24, "Ben lays the 5 of hearts",
                                                                palette.TEXT, palette.BANNER_BG)],
              cards=[base[2], CardSprite(card(5, 1), 240, 80, 140, True, 2)])
    r = Renderer()
    surface = pygame.Surface((480, 320))
    assert len(r.draw(a, surface)) == 1
    assert r.draw(a, surface) == []  # nothing changed, nothing drawn
    dirty = r.draw(b, surface)
    assert dirty and sum(d.w * d.h for d in dirty) < 480 * 320 / 2
    assert any(d.collidepoint(250, 100) for d in dirty) and any(d.collidepoint(10, 10) for d in dirty)
    full = render_scene(b)
    assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(full, "RGB")


def test_a_size_change_redraws_everything():
    r = Renderer()
    scene = samples.build("pass", (480, 320))
    r.draw(scene, pygame.Surface((480, 320)))
    dirty = r.draw(samples.build("pass", (800, 480)), pygame.Surface((800, 480)))
    assert [tuple(d) for d in dirty] == [(0, 0, 800, 480)]


def test_the_display_opens_with_the_dummy_driver_flips_and_saves(tmp_path):
    display = open_display((480, 320), driver="dummy", title="slapbox test")
    try:
        assert display.size == (480, 320)
        dirty = Renderer().draw(samples.build("pass", display.size), display.surface)
        t0 = display.flip(dirty)
        t1 = display.flip()
        assert isinstance(t0, int) and t1 >= t0
        display.save(str(tmp_path / "frame.png"))
        assert pygame.image.load(str(tmp_path / "frame.png")).get_size() == (480, 320)
    finally:
        display.close()
        os.environ["SDL_VIDEODRIVER"] = "dummy"


def test_no_video_driver_gives_a_one_line_reason():
    with pytest.raises(DisplayUnavailable) as err:
        open_display((480, 320), driver="no-such-driver")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    assert "\n" not in err.value.reason and err.value.reason
    with pytest.raises(ValueError, match="too small"):
        open_display((200, 100), driver="dummy")


def test_screenshot_writes_a_png_of_the_requested_size(tmp_path, capsys):
    out = tmp_path / "photo.png"
    assert main(["screenshot", "--scene", "photo-finish", "--size", "480x320", str(out)]) == 0
    assert pygame.image.load(str(out)).get_size() == (480, 320)
    assert main(["screenshot", "--scene", "menu", "--size", "1024x600", "--lang", "fr",
                 str(tmp_path / "m.png")]) == 0
    assert pygame.image.load(str(tmp_path / "m.png")).get_size() == (1024, 600)


def test_screenshot_lists_scenes_and_refuses_bad_input_in_one_line(tmp_path, capsys):
    assert main(["screenshot", "--scene", "list"]) == 0
    listed = capsys.readouterr().out.split()
    assert {"attract", "menu", "rules", "pause", "game", "photo-finish", "wrong-slap", "challenge", "battle",
            "peace", "norvegienne", "pass", "over", "help"} <= set(listed)
    assert main(["screenshot", "--scene", "nope", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown scene 'nope'" in err and "photo-finish" in err
    assert main(["screenshot", "--scene", "menu", "--size", "100x100", str(tmp_path / "x.png")]) == 2
    assert "at least 320x240" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
