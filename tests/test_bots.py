"""The bot protocol, mixed seats, DouZero-protocol evaluation and can_play."""

from __future__ import annotations

import io
import itertools
import pickle
import random
import re
import sys
from collections.abc import Iterator

import numpy as np
import pytest

import doudizhu as dz
import doudizhu.envs
from doudizhu import Rules, evaluation, lockstep
from doudizhu.bots import ISMCTS, Bot, DeterminizedBot, FastHeuristic, Heuristic, Neural, Random, builtin
from doudizhu.cli import main


class PythonHeuristic:
    """The built-in heuristic, but a Python bot: evaluate and selfplay play it in Python."""

    def act(self, game: dz.Game) -> dz.Action:
        return dz.choose_action(game, "heuristic", 0)


# --- the protocol --------------------------------------------------------------------------


def test_built_in_bots_are_bots_and_name_their_policy() -> None:
    bots = {"random": Random(seed=1), "heuristic": Heuristic(), "fast_heuristic": FastHeuristic(), "neural": Neural(),
            "ismcts": ISMCTS(simulations=50)}
    assert tuple(bots) == dz.POLICIES  # every built-in policy has its bot
    for name, bot in bots.items():
        assert isinstance(bot, Bot) and builtin(bot) is bot and bot.name == name
        game = dz.Game(seed=3)
        assert bot.act(game) in game.legal_actions()
        assert repr(bot).startswith(type(bot).__name__ + "(")
    assert builtin(PythonHeuristic()) is None and builtin("random") == "random"
    assert Random(seed=5).act(dz.Game(seed=1)) == Random(seed=5).act(dz.Game(seed=1))
    assert [repr(Neural(endgame=e)) for e in (False, True)] == ["Neural(endgame=False)", "Neural()"]
    assert repr(ISMCTS(endgame=False)).endswith(", endgame=False)")


def test_a_random_bot_keeps_its_seed_drawn_or_given() -> None:
    drawn = Random(seed=None)
    assert isinstance(drawn.seed, int) and repr(drawn) == f"Random(seed={drawn.seed})"
    again = eval(repr(drawn), {"Random": Random})  # the repr makes the same bot
    games = [dz.Game(seed=s) for s in range(6)]
    assert [again.act(g) for g in games] == [drawn.act(g) for g in games]
    assert Random(seed=5).seed == 5
    for kind in (Random, DeterminizedBot, ISMCTS):
        assert kind(seed=None).seed != kind(seed=None).seed  # drawn afresh, and kept
    reseeded = Random(seed=1)
    reseeded.seed = 2  # the stream begins again from it, as repr says
    fresh = Random(seed=2)
    assert [reseeded.act(g) for g in games] == [fresh.act(g) for g in games]
    with pytest.raises(TypeError, match="seed must be an int"):
        reseeded.seed = "bad"  # type: ignore[assignment]


def test_a_random_bot_draws_nothing_for_a_call_it_refuses() -> None:
    # Its stream moved on before the game was checked: after a refused call every later
    # choice differed from a fresh bot's of the same seed.
    over = dz.playout(dz.Game(seed=1), "random", 0)
    games = [dz.Game(seed=s) for s in range(6)]
    refused = Random(seed=1)
    for bad in ("x", over):
        with pytest.raises((TypeError, dz.IllegalActionError)):
            refused.act(bad)  # type: ignore[arg-type]
    fresh = Random(seed=1)
    assert [refused.act(g) for g in games] == [fresh.act(g) for g in games]


def test_bots_pickled_by_earlier_builds_load_with_their_seed() -> None:
    # Random kept no seed, then a plain one; DeterminizedBot kept "_seed": their pickles
    # loaded into bots whose seed and repr raised AttributeError.
    game = dz.Game(seed=2)
    for state, seed in (({"seed": 5, "_rng": random.Random(5)}, 5), ({"_rng": random.Random(5)}, None)):
        old = Random.__new__(Random)
        old.__dict__.update(state)
        bot = pickle.loads(pickle.dumps(old))
        assert isinstance(bot.seed, int) and seed in (None, bot.seed) and repr(bot) == f"Random(seed={bot.seed})"
        assert bot.act(game) == Random(seed=5).act(game)  # the stream goes on
    made = DeterminizedBot(worlds=2, seed=3)
    old = DeterminizedBot.__new__(DeterminizedBot)
    old.__dict__.update({("_seed" if k == "seed" else k): v for k, v in made.__dict__.items()})
    bot = pickle.loads(pickle.dumps(old))
    assert bot.seed == 3 and repr(bot) == repr(made) and bot.act(game) == made.act(game)


@pytest.mark.parametrize(
    "bot", [Heuristic(), Random(seed=3), DeterminizedBot(worlds=3, seed=2), ISMCTS(simulations=40)], ids=repr)
def test_bots_choose_from_what_their_seat_knows(bot: Bot) -> None:
    # Re-deal the hidden hands (every world the seat cannot tell apart): the choice stays.
    for seed in range(4):
        game = dz.Game(seed=seed, rules=Rules(bidding="none"))
        for _ in range(7 + seed):  # into the play
            game.step(dz.choose_action(game, "heuristic", 0))
        seat = game.to_move
        assert seat is not None
        fresh = lambda: bot if not isinstance(bot, (Random, DeterminizedBot)) else type(bot)(seed=9)  # noqa: E731
        choice = fresh().act(game)
        for world in dz.sample_worlds(game, seat, 4, seed=seed):
            assert world.hand(seat) == game.hand(seat)
            assert fresh().act(world) == choice


@pytest.mark.parametrize("bot", [Heuristic(), Random(seed=3), DeterminizedBot(worlds=3), ISMCTS(simulations=4)],
                         ids=repr)
def test_bots_refuse_what_is_no_game_naming_it(bot: Bot) -> None:
    for value in (None, "332", dz.Game(seed=1).seat_view(0)):
        with pytest.raises(TypeError, match=f"game must be a Game, not {type(value).__name__}"):
            bot.act(value)  # type: ignore[arg-type]


def test_names_and_bots_are_interchangeable_wherever_a_policy_is_taken() -> None:
    by_name = dz.selfplay(30, policy=["heuristic", "random", "fast_heuristic"], seed=4)
    by_bot = dz.selfplay(30, policy=[Heuristic(), Random(), FastHeuristic()], seed=4)
    assert (by_name.payouts == by_bot.payouts).all()
    game = dz.Game(seed=2)
    assert dz.playout(game, Heuristic(), seed=1).hash == dz.playout(game, "heuristic", seed=1).hash
    assert dz.evaluate(Heuristic(), "random", deals=20).adp == dz.evaluate("heuristic", Random(), deals=20).adp


# --- mixed seats -----------------------------------------------------------------------


def test_mixed_seats_play_the_same_deals_as_an_all_built_in_run() -> None:
    rules = Rules(bidding="none")  # no redeals: the dealt hands are the played ones
    mixed = dz.selfplay(40, policy=[PythonHeuristic(), "heuristic", "random"], seed=11, rules=rules)
    built_in = dz.selfplay(40, policy=["heuristic", "heuristic", "random"], seed=11, rules=rules)
    assert (mixed.hands == built_in.hands).all() and (mixed.kitty == built_in.kitty).all()
    assert (mixed.payouts.sum(axis=1) == 0).all()


def test_mixed_seats_hand_counted() -> None:
    # Game 0 of seed 5, played by hand through the game API with the same players: the
    # built-in seats draw from the stream selfplay documents for Python-seat games.
    seed, rules = 5, Rules(bidding="none")
    players = [PythonHeuristic(), "heuristic", "heuristic"]
    result = dz.selfplay(1, policy=players, seed=seed, rules=rules, record=True)
    game = dz.Game(seed=dz.game_seed(seed, 0), rules=rules, first_bidder=0)
    while game.phase != "over":
        game.step(dz.choose_action(game, "heuristic", 0))  # every seat plays the heuristic
    assert result.payouts[0].tolist() == list(game.result.payouts)  # type: ignore[union-attr]
    assert [a for _, a in dz.actions_from_rows(result.actions)] == [a for _, a in game.history]


def test_a_python_player_must_answer_a_legal_action() -> None:
    def cheat(view: object, legal: list[dz.Action]) -> dz.Action:
        return dz.Action.bid(3) if legal[0] != dz.Action.bid(0) else dz.Action.pass_()

    with pytest.raises(ValueError, match=r"at seat 0 returned .*, not one of the 4 legal actions"):
        dz.selfplay(1, policy=[cheat, "random", "random"])
    with pytest.raises(dz.IllegalActionError, match=r"returned 'bid 0' \(a str, not an Action\), not one of the 4"):
        dz.selfplay(1, policy=[lambda view, legal: "bid 0", "random", "random"])
    with pytest.raises(dz.IllegalActionError, match=r"returned array\(.*\(a ndarray, not an Action\)"):
        dz.selfplay(1, policy=[lambda view, legal: np.zeros(3), "random", "random"])  # not NumPy's truth-value error
    with pytest.raises(TypeError, match="a name, a bot or a callable"):
        dz.selfplay(1, policy=["random", 3, "random"])  # type: ignore[list-item]


class _EqualsAnything(dz.Action):
    """An Action whose == says yes to every action: the check must not take its word."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = dz.Action.__hash__


def test_an_action_subclass_cannot_pass_for_a_legal_action() -> None:
    forged = _EqualsAnything.__new__(_EqualsAnything)
    forged.__setstate__(dz.Action.pass_().__getstate__())  # a pass, at the auction's first bid

    class Forger:
        def act(self, game: dz.Game) -> dz.Action:
            return forged

    with pytest.raises(dz.IllegalActionError, match=r"the bot Forger at seat 0 .*\(a _EqualsAnything, not an Action\)"):
        lockstep.choose(Forger(), dz.Game(seed=1), 0)
    with pytest.raises(dz.IllegalActionError, match="the bot Forger at seat 0"):
        dz.selfplay(1, policy=[Forger(), "random", "random"], threads=1)  # type: ignore[list-item]


def test_two_bots_of_one_class_are_told_apart_in_evaluates_errors() -> None:
    class Picky:
        def __init__(self, fails: bool) -> None:
            self.fails = fails

        def act(self, game: dz.Game) -> dz.Action | None:
            return None if self.fails else game.legal_actions()[0]

    for failing in ("a", "b"):
        a, b = Picky(failing == "a"), Picky(failing == "b")
        with pytest.raises(dz.IllegalActionError, match="the bot Picky at seat") as raised:
            dz.evaluate(a, b, deals=1, threads=1)  # type: ignore[arg-type]
        if sys.version_info >= (3, 11):  # exception notes
            assert raised.value.__notes__ == [f"the bot Picky here is evaluate's {failing}"]


def test_a_bot_asked_game_by_game_is_noted_with_the_one_seat_that_raised() -> None:
    """A bot without act_many answers each table alone: its error names that table's seat,
    not every seat of the batch; a check(rules) that refuses says who refused."""
    class Raiser:
        def __init__(self) -> None:
            self.calls = 0

        def act(self, game: dz.Game) -> dz.Action:
            self.calls += 1
            if self.calls > 30:
                raise RuntimeError("boom")
            return game.legal_actions()[-1]

    with pytest.raises(RuntimeError, match="boom") as raised:
        dz.evaluate(Raiser(), "heuristic", deals=5, rules=Rules.preset("douzero"), threads=1)  # type: ignore[arg-type]
    if sys.version_info >= (3, 11):  # exception notes
        seat_notes = [note for note in raised.value.__notes__ if note.startswith("raised by")]
        assert len(seat_notes) == 1 and re.fullmatch(r"raised by the bot Raiser choosing for seat \d", seat_notes[0])

    class Picky:
        def act(self, game: dz.Game) -> dz.Action:
            return game.legal_actions()[0]

        def check(self, rules: Rules) -> None:
            raise ValueError("only standard")

    with pytest.raises(ValueError, match="only standard") as refused:
        dz.evaluate("heuristic", Picky(), deals=2, rules=Rules.preset("douzero"))  # type: ignore[arg-type]
    if sys.version_info >= (3, 11):
        assert refused.value.__notes__ == ["raised by the bot Picky checking the rules",
                                           "the bot Picky here is evaluate's b"]
    with pytest.raises(dz.IllegalActionError, match=r"returned 3 \(an int, not an Action\)"):
        dz.evaluate(lambda view, legal: 3, "heuristic", deals=1)  # type: ignore[arg-type,return-value]


def test_choose_refuses_a_seed_of_none_for_every_player() -> None:
    class PythonBot:
        def act(self, game: dz.Game) -> dz.Action:
            return game.legal_actions()[0]

    for player in (Heuristic(), "heuristic", PythonBot()):
        with pytest.raises(TypeError, match="seed must be an int, not NoneType"):
            lockstep.choose(player, dz.Game(seed=1), None)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="seed must be an int, not float"):  # was "an int or None"
            lockstep.choose(player, dz.Game(seed=1), 1.5)  # type: ignore[arg-type]


def test_a_bot_recursing_through_the_runner_gets_one_note() -> None:
    class Recurses:
        def act(self, game: dz.Game) -> dz.Action:
            return lockstep.choose(self, game, 0)  # type: ignore[arg-type]

    with pytest.raises(RecursionError) as raised:
        lockstep.choose(Recurses(), dz.Game(seed=1), 0)  # type: ignore[arg-type]
    if sys.version_info >= (3, 11):  # exception notes
        assert raised.value.__notes__ == ["raised by the bot Recurses choosing for seat 0"]


def test_a_policy_that_changes_its_legal_list_is_still_checked_against_the_game() -> None:
    def clears(view: object, legal: list[dz.Action]) -> dz.Action:
        legal.clear()
        return dz.Action.pass_()

    def adds(view: object, legal: list[dz.Action]) -> dz.Action:
        legal.append(dz.Action.play(dz.Move("BR")))  # not in any hand dealt for a bid
        return legal[-1]

    for cheat in (clears, adds):  # 4 bids: the game's count, not the list the policy changed
        with pytest.raises(dz.IllegalActionError, match=rf"policy '{cheat.__name__}' at seat 0 .* of the 4 legal"):
            dz.selfplay(1, policy=[cheat, "random", "random"], threads=1)


def test_a_policy_function_of_another_signature_is_refused_before_any_game() -> None:
    def one_argument(game: dz.Game) -> dz.Action:
        raise AssertionError("never called")

    with pytest.raises(TypeError, match=r"a: a policy function is called as policy\(view, legal_actions\), "
                                        r"and one_argument\(game: .*\).* cannot be"):
        dz.evaluate(one_argument, "random", deals=2)  # type: ignore[arg-type]
    flexible = dz.selfplay(1, policy=lambda view, legal, *more: legal[0])  # extra optional parameters are fine
    assert len(flexible) == 1


def test_a_bot_whose_act_many_returns_no_actions_is_named() -> None:
    class Silent:
        def act(self, game: dz.Game) -> dz.Action:
            return dz.choose_action(game, "random", 0)

        def act_many(self, games: list[dz.Game]) -> None:
            return None

    with pytest.raises(TypeError, match=r"act_many must return one action per game, not NoneType"):
        dz.selfplay(1, policy=[Silent(), "random", "random"], threads=1)  # type: ignore[list-item]


def test_a_bot_that_empties_the_list_act_many_hands_it_is_still_counted() -> None:
    class Emptier:
        def act(self, game: dz.Game) -> dz.Action:
            return dz.choose_action(game, "random", 0)

        def act_many(self, games: list[dz.Game]) -> list[dz.Action]:
            games.clear()
            return []

    with pytest.raises(ValueError, match=r"act_many returned 0 actions for 1 games"):
        dz.selfplay(1, policy=[Emptier(), "random", "random"], threads=1)  # type: ignore[list-item]


def test_an_endless_act_many_answer_is_read_no_further_than_one_too_many() -> None:
    # Its answer was read whole before its length was checked: an endless one took memory
    # until the process was killed.
    class Endless:
        def act(self, game: dz.Game) -> dz.Action:
            return game.legal_actions()[0]

        def act_many(self, games: list[dz.Game]) -> Iterator[dz.Action]:
            return itertools.repeat(games[0].legal_actions()[0])

    with pytest.raises(ValueError, match=r"act_many returned more than 2 actions for 2 games"):
        dz.bots.act_many(Endless(), [dz.Game(seed=1), dz.Game(seed=2)])


# --- evaluation -----------------------------------------------------------------------


def test_a_returned_object_whose_repr_raises_is_still_an_illegal_action() -> None:
    # The refusal quoted the object by its repr: a repr that raised replaced the error.
    class Weird:
        def __repr__(self) -> str:
            raise RuntimeError("weird repr")

    class GivesWeird:
        def act(self, game: dz.Game) -> object:
            return Weird()

    with pytest.raises(dz.IllegalActionError, match=r"returned a Weird that cannot be written out \(a Weird, not an"):
        dz.selfplay(1, policy=[GivesWeird(), "random", "random"], seed=1)  # type: ignore[list-item]


def test_a_built_in_bots_bad_parameters_name_whose_they_are() -> None:
    # Refused by the core as the run was made, they named neither the role nor the seat:
    # with two ISMCTS bots, which one had been refused?
    good, bad = ISMCTS(simulations=5), ISMCTS(simulations=5)
    bad.simulations = 0
    with pytest.raises(ValueError, match=r"^b: simulations must be in 1\.\."):
        dz.evaluate(good, bad, deals=1)
    with pytest.raises(ValueError, match=r"^policy\[1\]: simulations must be in 1\.\."):
        dz.selfplay(1, policy=[good, bad, good])

    class Uninitialised(ISMCTS):
        def __init__(self) -> None:  # no super().__init__()
            pass

    with pytest.raises(AttributeError, match="no attribute") as raised:
        dz.evaluate(Uninitialised(), "random", deals=1)
    assert raised.value.__notes__ == ["raised checking a's parameters"]

    class OwnError(ValueError):  # takes no message alone: rebuilt with one, it was a TypeError
        def __init__(self, first: int, second: int) -> None:
            super().__init__(f"{first}-{second}")

    class Raising(ISMCTS):
        @property  # type: ignore[override]
        def exploration(self) -> float:
            raise OwnError(1, 2)

        @exploration.setter
        def exploration(self, value: float) -> None:
            pass

    with pytest.raises(OwnError, match=r"^1-2") as own:
        dz.selfplay(1, policy=[Raising(simulations=4), "random", "random"])
    assert own.value.__notes__ == ["raised checking policy[0]'s parameters"]


def test_evaluate_names_its_players_before_it_plays() -> None:
    # The names were read after every game: a repr that raised lost the whole run.
    class BadRepr:
        acted = 0

        def act(self, game: dz.Game) -> dz.Action:
            BadRepr.acted += 1
            return game.legal_actions()[0]

        def __repr__(self) -> str:
            raise AttributeError("no attribute 'nmae'")

    with pytest.raises(AttributeError, match="nmae"):
        dz.evaluate(BadRepr(), "random", deals=2)
    assert BadRepr.acted == 0


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("douzero"), Rules.preset("four_player")], ids=repr)
@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_a_policy_against_itself_is_exactly_even(rules: Rules, policy: str) -> None:
    result = dz.evaluate(policy, policy, deals=60, rules=rules, seed=2)
    assert result.wp == 0.5 and result.adp == 0.0


def test_douzero_protocol_is_two_games_a_deal_with_the_roles_swapped() -> None:
    rules = Rules.preset("douzero")
    result = dz.evaluate("heuristic", "random", deals=25, rules=rules, seed=7)
    c = result.columns
    assert result.games == 50 and (np.bincount(c["deal"]) == 2).all()
    assert (c["landlord"] == c["seat"]).all() and (c["seat"] == c["deal"] % 3).all()
    assert (c["swapped"][0::2] == False).all() and (c["swapped"][1::2] == True).all()  # noqa: E712
    assert result.by_role["landlord"].games == result.by_role["peasants"].games == 25


def test_evaluate_hand_counted() -> None:
    # Every game of 4 deals replayed by hand from the protocol's seeds, each decision of a
    # policy drawn on its game's stream (choose_action): A's score is its seats' payouts.
    rules, seed = Rules(), 3
    result = dz.evaluate("heuristic", "random", deals=4, rules=rules, seed=seed)
    scores, wins, decided = [], 0, 0
    for deal in range(4):
        deal_seed, stream, first_bidder, seats = dz._core.evaluation_deal(rules, seed, deal)
        assert first_bidder == deal % 3 and seats == (0, 1, 2)
        for seat in seats:
            for swapped in (False, True):
                names = ["heuristic" if (s == seat) != swapped else "random" for s in range(3)]
                game = dz.Game(seed=deal_seed, rules=rules, first_bidder=first_bidder)
                while game.phase != "over":
                    game.step(dz.choose_action(game, names[game.to_move], stream + seat))  # type: ignore[index]
                payouts = game.result.payouts  # type: ignore[union-attr]
                score = sum(p for s, p in enumerate(payouts) if names[s] == "heuristic")
                scores.append(score)
                decided += score != 0
                wins += score > 0
    assert result.games == len(scores) == 24
    assert result.adp == pytest.approx(sum(scores) / len(scores))
    assert result.wp == pytest.approx(wins / decided)
    assert result.columns["a_score"].tolist() == scores


def test_python_players_evaluate_as_the_built_in_ones_do() -> None:
    for rules in (Rules(), Rules.preset("douzero")):
        in_cpp = dz.evaluate("heuristic", "random", deals=30, rules=rules, seed=1)
        in_python = dz.evaluate(PythonHeuristic(), "random", deals=30, rules=rules, seed=1)
        assert in_cpp.columns["a_score"].tolist() == in_python.columns["a_score"].tolist()
        assert (in_cpp.wp, in_cpp.adp, in_cpp.wp_ci) == (in_python.wp, in_python.adp, in_python.wp_ci)


def test_evaluate_is_the_same_whatever_the_thread_count() -> None:
    for bot, deals in (("fast_heuristic", 300), ("heuristic", 40)):  # the latter's endgame search is dear
        one = dz.evaluate(bot, "random", deals=deals, seed=4, threads=1)
        two = dz.evaluate(bot, "random", deals=deals, seed=4, threads=2)
        for name, column in one.columns.items():
            assert (column == two.columns[name]).all(), name


def test_heuristic_beats_random_with_an_interval() -> None:
    result = dz.evaluate("heuristic", "random", deals=500, rules=Rules.preset("douzero"))
    assert result.wp_ci[0] < result.wp < result.wp_ci[1] and result.wp_ci[0] > 0.85
    assert result.adp > 0 and result.mean_multiplier >= 1


def test_win_rate_intervals_stay_within_0_and_1_and_keep_width() -> None:
    result = dz.evaluate("fast_heuristic", "random", deals=200, seed=0)  # its landlord wins all 63 games
    for side in (result, *result.by_role.values()):
        low, high = side.wp_ci
        assert 0.0 <= low <= side.wp <= high <= 1.0
    landlord = result.by_role["landlord"]
    assert landlord.wp == 1.0 and landlord.wp_ci[0] < 0.96  # not (1.000-1.000) from 63 games
    assert "mixed: fast and random on one side (the auction made a landlord beside" in result.table("fast", "random")
    assert result.table().startswith("| fast_heuristic against random |")  # named as evaluate was given them
    # Away from 0 and 1, over many deals, the Wilson interval is the normal one of the deals' means.
    rng = np.random.default_rng(0)
    per_deal = rng.integers(0, 3, 4000) / 2.0  # each deal's two games: 0, 1 or 2 wins
    share = float(per_deal.mean())
    half = 1.959963984540054 * float(per_deal.std(ddof=1)) / np.sqrt(len(per_deal))
    low, high = evaluation._share_interval(share, per_deal, 2 * len(per_deal))
    assert abs(low - (share - half)) < 2e-4 and abs(high - (share + half)) < 2e-4


def test_intervals_keep_width_when_the_deals_show_no_spread() -> None:
    # One deal gave ADP an interval of no width; two deals of equal shares (0.5 each) gave WP
    # (0.5, 0.5) and ADP (0, 0): certainty from four games.
    one = dz.evaluate("fast_heuristic", "random", deals=1, seed=1)
    two = dz.evaluate("heuristic", "fast_heuristic", deals=2, seed=2, rules=Rules.preset("douzero"))
    assert two.wp == 0.5 and two.adp == 0.0  # each deal's two games split evenly
    for result in (one, two):
        assert result.wp_ci[0] < result.wp < result.wp_ci[1] and result.adp_ci[0] < result.adp < result.adp_ci[1]
    scores = two.columns["a_score"].astype(float)
    assert len(scores) == 4
    half = 3.182446 * scores.std(ddof=1) / np.sqrt(len(scores))  # the games' spread stands in: t, 3 df
    assert np.allclose(two.adp_ci, (-half, half))


def test_intervals_over_few_deals_take_students_t() -> None:
    # With the normal quantile, 3 deals of four_partner missed a true WP of 0.5 in about
    # 15% of runs and an ADP of 0 in 13% (a probe's 150 runs), where 5% is promised.
    table = {1: 12.7062, 2: 4.3027, 4: 2.7764, 9: 2.2622, 29: 2.0452, 120: 1.9799}  # published quantiles
    for df, quantile in table.items():
        assert abs(evaluation._t95(df) - quantile) < 5e-4

    class UniformRandom:  # not the built-in "random": a game and its mirror draw differently
        def __init__(self, seed: int) -> None:
            self.rng = np.random.default_rng(seed)

        def act(self, game: dz.Game) -> dz.Action:
            legal = game.legal_actions()
            return legal[int(self.rng.integers(len(legal)))]

    runs, missed_wp, missed_adp = 100, 0, 0
    for seed in range(runs):
        result = dz.evaluate("random", UniformRandom(seed), deals=3, seed=seed, rules=Rules.preset("four_partner"))
        missed_wp += not result.wp_ci[0] <= 0.5 <= result.wp_ci[1]  # both sides play alike: 0.5 and 0
        missed_adp += not result.adp_ci[0] <= 0.0 <= result.adp_ci[1]
    assert missed_wp <= 6 and missed_adp <= 6  # 5 expected (1 and 3 here); the normal quantile's 9 and 10


def test_the_mixed_row_is_explained_under_a_partner() -> None:
    # It said a and b "were peasants together", where under four_partner most mixed games
    # had the landlord's partner on the other policy's side.
    table = dz.evaluate("random", "fast_heuristic", deals=20, rules=Rules.preset("four_partner")).table()
    assert "mixed: random and fast_heuristic on one side (the auction made a landlord beside the lone seat, " \
           "or the landlord's partner" in table


def test_evaluate_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown policy 'smart'"):
        dz.evaluate("smart", "random", deals=1)
    with pytest.raises(ValueError, match="deals must be in"):
        dz.evaluate("random", "random", deals=-1)
    with pytest.raises(TypeError, match="deals must be an int"):
        dz.evaluate("random", "random", deals=1.5)  # type: ignore[arg-type]


def test_the_command_line_prints_the_table() -> None:
    out = io.StringIO()
    assert main(["evaluate", "heuristic", "random", "--deals", "30", "--rules", "douzero"], out=out) == 0
    text = out.getvalue()
    assert "| landlord | 30 |" in text and "| peasants | 30 |" in text and "30 deals" in text
    # A row of one game has no interval: it was printed as "+6.000 (+nan to +nan)".
    table = dz.evaluate("random", "random", deals=2, threads=1).table()
    assert "nan" not in table and "| landlord | 1 | 0.000 (0.000-0.793) | -6.000 (no interval) |" in table


# --- can_play ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "play", "last", "ok", "reason"),
    [
        ("33344", "333", None, True, ""),
        ("33344", "333", "222", False, "333 does not beat 222"),
        ("33344", "3334", "2225", False, "does not beat"),
        ("33344", "33344", "22255", False, "does not beat"),
        ("33344", "555", None, False, "cards not in hand"),
        ("33344", "34", None, False, "is no combination"),
        ("3333", "3333", "22", True, ""),  # a bomb beats any non-bomb
        ("BR3", "RB", "2222", True, ""),  # unsorted: the rocket
        # douzero: the cards also read as trios keyed 4 with solos, which beats keyed 3
        ("333444555666", "333444555666", "333444555666/AIRPLANE_SOLOS/3", True, ""),
    ],
)
def test_can_play(hand: str, play: str, last: str | None, ok: bool, reason: str) -> None:
    check = dz.can_play(hand, play, last=last, rules=Rules.preset("douzero") if "/" in (last or "") else None)
    assert bool(check) is ok and check.ok is ok
    assert reason in check.reason and (check.reason == "") is ok


def test_can_play_takes_moves_and_wild_cards() -> None:
    laizi = Rules.preset("laizi")
    assert dz.can_play("5777", "5777=7777", rules=laizi, wild="5")
    assert not dz.can_play("5777", "5777=7777", last="3333", rules=laizi, wild="5")  # soft below natural
    assert dz.can_play("3334", dz.Move("3334"), last=dz.Move("2223")).reason == "3334 does not beat 3222"
    with pytest.raises(dz.CardsError):
        dz.can_play("3Z", "3")


def test_the_endgame_switch_is_true_or_false_when_made_and_where_it_plays() -> None:
    # A bot made with endgame=None or 2 was refused only at its first decision.
    game = dz.Game(seed=1)
    for bot in (Neural, ISMCTS):
        for wrong in (0, None, "yes"):
            with pytest.raises(TypeError, match=f"endgame must be True or False, not {type(wrong).__name__}"):
                bot(endgame=wrong)  # type: ignore[arg-type]
    changed = Neural()
    changed.endgame = 0  # type: ignore[assignment]
    with pytest.raises(TypeError, match="endgame must be True or False, not int"):
        changed.act(game)
    assert dz.bots.Neural(endgame=False).act(game) in game.legal_actions()


@pytest.mark.parametrize("parent", [ISMCTS, Neural, Random, Heuristic])
def test_a_subclass_may_play_its_parents_act(parent: type) -> None:
    # The ISMCTS and Neural bots' act handed the bot itself to choose_action, which refuses
    # a bot with an act of its own: a subclass calling super().act() was a TypeError.
    class Wrapped(parent):  # type: ignore[valid-type,misc]
        def act(self, game: dz.Game) -> dz.Action:
            return super().act(game)

    game = dz.Game(seed=1)
    bot = Wrapped(simulations=20) if parent is ISMCTS else Wrapped()
    own = parent(simulations=20) if parent is ISMCTS else parent()
    if parent is Random:
        bot, own = Wrapped(seed=4), Random(seed=4)
    assert bot.act(game) == own.act(game)


def test_a_bot_plays_alike_in_act_and_in_the_runners() -> None:
    # An act set on the bot itself was ignored by selfplay and evaluate (the bot played as its
    # class); a name set on it changed act() (it chose by self.name) but not the runners.
    first = Heuristic()
    first.act = lambda game: game.legal_actions()[0]  # type: ignore[method-assign]
    assert builtin(first) is None
    played = dz.selfplay(20, policy=[first, "heuristic", "heuristic"], seed=1).payouts.tolist()
    assert played == dz.selfplay(20, policy=[lambda view, legal: legal[0], "heuristic", "heuristic"],
                                 seed=1).payouts.tolist()
    assert played != dz.selfplay(20, policy="heuristic", seed=1).payouts.tolist()
    renamed = Heuristic()
    renamed.name = "random"  # type: ignore[misc]
    games = [dz.Game(seed=s) for s in range(20)]
    assert [renamed.act(g) for g in games] == [dz.choose_action(g, "heuristic", 0) for g in games]


def test_lockstep_choose_takes_every_player_and_refuses_what_is_no_decision() -> None:
    from doudizhu import lockstep

    game = dz.Game(seed=1)
    assert lockstep.choose("heuristic", game, 0) == dz.choose_action(game, "heuristic", 0)  # was AssertionError
    assert lockstep.choose(Heuristic(), game, 0) == dz.choose_action(game, "heuristic", 0)
    with pytest.raises(TypeError, match="choose_many takes a bot or a policy function; the policy 'random' plays"):
        lockstep.choose_many("random", [game])
    over = dz.playout(game, "random", 0)
    for player in (Heuristic(), lambda view, legal: legal[0]):
        with pytest.raises(dz.IllegalActionError, match="the hand is over: no action to choose"):
            lockstep.choose(player, over, 0)  # was "seat must be an int, not NoneType"
        with pytest.raises(TypeError, match="game must be a Game, not str"):
            lockstep.choose(player, "x", 0)  # type: ignore[arg-type]  # was AttributeError
        with pytest.raises(dz.IllegalActionError, match="the hand is over"):
            lockstep.choose_many(player, [over])


def test_a_bots_methods_are_checked_before_a_game_is_played() -> None:
    class NotCallable:
        act = 5

    class OnlyMany:
        def act_many(self, games: list[dz.Game]) -> list[dz.Action]:
            return [g.legal_actions()[0] for g in games]

    with pytest.raises(TypeError, match="a: the bot NotCallable's act must be a method, not int"):
        dz.evaluate(NotCallable(), "random", deals=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a: the bot OnlyMany has act_many but no act"):
        dz.evaluate(OnlyMany(), "random", deals=1)  # type: ignore[arg-type]
    games = [dz.Game(seed=s) for s in range(3)]
    assert dz.bots.act_many(Heuristic(), iter(games)) == [Heuristic().act(g) for g in games]  # any iterable


def test_run_tables_names_a_missing_player() -> None:
    from doudizhu import lockstep

    run = dz._core.evaluation_run(None, "random", 2, None, 0, 1)  # a: an outside player
    with pytest.raises(ValueError, match="players: the run waits on outside player 0, and 0 were given"):
        lockstep.run_tables(run, [])  # was IndexError


def test_a_subclass_with_its_own_act_is_played_by_it() -> None:
    calls = []

    class Counting(dz.bots.Heuristic):
        def act(self, game: dz.Game) -> dz.Action:
            calls.append(game.to_move)
            return super().act(game)

    class Renamed(dz.bots.Heuristic):  # no act of its own: still the built-in, in C++
        pass

    played = dz.selfplay(4, policy=[Counting(), "random", "random"], seed=2)
    assert calls and set(calls) == {0}
    builtin = dz.selfplay(4, policy=["heuristic", "random", "random"], seed=2)
    assert played.payouts.tolist() == builtin.payouts.tolist()  # the act it chose is the heuristic's
    assert dz.bots.builtin(Renamed()) is not None and dz.bots.builtin(Counting()) is None
    with pytest.raises(TypeError, match="opponents: Counting plays by an act of its own"):
        dz.envs.VectorEnv(2, features=None, learners=0, opponents=Counting())
    # Where only the engine's own policies play, it is refused, never played as its parent.
    game = dz.Game(seed=5)
    for engine_only in (lambda: dz.playout(game, Counting()), lambda: dz.choose_action(game, Counting(), 0),
                        lambda: dz.rollouts(game, Counting(), copies=2), lambda: dz.ismcts(game, 5, Counting())):
        with pytest.raises(TypeError, match="Counting"):
            engine_only()
    assert calls and set(calls) == {0} and dz.playout(game, Renamed()).phase == "over"


def test_a_class_that_states_a_builtin_policy_again_is_played_by_its_own_act() -> None:
    # The class naming the C++ policy was the first in the MRO with __builtin_policy__: a
    # subclass that restated it (as the library's classes do) had its own act compared with
    # itself and ignored, the run playing the C++ heuristic.
    calls = []

    class Restated(dz.bots.Heuristic):
        name = __builtin_policy__ = "heuristic"

        def act(self, game: dz.Game) -> dz.Action:
            calls.append(game.to_move)
            return game.legal_actions()[0]

    class Claims:  # no library class beneath: names no C++ policy
        __builtin_policy__ = "heuristic"

        def act(self, game: dz.Game) -> dz.Action:
            calls.append(game.to_move)
            return game.legal_actions()[0]

    class RestatedOnly(dz.bots.Random):  # no act of its own: the library's class, in C++
        name = __builtin_policy__ = "heuristic"

    first = lambda view, legal: legal[0]  # noqa: E731
    for bot in (Restated(), Claims()):
        calls.clear()
        assert dz.bots.builtin(bot) is None
        played = dz.selfplay(3, policy=[bot, "random", "random"], seed=1)
        assert calls and played.payouts.tolist() == dz.selfplay(3, policy=[first, "random", "random"],
                                                                  seed=1).payouts.tolist()
    restated = dz.selfplay(3, policy=[RestatedOnly(), "random", "random"], seed=1)
    assert restated.payouts.tolist() == dz.selfplay(3, policy="random", seed=1).payouts.tolist()



def test_a_win_rate_interval_holds_its_win_rate_at_zero_and_one() -> None:
    # Rounding left the Wilson interval a hair above 0 (3.5e-18) or below 1 when every game
    # went one way.
    for a, b in (("random", "heuristic"), ("heuristic", "random")):
        result = dz.evaluate(a, b, deals=2, rules=Rules.preset("standard"), seed=7)
        for side in (result, *(s for s in result.by_role.values() if s.games)):
            low, high = side.wp_ci
            assert 0.0 <= low <= side.wp <= high <= 1.0


def test_a_bots_own_error_passes_through_naming_the_bot_and_its_seat() -> None:
    class Broken:
        def act(self, game: dz.Game) -> dz.Action:
            raise RuntimeError("my bug")

    with pytest.raises(RuntimeError, match="my bug") as raised:
        dz.selfplay(1, policy=[Broken(), "random", "random"], threads=1)  # type: ignore[list-item]
    if sys.version_info >= (3, 11):  # exception notes
        assert any("raised by the bot Broken choosing for seat 0" in note for note in raised.value.__notes__)


def test_a_bot_that_steps_its_game_is_named_at_its_own_seat() -> None:
    # The seat was read after the bot had stepped its copy: "at seat 1", or "at seat None".
    class Meddler:
        def act(self, game: dz.Game) -> dz.Action:
            game.step(game.legal_actions()[0])
            return game.legal_actions()[0]

    with pytest.raises(dz.IllegalActionError, match="the bot Meddler at seat 0 returned"):
        dz.selfplay(1, policy=[Meddler(), "heuristic", "heuristic"], seed=1)

    class Raising:
        def act(self, game: dz.Game) -> dz.Action:
            game.step(game.legal_actions()[0])
            raise RuntimeError("no")

    with pytest.raises(RuntimeError) as raised:
        lockstep.choose(Raising(), dz.Game(seed=1), 0)
    assert "raised by the bot Raising choosing for seat 0" in raised.value.__notes__


def test_a_progress_of_the_wrong_signature_is_refused_before_any_game() -> None:
    # With built-in players it was first called at the end, every game played for nothing.
    with pytest.raises(TypeError, match=r"progress is called with 2 arguments, and <function .*<lambda>.* cannot take"):
        dz.evaluate("heuristic", "random", deals=3000, progress=lambda done: None)
    seen: list[tuple[int, ...]] = []
    dz.evaluate("random", "random", deals=2, progress=lambda *done: seen.append(done))
    assert seen[0] == (0, seen[-1][1]) and seen[-1][0] == seen[-1][1] > 0  # as the run begins, and at its end

    class Calls(list[tuple[int, int]]):  # a callable that is falsy while empty: called all the same
        def __call__(self, done: int, total: int) -> None:
            self.append((done, total))

    calls = Calls()
    dz.evaluate("random", "random", deals=2, progress=calls)
    assert calls[0][0] == 0 and calls[-1][0] == calls[-1][1] > 0


@pytest.mark.parametrize("path", [5, True, 3.0])
def test_a_network_path_of_another_type_is_refused_by_name(path: object) -> None:
    with pytest.raises(TypeError, match=f"path must be a str or os.PathLike, not {type(path).__name__}"):
        Neural(path)  # type: ignore[arg-type]


def test_every_bot_says_a_finished_hand_alike() -> None:
    over = dz.playout(dz.Game(seed=1), "random", 1)
    for bot in (Random(), FastHeuristic(), Heuristic(), Neural(), ISMCTS(), DeterminizedBot()):
        with pytest.raises(dz.IllegalActionError, match="the hand is over"):
            bot.act(over)


_GOING_OUT = [  # (hands, landlord, to_move, preset, the play that goes out), from a probe of the bots' games
    (["TTJJQQ222R", "AAAB", "359TKKK"], 0, 1, "douzero", "AAAB"),  # the bots played AAA and lost
    (["34699TTTJQK2", "55JKKAAAA", "6662"], 1, 2, "standard", "6662"),
    (["9TKKKKABR", "JJJ2", "TQQA2"], 0, 1, "standard", "JJJ2"),
    (["B", "34445799TTQQQKK2R", "9JAAAA"], 2, 2, "standard", "9JAAAA"),  # the heuristics led the J
    (["JAAAA2", "7TTTTQ2BR", "4456JJQ22"], 0, 0, "douzero", "JAAAA2"),
]


@pytest.mark.parametrize("bot", [Heuristic(), FastHeuristic(), Neural(), ISMCTS(simulations=200, seed=1),
                                 DeterminizedBot(seed=1)], ids=lambda b: type(b).__name__)
def test_every_bot_but_random_goes_out_when_it_can(bot: Bot) -> None:
    # The plans keep 2s, jokers and bombs apart from kickers, so a trio with a 2 or four
    # with two that empties the hand was passed over, and the endgame's worlds counted a
    # sure win no higher than a likely one (the network passed holding the rocket).
    for hands, landlord, to_move, preset, out in _GOING_OUT:
        game = dz.Game.from_position(hands, landlord=landlord, to_move=to_move, rules=Rules.preset(preset))
        assert str(bot.act(game)) == out
    rng = np.random.default_rng(0)
    chances = 0
    for seed in range(12 if isinstance(bot, (ISMCTS, DeterminizedBot)) else 60):
        game = dz.Game(seed=seed)
        while game.phase != "over":
            legal = game.legal_actions()
            hand = game.hand(game.to_move)
            outs = [a for a in legal if game.phase == "playing" and a.move is not None and a.move.cards == hand]
            action = bot.act(game) if outs or rng.random() < 0.5 else legal[rng.integers(len(legal))]
            chances += bool(outs)
            assert not outs or action in outs, (seed, str(hand), [str(a) for a in outs], str(action))
            game.step(action)
    assert chances >= 10
