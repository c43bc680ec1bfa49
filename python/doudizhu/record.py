"""Game records: a hand as JSON-serialisable data, and its replay (docs/guide/records.md).

A record (version 2) is a dict::

    {"format": "doudizhu.record", "version": 2,
     "rules": {...every field of Rules.to_dict()...},
     "seed": 42,                      # 0..2**64-1: the shuffles of every redeal
     "start": "seed",                 # how the first deal came about: "seed", "deal" or "position"
     "first_bidder": 0,               # "seed" and "deal"
     "landlord": None,                # "deal": a given landlord skips the auction
     "deals": [{"hands": ["...", "...", "..."], "kitty": "...", "wild": "5"}],  # "seed" and "deal"
                                      # (laizi2: "wild": ["5", "9"])
     "position": {"hands": [...], "landlord": 0, "to_move": 1, "last": "4", "last_by": 0, "wild": None},
                                      # (four_partner: and "partner": 2, or None: alone)
     "actions": ["bid 1", "bid 0", ..., "alone", "33344456", "pass", ...]}

``deals`` lists every deal of the hand in order (a redeal adds one; ``wild`` only under
wild-card rules); ``position`` replaces ``first_bidder``, ``landlord`` and ``deals`` for
a hand that began from a position. Replay copies the record into plain values first,
rebuilds the first deal (checking it against the seed when ``start`` is "seed"), plays
every action through the engine's own checks and compares each redeal with the seed's
(from a given deal, ``start`` "deal", the redeals are given too: replay deals them as
listed, as a world of ``sample_worlds`` holds redeals no seed drew). Anything else is a
:class:`RecordError` naming the field; nothing of the record's own objects runs during it.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ._core import Action, Cards, Game, IllegalActionError, RecordError, Rules, checked_seed, rank_name
from ._shown import a_type, shown

_T = TypeVar("_T")

FORMAT = "doudizhu.record"
VERSION = 2
_STARTS = ("seed", "deal", "position")
_COMMON = {"format", "version", "rules", "seed", "start", "actions"}
_FIELDS = {
    "seed": _COMMON | {"first_bidder", "landlord", "deals"},
    "deal": _COMMON | {"first_bidder", "landlord", "deals"},
    "position": _COMMON | {"position"},
}
_POSITION_FIELDS = {"hands", "landlord", "to_move", "last", "last_by", "wild"}
# Fields that came after version 2's first records: absent, they take their defaults.
_LATER_RULES_FIELDS = {"partner"}
_LATER_POSITION_FIELDS = {"partner"}
# How deep a record nests (record.deals[0].hands[1] is four levels): deeper data is no
# record, and is refused before its copy recurses further.
_MAX_DEPTH = 8


def to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` so far: every action since the first deal."""
    # Read from one copy, made in one call: another thread stepping the game between the
    # reads below tore the record (deals of one moment, actions of another).
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, not {type(game).__name__}")
    game = game.copy()
    origin = game.origin
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "start": origin["start"],
    }
    if origin["start"] == "position":
        last = origin["last"]
        record["position"] = {
            "hands": [str(hand) for hand in origin["hands"]],
            "landlord": origin["landlord"],
            "to_move": origin["to_move"],
            "last": None if last is None else _play_text(game, last),
            "last_by": origin["last_by"],
            "wild": _wild_text(origin["wild"]),
        }
        if game.rules.partner:
            record["position"]["partner"] = origin["partner"]
    else:
        record["first_bidder"] = origin["first_bidder"]
        record["landlord"] = origin["landlord"]
        record["deals"] = [_deal_dict(deal, game.rules) for deal in game.deals]
    record["actions"] = [_action_text(game, action) for _, action in game.history]
    return record


def from_record(record: dict[str, Any]) -> Game:
    """Replays a record made by :func:`to_record` (or by hand), checking every field and action."""
    if not isinstance(record, dict):  # JSON's object; another mapping's items are its own code's
        raise TypeError(f"a record is a dict, not {type(record).__name__}")
    data = _plain(record, "record")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a doudizhu record: 'format' must be {FORMAT!r}")
    if type(data.get("version")) is not int or data["version"] != VERSION:  # 2.0 and True are no version
        raise RecordError(f"unsupported record version {shown(data.get('version'))}: "
                          f"this engine reads version {VERSION}")
    start = data.get("start")
    if start not in _STARTS:
        raise RecordError(f"'start' must be one of {', '.join(map(repr, _STARTS))}, not {shown(start)}")
    _check_keys(data, _FIELDS[start], _FIELDS[start], "the record")
    rules = _rules(data["rules"])
    if data["seed"] is None:  # checked_seed would draw one: a record names the seed it was dealt from
        raise RecordError("'seed' must be an int in 0..2**64-1, not None")
    seed = _field(lambda: checked_seed(data["seed"], none_draws=False), "seed")
    actions = _list(data["actions"], "actions")
    if start == "position":
        game = _position_game(data["position"], rules, seed)
        deals: list[Any] = []
    else:
        deals = _list(data["deals"], "deals")
        if not deals:
            raise RecordError("'deals' is empty: a record holds at least its first deal")
        game = _first_deal_game(data, deals[0], rules, seed, start)
    _replay(game, actions, deals, given=start == "deal")
    return game


# --- writing -----------------------------------------------------------------------------


def _wild_text(wild: int | tuple[int, int] | None) -> str | list[str] | None:
    """A deal's wild ranks as text: None, one rank ("5"), or the pair under laizi2 (["5", "9"])."""
    if wild is None:
        return None
    if isinstance(wild, tuple):
        return [rank_name(rank) for rank in wild]
    return rank_name(wild)


def _deal_dict(deal: tuple[tuple[Cards, ...], Cards, int | tuple[int, int] | None], rules: Rules) -> dict[str, Any]:
    hands, kitty, wild = deal
    out: dict[str, Any] = {"hands": [str(hand) for hand in hands], "kitty": str(kitty)}
    if rules.wild:
        out["wild"] = _wild_text(wild)
    return out


def _play_text(game: Game, move: Any) -> str:
    return Action.play(move).text(game.rules)


def _action_text(game: Game, action: Action) -> str:
    return action.text(game.rules)


# --- reading -----------------------------------------------------------------------------


def _plain(value: Any, where: str, depth: int = 0) -> Any:
    """A copy of JSON-like data in exact built-in types (a str subclass becomes a str, a tuple
    a list), so that no method of the record's own objects runs while it is replayed."""
    if depth > _MAX_DEPTH:
        raise RecordError(f"{where}: nested deeper than a record goes ({_MAX_DEPTH} levels)")
    if value is None or type(value) in (bool, int, float):
        return value
    if isinstance(value, enum.Enum):  # an IntEnum or a StrEnum is no int or text, as everywhere in the API
        raise RecordError(f"{where}: {type(value).__name__}.{value.name} is an enum member, no JSON value")
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__index__(value)
    if isinstance(value, Mapping):
        if not isinstance(value, dict):  # its items would be its own code's to say
            raise RecordError(f"{where}: {a_type(value)} is no JSON object (a dict is)")
        out = {}
        for key, item in list(dict.items(value)):
            if not isinstance(key, str):
                raise RecordError(f"{where}: keys must be text, not {type(key).__name__}")
            name = str.__str__(key)
            out[name] = _plain(item, f"{where}.{name}", depth + 1)
        return out
    if isinstance(value, (list, tuple)):  # read by the built-in types' own methods, not a subclass's
        items = list.copy(value) if isinstance(value, list) else list(tuple.__iter__(value))
        return [_plain(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(items)]
    raise RecordError(f"{where}: {type(value).__name__} is no JSON value")


def _field(read: Callable[[], _T], name: str) -> _T:
    """read() with its ValueError or TypeError as a RecordError naming the field."""
    try:
        return read()
    except (ValueError, TypeError) as error:
        raise RecordError(f"{name}: {error}") from error


def _check_keys(data: dict[str, Any], required: set[str], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise RecordError(f"{where} has unknown field(s) {', '.join(map(repr, unknown))}")
    missing = sorted(required - set(data))
    if missing:
        raise RecordError(f"{where} lacks the field(s) {', '.join(map(repr, missing))}")


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{name!r} must be a list, not {type(value).__name__}")
    return value


def _dict(value: Any, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{name!r} must be a dict, not {type(value).__name__}")
    return value


def _text(value: Any, name: str) -> str:
    """Card or rank text: a record writes cards as text only (a number would be read as a
    card mask or a rank index, another thing than its digits say)."""
    if not isinstance(value, str):
        raise RecordError(f"{name} must be card text, not {type(value).__name__}")
    return value


def _hands_text(value: Any, name: str) -> list[str]:
    return [_text(hand, f"{name}[{i}]") for i, hand in enumerate(_list(value, name))]


def _wild_ranks(value: Any, name: str) -> str | tuple[str, ...] | None:
    """A wild field as a record writes it: None, one rank's text, or two (laizi2)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list) and len(value) == 2:
        return tuple(_text(rank, f"{name}[{i}]") for i, rank in enumerate(value))
    raise RecordError(f"{name} must be None, a rank's text or a list of two (laizi2), not {shown(value)}")


def _rules(value: Any) -> Rules:
    fields = _dict(value, "rules")
    names = set(Rules().to_dict())
    _check_keys(fields, names - _LATER_RULES_FIELDS, names, "'rules'")
    return _field(lambda: Rules(**fields), "rules")


def _first_deal_game(data: dict[str, Any], first: Any, rules: Rules, seed: int, start: str) -> Game:
    first_bidder, landlord = data["first_bidder"], data["landlord"]
    if start == "seed":
        deal = _deal_fields(first, 0, rules)
        if landlord is not None:
            raise RecordError("'landlord' is given only with start 'deal': a seeded hand bids for it")
        game = _field(lambda: Game(seed=seed, rules=rules, first_bidder=first_bidder), "first_bidder")
        if _deal_read(deal, 0, rules) != game.deals[0]:
            raise RecordError(f"deals[0] is not the deal of seed {seed} (write start 'deal' for a given deal)")
        return game
    hands, kitty, wild = _given_deal(first, 0, rules)
    if landlord is not None and type(landlord) is not int:  # 0.0 equals a first bidder of 0
        raise RecordError(f"landlord must be a seat (an int) or None, not {shown(landlord)}")
    if landlord is not None:
        # A given landlord skips the bidding: such a game holds (and its record writes) seat
        # 0 as the first bidder, which no seat is; from_deal refuses both given. Where the
        # rules hold no auction, the first bidder is the landlord: a hand dealt with first
        # bidder k writes k for both.
        if rules.bidding == "none" and type(first_bidder) is int and first_bidder == landlord:
            landlord = None
        elif type(first_bidder) is not int or first_bidder != 0:
            raise RecordError(f"first_bidder must be 0 with a given landlord (nobody bids), not {shown(first_bidder)}")
        else:
            first_bidder = None
    return _field(
        lambda: Game.from_deal(hands, kitty, first_bidder=first_bidder, landlord=landlord, rules=rules, seed=seed,
                               wild=wild),
        "deals[0]",
    )


def _deal_fields(value: Any, index: int, rules: Rules) -> dict[str, Any]:
    deal = _dict(value, f"deals[{index}]")
    fields = {"hands", "kitty"} | ({"wild"} if rules.wild else set())  # no wild ranks, no field for them
    _check_keys(deal, fields, fields, f"'deals[{index}]'")
    return deal


def _given_deal(value: Any, index: int, rules: Rules) -> tuple[list[str], str, str | tuple[str, ...] | None]:
    """deals[index] of a hand from a given deal: its hands, kitty and wild ranks as text."""
    deal = _deal_fields(value, index, rules)
    if rules.wild and deal["wild"] is None:  # from_deal would take the seed's draw: a record names its wild ranks
        raise RecordError(f"deals[{index}]: 'wild' must name the deal's wild rank (under laizi2 the pair), not None")
    return (_hands_text(deal["hands"], f"deals[{index}].hands"), _text(deal["kitty"], f"deals[{index}].kitty"),
            _wild_ranks(deal.get("wild"), f"deals[{index}].wild"))


def _deal_read(value: Any, index: int, rules: Rules) -> tuple[tuple[Cards, ...], Cards, int | tuple[int, int] | None]:
    """deals[index] as cards, to hold against a deal the seed dealt: its text read as card
    text is read everywhere (any case, order or suits), not compared as written."""
    hands, kitty, wild = _given_deal(value, index, rules)
    return _field(lambda: Game.from_deal(hands, kitty, rules=rules, seed=0, wild=wild).deals[0], f"deals[{index}]")


def _position_game(value: Any, rules: Rules, seed: int) -> Game:
    position = _dict(value, "position")
    # A record of rules with a partner was written after the field came: it must say the
    # partner (absent, the hand would replay as the landlord's alone, paid otherwise).
    required = _POSITION_FIELDS | (_LATER_POSITION_FIELDS if rules.partner else set())
    _check_keys(position, required, _POSITION_FIELDS | _LATER_POSITION_FIELDS, "'position'")
    if seed != 0:
        raise RecordError("'seed' of a hand from a position is 0: it deals nothing")
    hands = _hands_text(position["hands"], "position.hands")
    last = None if position["last"] is None else _text(position["last"], "position.last")
    wild = _wild_ranks(position["wild"], "position.wild")
    return _field(
        lambda: Game.from_position(
            hands, position["landlord"], position["to_move"], last=last, last_by=position["last_by"], rules=rules,
            wild=wild, partner=position.get("partner"),
        ),
        "position",
    )


def _replay(game: Game, actions: list[Any], deals: list[Any], given: bool) -> None:
    """Plays the record's actions. Redeals from a given deal are given too (a world's,
    sample_worlds', are no draws of its seed); a seeded hand's follow from the seed."""
    next_given = 1  # the deal to give next, once each deal's auction starts
    for index, text in enumerate(actions):
        if given and next_given < len(deals) and game.redeals + 1 == next_given and game.phase == "bidding":
            hands, kitty, wild = _given_deal(deals[next_given], next_given, game.rules)
            _field(functools.partial(game._give_next_redeal, hands, kitty, wild), f"deals[{next_given}]")
            next_given += 1
        if not isinstance(text, str):
            raise RecordError(f"actions[{index}] must be action text, not {type(text).__name__}")
        try:
            game.step(text)
        except (ValueError, TypeError) as error:
            kind = "illegal" if isinstance(error, IllegalActionError) else "unreadable"
            raise RecordError(f"actions[{index}] ({shown(text)}) is {kind}: {error}") from error
    if deals:
        _check_deals(game, deals, given)


def _check_deals(game: Game, deals: list[Any], given: bool) -> None:
    """The record's redeals against the game's, once the actions are replayed: as many, and
    each the seed's next deal unless given. ``game.deals`` lists them all, so a check after
    each action took time growing with the square of the redeals (seconds for a long auction)."""
    dealt = game.deals
    if len(dealt) > len(deals):
        raise RecordError(f"the actions lead to deal {len(deals)}, which 'deals' lacks")
    if len(dealt) < len(deals):
        raise RecordError(f"'deals' holds {len(deals)} deals, but the actions lead to {len(dealt)}")
    if given:
        return  # replay dealt each as the record lists it
    for index in range(1, len(dealt)):  # the first is the one the record starts from
        if _deal_read(deals[index], index, game.rules) != dealt[index]:
            raise RecordError(f"deals[{index}] is not the redeal that follows from the seed")
