"""The difficulty slider: 0-100, mapped monotonically onto D (docs/difficulty.md).

The map goes through the quantiles of a reference sample (seed 002's percentile idea): ``slider_knots.KNOTS``
holds D at slider 0, 1, ..., 100, built by ``benchmarks/slider_reference.py`` from published puzzles of every
grade (each zone, Easy to Extreme, gets the same share of slider 0-95) and, for 95-100, the hardest known
puzzles. Between two knots D is interpolated linearly, except across a gap wider than twice the generation
tolerance (where no technique's puzzles lie), where it takes the nearer knot, so that every slider value asks for
a D that puzzles have. ``slider_knots.EFFORTS`` holds the typical effort of a puzzle at each knot, from which
``describe`` predicts the minutes the page shows (``difficulty.predicted_minutes``).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from . import difficulty
from .slider_knots import EFFORTS, KNOTS


def _checked(slider: float) -> float:
    """A slider value, or ValueError when it is not a number from 0 to 100."""
    if not isinstance(slider, (int, float)) or math.isnan(slider) or not 0 <= slider <= 100:
        raise ValueError(f"slider must be a number from 0 to 100, not {slider!r}")
    return float(slider)


def target_for_slider(slider: float) -> float:
    """The D a slider value asks for (monotone in the slider)."""
    position = _checked(slider)
    low = min(int(position), 99)
    a, b = KNOTS[low], KNOTS[low + 1]
    fraction = position - low
    if b - a <= 2 * difficulty.DEFAULT_TOLERANCE:
        return a + fraction * (b - a)
    return a if fraction < 0.5 else b


def slider_for_d(d: float) -> float:
    """Where a D value sits on the slider (the inverse of the knots' linear pieces; 0 or 100 beyond them)."""
    if d <= KNOTS[0]:
        return 0.0
    if d >= KNOTS[-1]:
        return 100.0
    high = bisect.bisect_right(KNOTS, d)  # KNOTS[high - 1] <= d < KNOTS[high]
    low = high - 1
    return low + (d - KNOTS[low]) / (KNOTS[high] - KNOTS[low])


def typical_effort(slider: float) -> float:
    """The effort of a typical puzzle at a slider value (``slider_knots.EFFORTS``, interpolated on a log scale)."""
    position = _checked(slider)
    low = min(int(position), 99)
    fraction = position - low
    a, b = math.log(max(EFFORTS[low], 1.0)), math.log(max(EFFORTS[low + 1], 1.0))
    return math.exp(a + fraction * (b - a))


@dataclass(frozen=True)
class SliderInfo:
    """What the page shows for a slider value: the value, its target D (3 decimals), the zone of that D, the typical
    effort there (1 decimal) and the minutes predicted for that effort (1 decimal)."""

    slider: float
    D: float
    label: str
    effort: float
    predicted_minutes: float


def describe(slider: float) -> SliderInfo:
    """What the page shows as the slider moves: the slider value, target D, its zone, the typical effort there and
    the predicted minutes of that effort."""
    d = target_for_slider(slider)
    effort = typical_effort(slider)
    return SliderInfo(
        slider=_checked(slider),
        D=round(d, 3),
        label=difficulty.zone(d),
        effort=round(effort, 1),
        predicted_minutes=round(difficulty.predicted_minutes(effort), 1),
    )
