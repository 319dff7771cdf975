"""One participant at a time through the researcher's pages: the study's participants, one participant's path, and
the replay page of a game, drawn on the game's board markup; who may see them, and clear answers to bad addresses."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
from flask import Flask
from helpers.play import open_game
from helpers.replay import (
    Played,
    consumer,  # noqa: F401  (fixtures)
    logged_in,
    play_game,
    study_puzzles,
)
from helpers.studies import PASSWORD, create, enter_study, first_game, form_token, public_id
from sqlalchemy import select

from sudoku_engine.grid import digits_of
from webapp import db
from webapp.models import Event, Game, Participant

BLANK = {"entries": "." * 81, "corner": [0] * 81, "centre": [0] * 81}  # the board before the first event
CELL = re.compile(r'<div id="cell-(r\dc\d)"(.*?)</div>', re.S)


@pytest.fixture
def played(app: Flask) -> Played:
    """A study game played to its end with every kind of action, by the study's first participant."""
    return play_game(app, logged_in(app), study_puzzles())


def cells_shown(markup: str) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Each cell of board markup as drawn: its digit (0 none), its corner marks and its centre marks."""
    found = []
    for _name, body in CELL.findall(markup):
        digit = re.search(r'data-digit="(\d)"', body)
        corner = re.search(r'<span class="corner[^"]*"[^>]*>(.*?)</span></span>', body, re.S)
        centre = re.search(r'<span class="centre"[^>]*>(.*?)</span></span>', body, re.S)

        def marks(match: re.Match[str] | None) -> tuple[int, ...]:
            return tuple(int(d) for d in re.findall(r">(\d)<", match.group(1) + "<")) if match else ()

        found.append((int(digit.group(1)) if digit else 0, marks(corner), marks(centre)))
    return found


def expected_cells(puzzle: str, board: dict[str, Any]) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """A stored board as the cells should show it: givens and digits, and the marks of empty cells."""
    entries, corner, centre = str(board["entries"]), list(board["corner"]), list(board["centre"])
    out = []
    for cell in range(81):
        digit = int(puzzle[cell]) if puzzle[cell] != "." else (int(entries[cell]) if entries[cell] != "." else 0)
        out.append((digit, () if digit else digits_of(corner[cell]), () if digit else digits_of(centre[cell])))
    return out


def game_of(app: Flask, game_id: str) -> tuple[Game, list[Event]]:
    """The stored game and its events."""
    with app.app_context():
        session = db.get_session()
        game = session.get(Game, game_id)
        assert game is not None
        return game, list(session.scalars(select(Event).where(Event.game_id == game_id).order_by(Event.id)))


def test_the_study_page_links_the_participants_and_their_pages(app: Flask, played: Played) -> None:
    researcher = played.researcher
    enter_study(app.test_client(), f"/s/{public_id(app, played.study_id)}?participant_label=late")
    study_page = researcher.get(f"/research/studies/{played.study_id}").text
    assert f'href="/research/studies/{played.study_id}/participants"' in study_page
    listing = researcher.get(f"/research/studies/{played.study_id}/participants").text
    rows = re.findall(r'<tr data-participant="([\w-]+)"><td data-label="Arrival">(\d+)</td>', listing)
    assert len(rows) == 2 and rows[0] == (played.participant, "1") and rows[1][1] == "2"
    link = f"/research/studies/{played.study_id}/participants/{played.participant}"
    assert f'href="{link}"' in listing and '<td data-label="Completed" class="completed">1 of 2</td>' in listing
    assert '<td data-label="State" class="state">consent</td>' in listing  # the late arrival has not consented yet


def test_the_participant_page_shows_their_path_through_the_study(app: Flask, played: Played) -> None:
    game, events = game_of(app, played.game_id)
    page = played.researcher.get(f"/research/studies/{played.study_id}/participants/{played.participant}").text
    assert f"Participant {played.participant}" in page
    with app.app_context():
        person = db.get_session().get(Participant, game.participant_id)
        assert person is not None and person.consented_at is not None
    assert '<dd class="arrival">1</dd>' in page and f'<dd class="state">{person.state}</dd>' in page
    assert '<dd class="latin-row">-</dd>' in page and person.latin_row is None  # a fixed order: no square row
    assert f'<dd class="consented">{person.consented_at:%Y-%m-%d %H:%M:%S}</dd>' in page
    path = re.findall(r'<tr data-position="(\d)">(.*?)</tr>', page, re.S)
    assert [position for position, _row in path] == ["0", "1"]  # fixed order
    first, second = path[0][1], path[1][1]
    kinds = Counter(e.kind for e in events)
    rungs = Counter(e.rung for e in events if e.kind == "hint")
    assert '<td class="completed">yes</td>' in first and f'<td class="mistakes">{game.mistakes}</td>' in first
    assert f'<td class="undos">{kinds["undo"]}</td>' in first and kinds["undo"] >= 4
    assert f'<td class="hints">{rungs[1]}/{rungs[2]}/{rungs[3]}/{rungs[4]}</td>' in first and rungs[4] >= 1
    assert f'<td class="applied">{kinds["apply"]}</td>' in first
    assert '<td class="pauses">1 (' in first
    assert f'href="/research/studies/{played.study_id}/games/{played.game_id}/replay"' in first
    assert "not reached" in second and "Replay" not in second


def test_the_replay_page_draws_the_stored_board_after_any_event(app: Flask, played: Played) -> None:
    game, events = game_of(app, played.game_id)
    base = f"/research/studies/{played.study_id}/games/{played.game_id}/replay"
    for number in (0, 3, 5, 12, len(events) // 2, len(events)):
        page = played.researcher.get(f"{base}?step={number}").text
        board = page.split('id="board"', 1)[1].split('class="game-side"', 1)[0]
        if number == 0:
            wanted = expected_cells(game.puzzle, BLANK)
        else:
            wanted = expected_cells(game.puzzle, played.board_after(events[number - 1].id))
        assert cells_shown(board) == wanted, number
        assert f'<output id="replay-step" aria-live="polite">{number} of {len(events)}</output>' in page
    final = played.researcher.get(base).text
    listed = re.findall(r'<li data-step="(\d+)" data-kind="(\w+)"', final)
    assert [kind for _n, kind in listed] == [e.kind for e in events]
    assert 'aria-current="step"' in final.split(f'<li data-step="{len(events)}"', 1)[1].split(">", 1)[0]


def test_the_replay_data_rebuilds_every_step_and_ends_on_the_stored_board(app: Flask, played: Played) -> None:
    """The page's script draws steps from the cells' markup it is given: applied in order, they give each stored
    board, the last one the game's final board."""
    game, events = game_of(app, played.game_id)
    page = played.researcher.get(f"/research/studies/{played.study_id}/games/{played.game_id}/replay?step=0").text
    data = json.loads(page.split('<script type="application/json" id="replay-data">', 1)[1].split("</script>", 1)[0])
    assert len(data["frames"]) == len(events) == len(data["clock"]) - 1 == len(data["elapsed"]) - 1
    markups = data["markups"]
    assert len(markups) == len(set(markups))  # each distinct cell markup once
    cells = [markups[i] for i in data["start"]]
    assert cells_shown("".join(cells)) == expected_cells(game.puzzle, BLANK)
    for event, frame in zip(events, data["frames"], strict=True):
        for cell, markup in frame:
            cells[cell] = markups[markup]
        assert cells_shown("".join(cells)) == expected_cells(game.puzzle, played.board_after(event.id)), event.kind
    final = {"entries": game.entries, "corner": game.corner, "centre": game.centre}
    assert cells_shown("".join(cells)) == expected_cells(game.puzzle, final)
    assert all(later >= earlier for earlier, later in zip(data["elapsed"], data["elapsed"][1:]))


def test_bad_addresses_get_a_clear_404_or_400(app: Flask, played: Played) -> None:
    researcher, study_id = played.researcher, played.study_id
    free_game = open_game(app.test_client(), study_puzzles()[0][0])
    other_study = create(researcher, study_puzzles()[:1])
    _client, _base, _token, other_url = first_game(app, other_study)
    other_game = other_url.rsplit("/", 1)[1]
    cases = {
        f"/research/studies/{study_id}/participants/no-such-person": (404, "no participant with this id"),
        f"/research/studies/{other_study}/participants/{played.participant}": (404, "no participant with this id"),
        f"/research/studies/{study_id}/games/no-such-game/replay": (404, "no game with this id"),
        f"/research/studies/{study_id}/games/{free_game}/replay": (404, "no game with this id"),
        f"/research/studies/{study_id}/games/{other_game}/replay": (404, "no game with this id"),
        f"/research/studies/{other_study}/games/{played.game_id}/replay": (404, "no game with this id"),
        f"/research/studies/{study_id}/games/{played.game_id}/replay?step=x": (400, "step is a whole number"),
        f"/research/studies/{study_id}/games/{played.game_id}/replay?step=99999": (400, "step is a whole number"),
        f"/research/studies/{study_id}/games/{played.game_id}/replay?step=-1": (400, "step is a whole number"),
        f"/research/studies/{study_id}/games/{played.game_id}/replay?step=%C2%B2": (400, "step is a whole number"),
        f"/research/studies/{study_id}/games/{played.game_id}/replay?step={'9' * 5000}": (
            400,
            "step is a whole number",
        ),
        "/research/studies/999999/participants": (404, "no study of yours"),
    }
    for path, (status, message) in cases.items():
        answer = researcher.get(path)
        assert answer.status_code == status and message in answer.text, path


def test_only_researchers_with_a_role_on_the_study_see_its_participants(app: Flask, played: Played) -> None:
    pages = [
        f"/research/studies/{played.study_id}/participants",
        f"/research/studies/{played.study_id}/participants/{played.participant}",
        f"/research/studies/{played.study_id}/games/{played.game_id}/replay",
    ]
    assert all(app.test_client().get(page).status_code == 302 for page in pages)  # to the login page
    app.test_cli_runner().invoke(args=["user", "create", "viewer@lab.example", "--password", PASSWORD])
    colleague = app.test_client()
    token = form_token(colleague, "/research/login")
    colleague.post("/research/login", data={"email": "viewer@lab.example", "password": PASSWORD, "csrf_token": token})
    assert all(colleague.get(page).status_code == 404 for page in pages)
    team = f"/research/studies/{played.study_id}/team"
    added = played.researcher.post(
        team, data={"email": "viewer@lab.example", "role": "viewer", "csrf_token": form_token(played.researcher, team)}
    )
    assert added.status_code in (200, 302, 303)
    assert all(colleague.get(page).status_code == 200 for page in pages)
