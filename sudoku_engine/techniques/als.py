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
eliminations, the first found in a fixed order. The sets and links of a position are built once and shared by
the four finders (they run one after another on the same candidates).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

from ..board import Board, Candidate, Step
from ..grid import PEERS, POPCOUNT, UNITS, bit, cell_name, digits_of, unit_name
from .common import digit_list, names

MAX_ALS_CELLS = 6
MIN_CHAIN_ALS = 4
MAX_CHAIN_ALS = 6

ALL_CELLS = (1 << 81) - 1
PEER_MASK: tuple[int, ...] = tuple(sum(1 << p for p in PEERS[c]) for c in range(81))
UNIT_MASK: tuple[int, ...] = tuple(sum(1 << c for c in cells) for cells in UNITS)


def _cells_of(mask: int) -> list[int]:
    """The cells of an 81-bit cell set, ascending."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


@dataclass(frozen=True, slots=True)
class Als:
    """An almost locked set with, per digit, where the digit sits in it and which cells see all of those."""

    cells: tuple[int, ...]
    mask: int
    digits: int
    unit: int
    where: tuple[int, ...]
    sees: tuple[int, ...]

    def label(self) -> str:
        """``{r1c1, r1c5} (1/4/7)``: the cells and digits as a player reads them."""
        return "{" + ", ".join(cell_name(c) for c in self.cells) + "} (" + digit_list(digits_of(self.digits)) + ")"


def _make_als(cells: tuple[int, ...], digits: int, unit: int, cands: tuple[int, ...]) -> Als:
    """An ALS with its per-digit positions and the cells seeing all of them (index = digit, 0 unused)."""
    where = [0] * 10
    sees = [0] * 10
    for d in digits_of(digits):
        b = bit(d)
        inside, seen = 0, ALL_CELLS
        for c in cells:
            if cands[c] & b:
                inside |= 1 << c
                seen &= PEER_MASK[c]
        where[d], sees[d] = inside, seen
    return Als(cells, sum(1 << c for c in cells), digits, unit, tuple(where), tuple(sees))


def _unit_subsets(open_cells: list[int], cands: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
    """Subsets of a house's open cells (up to MAX_ALS_CELLS) whose candidates number one more than the cells."""
    stack: list[tuple[int, tuple[int, ...], int]] = [(0, (), 0)]
    while stack:
        start, chosen, union = stack.pop()
        if chosen and POPCOUNT[union] == len(chosen) + 1:
            yield chosen, union
        if len(chosen) == MAX_ALS_CELLS:
            continue
        for i in range(len(open_cells) - 1, start - 1, -1):
            grown = union | cands[open_cells[i]]
            # candidates never shrink as cells are added, so a union past the largest ALS is a dead end
            if POPCOUNT[grown] <= MAX_ALS_CELLS + 1:
                stack.append((i + 1, (*chosen, open_cells[i]), grown))


def _collect(values: tuple[int, ...], cands: tuple[int, ...]) -> list[Als]:
    """Every ALS of the position, once each (a set inside a box-line intersection is found in both houses)."""
    found: dict[int, Als] = {}
    for unit, house in enumerate(UNITS):
        open_cells = [c for c in house if not values[c] and cands[c]]
        for cells, digits in _unit_subsets(open_cells, cands):
            mask = sum(1 << c for c in cells)
            if mask not in found:
                found[mask] = _make_als(cells, digits, unit, cands)
    return list(found.values())


@dataclass(frozen=True, slots=True)
class _Index:
    """The ALSs of a position, the cells holding each digit, and the RCC links between the sets."""

    als: tuple[Als, ...]
    digit_cells: tuple[int, ...]
    links: dict[tuple[int, int], int]
    adjacent: tuple[tuple[tuple[int, int], ...], ...]


def _links(als: tuple[Als, ...]) -> dict[tuple[int, int], int]:
    """RCC digits of every pair (i < j) of disjoint ALSs, found by grouping sets with equal digit positions."""
    links: dict[tuple[int, int], int] = {}
    for d in range(1, 10):
        groups: dict[int, list[int]] = {}
        for i, a in enumerate(als):
            if a.where[d]:
                groups.setdefault(a.where[d], []).append(i)
        keys = list(groups)
        for n, first in enumerate(keys):
            # whether the digit is restricted depends on the two position sets only, so test groups, not pairs
            seen = als[groups[first][0]].sees[d]
            for second in keys[n + 1 :]:
                if second & ~seen:
                    continue
                for i in groups[first]:
                    for j in groups[second]:
                        if not als[i].mask & als[j].mask:
                            key = (i, j) if i < j else (j, i)
                            links[key] = links.get(key, 0) | bit(d)
    return dict(sorted(links.items()))


@lru_cache(maxsize=4)
def _index_of(values: tuple[int, ...], cands: tuple[int, ...]) -> _Index:
    """The index of a position (cached: the ALS finders run one after another on the same position)."""
    als = tuple(_collect(values, cands))
    digit_cells = tuple(sum(1 << c for c in range(81) if cands[c] & bit(d)) if d else 0 for d in range(10))
    links = _links(als)
    adjacent: list[list[tuple[int, int]]] = [[] for _ in als]
    for (i, j), rcc in links.items():
        adjacent[i].append((j, rcc))
        adjacent[j].append((i, rcc))
    return _Index(als, digit_cells, links, tuple(tuple(sorted(row)) for row in adjacent))


def _index(board: Board) -> _Index:
    """The ALS index of a board's current candidates."""
    return _index_of(tuple(board.values), tuple(board.cands))


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
    relative = "which sees" if len(cells) == 1 else "which see"
    return f"{digit} leaves {names(cells)}, {relative} all {digit}s {why}"


def _eliminations(removals: list[tuple[int, int]]) -> tuple[Candidate, ...]:
    """(cell, digit) pairs of per-digit target sets, cells ascending within each digit, without repeats."""
    return tuple(dict.fromkeys((c, d) for d, targets in removals for c in _cells_of(targets)))


def _xz_removals(index: _Index, a: Als, b: Als, rcc: int) -> list[tuple[int, int, str]]:
    """(digit, targets, why) for a linked pair: Z digits when singly linked, the locked sets when doubly linked."""
    cells = index.digit_cells
    found: list[tuple[int, int, str]] = []
    if POPCOUNT[rcc] == 1:
        for z in digits_of(a.digits & b.digits & ~rcc):
            found.append((z, a.sees[z] & b.sees[z] & cells[z], "of both"))
    elif POPCOUNT[rcc] == 2:
        # two RCCs: each set misses one of them, so both are locked and each RCC sits once in the pair
        # (three or more cannot happen in a position that has a solution)
        for x in digits_of(rcc):
            found.append((x, a.sees[x] & b.sees[x] & cells[x], "of both"))
        for name, s in (("first", a), ("second", b)):
            for d in digits_of(s.digits & ~rcc):
                found.append((d, s.sees[d] & cells[d], f"of the {name} set"))
    return [(d, targets, why) for d, targets, why in found if targets]


def als_xz(board: Board) -> Iterator[Step]:
    """Two ALSs linked by a restricted common X: a common Z leaves cells seeing all its places in both."""
    index = _index(board)
    reported: set[tuple[Candidate, ...]] = set()
    for (i, j), rcc in index.links.items():
        a, b = index.als[i], index.als[j]
        removals = _xz_removals(index, a, b, rcc)
        eliminations = _eliminations([(d, t) for d, t, _ in removals])
        if not eliminations or eliminations in reported:
            continue
        reported.add(eliminations)
        doubly = POPCOUNT[rcc] == 2
        kind = "ALS-XZ (doubly linked)" if doubly else "ALS-XZ"
        reason = "; ".join(_removal(d, t, why) for d, t, why in removals)
        link = f"{a.label()} and {b.label()} are linked by {' and '.join(map(str, digits_of(rcc)))}"
        if doubly:
            link += ", so both sets are locked"
        yield Step(
            "als_xz", eliminations=eliminations, cause=_cause(board, [a, b]),
            units=_units([a, b]), cells=_cells([a, b]), text=f"{kind}: {link}; {reason}.",
        )


def als_xy_wing(board: Board) -> Iterator[Step]:
    """Pivot C linked to A by X and to B by Y (X != Y): a digit Z of A and B leaves cells seeing all its places."""
    index = _index(board)
    cells = index.digit_cells
    reported: set[tuple[Candidate, ...]] = set()
    for pivot, neighbours in enumerate(index.adjacent):
        c = index.als[pivot]
        for (ia, ra), (ib, rb) in combinations(neighbours, 2):
            a, b = index.als[ia], index.als[ib]
            if a.mask & b.mask:
                continue
            done = 0
            for x in digits_of(ra):
                for y in digits_of(rb):
                    zs = a.digits & b.digits & ~(bit(x) | bit(y)) & ~done
                    if x == y or not zs:
                        continue
                    removals = [(z, a.sees[z] & b.sees[z] & cells[z]) for z in digits_of(zs)]
                    removals = [(z, t) for z, t in removals if t]
                    done |= sum(bit(z) for z, _ in removals)
                    eliminations = _eliminations(removals)
                    if not eliminations or eliminations in reported:
                        continue
                    reported.add(eliminations)
                    reason = "; ".join(_removal(z, t, "of A and B") for z, t in removals)
                    yield Step(
                        "als_xy_wing", eliminations=eliminations, cause=_cause(board, [a, b, c]),
                        units=_units([a, b, c]), cells=_cells([a, b, c]),
                        text=f"ALS-XY-Wing: pivot C {c.label()} is linked to A {a.label()} by {x} and to "
                        f"B {b.label()} by {y}, so A or B is locked; {reason}.",
                    )


Layer = dict[int, dict[int, int]]


def _first_layer(index: _Index) -> Layer:
    """Walks of one RCC link: end set -> link digit -> the starts, each coded ``set * 9 + digit - 1`` as a bit."""
    first: Layer = {}
    for i, row in enumerate(index.adjacent):
        for j, rcc in row:
            arriving = first.setdefault(j, {})
            for x in digits_of(rcc):
                arriving[x] = arriving.get(x, 0) | 1 << (i * 9 + x - 1)
    return first


def _next_layer(index: _Index, previous: Layer) -> Layer:
    """Walks one link longer than those of ``previous``, never using the same digit for two links in a row."""
    layer: Layer = {}
    for i, ins in previous.items():
        leaving: dict[int, int] = {}
        for j, rcc in index.adjacent[i]:
            arriving = layer.setdefault(j, {})
            for y in digits_of(rcc):
                if y not in leaving:
                    leaving[y] = 0
                    for x, starts in ins.items():
                        if x != y:
                            leaving[y] |= starts
                if leaving[y]:
                    arriving[y] = arriving.get(y, 0) | leaving[y]
    return layer


def _start_codes(index: _Index) -> list[int]:
    """Per set, the bits of its start codes: one per digit of the RCC links it has."""
    codes: list[int] = []
    for i, row in enumerate(index.adjacent):
        rcc = 0
        for _, r in row:
            rcc |= r
        codes.append(sum(1 << (i * 9 + x - 1) for x in digits_of(rcc)))
    return codes


def _overlapping(index: _Index, codes: list[int]) -> list[int]:
    """Per set, the start codes of every set sharing a cell with it (itself included)."""
    at_cell = [0] * 81
    for i, a in enumerate(index.als):
        for c in a.cells:
            at_cell[c] |= codes[i]
    overlapping = []
    for a in index.als:
        near = 0
        for c in a.cells:
            near |= at_cell[c]
        overlapping.append(near)
    return overlapping


def _end_starts(index: _Index) -> dict[tuple[int, int], int]:
    """For (end set, Z): codes of start sets apart from it that share Z, first link not Z, a cell seeing all Zs."""
    codes = _start_codes(index)
    overlapping = _overlapping(index, codes)
    result: dict[tuple[int, int], int] = {}
    for z in range(1, 10):
        groups: dict[int, list[int]] = {}
        for i, a in enumerate(index.als):
            if a.where[z] and codes[i]:
                groups.setdefault(a.where[z], []).append(i)
        not_z = sum(1 << (i * 9 + z - 1) for i in range(len(index.als)))
        # a start fits an end when some cell with z sees all zs of both: gather start codes per such cell
        by_target = [0] * 81
        targets = {}
        for w, members in groups.items():
            targets[w] = _cells_of(index.als[members[0]].sees[z] & index.digit_cells[z])
            code = sum(codes[i] for i in members) & ~not_z
            for t in targets[w]:
                by_target[t] |= code
        for w, ends in groups.items():
            starts = 0
            for t in targets[w]:
                starts |= by_target[t]
            for j in ends:
                result[(j, z)] = starts & ~overlapping[j]
    return result


def _trace(
    index: _Index, layers: list[Layer], k: int, state: tuple[int, int], code: int, used: int
) -> list[tuple[int, int]] | None:
    """Pairwise disjoint sets from a start code to a state after k+1 links, as (set, digit of the link into it).

    ``used`` holds the cells of the sets already chosen after this state; only walks the layers confirm are tried.
    """
    j, y = state
    used |= index.als[j].mask
    if k == 0:
        start, first = divmod(code, 9)
        if index.als[start].mask & used or first + 1 != y:
            return None
        return [(start, 0), (j, y)]
    b = bit(y)
    for i, rcc in index.adjacent[j]:
        if not rcc & b or index.als[i].mask & used:
            continue
        for x, starts in layers[k - 1].get(i, {}).items():
            if x != y and starts >> code & 1:
                found = _trace(index, layers, k - 1, (i, x), code, used)
                if found is not None:
                    return [*found, (j, y)]
    return None


def _chain_step(board: Board, index: _Index, chain: list[tuple[int, int]], z: int, labels: dict[int, str]) -> Step:
    """The step of an ALS chain whose end sets share z (labels caches the sets' names within one search)."""
    for i, _ in chain:
        if i not in labels:
            labels[i] = index.als[i].label()
    sets = [index.als[i] for i, _ in chain]
    targets = sets[0].sees[z] & sets[-1].sees[z] & index.digit_cells[z]
    links = ", ".join(f"by {x} to {labels[i]}" for i, x in chain[1:])
    return Step(
        "als_chain", eliminations=_eliminations([(z, targets)]), cause=_cause(board, sets), units=_units(sets),
        cells=_cells(sets), length=len(sets),
        text=f"ALS chain: {labels[chain[0][0]]} is linked {links}; if the first set held no {z}, each set in turn "
        f"would be locked and the last would hold {z}, so one end holds {z}; "
        f"{_removal(z, targets, 'of both ends')}.",
    )


class _ChainSearch:
    """The state of one ALS chain search: the walk layers, the starts fitting each end, what is already found."""

    def __init__(self, index: _Index) -> None:
        self.index = index
        self.layers = [_first_layer(index)]
        self.ends = _end_starts(index)
        self.settled: dict[tuple[int, int], int] = {}
        self.covered: set[tuple[int, int]] = set()
        self.traced: dict[tuple[int, int, int, int], list[tuple[int, int]] | None] = {}

    def chains(self, k: int, end: int, last: int, starts: int, z: int) -> Iterator[list[tuple[int, int]]]:
        """Chains of k+1 links into ``end`` (last link ``last``) whose ends share z, one per new elimination."""
        index = self.index
        # each pair of ends is met from both sides: keep the meeting at the higher-numbered end
        hits = starts & self.ends.get((end, z), 0) & ((1 << (end * 9)) - 1) & ~self.settled.get((end, z), 0)
        while hits:
            code = (hits & -hits).bit_length() - 1
            hits &= ~(1 << code)
            targets = index.als[code // 9].sees[z] & index.als[end].sees[z] & index.digit_cells[z]
            if (z, targets) in self.covered:
                continue
            key = (k, end, last, code)
            if key not in self.traced:
                self.traced[key] = _trace(index, self.layers, k, (end, last), code, 0)
            chain = self.traced[key]
            if chain is None:
                continue
            whole = 0x1FF << (code - code % 9)
            hits &= ~whole
            self.settled[(end, z)] = self.settled.get((end, z), 0) | whole
            self.covered.add((z, targets))
            # two sets are ALS-XZ and three ALS-XY-Wing: such a walk only marks its elimination as found
            if len(chain) >= MIN_CHAIN_ALS:
                yield chain


def als_chain(board: Board) -> Iterator[Step]:
    """ALSs linked in a row by RCCs (consecutive ones differ); a digit Z of both ends, not the first or last
    RCC, leaves cells seeing all its places in both ends. One chain (a shortest) per distinct elimination."""
    index = _index(board)
    if not index.links:
        return
    search = _ChainSearch(index)
    labels: dict[int, str] = {}
    for k in range(MAX_CHAIN_ALS - 1):
        if k:
            search.layers.append(_next_layer(index, search.layers[-1]))
        for end, arriving in sorted(search.layers[k].items()):
            for last, starts in sorted(arriving.items()):
                for z in digits_of(index.als[end].digits & ~bit(last)):
                    for chain in search.chains(k, end, last, starts, z):
                        yield _chain_step(board, index, chain, z, labels)


def _intersections() -> list[tuple[int, int]]:
    """Every (box, line) pair that shares three cells."""
    return [(box, line) for box in range(18, 27) for line in range(18) if UNIT_MASK[box] & UNIT_MASK[line]]


BOX_LINES: tuple[tuple[int, int], ...] = tuple(_intersections())


def _sue_de_coq_removals(
    board: Board, box: int, line: int, group: int, digits: int, line_set: Als, box_set: Als
) -> tuple[int, int, tuple[Candidate, ...]]:
    """Digits confined to the line part and to the box part, and the candidates they lose outside the pattern."""
    line_digits = (digits | line_set.digits) & ~box_set.digits
    box_digits = (digits | box_set.digits) & ~line_set.digits
    removed: list[Candidate] = []
    for house, keep, mask in ((line, group | line_set.mask, line_digits), (box, group | box_set.mask, box_digits)):
        for c in UNITS[house]:
            if not keep >> c & 1:
                removed.extend((c, d) for d in digits_of(board.cands[c] & mask))
    return line_digits, box_digits, tuple(dict.fromkeys(removed))


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


def _sue_de_coq_step(
    board: Board, box: int, line: int, group: tuple[int, ...], digits: int, line_set: Als, box_set: Als
) -> Step:
    """The Sue de Coq step of an intersection group completed by an ALS in the line and one in the box."""
    line_digits, box_digits, removed = _sue_de_coq_removals(
        board, box, line, sum(1 << c for c in group), digits, line_set, box_set
    )
    cells = (*group, *line_set.cells, *box_set.cells)
    union = digits | line_set.digits | box_set.digits
    return Step(
        "sue_de_coq", eliminations=removed, units=(line, box), cells=cells,
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
    reported: set[tuple[Candidate, ...]] = set()
    for box, line in BOX_LINES:
        shared = UNIT_MASK[box] & UNIT_MASK[line]
        line_sets = [a for a in index.als if not a.mask & ~(UNIT_MASK[line] & ~shared)]
        box_sets = [a for a in index.als if not a.mask & ~(UNIT_MASK[box] & ~shared)]
        for group, digits in _box_line_groups(board, shared):
            for line_set, box_set in product(line_sets, box_sets):
                union = digits | line_set.digits | box_set.digits
                if (
                    line_set.digits & box_set.digits
                    or not line_set.digits & digits
                    or not box_set.digits & digits
                    or POPCOUNT[union] != len(group) + len(line_set.cells) + len(box_set.cells)
                ):
                    continue
                step = _sue_de_coq_step(board, box, line, group, digits, line_set, box_set)
                if step.eliminations and step.eliminations not in reported:
                    reported.add(step.eliminations)
                    yield step
