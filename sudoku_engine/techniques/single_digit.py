"""Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish and Empty Rectangle (HoDoKu's definitions).

All four are short chains on one digit. A conjugate pair (strong link) is a house with exactly two places
for the digit: one of them holds it. Two strong links A=B and C=D joined by a weak link B-C (B and C see
each other) prove that A or D holds the digit, so a cell seeing both A and D loses it.

- Skyscraper: both strong links in rows (or both in columns), B and C in one column (row), A and D not
  (else it is an X-Wing).
- 2-String Kite: one strong link in a row, one in a column, B and C in one box.
- Turbot Fish: any other such chain of four distinct cells (e.g. with a strong link inside a box), except
  the X-Wing shape.
- Empty Rectangle: in a box the digit has three places or more, all in one row and one column of the box
  and not all in one of them (with two places it is a Turbot Fish); a conjugate pair in a column that
  meets that row outside the box then removes the digit where the row of its far end meets the column of
  the box (and the same with rows and columns swapped).

Unlike HoDoKu, a Skyscraper is also found when the aligned ends are the left end of one pair and the
right end of the other.

The conjugate pairs come from the digit's candidate cells as one cell mask, each with the first house that has
it: a pair in one row (column) comes with that row (column), so the house says which shape two pairs make.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import combinations

from ..board import Board, Step
from ..grid import BOXES, DIGITS, PEERS, UNITS, box_of, cell_name, col_of, row_of, unit_name
from .common import PEER_BITS, cells_of, digit_step, names
from .memo import digit_cells

SEES: tuple[frozenset[int], ...] = tuple(frozenset(p) for p in PEERS)
_UNIT_BITS: tuple[int, ...] = tuple(sum(1 << c for c in cells) for cells in UNITS)

Link = tuple[int, int, int]


def _where(board: Board, digit: int) -> int:
    """The cells holding the digit, as a cell mask."""
    return digit_cells(board)[digit - 1]


def _strong_links(where: int, units: range) -> list[Link]:
    """Conjugate pairs of a digit's places as (cell, cell, unit), one per cell pair (the first unit that has it)."""
    links: dict[tuple[int, int], int] = {}
    for unit in units:
        places = where & _UNIT_BITS[unit]
        rest = places & (places - 1)
        if rest and not rest & (rest - 1):
            links.setdefault(((places & -places).bit_length() - 1, rest.bit_length() - 1), unit)
    return [(a, c, u) for (a, c), u in links.items()]


def strong_links(board: Board, digit: int, units: range = range(27)) -> list[Link]:
    """Conjugate pairs of a digit as (cell, cell, unit), one per cell pair (the first unit that has it)."""
    return _strong_links(_where(board, digit), units)


def _common_targets(where: int, ends: tuple[int, int]) -> tuple[int, ...]:
    """Cells holding the digit that see both ends of a chain (an inner cell too, when it does)."""
    return cells_of(PEER_BITS[ends[0]] & PEER_BITS[ends[1]] & where)


def _chain_step(
    technique: str,
    label: str,
    digit: int,
    chain: tuple[int, int, int, int],
    units: tuple[int, ...],
    removed: tuple[int, ...],
    how: str,
) -> Step:
    """The Step of a four-cell strong-weak-strong chain A=B-C=D."""
    text = (
        f"{label}: {how}; so {cell_name(chain[0])} or {cell_name(chain[3])} is {digit}, and {digit} is removed "
        f"from {names(removed)} (each sees both)."
    )
    return digit_step(technique, digit, removed, chain, units, text, length=4)


# A conjugate pair of two cells in one row (column) is a row (column) link: that row comes before any other
# house holding both cells, so a link's unit says whether it is a row link, a column link or neither.


def _is_skyscraper(chain: tuple[int, int, int, int], u: int, v: int, xwing_too: bool) -> bool:
    """True when A=B and C=D (links in units u and v) are parallel line links with B, C aligned (A, D aligned
    too: X-Wing shape)."""
    a, b, c, d = chain
    if u < 9 and v < 9 and col_of(b) == col_of(c):
        return xwing_too or col_of(a) != col_of(d)
    if 9 <= u < 18 and 9 <= v < 18 and row_of(b) == row_of(c):
        return xwing_too or row_of(a) != row_of(d)
    return False


def _is_kite(chain: tuple[int, int, int, int], u: int, v: int) -> bool:
    """True when one link (units u, v) lies in a row, the other in a column, and B and C share a box."""
    crossed = (u < 9 and 9 <= v < 18) or (9 <= u < 18 and v < 9)
    return crossed and box_of(chain[1]) == box_of(chain[2])


def _chains(links: list[Link]) -> Iterator[tuple[tuple[int, int, int, int], int, int]]:
    """Every chain A=B-C=D of two disjoint strong links, as (chain, unit of A=B, unit of C=D)."""
    for (p, q, u), (r, s, v) in combinations(links, 2):
        if p in (r, s) or q in (r, s):
            continue
        for a, b in ((p, q), (q, p)):
            near = PEER_BITS[b]
            for c, d in ((r, s), (s, r)):
                if near >> c & 1:
                    yield (a, b, c, d), u, v


def _weak_unit(b: int, c: int) -> int:
    """A house shared by two cells that see each other (row, then column, then box)."""
    if row_of(b) == row_of(c):
        return row_of(b)
    if col_of(b) == col_of(c):
        return 9 + col_of(b)
    return 18 + box_of(b)


Chain = tuple[int, int, int, int]


def _four_cell_chains(
    board: Board,
    digits: Iterable[int],
    house_groups: tuple[range, ...],
    accept: Callable[[Chain, int, int], bool],
) -> Iterator[tuple[int, Chain, int, int, tuple[int, ...]]]:
    """Chains A=B-C=D of one digit whose links come from one group of houses, of the shape ``accept`` takes, that
    remove the digit somewhere: (digit, chain, unit of A=B, unit of C=D, cells seeing both ends)."""
    for digit in digits:
        where = _where(board, digit)
        for houses in house_groups:
            for chain, u, v in _chains(_strong_links(where, houses)):
                if accept(chain, u, v):
                    removed = _common_targets(where, (chain[0], chain[3]))
                    if removed:
                        yield digit, chain, u, v, removed


def skyscraper(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Two parallel conjugate pairs with one end of each in one cross line: cells seeing both tops lose it."""
    lines = (range(9), range(9, 18))
    is_skyscraper = partial(_is_skyscraper, xwing_too=False)
    for digit, chain, u, v, removed in _four_cell_chains(board, digits, lines, is_skyscraper):
        b, c = chain[1], chain[2]
        base = _weak_unit(b, c)
        how = (
            f"{unit_name(u)} and {unit_name(v)} each hold {digit} in two places only, with "
            f"{cell_name(b)} and {cell_name(c)} both in {unit_name(base)}"
        )
        yield _chain_step("skyscraper", "Skyscraper", digit, chain, (u, v, base), removed, how)


def two_string_kite(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """A row pair and a column pair joined in a box: cells seeing both free ends lose the digit."""
    for digit, chain, u, v, removed in _four_cell_chains(board, digits, (range(18),), _is_kite):
        a, b, c, d = chain
        box = 18 + box_of(b)
        how = (
            f"{unit_name(u)} holds {digit} only in {cell_name(a)} and {cell_name(b)}, {unit_name(v)} only "
            f"in {cell_name(c)} and {cell_name(d)}, and {cell_name(b)} and {cell_name(c)} share {unit_name(box)}"
        )
        yield _chain_step("two_string_kite", "2-String Kite", digit, chain, (u, v, box), removed, how)


def _is_turbot(chain: Chain, u: int, v: int) -> bool:
    """True for a chain that is neither a Skyscraper, an X-Wing's shape nor a 2-String Kite."""
    return not (_is_skyscraper(chain, u, v, xwing_too=True) or _is_kite(chain, u, v))


def turbot_fish(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Any other strong-weak-strong chain of four cells on one digit (neither skyscraper, kite nor X-Wing)."""
    for digit, chain, u, v, removed in _four_cell_chains(board, digits, (range(27),), _is_turbot):
        a, b, c, d = chain
        weak = _weak_unit(b, c)
        how = (
            f"{unit_name(u)} holds {digit} only in {cell_name(a)} and {cell_name(b)}, {unit_name(v)} only "
            f"in {cell_name(c)} and {cell_name(d)}, and {cell_name(b)} sees {cell_name(c)} in {unit_name(weak)}"
        )
        yield _chain_step("turbot_fish", "Turbot Fish", digit, chain, (u, v, weak), removed, how)


def _er_lines(places: list[int]) -> Iterator[tuple[int, int]]:
    """(row, column) pairs of a box that hold all its places of the digit without one line holding them all."""
    rows = sorted({row_of(c) for c in places})
    cols = sorted({col_of(c) for c in places})
    for r in rows:
        for k in cols:
            if all(row_of(c) == r or col_of(c) == k for c in places) and len(rows) > 1 and len(cols) > 1:
                yield r, k


def empty_rectangle(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """A box whose digit lies in one row and one column, plus a conjugate pair reaching that row or column."""
    for digit in digits:
        where = _where(board, digit)
        pairs: list[tuple[int, ...]] | None = None
        for box_index in range(len(BOXES)):
            places = list(cells_of(where & _UNIT_BITS[18 + box_index]))
            if len(places) < 3:
                continue
            if pairs is None:
                # per row, then per column: its places when it holds exactly two
                pairs = [cells_of(where & house) for house in _UNIT_BITS[:18]]
            for r, k in _er_lines(places):
                yield from _er_steps(where, pairs, digit, 18 + box_index, places, r, k)


def _er_steps(
    where: int, line_places: list[tuple[int, ...]], digit: int, box: int, places: list[int], r: int, k: int
) -> Iterator[Step]:
    """Empty Rectangle steps of one box with its row r and column k, through pairs in columns, then rows."""
    for pair_in_row in (False, True):
        # A pair outside the box: its near end on the ER row (column), its far end's line clear of the box.
        for line in range(9):
            unit = line if pair_in_row else 9 + line
            pair = line_places[unit]
            if len(pair) != 2 or any(box_of(c) == box - 18 for c in pair):
                continue
            for near, far in ((pair[0], pair[1]), (pair[1], pair[0])):
                if pair_in_row:
                    hit = col_of(near) == k and col_of(far) // 3 != k // 3
                    target = r * 9 + col_of(far)
                else:
                    hit = row_of(near) == r and row_of(far) // 3 != r // 3
                    target = row_of(far) * 9 + k
                if hit and where >> target & 1:
                    yield _er_step(digit, box, places, r, k, unit, (near, far), target)


def _er_step(
    digit: int, box: int, places: list[int], r: int, k: int, unit: int, pair: tuple[int, int], target: int
) -> Step:
    """The Step of one Empty Rectangle elimination."""
    near, far = pair
    pattern = tuple(places) + pair
    box_line = f"row {r + 1}" if unit >= 9 else f"column {k + 1}"
    other_line = f"column {k + 1}" if unit >= 9 else f"row {r + 1}"
    text = (
        f"Empty Rectangle: in {unit_name(box)} every {digit} lies in row {r + 1} or column {k + 1}, and "
        f"{unit_name(unit)} holds {digit} only in {cell_name(near)} and {cell_name(far)}; if {cell_name(target)} "
        f"were {digit}, {cell_name(far)} would not be, {cell_name(near)} would, {box_line} of {unit_name(box)} "
        f"would lose its {digit} and {other_line} would need a second {digit} inside the box, so "
        f"{cell_name(target)} loses {digit}."
    )
    return digit_step("empty_rectangle", digit, (target,), pattern, (box, unit, r, 9 + k), text, length=4)
