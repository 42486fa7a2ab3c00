"""Bataille norvégienne (RULES.md section 5): the worked example, each rule, and invariants on random games."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from norvegienne_positions import DEFAULTS, c, cs, position

from device.bots.minds import RandomBot
from device.rules.actions import PickUp, Play, Ready, Reveal, Swap, Target
from device.rules.base import IllegalAction, Outcome
from device.rules.cards import ACE, JACK, KING, QUEEN, DealError, make_deck, shuffle
from device.rules.events import (
    AceTarget,
    Burned,
    Drew,
    Finished,
    GameOver,
    PickedUp,
    Played,
    Revealed,
    SeatOut,
    Skipped,
    Swapped,
    TookUp,
)
from device.rules.norvegienne import NorvegienneGame
from device.rules.presets import new_game
from device.rules.rng import Streams


def ranks(cards) -> list[int]:
    return sorted(x >> 2 for x in cards)


# --- the worked example -------------------------------------------------------------------------
def test_norvegienne_example_ace_sends_the_pile_and_the_ace_layer_leads():
    """2 seats, stock empty, pile top is a 9: seat 0 lays two Queens from its hand; seat 1 holds
    5, 10, Ace: it cannot lay the 5 or the 10 on a Queen, so it lays the Ace and chooses seat 0;
    seat 0 holds only a 4 and must pick up the pile (9, Q, Q, A); seat 1 leads a new pile."""
    nine, q1, q2, four = c(9), c(QUEEN), c(QUEEN), c(4)
    five, ten, ace = c(5), c(10), c(ACE)
    game = position([[q1, q2, four], [five, ten, ace]], pile=[nine], turn=0)

    assert game.apply(Play(0, (q1, q2))) == [Played(0, (q1, q2), "hand")]
    assert game.current_seat() == 1
    with pytest.raises(IllegalAction, match="a 5 cannot be laid on a Queen"):
        game.apply(Play(1, (five,)))
    with pytest.raises(IllegalAction, match="a 10 cannot be laid on a Queen"):
        game.apply(Play(1, (ten,)))
    assert game.legal_actions() == [Play(1, (ace,))]  # it can play, so no pick-up
    game.apply(Play(1, (ace,)))
    assert game.current_seat() == 1 and game.legal_actions() == [Target(1, 0)]
    assert game.apply(Target(1, 0)) == [AceTarget(1, 0)]

    assert game.current_seat() == 0
    assert game.legal_actions() == [PickUp(0)]
    with pytest.raises(IllegalAction, match="answer the Ace with an Ace or a 2"):
        game.apply(Play(0, (four,)))
    assert game.apply(PickUp(0)) == [PickedUp(0, 4)]
    assert ranks(game.hands[0]) == [4, 9, QUEEN, QUEEN, ACE]
    assert game.pile == [] and game.current_seat() == 1
    assert (game.cards, game.tricks) == (3, 1)


# --- deal and swap phase ------------------------------------------------------------------------
@pytest.mark.parametrize("players, deck_size", [(2, 52), (5, 52), (6, 104), (11, 104)])
def test_deal_one_at_a_time_three_down_then_three_up_then_three_in_hand(players, deck_size):
    game = new_game("norvegienne", players=players, seed=7)
    deck = make_deck(deck_size)
    shuffle(deck, Streams(7)["deal"])
    for seat in range(players):
        assert game.down[seat] == [deck[seat + k * players] for k in range(3)]
        assert game.up[seat] == [deck[3 * players + seat + k * players] for k in range(3)]
        assert game.hands[seat] == [deck[6 * players + seat + k * players] for k in range(3)]
    assert game.stock == deck[9 * players:]
    assert Counter(game.all_cards()) == Counter(deck)


def test_players_outside_2_to_11_are_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="norvegienne takes 2 to 11, not 12"):
        NorvegienneGame(DEFAULTS, 12, Streams(0))


def test_the_deal_is_recorded_each_seats_face_down_face_up_and_hand_cards_and_the_stock_in_order():
    # RULES.md "Cards and dealing": the dealt cards are recorded, so any game can be replayed.
    game = new_game("norvegienne", players=3, seed=5)
    dealt = game.dealt
    assert dealt == {"down": game.down, "up": game.up, "hand": game.hands, "stock": game.stock}
    assert json.loads(json.dumps(dealt)) == dealt  # JSON-ready, as the journal's header keeps it
    deck = make_deck(52)
    shuffle(deck, Streams(5)["deal"])
    assert [c for seat in range(3) for c in dealt["down"][seat]] == sorted(
        deck[:9], key=lambda c: deck.index(c) % 3)
    assert dealt["stock"] == deck[27:]
    first = game.legal_actions()[0]
    game.apply(first)  # a swap changes the hands, not the record of the deal
    assert game.dealt == new_game("norvegienne", players=3, seed=5).dealt


@pytest.mark.parametrize("players", [2, 7])
def test_a_game_rebuilt_from_its_recorded_deal_alone_plays_the_same(players):
    from device.bots.minds import decider, make_players

    game = new_game("norvegienne", players=players, seed=11)
    deal = json.loads(json.dumps(game.dealt))
    # another seed's shuffle: the deal decides the cards, the seed only the later draws of chance
    rebuilt = new_game("norvegienne", seed=11, packs=deal)
    other = new_game("norvegienne", players=players, seed=12)
    assert rebuilt.snapshot() == game.snapshot() and rebuilt.stock == game.stock
    assert other.stock != game.stock
    turned = dict(deal, stock=deal["stock"][::-1])
    assert new_game("norvegienne", seed=11, packs=turned).stock == deal["stock"][::-1]
    results = []
    for g in (game, rebuilt):
        outcome = g.play_out(decider(make_players(["rule"] * players, g.streams)))
        results.append((outcome, g.snapshot(), g.all_cards()))
    assert results[0] == results[1]


def test_the_journal_header_holds_the_deal_and_rebuilds_the_game_from_it():
    from device.table.session import GameSpec, build_game, header, spec_from_header
    from device.table.table import Seat

    seats = [Seat(0, "Anna", None, True), Seat(1, "Ben", None, True)]
    spec = GameSpec("norvegienne", 3, seats)
    game = build_game(spec)
    head = json.loads(json.dumps(header(spec, game, 0)))
    assert head["packs"] == {"down": game.down, "up": game.up, "hand": game.hands, "stock": game.stock}
    again = build_game(spec_from_header(head))
    assert again.snapshot() == game.snapshot() and again.all_cards() == game.all_cards()


@pytest.mark.parametrize("deal,needle", [
    ([[1, 2]], "norvegienne's deal is"),
    ({"down": [], "up": [], "hand": []}, "norvegienne's deal is"),
    ({"down": [[1]], "up": [[1]], "hand": [[1]], "stock": []}, "2 to 11 seats"),
    ({"down": [[8, 9, 10]] * 2, "up": [[8, 9, 10]] * 2, "hand": [[8, 9]] * 2, "stock": []}, "3 cards"),
    ({"down": [[8, 9, 10]] * 2, "up": [[8, 9, 10]] * 2, "hand": [[8, 9, 10]] * 2, "stock": [8]},
     "one 52-card deck"),
    ({"down": [[8, 9, "x"]] * 2, "up": [[8, 9, 10]] * 2, "hand": [[8, 9, 10]] * 2, "stock": []},
     "not a card"),
])
def test_a_recorded_deal_that_is_not_a_whole_deck_dealt_3_3_3_is_refused(deal, needle):
    with pytest.raises(DealError, match=needle):
        new_game("norvegienne", packs=deal)


def test_before_play_each_seat_in_order_may_swap_hand_and_face_up_cards():
    game = new_game("norvegienne", players=3, seed=1)
    assert game.phase == "swap" and game.current_seat() == 0
    h, u = game.hands[0][0], game.up[0][1]
    with pytest.raises(IllegalAction, match="only seat 0 may swap now"):
        game.apply(Swap(1, game.hands[1][0], game.up[1][0]))
    with pytest.raises(IllegalAction, match="must swap cards or say it is ready"):
        game.apply(Play(0, (h,)))
    with pytest.raises(IllegalAction, match="among its face-up cards"):
        game.apply(Swap(0, h, h))
    assert game.apply(Swap(0, h, u)) == [Swapped(0, h, u)]
    assert game.hands[0][0] == u and game.up[0][1] == h
    assert Swap(0, u, h) in game.legal_actions() and Ready(0) in game.legal_actions()
    game.apply(Ready(0))
    assert game.current_seat() == 1
    game.apply(Ready(1))
    game.apply(Ready(2))
    assert game.phase == "play" and game.current_seat() == 0  # seat 0, left of the dealer, leads
    with pytest.raises(IllegalAction, match="swapping is over"):
        game.apply(Swap(0, game.hands[0][0], game.up[0][0]))


# --- laying -------------------------------------------------------------------------------------
def test_a_play_must_be_of_rank_at_least_the_rank_on_top_and_may_hold_several_of_one_rank():
    n1, n2, j = c(9), c(9), c(JACK)
    game = position([[n1, n2, j, c(4)], cs(5, 6)], pile=[c(9)])
    with pytest.raises(IllegalAction, match="the same rank"):
        game.apply(Play(0, (n1, j)))
    with pytest.raises(IllegalAction, match="does not hold"):
        game.apply(Play(0, (c(KING),)))
    assert {a.cards for a in game.legal_actions()} == {(min(n1, n2),), tuple(sorted((n1, n2))), (j,)}
    game.apply(Play(0, (n1, n2)))  # equal rank is allowed
    assert ranks(game.pile) == [9, 9, 9]


def test_only_the_seat_to_play_may_play():
    game = position([cs(5), cs(6)], pile=[])
    with pytest.raises(IllegalAction, match="only seat 0 may play now"):
        game.apply(Play(1, tuple(game.hands[1])))


def test_a_2_may_be_laid_on_anything_and_anything_may_be_laid_on_it():
    two, three = c(2), c(3)
    game = position([[two, c(4)], [three, c(5)]], pile=[c(ACE)])
    game.apply(Play(0, (two,)))
    game.apply(Play(1, (three,)))
    assert ranks(game.pile) == [2, 3, ACE]


def test_after_a_7_the_next_play_must_be_7_or_lower_and_an_ace_may_still_be_laid():
    game = position([[c(8), c(10), c(KING), c(5), c(ACE)], cs(4)], pile=[c(7)])
    assert {a.cards[0] >> 2 for a in game.legal_actions()} == {5, ACE}
    for r, word in ((8, "an 8"), (10, "a 10"), (KING, "a King")):
        with pytest.raises(IllegalAction, match=f"{word} cannot be laid on a 7"):
            game.apply(Play(0, (next(x for x in game.hands[0] if x >> 2 == r),)))
    no_ace = position([[c(ACE), c(5)], cs(4)], pile=[c(7)], options={"ace_on_seven": False})
    assert {a.cards[0] >> 2 for a in no_ace.legal_actions()} == {5}


def test_a_10_burns_the_pile_and_the_burner_leads_again():
    ten = c(10)
    game = position([[ten, c(4), c(5)], cs(6)], pile=cs(3, 8, 9))
    events = game.apply(Play(0, (ten,)))
    assert Burned(0, 4, "ten") in events
    assert game.pile == [] and len(game.burned) == 4 and game.tricks == 1
    assert game.current_seat() == 0


@pytest.mark.parametrize("top", [JACK, QUEEN, KING, ACE, 7])
def test_a_10_cannot_be_laid_on_j_q_k_a_nor_on_a_7(top):
    game = position([[c(10), c(2)], cs(6)], pile=[c(top)])
    assert all(a.cards[0] >> 2 != 10 for a in game.legal_actions() if isinstance(a, Play))


def test_four_of_a_kind_on_top_across_plays_burns_the_pile_four_2s_too():
    game = position([[c(6), c(6), c(KING)], [c(6), c(KING)]], pile=[c(5), c(6)], turn=1)
    game.apply(Play(1, (game.hands[1][0],)))
    events = game.apply(Play(0, tuple(x for x in game.hands[0] if x >> 2 == 6)))
    assert Burned(0, 5, "four") in events and game.current_seat() == 0
    twos = position([[c(2), c(2), c(KING)], [c(2), c(KING)]], pile=[c(2)], turn=1)
    twos.apply(Play(1, (twos.hands[1][0],)))
    assert Burned(0, 4, "four") in twos.apply(Play(0, tuple(x for x in twos.hands[0] if x >> 2 == 2)))


def test_an_8_passes_over_one_seat_per_8_counting_the_layer_and_the_next_must_lay_8_or_more():
    eights = [c(8), c(8)]
    game = position([[eights[0], c(4)], [c(5), c(9)], [c(6)]], pile=[])
    assert Skipped((1,)) in game.apply(Play(0, (eights[0],)))
    assert game.current_seat() == 2
    assert game.legal_actions() == [PickUp(2)]  # a 6 cannot go on an 8
    three = position([[*eights, c(4)], cs(5), cs(6)], pile=[])
    assert Skipped((1, 2)) in three.apply(Play(0, tuple(eights)))
    assert three.current_seat() == 0  # two 8s: seats 1 and 2 pass, seat 0 plays again
    two = position([[c(8), c(4)], cs(5)], pile=[])
    two.apply(Play(0, (two.hands[0][0],)))
    assert two.current_seat() == 0


def test_a_burn_with_8s_leads_again_without_skips():
    game = position([[c(8), c(8), c(4)], cs(5), cs(6)], pile=[c(8), c(8)])
    events = game.apply(Play(0, tuple(x for x in game.hands[0] if x >> 2 == 8)))
    assert Burned(0, 4, "four") in events and not any(isinstance(e, Skipped) for e in events)
    assert game.current_seat() == 0


def test_an_ace_may_be_answered_with_an_ace_which_chooses_in_turn():
    a0, a1 = c(ACE), c(ACE)
    game = position([[a0, c(5)], [a1, c(6)], cs(4, 4)], pile=[c(9)])
    game.apply(Play(0, (a0,)))
    assert game.legal_actions() == [Target(0, 1), Target(0, 2)]
    with pytest.raises(IllegalAction, match="choose another seat in play"):
        game.apply(Target(0, 0))
    with pytest.raises(IllegalAction, match="must first choose"):
        game.apply(PickUp(0))
    game.apply(Target(0, 1))
    assert game.legal_actions() == [Play(1, (a1,))]  # it can answer, so it must
    game.apply(Play(1, (a1,)))
    game.apply(Target(1, 2))
    assert game.legal_actions() == [PickUp(2)]
    assert game.apply(PickUp(2)) == [PickedUp(2, 3)]
    assert game.current_seat() == 1  # the last seat to have laid cards leads


@pytest.mark.parametrize("answer", [ACE, 2])
def test_decision_a_targeted_seat_that_can_answer_must_answer(answer):
    # RULES.md 5, Decision: as on any turn, a targeted seat that can answer must answer (it picks
    # up only when it can lay neither an Ace nor a 2 from the cards it is playing from).
    held = c(answer)
    game = position([[c(ACE), c(5)], [held, c(6)]], pile=[c(9)])
    game.apply(Play(0, (game.hands[0][0],)))
    game.apply(Target(0, 1))
    assert PickUp(1) not in game.legal_actions()
    assert game.legal_actions() == [Play(1, (held,))]
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="must answer the Ace"):
        game.apply(PickUp(1))
    assert game.snapshot() == before


def test_decision_a_targeted_seat_may_pick_up_although_it_can_answer_with_voluntary_pickup():
    held = c(ACE)
    game = position([[c(ACE), c(5)], [held, c(6)]], pile=[c(9)], options={"voluntary_pickup": True})
    game.apply(Play(0, (game.hands[0][0],)))
    game.apply(Target(0, 1))
    assert game.legal_actions() == [Play(1, (held,)), PickUp(1)]
    assert game.apply(PickUp(1)) == [PickedUp(1, 2)]


def test_decision_a_targeted_seat_playing_from_its_face_down_cards_turns_one_as_on_any_turn():
    # Its hand is empty (stock gone, face-up cards taken): the cards it plays from are face down,
    # so it turns one; an Ace or a 2 answers, anything else is picked up with the pile.
    game = position([[c(ACE), c(5)], []], down=[cs(3), cs(2, 2)], pile=[c(9)])
    game.apply(Play(0, (game.hands[0][0],)))
    game.apply(Target(0, 1))
    assert game.legal_actions() == [Reveal(1)]
    with pytest.raises(IllegalAction, match="must answer the Ace"):
        game.apply(PickUp(1))


def test_an_ace_answered_with_a_2_leaves_the_pile_and_play_goes_on_after_it():
    two = c(2)
    game = position([[c(ACE), c(5)], [two, c(6)], cs(4, 4)], pile=[c(9)])
    game.apply(Play(0, (game.hands[0][0],)))
    game.apply(Target(0, 1))
    game.apply(Play(1, (two,)))
    assert ranks(game.pile) == [2, 9, ACE] and game.current_seat() == 2
    assert game.target is None and {a.cards[0] >> 2 for a in game.legal_actions() if isinstance(a, Play)} == {4}


def test_a_seat_picks_up_the_pile_only_when_it_cannot_play():
    game = position([cs(KING, 4), cs(5)], pile=[c(9)])
    assert PickUp(0) not in game.legal_actions()
    with pytest.raises(IllegalAction, match="can play, so it may not pick up"):
        game.apply(PickUp(0))
    loose = position([cs(KING, 4), cs(5)], pile=[c(9)], options={"voluntary_pickup": True})
    assert PickUp(0) in loose.legal_actions()
    loose.apply(PickUp(0))
    assert ranks(loose.hands[0]) == [4, 9, KING]


def test_after_a_pick_up_the_last_seat_to_have_laid_cards_leads_or_the_next_seat_in_play():
    game = position([cs(4, 4), cs(5), cs(6)], pile=[c(3)], turn=1)
    game.apply(Play(1, tuple(game.hands[1])))
    game.apply(Play(2, tuple(game.hands[2])))
    game.apply(PickUp(0))  # a 4 cannot go on a 6: seat 0 picks up
    assert game.current_seat() == 2  # seat 2 laid last: it leads

    out = position([[c(8)], cs(4, 5), cs(6, 7)], up=[[], [], []], down=[[], cs(3), cs(3)],
                   pile=[c(3)], options={"rank_all": True})
    events = out.apply(Play(0, tuple(out.hands[0])))  # seat 0 lays its last card, an 8
    assert events[-3:] == [Finished(0, 1), SeatOut(0), Skipped((1,))]
    assert out.legal_actions() == [PickUp(2)]
    out.apply(PickUp(2))
    assert out.current_seat() == 1  # seat 0 has no card left: the next seat in play leads


def test_while_the_stock_lasts_a_seat_draws_back_to_3_after_playing():
    s = cs(3, 4, 5, 6)
    game = position([cs(9, 9, 9), cs(KING, KING, KING)], stock=s)
    events = game.apply(Play(0, tuple(game.hands[0][:2])))
    assert Drew(0, 2) in events and len(game.hands[0]) == 3 and game.stock == s[2:]


def test_stock_empty_an_empty_hand_takes_its_3_face_up_cards_into_the_hand():
    up = cs(JACK, KING, ACE)
    game = position([cs(9), cs(5)], up=[up, []])
    events = game.apply(Play(0, tuple(game.hands[0])))
    assert TookUp(0, tuple(up)) in events
    assert game.hands[0] == up and game.up[0] == []


def test_face_down_card_that_can_be_laid_is_laid_one_per_turn():
    k = c(KING)
    game = position([[], cs(5)], up=[[], []], down=[[k, c(ACE)], cs(3)], pile=[c(9)], seed=3)
    assert game.legal_actions() == [Reveal(0)]
    events = game.apply(Reveal(0))
    turned = events[0].card
    assert events[:2] == [Revealed(0, turned, True), Played(0, (turned,), "down")]
    assert game.current_seat() != 0 or turned >> 2 == ACE
    holding = position([cs(4), cs(5)], down=[cs(KING), cs(3)], pile=[c(3)])
    with pytest.raises(IllegalAction, match="still has cards in its hand"):
        holding.apply(Reveal(0))


def test_face_down_card_that_cannot_be_laid_picks_up_the_pile_with_it():
    four = c(4)
    game = position([[], cs(5)], up=[[], []], down=[[four], cs(3)], pile=cs(9, QUEEN), last_layer=1)
    events = game.apply(Reveal(0))
    assert events == [Revealed(0, four, False), PickedUp(0, 3)]
    assert ranks(game.hands[0]) == [4, 9, QUEEN] and game.current_seat() == 1
    assert Reveal(0) not in (game.legal_actions() if game.current_seat() == 0 else [])


def test_blind_chain_goes_on_turning_while_the_cards_can_be_laid():
    game = position([[], cs(5)], up=[[], []], down=[cs(KING, KING, KING), cs(3)], pile=[c(9)],
                    options={"blind_chain": True})
    game.apply(Reveal(0))
    assert game.current_seat() == 0 and game.legal_actions() == [Reveal(0)]
    plain = position([[], cs(5)], up=[[], []], down=[cs(KING, KING, KING), cs(3)], pile=[c(9)])
    plain.apply(Reveal(0))
    assert plain.current_seat() == 1  # default: one face-down card per turn


def test_the_first_seat_with_no_cards_left_wins():
    game = position([cs(9), cs(5)], up=[[], []], down=[[], cs(3)])
    events = game.apply(Play(0, tuple(game.hands[0])))
    assert events[-1] == GameOver("win", 0) and game.outcome() == Outcome("win", 0)
    assert game.current_seat() is None and game.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply(Play(1, tuple(game.hands[1])))


def test_rank_all_plays_on_to_rank_every_seat():
    game = position([cs(9), cs(KING), cs(3, 4)], up=[[], [], []], down=[[], [], cs(5)],
                    options={"rank_all": True})
    assert game.apply(Play(0, tuple(game.hands[0])))[-2:] == [Finished(0, 1), SeatOut(0)]
    assert game.outcome() is None and game.current_seat() == 1
    events = game.apply(Play(1, tuple(game.hands[1])))
    assert events[-3:] == [SeatOut(1), Finished(2, 3), GameOver("win", 0)]
    assert game.places == [0, 1, 2]


def test_turn_limit_the_seat_with_fewest_cards_wins_and_a_tie_has_no_winner():
    game = position([cs(5, 6), cs(KING, KING, 3)], options={"max_rounds": 1})
    assert game.apply(Play(0, (game.hands[0][0],)))[-1] == GameOver("limit", 0)
    tie = position([cs(5, 6), cs(KING)], options={"max_rounds": 1})
    tie.apply(Play(0, (tie.hands[0][0],)))
    assert tie.outcome() == Outcome("limit", None)


def test_view_shows_a_seat_its_own_hand_and_only_the_sizes_of_the_others():
    game = new_game("norvegienne", players=3, seed=5)
    view = game.view(1)
    assert view["hand"] == sorted(game.hands[1])
    assert [s["hand"] for s in view["seats"]] == [3, 3, 3]
    assert [s["up"] for s in view["seats"]] == game.up  # face-up cards are public
    flat = repr(view)
    for other in (0, 2):
        assert all(repr(x) not in flat for x in game.down[other])
    snap = game.snapshot()
    assert snap["seats"][0]["hand"] == sorted(game.hands[0]) and snap["seats"][0]["down"] == 3
    assert snap["stock"] == 52 - 27 and snap["phase"] == "swap" and snap["turn"] == 0


def test_bad_actions_get_a_message_naming_what_was_wrong():
    game = position([cs(5), cs(6)])
    with pytest.raises(IllegalAction, match="there is no seat 4"):
        game.apply(Play(4, (1,)))
    with pytest.raises(IllegalAction, match="at least one card"):
        game.apply(Play(0, ()))
    with pytest.raises(IllegalAction, match="no Ace is waiting"):
        game.apply(Target(0, 1))
    with pytest.raises(IllegalAction, match="no pile to pick up"):
        game.apply(PickUp(0))


# --- invariants on random games -----------------------------------------------------------------
def _candidates(game: NorvegienneGame) -> list:
    """Every action a player could try now: each seat, each same-rank subset size, each target."""
    out: list = []
    for seat in range(game.seat_count()):
        hand = sorted(game.hands[seat])
        for r in {x >> 2 for x in hand}:
            same = [x for x in hand if x >> 2 == r]
            out += [Play(seat, tuple(same[:k])) for k in range(1, len(same) + 1)]
        out += [PickUp(seat), Reveal(seat), Ready(seat)] + [Target(seat, t) for t in range(game.seat_count())]
        out += [Swap(seat, h, u) for h in hand for u in game.up[seat]]
    return out


def test_legal_actions_lists_exactly_what_apply_accepts_and_a_refused_action_changes_nothing():
    for seed in range(6):
        game = new_game("norvegienne", players=2 + seed % 3, seed=seed,
                        options={"voluntary_pickup": seed % 2 == 1, "max_rounds": 60})
        bot = RandomBot(Streams(seed)["bot"])
        while not game.over:
            legal = game.legal_actions()
            for action in legal:
                copy.deepcopy(game).apply(action)  # raises if refused
            before = game.snapshot()
            for action in _candidates(game):
                if action not in legal:
                    with pytest.raises(IllegalAction):
                        game.apply(action)
            assert game.snapshot() == before
            game.apply(bot.choose(game, game.current_seat()))


def _random_game(seed: int, players: int, options: dict) -> tuple[NorvegienneGame, list]:
    game = new_game("norvegienne", players=players, seed=seed, options=options)
    bot = RandomBot(Streams(seed)["random-player"])
    start = Counter(game.all_cards())
    log = []
    for _ in range(options["max_rounds"] * 3 + 200):  # swaps do not count as turns
        if game.over:
            break
        log += game.apply(bot.choose(game, game.current_seat()))
        assert Counter(game.all_cards()) == start  # no card is ever created or lost
    return game, log


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), voluntary=st.booleans(),
       chain=st.booleans(), ace7=st.booleans(), rank_all=st.booleans(), limit=st.integers(1, 400))
def test_random_games_keep_every_card_end_and_replay_the_same(seed, players, voluntary, chain, ace7,
                                                              rank_all, limit):
    options = {"voluntary_pickup": voluntary, "blind_chain": chain, "ace_on_seven": ace7,
               "rank_all": rank_all, "max_rounds": limit}
    game, log = _random_game(seed, players, options)
    assert game.over and game.rounds <= limit
    assert isinstance(log[-1], GameOver)
    again, log2 = _random_game(seed, players, options)
    assert again.snapshot() == game.snapshot() and log2 == log


def test_a_thousand_random_games_from_2_to_11_seats_keep_every_card_and_end():
    # Random and rule-based players mixed; every action keeps the card count, every game ends.
    from device.bots.minds import make_players

    ends = Counter()
    for seed in range(1000):
        players = 2 + seed % 10
        game = new_game("norvegienne", players=players, seed=seed,
                        options={"max_rounds": 400, "rank_all": seed % 7 == 0,
                                 "voluntary_pickup": seed % 5 == 0, "blind_chain": seed % 3 == 0})
        seats = make_players(["rule" if (seed + s) % 2 else "random" for s in range(players)],
                             Streams(seed))
        total = len(game.all_cards())
        dealt = Counter(game.all_cards())
        while not game.over:
            game.apply(seats[game.current_seat()].choose(game, game.current_seat()))
            assert len(game.all_cards()) == total  # hands, face-up, face-down, stock, pile, burned
        assert Counter(game.all_cards()) == dealt
        ends[game.outcome().termination] += 1
    assert sum(ends.values()) == 1000 and ends["win"] > 900
