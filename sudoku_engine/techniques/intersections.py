"""Intersections: pointing and claiming (locked candidates 1 and 2), locked pairs and triples.

Pointing and claiming read each digit's candidate cells as one cell mask: a box's (a line's) places of the digit
are taken out as 9 bits, and a table says which of its lines (which box) holds them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

from ..board import Board, Step
from ..grid import DIGITS, POPCOUNT, UNITS, UNITS_OF, digits_of, unit_name
from .common import cells_of, digit_list, names
from .memo import digit_cells

# Positions 0..8 of a box (row-major) that form one of its rows or columns; of a line, one box's third.
_BOX_LINES = (0b000000111, 0b000111000, 0b111000000, 0b001001001, 0b010010010, 0b100100100)
_LINE_THIRDS = (0b000000111, 0b000111000, 0b111000000)
_UNIT_BITS: tuple[int, ...] = tuple(sum(1 << c for c in cells) for cells in UNITS)


def _line_units(cells: list[int]) -> list[int]:
    """Row and column units that contain every one of the cells."""
    return [u for u in UNITS_OF[cells[0]][:2] if all(u in UNITS_OF[c] for c in cells)]


def _aligned(mask: int, lines: tuple[int, ...]) -> int:
    """Which of the position masks holds every position of a mask of two or more, or -1."""
    if POPCOUNT[mask] >= 2:
        for i, line in enumerate(lines):
            if not mask & ~line:
                return i
    return -1


# Per 9-bit mask of a box's positions: which of its rows then columns (0..5) holds them all, when two or more.
_BOX_ALIGNED: tuple[int, ...] = tuple(_aligned(mask, _BOX_LINES) for mask in range(512))
# Per 9-bit mask of a line's positions: which of its thirds holds them all, when two or more.
_THIRD: tuple[int, ...] = tuple(_aligned(mask, _LINE_THIRDS) for mask in range(512))


def _pointing_line(box: int, which: int) -> int:
    """The row (which 0..2) or column (which 3..5) of a box, as a unit."""
    top, left = UNITS[box][0] // 9, UNITS[box][0] % 9
    return top + which if which < 3 else 9 + left + which - 3


def _claiming_box(line: int, third: int) -> int:
    """The box holding a third of a line."""
    return UNITS_OF[UNITS[line][3 * third]][2]


_POINTING_LINE = tuple(tuple(_pointing_line(box, w) for w in range(6)) for box in range(18, 27))
_CLAIMING_BOX = tuple(tuple(_claiming_box(line, t) for t in range(3)) for line in range(18))


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
            which = _BOX_ALIGNED[mask]
            if which >= 0:
                line = _POINTING_LINE[box - 18][which]
                removed = tuple((c, digit) for c in cells_of(where[digit - 1] & _UNIT_BITS[line] & outside))
                if removed:
                    places = _places(box, mask)
                    yield Step(
                        "pointing", eliminations=removed, cause=tuple((c, digit) for c in places),
                        units=(box, line), cells=tuple(places),
                        text=f"Pointing: in {unit_name(box)}, {digit} can only go in {names(places)}, all in "
                        f"{unit_name(line)}, so {digit} leaves the rest of {unit_name(line)}.",
                    )


def claiming(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Locked candidates 2: a digit confined to one box inside a line leaves the rest of that box."""
    where = digit_cells(board)
    digits = list(digits)
    for line in range(18):
        outside = ~_UNIT_BITS[line]
        for digit in digits:
            third = _THIRD[_positions(where[digit - 1], line)]
            if third < 0:
                continue
            box = _CLAIMING_BOX[line][third]
            removed = tuple((c, digit) for c in cells_of(where[digit - 1] & _UNIT_BITS[box] & outside))
            if removed:
                places = _places(line, _positions(where[digit - 1], line))
                yield Step(
                    "claiming", eliminations=removed, cause=tuple((c, digit) for c in places),
                    units=(line, box), cells=tuple(places),
                    text=f"Claiming: in {unit_name(line)}, {digit} can only go in {names(places)}, all in "
                    f"{unit_name(box)}, so {digit} leaves the rest of {unit_name(box)}.",
                )


def _box_line_groups(size: int) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
    """Per box, its groups of ``size`` cells inside one box-line intersection, in lexicographic order, each with
    its places in the box as bits."""
    groups = []
    for box in range(18, 27):
        thirds = [[i for i in range(9) if line >> i & 1] for line in _BOX_LINES]
        places = sorted({group for third in thirds for group in combinations(third, size)})
        groups.append(tuple((tuple(UNITS[box][i] for i in g), sum(1 << i for i in g)) for g in places))
    return tuple(groups)


_GROUPS = {size: _box_line_groups(size) for size in (2, 3)}


def _locked_subsets(board: Board, size: int, technique: str, label: str) -> Iterator[Step]:
    """A naked subset inside a box-line intersection clears its digits from both houses."""
    values, cands = board.values, board.cands
    for box, groups in zip(range(18, 27), _GROUPS[size]):
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
                (c, d) for u in houses for c in UNITS[u] if c not in group
                for d in digits_of(board.cands[c] & mask)
            )
            removed = tuple(dict.fromkeys(removed))
            if removed:
                digits = digit_list(digits_of(mask))
                yield Step(
                    technique, eliminations=removed, units=houses, cells=group,
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


