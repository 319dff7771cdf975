"""The game board in a real browser: keys, marks, undo, candidates, highlights, hints, pause, completion, a11y.

Every test drives Debian's Chromium against the live server and checks what it sees against facts worked out here:
the solution from the solver, candidates computed from the givens, and the events stored in the database.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections import Counter

import pytest
from flask import Flask
from helpers.board_page import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    board_snapshot,
    candidates,
    cell_at,
    empties,
    events_of,
    every_look,
    expect_solved,
    focused_cell,
    hint_rungs,
    marked_for_screenshots,
    name,
    named_cells,
    new_page,
    next_rung,
    open_puzzle,
    peers,
    settled,
    snapshot,
    spoken,
    stored,
    unit_cells,
    values_of,
    wait_for_board,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from sudoku_engine import difficulty
from sudoku_engine.techniques import CATALOGUE

pytestmark = pytest.mark.browser

HIDE_PAGE = """() => {
  Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
  Object.defineProperty(document, 'hidden', {value: true, configurable: true});
  document.dispatchEvent(new Event('visibilitychange'));
}"""
SHOW_PAGE = """() => {
  delete document.visibilityState;
  delete document.hidden;
  document.dispatchEvent(new Event('visibilitychange'));
}"""
UNIT_WORD = re.compile(r"\b(row|column|box) ([1-9])\b")
TIMER_TEXT = re.compile(r"^(\d+):(\d\d)$")


# Facts worked out without the app ------------------------------------------------------------------------------


def clashing(values: list[int]) -> set[int]:
    """Filled cells that share a house with an equal digit."""
    return {c for c in range(81) if values[c] and any(values[p] == values[c] for p in peers(c))}


def wrong_digit(puzzle: str, solution: str, cell: int) -> int:
    """A digit for an empty cell that is a candidate there but not the solution's (so it is wrong, not a clash)."""
    options = sorted(candidates(values_of(puzzle))[cell] - {int(solution[cell])})
    assert options, f"{name(cell)} has a single candidate"
    return options[0]


# The page ------------------------------------------------------------------------------------------------------


# at a fraction of a second each, a keyboard walk's 50 or more answers can take most of a minute


def classed(page: Page, css_class: str) -> set[int]:
    """The indexes of board cells carrying a class."""
    names = page.eval_on_selector_all(f"#board [data-cell].{css_class}", "(cells) => cells.map((c) => c.dataset.cell)")
    return {(int(n[1]) - 1) * 9 + int(n[3]) - 1 for n in names}


def expect_cells(page: Page, css_class: str, cells: set[int], timeout: float = 5000) -> None:
    """Wait until exactly these board cells carry a class (htmx settles swapped classes a moment later), check it."""
    want = sorted(name(c) for c in cells)
    script = """([cls, want]) => JSON.stringify(Array.from(
      document.querySelectorAll('#board [data-cell].' + cls), (c) => c.dataset.cell).sort()) === JSON.stringify(want)"""
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(script, arg=[css_class, want], timeout=timeout)
    assert classed(page, css_class) == cells


def expect_tab_stop(page: Page, cell: int) -> None:
    """Wait until this cell is the board's only tab stop."""
    stops = page.locator('#board [tabindex="0"]')
    expect(stops).to_have_count(1)
    expect(stops).to_have_attribute("data-cell", name(cell))


def tab_stops(page: Page) -> list[str]:
    """The board cells with tabindex 0."""
    found = page.eval_on_selector_all('#board [tabindex="0"]', "(cells) => cells.map((c) => c.dataset.cell)")
    return [str(n) for n in found]


def named_units(text: str) -> set[int]:
    """The cells of the rows, columns and boxes a sentence names."""
    return {cell for kind, n in UNIT_WORD.findall(text) for cell in unit_cells(kind, int(n))}


def timer_seconds(text: str) -> int:
    """Seconds shown by an m:ss timer."""
    match = TIMER_TEXT.match(text.strip())
    assert match, f"timer shows {text!r}"
    return int(match.group(1)) * 60 + int(match.group(2))


def type_walk(page: Page, puzzle: str, solution: str) -> list[int]:
    """From r1c1, walk the rows in a snake with the arrow keys typing every missing digit; the cells filled."""
    filled = []
    order = [row * 9 + (col if row % 2 == 0 else 8 - col) for row in range(9) for col in range(9)]
    for step, cell in enumerate(order):
        if puzzle[cell] == ".":
            page.keyboard.press(solution[cell])
            filled.append(cell)
        if step + 1 < len(order):
            following = order[step + 1]
            if following // 9 != cell // 9:
                page.keyboard.press("ArrowDown")
            else:
                page.keyboard.press("ArrowRight" if following > cell else "ArrowLeft")
    return filled


# The database --------------------------------------------------------------------------------------------------


# Fixtures ------------------------------------------------------------------------------------------------------


# 1. Keyboard only ----------------------------------------------------------------------------------------------


def test_keyboard_only_game_from_tab_to_completion(
    page: Page, live_app: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    game_id = open_puzzle(page, puzzle)
    for _tab in range(5):
        page.keyboard.press("Tab")
        if focused_cell(page):
            break
    assert focused_cell(page) == "r1c1", "Tab reaches the board at its one tab stop, r1c1"
    expect(cell_at(page, 0)).to_have_class(re.compile(r"\bselected\b"))
    filled = type_walk(page, puzzle, solution)
    expect_solved(page)
    wait_for_board(page, board_snapshot(solution))
    expect(page.locator("#timer")).to_have_attribute("data-state", "done")

    game = stored(live_app[0], game_id)
    assert game.completed_at is not None
    assert game.entries == "".join(solution[c] if c in filled else "." for c in range(81))
    assert game.mistakes == 0 and game.solve_seconds is not None and game.solve_seconds > 0
    events = events_of(live_app[0], game_id)
    assert [e.kind for e in events] == ["show"] + ["enter"] * len(filled) + ["complete"]
    entered = [e for e in events if e.kind == "enter"]
    assert [(e.cell, e.digit, e.mode) for e in entered] == [(c, int(solution[c]), "digit") for c in filled]
    assert len({e.key for e in entered}) == len(entered) and None not in {e.key for e in entered}
    stamps = [e.client_ms for e in entered]
    assert None not in stamps and stamps == sorted(stamps)  # type: ignore[type-var]


# 2. Pencil marks -----------------------------------------------------------------------------------------------


def test_corner_and_centre_marks_by_keys_and_by_modes(
    page: Page, live_app: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    game_id = open_puzzle(page, puzzle)
    blank = empties(puzzle)
    target = blank[0]
    same_row = next(c for c in blank if c != target and c // 9 == target // 9)
    far = next(c for c in blank if c not in peers(target) and c != target)
    digit = solution[target]
    d1, d2, d3, d4 = [d for d in "123456789" if d != digit][:4]

    cell_at(page, same_row).click()
    for key in (f"Shift+{d1}", f"Shift+{d2}", f"Shift+{digit}", f"Control+{d3}", f"Control+{digit}", f"Control+{d4}"):
        page.keyboard.press(key)
    corner_marks = "".join(sorted({d1, d2, digit}))
    centre_marks = "".join(sorted({d3, d4, digit}))
    expected = board_snapshot(puzzle, {same_row: corner_marks}, {same_row: centre_marks})
    wait_for_board(page, expected)
    label = f"{spoken(same_row)}, empty, corner marks {' '.join(corner_marks)}, candidates {' '.join(centre_marks)}"
    expect(cell_at(page, same_row)).to_have_attribute("aria-label", label)
    page.keyboard.press(f"Shift+{d1}")  # the same mark again takes it away
    corner_marks = corner_marks.replace(d1, "")
    expected[same_row] = f"/{corner_marks}/{centre_marks}"
    wait_for_board(page, expected)

    cell_at(page, far).click()
    page.locator('[data-mode="corner"]').click()
    expect(page.locator('[data-mode="corner"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('[data-mode="digit"]')).to_have_attribute("aria-pressed", "false")
    page.locator(f'.pad-digit[data-digit="{digit}"]').click()
    page.locator(f'.pad-digit[data-digit="{d4}"]').click()
    page.locator('[data-mode="centre"]').click()
    expect(page.locator('[data-mode="centre"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('[data-mode="corner"]')).to_have_attribute("aria-pressed", "false")
    page.locator(f'.pad-digit[data-digit="{digit}"]').click()
    far_corner = "".join(sorted({d4, digit}))
    expected[far] = f"/{far_corner}/{digit}"
    wait_for_board(page, expected)
    expect(cell_at(page, far).locator(".corner .m")).to_have_count(2)

    page.locator('[data-mode="digit"]').click()
    cell_at(page, target).click()
    page.keyboard.press(digit)  # the digit leaves the marks of the peer in its row, not those of the far cell
    expected[target] = f"{digit}//"
    expected[same_row] = f"/{corner_marks.replace(digit, '')}/{centre_marks.replace(digit, '')}"
    wait_for_board(page, expected)

    marks = [(e.cell, e.digit, e.mode) for e in events_of(live_app[0], game_id) if e.kind == "mark"]
    assert marks == [
        (same_row, int(d1), "corner"),
        (same_row, int(d2), "corner"),
        (same_row, int(digit), "corner"),
        (same_row, int(d3), "centre"),
        (same_row, int(digit), "centre"),
        (same_row, int(d4), "centre"),
        (same_row, int(d1), "corner"),
        (far, int(digit), "corner"),
        (far, int(d4), "corner"),
        (far, int(digit), "centre"),
    ]


# 3. Clearing ---------------------------------------------------------------------------------------------------


def test_same_digit_again_and_backspace_delete_zero_clear(
    page: Page, live_app: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    game_id = open_puzzle(page, puzzle)
    first, second = empties(puzzle)[:2]
    expected = board_snapshot(puzzle)
    cell_at(page, first).click()
    page.keyboard.press(solution[first])
    expected[first] = f"{solution[first]}//"
    wait_for_board(page, expected)
    page.keyboard.press(solution[first])  # the same digit again
    expected[first] = "//"
    wait_for_board(page, expected)
    page.keyboard.press("7")
    expected[first] = "7//"
    wait_for_board(page, expected)
    page.keyboard.press("Backspace")
    expected[first] = "//"
    wait_for_board(page, expected)

    cell_at(page, second).click()
    for key in ("Shift+2", "Control+3", "Control+8"):
        page.keyboard.press(key)
    expected[second] = "/2/38"
    wait_for_board(page, expected)
    page.keyboard.press("9")  # a digit hides the marks...
    expected[second] = "9//"
    wait_for_board(page, expected)
    page.keyboard.press("Delete")  # ...Delete takes the digit
    expected[second] = "//"
    wait_for_board(page, expected)
    for key in ("Shift+4", "Control+6"):
        page.keyboard.press(key)
    expected[second] = "/4/6"
    wait_for_board(page, expected)
    page.keyboard.press("0")  # an empty cell's marks go with 0 (or Backspace)
    expected[second] = "//"
    wait_for_board(page, expected)

    kinds = [(e.kind, e.cell) for e in events_of(live_app[0], game_id) if e.kind in ("enter", "clear")]
    assert kinds == [
        ("enter", first),
        ("clear", first),
        ("enter", first),
        ("clear", first),
        ("enter", second),
        ("clear", second),
        ("clear", second),
    ]


# 4. Undo and redo ----------------------------------------------------------------------------------------------


def test_undo_redo_by_keys_and_buttons_restore_the_board_exactly(page: Page, easy: tuple[str, str]) -> None:
    puzzle, solution = easy
    open_puzzle(page, puzzle)
    undo, redo = page.locator('[data-action="undo"]'), page.locator('[data-action="redo"]')
    expect(undo).to_have_attribute("aria-disabled", "true")
    expect(redo).to_have_attribute("aria-disabled", "true")
    blank = empties(puzzle)
    a, b, c = blank[0], blank[10], blank[20]
    e = next(x for x in blank if x in peers(a) and x not in (b, c))
    states = [snapshot(page)]

    def then(expected: list[str]) -> None:
        wait_for_board(page, expected)
        states.append(expected)

    cell_at(page, a).click()
    page.keyboard.press(solution[a])
    then(states[-1][:a] + [f"{solution[a]}//"] + states[-1][a + 1 :])
    cell_at(page, b).click()
    page.keyboard.press("Shift+5")
    then(states[-1][:b] + ["/5/"] + states[-1][b + 1 :])
    cell_at(page, c).click()
    page.keyboard.press("Control+6")
    then(states[-1][:c] + ["//6"] + states[-1][c + 1 :])
    page.locator("#autofill").click()
    values = values_of(puzzle)
    values[a] = int(solution[a])
    cands = candidates(values)
    filled = ["".join(map(str, sorted(cands[x]))) for x in range(81)]
    then([s if not filled[x] else f"/{'5' if x == b else ''}/{filled[x]}" for x, s in enumerate(states[-1])])
    cell_at(page, e).click()
    page.keyboard.press(solution[e])  # removes the digit from the peers' centre marks
    d = solution[e]
    then(
        [
            f"{d}//" if x == e else (s.replace(d, "") if x in peers(e) and not s.split("/")[0] else s)
            for x, s in enumerate(states[-1])
        ]
    )
    assert states[-1] != states[-2]
    expect(undo).to_have_attribute("aria-disabled", "false")

    for step, how in enumerate(("Control+z", "button", "Control+z", "button", "Control+z")):
        if how == "button":
            undo.click()
        else:
            page.keyboard.press(how)
        wait_for_board(page, states[-2 - step])
        expect(redo).to_have_attribute("aria-disabled", "false")
    expect(undo).to_have_attribute("aria-disabled", "true")

    for step, how in enumerate(("Control+y", "button", "Control+Shift+z", "Control+y", "button")):
        if how == "button":
            redo.click()
        else:
            page.keyboard.press(how)
        wait_for_board(page, states[1 + step])
    expect(redo).to_have_attribute("aria-disabled", "true")

    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    wait_for_board(page, states[3])
    expect(redo).to_have_attribute("aria-disabled", "false")
    cell_at(page, c).click()
    page.keyboard.press("Control+7")  # a new action drops what was undone
    after_new = states[3][:c] + ["//67"] + states[3][c + 1 :]
    wait_for_board(page, after_new)
    expect(redo).to_have_attribute("aria-disabled", "true")
    page.keyboard.press("Control+y")
    redo.click(force=True)
    page.keyboard.press("Control+z")
    wait_for_board(page, states[3])


# 5. Auto-candidates --------------------------------------------------------------------------------------------


def test_auto_candidates_equal_the_candidates_from_the_givens(
    page: Page, live_app: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    game_id = open_puzzle(page, puzzle)
    first = empties(puzzle)[0]
    cell_at(page, first).click()
    page.keyboard.press("Shift+9")  # a corner mark stays as it is
    page.locator("#autofill").click()
    cands = candidates(values_of(puzzle))
    corner = {first: "9"}
    centre = {c: "".join(map(str, sorted(cands[c]))) for c in empties(puzzle)}
    wait_for_board(page, board_snapshot(puzzle, corner, centre))
    assert all(solution[c] in centre[c] for c in centre)
    label = f"{spoken(first)}, empty, corner marks 9, candidates {' '.join(centre[first])}"
    expect(cell_at(page, first)).to_have_attribute("aria-label", label)
    expect(page.locator("#message")).to_have_text(f"Candidates filled in: {len(centre)} cells changed.")
    assert [e.kind for e in events_of(live_app[0], game_id)][-1] == "autofill"


# 6. Highlights -------------------------------------------------------------------------------------------------


def test_highlights_of_peers_and_of_the_same_digit(page: Page, easy: tuple[str, str]) -> None:
    puzzle, solution = easy
    open_puzzle(page, puzzle)
    blank = empties(puzzle)
    empty_cell = blank[0]
    cell_at(page, empty_cell).click()
    expect(cell_at(page, empty_cell)).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#board .selected")).to_have_count(1)
    expect_cells(page, "peer", peers(empty_cell))
    expect(page.locator("#board .same")).to_have_count(0)

    given = next(c for c in range(81) if puzzle[c] != "." and c not in peers(empty_cell))
    digit = puzzle[given]
    entry = next(c for c in blank if solution[c] == digit)
    marked = [c for c in blank if c != entry and solution[c] != digit and c not in peers(entry)][:2]
    cell_at(page, entry).click()
    page.keyboard.press(digit)
    cell_at(page, marked[0]).click()
    page.keyboard.press(f"Shift+{digit}")
    cell_at(page, marked[1]).click()
    page.keyboard.press(f"Control+{digit}")
    page.keyboard.press("Control+1" if digit != "1" else "Control+2")
    expect(cell_at(page, marked[1]).locator(".centre .m")).to_have_count(2)

    cell_at(page, given).click()
    holders = {c for c in range(81) if puzzle[c] == digit or c == entry} - {given}
    expect_cells(page, "same", holders)
    for cell, kind in ((marked[0], "corner"), (marked[1], "centre")):
        expect(cell_at(page, cell).locator(f".{kind} .m{digit}")).to_have_class(re.compile(r"\bsame\b"))
        expect(cell_at(page, cell).locator(".m.same")).to_have_count(1)
        expect(cell_at(page, cell)).not_to_have_class(re.compile(r"\bsame\b"))
    expect_cells(page, "peer", peers(given))
    expect_cells(page, "selected", {given})

    cell_at(page, entry).click()  # a placed digit highlights the same way
    expect_cells(page, "same", holders - {entry} | {given})


# 7. Conflicts --------------------------------------------------------------------------------------------------


def test_conflicting_digits_are_marked_and_named_until_cleared(page: Page, easy: tuple[str, str]) -> None:
    puzzle, solution = easy
    open_puzzle(page, puzzle)
    blank = empties(puzzle)
    a = blank[0]
    b = next(c for c in blank if c != a and c // 9 == a // 9)
    digit = solution[a]
    cell_at(page, a).click()
    page.keyboard.press(digit)
    expect(cell_at(page, a)).to_have_text(digit)
    expect(page.locator("#board .conflict")).to_have_count(0)
    cell_at(page, b).click()
    page.keyboard.press(digit)
    values = values_of(puzzle)
    values[a] = values[b] = int(digit)
    clashes = clashing(values)
    assert {a, b} <= clashes
    expect_cells(page, "conflict", clashes)
    for cell in (a, b):
        expect(cell_at(page, cell)).to_have_attribute("aria-label", f"{spoken(cell)}, {digit}, conflict")
    badge = cell_at(page, b).evaluate("(c) => getComputedStyle(c, '::after').content")
    assert badge == '"!"'
    expect(page.locator("#message")).to_contain_text(f"{digit} in row {b // 9 + 1}, column {b % 9 + 1}. Conflict")
    page.keyboard.press("Backspace")
    expect(page.locator("#board .conflict")).to_have_count(0)
    expect(cell_at(page, a)).to_have_attribute("aria-label", f"{spoken(a)}, {digit}")


# 8. Mistake checking -------------------------------------------------------------------------------------------


def test_mistake_checking_off_by_default_then_on_then_off(
    page: Page, live_app: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    game_id = open_puzzle(page, puzzle)
    blank = empties(puzzle)
    wrong_cell = next(c for c in blank if len(candidates(values_of(puzzle))[c]) > 1)
    right_cell = next(c for c in blank if c not in peers(wrong_cell) and c != wrong_cell)
    wrong = str(wrong_digit(puzzle, solution, wrong_cell))
    check = page.locator("#check")
    expect(check).to_have_attribute("aria-pressed", "false")
    cell_at(page, wrong_cell).click()
    page.keyboard.press(wrong)
    cell_at(page, right_cell).click()
    page.keyboard.press(solution[right_cell])
    expect(cell_at(page, right_cell)).to_have_text(solution[right_cell])
    expect(cell_at(page, wrong_cell)).to_have_text(wrong)
    expect(page.locator("#board .mistake")).to_have_count(0)
    expect(cell_at(page, wrong_cell)).to_have_attribute("aria-label", f"{spoken(wrong_cell)}, {wrong}")

    check.click()
    expect(page.locator("#check")).to_have_attribute("aria-pressed", "true")
    expect_cells(page, "mistake", {wrong_cell})
    expect(cell_at(page, wrong_cell)).to_have_attribute("aria-label", f"{spoken(wrong_cell)}, {wrong}, wrong digit")
    expect(page.locator("#message")).to_have_text("Mistake checking on. 1 wrong digit marked.")

    page.locator("#check").click()
    expect(page.locator("#check")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#board .mistake")).to_have_count(0)
    expect(cell_at(page, wrong_cell)).to_have_attribute("aria-label", f"{spoken(wrong_cell)}, {wrong}")

    settled(page)
    events = events_of(live_app[0], game_id)
    assert [e.detail for e in events if e.kind == "check"] == [{"on": True}, {"on": False}]
    assert stored(live_app[0], game_id).mistakes == 1


# 9. Hints ------------------------------------------------------------------------------------------------------


def test_hint_ladder_points_at_a_wrong_digit_first_then_applies_a_placement(
    page: Page, live_app: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    game_id = open_puzzle(page, puzzle)
    panel = page.locator("#hint-panel")
    expect(panel).to_be_hidden()
    wrong_cell = next(c for c in empties(puzzle) if len(candidates(values_of(puzzle))[c]) > 1)
    cell_at(page, wrong_cell).click()
    page.keyboard.press(str(wrong_digit(puzzle, solution, wrong_cell)))

    next_rung(page, 1)
    expect(panel).to_be_visible()
    assert "wrong" in hint_rungs(page)[0]
    expect(page.locator("#board [class*='hint-']")).to_have_count(0)
    expect(page.locator("#message")).to_have_text("Hint: " + hint_rungs(page)[0])
    next_rung(page, 2)
    box = next(n for n in range(1, 10) if wrong_cell in unit_cells("box", n))
    assert hint_rungs(page)[1] == f"Look at box {box}."
    expect_cells(page, "hint-area", unit_cells("box", box))
    next_rung(page, 3)
    assert named_cells(hint_rungs(page)[2]) == {wrong_cell}
    expect_cells(page, "hint-effect", {wrong_cell})
    expect_cells(page, "hint-area", unit_cells("box", box) - {wrong_cell})
    expect(cell_at(page, wrong_cell)).to_have_attribute("aria-label", re.compile(r", hint target$"))
    expect(page.locator("#apply-hint")).to_have_count(0)
    next_rung(page, 4)
    expect(page.locator("#apply-hint")).to_be_visible()
    page.locator("#apply-hint").click()
    expect(cell_at(page, wrong_cell)).to_have_text("")
    expect(panel).to_be_hidden()
    expect(page.locator("#board [class*='hint-']")).to_have_count(0)

    before = snapshot(page)
    next_rung(page, 1)
    assert re.fullmatch(r"Try a Hidden Single \((box|row|column)\)\.", hint_rungs(page)[0])
    expect(page.locator("#board [class*='hint-']")).to_have_count(0)
    next_rung(page, 2)
    area = named_units(hint_rungs(page)[1])
    assert len(area) == 9
    expect_cells(page, "hint-area", area)
    page.locator("#hint-panel button[data-action='hint']").click()  # the panel's own Show more button
    expect(page.locator("#hint-panel .rungs li")).to_have_count(3)
    targets = named_cells(hint_rungs(page)[2])
    assert len(targets) == 1 and targets <= area, "a hidden single's one cell, in its house"
    expect_cells(page, "hint-effect", targets)
    expect_cells(page, "hint-area", area - targets)
    expect(page.locator("#board .hint-cause")).to_have_count(0)
    next_rung(page, 4)
    page.locator("#apply-hint").click()
    expect(page.locator("#message")).to_have_text(re.compile(r"^Hint applied: \d+ cells? changed\.$"))
    after = snapshot(page)
    placed = {c for c in range(81) if before[c].split("/")[0] != after[c].split("/")[0]}
    assert placed == targets
    assert all(after[c].split("/")[0] == solution[c] for c in placed), "a hint places the solution's digit"

    events = [e for e in events_of(live_app[0], game_id) if e.kind in ("hint", "apply")]
    assert [(e.kind, e.rung) for e in events] == [
        ("hint", 1),
        ("hint", 2),
        ("hint", 3),
        ("hint", 4),
        ("apply", None),
    ] * 2
    assert events[0].detail == {"technique": "wrong_entry"}


def test_hint_eliminations_keep_every_solution_digit(
    page: Page, live_app: tuple[Flask, str], stuck: tuple[str, str]
) -> None:
    position, solution = stuck
    game_id = open_puzzle(page, position)
    for rung in range(1, 5):
        next_rung(page, rung)
    rungs = hint_rungs(page)
    assert "Single" not in rungs[0], "no single is left in this position"
    causes = named_cells(rungs[2])
    expect_cells(page, "hint-cause", causes)
    targets = classed(page, "hint-effect")
    digits = {int(d) for d in re.findall(r"\bdigits? ([1-9])\b", rungs[2])}
    assert len(digits) == 1
    digit = digits.pop()
    cands = candidates(values_of(position))
    assert targets and all(digit in cands[c] and c not in causes for c in targets)
    before = snapshot(page)
    assert all(s == f"{position[c] if position[c] != '.' else ''}//" for c, s in enumerate(before))
    page.locator("#apply-hint").click()  # no marks on the board: Apply says what the step removes, writes no list
    expect(page.locator("#message")).to_contain_text(f"This step shows that {digit} leaves")
    expect(page.locator("#message")).to_contain_text("nothing was written")
    wait_for_board(page, before)
    for c in targets:
        assert solution[c] != str(digit), f"{name(c)} keeps its solution digit"
    apply_event = events_of(live_app[0], game_id)[-1]
    assert apply_event.kind == "apply" and apply_event.detail is not None
    assert apply_event.detail["change"] == []


# 10. Pause -----------------------------------------------------------------------------------------------------


def test_pause_hides_the_board_stops_the_clock_and_is_not_solve_time(
    page: Page, live_app: tuple[Flask, str], nearly_solved: tuple[str, str]
) -> None:
    puzzle, solution = nearly_solved
    started = time.monotonic()
    game_id = open_puzzle(page, puzzle)
    timer = page.locator("#timer")
    expect(timer).to_have_attribute("data-state", "running")
    expect(timer).not_to_have_text(timer.inner_text(), timeout=4000)  # the clock runs

    page.locator("#pause").click()
    expect(page.locator("#game")).to_have_class(re.compile(r"\bpaused\b"))
    expect(page.locator("#pause-cover")).to_be_visible()
    expect(cell_at(page, 0)).not_to_be_visible()
    expect(page.locator("#board")).not_to_be_visible()
    expect(page.locator("#resume")).to_be_focused()
    expect(timer).to_have_attribute("data-state", "paused")
    shown = timer.inner_text()
    page.wait_for_timeout(1600)  # the only wait: the paused clock must not move
    expect(timer).to_have_text(shown, timeout=0)
    game = stored(live_app[0], game_id)
    assert game.paused_at is not None and game.pause_reason == "button"
    page.keyboard.press("Tab")  # keys while paused change nothing
    cell_at(page, empties(puzzle)[0]).dispatch_event("click")
    page.keyboard.press(solution[empties(puzzle)[0]])

    page.locator("#resume").click()
    expect(timer).to_have_attribute("data-state", "running")
    expect(page.locator("#pause-cover")).to_be_hidden()
    expect(cell_at(page, 0)).to_be_visible()
    assert timer_seconds(timer.inner_text()) <= timer_seconds(shown) + 2, "the clock goes on from where it stopped"

    with page.expect_request(re.compile(r"/pause$")) as hidden_pause:
        page.evaluate(HIDE_PAGE)
    assert "reason=hidden" in (hidden_pause.value.post_data or "")
    expect(page.locator("#game")).to_have_class(re.compile(r"\bpaused\b"))
    expect(page.locator("#board")).not_to_be_visible()
    hidden_pause.value.response()
    game = stored(live_app[0], game_id)
    assert game.paused_at is not None and game.pause_reason == "hidden"
    page.evaluate(SHOW_PAGE)
    page.locator("#resume").click()
    expect(timer).to_have_attribute("data-state", "running")
    expect(page.locator("#board")).to_be_visible()

    for cell in empties(puzzle):
        cell_at(page, cell).click()
        page.keyboard.press(solution[cell])
    expect_solved(page)
    wall = time.monotonic() - started
    game = stored(live_app[0], game_id)
    assert game.solve_seconds is not None and game.paused_seconds > 1.5
    assert game.solve_seconds <= wall - game.paused_seconds + 0.05
    pauses = [
        (e.kind, (e.detail or {}).get("reason"), (e.detail or {}).get("by")) for e in events_of(live_app[0], game_id)
    ]
    assert [p for p in pauses if p[0] in ("pause", "resume")] == [
        ("pause", "button", None),
        ("resume", None, "button"),
        ("pause", "hidden", None),
        ("resume", None, "button"),
    ]
    assert not any(kind == "enter" for kind, _r, _b in pauses[: pauses.index(("resume", None, "button"))])


def test_hidden_pause_holds_when_an_action_is_refused(
    page: Page, live_app: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    game_id = open_puzzle(page, puzzle)
    first = empties(puzzle)[0]
    cell_at(page, first).click()
    page.keyboard.press(solution[first])
    expect(cell_at(page, first)).to_have_text(solution[first])
    page.reload()  # a fresh page with something to undo and no swap still settling
    expect(page.locator('[data-action="undo"]')).to_have_attribute("aria-disabled", "false")
    with page.expect_response(re.compile(r"/pause$")):
        page.evaluate(HIDE_PAGE)
    page.evaluate(SHOW_PAGE)
    expect(page.locator("#game")).to_have_class(re.compile(r"\bpaused\b"))
    assert stored(live_app[0], game_id).pause_reason == "hidden"
    with page.expect_response(re.compile(r"/undo$")) as refused:
        page.keyboard.press("Control+z")  # back on the tab, the player tries to undo: the server refuses (paused)
    assert refused.value.status == 409
    expect(page.locator("#game")).to_have_class(re.compile(r"\bpaused\b"), timeout=1000)
    expect(page.locator("#pause-cover")).to_be_visible(timeout=1000)
    expect(page.locator("#board")).not_to_be_visible(timeout=1000)


def test_resume_by_keyboard_returns_focus_to_the_board(page: Page, easy: tuple[str, str]) -> None:
    puzzle, _solution = easy
    open_puzzle(page, puzzle)
    cell_at(page, 0).focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#pause")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#resume")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#pause-cover")).to_be_hidden()
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function("() => document.activeElement !== document.body", timeout=1000)
    focused = page.evaluate("() => document.activeElement.id || document.activeElement.tagName")
    assert focused in ("cell-r1c2", "pause"), "focus goes back to the selected cell or to the Pause button"


# 11. Completion ------------------------------------------------------------------------------------------------


def test_completion_shows_time_hints_mistakes_difficulty_and_techniques(
    page: Page, live_app: tuple[Flask, str], nearly_solved: tuple[str, str]
) -> None:
    puzzle, solution = nearly_solved
    game_id = open_puzzle(page, puzzle)
    game = stored(live_app[0], game_id)
    assert game.d is not None, "a /p/ link rates an easy puzzle"
    for rung in range(1, 5):
        next_rung(page, rung)
    page.locator("#apply-hint").click()
    expect(page.locator("#message")).to_contain_text("Hint applied")
    left = [c for c in empties(puzzle) if not cell_at(page, c).get_attribute("data-digit")]
    assert len(left) == len(empties(puzzle)) - 1
    cell_at(page, left[0]).click()
    page.keyboard.press(str(int(solution[left[0]]) % 9 + 1))  # a wrong digit, then the right one
    for cell in left:
        cell_at(page, cell).click()
        page.keyboard.press(solution[cell])

    completion = expect_solved(page)
    game = stored(live_app[0], game_id)
    assert game.solve_seconds is not None and game.d is not None
    seconds = int(game.solve_seconds)
    expect(completion).to_contain_text(f"Solved in {seconds // 60}:{seconds % 60:02d}")
    expect(completion.locator(".hints-used")).to_have_text("4 revealed: technique 1, area 1, cells 1, full step 1")
    expect(completion.locator(".mistakes")).to_have_text("1")
    expect(completion.locator(".puzzle-d")).to_have_text(f"{game.d:.2f}")
    expect(completion.locator(".zone")).to_have_text(difficulty.zone(game.d))
    items = completion.locator("#techniques li")
    expect(items.first).to_be_visible()
    names = {t.name for t in CATALOGUE}
    counts: Counter[str] = Counter()
    for text in items.all_inner_texts():
        match = re.fullmatch(r"(.+?)(?: ×(\d+))?", text.strip())
        assert match and match.group(1) in names, f"{text!r} is a technique of the catalogue"
        counts[match.group(1)] += int(match.group(2) or 1)
    assert sum(counts.values()) == len(empties(puzzle)), "singles only: one step per blank"
    expect(page.locator("#timer")).to_have_attribute("data-state", "done")
    shown = items.count()  # counted before the reload: after it, the list may not be there yet
    page.reload()
    expect(page.locator("#completion .mistakes")).to_have_text("1")
    expect(page.locator("#completion #techniques li")).to_have_count(shown)


# 12. Phone -----------------------------------------------------------------------------------------------------


def test_phone_viewport_board_fits_and_the_pad_works_by_touch(
    browser: Browser, base_url: str, people: list[BrowserContext], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    page = new_page(browser, base_url, people, viewport=PHONE, has_touch=True, is_mobile=True)
    open_puzzle(page, puzzle)
    board = page.locator("#board").bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
    assert abs(board["width"] - board["height"]) < 2
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "no sideways scrolling"

    buttons = page.locator("#game button:visible")
    assert buttons.count() >= 17
    small = []
    for index in range(buttons.count()):
        box = buttons.nth(index).bounding_box()
        assert box is not None
        if box["width"] < 44 or box["height"] < 44:
            small.append((buttons.nth(index).inner_text(), box["width"], box["height"]))
    assert not small, f"buttons under 44x44 px: {small}"

    first, second = empties(puzzle)[:2]
    cell_at(page, first).tap()
    expect(cell_at(page, first)).to_have_class(re.compile(r"\bselected\b"))
    page.locator(f'.pad-digit[data-digit="{solution[first]}"]').tap()
    expect(cell_at(page, first)).to_have_text(solution[first])
    page.locator(".pad-erase").tap()
    expect(cell_at(page, first)).to_have_text("")
    cell_at(page, second).tap()
    page.locator('[data-mode="corner"]').tap()
    page.locator('.pad-digit[data-digit="3"]').tap()
    page.locator('[data-mode="centre"]').tap()
    page.locator('.pad-digit[data-digit="8"]').tap()
    expected = board_snapshot(puzzle, {second: "3"}, {second: "8"})
    wait_for_board(page, expected)


# 13. Theme and motion ------------------------------------------------------------------------------------------


def luminance(rgb: str) -> float:
    """Relative luminance of a CSS rgb() colour."""
    channels = [int(x) / 255 for x in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_dark_theme_and_reduced_motion_follow_the_system(
    browser: Browser, base_url: str, people: list[BrowserContext], easy: tuple[str, str]
) -> None:
    puzzle, _solution = easy
    looks = {}
    for scheme in ("light", "dark"):
        page = new_page(browser, base_url, people, color_scheme=scheme)
        open_puzzle(page, puzzle)
        looks[scheme] = page.evaluate(
            """() => ({
              page: getComputedStyle(document.documentElement).backgroundColor,
              cell: getComputedStyle(document.querySelector('#board .cell.entry')).backgroundColor,
              ink: getComputedStyle(document.querySelector('#board .cell.given')).color,
              transition: getComputedStyle(document.querySelector('#board .cell')).transitionDuration,
            })"""
        )
    assert looks["light"]["page"] != looks["dark"]["page"]
    assert luminance(looks["light"]["page"]) > 0.8 and luminance(looks["dark"]["page"]) < 0.05
    assert luminance(looks["dark"]["cell"]) < 0.05 and luminance(looks["dark"]["ink"]) > 0.6
    assert looks["light"]["transition"] != "0s", "cells animate their highlight by default"

    calm = new_page(browser, base_url, people, reduced_motion="reduce")
    open_puzzle(calm, puzzle)
    durations = calm.eval_on_selector_all(
        "#board .cell", "(cells) => Array.from(new Set(cells.map((c) => getComputedStyle(c).transitionDuration)))"
    )
    assert durations == ["0s"]


# 14. ARIA grid -------------------------------------------------------------------------------------------------


def test_aria_grid_roving_tabindex_labels_and_live_region(page: Page, easy: tuple[str, str]) -> None:
    puzzle, solution = easy
    open_puzzle(page, puzzle)
    expect(page.get_by_role("grid", name="Sudoku board")).to_have_count(1)
    expect(page.locator('#board [role="row"]')).to_have_count(9)
    expect(page.locator('#board [role="row"] > [role="gridcell"]')).to_have_count(81)
    expect(page.get_by_role("gridcell")).to_have_count(81)
    ax = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")
    roles = Counter(node.get("role", {}).get("value") for node in ax["nodes"] if not node.get("ignored"))
    assert (roles["grid"], roles["row"], roles["gridcell"]) == (1, 9, 81), "Chromium's accessibility tree"

    for cell in range(81):
        label = cell_at(page, cell).get_attribute("aria-label")
        want = f"{spoken(cell)}, given {puzzle[cell]}" if puzzle[cell] != "." else f"{spoken(cell)}, empty"
        assert label == want
    assert tab_stops(page) == ["r1c1"]
    cell_at(page, 0).focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(cell_at(page, 11)).to_be_focused()
    expect(cell_at(page, 11)).to_have_attribute("aria-selected", "true")
    assert tab_stops(page) == ["r2c3"]
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # stops at the edge
    expect(cell_at(page, 2)).to_be_focused()
    assert tab_stops(page) == ["r1c3"]

    target = next(c for c in empties(puzzle) if c not in peers(0) and c > 0)
    cell_at(page, target).click()
    expect_tab_stop(page, target)
    message = page.locator("#message")
    expect(message).to_have_attribute("role", "status")
    expect(message).to_have_attribute("aria-live", "polite")
    page.keyboard.press(solution[target])
    expect(message).to_have_text(f"{solution[target]} in row {target // 9 + 1}, column {target % 9 + 1}.")
    expect(cell_at(page, target)).to_have_attribute("aria-label", f"{spoken(target)}, {solution[target]}")
    expect(cell_at(page, target)).to_be_focused()
    expect_tab_stop(page, target)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    expect(cell_at(page, target)).to_be_focused()


# 15. Links and print -------------------------------------------------------------------------------------------


def test_puzzle_links_error_pages_and_print_view(page: Page, easy: tuple[str, str]) -> None:
    puzzle, _solution = easy
    for text in (puzzle, puzzle.replace(".", "0")):
        open_puzzle(page, text)
        for cell in range(81):
            expect(cell_at(page, cell)).to_have_text("" if puzzle[cell] == "." else puzzle[cell])
        expect(page.locator("#board .given")).to_have_count(81 - puzzle.count("."))
        link = page.locator(".links a", has_text="Link to this puzzle").get_attribute("href")
        assert link is not None and link.endswith(puzzle)

    bad = puzzle[:-1] + "x"
    response = page.goto(f"/p/{bad}")
    assert response is not None and response.status == 400
    expect(page.locator("h1")).to_have_text("Bad request")
    expect(page.locator(".error-message")).to_have_text(
        "This is not a valid puzzle: invalid character 'x' at position 81: "
        "only digits 1-9 and '.' or '0' for blanks are allowed."
    )
    expect(page.locator("body")).not_to_contain_text("Traceback")
    ambiguous = "." * 81
    response = page.goto(f"/p/{ambiguous}")
    assert response is not None and response.status == 422
    expect(page.locator(".error-message")).to_contain_text("more than one solution")
    response = page.goto(f"/p/{puzzle[:40]}")
    assert response is not None and response.status == 400
    expect(page.locator(".error-message")).to_be_visible()

    response = page.goto(f"/print/{puzzle.replace('.', '0')}")
    assert response is not None and response.status == 200
    shown = page.locator(".print-board td").all_inner_texts()
    assert "".join(t.strip() or "." for t in shown) == puzzle
    expect(page.locator(".print-board tr")).to_have_count(9)
    page.emulate_media(media="print")
    expect(page.locator(".print-board")).to_be_visible()
    expect(page.locator(".no-print")).to_be_hidden()
    expect(page.locator(".site-header")).to_be_hidden()
    page.emulate_media(media="screen")
    page.locator("a", has_text="Play it here instead").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("#board .given")).to_have_count(81 - puzzle.count("."))


# Screenshots ---------------------------------------------------------------------------------------------------


def test_screenshots_of_the_board(
    browser: Browser, base_url: str, people: list[BrowserContext], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    setup = new_page(browser, base_url, people, viewport=DESKTOP)
    blank = marked_for_screenshots(setup, puzzle, solution, 6)
    clash = blank[-2]
    cell_at(setup, clash).click()
    setup.keyboard.press(next(ch for ch in puzzle[clash // 9 * 9 : clash // 9 * 9 + 9] if ch != "."))  # a conflict
    expect(setup.locator("#board .conflict")).not_to_have_count(0)
    for rung in range(1, 4):  # the hint's area, pattern and target colours too
        next_rung(setup, rung)
    for size, scheme, page in every_look(browser, base_url, people, setup.url):
        cell_at(page, blank[0]).click()
        expect(page.locator("#board .same")).not_to_have_count(0)
        expect(page.locator("#board .hint-effect")).to_have_count(1)
        path = ARTIFACTS / f"board-{size}-{scheme}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 10_000
