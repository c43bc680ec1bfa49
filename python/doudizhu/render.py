"""Pictures: cards, moves and games as SVG, for Jupyter, apps and the documentation.

:func:`svg` draws a :class:`~doudizhu.Cards` or :class:`~doudizhu.Move` as a row of card
faces in rank order, and a :class:`~doudizhu.Game` as its table on a green cloth: each
seat's role and hand (face down, as a count, for the seats a ``seat`` may not see), the
kitty, the move to beat and who made it, and the stake; once the hand is over, who won
and the payouts. Every card is one ``<g class="card">`` element (``class="card back"``
face down, ``class="card wild"`` for a wild card) with its rank in ``data-rank``, and for
a wild card played as another rank that rank in ``data-as``, so pages can style and script
them. In Jupyter these objects show as these pictures (``_repr_svg_``).

Faces carry no suits (suits never matter in Dou Dizhu): a large rank in the corner that
stays visible where cards overlap, "10" written as such, jokers as JOKER in black or red.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape

from ._core import Cards, Game, Move, MoveKind, Rules, checked_int, rank_name

CARD_W, CARD_H = 52, 74
OVERLAP, BACK_OVERLAP = 26, 12  # how far the next card in a row starts: a face's corner shows, a back's edge
_ROW_H = CARD_H + 34
_MOST_CARDS = 108  # two decks: more backs than any hand or kitty holds
_FONT = "font-family='DejaVu Sans, Arial, sans-serif'"
_RED = "#c0392b"
_INK = "#1d1d1d"
_WILD_FILL, _WILD_INK = "#ffe8a3", "#8a5a00"
_CLOTH, _CLOTH_INK = "#2e6b3f", "#f4f4f4"  # the table's picture: light labels on green, on any notebook theme


def _corner(text: str, x: int, y: int, size: int, color: str) -> str:
    """Bold text in a face's left strip, squeezed to fit it (the part the next card leaves)."""
    room = OVERLAP - 6
    fit = f" textLength='{room}' lengthAdjust='spacingAndGlyphs'" if len(text) * size * 0.62 > room else ""
    style = f"font-size='{size}' font-weight='bold' {_FONT} fill='{color}'"
    return f"<text x='{x}' y='{y}' {style}{fit}>{escape(text)}</text>"


def _face(rank: str, x: int, y: int, wild: bool = False, stands_for: str | None = None) -> str:
    """One card face: ``wild`` marks a wild card, ``stands_for`` the rank it is played as."""
    color = _RED if rank == "R" else _INK
    if rank in "BR":
        text = (f"<text x='{x + 8}' y='{y + 8}' font-size='11' font-weight='bold' {_FONT} fill='{color}' "
                f"writing-mode='tb' letter-spacing='1'>JOKER</text>"
                f"<text x='{x + CARD_W / 2 + 6}' y='{y + CARD_H / 2 + 10}' font-size='26' fill='{color}' "
                f"text-anchor='middle'>&#9733;</text>")
    else:
        label = face_name(rank)
        # The rank in the top-left corner, and upside down in the bottom-right one (seen on
        # the last card of a row), as printed cards have it.
        text = (_corner(label, x + 3, y + 23, 21, color) + f"<g transform='rotate(180 {x + CARD_W / 2} "
                f"{y + CARD_H / 2})'>{_corner(label, x + 3, y + 23, 21, color)}</g>")
    classes, data, fill, stroke = "card", f" data-rank='{rank}'", "white", "#888"
    if wild:
        classes, fill, stroke = "card wild", _WILD_FILL, _WILD_INK
        tag = "wild" if stands_for is None else f"as {face_name(stands_for)}"
        text += _corner(tag, x + 3, y + 40, 11, _WILD_INK)
        data += f" data-as='{stands_for}'" if stands_for is not None else ""
    return (f"<g class='{classes}'{data}><rect x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='6' "
            f"fill='{fill}' stroke='{stroke}'/>{text}</g>")


def _back(x: int, y: int) -> str:
    return (f"<g class='card back'><rect x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='6' fill='#2c5d8f' "
            f"stroke='#888'/><rect x='{x + 4}' y='{y + 4}' width='{CARD_W - 8}' height='{CARD_H - 8}' rx='4' "
            f"fill='none' stroke='#9cc3e8'/></g>")


# A card as drawn: its rank, whether it is wild, and the rank a wild card is played as.
_Card = tuple[str, bool, "str | None"]


def _checked(obj: object, kind: type, name: str) -> None:
    """TypeError unless ``obj`` is a ``kind``."""
    if not isinstance(obj, kind):
        raise TypeError(f"{name} must be a {kind.__name__}, not {type(obj).__name__}")


def _checked_wild(wild: object) -> str:
    """The ranks ``wild`` names ("5", "59", "10", any case, as card text writes them) as
    rank characters: TypeError unless it is a str, ValueError (CardsError) unless it is
    card text of ranks a wild card may have (not a joker)."""
    _checked(wild, str, "wild")
    try:
        ranks = "".join(dict.fromkeys(str(Cards(str(wild)))))  # each rank once
    except ValueError as error:
        raise type(error)(f"wild must be card text of ranks 3..2, such as '5', '59' or '10' ({error})") from None
    if "B" in ranks or "R" in ranks:
        raise ValueError(f"wild: a joker is never wild, not {wild!r}")
    return ranks


def _hand_cards(cards: Cards, wild: str) -> list[_Card]:
    """Cards in rank order, those of a ``wild`` rank marked."""
    _checked(cards, Cards, "cards")
    wild = _checked_wild(wild)
    return [(rank, rank in wild, None) for rank in str(cards)]  # one character a card


def main_first(move: Move) -> str:
    """The combination's cards as players write them: the main part, then the kickers
    ("666" then "3" for 3666; "444555666" then "333" for douzero's airplane with solos from
    4); one character a card, each part low to high."""
    _checked(move, Move, "move")
    return str(move.cards - move.kickers) + str(move.kickers)


def _move_cards(move: Move, wild: str = "") -> list[_Card]:
    """The cards a move spends, in its combination's order (main_first): each wild card that
    stands in for another rank drawn where that rank falls, marked with it ("5 as 7"). A move that
    stands no card in knows no wild rank: ``wild`` marks the cards played as themselves."""
    _checked(move, Move, "move")
    wild = _checked_wild(wild)
    stand_ins = [(rank_name(wild), rank) for wild, cards in move.stand_in_groups for rank in str(cards)]
    wild += "".join(rank_name(rank) for rank in move.wild_ranks)
    drawn: list[_Card] = []
    for rank in main_first(move):
        standing = next((pair for pair in stand_ins if pair[1] == rank), None)
        if standing is None:
            drawn.append((rank, rank in wild, None))
        else:
            stand_ins.remove(standing)
            drawn.append((standing[0], True, rank))
    return drawn


def _row(cards: list[_Card] | None, count: int, x: int, y: int) -> tuple[str, int]:
    """Cards face up (or ``count`` backs when ``cards`` is None) from (x, y): the SVG and its width."""
    if cards is None:
        parts = [_back(x + i * BACK_OVERLAP, y) for i in range(count)]
        step = BACK_OVERLAP
    else:
        parts = [_face(rank, x + i * OVERLAP, y, wild, stands_for) for i, (rank, wild, stands_for) in enumerate(cards)]
        step = OVERLAP
    return "".join(parts), (step * (len(parts) - 1) + CARD_W if parts else 0)


_TEXT_LEFT = 8  # a label's x, and the margin kept on its right


def _text_width(text: str) -> int:
    """About how wide ``text`` runs at the labels' 13 px (DejaVu Sans: 6.8 px a character on
    a payouts line; 7.2 leaves room for wider letters)."""
    return math.ceil(7.2 * len(text))


def _label(text: str, x: int, y: int) -> str:
    return f"<text x='{x}' y='{y}' font-size='13' {_FONT} fill='{_CLOTH_INK}'>{escape(text)}</text>"


def _document(body: str, width: int, height: int) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}'>{body}</svg>")


def _row_svg(cards: list[_Card] | None, count: int) -> str:
    body, width = _row(cards, count, 2, 2)
    return _document(body, max(width, 1) + 4, CARD_H + 4)


def cards_svg(cards: Cards, wild: str = "") -> str:
    """A row of faces in rank order; the cards of the ranks in ``wild`` (rank characters,
    "5" or "59") marked as wild."""
    return _row_svg(_hand_cards(cards, wild), 0)


def card_svgs(cards: Cards, wild: str = "") -> list[str]:
    """One picture a card, in rank order (marked as :func:`cards_svg` marks them): for a
    page that lays a hand out itself, in as many rows as its width allows."""
    return [_row_svg([card], 0) for card in _hand_cards(cards, wild)]


def move_svg(move: Move, wild: str = "") -> str:
    """The cards a move spends, each wild card marked with the rank it is played as (and
    those of the ranks in ``wild`` played as themselves marked as wild)."""
    return _row_svg(_move_cards(move, wild), 0)


def backs_svg(count: int) -> str:
    """A row of ``count`` cards face down: a hand as a seat that may not see it is shown it."""
    return _row_svg(None, checked_int(count, "count", 0, _MOST_CARDS))


def wild_ranks(game: Game) -> str:
    """The hand's wild ranks as rank characters ("5", "59"), "" without wild cards."""
    _checked(game, Game, "game")
    return "".join(rank_name(rank) for rank in game.wild_ranks)


def face_name(rank: int | str) -> str:
    """A rank as a card's face writes it: its card character, the ten as '10'."""
    name = rank_name(rank)
    return "10" if name == "T" else name


def card_name(rank: int | str) -> str:
    """A card as a person names it: its face (``face_name``), a joker by its colour, since
    both jokers' faces say JOKER."""
    name = rank_name(rank)
    return {"B": "black joker", "R": "red joker"}.get(name) or face_name(name)


def wild_names(game: Game) -> str:
    """The hand's wild ranks in words, as the table shows them: 'the 5s', 'the 5s and 10s'
    (two wild ranks; the ten as its card face writes it), or '' without wild cards."""
    _checked(game, Game, "game")
    names = [face_name(rank) for rank in game.wild_ranks]
    return f"the {' and '.join(f'{name}s' for name in names)}" if names else ""


def role(game: Game, seat: int) -> str:
    """A seat's role as the table shows it: 'bidding' until there is a landlord ('no
    landlord' once a void hand is over), then 'landlord', 'partner' (the seat the landlord
    named, four_partner; 'peasant or partner' while it chooses) or 'peasant'; without a
    landlord (run_fast) 'for itself' (the terminal game's screen says the same)."""
    _checked(game, Game, "game")
    checked_int(seat, "seat", 0, game.seats - 1)
    if game.rules.each_for_self:
        return "for itself"
    if game.landlord is None:
        return "bidding" if game.phase != "over" else "no landlord"  # a void hand: nobody bid
    if game.phase == "partner" and seat != game.landlord:  # the landlord is choosing among them
        return "peasant or partner"
    if seat == game.partner:
        return "partner"
    return "landlord" if game.landlord == seat else "peasant"


def _seat_line(game: Game, seat: int, viewer: int | None) -> tuple[str, Cards | None, int]:
    hand = game.hand(seat)
    shown = hand if viewer is None or viewer == seat else None
    turn = " - to move" if game.to_move == seat else ""
    return f"seat {seat} ({role(game, seat)}), {plural(len(hand), 'card')}{turn}", shown, len(hand)


def outcome(game: Game) -> list[str]:
    """The lines that end a finished hand's picture: who won and what each seat is paid
    (the environments' text says them too)."""
    result = game.result
    assert result is not None
    payouts = ", ".join(f"seat {seat} {payout:+d}" for seat, payout in enumerate(result.payouts))
    if game.landlord is None and result.winner is None:
        return ["over: nobody bid, the hand is void"]
    return [f"over: {settled(game)}", f"payouts: {payouts}"]


def settled(game: Game, name: Callable[[int], str] = lambda seat: f"seat {seat}") -> str:
    """A finished hand as the table says it: who won, and with a landlord the base, the
    multiplier and what doubled it ('the peasants win, base 2 x 8 (1 bomb, 1 rocket,
    spring, start bonus: jokers in seat 2's hand)', a cap said where it held the
    multiplier down); without one (each for itself) the bombs, which are paid. ``name``
    and the refusals as for :func:`winners`."""
    said = winners(game, name)
    result = game.result
    assert result is not None  # winners refused an unfinished hand
    if result.winner is not None:  # each for itself: the first out, paid by the cards left
        return f"{said}, {bombs_text(result.bombs, result.rockets)}"

    def hand_of(seat: int) -> str:
        who = _named(name, seat)
        return "your hand" if who == "you" else f"{who}'s hand"

    extras = [bombs_text(result.bombs, result.rockets)] if result.bombs or result.rockets else []
    extras += [text for text, on in (("spring", result.spring), ("anti-spring", result.anti_spring)) if on]
    kinds = list(dict.fromkeys(bonus for bonus, _ in result.start_bonuses))  # each kind doubles once (rules.md)
    extras += [f"start bonus: {kind} in " + " and ".join(hand_of(seat) for bonus, seat in result.start_bonuses
                                                          if bonus == kind) for kind in kinds]
    if capped(game):
        extras.append(f"capped at {result.multiplier}")
    return f"{said}, base {result.base} x {result.multiplier}" + (f" ({', '.join(extras)})" if extras else "")


def capped(game: Game) -> bool:
    """Whether ``max_multiplier`` held a finished hand's multiplier below what doubled it:
    each bomb and rocket, a spring or anti-spring, each kind of start bonus (rules.md)."""
    _checked(game, Game, "game")
    result = game.result
    if result is None or not game.rules.max_multiplier:
        return False
    kinds = {bonus for bonus, _ in result.start_bonuses}
    doublings = result.bombs + result.rockets + int(result.spring or result.anti_spring) + len(kinds)
    return bool(2**doublings > result.multiplier)


def winners(game: Game, name: Callable[[int], str] = lambda seat: f"seat {seat}") -> str:
    """Who won the hand, as the table says it: 'the landlord wins', with a partner 'the
    landlord and seat N win', or 'the peasants win'; without a landlord (run_fast) the
    first out, 'seat N wins'. `name` says a seat ('seat N' unless told; a table that
    calls its player 'you' gets 'you win'). ValueError before the hand is over, or when
    it was void; TypeError for a ``name`` that is no function of a seat giving a str."""
    _checked(game, Game, "game")
    if not callable(name):  # refused whether or not this hand needs a seat named
        raise TypeError(f"name must be a function of a seat, not {type(name).__name__}")
    result = game.result
    if result is None or (game.landlord is None and result.winner is None):
        raise ValueError("nobody won: the hand is not over" if result is None else "nobody won: the hand was void")
    if result.winner is not None:
        subject = _named(name, result.winner)
        return f"{subject} {'win' if subject == 'you' else 'wins'}"
    if not result.landlord_won:
        return "the peasants win"
    return "the landlord wins" if game.partner is None else f"the landlord and {_named(name, game.partner)} win"


def _named(name: Callable[[int], str], seat: int) -> str:
    said = name(seat)
    if not isinstance(said, str):
        raise TypeError(f"name must give a seat's name as a str, not {type(said).__name__}")
    return said


def stake_text(game: Game) -> str:
    """The stake so far: the auction's high bid until there is a landlord (no base yet); in a
    call-and-rob auction, where nobody bids a number, the stake the calls and robs made."""
    _checked(game, Game, "game")
    if game.phase == "bidding" and game.rules.bidding == "call_rob":
        return f"stake {game.bid_value} so far" if game.bid_value else "nobody has called yet"
    if game.phase == "bidding":
        return f"high bid {game.bid_value or 'none yet'}"
    if game.phase == "partner":
        return f"stake base {game.bid_value}, the landlord chooses alone or a partner"
    if game.rules.each_for_self:
        return "each for itself, a point a card left"
    if game.landlord is None:  # over, and nobody bid
        return "no stake: the hand is void"
    if game.result is not None:  # the settlement's: a spring or a start bonus doubles it at the end
        return f"stake base {game.result.base} x {game.result.multiplier}"
    return f"stake base {game.bid_value} x {game.multiplier}"


def plural(count: int, noun: str) -> str:
    """'1 card', '2 cards'."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def kind_label(kind: MoveKind) -> str:
    """A kind of play as tables write it: "airplane solos" (the page's kindName writes the same)."""
    _checked(kind, MoveKind, "kind")
    return kind.name.lower().replace("_", " ")


def bombs_text(bombs: int, rockets: int) -> str:
    """The bombs and rockets played, each counted as what it is: "2 bombs, 1 rocket",
    "no bombs" (a player looking for three bombs where one was a rocket finds two)."""
    counts = [checked_int(count, name, 0, 2**31 - 1) for count, name in ((bombs, "bombs"), (rockets, "rockets"))]
    counted = zip(counts, ("bomb", "rocket"))
    return ", ".join(plural(count, noun) for count, noun in counted if count) or "no bombs"


def scoring_text(rules: Rules) -> str | None:
    """How a hand of each seat for itself (Run Fast) pays, said with its result; None for
    rules with a landlord, whose base and multiplier say it."""
    _checked(rules, Rules, "rules")
    if not rules.each_for_self:
        return None
    text = ("each other seat pays the first out a point a card it holds "
            "(nothing for one card, double if it never played)")
    return text + ("; each bomb collected 10 from each other seat" if rules.bomb_pay else "")


def _stake(game: Game) -> str:
    return f"{game.phase}: {stake_text(game)}"


def game_svg(game: Game, seat: int | None = None) -> str:
    """The table, every hand face up, or as ``seat`` sees it (``Game.seat_view``)."""
    _checked(game, Game, "game")
    view = game.seat_view(seat if seat is not None else 0)
    wild = wild_ranks(game)
    parts: list[str] = []
    texts: list[str] = []

    def label(text: str, y: int) -> str:
        texts.append(text)
        return _label(text, _TEXT_LEFT, y)

    y, width = 20, 360
    for s in range(game.seats):
        text, shown, count = _seat_line(game, s, seat)
        parts.append(label(text, y))
        row, w = _row(None if shown is None else _hand_cards(shown, wild), count, 8, y + 8)
        parts.append(row)
        width, y = max(width, w + 16), y + _ROW_H
    if len(game.kitty):  # none under sanren nor from a position: no row, no label
        kitty = game.kitty if seat is None or view["kitty"] is not None else None
        # Run Fast's cards left after the deal are set aside unseen: no one takes them
        name = "set aside" if game.rules.each_for_self else "kitty"
        parts.append(label(name + ("" if kitty is not None else " (face down)"), y))
        parts.append(_row(None if kitty is None else _hand_cards(kitty, wild), len(game.kitty), 8, y + 8)[0])
        y += _ROW_H
    if game.last is not None and game.phase != "over":
        parts.append(label(f"to beat: {kind_label(game.last.kind)} by seat {game.last_by}", y))
        row, w = _row(_move_cards(game.last, wild), 0, 8, y + 8)
        parts.append(row)
        width, y = max(width, w + 16), y + _ROW_H
    if game.phase == "over":
        lines = outcome(game)
    else:
        lines = [_stake(game) + (f", {wild_names(game)} wild" if wild else "")]
    for line in lines:
        parts.append(label(line, y))
        y += 18
    # The text as wide as it runs (a four-seat hand's payouts ran 74 px past the cards' width).
    width = max(width, *(2 * _TEXT_LEFT + _text_width(text) for text in texts))
    cloth = f"<rect width='{width}' height='{y}' rx='10' fill='{_CLOTH}'/>"
    return _document(cloth + "".join(parts), width, y)


def svg(obj: Cards | Move | Game, seat: int | None = None) -> str:
    """The SVG picture of Cards, a Move (the cards it spends) or a Game (as ``seat`` sees it; None: all)."""
    if isinstance(obj, Game):
        return game_svg(obj, seat)
    if seat is not None:
        raise ValueError("seat applies to a Game only")
    if isinstance(obj, Move):
        return move_svg(obj)
    if isinstance(obj, Cards):
        return cards_svg(obj)
    raise TypeError(f"svg draws Cards, a Move or a Game, not {type(obj).__name__}")


__all__ = ["backs_svg", "bombs_text", "capped", "card_name", "card_svgs", "cards_svg", "face_name", "game_svg",
           "kind_label", "main_first", "move_svg", "outcome", "role", "scoring_text", "settled", "stake_text", "svg",
           "wild_names", "wild_ranks", "winners"]
