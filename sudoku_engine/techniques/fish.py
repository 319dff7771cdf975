"""Fish: basic X-Wing, Swordfish and Jellyfish, and their finned and sashimi forms (HoDoKu's definitions).

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
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations
from operator import getitem

from ..board import Board, Step
from ..grid import DIGITS, MASK_DIGITS, POPCOUNT
from .common import names

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
    n: tuple(tuple(sub for sub in range(1, 8) if not sub & ~m and POPCOUNT[sub] <= n) for m in range(8))
    for n in _SIZES
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
_last: tuple[tuple[int, ...], _Packed] = ((), ((), ()))


def _packed(board: Board) -> _Packed:
    """Per row and per column, every digit's position mask packed in one int (digit d at bit 9 * (d - 1)).

    The nine fish finders run one after another on the same candidates, so the last result is kept.
    """
    global _last
    cands = tuple(board.cands)
    last = _last  # read once: another thread may replace it
    if cands == last[0]:
        return last[1]
    packed = (
        tuple([sum(map(getitem, _SPREAD, cands[r * 9 : r * 9 + 9])) for r in range(9)]),
        tuple([sum(map(getitem, _SPREAD, cands[c::9])) for c in range(9)]),
    )
    _last = (cands, packed)
    return packed


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
                    quads.extend((first | second | third | fourth, three | fourth_mask)
                                 for fourth, fourth_mask in items[k + 1 :] if narrow[three | fourth_mask])
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
    technique: str, pos: list[int], digit: int, rows_base: bool, base: tuple[int, ...], cover: int,
    sashimi: bool, fin_box: int, targets: list[tuple[int, int]],
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
        fin_word = "fin" if len(fins) == 1 else "fins"
        text = (
            f"{label}: in {base_text}, {d} lies in {cover_text} apart from the {fin_word} {names(fins)} "
            f"in box {fin_box - 17}; either a fin is {d} or the fish holds, so {d} is removed from {removed} "
            f"(each lies in a cover line and sees every fin)."
        )
        units = base_units + cover_units + (fin_box,)
    else:
        text = (
            f"{label}: in {base_text}, {d} can only go in {cover_text}, so {d} is removed from the rest of "
            f"{cover_text}: {removed}."
        )
        units = base_units + cover_units
    return Step(
        technique, eliminations=tuple((c, d) for c in eliminations), cause=tuple((c, d) for c in cells),
        units=units, cells=cells, text=text,
    )


def _basic_steps(board: Board, size: int, technique: str, digits: Iterable[int]) -> Iterator[Step]:
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
                targets = [(line, x) for line in range(9) if not chosen >> line & 1
                           for x in _CROSSES[cover & pos[line]]]
                if targets:
                    yield _step(technique, pos, digit, rows_base, _CROSSES[chosen], cover, False, -1, targets)


def _finned_steps(
    board: Board, size: int, sashimi: bool, technique: str, digits: Iterable[int]
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
                targets = [(line, x) for line in range(band * 3, band * 3 + 3) if not lines >> line & 1
                           for x in _CROSSES[cover & stack_mask & pos[line]]]
                yield _step(technique, pos, digit, rows_base, base, cover, sashimi, fin_box, targets)


def x_wing(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """X-Wing: two base lines, two cover lines."""
    return _basic_steps(board, 2, "x_wing", digits)


def swordfish(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Swordfish: three base lines, three cover lines."""
    return _basic_steps(board, 3, "swordfish", digits)


def jellyfish(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Jellyfish: four base lines, four cover lines."""
    return _basic_steps(board, 4, "jellyfish", digits)


def finned_x_wing(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Finned X-Wing (not sashimi)."""
    return _finned_steps(board, 2, False, "finned_x_wing", digits)


def sashimi_x_wing(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Sashimi X-Wing."""
    return _finned_steps(board, 2, True, "sashimi_x_wing", digits)


def finned_swordfish(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Finned Swordfish (not sashimi)."""
    return _finned_steps(board, 3, False, "finned_swordfish", digits)


def sashimi_swordfish(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Sashimi Swordfish."""
    return _finned_steps(board, 3, True, "sashimi_swordfish", digits)


def finned_jellyfish(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Finned Jellyfish (not sashimi)."""
    return _finned_steps(board, 4, False, "finned_jellyfish", digits)


def sashimi_jellyfish(board: Board, digits: Iterable[int] = DIGITS) -> Iterator[Step]:
    """Sashimi Jellyfish."""
    return _finned_steps(board, 4, True, "sashimi_jellyfish", digits)
