"""Almost locked sets: ALS-XZ (singly and doubly linked), ALS-XY-Wing, ALS chains and Sue de Coq.

An almost locked set (ALS) is N open cells of one house with N+1 candidates between them; a bivalue cell is
an ALS of one cell. Two ALSs share a restricted common candidate (RCC) X when they do not overlap and every
X of one sees every X of the other: then at most one of them holds X, and the one without X is locked on its
other digits. The definitions follow HoDoKu's, with its default of sets that do not overlap:

- ALS-XZ: A and B with an RCC X; a common digit Z leaves every cell seeing all Zs of both. With two RCCs both
  sets are locked: each RCC leaves cells seeing all its places in both, every other digit of a set leaves
  cells seeing all its places in that set.
- ALS-XY-Wing: pivot C with RCC X to A and RCC Y to B (X != Y, A and B apart): Z of A and B (not X, Y) leaves
  cells seeing all Zs of A and B.
- ALS chain: ``MIN_CHAIN_ALS``..``MAX_CHAIN_ALS`` pairwise disjoint sets linked by RCCs, consecutive RCCs
  different; Z of both ends, other than the first and the last RCC, leaves cells seeing all Zs of both ends
  (such a cell may belong to a middle set: the deduction holds all the same). Only the shortest chain for each
  elimination is reported, and none where two or three sets (ALS-XZ, ALS-XY-Wing) give the same elimination.
- Sue de Coq (HoDoKu's basic and extended forms): two or three cells of a box-line intersection holding at
  least N+2 digits, an ALS in the rest of the line and one in the rest of the box, the two without a common
  digit, together as many cells as digits: every digit sits once in the pattern, so the line part's digits leave
  the rest of the line and the box part's the rest of the box.

Search bounds: ALSs have at most ``MAX_ALS_CELLS`` cells (larger ones are rare in human solutions and multiply
the search); chains have at most ``MAX_CHAIN_ALS`` sets. Each finder yields one step per distinct set of
eliminations, the first found in a fixed order. The sets of a position are found once and shared by the four
finders (they run one after another on the same candidates); the links of the sets, and which pairs of sets have
a cell seeing all places of a common digit, are worked out on first use by the three finders that need them.
Sets are numbered house by house (rows, columns, boxes), each in the first house holding all its cells, so a
house's own sets are a block of consecutive numbers; they are handled as bits of one int, cells as bits of an
81-bit int, so most tests are a few bit operations. What depends on one house's candidates alone is kept while
they stay the same, as most do from one stuck position to the next: its sets, and per digit the groups of its
sets with the same places of the digit (with the cells seeing all those places), from which the links start.
An ALS chain search follows walks of RCC links from every start at once, layer by layer; a walk is coded by its
first link digit and start set, so the walks of a set of start sets are that set of sets shifted.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from operator import itemgetter
from typing import cast

from ..board import Board, Candidate, Memo, Step
from ..grid import MASK_DIGITS, PEERS, POPCOUNT, UNITS, bit, cell_name, digits_of, unit_name
from .common import digit_list, names, plural

MAX_ALS_CELLS = 6
MIN_CHAIN_ALS = 4
MAX_CHAIN_ALS = 6

ALL_CELLS = (1 << 81) - 1
PEER_MASK: tuple[int, ...] = tuple(sum(1 << p for p in PEERS[c]) for c in range(81))
UNIT_MASK: tuple[int, ...] = tuple(sum(1 << c for c in cells) for cells in UNITS)
_HOUSE_MARKS = tuple(itemgetter(*cells) for cells in UNITS)  # a house's entries of an 81-list, as a tuple
_OUTSIDE: tuple[int, ...] = tuple(ALL_CELLS ^ mask for mask in UNIT_MASK)  # the cells not in a house
_LINES_OF: dict[int, tuple[int, ...]] = {  # box -> the rows and columns crossing it
    box: tuple(line for line in range(18) if UNIT_MASK[line] & UNIT_MASK[box]) for box in range(18, 27)
}


def _cells_of(mask: int) -> list[int]:
    """The cells of an 81-bit cell set (or the members of any bit set), ascending."""
    cells = []
    while mask:
        top = mask.bit_length() - 1
        cells.append(top)
        mask ^= 1 << top
    cells.reverse()
    return cells


@dataclass(frozen=True, slots=True)
class Als:
    """An almost locked set as a step names it: its cells, digits and house."""

    cells: tuple[int, ...]
    digits: int
    unit: int

    def label(self) -> str:
        """``{r1c1, r1c5} (1/4/7)``: the cells and digits as a player reads them."""
        return "{" + ", ".join(cell_name(c) for c in self.cells) + "} (" + digit_list(digits_of(self.digits)) + ")"


def _house_sets(unit: int, marks: tuple[int, ...]) -> list[tuple[int, int]]:
    """(cells, digits) of the subsets of a house's open cells (up to MAX_ALS_CELLS) with one digit more than cells."""
    # marks: the candidates of the house's cells, 0 for a placed cell. Subsets come in lexicographic order of the
    # cells' places in the house, each before its extensions.
    found: list[tuple[int, int]] = []
    cell_bits = [1 << c for c, m in zip(UNITS[unit], marks) if m]
    cell_cands = [m for m in marks if m]
    count = len(cell_cands)

    def grow(start: int, mask: int, union: int, size: int) -> None:
        """Record and extend every subset made by adding one cell at or after ``start``."""
        for i in range(start, count):
            grown = union | cell_cands[i]
            width = POPCOUNT[grown]
            # candidates never shrink as cells are added, so a union past the largest ALS is a dead end
            if width <= MAX_ALS_CELLS + 1:
                cells = mask | cell_bits[i]
                if width == size + 2:
                    found.append((cells, grown))
                # an extension has at least width - 1 cells, so enough of the cells left must remain to add
                if size + 1 < MAX_ALS_CELLS and i + 1 < count and width <= size + count - i + 1:
                    grow(i + 1, cells, grown, size + 1)

    grow(0, 0, 0, 0)
    return found


# Per digit (index 1..9) of a house's sets: per group of sets with the same places of the digit, the cells seeing
# all those places with the places listed, and the group's members as bits of the sets' rank in the house.
_Groups = tuple[tuple[tuple[tuple[int, tuple[int, ...]], ...], tuple[int, ...]], ...]


# A house's sets numbered in it (those no earlier house holds) as cell masks, digits and cells listed, and the
# earlier houses' sets it holds as cell masks. A plain tuple of ints, which the garbage collector stops tracking.
_House = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]


def _in_earlier_house(unit: int, cells: int) -> bool:
    """True when an earlier house holds all the cells (houses in order: rows, columns, boxes)."""
    if unit < 18:
        # a single cell lies in its row; no set of two cells or more lies in a row and a column
        return unit >= 9 and not cells & (cells - 1)
    # a box set lies in a row or a column when it is inside one
    return any(not cells & _OUTSIDE[line] for line in _LINES_OF[unit])


def _house(memo: Memo, unit: int, marks: tuple[int, ...]) -> _House:
    """The sets of a house split into those numbered here and those numbered in an earlier house (kept in the
    board's memo by the house's marks: most houses keep their candidates from one stuck position to the next)."""
    return memo.call(_split_house, unit, marks, limit=2048)


def _split_house(unit: int, marks: tuple[int, ...]) -> _House:
    """The sets of a house split into those numbered here and those numbered in an earlier house."""
    # an ALS is one by its own cells, so a set inside two houses is found in both and numbered in the first.
    found = _house_sets(unit, marks)
    earlier: tuple[int, ...] = ()
    if unit >= 9:
        flags = [_in_earlier_house(unit, mask) for mask, _ in found]
        if any(flags):
            earlier = tuple(mask for (mask, _), flag in zip(found, flags) if flag)
            found = [entry for entry, flag in zip(found, flags) if not flag]
    return (
        tuple([mask for mask, _ in found]),
        tuple([union for _, union in found]),
        tuple([_places(mask)[1] for mask, _ in found]),
        earlier,
    )


_HouseGroups = tuple[tuple[tuple[int, ...], ...], _Groups]


def _house_groups(
    groups: dict[Hashable, object], unit: int, marks: tuple[int, ...], masks: Sequence[int], digits: Sequence[int]
) -> _HouseGroups:
    """``_group_house`` of a house, kept in ``groups`` (a cache of the board's memo) by the house's marks."""
    key = (unit, marks)
    found = groups.get(key)
    if found is None:
        found = groups[key] = _group_house(unit, marks, masks, digits)
    return cast(_HouseGroups, found)


def _group_house(unit: int, marks: tuple[int, ...], masks: Sequence[int], digits: Sequence[int]) -> _HouseGroups:
    """Per set numbered in a house (``masks`` its cells, ``digits`` its digits), per digit 0..9 the cells seeing all
    its places of the digit (0: not held); and per digit the groups of those sets with the same places of the digit
    (members as bits of rank in the house)."""
    where = [0] * 10
    for c, m in zip(UNITS[unit], marks):
        for d in MASK_DIGITS[m]:
            where[d] |= 1 << c
    numbers: list[dict[int, int]] = [{} for _ in range(10)]
    places: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(10)]
    members: list[list[int]] = [[] for _ in range(10)]
    sees = []
    for rank, (mask, union) in enumerate(zip(masks, digits)):
        one = 1 << rank
        seen_by = [0] * 10
        for d in MASK_DIGITS[union]:
            w = where[d] & mask
            number = numbers[d]
            g = number.get(w)
            if g is None:
                number[w] = len(number)
                place = _places(w)
                places[d].append(place)
                members[d].append(one)
            else:
                place = places[d][g]
                members[d][g] |= one
            seen_by[d] = place[0]
        sees.append(tuple(seen_by))
    return tuple(sees), tuple((tuple(places[d]), tuple(members[d])) for d in range(10))


_PLACES: dict[int, tuple[int, tuple[int, ...]]] = {}


def _places(cells: int) -> tuple[int, tuple[int, ...]]:
    """The cells seeing every cell of a non-empty cell set, and its cells (cached: such sets lie in one house)."""
    found = _PLACES.get(cells)
    if found is None:
        listed = tuple(_cells_of(cells))
        seen = ALL_CELLS
        for c in listed:
            seen &= PEER_MASK[c]
        found = _PLACES[cells] = (seen, listed)
    return found


class _Index:
    """The ALSs of a position (set i is bit i of a set of sets), the cells holding each digit, links on demand."""

    __slots__ = (
        "count",
        "masks",
        "digits",
        "units",
        "cells",
        "in_unit",
        "digit_cells",
        "marks",
        "offsets",
        "_links",
        "_sets",
        "groups",
    )

    def __init__(self, values: tuple[int, ...], cands: tuple[int, ...], memo: Memo) -> None:
        # the houses' groups are kept in a cache of the memo, not with the memo itself: the memo keeps this index
        self.groups = memo.cache(_group_house, limit=2048)
        digit_cells = [0] * 10
        for c, m in enumerate(cands):
            if m:
                b = 1 << c
                for d in MASK_DIGITS[m]:
                    digit_cells[d] |= b
        self.digit_cells: tuple[int, ...] = tuple(digit_cells)
        open_marks = [0 if v else m for v, m in zip(values, cands)]
        self.marks = tuple([cells(open_marks) for cells in _HOUSE_MARKS])
        numbers: dict[int, int] = {}
        masks: list[int] = []
        digits: list[int] = []
        units: list[int] = []
        cells_of: list[tuple[int, ...]] = []
        offsets: list[int] = []
        in_unit: list[tuple[int, ...]] = []
        # sets are numbered house by house, each in the first house that holds it (a set inside a box-line
        # intersection, or a single cell, is a set of each of its houses)
        for unit, marks in enumerate(self.marks):
            here, held, listed, earlier = _house(memo, unit, marks)
            offset = len(masks)
            offsets.append(offset)
            masks += here
            digits += held
            units += [unit] * len(here)
            cells_of += listed
            if unit < 18:
                numbers.update(zip(here, range(offset, len(masks))))
            in_unit.append(tuple(sorted([numbers[m] for m in earlier])) + tuple(range(offset, len(masks))))
        # kept as tuples of ints: the garbage collector stops tracking those, and the index outlives several finders
        self.count = len(masks)
        self.masks = tuple(masks)
        self.digits = tuple(digits)
        self.units = tuple(units)
        self.cells = tuple(cells_of)
        self.offsets = tuple(offsets)
        self.in_unit = tuple(in_unit)
        self._links: _Links | None = None
        self._sets: dict[int, Als] = {}

    def als(self, i: int) -> Als:
        """Set i as a step names it."""
        found = self._sets.get(i)
        if found is None:
            found = self._sets[i] = Als(self.cells[i], self.digits[i], self.units[i])
        return found

    @property
    def links(self) -> _Links:
        """The RCC links of the sets (worked out on first use)."""
        if self._links is None:
            self._links = _Links(self)
        return self._links


class _Links:
    """Per set: cells seeing all places of each digit, sets sharing a cell, RCC partners and fitting sets by digit."""

    __slots__ = ("digit_cells", "digits", "sees", "overlap", "partners", "linked", "doubly", "fitting", "fit_any")

    def __init__(self, index: _Index) -> None:
        # the index's tuples, not the index itself, which keeps these links
        self.digit_cells, self.digits = index.digit_cells, index.digits
        sees, places, members = _grouped_places(index)
        self.sees = tuple(sees)
        self.overlap = _overlaps(index.cells)
        every = (1 << index.count) - 1
        apart = [every ^ near for near in self.overlap]
        count = len(index.masks)
        # per set, (digit, sets) for each digit it has RCC partners by, and for each digit other sets fit it by:
        # apart from it, with some cell holding the digit that sees all places of the digit in both sets; and
        # the sets linked to it by one digit or more, by two digits or more, and fitting it by some digit
        partners: list[list[tuple[int, int]]] = [[] for _ in range(count)]
        fitting: list[list[tuple[int, int]]] = [[] for _ in range(count)]
        linked, doubly, fit_any = [0] * count, [0] * count, [0] * count
        for d in range(1, 10):
            for i, fit, restricted in _digit_relations(index.digit_cells[d], places[d], members[d], every):
                found = fit & apart[i]
                if found:
                    fitting[i].append((d, found))
                    fit_any[i] |= found
                found = restricted & apart[i]
                if found:
                    partners[i].append((d, found))
                    doubly[i] |= linked[i] & found
                    linked[i] |= found
        # tuples of ints, which the garbage collector stops tracking (as for the index)
        self.partners = tuple([tuple(found) for found in partners])
        self.fitting = tuple([tuple(found) for found in fitting])
        self.linked = tuple(linked)
        self.doubly = tuple(doubly)
        self.fit_any = tuple(fit_any)

    def rcc(self, i: int, j: int) -> int:
        """The RCC digits of two sets, as candidate bits."""
        found = 0
        for d, p in self.partners[i]:
            if p >> j & 1:
                found |= 1 << (d - 1)
        return found


_Places = list[list[tuple[int, tuple[int, ...]]]]


def _grouped_places(index: _Index) -> tuple[list[tuple[int, ...]], _Places, list[list[int]]]:
    """Per set, per digit the cells seeing all its places of the digit; and per digit, the sets grouped by where the
    digit sits in them (house by house): per group the cells seeing all its places with the places themselves, and
    the members as bits of the set numbers."""
    places: _Places = [[] for _ in range(10)]
    members: list[list[int]] = [[] for _ in range(10)]
    sees: list[tuple[int, ...]] = []
    ends = index.offsets[1:] + (index.count,)
    for unit, (marks, offset, end) in enumerate(zip(index.marks, index.offsets, ends)):
        house = slice(offset, end)
        house_sees, groups = _house_groups(index.groups, unit, marks, index.masks[house], index.digits[house])
        sees += house_sees
        for d in range(1, 10):
            house_places, house_members = groups[d]
            if house_places:
                places[d] += house_places
                members[d] += [m << offset for m in house_members]
    return sees, places, members


def _overlaps(cells_of_sets: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Per set, the sets sharing a cell with it (itself among them), as bits of the set numbers."""
    at_cell = [0] * 81
    for i, cells in enumerate(cells_of_sets):
        for c in cells:
            at_cell[c] |= 1 << i
    overlap = []
    for cells in cells_of_sets:
        near = 0
        for c in cells:
            near |= at_cell[c]
        overlap.append(near)
    return tuple(overlap)


def _digit_relations(
    cells: int, places: list[tuple[int, tuple[int, ...]]], members: list[int], every: int
) -> Iterator[tuple[int, int, int]]:
    """For one digit, per set holding it (group by group, higher numbers first): the sets that fit it by the digit
    (a cell holding the digit sees all the digit's places in both) and the sets restricted-common with it by the
    digit (all the digit's places in both see each other), as (set, fitting sets, restricted sets), overlaps
    not yet removed."""
    seeing = [0] * 81  # per cell, the sets whose places of the digit all see it
    targets = []
    for (seen, _), one in zip(places, members):
        found = _cells_of(seen & cells)
        for t in found:
            seeing[t] |= one
        targets.append(found)
    for (_, listed), found, group in zip(places, targets, members):
        restricted = every
        for c in listed:
            restricted &= seeing[c]
        fit = 0
        for t in found:
            fit |= seeing[t]
        if not restricted and not fit:
            continue
        while group:
            i = group.bit_length() - 1
            group ^= 1 << i
            yield i, fit, restricted


def _index(board: Board) -> _Index:
    """The ALS index of a board's current candidates (kept in its memo: the ALS finders run one after another on
    the same position)."""
    values, cands = tuple(board.values), tuple(board.cands)
    indexes = board.memo.cache(_Index, limit=4)
    found = indexes.get((values, cands))
    if found is None:
        found = indexes[values, cands] = _Index(values, cands, board.memo)
    return cast(_Index, found)


def _cause(board: Board, sets: list[Als]) -> tuple[Candidate, ...]:
    """Every candidate of the sets' cells."""
    return tuple((c, d) for a in sets for c in a.cells for d in digits_of(board.cands[c]))


def _units(sets: list[Als]) -> tuple[int, ...]:
    """The houses of the sets, without repeats."""
    return tuple(dict.fromkeys(a.unit for a in sets))


def _cells(sets: list[Als]) -> tuple[int, ...]:
    """The cells of the sets, in order, without repeats."""
    return tuple(dict.fromkeys(c for a in sets for c in a.cells))


def _removal(digit: int, targets: int, why: str) -> str:
    """``1 leaves r2c1, which sees all 1s of both``: one digit's eliminations as a clause."""
    cells = _cells_of(targets)
    relative = plural(cells, "which sees", "which see")
    return f"{digit} leaves {names(cells)}, {relative} all {digit}s {why}"


def _eliminations(removals: list[tuple[int, int]]) -> tuple[Candidate, ...]:
    """(cell, digit) pairs of per-digit target sets, cells ascending within each digit, without repeats."""
    return tuple(dict.fromkeys((c, d) for d, targets in removals for c in _cells_of(targets)))


def _xz_removals(links: _Links, a: int, b: int, rcc: int) -> list[tuple[int, int, str]]:
    """(digit, targets, why) for a linked pair: Z digits when singly linked, the locked sets when doubly linked."""
    cells = links.digit_cells
    digits = links.digits
    sees_a, sees_b = links.sees[a], links.sees[b]
    found: list[tuple[int, int, str]] = []
    if POPCOUNT[rcc] == 1:
        for z in MASK_DIGITS[digits[a] & digits[b] & ~rcc]:
            found.append((z, sees_a[z] & sees_b[z] & cells[z], "of both"))
    elif POPCOUNT[rcc] == 2:
        # two RCCs: each set misses one of them, so both are locked and each RCC sits once in the pair
        # (three or more cannot happen in a position that has a solution)
        for x in MASK_DIGITS[rcc]:
            found.append((x, sees_a[x] & sees_b[x] & cells[x], "of both"))
        for name, s in (("first", a), ("second", b)):
            sees_s = links.sees[s]
            for d in MASK_DIGITS[digits[s] & ~rcc]:
                found.append((d, sees_s[d] & cells[d], f"of the {name} set"))
    return [(d, targets, why) for d, targets, why in found if targets]


def als_xz(board: Board) -> Iterator[Step]:
    """Two ALSs linked by a restricted common X: a common Z leaves cells seeing all its places in both."""
    index = _index(board)
    links = index.links
    reported: set[tuple[Candidate, ...]] = set()
    for i in range(index.count):
        partners = links.partners[i]
        # only doubly linked pairs, or pairs where a cell sees all places of a common Z and some RCC is not Z,
        # can eliminate
        later = links.doubly[i]
        for z, fit in links.fitting[i]:
            for d, p in partners:
                if d != z:
                    later |= fit & p
        for j in _cells_of(later & ~((2 << i) - 1)):
            rcc = links.rcc(i, j)
            removals = _xz_removals(links, i, j, rcc)
            eliminations = _eliminations([(d, t) for d, t, _ in removals])
            if not eliminations or eliminations in reported:
                continue
            reported.add(eliminations)
            a, b = index.als(i), index.als(j)
            doubly = POPCOUNT[rcc] == 2
            kind = "ALS-XZ (doubly linked)" if doubly else "ALS-XZ"
            reason = "; ".join(_removal(d, t, why) for d, t, why in removals)
            link = f"{a.label()} and {b.label()} are linked by {' and '.join(map(str, digits_of(rcc)))}"
            if doubly:
                link += ", so both sets are locked"
            yield Step(
                "als_xz",
                eliminations=eliminations,
                cause=_cause(board, [a, b]),
                units=_units([a, b]),
                cells=_cells([a, b]),
                text=f"{kind}: {link}; {reason}.",
            )


def _pivot_links_but(partners: Sequence[tuple[int, int]], digits: int) -> int:
    """The sets linked to the pivot by some digit outside ``digits`` (candidate bits)."""
    wings = 0
    for d, p in partners:
        if not digits >> (d - 1) & 1:
            wings |= p
    return wings


def _fitting_but(links: _Links, i: int, digits: int) -> int:
    """The sets that fit set i by some digit outside ``digits`` (candidate bits)."""
    fit = 0
    for z, f in links.fitting[i]:
        if not digits >> (z - 1) & 1:
            fit |= f
    return fit


def _fitting_with_other_links(links: _Links, partners: Sequence[tuple[int, int]], i: int, ra: int) -> int:
    """For set A linked to the pivot by several digits ``ra``: the sets fitting A by a digit Z and linked to the
    pivot by a digit Y != Z, with some X of A's links left over."""
    wings = 0
    for z, f in links.fitting[i]:
        for y, p in partners:
            if y != z and ra & ~(1 << (z - 1) | 1 << (y - 1)):
                wings |= f & p
    return wings


class _XYWing:
    """The ALS-XY-Wing search of one position: pivot C, set A linked to C by X, set B linked to C by Y."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.index = _index(board)
        self.links = self.index.links
        self.reported: set[tuple[Candidate, ...]] = set()
        # per set A and digits X, the sets apart from A with a cell seeing all places of a common digit other than X
        self.fit_but: dict[tuple[int, int], int] = {}

    def steps(self) -> Iterator[Step]:
        """Every ALS-XY-Wing, pivot by pivot, A before B; of several with the same eliminations only the first."""
        for pivot in range(self.index.count):
            if len(self.links.partners[pivot]) >= 2:  # with one link digit X = Y for every pair
                yield from self._from_pivot(pivot)

    def _from_pivot(self, pivot: int) -> Iterator[Step]:
        """The wings of one pivot."""
        links = self.links
        partners = links.partners[pivot]
        by_other: dict[int, int] = {}
        neighbours = links.linked[pivot]
        for ia in _cells_of(neighbours):
            if not (links.fit_any[ia] & neighbours) >> (ia + 1):
                continue
            ra = links.rcc(pivot, ia)
            wings = self._wings(partners, by_other, ia, ra) & ~((2 << ia) - 1)
            for ib in _cells_of(wings):
                yield from self._wing_steps(pivot, ia, ib, ra, links.rcc(pivot, ib))

    def _wings(self, partners: Sequence[tuple[int, int]], by_other: dict[int, int], ia: int, ra: int) -> int:
        """The sets B that may complete a wing with A: linked to the pivot by a digit other than X, fitting A by a
        digit other than X (with several link digits, by a digit Z and linked by Y != Z leaving some X)."""
        if POPCOUNT[ra] != 1:
            return _fitting_with_other_links(self.links, partners, ia, ra)
        wings = by_other.get(ra)
        if wings is None:
            wings = by_other[ra] = _pivot_links_but(partners, ra)
        fit = self.fit_but.get((ia, ra))
        if fit is None:
            fit = self.fit_but[(ia, ra)] = _fitting_but(self.links, ia, ra)
        return wings & fit

    def _wing_steps(self, pivot: int, ia: int, ib: int, ra: int, rb: int) -> Iterator[Step]:
        """The steps of pivot, A and B: for each X of A's links and Y != X of B's, the digits Z of A and B (other than
        X and Y) leave the cells seeing all their places; each Z once."""
        sees_a, sees_b, cells = self.links.sees[ia], self.links.sees[ib], self.index.digit_cells
        common = self.index.digits[ia] & self.index.digits[ib]
        done = 0
        for x in MASK_DIGITS[ra]:
            for y in MASK_DIGITS[rb]:
                zs = common & ~(bit(x) | bit(y)) & ~done
                if x == y or not zs:
                    continue
                removals = [(z, sees_a[z] & sees_b[z] & cells[z]) for z in MASK_DIGITS[zs]]
                removals = [(z, t) for z, t in removals if t]
                for z, _ in removals:
                    done |= bit(z)
                eliminations = _eliminations(removals)
                if eliminations and eliminations not in self.reported:
                    self.reported.add(eliminations)
                    yield self._step(pivot, ia, ib, x, y, removals, eliminations)

    def _step(
        self,
        pivot: int,
        ia: int,
        ib: int,
        x: int,
        y: int,
        removals: list[tuple[int, int]],
        eliminations: tuple[Candidate, ...],
    ) -> Step:
        """The Step of one wing."""
        a, b, c = self.index.als(ia), self.index.als(ib), self.index.als(pivot)
        reason = "; ".join(_removal(z, t, "of A and B") for z, t in removals)
        return Step(
            "als_xy_wing",
            eliminations=eliminations,
            cause=_cause(self.board, [a, b, c]),
            units=_units([a, b, c]),
            cells=_cells([a, b, c]),
            text=f"ALS-XY-Wing: pivot C {c.label()} is linked to A {a.label()} by {x} and to "
            f"B {b.label()} by {y}, so A or B is locked; {reason}.",
        )


def als_xy_wing(board: Board) -> Iterator[Step]:
    """Pivot C linked to A by X and to B by Y (X != Y): a digit Z of A and B leaves cells seeing all its places."""
    return _XYWing(board).steps()


class _ChainSearch:
    """One ALS chain search: walks of RCC links by length, the starts fitting each end, what is already found."""

    # A walk is coded by its start set and first link digit as bit ``(digit - 1) * count + set`` (count: the number
    # of sets), so the codes of a set of sets with one first digit are that set of sets shifted, and with every
    # digit that set of sets times ``blocks``. A state, a set and the digit of the link into it, is numbered
    # ``set * 9 + digit - 1``. A layer lists per state the codes of the walks of one length that end there (walks
    # may meet a set twice: they only narrow the search for chains of disjoint sets).

    def __init__(self, index: _Index) -> None:
        self.index = index
        self.links = links = index.links
        self.count = count = index.count
        self.blocks = sum(1 << (d * count) for d in range(9))
        self.layers: list[tuple[int, ...]] = []
        self.link_digits = tuple([_link_digits(partners) for partners in links.partners])
        # per set linked by two digits or more (walks only leave such a set by another digit than they came by),
        # per digit of its links, the states the links lead to (worked out for the second layer)
        self.steps: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = ()
        self.ends = self._end_starts()
        # per end, every start it had at first: starts only go, so this stays a cover of what is left
        self.any_start: dict[int, int] = {}
        for end, by_z in self.ends.items():
            found = 0
            for starts in by_z.values():
                found |= starts
            self.any_start[end] = found
        # per Z, the target cell sets already reported or left to ALS-XZ and ALS-XY-Wing
        self.covered: list[set[int]] = [set() for _ in range(10)]
        self.traced: dict[tuple[int, int, int, int], list[tuple[int, int]] | None] = {}
        self._orders: list[tuple[list[int], list[int]]] = []
        self._leave: list[list[int]] = []

    def _end_starts(self) -> dict[int, dict[int, int]]:
        """End set -> Z -> codes of earlier linked start sets that fit it on Z, first link not Z."""
        count, blocks, link_digits = self.count, self.blocks, self.link_digits
        # every code of a walk's first link: per digit, the sets with a link by it
        by_digit = [0] * 10
        for i, digits in enumerate(link_digits):
            for d in MASK_DIGITS[digits]:
                by_digit[d] |= 1 << i
        codes = 0
        for d in range(1, 10):
            codes |= by_digit[d] << ((d - 1) * count)
        # per Z, the codes whose first link is not Z
        other = [0] + [codes & ~(((1 << count) - 1) << ((z - 1) * count)) for z in range(1, 10)]
        result: dict[int, dict[int, int]] = {}
        for j, fitting in enumerate(self.links.fitting):
            if not link_digits[j]:
                continue
            # each pair of ends is met from both sides: keep the meeting at the higher-numbered end
            earlier = (1 << j) - 1
            by_z: dict[int, int] = {}
            for z, fit in fitting:
                fit &= earlier
                if fit:
                    starts = fit * blocks & other[z]
                    if starts:
                        by_z[z] = starts
            if by_z:
                result[j] = by_z
        return result

    def grow(self) -> list[int]:
        """The next layer: walks one link longer, never using one digit for two links in a row."""
        layer = [0] * (9 * self.count)
        if not self.layers:
            # RCC links go both ways: the walks of one link into a set by d start at its partners by d
            count = self.count
            for j, partners in enumerate(self.links.partners):
                base = j * 9 - 1
                for d, p in partners:
                    layer[base + d] = p << ((d - 1) * count)
            return layer
        previous = self.layers[-1]
        if not self.steps:
            self.steps = tuple(
                [
                    tuple([(d, _states(p, d - 1)) for d, p in partners]) if len(partners) > 1 else ()
                    for partners in self.links.partners
                ]
            )
        for i, steps in enumerate(self.steps):
            if len(steps) < 2:
                # a walk leaves a set by another digit than it came by
                continue
            base = i * 9 - 1
            once = twice = 0
            for d, _ in steps:
                arriving = previous[base + d]
                twice |= once & arriving
                once |= arriving
            if not once:
                continue
            for d, states in steps:
                # the walks arriving by another digit than d: those arriving twice or not by d
                arriving = previous[base + d]
                leaving = twice | once ^ (once & arriving)
                if leaving:
                    for t in states:
                        layer[t] |= leaving
        return layer

    def _positions(self, m: int) -> list[int]:
        """Per set, its place in the reach order of layer m, which breaks ties between chains of equal length."""
        # layer 0 takes the sets by number, layer m in the reach order of layer m - 1; each set reaches its partners
        # by number, and a set's place is where it is first reached
        while len(self._orders) <= m:
            linked = self.links.linked
            sources = self._orders[-1][1] if self._orders else range(self.index.count)
            reached: list[int] = []
            seen = 0
            for i in sources:
                new = linked[i] & ~seen
                if new:
                    reached.extend(_cells_of(new))
                    seen |= new
            positions = [0] * self.index.count
            for place, j in enumerate(reached):
                positions[j] = place
            self._orders.append((positions, reached))
        return self._orders[m][0]

    def _leavers(self, m: int) -> list[int]:
        """Per digit y, the sets some walk of layer m may leave by y: walks arrive there by another digit."""
        while len(self._leave) <= m:
            arrivals: list[int] | tuple[int, ...]
            if self._leave:
                able = self._leave[-1]
                arrivals = []
                for partners in self.links.partners:
                    found = 0
                    for y, p in partners:
                        if p & able[y]:
                            found |= 1 << (y - 1)
                    arrivals.append(found)
            else:
                arrivals = self.link_digits
            several = 0
            only = [0] * 10
            for i, found in enumerate(arrivals):
                if POPCOUNT[found] > 1:
                    several |= 1 << i
                elif found:
                    only[found.bit_length()] |= 1 << i
            any_only = 0
            for sets in only:
                any_only |= sets
            self._leave.append([several | any_only & ~only[y] for y in range(10)])
        return self._leave[m]

    def _ranked(self, m: int, i: int, xs: list[int]) -> list[int]:
        """Last-link digits into set i at layer m, by the reach order of the first set a walk comes from by each."""
        # the first set is taken in the reach order of layer m - 1 among the partners by that digit that walks can
        # leave by it; ties go by digit. In layer 0 each code arrives by its own first digit, so only later layers
        # have several digits to order
        positions = self._positions(m - 1)
        able = self._leavers(m - 1)
        rank: dict[int, tuple[int, int]] = {}
        for x, p in self.links.partners[i]:
            if x in xs:
                rank[x] = (min(positions[i2] for i2 in _cells_of(p & able[x])), x)
        return sorted(xs, key=rank.__getitem__)

    def trace(self, k: int, j: int, y: int, code: int, blocked: int) -> list[tuple[int, int]] | None:
        """Pairwise disjoint sets from a start code to set j entered by y after k+1 links, as (set, link digit)."""
        # blocked: the sets sharing a cell with those already chosen after j
        blocked |= self.links.overlap[j]
        first, start = divmod(code, self.count)
        first += 1
        if blocked >> start & 1:
            # the start shares a cell with a set already chosen
            return None
        if k == 0:
            return [(start, 0), (j, y)] if first == y else None
        linked = self._partners_by(j, y) & ~blocked
        if k == 1:
            # the middle set is the first partner of j by y linked to the start by its first digit
            if first == y:
                return None
            linked &= self._partners_by(start, first)
            if not linked:
                return None
            return [(start, 0), ((linked & -linked).bit_length() - 1, first), (j, y)]
        wanted = 1 << code
        layer = self.layers[k - 1]
        for i in _cells_of(linked):
            base = i * 9 - 1
            xs = []
            for x in MASK_DIGITS[self.link_digits[i]]:
                if x != y and layer[base + x] & wanted:
                    xs.append(x)
            # the chain found for an elimination depends on the order the digits into i are tried in
            if len(xs) > 1:
                xs = self._ranked(k - 1, i, xs)
            for x in xs:
                found = self.trace(k - 1, i, x, code, blocked)
                if found is not None:
                    return [*found, (j, y)]
        return None

    def _partners_by(self, i: int, digit: int) -> int:
        """The RCC partners of set i by one digit."""
        for d, p in self.links.partners[i]:
            if d == digit:
                return p
        return 0

    def chains(self, k: int, end: int, last: int, hits: int, z: int) -> Iterator[list[tuple[int, int]]]:
        """Chains of k+1 links into ``end`` by ``last`` from start codes ``hits``, ends sharing z, one per removal."""
        index, count = self.index, self.count
        sees = self.links.sees
        end_z = sees[end][z] & index.digit_cells[z]
        covered = self.covered[z]
        # codes by start set, then first digit
        for start in _cells_of(_fold(hits, count)):
            targets = sees[start][z] & end_z
            for first in range(9):
                code = first * count + start
                if not hits >> code & 1:
                    continue
                if targets in covered:
                    continue
                key = (k, end, last, code)
                if key not in self.traced:
                    self.traced[key] = self.trace(k, end, last, code, 0)
                chain = self.traced[key]
                if chain is None:
                    continue
                whole = self.blocks << start
                by_z = self.ends[end]
                left = by_z[z] & ~whole
                if left:
                    by_z[z] = left
                else:
                    del by_z[z]
                    if not by_z:
                        del self.ends[end]
                covered.add(targets)
                # two sets are ALS-XZ and three ALS-XY-Wing: such a walk only marks its elimination as found
                if len(chain) >= MIN_CHAIN_ALS:
                    yield chain
                break


def _states(sets: int, digit_index: int) -> tuple[int, ...]:
    """The states ``set * 9 + digit_index`` of a set of sets, ascending."""
    states = []
    while sets:
        low = sets & -sets
        states.append(low.bit_length() * 9 - 9 + digit_index)
        sets ^= low
    return tuple(states)


def _fold(codes: int, count: int) -> int:
    """The start sets of a set of walk codes (each digit's block of ``count`` bits, or-ed together)."""
    sets = 0
    while codes:
        sets |= codes
        codes >>= count
    return sets & ((1 << count) - 1)


def _link_digits(partners: tuple[tuple[int, int], ...]) -> int:
    """The digits of a set's RCC links, as candidate bits."""
    found = 0
    for d, _ in partners:
        found |= 1 << (d - 1)
    return found


def _chain_step(board: Board, index: _Index, chain: list[tuple[int, int]], z: int, labels: dict[int, str]) -> Step:
    """The step of an ALS chain whose end sets share z (labels caches the sets' names within one search)."""
    for i, _ in chain:
        if i not in labels:
            labels[i] = index.als(i).label()
    sets = [index.als(i) for i, _ in chain]
    sees = index.links.sees
    targets = sees[chain[0][0]][z] & sees[chain[-1][0]][z] & index.digit_cells[z]
    links = ", ".join(f"by {x} to {labels[i]}" for i, x in chain[1:])
    return Step(
        "als_chain",
        eliminations=_eliminations([(z, targets)]),
        cause=_cause(board, sets),
        units=_units(sets),
        cells=_cells(sets),
        length=len(sets),
        text=f"ALS chain: {labels[chain[0][0]]} is linked {links}; if the first set held no {z}, each set in turn "
        f"would be locked and the last would hold {z}, so one end holds {z}; "
        f"{_removal(z, targets, 'of both ends')}.",
    )


def als_chain(board: Board) -> Iterator[Step]:
    """ALSs linked in a row by RCCs (consecutive ones differ); a digit Z of both ends, not the first or last
    RCC, leaves cells seeing all its places in both ends. One chain (a shortest) per distinct elimination."""
    index = _index(board)
    if not any(index.links.linked):
        return
    search = _ChainSearch(index)
    link_digits, any_start = search.link_digits, search.any_start
    ends = sorted(search.ends)
    labels: dict[int, str] = {}
    for k in range(MAX_CHAIN_ALS - 1):
        if not search.ends:
            return
        layer = search.grow()
        search.layers.append(tuple(layer))
        for end in ends:
            by_z = search.ends.get(end)
            if not by_z:
                continue
            base = end * 9 - 1
            could_fit = any_start[end]
            for last in MASK_DIGITS[link_digits[end]]:
                starts = layer[base + last]
                if not starts & could_fit:
                    continue
                # Z ascending (the end's digits with fitting starts, in the order they were found)
                for z, fitting in list(by_z.items()):
                    if z != last:
                        fitting &= starts
                        if fitting:
                            for chain in search.chains(k, end, last, fitting, z):
                                yield _chain_step(board, index, chain, z, labels)


def _intersections() -> list[tuple[int, int]]:
    """Every (box, line) pair that shares three cells."""
    return [(box, line) for box in range(18, 27) for line in range(18) if UNIT_MASK[box] & UNIT_MASK[line]]


BOX_LINES: tuple[tuple[int, int], ...] = tuple(_intersections())


def _box_line_groups(board: Board, shared: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Two or three open cells of a box-line intersection with at least two more candidates than cells."""
    open_cells = [c for c in _cells_of(shared) if not board.values[c] and board.cands[c]]
    for size in (2, 3):
        for cells in combinations(open_cells, size):
            digits = 0
            for c in cells:
                digits |= board.cands[c]
            if POPCOUNT[digits] >= size + 2:
                yield cells, digits


def _removed(board: Board, rests: tuple[tuple[int, int], tuple[int, int]]) -> tuple[Candidate, ...]:
    """(cell, digit) for each digit of a mask in each cell of a cell set, set by set, cells ascending, no repeats."""
    removed: list[Candidate] = []
    for rest, mask in rests:
        for c in _cells_of(rest):
            removed.extend((c, d) for d in MASK_DIGITS[board.cands[c] & mask])
    return tuple(dict.fromkeys(removed))


def _sue_de_coq_step(
    board: Board,
    box: int,
    line: int,
    group: tuple[int, ...],
    digits: int,
    sets: tuple[Als, Als],
    removed: tuple[Candidate, ...],
) -> Step:
    """The Sue de Coq step of an intersection group completed by an ALS in the line and one in the box."""
    line_set, box_set = sets
    line_digits = (digits | line_set.digits) & ~box_set.digits
    box_digits = (digits | box_set.digits) & ~line_set.digits
    cells = (*group, *line_set.cells, *box_set.cells)
    union = digits | line_set.digits | box_set.digits
    return Step(
        "sue_de_coq",
        eliminations=removed,
        units=(line, box),
        cells=cells,
        cause=tuple((c, d) for c in cells for d in digits_of(board.cands[c])),
        text=f"Sue de Coq: {names(group)} in {unit_name(line)} and {unit_name(box)} hold "
        f"{digit_list(digits_of(digits))}; with {line_set.label()} in {unit_name(line)} and {box_set.label()} in "
        f"{unit_name(box)} these {len(cells)} cells need exactly {digit_list(digits_of(union))}, so "
        f"{digit_list(digits_of(line_digits))} leave the rest of {unit_name(line)} and "
        f"{digit_list(digits_of(box_digits))} leave the rest of {unit_name(box)}.",
    )


def sue_de_coq(board: Board) -> Iterator[Step]:
    """Two or three box-line cells with N+2 or more candidates, completed by an ALS in the rest of the line and
    one in the rest of the box with no common digit, so that the cells number as many as their digits: the
    line part's digits leave the rest of the line and the box part's digits leave the rest of the box."""
    index = _index(board)
    masks, set_digits, cells_of_digit = index.masks, index.digits, index.digit_cells
    reported: set[tuple[Candidate, ...]] = set()
    for box, line in BOX_LINES:
        shared = UNIT_MASK[box] & UNIT_MASK[line]
        line_sets = [i for i in index.in_unit[line] if not masks[i] & shared]
        box_sets = [i for i in index.in_unit[box] if not masks[i] & shared]
        if not line_sets or not box_sets:
            continue
        for group, digits in _box_line_groups(board, shared):
            size = len(group)
            group_mask = sum(1 << c for c in group)
            # a box set fits a line set without common digits when it has as many of the group's digits as the
            # cell count needs, so box sets are sorted by how many of the group's digits they hold
            by_shared: dict[int, list[int]] = {}
            for b in box_sets:
                held = POPCOUNT[set_digits[b] & digits]
                if held:
                    by_shared.setdefault(held, []).append(b)
            for a in line_sets:
                line_only = set_digits[a]
                if not line_only & digits:
                    continue
                needed = POPCOUNT[digits | line_only] - size - POPCOUNT[line_only] + 2
                for b in by_shared.get(needed, ()):
                    box_only = set_digits[b]
                    if box_only & line_only:
                        continue
                    line_digits = (digits | line_only) & ~box_only
                    box_digits = (digits | box_only) & ~line_only
                    line_rest = UNIT_MASK[line] & ~(group_mask | masks[a])
                    box_rest = UNIT_MASK[box] & ~(group_mask | masks[b])
                    line_cover = box_cover = 0
                    for d in MASK_DIGITS[line_digits]:
                        line_cover |= cells_of_digit[d]
                    for d in MASK_DIGITS[box_digits]:
                        box_cover |= cells_of_digit[d]
                    line_rest &= line_cover
                    box_rest &= box_cover
                    if not line_rest and not box_rest:
                        continue
                    removed = _removed(board, ((line_rest, line_digits), (box_rest, box_digits)))
                    if removed in reported:
                        continue
                    reported.add(removed)
                    yield _sue_de_coq_step(board, box, line, group, digits, (index.als(a), index.als(b)), removed)
