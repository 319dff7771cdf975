"""Fit the difficulty score D and report its agreement with published grades (the figures of docs/difficulty.md).

The time model is fitted by ``human_times.py``, to people's solving times.

- D (``sudoku_engine.difficulty``): se_fine plus a refinement fitted by least squares to what se_fine misses of
  the Sudoku Explainer ratings of a seeded sample of ``sudokuexchange_graded_even.tsv``, moving D by tanh of it
  within ``difficulty.widths``; checked on a disjoint sample of the same file and on ``menneske_graded_even.tsv``
  (never used for fitting): Spearman rho of D, se_like and hodoku_like against the grades, Goodman-Kruskal gamma
  against the menneske grades, median D per 0.5 band of SE rating, the widest gaps in D over every puzzle rated,
  and optionally hodoku-py's rho on the same puzzles (``--peer N``, installed into benchmarks/.peers only).
- Singles puzzles: SINGLES_LOW and SINGLES_HIGH are the 1st and 99th percentiles of ln(effort per empty cell) over
  the puzzles the singles alone solve among the Sudoku Exchange and Kaggle rows rated here (menneske excluded).

Prints the constants for ``sudoku_engine/difficulty.py``.
Run: ``.venv/bin/python benchmarks/fit_difficulty.py [--fit 600] [--check 400] [--jobs 2] [--peer 0]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Sequence
from multiprocessing import Pool

import numpy as np
from corpus_stats import goodman_kruskal_gamma, read_tsv, spearman
from rating import peer_python, peer_rate

from sudoku_engine import difficulty, solver
from sudoku_engine.rating import rate

MENNESKE = ("Super easy", "Very easy", "Easy", "Medium", "Hard", "Harder", "Very hard", "Super hard", "Impossible")


class Rated:
    """What the fit needs of one rated puzzle."""

    def __init__(
        self,
        puzzle: str,
        vector: Sequence[float],
        singles_only: bool,
        base: float,
        se_like: float,
        effort: float,
    ) -> None:
        self.puzzle, self.vector, self.singles_only, self.base = puzzle, np.array(vector), singles_only, base
        self.se_like, self.effort = se_like, effort


def rate_one(puzzle: str) -> Rated:
    """The features of one puzzle (as ``rate`` measures them, on its canonical form)."""
    rating = rate(puzzle)
    return Rated(puzzle, rating.vector, rating.singles_only, rating.base, rating.se_like, rating.effort)


def rate_all(puzzles: Sequence[str], jobs: int) -> list[Rated]:
    """Rate puzzles over worker processes."""
    with Pool(jobs) as pool:
        return pool.map(rate_one, puzzles, chunksize=4)


def samples(fit: int, check: int) -> dict[str, list[dict[str, str]]]:
    """Disjoint seeded fit and check samples of the SE-rated rows, a menneske sample, and the singles pool."""
    rows = read_tsv("sudokuexchange_graded_even.tsv")
    rated = [r for r in rows if r["se_rating"]]
    random.Random(2024).shuffle(rated)
    menneske = read_tsv("menneske_graded_even.tsv")
    random.Random(2025).shuffle(menneske)
    kaggle = read_tsv("kaggle3m_curated_graded_even.tsv")
    random.Random(2026).shuffle(kaggle)
    return {
        "fit": rated[:fit],
        "check": rated[fit : fit + check],
        "menneske": menneske[:check],
        "easy": [r for r in rows if not r["se_rating"]][::2],
        "kaggle": kaggle[:check],
    }


def d_of(item: Rated, coef: np.ndarray, spread: float, low: float, high: float) -> float:
    """D as ``difficulty.score`` computes it with these constants."""
    if item.singles_only:
        share = (item.vector[-1] - low) / (high - low)
        return 1.0 + (difficulty.SINGLES_TOP - 1.0) * min(max(share, 0.0), 0.999)
    refinement = coef[0] + float(np.dot(coef[2:], item.vector[1:]))
    return difficulty.spread(float(item.vector[0]), item.base, refinement / spread)


def fit_refinement(items: list[Rated], truth: np.ndarray) -> tuple[np.ndarray, float]:
    """Least squares of SE rating - se_fine on the other features; the coefficients and the refinement's spread."""
    x = np.array([item.vector for item in items])
    rest, *_ = np.linalg.lstsq(np.column_stack([np.ones(len(x)), x[:, 1:]]), truth - x[:, 0], rcond=None)
    coef = np.concatenate([rest[:1], [1.0], rest[1:]])
    spread = float(np.std(np.column_stack([np.ones(len(x)), x[:, 1:]]) @ rest))
    return coef, spread


def band_medians(d: Sequence[float], truth: Sequence[float]) -> list[tuple[float, float, int]]:
    """Median D per 0.5 band of SE rating (band start, median, count)."""
    bands: dict[float, list[float]] = {}
    for value, se in zip(d, truth):
        bands.setdefault(math.floor(se * 2) / 2, []).append(value)
    return [(band, statistics.median(values), len(values)) for band, values in sorted(bands.items())]


def report(label: str, d: Sequence[float], items: list[Rated], truth: Sequence[float], gamma: bool) -> None:
    """Spearman rho (and gamma) of D, se_like and hodoku_like against a grade."""
    se_like = [item.se_like for item in items]
    hodoku = [item.vector[1] for item in items]
    print(
        f"  {label}, {len(items)} puzzles: Spearman rho D {spearman(d, truth):.3f}, se_like "
        f"{spearman(se_like, truth):.3f}, hodoku_like {spearman(hodoku, truth):.3f}"
    )
    if gamma:
        print(
            f"    Goodman-Kruskal gamma vs grade: D {goodman_kruskal_gamma(list(d), list(truth)):.3f} (seed 002 "
            f"reports 0.82 for its m(B) against 8 external grades), se_like "
            f"{goodman_kruskal_gamma(se_like, list(truth)):.3f}"
        )


def main() -> None:
    """Rate the samples, fit, check, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=int, default=600, help="SE-rated puzzles to fit on")
    parser.add_argument("--check", type=int, default=400, help="puzzles per check set")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--peer", type=int, default=0, help="check puzzles also rated by hodoku-py (0: none)")
    options = parser.parse_args()
    solver.warm_up()
    rows = samples(options.fit, options.check)
    rated = {name: rate_all([r["puzzle"] for r in group], options.jobs) for name, group in rows.items()}
    singles = [i.vector[-1] for name in ("fit", "check", "easy", "kaggle") for i in rated[name] if i.singles_only]
    low, high = (float(v) for v in np.percentile(singles, [1, 99]))
    fit_truth = np.array([float(r["se_rating"]) for r in rows["fit"]])
    fit_items = rated["fit"]
    coef, spread = fit_refinement(
        [i for i in fit_items if not i.singles_only],
        np.array([t for t, i in zip(fit_truth, fit_items) if not i.singles_only]),
    )
    print(
        f"fit on {len(fit_items)} SE-rated puzzles of sudokuexchange_graded_even.tsv (seed 2024); singles from "
        f"{len(singles)} puzzles"
    )
    print(f"INTERCEPT = {coef[0]:.4f}")
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in coef[1:]) + ")")
    means = np.array([i.vector for i in fit_items]).mean(axis=0)
    print("MEANS = (" + ", ".join(f"{m:.3f}" for m in means) + ")")
    print(f"REFINEMENT_SD = {spread:.4f}\nSINGLES_LOW = {low:.3f}\nSINGLES_HIGH = {high:.3f}")
    sd = np.array([i.vector for i in fit_items]).std(axis=0)
    for name, w, s in zip(difficulty.FEATURES, coef[1:], sd):
        print(f"  {name:18} weight {w:+.4f}  weight x sd {w * s:+.4f}")
    se_truth = [float(r["se_rating"]) for r in rows["check"]]
    menneske_truth = [float(MENNESKE.index(r["menneske_grade"])) for r in rows["menneske"]]
    se_d = [d_of(i, coef, spread, low, high) for i in rated["check"]]
    report("sudokuexchange (held out), SE rating", se_d, rated["check"], se_truth, False)
    bands = band_medians(se_d, se_truth)
    rising = all(b[1] < c[1] for b, c in zip(bands, bands[1:]))
    print(
        "    median D per 0.5 band of SE: "
        + ", ".join(f"{b:.1f}: {m:.2f} ({n})" for b, m, n in bands)
        + f" -> {'rises at every band' if rising else 'NOT monotone'}"
    )
    menneske_d = [d_of(i, coef, spread, low, high) for i in rated["menneske"]]
    report("menneske grade", menneske_d, rated["menneske"], menneske_truth, True)
    every = sorted(d_of(i, coef, spread, low, high) for group in rated.values() for i in group)
    gaps = sorted(((b - a, a) for a, b in zip(every, every[1:])), reverse=True)[:3]
    print("    widest gaps in D over all rated puzzles: " + ", ".join(f"{g:.2f} above {a:.2f}" for g, a in gaps))
    if options.peer:
        python = peer_python()
        if python is not None:
            for label, group, truth in (("SE", "check", se_truth), ("menneske", "menneske", menneske_truth)):
                picked = [i.puzzle for i in rated[group][: options.peer]]
                theirs = peer_rate(python, picked)
                d = [d_of(i, coef, spread, low, high) for i in rated[group][: options.peer]]
                print(
                    f"  hodoku-py score rho on the first {len(picked)} {label}: "
                    f"{spearman([s for _t, s, _l in theirs], truth[: options.peer]):.3f} (D on the same: "
                    f"{spearman(d, truth[: options.peer]):.3f})"
                )


if __name__ == "__main__":
    main()
