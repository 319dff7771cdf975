"""Seed 004: Simonis, "Sudoku as a Constraint Problem" (2005), sections 3 to 7.

Propagation schemes (section 6, Table 3), each run to a fixpoint from the givens, without search; a puzzle is
*search-free* for a scheme when every cell ends with one candidate (Definition 5):

- FC: forward checking on the 27 alldifferent constraints (a fixed value leaves the 20 peers); only an empty
  domain fails (ECLiPSe's ``ic`` alldifferent: pairwise disequalities).
- FCI: FC with channeling (section 4.1): per unit, dual variables value -> position, linked to the cells by
  x_i = j <=> y_j = i (arc consistent) and themselves all different with FC. A dual with one position left
  places the value (a hidden single); a dual with none fails.
- BC: the ``ic_global`` alldifferent the paper uses (``_matching.range_filter``): exhausted sets found among
  the variables below each maximum value, scanned by decreasing minimum, their values removed from the rest.
- BCI: BC with channeling: the dual variables (positions 1..9 in unit order) get the same filter.
- HAC: hyper-arc consistency of each alldifferent by bipartite matching (Regin: maximum matching, then the
  strongly connected components of the residual graph), in ``_matching.perfect_filter``.
- Redundant constraints (section 5), added to HAC: S, the 54 row/block and column/block 'same' constraints
  (the six cells of a line outside a block use the same values as the six cells of the block outside the line:
  each side keeps only values the other side still holds); C, the colored matrix, one rows x columns perfect
  matching per value (9 constraints); 3, one rows x blocks (columns x blocks) perfect matching per value and
  band (stack), an edge standing for the value anywhere in the three shared cells (54 constraints).
  HACS, HACC, HAC3 and HACSC3 (all three) are the combinations; HACSC, the column Table 4 prints, is an
  extra scheme.
- Shaving (section 5.5): FCV, BCV, HACV try every remaining value of every open cell in reading order with
  the base scheme (FC, BC, HAC) propagated to its fixpoint, and remove a value whose trial fails (the removal
  propagated at once). The paper's program makes one such sweep ("one shaving step"); so does this by default,
  and ``sweeps=None`` repeats sweeps until one removes nothing (singleton consistency of the base scheme).

The lattice (section 6, Fig. 5) is used both ways to skip work; every link used is an inclusion of fixpoints,
so the answers are those a separate run of every scheme gives: FC <= FCI <= BCI <= HAC, FC <= BC <= BCI,
HAC <= HACS, HACC, HAC3 <= HACSC3 (HACSC between), FC <= FCV, BC <= BCV, HAC <= HACV and FCV <= BCV <= HACV
(a sweep with a stronger base starts inside the weaker one's state and fails every trial the weaker fails).
A scheme solved by a weaker one is solved; a propagation scheme starts from the meet of the fixpoints below it
(a superset of its own fixpoint). A one-sweep shave starts from its own base's fixpoint (a sweep from a
smaller state could remove more); a shave to the fixpoint starts from the shave below it met with its base.
Shaving never tries the value of a known solution (that trial cannot fail: the solution is inside every
fixpoint), and across sweeps skips a trial whose earlier fixpoint is still inside the current domains.

Also: ``is_well_posed`` (Definition 3), ``is_locally_minimal`` (Definition 4; removing one given suffices,
since removing more only adds solutions) and ``reduce`` (section 7, Table 7: committed-choice hint removal; the
``reduce`` command). Section 8's generator, dug while a scheme stays search-free, is ``generate``'s ``scheme``.

Where this departs from the paper, and why:
- BC follows the ECLiPSe algorithm, not textbook bounds consistency, which solves about 1% of 17-clue puzzles
  against the paper's 29% (BCZ and BCIZ, extra schemes, are the textbook variant). The solver splits the
  constraint after each exhausted set and keeps the pieces; being stateless, this searches each group of open
  cells that share values instead, which such splits produce (every prefix of a piece is one of a group).
- The channeling link is arc consistent per pair (x_i = j <=> y_j = i): a hyper-arc consistent ``inverse``
  would make FCI and BCI equal to HAC, against the paper's figures.
- S is the support-by-union variant the paper describes; 3 and C are exact perfect-matching filters.
- Shaving takes a work cap, counted in trials (one value tried in one cell); a capped shave reports ``capped``
  and is not counted search-free unless a weaker scheme already proves it.

Reproduction (``benchmarks/papers/simonis.py``): on magictour top100 (the paper's [44]) every scheme is within
one puzzle of Tables 4 and 5, and Table 7's row (82 locally minimal; reduced to 17 / 21.14 / 26 givens) is
matched exactly. On the 17-clue list (24,579 puzzles, every other one of the complete list; the paper had the
7,611 known in 2005) all schemes are within 1 point but FCI (44.3 against 48.7) and BC (25.5 against 29.0):
FCI is plain naked and hidden singles, so that gap is the puzzle set's; BC also moves by about 2 points with
the order of cells of equal minimum in the scan, which the ECLiPSe source fixes only through its sort and
merge (taken here as: larger maximum later, then larger domain later).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Protocol

from .. import deadline
from ..grid import ALL_CANDIDATES, UNITS, Grid
from ..solver import PuzzleLike, as_values, count_solutions, solve
from ._matching import BITS, bounds_filter, dual_bounds_filter, dual_range_filter, perfect_filter, range_filter
from ._singles import clear_peers, unit_spread

SCHEMES: tuple[str, ...] = (
    "FC",
    "FCI",
    "BC",
    "BCI",
    "HAC",
    "HACS",
    "HACC",
    "HAC3",
    "HACSC3",
    "FCV",
    "BCV",
    "HACV",
)
EXTRA_SCHEMES: tuple[str, ...] = ("HACSC", "BCZ", "BCIZ")
SHAVING: dict[str, str] = {"FCV": "FC", "BCV": "BC", "HACV": "HAC"}
DEFAULT_CAP = 20_000
"""Trials (one value tried in one cell, propagated to a fixpoint) allowed per shaving scheme."""
SWEEPS = 1
"""Shaving sweeps, as the paper's program makes; None sweeps to the fixpoint."""

State = list[int]  # 81 candidate masks, then a bitset of the fixed cells already removed from their peers
Propagator = Callable[[State], int]  # -1 failed, 1 changed something, 0 nothing to do

_DONE = 81
_UNIT_GET = tuple(itemgetter(*unit) for unit in UNITS)
# Lines 0..8 rows, 9..17 columns; SEGMENTS[line][k]: the 3 cells the line shares with its k-th block.
SEGMENTS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((r * 9 + 3 * k, r * 9 + 3 * k + 1, r * 9 + 3 * k + 2) for k in range(3)) for r in range(9)
) + tuple(tuple((27 * k + c, 27 * k + 9 + c, 27 * k + 18 + c) for k in range(3)) for c in range(9))
# The six bands and stacks: three parallel lines crossing the same three blocks.
GROUPS: tuple[tuple[int, int, int], ...] = tuple((3 * g, 3 * g + 1, 3 * g + 2) for g in range(6))


# ---- propagators on a state -------------------------------------------------------------------------------
def _naked(s: State) -> int:
    """Forward checking: the value of each newly fixed cell leaves its peers, to a fixpoint."""
    done = s[_DONE]
    changed = 0
    fixed: list[int] = []
    again = True
    while again:
        again = False
        for c in range(81):
            if done >> c & 1:
                continue
            m = s[c]
            if m & (m - 1):
                continue
            if not m:
                return -1
            done |= 1 << c
            step = clear_peers(s, c, fixed)
            if step < 0:
                return -1
            changed |= step
            if fixed:
                again = again or min(fixed) < c  # a cell fixed behind the scan needs another pass
                fixed.clear()
    s[_DONE] = done
    return changed


def _naked_from(s: State, cell: int) -> bool:
    """Forward checking from one newly fixed cell, along the cells it fixes in turn; False on failure."""
    done = s[_DONE]
    stack = [cell]
    while stack:
        c = stack.pop()
        if done >> c & 1:
            continue
        done |= 1 << c
        if clear_peers(s, c, stack) < 0:
            return False
    s[_DONE] = done
    return True


def _hidden(s: State) -> int:
    """Channeling with FC: a value left in one cell of a unit is placed there; a value left nowhere fails."""
    changed = 0
    for unit in UNITS:
        held, singles = unit_spread(s, unit)
        if held != ALL_CANDIDATES:
            return -1
        while singles:
            d = singles & -singles
            singles ^= d
            for c in unit:
                if s[c] & d:
                    if s[c] != d:
                        s[c] = d
                        changed = 1
                    break
            else:
                return -1
    return changed


def _unit_filter(s: State, rule: Callable[[tuple[int, ...]], tuple[int, ...] | None]) -> int:
    """Apply a per-unit filter to all 27 units, writing back what it removed."""
    changed = 0
    for unit, get in zip(UNITS, _UNIT_GET):
        before: tuple[int, ...] = get(s)
        after = rule(before)
        if after is None:
            return -1
        if after != before:
            changed = 1
            for c, m in zip(unit, after):
                s[c] = m
    return changed


def _bc(s: State) -> int:
    """The paper's bounds alldifferent on every unit."""
    return _unit_filter(s, range_filter)


def _bc_dual(s: State) -> int:
    """The paper's bounds alldifferent on every unit's dual value -> position variables."""
    return _unit_filter(s, dual_range_filter)


def _bcz(s: State) -> int:
    """Textbook bounds consistency (with forward checking) of every unit."""
    return _unit_filter(s, bounds_filter)


def _bcz_dual(s: State) -> int:
    """Textbook bounds consistency of every unit's dual value -> position variables."""
    return _unit_filter(s, dual_bounds_filter)


def _hac(s: State) -> int:
    """Hyper-arc consistency of every unit by perfect-matching filtering."""
    return _unit_filter(s, perfect_filter)


def _segment_unions(s: State) -> list[list[int]]:
    """For each line and block k, the union of the candidates of the 3 cells they share."""
    return [[s[a] | s[b] | s[c] for a, b, c in segs] for segs in SEGMENTS]


def _prune_cells(s: State, cells: Sequence[int], keep: int) -> int:
    """Keep only ``keep`` in the cells: -1 if one empties, 1 if any changed, else 0."""
    changed = 0
    for c in cells:
        m = s[c]
        if m & ~keep:
            m &= keep
            if not m:
                return -1
            s[c] = m
            changed = 1
    return changed


def _same(s: State) -> int:
    """S: the cells of a line outside a block and of the block outside the line hold the same values."""
    unions = _segment_unions(s)
    changed = 0
    for group in GROUPS:
        for line in group:
            others = [o for o in group if o != line]
            for k in range(3):
                rest_line = unions[line][(k + 1) % 3] | unions[line][(k + 2) % 3]
                rest_block = unions[others[0]][k] | unions[others[1]][k]
                if rest_line == rest_block:
                    continue
                for kk in ((k + 1) % 3, (k + 2) % 3):
                    step = _prune_cells(s, SEGMENTS[line][kk], rest_block)
                    if step < 0:
                        return -1
                    changed |= step
                for other in others:
                    step = _prune_cells(s, SEGMENTS[other][k], rest_line)
                    if step < 0:
                        return -1
                    changed |= step
    return changed


def _rows_blocks(s: State) -> int:
    """3: per value and band (stack), the rows (columns) x blocks perfect-matching filter."""
    unions = _segment_unions(s)
    changed = 0
    for group in GROUPS:
        for d in range(9):
            bit = 1 << d
            adj = tuple(sum(1 << k for k in range(3) if unions[line][k] & bit) for line in group)
            kept = perfect_filter(adj)
            if kept is None:
                return -1
            if kept == adj:
                continue
            for line, before, after in zip(group, adj, kept):
                for k in BITS[before & ~after]:
                    step = _prune_cells(s, SEGMENTS[line][k], ~bit)
                    if step < 0:
                        return -1
                    changed |= step
    return changed


def _colored(s: State) -> int:
    """C: per value, the rows x columns perfect-matching filter (the colored matrix constraint)."""
    places = [[0] * 9 for _ in range(9)]
    for r in range(9):
        base = 9 * r
        for col in range(9):
            for d in BITS[s[base + col]]:
                places[d][r] |= 1 << col
    changed = 0
    for d in range(9):
        adj = tuple(places[d])
        kept = perfect_filter(adj)
        if kept is None:
            return -1
        if kept == adj:
            continue
        clear = ~(1 << d)
        for r in range(9):
            for col in BITS[adj[r] & ~kept[r]]:
                c = 9 * r + col
                m = s[c] & clear
                if not m:
                    return -1
                s[c] = m
                changed = 1
    return changed


PROPAGATORS: dict[str, tuple[Propagator, ...]] = {
    "FC": (_naked,),
    "FCI": (_naked, _hidden),
    "BC": (_naked, _bc),
    "BCI": (_naked, _hidden, _bc, _bc_dual),
    "BCZ": (_naked, _bcz),
    "BCIZ": (_naked, _hidden, _bcz, _bcz_dual),
    "HAC": (_naked, _hidden, _hac),
    "HACS": (_naked, _hidden, _same, _hac),
    "HACC": (_naked, _hidden, _hac, _colored),
    "HAC3": (_naked, _hidden, _rows_blocks, _hac),
    "HACSC": (_naked, _hidden, _same, _hac, _colored),
    "HACSC3": (_naked, _hidden, _same, _rows_blocks, _hac, _colored),
}
"""Each propagation scheme as its propagators, cheapest first (FCI's channeling rides along with BCI and
HAC where it is implied, only to reach the same fixpoint sooner)."""


def _fixpoint(s: State, props: Sequence[Propagator]) -> bool:
    """Run the propagators until none changes anything (restarting from the cheapest); False on failure."""
    i = 0
    n = len(props)
    while i < n:
        step = props[i](s)
        if step < 0:
            return False
        i = 0 if step and i else i + 1
    return True


def _solved(s: Sequence[int]) -> bool:
    """True when every cell has exactly one candidate."""
    return all(m and not m & (m - 1) for m in s[:81])


def _meet(*states: State) -> State | None:
    """The cell-wise intersection of states (each a superset of the wanted fixpoint); None if a cell empties."""
    first = states[0]
    out = list(first)
    for other in states[1:]:
        for c in range(81):
            out[c] &= other[c]
        out[_DONE] |= other[_DONE]
    return out if all(out[:81]) else None


def _initial(values: Sequence[int]) -> State:
    """The state of a puzzle before propagation: givens fixed, every other cell open to all digits."""
    return [1 << (v - 1) if v else ALL_CANDIDATES for v in values] + [0]


# ---- shaving ------------------------------------------------------------------------------------------------
@dataclass
class _Shave:
    """A shaving run's outcome: the state (None when the position failed), trials spent, whether capped."""

    state: State | None
    trials: int
    capped: bool


def _still_inside(support: State, s: State) -> bool:
    """True when every candidate of an earlier trial's fixpoint is still a candidate now."""
    return all(not support[c] & ~s[c] for c in range(81))


def _trial(s: State, cell: int, value: int, props: Sequence[Propagator]) -> State | None:
    """The fixpoint of ``s`` with ``cell`` set to ``value`` (a copy), or None when it fails."""
    trial = list(s)
    trial[cell] = value
    if tuple(props) == (_naked,):  # forward checking alone: only the chain of cells fixed from this one changes
        return trial if _naked_from(trial, cell) else None
    return trial if _fixpoint(trial, props) else None


def _shave(s: State, props: Sequence[Propagator], cap: int, skip: Sequence[int], sweeps: int | None) -> _Shave:
    """Shave ``s`` in place: remove every value whose trial fails under ``props``, for ``sweeps`` sweeps."""
    if not _fixpoint(s, props):
        return _Shave(None, 0, False)
    supports: dict[tuple[int, int], State] = {}
    trials = 0
    sweep = 0
    while not _solved(s) and (sweeps is None or sweep < sweeps):
        sweep += 1
        removed = False
        for c in range(81):
            m = s[c]
            if not m & (m - 1):
                continue
            for d in BITS[m & ~skip[c]]:
                value = 1 << d
                if not s[c] & value:
                    continue
                support = supports.get((c, d))
                if support is not None and _still_inside(support, s):
                    continue
                if trials >= cap:
                    return _Shave(s, trials, True)
                if trials % 64 == 0:
                    deadline.check()
                trials += 1
                trial = _trial(s, c, value, props)
                if trial is not None:
                    if sweeps != 1:
                        supports[c, d] = trial
                    continue
                s[c] &= ~value
                removed = True
                if not _fixpoint(s, props):
                    return _Shave(None, trials, False)
        if not removed:
            break
    return _Shave(s, trials, False)


# ---- public results -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """A scheme's fixpoint: 81 candidate masks, whether propagation failed, and the shaving work spent."""

    scheme: str
    masks: tuple[int, ...]
    failed: bool = False
    capped: bool = False
    trials: int = 0

    @property
    def solved(self) -> bool:
        """True when propagation alone left one candidate in every cell (search-free)."""
        return not self.failed and not self.capped and _solved(self.masks)

    @property
    def grid(self) -> Grid:
        """The cells the fixpoint decides, as a grid (0 where candidates remain)."""
        return Grid(tuple(m.bit_length() if m and not m & (m - 1) else 0 for m in self.masks))


@dataclass(frozen=True)
class SchemesReport:
    """Search-free answers for every scheme, the schemes whose shaving hit the cap, and the trials spent."""

    solved: dict[str, bool]
    capped: frozenset[str] = frozenset()
    trials: dict[str, int] = field(default_factory=dict)


def _state_of(masks: Sequence[int]) -> State:
    """A fresh state from 81 candidate masks."""
    if len(masks) != 81 or any(not 0 <= m <= ALL_CANDIDATES for m in masks):
        raise ValueError("expected 81 candidate masks, each 0..511")
    return [*masks, 0]


def _outcome(scheme: str, s: State | None, fallback: Sequence[int], capped: bool = False, trials: int = 0) -> Outcome:
    """An Outcome from a final state (None = failed, reported with the masks it started from)."""
    if s is None:
        return Outcome(scheme, tuple(fallback), failed=True, trials=trials)
    return Outcome(scheme, tuple(s[:81]), capped=capped, trials=trials)


def propagate(
    masks: Sequence[int],
    scheme: str,
    *,
    cap: int = DEFAULT_CAP,
    solution: Sequence[int] | None = None,
    sweeps: int | None = SWEEPS,
) -> Outcome:
    """Run one scheme (any of SCHEMES or EXTRA_SCHEMES) to its fixpoint from 81 candidate masks.

    ``solution`` (81 digits), when known, lets shaving skip the trials that cannot fail; ``sweeps`` is the
    number of shaving sweeps (None: until a sweep removes nothing).
    """
    s = _state_of(masks)
    if scheme in SHAVING:
        skip = [1 << (v - 1) if v else 0 for v in solution] if solution is not None else [0] * 81
        run = _shave(s, PROPAGATORS[SHAVING[scheme]], cap, skip, sweeps)
        return _outcome(scheme, run.state, masks, run.capped, run.trials)
    if scheme not in PROPAGATORS:
        raise ValueError(f"unknown scheme {scheme!r}: use one of {', '.join(SCHEMES + EXTRA_SCHEMES)}")
    return _outcome(scheme, s if _fixpoint(s, PROPAGATORS[scheme]) else None, masks)


def candidates_of(puzzle: PuzzleLike) -> list[int]:
    """The 81 starting masks of a puzzle: a given's own bit, every digit elsewhere (before any propagation)."""
    return _initial(as_values(puzzle))[:81]


def run_scheme(puzzle: PuzzleLike, scheme: str, *, cap: int = DEFAULT_CAP, sweeps: int | None = SWEEPS) -> Outcome:
    """One scheme's fixpoint on a puzzle (shaving uses the puzzle's solution to skip trials that cannot fail)."""
    values = as_values(puzzle)
    solution = solve(values) if scheme in SHAVING else None
    return propagate(
        _initial(values)[:81], scheme, cap=cap, solution=solution.values if solution else None, sweeps=sweeps
    )


SUMMARIES: dict[str, str] = {
    "FC": "Forward checking on the 27 alldifferent constraints.",
    "FCI": "Forward checking with channeling (naked and hidden singles).",
    "BC": "Bounds-consistent alldifferent constraints (with forward checking).",
    "BCI": "Bounds consistency with channeling: the dual value -> position variables bounds consistent too.",
    "HAC": "Hyper-arc-consistent alldifferent constraints (perfect-matching filtering).",
    "HACS": "HAC with the 54 row/block 'same' constraints.",
    "HACC": "HAC with the colored matrix (per-value rows x columns matching).",
    "HAC3": "HAC with the per-value rows/blocks matching of each band and stack.",
    "HACSC": "HAC with the 'same' constraints and the colored matrix (the HACSC column of Table 4).",
    "HACSC3": "HAC with all three redundant constraint families.",
    "FCV": "Forward checking plus shaving.",
    "BCV": "Bounds consistency plus shaving.",
    "HACV": "Hyper-arc consistency plus shaving.",
}
"""One line on each scheme that has a function of its own (``fc`` .. ``hacv``)."""


class SchemeFunction(Protocol):
    """One scheme's fixpoint on a puzzle (``cap`` and ``sweeps`` matter to the shaving schemes only)."""

    def __call__(self, puzzle: PuzzleLike, *, cap: int = ..., sweeps: int | None = ...) -> Outcome: ...


def _scheme_function(scheme: str) -> SchemeFunction:
    """``run_scheme`` with the scheme fixed, named after it in lower case and documented by its summary."""

    def run(puzzle: PuzzleLike, *, cap: int = DEFAULT_CAP, sweeps: int | None = SWEEPS) -> Outcome:
        return run_scheme(puzzle, scheme, cap=cap, sweeps=sweeps)

    run.__name__ = run.__qualname__ = scheme.lower()
    run.__doc__ = SUMMARIES[scheme]
    return run


fc, fci, bc, bci, hac = map(_scheme_function, ("FC", "FCI", "BC", "BCI", "HAC"))
hacs, hacc, hac3, hacsc, hacsc3 = map(_scheme_function, ("HACS", "HACC", "HAC3", "HACSC", "HACSC3"))
fcv, bcv, hacv = map(_scheme_function, ("FCV", "BCV", "HACV"))


# ---- every scheme at once, along the lattice ---------------------------------------------------------------
class _Lattice:
    """Fixpoints of one puzzle's schemes, each started from the meet of the fixpoints below it."""

    def __init__(self, values: Sequence[int], cap: int, sweeps: int | None) -> None:
        self.cap = cap
        self.sweeps = sweeps
        self.states: dict[str, State | None] = {}
        self.solved: dict[str, bool] = {}
        self.capped: set[str] = set()
        self.trials: dict[str, int] = {}
        solution = solve(values)
        self.skip = [1 << (v - 1) for v in solution.values] if solution is not None else [0] * 81
        self.root = _initial(values)

    def run(self, scheme: str, *below: str) -> bool:
        """Propagate ``scheme`` from the meet of the given weaker schemes' fixpoints (or the givens)."""
        starts = [self.states[b] for b in below] if below else [self.root]
        start = None if any(st is None for st in starts) else _meet(*[st for st in starts if st is not None])
        s = None if start is None or not _fixpoint(start, PROPAGATORS[scheme]) else start
        return self._record(scheme, s)

    def shave(self, scheme: str, *below: str) -> bool:
        """Shave with the scheme's base propagators from the meet of the given fixpoints."""
        starts = [self.states[b] for b in below]
        start = None if any(st is None for st in starts) else _meet(*[st for st in starts if st is not None])
        if start is None:
            return self._record(scheme, None)
        run = _shave(start, PROPAGATORS[SHAVING[scheme]], self.cap, self.skip, self.sweeps)
        self.trials[scheme] = run.trials
        if run.capped:
            self.capped.add(scheme)
            self.states[scheme] = run.state
            self.solved[scheme] = False
            return False
        return self._record(scheme, run.state)

    def _record(self, scheme: str, s: State | None) -> bool:
        """Store a scheme's fixpoint and whether it is solved."""
        self.states[scheme] = s
        self.solved[scheme] = s is not None and _solved(s)
        return self.solved[scheme]

    def imply(self, schemes: Sequence[str]) -> None:
        """Mark schemes solved because a weaker scheme is (their fixpoints are inside its solved one)."""
        for scheme in schemes:
            self.solved[scheme] = True


_ABOVE_HAC = ("HACS", "HACC", "HAC3", "HACSC", "HACSC3")


def _run_lattice(lat: _Lattice, extra: bool) -> None:
    """Compute every scheme of ``lat``, skipping the ones the lattice settles."""
    everything = (*SCHEMES, "HACSC")
    if lat.run("FC"):
        lat.imply(everything)
        return
    lat.run("FCI", "FC")
    lat.run("BC", "FC")
    if lat.solved["FCI"] or lat.solved["BC"]:
        lat.imply(("BCI", "HAC", *_ABOVE_HAC, "HACV"))
    else:
        lat.run("BCI", "FCI", "BC")
        if lat.solved["BCI"]:
            lat.imply(("HAC", *_ABOVE_HAC, "HACV"))
        else:
            lat.run("HAC", "BCI")
    if lat.solved["HAC"]:
        lat.imply((*_ABOVE_HAC, "HACV"))
    else:
        _above_hac(lat, extra)
    _shaving(lat)


def _shaving(lat: _Lattice) -> None:
    """The shaving schemes: each from its base's fixpoint (one sweep) or the shave below it (to the fixpoint)."""
    chain = lat.sweeps is None
    lat.shave("FCV", "FC")
    if lat.solved["FCV"] or lat.solved["BC"]:
        lat.imply(("BCV", "HACV"))
    else:
        lat.shave("BCV", *(("FCV", "BC") if chain else ("BC",)))
    if lat.solved["BCV"] or lat.solved["HAC"]:
        lat.imply(("HACV",))
    elif "HACV" not in lat.solved:
        lat.shave("HACV", *(("BCV", "HAC") if chain else ("HAC",)))


def _above_hac(lat: _Lattice, extra: bool) -> None:
    """The redundant-constraint schemes, from HAC's fixpoint."""
    lat.run("HACS", "HAC")
    lat.run("HACC", "HAC")
    lat.run("HAC3", "HAC")
    if lat.solved["HACS"] or lat.solved["HACC"]:
        lat.imply(("HACSC", "HACSC3"))
        return
    if extra:
        lat.run("HACSC", "HACS", "HACC")
        if lat.solved["HACSC"] or lat.solved["HAC3"]:
            lat.imply(("HACSC3",))
            return
        lat.run("HACSC3", "HACSC", "HAC3")
    elif lat.solved["HAC3"]:
        lat.imply(("HACSC3",))
    else:
        lat.run("HACSC3", "HACS", "HACC", "HAC3")


def schemes_report(
    puzzle: PuzzleLike, *, cap: int = DEFAULT_CAP, extra: bool = False, sweeps: int | None = SWEEPS
) -> SchemesReport:
    """Search-free answers for every scheme (and HACSC with ``extra``), with capped schemes and trials spent."""
    lat = _Lattice(as_values(puzzle), cap, sweeps)
    _run_lattice(lat, extra)
    names = (*SCHEMES, "HACSC") if extra else SCHEMES
    return SchemesReport(
        solved={name: lat.solved.get(name, False) for name in names},
        capped=frozenset(name for name in lat.capped if not lat.solved.get(name, False)),
        trials=dict(lat.trials),
    )


def schemes(puzzle: PuzzleLike, *, cap: int = DEFAULT_CAP) -> dict[str, bool]:
    """For each scheme of SCHEMES, True when it solves the puzzle by propagation alone (search-free).

    A shaving scheme that hits ``cap`` trials counts as not search-free; ``schemes_report`` says which did.
    """
    return schemes_report(puzzle, cap=cap).solved


# ---- well-posedness, minimality, reduction -----------------------------------------------------------------
def is_well_posed(puzzle: PuzzleLike) -> bool:
    """Definition 3: the puzzle has exactly one solution."""
    return count_solutions(puzzle, limit=2) == 1


def is_locally_minimal(puzzle: PuzzleLike) -> bool:
    """Definition 4: well posed, and removing any one given leaves more than one solution."""
    values = as_values(puzzle)
    if not is_well_posed(values):
        return False
    for cell, v in enumerate(values):
        if v:
            trial = list(values)
            trial[cell] = 0
            if count_solutions(trial, limit=2) == 1:
                return False
    return True


def reduce(puzzle: PuzzleLike, seed: int | None = None) -> Grid:
    """Remove redundant givens by committed choice until the puzzle is locally minimal (same solution).

    Givens are tried once each, in reading order or shuffled by ``seed``; a removal that keeps the solution
    unique is committed. One pass suffices: a given that was needed stays needed as more are removed.
    Raises ValueError when the puzzle is not well posed.
    """
    values = list(as_values(puzzle))
    if not is_well_posed(values):
        raise ValueError("only a well-posed puzzle (exactly one solution) can be reduced")
    order = [cell for cell, v in enumerate(values) if v]
    if seed is not None:
        random.Random(seed).shuffle(order)
    for cell in order:
        digit = values[cell]
        values[cell] = 0
        if count_solutions(values, limit=2) != 1:
            values[cell] = digit
    return Grid(tuple(values))
