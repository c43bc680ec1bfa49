"""The ``doudizhu`` command line: ``play``, ``selfplay``, ``evaluate``, ``moves``, ``serve`` and ``train``."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import io
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TextIO

import numpy as np

from . import __version__, terminal
from ._checkpoint_files import RECIPE_STATE, checkpoint_file, is_torch_archive
from ._core import NETWORK_MAGIC, POLICIES, Action, Cards, Rules, TooLargeError, half_width, legal_moves, rank_name
from ._extras import MissingExtra
from ._host_names import answered_name
from ._progress import end_line, progress_bar, rate, status_line
from ._whole_file import check_writable
from .bots import NETWORK_FILE, Bot, Neural, is_network_file
from .encode import douzero_layout
from .evaluation import evaluate, print_progress
from .render import kind_label, plural
from .selfplay_result import MAX_GAMES, SelfPlayResult, selfplay

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

# TrainConfig's defaults, for the help of a command line that imports PyTorch only to train
# (tests/test_train.py holds them to TrainConfig's).
DMC_EVAL_DEALS = 200  # deals of each of the DMC trainer's periodic evaluations, by default
DMC_EVAL_MINUTES = 5.0  # training minutes between the DMC trainer's evaluations, by default
# The status of a command whose reader left early (`doudizhu ... | head`): a process that
# SIGPIPE ends has it, and shells treat it as such (128 + SIGPIPE's number, 13).
READER_GONE = 128 + 13
# The status of a command ended by SIGTERM (a job scheduler's or a container's stop), as a
# process SIGTERM kills has it; a training run saves its checkpoint first, a file being
# written is left as it was (no `.partial` behind).
TERMINATED = 128 + 15
DEFAULT_MINUTES = 5.0  # train's --minutes for a fresh run (TrainConfig's too)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised as an interrupt so that a command cleans up as it does for Ctrl-C (a
    training run saves what it has, a file being written is not left half-written)."""


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Within it, SIGTERM raises :class:`Terminated` (in the main thread, where signals
    are handled; elsewhere nothing changes)."""
    def raise_terminated(signum: int, frame: object) -> None:
        raise Terminated

    # Only over the default: an ignored SIGTERM stays ignored (as Python leaves an ignored
    # SIGINT), and a handler of the program's own (or one set outside Python) stays its.
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    before = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


# ---------------------------------------------------------------------------- moves
def _moves(args: argparse.Namespace, out: TextIO) -> int:
    rules = Rules.preset(args.rules)
    wild: tuple[str, ...] = tuple(args.wild or ())
    moves = legal_moves(args.hand, args.last, rules, wild or None)  # its errors name the hand
    header = f"{plural(len(moves), 'move')} for {Cards(args.hand) or 'no cards'}"
    header += f" with {'s and '.join(rank_name(rank) for rank in wild)}s wild" if wild else ""
    print(header + (f" over {args.last}:" if args.last else " leading:"), file=out)
    # As an action is written: cards that read several ways name the reading played
    texts = [Action.play(move).text(rules) for move in moves]
    width = max([20, *map(len, texts)])
    for move, text in zip(moves, texts):
        print(f"  {text:<{width}} {kind_label(move.kind)}", file=out)
    if args.last:  # under must_beat a pass is legal only when nothing beats the play
        print("  (no pass: must_beat, and a move beats it)" if rules.must_beat and moves else "  (or pass)", file=out)
    return 0


# ----------------------------------------------------------------------------- play
def _play(args: argparse.Namespace, out: TextIO, read: Callable[[str], str]) -> int:
    policy = _policy(args.policy)
    network = Neural() if policy == "neural" else policy
    if hasattr(network, "check"):  # a network or checkpoint refused before the hand, not at the bots' turn
        network.check(Rules.preset(args.rules))
    if read is input:
        terminal.enable_line_editing()
        if sys.stdin is None or sys.stdout is None:  # started with either closed: no one to play with
            read = _end_of_input
    return terminal.run(args.seed, terminal.Options(args.rules, policy, args.auto), read, out)


def _end_of_input(prompt: str) -> str:
    raise EOFError


def _policy(name: str, what: str = "--policy") -> str | Bot:
    """A built-in policy's name as it is, a network file (or a recipe run's folder) as the C++
    neural policy, a trainer's checkpoint (file or run folder) as a TorchBot; errors name
    the argument, ``what``."""
    if name in POLICIES:
        return name
    if not os.path.exists(name):
        raise ValueError(f"{what}: {name!r} is neither a policy ({', '.join(POLICIES)}) "
                         "nor a network or checkpoint file")
    if os.path.isdir(name) and is_network_file(os.path.join(name, NETWORK_FILE)):
        name = os.path.join(name, NETWORK_FILE)
    elif os.path.isdir(name) and os.path.exists(os.path.join(name, RECIPE_STATE)):
        raise ValueError(f"{what}: {name} is a recipe run that has not written its {NETWORK_FILE} yet")
    if is_network_file(name):
        return Neural(name)
    try:  # told before the checkpoint's reader asks for PyTorch, which could never read it
        checkpoint = checkpoint_file(name)
    except ValueError as error:
        raise ValueError(f"{what}: {error}") from None
    if not os.path.isfile(checkpoint):  # a device or a FIFO: read without end, or waited on
        raise ValueError(f"{what}: {name} is no regular file, so neither a network nor a checkpoint")
    if not is_torch_archive(checkpoint):
        raise ValueError(f"{what}: {name} is neither a network file (it does not begin with "
                         f"{NETWORK_MAGIC.decode()}) nor a doudizhu.train checkpoint (a zip archive torch.save wrote)")
    from .neural import TorchBot

    return TorchBot(name)


# ------------------------------------------------------------------------- selfplay
def _selfplay(args: argparse.Namespace, out: TextIO) -> int:
    rules = Rules.preset(args.rules)
    if args.out is not None:
        _check_out(args.out)
    chunks = max(1, min(20, args.games // 1000))
    bounds = [args.games * i // chunks for i in range(chunks + 1)]
    parts: list[SelfPlayResult] = []
    started = time.perf_counter()
    progress_bar(0, args.games, "games", started)  # begun: a part may take minutes
    for first, end in zip(bounds, bounds[1:]):
        try:
            parts.append(
                selfplay(end - first, policy=args.policy, seed=args.seed, threads=args.threads, rules=rules,
                         record=args.out is not None, first=first)
            )
        except TooLargeError:  # it names the part's count: say the one given
            raise TooLargeError(f"--games: {args.games} games are more than memory can hold (a part of "
                                f"{end - first} already is)") from None
        progress_bar(end, args.games, "games", started)
    elapsed = time.perf_counter() - started
    result = SelfPlayResult.concatenate(parts)
    print(f"{plural(len(result), 'game')} in {elapsed:.2f} s: {rate(len(result), elapsed, 'games')}", file=out)
    print(_selfplay_summary(result, rules), file=out)
    if args.out is not None:
        result.save(args.out)
        print(f"saved to {args.out}", file=out)
    return 0


def _check_out(path: str) -> None:
    """Refuses an --out the games could not be saved to, before they are played."""
    folder = os.path.dirname(path) or "."
    if not path or os.path.isdir(path):
        raise ValueError(f"--out: {path!r} is not a file name")
    if not os.path.isdir(folder):
        raise ValueError(f"--out: no folder {folder!r} to save {os.path.basename(path)!r} in")
    try:
        check_writable(path)
    except OSError as error:
        raise ValueError(f"--out: {error.strerror}") from error


def _selfplay_summary(result: SelfPlayResult, rules: Rules) -> str:
    """Who won: the landlord's rate and the void hands, or without a landlord each seat's share of
    first places (such rules have no auction, so no hand is void)."""
    if rules.each_for_self:
        firsts = np.bincount(result.winner, minlength=rules.players) / max(1, len(result))
        return "first out: " + ", ".join(f"seat {seat} {share:.3f}" for seat, share in enumerate(firsts))
    played = result.landlord >= 0
    return (f"landlord win rate {result.landlord_win_rate:.3f}; mean multiplier "
            f"{result.multiplier[played].mean() if played.any() else float('nan'):.2f}; "
            f"void hands {int((~played).sum())}")


def _evaluate(args: argparse.Namespace, out: TextIO) -> int:
    rules = Rules.preset(args.rules)
    result = evaluate(_policy(args.a, "a"), _policy(args.b, "b"), deals=args.deals, rules=rules, seed=args.seed,
                      threads=args.threads, progress=print_progress)
    print(f"{args.a} against {args.b}, rules {args.rules}, seed {args.seed}\n", file=out)
    print(result.table(args.a, args.b), file=out)
    return 0


# ---------------------------------------------------------------------------- serve
def _serve(args: argparse.Namespace) -> int:
    from . import web  # the [web] extra: imported only here, so `import doudizhu` needs NumPy alone

    try:
        web.serve(args.host, args.port, args.allowed_host)
    except OSError as error:  # the port in use, or an address this machine does not have
        address = f"[{args.host}]" if ":" in args.host else args.host  # as a URL writes an IPv6 address
        print(f"doudizhu: cannot serve on {address}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return 1
    return 0


def _add_serve(commands: argparse._SubParsersAction[_Parser],
               defaults: type[argparse.HelpFormatter]) -> None:
    serve = commands.add_parser(
        "serve", formatter_class=defaults, help="play, watch and replay hands in the browser (the [web] extra)",
        description="Serve the web table: play a hand against bots, watch the bots play one, and step through "
                    "records and saved selfplay games, in the browser (needs the [web] extra).",
    )
    serve.add_argument("--host", type=_host, default="127.0.0.1",
                       help="address to listen on; 127.0.0.1 is this machine alone")
    serve.add_argument("--port", type=_port, default=8000, help="port to listen on (0: any free one)")
    serve.add_argument("--allowed-host", type=_allowed_host, action="append", default=[], metavar="NAME",
                       help="a name the server answers to besides the one it is bound to (and localhost's for a "
                            "loopback address), e.g. the public name a proxy forwards; repeatable")
    serve.set_defaults(run="serve")


# ---------------------------------------------------------------------------- train
def _train_recipe(args: argparse.Namespace, out: TextIO) -> int:
    """The shipped network's recipe (train/recipe.py)."""
    dmc_only = [f"--{name.replace('_', '-')}" for name in ("model", "objective", "tables", "batch_size", "eval_minutes",
                                                          "ray_address")
                if getattr(args, name) is not None]
    if dmc_only:  # the recipe would train without them: refused, as dmc refuses --rules
        raise ValueError(f"{', '.join(dmc_only)}: dmc's options; the neural recipe has its own settings")
    from .train.recipe import STATE, Recipe, run, saved_recipe
    from .train.run_folder import holds_run

    # The run's settings: those given, the rest a resumed run's own (one stopped before it
    # saved them starts afresh) or the defaults.
    base = saved_recipe(args.out) if args.resume and holds_run(args.out, (STATE,)) else Recipe()
    seed = {} if args.seed is None else {"seed": args.seed}
    minutes = _minutes_of_run(args, base.play.minutes)
    # The play stage's learner takes a thread of its own beside the teacher's games.
    play = dataclasses.replace(base.play, minutes=minutes, threads=max(1, args.threads - 1),
                               **({"rules": args.rules} if args.rules else {}), **seed)
    bid = dataclasses.replace(base.bid, threads=args.threads, **({"rules": args.bid_rules} if args.bid_rules else {}),
                              **seed)
    recipe = dataclasses.replace(base, play=play, bid=bid,
                                 eval_deals=base.eval_deals if args.eval_deals is None else args.eval_deals,
                                 eval_presets=tuple(dict.fromkeys((play.rules, bid.rules))))
    path = run(recipe, args.out, resume=args.resume, report=lambda line: print(line, file=out, flush=True))
    print(f"network file: {path}", file=out)
    return 0


def _minutes_of_run(args: argparse.Namespace, saved: float | None) -> float:
    """--minutes as given; left out, a resumed run's own (a resumed recipe took the fresh
    default of 5, ended a longer play stage there and sealed the run), else the default
    (also for a Python run saved without a time limit: the command line sets no frames)."""
    if args.minutes is not None:
        minutes: float = args.minutes
        return minutes
    return saved if args.resume and saved is not None else DEFAULT_MINUTES


def _train(args: argparse.Namespace, out: TextIO) -> int:
    return _train_recipe(args, out) if args.recipe == "neural" else _train_dmc(args, out)


def _train_dmc(args: argparse.Namespace, out: TextIO) -> int:
    if args.rules or args.bid_rules:
        raise ValueError("--rules and --bid-rules are the neural recipe's: 'dmc' trains the douzero preset's card play")
    from .train import RUN_FILES, Counters, TrainConfig, saved_config, train
    from .train.log import EVAL_OPPONENTS
    from .train.run_folder import holds_run

    def progress(counters: Counters, rate: float, wp: float | None) -> None:
        loss = sum(counters.losses.values()) / max(len(counters.losses), 1)
        latest = "-" if wp is None else f"{wp:.3f}"
        status_line(f"{counters.seconds / 60:5.1f} min  {counters.frames:,} frames  {rate:,.0f} frames/s  "
                    f"loss {loss:.4f}  WP vs {EVAL_OPPONENTS[0]} {latest}")

    # The run's settings: those given, the rest a resumed run's own (one stopped before its
    # first checkpoint starts afresh) or the defaults.
    given = {name: value for name, value in (("model", args.model), ("objective", args.objective), ("seed", args.seed),
                                             ("tables", args.tables), ("batch_size", args.batch_size))
             if value is not None}
    base = saved_config(args.out) if args.resume and holds_run(args.out, RUN_FILES) else TrainConfig()
    # frames: a per-call limit the command line does not set (a resumed Python run's stays there)
    config = dataclasses.replace(base, **given, minutes=_minutes_of_run(args, base.minutes), frames=None,
                                 threads=args.threads,
                                 eval_minutes=DMC_EVAL_MINUTES if args.eval_minutes is None else args.eval_minutes,
                                 eval_deals=DMC_EVAL_DEALS if args.eval_deals is None else args.eval_deals,
                                 ray_address=args.ray_address)
    result = train(config, out=args.out, resume=args.resume, progress=progress)
    status_line("")
    counters = result.counters
    if result.trained_seconds == 0:
        print(f"nothing to train: the run has {counters.seconds / 60:.1f} min, and --minutes ({config.minutes:g}) "
              "counts the whole run's", file=out)
    print(f"trained {counters.seconds / 60:.1f} min: {counters.frames:,} frames, {counters.hands:,} hands; "
          f"saved to {args.out}", file=out)
    for row in result.evaluations[-1:]:
        print("last evaluation: " + ", ".join(f"WP {row[f'wp_{o}']:.3f} / ADP {row[f'adp_{o}']:+.3f} against {o}"
                                              for o in EVAL_OPPONENTS), file=out)
    return 0


def _add_train(commands: argparse._SubParsersAction[_Parser], defaults: type[_ShowDefaults]) -> None:
    tr = commands.add_parser("train", formatter_class=defaults,
                             help="train a neural bot (needs the [train] extra): the shipped network's recipe, "
                                  "or DouZero's Deep Monte-Carlo",
                             description="Train a neural bot (the [train] extra): --recipe neural makes a network "
                                         "file as the shipped one was made; dmc is DouZero's Deep Monte-Carlo on "
                                         "the douzero preset, saved as a checkpoint in --out.")
    tr.add_argument("--recipe", default="dmc", choices=["dmc", "neural"],
                    help="'neural': the shipped network's recipe (teacher rollouts, then bid networks; "
                         "--minutes of play training); 'dmc': DouZero's Deep Monte-Carlo")
    tr.add_argument("--minutes", type=_minutes, default=None,
                    help=f"training time, evaluation excluded (a resumed run trains up to it): the whole run's "
                         f"with dmc; with --recipe neural the play stage's (its teacher rollouts and bid networks "
                         f"take their own time). Default: {DEFAULT_MINUTES:g}, a resumed run's own")
    encodable = [name for name in Rules.presets() if douzero_layout(Rules.preset(name)).douzero]
    tr.add_argument("--rules", choices=encodable,
                    help="the neural recipe's preset of card play (any DouZero's features encode: three seats, "
                         "one deck, no wild cards; default: douzero)")
    tr.add_argument("--bid-rules", choices=encodable,
                    help="the neural recipe's preset whose scoring the bid networks learn, its bidding each auction "
                         "(default: standard)")
    tr.add_argument("--out", required=True, type=_folder,
                    help="the run's folder: dmc's checkpoint.pt, log.csv and learning_curve.png; the neural "
                         "recipe's network file (neural.ddzn), its stages' files and curve.csv/curve.png")
    # The run's own settings: left out, a fresh run's default or a resumed run's own (given,
    # they must be the run's); None tells the two apart.
    tr.add_argument("--model", choices=["small", "douzero"], help="network layout (default: small)")
    tr.add_argument("--objective", choices=["adp", "wp"], help="the return learned (default: adp)")
    tr.add_argument("--seed", type=int, help="seed of the run (default: 0)")
    tr.add_argument("--threads", type=int, default=1,
                    help="threads: dmc's torch and environment threads; the neural recipe's bid stage's, and its "
                         "play stage's teacher games on all but one, the learner's")
    tr.add_argument("--tables", type=int, help="tables the actor plays at once (default: 256)")
    tr.add_argument("--batch-size", type=int, help="samples per learner step (default: 1024)")
    tr.add_argument("--eval-minutes", type=_minutes, default=None,
                    help=f"dmc's training minutes between evaluations (default: {DMC_EVAL_MINUTES:g})")
    tr.add_argument("--eval-deals", type=int, default=None,
                    help=f"deals per evaluation and opponent (default: {DMC_EVAL_DEALS} for dmc's periodic "
                         "evaluations; the neural recipe's own default for its final one)")
    tr.add_argument("--resume", action="store_true",
                    help="go on from the run in --out, with its settings (the options given must agree with them)")
    tr.add_argument("--ray-address", default=None,
                    help="actors on this Ray cluster (the [ray] extra): 'local' (start one here), 'auto', host:port or "
                         "ray://host:port")
    tr.set_defaults(run="train")


# --------------------------------------------------------------------------- parser
def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _games(text: str) -> int:
    """A count of games, 1..MAX_GAMES (no summary of no games): argparse's error for anything else."""
    value = _whole(text)
    if not 1 <= value <= MAX_GAMES:
        raise argparse.ArgumentTypeError(f"must be in 1..{MAX_GAMES}, not {value}")
    return value


def _port(text: str) -> int:
    """A TCP port, 0 (any free one) to 65535: argparse's error for anything else."""
    value = _whole(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535, not {value}")
    return value


def _host(text: str) -> str:
    """An address to listen on: argparse's error for an empty one (the system reads it as every address).
    An IPv6 address may be bracketed, as a URL writes it ("[::1]")."""
    what = "an address to listen on, such as 127.0.0.1"
    bracketed = len(text) > 2 and text.startswith("[") and text.endswith("]")
    if text.count(":") == 1 or (text.startswith("[") and not bracketed):  # a port: --port's ([::1]:8000 too)
        raise argparse.ArgumentTypeError(f"{what}, not {text!r} (give the port with --port)")
    inner = text[1:-1] if bracketed else text
    if (bracketed and ":" not in inner) or any(c in "[]" for c in inner):
        raise argparse.ArgumentTypeError(f"{what}, not {text!r} (brackets hold an IPv6 address alone)")
    if inner.strip() and inner != inner.strip():  # bound as typed, answered as stripped
        raise argparse.ArgumentTypeError(f"{what}, not {text!r} (no spaces around it)")
    # Bound as the name a browser asks for (127.1 refused: the socket binds 127.0.0.1; a
    # full-width LOCALHOST bound as localhost, which the loopback names then answer).
    return _answered(_host_name(inner, what))


def _allowed_host(text: str) -> str:
    """A name the server answers to: argparse's error for an empty one, or one that no
    request's Host header gives (a scheme, a path, a user, an IPv4 shorthand)."""
    return _answered(_host_name(text, "a host name, such as games.example.org"))


def _answered(text: str) -> str:
    """``text`` as a Host header gives it, if the server can answer to it, else argparse's error."""
    try:
        return answered_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _host_name(text: str, what: str) -> str:
    """``text`` if it is a name or address a socket can take (not empty, encodable: a name
    of bytes that are no UTF-8 cannot be), else argparse's error saying ``what`` it must be."""
    try:
        text.encode("idna")
    except UnicodeError:  # argv's bytes that are no UTF-8 shown as bytes, a text as typed ('localhost..')
        try:
            shown: str | bytes = os.fsencode(text) if any("\udc80" <= c <= "\udcff" for c in text) else text
        except UnicodeError:  # other surrogates besides: no bytes of argv
            shown = text
        raise argparse.ArgumentTypeError(f"{what}, not {shown!r}") from None
    if not text.strip():
        raise argparse.ArgumentTypeError(f"{what}, not an empty one")
    return text


def _wild_ranks(text: str) -> list[str]:
    """One wild rank ("5") or two ("5,9"): argparse's error for an empty one."""
    ranks = [rank.strip() for rank in half_width(text).split(",")]  # a full-width comma too
    if not all(ranks):
        raise argparse.ArgumentTypeError(f"a wild rank such as 5, or two such as 5,9, not {text!r}")
    return ranks


def _minutes(text: str) -> float:
    """A positive, finite number of minutes: argparse's error for anything else."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of minutes, not {text}")
    return value


def _folder(text: str) -> str:
    """A folder's name (argparse's error for the empty one, which names no folder)."""
    if not text:
        raise argparse.ArgumentTypeError("'' is not a folder's name")
    return text


class _ShowDefaults(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's --help shows its default, unless the help says what leaving it out does."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, except that the help, usage, version and error text it prints
    fails as any output does: argparse drops an OSError there, so ``doudizhu --help >
    /dev/full`` printed nothing and exited 0. (Its subcommands' parsers are of its class.)"""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            (file or sys.stderr).write(message)


def build_parser() -> argparse.ArgumentParser:
    defaults = _ShowDefaults
    parser = _Parser(prog="doudizhu", description="A fast, exact Dou Dizhu rules engine.",
                                     formatter_class=defaults)
    parser.add_argument("--version", action="version", version=f"doudizhu-engine {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    presets = Rules.presets()
    policies = list(POLICIES)

    play = commands.add_parser(
        "play", formatter_class=defaults, help="play a hand against bots (--auto: bots in every seat)",
        description=f"Play at seat 0 against bots. Type 'help' during the game.\n{terminal.LEGEND}",
    )
    play.add_argument("--auto", action="store_true", help="let bots play every seat and print the hand")
    play.add_argument("--seed", type=int, default=None,
                      help="deal seed (omitted: a fresh deal, its seed printed at the end)")
    play.add_argument("--rules", default="standard", choices=presets, help="rules preset")
    play.add_argument("--policy", default="heuristic",
                      help=f"the bots' policy: {', '.join(POLICIES)}, a network file, or a `doudizhu train` "
                           "run's checkpoint or folder")
    play.set_defaults(run="play")

    sp = commands.add_parser(
        "selfplay", formatter_class=defaults, help="generate games in C++ on all cores",
        description="Play games with one built-in policy in every seat, in C++ on every core, and print the "
                    "games a second and who won: the landlord's win rate, the mean multiplier and the void hands "
                    "(each for itself, as Run Fast plays: each seat's share of first places); --out saves every game.",
    )
    sp.add_argument("--games", type=_games, default=100_000, help="number of games")
    sp.add_argument("--threads", type=int, default=None, help="threads (default: every core)")
    sp.add_argument("--policy", default="random", choices=policies, help="policy of every seat")
    sp.add_argument("--seed", type=int, default=0, help="seed of the run")
    sp.add_argument("--rules", default="standard", choices=presets, help="rules preset")
    sp.add_argument("--out", default=None, help="save the games (with their actions) to this .npz file")
    sp.set_defaults(run="selfplay")

    ev = commands.add_parser(
        "evaluate", formatter_class=defaults, help="policy A against policy B by DouZero's protocol (WP, ADP)",
        description="Policy A against policy B on the same deals, each deal played with A alone in a seat and B "
                    "in the others and then swapped: A's win percentage (WP) and average difference in points "
                    "(ADP), overall and by role.",
    )
    bots = f"{', '.join(POLICIES)}, a network file, or a `doudizhu train` run's checkpoint or folder"
    ev.add_argument("a", help=f"policy A: {bots}")
    ev.add_argument("b", help="policy B, as A")
    ev.add_argument("--deals", type=int, default=10_000, help="number of deals")
    ev.add_argument("--rules", default="standard", choices=presets, help="rules preset")
    ev.add_argument("--seed", type=int, default=0, help="seed of the deals")
    ev.add_argument("--threads", type=int, default=None, help="threads (default: every core)")
    ev.set_defaults(run="evaluate")

    moves = commands.add_parser(
        "moves", formatter_class=defaults, help="list the legal moves of a hand",
        description="List every legal move of a hand, leading or over --last, with its kind.",
    )
    moves.add_argument("hand", help="the hand as card text, e.g. 33344456789TJQKA2BR")
    moves.add_argument("--last", help="the move to beat (card text); omit to lead")
    moves.add_argument("--rules", default="standard", choices=presets, help="rules preset")
    moves.add_argument(
        "--wild", type=_wild_ranks, default=None,
        help="the wild rank, e.g. 5 (with --rules laizi), or two, e.g. 5,9 (--rules laizi2)"
    )
    moves.set_defaults(run="moves")
    _add_serve(commands, defaults)
    _add_train(commands, defaults)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, read: Callable[[str], str] = input) -> int:
    """The command's exit status. A reader that leaves early (``doudizhu moves ... | head``)
    ends it quietly with READER_GONE, as it ends the shell's own commands."""
    _quiet_stderr_if_closed()
    if out is None and sys.stdout is None:  # started with stdout closed: what it prints would go nowhere
        print("doudizhu: standard output is closed", file=sys.stderr)
        return 1
    try:
        try:
            with _warnings_in_one_line(), _terminate_as_interrupt(), _lenient_standard_streams(out, read):
                return _run(argv, out if out is not None else sys.stdout, read)
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()  # now, not at exit: a reader gone is seen here, as a BrokenPipeError
    except BrokenPipeError:
        _drop_stdout()
        return READER_GONE
    except Terminated:  # SIGTERM: what the command was writing cleaned up, as for Ctrl-C
        end_line()
        return TERMINATED
    except KeyboardInterrupt:  # Ctrl-C: the shell's status for SIGINT, no traceback
        end_line()
        return terminal.INTERRUPTED
    except OSError as error:  # a file that cannot be written, or stdout itself (a full disk)
        end_line()
        print(f"doudizhu: {error}", file=sys.stderr)
        try:
            if sys.stdout is not None:
                sys.stdout.flush()
        except OSError:  # it was stdout's
            _drop_stdout()
        return 1


@contextlib.contextmanager
def _lenient_standard_streams(out: TextIO | None, read: Callable[[str], str]) -> Iterator[None]:
    """Within it, strict standard streams take what their encoding cannot: standard output
    writes it escaped, as errors are (a file name of bytes that are no UTF-8: never a
    finished run's failure), and standard input, read by ``input``, keeps a bad byte as a
    lone surrogate, which the table asks again for (a strict read dropped the rest of what
    it had buffered, the lines after it). Other handlers (the locale's surrogateescape)
    are left as they are, and so are the streams afterwards, but for an input stream read
    from, whose decoder Python does not let change again."""
    changed = []
    for stream, lenient, used in ((sys.stdout, "backslashreplace", out is None), (sys.stdin, "surrogateescape",
                                                                                  read is input)):
        if used and isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            try:
                stream.reconfigure(errors=lenient)
            except (ValueError, OSError):  # closed, detached, or already read from: left as it is
                continue
            changed.append(stream)
    try:
        yield
    finally:
        for stream in changed:
            with contextlib.suppress(ValueError):  # "not possible ... after the first read"
                stream.reconfigure(errors="strict")


def _quiet_stderr_if_closed() -> None:
    """Standard error started closed (``2>&-``: None, or a descriptor open for reading
    alone) takes what is written to it to nowhere: a usage error still exits 2 with no
    traceback, and nothing meant for it lands on standard output."""
    writable = sys.stderr is not None
    try:
        if writable:
            os.write(sys.stderr.fileno(), b"")  # nothing written: EBADF where it cannot write
    except OSError as error:
        writable = error.errno != errno.EBADF
    except (ValueError, io.UnsupportedOperation):  # no descriptor (a test's stream): as it is
        pass
    if not writable:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - the process's stream, kept until it ends


@contextlib.contextmanager
def _warnings_in_one_line() -> Iterator[None]:
    """A warning the library gives (a learning curve not drawn for want of matplotlib) as
    one line of the command's, not Python's file, line and source."""

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: TextIO | None = None, line: str | None = None) -> None:
        print(f"doudizhu: warning: {message}", file=sys.stderr, flush=True)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


def _drop_stdout() -> None:
    """Python's recipe after stdout failed: point it at devnull, so the flush at exit has
    nowhere to fail (and prints no second error)."""
    with contextlib.suppress(AttributeError, OSError, ValueError):  # no stdout, or not a file
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _run(argv: Sequence[str] | None, out: TextIO, read: Callable[[str], str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.run == "play":
            return _play(args, out, read)
        if args.run == "selfplay":
            return _selfplay(args, out)
        if args.run == "evaluate":
            return _evaluate(args, out)
        if args.run == "serve":
            return _serve(args)
        if args.run == "train":
            return _train(args, out)
        return _moves(args, out)
    except (ValueError, TypeError, FileExistsError, MissingExtra) as error:  # MissingExtra: says what to install
        end_line()
        print(f"doudizhu: {error}", file=sys.stderr)
        return 2


__all__ = ["READER_GONE", "TERMINATED", "Terminated", "build_parser", "main"]
