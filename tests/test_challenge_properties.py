"""Invariants of the challenge games over thousands of random games, slaps and wrong slaps included."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from device.rules.actions import Collect, FlipOutOfTurn, Join, Lay, Slap
from device.rules.base import Game, IllegalAction
from device.rules.presets import CHALLENGE, SLAP_PATTERNS, WRONG_SLAPS, new_game

CHARS = "23456789TJQKAX-"

options_st = st.fixed_dictionaries({}, optional={
    "borrow": st.booleans(),
    "out_when": st.sampled_from(["last-card", "must-lay"]),
})
packs_st = st.lists(st.text(alphabet=CHARS, max_size=14), min_size=2, max_size=8)


@settings(max_examples=300, deadline=None)
@given(preset=st.sampled_from(CHALLENGE), packs=packs_st, options=options_st,
       spares=st.booleans())
def test_the_fast_simulator_loop_plays_the_same_game_as_single_actions(preset, packs, options, spares):
    if spares and preset == "bataille-corse":
        options = {**options, "borrow_spares_last": True}
    options = {**options, "max_rounds": 3000}
    assume(any(packs))  # a deal with no card at all is refused
    spec = "/".join(packs)
    fast = new_game(preset, deal_spec=spec, options=options, slapping=False)
    slow = new_game(preset, deal_spec=spec, options=options, slapping=False)
    fast_outcome = fast.play_out()
    slow_outcome = Game.play_out(slow)  # the generic loop: one legal action at a time
    assert fast_outcome == slow_outcome
    assert fast.state_key() == slow.state_key()


def test_fast_loop_matches_single_actions_on_shuffled_decks():
    for seed in range(200):
        preset = CHALLENGE[seed % 3]
        players = 2 + seed % 7
        fast = new_game(preset, players=players, seed=seed, slapping=False)
        slow = new_game(preset, players=players, seed=seed, slapping=False)
        assert fast.play_out() == Game.play_out(slow)
        assert fast.state_key() == slow.state_key()


def random_table_game(preset: str, seed: int, *, check_every_action: bool = True) -> tuple:
    """A game with random slaps (valid and wrong, some in flight), wrong flips, late joins and
    lays, every slap pattern, house rule and penalty switched on at random."""
    chooser = random.Random(seed)
    players = 2 + seed % 7
    options: dict = {"max_rounds": 800}
    if preset != "strip-jack-naked":
        patterns = list(SLAP_PATTERNS[1:])
        options["slaps"] = chooser.sample(patterns, chooser.randrange(len(patterns) + 1))
        options["wrong_slap"] = chooser.choice(WRONG_SLAPS)
        options["wrong_flip"] = chooser.choice(["none", "pot-1"])
        for flag in ("run_wraps", "marriage_colour", "tens_stop"):
            options[flag] = chooser.random() < 0.5
    game = new_game(preset, players=players, seed=seed, options=options)
    dealt = Counter(game.all_cards())
    total = sum(dealt.values())
    steps = 0
    while game.outcome() is None:
        steps += 1
        assert steps < 20_000, "a game that neither ends nor reaches its round limit"
        roll = chooser.random()
        legal = game.legal_actions()
        slaps = [a for a in legal if isinstance(a, Slap)]
        joins = [a for a in legal if isinstance(a, Join)]
        flips = [a for a in legal if isinstance(a, FlipOutOfTurn)]
        if flips and roll > 0.97:
            action = chooser.choice(flips)
        elif slaps and roll < 0.12:
            seat = chooser.choice(slaps).seat
            # a slap judged on the card on top now, or on one laid a moment ago (in flight)
            at = game.laid - chooser.randrange(0, 3)
            action = Slap(seat, at_card=max(at, game.pile_base + (1 if game.pile else 0)))
            if game.slappable() and chooser.random() < 0.5:
                action = Slap(seat)
        elif joins and roll < 0.125:
            action = joins[0]
        else:
            action = next(a for a in legal if isinstance(a, (Lay, Collect)))
        try:
            game.apply(action)
        except IllegalAction:
            assert isinstance(action, Slap) and action.at_card is not None
            continue
        # Every action keeps the count; the exact multiset is compared often and at the end.
        held = sum(map(len, game.packs)) + len(game.under) + len(game.pile) + len(game.pot)
        assert held == total, f"cards created or lost after {action}"
        if check_every_action and steps % 25 == 0:
            assert Counter(game.all_cards()) == dealt, f"cards changed after {action}"
    assert Counter(game.all_cards()) == dealt
    return game.outcome(), game.state_key()


def test_thousands_of_random_slap_games_never_create_or_lose_a_card_and_always_end():
    results = Counter()
    for preset in CHALLENGE:
        for seed in range(1000):
            outcome, _ = random_table_game(preset, seed)
            results[outcome.termination] += 1
    assert sum(results.values()) == 3000
    assert results["win"] > 2000  # most random games end with a winner, not the limit


def test_the_same_seed_replays_to_the_same_final_state():
    for preset in CHALLENGE:
        for seed in (3, 17, 99):
            assert random_table_game(preset, seed) == random_table_game(preset, seed,
                                                                       check_every_action=False)


@settings(max_examples=150, deadline=None)
@given(preset=st.sampled_from(CHALLENGE), seed=st.integers(0, 2**32))
def test_random_slap_games_keep_every_card_hypothesis(preset, seed):
    outcome, _ = random_table_game(preset, seed)
    assert outcome.termination in ("win", "draw", "limit")


def test_brents_loop_finder_stops_at_the_first_repeat_like_the_set_of_every_position():
    # Small random deals loop often; the fast loop (Brent's algorithm, then a replay to the first
    # repeat) must stop on exactly the same card, trick and turn as remembering every position.
    chooser = random.Random(2024)
    loops = 0
    for i in range(4000):
        alphabet = ("--J", "---J", "-----JQKA")[i % 3]
        packs = ["".join(chooser.choice(alphabet) for _ in range(chooser.randrange(3, 11)))
                 for _ in range(chooser.choice((2, 2, 3)))]
        spec = "/".join(packs)
        fast = new_game("strip-jack-naked", deal_spec=spec, slapping=False)
        slow = new_game("strip-jack-naked", deal_spec=spec, slapping=False)
        assert fast.play_out() == Game.play_out(slow), spec
        assert fast.state_key() == slow.state_key(), spec
        loops += fast.outcome().termination == "loop"
    assert loops > 40
