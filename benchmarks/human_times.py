"""Predicted minutes against people's: the time model (``sudoku_engine.time_model``) on real solving times.

The people: ``cloudsudoku_human_times_even.tsv`` (the shared half of the Cloud Sudoku dataset: each puzzle's mean
time over the 10-43 players of an Android app who finished it) and seed 000's four levels (Tables I and II: the mean
minutes of 15 volunteers; the puzzles of the graded corpora whose call count lies within a factor 1.5 of a level's
mean call count stand for that level, as ``fit_difficulty.py`` did for the former model).

1. **The engine as it is**, on the shared half: Pearson r and Spearman of log predicted against log people's minutes,
   the slope of log people's on log predicted, and the median predicted / people's time for singles-only puzzles,
   other puzzles with SE < 4.5 and those with SE >= 4.5 (SE: the hardest step, ``se_like``). These are in-sample:
   the constants were fitted on this half.
2. **The fit, out of fold.** The model's nine constants (the scale of each population, three single weights, the two
   search powers, the weight and score power of other steps) are fitted by least squares with a soft-L1 loss (a
   puzzle whose mean one absent-minded finisher inflated pulls on it less) on log minutes, the four seed 000 levels
   weighing ``--lab-weight`` puzzles each; ``--folds`` folds of the half (seeded), each predicted by the fit on the
   others. The same figures, out of fold; then the constants fitted on the whole half, as Python for the engine
   (``--constants``).
3. **The noise.** Each mean comes from few finishers: the residual spread by number of finishers, and the split of
   the squared robust residual into the model's part and the players' part (var = model + players' CV^2 / n,
   weighted least squares over finisher bands), which sets ``MODEL_SD`` and ``PLAYER_SD``; r over the puzzles with 20
   finishers or more.
4. **pencilmark's** ``time`` on the same puzzles, when it installs into the benchmarks' own environment
   (``benchmarks/.peers``, never a dependency of the project).

Run: ``.venv/bin/python benchmarks/human_times.py [--folds 10] [--lab-sample 1200] [--constants] [--no-peers]``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool

import numpy as np
from corpus_stats import read_tsv, spearman
from scipy.optimize import least_squares

from sudoku_engine import solver, time_model
from sudoku_engine.grid import Grid
from sudoku_engine.isomorph import canonical
from sudoku_engine.logic import technique_trace
from sudoku_engine.rating import rate

HALF = "cloudsudoku_human_times_even.tsv"
SINGLE_KINDS = ("full_house", "hidden_single_box", "hidden_single_line", "naked_single")
SEED000_CALL_COUNTS = (6.234043, 29.2093, 98.2093, 527.4318)  # seed 000, Table I
SEED000_MINUTES = (14.73, 21.47, 32.14, 45.25)  # seed 000, Table II
GROUPS = ("singles only", "SE < 4.5", "SE >= 4.5")
FINISHER_BANDS = ((10, 11), (11, 12), (12, 13), (13, 15), (15, 17), (17, 20), (20, 25), (25, 50))
START = (-5.0, -4.5, 0.0, 0.5, 1.5, 0.45, 1.1, 0.5, 0.0)  # ln app, ln lab, ln weights (3), G, H, ln other, go


@dataclass
class Puzzle:
    """What the fit needs of one rated puzzle: its steps as (kind, HoDoKu score, empty, singles) rows."""

    puzzle: str
    steps: np.ndarray
    d: float
    se_like: float
    singles_only: bool
    predicted: float
    call_count: float


def rate_one(puzzle: str) -> Puzzle:
    """Rate a puzzle and keep its trace's steps (on the canonical form, as ``rate`` traces it)."""
    rating = rate(puzzle)
    traced = technique_trace(Grid(canonical(Grid.parse(puzzle).values)))
    rows = [
        (SINGLE_KINDS.index(tech.id) if tech.id in SINGLE_KINDS else 4, tech.hodoku_score, empty, singles)
        for (tech, _step), (empty, singles) in zip(traced.steps, traced.options, strict=True)
    ]
    cc = rating.metrics.call_count
    return Puzzle(
        puzzle,
        np.array(rows, dtype=np.float64),
        rating.d,
        rating.se_like,
        rating.singles_only,
        rating.predicted_minutes,
        math.nan if cc is None else float(cc),
    )


def rate_all(puzzles: Sequence[str], jobs: int) -> list[Puzzle]:
    """Rate puzzles over worker processes."""
    with Pool(jobs) as pool:
        return pool.map(rate_one, puzzles, chunksize=8)


def log_work(theta: np.ndarray, items: Sequence[Puzzle]) -> np.ndarray:
    """ln(work) of each puzzle under constants ``theta`` (vectorised ``time_model.work``)."""
    weights = np.exp(np.array([0.0, theta[2], theta[3], theta[4]]))
    g, h, other, go = theta[5], theta[6], math.exp(theta[7]), theta[8]
    out = np.empty(len(items))
    for i, item in enumerate(items):
        kind, score, empty, singles = item.steps.T
        single = kind < 4
        search = (empty + 1) ** h
        costs = np.where(
            single,
            weights[np.minimum(kind, 3).astype(int)] * search / (singles + 1) ** g,
            other * (score / 50.0) ** go * search,
        )
        out[i] = math.log(max(costs.sum(), 1e-9))
    return out


def engine_theta() -> np.ndarray:
    """The engine's constants as a ``theta`` vector."""
    w = time_model.SINGLE_WEIGHTS
    return np.array(
        [
            math.log(time_model.POPULATIONS["app"]),
            math.log(time_model.POPULATIONS["lab"]),
            *(math.log(w[k]) for k in SINGLE_KINDS[1:]),
            time_model.SINGLES_POWER,
            time_model.SEARCH_POWER,
            math.log(time_model.OTHER_WEIGHT),
            time_model.SCORE_POWER,
        ]
    )


def lab_levels(pool: Sequence[Puzzle]) -> list[list[Puzzle]]:
    """The rated puzzles standing for each of seed 000's levels (call count within a factor 1.5 of its mean)."""
    return [
        [p for p in pool if math.isfinite(p.call_count) and abs(math.log(p.call_count / calls)) <= math.log(1.5)]
        for calls in SEED000_CALL_COUNTS
    ]


def residuals(
    theta: np.ndarray, items: Sequence[Puzzle], y: np.ndarray, levels: Sequence[Sequence[Puzzle]], lab_weight: float
) -> np.ndarray:
    """Log residuals: each puzzle of the half, then each lab level (its puzzles' median ln work) weighted."""
    own = theta[0] + log_work(theta, items) - y
    lab = [
        theta[1] + float(np.median(log_work(theta, level))) - math.log(minutes)
        for level, minutes in zip(levels, SEED000_MINUTES, strict=True)
    ]
    return np.concatenate([own, math.sqrt(lab_weight) * np.array(lab)])


def fit(items: Sequence[Puzzle], y: np.ndarray, levels: Sequence[Sequence[Puzzle]], lab_weight: float) -> np.ndarray:
    """The constants fitted to the puzzles' log minutes and the lab levels."""
    found = least_squares(residuals, np.array(START), args=(items, y, levels, lab_weight), loss="soft_l1", f_scale=0.3)
    return np.asarray(found.x)


def figures(label: str, items: Sequence[Puzzle], predicted: np.ndarray, people: np.ndarray) -> None:
    """Print r, Spearman, slope and the median ratio per group."""
    lp, ly = np.log(predicted), np.log(people)
    slope = float(np.polyfit(lp, ly, 1)[0])
    r = float(np.corrcoef(lp, ly)[0, 1])
    print(
        f"  {label}: Pearson r (log) {r:.3f}, Spearman {spearman(list(predicted), list(people)):.3f}, "
        f"slope {slope:.3f} (target 0.85-1.15), {len(items)} puzzles"
    )
    ratio = predicted / people
    for name in GROUPS:
        keep = [i for i, p in enumerate(items) if group_of(p) == name]
        if keep:
            print(f"    {name:13} {len(keep):4} puzzles: median predicted / people's {np.median(ratio[keep]):.3f}")


def group_of(item: Puzzle) -> str:
    """The comparison group of a puzzle: singles only, else by its hardest step's SE."""
    if item.singles_only:
        return GROUPS[0]
    return GROUPS[1] if item.se_like < 4.5 else GROUPS[2]


def out_of_fold(
    items: Sequence[Puzzle], y: np.ndarray, levels: Sequence[Sequence[Puzzle]], folds: int, lab_weight: float
) -> np.ndarray:
    """Each puzzle's predicted ln minutes by the fit on the folds without it."""
    order = np.random.default_rng(2029).permutation(len(items))
    predicted = np.empty(len(items))
    for k in range(folds):
        held = order[k::folds]
        kept = np.setdiff1d(order, held)
        theta = fit([items[i] for i in kept], y[kept], levels, lab_weight)
        predicted[held] = theta[0] + log_work(theta, [items[i] for i in held])
    return predicted


def noise(items: Sequence[Puzzle], y: np.ndarray, predicted: np.ndarray, finishers: np.ndarray) -> None:
    """The residual spread by number of finishers and its split into the model's and the players' parts."""
    residual = y - predicted
    print("\nnoise: each mean comes from 10-43 finishers")
    xs, ys, ws = [], [], []
    for low, high in FINISHER_BANDS:
        keep = (finishers >= low) & (finishers < high)
        part = residual[keep]
        robust = float(np.median(np.abs(part - np.median(part))) * 1.4826)
        print(
            f"  {low:2}-{high - 1:2} finishers: {keep.sum():4} puzzles, residual SD {part.std():.3f}, "
            f"robust {robust:.3f}"
        )
        xs.append(float(np.mean(1.0 / finishers[keep])))
        ys.append(robust**2)
        ws.append(float(keep.sum()))
    slope, intercept = np.polyfit(xs, ys, 1, w=np.sqrt(ws))
    model_sd = math.sqrt(max(intercept, 0.0))
    player_sd = math.sqrt(math.log1p(max(slope, 0.0)))
    share = 1 - intercept / float(np.mean(ys))
    print(
        f"  robust var = {intercept:.4f} + {slope:.4f} / n: the model's own error SD {model_sd:.3f}, one player's "
        f"log SD {player_sd:.3f} (CV^2 {slope:.3f}); finishers' noise is {share:.0%} of the residual variance"
    )
    many = finishers >= 20
    r = float(np.corrcoef(predicted[many], y[many])[0, 1])
    print(f"  over the {many.sum()} puzzles with 20 finishers or more: Pearson r {r:.3f}")


def pencilmark(items: Sequence[Puzzle], people: np.ndarray, limit: float) -> None:
    """pencilmark's predicted time on the same puzzles, when it can be installed."""
    from scale import peer_run

    found = peer_run("pencilmark", [p.puzzle for p in items], limit)
    keep = [i for i, f in enumerate(found) if f is not None and f[1] > 0]
    if not keep:
        print("\npencilmark: not available")
        return
    theirs = np.array([found[i][1] for i in keep])  # type: ignore[index]
    print(f"\npencilmark's time, {len(keep)} of {len(items)} puzzles rated within {limit:.0f} s:")
    figures("pencilmark", [items[i] for i in keep], theirs, people[keep])


def main() -> None:
    """Rate the half and the lab pool, print every figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=10, help="folds of the cross-validation (default 10)")
    parser.add_argument("--lab-sample", type=int, default=1200, help="graded puzzles searched for seed 000's levels")
    parser.add_argument("--lab-weight", type=float, default=5.0, help="puzzles each lab level weighs as (default 5)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--peer-limit", type=float, default=30.0, help="seconds per puzzle for pencilmark")
    parser.add_argument("--no-peers", action="store_true", help="leave pencilmark out")
    parser.add_argument("--constants", action="store_true", help="print the whole-half fit as the engine's constants")
    options = parser.parse_args()
    solver.warm_up()
    started = time.perf_counter()
    rows = read_tsv(HALF)
    items = rate_all([r["puzzle"] for r in rows], options.jobs)
    people = np.array([float(r["human_mean_s"]) / 60 for r in rows])
    finishers = np.array([float(r["n_solvers"]) for r in rows])
    engine = np.array([p.predicted for p in items])
    check = np.exp(engine_theta()[0] + log_work(engine_theta(), items))
    assert np.allclose(check, engine, rtol=1e-9), "the vectorised model differs from time_model.work"
    graded = [r["puzzle"] for r in read_tsv("sudokuexchange_graded_even.tsv")]
    graded += [r["puzzle"] for r in read_tsv("kaggle3m_curated_graded_even.tsv")]
    graded += [r["puzzle"] for r in read_tsv("menneske_graded_even.tsv")]
    random.Random(2028).shuffle(graded)
    levels = lab_levels(rate_all(graded[: options.lab_sample], options.jobs))
    print(
        f"{len(items)} puzzles of {HALF}, people's minutes {people.min():.1f}-{people.max():.1f} (median "
        f"{np.median(people):.1f}); seed 000's levels stood for by {[len(level) for level in levels]} graded puzzles"
    )
    print("\nthe engine as it is (in-sample: its constants were fitted on this half):")
    figures("engine", items, engine, people)
    lab = [
        time_model.POPULATIONS["lab"] / time_model.POPULATIONS["app"] * float(np.median([p.predicted for p in level]))
        for level in levels
    ]
    print("    seed 000's levels: " + ", ".join(f"{m:.1f} (Table II {t:.1f})" for m, t in zip(lab, SEED000_MINUTES)))
    y = np.log(people)
    oof = out_of_fold(items, y, levels, options.folds, options.lab_weight)
    print(f"\nout of fold ({options.folds} folds, each fitted on the others):")
    figures("out of fold", items, np.exp(oof), people)
    noise(items, y, oof, finishers)
    theta = fit(items, y, levels, options.lab_weight)
    whole = theta[0] + log_work(theta, items)
    top = float(np.exp(whole).max())
    print(f"\nwhole-half fit: hardest D fitted {max(p.d for p in items):.2f}, longest prediction {top:.1f} min")
    if options.constants:
        weights = ", ".join(f'"{k}": {math.exp(w):.4f}' for k, w in zip(SINGLE_KINDS[1:], theta[2:5]))
        print(f'SINGLE_WEIGHTS = {{"full_house": 1.0, {weights}}}')
        print(f"SINGLES_POWER = {theta[5]:.4f}\nSEARCH_POWER = {theta[6]:.4f}")
        print(f"OTHER_WEIGHT = {math.exp(theta[7]):.4f}\nSCORE_POWER = {theta[8]:.4f}")
        print(f'POPULATIONS = {{"app": {math.exp(theta[0]):.6f}, "lab": {math.exp(theta[1]):.6f}}}')
    print(f"lab / app scale: {math.exp(theta[1] - theta[0]):.2f}")
    if not options.no_peers:
        pencilmark(items, people, options.peer_limit)
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
