"""Fish: basic X-Wing, Swordfish and Jellyfish, their finned and sashimi forms, and Franken X-Wing and Swordfish
with their finned forms (HoDoKu's definitions).

A fish of size n on one digit takes n base lines (rows, or columns) whose candidates lie in n cover lines
of the other direction. Basic fish: every base candidate is covered, so the digit leaves the rest of the
cover lines. Finned fish: the uncovered base candidates (the fins) all lie in one box; either a fin is
true or the fish is, so only cover cells in the fin box outside the base lines lose the digit. Sashimi
fish: a finned fish in which some base line keeps a single covered candidate, so without its fins the
fish would be degenerate. Every base line holds two candidates at least (a line with one is a hidden
single, not a fish line), every base line keeps a covered candidate (a line of fins alone would only
restate locked candidates) and every cover line holds a covered base candidate.

Search: per digit and direction, each line's candidates are a 9-bit mask of cross positions (the cover
lines). Basic fish: base sets grow among the lines of 2 to n candidates while their union spans at most n
positions; at most C(9, 4) = 126 base sets per digit and direction. Finned fish: the fin box is the meeting
of a band (three base lines) and a stack (three cross positions), and it must hold the digit in two of its
lines at least (the fins in one, an elimination in another). The base splits into one to three lines of
the band, of 2 to n + 3 candidates, and lines outside the band; every base candidate outside the box is
covered, so the lines outside the band hold 2 to n candidates and the base candidates outside the box span
at most n positions, which bounds both parts. The cover is those positions completed by one of the few
choices (at most C(3, k)) of base positions inside the box. Fish come digit by digit, rows as base first,
then in the order of their base lines (lexicographic), fin band, fin stack and cover choice. The packed lines
of a position are kept for the next finder, as the nine of them run one after another on the same candidates.

Franken fish (HoDoKu's category): the base houses are rows and boxes and the cover houses columns and boxes
(or columns and boxes against rows and boxes), with at least one row (column) in the base, one column (row)
in the cover and one box among them all; with rows and columns alone the fish is a basic one, with lines of
both directions in the base or in the cover, or only boxes on one side, HoDoKu calls it Mutant. No house is
both base and cover. A base candidate in two base houses is an endo fin; the fins are the uncovered base
candidates and the endo fins. Unfinned: every base candidate is covered and no two base houses share one, so
the digit leaves the cover cells outside the base, and the base cells in two cover houses (cannibalism).
Finned: those eliminations that see every fin. As with the basic fish, every base house holds two
candidates at least and keeps a covered one that is not a fin, and every cover house holds a base candidate.
HoDoKu's search stops at 5 fins and 2 endo fins, and its unfinned search skips base houses of more than n
candidates; neither limit is part of the pattern, so neither is kept here. Of several fish with the same
eliminations of a digit only the first is reported, as HoDoKu does.

Search, by the cell t a fish would remove: were t the digit, the fins and the base cells t sees would go, and
the fish would break, n base houses left to fill from the n - 1 cover houses other than t's (n - 1 base houses
from n - 2 covers when t is a base cell in two cover houses). So per digit, direction (columns as base are rows
on the transposed grid) and target, the base houses whose cells unseen by t fit in n - 1 covers are combined
(a table gives the fewest columns and boxes that hold a set of cells), the covers completed in every way, and
each candidate fish is checked against the definition. Both sizes come from one search, kept per digit's cells
for the four finders.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache, partial
from itertools import combinations
from operator import getitem

from ..board import Board, Step
from ..grid import DIGITS, MASK_DIGITS, POPCOUNT, UNITS, box_of, unit_name
from . import memo
from .common import PEER_BITS, cells_of, digit_step, names, plural

_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
_SIZES = (2, 3, 4)
_STACKS = (0b000000111, 0b000111000, 0b111000000)

# A set of lines: (mask of its lines, union of their cross positions).
_LineSet = tuple[int, int]

# A finned fish found: base lines, fin band, fin stack, rank of its cover choice, cover mask, mask of base lines.
_Hit = tuple[tuple[int, ...], int, int, int, int, int]

_LINE_BITS = tuple(1 << line for line in range(9))

# Cross positions 0..8 set in a mask.
_CROSSES: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(9) if m >> i & 1) for m in range(512))

# Per position i in a line, per candidate mask: bit 9 * (d - 1) + i for every digit d of the mask.
_SPREAD: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << (9 * (d - 1) + i) for d in MASK_DIGITS[m]) for m in range(512)) for i in range(9)
)

# Bits 0, 3 and 6 (the first position of each stack) of every digit's field in a packed line.
_STACK_FLAGS = sum(0o111 << 9 * d for d in range(9))

# The stacks (3-bit mask) a mask meets; also maps a field's stack flags (bits 0, 3, 6) to that 3-bit mask.
_MEETS: tuple[int, ...] = tuple(sum(1 << i for i, s in enumerate(_STACKS) if m & s) for m in range(512))

# Per size n: does a union of cross positions span at most n positions?
_NARROW: dict[int, tuple[bool, ...]] = {n: tuple(POPCOUNT[m] <= n for m in range(512)) for n in _SIZES}

# Per size n: may a line be a base line outside the fin band (2 to n candidates)?
_SMALL: dict[int, tuple[bool, ...]] = {n: tuple(2 <= POPCOUNT[m] <= n for m in range(512)) for n in _SIZES}

# Per size n: 1 when a line may be a base line of a finned fish (2 to n + 3 candidates).
_WIDE: dict[int, tuple[int, ...]] = {n: tuple(int(2 <= POPCOUNT[m] <= n + 3) for m in range(512)) for n in _SIZES}

# Per size n, per 3-bit mask of a band's lines: its non-empty subsets of at most n lines.
_SUBSETS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple(sub for sub in range(1, 8) if not sub & ~m and POPCOUNT[sub] <= n) for m in range(8)) for n in _SIZES
}

# Per size n, per mask: the stacks (3-bit mask) outside which the mask spans at most n positions.
_FITS: dict[int, tuple[int, ...]] = {
    n: tuple(sum(1 << i for i, s in enumerate(_STACKS) if POPCOUNT[m & ~s] <= n) for m in range(512)) for n in _SIZES
}

# Per mask: the stacks (3-bit mask) outside which it holds one position at most; any stack, per band subset.
_LONE: tuple[int, ...] = tuple(sum(1 << i for i, s in enumerate(_STACKS) if POPCOUNT[m & ~s] <= 1) for m in range(512))
_ANY_STACK = (0b111,) * 8

# Per mask inside one stack, per count k: the masks of its k-subsets, in the order of ``combinations``.
_CHOICES: dict[int, tuple[tuple[int, ...], ...]] = {
    m: tuple(tuple(sum(1 << x for x in chosen) for chosen in combinations(_CROSSES[m], k)) for k in range(5))
    for s in _STACKS
    for m in range(512)
    if not m & ~s
}


def _cell(rows_base: bool, line: int, cross: int) -> int:
    """The cell at a base line and a cross position, in either direction."""
    return line * 9 + cross if rows_base else cross * 9 + line


_Packed = tuple[tuple[int, ...], tuple[int, ...]]


def _pack(cands: tuple[int, ...]) -> _Packed:
    """Per row and per column, every digit's position mask packed in one int (digit d at bit 9 * (d - 1))."""
    return (
        tuple([sum(map(getitem, _SPREAD, cands[r * 9 : r * 9 + 9])) for r in range(9)]),
        tuple([sum(map(getitem, _SPREAD, cands[c::9])) for c in range(9)]),
    )


def _packed(board: Board) -> _Packed:
    """The board's candidates packed per row and per column (kept for the last candidates: the nine fish finders
    run one after another on the same position)."""
    return board.memo.call(_pack, tuple(board.cands), limit=1)


def _fin_boxes(packed: tuple[int, ...]) -> list[int]:
    """Per band, for every digit packed: the flag of stack s (bit 3 * s) when its box holds the digit in two lines."""
    meets = [(line | line >> 1 | line >> 2) & _STACK_FLAGS for line in packed]
    return [a & b | a & c | b & c for a, b, c in (meets[0:3], meets[3:6], meets[6:9])]


def _line_sets(pos: list[int], size: int, depth: int) -> list[list[_LineSet]]:
    """Per count k up to ``depth``, the sets of k lines of 2 to n candidates within n positions, lexicographically."""
    small = _SMALL[size]
    items = [(line, mask) for line, mask in zip(_LINE_BITS, pos) if small[mask]]
    if depth < 2:
        return [[(0, 0)], items]
    narrow = _NARROW[size]
    pairs: list[_LineSet] = []
    triples: list[_LineSet] = []
    quads: list[_LineSet] = []
    for i, (first, first_mask) in enumerate(items, 1):
        for j in range(i, len(items)):
            second, second_mask = items[j]
            two = first_mask | second_mask
            if not narrow[two]:
                continue
            pairs.append((first | second, two))
            if depth < 3:
                continue
            for k in range(j + 1, len(items)):
                third, third_mask = items[k]
                three = two | third_mask
                if not narrow[three]:
                    continue
                triples.append((first | second | third, three))
                if depth > 3:
                    quads.extend(
                        (first | second | third | fourth, three | fourth_mask)
                        for fourth, fourth_mask in items[k + 1 :]
                        if narrow[three | fourth_mask]
                    )
    return [[(0, 0)], items, pairs, triples, quads][: depth + 1]


def _finned(pos: list[int], size: int, sashimi: bool, boxes: tuple[int, int, int]) -> list[_Hit]:
    """Finned (or sashimi) fish of one digit and direction in report order; ``boxes``: fin stacks per band."""
    hits: list[_Hit] = []
    small: list[list[_LineSet]] | None = None
    wide = _WIDE[size]
    subsets = _SUBSETS[size]
    fits = _FITS[size]
    for band in range(3):
        viable = boxes[band]
        if not viable:
            continue
        shift = band * 3
        a, b, c = pos[shift : shift + 3]
        unions = (0, a, b, a | b, c, a | c, b | c, a | b | c)
        if sashimi:
            # Sashimi: a base line of the band keeps one covered candidate, so one outside the box at most.
            la, lb, lc = _LONE[a], _LONE[b], _LONE[c]
            lone = (0, la, lb, la | lb, lc, la | lc, lb | lc, la | lb | lc)
        else:
            lone = _ANY_STACK
        outside_by_count: list[list[_LineSet] | None] = [None] * size
        for sub in subsets[wide[a] | wide[b] << 1 | wide[c] << 2]:
            in_band = unions[sub]
            others = unions[7 ^ sub]  # the band's lines outside the base
            # Fins and eliminations in the box, and at most n base positions of the band outside it.
            stacks = viable & _MEETS[in_band] & _MEETS[others] & fits[in_band] & lone[sub]
            if not stacks:
                continue
            outside_count = size - POPCOUNT[sub]
            outside_sets = outside_by_count[outside_count]
            if outside_sets is None:
                if small is None:
                    small = _line_sets(pos, size, size - 1)
                band_bits = 7 << shift
                outside_sets = [(chosen, union) for chosen, union in small[outside_count] if not chosen & band_bits]
                outside_by_count[outside_count] = outside_sets
            if not outside_sets:
                continue
            for stack in _CROSSES[stacks]:
                stack_mask = _STACKS[stack]
                rest = in_band & ~stack_mask
                in_box = in_band & stack_mask
                targets = others & stack_mask
                for chosen, outside in outside_sets:
                    # Every base candidate outside the fin box is covered; the cover is completed inside the box.
                    required = outside | rest
                    free = size - POPCOUNT[required]
                    choices = in_box & ~required
                    if free < 0 or POPCOUNT[choices] <= free or not (required | choices) & targets:
                        continue
                    lines = chosen | sub << shift
                    base = _CROSSES[lines]
                    for rank, extra in enumerate(_CHOICES[choices][free]):
                        cover = required | extra
                        if not cover & targets or any(not pos[line] & cover for line in base):
                            continue
                        if any(POPCOUNT[pos[line] & cover] == 1 for line in base) == sashimi:
                            hits.append((base, band, stack, rank, cover, lines))
    hits.sort()
    return hits


def _lines(rows: bool, indices: tuple[int, ...]) -> str:
    """House names for a sentence: ``rows 2, 5 and 7``."""
    listed = [str(i + 1) for i in indices]
    return ("rows " if rows else "columns ") + ", ".join(listed[:-1]) + " and " + listed[-1]


def _step(
    technique: str,
    pos: list[int],
    digit: int,
    rows_base: bool,
    base: tuple[int, ...],
    cover: int,
    sashimi: bool,
    fin_box: int,
    targets: list[tuple[int, int]],
) -> Step:
    """The Step of a fish (fin box -1 when basic), with a sentence naming its lines, fins and eliminations."""
    d = digit
    fins = sorted(_cell(rows_base, line, x) for line in base for x in _CROSSES[pos[line] & ~cover])
    cells = tuple(sorted(_cell(rows_base, line, x) for line in base for x in _CROSSES[pos[line]]))
    eliminations = sorted(_cell(rows_base, line, x) for line, x in targets)
    covers = _CROSSES[cover]
    label = ("Sashimi " if sashimi else "Finned " if fins else "") + _NAMES[len(base)]
    base_units = tuple(line if rows_base else 9 + line for line in base)
    cover_units = tuple(9 + x if rows_base else x for x in covers)
    base_text = _lines(rows_base, base)
    cover_text = _lines(not rows_base, covers)
    removed = names(eliminations)
    if fins:
        text = (
            f"{label}: in {base_text}, {d} lies in {cover_text} apart from the {plural(fins, 'fin', 'fins')} "
            f"{names(fins)} in box {fin_box - 17}; either a fin is {d} or the fish holds, so {d} is removed from "
            f"{removed} (each lies in a cover line and sees every fin)."
        )
        units = base_units + cover_units + (fin_box,)
    else:
        text = (
            f"{label}: in {base_text}, {d} can only go in {cover_text}, so {d} is removed from the rest of "
            f"{cover_text}: {removed}."
        )
        units = base_units + cover_units
    return digit_step(technique, d, eliminations, cells, units, text)


def _basic_steps(size: int, technique: str, board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Steps of the basic fish of a size, digit by digit, rows as base first."""
    rows, cols = _packed(board)
    present = rows[0] | rows[1] | rows[2] | rows[3] | rows[4] | rows[5] | rows[6] | rows[7] | rows[8]
    for digit in digits:
        shift = 9 * (digit - 1)
        if not present >> shift & 0x1FF:
            continue
        for rows_base, packed in ((True, rows), (False, cols)):
            pos = [line >> shift & 0x1FF for line in packed]
            for chosen, cover in _line_sets(pos, size, size)[size]:
                targets = [
                    (line, x) for line in range(9) if not chosen >> line & 1 for x in _CROSSES[cover & pos[line]]
                ]
                if targets:
                    yield _step(technique, pos, digit, rows_base, _CROSSES[chosen], cover, False, -1, targets)


def _finned_steps(
    size: int, sashimi: bool, technique: str, board: Board, digits: Iterable[int] = DIGITS
) -> Iterator[Step]:
    """Steps of the finned (or sashimi) fish of a size, digit by digit, rows as base first."""
    rows, cols = _packed(board)
    row_boxes, col_boxes = _fin_boxes(rows), _fin_boxes(cols)
    by_direction = (
        (True, rows, row_boxes, row_boxes[0] | row_boxes[1] | row_boxes[2]),
        (False, cols, col_boxes, col_boxes[0] | col_boxes[1] | col_boxes[2]),
    )
    for digit in digits:
        shift = 9 * (digit - 1)
        for rows_base, packed, (first, second, third), any_box in by_direction:
            if not any_box >> shift & 0o111:
                continue
            boxes = (_MEETS[first >> shift & 0o111], _MEETS[second >> shift & 0o111], _MEETS[third >> shift & 0o111])
            pos = [line >> shift & 0x1FF for line in packed]
            for base, band, stack, _, cover, lines in _finned(pos, size, sashimi, boxes):
                fin_box = 18 + (band * 3 + stack if rows_base else stack * 3 + band)
                stack_mask = _STACKS[stack]
                targets = [
                    (line, x)
                    for line in range(band * 3, band * 3 + 3)
                    if not lines >> line & 1
                    for x in _CROSSES[cover & stack_mask & pos[line]]
                ]
                yield _step(technique, pos, digit, rows_base, base, cover, sashimi, fin_box, targets)


# The fish finders of the catalogue, each over the digits it is given (every digit by default): basic fish have as
# many base lines as cover lines (two, three, four), finned ones fins (extra cells in one box) beside
# them, sashimi ones a corner missing that a fin stands in for.
x_wing = partial(_basic_steps, 2, "x_wing")
swordfish = partial(_basic_steps, 3, "swordfish")
jellyfish = partial(_basic_steps, 4, "jellyfish")
finned_x_wing = partial(_finned_steps, 2, False, "finned_x_wing")
sashimi_x_wing = partial(_finned_steps, 2, True, "sashimi_x_wing")
finned_swordfish = partial(_finned_steps, 3, False, "finned_swordfish")
sashimi_swordfish = partial(_finned_steps, 3, True, "sashimi_swordfish")
finned_jellyfish = partial(_finned_steps, 4, False, "finned_jellyfish")
sashimi_jellyfish = partial(_finned_steps, 4, True, "sashimi_jellyfish")


# Franken fish, searched with rows (and boxes) as base: per house (rows 0-8, columns 9-17, boxes 18-26) its cells
# as a mask; per cell the cells it neither is nor sees. Columns as base are rows as base on the transposed grid.
_EVERY_CELL = (1 << 81) - 1
_UNIT_BITS: tuple[int, ...] = tuple(sum(1 << cell for cell in cells) for cells in UNITS)
_UNSEEN: tuple[int, ...] = tuple(_EVERY_CELL & ~PEER_BITS[cell] & ~(1 << cell) for cell in range(81))
_TRANSPOSED_CELL: tuple[int, ...] = tuple(cell % 9 * 9 + cell // 9 for cell in range(81))
_TRANSPOSED_UNIT: tuple[int, ...] = (*range(9, 18), *range(9), *(18 + (b % 3) * 3 + b // 3 for b in range(9)))

# Base and cover houses, each ascending.
_Houses = tuple[tuple[int, ...], tuple[int, ...]]
# A Franken fish: base houses, cover houses (each ascending), fins, eliminations (cell masks).
_Franken = tuple[tuple[int, ...], tuple[int, ...], int, int]
# A target's candidate base house: the house, its cells the target does not see, the covers that could hold them.
_Part = tuple[int, int, int, tuple[frozenset[int], ...]]

# Cells as a stack key: per stack s (9 bits from 9s), per band b (3 bits from 3b), the columns of the stack that
# hold cells in that band. Per band, a row's (or a box's) 9-bit column mask as a stack key; per stack, the fewest
# columns and boxes that hold such cells (per band its box, or else the columns), a box's own cells included.
_STACK_KEY: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum((m >> 3 * s & 7) << 9 * s + 3 * b for s in range(3)) for m in range(512)) for b in range(3)
)
_STACK_COVER: tuple[int, ...] = tuple(
    min(
        POPCOUNT[boxes]
        + POPCOUNT[(0 if boxes & 1 else k & 7) | (0 if boxes & 2 else k >> 3 & 7) | (0 if boxes & 4 else k >> 6)]
        for boxes in range(8)
    )
    for k in range(512)
)


def _seeing_all(mask: int) -> int:
    """The cells that see every cell of a mask (every cell when the mask is empty)."""
    seeing = _EVERY_CELL
    while mask:
        low = mask & -mask
        seeing &= PEER_BITS[low.bit_length() - 1]
        mask ^= low
    return seeing


def _transposed(mask: int) -> int:
    """A cell mask mirrored in the main diagonal (rows become columns)."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << _TRANSPOSED_CELL[low.bit_length() - 1]
        mask ^= low
    return out


def _row_columns(unit: int, left: int) -> int:
    """The columns (9-bit mask) of the cells of ``left`` in a row or a box (rows as base)."""
    if unit < 9:
        return left >> 9 * unit & 0x1FF
    band, stack = divmod(unit - 18, 3)
    shift = 27 * band
    return (left >> shift | left >> shift + 9 | left >> shift + 18) & _STACKS[stack]


@lru_cache(maxsize=1 << 16)
def _cover_options(unit: int, left: int, budget: int) -> tuple[frozenset[int], ...]:
    """The sets of at most ``budget`` columns and boxes that hold ``left`` (cells of a base row or box), each
    minimal: per stack of a row its box or its columns; a box's columns.

    A pure function of three small ints (not of a position), so a process-wide cache serves every board.
    """
    columns = _row_columns(unit, left)
    if unit >= 18:
        return (frozenset(9 + x for x in _CROSSES[columns]),) if POPCOUNT[columns] <= budget else ()
    options: list[tuple[int, ...]] = [()]
    for stack in _CROSSES[_MEETS[columns]]:
        box = (18 + 3 * (unit // 3) + stack,)
        own = tuple(9 + x for x in _CROSSES[columns & _STACKS[stack]])
        options = [(*o, *way) for o in options for way in (box, own) if len(o) + len(way) <= budget]
    return tuple(frozenset(o) for o in options)


def _combinations_of(parts: list[_Part], count: int, budget: int) -> set[tuple[tuple[int, ...], frozenset[int]]]:
    """Sets of ``count`` (1 to 3) base houses whose target-unseen cells are disjoint and lie in at most ``budget``
    cover houses, with those cover houses."""
    found: set[tuple[tuple[int, ...], frozenset[int]]] = set()
    for i, (first, first_left, first_key, first_options) in enumerate(parts):
        if count == 1:
            found.update(((first,), option) for option in first_options)
            continue
        for j in range(i + 1, len(parts)):
            second, second_left, second_key, second_options = parts[j]
            key = first_key | second_key
            if first_left & second_left or _least_cover(key) > budget:
                continue
            pairs = {a | b for a in first_options for b in second_options if len(a | b) <= budget}
            if count == 2:
                found.update(((first, second), pair) for pair in pairs)
                continue
            taken = first_left | second_left
            least = _STACK_COVER  # _least_cover inlined: the innermost loop
            for third, third_left, third_key, third_options in parts[j + 1 :]:
                if taken & third_left:
                    continue
                union = key | third_key
                if least[union & 0x1FF] + least[union >> 9 & 0x1FF] + least[union >> 18] <= budget:
                    found.update(
                        ((first, second, third), pair | c)
                        for pair in pairs
                        for c in third_options
                        if len(pair | c) <= budget
                    )
    return found


def _least_cover(key: int) -> int:
    """At least how many columns and boxes hold the cells of a stack key (see ``_STACK_KEY``)."""
    return _STACK_COVER[key & 0x1FF] + _STACK_COVER[key >> 9 & 0x1FF] + _STACK_COVER[key >> 18]


def _row_based_candidates(cells: int) -> tuple[set[_Houses], set[_Houses]]:
    """Base and cover houses that may form a Franken X-Wing, and a Franken Swordfish, with rows (and boxes) as base.

    A fish removes a target cell t only if, t being the digit, it would break: the fins and the base cells that t
    sees go, so the base houses' other cells, disjoint, must lie in the cover houses other than the one that holds
    t (t outside the base), or other than t's column and box (t a base cell in two cover houses): n base houses in
    n - 1 cover houses, or n - 1 in n - 2. So per target, the houses whose unseen cells fit in that many covers.
    Every fish with an elimination is among the results; they still have to be checked.
    """
    inside = [unit & cells for unit in _UNIT_BITS]
    base_pool = [u for u in (*range(9), *range(18, 27)) if inside[u].bit_count() >= 2]
    cover_pool = [u for u in range(9, 27) if inside[u]]
    found: tuple[set[_Houses], set[_Houses]] = (set(), set())
    mask = cells
    while mask:
        low = mask & -mask
        mask ^= low
        target = low.bit_length() - 1
        unseen = cells & _UNSEEN[target]
        row, column, box = target // 9, 9 + target % 9, 18 + box_of(target)
        fitting = []
        for unit in base_pool:
            if unit != row and unit != box:
                left = inside[unit] & unseen
                columns = _row_columns(unit, left)
                needed = POPCOUNT[_MEETS[columns]] if unit < 9 else POPCOUNT[columns]
                if needed < 3:
                    fitting.append((unit, left, _STACK_KEY[(unit if unit < 9 else unit - 18) // 3][columns], needed))
        for size, fish in ((2, found[0]), (3, found[1])):
            outside = [part for part in fitting if part[3] < size]
            if len(outside) >= size:  # the target outside the base, in its column or its box
                parts = [(u, left, key, _cover_options(u, left, size - 1)) for u, left, key, _ in outside]
                for base, covers in _combinations_of(parts, size, size - 1):
                    for cover in _padded(covers, size - 1, base, cover_pool):
                        for own in (column, box):
                            if own not in cover:
                                fish.add((base, tuple(sorted((*cover, own)))))
            narrow = [part for part in outside if part[3] <= size - 2]
            if row in base_pool and len(narrow) >= size - 1:  # the target in its row, its column and its box
                parts = [(u, left, key, _cover_options(u, left, size - 2)) for u, left, key, _ in narrow]
                for base, covers in _combinations_of(parts, size - 1, size - 2):
                    for cover in _padded(covers | {column, box}, size, base, cover_pool):
                        fish.add((tuple(sorted((*base, row))), cover))
    return found


def _padded(covers: frozenset[int], size: int, base: tuple[int, ...], pool: list[int]) -> list[tuple[int, ...]]:
    """Cover sets of ``size`` houses holding ``covers``, completed in every way by houses of the pool not in the
    base, ascending."""
    spare = [u for u in pool if u not in covers and u not in base]
    return [tuple(sorted((*covers, *more))) for more in combinations(spare, size - len(covers))]


def _franken_hit(base: tuple[int, ...], cover: tuple[int, ...], inside: list[int]) -> tuple[int, int] | None:
    """Fins and eliminations of a base and cover (rows as base) if they make a Franken fish that removes something."""
    if base[0] >= 9 or not any(9 <= u < 18 for u in cover) or (base[-1] < 18 and cover[-1] < 18):
        return None  # no row in the base, no column in the cover, or no box at all (a basic fish)
    if any(u in base for u in cover):
        return None  # a box both base and cover
    union = endo = 0
    for unit in base:
        endo |= union & inside[unit]
        union |= inside[unit]
    covered = cannibal = 0
    for unit in cover:
        if not inside[unit] & union:
            return None  # a cover house without a base candidate
        cannibal |= covered & inside[unit]
        covered |= inside[unit]
    fins = union & ~covered | endo
    if any(not inside[unit] & ~fins for unit in base):
        return None  # a base house with fins only
    eliminations = (covered & ~union | cannibal & union) & _seeing_all(fins)
    return (fins, eliminations) if eliminations else None


_FrankenBySize = tuple[tuple[list[_Franken], list[_Franken]], ...]


def _franken_search(cells: int) -> _FrankenBySize:
    """The Franken fish of sizes 2 and 3 on one digit's candidate cells, per size unfinned and finned, rows (and
    boxes) as base first, then by base and cover houses; of several with the same eliminations only the first."""
    by_size: tuple[list[_Franken], list[_Franken]] = ([], [])
    for rows_base in (True, False):
        frame = cells if rows_base else _transposed(cells)
        inside = [unit & frame for unit in _UNIT_BITS]
        for found, candidates in zip(by_size, _row_based_candidates(frame)):
            for base, cover in sorted(candidates):
                hit = _franken_hit(base, cover, inside)
                if hit is None:
                    continue
                fins, eliminations = hit
                if not rows_base:
                    base = tuple(sorted(_TRANSPOSED_UNIT[u] for u in base))
                    cover = tuple(sorted(_TRANSPOSED_UNIT[u] for u in cover))
                    fins, eliminations = _transposed(fins), _transposed(eliminations)
                found.append((base, cover, fins, eliminations))
    return tuple(_first_of_each(found) for found in by_size)


def _franken(board: Board, cells: int, size: int) -> tuple[list[_Franken], list[_Franken]]:
    """The Franken fish of a size (2 or 3) on one digit's candidate cells, unfinned and finned.

    Both sizes are searched at once and kept in the board's memo by the digit's cells: the four finders run on the
    same candidates, and most digits keep their cells from one position to the next.
    """
    return board.memo.call(_franken_search, cells, limit=4096)[size - 2]


def _first_of_each(found: list[_Franken]) -> tuple[list[_Franken], list[_Franken]]:
    """Unfinned and finned fish, of several with the same eliminations only the first."""
    kinds: tuple[list[_Franken], list[_Franken]] = ([], [])
    seen: tuple[set[int], set[int]] = (set(), set())
    for fish in found:
        finned = bool(fish[2])
        if fish[3] not in seen[finned]:
            seen[finned].add(fish[3])
            kinds[finned].append(fish)
    return kinds


def _houses(units: tuple[int, ...]) -> str:
    """House names for a sentence: ``row 2, row 5 and box 7``."""
    listed = [unit_name(u) for u in units]
    return ", ".join(listed[:-1]) + " and " + listed[-1]


def _franken_step(technique: str, digit: int, hit: _Franken, cells: int) -> Step:
    """The Step of a Franken fish, with a sentence naming its houses, fins and eliminations."""
    base, cover, fins, eliminations = hit
    in_base = 0
    for unit in base:
        in_base |= _UNIT_BITS[unit] & cells
    d = digit
    label = ("Finned " if fins else "") + "Franken " + _NAMES[len(base)]
    removed = names(cells_of(eliminations))
    # A base cell in two cover houses (cannibalism) is removed too: the two would need two of the base's digits.
    twice = names(cells_of(eliminations & in_base))
    why = f" ({twice} in two cover houses)" if twice else ""
    if fins:
        fin_word = "fin" if fins.bit_count() == 1 else "fins"
        where = "lies in the cover and sees" if eliminations.bit_count() == 1 else "lie in the cover and see"
        text = (
            f"{label}: in {_houses(base)}, {d} lies in {_houses(cover)} apart from the {fin_word} "
            f"{names(cells_of(fins))}; either a fin is {d} or the fish holds, so {d} is removed from {removed}{why}, "
            f"which {where} every fin."
        )
    else:
        text = (
            f"{label}: in {_houses(base)}, {d} can only go in {_houses(cover)}, one {d} in each, so {d} is removed "
            f"from {removed}{why}."
        )
    return Step(
        technique,
        eliminations=tuple((c, d) for c in cells_of(eliminations)),
        cause=tuple((c, d) for c in cells_of(in_base)),
        units=(*base, *cover),
        cells=cells_of(in_base),
        text=text,
    )


def _franken_steps(
    size: int, finned: bool, technique: str, board: Board, digits: Iterable[int] = DIGITS
) -> Iterator[Step]:
    """Steps of the Franken fish of a size (finned or not), digit by digit."""
    by_digit = memo.digit_cells(board)
    for digit in digits:
        cells = by_digit[digit - 1]
        for hit in _franken(board, cells, size)[finned]:
            yield _franken_step(technique, digit, hit, cells)


# The Franken fish finders of the catalogue, each over the digits it is given (every digit by default): two or three
# base houses and as many cover houses, a box among them, with or without fins.
franken_x_wing = partial(_franken_steps, 2, False, "franken_x_wing")
franken_swordfish = partial(_franken_steps, 3, False, "franken_swordfish")
finned_franken_x_wing = partial(_franken_steps, 2, True, "finned_franken_x_wing")
finned_franken_swordfish = partial(_franken_steps, 3, True, "finned_franken_swordfish")
