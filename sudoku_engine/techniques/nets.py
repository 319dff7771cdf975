"""Nested forcing chains: contradiction nets whose trials may use other trials, rated by the size of the net.

This is how the hardest puzzles are cracked by hand when forcing chains and forcing nets find nothing (Sudoku
Explainer's nested forcing chains, rated 9.5 and up). A *trial* assumes one candidate and follows what it forces.
It works on facts, a candidate placed (on) or removed (off), and remembers for each fact it derives the facts it
was derived from (its parents):

- a placement removes the cell's other candidates and the digit from the cell's peers (parent: the placement);
- a removal that leaves a cell one candidate places it (naked single; parents: the removals of the cell's other
  candidates), and one that leaves a digit one place in a house places it there (hidden single; parents: the
  removals of the digit from the house's other places);
- a cell or a house left without a place, or a candidate both placed and removed, is a contradiction;
- level 1 also applies pointing and claiming, else naked pairs, when no single is left (parents: the removals that
  made the pattern), one round at a time;
- level 2, when level 1 has nothing more, makes a pass over the candidates left, in board order: a *nested* trial
  (level 0: singles) from the trial's position for each, and a candidate whose nested trial breaks is removed at
  once (the rules of level 1 follow before the pass goes on); such a removal's parents are the facts of the outer
  trial the nested contradiction used, and its weight is the nested net's size.

Facts are derived and applied first in, first out, in a fixed order (a placement's cell digits ascending, then its
peers; a removal's cell, then its row, column and box), so the net a trial finds is fully determined. The *size*
of a contradiction is the number of facts it rests on (found from it through their parents), each nested removal
counting 1 plus its weight: the work a person follows, nested trials included.

A candidate whose trial breaks is false. ``nested_forcing_chain`` finds the level-2 net of every candidate (the
solution's digits, which never break, are skipped) and removes, in one step, every candidate whose net rates as
the smallest does; the step's length is the smallest net's size, so its rating grows with the size as Sudoku
Explainer's chains do (``step_se``; ``fine_rating`` without rounding). This module is the reference; on the numba
backend the search runs in ``_nets_numba``, which follows the same rules in the same order (the tests compare
them).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .. import deadline
from ..board import Board, Step
from ..grid import PEERS, UNITS, UNITS_OF, cell_name, digits_of
from ..solver import backend, solve
from . import length_bonus

Fact = tuple[int, int, bool]  # (cell, digit, on)
# A trial's reference to a fact: (True, fact) for one it derived, (False, fact) for one known before it began.
Ref = tuple[bool, Fact]

KERNEL_CELLS = 9  # cells whose trials one kernel call runs (a time limit is checked between calls)
_MEETS = [(box, line) for box in range(18, 27) for line in range(18) if set(UNITS[box]) & set(UNITS[line])]
_BOX_REST = [tuple(c for c in UNITS[b] if c not in UNITS[ln]) for b, ln in _MEETS]
_LINE_REST = [tuple(c for c in UNITS[ln] if c not in UNITS[b]) for b, ln in _MEETS]
_MEET = [tuple(c for c in UNITS[b] if c in UNITS[ln]) for b, ln in _MEETS]


class _Broken(Exception):
    """A trial reached a contradiction: the references it rests on."""

    def __init__(self, refs: list[Ref]) -> None:
        super().__init__("contradiction")
        self.refs = refs


@dataclass
class Trial:
    """One assumption followed from a position (``root``: the position every trial of a search refers to)."""

    root: Board
    values: list[int]
    cands: list[int]
    before: frozenset[Fact] = frozenset()
    parents: dict[Fact, list[Ref]] = field(default_factory=dict)
    weight: dict[Fact, int] = field(default_factory=dict)
    queue: deque[Fact] = field(default_factory=deque)
    broken: list[Ref] | None = None

    def knows(self, fact: Fact) -> bool:
        """Whether the fact is derived by this trial or was known before it."""
        return fact in self.parents or fact in self.before

    def ref(self, fact: Fact) -> Ref:
        """This trial's reference to a fact it knows."""
        return (fact in self.parents, fact)

    def derive(self, fact: Fact, refs: list[Ref], weight: int = 0) -> None:
        """Add a fact and queue it; a contradiction when its opposite is known."""
        cell, digit, on = fact
        opposite = (cell, digit, not on)
        if self.knows(opposite):
            raise _Broken([*refs, self.ref(opposite)])
        self.parents[fact] = refs
        self.weight[fact] = weight
        self.queue.append(fact)

    def removals_of_cell(self, cell: int, keep: int) -> list[Ref]:
        """References to the removals of the cell's root candidates other than ``keep``."""
        return [self.ref((cell, d, False)) for d in digits_of(self.root.cands[cell]) if d != keep]

    def removals_in(self, cells: tuple[int, ...], digit: int, keep: int) -> list[Ref]:
        """References to the removals of a digit from the cells that had it in the root, but ``keep``."""
        return [self.ref((c, digit, False)) for c in cells if c != keep and self.root.cands[c] >> (digit - 1) & 1]

    def has(self, cell: int, digit: int) -> bool:
        """Whether an open cell still has a candidate."""
        return not self.values[cell] and bool(self.cands[cell] >> (digit - 1) & 1)

    def apply(self, fact: Fact) -> None:
        """Apply a queued fact and derive what the singles make of it."""
        cell, digit, on = fact
        if on:
            self.values[cell] = digit
            for other in digits_of(self.cands[cell]):
                if other != digit and not self.knows((cell, other, False)):
                    self.derive((cell, other, False), [(True, fact)])
            for peer in PEERS[cell]:
                if self.cands[peer] >> (digit - 1) & 1 and not self.knows((peer, digit, False)):
                    self.derive((peer, digit, False), [(True, fact)])
            return
        self.cands[cell] &= ~(1 << (digit - 1))
        if not self.values[cell]:
            left = digits_of(self.cands[cell])
            if not left:
                raise _Broken(self.removals_of_cell(cell, 0))
            if len(left) == 1 and not self.knows((cell, left[0], True)):
                self.derive((cell, left[0], True), self.removals_of_cell(cell, left[0]))
        for unit in UNITS_OF[cell]:
            cells = UNITS[unit]
            if any(self.values[c] == digit for c in cells):
                continue
            places = [c for c in cells if self.has(c, digit)]
            if not places:
                raise _Broken(self.removals_in(cells, digit, -1))
            if len(places) == 1 and not self.knows((places[0], digit, True)):
                self.derive((places[0], digit, True), self.removals_in(cells, digit, places[0]))

    def singles(self) -> None:
        """Apply the queue until it is empty."""
        while self.queue:
            self.apply(self.queue.popleft())

    def remove(self, cell: int, digit: int, refs: list[Ref], weight: int = 0) -> int:
        """Derive a removal unless the candidate is gone or on its way out; 1 when derived."""
        if not self.cands[cell] >> (digit - 1) & 1 or self.knows((cell, digit, False)):
            return 0
        self.derive((cell, digit, False), refs, weight)
        return 1

    def locked(self) -> int:
        """Pointing and claiming, by digit then box-line intersection; how many removals were derived."""
        derived = 0
        for digit in range(1, 10):
            for box_rest, line_rest, meet in zip(_BOX_REST, _LINE_REST, _MEET):
                if not any(self.has(c, digit) for c in meet):
                    continue
                in_box = any(self.has(c, digit) for c in box_rest)
                in_line = any(self.has(c, digit) for c in line_rest)
                if in_box == in_line:
                    continue
                source, target = (box_rest, line_rest) if in_line else (line_rest, box_rest)
                refs = self.removals_in(source, digit, -1)
                derived += sum(self.remove(c, digit, refs) for c in target if self.has(c, digit))
        return derived

    def naked_pairs(self) -> int:
        """Naked pairs, by house then pair of cells; how many removals were derived."""
        derived = 0
        for cells in UNITS:
            for i, a in enumerate(cells):
                mask = self.cands[a]
                if self.values[a] or len(digits_of(mask)) != 2:
                    continue
                for b in cells[i + 1 :]:
                    if self.values[b] or self.cands[b] != mask:
                        continue
                    pair = digits_of(mask)
                    refs = [
                        self.ref((c, d, False)) for c in (a, b) for d in digits_of(self.root.cands[c]) if d not in pair
                    ]
                    for c in cells:
                        if c not in (a, b) and not self.values[c]:
                            derived += sum(self.remove(c, d, refs) for d in pair)
        return derived

    def rules(self, level: int) -> int:
        """Singles until none is left, then (from level 1) a round of pointing and claiming, or else of naked
        pairs: how many removals the round derived."""
        self.singles()
        if level < 1:
            return 0
        return self.locked() or self.naked_pairs()

    def nested(self) -> int:
        """One pass of nested trials (singles only) over the candidates, in board order: one whose trial breaks is
        removed at once, and the rules of level 1 follow before the pass goes on; how many removals it derived."""
        derived = 0
        for cell in range(81):
            for digit in range(1, 10):
                if self.values[cell] or not self.cands[cell] >> (digit - 1) & 1:
                    continue
                inner = Trial(self.root, self.values[:], self.cands[:], before=frozenset(self.parents) | self.before)
                if not inner.follow(cell, digit, 0):
                    continue
                size, used = inner.closure()
                found = self.remove(cell, digit, [self.ref(f) for f in used], size)
                derived += found
                while found:
                    found = self.rules(1)
        return derived

    def follow(self, cell: int, digit: int, level: int) -> bool:
        """Assume the candidate and follow it at ``level``; True when it breaks (``broken`` then holds why)."""
        try:
            self.derive((cell, digit, True), [])
            while True:
                found = self.rules(min(level, 1))
                if found == 0 and level >= 2:
                    found = self.nested()
                if found == 0:
                    return False
        except _Broken as broken:
            self.broken = broken.refs
            return True

    def closure(self) -> tuple[int, list[Fact]]:
        """The size of the contradiction's net (each fact 1 plus its weight), and the facts known before the trial
        that it used, in the order found."""
        assert self.broken is not None
        return self.closure_of(self.broken)

    def closure_of(self, refs: list[Ref]) -> tuple[int, list[Fact]]:
        """The size of the net some facts rest on (each fact 1 plus its weight), and the facts known before the
        trial that it used, in the order found."""
        seen: set[Ref] = set()
        stack: list[Ref] = []
        for ref in refs:
            if ref not in seen:
                seen.add(ref)
                stack.append(ref)
        size, used = 0, []
        while stack:
            own, fact = stack.pop()
            if not own:
                used.append(fact)
                continue
            size += 1 + self.weight[fact]
            for parent in self.parents[fact]:
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        return size, used


def forcing_size(board: Board, branches: Sequence[tuple[int, int]], conclusion: Fact | None, level: int) -> int | None:
    """The size of the net a forcing step rests on, counted as nested nets are: the contradiction of its one branch
    (``conclusion`` None), or, over the branches of a cell or a house, the net each needs for the conclusion (or
    for its own contradiction), added up. None when a branch reaches neither (the rules' order can leave a
    conclusion of another search underived)."""
    size = 0
    for cell, digit in branches:
        trial = Trial(board, board.values[:], board.cands[:])
        if trial.follow(cell, digit, level):
            size += trial.closure()[0]
        elif conclusion is not None and conclusion in trial.parents:
            size += trial.closure_of([(True, conclusion)])[0]
        else:
            return None
    return size


def net_sizes(board: Board, level: int) -> dict[tuple[int, int], int]:
    """The size of the net of every candidate whose trial at ``level`` breaks (the kernel's on numba); empty when
    the position has no solution. The solution's own digits never break, so their trials are skipped."""
    solution = solve(board.values)
    if solution is None:
        return {}
    if backend() == "numba":
        return _kernel_net_sizes(board, level, solution.values)
    sizes = {}
    for cell, digit in board.candidate_list():
        if digit == solution.values[cell]:
            continue
        deadline.check()
        trial = Trial(board, board.values[:], board.cands[:])
        if trial.follow(cell, digit, level):
            sizes[(cell, digit)] = trial.closure()[0]
    return sizes


def _kernel_net_sizes(board: Board, level: int, solution: Sequence[int]) -> dict[tuple[int, int], int]:
    """``net_sizes`` on the kernel."""
    import numpy as np

    from . import _nets_numba  # needs numba: imported on first use

    sizes = np.zeros(729, dtype=np.int32)
    cm = np.asarray(board.cands, dtype=np.int32)
    val = np.asarray(board.values, dtype=np.int32)
    truth = np.asarray(solution, dtype=np.int32)
    space = _nets_numba.workspace()
    for first in range(0, 81, KERNEL_CELLS):  # a time limit is checked between parts
        deadline.check()
        _nets_numba.smallest(cm, val, truth, level, sizes, space, first, min(first + KERNEL_CELLS, 81))
    return {(int(i) // 9, int(i) % 9 + 1): int(sizes[i]) for i in np.flatnonzero(sizes)}


def nested_forcing_chain(board: Board) -> Iterator[Step]:
    """Removals proved by level-2 nets (trials using nested trials), lowest rating first: each step removes every
    candidate whose net rates as its smallest does (the same length bonus), and says the smallest size."""
    sizes = net_sizes(board, 2)
    bands: dict[float, list[tuple[int, int, int]]] = {}
    for (cell, digit), size in sorted(sizes.items()):
        bands.setdefault(length_bonus(size), []).append((size, cell, digit))
    for bonus in sorted(bands):
        found = bands[bonus]
        size = min(found)[0]
        removed = tuple((cell, digit) for _, cell, digit in found)
        names = ", ".join(f"{digit} from {cell_name(cell)}" for cell, digit in removed)
        yield Step(
            "nested_forcing_chain",
            eliminations=removed,
            cells=tuple(dict.fromkeys(c for c, _ in removed)),
            cause=removed,
            length=size,
            text=(
                f"Nested forcing chain: assuming any of these leads to a contradiction through singles, locked "
                f"candidates, naked pairs and trials nested inside (each following singles from one candidate), "
                f"in a net of {size} deductions or a few more, so they go: {names}."
            ),
        )
