"""The table as JSON for the page: what a seat may see of a Game, cards as SVG.

Presentation only: every fact comes from the engine (``Game.seat_view``, ``Game.result``,
``Action.text``) and every picture from :mod:`doudizhu.render`, whose cards are one
``<g class="card" data-rank=...>`` each, so the page can make the person's cards
clickable. ``viewer`` None shows every hand face up (a replay); a seat sees its own hand
and the others' as counts of face-down cards.
"""

from __future__ import annotations

from typing import Any

from .._core import Action, Game, Settlement
from ..render import backs_svg, cards_svg, role, wild_names


def _seat(game: Game, seat: int, viewer: int | None, names: dict[int, str]) -> dict[str, Any]:
    hand = game.hand(seat)
    shown = viewer is None or viewer == seat
    return {
        "seat": seat,
        "name": names.get(seat, f"seat {seat}"),
        "role": role(game, seat),
        "count": len(hand),
        "cards": str(hand) if shown else None,
        "svg": cards_svg(hand) if shown else backs_svg(len(hand)),
        "to_move": game.to_move == seat,
    }


def _last(game: Game) -> dict[str, Any] | None:
    last, by = game.last, game.last_by
    if last is None or by is None:
        return None
    return {"text": Action.play(last).text(game.rules), "kind": last.kind.name.lower(), "by": by,
            "svg": cards_svg(last.spent)}


def settlement(game: Game, result: Settlement) -> dict[str, Any]:
    return {
        "void": game.landlord is None,  # nobody bid: nobody pays
        "landlord_won": result.landlord_won,
        "base": result.base,
        "multiplier": result.multiplier,
        "bombs": result.bombs,
        "rockets": result.rockets,
        "spring": result.spring,
        "anti_spring": result.anti_spring,
        "start_bonuses": [{"name": name, "seat": seat} for name, seat in result.start_bonuses],
        "payouts": list(result.payouts),
    }


def table(game: Game, viewer: int | None, names: dict[int, str]) -> dict[str, Any]:
    """The state of the hand as ``viewer`` may see it (None: everything)."""
    view = game.seat_view(viewer if viewer is not None else 0)
    kitty_public = view["kitty"] is not None
    result = game.result
    return {
        "phase": game.phase,
        "to_move": game.to_move,
        "seats": [_seat(game, seat, viewer, names) for seat in range(game.seats)],
        "last": _last(game),
        "kitty": {
            "public": kitty_public,
            "cards": str(game.kitty) if kitty_public or viewer is None else None,
            "svg": cards_svg(game.kitty) if kitty_public or viewer is None else backs_svg(len(game.kitty)),
        },
        "landlord": game.landlord,
        "bid": view["bidding"]["high_bid"],
        "base": view["base"],
        "multiplier": view["multiplier"],
        "bombs": view["bombs"],
        "rockets": view["rockets"],
        "wild": wild_names(game) or None,
        "redeals": game.redeals,
        "log": [{"seat": seat, "text": action.text(game.rules)} for seat, action in game.history],
        "result": None if result is None else settlement(game, result),
    }


__all__ = ["settlement", "table"]
