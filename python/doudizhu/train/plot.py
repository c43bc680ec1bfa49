"""The learning curve, drawn from a run's log (the trainer's ``log.csv`` or the recipe's
``curve.csv``): WP and ADP against each evaluated opponent by training minutes
(matplotlib, imported here only, drawn off-screen)."""

from __future__ import annotations

import os
import warnings

from .._extras import missing_extra
from .._whole_file import whole_file
from .log import read


def learning_curve(log: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """Draws the log's (a run's folder or a log file) evaluations as a PNG at ``path``: a line
    per opponent of a ``wp_<opponent>`` column."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display, no GUI toolkit
        import matplotlib.pyplot as plt
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise missing_extra("doudizhu.train.plot", "matplotlib", "train") from error
    rows = read(os.fspath(log))
    figure, (wp, adp) = plt.subplots(1, 2, figsize=(9, 3.5), dpi=80)
    opponents = dict.fromkeys(key.removeprefix("wp_") for row in rows for key in row if key.startswith("wp_"))
    for opponent in opponents:
        points = [r for r in rows if f"wp_{opponent}" in r]
        minutes = [r["minutes"] for r in points]
        wp.plot(minutes, [r[f"wp_{opponent}"] for r in points], marker="o", label=f"against {opponent}")
        adps = [r.get(f"adp_{opponent}", float("nan")) for r in points]
        adp.plot(minutes, adps, marker="o", label=f"against {opponent}")
    wp.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    adp.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
    for axes, name in ((wp, "WP"), (adp, "ADP")):
        axes.set_xlabel("training minutes")
        axes.set_ylabel(name)
        axes.grid(alpha=0.3)
        if opponents:  # a log without evaluations draws empty axes, with no legend to warn about
            axes.legend()
    figure.tight_layout()
    with whole_file(path) as name:
        figure.savefig(name, format="png")  # at `path` itself: no suffix added for a name without one
    plt.close(figure)


def learning_curve_if_possible(log: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """:func:`learning_curve`, or a warning where matplotlib is missing or the picture cannot
    be written (a run's checkpoints and logs are kept either way)."""
    try:
        learning_curve(log, path)
    except (ImportError, OSError) as error:
        warnings.warn(f"no {os.path.basename(path)}: {error}", stacklevel=2)


__all__ = ["learning_curve", "learning_curve_if_possible"]
