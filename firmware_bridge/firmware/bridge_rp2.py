# mypy: ignore-errors
# ruff: noqa: F821  (viper's ptr32 is a builtin of the viper emitter)
# (MicroPython on the RP2040 only: machine, rp2, uctypes, viper's ptr32 have no stubs here)
"""The RP2040-only half of the bridge firmware: PIO sampler and DMA ring, the IRQ fallback, pins,
LEDs, USB CDC serial and the 64-bit µs timer. Everything else is `bridge_core` and the shared
`protocol` (run on CPython and MicroPython-on-Node by the tests); this module runs only on a Pico.

Device time is the RP2040's 64-bit µs timer, TIMERAWH:TIMERAWL read with ``machine.mem32`` (never
``time.ticks_us``, which wraps every 2**30 µs = 17.9 min) and never in a hard IRQ: an integer of
2**30 or more is a heap object on MicroPython, and a hard IRQ must not allocate. ``mem32`` gives
signed values (``mp_obj_new_int`` of a uint32): every read is masked with 0xFFFFFFFF.

Samplers (README.md in this folder says what accuracy each gives):

- `PioSampler`: the `bridge_pio` program on PIO0 SM0 reads GPIO 0..16 in one cycle every 1 µs and
  pushes (levels, loop counter) on every change; a DMA channel paced by the RX FIFO's DREQ copies
  each word into an aligned 8 KiB ring (1024 pairs, the DMA's own address wrap), so the FIFO
  never holds more than a word or two. The counter is anchored to the µs timer by starting the
  state machine between two timer reads in a viper function (a few instructions apart).
- `IrqSampler` (``SAMPLER = "irq"`` in bridge_config.py): no PIO; one hard IRQ (viper, no
  allocation) on either edge of any button pin stores the whole GPIO input register (SIO
  GPIO_IN) and TIMERAWL, read once each, into a 128-pair ring.
"""

import os
import select
import sys
from array import array

import machine
import micropython
import rp2
import uctypes
from machine import Pin, mem32

import bridge_config as CFG
import bridge_core as C
import bridge_pio
import protocol as P

M32 = 0xFFFFFFFF
TIMER_BASE = 0x40054000
TIMERAWH = TIMER_BASE + 0x24
TIMERAWL = TIMER_BASE + 0x28
PIO0_BASE = 0x50200000
PIO_CTRL = 0x000
PIO_FDEBUG = 0x008         # RXSTALL: bits 0..3, one per state machine, write 1 to clear
PIO_FLEVEL = 0x00C         # RX level of SM n: bits 8n+4..8n+7
PIO_SM0_CLKDIV = 0x0C8     # INT 31:16, FRAC 15:8; 0x18 between state machines
ATOMIC_SET = 0x2000
SIO_GPIO_IN = 0xD0000004
DREQ_PIO0_RX0 = 4

# addresses for the viper functions (a viper constant above 2**30 is an object; these are words)
_ADDR = array("I", [TIMERAWL, PIO0_BASE + ATOMIC_SET + PIO_CTRL, SIO_GPIO_IN])
_STAMP = array("I", [0, 0])


def now_us():
    """The 64-bit µs timer (TIMERAWH:TIMERAWL, unlatched: re-read if the high word moved)."""
    while True:
        hi = mem32[TIMERAWH] & M32
        lo = mem32[TIMERAWL] & M32
        if mem32[TIMERAWH] & M32 == hi:
            return (hi << 32) | lo


@micropython.viper
def _enable_stamped(mask: int):
    # TIMERAWL, then the store that enables the state machine, then TIMERAWL again
    a = ptr32(_ADDR)
    t = ptr32(a[0])
    c = ptr32(a[1])
    s = ptr32(_STAMP)
    s[0] = t[0]
    c[0] = mask
    s[1] = t[0]


class _Words:
    """Unsigned 32-bit words at an address (the ring as the CPU reads it)."""

    def __init__(self, addr):
        self.addr = addr

    def __getitem__(self, i):
        return mem32[self.addr + 4 * i] & M32


class PioSampler:
    RING_BITS = 13              # 8 KiB: 2048 words, 1024 (levels, counter) pairs
    COUNT0 = 0xFFFFFFFF         # DMA transfers per sequence; re-armed below 2**31
    sm_id = 0

    def __init__(self):
        size = 1 << self.RING_BITS
        self.buf = bytearray(2 * size)  # twice, to find a size-aligned ring inside
        addr = uctypes.addressof(self.buf)
        self.ring_addr = (addr + size - 1) & ~(size - 1)
        self.ring = C.Ring(_Words(self.ring_addr), 0, size // 4)
        self.freq = bridge_pio.LOOP_CYCLES * 1000000
        self.sm = rp2.StateMachine(self.sm_id, bridge_pio.sampler, freq=self.freq, in_base=Pin(0))
        self.dma = rp2.DMA()
        self.ctrl = self.dma.pack_ctrl(size=2, inc_read=False, inc_write=True,
                                       ring_size=self.RING_BITS, ring_sel=True,
                                       treq_sel=DREQ_PIO0_RX0 + self.sm_id, irq_quiet=True,
                                       high_pri=True)
        self.offset = 0     # words written by earlier DMA sequences (mod 2**32)
        self.stalls = 0     # times the FIFO was full (the sampler is then restarted)
        self.restarts = 0
        self.clock = None
        self.stamp_us = 0   # the anchor's bracket: the two timer reads were this far apart
        self.dma.config(read=self.sm, write=self.ring_addr, count=self.COUNT0, ctrl=self.ctrl,
                        trigger=True)
        self.start()

    def start(self):
        sm = self.sm
        sm.init(bridge_pio.sampler, freq=self.freq, in_base=Pin(0))  # PC at the start, stopped
        sm.exec("set(x, 0)")
        sm.exec("set(y, 0)")
        div = mem32[PIO0_BASE + PIO_SM0_CLKDIV + 0x18 * self.sm_id] & M32
        _enable_stamped(1 << self.sm_id)
        t0 = _STAMP[0]
        self.stamp_us = (_STAMP[1] - t0) & M32
        self.clock = C.CounterClock.from_divider(C.extend32(t0, now_us()), bridge_pio.LOOP_CYCLES,
                                                 machine.freq(), div >> 16, (div >> 8) & 0xFF)

    def stop(self):
        self.sm.active(0)

    def us(self, x, now):
        return self.clock.us(x, now)

    def _written(self):
        return (self.offset + self.COUNT0 - (self.dma.count & M32)) & M32

    def _rx_level(self):
        return (mem32[PIO0_BASE + PIO_FLEVEL] >> (8 * self.sm_id + 4)) & 0xF

    def drain(self, feed, now):
        before = self.ring.overruns
        self.ring.drain(self._written(), feed, now)
        stall = 1 << self.sm_id
        if mem32[PIO0_BASE + PIO_FDEBUG] & stall:
            # the FIFO filled: the counter stood still for a while, so its anchor is off
            self.stalls += 1
            self.sm.active(0)
            for _ in range(1000):  # the DMA empties the FIFO in well under a µs
                if not self._rx_level():
                    break
            self.ring.drain(self._written(), feed, now)
            mem32[PIO0_BASE + PIO_FDEBUG] = stall
            self.restarts += 1
            self.start()
        if (self.dma.count & M32) < 0x80000000 and not self._rx_level():
            self.dma.active(0)
            self.offset = self._written()
            self.dma.config(write=self.dma.write, count=self.COUNT0, ctrl=self.ctrl, trigger=True)
        return self.ring.overruns - before


_IRQ_WORDS = 256  # 128 pairs; the literal 255 in _on_edge is _IRQ_WORDS - 1
_IRQ_RING = bytearray(4 * _IRQ_WORDS)
_IRQ_COUNT = bytearray(4)  # words written, u32


@micropython.viper
def _on_edge(pin):
    # hard IRQ: machine words only, no allocation
    a = ptr32(_ADDR)
    r = ptr32(_IRQ_RING)
    st = ptr32(_IRQ_COUNT)
    n = st[0]
    i = n & 255
    r[i] = ptr32(a[2])[0]      # GPIO_IN: every pin, one read
    r[i + 1] = ptr32(a[0])[0]  # TIMERAWL
    st[0] = n + 2


class IrqSampler:
    def __init__(self, pins):
        self.ring = C.Ring(_Words(uctypes.addressof(_IRQ_RING)), 0, _IRQ_WORDS)
        self.clock = C.TimerClock()
        self.count_addr = uctypes.addressof(_IRQ_COUNT)
        self.pins = pins
        for p in pins:
            p.irq(_on_edge, Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)

    def us(self, low, now):
        return self.clock.us(low, now)

    def drain(self, feed, now):
        before = self.ring.overruns
        self.ring.drain(mem32[self.count_addr] & M32, feed, now)
        return self.ring.overruns - before

    def stop(self):
        for p in self.pins:
            p.irq(None)


class Usb:
    """The USB CDC serial port MicroPython's stdio uses, raw (``.buffer``: no CR/LF cooking)."""

    def __init__(self):
        self.rx = sys.stdin.buffer
        self.tx = sys.stdout.buffer
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)

    def read(self):
        out = b""
        while len(out) < 80 and self.poll.poll(0):
            out += self.rx.read(1)
        return out

    def write(self, data):
        self.tx.write(data)


class Hardware:
    def __init__(self, sampler, led_pins, active_high=True):
        self.sampler = sampler
        self.usb = Usb()
        self.led_pins = led_pins
        self.on = 1 if active_high else 0
        self.now_us = now_us

    def read(self):
        return self.usb.read()

    def write(self, frame):
        self.usb.write(frame)

    def drain(self, feed, now):
        return self.sampler.drain(feed, now)

    def set_leds(self, bits):
        for s in range(len(self.led_pins)):
            self.led_pins[s].value(self.on if bits >> s & 1 else 1 - self.on)

    def stop(self):
        self.sampler.stop()
        self.set_leds(0)


def build():
    """The device, the hardware and the loop from bridge_config.py."""
    stations, menu_pin = C.layout(CFG.STATIONS, CFG.FLIP, CFG.LEDS)
    pins = []
    for s in stations:
        for n in (s[0], s[1]):
            if n != P.NO_PIN:
                pins.append(Pin(n, Pin.IN, Pin.PULL_UP))
    pins.append(Pin(menu_pin, Pin.IN, Pin.PULL_UP))
    off = 0 if CFG.LED_ACTIVE_HIGH else 1
    leds = [Pin(s[2], Pin.OUT, value=off) for s in stations if s[2] != P.NO_PIN]
    sampler = PioSampler() if CFG.SAMPLER == "pio" else IrqSampler(pins)
    boot_id = int.from_bytes(os.urandom(4), "little")
    device = P.Device(boot_id, stations, menu_pin)
    hw = Hardware(sampler, leds, CFG.LED_ACTIVE_HIGH)
    return C.Bridge(device, hw, C.Decoder(device, sampler), C.Leds(len(stations))), hw


def main():
    if not Pin(C.MENU_PIN, Pin.IN, Pin.PULL_UP).value():
        print("slapbox bridge: MENU held at boot: staying at the REPL")
        return
    bridge, hw = build()
    micropython.kbd_intr(-1)  # a 0x03 inside a frame must not raise KeyboardInterrupt
    try:
        bridge.run()          # returns once the host sent REPL (BYE written)
    finally:
        hw.stop()
        micropython.kbd_intr(3)
