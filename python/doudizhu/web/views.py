"""The table as JSON for the page: what a seat may see of a Game, cards as SVG.

Presentation only: every fact comes from the engine (``Game.seat_view``, ``Game.result``,
``Action.text``) and every picture from :mod:`doudizhu.render`, whose cards are one
``<g class="card" data-rank=...>`` each, so the page can make the person's cards
clickable. ``viewer`` None shows every hand face up (a replay); a seat sees its own hand
and the others' as counts of face-down cards. Each seat carries its latest action of the
last round of the table (the last action of each seat, one turn of the table back), so
the page can show it in front of the seat; ``text`` is what the engine reads back,
``label`` how a person reads it (10 for T, a wild card's reading spelled out).
"""

from __future__ import annotations

import re
from typing import Any

from .._core import Action, ActionType, Cards, Game, Rules, Settlement
from ..render import (
    backs_svg,
    bombs_text,
    capped,
    card_name,
    card_svgs,
    cards_svg,
    face_name,
    main_first,
    move_svg,
    role,
    scoring_text,
    stake_text,
    wild_names,
    wild_ranks,
)

#: The network's top choices where a seat played by it acted, by index in the history.
Thoughts = dict[int, list[dict[str, Any]]]


def cards_label(cards: Cards) -> str:
    """Cards as a person reads them: "10 10 J", "black joker red joker"."""
    return " ".join(card_name(rank) for rank in str(cards))


# Cards the engine writes in a refusal of a play (play_error, must_beat): at the start,
# after "must_beat:", "beat(s)", "not in hand:" and "missing from", one character a card.
# Quoted text is the person's own input and stays as typed: a quoted stretch (the engine
# escapes a quote inside one) is matched whole first, so that nothing inside it is.
_WRITTEN_CARDS = re.compile(
    r"(?P<quoted>'(?:[^'\\]|\\.)*')"
    r"|(?:^|(?<=must_beat: )|(?<=beat )|(?<=beats )|(?<=in hand: )|(?<=missing from ))"
    r"(?P<cards>[3-9TJQKA2BR]+)(?=[ ,]|$)")


def readable(message: str) -> str:
    """An engine's refusal of a play with the cards it wrote as :func:`cards_label` writes
    them ("T does not beat 88" -> "10 does not beat 8 8"), for a page that shows 10 and the
    jokers by name; anything else in the message as it was."""
    def label(run: re.Match[str]) -> str:
        if run.group("quoted"):
            return run.group(0)
        try:
            return cards_label(Cards(run.group("cards")))
        except ValueError:  # no cards after all: left as written
            return run.group(0)

    return _WRITTEN_CARDS.sub(label, message)


def action_label(action: Action, rules: Rules) -> str:
    """An action as a person reads it: "pass", "bid 2", "3 3", "6 6 6 3" (the main part
    first), "5 7 7 7 as 7 7 7 7", and for cards that read several ways the main part's
    ranks: "4 4 4 5 5 5 3 3 3 3, main 4-5"."""
    move = action.move
    if move is None:
        return action.text(rules)
    played = " ".join(card_name(rank) for rank in main_first(move))  # the trio before its kickers
    label = played if move.spent == move.cards else f"{cards_label(move.spent)} as {played}"
    if "/" in action.text(rules):  # cards that read several ways: which ranks make the main part
        top = move.key + move.length - 1
        label += f", main {card_name(move.key)}" + (f"-{card_name(top)}" if move.length > 1 else "")
    return label


def kind(action: Action) -> str:
    """The kind of play ("pair", "airplane_solos"), or of action ("pass", "bid")."""
    return action.move.kind.name.lower() if action.move is not None else action.type.name.lower()


def _action(game: Game, action: Action, thinking: list[dict[str, Any]] | None) -> dict[str, Any]:
    move = action.move
    return {"text": action.text(game.rules), "label": action_label(action, game.rules), "kind": kind(action),
            "svg": move_svg(move, wild_ranks(game)) if move is not None else None, "thinking": thinking}


def _latest(game: Game, thoughts: Thoughts, viewer: int | None) -> dict[int, dict[str, Any]]:
    """Each seat's latest action among the last ``seats`` actions (one turn of the table)
    of the current trick, with the network's choices there where ``viewer`` sees that
    seat's hand: the choices show the cards they would have played, which a face-down hand
    keeps until the end. A new lead clears the table: the passes and bids before it belong
    to a trick (or an auction) that is over."""
    history = game.history
    start = max(game.deal_start, len(history) - game.seats, _trick_start(game))  # no bid of a deal thrown in
    over = game.phase == "over"

    def seen(seat: int, index: int) -> list[dict[str, Any]] | None:
        return thoughts.get(index) if viewer is None or viewer == seat or over else None

    return {seat: _action(game, action, seen(seat, start + i)) for i, (seat, action) in enumerate(history[start:])}


def _trick_start(game: Game) -> int:
    """The history index of the current trick's lead (a play with nothing to beat: the
    hand's first, or one after every other seat passed), 0 before the first play and in
    the trick a position began in (its ``last``)."""
    lead, passes = 0, 0
    in_trick = game.origin.get("last") is not None
    for index, (_, action) in enumerate(game.history):
        if action.type is ActionType.PASS:
            passes += 1
        elif action.type is ActionType.PLAY:
            if not in_trick or passes == game.seats - 1:
                lead = index
            in_trick, passes = True, 0
    return lead


def _seat(game: Game, seat: int, viewer: int | None, names: dict[int, str], latest: dict[str, Any] | None
          ) -> dict[str, Any]:
    hand = game.hand(seat)
    shown = viewer is None or viewer == seat
    wild = wild_ranks(game)
    return {
        "seat": seat,
        "name": names.get(seat, f"seat {seat}"),
        "role": role(game, seat),
        "count": len(hand),
        "cards": str(hand) if shown else None,
        "svg": cards_svg(hand, wild) if shown else backs_svg(len(hand)),
        "faces": card_svgs(hand, wild) if shown else None,  # one a card: the page wraps a hand to its width
        "to_move": game.to_move == seat,
        "latest": latest,
    }


def _last(game: Game) -> dict[str, Any] | None:
    last, by = game.last, game.last_by
    if last is None or by is None:
        return None
    action = Action.play(last)
    return {"text": action.text(game.rules), "label": action_label(action, game.rules), "kind": kind(action),
            "by": by, "svg": move_svg(last, wild_ranks(game))}


def settlement(game: Game, result: Settlement) -> dict[str, Any]:
    return {
        "void": game.landlord is None and result.winner is None,  # nobody bid: nobody pays
        "winner": result.winner,  # each for itself (run_fast): the first out
        "landlord_won": result.landlord_won,
        "partner": result.partner,  # four_partner: the landlord's side is two seats
        "base": result.base,
        "multiplier": result.multiplier,
        "bombs": result.bombs,
        "rockets": result.rockets,
        "spring": result.spring,
        "anti_spring": result.anti_spring,
        "start_bonuses": [{"name": name, "seat": seat} for name, seat in result.start_bonuses],
        "capped": capped(game),  # max_multiplier held the multiplier down
        "payouts": list(result.payouts),
        "scoring": scoring_text(game.rules),  # how each for itself pays (None: base x multiplier says it)
    }


def table(game: Game, viewer: int | None, names: dict[int, str], thoughts: Thoughts | None = None) -> dict[str, Any]:
    """The state of the hand as ``viewer`` may see it (None: everything); ``thoughts``, the
    network's choices where a seat played by it acted."""
    view = game.seat_view(viewer if viewer is not None else 0)
    kitty_public = view["kitty"] is not None
    result = game.result
    latest = _latest(game, thoughts or {}, viewer)
    return {
        "phase": game.phase,
        "to_move": game.to_move,
        "seats": [_seat(game, seat, viewer, names, latest.get(seat)) for seat in range(game.seats)],
        "last": _last(game),
        "kitty": {
            "public": kitty_public,
            "face_up": kitty_public or viewer is None,  # shown to this viewer (every card face up: a replay)
            "size": len(game.kitty),
            "set_aside": game.rules.each_for_self,  # Run Fast's cards left out of the deal: no kitty
            "cards": str(game.kitty) if kitty_public or viewer is None else None,
            "svg": (cards_svg(game.kitty, wild_ranks(game)) if kitty_public or viewer is None
                    else backs_svg(len(game.kitty))),
        },
        "landlord": game.landlord,
        "partner": game.partner,
        "each_for_self": game.rules.each_for_self,  # no landlord, no stake: `stake` says how a hand pays
        "stake": stake_text(game),
        # Run Fast's first lead must hold this rank (who holds it leads), then null.
        "lead_rank": None if game.lead_rank is None else face_name(game.lead_rank),
        "bid": view["bidding"]["high_bid"],
        "base": view["base"],
        "multiplier": view["multiplier"],
        "bombs": view["bombs"],
        "rockets": view["rockets"],
        "bombs_text": bombs_text(view["bombs"], view["rockets"]),
        "wild": wild_names(game) or None,
        "redeals": game.redeals,
        "log": [{"seat": seat, "text": action.text(game.rules), "label": action_label(action, game.rules)}
                for seat, action in game.history],
        "result": None if result is None else settlement(game, result),
    }


__all__ = ["Thoughts", "action_label", "cards_label", "kind", "settlement", "table"]
