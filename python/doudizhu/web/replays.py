"""Games to step through: a record (``Game.to_record()``), a game of a saved ``selfplay``
``.npz``, or a hand the bots play out on the spot.

A replay keeps the finished Game and shows step ``k`` (0..``steps``) as that game with
its last ``steps - k`` actions undone: the engine's own undo, so no position is ever
reconstructed by hand.

A ``.npz`` holds no seed and no rules (``SelfPlayResult``: the hands and kitty of the deal
that was played, and every action). Its game ``i`` is rebuilt from the run's seed when one
is given (``selfplay_deal``, as the runner dealt it) and checked against the saved hands;
without a seed, from the saved deal, which a redealt game cannot be. Either way every
saved action is replayed through ``Game.step`` under the rules given.
"""

from __future__ import annotations

import io
import threading
import zipfile
from typing import Any

from .._core import Action, Cards, Game, Rules, actions_from_rows, selfplay_deal
from ..selfplay_result import SelfPlayResult
from .views import Thoughts

# A saved run is compressed; bound what it may expand to, not only what was uploaded.
MAX_NPZ_EXPANDED = 256 * 1024 * 1024
# Uploads expanded at once, the others waiting their turn: one bounded upload may take a
# few hundred MB while it is checked (a small file of zero arrays, 3.2M rows: 275 MB), so
# the bound is on the server's memory, not on each request's alone. from_npz is called
# holding it; the server waits for it in its event loop, where a waiting upload holds no
# worker thread.
EXPANDING = threading.BoundedSemaphore(2)


class Replay:
    """A finished (or stopped) game to step through: ``names`` of its seats where known (the
    bots of a watched hand), and a network bot's ``thoughts`` (:mod:`.thinking`)."""

    def __init__(self, game: Game, source: str, names: dict[int, str] | None = None,
                 thoughts: Thoughts | None = None) -> None:
        self.game = game
        self.source = source
        self.steps = len(game.history)
        self.names = names or {}
        self.thoughts = thoughts or {}

    def at(self, step: int) -> Game:
        """The game after its first ``step`` actions."""
        if not 0 <= step <= self.steps:
            raise IndexError(f"step {step} is out of range: this game has steps 0 to {self.steps}")
        game = self.game.copy()
        for _ in range(self.steps - step):
            game.undo()
        return game


def from_record(record: Any) -> Replay:
    """The record replayed by ``Game.from_record`` (which checks every field and action)."""
    return Replay(Game.from_record(record), "record")


def _load(data: bytes) -> SelfPlayResult:
    """The saved run of an upload: SelfPlayResult.load checks the whole file (RecordError, a
    ValueError, naming what is wrong), once its expanded size is seen to be bounded."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            expanded = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile as error:
        raise ValueError(f"not a saved selfplay .npz: {error}") from error
    if expanded > MAX_NPZ_EXPANDED:
        raise ValueError(f"the .npz expands to {expanded} bytes, more than the {MAX_NPZ_EXPANDED} allowed")
    return SelfPlayResult.load(io.BytesIO(data))


def from_npz(data: bytes, index: int, rules: Rules, seed: int | None) -> Replay:
    """Game ``index`` of a saved selfplay run played under ``rules`` (with the run's ``seed``
    if known), every saved action checked by the engine. Called holding :data:`EXPANDING`."""
    result = _load(data)
    actions = _saved_actions(result, index, rules)
    game = _first_deal(result, index, rules, seed, actions[0][0] if actions else 0)
    mismatch = f"game {index} does not replay with these rules{' and this seed' if seed is not None else ''}"
    for seat, action in actions:
        if game.to_move != seat:
            raise ValueError(f"{mismatch}: seat {seat} acts out of turn")
        try:
            game.step(action)
        except ValueError as error:
            raise ValueError(f"{mismatch}: {error}") from error
    _check_outcome(game, result, index, mismatch)
    return Replay(game, f"selfplay game {index}")


def _saved_actions(result: SelfPlayResult, index: int, rules: Rules) -> list[tuple[int, Action]]:
    """Game ``index``'s (seat, action) pairs, once the arrays are seen to fit together."""
    if result.actions is None or result.offsets is None:
        raise ValueError("this .npz holds no actions: save the run with them (selfplay --out, or record=True)")
    if not 0 <= index < len(result):
        raise IndexError(f"game {index} is out of range: this file has games 0 to {len(result) - 1}")
    if len(result.offsets) != len(result) + 1 or result.hands.shape != (len(result), rules.players):
        raise ValueError(f"the .npz's arrays do not fit {rules.players}-player games of one run")
    start, end = int(result.offsets[index]), int(result.offsets[index + 1])
    if not 0 <= start <= end <= len(result.actions):
        raise ValueError(f"game {index}'s action offsets are out of range")
    return actions_from_rows(result.actions[start:end])


def _saved_deal(result: SelfPlayResult, index: int) -> tuple[list[Cards], Cards]:
    return [Cards.from_mask(int(mask)) for mask in result.hands[index]], Cards.from_mask(int(result.kitty[index]))


def _first_deal(result: SelfPlayResult, index: int, rules: Rules, seed: int | None, first_bidder: int) -> Game:
    """The game before its first action: dealt from the run's seed as the runner dealt it,
    or else from the saved deal (the only deal of a game that was not redealt)."""
    if seed is not None:
        deal_seed, seed_bidder, _ = selfplay_deal(rules, seed, index)
        # -1: no bidder chosen (Run Fast's leader is the deal's)
        return Game(seed=deal_seed, rules=rules, first_bidder=seed_bidder if seed_bidder >= 0 else None)
    if int(result.redeals[index]) != 0:
        raise ValueError(f"game {index} was redealt: give the run's seed to replay it")
    hands, kitty = _saved_deal(result, index)
    wild = _saved_wild(result, index)
    return Game.from_deal(hands, kitty, first_bidder=first_bidder, rules=rules, wild=wild or None)


def _saved_wild(result: SelfPlayResult, index: int) -> tuple[int, ...]:
    """The saved game's wild ranks, lowest first (as Game.wild_ranks gives them)."""
    return tuple(int(rank) for rank in (result.wild[index], result.wild_high[index]) if rank >= 0)


def _check_outcome(game: Game, result: SelfPlayResult, index: int, mismatch: str) -> None:
    """The replayed game ends as the saved one did: its last deal, wild rank and payouts."""
    hands, kitty = _saved_deal(result, index)
    last_hands, last_kitty, _ = game.deals[-1]
    if list(last_hands) != hands or last_kitty != kitty:
        raise ValueError(f"{mismatch}: the saved hands differ")
    if game.wild_ranks != _saved_wild(result, index):
        raise ValueError(f"{mismatch}: the saved game's wild cards differ")
    settled = game.result
    if settled is None or list(settled.payouts) != [int(p) for p in result.payouts[index]]:
        raise ValueError(f"{mismatch}: the replayed hand does not end with the saved payouts")


__all__ = ["MAX_NPZ_EXPANDED", "Replay", "from_npz", "from_record"]
