"""The time model: the minutes a player needs for a puzzle, fitted to people's solving times (docs/difficulty.md).

A person's time goes into finding the next step. The model follows the logic solver's trace
(``logic.technique_trace``) and adds, for every step, the work of finding it, with p the empty cells before the
step and v the cells a single could fill right then:

- a single of kind k (full house, hidden single in a box, in a row or column, naked single):
  ``SINGLE_WEIGHTS[k] x (p + 1) ** SEARCH_POWER / (v + 1) ** SINGLES_POWER``: many singles in sight make a quick
  find, one single among many empty cells a slow one;
- any other step: ``OTHER_WEIGHT x (score / 50) ** SCORE_POWER x (p + 1) ** SEARCH_POWER``, score the HoDoKu score of
  its technique.

A population of players turns work into minutes by its own scale (``POPULATIONS``): ``app``, the players of a Sudoku
app (the Cloud Sudoku dataset: the mean time of each puzzle's finishers), whose minutes the rate record and the web
app's prior give; ``lab``, seed 000's volunteers, whose four difficulty levels fix the second scale. Every constant
is fitted by ``benchmarks/human_times.py`` (k-fold cross-validated; it prints the figures docs/difficulty.md gives).

An estimate (``estimate``) carries an 80% interval for one solve by a player of the population, and says when the
puzzle lies beyond what the fit saw (``extrapolated``: harder than the hardest puzzle it was fitted on, or predicted
longer than any of them). There the interval's top widens with every point of D above, and the words a page shows
(``TimeEstimate.words``) give no bare figure: nobody has published timed solves of such puzzles.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .techniques import Technique

# Fitted by benchmarks/human_times.py to the Cloud Sudoku half and seed 000's levels (docs/difficulty.md).
SINGLE_WEIGHTS: dict[str, float] = {
    "full_house": 1.0,
    "hidden_single_box": 0.7025,
    "hidden_single_line": 1.5754,
    "naked_single": 4.9050,
}
SEARCH_POWER = 1.1587
SINGLES_POWER = 0.4536
OTHER_WEIGHT = 1.6517
SCORE_POWER = 0.0186
# Minutes per unit of work of each population of players.
POPULATIONS: dict[str, float] = {"app": 0.006885, "lab": 0.011422}
DEFAULT_POPULATION = "app"

# What the fit saw: its hardest puzzle's D (7.44, rounded up to the Extreme zone's start) and its longest prediction.
FIT_TOP_D = 7.5
FIT_TOP_MINUTES = 26.0
# The spread of one solve around the prediction, in log units: one player's (from how the Cloud Sudoku means scatter
# with their number of finishers) and the model's own error, which that split cannot tell from 0 (kept at a floor).
MODEL_SD = 0.10
PLAYER_SD = 0.71
# Beyond the fit, the interval's top widens by this many log units per point of D above FIT_TOP_D.
EXTRAPOLATION_SD = 0.5
Z80 = 1.2816  # the normal quantile of a two-sided 80% interval
# From forcing nets on (D 9 and up), puzzles are beyond what most players finish.
NETS_D = 9.0


def step_work(tech: Technique, empty: int, singles: int) -> float:
    """The work of finding one step of ``tech`` among ``empty`` empty cells, ``singles`` of them open to a single."""
    search = math.pow(empty + 1, SEARCH_POWER)
    if tech.family == "singles":
        return SINGLE_WEIGHTS[tech.id] * search / math.pow(singles + 1, SINGLES_POWER)
    return OTHER_WEIGHT * math.pow(tech.hodoku_score / 50.0, SCORE_POWER) * search


def work(taken: Sequence[Technique], options: Sequence[tuple[int, int]]) -> float:
    """The work of a trace: its techniques in order, each with the (empty cells, singles open) before it."""
    return sum(step_work(tech, empty, singles) for tech, (empty, singles) in zip(taken, options, strict=True))


def minutes(work_total: float, population: str = DEFAULT_POPULATION) -> float:
    """The predicted minutes of a population's players for a trace's work (KeyError for an unknown population)."""
    return POPULATIONS[population] * work_total


def is_extrapolated(d: float, prior_minutes: float) -> bool:
    """True when a puzzle lies beyond what the fit saw: D above its hardest puzzle's, or a longer prediction."""
    return d > FIT_TOP_D or prior_minutes > FIT_TOP_MINUTES


@dataclass(frozen=True)
class TimeEstimate:
    """A predicted time in minutes with its 80% interval for one solve, the D it is for, and whether the puzzle lies
    beyond the fit (then the page gives words, not a figure)."""

    minutes: float
    low: float
    high: float
    d: float
    extrapolated: bool

    @property
    def words(self) -> str:
        """The time as a page says it: 'about 12 minutes', or for a puzzle beyond the fit what is known of it."""
        if not self.extrapolated:
            return f"about {duration_words(self.minutes)}"
        if self.d >= NETS_D:
            return "several hours; most players do not finish"
        if self.d > FIT_TOP_D:
            return f"{duration_words(self.minutes)} or much longer; many players do not finish"
        return f"{duration_words(self.minutes)} or longer"

    @property
    def range_words(self) -> str:
        """The interval as a page says it ('5 to 20 minutes'); empty beyond the fit, where it means little."""
        if self.extrapolated:
            return ""
        low, high = rounded_minutes(self.low), rounded_minutes(self.high)
        if high >= 90:
            return f"{duration_words(low)} to {duration_words(high)}"
        return f"{low:g} to {high:g} minutes"


def estimate(prior_minutes: float, d: float, factor: float = 1.0, spread: float | None = None) -> TimeEstimate:
    """The time of a puzzle of D ``d`` whose prior (a rate record's ``predicted_minutes``) is ``prior_minutes``,
    times ``factor`` (a calibration's or a player's), with the 80% interval of one solve: ``spread`` log units
    around the prediction (default: the model's error and the players' spread together)."""
    centre = max(prior_minutes, 0.0) * factor
    sd = math.hypot(MODEL_SD, PLAYER_SD) if spread is None else spread
    median = centre * math.exp(-sd * sd / 2)  # the prediction is a mean of log-normal times
    beyond = max(0.0, d - FIT_TOP_D) * EXTRAPOLATION_SD
    return TimeEstimate(
        minutes=centre,
        low=median * math.exp(-Z80 * sd),
        high=median * math.exp(Z80 * math.hypot(sd, beyond)),
        d=d,
        extrapolated=is_extrapolated(d, prior_minutes),
    )


def rounded_minutes(value: float) -> float:
    """Minutes as a page rounds them: whole minutes (at least 1) under 20, fives to an hour, then half hours."""
    if value < 20:
        return float(max(1, round(value)))
    if value < 60:
        return float(5 * round(value / 5))
    return 30.0 * round(value / 30)


def duration_words(value: float) -> str:
    """A duration in minutes as words: '1 minute', '12 minutes', '35 minutes', '1 hour', '2.5 hours'."""
    shown = rounded_minutes(value)
    if shown < 60:
        return f"{shown:g} minute{'s' if shown != 1 else ''}"
    hours = shown / 60
    return f"{hours:g} hour{'s' if hours != 1 else ''}"
