#!/usr/bin/env python
"""Strength of our built-in bots against rule bots nobody here wrote, inside DouZero's game.

    python bench/external_strength.py [--deals N] [--seed S] [--rows a,b,...]
                                      [--determinized-deals M] [--worlds W]
                                      [--quick] [--out PATH] [--no-write]

The games are played by DouZero 1.1.0's own ``douzero.env.game.GameEnv`` (no bidding, the
landlord leads with 20 cards, DouZero's scoring). The protocol is DouZero's
``evaluate.py``: random deals, each played twice, our bot as the landlord against the
other bot as both peasants, then the roles swapped on the same cards. Per deal our side
scores WP_d = (wins of our side in the two games) / 2 and ADP_d = the mean of our side's
two scores in DouZero's scoring (the landlord wins or loses 2 x 2^bombs, the rocket
counted as a bomb; the two peasants together the same, as ``evaluate.py`` doubles the
farmers' score). WP and ADP are the means over deals; the 95% intervals are
1.96 x the standard deviation over deals / sqrt(deals), the two games of a deal being
paired.

The deals are made the way DouZero's ``generate_eval_data.py`` makes them (a shuffled
54-card deck; cards 0-19 to the landlord, of which 17-19 are the kitty, 20-36 to
landlord_up, 37-53 to landlord_down), from ``numpy.random.RandomState(seed)``.

Players (``GameEnv`` agents, ``act(infoset) -> list of DouZero card ints``):

* ours: ``heuristic``, ``neural`` and ``ismcts`` (``doudizhu.choose_action(game, name, seed)``), and
  ``determinized`` (``doudizhu.bots.DeterminizedBot``), asked on a mirrored
  ``doudizhu.Game`` (``Game.from_deal`` under ``Rules.preset("douzero")``, the landlord
  given) that is stepped alongside DouZero's env with every action of every seat. The
  mirror holds every hand, as the engine must; our bots read only their own seat's
  information from it (tests/test_external_strength.py re-deals the hidden cards with
  ``sample_worlds`` and checks the heuristic's choice does not change).
* ``rlcard_agent``: DouZero's ``douzero.evaluation.rlcard_agent.RLCardAgent``, its port of
  RLCard's rule agent, as ``evaluate.py`` loads it.
* ``rule_v1``: RLCard 1.2.0's own ``rlcard.models.doudizhu_rule_models.
  DouDizhuRuleAgentV1`` (the agent of ``rlcard.models.load("doudizhu-rule-v1")``), called
  unchanged with the raw state it reads in RLCard's env (``trace``, ``current_hand``,
  ``actions``, ``landlord``, ``self``), built from DouZero's info set: the trace as RLCard
  player ids (landlord 0, landlord_down 1, landlord_up 2, RLCard's order of play), and
  ``actions`` RLCard's own legal actions for the hand and the move to beat
  (``DoudizhuPlayer.available_actions``, pass included when following). RLCard's rules
  offer a subset of DouZero's (docs/rules.md, presets: fewer kicker shapes), and each of its
  actions is checked to be in DouZero's list.
* ``random``: DouZero's ``RandomAgent`` (uniform over DouZero's list, duplicates
  included), for the anchor row RLCard's agent against random.

At every decision of every seat the set of legal card masks of DouZero's env (its
``infoset.legal_actions``, duplicates removed: docs/rules.md, peer bugs) must equal our
engine's on the mirror, or the script raises. The one other documented peer bug,
DouZero's ranking of a kicker trio as the body when following an airplane with solos
(docs/rules.md), is checked to explain the difference exactly (``peers.douzero_kicker_trio_bug``
and ``douzero_legal_fixed``) and counted. Each action, whoever chose it, is applied to the
mirror in DouZero's reading of its cards (``move_detector``), so both engines agree on the
move to beat; at the end both must agree on the winner and the bomb count.

Python's ``random`` and NumPy's global generator (the peers' random choices) are seeded
per game from (seed, deal, game), so a row is repeatable.

Writes (replaces) the ``## External strength`` section of bench/RESULTS.md (unless
--no-write or --quick).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import datetime
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import tests_path  # noqa: E402,F401  (tests/ on sys.path, for peers)
from results_md import add_output_arguments, publish  # noqa: E402

import peers  # noqa: E402

SECTION = "## External strength"
POSITIONS = peers.DOUZERO_POSITIONS  # our seats 0, 1, 2: landlord, landlord_down, landlord_up
SEAT = {p: i for i, p in enumerate(POSITIONS)}
OURS = ("heuristic", "neural", "ismcts", "determinized")
PEERS = ("rlcard_agent", "rule_v1", "random")
# name -> (our side, the other side); default rows in order.
ROWS = {
    "heuristic-rlcard_agent": ("heuristic", "rlcard_agent"),
    "heuristic-rule_v1": ("heuristic", "rule_v1"),
    "neural-rlcard_agent": ("neural", "rlcard_agent"),
    "neural-rule_v1": ("neural", "rule_v1"),
    "ismcts-rlcard_agent": ("ismcts", "rlcard_agent"),
    "determinized-rlcard_agent": ("determinized", "rlcard_agent"),
    "determinized-rule_v1": ("determinized", "rule_v1"),
    "rlcard_agent-random": ("rlcard_agent", "random"),
}
LABEL = {
    "heuristic": "heuristic (ours)",
    "neural": "neural (ours, the shipped network)",
    "ismcts": "ismcts (ours, the built-in defaults)",
    "determinized": "DeterminizedBot (ours)",
    "rlcard_agent": "DouZero's RLCardAgent",
    "rule_v1": "RLCard doudizhu-rule-v1",
    "random": "DouZero's RandomAgent",
}
MASK63 = (1 << 63) - 1


class Disagreement(AssertionError):
    """The two engines disagree on the legal moves, a reading or a result."""


# ----------------------------------------------------------------------------------------
# Deals


def douzero_deals(n: int, seed: int) -> list[dict]:
    """``n`` deals in the form of DouZero's eval data (``card_play_init``'s dict)."""
    import numpy as np

    rng = np.random.RandomState(seed)
    deck = [c for c in peers.DOUZERO_CARDS[:13] for _ in range(4)] + [20, 30]
    out = []
    for _ in range(n):
        cards = list(deck)
        rng.shuffle(cards)
        out.append({
            "landlord": sorted(cards[:20]),
            "landlord_up": sorted(cards[20:37]),
            "landlord_down": sorted(cards[37:54]),
            "three_landlord_cards": sorted(cards[17:20]),
        })
    return out


def _copy_deal(deal: dict) -> dict:
    return {k: list(v) for k, v in deal.items()}  # GameEnv consumes its lists


# ----------------------------------------------------------------------------------------
# The mirror: our engine, stepped with every action


@dataclass
class Stats:
    decisions: int = 0
    checked: int = 0
    kicker_trio_bug: int = 0
    our_decisions: int = 0
    our_seconds: float = 0.0


class Mirror:
    """Our ``doudizhu.Game`` holding the same position as DouZero's env."""

    def __init__(self, deal: dict, stats: Stats) -> None:
        import doudizhu as dz

        self.dz = dz
        self.rules = dz.Rules.preset("douzero")
        kitty = peers.douzero_to_mask(deal["three_landlord_cards"])
        hands = [peers.douzero_to_mask(deal[p]) for p in POSITIONS]
        hands[0] -= kitty
        self.game = dz.Game.from_deal([dz.Cards(h) for h in hands], dz.Cards(kitty), landlord=0, rules=self.rules)
        self.stats = stats

    def legal(self) -> dict[int, list]:
        """Our legal actions by card mask (0: pass)."""
        out: dict[int, list] = {}
        for a in self.game.legal_actions():
            out.setdefault(a.move.cards.mask if a.move is not None else 0, []).append(a)
        return out

    def check(self, position: str, infoset) -> dict[int, list]:
        """Raises unless DouZero's legal set at this decision equals ours."""
        if self.game.to_move != SEAT[position]:
            raise Disagreement(f"DouZero asks {position}, our engine seat {self.game.to_move}")
        ours = self.legal()
        theirs = {peers.douzero_to_mask(m) for m in infoset.legal_actions}
        self.stats.decisions += 1
        if theirs != set(ours):
            hand = peers.douzero_to_mask(infoset.player_hand_cards)
            last = peers.douzero_to_mask(infoset.last_move) if infoset.last_move else None
            explained = (
                last is not None
                and peers.douzero_kicker_trio_bug(hand, last)
                and peers.douzero_legal_fixed(hand, last) | {0} == set(ours)
            )
            if not explained:
                raise Disagreement(
                    f"legal moves differ for {position} holding {peers.mask_to_text(hand)} "
                    f"against {peers.mask_to_text(last) if last else 'nothing'}: "
                    f"only DouZero {sorted(peers.mask_to_text(m) for m in theirs - set(ours))}, "
                    f"only ours {sorted(peers.mask_to_text(m) for m in set(ours) - theirs)}"
                )
            self.stats.kicker_trio_bug += 1
        else:
            self.stats.checked += 1
        return ours

    def apply(self, cards: list, ours: dict[int, list]) -> None:
        """Steps the mirror with DouZero's action ``cards``, in DouZero's reading."""
        mask = peers.douzero_to_mask(cards)
        choices = ours.get(mask)
        if not choices:
            raise Disagreement(f"{peers.mask_to_text(mask) or 'pass'} is not legal in our engine")
        action = choices[0]
        if len(choices) > 1:
            reading = peers.douzero_reading(mask)
            match = [a for a in choices if (a.move.kind.name, a.move.key, a.move.length) == reading]
            if len(match) != 1:
                raise Disagreement(f"no single reading of {peers.mask_to_text(mask)} matches DouZero's {reading}")
            action = match[0]
        self.game.step(action)


# ----------------------------------------------------------------------------------------
# Agents: each wraps a player so that every decision is checked and mirrored


class Seat:
    """A GameEnv player: checks the legal set, asks ``choose``, mirrors the action."""

    def __init__(self, position: str, mirror_ref: list[Mirror | None], choose: Callable) -> None:
        self.position = position
        self.mirror_ref = mirror_ref
        self.choose = choose

    def act(self, infoset) -> list:
        mirror = self.mirror_ref[0]
        assert mirror is not None
        ours = mirror.check(self.position, infoset)
        cards = list(self.choose(infoset, mirror, ours))
        mirror.apply(cards, ours)
        return cards


def _ours(name: str, position: str, args) -> Callable:
    from doudizhu._core import choose_action

    bot = None
    if name == "determinized":
        from doudizhu.bots import DeterminizedBot

        bot = DeterminizedBot(worlds=args.worlds, seed=args.seed ^ 0x5EED ^ SEAT[position])

    def choose(infoset, mirror: Mirror, ours: dict[int, list]) -> list:
        game = mirror.game
        started = time.perf_counter()
        if bot is None:
            action = choose_action(game, name, (args.seed * 1_000_003 + mirror.stats.decisions) & MASK63)
        else:
            action = bot.act(game)
        mirror.stats.our_seconds += time.perf_counter() - started
        mirror.stats.our_decisions += 1
        mask = action.move.cards.mask if action.move is not None else 0
        return peers.mask_to_douzero(mask)

    return choose


def _rlcard_agent(position: str) -> Callable:
    from douzero.evaluation.rlcard_agent import RLCardAgent

    agent = RLCardAgent(position)
    return lambda infoset, mirror, ours: agent.act(infoset)


def _random_agent() -> Callable:
    from douzero.evaluation.random_agent import RandomAgent

    agent = RandomAgent()
    return lambda infoset, mirror, ours: agent.act(infoset)


def _rule_v1(position: str) -> Callable:
    from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

    agent = DouDizhuRuleAgentV1()
    me = SEAT[position]

    def choose(infoset, mirror: Mirror, ours: dict[int, list]) -> list:
        hand = peers.douzero_to_mask(infoset.player_hand_cards)
        seq = infoset.card_play_action_seq
        trace = [(i % 3, peers.mask_to_rlcard(peers.douzero_to_mask(m)) or "pass") for i, m in enumerate(seq)]
        last = peers.douzero_to_mask(infoset.last_move) if infoset.last_move else None
        actions = peers.rlcard_legal_list(hand, last)
        if last is not None:
            actions.append("pass")
        for a in actions:
            if (0 if a == "pass" else peers.rlcard_to_mask(a)) not in ours:
                raise Disagreement(f"RLCard offers {a}, which DouZero does not, holding {peers.mask_to_text(hand)}")
        state = {"raw_obs": {
            "trace": trace,
            "current_hand": peers.mask_to_rlcard(hand),
            "actions": actions,
            "landlord": 0,
            "self": me,
        }}
        action = agent.step(state)
        return [] if action == "pass" else peers.mask_to_douzero(peers.rlcard_to_mask(action))

    return choose


def make_players(ours_name: str, other_name: str, our_side: str, mirror_ref, args) -> dict:
    """The GameEnv players with ``ours_name`` as the landlord (our_side 'landlord') or as
    both peasants."""
    players = {}
    for position in POSITIONS:
        is_ours = (position == "landlord") == (our_side == "landlord")
        name = ours_name if is_ours else other_name
        if name in OURS:
            choose = _ours(name, position, args)
        elif name == "rlcard_agent":
            choose = _rlcard_agent(position)
        elif name == "rule_v1":
            choose = _rule_v1(position)
        elif name == "random":
            choose = _random_agent()
        else:
            raise ValueError(f"unknown player {name!r}")
        players[position] = Seat(position, mirror_ref, choose)
    return players


# ----------------------------------------------------------------------------------------
# Games and rows


def play_game(deal: dict, players_by_side: dict, our_side: str, seed: int, stats: Stats) -> tuple[bool, int]:
    """One game in DouZero's env; returns (our side won, our side's score)."""
    import numpy as np
    from douzero.env.game import GameEnv

    random.seed(seed)
    np.random.seed(seed & 0xFFFFFFFF)
    mirror_ref, players = players_by_side[our_side]
    mirror_ref[0] = Mirror(deal, stats)
    env = GameEnv(players)
    env.card_play_init(_copy_deal(deal))
    while not env.game_over:
        env.step()
    game = mirror_ref[0].game
    result = game.result
    if result is None or result.landlord_won != (env.get_winner() == "landlord"):
        raise Disagreement("the engines disagree on the winner")
    if result.bombs + result.rockets != env.get_bomb_num():
        raise Disagreement("the engines disagree on the bombs played")
    landlord_won = env.get_winner() == "landlord"
    won = landlord_won == (our_side == "landlord")
    score = 2 * 2 ** env.get_bomb_num()  # the landlord's, and the two farmers' together
    return won, score if won else -score


@dataclass
class RowResult:
    ours: str
    other: str
    deals: int = 0
    wp: list[float] = field(default_factory=list)  # per deal
    adp: list[float] = field(default_factory=list)
    landlord_wins: int = 0
    peasant_wins: int = 0
    seconds: float = 0.0
    stats: Stats = field(default_factory=Stats)

    @staticmethod
    def interval(xs: Sequence[float]) -> tuple[float, float]:
        mean = statistics.fmean(xs)
        half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
        return mean, half

    def summary(self) -> dict:
        wp, wp_half = self.interval(self.wp)
        adp, adp_half = self.interval(self.adp)
        return {"wp": wp, "wp_half": wp_half, "adp": adp, "adp_half": adp_half,
                "landlord_wp": self.landlord_wins / self.deals, "peasant_wp": self.peasant_wins / self.deals}


def run_row(ours: str, other: str, deals: list[dict], seed: int, args, first: int = 0,
            progress: bool = False) -> RowResult:
    row = RowResult(ours, other)
    sides = {}
    for side in ("landlord", "peasants"):
        ref: list[Mirror | None] = [None]
        sides[side] = (ref, make_players(ours, other, side, ref, args))
    started = time.perf_counter()
    for d, deal in enumerate(deals, start=first):
        games = []
        for g, side in enumerate(("landlord", "peasants")):
            game_seed = (seed * 0x9E3779B1 + 2 * d + g) & MASK63
            games.append(play_game(deal, sides, side, game_seed, row.stats))
        row.deals += 1
        row.landlord_wins += games[0][0]
        row.peasant_wins += games[1][0]
        row.wp.append((games[0][0] + games[1][0]) / 2)
        row.adp.append((games[0][1] + games[1][1]) / 2)
        if progress and row.deals % 500 == 0:
            s = row.summary()
            print(f"  {ours} vs {other}: {row.deals} deals, WP {s['wp']:.3f} ±{s['wp_half']:.3f}, "
                  f"ADP {s['adp']:+.3f}, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    row.seconds = time.perf_counter() - started
    return row


def _row_line(row: RowResult) -> str:
    s = row.summary()
    st = row.stats
    per = f"{1e6 * st.our_seconds / st.our_decisions:.0f}" if row.ours in OURS and st.our_decisions else ""
    return (f"| {LABEL[row.ours]} | {LABEL[row.other]} | {row.deals} | {s['wp']:.3f} ± {s['wp_half']:.3f} | "
            f"{s['adp']:+.3f} ± {s['adp_half']:.3f} | {s['landlord_wp']:.3f} | {s['peasant_wp']:.3f} | "
            f"{st.decisions} | {per} |")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    # ismcts rows are slow: run when asked for
    ap.add_argument("--rows", default=",".join(r for r in ROWS if not r.startswith("ismcts")),
                    help=f"comma-separated, from {', '.join(ROWS)}")
    ap.add_argument("--determinized-deals", type=int, default=1000,
                    help="deals for the DeterminizedBot rows (the first ones of the same deals)")
    ap.add_argument("--worlds", type=int, default=12, help="DeterminizedBot worlds per decision")
    ap.add_argument("--quick", action="store_true", help="smoke test: 5 deals a row, nothing written")
    ap.add_argument("--progress", action="store_true")
    add_output_arguments(ap)
    return ap


def main_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The parsed options (for tests that call run_row)."""
    return parser().parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    if args.quick:
        args.deals = args.determinized_deals = 5
        args.no_write = True
    names = [r.strip() for r in args.rows.split(",") if r.strip()]
    for name in names:
        if name not in ROWS:
            ap.error(f"unknown row {name!r}")

    from importlib import metadata

    import rlcard

    import doudizhu

    started = time.time()
    determinized = any(n.startswith("determinized") for n in names)
    all_deals = douzero_deals(max(args.deals, args.determinized_deals if determinized else 0), args.seed)
    lines = []
    rows = []
    for name in names:
        ours, other = ROWS[name]
        n = args.determinized_deals if ours == "determinized" else args.deals
        row = run_row(ours, other, all_deals[:n], args.seed, args, progress=args.progress)
        rows.append(row)
        lines.append(_row_line(row))
        print(lines[-1], f"({row.seconds:.0f} s, kicker-trio-bug decisions {row.stats.kicker_trio_bug})", flush=True)

    bug = sum(r.stats.kicker_trio_bug for r in rows)
    decisions = sum(r.stats.decisions for r in rows)
    md = [
        SECTION,
        "",
        f"Generated by `python bench/external_strength.py --deals {args.deals} --seed {args.seed} "
        f"--determinized-deals {args.determinized_deals} --worlds {args.worlds} --rows {','.join(names)}` on "
        f"{datetime.datetime.now():%Y-%m-%d %H:%M} ({time.time() - started:.0f} s); doudizhu-engine "
        f"{doudizhu.__version__}, DouZero {metadata.version('douzero')}, "
        f"RLCard {rlcard.__version__}.",
        "",
        "- Games in DouZero's `GameEnv` (no bidding, DouZero's scoring); DouZero's `evaluate.py` protocol: each "
        "deal played twice, our side as the landlord against the other as both peasants, then the roles "
        "swapped. WP: share of the games our side (the first column) wins; ADP: our side's mean score "
        "(±2 x 2^bombs a game). Intervals: 95%, over deals (a deal's two games are paired).",
        "- Deals: DouZero's `generate_eval_data.py` way, `numpy.random.RandomState(seed)`; every row plays the "
        "first N deals of the same list.",
        f"- Every decision ({decisions} in all) was checked: DouZero's legal set equals our engine's on the "
        f"mirrored `Game` (`Rules.preset(\"douzero\")`), DouZero's duplicates aside; {bug} decisions met "
        "DouZero's kicker-trio ranking bug (docs/rules.md) and differed exactly by it.",
        f"- DeterminizedBot: `DeterminizedBot(worlds={args.worlds})` from doudizhu.bots. µs/decision: our bot's "
        "mean wall time per decision through the Python API.",
        "",
        "| ours | against | deals | WP | ADP | WP as landlord | WP as peasants | decisions checked | µs/decision |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        *lines,
    ]
    publish("\n".join(md) + "\n", args.out, SECTION, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
