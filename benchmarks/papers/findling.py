"""Seed 001 (Findling): logic steps, guesses and backtracks, ours beside the paper's figures.

The paper reports, for its own solver: the empty grid solved with 2289 guesses and 2230 backtracks, its first rows
123456789 and 456789123; AI Escargot solved in 18530 iterative steps (17836 logic, 1386 guesses, 1375
backtracks); easy and medium puzzles solved by logic alone; evil puzzles needing 500 to 25,425 guesses. Its 40
test puzzles are not published as text, so the per-grade figures here come from ``--sample N`` puzzles per grade
(seeded random draw) of the graded corpora: Sudoku Exchange (easy / medium / hard / diabolical), menneske.no
(nine grades) and the Kaggle curated set (five levels): the share solved without a guess, mean and maximum
guesses, and the Spearman rho of guesses against the grade order. The ten named puzzles of
``famous_hard_puzzles.tsv`` are listed in full.

Run: ``.venv/bin/python benchmarks/papers/findling.py [--sample N] [--seed K]``.
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

from sudoku_engine.metrics.findling import DEFAULT_CAP, findling

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/, for the shared corpus_stats
from corpus_stats import p95, read_tsv, spearman  # noqa: E402

SEED = "001 Findling"
FAMOUS = "famous_hard_puzzles.tsv"
PAPER_ESCARGOT = {"logic": 17836, "guesses": 1386, "backtracks": 1375, "steps": 18530}
PAPER_EMPTY = {"guesses": 2289, "backtracks": 2230}
FIRST_ROWS = "123456789456789123"
ROWS_MEASURE = "first rows 123456789/456789123"
# file, grade column, grades in order
FILES: list[tuple[str, str, list[str]]] = [
    ("sudokuexchange_graded_even.tsv", "bucket", ["easy", "medium", "hard", "diabolical"]),
    (
        "menneske_graded_even.tsv",
        "menneske_grade",
        ["Super easy", "Very easy", "Easy", "Medium", "Hard", "Harder", "Very hard", "Super hard", "Impossible"],
    ),
    ("kaggle3m_curated_graded_even.tsv", "goldenfox_level", ["Beginner", "Easy", "Medium", "Hard", "Expert"]),
]
Record = dict[str, str]


def row(dataset: str, group: str, measure: str, n: int, ours: float, paper: float | None = None) -> dict[str, Any]:
    """One figure of the report."""
    return {"seed": SEED, "dataset": dataset, "group": group, "measure": measure, "n": n, "ours": ours, "paper": paper}


def named_rows() -> list[dict[str, Any]]:
    """The empty grid and every named puzzle: counts beside the paper's where it gives them."""
    out: list[dict[str, Any]] = []
    empty = findling("." * 81)
    text = str(empty.solution)
    out.append(row("empty grid", "empty grid", ROWS_MEASURE, 1, float(text[:18] == FIRST_ROWS), 1.0))
    for measure in ("logic", "guesses", "backtracks", "steps"):
        out.append(row("empty grid", "empty grid", measure, 1, getattr(empty, measure), PAPER_EMPTY.get(measure)))
    for item in read_tsv(FAMOUS):
        result = findling(item["puzzle"])
        name = item["puzzle_name"]
        paper = PAPER_ESCARGOT if name == "AI Escargot" else {}
        for measure in ("logic", "guesses", "backtracks", "steps"):
            out.append(row(FAMOUS, name, measure, 1, getattr(result, measure), paper.get(measure)))
        out.append(row(FAMOUS, name, "capped", 1, float(result.capped)))
    return out


def file_rows(name: str, column: str, grades: list[str], sample: int, seed: int) -> list[dict[str, Any]]:
    """The figures of one graded file: per-grade guessing, rank correlation, caps and time."""
    rng = random.Random(seed)
    table = read_tsv(name)
    out: list[dict[str, Any]] = []
    guesses: list[float] = []
    order: list[int] = []
    times: list[float] = []
    capped = 0
    for index, grade in enumerate(grades):
        pool = [item["puzzle"] for item in table if item[column] == grade]
        chosen = rng.sample(pool, min(sample, len(pool)))
        counts = []
        for puzzle in chosen:
            started = time.perf_counter()
            result = findling(puzzle)
            times.append((time.perf_counter() - started) * 1000)
            counts.append(result.guesses)
            capped += result.capped
        guesses += counts
        order += [index] * len(counts)
        n = len(counts)
        out.append(row(name, grade, "share solved by logic alone", n, sum(c == 0 for c in counts) / n))
        out.append(row(name, grade, "mean guesses", n, statistics.fmean(counts)))
        out.append(row(name, grade, "median guesses", n, statistics.median(counts)))
        out.append(row(name, grade, "max guesses", n, max(counts)))
    out.append(row(name, "all", "Spearman rho of guesses vs grade order", len(guesses), spearman(guesses, order)))
    out.append(row(name, "all", f"puzzles capped ({DEFAULT_CAP} placements)", len(guesses), capped))
    out.append(row(name, "all", "ms per puzzle, median", len(times), statistics.median(times)))
    out.append(row(name, "all", "ms per puzzle, p95", len(times), p95(times)))
    return out


def rows(sample: int = 40, seed: int = 0) -> list[dict[str, Any]]:
    """Every figure of the reproduction, ``sample`` puzzles per grade of each graded file."""
    figures = named_rows()
    for name, column, grades in FILES:
        figures += file_rows(name, column, grades, sample, seed)
    return figures


def fmt(value: float | None) -> str:
    """A figure as text: integers plain, others to 2 decimals, None as a dash."""
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def print_table(figures: list[dict[str, Any]], measures: list[str], with_paper: bool) -> None:
    """Figures pivoted: a line per group, a column per measure (ours, and the paper's in brackets)."""
    print(f"\n{figures[0]['dataset']}")
    lines = []
    for group in dict.fromkeys(f["group"] for f in figures if f["group"] != "all"):
        mine = {f["measure"]: f for f in figures if f["group"] == group}
        cells = []
        for measure in measures:
            figure = mine.get(measure)
            text = fmt(figure["ours"]) if figure else ""
            if with_paper and figure and figure["paper"] is not None:
                text += f" ({fmt(figure['paper'])})"
            cells.append(text)
        lines.append((group, cells))
    widths = [max(len(m), *(len(cells[i]) for _, cells in lines)) + 2 for i, m in enumerate(measures)]
    print("  " + f"{'group':<30}" + "".join(f"{m:>{w}}" for m, w in zip(measures, widths)))
    for group, cells in lines:
        print("  " + f"{group[:30]:<30}" + "".join(f"{c:>{w}}" for c, w in zip(cells, widths)))
    for f in figures:
        if f["group"] == "all":
            print(f"  {f['measure']:<44} n={f['n']:<6} {fmt(f['ours'])}")


def main(argv: Sequence[str] | None = None) -> None:
    """Print the reproduction: named puzzles beside the paper's counts, then per-grade guessing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=40, help="puzzles per grade of each file (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the per-grade draw")
    args = parser.parse_args(argv)
    print("Findling: singles (naked, then hidden) + guess on the first empty cell, smallest digit + chronological")
    print("backtracking; the paper's figures in brackets (its own solver, on its own puzzles where not named)")
    print(f"{args.sample} puzzles per grade of each graded file, drawn with seed {args.seed}")
    figures = rows(args.sample, args.seed)
    named = ["logic", "guesses", "backtracks", "steps"]
    print_table([f for f in figures if f["dataset"] == "empty grid"], [ROWS_MEASURE, *named], with_paper=True)
    print_table([f for f in figures if f["dataset"] == FAMOUS], [*named, "capped"], with_paper=True)
    graded = ["share solved by logic alone", "mean guesses", "median guesses", "max guesses"]
    for name, _, _ in FILES:
        print_table([f for f in figures if f["dataset"] == name], graded, with_paper=False)


if __name__ == "__main__":
    main()
