"""Fresh puzzles at the top of the scale by neighbourhood search, as the puzzle community finds its hardest: from a
hard puzzle, move one or two givens ({-1+1}, {-2+2}: take givens out, put clues in other cells with a digit those
cells can still hold), keep the move when the result has one solution and no removable given (locally minimal),
and rate it when a cheap bound says it still needs a step rated above the band's floor (``generate.staged_se_like``:
it stops at the first such step). A walk goes on from its finds that keep near its height, so one start explores a
whole neighbourhood near the top.

``search`` runs one walk within a time limit (``deadline``) and returns the finds in order; every find is unique,
minimal and carries its full rating (the one the bank stores).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from . import deadline
from .generate import staged_se_like
from .grid import PEERS
from .metrics.simonis import is_locally_minimal
from .rating import Rating, rate
from .solver import count_solutions

MOVES = (1, 2)  # givens moved at once: {-1+1} and {-2+2}
FILTER_MARGIN = 0.1  # the cheap bound must pass the band's floor less this before a full rating
DESCENT = 0.3  # the walk steps to a find at most this much below the D it stands at
RESTART_AFTER = 20  # tries without a step before the walk starts again from its start


@dataclass(frozen=True)
class Found:
    """A new puzzle of the walk: its values and its full rating."""

    values: tuple[int, ...]
    rating: Rating


def moved(values: Sequence[int], rng: random.Random, count: int) -> tuple[int, ...] | None:
    """The puzzle with ``count`` givens taken out and ``count`` clues put into other empty cells, each with a digit
    no peer holds; None when there is no such move."""
    givens = [cell for cell, value in enumerate(values) if value]
    if len(givens) < count:
        return None
    out = list(values)
    taken = rng.sample(givens, count)
    for cell in taken:
        out[cell] = 0
    empty = [cell for cell, value in enumerate(out) if not value and cell not in taken]
    for cell in rng.sample(empty, count):
        allowed = [d for d in range(1, 10) if all(out[p] != d for p in PEERS[cell])]
        if not allowed:
            return None
        out[cell] = rng.choice(allowed)
    return tuple(out)


def candidate(values: Sequence[int], rng: random.Random) -> tuple[int, ...] | None:
    """A neighbour with one solution and no removable given, or None for this try."""
    near = moved(values, rng, rng.choice(MOVES))
    if near is None or count_solutions(near, limit=2) != 1 or not is_locally_minimal(near):
        return None
    return near


def search(
    start: Sequence[int],
    floor: float,
    seconds: float,
    seed: int,
    known: set[tuple[int, ...]],
    start_d: float | None = None,
) -> list[Found]:
    """A walk from ``start`` (of D ``start_d``, rated here when not given) for ``seconds``: each neighbour that is
    new (not in ``known``, which the tried puzzles join), unique and minimal, and whose D is at least ``floor``, is
    a find; the walk goes on from a find no more than DESCENT below where it stands (so it keeps to the top), and
    from the start again after RESTART_AFTER tries without a step."""
    rng = random.Random(seed)
    finds: list[Found] = []
    here = tuple(start)
    start_d = level = rate(here).d if start_d is None else start_d
    misses = 0
    stop = time.perf_counter() + seconds
    try:
        with deadline.until(stop):
            while time.perf_counter() < stop:
                deadline.check()
                near = candidate(here, rng)
                if near is None or near in known:
                    continue
                known.add(near)
                if staged_se_like(near, floor - FILTER_MARGIN, as_given=True).value <= floor - FILTER_MARGIN:
                    misses += 1
                    continue
                rating = rate(near)
                if rating.d < floor or rating.timeout:
                    misses += 1
                elif rating.d >= level - DESCENT:
                    finds.append(Found(near, rating))
                    here, level, misses = near, rating.d, 0
                else:
                    finds.append(Found(near, rating))  # a find, but the walk stays high
                    misses += 1
                if misses > RESTART_AFTER:
                    here, level, misses = tuple(start), start_d, 0
    except deadline.TimeUp:
        pass  # the slice is over: the finds so far stand (a rating cut short is none of them)
    return finds
