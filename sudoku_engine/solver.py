"""Exact solver: ``solve``, ``count_solutions(limit)`` and ``is_unique``.

Bitmask constraint propagation (naked and hidden singles to a fixed point) plus depth-first search on the
cell with the fewest candidates. It is the inner loop of every uniqueness check and generator, so it runs as
a numba-compiled kernel when numba is installed (the ``fast`` extra) and as plain Python otherwise; both give
the same counts and the same first solution. Set ``SUDOKU_ENGINE_BACKEND=python`` to force the fallback.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import cache

from . import _search_py
from .grid import POPCOUNT, Grid, InvalidPuzzle, check_no_conflict, parse_values

PuzzleLike = Grid | str | Sequence[int]
_Counter = Callable[[Sequence[int], int], tuple[int, "list[int] | None"]]

_backend: tuple[str, _Counter] | None = None


def _numba_counter() -> _Counter:
    """A counter running the numba kernel; ImportError where numba is missing."""
    import numpy as np  # only the kernel needs numpy; the pure-Python path starts faster without it

    from . import _search_numba

    kernel = _search_numba.count

    def counter(values: Sequence[int], limit: int) -> tuple[int, list[int] | None]:
        solution = np.zeros(81, dtype=np.int8)
        found = int(kernel(np.asarray(values, dtype=np.int8), limit, solution))
        return found, (solution.tolist() if found else None)

    return counter


def _python_counter(values: Sequence[int], limit: int) -> tuple[int, list[int] | None]:
    """A counter running the pure-Python search."""
    return _search_py.count(values, limit)


def _select_backend() -> tuple[str, _Counter]:
    """The fastest available backend, honouring SUDOKU_ENGINE_BACKEND (``numba`` or ``python``)."""
    wanted = os.environ.get("SUDOKU_ENGINE_BACKEND", "").strip().lower()
    if wanted not in ("", "numba", "python"):
        raise ValueError(f"SUDOKU_ENGINE_BACKEND must be 'numba' or 'python', not {wanted!r}")
    if wanted != "python":
        try:
            return "numba", _numba_counter()
        except ImportError:
            if wanted == "numba":
                raise
    return "python", _python_counter


def backend() -> str:
    """Name of the search backend in use: ``numba`` or ``python``."""
    return _get_backend()[0]


def _get_backend() -> tuple[str, _Counter]:
    """The chosen backend, selected once on first use (importing numba is not free)."""
    global _backend
    if _backend is None:
        _backend = _select_backend()
    return _backend


def warm_up() -> str:
    """Select the backend and run it once (loads or compiles the kernel); returns the backend name."""
    name, counter = _get_backend()
    counter([0] * 81, 1)
    return name


def use_backend(name: str) -> None:
    """Switch the search backend (``numba`` or ``python``); for tests and benchmarks."""
    global _backend
    if name == "numba":
        _backend = ("numba", _numba_counter())
    elif name == "python":
        _backend = ("python", _python_counter)
    else:
        raise ValueError(f"unknown backend {name!r}: use 'numba' or 'python'")


def as_values(puzzle: PuzzleLike) -> tuple[int, ...]:
    """The 81 values of a puzzle given as a Grid, text, or a sequence of ints (0 = empty)."""
    if isinstance(puzzle, Grid):
        return puzzle.values
    if isinstance(puzzle, str):
        return parse_values(puzzle)
    values = tuple(int(v) for v in puzzle)
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
    found, solution = _get_backend()[1](as_values(puzzle), limit)
    return found, (Grid(tuple(solution)) if solution is not None else None)


def solve(puzzle: PuzzleLike) -> Grid | None:
    """A solution of the puzzle, or None when it has none (the first found when it has several)."""
    return solve_count(puzzle, limit=1)[1]


def count_solutions(puzzle: PuzzleLike, limit: int = 2) -> int:
    """Number of solutions, counted up to ``limit`` and never beyond it."""
    return solve_count(puzzle, limit)[0]


def is_unique(puzzle: PuzzleLike) -> bool:
    """True when the puzzle has exactly one solution."""
    return count_solutions(puzzle, limit=2) == 1


def solved_by_singles(values: Sequence[int]) -> bool:
    """Whether naked and hidden singles alone solve 81 ints from 0 to 9 (the search's propagation, no branching)."""
    if _get_backend()[0] == "numba":
        return bool(_numba_on_values("singles_solve")(values))
    return _search_py.singles_solve(values)


def single_kind(values: Sequence[int]) -> int:
    """The hardest kind of single a puzzle of 81 ints from 0 to 9 needs when the singles solve it (0 full houses,
    1 hidden singles in boxes, 2 in any house, 3 naked singles), or -1 when they do not."""
    if _get_backend()[0] == "numba":
        return _numba_on_values("single_kind")(values)
    return _search_py.single_kind(values)


@cache
def _numba_on_values(kernel_name: str) -> Callable[[Sequence[int]], int]:
    """A numba kernel of ``_search_numba`` that reads 81 values, callable on a sequence of ints."""
    import numpy as np

    from . import _search_numba

    kernel = getattr(_search_numba, kernel_name)

    def call(values: Sequence[int]) -> int:
        return int(kernel(np.asarray(values, dtype=np.int8)))

    return call


def close_singles(values: Sequence[int], cands: Sequence[int]) -> tuple[list[int], list[int]] | None:
    """Every naked and hidden single of a position placed at once: its values and candidate masks (a placed cell
    has none) after the singles' fixed point, or None when the position has no solution."""
    encoded = _search_py.encode(values, cands)
    if _get_backend()[0] == "numba":
        closed = _numba_close()(encoded)
        if closed is None:
            return None
        encoded = closed
    else:
        queue = [cell for cell, mask in enumerate(encoded) if not mask & _search_py.DONE and POPCOUNT[mask] == 1]
        if not _search_py.propagate(encoded, queue):
            return None
    values, masks = _search_py.decode(encoded)
    if not all(v or m for v, m in zip(values, masks)):
        return None  # an open cell without candidates
    return values, masks


@cache
def _numba_close() -> Callable[[list[int]], list[int] | None]:
    """The singles' fixed point on the numba kernel."""
    import numpy as np

    from . import _search_numba

    def close(encoded: list[int]) -> list[int] | None:
        cand = np.asarray(encoded, dtype=np.int32)
        return cand.tolist() if _search_numba.close_singles(cand) else None

    return close


def is_unique_values(values: Sequence[int]) -> bool:
    """``is_unique`` for 81 ints from 0 to 9 the caller vouches for (no parsing or checks): generators' loops."""
    return _get_backend()[1](values, 2)[0] == 1


def stays_unique(values: Sequence[int], solution: Sequence[int], removed: Sequence[int]) -> bool:
    """Whether a puzzle made from a unique one (whose solution is given) by removing the givens of the cells
    ``removed`` and adding some of the solution's digits has one solution still. A second solution would
    differ from the first in a removed cell (else it would solve the first puzzle), so the numba backend looks
    only for such a solution; adding givens alone (nothing removed) keeps a puzzle unique."""
    if not removed:
        return True
    if _get_backend()[0] == "numba":
        return not _numba_other_solution()(values, removed, [solution[c] for c in removed])
    return is_unique_values(values)


@cache
def _numba_other_solution() -> Callable[[Sequence[int], Sequence[int], Sequence[int]], bool]:
    """Whether a solution differs from the digits given at some of the cells, on the numba kernel."""
    import numpy as np

    from . import _search_numba

    def other(values: Sequence[int], cells: Sequence[int], digits: Sequence[int]) -> bool:
        return bool(
            _search_numba.other_solution(
                np.asarray(values, dtype=np.int8), np.asarray(cells, dtype=np.int32), np.asarray(digits, dtype=np.int8)
            )
        )

    return other


def dig(values: Sequence[int], groups: Sequence[Sequence[int]], min_givens: int = 0) -> list[bool]:
    """Remove the groups of givens in order from a unique puzzle, each kept out while the puzzle stays unique
    and at least ``min_givens`` givens remain; which removals were kept (one search call on the numba backend)."""
    if _get_backend()[0] == "numba":
        return _numba_dig()(values, groups, min_givens)
    current = list(values)
    givens = sum(1 for v in current if v)
    kept = []
    for group in groups:
        saved = [current[c] for c in group]
        keep = givens - len(group) >= min_givens
        if keep:
            for c in group:
                current[c] = 0
            keep = is_unique_values(current)
            if keep:
                givens -= len(group)
            else:
                for c, v in zip(group, saved):
                    current[c] = v
        kept.append(keep)
    return kept


@cache
def _numba_dig() -> Callable[[Sequence[int], Sequence[Sequence[int]], int], list[bool]]:
    """``dig`` on the numba kernel."""
    import numpy as np

    from . import _search_numba

    def dig_kernel(values: Sequence[int], groups: Sequence[Sequence[int]], min_givens: int) -> list[bool]:
        width = max((len(g) for g in groups), default=1)
        table = np.full((len(groups), width), -1, dtype=np.int32)
        for row, group in enumerate(groups):
            table[row, : len(group)] = group
        kept = np.zeros(len(groups), dtype=np.bool_)
        _search_numba.dig(np.asarray(values, dtype=np.int8), table, min_givens, kept)
        return [bool(k) for k in kept.tolist()]

    return dig_kernel
