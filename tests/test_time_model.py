"""The time model: a trace's work, its minutes, the interval and the words beyond the fit, checked against a trace
recounted here and against people's solving times (the Cloud Sudoku half)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.corpus import corpus_file
from helpers.rating import EULER_01, singles_here

from sudoku_engine import logic, time_model
from sudoku_engine.board import Board
from sudoku_engine.grid import Grid, parse_values
from sudoku_engine.isomorph import canonical
from sudoku_engine.rating import rate
from sudoku_engine.slider import describe, typical_minutes
from sudoku_engine.techniques import BY_ID

# Golden Nugget (tarek 2007, ER 11.9): nested forcing chains, far beyond any timed human solve.
GOLDEN_NUGGET = ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7....."


def test_work_adds_the_search_of_each_step_of_the_trace():
    """A singles puzzle's work recomputed from its trace, the singles open at each step counted apart from the
    engine: per step, its kind's weight x (empty + 1)^SEARCH_POWER / (open + 1)^SINGLES_POWER; minutes = the app
    population's scale x work."""
    form = canonical(parse_values(EULER_01))
    board = Board.from_values(form)
    expected = 0.0
    for step in logic.solve(Grid(form)).steps:
        empty, open_ = board.values.count(0), singles_here(board)
        weight = time_model.SINGLE_WEIGHTS[BY_ID[step.technique].id]
        expected += weight * (empty + 1) ** time_model.SEARCH_POWER / (open_ + 1) ** time_model.SINGLES_POWER
        board.apply(step)
    rating = rate(EULER_01)
    assert rating.work == pytest.approx(expected)
    assert rating.predicted_minutes == pytest.approx(time_model.POPULATIONS["app"] * expected)


def test_a_step_takes_longer_among_more_empty_cells_and_less_with_more_singles_in_sight():
    for tech in (BY_ID["full_house"], BY_ID["hidden_single_line"], BY_ID["naked_single"], BY_ID["x_wing"]):
        works = [time_model.step_work(tech, empty, 3) for empty in range(5, 70, 5)]
        assert works == sorted(works) and works[0] < works[-1]
    fewer = [time_model.step_work(BY_ID["hidden_single_box"], 50, open_) for open_ in range(0, 20)]
    assert fewer == sorted(fewer, reverse=True) and fewer[0] > fewer[-1]


def test_the_slider_never_promises_less_time_further_up():
    """Along the slider the typical minutes and the estimate the page shows never fall, and the words never go
    back from an extrapolated time to a figure."""
    steps = [k / 2 for k in range(201)]
    typical = [typical_minutes(s) for s in steps]
    shown = [describe(s).time for s in steps]
    assert typical == sorted(typical) and typical[0] < typical[-1]
    assert [t.minutes for t in shown] == sorted(t.minutes for t in shown)
    beyond = [t.extrapolated for t in shown]
    assert beyond == sorted(beyond) and not beyond[0] and beyond[-1]


def test_golden_nugget_is_beyond_the_fit_and_an_easy_puzzle_is_not():
    hard = rate(GOLDEN_NUGGET)
    easy = rate(EULER_01)
    assert hard.time.extrapolated and hard.as_dict()["minutes_extrapolated"] is True
    assert not easy.time.extrapolated and easy.as_dict()["minutes_extrapolated"] is False
    assert hard.time.words == "several hours; most players do not finish"
    assert not any(ch.isdigit() for ch in hard.time.words) and hard.time.range_words == ""
    low, high = easy.as_dict()["minutes_interval"]
    assert low < easy.predicted_minutes < high
    assert easy.time.words.startswith("about ") and easy.time.range_words


def test_the_interval_holds_eight_in_ten_solves_and_widens_beyond_the_fit():
    """The 80% interval of a log-normal solve around the prediction (a mean): its log centre is the mean's log less
    half the variance, its half-width 1.2816 standard deviations; past FIT_TOP_D the top widens, the bottom not."""
    sd = math.hypot(time_model.MODEL_SD, time_model.PLAYER_SD)
    inside = time_model.estimate(10.0, 3.0)
    assert math.log(inside.low) == pytest.approx(math.log(10.0) - sd * sd / 2 - 1.2816 * sd, abs=1e-3)
    assert math.log(inside.high) == pytest.approx(math.log(10.0) - sd * sd / 2 + 1.2816 * sd, abs=1e-3)
    beyond = time_model.estimate(10.0, time_model.FIT_TOP_D + 2)
    wider = math.hypot(sd, 2 * time_model.EXTRAPOLATION_SD)
    assert math.log(beyond.high) == pytest.approx(math.log(10.0) - sd * sd / 2 + 1.2816 * wider, abs=1e-3)
    assert beyond.low == pytest.approx(inside.low) and beyond.high > inside.high
    assert beyond.extrapolated and not inside.extrapolated
    assert time_model.estimate(time_model.FIT_TOP_MINUTES * 1.5, 3.0).words.endswith("or longer")


@pytest.mark.parametrize(
    "minutes, words",
    [
        (0.2, "1 minute"),
        (1.4, "1 minute"),
        (7.6, "8 minutes"),
        (23.0, "25 minutes"),
        (61, "1 hour"),
        (160, "2.5 hours"),
    ],
)
def test_durations_in_words(minutes, words):
    assert time_model.duration_words(minutes) == words


@pytest.mark.corpus
def test_the_prior_matches_peoples_times_on_the_cloud_sudoku_half():
    """The engine's minutes against the mean times of the players who finished each puzzle (767 puzzles of an
    Android app, 10-43 finishers each): the slope of log people's time on log predicted within 0.85-1.15, the
    median predicted / people's time within 0.8-1.25 for singles-only, SE < 4.5 and SE >= 4.5 puzzles, and the
    order fair (Pearson r of the logs at least 0.6). In-sample: the constants were fitted on this half
    (``benchmarks/human_times.py`` gives the out-of-fold figures)."""
    path = corpus_file("cloudsudoku_human_times_even.tsv")
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    rows = [dict(zip(header, line.split("\t"))) for line in lines[1:] if line.strip()]
    ratings = [rate(row["puzzle"]) for row in rows]
    people = np.log([float(row["human_mean_min"]) for row in rows])
    predicted = np.log([r.predicted_minutes for r in ratings])
    assert np.corrcoef(predicted, people)[0, 1] >= 0.6
    assert 0.85 <= np.polyfit(predicted, people, 1)[0] <= 1.15
    groups = {
        "singles": [r.singles_only for r in ratings],
        "SE < 4.5": [not r.singles_only and r.se_like < 4.5 for r in ratings],
        "SE >= 4.5": [r.se_like >= 4.5 for r in ratings],
    }
    for name, keep in groups.items():
        ratio = float(np.median(np.exp(predicted[keep] - people[keep])))
        assert 0.8 <= ratio <= 1.25, (name, ratio)
