"""The most legal moves a hand of the game can list, under each preset (docs/rules.md,
"Input and errors"): a local search over hands of the rules' largest size (the landlord's
with the kitty) and, with wild cards, over the wild ranks.

A lead lists every move a follow could (a follow keeps those of the led kind that beat it,
and the bombs), so leads are searched. The count of a hand depends only on its per-rank
counts: from random hands and a few shaped ones, each step moves one card to another rank
(or, with wild cards, changes a wild rank) while the count grows, then a few random steps
kick it out of the local maximum and it climbs again; the best over several starts is
printed. A search finds a lower bound of the true largest; the bound on input
size, not this figure, is what keeps the work finite.

    PYTHONPATH=python python bench/largest_output.py [preset ...] [--restarts N] [--kicks K] [--seed S]
"""

from __future__ import annotations

import argparse
import functools
import random
import time

import doudizhu as dz


@functools.cache
def _deck(rules: dz.Rules) -> tuple[tuple[int, ...], int]:
    """The rules' deck, as cards of each rank (Run Fast's has three aces, one 2, no jokers),
    and its largest hand (a dealt one, the landlord's with the kitty): a deal's, made once
    (the search asks at every step)."""
    game = dz.Game(seed=0, rules=rules)
    deck = sum((game.hand(seat) for seat in range(rules.players)), game.kitty)
    dealt = max(len(game.hand(seat)) for seat in range(rules.players))
    return tuple(deck.counts), dealt if rules.each_for_self else dealt + rules.kitty_size


def _count(counts: list[int], wild: tuple[int, ...], rules: dz.Rules) -> int:
    hand = dz.Cards.from_counts(counts)
    return len(dz.legal_moves_array(hand, None, rules, list(wild) or None))


def _random_hand(rng: random.Random, rules: dz.Rules, size: int) -> list[int]:
    deck = [rank for rank, n in enumerate(_deck(rules)[0]) for _ in range(n)]
    counts = [0] * 15
    for rank in rng.sample(deck, size):
        counts[rank] += 1
    return counts


def _neighbours(counts: list[int], wild: tuple[int, ...], rules: dz.Rules) -> list[tuple[list[int], tuple[int, ...]]]:
    limits = _deck(rules)[0]
    out = []
    for a in range(15):
        if not counts[a]:
            continue
        for b in range(15):
            if b != a and counts[b] < limits[b]:
                moved = counts.copy()
                moved[a] -= 1
                moved[b] += 1
                out.append((moved, wild))
    for i in range(len(wild)):
        for rank in range(13):
            if rank not in wild:
                changed = tuple(sorted((*wild[:i], rank, *wild[i + 1 :])))
                out.append((counts, changed))
    return out


Found = tuple[int, list[int], tuple[int, ...]]  # (moves, per-rank counts, wild ranks)


def _climb(counts: list[int], wild: tuple[int, ...], rules: dz.Rules, rng: random.Random) -> Found:
    """A local maximum: take the first neighbour that lists more moves, until none does."""
    value = _count(counts, wild, rules)
    improved = True
    while improved:
        improved = False
        options = _neighbours(counts, wild, rules)
        rng.shuffle(options)
        for next_counts, next_wild in options:
            next_value = _count(next_counts, next_wild, rules)
            if next_value > value:
                counts, wild, value, improved = next_counts, next_wild, next_value, True
                break
    return value, counts, wild


def _kicked(
    counts: list[int], wild: tuple[int, ...], rules: dz.Rules, rng: random.Random
) -> tuple[list[int], tuple[int, ...]]:
    """A few random steps away: out of a local maximum."""
    for _ in range(rng.randint(2, 5)):
        counts, wild = rng.choice(_neighbours(counts, wild, rules))
    return counts, wild


def search(preset: str, restarts: int, kicks: int, rng: random.Random) -> Found:
    """Iterated local search: from each random start, climb, then kick and climb again
    `kicks` times, keeping the better; the best over all starts."""
    rules = dz.Rules.preset(preset)
    size = _deck(rules)[1]
    best: Found = (0, [0] * 15, ())
    for _ in range(restarts):
        start = _random_hand(rng, rules, size), tuple(sorted(rng.sample(range(13), rules.wild)))
        current = _climb(*start, rules, rng)
        for _ in range(kicks):
            tried = _climb(*_kicked(current[1], current[2], rules, rng), rules, rng)
            if tried[0] >= current[0]:
                current = tried
        best = max(best, current, key=lambda found: found[0])
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", default=dz.Rules.presets())
    parser.add_argument("--restarts", type=int, default=8)
    parser.add_argument("--kicks", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for preset in args.presets:
        start = time.perf_counter()
        value, counts, wild = search(preset, args.restarts, args.kicks, rng)
        hand = dz.Cards.from_counts(counts)
        rules = dz.Rules.preset(preset)
        megabytes = value * dz.MOVE_DTYPE.itemsize / 2**20
        wild_text = f" wild {','.join(dz.rank_name(r) for r in wild)}" if wild else ""
        print(f"{preset}: {value} moves ({megabytes:.1f} MB as MOVE_DTYPE rows) from {hand}{wild_text} "
              f"[{len(hand)} cards, max {_deck(rules)[1]}; "
              f"{time.perf_counter() - start:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
