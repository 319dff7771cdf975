"""The censored, robust two-way fit of log t = b(puzzle) - theta(player) (``webapp.games.timefit``) on synthetic
games of known truth: recovery, censoring against dropping, bounded influence, shrinkage of the thinly played."""

from __future__ import annotations

import math

import numpy as np
import pytest

from webapp.games import timefit
from webapp.research.analysis import spearman as spearman_of

PLAYERS, PUZZLES = 40, 25


def simulated(
    seed: int, patience: float | None = None
) -> tuple[timefit.Observations, timefit.Priors, np.ndarray, np.ndarray]:
    """Every player on every puzzle: log minutes b - theta + noise; a game past ``patience`` (log minutes) is given
    up there (censored). The priors are the truth blurred by 0.3."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(0.0, 0.5, PLAYERS)
    b = rng.normal(math.log(10.0), 0.5, PUZZLES)
    player, puzzle = np.meshgrid(np.arange(PLAYERS), np.arange(PUZZLES), indexing="ij")
    player, puzzle = player.ravel(), puzzle.ravel()
    times = b[puzzle] - theta[player] + rng.normal(0.0, 0.3, len(player))
    censored = np.zeros(len(times), dtype=bool) if patience is None else times > patience
    observed = np.where(censored, patience if patience is not None else 0.0, times)
    priors = timefit.Priors(b + rng.normal(0.0, 0.3, PUZZLES), np.zeros(PUZZLES, dtype=np.int64), PLAYERS, 1)
    return timefit.Observations(player, puzzle, observed, censored), priors, b, theta


def subset(obs: timefit.Observations, keep: np.ndarray) -> timefit.Observations:
    """The observations where ``keep`` is true."""
    return timefit.Observations(obs.player[keep], obs.puzzle[keep], obs.log_minutes[keep], obs.censored[keep])


def test_the_fit_recovers_puzzles_and_players():
    obs, priors, b, theta = simulated(1)
    fitted = timefit.fit(obs, priors)
    assert spearman_of(fitted.b, b) > 0.95 and spearman_of(fitted.theta, theta) > 0.95
    assert fitted.sigma == pytest.approx(0.3, abs=0.05) and fitted.rounds < timefit.ROUNDS


def test_censoring_keeps_b_unbiased_where_dropping_the_given_up_games_biases_it_low():
    obs, priors, b, _theta = simulated(2, patience=math.log(14.0))
    assert 0.1 < obs.censored.mean() < 0.5
    censored = timefit.fit(obs, priors)
    dropped = timefit.fit(subset(obs, ~obs.censored), priors)
    hit = np.unique(obs.puzzle[obs.censored])  # the puzzles someone gave up on
    bias_censored = float(np.mean(censored.b[hit] - b[hit]))
    bias_dropped = float(np.mean(dropped.b[hit] - b[hit]))
    assert abs(bias_censored) < 0.06
    assert bias_dropped < bias_censored - 0.1  # the slow players' times are missing: the puzzles look faster
    treated_as_finished = timefit.fit(
        timefit.Observations(obs.player, obs.puzzle, obs.log_minutes, obs.censored * False), priors
    )
    assert float(np.mean(treated_as_finished.b[hit] - b[hit])) < bias_censored - 0.1


def test_one_absurd_time_moves_its_puzzle_a_bounded_amount():
    """A game logged at 30 days (log minutes 10.7) moves its puzzle's b by far less than a plain mean would."""
    obs, priors, _b, _theta = simulated(3)
    before = timefit.fit(obs, priors)
    absurd = obs.log_minutes.copy()
    absurd[0] = math.log(30 * 24 * 60)
    after = timefit.fit(timefit.Observations(obs.player, obs.puzzle, absurd, obs.censored), priors)
    shift = abs(after.b[obs.puzzle[0]] - before.b[obs.puzzle[0]])
    plain = (absurd[0] - obs.log_minutes[0]) / PLAYERS  # what it moves a plain mean over the puzzle's players
    assert shift < plain / 3
    assert abs(after.theta[obs.player[0]] - before.theta[obs.player[0]]) < 0.3


def test_a_puzzle_played_once_and_a_player_with_one_game_stay_near_their_priors():
    obs, priors, _b, _theta = simulated(4)
    extra = timefit.Observations(
        player=np.append(obs.player, [PLAYERS, 0]),
        puzzle=np.append(obs.puzzle, [0, PUZZLES]),
        log_minutes=np.append(obs.log_minutes, [math.log(200.0), math.log(1.0)]),
        censored=np.append(obs.censored, [False, False]),
    )
    wider = timefit.Priors(
        np.append(priors.log_minutes, math.log(10.0)), np.zeros(PUZZLES + 1, dtype=np.int64), PLAYERS + 1, 1
    )
    fitted = timefit.fit(extra, wider)
    bound = timefit.HUBER * timefit.TAU_PUZZLE**2 / fitted.sigma  # Huber's bounded pull against the prior's
    assert abs(fitted.b[PUZZLES] - math.log(10.0)) <= bound + 0.01  # one finisher at 1 minute: near the prior
    slow = timefit.HUBER * timefit.TAU_PLAYER**2 / fitted.sigma
    assert -slow - 0.01 <= fitted.theta[PLAYERS] < 0  # one game at 200 minutes: a slow player, within Huber's bound
    assert np.all(np.isfinite(fitted.b)) and np.all(np.isfinite(fitted.theta))


def test_a_player_who_gives_up_everything_is_a_slow_player_not_a_crash():
    obs, priors, _b, _theta = simulated(5)
    quitter = obs.player == 0
    censored = obs.censored | quitter
    short = np.where(quitter, math.log(2.0), obs.log_minutes)  # gave up after 2 minutes each time
    fitted = timefit.fit(timefit.Observations(obs.player, obs.puzzle, short, censored), priors)
    assert np.all(np.isfinite(fitted.b)) and math.isfinite(fitted.sigma)
    baseline = timefit.fit(subset(obs, ~quitter), priors)
    assert np.max(np.abs(fitted.b - baseline.b)) < 0.15  # quitting early says little about the puzzles


def test_the_tail_mean_of_a_normal():
    """E[Z | Z > a] for a standard normal: 0.7979 at 0 (2 phi(0)), and close to a + 1/a far in the tail."""
    values = timefit.normal_tail_mean(np.array([0.0, 1.0, 8.0, 40.0]))
    assert values[0] == pytest.approx(math.sqrt(2 / math.pi), abs=1e-9)
    assert values[1] == pytest.approx(1.5251352, abs=1e-6)
    assert values[2] == pytest.approx(8.1211, abs=1e-3) and values[3] == pytest.approx(40.025, abs=1e-2)
