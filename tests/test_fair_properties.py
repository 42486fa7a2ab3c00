"""The arbiter's promises on many games (issue "Fair judging on real edges", its numbers): arrival
does not matter, one award per won pile, and ties are fair. Virtual time; the benchmark mode
`slapbox bench press --mode awards` plays the same check on 100,000 games."""

from __future__ import annotations

from random import Random

from device.bench.awards import contest_game, one_award_per_pile
from device.table.arbiter import Arbiter, ArbiterSettings, Award

MS = 1_000_000


def _decisions(records):
    """Every judgement, without what an award reports of the presses known when it was decided
    (its runners-up and margin: the photo finish's extras, not a decision)."""
    return [{k: v for k, v in r.items() if k not in ("runners_up", "margin_ns")} for r in records]


def test_arrival_does_not_matter_delivered_in_any_order_within_settle_minus_tie():
    settings = ArbiterSettings()
    window = settings.settle_ns - settings.tie_ns
    tried = 0
    for seed in range(1000):
        rng = Random(seed)
        presses = contest_game.random_presses(rng)
        reference = _decisions(contest_game.judgements(seed, presses, [0] * len(presses)))
        for _ in range(2):
            delays = [rng.randrange(window) for _ in presses]
            assert _decisions(contest_game.judgements(seed, presses, delays)) == reference, seed
            tried += 1
    assert tried == 2000
    print(f"{tried} orderings of 1,000 random games gave identical judgements")


def test_exactly_one_award_per_won_pile_over_a_few_hundred_random_games():
    games, piles, awards = one_award_per_pile(400, seed=1)
    assert games == 400 and piles > 0
    assert awards == piles  # checked pile by pile inside; the totals say it was checked


def test_exact_ties_between_8_stations_are_shared_fairly_by_the_rotation():
    arb = Arbiter(8, Random(7), ArbiterSettings())
    rng = Random(3)
    wins = [0] * 8
    n = 100_000
    t = 0
    for card in range(1, n + 1):
        t += 10 * MS
        arb.shown(card, t, True)
        k = rng.randrange(2, 9)  # 2 to 8 stations press at the same instant
        for station in rng.sample(range(8), k):
            arb.press(station, t + 1 * MS, t + 1 * MS)
        (award,) = [d for d in arb.advance(t + 10 * MS) if isinstance(d, Award)]
        wins[award.station] += 1
        arb.pile_won(t + 11 * MS)
        arb.collected()
        t += 600 * MS
    shares = [w / n for w in wins]
    assert all(abs(s - 0.125) <= 0.01 for s in shares), shares
