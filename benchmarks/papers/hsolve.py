"""Seed 002 (MCM 2008, hsolve), section 3.2-3.3: spread of m(B) over 20 runs, and agreement with external grades.

The paper reports sigma/mean of about 1/10 with 20 runs per puzzle, and a Goodman-Kruskal gamma of 0.82 between
m(B) and 8 external grades (800 puzzles). This script measures, on a stratified sample of each graded file:

- sigma/mean of the 20 runs of each puzzle (median over puzzles), and the same for the 20-run mean m(B) itself
  (sigma / sqrt(runs) / mean), since the paper's sentence fits either reading;
- Goodman-Kruskal gamma and Spearman rho of m(B) against the file's grades: ``menneske_graded_even.tsv``
  (menneske.no grades Super easy .. Super hard, 8 grades, and with Impossible, 9) and
  ``sudokuexchange_graded_even.tsv`` (the Sudoku Explainer rating where given, easy and medium rows below every
  rating, as 1.0 and 2.0; and its four buckets easy < medium < hard < diabolical);
- time per puzzle (median, p95) and how many puzzles hit the work cap.

Run: ``.venv/bin/python benchmarks/papers/hsolve.py [--sample N] [--file menneske|exchange|both] [--jobs J]
[--runs R] [--cap C]`` (N puzzles per file, stratified by grade, default 100). Wall and CPU seconds are both shown:
the CPU time is what a puzzle costs when the machine is shared.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path

from sudoku_engine.metrics.hsolve import DEFAULT_CAP, DEFAULT_RUNS, hsolve

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/, for the shared corpus_stats
from corpus_stats import DATA, goodman_kruskal_gamma, spearman  # noqa: E402

MENNESKE = "menneske_graded_even.tsv"
EXCHANGE = "sudokuexchange_graded_even.tsv"
MENNESKE_GRADES = (
    "Super easy",
    "Very easy",
    "Easy",
    "Medium",
    "Hard",
    "Harder",
    "Very hard",
    "Super hard",
    "Impossible",
)
EXCHANGE_BUCKETS = ("easy", "medium", "hard", "diabolical")
# Sudoku Exchange easy rows are rated below 1.5, medium below 2.5, and every rated row 2.5 or more.
UNRATED_KEY = {"easy": 1.0, "medium": 2.0}


def read_graded(name: str) -> list[tuple[str, str, float, int]]:
    """(puzzle, grade label, grade key, stratum) rows of a graded file."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    found = []
    for line in lines[1:]:
        cells = dict(zip(header, line.split("\t")))
        if name == MENNESKE:
            label = cells["menneske_grade"]
            key = float(MENNESKE_GRADES.index(label))
            stratum = int(key)
        else:
            bucket = cells["bucket"]
            rating = cells.get("se_rating", "")
            label = rating or bucket
            key = float(rating) if rating else UNRATED_KEY[bucket]
            stratum = EXCHANGE_BUCKETS.index(bucket)
        found.append((cells["puzzle"], label, key, stratum))
    return found


def stratified(rows: list[tuple[str, str, float, int]], n: int) -> list[tuple[str, str, float, int]]:
    """About n rows, as many from each stratum (evenly spaced within it), in file order."""
    strata: dict[int, list[int]] = {}
    for index, row in enumerate(rows):
        strata.setdefault(row[3], []).append(index)
    per = max(1, n // len(strata))
    chosen = []
    for indices in strata.values():
        take = min(per, len(indices))
        chosen.extend(indices[(k * len(indices)) // take] for k in range(take))
    return [rows[i] for i in sorted(chosen)]


def _measure(task: tuple[str, str, str, float, int, int, int, int]) -> dict[str, object]:
    """Rate one puzzle with hsolve; the row of the report."""
    name, puzzle, label, key, stratum, runs, seed, cap = task
    started, cpu = time.perf_counter(), time.process_time()
    result = hsolve(puzzle, runs=runs, seed=seed, cap=cap)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    count = len(result.per_run)
    return {
        "file": name,
        "puzzle": puzzle,
        "grade": label,
        "grade_key": key,
        "stratum": stratum,
        "m": result.mean,
        "sigma": result.sigma,
        "cv": result.cv,
        "cv_of_mean": result.cv / math.sqrt(count) if count > 1 else math.nan,
        "runs": count,
        "capped": result.capped,
        "work": result.work,
        "seconds": seconds,
        "cpu_seconds": cpu,
    }


def rows(
    sample: int,
    runs: int = DEFAULT_RUNS,
    seed: int = 0,
    cap: int = DEFAULT_CAP,
    jobs: int = 1,
    files: Sequence[str] = (MENNESKE, EXCHANGE),
) -> list[dict[str, object]]:
    """One dict per puzzle of the stratified sample of each graded file (``sample`` puzzles per file)."""
    tasks = [
        (name, puzzle, label, key, stratum, runs, seed, cap)
        for name in files
        for puzzle, label, key, stratum in stratified(read_graded(name), sample)
    ]
    if jobs > 1:
        with Pool(jobs) as pool:
            return list(pool.imap(_measure, tasks))
    return [_measure(task) for task in tasks]


def _floats(found: list[dict[str, object]], field: str) -> list[float]:
    """One numeric field of the rows."""
    values = []
    for row in found:
        value = row[field]
        assert isinstance(value, (int, float))
        values.append(float(value))
    return values


def _percentile(values: list[float], q: float) -> float:
    """The q-quantile by the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def report(found: list[dict[str, object]]) -> list[str]:
    """The printed lines: spread, agreement, speed, per file."""
    lines = []
    for name in (MENNESKE, EXCHANGE):
        part = [r for r in found if r["file"] == name]
        if not part:
            continue
        m, key, stratum = _floats(part, "m"), _floats(part, "grade_key"), _floats(part, "stratum")
        seconds, cpu, work = _floats(part, "seconds"), _floats(part, "cpu_seconds"), _floats(part, "work")
        lines.append(f"{name}: {len(part)} puzzles, {sum(1 for r in part if r['capped'])} capped")
        lines.append(
            f"  sigma/mean of the runs: median {statistics.median(_floats(part, 'cv')):.3f}, "
            f"mean {statistics.fmean(_floats(part, 'cv')):.3f}; of m(B) (/sqrt(runs)): median "
            f"{statistics.median(_floats(part, 'cv_of_mean')):.3f}   (paper: about 0.1)"
        )
        if name == MENNESKE:
            eight = [i for i, k in enumerate(key) if k < len(MENNESKE_GRADES) - 1]
            lines.append(
                f"  gamma vs 8 grades (no Impossible): "
                f"{goodman_kruskal_gamma([m[i] for i in eight], [key[i] for i in eight]):.3f}, "
                f"rho {spearman([m[i] for i in eight], [key[i] for i in eight]):.3f}   (paper: 0.82)"
            )
            lines.append(f"  gamma vs 9 grades: {goodman_kruskal_gamma(m, key):.3f}, rho {spearman(m, key):.3f}")
        else:
            lines.append(
                f"  gamma vs SE rating (easy 1.0, medium 2.0): {goodman_kruskal_gamma(m, key):.3f}, "
                f"rho {spearman(m, key):.3f}"
            )
            lines.append(
                f"  gamma vs 4 buckets: {goodman_kruskal_gamma(m, stratum):.3f}, rho {spearman(m, stratum):.3f}"
            )
        names = MENNESKE_GRADES if name == MENNESKE else EXCHANGE_BUCKETS
        medians = []
        for index, label in enumerate(names):
            group = [r for r in part if r["stratum"] == index]
            if group:
                medians.append(f"{label} {statistics.median(_floats(group, 'm')):.0f}")
        lines.append("  median m(B): " + ", ".join(medians))
        for label, values in (("seconds", seconds), ("cpu seconds", cpu), ("work units", work)):
            lines.append(
                f"  {label} per puzzle: median {statistics.median(values):.2f}, "
                f"p95 {_percentile(values, 0.95):.2f}, max {max(values):.2f}"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sample", type=int, default=100, help="puzzles per file (stratified by grade)")
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cap", type=int, default=DEFAULT_CAP)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--file", choices=("menneske", "exchange", "both"), default="both")
    args = parser.parse_args(argv)
    files = {"menneske": (MENNESKE,), "exchange": (EXCHANGE,), "both": (MENNESKE, EXCHANGE)}[args.file]
    started = time.perf_counter()
    found = rows(args.sample, runs=args.runs, seed=args.seed, cap=args.cap, jobs=args.jobs, files=files)
    for line in report(found):
        print(line)
    print(f"total {time.perf_counter() - started:.0f} s with {args.jobs} job(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
