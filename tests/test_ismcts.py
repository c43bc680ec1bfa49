"""Information-set MCTS from Python: ``doudizhu.ismcts`` and ``doudizhu.bots.ISMCTS``."""

from __future__ import annotations

import numpy as np
import pytest

import doudizhu as dz
from doudizhu.bots import ISMCTS


def after_auction(seed: int, rules: dz.Rules | None = None) -> dz.Game:
    game = dz.Game(seed=seed, rules=rules or dz.Rules())
    while game.phase == "bidding":
        game.step(game.legal_actions()[-1])
    return game


def test_the_root_statistics_cover_the_budget_in_legal_order() -> None:
    game = after_auction(3)
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
])
def test_bad_arguments_are_refused_by_name(kwargs: dict[str, object], error: type[Exception], says: str) -> None:
    with pytest.raises(error, match=says):
        dz.ismcts(after_auction(1), **kwargs)  # type: ignore[arg-type]


def test_a_finished_hand_or_rules_the_rollout_cannot_play_are_refused() -> None:
    over = dz.playout(dz.Game(seed=1), "random", 1)
    with pytest.raises(ValueError, match="over"):
        dz.ismcts(over)
    with pytest.raises(dz.NetworkError, match="three seats of one deck"):
        dz.ismcts(after_auction(1, dz.Rules.preset("laizi")), 10, rollout="neural")
