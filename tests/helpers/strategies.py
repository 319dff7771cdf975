"""Hypothesis strategies for valid full grids and puzzles, built without the solver.

A full grid comes from the classic pattern ``(3r + r//3 + c) mod 9`` transformed by a random relabelling of
digits, permutations of rows within bands, of bands, of columns within stacks, of stacks, and a transposition:
each transform maps valid grids to valid grids, so the result is valid by construction.
"""

from __future__ import annotations

from hypothesis import strategies as st

BASE = [[(3 * r + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)]


@st.composite
def full_grids(draw: st.DrawFn) -> list[int]:
    """A valid full grid as 81 ints."""
    digits = draw(st.permutations(range(1, 10)))
    bands = draw(st.permutations(range(3)))
    stacks = draw(st.permutations(range(3)))
    rows = [b * 3 + r for b in bands for r in draw(st.permutations(range(3)))]
    cols = [s * 3 + c for s in stacks for c in draw(st.permutations(range(3)))]
    transpose = draw(st.booleans())
    grid = [[digits[BASE[r][c] - 1] for c in cols] for r in rows]
    if transpose:
        grid = [list(column) for column in zip(*grid)]
    return [v for row in grid for v in row]


@st.composite
def blanked_grids(draw: st.DrawFn, min_blanks: int = 0, max_blanks: int = 81) -> tuple[list[int], list[int]]:
    """A full grid and a puzzle made from it by blanking a random set of cells."""
    full = draw(full_grids())
    blanks = draw(st.sets(st.integers(0, 80), min_size=min_blanks, max_size=max_blanks))
    return full, [0 if c in blanks else v for c, v in enumerate(full)]
