"""The fit of log t = b(puzzle) - theta(player) + e over many players' games, with the engine's prediction as each
puzzle's prior, given-up and abandoned games as censored times, and bounded influence (``docs/webapp.md``,
"The time model learns").

Pure numpy on plain arrays: ``webapp.games.learning`` reads the games and stores what this returns.

- Each puzzle j has a zone z(j) and a prior m_j: the log of the engine's predicted minutes turned into a median
  (minus half the players' variance). b_j ~ N(m_j + s_z, TAU_PUZZLE^2): a puzzle's deviation from its zone-scaled
  prior, shrunk by how many played it; s_z ~ N(0, TAU_ZONE^2): the population's scale per zone.
- theta_i ~ N(0, TAU_PLAYER^2): a player's speed (positive: faster), shrunk by how many games they finished.
- A finished game is an observation y = log minutes; a given-up or abandoned one says only y > c (censored at the
  time it had taken): in each round it counts as its expected value above c under the current fit (the EM step
  of a censored normal model), never as a finish and never dropped.
- Residuals beyond HUBER x sigma weigh HUBER x sigma / |r| (Huber's weights), so an absurd time moves a puzzle or a
  player by a bounded amount: a puzzle at most about HUBER x TAU_PUZZLE^2 / sigma per such game.

The rounds update theta, b, s and sigma in turn (an ECM fit) until nothing moves by more than TOLERANCE.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]

TAU_PUZZLE = 0.25  # how far a puzzle's time strays from its zone-scaled prior (log units: the prior's own error)
TAU_PLAYER = 0.6  # the players' spread of speed (log units)
TAU_ZONE = 1.0  # how far a zone's scale may stray from the prior
SIGMA_START = 0.5
SIGMA_FLOOR = 0.05
HUBER = 2.0
ROUNDS = 1000
TOLERANCE = 1e-5


@dataclass(frozen=True)
class Observations:
    """Games as parallel arrays: who played (player index), what (puzzle index), log minutes, censored or not."""

    player: Ints
    puzzle: Ints
    log_minutes: Floats
    censored: Bools


@dataclass(frozen=True)
class Priors:
    """Per puzzle: its prior median log minutes and its zone index; the number of players and zones."""

    log_minutes: Floats
    zone: Ints
    players: int
    zones: int


@dataclass(frozen=True)
class Fit:
    """The fitted puzzle times b (log minutes, a typical player's median), player speeds theta, zone scales s, the
    residual spread sigma, and the rounds it took."""

    b: Floats
    theta: Floats
    zone_scale: Floats
    sigma: float
    rounds: int


def normal_tail_mean(alpha: Floats) -> Floats:
    """E[Z | Z > alpha] for a standard normal Z (the inverse Mills ratio), stable far into the tail."""
    tail = 0.5 * np.vectorize(math.erfc)(alpha / math.sqrt(2.0))
    density = np.exp(-0.5 * alpha * alpha) / math.sqrt(2.0 * math.pi)
    ratio = np.divide(density, tail, out=np.zeros_like(alpha), where=tail > 1e-300)
    far = np.maximum(alpha, 1.0)
    return np.where(tail > 1e-300, ratio, far + 1.0 / far - 2.0 / far**3)  # the asymptotic series past underflow


def filled(obs: Observations, mean: Floats, sigma: float) -> Floats:
    """Each observation's value in this round: its own log time, or a censored one's expected value above it."""
    alpha = (obs.log_minutes - mean) / sigma
    above = mean + sigma * normal_tail_mean(alpha)
    return np.where(obs.censored, np.maximum(above, obs.log_minutes), obs.log_minutes)


def spread(obs: Observations, mean: Floats, sigma: float) -> float:
    """The residual SD of the next round: squared residuals (a censored game's expected one above its time) under
    Huber's weights."""
    alpha = (obs.log_minutes - mean) / sigma
    tail = normal_tail_mean(alpha)
    censored_square = sigma * sigma * (1.0 + alpha * tail)  # E[(Y - mean)^2 | Y > c] for a normal Y
    residual = np.where(obs.censored, sigma * tail, obs.log_minutes - mean)
    square = np.where(obs.censored, censored_square, residual * residual)
    weights = huber_weights(residual, sigma)
    return max(SIGMA_FLOOR, float(np.sqrt(np.sum(weights * square) / np.sum(weights))))


def huber_weights(residual: Floats, sigma: float) -> Floats:
    """Full weight within HUBER sigma, HUBER sigma / |r| beyond."""
    limit = HUBER * sigma
    size = np.abs(residual)
    return np.where(size <= limit, 1.0, limit / np.maximum(size, 1e-12))


def shrunk_sums(index: Ints, values: Floats, weights: Floats, count: int, prior_weight: float) -> Floats:
    """Per group: the weighted sum of values over (the weights' sum + prior_weight): a mean shrunk toward 0."""
    total = np.bincount(index, weights * values, minlength=count)
    weight = np.bincount(index, weights, minlength=count)
    return np.asarray(total / (weight + prior_weight), dtype=np.float64)


def fit(obs: Observations, priors: Priors) -> Fit:
    """The censored, robust two-way fit (see the module docstring)."""
    current = Fit(
        b=priors.log_minutes.copy(),
        theta=np.zeros(priors.players),
        zone_scale=np.zeros(priors.zones),
        sigma=SIGMA_START,
        rounds=0,
    )
    for rounds in range(1, ROUNDS + 1):
        following = one_round(obs, priors, current, rounds)
        if moved(current, following) < TOLERANCE:
            return following
        current = following
    return current


def one_round(obs: Observations, priors: Priors, current: Fit, rounds: int) -> Fit:
    """theta, b, the zone scales and sigma, each updated in turn from the others."""
    b, sigma = current.b, current.sigma
    mean = b[obs.puzzle] - current.theta[obs.player]
    y = filled(obs, mean, sigma)
    w = huber_weights(y - mean, sigma)
    ratio = sigma * sigma
    theta = shrunk_sums(obs.player, b[obs.puzzle] - y, w, priors.players, ratio / TAU_PLAYER**2)
    prior = priors.log_minutes + current.zone_scale[priors.zone]
    own = y + theta[obs.player] - prior[obs.puzzle]
    b = prior + shrunk_sums(obs.puzzle, own, w, len(b), ratio / TAU_PUZZLE**2)
    ones = np.ones(len(b))
    scale = shrunk_sums(priors.zone, b - priors.log_minutes, ones, priors.zones, TAU_PUZZLE**2 / TAU_ZONE**2)
    sigma = spread(obs, b[obs.puzzle] - theta[obs.player], sigma)
    return Fit(b=b, theta=theta, zone_scale=scale, sigma=sigma, rounds=rounds)


def moved(before: Fit, after: Fit) -> float:
    """The largest change of any estimate between two rounds."""
    pairs = ((before.b, after.b), (before.theta, after.theta), (before.zone_scale, after.zone_scale))
    largest = max(float(np.max(np.abs(new - old), initial=0.0)) for old, new in pairs)
    return max(largest, abs(after.sigma - before.sigma))
