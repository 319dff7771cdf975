"""Fit the difficulty score D and report its agreement (the figures of docs/difficulty.md).

D is se_like plus a linear refinement fitted by least squares to what se_like misses of the Sudoku Explainer
ratings of a seeded sample of ``sudokuexchange_graded_even.tsv``. It is checked on a disjoint sample of the same
file and on ``menneske_graded_even.tsv`` (never used for fitting): Spearman rho of D, se_like and hodoku_like
against the grades, Goodman-Kruskal gamma against the menneske grades, and optionally hodoku-py's rho on the
same puzzles (``--peer N``, installed into benchmarks/.peers only). Prints the constants for
``sudoku_engine/difficulty.py``.

Run: ``.venv/bin/python benchmarks/fit_difficulty.py [--fit 600] [--check 600] [--peer 0]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

import numpy as np
from corpus_stats import goodman_kruskal_gamma, read_tsv, spearman
from rating import peer_python, peer_rate

from sudoku_engine import difficulty, solver
from sudoku_engine.grid import Grid, parse_values
from sudoku_engine.isomorph import canonical
from sudoku_engine.logic import solve as logic_solve
from sudoku_engine.metrics import measure
from sudoku_engine.rating import rate_trace

MENNESKE = ("Super easy", "Very easy", "Easy", "Medium", "Hard", "Harder", "Very hard", "Super hard", "Impossible")
USED = ("call_count", "findling", "r_reduction", "schemes")  # hsolve is reported, not a feature of D


def features_of(puzzle: str) -> tuple[float, ...]:
    """The feature vector of D for one puzzle (measured on its canonical form, like ``rate``)."""
    form = canonical(parse_values(puzzle))
    se_like, score, _level, _hardest = rate_trace(logic_solve(Grid(form)))
    return difficulty.features(se_like, score, measure(form, names=USED))


def samples(fit: int, check: int) -> tuple[list[dict[str, str]], list[dict[str, str]], list[dict[str, str]]]:
    """Disjoint seeded fit and check samples of the SE-rated rows, and a menneske sample."""
    rows = [r for r in read_tsv("sudokuexchange_graded_even.tsv") if r["se_rating"]]
    random.Random(2024).shuffle(rows)
    menneske = read_tsv("menneske_graded_even.tsv")
    random.Random(2025).shuffle(menneske)
    return rows[:fit], rows[fit : fit + check], menneske[:check]


def main() -> None:
    """Fit, check, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=int, default=600, help="SE-rated puzzles to fit on")
    parser.add_argument("--check", type=int, default=600, help="puzzles per check set")
    parser.add_argument("--peer", type=int, default=0, help="check puzzles also rated by hodoku-py (0: none)")
    options = parser.parse_args()
    solver.warm_up()
    fit_rows, se_rows, menneske_rows = samples(options.fit, options.check)
    x = np.array([features_of(r["puzzle"]) for r in fit_rows])
    y = np.array([float(r["se_rating"]) for r in fit_rows])
    # se_like keeps weight 1: the other features are fitted to what it leaves (SE rating - se_like), so D is
    # se_like refined, on the same scale
    design = np.column_stack([np.ones(len(x)), x])
    rest, *_ = np.linalg.lstsq(np.column_stack([np.ones(len(x)), x[:, 1:]]), y - x[:, 0], rcond=None)
    coef = np.concatenate([rest[:1], [1.0], rest[1:]])
    spread = float(np.std(design @ coef - x[:, 0]))
    d_fit = np.array([_d(row, coef, spread) for row in x])
    slope, intercept = np.polyfit(d_fit, x[:, difficulty.FEATURES.index("ln_call_count")], 1)
    print(f"fit on {len(fit_rows)} SE-rated puzzles of sudokuexchange_graded_even.tsv (seed 2024)")
    print(f"INTERCEPT = {coef[0]:.4f}")
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in coef[1:]) + ")")
    print("MEANS = (" + ", ".join(f"{m:.3f}" for m in x.mean(axis=0)) + ")")
    print(f"REFINEMENT_SD = {spread:.4f}")
    print(f"CALL_COUNT_INTERCEPT = {intercept:.4f}\nCALL_COUNT_SLOPE = {slope:.4f}")
    for name, w, sd in zip(difficulty.FEATURES, coef[1:], x.std(axis=0)):
        print(f"  {name:15} weight {w:+.4f}  weight x sd {w * sd:+.4f}")
    check(se_rows, menneske_rows, coef, spread, options.peer)


def _d(row: np.ndarray, coef: np.ndarray, spread: float) -> float:
    """D from a feature row, as sudoku_engine.difficulty.score computes it with these coefficients."""
    refinement = coef[0] + float(np.dot(coef[2:], row[1:]))
    return float(row[0] + difficulty.TIE_WIDTH * math.tanh(refinement / spread))


def check(
    se_rows: list[dict[str, str]], menneske_rows: list[dict[str, str]], coef: np.ndarray, spread: float, peer: int
) -> None:
    """Agreement of D (with the fitted coefficients) on the held-out SE sample and on menneske."""
    for label, rows, truth in (
        ("sudokuexchange (held out), SE rating", se_rows, [float(r["se_rating"]) for r in se_rows]),
        ("menneske grade", menneske_rows, [float(MENNESKE.index(r["menneske_grade"])) for r in menneske_rows]),
    ):
        x = np.array([features_of(r["puzzle"]) for r in rows])
        d = np.array([_d(row, coef, spread) for row in x])
        se_like, ln_hodoku = x[:, 0], x[:, 1]
        print(f"\n{label}, {len(rows)} puzzles: Spearman rho D {spearman(d, truth):.3f}, se_like "
              f"{spearman(se_like, truth):.3f}, hodoku_like {spearman(ln_hodoku, truth):.3f}")
        if label.startswith("menneske"):
            gamma_d, gamma_se = goodman_kruskal_gamma(list(d), truth), goodman_kruskal_gamma(list(se_like), truth)
            print(f"  Goodman-Kruskal gamma vs grade: D {gamma_d:.3f} (seed 002 reports 0.82 for its "
                  f"m(B) against 8 external grades), se_like {gamma_se:.3f}")
        if peer:
            python = peer_python()
            if python is not None:
                picked = [r["puzzle"] for r in rows[:peer]]
                theirs = peer_rate(python, picked)
                rho = spearman([score for _t, score, _level in theirs], truth[:peer])
                print(f"  hodoku-py score rho on the first {len(picked)}: {rho:.3f} (D on the same: "
                      f"{spearman(d[:peer], truth[:peer]):.3f})")
        minutes = [difficulty.predicted_minutes(v) for v in d]
        print(f"  D range {min(d):.2f}..{max(d):.2f}; predicted minutes median {statistics.median(minutes):.1f}, "
              f"range {min(minutes):.1f}..{max(minutes):.1f}")


if __name__ == "__main__":
    main()
