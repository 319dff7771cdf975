"""The difficulty slider: 0-100, mapped monotonically onto D (docs/difficulty.md).

The map goes through the quantiles of a reference sample (seed 002's percentile idea): ``slider_knots.KNOTS``
holds D at slider 0, 1, ..., 100, built by ``benchmarks/slider_reference.py`` from published puzzles of every
grade (each zone, Easy to Extreme, gets the same share of slider 0-95) and, for 95-100, the hardest known
puzzles. Between two knots D is interpolated linearly, except across a gap wider than twice the generation
tolerance (where no technique's puzzles lie), where it takes the nearer knot, so that every slider value asks for
a D that puzzles have. ``slider_knots.MINUTES`` holds the typical predicted minutes of a puzzle at each knot (the
time model's prior, non-decreasing along the slider), from which ``describe`` gives the time the page shows.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

from . import difficulty, time_model
from .slider_knots import KNOTS, MINUTES


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


def typical_minutes(slider: float) -> float:
    """The prior's predicted minutes of a typical puzzle at a slider value (``slider_knots.MINUTES``, interpolated
    on a log scale): never less at a higher value."""
    position = _checked(slider)
    low = min(int(position), 99)
    fraction = position - low
    a, b = math.log(MINUTES[low]), math.log(MINUTES[low + 1])
    return math.exp(a + fraction * (b - a))


@dataclass(frozen=True)
class SliderInfo:
    """What the page shows for a slider value: the value, its target D (3 decimals), the zone of that D, and the
    time of a typical puzzle there: the prior's predicted minutes and the estimate built on them."""

    slider: float
    D: float
    label: str
    predicted_minutes: float
    time: time_model.TimeEstimate


def describe(slider: float, factor: float = 1.0) -> SliderInfo:
    """What the page shows as the slider moves: the slider value, target D, its zone and a typical puzzle's time
    there (the prior's minutes times ``factor``: a calibration's)."""
    d = target_for_slider(slider)
    minutes = typical_minutes(slider)
    return SliderInfo(
        slider=_checked(slider),
        D=round(d, 3),
        label=difficulty.zone(d),
        predicted_minutes=minutes,
        time=time_model.estimate(minutes, d, factor),
    )
