"""Forcing: forcing chains and forcing nets (cell, unit and contradiction forcing).

Each trial assumes one candidate placed and follows what it forces. Forcing chains follow singles only: every
placement removes the digit from its peers and the cell's other digits, and naked and hidden singles place
again. Forcing nets also apply pointing, claiming and naked pairs inside the trial. From the trials:

- Contradiction: a candidate whose trial leaves a cell without candidates, a house without a place for a digit, or
  two singles that clash, is false.
- Cell forcing: when every candidate of a cell leads to the same placement or elimination, it is true.
- Unit forcing: when every place of a digit in a house leads to the same placement or elimination, it is true.

The length of a conclusion counts placements along its longest line of reasoning: the assumption is 1, a single
is one more than the latest elimination it needed, and a pointing, claiming or naked-pair elimination is one more
than the latest elimination that created it; over the branches of a cell or house the longest counts. Each
conclusion is reported once, with its shortest source (contradictions, then cells, then houses on ties), and
steps come shortest first. A source whose trials include a contradiction is reported through the contradiction.

A trial works on plain ints: candidate masks per cell, a bitset of cells per digit and the places left per
(house, digit); it places its singles first in, first out, stops at its first contradiction, and keeps the length
of every placement and removal. What the branches of a source share is a few ands of candidate bitsets (bit
``(digit - 1) * 81 + cell``). A net round finds pointing and claiming for the nine digits at once with shifts and
masks over the candidate bitset, and naked pairs from the cells that hold the same two digits.

The first step (all the logic solver takes) is worked out with as little of the trials as it needs: forcing
chains place singles in order of length, so every trial is followed one length at a time up to the first
contradiction, which outranks everything but shorter cell and house conclusions; forcing nets follow every
trial's singles, but the net rounds only of trials whose first round could still reach something shorter than the
shortest contradiction. Shorter cell and house conclusions are checked on complete trials; the other steps are
worked out when they are asked for.

Bounds: one trial per candidate, made once per call and shared by every source; a trial makes at most 81
placements, and each net round it runs removes at least one candidate, so a trial ends after at most 729 rounds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
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
_APART: tuple[tuple[int, ...], ...] = tuple(  # cell * 81 + peer: unit * 9 of the peer's houses without the cell
    tuple(unit * 9 for unit in UNITS_OF[peer] if unit not in UNITS_OF[cell]) for cell in range(81) for peer in range(81)
)
_CELL_CANDIDATES: tuple[int, ...] = tuple(sum(1 << (d * 81 + c) for d in range(9)) for c in range(81))
_ENDLESS = 1 << 30  # longer than any trial
_DONE = 99  # places left of a digit already placed in the house: far from 1 however many removals follow


def _cells(mask: int) -> Iterator[int]:
    """Indices of the set bits of a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


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


def _locked(candidates: int, removed: dict[int, int]) -> list[_Elimination]:
    """Pointing and claiming eliminations, by digit and then in the order of the box-line intersections.

    ``candidates`` is a candidate bitset: one 81-cell block per digit. Every shift below stays inside a row, a
    column or a box of its block, so the nine digits are worked out at once.
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
    if not pointing_rows | claiming_rows | pointing_columns | claiming_columns:
        return []
    fired = [(i // 81, 2 * _ROW_SEGMENT[i % 81]) for i in _cells(pointing_rows)]
    fired += [(i // 81, 2 * _ROW_SEGMENT[i % 81] + 1) for i in _cells(claiming_rows)]
    fired += [(i // 81, 2 * _COLUMN_SEGMENT[i % 81]) for i in _cells(pointing_columns)]
    fired += [(i // 81, 2 * _COLUMN_SEGMENT[i % 81] + 1) for i in _cells(claiming_columns)]
    found: list[_Elimination] = []
    for block, key in sorted(fired):
        offset, digit = block * 81, block + 1
        where = candidates >> offset
        box_rest, line_rest, box_cells, line_cells = _BOX_LINES[key >> 1]
        if key & 1:  # claiming: the line's places all lie in the box, so the rest of the box goes
            length = max(removed.get(offset + c, 0) for c in line_cells) + 1
            found.extend((c, digit, length) for c in _cells(where & box_rest))
        else:  # pointing: the box's places all lie on the line, so the rest of the line goes
            length = max(removed.get(offset + c, 0) for c in box_cells) + 1
            found.extend((c, digit, length) for c in _cells(where & line_rest))
    return found


def _pairs(
    cands: list[int], positions: list[int], removed: dict[int, int], unit: int, bivalue: int
) -> list[_Elimination]:
    """Naked-pair eliminations in one house (a third cell with the same pair pairs with the first)."""
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
    once = twice = more = candidates = 0
    for digit in range(1, 10):
        where = positions[digit]
        more |= twice & where
        twice |= once & where
        once |= where
        candidates |= where << (digit - 1) * 81
    found = _locked(candidates, removed)
    bivalue = twice & ~more
    units = 0  # houses where a naked pair eliminates something
    for first in range(1, 9):
        with_first = bivalue & positions[first]
        if with_first & (with_first - 1):
            for second in range(first + 1, 10):
                alike = with_first & positions[second]
                if alike & (alike - 1):
                    either = positions[first] | positions[second]
                    for cell in _cells(alike):
                        for unit in UNITS_OF[cell]:
                            pair = alike & _UNIT_BITS[unit]
                            rest = pair & (pair - 1)
                            if rest and either & _UNIT_BITS[unit] & ~(pair & -pair | rest & -rest):
                                units |= 1 << unit
    for unit in _cells(units):
        found += _pairs(cands, positions, removed, unit, bivalue)
    return found


class _Base:
    """The board as every trial starts from it: masks, values, cell bitsets per digit, places per house."""

    __slots__ = ("cands", "values", "positions", "counts", "candidates")

    def __init__(self, board: Board) -> None:
        self.cands = list(board.cands)
        self.values = list(board.values)
        positions = [0] * 10
        for cell, mask in enumerate(self.cands):
            for digit in MASK_DIGITS[mask]:
                positions[digit] |= 1 << cell
        self.positions = positions
        self.candidates = sum(positions[d] << (d - 1) * 81 for d in range(1, 10))
        counts = [(positions[d] & cells).bit_count() for cells in _UNIT_BITS for d in range(1, 10)]
        for unit, cells in enumerate(UNITS):
            done = sum(bit(self.values[c]) for c in cells if self.values[c])
            for digit in MASK_DIGITS[done & 0x1FF]:
                counts[unit * 9 + digit - 1] = _DONE
        self.counts = counts


class _Trial:
    """One assumption followed through the position, resumable by length: its state and what it derived."""

    __slots__ = ("cands", "values", "positions", "counts", "removed", "placed", "queue", "broken", "why", "finished")

    def __init__(self, base: _Base, cell: int, digit: int) -> None:
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
        p = self.positions
        left = (
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
        return placed, base.candidates & ~left & ~placed

    def run(self, net: bool, limit: int = _ENDLESS, rules: bool = True) -> None:
        """Place queued singles of length up to ``limit``; with nets and ``rules``, then the net rules, and again."""
        cands, values, positions, counts, removed, placed = (
            self.cands,
            self.values,
            self.positions,
            self.counts,
            self.removed,
            self.placed,
        )
        queue = self.queue
        pop, push = queue.popleft, queue.append
        keys, apart, unit_bits, peer_bits = _KEYS, _APART, _UNIT_BITS, _PEER_BITS
        while True:
            while queue:
                cell, digit, length = pop()
                if length > limit:
                    queue.appendleft((cell, digit, length))
                    return
                value = values[cell]
                if value:
                    if value != digit:
                        return self.fail(length, f"{cell_name(cell)} needing both {value} and {digit}")
                    continue
                b = 1 << (digit - 1)
                mask = cands[cell]
                if not mask & b:
                    return self.fail(length, f"{cell_name(cell)} needing {digit}, which it no longer has")
                values[cell] = digit
                cands[cell] = 0
                placed[(digit - 1) * 81 + cell] = length
                others = cell * 9 - 1
                here = 1 << cell  # set in the places of every digit the cell holds
                for other in MASK_DIGITS[mask ^ b]:  # the cell's other digits go
                    where = positions[other] = positions[other] ^ here
                    removed[(other - 1) * 81 + cell] = length
                    for key in keys[others + other]:
                        left = counts[key] - 1
                        counts[key] = left
                        if left < 2:
                            if left == 0:
                                return self.fail(length, f"no place left for {other} in {unit_name(key // 9)}")
                            if left == 1:
                                last = where & unit_bits[key // 9]
                                push(((last & -last).bit_length() - 1, other, length + 1))
                for key in keys[others + digit]:
                    counts[key] = _DONE
                where = positions[digit] ^ here
                peers = where & peer_bits[cell]
                offset, index, around = (digit - 1) * 81, digit - 1, cell * 81
                while peers:  # the digit leaves the peers, in cell order; the cell's houses are done with it
                    low = peers & -peers
                    peers ^= low
                    where ^= low
                    peer = low.bit_length() - 1
                    mask = cands[peer] ^ b
                    cands[peer] = mask
                    removed[offset + peer] = length
                    if not values[peer]:
                        if not mask:
                            return self.fail(length, f"no candidate left in {cell_name(peer)}")
                        if not mask & (mask - 1):
                            push((peer, mask.bit_length(), length + 1))
                    for unit in apart[around + peer]:
                        key = unit + index
                        left = counts[key] - 1
                        counts[key] = left
                        if left < 2:
                            if left == 0:
                                return self.fail(length, f"no place left for {digit} in {unit_name(key // 9)}")
                            if left == 1:
                                last = where & unit_bits[key // 9]
                                push(((last & -last).bit_length() - 1, digit, length + 1))
                positions[digit] = where
            if not net:
                break
            if not rules:
                return
            found = _net_rules(cands, positions, removed)
            if not found:
                break
            for cell, digit, length in found:
                if cands[cell] >> (digit - 1) & 1:
                    why = self.remove(cell, digit, length)
                    if why:
                        return self.fail(length, why)
        self.finished = True

    def remove(self, cell: int, digit: int, length: int) -> str:
        """Remove a present candidate and queue the singles it creates; the contradiction it meets, or ''."""
        mask = self.cands[cell] & ~(1 << (digit - 1))
        self.cands[cell] = mask
        where = self.positions[digit] = self.positions[digit] & ~(1 << cell)
        self.removed[(digit - 1) * 81 + cell] = length
        if not self.values[cell]:
            if not mask:
                return f"no candidate left in {cell_name(cell)}"
            if not mask & (mask - 1):
                self.queue.append((cell, mask.bit_length(), length + 1))
        for key in _KEYS[cell * 9 + digit - 1]:
            left = self.counts[key] - 1
            self.counts[key] = left
            if left == 0:
                return f"no place left for {digit} in {unit_name(key // 9)}"
            if left == 1:
                last = where & _UNIT_BITS[key // 9]
                self.queue.append(((last & -last).bit_length() - 1, digit, length + 1))
        return ""


class _Source(NamedTuple):
    """What was tried: one candidate (contradiction), every candidate of a cell, or every place of a digit."""

    kind: int  # 0 contradiction, 1 cell, 2 house (the tie-break order)
    order: int
    branches: tuple[tuple[int, int], ...]
    unit: int = -1


_Trials = dict[tuple[int, int], _Trial]
_Bits = dict[tuple[int, int], tuple[int, int]]  # candidate -> what its unbroken trial placed and removed
_Offer = tuple[_Source, tuple[int, int], bool, int]  # source, conclusion, placement, length


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
    """What every branch of a source derives: (candidate index, placement, longest length); none if one breaks."""
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


def _first(base: _Base, trials: _Trials, sources: list[_Source], net: bool) -> _Offer | None:
    """The first step, found with as little of the trials as it takes; None when they all have to be complete.

    Forcing chains place singles in order of length, so the trials are followed one length at a time: when one
    breaks at length L, every trial has been followed to L - 1 and those before it in board order to L, so that
    contradiction outranks every other one. Forcing nets follow each trial's singles to the end first (a trial
    that breaks there breaks the same way as a net); a trial whose first net round eliminates nothing as short
    as the shortest contradiction is left there, as nothing from that round on is shorter than its shortest
    elimination. Either way, cell and house conclusions shorter than the contradiction are checked on complete
    trials.
    """
    keys = list(trials)
    level, broken = 0, -1
    if not net:
        running = True
        while running and broken < 0:
            level += 1
            running = False
            for order, trial in enumerate(trials.values()):
                if not trial.finished:
                    trial.run(net, level)
                    if trial.broken:
                        broken = order
                        break
                    running = running or not trial.finished
    else:
        for order, trial in enumerate(trials.values()):
            trial.run(net, rules=False)
            if trial.broken and (broken < 0 or trial.broken < level):
                level, broken = trial.broken, order
        for order, trial in enumerate(trials.values()):
            if not trial.broken:
                found = _net_rules(trial.cands, trial.positions, trial.removed)
                if not found:
                    trial.finished = True
                elif broken < 0 or min(length for _, _, length in found) <= level:
                    trial.run(net)
                    if trial.broken and (broken < 0 or (trial.broken, order) < (level, broken)):
                        level, broken = trial.broken, order
    if broken < 0:
        return None
    bits = {key: trial.bits(base) for key, trial in trials.items() if not trial.broken}
    offers: list[tuple[int, int, int, bool, tuple[int, int], _Source]] = []
    for source in sources:
        for index, placement, length in _common(source, trials, bits):
            if length < level:
                conclusion = (index % 81, index // 81 + 1)
                offers.append((length, source.kind, source.order, not placement, conclusion, source))
    for length, _, _, removal, (cell, digit), source in sorted(offers, key=lambda offer: offer[:5]):
        for branch in source.branches:
            trial = trials[branch]
            if not trial.finished:
                trial.run(net)
                bits.pop(branch)
                if not trial.broken:
                    bits[branch] = trial.bits(base)
        if ((digit - 1) * 81 + cell, not removal, length) in _common(source, trials, bits):
            return source, (cell, digit), not removal, length
    return _Source(0, broken, (keys[broken],)), keys[broken], False, level


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


def _step(
    board: Board,
    technique: str,
    source: _Source,
    conclusion: tuple[int, int],
    placement: bool,
    length: int,
    trials: _Trials,
) -> Step:
    """The Step of one conclusion and the source that proves it; its length, which the rating reads, is the size of
    its net as ``nets.forcing_size`` counts it (the longest line when that cannot be had)."""
    cell, digit = conclusion
    label = "Forcing chain" if technique == "forcing_chain" else "Forcing net"
    rules = "singles" if technique == "forcing_chain" else "singles, locked candidates and naked pairs"
    if source.kind == 0:
        trial = trials[(cell, digit)]
        text = (
            f"{label} (contradiction): if {cell_name(cell)} were {digit}, {rules} would lead to "
            f"{trial.why}, so {cell_name(cell)} is not {digit}."
        )
    elif placement:
        text = f"{label}: {_premise(source)}, {cell_name(cell)} becomes {digit}, so {cell_name(cell)} is {digit}."
    else:
        text = f"{label}: {_premise(source)}, {digit} leaves {cell_name(cell)}, so {cell_name(cell)} is not {digit}."
    cells = tuple(dict.fromkeys(c for c, _ in source.branches))
    level = 0 if technique == "forcing_chain" else 1
    size = nets.forcing_size(board, source.branches, None if source.kind == 0 else (cell, digit, placement), level)
    return Step(
        technique,
        placements=((cell, digit),) if placement else (),
        eliminations=() if placement else ((cell, digit),),
        cause=source.branches,
        units=(source.unit,) if source.unit >= 0 else (),
        cells=cells,
        text=text,
        length=length if size is None else size,
    )


def _forcing(board: Board, technique: str, net: bool) -> Iterator[Step]:
    """Contradiction, cell and house forcing: each conclusion once, with its shortest source, shortest first."""
    base = _Base(board)
    trials = {(cell, digit): _Trial(base, cell, digit) for cell, digit in board.candidate_list()}
    sources = _sources(base)
    first = _first(base, trials, sources, net)
    if first is not None:
        yield _step(board, technique, *first, trials)
    best: dict[tuple[tuple[int, int], bool], tuple[int, int, int, _Source]] = {}

    def offer(conclusion: tuple[int, int], placement: bool, length: int, source: _Source) -> None:
        """Keep a conclusion's shortest source (ties: contradiction, cell, house, then board order)."""
        key = (conclusion, placement)
        rank = (length, source.kind, source.order, source)
        if key not in best or rank[:3] < best[key][:3]:
            best[key] = rank

    bits: _Bits = {}
    for order, (key, trial) in enumerate(trials.items()):
        if not trial.finished:
            trial.run(net)
        if trial.broken:
            offer(key, False, trial.broken, _Source(0, order, (key,)))
        else:
            bits[key] = trial.bits(base)
    for source in sources:
        for index, placement, length in _common(source, trials, bits):
            offer((index % 81, index // 81 + 1), placement, length, source)
    ranked = sorted(best.items(), key=lambda item: (item[1][:3], not item[0][1], item[0][0]))
    for (conclusion, placement), (length, _, _, source) in ranked[0 if first is None else 1 :]:
        yield _step(board, technique, source, conclusion, placement, length, trials)


def forcing_chain(board: Board) -> Iterator[Step]:
    """Forcing chains: trials followed through singles, from every candidate, cell and house."""
    return _forcing(board, "forcing_chain", net=False)


def forcing_net(board: Board) -> Iterator[Step]:
    """Forcing nets: trials followed through singles, locked candidates and naked pairs."""
    return _forcing(board, "forcing_net", net=True)
