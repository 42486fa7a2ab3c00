"""Turns one button's raw edges into presses: first contact wins, bounce never makes a second press.

Wiring is pull-up, button to ground, so level 0 is pressed. While the button is released, ANY edge
is first contact, whatever level it reports: the kernel stamps an edge in its hard interrupt but
reads the line's level later, so a first contact that bounced open by then arrives labelled
"rising" (and edges in that gap are merged: two edges in a row with the same label mean one was
lost between them; they are counted in ``merged``). The press is stamped at that edge and emitted
at once (never delayed: the stamp is what the arbiter orders by). The button is then locked until
it has been stably up for ``release_ns``; only then is the release emitted, stamped at its last
edge. A button not stably released within ``stuck_ns`` of its press is reported `Stuck`, ignored
until released, then reported `Unstuck`.

Edges can be lost (a GPIO line buffers 16 and drops the oldest), so labels alone cannot say when
the button is up. Where the backend can read the pin (``read_level``: gpiozero's ``pin.state``),
the level is read instead of guessed at every deadline: up releases the button, down keeps it
held (read again every ``HOLD_CHECK_NS``). A button found up although its last edge said down
lost its release edge: it is released then and counted in ``repairs``, so the next real press is a
press again, not taken for that lost release. Without ``read_level`` (scripts, tests) the labels
are trusted.

Pure but for ``read_level``: no clock, no thread. Edges come with their own stamps; deadlines
(release, stuck, hold checks) are applied when a later edge arrives or when the owner calls
`poll(now_ns)` at `next_deadline()`.
"""

from __future__ import annotations

from collections.abc import Callable

from device.inputs.press import Press, Sink, Stuck, Unstuck
from device.records import new as _new

__all__ = ["Debouncer", "RELEASE_NS", "STUCK_NS", "HOLD_CHECK_NS", "MENU_STUCK_NS"]

RELEASE_NS = 20_000_000
STUCK_NS = 3_000_000_000
#: the MENU button is held 5 s on purpose (shutdown); only call it stuck much later
MENU_STUCK_NS = 60_000_000_000
#: while held, the pin is read again this often (a lost release is found within it)
HOLD_CHECK_NS = 50_000_000
_NEVER = 1 << 62  # a deadline that never comes (cheaper on the hot path than None checks)


class Debouncer:
    """State machine of one button (see module doc). Events go to ``sink``."""

    # The state is kept so that a bouncing edge costs one comparison and a few stores:
    # ``_next`` is -inf while released (every edge takes the slow path, where a press starts),
    # and the next deadline while locked (the release or hold check, or the stuck time).
    __slots__ = ("station", "button", "source", "release_ns", "stuck_ns", "_sink", "_read",
                 "_locked", "_low", "_open", "_stuck", "_stuck_at", "_up_since", "_next", "_last",
                 "repairs", "merged", "on_read", "_raced")

    def __init__(self, station: int, button: str, sink: Sink, *, source: str = "gpio",
                 release_ns: int = RELEASE_NS, stuck_ns: int | None = STUCK_NS,
                 level: int = 1, t_ns: int = 0, read_level: Callable[[], int] | None = None) -> None:
        """``level``/``t_ns``: the pin's level when watching starts (0 = already held down).
        ``read_level``: reads the pin's real level now (1 up, 0 down), or None: trust labels."""
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
        self._read = read_level
        self._locked = False   # a press was seen and the button is not yet stably released
        self._low = False      # the last edge said "down" (only meaningful while locked)
        self._open = False     # a press was emitted and its release is still owed
        self._stuck = False
        self._stuck_at = _NEVER
        self._up_since = -_NEVER  # edges stamped before this are late bounce of a reported release
        self._next = -_NEVER
        self._last = t_ns      # the last edge seen while locked
        #: releases whose edge was lost, found by reading the pin (each one logged by the backend)
        self.repairs = 0
        #: edges merged away (two edges in a row with the same label)
        self.merged = 0
        # a read said down although the last edge said up: a new contact whose edge is still on its
        # way (or a held button whose edge was mislabelled); the next edge tells which
        self._raced = False
        #: told every read of the pin: (level, the deadline, when it was read); for evidence
        self.on_read: Callable[[int, int, int], None] | None = None
        if not level:
            # held at start (a stuck button at boot): locked, but no press to report
            self._locked = self._low = True
            self._stuck_at = t_ns + self.stuck_ns
            self._next = self._check_at(t_ns)

    def _check_at(self, t_ns: int) -> int:
        """The next deadline after an edge at ``t_ns``: its release time if it says up (or if the
        pin can be read: a lost rise is found then), else the stuck time."""
        if self._low and self._read is None:
            return self._stuck_at
        return min(t_ns + self.release_ns, self._stuck_at)

    @property
    def pressed(self) -> bool:
        """Down, or bouncing, or not yet stably released."""
        return self._locked

    @property
    def stuck(self) -> bool:
        return self._stuck

    def edge(self, level: int, t_ns: int) -> None:
        """A raw edge: ``level`` as reported after it (0 = down; it may be wrong), stamped ``t_ns``."""
        low = not level
        if t_ns < self._next:  # locked, and no deadline passed: bounce (the hot path)
            if low and self._low and self._raced and t_ns - self._last >= self.release_ns:
                self._new_contact(t_ns)  # the new press a read of the pin saw before its edge
                return
            if low == self._low:
                self.merged += 1  # the edge between these two was merged away
            self._low = low
            self._last = t_ns
            self._next = (t_ns + self.release_ns if level or self._read is not None
                          else self._stuck_at)
            if self._next > self._stuck_at:
                self._next = self._stuck_at
            return
        if self._locked:
            # deadlines before this edge, judged from the labels: the pin's level now is this
            # edge's, not the deadline's, so it is not read here
            self._expire(t_ns, read=False)
            if self._locked:
                if self._low and low and t_ns - self._last >= self.release_ns:
                    # down, then down again after a quiet stretch: the rise between was lost (or
                    # a read saw this new contact before its edge), so the button was up, and
                    # this edge is a new first contact
                    self._new_contact(t_ns)
                    return
                else:  # a held button's edges (its release, a stuck button's chatter)
                    if low == self._low:
                        self.merged += 1
                    self._low = low
                    self._last = t_ns
                    self._next = self._check_at(t_ns)
                    return
        if t_ns < self._up_since:
            return  # a bounce stamped before the release already reported (delivered late)
        # released: any edge is first contact, whatever level it reports
        self._locked = self._open = True
        self._low = low
        self._last = t_ns
        self._stuck_at = t_ns + self.stuck_ns
        self._next = self._check_at(t_ns)
        self._sink(_new(Press, (self.station, self.button, "press", t_ns, self.source)))

    def _new_contact(self, t_ns: int) -> None:
        """The button was up since its last edge and this edge is a new press: release, press."""
        if not self._raced:
            self.repairs += 1  # a rising edge was lost between the two falls
        self.merged += 1
        self._release(self._last, t_ns)
        self.edge(0, t_ns)

    def _release(self, release_at: int, seen_at: int) -> None:
        """Released, stamped ``release_at`` (its last edge) and known to be at ``seen_at`` (edges
        stamped before that are its late bounce): unlock, report it (and an unstuck)."""
        self._locked = False
        self._raced = False
        self._up_since = seen_at
        self._next = -_NEVER
        self._stuck_at = _NEVER
        if self._open:
            self._open = False
            self._sink(_new(Press, (self.station, self.button, "release", release_at,
                                    self.source)))
        if self._stuck:
            self._stuck = False
            self._sink(Unstuck(self.station, self.button, release_at))

    def next_deadline(self) -> int | None:
        """When `poll` next has something to do (release, hold check or stuck), or None."""
        if not self._locked:
            return None
        d = min(self._next, self._stuck_at)
        return None if d >= _NEVER else d

    def poll(self, now_ns: int, seen_ns: int | None = None) -> None:
        """Apply the deadlines reached at ``now_ns``: a stable release, a hold check (the pin is
        read, at ``seen_ns``: default ``now_ns``), a stuck button."""
        self._expire(now_ns, read=True, seen_ns=now_ns if seen_ns is None else seen_ns)

    def _expire(self, now_ns: int, *, read: bool, seen_ns: int = 0) -> None:
        reader = self._read if read else None
        while self._locked:
            check = self._next
            if check <= now_ns and check <= self._stuck_at and (reader is not None
                                                                  or not self._low):
                if reader is None:
                    # labels trusted: the last edge said up and nothing followed for release_ns
                    self._release(self._last, check)
                    continue
                up = reader()
                if self.on_read is not None:
                    self.on_read(1 if up else 0, now_ns, seen_ns)
                if up:  # released (a tie with the stuck time goes to the release)
                    if self._low:
                        self.repairs += 1  # its rising edge never arrived
                    # edges stamped before the pin was read are this release's own
                    self._release(self._last, max(check, seen_ns))
                    continue
                # down: held; look again a little later. If the last edge said up, the read may
                # have seen a new press before its edge arrived: that edge will say so
                self._raced = not self._low
                self._low = True
                self._next = max(check, now_ns) + HOLD_CHECK_NS
            elif self._stuck_at <= now_ns:
                self._stuck = True
                self._sink(Stuck(self.station, self.button, self._stuck_at))
                self._stuck_at = _NEVER
                if self._low and reader is None and self._read is None:
                    self._next = _NEVER
            elif self._low and check <= now_ns and reader is None:
                return  # held, by its labels: only reading the pin (poll) can say more
            else:
                return
