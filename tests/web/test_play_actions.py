"""Board actions through the Flask test client: marks, undo/redo, auto-candidates, hints, pauses, checks, retries."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.play import blanks, enter, events_of, game_row, open_game, show_game, spoken
from helpers.web import csrf_header_of
from sqlalchemy import update
from werkzeug.test import TestResponse

from sudoku_engine.generate import Generated
from sudoku_engine.grid import bit, cell_name
from webapp import db
from webapp.bank import seed
from webapp.games.hints import GameHint
from webapp.models import Game

MISTAKE_CELL = re.compile(r'class="cell [^"]*\bmistake\b[^"]*"[^>]*aria-label="[^"]*, wrong digit')


def post(client: FlaskClient, headers: dict[str, str], game_id: str, action: str, **data: str) -> TestResponse:
    """Post a board action the way the board script does."""
    return client.post(f"/g/{game_id}/{action}", data=data, headers=headers)


@pytest.fixture
def game_id(client: FlaskClient, generated: Generated) -> str:
    """A shown game on the generated puzzle."""
    found = open_game(client, str(generated.puzzle))
    show_game(client, found)
    return found


def test_marks_are_stored_and_shown(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    cell = blanks(str(generated.puzzle))[0]
    name = cell_name(cell)
    for mode, digit in (("corner", "2"), ("corner", "5"), ("centre", "7"), ("corner", "5")):
        assert enter(client, csrf_headers, game_id, name, digit, mode=mode).status_code == 200
    game = game_row(app, game_id)
    assert game.corner is not None and game.centre is not None
    assert game.corner[cell] == bit(2) and game.centre[cell] == bit(7)  # 5 was toggled on, then off
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert f'aria-label="{spoken(cell)}, empty, corner marks 2, candidates 7"' in page
    assert [(e.kind, e.mode, e.digit) for e in events_of(app, game_id)[1:]] == [
        ("mark", "corner", 2),
        ("mark", "corner", 5),
        ("mark", "centre", 7),
        ("mark", "corner", 5),
    ]


def test_undo_redo_and_their_events(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    first, second = blanks(str(generated.puzzle))[:2]
    enter(client, csrf_headers, game_id, cell_name(first), "4")
    enter(client, csrf_headers, game_id, cell_name(second), "6")
    response = post(client, csrf_headers, game_id, "undo")
    assert response.status_code == 200 and "Undone: 1 cell changed." in response.get_data(as_text=True)
    assert game_row(app, game_id).entries[second] == "."
    post(client, csrf_headers, game_id, "undo")
    assert game_row(app, game_id).entries == "." * 81
    assert post(client, csrf_headers, game_id, "undo").status_code == 409  # nothing left to undo
    post(client, csrf_headers, game_id, "redo")
    post(client, csrf_headers, game_id, "redo")
    entries = game_row(app, game_id).entries
    assert entries[first] == "4" and entries[second] == "6"
    response = post(client, csrf_headers, game_id, "redo")
    assert response.status_code == 409 and "nothing to redo" in response.get_data(as_text=True)
    kinds = [e.kind for e in events_of(app, game_id)]
    assert kinds == ["show", "enter", "enter", "undo", "undo", "redo", "redo"]


def test_autofill_matches_candidates_from_the_solver_view(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    puzzle = str(generated.puzzle)
    assert post(client, csrf_headers, game_id, "autofill").status_code == 200
    centre = game_row(app, game_id).centre
    assert centre is not None
    solution = str(generated.solution)
    for cell in blanks(puzzle):
        seen = {puzzle[p] for p in range(81) if puzzle[p] != "." and shares_house(p, cell)}
        expected = sum(bit(d) for d in range(1, 10) if str(d) not in seen)
        assert centre[cell] == expected
        assert centre[cell] & bit(int(solution[cell]))  # the true digit is always a candidate
    undo = post(client, csrf_headers, game_id, "undo")
    assert undo.status_code == 200 and game_row(app, game_id).centre == [0] * 81


def shares_house(a: int, b: int) -> bool:
    """True when two different cells share a row, column or box."""
    same_box = (a // 27, a % 9 // 3) == (b // 27, b % 9 // 3)
    return a != b and (a // 9 == b // 9 or a % 9 == b % 9 or same_box)


def test_hint_ladder_then_apply_places_the_true_digit(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    texts = []
    for rung in range(1, 5):
        response = post(client, csrf_headers, game_id, "hint")
        assert response.status_code == 200
        body = response.get_data(as_text=True)
        assert body.count("<li>") == rung
        texts.append(body)
    assert 'id="apply-hint"' in texts[-1] and 'id="apply-hint"' not in texts[2]
    assert "hint-area" in texts[1] and "hint-effect" not in texts[1] and "hint-effect" in texts[2]
    before = game_row(app, game_id)
    assert before.hint is not None and before.hint["rung"] == 4
    placements = before.hint["placements"]
    assert placements, "an easy generated puzzle starts with a single"
    assert post(client, csrf_headers, game_id, "hint/apply").status_code == 200
    after = game_row(app, game_id)
    solution = str(generated.solution)
    for cell, digit in placements:
        assert after.entries[cell] == solution[cell] == str(digit)
    events = events_of(app, game_id)
    assert [(e.kind, e.rung) for e in events[1:]] == [("hint", r) for r in range(1, 5)] + [("apply", None)]
    assert post(client, csrf_headers, game_id, "hint/apply").status_code == 409  # the hint is used up


def test_wrong_digit_is_hinted_first_and_apply_clears_it(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    cell = blanks(str(generated.puzzle))[3]
    wrong = "1" if generated.solution[cell] != 1 else "2"
    enter(client, csrf_headers, game_id, cell_name(cell), wrong)
    assert game_row(app, game_id).mistakes == 1
    for _ in range(4):
        body = post(client, csrf_headers, game_id, "hint").get_data(as_text=True)
    assert f"Row {cell // 9 + 1}, column {cell % 9 + 1} holds {wrong}, which is not its digit in the solution" in body
    post(client, csrf_headers, game_id, "hint/apply")
    assert game_row(app, game_id).entries[cell] == "."


def test_hint_restarts_when_the_board_changes(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    post(client, csrf_headers, game_id, "hint")
    post(client, csrf_headers, game_id, "hint")
    cell = blanks(str(generated.puzzle))[-1]
    enter(client, csrf_headers, game_id, cell_name(cell), str(generated.solution[cell]))
    assert post(client, csrf_headers, game_id, "hint").get_data(as_text=True).count("<li>") == 1
    assert game_row(app, game_id).hint["rung"] == 1  # type: ignore[index]


def test_pause_blocks_changes_and_paused_time_is_not_solve_time(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    assert post(client, csrf_headers, game_id, "pause").status_code == 200
    response = enter(client, csrf_headers, game_id, cell_name(blanks(puzzle)[0]), "5")
    assert response.status_code == 409 and "paused" in response.get_data(as_text=True)
    assert 'data-state="paused"' in client.get(f"/g/{game_id}").get_data(as_text=True)  # a button pause stays
    # Move the first display and the pause start one hour back: the pause then lasts at least an hour.
    with app.app_context():
        session = db.get_session()
        game = session.get(Game, game_id)
        assert game is not None and game.paused_at is not None and game.first_shown_at is not None
        hour = timedelta(hours=1)
        earlier = {"paused_at": game.paused_at - hour, "first_shown_at": game.first_shown_at - hour}
        session.execute(update(Game).where(Game.id == game_id).values(**earlier))
        session.commit()
    post(client, csrf_headers, game_id, "resume")
    for cell in blanks(puzzle):
        enter(client, csrf_headers, game_id, cell_name(cell), solution[cell])
    game = game_row(app, game_id)
    assert game.completed_at is not None and game.first_shown_at is not None and game.solve_seconds is not None
    wall = (game.completed_at - game.first_shown_at).total_seconds()
    assert game.paused_seconds >= 3600 and game.solve_seconds == pytest.approx(wall - game.paused_seconds)
    kinds = [e.kind for e in events_of(app, game_id)]
    assert kinds[:3] == ["show", "pause", "resume"] and kinds[-1] == "complete"


def test_hidden_pause_from_a_replaced_page_is_ignored_and_a_new_view_resumes(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], game_id: str
) -> None:
    old_view = game_row(app, game_id).view
    show_game(client, game_id)  # a reload: a new view
    assert post(client, csrf_headers, game_id, "pause", reason="hidden", view=str(old_view)).status_code == 200
    assert game_row(app, game_id).paused_at is None
    current = game_row(app, game_id).view
    post(client, csrf_headers, game_id, "pause", reason="hidden", view=str(current))
    assert game_row(app, game_id).pause_reason == "hidden"
    client.get(f"/g/{game_id}")  # fetching the page alone changes nothing
    assert game_row(app, game_id).pause_reason == "hidden"
    show_game(client, game_id)  # coming back to the page ends a pause made by hiding it
    game = game_row(app, game_id)
    assert game.paused_at is None and game.paused_seconds >= 0
    assert [e.kind for e in events_of(app, game_id)][-2:] == ["pause", "resume"]


def test_mistake_checking_is_a_logged_setting(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    cell = blanks(str(generated.puzzle))[0]
    wrong = "1" if generated.solution[cell] != 1 else "2"
    enter(client, csrf_headers, game_id, cell_name(cell), wrong)
    assert not MISTAKE_CELL.search(client.get(f"/g/{game_id}").get_data(as_text=True))
    body = post(client, csrf_headers, game_id, "check", on="on").get_data(as_text=True)
    assert "1 wrong digit marked" in body and MISTAKE_CELL.search(body) and 'aria-pressed="true"' in body
    post(client, csrf_headers, game_id, "check", on="off")
    events = [e for e in events_of(app, game_id) if e.kind == "check"]
    assert [e.detail for e in events] == [{"on": True}, {"on": False}]


def test_a_retried_action_is_stored_once(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    cell = cell_name(blanks(str(generated.puzzle))[0])
    for _ in range(3):
        assert enter(client, csrf_headers, game_id, cell, "5", key="k-1").status_code == 200
    # Without the key the second entry of the same digit would have cleared the cell.
    assert game_row(app, game_id).entries.count("5") == 1
    assert [e.key for e in events_of(app, game_id)] == [None, "k-1"]


def test_solved_board_shows_the_completion_summary(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    post(client, csrf_headers, game_id, "hint")
    body = ""
    for cell in blanks(puzzle):
        body = enter(client, csrf_headers, game_id, cell_name(cell), solution[cell]).get_data(as_text=True)
    assert 'id="completion"' in body
    assert "1 revealed: technique 1, area 0, cells 0, full step 0" in " ".join(body.split())
    techniques = client.get(f"/g/{game_id}/techniques").get_data(as_text=True)
    assert "Hidden Single" in techniques or "Naked Single" in techniques or "Full House" in techniques
    assert game_row(app, game_id).techniques is None  # worked out for the view, not stored by it


@pytest.mark.parametrize(
    ("path", "data", "status", "message"),
    [
        ("cell/r1c1", {"digit": "5", "mode": "sideways"}, 400, "is not an entry mode"),
        ("cell/BLANK", {"digit": "", "mode": "corner"}, 400, "A pencil mark needs a digit"),
        ("cell/BLANK", {"digit": "5", "key": "x" * 65}, 400, "action key"),
        ("cell/BLANK", {"digit": "5", "key": "a b"}, 400, "action key"),
        ("check", {"on": "maybe"}, 400, "not a switch value"),
        ("pause", {"reason": "bored"}, 400, "not a pause reason"),
        ("hint/apply", {}, 409, "ask for a hint first"),
        ("techniques", None, 409, "once the puzzle is solved"),
    ],
)
def test_bad_actions_get_clear_errors(
    client: FlaskClient,
    csrf_headers: dict[str, str],
    generated: Generated,
    game_id: str,
    path: str,
    data: dict[str, str] | None,
    status: int,
    message: str,
) -> None:
    path = path.replace("BLANK", cell_name(blanks(str(generated.puzzle))[0]))
    if data is None:
        response = client.get(f"/g/{game_id}/{path}")
    else:
        response = post(client, csrf_headers, game_id, path, **data)
    assert response.status_code == status
    assert message in response.get_data(as_text=True)


def test_actions_need_a_csrf_token_and_a_known_game(client: FlaskClient, csrf_headers: dict[str, str]) -> None:
    assert client.post("/g/nope/undo").status_code == 400
    assert post(client, csrf_headers, "nope", "undo").status_code == 404


def test_print_view_shows_the_givens(client: FlaskClient, generated: Generated) -> None:
    puzzle = str(generated.puzzle)
    page = client.get(f"/print/{puzzle}").get_data(as_text=True)
    for cell, char in enumerate(puzzle):
        if char != ".":
            assert f'<td data-cell="{cell_name(cell)}">{char}</td>' in page
    assert client.get("/print/abc").status_code == 400


def test_rung_three_marks_the_hinted_candidates(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], game_id: str
) -> None:
    post(client, csrf_headers, game_id, "autofill")
    for _ in range(3):
        body = post(client, csrf_headers, game_id, "hint").get_data(as_text=True)
    hint = game_row(app, game_id).hint
    assert hint is not None and hint["rung"] == 3
    for cell, digit in hint["effect_marks"]:
        cell_html = body.split(f'id="cell-{cell_name(cell)}"')[1].split("</div>")[0]
        assert re.search(rf'class="m m{digit}( cause)? target"', cell_html)


def test_a_stored_hint_reads_back_as_stored_and_one_stored_without_marks_still_shows(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], game_id: str
) -> None:
    post(client, csrf_headers, game_id, "autofill")
    for _ in range(3):
        post(client, csrf_headers, game_id, "hint")
    stored = game_row(app, game_id).hint
    assert stored is not None and set(stored) == {field.name for field in fields(GameHint)}
    assert GameHint.from_stored(stored).as_dict() == stored
    distinct = GameHint(
        signature="s",
        rung=2,
        technique="t",
        rungs=("a", "b", "c", "d"),
        placements=((1, 2),),
        eliminations=((3, 4),),
        clears=(5,),
        restores=((6, 7),),
        area=(8,),
        cause=(9,),
        effect=(10,),
        cause_marks=((11, 1),),
        effect_marks=((12, 2), (13, 3)),
    )
    assert GameHint.from_stored(distinct.as_dict()) == distinct  # every field back in its place
    older = {key: value for key, value in stored.items() if key not in ("cause_marks", "effect_marks")}
    with app.app_context():
        session = db.get_session()
        session.execute(update(Game).where(Game.id == game_id).values(hint=older))
        session.commit()
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert page.count("<li>") == 3 and "hint-effect" in page
    assert not re.search(r'class="m m\d( cause)? target"', page)  # no candidates of the step are marked


# Selections, colour marks, clearing marks and restarting ------------------------------------------------------


def test_a_digit_on_selected_cells_is_one_event_one_undo_and_counts_each_wrong_digit(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    given = next(c for c in range(81) if puzzle[c] != ".")
    chosen = blanks(puzzle)[:4]
    digit = solution[chosen[0]]
    wrong = sum(solution[c] != digit for c in chosen)
    names = ",".join(cell_name(c) for c in [*chosen, given])
    response = post(client, csrf_headers, game_id, "cells", cells=names, digit=digit, key="sel-1")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert f"{digit} in 4 cells." in response.get_data(as_text=True)
    game = game_row(app, game_id)
    assert [game.entries[c] for c in chosen] == [digit] * 4 and game.entries[given] == "."
    assert game.mistakes == wrong
    assert post(client, csrf_headers, game_id, "cells", cells=names, digit=digit, key="sel-1").status_code == 200
    events = events_of(app, game_id)
    assert [e.kind for e in events] == ["show", "enter"], "the repeated key changed nothing"
    assert events[1].cell is None and events[1].detail is not None
    assert events[1].detail["cells"] == [*chosen, given]
    post(client, csrf_headers, game_id, "undo")
    assert game_row(app, game_id).entries == "." * 81


def test_colour_marks_are_stored_shown_named_and_undone(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    puzzle = str(generated.puzzle)
    given = next(c for c in range(81) if puzzle[c] != ".")
    empty = blanks(puzzle)[0]
    names = f"{cell_name(given)},{cell_name(empty)}"
    response = post(client, csrf_headers, game_id, "cells", cells=names, digit="2", mode="colour")
    assert response.status_code == 200 and "Colour orange: 2 cells." in response.get_data(as_text=True)
    colour = game_row(app, game_id).colour
    assert colour is not None and colour[given] == colour[empty] == 2 and sum(colour) == 4
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert f'aria-label="{spoken(empty)}, empty, colour orange"' in page
    assert f'aria-label="{spoken(given)}, given {puzzle[given]}, colour orange"' in page
    assert len(re.findall(r'class="cell [^"]*\bcolour-2\b', page)) == 2
    assert events_of(app, game_id)[-1].kind == "colour" and events_of(app, game_id)[-1].mode == "colour"
    post(client, csrf_headers, game_id, "undo")
    assert game_row(app, game_id).colour == [0] * 81
    post(client, csrf_headers, game_id, "redo")
    again = game_row(app, game_id).colour
    assert again is not None and again[given] == 2


def test_clear_marks_and_restart_are_one_undoable_action_and_keep_the_clock(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    first, second = blanks(puzzle)[:2]
    post(client, csrf_headers, game_id, "autofill")
    post(client, csrf_headers, game_id, "cells", cells=cell_name(second), digit="4", mode="colour")
    enter(client, csrf_headers, game_id, cell_name(first), str(int(solution[first]) % 9 + 1))  # a wrong digit
    response = post(client, csrf_headers, game_id, "clear-marks")
    assert response.status_code == 200 and "Marks cleared:" in response.get_data(as_text=True)
    game = game_row(app, game_id)
    assert game.centre == [0] * 81 and game.colour == [0] * 81 and game.entries[first] != "."
    post(client, csrf_headers, game_id, "undo")
    game = game_row(app, game_id)
    assert game.centre is not None and game.centre[second] and game.colour is not None and game.colour[second] == 4
    started = game.first_shown_at
    response = post(client, csrf_headers, game_id, "restart")
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and "The clock keeps running" in body
    game = game_row(app, game_id)
    assert game.entries == "." * 81 and game.centre == [0] * 81 and game.colour == [0] * 81
    assert game.first_shown_at == started and game.mistakes == 1, "time and mistakes stay as they were"
    assert [e.kind for e in events_of(app, game_id)][-2:] == ["undo", "restart"]
    post(client, csrf_headers, game_id, "undo")
    assert game_row(app, game_id).entries[first] != "."


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({"cells": "", "digit": "5"}, 400, "Send the selected cells"),
        ({"cells": "r1c1,r1c1", "digit": "5"}, 400, "named twice"),
        ({"cells": "r1c1,r0c3", "digit": "5"}, 400, "not a cell name"),
        ({"cells": "r1c1", "digit": "5", "mode": "paint"}, 400, "not an entry mode"),
        ({"cells": "r1c1", "digit": "55"}, 400, "not a digit"),
    ],
)
def test_bad_selections_are_refused_with_a_message(
    client: FlaskClient, csrf_headers: dict[str, str], game_id: str, fields: dict[str, str], status: int, message: str
) -> None:
    response = post(client, csrf_headers, game_id, "cells", **fields)
    assert response.status_code == status and message in response.get_data(as_text=True)


def test_a_selection_of_givens_only_is_refused(
    client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    givens = [c for c in range(81) if str(generated.puzzle)[c] != "."][:2]
    names = ",".join(cell_name(c) for c in givens)
    for mode in ("digit", "corner", "centre"):
        response = post(client, csrf_headers, game_id, "cells", cells=names, digit="5", mode=mode)
        assert response.status_code == 409 and "givens" in response.get_data(as_text=True)
    assert client.post(f"/g/{game_id}/restart").status_code == 400, "no CSRF token"


def test_a_hint_on_the_hardest_seed_puzzle_comes_within_its_budget_and_applies_a_true_digit(
    make_app: Callable[..., Flask],
) -> None:
    """With a hint budget too short for the nested forcing chain it needs, the answer reveals a digit instead (the
    engine's search stops between two parts of the nets), and Apply places it: never a 500 or a wait past it."""
    app = make_app(HINT_BUDGET_S=0.05)
    client = app.test_client()
    hardest = max(seed.read_seed(seed.SEED_FILE), key=lambda record: record["d"])
    game_id = open_game(client, hardest["puzzle"])
    headers = csrf_header_of(client) | {"HX-Request": "true"}
    show_game(client, game_id)
    first = post(client, headers, game_id, "hint")
    assert first.status_code == 200 and "takes too long to work out" in first.get_data(as_text=True)
    for _rung in range(3):
        assert post(client, headers, game_id, "hint").status_code == 200
    stored = game_row(app, game_id).hint
    assert stored is not None and stored["technique"] == "reveal_digit" and len(stored["placements"]) == 1
    ((cell, digit),) = stored["placements"]
    assert post(client, headers, game_id, "hint/apply").status_code == 200
    assert game_row(app, game_id).entries[cell] == hardest["solution"][cell] == str(digit)
