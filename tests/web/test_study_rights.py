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
from job_support import computed_report
from sqlalchemy import func, select
from test_play_routes import blanks, game_row
from test_studies import EMAIL, consumer, create, enter_study, form_token, public_id
from test_team import account, logged_in
from web_support import csrf_token_of

from sudoku_engine.generate import generate_puzzle
from sudoku_engine.grid import cell_name
from webapp import db
from webapp.models import Event, Game, Participant, Study, StudyReport
from webapp.study.studies import label_hash


@pytest.fixture(scope="module")
def puzzles() -> list[tuple[str, str]]:
    """Two easy generated puzzles with their solutions."""
    made = [generate_puzzle(seed=2300 + i, givens=62) for i in range(2)]
    return [(str(m.puzzle), str(m.solution)) for m in made]


__all__ = ["consumer"]  # test_studies' job consumer for every test: studies are prepared and reports computed by it


@pytest.fixture
def researcher(app: Flask) -> FlaskClient:
    """A logged-in researcher."""
    account(app, EMAIL)
    return logged_in(app, EMAIL)


class Person:
    """A participant's browser in one study."""

    def __init__(self, app: Flask, study_id: int, label: str) -> None:
        self.app, self.client = app, app.test_client()
        self.base = f"/s/{public_id(app, study_id)}"
        self.label = label
        assert enter_study(self.client, f"{self.base}?participant_label={label}").status_code == 303
        self.token = form_token(self.client, f"{self.base}/go")

    def post(self, path: str, **fields: str) -> tuple[int, str]:
        """A form post to a study page; the status and the page."""
        answer = self.client.post(f"{self.base}/{path}", data={**fields, "csrf_token": self.token})
        return answer.status_code, answer.get_data(as_text=True)

    def start(self) -> str:
        """Consent, start; the id of the first puzzle's game."""
        assert self.post("consent", answer="agree")[0] == 303
        assert self.post("start")[0] == 303
        return self.current_game()

    def current_game(self) -> str:
        """The id of the game the participant is on."""
        location = self.client.get(f"{self.base}/go").headers["Location"]
        assert "/g/" in location, location
        return location.rsplit("/", 1)[1]

    def cell(self, game_id: str, cell: int, digit: str) -> int:
        """Enter a digit on the board; the status."""
        headers = {"X-CSRFToken": self.token, "HX-Request": "true"}
        return self.client.post(
            f"/g/{game_id}/cell/{cell_name(cell)}", data={"digit": digit}, headers=headers
        ).status_code

    def solve(self, game_id: str) -> None:
        """Solve the game as a player would."""
        solve(self.app, self.client, self.token, game_id)


def solve(app: Flask, client: FlaskClient, token: str, game_id: str) -> None:
    """Solve a game on the board as a player would."""
    game = game_row(app, game_id)
    headers = {"X-CSRFToken": token, "HX-Request": "true"}
    for cell in blanks(game.puzzle):
        answer = client.post(
            f"/g/{game_id}/cell/{cell_name(cell)}", data={"digit": game.solution[cell]}, headers=headers
        )
        assert answer.status_code == 200
    assert game_row(app, game_id).completed_at is not None


def rows_of(client: FlaskClient, study_id: int, kind: str) -> list[dict[str, str]]:
    """The rows of a CSV export."""
    response = client.get(f"/research/studies/{study_id}/export/{kind}")
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))


def stored(app: Flask, model: type, **where: object) -> int:
    """How many rows of a table match."""
    with db.sessions_of(app)() as session:
        query = select(func.count()).select_from(model)
        for name, value in where.items():
            query = query.where(getattr(model, name) == value)
        return int(session.scalar(query) or 0)


def report_bodies(app: Flask, study_id: int) -> list[str]:
    """The study's stored reports (their figures name participants by public id)."""
    with db.sessions_of(app)() as session:
        return [row.body or "" for row in session.scalars(select(StudyReport).where(StudyReport.study_id == study_id))]


def participant_row(app: Flask, study_id: int, label: str) -> Participant | None:
    """The participant who arrived with a label (found by its keyed hash, as stored)."""
    with db.sessions_of(app)() as session:
        hashed = label_hash(str(app.secret_key), label)
        return session.scalar(
            select(Participant).where(Participant.study_id == study_id, Participant.label_hash == hashed)
        )


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
