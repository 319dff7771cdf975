"""Exact solver: ``solve``, ``count_solutions(limit)`` and ``is_unique``; the generator's search kernels.

Bitmask constraint propagation (naked and hidden singles) to a fixed point plus depth-first search on the
cell with the fewest candidates. It is the inner loop of every uniqueness check and generator, so it runs on a
backend chosen once per process: the numba-compiled kernels of ``_search_numba`` when numba is installed (the
``fast`` extra), else their plain-Python references in ``_search_py``; both give the same counts and the same
first solution. Set ``SUDOKU_ENGINE_BACKEND=python`` to force the references.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Protocol

from . import _search_py
from .grid import Grid, InvalidPuzzle, check_no_conflict, parse_values

PuzzleLike = Grid | str | Sequence[int]


# Counts of many puzzles, and their first solutions (None: not asked for; an entry None: no solution).
Counted = tuple[list[int], list[list[int] | None] | None]


class Backend(Protocol):
    """A search backend: the search and the generator's kernels, each called on plain Python values (lists of ints,
    0 for an empty cell). ``_search_py`` is one; ``_NumbaBackend`` is the other."""

    NAME: str

    def count(self, values: Sequence[int], limit: int) -> tuple[int, list[int] | None]:
        """Number of solutions (capped at ``limit``) and the first solution found, or None."""

    def count_many(self, rows: Sequence[Sequence[int]], limit: int, solutions: bool) -> Counted:
        """``count`` of every row, in order (one kernel call for them all on numba); the first solutions only when
        asked for."""

    def single_kind(self, values: Sequence[int]) -> int:
        """The hardest kind of single the puzzle needs (``solver.single_kind``), or -1."""

    def close_singles(self, cand: list[int]) -> bool:
        """The singles' fixed point on a position in the search's encoding, in place; False without a solution."""

    def stays_unique(self, values: Sequence[int], solution: Sequence[int], removed: Sequence[int]) -> bool:
        """Whether a unique puzzle with ``removed`` givens taken out (and some solution digits added) stays unique."""

    def dig(self, values: Sequence[int], groups: Sequence[Sequence[int]], min_givens: int) -> list[bool]:
        """Which groups of givens stay out of a unique puzzle, removed in order (``solver.dig``)."""


class _NumbaBackend:
    """The kernels of ``_search_numba``, called as ``_search_py``'s functions are: plain values in and out, numpy
    arrays in between. Building one imports numba (ImportError where it is missing)."""

    NAME = "numba"

    def __init__(self) -> None:
        import numpy  # only the kernels need numpy; the pure-Python path starts faster without it

        from . import _search_numba

        self.np, self.kernels = numpy, _search_numba

    def count(self, values: Sequence[int], limit: int) -> tuple[int, list[int] | None]:
        """``_search_py.count`` on the kernel."""
        np = self.np
        solution = np.zeros(81, dtype=np.int8)
        found = int(self.kernels.count(np.asarray(values, dtype=np.int8), limit, solution))
        return found, (solution.tolist() if found else None)

    def count_many(self, rows: Sequence[Sequence[int]], limit: int, solutions: bool) -> Counted:
        """``_search_py.count_many`` in one kernel call: the rows as one int8 array, no Python between puzzles."""
        np = self.np
        table = np.fromiter((v for row in rows for v in row), dtype=np.int8, count=81 * len(rows)).reshape(-1, 81)
        counts = np.zeros(len(rows), dtype=np.int32)
        found = np.zeros((len(rows), 81), dtype=np.int8)
        self.kernels.count_many(table, limit, counts, found)
        if not solutions:
            return counts.tolist(), None
        return counts.tolist(), [row if n else None for n, row in zip(counts.tolist(), found.tolist(), strict=True)]

    def single_kind(self, values: Sequence[int]) -> int:
        """``_search_py.single_kind`` on the kernel."""
        return int(self.kernels.single_kind(self.np.asarray(values, dtype=self.np.int8)))

    def close_singles(self, cand: list[int]) -> bool:
        """``_search_py.close_singles`` on the kernel."""
        array = self.np.array(cand, dtype=self.np.int32)
        closed = bool(self.kernels.close_singles(array))
        cand[:] = array.tolist()
        return closed

    def stays_unique(self, values: Sequence[int], solution: Sequence[int], removed: Sequence[int]) -> bool:
        """``_search_py.stays_unique`` on the kernel, which takes the solution's digits in the removed cells."""
        np = self.np
        digits = np.asarray([solution[c] for c in removed], dtype=np.int8)
        return bool(self.kernels.stays_unique(np.asarray(values, dtype=np.int8), np.asarray(removed, np.int32), digits))

    def dig(self, values: Sequence[int], groups: Sequence[Sequence[int]], min_givens: int) -> list[bool]:
        """``_search_py.dig`` on the kernel: the groups as rows of a table padded with -1, one kernel call."""
        np = self.np
        table = np.full((len(groups), max((len(g) for g in groups), default=1)), -1, dtype=np.int32)
        for row, group in enumerate(groups):
            table[row, : len(group)] = group
        kept = np.zeros(len(groups), dtype=np.bool_)
        self.kernels.dig(np.array(values, dtype=np.int8), table, min_givens, kept)
        return [bool(k) for k in kept.tolist()]


@cache
def _numba_backend() -> Backend:
    """The numba backend, built once."""
    return _NumbaBackend()


def _named_backend(name: str) -> Backend:
    """The backend called ``name``: ``numba`` (ImportError where numba is missing) or ``python``."""
    if name == "numba":
        return _numba_backend()
    if name == "python":
        return _search_py
    raise ValueError(f"unknown backend {name!r}: use 'numba' or 'python'")


def _select_backend() -> Backend:
    """The fastest available backend, honouring SUDOKU_ENGINE_BACKEND (``numba`` or ``python``)."""
    wanted = os.environ.get("SUDOKU_ENGINE_BACKEND", "").strip().lower()
    if wanted not in ("", "numba", "python"):
        raise ValueError(f"SUDOKU_ENGINE_BACKEND must be 'numba' or 'python', not {wanted!r}")
    try:
        return _named_backend(wanted or "numba")
    except ImportError:
        if wanted == "numba":
            raise
    return _search_py


_backend: Backend | None = None


def _get_backend() -> Backend:
    """The chosen backend, selected once on first use (importing numba is not free)."""
    global _backend
    if _backend is None:
        _backend = _select_backend()
    return _backend


def backend() -> str:
    """Name of the search backend in use: ``numba`` or ``python``."""
    return _get_backend().NAME


def warm_up() -> str:
    """Select the backend and run it once (loads or compiles the kernel); returns the backend name."""
    chosen = _get_backend()
    chosen.count([0] * 81, 1)
    chosen.count_many([[0] * 81], 1, solutions=False)
    return chosen.NAME


def use_backend(name: str) -> None:
    """Switch the search backend (``numba`` or ``python``); for tests and benchmarks."""
    global _backend
    _backend = _named_backend(name)


_VALUE_SET = frozenset(range(10))
_INT = frozenset({int})


def as_values(puzzle: PuzzleLike) -> tuple[int, ...]:
    """The 81 values of a puzzle given as a Grid, text, or a sequence of ints (0 = empty)."""
    if isinstance(puzzle, Grid):
        return puzzle.values
    if isinstance(puzzle, str):
        return parse_values(puzzle)
    values = puzzle if type(puzzle) is tuple else tuple(puzzle)
    if len(values) == 81 and _VALUE_SET.issuperset(values) and _INT.issuperset(map(type, values)):
        return values  # 81 ints from 0 to 9 already (the common case, checked at C speed)
    values = tuple(int(v) for v in values)
    if len(values) != 81 or any(not 0 <= v <= 9 for v in values):
        raise InvalidPuzzle("a puzzle is 81 values, each 0 (empty) or a digit 1..9")
    return values


def checked_values(puzzle: PuzzleLike) -> tuple[int, ...]:
    """The 81 values of a puzzle, or InvalidPuzzle for bad text, a bad length or two equal digits in a unit."""
    values = as_values(puzzle)
    check_no_conflict(values)
    return values


def solve_count(puzzle: PuzzleLike, limit: int = 2) -> tuple[int, Grid | None]:
    """How many solutions (capped at ``limit``) and the first one found, or None when there is none."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    found, solution = _get_backend().count(as_values(puzzle), limit)
    return found, (Grid(tuple(solution)) if solution is not None else None)


def solve_count_many(puzzles: Iterable[PuzzleLike], limit: int = 2) -> list[tuple[int, Grid | None]]:
    """``solve_count`` of many puzzles at once, in order: one call of the compiled search for them all (no Python
    work between two puzzles), the same answers as one call each."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    rows = [as_values(puzzle) for puzzle in puzzles]
    if not rows:
        return []
    counts, found = _get_backend().count_many(rows, limit, solutions=True)
    assert found is not None
    return [(n, Grid(tuple(s)) if s is not None else None) for n, s in zip(counts, found, strict=True)]


def count_solutions_many(puzzles: Iterable[PuzzleLike], limit: int = 2) -> list[int]:
    """``count_solutions`` of many puzzles at once, in order (``solve_count_many`` without the solutions)."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    rows = [as_values(puzzle) for puzzle in puzzles]
    return _get_backend().count_many(rows, limit, solutions=False)[0] if rows else []


def solve(puzzle: PuzzleLike) -> Grid | None:
    """A solution of the puzzle, or None when it has none (the first found when it has several)."""
    return solve_count(puzzle, limit=1)[1]


def count_solutions(puzzle: PuzzleLike, limit: int = 2) -> int:
    """Number of solutions, counted up to ``limit`` and never beyond it."""
    return solve_count(puzzle, limit)[0]


def is_unique(puzzle: PuzzleLike) -> bool:
    """True when the puzzle has exactly one solution."""
    return count_solutions(puzzle, limit=2) == 1


def single_kind(values: Sequence[int]) -> int:
    """The hardest kind of single a puzzle of 81 ints from 0 to 9 needs when the singles solve it (0 full houses,
    1 hidden singles in boxes, 2 in any house, 3 naked singles), or -1 when they do not."""
    return _get_backend().single_kind(values)


def close_singles(values: Sequence[int], cands: Sequence[int]) -> tuple[list[int], list[int]] | None:
    """Every naked and hidden single of a position placed at once: its values and candidate masks (a placed cell
    has none) after the singles' fixed point, or None when the position has no solution."""
    encoded = _search_py.encode(values, cands)
    if not _get_backend().close_singles(encoded):
        return None
    values, masks = _search_py.decode(encoded)
    if not all(v or m for v, m in zip(values, masks)):
        return None  # an open cell without candidates
    return values, masks


def stays_unique(values: Sequence[int], solution: Sequence[int], removed: Sequence[int]) -> bool:
    """Whether a puzzle made from a unique one (whose solution is given) by removing the givens of the cells
    ``removed`` and adding some of the solution's digits has one solution still (adding givens alone, nothing
    removed, keeps a puzzle unique)."""
    return not removed or _get_backend().stays_unique(values, solution, removed)


def dig(values: Sequence[int], groups: Sequence[Sequence[int]], min_givens: int = 0) -> list[bool]:
    """Remove the groups of givens in order from a unique puzzle, each kept out while the puzzle stays unique
    and at least ``min_givens`` givens remain; which removals were kept (one search call on the numba backend)."""
    return _get_backend().dig(values, groups, min_givens)
