"""Information-set MCTS from Python: ``doudizhu.ismcts`` and ``doudizhu.bots.ISMCTS``."""

from __future__ import annotations

import numpy as np
import pytest

import doudizhu as dz
from doudizhu.bots import ISMCTS, DeterminizedBot


def after_auction(seed: int, rules: dz.Rules | None = None) -> dz.Game:
    game = dz.Game(seed=seed, rules=rules or dz.Rules())
    while game.phase == "bidding":
        game.step(game.legal_actions()[-1])
    return game


# laizi2: the landlord's first lead has 80,793 actions (each simulation once generated
# them all again, and chose its rollout's first action among them).
@pytest.mark.parametrize("preset", ["standard", "laizi2"])
def test_the_root_statistics_cover_the_budget_in_legal_order(preset: str) -> None:
    game = after_auction(3, dz.Rules.preset(preset))
    result = dz.ismcts(game, simulations=300, seed=1, threads=2)
    assert result.actions == game.legal_actions()
    assert int(result.visits.sum()) == 300 and result.visits.dtype == np.int64
    assert np.all(np.abs(result.value) <= 1)
    assert result.best == result.actions[int(np.argmax(result.visits))]


def test_a_seed_budget_and_thread_count_fix_the_search() -> None:
    game = after_auction(5)
    one, two = (dz.ismcts(game, 400, seed=7, threads=2) for _ in range(2))
    np.testing.assert_array_equal(one.visits, two.visits)
    np.testing.assert_array_equal(one.value, two.value)


def test_a_budget_of_seconds_ends_the_search_at_the_first_budget_spent() -> None:
    game = after_auction(4)
    by_time = dz.ismcts(game, simulations=10**7, seconds=0.05, threads=2)  # 10M simulations: minutes
    assert 2 <= int(by_time.visits.sum()) < 10**7
    # One simulation at least, the first tree's: 256 trees each running one on two cores
    # took a 1 ms budget to 1.25 s under laizi2, where a simulation takes a millisecond.
    assert int(dz.ismcts(game, simulations=None, seconds=1e-9, threads=2).visits.sum()) == 1
    by_count = dz.ismcts(game, simulations=300, seconds=10**6, seed=1, threads=2)  # the simulations end it
    np.testing.assert_array_equal(by_count.visits, dz.ismcts(game, simulations=300, seed=1, threads=2).visits)
    bot = ISMCTS(simulations=None, seconds=0.01)
    assert bot.act(game) in game.legal_actions() and repr(bot).endswith("threads=1, seconds=0.01)")


def test_a_budget_of_seconds_bounds_the_endgame_search_after_the_search() -> None:
    # The heuristic's endgame search after the search ran off the clock: a bot with 10 ms a
    # play took 1.2 s under laizi2 (8 worlds of 15,432 actions). It now has as long again as
    # the search, the worlds searched by then counting; past 1e-9 s no world is left.
    game = dz.Game(seed=2, rules=dz.Rules.preset("douzero"))
    for _ in range(30):
        game.step(dz.choose_action(game, "fast_heuristic", 0))
    unchecked = ISMCTS(simulations=1, endgame=False).act(game)
    assert ISMCTS(simulations=1).act(game) != unchecked  # the endgame search changes this choice
    assert ISMCTS(simulations=None, seconds=1e-9).act(game) == unchecked


def test_the_search_reads_only_what_the_seat_to_move_knows() -> None:
    for seed in (11, 12, 13):
        game = after_auction(seed)
        other = dz.sample_worlds(game, game.to_move, 1, seed=seed)[0]  # the hidden cards dealt otherwise
        assert [other.hand(s) for s in range(3)] != [game.hand(s) for s in range(3)]
        a, b = dz.ismcts(game, 200, seed=seed), dz.ismcts(other, 200, seed=seed)
        np.testing.assert_array_equal(a.visits, b.visits)


def test_the_search_finds_the_solvers_won_line() -> None:
    game = dz.Game.from_position(["QA", "3K", "5"], landlord=0, to_move=1)  # lead the 3: the partner's 5 goes out
    result = dz.ismcts(game, 500, seed=2)
    assert result.best == dz.solve(game).move and result.value[result.actions.index(result.best)] > 0.9


@pytest.mark.parametrize("hands, to_move", [(["3579", "44", "4"], 0), (["44", "3579", "44"], 1)])
def test_leaf_values_judge_each_new_node_by_the_networks(hands: list[str], to_move: int) -> None:
    # Every card the searching seat cannot see is a four, so its worlds are one; a budget
    # of one simulation an action expands each once, valued by the networks' best action
    # at the position it leads to: for the searching side as it stands where the seat to
    # move there is of that side (the landlord's own next turn, or a peasant's partner),
    # else reversed.
    game = dz.Game.from_position(hands, 0, to_move=to_move, rules=dz.Rules.preset("douzero"))
    legal = game.legal_actions()
    result = dz.ismcts(game, len(legal), leaf="values", seed=3)
    expected = []
    for action in legal:
        child = game.copy()
        child.step(action)
        best = min(1.0, max(-1.0, float(dz.bots.shipped_network().values(child).max())))
        expected.append(best if (child.to_move == 0) == (to_move == 0) else -best)
    np.testing.assert_array_equal(result.visits, np.ones(len(legal)))
    np.testing.assert_allclose(result.value, expected, rtol=0, atol=1e-6)
    assert not np.array_equal(result.value, dz.ismcts(game, len(legal), seed=3).value)  # not the rollouts'


def test_leaf_values_repeat_for_a_seed_on_threads() -> None:
    game = after_auction(4, dz.Rules.preset("douzero"))
    a, b = (dz.ismcts(game, 300, leaf="values", seed=6, threads=2) for _ in range(2))
    np.testing.assert_array_equal(a.visits, b.visits)
    np.testing.assert_array_equal(a.value, b.value)


def test_the_networks_must_read_the_position_before_the_search() -> None:
    # A two-hand puzzle under DouZero's rules: its first leaf or neural rollout failed
    # inside the search, a ValueError that named neither.
    puzzle = dz.Game.from_position(["3579", "4"], 0, to_move=0, rules=dz.Rules.preset("douzero"))
    two_hands = "the neural networks play a hand of 3 seats, not a position of 2 hands: play it with the heuristic"
    with pytest.raises(ValueError, match=f"^leaf values: {two_hands}"):
        dz.ismcts(puzzle, 10, leaf="values")
    with pytest.raises(ValueError, match=f"^rollout: {two_hands}"):
        dz.ismcts(puzzle, 10, rollout="neural")
    assert dz.ismcts(puzzle, 10).visits.sum() == 10
    # The bot itself said "DouZero's encoding is for three seats" of a puzzle it was handed.
    with pytest.raises(ValueError, match=f"^{two_hands}"):
        dz.bots.Neural().act(puzzle)
    with pytest.raises(ValueError, match=f"^{two_hands}"):
        dz.playout(puzzle, "neural")


def test_leaf_values_need_networks_that_play_the_rules() -> None:
    run_fast = dz.Game(seed=1, rules=dz.Rules.preset("run_fast"))
    with pytest.raises(dz.NetworkError, match="leaf values"):
        dz.ismcts(run_fast, 10, rollout="random", leaf="values")
    with pytest.raises(ValueError, match="leaf must be 'rollout' or 'values', not 'value'"):
        dz.ismcts(after_auction(2), 10, leaf="value")
    bot = ISMCTS(simulations=30, leaf="values")
    assert repr(bot).endswith("leaf='values')")
    result = dz.evaluate(bot, "random", deals=2, rules=dz.Rules.preset("douzero"))
    assert result.games == 4


def test_a_result_is_a_win_or_a_loss_whatever_the_payout() -> None:
    # Under Run Fast the first out wins, though a loser holding one card pays nothing:
    # the search scored the payout's sign, so going out with the pair was worth 0.
    game = dz.Game.from_position(["33", "5", "6"], None, to_move=0, rules=dz.Rules.preset("run_fast"))
    result = dz.ismcts(game, 20, seed=1)
    assert [str(action) for action in result.actions] == ["3", "33"] and result.value[1] == 1.0


def test_the_plan_stands_against_actions_simulated_too_few_times() -> None:
    # With more leads than simulations each lead was simulated once, and the first of
    # them, one rollout won against the plan's one lost, replaced the plan.
    for seed in range(10, 20):
        game = dz.Game(seed=seed, rules=dz.Rules(bidding="none"))
        assert len(game.legal_actions()) > 30
        plan = dz.choose_action(game, "fast_heuristic", 0)
        assert ISMCTS(simulations=30, endgame=False, seed=7).act(game) == plan


@pytest.mark.parametrize("rollout", ["random", "fast_heuristic", "heuristic", "neural"])
def test_the_bot_plays_whole_hands_with_any_built_in_rollout(rollout: str) -> None:
    bot = ISMCTS(simulations=20, rollout=rollout, seed=4)
    game = dz.Game(seed=9)
    while game.phase != "over":
        action = bot.act(game) if game.to_move == 0 else dz.choose_action(game, "fast_heuristic", 0)
        assert action in game.legal_actions()
        game.step(action)
    result = dz.evaluate(ISMCTS(simulations=10, rollout=rollout), "random", deals=3, rules=dz.Rules.preset("douzero"),
                         seed=1)
    assert result.games == 6


@pytest.mark.parametrize("kwargs, error, says", [
    ({"simulations": 0}, ValueError, "simulations"),
    ({"simulations": 1.5}, TypeError, "simulations"),
    ({"exploration": -1.0}, ValueError, "exploration"),
    ({"exploration": True}, TypeError, "exploration"),
    ({"exploration": float("nan")}, ValueError, "exploration"),
    ({"threads": 0}, ValueError, "threads"),
    ({"rollout": "nobody"}, ValueError, "nobody"),
    ({"seconds": 0}, ValueError, r"seconds must be a number of seconds in \(0\.0, "),
    ({"seconds": float("inf")}, ValueError, "seconds"),
    ({"seconds": True}, TypeError, "seconds"),
    ({"seconds": 10**400}, ValueError, "seconds"),
    ({"simulations": None}, ValueError, "simulations and seconds are both None: the search needs a budget"),
])
def test_bad_arguments_are_refused_by_name(kwargs: dict[str, object], error: type[Exception], says: str) -> None:
    with pytest.raises(error, match=says):
        dz.ismcts(after_auction(1), **kwargs)  # type: ignore[arg-type]


def test_a_finished_hand_or_rules_the_rollout_cannot_play_are_refused() -> None:
    over = dz.playout(dz.Game(seed=1), "random", 1)
    with pytest.raises(ValueError, match="over"):
        dz.ismcts(over)
    with pytest.raises(dz.NetworkError, match="three seats of 17 cards"):
        dz.ismcts(after_auction(1, dz.Rules.preset("laizi")), 10, rollout="neural")


# --- the built-in policy "ismcts" and the bot as a policy -----------------------------------


def test_ismcts_is_a_built_in_policy_and_the_bot_at_its_defaults_is_it() -> None:
    assert "ismcts" in dz.POLICIES
    game = after_auction(8)
    for seed in (0, 1):
        assert dz.choose_action(game, "ismcts", seed) == ISMCTS(seed=seed).act(game)
    assert ISMCTS(seed=3).act(game) in game.legal_actions()


def test_the_bot_plays_the_same_legal_games_for_a_seed_in_selfplay() -> None:
    players = [ISMCTS(simulations=16), "random", ISMCTS(simulations=16, rollout="random", endgame=False)]
    one, two = (dz.selfplay(3, policy=players, seed=2, threads=2, record=True) for _ in range(2))
    assert np.array_equal(one.payouts, two.payouts) and np.array_equal(one.actions, two.actions)
    assert one.actions is not None and one.offsets is not None
    for i in range(3):  # every recorded action replays legally from the deal
        deal_seed, first_bidder, _ = dz._core.selfplay_deal(None, 2, i)
        game = dz.Game(seed=deal_seed, first_bidder=first_bidder)
        for seat, action in dz.actions_from_rows(one.actions[one.offsets[i]:one.offsets[i + 1]]):
            assert game.to_move == seat and action in game.legal_actions()
            game.step(action)
        assert game.phase == "over"


def test_the_bot_is_an_opponent_in_a_vector_env() -> None:
    from doudizhu.envs import VectorEnv

    env = VectorEnv(2, learners=0, opponents=[ISMCTS(simulations=8), "random", "random"], seed=1)
    batch, finished = env.reset(), 0
    while finished < 2:
        batch = env.step(np.zeros(len(batch.env), dtype=np.int64))  # seat 0 plays its first legal action
        finished += len(batch.finished.env)


def test_the_command_line_and_the_browser_name_it() -> None:
    from doudizhu.cli import build_parser
    from doudizhu.web import players

    args = build_parser().parse_args(["evaluate", "ismcts", "heuristic"])
    assert (args.a, args.b) == ("ismcts", "heuristic")
    assert "ismcts" in players.available() and isinstance(players.make("ismcts", 1, dz.Rules()), ISMCTS)


@pytest.mark.parametrize("given, error, says", [
    ({"rollout": "ismcts"}, ValueError, "rollout: ISMCTS cannot roll out by ISMCTS"),
    ({"rollout": ISMCTS()}, ValueError, "rollout: ISMCTS cannot roll out by ISMCTS"),
    ({"simulations": 0}, ValueError, "simulations"),
    ({"simulations": 2.5}, TypeError, "simulations"),
    ({"simulations": 10**7 + 1}, ValueError, r"simulations must be in 1\.\.10000000"),  # the tree's memory
    ({"exploration": float("inf")}, ValueError, "exploration"),
    ({"threads": 0}, ValueError, "threads"),
    ({"rollout": "nobody"}, ValueError, "rollout: unknown policy 'nobody'"),
    ({"rollout": None}, TypeError, "rollout: policy must be a built-in policy name or built-in bot, not NoneType"),
    ({"rollout": DeterminizedBot()}, TypeError, "rollout: .* built-in bot, not DeterminizedBot"),
    ({"endgame": "no"}, TypeError, "endgame must be True or False"),
    ({"seconds": -0.5}, ValueError, "seconds must be a number of seconds"),
    ({"seconds": "1"}, TypeError, "seconds"),
    ({"simulations": None}, ValueError, "simulations and seconds are both None"),
    ({"seed": -1}, ValueError, r"seed must be in 0\.\.2\*\*64-1, not -1"),  # a runner draws its own, but refuses it too
    ({"seed": "1"}, TypeError, "seed must be an int"),
])
def test_the_bot_refuses_bad_parameters_when_made_and_wherever_it_is_used(given: dict[str, object],
                                                                          error: type[Exception], says: str) -> None:
    with pytest.raises(error, match=says):
        ISMCTS(**given)  # type: ignore[arg-type]
    bot = ISMCTS(simulations=5)
    vars(bot).update(given)  # changed after it was made: refused where it plays
    with pytest.raises(error, match=says):
        bot.act(after_auction(1))
    with pytest.raises(error, match=says):
        dz.evaluate(bot, "random", deals=1)


def test_playout_rollouts_and_choose_action_name_a_bots_seed_as_the_policys() -> None:
    # "seed must be ... not -1" read as their own seed=0's refusal.
    bot = ISMCTS(simulations=5)
    bot.seed = -1
    for use in (lambda: dz.playout(after_auction(1), bot, seed=0), lambda: dz.rollouts(after_auction(1), bot, seed=0),
                lambda: dz.rollouts(after_auction(1), [bot, "random", "random"]),
                lambda: dz.choose_action(after_auction(1), bot, 1)):
        with pytest.raises(ValueError, match=r"^policy: seed must be in 0\.\.2\*\*64-1, not -1"):
            use()


def test_a_seed_property_that_raises_is_raised_wherever_the_bot_plays() -> None:
    # hasattr took the property's own error for "no seed": the runners played the bot.
    class Unseeded(ISMCTS):
        @property  # type: ignore[override]
        def seed(self) -> int:
            raise LookupError("no seed today")

        @seed.setter
        def seed(self, value: int) -> None:
            pass

    bot = Unseeded(simulations=5)
    game = after_auction(1)
    for use in (lambda: bot.act(game), lambda: dz.selfplay(1, bot), lambda: dz.playout(game, bot)):
        with pytest.raises(LookupError, match="no seed today"):
            use()


def test_the_search_refuses_more_simulations_than_its_tree_can_hold() -> None:
    with pytest.raises(ValueError, match=r"simulations must be in 1\.\.10000000"):
        dz.ismcts(after_auction(1), 10**7 + 1)


@pytest.mark.parametrize("rollout", ["ismcts", ISMCTS(simulations=5)], ids=repr)
def test_the_search_refuses_to_roll_out_by_itself(rollout: object) -> None:
    with pytest.raises(ValueError, match="rollout: ISMCTS cannot roll out by ISMCTS"):
        dz.ismcts(after_auction(1), 10, rollout=rollout)


@pytest.mark.parametrize("cycle", [1, 2])
def test_a_bot_that_rolls_out_by_itself_is_refused_not_recursed_into(cycle: int) -> None:
    bot, other = ISMCTS(simulations=10), ISMCTS(simulations=10)
    other.rollout = bot  # made first: a bot made with an ISMCTS rollout is refused at once
    bot.rollout = bot if cycle == 1 else other
    uses = [lambda: bot.act(after_auction(1)), lambda: dz.selfplay(1, bot),
            lambda: dz.ismcts(after_auction(1), 10, rollout=bot), lambda: dz.playout(after_auction(1), bot)]
    for use in uses:
        with pytest.raises(ValueError, match="rollout: ISMCTS cannot roll out by ISMCTS"):
            use()


def test_one_legal_action_is_no_search() -> None:
    game = dz.Game.from_position(["3", "4", "5"], landlord=0, to_move=1, last="2", last_by=0)
    result = dz.ismcts(game, simulations=50)
    assert result.actions == [dz.Action.pass_()] and result.visits.tolist() == [0] and result.best == dz.Action.pass_()


def test_a_subclass_may_set_its_parameters_after_the_parents_init() -> None:
    # Checking the parameters as the bot is made refused a subclass that gives its budget
    # after super().__init__; it is checked where it plays.
    class Timed(ISMCTS):
        def __init__(self) -> None:
            super().__init__(simulations=None)
            self.seconds = 0.02

    assert Timed().act(after_auction(1)) in after_auction(1).legal_actions()
    with pytest.raises(ValueError, match="simulations and seconds are both None"):
        ISMCTS(simulations=None)
