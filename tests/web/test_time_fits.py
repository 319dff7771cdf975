"""The time model's page and commands: every researcher sees the version in force beside the prior and the history
of versions; only administrators fit (as a job on the queue) or roll back; ``flask calibration fit | list | use``."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from helpers.jobs import wait_for
from helpers.learning import banked_app, play
from helpers.team import ADMIN, RESEARCHER, account, logged_in, post
from helpers.web import Clock
from sqlalchemy import select

from webapp import db, jobs
from webapp.games import calibration, learning
from webapp.models import Calibration


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """The banked test app of test_learning, with an administrator and a researcher."""
    made = banked_app(make_app)
    account(made, ADMIN, admin=True)
    account(made, RESEARCHER)
    return made


def games_played(app: Flask, clock: Clock, players: int = 3) -> None:
    """Enough finished games for a fit: each player every puzzle, a little slower than the last."""
    for index in range(players):
        client = app.test_client()
        for j in range(8):
            play(client, clock, j, 4.0 + index)


def finished_version(app: Flask) -> Calibration | None:
    """The one version of the time model once its fit has ended, else None."""
    with db.sessions_of(app)() as session:
        found = session.scalars(select(Calibration).where(Calibration.state != "running")).first()
        if found is not None:
            session.expunge(found)
        return found


def test_the_page_shows_the_prior_until_a_fit_and_then_its_check(app: Flask, clock: Clock) -> None:
    researcher = logged_in(app, RESEARCHER)
    page = researcher.get("/research/time-model").get_data(as_text=True)
    assert "In force: the engine&#39;s prior" in page and 'id="no-versions"' in page
    assert 'id="fit-now"' not in page  # only administrators fit
    assert researcher.get("/research/").get_data(as_text=True).count('id="time-model-link"') == 1
    games_played(app, clock, players=7)  # 56 finished games: the latest fifth, 11, check the fit
    admin = logged_in(app, ADMIN)
    with jobs.running_in_threads(app):
        status, _page = post(admin, "/research/time-model/fit")
        assert status == 303  # queued: the fit runs on the consumer, not in the request
        version = wait_for(lambda: finished_version(app), "the queued fit")
    assert version.state == "done" and version.active and version.games == 56 and version.players == 7
    page = researcher.get("/research/time-model").get_data(as_text=True)
    assert f"the fit over 56 games of 7 players, version {version.id}" in page
    assert 'id="agreement"' in page and 'data-part="prior"' in page and 'data-part="fit"' in page
    assert "<svg" in page and 'id="zone-scales"' in page
    assert re.search(rf'data-version="{version.id}" data-state="done" class="in-force"', page)


def test_only_administrators_fit_and_roll_back(app: Flask, clock: Clock) -> None:
    researcher = logged_in(app, RESEARCHER)
    assert post(researcher, "/research/time-model/fit")[0] == 403
    assert post(researcher, "/research/time-model/use", version="prior")[0] == 403
    games_played(app, clock)
    with db.sessions_of(app)() as session:
        first = learning.fit_now(session)
        assert isinstance(first, Calibration)
        play(app.test_client(), clock, 0, 9.0)
        second = learning.fit_now(session)
        assert isinstance(second, Calibration) and second.active
        first_id, second_id = first.id, second.id
    admin = logged_in(app, ADMIN)
    assert post(admin, "/research/time-model/use", version=str(first_id))[0] == 303
    with db.sessions_of(app)() as session:
        assert calibration.in_force(session).version.id == first_id  # type: ignore[union-attr]
    assert post(admin, "/research/time-model/use", version="prior")[0] == 303
    with db.sessions_of(app)() as session:
        assert calibration.in_force(session).version is None
    assert post(admin, "/research/time-model/use", version="x")[0] == 400
    assert post(admin, "/research/time-model/use", version="\u00b2")[0] == 400  # a digit to isdigit(), not to int()
    assert post(admin, "/research/time-model/use", version="99999")[0] == 409
    assert post(admin, "/research/time-model/use", version=str(second_id))[0] == 303


def test_a_study_refit_is_a_version_the_pages_use(app: Flask) -> None:
    """A study's refit goes into force as a version: the slider's minutes follow ln(minutes) = a + b ln(prior)."""
    with db.sessions_of(app)() as session:
        version = calibration.put_in_force(session, None, 0.5, 1.0, 4)  # type: ignore[arg-type]
        shown = calibration.slider_description(session, 20.0)
    base = calibration.describe(20.0)
    assert version.model == "prior" and shown.time.minutes == pytest.approx(base.predicted_minutes * 1.6487, rel=1e-3)
    text = logged_in(app, RESEARCHER).get("/research/time-model").get_data(as_text=True)
    assert f"In force: a refit from study None (4 puzzles), version {version.id}." in text


def test_the_commands_fit_list_and_roll_back(app: Flask, clock: Clock) -> None:
    runner = app.test_cli_runner()
    none = runner.invoke(args=["calibration", "fit"])
    assert none.exit_code == 1 and f"a fit needs {learning.MIN_FINISHED} finished games; there are 0" in none.output
    assert "the engine's prior is in force" in runner.invoke(args=["calibration", "list"]).output
    games_played(app, clock)
    fitted = runner.invoke(args=["calibration", "fit"])
    assert fitted.exit_code == 0 and "is in force: 24 games of 3 players, 8 puzzles" in fitted.output
    listed = runner.invoke(args=["calibration", "list"]).output
    assert re.search(r"^\*    1 \d{4}-\d\d-\d\d \d\d:\d\d players  done     games     24 players     3$", listed, re.M)
    back = runner.invoke(args=["calibration", "use", "prior"])
    assert back.exit_code == 0 and "In force: the engine's prior" in back.output
    assert runner.invoke(args=["calibration", "use", "1"]).exit_code == 0
    bad = runner.invoke(args=["calibration", "use", "seven"])
    assert bad.exit_code == 2 and "VERSION is a number" in bad.output
    assert runner.invoke(args=["calibration", "use", "42"]).exit_code == 1
