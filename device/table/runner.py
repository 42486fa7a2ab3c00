"""Drives a table through time: delivers inputs, advances the table, hands its output to the
outputs, and plays the bots' hands and minds.

Virtual time (`run_virtual`): jump from deadline to deadline; a whole game takes milliseconds and
comes out the same every time. Real time is the one real-time loop (`device.table.loop`), for
the screen app and the headless box alike, built on the same `Runner.step`.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

from device.bots.hands import SlapBot
from device.bots.minds import RuleBot
from device.clock import SPIN_NS, Clock, VirtualClock
from device.inputs.press import BOT_STATION, Press, RawEdge, Stuck, Unstuck
from device.inputs.script import ScriptedPress
from device.table.loop import Notify, run_loop
from device.table.table import DecisionNeeded, Shown, Table, ToShow

MS = 1_000_000
#: what the table takes as an input (everything else on the queue is for someone else)
TABLE_INPUTS = frozenset({Press, Stuck, Unstuck, Shown, RawEdge})
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
        #: what becomes of an input that is not the table's (a backend's LinkStatus...)
        self.on_other: Callable[[Any, int], None] | None = None

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
        if not self.hands or not self.table.slapping:
            return
        game = self.table.game
        # what each bot looks at: the pattern the game names, and the pile as that card made it
        # (for the other patterns a bot may know there, and near ones); once per card shown
        pattern = game.slappable_at(card)
        pile = game.pile
        top = card - game.pile_base
        if top != len(pile):
            pile = pile[:top] if 0 < top < len(pile) else ()
        locked = game.locked
        for seat, hand in self.hands.items():
            if seat < len(locked) and locked[seat]:
                continue
            stamp = hand.react(t_ns, pattern, pile)
            if stamp is not None:
                press = Press(BOT_STATION + seat, "slap", "press", stamp, "bot")
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

    def run_realtime(self, inbox: queue.SimpleQueue[Any] | None = None, *,
                     until_ns: int | None = None, stop: Callable[[], bool] = lambda: False,
                     tick_ns: int | None = None, on_tick: Callable[[int], object] | None = None,
                     spin_ns: int = SPIN_NS, notifier: Notify | None = None) -> None:
        """The headless box on the real clock: the one real-time loop (`device.table.loop`)
        driving this game until it ends, ``stop()`` says so, or ``until_ns``. ``on_tick`` runs
        at least every ``tick_ns``."""
        run_loop(_Headless(self, inbox, until_ns, stop, tick_ns, on_tick), self.clock, inbox,
                 spin_ns=spin_ns, notifier=notifier)
        self.dispatch(self.clock.now_ns())

    def deliver(self, item: Any, now: int) -> None:
        """An input from the queue: the table's own inputs to the table, others to ``on_other``."""
        if type(item) in TABLE_INPUTS:
            self.table.submit(item, now)
        elif self.on_other is not None:
            self.on_other(item, now)

    def step(self, now: int, inbox: queue.SimpleQueue[Any] | None = None) -> None:
        """One pass of the loop: inputs that arrived, due timers (bots, scripts), the table."""
        if inbox is not None:
            while True:
                try:
                    item = inbox.get_nowait()
                except queue.Empty:
                    break
                self.deliver(item, now)
        self.clock.run_due(now)
        self.dispatch(now)
        self.table.advance(now)
        self.dispatch(now)


class _Headless:
    """The loop's part without a screen: inputs to the table, due timers, the table itself."""

    ready = True  # nothing to draw: up as soon as it runs

    def __init__(self, runner: Runner, inbox: queue.SimpleQueue[Any] | None, until_ns: int | None,
                 stop: Callable[[], bool], tick_ns: int | None,
                 on_tick: Callable[[int], object] | None) -> None:
        self.runner, self.inbox, self.until_ns = runner, inbox, until_ns
        self.stop, self.tick_ns, self.on_tick = stop, tick_ns, on_tick

    @property
    def running(self) -> bool:
        runner = self.runner
        if runner.table.game.outcome() is not None or self.stop():
            return False
        return self.until_ns is None or runner.clock.now_ns() < self.until_ns

    def step(self, now_ns: int, woken: Any | None = None) -> None:
        if woken is not None:
            self.runner.deliver(woken, now_ns)
        self.runner.step(now_ns, self.inbox)
        if self.on_tick is not None:
            self.on_tick(now_ns)

    def wake_at(self, now_ns: int) -> tuple[int, int | None]:
        due = self.runner.table.next_deadline()
        deadlines = [t for t in (due, self.runner.clock.next_deadline(), self.until_ns) if t is not None]
        if self.tick_ns is not None:
            deadlines.append(now_ns + self.tick_ns)
        until = min(deadlines) if deadlines else now_ns + 50 * MS
        return until, due


class _Deliver:
    """A press delivered to the table at its arrival time (a strong reference the clock keeps)."""

    __slots__ = ("table", "press", "arrival")

    def __init__(self, table: Table, press: Press, arrival: int) -> None:
        self.table, self.press, self.arrival = table, press, arrival

    def __call__(self) -> None:
        self.table.submit(self.press, self.arrival)
