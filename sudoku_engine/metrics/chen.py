"""Seed 003, Chen, "Heuristic Reasoning on Graph and Game Complexity of Sudoku": r-Reduction, Inference, entropy.

Section 2 (the graph): cells are vertices, each with a candidate set ``v`` (a 9-bit mask here); a given ``k``
starts as ``{k}`` and every other cell as all nine digits (Definition 7); a cell whose set has one digit is
filled with it (Definition 5). The 27 rows, columns and boxes are the graph's only complete subgraphs, its
*sections* (Definition 8).

Section 3, Theorem 10 (r-Reduction): when r cells of a section have a candidate union of exactly r digits,
those digits leave the section's other cells. ``r_reduction`` applies it for r = 1..``max_r`` (8 by default,
as in the paper's ``Reduction()``, whose loop runs while r < 9) over the 27 sections until nothing changes.
Placements follow as in the paper, with no rule of their own: a cell left with one candidate is filled
(Definition 5) and its digit leaves its peers by 1-Reduction (Theorem 9 = r = 1). Because a section's filled
cells count among its nine cells, hidden subsets are r-Reductions too: k digits confined to k open cells of a
section leave the other cells (filled and open) with a union of 9 - k digits, an r = 9 - k reduction that
strips every other digit from the k cells; a hidden single is r = 8.

Order: the paper restarts at r = 1 after every productive r (``r = 1; while r < 9 ...``). This module
sweeps the sections in index order (rows, columns, boxes), revisiting only sections whose cells changed, and
inside a section takes 1-Reduction first, then every r-subset of its open cells at once. The fixpoint does not
depend on the order (the rule is monotone: a union of exactly r digits can only shrink to fewer, which is a
contradiction, so every reduction stays valid as candidates go), hence ``solved`` and the final candidates are
the paper's; only ``passes`` (sweeps over the sections) is this module's own count. The subset search runs
over a section's open cells only: a subset that also holds filled cells removes nothing more, since their
digits have already left by 1-Reduction, so r here is the number of open cells in the subset. In familiar
terms the fixpoint is that of naked and hidden singles and subsets of every size, each house on its own (the
tests check it against the logic solver restricted to those techniques); it knows no box-line interaction
(pointing, claiming), so an easy puzzle that needs one locked-candidates step is left to Inference.

Section 3, Theorem 11 and Algorithm 12 (Inference): when r-Reduction stops short of a solution, pick a cell
with more than one candidate, *set* it to each of its candidates in ascending order, and run the solver
(r-Reduction, then Inference again) on each assumption until one reaches a solution. **One inference = one
such assumption** ("set c_ij = x"), wherever it sits in the search tree, including assumptions that end in a
contradiction and the last candidate of a cell. Puzzles that r-Reduction solves need 0 inferences. The paper
picks the cell at random; so does ``inference`` by default (``pick="random"``, seeded for reproducibility),
with ``pick="fewest"`` (first cell with the fewest candidates) as a deterministic alternative. The paper's
pseudocode keeps one global state and is silent on undoing a failed assumption; here every assumption works
on a copy, i.e. plain depth-first search, stopping at the first solution.

Section 4, Definitions 13-14 (game complexity): the Sudoku entropy is the mean over all 81 cells of
log |v|, taken after the initiation plus *one* 1-Reduction: every given's digit leaves its peers once, and
cells that become single on the way are not propagated further. Givens (and cells reduced to one candidate)
count with log 1 = 0 in the mean. The paper writes ``log`` without a base; base 2 is used: it puts the empty
grid at log2 9 = 3.17 per cell and reproduces the paper's 17-clue range (1.69-1.82) -- the natural log would
put 17-clue puzzles near 1.2. A cell left with no candidate (a puzzle without solution) counts as 0 as well.

Work cap: ``inference`` stops after ``cap`` assumptions and reports ``capped``. An assumption costs about
0.5 ms; the forum's hardest puzzles need a few hundred (up to about 3,000 with random picks), so the default
cap of 10,000 bounds a pathological search at a few seconds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .. import deadline
from ..grid import ALL_CANDIDATES, POPCOUNT, UNITS, UNITS_OF, Candidates, Cell, Grid, bit, digits_of
from ..solver import PuzzleLike, as_values

MAX_R = 8
DEFAULT_CAP = 10_000
Pick = Literal["random", "fewest"]

_LOW_INDEX: tuple[int, ...] = tuple((s & -s).bit_length() - 1 for s in range(512))
_UNIT_BITS: tuple[int, ...] = tuple((1 << a) | (1 << b) | (1 << c) for a, b, c in UNITS_OF)
_ALL_SECTIONS = (1 << 27) - 1
_LOG2: tuple[float, ...] = (0.0,) + tuple(math.log2(n) for n in range(1, 10))
_SECTION_CELLS: tuple[Cell, ...] = tuple(range(9))


@dataclass(frozen=True)
class Reduction:
    """Candidates after r-Reduction to its fixpoint, whether that solved the puzzle, and the work it took."""

    solved: bool
    contradiction: bool
    candidates: tuple[Candidates, ...]
    passes: int
    eliminations: int

    @property
    def values(self) -> tuple[int, ...]:
        """The filled cells (one candidate) as digits, 0 elsewhere."""
        return tuple(digits_of(m)[0] if POPCOUNT[m] == 1 else 0 for m in self.candidates)


@dataclass(frozen=True)
class Inference:
    """Outcome of r-Reduction plus Inference: solved or not, assumptions made, whether the cap stopped it."""

    solved: bool
    inferences: int
    capped: bool
    solution: tuple[int, ...] | None


@dataclass(frozen=True)
class ChenMeasures:
    """Seed 003's measures of one puzzle: solved by r-Reduction alone, inferences needed, game complexity.

    A puzzle without solution is not solved and counts 0 inferences when r-Reduction already refutes it.
    """

    solved: bool
    inferences: int
    entropy: float
    capped: bool


def _section_step(masks: list[Candidates], cells: Sequence[Cell], max_r: int) -> list[Cell] | None:
    """One round of r-Reduction in one section: the cells it changed, or None on a contradiction."""
    placed = 0
    open_cells: list[Cell] = []
    for cell in cells:
        mask = masks[cell]
        if not mask:
            return None
        if POPCOUNT[mask] == 1:
            if placed & mask:
                return None
            placed |= mask
        else:
            open_cells.append(cell)
    changed = [cell for cell in open_cells if masks[cell] & placed]
    if changed:  # 1-Reduction first: filled cells' digits leave the open cells
        for cell in changed:
            masks[cell] &= ~placed
        return changed
    return _hall_step(masks, open_cells, min(max_r, len(open_cells) - 1))


def _hall_step(masks: list[Candidates], open_cells: list[Cell], limit: int) -> list[Cell] | None:
    """r-Reduction for 2 <= r <= limit over the open cells of a section: changed cells, or None on a contradiction."""
    opened = [masks[cell] for cell in open_cells]
    size = len(opened)
    union = 0
    for mask in opened:
        union |= mask
    if POPCOUNT[union] < size:
        return None
    if limit < 2:
        return []
    unions = [0] * (1 << size)
    remove = [0] * size
    for subset in range(1, 1 << size):
        joined = unions[subset & (subset - 1)] | opened[_LOW_INDEX[subset]]
        unions[subset] = joined
        count = POPCOUNT[subset]
        if POPCOUNT[joined] <= count <= limit:
            if POPCOUNT[joined] < count:
                return None
            for index in range(size):
                if not subset >> index & 1:
                    remove[index] |= joined
    changed: list[Cell] = []
    for index, cell in enumerate(open_cells):
        if opened[index] & remove[index]:
            masks[cell] = opened[index] & ~remove[index]
            changed.append(cell)
    return changed


def _reduce_section(masks: list[Candidates], cells: Sequence[Cell], max_r: int) -> list[Cell] | None:
    """r-Reduction in one section until it changes nothing there: the cells changed, or None on a contradiction."""
    changed: list[Cell] = []
    while True:
        step = _section_step(masks, cells, max_r)
        if step is None:
            return None
        if not step:
            return changed
        changed.extend(step)


def _propagate(masks: list[Candidates], dirty: int, max_r: int) -> tuple[bool, int]:
    """r-Reduction over the sections flagged in ``dirty`` to the fixpoint: (consistent, sweeps)."""
    passes = 0
    while dirty:
        passes += 1
        for unit in range(27):
            flag = 1 << unit
            if not dirty & flag:
                continue
            changed = _reduce_section(masks, UNITS[unit], max_r)
            if changed is None:
                return False, passes
            for cell in changed:
                dirty |= _UNIT_BITS[cell]
            dirty &= ~flag
    return True, passes


def _check_max_r(max_r: int) -> None:
    """Reject an r bound outside 1..8."""
    if not 1 <= max_r <= MAX_R:
        raise ValueError(f"max_r must be in 1..{MAX_R}, not {max_r}")


def initial_candidates(puzzle: PuzzleLike) -> list[Candidates]:
    """Definition 7: a given k starts as {k}, every other cell as all nine digits (nothing removed yet)."""
    return [bit(v) if v else ALL_CANDIDATES for v in as_values(puzzle)]


def reduce_section(section: Sequence[Candidates], max_r: int = MAX_R) -> tuple[Candidates, ...] | None:
    """r-Reduction (r <= max_r) inside one section of nine candidate masks, to its fixpoint; None on a contradiction."""
    _check_max_r(max_r)
    if len(section) != 9:
        raise ValueError("a section has exactly nine cells")
    masks = list(section)
    return None if _reduce_section(masks, _SECTION_CELLS, max_r) is None else tuple(masks)


def reduce_candidates(candidates: Sequence[Candidates], max_r: int = MAX_R) -> Reduction:
    """r-Reduction (r <= max_r) over the 27 sections of a candidate state (a filled cell: one bit), to the fixpoint."""
    _check_max_r(max_r)
    if len(candidates) != 81 or any(not 0 <= m <= ALL_CANDIDATES for m in candidates):
        raise ValueError("a candidate state is 81 masks, each 0..511")
    masks = list(candidates)
    consistent, passes = _propagate(masks, _ALL_SECTIONS, max_r)
    solved = consistent and all(POPCOUNT[m] == 1 for m in masks)
    removed = sum(POPCOUNT[m] for m in candidates) - sum(POPCOUNT[m] for m in masks)
    return Reduction(solved, not consistent, tuple(masks), passes, removed)


def r_reduction(puzzle: PuzzleLike, max_r: int = MAX_R) -> Reduction:
    """Theorem 10 applied to a puzzle from its initiation (Definition 7) to the fixpoint."""
    return reduce_candidates(initial_candidates(puzzle), max_r)


class _Search:
    """Algorithm 12's Solver/Inference recursion on copies of the candidate state, counting assumptions."""

    def __init__(self, cap: int, pick: Pick, seed: int, max_r: int) -> None:
        self.cap = cap
        self.pick = pick
        self.rng = random.Random(seed)
        self.max_r = max_r
        self.inferences = 0
        self.capped = False

    def choose(self, masks: list[Candidates]) -> Cell:
        """The cell to make assumptions on: random among open cells, or the first with the fewest candidates."""
        open_cells = [cell for cell in range(81) if POPCOUNT[masks[cell]] > 1]
        if self.pick == "random":
            return self.rng.choice(open_cells)
        return min(open_cells, key=lambda cell: POPCOUNT[masks[cell]])

    def solve(self, masks: list[Candidates], dirty: int) -> list[Candidates] | None:
        """r-Reduction, then Inference on one cell while unsolved: the solved state, or None."""
        consistent, _ = _propagate(masks, dirty, self.max_r)
        if not consistent:
            return None
        if all(POPCOUNT[m] == 1 for m in masks):
            return masks
        cell = self.choose(masks)
        for digit in digits_of(masks[cell]):
            if self.inferences >= self.cap:
                self.capped = True
                return None
            deadline.check()
            self.inferences += 1
            child = masks.copy()
            child[cell] = bit(digit)
            found = self.solve(child, _UNIT_BITS[cell])
            if found is not None or self.capped:
                return found
        return None


def _infer(start: list[Candidates], dirty: int, cap: int, pick: Pick, seed: int, max_r: int) -> Inference:
    """Run the search from a candidate state whose flagged sections still need reduction."""
    search = _Search(cap, pick, seed, max_r)
    found = search.solve(start, dirty)
    solution = None if found is None else tuple(digits_of(m)[0] for m in found)
    return Inference(found is not None, search.inferences, search.capped, solution)


def _check_search(cap: int, pick: str) -> None:
    """Reject a negative cap or an unknown cell pick."""
    if cap < 0:
        raise ValueError("cap must be at least 0")
    if pick not in ("random", "fewest"):
        raise ValueError(f"pick must be 'random' or 'fewest', not {pick!r}")


def inference(
    puzzle: PuzzleLike, cap: int = DEFAULT_CAP, *, pick: Pick = "random", seed: int = 0, max_r: int = MAX_R
) -> Inference:
    """Algorithm 12: r-Reduction, then Inference (one per assumption) until solved, refuted, or ``cap`` is hit."""
    _check_max_r(max_r)
    _check_search(cap, pick)
    return _infer(initial_candidates(puzzle), _ALL_SECTIONS, cap, pick, seed, max_r)


def entropy(puzzle: PuzzleLike) -> float:
    """Game complexity (Definition 14): mean over the 81 cells of log2 |v| after the givens leave their peers once."""
    masks = Grid(as_values(puzzle)).candidates()
    return sum(_LOG2[POPCOUNT[m]] for m in masks) / 81


def measure(puzzle: PuzzleLike, cap: int = DEFAULT_CAP, *, pick: Pick = "random", seed: int = 0) -> ChenMeasures:
    """All of seed 003's measures: r-Reduction alone, then Inference from where it stopped, and the entropy."""
    _check_search(cap, pick)
    reduction = r_reduction(puzzle)
    if reduction.solved or reduction.contradiction:
        return ChenMeasures(reduction.solved, 0, entropy(puzzle), False)
    searched = _infer(list(reduction.candidates), 0, cap, pick, seed, MAX_R)
    return ChenMeasures(False, searched.inferences, entropy(puzzle), searched.capped)
