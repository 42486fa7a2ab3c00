"""Fixtures shared by the tests that drive the screen app: ``make_app`` builds the whole box on a
virtual clock with SDL's dummy video and audio drivers (no window, nothing sleeps)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture
def make_app(tmp_path):
    """``make_app(**options)``: an App at 480x320 in virtual time, its journal in ``tmp_path``
    (``settings=`` a menu Settings; default bataille-corse, 3 seats, English); closed after the test."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from device.box import Options
    from device.clock import VirtualClock
    from device.screen.app import App
    from device.screen.display import open_display
    from device.screen.menu import Settings

    apps: list[App] = []

    def make(**kw) -> App:
        settings = kw.pop("settings", Settings(preset="bataille-corse", players=3, lang="en"))
        opts = Options(settings=settings, journal=str(tmp_path / "journal"), **kw)
        clock = VirtualClock(10**12)  # the whole box in virtual time: nothing here sleeps
        app = App(opts, open_display((480, 320), now=clock.now_ns), clock=clock)
        apps.append(app)
        return app

    yield make
    for app in apps:
        if app.match is not None:
            app.match.close()
        app.box.close()
    pygame.display.quit()
