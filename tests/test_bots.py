"""Norvégienne bots: the rule-based bot's choices, the random bot's fairness, and the benchmark."""

from __future__ import annotations

from norvegienne_positions import c, cs, position

from device.bench.bots import main, match
from device.bots.minds import RandomBot, RuleBot, decider, make_players
from device.rules.actions import PickUp, Play, Ready, Swap, Target
from device.rules.cards import ACE, KING, QUEEN
from device.rules.presets import new_game
from device.rules.rng import Streams


class OnlyRandom:
    """A stream that offers nothing but ``random()``: a bot calling anything else fails."""

    def __init__(self, seed: int) -> None:
        self._rng = Streams(seed)["only"]

    def random(self) -> float:
        return self._rng.random()


def rule_bot() -> RuleBot:
    return RuleBot(OnlyRandom(1))  # type: ignore[arg-type]


def test_rule_bot_beats_a_random_legal_player_in_at_least_70_percent_of_2_seat_games():
    result = match(200)
    assert result.games == 200
    assert result.win_rate >= 0.70, result


def test_rule_bot_puts_2s_10s_and_high_cards_face_up_in_the_swap_phase():
    game = new_game("norvegienne", players=2, seed=3)
    bot = rule_bot()
    while game.phase == "swap" and game.current_seat() == 0:
        game.apply(bot.choose(game, 0))
    value = {2: 17, 10: 16, ACE: 15}
    six = sorted(game.hands[0] + game.up[0], key=lambda x: value.get(x >> 2, x >> 2))
    assert sorted(v >> 2 for v in game.up[0]) == sorted(v >> 2 for v in six[3:])


def test_rule_bot_lays_the_lowest_playable_rank_all_together_and_saves_2_10_and_ace():
    game = position([cs(2, 10, ACE, 9, 9, 5, KING), cs(4)], pile=[c(6)])
    action = rule_bot().choose(game, 0)
    assert isinstance(action, Play) and [x >> 2 for x in action.cards] == [9, 9]


def test_rule_bot_sends_a_big_pile_away_with_an_ace_when_nothing_ordinary_goes():
    game = position([cs(2, 10, ACE, 5), cs(4)], pile=cs(6, 8, 9, QUEEN, KING))
    action = rule_bot().choose(game, 0)
    assert isinstance(action, Play) and action.cards[0] >> 2 == ACE


def test_rule_bot_sends_the_pile_to_the_seat_with_fewest_cards():
    game = position([cs(ACE, 5), cs(4, 4, 4), cs(6)], pile=[c(9)])
    bot = rule_bot()
    game.apply(bot.choose(game, 0))
    assert bot.choose(game, 0) == Target(0, 2)


def test_rule_bot_answers_an_ace_with_an_ace():
    game = position([cs(ACE, 5), cs(ACE, 2, 4)], pile=[c(9)])
    game.apply(Play(0, (game.hands[0][0],)))
    game.apply(Target(0, 1))
    action = rule_bot().choose(game, 1)
    assert isinstance(action, Play) and [x >> 2 for x in action.cards] == [ACE]


def test_rule_bot_picks_up_only_when_forced():
    game = position([cs(KING, 4), cs(5)], pile=[c(9)], options={"voluntary_pickup": True})
    assert PickUp(0) in game.legal_actions()
    assert rule_bot().choose(game, 0) != PickUp(0)
    stuck = position([cs(4), cs(5)], pile=[c(9)])
    assert rule_bot().choose(stuck, 0) == PickUp(0)


def test_random_bot_chooses_uniformly_among_legal_actions_using_only_random():
    game = new_game("norvegienne", players=2, seed=2)
    legal = game.legal_actions()
    bot = RandomBot(OnlyRandom(9))  # type: ignore[arg-type]
    picks = [bot.choose(game, 0) for _ in range(2000)]
    assert set(picks) == set(legal)
    assert all(abs(picks.count(a) - 2000 / len(legal)) < 2000 / len(legal) * 0.4 for a in legal)
    assert {type(a) for a in legal} == {Swap, Ready}


def test_bots_replay_the_same_game_from_the_same_seed_for_2_to_6_seats():
    for players in range(2, 7):
        kinds = ["rule", "random"] * 3
        finals = []
        for _ in range(2):
            game = new_game("norvegienne", players=players, seed=players)
            outcome = game.play_out(decider(make_players(kinds[:players], game.streams)))
            finals.append((outcome, game.snapshot()))
        assert finals[0] == finals[1]
        assert finals[0][0].termination in ("win", "limit")


def test_botmatch_prints_the_rule_bots_win_rate(capsys):
    assert main(["--games", "4", "--seed", "10"]) == 0
    out = capsys.readouterr().out
    assert "4 games" in out and "rule bot won" in out and "%" in out
