"""Slap arbitration as DESIGN.md says it, in exact integer nanoseconds (no clock, no sleep)."""

from __future__ import annotations

import json
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.rules.rng import Streams
from device.table.arbiter import (
    Arbiter,
    ArbiterError,
    ArbiterSettings,
    Award,
    Ignored,
    WrongSlapCall,
    decision_from_dict,
)

MS = 1_000_000
US = 1_000


def arbiter(stations: int = 4, seed: int = 7, **kw: int) -> Arbiter:
    return Arbiter(stations, Streams(seed)["ties"], ArbiterSettings(**kw))


def run(a: Arbiter, presses: list[tuple[int, int, int]], until: int | None = None) -> list[object]:
    """Feed (station, stamp, arrival) in arrival order, advancing the table as time goes by."""
    out: list[object] = []
    for station, t, arrival in sorted(presses, key=lambda p: p[2]):
        out += a.advance(arrival - 1)  # inputs at a time come before decisions at that time
        a.press(station, t, arrival)
    out += a.advance(until if until is not None else 10**15)
    return out


def awards(ds: list[object]) -> list[Award]:
    return [d for d in ds if isinstance(d, Award)]


# --- order by stamp, never arrival ------------------------------------------------------------

def test_a_press_delivered_later_but_stamped_earlier_wins() -> None:
    a = arbiter()
    a.shown(5, 0, slappable=True)
    # station 1's press went through a slower path (say the bridge): stamped first, arrives last
    ds = run(a, [(0, 2 * MS, 2 * MS + 100 * US), (1, 1 * MS, 4 * MS)])
    assert ds[0] == Award(card=5, station=1, t_ns=1 * MS, contenders=((1, 1 * MS),),
                          runners_up=((0, 2 * MS),), margin_ns=1 * MS, by_tie_rule=False)
    assert ds[1:] == [Ignored(0, 2 * MS, "lost")]


def test_the_settle_time_is_what_makes_the_earlier_stamp_win() -> None:
    a = arbiter(settle_ns=0, tie_ns=0)
    a.shown(5, 0, slappable=True)
    ds = run(a, [(0, 2 * MS, 2 * MS + 100 * US), (1, 1 * MS, 4 * MS)])
    # without waiting, the first to arrive wins although it was slower
    assert awards(ds)[0].station == 0
    assert Ignored(1, 1 * MS, "lost") in ds


def test_each_press_is_judged_at_its_stamp_plus_settle() -> None:
    a = arbiter()
    a.shown(5, 0, slappable=True)
    a.press(2, 3 * MS, 3 * MS + 50 * US)
    assert a.next_deadline() == 11 * MS
    assert a.advance(11 * MS - 1) == []
    assert awards(a.advance(11 * MS))[0].station == 2
    assert a.next_deadline() is None


def test_a_press_arriving_after_its_settle_time_is_judged_on_arrival() -> None:
    a = arbiter()
    a.shown(5, 0, slappable=True)
    a.press(2, 3 * MS, 30 * MS)
    assert a.next_deadline() == 30 * MS


# --- ties -------------------------------------------------------------------------------------

def test_equal_stamps_the_tie_rule_decides_and_the_winner_moves_to_the_back() -> None:
    a = arbiter(stations=3, seed=1)
    first = a.priority
    a.shown(1, 0, slappable=True)
    ds = run(a, [(s, 5 * MS, 5 * MS + 10 * US) for s in range(3)])
    award = awards(ds)[0]
    assert award.by_tie_rule and award.station == first[0]
    assert award.contenders == tuple((s, 5 * MS) for s in first)
    assert award.margin_ns == 0
    assert a.priority == first[1:] + first[:1]
    assert sorted(d.station for d in ds if isinstance(d, Ignored)) == sorted(first[1:])
    assert all(d.reason == "lost" for d in ds if isinstance(d, Ignored))


def test_stamps_inside_the_tie_window_the_rule_decides_and_priority_rotates() -> None:
    a = arbiter(stations=2, seed=3)
    winners = []
    t = 0
    for k in range(4):  # the same two players slap 0.5 ms apart, four doubles in a row
        a.shown(k, t, slappable=True)
        late, early = a.priority  # let the lower-priority station be the earlier one
        ds = run(a, [(early, t + 1 * MS, t + 1 * MS), (late, t + 1 * MS + 500 * US,
                                                       t + 1 * MS + 500 * US)])
        award = awards(ds)[0]
        assert award.by_tie_rule and award.margin_ns == 500 * US
        winners.append(award.station)
        a.pile_won(t + 10 * MS)
        t += 1_000 * MS
    assert winners[0] != winners[1] and winners[0] == winners[2] and winners[1] == winners[3]


def test_a_tie_chain_of_0_08_16_ms_has_two_contenders_not_three() -> None:
    a = arbiter(stations=3, seed=11)
    a.shown(9, 0, slappable=True)
    ds = run(a, [(0, 10 * MS, 10 * MS), (1, 10 * MS + 800 * US, 10 * MS + 800 * US),
                 (2, 10 * MS + 1_600 * US, 10 * MS + 1_600 * US)])
    award = awards(ds)[0]
    assert {c[0] for c in award.contenders} == {0, 1}
    assert award.runners_up == ((2, 10 * MS + 1_600 * US),)
    assert award.by_tie_rule


def test_a_press_exactly_one_tie_window_later_is_not_a_contender() -> None:
    a = arbiter(stations=2)
    a.shown(9, 0, slappable=True)
    ds = run(a, [(0, 10 * MS, 10 * MS), (1, 11 * MS, 11 * MS)])
    assert awards(ds)[0].station == 0 and not awards(ds)[0].by_tie_rule


def test_the_first_priority_is_a_permutation_drawn_from_the_ties_stream() -> None:
    orders = {Arbiter(8, Streams(seed)["ties"]).priority for seed in range(20)}
    assert all(sorted(o) == list(range(8)) for o in orders)
    assert len(orders) > 10
    assert Arbiter(8, Streams(4)["ties"]).priority == Arbiter(8, Streams(4)["ties"]).priority


class OnlyRandom:
    """A ties stream that has nothing but random()."""

    def __init__(self, seed: int) -> None:
        self._rng = Random(seed)

    def random(self) -> float:
        return self._rng.random()


def test_the_ties_stream_is_used_only_through_random() -> None:
    assert Arbiter(8, OnlyRandom(5)).priority == Arbiter(8, Random(5)).priority  # type: ignore[arg-type]


def test_8_stations_slapping_within_100_us_one_winner_every_contender_recorded() -> None:
    a = arbiter(stations=8, seed=2024)
    a.shown(3, 0, slappable=True)
    stamps = {s: 7 * MS + s * 13 * US for s in range(8)}  # all within 91 us
    ds = run(a, [(s, t, t + 200 * US) for s, t in stamps.items()])
    (award,) = awards(ds)
    assert award.by_tie_rule
    assert sorted(award.contenders) == sorted(stamps.items())
    assert award.contenders[0] == (award.station, stamps[award.station])
    assert len(ds) == 8  # the award, then exactly one judgement per other press
    assert sorted(d.station for d in ds if isinstance(d, Ignored) and d.reason == "lost") == \
        sorted(set(range(8)) - {award.station})


# --- the window ---------------------------------------------------------------------------

def test_a_press_stamped_before_the_double_was_shown_is_a_wrong_slap_even_if_it_arrives_after() -> None:
    a = arbiter()
    a.shown(1, 0, slappable=False)
    a.shown(2, 500 * MS, slappable=True)
    ds = run(a, [(0, 499 * MS, 503 * MS)])
    assert ds == [WrongSlapCall(0, 499 * MS, card=1)]


def test_a_press_stamped_when_the_double_was_shown_is_a_slap() -> None:
    a = arbiter()
    a.shown(1, 0, slappable=False)
    a.shown(2, 500 * MS, slappable=True)
    assert awards(run(a, [(0, 500 * MS, 500 * MS)]))[0].card == 2


def test_a_slap_stamped_before_the_next_card_was_shown_but_delivered_after_still_wins() -> None:
    a = arbiter()
    a.shown(7, 0, slappable=True)
    a.press(1, 300 * MS - 1, 300 * MS + 2 * MS)  # stamped 1 ns before card 8 appeared
    a.shown(8, 300 * MS, slappable=False)
    ds = a.advance(400 * MS)
    assert ds == [Award(card=7, station=1, t_ns=300 * MS - 1, contenders=((1, 300 * MS - 1),),
                        runners_up=(), margin_ns=None, by_tie_rule=False)]


def test_a_press_stamped_when_nothing_is_slappable_is_a_wrong_slap_naming_the_top_card() -> None:
    a = arbiter()
    ds = run(a, [(0, 1 * MS, 1 * MS)])
    assert ds == [WrongSlapCall(0, 1 * MS, card=None)]
    a.shown(4, 10 * MS, slappable=False)
    assert run(a, [(1, 20 * MS, 20 * MS)]) == [WrongSlapCall(1, 20 * MS, card=4)]


def test_a_lost_race_inside_grace_is_not_punished() -> None:
    a = arbiter(stations=3)
    a.shown(12, 0, slappable=True)
    ds = run(a, [(0, 100 * MS, 100 * MS)], until=108 * MS)
    assert awards(ds)[0].station == 0
    a.pile_won(108 * MS)  # the table applies the award: the pile is empty now
    # the loser slaps after the pile was taken, and again after the next card is laid
    ds = run(a, [(1, 150 * MS, 150 * MS)])
    a.shown(13, 400 * MS, slappable=False)
    ds += run(a, [(2, 450 * MS, 450 * MS)])
    assert ds == [Ignored(1, 150 * MS, "grace"), Ignored(2, 450 * MS, "grace")]


def test_grace_lasts_until_the_next_card_is_shown_even_beyond_the_grace_time() -> None:
    a = arbiter()
    a.shown(12, 0, slappable=False)
    a.pile_won(100 * MS)  # a challenge collected
    assert run(a, [(0, 2_000 * MS, 2_000 * MS)]) == [Ignored(0, 2_000 * MS, "grace")]


def test_a_press_after_the_next_card_covered_the_double_is_punished() -> None:
    a = arbiter()
    a.shown(20, 0, slappable=True)  # nobody slaps the double
    a.shown(21, 1_000 * MS, slappable=False)
    assert run(a, [(3, 1_100 * MS, 1_100 * MS)]) == [WrongSlapCall(3, 1_100 * MS, card=21)]


def test_a_press_after_grace_and_after_the_next_card_is_punished() -> None:
    a = arbiter()
    a.shown(20, 0, slappable=True)
    run(a, [(0, 10 * MS, 10 * MS)], until=18 * MS)
    a.pile_won(18 * MS)
    a.shown(21, 200 * MS, slappable=False)
    assert run(a, [(1, 600 * MS, 600 * MS)]) == [WrongSlapCall(1, 600 * MS, card=21)]


def test_presses_in_an_awarded_window_after_the_award_are_lost_not_punished() -> None:
    a = arbiter()
    a.shown(20, 0, slappable=True)  # a won challenge waits its collect delay: window still open
    ds = run(a, [(0, 10 * MS, 10 * MS), (1, 50 * MS, 50 * MS)])
    assert ds[1:] == [Ignored(1, 50 * MS, "lost")]


def test_one_press_per_station_per_window() -> None:
    a = arbiter()
    a.shown(6, 0, slappable=True)
    ds = run(a, [(0, 10 * MS, 10 * MS), (0, 10 * MS + 300 * US, 10 * MS + 300 * US),
                 (1, 12 * MS, 12 * MS), (1, 13 * MS, 13 * MS)])
    assert ds == [Award(6, 0, 10 * MS, ((0, 10 * MS),), ((1, 12 * MS),), 2 * MS, False),
                  Ignored(0, 10 * MS + 300 * US, "duplicate"), Ignored(1, 12 * MS, "lost"),
                  Ignored(1, 13 * MS, "duplicate")]


def test_a_second_press_of_a_station_is_a_duplicate_even_inside_the_tie_window() -> None:
    a = arbiter(stations=2, seed=5)
    a.shown(6, 0, slappable=True)
    top, other = a.priority
    ds = run(a, [(top, 10 * MS + 500 * US, 10 * MS + 500 * US),
                 (other, 10 * MS, 10 * MS), (other, 10 * MS + 100 * US, 10 * MS + 100 * US)])
    assert ds == [Award(6, top, 10 * MS + 500 * US, ((top, 10 * MS + 500 * US), (other, 10 * MS)),
                        (), 500 * US, True),
                  Ignored(other, 10 * MS, "lost"), Ignored(other, 10 * MS + 100 * US, "duplicate")]


def test_one_wrong_slap_per_station_per_card() -> None:
    a = arbiter()
    a.shown(6, 0, slappable=False)
    ds = run(a, [(0, 10 * MS, 10 * MS), (0, 60 * MS, 60 * MS)])
    assert ds == [WrongSlapCall(0, 10 * MS, 6), Ignored(0, 60 * MS, "duplicate")]


def test_a_locked_out_station_is_ignored_and_recorded_as_such() -> None:
    a = arbiter()
    a.set_locked(2, True)
    a.shown(6, 0, slappable=True)
    ds = run(a, [(2, 1 * MS, 1 * MS), (0, 3 * MS, 3 * MS)])
    assert ds[0] == Ignored(2, 1 * MS, "locked")
    assert awards(ds)[0].station == 0 and awards(ds)[0].margin_ns is None
    a.set_locked(2, False)
    assert not a.locked(2)


# --- records and bad input ----------------------------------------------------------------

def test_decisions_serialise_and_read_back() -> None:
    ds = [Award(3, 1, 10, ((1, 10), (2, 10)), ((0, 50),), 0, True), WrongSlapCall(0, 5, None),
          WrongSlapCall(0, 5, 3), Ignored(2, 7, "grace")]
    for d in ds:
        assert decision_from_dict(json.loads(json.dumps(d.to_dict()))) == d
    with pytest.raises(ArbiterError, match="missing key 'card'"):
        decision_from_dict({"kind": "wrong_slap", "station": 0, "t_ns": 1})
    with pytest.raises(ArbiterError, match="reason='bored'"):
        decision_from_dict({"kind": "ignored", "station": 0, "t_ns": 1, "reason": "bored"})


def test_settings_defaults_round_trip_and_refuse_nonsense() -> None:
    s = ArbiterSettings()
    assert s.to_dict() == {"settle_ns": 8_000_000, "tie_ns": 1_000_000, "grace_ns": 500_000_000,
                           "release_ns": 20_000_000, "stuck_ns": 3_000_000_000,
                           "collect_delay_ns": 800_000_000}
    assert ArbiterSettings.from_dict(s.to_dict()) == s
    with pytest.raises(ArbiterError, match="settle_ns=-1: expected an integer >= 0"):
        ArbiterSettings(settle_ns=-1)
    with pytest.raises(ArbiterError, match="tie_ns=9000000 is larger than settle_ns"):
        ArbiterSettings(tie_ns=9 * MS)
    with pytest.raises(ArbiterError, match="unknown key 'settle_ms'"):
        ArbiterSettings.from_dict({"settle_ms": 8})


def test_bad_calls_say_what_was_expected() -> None:
    a = arbiter(stations=4)
    with pytest.raises(ArbiterError, match="station=4, expected 0..3"):
        a.press(4, 0, 0)
    with pytest.raises(ArbiterError, match="expected integer nanoseconds"):
        a.press(0, 1.5, 2)  # type: ignore[arg-type]
    a.shown(1, 100, slappable=False)
    with pytest.raises(ArbiterError, match="never go back"):
        a.pile_won(99)
    with pytest.raises(ArbiterError, match="stations=17, expected 1..16"):
        Arbiter(17, Random(0))


# --- invariants on random presses ---------------------------------------------------------

SETTLE, TIE = 8 * MS, 1 * MS

timeline_st = st.lists(st.tuples(st.integers(1, 40).map(lambda n: n * MS),
                                 st.sampled_from(["slappable", "card", "won"])),
                       min_size=1, max_size=8)
press_st = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 400).map(lambda n: n * 250 * US),
                              st.integers(0, SETTLE - TIE), st.integers(0, SETTLE - TIE)),
                    min_size=1, max_size=24)


def play(stations: int, timeline: list[tuple[int, str]], presses: list[tuple[int, int, int]],
         ties_seed: int) -> list[object]:
    """Timeline inputs arrive when they happen, presses when they arrive; all in arrival order."""
    a = Arbiter(stations, Random(ties_seed), ArbiterSettings(settle_ns=SETTLE, tie_ns=TIE,
                                                             grace_ns=30 * MS))
    inputs: list[tuple[int, int, tuple]] = []
    t = 0
    for k, (gap, kind) in enumerate(timeline):
        t += gap
        inputs.append((t, 0, ("won",) if kind == "won" else ("shown", k, kind == "slappable")))
    for station, stamp, arrival in presses:
        inputs.append((arrival, 1, ("press", station, stamp)))
    out: list[object] = []
    for at, _, what in sorted(inputs, key=lambda i: (i[0], i[1])):
        out += a.advance(at - 1)
        if what[0] == "won":
            a.pile_won(at)
        elif what[0] == "shown":
            a.shown(what[1], at, what[2])
        else:
            a.press(what[1], what[2], at)
    return out + a.advance(10**15)


def judgements(ds: list[object]) -> list[tuple]:
    """Each press's own judgement, and each award's verdict."""
    out = []
    for d in ds:
        if isinstance(d, Award):
            out.append(("award", d.card, d.station, d.t_ns, d.contenders, d.by_tie_rule))
        else:
            out.append(tuple(d.to_dict().values()))  # type: ignore[attr-defined]
    return out


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 8), timeline_st, press_st, st.integers(0, 2**32))
def test_decisions_do_not_depend_on_arrival_order(stations: int, timeline: list[tuple[int, str]],
                                                  raw: list[tuple[int, int, int, int]],
                                                  seed: int) -> None:
    raw = [(s % stations, t, la, lb) for s, t, la, lb in raw]
    one = play(stations, timeline, [(s, t, t + la) for s, t, la, _ in raw], seed)
    two = play(stations, timeline, [(s, t, t + lb) for s, t, _, lb in raw], seed)
    assert judgements(one) == judgements(two)
    # every press is judged exactly once (the winner's judgement is its award)
    assert len(one) == len(raw)
    for a in awards(one):
        assert a.contenders[0] == (a.station, a.t_ns)
        assert all(abs(t - a.contenders[0][1]) < TIE or t == a.contenders[0][1]
                   for _, t in a.contenders)
