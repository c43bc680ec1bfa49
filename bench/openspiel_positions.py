"""Steer an OpenSpiel ``dou_dizhu`` state to a benchmark position.

How OpenSpiel 2.0.2's dou_dizhu is driven (read from open_spiel/games/dou_dizhu/*.cc/.h
and confirmed by experiment, see ``_self_check``):

Chance (deal) phase, 52 chance actions:
  * first: action ``p`` in 0..50, the position of the face-up card; the player who is
    dealt the ``p``-th card bids first, i.e. first bidder = ``p % 3``.
  * then 51 actions ``51 + card``, card 0..53: card = suit*13 + rank for rank 0..12
    (3..2), 52 = black joker, 53 = red joker.  The k-th dealt card (k = 0..50) goes to
    seat ``k % 3``; the 3 cards never dealt are the kitty, given to the landlord.
Player actions (ids are independent of the chance ids in 2.x):
  * auction: 0 = Pass, 1..3 = Bid 1..3.  A bid of 3 ends the auction at once and the
    bidder becomes the landlord and leads.
  * play: 0 = Pass, 4..26056 = card combinations.  ``state.action_to_string(0, a)`` gives
    the cards ('333444-55' for airplanes: body-kickers, '(BWJ)'/'(CJ)' for jokers); we
    enumerate all ids once and map (our text, kind) -> id.  Kind ranges: solo 4-18,
    straight 19-54, pair 55-67, pair straight 68-119, trio 120-132, trio+solo 133-314,
    trio+pair 315-470, airplane 471-515, airplane+solos 516-23103, airplane+pairs
    23104-26042, bomb 26043-26055, rocket 26056.  OpenSpiel has no four-with-two.

Steering (landlord always seat 0: face-up position 0, seat 0 bids 3):
  * lead, n cards: seat 0 holds hand + (20-n) extra cards, leads the extras as solos,
    both peasants pass each; seat 0 then leads holding exactly ``hand``.
  * follow, 17 cards: seat 1 is dealt ``hand``; seat 0 (holding ``last`` + fillers)
    leads ``last``; seat 1 to move.
  * follow, n < 17 cards: seat 1 is dealt hand + Y (17-n cards).  Seat 0 leads a low
    solo ``a``; seat 1 beats it with the highest card of Y; 2 and 0 pass; seat 1 leads
    the rest of Y as solos (2 and 0 pass), the lowest last; seat 0 beats that with a
    higher solo ``z``; 1 and 2 pass; seat 0 leads ``last``; seat 1 to move with ``hand``.
  * unreachable: ``last`` of kind four+two (no such action in OpenSpiel) and follows
    with more than 17 cards (the landlord always leads the first trick).  Every
    action applied is checked against ``state.legal_actions()`` (this catches e.g.
    OpenSpiel's bug of not offering a chain whose lowest rank the hand holds four
    of); on failure another random card allocation is tried.
The result is verified with ``observation_string`` (hand) and the play log of
``str(state)`` (move to beat).
"""
from __future__ import annotations

import random
import re
from collections.abc import Sequence

import pyspiel
import tests_path  # noqa: F401  (tests/ on sys.path, for peers)

import positions as P
from peers import FULL_DECK_COUNTS, NUM_RANKS, RANKS, openspiel_card, openspiel_to_text, text_to_counts

PASS = 0
BID3 = 3
KIND_RANGES = [
    (4, 18, "solo"), (19, 54, "straight"), (55, 67, "pair"), (68, 119, "pair_straight"),
    (120, 132, "trio"), (133, 314, "trio_solo"), (315, 470, "trio_pair"),
    (471, 515, "airplane"), (516, 23103, "airplane_solos"),
    (23104, 26042, "airplane_pairs"), (26043, 26055, "bomb"), (26056, 26056, "rocket"),
]
UNREACHABLE_KINDS = {"four_two_solos", "four_two_pairs"}


def kind_of_action(a: int) -> str | None:
    for lo, hi, k in KIND_RANGES:
        if lo <= a <= hi:
            return k
    return None


class OpenSpielSteer:
    def __init__(self):
        self.game = pyspiel.load_game("dou_dizhu")
        s0 = self.game.new_initial_state()
        self.action_of: dict[tuple[str, str], int] = {}
        self.text_of: dict[int, str] = {}
        for a in range(4, self.game.num_distinct_actions()):
            text = openspiel_to_text(s0.action_to_string(0, a))
            self.text_of[a] = text
            self.action_of.setdefault((text, kind_of_action(a)), a)

    # ------------------------------------------------------------------ building blocks
    @staticmethod
    def _cards_of(seat_counts: Sequence[Sequence[int]]) -> list[list[int]]:
        """Give each seat concrete OpenSpiel card ids (suits assigned in order)."""
        used = [0] * NUM_RANKS
        out = []
        for counts in seat_counts:
            cards = []
            for r, c in enumerate(counts):
                for _ in range(c):
                    cards.append(openspiel_card(r, used[r]))
                    used[r] += 1
            out.append(cards)
        assert all(used[r] <= FULL_DECK_COUNTS[r] for r in range(NUM_RANKS)), used
        return out

    def _deal(self, seats: Sequence[Sequence[int]], rng: random.Random):
        """New state, dealt so seat i holds seats[i] (seat 0: 20 cards incl. kitty),
        seat 0 bids 3 and is landlord to lead."""
        assert [sum(c) for c in seats] == [20, 17, 17], [sum(c) for c in seats]
        cards = self._cards_of(seats)
        rng.shuffle(cards[0])
        deal0, _kitty = cards[0][:17], cards[0][17:]
        q = [list(deal0), list(cards[1]), list(cards[2])]
        for lst in q:
            rng.shuffle(lst)
        st = self.game.new_initial_state()
        st.apply_action(0)  # face-up card position 0 -> seat 0 bids first
        for k in range(51):
            st.apply_action(51 + q[k % 3].pop())
        assert st.current_player() == 0 and st.legal_actions() == [0, 1, 2, 3]
        st.apply_action(BID3)
        assert st.current_player() == 0
        return st

    def _play(self, st, seat: int, text: str | None, kind: str | None = None):
        if st.current_player() != seat:
            raise _Retry(f"seat {st.current_player()} to move, expected {seat}")
        if text is None:
            a = PASS
        else:
            kind = kind or ("solo" if len(text) == 1 else None)
            a = self.action_of.get((text, kind))
            if a is None:
                raise _Unreachable(f"no OpenSpiel action for {text} ({kind})")
        if a not in st.legal_actions():
            raise _Retry(f"action {text} ({kind}) not legal for seat {seat}")
        st.apply_action(a)

    # ------------------------------------------------------------------ steering
    def steer(self, pos: P.Position, seed: int = 0, tries: int = 50):
        """Return a state where the player to move holds ``pos.hand`` and faces
        ``pos.last`` (or leads).  Raises ``Unreachable`` if OpenSpiel cannot."""
        if pos.last_kind in UNREACHABLE_KINDS:
            raise _Unreachable(f"OpenSpiel has no {pos.last_kind}")
        hand = text_to_counts(pos.hand)
        if pos.last is not None and sum(hand) > 17:
            raise _Unreachable("a follower never holds more than 17 cards")
        last_reason = ""
        for t in range(tries):
            rng = random.Random((seed, pos.index, pos.hand, pos.last, t).__repr__())
            try:
                if pos.last is None:
                    st, who = self._steer_lead(hand, rng)
                else:
                    st, who = self._steer_follow(hand, pos.last, pos.last_kind, rng)
                self.verify(st, who, pos.hand, pos.last)
                return st
            except _Retry as e:
                last_reason = str(e)
        raise _Unreachable(f"gave up after {tries} tries: {last_reason}")

    def _steer_lead(self, hand, rng):
        pool = _minus(FULL_DECK_COUNTS, hand)
        extra = _sample(rng, pool, 20 - sum(hand))
        rest = _minus(pool, extra)
        s1 = _sample(rng, rest, 17)
        s2 = _minus(rest, s1)
        st = self._deal([_plus(hand, extra), s1, s2], rng)
        solos = _cards_list(extra)
        rng.shuffle(solos)
        for r in solos:
            self._play(st, 0, RANKS[r])
            self._play(st, 1, None)
            self._play(st, 2, None)
        return st, 0

    def _steer_follow(self, hand, last, kind, rng):
        lastc = text_to_counts(last)
        pool = _minus(_minus(FULL_DECK_COUNTS, hand), lastc)
        n = sum(hand)
        if n == 17:
            fill = _sample(rng, pool, 20 - sum(lastc))
            rest = _minus(pool, fill)
            st = self._deal([_plus(lastc, fill), hand, rest], rng)
            self._play(st, 0, last, kind)
            return st, 1
        # n < 17: seat 1 dumps Y (17 - n cards) first
        ranks = _cards_list(pool)
        a = min(ranks)
        pool_a = _minus(pool, _one(a))
        y = _sample(rng, pool_a, 17 - n)
        ys = sorted(_cards_list(y))
        if ys[-1] <= a:
            raise _Retry("Y has no card above a")
        pool_z = _minus(pool_a, y)
        zs = [r for r in _cards_list(pool_z) if r > ys[0]]
        if not zs:
            raise _Retry("no z above min(Y)")
        z = rng.choice(zs)
        pool_f = _minus(pool_z, _one(z))
        fill = _sample(rng, pool_f, 18 - sum(lastc))
        s2 = _minus(pool_f, fill)
        seat0 = _plus(_plus(_plus(lastc, fill), _one(a)), _one(z))
        st = self._deal([seat0, _plus(hand, y), s2], rng)
        y_hi, y_lo, middle = ys[-1], ys[0], ys[1:-1]
        rng.shuffle(middle)
        self._play(st, 0, RANKS[a])
        self._play(st, 1, RANKS[y_hi])
        self._play(st, 2, None)
        if len(ys) > 1:
            self._play(st, 0, None)
            for r in middle:
                self._play(st, 1, RANKS[r])
                self._play(st, 2, None)
                self._play(st, 0, None)
            self._play(st, 1, RANKS[y_lo])
            self._play(st, 2, None)
        self._play(st, 0, RANKS[z])
        self._play(st, 1, None)
        self._play(st, 2, None)
        self._play(st, 0, last, kind)
        return st, 1

    # ------------------------------------------------------------------ verification
    def verify(self, st, who: int, hand: str, last: str | None):
        if st.current_player() != who:
            raise _Retry(f"player to move {st.current_player()} != {who}")
        obs = st.observation_string(who)
        m = re.match(r"My hand (.*)\n", obs)
        got = openspiel_to_text(m.group(1)) if m else None
        if got != hand:
            raise _Retry(f"hand {got} != {hand}")
        legal = st.legal_actions()
        plays = _play_log(st)
        if last is None:
            if PASS in legal:
                raise _Retry("expected a lead, Pass is legal")
            if plays[-2:] != [("1", "Pass"), ("2", "Pass")] and len(plays) != 0:
                raise _Retry(f"lead not after two passes: {plays[-2:]}")
        else:
            if PASS not in legal:
                raise _Retry("expected a follow, Pass is not legal")
            if not plays or plays[-1][0] != "0" or openspiel_to_text(plays[-1][1]) != last:
                raise _Retry(f"move to beat {plays[-1:]} != {last}")

    def hand_and_last(self, st) -> tuple[str, str | None]:
        """(hand, move to beat) as seen in the state (for reporting)."""
        who = st.current_player()
        hand = openspiel_to_text(re.match(r"My hand (.*)\n", st.observation_string(who)).group(1))
        plays = _play_log(st)
        if PASS not in st.legal_actions():
            return hand, None
        nonpass = [p for p in plays if p[1] != "Pass"]
        return hand, openspiel_to_text(nonpass[-1][1])


def _play_log(st) -> list[tuple[str, str]]:
    """[(seat, move string)] of the playing phase, from str(state)."""
    text = str(st)
    if "Playing phase begin" not in text:
        return []
    return re.findall(r"Player (\d) played (\S+)", text.split("Playing phase begin")[1])


class Unreachable(Exception):
    pass


class _Unreachable(Unreachable):
    pass


class _Retry(Exception):
    pass


# ---------------------------------------------------------------------- count helpers
def _minus(a, b):
    out = [x - y for x, y in zip(a, b)]
    assert min(out) >= 0, (a, b)
    return out


def _plus(a, b):
    return [x + y for x, y in zip(a, b)]


def _one(r):
    c = [0] * NUM_RANKS
    c[r] = 1
    return c


def _cards_list(counts) -> list[int]:
    return [r for r, c in enumerate(counts) for _ in range(c)]


def _sample(rng, counts, k):
    out = [0] * NUM_RANKS
    for r in rng.sample(_cards_list(counts), k):
        out[r] += 1
    return out


def steer_all(positions: Sequence[P.Position], steer: OpenSpielSteer | None = None,
              seed: int = 0):
    """[(position, state)] for the reachable positions, and [(position, reason)]."""
    steer = steer or OpenSpielSteer()
    ok, skipped = [], []
    for p in positions:
        try:
            ok.append((p, steer.steer(p, seed)))
        except Unreachable as e:
            skipped.append((p, str(e)))
    return ok, skipped


def game_positions(n: int, seed: int = 0, steer: OpenSpielSteer | None = None,
                   leads: bool = False):
    """[(position, state)] for the first ``n`` decisions of the playing phase of OpenSpiel
    games played with uniformly random legal actions from ``random.Random(seed)``: only
    the follows (a move to beat, Pass legal) unless ``leads``, where every decision counts,
    leads and follows as they arise in play. Follows in play are mostly against solos and
    pairs, where the steered set cycles through every kind. ``size_class`` is 'game' with
    the leads, else 'play'."""
    steer = steer or OpenSpielSteer()
    rng = random.Random(seed)
    size_class = "game" if leads else "play"
    out: list = []
    while len(out) < n:
        st = steer.game.new_initial_state()
        to_beat = None  # the last non-pass play of the playing phase
        while not st.is_terminal() and len(out) < n:
            if st.is_chance_node():
                st.apply_action(rng.choice([a for a, _ in st.chance_outcomes()]))
                continue
            legal = st.legal_actions()
            if to_beat is not None and PASS in legal:
                hand, last = steer.hand_and_last(st)
                out.append((P.Position(len(out), hand, last, kind_of_action(to_beat), size_class), st.clone()))
            elif leads and any(kind_of_action(a) is not None for a in legal):  # a lead, not a bid
                hand, _ = steer.hand_and_last(st)
                out.append((P.Position(len(out), hand, None, None, size_class), st.clone()))
            action = rng.choice(legal)
            if kind_of_action(action) is not None:
                to_beat = action
            st.apply_action(action)
    return out


def _self_check():
    s = OpenSpielSteer()
    assert s.action_of[("3", "solo")] == 4
    assert s.action_of[("BR", "rocket")] == 26056
    assert s.action_of[("3333", "bomb")] == 26043
    assert s.action_of[("33344455", "airplane_solos")] == 516
    leads = P.lead_positions_detailed(60, 1)
    follows = P.follow_positions_detailed(280, 1)
    for name, ps in (("lead", leads), ("follow", follows)):
        ok, skipped = steer_all(ps, s)
        for p, st in ok:
            assert s.hand_and_last(st) == (p.hand, p.last), (p, s.hand_and_last(st))
        print(f"{name}: {len(ok)} steered, {len(skipped)} unreachable")
        reasons = {}
        for p, r in skipped:
            reasons.setdefault(r, []).append(p.last_kind)
        for r, ks in reasons.items():
            print(f"   {len(ks)} x {r}")
    p, st = ok[3]
    print(p)
    print(st.observation_string(st.current_player()))
    print(str(st).split("Bidding phase begin")[1])


if __name__ == "__main__":
    _self_check()
