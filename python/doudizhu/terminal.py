"""The terminal game (``doudizhu play``): one person at seat 0 against bots, or bots alone.

The screen before each of the person's turns shows every seat's role and card count, the
cards played so far, the move to beat and who made it, the kitty once shown, the bombs
and the stake; commands are listed by ``help``. A hand ends with its settlement and an
offer to play again. End of input (Ctrl-D), ``quit`` and ``exit`` leave with status 0;
Ctrl-C leaves with 130, as shells expect of an interrupt.
"""

from __future__ import annotations

import contextlib
import difflib
import itertools
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from ._core import (
    ACTION_WORDS,
    Action,
    ActionType,
    Cards,
    Game,
    MoveKind,
    Rules,
    checked_seed,
    choose_action,
    game_seed,
    half_width,
    rank_name,
)
from ._person import HUMAN, undo_turn
from ._readings import plays_spending
from .bots import Bot
from .lockstep import choose
from .render import bombs_text, kind_label, plural, role, scoring_text, settled, stake_text, wild_names

MOVES_SHOWN = 40  # plays of a kind that `moves` lists
INTERRUPTED = 128 + 2  # the exit status after Ctrl-C (SIGINT), as shells expect
_JOKERS = ", B (black joker), R (red joker)"
LEGEND = f"cards: 3-9, T (ten, '10' and X work too), J Q K A 2{_JOKERS}; suits are ignored"
# How much of a word that is no command the reply quotes.
_QUOTED = 20
HELP = """\
commands:
  cards       play them: 334455, '3 3 4 4 5 5', 10JQKA; with wild cards
              spent=combination (557=577: 5s wild, one for a 7)
  pass        pass (also 'p')
  bid N       bid 0-3 in the auction (a digit alone works); call / decline;
              rob / no rob
  alone       as the landlord (four_partner): play alone; partner N (or N
              alone) names seat N
  moves       the legal plays, grouped by kind; moves KIND lists all of a
              kind (moves bomb)
  hint        the built-in heuristic's choice
  undo        take back your last action (and the bots' replies to it)
  help        this list
  quit, exit  leave the game"""
# The words a command may start with: a line starting with another word that is not cards
# is a mistyped command, answered with the nearest of these.
_BARE_COMMANDS = ("quit", "exit", "help", "?", "hint", "undo")  # commands that take no argument
COMMANDS = (*ACTION_WORDS, "moves", "hint", "undo", "help", "quit", "exit")


class Quit(Exception):
    """The person asked to leave."""


@dataclass
class Options:
    rules: str
    policy: str | Bot  # a built-in policy's name, or a bot (doudizhu play --policy CHECKPOINT)
    auto: bool


def _bot_action(game: Game, policy: str | Bot, seed: int) -> Action:
    # A bot of the player's own sees what its seat may know (lockstep.choose), as in self-play.
    return choose_action(game, policy, seed) if isinstance(policy, str) else choose(policy, game, seed)


def _name(seat: int, options: Options) -> str:
    return "you" if seat == HUMAN and not options.auto else f"seat {seat}"


def _who(game: Game, seat: int, options: Options) -> str:
    return f"{_name(seat, options)} ({role(game, seat)})"


def by_rank(cards: Cards) -> str:
    """Cards a rank a group, the groups apart, so that a long hand can be counted at a
    glance ("33 444 5 TT B R"); the text still reads back as the same cards."""
    return " ".join("".join(group) for _, group in itertools.groupby(str(cards)))


def _played_by_rank(game: Game) -> str:
    played = Cards()
    for cards in game.seat_view(HUMAN)["played"]:
        played = played + cards
    return by_rank(played) or "nothing yet"


def _wild_example(game: Game) -> str:
    """A pair and a wild card played as a trio, in this hand's wild rank: '33T=333'."""
    wild = rank_name(game.wild_ranks[0])
    pair = next(rank for rank in "345" if rank not in (rank_name(r) for r in game.wild_ranks))
    return f"{pair}{pair}{wild}={pair * 3}"


def screen(game: Game, options: Options) -> str:
    """What the person at seat 0 sees before choosing."""
    view = game.seat_view(HUMAN)
    lines = [
        f"--- {game.phase}, your turn --- {stake_text(game)} ({bombs_text(view['bombs'], view['rockets'])} so far)",
    ]
    names = [_who(game, seat, options) for seat in range(game.seats)]
    width = max(20, *map(len, names))  # 'seat 1 (peasant or partner)' in four_partner's partner phase
    lines += [f"  {name:<{width}} {plural(size, 'card'):>8}" for name, size in zip(names, view["hand_sizes"])]
    lines.append(f"your hand: {by_rank(view['hand'])}")
    if game.wild_ranks:
        lines.append(f"wild: {wild_names(game)} (play them as spent=combination, e.g. {_wild_example(game)})")
    landlord = view["landlord"]
    if view["kitty"] is not None and game.rules.kitty_size:
        taken = f" (taken by {_name(landlord, options)})" if landlord is not None else ""
        lines.append(f"kitty{taken}: {by_rank(view['kitty'])}")
    lines.append(f"played so far: {_played_by_rank(game)}")
    last, by = view["last"], view["last_by"]
    if last is not None and by is not None:
        lines.append(f"to beat: {Action.play(last).text(game.rules)} ({kind_label(last.kind)}) by {_name(by, options)}")
    elif game.phase == "playing" and game.lead_rank is not None:
        lines.append(f"you lead: the first lead must contain a {rank_name(game.lead_rank)}")
    elif game.phase == "playing":
        lines.append("you lead: play any combination")
    return "\n".join(lines)


def _wrapped(kind: str, items: list[str], width: int | None) -> str:
    """A kind's line: its name, then ``items`` two spaces apart, broken between items to
    ``width`` columns (None: the terminal's), the continuations under the first item."""
    columns = max(width if width is not None else shutil.get_terminal_size().columns, 40)
    lines = [f"  {kind + ':':<16}"]
    for item in items:
        if len(lines[-1]) > 19 and len(lines[-1]) + 2 + len(item) > columns:
            lines.append(" " * 19 + item)
        else:
            lines[-1] += ("  " if len(lines[-1]) > 19 else " ") + item
    return "\n".join(lines)


def grouped_moves(game: Game, kind: str | MoveKind | None = None, width: int | None = None) -> str:
    """The legal actions, plays grouped by kind (a lead has about 60), at most
    MOVES_SHOWN of a kind (wild cards make tens of thousands); with ``kind``, every one of
    that kind (as the screen writes it, "airplane solos", or as the enum, "AIRPLANE_SOLOS");
    each kind's line wrapped to ``width`` (None: the terminal's)."""
    groups: dict[str, list[str]] = {}
    for action in game.legal_actions():
        if action.move is not None:
            name = kind_label(action.move.kind)
        else:
            name = {ActionType.PASS: "pass", ActionType.PARTNER: "partner"}.get(action.type, "auction")
        groups.setdefault(name, []).append(action.text(game.rules))  # a reading named where cards have several
    if kind is not None:
        if not isinstance(kind, (str, MoveKind)):
            raise TypeError(f"kind must be a MoveKind, its text or None, not {type(kind).__name__}")
        given = kind_label(kind) if isinstance(kind, MoveKind) else kind
        wanted = " ".join(given.lower().replace("_", " ").split())
        if wanted not in groups:
            return f"no {_quoted(given)} moves here; the kinds here: {', '.join(groups)}"
        return _wrapped(wanted, groups[wanted], width)
    return "\n".join(_wrapped(name, items[:MOVES_SHOWN] + ([f"(and {len(items) - MOVES_SHOWN} more: moves {name})"]
                                                          if len(items) > MOVES_SHOWN else []), width)
                     for name, items in groups.items())


def _prompt(game: Game) -> str:
    if game.phase == "bidding":
        if game.rules.bidding == "classic":
            return "bid 0-3> "
        words = {str(a) for a in game.legal_actions()}
        return "call / decline> " if "call" in words else "rob / no rob> "
    if game.phase == "partner":
        seats = ", ".join(str(a.value - 1) for a in game.legal_actions() if a.value)
        return f"alone, or partner N (N in {seats})> "
    return "your play (help for commands)> "


def ask(game: Game, read: Callable[[str], str], out: TextIO, options: Options) -> Action | None:
    """The person's action, asked until legal; None after an undo (the screen changed)."""
    print(screen(game, options), file=out)
    while True:
        # Full width as the engine reads it: the commands' words too, typed in full-width mode
        line = read(_prompt(game))
        try:
            text = half_width(line).strip()
        except ValueError:  # a byte the input's encoding could not read, left as a lone surrogate
            print("that line is no text this terminal can read: type it again", file=out)
            continue
        word = text.lower()
        if not text:
            continue
        if word.split()[0] in _BARE_COMMANDS and len(word.split()) > 1:
            print(f"{word.split()[0]!r} takes nothing after it: type it alone", file=out)
            continue
        if word in ("quit", "exit"):
            raise Quit
        if word in ("help", "?"):
            print(f"{HELP}\n{legend(game.rules)}", file=out)
        elif word.split()[0] == "moves":
            print(grouped_moves(game, " ".join(word.split()[1:]) or None), file=out)
        elif word == "hint":
            print(f"hint: {choose_action(game, 'heuristic', 0).text(game.rules)}", file=out)
        elif word == "undo":
            if undo_turn(game) is not None:
                print("undone", file=out)
                return None
            print("nothing to undo yet", file=out)
        elif _mistyped(word):
            print(_not_a_command(text), file=out)
        else:
            action = _step(game, "pass" if word == "p" else text, out)
            if action is not None:
                return action


def _mistyped(word: str) -> bool:
    """Whether a line starts with a word that is neither a command nor cards ('bidd')."""
    first = word.split()[0]
    if not first.isalpha() or first in COMMANDS or first == "p":
        return False
    try:
        Cards(first)
    except ValueError:
        return True
    return False


def legend(rules: Rules) -> str:
    """The card legend for the deck of ``rules``: no jokers in Run Fast's 48 cards."""
    return LEGEND.replace(_JOKERS, "") if rules.deck_48 else LEGEND


def _not_a_command(text: str) -> str:
    first = text.split()[0]
    nearest = difflib.get_close_matches(first.lower(), COMMANDS, n=1)
    suggestion = f"; did you mean {nearest[0]!r}?" if nearest else ""
    return f"{_quoted(first)} is not a command or cards{suggestion} (help lists the commands)"


def _quoted(text: str) -> str:
    """``text`` as a refusal quotes it: its repr, cut past _QUOTED characters (a line may be
    100,000 of them), with its length."""
    return repr(text) if len(text) <= _QUOTED else f"{text[:_QUOTED]!r}... ({len(text)} characters)"


# How many readings of one set of cards a refusal lists (two wild ranks may give dozens).
_READINGS_SHOWN = 30


def _step(game: Game, text: str, out: TextIO) -> Action | None:
    if game.phase == "bidding" and text.isdigit():
        if len(text) > 1:  # cards, as a 2 or 3 would be, typed before the auction is over
            print(f"not allowed: the auction is on: bid 0-3 (or the digit alone), not {_quoted(text)}", file=out)
            return None
        text = f"bid {text}"
    if game.phase == "bidding" and game.rules.bidding == "classic" and text.lower() == "pass":
        text = "bid 0"  # the classic auction's pass"
    if game.phase == "partner" and text.isdigit() and len(text) == 1:
        text = f"partner {text}"  # the seat alone, as a bid's digit
    try:
        game.step(text)
    except ValueError as error:  # IllegalActionError, or text that is no cards
        readings = plays_spending(game, text) if game.phase == "playing" else []
        if readings:  # several readings of the cards, or a wild card's: which was not said
            options = ", ".join(a.text(game.rules) for a in readings[:_READINGS_SHOWN])
            more = f" and {len(readings) - _READINGS_SHOWN} more" if len(readings) > _READINGS_SHOWN else ""
            print(f"say which play: {_quoted(text)} can be {options}{more} (type one)", file=out)
        else:
            print(f"not allowed: {error}", file=out)
        return None
    return game.history[-1][1]


def settlement(game: Game, options: Options) -> str:
    result = game.result
    assert result is not None
    if result.winner is not None:  # each for itself (run_fast): the first out is paid by the cards left
        payouts = ", ".join(f"{_name(seat, options)} {payout:+d}" for seat, payout in enumerate(result.payouts))
        return f"{_name(result.winner, options)} went out first\npayouts: {payouts}\n({scoring_text(game.rules)})"
    if game.landlord is None:
        return "nobody bid: the hand is void"
    payouts = ", ".join(f"{_name(seat, options)} {payout:+d}" for seat, payout in enumerate(result.payouts))
    return f"{settled(game, lambda seat: _name(seat, options))}\npayouts: {payouts}"


def hands_left(game: Game, options: Options) -> str:
    """Every seat's cards at the end of the hand, face up."""
    return "\n".join(f"  {_who(game, seat, options):<20} {game.hand(seat) or '(no cards left)'}"
                     for seat in range(game.seats))


def _report(game: Game, who: str, action: Action, before: tuple[str, int], options: Options, out: TextIO) -> None:
    """An action as it was made, and what it led to: a landlord, or a redeal."""
    print(f"{who:>22}: {action.text(game.rules)}", file=out)
    phase, redeals = before
    if game.redeals > redeals:
        print(f"everyone passed: the hand is redealt (redeal {game.redeals})", file=out)
        if options.auto:  # a person sees the new hand in the status before their turn: not twice
            _print_deal(game, options, out)
    elif phase == "bidding" and game.phase in ("partner", "playing"):
        landlord = game.landlord
        assert landlord is not None
        verb, take = ("are", "take") if _name(landlord, options) == "you" else ("is", "takes")
        kitty = f" and {take} the kitty {game.kitty}" if game.rules.kitty_size else ""  # sanren deals none
        print(f"{_name(landlord, options)} {verb} the landlord for {game.bid_value}{kitty}", file=out)
    elif phase == "partner":
        chose = "alone" if game.partner is None else f"with {_name(game.partner, options)} as partner"
        print(f"the landlord plays {chose}", file=out)


def _print_deal(game: Game, options: Options, out: TextIO) -> None:
    """The hands just dealt: every seat's with bots alone, else the person's."""
    if options.auto:
        for dealt in range(game.seats):
            print(f"  seat {dealt}: {game.hand(dealt)}", file=out)
    else:
        print(f"your hand: {by_rank(game.hand(HUMAN))}", file=out)


def play_hand(seed: int, options: Options, read: Callable[[str], str], out: TextIO) -> None:
    """One hand, from the deal to its settlement."""
    rules = Rules.preset(options.rules)
    game = Game(seed=seed, rules=rules)
    print(f"Dou Dizhu, rules {options.rules}", file=out)  # the seed at the end: it tells every card
    print(legend(rules), file=out)
    if game.wild_ranks:
        print(f"{wild_names(game)} are wild", file=out)
    if options.auto:
        _print_deal(game, options, out)
    while game.phase != "over":
        seat = game.to_move
        assert seat is not None
        before = game.phase, game.redeals
        who = _who(game, seat, options)  # the role before the action: a bid may make a landlord
        if seat == HUMAN and not options.auto:
            action = ask(game, read, out, options)
            if action is None:
                continue
        else:
            action = _bot_action(game, options.policy, game_seed(seed, len(game.history)))
            game.step(action)
        _report(game, who, action, before, options, out)
    print(f"the hands at the end:\n{hands_left(game, options)}", file=out)
    print(f"seed {seed} (--rules {options.rules} --seed {seed} replays this deal)", file=out)  # any preset's
    print(settlement(game, options), file=out)  # last: what the hand comes to


def _again(read: Callable[[str], str], out: TextIO) -> bool:
    """Whether the person wants another hand: y or yes; n, no or nothing ends. Anything
    else is asked again, saying so (the hand is over: undo and the game's commands are gone)."""
    while True:
        answer = read("play again? [y/N]> ").strip().lower()
        if answer in ("y", "yes", "n", "no", ""):
            return answer in ("y", "yes")
        print(f"the hand is over: answer y for another, n (or just Enter) to stop, not {answer[:40]!r}", file=out)


def enable_line_editing() -> None:
    """Line editing and history (arrows, Ctrl-R) for input() when a person types at a
    terminal: importing readline is what turns them on. Not everywhere has readline."""
    if sys.stdin is not None and sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # Windows has no readline
            import readline  # noqa: F401


def run(seed: int | None, options: Options, read: Callable[[str], str], out: TextIO) -> int:
    """Hands until the person stops; the exit status (0, or 130 after Ctrl-C)."""
    try:
        # None: the core draws 64 random bits, too many to find the deal from the player's
        # own hand by trying every seed (32 bits took a few core-hours).
        play_hand(checked_seed(seed), options, read, out)
        while not options.auto and _again(read, out):
            play_hand(checked_seed(None), options, read, out)  # another hand is a fresh deal
        return 0
    except (EOFError, Quit):
        print("\nbye", file=out)
        return 0
    except KeyboardInterrupt as interrupt:
        print(file=out)
        if type(interrupt) is not KeyboardInterrupt:  # SIGTERM's (the command line's): its own status
            raise
        return INTERRUPTED


__all__ = ["COMMANDS", "HELP", "INTERRUPTED", "LEGEND", "Options", "enable_line_editing", "grouped_moves", "hands_left",
           "legend", "play_hand", "plural", "run", "screen", "settlement"]
