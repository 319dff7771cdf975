"""A player's own speed against the time model: theta in log t = b_puzzle - theta_player, with b_puzzle the log of
the population's predicted time of the puzzle held fixed (the study report, ``webapp.research.analysis``, fits b and
theta together over many participants; here b is known and one player's theta is fitted alone).

Each completed game gives r = ln(predicted seconds) - ln(solve seconds), one reading of theta. With n readings of
mean m and sample variance s^2 (0 for one reading), the residual variance is pooled with a prior one,
sigma^2 = ((n - 1) s^2 + K sigma0^2) / (n - 1 + K), and theta is shrunk toward 0 (the typical player) by a normal
prior of spread tau: theta = n m / (n + sigma^2 / tau^2), with standard error se = sigma / sqrt(n + sigma^2 / tau^2).
The player's time for a puzzle the population is predicted to need P minutes is P exp(-theta), likely between
P exp(-theta - z se) and P exp(-theta + z se) (z for a 90% interval). ``docs/webapp.md`` documents the same formula.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SIGMA0 = 0.5  # prior residual spread of one solve around a player's own typical time (log units)
PRIOR_READINGS = 2.0  # K: how many readings the prior spread weighs as
TAU = 0.7  # spread of players' speeds around the population (log units: a factor of about 2)
Z90 = 1.6449  # the normal quantile of a two-sided 90% interval
MIN_GAMES = 3  # solved games before a personal time is shown


@dataclass(frozen=True)
class Speed:
    """A player's fitted speed: theta (positive: faster than predicted), its standard error, and the games used."""

    theta: float
    se: float
    games: int

    @property
    def factor(self) -> float:
        """The player's time as a fraction of the predicted time: exp(-theta)."""
        return math.exp(-self.theta)

    def minutes(self, predicted_minutes: float) -> PersonalTime:
        """The player's likely minutes for a puzzle the population is predicted to need ``predicted_minutes``."""
        spread = math.exp(Z90 * self.se)
        centre = predicted_minutes * self.factor
        return PersonalTime(minutes=centre, low=centre / spread, high=centre * spread, games=self.games)


@dataclass(frozen=True)
class PersonalTime:
    """A predicted time for one player, with its 90% interval, in minutes."""

    minutes: float
    low: float
    high: float
    games: int


def fit_speed(predicted_seconds: Sequence[float], solve_seconds: Sequence[float]) -> Speed | None:
    """The player's speed from pairs of (population predicted, actual) solve seconds; None without any usable pair."""
    readings = [
        math.log(p) - math.log(t) for p, t in zip(predicted_seconds, solve_seconds, strict=True) if p > 0 and t > 0
    ]
    n = len(readings)
    if n == 0:
        return None
    mean = sum(readings) / n
    squares = sum((r - mean) ** 2 for r in readings)
    variance = (squares + PRIOR_READINGS * SIGMA0**2) / (n - 1 + PRIOR_READINGS)
    weight = n + variance / TAU**2
    return Speed(theta=n * mean / weight, se=math.sqrt(variance / weight), games=n)
