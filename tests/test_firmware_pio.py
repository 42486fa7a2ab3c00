"""The bridge's PIO sampler (firmware_bridge/firmware/bridge_pio.py) on PyPI's rp2040-pio-emulator.

The program is assembled from the firmware's own source by a stand-in for MicroPython's
``rp2.asm_pio`` (written here from the RP2040 datasheet's encodings) and checked against the words
MicroPython's real assembler makes of it; then run cycle by cycle. Oracle: the program must push
(levels, ~k) for exactly the loops k whose sample (the pins at cycle 10k) differs from the
previous one, and every loop must last 10 cycles whatever it does.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import types
from collections.abc import Callable
from pathlib import Path

import pytest

pioemu = pytest.importorskip("pioemu", reason="rp2040-pio-emulator is in the dev extra "
                             "(.venv/bin/pip install rp2040-pio-emulator)")

import firmware_bridge.protocol as P  # noqa: E402
from firmware_bridge.firmware import bridge_core as C  # noqa: E402

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware_bridge" / "firmware"
ALL_UP = (1 << 17) - 1
M32 = 0xFFFFFFFF

# What MicroPython's own rp2.asm_pio (ports/rp2/modules/rp2.py, run under CPython with stubs for
# _rp2 and micropython) makes of bridge_pio.sampler: the words, wrap target 0, wrap top 12.
MICROPYTHON_WORDS = [0x4011, 0x0042, 0xA0E1, 0xA026, 0x00A8, 0xA027, 0xA2C3, 0x0000, 0xA041,
                     0x8020, 0xA0C7, 0x8020, 0xA027]


# -- a stand-in for MicroPython's rp2 module: the assembler only ------------------------------

class _Emit:
    """Two passes over the program function, as rp2.asm_pio does: labels, then words."""

    SRC = {"pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "isr": 6, "osr": 7}
    COND = {"not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4, "x_not_y": 5, "pin": 6, "not_osre": 7}

    def __init__(self, **kw: object) -> None:
        self.kw = kw
        self.words: list[int] = []
        self.labels: dict[str, int] = {}
        self.wrap_target_at = 0
        self.wrap_at: int | None = None
        self.pass_ = 0

    def names(self) -> dict[str, object]:
        g: dict[str, object] = dict(self.SRC)
        g.update(self.COND)
        g.update(block=0x21, noblock=0x01, iffull=0x40, ifempty=0x40)
        for n in ("wrap_target", "wrap", "label", "jmp", "in_", "push", "mov", "nop", "set"):
            g[n] = getattr(self, n)
        return g

    def _word(self, w: int) -> _Emit:
        if self.pass_:
            self.words.append(w)
        else:
            self.words.append(0)
        return self

    def __getitem__(self, delay: int) -> _Emit:  # mov(...)[2]: delay cycles
        assert 0 <= delay <= 31
        if self.pass_:
            self.words[-1] |= delay << 8
        return self

    def wrap_target(self) -> None:
        self.wrap_target_at = len(self.words)

    def wrap(self) -> None:
        self.wrap_at = len(self.words) - 1

    def label(self, name: str) -> None:
        if not self.pass_:
            self.labels[name] = len(self.words)

    def jmp(self, cond: int | str, label: str | None = None) -> _Emit:
        if label is None:
            cond, label = 0, str(cond)
        assert isinstance(cond, int)
        return self._word((cond << 5) | (self.labels[label] if self.pass_ else 0))

    def in_(self, src: int, bits: int) -> _Emit:
        assert 0 < bits <= 32
        return self._word(0x4000 | src << 5 | bits & 0x1F)

    def push(self, flags: int = 0x21) -> _Emit:
        return self._word(0x8000 | (flags & 0x60 if flags & 1 else 0x20))

    def mov(self, dest: int, src: int) -> _Emit:
        return self._word(0xA000 | dest << 5 | src)

    def nop(self) -> _Emit:
        return self.mov(2, 2)

    def set(self, dest: int, value: int) -> _Emit:
        return self._word(0xE000 | dest << 5 | value)


def _asm_pio(**kw: object) -> Callable[[Callable[[], None]], _Emit]:
    def dec(f: Callable[[], None]) -> _Emit:
        emit = _Emit(**kw)
        gl = f.__globals__
        saved = dict(gl)
        try:
            for pass_ in (0, 1):
                emit.pass_ = pass_
                emit.words = []
                gl.update(emit.names())
                f()
        finally:
            gl.clear()
            gl.update(saved)
        return emit

    return dec


def _load_pio() -> types.ModuleType:
    rp2 = types.ModuleType("rp2")
    rp2.PIO = types.SimpleNamespace(SHIFT_LEFT=0, SHIFT_RIGHT=1, JOIN_NONE=0, JOIN_TX=1,  # type: ignore[attr-defined]
                                    JOIN_RX=2)
    rp2.asm_pio = _asm_pio  # type: ignore[attr-defined]
    old = sys.modules.get("rp2")
    sys.modules["rp2"] = rp2
    try:
        spec = importlib.util.spec_from_file_location("_bridge_pio_under_test", FIRMWARE / "bridge_pio.py")
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        if old is None:
            del sys.modules["rp2"]
        else:
            sys.modules["rp2"] = old
    return mod


PIO = _load_pio()
PROG: _Emit = PIO.sampler
L = PIO.LOOP_CYCLES


# -- running it -------------------------------------------------------------------------------

def run(pins: Callable[[int], int], cycles: int, x0: int = 0, drain: bool = True,
        ) -> tuple[list[tuple[int, int, int]], object]:
    """(cycle of the push, levels word, counter word) per pushed pair; the RX FIFO is emptied after
    every instruction (the DMA) unless ``drain`` is False. Also returns the last state."""

    def source(clock: int) -> int:
        return pins(clock) & ALL_UP | (0x1FFF << 17)  # pins 17..29 high: outside the sample

    source.__annotations__["clock"] = int  # pioemu reads the annotation (a str, here)

    state = start = pioemu.State(x_register=x0)
    words: list[tuple[int, int]] = []
    out = []
    for _before, state in pioemu.emulate(PROG.words, stop_when=pioemu.clock_cycles_reached(cycles),
                                         initial_state=start, input_source=source,
                                         shift_isr_right=False, wrap_target=PROG.wrap_target_at,
                                         wrap_top=PROG.wrap_at or 0):
        while drain and state.receive_fifo:
            words.append((state.clock, state.receive_fifo.popleft()))
    for i in range(0, len(words) - 1, 2):
        out.append((words[i][0], words[i][1], words[i + 1][1]))
    return out, state


def expected(pins: Callable[[int], int], loops: int, x0: int = 0) -> list[tuple[int, int]]:
    """The reference model: (levels, counter) for every loop whose sample changed."""
    prev = 0  # the program's Y starts at 0
    out = []
    for k in range(loops):
        v = pins(L * k) & ALL_UP
        if v != prev:
            out.append((v, (x0 - 1 - k) & M32))
            prev = v
    return out


def pairs(pushed: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    return [(lv, x) for _c, lv, x in pushed]


# -- the program ------------------------------------------------------------------------------

def test_the_program_is_what_micropython_assembles() -> None:
    assert PROG.words == MICROPYTHON_WORDS
    assert (PROG.wrap_target_at, PROG.wrap_at) == (0, len(MICROPYTHON_WORDS) - 1)
    assert PROG.kw == {"in_shiftdir": 0, "fifo_join": 2}  # shift left, RX FIFO joined (8 deep)
    assert L == 10 and PIO.BUTTON_PINS == C.BUTTON_PINS == 17


def test_every_loop_lasts_ten_cycles_on_both_paths() -> None:
    # a pin that changes at every sample (the changed path every loop), then never (the other)
    def toggling(clock: int) -> int:
        k = clock // L
        return ALL_UP ^ (k & 1) if k < 20 else ALL_UP

    pushed, _ = run(toggling, L * 40 + 1)
    assert pairs(pushed) == expected(toggling, 41)
    # the counter is the loop number, and pushes come at a fixed cycle within the loop
    assert [c - L * ((~x) & M32) for c, _lv, x in pushed] == [pushed[0][0]] * len(pushed)
    # and after 20 unchanged loops, a change is still stamped with its loop number
    def late(clock: int) -> int:
        return ALL_UP if clock < 200 else ALL_UP ^ 1

    assert pairs(run(late, L * 25)[0]) == [(ALL_UP, M32), (ALL_UP ^ 1, (-1 - 20) & M32)]


def _patterns() -> list[int]:
    singles = [ALL_UP ^ (1 << b) for b in range(17)]
    doubles = [ALL_UP ^ (1 << a) ^ (1 << b) for a in range(17) for b in range(a + 1, 17)]
    rng = random.Random(12)
    rand = [rng.getrandbits(17) for _ in range(200)]
    return singles + doubles + rand + [0x00000, ALL_UP]


def test_every_button_pattern_is_read_whole_in_one_sample() -> None:
    for pattern in _patterns():
        # the pattern appears between two samples (cycle 13), is sampled at loop 2 (cycle 20)
        def pins(clock: int, p: int = pattern) -> int:
            return ALL_UP if clock < 13 else p

        pushed = pairs(run(pins, L * 3 + 1)[0])
        want = [(ALL_UP, M32)] + ([(pattern, (-1 - 2) & M32)] if pattern != ALL_UP else [])
        assert pushed == want, hex(pattern)


def test_simultaneous_presses_give_one_sample() -> None:
    slaps = 0
    for s in range(8):
        slaps |= 1 << (2 * s)
    # eight slaps land within the same 1 µs (cycles 31..39), one every cycle: one sample at 40
    def pins(clock: int) -> int:
        v = ALL_UP
        for s in range(8):
            if clock >= 31 + s:
                v &= ~(1 << (2 * s))
        return v

    pushed = pairs(run(pins, L * 6)[0])
    assert pushed == [(ALL_UP, M32), (ALL_UP & ~slaps, (-1 - 4) & M32)]


@pytest.mark.parametrize("seed", range(6))
def test_bounce_trains_push_every_sampled_change_with_its_loop(seed: int) -> None:
    rng = random.Random(seed)
    bit = rng.randrange(17)
    edges = sorted(rng.sample(range(5, 600), 40))  # 40 edges, some closer than a loop
    other = rng.randrange(17)
    other_edges = sorted(rng.sample(range(5, 600), 10))

    def pins(clock: int) -> int:
        v = ALL_UP
        if sum(1 for e in edges if e <= clock) & 1:
            v ^= 1 << bit
        if sum(1 for e in other_edges if e <= clock) & 1:
            v ^= 1 << other
        return v

    loops = 62
    pushed, _ = run(pins, L * loops)
    assert pairs(pushed) == expected(pins, loops)


@pytest.mark.parametrize("x0", [3, 0, 1 << 31])
def test_the_counter_wraps_and_the_cpu_extends_it(x0: int) -> None:
    def pins(clock: int) -> int:
        return ALL_UP ^ ((clock // 20) & 1)  # a change every other loop

    pushed, _ = run(pins, L * 12, x0=x0)
    assert pairs(pushed) == expected(pins, 12, x0=x0)
    if x0 == 3:
        assert [x for _lv, x in pairs(pushed)][:3] == [2, 0, M32 - 1]  # through zero
    clock = C.CounterClock(anchor_us=7_000_000, x0=x0)
    times = [clock.us(x, 7_000_000 + 50) for _lv, x in pairs(pushed)]
    assert times == [7_000_000 + k for k in range(0, 12, 2)]


def test_without_draining_the_fifo_fills_and_the_counter_stops() -> None:
    # Why the DMA: the emulator's RX FIFO holds 4 words (the RP2040's, joined, 8). Undrained,
    # the third change's push blocks: the loop stops, so the counter no longer tells the time.
    def pins(clock: int) -> int:
        return ALL_UP ^ ((clock // 10) & 1)  # a change at every loop (a fast bounce)

    _, state = run(pins, L * 8, drain=False)
    assert len(state.receive_fifo) == 4  # type: ignore[attr-defined]
    # stuck at loop 2's first push (instruction 9), its counter parked in OSR, 60 cycles later
    assert state.program_counter == 9  # type: ignore[attr-defined]
    assert state.output_shift_register.contents == (-1 - 2) & M32  # type: ignore[attr-defined]
    # drained (the DMA), every change of the same stretch is pushed, in time
    pushed, _ = run(pins, L * 8)
    assert pairs(pushed) == expected(pins, 8)


def test_pio_words_through_the_firmware_logic_make_one_press_per_bounce_train() -> None:
    # a slap on station 3 that bounces for 0.3 ms, held 5 ms, released with a bounce; MENU tapped
    slap = 1 << 6

    def pins(clock: int) -> int:
        us = clock // L  # one loop = 1 µs: the emulator's cycles at 10 MHz
        v = ALL_UP
        down = 100 <= us < 5_100
        if 100 <= us < 400 and (us // 7) % 3 == 1:
            down = False  # bounce
        if 5_100 <= us < 5_200 and (us // 11) % 2 == 0:
            down = True  # release bounce
        if down:
            v &= ~slap
        if 300 <= us < 900:
            v &= ~(1 << P.MENU_BIT)
        return v

    pushed, _ = run(pins, L * 6_000)
    dev = P.Device(0xABCD, C.layout(8)[0], C.MENU_PIN)
    dev.receive(P.pack(P.HOST_HELLO, 1, 0) + P.pack(P.CONFIG, 0xABCD, 20_000, 3_000_000, 0xFFFF, 1, 0),
                1_000)
    anchor = 1_000_000
    dec = C.Decoder(dev, C.CounterClock(anchor))
    words = []
    for _c, lv, x in pushed:
        words += [lv, x]
    ring = C.Ring(words + [0] * (len(words) % 4 + 4), 0, len(words) + len(words) % 4 + 4)
    ring.drain(len(words), dec.feed, anchor + 6_000)
    dev.tick(anchor + 100_000)
    edges = []
    for f in dev.take_tx():
        mtype, payload = P.decode_frame(f[:-1])
        if mtype == P.EDGE:
            edges.append(P.unpack(P.EDGE, payload)[1:])
    presses = [e for e in edges if e[3] == P.PRESS]
    releases = sorted(e for e in edges if e[3] == P.RELEASE)
    assert presses == [(anchor + 100, 3, P.SLAP, P.PRESS), (anchor + 300, -1, P.MENU, P.PRESS)]
    # the release bounce's last fall is at 5192 µs (held until 5200): the release is stamped 5200
    assert releases == [(anchor + 900, -1, P.MENU, P.RELEASE), (anchor + 5_200, 3, P.SLAP, P.RELEASE)]
