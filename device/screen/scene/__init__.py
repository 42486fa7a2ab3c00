"""Decides what the screen shows: a pure scene model built from the table and the feed."""

from device.screen.scene.game import *  # noqa: F403
from device.screen.scene.game import __all__  # noqa: F401
