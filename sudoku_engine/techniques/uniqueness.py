"""Uniqueness: Unique Rectangles (types 1-6), Hidden Rectangle, Avoidable Rectangles (types 1, 2) and BUG+1.

Every technique here assumes the puzzle has exactly one solution: it removes candidates (or places a digit)
because the alternative would leave a deadly pattern, a set of cells whose two digits could be swapped to
give a second solution. On a puzzle with several solutions these steps can remove true candidates.

A rectangle is four unsolved cells in two rows, two columns and exactly two boxes that all still hold the
two rectangle digits a and b. Types 1, 2, 4, 5 and 6 and the Hidden Rectangle follow HoDoKu's definitions
(Type 2 takes the two extra-candidate corners on one side, as HoDoKu does; two diagonal ones, or three, are
its Type 5). Type 3 looks only for naked subsets with the pseudo-cell (up to a quad, so at most three further
cells) and needs at least two extra digits (with one, Type 2 applies); HoDoKu also looks for hidden subsets.

An Avoidable Rectangle has solved corners that are not givens: swapping their digits keeps every given, so
the same deadly pattern must be avoided. It needs the board's givens; a board that does not know them
(``Board.givens is None``) gets no Avoidable Rectangle. Type 1 (three solved corners) does not ask, as
HoDoKu's search does, that the open corner hold only two candidates, and Type 2 takes its two solved corners on
either side of the rectangle, where HoDoKu's search takes the side within one box: the argument uses neither.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

from ..board import Board, Candidate, Step
from ..grid import PEERS, POPCOUNT, UNITS, UNITS_OF, bit, box_of, cell_name, digits_of, unit_name
from .common import PEER_BITS, cells_of, digit_list, names, plural

Corners = tuple[int, int, int, int]


# Corner indices of a rectangle (r1c1, r1c2, r2c1, r2c2): 0 and 1 share the first row, 2 and 3 the second, 0 and 2
# the first column. Index i ^ 1 is the corner in the same row, i ^ 2 the one in the same column, i ^ 3 the diagonal.
_SIDES: tuple[tuple[int, int], ...] = ((0, 1), (2, 3), (0, 2), (1, 3))


def _rectangles(board: Board) -> list[tuple[Corners, int, int]]:
    """Every unsolved two-box rectangle with a bivalue corner, and its two digits (a, b) (kept in the board's memo
    for its position: the uniqueness finders run one after another on it)."""
    values, cands = tuple(board.values), tuple(board.cands)
    return board.memo.call(_rectangles_of, values, cands, limit=4)


def _rectangles_of(values: tuple[int, ...], cands: tuple[int, ...]) -> list[tuple[Corners, int, int]]:
    """The rectangles of a position, rows, then columns ascending.

    Every technique here needs a corner holding only the rectangle digits; such a corner also fixes the digits,
    so a rectangle without a bivalue corner is left out. Row pairs first: a column whose two cells share fewer
    than two digits cannot be a side, which prunes most pairs.
    """
    found: list[tuple[Corners, int, int]] = []
    for r1, r2 in combinations(range(9), 2):
        top, bottom = r1 * 9, r2 * 9
        shared = [cands[top + c] & cands[bottom + c] for c in range(9)]
        live = [c for c in range(9) if POPCOUNT[shared[c]] >= 2 and not values[top + c] and not values[bottom + c]]
        same_band = r1 // 3 == r2 // 3
        for c1, c2 in combinations(live, 2):
            # Exactly two boxes: the rows share a band or the columns share a stack, not both.
            if (c1 // 3 == c2 // 3) == same_band:
                continue
            common = shared[c1] & shared[c2]
            if POPCOUNT[common] != 2:
                continue
            corners = (top + c1, top + c2, bottom + c1, bottom + c2)
            if any(cands[c] == common for c in corners):
                a, b = digits_of(common)
                found.append((corners, a, b))
    return found


def _deadly(a: int, b: int) -> str:
    """Why a rectangle must not end up holding only a and b."""
    return f"the four cells could swap {a} and {b} and the puzzle would have two solutions"


def _where(corners: Corners) -> str:
    """The rectangle's cells and lines for a sentence."""
    top, bottom = corners[0] // 9 + 1, corners[2] // 9 + 1
    left, right = corners[0] % 9 + 1, corners[1] % 9 + 1
    return f"{names(corners)} (rows {top} and {bottom}, columns {left} and {right})"


def _rect_units(corners: Corners) -> tuple[int, ...]:
    """The two rows and two columns of a rectangle."""
    return (UNITS_OF[corners[0]][0], UNITS_OF[corners[2]][0], UNITS_OF[corners[0]][1], UNITS_OF[corners[1]][1])


def _shared_units(first: int, second: int) -> list[int]:
    """The houses two cells share."""
    return [u for u in UNITS_OF[first] if u in UNITS_OF[second]]


def _rect_cause(corners: Corners, a: int, b: int) -> tuple[tuple[int, int], ...]:
    """The rectangle digits in its four corners."""
    return tuple((c, d) for c in corners for d in (a, b))


def _roofs(board: Board, corners: Corners, ab: int) -> Iterator[tuple[int, int]]:
    """Sides (roof cells) whose opposite side holds exactly the two rectangle digits and which both hold more."""
    exact = [board.cands[c] == ab for c in corners]
    if exact.count(True) != 2:
        return
    for i, j in _SIDES:
        if exact[i ^ 3] and exact[j ^ 3]:
            yield corners[i], corners[j]


def _ur_step(
    technique: str,
    corners: Corners,
    digits: tuple[int, int],
    eliminations: tuple[Candidate, ...],
    text: str,
    *,
    also_causes: Iterable[Candidate] = (),
    also_units: Iterable[int] = (),
    also_cells: Iterable[int] = (),
) -> Step:
    """The Step of a rectangle on digits a and b: its corners (and ``also_cells``) shown, its a/b candidates (and
    ``also_causes``) as the cause, its rows and columns (and ``also_units``) as the houses."""
    return Step(
        technique,
        eliminations=eliminations,
        cells=(*corners, *also_cells),
        cause=(*_rect_cause(corners, *digits), *also_causes),
        units=tuple(dict.fromkeys((*_rect_units(corners), *also_units))),
        text=text,
    )


def unique_rectangle_1(board: Board) -> Iterator[Step]:
    """Three corners hold only a and b: a and b leave the fourth corner."""
    for corners, a, b in _rectangles(board):
        ab = bit(a) | bit(b)
        others = [c for c in corners if board.cands[c] != ab]
        if len(others) != 1:
            continue
        cell = others[0]
        text = (
            f"Unique Rectangle Type 1: {_where(corners)} all hold {a}/{b} and all but {cell_name(cell)} hold "
            f"nothing else; if {cell_name(cell)} were {a} or {b}, {_deadly(a, b)}, so (assuming a unique solution) "
            f"{a} and {b} leave {cell_name(cell)}."
        )
        yield _ur_step("unique_rectangle_1", corners, (a, b), ((cell, a), (cell, b)), text)


def unique_rectangle_2(board: Board) -> Iterator[Step]:
    """Two corners hold only a and b, the other side a, b and the same extra c: c leaves cells seeing both."""
    for corners, a, b in _rectangles(board):
        ab = bit(a) | bit(b)
        for roof in _roofs(board, corners, ab):
            extra = board.cands[roof[0]] & ~ab
            if board.cands[roof[1]] != board.cands[roof[0]] or POPCOUNT[extra] != 1:
                continue
            c = digits_of(extra)[0]
            targets = sorted(set(PEERS[roof[0]]) & set(PEERS[roof[1]]))
            removed = tuple((t, c) for t in targets if board.cands[t] & extra)
            if removed:
                text = (
                    f"Unique Rectangle Type 2: {_where(corners)} all hold {a}/{b}; unless {cell_name(roof[0])} or "
                    f"{cell_name(roof[1])} is {c}, {_deadly(a, b)}, so (assuming a unique solution) one of them is {c} "
                    f"and {c} leaves {names(t for t, _ in removed)}, {plural(removed, 'which sees', 'which see')} both."
                )
                yield _ur_step(
                    "unique_rectangle_2",
                    corners,
                    (a, b),
                    removed,
                    text,
                    also_causes=((roof[0], c), (roof[1], c)),
                    also_units=_shared_units(*roof),
                )


def _pseudo_subsets(
    board: Board, unit: int, roof: tuple[int, int], extra: int
) -> Iterator[tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]]]:
    """Naked sets in a house the roof shares, the roof acting as one cell holding the extra digits.

    Yields (further cells, digits of the set, eliminations); at most three further cells (a quad).
    """
    others = [c for c in UNITS[unit] if not board.values[c] and c not in roof]
    for size in range(1, 4):
        fitting = [c for c in others if POPCOUNT[board.cands[c] | extra] <= size + 1]
        for group in combinations(fitting, size):
            digits = extra
            for c in group:
                digits |= board.cands[c]
            if POPCOUNT[digits] != size + 1:
                continue
            removed = tuple((c, d) for c in others if c not in group for d in digits_of(board.cands[c] & digits))
            if removed:
                yield group, digits, removed


def unique_rectangle_3(board: Board) -> Iterator[Step]:
    """The extra digits of two roof corners form a naked set with other cells of a house they share."""
    for corners, a, b in _rectangles(board):
        ab = bit(a) | bit(b)
        for roof in _roofs(board, corners, ab):
            extra = (board.cands[roof[0]] | board.cands[roof[1]]) & ~ab
            if POPCOUNT[extra] < 2:
                continue
            extras = digit_list(digits_of(extra))
            for unit in _shared_units(*roof):
                for group, digits, removed in _pseudo_subsets(board, unit, roof, extra):
                    text = (
                        f"Unique Rectangle Type 3: {_where(corners)} all hold {a}/{b}; unless {cell_name(roof[0])} "
                        f"or {cell_name(roof[1])} takes one of {extras}, {_deadly(a, b)}, so (assuming a unique "
                        f"solution) the two act as one cell holding {extras}, which with {names(group)} forms a naked "
                        f"set on {digit_list(digits_of(digits))} in {unit_name(unit)}: those digits leave "
                        f"{names(dict.fromkeys(c for c, _ in removed))}."
                    )
                    yield _ur_step(
                        "unique_rectangle_3",
                        corners,
                        (a, b),
                        removed,
                        text,
                        also_causes=(
                            *((c, d) for c in roof for d in digits_of(board.cands[c] & extra)),
                            *((c, d) for c in group for d in digits_of(board.cands[c])),
                        ),
                        also_units=(unit,),
                        also_cells=group,
                    )


def unique_rectangle_4(board: Board) -> Iterator[Step]:
    """Two corners hold only a and b; a is confined to the other two in a house they share: b leaves both."""
    for corners, a, b in _rectangles(board):
        ab = bit(a) | bit(b)
        for roof in _roofs(board, corners, ab):
            for x, y in ((a, b), (b, a)):
                unit = next((u for u in _shared_units(*roof) if board.places(u, x) == list(roof)), None)
                if unit is None:
                    continue
                text = (
                    f"Unique Rectangle Type 4: {_where(corners)} all hold {a}/{b}, and {x} can only go in "
                    f"{cell_name(roof[0])} or {cell_name(roof[1])} within {unit_name(unit)}, so one of them is {x}; if "
                    f"the other were {y}, {_deadly(a, b)}, so (assuming a unique solution) {y} leaves both."
                )
                yield _ur_step(
                    "unique_rectangle_4", corners, (a, b), ((roof[0], y), (roof[1], y)), text, also_units=(unit,)
                )


def unique_rectangle_5(board: Board) -> Iterator[Step]:
    """Two diagonal corners, or three, hold a, b and the same one extra c: c leaves cells seeing all of them."""
    for corners, a, b in _rectangles(board):
        ab = bit(a) | bit(b)
        wide = [i for i in range(4) if board.cands[corners[i]] != ab]
        if not (len(wide) == 3 or (len(wide) == 2 and wide[0] ^ wide[1] == 3)):
            continue
        extra = 0
        for i in wide:
            extra |= board.cands[corners[i]] & ~ab
        if POPCOUNT[extra] != 1:
            continue
        c = digits_of(extra)[0]
        roof = [corners[i] for i in wide]
        seeing = PEER_BITS[roof[0]]
        for cell in roof[1:]:
            seeing &= PEER_BITS[cell]
        removed = tuple((t, c) for t in cells_of(seeing) if board.cands[t] & extra)
        if removed:
            text = (
                f"Unique Rectangle Type 5: {_where(corners)} all hold {a}/{b}, and {names(roof)} hold one more "
                f"digit, {c}, and nothing else; unless one of them is {c}, {_deadly(a, b)}, so (assuming a unique "
                f"solution) one of them is {c} and {c} leaves {names(t for t, _ in removed)}, which "
                f"{'sees' if len(removed) == 1 else 'see'} all of them."
            )
            yield _ur_step(
                "unique_rectangle_5", corners, (a, b), removed, text, also_causes=((cell, c) for cell in roof)
            )


def unique_rectangle_6(board: Board) -> Iterator[Step]:
    """Two diagonal corners hold only a and b; a lies only in the rectangle in its rows and columns: a leaves
    the other two corners."""
    for corners, a, b in _rectangles(board):
        ab = bit(a) | bit(b)
        exact = [i for i in range(4) if board.cands[corners[i]] == ab]
        if len(exact) != 2 or exact[0] ^ exact[1] != 3:
            continue
        wide = tuple(corners[i] for i in range(4) if i not in exact)
        lines = _rect_units(corners)
        for x, y in ((a, b), (b, a)):
            if any(cell not in corners for unit in lines for cell in board.places(unit, x)):
                continue
            text = (
                f"Unique Rectangle Type 6: {_where(corners)} all hold {a}/{b}, {cell_name(corners[exact[0]])} and "
                f"{cell_name(corners[exact[1]])} nothing else, and {x} lies only in these four cells in both rows "
                f"and both columns, so it fills two diagonal corners; if those were {names(wide)}, the other two "
                f"would be {y} and {_deadly(a, b)}, so (assuming a unique solution) {x} leaves {names(wide)}."
            )
            yield _ur_step("unique_rectangle_6", corners, (a, b), ((wide[0], x), (wide[1], x)), text)


def hidden_rectangle(board: Board) -> Iterator[Step]:
    """A bivalue corner (or two diagonal ones); a strongly linked in both lines of the opposite corner: b leaves it."""
    for corners, a, b in _rectangles(board):
        ab = bit(a) | bit(b)
        exact = [i for i in range(4) if board.cands[corners[i]] == ab]
        if not (len(exact) == 1 or (len(exact) == 2 and exact[0] ^ exact[1] == 3)):
            continue
        for anchor in exact:
            far = corners[anchor ^ 3]
            in_row, in_col = corners[anchor ^ 2], corners[anchor ^ 1]
            row, col = UNITS_OF[far][0], UNITS_OF[far][1]
            for x, y in ((a, b), (b, a)):
                if board.places(row, x) != sorted((far, in_row)) or board.places(col, x) != sorted((far, in_col)):
                    continue
                text = (
                    f"Hidden Rectangle: {_where(corners)} all hold {a}/{b} and {cell_name(corners[anchor])} "
                    f"holds nothing else; {x} appears only twice in {unit_name(row)} and in {unit_name(col)}, so if "
                    f"{cell_name(far)} were {y} then {cell_name(in_row)} and {cell_name(in_col)} would be {x}, "
                    f"{cell_name(corners[anchor])} {y}, and {_deadly(a, b)}: (assuming a unique solution) "
                    f"{y} leaves {cell_name(far)}."
                )
                yield _ur_step("hidden_rectangle", corners, (a, b), ((far, y),), text)


# Every rectangle of four cells in two rows, two columns and exactly two boxes: its corners (as above) and mask.
_TWO_BOX_RECTANGLES: tuple[tuple[Corners, int], ...] = tuple(
    (
        (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2),
        1 << r1 * 9 + c1 | 1 << r1 * 9 + c2 | 1 << r2 * 9 + c1 | 1 << r2 * 9 + c2,
    )
    for r1, r2 in combinations(range(9), 2)
    for c1, c2 in combinations(range(9), 2)
    if len({box_of(r1 * 9 + c1), box_of(r1 * 9 + c2), box_of(r2 * 9 + c1), box_of(r2 * 9 + c2)}) == 2
)


def _avoidable(board: Board, solved: int) -> Iterator[tuple[Corners, list[int]]]:
    """Two-box rectangles with ``solved`` corners solved and not givens, the others open: corners, solved indices."""
    if board.givens is None:
        return
    placed = 0
    for cell, value in enumerate(board.values):
        if value:
            placed |= 1 << cell
    free = placed & ~board.givens  # solved cells that are not givens
    if free.bit_count() < solved:
        return
    for corners, mask in _TWO_BOX_RECTANGLES:
        if (free & mask).bit_count() == solved and (placed & mask).bit_count() == solved:
            yield corners, [i for i in range(4) if free >> corners[i] & 1]


def avoidable_rectangle_1(board: Board) -> Iterator[Step]:
    """Three corners solved (not givens), y on one diagonal and x on the other: x leaves the open fourth corner."""
    for corners, solved in _avoidable(board, 3):
        i = next(k for k in range(4) if k not in solved)
        cell, diagonal = corners[i], corners[i ^ 3]
        x, y = board.values[diagonal], board.values[corners[i ^ 1]]
        if board.values[corners[i ^ 2]] != y or not board.has(cell, x):
            continue
        yield Step(
            "avoidable_rectangle_1",
            eliminations=((cell, x),),
            cells=corners,
            cause=tuple((c, board.values[c]) for c in corners if c != cell),
            units=_rect_units(corners),
            text=f"Avoidable Rectangle Type 1: {_where(corners)}: {cell_name(diagonal)} was solved as {x} and "
            f"{cell_name(corners[i ^ 1])} and {cell_name(corners[i ^ 2])} as {y}, none of them a given; if "
            f"{cell_name(cell)} were {x}, {_deadly(x, y)}, so (assuming a unique solution) {x} leaves "
            f"{cell_name(cell)}.",
        )


def avoidable_rectangle_2(board: Board) -> Iterator[Step]:
    """Two corners of a side solved (not givens) as a and b; the open corners across hold b, c and a, c: c leaves
    cells seeing both."""
    for corners, solved in _avoidable(board, 2):
        i, j = solved
        if i ^ j == 3:
            continue  # a diagonal, not a side
        across = 3 ^ i ^ j  # from a solved corner to the open one in its column (or row)
        a, b = board.values[corners[i]], board.values[corners[j]]
        first, second = corners[i ^ across], corners[j ^ across]  # to hold b and a in the deadly pattern
        held, other = board.cands[first], board.cands[second]
        extra = held & ~bit(b)
        if POPCOUNT[held] != 2 or POPCOUNT[other] != 2 or not held & bit(b) or other != extra | bit(a):
            continue
        c = digits_of(extra)[0]
        removed = tuple((t, c) for t in cells_of(PEER_BITS[first] & PEER_BITS[second]) if board.cands[t] & extra)
        if not removed:
            continue
        yield Step(
            "avoidable_rectangle_2",
            eliminations=removed,
            cells=corners,
            cause=((corners[i], a), (corners[j], b), (first, b), (first, c), (second, a), (second, c)),
            units=tuple(dict.fromkeys((*_rect_units(corners), *_shared_units(first, second)))),
            text=f"Avoidable Rectangle Type 2: {_where(corners)}: {cell_name(corners[i])} was solved as {a} and "
            f"{cell_name(corners[j])} as {b}, neither a given, and {cell_name(first)} holds only {b}/{c}, "
            f"{cell_name(second)} only {a}/{c}; unless one of them is {c}, {_deadly(a, b)}, so (assuming "
            f"a unique solution) one of them is {c} and {c} leaves {names(t for t, _ in removed)}, which "
            f"{'sees' if len(removed) == 1 else 'see'} both.",
        )


def _bug_digit(board: Board, cell: int) -> int | None:
    """The digit of the trivalue cell that appears three times in each of its houses, all else twice (or None)."""
    counts = [[0] * 10 for _ in UNITS]
    for u, cells in enumerate(UNITS):
        for c in cells:
            for d in digits_of(board.cands[c]):
                counts[u][d] += 1
    own = UNITS_OF[cell]
    triple = [d for d in digits_of(board.cands[cell]) if all(counts[u][d] == 3 for u in own)]
    if len(triple) != 1:
        return None
    for u in range(len(UNITS)):
        for d in range(1, 10):
            expected = (3,) if u in own and d == triple[0] else (0, 2)
            if counts[u][d] not in expected:
                return None
    return triple[0]


def bug_plus_1(board: Board) -> Iterator[Step]:
    """Every unsolved cell bivalue but one with three candidates: it takes the digit seen three times in its houses."""
    open_cells = board.empty_cells()
    if any(POPCOUNT[board.cands[c]] not in (2, 3) for c in open_cells):
        return
    wide = [c for c in open_cells if POPCOUNT[board.cands[c]] == 3]
    if len(wide) != 1:
        return
    cell = wide[0]
    digit = _bug_digit(board, cell)
    if digit is None:
        return
    houses = UNITS_OF[cell]
    yield Step(
        "bug_plus_1",
        placements=((cell, digit),),
        cells=(cell,),
        units=houses,
        cause=tuple((cell, d) for d in digits_of(board.cands[cell])),
        text=f"BUG+1: every unsolved cell but {cell_name(cell)} holds two candidates, and {digit} appears three times "
        f"in {unit_name(houses[0])}, {unit_name(houses[1])} and {unit_name(houses[2])}; without {digit} in "
        f"{cell_name(cell)} every digit would appear exactly twice in each house, a pattern that would allow two "
        f"solutions (or none), so (assuming a unique solution) {cell_name(cell)} is {digit}.",
    )
