"""The pure rules core: every game of RULES.md as a deterministic state machine.

Nothing in this package reads the clock, touches hardware or a display, or uses the global
random generator (a test enforces it). Chance comes from named seeded streams (`rng.Streams`).
"""

from device.rules.base import Game, IllegalAction, Outcome
from device.rules.presets import PRESETS, new_game

__all__ = ["Game", "IllegalAction", "Outcome", "PRESETS", "new_game"]
