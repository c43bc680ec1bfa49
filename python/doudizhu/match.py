"""A match: a series of hands with a rotating dealer and running scores."""

from __future__ import annotations

from typing import Any

from ._core import Game, Rules, Settlement, checked_int, checked_rules, checked_seed

_GOLDEN = 0x9E3779B97F4A7C15  # spreads hand numbers over the seed space
_MASK64 = (1 << 64) - 1


class Match:
    """Hands dealt one after another; the dealer rotates each hand and the seat after the
    dealer bids first (docs/rules.md, "Bidding"), over ``rules.players`` seats. Without a
    landlord (``rules.each_for_self``, Run Fast) the holder of the 3 of spades leads the
    first hand and the winner of each hand leads the next, freely.

    Hand ``i`` is dealt from seed ``(seed + i * 0x9E3779B97F4A7C15) mod 2**64``, so a
    match seed fixes every deal (``seed=None``: one drawn at random, kept in ``match.seed``)::

        match = Match(seed=7)
        game = match.new_hand()
        ...  # play it out
        match.finish(game)
        match.scores  # cumulative payouts by seat
    """

    def __init__(self, seed: int | None = 0, rules: Rules | None = None, dealer: int = 0) -> None:
        self._rules = checked_rules(rules)
        self._seed = checked_seed(seed)
        self._dealer = checked_int(dealer, "dealer", 0, self.players - 1)
        self._settlements: list[Settlement] = []
        self._scores = [0] * self.players
        self._open: Game | None = None

    # Read-only: the match's own record of itself (rules changed mid-match booked a hand's
    # payouts by half and left the scores off zero; a dealer of 7 was taken as it was).
    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def players(self) -> int:
        return self._rules.players

    @property
    def seed(self) -> int:
        """The match's seed (drawn at random when None was given)."""
        return self._seed

    @property
    def dealer(self) -> int:
        """The current hand's dealer (between hands, the next one's): the seat after it bids
        first; it moves one seat on after each hand."""
        return self._dealer

    @property
    def settlements(self) -> tuple[Settlement, ...]:
        """Every finished hand's settlement, in order."""
        return tuple(self._settlements)

    @property
    def current_hand(self) -> Game | None:
        """The hand dealt and not yet finished, None between hands: the game to play out and
        pass to :meth:`finish`. A copy or an unpickled match holds a copy of it, which this
        hands back (without it such a match could never go on)."""
        return self._open

    def __copy__(self) -> Match:
        """A match of its own: its scores and settlements, and a copy of the open hand (a
        shallow copy shared them, and a hand finished on either was booked on both)."""
        twin = Match.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._settlements = list(self._settlements)
        twin._scores = list(self._scores)
        twin._open = None if self._open is None else self._open.copy()
        return twin

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A match pickled before its fields were read-only, read as it was."""
        for name in ("rules", "seed", "dealer", "settlements"):
            if name in state:
                state["_" + name] = state.pop(name)
        state.pop("players", None)
        self.__dict__.update(state)

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative payouts by seat (they sum to zero)."""
        return tuple(self._scores)

    @property
    def hands_played(self) -> int:
        return len(self._settlements)

    def __repr__(self) -> str:
        """Its seed and rules, and where it stands: the dealer, hands played, scores, a hand open."""
        open_hand = ", a hand in play" if self._open is not None else ""
        played = f"{self.hands_played} hand{'' if self.hands_played == 1 else 's'} played"
        return (f"<Match(seed={self.seed}, rules={self.rules!r}): dealer {self.dealer}, {played}, "
                f"scores {self.scores}{open_hand}>")

    def new_hand(self) -> Game:
        """Deals the next hand; the seat after the dealer bids first (each for itself: the
        last winner leads, the 3 of spades the first hand)."""
        if self._open is not None:
            raise ValueError("finish the current hand first")
        seed = (self.seed + self.hands_played * _GOLDEN) & _MASK64
        self._open = Game(seed=seed, rules=self.rules, first_bidder=self._first_bidder())
        return self._open

    def _first_bidder(self) -> int | None:
        if self.rules.each_for_self:  # the last winner leads, freely; None: the 3 of spades
            return self._settlements[-1].winner if self._settlements else None
        return (self._dealer + 1) % self.players

    def finish(self, game: Game) -> Settlement:
        """Books a finished hand's payouts and passes the deal to the next seat."""
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, not {type(game).__name__}")
        if game is not self._open:
            raise ValueError("that is not this match's current hand")
        settlement = game.result
        if settlement is None:
            raise ValueError("the hand is not over")
        for seat, payout in enumerate(settlement.payouts):
            self._scores[seat] += payout
        self._settlements.append(settlement)
        self._dealer = (self._dealer + 1) % self.players
        self._open = None
        return settlement
