"""One button's edges become presses: the first contact is the press, bounce never a second one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.inputs import Debouncer, Press, Stuck, Unstuck, event_from_dict, make_sink
from device.inputs.press import PressFormatError

MS = 1_000_000
US = 1_000


def make(**kw: object) -> tuple[Debouncer, list[object]]:
    out: list[object] = []
    return Debouncer(2, "slap", out.append, source="test", **kw), out  # type: ignore[arg-type]


def bounce_train(d: Debouncer, start: int, edges: int = 20, step: int = 150 * US) -> int:
    """Press with ``edges`` bouncing edges (down, up, down...); returns the last edge's time."""
    t = start
    for i in range(edges):
        d.edge(0 if i % 2 == 0 else 1, t)
        t += step
    return t - step


def test_first_falling_edge_is_the_press_stamped_at_that_edge_and_emitted_at_once() -> None:
    d, out = make()
    d.edge(0, 1_000)
    assert out == [Press(2, "slap", "press", 1_000, "test")]
    assert d.pressed


def test_a_bounce_train_never_makes_a_second_press() -> None:
    d, out = make()
    last = bounce_train(d, 5 * MS, edges=21)  # ends low: still held
    assert out == [Press(2, "slap", "press", 5 * MS, "test")]
    d.edge(1, last + 50 * MS)  # let go, with a bounce train on the way up
    d.edge(0, last + 50 * MS + 100 * US)
    d.edge(1, last + 50 * MS + 300 * US)
    d.poll(last + 50 * MS + 300 * US + 19 * MS)
    assert len(out) == 1  # not yet stably released
    d.poll(last + 50 * MS + 300 * US + 20 * MS)
    assert out[1] == Press(2, "slap", "release", last + 50 * MS + 300 * US, "test")
    assert not d.pressed and d.next_deadline() is None


def test_release_then_new_press_after_stable_release_is_a_second_press() -> None:
    d, out = make()
    d.edge(0, 0)
    d.edge(1, 10 * MS)
    d.edge(0, 30 * MS)  # up for exactly the release time: a new press, no poll needed
    assert [(e.edge, e.t_ns) for e in out] == [("press", 0), ("release", 10 * MS),  # type: ignore[attr-defined]
                                              ("press", 30 * MS)]


def test_a_short_up_is_bounce_not_a_release() -> None:
    d, out = make()
    d.edge(0, 0)
    d.edge(1, 10 * MS)
    d.edge(0, 29 * MS)  # up 19 ms only
    d.poll(100 * MS)
    assert len(out) == 1 and d.pressed


def test_late_bounce_stamped_before_a_reported_release_is_not_a_press() -> None:
    d, out = make()
    d.edge(0, 0)
    d.edge(1, 10 * MS)
    d.poll(31 * MS)  # release reported, judged at 30 ms
    d.edge(0, 29 * MS)  # a bounce delivered late
    assert [e.edge for e in out] == ["press", "release"]  # type: ignore[attr-defined]


def test_a_button_held_past_the_stuck_time_is_reported_then_unstuck_once_released() -> None:
    d, out = make()
    d.edge(0, 0)
    assert d.next_deadline() == 3_000 * MS
    d.poll(2_999 * MS)
    assert len(out) == 1
    d.poll(3_000 * MS)
    assert out[1] == Stuck(2, "slap", 3_000 * MS) and d.stuck
    d.edge(1, 4_000 * MS)
    d.edge(0, 4_001 * MS)  # still ignored: chatter while stuck
    d.edge(1, 4_002 * MS)
    d.poll(4_022 * MS)
    assert out[2:] == [Press(2, "slap", "release", 4_002 * MS, "test"),
                       Unstuck(2, "slap", 4_002 * MS)]
    assert not d.stuck and not d.pressed


def test_stuck_deadline_reached_by_a_later_edge_without_poll() -> None:
    d, out = make(stuck_ns=100 * MS)
    d.edge(0, 0)
    d.edge(1, 150 * MS)
    assert out[1] == Stuck(2, "slap", 100 * MS)


def test_button_held_at_start_is_locked_reported_stuck_and_owes_no_release() -> None:
    out: list[object] = []
    d = Debouncer(0, "menu", out.append, stuck_ns=1_000 * MS, level=0, t_ns=0)
    d.edge(0, 10 * MS)
    d.poll(1_000 * MS)
    d.edge(1, 2_000 * MS)
    d.poll(2_020 * MS)
    assert out == [Stuck(0, "menu", 1_000 * MS), Unstuck(0, "menu", 2_000 * MS)]


def test_stuck_time_none_means_never_stuck() -> None:
    d, out = make(stuck_ns=None)
    d.edge(0, 0)
    assert d.next_deadline() is None
    d.poll(10**15)
    assert len(out) == 1


@given(st.lists(st.integers(min_value=1, max_value=40 * MS), min_size=1, max_size=60))
def test_every_press_is_released_once_and_presses_are_separated_by_a_stable_release(
        gaps: list[int]) -> None:
    d, out = make(stuck_ns=None)
    t, level = 0, 1
    ups: list[tuple[int, int]] = []  # (rise time, next fall time)
    rise = None
    for g in gaps:
        t += g
        level ^= 1
        d.edge(level, t)
        if level:
            rise = t
        elif rise is not None:
            ups.append((rise, t))
    if not level:
        d.edge(1, t + 1)  # let go at the end
    d.poll(t + 10**12)
    kinds = [e.edge for e in out]  # type: ignore[attr-defined]
    assert kinds == ["press", "release"] * (len(kinds) // 2)
    presses = [e.t_ns for e in out if e.edge == "press"]  # type: ignore[attr-defined]
    assert presses[0] == gaps[0]
    # a second press exists exactly when an up phase lasted the release time
    assert len(presses) == 1 + sum(1 for r, f in ups if f - r >= 20 * MS)


def test_press_records_round_trip_and_bad_ones_say_what_is_wrong() -> None:
    p = Press(3, "flip", "press", 123, "gpio")
    assert event_from_dict(p.to_dict()) == p
    assert event_from_dict(Stuck(1, "slap", 5).to_dict()) == Stuck(1, "slap", 5)
    assert event_from_dict(Unstuck(1, "menu", 5).to_dict()) == Unstuck(1, "menu", 5)
    with pytest.raises(PressFormatError, match="button='kick', expected one of slap, flip, menu"):
        Press.from_dict({"station": 0, "button": "kick", "edge": "press", "t_ns": 1})
    with pytest.raises(PressFormatError, match="t_ns=1.5 is not an integer"):
        Press.from_dict({"station": 0, "button": "slap", "edge": "press", "t_ns": 1.5})
    with pytest.raises(PressFormatError, match="missing 'station'"):
        Press.from_dict({"button": "slap", "edge": "press", "t_ns": 1})


def test_sink_is_a_simple_queue_or_a_callable() -> None:
    import queue
    q: queue.SimpleQueue[object] = queue.SimpleQueue()
    make_sink(q)(Stuck(0, "slap", 1))
    assert q.get_nowait() == Stuck(0, "slap", 1)
    with pytest.raises(TypeError, match="expected a queue.SimpleQueue or a callable"):
        make_sink(42)  # type: ignore[arg-type]
