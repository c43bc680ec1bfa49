"""Pictures: cards, moves and games as SVG, for Jupyter, apps and the documentation.

:func:`svg` draws a :class:`~doudizhu.Cards` or :class:`~doudizhu.Move` as a row of card
faces in rank order, and a :class:`~doudizhu.Game` as its table: each seat's role and
hand (face down, as a count, for the seats a ``seat`` may not see), the kitty, the move to
beat and who made it, and the stake. Every card is one ``<g class="card">`` element
(``class="card back"`` face down) with its rank in ``data-rank``, so pages can style and
script them. In Jupyter these objects show as these pictures (``_repr_svg_``).
"""

from __future__ import annotations

from html import escape

from ._core import Cards, Game, Move, rank_name

CARD_W, CARD_H, OVERLAP = 44, 62, 24  # a card, and how far the next one in a row starts
_ROW_H = CARD_H + 34
_FONT = "font-family='DejaVu Sans, Arial, sans-serif'"
_RED = "#c0392b"


def _face(rank: str, x: int, y: int) -> str:
    label = {"T": "10", "B": "JOKER", "R": "JOKER"}.get(rank, rank)
    color = _RED if rank == "R" else "#222"
    if rank in "BR":
        text = (f"<text x='{x + 6}' y='{y + 14}' font-size='9' {_FONT} fill='{color}' "
                f"writing-mode='tb' letter-spacing='1'>{label}</text>"
                f"<text x='{x + CARD_W / 2 + 4}' y='{y + CARD_H / 2 + 8}' font-size='22' fill='{color}' "
                f"text-anchor='middle'>&#9733;</text>")
    else:
        text = (f"<text x='{x + 5}' y='{y + 17}' font-size='15' font-weight='bold' {_FONT} "
                f"fill='{color}'>{label}</text>"
                f"<text x='{x + CARD_W / 2 + 5}' y='{y + CARD_H - 12}' font-size='20' {_FONT} fill='{color}' "
                f"text-anchor='middle' opacity='0.25'>{label}</text>")
    return (f"<g class='card' data-rank='{rank}'><rect x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='5' "
            f"fill='white' stroke='#888'/>{text}</g>")


def _back(x: int, y: int) -> str:
    return (f"<g class='card back'><rect x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='5' fill='#2c5d8f' "
            f"stroke='#888'/><rect x='{x + 4}' y='{y + 4}' width='{CARD_W - 8}' height='{CARD_H - 8}' rx='3' "
            f"fill='none' stroke='#9cc3e8'/></g>")


def _row(cards: Cards | None, count: int, x: int, y: int) -> tuple[str, int]:
    """Cards face up in rank order (or ``count`` backs when ``cards`` is None) from (x, y):
    the SVG and its width."""
    if cards is None:
        parts = [_back(x + i * OVERLAP, y) for i in range(count)]
    else:
        parts = [_face(rank, x + i * OVERLAP, y) for i, rank in enumerate(str(cards))]  # one character a card
    return "".join(parts), (OVERLAP * (len(parts) - 1) + CARD_W if parts else 0)


def _label(text: str, x: int, y: int) -> str:
    return f"<text x='{x}' y='{y}' font-size='13' {_FONT} fill='#333'>{escape(text)}</text>"


def _document(body: str, width: int, height: int) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}'>{body}</svg>")


def _row_svg(cards: Cards | None, count: int) -> str:
    body, width = _row(cards, count, 2, 2)
    return _document(body, max(width, 1) + 4, CARD_H + 4)


def cards_svg(cards: Cards) -> str:
    return _row_svg(cards, 0)


def backs_svg(count: int) -> str:
    """A row of ``count`` cards face down: a hand as a seat that may not see it is shown it."""
    if count < 0:
        raise ValueError("count must not be negative")
    return _row_svg(None, count)


def wild_names(game: Game) -> str:
    """The hand's wild ranks in words, as the table shows them: 'the 5s', 'the 5s and 9s'
    (two wild ranks), or '' without wild cards."""
    ranks = game.wild_ranks
    return f"the {' and '.join(f'{rank_name(rank)}s' for rank in ranks)}" if ranks else ""


def role(game: Game, seat: int) -> str:
    """A seat's role as the table shows it: 'bidding' until there is a landlord, then
    'landlord' or 'peasant' (the terminal game's screen says the same)."""
    if game.landlord is None:
        return "bidding"
    return "landlord" if game.landlord == seat else "peasant"


def _seat_line(game: Game, seat: int, viewer: int | None) -> tuple[str, Cards | None, int]:
    hand = game.hand(seat)
    shown = hand if viewer is None or viewer == seat else None
    turn = " - to move" if game.to_move == seat else ""
    return f"seat {seat} ({role(game, seat)}), {len(hand)} cards{turn}", shown, len(hand)


def game_svg(game: Game, seat: int | None = None) -> str:
    """The table, every hand face up, or as ``seat`` sees it (``Game.seat_view``)."""
    view = game.seat_view(seat if seat is not None else 0)
    parts: list[str] = []
    y, width = 18, 360
    for s in range(game.seats):
        text, shown, count = _seat_line(game, s, seat)
        parts.append(_label(text, 4, y))
        row, w = _row(shown, count, 4, y + 8)
        parts.append(row)
        width, y = max(width, w + 8), y + _ROW_H
    kitty = game.kitty if seat is None or view["kitty"] is not None else None
    parts.append(_label("kitty" + ("" if kitty is not None else " (face down)"), 4, y))
    parts.append(_row(kitty, len(game.kitty), 4, y + 8)[0])
    y += _ROW_H
    if game.last is not None:
        parts.append(_label(f"to beat: {game.last.kind.name.lower()} by seat {game.last_by}", 4, y))
        row, w = _row(game.last.cards, 0, 4, y + 8)
        parts.append(row)
        width, y = max(width, w + 8), y + _ROW_H
    stake = f"{game.phase}: stake base {game.bid_value} x {game.multiplier}"
    if game.wild_ranks:
        stake += f", {wild_names(game)} wild"
    parts.append(_label(stake, 4, y))
    return _document("".join(parts), width, y + 10)


def svg(obj: Cards | Move | Game, seat: int | None = None) -> str:
    """The SVG picture of Cards, a Move (its cards) or a Game (as ``seat`` sees it; None: all)."""
    if isinstance(obj, Game):
        return game_svg(obj, seat)
    if seat is not None:
        raise ValueError("seat applies to a Game only")
    if isinstance(obj, Move):
        return cards_svg(obj.cards)
    if isinstance(obj, Cards):
        return cards_svg(obj)
    raise TypeError(f"svg draws Cards, a Move or a Game, not {type(obj).__name__}")


__all__ = ["backs_svg", "cards_svg", "game_svg", "role", "svg", "wild_names"]
