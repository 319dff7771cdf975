"""The difficulty score D, its zone and the solving effort it reads (docs/difficulty.md).

D is one continuous number on the Sudoku Explainer scale (about 1 to 12), monotone in how hard a puzzle is for
people. ``benchmarks/fit_difficulty.py`` fits its constants and prints the figures ``docs/difficulty.md`` reports.

- A puzzle that needs a step other than singles: D = ``se_fine`` plus a refinement squashed into
  (-TIE_WIDTH, TIE_WIDTH). ``se_fine`` is the hardest step's SE-style rating with a chain's length bonus left
  unrounded (``techniques.fine_rating``), so chains and nested nets of different sizes get different D. The
  refinement is a linear model of the trace and the seed measures, fitted by least squares to what se_fine misses
  of the Sudoku Explainer ratings of a sample of ``sudokuexchange_graded_even.tsv``.
- A puzzle the singles alone solve: D runs from 1.0 to SINGLES_TOP (2.3, where Sudoku Explainer rates a naked
  single) with the mean effort a placement takes (``effort`` per empty cell, on a log scale between the constants
  SINGLES_LOW and SINGLES_HIGH): many visible singles at every step make an easy puzzle, a few that need scanning
  a harder one, whatever the number of givens.

Features, all measured on the canonical isomorph so that every isomorph gets the same D: se_fine, ln hodoku_like,
ln call_count (seed 000), number of the 12 propagation schemes that do not solve the puzzle (seed 004), entropy
(seed 003), ln(1 + inferences) (seed 003), ln(1 + guesses) (seed 001) and ln of the effort per empty cell. A
measure missing after a timeout takes its mean over the fitting sample.

Effort: a trace's *effort* adds, for every step, the HoDoKu score of its technique (the work one application takes)
times seed 002's expected search E(p, v) = (p + 1) / (v + 1): p the empty cells, v the cells a single could fill
right then when the step is a single (a position rich in singles is quick to fill), 1 for any other step. The effort
per empty cell orders the singles puzzles and is one of the refinement's features. The minutes a player needs come
from the time model fitted to people's solving times (``sudoku_engine.time_model``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .metrics import Metrics
from .techniques import CATALOGUE, Technique

FEATURES = (
    "se_fine",
    "ln_hodoku",
    "ln_call_count",
    "schemes_failed",
    "entropy",
    "ln_inferences",
    "ln_guesses",
    "ln_effort_per_cell",
)
# The seed measures D reads (``metrics.measure`` names); hsolve is reported but not part of D.
MEASURES = ("call_count", "findling", "r_reduction", "schemes")

# Fitted by benchmarks/fit_difficulty.py (see docs/difficulty.md): intercept, then one weight per feature.
# se_fine keeps weight 1 (D stays on the SE scale); the rest is fitted to the SE rating minus se_fine.
INTERCEPT = -0.1381
WEIGHTS = (1.0, -0.0590, 0.0298, -0.0411, -0.4164, 0.0341, -0.0105, 0.1904)
# The refinement moves D by tanh(refinement / REFINEMENT_SD) times a width: halfway to the rating of the nearest
# technique below the hardest step's and above se_fine (so it never passes their puzzles), at least TIE_WIDTH and at
# most MAX_WIDTH. Where neighbouring techniques lie close, that is about TIE_WIDTH; across the scale's gaps (BUG+1
# at 5.6 and the VWXYZ-Wing at 6.2, almost locked sets at 7.7 and forcing chains at 8.5) D spreads over the gap,
# so the slider has puzzles all along it.
TIE_WIDTH = 0.049
MAX_WIDTH = 0.5
REFINEMENT_SD = 0.1442
# Means over the fitting sample, standing in for a measure that is missing.
MEANS = (5.920, 7.477, 4.429, 8.278, 1.159, 1.374, 1.293, 6.160)

# Puzzles the singles alone solve: D from 1.0 to SINGLES_TOP, linear in ln(effort per empty cell) between
# SINGLES_LOW and SINGLES_HIGH (about the 1st and 99th percentiles over singles puzzles of the corpora).
SINGLES_TOP = 2.3
SINGLES_LOW = 2.583
SINGLES_HIGH = 4.506

# Upper bounds of D for the zones Easy, Medium, Hard, Expert; Extreme above (on the SE scale: singles, then
# intersections and pairs, then subsets, fish, wings and single-digit patterns, then chains, then almost locked
# sets, forcing chains and nets).
ZONES = (("Easy", SINGLES_TOP), ("Medium", 3.5), ("Hard", 5.5), ("Expert", 7.5))
# How close in D a puzzle is to a target D to count as a hit: about the gap between neighbouring techniques on the
# SE scale (generation, the slider's steps, the bank's draws).
DEFAULT_TOLERANCE = 0.2


def effort(taken: Sequence[Technique], options: Sequence[tuple[int, int]]) -> float:
    """The solving effort of a trace: for each step, its technique's HoDoKu score times E(p, v) = (p + 1) / (v + 1),
    p the empty cells and v the cells a single could fill when the step is a single (1 for any other step)."""
    total = 0.0
    for tech, (empty, singles) in zip(taken, options):
        found = singles if tech.family == "singles" else 1
        total += tech.hodoku_score * (empty + 1) / (found + 1)
    return total


def features(se_fine: float, hodoku_like: int, metrics: Metrics, effort_total: float, empty: int) -> tuple[float, ...]:
    """The feature vector of a rated puzzle; a missing measure takes its fitting-sample mean."""
    schemes = metrics.schemes
    inferences = metrics.r_reduction["inferences"] if metrics.r_reduction else None
    values: list[float | None] = [
        se_fine,
        math.log(max(hodoku_like, 1)),
        math.log(max(metrics.call_count, 1.0)) if metrics.call_count is not None else None,
        float(sum(not solved for solved in schemes.values())) if schemes is not None else None,
        metrics.entropy,
        math.log1p(float(inferences)) if isinstance(inferences, int) else None,
        math.log1p(metrics.findling["guesses"]) if metrics.findling else None,
        math.log(max(effort_total, 1.0) / max(empty, 1)),
    ]
    return tuple(MEANS[i] if value is None else value for i, value in enumerate(values))


def singles_d(ln_effort_per_cell: float) -> float:
    """D of a puzzle the singles alone solve, from 1.0 to below SINGLES_TOP, rising with its effort per cell."""
    share = (ln_effort_per_cell - SINGLES_LOW) / (SINGLES_HIGH - SINGLES_LOW)
    return 1.0 + (SINGLES_TOP - 1.0) * min(max(share, 0.0), 0.999)


# The ratings the refinement's width reads: every technique's but the singles', and the top of the singles' D.
_RATINGS = sorted({SINGLES_TOP, *(t.se_rating for t in CATALOGUE if t.family != "singles")})


def widths(se_fine: float, base: float) -> tuple[float, float]:
    """How far the refinement may move D below and above se_fine (``base``: the hardest step's technique rating)."""
    below = max((r for r in _RATINGS if r < base), default=base - 2 * TIE_WIDTH)
    above = min((r for r in _RATINGS if r > se_fine), default=se_fine + 2 * MAX_WIDTH)
    down = min(max((se_fine - below) / 2, TIE_WIDTH), MAX_WIDTH)
    up = min(max((above - se_fine) / 2, TIE_WIDTH), MAX_WIDTH)
    return down, up


def spread(se_fine: float, base: float, z: float) -> float:
    """se_fine moved by tanh(z) times the width on z's side."""
    down, up = widths(se_fine, base)
    return se_fine + (up if z > 0 else down) * math.tanh(z)


def score(vector: Sequence[float], singles_only: bool = False, base: float | None = None) -> float:
    """D for a feature vector: by effort per cell for a singles puzzle, else se_fine moved by the refinement
    (``spread``; ``base``, the hardest step's technique rating, defaults to se_fine)."""
    if singles_only:
        return singles_d(vector[FEATURES.index("ln_effort_per_cell")])
    refinement = INTERCEPT + sum(w * x for w, x in zip(WEIGHTS[1:], vector[1:]))
    return spread(vector[0], vector[0] if base is None else base, refinement / REFINEMENT_SD)


def zone(d: float) -> str:
    """The zone label of a D value: Easy, Medium, Hard, Expert or Extreme."""
    for name, upper in ZONES:
        if d < upper:
            return name
    return "Extreme"
