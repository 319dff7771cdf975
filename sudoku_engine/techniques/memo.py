"""Memo for techniques that search digit by digit or house by house: skip what has not changed.

Pointing, claiming, fish, the single-digit patterns, colouring and X-Chains look at one digit's candidate
cells at a time, so what they find for a digit is a function of that digit's cell set alone. When a finder
has run to the end without a step for a digit, the pair (technique, cell set) is remembered in the board's
``Memo`` (so for the positions of one solve or one hint, nothing longer), and later calls
pass only the digits not known to be empty. The logic solver tries every technique again after each step,
and a step changes the cell sets of one digit or a few: the other digits are skipped. The result is the same as a
full search (the finders search each digit independently and report a digit's steps in the same order).
Naked and hidden subsets are remembered the same way per house, keyed by the house's cells.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from ..board import Board, Step
from ..grid import DIGITS, UNITS

# A finder restricted to some digits (or houses): Board, digits (houses) -> steps.
PartFinder = Callable[[Board, Iterable[int]], Iterator[Step]]

_LIMIT = 200_000  # keys known to give no step, per board (a long solve starts afresh past it)
_EMPTY = "memo.empty"


def _digit_cells(cands: tuple[int, ...]) -> tuple[int, ...]:
    """For each digit 1..9 (index d - 1), the cells of ``cands`` holding it, as an 81-bit mask."""
    cells = [0] * 9
    for cell, mask in enumerate(cands):
        while mask:
            low = mask & -mask
            cells[low.bit_length() - 1] |= 1 << cell
            mask ^= low
    return tuple(cells)


def _house_cells(marks: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """For each house, the entries of ``marks`` of its cells."""
    return tuple(tuple([marks[c] for c in cells]) for cells in UNITS)


def digit_cells(board: Board) -> tuple[int, ...]:
    """For each digit 1..9 (index d - 1), its candidate cells as an 81-bit mask (bit = cell index).

    Kept for the board's last candidates: the finders of one position all ask for it.
    """
    return board.memo.call(_digit_cells, tuple(board.cands), limit=1)


def house_cells(board: Board) -> tuple[tuple[int, ...], ...]:
    """For each house, its cells' candidate masks, a placed digit d as d << 9 (so the tuple says it all)."""
    marks = tuple([m | v << 9 for m, v in zip(board.cands, board.values)])
    return board.memo.call(_house_cells, marks, limit=1)


def find(technique: str, finder: PartFinder, board: Board) -> Iterator[Step]:
    """The finder's steps for the digits not known to be empty; digits found empty are remembered."""
    cells = digit_cells(board)
    empty = board.memo.cache(_EMPTY, _LIMIT)
    todo = [d for d in DIGITS if cells[d - 1] and (technique, d, cells[d - 1]) not in empty]
    if not todo:
        return
    productive: set[int] = set()
    for step in finder(board, todo):
        productive.update(d for _, d in step.eliminations)
        productive.update(d for _, d in step.placements)
        yield step
    empty.update(dict.fromkeys((technique, d, cells[d - 1]) for d in todo if d not in productive))


def find_by_house(technique: str, finder: PartFinder, board: Board) -> Iterator[Step]:
    """The finder's steps in the houses not known to be empty; houses found empty are remembered."""
    houses = house_cells(board)
    empty = board.memo.cache(_EMPTY, _LIMIT)
    todo = [u for u in range(27) if (technique, u, houses[u]) not in empty]
    if not todo:
        return
    productive: set[int] = set()
    for step in finder(board, todo):
        productive.update(step.units)
        yield step
    empty.update(dict.fromkeys((technique, u, houses[u]) for u in todo if u not in productive))
