"""The GPIO backend on gpiozero's real MockFactory: stamps at the first edge, bounce-proof, LEDs."""

from __future__ import annotations

import gc
import queue
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from device.clock import VirtualClock
from device.inputs import MENU_STATION, Press, Stuck, Unstuck
from device.inputs.gpio import (
    GpioConfigError,
    GpioInputs,
    StampedMockPin,
    StationPins,
    check_pins,
    make_factory,
)

MS = 1_000_000
US = 1_000
T0 = 1_000 * 1_000_000_000  # a Pi that has been up ~17 minutes

PINS = [StationPins(slap=17, flip=27, led=22), StationPins(slap=5, led=6),
        StationPins(slap=13)]


@pytest.fixture
def rig() -> Iterator[tuple[GpioInputs, MockFactory, queue.SimpleQueue[object], VirtualClock]]:
    factory = MockFactory(pin_class=StampedMockPin)
    q: queue.SimpleQueue[object] = queue.SimpleQueue()
    clock = VirtualClock(T0)
    gpio = GpioInputs(PINS, q, menu_pin=26, factory=factory, clock=clock)
    yield gpio, factory, q, clock
    gpio.close()


def drain(q: queue.SimpleQueue[object]) -> list[object]:
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


def test_pins_are_pulled_up_inputs_without_library_debounce(rig) -> None:  # type: ignore[no-untyped-def]
    _, factory, _, _ = rig
    for n in (17, 27, 5, 13, 26):
        pin = factory.pin(n)
        assert (pin.function, pin.pull, pin.bounce, pin.edges) == ("input", "up", None, "both")
        assert pin.state is True  # pulled up: not pressed


def test_bounce_train_of_20_edges_in_3_ms_is_one_press_stamped_at_the_first_edge(rig) -> None:  # type: ignore[no-untyped-def]
    gpio, factory, q, clock = rig
    pin = factory.pin(17)
    t = T0 + 123_456_789
    for i in range(20):  # 20 edges, 150 us apart: down, up, down... ending up
        pin.drive(0 if i % 2 == 0 else 1, t + i * 150 * US)
    assert drain(q) == [Press(0, "slap", "press", t, "gpio")]
    last_rise = t + 19 * 150 * US
    assert gpio.next_deadline() == last_rise + 20 * MS + 2 * MS  # release time + delivery lag
    clock.advance_to(gpio.next_deadline())  # type: ignore[arg-type]
    gpio.poll(clock.now_ns())
    assert drain(q) == [Press(0, "slap", "release", last_rise, "gpio")]


def test_callbacks_survive_garbage_collection(rig) -> None:  # type: ignore[no-untyped-def]
    _, factory, q, _ = rig
    gc.collect()
    factory.pin(5).drive(0, T0 + 1)
    factory.pin(27).drive(0, T0 + 2)
    factory.pin(26).drive(0, T0 + 3)
    assert drain(q) == [Press(1, "slap", "press", T0 + 1, "gpio"),
                        Press(0, "flip", "press", T0 + 2, "gpio"),
                        Press(MENU_STATION, "menu", "press", T0 + 3, "gpio")]


def test_a_lambda_callback_would_be_dropped_which_is_why_we_keep_bound_methods() -> None:
    factory = MockFactory(pin_class=StampedMockPin)
    pin = factory.pin(4)
    pin.function = "input"
    pin.pull = "up"
    seen: list[int] = []
    pin.when_changed = lambda ticks, state: seen.append(state)
    gc.collect()
    pin.drive(0, 5)
    assert seen == []  # gpiozero held it weakly


def test_a_stuck_button_does_not_block_other_stations_and_is_reported(rig) -> None:  # type: ignore[no-untyped-def]
    gpio, factory, q, clock = rig
    factory.pin(13).drive(0, T0)  # station 2 held down and never let go
    clock.advance_to(T0 + 3_002 * MS)
    gpio.poll(clock.now_ns())
    assert drain(q) == [Press(2, "slap", "press", T0, "gpio"), Stuck(2, "slap", T0 + 3_000 * MS)]
    assert gpio.stuck() == [(2, "slap")]
    factory.pin(17).drive(0, T0 + 3_100 * MS)
    factory.pin(5).drive(0, T0 + 3_100 * MS + 1)
    assert drain(q) == [Press(0, "slap", "press", T0 + 3_100 * MS, "gpio"),
                        Press(1, "slap", "press", T0 + 3_100 * MS + 1, "gpio")]
    clock.advance_to(T0 + 5_000 * MS)
    factory.pin(13).drive(1, T0 + 5_000 * MS)
    gpio.poll(T0 + 5_022 * MS)
    assert drain(q) == [Press(2, "slap", "release", T0 + 5_000 * MS, "gpio"),
                        Unstuck(2, "slap", T0 + 5_000 * MS)]


def test_menu_hold_of_5_s_is_not_stuck(rig) -> None:  # type: ignore[no-untyped-def]
    gpio, factory, q, clock = rig
    factory.pin(26).drive(0, T0)
    gpio.poll(T0 + 5_000 * MS)
    clock.advance_to(T0 + 5_500 * MS)
    factory.pin(26).drive(1, T0 + 5_500 * MS)
    gpio.poll(T0 + 5_600 * MS)
    assert drain(q) == [Press(MENU_STATION, "menu", "press", T0, "gpio"),
                        Press(MENU_STATION, "menu", "release", T0 + 5_500 * MS, "gpio")]


def test_edges_from_another_clock_are_stamped_with_the_monotonic_clock(rig) -> None:  # type: ignore[no-untyped-def]
    gpio, factory, q, clock = rig
    factory.pin(17).drive(0, 1_700_000_000 * 10**9)  # epoch stamps from a very old kernel
    assert drain(q) == [Press(0, "slap", "press", clock.now_ns(), "gpio")]
    assert gpio.stamp_fallbacks == 1


def test_lgpio_watchdog_level_2_is_not_an_edge(rig) -> None:  # type: ignore[no-untyped-def]
    gpio, _, q, _ = rig
    gpio._watches[0].on_edge(T0 / 1e9, 2)
    assert drain(q) == []


def test_leds_toggle_the_pin_and_blink_on_the_clock(rig) -> None:  # type: ignore[no-untyped-def]
    gpio, factory, _, clock = rig
    led = factory.pin(22)
    gpio.set_led(0, True)
    assert led.state is True
    gpio.set_led(0, False)
    assert led.state is False
    gpio.set_led(2, True)  # no LED wired: nothing to do
    gpio.blink(1, times=2, on_ns=100 * MS, off_ns=50 * MS)
    states = [factory.pin(6).state]
    times = [clock.now_ns()]
    while clock.next_deadline() is not None:
        clock.advance_to(clock.next_deadline())  # type: ignore[arg-type]
        states.append(factory.pin(6).state)
        times.append(clock.now_ns())
    assert states == [True, False, True, False]
    assert [t - times[0] for t in times] == [0, 100 * MS, 150 * MS, 250 * MS]
    assert clock.next_deadline() is None
    gpio.blink(0, times=None)
    gpio.set_led(0, True)  # stops the blink
    clock.run_until_idle()
    assert led.state is True
    with pytest.raises(GpioConfigError, match="station 5"):
        gpio.set_led(5, True)


def test_close_frees_the_pins_for_others() -> None:
    factory = MockFactory(pin_class=StampedMockPin)
    gpio = GpioInputs([StationPins(17, led=22)], lambda e: None, factory=factory)
    with pytest.raises(Exception, match="in use"):
        GpioInputs([StationPins(17)], lambda e: None, factory=factory)
    gpio.close()
    GpioInputs([StationPins(17)], lambda e: None, factory=factory).close()


def test_bad_pin_maps_say_what_is_wrong() -> None:
    with pytest.raises(GpioConfigError, match=r"stations\[1\].led: pin 17 is already used by stations\[0\].slap"):
        check_pins([StationPins(17), StationPins(5, led=17)], None)
    with pytest.raises(GpioConfigError, match="menu: expected a BCM pin number from 2 to 27, got 40"):
        check_pins([StationPins(17)], 40)
    with pytest.raises(GpioConfigError, match="9 stations: expected a list of 1 to 8"):
        check_pins([StationPins(i) for i in range(9)], None)
    with pytest.raises(GpioConfigError, match="expected lgpio or mock"):
        make_factory("pigpio")
    assert isinstance(make_factory("mock"), MockFactory)
