"""Tables shared by Python finders and their compiled twins: the box-line tables of the intersections
(``intersections`` and ``_finders_numba``), and the one table of the compiled techniques (``COMPILED_FINDERS``,
read by ``compiled`` and ``_finders_numba``).

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


# The compiled finders' families (the kernel's dispatch) and the shapes of a four-cell single-digit chain A=B-C=D.
POINTING, CLAIMING, LOCKED, NAKED, HIDDEN, FISH, XY, XYZ, UR, HR, BUG, CHAIN, ER, AR = range(14)
SKYSCRAPER, TWO_STRING_KITE, TURBOT_FISH = 1, 2, 3

# The compiled techniques: (technique id, the finder family that finds it, the size, type or shape it is called
# with). A technique's place here is its code in the kernels; the codes only name finders (``compiled.run``
# and ``compiled.trace`` take the techniques in the order the caller gives, the catalogue's).
COMPILED_FINDERS: tuple[tuple[str, int, int], ...] = (
    ("pointing", POINTING, 0),
    ("claiming", CLAIMING, 0),
    ("locked_pair", LOCKED, 2),
    ("naked_pair", NAKED, 2),
    ("x_wing", FISH, 2),
    ("hidden_pair", HIDDEN, 2),
    ("locked_triple", LOCKED, 3),
    ("naked_triple", NAKED, 3),
    ("swordfish", FISH, 3),
    ("hidden_triple", HIDDEN, 3),
    ("xy_wing", XY, 0),
    ("xyz_wing", XYZ, 0),
    ("unique_rectangle_1", UR, 1),
    ("unique_rectangle_2", UR, 2),
    ("unique_rectangle_4", UR, 4),
    ("unique_rectangle_3", UR, 3),
    ("hidden_rectangle", HR, 0),
    ("naked_quad", NAKED, 4),
    ("jellyfish", FISH, 4),
    ("hidden_quad", HIDDEN, 4),
    ("bug_plus_1", BUG, 0),
    ("skyscraper", CHAIN, SKYSCRAPER),
    ("two_string_kite", CHAIN, TWO_STRING_KITE),
    ("turbot_fish", CHAIN, TURBOT_FISH),
    ("empty_rectangle", ER, 0),
    ("unique_rectangle_5", UR, 5),
    ("unique_rectangle_6", UR, 6),
    ("avoidable_rectangle_1", AR, 1),
    ("avoidable_rectangle_2", AR, 2),
)
