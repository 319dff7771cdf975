"""A participant's rights through the app: give up on a puzzle, withdraw keeping or deleting their data, and a
researcher's deletion of one participant's data by label; the exports and the report say what was withdrawn."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.jobs import computed_report
from helpers.play import blanks, game_row
from helpers.rights import Person, participant_row, stored
from helpers.studies import (
    EMAIL,
    consumer,  # noqa: F401  (fixtures)
    create,
    form_token,
)
from helpers.team import account, logged_in
from helpers.web import csrf_token_of
from sqlalchemy import select

from sudoku_engine.generate import generate_puzzle
from webapp import db
from webapp.models import Event, Game, Study, StudyReport


@pytest.fixture(scope="module")
def puzzles() -> list[tuple[str, str]]:
    """Two easy generated puzzles with their solutions."""
    made = [generate_puzzle(seed=2300 + i, givens=62) for i in range(2)]
    return [(str(m.puzzle), str(m.solution)) for m in made]


@pytest.fixture
def researcher(app: Flask) -> FlaskClient:
    """A logged-in researcher."""
    account(app, EMAIL)
    return logged_in(app, EMAIL)


def rows_of(client: FlaskClient, study_id: int, kind: str) -> list[dict[str, str]]:
    """The rows of a CSV export."""
    response = client.get(f"/research/studies/{study_id}/export/{kind}")
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))


def report_bodies(app: Flask, study_id: int) -> list[str]:
    """The study's stored reports (their figures name participants by public id)."""
    with db.sessions_of(app)() as session:
        return [row.body or "" for row in session.scalars(select(StudyReport).where(StudyReport.study_id == study_id))]


def test_giving_up_is_recorded_and_the_study_goes_on(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles, order_scheme="fixed", breaks="")
    person = Person(app, study_id, "stuck")
    first = person.start()
    game = game_row(app, first)
    assert person.cell(first, blanks(game.puzzle)[0], game.solution[blanks(game.puzzle)[0]]) == 200
    assert 'id="give-up"' in person.client.get(f"/g/{first}").get_data(as_text=True)
    confirm = person.client.get(f"{person.base}/give-up")
    assert confirm.status_code == 200 and 'id="give-up-confirm"' in confirm.get_data(as_text=True)
    assert game_row(app, first).gave_up_at is None  # the confirmation page records nothing
    assert person.post("give-up")[0] == 303
    assert game_row(app, first).gave_up_at is not None and game_row(app, first).completed_at is None
    second = person.current_game()
    assert second != first and game_row(app, second).puzzle == puzzles[1][0]
    blank = blanks(game.puzzle)[1]
    assert person.cell(first, blank, game.solution[blank]) == 409  # a puzzle given up takes no more changes
    with db.sessions_of(app)() as session:
        kinds = list(session.scalars(select(Event.kind).where(Event.game_id == first).order_by(Event.id)))
    assert kinds[-1] == "give_up" and kinds.count("give_up") == 1
    wide = {row["game"]: row for row in rows_of(researcher, study_id, "wide.csv")}
    assert wide[first]["gave_up"] == "1" and wide[first]["completed"] == "0"
    long = [row for row in rows_of(researcher, study_id, "long.csv") if row["game"] == first]
    assert [row["kind"] for row in long] == kinds


def test_give_up_needs_an_open_unsolved_puzzle(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:1], breaks="", time_limit_minutes="1")
    person, late = Person(app, study_id, "early"), Person(app, study_id, "late")
    status, page = person.post("give-up")
    assert status == 409 and "no puzzle open" in page
    game_id = person.start()
    person.solve(game_id)
    status, page = person.post("give-up")
    assert status == 409 and "solved already" in page
    late_game = late.start()
    with db.sessions_of(app)() as session:  # the game was shown two minutes ago: its one minute is over
        game = session.get(Game, late_game)
        assert game is not None
        game.first_shown_at = game.created_at - timedelta(minutes=2)
        session.commit()
    status, page = late.post("give-up")
    assert status == 409 and "time for this puzzle is up" in page
    assert stored(app, Event, kind="give_up") == 0


def test_withdrawing_with_deletion_removes_everything_at_once(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:1], breaks="")
    stays, leaves = Person(app, study_id, "stays"), Person(app, study_id, "leaves")
    stays.solve(stays.start())
    leaving_game = leaves.start()
    leaves.solve(leaving_game)
    leaving_id = participant_row(app, study_id, "leaves").public_id  # type: ignore[union-attr]
    computed_report(researcher, study_id)
    assert any(leaving_id in body for body in report_bodies(app, study_id))
    page = leaves.client.get(f"{leaves.base}/withdraw").get_data(as_text=True)
    assert 'id="withdraw-delete"' in page and 'id="withdraw-keep"' in page
    status, page = leaves.post("withdraw", delete="yes")
    assert status == 200 and 'id="withdrawn-deleted"' in page
    assert participant_row(app, study_id, "leaves") is None
    assert stored(app, Game, id=leaving_game) == 0 and stored(app, Event, game_id=leaving_game) == 0
    assert report_bodies(app, study_id) == []  # the cached reports named them
    assert leaves.client.get(f"{leaves.base}/go").status_code == 403  # the browser no longer holds them
    with db.sessions_of(app)() as session:
        study = session.get(Study, study_id)
        assert study is not None and study.deleted_on_withdrawal == 1 and study.deleted_on_request == 0
    for kind in ("long.csv", "wide.csv"):
        people = {row["participant"] for row in rows_of(researcher, study_id, kind)}
        assert leaving_id not in people and people == {participant_row(app, study_id, "stays").public_id}  # type: ignore[union-attr]
    export = json.loads(researcher.get(f"/research/studies/{study_id}/export/study.json").get_data(as_text=True))
    assert export["withdrawals"] == {"withdrawn_data_kept": 0, "deleted_on_withdrawal": 1, "deleted_on_request": 0}
    report = computed_report(researcher, study_id)
    assert '<span class="deleted-withdrawal">1</span>' in report
    assert report_bodies(app, study_id) and not any(leaving_id in body for body in report_bodies(app, study_id))
    cli = app.test_cli_runner().invoke(args=["study", "report", str(study_id)])
    assert "1 withdrew and had their data deleted" in cli.output and "1 participants solved" in cli.output


def test_withdrawing_and_keeping_the_data_marks_the_participant(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles, order_scheme="latin", breaks="")
    person = Person(app, study_id, "keeps")
    game_id = person.start()
    status, page = person.post("withdraw", delete="maybe")
    assert status == 400 and "yes or no" in page
    assert person.post("withdraw", delete="no")[0] == 303
    row = participant_row(app, study_id, "keeps")
    assert row is not None and row.state == "withdrawn" and row.withdrawn_at is not None
    assert 'id="withdrawn-kept"' in person.client.get(f"{person.base}/go").get_data(as_text=True)
    assert person.client.get(f"/g/{game_id}").status_code == 410  # nothing more is recorded
    wide = rows_of(researcher, study_id, "wide.csv")
    assert [(r["participant"], r["withdrawn"]) for r in wide] == [(row.public_id, "1")]
    page = researcher.get(f"/research/studies/{study_id}").get_data(as_text=True)
    assert '<span class="withdrawn-kept">1</span>' in page
    next_one = Person(app, study_id, "next")
    assert participant_row(app, study_id, "next").latin_row == row.latin_row  # type: ignore[union-attr]  (row given back)
    assert next_one.post("withdraw", delete="yes")[0] == 200
    # A participant who withdrew keeping their data may still have it deleted.
    assert person.post("withdraw", delete="yes")[0] == 200 and participant_row(app, study_id, "keeps") is None


def test_a_researcher_deletes_one_participants_data_by_label(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:1], breaks="")
    alice, bob = Person(app, study_id, "alice"), Person(app, study_id, "bob")
    alice_game, bob_game = alice.start(), bob.start()
    path = f"/research/studies/{study_id}/participants/delete"
    token = csrf_token_of(researcher.get(f"/research/studies/{study_id}").get_data(as_text=True))
    unconfirmed = researcher.post(path, data={"label": "alice", "csrf_token": token})
    assert unconfirmed.status_code == 400 and participant_row(app, study_id, "alice") is not None
    unknown = researcher.post(path, data={"label": "carol", "confirm": "yes", "csrf_token": token})
    assert unknown.status_code == 404 and "No participant" in unknown.get_data(as_text=True)
    assert researcher.post(path, data={"label": "alice", "confirm": "yes"}).status_code == 400  # no CSRF token
    done = researcher.post(path, data={"label": " alice ", "confirm": "yes", "csrf_token": token})
    assert done.status_code == 303
    assert participant_row(app, study_id, "alice") is None and stored(app, Game, id=alice_game) == 0
    assert participant_row(app, study_id, "bob") is not None and stored(app, Game, id=bob_game) == 1
    page = researcher.get(f"/research/studies/{study_id}").get_data(as_text=True)
    assert "Deleted the data of 1 participant" in page and '<span class="deleted-request">1</span>' in page
    viewer = "viewer@lab.example"
    account(app, viewer)
    added = researcher.post(
        f"/research/studies/{study_id}/team", data={"email": viewer, "role": "viewer", "csrf_token": token}
    )
    assert added.status_code == 303
    other = logged_in(app, viewer)
    refused = other.post(
        path, data={"label": "bob", "confirm": "yes", "csrf_token": form_token(other, "/research/account")}
    )
    assert refused.status_code == 403 and participant_row(app, study_id, "bob") is not None
