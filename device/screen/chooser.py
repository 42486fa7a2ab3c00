"""The norvégienne chooser of the screen app: the seat whose choice it is uses its own button (first press looks, tap = next, hold = choose)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from device.inputs.press import Press

if TYPE_CHECKING:
    from device.table.match import Match

HOLD_NS = 600 * 1_000_000  # a press held this long is a "hold" (choose) outside a game


class Choosing:
    """The screen app's part that lets a person at the table make a norvégienne choice."""

    match: Match | None
    private: bool
    _looker: int | None
    held: dict[int, int]
    hold_done: set[int]
    chooser_cursor: int
    clock: Any

    def pending_human(self) -> int | None:
        """The seat whose choice the game waits for, if a person plays it."""
        if self.match is None:
            return None
        seat = self.match.table.pending_decision()
        if seat is None or self.match.table.seats[seat].bot:
            return None
        return seat

    def _choose_with(self, press: Press) -> None:
        """The seat whose choice it is uses its own buttons: first press looks, tap = next,
        hold = choose (as soon as the loop sees it held; see _hold)."""
        seat = self.pending_human()
        if seat is None or self.match is None or self.match.table.seats[seat].station != press.station:
            return
        if press.edge == "press":
            if not self.private:
                self.private = True
                self._looker = seat
                self.hold_done.add(press.station)
                return
            self.held[press.station] = press.t_ns
            return
        t0 = self.held.pop(press.station, None)
        if press.station in self.hold_done:
            self.hold_done.discard(press.station)
            return
        if t0 is None:
            return
        if press.t_ns - t0 >= HOLD_NS:  # a hold the loop did not see yet (released at once)
            self._choose_current()
        else:
            self.chooser_cursor = (self.chooser_cursor + 1) % max(1, len(self.decisions()))

    def decisions(self) -> list[Any]:
        """The pending seat's choices in the chooser's order: "ready" first in the swap phase
        (most players keep their cards), then the rest as the rules list them."""
        from device.rules.actions import Ready
        actions = self.match.table.legal_decisions() if self.match is not None else []
        return [a for a in actions if isinstance(a, Ready)] + [a for a in actions if not isinstance(a, Ready)]

    def _choose_current(self) -> None:
        """The pending seat's choice under the cursor is made."""
        seat = self.pending_human()
        if seat is None or self.match is None:
            return
        table = self.match.table
        actions = self.decisions()
        if actions:
            table.decide(seat, actions[self.chooser_cursor % len(actions)], self.clock.now_ns())
            self.chooser_cursor = 0


__all__ = ["Choosing"]
