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

Bounds: one trial per candidate, made once per call and shared by every source; a trial makes at most 81
placements, and each net round it runs removes at least one candidate, so a trial ends after at most 729 rounds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from ..board import Board, Step
from ..grid import PEERS, POPCOUNT, SINGLE_DIGIT, UNITS, UNITS_OF, bit, cell_name, digits_of, unit_name

_Intersection = tuple[int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _intersection(box: int, line: int) -> _Intersection:
    """A box-line intersection as masks, then cells: its cells, the rest of the box, the rest of the line."""
    shared = tuple(c for c in UNITS[box] if c in UNITS[line])
    box_rest = tuple(c for c in UNITS[box] if c not in shared)
    line_rest = tuple(c for c in UNITS[line] if c not in shared)
    masks = [sum(1 << c for c in part) for part in (shared, box_rest, line_rest)]
    return masks[0], masks[1], masks[2], shared, box_rest, line_rest


_BOX_LINES: tuple[_Intersection, ...] = tuple(
    _intersection(box, line) for box in range(18, 27) for line in range(18) if set(UNITS[box]) & set(UNITS[line])
)


class _Trial:
    """One assumption followed through the position: a copy of the candidates plus what was derived, and when."""

    __slots__ = ("cands", "values", "counts", "done", "placed", "removed", "queue", "broken", "why")

    def __init__(self, board: Board, counts: list[int], done: list[int]) -> None:
        self.cands = board.cands[:]
        self.values = board.values[:]
        self.counts = counts[:]  # places left per (unit, digit), index unit * 9 + digit - 1
        self.done = done[:]  # per unit: bits of the digits already placed there
        self.placed: dict[tuple[int, int], int] = {}  # (cell, digit) -> length
        self.removed: dict[tuple[int, int], int] = {}  # (cell, digit) -> length
        self.queue: deque[tuple[int, int, int]] = deque()
        self.broken = 0  # length at which the trial reached a contradiction, 0 when it did not
        self.why = ""

    def fail(self, length: int, why: str) -> None:
        """Record the first contradiction."""
        if not self.broken:
            self.broken, self.why = length, why

    def place(self, cell: int, digit: int, length: int) -> None:
        """Place a digit: the cell's other digits and the digit in the peers go."""
        if self.values[cell]:
            if self.values[cell] != digit:
                self.fail(length, f"{cell_name(cell)} needing both {self.values[cell]} and {digit}")
            return
        if not self.cands[cell] & bit(digit):
            self.fail(length, f"{cell_name(cell)} needing {digit}, which it no longer has")
            return
        self.values[cell] = digit
        self.placed[(cell, digit)] = length
        b = 1 << (digit - 1)
        for other in digits_of(self.cands[cell] & ~b):
            self.remove(cell, other, length)
        self.cands[cell] = 0
        for unit in UNITS_OF[cell]:
            self.done[unit] |= b
        cands = self.cands
        for peer in PEERS[cell]:
            if cands[peer] & b:
                self.remove(peer, digit, length)

    def remove(self, cell: int, digit: int, length: int) -> None:
        """Remove a candidate and queue the singles (or note the contradiction) it creates."""
        b = 1 << (digit - 1)
        cands = self.cands
        cands[cell] &= ~b
        self.removed[(cell, digit)] = length
        if not self.values[cell]:
            mask = cands[cell]
            if not mask:
                self.fail(length, f"no candidate left in {cell_name(cell)}")
            elif mask in SINGLE_DIGIT:
                self.queue.append((cell, SINGLE_DIGIT[mask], length + 1))
        for unit in UNITS_OF[cell]:
            if self.done[unit] & b:
                continue
            key = unit * 9 + digit - 1
            left = self.counts[key] - 1
            self.counts[key] = left
            if left == 0:
                self.fail(length, f"no place left for {digit} in {unit_name(unit)}")
            elif left == 1:
                last = next(c for c in UNITS[unit] if cands[c] & b)
                self.queue.append((last, digit, length + 1))

    def run(self, net: bool) -> None:
        """Place queued singles until none is left (with nets, then the net rules, and again)."""
        while not self.broken:
            while self.queue and not self.broken:
                self.place(*self.queue.popleft())
            if self.broken or not net:
                return
            found = self.locked() + self.pairs()
            if not found:
                return
            for cell, digit, length in found:
                if self.cands[cell] & bit(digit) and not self.broken:
                    self.remove(cell, digit, length)

    def latest(self, cells: tuple[int, ...], digits: tuple[int, ...]) -> int:
        """The largest length of the trial's eliminations among these cells and digits (0 for none)."""
        return max((self.removed.get((c, d), 0) for c in cells for d in digits), default=0)

    def locked(self) -> list[tuple[int, int, int]]:
        """Pointing and claiming eliminations available in the trial."""
        positions = [0] * 10
        for cell, mask in enumerate(self.cands):
            for digit in digits_of(mask):
                positions[digit] |= 1 << cell
        found: list[tuple[int, int, int]] = []
        for digit in range(1, 10):
            where = positions[digit]
            for shared, box_rest, line_rest, _, box_cells, line_cells in _BOX_LINES:
                if not where & shared:
                    continue
                for inside, outside, cells in ((box_rest, line_rest, box_cells), (line_rest, box_rest, line_cells)):
                    if not where & inside and where & outside:
                        length = self.latest(cells, (digit,)) + 1
                        targets = where & outside
                        found.extend((c, digit, length) for c in range(81) if targets >> c & 1)
        return found

    def pairs(self) -> list[tuple[int, int, int]]:
        """Naked-pair eliminations available in the trial."""
        found: list[tuple[int, int, int]] = []
        for cells in UNITS:
            seen: dict[int, int] = {}
            for cell in cells:
                mask = self.cands[cell]
                if POPCOUNT[mask] != 2:
                    continue
                if mask not in seen:
                    seen[mask] = cell
                    continue
                pair = (seen[mask], cell)
                length = self.latest(pair, digits_of(0x1FF & ~mask)) + 1
                found.extend((c, d, length) for c in cells if c not in pair for d in digits_of(self.cands[c] & mask))
        return found


@dataclass(frozen=True)
class _Source:
    """What was tried: one candidate (contradiction), every candidate of a cell, or every place of a digit."""

    kind: int  # 0 contradiction, 1 cell, 2 house (the tie-break order)
    order: int
    branches: tuple[tuple[int, int], ...]
    unit: int = -1


class _Trials:
    """Trials of candidates, made on first use and kept for the call."""

    def __init__(self, board: Board, net: bool) -> None:
        self.board, self.net = board, net
        self.counts = [len(board.places(u, d)) for u in range(27) for d in range(1, 10)]
        self.done = [sum(bit(board.values[c]) for c in cells if board.values[c]) for cells in UNITS]
        self.made: dict[tuple[int, int], _Trial] = {}

    def get(self, cell: int, digit: int) -> _Trial:
        """The trial of one candidate."""
        key = (cell, digit)
        if key not in self.made:
            trial = _Trial(self.board, self.counts, self.done)
            trial.queue.append((cell, digit, 1))
            trial.run(self.net)
            self.made[key] = trial
        return self.made[key]


def _sources(board: Board) -> list[_Source]:
    """Every open cell and every (house, digit) with two or more branches, cells first."""
    sources = [
        _Source(1, cell, tuple((cell, d) for d in digits_of(board.cands[cell])))
        for cell in range(81) if not board.values[cell] and POPCOUNT[board.cands[cell]] >= 2
    ]
    for unit in range(27):
        for digit in range(1, 10):
            places = board.places(unit, digit)
            if len(places) >= 2:
                sources.append(_Source(2, unit * 9 + digit - 1, tuple((c, digit) for c in places), unit))
    return sources


def _common(trials: list[_Trial]) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """Placements and eliminations that every trial derives, each with its longest length over the trials."""
    placed = dict(trials[0].placed)
    removed = dict(trials[0].removed)
    for trial in trials[1:]:
        placed = {k: max(v, trial.placed[k]) for k, v in placed.items() if k in trial.placed}
        removed = {k: max(v, trial.removed[k]) for k, v in removed.items() if k in trial.removed}
    for (cell, digit) in placed:
        for other in range(1, 10):
            removed.pop((cell, other), None)
        for peer in PEERS[cell]:
            removed.pop((peer, digit), None)
    return placed, removed


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


def _step(technique: str, source: _Source, conclusion: tuple[int, int], placement: bool, length: int,
          trials: _Trials) -> Step:
    """The Step of one conclusion and the source that proves it."""
    cell, digit = conclusion
    label = "Forcing chain" if technique == "forcing_chain" else "Forcing net"
    rules = "singles" if technique == "forcing_chain" else "singles, locked candidates and naked pairs"
    if source.kind == 0:
        trial = trials.get(cell, digit)
        text = (f"{label} (contradiction): if {cell_name(cell)} were {digit}, {rules} would lead to "
                f"{trial.why}, so {cell_name(cell)} is not {digit}.")
    elif placement:
        text = f"{label}: {_premise(source)}, {cell_name(cell)} becomes {digit}, so {cell_name(cell)} is {digit}."
    else:
        text = f"{label}: {_premise(source)}, {digit} leaves {cell_name(cell)}, so {cell_name(cell)} is not {digit}."
    cells = tuple(dict.fromkeys(c for c, _ in source.branches))
    return Step(
        technique, placements=((cell, digit),) if placement else (), eliminations=() if placement else ((cell, digit),),
        cause=source.branches, units=(source.unit,) if source.unit >= 0 else (), cells=cells, text=text,
        length=length,
    )


def _forcing(board: Board, technique: str, net: bool) -> Iterator[Step]:
    """Contradiction, cell and house forcing: each conclusion once, with its shortest source, shortest first."""
    trials = _Trials(board, net)
    sources = _sources(board)
    best: dict[tuple[tuple[int, int], bool], tuple[int, int, int, _Source]] = {}

    def offer(conclusion: tuple[int, int], placement: bool, length: int, source: _Source) -> None:
        """Keep a conclusion's shortest source (ties: contradiction, cell, house, then board order)."""
        key = (conclusion, placement)
        rank = (length, source.kind, source.order, source)
        if key not in best or rank[:3] < best[key][:3]:
            best[key] = rank

    for order, (cell, digit) in enumerate(board.candidate_list()):
        trial = trials.get(cell, digit)
        if trial.broken:
            offer((cell, digit), False, trial.broken, _Source(0, order, ((cell, digit),)))
    for source in sources:
        branch_trials = [trials.get(c, d) for c, d in source.branches]
        if any(t.broken for t in branch_trials):
            continue
        placed, removed = _common(branch_trials)
        for conclusion, length in placed.items():
            offer(conclusion, True, length, source)
        for conclusion, length in removed.items():
            offer(conclusion, False, length, source)
    ranked = sorted(best.items(), key=lambda item: (item[1][:3], not item[0][1], item[0][0]))
    for (conclusion, placement), (length, _, _, source) in ranked:
        yield _step(technique, source, conclusion, placement, length, trials)


def forcing_chain(board: Board) -> Iterator[Step]:
    """Forcing chains: trials followed through singles, from every candidate, cell and house."""
    return _forcing(board, "forcing_chain", net=False)


def forcing_net(board: Board) -> Iterator[Step]:
    """Forcing nets: trials followed through singles, locked candidates and naked pairs."""
    return _forcing(board, "forcing_net", net=True)
