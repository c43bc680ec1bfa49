"""Evaluation of one policy against another: DouZero's protocol, generalised (docs/guide/bots.md).

Every deal is played once for each seat that policy ``a`` plays alone, the other seats
``b``'s, and once more with the two swapped; random policies draw the same numbers in a
game and its swap. Without bidding the seat is the landlord's (the first bidder, deal
mod players), so each deal is DouZero's two games: ``a`` as the landlord against ``b`` as
the peasants, then the reverse. With bidding every seat takes its turn, so each policy
bids from each seat equally. ``a``'s score in a game is the sum of its seats' payouts in
stakes; it wins a game when that is positive. Void hands (nobody bid, no redeal) count in
``games`` and ``adp`` and not in ``wp``. Without a landlord (``each_for_self``, run_fast)
``a`` plays one seat (deal mod players) against ``b``'s two, then the reverse; it wins a
game when one of its seats goes out first, and its ADP is its seats' mean points.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import Rules
from ._progress import progress_bar
from .bots import builtin
from .lockstep import Player, check_player, check_rules, run_tables

_Z95 = 1.959963984540054  # the two-sided 95% normal quantile
_MAX_DEALS = 100_000_000


@dataclasses.dataclass(frozen=True)
class Side:
    """WP and ADP over some games, with 95% intervals over deals (a deal's games are paired)."""

    games: int
    wp: float
    adp: float
    wp_ci: tuple[float, float]
    adp_ci: tuple[float, float]


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """``a``'s results against ``b``: overall and by the role ``a``'s seats played."""

    wp: float
    adp: float
    wp_ci: tuple[float, float]
    adp_ci: tuple[float, float]
    games: int
    deals: int
    void: int
    mean_bombs: float
    mean_multiplier: float
    # "landlord": a played the landlord alone; "peasants": a played every peasant; "mixed":
    # the other games of bidding rules (the landlord's seat and a peasant's of one policy),
    # and with four_partner every game whose landlord named a partner (each side mixed).
    # Without a landlord: "one seat" (a played one seat) and "two seats" (the other two).
    by_role: dict[str, Side]
    columns: dict[str, npt.NDArray[Any]] = dataclasses.field(repr=False)
    names: tuple[str, str] = ("a", "b")  # a's and b's, as evaluate was given them (a bot: its repr)

    def table(self, a: str | None = None, b: str | None = None) -> str:
        """A Markdown table of the results, then what its rows and game count mean; ``a`` and
        ``b`` name the players (default: :attr:`names`)."""
        a, b = a if a is not None else self.names[0], b if b is not None else self.names[1]
        lines = [f"| {a} against {b} | games | WP (95% CI) | ADP (95% CI) |", "|---|---:|---:|---:|"]
        rows = [("all", Side(self.games, self.wp, self.adp, self.wp_ci, self.adp_ci)), *self.by_role.items()]
        for name, side in rows:
            if not side.games:
                continue
            # One game has no spread to make an interval of: said, not printed as "nan to nan".
            wp_ci = "no interval" if math.isnan(side.wp_ci[0]) else f"{side.wp_ci[0]:.3f}-{side.wp_ci[1]:.3f}"
            adp_ci = "no interval" if math.isnan(side.adp_ci[0]) else f"{side.adp_ci[0]:+.3f} to {side.adp_ci[1]:+.3f}"
            lines.append(f"| {name} | {side.games} | {side.wp:.3f} ({wp_ci}) | {side.adp:+.3f} ({adp_ci}) |")
        # Rules without a landlord have no auction, so no hand there is void.
        void = "" if "one seat" in self.by_role else f", {self.void} void hands"
        lines.append(f"\n{self.deals} deals{void}; mean bombs {self.mean_bombs:.3f}, "
                     f"mean multiplier {self.mean_multiplier:.3f}")
        return "\n".join(lines) + "\n" + self._notes(a, b)

    def _notes(self, a: str, b: str) -> str:
        """What the game count and the table's rows mean (the protocol of :func:`evaluate`)."""
        if "one seat" in self.by_role:  # no landlord: one seat against two, then swapped
            return (f"\nEach deal is played twice: {a} in one seat (deal mod players) against {b} in the others, "
                    f"then the two swapped.\none seat: {a} in the one seat; two seats: {a} in the other two.")
        per_deal = self.games // self.deals
        alone = per_deal // 2  # the seats a policy plays alone in: every seat with an auction, else the landlord's
        where = f"each of its {alone} seats" if alone > 1 else "the landlord's seat (there is no auction)"
        lines = [f"\nEach deal is played {per_deal} times: {a} alone in {where} against {b} in the others, "
                 "then the two swapped.",
                 f"landlord: {a} alone, as the landlord; peasants: {a} in every peasant seat, {b} the landlord."]
        if self.by_role["mixed"].games:
            lines.append(f"mixed: {a} and {b} on one side (the auction made a landlord beside the lone seat, or the "
                         "landlord's partner; void hands count here too); 'all' includes these games.")
        return "\n".join(lines)


def evaluate(
    a: Player,
    b: Player,
    deals: int = 10_000,
    rules: Rules | None = None,
    seed: int | None = 0,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Evaluation:
    """Plays ``deals`` deals by the protocol above and returns ``a``'s results against ``b``.

    Every game runs on the core's table runner: built-in policies (names,
    :class:`~doudizhu.bots.Random`, :class:`~doudizhu.bots.Heuristic`, ...) play in C++ on
    ``threads`` threads (default: every core) without the GIL, and any other bot or
    callable is handed every table waiting on it in one call (a bot's ``act_many``), each
    as a game whose hidden cards are re-dealt (:func:`~doudizhu.lockstep.run_tables`). The
    same seed gives the same result whatever the thread count. ``progress(done, total)``
    is called with the games ended so far and the run's games: as the run begins, between
    batches, and at the end (with no Python player at the table, only then)."""
    rules = rules if rules is not None else Rules()
    deals = _core.checked_int(deals, "deals", 1, _MAX_DEALS)  # no deal has no result to report
    seed = _core.checked_seed(seed)
    threads = os.cpu_count() or 1 if threads is None else _core.checked_int(threads, "threads", 1, 256)
    check_player(a, "a")
    check_player(b, "b")
    names = (_name(a), _name(b))  # before the games: a repr that raises would lose them all
    run = _core.evaluation_run(builtin(a), builtin(b), deals, rules, seed, threads)  # plays nothing yet
    roles = ("evaluate's a", "evaluate's b")
    check_rules([a, b], rules, roles)
    run_tables(run, [a, b], progress, roles)
    return dataclasses.replace(_summarise(run.result(), deals), names=names)


def _name(player: Player) -> str:
    """A player as a table names it: a policy's name, a function's, a bot's repr."""
    return player if isinstance(player, str) else getattr(player, "__name__", None) or repr(player)


def _side(columns: dict[str, npt.NDArray[Any]], chosen: npt.NDArray[np.bool_], deals: int) -> Side:
    """WP and ADP over the chosen games, with intervals over the deals' means."""
    score = columns["a_score"][chosen]
    first_out = columns["a_won"][chosen]  # each for itself: 1 when a seat of a went out first
    decided = (score != 0) | (first_out >= 0)
    won = np.where(first_out >= 0, first_out == 1, score > 0)
    deal = columns["deal"][chosen]
    games = int(chosen.sum())
    # Over no games (a role no game gave a, or only void hands) there is no rate: NaN, not 0.
    wp = float(won.sum() / decided.sum()) if decided.any() else math.nan
    adp = float(score.mean()) if games else math.nan
    # Per deal: its games' mean score and its decided games' share of wins.
    counts = np.bincount(deal, minlength=deals)
    played = counts > 0
    adp_by_deal = np.bincount(deal, weights=score, minlength=deals)[played] / counts[played]
    decided_by_deal = np.bincount(deal, weights=decided, minlength=deals)
    has_result = decided_by_deal > 0
    wp_by_deal = np.bincount(deal, weights=won, minlength=deals)[has_result] / decided_by_deal[has_result]
    return Side(games, wp, adp, _share_interval(wp, wp_by_deal, int(decided.sum())), _interval(adp, adp_by_deal, score))


def _interval(mean: float, per_deal: npt.NDArray[np.float64], per_game: npt.NDArray[Any]) -> tuple[float, float]:
    """The normal interval of a mean over deals (a deal's games are paired). When the deals
    show no spread (one deal, or every deal's mean the same) the games' spread stands in,
    as if they were independent, rather than an interval of no width (NaN from one game)."""
    spread, n = (per_deal, len(per_deal)) if len(per_deal) > 1 and per_deal.std() > 0 else (per_game, len(per_game))
    if n < 2:
        return (math.nan, math.nan)
    half = _t95(n - 1) * float(np.std(spread, ddof=1)) / math.sqrt(n)
    return (mean - half, mean + half)


@functools.cache
def _t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (12.71 for
    1, 4.30 for 2, 2.26 for 9, the normal 1.96 in the limit): an interval whose spread is
    itself estimated from few deals is that much wider, or it misses the mean far more
    often than 1 in 20 (3 deals: about 1 in 7). Found by bisection on the density's
    integral from 0 (Simpson's rule; no SciPy needed)."""
    if df > 100_000:
        return _Z95
    log_scale = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def mass_below(t: float) -> float:  # P(0 < T < t)
        x = np.linspace(0.0, t, 4097)
        density = np.exp(log_scale - (df + 1) / 2 * np.log1p(x * x / df))
        return float((density[0] + density[-1] + 4 * density[1:-1:2].sum() + 2 * density[2:-1:2].sum()) * t / 12288)

    low, high = _Z95, 20.0  # t_1 is 12.71; every other df's quantile lies between
    for _ in range(50):
        middle = (low + high) / 2
        low, high = (middle, high) if mass_below(middle) < 0.475 else (low, middle)
    return (low + high) / 2


def _share_interval(share: float, per_deal: npt.NDArray[np.float64], decided: int) -> tuple[float, float]:
    """The Wilson score interval of a share of wins, over the sample size the deals' spread
    is worth (the paired design's effective size: the share's variance over its squared
    standard error from the deals; pairing the roles makes it more than the games). It
    stays within 0..1, and has width when the deals show no spread (every game went one
    way, or each deal's share came out the same: the decided games are the size then),
    where the normal interval reached past 1 or shrank to a point; with many deals and a
    share away from 0 and 1 the two agree."""
    n = len(per_deal)
    spread = float(per_deal.var(ddof=1)) / n if n > 1 else 0.0
    if decided == 0 or math.isnan(share):
        return (share, share)  # no games: no share, NaN
    size = share * (1 - share) / spread if spread > 0 else float(decided)
    z = _t95(n - 1) if spread > 0 else _Z95  # a size from the deals' spread is an estimate of few deals
    z2 = z * z
    centre = (share + z2 / (2 * size)) / (1 + z2 / size)
    half = z / (1 + z2 / size) * math.sqrt(share * (1 - share) / size + z2 / (4 * size * size))
    # Within 0..1 and around the share itself (at 0 or 1 rounding left it a hair outside).
    return (max(0.0, min(share, centre - half)), min(1.0, max(share, centre + half)))


def _summarise(columns: dict[str, npt.NDArray[Any]], deals: int) -> Evaluation:
    games = len(columns["deal"])
    everything = np.ones(games, dtype=np.bool_)
    overall = _side(columns, everything, deals)
    landlord, seat, swapped = columns["landlord"], columns["seat"], columns["swapped"]
    # The seat one policy plays alone is the landlord's whole side: the landlord, no partner.
    whole_side = (landlord == seat) & (columns["partner"] < 0)
    a_alone_landlord = ~swapped & whole_side
    b_alone_landlord = swapped & whole_side
    by_role = {
        "landlord": _side(columns, a_alone_landlord, deals),
        "peasants": _side(columns, b_alone_landlord, deals),
        "mixed": _side(columns, ~a_alone_landlord & ~b_alone_landlord, deals),  # with bidding: a and b on one side
    }
    if (columns["a_won"] >= 0).any():  # no landlord: a's one seat, or the two others
        by_role = {"one seat": _side(columns, ~swapped, deals), "two seats": _side(columns, swapped, deals)}
    return Evaluation(
        wp=overall.wp,
        adp=overall.adp,
        wp_ci=overall.wp_ci,
        adp_ci=overall.adp_ci,
        games=games,
        deals=deals,
        void=int(((landlord < 0) & (columns["a_won"] < 0)).sum()),
        mean_bombs=float(columns["bombs"].mean()) if games else 0.0,
        mean_multiplier=float(columns["multiplier"].mean()) if games else 0.0,
        by_role=by_role,
        columns=columns,
    )


def print_progress(done: int, total: int) -> None:
    """A progress bar of games on a terminal (standard error), nothing otherwise."""
    progress_bar(done, total, "games")


__all__ = ["Evaluation", "Side", "evaluate", "print_progress"]
