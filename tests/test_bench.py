"""The press-path and lateness benchmarks run on tiny inputs and count consistently (never timed)."""

from __future__ import annotations

from device.bench import lateness as bench_lateness
from device.bench import press as bench_press
from device.bench import press_path, scenarios
from device.bench.scenarios import ARCADE, Bounce


def test_every_press_of_the_arbiter_benchmark_is_judged_once():
    script, made = scenarios.make_script(200, 8, ARCADE, seed=3)
    _, per_press, counts = press_path.run_arbiter(script, 8, timed=True)
    assert counts["presses"] == made >= 200  # the last card's slappers may go past 200
    assert counts["award"] + counts["wrong"] + counts["ignored"] == counts["presses"]
    assert len(per_press) == counts["presses"]
    assert counts["award"] > 0


def test_every_press_through_the_table_is_judged_once_and_replays_identically():
    spec = scenarios.table_spec(seed=2)
    edges = press_path.plan_table(200, Bounce(20, 20), seed=2, spec=spec)
    assert edges == sorted(edges)
    for journal in ("none", "memory", "file"):
        untimed = press_path.run_table(edges, spec, journal=journal, timed=False)
        timed = press_path.run_table(edges, spec, journal=journal, timed=True)
        for r in (untimed, timed):
            assert r.presses == 200
            assert r.judged == r.presses == r.award + r.wrong + r.ignored
            assert r.award > 0 and r.edges == len(edges)
        # the measured passes replay the same game: same judgements, whatever the timing
        assert (timed.award, timed.wrong, timed.ignored, timed.cards) == \
            (untimed.award, untimed.wrong, untimed.ignored, untimed.cards)
        assert len(timed.per_press) == timed.presses


def test_arcade_bounce_trains_are_odd_and_short():
    from random import Random
    rng = Random(1)
    for release in (False, True):
        for _ in range(200):
            train = ARCADE.train(rng, release)
            assert len(train) % 2 == 1 and len(train) <= (9 if release else 15)
            assert train == sorted(train) and train[-1] < 3_000_000
    assert len(Bounce(20, 20).train(rng, False)) == 21


def test_lateness_storm_judges_every_press_once():
    res = bench_lateness.run(0.3, stations=8, seed=1)
    assert res.emitted > 0
    assert res.emitted == res.received == res.judged == len(res.lateness_ns)
    assert res.award + res.wrong + res.ignored == res.judged
    assert len(res.delivery_ns) == res.received
    assert not res.game_over


def test_games_that_end_are_replaced_and_both_passes_judge_the_same():
    # two packs of one 5: every second card is a double and games end every few cards
    spec = scenarios.table_spec("55/55", seed=2)
    edges = press_path.plan_table(300, Bounce(3, 3), seed=2, spec=spec)
    untimed = press_path.run_table(edges, spec, timed=False)
    timed = press_path.run_table(edges, spec, timed=True)
    assert timed.games > 100
    # the untimed pass also starts the game after the last one (nothing is left to play in it)
    assert untimed.games - timed.games in (0, 1)
    for r in (untimed, timed):
        assert r.presses == r.judged == r.award + r.wrong + r.ignored == 300
    assert (untimed.award, untimed.wrong, untimed.ignored, untimed.cards) == \
        (timed.award, timed.wrong, timed.ignored, timed.cards)


def test_the_storm_scenario_makes_about_the_presses_asked_and_judges_each_once():
    spec, edges, what = bench_press.scenario("storm", 400, ARCADE, seed=1)
    assert "storm" in what and edges == sorted(edges)
    r = press_path.run_table(edges, spec, timed=False)
    assert 300 <= r.presses <= 500
    assert r.judged == r.presses == r.award + r.wrong + r.ignored
    assert r.award > 0 and r.wrong > 0 and r.games == 1
    assert 0 < r.debounce_cpu_ns < r.cpu_ns
