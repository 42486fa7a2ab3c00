"""The house rules other tables play (RULES.md 3): the slap patterns big-mac, run, flush, divorce,
ten-on-top, marriage_colour; tens_stop; the wrong-slap penalties pot-N, bottom-N, lockout-N and
gift; wrong_flip. One worked example each, named after the rule book's wording."""

from __future__ import annotations

import pytest

from device.rules.actions import FlipOutOfTurn, Join, Lay, Slap
from device.rules.base import IllegalAction
from device.rules.cards import RANK_CHARS, SUITS, card
from device.rules.events import (
    ChallengeStopped,
    LockedOut,
    PileWon,
    SeatOut,
    Unlocked,
    WrongFlip,
    WrongSlap,
)
from device.rules.presets import OPTIONS, SLAP_PATTERNS, OptionError, new_game
from device.rules.slaps import SLAP_ORDER, slap_pattern

ALL = SLAP_ORDER


def cards(text: str) -> list[int]:
    """``"5S 7H X0"``: rank then suit (S H D C; a joker's digit), oldest card first (top last)."""
    out = []
    for tok in text.split():
        r = RANK_CHARS[tok[0]]
        s = int(tok[1]) if tok[0] == "X" else SUITS.index(tok[1])
        out.append(card(r, s))
    return out


def matches(text: str, pattern: str, **kw) -> bool:
    return slap_pattern(cards(text), (pattern,), **kw) == pattern


def play(game, *actions):
    events = []
    for a in actions:
        events += game.apply(a)
    return events


def ranks(cs):
    return "".join("--23456789TJQKAX"[c >> 2] if c >> 2 else "-" for c in cs)


# --- slap patterns ---------------------------------------------------------------------------
def test_big_mac_the_top_card_and_the_fourth_card_have_the_same_rank_with_4_cards_or_more():
    assert matches("5S 7H 9D 5C", "big-mac")
    assert matches("2S 5S 7H 9D 5C", "big-mac")
    assert not matches("7H 9D 5C", "big-mac")  # 3 cards
    assert not matches("5S 7H 5D", "big-mac")  # a sandwich, not a big-mac
    assert matches("X0 7H 9D X1", "big-mac")  # a joker matches another joker


def test_run_the_three_top_cards_are_consecutive_ranks_ascending_or_descending():
    assert matches("4S 5H 6D", "run") and matches("9S 8H 7D", "run")
    assert matches("2C 9S 8H 7D", "run")  # the three top cards only
    assert not matches("4S 5H 7D", "run") and not matches("4S 6H 5D", "run")
    assert not matches("5H 6D", "run")


def test_run_ace_high_or_low_so_q_k_a_and_a_2_3_count_both_ways():
    for text in ("QS KH AD", "AD KH QS", "AS 2H 3D", "3D 2H AS"):
        assert matches(text, "run"), text


def test_run_wraps_also_counts_k_a_2():
    for text in ("KS AH 2D", "2D AH KS"):
        assert not matches(text, "run"), text
        assert matches(text, "run", run_wraps=True), text
    assert matches("QS KH AD", "run", run_wraps=True) and matches("AS 2H 3D", "run", run_wraps=True)
    assert not matches("KS AH 3D", "run", run_wraps=True)


def test_a_joker_is_part_of_no_run():
    assert not matches("QS KH X0", "run") and not matches("X0 2H 3D", "run")
    assert not matches("KS X0 2H", "run", run_wraps=True)


def test_flush_the_four_top_cards_have_the_same_suit():
    assert matches("2H 9H KH 5H", "flush")
    assert matches("2S 9H KH 5H 7H", "flush")
    assert not matches("2H 9H KH 5S", "flush")
    assert not matches("9H KH 5H", "flush")  # 3 cards


def test_a_joker_is_part_of_no_flush():
    # jokers carry a "suit" digit (which joker): it never makes a flush
    assert not matches("X1 9H KH 5H", "flush") and not matches("9H KH 5H X1", "flush")


def test_divorce_a_king_and_a_queen_with_one_card_between_them():
    assert matches("KS 4H QD", "divorce") and matches("QS 4H KD", "divorce")
    assert not matches("KS 4H KD", "divorce") and not matches("KS QD", "divorce")
    assert not matches("KS 4H 5C QD", "divorce")


def test_ten_on_top_the_top_card_is_a_10():
    assert matches("3S TH", "ten-on-top")
    assert not matches("TH 3S", "ten-on-top")


def test_marriage_colour_the_king_and_queen_must_be_of_the_same_colour():
    for text, same in (("KH QD", True), ("KS QC", True), ("KS QH", False), ("QD KC", False)):
        assert matches(text, "marriage")
        assert matches(text, "marriage", marriage_colour=True) is same, text


def test_a_joker_matches_another_joker_wherever_ranks_are_compared():
    assert slap_pattern(cards("X0 X1"), ALL) == "doubles"
    assert slap_pattern(cards("X0 5H X1"), ALL) == "sandwich"
    assert slap_pattern(cards("X0 5H 7H 6C X1"), ("top-bottom",)) == "top-bottom"


@pytest.mark.parametrize("text,named", [
    ("TS TH", "doubles"),          # a double of tens: doubles before tens, ten-on-top
    ("5S 6S 5S", "sandwich"),
    ("5S 6S 7S 5S", "big-mac"),    # before flush
    ("QS 6H 7D 8C QH", "top-bottom"),  # before run (6-7-8? no: 7-8-Q) and big-mac
    ("KH QH", "marriage"),
    ("KS 5H QS", "divorce"),
    ("4S 6H", "tens"),
    ("8S 9H TD", "ten-on-top"),    # before run
    ("4S 5H 6D", "run"),
    ("4S 5S 6S 7S", "run"),        # a run and a flush: the run is named
    ("2S 9S KS 5S", "flush"),
])
def test_when_several_match_the_first_in_the_rule_books_order_is_named(text, named):
    assert slap_pattern(cards(text), ALL) == named


def test_the_slaps_option_takes_every_pattern_in_the_naming_order():
    assert SLAP_PATTERNS == ("doubles", "sandwich", "big-mac", "top-bottom", "marriage", "divorce",
                             "tens", "ten-on-top", "run", "flush")
    assert OPTIONS["slaps"].check(["flush", "run", "big-mac"]) == ("doubles", "big-mac", "run", "flush")


@pytest.mark.parametrize("deal,steps,pattern", [
    ("592/753", 4, "big-mac"), ("462/53", 3, "run"), ("K2/9Q3", 3, "divorce"), ("34/T2", 2, "ten-on-top"),
])
def test_a_slap_on_a_house_pattern_wins_the_pile_named_by_its_pattern(deal, steps, pattern):
    g = new_game("egyptian-ratscrew", deal_spec=deal, options={"slaps": [pattern]})
    for _ in range(steps):
        g.apply(Lay(g.current_seat()))
    assert g.slappable() == pattern
    assert play(g, Slap(1))[0] == PileWon(1, f"slap:{pattern}", steps, 0)


def test_a_flush_slap_in_a_game():
    # parse_deal gives suits in turn per rank: 2 3 4 5 are all spades (suit 0)
    g = new_game("egyptian-ratscrew", deal_spec="24K/356", options={"slaps": ["flush"]})
    for _ in range(4):
        g.apply(Lay(g.current_seat()))
    assert g.slappable() == "flush"


def test_run_wraps_and_marriage_colour_apply_to_slapping_presets_only():
    new_game("bataille-corse", options={"run_wraps": True, "marriage_colour": True, "tens_stop": True})
    with pytest.raises(OptionError, match="does not apply"):
        new_game("strip-jack-naked", options={"run_wraps": True})


# --- tens_stop -------------------------------------------------------------------------------
def test_tens_stop_a_10_laid_as_an_attempt_ends_the_challenge_and_nobody_wins_the_pile():
    g = new_game("egyptian-ratscrew", deal_spec="K44/3T25/99", options={"tens_stop": True})
    play(g, Lay(0))            # K: seat 1 owes 3
    events = play(g, Lay(1), Lay(1))  # 3, then T: stopped
    assert ChallengeStopped(1) in events
    assert g.owed == 0 and g.challenger is None and g.collector is None
    assert ranks(g.pile) == "K3T"  # the pile stays
    assert g.current_seat() == 2   # the seat after the one that laid the 10 lays next


def test_tens_stop_on_the_last_attempt_stops_the_challenge_instead_of_winning_it():
    g = new_game("egyptian-ratscrew", deal_spec="J4/T5", options={"tens_stop": True})
    play(g, Lay(0))                      # J: seat 1 owes 1
    events = play(g, Lay(1))             # its one attempt is a 10
    assert ChallengeStopped(1) in events and not any(isinstance(e, PileWon) for e in events)
    assert g.collector is None and g.current_seat() == 0 and len(g.pile) == 2
    plain = new_game("egyptian-ratscrew", deal_spec="J4/T5")
    play(plain, Lay(0), Lay(1))
    assert plain.collector == 0          # without the option the Jack wins


def test_tens_stop_a_10_that_is_not_an_attempt_is_an_ordinary_card():
    g = new_game("egyptian-ratscrew", deal_spec="T4/55", options={"tens_stop": True})
    assert not any(isinstance(e, ChallengeStopped) for e in play(g, Lay(0), Lay(1)))


def test_tens_stop_in_the_simulator_tells_tens_apart_for_loops():
    g = new_game("bataille-corse", seed=5, players=3, options={"tens_stop": True}, slapping=False)
    assert g.play_out().termination in ("win", "loop", "draw")


# --- wrong-slap penalties --------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3])
def test_pot_n_a_wrong_slap_costs_n_cards_to_the_pot(n):
    g = new_game("egyptian-ratscrew", deal_spec="2345/6789", options={"wrong_slap": f"pot-{n}"})
    play(g, Lay(0))
    assert play(g, Slap(1)) == [WrongSlap(1, n, False)]
    assert ranks(g.pot) == "6789"[:n]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_bottom_n_the_n_top_cards_of_the_slappers_pack_go_face_down_under_the_pile(n):
    g = new_game("egyptian-ratscrew", deal_spec="2345/6789", options={"wrong_slap": f"bottom-{n}"})
    play(g, Lay(0))
    assert play(g, Slap(1)) == [WrongSlap(1, n, False, "under")]
    assert ranks(g.under) == "6789"[:n] and not g.pot and ranks(g.pile) == "2"


def test_bottom_n_whoever_wins_the_pile_takes_them_under_first():
    g = new_game("egyptian-ratscrew", deal_spec="527/9534", options={"wrong_slap": "bottom-1"})
    play(g, Lay(0), Slap(1))             # seat 1's 9 goes under the 5
    play(g, Lay(1))                      # 5 on 5: a double
    assert play(g, Slap(0)) == [PileWon(0, "slap:doubles", 2, 1)]
    assert ranks(g.packs[0]) == "27955" and not g.under


@pytest.mark.parametrize("penalty", ["bottom-1", "pot-1"])
def test_a_pot_or_bottom_n_card_under_the_pile_is_part_of_no_pattern_top_bottom_included(penalty):
    # seat 0 lays 5; seat 1 slaps wrong and pays its 8; seat 1 lays 7, seat 0 lays 8: the pile
    # shows 5 7 8, and the 8 paid is under it (or in the pot): no top-bottom
    g = new_game("egyptian-ratscrew", deal_spec="582/872",
                 options={"wrong_slap": penalty, "slaps": ["top-bottom"]})
    play(g, Lay(0), Slap(1), Lay(1), Lay(0))
    assert ranks(g.pile) == "578" and ranks(g.under + g.pot) == "8"
    assert g.slappable() is None
    assert play(g, Slap(0))[0].seat == 0  # a wrong slap


def test_a_slapper_with_no_card_pays_nothing_and_is_locked_out_bottom_n_too():
    g = new_game("bataille-corse", deal_spec="592/538/", options={"wrong_slap": "bottom-2"})
    play(g, Lay(0))
    assert play(g, Slap(2)) == [WrongSlap(2, 0, True), LockedOut(2)]


def test_bottom_n_a_seat_emptied_by_the_penalty_is_out_at_once():
    g = new_game("bataille-corse", deal_spec="2345/6/7", options={"wrong_slap": "bottom-3"})
    events = play(g, Lay(0), Slap(1))
    assert WrongSlap(1, 1, False, "under") in events and SeatOut(1) in events


def test_lockout_n_no_slapping_for_the_next_n_cards_laid():
    g = new_game("egyptian-ratscrew", deal_spec="23456/789TJ", options={"wrong_slap": "lockout-2"})
    play(g, Lay(0))
    assert play(g, Slap(1)) == [WrongSlap(1, 0, True), LockedOut(1, 2)]
    assert len(g.packs[1]) == 5 and Slap(1) not in g.legal_actions()
    with pytest.raises(IllegalAction, match="until card 3"):
        g.apply(Slap(1))
    assert Unlocked(1) not in play(g, Lay(1))
    assert Unlocked(1) in play(g, Lay(0))
    assert Slap(1) in g.legal_actions()


def test_lockout_n_lasts_for_its_cards_even_past_a_won_pile():
    g = new_game("egyptian-ratscrew", deal_spec="55789/6234", options={"wrong_slap": "lockout-3"})
    play(g, Lay(0), Slap(1))              # seat 1 locked for 3 cards
    play(g, Lay(1), Lay(0))               # 6, 5: card 3 is the 5 -> unlocked after 2 more
    assert g.locked[1]
    play(g, Lay(1))
    assert not g.locked[1]


def test_gift_the_pile_and_the_pot_go_to_the_next_seat_in_play_after_the_slapper_with_3_seats():
    g = new_game("egyptian-ratscrew", deal_spec="2345/6789/TA45", options={"wrong_slap": "gift"})
    play(g, Lay(0), Lay(1))
    events = play(g, Slap(2))
    assert events[0] == WrongSlap(2, 0) and PileWon(0, "gift", 2, 0) in events
    assert g.current_seat() == 0 and not g.pile    # seat 0 leads the next trick
    play(g, Lay(0))
    assert PileWon(1, "gift", 1, 0) in play(g, Slap(0))


def test_gift_skips_a_seat_that_is_out():
    g = new_game("egyptian-ratscrew", deal_spec="2345/6/TA45", options={"wrong_slap": "gift"})
    play(g, Lay(0), Lay(1))                 # seat 1 lays its last card: out
    assert not g.in_play[1]
    assert PileWon(2, "gift", 2, 0) in play(g, Slap(0))


def test_gift_on_an_empty_pile_nothing_happens():
    g = new_game("egyptian-ratscrew", deal_spec="2345/6789/TA45", options={"wrong_slap": "gift"})
    before = g.state_key()
    assert play(g, Slap(1)) == [WrongSlap(1, 0)]
    assert g.state_key() == before


def test_gift_with_a_late_joiner_goes_to_the_next_seat_in_play_not_to_the_newcomer():
    g = new_game("egyptian-ratscrew", deal_spec="2345/6789", options={"wrong_slap": "gift"})
    play(g, Join(2), Lay(0), Lay(1))
    assert PileWon(0, "gift", 2, 0) in play(g, Slap(1))  # seat 2 joined but is not in play
    play(g, Lay(0))
    # the newcomer slaps wrong: the next seat in play after seat 2 is seat 0
    assert PileWon(0, "gift", 1, 0) in play(g, Slap(2))


# --- wrong_flip ------------------------------------------------------------------------------
def test_wrong_flip_a_flip_out_of_turn_costs_one_card_to_the_pot_at_most_once_per_card_laid():
    g = new_game("egyptian-ratscrew", deal_spec="2345/6789", options={"wrong_flip": "pot-1"})
    assert FlipOutOfTurn(0) not in g.legal_actions()     # seat 0's turn: its FLIP lays
    assert play(g, FlipOutOfTurn(1)) == [WrongFlip(1, 1)]
    assert ranks(g.pot) == "6"
    assert FlipOutOfTurn(1) not in g.legal_actions()     # once per card laid
    with pytest.raises(IllegalAction, match="costs nothing"):
        g.apply(FlipOutOfTurn(1))
    play(g, Lay(0))
    assert FlipOutOfTurn(0) in g.legal_actions() and FlipOutOfTurn(1) not in g.legal_actions()
    assert play(g, FlipOutOfTurn(0)) == [WrongFlip(0, 1)]


def test_wrong_flip_none_by_default_a_flip_out_of_turn_costs_nothing():
    g = new_game("egyptian-ratscrew", deal_spec="2345/6789")
    assert not any(isinstance(a, FlipOutOfTurn) for a in g.legal_actions())
    with pytest.raises(IllegalAction):
        g.apply(FlipOutOfTurn(1))


def test_wrong_flip_a_seat_emptied_by_it_is_out():
    g = new_game("egyptian-ratscrew", deal_spec="2345/6", options={"wrong_flip": "pot-1"})
    events = play(g, FlipOutOfTurn(1))
    assert WrongFlip(1, 1) in events and SeatOut(1) in events


def test_wrong_flip_at_the_table_a_flip_button_pressed_out_of_turn_pays_once_per_card():
    from device.clock import VirtualClock
    from device.inputs.script import ScriptedPress
    from device.journal.journal import MemoryJournal
    from device.rules.cards import parse_deal
    from device.table.arbiter import ArbiterSettings
    from device.table.runner import Runner
    from device.table.session import GameSpec, bot_hands, bot_minds, make_table
    from device.table.table import Seat, TableSettings

    ms = 1_000_000
    seats = [Seat(s, f"P{s}", station=s) for s in range(2)]
    spec = GameSpec("egyptian-ratscrew", 1, seats, {"wrong_flip": "pot-1"},
                    parse_deal("5234/6789"), arbiter=ArbiterSettings(),
                    table=TableSettings(flip_mode="buttons", auto_flip_timeout_ns=4000 * ms))
    table = make_table(spec, start_ns=0, journal=MemoryJournal())
    out: list = []
    runner = Runner(table, VirtualClock(0), hands=bot_hands(table), minds=bot_minds(table),
                    outputs=[lambda item, now: out.append(item)])
    runner.schedule_script([ScriptedPress(t * ms, t * ms, 1, "flip", "press") for t in (200, 300)])
    runner.run_virtual(limit_ns=400 * ms)
    assert [e for e in out if isinstance(e, WrongFlip)] == [WrongFlip(1, 1)]  # the second is free
    assert len(table.game.pot) == 1 and table.game.card_counts() == [4, 3]


# --- the menu's House rules ------------------------------------------------------------------
def test_the_menus_house_rules_come_in_three_groups_each_a_short_page():
    from device.screen.menu import Menu, Settings

    s = Settings(preset="egyptian-ratscrew")
    menu = Menu(s, "rules")
    assert menu.items() == ["rules:patterns", "rules:penalties", "rules:challenge", "rules:card", "back"]
    for page in ("rules:patterns", "rules:penalties", "rules:challenge"):
        menu.cursor = menu.items().index(page)
        menu.choose()
        assert menu.page == page and len(menu.items()) <= 12 and menu.items()[-1] == "up"
        menu.cursor = len(menu.items()) - 1
        menu.choose()
        assert menu.page == "rules" and menu.current() == page
    labels = {i.label for i in Menu(s, "rules:challenge").view().items}
    assert "option.tens_stop" in labels and "option.borrow" in labels


def test_the_menu_toggles_each_slap_pattern_with_one_hold():
    from device.screen.menu import Menu, Settings

    s = Settings(preset="egyptian-ratscrew")
    menu = Menu(s, "rules:patterns")
    menu.cursor = menu.items().index("pattern:run")
    menu.choose()
    menu.cursor = menu.items().index("pattern:sandwich")
    menu.choose()
    assert s.options == {"slaps": ["doubles", "sandwich", "run"]}
    assert new_game("egyptian-ratscrew", options=s.options).patterns == ("doubles", "sandwich", "run")
    menu.choose()
    menu.cursor = menu.items().index("pattern:run")
    menu.choose()
    assert s.options == {}  # back to the preset's default
    view = {i.label: i.value for i in Menu(s, "rules:patterns").view().items}
    assert view["pattern.flush"] == "value.off"


def test_the_menu_sets_the_wrong_slap_penalty_as_a_kind_and_a_number_of_cards():
    from device.screen.menu import PENALTY_KINDS, Menu, Settings

    s = Settings(preset="bataille-corse")
    menu = Menu(s, "rules:penalties")
    assert menu.items() == ["penalty:kind", "penalty:n", "option:wrong_flip", "up"]
    menu.cursor = 1
    menu.choose()
    assert s.options == {"wrong_slap": "pot-3"}
    seen = set()
    menu.cursor = 0
    for _ in PENALTY_KINDS:
        menu.choose()
        seen.add(s.option_value("wrong_slap"))
        menu.cursor = 0
    assert {"bottom-3", "lockout", "lockout-3", "gift", "none"} <= seen
    s.options = {"wrong_slap": "gift"}
    assert Menu(s, "rules:penalties").items() == ["penalty:kind", "option:wrong_flip", "up"]
    for rule in ("lockout-7", "bottom-2", "pot-1"):
        s.options = {"wrong_slap": rule}
        new_game("bataille-corse", options=s.options)


# --- the screen names the pattern ------------------------------------------------------------
def test_the_screen_names_the_pattern_that_won_a_slap_in_both_languages():
    from device.screen import i18n
    from device.screen.feed import Feed

    from device.table.table import ToShow

    feed = Feed(names=["Anna", "Ben"])
    for i, c in enumerate(cards("4S 5H 6D")):
        feed.push(ToShow(i + 1, i % 2, c), 0)
    feed.push(PileWon(1, "slap:run", 3, 0), 0)
    assert feed.won_pattern(1) == "run"
    assert i18n.tr("en", "slap.named.run") == "Run!" and i18n.tr("en", "slap.named.sandwich") == "Sandwich!"
    for lang in i18n.LANGUAGES:
        for p in SLAP_PATTERNS:
            assert i18n.tr(lang, f"slap.named.{p}") and i18n.describe(PileWon(0, f"slap:{p}", 3), lang) != "PileWon"
    feed.push(ToShow(4, 0, cards("KS")[0]), 2)
    feed.push(PileWon(0, "challenge", 1, 0), 2)
    assert feed.won_pattern(3) is None
