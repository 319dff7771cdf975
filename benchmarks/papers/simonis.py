"""Seed 004 (Simonis, "Sudoku as a Constraint Problem"): Tables 4, 5 and 7 beside the paper, and the speed.

Table 4 and 5: the percentage of puzzles each propagation scheme solves without search, on an evenly spread
sample of ``tdoku_17clue_even.txt`` (the paper's [43]: 7,611 17-clue puzzles known in 2005; this file is every
other puzzle of the complete list of 49,158) and on all of ``magictour_top100.txt`` (the paper's [44], the same
100 puzzles). Time per puzzle of ``schemes_report`` (median, p95) is printed per file. ``--variants N`` adds
the definitions the paper does not use, on N spread 17-clue puzzles and top100: textbook bounds consistency
(BCZ, BCIZ) and shaving swept to its fixpoint instead of once. ``--reduce`` adds Table 7's top100 row
(locally minimal puzzles, givens after committed-choice reduction).

Run: ``.venv/bin/python benchmarks/papers/simonis.py [--sample N] [--jobs J] [--variants N] [--reduce]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from sudoku_engine import solver
from sudoku_engine.metrics import simonis

DATA = Path(os.environ.get("SUDOKU_DATA", Path(__file__).resolve().parents[3] / "shared" / "data"))
CLUE17 = "tdoku_17clue_even.txt"
TOP100 = "magictour_top100.txt"
TABLE4 = ("FC", "FCI", "BC", "BCI", "HAC", "HACS", "HACC", "HACSC", "HAC3", "HACSC3")
TABLE5 = ("FC", "BC", "HAC", "FCV", "BCV", "HACV")
PAPER: dict[str, dict[str, float]] = {
    CLUE17: {
        "FC": 0.0,
        "FCI": 48.69,
        "BC": 29.01,
        "BCI": 69.82,
        "HAC": 70.28,
        "HACS": 85.51,
        "HACC": 75.27,
        "HACSC": 85.55,
        "HAC3": 85.51,
        "FCV": 0.62,
        "BCV": 99.89,
        "HACV": 100.0,
    },
    TOP100: {
        "FC": 0.0,
        "FCI": 0.0,
        "BC": 3.0,
        "BCI": 5.0,
        "HAC": 5.0,
        "HACS": 14.0,
        "HACC": 10.0,
        "HACSC": 14.0,
        "HAC3": 14.0,
        "FCV": 4.0,
        "BCV": 93.0,
        "HACV": 100.0,
    },
}
PAPER_SIZE = {CLUE17: 7611, TOP100: 100}
PAPER_REDUCTION = {"instances": 100, "locally_minimal": 82, "min": 17, "avg": 21.14, "max": 26}


def load(name: str, sample: int | None) -> list[str]:
    """Puzzles of a corpus file: all of them, or ``sample`` spread evenly through the file."""
    with (DATA / name).open(encoding="utf-8") as stream:
        puzzles = [line.split()[0] for line in stream if line.strip()]
    if sample is None or sample >= len(puzzles):
        return puzzles
    step = len(puzzles) / sample
    return [puzzles[int(i * step)] for i in range(sample)]


def _one(puzzle: str) -> tuple[dict[str, bool], float, frozenset[str]]:
    """Every scheme's answer for one puzzle, with the milliseconds spent and the capped schemes."""
    start = time.perf_counter()
    report = simonis.schemes_report(puzzle, extra=True)
    return report.solved, (time.perf_counter() - start) * 1000, report.capped


def measure(puzzles: Sequence[str], jobs: int = 1) -> dict[str, Any]:
    """Search-free counts per scheme, capped counts and per-puzzle times over the puzzles."""
    solver.warm_up()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_one, puzzles, chunksize=16))
    else:
        results = [_one(p) for p in puzzles]
    solved: Counter[str] = Counter()
    capped: Counter[str] = Counter()
    for answer, _, caps in results:
        solved.update(name for name, ok in answer.items() if ok)
        capped.update(caps)
    times = sorted(ms for _, ms, _ in results)
    return {"n": len(puzzles), "solved": solved, "capped": capped, "times": times}


def _percent(count: int, n: int) -> float:
    """A share as a percentage rounded to 2 places."""
    return round(100.0 * count / n, 2) if n else 0.0


def _rows_of(name: str, stats: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per scheme and corpus: ours, the paper's, the difference."""
    out = []
    for scheme in (*simonis.SCHEMES, "HACSC"):
        ours = _percent(stats["solved"][scheme], stats["n"])
        paper = PAPER[name].get(scheme)
        table = "4" if scheme in TABLE4 else "5"
        out.append(
            {
                "seed": "004",
                "table": table,
                "corpus": name,
                "n": stats["n"],
                "paper_n": PAPER_SIZE[name],
                "scheme": scheme,
                "ours": ours,
                "paper": paper,
                "diff": None if paper is None else round(ours - paper, 2),
                "capped": stats["capped"][scheme],
            }
        )
    return out


def rows(sample: int | None = 5000, jobs: int = 1) -> list[dict[str, Any]]:
    """Tables 4 and 5 as records: ``sample`` spread 17-clue puzzles (None: all) and all of top100."""
    out: list[dict[str, Any]] = []
    for name, size in ((CLUE17, sample), (TOP100, None)):
        out.extend(_rows_of(name, measure(load(name, size), jobs)))
    return out


def _print_table(title: str, schemes: Sequence[str], stats: dict[str, dict[str, Any]]) -> None:
    """Print one table: a row per corpus for ours and the paper's."""
    print(f"\n{title}")
    print(f"{'corpus':<24}{'n':>6}  " + "".join(f"{s:>8}" for s in schemes))
    for name, st in stats.items():
        ours = [_percent(st["solved"][s], st["n"]) for s in schemes]
        paper = [PAPER[name].get(s) for s in schemes]
        print(f"{name:<24}{st['n']:>6}  " + "".join(f"{v:>8.1f}" for v in ours))
        print(f"{'  paper':<24}{PAPER_SIZE[name]:>6}  " + "".join(f"{'-' if v is None else v:>8}" for v in paper))


def _print_speed(stats: dict[str, dict[str, Any]]) -> None:
    """Median and p95 ms per puzzle of schemes_report, and any capped shaving."""
    print("\nschemes_report time per puzzle (ms)")
    for name, st in stats.items():
        times = st["times"]
        p95 = times[max(0, int(round(0.95 * len(times))) - 1)]
        capped = dict(st["capped"]) or "none"
        print(
            f"  {name:<24} median {statistics.median(times):7.1f}  p95 {p95:7.1f}  max {times[-1]:7.1f}"
            f"  capped: {capped}"
        )


def variants(sample: int) -> None:
    """Textbook bounds consistency and shaving to the fixpoint, beside the paper's definitions."""
    print(f"\nVariants (17-clue: {sample} spread puzzles; top100: all)")
    names = ("BC", "BCZ", "BCI", "BCIZ")
    for name, size in ((CLUE17, sample), (TOP100, None)):
        puzzles = load(name, size)
        counts = {s: sum(simonis.run_scheme(p, s).solved for p in puzzles) for s in names}
        swept: Counter[str] = Counter()
        for p in puzzles:
            swept.update(s for s, ok in simonis.schemes_report(p, sweeps=None).solved.items() if ok)
        cells = [f"{s} {_percent(counts[s], len(puzzles)):.1f}" for s in names]
        cells += [f"{s}* {_percent(swept[s], len(puzzles)):.1f}" for s in ("FCV", "BCV", "HACV")]
        print(f"  {name:<24}" + "  ".join(cells))
    print("  (BCZ/BCIZ: textbook bounds consistency; FCV*/BCV*/HACV*: shaving swept until nothing changes)")


def reduction_figures() -> dict[str, float]:
    """Table 7's top100 row, ours: puzzles, the locally minimal ones, and givens after reduction in reading order."""
    puzzles = load(TOP100, None)
    sizes = [simonis.reduce(p).givens for p in puzzles]
    return {
        "instances": len(puzzles),
        "locally_minimal": sum(simonis.is_locally_minimal(p) for p in puzzles),
        "min": min(sizes),
        "avg": statistics.mean(sizes),
        "max": max(sizes),
    }


def reduction() -> None:
    """Print Table 7's top100 row beside the paper's."""
    ours, paper = reduction_figures(), PAPER_REDUCTION
    print("\nTable 7, top100 (reduction in reading order)")
    print(
        f"  ours : {ours['instances']} puzzles, {ours['locally_minimal']} locally minimal, reduced givens min "
        f"{ours['min']} avg {ours['avg']:.2f} max {ours['max']}"
    )
    print(
        f"  paper: {paper['instances']} puzzles, {paper['locally_minimal']} locally minimal, reduced givens "
        f"min {paper['min']} avg {paper['avg']} max {paper['max']}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Print Tables 4 and 5 (and optionally the variants and Table 7) beside the paper."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=5000, help="spread 17-clue puzzles (0: the whole file)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--variants", type=int, default=0, help="17-clue puzzles for the variant definitions")
    parser.add_argument("--reduce", action="store_true", help="also print Table 7's top100 row")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    stats = {
        CLUE17: measure(load(CLUE17, args.sample or None), args.jobs),
        TOP100: measure(load(TOP100, None), args.jobs),
    }
    print(f"Seed 004 Simonis: percentage search-free (solver backend {solver.backend()}, jobs {args.jobs})")
    _print_table("Table 4 (propagation, redundant constraints)", TABLE4, stats)
    _print_table("Table 5 (shaving, one sweep as in the paper)", TABLE5, stats)
    _print_speed(stats)
    if args.variants:
        variants(args.variants)
    if args.reduce:
        reduction()
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
