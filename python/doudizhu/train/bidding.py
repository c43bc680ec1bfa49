"""Bid networks: Monte-Carlo values of each bid, learned from the outcomes of hands played by
the play networks under the rule book's scoring (docs/guide/learned_bot.md).

Each round the engine plays ``games`` hands (:func:`doudizhu._core.bid_samples`, C++
without the GIL): the auction bid by the current bid network (the heuristic's bids in the
first round), a share ``explore`` of the bids drawn uniformly, the hand played by the play
networks in every seat (without the endgame search, ten times cheaper on average). Every
bid is a sample: the seat's bidding features, the bid, and the payout its seat ended
with (the bid, bombs and spring included). The bid network is fitted by mean squared
error of its value of the bid made to that payout (over ``PAYOUT_SCALE``), on the last
``window`` rounds' samples; the policy bids the legal bid of highest value.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping

import numpy as np
import torch

from .. import network_file
from .._core import Network, NetworkError, Rules, bid_samples, checked_int, checked_seed
from ..bots import Neural
from ..value_networks import SmallNet
from .run_folder import run_folder, writing
from .settings import check_counts, check_fields, check_names, check_positive, check_shares

FILE = "bidding.ddzn"  # each round's play and bid networks, in the run's folder
PAYOUT_SCALE = 8.0  # payouts are fitted in units of 8 stakes, so that targets are near 1


@dataclasses.dataclass(frozen=True)
class BidConfig:
    rules: str = "standard"  # the preset whose scoring the auction is learned under, its bidding each mode
    modes: tuple[str, ...] = ("classic", "call_rob")
    rounds: int = 8
    games: int = 20_000  # hands a round
    window: int = 3  # rounds of samples learned
    epochs: int = 3  # passes over the window a round
    explore: float = 0.2
    batch_size: int = 512
    learning_rate: float = 1e-3
    hidden: tuple[int, ...] = (256, 128)
    seed: int = 0
    threads: int = 2

    def __post_init__(self) -> None:
        check_fields(self)
        checked_seed(self.seed)
        rules = Rules.preset(self.rules)  # RulesError for a name of no preset
        try:  # the play networks play the hands out (the auction, each mode's, does not change what they read)
            Neural().check(rules)
        except NetworkError as error:
            raise NetworkError(f"rules {self.rules!r}: {error}") from None
        check_names(self.modes, "modes", network_file.BID_MODES)
        check_counts(self, {"rounds": 1 << 16, "games": 1 << 30, "window": 1 << 16, "epochs": 1 << 16,
                            "batch_size": 1 << 24, "threads": 256})
        for width in self.hidden:
            checked_int(width, "hidden's widths", 1, 1 << 16)
        check_positive(self, ("learning_rate",))
        check_shares(self, ("explore",))


def fit(net: network_file.BidNet, optimizer: torch.optim.Optimizer, samples: Mapping[str, np.ndarray],
        config: BidConfig, rng: np.random.Generator) -> float:
    """``config.epochs`` passes over ``samples``; the last pass's mean loss."""
    features = torch.from_numpy(samples["features"]).float()
    output = torch.from_numpy(samples["output"].astype(np.int64))
    target = torch.from_numpy(samples["payout"]) / PAYOUT_SCALE
    losses: list[float] = []
    for _ in range(config.epochs):
        losses = []
        order = torch.from_numpy(rng.permutation(len(output)))
        for first in range(0, len(order), config.batch_size):
            rows = order[first:first + config.batch_size]
            values = net(features[rows]).gather(1, output[rows, None]).squeeze(1)
            loss = ((values - target[rows]) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(float(loss.detach()))
    return float(np.mean(losses)) if losses else 0.0


def train_bidding(play: Mapping[str, SmallNet], config: BidConfig, folder: str | os.PathLike[str],
                  metadata: Mapping[str, object],
                  report: Callable[[str, int, float], None] | None = None) -> dict[str, network_file.BidNet]:
    """Bid networks for ``config.modes`` over the play networks ``play``; each round's file
    (play and bid networks) is written to ``folder``/``FILE``."""
    out = run_folder(folder)
    with writing(out):
        return _train_bidding(play, config, out, metadata, report)


def _train_bidding(play: Mapping[str, SmallNet], config: BidConfig, folder: str, metadata: Mapping[str, object],
                   report: Callable[[str, int, float], None] | None) -> dict[str, network_file.BidNet]:
    path = os.path.join(folder, FILE)
    torch.manual_seed(config.seed)
    rng = np.random.default_rng(config.seed)
    nets = {mode: network_file.BidNet(mode, config.hidden) for mode in config.modes}
    optimizers = {mode: torch.optim.Adam(net.parameters(), lr=config.learning_rate) for mode, net in nets.items()}
    history: dict[str, list[dict[str, np.ndarray]]] = {mode: [] for mode in config.modes}
    network_file.write(path, play, {}, metadata)
    for round_ in range(config.rounds):
        player = Neural(path, endgame=False)
        for mode in config.modes:
            rules = Rules.preset(config.rules).replace(bidding=mode)
            bidder = player if round_ > 0 else "heuristic"
            samples = bid_samples(config.games, rules, seed=config.seed, first=round_ * config.games,
                                  threads=config.threads, bidder=bidder, player=player, explore=config.explore)
            history[mode] = [*history[mode][-(config.window - 1):], samples] if config.window > 1 else [samples]
            window = {key: np.concatenate([s[key] for s in history[mode]]) for key in samples}
            loss = fit(nets[mode], optimizers[mode], window, config, rng)
            if report:
                report(mode, round_, loss)
        network_file.write(path, play, nets, metadata)
    return nets


def bid_nets_of(path: str | os.PathLike[str]) -> dict[str, network_file.BidNet]:
    """The bid networks of a network file."""
    return network_file.modules(Network(path))[1]


__all__ = ["FILE", "PAYOUT_SCALE", "BidConfig", "bid_nets_of", "fit", "train_bidding"]
