"""The difficulty score D, its zone label and the predicted solve time (DESIGN sections 5.1 and 5.2).

D is one continuous number on the Sudoku Explainer scale (about 1 to 11): se_like plus a refinement, a linear model
of the trace and the seed measures fitted by least squares to what se_like misses of the Sudoku Explainer ratings
of 600 puzzles of ``sudokuexchange_graded_even.tsv``, squashed so that it only orders puzzles within one SE level
(``benchmarks/fit_difficulty.py`` refits it and prints the figures; ``docs/difficulty.md`` reports them). The
refinement (longer solves, more search for the seed papers' solvers) makes D continuous, which targeted
generation needs.

Features, all measured on the canonical isomorph so that every isomorph gets the same D:
se_like, ln hodoku_like, ln call_count (seed 000), number of the 12 propagation schemes that do not solve the
puzzle (seed 004), entropy (seed 003), ln(1 + inferences) (seed 003) and ln(1 + guesses) (seed 001). A measure
missing after a timeout takes its mean over the fitting sample.

Predicted minutes: seed 000 reports mean call counts 6.2 / 29.2 / 98.2 / 527.4 and mean solve times 14.7 / 21.5 /
32.1 / 45.3 minutes for the same four levels; ln(minutes) = a + b ln(call_count) is fitted to those four pairs,
and ln(call_count) = c + e D to the fitting sample, so ln(minutes) = a + b (c + e D). A researcher can refit a and
b from logged solve times (issue 'studies').
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .metrics import Metrics

FEATURES = ("se_like", "ln_hodoku", "ln_call_count", "schemes_failed", "entropy", "ln_inferences", "ln_guesses")
# The seed measures D reads (``metrics.measure`` names); hsolve is reported but not part of D.
MEASURES = ("call_count", "findling", "r_reduction", "schemes")

# Fitted by benchmarks/fit_difficulty.py (see docs/difficulty.md): intercept, then one weight per feature.
# se_like keeps weight 1 (D stays on the SE scale); the rest is fitted to the SE rating minus se_like.
INTERCEPT = -4.2870
WEIGHTS = (1.0, 0.7581, 0.0700, -0.2073, -0.3585, 0.1039, -0.0336)
# The refinement is squashed into (-TIE_WIDTH, TIE_WIDTH) by tanh(refinement / REFINEMENT_SD): fitted freely it
# raised rho against the SE ratings it was fitted to but lowered it on menneske (0.846 against se_like's 0.956), so
# it only orders puzzles within one SE level, where se_like ties.
TIE_WIDTH = 0.049
REFINEMENT_SD = 0.5437
# Means over the fitting sample, standing in for a measure that is missing.
MEANS = (6.194, 7.481, 4.429, 8.278, 1.159, 1.374, 1.293)

# Seed 000, Tables I and II: mean call count and mean minutes of four difficulty levels.
SEED000_CALL_COUNTS = (6.2, 29.2, 98.2, 527.4)
SEED000_MINUTES = (14.7, 21.5, 32.1, 45.3)
# ln(call_count) = CALL_COUNT_INTERCEPT + CALL_COUNT_SLOPE * D over the fitting sample.
CALL_COUNT_INTERCEPT = 3.3628
CALL_COUNT_SLOPE = 0.1726

# Upper bounds of D for the zones Easy, Medium, Hard, Expert; Extreme above (on the SE scale: singles, then
# intersections and pairs, then subsets, fish and wings, then chains, then forcing chains and nets).
ZONES = (("Easy", 2.0), ("Medium", 3.5), ("Hard", 5.5), ("Expert", 7.5))


def features(se_like: float, hodoku_like: int, metrics: Metrics) -> tuple[float, ...]:
    """The feature vector of a rated puzzle; a missing measure takes its fitting-sample mean."""
    schemes = metrics.schemes
    inferences = metrics.r_reduction["inferences"] if metrics.r_reduction else None
    values: list[float | None] = [
        se_like,
        math.log(max(hodoku_like, 1)),
        math.log(max(metrics.call_count, 1.0)) if metrics.call_count is not None else None,
        float(sum(not solved for solved in schemes.values())) if schemes is not None else None,
        metrics.entropy,
        math.log1p(float(inferences)) if isinstance(inferences, int) else None,
        math.log1p(metrics.findling["guesses"]) if metrics.findling else None,
    ]
    return tuple(MEANS[i] if value is None else value for i, value in enumerate(values))


def score(vector: Sequence[float]) -> float:
    """D for a feature vector: se_like plus the squashed refinement (never more than TIE_WIDTH either way)."""
    refinement = INTERCEPT + sum(w * x for w, x in zip(WEIGHTS[1:], vector[1:]))
    return vector[0] + TIE_WIDTH * math.tanh(refinement / REFINEMENT_SD)


def _seed000_fit() -> tuple[float, float]:
    """(a, b) of ln(minutes) = a + b ln(call_count), least squares over seed 000's four levels."""
    xs = [math.log(c) for c in SEED000_CALL_COUNTS]
    ys = [math.log(m) for m in SEED000_MINUTES]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / sum((x - mean_x) ** 2 for x in xs)
    return mean_y - slope * mean_x, slope


MINUTES_INTERCEPT, MINUTES_SLOPE = _seed000_fit()


def predicted_minutes(d: float, intercept: float = MINUTES_INTERCEPT, slope: float = MINUTES_SLOPE) -> float:
    """Predicted solve time of a typical player, from D through the seed 000 calibration (or a refitted one)."""
    return math.exp(intercept + slope * (CALL_COUNT_INTERCEPT + CALL_COUNT_SLOPE * d))


def zone(d: float) -> str:
    """The zone label of a D value: Easy, Medium, Hard, Expert or Extreme."""
    for name, upper in ZONES:
        if d < upper:
            return name
    return "Extreme"
