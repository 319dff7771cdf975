"""The report's statistics on hand-checked cases and on data drawn from a known model."""

from __future__ import annotations

import numpy as np
import pytest

from webapp.research import analysis


def test_ranks_average_ties() -> None:
    # 10 is smallest (rank 1); the two 20s share ranks 2 and 3 (2.5 each); 30 is rank 4.
    assert analysis.ranks(np.array([20.0, 10.0, 30.0, 20.0])).tolist() == [2.5, 1.0, 4.0, 2.5]


def test_correlations_of_hand_checked_pairs() -> None:
    x = np.array([1.0, 2.0, 3.0, 4.0])
    assert analysis.pearson(x, 2 * x + 1) == pytest.approx(1.0)
    assert analysis.spearman(x, x**3) == pytest.approx(1.0)  # monotone, not linear: rho 1
    assert analysis.pearson(x, x**3) < 1.0
    assert analysis.spearman(x, -x) == pytest.approx(-1.0)
    # y = (1, 3, 2, 4): ranks differ from x's by d = (0, 1, -1, 0), sum d^2 = 2, rho = 1 - 6*2 / (4*15) = 0.8.
    assert analysis.spearman(x, np.array([1.0, 3.0, 2.0, 4.0])) == pytest.approx(0.8)
    assert np.isnan(analysis.pearson(x, np.ones(4)))


def test_bootstrap_interval_covers_the_estimate_and_narrows_with_n() -> None:
    rng = np.random.default_rng(3)
    small = analysis.bootstrap_mean(rng.normal(5.0, 1.0, 10), seed=1)
    large = analysis.bootstrap_mean(rng.normal(5.0, 1.0, 1000), seed=1)
    assert small.low <= small.value <= small.high and large.low <= large.value <= large.high
    assert large.high - large.low < small.high - small.low
    assert large.low < 5.0 < large.high


def test_two_way_fit_recovers_a_known_model() -> None:
    rng = np.random.default_rng(11)
    b = np.log(np.array([5.0, 8.0, 12.0, 20.0, 30.0, 45.0, 60.0, 90.0]) * 60)  # puzzle difficulty (log seconds)
    theta = rng.normal(0.0, 0.4, 30)
    theta -= theta.mean()
    log_t = b[:, None] - theta[None, :] + rng.normal(0.0, 0.1, (8, 30))
    log_t[2, 5] = np.nan  # a cell never solved
    fit = analysis.fit_two_way(log_t)
    assert np.abs(fit.b - b).max() < 0.1 and np.abs(fit.theta - theta).max() < 0.15
    assert fit.residual_sd == pytest.approx(0.1, abs=0.03)
    rows = analysis.correlations({"truth": list(b), "noise": list(rng.normal(size=8))}, list(np.nanmean(log_t, 1)), 2)
    assert rows[0].rating == "truth" and rows[0].spearman.value == pytest.approx(1.0)
    assert rows[0].spearman.low <= rows[0].spearman.value <= rows[0].spearman.high


def test_correlations_skip_ratings_with_too_few_values() -> None:
    rows = analysis.correlations({"sparse": [1.0, None, None, 2.0]}, [1.0, 2.0, 3.0, 4.0], seed=1)
    assert rows == []


def test_correlations_agree_with_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(5)
    x = rng.normal(size=25)
    y = x + rng.normal(size=25)
    y[3] = y[4]  # a tie
    assert analysis.pearson(x, y) == pytest.approx(stats.pearsonr(x, y)[0])
    assert analysis.spearman(x, y) == pytest.approx(stats.spearmanr(x, y)[0])


def test_bootstrap_median_of_a_hand_checked_sample() -> None:
    found = analysis.bootstrap_median(np.array([1.0, 2.0, 3.0, 4.0, 100.0]), seed=2)
    assert found.value == 3.0  # the middle of five values, untouched by the outlier
    assert 1.0 <= found.low <= 3.0 <= found.high <= 100.0
