"""The gpiod backend on the shipped fake chip: kernel stamps, first contact, lost and merged edges."""

from __future__ import annotations

import dataclasses
import logging
import queue
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from device.box import Inputs, Options, check_source
from device.clock import VirtualClock
from device.config.schema import load_config
from device.inputs import MENU_STATION, Press, Stuck
from device.inputs.gpio import GpioConfigError, StampedMockPin, StationPins
from device.inputs.gpiod import (
    EVENT_BUFFER_MAX,
    INSTALL_HINT,
    FakeChip,
    FakeEdgeEvent,
    GpiodInputs,
    _Line,
    load_gpiod,
)
from device.inputs.press import RawEdge
from device.screen.menu import Settings

MS = 1_000_000
US = 1_000
T0 = 1_000 * 1_000_000_000
PINS = [StationPins(slap=17, flip=27, led=22), StationPins(slap=5, led=13)]
RISING, FALLING = FakeEdgeEvent.Type.RISING_EDGE, FakeEdgeEvent.Type.FALLING_EDGE


def take(q: queue.SimpleQueue[Any], want: Callable[[Any], bool], timeout_s: float = 2.0) -> Any:
    """The first item on ``q`` that ``want``s, waiting at most ``timeout_s`` for it."""
    end = time.monotonic() + timeout_s
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError("nothing matching arrived in time")
        try:
            item = q.get(timeout=left)
        except queue.Empty:
            continue
        if want(item):
            return item


def drain(q: queue.SimpleQueue[Any]) -> list[Any]:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def presses(items: list[Any]) -> list[Press]:
    return [i for i in items if isinstance(i, Press)]


Rig = tuple[GpiodInputs, FakeChip, "queue.SimpleQueue[Any]", VirtualClock, MockFactory]


@pytest.fixture
def rig() -> Iterator[Rig]:
    chip, leds = FakeChip(), MockFactory(pin_class=StampedMockPin)
    q: queue.SimpleQueue[Any] = queue.SimpleQueue()
    clock = VirtualClock(T0)
    box = GpiodInputs(PINS, q, menu_pin=26, lines=chip, led_factory=leds, clock=clock)
    yield box, chip, q, clock, leds
    box.close()


def test_each_button_line_is_its_own_request_with_the_largest_buffer(rig: Rig) -> None:
    box, chip, *_ = rig
    assert sorted(chip.lines) == [5, 17, 26, 27]
    assert {r.capacity for r in chip.lines.values()} == {EVENT_BUFFER_MAX}
    assert chip.lines[26].consumer == "slapbox-menu-menu"


def test_a_press_is_stamped_at_the_kernel_stamp_of_its_first_edge(rig: Rig) -> None:
    box, chip, q, clock, _ = rig
    clock.advance_to(T0 + 5 * MS)
    chip.drive(17, 0, T0 + 1 * MS + 7)
    p = take(q, lambda i: isinstance(i, Press))
    assert (p.station, p.button, p.edge, p.t_ns, p.source) == (0, "slap", "press", T0 + MS + 7,
                                                               "gpiod")


def test_a_first_contact_labelled_rising_is_a_press_at_its_stamp(rig: Rig) -> None:
    box, chip, q, clock, _ = rig
    chip.drive(5, 0, T0 + 2 * MS, reported=1)  # bounced open before the kernel read the level
    p = take(q, lambda i: isinstance(i, Press))
    assert (p.station, p.edge, p.t_ns) == (1, "press", T0 + 2 * MS)


def test_bounce_makes_one_press_and_the_release_comes_at_poll(rig: Rig) -> None:
    box, chip, q, clock, _ = rig
    t = T0 + MS
    for k in range(9):  # a 9-edge bounce train, 100 us apart, ending down
        chip.drive(17, k % 2, t + k * 100 * US)
    chip.drive(17, 1, t + 30 * MS)
    assert box.sync()
    clock.advance_to(t + 60 * MS)
    box.poll(clock.now_ns())
    rel = take(q, lambda i: isinstance(i, Press) and i.edge == "release")
    assert rel.t_ns == t + 30 * MS
    assert box.sync()
    got = presses(drain(q))
    assert [p.edge for p in got] == []  # the press came before the release, nothing after
    assert box.lost == 0 and box.merged == 0


def test_a_buffer_overflow_is_counted_as_lost_edges_and_the_line_re_read(
        rig: Rig, caplog: pytest.LogCaptureFixture) -> None:
    box, chip, q, clock, _ = rig
    t = T0 + MS
    n = EVENT_BUFFER_MAX + 300
    with caplog.at_level(logging.WARNING, logger="slapbox"), chip.busy(17):
        for k in range(n):  # a chattering button while the reader is away
            chip.drive(17, k % 2, t + k * 10 * US)
    assert box.sync()
    assert chip.lines[17].dropped == 300
    assert box.lost == 300 and box.line_counts()[17]["gaps"] == 1
    assert any("300 edge(s) lost" in r.getMessage() and "GPIO 17" in r.getMessage()
               for r in caplog.records)
    # the first event the reader saw (not the lost first contact) is the press: late, not invented
    p = take(q, lambda i: isinstance(i, Press))
    assert p.t_ns == t + 300 * 10 * US
    assert box.line_counts()[5]["lost"] == 0  # another button's buffer is its own


def test_two_events_with_the_same_label_are_a_merged_edge(rig: Rig) -> None:
    box, chip, q, clock, _ = rig
    chip.drive(17, 0, T0 + MS)
    chip.drive(17, 0, T0 + MS + 50 * US)  # the rise between them was merged by the kernel
    chip.drive(17, 1, T0 + MS + 80 * US)
    assert box.sync()
    assert box.merged == 1 and box.lost == 0


def test_a_lost_release_is_repaired_by_reading_the_line(rig: Rig) -> None:
    box, chip, q, clock, _ = rig
    chip.drive(17, 0, T0 + MS)
    take(q, lambda i: isinstance(i, Press))
    chip.lines[17].level = 1  # released, and its edge never reached the buffer
    clock.advance_to(T0 + 100 * MS)
    box.poll(clock.now_ns())
    rel = take(q, lambda i: isinstance(i, Press))
    assert rel.edge == "release" and box.repairs == 1
    chip.drive(17, 0, T0 + 200 * MS)  # the next real press is a press
    p = take(q, lambda i: isinstance(i, Press))
    assert (p.edge, p.t_ns) == ("press", T0 + 200 * MS)


def test_a_button_held_past_the_stuck_time_is_reported(rig: Rig) -> None:
    box, chip, q, clock, _ = rig
    chip.drive(5, 0, T0 + MS)
    take(q, lambda i: isinstance(i, Press))
    for step in range(1, 80):
        clock.advance_to(T0 + step * 50 * MS)
        box.poll(clock.now_ns())
    s = take(q, lambda i: isinstance(i, Stuck))
    assert (s.station, s.button) == (1, "slap")
    assert box.sync() and box.stuck() == [(1, "slap")]


def test_record_edges_carries_the_kernel_sequence_numbers() -> None:
    chip, q, clock = FakeChip(), queue.SimpleQueue(), VirtualClock(T0)
    with GpiodInputs([StationPins(slap=17)], q, lines=chip, clock=clock, record_edges=True) as box:
        chip.drive(17, 0, T0 + MS)
        chip.drive(17, 1, T0 + 2 * MS)
        assert box.sync()
        edges = [i for i in drain(q) if isinstance(i, RawEdge)]
    assert [(e.pin, e.level, e.line_seq, e.global_seq) for e in edges] == [
        (17, 0, 1, 1), (17, 1, 2, 2)]


def test_translation_of_events_shaped_like_gpiod_edge_events() -> None:
    """The translation alone, on a hand-made stream: a gap, a merged pair, labels as given."""
    got: list[Any] = []

    class Req:
        fd = -1

        def get_value(self, offset: int) -> int:
            return 1

    from device.inputs.debounce import Debouncer
    box = object.__new__(GpiodInputs)  # only what translate() touches
    box._clock, box._sink, box.record_edges, box._lines = None, got.append, False, []
    deb = Debouncer(0, "slap", got.append, source="gpiod", read_level=lambda: 1)
    line = _Line(Req(), 17, deb)
    box._lines.append(line)
    ev = [FakeEdgeEvent(RISING, T0 + 10, 17, 1, 1),     # first contact labelled rising
          FakeEdgeEvent(FALLING, T0 + 20, 17, 2, 2),
          FakeEdgeEvent(FALLING, T0 + 30, 17, 3, 3),    # same label, no gap: merged
          FakeEdgeEvent(RISING, T0 + 90, 17, 7, 7)]     # 3 lost (4, 5, 6)
    box.translate(line, ev)
    assert (line.lost, line.gaps, line.merged) == (3, 1, 1)
    assert [(p.edge, p.t_ns) for p in got if isinstance(p, Press)] == [("press", T0 + 10)]


def test_the_fake_event_has_the_fields_of_gpiod_edge_event() -> None:
    names = [f.name for f in dataclasses.fields(FakeEdgeEvent)]
    try:
        import gpiod
    except ImportError:  # the fields read in libgpiod 2.2's bindings/python/gpiod/edge_event.py
        real = ["event_type", "timestamp_ns", "line_offset", "global_seqno", "line_seqno"]
    else:
        real = [f.name for f in dataclasses.fields(gpiod.EdgeEvent)]
        assert [t.name for t in gpiod.EdgeEvent.Type] == [t.name for t in FakeEdgeEvent.Type]
    assert names == real


def test_leds_stay_on_gpiozero(rig: Rig) -> None:
    box, chip, q, clock, leds = rig
    box.set_led(0, True)
    assert leds.pin(22).state == 1
    box.blink(1, times=1, on_ns=10 * MS)
    assert leds.pin(13).state == 1
    clock.advance_to(T0 + 30 * MS)
    clock.run_due()
    assert leds.pin(13).state == 0


def test_without_the_bindings_one_line_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gpiod", None)
    with pytest.raises(GpioConfigError) as e:
        load_gpiod()
    assert str(e.value) == INSTALL_HINT and "\n" not in INSTALL_HINT
    assert "slapbox[gpiod]" in INSTALL_HINT


def test_close_stops_the_reader_and_releases_every_line() -> None:
    chip = FakeChip()
    box = GpiodInputs(PINS, queue.SimpleQueue(), menu_pin=26, lines=chip,
                      led_factory=MockFactory(pin_class=StampedMockPin), clock=VirtualClock(T0))
    thread = box._thread
    box.close()
    assert thread is not None and not thread.is_alive()
    assert all(r.released for r in chip.lines.values())
    box.close()  # twice is harmless


def test_the_box_chooses_gpiod_by_name(tmp_path: Any) -> None:
    assert check_source("gpiod") == "gpiod"
    cfg = tmp_path / "c.toml"
    cfg.write_text('[inputs]\nsource = "gpiod"\n[pins]\nfactory = "mock"\n')
    pins = dict(load_config(str(cfg)).section("pins"))
    opts = Options(settings=Settings(), source="gpiod", pins=pins)
    inputs = Inputs("gpiod", opts, VirtualClock(T0))
    try:
        assert isinstance(inputs.gpio, GpiodInputs) and inputs.stations() == 4
        inputs.set_led(0, True)
    finally:
        inputs.close()


def test_the_menu_button_is_read_too(rig: Rig) -> None:
    box, chip, q, clock, _ = rig
    chip.drive(26, 0, T0 + 3 * MS)
    p = take(q, lambda i: isinstance(i, Press))
    assert (p.station, p.button) == (MENU_STATION, "menu")
