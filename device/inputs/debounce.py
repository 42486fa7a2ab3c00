"""Turns one button's raw edges into presses: first contact wins, bounce never makes a second press.

Wiring is pull-up, button to ground, so level 0 is pressed. The FIRST falling edge is the press,
stamped at that edge and emitted at once (never delayed: the stamp is what the arbiter orders by).
The button is then locked until it has been stably high for ``release_ns``; only then is the
release emitted, stamped at its last rising edge. A button not stably released within ``stuck_ns``
of its press is reported `Stuck`, ignored until released, then reported `Unstuck`.

Pure: no clock, no thread. Edges come with their own stamps; deadlines (release, stuck) are
applied when a later edge arrives or when the owner calls `poll(now_ns)` at `next_deadline()`.
"""

from __future__ import annotations

from device.inputs.press import Press, Sink, Stuck, Unstuck
from device.records import new as _new

__all__ = ["Debouncer", "RELEASE_NS", "STUCK_NS"]

RELEASE_NS = 20_000_000
STUCK_NS = 3_000_000_000
_NEVER = 1 << 62  # a deadline that never comes (cheaper on the hot path than None checks)


class Debouncer:
    """State machine of one button (see module doc). Events go to ``sink``."""

    # The state is kept so that a bouncing edge costs one comparison and two stores:
    # ``_next`` is -inf while released (every edge takes the slow path, where a press starts),
    # the stuck time while down, and the release time (last rise + release_ns) while up-but-locked.
    __slots__ = ("station", "button", "source", "release_ns", "stuck_ns", "_sink",
                 "_locked", "_low", "_open", "_stuck", "_stuck_at", "_up_since", "_next")

    def __init__(self, station: int, button: str, sink: Sink, *, source: str = "gpio",
                 release_ns: int = RELEASE_NS, stuck_ns: int | None = STUCK_NS,
                 level: int = 1, t_ns: int = 0) -> None:
        """``level``/``t_ns``: the pin's level when watching starts (0 = already held down)."""
        if release_ns < 0:
            raise ValueError(f"release_ns must be >= 0 ns, got {release_ns}")
        if stuck_ns is not None and stuck_ns <= 0:
            raise ValueError(f"stuck_ns must be > 0 ns or None (never stuck), got {stuck_ns}")
        self.station = station
        self.button = button
        self.source = source
        self.release_ns = release_ns
        self.stuck_ns = _NEVER if stuck_ns is None else stuck_ns
        self._sink = sink
        self._locked = False   # a press was seen and the button is not yet stably released
        self._low = False      # current level is 0 (only meaningful while locked)
        self._open = False     # a press was emitted and its release is still owed
        self._stuck = False
        self._stuck_at = _NEVER
        self._up_since = -_NEVER  # falling edges stamped before this are late bounce
        self._next = -_NEVER
        if not level:
            # held at start (a stuck button at boot): locked, but no press to report
            self._locked = self._low = True
            self._stuck_at = self._next = t_ns + self.stuck_ns

    @property
    def pressed(self) -> bool:
        """Down, or bouncing, or not yet stably released."""
        return self._locked

    @property
    def stuck(self) -> bool:
        return self._stuck

    def edge(self, level: int, t_ns: int) -> None:
        """A raw edge: ``level`` after it (0 = down), stamped ``t_ns``."""
        if t_ns < self._next:  # locked, and no deadline passed: bounce (the hot path)
            # no test of the level before: two rises in a row hide a fall that was not seen
            # (edges can be coalesced), so the contacts were still bouncing until the later one
            if level:
                self._low = False
                self._next = t_ns + self.release_ns
            else:
                self._low = True
                self._next = self._stuck_at
            return
        if self._locked:
            release_at = self._next
            if not self._low and release_at <= self._stuck_at:
                # the usual way out of a lock, inlined from `poll` (it is on every press's path):
                # stably released before this edge (release_at <= t_ns, or the hot path ran)
                self._release(release_at)
            else:
                self.poll(t_ns)  # a stuck time came before this edge
                if self._locked:  # now t_ns < self._next: track the level
                    self.edge(level, t_ns)
                    return
        if level or t_ns < self._up_since:
            # a rising edge while up, or a bounce stamped before the release we already
            # reported (it was delivered late): never a second press
            return
        self._locked = self._low = self._open = True
        self._stuck_at = self._next = t_ns + self.stuck_ns
        self._sink(_new(Press, (self.station, self.button, "press", t_ns, self.source)))

    def _release(self, release_at: int) -> None:
        """Stably released at ``release_at``: unlock, report the release (and an unstuck)."""
        last_rise = release_at - self.release_ns
        self._locked = False
        self._up_since = release_at
        self._next = -_NEVER
        self._stuck_at = _NEVER
        if self._open:
            self._open = False
            self._sink(_new(Press, (self.station, self.button, "release", last_rise,
                                    self.source)))
        if self._stuck:
            self._stuck = False
            self._sink(Unstuck(self.station, self.button, last_rise))

    def next_deadline(self) -> int | None:
        """When `poll` next has something to do (release or stuck), or None."""
        if not self._locked:
            return None
        d = self._stuck_at if self._low else min(self._next, self._stuck_at)
        return None if d >= _NEVER else d

    def poll(self, now_ns: int) -> None:
        """Apply the deadlines reached at ``now_ns``: a stuck button, a stable release."""
        while self._locked:
            release_at = _NEVER if self._low else self._next
            if release_at <= now_ns and release_at <= self._stuck_at:
                # stably released (a tie with the stuck time goes to the release: it was up)
                self._release(release_at)
            elif self._stuck_at <= now_ns:
                self._stuck = True
                self._sink(Stuck(self.station, self.button, self._stuck_at))
                self._stuck_at = _NEVER
                if self._low:
                    self._next = _NEVER
            else:
                return
