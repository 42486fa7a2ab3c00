"""Bots' hands follow the active slap patterns: what each difficulty knows, sees, misses and mistakes."""

from __future__ import annotations

from dataclasses import replace

from device.bots.hands import EASE, PROFILES, SlapBot, near
from device.clock import VirtualClock
from device.inputs.press import BOT_STATION
from device.journal.journal import MemoryJournal
from device.rules.cards import JACK, KING, QUEEN, card, parse_deal
from device.rules.events import PileWon
from device.rules.rng import Streams, randbelow
from device.rules.slaps import SLAP_ORDER, slap_pattern
from device.table.runner import Runner
from device.table.session import GameSpec, bot_hands, make_table
from device.table.table import Seat

MS = 1_000_000
LEVELS = ("easy", "normal", "hard")


def bot(level: str, patterns, seed: int = 1, seat: int = 0, **changes) -> SlapBot:
    profile = replace(PROFILES[level], **changes) if changes else PROFILES[level]
    return SlapBot(seat, profile, Streams(seed)[f"slapbot:{seat}"], patterns)


def pile_of(*ranks: int) -> list[int]:
    """Cards of ``ranks`` (oldest first), suits taking turns so that no flush shows by accident."""
    return [card(r, i % 4) for i, r in enumerate(ranks)]


SANDWICH = pile_of(5, 9, 5)


class Spy(SlapBot):
    """A bot hand that notes what the runner showed it and what it did."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.seen: list[tuple[str | None, tuple[int, ...], int | None]] = []

    def react(self, shown_ns, pattern, pile=()):
        stamp = super().react(shown_ns, pattern, pile)
        self.seen.append((pattern, tuple(pile), stamp))
        return stamp


def sandwich_table(slaps, *, seed: int = 1, journal=None):
    """Two bot seats at egyptian-ratscrew; the first three cards laid are 5, 9, 5 (a sandwich)."""
    seats = [Seat(s, f"B{s}", None, True, "hard") for s in range(2)]
    spec = GameSpec("egyptian-ratscrew", seed, seats, {"slaps": list(slaps)}, parse_deal("5537/9246"))
    return make_table(spec, start_ns=0, journal=journal or MemoryJournal())


# --- what a bot knows -----------------------------------------------------------------------
def test_a_bot_never_knows_a_pattern_that_is_not_switched_on_and_always_knows_doubles():
    for seed in range(300):
        rng = Streams(seed)["draw"]
        active = ("doubles",) + tuple(p for p in SLAP_ORDER[1:] if rng.random() < 0.5)
        for level in LEVELS:
            known = bot(level, active, seed).known
            assert set(known) <= set(active), (level, active, known)
            assert known[0] == "doubles" and list(known) == [p for p in SLAP_ORDER if p in known]
    assert bot("hard", ("doubles",)).known == ("doubles",)
    assert bot("easy", ()).known == ()  # a game without slapping: nothing to know


def test_an_easy_bot_knows_fewer_patterns_than_a_normal_one_and_a_hard_one_knows_them_all():
    counts = {level: [len(bot(level, SLAP_ORDER, seed).known) for seed in range(400)]
              for level in LEVELS}
    assert set(counts["hard"]) == {len(SLAP_ORDER)}
    assert set(counts["easy"]) == {2, 3}  # doubles and one or two more
    assert set(counts["normal"]) <= set(range(6, 10)) and len(set(counts["normal"])) > 1
    mean = {level: sum(c) / len(c) for level, c in counts.items()}
    assert mean["easy"] < mean["normal"] - 3 < mean["hard"] - 4, mean
    # and seed by seed, never more than a harder level (they draw on the same stream)
    assert all(e <= n <= h for e, n, h in zip(counts["easy"], counts["normal"], counts["hard"], strict=True))


def test_an_easy_bot_knows_the_easy_patterns_more_often_than_the_hard_ones():
    knows = {p: 0 for p in EASE}
    for seed in range(600):
        for p in bot("easy", SLAP_ORDER, seed).known:
            knows[p] += 1
    assert knows["doubles"] == 600
    assert knows["sandwich"] > 2 * knows["run"] and knows["top-bottom"] > 2 * knows["flush"], knows


def test_with_few_patterns_on_every_level_knows_them_all_or_nearly():
    assert {bot(level, ("doubles", "sandwich"), seed).known
            for level in LEVELS for seed in range(50)} == {("doubles", "sandwich")}
    three = ("doubles", "sandwich", "marriage", "tens")
    assert all(bot("normal", three, seed).known == three for seed in range(50))
    assert {len(bot("easy", three, seed).known) for seed in range(100)} == {2, 3}


# --- what a bot sees and slaps --------------------------------------------------------------
def test_a_bot_that_knows_sandwiches_slaps_a_sandwich_and_one_that_does_not_see_none():
    knows = bot("hard", ("doubles", "sandwich"))
    assert "sandwich" in knows.known and knows.sees("sandwich", SANDWICH) == "sandwich"
    hits = sum(bot("hard", ("doubles", "sandwich"), seed).react(0, "sandwich", SANDWICH) is not None
               for seed in range(400))
    assert hits >= 0.9 * 400  # a hard bot misses 3 %
    # a bot at a table where the sandwich is on but which has not learnt it (easy: doubles + 1)
    blind = next((b for seed in range(100)
                  if "sandwich" not in (b := bot("easy", SLAP_ORDER, seed)).known), None)
    assert blind is not None and blind.sees("sandwich", SANDWICH) is None


def test_with_sandwich_switched_off_no_bot_slaps_a_sandwich_pile():
    # the game names nothing on 5-9-5 with doubles only; bots that never slap on impulse
    # (false alarms and lures off) never slap it, whatever their level or seed
    assert slap_pattern(SANDWICH, ("doubles",)) is None
    for level in LEVELS:
        for seed in range(200):
            b = bot(level, ("doubles",), seed, false_alarm=0.0, mistake=0.0)
            assert "sandwich" not in b.known and b.react(0, None, SANDWICH) is None
    # the same bots with sandwich on do slap it (miss 0: every time)
    assert all(bot(level, ("doubles", "sandwich"), seed, miss=0.0).react(0, "sandwich", SANDWICH)
               for level in LEVELS for seed in range(50))


def test_a_bot_sees_a_pattern_it_knows_behind_the_first_one_the_game_names():
    jqk = pile_of(JACK, QUEEN, KING)  # a marriage (named first) and a run
    assert slap_pattern(jqk, ("doubles", "marriage", "run")) == "marriage"
    runs_only = bot("hard", ("doubles", "run"))
    assert runs_only.sees("marriage", jqk) == "run"
    assert bot("hard", ("doubles", "divorce")).sees("marriage", jqk) is None


def test_near_patterns_are_lures_only_for_the_patterns_a_bot_knows():
    assert near(pile_of(9, 6, 5), ("doubles",))  # a 5 on a 6
    assert not near(pile_of(9, 9, 5), ("doubles",)) and not near(pile_of(6, 9, 5), ("doubles",))
    assert near(pile_of(6, 9, 5), ("doubles", "sandwich"))  # 6-x-5
    assert near(pile_of(4, 5, 7), ("run",)) and near(pile_of(5, 7, 6), ("run",))
    assert not near(pile_of(4, 5, 7), ("doubles", "sandwich")) and not near(pile_of(2, 7, 12), ("run",))
    assert near(pile_of(4, 5), ("tens",)) and near(pile_of(JACK, KING), ("marriage",))
    assert not near(pile_of(9), ("doubles",))


def test_a_lure_is_slapped_more_often_than_a_pile_showing_nothing():
    lure, nothing = pile_of(9, 6, 5), pile_of(9, 12, 5)
    for level in LEVELS:
        b = bot(level, ("doubles",), 3)
        lured = sum(b.react(0, None, lure) is not None for _ in range(4000))
        plain = sum(b.react(0, None, nothing) is not None for _ in range(4000))
        p = PROFILES[level]
        assert abs(lured / 4000 - p.mistake) < max(0.02, p.mistake / 2), (level, lured)
        assert abs(plain / 4000 - p.false_alarm) < max(0.01, p.false_alarm / 2), (level, plain)
        assert lured > plain


def test_false_alarms_on_random_piles_differ_by_level():
    # random piles at a doubles-only table: the piles that show nothing, slapped by level
    rng = Streams(5)["piles"]
    piles = [[card(2 + randbelow(rng, 13), randbelow(rng, 4)) for _ in range(3)] for _ in range(6000)]
    blank = [p for p in piles if slap_pattern(p, ("doubles",)) is None]
    assert len(blank) > 5000
    rate = {}
    for level in LEVELS:
        b = bot(level, ("doubles",), 8)
        rate[level] = sum(b.react(0, None, p) is not None for p in blank) / len(blank)
    # about 6.5 %, 2.7 % and 0.9 % (false alarms plus the lures, a pile in 7 near a double)
    assert 0.045 < rate["easy"] < 0.09 and 0.015 < rate["normal"] < 0.04 and rate["hard"] < 0.02, rate
    assert rate["easy"] > 1.5 * rate["normal"] > 1.5 * rate["hard"], rate


# --- through the table ----------------------------------------------------------------------
def test_the_runner_shows_each_bot_the_pattern_and_the_pile_the_card_made():
    table = sandwich_table(("sandwich",))
    spies = {s: Spy(s, PROFILES["hard"], table.game.streams[f"slapbot:{s}"], table.game.patterns)
             for s in (0, 1)}
    out: list = []
    Runner(table, VirtualClock(0), hands=dict(spies), outputs=[lambda item, now: out.append(item)]
           ).run_virtual(limit_ns=20_000 * MS)
    first = spies[0].seen[:3]
    assert [(pattern, [c >> 2 for c in pile]) for pattern, pile, _ in first] == [
        (None, [5]), (None, [5, 9]), ("sandwich", [5, 9, 5])]
    won = [e for e in out if isinstance(e, PileWon)]
    assert won and won[0].reason == "slap:sandwich" and won[0].cards == 3


def test_with_only_doubles_on_the_bots_leave_the_sandwich_and_lay_on():
    table = sandwich_table(())
    quiet = replace(PROFILES["hard"], false_alarm=0.0, mistake=0.0)
    spies = {s: Spy(s, quiet, table.game.streams[f"slapbot:{s}"], table.game.patterns) for s in (0, 1)}
    out: list = []
    Runner(table, VirtualClock(0), hands=dict(spies), outputs=[lambda item, now: out.append(item)]
           ).run_virtual(limit_ns=20_000 * MS)
    pattern, pile, stamp = spies[0].seen[2]
    assert pattern is None and [c >> 2 for c in pile] == [5, 9, 5] and stamp is None
    assert all(stamp is None for spy in spies.values() for pattern, _, stamp in spy.seen if pattern is None)
    assert not any(isinstance(e, PileWon) and e.reason == "slap:sandwich" for e in out)


def _bot_game(seed: int) -> tuple[list[dict], list[tuple[str, ...]]]:
    seats = [Seat(s, f"B{s}", None, True, LEVELS[s % 3]) for s in range(4)]
    spec = GameSpec("egyptian-ratscrew", seed, seats, {"slaps": list(SLAP_ORDER), "max_rounds": 200})
    journal = MemoryJournal()
    table = make_table(spec, start_ns=0, journal=journal)
    hands = bot_hands(table)
    Runner(table, VirtualClock(0), hands=hands).run_virtual()
    presses = [r for r in journal.records if r.get("k") == "press"]
    return presses, [hands[s].known for s in sorted(hands)]


def test_the_same_seed_gives_the_same_bots_and_the_same_presses():
    presses, known = _bot_game(11)
    assert presses and _bot_game(11) == (presses, known)
    assert all(p["station"] >= BOT_STATION for p in presses)
    other_presses, other_known = _bot_game(12)
    assert (other_presses, other_known) != (presses, known)
