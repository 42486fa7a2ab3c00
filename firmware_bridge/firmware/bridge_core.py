"""The firmware's CPU-side logic, pure: runs on the Pico, on CPython and on MicroPython-on-Node.

Nothing here touches hardware: the RP2040 parts (PIO, DMA, pins, USB, the timer registers) are in
`bridge_rp2`, which hands this module plain integers. Here:

- the fixed pin map (`layout`): GPIO 2s = station s's SLAP, 2s+1 its FLIP, 16 = MENU, so a
  17-bit sample of GPIO 0..16 *is* the protocol's button-bit mask; LEDs on `LED_PINS`;
- `extend32`: a wrapping 32-bit reading made 64-bit against a later 64-bit time;
- `CounterClock`: the PIO loop counter (`bridge_pio`) to device µs;
- `Ring`: a ring of (levels, time) word pairs filled by DMA or an IRQ, drained in order, with
  overruns counted;
- `Decoder`: pairs to `protocol.Device.sample(changed, levels, t_us)` (the shared session logic,
  with its leading-edge lock-out, used unchanged);
- `Leds`: LED commands (on, off, blink n times) to pin levels;
- `Bridge`: one step of the main loop over a hardware object (`bridge_rp2.Hardware`, or a fake
  in the tests).

Same rules as `protocol`: integers only, no ``typing``/``dataclasses``/``__future__``. Integers of
2**30 and above allocate on MicroPython: fine here, never called from a hard IRQ.
"""

try:
    import protocol as P  # type: ignore[import-not-found]  # the Pico, Node: protocol.py beside it
except ImportError:
    from firmware_bridge import protocol as P

BUTTON_PINS = 17
ALL_UP = (1 << BUTTON_PINS) - 1
MENU_PIN = 16
LED_PINS = (17, 18, 19, 20, 21, 22, 26, 27)
WRAP = 1 << 32
M32 = WRAP - 1


def layout(stations=8, flip=True, leds=True):
    """(the hello's (slap, flip, led) pins per station, the menu pin) of the fixed pin map."""
    if not 1 <= stations <= P.MAX_STATIONS:
        raise ValueError("%d stations, expected 1 to %d" % (stations, P.MAX_STATIONS))
    out = []
    for s in range(stations):
        out.append((2 * s, 2 * s + 1 if flip else P.NO_PIN, LED_PINS[s] if leds else P.NO_PIN))
    return out, MENU_PIN


def extend32(raw, ref):
    """The value v with v = raw (mod 2**32) and ref - 2**32 < v <= ref: a 32-bit reading taken
    before ``ref`` (and less than 2**32 before it) made whole."""
    return ref - ((ref - raw) & M32)


class CounterClock:
    """Device µs of the PIO sampler's loop counter.

    The state machine was started with X = ``x0`` at device µs ``anchor_us`` (64-bit); loop k's
    sample carries X = x0 - 1 - k (mod 2**32); a loop lasts ``num / den`` µs exactly (from the
    clock divider: `from_divider`). ``us(x, now_us)`` is the sample's device µs, for any sample
    taken before ``now_us`` and less than 2**32 loops (71.6 min at 1 µs a loop) before it.
    """

    MARGIN = 1 << 16  # loops of slack for rounding and the anchor's error (65 ms at 1 µs)

    def __init__(self, anchor_us, num=1, den=1, x0=0):
        self.anchor_us = anchor_us
        self.num = num
        self.den = den
        self.x0 = x0

    @classmethod
    def from_divider(cls, anchor_us, loop_cycles, sys_hz, div_int, div_frac, x0=0):
        """A loop of ``loop_cycles`` state-machine cycles, each ``div_int + div_frac/256`` system
        cycles of ``sys_hz``: µs per loop = loop_cycles * (256 div_int + div_frac) * 1e6 /
        (256 sys_hz)."""
        return cls(anchor_us, loop_cycles * (256 * div_int + div_frac) * 1000000, 256 * sys_hz, x0)

    def loop(self, x, now_us):
        raw = (self.x0 - 1 - x) & M32
        ref = (now_us - self.anchor_us) * self.den // self.num + self.MARGIN
        return extend32(raw, ref)

    def us(self, x, now_us):
        return self.anchor_us + self.loop(x, now_us) * self.num // self.den


class TimerClock:
    """Device µs of a 32-bit TIMERAWL reading (the IRQ fallback's time word)."""

    def us(self, low, now_us):
        return extend32(low, now_us)


class Ring:
    """A ring of ``size`` 32-bit words at ``words[base:base + size]`` that a writer (DMA, an IRQ)
    fills with (levels, time) pairs; the writer's count of words written (mod 2**32) is all the
    reader needs. ``size`` is even; pairs never straddle the end."""

    def __init__(self, words, base, size):
        if size & 1 or size < 2:
            raise ValueError("ring of %d words, expected an even number" % size)
        self.words = words
        self.base = base
        self.size = size
        self.read = 0        # words read (mod 2**32)
        self.overruns = 0    # pairs the writer overwrote before they were read

    def drain(self, written, out, now_us):
        """``out(levels, time, now_us)`` for every pair written since the last drain, oldest
        first; ``written``: the writer's count of words (mod 2**32). Returns the pairs read."""
        n = (written - self.read) & M32 & ~1
        if n > self.size - 2:
            # lapped (the slot being written may be the oldest one): keep the newest size - 2
            lost = n - (self.size - 2)
            self.overruns += lost >> 1
            self.read = (self.read + lost) & M32
            n = self.size - 2
        w = self.words
        i = self.read % self.size
        for _ in range(n >> 1):
            out(w[self.base + i], w[self.base + i + 1], now_us)
            i += 2
            if i >= self.size:
                i = 0
        self.read = (self.read + n) & M32
        return n >> 1


class Decoder:
    """(levels, time word) pairs to `protocol.Device.sample`: the pins that changed since the
    previous pair, with their levels, at the pair's device µs. Pins outside ``mask`` are ignored;
    before any pair every button is taken to be up (so one held at boot is a change)."""

    def __init__(self, device, clock, mask=ALL_UP):
        self.device = device
        self.clock = clock
        self.mask = mask
        self.prev = mask
        self.last_us = 0
        self.pairs = 0
        self.changes = 0

    def feed(self, levels, tword, now_us):
        self.pairs += 1
        levels &= self.mask
        changed = levels ^ self.prev
        if not changed:
            return
        t = self.clock.us(tword, now_us)
        if t < self.last_us:
            t = self.last_us  # never hand the Device a time before the last one
        self.last_us = t
        self.prev = levels
        self.changes += 1
        self.device.sample(changed, levels, t)


class Leds:
    """LED states from the host's LED commands: off, on, or blink (on ms, off ms; ``times``
    blinks then off, 0: until the next command)."""

    def __init__(self, n):
        self.n = n
        self.mode = [P.LED_OFF] * n
        self.since = [0] * n
        self.on_us = [0] * n
        self.off_us = [0] * n
        self.times = [0] * n

    def command(self, station, mode, on_ms, off_ms, times, now_us):
        if not 0 <= station < self.n:
            return
        self.mode[station] = mode
        self.since[station] = now_us
        self.on_us[station] = on_ms * 1000
        self.off_us[station] = off_ms * 1000
        self.times[station] = times

    def lit(self, station, now_us):
        m = self.mode[station]
        if m == P.LED_ON:
            return True
        if m != P.LED_BLINK:
            return False
        period = self.on_us[station] + self.off_us[station]
        if period <= 0:
            return True
        el = now_us - self.since[station]
        if el < 0:
            el = 0
        if self.times[station] and el // period >= self.times[station]:
            self.mode[station] = P.LED_OFF
            return False
        return el % period < self.on_us[station]

    def levels(self, now_us):
        """Bit s set: station s's LED lit."""
        out = 0
        for s in range(self.n):
            if self.lit(s, now_us):
                out |= 1 << s
        return out


class Bridge:
    """The main loop's step over ``hw``, which has ``now_us()`` (64-bit), ``read()`` (bytes from
    the host, b"" if none), ``write(frame)``, ``drain(feed, now_us)`` (the sampler's pairs since
    the last call into ``feed(levels, time, now_us)``, and its housekeeping; returns how many
    samples were lost since the last call) and ``set_leds(bits)``.

    ``guard_us``: releases and heartbeats are judged ``guard_us`` behind ``now``, so a sample
    taken just before ``now`` but not yet in the ring cannot come after a release it would have
    cancelled (the PIO's push and the DMA take well under 1 µs).
    """

    def __init__(self, device, hw, decoder, leds, guard_us=3):
        self.device = device
        self.hw = hw
        self.decoder = decoder
        self.leds = leds
        self.guard_us = guard_us
        self.lit = -1
        self.steps = 0

    def step(self):
        """One pass; False once the host asked for the REPL (the BYE is written)."""
        d = self.device
        hw = self.hw
        data = hw.read()
        now = hw.now_us()  # after the read (a ping's t2), before the writes (its t3)
        if data:
            d.receive(data, now)
        lost = hw.drain(self.decoder.feed, now)
        if lost:
            d.dropped += lost
        d.tick(now - self.guard_us)
        if d.led_cmds:
            for c in d.led_cmds:
                self.leds.command(c[0], c[1], c[2], c[3], c[4], now)
            d.led_cmds = []
        lit = self.leds.levels(now)
        if lit != self.lit:
            self.lit = lit
            hw.set_leds(lit)
        for f in d.take_tx():
            hw.write(f)
        self.steps += 1
        return not d.repl_requested

    def run(self):
        while self.step():
            pass
