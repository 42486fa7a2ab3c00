"""What this box wired to its Pico (edit, then `slapbox bridge flash`).

The pins themselves are fixed (`bridge_core.layout`, hardware.md): station s's SLAP on GPIO 2s,
its FLIP on GPIO 2s+1, MENU on GPIO 16, LEDs on GPIO 17, 18, 19, 20, 21, 22, 26, 27.
"""

STATIONS = 8            # 1 to 8: stations announced in the hello
FLIP = True             # each station has a FLIP button
LEDS = True             # each station has an LED (through a driver: hardware.md)
LED_ACTIVE_HIGH = True  # GPIO high lights the LED (a ULN2803 or an NPN low-side switch)
SAMPLER = "pio"         # "pio": the PIO sampler with DMA; "irq": the fallback, one hard IRQ
