"""Technique finders from pointing to BUG+1 and the single-digit patterns compiled by numba, and the traces over
them (``run``, ``trace``).

Each finder looks for the same first application as its Python finder in ``techniques`` (same search order),
and writes the candidates it removes as masks into ``out`` (int32[81]); a placement is written as the removal of
the cell's other candidates, which the singles that follow turn into the same placement (``trace`` places it
itself, as that is one step of the trace). Finders read ``cm``, the open cells' candidate masks (0 for a decided
cell), of a position where no single is left, as the trace only calls them there; the Avoidable Rectangles also
read ``solved``, the decided cells' digit bits (0 for an open cell), and ``givens`` (int8[81], 1 for a given; a
board that does not know its givens passes 1 everywhere: no solved cell is then known not to be a given, so no
Avoidable Rectangle is found, as on the Python side). ``run`` follows the trace with the singles placed at once
(their fixed point), then the first finder of its list that applies, again and again; ``trace`` takes the singles
one at a time, in the order of the Python singles finders, as the rating's trace counts them. The Python finders
stay the reference; the tests compare them step by step.

Importing this module needs numba; ``techniques.compiled`` uses it only on the numba backend.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._search_numba import close_singles, place
from ..grid import PEERS, POPCOUNT, UNITS, UNITS_OF
from .tables import (
    AR,
    BOX_ALIGNED,
    BOX_LINE_GROUPS,
    BUG,
    CHAIN,
    CLAIMING,
    CLAIMING_BOX,
    COMPILED_FINDERS,
    ER,
    FISH,
    HIDDEN,
    HR,
    LOCKED,
    NAKED,
    POINTING,
    POINTING_LINE,
    SKYSCRAPER,
    THIRD,
    TWO_STRING_KITE,
    UR,
    XY,
    XYZ,
)

_UNITS = np.array(UNITS, dtype=np.int32)
_UNITS_OF = np.array(UNITS_OF, dtype=np.int32)
_POPCOUNT = np.array(POPCOUNT, dtype=np.int32)
_SEES = np.zeros((81, 81), dtype=np.bool_)
for _cell, _peers in enumerate(PEERS):
    _SEES[_cell, list(_peers)] = True
_BOX_ALIGNED_A = np.array(BOX_ALIGNED, dtype=np.int32)
_THIRD_A = np.array(THIRD, dtype=np.int32)
_POINTING_LINE_A = np.array(POINTING_LINE, dtype=np.int32)
_CLAIMING_BOX_A = np.array(CLAIMING_BOX, dtype=np.int32)
# Per box, its groups of cells inside one box-line intersection (in the Python finder's order) and their places.
_PAIR_CELLS = np.array([[g for g, _ in groups] for groups in BOX_LINE_GROUPS[2]], dtype=np.int32)
_PAIR_PLACES = np.array([[p for _, p in groups] for groups in BOX_LINE_GROUPS[2]], dtype=np.int32)
_TRIPLE_CELLS = np.array([[g for g, _ in groups] for groups in BOX_LINE_GROUPS[3]], dtype=np.int32)
_TRIPLE_PLACES = np.array([[p for _, p in groups] for groups in BOX_LINE_GROUPS[3]], dtype=np.int32)
# Every two-box rectangle's corners (top left, top right, bottom left, bottom right), rows then columns ascending
# (as the Python finders list them).
_TWO_BOX = np.array(
    [
        (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2)
        for r1 in range(9)
        for r2 in range(r1 + 1, 9)
        for c1 in range(9)
        for c2 in range(c1 + 1, 9)
        if (r1 // 3 == r2 // 3) != (c1 // 3 == c2 // 3)
    ],
    dtype=np.int32,
)
# Per unit and other unit: the unit's positions (9 bits) whose cells lie in the other.
_INSIDE = np.array([[sum(1 << i for i, c in enumerate(u) if c in v) for v in UNITS] for u in UNITS], dtype=np.int32)
_LOW = 0x1FF
_DONE = 0x200

# Per code (a technique's place in ``tables.COMPILED_FINDERS``), the finder family that finds it and the size (or
# type, or shape) it is called with. A code names a finder only: the traces search the codes in the order they are
# given.
_FAMILY = np.array([family for _id, family, _size in COMPILED_FINDERS], dtype=np.int32)
_SIZE = np.array([size for _id, _family, size in COMPILED_FINDERS], dtype=np.int32)

# Results of ``run``.
STUCK, SOLVED, BROKEN = 0, 1, -1


@njit(cache=True)
def _next_combination(index, n):  # type: ignore[no-untyped-def]
    """Advance ``index`` (k ascending positions below n) to the next k-combination in lexicographic order, or from
    ``index[0] = -1`` to the first; False when there is none."""
    k = index.shape[0]
    if index[0] < 0:
        for j in range(k):
            index[j] = j
        return k <= n
    i = k - 1
    while i >= 0 and index[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    index[i] += 1
    for j in range(i + 1, k):
        index[j] = index[j - 1] + 1
    return True


@njit(cache=True)
def _positions(cm, unit, bit):  # type: ignore[no-untyped-def]
    """The 9-bit mask of a unit's positions where the digit bit is a candidate."""
    mask = 0
    for i in range(9):
        if cm[_UNITS[unit, i]] & bit:
            mask |= 1 << i
    return mask


@njit(cache=True)
def _strip(cm, out, unit, places, digits):  # type: ignore[no-untyped-def]
    """Remove the digits from the cells at the unit's ``places`` (9 bits); True when any of them had one."""
    found = False
    for i in range(9):
        if places >> i & 1:
            cell = _UNITS[unit, i]
            if cm[cell] & digits:
                out[cell] |= cm[cell] & digits
                found = True
    return found


@njit(cache=True)
def _cover_removals(cm, out, first, chosen, cover, bit):  # type: ignore[no-untyped-def]
    """The digit leaves the cover's positions in the lines (units ``first`` + 0..8) not ``chosen`` (9 bits)."""
    found = False
    for line in range(9):
        if not chosen >> line & 1 and _strip(cm, out, first + line, cover, bit):
            found = True
    return found


@njit(cache=True)
def _locked_candidates(cm, out, first, last, aligned, target):  # type: ignore[no-untyped-def]
    """Locked candidates in units ``first`` to ``last`` - 1, unit by unit, digit by digit: where ``aligned`` (per
    9-bit mask of places) says the unit's places of the digit lie in one intersection, ``target`` (per unit and
    that answer) names the other unit, whose cells outside the unit lose the digit. Pointing: the boxes, aligned
    on a line; claiming: the lines, within a box."""
    for unit in range(first, last):
        for d in range(9):
            bit = 1 << d
            where = aligned[_positions(cm, unit, bit)]
            if where < 0:
                continue
            other = target[unit - first, where]
            if _strip(cm, out, other, _LOW & ~_INSIDE[other, unit], bit):
                return True
    return False


@njit(cache=True)
def _in(cell, group):  # type: ignore[no-untyped-def]
    """Whether a cell is one of a group's."""
    for g in group:  # noqa: SIM110 (a loop numba compiles, no generator)
        if g == cell:
            return True
    return False


@njit(cache=True)
def _places_in(unit, group):  # type: ignore[no-untyped-def]
    """The unit's positions (9 bits) of the group's cells."""
    places = 0
    for i in range(9):
        if _in(_UNITS[unit, i], group):
            places |= 1 << i
    return places


@njit(cache=True)
def _shared_line(group):  # type: ignore[no-untyped-def]
    """The row, else the column, holding every cell of the group; -1 when none does."""
    for kind in range(2):
        unit = _UNITS_OF[group[0], kind]
        shared = True
        for c in group:
            if _UNITS_OF[c, kind] != unit:
                shared = False
        if shared:
            return unit
    return -1


@njit(cache=True)
def _locked(cm, out, cells, places, size):  # type: ignore[no-untyped-def]
    """A naked subset of ``size`` cells inside a box-line intersection clears its digits from both houses."""
    for b in range(9):
        box = 18 + b
        fit = 0
        for i in range(9):
            n = _POPCOUNT[cm[_UNITS[box, i]]]
            if 2 <= n <= size:
                fit |= 1 << i
        for g in range(cells.shape[1]):
            if places[b, g] & ~fit:
                continue
            group = cells[b, g]
            mask = 0
            for c in group:
                mask |= cm[c]
            if _POPCOUNT[mask] != size:
                continue
            line = _shared_line(group)
            if line < 0:
                continue
            found = _strip(cm, out, box, _LOW & ~places[b, g], mask)
            if _strip(cm, out, line, _LOW & ~_places_in(line, group), mask) or found:
                return True
    return False


@njit(cache=True)
def _scratch(size):  # type: ignore[no-untyped-def]
    """The work arrays of a search for sets: two of 9 (masks and items, by position, digit or line) and the index
    of a combination of ``size``."""
    return np.empty(9, dtype=np.int32), np.empty(9, dtype=np.int32), np.empty(size, dtype=np.int32)


@njit(cache=True)
def _fitting(masks, among, base, most, items, index):  # type: ignore[no-untyped-def]
    """The positions i in ``among`` (9 bits) whose ``masks[i]`` with ``base`` has 2 to ``most`` bits, in order,
    into ``items``, the items ``index`` chooses among (set to begin its combinations); how many."""
    n = 0
    for i in range(9):
        if among >> i & 1 and 2 <= _POPCOUNT[masks[i] | base] <= most:
            items[n] = i
            n += 1
    index[0] = -1
    return n


@njit(cache=True)
def _union(masks, items, index, base, most):  # type: ignore[no-untyped-def]
    """The union of ``base`` and the masks of the items ``index`` chooses, and those items as bits; it stops early,
    with the union so far, once that has more than ``most`` bits (too many for the set sought)."""
    union = base
    chosen = 0
    for j in range(index.shape[0]):
        item = items[index[j]]
        union |= masks[item]
        chosen |= 1 << item
        if _POPCOUNT[union] > most:
            break
    return union, chosen


@njit(cache=True)
def _naked_set(cm, out, unit, masks, among, base, index, items):  # type: ignore[no-untyped-def]
    """k cells (k: ``index``'s length) at the unit's positions ``among`` whose candidates (``masks``, by position),
    with ``base`` (the digits of one more cell, or 0), are k digits (k + 1): those digits leave the other cells of
    ``among``. Groups in lexicographic order; True at the first that removes any."""
    total = index.shape[0] + (1 if base else 0)
    n = _fitting(masks, among, base, total, items, index)
    while _next_combination(index, n):
        digits, chosen = _union(masks, items, index, base, total)
        if _POPCOUNT[digits] == total and _strip(cm, out, unit, among & ~chosen, digits):
            return True
    return False


@njit(cache=True)
def _open_places(cm, unit, masks):  # type: ignore[no-untyped-def]
    """The unit's cells' candidates, by position, into ``masks``; the positions (9 bits) of its open cells."""
    opened = 0
    for i in range(9):
        masks[i] = cm[_UNITS[unit, i]]
        if masks[i]:
            opened |= 1 << i
    return opened


@njit(cache=True)
def _naked(cm, out, size):  # type: ignore[no-untyped-def]
    """n cells of a house with n candidates between them: house by house, groups in lexicographic order."""
    masks, items, index = _scratch(size)
    for unit in range(27):
        opened = _open_places(cm, unit, masks)
        if _POPCOUNT[opened] > size and _naked_set(cm, out, unit, masks, opened, 0, index, items):
            return True
    return False


@njit(cache=True)
def _hidden_set(cm, out, unit, positions, index, digits):  # type: ignore[no-untyped-def]
    """k digits (k: ``index``'s length) whose places in the unit are k cells: the cells' other digits go. Digit
    groups in lexicographic order; True at the first that removes any. ``positions`` gets each digit's places."""
    size = index.shape[0]
    for d in range(9):
        positions[d] = _positions(cm, unit, 1 << d)
    n = _fitting(positions, _LOW, 0, size, digits, index)
    while _next_combination(index, n):
        union, keep = _union(positions, digits, index, 0, size)
        if _POPCOUNT[union] == size and _strip(cm, out, unit, union, _LOW & ~keep):
            return True
    return False


@njit(cache=True)
def _hidden(cm, out, size):  # type: ignore[no-untyped-def]
    """n digits confined to n cells of a house: house by house, digit groups in lexicographic order."""
    positions, digits, index = _scratch(size)
    for unit in range(27):
        if _POPCOUNT[_positions(cm, unit, _LOW)] > size and _hidden_set(cm, out, unit, positions, index, digits):
            return True
    return False


@njit(cache=True)
def _line_places(cm, first, bit, pos):  # type: ignore[no-untyped-def]
    """The digit's positions (9 bits) in each row (``first`` 0) or column (``first`` 9), into ``pos``."""
    for line in range(9):
        mask = 0
        for x in range(9):
            if cm[line * 9 + x if first == 0 else x * 9 + line] & bit:
                mask |= 1 << x
        pos[line] = mask


@njit(cache=True)
def _fish(cm, out, size):  # type: ignore[no-untyped-def]
    """Basic fish: digit by digit, rows as base first, base lines of 2 to n candidates in lexicographic order."""
    pos, lines, index = _scratch(size)
    for d in range(9):
        bit = 1 << d
        for first in (0, 9):
            _line_places(cm, first, bit, pos)
            n = _fitting(pos, _LOW, 0, size, lines, index)
            while _next_combination(index, n):
                cover, chosen = _union(pos, lines, index, 0, size)
                if _POPCOUNT[cover] <= size and _cover_removals(cm, out, first, chosen, cover, bit):
                    return True
    return False


@njit(cache=True)
def _common_removals(cm, out, first, second, third, z):  # type: ignore[no-untyped-def]
    """Remove the digits of ``z`` from every cell that sees the two (or, with ``third`` >= 0, three) cells."""
    found = False
    for cell in range(81):
        if cm[cell] & z and _SEES[first, cell] and _SEES[second, cell] and (third < 0 or _SEES[third, cell]):
            out[cell] |= cm[cell] & z
            found = True
    return found


@njit(cache=True)
def _pincers(cm, pivot, xyz, wings):  # type: ignore[no-untyped-def]
    """The bivalue cells that see the pivot and share one digit with it (``xyz``: hold two of its three), in cell
    order, into ``wings``; how many."""
    pm = cm[pivot]
    n = 0
    for c in range(81):
        if _POPCOUNT[cm[c]] != 2 or not _SEES[pivot, c]:
            continue
        if (not cm[c] & ~pm) if xyz else _POPCOUNT[cm[c] & pm] == 1:
            wings[n] = c
            n += 1
    return n


@njit(cache=True)
def _wing_digit(am, bm, pm, xyz):  # type: ignore[no-untyped-def]
    """The digit (as a bit) the pincers' candidates ``am`` and ``bm`` remove with the pivot's ``pm``; 0 when they
    form no wing: XY-Wing, pincers XZ and YZ on pivot XY; XYZ-Wing, pincers XZ and YZ on pivot XYZ."""
    if xyz:
        return 0 if am == bm else am & bm
    z = am & ~pm
    return 0 if am & pm == bm & pm or bm & ~pm != z else z


@njit(cache=True)
def _wing(cm, out, xyz):  # type: ignore[no-untyped-def]
    """XY-Wing (pivot XY) or, with ``xyz``, XYZ-Wing (pivot XYZ), pincers XZ and YZ: pivots, then pincer pairs,
    in cell order; Z leaves the cells that see both pincers (and, XYZ, the pivot)."""
    wings = np.empty(81, dtype=np.int32)
    for pivot in range(81):
        if _POPCOUNT[cm[pivot]] != (3 if xyz else 2):
            continue
        n = _pincers(cm, pivot, xyz, wings)
        for i in range(n):
            for j in range(i + 1, n):
                z = _wing_digit(cm[wings[i]], cm[wings[j]], cm[pivot], xyz)
                if z and _common_removals(cm, out, wings[i], wings[j], pivot if xyz else -1, z):
                    return True
    return False


@njit(cache=True)
def _rectangle_digits(cm, corner):  # type: ignore[no-untyped-def]
    """The mask of the two digits every corner of a rectangle of open cells holds when some corner holds only
    them; 0 otherwise."""
    common = cm[corner[0]] & cm[corner[1]] & cm[corner[2]] & cm[corner[3]]
    if _POPCOUNT[common] != 2:
        return 0
    for i in range(4):
        if cm[corner[i]] == common:
            return common
    return 0


@njit(cache=True)
def _roof(cm, corner, ab):  # type: ignore[no-untyped-def]
    """The side (corner indices i, j) whose opposite side holds only the two digits, both others more; (-1, -1)."""
    exact = 0
    for i in range(4):
        if cm[corner[i]] == ab:
            exact += 1
    if exact == 2:
        for i, j in ((0, 1), (2, 3), (0, 2), (1, 3)):
            if cm[corner[i ^ 3]] == ab and cm[corner[j ^ 3]] == ab:
                return i, j
    return -1, -1


@njit(cache=True)
def _low_digit(mask):  # type: ignore[no-untyped-def]
    """The bit of the lowest digit of a mask."""
    return mask & -mask


@njit(cache=True)
def _places_are(cm, unit, bit, first, second):  # type: ignore[no-untyped-def]
    """Whether the digit's places in a unit are exactly the two cells."""
    for i in range(9):
        cell = _UNITS[unit, i]
        if (cm[cell] & bit != 0) != (cell == first or cell == second):  # noqa: SIM109 (plain compares for numba)
            return False
    return True


@njit(cache=True)
def _unique_rectangle(cm, out, kind):  # type: ignore[no-untyped-def]
    """Unique rectangles of type 1 to 6 (``kind``), rectangle by rectangle."""
    for r in range(_TWO_BOX.shape[0]):
        corner = _TWO_BOX[r]
        ab = _rectangle_digits(cm, corner)
        if ab and _ur_type(cm, out, corner, ab, kind):
            return True
    return False


@njit(cache=True)
def _ur_type(cm, out, corner, ab, kind):  # type: ignore[no-untyped-def]
    """Whether the rectangle, whose corners all hold the digits ``ab``, is a Unique Rectangle of the type; its
    removals into ``out``."""
    if kind == 1:
        return _ur_type_1(cm, out, corner, ab)
    if kind == 5:
        return _ur_type_5(cm, out, corner, ab)
    if kind == 6:
        return _ur_type_6(cm, out, corner, ab)
    i, j = _roof(cm, corner, ab)
    if i < 0:
        return False
    first, second = corner[i], corner[j]
    if kind == 2:
        extra = cm[first] & ~ab
        return cm[second] == cm[first] and _POPCOUNT[extra] == 1 and _common_removals(cm, out, first, second, -1, extra)
    if kind == 4:
        return _ur_type_4(cm, out, first, second, ab)
    return _pseudo_subsets(cm, out, first, second, (cm[first] | cm[second]) & ~ab)


@njit(cache=True)
def _ur_type_1(cm, out, corner, ab):  # type: ignore[no-untyped-def]
    """Type 1: three corners hold only the two digits, which leave the fourth."""
    other = -1
    others = 0
    for c in corner:
        if cm[c] != ab:
            other = c
            others += 1
    if others != 1:
        return False
    out[other] |= ab
    return True


@njit(cache=True)
def _ur_type_4(cm, out, first, second, ab):  # type: ignore[no-untyped-def]
    """Type 4: one of the two digits (the lower first) has no other place in a house of the roof, so the other
    digit leaves both roof cells."""
    low = _low_digit(ab)
    for x, y in ((low, ab ^ low), (ab ^ low, low)):
        for k in range(3):
            unit = _UNITS_OF[first, k]
            if unit == _UNITS_OF[second, k] and _places_are(cm, unit, x, first, second):
                out[first] |= y
                out[second] |= y
                return True
    return False


@njit(cache=True)
def _ur_type_5(cm, out, corner, ab):  # type: ignore[no-untyped-def]
    """Type 5: two diagonal corners, or three, hold the two digits and the same one extra digit, which leaves the
    cells that see all of them."""
    wide = 0
    extra = 0
    roof = np.full(3, -1, dtype=np.int32)
    n = 0
    for i in range(4):
        if cm[corner[i]] != ab:
            wide |= 1 << i
            extra |= cm[corner[i]] & ~ab
            if n < 3:
                roof[n] = corner[i]
            n += 1
    if not (n == 3 or wide == 0b1001 or wide == 0b0110) or _POPCOUNT[extra] != 1:
        return False
    return _common_removals(cm, out, roof[0], roof[1], roof[2], extra)


@njit(cache=True)
def _ur_type_6(cm, out, corner, ab):  # type: ignore[no-untyped-def]
    """Type 6: two diagonal corners hold only the two digits, and one of them (the lower first) lies only in the
    rectangle in both its rows and both its columns: it leaves the other two corners."""
    exact = 0
    for i in range(4):
        if cm[corner[i]] == ab:
            exact |= 1 << i
    if exact != 0b1001 and exact != 0b0110:
        return False
    first, second = (corner[1], corner[2]) if exact == 0b1001 else (corner[0], corner[3])
    lines = (corner[0] // 9, corner[2] // 9, 9 + corner[0] % 9, 9 + corner[1] % 9)
    low = _low_digit(ab)
    for x in (low, ab ^ low):
        confined = True
        for unit in lines:
            for i in range(9):
                cell = _UNITS[unit, i]
                if cm[cell] & x and not _in(cell, corner):
                    confined = False
        if confined:
            out[first] |= x
            out[second] |= x
            return True
    return False


@njit(cache=True)
def _pseudo_subsets(cm, out, first, second, extra):  # type: ignore[no-untyped-def]
    """Type 3: the roof as one cell holding the extra digits forms a naked set with 1 to 3 cells of a shared house."""
    if _POPCOUNT[extra] < 2:
        return False
    masks, items, index = _scratch(3)
    for k in range(3):
        unit = _UNITS_OF[first, k]
        if unit != _UNITS_OF[second, k]:
            continue
        others = _open_places(cm, unit, masks) & ~_places_in(unit, (first, second))
        for size in range(1, 4):
            if _naked_set(cm, out, unit, masks, others, extra, index[:size], items):
                return True
    return False


@njit(cache=True)
def _hidden_rectangle(cm, out):  # type: ignore[no-untyped-def]
    """One bivalue corner (or two diagonal ones); the digit strongly linked in both lines of the far corner."""
    for r in range(_TWO_BOX.shape[0]):
        corner = _TWO_BOX[r]
        ab = _rectangle_digits(cm, corner)
        if ab and _hidden_rectangle_at(cm, out, corner, ab):
            return True
    return False


@njit(cache=True)
def _hidden_rectangle_at(cm, out, corner, ab):  # type: ignore[no-untyped-def]
    """Whether the rectangle, whose corners all hold the digits ``ab``, is a Hidden Rectangle; its removal into
    ``out``."""
    exact = 0
    first = -1
    for i in range(4):
        if cm[corner[i]] == ab:
            exact += 1
            if first < 0:
                first = i
    if not (exact == 1 or (exact == 2 and cm[corner[first ^ 3]] == ab)):
        return False
    low = _low_digit(ab)
    for anchor in range(4):
        if cm[corner[anchor]] != ab:
            continue
        far = corner[anchor ^ 3]
        in_row, in_col = corner[anchor ^ 2], corner[anchor ^ 1]
        for x, y in ((low, ab ^ low), (ab ^ low, low)):
            if _places_are(cm, far // 9, x, far, in_row) and _places_are(cm, 9 + far % 9, x, far, in_col):
                out[far] |= y
                return True
    return False


@njit(cache=True)
def _avoidable_rectangle(cm, out, solved, givens, kind):  # type: ignore[no-untyped-def]
    """Avoidable Rectangles of type 1 or 2 (``kind``): two-box rectangles, rows then columns ascending (as the
    Python finder lists them), with three (two) corners solved and not givens and the others open."""
    need = 3 if kind == 1 else 2
    count = 0
    for cell in range(81):
        if solved[cell] and not givens[cell]:
            count += 1
    if count < need:
        return False
    for r in range(_TWO_BOX.shape[0]):
        corner = _TWO_BOX[r]
        placed = 0
        free = 0
        for i in range(4):
            if solved[corner[i]]:
                placed += 1
                if not givens[corner[i]]:
                    free |= 1 << i
        if placed != need or _POPCOUNT[free] != need:
            continue
        if kind == 1:
            if _ar_type_1(cm, out, solved, corner, free):
                return True
        elif _ar_type_2(cm, out, solved, corner, free):
            return True
    return False


@njit(cache=True)
def _ar_type_1(cm, out, solved, corner, free):  # type: ignore[no-untyped-def]
    """Type 1: the diagonal corner of the open one solved as x, the other two as y: x leaves the open corner."""
    i = 0
    while free >> i & 1:
        i += 1
    cell = corner[i]
    x, y = solved[corner[i ^ 3]], solved[corner[i ^ 1]]
    if solved[corner[i ^ 2]] != y or not cm[cell] & x:
        return False
    out[cell] |= x
    return True


@njit(cache=True)
def _ar_type_2(cm, out, solved, corner, free):  # type: ignore[no-untyped-def]
    """Type 2: a side solved as a and b, the open corners across holding only b, c and a, c: c leaves the cells
    that see both."""
    if free == 0b1001 or free == 0b0110:  # a diagonal, not a side
        return False
    i = 0
    while not free >> i & 1:
        i += 1
    j = i + 1
    while not free >> j & 1:
        j += 1
    across = 3 ^ i ^ j  # from a solved corner to the open one in its column (or row)
    a, b = solved[corner[i]], solved[corner[j]]
    first, second = corner[i ^ across], corner[j ^ across]
    held, other = cm[first], cm[second]
    extra = held & ~b
    if _POPCOUNT[held] != 2 or _POPCOUNT[other] != 2 or not held & b or other != extra | a:
        return False
    return _common_removals(cm, out, first, second, -1, extra)


@njit(cache=True)
def _bug_plus_1(cm, out):  # type: ignore[no-untyped-def]
    """Every open cell bivalue but one trivalue cell, whose digit seen three times in its houses it takes."""
    cell = -1
    for c in range(81):
        n = _POPCOUNT[cm[c]]
        if n == 3:
            if cell >= 0:
                return False
            cell = c
        elif n != 0 and n != 2:
            return False
    if cell < 0:
        return False
    counts = np.zeros((27, 9), dtype=np.int32)
    for u in range(27):
        for i in range(9):
            m = cm[_UNITS[u, i]]
            for d in range(9):
                if m >> d & 1:
                    counts[u, d] += 1
    digit = -1
    for d in range(9):
        if (
            cm[cell] >> d & 1
            and counts[_UNITS_OF[cell, 0], d] == 3
            and counts[_UNITS_OF[cell, 1], d] == 3
            and counts[_UNITS_OF[cell, 2], d] == 3
        ):
            if digit >= 0:
                return False
            digit = d
    if digit < 0:
        return False
    for u in range(27):
        own = u == _UNITS_OF[cell, 0] or u == _UNITS_OF[cell, 1] or u == _UNITS_OF[cell, 2]
        for d in range(9):
            n = counts[u, d]
            if own and d == digit:
                if n != 3:
                    return False
            elif n != 0 and n != 2:
                return False
    out[cell] |= cm[cell] & ~(1 << digit)
    return True


@njit(cache=True)
def _two_places(cm, unit, bit):  # type: ignore[no-untyped-def]
    """The unit's two places of the digit, lower cell first, when it has exactly two; else (-1, -1)."""
    first = -1
    second = -1
    for i in range(9):
        cell = _UNITS[unit, i]
        if cm[cell] & bit:
            if first < 0:
                first = cell
            elif second < 0:
                second = cell
            else:
                return -1, -1
    if second < 0:
        return -1, -1
    return first, second


@njit(cache=True)
def _links(cm, bit, first, last, ends, units):  # type: ignore[no-untyped-def]
    """The digit's conjugate pairs in units ``first`` to ``last`` - 1, in the Python finders' order: each pair once,
    with the first unit holding it, cells into ``ends`` (lower first) and units into ``units``; returns how many."""
    n = 0
    for unit in range(first, last):
        p, q = _two_places(cm, unit, bit)
        if p < 0:
            continue
        new = True
        for j in range(n):
            if ends[j, 0] == p and ends[j, 1] == q:
                new = False
                break
        if new:
            ends[n, 0] = p
            ends[n, 1] = q
            units[n] = unit
            n += 1
    return n


@njit(cache=True)
def _parallel_lines(a, b, c, d, u, v, xwing_too):  # type: ignore[no-untyped-def]
    """A=B and C=D (links in units u, v) are links in two rows (columns) with B and C in one column (row), A and D
    not (unless ``xwing_too``: the X-Wing shape counts too)."""
    if u < 9 and v < 9 and b % 9 == c % 9:
        return xwing_too or a % 9 != d % 9
    if 9 <= u < 18 and 9 <= v < 18 and b // 9 == c // 9:
        return xwing_too or a // 9 != d // 9
    return False


@njit(cache=True)
def _crossed_in_box(b, c, u, v):  # type: ignore[no-untyped-def]
    """One link (units u, v) lies in a row, the other in a column, and B and C share a box."""
    crossed = (u < 9 and 9 <= v < 18) or (9 <= u < 18 and v < 9)
    return crossed and _UNITS_OF[b, 2] == _UNITS_OF[c, 2]


@njit(cache=True)
def _chain_fits(a, b, c, d, u, v, shape):  # type: ignore[no-untyped-def]
    """Whether the chain A=B-C=D (links in units u, v) has the shape: Skyscraper, 2-String Kite or Turbot Fish."""
    if shape == SKYSCRAPER:
        return _parallel_lines(a, b, c, d, u, v, False)
    if shape == TWO_STRING_KITE:
        return _crossed_in_box(b, c, u, v)
    return not (_parallel_lines(a, b, c, d, u, v, True) or _crossed_in_box(b, c, u, v))


@njit(cache=True)
def _chains(cm, out, bit, ends, units, n, shape):  # type: ignore[no-untyped-def]
    """The first chain A=B-C=D of the shape over two of the n links whose ends A and D both see a place of the
    digit: pairs of links in order, then each link's two directions (the Python finder's order)."""
    for i in range(n):
        p, q, u = ends[i, 0], ends[i, 1], units[i]
        for j in range(i + 1, n):
            r, s, v = ends[j, 0], ends[j, 1], units[j]
            if p == r or p == s or q == r or q == s:  # noqa: SIM109 (plain compares for numba)
                continue
            for flip in range(2):
                a, b = (q, p) if flip else (p, q)
                for turn in range(2):
                    c, d = (s, r) if turn else (r, s)
                    if (
                        _SEES[b, c]
                        and _chain_fits(a, b, c, d, u, v, shape)
                        and _common_removals(cm, out, a, d, -1, bit)
                    ):
                        return True
    return False


@njit(cache=True)
def _single_digit(cm, out, shape):  # type: ignore[no-untyped-def]
    """Skyscraper (links in rows, then in columns), 2-String Kite (rows and columns) or Turbot Fish (every house),
    digit by digit."""
    ends = np.empty((27, 2), dtype=np.int32)
    units = np.empty(27, dtype=np.int32)
    for d in range(9):
        bit = 1 << d
        if shape == SKYSCRAPER:
            for first in (0, 9):
                n = _links(cm, bit, first, first + 9, ends, units)
                if _chains(cm, out, bit, ends, units, n, shape):
                    return True
        else:
            n = _links(cm, bit, 0, 18 if shape == TWO_STRING_KITE else 27, ends, units)
            if _chains(cm, out, bit, ends, units, n, shape):
                return True
    return False


@njit(cache=True)
def _empty_rectangle(cm, out):  # type: ignore[no-untyped-def]
    """Empty Rectangle: digit by digit, box by box, its (row, column) crosses in order, then the pairs."""
    for d in range(9):
        bit = 1 << d
        for b in range(9):
            box = 18 + b
            count = 0
            rows = 0
            cols = 0
            for i in range(9):
                cell = _UNITS[box, i]
                if cm[cell] & bit:
                    count += 1
                    rows |= 1 << (cell // 9)
                    cols |= 1 << (cell % 9)
            if count < 3 or _POPCOUNT[rows] < 2 or _POPCOUNT[cols] < 2:
                continue
            for r in range(9):
                if not rows >> r & 1:
                    continue
                for k in range(9):
                    if not cols >> k & 1:
                        continue
                    crossed = True
                    for i in range(9):
                        cell = _UNITS[box, i]
                        if cm[cell] & bit and cell // 9 != r and cell % 9 != k:
                            crossed = False
                    if crossed and _er_pair(cm, out, bit, box, r, k):
                        return True
    return False


@njit(cache=True)
def _er_pair(cm, out, bit, box, r, k):  # type: ignore[no-untyped-def]
    """The first conjugate pair outside the box (columns, then rows) with one end on the box's row r (column k)
    whose far end's column (row) meets row r (column k) on a place of the digit outside the box: removed there."""
    for in_row in range(2):
        for line in range(9):
            p, q = _two_places(cm, line if in_row else 9 + line, bit)
            if p < 0 or _UNITS_OF[p, 2] == box or _UNITS_OF[q, 2] == box:
                continue
            for flip in range(2):
                near, far = (q, p) if flip else (p, q)
                if in_row:
                    hit = near % 9 == k and far % 9 // 3 != k // 3
                    target = r * 9 + far % 9
                else:
                    hit = near // 9 == r and far // 27 != r // 3
                    target = far // 9 * 9 + k
                if hit and cm[target] & bit:
                    out[target] |= bit
                    return True
    return False


@njit(cache=True)
def _find(code, cm, out, solved, givens):  # type: ignore[no-untyped-def]
    """The first application of a compiled technique (by code) written into ``out``; False when none applies."""
    family = _FAMILY[code]
    size = _SIZE[code]
    if family == POINTING:
        return _locked_candidates(cm, out, 18, 27, _BOX_ALIGNED_A, _POINTING_LINE_A)
    if family == CLAIMING:
        return _locked_candidates(cm, out, 0, 18, _THIRD_A, _CLAIMING_BOX_A)
    if family == LOCKED:
        if size == 2:
            return _locked(cm, out, _PAIR_CELLS, _PAIR_PLACES, 2)
        return _locked(cm, out, _TRIPLE_CELLS, _TRIPLE_PLACES, 3)
    if family == NAKED:
        return _naked(cm, out, size)
    if family == HIDDEN:
        return _hidden(cm, out, size)
    if family == FISH:
        return _fish(cm, out, size)
    if family in (XY, XYZ):
        return _wing(cm, out, family == XYZ)
    if family == UR:
        return _unique_rectangle(cm, out, size)
    if family == HR:
        return _hidden_rectangle(cm, out)
    if family == CHAIN:
        return _single_digit(cm, out, size)
    if family == ER:
        return _empty_rectangle(cm, out)
    if family == AR:
        return _avoidable_rectangle(cm, out, solved, givens, size)
    return _bug_plus_1(cm, out)


@njit(cache=True)
def open_masks(cand, cm, solved):  # type: ignore[no-untyped-def]
    """The open cells' candidates of ``cand`` (the solver's encoding) into ``cm``, the decided cells' digit bits
    into ``solved``; True when every cell is decided."""
    done = True
    for cell in range(81):
        mask = cand[cell]
        if mask & _DONE:
            cm[cell] = 0
            solved[cell] = mask & _LOW
        else:
            cm[cell] = mask
            solved[cell] = 0
            done = False
    return done


@njit(cache=True)
def _first_found(codes, cm, out, solved, givens):  # type: ignore[no-untyped-def]
    """The index in ``codes`` of the first compiled technique that applies, its removals in ``out``; -1 when none
    does."""
    for k in range(codes.shape[0]):
        out[:] = 0
        if _find(codes[k], cm, out, solved, givens):
            return k
    return -1


@njit(cache=True)
def run(cand, givens, codes, log, limit):  # type: ignore[no-untyped-def]
    """The trace over the singles and the compiled techniques ``codes`` (in order), on ``cand`` (the solver's
    encoding, changed in place; ``givens`` marks the puzzle's givens, not the cells the run fills), for at most
    ``limit`` steps other than singles; the index in ``codes`` of each goes into ``log`` (729 long holds every
    step: a step removes a candidate at least). Returns (SOLVED, STUCK or BROKEN, steps logged); BROKEN leaves
    ``cand`` as it was before the singles that broke it, and the run stops right after the step that reaches the
    limit (STUCK)."""
    cm = np.empty(81, dtype=np.int32)
    solved = np.empty(81, dtype=np.int32)
    out = np.empty(81, dtype=np.int32)
    saved = np.empty(81, dtype=np.int32)
    steps = 0
    while steps < limit:
        saved[:] = cand
        if not close_singles(cand):
            cand[:] = saved
            return BROKEN, steps
        if open_masks(cand, cm, solved):
            return SOLVED, steps
        taken = _first_found(codes, cm, out, solved, givens)
        if taken < 0:
            return STUCK, steps
        log[steps] = taken
        steps += 1
        for cell in range(81):
            cand[cell] &= ~out[cell]
    return STUCK, steps


@njit(cache=True)
def _digit(mask):  # type: ignore[no-untyped-def]
    """The digit (1..9) of a one-digit mask's lowest bit."""
    digit = 1
    while not mask & 1:
        mask >>= 1
        digit += 1
    return digit


@njit(cache=True)
def _hidden_digits(cm, unit):  # type: ignore[no-untyped-def]
    """The mask of the digits with one place in the unit."""
    once = 0
    twice = 0
    for i in range(9):
        mask = cm[_UNITS[unit, i]]
        twice |= once & mask
        once |= mask
    return once & ~twice


@njit(cache=True)
def _single(values, cm):  # type: ignore[no-untyped-def]
    """The trace's next single as the Python finders take it: (kind, cell, digit), kind 0 a full house, 1 a
    hidden single in a box, 2 in a row or column, 3 a naked single; kind -1 when none is left."""
    for unit in range(27):
        empty = -1
        count = 0
        placed = 0
        for i in range(9):
            cell = _UNITS[unit, i]
            if values[cell]:
                placed |= 1 << (values[cell] - 1)
            else:
                count += 1
                empty = cell
        missing = _LOW & ~placed
        if count == 1 and _POPCOUNT[missing] == 1 and cm[empty] & missing:
            return 0, empty, _digit(missing)
    for kind in range(1, 3):
        for u in range(9 if kind == 1 else 18):
            unit = 18 + u if kind == 1 else u
            hidden = _hidden_digits(cm, unit)
            if hidden:
                low = hidden & -hidden
                for i in range(9):
                    if cm[_UNITS[unit, i]] & low:
                        return kind, _UNITS[unit, i], _digit(low)
    for cell in range(81):
        if not values[cell] and _POPCOUNT[cm[cell]] == 1:
            return 3, cell, _digit(cm[cell])
    return -1, -1, 0


@njit(cache=True)
def options(values, cm):  # type: ignore[no-untyped-def]
    """How many cells are empty, and how many of them a naked or hidden single could fill right now."""
    empty = 0
    single = np.zeros(81, dtype=np.bool_)
    for cell in range(81):
        if not values[cell]:
            empty += 1
            if _POPCOUNT[cm[cell]] == 1:
                single[cell] = True
    for unit in range(27):
        hidden = _hidden_digits(cm, unit)
        if hidden:
            for i in range(9):
                if cm[_UNITS[unit, i]] & hidden:
                    single[_UNITS[unit, i]] = True
    return empty, single.sum()


@njit(cache=True)
def trace(values, cm, givens, codes, log, opened, limit):  # type: ignore[no-untyped-def]
    """The logic solver's trace step by step on ``values`` and ``cm`` (a Board's lists, changed in place; ``givens``
    as in ``run``): a single when one is left (in the Python finders' order), else the first of the compiled
    techniques ``codes`` that applies, for at most ``limit`` steps. Each step's kind goes into ``log``: 0-3 the
    singles (as ``_single``), 4 + k the k-th of ``codes``; and into ``opened[step]`` the ``options`` of the
    position it was taken in. Returns (SOLVED or STUCK, steps logged)."""
    out = np.empty(81, dtype=np.int32)
    solved = np.empty(81, dtype=np.int32)
    steps = 0
    while steps < limit:
        done = True
        for cell in range(81):
            if not values[cell]:
                done = False
                break
        if done:
            return SOLVED, steps
        opened[steps, 0], opened[steps, 1] = options(values, cm)
        kind, cell, digit = _single(values, cm)
        if kind >= 0:
            place(values, cm, cell, digit)
            log[steps] = kind
            steps += 1
            continue
        for cell in range(81):
            solved[cell] = 1 << (values[cell] - 1) if values[cell] else 0
        taken = _first_found(codes, cm, out, solved, givens)
        if taken < 0:
            return STUCK, steps
        log[steps] = 4 + taken
        steps += 1
        if _FAMILY[codes[taken]] == BUG:  # the step places its digit
            for cell in range(81):
                if out[cell]:
                    place(values, cm, cell, _digit(cm[cell] & ~out[cell]))
        else:
            for cell in range(81):
                cm[cell] &= ~out[cell]
    return STUCK, steps
