"""Rating agreement and speed: se_like and hodoku_like against Sudoku Explainer ratings, beside hodoku-py.

The rating timed is the record ``rate`` (and ``sudoku-engine rate``) returns by default: the measures D reads, no
hsolve.

Prints, for ``sudokuexchange_graded_even.tsv`` (rows with an SE rating): Spearman rho of se_like and of
hodoku_like against the SE rating, the median se_like per SE rating, the rating time per puzzle (median,
p95) here and on ``magictour_top1465.txt``, the same for hodoku-py (GPL; installed into this benchmark's own
environment ``benchmarks/.peers``, never a dependency of the project) on a sample of the same puzzles in the
same run, the hint time on random mid-game positions, and the share of each corpus file solved by the
logic solver without the bifurcation step.

Run: ``.venv/bin/python benchmarks/rating.py [--sample N] [--peer-sample N] [--no-peer]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from corpus_stats import DATA, p95, read_tsv, read_txt, spearman

from sudoku_engine import logic, solver
from sudoku_engine.grid import format_values, parse_values
from sudoku_engine.hints import hint
from sudoku_engine.rating import rate
from sudoku_engine.techniques import CATALOGUE

PEERS = Path(__file__).resolve().parent / ".peers"
PEER_SCRIPT = """
import json, sys, time
from hodoku import Solver
solver = Solver()
out = []
for line in sys.stdin:
    puzzle = line.strip()
    started = time.perf_counter()
    result = solver.rate(puzzle)
    out.append([time.perf_counter() - started, result.score, int(result.level.value)])
print(json.dumps(out))
"""


def _rate_scales(puzzle: str) -> object:
    """The record ``rate`` returns by default: trace, both scales, the seed measures D reads, D and the effort."""
    return rate(puzzle)


def timed(function: Callable[[str], object], puzzles: Sequence[str]) -> tuple[list[object], list[float]]:
    """Results and seconds per puzzle."""
    results, times = [], []
    for puzzle in puzzles:
        started = time.perf_counter()
        results.append(function(puzzle))
        times.append(time.perf_counter() - started)
    return results, times


def peer_python() -> Path | None:
    """The Python of the benchmark's own environment with hodoku-py installed (created on first use)."""
    python = PEERS / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(PEERS)], check=True)
    probe = subprocess.run([str(python), "-c", "import hodoku"], capture_output=True)
    if probe.returncode != 0:
        install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "hodoku-py"], capture_output=True)
        if install.returncode != 0:
            print("hodoku-py could not be installed: peer comparison skipped")
            return None
    return python


def peer_rate(python: Path, puzzles: Sequence[str]) -> list[list[float]]:
    """hodoku-py's (seconds, score, level) for each puzzle, timed inside its own process."""
    run = subprocess.run(
        [str(python), "-c", PEER_SCRIPT], input="\n".join(puzzles), capture_output=True, text=True, check=True
    )
    result: list[list[float]] = json.loads(run.stdout)
    return result


def agreement(sample: int | None) -> tuple[list[str], list[float], list[object], list[float]]:
    """Rate the SE-rated rows of the Sudoku Exchange file; print rho and per-rating medians."""
    rows = [r for r in read_tsv("sudokuexchange_graded_even.tsv") if r["se_rating"]]
    random.Random(1).shuffle(rows)  # the file is sorted by rating; any prefix must be a fair sample
    rows = rows[:sample] if sample else rows
    puzzles = [r["puzzle"] for r in rows]
    truth = [float(r["se_rating"]) for r in rows]
    ratings, times = timed(_rate_scales, puzzles)
    se_like = [r.se_like for r in ratings]  # type: ignore[attr-defined]
    hodoku_like = [r.hodoku_like for r in ratings]  # type: ignore[attr-defined]
    print(f"\nSudoku Exchange, {len(rows)} puzzles with an SE rating")
    print(f"  Spearman rho  se_like vs SE: {spearman(se_like, truth):.3f}   (target >= 0.93)")
    print(f"  Spearman rho  hodoku_like vs SE: {spearman(hodoku_like, truth):.3f}")
    by_rating: dict[float, list[float]] = defaultdict(list)
    for value, mine in zip(truth, se_like):
        by_rating[value].append(mine)
    print(
        "  SE rating -> median se_like (n): "
        + ", ".join(f"{value:.1f}->{statistics.median(v):.1f} ({len(v)})" for value, v in sorted(by_rating.items()))
    )
    print(
        f"  rating time: median {statistics.median(times) * 1000:.1f} ms, p95 {p95(times) * 1000:.1f} ms"
        "   (target p95 < 200 ms)"
    )
    return puzzles, truth, ratings, times


def top1465_times(limit: int | None) -> tuple[list[str], list[float]]:
    """Rating times on magictour top1465."""
    puzzles = read_txt("magictour_top1465.txt", limit)
    _, times = timed(_rate_scales, puzzles)
    print(
        f"\nmagictour top1465, {len(puzzles)} puzzles: rating median {statistics.median(times) * 1000:.1f} ms, "
        f"p95 {p95(times) * 1000:.1f} ms"
    )
    return puzzles, times


def compare_peer(
    python: Path, label: str, puzzles: Sequence[str], ours: Sequence[float], n: int, truth: Sequence[float] = ()
) -> None:
    """Time hodoku-py on the first n puzzles of a set and print the ratio of medians (and its rho, if rated)."""
    picked = list(puzzles[:n])
    theirs = peer_rate(python, picked)
    if truth:
        rho = spearman([score for _t, score, _level in theirs], list(truth[:n]))
        print(f"  {label}: hodoku-py score vs SE rating, Spearman rho {rho:.3f} on {len(picked)} puzzles")
    peer_times = [t for t, _score, _level in theirs]
    mine = list(ours[:n])
    ratio = statistics.median(peer_times) / statistics.median(mine)
    tail = p95(peer_times) / p95(mine)
    print(
        f"  {label}: hodoku-py median {statistics.median(peer_times) * 1000:.1f} ms, p95 "
        f"{p95(peer_times) * 1000:.1f} ms; ours median {statistics.median(mine) * 1000:.1f} ms, p95 "
        f"{p95(mine) * 1000:.1f} ms on the same {len(picked)}: ours is {ratio:.1f}x faster at the median "
        f"(target >= 5x), {tail:.1f}x at p95 (target >= 10x)"
    )


def mid_game(puzzle: str, rng: random.Random) -> str:
    """A random mid-game position of the puzzle: a random share of its blanks filled with the solution."""
    values = list(parse_values(puzzle))
    solution = solver.solve(values)
    assert solution is not None
    blanks = [c for c in range(81) if not values[c]]
    for cell in rng.sample(blanks, rng.randrange(len(blanks))):
        values[cell] = solution.values[cell]
    return format_values(values)


def hint_times(puzzles: Sequence[str], count: int) -> None:
    """Hint time on random mid-game positions (a random share of the blanks filled with the solution)."""
    rng = random.Random(7)
    times = []
    for puzzle in rng.sample(list(puzzles), min(count, len(puzzles))):
        position = mid_game(puzzle, rng)
        started = time.perf_counter()
        hint(puzzle, position)
        times.append(time.perf_counter() - started)
    print(
        f"\nhint on {len(times)} random mid-game positions: median {statistics.median(times) * 1000:.1f} ms, "
        f"p95 {p95(times) * 1000:.1f} ms   (target p95 < 50 ms)"
    )


def coverage(sample: int) -> None:
    """Share of each corpus file solved by logic without the bifurcation step."""
    allow = [t.id for t in CATALOGUE if t.id != "bifurcation"]
    print(f"\nsolved without bifurcation (first {sample} puzzles of each file):")
    for path in sorted([*DATA.glob("*.txt"), *DATA.glob("*.tsv")]):
        if "multisolution" in path.name:
            continue
        lines = path.read_text().splitlines()
        column = lines[0].split("\t").index("puzzle") if path.suffix == ".tsv" else 0
        body = lines[1:] if path.suffix == ".tsv" else lines
        puzzles = [line.split("\t")[column] for line in body if line.strip()][:sample]
        solved = sum(logic.solve(p, allow=allow).solved for p in puzzles)
        print(f"  {path.name:48} {solved:5}/{len(puzzles):<5} {100 * solved / len(puzzles):5.1f}%")


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, help="SE-rated rows to rate (0: all)")
    parser.add_argument("--top", type=int, default=0, help="top1465 puzzles to rate (0: all)")
    parser.add_argument("--peer-sample", type=int, default=300, help="puzzles per set timed with hodoku-py")
    parser.add_argument("--hints", type=int, default=300, help="random mid-game positions to hint (0: skip)")
    parser.add_argument("--coverage", type=int, default=200, help="puzzles per corpus file for coverage (0: skip)")
    parser.add_argument("--no-peer", action="store_true", help="skip hodoku-py")
    options = parser.parse_args()
    print(f"solver backend: {solver.warm_up()}")
    se_puzzles, truth, _ratings, se_times = agreement(options.sample or None)
    top_puzzles, top_times = top1465_times(options.top or None)
    python = None if options.no_peer or options.peer_sample <= 0 else peer_python()
    if python is not None:
        print("\nagainst hodoku-py (Solver().rate), same puzzles, same run:")
        compare_peer(python, "Sudoku Exchange", se_puzzles, se_times, options.peer_sample, truth)
        compare_peer(python, "top1465", top_puzzles, top_times, options.peer_sample)
    if options.hints:
        hint_times(se_puzzles, options.hints)
    if options.coverage:
        coverage(options.coverage)


if __name__ == "__main__":
    main()
