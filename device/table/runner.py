"""Drives a table through time: delivers inputs, advances the table, hands its output to the
outputs, and plays the bots' hands and minds.

Virtual time (`run_virtual`): jump from deadline to deadline; a whole game takes milliseconds and
comes out the same every time. Real time is the screen's main loop (device.screen.app), built on the same
`Runner.dispatch`.
"""

from __future__ import annotations

import queue
import sys
import time
from collections.abc import Callable
from typing import Any

from device.bots.hands import SlapBot
from device.bots.minds import RuleBot
from device.clock import SPIN_NS, Clock, VirtualClock, wait_for
from device.inputs.press import Press
from device.inputs.script import ScriptedPress
from device.table.table import DecisionNeeded, Shown, Table, ToShow

MS = 1_000_000
Output = Callable[[Any, int], None]


class Runner:
    """One game's loop parts; the presenter reports `Shown` (headless: at once)."""

    def __init__(self, table: Table, clock: Clock, *, hands: dict[int, SlapBot] | None = None,
                 minds: dict[int, RuleBot] | None = None, outputs: list[Output] | None = None,
                 headless: bool = True, think_ns: int = 700 * MS, latency_ns: int = 0) -> None:
        self.table = table
        self.clock = clock
        self.hands = hands or {}
        self.minds = minds or {}
        self.outputs = outputs or []
        self.headless = headless
        self.think_ns = think_ns
        self.latency_ns = latency_ns
        self._deciding: set[int] = set()

    def schedule_script(self, script: list[ScriptedPress]) -> None:
        """Scripted presses, each delivered at its arrival time on the clock."""
        start = self.table.start_ns
        for sp in script:
            press = sp.press(start)
            self.clock.call_at(start + sp.arrival_ns, _Deliver(self.table, press, start + sp.arrival_ns))

    def dispatch(self, now_ns: int) -> None:
        """Hand everything the table produced to the presenter, the bots and the outputs."""
        table = self.table
        while table.outbox:
            for item in table.drain():
                if isinstance(item, ToShow) and self.headless:
                    self.shown(item.card, now_ns)
                elif isinstance(item, DecisionNeeded):
                    self._think(item.seat, now_ns)
                for out in self.outputs:
                    out(item, now_ns)

    def shown(self, card: int, t_ns: int) -> None:
        """The presenter reports a card visible at ``t_ns``; the bots see it too."""
        self.table.submit(Shown(card, t_ns))
        if not self.hands:
            return
        slappable = self.table.slappable_at(card)
        game = self.table.game
        locked = game.locked
        for seat, hand in self.hands.items():
            if seat < len(locked) and locked[seat] or not self.table.slapping:
                continue
            stamp = hand.react(t_ns, slappable)
            if stamp is not None:
                press = Press(seat, "slap", "press", stamp, "bot")
                arrival = stamp + self.latency_ns
                self.clock.call_at(arrival, _Deliver(self.table, press, arrival))

    def _think(self, seat: int, now_ns: int) -> None:
        mind = self.minds.get(seat)
        if mind is None or seat in self._deciding:
            return
        self._deciding.add(seat)

        def decide() -> None:
            if self.table.paused:  # the menu is open: think again once it closes
                self.clock.call_at(self.clock.now_ns() + self.think_ns, decide)
                return
            self._deciding.discard(seat)
            if self.table.pending_decision() == seat:
                t = self.clock.now_ns()
                self.table.decide(seat, mind.choose(self.table.game, seat), t)
                self.dispatch(t)
        self.clock.call_at(now_ns + self.think_ns, decide)

    def run_virtual(self, *, limit_ns: int | None = None) -> None:
        """Play in virtual time until the game ends, nothing more can happen, or ``limit_ns``."""
        clock = self.clock
        assert isinstance(clock, VirtualClock)
        table = self.table
        self.dispatch(clock.now_ns())
        while table.game.outcome() is None:
            deadlines = [t for t in (table.next_deadline(), clock.next_deadline()) if t is not None]
            if not deadlines:
                return  # waiting for a person
            t = min(deadlines)
            if limit_ns is not None and t > limit_ns:
                return
            t = max(t, clock.now_ns())
            clock.advance_to(t)  # bots' and scripts' presses arrive (their call_at callbacks)
            self.dispatch(t)
            table.advance(t)
            self.dispatch(t)
        self.dispatch(clock.now_ns())

    def run_realtime(self, inbox: queue.SimpleQueue | None = None, *, until_ns: int | None = None,
                     stop: Callable[[], bool] = lambda: False, tick_ns: int | None = None,
                     on_tick: Callable[[int], None] | None = None,
                     spin_ns: int = SPIN_NS) -> None:
        """The real-time loop without a screen: block on the input queue until the next deadline,
        then deliver, advance and dispatch. ``on_tick`` runs at least every ``tick_ns`` (the
        service's watchdog, a frame). The last ``spin_ns`` before a table deadline (a judgement,
        a card) are watched rather than slept (`device.clock.wait_for`)."""
        clock = self.clock
        table = self.table
        real_time_switch_interval()
        while table.game.outcome() is None and not stop():
            now = clock.now_ns()
            if until_ns is not None and now >= until_ns:
                break
            self.step(now, inbox)
            if on_tick is not None:
                on_tick(now)
            due = table.next_deadline()
            deadlines = [t for t in (due, clock.next_deadline(), until_ns) if t is not None]
            if tick_ns is not None:
                deadlines.append(now + tick_ns)
            deadline = min(deadlines) if deadlines else now + 50 * MS
            if inbox is None:
                wait_ns = deadline - clock.now_ns()
                if wait_ns > 0:
                    time.sleep(wait_ns / 1e9)
                continue
            item = wait_for(inbox, deadline, spin_ns if deadline == due else 0, clock.now_ns)
            if item is not None:
                table.submit(item, clock.now_ns())
        self.dispatch(clock.now_ns())

    def step(self, now: int, inbox: queue.SimpleQueue | None = None) -> None:
        """One pass of the loop: inputs that arrived, due timers (bots, scripts), the table."""
        if inbox is not None:
            while True:
                try:
                    item = inbox.get_nowait()
                except queue.Empty:
                    break
                self.table.submit(item, now)
        run_due = getattr(self.clock, "run_due", None)
        if run_due is not None:
            run_due(now)
        self.dispatch(now)
        self.table.advance(now)
        self.dispatch(now)


def real_time_switch_interval(seconds: float = 0.0005) -> None:
    """Let the main loop take the GIL back within ``seconds`` when it wakes for a deadline.

    The input threads (gpiozero's callbacks, the serial reader) hold the GIL while they stamp and
    enqueue; with Python's default 5 ms switch interval a judgement due now could wait that long.
    """
    if sys.getswitchinterval() > seconds:
        sys.setswitchinterval(seconds)


class _Deliver:
    """A press delivered to the table at its arrival time (a strong reference the clock keeps)."""

    __slots__ = ("table", "press", "arrival")

    def __init__(self, table: Table, press: Press, arrival: int) -> None:
        self.table, self.press, self.arrival = table, press, arrival

    def __call__(self) -> None:
        self.table.submit(self.press, self.arrival)
