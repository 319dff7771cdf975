"""Forcing chains and forcing nets: what one assumption forces, and what every way of filling a cell or house forces.

A *trial* assumes one candidate true and follows what that forces. A forcing chain's trial applies singles only:
placing a digit removes it from the cell's peers and removes the cell's other digits, and every cell left with
one candidate (naked single) or house left with one place for a digit (hidden single) is placed in turn. A forcing
net's trial also applies pointing, claiming and naked pairs whenever its singles run out. Every rule a trial applies
is sound, so three kinds of conclusion follow from the trials:

- Contradiction: a trial that leaves a cell without a candidate or a house without a place for a digit (or needs
  two digits in one cell) started from a false assumption, so that candidate goes.
- Cell forcing: one of a cell's candidates is its digit; when every one of their trials places the same digit or
  removes the same candidate, that placement or removal holds whichever candidate is true.
- Unit forcing: a digit goes in one of its places in a house; the same argument over the trials of those places.

The length of a conclusion counts placements along its longest line of reasoning: the assumption is 1, a single is
one more than the latest removal it needed, and a pointing, claiming or naked-pair removal is one more than the
latest removal that made it; over the branches of a cell or house the longest counts. Each conclusion is reported
once, with its shortest source (contradictions, then cells, then houses on ties), and steps come shortest first. A
cell or house one of whose trials breaks offers nothing of its own: the broken trial is reported as a
contradiction.

Every candidate has one trial, shared by every source that branches on it. A trial works on plain ints: candidate
masks per cell, a bitset of cells per digit and the places left per (house, digit); it places singles first in,
first out, so in order of length, and stops at its first contradiction. What the branches of a source agree on is
an ``and`` of candidate bitsets (bit ``(digit - 1) * 81 + cell``).

The logic solver takes only the first step, so the first one is found from as little of the trials as it takes:
the shortest contradiction, unless a cell or house proves something shorter (see ``_first``); the other steps are
worked out when they are asked for.

Bounds: one trial per candidate; a trial makes at most 81 placements, and each net round it runs removes at least
one candidate, so a trial ends after at most 729 rounds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from ..board import Board, Step
from ..grid import MASK_DIGITS, PEERS, POPCOUNT, UNITS, UNITS_OF, bit, box_of, cell_name, col_of, row_of, unit_name
from . import nets

_Intersection = tuple[int, int, tuple[int, ...], tuple[int, ...]]
_Elimination = tuple[int, int, int]  # (cell, digit, length)

_PEER_BITS: tuple[int, ...] = tuple(sum(1 << p for p in PEERS[c]) for c in range(81))
_UNIT_BITS: tuple[int, ...] = tuple(sum(1 << c for c in cells) for cells in UNITS)
_KEYS: tuple[tuple[int, ...], ...] = tuple(
    tuple(unit * 9 + digit - 1 for unit in UNITS_OF[cell]) for cell in range(81) for digit in range(1, 10)
)  # index cell * 9 + digit - 1: the count keys (unit * 9 + digit - 1) of the cell's three houses
_CELL_CANDIDATES: tuple[int, ...] = tuple(sum(1 << (d * 81 + c) for d in range(9)) for c in range(81))
_ENDLESS = 1 << 30  # longer than any trial
_DONE = 99  # places left of a digit already placed in the house: far from 1 however many removals follow


def _cells(mask: int) -> Iterator[int]:
    """Indices of the set bits of a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _candidate_bits(positions: list[int]) -> int:
    """The candidate bitset of the cells per digit: digit d's cells in block d - 1 of 81 bits."""
    p = positions
    return (
        p[1]
        | p[2] << 81
        | p[3] << 162
        | p[4] << 243
        | p[5] << 324
        | p[6] << 405
        | p[7] << 486
        | p[8] << 567
        | p[9] << 648
    )


def _mask(test: Callable[[int, int], bool]) -> int:
    """The cells (row, column) that pass a test, as a bitset."""
    return sum(1 << (r * 9 + c) for r in range(9) for c in range(9) if test(r, c))


def _intersection(box: int, line: int) -> _Intersection:
    """A box-line intersection: masks of the rest of the box and of the rest of the line, then their cells."""
    box_rest = tuple(c for c in UNITS[box] if c not in UNITS[line])
    line_rest = tuple(c for c in UNITS[line] if c not in UNITS[box])
    return sum(1 << c for c in box_rest), sum(1 << c for c in line_rest), box_rest, line_rest


_BOX_LINE_PAIRS = tuple(
    (box, line) for box in range(18, 27) for line in range(18) if set(UNITS[box]) & set(UNITS[line])
)
_BOX_LINES: tuple[_Intersection, ...] = tuple(_intersection(box, line) for box, line in _BOX_LINE_PAIRS)
_ROW_SEGMENT = tuple(  # cell -> index of the intersection of its box and row
    _BOX_LINE_PAIRS.index((18 + box_of(c), row_of(c))) for c in range(81)
)
_COLUMN_SEGMENT = tuple(  # cell -> index of the intersection of its box and column
    _BOX_LINE_PAIRS.index((18 + box_of(c), 9 + col_of(c))) for c in range(81)
)
_DIGIT_BLOCKS = sum(1 << (81 * d) for d in range(9))  # multiplier: a cell mask copied into every digit's block
_SEGMENT_STARTS = _mask(lambda r, c: c % 3 == 0) * _DIGIT_BLOCKS  # a row's three box segments, by first cell
_STACK_STARTS = _mask(lambda r, c: r % 3 == 0) * _DIGIT_BLOCKS  # a column's three box segments, by first cell
_FIRST_COLUMN = _mask(lambda r, c: c == 0) * _DIGIT_BLOCKS
_FIRST_ROW = _mask(lambda r, c: r == 0) * _DIGIT_BLOCKS
_BOX_STARTS = _mask(lambda r, c: r % 3 == 0 and c % 3 == 0) * _DIGIT_BLOCKS
_ALONG_ROW = 1 | 1 << 3 | 1 << 6  # multiplier: a row's first cell to its three segment starts
_ALONG_COLUMN = 1 | 1 << 27 | 1 << 54  # multiplier: a column's first cell to its three segment starts
_DOWN_BOX = 1 | 1 << 9 | 1 << 18  # multiplier: a box's first cell to the first cells of its rows
_ACROSS_BOX = 1 | 1 << 1 | 1 << 2  # multiplier: a box's first cell to the first cells of its columns


def _one_of_three(a: int, b: int, c: int, at: int) -> tuple[int, int]:
    """Per position of ``at``: where exactly one of three bitsets is set, and where two or more are."""
    several = (a & b | c & (a | b)) & at
    return (a | b | c) & at & ~several, several


def _locked_intersections(candidates: int) -> list[tuple[int, int]]:
    """The box-line intersections that lock a digit: sorted (digit - 1, 2 * intersection + 1 if claiming else 0).

    Pointing: the digit's places in a box all lie on one line, which has places outside the box. Claiming: its
    places in a line all lie in one box, which has places off the line. ``candidates`` is a candidate bitset, one
    81-cell block per digit; a segment (the three cells a box shares with a line) is marked at its first cell when
    it holds the digit. Every shift stays inside a row, a column or a box of its block, so the nine digits are
    worked out at once.
    """
    rows = (candidates | candidates >> 1 | candidates >> 2) & _SEGMENT_STARTS  # row segments holding the digit
    columns = (candidates | candidates >> 9 | candidates >> 18) & _STACK_STARTS  # column segments holding it
    row_alone, row_spread = _one_of_three(rows, rows >> 3, rows >> 6, _FIRST_COLUMN)
    box_row_alone, box_rows_spread = _one_of_three(rows, rows >> 9, rows >> 18, _BOX_STARTS)
    column_alone, column_spread = _one_of_three(columns, columns >> 27, columns >> 54, _FIRST_ROW)
    box_column_alone, box_columns_spread = _one_of_three(columns, columns >> 1, columns >> 2, _BOX_STARTS)
    pointing_rows = rows & box_row_alone * _DOWN_BOX & row_spread * _ALONG_ROW
    claiming_rows = rows & row_alone * _ALONG_ROW & box_rows_spread * _DOWN_BOX
    pointing_columns = columns & box_column_alone * _ACROSS_BOX & column_spread * _ALONG_COLUMN
    claiming_columns = columns & column_alone * _ALONG_COLUMN & box_columns_spread * _ACROSS_BOX
    fired = [(i // 81, 2 * _ROW_SEGMENT[i % 81]) for i in _cells(pointing_rows)]
    fired += [(i // 81, 2 * _ROW_SEGMENT[i % 81] + 1) for i in _cells(claiming_rows)]
    fired += [(i // 81, 2 * _COLUMN_SEGMENT[i % 81]) for i in _cells(pointing_columns)]
    fired += [(i // 81, 2 * _COLUMN_SEGMENT[i % 81] + 1) for i in _cells(claiming_columns)]
    return sorted(fired)


def _locked(candidates: int, removed: dict[int, int]) -> list[_Elimination]:
    """Pointing and claiming eliminations, by digit and then in the order of the box-line intersections.

    Pointing removes the digit from the rest of the line, claiming from the rest of the box; either is one longer
    than the latest removal that emptied the other side of the intersection.
    """
    found: list[_Elimination] = []
    for block, key in _locked_intersections(candidates):
        box_rest_mask, line_rest_mask, box_rest, line_rest = _BOX_LINES[key >> 1]
        emptied, targets = (line_rest, box_rest_mask) if key & 1 else (box_rest, line_rest_mask)
        length = max(removed.get(block * 81 + c, 0) for c in emptied) + 1
        found.extend((c, block + 1, length) for c in _cells(candidates >> block * 81 & targets))
    return found


def _bivalue(positions: list[int]) -> int:
    """The cells with exactly two candidates, as a bitset."""
    once = twice = more = 0
    for digit in range(1, 10):
        where = positions[digit]
        more |= twice & where
        twice |= once & where
        once |= where
    return twice & ~more


def _houses_of_pair(alike: int, either: int) -> int:
    """The houses holding two of the ``alike`` cells (same two candidates) and other places of those digits."""
    houses = 0
    for cell in _cells(alike):
        for unit in UNITS_OF[cell]:
            pair = alike & _UNIT_BITS[unit]
            rest = pair & (pair - 1)
            if rest and either & _UNIT_BITS[unit] & ~(pair & -pair | rest & -rest):
                houses |= 1 << unit
    return houses


def _pair_houses(positions: list[int], bivalue: int) -> int:
    """The houses where a naked pair eliminates something, as a bitset."""
    houses = 0
    for first in range(1, 9):
        with_first = bivalue & positions[first]
        if with_first & (with_first - 1):
            for second in range(first + 1, 10):
                alike = with_first & positions[second]
                if alike & (alike - 1):
                    houses |= _houses_of_pair(alike, positions[first] | positions[second])
    return houses


def _pairs(
    cands: list[int], positions: list[int], removed: dict[int, int], unit: int, bivalue: int
) -> list[_Elimination]:
    """Naked-pair eliminations in one house (a third cell with the same pair pairs with the first).

    Two cells of a house holding the same two digits and nothing else take both, so the digits leave the house's
    other cells; the removal is one longer than the latest removal that left the two cells with that pair.
    """
    found: list[_Elimination] = []
    seen: dict[int, int] = {}
    for cell in _cells(bivalue & _UNIT_BITS[unit]):
        mask = cands[cell]
        if mask not in seen:
            seen[mask] = cell
            continue
        pair = (seen[mask], cell)
        first, second = MASK_DIGITS[mask]
        if not (positions[first] | positions[second]) & _UNIT_BITS[unit] & ~(1 << pair[0] | 1 << cell):
            continue  # nothing to eliminate
        length = max(removed.get((d - 1) * 81 + c, 0) for c in pair for d in MASK_DIGITS[0x1FF & ~mask]) + 1
        found.extend((c, d, length) for c in UNITS[unit] if c not in pair for d in MASK_DIGITS[cands[c] & mask])
    return found


def _net_rules(cands: list[int], positions: list[int], removed: dict[int, int]) -> list[_Elimination]:
    """Pointing, claiming and naked-pair eliminations, in that order, by digit, box-line and house."""
    found = _locked(_candidate_bits(positions), removed)
    bivalue = _bivalue(positions)
    for unit in _cells(_pair_houses(positions, bivalue)):
        found += _pairs(cands, positions, removed, unit, bivalue)
    return found


def _positions(cands: list[int]) -> list[int]:
    """The cells of each digit (index 1 to 9) as bitsets, from the candidate masks."""
    positions = [0] * 10
    for cell, mask in enumerate(cands):
        for digit in MASK_DIGITS[mask]:
            positions[digit] |= 1 << cell
    return positions


def _places_left(positions: list[int], values: list[int]) -> list[int]:
    """Places left per (house, digit), index unit * 9 + digit - 1; ``_DONE`` where the digit is placed."""
    counts = [(positions[d] & cells).bit_count() for cells in _UNIT_BITS for d in range(1, 10)]
    for unit, cells in enumerate(UNITS):
        done = sum(bit(values[c]) for c in cells if values[c])
        for digit in MASK_DIGITS[done & 0x1FF]:
            counts[unit * 9 + digit - 1] = _DONE
    return counts


class _Base:
    """The board as every trial starts from it: masks, values, cell bitsets per digit, places per house."""

    __slots__ = ("cands", "values", "positions", "counts", "candidates")

    def __init__(self, board: Board) -> None:
        self.cands = list(board.cands)
        self.values = list(board.values)
        self.positions = _positions(self.cands)
        self.candidates = _candidate_bits(self.positions)
        self.counts = _places_left(self.positions, self.values)


class _Trial:
    """One assumption followed through the position, resumable by length: its state and what it derived.

    Removing a digit from a cell can leave the cell one candidate (a naked single) or a house one place for the
    digit (a hidden single); both are queued one longer than the removal, and placed in the order queued. A cell
    or a house left with nothing, or a single that needs a cell already placed otherwise, ends the trial.
    """

    __slots__ = (
        "net",
        "cands",
        "values",
        "positions",
        "counts",
        "removed",
        "placed",
        "queue",
        "broken",
        "why",
        "finished",
    )

    def __init__(self, base: _Base, cell: int, digit: int, net: bool) -> None:
        self.net = net  # with pointing, claiming and naked pairs when the singles run out
        self.cands = base.cands[:]
        self.values = base.values[:]
        self.positions = base.positions[:]
        self.counts = base.counts[:]  # places left per (unit, digit), index unit * 9 + digit - 1
        self.removed: dict[int, int] = {}  # candidate index -> length of its removal
        self.placed: dict[int, int] = {}  # candidate index -> length of its placement
        self.queue: deque[tuple[int, int, int]] = deque([(cell, digit, 1)])
        self.broken = 0  # length at which the trial reached a contradiction, 0 when it did not
        self.why = ""
        self.finished = False

    def fail(self, length: int, why: str) -> None:
        """Record the contradiction that ends the trial."""
        self.broken, self.why, self.finished = length, why, True

    def bits(self, base: _Base) -> tuple[int, int]:
        """The candidates placed and removed so far, as candidate bitsets."""
        placed = 0
        for index in self.placed:
            placed |= 1 << index
        return placed, base.candidates & ~_candidate_bits(self.positions) & ~placed

    def run(self, limit: int = _ENDLESS) -> None:
        """Follow the trial: singles of length up to ``limit``, and in a net a round of net rules when they run out."""
        while self.place_singles(limit):
            found = _net_rules(self.cands, self.positions, self.removed) if self.net else []
            if not found:
                self.finished = True
                return
            if not self.remove_all(found):
                return

    def run_within(self, bound: int) -> None:
        """Run a net trial's net rounds, unless the first eliminates nothing of length up to ``bound`` (nothing
        that follows from the round is shorter than its shortest elimination): then leave it there."""
        found = _net_rules(self.cands, self.positions, self.removed)
        if not found:
            self.finished = True
        elif min(length for _, _, length in found) <= bound and self.remove_all(found):
            self.run()

    def place_singles(self, limit: int = _ENDLESS) -> bool:
        """Place the queued singles of length up to ``limit``; False when stopped by the limit or a contradiction."""
        queue = self.queue
        while queue:
            if queue[0][2] > limit:
                return False
            cell, digit, length = queue.popleft()
            why = self.place(cell, digit, length)
            if why:
                self.fail(length, why)
                return False
        return True

    def remove_all(self, found: Iterable[_Elimination]) -> bool:
        """Remove the eliminations still present; False when one meets a contradiction."""
        for cell, digit, length in found:
            if self.cands[cell] >> (digit - 1) & 1:
                why = self.remove(digit, 1 << cell, length)
                if why:
                    self.fail(length, why)
                    return False
        return True

    def place(self, cell: int, digit: int, length: int) -> str:
        """Place a single: the cell's other digits go, then the digit leaves its peers; the contradiction met, or ''."""
        value = self.values[cell]
        if value:
            return "" if value == digit else f"{cell_name(cell)} needing both {value} and {digit}"
        mask, own = self.cands[cell], 1 << (digit - 1)
        if not mask & own:
            return f"{cell_name(cell)} needing {digit}, which it no longer has"
        self.values[cell] = digit
        self.cands[cell] = 0
        self.placed[(digit - 1) * 81 + cell] = length
        for other in MASK_DIGITS[mask ^ own]:
            why = self.remove(other, 1 << cell, length)
            if why:
                return why
        where = self.positions[digit] = self.positions[digit] ^ 1 << cell
        for key in _KEYS[cell * 9 + digit - 1]:
            self.counts[key] = _DONE  # the digit is placed in the house: its places there no longer count
        peers = where & _PEER_BITS[cell]
        return self.remove(digit, peers, length) if peers else ""

    def remove(self, digit: int, cells: int, length: int) -> str:
        """Remove a digit from cells that hold it (a bitset), in cell order, queueing the singles each removal
        leaves; the contradiction met, or ''."""
        cands = self.cands
        values = self.values
        counts = self.counts
        positions = self.positions
        index = digit - 1
        while cells:  # in cell order
            low = cells & -cells
            cells ^= low
            cell = low.bit_length() - 1
            where = positions[digit] = positions[digit] ^ low
            mask = cands[cell] = cands[cell] & ~(1 << index)
            self.removed[index * 81 + cell] = length
            if not values[cell]:
                if not mask:
                    return f"no candidate left in {cell_name(cell)}"
                if not mask & (mask - 1):
                    self.queue.append((cell, mask.bit_length(), length + 1))
            for key in _KEYS[cell * 9 + index]:
                left = counts[key] - 1
                counts[key] = left
                if left < 2:
                    if not left:
                        return f"no place left for {digit} in {unit_name(key // 9)}"
                    last = where & _UNIT_BITS[key // 9]  # the one place left
                    self.queue.append(((last & -last).bit_length() - 1, digit, length + 1))
        return ""


class _Source(NamedTuple):
    """What was tried: one candidate (contradiction), every candidate of a cell, or every place of a digit."""

    kind: int  # 0 contradiction, 1 cell, 2 house (the tie-break order)
    order: int
    branches: tuple[tuple[int, int], ...]
    unit: int = -1


class _Conclusion(NamedTuple):
    """A conclusion and the source that proves it, its fields in the order steps are ranked."""

    length: int
    kind: int  # the source's
    order: int  # the source's
    removal: bool  # placements come before removals
    candidate: tuple[int, int]  # (cell, digit)
    source: _Source


_Trials = dict[tuple[int, int], _Trial]
_Bits = dict[tuple[int, int], tuple[int, int]]  # candidate -> what its unbroken trial placed and removed


def _rank(conclusion: _Conclusion) -> tuple[int, int, int, bool, tuple[int, int]]:
    """The order of steps: shortest, contradiction, cell then house, source order, placement first, candidate."""
    return conclusion[:5]


def _sources(base: _Base) -> list[_Source]:
    """Every open cell and every (house, digit) with two or more branches, cells first."""
    values = base.values
    sources = [
        _Source(1, cell, tuple([(cell, d) for d in MASK_DIGITS[mask]]))
        for cell, mask in enumerate(base.cands)
        if not values[cell] and POPCOUNT[mask] >= 2
    ]
    for unit, cells in enumerate(_UNIT_BITS):
        for digit in range(1, 10):
            places = base.positions[digit] & cells
            if places & (places - 1):
                branches = tuple([(c, digit) for c in _cells(places)])
                sources.append(_Source(2, unit * 9 + digit - 1, branches, unit))
    return sources


def _implied(placed: int) -> int:
    """The candidates that placing every candidate of a bitset removes: the cells' other digits and the peers'."""
    implied = 0
    for index in _cells(placed):
        cell = index % 81
        implied |= _CELL_CANDIDATES[cell] | _PEER_BITS[cell] << (index - cell)
    return implied


def _common(source: _Source, trials: _Trials, bits: _Bits) -> list[tuple[int, bool, int]]:
    """What every branch of a source derives: (candidate index, placement, longest length); none if one breaks.

    A removal that one of the common placements implies is left to that placement.
    """
    placed = removed = -1
    for branch in source.branches:
        both = bits.get(branch)
        if both is None:
            return []
        placed &= both[0]
        removed &= both[1]
        if not placed | removed:
            return []
    branch_trials = [trials[branch] for branch in source.branches]
    found = [(index, True, max(trial.placed[index] for trial in branch_trials)) for index in _cells(placed)]
    found += [
        (index, False, max(trial.removed[index] for trial in branch_trials))
        for index in _cells(removed & ~_implied(placed))
    ]
    return found


def _agreements(sources: Iterable[_Source], trials: _Trials, bits: _Bits) -> list[_Conclusion]:
    """The conclusions of the cells and houses: what all the branches of each derive."""
    return [
        _Conclusion(length, source.kind, source.order, not placement, (index % 81, index // 81 + 1), source)
        for source in sources
        for index, placement, length in _common(source, trials, bits)
    ]


def _contradiction(candidate: tuple[int, int], order: int, length: int) -> _Conclusion:
    """The conclusion of a trial that breaks: its candidate is false."""
    return _Conclusion(length, 0, order, True, candidate, _Source(0, order, (candidate,)))


def _chain_contradiction(trials: _Trials) -> tuple[int, int] | None:
    """The shortest contradiction of chain trials, first in board order: (length, trial order), or None.

    Chain trials place singles in order of length, so they are followed one length at a time: when one breaks at
    length L, every trial has been followed to L - 1 and those before it to L.
    """
    level = 0
    running = True
    while running:
        level += 1
        running = False
        for order, trial in enumerate(trials.values()):
            if not trial.finished:
                trial.run(level)
                if trial.broken:
                    return level, order
                running = running or not trial.finished
    return None


def _net_contradiction(trials: _Trials) -> tuple[int, int] | None:
    """The shortest contradiction of net trials, first in board order: (length, trial order), or None.

    Every trial's singles are followed to the end first (a trial that breaks there breaks the same way as a net);
    then the net rounds of each trial are run unless its first round could not reach a contradiction as short as
    the shortest so far.
    """
    best: tuple[int, int] | None = None
    for order, trial in enumerate(trials.values()):
        trial.place_singles()
        if trial.broken and (best is None or (trial.broken, order) < best):
            best = trial.broken, order
    for order, trial in enumerate(trials.values()):
        if not trial.broken:
            trial.run_within(_ENDLESS if best is None else best[0])
            if trial.broken and (best is None or (trial.broken, order) < best):
                best = trial.broken, order
    return best


def _complete(branches: Iterable[tuple[int, int]], base: _Base, trials: _Trials, bits: _Bits) -> None:
    """Follow the unfinished trials of some branches to the end, and update what they placed and removed."""
    for branch in branches:
        trial = trials[branch]
        if not trial.finished:
            trial.run()
            if trial.broken:
                del bits[branch]
            else:
                bits[branch] = trial.bits(base)


def _shorter_agreement(base: _Base, trials: _Trials, sources: list[_Source], length: int) -> _Conclusion | None:
    """The first cell or house conclusion shorter than ``length``, or None.

    What partly followed trials agree on gives the conclusions to check: a trial followed on only adds placements
    and removals and keeps their lengths, but it may break, or make a placement that implies a removal. So each of
    them, in the order of steps, is checked again once the trials of its branches are complete.
    """
    bits = {key: trial.bits(base) for key, trial in trials.items() if not trial.broken}
    shorter = [conclusion for conclusion in _agreements(sources, trials, bits) if conclusion.length < length]
    for conclusion in sorted(shorter, key=_rank):
        _complete(conclusion.source.branches, base, trials, bits)
        if conclusion in _agreements([conclusion.source], trials, bits):
            return conclusion
    return None


def _first(base: _Base, trials: _Trials, sources: list[_Source], net: bool) -> _Conclusion | None:
    """The first step, found with as little of the trials as it takes; None when no trial breaks (then every
    trial has to be complete).

    Steps come shortest first and contradictions first on ties, so the shortest contradiction (the first in board
    order among equals) is the first step unless a cell or house proves something shorter.
    """
    contradiction = _net_contradiction(trials) if net else _chain_contradiction(trials)
    if contradiction is None:
        return None
    length, order = contradiction
    return _shorter_agreement(base, trials, sources, length) or _contradiction(list(trials)[order], order, length)


def _all_conclusions(base: _Base, trials: _Trials, sources: list[_Source]) -> list[_Conclusion]:
    """Every conclusion once, with its shortest source, in the order of steps (trials followed to the end)."""
    broken: list[_Conclusion] = []
    bits: _Bits = {}
    for order, (key, trial) in enumerate(trials.items()):
        if not trial.finished:
            trial.run()
        if trial.broken:
            broken.append(_contradiction(key, order, trial.broken))
        else:
            bits[key] = trial.bits(base)
    seen: set[tuple[tuple[int, int], bool]] = set()
    ranked = []
    for conclusion in sorted(broken + _agreements(sources, trials, bits), key=_rank):
        if (conclusion.candidate, conclusion.removal) not in seen:
            seen.add((conclusion.candidate, conclusion.removal))
            ranked.append(conclusion)
    return ranked


def _or(items: list[str]) -> str:
    """Items joined for a sentence: ``2, 5 or 7``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _premise(source: _Source) -> str:
    """The 'whether ...' clause of a cell or house forcing step."""
    if source.kind == 1:
        cell = source.branches[0][0]
        return f"whether {cell_name(cell)} is {_or([str(d) for _, d in source.branches])}"
    digit = source.branches[0][1]
    return f"wherever {digit} goes in {unit_name(source.unit)} ({_or([cell_name(c) for c, _ in source.branches])})"


def _text(technique: str, conclusion: _Conclusion, trials: _Trials) -> str:
    """The sentence of a step."""
    cell, digit = conclusion.candidate
    name = cell_name(cell)
    label = "Forcing chain" if technique == "forcing_chain" else "Forcing net"
    rules = "singles" if technique == "forcing_chain" else "singles, locked candidates and naked pairs"
    if conclusion.kind == 0:
        why = trials[conclusion.candidate].why
        return (
            f"{label} (contradiction): if {name} were {digit}, {rules} would lead to {why}, so {name} is not {digit}."
        )
    if not conclusion.removal:
        return f"{label}: {_premise(conclusion.source)}, {name} becomes {digit}, so {name} is {digit}."
    return f"{label}: {_premise(conclusion.source)}, {digit} leaves {name}, so {name} is not {digit}."


def _step(board: Board, technique: str, conclusion: _Conclusion, trials: _Trials) -> Step:
    """The Step of one conclusion and the source that proves it; its length, which the rating reads, is the size of
    its net as ``nets.forcing_size`` counts it (the longest line when that cannot be had)."""
    source, placement = conclusion.source, not conclusion.removal
    level = 0 if technique == "forcing_chain" else 1
    proved = None if source.kind == 0 else (*conclusion.candidate, placement)
    size = nets.forcing_size(board, source.branches, proved, level)
    return Step(
        technique,
        placements=(conclusion.candidate,) if placement else (),
        eliminations=() if placement else (conclusion.candidate,),
        cause=source.branches,
        units=(source.unit,) if source.unit >= 0 else (),
        cells=tuple(dict.fromkeys(c for c, _ in source.branches)),
        text=_text(technique, conclusion, trials),
        length=conclusion.length if size is None else size,
    )


def _forcing(board: Board, technique: str, net: bool) -> Iterator[Step]:
    """Contradiction, cell and house forcing: each conclusion once, with its shortest source, shortest first."""
    base = _Base(board)
    trials = {(cell, digit): _Trial(base, cell, digit, net) for cell, digit in board.candidate_list()}
    sources = _sources(base)
    first = _first(base, trials, sources, net)
    if first is not None:
        yield _step(board, technique, first, trials)
    for conclusion in _all_conclusions(base, trials, sources)[first is not None :]:
        yield _step(board, technique, conclusion, trials)


def forcing_chain(board: Board) -> Iterator[Step]:
    """Forcing chains: trials followed through singles, from every candidate, cell and house."""
    return _forcing(board, "forcing_chain", net=False)


def forcing_net(board: Board) -> Iterator[Step]:
    """Forcing nets: trials followed through singles, locked candidates and naked pairs."""
    return _forcing(board, "forcing_net", net=True)
