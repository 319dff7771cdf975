"""Singles: full house, hidden single (box, then row or column), naked single.

The rules, here once for every module that needs them (the finders below, the logic solver's options, the hint
ladder, hsolve's tier-1 steps):

- naked single: an open cell left with one candidate takes it;
- hidden single: a digit left with one place in a house goes there (in a box it is the easier kind to see);
- full house: the last empty cell of a house takes the one digit missing there.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from operator import itemgetter

from ..board import Board, Candidate, Step
from ..grid import BOXES, SINGLE_DIGIT, UNITS, bit, cell_name, digits_of, unit_name
from .common import candidate_step

_HOUSES = tuple(itemgetter(*cells) for cells in UNITS)  # a house's entries of an 81-list, as a tuple
ALL_HOUSES = range(len(UNITS))
BOX_HOUSES = range(18, 18 + len(BOXES))
LINE_HOUSES = range(18)


def naked_singles(board: Board) -> Iterator[Candidate]:
    """Every naked single as (cell, digit), in cell order."""
    for cell, mask in enumerate(board.cands):
        if not board.values[cell] and mask in SINGLE_DIGIT:
            yield cell, SINGLE_DIGIT[mask]


def hidden_singles(board: Board, houses: Iterable[int] = ALL_HOUSES) -> Iterator[tuple[int, int, int]]:
    """Every hidden single as (cell, digit, house), house by house, then by digit."""
    cands = board.cands
    for house in houses:
        cells = UNITS[house]
        once = twice = 0
        for cell in cells:
            twice |= once & cands[cell]
            once |= cands[cell]
        for digit in digits_of(once & ~twice):
            b = bit(digit)
            yield next(c for c in cells if cands[c] & b), digit, house


def single_cells(board: Board) -> set[int]:
    """The cells a naked or hidden single could fill right now."""
    return {cell for cell, _ in naked_singles(board)} | {cell for cell, _, _ in hidden_singles(board)}


def hidden_single_step(cell: int, digit: int, unit: int) -> Step:
    """The Step placing ``digit`` in ``cell``, its one place left in ``unit`` (a box, else a row or column)."""
    return candidate_step(
        "hidden_single_box" if unit >= 18 else "hidden_single_line",
        (cell, digit),
        f"Hidden single: in {unit_name(unit)}, {digit} can only go in {cell_name(cell)}.",
        place=True,
        units=(unit,),
    )


def naked_single_step(cell: int, digit: int) -> Step:
    """The Step placing ``digit`` in ``cell``, its one candidate left."""
    return candidate_step(
        "naked_single",
        (cell, digit),
        f"Naked single: {cell_name(cell)} has only one candidate left, {digit}.",
        place=True,
    )


def full_house(board: Board) -> Iterator[Step]:
    """The last empty cell of a house takes the one digit missing there."""
    values = board.values
    for unit, house in enumerate(_HOUSES):
        placed = house(values)
        if placed.count(0) != 1:
            continue
        cell = UNITS[unit][placed.index(0)]
        missing = 0x1FF & ~sum(bit(v) for v in placed if v)
        if missing in SINGLE_DIGIT and board.cands[cell] & missing:
            digit = SINGLE_DIGIT[missing]
            yield Step(
                "full_house",
                placements=((cell, digit),),
                units=(unit,),
                cells=(cell,),
                text=f"Full house: {cell_name(cell)} is the last empty cell in {unit_name(unit)}, so it is {digit}.",
            )


def hidden_single_box(board: Board) -> Iterator[Step]:
    """Hidden single in a box (the easier kind to see)."""
    for single in hidden_singles(board, BOX_HOUSES):
        yield hidden_single_step(*single)


def hidden_single_line(board: Board) -> Iterator[Step]:
    """Hidden single in a row or column."""
    for single in hidden_singles(board, LINE_HOUSES):
        yield hidden_single_step(*single)


def naked_single(board: Board) -> Iterator[Step]:
    """A cell with one candidate left takes it."""
    for single in naked_singles(board):
        yield naked_single_step(*single)
