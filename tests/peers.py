"""Adapters to the public Dou Dizhu engines used as differential-test peers.

Pure functions, no dependency on our ``doudizhu`` package.

Conventions
-----------
* Rank index 0..14 = ``3 4 5 6 7 8 9 T J Q K A 2 B R`` (B = black joker, R = red joker).
* A *mask* is a card multiset packed in a Python int: 4 bits per rank, the count of rank
  ``r`` at bits ``4r .. 4r+3`` (same packing as the engine, see docs/rules.md).

Peers
-----
* DouZero 1.1.0 (``douzero.env``): :func:`douzero_legal` builds a ``GameEnv`` whose
  acting player holds the hand and whose action sequence ends with the rival's move, and
  calls ``GameEnv.get_legal_card_play_actions`` (``MovesGener`` + ``move_detector.
  get_move_type`` + ``move_selector.filter_type_*``), exactly what DouZero's game offers.
* RLCard 1.2.0 (``rlcard.games.doudizhu``): :func:`rlcard_legal` builds ``DoudizhuPlayer``
  objects and calls ``DoudizhuPlayer.available_actions``: leading, that returns the
  ``DoudizhuJudger`` playable set (``playable_cards_from_hand`` of the hand, computed by
  the judger's constructor as at the start of a game); following, it returns
  ``utils.get_gt_cards`` (the action-space table ``TYPE_CARD`` filtered by the led type
  from ``CARD_TYPE``, by weight and by ``contains_cards``).

* OpenSpiel (``pyspiel``): :func:`openspiel_deal` deals a ``dou_dizhu`` state and reads
  its deal back as text, for replaying OpenSpiel games in our engine.

This module is the one definition of the card conversions between our notation and the
peers' (DouZero's card ints, RLCard's strings and Card objects, OpenSpiel's card strings
and ids); bench/ imports it too (bench/tests_path.py puts tests/ on sys.path).

The peers are imported lazily, so this module imports without them.
"""

from __future__ import annotations

import collections
import random
from collections.abc import Iterator

RANKS = "3456789TJQKA2BR"
NUM_RANKS = 15
RANK_INDEX = {c: i for i, c in enumerate(RANKS)}
FULL_DECK_COUNTS = (4,) * 13 + (1, 1)
# The 54-card deck in rank order, as text (a list of it shuffled deals random hands).
FULL_DECK_TEXT = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"
# Our standard rules and the presets that reproduce each peer's move sets.
PEER_PRESETS = ("standard", "openspiel", "douzero", "rlcard")


def deck_ranks(decks: int = 1) -> list:
    """The deck (``decks`` of them) in rank order, as a list of rank indexes."""
    return [r for r in range(NUM_RANKS) for _ in range(decks * FULL_DECK_COUNTS[r])]


# ----------------------------------------------------------------------------------------
# masks, counts and text


def counts_to_mask(counts) -> int:
    mask = 0
    for r, n in enumerate(counts):
        if n:
            assert 0 <= n <= 15, counts
            mask |= n << (4 * r)
    return mask


def mask_to_counts(mask: int) -> list:
    return [(mask >> (4 * r)) & 0xF for r in range(NUM_RANKS)]


def ranks_to_mask(ranks) -> int:
    """Iterable of rank indexes (with repetition) -> mask."""
    counts = [0] * NUM_RANKS
    for r in ranks:
        counts[r] += 1
    return counts_to_mask(counts)


def mask_to_ranks(mask: int) -> list:
    """Mask -> sorted list of rank indexes (with repetition)."""
    out = []
    for r, n in enumerate(mask_to_counts(mask)):
        out.extend([r] * n)
    return out


def mask_size(mask: int) -> int:
    return sum(mask_to_counts(mask))


def text_to_mask(text: str) -> int:
    """Text in our/RLCard notation ('33344456', 'BR', 'T' = ten) -> mask."""
    return ranks_to_mask(RANK_INDEX[c] for c in text.upper())


def mask_to_text(mask: int) -> str:
    """Mask -> sorted text; this is also exactly RLCard's card-string notation."""
    return counts_to_text(mask_to_counts(mask))


def counts_to_text(counts) -> str:
    """Rank counts -> sorted text."""
    return "".join(RANKS[r] * n for r, n in enumerate(counts))


def text_to_counts(text: str) -> list:
    """Text -> the 15 rank counts."""
    return mask_to_counts(text_to_mask(text))


def sorted_text(text: str) -> str:
    """Cards in our notation, in rank order (upper case)."""
    return "".join(sorted(text.upper(), key=RANK_INDEX.__getitem__))


# ----------------------------------------------------------------------------------------
# DouZero representation: sorted list of ints 3..14, 17 ('2'), 20 (black), 30 (red joker)

DOUZERO_CARDS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
DOUZERO_RANK = {c: r for r, c in enumerate(DOUZERO_CARDS)}


def mask_to_douzero(mask: int) -> list:
    return [DOUZERO_CARDS[r] for r in mask_to_ranks(mask)]


def douzero_to_mask(cards) -> int:
    return ranks_to_mask(DOUZERO_RANK[c] for c in cards)


def douzero_legal_call(hand_mask: int, last_mask: int | None = None):
    """DouZero's per-decision legal-action computation at a position, as a zero-argument
    callable: ``GameEnv.get_legal_card_play_actions`` (the method DouZero's env calls each
    turn) of an env whose acting player holds the hand and whose action sequence ends with
    the rival's move (lead if last is None). It returns DouZero's raw list of card-int
    lists, pass (``[]``) and duplicates included."""
    from douzero.env.game import GameEnv

    env = GameEnv(players={})
    env.acting_player_position = "landlord"
    env.info_sets["landlord"].player_hand_cards = mask_to_douzero(hand_mask)
    # A rival's move followed by nothing (or by a pass: get_legal_card_play_actions then
    # looks one move further back, same result). Empty sequence: the player leads.
    env.card_play_action_seq = [] if last_mask is None else [mask_to_douzero(last_mask)]
    return env.get_legal_card_play_actions


def douzero_legal_list(hand_mask: int, last_mask: int | None = None) -> list:
    """DouZero's raw legal-action list as masks (duplicates kept, pass removed)."""
    return [douzero_to_mask(m) for m in douzero_legal_call(hand_mask, last_mask)() if m]


def douzero_legal(hand_mask: int, last_mask: int | None = None) -> set:
    """Set of distinct card masks DouZero offers (lead if last is None), pass excluded."""
    return set(douzero_legal_list(hand_mask, last_mask))


def douzero_move_type(mask: int) -> dict:
    """DouZero's ``move_detector.get_move_type`` of a move (type, rank, len) with
    DouZero's card ints converted: 'rank' becomes our rank index."""
    from douzero.env import move_detector as md

    t = dict(md.get_move_type(mask_to_douzero(mask)))
    if "rank" in t:
        t["rank"] = DOUZERO_RANK[t["rank"]]
    return t


# DouZero move type ints -> our MoveKind names.
DOUZERO_KIND = {
    1: "SOLO", 2: "PAIR", 3: "TRIO", 4: "BOMB", 5: "ROCKET", 6: "TRIO_SOLO",
    7: "TRIO_PAIR", 8: "STRAIGHT", 9: "PAIR_STRAIGHT", 10: "AIRPLANE",
    11: "AIRPLANE_SOLOS", 12: "AIRPLANE_PAIRS", 13: "FOUR_TWO_SOLOS",
    14: "FOUR_TWO_PAIRS",
}
DOUZERO_TYPE_WRONG = 15


def douzero_reading(mask: int):
    """(kind name, key rank index, length in units) of DouZero's reading of a led move,
    or None if DouZero's detector rejects it (TYPE_15_WRONG).

    DouZero's 'rank' is the lowest body rank for every type (chains; airplanes incl. the
    ``serial_3[1:]`` / ``serial_3[:-1]`` kicker-trio cases; trio+x via the sorted middle
    card; four-with-two via move[2] or the quad), 'len' is given for chains only.
    Bombs: length = card count (4); rocket: key 13, length 2.
    """
    t = douzero_move_type(mask)
    if t["type"] not in DOUZERO_KIND:
        return None
    kind = DOUZERO_KIND[t["type"]]
    if kind == "ROCKET":
        return kind, 13, 2
    if kind == "BOMB":
        return kind, t["rank"], 4
    return kind, t["rank"], t.get("len", 1)


def douzero_trio_top(mask: int) -> int:
    """The rank DouZero's ``filter_type_11/12`` compares: the highest rank held exactly
    three times in the move (kicker trios included)."""
    return max(r for r, n in enumerate(mask_to_counts(mask)) if n == 3)


def _highest_trio_chain_top(mask: int, length: int) -> int:
    """Highest r such that ranks r-length+1 .. r are all held exactly three times in the
    move: the top of its highest reading as an airplane body of that length."""
    c = mask_to_counts(mask)
    best = -1
    for top in range(length - 1, 12):  # chains end at A (index 11)
        if all(c[r] == 3 for r in range(top - length + 1, top + 1)):
            best = top
    return best


def _douzero_airplane_solo_candidates(hand_mask: int, length: int) -> list:
    from douzero.env.move_generator import MovesGener

    mg = MovesGener(mask_to_douzero(hand_mask))
    return [douzero_to_mask(m) for m in mg.gen_type_11_serial_3_1(repeat_num=length)]


def douzero_kicker_trio_bug(hand_mask: int, last_mask: int | None) -> bool:
    """True iff DouZero's airplane-with-solos bug (docs/rules.md peer bugs: "following an
    airplane with solos, ranks a kicker trio as if it were the body") changes DouZero's
    answer at this position.

    Precisely: the led move is read by DouZero as TYPE_11 (airplane + solos) of length n
    with lowest body rank k, and for at least one candidate m that DouZero generates
    (``gen_type_11_serial_3_1(n)``) the verdict of DouZero's comparison
    ``douzero_trio_top(m) > douzero_trio_top(last)`` differs from the docs/rules.md verdict
    ``top(m) > k + n - 1``, where top(m) is the top of the highest n-trio body of m (a
    kicker trio adjacent to the body is a legal alternative body in the douzero preset,
    so any reading may be used).
    """
    if last_mask is None:
        return False
    reading = douzero_reading(last_mask)
    if reading is None or reading[0] != "AIRPLANE_SOLOS":
        return False
    _, key, n = reading
    true_last_top = key + n - 1
    dz_last_top = douzero_trio_top(last_mask)
    for m in _douzero_airplane_solo_candidates(hand_mask, n):
        dz = douzero_trio_top(m) > dz_last_top
        ok = _highest_trio_chain_top(m, n) > true_last_top
        if dz != ok:
            return True
    return False


def douzero_legal_fixed(hand_mask: int, last_mask: int | None) -> set:
    """DouZero's answer with only the kicker-trio ranking bug corrected: the airplane +
    solos candidates DouZero generates are compared by body (docs/rules.md), everything else
    is DouZero's own list. Used for the positions excluded by douzero_kicker_trio_bug."""
    raw = douzero_legal(hand_mask, last_mask)
    reading = douzero_reading(last_mask) if last_mask is not None else None
    if reading is None or reading[0] != "AIRPLANE_SOLOS":
        return raw
    _, key, n = reading
    cands = set(_douzero_airplane_solo_candidates(hand_mask, n))
    fixed = {m for m in cands if _highest_trio_chain_top(m, n) > key + n - 1}
    return (raw - cands) | fixed


# DouZero's positions, dealt as our seats 0, 1, 2 (the landlord, then the order of play).
DOUZERO_POSITIONS = ("landlord", "landlord_down", "landlord_up")


class _ScriptedDouZeroPlayer:
    """A DouZero player that plays the action it is given (DouZero's DummyAgent asserts
    the action is in DouZero's list, which its kicker-trio bug can leave out)."""

    def __init__(self) -> None:
        self.action: list = []

    def act(self, infoset) -> list:
        return list(self.action)


def douzero_env(hand_masks, kitty_mask: int):
    """DouZero's ``GameEnv`` dealt ``hand_masks`` (our seats 0, 1, 2 as
    DOUZERO_POSITIONS; the landlord's hand includes the kitty) and the kitty, with
    players that play what :func:`douzero_play` gives them."""
    from douzero.env.game import GameEnv

    env = GameEnv({position: _ScriptedDouZeroPlayer() for position in DOUZERO_POSITIONS})
    deal = {position: mask_to_douzero(m) for position, m in zip(DOUZERO_POSITIONS, hand_masks)}
    deal["three_landlord_cards"] = mask_to_douzero(kitty_mask)
    env.card_play_init(deal)
    return env


def douzero_play(env, mask: int) -> None:
    """The player to move in a :func:`douzero_env` plays ``mask`` (0: pass)."""
    env.players[env.acting_player_position].action = mask_to_douzero(mask)
    env.step()


# ----------------------------------------------------------------------------------------
# RLCard representation: sorted strings over '3456789TJQKA2BR' (== mask_to_text)

def mask_to_rlcard(mask: int) -> str:
    return mask_to_text(mask)


def rlcard_to_mask(cards: str) -> int:
    return text_to_mask(cards)


def rlcard_cards(mask: int) -> list:
    """RLCard ``Card`` objects, in RLCard's sorted order (ascending rank); the copies of a
    rank get the suits S, H, D, C in turn (RLCard's rules read only the ranks)."""
    from rlcard.games.base import Card

    out = []
    copies = [0] * NUM_RANKS
    for r in mask_to_ranks(mask):
        if r == 13:
            out.append(Card("BJ", ""))
        elif r == 14:
            out.append(Card("RJ", ""))
        else:
            out.append(Card("SHDC"[copies[r]], RANKS[r]))
            copies[r] += 1
    return out


def rlcard_legal_list(hand_mask: int, last_mask: int | None = None) -> list:
    """RLCard's raw legal-action strings (pass removed), as its game computes them."""
    import numpy as np
    from rlcard.games.doudizhu.judger import DoudizhuJudger
    from rlcard.games.doudizhu.player import DoudizhuPlayer

    rng = np.random.RandomState(0)
    me = DoudizhuPlayer(0, rng)
    me.set_current_hand(rlcard_cards(hand_mask))
    if last_mask is None:
        judger = DoudizhuJudger([me], rng)  # playable_cards_from_hand(current hand)
        actions = me.available_actions(None, judger)
    else:
        rival = DoudizhuPlayer(1, rng)
        rival.played_cards = mask_to_rlcard(last_mask)
        actions = me.available_actions(rival, None)  # utils.get_gt_cards
    return [a for a in actions if a != "pass"]


def rlcard_legal(hand_mask: int, last_mask: int | None = None) -> set:
    """Set of distinct card masks RLCard offers (lead if last is None), pass excluded."""
    return {rlcard_to_mask(a) for a in rlcard_legal_list(hand_mask, last_mask)}


def rlcard_card_type(mask: int):
    """RLCard's (type name, weight) of a move from its action-space table ``CARD_TYPE``
    (one entry per card string in RLCard 1.2.0), or None if not in the action space."""
    from rlcard.games.doudizhu.utils import CARD_TYPE

    types = CARD_TYPE[0].get(mask_to_rlcard(mask))
    if not types:
        return None
    name, weight = types[0]
    return name, int(weight)


_RLCARD_PREFIX_KIND = [
    ("solo_chain_", "STRAIGHT"), ("pair_chain_", "PAIR_STRAIGHT"),
    ("trio_solo_chain_", "AIRPLANE_SOLOS"), ("trio_pair_chain_", "AIRPLANE_PAIRS"),
    ("trio_chain_", "AIRPLANE"),
]
_RLCARD_KIND = {
    "solo": "SOLO", "pair": "PAIR", "trio": "TRIO", "trio_solo": "TRIO_SOLO",
    "trio_pair": "TRIO_PAIR", "four_two_solo": "FOUR_TWO_SOLOS",
    "four_two_pair": "FOUR_TWO_PAIRS", "bomb": "BOMB", "rocket": "ROCKET",
}


def rlcard_reading(mask: int):
    """(kind name, length in units) of RLCard's reading of a move (its ``CARD_TYPE``
    entry), or None if the move is not in RLCard's action space. RLCard's weight orders
    moves within a type; the body is unique for every RLCard entry, see
    test_differential for how the key is matched."""
    t = rlcard_card_type(mask)
    if t is None:
        return None
    name = t[0]
    for prefix, kind in _RLCARD_PREFIX_KIND:
        if name.startswith(prefix):
            return kind, int(name[len(prefix):])
    kind = _RLCARD_KIND[name]
    if kind == "BOMB":
        return kind, 4
    if kind == "ROCKET":
        return kind, 2
    return kind, 1


# ----------------------------------------------------------------------------------------
# seeded positions

# Sampling weights of the led move's type in follow positions (by the peer's own reading):
# biased toward kicker types, chains, airplanes, bombs and four-with-two.
CATEGORY_WEIGHTS = {
    "SOLO": 1, "PAIR": 1, "TRIO": 1, "TRIO_SOLO": 2, "TRIO_PAIR": 2, "STRAIGHT": 2,
    "PAIR_STRAIGHT": 2, "AIRPLANE": 3, "AIRPLANE_SOLOS": 5, "AIRPLANE_PAIRS": 4,
    "FOUR_TWO_SOLOS": 3, "FOUR_TWO_PAIRS": 3, "BOMB": 2, "ROCKET": 1,
}
# Led types for which the follower's hand is often built around trio chains / quads.
_CLUSTER_TARGETS = {"AIRPLANE", "AIRPLANE_SOLOS", "AIRPLANE_PAIRS", "FOUR_TWO_SOLOS",
                    "FOUR_TWO_PAIRS", "BOMB", "TRIO_SOLO", "TRIO_PAIR", "PAIR_STRAIGHT"}
_SOLO_KICKER_UNITS = {"TRIO_SOLO": 2, "AIRPLANE_SOLOS": 2, "FOUR_TWO_SOLOS": None}


def _reading(mask: int, peer: str):
    if peer == "douzero":
        r = douzero_reading(mask)
        return None if r is None else (r[0], r[2])
    if peer == "rlcard":
        return rlcard_reading(mask)
    raise ValueError(peer)


def _unusual_kickers(mask: int, kind: str, length: int) -> bool:
    """Kickers holding a joker or repeating a rank (pairs/trios/quads among solo kickers,
    e.g. kicker trios of airplanes): the cases where the peers and presets differ."""
    c = mask_to_counts(mask)
    if kind not in ("TRIO_SOLO", "TRIO_PAIR", "AIRPLANE_SOLOS", "AIRPLANE_PAIRS",
                    "FOUR_TWO_SOLOS", "FOUR_TWO_PAIRS"):
        return False
    if c[13] or c[14]:
        return True
    distinct = sum(1 for n in c if n)
    if kind == "AIRPLANE_SOLOS":
        return distinct < 2 * length
    if kind == "FOUR_TWO_SOLOS":
        return distinct < 3
    return False


_SIZES = {
    "SOLO": (1,), "PAIR": (2,), "TRIO": (3,), "TRIO_SOLO": (4,), "TRIO_PAIR": (5,),
    "STRAIGHT": tuple(range(5, 13)), "PAIR_STRAIGHT": tuple(range(6, 21, 2)),
    "AIRPLANE": tuple(range(6, 19, 3)), "AIRPLANE_SOLOS": tuple(range(8, 21, 4)),
    "AIRPLANE_PAIRS": tuple(range(10, 21, 5)), "FOUR_TWO_SOLOS": (6,),
    "FOUR_TWO_PAIRS": (8,), "BOMB": (4,), "ROCKET": (2,),
}


def _peer_leads_by_category(hand_mask: int, peer: str, target: str | None = None) -> dict:
    """The peer's own lead moves of a hand grouped by the peer's reading (kind) as lists
    of (mask, length). Only moves the peer itself can read as a led move are kept
    (DouZero's detector rejects some of the airplanes its generator makes; RLCard needs
    the move in its action space). With ``target``, only moves of that kind are read."""
    legal = douzero_legal(hand_mask) if peer == "douzero" else rlcard_legal(hand_mask)
    sizes = _SIZES[target] if target else None
    by_cat = collections.defaultdict(list)
    for m in sorted(legal):
        if sizes is not None and mask_size(m) not in sizes:
            continue
        r = _reading(m, peer)
        if r is not None and (target is None or r[0] == target):
            by_cat[r[0]].append((m, r[1]))
    return by_cat


def _may_have(counts, target: str) -> bool:
    """Cheap necessary condition (from rank counts) for a hand to hold a move of type
    ``target``; avoids running a peer's generator on hopeless hands."""
    def run(need, units):
        k = 0
        for r in range(12):
            k = k + 1 if counts[r] >= need else 0
            if k >= units:
                return True
        return False
    if target in ("AIRPLANE", "AIRPLANE_SOLOS", "AIRPLANE_PAIRS"):
        return run(3, 2)
    if target in ("FOUR_TWO_SOLOS", "FOUR_TWO_PAIRS", "BOMB"):
        return 4 in counts
    if target in ("TRIO", "TRIO_SOLO", "TRIO_PAIR"):
        return any(n >= 3 for n in counts)
    if target == "PAIR_STRAIGHT":
        return run(2, 3)
    if target == "STRAIGHT":
        return run(1, 5)
    if target == "ROCKET":
        return counts[13] == 1 and counts[14] == 1
    return True


def random_lead(rng: random.Random, pool: list, peer: str, target: str,
                tries: int = 12) -> int | None:
    """A random led move of type ``target`` for a follow position.

    Up to ``tries`` times, another hand is taken from ``pool`` (rank indexes of the cards
    not in the follower's hand): 17 or 20 cards dealt at random or, for the types of
    _CLUSTER_TARGETS half the time, a clustered hand; the first one to which the peer's
    own lead generator offers moves of that type is used. Among them a chain/airplane
    length is chosen uniformly, then, half the time, a move with unusual kickers (jokers,
    repeated kicker ranks such as kicker trios) if any, else any move of that length. If
    no hand has the type, a move of the last hand is picked by CATEGORY_WEIGHTS."""
    by_cat = {}
    for _ in range(tries):
        p = list(pool)
        rng.shuffle(p)
        hand = None
        if target in _CLUSTER_TARGETS and rng.random() < 0.5:
            hand = clustered_hand(rng, p)
        if hand is None:
            hand = p[:rng.choice((17, 20))]
        counts = mask_to_counts(ranks_to_mask(hand))
        if not _may_have(counts, target):
            continue
        by_cat = _peer_leads_by_category(ranks_to_mask(hand), peer, target)
        if by_cat.get(target):
            break
    else:
        by_cat = _peer_leads_by_category(ranks_to_mask(hand), peer)
        if not by_cat:
            return None
        cats = sorted(by_cat)
        target = rng.choices(cats, weights=[CATEGORY_WEIGHTS[c] for c in cats])[0]
    moves = by_cat[target]
    length = rng.choice(sorted({ln for _, ln in moves}))
    moves = [m for m, ln in moves if ln == length]
    odd = [m for m in moves if _unusual_kickers(m, target, length)]
    if odd and rng.random() < 0.5:
        return rng.choice(odd)
    return rng.choice(moves)


def deal(rng: random.Random) -> list:
    """A shuffled 54-card deck as a list of rank indexes."""
    deck = deck_ranks()
    rng.shuffle(deck)
    return deck


def random_hand_size(rng: random.Random) -> int:
    x = rng.random()
    if x < 0.3:
        return 17
    if x < 0.6:
        return 20
    return rng.randint(1, 12)  # endgame hands


def clustered_hand(rng: random.Random, pool: list) -> list | None:
    """Take from ``pool`` (shuffled rank indexes, modified in place) a hand of up to 20
    cards built around a chain of 2..5 trios (sometimes with a quad in it), often plus a
    separate trio or quad, filled up with the next cards of the pool: hands that can
    answer or lead long airplanes (with kicker trios), four-with-two and bombs. Returns
    the hand's rank indexes, or None if the pool holds no chain of two trios."""
    avail = collections.Counter(pool)
    length = rng.randint(2, 5)
    while True:
        starts = [s for s in range(12 - length + 1)
                  if all(avail[r] >= 3 for r in range(s, s + length))]
        if starts or length == 2:
            break
        length -= 1
    if not starts:
        return None
    start = rng.choice(starts)
    want = collections.Counter({r: 3 for r in range(start, start + length)})
    quads = [r for r in want if avail[r] == 4]
    if quads and rng.random() < 0.3:
        want[rng.choice(quads)] = 4
    extras = [r for r in range(13) if r not in want and avail[r] >= 3]
    if extras and rng.random() < 0.6:
        extra = rng.choice(extras)
        want[extra] = 4 if avail[extra] == 4 and rng.random() < 0.3 else 3
    hand = []
    for r, k in sorted(want.items()):
        for _ in range(k):
            pool.remove(r)
            hand.append(r)
    size = rng.randint(len(hand), 20) if len(hand) < 20 else len(hand)
    while len(hand) < size and pool:
        hand.append(pool.pop())
    return hand


def random_positions(seed: int, n: int, peer: str = "douzero",
                     lead_fraction: float = 0.2, categories=None) -> Iterator[tuple]:
    """Yield n positions ``(hand_mask, last_mask_or_None)``, deterministic in (seed, n,
    peer), from a shuffled 54-card deck.

    * Leads (about ``lead_fraction``): a hand of 17 or 20 cards or an endgame hand of
      1..12 cards.
    * Follows: the led type is drawn by CATEGORY_WEIGHTS; the follower's hand is as for a
      lead, or (for airplane / four-with-two / bomb / trio / pair-chain types, half the
      time) a clustered hand (see clustered_hand); ``last`` is a move of that type that
      the peer's own lead generator offers to another hand of 17 or 20 cards dealt from
      the remaining cards (see random_lead).

    ``categories`` (MoveKind names) restricts the led types drawn (weights kept), e.g.
    to stress airplanes.
    """
    cats = [c for c in CATEGORY_WEIGHTS if categories is None or c in categories]
    weights = [CATEGORY_WEIGHTS[c] for c in cats]
    rng = random.Random(f"{peer}:{seed}")
    produced = 0
    while produced < n:
        deck = deal(rng)
        if rng.random() < lead_fraction:
            yield ranks_to_mask(deck[:random_hand_size(rng)]), None
            produced += 1
            continue
        target = rng.choices(cats, weights=weights)[0]
        hand = None
        if target in _CLUSTER_TARGETS and rng.random() < 0.5:
            hand = clustered_hand(rng, deck)  # removes the hand from deck
            rest = deck
        if hand is None:
            size = random_hand_size(rng)
            hand, rest = deck[:size], deck[size:]
        last = random_lead(rng, rest, peer, target)
        if last is None:
            continue
        yield ranks_to_mask(hand), last
        produced += 1


# ----------------------------------------------------------------------------------------
# OpenSpiel (``pyspiel`` dou_dizhu): cards as text with '(BWJ)' and '(CJ)' for the jokers
# and '-' between an airplane's body and kickers; card ids suit * 13 + rank for the ranks
# 3..2, 52 and 53 for the black and red joker.

OPENSPIEL_JOKERS = {"B": "(BWJ)", "R": "(CJ)"}


def openspiel_to_text(cards: str) -> str:
    """OpenSpiel card string ('333444-5(BWJ)') -> our sorted text ('3334445B')."""
    for ours, theirs in OPENSPIEL_JOKERS.items():
        cards = cards.replace(theirs, ours)
    return sorted_text(cards.replace("-", ""))


def text_to_openspiel(text: str) -> str:
    """Our text -> OpenSpiel's card string (no body-kicker separator)."""
    return "".join(OPENSPIEL_JOKERS.get(c, c) for c in text)


def openspiel_card(rank: int, copy: int) -> int:
    """OpenSpiel's card id of copy ``copy`` (0..3, the suit) of rank index ``rank``."""
    return copy * 13 + rank if rank < 13 else 52 + (rank - 13)


def openspiel_deal(rng: random.Random):
    """A new OpenSpiel ``dou_dizhu`` state dealt by ``rng`` (each chance outcome drawn by
    its probability), and its deal in our text: ``(state, hands, kitty, first_bidder)``."""
    import pyspiel

    state = pyspiel.load_game("dou_dizhu").new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    hands = []
    for seat in range(3):
        text = state.observation_string(seat).split("My hand ")[1].split("\n")[0]
        hands.append(openspiel_to_text(text))
    kitty = counts_to_mask(FULL_DECK_COUNTS) - sum(text_to_mask(h) for h in hands)
    first_bidder = int(state.observation_string(0).split("start player: ")[1][0])
    return state, hands, mask_to_text(kitty), first_bidder
