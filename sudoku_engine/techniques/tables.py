"""Box-line tables of the intersections, shared by their Python finders (``intersections``) and their compiled
twins (``_finders_numba``).

A box's (a line's) places of a digit are read as a 9-bit mask of its positions 0..8 (a box's row-major); the
tables say which of its lines (which box) holds them all.
"""

from __future__ import annotations

from itertools import combinations

from ..grid import POPCOUNT, UNITS, UNITS_OF

# Positions 0..8 of a box (row-major) that form one of its rows or columns; of a line, one box's third.
BOX_LINES = (0b000000111, 0b000111000, 0b111000000, 0b001001001, 0b010010010, 0b100100100)
LINE_THIRDS = (0b000000111, 0b000111000, 0b111000000)


def _aligned(mask: int, lines: tuple[int, ...]) -> int:
    """Which of the position masks holds every position of a mask of two or more, or -1."""
    if POPCOUNT[mask] >= 2:
        for i, line in enumerate(lines):
            if not mask & ~line:
                return i
    return -1


# Per 9-bit mask of a box's positions: which of its rows then columns (0..5) holds them all, when two or more.
BOX_ALIGNED: tuple[int, ...] = tuple(_aligned(mask, BOX_LINES) for mask in range(512))
# Per 9-bit mask of a line's positions: which of its thirds holds them all, when two or more.
THIRD: tuple[int, ...] = tuple(_aligned(mask, LINE_THIRDS) for mask in range(512))


def _pointing_line(box: int, which: int) -> int:
    """The row (which 0..2) or column (which 3..5) of a box, as a unit."""
    top, left = UNITS[box][0] // 9, UNITS[box][0] % 9
    return top + which if which < 3 else 9 + left + which - 3


def _claiming_box(line: int, third: int) -> int:
    """The box holding a third of a line."""
    return UNITS_OF[UNITS[line][3 * third]][2]


# Per box (0..8 for units 18..26) and BOX_ALIGNED's answer: the line; per line and THIRD's answer: the box.
POINTING_LINE = tuple(tuple(_pointing_line(box, w) for w in range(6)) for box in range(18, 27))
CLAIMING_BOX = tuple(tuple(_claiming_box(line, t) for t in range(3)) for line in range(18))


def _box_line_groups(size: int) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
    """Per box, its groups of ``size`` cells inside one box-line intersection, in lexicographic order, each with
    its places in the box as bits."""
    groups = []
    for box in range(18, 27):
        thirds = [[i for i in range(9) if line >> i & 1] for line in BOX_LINES]
        places = sorted({group for third in thirds for group in combinations(third, size)})
        groups.append(tuple((tuple(UNITS[box][i] for i in g), sum(1 << i for i in g)) for g in places))
    return tuple(groups)


# Per size 2 and 3: per box, its groups of cells inside one box-line intersection and their places.
BOX_LINE_GROUPS = {size: _box_line_groups(size) for size in (2, 3)}
