"""Play routes through the Flask test client: pages, new games, /p/ links, entries, completion, errors."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.play import blanks, enter, events_of, game_row, open_game, show_game, spoken

from sudoku_engine import difficulty
from sudoku_engine.generate import Generated
from sudoku_engine.grid import cell_name
from sudoku_engine.rating import rate
from sudoku_engine.slider import SliderInfo, describe, target_for_slider
from sudoku_engine.solver import count_solutions

NO_SOLUTION = "12345678." + "........9" + "." * 63
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
UNDER_DETERMINED = SOLUTION[:27] + "." * 54


def slider_output(info: SliderInfo) -> str:
    """The opening tag of the slider fragment for what ``describe`` says."""
    return (
        f'<output id="slider-info" for="difficulty" data-slider="{info.slider}" data-d="{info.D}"\n'
        f'        data-label="{info.label}" data-minutes="{info.time.minutes:.1f}"\n'
        f'        data-extrapolated="{"yes" if info.time.extrapolated else "no"}">'
    )


def test_index_shows_slider_button_and_target(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'id="difficulty"' in page and 'type="range"' in page and 'name="slider"' in page
    assert 'hx-get="/slider"' in page
    assert 'id="new-puzzle"' in page
    assert 'name="csrf_token"' in page
    assert slider_output(describe(30)) in page
    assert "givens" not in page
    assert "difficulty score D" in page and "predicted" in page


@pytest.mark.parametrize("slider", ["0", "12.5", "50", "77.7", "100"])
def test_slider_fragment_follows_describe(client: FlaskClient, slider: str) -> None:
    response = client.get(f"/slider?slider={slider}")
    assert response.status_code == 200
    fragment = response.get_data(as_text=True)
    info = describe(float(slider))
    assert fragment.startswith(slider_output(info))
    assert f'<strong class="zone" data-zone="{info.label}">{info.label}</strong>' in fragment
    assert f'D <span class="slider-d">{info.D:.2f}</span>' in fragment
    if info.time.extrapolated:  # beyond the time model's fit: words, no figure, no range
        assert f'<span class="minutes extrapolated">{info.time.words}</span>' in fragment
        assert info.time.words.endswith("do not finish")
        assert "minutes-range" not in fragment
    else:
        assert f'<span class="minutes">{info.time.words}</span>' in fragment
        assert f'<span class="minutes-range">({info.time.range_words} for 8 players in 10)</span>' in fragment


@pytest.mark.parametrize("slider", ["0", "37.25", "100"])
def test_new_game_from_slider(app: Flask, client: FlaskClient, csrf_headers: dict[str, str], slider: str) -> None:
    response = client.post("/new", data={"slider": slider}, headers={"X-CSRFToken": csrf_headers["X-CSRFToken"]})
    assert response.status_code == 303
    game = game_row(app, response.headers["Location"].rsplit("/", 1)[1])
    assert game.source == "slider" and game.slider == float(slider)
    assert game.target_d == target_for_slider(float(slider))
    assert game.d == rate(game.puzzle, measures=difficulty.MEASURES).d
    assert count_solutions(game.puzzle) == 1
    assert all(p in (".", s) for p, s in zip(game.puzzle, game.solution, strict=True))
    assert game.entries == "." * 81 and game.seed is not None


@pytest.mark.parametrize(
    ("slider", "message"),
    [
        (None, "slider value is missing"),
        ("", "slider value is missing"),
        ("hard", "is not a number"),
        ("-1", "outside 0 to 100"),
        ("100.5", "outside 0 to 100"),
        ("nan", "outside 0 to 100"),
        ("inf", "outside 0 to 100"),
    ],
)
def test_new_game_rejects_bad_slider(
    client: FlaskClient, csrf_headers: dict[str, str], slider: str | None, message: str
) -> None:
    data = {} if slider is None else {"slider": slider}
    response = client.post("/new", data=data, headers={"X-CSRFToken": csrf_headers["X-CSRFToken"]})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("query", "message"),
    [("", "slider value is missing"), ("?slider=200", "outside 0 to 100"), ("?slider=easy", "is not a number")],
)
def test_bad_slider_on_slider_fragment(client: FlaskClient, query: str, message: str) -> None:
    response = client.get(f"/slider{query}", headers={"HX-Request": "true"})
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert body.startswith('<p class="error-message"') and message in body


def test_new_game_from_htmx_sends_the_page_to_the_game(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str]
) -> None:
    response = client.post("/new", data={"slider": "20"}, headers=csrf_headers)  # as htmx sends it
    assert response.status_code == 204 and response.get_data() == b""
    address = response.headers["HX-Redirect"]
    assert re.fullmatch(r"/g/[\w-]+", address) and "Location" not in response.headers
    game = game_row(app, address.rsplit("/", 1)[1])
    assert game.slider == 20.0 and game.first_shown_at is None  # the clock starts when the page shows it


def test_index_form_posts_with_htmx_and_without(app: Flask, client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    form = re.search(r"<form class=\"new-puzzle\"[^>]*>", page)
    assert form is not None
    tag = form.group(0)
    assert 'method="post" action="/new"' in tag and 'hx-post="/new"' in tag
    assert 'hx-disabled-elt="find button"' in tag and 'hx-indicator="#new-puzzle-progress"' in tag
    budget_ms = 1000 * app.config["POOL_GENERATE_BUDGET_S"]
    timeout = re.search(r"hx-request='\{\"timeout\": (\d+)\}'", tag)
    assert timeout is not None and int(timeout.group(1)) > budget_ms
    assert "Finding a puzzle…" in page and "Generating a puzzle of this difficulty…" in page


def test_new_game_form_with_hidden_token(client: FlaskClient, csrf_headers: dict[str, str]) -> None:
    form = {"slider": "10", "csrf_token": csrf_headers["X-CSRFToken"]}
    assert client.post("/new", data=form).status_code == 303


@pytest.mark.parametrize(
    ("path", "data"),
    [("/new", {"slider": "50"}), ("/g/someid/cell/r1c1", {"digit": "5"})],
)
def test_missing_csrf_token_is_rejected(client: FlaskClient, path: str, data: dict[str, str]) -> None:
    response = client.post(path, data=data)
    assert response.status_code == 400
    assert "CSRF token is missing" in response.get_data(as_text=True)


def test_wrong_csrf_token_is_rejected(client: FlaskClient, csrf_headers: dict[str, str]) -> None:
    response = client.post("/new", data={"slider": "50"}, headers={"X-CSRFToken": "forged"})
    assert response.status_code == 400
    assert "CSRF token is invalid" in response.get_data(as_text=True)


def test_puzzle_link_opens_that_puzzle(app: Flask, client: FlaskClient, generated: Generated) -> None:
    game_id = open_game(client, str(generated.puzzle).replace(".", "0"))
    game = game_row(app, game_id)
    assert game.puzzle == str(generated.puzzle)
    assert game.solution == str(generated.solution)
    assert game.source == "url" and game.slider is None
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    for cell, char in enumerate(game.puzzle):
        if char != ".":
            assert f'aria-label="{spoken(cell)}, given {char}" aria-readonly="true"' in page


def test_puzzle_link_on_corpus_puzzles(app: Flask, client: FlaskClient, easy50: list[str]) -> None:
    for puzzle in easy50[:5]:
        assert game_row(app, open_game(client, puzzle)).puzzle == puzzle.replace("0", ".")


@pytest.mark.parametrize(
    ("puzzle", "status", "message"),
    [
        ("abc", 400, "invalid character &#39;a&#39; at position 1"),
        ("1" * 5, 400, "wrong length: 5 cells"),
        ("." * 82, 400, "wrong length: 82 cells"),
        ("11" + "." * 79, 400, "two 1s in row 1: r1c1 and r1c2"),
        (NO_SOLUTION, 422, "has no solution"),
        (UNDER_DETERMINED, 422, "more than one solution"),
        ("." * 81, 422, "more than one solution"),
        (SOLUTION, 422, "already filled"),
    ],
)
def test_puzzle_link_rejects_bad_puzzles(client: FlaskClient, puzzle: str, status: int, message: str) -> None:
    response = client.get(f"/p/{puzzle}")
    assert response.status_code == status
    page = response.get_data(as_text=True)
    assert message in page
    assert "Traceback" not in page


def test_unknown_game_is_404(client: FlaskClient) -> None:
    response = client.get("/g/no-such-game")
    assert response.status_code == 404
    assert "There is no game at this address" in response.get_data(as_text=True)


def test_unknown_page_is_404(client: FlaskClient) -> None:
    response = client.get("/nowhere")
    assert response.status_code == 404 and 'class="error-message"' in response.get_data(as_text=True)


def test_wrong_method_is_405(client: FlaskClient) -> None:
    response = client.get("/new")
    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]
    assert 'class="error-message"' in response.get_data(as_text=True)


def test_game_page_renders_board_and_records_show_once(app: Flask, client: FlaskClient, generated: Generated) -> None:
    """Fetching the page changes nothing; the page's report that it shows the game starts the clock, once."""
    game_id = open_game(client, str(generated.puzzle))
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    for cell in range(81):
        assert f'data-cell="{cell_name(cell)}"' in page
    assert 'id="completion"' not in page
    client.get(f"/g/{game_id}")
    assert game_row(app, game_id).first_shown_at is None and events_of(app, game_id) == []
    show_game(client, game_id)
    first_shown = game_row(app, game_id).first_shown_at
    show_game(client, game_id)
    assert game_row(app, game_id).first_shown_at == first_shown is not None
    assert [event.kind for event in events_of(app, game_id)] == ["show"]


def test_entry_returns_cell_fragment_and_reload_resumes(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated
) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    game_id = open_game(client, puzzle)
    show_game(client, game_id)
    first, second = blanks(puzzle)[:2]
    response = enter(client, csrf_headers, game_id, cell_name(first), solution[first], client_ms="1234.5")
    assert response.status_code == 200
    fragment = response.get_data(as_text=True)
    assert fragment.count("data-cell=") == 1 and f'data-cell="{cell_name(first)}"' in fragment
    assert f'data-digit="{solution[first]}"' in fragment and f">{solution[first]}</span>" in fragment
    assert f"{solution[first]} in row {first // 9 + 1}, column {first % 9 + 1}." in fragment  # the live region
    enter(client, csrf_headers, game_id, cell_name(second), "9" if solution[second] != "9" else "8")
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert f'aria-label="{spoken(first)}, {solution[first]}"' in page
    entries = game_row(app, game_id).entries
    assert entries[first] == solution[first] and entries[second] != "."
    assert entries.count(".") == 79


def test_clear_and_events_are_recorded(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated
) -> None:
    puzzle = str(generated.puzzle)
    game_id = open_game(client, puzzle)
    show_game(client, game_id)
    cell = blanks(puzzle)[0]
    name = cell_name(cell)
    enter(client, csrf_headers, game_id, name, "4", client_ms="10")
    enter(client, csrf_headers, game_id, name, "0", client_ms="20.5")
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert f'aria-label="{spoken(cell)}, empty"' in page
    response = enter(client, csrf_headers, game_id, name, "")  # clearing an empty cell changes no cell
    assert response.status_code == 200 and "data-cell=" not in response.get_data(as_text=True)
    assert game_row(app, game_id).entries == "." * 81
    events = events_of(app, game_id)
    assert [(e.kind, e.cell, e.digit, e.client_ms) for e in events[1:]] == [
        ("enter", cell, 4, 10.0),
        ("clear", cell, None, 20.5),
        ("clear", cell, None, None),
    ]
    assert all(e.mode == "digit" and e.server_time.tzinfo is not None for e in events)
    assert events[0].server_time <= events[1].server_time <= events[-1].server_time


@pytest.mark.parametrize(
    ("cell", "digit", "extra", "message"),
    [
        ("r0c1", "5", {}, "is not a cell name"),
        ("r1c10", "5", {}, "is not a cell name"),
        ("a1", "5", {}, "is not a cell name"),
        ("BLANK", "a", {}, "is not a digit"),
        ("BLANK", "10", {}, "is not a digit"),
        ("BLANK", "-1", {}, "is not a digit"),
        ("BLANK", "5", {"client_ms": "soon"}, "client_ms"),
        ("BLANK", "5", {"client_ms": "-3"}, "client_ms"),
        ("GIVEN", "5", {}, "is a given and cannot be changed"),
        ("GIVEN", "", {}, "is a given and cannot be changed"),
    ],
)
def test_bad_entries_are_400(
    client: FlaskClient,
    csrf_headers: dict[str, str],
    generated: Generated,
    cell: str,
    digit: str,
    extra: dict[str, str],
    message: str,
) -> None:
    puzzle = str(generated.puzzle)
    game_id = open_game(client, puzzle)
    given = next(c for c, ch in enumerate(puzzle) if ch != ".")
    name = {"BLANK": cell_name(blanks(puzzle)[0]), "GIVEN": cell_name(given)}.get(cell, cell)
    response = enter(client, csrf_headers, game_id, name, digit, **extra)
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert message in body
    assert body.startswith('<p class="error-message"'), "htmx requests get the message as a fragment"


def test_entry_in_unknown_game_is_404(client: FlaskClient, csrf_headers: dict[str, str]) -> None:
    response = enter(client, csrf_headers, "missing", "r1c1", "5")
    assert response.status_code == 404


def test_entry_without_htmx_redirects_to_game(
    client: FlaskClient, csrf_headers: dict[str, str], generated: Generated
) -> None:
    game_id = open_game(client, str(generated.puzzle))
    headers = {"X-CSRFToken": csrf_headers["X-CSRFToken"]}
    response = enter(client, headers, game_id, cell_name(blanks(str(generated.puzzle))[0]), "5")
    assert response.status_code == 303 and response.headers["Location"] == f"/g/{game_id}"


def solve_through_client(client: FlaskClient, headers: dict[str, str], game_id: str, generated: Generated) -> str:
    """Enter every missing digit of the solution; return the last response's body."""
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    body = ""
    for cell in blanks(puzzle):
        response = enter(client, headers, game_id, cell_name(cell), solution[cell])
        assert response.status_code == 200
        body = response.get_data(as_text=True)
    return body


def test_completion_is_verified_on_the_server(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated
) -> None:
    game_id = open_game(client, str(generated.puzzle))
    show_game(client, game_id)
    last = solve_through_client(client, csrf_headers, game_id, generated)
    assert '<div id="game-status" hx-swap-oob="innerHTML">' in last
    assert 'id="completion"' in last
    assert re.search(r"Solved in <time datetime=\"PT[0-9.]+S\">0:0\d</time>", last)
    game = game_row(app, game_id)
    assert game.completed_at is not None and game.first_shown_at is not None
    assert game.solve_seconds == pytest.approx((game.completed_at - game.first_shown_at).total_seconds())
    kinds = [event.kind for event in events_of(app, game_id)]
    assert kinds[0] == "show" and kinds[-1] == "complete" and kinds.count("complete") == 1
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert 'id="completion"' in page and "Solved in" in page


def test_wrong_full_grid_does_not_complete(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated
) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    game_id = open_game(client, puzzle)
    empty = blanks(puzzle)
    for cell in empty[:-1]:
        enter(client, csrf_headers, game_id, cell_name(cell), solution[cell])
    wrong = "1" if solution[empty[-1]] != "1" else "2"
    body = enter(client, csrf_headers, game_id, cell_name(empty[-1]), wrong).get_data(as_text=True)
    assert "completion" not in body
    assert game_row(app, game_id).completed_at is None
    body = enter(client, csrf_headers, game_id, cell_name(empty[-1]), solution[empty[-1]]).get_data(as_text=True)
    assert 'id="completion"' in body


def test_edits_after_completion_are_409(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated
) -> None:
    game_id = open_game(client, str(generated.puzzle))
    solve_through_client(client, csrf_headers, game_id, generated)
    solved = game_row(app, game_id)
    cell = cell_name(blanks(str(generated.puzzle))[0])
    for digit in ("5", ""):
        response = enter(client, csrf_headers, game_id, cell, digit)
        assert response.status_code == 409
        assert "already solved" in response.get_data(as_text=True)
    after = game_row(app, game_id)
    assert (after.entries, after.completed_at) == (solved.entries, solved.completed_at)


def test_solve_time_uses_created_time_when_never_shown(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated
) -> None:
    game_id = open_game(client, str(generated.puzzle))
    solve_through_client(client, csrf_headers, game_id, generated)
    game = game_row(app, game_id)
    assert game.first_shown_at is None and game.completed_at is not None
    assert game.solve_seconds == pytest.approx((game.completed_at - game.created_at).total_seconds())


def test_server_error_page_hides_details(make_app: Callable[..., Flask]) -> None:
    app = make_app(PROPAGATE_EXCEPTIONS=False)

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret detail")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "unexpected error" in page and "secret detail" not in page and "Traceback" not in page
