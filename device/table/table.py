"""The table: the one coordinator. It says *when* (tempo, turns, timers, the collect delay) and what
a press *means* (a slap, a flip, a join), feeds slaps to the arbiter and actions to the rules.

It is a deterministic state machine over its inputs: ``submit(Press | Stuck | Unstuck | Shown)``,
``decide(seat, action)`` and ``advance(now_ns)``. Nothing in it reads a clock: the runner passes
the time. Everything it receives is written to the journal in the order received, with every
judgement it makes, so ``slapbox replay`` can feed the same inputs to a fresh table and check that
every judgement comes out the same.

Outputs (the screen, LEDs, sound, bots) read ``drain()``: the rules' typed events plus the table's
own (`ToShow`, `Judged`, `StationStuck`, `TimeUp` ...). The only thing outputs send back is `Shown`.

A time limit (``TableSettings.time_limit_ns``, device.table.timing) counts playing time only
and ends the game at the end of the trick in progress when it runs out.
"""

from __future__ import annotations

import logging
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, Protocol

from device.inputs.press import BOT_STATION, MENU_STATION, Press, RawEdge, Stuck, Unstuck
from device.records import new
from device.rules.actions import Action, Collect, FlipOutOfTurn, Join, Lay, Slap, action_to_dict
from device.rules.base import Game, IllegalAction
from device.rules.cards import is_face
from device.rules.events import (
    CollectPending,
    Event,
    GameOver,
    Laid,
    LockedOut,
    Unlocked,
    PileWon,
    Played,
    event_to_dict,
)
from device.table.arbiter import Arbiter, ArbiterSettings, Award, Decision, Ignored, WrongSlapCall
from device.table.outputs import DecisionNeeded, Judged, Shown, StationStuck, ToShow
from device.table.seats import MAX_SEATS, Seat, SeatStats, assign_seats
from device.table.timing import TableSettings, TimeUp

log = logging.getLogger("slapbox")
_NEVER = 1 << 62  # a deadline that never comes


class Journal(Protocol):
    """Where the table writes its records (device.journal.journal has the file and memory kinds)."""

    def write(self, record: dict[str, Any]) -> None: ...

    def sync(self) -> None: ...


class Table:
    """Runs one game: see the module docstring."""

    def __init__(self, game: Game, seats: list[Seat], *, start_ns: int,
                 arbiter: ArbiterSettings | None = None, settings: TableSettings | None = None,
                 journal: Journal | None = None, header: dict[str, Any] | None = None) -> None:
        self.game = game
        self.seats = list(seats)
        self.settings = settings or TableSettings()
        self.arbiter_settings = arbiter or ArbiterSettings()
        self.slapping = game.slapping
        # the arbiter orders stations (0-7 the buttons, BOT_STATION + seat a bot's hand), and its
        # tie rotation runs over them all
        self.arbiter = (Arbiter(BOT_STATION + MAX_SEATS, game.streams["ties"], self.arbiter_settings)
                        if self.slapping else None)
        self._journal = journal
        self.start_ns = start_ns
        self.now_ns = start_ns
        self.tempo_ns = self.settings.tempo_ns
        self._timers: dict[str, int] = {}
        # when `advance` next has something to do: the loop asks after every input, so it is
        # kept, not recomputed (_NEVER: nothing; None: unknown, recompute). Every change of the
        # timers or of the arbiter's presses goes through submit, decide, advance or pause: each
        # either updates it exactly (a slap press) or clears it.
        self._due: int | None = None
        # what `drain` hands out next: the loop looks at it (an attribute, not a call) after
        # every input, and drains only when something is there
        self.outbox: list[Any] = []
        self.card_no = 0  # cards laid on the table so far (what ToShow and Shown count)
        self.shown_at: dict[int, int] = {}
        self.stats = [SeatStats() for _ in self.seats]
        self.longest_chain = 0
        self._chain = 0
        self.stuck: set[tuple[int, str]] = set()
        self.paused = False
        self._locked_seats: set[int] = set()
        self._paused_timers: dict[str, int] = {}  # the timers a pause stopped
        self._collect_at: int | None = None  # when a won challenge was due to be collected
        self._won_at: int | None = None
        # station -> seat for the stations that play; a bot seat's buttons are ignored
        self._station_seat: dict[int, int] = {}
        self._bot_buttons: set[int] = set()
        for seat in self.seats:
            self._seat_station(seat)
        self._applying_t = 0  # the stamp of the judgement being applied (its locks date from it)
        self.refused_shown = 0  # presenter faults refused (a second Shown, a card never laid...)
        self._shown_times: list[int] = []  # when each card was shown, in card order
        self.time_up = False  # the time limit ran out: the game ends with the trick in progress
        self._time_left: int | None = None  # while paused: the playing time that was left
        if header is not None:
            self._record({"k": "header", **header})
        self._emit(game.start_events)
        if game.outcome() is None:
            if game.has_decisions:
                self.outbox.append(DecisionNeeded(game.current_seat()))  # type: ignore[arg-type]
            else:
                self._timers["flip"] = start_ns + self.settings.first_card_ns
            if self.settings.time_limit_ns is not None:
                self._timers["time"] = start_ns + self.settings.time_limit_ns

    # --- inputs ----------------------------------------------------------------------------
    def submit(self, item: Press | Stuck | Unstuck | Shown | RawEdge, arrival_ns: int | None = None) -> None:
        """An input, in the order it reached the table (``arrival_ns``: when; default its stamp)."""
        arrival = item.t_ns if arrival_ns is None else arrival_ns
        journal = self._journal
        if type(item) is Press:  # the hot path: exact type first, records only with a journal
            if journal is not None:
                journal.write({"k": "press", "station": item.station, "button": item.button,
                               "edge": item.edge, "t": item.t_ns, "arrival": arrival,
                               "source": item.source})
            if item[2] == "press":  # a release means nothing to the table (it is journaled)
                self._on_press(item, arrival)
        elif type(item) is RawEdge:
            if journal is not None:
                journal.write(item.to_dict())  # evidence only: the debouncer already judged it
        elif isinstance(item, Shown):
            if journal is not None:
                journal.write({"k": "shown", "card": item.card, "t": item.t_ns})
            self._on_shown(item)
        elif isinstance(item, (Stuck, Unstuck)):
            self._record({"k": "stuck" if isinstance(item, Stuck) else "unstuck",
                          "station": item.station, "button": item.button, "t": item.t_ns})
            key = (item.station, item.button)
            if isinstance(item, Stuck):
                self.stuck.add(key)
            else:
                self.stuck.discard(key)
            self.outbox.append(StationStuck(item.station, item.button, isinstance(item, Stuck)))
        else:
            raise TypeError(f"table: cannot take {item!r} as an input")

    def decide(self, seat: int, action: Action, now_ns: int) -> list[Event]:
        """A player's (or bot's) choice for a game that waits for one; IllegalAction if refused."""
        pending = self.pending_decision()
        if pending is None or pending != seat:
            raise IllegalAction(f"seat {seat} has no decision to make now")
        if action.seat != seat:
            raise IllegalAction(f"seat {seat} cannot decide for seat {action.seat}")
        self.now_ns = max(self.now_ns, now_ns)
        events = self.game.apply(action)  # raises IllegalAction, before anything is recorded
        self._record({"k": "decide", "seat": seat, "action": action_to_dict(action), "t": now_ns})
        self._emit(events)
        self._due = None
        if self.game.outcome() is None and self.game.has_decisions:
            self.outbox.append(DecisionNeeded(self.game.current_seat()))  # type: ignore[arg-type]
        return events

    def pending_decision(self) -> int | None:
        """The seat whose choice the game waits for (norvégienne), or None."""
        if not self.game.has_decisions or self.game.outcome() is not None:
            return None
        return self.game.current_seat()

    def legal_decisions(self) -> list[Action]:
        return self.game.legal_actions() if self.pending_decision() is not None else []

    # --- time ------------------------------------------------------------------------------
    def next_deadline(self) -> int | None:
        """When `advance` next has something to do (a judgement or a timer), or None."""
        due = self._due
        if due is None:
            due = self._find_due()
        return None if due == _NEVER else due

    def _find_due(self) -> int:
        timers = self._timers
        due = min(timers.values()) if timers else _NEVER
        if self.arbiter is not None:
            d = self.arbiter.next_deadline()
            if d is not None and d < due:
                due = d
        self._due = due
        return due

    def advance(self, now_ns: int) -> None:
        """Do everything due at or before ``now_ns``, in time order (the arbiter's judgements
        before a timer due at the same time)."""
        due = self._due
        if due is None:
            due = self._find_due()
        if due > now_ns:  # the loop calls this after every input: most find nothing due
            if now_ns > self.now_ns:
                self.now_ns = now_ns
            return
        self._due = None
        arbiter = self.arbiter
        timers = self._timers
        journal = self._journal
        outbox = self.outbox
        ticked = False
        while True:
            t_arb = arbiter.next_deadline() if arbiter is not None else None
            t_timer = min(timers.values()) if timers else _NEVER
            if t_arb is not None and t_arb <= now_ns and t_arb <= t_timer:
                t = t_arb
            elif t_timer <= now_ns:
                t, t_arb = t_timer, None
            else:
                # nothing more is due: what is next, as just found (kept for the next call)
                due = t_timer if t_arb is None or t_timer < t_arb else t_arb
                break
            if not ticked:
                ticked = True
                if journal is not None:
                    journal.write({"k": "tick", "t": now_ns})
            if t > self.now_ns:
                self.now_ns = t
            if t_arb is not None:
                for decision in arbiter.advance(t_arb):  # type: ignore[union-attr]
                    if type(decision) is Ignored and journal is None:  # most presses
                        outbox.append(new(Judged, (self._station_seat.get(decision[0]), decision,
                                                   self._station_seat)))
                    else:
                        self._on_decision(decision)
            else:
                name = min(timers, key=timers.__getitem__)
                del timers[name]
                self._on_timer(name)
        if now_ns > self.now_ns:
            self.now_ns = now_ns
        self._due = due

    def resume(self, shift_ns: int, now_ns: int | None = None) -> None:
        """Go on with this game on another clock: every time the table and its arbiter hold moves
        by ``shift_ns`` (journaled, so a replay does the same). The kiosk does this after a crash
        or a power cut, once the journal has been replayed into a fresh table. ``now_ns``: the
        new clock's time now (the journal's record says it; default the table's time, moved)."""
        self._record({"k": "resume", "shift": shift_ns,
                      "t": self.now_ns + shift_ns if now_ns is None else now_ns})
        self.now_ns += shift_ns
        self.start_ns += shift_ns
        self._timers = {k: t + shift_ns for k, t in self._timers.items()}
        self._paused_timers = {k: t + shift_ns for k, t in self._paused_timers.items()}
        self.shown_at = {k: t + shift_ns for k, t in self.shown_at.items()}
        self._shown_times = [t + shift_ns for t in self._shown_times]
        if self._collect_at is not None:
            self._collect_at += shift_ns
        if self._won_at is not None:
            self._won_at += shift_ns
        if self.arbiter is not None:
            self.arbiter.rebase(shift_ns)
        self._due = None
        # what the replay produced was shown and heard before the stop; only a card laid but
        # never reported shown must still be drawn, and a decision still awaited asked for
        pending = self.pending_decision()
        self.outbox = [item for item in self.outbox
                       if type(item) is ToShow and item.card not in self.shown_at]
        if pending is not None:
            self.outbox.append(DecisionNeeded(pending))

    def attach_journal(self, journal: Journal | None) -> None:
        """From now on write to ``journal`` (a resumed game appends to the journal it was replayed
        from)."""
        self._journal = journal

    def pause(self, on: bool) -> None:
        """The menu is open: no card is laid while paused (slaps in flight are still judged)."""
        if on == self.paused:
            return
        self.paused = on
        self._due = None
        self._record({"k": "pause", "on": on, "t": self.now_ns})
        if on:
            self._paused_timers = dict(self._timers)
            self._timers.clear()
            if "time" in self._paused_timers:  # the time limit keeps what was left, not a fresh start
                self._time_left = max(0, self._paused_timers.pop("time") - self.now_ns)
        else:
            shift = self.settings.first_card_ns
            self._timers = {k: self.now_ns + shift for k in self._paused_timers}
            if self._time_left is not None:
                self._timers["time"] = self.now_ns + self._time_left
                self._time_left = None
            # what happened meanwhile (a slap judged during the pause won the pile) may have made
            # a stopped timer pointless or called for another: the same rules as after any action
            self._reschedule(pile_won=False)

    def time_left_ns(self, now_ns: int) -> int | None:
        """The playing time left at ``now_ns`` (the screen's countdown): None without a time
        limit or once the game ended before it; 0 once it ran out; while paused, what was left."""
        if self.time_up:
            return 0
        if self._time_left is not None:
            return self._time_left
        due = self._timers.get("time")
        return None if due is None else max(0, due - now_ns)

    def drain(self) -> Sequence[Any]:
        """Everything that happened since the last call, for the outputs."""
        out = self.outbox
        if not out:
            return ()  # the loop drains after every input: most of the time there is nothing
        self.outbox = []
        return out

    # --- presses -------------------------------------------------------------------------
    def _seat_station(self, seat: Seat) -> None:
        if seat.bot:
            self._station_seat[BOT_STATION + seat.seat] = seat.seat
            if seat.station is not None:
                self._bot_buttons.add(seat.station)
        elif seat.station is not None:
            self._station_seat[seat.station] = seat.seat

    def station_of(self, seat: int) -> int:
        """The station whose presses are ``seat``'s (a bot's hand: BOT_STATION + seat)."""
        s = self.seats[seat]
        return BOT_STATION + seat if s.bot or s.station is None else s.station

    def _on_press(self, press: Press, arrival: int) -> None:
        station, button, _, t_ns, source = press
        if station == MENU_STATION:
            return
        if self.stuck and (station, button) in self.stuck and source != "bot":
            return
        game = self.game
        if game.outcome() is not None:
            return
        if source == "bot":
            if station < BOT_STATION:
                return  # a bot's press always names its hand's station
        elif station >= BOT_STATION or station in self._bot_buttons:
            return  # not a button, or a bot seat's buttons: ignored
        seat = self._station_seat.get(station)
        if button == "slap":
            arbiter = self.arbiter
            if arbiter is not None and (seat is not None or self._may_join()):
                # (an arriving player may slap a valid double: judged like anyone's, and winning
                # it brings them into play with the pile: RULES.md, "Coming back")
                due = arbiter.press(station, t_ns, arrival)
                if self._due is not None and due < self._due:
                    self._due = due
            return
        if seat is None:
            return
        if button == "flip":
            if self.settings.flip_mode == "buttons" and game.current_seat() == seat \
                    and "flip" in self._timers and not self.paused:
                self._due = None
                self._timers.pop("flip")
                self.now_ns = max(self.now_ns, arrival)
                self._lay()
            elif self.settings.flip_mode == "buttons" and not self.paused \
                    and FlipOutOfTurn(seat) in game.legal_actions():
                self._apply(FlipOutOfTurn(seat))  # out of turn: refused, and wrong_flip's cost

    def _may_join(self) -> bool:
        return any(isinstance(a, Join) for a in self.game.legal_actions())

    def _join(self, station: int) -> int | None:
        """The arriving player at ``station`` takes the next seat (it won a slap); its seat, or
        None where the rules refuse it now."""
        seat = len(self.seats)
        try:
            events = self.game.apply(Join(seat))
        except IllegalAction as e:
            self._record({"k": "refused", "action": action_to_dict(Join(seat)), "why": str(e)})
            return None
        self._record({"k": "join", "station": station, "seat": seat})
        self.seats.append(Seat(seat, f"{seat + 1}", station, False))
        self.stats.append(SeatStats())
        self._station_seat[station] = seat
        self._emit(events)
        return seat

    def _on_shown(self, shown: Shown) -> None:
        card, t = shown
        why = None
        if type(card) is not int or type(t) is not int:
            why = "expected a card number and integer nanoseconds"
        elif card in self.shown_at:
            why = "that card was already shown"
        elif not 1 <= card <= self.card_no:
            why = f"no card {card} was laid (cards laid: {self.card_no})"
        elif (self._shown_times and t < self._shown_times[-1]) or (
                self.arbiter is not None and t < self.arbiter.last_change_ns):
            why = "stamped before the card shown before it"
        if why is not None:
            # a presenter's fault: refused, said in the journal and counted, never raised (the
            # replay meets the same record and refuses it the same way)
            self.refused_shown += 1
            self._record({"k": "refused", "shown": card, "t": t, "why": why})
            log.warning("table: Shown(%r, %r) refused: %s", card, t, why)
            return
        self.shown_at[card] = t
        self._shown_times.append(t)  # in order: a Shown before the one before it is refused
        if self.arbiter is not None:
            self.arbiter.shown(card, t, self.slappable_at(card))

    def slappable_at(self, card: int) -> bool:
        """Could the pile be slapped while card number ``card`` was on top? (Only slap games.)"""
        return self.game.slappable_at(card) is not None

    # --- judgements ------------------------------------------------------------------------
    def _on_decision(self, decision: Decision) -> None:
        station = decision.station
        seat = self._station_seat.get(station)
        if self._journal is not None:
            self._journal.write({"k": "judge", **decision.to_dict(), "seat": seat})
        self.outbox.append(new(Judged, (seat, decision, self._station_seat)))
        if type(decision) is Ignored:
            return  # most presses: nothing for the rules or the statistics
        game = self.game
        if game.outcome() is not None:
            return
        if seat is None:
            if isinstance(decision, Award):
                seat = self._join(station)  # an arriving player won the pile: it plays now
            if seat is None:
                return  # a wrong slap of a station with no seat costs nothing (it has no cards)
        self._applying_t = decision.t_ns
        if isinstance(decision, Award):
            self.stats[seat].slaps_won += 1
            times = self._shown_times
            for st, t in decision.contenders + decision.runners_up:
                s = self._station_seat.get(st)
                # each press's reaction: from the card it slapped (the one on top at its stamp)
                i = bisect_right(times, t) - 1
                if s is not None and i >= 0:
                    self.stats[s].reactions_ns.append(t - times[i])
            self._apply(Slap(seat, at_card=decision.card))
        elif isinstance(decision, WrongSlapCall):
            self.stats[seat].wrong_slaps += 1
            at = decision.card
            base = game.pile_base
            if at is None or at <= base:
                # pressed on a pile that has been won since, or before any card: judged on the
                # first card of the pile now (one card is never slappable), or on the empty table
                at = base + 1 if game.pile else None
            self._apply(Slap(seat, at_card=at))

    # --- timers ----------------------------------------------------------------------------
    def _on_timer(self, name: str) -> None:
        if self.game.outcome() is not None:
            return
        if name == "flip":
            self._lay()
        elif name == "time":
            self._time_ran_out()
        elif name == "collect":
            # A slap stamped during the collect delay may still be in flight: wait the settle
            # time for it, let the arbiter judge it first; a valid one wins the pile instead.
            # The pile is won at this collect moment: a press stamped from now on is a lost race
            # (grace), whenever it arrives; one stamped before it may still be in flight, so wait
            # the settle time for its judgement (a valid one steals the pile), then collect.
            if self.arbiter is not None and self._collect_at is None:
                self._collect_at = self.now_ns
                self.arbiter.pile_won(self.now_ns)
                self._timers["collect"] = self.now_ns + self.arbiter_settings.settle_ns
                return
            collector = self.game.collector
            if collector is None:
                collector = next((a.seat for a in self.game.legal_actions()
                                  if isinstance(a, Collect)), None)
            if collector is None:  # the pile went meanwhile (a slap won it): nothing to collect
                self._collect_at = None
                self._reschedule(pile_won=False)
                return
            self._won_at = self._collect_at  # the window closed when the pile was due to go
            self._apply(Collect(collector))
            self._won_at = None

    def _time_ran_out(self) -> None:
        """The time limit: the game ends now, or when the trick in progress ends (`_emit`)."""
        self.time_up = True
        last = self.game.trick_in_progress()
        self._record({"k": "time_up", "t": self.now_ns, "last_trick": last})
        self.outbox.append(TimeUp(self.now_ns, last))
        if not last:
            self._emit(self.game.end_on_time())

    def _lay(self) -> None:
        seat = self.game.current_seat()
        if seat is None:
            return
        self._apply(Lay(seat))

    def _apply(self, action: Action) -> None:
        try:
            events = self.game.apply(action)
        except IllegalAction as e:
            # The rules refused what the table inferred (it should not happen): keep playing.
            self._record({"k": "refused", "action": action_to_dict(action), "why": str(e)})
            self._reschedule(pile_won=False)
            return
        self._emit(events)

    def _emit(self, events: list[Event]) -> None:
        """Record and publish the rules' events; schedule what they call for."""
        pile_won = False
        journal = self._journal
        for e in events:
            if journal is not None:
                journal.write({"k": "event", **event_to_dict(e)})
            self.outbox.append(e)
            if isinstance(e, (Laid, Played)):
                cards = [e.card] if isinstance(e, Laid) else list(e.cards)
                for c in cards:
                    self.card_no += 1
                    self.outbox.append(ToShow(self.card_no, e.seat, c))
                    if self.game.has_challenges and is_face(c):
                        self._chain += 1  # faces answering faces: the challenge chain grows
                        self.longest_chain = max(self.longest_chain, self._chain)
            elif isinstance(e, PileWon):
                pile_won = True
                self._chain = 0
                if self.arbiter is not None:
                    won = self.now_ns if self._won_at is None else self._won_at
                    # the window closed when the pile was due to go, unless a card was reported
                    # shown after that (a slow frame, a resumed game redrawing its pile)
                    won = max(won, self.arbiter.last_change_ns)
                    self.arbiter.pile_won(won)
                    self.arbiter.collected()
                    # a lockout until the pile is won ends now; one for N cards (lockout-N) goes on
                    locked = self.game.locked
                    for s in [s for s in self._locked_seats if not (s < len(locked) and locked[s])]:
                        self.arbiter.set_locked(self.station_of(s), False, won)
                        self._locked_seats.discard(s)
                self.tempo_ns = max(self.settings.tempo_min_ns,
                                    int(self.tempo_ns * (1.0 - self.settings.tempo_speedup)))
            elif isinstance(e, Unlocked) and self.arbiter is not None:
                # lockout-N: its N cards are laid; presses from now on count again
                self.arbiter.set_locked(self.station_of(e.seat), False, self.now_ns)
                self._locked_seats.discard(e.seat)
            elif isinstance(e, LockedOut) and self.arbiter is not None:
                # locked from the wrong slap's stamp on: presses are judged in stamp order
                self.arbiter.set_locked(self.station_of(e.seat), True, self._applying_t)
                self._locked_seats.add(e.seat)
            elif isinstance(e, GameOver):
                self._timers.clear()
                self._record({"k": "end", "outcome": e.termination, "winner": e.winner,
                              "t": self.now_ns}, sync=True)
        if pile_won:
            self._sync()
        if self.time_up and self.game.outcome() is None and not self.game.trick_in_progress():
            self._emit(self.game.end_on_time())  # the time ran out and the trick is over
            return
        self._reschedule(pile_won)

    def _reschedule(self, pile_won: bool) -> None:
        game = self.game
        if game.outcome() is not None or game.has_decisions or self.paused:
            return
        waiting = game.collector is not None or (
            game.current_seat() is None and any(isinstance(a, Collect) for a in game.legal_actions()))
        if waiting:
            self._timers.pop("flip", None)
            if "collect" not in self._timers:
                self._timers["collect"] = self.now_ns + self.arbiter_settings.collect_delay_ns
                self._collect_at = None
            return
        self._timers.pop("collect", None)
        if game.current_seat() is None:
            return
        if pile_won:
            self._timers["flip"] = self.now_ns + self.settings.pile_pause_ns
        elif "flip" not in self._timers:
            seat = game.current_seat()
            wait = self.tempo_ns
            if self.settings.flip_mode == "buttons" and not self.seats[seat].bot:  # type: ignore[index]
                wait = self.settings.auto_flip_timeout_ns
            self._timers["flip"] = self.now_ns + wait

    # --- journal ---------------------------------------------------------------------------
    def _record(self, record: dict[str, Any], sync: bool = False) -> None:
        if self._journal is not None:
            self._journal.write(record)
            if sync:
                self._journal.sync()

    def _sync(self) -> None:
        if self._journal is not None:
            self._journal.sync()

    # --- views -----------------------------------------------------------------------------
    def seat_stats(self) -> list[dict[str, Any]]:
        return [{"seat": s.seat, "name": s.name, "bot": s.bot, **st.to_dict()}
                for s, st in zip(self.seats, self.stats)]


__all__ = ["Table", "TableSettings", "Seat", "assign_seats", "Shown", "ToShow", "Judged",
           "StationStuck", "DecisionNeeded", "SeatStats", "CollectPending", "Ignored", "TimeUp"]
