"""The recipe of the shipped network (``doudizhu train --recipe neural``): every stage, in
order, resumable after an interruption, ending in a network file that records how it was
made (docs/guide/learned_bot.md).

1. ``play``: the play networks fitted to the fast heuristic's rollouts
   (:mod:`.warm`: a plan column, a ranking term), ``play.minutes`` of training; every
   ``curve_minutes`` the networks so far are evaluated under the play preset
   against ``curve_opponents`` (``curve_deals`` deals each, roles swapped; the
   determinized bot ``curve_determinized_deals``), a row of ``curve.csv`` each: the
   learning curve (drawn in ``curve.png`` where matplotlib is installed).
2. ``bid``: bid networks for the classic auction and for call-and-rob over those play
   networks (:mod:`.bidding`), ``bid_rounds`` rounds.
3. ``evaluate``: the finished file against ``heuristic`` and ``random`` (``eval_deals``
   deals, roles swapped), its results written into the file's metadata.

The folder holds ``recipe.json`` (the settings and the stage reached), each stage's
checkpoint, and the result, ``neural.ddzn``.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import time
from collections.abc import Callable
from typing import Any

import torch

from .. import __version__, checkpoint, network_file
from .._checkpoint_files import RECIPE_STATE
from .._core import POLICIES, Network, Rules
from .._real_numbers import check_real
from .._signatures import check_callable
from .._whole_file import whole_file
from ..bots import NETWORK_FILE, DeterminizedBot, Neural
from ..checkpoint import read_torch_file
from ..evaluation import evaluate
from ..value_networks import SmallNet
from . import bidding, log
from .bidding import BidConfig, train_bidding
from .plot import learning_curve_if_possible
from .resume import refuse_changes
from .run_folder import holds_run, run_folder, writing
from .settings import check_counts, check_fields, check_names, check_positive, check_type
from .warm import CHECKPOINT as WARM_CHECKPOINT
from .warm import WarmConfig, WarmCounters, warm_start

FILE = NETWORK_FILE
CURVE = "curve.csv"
CURVE_PNG = "curve.png"
STAGES = ("play", "bid", "evaluate", "done")
# What a run writes in its folder.
STATE = RECIPE_STATE  # the stage reached and the run's settings
PLAY_FILE = "play.ddzn"  # the play stage's networks
RUN_FILES = (STATE, WARM_CHECKPOINT, PLAY_FILE, bidding.FILE, FILE, CURVE, CURVE_PNG)
#: The settings a resumed run takes from the call (the play stage's length, the stages'
#: threads); the others define the run, and a resumed run must be given the saved ones.
PER_CALL = ("play.minutes", "play.threads", "bid.threads")


@dataclasses.dataclass(frozen=True)
class Recipe:
    play: WarmConfig = dataclasses.field(default_factory=lambda: WarmConfig(minutes=120.0))
    bid: BidConfig = dataclasses.field(default_factory=BidConfig)
    eval_deals: int = 2000
    eval_presets: tuple[str, ...] = ("douzero", "standard")
    eval_opponents: tuple[str, ...] = ("heuristic", "random")
    curve_minutes: float = 15.0
    curve_deals: int = 500
    curve_opponents: tuple[str, ...] = ("random", "heuristic")
    curve_determinized_deals: int = 100

    def __post_init__(self) -> None:
        check_fields(self)
        for preset in self.eval_presets:
            Neural().check(Rules.preset(preset))  # a preset the networks play (as the shipped ones'), or refused
        check_names((*self.eval_opponents, *self.curve_opponents), "eval_opponents and curve_opponents", POLICIES)
        check_counts(self, {"eval_deals": 10**8, "curve_deals": 10**8})
        check_counts(self, {"curve_determinized_deals": 10**8}, least=0)  # 0: no determinized opponent
        check_positive(self, ("curve_minutes",))


Report = Callable[[str], None]


def run(recipe: Recipe, out: str | os.PathLike[str], resume: bool = False, report: Report | None = None) -> str:
    """Runs the recipe's stages from the one ``out`` reached (``resume``) or from the start;
    the path of the finished network file. A fresh run (``resume`` false) refuses a folder
    holding a run's files (FileExistsError), rather than mix two runs' curves and files."""
    check_type(recipe, "recipe", Recipe)
    if report is not None:
        check_callable(report, ("stage play",), "report")
    folder = run_folder(out, RUN_FILES, resume, foreign=(checkpoint.FILE, log.FILE))  # a DMC run's
    with writing(folder):
        return _run(recipe, folder, resume, report)


def _run(recipe: Recipe, folder: str, resume: bool, report: Report | None) -> str:
    state_path = os.path.join(folder, STATE)
    state: dict[str, Any] = {"stage": "play", "recipe": _as_json(recipe), "seconds": {}}
    say = report or (lambda line: None)
    if resume and holds_run(folder, (STATE,)):
        state = _state(folder)
        refuse_changes(folder, _flat(_as_json(recipe)), _flat(state["recipe"]), PER_CALL)
        if state["stage"] in ("bid", "evaluate") and state["recipe"]["play"]["minutes"] != recipe.play.minutes:
            say(f"the play stage is over ({state['recipe']['play']['minutes']:g} min): minutes "
                f"{recipe.play.minutes:g} change nothing now (a longer one trains into another folder)")
        state["recipe"] = _as_json(recipe)
    else:  # saved before the first stage: a run stopped in it is resumed with its settings
        _save_state(state_path, state)
    if resume and state["stage"] == "play":
        _curve_for_resume(folder)
    if state["stage"] == "done":  # its networks bid and were evaluated: more play would undo that
        if not os.path.isfile(os.path.join(folder, FILE)):  # said done, and named a file that was not there
            raise FileNotFoundError(f"{folder}: the recipe is done but its {FILE} is gone: train into another folder")
        Network(os.path.join(folder, FILE))  # a damaged one is a NetworkError naming its fault, not a run's result
        say(f"nothing to train: the recipe is done (its play stage took {state['seconds'].get('play', 0) / 60:.1f} "
            "min, its curve's evaluations included); a longer one trains into another folder")
    torch.set_num_threads(1)
    play_path = os.path.join(folder, PLAY_FILE)
    while state["stage"] != "done":
        started = time.perf_counter()
        stage = state["stage"]
        say(f"stage {stage}")
        if stage == "play":
            _play(recipe, folder, play_path, resume, say)
        elif stage == "bid":
            play = network_file.modules(Network(play_path))[0]
            train_bidding(play, recipe.bid, folder, _metadata(state, folder),
                          report=lambda mode, r, loss: say(f"bid {mode} round {r}: loss {loss:.4f}"))
            os.replace(os.path.join(folder, bidding.FILE), os.path.join(folder, FILE))
        elif stage == "evaluate":
            state["evaluation"] = _evaluate(recipe, os.path.join(folder, FILE), say)
        state["seconds"][stage] = state["seconds"].get(stage, 0.0) + time.perf_counter() - started
        state["stage"] = STAGES[STAGES.index(stage) + 1]
        _rewrite(folder, state)
        _save_state(state_path, state)
    return os.path.join(folder, FILE)


def _save_state(path: str, state: dict[str, Any]) -> None:
    with whole_file(path) as partial, open(partial, "w") as file:
        json.dump(state, file, indent=1)


def _play(recipe: Recipe, folder: str, play_path: str, resume: bool, say: Report) -> None:
    latest = WarmCounters()

    def progress(c: WarmCounters) -> None:
        nonlocal latest
        latest = c
        loss = sum(c.losses.values()) / max(len(c.losses), 1)
        say(f"play {c.seconds / 60:6.1f} min  {c.games:,} games  {c.samples:,} samples  loss {loss:.4f}")

    def curve_point(nets: dict[str, SmallNet]) -> None:
        network_file.write(play_path, nets, {}, {"stage": "play"})
        row = {"minutes": round(latest.seconds / 60, 2), "games": latest.games, "samples": latest.samples}
        for opponent in (*recipe.curve_opponents, "determinized"):
            deals = recipe.curve_determinized_deals if opponent == "determinized" else recipe.curve_deals
            if deals:
                rival = DeterminizedBot(seed=1) if opponent == "determinized" else opponent
                r = evaluate(Neural(play_path), rival, deals=deals, rules=Rules.preset(recipe.play.rules), seed=2)
                row.update({f"wp_{opponent}": round(r.wp, 4), f"adp_{opponent}": round(r.adp, 4)})
        say("curve " + " ".join(f"{k} {v}" for k, v in row.items()))
        log.append_row(os.path.join(folder, CURVE), list(row), row)
        learning_curve_if_possible(os.path.join(folder, CURVE), os.path.join(folder, CURVE_PNG))

    nets = warm_start(recipe.play, folder, resume=resume, report=progress, evaluate_every=recipe.curve_minutes,
                      evaluate=curve_point)
    network_file.write(play_path, nets, {}, {"stage": "play"})


def _curve_for_resume(folder: str) -> None:
    """The curve of a play stage about to resume: checked now (a damaged one was found after
    the training, which it then lost), and without its rows past the warm start's checkpoint
    (a harder stop's: their training is done again, and their minutes would run backwards)."""
    path = os.path.join(folder, CURVE)
    if not os.path.exists(path):
        return
    log.read(path)  # ValueError naming the file and its first fault
    warm = os.path.join(folder, WARM_CHECKPOINT)
    saved = read_torch_file(warm, "warm start checkpoint") if os.path.exists(warm) else {}
    minutes = round(float(saved.get("counters", {}).get("seconds", 0.0)) / 60, 2)
    with open(path, newline="", encoding="utf-8") as file:
        reader = csv.DictReader(file)
        columns, rows = list(reader.fieldnames or ()), list(reader)
    kept = [row for row in rows if float(row["minutes"]) <= minutes]
    if len(kept) < len(rows):
        with whole_file(path) as partial, open(partial, "w", newline="", encoding="utf-8") as file:
            writer = csv.DictWriter(file, fieldnames=columns)
            writer.writeheader()
            writer.writerows(kept)


def _evaluate(recipe: Recipe, path: str, say: Report) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for preset in recipe.eval_presets:
        for opponent in recipe.eval_opponents:
            r = evaluate(Neural(path), opponent, deals=recipe.eval_deals, rules=Rules.preset(preset), seed=1)
            results[f"{preset}/{opponent}"] = {
                "wp": r.wp, "wp_ci": list(r.wp_ci), "adp": r.adp, "adp_ci": list(r.adp_ci), "deals": recipe.eval_deals,
                "by_role": {role: {"games": side.games, "wp": side.wp, "adp": side.adp}
                            for role, side in r.by_role.items() if side.games}}
            say(f"evaluate {preset} against {opponent}: WP {r.wp:.3f} ({r.wp_ci[0]:.3f}-{r.wp_ci[1]:.3f}), "
                f"ADP {r.adp:+.3f}")
    return results


def _metadata(state: dict[str, Any], folder: str) -> dict[str, Any]:
    """What the file says of how it was made."""
    warm = os.path.join(folder, WARM_CHECKPOINT)
    # Read as every trainer's file is (read_torch_file: its zip checksums, a regular file).
    counters = read_torch_file(warm, "warm start checkpoint").get("counters", {}) if os.path.exists(warm) else {}
    return {"format": "doudizhu-neural/1", "engine": __version__, "recipe": state["recipe"],
            "command": "doudizhu train --recipe neural",
            "play": {k: counters.get(k) for k in ("games", "samples", "seconds")},
            "hours": round(sum(state["seconds"].values()) / 3600, 3), "evaluation": state.get("evaluation", {})}


def _rewrite(folder: str, state: dict[str, Any]) -> None:
    """The finished file with the metadata as it now stands."""
    path = os.path.join(folder, FILE)
    if os.path.exists(path):
        play, bid = network_file.modules(Network(path))
        network_file.write(path, play, bid, _metadata(state, folder))


def saved_recipe(out: str | os.PathLike[str]) -> Recipe:
    """The recipe of the run in ``out`` (its ``recipe.json``); ValueError for a folder
    without one, or one this version cannot read."""
    return _from_json(_state(os.fspath(out))["recipe"])


def _state(folder: str) -> dict[str, Any]:
    path = os.path.join(folder, STATE)
    if not os.path.isfile(path):
        raise ValueError(f"{folder}: a folder without a recipe.json, so no run of the recipe")
    try:
        with open(path) as file:
            state: dict[str, Any] = json.load(file)
        _from_json(state["recipe"])
        if state["stage"] not in STAGES or not isinstance(state["seconds"], dict):
            raise ValueError(f"stage {state['stage']!r} or seconds {state['seconds']!r}")
        for stage, seconds in state["seconds"].items():  # summed into the file's hours
            check_real(seconds, f"seconds[{stage!r}]", at_least=0.0)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:  # edited by hand: anywhere
        raise ValueError(f"{path}: not a recipe run's state ({type(error).__name__}: {error})") from None
    return state


def _flat(settings: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested settings as one dict of dotted names."""
    flat: dict[str, Any] = {}
    for key, value in settings.items():
        if isinstance(value, dict):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[prefix + key] = value
    return flat


def _from_json(settings: dict[str, Any]) -> Recipe:
    """A recipe from its ``_as_json`` form (lists back to tuples)."""
    def tuples(fields: dict[str, Any]) -> dict[str, Any]:
        return {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}

    rest = {k: v for k, v in settings.items() if k not in ("play", "bid")}
    return Recipe(play=WarmConfig(**tuples(settings["play"])), bid=BidConfig(**tuples(settings["bid"])), **tuples(rest))


def _as_json(recipe: Recipe) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(recipe)))
    return out


__all__ = ["CURVE", "CURVE_PNG", "FILE", "PER_CALL", "STAGES", "Recipe", "run", "saved_recipe"]
