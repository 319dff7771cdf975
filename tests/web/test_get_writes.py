"""GET never writes: every GET route, driven through a played free game and a whole study (participant and
researcher), runs no INSERT, UPDATE or DELETE but the audit trail's rows of its reads (exports, a participant's page, a
replay); and an app in debug or testing refuses such a write loudly."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask, has_request_context, request
from flask.testing import FlaskClient
from helpers.play import blanks, game_row
from helpers.studies import EMAIL, PASSWORD, create, form_token, public_id
from helpers.web import csrf_header_of
from sqlalchemy import event

from sudoku_engine.generate import generate_puzzle
from sudoku_engine.grid import cell_name
from webapp import db, jobs
from webapp.models import Game, Participant, Study

CHANGES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
PUZZLES = [generate_puzzle(seed=910 + i, givens=62) for i in range(2)]


class Watch:
    """What the app's engine ran during GET requests that changed rows, and which GET routes were asked for."""

    def __init__(self, app: Flask) -> None:
        self.writes: list[str] = []
        self.audited: list[str] = []
        self.routes: set[str] = set()
        event.listen(db.engine_of(app), "before_cursor_execute", self.statement)
        app.before_request(self.route)

    def statement(self, _connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        """Note a statement that changes rows during a GET."""
        if has_request_context() and request.method == "GET" and statement.lstrip().upper().startswith(CHANGES):
            if statement.lstrip().upper().startswith(db.AUDIT_INSERT):
                self.audited.append(request.path)  # the audit trail records reads: the one write a GET makes
            else:
                self.writes.append(f"{request.method} {request.path}: {' '.join(statement.split())[:80]}")

    def route(self) -> None:
        """Note the route of a GET request."""
        if request.method == "GET" and request.url_rule is not None:
            self.routes.add(request.url_rule.rule)


def get_twice(client: FlaskClient, path: str, *statuses: int) -> str:
    """GET a page twice (a visit and a reload), each answered with one of ``statuses``; the page."""
    for _visit in range(2):
        response = client.get(path)
        assert response.status_code in statuses, (path, response.status_code)
    return response.get_data(as_text=True)


def play_on_page(app: Flask, client: FlaskClient, game_id: str, headers: dict[str, str]) -> None:
    """Open a game's page as the board script does (GET, then report it shown), solve it, then look at it."""
    page = get_twice(client, f"/g/{game_id}", 200)
    view = page.split('data-view="', 1)[1].split('"', 1)[0]
    assert client.post(f"/g/{game_id}/shown", data={"view": view}, headers=headers).status_code == 200
    game = game_row(app, game_id)
    for cell in blanks(game.puzzle):
        client.post(f"/g/{game_id}/cell/{cell_name(cell)}", data={"digit": game.solution[cell]}, headers=headers)
    assert game_row(app, game_id).completed_at is not None
    get_twice(client, f"/g/{game_id}", 200)
    get_twice(client, f"/g/{game_id}/techniques", 200)


def free_game(app: Flask, client: FlaskClient) -> None:
    """The start page, the slider, a puzzle link, its print page, the technique guide, a played game, the history and
    the daily page."""
    headers = {**csrf_header_of(client), "HX-Request": "true"}
    puzzle = str(PUZZLES[0].puzzle)
    get_twice(client, "/", 200)
    get_twice(client, "/slider?slider=40", 200)
    get_twice(client, f"/print/{puzzle}", 200)
    get_twice(client, f"/p/{puzzle}", 200)
    get_twice(client, "/techniques", 200)
    get_twice(client, "/techniques/fish", 200)
    opened = client.post(f"/p/{puzzle}", headers=headers)
    assert opened.status_code == 303
    play_on_page(app, client, opened.headers["Location"].rsplit("/", 1)[1], headers)
    get_twice(client, "/history", 200)  # the player's history, with the game just played
    get_twice(client, "/daily", 200)


def study(app: Flask, researcher: FlaskClient, participant: FlaskClient) -> None:
    """A researcher's pages around a study with breaks, and one participant taking it from entry to the end."""
    with jobs.running_in_threads(app):  # the consumer's writes are not a request's
        study_id = create(
            researcher,
            [(str(p.puzzle), str(p.solution)) for p in PUZZLES],
            breaks="on",
            order_scheme="fixed",
            show_rating="on",
        )
    entry = f"/s/{public_id(app, study_id)}"
    page = get_twice(participant, f"{entry}?participant_label=p1", 200)
    enrolled = participant.post(f"{entry}?participant_label=p1", data={"csrf_token": form_token_of(page)})
    assert enrolled.status_code == 303
    get_twice(participant, f"{entry}?participant_label=p1", 303)  # recognised now
    token = form_token(participant, f"{entry}/go")
    assert 'id="agree"' in get_twice(participant, f"{entry}/go", 200)
    get_twice(participant, f"{entry}/consent.txt", 200)
    participant.post(f"{entry}/consent", data={"answer": "agree", "csrf_token": token})
    assert 'id="start"' in get_twice(participant, f"{entry}/go", 200)
    participant.post(f"{entry}/start", data={"csrf_token": token})
    headers = {"X-CSRFToken": token, "HX-Request": "true"}
    games = []
    for number in range(len(PUZZLES)):
        location = participant.get(f"{entry}/go").headers["Location"]
        games.append(location.rsplit("/", 1)[1])
        get_twice(participant, f"{entry}/go", 303)
        assert 'id="give-up-confirm"' in get_twice(participant, f"{entry}/give-up", 200)
        play_on_page(app, participant, location.rsplit("/", 1)[1], headers)
        get_twice(participant, f"{entry}/give-up", 303)  # a solved puzzle: nothing to give up
        participant.post(f"{entry}/next", data={"csrf_token": token})
        if number + 1 < len(PUZZLES):
            assert 'id="continue"' in get_twice(participant, f"{entry}/break", 200)
            assert 'id="continue"' in get_twice(participant, f"{entry}/go", 200)
            participant.post(f"{entry}/start", data={"csrf_token": token})
    assert 'id="thanks"' in get_twice(participant, f"{entry}/go", 200)
    get_twice(participant, f"{entry}/break", 303)
    assert 'id="withdraw-delete"' in get_twice(participant, f"{entry}/withdraw", 200)
    for path in (
        "/research/",
        "/research/studies/new",
        f"/research/studies/{study_id}",
        f"/research/studies/{study_id}/progress",
        f"/research/studies/{study_id}/report",
        *(
            f"/research/studies/{study_id}/export/{kind}"
            for kind in ("long.csv", "wide.csv", "answers.csv", "study.json", "codebook.csv")
        ),
        f"/research/studies/{study_id}/team",
        f"/research/studies/{study_id}/participants",
        f"/research/studies/{study_id}/participants/{participant_of(app, games[0])}",
        *(f"/research/studies/{study_id}/games/{game}/replay" for game in games),
        f"/research/studies/{study_id}/games/{games[0]}/replay?step=1",
        "/research/account",
        "/research/users",
        "/research/time-model",
        f"/research/studies/{study_id}/audit",
        f"/research/studies/{study_id}/audit.csv",
        "/research/audit",
        "/research/audit.csv",
    ):
        get_twice(researcher, path, 200)
    get_twice(app.test_client(), "/research/login", 200)
    get_twice(researcher, "/research/?archived=1", 200)
    copied = researcher.post(
        f"/research/studies/{study_id}/duplicate", data={"csrf_token": form_token(researcher, "/research/")}
    )
    assert copied.status_code == 303
    assert 'id="save-study"' in get_twice(researcher, f"{copied.headers['Location']}/edit", 200)
    invited = researcher.post(
        "/research/users/invite",
        data={"email": "new@lab.example", "csrf_token": form_token(researcher, "/research/users")},
    )
    link = re.search(r'id="invite-link"[^>]*value="http://localhost(/research/invite/[\w-]+)"', invited.text)
    assert link is not None
    get_twice(app.test_client(), link.group(1), 200)


def participant_of(app: Flask, game_id: str) -> str:
    """The public id of a study game's participant."""
    with app.app_context():
        session = db.get_session()
        game = session.get(Game, game_id)
        person = session.get(Participant, game.participant_id) if game and game.participant_id else None
        assert person is not None
        return person.public_id


def form_token_of(page: str) -> str:
    """The CSRF token of a page's form."""
    return page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]


def test_no_get_route_writes(make_app: Callable[..., Flask]) -> None:
    app = make_app(READ_ONLY_GETS=False)  # counted here rather than refused, so that every write is listed
    watch = Watch(app)
    free_game(app, app.test_client())
    result = app.test_cli_runner().invoke(args=["user", "create", EMAIL, "--password", PASSWORD, "--admin"])
    assert result.exit_code == 0
    researcher = app.test_client()
    token = form_token(researcher, "/research/login")
    assert (
        researcher.post("/research/login", data={"email": EMAIL, "password": PASSWORD, "csrf_token": token}).status_code
        == 302
    )
    study(app, researcher, app.test_client())
    get_twice(app.test_client(), "/static/css/app.css", 200)
    assert watch.writes == []
    assert watch.audited and all(re.search(r"/(export/[\w.]+|participants/[\w-]+|replay)$", p) for p in watch.audited)
    every_get = {rule.rule for rule in app.url_map.iter_rules() if "GET" in (rule.methods or ())}
    assert every_get - watch.routes == set(), "GET routes this test does not drive yet"


def test_a_get_that_writes_fails_loudly_in_testing(make_app: Callable[..., Flask]) -> None:
    """The app's own guard (READ_ONLY_GETS, on in debug and testing): a view that writes on GET raises, and
    nothing is stored."""
    app = make_app()

    @app.get("/rename")
    def rename() -> str:
        session = db.get_session()
        session.add(Study(owner_id=1, name="x", order_scheme="fixed", settings={}))
        session.commit()
        return "renamed"

    with pytest.raises(db.WriteOnRead, match="GET /rename tried to change the database: INSERT"):
        app.test_client().get("/rename")
    with app.app_context():
        assert db.get_session().query(Study).count() == 0
