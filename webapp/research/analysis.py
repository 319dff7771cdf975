"""Statistics of the validation report: correlations with bootstrap intervals and the two-way log-time model.

Pure numpy, on plain arrays, so the report (``webapp.research.report``) and its tests share one implementation.
- Spearman and Pearson correlations; 95% intervals by the percentile bootstrap over puzzles (resampled with
  replacement; resamples where either side is constant are drawn again).
- Per-puzzle mean log time with a bootstrap interval over the participants who solved it.
- The model log t[p, j] = b[p] - theta[j] + e (puzzle difficulty b, participant skill theta, mean theta 0) fitted
  by least squares on the observed cells only, as in Pelanek's evaluation of difficulty ratings against solve
  times: missing cells (unsolved or not played) are left out, not imputed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
BOOTSTRAP_REPS = 2000
MAX_DRAWS = 20  # attempts at a non-degenerate resample before a replicate is skipped


def ranks(values: Array) -> Array:
    """Ranks 1..n with ties given their mean rank."""
    order = np.argsort(values, kind="mergesort")
    ranked = np.empty(len(values), dtype=np.float64)
    ranked[order] = np.arange(1, len(values) + 1, dtype=np.float64)
    for value in np.unique(values):
        tied = values == value
        if tied.sum() > 1:
            ranked[tied] = ranked[tied].mean()
    return ranked


def pearson(x: Array, y: Array) -> float:
    """Pearson's r (nan when either side is constant)."""
    dx, dy = x - x.mean(), y - y.mean()
    denominator = float(np.sqrt((dx * dx).sum() * (dy * dy).sum()))
    return float((dx * dy).sum() / denominator) if denominator > 0 else float("nan")


def spearman(x: Array, y: Array) -> float:
    """Spearman's rho: Pearson's r of the ranks."""
    return pearson(ranks(x), ranks(y))


@dataclass(frozen=True)
class Estimate:
    """A statistic with its 95% bootstrap interval."""

    value: float
    low: float
    high: float


def bootstrap_pairs(x: Array, y: Array, statistic: Callable[[Array, Array], float], seed: int) -> Estimate:
    """The statistic of (x, y) and its 95% percentile interval over resampled pairs."""
    rng = np.random.default_rng(seed)
    n = len(x)
    replicates = []
    for _ in range(BOOTSTRAP_REPS):
        for _draw in range(MAX_DRAWS):
            pick = rng.integers(0, n, n)
            value = statistic(x[pick], y[pick])
            if not np.isnan(value):
                replicates.append(value)
                break
    value = statistic(x, y)
    if not replicates:
        return Estimate(value, float("nan"), float("nan"))
    low, high = np.percentile(replicates, [2.5, 97.5])
    return Estimate(value, float(low), float(high))


def bootstrap_mean(values: Array, seed: int) -> Estimate:
    """The mean and its 95% percentile bootstrap interval."""
    return _bootstrap_rows(values, seed, median=False)


def bootstrap_median(values: Array, seed: int) -> Estimate:
    """The median and its 95% percentile bootstrap interval."""
    return _bootstrap_rows(values, seed, median=True)


def _bootstrap_rows(values: Array, seed: int, median: bool) -> Estimate:
    """The mean or median of the values and its interval over BOOTSTRAP_REPS resamples."""
    rng = np.random.default_rng(seed)
    picks = values[rng.integers(0, len(values), (BOOTSTRAP_REPS, len(values)))]
    replicates = np.median(picks, axis=1) if median else picks.mean(axis=1)
    low, high = np.percentile(replicates, [2.5, 97.5])
    value = np.median(values) if median else values.mean()
    return Estimate(float(value), float(low), float(high))


@dataclass(frozen=True)
class Correlation:
    """How one rating agrees with the puzzles' mean log times."""

    rating: str
    n: int
    spearman: Estimate
    pearson: Estimate


def correlations(
    ratings: Mapping[str, Sequence[float | None]], mean_log: Sequence[float], seed: int
) -> list[Correlation]:
    """Spearman and Pearson of every rating against mean log time, strongest |Spearman| first."""
    target = np.asarray(mean_log, dtype=np.float64)
    rows = []
    for name, values in ratings.items():
        keep = [i for i, v in enumerate(values) if v is not None and np.isfinite(v)]
        if len(keep) < 3:
            continue
        x = np.asarray([values[i] for i in keep], dtype=np.float64)
        y = target[keep]
        rows.append(
            Correlation(name, len(keep), bootstrap_pairs(x, y, spearman, seed), bootstrap_pairs(x, y, pearson, seed))
        )
    return sorted(rows, key=lambda row: -abs(row.spearman.value) if np.isfinite(row.spearman.value) else 0.0)


@dataclass(frozen=True)
class TwoWayFit:
    """log t = b[puzzle] - theta[participant]: the estimates and the residual standard deviation."""

    b: Array
    theta: Array
    residual_sd: float


def fit_two_way(log_times: Array) -> TwoWayFit:
    """Least squares on the observed cells of a puzzles x participants matrix (nan for missing), mean theta 0."""
    puzzles, people = log_times.shape
    cells = [(p, j) for p in range(puzzles) for j in range(people) if np.isfinite(log_times[p, j])]
    design = np.zeros((len(cells) + 1, puzzles + people))
    target = np.zeros(len(cells) + 1)
    for row, (p, j) in enumerate(cells):
        design[row, p] = 1.0
        design[row, puzzles + j] = -1.0
        target[row] = log_times[p, j]
    design[-1, puzzles:] = 1.0  # the constraint sum(theta) = 0, as one more equation
    solution, *_ = np.linalg.lstsq(design, target, rcond=None)
    fitted = design[:-1] @ solution
    residuals = target[:-1] - fitted
    dof = max(1, len(cells) - (puzzles + people - 1))
    solved = np.asarray(solution, dtype=np.float64)
    return TwoWayFit(solved[:puzzles], solved[puzzles:], float(np.sqrt((residuals**2).sum() / dof)))
