"""Deterministic benchmark positions for Dou Dizhu move generation.

Engine independent: only ``random.Random(seed)`` from the standard library, so the
same ``(n, seed)`` gives the same positions on every machine and Python version
(``Random.sample``/``randrange``/``choice`` on ints are stable since 3.2).

Text form: ranks ``3456789TJQKA2BR`` (T = ten, B/R = black/red joker), one character
per card, sorted ascending, e.g. ``'33344456'``, ``'BR'``.
Masks: rank index 0..14 for 3..R, 4 bits per rank (rank r at bits 4r..4r+3).
The notation and its conversions are tests/peers.py's (bench/tests_path.py).

Position sets ("mixed positions")
---------------------------------
* ``lead_positions(n, seed)``: ``(hand, None)``; hand sizes cycle 20 (the landlord's
  opening hand), 17 (a fresh peasant-sized hand) and an endgame hand of 1..10 cards.
* ``follow_positions(n, seed)``: ``(hand, last)``; the kind of ``last`` cycles through
  all 14 combination kinds (``KINDS``), the hand is a 17-card deal or an endgame hand
  of 1..10 cards.  ``last`` is built from cards the hand does not hold, is a valid
  combination under the *standard* rules (so valid under every preset, four-with-two
  aside for OpenSpiel) and has exactly one reading: kickers of pairwise different
  ranks, never a body rank, no joker kicking four-with-two, never both jokers.
  Chain lengths favour short chains (weights n..1 from the shortest).
  ``last`` has at most 16 cards (``MAX_LAST_CARDS``): longer moves (18/20 cards) can
  only be played by the landlord from a full hand and are never followed in practice.
  Hands of 20 cards never follow (the landlord leads the first trick), so follow
  hands are 17 cards or fewer.
* ``classify_positions(n, seed)``: move texts of every kind (the ``last`` moves).

``*_detailed`` variants return ``Position`` records with the kind of ``last`` and
the hand-size class, used by the OpenSpiel steering (``openspiel_positions.py``).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import tests_path  # noqa: F401  (tests/ on sys.path, for peers)

from peers import FULL_DECK_COUNTS, NUM_RANKS, counts_to_text, deck_ranks, text_to_mask

ACE = 11  # highest rank allowed in chains
TWO = 12
BLACK_JOKER = 13
RED_JOKER = 14
MAX_LAST_CARDS = 16

KINDS = (
    "solo",
    "pair",
    "trio",
    "trio_solo",
    "trio_pair",
    "straight",
    "pair_straight",
    "airplane",
    "airplane_solos",
    "airplane_pairs",
    "bomb",
    "four_two_solos",
    "four_two_pairs",
    "rocket",
)


@dataclass(frozen=True)
class Position:
    index: int
    hand: str                 # text form, sorted ascending
    last: str | None       # None: the player leads
    last_kind: str | None  # one of KINDS, None for leads
    size_class: str           # 'deal20', 'deal17', 'endgame'

    @property
    def pair(self) -> tuple[str, str | None]:
        return (self.hand, self.last)


# --------------------------------------------------------------------------- helpers
def _deal(rng: random.Random, n: int) -> list[int]:
    """n cards drawn from the 54-card deck, as a rank-count vector."""
    counts = [0] * NUM_RANKS
    for r in rng.sample(deck_ranks(), n):
        counts[r] += 1
    return counts


def _chain_starts(avail, width, length):
    return [s for s in range(0, ACE - length + 2)
            if all(avail[r] >= width for r in range(s, s + length))]


def _pick_chain(rng, avail, width, lengths):
    """A feasible chain length, shorter ones more likely (weights len(lengths)..1 from
    the shortest, as in play: 5-card straights are common, 12-card ones rare), then a
    uniform start rank."""
    lengths = list(lengths)
    options = [(L, _chain_starts(avail, width, L), len(lengths) - i) for i, L in enumerate(lengths)]
    options = [o for o in options if o[1]]
    if not options:
        return None
    L, starts, _ = rng.choices(options, weights=[o[2] for o in options])[0]
    return rng.choice(starts), L


def _pick_kickers(rng, avail, exclude, k, width, allow_jokers, allow_both_jokers=False):
    cands = [r for r in range(NUM_RANKS)
             if r not in exclude and avail[r] >= width
             and (allow_jokers or r < BLACK_JOKER)
             and (width == 1 or r <= TWO)]
    for _ in range(20):
        if len(cands) < k:
            return None
        picked = rng.sample(cands, k)
        if not allow_both_jokers and BLACK_JOKER in picked and RED_JOKER in picked:
            continue
        return sorted(picked)
    return None


def make_last(rng: random.Random, kind: str, avail: Sequence[int]) -> list[int] | None:
    """A random move of ``kind`` drawn from the available counts, or None."""
    move = [0] * NUM_RANKS
    if kind in ("solo", "pair", "trio", "bomb"):
        width = {"solo": 1, "pair": 2, "trio": 3, "bomb": 4}[kind]
        top = RED_JOKER if kind == "solo" else TWO
        cands = [r for r in range(top + 1) if avail[r] >= width]
        if not cands:
            return None
        move[rng.choice(cands)] = width
        return move
    if kind == "rocket":
        if avail[BLACK_JOKER] and avail[RED_JOKER]:
            move[BLACK_JOKER] = move[RED_JOKER] = 1
            return move
        return None
    if kind in ("straight", "pair_straight", "airplane"):
        width, lengths = {"straight": (1, range(5, 13)),
                          "pair_straight": (2, range(3, 9)),
                          "airplane": (3, range(2, 6))}[kind]
        chain = _pick_chain(rng, avail, width, lengths)
        if chain is None:
            return None
        s, L = chain
        for r in range(s, s + L):
            move[r] = width
        return move
    if kind in ("trio_solo", "trio_pair", "airplane_solos", "airplane_pairs"):
        width = 1 if kind in ("trio_solo", "airplane_solos") else 2
        if kind.startswith("trio"):
            lengths = [1]
        else:
            lengths = range(2, 5) if width == 1 else range(2, 4)
        feasible = []
        for L in lengths:
            if L == 1:
                starts = [r for r in range(TWO + 1) if avail[r] >= 3]
            else:
                starts = _chain_starts(avail, 3, L)
            feasible.extend((s, L) for s in starts)
        rng.shuffle(feasible)
        for s, L in feasible[:12]:
            body = set(range(s, s + L))
            kick = _pick_kickers(rng, avail, body, L, width, allow_jokers=True)
            if kick is None:
                continue
            for r in body:
                move[r] = 3
            for r in kick:
                move[r] += width
            return move
        return None
    if kind in ("four_two_solos", "four_two_pairs"):
        width = 1 if kind == "four_two_solos" else 2
        quads = [r for r in range(TWO + 1) if avail[r] == 4]
        rng.shuffle(quads)
        for q in quads:
            kick = _pick_kickers(rng, avail, {q}, 2, width, allow_jokers=False)
            if kick is None:
                continue
            move[q] = 4
            for r in kick:
                move[r] += width
            return move
        return None
    raise ValueError(f"unknown kind {kind!r}")


# --------------------------------------------------------------------------- sets
def _lead_hand(rng: random.Random, i: int) -> tuple[list[int], str]:
    cls = ("deal20", "deal17", "endgame")[i % 3]
    n = {"deal20": 20, "deal17": 17}.get(cls) or rng.randint(1, 10)
    return _deal(rng, n), cls


def lead_positions_detailed(n: int, seed: int = 0) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        hand, cls = _lead_hand(rng, i)
        out.append(Position(i, counts_to_text(hand), None, None, cls))
    return out


def follow_positions_detailed(n: int, seed: int = 0) -> list[Position]:
    rng = random.Random(seed + 0x9E3779B1)
    out = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        cls = ("deal17", "endgame")[(i // len(KINDS)) % 2]
        while True:
            size = 17 if cls == "deal17" else rng.randint(1, 10)
            hand = _deal(rng, size)
            avail = [FULL_DECK_COUNTS[r] - hand[r] for r in range(NUM_RANKS)]
            last = make_last(rng, kind, avail)
            if last is not None and sum(last) <= MAX_LAST_CARDS:
                break
        out.append(Position(i, counts_to_text(hand), counts_to_text(last), kind, cls))
    return out


def lead_positions(n: int, seed: int = 0) -> list[tuple[str, None]]:
    """n lead positions: list of (hand_text, None)."""
    return [p.pair for p in lead_positions_detailed(n, seed)]


def follow_positions(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """n follow positions: list of (hand_text, last_text)."""
    return [p.pair for p in follow_positions_detailed(n, seed)]


def classify_positions(n: int, seed: int = 0) -> list[str]:
    """n move texts covering every combination kind (the follow set's ``last``)."""
    return [p.last for p in follow_positions_detailed(n, seed)]


def summary(positions: Sequence[Position]) -> str:
    from collections import Counter
    sizes = Counter(p.size_class for p in positions)
    kinds = Counter(p.last_kind for p in positions if p.last_kind)
    return f"{len(positions)} positions; sizes {dict(sizes)}; kinds {dict(kinds)}"


def export_lines(n_lead: int, n_follow: int, seed: int) -> list[str]:
    """Text dump for other harnesses (e.g. the C++ bench): one position per line,
    ``phase hand last kind hand_mask last_mask`` (last/kind '-' for leads, masks hex)."""
    lines = [f"# doudizhu bench positions: seed {seed}, {n_lead} leads, {n_follow} follows"]
    for p in lead_positions_detailed(n_lead, seed) + follow_positions_detailed(n_follow, seed):
        phase = "lead" if p.last is None else "follow"
        lines.append(f"{phase} {p.hand} {p.last or '-'} {p.last_kind or '-'} "
                     f"{text_to_mask(p.hand):#x} {text_to_mask(p.last or ''):#x}")
    return lines


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="show or export the benchmark positions")
    ap.add_argument("--export", metavar="PATH", help="write the positions to PATH ('-' = stdout)")
    ap.add_argument("--n-lead", type=int, default=300)
    ap.add_argument("--n-follow", type=int, default=560)
    ap.add_argument("--seed", type=int, default=2024)
    a = ap.parse_args()
    if a.export:
        text = "\n".join(export_lines(a.n_lead, a.n_follow, a.seed)) + "\n"
        if a.export == "-":
            print(text, end="")
        else:
            with open(a.export, "w") as f:
                f.write(text)
    else:
        for p in lead_positions_detailed(6, a.seed):
            print("lead  ", p.size_class, p.hand)
        for p in follow_positions_detailed(28, a.seed):
            print("follow", p.size_class, p.last_kind, p.hand, "vs", p.last)
        print(summary(lead_positions_detailed(a.n_lead, a.seed)))
        print(summary(follow_positions_detailed(a.n_follow, a.seed)))
