"""Hints that teach, through the Flask test client: plain words or r2c2, the technique's paragraph and page, partial
pencil marks, and Apply on a board without marks."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.play import blanks, enter, game_row, open_game, show_game
from werkzeug.test import TestResponse

from sudoku_engine.generate import Generated, generate_puzzle
from sudoku_engine.grid import bit, cell_name, format_values
from sudoku_engine.logic import SINGLES
from sudoku_engine.logic import solve as logic_solve
from sudoku_engine.solver import solve
from sudoku_engine.techniques import BY_ID, CATALOGUE
from webapp.games import guide, wording

STUCK_SEED = 46  # generate_puzzle(seed=46) needs more than singles: after them, an elimination step
COMPACT_CELL = re.compile(r"\br[1-9]c[1-9]\b")
# What plain words never show: cell names (grouped ones too), digit sets with slashes, chain links and nodes, sets.
NOTATION = re.compile(r"\br[1-9]+c[1-9]+\b|[1-9]/[1-9]| = |\([1-9]\)|\([1-9]=|\{")
SEED_BANK = Path(__file__).resolve().parents[2] / "webapp" / "bank" / "seed_bank" / "hardest.jsonl"
RUNG = re.compile(r"<li>(.*?)</li>", re.S)


def post(client: FlaskClient, headers: dict[str, str], game_id: str, action: str, **data: str) -> TestResponse:
    """Post a board action the way the board script does."""
    return client.post(f"/g/{game_id}/{action}", data=data, headers=headers)


def rungs_of(body: str) -> list[str]:
    """The rungs a page or fragment shows."""
    return [text.strip() for text in RUNG.findall(body.split('id="hint-panel"')[1].split("</section>")[0])]


def set_notation(client: FlaskClient, headers: dict[str, str], notation: str, back: str) -> TestResponse:
    """Choose a notation the way the hint panel's form does."""
    token = headers["X-CSRFToken"]
    return client.post("/notation", data={"notation": notation, "back": back, "csrf_token": token})


@cache
def stuck_position() -> str:
    """A position where no single is left: a puzzle after all its singles (the next hint removes candidates)."""
    trace = logic_solve(str(generate_puzzle(seed=STUCK_SEED).puzzle), allow=SINGLES)
    assert trace.final is not None
    return format_values(trace.final.values)


@pytest.fixture
def game_id(client: FlaskClient, generated: Generated) -> str:
    """A shown game on the generated puzzle."""
    found = open_game(client, str(generated.puzzle))
    show_game(client, found)
    return found


def reveal(client: FlaskClient, headers: dict[str, str], game_id: str, rungs: int = 4) -> str:
    """Press Hint this many times; the last answer."""
    body = ""
    for _ in range(rungs):
        response = post(client, headers, game_id, "hint")
        assert response.status_code == 200, response.get_data(as_text=True)
        body = response.get_data(as_text=True)
    return body


def test_plain_words_by_default_and_r2c2_once_chosen_for_every_page_after(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    body = reveal(client, csrf_headers, game_id)
    stored = game_row(app, game_id).hint
    assert stored is not None
    cell, digit = stored["placements"][0]
    rungs = rungs_of(body)
    assert not any(COMPACT_CELL.search(text) for text in rungs), rungs
    assert f"row {cell // 9 + 1}, column {cell % 9 + 1}" in rungs[2].lower()
    assert "Hint: " + rungs[3] in body  # the live region says what the panel shows
    assert int(generated.solution[cell]) == digit
    answer = set_notation(client, csrf_headers, "compact", f"/g/{game_id}")
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/g/{game_id}")
    assert "notation=compact" in answer.headers["Set-Cookie"]
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    compact = rungs_of(page)
    assert compact == list(stored["rungs"])  # the engine's own sentences, as the CLI gives them
    assert cell_name(cell) in compact[2]
    set_notation(client, csrf_headers, "plain", f"/g/{game_id}")
    assert rungs_of(client.get(f"/g/{game_id}").get_data(as_text=True)) == rungs


def test_the_notation_route_refuses_bad_input_and_goes_back_only_to_this_site(
    client: FlaskClient, csrf_headers: dict[str, str]
) -> None:
    bad = set_notation(client, csrf_headers, "emoji", "/")
    assert bad.status_code == 400 and "not a notation" in bad.get_data(as_text=True)
    assert client.post("/notation", data={"notation": "compact"}).status_code == 400  # no CSRF token
    # a tab or line break inside is dropped by browsers: "/\t/example.org" would be read as "//example.org"
    for elsewhere in (
        "https://example.org/",
        "//example.org/x",
        "/\\example.org",
        "/\t/example.org",
        "/\n/example.org",
    ):
        answer = set_notation(client, csrf_headers, "compact", elsewhere)
        assert answer.status_code == 303 and answer.headers["Location"] == "/"


def test_the_hint_names_its_family_with_a_paragraph_and_a_link_to_its_page(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], game_id: str
) -> None:
    body = reveal(client, csrf_headers, game_id, 1)
    stored = game_row(app, game_id).hint
    assert stored is not None
    family = BY_ID[stored["technique"]].family
    assert f'href="/techniques/{family}"' in body
    assert guide.FAMILIES[family].about in body
    page = client.get(f"/techniques/{family}")
    assert page.status_code == 200
    assert page.get_data(as_text=True).count('role="gridcell"') == 81


def test_every_family_of_the_catalogue_has_a_page_with_its_example_drawn_as_a_board(client: FlaskClient) -> None:
    families = {t.family for t in CATALOGUE}
    assert set(guide.FAMILIES) == families
    index = client.get("/techniques").get_data(as_text=True)
    for family in families:
        assert f'href="/techniques/{family}"' in index
        page = client.get(f"/techniques/{family}").get_data(as_text=True)
        example = guide.examples()[family]
        assert page.count('role="gridcell"') == 81
        for cell, digit in example.eliminations:
            cell_html = page.split(f'id="cell-{cell_name(cell)}"')[1].split("</div>")[0]
            assert re.search(rf'class="m m{digit}( cause)? target"', cell_html), (family, cell_name(cell))
        for name in (t.name for t in CATALOGUE if t.family == family):
            assert f"<li>{name}</li>" in page
        step_words = page.split('id="example-step"')[1].split("</p>")[0]
        assert not COMPACT_CELL.search(step_words) and " = " not in step_words, step_words
    missing = client.get("/techniques/astrology")
    assert missing.status_code == 404 and "no such family" in missing.get_data(as_text=True)


@pytest.mark.parametrize("family", sorted({t.family for t in CATALOGUE}))
def test_each_stored_example_is_still_found_on_its_position_and_is_true(family: str) -> None:
    example = guide.examples()[family]
    assert BY_ID[example.technique].family == family
    found = [
        (set(step.placements), set(step.eliminations))
        for step in BY_ID[example.technique].find(example.board())
        if step.is_progress
    ]
    assert (set(example.placements), set(example.eliminations)) in found
    solution = solve(example.puzzle)
    assert solution is not None
    position = example.position
    for cell in range(81):  # the position is the puzzle's: its digits are the solution's, its candidates keep it
        if position[cell] != ".":
            assert int(position[cell]) == solution.values[cell]
        else:
            assert example.candidates[cell] & bit(solution.values[cell])
    assert all(solution.values[c] == d for c, d in example.placements)
    assert all(solution.values[c] != d for c, d in example.eliminations)


def test_two_centre_marks_in_one_cell_get_a_hint_not_fix_your_marks(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    cell = blanks(puzzle)[0]
    wrong = [d for d in "123456789" if d != solution[cell]][:2]  # two marks, neither the cell's digit
    for digit in wrong:
        enter(client, csrf_headers, game_id, cell_name(cell), digit, mode="centre")
    body = reveal(client, csrf_headers, game_id)
    stored = game_row(app, game_id).hint
    assert stored is not None and stored["technique"] in BY_ID, stored["technique"]
    assert "pencil marks" not in body
    assert all(solution[c] == str(d) for c, d in stored["placements"])
    assert post(client, csrf_headers, game_id, "hint/apply").status_code == 200


def test_candidate_lists_are_still_checked_after_auto_candidates(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    post(client, csrf_headers, game_id, "autofill")
    cell = blanks(puzzle)[0]
    enter(client, csrf_headers, game_id, cell_name(cell), solution[cell], mode="centre")  # the true digit goes
    reveal(client, csrf_headers, game_id, 1)
    stored = game_row(app, game_id).hint
    assert stored is not None and stored["technique"] == "missing_candidate"
    assert stored["restores"] == [[cell, int(solution[cell])]]


def test_marks_in_every_empty_cell_count_as_candidate_lists(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    empty = blanks(puzzle)
    lacking = empty[0]
    for cell in empty:
        digit = solution[cell] if cell != lacking else str(int(solution[cell]) % 9 + 1)
        enter(client, csrf_headers, game_id, cell_name(cell), digit, mode="centre")
    reveal(client, csrf_headers, game_id, 1)
    stored = game_row(app, game_id).hint
    assert stored is not None and stored["technique"] == "missing_candidate"
    assert stored["restores"] == [[lacking, int(solution[lacking])]]


def test_apply_without_marks_explains_and_writes_no_mark_list(
    app: Flask, client: FlaskClient, csrf_headers: dict[str, str]
) -> None:
    position = stuck_position()
    game_id = open_game(client, position)
    show_game(client, game_id)
    reveal(client, csrf_headers, game_id)
    stored = game_row(app, game_id).hint
    assert stored is not None and stored["eliminations"] and not stored["placements"]
    answer = post(client, csrf_headers, game_id, "hint/apply")
    assert answer.status_code == 200
    body = answer.get_data(as_text=True)
    message = body.split('id="message"')[1].split("</div>")[0]
    digit = stored["eliminations"][0][1]
    assert f"{digit} leaves" in message and "nothing was written" in message
    assert not COMPACT_CELL.search(message)
    set_notation(client, csrf_headers, "compact", f"/g/{game_id}")
    again = post(client, csrf_headers, game_id, "hint/apply").get_data(as_text=True)
    names = [cell_name(c) for c, d in stored["eliminations"] if d == digit]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    assert f"This step shows that {digit} leaves {listed}, but those cells have no candidate marks" in again
    after = game_row(app, game_id)
    assert after.centre in (None, [0] * 81) and after.entries == "." * 81
    assert 'id="apply-hint"' in body  # the hint stays: with marks, Apply can take the candidates out

    post(client, csrf_headers, game_id, "autofill")
    reveal(client, csrf_headers, game_id)
    stored = game_row(app, game_id).hint
    assert stored is not None and stored["eliminations"]
    before = game_row(app, game_id).centre
    assert before is not None
    assert "cells changed" in post(client, csrf_headers, game_id, "hint/apply").get_data(as_text=True)
    centre = game_row(app, game_id).centre
    assert centre is not None
    expected = list(before)
    for cell, digit in stored["eliminations"]:
        expected[cell] &= ~bit(digit)
    assert centre == expected


def test_chain_notation_is_kept_for_the_compact_form_after_a_plain_summary() -> None:
    text = "Grouped AIC: (3)r8c1 = (8)r8c1 - (8)r8c5 = (3)r8c5, so (3)r8c1 or (3)r8c5 is true and 3 leaves r8c9."
    removals = [(71, 3)]
    plain = wording.rungs_in(
        ["Try a Grouped Nice Loop / AIC.", "Look at row 8.", "Focus on r8c1.", text], "plain", (), removals
    )
    assert not any("=" in rung or COMPACT_CELL.search(rung) for rung in plain)
    assert plain[3] == (
        "Suppose row 8, column 1 is not 3. Then row 8, column 1 is 8, so row 8, column 5 is not 8, so row 8, column 5 "
        "is 3. So either row 8, column 1 is 3 or row 8, column 5 is 3; either way 3 leaves row 8, column 9."
    )
    grouped = "Grouped AIC: (4)r1c1 = (4)r1c23 - (4)r2c2 = (4)r2c9, so (4)r1c1 or (4)r2c9 is true and 4 leaves r1c9."
    read = wording.step_in(grouped, "plain", (), [(8, 4)])
    assert "Then 4 is in row 1, columns 2 and 3, so row 2, column 2 is not 4, so row 2, column 9 is 4." in read
    compact = wording.rungs_in([text], "compact", (), removals)[0]
    assert compact.startswith(plain[3]) and compact.endswith(text)


def test_plain_words_of_cells_houses_and_digits() -> None:
    cases = {
        "r1c1 is wrong.": "Row 1, column 1 is wrong.",
        "Focus on r2c2 and digit 4.": "Focus on digit 4 in row 2, column 2.",
        "Focus on r1c1 and r3c5 and digits 2/9.": "Focus on digits 2 and 9 in row 1 column 1 and row 3 column 5.",
        "Naked pair: in box 5, r4c4 and r4c6 hold only 1/7.": "Naked pair: in box 5, row 4, columns 4 and 6 hold "
        "only 1 and 7.",
        "4 leaves r2c5, r6c5 and r9c5.": "4 leaves column 5, rows 2, 6 and 9.",
        "7 leaves r1c1 and r3c5.": "7 leaves row 1 column 1 and row 3 column 5.",
        "ALS-XZ: {r1c2} (5/6) and {r2c1, r2c3} (2/5/6)": "ALS-XZ: the cells row 1, column 2 (holding 5 and 6) and "
        "the cells row 2, columns 1 and 3 (holding 2, 5 and 6)",
    }
    for engine, plain in cases.items():
        assert wording.plain_text(engine) == plain


def test_the_techniques_of_a_solved_puzzle_link_to_their_families(
    client: FlaskClient, csrf_headers: dict[str, str], generated: Generated, game_id: str
) -> None:
    puzzle, solution = str(generated.puzzle), str(generated.solution)
    for cell in blanks(puzzle):
        enter(client, csrf_headers, game_id, cell_name(cell), solution[cell])
    listed = client.get(f"/g/{game_id}/techniques").get_data(as_text=True)
    links = re.findall(r'<li><a href="/techniques/(\w+)">([^<]+)</a>', listed)
    assert links, listed
    for family, name in links:
        assert any(t.name == name and t.family == family for t in CATALOGUE), (family, name)


def test_every_step_along_the_hardest_puzzles_reads_in_plain_words() -> None:
    """The sentences of every technique the solver takes through 20 of the seed set's hardest puzzles (44 techniques,
    chains, loops and sets among them) show no notation in plain words, and every chain is read as sentences."""
    seen = set()
    for line in SEED_BANK.read_text().splitlines()[:20]:
        for step in logic_solve(json.loads(line)["puzzle"]).steps:
            seen.add(step.technique)
            plain = wording.step_in(step.text, "plain", step.placements, step.eliminations)
            assert not NOTATION.search(plain), (step.technique, plain)
            if wording.has_chain_notation(step.text):
                assert plain.startswith("Suppose "), step.text
    assert {"x_chain", "xy_chain", "nice_loop", "grouped_nice_loop", "als_xz", "als_chain"} <= seen
