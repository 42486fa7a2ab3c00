"""Says who slapped first: orders slap presses by their source stamp and judges each one exactly once.

Pure and deterministic: no clock (every time is an argument, integer nanoseconds), no global random
(the tie rotation starts from a permutation drawn from the game's ``ties`` stream with ``.random()``
only). The table tells it what was visible when (`shown`, `pile_won`), hands it presses (`press`)
and collects the judgements whose time has come (`advance`, `next_deadline`).

The rules it applies (DESIGN.md, "Slap arbitration"):

- A slap window opens at `shown` of a slappable card k and closes at the next `shown` or
  `pile_won`. A press stamped inside it is a valid slap on card k, whenever it arrives; a press
  stamped when nothing was slappable (or before the window opened) is a wrong slap.
- Slaps on the same pile (from one `pile_won` to the next) are **one contest**, whatever window
  each falls in: one award per pile. Order by stamp, never by arrival. A press is judged at its
  stamp + settle (or on arrival, if it came later than that), so earlier-stamped presses still in
  flight are known in time. The pile is decided when its first valid press is judged: the
  contenders are the valid presses on that pile within the tie window of the earliest (no
  chaining); the rotating priority orders them; a tie winner moves to the back of the priority. A
  valid press on a decided pile is a lost race ("lost"), never a second award.
- Every press gets exactly one judgement: the winner's is the `Award`; the others are `Ignored`
  ("lost", "duplicate", "grace", "locked") or a `WrongSlapCall`.
- Grace (a lost race is not punished): from the winning press's stamp (or `pile_won`) until the
  next `shown`, and at least ``grace_ns``, a press outside any slappable window is ignored.
- Locks are applied in stamp order: a station locked out since ``t`` (`set_locked`) has its presses
  stamped from ``t`` on ignored ("locked"), whenever they arrived, until it is unlocked.
- Determinism: judgements depend on stamps, never on arrival order, as long as every press
  arrives within settle - tie of its stamp (GPIO: ~0.1 ms; the bridge: ~1 ms; settle 8 ms).
  An award's ``runners_up`` and ``margin_ns`` report the presses known when it was decided.
  Replay feeds the journal's arrival times back, so it reproduces everything exactly.
- Extension (a party-box choice): one wrong slap per station per card shown; a second press of the
  same station on the same card is ignored as a duplicate rather than paid twice.
"""

from __future__ import annotations

from bisect import bisect_right, insort
from collections.abc import Mapping
from dataclasses import dataclass, fields
from heapq import heappop, heappush
from operator import itemgetter
from random import Random
from typing import Any, NamedTuple, Union

from device.errors import SlapboxError
from device.records import new, typed
from device.rules.cards import shuffle

__all__ = ["ArbiterSettings", "Arbiter", "Award", "WrongSlapCall", "Ignored", "Decision",
           "ArbiterError", "decision_from_dict", "MAX_STATIONS", "IGNORE_REASONS"]

#: stations the arbiter can order: 8 stations of buttons and 8 bot hands (device.inputs.press.BOT_STATION)
MAX_STATIONS = 16
IGNORE_REASONS = ("grace", "lost", "duplicate", "locked")
_INF = 1 << 62


class ArbiterError(SlapboxError, ValueError):
    """A setting or a call the arbiter cannot accept (bad station, time going back...)."""


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class ArbiterSettings:
    """Timing of slap judgement, in integer nanoseconds (all in the config and journal header)."""

    settle_ns: int = 8_000_000
    tie_ns: int = 1_000_000
    grace_ns: int = 500_000_000
    release_ns: int = 20_000_000
    stuck_ns: int = 3_000_000_000
    collect_delay_ns: int = 800_000_000

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if not _is_int(v) or v < 0:
                raise ArbiterError(f"arbiter setting {f.name}={v!r}: expected an integer >= 0 "
                                   "(nanoseconds)")
        if self.tie_ns > self.settle_ns:
            # contenders stamped after the earliest must still be known when the window is decided
            raise ArbiterError(f"arbiter setting tie_ns={self.tie_ns} is larger than "
                               f"settle_ns={self.settle_ns}: expected tie_ns <= settle_ns")

    def to_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ArbiterSettings:
        known = {f.name for f in fields(cls)}
        for key in d:
            if key not in known:
                raise ArbiterError(f"arbiter settings: unknown key {key!r} "
                                   f"(expected some of {', '.join(sorted(known))})")
        return cls(**dict(d))


# ---------------------------------------------------------------------------------------------
# Judgements


class _AwardFields(NamedTuple):
    card: int
    station: int
    t_ns: int
    contenders: tuple[tuple[int, int], ...]
    runners_up: tuple[tuple[int, int], ...]
    margin_ns: int | None
    by_tie_rule: bool


class _WrongSlapFields(NamedTuple):
    station: int
    t_ns: int
    card: int | None


class _IgnoredFields(NamedTuple):
    station: int
    t_ns: int
    reason: str


# Immutable records, one per press (device.records: equality by type and value).
@typed
class Award(_AwardFields):
    """``station`` won the slap window of card ``card`` with the press stamped ``t_ns``.

    ``contenders``: (station, stamp) of every valid press within the tie window of the earliest,
    in the order the rule ranked them (winner first). ``runners_up``: the window's other valid
    presses known when it was decided, by stamp. ``margin_ns``: from the earliest valid stamp to
    the next one (None if the winner was alone). ``by_tie_rule``: the rotation decided.
    """

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "award", "card": self.card, "station": self.station, "t_ns": self.t_ns,
                "contenders": [list(c) for c in self.contenders],
                "runners_up": [list(c) for c in self.runners_up],
                "margin_ns": self.margin_ns, "by_tie_rule": self.by_tie_rule}


@typed
class WrongSlapCall(_WrongSlapFields):
    """A press stamped when nothing was slappable; ``card``: the card on top then (None: none)."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "wrong_slap", "station": self.station, "t_ns": self.t_ns,
                "card": self.card}


@typed
class Ignored(_IgnoredFields):
    """A press that neither wins nor costs: ``reason`` is grace, lost, duplicate or locked."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "ignored", "station": self.station, "t_ns": self.t_ns,
                "reason": self.reason}


Decision = Union[Award, WrongSlapCall, Ignored]


def _pairs(v: Any, what: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(v, (list, tuple)) or not all(
            isinstance(p, (list, tuple)) and len(p) == 2 and all(_is_int(x) for x in p) for p in v):
        raise ArbiterError(f"award record: {what}={v!r}, expected a list of [station, t_ns]")
    return tuple((p[0], p[1]) for p in v)


def decision_from_dict(d: Mapping[str, Any]) -> Decision:
    """Read a judgement written by ``to_dict`` (for replay and tests)."""
    try:
        kind = d["kind"]
        if kind == "award":
            margin = d["margin_ns"]
            if margin is not None and not _is_int(margin):
                raise ArbiterError(f"award record: margin_ns={margin!r}, expected int or null")
            return Award(int(d["card"]), int(d["station"]), int(d["t_ns"]),
                         _pairs(d["contenders"], "contenders"),
                         _pairs(d["runners_up"], "runners_up"), margin, bool(d["by_tie_rule"]))
        if kind == "wrong_slap":
            card = d["card"]
            return WrongSlapCall(int(d["station"]), int(d["t_ns"]),
                             None if card is None else int(card))
        if kind == "ignored":
            if d["reason"] not in IGNORE_REASONS:
                raise ArbiterError(f"ignored record: reason={d['reason']!r}, expected one of "
                                   f"{', '.join(IGNORE_REASONS)}")
            return Ignored(int(d["station"]), int(d["t_ns"]), d["reason"])
    except KeyError as e:
        raise ArbiterError(f"judgement record: missing key {e.args[0]!r}") from None
    except (TypeError, ValueError) as e:
        if isinstance(e, ArbiterError):
            raise
        raise ArbiterError(f"judgement record: {e}") from None
    raise ArbiterError(f"judgement record: kind={kind!r}, expected award, wrong_slap or ignored")


# ---------------------------------------------------------------------------------------------
# The arbiter


# A press waiting for (or having had) its judgement is a small list, which is also its heap
# entry: cheaper than an object plus a tuple on the path every press takes.
_Slap = list[Any]  # [due, stamp, station, seq, locked, judged]
_DUE, _T, _STATION, _SEQ, _LOCKED, _JUDGED = range(6)
_BY_STAMP = itemgetter(_T, _STATION)


class _Pile:
    """One pile, from one `pile_won` to the next: one contest, one award."""

    __slots__ = ("start", "close", "decided", "claims")

    def __init__(self, start: int) -> None:
        self.start = start
        self.close = _INF                  # when it was won
        self.decided = False               # it has its award, or it was collected
        self.claims: dict[int, _Slap] = {}  # station -> the one press that counts on this pile


class _Segment:
    """What was on the pile from one `shown`/`pile_won` to the next."""

    __slots__ = ("start", "card", "slappable", "close", "pile", "wrong")

    def __init__(self, start: int, card: int | None, slappable: bool, pile: _Pile) -> None:
        self.start = start
        self.card = card
        self.slappable = slappable
        self.close = _INF                  # start of the next segment
        self.pile = pile
        self.wrong: set[int] = set()       # stations already judged wrong on this card


class Arbiter:
    """Orders slap presses of up to 8 stations by stamp and judges them (see module doc)."""

    def __init__(self, stations: int, ties: Random,
                 settings: ArbiterSettings | None = None) -> None:
        if not _is_int(stations) or not 1 <= stations <= MAX_STATIONS:
            raise ArbiterError(f"arbiter: stations={stations!r}, expected 1..{MAX_STATIONS}")
        self.settings = settings or ArbiterSettings()
        self._settle = self.settings.settle_ns
        self._tie = self.settings.tie_ns
        self._grace_ns = self.settings.grace_ns
        self._stations = stations
        order = list(range(stations))
        shuffle(order, ties)
        self._priority = order  # first = wins the next tie
        self._locked = [False] * stations
        # per station, the times its lock changed, and whether it was locked from then on
        self._lock_t: list[list[int]] = [[] for _ in range(stations)]
        self._lock_on: list[list[bool]] = [[] for _ in range(stations)]
        # timeline: starts and segments, in time order; an empty first segment covers "before
        # anything was shown"
        self._seg_t: list[int] = [-_INF]
        self._segs: list[_Segment] = [_Segment(-_INF, None, False, _Pile(-_INF))]
        self._shown_t: list[int] = []
        self._grace: list[int] = []  # grace starts (awards, pile_won)
        self._heap: list[_Slap] = []
        self._seq = 0

    # --- what the table tells it -------------------------------------------------------------

    @property
    def stations(self) -> int:
        return self._stations

    @property
    def priority(self) -> tuple[int, ...]:
        """Stations in tie priority order (first wins the next tie)."""
        return tuple(self._priority)

    def set_locked(self, station: int, locked: bool, t_ns: int = -_INF) -> None:
        """From ``t_ns`` on (a stamp: the wrong slap that locked it, the won pile that unlocks it;
        default: for every press), ``station``'s presses are ignored as "locked", or no longer."""
        # the table unlocks every station at each won pile: check cheaply, explain only on error
        if type(station) is not int or not 0 <= station < self._stations:
            self._check_station(station, "set_locked")
        on = locked is True or bool(locked)
        if self._locked[station] == on and self._lock_t[station]:
            return
        self._locked[station] = on
        times, states = self._lock_t[station], self._lock_on[station]
        i = bisect_right(times, t_ns)
        # a later change made before this one (stamps out of order) keeps its place after it
        times.insert(i, t_ns)
        states.insert(i, on)
        if len(times) > 64:  # only recent history can matter (presses within a settle time)
            del times[:-32], states[:-32]

    def locked(self, station: int) -> bool:
        """Whether ``station`` is locked out now (its latest lock change)."""
        self._check_station(station, "locked")
        return self._locked[station]

    def _locked_at(self, station: int, t_ns: int) -> bool:
        times = self._lock_t[station]
        if not times:
            return False
        i = bisect_right(times, t_ns) - 1
        return i >= 0 and self._lock_on[station][i]

    def shown(self, card: int, t_ns: int, slappable: bool) -> None:
        """Card number ``card`` became visible at ``t_ns``; it opens a window if ``slappable``."""
        if type(card) is not int:
            raise ArbiterError(f"shown: card={card!r}, expected the card count (an integer)")
        self._open_segment(_Segment(t_ns, card, bool(slappable), self._segs[-1].pile), t_ns, "shown")
        self._shown_t.append(t_ns)

    @property
    def last_change_ns(self) -> int:
        """When the pile last changed for it (the latest `shown` or `pile_won`)."""
        return self._seg_t[-1]

    def pile_won(self, t_ns: int) -> None:
        """The pile is won at ``t_ns`` (a slap's award, a challenge's collect moment): presses
        stamped from then on are on the next pile (grace starts); earlier ones still in flight
        are judged on this one. Again at the same time: nothing more."""
        last = self._segs[-1]
        if last.card is None and last.start == t_ns and last.pile.start == t_ns:
            return
        pile = _Pile(t_ns)
        last.pile.close = t_ns
        self._open_segment(_Segment(t_ns, None, False, pile), t_ns, "pile_won")
        insort(self._grace, t_ns)

    def collected(self) -> None:
        """The won pile left the table: a valid press on it judged from now on (one that arrived
        later than its settle time) is a lost race, not an award of a pile that is gone."""
        current = self._segs[-1].pile
        for seg in reversed(self._segs):
            if seg.pile is not current:
                if seg.pile.decided:
                    break
                seg.pile.decided = True

    def _open_segment(self, seg: _Segment, t_ns: int, what: str) -> None:
        if type(t_ns) is not int:
            raise ArbiterError(f"{what}: t_ns={t_ns!r}, expected integer nanoseconds")
        if t_ns < self._seg_t[-1]:
            raise ArbiterError(f"{what}: t_ns={t_ns} is before the previous shown/pile_won "
                               f"({self._seg_t[-1]}); expected times that never go back")
        self._segs[-1].close = t_ns
        self._seg_t.append(t_ns)
        self._segs.append(seg)

    def press(self, station: int, t_ns: int, arrival_ns: int) -> int:
        """A slap press stamped ``t_ns`` at its source that reached the table at ``arrival_ns``.
        Returns when it is due for judgement (its stamp + settle, or its arrival if later)."""
        # exact type checks: cheap on the hot path, and they refuse bools and floats alike
        if type(station) is not int or not 0 <= station < self._stations:
            self._check_station(station, "press")
        if type(t_ns) is not int or type(arrival_ns) is not int:
            raise ArbiterError(f"press: t_ns={t_ns!r}, arrival_ns={arrival_ns!r}; "
                               "expected integer nanoseconds")
        due = t_ns + self._settle
        if arrival_ns > due:
            due = arrival_ns  # arrived after its settle time: judged on arrival
        # the heap entry IS the press record; judgement order is due time, then stamp, then
        # station, never arrival order (the unique seq keeps comparisons off the flags)
        self._seq += 1
        heappush(self._heap, [due, t_ns, station, self._seq, False, False])
        return due

    def rebase(self, shift_ns: int) -> None:
        """Every time it holds moves by ``shift_ns``: a game resumed on another clock (after a
        crash or a power cut, the monotonic clock starts again). Order and gaps are kept."""
        if type(shift_ns) is not int:
            raise ArbiterError(f"rebase: shift_ns={shift_ns!r}, expected integer nanoseconds")

        def sh(t: int) -> int:
            return t if t in (_INF, -_INF) else t + shift_ns

        self._seg_t = [sh(t) for t in self._seg_t]
        piles = {id(seg.pile): seg.pile for seg in self._segs}
        for pile in piles.values():
            pile.start, pile.close = sh(pile.start), sh(pile.close)
        for seg in self._segs:
            seg.start, seg.close = sh(seg.start), sh(seg.close)
        self._lock_t = [[sh(t) for t in ts] for ts in self._lock_t]
        self._shown_t = [t + shift_ns for t in self._shown_t]
        self._grace = [t + shift_ns for t in self._grace]
        moved: set[int] = set()  # a press is in the heap, in a window's claims, or both
        for slap in [*self._heap, *(c for p in piles.values() for c in p.claims.values())]:
            if id(slap) not in moved:
                moved.add(id(slap))
                slap[_DUE] += shift_ns
                slap[_T] += shift_ns

    # --- what it tells the table -------------------------------------------------------------

    def next_deadline(self) -> int | None:
        """When `advance` next has a judgement to give, or None."""
        heap = self._heap
        while heap and heap[0][5]:  # [_JUDGED]: judged with an award, or taken back
            heappop(heap)
        return heap[0][0] if heap else None

    def advance(self, now_ns: int) -> list[Decision]:
        """The judgements whose time (due at or before ``now_ns``) has come, in time order."""
        out: list[Decision] = []
        heap = self._heap
        while heap and heap[0][0] <= now_ns:
            slap = heappop(heap)
            if not slap[_JUDGED]:
                self._judge(slap, out)
        return out

    # --- judgement ---------------------------------------------------------------------------

    def _judge(self, slap: _Slap, out: list[Decision]) -> None:
        slap[_JUDGED] = True
        _, t, station, _, _, _ = slap
        if self._lock_t[station] and self._locked_at(station, t):
            out.append(new(Ignored, (station, t, "locked")))
            return
        seg = self._segs[bisect_right(self._seg_t, t) - 1]
        if seg.slappable:
            pile = seg.pile
            if not pile.decided and self._decide(pile, slap, out) is slap:
                return  # its judgement is the award
            claim = pile.claims.get(station)
            if claim is None or (not claim[_JUDGED] and t < claim[_T]):
                # the station's one press that counts is its earliest-stamped, whichever arrived
                # first: one stamped earlier but delivered after the award takes the claim
                # back from a later one still waiting (judgements never depend on arrival)
                pile.claims[station] = slap
                out.append(new(Ignored, (station, t, "lost")))
            elif claim is slap:
                out.append(new(Ignored, (station, t, "lost")))
            else:
                out.append(new(Ignored, (station, t, "duplicate")))
            return
        # in grace? (a lost race is not punished): from the latest grace start at or before t,
        # for grace_ns, and on until the next card shown after it (the latest start covers at
        # least as long as any earlier one)
        grace = self._grace
        i = bisect_right(grace, t) - 1
        if i < 0:
            in_grace = False
        else:
            g = grace[i]
            if t < g + self._grace_ns:
                in_grace = True
            else:
                shown_t = self._shown_t
                j = bisect_right(shown_t, g)
                in_grace = j == len(shown_t) or t < shown_t[j]
        if in_grace:
            out.append(new(Ignored, (station, t, "grace")))
        elif station in seg.wrong:
            out.append(new(Ignored, (station, t, "duplicate")))
        else:
            seg.wrong.add(station)
            out.append(new(WrongSlapCall, (station, t, seg.card)))

    def _decide(self, pile: _Pile, first: _Slap, out: list[Decision]) -> _Slap:
        """Decide ``pile``'s contest now, from every valid press known for it (in any of its
        slappable windows); returns the winner."""
        lo, hi = pile.start, pile.close
        seg_t, segs = self._seg_t, self._segs
        best: dict[int, _Slap] = {first[_STATION]: first}
        for s in self._heap:  # a handful of presses in flight: a scan is cheapest
            t = s[_T]
            if s[_JUDGED] or not lo <= t < hi or not segs[bisect_right(seg_t, t) - 1].slappable:
                continue
            station = s[_STATION]
            if self._lock_t[station] and self._locked_at(station, t):
                continue
            cur = best.get(station)
            # equal stamps: the one judged first (the heap's order), not the heap's layout
            if cur is None or t < cur[_T] or t == cur[_T] and s[_SEQ] < cur[_SEQ]:
                best[station] = s
        if len(best) == 1:
            cands = contenders = [first]
        else:
            cands = sorted(best.values(), key=_BY_STAMP)
            e = cands[0][_T]
            tie = self._tie
            contenders = [s for s in cands if s[_T] == e or s[_T] - e < tie]  # no chaining
            if len(contenders) > 1:
                pri = self._priority
                contenders.sort(key=lambda s: pri.index(s[_STATION]))
                pri.remove(contenders[0][_STATION])
                pri.append(contenders[0][_STATION])
        winner = contenders[0]
        e = cands[0][_T]
        pile.decided = True
        pile.claims.update(best)
        winner[_JUDGED] = True
        n = len(contenders)
        card = segs[bisect_right(seg_t, winner[_T]) - 1].card
        out.append(Award(
            card if card is not None else -1, winner[_STATION], winner[_T],
            tuple([(s[_STATION], s[_T]) for s in contenders]),
            tuple([(s[_STATION], s[_T]) for s in cands[n:]]),
            cands[1][_T] - e if len(cands) > 1 else None,
            n > 1))
        # a lost race is not punished: grace from the contest's earliest press, so a press
        # stamped after it on the next card (not slappable) is a lost race, not a wrong slap
        insort(self._grace, e)
        return winner

    def _check_station(self, station: object, what: str) -> None:
        if not _is_int(station) or not 0 <= station < self._stations:  # type: ignore[operator]
            raise ArbiterError(f"{what}: station={station!r}, expected 0..{self._stations - 1}")
