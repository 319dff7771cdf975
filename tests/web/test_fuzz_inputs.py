"""Arbitrary input to every route gives a page or a clear 4xx, never a 500, on SQLite and
on PostgreSQL (the module runs once per database).

Every route of the app's URL map is fuzzed, so a new route is fuzzed too: its path arguments (a real game, study or
cell among them, so the views reach the database), form fields and query values, with control characters (NUL
above all: PostgreSQL refuses it in text), whole numbers past the integer columns and text longer than the columns.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.jobs import prepared
from helpers.web import PostgresDatabases, app_on, csrf_header_of, csrf_token_of
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from webapp import create_app, db, jobs
from webapp.models import Participant, User

EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
ANY_TEXT = st.text(max_size=100)
PUZZLE_LIKE = st.text(alphabet="0123456789.x- \n/", min_size=70, max_size=90)
EMAIL, PASSWORD = "fuzz@example.org", "correct horse"
# Text no column can take: NUL and other control characters, and strings longer than any sized column.
NASTY_TEXT = ["\x00", "a\x00b", "\x01", "\x1b[0m", "\x7f", "x" * 300, "é" * 255]
# Whole numbers around the integer columns' limits: PostgreSQL's integer (2^31) and SQLite's 64 bits.
NASTY_NUMBERS = [2**31 - 1, 2**31, 2**63 - 1, 2**63, 2**64, 10**30]
TEXT = st.one_of(ANY_TEXT, st.sampled_from(NASTY_TEXT))
# The form fields the views read, with values that get past their parsers, so the request goes on to the database.
# (``sliders`` and ``targets`` of a new study are numbers parsed before anything is stored, and a good one costs a
# puzzle generation: they are left to tests/web/test_studies.py.)
FORM_VALUES: dict[str, list[str]] = {
    "slider": ["30"],
    "digit": ["5", "0"],
    "mode": ["digit", "corner", "centre", "colour"],
    "cells": ["r1c1,r2c2"],
    "client_ms": ["1500"],
    "key": ["k1"],
    "reason": ["button", "hidden"],
    "view": ["v"],
    "on": ["on", "off"],
    "answer": ["agree", "decline"],
    "email": [EMAIL],
    "password": [PASSWORD],
    "name": ["Study"],
    "puzzles": [EULER_01],
    "order_scheme": ["fixed", "random", "latin"],
    "description": ["d"],
    "consent_text": ["c"],
    "instructions": ["i"],
    "hint_rungs": ["4"],
    "time_limit_minutes": ["5"],
    "abandon_minutes": ["60"],
    "redirect_url": ["https://x.org/"],
    "autofill": ["on"],
    "checking": ["on"],
    "breaks": ["on"],
    "role": ["viewer", "owner"],
    "current": [PASSWORD],
    "again": [PASSWORD],
    "admin": ["on"],
    "confirm": ["yes"],
    "notation": ["plain", "compact"],
    "to": ["paused", "open", "closed", "archived"],
    "delete": ["no", "yes"],
    "label": ["nobody"],
    "max_participants": ["50"],
    "max_per_row": ["10"],
    "back": ["/"],
    "clause": ["1"],
    "questions": ["[before]\nage | integer: 18 to 99 | Age?\n[after]\nok | single: Yes; No | check: Yes | Yes?"],
    "ask_difficulty": ["on"],
    "ask_effort": ["on"],
    "page": ["before", "puzzle-0", "after"],
    "q_age": ["30"],
    "q_ok": ["1"],
    "q_difficulty": ["4"],
    "q_tlx_mental": ["50"],
}
QUERY_VALUES: dict[str, list[str]] = {
    "slider": ["30"],
    "participant_label": ["p1"],
    "PROLIFIC_PID": ["p2"],
    "STUDY_ID": ["s"],
    "SESSION_ID": ["s"],
    "archived": ["1"],
    "step": ["1"],
}
PLACEHOLDER = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")


def routes_of(app: Flask) -> list[tuple[str, str]]:
    """Every (rule, method) of the app, HEAD and OPTIONS aside."""
    return sorted(
        (rule.rule, method)
        for rule in app.url_map.iter_rules()
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
    )


def listed_routes() -> list[tuple[str, str]]:
    """The routes of an app built only to list them (collection needs them before any fixture runs)."""
    with tempfile.TemporaryDirectory() as folder:
        return routes_of(create_app({"INSTANCE_PATH": folder, "SECRET_KEY": "k", "DATABASE_URL": "sqlite://"}))


ROUTES = listed_routes()


@dataclass(frozen=True)
class Fuzzing:
    """The app under fuzz, a player client and a logged-in researcher, and real values for every kind of path
    argument (an open game, a study, a cell, an export)."""

    app: Flask
    player: FlaskClient
    player_headers: dict[str, str]
    researcher: FlaskClient
    researcher_headers: dict[str, str]
    real: dict[str, str]

    def client_for(self, rule: str) -> tuple[FlaskClient, dict[str, str]]:
        """The researcher for the researcher's pages (but logging out), else the player."""
        if rule.startswith("/research/") and rule != "/research/logout":
            return self.researcher, self.researcher_headers
        return self.player, self.player_headers


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory, postgres: PostgresDatabases | None) -> Iterator[Flask]:
    """One migrated app on the module's database for all examples of this module (log-ins are not limited, so
    every fuzzed log-in reaches the database)."""
    with app_on(tmp_path_factory.mktemp("fuzz") / "instance", postgres, LIMIT_LOGIN="100000 per minute") as app:
        yield app


@pytest.fixture(scope="module")
def fuzzing(fuzz_app: Flask) -> Fuzzing:
    """Clients with their CSRF headers, an open game, a study with a participant, and a researcher logged in."""
    created_user = ["user", "create", EMAIL, "--password", PASSWORD, "--admin"]  # an administrator: every page
    assert fuzz_app.test_cli_runner().invoke(args=created_user).exit_code == 0
    researcher = fuzz_app.test_client()
    token = csrf_token_of(researcher.get("/research/login").get_data(as_text=True))
    login = {"email": EMAIL, "password": PASSWORD, "csrf_token": token}
    assert researcher.post("/research/login", data=login).status_code == 302
    researcher_headers = {**csrf_header_of(researcher), "HX-Request": "true"}
    study_form = {"name": "Fuzz", "puzzles": EULER_01, "order_scheme": "latin", "breaks": "on", "ask_difficulty": "on"}
    study_form["questions"] = FORM_VALUES["questions"][0]
    created = researcher.post("/research/studies/new", data=study_form, headers=researcher_headers)
    assert created.status_code == 303, created.get_data(as_text=True)
    study_id = created.headers["Location"].rsplit("/", 1)[1]
    with jobs.running_in_threads(fuzz_app):  # the study is prepared by a real consumer of the app's queue
        prepared(fuzz_app, int(study_id))
    opened = researcher.post(f"/research/studies/{study_id}/phase", data={"to": "open"}, headers=researcher_headers)
    assert opened.status_code == 303, "a new study is a draft until its owner opens it"
    page = researcher.get(f"/research/studies/{study_id}").get_data(as_text=True)
    match = re.search(r"/s/([A-Za-z0-9_-]+)", page)
    assert match, "the study page shows its entry link"
    player = fuzz_app.test_client()
    player_headers = {**csrf_header_of(player), "HX-Request": "true"}
    assert player.post(f"/s/{match.group(1)}?participant_label=fuzz", headers=player_headers).status_code == 303
    game_id = player.post(f"/p/{EULER_01}", headers=player_headers).headers["Location"].rsplit("/", 1)[-1]
    with fuzz_app.app_context():
        participant = db.get_session().scalar(select(Participant.public_id))
    real = {
        "game_id": game_id,
        "public_id": match.group(1),
        "study_id": study_id,
        "name": "r1c1",
        "kind": "long.csv",
        "puzzle": EULER_01,
        "filename": "css/app.css",
        "user_id": str(user_id_of(fuzz_app, EMAIL)),
        "change": "disable",  # refused for one's own account: the researcher stays logged in
        "token": "an-invitation-token",
        "family": "singles",
        "participant": str(participant),
    }
    return Fuzzing(fuzz_app, player, player_headers, researcher, researcher_headers, real)


def user_id_of(app: Flask, email: str) -> int:
    """The id of the account with this email."""
    with app.app_context():
        user = db.get_session().scalar(select(User).where(User.email == email))
        assert user is not None
        return user.id


def assert_clear(response_status: int, body: str) -> None:
    """A success, a redirect, or a 4xx page with a message; never a server error."""
    assert response_status < 500, body[:300]
    if response_status >= 400:
        assert body.strip(), "an error answer must carry a message"


def path_of(rule: str, values: dict[str, str]) -> str:
    """The rule's path with each argument replaced by its value, quoted."""
    return PLACEHOLDER.sub(lambda m: quote(values[m.group(2)], safe=""), rule)


def argument_kinds(rule: str) -> dict[str, str]:
    """The rule's path arguments and their converters (``default`` when none is named)."""
    return {m.group(2): m.group(1) or "default" for m in PLACEHOLDER.finditer(rule)}


def send(
    fuzzing: Fuzzing, rule: str, method: str, path_values: dict[str, str], fields: dict[str, str], htmx: bool = True
) -> None:
    """Send one request (fields as the query of a GET, else as the form) and check its answer is clear."""
    client, headers = fuzzing.client_for(rule)
    sent = headers if htmx else {k: v for k, v in headers.items() if k != "HX-Request"}
    extra: dict[str, Any] = {"query_string": fields} if method == "GET" else {"data": fields}
    response = client.open(path_of(rule, path_values), method=method, headers=sent, **extra)
    assert_clear(response.status_code, response.get_data(as_text=True))


def nasty_requests(rule: str, method: str, real: dict[str, str]) -> Iterator[tuple[dict[str, str], dict[str, str]]]:
    """(path values, fields) pairs that put each kind of bad value in each place of a route, the rest real."""
    kinds = argument_kinds(rule)
    base = {name: real[name] for name in kinds}
    for name, kind in kinds.items():
        bad = [str(n) for n in NASTY_NUMBERS] if kind == "int" else [real[name] + t for t in NASTY_TEXT] + NASTY_TEXT
        for value in bad:
            yield {**base, name: value}, {}
    fields = QUERY_VALUES if method == "GET" else FORM_VALUES
    good = {name: values[0] for name, values in fields.items()}
    for name in fields:
        for text in NASTY_TEXT:
            yield base, {**good, name: text}


@pytest.mark.parametrize(("rule", "method"), ROUTES, ids=[f"{m} {r}" for r, m in ROUTES])
def test_every_route_refuses_bad_values_clearly(fuzzing: Fuzzing, rule: str, method: str) -> None:
    """Each bad value in each path argument and field of the route, the others real: a clear answer."""
    for path_values, fields in nasty_requests(rule, method, fuzzing.real):
        send(fuzzing, rule, method, path_values, fields)


def test_the_fuzzed_routes_are_the_apps(fuzz_app: Flask) -> None:
    assert routes_of(fuzz_app) == ROUTES and len(ROUTES) > 30


def path_value(kind: str, real: str) -> st.SearchStrategy[str]:
    """Values of one path argument: the real one (also with bad text appended), any text, or bad numbers."""
    if kind == "int":
        numbers = st.one_of(st.sampled_from(NASTY_NUMBERS), st.integers(min_value=0)).map(str)
        return st.one_of(st.just(real), numbers, TEXT)
    return st.one_of(st.just(real), TEXT, TEXT.map(lambda text: real + text))


def fields_of(values: dict[str, list[str]]) -> st.SearchStrategy[dict[str, str]]:
    """Any subset of the fields, each a value that parses or any text."""
    return st.fixed_dictionaries(
        {}, optional={name: st.one_of(st.sampled_from(good), TEXT) for name, good in values.items()}
    )


@pytest.mark.parametrize(("rule", "method"), ROUTES, ids=[f"{m} {r}" for r, m in ROUTES])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_every_route_with_any_input(fuzzing: Fuzzing, rule: str, method: str, data: st.DataObject) -> None:
    path_values = {
        name: data.draw(path_value(kind, fuzzing.real[name]), label=name) for name, kind in argument_kinds(rule).items()
    }
    fields = data.draw(fields_of(QUERY_VALUES if method == "GET" else FORM_VALUES), label="fields")
    send(fuzzing, rule, method, path_values, fields, htmx=data.draw(st.booleans(), label="htmx"))


@settings(max_examples=80, deadline=None)
@given(slider=ANY_TEXT)
def test_new_puzzle_with_any_slider_text(fuzzing: Fuzzing, slider: str) -> None:
    client, headers = fuzzing.player, fuzzing.player_headers
    response = client.post("/new", data={"slider": slider}, headers=headers)
    assert_clear(response.status_code, response.get_data(as_text=True))
    response = client.get("/slider", query_string={"slider": slider})
    assert_clear(response.status_code, response.get_data(as_text=True))


@settings(max_examples=80, deadline=None)
@given(puzzle=st.one_of(ANY_TEXT, PUZZLE_LIKE))
def test_puzzle_links_with_any_text(fuzzing: Fuzzing, puzzle: str) -> None:
    client, headers = fuzzing.player, fuzzing.player_headers
    response = client.get("/p/" + quote(puzzle, safe=""))
    assert_clear(response.status_code, response.get_data(as_text=True))
    response = client.post("/p/" + quote(puzzle, safe=""), headers=headers)
    assert_clear(response.status_code, response.get_data(as_text=True))


@settings(max_examples=120, deadline=None)
@given(name=st.one_of(ANY_TEXT, st.sampled_from(["r1c1", "r1c2", "r9c9", "R5C5"])), digit=ANY_TEXT, client_ms=ANY_TEXT)
def test_cell_entries_with_any_fields(fuzzing: Fuzzing, name: str, digit: str, client_ms: str) -> None:
    game_id = fuzzing.real["game_id"]
    response = fuzzing.player.post(
        f"/g/{game_id}/cell/{quote(name, safe='')}",
        data={"digit": digit, "client_ms": client_ms},
        headers=fuzzing.player_headers,
    )
    assert_clear(response.status_code, response.get_data(as_text=True))


@settings(max_examples=120, deadline=None)
@given(
    cells=st.one_of(ANY_TEXT, st.lists(st.sampled_from(["r1c1", "r1c2", "r9c9", "R5C5", "r0c0"])).map(",".join)),
    digit=ANY_TEXT,
    mode=st.one_of(ANY_TEXT, st.sampled_from(["digit", "corner", "centre", "colour"])),
)
def test_selection_actions_with_any_fields(fuzzing: Fuzzing, cells: str, digit: str, mode: str) -> None:
    response = fuzzing.player.post(
        f"/g/{fuzzing.real['game_id']}/cells",
        data={"cells": cells, "digit": digit, "mode": mode},
        headers=fuzzing.player_headers,
    )
    assert_clear(response.status_code, response.get_data(as_text=True))


@settings(max_examples=40, deadline=None)
@given(game_id=ANY_TEXT, method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]))
def test_any_game_id_and_method(fuzzing: Fuzzing, game_id: str, method: str) -> None:
    response = fuzzing.player.open(f"/g/{quote(game_id, safe='')}", method=method, headers=fuzzing.player_headers)
    assert_clear(response.status_code, response.get_data(as_text=True))


@pytest.mark.parametrize("study_id", [str(2**31), str(2**63), "-1"])
def test_study_report_command_refuses_ids_past_the_columns(fuzz_app: Flask, study_id: str) -> None:
    result = fuzz_app.test_cli_runner().invoke(args=["study", "report", "--", study_id])
    assert result.exit_code == 2 and "is not in the range 1<=x<=2147483647" in result.output, result.output
