"""Singles: full house, hidden single (box, then row or column), naked single."""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter

from ..board import Board, Step
from ..grid import BOXES, SINGLE_DIGIT, UNITS, bit, cell_name, digits_of, unit_name

_HOUSES = tuple(itemgetter(*cells) for cells in UNITS)  # a house's entries of an 81-list, as a tuple


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


def hidden_single_step(cell: int, digit: int, unit: int) -> Step:
    """The Step placing ``digit`` in ``cell``, its one place left in ``unit`` (a box, else a row or column)."""
    return Step(
        "hidden_single_box" if unit >= 18 else "hidden_single_line",
        placements=((cell, digit),),
        units=(unit,),
        cells=(cell,),
        cause=((cell, digit),),
        text=f"Hidden single: in {unit_name(unit)}, {digit} can only go in {cell_name(cell)}.",
    )


def naked_single_step(cell: int, digit: int) -> Step:
    """The Step placing ``digit`` in ``cell``, its one candidate left."""
    return Step(
        "naked_single",
        placements=((cell, digit),),
        cells=(cell,),
        cause=((cell, digit),),
        text=f"Naked single: {cell_name(cell)} has only one candidate left, {digit}.",
    )


def _hidden_singles(board: Board, units: range) -> Iterator[Step]:
    """A digit with one place left in a house goes there."""
    cands = board.cands
    for unit in units:
        cells = UNITS[unit]
        once = twice = 0
        for cell in cells:
            twice |= once & cands[cell]
            once |= cands[cell]
        for digit in digits_of(once & ~twice):
            b = bit(digit)
            cell = next(c for c in cells if cands[c] & b)
            yield hidden_single_step(cell, digit, unit)


def hidden_single_box(board: Board) -> Iterator[Step]:
    """Hidden single in a box (the easier kind to see)."""
    return _hidden_singles(board, range(18, 18 + len(BOXES)))


def hidden_single_line(board: Board) -> Iterator[Step]:
    """Hidden single in a row or column."""
    return _hidden_singles(board, range(18))


def naked_single(board: Board) -> Iterator[Step]:
    """A cell with one candidate left takes it."""
    for cell in range(81):
        mask = board.cands[cell]
        if not board.values[cell] and mask in SINGLE_DIGIT:
            yield naked_single_step(cell, SINGLE_DIGIT[mask])
