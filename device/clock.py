"""The one time base: integer nanoseconds on the monotonic clock, real or virtual, with timers.

The composition root owns one `Clock` and passes it down; nothing else reads time. In real time
the main loop calls `MonotonicClock.run_due()`; in virtual time (tests, demo, simulate)
`VirtualClock` jumps from one timer to the next, so a whole game takes milliseconds and is exactly
reproducible.
"""

from __future__ import annotations

import heapq
import os
import queue
import time
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from device.errors import SlapboxError

__all__ = ["Clock", "Handle", "MonotonicClock", "VirtualClock", "ClockError", "wait_for",
           "SPIN_NS"]

#: the real-time loops watch the clock (instead of sleeping) for the last 2 ms before a deadline
SPIN_NS = 2_000_000


class ClockError(SlapboxError, ValueError):
    """A time that cannot be used (not an int, or going back)."""


def _check_ns(what: str, t_ns: object) -> int:
    # bool is an int subclass; a float would silently lose nanoseconds
    if not isinstance(t_ns, int) or isinstance(t_ns, bool):
        raise ClockError(f"{what}: expected integer nanoseconds, got {t_ns!r}")
    return t_ns


class Handle:
    """A scheduled callback; `cancel()` makes sure it never runs."""

    __slots__ = ("t_ns", "fn", "cancelled")

    def __init__(self, t_ns: int, fn: Callable[[], object]) -> None:
        self.t_ns = t_ns
        self.fn = fn
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def __repr__(self) -> str:
        state = " cancelled" if self.cancelled else ""
        return f"<Handle t_ns={self.t_ns}{state}>"


@runtime_checkable
class Clock(Protocol):
    """What the program may know about time."""

    def now_ns(self) -> int:
        """Monotonic time in integer nanoseconds."""
        ...

    def call_at(self, t_ns: int, fn: Callable[[], object]) -> Handle:
        """Run ``fn()`` once the time reaches ``t_ns`` (on the thread that runs the clock)."""
        ...

    def next_deadline(self) -> int | None:
        """Time of the earliest callback still to run, or None."""
        ...

    def run_due(self, now_ns: int | None = None) -> int:
        """Run every callback due at ``now_ns`` (default: now); returns how many ran."""
        ...


class _Timers:
    """A heap of callbacks, run in time order and, at equal times, in the order they were set."""

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, Handle]] = []
        self._seq = 0

    def call_at(self, t_ns: int, fn: Callable[[], object]) -> Handle:
        """Schedule ``fn`` at ``t_ns``; a time already past runs at the next `run_due`."""
        _check_ns("call_at", t_ns)
        if not callable(fn):
            raise ClockError(f"call_at: expected a callable, got {fn!r}")
        handle = Handle(t_ns, fn)
        self._seq += 1
        heapq.heappush(self._heap, (t_ns, self._seq, handle))
        return handle

    def next_deadline(self) -> int | None:
        """Time of the earliest callback still to run, or None."""
        heap = self._heap
        while heap and heap[0][2].cancelled:
            heapq.heappop(heap)
        return heap[0][0] if heap else None

    def pending(self) -> int:
        """How many callbacks are still to run."""
        return sum(1 for _, _, h in self._heap if not h.cancelled)

    def _pop_due(self, now_ns: int) -> Handle | None:
        heap = self._heap
        while heap and heap[0][0] <= now_ns:
            handle = heapq.heappop(heap)[2]
            if not handle.cancelled:
                return handle
        return None


class MonotonicClock(_Timers):
    """The host's CLOCK_MONOTONIC; timers run when the main loop calls `run_due`.

    Not thread-safe: only the main thread schedules and runs timers (other threads only enqueue).
    """

    def now_ns(self) -> int:
        return time.monotonic_ns()

    def run_due(self, now_ns: int | None = None) -> int:
        """Run every callback due at ``now_ns`` (default: now); returns how many ran.

        Callbacks scheduled by a callback for a time already reached run in the same call.
        """
        now = self.now_ns() if now_ns is None else _check_ns("run_due", now_ns)
        ran = 0
        while (handle := self._pop_due(now)) is not None:
            handle.fn()
            ran += 1
        return ran

    def timeout_s(self, limit_ns: int | None = None) -> float | None:
        """Seconds until the next callback (0 if one is due), capped by ``limit_ns``; None = none."""
        deadline = self.next_deadline()
        wait = None if deadline is None else max(0, deadline - self.now_ns())
        if limit_ns is not None:
            wait = limit_ns if wait is None else min(wait, limit_ns)
        return None if wait is None else wait / 1e9


class VirtualClock(_Timers):
    """Time that only moves when told to: `advance_to` or `run_until_idle`.

    Each callback runs with `now_ns()` equal to its own time (or to now, if it was set in the past).
    """

    #: a guard against a callback that keeps rescheduling itself for the same instant
    max_calls = 10_000_000

    def __init__(self, start_ns: int = 0) -> None:
        super().__init__()
        self._now = _check_ns("VirtualClock start_ns", start_ns)

    def now_ns(self) -> int:
        return self._now

    def run_due(self, now_ns: int | None = None) -> int:
        """Run every callback due at ``now_ns`` (default: now), moving time there if it is
        later; returns how many ran. (The real-time loop's call, so the same loop runs on a
        virtual clock in tests.)"""
        return self.advance_to(self._now if now_ns is None else max(self._now, now_ns))

    def advance_to(self, t_ns: int) -> int:
        """Move time to ``t_ns``, running due callbacks in time order; returns how many ran."""
        _check_ns("advance_to", t_ns)
        if t_ns < self._now:
            raise ClockError(f"advance_to: {t_ns} ns is before now ({self._now} ns); "
                             "virtual time never goes back")
        ran = self._run(t_ns)
        self._now = t_ns
        return ran

    def advance_by(self, dt_ns: int) -> int:
        """Move time forward by ``dt_ns``."""
        return self.advance_to(self._now + _check_ns("advance_by", dt_ns))

    def run_until_idle(self, limit: int | None = None) -> int:
        """Run callbacks (including ones they schedule) until none is left, or up to time ``limit``.

        Time ends at the last callback run; if callbacks remain after ``limit``, at ``limit``.
        Returns how many ran.
        """
        if limit is not None:
            _check_ns("run_until_idle limit", limit)
            if limit < self._now:
                raise ClockError(f"run_until_idle: limit {limit} ns is before now ({self._now} ns)")
        ran = self._run(limit)
        if limit is not None and self.next_deadline() is not None:
            self._now = limit
        return ran

    def _run(self, limit: int | None) -> int:
        ran = 0
        while True:
            deadline = self.next_deadline()
            if deadline is None or (limit is not None and deadline > limit):
                return ran
            handle = self._pop_due(deadline)
            assert handle is not None
            self._now = max(self._now, handle.t_ns)
            handle.fn()
            ran += 1
            if ran >= self.max_calls:
                raise ClockError(f"VirtualClock: more than {self.max_calls} callbacks without "
                                 "reaching the limit; a callback keeps rescheduling itself")


def wait_for(inbox: queue.SimpleQueue[Any], deadline_ns: int, spin_ns: int = SPIN_NS,
             now: Callable[[], int] = time.monotonic_ns) -> Any | None:
    """The real-time loops' wait: the next item of ``inbox``, or None once ``deadline_ns`` (on
    ``now``'s clock) has come.

    It sleeps on the queue (any item wakes it at once) until ``spin_ns`` before the deadline,
    then watches the clock and the queue, yielding the GIL to the input threads between looks.
    A sleeping thread is woken by the OS some time after its deadline: tens of microseconds on a
    quiet Raspberry Pi, milliseconds on a busy virtual machine. Watching costs a core for at
    most ``spin_ns`` per deadline and puts the judgement within microseconds of its time;
    ``spin_ns`` 0 always sleeps.
    """
    while True:
        left = deadline_ns - now()
        if left <= 0:
            return None
        if left > spin_ns:
            try:
                return inbox.get(timeout=(left - spin_ns) / 1e9)
            except queue.Empty:
                continue
        try:
            return inbox.get_nowait()
        except queue.Empty:
            os.sched_yield()  # lets the input threads run (it releases the GIL)

