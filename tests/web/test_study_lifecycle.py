"""A study's lifecycle through the app: draft, open, paused, closed, archived; editing a draft, duplicating, caps
on participants, and a preview that leaves the study's data as it was."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.jobs import computed_report, prepared
from helpers.rights import Person, participant_row, solve, stored
from helpers.studies import (
    EMAIL,
    consumer,  # noqa: F401  (fixtures)
    enter_study,
    form_token,
    public_id,
)
from helpers.team import account, logged_in
from helpers.web import csrf_token_of
from sqlalchemy import func, select, text

from sudoku_engine.generate import generate_puzzle
from webapp import db
from webapp.models import Game, Participant, Study, StudyPuzzle


@pytest.fixture(scope="module")
def puzzles() -> list[tuple[str, str]]:
    """Three easy generated puzzles with their solutions."""
    made = [generate_puzzle(seed=2400 + i, givens=62) for i in range(3)]
    return [(str(m.puzzle), str(m.solution)) for m in made]


def new_researcher(app: Flask, email: str) -> FlaskClient:
    """A new researcher account, logged in."""
    account(app, email)
    return logged_in(app, email)


@pytest.fixture
def researcher(app: Flask) -> FlaskClient:
    """The logged-in owner of the studies."""
    return new_researcher(app, EMAIL)


def draft(client: FlaskClient, pasted: list[tuple[str, str]], **fields: str) -> int:
    """Create a study from the form and wait until it is prepared; its id (a draft)."""
    data = {"name": "Pilot", "puzzles": "\n".join(p for p, _s in pasted), "order_scheme": "fixed", **fields}
    data["csrf_token"] = form_token(client, "/research/studies/new")
    response = client.post("/research/studies/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    study_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert prepared(client.application, study_id).state == "ready"
    return study_id


def research_post(client: FlaskClient, path: str, **fields: str) -> tuple[int, str]:
    """A researcher's form post with a CSRF token; the status and the page."""
    answer = client.post(path, data={**fields, "csrf_token": form_token(client, "/research/account")})
    return answer.status_code, answer.get_data(as_text=True)


def move(client: FlaskClient, study_id: int, to: str) -> tuple[int, str]:
    """Ask for a phase change."""
    return research_post(client, f"/research/studies/{study_id}/phase", to=to)


def phase_of(app: Flask, study_id: int) -> str:
    """The study's stored phase."""
    with db.sessions_of(app)() as session:
        study = session.get(Study, study_id)
        assert study is not None
        return study.phase


def test_a_new_study_is_a_draft_until_opened(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = draft(researcher, puzzles[:1])
    assert phase_of(app, study_id) == "draft"
    page = researcher.get(f"/research/studies/{study_id}").get_data(as_text=True)
    assert 'data-phase="draft"' in page and 'id="phase-open"' in page and 'id="edit-study"' in page
    entry = f"/s/{public_id(app, study_id)}"
    visitor = app.test_client()
    refused = visitor.get(entry)
    assert refused.status_code == 409 and 'id="study-draft"' in refused.get_data(as_text=True)
    assert visitor.post(entry, data={"csrf_token": form_token(visitor, "/")}).status_code == 409
    assert stored(app, Participant, study_id=study_id) == 0
    status, page = move(researcher, study_id, "closed")
    assert status == 409 and "cannot become" in page and phase_of(app, study_id) == "draft"
    status, page = move(researcher, study_id, "sideways")
    assert status == 409 and phase_of(app, study_id) == "draft"
    assert move(researcher, study_id, "open")[0] == 303 and phase_of(app, study_id) == "open"
    assert enter_study(app.test_client(), f"{entry}?participant_label=first").status_code == 303


def test_paused_takes_no_one_new_and_lets_those_in_finish(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = draft(researcher, puzzles[:1], breaks="")
    move(researcher, study_id, "open")
    inside = Person(app, study_id, "inside")
    assert move(researcher, study_id, "paused")[0] == 303
    entry = f"/s/{public_id(app, study_id)}?participant_label=late"
    late = app.test_client()
    page = late.get(entry)
    assert page.status_code == 409 and 'id="study-paused"' in page.get_data(as_text=True)
    token = form_token(late, "/")
    assert late.post(entry, data={"csrf_token": token}).status_code == 409
    assert participant_row(app, study_id, "late") is None
    inside.solve(inside.start())  # those already in go on
    assert inside.post("next")[0] == 303
    assert 'id="thanks"' in inside.client.get(f"{inside.base}/go").get_data(as_text=True)
    assert move(researcher, study_id, "open")[0] == 303
    assert enter_study(late, entry).status_code == 303


def test_closed_lets_no_one_go_on_and_archived_is_hidden_and_read_only(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = draft(researcher, puzzles[:2], breaks="")
    move(researcher, study_id, "open")
    person = Person(app, study_id, "midway")
    game_id = person.start()
    assert move(researcher, study_id, "closed")[0] == 303
    for answer in (person.client.get(f"{person.base}/go"), app.test_client().get(person.base)):
        assert answer.status_code == 410 and 'id="study-closed"' in answer.get_data(as_text=True)
    game = person.client.get(f"/g/{game_id}")
    assert game.status_code == 410 and "This study is closed" in game.get_data(as_text=True)
    assert person.post("start")[0] == 410
    assert 'id="withdraw-delete"' in person.client.get(f"{person.base}/withdraw").get_data(as_text=True)
    assert move(researcher, study_id, "open")[0] == 409  # closing is for good
    assert move(researcher, study_id, "archived")[0] == 303
    listed = researcher.get("/research/").get_data(as_text=True)
    assert f'/research/studies/{study_id}"' not in listed and 'id="show-archived"' in listed
    assert f'/research/studies/{study_id}"' in researcher.get("/research/?archived=1").get_data(as_text=True)
    assert researcher.get(f"/research/studies/{study_id}/edit").status_code == 409
    assert all(move(researcher, study_id, to)[0] == 409 for to in ("open", "paused", "closed", "draft"))
    assert researcher.get(f"/research/studies/{study_id}/export/wide.csv").status_code == 200  # the data stay
    assert phase_of(app, study_id) == "archived"


def test_only_owners_change_a_study(app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]) -> None:
    study_id = draft(researcher, puzzles[:1])
    viewer_email = "viewer@lab.example"
    viewer = new_researcher(app, viewer_email)
    token = csrf_token_of(researcher.get(f"/research/studies/{study_id}").get_data(as_text=True))
    added = researcher.post(
        f"/research/studies/{study_id}/team", data={"email": viewer_email, "role": "viewer", "csrf_token": token}
    )
    assert added.status_code == 303
    assert move(viewer, study_id, "open")[0] == 403
    assert viewer.get(f"/research/studies/{study_id}/edit").status_code == 403
    assert research_post(viewer, f"/research/studies/{study_id}/preview")[0] == 403
    assert researcher.post(f"/research/studies/{study_id}/phase", data={"to": "open"}).status_code == 400  # CSRF
    stranger = new_researcher(app, "stranger@lab.example")
    assert move(stranger, study_id, "open")[0] == 404
    assert phase_of(app, study_id) == "draft"
    copied = research_post(viewer, f"/research/studies/{study_id}/duplicate")  # a viewer may copy it for themselves
    assert copied[0] == 303


def test_a_draft_is_edited_and_its_new_puzzles_are_prepared_again(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = draft(researcher, puzzles[:1], consent_text="Old consent")
    form = researcher.get(f"/research/studies/{study_id}/edit").get_data(as_text=True)
    assert 'value="Pilot"' in form and "Old consent" in form and 'id="keep-puzzles"' in form
    fields = {
        "name": "Pilot 2",
        "consent_text": "New consent",
        "order_scheme": "latin",
        "hint_rungs": "2",
        "max_participants": "30",
        "max_per_row": "",
    }
    status, page = research_post(researcher, f"/research/studies/{study_id}/edit", **fields)
    assert status == 303
    with db.sessions_of(app)() as session:
        study = session.get(Study, study_id)
        assert study is not None
        assert (study.name, study.consent_text, study.order_scheme) == ("Pilot 2", "New consent", "latin")
        assert study.settings["hint_rungs"] == 2 and (study.max_participants, study.max_per_row) == (30, None)
        assert [p.puzzle for p in study.puzzles] == [puzzles[0][0]]  # no puzzles given: kept
    bad = research_post(researcher, f"/research/studies/{study_id}/edit", **{**fields, "max_participants": "0"})
    assert bad[0] == 400 and "outside 1 to" in bad[1]
    replaced = research_post(
        researcher, f"/research/studies/{study_id}/edit", **fields, puzzles="\n".join(p for p, _s in puzzles[1:])
    )
    assert replaced[0] == 303
    assert prepared(app, study_id).state == "ready"
    with db.sessions_of(app)() as session:
        rows = session.scalars(
            select(StudyPuzzle).where(StudyPuzzle.study_id == study_id).order_by(StudyPuzzle.position)
        )
        assert [(r.puzzle, r.rating is not None) for r in rows] == [(p, True) for p, _s in puzzles[1:]]
    move(researcher, study_id, "open")
    status, page = research_post(researcher, f"/research/studies/{study_id}/edit", **fields)
    assert status == 409 and "Only a draft" in page


def test_a_duplicate_is_a_new_draft_with_the_same_study_and_no_participants(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = draft(researcher, puzzles[:2], instructions="Be quick", max_per_row="3", order_scheme="latin")
    move(researcher, study_id, "open")
    Person(app, study_id, "someone")
    status, _page = research_post(researcher, f"/research/studies/{study_id}/duplicate")
    assert status == 303
    with db.sessions_of(app)() as session:
        source, copy = session.scalars(select(Study).order_by(Study.id)).all()
        assert copy.phase == "draft" and copy.name == "Copy of Pilot" and copy.public_id != source.public_id
        same = ("instructions", "consent_text", "order_scheme", "settings", "max_participants", "max_per_row")
        assert all(getattr(copy, name) == getattr(source, name) for name in same)
        assert [(p.puzzle, p.solution, p.d, p.rating) for p in copy.puzzles] == [
            (p.puzzle, p.solution, p.d, p.rating) for p in source.puzzles
        ]
        assert session.scalar(select(func.count()).where(Participant.study_id == copy.id)) == 0
        assert source.phase == "open"


def test_caps_refuse_arrivals_once_full_and_keep_the_rows_balanced(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = draft(researcher, puzzles[:2], order_scheme="latin", max_per_row="1")
    move(researcher, study_id, "open")
    first, second = Person(app, study_id, "one"), Person(app, study_id, "two")
    rows = {participant_row(app, study_id, label).latin_row for label in ("one", "two")}  # type: ignore[union-attr]
    assert rows == {0, 1}
    third = enter_study(app.test_client(), f"/s/{public_id(app, study_id)}?participant_label=three")
    page = third.get_data(as_text=True)
    assert third.status_code == 409 and 'id="study-full"' in page and "has its 1 participants" in page
    assert participant_row(app, study_id, "three") is None
    assert first.post("consent", answer="decline")[0] == 303  # a decline gives the place back
    assert enter_study(app.test_client(), f"/s/{public_id(app, study_id)}?participant_label=three").status_code == 303
    assert participant_row(app, study_id, "three").latin_row == 0  # type: ignore[union-attr]
    assert second.client.get(f"{second.base}/go").status_code == 200  # those in are not refused

    total = draft(researcher, puzzles[:1], max_participants="2")
    move(researcher, total, "open")
    Person(app, total, "a")
    Person(app, total, "b")
    full = enter_study(app.test_client(), f"/s/{public_id(app, total)}?participant_label=c")
    assert full.status_code == 409 and "has all its 2 participants" in full.get_data(as_text=True)
    assert stored(app, Participant, study_id=total) == 2


def exports_of(client: FlaskClient, study_id: int) -> list[str]:
    """The study's three exports and its progress fragment, as downloaded."""
    paths = [f"/research/studies/{study_id}/export/{kind}" for kind in ("long.csv", "wide.csv", "study.json")]
    return [client.get(path).get_data(as_text=True) for path in [*paths, f"/research/studies/{study_id}/progress"]]


def without_tokens(page: str) -> str:
    """A page with its CSRF tokens (new on every page) blanked."""
    return page.replace(csrf_token_of(page), "")


def preview(client: FlaskClient, study_id: int) -> str:
    """Ask for a preview of the study; the entry link of its copy."""
    token = form_token(client, "/research/account")
    answer = client.post(f"/research/studies/{study_id}/preview", data={"csrf_token": token})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return answer.headers["Location"]


def test_a_preview_plays_the_study_and_stores_nothing_in_its_data(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = draft(
        researcher, puzzles[:2], breaks="on", consent_text="Preview consent", redirect_url="https://panel.example/done"
    )
    move(researcher, study_id, "open")
    someone = Person(app, study_id, "real")
    someone.solve(someone.start())
    before = exports_of(researcher, study_id)
    report_before = without_tokens(computed_report(researcher, study_id))
    games_before = stored(app, Game)

    first = preview(researcher, study_id)
    entry = preview(researcher, study_id)  # a second preview replaces the first copy
    assert entry.startswith("/s/") and entry not in (first, f"/s/{public_id(app, study_id)}")
    assert app.test_client().get(entry).status_code == 404  # only its owner takes a preview
    assert enter_study(researcher, entry).status_code == 303
    page = researcher.get(f"{entry}/go").get_data(as_text=True)
    assert "Preview consent" in page and 'id="preview-note"' in page
    token = csrf_token_of(page)
    researcher.post(f"{entry}/consent", data={"answer": "agree", "csrf_token": token})
    researcher.post(f"{entry}/start", data={"csrf_token": token})
    for _puzzle in puzzles[:2]:
        game_id = researcher.get(f"{entry}/go").headers["Location"].rsplit("/", 1)[1]
        game = researcher.get(f"/g/{game_id}")
        assert game.status_code == 200
        solve(app, researcher, token, game_id)
        researcher.post(f"{entry}/next", data={"csrf_token": token})
        researcher.post(f"{entry}/start", data={"csrf_token": token})
    assert 'id="thanks"' in researcher.get(f"{entry}/go").get_data(as_text=True)  # not the panel's redirect

    assert exports_of(researcher, study_id) == before
    assert without_tokens(computed_report(researcher, study_id)) == report_before
    assert stored(app, Participant, study_id=study_id) == 1
    with db.sessions_of(app)() as session:
        copies = session.scalars(select(Study).where(Study.preview_of == study_id)).all()
        assert len(copies) == 1  # the earlier preview copy went with the new one
        assert stored(app, Game) == games_before + 2
        copy_id = copies[0].id
    assert f'/research/studies/{copy_id}"' not in researcher.get("/research/?archived=1").get_data(as_text=True)
    preview(researcher, study_id)  # a new preview drops the played copy
    assert stored(app, Game) == games_before and stored(app, Participant, study_id=copy_id) == 0


def test_studies_from_before_the_lifecycle_are_open(make_app: Callable[..., Flask]) -> None:
    app = make_app()
    db.downgrade(app, "0010")
    with db.engine_of(app).begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (email, password_hash, created_at, is_admin) "
                "VALUES ('old@lab.example', 'x', '2025-01-01', :no)"
            ),
            {"no": False},
        )
        connection.execute(
            text(
                "INSERT INTO studies (public_id, owner_id, name, description, consent_text, instructions, "
                "order_scheme, settings, created_at, state, prepared) "
                "VALUES ('old', 1, 'Old', '', '', '', 'fixed', '{}', '2025-01-01', 'ready', 1)"
            )
        )
    db.upgrade(app, "head")
    with db.sessions_of(app)() as session:
        study = session.scalar(select(Study))
        assert study is not None and study.phase == "open" and study.deleted_on_withdrawal == 0
        assert study.max_participants is None and study.preview_of is None
