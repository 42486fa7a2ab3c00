"""Input backends: each stamps button edges as `Press` records and enqueues them, nothing more.

Hardware libraries are imported only by their own backend module (`device.inputs.gpio` imports
gpiozero), so this package imports on any laptop.
"""

from device.inputs.debounce import Debouncer
from device.inputs.press import (
                                 BUTTONS,
                                 EDGES,
                                 MENU_STATION,
                                 InputEvent,
                                 Press,
                                 PressFormatError,
                                 Sink,
                                 Stuck,
                                 Unstuck,
                                 event_from_dict,
                                 make_sink,
)

__all__ = ["BUTTONS", "EDGES", "MENU_STATION", "Debouncer", "InputEvent", "Press",
           "PressFormatError", "Sink", "Stuck", "Unstuck", "event_from_dict", "make_sink"]
