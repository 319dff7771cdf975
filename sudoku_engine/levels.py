"""Difficulty levels as percentile intervals of a reference sample (seed 002, MCM 2008 team 2858, section 2.2).

The paper reads "a given number of difficulty levels" as the division of all puzzles into that many percentile
intervals of equal size, taking the distribution of a reference sample (1000 boards rated by hsolve) as that of
all puzzles. So k levels have k - 1 cut points, the quantiles of the reference at 1/k, 2/k, ..., (k-1)/k, and
level i (1..k) holds the values between the (i-1)-th and the i-th cut point. Any measure's values will do.

Quantiles interpolate linearly between the reference's order statistics (quantile q of n sorted values sits at
rank q (n - 1); numpy's default method). The intervals are closed above: a value equal to a cut point is in the
lower level, so with ties (a measure with few distinct values) the level below the tie takes it; a value below
the reference's minimum is level 1, one above its maximum level k.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate


@dataclass(frozen=True)
class Levels:
    """k levels of a measure, given by their k - 1 cut points in increasing order."""

    cuts: tuple[float, ...]

    @property
    def count(self) -> int:
        """The number of levels, k."""
        return len(self.cuts) + 1

    def level(self, value: float) -> int:
        """The level (1..k) of a measured value: one more than the number of cut points below it."""
        if math.isnan(value):
            raise ValueError("a NaN value has no level")
        return bisect.bisect_left(self.cuts, value) + 1


def quantile(ordered: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile of sorted values, interpolated linearly between neighbouring ranks."""
    rank = fraction * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (rank - low) * (ordered[high] - ordered[low])


def percentile_levels(reference: Iterable[float], count: int) -> Levels:
    """``count`` levels of equal share of the reference sample: cut points at its quantiles i / count."""
    ordered = sorted(float(v) for v in reference)
    if count < 1:
        raise ValueError(f"the number of levels must be at least 1, not {count}")
    if not ordered:
        raise ValueError("the reference sample is empty")
    if not all(math.isfinite(v) for v in ordered):
        raise ValueError("the reference sample holds a value that is not a finite number")
    cuts = (quantile(ordered, i / count) for i in range(1, count))
    return Levels(tuple(accumulate(cuts, max)))  # rounding could leave a cut an ulp above the next one
