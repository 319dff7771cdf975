"""The minlex form of a puzzle, independent of the engine: the lexicographically smallest 81-digit string (0 for a
blank) over the 2 x 6^8 arrangements of rows and columns (transposition; bands, rows in a band, stacks, columns in
a stack), digits relabelled 1, 2, 3, ... in order of first appearance. Imports no engine code.

The search builds the string row by row: every arrangement of the columns (and transposition) is tried for the
first row, and at each row only the partial arrangements whose rows so far are the smallest go on, which is exact
because a smaller prefix can never be overtaken.
"""

from __future__ import annotations

from itertools import permutations

# A certificate: transposed first?, the source row of each new row, the source column of each new column.
Transform = tuple[bool, tuple[int, ...], tuple[int, ...]]

_TRIPLES = list(permutations(range(3)))
LINE_ORDERS: list[tuple[int, ...]] = [
    tuple(3 * band + i for band in bands for i in (a, b, c)[bands.index(band)])
    for bands in _TRIPLES
    for a in _TRIPLES
    for b in _TRIPLES
    for c in _TRIPLES
]


def grid_of(puzzle: str) -> list[list[int]]:
    """The puzzle's rows of digits, 0 for a blank."""
    digits = [int(ch) if ch.isdigit() else 0 for ch in puzzle]
    return [digits[r * 9 : r * 9 + 9] for r in range(9)]


def _transposed(grid: list[list[int]]) -> list[list[int]]:
    """Rows and columns swapped."""
    return [list(column) for column in zip(*grid)]


def relabelled(digits: list[int]) -> str:
    """The digits renamed 1, 2, 3, ... in order of first appearance, as a string (0 stays 0)."""
    names: dict[int, int] = {}
    out = []
    for d in digits:
        if d and d not in names:
            names[d] = len(names) + 1
        out.append(names.get(d, 0))
    return "".join(map(str, out))


def apply(puzzle: str, transform: Transform) -> str:
    """The arrangement a certificate names, relabelled: plain index arithmetic."""
    transpose, rows, cols = transform
    grid = grid_of(puzzle)
    if transpose:
        grid = _transposed(grid)
    return relabelled([grid[r][c] for r in rows for c in cols])


def _next_rows(rows: tuple[int, ...]) -> list[int]:
    """The source rows that may come next after ``rows`` (a band is finished before another starts)."""
    if len(rows) % 3:
        band = rows[-1] // 3
        return [r for r in range(3 * band, 3 * band + 3) if r not in rows]
    used = {r // 3 for r in rows}
    return [r for r in range(9) if r // 3 not in used]


# A partial arrangement: transposed?, columns, rows so far, the relabelling so far.
_Partial = tuple[bool, tuple[int, ...], tuple[int, ...], dict[int, int]]


def _extend(
    grid: list[list[int]], cols: tuple[int, ...], row: int, names: dict[int, int]
) -> tuple[str, dict[int, int]]:
    """A source row under a column order and the relabelling so far: its string and the relabelling after it."""
    names = dict(names)
    out = []
    for c in cols:
        d = grid[row][c]
        if d and d not in names:
            names[d] = len(names) + 1
        out.append(str(names.get(d, 0)))
    return "".join(out), names


def minlex(puzzle: str) -> tuple[str, Transform]:
    """The minlex form and one transform that takes the puzzle to it."""
    grids = {False: grid_of(puzzle), True: _transposed(grid_of(puzzle))}
    partials: list[_Partial] = [(t, cols, (), {}) for t in (False, True) for cols in LINE_ORDERS]
    prefix = ""
    for _ in range(9):
        best: str | None = None
        survivors: list[_Partial] = []
        for transpose, cols, rows, names in partials:
            for row in _next_rows(rows):
                text, after = _extend(grids[transpose], cols, row, names)
                if best is None or text < best:
                    best, survivors = text, []
                if text == best:
                    survivors.append((transpose, cols, (*rows, row), after))
        assert best is not None
        prefix += best
        partials = survivors
    transpose, cols, rows, _ = partials[0]
    return prefix, (transpose, rows, cols)
