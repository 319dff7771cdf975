"""Solver speed: puzzles per second of ``count_solutions(limit=2)`` against a Norvig-style baseline.

For each corpus file the engine's default backend runs on every puzzle of the set, one call each and then all in one
call (``count_solutions_many``: batch/s); the baseline (string
digit sets in dicts, eliminate/assign with naked and hidden singles, minimum-remaining-values search, as in
Norvig's essay) and the engine's pure-Python backend run on a sample of the same file in the same process,
and the ratios compare the three on that sample. Start-up cost and install size of the numba accelerator
are printed last. Run: ``make bench`` or ``.venv/bin/python benchmarks/solver.py [--sample N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from corpus_stats import DATA

from sudoku_engine import solver
from sudoku_engine.grid import parse_values

SETS = [
    ("tdoku_17clue_even.txt", None),
    ("magictour_top1465.txt", None),
    ("tdoku_forum_hardest_1905_11plus_even.txt", 2000),
    ("tdoku_unbiased_first1000_even.txt", None),
    ("tdoku_serg_benchmark_multisolution_even.txt", None),
]
TARGETS = {
    "tdoku_17clue_even.txt": 4000,
    "magictour_top1465.txt": 1000,
    "tdoku_forum_hardest_1905_11plus_even.txt": 300,
}

# ---- Norvig-style baseline ---------------------------------------------------------------------------
DIGITS = "123456789"
SQUARES = list(range(81))
NV_UNITS = (
    [[r * 9 + c for c in range(9)] for r in range(9)]
    + [[r * 9 + c for r in range(9)] for c in range(9)]
    + [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)] for br in (0, 3, 6) for bc in (0, 3, 6)]
)
NV_UNITS_OF = {s: [u for u in NV_UNITS if s in u] for s in SQUARES}
NV_PEERS = {s: set(sum(NV_UNITS_OF[s], [])) - {s} for s in SQUARES}


def nv_assign(values: dict[int, str], s: int, d: str) -> dict[int, str] | None:
    """Eliminate every digit but d from square s."""
    for other in values[s].replace(d, ""):
        if nv_eliminate(values, s, other) is None:
            return None
    return values


def nv_eliminate(values: dict[int, str], s: int, d: str) -> dict[int, str] | None:
    """Remove d from square s; propagate naked singles and hidden singles."""
    if d not in values[s]:
        return values
    values[s] = values[s].replace(d, "")
    if not values[s]:
        return None
    if len(values[s]) == 1:
        last = values[s]
        if not all(nv_eliminate(values, peer, last) is not None for peer in NV_PEERS[s]):
            return None
    for unit in NV_UNITS_OF[s]:
        places = [sq for sq in unit if d in values[sq]]
        if not places:
            return None
        if len(places) == 1 and nv_assign(values, places[0], d) is None:
            return None
    return values


def nv_count(values: dict[int, str] | None, limit: int) -> int:
    """Solutions below a position, up to limit, by search on the square with fewest digits."""
    if values is None:
        return 0
    if all(len(values[s]) == 1 for s in SQUARES):
        return 1
    _, square = min((len(values[s]), s) for s in SQUARES if len(values[s]) > 1)
    total = 0
    for d in values[square]:
        total += nv_count(nv_assign(dict(values), square, d), limit - total)
        if total >= limit:
            break
    return total


def baseline_count(values: Sequence[int], limit: int = 2) -> int:
    """Norvig-style count of solutions of 81 values (0 = empty)."""
    grid: dict[int, str] | None = {s: DIGITS for s in SQUARES}
    for s, v in enumerate(values):
        if v and grid is not None:
            grid = nv_assign(grid, s, str(v))
    return nv_count(grid, limit)


# ---- measurement -------------------------------------------------------------------------------------
def time_each(count: Callable[[Sequence[int]], int], puzzles: list[tuple[int, ...]]) -> list[float]:
    """Seconds per puzzle of one counting function."""
    times = []
    for values in puzzles:
        started = time.perf_counter()
        count(values)
        times.append(time.perf_counter() - started)
    return times


def p95(times: list[float]) -> float:
    """95th percentile of a list of times."""
    return statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]


def rate(times: list[float]) -> float:
    """Puzzles per second over a list of per-puzzle times."""
    return len(times) / sum(times)


def engine_count(backend: str) -> Callable[[Sequence[int]], int]:
    """count_solutions(limit=2) on one backend."""
    solver.use_backend(backend)
    solver.warm_up()
    return lambda values: solver.count_solutions(values, limit=2)


def bench_file(name: str, limit: int | None, sample: int, default: str) -> dict[str, object]:
    """All measurements of one corpus file; ``default`` is the backend the engine uses by default."""
    with (DATA / name).open() as stream:
        puzzles = [parse_values(line.split("\t")[0]) for line in stream if line.strip()][:limit]
    full = time_each(engine_count(default), puzzles)
    started = time.perf_counter()
    solver.count_solutions_many(puzzles)  # one call for the file: no Python work between two puzzles
    batch = time.perf_counter() - started
    head = puzzles[:sample]
    return {
        "name": name,
        "n": len(puzzles),
        "default": default,
        "full": full,
        "batch": batch,
        "sample": len(head),
        "engine_sample": time_each(engine_count(default), head),
        "python_sample": time_each(engine_count("python"), head),
        "baseline_sample": time_each(baseline_count, head),
    }


def start_up_seconds(env: dict[str, str]) -> float:
    """Wall time of a fresh process that imports the solver and counts one puzzle."""
    code = "from sudoku_engine.solver import count_solutions; count_solutions('.' * 81)"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, check=True)
    return time.perf_counter() - started


def site_size(package: str) -> float:
    """Installed size in MB of a package folder in site-packages (0 when absent)."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return 0.0
    folder = Path(spec.origin).parent
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 1e6


def print_report(rows: list[dict[str, object]]) -> None:
    """The speed table."""
    print(
        f"\n{'file':44} {'n':>6} {'engine/s':>9} {'med us':>8} {'p95 us':>8} {'target':>7} {'batch/s':>9}"
        f" | {'sample':>6} {'engine/s':>9} {'python/s':>9} {'norvig/s':>9} {'x norvig':>8} {'py x nv':>8}"
    )
    for row in rows:
        full = row["full"]
        assert isinstance(full, list)
        eng, py, nv = (rate(row[k]) for k in ("engine_sample", "python_sample", "baseline_sample"))  # type: ignore[arg-type]
        target = TARGETS.get(str(row["name"]))
        print(
            f"{row['name']!s:44} {row['n']:>6} {rate(full):>9.0f} {statistics.median(full) * 1e6:>8.0f}"
            f" {p95(full) * 1e6:>8.0f} {target or '-':>7} {row['n'] / row['batch']:>9.0f}"  # type: ignore[operator]
            f" | {row['sample']:>6} {eng:>9.0f} {py:>9.0f}"
            f" {nv:>9.0f} {eng / nv:>8.1f} {py / nv:>8.1f}"
        )


def main() -> None:
    """Run the benchmark and print its tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=300, help="puzzles per file for the baseline comparison")
    options = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"corpus not found in {DATA} (set SUDOKU_DATA)")
    default = solver.warm_up()
    print(f"solver backend: {default}; one process, one core; sample for ratios: {options.sample}")
    rows = [bench_file(name, limit, options.sample, default) for name, limit in SETS]
    print_report(rows)
    print("\nstart-up: fresh process, import + one count (median of 3 runs, seconds)")
    with tempfile.TemporaryDirectory() as cold_cache:
        cases = [
            ("pure Python backend", {"SUDOKU_ENGINE_BACKEND": "python"}),
            ("numba, compiled cache present", {}),
            ("numba, cold compile (empty cache)", {"NUMBA_CACHE_DIR": cold_cache}),
        ]
        for label, env in cases:
            runs = [start_up_seconds(env) for _ in range(3)] if "cold" not in label else [start_up_seconds(env)]
            print(f"  {label:36} {statistics.median(runs):6.2f}")
    sizes = f"numba {site_size('numba'):.0f} MB + llvmlite {site_size('llvmlite'):.0f} MB"
    print(f"\ninstall size of the accelerator: {sizes}")


if __name__ == "__main__":
    main()
