"""Speed of the full ``rate`` record: per puzzle in the library, and throughput of the CLI with ``--jobs 2``.

On a fair sample of ``sudokuexchange_graded_even.tsv`` (shuffled with seed 1, as ``rating.py`` does), each puzzle
is rated three ways in this process: the trace and scales only (``measures=False``), with the measures D reads
(``difficulty.MEASURES``, CLI ``--measures d``) and the full record (every seed measure, hsolve included); the
median, p95 and max per puzzle are printed, with the ratio of each to the scales-only baseline of the same run.
Then ``sudoku-engine rate --jsonl`` runs over the first ``--cli`` puzzles with ``--jobs 1`` and ``--jobs 2``
(separate processes, same input): puzzles per second and the speed-up.

Run: ``.venv/bin/python benchmarks/rate_record.py [--sample N] [--cli M]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from corpus_stats import p95, read_tsv

from sudoku_engine import difficulty, solver
from sudoku_engine.rating import rate

WAYS: tuple[tuple[str, bool | tuple[str, ...]], ...] = (
    ("scales only (measures=False)", False),
    ("D's measures (--measures d)", difficulty.MEASURES),
    ("full record (--measures all)", True),
)


def sample(size: int) -> list[str]:
    """A fair sample of the Sudoku Exchange file (the file is sorted by rating)."""
    rows = read_tsv("sudokuexchange_graded_even.tsv")
    random.Random(1).shuffle(rows)
    return [r["puzzle"] for r in rows[:size]]


def library_times(puzzles: Sequence[str]) -> None:
    """Seconds per puzzle for each way of rating, with ratios to the scales-only baseline."""
    times: dict[str, list[float]] = {label: [] for label, _ in WAYS}
    for puzzle in puzzles:
        for label, measures in WAYS:
            started = time.perf_counter()
            rate(puzzle, measures=measures)
            times[label].append(time.perf_counter() - started)
    base = times[WAYS[0][0]]
    print(f"\nrate() per puzzle, {len(puzzles)} Sudoku Exchange puzzles (ms)")
    for label, values in times.items():
        print(
            f"  {label:32} median {statistics.median(values) * 1000:8.1f}  p95 {p95(values) * 1000:8.1f}  "
            f"max {max(values) * 1000:8.1f}  (median x{statistics.median(values) / statistics.median(base):.1f}, "
            f"p95 x{p95(values) / p95(base):.1f} the baseline)"
        )


def cli_throughput(puzzles: Sequence[str], measures: str) -> None:
    """Puzzles per second of the rate command with one and two worker processes."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "puzzles.txt"
        path.write_text("\n".join(puzzles) + "\n")
        rates = {}
        for jobs in (1, 2):
            command = [
                sys.executable,
                "-m",
                "sudoku_engine",
                "rate",
                "--jsonl",
                "--measures",
                measures,
                "--jobs",
                str(jobs),
                str(path),
            ]
            started = time.perf_counter()
            run = subprocess.run(command, capture_output=True, text=True, check=True)
            seconds = time.perf_counter() - started
            assert len(run.stdout.splitlines()) == len(puzzles)
            rates[jobs] = len(puzzles) / seconds
        print(
            f"  --measures {measures:4} --jobs 1: {rates[1]:6.2f} puzzles/s   --jobs 2: {rates[2]:6.2f} puzzles/s   "
            f"speed-up x{rates[2] / rates[1]:.2f}"
        )


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=200, help="puzzles rated in the library (default 200)")
    parser.add_argument("--cli", type=int, default=100, help="puzzles rated by the CLI per setting (default 100)")
    options = parser.parse_args()
    print(f"solver backend: {solver.warm_up()}")
    puzzles = sample(max(options.sample, options.cli))
    library_times(puzzles[: options.sample])
    print(f"\nrate command over {options.cli} puzzles (wall time, process start included)")
    for measures in ("d", "all"):
        cli_throughput(puzzles[: options.cli], measures)


if __name__ == "__main__":
    main()
