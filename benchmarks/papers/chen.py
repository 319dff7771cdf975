"""Seed 003 (Chen) reproduced: r-Reduction, Inference and game complexity beside the paper's Tables I and II.

Figures: share of 17-clue puzzles solved by r-Reduction alone (paper 70.5%), inferences per 17-clue puzzle
(paper 1.6; with the paper's random cell pick and with the deterministic fewest-candidates pick), inferences
for AI Escargot (paper 91; the random pick over many seeds), game complexity (entropy) range and mean on the
17-clue puzzles (paper 1.6946-1.8189, mean 1.7526; solved 1.75226 vs unsolved 1.75349) and on the easy set
here (Project Euler 96 against the paper's Krazydad easy 0.5362-0.9046 and intermediate 1.2246-1.3965), the
same per Sudoku Exchange bucket, and the time ``measure()`` takes per puzzle.

The 17-clue sample is spread evenly over ``tdoku_17clue_even.txt`` (every k-th row): the file is not in random
order and its first rows are easier than the rest. Run:
``.venv/bin/python benchmarks/papers/chen.py [--sample N] [--seeds K] [--escargot-seeds K]``.

Where ours and the paper's differ (all 24,579 puzzles of the file, ``--sample 0 --seeds 3``): the r-Reduction
share (69.8%) and the entropy figures (1.6926-1.8245, mean 1.7556) agree. Inferences per puzzle depend on the
cell pick, which the paper only calls random: a uniform random pick gives 2.5-3.7 per puzzle depending on the
seed (a few puzzles take hundreds), the fewest-candidates pick 1.47; the paper's 1.6 lies between. AI Escargot's
91 is an ordinary draw of the random pick (median 74 over 200 seeds). The paper's easy and intermediate books
are not available; Project Euler's "easy" puzzles have 22-36 givens and the entropy follows the clue count
(Pearson r about -0.9), so they spread over both of the paper's ranges; 4 of them need a locked-candidates step
or more, which r-Reduction does not have.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/, for the shared corpus_stats
from corpus_stats import spread  # noqa: E402

from sudoku_engine.metrics import chen

DATA = Path(os.environ.get("SUDOKU_DATA", Path(__file__).resolve().parents[3] / "shared" / "data"))
SEVENTEEN = "tdoku_17clue_even.txt"
EASY = "projecteuler96_easy50.txt"
GRADED = "sudokuexchange_graded_even.tsv"
FAMOUS = "famous_hard_puzzles.tsv"
Row = dict[str, object]


def read_column(name: str, column: str = "puzzle") -> list[dict[str, str]]:
    """Rows of a corpus file as dicts (a TXT file has the one column ``puzzle``)."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    if not name.endswith(".tsv"):
        return [{"puzzle": line.strip()} for line in lines if line.strip()]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:] if line.strip()]


def famous(name: str) -> str:
    """A named puzzle of famous_hard_puzzles.tsv."""
    for row in read_column(FAMOUS):
        if row["puzzle_name"] == name:
            return row["puzzle"]
    raise KeyError(f"{name} not in {FAMOUS}")


def row(measure: str, dataset: str, n: int, paper: str, ours: str, note: str = "") -> Row:
    """One line of the paper-versus-ours table."""
    return {
        "seed": "003 Chen",
        "measure": measure,
        "dataset": dataset,
        "n": n,
        "paper": paper,
        "ours": ours,
        "note": note,
    }


def span(values: Sequence[float]) -> str:
    """Range and mean of entropies, four decimals."""
    return f"{min(values):.4f}-{max(values):.4f}, mean {statistics.mean(values):.4f}"


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def seventeen_rows(puzzles: list[str], seeds: int) -> list[Row]:
    """r-Reduction share, inferences and entropy on the 17-clue sample."""
    n = len(puzzles)
    total = len(read_column(SEVENTEEN))
    data = SEVENTEEN if n == total else f"{SEVENTEEN} (spread: every {total / n:.1f} rows)"
    solved = [chen.r_reduction(p).solved for p in puzzles]
    entropies = [chen.entropy(p) for p in puzzles]
    stalled = [p for p, ok in zip(puzzles, solved) if not ok]
    fewest = [chen.inference(p, pick="fewest").inferences for p in stalled]
    random_means = [sum(chen.inference(p, seed=s).inferences for p in stalled) / n for s in range(seeds)]
    per_stalled = statistics.mean(fewest) if fewest else 0.0
    share = sum(solved) / n
    return [
        row("solved by r-Reduction alone", data, n, "70.5% (7050/10000)", f"{100 * share:.1f}% ({sum(solved)}/{n})"),
        row(
            "inferences per puzzle, random cell",
            data,
            n,
            "1.6 (16034/10000)",
            " / ".join(f"{m:.2f}" for m in random_means),
            f"seeds 0..{seeds - 1}; heavy tail",
        ),
        row(
            "inferences per puzzle, fewest candidates",
            data,
            n,
            "1.6",
            f"{sum(fewest) / n:.2f} ({per_stalled:.1f} per unsolved puzzle; paper 5.4)",
        ),
        row("game complexity, all", data, n, "1.6946-1.8189, mean 1.7526", span(entropies)),
        row(
            "game complexity, solved / unsolved by r-Reduction",
            data,
            n,
            "1.75226 / 1.75349",
            f"{statistics.mean(e for e, ok in zip(entropies, solved) if ok):.5f} / "
            f"{statistics.mean(e for e, ok in zip(entropies, solved) if not ok):.5f}"
            if stalled
            else "-",
        ),
    ]


def escargot_rows(seeds: int) -> list[Row]:
    """Inferences for AI Escargot: the random pick over many seeds, and the fewest-candidates pick."""
    puzzle = famous("AI Escargot")
    counts = [chen.inference(puzzle, seed=s).inferences for s in range(seeds)]
    fewest = chen.inference(puzzle, pick="fewest").inferences
    return [
        row(
            "AI Escargot inferences, random cell",
            FAMOUS,
            seeds,
            "91",
            f"median {statistics.median(counts):.0f}, mean {statistics.mean(counts):.1f}, "
            f"range {min(counts)}-{max(counts)}, {100 * sum(c <= 91 for c in counts) / seeds:.0f}% of seeds <= 91",
            f"seeds 0..{seeds - 1}",
        ),
        row("AI Escargot inferences, fewest candidates", FAMOUS, 1, "91", str(fewest)),
    ]


def easy_rows() -> list[Row]:
    """Entropy and r-Reduction on the easy set, against the paper's easy and intermediate books."""
    puzzles = [r["puzzle"] for r in read_column(EASY)]
    entropies = [chen.entropy(p) for p in puzzles]
    solved = sum(chen.r_reduction(p).solved for p in puzzles)
    givens = [sum(ch != "." for ch in p) for p in puzzles]
    graded = spread([r["puzzle"] for r in read_column(GRADED)], 1000) + puzzles
    clues = [sum(ch != "." for ch in p) for p in graded]
    return [
        row(
            "game complexity, easy",
            EASY,
            len(puzzles),
            "easy 0.5362-0.9046, mean 0.7439; intermediate 1.2246-1.3965, mean 1.3049",
            span(entropies),
            f"givens {min(givens)}-{max(givens)}",
        ),
        row(
            "solved by r-Reduction alone, easy",
            EASY,
            len(puzzles),
            "100%",
            f"{100 * solved / len(puzzles):.0f}% ({solved}/{len(puzzles)})",
        ),
        row(
            "Pearson r of game complexity with the number of givens",
            f"{GRADED} + {EASY}",
            len(graded),
            "-",
            f"{statistics.correlation([chen.entropy(p) for p in graded], [float(c) for c in clues]):.3f}",
            "the measure is mostly the clue count",
        ),
    ]


def bucket_rows(per_bucket: int) -> list[Row]:
    """Entropy and r-Reduction share per Sudoku Exchange bucket (the paper's 'discriminates perfectly' claim)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for entry in read_column(GRADED):
        groups[entry["bucket"]].append(entry["puzzle"])
    rows = []
    for bucket in ("easy", "medium", "hard", "diabolical"):
        puzzles = spread(groups[bucket], per_bucket)
        entropies = [chen.entropy(p) for p in puzzles]
        solved = sum(chen.r_reduction(p).solved for p in puzzles)
        rows.append(
            row(
                f"game complexity / r-Reduction share, {bucket}",
                f"{GRADED} bucket {bucket}",
                len(puzzles),
                "(no counterpart)",
                f"{span(entropies)}; {100 * solved / len(puzzles):.0f}% solved",
            )
        )
    return rows


def timing(puzzles: Sequence[str], run: Callable[[str], object]) -> tuple[float, float]:
    """Median and p95 wall time per puzzle in ms."""
    times = []
    for puzzle in puzzles:
        started = time.perf_counter()
        run(puzzle)
        times.append(1000 * (time.perf_counter() - started))
    return statistics.median(times), percentile(times, 0.95)


def timing_rows() -> list[Row]:
    """Time of ``measure()`` on 200 Sudoku Exchange and 100 17-clue puzzles."""
    rows = []
    sets = [
        (GRADED, spread([r["puzzle"] for r in read_column(GRADED)], 200)),
        (SEVENTEEN, spread([r["puzzle"] for r in read_column(SEVENTEEN)], 100)),
    ]
    for name, puzzles in sets:
        median, p95 = timing(puzzles, chen.measure)
        rows.append(row("measure() ms per puzzle", name, len(puzzles), "-", f"median {median:.1f}, p95 {p95:.1f}"))
    return rows


def rows(sample: int = 1000, seeds: int = 1, escargot_seeds: int = 100) -> list[Row]:
    """Every figure of the paper this module reproduces, beside ours, for a combined report."""
    puzzles = spread([r["puzzle"] for r in read_column(SEVENTEEN)], sample)
    return [
        *seventeen_rows(puzzles, seeds),
        *escargot_rows(escargot_seeds),
        *easy_rows(),
        *bucket_rows(100),
        *timing_rows(),
    ]


def main() -> None:
    """Print the paper-versus-ours table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sample", type=int, default=1000, help="17-clue puzzles, spread over the file (0: all)")
    parser.add_argument("--seeds", type=int, default=1, help="random-pick runs over the 17-clue sample")
    parser.add_argument("--escargot-seeds", type=int, default=100, help="random-pick runs on AI Escargot")
    args = parser.parse_args()
    started = time.perf_counter()
    table = rows(args.sample, args.seeds, args.escargot_seeds)
    for entry in table:
        note = f"  [{entry['note']}]" if entry["note"] else ""
        print(
            f"{entry['measure']}\n  data: {entry['dataset']}, n = {entry['n']}\n"
            f"  paper: {entry['paper']}\n  ours:  {entry['ours']}{note}"
        )
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
