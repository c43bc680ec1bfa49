#!/usr/bin/env python
"""Speed and strength of the core's information-set MCTS (``doudizhu.ismcts``, the policy
``"ismcts"``).

    python bench/ismcts_strength.py speed [--positions N] [--speed-simulations S] [--wild-leads L]
    python bench/ismcts_strength.py strength --opponent heuristic --budgets 200,600,100ms --deals D
                                             [--rollout R] [--leaf rollout|values] [--exploration C]
                                             [--no-endgame]
    python bench/ismcts_strength.py report [--out PATH] [--no-write]

Each run adds its rows to a ledger (``--ledger``, default bench/ismcts_runs.json) and
``report`` writes the ``## ISMCTS`` section of bench/RESULTS.md from it: strength runs are
long, so they run one at a time (in the background) and the report gathers them
(``--no-write``: a run's rows are printed, the ledger left as it was).

speed: simulations a second of one search from each of ``--positions`` seeded positions
(the ``douzero`` preset, 10 plays in by the fast heuristic), random and fast-heuristic
rollouts, 1 and 2 threads; the best of 3 rounds by wall time, and the simulations per
CPU-second of that round (the machine is shared: a second thread may find no free core);
then the default bot's decision time at ``--wild-leads`` leads of tens of thousands of
actions (``laizi2``).

strength: ``doudizhu.evaluate(ISMCTS(simulations=B, ...), opponent, deals=D,
rules=Rules.preset("douzero"), seed)``: roles swapped, 95% intervals. A budget ``Nms`` is
one of time instead, ``ISMCTS(simulations=None, seconds=N / 1000)``: wall time, so run it
on a quiet machine. ``opponent`` is a
built-in policy or ``determinized`` (``DeterminizedBot()``, Python: slow). The
milliseconds a decision are measured apart, on the ISMCTS seats' decisions with more than
one legal action in ``--timing-deals`` deals against the heuristic, one thread, as CPU time
(the machine is shared: wall time there measures the other jobs too).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from percentiles import percentile  # noqa: E402
from results_md import add_output_arguments, publish  # noqa: E402

SECTION = "## ISMCTS"
LEDGER = os.path.join(HERE, "ismcts_runs.json")


def positions(n: int, seed: int) -> list:
    import doudizhu as dz

    out = []
    for i in range(n):
        game = dz.Game(seed=seed + i, rules=dz.Rules.preset("douzero"))
        for _ in range(10):
            game.step(dz.choose_action(game, "fast_heuristic", 0))
        out.append(game)
    return out


def read_ledger(path: str) -> dict:
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def machine() -> str:
    load = os.getloadavg()[0]
    return (f"{platform.machine()}, nproc = {os.cpu_count()}, 1-min load average {load:.2f} at the start; "
            f"{datetime.datetime.now():%Y-%m-%d %H:%M}")


def speed(args: argparse.Namespace) -> list[dict]:
    import doudizhu as dz

    games = positions(args.positions, args.seed)
    rows = []
    for rollout in ("random", "fast_heuristic"):
        for threads in (1, 2):
            best = (float("inf"), 0.0)
            for _ in range(3):
                wall, cpu = time.perf_counter(), time.process_time()
                for game in games:
                    dz.ismcts(game, args.speed_simulations, rollout=rollout, seed=args.seed, threads=threads)
                best = min(best, (time.perf_counter() - wall, time.process_time() - cpu))
            n = len(games) * args.speed_simulations
            rows.append({"rollout": rollout, "threads": threads, "per_second": n / best[0],
                         "per_cpu_second": n / best[1], "positions": len(games),
                         "simulations": args.speed_simulations, "machine": machine()})
            print(rows[-1], flush=True)
    return rows


def wild_leads(n: int) -> list[dict]:
    """Wall seconds of the default ``ISMCTS()`` bot's decision at the first ``n`` leads of
    ``laizi2`` games (seeds 0.., the auction's last bid taken) with more than 20,000 legal
    actions, best of 3: under two wild ranks a lead may have 80,000."""
    import doudizhu as dz
    from doudizhu.bots import ISMCTS

    rules = dz.Rules.preset("laizi2")
    rows = []
    for seed in range(1000):
        game = dz.Game(seed=seed, rules=rules)
        while game.phase == "bidding":
            game.step(game.legal_actions()[-1])
        actions = len(game.legal_actions())
        if actions <= 20_000:
            continue
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            ISMCTS().act(game)
            best = min(best, time.perf_counter() - started)
        rows.append({"seed": seed, "actions": actions, "seconds": best, "machine": machine()})
        print(rows[-1], flush=True)
        if len(rows) == n:
            break
    return rows


def decision_ms(bot: object, deals: int, seed: int) -> tuple[float, float]:
    """Mean and 90th percentile of the bot's CPU time a decision (more than one legal action)
    in ``deals`` deals of the ``douzero`` preset against the heuristic, in each role."""
    import doudizhu as dz

    times = []
    rules = dz.Rules.preset("douzero")
    for deal in range(deals):
        for bot_seats in ({deal % 3}, {0, 1, 2} - {deal % 3}):
            game = dz.Game(seed=dz.game_seed(seed, deal), rules=rules, first_bidder=deal % 3)
            while game.phase != "over":
                if game.to_move in bot_seats and len(game.legal_actions()) > 1:
                    started = time.process_time()  # one thread: its CPU time, whatever else runs
                    action = bot.act(game)  # type: ignore[attr-defined]
                    times.append(time.process_time() - started)
                else:
                    action = dz.choose_action(game, "heuristic", 0)
                game.step(action)
    return 1000 * statistics.mean(times), 1000 * percentile(times, 0.9)


def strength(args: argparse.Namespace) -> list[dict]:
    import doudizhu as dz
    from doudizhu.bots import ISMCTS, DeterminizedBot

    opponent = DeterminizedBot(seed=args.seed) if args.opponent == "determinized" else args.opponent
    rows = []
    for budget in args.budgets:
        ms = int(budget[:-2]) if budget.endswith("ms") else None
        bot = ISMCTS(simulations=None if ms else int(budget), seconds=ms / 1000 if ms else None, rollout=args.rollout,
                     exploration=args.exploration, seed=args.seed, endgame=not args.no_endgame, leaf=args.leaf)
        mean_ms, p90_ms = decision_ms(bot, args.timing_deals, args.seed + 1)
        started = time.perf_counter()
        r = dz.evaluate(bot, opponent, deals=args.deals, rules=dz.Rules.preset("douzero"), seed=args.seed,
                        threads=args.threads)
        rows.append({"opponent": args.opponent, "simulations": int(budget) if ms is None else f"{ms} ms",
                     "rollout": args.rollout, "leaf": args.leaf,
                     "exploration": args.exploration, "endgame": not args.no_endgame, "deals": args.deals,
                     "seed": args.seed, "wp": r.wp, "wp_ci": list(r.wp_ci), "adp": r.adp, "ms_mean": mean_ms,
                     "ms_p90": p90_ms, "hours": (time.perf_counter() - started) / 3600, "machine": machine()})
        print(rows[-1], flush=True)
    return rows


def judged(row: dict) -> str:
    """How a run's new nodes were judged: its rollout policy, or the networks' values (the
    rollout policy still choosing what a node expands first)."""
    return row["rollout"] if row.get("leaf", "rollout") == "rollout" else f"network values ({row['rollout']} expands)"


def report(ledger: dict) -> str:
    md = [SECTION, "", "Generated by `python bench/ismcts_strength.py report` from the runs of `speed` and `strength` "
          "recorded in bench/ismcts_runs.json (each row's date and machine state there).", ""]
    if ledger.get("speed"):
        first = ledger["speed"][0]
        md += [f"Simulations a second ({first['positions']} positions of the `douzero` preset, 10 plays in, "
               f"{first['simulations']} simulations each, best of 3 rounds; {first['machine']}; the machine is "
               "shared, so a second thread finds a free core only when other jobs leave one: the rate per CPU-second "
               "is the rate per core):", "",
               "| rollout | threads | simulations/s (wall) | simulations per CPU-second |", "|---|---:|---:|---:|"]
        md += [f"| {r['rollout']} | {r['threads']} | {r['per_second']:,.0f} | {r['per_cpu_second']:,.0f} |"
               for r in ledger["speed"]]
        md.append("")
    if ledger.get("wild_leads"):
        rows = ledger["wild_leads"]
        md += [f"The default bot (`ISMCTS()`: 1000 simulations, fast-heuristic rollouts, one thread) at leads of many "
               f"actions: the first {len(rows)} `laizi2` games (seeds 0.., the auction's last bid taken) whose "
               f"landlord's first lead has more than 20,000 legal actions, wall seconds of one decision, best of 3 "
               f"({rows[0]['machine']}):", "", "| seed | legal actions | seconds |", "|---:|---:|---:|"]
        md += [f"| {r['seed']} | {r['actions']:,} | {r['seconds']:.3f} |" for r in rows]
        md.append("")
    if ledger.get("strength"):
        md += ["Strength (`doudizhu.evaluate`, the `douzero` preset: DouZero's protocol, every deal played twice with "
               "the roles swapped, 95% intervals; ms a decision: the ISMCTS seats' mean and 90th-percentile CPU time "
               "over the decisions with a choice, one thread, measured apart from the evaluation):", "",
               "| opponent | budget a decision | rollout (or leaf values) | endgame | deals | WP | ADP "
               "| ms a decision (mean / p90) | date |",
               "|---|---:|---|---|---:|---:|---:|---:|---|"]
        rows = sorted(ledger["strength"],
                      key=lambda r: (r["opponent"], judged(r), r["endgame"], isinstance(r["simulations"], str),
                                     int(str(r["simulations"]).split()[0]), r["deals"]))
        md += [f"| {r['opponent']} | {r['simulations']} | {judged(r)} | {'yes' if r['endgame'] else 'no'} "
               f"| {r['deals']} | "
               f"{r['wp']:.3f} ({r['wp_ci'][0]:.3f}-{r['wp_ci'][1]:.3f}) | {r['adp']:+.3f} | "
               f"{r['ms_mean']:.0f} / {r['ms_p90']:.0f} | {r['machine'].split('; ')[-1]} |" for r in rows]
    notes = ledger.get("notes", [])
    return "\n".join(md + (["", *notes] if notes else [])) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["speed", "strength", "report"])
    ap.add_argument("--ledger", default=LEDGER)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--speed-simulations", type=int, default=2000)
    ap.add_argument("--wild-leads", type=int, default=6)
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--budgets", default="200,600,2000")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--rollout", default="fast_heuristic")
    ap.add_argument("--leaf", default="rollout", choices=["rollout", "values"])
    ap.add_argument("--exploration", type=float, default=0.7)
    ap.add_argument("--no-endgame", action="store_true")
    ap.add_argument("--timing-deals", type=int, default=6)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    add_output_arguments(ap)
    args = ap.parse_args(argv)
    args.budgets = args.budgets.split(",")
    ledger = read_ledger(args.ledger)
    if args.mode == "report":
        publish(report(ledger), args.out, SECTION, write=not args.no_write)
        return 0
    if args.mode == "speed":
        ledger["speed"] = speed(args)
        ledger["wild_leads"] = wild_leads(args.wild_leads)
    else:
        new = strength(args)
        ledger = read_ledger(args.ledger)  # others may have run meanwhile
        ledger.setdefault("strength", []).extend(new)
    if args.no_write:  # the runs are printed, the ledger the report is built from stays as it was
        run = {key: ledger[key] for key in ("speed", "wild_leads")} if args.mode == "speed" else new
        print(json.dumps(run, indent=1))
        return 0
    with open(args.ledger, "w") as f:
        json.dump(ledger, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
