"""The challenge games (presets 1-3): RULES.md's worked examples, published counts, slaps, outs."""

from __future__ import annotations

import pytest

from device.rules.actions import Collect, Join, Lay, Slap
from device.rules.base import IllegalAction, Outcome
from device.rules.cards import JACK, JOKER, KING, QUEEN, format_pack, name, parse_deal, rank
from device.rules.events import (
    CollectPending,
    GameOver,
    Joined,
    Laid,
    LockedOut,
    Owes,
    PileWon,
    SeatBack,
    SeatOut,
    WrongSlap,
)
from device.rules.presets import new_game
from device.rules.slaps import slap_pattern


def play(game, *actions):
    """Apply actions, returning all events in order."""
    events = []
    for a in actions:
        events += game.apply(a)
    return events


def lay_all(game, n):
    """Let the table run n forced steps (lays and collects), returning the events."""
    events = []
    for _ in range(n):
        seat = game.current_seat()
        events += game.apply(Lay(seat) if seat is not None else Collect(game.collector))
    return events


def ranks(cards):
    return format_pack(cards)


# --- RULES.md worked examples --------------------------------------------------------------
def test_seed_000_example_three_seats_first_seat_wins_eleven_cards():
    # seat 0 lays 4, seat 1 lays 9, seat 2 lays 7, seat 0 lays 6, seat 1 lays a Queen. Seat 2 lays
    # 8 then a Joker. Seat 0 has 5 attempts: 7, 6, Jack. Seat 1 has 1 attempt: 3. Seat 0 wins the
    # pile (all 11 cards) and lays the next card.
    g = new_game("bataille-corse", deal_spec="4676J5/9Q35/78X5")
    events = lay_all(g, 11)
    assert [e.seat for e in events if isinstance(e, Laid)] == [0, 1, 2, 0, 1, 2, 2, 0, 0, 0, 1]
    assert [(e.seat, e.n) for e in events if isinstance(e, Owes)] == [
        (2, 2), (2, 1), (0, 5), (0, 4), (0, 3), (1, 1)]
    assert events[-1] == CollectPending(0)
    assert g.current_seat() is None and g.legal_actions()[0] == Collect(0)
    assert play(g, Collect(0)) == [PileWon(0, "challenge", 11, 0)]
    assert ranks(g.packs[0]) == "5" + "4976Q8X76J3"
    assert g.current_seat() == 0


def test_seed_000_fin_sur_une_figure_two_number_cards_and_seat_1_is_out():
    # seat 0 lays a King; seat 1 holds only a 7: it lays it, then takes its two other attempts
    # from seat 0's pack; two number cards and seat 1 is out.
    g = new_game("bataille-corse", deal_spec="K234/7")
    events = lay_all(g, 4)
    laid = [(e.seat, rank(e.card), e.borrowed_from) for e in events if isinstance(e, Laid)]
    assert laid == [(0, KING, None), (1, 7, None), (1, 2, 0), (1, 3, 0)]
    assert SeatOut(1) in events
    assert g.outcome() == Outcome("win", 0)
    assert events[-2:] == [PileWon(0, "challenge", 4, 0), GameOver("win", 0)]
    assert ranks(g.packs[0]) == "4K723"


def test_seed_000_fin_sur_une_figure_a_face_card_passes_the_challenge_back_to_seat_0():
    g = new_game("bataille-corse", deal_spec="K2Q59/7")
    events = lay_all(g, 4)
    assert [(e.seat, rank(e.card), e.borrowed_from) for e in events if isinstance(e, Laid)] == [
        (0, KING, None), (1, 7, None), (1, 2, 0), (1, QUEEN, 0)]
    assert events[-1] == Owes(0, 2)
    assert g.in_play == [True, True] and not g.packs[1]
    # seat 0 pays 5 and 9: two number cards, so seat 1 (whose borrowed Queen counts as its own)
    # wins the pile; seat 0 laid its last card and is out, so seat 1 holds every card.
    events = lay_all(g, 2)
    assert events[-2:] == [PileWon(1, "challenge", 6, 0), GameOver("win", 1)]
    assert ranks(g.packs[1]) == "K72Q59"


def test_seed_001_example_anna_queen_ben_king_ben_takes_the_pile():
    # Anna lays a Queen; Ben pays a 5, then a King; payment stops, Anna owes three; she pays 4,
    # 9, 2; Ben takes the whole pile (Q, 5, K, 4, 9, 2) and leads.
    g = new_game("strip-jack-naked", deal_spec="Q4923/5K6")
    events = lay_all(g, 6)
    assert Owes(0, 3) in events and events[-1] == CollectPending(1)
    assert play(g, Collect(1)) == [PileWon(1, "challenge", 6, 0)]
    assert ranks(g.packs[1]) == "6Q5K492"
    assert g.current_seat() == 1


# --- published Beggar-my-neighbour results (two seats, seat 0 leads, out_when = must-lay) ----
RECORDS = [  # (first pack, second pack, cards, tricks): record games as published
    ("---AJ--Q---------QAKQJJ-QK", "-----A----KJ-K--------A---", 8344, 1164),
    ("----K---A--Q-A--JJA------J", "-----KK---------A-JK-Q-Q-Q", 7972, 1106),
    ("-J------Q------AAA-----QQ-", "K----JA-----------KQ-K-JJK", 7959, 1122),
    ("--A-Q--J--J---Q--AJ-K---K-", "-J-------Q------A--A--QKK-", 7225, 1016),
    ("----Q------A--K--A-A--QJK-", "-Q--J--J---QK---K----JA---", 7207, 1015),
    ("K-KK----K-A-----JAA--Q--J-", "---Q---Q-J-----J------AQ--", 7157, 1007),
    ("A-QK------Q----KA-----J---", "-JAK----A--Q----J---QJ--K-", 6913, 960),
    ("---JQ---K-A----A-J-K---QK-", "-J-----------AJQA----K---Q", 5790, 805),
    ("------------KAQ----J------", "-JQQK---K----JK--QA-A-JA--", 4791, 670),
]


@pytest.mark.parametrize("first,second,cards,tricks", RECORDS)
def test_published_beggar_my_neighbour_records(first, second, cards, tricks):
    g = new_game("strip-jack-naked", deal_spec=f"{first}/{second}", slapping=False)
    outcome = g.play_out()
    assert outcome.termination == "win"
    assert (g.cards, g.tricks) == (cards, tricks)


def test_the_non_terminating_deal_is_reported_as_a_loop_when_first_repeated():
    # Casella et al. 2024: the position first repeats after 474 cards and 66 tricks.
    g = new_game("strip-jack-naked", slapping=False,
                 deal_spec="---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA")
    assert g.play_out() == Outcome("loop", None)
    assert (g.cards, g.tricks) == (474, 66)


def test_loop_takes_precedence_over_a_round_limit_that_comes_later():
    g = new_game("strip-jack-naked", slapping=False, options={"max_rounds": 100_000},
                 deal_spec="---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA")
    assert g.play_out().termination == "loop"


def test_round_limit_gives_the_seat_with_most_cards():
    g = new_game("strip-jack-naked", slapping=False, options={"max_rounds": 50},
                 deal_spec="---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---")
    outcome = g.play_out()
    assert outcome.termination == "limit" and g.rounds == 50
    counts = g.card_counts()
    assert outcome.winner == (None if counts[0] == counts[1] else counts.index(max(counts)))


# --- outs ----------------------------------------------------------------------------------
def test_last_card_a_number_card_is_out_at_once_in_bataille_corse():
    g = new_game("egyptian-ratscrew", deal_spec="23/4")
    events = lay_all(g, 2)  # seat 0 lays 2, seat 1 lays its last card, a 4: out, seat 0 wins
    assert SeatOut(1) in events
    assert g.outcome() == Outcome("win", 0)
    assert PileWon(0, "last-seat", 2, 0) in events  # it takes what is on the pile


def test_must_lay_keeps_a_seat_in_until_its_next_turn():
    g = new_game("strip-jack-naked", deal_spec="235/4")
    events = lay_all(g, 2)
    assert g.in_play == [True, True] and not events[-1:] == [SeatOut(1)]
    events = lay_all(g, 1)  # seat 0 lays 3; seat 1 must lay and has none: out
    assert SeatOut(1) in events and g.outcome() == Outcome("win", 0)
    assert g.tricks == 1  # the final collection counts as a trick


def test_a_seat_whose_last_card_sets_a_challenge_stays_in_and_comes_back_if_it_wins():
    g = new_game("egyptian-ratscrew", deal_spec="2K/J3456")
    lay_all(g, 3)  # 2, J (seat 0 owes 1), K: seat 0's last card sets a challenge
    assert g.in_play == [True, True] and not g.packs[0]
    events = lay_all(g, 3)  # seat 1 pays 3, 4, 5 — all numbers: seat 0 wins the pile
    assert events[-1] == CollectPending(0)
    assert play(g, Collect(0)) == [PileWon(0, "challenge", 6, 0)]
    assert g.in_play == [True, True] and ranks(g.packs[0]) == "2JK345"


def test_deal_JQ_K_an_answered_last_card_challenge_comes_back_and_seat_1_borrows_the_queen():
    # RULES.md, Out: deal `-JQ--/K`: seat 0 lays a number, seat 1 lays its only card, a King;
    # seat 0 answers with a Jack; seat 1, empty, borrows the Queen from seat 0; seat 0 pays two
    # number cards and seat 1 wins the pile (6 cards laid).
    for fast in (False, True):
        g = new_game("bataille-corse", deal_spec="-JQ--/K", slapping=False)
        if fast:
            assert g.play_out() == Outcome("win", 1)
        else:
            events = lay_all(g, 6)
            laid = [(e.seat, rank(e.card), e.borrowed_from) for e in events if isinstance(e, Laid)]
            assert laid == [(0, 0, None), (1, KING, None), (0, JACK, None), (1, QUEEN, 0),
                            (0, 0, None), (0, 0, None)]
            assert SeatOut(1) not in events
            assert events[-2:] == [PileWon(1, "challenge", 6, 0), GameOver("win", 1)]
        assert g.cards == 6 and g.outcome() == Outcome("win", 1)
        assert ranks(g.packs[1]) == "-KJQ--"


def test_deal_KJQJ_7_seat_1_borrows_a_jack_twice_and_wins_the_pile():
    # RULES.md, Out: deal `KJQJ-/7`: seat 0 lays a King; seat 1 lays its 7, borrows a Jack; seat 0
    # answers with a Queen; seat 1 borrows a Jack; seat 0 pays one number card; seat 1 wins the
    # pile (6 cards laid).
    for fast in (False, True):
        g = new_game("bataille-corse", deal_spec="KJQJ-/7", slapping=False)
        if fast:
            assert g.play_out() == Outcome("win", 1)
        else:
            events = lay_all(g, 6)
            laid = [(e.seat, rank(e.card), e.borrowed_from) for e in events if isinstance(e, Laid)]
            assert laid == [(0, KING, None), (1, 7, None), (1, JACK, 0), (0, QUEEN, None),
                            (1, JACK, 0), (0, 0, None)]
            assert SeatOut(1) not in events
            assert events[-2:] == [PileWon(1, "challenge", 6, 0), GameOver("win", 1)]
        assert g.cards == 6 and g.outcome() == Outcome("win", 1)


def test_a_seat_whose_answered_last_card_challenge_comes_back_without_borrowing_is_out():
    # egyptian-ratscrew (no borrowing): seat 1's last card, a King, is answered by seat 0's Jack;
    # seat 1 stays in play, and when the challenge comes back to it, it must pay and has no card:
    # it is out, and seat 0 (which set the challenge) takes the pile.
    g = new_game("egyptian-ratscrew", deal_spec="-J2/K", slapping=False)
    events = lay_all(g, 3)
    assert events[-5:] == [Owes(1, 1), CollectPending(0), SeatOut(1), PileWon(0, "challenge", 3, 0),
                           GameOver("win", 0)]
    assert SeatOut(1) not in events[:-5]


def test_an_answered_last_card_challenge_keeps_the_seat_in_play_until_the_pile_is_won():
    # 3 seats: seat 2's last card (a Queen) is answered by seat 0's Jack; seat 1 pays a number,
    # and seat 0 wins the pile. Only then is seat 2, with no card, out.
    g = new_game("bataille-corse", deal_spec="-J5/-34/Q", slapping=False)
    events = lay_all(g, 5)
    assert SeatOut(2) not in events and g.in_play == [True, True, True]
    assert events[-1] == CollectPending(0)
    assert play(g, Collect(0)) == [PileWon(0, "challenge", 5, 0), SeatOut(2)]


def test_without_borrowing_a_seat_that_cannot_pay_is_out_and_the_challenger_takes_the_pile():
    g = new_game("egyptian-ratscrew", deal_spec="Q3/4")
    events = lay_all(g, 2)  # Q: seat 1 owes 2; it pays its only card and has none for the second
    assert events[-4:] == [CollectPending(0), SeatOut(1), PileWon(0, "challenge", 2, 0),
                           GameOver("win", 0)]


def test_borrow_spares_last_keeps_the_lenders_last_card():
    # Seat 1 owes 3 but holds one card; seat 0 (the challenger) has 2 cards left.
    base = new_game("bataille-corse", deal_spec="K23/7")
    spare = new_game("bataille-corse", deal_spec="K23/7", options={"borrow_spares_last": True})
    lay_all(base, 4)
    assert base.outcome() == Outcome("win", 0)
    events = lay_all(spare, 3)  # K, 7, then one borrowed 2; the 3 is spared: nobody else lends
    borrowed = [e for e in events if isinstance(e, Laid) and e.borrowed_from is not None]
    assert len(borrowed) == 1
    assert spare.outcome() == Outcome("win", 0)


def test_a_seat_that_starts_with_no_card_is_out_from_the_start():
    g = new_game("strip-jack-naked", deal_spec="/K2/34")
    assert g.in_play == [False, True, True]
    assert g.current_seat() == 1


# --- slaps ---------------------------------------------------------------------------------
def test_doubles_slap_wins_the_pile_and_the_pot_and_the_slapper_leads():
    g = new_game("bataille-corse", deal_spec="592/538/")
    assert g.in_play == [True, True, False]
    lay_all(g, 1)
    assert play(g, Slap(2)) == [WrongSlap(2, 0, True), LockedOut(2)]  # seat 2 has none
    play(g, Lay(1))
    assert g.slappable() == "doubles"
    events = play(g, Slap(0))
    assert events == [PileWon(0, "slap:doubles", 2, 0)]
    assert g.current_seat() == 0 and g.locked == [False, False, False]


def test_wrong_slap_pays_two_cards_to_the_pot_and_the_next_winner_takes_them():
    g = new_game("bataille-corse", deal_spec="2345/6789")
    play(g, Lay(0))
    assert play(g, Slap(1)) == [WrongSlap(1, 2, False)]
    assert ranks(g.pot) == "67"
    play(g, Lay(1), Lay(0))  # 8, then 3 ... no double
    assert g.slappable() is None
    g2 = new_game("bataille-corse", deal_spec="2245/6789")
    play(g2, Lay(0), Slap(1), Lay(1), Lay(0))  # 2, wrong slap pays 6 7, 8, 2: no... check pot
    assert len(g2.pot) == 2


@pytest.mark.parametrize("option,paid,locked", [("pot-2", 2, False), ("pot-1", 1, False),
                                                  ("lockout", 0, True), ("none", 0, False)])
def test_wrong_slap_options(option, paid, locked):
    g = new_game("egyptian-ratscrew", deal_spec="2345/6789", options={"wrong_slap": option})
    play(g, Lay(0))
    assert play(g, Slap(1))[0] == WrongSlap(1, paid, locked)
    assert len(g.pot) == paid and g.locked[1] is locked


def test_a_slapper_with_one_card_pays_one_and_is_out():
    g = new_game("bataille-corse", deal_spec="23/4")
    events = play(g, Lay(0), Slap(1))
    assert WrongSlap(1, 1, False) in events and SeatOut(1) in events
    assert g.outcome() == Outcome("win", 0)
    assert sorted(g.all_cards()) == sorted(c for p in g.dealt for c in p)


def test_locked_out_seat_cannot_slap_until_the_pile_is_next_won():
    g = new_game("bataille-corse", deal_spec="2Q55/3", options={"wrong_slap": "lockout"})
    play(g, Lay(0), Slap(1))
    with pytest.raises(IllegalAction, match="locked out"):
        g.apply(Slap(1))
    assert Slap(1) not in g.legal_actions()


def test_slap_during_the_collect_delay_steals_a_won_challenge():
    g = new_game("bataille-corse", deal_spec="Q3/995")
    events = lay_all(g, 3)  # Q, then seat 1 pays 9, 9: a double, and the challenge is won
    assert events[-1] == CollectPending(0) and g.slappable() == "doubles"
    assert play(g, Slap(1)) == [PileWon(1, "slap:doubles", 3, 0)]
    assert g.collector is None and g.current_seat() == 1


def test_a_slap_stamped_before_the_next_card_wins_the_pile_with_that_card():
    g = new_game("bataille-corse", deal_spec="5A3/582")
    play(g, Lay(0), Lay(1))  # 5, 5: double at card 2
    play(g, Lay(0))  # the Ace covers it
    assert g.slappable() is None
    events = play(g, Slap(1, at_card=2))
    assert events == [PileWon(1, "slap:doubles", 3, 0)]
    with pytest.raises(IllegalAction, match="no longer on the pile"):
        g.apply(Slap(0, at_card=2))


@pytest.mark.parametrize("deal,steps,pattern", [
    ("559/39", 3, "sandwich"), ("745/979", 4, "top-bottom"),
    ("K9/Q8", 2, "marriage"), ("Q9/K8", 2, "marriage"), ("A4/98", 2, "tens"), ("64/48", 2, "tens"),
])
def test_optional_slap_patterns(deal, steps, pattern):
    with_it = new_game("egyptian-ratscrew", deal_spec=deal, options={"slaps": [pattern]})
    plain = new_game("egyptian-ratscrew", deal_spec=deal)
    lay_all(with_it, steps)
    lay_all(plain, steps)
    assert with_it.slappable() == pattern
    assert plain.slappable() is None


def test_three_of_a_kind_is_a_double_and_a_sandwich():
    pile = [c for p in parse_deal("555") for c in p]
    assert slap_pattern(pile, ("sandwich",)) == "sandwich"
    assert slap_pattern(pile, ("doubles", "sandwich")) == "doubles"
    assert slap_pattern([c for p in parse_deal("5-") for c in p], ("doubles",)) is None


def test_tens_needs_number_cards_or_aces():
    g = new_game("egyptian-ratscrew", deal_spec="K9/Q8", options={"slaps": ["tens"]})
    lay_all(g, 2)
    assert g.slappable() is None


def test_out_seat_slaps_back_in_and_a_late_player_joins():
    g = new_game("bataille-corse", deal_spec="7792/3745/2")
    lay_all(g, 3)  # 7, 3, then seat 2 lays its last card, a number: out
    assert g.in_play == [True, True, False]
    assert play(g, Join(3)) == [Joined(3)] and g.seat_count() == 4
    play(g, Lay(0), Lay(1))  # 7, 7: a double
    assert play(g, Slap(2)) == [PileWon(2, "slap:doubles", 5, 0), SeatBack(2)]
    assert g.current_seat() == 2 and g.in_play == [True, True, True, False]
    with pytest.raises(IllegalAction, match="next free seat is 4"):
        g.apply(Join(5))
    # the newcomer plays in seat order once it has won a pile
    play(g, Lay(2), Lay(0), Lay(1))  # 7, 9, 4
    play(g, Lay(2))  # 3 ... then seat 0 lays 2: seat 3 slaps a wrong pile and is locked out
    assert play(g, Slap(3)) == [WrongSlap(3, 0, True), LockedOut(3)]


def test_late_join_is_off_by_option_and_in_the_simulator():
    g = new_game("bataille-corse", deal_spec="23/45", options={"late_join": False})
    with pytest.raises(IllegalAction, match="late joining is off"):
        g.apply(Join(2))
    assert not any(isinstance(a, Join) for a in g.legal_actions())


# --- illegal actions -----------------------------------------------------------------------
def test_illegal_actions_say_why_and_change_nothing():
    g = new_game("bataille-corse", deal_spec="J9/23")
    before = g.state_key()
    with pytest.raises(IllegalAction, match="seat 0's turn"):
        g.apply(Lay(1))
    with pytest.raises(IllegalAction, match="no won pile"):
        g.apply(Collect(0))
    lay_all(g, 2)
    with pytest.raises(IllegalAction, match="about to collect"):
        g.apply(Lay(1))
    with pytest.raises(IllegalAction, match="seat 0 won the pile"):
        g.apply(Collect(1))
    assert before != g.state_key()
    s = new_game("strip-jack-naked", deal_spec="23/45")
    with pytest.raises(IllegalAction, match="nobody slaps"):
        s.apply(Slap(0))


def test_jokers_set_five_attempts_and_every_name_is_readable():
    g = new_game("bataille-corse", deal_spec="X/23456")
    assert lay_all(g, 1)[-1] == Owes(1, 5)
    assert name(g.pile[0]).startswith("X") and rank(g.pile[0]) == JOKER
