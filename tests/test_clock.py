"""The time base: virtual time runs timers in time order, real time runs what is due."""

from __future__ import annotations

import pytest

from device.clock import Clock, ClockError, MonotonicClock, VirtualClock


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
