"""The stations' LEDs, lit and blinked on the box's clock: what the gpio and gpiod backends share
(both drive their LEDs through gpiozero)."""

from __future__ import annotations

from typing import Any

from device.clock import Clock, Handle
from device.inputs.pins import GpioConfigError


class StationLeds:
    """A mixin: ``_leds`` (one gpiozero LED or None per station), ``_blinks``, ``_clock``."""

    _leds: list[Any]
    _blinks: dict[int, Handle]
    _clock: Clock | None
    #: the backend's name, in messages
    _backend = "gpio"

    def _led(self, station: int) -> Any:
        if not isinstance(station, int) or not 0 <= station < len(self._leds):
            raise GpioConfigError(f"{self._backend}: LED of station {station!r}, expected a station "
                                  f"0..{len(self._leds) - 1}")
        return self._leds[station]

    def set_led(self, station: int, on: bool) -> None:
        """Light (or not) the station's LED; stops any blink. No LED wired: nothing happens."""
        led = self._led(station)
        handle = self._blinks.pop(station, None)
        if handle is not None:
            handle.cancel()
        if led is not None:
            led.value = 1 if on else 0

    def blink(self, station: int, times: int | None = 3, on_ns: int = 150_000_000,
              off_ns: int = 150_000_000) -> None:
        """Blink the station's LED ``times`` times (None: until `set_led`), on the clock."""
        if self._clock is None:
            raise GpioConfigError(f"{self._backend}: blink needs the clock (pass clock= to the "
                                  "backend)")
        led = self._led(station)
        self.set_led(station, False)
        if led is None:
            return
        clock, left = self._clock, [times]

        def step(on: bool) -> None:
            led.value = 1 if on else 0
            if not on and left[0] is not None:
                left[0] -= 1
                if left[0] <= 0:
                    self._blinks.pop(station, None)
                    return
            self._blinks[station] = clock.call_at(clock.now_ns() + (on_ns if on else off_ns),
                                                  lambda: step(not on))

        step(True)

    def _stop_blinking(self) -> None:
        for handle in self._blinks.values():
            handle.cancel()
        self._blinks.clear()


__all__ = ["StationLeds"]
