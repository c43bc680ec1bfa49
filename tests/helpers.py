"""What the test files share: the decks, the preset names, hypothesis strategies, and
helpers that play games or compare moves. (The peers' card conversions are in peers.py,
which does not import doudizhu, so that bench/ can use them too.)"""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import threading
import time
from typing import Any, Callable

import pytest
from hypothesis import strategies as st

import doudizhu as dz
from doudizhu import Cards, Game, Move, Rules

import peers

# ---------------------------------------------------------------------------- constants
FULL_DECK = Cards(peers.FULL_DECK_TEXT)
TWO_DECKS = FULL_DECK + FULL_DECK
# Our standard rules and the presets of the peers' rules, by name.
PRESETS = peers.PEER_PRESETS
VARIANTS = ("sanren", "happy", "four_player")
BIDDINGS = ("classic", "call_rob", "none")
# Whether the engine runs under AddressSanitizer (fuzz/python_asan.sh preloads it).
UNDER_ASAN = "asan" in os.environ.get("LD_PRELOAD", "")


def deck(rules: Rules) -> Cards:
    """Every card the rules deal."""
    return TWO_DECKS if rules.decks == 2 else FULL_DECK


def deck_counts(rules: Rules) -> list[int]:
    """How many cards of each rank the rules' deck holds (a deal's hands and kitty
    together: 54 a deck, run_fast's 48)."""
    hands, kitty, _ = Game(seed=0, rules=rules, first_bidder=None if rules.each_for_self else 0).deals[0]
    return [sum(h.counts[r] for h in hands) + kitty.counts[r] for r in range(15)]


def in_deck(cards: Cards, rules: Rules) -> bool:
    """Whether the rules' deck holds ``cards``."""
    return all(c <= d for c, d in zip(cards.counts, deck_counts(rules)))


def hand_size(rules: Rules) -> int:
    """The cards each seat is dealt (before the kitty)."""
    return (sum(deck_counts(rules)) - rules.kitty_size) // rules.players


def max_hand(rules: Rules) -> int:
    """The most cards a seat holds (Rules::max_hand): the landlord's share and the kitty, or
    a dealt share when each plays for itself (nobody takes the cards set aside)."""
    return hand_size(rules) + (0 if rules.each_for_self else rules.kitty_size)


# --------------------------------------------------------------------------- strategies
seeds = st.integers(0, 2**64 - 1)  # any Game seed
# Seeds that also seed sample_worlds (0..2**63 - 1) or count on from there.
small_seeds = st.integers(0, 2**32)
step_counts = st.integers(0, 80)  # random actions played before a check
# Arguments of any type, for calls that must answer or raise TypeError / ValueError.
anything = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True),
    st.text(max_size=5), st.text(), st.binary(), st.lists(st.integers(-3, 3), max_size=3),
    st.lists(st.integers(), max_size=3),
    st.sampled_from([dz.Action.pass_(), dz.Move("3"), dz.Cards("3"), dz.Game(seed=1)]),
)


@st.composite
def hands(draw: st.DrawFn, max_size: int = 20, decks: int = 1) -> Cards:
    """A hand of up to ``max_size`` distinct physical cards of ``decks`` decks."""
    cards = peers.deck_ranks(decks)
    picks = draw(st.lists(st.sampled_from(range(len(cards))), unique=True, max_size=max_size))
    counts = [0] * 15
    for i in picks:
        counts[cards[i]] += 1
    return Cards.from_counts(counts)


# ------------------------------------------------------------------------------- moves
def move_key(move: Move) -> tuple[int, int, int, int]:
    """A move as plain values: (cards mask, kind, key, length)."""
    return (move.cards.mask, int(move.kind), move.key, move.length)


def sub_multisets(hand: Cards) -> list[Cards]:
    """Every sub-multiset of the hand, the empty one and the hand included."""
    return [Cards.from_counts(list(counts)) for counts in itertools.product(*(range(c + 1) for c in hand.counts))]


# ------------------------------------------------------------------------------- games
def play_randomly(game: Game, rng: random.Random, steps: int | None = None,
                  each: Callable[[Game], None] | None = None) -> Game:
    """Steps the game with uniformly random legal actions until it is over, or for at most
    ``steps`` actions; calls ``each(game)`` after every action. Returns the game."""
    for _ in itertools.count() if steps is None else range(steps):
        if game.phase == "over":
            break
        game.step(rng.choice(game.legal_actions()))
        if each is not None:
            each(game)
    return game


def check_replay_and_undo(game: Game, hashes: list[int]) -> None:
    """A finished game's record (through JSON) replays to the same game, and undo walks
    back through ``hashes``: the hash before the first action, then after each."""
    replay = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert replay.hash == game.hash and replay.history == game.history and replay.result == game.result
    while game.history:
        game.undo()
        hashes.pop()
        assert game.hash == hashes[-1]


def random_game(seed: int, rules: Rules, steps: int, first_bidder: int = 0) -> Game:
    """A seeded hand after up to `steps` random actions (drawn from ``Random(seed)``)."""
    return play_randomly(Game(seed=seed, rules=rules, first_bidder=first_bidder), random.Random(seed), steps)


def games_in_play(count: int, rules: Rules) -> list[Game]:
    """Hands at many stages of their play, each seat to move in some and some with a single
    legal action: hand i of seed i after i mod 23 random actions (those not over)."""
    games = [random_game(seed, rules, seed % 23) for seed in range(count)]
    return [game for game in games if game.phase == "playing"]


def replay_selfplay_game(result: dz.SelfPlayResult, seed: int, i: int, rules: Rules | None = None) -> Game:
    """Game ``i`` of ``selfplay(..., seed=seed, rules=rules, record=True)`` replayed through
    Game from its recorded actions, each checked to be the move of the seat to move."""
    assert result.actions is not None and result.offsets is not None
    chosen = rules or Rules()
    first_bidder = None if chosen.each_for_self else i % chosen.players  # run_fast: the 3 of spades leads
    game = Game(seed=dz._core.game_seed(seed, i), rules=rules, first_bidder=first_bidder)
    for seat, action in dz.actions_from_rows(result.actions[result.offsets[i] : result.offsets[i + 1]]):
        assert game.to_move == seat
        game.step(action)
    return game


def held_cards(game: Game) -> Cards:
    """Every card of the game: the hands, the cards played, and the kitty while nobody has
    taken it (during the auction, or in a hand nobody bid for)."""
    total = Cards("")
    for seat in range(game.seats):
        total = total + game.hand(seat) + game.seat_view(seat)["played"][seat]
    untaken = game.phase == "bidding" or game.landlord is None
    return total + (game.kitty if untaken else Cards(""))


def spoiled_zips(saved: bytes) -> dict[str, bytes]:
    """A saved .npz (a zip) spoiled as hostile uploads spoil it, by what was done: emptied,
    cut short, its first member's compression method unknown (99), its compressed data
    overwritten."""
    local = saved.index(b"PK\x03\x04")  # the first member's header, then its name and extra field
    method = bytearray(saved)
    method[local + 8 : local + 10] = (99).to_bytes(2, "little")
    central = saved.index(b"PK\x01\x02")
    method[central + 10 : central + 12] = (99).to_bytes(2, "little")
    corrupt = bytearray(saved)
    start = local + 30 + int.from_bytes(saved[local + 26 : local + 28], "little")
    start += int.from_bytes(saved[local + 28 : local + 30], "little")
    corrupt[start : start + 16] = b"\xff" * 16
    return {"empty": b"", "cut short": saved[: len(saved) // 2], "unknown compression": bytes(method),
            "corrupt data": bytes(corrupt)}


def refused_or_ok(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Calls fn; TypeError and ValueError are the refusals allowed (with a message).
    Anything else escaping fails the test, with the arguments in the report."""
    try:
        return fn(*args, **kwargs)
    except (TypeError, ValueError) as e:
        assert str(e), f"{type(e).__name__} without a message from {getattr(fn, '__name__', fn)}{args!r}"
        return None
    except Exception as e:  # catching everything is the point of the test
        pytest.fail(f"{type(e).__name__} escaped {getattr(fn, '__name__', fn)}(*{args!r:.300}, **{kwargs!r:.300}): {e}")


class _Stop(Exception):
    """What interrupted's SIGINT handler raises (pytest keeps KeyboardInterrupt for itself)."""


def interrupted(call: Callable[[], object], within: float = 2.0) -> None:
    """Asserts that Ctrl-C (SIGINT) 0.3 s into ``call`` stops it within ``within`` seconds.
    The calls given run far longer uninterrupted (minutes; the shortest, a batch of moves,
    several seconds): a call deaf to the signal would see it only on returning, which also
    raises, so the time it took to stop is what tells the two apart."""
    sent: list[float] = []

    def stop(signum: int, frame: object) -> None:
        raise _Stop

    def send() -> None:
        sent.append(time.monotonic())
        signal.raise_signal(signal.SIGINT)

    before = signal.signal(signal.SIGINT, stop)
    timer = threading.Timer(0.3, send)
    try:
        timer.start()
        with pytest.raises(_Stop):
            call()
        stopped = time.monotonic()
    finally:
        timer.join()
        signal.signal(signal.SIGINT, before)
    assert stopped - sent[0] < within, f"stopped {stopped - sent[0]:.1f} s after Ctrl-C"


def sixty_four_fold(rules: Rules | None = None) -> Game:
    """A finished hand whose landlord plays four bombs and the rocket and goes out before
    anyone else plays (a spring): 64 times the base, unless ``rules`` cap it."""
    game = Game.from_deal(["BR2222AAAAKKKKQQQ", "33334444555566667", "7778888999TTTTJJ9"], "QJJ",
                          landlord=0, rules=rules)
    for cards in ("BR", "2222", "AAAA", "KKKK", "QQQQ", "JJ"):
        game.play(cards)
        if game.phase != "over":
            game.pass_()
            game.pass_()
    return game
