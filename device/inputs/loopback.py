"""Measures the box's own wiring with a loopback: one spare output pulses every button input and
a reference input at once, and each input's stamps are compared with the reference's.

The loopback (hardware.md, "The self-test"): the drive pin goes, through its own 1 kOhm resistor
each, to every button input and to one spare reference input. Driving it low is a simultaneous
press on every input; the kernel stamps each edge in the GPIO bank's interrupt handler, which
walks the pending pins in ascending GPIO order, so the stamps come out in that order a little
apart: that ordered offset is the wiring bias the arbiter sees between stations pressing at the
same instant. Per input: the offset of its falling-edge stamp from the reference's (median and
p99 over the pulses), edges missed, extra edges (bounce or ringing on a driven line), presses the
debouncer made (one per pulse); for the backend: edges lost (gpiod's sequence numbers) and
releases repaired (gpio, by reading the pin).

The same backends the game uses read the inputs (``record_edges`` on). A `Rig` drives the pin:
`PinRig` a real output on a Pi (gpiozero), `MockRig` mock pins whose stamps an `IrqModel` makes
(a model of the bank's handler: its figures are the model's, never measurements).
"""

from __future__ import annotations

import queue
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from device.clock import Clock, VirtualClock
from device.inputs.gpio import StationPins
from device.inputs.press import MENU_STATION, Press, RawEdge

__all__ = [
    "InputFigures",
    "IrqModel",
    "LoopbackReport",
    "MockRig",
    "PinRig",
    "Rig",
    "loopback_inputs",
    "percentile",
    "run_loopback",
]

MS = 1_000_000


def percentile(values: Sequence[int], q: float) -> int:
    """The nearest-rank ``q`` quantile (0 < q <= 1) of ``values``."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, -(-int(q * 1000) * len(ordered) // 1000) - 1))
    return ordered[k]


@dataclass(frozen=True)
class IrqModel:
    """A model of how the bank's interrupt handler stamps simultaneous edges, for mock pins:
    after ``entry_ns`` it walks the pending pins in ascending GPIO order, each costing
    ``per_pin_ns``; every stamp gets up to ``jitter_ns`` of noise, and one in ``1/late_rate`` is
    ``late_ns`` late (another interrupt in between). Not measured: hardware.md says how to."""

    entry_ns: int = 3_000
    per_pin_ns: int = 400
    jitter_ns: int = 120
    late_ns: int = 15_000
    late_rate: float = 0.004

    def stamps(self, pins: Sequence[int], t_ns: int, rng: random.Random) -> dict[int, int]:
        out: dict[int, int] = {}
        late = 0
        for rank, pin in enumerate(sorted(pins)):
            if rng.random() < self.late_rate:
                late += self.late_ns  # the rest of the walk waits too
            out[pin] = (t_ns + self.entry_ns + rank * self.per_pin_ns + late
                        + int(rng.random() * self.jitter_ns))
        return out


class Rig(Protocol):
    """Drives the loopback and keeps the time."""

    mock: bool

    def drive(self, level: int) -> int:
        """Set the drive pin (0 = every input pressed); returns the clock's now before it."""

    def wait_until(self, t_ns: int) -> None:
        """Let time pass until ``t_ns`` (virtual: jump there)."""


class MockRig:
    """Mock pins: each drive becomes one edge per input, stamped by ``model``, delivered through
    ``deliver(pin, level, t_ns)`` (a `StampedMockPin` or a `FakeChip` line)."""

    mock = True

    def __init__(self, inputs: Sequence[int], deliver: Callable[[int, int, int], None],
                 clock: VirtualClock, rng: random.Random, model: IrqModel = IrqModel()) -> None:
        self.inputs = tuple(inputs)
        self.deliver = deliver
        self.clock = clock
        self.rng = rng
        self.model = model

    def drive(self, level: int) -> int:
        t = self.clock.now_ns()
        for pin, stamp in sorted(self.model.stamps(self.inputs, t, self.rng).items(),
                                 key=lambda kv: kv[1]):
            self.deliver(pin, level, stamp)
        return t

    def wait_until(self, t_ns: int) -> None:
        if t_ns > self.clock.now_ns():
            self.clock.advance_to(t_ns)


class PinRig:
    """A real drive pin (gpiozero `DigitalOutputDevice`, high when idle) on the real clock."""

    mock = False

    def __init__(self, pin: int, factory: Any, clock: Clock) -> None:
        from gpiozero import DigitalOutputDevice
        self.out = DigitalOutputDevice(pin, initial_value=True, pin_factory=factory)
        self.clock = clock

    def drive(self, level: int) -> int:
        t = self.clock.now_ns()
        self.out.value = 1 if level else 0
        return t

    def wait_until(self, t_ns: int) -> None:
        while (left := t_ns - self.clock.now_ns()) > 0:
            time.sleep(left / 1e9)  # the pulse's own length: a deadline, not a guess

    def close(self) -> None:
        self.out.close()


@dataclass
class InputFigures:
    """What one input showed over the pulses (offsets in ns against the reference)."""

    gpio: int
    name: str
    offsets: list[int] = field(default_factory=list)
    missed: int = 0
    bounce: int = 0
    presses: int = 0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"gpio": self.gpio, "input": self.name, "n": len(self.offsets),
                             "missed": self.missed, "bounce": self.bounce,
                             "presses": self.presses}
        if self.offsets:
            d["median_ns"] = int(statistics.median(self.offsets))
            d["p99_ns"] = percentile(self.offsets, 0.99)
        return d


@dataclass
class LoopbackReport:
    """The self-test's figures for one backend (`to_dict` is what ``--json`` prints)."""

    backend: str
    mock: bool
    pulses: int
    drive: int
    reference: int
    tie_window_ns: int
    inputs: list[InputFigures]
    lost: int = 0
    repaired: int = 0
    merged: int = 0
    reference_missed: int = 0

    def medians(self) -> dict[int, int]:
        return {f.gpio: int(statistics.median(f.offsets)) for f in self.inputs if f.offsets}

    @property
    def spread_ns(self) -> int:
        """The wiring bias: the largest difference of median offsets, the reference included."""
        meds = list(self.medians().values()) + [0]
        return max(meds) - min(meds)

    @property
    def jitter_ns(self) -> int:
        """The largest p99 - median of any input (the noise on top of the bias)."""
        return max((percentile(f.offsets, 0.99) - int(statistics.median(f.offsets))
                    for f in self.inputs if f.offsets), default=0)

    @property
    def ordered(self) -> bool:
        """Are the median offsets in ascending GPIO order (the bank handler's order)?"""
        meds = dict(self.medians())
        meds[self.reference] = 0
        by_gpio = [meds[g] for g in sorted(meds)]
        return all(a <= b for a, b in zip(by_gpio, by_gpio[1:]))

    @property
    def step_ns(self) -> int:
        """The offset one GPIO rank adds (a least-squares slope over the inputs' ranks)."""
        meds = dict(self.medians())
        meds[self.reference] = 0
        if len(meds) < 2:
            return 0
        gpios = sorted(meds)
        xs = [float(i) for i in range(len(gpios))]
        ys = [float(meds[g]) for g in gpios]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        den = sum((x - mx) ** 2 for x in xs)
        return round(sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den) if den else 0

    @property
    def problems(self) -> list[str]:
        out = []
        for f in self.inputs:
            if f.missed:
                out.append(f"GPIO {f.gpio} ({f.name}): {f.missed} of {self.pulses} pulses not "
                           "seen: is its loopback resistor wired?")
            if f.presses != self.pulses and not f.missed:
                out.append(f"GPIO {f.gpio} ({f.name}): {f.presses} presses for {self.pulses} pulses")
        if self.reference_missed:
            out.append(f"reference GPIO {self.reference}: {self.reference_missed} pulses not seen")
        if self.lost:
            out.append(f"{self.lost} edges lost by the kernel's buffers")
        return out

    def verdict(self) -> str:
        worst = self.spread_ns + self.jitter_ns
        tie = self.tie_window_ns
        share = worst / tie if tie else float("inf")
        head = (f"wiring bias {self.spread_ns / 1000:.1f} us (+ {self.jitter_ns / 1000:.1f} us "
                f"jitter at p99) against a tie window of {tie / 1000:.0f} us: ")
        if share < 0.1:
            return head + ("under a tenth of it: presses closer than the tie window are ties "
                           "decided by the rotation anyway, and the bias moves the window's edge "
                           f"by at most {worst / 1000:.1f} us")
        if share < 0.5:
            return head + ("a real share of it: a race just outside the tie window can go to "
                           "the lower GPIO; widen the tie window or use the bridge for tournaments")
        return head + ("too large: a low GPIO wins races it did not win; check the wiring "
                       "(series resistors, long leads) or use the bridge (one sample for all pins)")

    def to_dict(self) -> dict[str, Any]:
        return {"backend": self.backend, "mock": self.mock, "pulses": self.pulses,
                "drive": self.drive, "reference": self.reference,
                "tie_window_ns": self.tie_window_ns,
                "inputs": [f.to_dict() for f in self.inputs], "spread_ns": self.spread_ns,
                "jitter_ns": self.jitter_ns, "ordered": self.ordered, "step_ns": self.step_ns,
                "lost": self.lost, "repaired": self.repaired, "merged": self.merged,
                "reference_missed": self.reference_missed, "problems": self.problems,
                "verdict": self.verdict()}


def loopback_inputs(stations: Sequence[StationPins], menu: int | None,
                    loopback: Mapping[str, int]) -> tuple[dict[int, str], int]:
    """(every input the loopback drives: GPIO -> name, the reference GPIO). Without a reference
    pin the MENU input is the reference."""
    names: dict[int, str] = {}
    for i, sp in enumerate(stations):
        names[sp.slap] = f"station {i + 1} SLAP"
        if sp.flip is not None:
            names[sp.flip] = f"station {i + 1} FLIP"
    if menu is not None:
        names[menu] = "MENU"
    ref = loopback.get("reference", menu)
    if ref is None:
        raise ValueError("the loopback needs a reference pin or a MENU pin")
    return names, ref


class _Collector:
    """What the backends put on their sinks: raw edges by pin, presses counted by pin."""

    def __init__(self, station_of: dict[tuple[int, str], int], ref: int) -> None:
        self.inbox: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self.station_of = station_of
        self.ref = ref
        self.presses: dict[int, int] = {}
        self.got: dict[int, list[int]] = {}
        self.since = 0

    def sink(self, from_ref: bool) -> Callable[[Any], None]:
        return lambda item: self.inbox.put((from_ref, item))

    def start(self, pins: Sequence[int], since: int) -> None:
        self.got = {g: [] for g in pins}
        self.since = since

    def take(self, from_ref: bool, item: Any) -> None:
        if isinstance(item, RawEdge):
            if item.kind == "edge" and item.pin in self.got and item.t_ns >= self.since:
                self.got[item.pin].append(item.t_ns)
        elif isinstance(item, Press) and item.edge == "press":
            pin = self.ref if from_ref else self.station_of.get((item.station, item.button))
            if pin is not None:
                self.presses[pin] = self.presses.get(pin, 0) + 1

    def drain(self) -> bool:
        """Take everything already queued; True if anything was."""
        taken = False
        while True:
            try:
                from_ref, item = self.inbox.get_nowait()
            except queue.Empty:
                return taken
            taken = True
            self.take(from_ref, item)

    def wait(self, wait_s: float, backends: Sequence[Any]) -> dict[int, list[int]]:
        """Until every pin has an edge since `start` (or ``wait_s`` of real time passed)."""
        end = time.monotonic() + wait_s
        while any(not v for v in self.got.values()):
            for b in backends:  # gpiod: its reader thread has read what is on the lines
                if hasattr(b, "sync"):
                    b.sync(timeout_s=wait_s)
            if self.drain():
                continue
            left = end - time.monotonic()
            if left <= 0:
                break
            try:
                from_ref, item = self.inbox.get(timeout=min(left, 0.05))
            except queue.Empty:
                continue
            self.take(from_ref, item)
        return self.got


def run_loopback(backend: str, open_backend: Callable[..., Any], stations: Sequence[StationPins],
                 menu: int | None, loopback: Mapping[str, int], rig: Rig, *, pulses: int = 200,
                 period_ns: int = 60 * MS, release_ns: int = 20 * MS,
                 tie_window_ns: int = 1 * MS, wait_s: float = 1.0) -> LoopbackReport:
    """Pulse the loopback ``pulses`` times through ``backend`` and measure. ``open_backend(
    stations, sink, menu_pin=...)`` builds a backend exactly as the game does (record_edges on);
    a second one watches the reference pin unless it is the MENU. ``wait_s``: how long (real
    time) to wait for an edge to be delivered before calling it missed."""
    names, ref = loopback_inputs(stations, menu, loopback)
    station_of: dict[tuple[int, str], int] = {}
    for i, sp in enumerate(stations):
        station_of[(i, "slap")] = sp.slap
        if sp.flip is not None:
            station_of[(i, "flip")] = sp.flip
    if menu is not None:
        station_of[(MENU_STATION, "menu")] = menu
    c = _Collector(station_of, ref)
    backends = [open_backend(stations, c.sink(False), menu_pin=menu)]
    try:
        if ref != menu:
            backends.append(open_backend([StationPins(slap=ref)], c.sink(True), menu_pin=None))
        watched = sorted(set(names) | {ref})
        figures = {g: InputFigures(g, names[g]) for g in sorted(names) if g != ref}
        ref_missed = 0
        half = max(period_ns // 2, release_ns + 5 * MS)
        for _ in range(pulses):
            t_low = rig.drive(0)
            c.start(watched, t_low)
            low = c.wait(wait_s, backends)
            rig.wait_until(t_low + half)
            t_high = rig.drive(1)
            c.start(watched, t_high)
            high = c.wait(wait_s, backends)
            for g, fig in figures.items():
                edges = sorted(e for e in low[g] if e < t_high)
                if not edges:
                    fig.missed += 1
                elif low[ref]:
                    fig.offsets.append(edges[0] - min(low[ref]))
                fig.bounce += max(0, len(edges) - 1) + max(0, len(high[g]) - 1)
            ref_missed += not low[ref]
            rig.wait_until(t_high + half)
            for b in backends:  # the debouncers release: one press per pulse
                b.poll(t_high + half)
        for b in backends:
            if hasattr(b, "sync"):
                b.sync(timeout_s=wait_s)
        c.start([], 1 << 62)
        c.drain()
        for g, fig in figures.items():
            fig.presses = c.presses.get(g, 0)
        report = LoopbackReport(backend, rig.mock, pulses, loopback["drive"], ref, tie_window_ns,
                                list(figures.values()), reference_missed=ref_missed)
        report.lost = sum(getattr(b, "lost", 0) for b in backends)
        report.repaired = sum(b.repairs for b in backends)
        report.merged = sum(b.merged for b in backends)
        return report
    finally:
        for b in backends:
            b.close()
