"""The exact solver beside tdoku (BSD-2, Tom Dillon's SIMD DPLL solver), side by side in one run.

Counts solutions (limit 2) of every puzzle of the 17-clue, top1465 and forum-hardest 11+ lists with tdoku's
``TdokuSolverDpllTriadSimd`` (through ctypes), with ``count_solutions_many`` (one call for the file), one
``count_solutions`` call per puzzle, and the compiled kernel alone; checks that all agree and prints puzzles per
second and each one's ratio to tdoku (the target: within 3x).

tdoku is built from its sources: ``--source DIR`` (a checkout of github.com/t-dillon/tdoku) builds its shared
library's two files with g++ into a temporary folder; ``--lib PATH`` uses one already built (for example by
tdoku's own CMake target ``tdoku_shared``). Never a dependency of the project.

Run: ``.venv/bin/python benchmarks/tdoku.py --source ../tdoku`` (or ``--lib libtdoku_shared.so``).
"""

from __future__ import annotations

import argparse
import ctypes
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from corpus_stats import DATA

from sudoku_engine import _search_numba, solver
from sudoku_engine.grid import parse_values

SETS = [
    ("tdoku_17clue_even.txt", None),
    ("magictour_top1465.txt", None),
    ("tdoku_forum_hardest_1905_11plus_even.txt", 2000),
]
SOURCES = ("src/solver_dpll_triad_simd.cc", "src/util.cc")  # tdoku's tdoku_object library


def build(source: Path, into: Path) -> Path:
    """tdoku's shared library compiled from its sources with g++ (as its CMake target does, native SIMD)."""
    library = into / "libtdoku.so"
    files = [str(source / name) for name in SOURCES]
    command = ["g++", "-O3", "-march=native", "-std=c++17", "-shared", "-fPIC", *files, "-o", str(library)]
    subprocess.run(command, check=True)
    return library


def tdoku_counter(library: Path) -> ctypes._CFuncPtr:
    """tdoku's solver function: (puzzle text, limit, configuration, solution buffer, guesses) -> count."""
    function = ctypes.CDLL(str(library)).TdokuSolverDpllTriadSimd
    function.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_char_p]
    function.argtypes += [ctypes.POINTER(ctypes.c_size_t)]
    function.restype = ctypes.c_size_t
    return function


def compare(name: str, limit: int | None, tdoku: ctypes._CFuncPtr) -> None:
    """Time the four counters on one file, check they agree, print rates and ratios."""
    lines = [line.split("\t")[0].strip() for line in (DATA / name).read_text().splitlines() if line.strip()]
    lines = lines[:limit]
    encoded = [line.replace("0", ".").encode() for line in lines]
    buffer, guesses = ctypes.create_string_buffer(82), ctypes.c_size_t(0)
    started = time.perf_counter()
    theirs = [min(int(tdoku(p, 2, 0, buffer, ctypes.byref(guesses))), 2) for p in encoded]
    seconds = {"tdoku": time.perf_counter() - started}
    values = [parse_values(line) for line in lines]
    started = time.perf_counter()
    batch = solver.count_solutions_many(values)
    seconds["count_solutions_many"] = time.perf_counter() - started
    started = time.perf_counter()
    each = [solver.count_solutions(v) for v in values]
    seconds["one call each"] = time.perf_counter() - started
    table = np.array(values, dtype=np.int8)
    counts, solutions = np.zeros(len(values), dtype=np.int32), np.zeros((len(values), 81), dtype=np.int8)
    started = time.perf_counter()
    _search_numba.count_many(table, 2, counts, solutions)
    seconds["kernel alone"] = time.perf_counter() - started
    assert theirs == batch == each == [int(c) for c in counts], f"{name}: the counts differ"
    n = len(lines)
    parts = [f"{label} {n / s:9.0f}/s ({s / seconds['tdoku']:4.1f}x)" for label, s in seconds.items()]
    print(f"{name:44} n {n:5}  " + "  ".join(parts))


def main() -> None:
    """Build or load tdoku, warm the kernels, compare on each file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--source", type=Path, help="a checkout of tdoku's sources to build")
    where.add_argument("--lib", type=Path, help="tdoku's shared library, already built")
    args = parser.parse_args()
    solver.use_backend("numba")
    solver.warm_up()
    with tempfile.TemporaryDirectory() as scratch:
        library = args.lib or build(args.source, Path(scratch))
        tdoku = tdoku_counter(library)
        print("puzzles per second (and time relative to tdoku; the target is within 3x)")
        for name, limit in SETS:
            compare(name, limit, tdoku)


if __name__ == "__main__":
    main()
