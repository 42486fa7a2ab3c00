"""Keeps what the screen needs from the table's output stream: banner events, the last photo finish,
wrong-slap flashes, the challenge count, burns, Ace targets, battle stages and the winner.

Pure (no pygame, no clock): the app pushes every item of ``table.drain()`` with the time it got it
(``push(item, now_ns)``), and the scene asks what is live at a given time. Words are chosen later,
by the scene, so the same feed serves either language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from device.rules import events as ev
from device.screen import i18n
from device.table.arbiter import Award, WrongSlapCall
from device.table.table import Judged, ToShow

MS = 1_000_000
BANNER_NS = 4000 * MS      # an important event stays on the banner this long
FLASH_NS = 2500 * MS       # a wrong slap flashes on its seat this long
PHOTO_NS = 6000 * MS       # the photo finish stays in the info panel this long (or to the next one)
WON_PILE_NS = 1500 * MS    # a pile won by a slap lingers (until the next card) so players see why
KEEP_LINES = 4

# Events worth keeping on the banner for a while; the rest (a card laid, a count going down) only
# show while nothing important is live.
# The higher the priority, the longer it holds the banner against newer, lesser news (a seat
# coming back in play must not hide the slap that won the pile).
PRIORITY = {
    "GameOver": 3,
    "PileWon": 2, "WrongSlap": 2, "Battle": 2, "Burned": 2, "AceTarget": 2, "CollectPending": 2,
    "LockedOut": 1, "SeatOut": 1, "SeatBack": 1, "Joined": 1, "PickedUp": 1, "Revealed": 1,
    "Finished": 1, "Skipped": 1, "TookUp": 1,
}
IMPORTANT = frozenset(PRIORITY)


@dataclass(frozen=True, slots=True)
class BannerItem:
    """One event for the banner; ``tone`` is ``good``, ``warn`` or ``plain``."""

    event: ev.Event
    at_ns: int
    until_ns: int
    important: bool
    tone: str


@dataclass(frozen=True, slots=True)
class PhotoFinish:
    """The last award: the winner, how far ahead, who came next (seat, ns after the winner)."""

    winner: int
    card: int
    margin_ns: int | None
    runners_up: tuple[tuple[int, int], ...]
    by_tie_rule: bool
    tie_window_ns: int
    at_ns: int


@dataclass(frozen=True, slots=True)
class WrongFlash:
    """A wrong slap by ``seat``: what it paid and whether it is now locked out."""

    seat: int
    paid: int
    locked_out: bool
    at_ns: int
    until_ns: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """``seat`` owes ``left`` more attempts."""

    seat: int
    left: int


@dataclass(frozen=True, slots=True)
class WonPile:
    """The cards of a pile just won (card number, face), top card last, shown until the next card."""

    seat: int
    reason: str
    cards: tuple[tuple[int, int], ...]
    at_ns: int


@dataclass(frozen=True, slots=True)
class BurnNote:
    seat: int
    cards: int
    why: str
    at_ns: int


class Feed:
    """What happened recently, for the screen. Deterministic given the pushed items and times."""

    def __init__(self, *, tie_window_ns: int = 1 * MS, banner_ns: int = BANNER_NS, lang: str = "fr",
                 names: Sequence[str] = ()) -> None:
        self.lang = lang            # defaults for banner_text; scenes pass their own language
        self.names = list(names)
        self.tie_window_ns = tie_window_ns
        self.banner_ns = banner_ns
        self.lines: list[BannerItem] = []
        self.photo: PhotoFinish | None = None
        self.flashes: dict[int, WrongFlash] = {}
        self.challenge: Challenge | None = None
        self.collector: int | None = None
        self.won: WonPile | None = None
        self.burn: BurnNote | None = None
        self.ace: tuple[int, int] | None = None          # (seat that laid the Ace, target)
        self.battle: ev.Battle | None = None
        self.round_winner: int | None = None
        self.over: ev.GameOver | None = None
        self.last_shown: int = 0                          # the newest card number laid
        self._recent: list[tuple[int, int]] = []          # (card number, face) of the live pile
        self.now_ns = 0

    # --- input -----------------------------------------------------------------------------
    def push(self, item: Any, now_ns: int) -> None:
        """One output item of the table, received at ``now_ns``."""
        self.now_ns = max(self.now_ns, now_ns)
        if isinstance(item, ToShow):
            self.last_shown = max(self.last_shown, item.card)
            self._recent.append((item.card, item.face))
            del self._recent[:-8]
            self.won = None
        elif isinstance(item, Judged):
            d = item.decision
            if isinstance(d, Award):
                self._award(d, now_ns, item.seat_of)
            elif isinstance(d, WrongSlapCall) and item.seat is not None:  # None: a seatless station
                # The penalty arrives with the rules' WrongSlap event just after; flash now.
                self.flashes[item.seat] = WrongFlash(item.seat, 0, False, now_ns, now_ns + FLASH_NS)
        elif isinstance(item, ev.Event):
            self._event(item, now_ns)

    def _award(self, d: Award, now_ns: int, seat_of: Mapping[int, int]) -> None:
        """The photo finish, by seat (the arbiter ranks stations: a player's button, a bot's hand)."""
        others: dict[int, int] = {}
        for station, t in (*d.contenders, *d.runners_up):
            if station != d.station and station not in others:
                others[station] = t
        ranked = sorted(others.items(), key=lambda st: (st[1], st[0]))
        # A tie contender may be stamped a hair before the winner: the offset is the distance.
        runners = tuple((seat_of.get(s, s), abs(t - d.t_ns)) for s, t in ranked)
        self.photo = PhotoFinish(seat_of.get(d.station, d.station), d.card, d.margin_ns, runners,
                                 d.by_tie_rule, self.tie_window_ns, now_ns)

    def _event(self, e: ev.Event, now_ns: int) -> None:
        name = type(e).__name__
        important = name in IMPORTANT
        tone = "plain"
        if isinstance(e, ev.PileWon):
            tone = "good" if e.reason.startswith("slap") or e.reason == "challenge" else "plain"
            self.won = WonPile(e.seat, e.reason, tuple(self._recent[-5:]), now_ns) if self._recent else None
            self._recent = []
            self.challenge = None
            self.collector = None
            self.battle = None
            self.round_winner = None
            self.ace = None
        elif isinstance(e, (ev.WrongSlap, ev.LockedOut)):
            tone = "warn"
            if isinstance(e, ev.WrongSlap):
                self.flashes[e.seat] = WrongFlash(e.seat, e.paid, e.locked_out, now_ns, now_ns + FLASH_NS)
        elif isinstance(e, ev.Owes):
            self.challenge = Challenge(e.seat, e.n)
        elif isinstance(e, ev.CollectPending):
            self.challenge = None
            self.collector = e.seat
            self.round_winner = e.seat  # bataille/paix: the round's winner; challenge: the collector
        elif isinstance(e, ev.Battle):
            tone = "warn"
            self.battle = e
        elif isinstance(e, ev.Burned):
            self.burn = BurnNote(e.seat, e.cards, e.why, now_ns)
            self._recent = []
            self.ace = None
        elif isinstance(e, ev.PickedUp):
            self._recent = []
            self.ace = None
        elif isinstance(e, ev.AceTarget):
            tone = "warn"
            self.ace = (e.seat, e.target)
        elif isinstance(e, ev.Played):
            if self.ace is not None and e.seat == self.ace[1]:
                self.ace = None  # answered with an Ace or a 2
        elif isinstance(e, ev.Laid):
            self._end_round_news(now_ns)
        elif isinstance(e, ev.GameOver):
            tone = "good"
            self.over = e
            self.challenge = None
        self.lines.append(BannerItem(e, now_ns, now_ns + self.banner_ns, important, tone))
        if len(self.lines) > 32:
            # Keep the newest minor lines and every important one still live.
            keep = [b for b in self.lines if b.important][-KEEP_LINES:]
            minor = [b for b in self.lines if not b.important][-KEEP_LINES:]
            self.lines = sorted(keep + minor, key=lambda b: b.at_ns)

    def _end_round_news(self, now_ns: int) -> None:
        """A battle round's first card: the last round's winner leaves the banner (it would
        stand beside cards it did not win)."""
        for i, b in enumerate(self.lines):
            e = b.event
            if b.until_ns > now_ns and (isinstance(e, ev.PileWon) and e.reason == "round"
                                        or isinstance(e, ev.CollectPending) and self.won is not None
                                        and self.won.reason == "round"):
                self.lines[i] = replace(b, until_ns=now_ns)

    # --- what is live ----------------------------------------------------------------------
    def banner(self, now_ns: int, count: int = 1) -> list[BannerItem]:
        """The newest ``count`` banner items, newest first: important ones still live win over a
        card laid since (a won pile stays readable for its time), else simply the newest."""
        live = [b for b in self.lines if b.important and b.until_ns > now_ns]
        live.sort(key=lambda b: (PRIORITY[type(b.event).__name__], b.at_ns))
        chosen = sorted(live[-count:], key=lambda b: b.at_ns)
        if len(chosen) < count:
            rest = [b for b in self.lines if not (b.important and b.until_ns > now_ns)]
            chosen = sorted(chosen + rest[len(rest) - (count - len(chosen)):], key=lambda b: b.at_ns)
        return list(reversed(chosen))

    def flash(self, seat: int, now_ns: int) -> WrongFlash | None:
        f = self.flashes.get(seat)
        return f if f is not None and f.until_ns > now_ns else None

    def live_photo(self, now_ns: int) -> PhotoFinish | None:
        p = self.photo
        return p if p is not None and now_ns - p.at_ns < PHOTO_NS else None

    def live_wrong(self, now_ns: int) -> WrongFlash | None:
        """The newest wrong slap still flashing."""
        live = [f for f in self.flashes.values() if f.until_ns > now_ns]
        return max(live, key=lambda f: f.at_ns) if live else None

    def live_won(self, now_ns: int) -> WonPile | None:
        w = self.won
        return w if w is not None and now_ns - w.at_ns < WON_PILE_NS else None

    def won_pattern(self, now_ns: int) -> str | None:
        """The slap pattern that won the pile just taken ("sandwich"), while it is shown; None
        when it was not won by a slap."""
        w = self.live_won(now_ns)
        if w is None or not w.reason.startswith("slap:"):
            return None
        return w.reason.split(":", 1)[1]

    def live_burn(self, now_ns: int) -> BurnNote | None:
        b = self.burn
        return b if b is not None and now_ns - b.at_ns < BANNER_NS else None

    def banner_text(self, now_ns: int, lang: str | None = None) -> str:
        """The banner's sentence now, in ``lang`` (default: the feed's), with the feed's names."""
        items = self.banner(now_ns, 1)
        return i18n.describe(items[0].event, lang or self.lang, self.names) if items else ""
