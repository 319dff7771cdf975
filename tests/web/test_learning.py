"""The time model learns from every game (``webapp.games.learning``): simulated players of known speed play puzzles
of known difficulty through the real endpoints while the server's clock moves by their times, some giving up past
their patience; the fit over every game recovers both, censoring the given-up games where dropping them biases the
puzzles low. Also: bad input bounded, a failed fit keeping the last, one fit at a time, study games only with their
study's leave, and the game page saying how long people took."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from flask import Flask
from helpers.learning import MADE, PLAYERS, PUZZLES, banked_app, by_digit, play  # noqa: F401
from helpers.play import open_game, show_game
from helpers.web import Clock, csrf_token_of
from sqlalchemy import select

from sudoku_engine.grid import format_values
from sudoku_engine.isomorph import canonical
from webapp import db, jobs
from webapp.bank import pool
from webapp.games import calibration, learning, timefit
from webapp.models import Calibration, PuzzleTime
from webapp.research.analysis import spearman


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """The banked test app."""
    return banked_app(make_app)


def priors(app: Flask) -> list[float]:
    """The prior minutes of each puzzle, as its bank row holds them."""
    with db.sessions_of(app)() as session:
        known = [pool.known_rating(session, m.puzzle.values) for m in MADE]
    return [k.prior_minutes for k in known if k is not None and k.prior_minutes is not None]


def fitted_from(app: Flask, drop_censored: bool = False) -> tuple[timefit.Fit, learning.Arrays, learning.Collected]:
    """The fit over the games as the job collects them (or with the censored ones dropped)."""
    with db.sessions_of(app)() as session:
        found = learning.collect(session)
    games = [g for g in found.games if not (drop_censored and g.censored)]
    built = learning.arrays(games)
    return timefit.fit(built.observations, built.priors), built, found


def fitted_b(fitted: timefit.Fit, built: learning.Arrays) -> np.ndarray:
    """A fit's b of each puzzle of MADE, in order."""
    return np.array([fitted.b[built.puzzles.index(format_values(canonical(m.puzzle.values)))] for m in MADE])


@pytest.mark.own_database  # 600 games through the endpoints: once, on SQLite (the other tests here run on both)
def test_the_fit_over_every_game_recovers_known_puzzles_and_players(app: Flask, clock: Clock) -> None:
    rng = np.random.default_rng(29)
    prior = priors(app)
    assert len(prior) == PUZZLES
    b = np.log(prior) + 0.5 + rng.normal(0.0, 0.4, PUZZLES)  # each puzzle's true median minutes (log)
    theta = rng.normal(0.0, 0.4, PLAYERS)  # (no simulated finish comes near the absurd 20 s)
    minutes = np.exp(b[None, :] - theta[:, None] + rng.normal(0.0, 0.25, (PLAYERS, PUZZLES)))
    patience = float(np.quantile(minutes, 0.85))  # past this many minutes a player leaves the puzzle
    quit_on: set[int] = set()
    theta_of: dict[str, float] = {}
    for i in range(PLAYERS):
        client = app.test_client()
        for j in range(PUZZLES):
            if minutes[i, j] > patience:
                quit_on.add(j)
                play(client, clock, j, float(minutes[i, j]), stop_at=patience)
            else:
                play(client, clock, j, float(minutes[i, j]))
        cookie = client.get_cookie("sudoku_player")
        assert cookie is not None
        theta_of[f"p:{cookie.value}"] = float(theta[i])
    clock.advance(2 * learning.ABANDONED_AFTER_S)  # the left games are abandoned now
    fitted, built, found = fitted_from(app)
    assert len(found.games) == PLAYERS * PUZZLES and sum(g.censored for g in found.games) > 0
    order = [built.puzzles.index(format_values(canonical(m.puzzle.values))) for m in MADE]
    assert spearman(fitted.b[order], b) >= 0.9
    assert sorted(built.players) == sorted(theta_of)
    truth = np.array([theta_of[p] for p in built.players])
    assert spearman(fitted.theta, truth) >= 0.9
    dropped, dropped_built, _ = fitted_from(app, drop_censored=True)
    hit = sorted(quit_on)  # the puzzles someone left unfinished; the others tell the common offset of b and theta
    rest = [j for j in range(PUZZLES) if j not in quit_on]
    assert hit and rest
    shift = fitted.b[order] - b
    bias_censored = float(np.mean(shift[hit]) - np.mean(shift[rest]))
    dropped_shift = fitted_b(dropped, dropped_built) - b
    bias_dropped = float(np.mean(dropped_shift[hit]) - np.mean(dropped_shift[rest]))
    left = np.array([sum(g.censored and g.puzzle == built.puzzles[order[j]] for g in found.games) for j in range(20)])
    assert abs(bias_censored) < 0.05
    assert bias_dropped < bias_censored - 0.03  # without the slowest players' times the puzzles look faster ...
    lower = fitted_b(dropped, dropped_built) - fitted.b[order]
    assert spearman(lower, -left.astype(float)) > 0.8  # ... the more the more players left it
    assert lower[left >= 7].max() < lower[left <= 1].min() - 0.02
    with db.sessions_of(app)() as session:
        version = learning.fit_now(session)
        assert isinstance(version, Calibration) and version.state == "done" and version.active
        assert version.games == PLAYERS * PUZZLES and version.players == PLAYERS
        rows = {
            row.puzzle: row
            for row in session.scalars(select(PuzzleTime).where(PuzzleTime.calibration_id == version.id))
        }
        assert len(rows) == PUZZLES and all(row.finishers + row.censored == PLAYERS for row in rows.values())
        assert version.figures is not None and version.figures["checked"] >= learning.MIN_CHECKED


def test_bad_input_is_bounded_and_a_failed_fit_keeps_the_last(
    app: Flask, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Absurd times (a finish 5 s after the showing, a game left open 30 days), a puzzle played again by its player,
    a player with one game, a puzzle with one finisher, a player who gives up everything: no crash, the absurd ones
    left out, every estimate finite and near its prior. Then a fit that fails is stored as failed and the version in
    force stays."""
    steady = [app.test_client() for _ in range(6)]
    for client in steady:
        for j in range(1, 6):
            play(client, clock, j, 12.0)
    play(steady[0], clock, 1, 12.0)  # played again: left out
    play(app.test_client(), clock, 0, 0.05)  # 3 s: absurd
    quitter = app.test_client()
    for j in range(1, 6):
        play(quitter, clock, j, 12.0, stop_at=1.0)
    lone = app.test_client()
    play(lone, clock, 6, 40.0)  # one game, slow: the one finisher of puzzle 6 and a player with one game
    left = app.test_client()
    game_id = open_game(left, str(MADE[7].puzzle))
    page = show_game(left, game_id)
    clock.advance(30 * 86400.0)  # left open and in sight for 30 days, then finished in one go
    headers = {"X-CSRFToken": csrf_token_of(page), "HX-Request": "true"}
    made = MADE[7]
    for digit, cells in by_digit(str(made.puzzle), str(made.solution)):
        left.post(f"/g/{game_id}/cells", data={"cells": cells, "digit": digit, "mode": "digit"}, headers=headers)
    clock.advance(2 * learning.ABANDONED_AFTER_S)
    fitted, built, found = fitted_from(app)
    assert found.left_out["absurd"] == 1 and found.left_out["repeat"] == 1
    month = [g for g in found.games if g.puzzle == format_values(canonical(MADE[7].puzzle.values))]
    assert [g.minutes for g in month] == [pytest.approx(learning.IDLE_CAP_S / 60)]  # the 30 days count 5 minutes
    assert np.all(np.isfinite(fitted.b)) and np.all(np.isfinite(fitted.theta))
    prior = built.priors.log_minutes + fitted.zone_scale[built.priors.zone]
    bound = timefit.HUBER * timefit.TAU_PUZZLE**2 / fitted.sigma
    assert np.max(np.abs(fitted.b - prior)) <= 6 * bound  # no puzzle runs away from its prior
    with db.sessions_of(app)() as session:
        good = learning.fit_now(session)
        assert isinstance(good, Calibration) and good.state == "done"

        def broken(*_args: object) -> timefit.Fit:
            raise FloatingPointError("the fit diverged")

        monkeypatch.setattr(timefit, "fit", broken)
        failed = learning.fit_now(session)
        assert isinstance(failed, Calibration) and failed.state == "failed" and "diverged" in (failed.problem or "")
        assert calibration.in_force(session).version is not None
        assert calibration.in_force(session).version.id == good.id  # type: ignore[union-attr]


def test_one_fit_at_a_time_and_the_lease_frees_itself(app: Flask, clock: Clock) -> None:
    with db.sessions_of(app)() as first, db.sessions_of(app)() as second:
        assert jobs.take_lease(first, learning.LEASE, "host-a:1", 60.0)
        assert not jobs.take_lease(second, learning.LEASE, "host-b:2", 60.0)
        assert learning.fit_now(second) == "another fit of the time model is running"
        clock.advance(61.0)  # a holder that died: its lease runs out
        assert jobs.take_lease(second, learning.LEASE, "host-b:2", 60.0)
        jobs.release_lease(second, learning.LEASE, "host-b:2")
        assert jobs.take_lease(first, learning.LEASE, "host-a:1", 60.0)


def test_the_scheduled_job_fits_only_when_due(app: Flask, clock: Clock) -> None:
    client = app.test_client()
    for j in range(learning.MIN_FINISHED):
        play(client, clock, j, 5.0)
    with db.sessions_of(app)() as session:
        assert learning.due(session, 3600)
    learning.fit_job(app, learning.SCHEDULED)
    with db.sessions_of(app)() as session:
        versions = learning.versions(session)
        assert len(versions) == 1 and versions[0].state == "done"
        assert not learning.due(session, 3600)  # nothing new, and too soon
        clock.advance(4000.0)
        assert not learning.due(session, 3600)  # too long ago, but no game finished since
    play(app.test_client(), clock, 0, 5.0)  # a new game finished
    with db.sessions_of(app)() as session:
        assert learning.due(session, 3600) and not learning.due(session, 0)  # 0: never on a schedule


def test_the_game_page_says_how_long_people_took(app: Flask, clock: Clock) -> None:
    """Once the fit over every game knows a puzzle that PEOPLE_MIN or more finished, its game page gives their
    median time beside the prediction."""
    times = [6.0, 8.0, 9.0, 10.0, 12.0, 30.0]
    for index, minutes in enumerate(times):
        client = app.test_client()
        play(client, clock, 0, minutes)
        for j in range(1, 4):
            play(client, clock, j, 8.0 + index)
    with db.sessions_of(app)() as session:
        version = learning.fit_now(session)
        assert isinstance(version, Calibration) and version.state == "done"
    page = app.test_client()
    game_id = open_game(page, str(MADE[0].puzzle))
    html = page.get(f"/g/{game_id}").get_data(as_text=True)
    assert 'class="people-minutes" data-finishers="6"' in html
    assert "people took a median of 10 minutes (6 finished it)" in " ".join(html.split())
    other = open_game(page, str(MADE[5].puzzle))  # played by nobody
    assert "people-minutes" not in page.get(f"/g/{other}").get_data(as_text=True)


def test_study_games_teach_the_model_only_with_their_studys_leave(app: Flask) -> None:
    """A study's participants count as players only when the study allows it (``calibrate``)."""
    from helpers.studies import EMAIL, PASSWORD, create, enter_study, form_token, public_id

    researcher = app.test_client()
    assert app.test_cli_runner().invoke(args=["user", "create", EMAIL, "--password", PASSWORD]).exit_code == 0
    login = {"email": EMAIL, "password": PASSWORD, "csrf_token": form_token(researcher, "/research/login")}
    assert researcher.post("/research/login", data=login).status_code == 302
    pasted = [(str(MADE[0].puzzle), str(MADE[0].solution))]
    counted = {}
    with jobs.running_in_threads(app):
        for allowed in (False, True):
            fields = {"calibrate": "on"} if allowed else {}
            study_id = create(researcher, pasted, order_scheme="fixed", **fields)
            entry = f"/s/{public_id(app, study_id)}"
            participant = app.test_client()
            enter_study(participant, f"{entry}?participant_label=p{int(allowed)}")
            token = form_token(participant, f"{entry}/go")
            participant.post(f"{entry}/consent", data={"answer": "agree", "csrf_token": token})
            participant.post(f"{entry}/start", data={"csrf_token": token})
            location = participant.get(f"{entry}/go").headers["Location"]
            show_game(participant, location.rsplit("/", 1)[1])
            with db.sessions_of(app)() as session:
                allowed_now = learning.allowed_participants(session)
                counted[allowed] = [s for s in allowed_now.values() if s == study_id]
    assert counted[False] == [] and len(counted[True]) == 1
