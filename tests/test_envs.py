"""The PettingZoo and Gymnasium environments: the libraries' own checkers, whole seeded
hands with random legal actions, masks against the game's legal actions, payouts."""

from __future__ import annotations

import fractions
import itertools
import pickle
import subprocess
import sys
import warnings
from typing import Any, Callable

import numpy as np
import pytest

import doudizhu as dz
from doudizhu import render

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from doudizhu.envs import gymnasium as dz_gym  # noqa: E402
from doudizhu.envs import pettingzoo as dz_pz  # noqa: E402

RULES = [
    dz.Rules(),
    dz.Rules(bidding="call_rob"),
    dz.Rules.preset("rlcard"),   # no bidding: the first bidder is the landlord
    dz.Rules.preset("openspiel"),  # hands nobody bids for are void
    dz.Rules.preset("four_player"),
    dz.Rules.preset("laizi"),  # a play is its combination, then what its wild cards stand in for
    dz.Rules.preset("laizi2"),  # the combination, then what each wild rank's cards stand in for
]
# PettingZoo's api_test warns about every dict observation of an environment missing
# from its own list of classic games, though dicts with "action_mask" are its convention.
DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def test_importing_the_package_imports_neither_library() -> None:
    code = (
        "import sys, doudizhu, doudizhu.envs, doudizhu.actions, doudizhu.encode\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('gymnasium', 'pettingzoo')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# ---- PettingZoo -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.bidding}-{r.players}{'-wild' * r.wild}")
def test_pettingzoo_api_test(rules: dz.Rules) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(dz_pz.env(rules=rules), num_cycles=300)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)]
    assert unexpected == []


def expected_mask(space: dz.ActionSpace, game: dz.Game, chosen: int, chosen_low: int = -1) -> np.ndarray:
    """The legal ids from the game's legal actions: the space's ids (of the combinations,
    under wild-card rules), or, once a combination is chosen, its readings' stand-in ids
    after them: with two wild ranks, first the lower rank's part of them, then, once that
    is chosen, the higher's."""
    n = dz.ActionSpace.STAND_IN_IDS
    mask = np.zeros(len(space) + (n if space.rules.wild else 0), dtype=bool)
    for action in game.legal_actions():
        if chosen < 0:
            mask[space.id(action)] = True
        elif space.id(action) == chosen:
            reading = space.stand_in_id(action, game.wild_ranks)
            if space.rules.wild < 2:
                mask[len(space) + reading] = True
            elif chosen_low < 0:
                mask[len(space) + reading % n] = True
            elif reading % n == chosen_low:
                mask[len(space) + reading // n] = True
    return mask


def _random_hand_pz(env, seed: int) -> tuple[list[int], dict[str, float]]:
    """One hand with random legal ids, checking masks and spaces; returns the actions
    and the rewards the agents collected."""
    env.reset(seed=seed)
    raw = env.unwrapped
    rng = np.random.default_rng(seed)
    collected = {agent: 0.0 for agent in env.possible_agents}
    played: list[int] = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        collected[agent] += reward
        assert env.observation_space(agent).contains(obs)
        game = raw.game
        if terminated or truncated:
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        assert env.possible_agents[game.to_move] == agent
        expected = expected_mask(raw.space, game, obs.get("chosen", -1), obs.get("chosen_low", -1))
        assert np.array_equal(obs["action_mask"].astype(bool), expected)
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        played.append(action)
        env.step(action)
    return played, collected


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.bidding}-{r.players}{'-wild' * r.wild}")
def test_pettingzoo_hands_end_with_zero_sum_payouts(rules: dz.Rules) -> None:
    env = dz_pz.env(rules=rules, reward_scale=0.5)
    for seed in range(12):
        played, collected = _random_hand_pz(env, seed)
        result = env.unwrapped.game.result
        assert result is not None and len(played) > 0
        assert collected == {f"seat_{s}": 0.5 * p for s, p in enumerate(result.payouts[: rules.players])}
        assert sum(collected.values()) == 0
        assert env.agents == []
        # A seeded reset replays the hand.
        assert _random_hand_pz(env, seed)[0] == played


def test_a_pickled_pettingzoo_env_plays_on_as_the_original() -> None:
    env = dz_pz.env(rules=dz.Rules.preset("laizi"))
    env.reset(seed=2)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[-1]))
    twin = pickle.loads(pickle.dumps(env))

    def lowest_ids_to_the_end(env) -> list[tuple[str, float, int]]:
        seen = []
        for agent in env.agent_iter():
            obs, reward, terminated, _, _ = env.last()
            seen.append((agent, reward, env.unwrapped.game.hash))
            env.step(None if terminated else int(np.flatnonzero(obs["action_mask"])[0]))
        return seen

    played = lowest_ids_to_the_end(env)
    assert len(played) > 3 and lowest_ids_to_the_end(twin) == played


def test_pettingzoo_illegal_actions() -> None:
    env = dz_pz.env(illegal_reward=-3.0)
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.last()[0]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    env.step(illegal)
    assert env.rewards[agent] == -3.0 and all(env.terminations.values())
    assert env.infos[agent]["illegal_action"] is True
    assert not env.observe(agent)["action_mask"].any()  # the hand is unfinished, but nothing is legal now
    strict = dz_pz.env(illegal_reward=None)
    strict.reset(seed=1)
    with pytest.raises(dz.IllegalActionError, match="not legal"):
        strict.step(illegal)


def test_reset_seeds_are_ints_in_0_to_2_64_minus_1_as_everywhere() -> None:
    # 2**64 was taken (NumPy seeds from any int) and -1 refused in Gymnasium's own error.
    for env in (dz_gym.DouDizhuEnv(seat=0), dz_pz.env()):
        for seed, error in ((2**64, ValueError), (-1, ValueError), (1.0, TypeError), (True, TypeError)):
            with pytest.raises(error, match="seed must be"):
                env.reset(seed=seed)
        env.reset(seed=2**64 - 1)


def test_a_numpy_integer_seed_deals_as_the_same_int() -> None:
    # Gymnasium's own reset refused np.int64(5) ("Seed must be a python integer") after the
    # package's check had taken it, as every other seed of the package takes it.
    for make in (lambda: dz_gym.DouDizhuEnv(seat=0), dz_pz.env):
        by_numpy, by_int = make(), make()
        by_numpy.reset(seed=np.int64(5))
        by_int.reset(seed=5)
        assert by_numpy.game.hash == by_int.game.hash


@pytest.mark.parametrize("illegal_reward", [-1.0, None])
def test_an_id_outside_the_action_space_is_refused_not_played(illegal_reward: float | None) -> None:
    # -1 (a learner's sentinel) or n and past name no action: they ended the hand as an
    # illegal action, with illegal_reward, where the space's own ids are refused as such.
    gym_env = dz_gym.DouDizhuEnv(seat=0, opponents="random", illegal_reward=illegal_reward)
    gym_env.reset(seed=0)
    pz_env = dz_pz.env(illegal_reward=illegal_reward)
    pz_env.reset(seed=0)
    sizes = (int(gym_env.action_space.n), int(pz_env.action_space(pz_env.agent_selection).n))
    for env, n in zip((gym_env, pz_env), sizes):
        before = env.unwrapped.game.history
        for outside in (-1, n, 2**63, np.uint64(2**64 - 1), 10**30):
            with pytest.raises(ValueError, match=r"action id must be in 0\.\."):
                env.step(outside)
        assert env.unwrapped.game.history == before


def test_pettingzoo_bad_arguments() -> None:
    with pytest.raises(TypeError, match="rules must be a Rules"):
        dz_pz.raw_env(rules="standard")
    with pytest.raises(ValueError, match="render_mode"):
        dz_pz.raw_env(render_mode="rgb_array")
    for make in (dz_pz.raw_env, dz_gym.DouDizhuEnv):  # not a mode: a TypeError, as other arguments' types are
        with pytest.raises(TypeError, match="render_mode must be None, 'human' or 'ansi', not int"):
            make(render_mode=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reward_scale"):
        dz_pz.raw_env(reward_scale=float("nan"))


def test_gymnasium_opponents_errors_name_the_argument() -> None:
    with pytest.raises(TypeError, match=r"^opponents must be a built-in name"):
        dz_gym.DouDizhuEnv(opponents=3)
    with pytest.raises(ValueError, match=r"^opponents: give one policy, or one per seat \(2\)"):
        dz_gym.DouDizhuEnv(opponents=["random"] * 3)
    with pytest.raises(TypeError, match=r"^opponents\[1\] must be"):
        dz_gym.DouDizhuEnv(opponents=["random", 3])


def test_an_opponents_own_refusal_of_the_rules_comes_through_whole() -> None:
    # Rebuilt as type(error)("opponents: ..."), an error whose constructor takes more than a
    # message became a TypeError about that constructor, the bot's reason lost.
    class Refusal(ValueError):
        def __init__(self, code: int, detail: str) -> None:
            super().__init__(f"code {code}: {detail}")

    class Picky(dz.bots.Bot):
        def check(self, rules: dz.Rules) -> None:
            raise Refusal(7, "plays douzero only")

        def act(self, game: dz.Game) -> dz.Action:
            return game.legal_actions()[0]

    with pytest.raises(Refusal) as caught:
        dz_gym.DouDizhuEnv(opponents=Picky())
    assert str(caught.value) == "code 7: plays douzero only"
    assert caught.value.__notes__ == ["raised by the bot Picky checking the rules"]


@pytest.mark.parametrize("seat", ["0", 0.0, True, np.timedelta64(0)])
def test_a_seat_that_is_no_int_is_a_type_error(seat: object) -> None:
    # numpy.timedelta64 counts as one of NumPy's integers, but is a duration.
    with pytest.raises(TypeError, match="seat must be an int or None"):
        dz_gym.DouDizhuEnv(seat=seat)


# A timedelta64 is a duration (NumPy registers it as a Real; one without a unit was a
# reward, one with a unit a bare float() error), a Fraction no number the core reads.
@pytest.mark.parametrize(("name", "value"), [("reward_scale", "1"), ("reward_scale", True), ("reward_scale", None),
                                             ("illegal_reward", "x"), ("illegal_reward", [1.0]),
                                             ("reward_scale", np.timedelta64(2)),
                                             ("illegal_reward", np.timedelta64(-3)),
                                             ("reward_scale", np.timedelta64(2, "s")),
                                             ("reward_scale", fractions.Fraction(1, 2))])
def test_rewards_that_are_no_numbers_are_type_errors_naming_them(name: str, value: object) -> None:
    for make in (dz_pz.raw_env, dz_gym.DouDizhuEnv):
        with pytest.raises(TypeError, match=f"{name} must be a finite number.*, not {type(value).__name__}"):
            make(**{name: value})


@pytest.mark.parametrize(("name", "value", "message"), [
    ("reward_scale", float("nan"), r"reward_scale must be a finite number in -1e\+12\.\.1e\+12, not nan"),
    ("illegal_reward", float("-inf"), r"illegal_reward must be a finite number in -1e\+12\.\.1e\+12 or None, not -inf"),
])
def test_rewards_that_are_not_finite_are_value_errors_naming_them(name: str, value: float, message: str) -> None:
    for make in (dz_pz.raw_env, dz_gym.DouDizhuEnv):
        with pytest.raises(ValueError, match=message):
            make(**{name: value})


def test_pettingzoo_render() -> None:
    env = dz_pz.env(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "seat 0 (bidding): " in text and "phase bidding, high bid none yet" in text


@pytest.mark.parametrize("preset, says", [("laizi", "wild"), ("run_fast", "(for itself)"), ("standard", "payouts: "),
                                          ("happy", "over: ")])
def test_the_text_render_says_the_table_in_the_pictures_words(preset: str, says: str) -> None:
    # It said 'landlord None' under run_fast, never the wild rank, and 'to beat' beside the payouts.
    env = dz_pz.env(render_mode="ansi", rules=dz.Rules.preset(preset))
    env.reset(seed=3)
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    game = env.unwrapped.game
    text = env.render()
    assert says in text and "landlord None" not in text and "to beat" not in text
    assert text.endswith("\n".join(render.outcome(game)))
    wild = f", {render.wild_names(game)} wild" if game.wild_ranks else ""
    assert text.splitlines()[0] == f"phase over, {render.stake_text(game)}{wild}"
    if game.landlord is not None:  # the settlement's multiplier, not the live one (happy: x 4 over x 8)
        assert f"x {game.result.multiplier}" in text.splitlines()[0]
    assert all(f"seat {seat} ({render.role(game, seat)}): {game.hand(seat)}" in text for seat in range(game.seats))


# ---- Gymnasium --------------------------------------------------------------------------


def test_gymnasium_registered_and_made() -> None:
    assert dz_gym.ENV_ID in gym.registry
    env = gym.make(dz_gym.ENV_ID, opponents="random", seat=2)
    obs, info = env.reset(seed=0)
    assert env.unwrapped.seat == 2 and info["seat"] == 2
    assert obs["observation"].shape == dz.encode.OBSERVATION_SHAPE


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.bidding}-{r.players}{'-wild' * r.wild}")
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_gymnasium_check_env(rules: dz.Rules, opponents: str) -> None:
    env = gym.make(dz_gym.ENV_ID, rules=rules, opponents=opponents, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def _random_hand_gym(env, seed: int) -> tuple[list[int], float, dict]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, total = [], 0.0
    while True:
        assert env.observation_space.contains(obs)
        game = env.game
        assert game.to_move == env.seat
        legal = expected_mask(env.space, game, obs.get("chosen", -1), obs.get("chosen_low", -1))
        assert np.array_equal(obs["action_mask"].astype(bool), legal)
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert np.array_equal(env.action_masks(), legal)
        action = int(rng.choice(np.flatnonzero(legal)))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        total += reward
        if terminated:
            assert not obs["action_mask"].any()
            return actions, total, info


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.bidding}-{r.players}{'-wild' * r.wild}")
def test_gymnasium_hands_end_with_the_agents_payout(rules: dz.Rules) -> None:
    opponents = ("heuristic", "random", "heuristic")[: rules.players - 1]
    env = dz_gym.DouDizhuEnv(rules=rules, seat=None, opponents=opponents, reward_scale=2.0)
    seats = set()
    for seed in range(16):
        actions, total, info = _random_hand_gym(env, seed)
        result = env.game.result
        assert result is not None and sum(result.payouts) == 0
        assert info["payouts"] == [2.0 * p for p in result.payouts][: rules.players]
        assert total == 2.0 * result.payouts[env.seat]
        seats.add(env.seat)
        assert _random_hand_gym(env, seed)[0] == actions  # seeded episodes replay
    assert seats == set(range(rules.players))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.bidding}-{r.players}{'-wild' * r.wild}")
def test_a_pickled_gymnasium_env_plays_on_as_the_original(rules: dz.Rules) -> None:
    # A random opponent's generator travels with it: both copies see the same replies.
    env = dz_gym.DouDizhuEnv(rules=rules, seat=None, opponents=("random", "heuristic", "random")[: rules.players - 1])
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    twin = None
    for step in itertools.count():
        if step == 2:
            twin = pickle.loads(pickle.dumps(env))
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, _, _ = env.step(action)
        if twin is not None:
            twin_obs, twin_reward, twin_terminated, _, _ = twin.step(action)
            assert twin_obs.keys() == obs.keys() and all(np.array_equal(twin_obs[k], obs[k]) for k in obs)
            assert (twin_reward, twin_terminated, twin.game.hash) == (reward, terminated, env.game.hash)
        if terminated:
            break
    assert twin is not None


def test_wild_card_plays_are_a_combination_then_its_reading() -> None:
    from doudizhu.envs._hand import EnvironmentHand

    laizi = dz.Rules.preset("laizi")
    table = EnvironmentHand(laizi)
    table.game = dz.Game.from_position(["5567", "3", "4"], landlord=0, to_move=0, rules=laizi, wild="5")
    space, before = table.space, table.game.hash
    pair_of_6 = space.id(dz.Move("66"))
    # Two readings: a 6 and a wild 5, or both wild 5s.
    readings = {space.stand_in_id(a) for a in table.game.legal_actions() if space.id(a) == pair_of_6}
    assert len(readings) == 2 and table.observe(0)["chosen"] == -1
    assert table.play(pair_of_6) and table.game.hash == before  # chosen, nothing played yet
    observed = table.observe(0)
    assert observed["chosen"] == pair_of_6 and table.observe(1)["chosen"] == -1
    assert set(np.flatnonzero(observed["action_mask"]) - len(space)) == readings
    assert not table.play(pair_of_6) and not table.play(len(space) + 3)  # only a reading now
    both_wild = max(readings)  # the larger stand-in multiset: 6 and 6
    assert table.play(len(space) + both_wild)
    assert str(table.game.hand(0)) == "67" and table.observe(1)["chosen"] == -1
    # A combination with one reading is played at once; one with none is refused.
    assert not table.play(space.id(dz.Move("77")))


def test_two_wild_rank_plays_are_a_combination_then_each_ranks_stand_ins() -> None:
    from doudizhu.envs._hand import EnvironmentHand

    laizi2 = dz.Rules.preset("laizi2")

    def fresh(hand: str) -> EnvironmentHand:
        table = EnvironmentHand(laizi2)
        table.game = dz.Game.from_position([hand, "3", "4"], landlord=0, to_move=0, rules=laizi2, wild=("5", "9"))
        return table

    def stand_ins(text: str) -> int:  # one wild rank's part of a reading (read with one wild rank), as a stand-in id
        return dz.ActionSpace.stand_in_id(dz.Move(text, wild="5", rules=dz.Rules.preset("laizi")))

    table = fresh("5799")
    space, before = table.space, table.game.hash
    trio_of_7 = space.id(dz.Move("777"))
    one_7, two_7 = stand_ins("57=77"), stand_ins("55=77")
    # 777 from 5799: 5799 less one card. 997=777 (no five standing in), 579=777 and 599=777
    # (the five for a seven, and one or two nines): the five's part first.
    assert table.play(trio_of_7) and table.game.hash == before
    observed = table.observe(0)
    assert observed["chosen"] == trio_of_7 and observed["chosen_low"] == -1
    assert set(np.flatnonzero(observed["action_mask"]) - len(space)) == {0, one_7}
    assert table.play(len(space) + one_7) and table.game.hash == before
    observed = table.observe(0)
    assert observed["chosen_low"] == one_7 and table.observe(1)["chosen_low"] == -1
    assert set(np.flatnonzero(observed["action_mask"]) - len(space)) == {one_7, two_7}  # then the nines'
    assert not table.play(len(space) + 0)  # no such reading
    assert table.play(len(space) + two_7)
    assert str(table.game.hand(0)) == "7" and table.observe(0)["chosen"] == -1
    # A step with one choice is taken at once: 997=777 once the fives stand for nothing.
    table = fresh("5799")
    assert table.play(trio_of_7) and table.play(len(space) + 0)
    assert str(table.game.hand(0)) == "5"
    # 5599=TTTT is the one reading of a bomb of tens: played at once.
    table = fresh("5599")
    assert table.play(space.id(dz.Move("TTTT"))) and table.game.phase == "over"


def test_gymnasium_bots_are_the_named_policies() -> None:
    """The heuristic bots beat random ones: a landlord seat played by random actions
    loses more often against heuristic peasants."""
    def landlord_wins(opponents: str) -> int:
        env = dz_gym.DouDizhuEnv(rules=dz.Rules.preset("rlcard"), seat=0, opponents=opponents)
        wins = 0
        for seed in range(60):
            _random_hand_gym(env, seed)
            game = env.game
            wins += game.result.landlord_won if game.landlord == 0 else not game.result.landlord_won
        return wins
    assert landlord_wins("heuristic") < landlord_wins("random")


def test_gymnasium_illegal_actions() -> None:
    env = dz_gym.DouDizhuEnv(illegal_reward=-2.5)
    obs, _ = env.reset(seed=4)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    ended, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-2.5, True, True)
    # The hand is unfinished, but the episode is over: no action is legal in it.
    assert not ended["action_mask"].any() and not info["action_mask"].any() and not env.action_masks().any()
    strict = dz_gym.DouDizhuEnv(illegal_reward=None)
    strict.reset(seed=4)
    with pytest.raises(dz.IllegalActionError):
        strict.step(illegal)


@pytest.mark.parametrize("not_an_id", [1.0, "1", None, [1], np.array([1]), np.array(1.0), True, complex(1)])
def test_an_action_that_is_no_id_is_a_type_error_and_changes_nothing(not_an_id: object) -> None:
    env = dz_gym.DouDizhuEnv(seat=0, opponents="random")  # illegal actions cost -1 and end the episode
    obs, _ = env.reset(seed=4)
    with pytest.raises(TypeError, match="action id must be an int"):
        env.step(not_an_id)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    assert env.step(legal)[1:3] != (-1.0, True)  # the episode went on: it was not charged as illegal
    pz = dz_pz.env()
    pz.reset(seed=1)
    agent, history = pz.agent_selection, len(pz.unwrapped.game.history)
    with pytest.raises(TypeError, match="action id must be an int"):
        pz.step(not_an_id)
    assert pz.agent_selection == agent and not any(pz.terminations.values())
    assert len(pz.unwrapped.game.history) == history and pz.rewards[agent] == 0.0


def test_before_its_first_reset_the_gymnasium_env_shows_no_placeholder_hand() -> None:
    env = dz_gym.DouDizhuEnv(render_mode="ansi")
    for call in (env.action_masks, env.render):
        with pytest.raises(gym.error.ResetNeeded, match="call reset"):
            call()


def test_human_rendering_shows_the_table_at_reset_and_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    env = dz_gym.DouDizhuEnv(seat=0, render_mode="human")
    env.reset(seed=2)
    assert "seat 0 (" in capsys.readouterr().out
    env.step(env.action_space.n - 1)  # an illegal id: the episode ends, and it is shown
    assert "seat 0 (" in capsys.readouterr().out


def test_rewards_are_python_floats_whatever_the_scale() -> None:
    env = dz_gym.DouDizhuEnv(seat=0, opponents="random", reward_scale=np.float32(0.5))
    obs, info = env.reset(seed=3)
    reward, terminated = 0.0, False
    while not terminated:
        obs, reward, terminated, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert type(reward) is float and all(type(p) is float for p in info["payouts"])


def test_an_action_id_as_a_zero_dimensional_array_is_that_id() -> None:
    """What Stable-Baselines3's predict returns for a Discrete space; a longer array is no one id."""
    env = dz_gym.DouDizhuEnv(seat=0, opponents="heuristic", illegal_reward=None)
    twin = dz_gym.DouDizhuEnv(seat=0, opponents="heuristic", illegal_reward=None)
    obs, _ = env.reset(seed=0)
    twin.reset(seed=0)
    for not_one_id in (np.array([1]), np.array(1.0), np.array(True)):
        with pytest.raises(TypeError, match="action id must be an int"):
            env.step(not_one_id)
    for dtype in (np.int64, np.uint16, np.int8):
        legal = int(np.flatnonzero(obs["action_mask"])[0])
        assert env.action_space.contains(np.array(legal, dtype=dtype))
        obs, reward, terminated, _, _ = env.step(np.array(legal, dtype=dtype))
        expected = twin.step(legal)
        assert np.array_equal(obs["observation"], expected[0]["observation"]) and (reward, terminated) == expected[1:3]
        if terminated:
            break
    pz = dz_pz.env(illegal_reward=None)
    pz.reset(seed=1)
    agent = pz.agent_selection
    legal = int(np.flatnonzero(pz.last()[0]["action_mask"])[0])
    pz.step(np.array(legal))
    assert pz.agent_selection != agent


def test_gymnasium_bad_arguments() -> None:
    with pytest.raises(ValueError, match="opponents"):
        dz_gym.DouDizhuEnv(opponents="perfect")
    with pytest.raises(ValueError, match="opponents"):
        dz_gym.DouDizhuEnv(opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        dz_gym.DouDizhuEnv(seat=3)
    for not_an_int in (1.0, "1", True):  # refused here, not at the first reset
        with pytest.raises(TypeError, match="seat must be an int"):
            dz_gym.DouDizhuEnv(seat=not_an_int)  # type: ignore[arg-type]
    assert dz_gym.DouDizhuEnv(seat=np.int64(2)).seat == 2
    with pytest.raises(ValueError, match="illegal_reward"):
        dz_gym.DouDizhuEnv(illegal_reward=float("inf"))
    for too_large in (10**400, 1e308):  # an OverflowError; rewards of inf and nan
        with pytest.raises(ValueError, match=r"reward_scale must be a finite number in -1e\+12\.\.1e\+12"):
            dz_gym.DouDizhuEnv(reward_scale=too_large)
    # A bot whose parameters no run can play: refused here, not by a reset that dealt a hand.
    changed = dz.bots.ISMCTS()
    changed.simulations = -5  # after it was made, which refuses it too
    with pytest.raises(ValueError, match=r"opponents: simulations must be in 1\.\.10000000"):
        dz_gym.DouDizhuEnv(opponents=changed, seat=2)
    laizi = dz.Rules.preset("laizi")
    for opponents in ("neural", dz.bots.Neural(), ["random", "neural"]):  # refused here, not at the first reset
        with pytest.raises(dz.NetworkError, match="the neural policy plays DouZero's setting"):
            dz_gym.DouDizhuEnv(opponents=opponents, rules=laizi)  # type: ignore[arg-type]


def test_gymnasium_steps_only_within_an_episode() -> None:
    # Gymnasium's contract: reset() before the first step and after the episode ends. An
    # illegal action ended the episode and 15 more steps were taken, with a second terminal
    # reward; a step before reset() played the deal made at construction.
    env = dz_gym.DouDizhuEnv()
    with pytest.raises(gym.error.ResetNeeded, match="reset"):
        env.step(0)
    obs, _ = env.reset(seed=4)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    assert env.step(illegal)[2] is True
    before = env.game.to_record()
    legal = int(np.flatnonzero(obs["action_mask"])[0])  # what the game would still take (the masks now show none)
    with pytest.raises(gym.error.ResetNeeded, match="the episode is over"):
        env.step(legal)
    assert env.game.to_record() == before
    obs, _ = env.reset(seed=5)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        obs = env._observe()
    with pytest.raises(gym.error.ResetNeeded, match="the episode is over"):
        env.step(0)
    env.reset(seed=6)
    assert env.step(int(np.flatnonzero(env.action_masks())[0]))[0]["observation"].shape


def test_an_opponent_that_fails_ends_the_episode_without_blaming_the_agent() -> None:
    class Failing:  # plays until its third turn, then its server goes away
        turns = 0

        def act(self, game: dz.Game) -> dz.Action:
            Failing.turns += 1
            if Failing.turns == 3:
                raise TimeoutError("the opponent's server went away")
            return game.legal_actions()[0]

    env = dz_gym.DouDizhuEnv(seat=0, opponents=[Failing(), "heuristic"])
    env.reset(seed=0)
    steps = 0
    with pytest.raises(TimeoutError):
        while True:
            env.step(int(np.flatnonzero(env.action_masks())[0]))
            steps += 1
    assert steps >= 1  # it failed in a step, after the agent's action
    with pytest.raises(gym.error.ResetNeeded, match="the episode is over"):
        env.step(0)  # refused, not an illegal action charged to the agent
    env.opponents = ("heuristic", "heuristic")
    assert env.reset(seed=1)[1]["seat"] == 0


@pytest.mark.parametrize("call", ["step", "reset"])
def test_an_opponent_that_steps_the_environment_it_plays_in_is_refused(call: str) -> None:
    # Its step was taken as its own move (the agent's action applied for seat 1), and the
    # outer step then failed half-way with an IllegalActionError that named no bot.
    class Sneaky:
        def act(self, game: dz.Game) -> dz.Action:
            env.step(0) if call == "step" else env.reset(seed=1)
            return game.legal_actions()[0]

    env = dz_gym.DouDizhuEnv(seat=0, opponents=[Sneaky(), "heuristic"])
    env.reset(seed=2)
    before = env.game.history
    with pytest.raises(RuntimeError, match=f"{call}\\(\\) was called while the opponents choose their actions"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert len(env.game.history) == len(before) + 1  # the agent's action and nothing of the opponent's call
    with pytest.raises(gym.error.ResetNeeded, match="the episode is over"):
        env.step(0)  # it failed as any opponent that raises: the episode ended
    env.opponents = ("heuristic", "heuristic")
    env.reset(seed=3)  # and the environment is usable again


def test_pettingzoo_raw_env_steps_only_within_a_hand() -> None:
    # Without the order-enforcing wrapper, a step before reset() raised AttributeError.
    env = dz_pz.raw_env()
    with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before step"):
        env.step(0)
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))  # illegal: the hand ends for every agent
    while env.agents:
        env.step(None)
    with pytest.raises(AssertionError, match="reset\\(\\) needs to be called"):
        env.step(0)


@pytest.mark.parametrize("make", [dz_gym.DouDizhuEnv, dz_pz.raw_env])
def test_a_reset_refuses_a_bool_seed_before_it_deals(make: Callable[[], Any]) -> None:
    env = make()  # a bool seed was seed 0 or 1
    env.reset(seed=3)
    before = env.game.to_record()
    for seed in (True, np.True_):
        with pytest.raises(TypeError, match="seed must be an int or None, not bool"):
            env.reset(seed=seed)
        assert env.game.to_record() == before


def test_pettingzoo_names_an_unknown_agent() -> None:
    env = dz_pz.raw_env()
    env.reset(seed=1)
    for ask in (env.observe, env.observation_space, env.action_space):  # a bare KeyError before
        with pytest.raises(ValueError, match=r"agent must be one of \['seat_0', 'seat_1', 'seat_2'\], not 'seat_9'"):
            ask("seat_9")
