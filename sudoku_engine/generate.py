"""Puzzle generation: seeded random full grids, dig-hole puzzles, and puzzles generated to a target difficulty.

Dig-hole (seed 004, Simonis, section 8, approach 3): start from a full grid and remove givens one at a time,
in a seeded random order, keeping a removal only while the puzzle stays well posed (one solution). With the
free pattern, one pass yields a locally minimal puzzle: a given whose removal admits a second solution still
does so after later removals, since fewer givens never remove solutions. With the symmetric pattern, givens
are removed in pairs mirrored through the centre, so the result is minimal with respect to pairs. The dig can
stop early at a requested number of givens.

Search-free dig (section 8: approach 3 can also "find search-free puzzles ... that can not be further reduced
without loosing the search free property"): a removal is kept only while a chosen propagation scheme of
``metrics.simonis`` still solves the puzzle without search. A puzzle a scheme solves has one solution
(propagation removes no digit of any solution, and leaves one digit in every cell), so no search checks
uniqueness. A scheme's fixpoint only grows as givens go (a shave's trials too, so its work cap is reached no
later), so a removal the scheme fails on still fails after later removals: one pass yields a puzzle from which
no further given (mirrored pair, when symmetric) can be removed keeping it search-free for that scheme.

Targeted generation (``generate``) builds on seed 000's hill climbing (section V): moves add, remove or change
one clue, the cost is the distance of the measure from the target, infinite unless the puzzle has one solution,
and a move is kept only when it lowers the cost. Departures, to converge fast: the start is not a random set of
clues (which almost never has one solution) but the point of a dig-hole path (every point unique, the measure
rising as givens go) nearest the target, found by bisection; clue changes keep the solution grid (a removal and
an addition); a climb that stops improving restarts from a new grid; and for D the measure is staged: the trace
is first computed with only the techniques up to the target's level, so a puzzle that needs a harder one is
known to be too hard without the expensive techniques (when every technique after that prefix is rated above
the ceiling, the stuck prefix alone gives the lower bound), the trace places the singles between its other steps
all at once and takes the steps up to BUG+1 (WXYZ-Wing aside) on compiled finders
(``logic.techniques_past_singles``), a puzzle the singles alone solve is rated from the closures of the kinds of
single instead of a trace, and the seed measures are taken only when the trace (for D, of the puzzle as given
rather than its canonical form) puts the puzzle within reach of the tolerance. Uniqueness is cheap: the dig is
one kernel call, and a move only needs a search for a second solution that differs in a removed cell (none for
an addition, nor for a removal alone from a dig's end). A puzzle
known only to be too hard has a lower bound, not a value, so every exactly measured puzzle ranks before it: the
climb never trades an exact value for a bound, and the bisection starts from the exact end of its bracket.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress
from operator import not_

from . import _search_py, deadline, difficulty, logic
from .board import Board, Step
from .difficulty import DEFAULT_TOLERANCE as DEFAULT_TOLERANCE  # for D and se_like; callers import it from here
from .grid import UNITS, Grid
from .isomorph import canonical
from .rating import Rating, rate, rate_trace
from .solver import dig, single_kind, solve, stays_unique
from .solver import warm_up as solver_warm_up
from .techniques import CATALOGUE, Technique, compiled, step_se


@dataclass(frozen=True)
class Generated:
    """A generated puzzle, its solution, and the seed that reproduces it."""

    puzzle: Grid
    solution: Grid
    seed: int


def warm_up() -> str:
    """Load or compile the kernels generation and rating run (the solver's, the compiled finders, the call
    count's), before workers fork or a first request waits on them; returns the solver backend's name."""
    from .metrics import fatemi

    name = solver_warm_up()
    compiled.warm_up()
    fatemi.call_count([0] * 81, runs=1)
    return name


# Project Euler's first easy puzzle: any position serves to run the contradiction nets' kernel once.
_WARM_PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def warm_every_kernel() -> str:
    """Load or compile every kernel: ``warm_up``'s, the contradiction nets (at both nesting levels), targeted
    generation's (singles, placements, uniqueness) and the generator's digging, so that a deployment's first
    requests or a test run's workers find them in numba's on-disk cache; returns the solver backend's name.
    ``tests/test_warm.py`` checks, in a fresh cache folder, that no kernel of the package is left uncompiled."""
    from .techniques import nets

    name = warm_up()
    board = Board.from_grid(Grid.parse(_WARM_PUZZLE))
    for level in (1, 2):
        nets.net_sizes(board, level)
    generate(2.0, DEFAULT_TOLERANCE, seed=1, budget_s=0.5)
    made = generate_puzzle(seed=1)
    given = next(cell for cell, value in enumerate(made.puzzle.values) if value)
    stays_unique(made.puzzle.values, made.solution.values, [given])  # the hill climb's move check
    rate(_WARM_PUZZLE)
    return name


def random_full_grid(rng: random.Random) -> Grid:
    """A valid full grid drawn by search over the empty grid with digits tried in random order."""
    _count, values = _search_py.count([0] * 81, 1, rng)
    if values is None:
        raise RuntimeError("the empty grid has no completion")  # impossible: the empty grid is solvable
    return Grid(tuple(values))


def _quick_full_grid(rng: random.Random) -> Grid:
    """A full grid from random digits in the three diagonal boxes (they never conflict), completed by the exact
    solver: many times faster than ``random_full_grid``'s search, for searches that draw many grids."""
    values = [0] * 81
    for box in (18, 22, 26):
        for cell, digit in zip(UNITS[box], rng.sample(range(1, 10), 9)):
            values[cell] = digit
    solved = solve(values)
    if solved is None:
        raise RuntimeError("three diagonal boxes always have a completion")  # impossible: they share no house
    return solved


def _removal_order(rng: random.Random, symmetric: bool) -> list[tuple[int, ...]]:
    """Groups of cells to try removing together, in random order (mirrored pairs when symmetric)."""
    groups = list(_groups(symmetric))
    rng.shuffle(groups)
    return groups


def _search_free_dig(solution: Grid, groups: Sequence[Sequence[int]], min_givens: int, scheme: str) -> list[bool]:
    """``solver.dig`` with another test: a removal is kept while ``scheme`` solves the puzzle by propagation alone
    (then it has one solution) and at least ``min_givens`` givens remain; which removals were kept."""
    from .metrics import simonis

    def search_free(puzzle: list[int]) -> bool:
        """Whether ``scheme`` solves the puzzle; the solution is known, so shaving skips the trials of its digits
        without a search for it."""
        return simonis.propagate(simonis.candidates_of(puzzle), scheme, solution=solution.values).solved

    return _search_py.dig_while(solution.values, groups, min_givens, search_free)


def _checked_scheme(scheme: str | None) -> None:
    """ValueError unless ``scheme`` is None or a propagation scheme of ``metrics.simonis``."""
    from .metrics import simonis

    known = simonis.SCHEMES + simonis.EXTRA_SCHEMES
    if scheme is not None and scheme not in known:
        raise ValueError(f"unknown scheme {scheme!r}: use one of {', '.join(known)}")


def _dig(
    solution: Grid, rng: random.Random, symmetric: bool, min_givens: int, scheme: str | None = None
) -> Iterator[tuple[int, ...]]:
    """The puzzle after each removal a dig keeps (unique throughout, search-free for ``scheme`` when given),
    down to ``min_givens`` givens or minimal."""
    values = list(solution.values)
    order = _removal_order(rng, symmetric)
    kept = dig(values, order, min_givens) if scheme is None else _search_free_dig(solution, order, min_givens, scheme)
    for group, keep in zip(order, kept):
        if keep:
            for c in group:
                values[c] = 0
            yield tuple(values)


def dig_holes(
    solution: Grid, rng: random.Random, symmetric: bool = True, min_givens: int = 0, scheme: str | None = None
) -> Grid:
    """Remove givens from a full grid while the puzzle stays unique, stopping at ``min_givens`` givens; with a
    ``scheme`` (a name of ``metrics.simonis``), while that scheme still solves it without search."""
    _checked_scheme(scheme)
    path = list(_dig(solution, rng, symmetric, min_givens, scheme))
    return Grid(path[-1] if path else solution.values)


def dig_path(solution: Grid, rng: random.Random, symmetric: bool = True) -> list[tuple[int, ...]]:
    """Every puzzle a dig to local minimality passes through, most givens first (all unique)."""
    return list(_dig(solution, rng, symmetric, 0))


def generate_puzzle(
    seed: int | None = None, givens: int | None = None, symmetric: bool = True, scheme: str | None = None
) -> Generated:
    """A unique puzzle from a seeded random full grid, dug to ``givens`` givens or to local minimality; with a
    ``scheme``, search-free for it and minimal for that property (seed 004, section 8)."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    if givens is not None and not 17 <= givens <= 81:
        raise ValueError(f"givens must be between 17 and 81, not {givens}")
    _checked_scheme(scheme)
    rng = random.Random(seed)
    solution = random_full_grid(rng)
    puzzle = dig_holes(solution, rng, symmetric, givens or 0, scheme)
    return Generated(puzzle=puzzle, solution=solution, seed=seed)


# Targeted generation -------------------------------------------------------------------------------------------

MAX_GIVENS = 40  # targeted puzzles look like Sudoku: easy ones come from visible singles, not a full grid
FINE_GAP = 0.12  # the most se_fine and se_like differ (a chain's length bonus, unrounded or rounded to tenths)
RELATIVE_TOLERANCE = 0.05  # the seed measures' default: 5% of the target
DEFAULT_BUDGET_S = 2.0
STALE_MOVES = 40  # moves in a row without a better cost before the climb restarts from a new grid
CHANGE_SHARE = 0.4  # share of moves that change a clue's place (a removal and an addition)


@dataclass(frozen=True)
class Measured:
    """A measure of a puzzle: exact, or (``exact`` False) a lower bound when the puzzle is known to be harder."""

    value: float
    exact: bool
    rating: Rating | None = None


@dataclass(frozen=True)
class Targeted:
    """What ``generate`` returns: the puzzle, its measure, whether it is within tolerance, and the search cost."""

    puzzle: Grid
    solution: Grid
    metric: str
    target: float
    tolerance: float
    value: float
    hit: bool
    rating: Rating | None
    seed: int
    evaluations: int
    restarts: int
    seconds: float

    def as_dict(self) -> dict[str, object]:
        """The CLI's JSON record (ARCHITECTURE.md, Contracts): puzzle, solution, D, target, ms, the search figures."""
        record: dict[str, object] = {
            "puzzle": str(self.puzzle),
            "solution": str(self.solution),
            "givens": self.puzzle.givens,
            "metric": self.metric,
            "target": self.target,
            "tolerance": self.tolerance,
            "value": round(self.value, 3),
            "hit": self.hit,
        }
        if self.rating is not None:
            record.update(
                D=round(self.rating.d, 3),
                label=self.rating.label,
                predicted_minutes=round(self.rating.predicted_minutes, 1),
                se_like=self.rating.se_like,
                hardest_technique=self.rating.hardest_technique,
            )
        record.update(
            seed=self.seed, evaluations=self.evaluations, restarts=self.restarts, ms=round(self.seconds * 1000, 1)
        )
        return record


# SE ratings of the kinds of single, by ``solver.single_kind``: full house, hidden single in a box, hidden single
# in any house, naked single.
SINGLE_KIND_SE = (1.0, 1.2, 1.5, 2.3)


@cache
def _prefix(ceiling: float) -> tuple[Technique, ...]:
    """The catalogue in order up to the first technique rated above ``ceiling``."""
    for index, tech in enumerate(CATALOGUE):
        if tech.se_rating > ceiling:
            return CATALOGUE[:index]
    return CATALOGUE


@cache
def _bound_past_prefix(ceiling: float) -> float | None:
    """The lowest rating of the techniques after ``_prefix(ceiling)`` when all of them are rated above the ceiling
    (then a solve stuck on the prefix needs a step rated at least that), else None."""
    rest = [t.se_rating for t in CATALOGUE[len(_prefix(ceiling)) :]]
    return min(rest) if rest and min(rest) > ceiling else None


def _se(tech: Technique, step: Step | None) -> float:
    """The SE-style rating of a step of the trace (a step taken on the kernel is of a technique without chains)."""
    return tech.se_rating if step is None else step_se(step)


def staged_se_like(values: Sequence[int], ceiling: float, *, as_given: bool = False) -> Measured:
    """se_like of a unique puzzle's canonical form when it is at most ``ceiling``, else a lower bound above it.

    ``as_given`` traces the puzzle as it is instead, which saves the canonical form (about a quarter of the
    time of a puzzle needing more than singles): an isomorph's trace can take other steps, and in rare cases
    differs in its hardest one (9 of 5,210 puzzles measured by a search at slider 55), so only a filter whose
    near values are rated again may use it.

    The trace takes the lowest-rated applicable step and the catalogue is in order of rating, so a solve with the
    techniques rated up to the ceiling takes the full trace's steps while they are rated up to it; where it takes
    a step above it (a chain's length bonus) or stops, the full trace needs a step above the ceiling, and the
    lowest rating of the techniques after the prefix bounds it.
    Otherwise the whole catalogue goes on until the puzzle is solved or a step rated above the ceiling is taken.
    A puzzle the singles alone solve is rated without a trace (``solver.single_kind``).
    """
    ceiling = round(ceiling, 2)
    kind = single_kind(values)  # the kinds of single are the same in every isomorph
    if kind >= 0:
        return Measured(SINGLE_KIND_SE[kind], True)
    form = tuple(values) if as_given else canonical(values)
    board = Board.from_values(form)
    hardest = 0.0
    bound = _bound_past_prefix(ceiling)
    for tech, step in logic.techniques_past_singles(board, _prefix(ceiling)):
        rating = _se(tech, step)
        if rating > ceiling:  # a chain's length bonus: the full trace takes this or a step after the prefix
            return Measured(min(rating, bound or rating), False)
        hardest = max(hardest, rating)
    if not board.is_solved and bound is not None:
        return Measured(max(hardest, bound), False)
    for tech, step in logic.techniques_past_singles(board):
        hardest = max(hardest, _se(tech, step))
        if hardest > ceiling:
            return Measured(hardest, False)
    if not board.is_solved:  # a contradiction: let the step-by-step trace decide
        return Measured(rate_trace(logic.solve(Grid(form)))[0], True)
    return Measured(hardest, True)


def _measure_d(values: Sequence[int], target: float, tolerance: float) -> Measured:
    """D, staged: the trace first (enough when it is out of reach), the seed measures D reads only near the target.

    A puzzle the singles alone solve has its D from its effort, which the trace on the kernel gives at once; any
    other puzzle's D lies within MAX_WIDTH of se_fine, itself within 0.12 of se_like (the rounding of a chain's
    length bonus).
    """
    reach = tolerance + difficulty.MAX_WIDTH + FINE_GAP
    staged = staged_se_like(values, target + reach, as_given=True)
    if staged.exact and staged.value <= difficulty.SINGLES_TOP:
        singles = singles_d(values)
        if abs(singles - target) > tolerance:
            return Measured(singles, True)
    elif not staged.exact or abs(staged.value - target) > reach:
        return staged
    rating = rate(values, measures=difficulty.MEASURES)
    return Measured(rating.d, True, rating)


def singles_d(values: Sequence[int]) -> float:
    """D of a puzzle the singles alone solve, from the effort of its trace on the canonical form, as ``rate``."""
    traced = logic.technique_trace(Grid(canonical(values)))
    work = difficulty.effort([tech for tech, _ in traced.steps], traced.options)
    return difficulty.singles_d(math.log(max(work, 1.0) / max(list(values).count(0), 1)))


def _measure_se(values: Sequence[int], target: float, tolerance: float) -> Measured:
    """se_like, staged at the top of the tolerance."""
    return staged_se_like(values, target + tolerance)


def _whole(function: Callable[[tuple[int, ...]], float]) -> Callable[[Sequence[int], float, float], Measured]:
    """A measure taken in full on the canonical form (target and tolerance unused)."""

    def measured(values: Sequence[int], target: float, tolerance: float) -> Measured:
        """The measure of the canonical form, exact."""
        return Measured(float(function(canonical(values))), True)

    return measured


def _call_count(values: tuple[int, ...]) -> float:
    """Seed 000's call count (mean of 10 seeded runs)."""
    from .metrics import fatemi

    return fatemi.call_count(values).mean


def _hsolve(values: tuple[int, ...]) -> float:
    """Seed 002's m(B)."""
    from .metrics import hsolve

    return hsolve.hsolve(values).mean


def _entropy(values: tuple[int, ...]) -> float:
    """Seed 003's game complexity."""
    from .metrics import chen

    return chen.measure(values).entropy


def _guesses(values: tuple[int, ...]) -> float:
    """Seed 001's guesses."""
    from .metrics import findling

    return findling.findling(values).guesses


METRICS: dict[str, Callable[[Sequence[int], float, float], Measured]] = {
    "D": _measure_d,
    "se_like": _measure_se,
    "call_count": _whole(_call_count),
    "hsolve": _whole(_hsolve),
    "entropy": _whole(_entropy),
    "guesses": _whole(_guesses),
}


class _Search:
    """One targeted search: the measure, the target, a cache of measured puzzles and the best found so far."""

    def __init__(self, metric: str, target: float, tolerance: float, deadline: float, max_givens: int = 81) -> None:
        self.metric, self.measure_of = metric, METRICS[metric]
        self.target, self.tolerance, self.deadline = target, tolerance, deadline
        self.max_givens = max_givens
        self.cache: dict[tuple[int, ...], Measured] = {}
        self.best: tuple[tuple[bool, float], tuple[int, ...], Grid, Measured] | None = None
        self.evaluations = 0

    def measure(self, values: tuple[int, ...], solution: Grid) -> Measured:
        """The measure of a unique puzzle (cached); the best puzzle so far is kept. Once there is a best, a measure
        still running at the search's deadline stops there (``deadline.TimeUp``, which ``generate`` catches)."""
        found = self.cache.get(values)
        if found is None:
            with deadline.until(self.deadline if self.best is not None else None):
                found = self.measure_of(values, self.target, self.tolerance)
            self.cache[values] = found
            self.evaluations += 1
            cost = self.cost(found)
            if self.best is None or cost < self.best[0]:
                self.best = (cost, values, solution, found)
        return found

    def cost(self, found: Measured) -> tuple[bool, float]:
        """Exactly measured puzzles first, by |value - target|; then those known to be harder, by their bound."""
        if found.exact:
            return False, abs(found.value - self.target)
        return True, found.value - self.target

    def hit(self, found: Measured) -> bool:
        """Within tolerance, exactly measured."""
        return found.exact and abs(found.value - self.target) <= self.tolerance

    @property
    def done(self) -> bool:
        """A hit is in hand or the time is up."""
        return (self.best is not None and self.hit(self.best[3])) or time.perf_counter() > self.deadline

    def nearest_on_path(self, path: list[tuple[int, ...]], solution: Grid) -> tuple[int, ...]:
        """The point of a dig path nearest the target, by bisection (the measure rises along the path).

        Once a hit is found the bisection goes on towards the start of the path, so a target is met by the fullest
        puzzle the dig passes through; that hit becomes the search's answer.
        """
        low, high = 0, len(path) - 1
        last = self.measure(path[high], solution)
        hit = high if self.hit(last) else None
        if hit is None and last.exact and last.value < self.target:
            return path[high]
        while high - low > 1 and time.perf_counter() <= self.deadline:
            middle = (low + high) // 2
            found = self.measure(path[middle], solution)
            if self.hit(found):
                hit = high = middle
            elif found.exact and found.value < self.target:
                low = middle
            elif hit is not None:
                break  # above the target past a hit: the measure does not rise here, keep the hit in hand
            else:
                high = middle
        if hit is not None:
            found = self.measure(path[hit], solution)
            self.best = (self.cost(found), path[hit], solution, found)
            return path[hit]
        ends = [path[low], path[high]]
        return min(ends, key=lambda values: self.cost(self.measure(values, solution)))

    def climb(self, start: tuple[int, ...], solution: Grid, rng: random.Random, symmetric: bool, minimal: bool) -> None:
        """Seed 000's hill climbing: add, remove or change one clue (a mirrored pair when symmetric) while better.

        ``minimal``: the start is the end of a dig (no removal leaves it unique), so while the climb stays there a
        removal alone is known to fail without a search.
        """
        current, cost = start, self.cost(self.measure(start, solution))
        stale = 0
        while stale < STALE_MOVES and not self.done:
            harder = self.measure(current, solution).value < self.target
            move = _move(current, solution, rng, symmetric, harder)
            stale += 1
            if move is None or (minimal and not move[2]):
                continue
            moved, removed, _ = move
            if 81 - moved.count(0) > self.max_givens or not stays_unique(moved, solution.values, removed):
                continue
            found = self.measure(moved, solution)
            if self.cost(found) < cost:
                current, cost, stale, minimal = moved, self.cost(found), 0, False

    def result(self, seed: int, restarts: int, started: float) -> Targeted:
        """The best puzzle found as ``generate``'s answer, rated in full when the measure is D and it was not yet."""
        assert self.best is not None
        _, values, solution, found = self.best
        rating = found.rating
        if self.metric == "D" and rating is None:
            rating = rate(values, measures=difficulty.MEASURES)
            found = Measured(rating.d, True, rating)
        return Targeted(
            puzzle=Grid(values),
            solution=solution,
            metric=self.metric,
            target=self.target,
            tolerance=self.tolerance,
            value=found.value,
            hit=self.hit(found),
            rating=rating,
            seed=seed,
            evaluations=self.evaluations,
            restarts=restarts,
            seconds=time.perf_counter() - started,
        )


@cache
def _groups(symmetric: bool) -> tuple[tuple[int, ...], ...]:
    """The cells moves act on together: mirrored pairs (and the centre) when symmetric, else single cells."""
    if symmetric:
        return tuple((c, 80 - c) if c != 40 else (40,) for c in range(41))
    return tuple((c,) for c in range(81))


def _move(
    values: tuple[int, ...], solution: Grid, rng: random.Random, symmetric: bool, harder: bool
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """A random neighbour, the givens it removes and those it adds: remove a clue (towards harder) or add one of
    the solution's (towards easier), or change one clue for another (a removal and an addition); None when no such
    move exists."""
    groups = _groups(symmetric)  # group i starts with cell i
    given = list(compress(groups, values))
    empty = list(compress(groups, map(not_, values)))
    change = rng.random() < CHANGE_SHARE
    out = list(values)
    removed: tuple[int, ...] = ()
    added: tuple[int, ...] = ()
    if change or harder:
        if not given:
            return None
        removed = rng.choice(given)
        for c in removed:
            out[c] = 0
    if change or not harder:
        if not empty:
            return None
        added = rng.choice(empty)
        for c in added:
            out[c] = solution.values[c]
    return tuple(out), removed, added


def default_tolerance(metric: str, target: float) -> float:
    """DEFAULT_TOLERANCE for D and se_like, 5% of the target for a seed measure."""
    if metric in ("D", "se_like"):
        return DEFAULT_TOLERANCE
    return max(RELATIVE_TOLERANCE * abs(target), 0.01)


def generate(
    target: float,
    tolerance: float | None = None,
    seed: int | None = None,
    budget_s: float = DEFAULT_BUDGET_S,
    *,
    metric: str = "D",
    symmetric: bool = False,
    max_givens: int | None = MAX_GIVENS,
) -> Targeted:
    """A unique puzzle whose measure (D by default) is within ``tolerance`` of ``target``, or the closest found.

    Restarts from new grids until a hit or until ``budget_s`` seconds have passed; ``hit`` says which. The same
    seed gives the same puzzle when the search ends on a hit. ``tolerance`` defaults to ``default_tolerance``.
    Clues are free by default: mirrored pairs (``symmetric``) make the moves coarser and hits rarer. No puzzle with
    more than ``max_givens`` givens is measured or returned (None: no limit).
    """
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r} (known: {', '.join(METRICS)})")
    if tolerance is None:
        tolerance = default_tolerance(metric, target)
    if not tolerance > 0 or not budget_s > 0:
        raise ValueError("tolerance and budget must be positive")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    started = time.perf_counter()
    rng = random.Random(seed)
    search = _Search(metric, target, tolerance, started + budget_s, max_givens or 81)
    restarts = -1
    try:
        while not search.done or search.best is None:
            restarts += 1
            solution = _quick_full_grid(rng)
            path = [p for p in dig_path(solution, rng, symmetric) if 81 - p.count(0) <= search.max_givens]
            start = search.nearest_on_path(path, solution)
            if not search.done:
                search.climb(start, solution, rng, symmetric, minimal=start == path[-1])
    except deadline.TimeUp:
        pass  # the budget ran out inside a measure: the best found before it is the answer
    return search.result(seed, restarts, started)
