"""Intersections: pointing and claiming (locked candidates 1 and 2), locked pairs and triples.

Pointing and claiming read each digit's candidate cells as one cell mask: a box's (a line's) places of the digit
are taken out as 9 bits, and a table of ``tables`` says which of its lines (which box) holds them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from ..board import Board, Step
from ..grid import DIGITS, POPCOUNT, UNITS, UNITS_OF, digits_of, unit_name
from .common import cells_of, digit_list, digit_step, names
from .memo import digit_cells
from .tables import BOX_ALIGNED, BOX_LINE_GROUPS, CLAIMING_BOX, POINTING_LINE, THIRD

_UNIT_BITS: tuple[int, ...] = tuple(sum(1 << c for c in cells) for cells in UNITS)


def _line_units(cells: list[int]) -> list[int]:
    """Row and column units that contain every one of the cells."""
    return [u for u in UNITS_OF[cells[0]][:2] if all(u in UNITS_OF[c] for c in cells)]


def _places(unit: int, mask: int) -> list[int]:
    """The cells at the positions of a 9-bit mask of a unit."""
    return [UNITS[unit][i] for i in range(9) if mask >> i & 1]


_COLUMN = sum(1 << 9 * k for k in range(9))  # the cells of the first column
_GATHER = sum(1 << 8 * j for j in range(1, 10))  # times a column's bits: bit 9k lands on 72 + k, with no carries


def _positions(where: int, unit: int) -> int:
    """The 9-bit mask of a unit's positions (the order of its cells) that are in a cell mask."""
    if unit < 9:
        return where >> 9 * unit & 0x1FF
    if unit < 18:
        return (where >> (unit - 9) & _COLUMN) * _GATHER >> 72 & 0x1FF
    part = where >> UNITS[unit][0]
    return part & 7 | part >> 6 & 0o70 | part >> 12 & 0o700


def _locked_step(
    technique: str, digit: int, house: int, other: int, places: Sequence[int], removed: tuple[int, ...]
) -> Step:
    """The Step of locked candidates: ``digit`` confined to ``places`` of ``house``, all inside ``other``, leaves
    the ``removed`` cells of ``other``."""
    label = "Pointing" if technique == "pointing" else "Claiming"
    text = (
        f"{label}: in {unit_name(house)}, {digit} can only go in {names(places)}, all in {unit_name(other)}, so "
        f"{digit} leaves the rest of {unit_name(other)}."
    )
    return digit_step(technique, digit, removed, places, (house, other), text)


def pointing(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Locked candidates 1: a digit confined to one line inside a box leaves the rest of that line."""
    where = digit_cells(board)
    digits = list(digits)
    for box in range(18, 27):
        outside = ~_UNIT_BITS[box]
        first = UNITS[box][0]
        for digit in digits:
            part = where[digit - 1] >> first  # the box's three rows of three, as in _positions
            mask = part & 7 | part >> 6 & 0o70 | part >> 12 & 0o700
            which = BOX_ALIGNED[mask]
            if which >= 0:
                line = POINTING_LINE[box - 18][which]
                removed = cells_of(where[digit - 1] & _UNIT_BITS[line] & outside)
                if removed:
                    yield _locked_step("pointing", digit, box, line, _places(box, mask), removed)


def claiming(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Locked candidates 2: a digit confined to one box inside a line leaves the rest of that box."""
    where = digit_cells(board)
    digits = list(digits)
    for line in range(18):
        outside = ~_UNIT_BITS[line]
        for digit in digits:
            third = THIRD[_positions(where[digit - 1], line)]
            if third < 0:
                continue
            box = CLAIMING_BOX[line][third]
            removed = cells_of(where[digit - 1] & _UNIT_BITS[box] & outside)
            if removed:
                places = _places(line, _positions(where[digit - 1], line))
                yield _locked_step("claiming", digit, line, box, places, removed)


def _locked_subsets(board: Board, size: int, technique: str, label: str) -> Iterator[Step]:
    """A naked subset inside a box-line intersection clears its digits from both houses."""
    values, cands = board.values, board.cands
    for box, groups in zip(range(18, 27), BOX_LINE_GROUPS[size]):
        fit = 0
        for i, c in enumerate(UNITS[box]):
            if not values[c] and 2 <= POPCOUNT[cands[c]] <= size:
                fit |= 1 << i
        for group, places in groups:
            if places & ~fit:
                continue
            mask = 0
            for c in group:
                mask |= board.cands[c]
            lines = _line_units(list(group))
            if POPCOUNT[mask] != size or not lines:
                continue
            houses = (box, lines[0])
            removed = tuple(
                (c, d) for u in houses for c in UNITS[u] if c not in group for d in digits_of(board.cands[c] & mask)
            )
            removed = tuple(dict.fromkeys(removed))
            if removed:
                digits = digit_list(digits_of(mask))
                yield Step(
                    technique,
                    eliminations=removed,
                    units=houses,
                    cells=group,
                    cause=tuple((c, d) for c in group for d in digits_of(board.cands[c])),
                    text=f"{label}: {names(group)} hold only {digits} and lie in both {unit_name(box)} and "
                    f"{unit_name(lines[0])}, so {digits} leave the rest of both.",
                )


def locked_pair(board: Board) -> Iterator[Step]:
    """Two cells of a box and a line with the same two candidates."""
    return _locked_subsets(board, 2, "locked_pair", "Locked pair")


def locked_triple(board: Board) -> Iterator[Step]:
    """Three cells of a box and a line with three candidates between them."""
    return _locked_subsets(board, 3, "locked_triple", "Locked triple")
