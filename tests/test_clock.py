"""The time base: virtual time runs timers in time order, real time runs what is due."""

from __future__ import annotations

import queue
import threading
import time

import pytest

from device.clock import Clock, ClockError, MonotonicClock, VirtualClock, wait_for


def test_virtual_clock_starts_where_told_and_only_moves_when_advanced() -> None:
    clock = VirtualClock(start_ns=5)
    assert clock.now_ns() == 5
    assert clock.now_ns() == 5
    clock.advance_to(12)
    assert clock.now_ns() == 12


def test_callbacks_run_in_time_order_and_stable_by_insertion() -> None:
    clock = VirtualClock()
    seen: list[tuple[str, int]] = []
    for name, t in [("c", 30), ("a", 10), ("b1", 20), ("b2", 20), ("b3", 20)]:
        clock.call_at(t, lambda name=name: seen.append((name, clock.now_ns())))
    assert clock.advance_to(25) == 4
    assert seen == [("a", 10), ("b1", 20), ("b2", 20), ("b3", 20)]
    assert clock.now_ns() == 25
    clock.advance_to(30)
    assert seen[-1] == ("c", 30)


def test_cancelled_callback_never_runs() -> None:
    clock = VirtualClock()
    seen: list[int] = []
    h = clock.call_at(10, lambda: seen.append(1))
    clock.call_at(20, lambda: seen.append(2))
    h.cancel()
    assert clock.next_deadline() == 20
    clock.run_until_idle()
    assert seen == [2]


def test_callback_scheduled_by_callback_runs_in_the_same_run() -> None:
    clock = VirtualClock()
    seen: list[int] = []

    def tick() -> None:
        seen.append(clock.now_ns())
        if len(seen) < 5:
            clock.call_at(clock.now_ns() + 7, tick)

    clock.call_at(3, tick)
    assert clock.run_until_idle() == 5
    assert seen == [3, 10, 17, 24, 31]
    assert clock.now_ns() == 31


def test_run_until_idle_stops_at_limit() -> None:
    clock = VirtualClock()
    seen: list[int] = []
    for t in (10, 20, 30):
        clock.call_at(t, lambda t=t: seen.append(t))
    clock.run_until_idle(limit=25)
    assert seen == [10, 20] and clock.now_ns() == 25
    assert clock.next_deadline() == 30


def test_callback_set_in_the_past_runs_now_without_time_going_back() -> None:
    clock = VirtualClock(100)
    seen: list[int] = []
    clock.call_at(50, lambda: seen.append(clock.now_ns()))
    clock.advance_to(100)
    assert seen == [100]


def test_virtual_time_never_goes_back_and_wants_integers() -> None:
    clock = VirtualClock(10)
    with pytest.raises(ClockError, match="never goes back"):
        clock.advance_to(9)
    with pytest.raises(ClockError, match="integer nanoseconds"):
        clock.advance_to(10.5)  # type: ignore[arg-type]
    with pytest.raises(ClockError, match="integer nanoseconds"):
        clock.call_at(True, lambda: None)  # type: ignore[arg-type]


def test_monotonic_clock_runs_only_what_is_due() -> None:
    clock = MonotonicClock()
    assert isinstance(clock, Clock) and isinstance(VirtualClock(), Clock)
    now = clock.now_ns()
    assert isinstance(now, int) and clock.now_ns() >= now
    seen: list[str] = []
    clock.call_at(now - 1, lambda: seen.append("past"))
    clock.call_at(now + 10**12, lambda: seen.append("far"))
    assert clock.run_due(now) == 1
    assert seen == ["past"]
    assert clock.next_deadline() == now + 10**12
    assert clock.pending() == 1
    assert 0 < clock.timeout_s() <= 1000.0  # type: ignore[operator]
    assert clock.timeout_s(limit_ns=5_000_000) == 0.005


class _Inbox:
    """A queue that records how it was waited on, on a fake clock: a blocking get 'sleeps' its
    whole timeout (the clock jumps), every look costs 100 us."""

    def __init__(self, now: list[int], items_at: dict[int, str] | None = None) -> None:
        self.now = now
        self.items_at = items_at or {}
        self.slept: list[int] = []
        self.looks = 0

    def _due(self) -> str | None:
        for t in sorted(self.items_at):
            if t <= self.now[0]:
                return self.items_at.pop(t)
        return None

    def get(self, timeout: float) -> str:
        self.slept.append(round(timeout * 1e9))
        self.now[0] += round(timeout * 1e9)
        item = self._due()
        if item is None:
            raise queue.Empty
        return item

    def get_nowait(self) -> str:
        self.looks += 1
        self.now[0] += 100_000
        item = self._due()
        if item is None:
            raise queue.Empty
        return item


def test_the_real_time_wait_sleeps_then_watches_the_last_moments_before_a_deadline() -> None:
    now = [0]
    inbox = _Inbox(now)
    assert wait_for(inbox, 10_000_000, 2_000_000, lambda: now[0]) is None  # type: ignore[arg-type]
    assert inbox.slept == [8_000_000]       # slept until 2 ms before the deadline ...
    assert inbox.looks == 20                # ... then looked every 100 us until it came
    assert now[0] == 10_000_000
    # an input during the watched stretch is returned at once; a deadline already past returns
    # at once; spin 0 sleeps all the way
    now[0] = 0
    inbox = _Inbox(now, {9_000_000: "press"})
    assert wait_for(inbox, 10_000_000, 2_000_000, lambda: now[0]) == "press"  # type: ignore[arg-type]
    assert now[0] == 9_000_000 and inbox.looks == 10
    assert wait_for(inbox, now[0] - 1, 2_000_000, lambda: now[0]) is None  # type: ignore[arg-type]
    inbox = _Inbox(now)
    assert wait_for(inbox, now[0] + 5_000_000, 0, lambda: now[0]) is None  # type: ignore[arg-type]
    assert inbox.slept == [5_000_000] and inbox.looks == 0


def test_the_real_time_wait_returns_an_item_put_by_another_thread() -> None:
    inbox: queue.SimpleQueue[str] = queue.SimpleQueue()
    threading.Thread(target=inbox.put, args=("press",)).start()
    # a deadline a minute away: the item, not the deadline, ends the wait
    assert wait_for(inbox, time.monotonic_ns() + 60 * 10**9) == "press"
