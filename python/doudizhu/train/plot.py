"""The learning curve, drawn from a run's log: WP and ADP against each evaluated opponent
by training minutes (matplotlib, imported here only, drawn off-screen)."""

from __future__ import annotations

import os

from .._extras import missing_extra
from .log import EVAL_OPPONENTS, read


def learning_curve(log: str, path: str) -> None:
    """Draws the log's (a run's folder or its ``log.csv``) evaluations as a PNG at ``path``."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display, no GUI toolkit
        import matplotlib.pyplot as plt
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise missing_extra("doudizhu.train.plot", "matplotlib", "train") from error
    rows = read(log)
    figure, (wp, adp) = plt.subplots(1, 2, figsize=(9, 3.5), dpi=80)
    for opponent in EVAL_OPPONENTS:
        points = [r for r in rows if f"wp_{opponent}" in r]
        minutes = [r["minutes"] for r in points]
        wp.plot(minutes, [r[f"wp_{opponent}"] for r in points], marker="o", label=f"against {opponent}")
        adp.plot(minutes, [r[f"adp_{opponent}"] for r in points], marker="o", label=f"against {opponent}")
    wp.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    adp.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
    for axes, name in ((wp, "WP"), (adp, "ADP")):
        axes.set_xlabel("training minutes")
        axes.set_ylabel(name)
        axes.grid(alpha=0.3)
        axes.legend()
    figure.tight_layout()
    figure.savefig(os.fspath(path))
    plt.close(figure)


__all__ = ["learning_curve"]
