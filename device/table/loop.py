"""The one real-time loop, for the screen app and the headless box alike.

In order, every pass: hand the part what woke the loop and whatever else arrived, let it run what
is due (the clock's callbacks, the table) and present (draw, flip, report `Shown`); tell systemd
the box is alive; then block on the input queue until the part's next deadline. The last
``spin_ns`` before a table deadline (a judgement, a card) are watched rather than slept
(`device.clock.wait_for`). Virtual time needs no loop: tests call the part's ``step`` directly.
"""

from __future__ import annotations

import queue
import sys
from typing import Any, Protocol

from device.clock import SPIN_NS, Clock, wait_for


class LoopPart(Protocol):
    """What the loop drives: the screen app, or a headless runner."""

    @property
    def running(self) -> bool:
        """False once the loop should stop."""
        ...

    @property
    def ready(self) -> bool:
        """True once the box is up (its first frame shown): systemd's READY=1 is sent then."""
        ...

    def step(self, now_ns: int, woken: Any | None = None) -> None:
        """One pass: ``woken`` (the input that ended the wait) first, then everything else."""
        ...

    def wake_at(self, now_ns: int) -> tuple[int, int | None]:
        """When to wake at the latest, and the table's own deadline if that is what it is."""
        ...


class Notify(Protocol):
    def ready(self) -> bool: ...

    def alive(self, now_ns: int) -> object: ...


def run_loop(part: LoopPart, clock: Clock, inbox: queue.SimpleQueue[Any] | None, *,
             spin_ns: int = SPIN_NS, notifier: Notify | None = None) -> None:
    """Run ``part`` on the real clock until it stops (see the module docstring)."""
    real_time_switch_interval()
    woken: Any | None = None
    announced = False
    while part.running:
        part.step(clock.now_ns(), woken)
        woken = None
        if notifier is not None:
            if not announced and part.ready:
                announced = notifier.ready()  # tried again each pass until sent
            notifier.alive(clock.now_ns())
        if not part.running:
            break
        until, due = part.wake_at(clock.now_ns())
        spin = spin_ns if due is not None and until >= due else 0
        if inbox is None:
            inbox = queue.SimpleQueue()  # nothing can arrive: the wait is a sleep
        woken = wait_for(inbox, until, spin, clock.now_ns)


def real_time_switch_interval(seconds: float = 0.0005) -> None:
    """Let the main loop take the GIL back within ``seconds`` when it wakes for a deadline.

    The input threads (gpiozero's callbacks, the serial reader) hold the GIL while they stamp and
    enqueue; with Python's default 5 ms switch interval a judgement due now could wait that long.
    """
    if sys.getswitchinterval() > seconds:
        sys.setswitchinterval(seconds)


__all__ = ["LoopPart", "run_loop", "real_time_switch_interval"]
