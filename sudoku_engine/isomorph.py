"""Isomorphs of a puzzle: the validity-preserving transforms, random isomorphs and one canonical form.

A transform relabels digits, permutes the rows within each band, the bands, the columns within each stack and
the stacks, and may transpose: 2 * 6^8 grid arrangements times 9! relabellings. Every rating measure is taken on
the canonical form, so that a puzzle and all its isomorphs get the same numbers.

Canonical form: the puzzle as a coloured graph (81 cell vertices; 18 line vertices, rows and columns in one
colour because a transposition swaps them; 9 box vertices; 9 digit vertices, each joined to the cells that hold
its digit), whose automorphisms are exactly the transforms above. A canonical labelling of that graph (igraph's
bliss) ranks the lines, boxes and digits the same way, up to the puzzle's own automorphisms, whichever isomorph
it is given. The canonical puzzle takes as rows the class of lines holding the lowest-ranked line, orders the
bands (stacks) by their lowest-ranked line and the lines inside them by rank, and numbers the digits by rank.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import igraph

PuzzleValues = Sequence[int]

_ROW, _COL, _BOX, _DIGIT = 81, 90, 99, 108
_COLOURS = [0] * 81 + [1] * 18 + [2] * 9 + [3] * 9


@dataclass(frozen=True)
class Isomorph:
    """A transform: new row i is old line ``rows[i]``, new column j is old ``cols[j]``, digit d becomes ``digits[d]``.

    With ``transpose`` the old columns play the rows (``rows`` indexes old columns, ``cols`` old rows).
    """

    transpose: bool
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    digits: tuple[int, ...]  # index 0 maps 0 (blank) to 0

    def apply(self, values: PuzzleValues) -> tuple[int, ...]:
        """The transformed 81 values."""
        source = _transposed(values) if self.transpose else tuple(values)
        return tuple(self.digits[source[r * 9 + c]] for r in self.rows for c in self.cols)


def _transposed(values: PuzzleValues) -> tuple[int, ...]:
    """The values with rows and columns swapped."""
    return tuple(values[c * 9 + r] for r in range(9) for c in range(9))


def _lines(rng: random.Random) -> tuple[int, ...]:
    """A random order of nine lines that keeps bands (stacks) together."""
    bands = rng.sample(range(3), 3)
    return tuple(band * 3 + inner for band in bands for inner in rng.sample(range(3), 3))


def random_isomorph(rng: random.Random) -> Isomorph:
    """A uniformly random transform."""
    digits = rng.sample(range(1, 10), 9)
    return Isomorph(rng.random() < 0.5, _lines(rng), _lines(rng), (0, *digits))


@cache
def _frame() -> list[tuple[int, int]]:
    """The edges every puzzle graph has: each cell to its row, column and box."""
    edges = []
    for cell in range(81):
        row, col = divmod(cell, 9)
        edges += [(cell, _ROW + row), (cell, _COL + col), (cell, _BOX + row // 3 * 3 + col // 3)]
    return edges


def _graph(values: PuzzleValues) -> igraph.Graph:
    """The coloured graph of a puzzle (see the module docstring)."""
    import igraph

    edges = _frame() + [(cell, _DIGIT + digit - 1) for cell, digit in enumerate(values) if digit]
    return igraph.Graph(n=len(_COLOURS), edges=edges)


def _ranked_lines(ranks: list[int]) -> tuple[int, ...]:
    """Nine lines by rank, bands (stacks) kept together and ordered by their lowest-ranked line."""
    bands = sorted(range(3), key=lambda band: min(ranks[band * 3 : band * 3 + 3]))
    return tuple(line for band in bands for line in sorted(range(band * 3, band * 3 + 3), key=ranks.__getitem__))


def canonical_isomorph(values: PuzzleValues) -> Isomorph:
    """The transform that takes a puzzle to its canonical form."""
    # igraph returns, per canonical position, the vertex placed there; a vertex's rank is its position
    placed: list[int] = _graph(values).canonical_permutation(color=_COLOURS)
    labels = [0] * len(placed)
    for position, vertex in enumerate(placed):
        labels[vertex] = position
    row_ranks, col_ranks = labels[_ROW:_COL], labels[_COL:_BOX]
    transpose = min(col_ranks) < min(row_ranks)
    if transpose:
        row_ranks, col_ranks = col_ranks, row_ranks
    by_rank = sorted(range(1, 10), key=lambda d: labels[_DIGIT + d - 1])
    digits = [0] * 10
    for new, old in enumerate(by_rank, start=1):
        digits[old] = new
    return Isomorph(transpose, _ranked_lines(row_ranks), _ranked_lines(col_ranks), tuple(digits))


def canonical(values: PuzzleValues) -> tuple[int, ...]:
    """The canonical form: the same 81 values for every isomorph of the puzzle."""
    return canonical_isomorph(values).apply(values)
