"""The window (or the panel, fullscreen): the only module that calls ``pygame.display``.

Only ``pygame.display`` and ``pygame.font`` are initialised, never ``pygame.init()``, which would
also open the audio device (device.screen.sound owns that). ``flip`` returns the monotonic time
taken right after the frame went out: the presenter stamps ``Shown`` with it (DESIGN.md).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from device.screen.layout import MIN_SIZE  # noqa: E402


class DisplayUnavailable(RuntimeError):
    """No video driver could open a window; ``reason`` is one line (SDL's error, usually)."""

    def __init__(self, reason: str) -> None:
        self.reason = " ".join(str(reason).split()) or "unknown SDL error"
        super().__init__(f"no display: {self.reason}")


class Display:
    """An open window or fullscreen panel."""

    def __init__(self, fullscreen: bool, now: Callable[[], int] = time.monotonic_ns) -> None:
        self.fullscreen = fullscreen
        self._now = now

    @property
    def surface(self) -> pygame.Surface:
        surf = pygame.display.get_surface()
        if surf is None:
            raise DisplayUnavailable("the display was closed")
        return surf

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def flip(self, dirty: Sequence[pygame.Rect] | None = None) -> int:
        """Show the frame (only ``dirty`` rectangles when given); returns the box's clock read
        right after, i.e. when the frame was handed to the screen."""
        if dirty is None:
            pygame.display.flip()
        elif dirty:
            pygame.display.update(list(dirty))
        return self._now()

    def save(self, path: str) -> None:
        """The current frame as an image file (PNG by the name's extension)."""
        pygame.image.save(self.surface, path)

    def close(self) -> None:
        pygame.display.quit()


SOFTWARE_FRAMEBUFFER = ("x11", "wayland")
#: drivers that draw where no one sees: used only when asked for by name (tests, benchmarks)
INVISIBLE = ("offscreen", "dummy")
#: SDL's drivers without Wayland, in SDL's own order (where no Wayland session exists)
NO_WAYLAND = "x11,kmsdrm,offscreen,dummy"


def open_display(size: tuple[int, int], *, fullscreen: bool = False, driver: str | None = None,
                 title: str = "slapbox", resizable: bool = False,
                 now: Callable[[], int] = time.monotonic_ns) -> Display:
    """Open a ``size`` window (fullscreen: the desktop's size) with SDL video ``driver`` (None: SDL's
    choice, or $SDL_VIDEODRIVER); ``now`` is the box's clock, read after each flip. Raises
    DisplayUnavailable with a one-line reason."""
    w, h = size
    if not fullscreen and (w < MIN_SIZE[0] or h < MIN_SIZE[1]):
        raise ValueError(f"window {w}x{h} is too small (expected at least {MIN_SIZE[0]}x{MIN_SIZE[1]})")
    if driver is not None:
        os.environ["SDL_VIDEODRIVER"] = driver
    chosen = os.environ.get("SDL_VIDEODRIVER")
    probe_wayland = bool(os.environ.get("WAYLAND_DISPLAY") or os.environ.get("XDG_RUNTIME_DIR"))
    if not chosen and not probe_wayland:
        # no Wayland session: SDL's Wayland probe would only print libwayland's "XDG_RUNTIME_DIR
        # is invalid or not set" on stderr; SDL takes a list of drivers to try, in order
        os.environ["SDL_VIDEODRIVER"] = NO_WAYLAND
    try:
        pygame.display.init()
        if not chosen and pygame.display.get_driver() in INVISIBLE:
            # SDL found no screen and fell back to drawing in memory: nobody would see the game
            raise pygame.error(f"no screen to draw on (SDL fell back to its "
                               f"{pygame.display.get_driver()} driver; set DISPLAY, or "
                               "SDL_VIDEODRIVER to choose one)")
        if pygame.display.get_driver() in SOFTWARE_FRAMEBUFFER:
            # On a desktop, SDL would present the window through an OpenGL renderer, which on a
            # machine without a GPU loads Mesa's llvmpipe (tens of MB, and CPU on every frame).
            # kmsdrm (the kiosk) has no other way than its renderer, so it keeps SDL's default.
            os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
        pygame.font.init()
        pygame.display.set_caption(title)
        if fullscreen:
            desktops = pygame.display.get_desktop_sizes()
            size = desktops[0] if desktops else size
            pygame.display.set_mode(size, pygame.FULLSCREEN)
            pygame.mouse.set_visible(False)  # a party box has no pointer
        else:
            pygame.display.set_mode(size, pygame.RESIZABLE if resizable else 0)
    except pygame.error as e:
        pygame.display.quit()
        raise DisplayUnavailable(str(e)) from None
    finally:
        if not chosen and not probe_wayland:
            os.environ.pop("SDL_VIDEODRIVER", None)
    return Display(fullscreen, now)
