"""Seed 000 (Fatemi, Kazemi, Mehrasa 2014), Table I: mean call count per difficulty level, ours beside the paper's.

The paper rated 100 websudoku puzzles per level (Easy, Medium, Hard, Evil), 10 runs each, removed outliers with
its IQR rule and reported the level means 6.23 / 29.21 / 98.21 / 527.43. Websudoku's puzzles are not in the
corpus, so this takes ``--sample N`` puzzles per grade (seeded random draw) from the graded corpora: Sudoku
Exchange (easy / medium / hard / diabolical: the paper's four levels are set beside these), menneske.no (nine
grades) and the Kaggle curated set (five levels). For each grade: puzzles, puzzles kept by the IQR rule, the mean
call count of those kept, the median, and the ratio to the previous grade's mean; for each file the Spearman rho
of call count against the grade order (and against the numeric rating where the file has one), the capped runs
and the time per puzzle.

Run: ``.venv/bin/python benchmarks/papers/fatemi.py [--sample N] [--seed K]``.
``rows(sample)`` returns the figures as dicts (seed, dataset, group, measure, n, ours, paper) for a combined report.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sudoku_engine.metrics.fatemi import DEFAULT_CAP, call_count, iqr_filter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/, for the shared corpus_stats
from corpus_stats import p95, read_tsv, spearman  # noqa: E402

SEED = "000 Fatemi"
PAPER = {"Easy": 6.234043, "Medium": 29.2093, "Hard": 98.2093, "Evil": 527.4318}
# file, grade column, grades in order, paper level per grade, numeric rating column (or None)
Record = dict[str, str]
Spec = tuple[str, str, list[str], dict[str, str], str | None]
FILES: list[Spec] = [
    (
        "sudokuexchange_graded_even.tsv",
        "bucket",
        ["easy", "medium", "hard", "diabolical"],
        {"easy": "Easy", "medium": "Medium", "hard": "Hard", "diabolical": "Evil"},
        "se_rating",
    ),
    (
        "menneske_graded_even.tsv",
        "menneske_grade",
        ["Super easy", "Very easy", "Easy", "Medium", "Hard", "Harder", "Very hard", "Super hard", "Impossible"],
        {},
        None,
    ),
    (
        "kaggle3m_curated_graded_even.tsv",
        "goldenfox_level",
        ["Beginner", "Easy", "Medium", "Hard", "Expert"],
        {},
        "radcliffe_difficulty",
    ),
]


def sample_by_grade(table: list[dict[str, str]], column: str, grades: list[str], n: int, seed: int) -> list[Record]:
    """Up to ``n`` rows of each grade, drawn at random with a fixed seed."""
    rng = random.Random(seed)
    chosen: list[dict[str, str]] = []
    for grade in grades:
        pool = [line for line in table if line[column] == grade]
        chosen += rng.sample(pool, min(n, len(pool)))
    return chosen


def row(dataset: str, group: str, measure: str, n: int, ours: float, paper: float | None = None) -> dict[str, Any]:
    """One figure of the report."""
    return {"seed": SEED, "dataset": dataset, "group": group, "measure": measure, "n": n, "ours": ours, "paper": paper}


def file_rows(spec: Spec, sample: int, seed: int) -> list[dict[str, Any]]:
    """The figures of one graded file: per-grade IQR means, rank correlations, caps and time."""
    name, column, grades, levels, rating = spec
    chosen = sample_by_grade(read_tsv(name), column, grades, sample, seed)
    counts, times, capped = [], [], 0
    for item in chosen:
        started = time.perf_counter()
        result = call_count(item["puzzle"])
        times.append((time.perf_counter() - started) * 1000)
        counts.append(result.mean)
        capped += result.capped
    out: list[dict[str, Any]] = []
    previous = None
    for grade in grades:
        values = [c for c, item in zip(counts, chosen) if item[column] == grade]
        if not values:
            continue
        kept = iqr_filter(values)
        mean = statistics.fmean(kept)
        paper = PAPER.get(levels.get(grade, ""))
        out.append(row(name, grade, "puzzles kept by the IQR rule", len(values), len(kept)))
        out.append(row(name, grade, "mean call count after IQR removal", len(values), mean, paper))
        out.append(row(name, grade, "median call count", len(values), statistics.median(values)))
        if previous:
            out.append(row(name, grade, "ratio to previous grade's mean", len(values), mean / previous))
        previous = mean
    order = [grades.index(item[column]) for item in chosen]
    out.append(row(name, "all", f"Spearman rho vs {column} order", len(chosen), spearman(counts, order)))
    if rating:
        rated = [(c, float(item[rating])) for c, item in zip(counts, chosen) if item[rating]]
        if len(rated) > 2:
            out.append(row(name, "rated", f"Spearman rho vs {rating}", len(rated), spearman(*zip(*rated))))
    out.append(row(name, "all", "puzzles with a capped run", len(chosen), capped))
    out.append(row(name, "all", "ms per puzzle, median", len(chosen), statistics.median(times)))
    out.append(row(name, "all", "ms per puzzle, p95", len(chosen), p95(times)))
    return out


def rows(sample: int = 40, seed: int = 0) -> list[dict[str, Any]]:
    """Every figure of the reproduction, ``sample`` puzzles per grade of each graded file."""
    return [figure for spec in FILES for figure in file_rows(spec, sample, seed)]


def fmt(value: float | None) -> str:
    """A figure as text: integers plain, others to 2 decimals, None as a dash."""
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


GRADE_COLUMNS = [
    ("n", "puzzles"),
    ("puzzles kept by the IQR rule", "kept"),
    ("mean call count after IQR removal", "IQR mean"),
    ("median call count", "median"),
    ("ratio to previous grade's mean", "ratio"),
]


def print_file(figures: list[dict[str, Any]]) -> None:
    """One file's figures: a line per grade (paper's level mean last), then the file-wide figures."""
    print(f"\n{figures[0]['dataset']}")
    print("  " + f"{'grade':<12}" + "".join(f"{title:>10}" for _, title in GRADE_COLUMNS) + f"{'paper':>10}")
    grades = list(dict.fromkeys(f["group"] for f in figures if f["group"] not in ("all", "rated")))
    for grade in grades:
        mine = {f["measure"]: f for f in figures if f["group"] == grade}
        cells = [fmt(mine[m]["ours"]) if m in mine else "" for m, _ in GRADE_COLUMNS[1:]]
        paper = mine["mean call count after IQR removal"]["paper"]
        n = mine["median call count"]["n"]
        print("  " + f"{grade:<12}{n:>10}" + "".join(f"{c:>10}" for c in cells) + f"{fmt(paper):>10}")
    for f in figures:
        if f["group"] in ("all", "rated"):
            print(f"  {f['measure']:<44} n={f['n']:<6} {fmt(f['ours'])}")


def main(argv: Sequence[str] | None = None) -> None:
    """Print the reproduction of Table I."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=40, help="puzzles per grade of each file (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the per-grade draw")
    args = parser.parse_args(argv)
    print("Paper, Table I (100 websudoku puzzles per level, 10 runs each, IQR outliers removed):")
    print("  " + "   ".join(f"{level} {value:.1f}" for level, value in PAPER.items()))
    print(f"Ours: call_count (10 runs, seed 0, cap {DEFAULT_CAP} calls per run)", end="; ")
    print(f"{args.sample} puzzles per grade, drawn with seed {args.seed}")
    figures = rows(args.sample, args.seed)
    for dataset in dict.fromkeys(f["dataset"] for f in figures):
        print_file([f for f in figures if f["dataset"] == dataset])


if __name__ == "__main__":
    main()
