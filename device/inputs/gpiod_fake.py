"""A fake of libgpiod v2's line requests with the real ones' shape and the kernel's buffer behaviour
(oldest event dropped on overflow, sequence numbers kept), shipped so that tests and `slapbox
selftest` on a laptop run the very code `device.inputs.gpiod` runs on a Pi."""

from __future__ import annotations

import contextlib
import enum
import os
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from device.inputs.gpio import GpioConfigError

#: the kernel's largest edge-event buffer per request (GPIO_V2_LINES_MAX * 16)
EVENT_BUFFER_MAX = 1024


@dataclass(frozen=True)
class FakeEdgeEvent:
    """An event with `gpiod.EdgeEvent`'s fields (its ``event_type`` an enum of the same names)."""

    class Type(enum.Enum):
        RISING_EDGE = 1
        FALLING_EDGE = 2

    event_type: Type
    timestamp_ns: int
    line_offset: int
    global_seqno: int
    line_seqno: int


class _Value(enum.Enum):  # gpiod.line.Value
    INACTIVE = 0
    ACTIVE = 1


class FakeRequest:
    """One requested line, as `gpiod.LineRequest` behaves: a pollable ``fd``, edge events read in
    batches, a kernel buffer that drops the OLDEST event when full (sequence numbers still count
    it), ``get_value`` reading the line's level now."""

    def __init__(self, offset: int, consumer: str, buffer_size: int = EVENT_BUFFER_MAX) -> None:
        self.offset = offset
        self.consumer = consumer
        self.capacity = min(buffer_size, EVENT_BUFFER_MAX)
        self.level = 1  # pulled up: released
        self._events: deque[FakeEdgeEvent] = deque()
        self._seq = 0
        self._lock = threading.Lock()
        self._rfd, self._wfd = os.pipe()
        self._signalled = False
        self._held = False
        self.dropped = 0  # events the buffer overflowed (what the reader should find as gaps)
        self.released = False

    @property
    def fd(self) -> int:
        return self._rfd

    def edge(self, level: int, t_ns: int, reported: int | None = None) -> None:
        """The line goes to ``level`` at ``t_ns``; the event is labelled ``reported`` (default
        ``level``): the kernel reads the level after the interrupt, so it may differ."""
        said = level if reported is None else reported
        with self._lock:
            self.level = level
            self._seq += 1
            kind = FakeEdgeEvent.Type.RISING_EDGE if said else FakeEdgeEvent.Type.FALLING_EDGE
            if len(self._events) >= self.capacity:
                self._events.popleft()  # kfifo full: the kernel skips the oldest
                self.dropped += 1
            self._events.append(FakeEdgeEvent(kind, t_ns, self.offset, self._seq, self._seq))
            self._signal()

    def _signal(self) -> None:
        if not self._signalled and not self._held and self._events:
            os.write(self._wfd, b"!")
            self._signalled = True

    def hold(self, held: bool) -> None:
        """While held the fd stays quiet (a reader too busy to read): events pile up."""
        with self._lock:
            self._held = held
            self._signal()

    def read_edge_events(self, max_events: int | None = None) -> list[FakeEdgeEvent]:
        with self._lock:
            n = len(self._events) if max_events is None else min(max_events, len(self._events))
            out = [self._events.popleft() for _ in range(n)]
            if not self._events and self._signalled:
                os.read(self._rfd, 1)
                self._signalled = False
            return out

    def get_value(self, offset: int) -> _Value:
        if offset != self.offset:
            raise ValueError(f"line {offset} is not in this request")
        with self._lock:  # a level and its event appear together (the kernel: within us)
            return _Value.ACTIVE if self.level else _Value.INACTIVE

    def release(self) -> None:
        if not self.released:
            self.released = True
            os.close(self._rfd)
            os.close(self._wfd)


class FakeChip:
    """A GPIO chip whose lines are `FakeRequest`s: the fake `Lines` (``[pins] factory = "mock"``)."""

    def __init__(self, chip: str = "/dev/gpiochip-fake", buffer_size: int = EVENT_BUFFER_MAX) -> None:
        self.chip = chip
        self.buffer_size = buffer_size
        self.lines: dict[int, FakeRequest] = {}

    def request(self, offset: int, consumer: str) -> FakeRequest:
        if offset in self.lines and not self.lines[offset].released:
            raise GpioConfigError(f"gpiod: GPIO {offset} is already requested")
        req = FakeRequest(offset, consumer, self.buffer_size)
        self.lines[offset] = req
        return req

    def drive(self, offset: int, level: int, t_ns: int, reported: int | None = None) -> None:
        self.lines[offset].edge(level, t_ns, reported)

    @contextlib.contextmanager
    def busy(self, *offsets: int) -> Iterator[None]:
        """The reader does not get to these lines (all if none given) inside the block."""
        reqs = [self.lines[o] for o in offsets] if offsets else list(self.lines.values())
        for r in reqs:
            r.hold(True)
        try:
            yield
        finally:
            for r in reqs:
                r.hold(False)


