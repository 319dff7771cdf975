"""Hints that teach, in a real browser against the live server: plain words by default and r2c2 once chosen (kept
across a reload), the technique's page with its example drawn as a board, partial pencil marks, and Apply on a
board without marks."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from helpers.axe import assert_accessible
from helpers.board_page import (
    ARTIFACTS,
    CELL_WORD,
    STUCK_SEED,
    after_singles,
    candidates,
    cell_at,
    empties,
    events_of,
    hint_rungs,
    named_cells,
    next_rung,
    open_puzzle,
    snapshot,
    solution_of,
    stored,
    values_of,
    wait_for_board,
)
from playwright.sync_api import Page, expect

from sudoku_engine.generate import Generated, generate_puzzle
from sudoku_engine.techniques import BY_ID, CATALOGUE

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def easy(generated: Generated) -> tuple[str, str]:
    """An easy generated puzzle (singles only) and its solution."""
    return str(generated.puzzle), solution_of(str(generated.puzzle))


@pytest.fixture(scope="module")
def stuck() -> tuple[str, str]:
    """A position where no single is left (a puzzle after all its singles), and its solution."""
    position = after_singles(str(generate_puzzle(seed=STUCK_SEED).puzzle))
    return position, solution_of(position)


def test_a_hint_in_plain_words_and_the_switch_to_r2c2_survives_a_reload(page: Page, easy: tuple[str, str]) -> None:
    puzzle, _solution = easy
    open_puzzle(page, puzzle)
    for rung in range(1, 4):
        next_rung(page, rung)
    plain = hint_rungs(page)
    assert not any(CELL_WORD.search(text) for text in plain), plain
    assert re.search(r"\brow [1-9], column [1-9]\b", plain[2], re.I), plain[2]
    targets = named_cells(plain[2])
    assert len(targets) == 1
    page.locator("#notation-switch").click()
    expect(page.locator("#hint-panel .rungs li")).to_have_count(3)
    compact = hint_rungs(page)
    assert set(CELL_WORD.findall(compact[2])) == {(str(c // 9 + 1), str(c % 9 + 1)) for c in targets}
    page.reload()
    expect(page.locator("#hint-panel .rungs li")).to_have_count(3)
    assert hint_rungs(page) == compact
    page.locator("#notation-switch").click()
    expect(page.locator("#hint-panel .rungs li").nth(2)).to_have_text(plain[2])


def test_the_technique_link_opens_its_family_page_with_a_drawn_board(
    page: Page, live_app: tuple[Flask, str], stuck: tuple[str, str]
) -> None:
    position, _solution = stuck
    game_id = open_puzzle(page, position)
    next_rung(page, 1)
    hint = stored(live_app[0], game_id).hint
    assert hint is not None
    family = BY_ID[hint["technique"]].family
    assert family != "singles", "no single is left: the example's step removes candidates"
    about = page.locator("#technique-about")
    expect(about).to_be_visible()
    with page.context.expect_page() as opened:
        about.locator("a.technique-link").click()
    guide = opened.value
    guide.wait_for_load_state()
    assert guide.url.endswith(f"/techniques/{family}")
    board = guide.locator("#board")
    expect(board.locator("[data-cell]")).to_have_count(81)
    targets = board.locator("[data-cell].hint-effect")
    expect(targets.first).to_be_visible()
    assert board.locator(".m.target").count() >= 1  # the candidates the step removes or places are marked
    drawn = guide.eval_on_selector_all(
        "#board [data-cell]", "(cells) => cells.map((c) => c.dataset.digit || '.').join('')"
    )
    example = solution_of(drawn)  # the drawn digits are a real position of a puzzle with one solution
    for locator in targets.all():
        name = locator.get_attribute("data-cell") or ""
        cell = (int(name[1]) - 1) * 9 + int(name[3]) - 1
        marked = {int(m) for m in locator.locator(".m.target").all_inner_texts()}
        assert marked, f"{name} shows which candidate changes"
        assert all(str(d) != example[cell] for d in marked), f"the step removes no true digit from {name}"
    expect(guide.locator("#example-step")).not_to_have_text(CELL_WORD)
    assert_accessible(guide, f"the {family} page")
    assert_accessible(page, "a game with its hint naming the technique")
    ARTIFACTS.mkdir(exist_ok=True)
    for shot, shown in ((f"technique-{family}.png", guide), ("hint-technique-named.png", page)):
        path = ARTIFACTS / shot
        shown.screenshot(path=str(path), full_page=True)  # for a person to look at
        assert path.stat().st_size > 10_000
    guide.locator(".crumbs a").click()  # the guide's index, every family linked
    expect(guide.locator("#techniques-guide h2 a")).to_have_count(len({t.family for t in CATALOGUE}))
    assert_accessible(guide, "the technique guide")
    guide.close()


def test_a_player_with_two_centre_marks_in_one_cell_gets_a_hint(
    page: Page, live_app: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    game_id = open_puzzle(page, puzzle)
    cell = next(c for c in empties(puzzle) if len(candidates(values_of(puzzle))[c]) > 2)
    marks = [d for d in sorted(candidates(values_of(puzzle))[cell]) if str(d) != solution[cell]][:2]
    cell_at(page, cell).click()
    for digit in marks:
        page.keyboard.press(f"Control+{digit}")
    expect(cell_at(page, cell).locator(".centre .m")).to_have_count(2)
    for rung in range(1, 5):
        next_rung(page, rung)
    rungs = hint_rungs(page)
    assert rungs[0].startswith("Try a"), rungs[0]
    assert not any("pencil marks" in text for text in rungs)
    before = snapshot(page)
    page.locator("#apply-hint").click()
    expect(page.locator("#message")).to_have_text(re.compile(r"^Hint applied: \d+ cells? changed\.$"))
    after = snapshot(page)
    placed = [c for c in range(81) if before[c].split("/")[0] != after[c].split("/")[0]]
    assert placed and all(after[c].split("/")[0] == solution[c] for c in placed)
    assert events_of(live_app[0], game_id)[-1].kind == "apply"


def test_apply_without_marks_explains_and_never_writes_a_mark_list(
    page: Page, live_app: tuple[Flask, str], stuck: tuple[str, str]
) -> None:
    position, solution = stuck
    game_id = open_puzzle(page, position)
    for rung in range(1, 5):
        next_rung(page, rung)
    hint = stored(live_app[0], game_id).hint
    assert hint is not None and hint["eliminations"] and not hint["placements"]
    before = snapshot(page)
    assert all(s.endswith("//") for s in before), "no marks on the board"
    page.locator("#apply-hint").click()
    message = page.locator("#message")
    expect(message).to_contain_text("nothing was written")
    assert not CELL_WORD.search(message.inner_text())
    wait_for_board(page, before)
    expect(page.locator("#apply-hint")).to_be_visible()

    page.locator("#autofill").click()  # with candidates on the board, Apply takes the step's out of them
    expect(message).to_contain_text("Candidates filled in")
    for rung in range(1, 5):
        next_rung(page, rung)
    filled = snapshot(page)
    page.locator("#apply-hint").click()
    expect(message).to_contain_text("Hint applied")
    hint_after = stored(live_app[0], game_id)
    assert hint_after.centre is not None
    for cell, digit in hint["eliminations"]:
        assert str(digit) in filled[cell].split("/")[2] and solution[cell] != str(digit)
        assert not hint_after.centre[cell] & (1 << (digit - 1))
