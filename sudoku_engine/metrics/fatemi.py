"""Call count: arc consistency with domain splitting (seed 000, Fatemi, Kazemi and Mehrasa 2014, section IV).

The puzzle is a CSP over the 81 cells (x11 .. x99). A blank cell's domain is {1..9}, a given's domain is its
digit, and the constraints are the paper's: no two cells of one row, one column or one box take the same value,
i.e. a binary ``x != y`` constraint between each cell and each of its 20 peers (section IV, Fig. 3).

Arc consistency is the algorithm of the paper's reference [11] (Poole and Mackworth, *Artificial Intelligence*,
ch. 4): AC-3 style, a to-do set of arcs ``<x, x != y>``; an arc is made consistent by deleting from dom(x) every
value with no support in dom(y), and deleting a value puts back the arcs into x on the to-do set. For a ``!=``
arc a value v of x lacks support only when dom(y) is exactly {v}, so the arcs that can remove anything are the
ones out of a singleton domain: the fixed point is reached by deleting each singleton's value from its peers
until nothing changes, which is what ``_arc_consistency`` does (the AC fixed point is unique, so the order of
the to-do set does not change the result). A domain that becomes empty ends the call with failure. The binary
reading follows the paper's definition of an arc (a variable x and a constraint r(x, y)); it is also the reading
that fits Table I: generalised arc consistency on one all-different constraint per row, column and box subsumes
naked and hidden singles, so it would solve singles-only puzzles (most easy grades) at the root, giving an Easy
mean near 1 rather than the paper's 6.2.

One *call* is one run of that function on one node of the search tree, to its fixed point (or failure). The
root is one call. When the network is arc consistent but not solved, a variable with k > 1 values is chosen
uniformly at random and the node is split into k children, one per value (ascending); the children are
searched depth first, each beginning with one call, until a node where every domain is a single value (a
solution). ``call_count`` is the number of calls until then, averaged over ``runs`` seeded runs (the paper
averages 10 runs per puzzle). ``iqr_filter`` is the paper's outlier rule for its level means (section IV.A).

Departures from the paper, and why:

- The paper does not say in which order the k children are searched; here ascending value order.
- Each run is capped (``cap`` calls); a capped run counts as ``cap`` and the result says so, so a pathological
  puzzle never hangs a rating. With a random variable choice some very hard puzzles need millions of calls.
- A puzzle whose search tree is exhausted without a solution raises ``InvalidPuzzle`` (the paper only rates
  puzzles that have a solution).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ..grid import ALL_CANDIDATES, SINGLE_DIGIT, Grid, InvalidPuzzle, bit
from ..solver import PuzzleLike, backend, checked_values
from ._singles import clear_peers

DEFAULT_RUNS = 10
NO_SOLUTION = "the puzzle has no solution: arc consistency with domain splitting exhausted every branch"
DEFAULT_CAP = 20_000


@dataclass(frozen=True)
class CallCount:
    """Calls of the arc consistency function until solved: the mean over runs, each run's count, and the cap flag."""

    mean: float
    per_run: tuple[int, ...]
    capped: bool


@dataclass(frozen=True)
class Run:
    """One seeded search: its calls of arc consistency, whether the cap stopped it, and the solution it found."""

    calls: int
    capped: bool
    solution: Grid | None


def _arc_consistency(domains: list[int], queue: list[int]) -> int:
    """Make every ``!=`` arc consistent, starting from the singleton cells in ``queue``.

    Returns how many domains it reduced to a single value, or -1 when a domain is wiped out.
    """
    made = 0
    while queue:
        cell = queue.pop()
        waiting = len(queue)
        if clear_peers(domains, cell, queue) < 0:
            return -1
        made += len(queue) - waiting
    return made


def _initial_domains(values: Sequence[int]) -> list[int]:
    """Domains of the 81 variables: the given digit, or all nine digits for a blank cell."""
    return [bit(v) if v else ALL_CANDIDATES for v in values]


def _choose_variable(domains: list[int], open_count: int, rng: random.Random) -> int:
    """A variable drawn uniformly from those with more than one value (by rejection while they are many)."""
    if open_count * 4 >= 81:
        while True:
            cell = rng.randrange(81)
            mask = domains[cell]
            if mask & (mask - 1):
                return cell
    return rng.choice([cell for cell, mask in enumerate(domains) if mask & (mask - 1)])


def _split(domains: list[int], cell: int) -> list[list[int]]:
    """The children of a node split on ``cell``: one per value, ascending, pushed so the smallest pops first."""
    mask = domains[cell]
    children = []
    while mask:
        low = mask & -mask
        child = domains.copy()
        child[cell] = low
        children.append(child)
        mask ^= low
    children.reverse()
    return children


def one_run(values: Sequence[int], rng: random.Random, cap: int = DEFAULT_CAP) -> Run:
    """One depth-first search with arc consistency at every node, the split variables drawn from ``rng``."""
    if cap < 1:
        raise ValueError("cap must be at least 1")
    root = _initial_domains(values)
    queue = [cell for cell in range(81) if values[cell]]
    # a stack entry: a node's domains, the cell its split assigned (-1 at the root), singletons before its call
    stack: list[tuple[list[int], int, int]] = [(root, -1, len(queue))]
    calls = 0
    while stack:
        if calls >= cap:
            return Run(calls, True, None)
        domains, assigned, singletons = stack.pop()
        calls += 1
        made = _arc_consistency(domains, queue if assigned < 0 else [assigned])
        if made < 0:
            continue
        singletons += made
        if singletons == 81:
            return Run(calls, False, Grid(tuple(SINGLE_DIGIT[mask] for mask in domains)))
        cell = _choose_variable(domains, 81 - singletons, rng)
        stack.extend((child, cell, singletons + 1) for child in _split(domains, cell))
    raise InvalidPuzzle(NO_SOLUTION)


def call_count(puzzle: PuzzleLike, runs: int = DEFAULT_RUNS, seed: int = 0, cap: int = DEFAULT_CAP) -> CallCount:
    """The paper's call count: mean calls of arc consistency until solved over ``runs`` seeded runs, each capped.

    The runs draw from one ``random.Random(seed)`` in turn, so the result is fixed by the seed and the first k runs
    of a longer call are the runs of ``runs=k``. A capped run counts as ``cap`` calls and sets ``capped``.
    """
    if runs < 1:
        raise ValueError("runs must be at least 1")
    if cap < 1:
        raise ValueError("cap must be at least 1")
    values = checked_values(puzzle)
    rng = random.Random(seed)
    if backend() == "numba":
        counts, capped = _numba_runs(values, rng, runs, cap)
    else:
        counts, capped = [], False
        for _ in range(runs):
            run = one_run(values, rng, cap)
            counts.append(run.calls)
            capped = capped or run.capped
    return CallCount(mean=sum(counts) / runs, per_run=tuple(counts), capped=capped)


def _numba_runs(values: Sequence[int], rng: random.Random, runs: int, cap: int) -> tuple[list[int], bool]:
    """The runs of ``call_count`` on the numba kernel, from the generator's state (same draws, same counts)."""
    import numpy as np

    from . import _fatemi_numba

    state = rng.getstate()[1]
    mt = np.asarray(state[:624], dtype=np.int64)
    position = np.asarray(state[624:], dtype=np.int64)
    counts = np.zeros(runs, dtype=np.int64)
    capped = np.zeros(runs, dtype=np.bool_)
    if not _fatemi_numba.call_counts(np.asarray(values, dtype=np.int8), runs, cap, mt, position, counts, capped):
        raise InvalidPuzzle(NO_SOLUTION)
    return counts.tolist(), bool(capped.any())


def iqr_filter(data: Sequence[float]) -> list[float]:
    """The paper's outlier removal: keep values inside [median - 1.5 IQR, median + 1.5 IQR] (IQR = Q3 - Q1).

    The interval is centred on the median, as the paper states (not Tukey's [Q1 - 1.5 IQR, Q3 + 1.5 IQR]);
    quartiles by linear interpolation between order statistics (``statistics.quantiles``, method "inclusive").
    """
    if len(data) < 2:
        return list(data)
    q1, median, q3 = statistics.quantiles(data, n=4, method="inclusive")
    spread = 1.5 * (q3 - q1)
    return [x for x in data if median - spread <= x <= median + spread]
