"""Puzzle generation: seeded random full grids and dig-hole puzzles that are unique and locally minimal.

Implements seed 004 (Simonis), section 8, approach 3: start from a full grid and remove givens one at a time,
in a seeded random order, keeping a removal only while the puzzle stays well posed (one solution). With the
free pattern, one pass yields a locally minimal puzzle: a given whose removal admits a second solution still
does so after later removals, since fewer givens never remove solutions. With the symmetric pattern, givens
are removed in pairs mirrored through the centre, so the result is minimal with respect to pairs.
Departure from the paper: the dig can stop early at a requested number of givens; the web slider uses this
until the difficulty rating lands (more givens kept, easier puzzle).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import _search_py
from .grid import Grid
from .solver import is_unique

MIN_SLIDER_GIVENS = 46  # givens kept at slider 0: mostly naked and hidden singles
MAX_SLIDER_GIVENS = 17  # the fewest givens a unique puzzle can have; the dig stops at minimality first


@dataclass(frozen=True)
class Generated:
    """A generated puzzle, its solution, and the seed that reproduces it."""

    puzzle: Grid
    solution: Grid
    seed: int


def random_full_grid(rng: random.Random) -> Grid:
    """A valid full grid drawn by search over the empty grid with digits tried in random order."""
    _count, values = _search_py.count([0] * 81, 1, rng)
    if values is None:
        raise RuntimeError("the empty grid has no completion")  # impossible: the empty grid is solvable
    return Grid(tuple(values))


def _removal_order(rng: random.Random, symmetric: bool) -> list[tuple[int, ...]]:
    """Groups of cells to try removing together, in random order (mirrored pairs when symmetric)."""
    groups: list[tuple[int, ...]]
    if symmetric:
        groups = [(c, 80 - c) if c != 40 else (40,) for c in range(41)]
    else:
        groups = [(c,) for c in range(81)]
    rng.shuffle(groups)
    return groups


def dig_holes(
    solution: Grid, rng: random.Random, symmetric: bool = True, min_givens: int = 0
) -> Grid:
    """Remove givens from a full grid while the puzzle stays unique, stopping at ``min_givens`` givens."""
    values = list(solution.values)
    givens = 81
    for group in _removal_order(rng, symmetric):
        if givens - len(group) < min_givens:
            continue
        kept = [values[c] for c in group]
        for c in group:
            values[c] = 0
        if is_unique(values):
            givens -= len(group)
        else:
            for c, v in zip(group, kept):
                values[c] = v
    return Grid(tuple(values))


def givens_for_slider(slider: float) -> int:
    """Givens the dig keeps for a slider value 0..100: linear from 46 (easy) down to 17 (dig to minimal)."""
    if not 0 <= slider <= 100:
        raise ValueError(f"slider must be between 0 and 100, not {slider}")
    span = MIN_SLIDER_GIVENS - MAX_SLIDER_GIVENS
    return round(MIN_SLIDER_GIVENS - span * slider / 100)


def generate_puzzle(seed: int | None = None, givens: int | None = None, symmetric: bool = True) -> Generated:
    """A unique puzzle from a seeded random full grid, dug to ``givens`` givens or to local minimality."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    if givens is not None and not 17 <= givens <= 81:
        raise ValueError(f"givens must be between 17 and 81, not {givens}")
    rng = random.Random(seed)
    solution = random_full_grid(rng)
    puzzle = dig_holes(solution, rng, symmetric, givens or 0)
    return Generated(puzzle=puzzle, solution=solution, seed=seed)
