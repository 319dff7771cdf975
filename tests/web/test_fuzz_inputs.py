"""Arbitrary input to every route gives a page or a clear 4xx, never a 500 (DESIGN 7.1, ground rules)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from web_support import csrf_header_of, new_app

from webapp import db

EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
ANY_TEXT = st.text(max_size=100)
PUZZLE_LIKE = st.text(alphabet="0123456789.x- \n/", min_size=70, max_size=90)


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One migrated app for all examples of this module."""
    app = new_app(Path(tmp_path_factory.mktemp("fuzz")) / "instance")
    yield app
    db.dispose(app)


@pytest.fixture(scope="module")
def session_client(fuzz_app: Flask) -> tuple[FlaskClient, dict[str, str], str]:
    """A client with its CSRF headers and one open game."""
    client = fuzz_app.test_client()
    headers = {**csrf_header_of(client), "HX-Request": "true"}
    location = client.post(f"/p/{EULER_01}", headers=headers).headers["Location"]
    return client, headers, location.rsplit("/", 1)[-1]


def assert_clear(response_status: int, body: str) -> None:
    """A success, a redirect, or a 4xx page with a message; never a server error."""
    assert response_status < 500, body[:300]
    if response_status >= 400:
        assert body.strip(), "an error answer must carry a message"


@settings(max_examples=80, deadline=None)
@given(slider=ANY_TEXT)
def test_new_puzzle_with_any_slider_text(session_client, slider):
    client, headers, _ = session_client
    response = client.post("/new", data={"slider": slider}, headers=headers)
    assert_clear(response.status_code, response.get_data(as_text=True))
    response = client.get("/slider", query_string={"slider": slider})
    assert_clear(response.status_code, response.get_data(as_text=True))


@settings(max_examples=80, deadline=None)
@given(puzzle=st.one_of(ANY_TEXT, PUZZLE_LIKE))
def test_puzzle_links_with_any_text(session_client, puzzle):
    client, headers, _ = session_client
    response = client.get("/p/" + quote(puzzle, safe=""))
    assert_clear(response.status_code, response.get_data(as_text=True))
    response = client.post("/p/" + quote(puzzle, safe=""), headers=headers)
    assert_clear(response.status_code, response.get_data(as_text=True))


@settings(max_examples=120, deadline=None)
@given(name=st.one_of(ANY_TEXT, st.sampled_from(["r1c1", "r1c2", "r9c9", "R5C5"])), digit=ANY_TEXT, client_ms=ANY_TEXT)
def test_cell_entries_with_any_fields(session_client, name, digit, client_ms):
    client, headers, game_id = session_client
    response = client.post(
        f"/g/{game_id}/cell/{quote(name, safe='')}", data={"digit": digit, "client_ms": client_ms}, headers=headers
    )
    assert_clear(response.status_code, response.get_data(as_text=True))


@settings(max_examples=40, deadline=None)
@given(game_id=ANY_TEXT, method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]))
def test_any_game_id_and_method(session_client, game_id, method):
    client, headers, _ = session_client
    response = client.open(f"/g/{quote(game_id, safe='')}", method=method, headers=headers)
    assert_clear(response.status_code, response.get_data(as_text=True))
