"""Studies through the Flask test client: accounts, creating a study, the participant path, orders, access."""

from __future__ import annotations

import csv
import io
import re
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from itertools import pairwise

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.jobs import bank_record, canonical_form, computed_report, prepared
from helpers.play import blanks, game_row
from helpers.studies import (
    EMAIL,
    PASSWORD,
    consumer,  # noqa: F401  (fixtures)
    create,
    enter_study,
    first_game,
    form_token,
    play_through,
    public_id,
)
from helpers.web import csrf_token_of
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from sudoku_engine import difficulty
from sudoku_engine.grid import cell_name
from sudoku_engine.slider import target_for_slider
from sudoku_engine.solver import count_solutions
from webapp import db, models
from webapp.bank import pool
from webapp.models import BankPuzzle, Event, Game, Participant, Study, StudyPuzzle
from webapp.study import studies


def test_user_create_rejects_bad_input(app: Flask) -> None:
    runner = app.test_cli_runner()
    assert runner.invoke(args=["user", "create", "not-an-email", "--password", PASSWORD]).exit_code == 2
    assert runner.invoke(args=["user", "create", EMAIL, "--password", "short"]).exit_code == 2
    assert runner.invoke(args=["user", "create", EMAIL, "--password", PASSWORD]).exit_code == 0
    again = runner.invoke(args=["user", "create", EMAIL, "--password", PASSWORD])
    assert again.exit_code == 2 and "already an account" in again.output


def test_research_pages_need_login(app: Flask, client: FlaskClient) -> None:
    assert client.get("/research/").status_code == 302
    app.test_cli_runner().invoke(args=["user", "create", EMAIL, "--password", PASSWORD])
    token = form_token(client, "/research/login")
    wrong = client.post("/research/login", data={"email": EMAIL, "password": "nope", "csrf_token": token})
    assert wrong.status_code == 401 and "Wrong email or password" in wrong.get_data(as_text=True)
    assert client.post("/research/login", data={"email": EMAIL, "password": PASSWORD}).status_code == 400  # no CSRF


def test_the_research_header_leads_back_to_the_studies_for_a_logged_in_researcher(
    researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:1])
    for path in (f"/research/studies/{study_id}", f"/research/studies/{study_id}/participants", "/research/account"):
        page = researcher.get(path).get_data(as_text=True)
        assert '<a id="nav-studies" href="/research/">Your studies</a>' in page, path
    assert 'id="nav-studies"' not in researcher.get("/").get_data(as_text=True)  # the player's pages: no research link
    researcher.post("/research/logout", data={"csrf_token": form_token(researcher, "/research/")})
    assert 'id="nav-studies"' not in researcher.get("/research/login").get_data(as_text=True)


def test_the_study_form_says_what_each_slider_value_asks_for(researcher: FlaskClient) -> None:
    page = " ".join(researcher.get("/research/studies/new").get_data(as_text=True).split())
    assert 'id="slider-scale"' in page
    for value in range(0, 101, 10):
        d = target_for_slider(value)
        assert f"<tr><td>{value}</td><td>{difficulty.zone(d)}</td><td>{d:.2f}</td>" in page, value
    assert page.count('class="minutes') >= 11  # each with a typical player's time


def test_each_message_shows_on_the_page_it_was_made_for(
    app: Flask, client: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    """The login request's message shows on the login page, not on the first study page after it."""
    app.test_cli_runner().invoke(args=["user", "create", EMAIL, "--password", PASSWORD])
    login_page = client.get("/research/", follow_redirects=True).get_data(as_text=True)
    assert "Please log in to see your studies." in login_page
    token = form_token(client, "/research/login")
    assert client.post(
        "/research/login", data={"email": EMAIL, "password": PASSWORD, "csrf_token": token}
    ).status_code in (302, 303)
    study_id = create(client, puzzles[:1])
    page = client.get(f"/research/studies/{study_id}").get_data(as_text=True)
    assert "Study created: its 1 puzzles are being prepared." in page and "Please log in" not in page
    assert "Study created" not in client.get(f"/research/studies/{study_id}/report").get_data(as_text=True)


def test_create_study_stores_puzzles_with_ratings(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles)
    page = researcher.get(f"/research/studies/{study_id}").get_data(as_text=True)
    assert "Study created: its 4 puzzles are being prepared." in page and 'id="entry-link"' in page
    with app.app_context():
        rows = list(db.get_session().scalars(select(StudyPuzzle).order_by(StudyPuzzle.position)))
        assert [(r.puzzle, r.solution) for r in rows] == puzzles
        assert all(r.rating is not None and r.rating["puzzle"] == r.puzzle for r in rows)
        assert all(r.d == pytest.approx(r.rating["D"], abs=1e-3) for r in rows)  # type: ignore[index]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"puzzles": "12345"}, "Line 1: this is not a valid puzzle"),
        ({"puzzles": "." * 81}, "Line 1: the puzzle has more than one solution"),
        ({"puzzles": "\n".join(["." * 81] * 41)}, "A study needs 1 to 40 puzzles; 41 given"),  # before solving
        ({"order_scheme": "sideways"}, "is not an order scheme"),
        ({"name": " "}, "A study needs a name"),
        ({"hint_rungs": "9"}, "outside 0 to 4"),
        ({"redirect_url": "javascript:alert(1)"}, "http(s) address"),
        ({"redirect_url": "https://example.org/done\r\nSet-Cookie: x=1"}, "without spaces or control characters"),
        ({"redirect_url": "https:///no-host"}, "http(s) address with a host"),
        ({"redirect_url": "https://example.org/" + "a" * 2000}, "at most 2000 characters"),
        ({"redirect_url": "https://[::1"}, "http(s) address"),
        ({"puzzles": "", "sliders": "50, 120"}, "outside 0 to 100"),
        ({"puzzles": "", "sliders": ""}, "Give the puzzles"),
        ({"puzzles": "", "targets": "4.5, 12"}, "The target D 12 is outside 1 to 11"),
    ],
)
def test_bad_study_input_is_400_and_nothing_is_stored(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]], fields: dict[str, str], message: str
) -> None:
    data = {"name": "Bad", "puzzles": puzzles[0][0], "order_scheme": "fixed", **fields}
    data["csrf_token"] = form_token(researcher, "/research/studies/new")
    response = researcher.post("/research/studies/new", data=data)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    with app.app_context():
        assert db.get_session().scalar(select(func.count()).select_from(Study)) == 0


def test_other_researchers_study_is_404(app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]) -> None:
    study_id = create(researcher, puzzles)
    other = app.test_client()
    app.test_cli_runner().invoke(args=["user", "create", "other@example.org", "--password", PASSWORD])
    token = form_token(other, "/research/login")
    other.post("/research/login", data={"email": "other@example.org", "password": PASSWORD, "csrf_token": token})
    assert other.get(f"/research/studies/{study_id}").status_code == 404


def test_participants_get_balanced_latin_square_orders(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles)
    entry = f"/s/{public_id(app, study_id)}"
    orders = [tuple(play_through(app, app.test_client(), f"{entry}?participant_label=p{i}")) for i in range(4)]
    index = {p: i for i, (p, _s) in enumerate(puzzles)}
    rows = [tuple(index[p] for p in order) for order in orders]
    assert sorted(rows) == sorted(tuple(r) for r in studies.williams_rows(4))
    page = researcher.get(f"/research/studies/{study_id}").get_data(as_text=True)
    assert '<dd class="finished">4</dd>' in page and page.count('<td class="completed">4</td>') == 4


def test_williams_rows_balance_places_and_neighbours() -> None:
    for n in range(1, 8):
        rows = studies.williams_rows(n)
        assert len(rows) == (n if n % 2 == 0 else 2 * n)
        assert all(sorted(row) == list(range(n)) for row in rows)
        for place in range(n):  # every puzzle equally often in every place
            assert len(set(Counter(row[place] for row in rows).values())) == 1
        pairs = Counter(pair for row in rows for pair in pairwise(row))
        if n > 1:  # every ordered pair of puzzles equally often one right after the other
            assert len(pairs) == n * (n - 1) and len(set(pairs.values())) == 1


def test_abandoned_sessions_free_their_square_row(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:2])
    entry = f"/s/{public_id(app, study_id)}"
    enter_study(app.test_client(), f"{entry}?participant_label=a")  # row 0, then leaves
    with app.app_context():
        session = db.get_session()
        for person in session.scalars(select(Participant)):
            person.last_seen_at -= timedelta(hours=2)
        session.commit()
    enter_study(app.test_client(), f"{entry}?participant_label=b")
    enter_study(app.test_client(), f"{entry}?participant_label=c")
    with app.app_context():
        rows = dict(db.get_session().execute(select(Participant.arrival, Participant.latin_row)).all())
    assert rows == {1: 0, 2: 0, 3: 1}  # b takes the abandoned row 0, c the next


def test_labels_are_stored_as_keyed_hashes_and_bring_a_participant_back(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:1])
    entry = f"/s/{public_id(app, study_id)}?PROLIFIC_PID=5f1a2b&STUDY_ID=st9&SESSION_ID=se3"
    enter_study(app.test_client(), entry)
    enter_study(app.test_client(), entry)  # another browser, the same person
    with app.app_context():
        people = list(db.get_session().scalars(select(Participant)))
    assert len(people) == 1
    stored = repr(people[0].labels) + str(people[0].label_hash)
    assert (
        "5f1a2b" not in stored
        and "st9" not in stored
        and set(people[0].labels) == {"PROLIFIC_PID", "STUDY_ID", "SESSION_ID"}
    )
    assert people[0].label_hash == studies.label_hash("test-secret", "5f1a2b")


def test_declining_ends_politely(app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]) -> None:
    study_id = create(researcher, puzzles[:1])
    base = f"/s/{public_id(app, study_id)}"
    client = app.test_client()
    enter_study(client, base)
    token = form_token(client, f"{base}/go")
    client.post(f"{base}/consent", data={"answer": "decline", "csrf_token": token})
    assert 'id="declined"' in client.get(f"{base}/go").get_data(as_text=True)
    with app.app_context():
        assert db.get_session().scalar(select(func.count()).select_from(Game)) == 0


def test_a_participant_cannot_open_another_participants_game(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:1], breaks="")
    first, base, token, game_url = first_game(app, study_id)
    assert first.get(game_url).status_code == 200
    intruder = app.test_client()
    assert intruder.get(game_url).status_code == 403
    token2 = form_token(intruder, "/")
    forged = intruder.post(f"{game_url}/cell/r1c1", data={"digit": "1"}, headers={"X-CSRFToken": token2})
    assert forged.status_code == 403
    assert first.post(f"{base}/next", data={"csrf_token": token}).status_code == 409  # not solved yet
    assert app.test_client().get("/s/no-such-study").status_code == 404
    with app.app_context():
        assert db.get_session().scalar(select(func.count()).select_from(Event).where(Event.kind == "enter")) == 0


def test_study_settings_are_enforced_on_the_board(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:1], hint_rungs="2", autofill="", checking="")
    client, base, token, game_url = first_game(app, study_id)
    page = client.get(game_url).get_data(as_text=True)
    assert 'id="autofill"' not in page and 'id="check"' not in page and 'id="hint"' in page
    headers = {"X-CSRFToken": token, "HX-Request": "true"}
    assert client.post(f"{game_url}/autofill", headers=headers).status_code == 409
    assert client.post(f"{game_url}/check", data={"on": "on"}, headers=headers).status_code == 409
    for _ in range(3):
        assert client.post(f"{game_url}/hint", headers=headers).status_code == 200
    game = game_row(app, game_url.rsplit("/", 1)[1])
    assert game.hint is not None and game.hint["rung"] == 2  # the third press reveals nothing more


def test_exports_hold_exactly_the_events_sent(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:2], order_scheme="fixed")
    entry = f"/s/{public_id(app, study_id)}"
    for label in ("x", "y"):
        play_through(app, app.test_client(), f"{entry}?participant_label={label}")
    long = list(csv.DictReader(io.StringIO(researcher.get(f"/research/studies/{study_id}/export/long.csv").text)))
    with app.app_context():
        stored = list(db.get_session().scalars(select(Event).order_by(Event.id)))
    assert [int(row["event"]) for row in long] == [e.id for e in stored]
    assert [row["kind"] for row in long] == [e.kind for e in stored]
    assert Counter(row["participant"] for row in long).keys() == {p for p in participants(app)}
    wide = list(csv.DictReader(io.StringIO(researcher.get(f"/research/studies/{study_id}/export/wide.csv").text)))
    assert len(wide) == 4 and all(row["completed"] == "1" and float(row["active_s"]) >= 0 for row in wide)
    assert [row["puzzle_position"] for row in wide] == ["0", "1", "0", "1"]  # fixed order, by arrival
    enters = Counter((row["game"]) for row in long if row["kind"] == "enter")
    assert all(int(row["entries"]) == enters[row["game"]] for row in wide)
    exported = researcher.get(f"/research/studies/{study_id}/export/study.json").get_json()
    assert [p["puzzle"] for p in exported["puzzles"]] == [p for p, _s in puzzles[:2]]
    assert exported["settings"]["hint_rungs"] == 4 and exported["puzzles"][0]["rating"]["D"] is not None
    assert researcher.get(f"/research/studies/{study_id}/export/other.csv").status_code == 404


def test_exports_give_client_times_in_whole_milliseconds_and_ratings_to_3_decimals(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    """A browser clock's float noise (3763.100000000093 ms) and a D with 16 digits leave the exports rounded."""
    study_id = create(researcher, puzzles[:1], breaks="")
    client, _base, token, game_url = first_game(app, study_id)
    game = game_row(app, game_url.rsplit("/", 1)[1])
    cell = blanks(game.puzzle)[0]
    headers = {"X-CSRFToken": token, "HX-Request": "true"}
    data = {"digit": game.solution[cell], "client_ms": "3763.100000000093"}
    assert client.post(f"{game_url}/cell/{cell_name(cell)}", data=data, headers=headers).status_code == 200
    with app.app_context():
        session = db.get_session()
        stored = session.get(Game, game.id)
        assert stored is not None
        stored.d = 4.123456789012345  # as a rating's float comes out of the engine
        session.commit()
    long = list(csv.DictReader(io.StringIO(researcher.get(f"/research/studies/{study_id}/export/long.csv").text)))
    assert [row["client_ms"] for row in long if row["kind"] == "enter"] == ["3763"]
    wide = list(csv.DictReader(io.StringIO(researcher.get(f"/research/studies/{study_id}/export/wide.csv").text)))
    assert [row["d"] for row in wide] == ["4.123"]
    exported = researcher.get(f"/research/studies/{study_id}/export/study.json").get_json()
    shown = [p["D"] for p in exported["puzzles"]]
    assert all(len(repr(d).split(".")[1]) <= 3 for d in shown), shown


EXTERNAL_ASSET = re.compile(r"""<(?:script|link)\b[^>]*\b(?:src|href)="(?:https?:)?//""")


def test_study_pages_load_no_asset_from_another_origin(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    """With htmx from the CDN configured, a participant's pages and study game and the researcher's study page load
    every script and style from the app itself, while a play page keeps the CDN."""
    app.config["HTMX_SOURCE"] = "cdn"
    study_id = create(researcher, puzzles[:1], breaks="")
    assert EXTERNAL_ASSET.search(app.test_client().get("/").get_data(as_text=True)), "play pages keep the CDN"
    client = app.test_client()
    base = f"/s/{public_id(app, study_id)}"
    pages = [client.get(base).get_data(as_text=True), client.get(f"{base}/go").get_data(as_text=True)]
    _client, _base, _token, game_url = first_game(app, study_id)
    pages += [_client.get(game_url).get_data(as_text=True), researcher.get(f"/research/studies/{study_id}").text]
    assert all("<script" in page for page in pages)
    assert [bool(EXTERNAL_ASSET.search(page)) for page in pages] == [False] * 4


def test_a_report_with_too_few_data_says_what_is_missing_and_why_refit_cannot_run(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    """One participant who solved one puzzle of two: no empty plot or header-only table, each gap said in words, the
    Refit button disabled with its reason, and a refit sent anyway answered on the report page itself."""
    study_id = create(researcher, puzzles[:2], order_scheme="fixed", breaks="")
    client, _base, token, game_url = first_game(app, study_id)
    game = game_row(app, game_url.rsplit("/", 1)[1])
    headers = {"X-CSRFToken": token, "HX-Request": "true"}
    for cell in blanks(game.puzzle):
        client.post(f"{game_url}/cell/{cell_name(cell)}", data={"digit": game.solution[cell]}, headers=headers)
    assert game_row(app, game.id).completed_at is not None
    page = computed_report(researcher, study_id)
    assert "Participants with a solved puzzle: 1." in page
    assert "<svg" not in page and 'id="correlation-table"' not in page and 'id="table-two"' in page
    missing = re.search(r'<ul id="report-missing"[^>]*>(.*?)</ul>', page, re.S)
    assert missing is not None
    assert "at least 3 puzzles; 1 of 2 have one so far" in missing.group(1)
    assert "needs at least as many solved games as puzzles and participants together (3); 1 so far" in missing.group(1)
    assert re.search(r'<button type="submit" id="refit" disabled', page)
    assert "Not yet: The refit needs completed puzzles of at least two different predicted times." in page
    refused = researcher.post(f"/research/studies/{study_id}/calibrate", data={"csrf_token": csrf_token_of(page)})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 409 and "Validation report" in text and "Back to the study" in text
    assert "two different predicted times" in text


def participants(app: Flask) -> list[str]:
    """The public ids of every participant."""
    with app.app_context():
        return list(db.get_session().scalars(select(Participant.public_id)))


ROUNDS, AT_ONCE = 25, 4


def test_concurrent_arrivals_fill_the_square_evenly(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    """Rounds of 4 people arriving at the same moment: after every round each row of the square (4 puzzles: a
    Williams square of 4 rows) has one more participant, and the arrivals are numbered without gaps."""
    study_id = create(researcher, puzzles)
    entry = f"/s/{public_id(app, study_id)}"
    barrier = threading.Barrier(AT_ONCE, timeout=120)  # a thread that fails before it arrives cannot hang the rest

    def arrive(label: str, statuses: list[int]) -> None:
        statuses.append(enter_study(app.test_client(), f"{entry}?participant_label={label}", barrier).status_code)

    for round_number in range(1, ROUNDS + 1):
        statuses: list[int] = []
        threads = [threading.Thread(target=arrive, args=(f"r{round_number}c{i}", statuses)) for i in range(AT_ONCE)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert statuses == [303] * AT_ONCE
        with app.app_context():
            rows = Counter(db.get_session().scalars(select(Participant.latin_row)))
            arrivals = sorted(db.get_session().scalars(select(Participant.arrival)))
        assert arrivals == list(range(1, AT_ONCE * round_number + 1)), f"round {round_number}"
        assert rows == {row: round_number for row in range(4)}, f"round {round_number}: {rows}"


def test_time_limit_ends_a_puzzle(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [datetime(2026, 3, 1, 10, 0, tzinfo=UTC)]
    monkeypatch.setattr(models, "clock", lambda: now[0])
    study_id = create(researcher, puzzles[:2], time_limit_minutes="1", order_scheme="fixed", breaks="")
    client, base, token, game_url = first_game(app, study_id)
    page = client.get(game_url).get_data(as_text=True)
    assert 'data-limit="60"' in page and 'id="time-up"' in page
    headers = {"X-CSRFToken": token, "HX-Request": "true"}
    cell = cell_name(blanks(puzzles[0][0])[0])
    assert client.post(f"{base}/next", data={"csrf_token": token}).status_code == 409  # time left, unsolved
    now[0] += timedelta(seconds=61)
    refused = client.post(f"{game_url}/cell/{cell}", data={"digit": "1"}, headers=headers)
    assert refused.status_code == 409 and "time for this puzzle is up" in refused.get_data(as_text=True)
    assert client.post(f"{base}/next", data={"csrf_token": token}).status_code == 303
    second = client.get(f"{base}/go").headers["Location"]
    assert second != game_url and game_row(app, second.rsplit("/", 1)[1]).puzzle == puzzles[1][0]
    wide = list(csv.DictReader(io.StringIO(researcher.get(f"/research/studies/{study_id}/export/wide.csv").text)))
    first_row = next(row for row in wide if row["game"] == game_url.rsplit("/", 1)[1])
    assert (first_row["completed"], first_row["timed_out"]) == ("0", "1")  # the export says what the board said


def test_progress_fragment_follows_arrivals(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:1])
    enter_study(app.test_client(), f"/s/{public_id(app, study_id)}?participant_label=z")
    fragment = researcher.get(f"/research/studies/{study_id}/progress").get_data(as_text=True)
    assert fragment.startswith('<div id="live-progress"') and '<dd class="arrived">1</dd>' in fragment
    assert 'hx-trigger="every 10s"' in fragment and "<html" not in fragment


def test_a_declining_participant_gives_the_square_row_back(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:2])
    base = f"/s/{public_id(app, study_id)}"
    declining = app.test_client()
    enter_study(declining, f"{base}?participant_label=d")  # row 0
    token = form_token(declining, f"{base}/go")
    declining.post(f"{base}/consent", data={"answer": "decline", "csrf_token": token})
    enter_study(app.test_client(), f"{base}?participant_label=e")
    with app.app_context():
        rows = dict(db.get_session().execute(select(Participant.arrival, Participant.latin_row)).all())
    assert rows == {1: 0, 2: 0}


def test_study_puzzles_by_slider_values_and_by_target_d(app: Flask, researcher: FlaskClient) -> None:
    """Each target gets an isomorph of the bank row made near it, and that row is claimed."""
    asked = {"sliders": [target_for_slider(10), target_for_slider(40)], "targets": [1.5, 3.4]}
    made = {
        field: [bank_record(t, 6000 + 10 * n + i) for i, t in enumerate(targets)]
        for n, (field, targets) in enumerate(asked.items())
    }
    with app.app_context():
        pool.add(db.get_session(), [record for records in made.values() for record in records])
    by_slider = create(researcher, [], puzzles="", sliders="10, 40")
    by_target = create(researcher, [], puzzles="", targets="1.5, 3.4")
    with app.app_context():
        session = db.get_session()
        for study_id, field in ((by_slider, "sliders"), (by_target, "targets")):
            study = session.get(Study, study_id)
            assert study is not None and len(study.puzzles) == 2
            for puzzle, target, record in zip(study.puzzles, asked[field], made[field], strict=True):
                assert count_solutions(puzzle.puzzle) == 1 and puzzle.d is not None
                assert canonical_form(puzzle.puzzle) == record["puzzle"] and abs(record["d"] - target) <= 0.1
                row = session.scalar(select(BankPuzzle).where(BankPuzzle.puzzle == record["puzzle"]))
                assert row is not None and row.used


def test_a_study_takes_rows_served_again_as_new_puzzle_does(app: Flask, researcher: FlaskClient) -> None:
    """With no unused row near, a study target gets the row served longest ago near it, and a target past every
    shipped seed puzzle the hardest of them, as New puzzle serves them: each as an isomorph, its serving time
    renewed."""
    served_before = bank_record(3.4, 6100)
    seed = {**bank_record(2.0, 6101), "source": pool.SEED_SOURCE}
    with app.app_context():
        session = db.get_session()
        pool.add(session, [served_before], used=True)
        pool.add(session, [seed])
        before = {row.puzzle: row.served_at for row in session.scalars(select(BankPuzzle))}
    assert before[seed["puzzle"]] is None
    study_id = create(researcher, [], puzzles="", targets=f"3.4, {seed['d'] + 3:.2f}")
    with app.app_context():
        session = db.get_session()
        study = session.get(Study, study_id)
        assert study is not None and study.state == studies.READY
        assert [canonical_form(p.puzzle) for p in study.puzzles] == [served_before["puzzle"], seed["puzzle"]]
        assert all(p.puzzle not in before for p in study.puzzles)  # isomorphs, not the rows' own form
        after = {row.puzzle: row for row in session.scalars(select(BankPuzzle))}
        assert after[seed["puzzle"]].used and after[seed["puzzle"]].served_at is not None
        renewed = after[served_before["puzzle"]].served_at
        assert renewed is not None and (
            before[served_before["puzzle"]] is None or renewed > before[served_before["puzzle"]]
        )
        assert len(after) == 2  # nothing was generated


def test_a_stored_completion_address_that_cannot_be_a_header_ends_on_the_done_page(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    """A redirect address stored before it was checked (with a CR/LF) never reaches a Location header: the
    participant who is done sees the done page instead of a 500."""
    study_id = create(researcher, puzzles[:1], order_scheme="fixed", breaks="")
    with app.app_context():
        study = db.get_session().get(Study, study_id)
        assert study is not None
        study.settings = {**study.settings, "redirect_url": "https://example.org/done\r\nSet-Cookie: x=1"}
        db.get_session().commit()
    client = app.test_client()
    entry = f"/s/{public_id(app, study_id)}?participant_label=p1"
    assert len(play_through(app, client, entry)) == 1
    done = client.get(entry.split("?")[0] + "/go")
    assert done.status_code == 200 and "Location" not in done.headers


def upload(client: FlaskClient, content: bytes) -> TestResponse:
    """Post the new-study form with ``content`` as the uploaded puzzle file (no pasted puzzles)."""
    data = {
        "name": "Uploaded",
        "puzzles": "",
        "order_scheme": "fixed",
        "puzzle_file": (io.BytesIO(content), "p.txt"),
        "csrf_token": form_token(client, "/research/studies/new"),
    }
    return client.post("/research/studies/new", data=data, content_type="multipart/form-data")


def test_an_uploaded_puzzle_file_may_start_with_a_byte_order_mark(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    """A file saved by an editor that writes a UTF-8 byte order mark and Windows line ends."""
    content = "\ufeff".encode() + "".join(f"{p}\r\n" for p, _s in puzzles[:2]).encode()
    response = upload(researcher, content)
    assert response.status_code == 303, response.get_data(as_text=True)
    assert prepared(app, int(response.headers["Location"].rsplit("/", 1)[1])).state == "ready"
    with app.app_context():
        rows = list(db.get_session().scalars(select(StudyPuzzle).order_by(StudyPuzzle.position)))
        assert [(r.puzzle, r.solution) for r in rows] == puzzles[:2]


def test_an_uploaded_file_that_is_not_utf8_is_400_and_nothing_is_stored(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    response = upload(researcher, puzzles[0][0].encode("utf-16"))  # UTF-16 with its own byte order mark
    assert response.status_code == 400 and "The puzzle file is not UTF-8 text." in response.get_data(as_text=True)
    with app.app_context():
        assert db.get_session().scalar(select(func.count()).select_from(Study)) == 0
