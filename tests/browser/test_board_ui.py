"""The board as players of the best Sudoku apps expect it, in a real browser against the live server: the layout
(board first, side by side on a desktop, pad and Hint in reach on a phone, nothing shifting), focus back on the
board after every control, candidates in their digit's place, colour marks, multi-cell selection, the mode keys,
clearing marks, restarting and the pad's counts.

Layout shift is measured by the browser itself (a PerformanceObserver of 'layout-shift' entries, every entry
counted, including those right after an input that the web's CLS score leaves out).
"""

from __future__ import annotations

import io
import re
from typing import Any

import numpy as np
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
    marked_for_screenshots,
    name,
    new_page,
    open_puzzle,
    peers,
    settled,
    spoken,
    stored,
    values_of,
    wait_for_board,
)
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

pytestmark = pytest.mark.browser

WATCH_SHIFTS = """() => {
  window.shifts = [];
  new PerformanceObserver((list) => { window.shifts.push(...list.getEntries().map((e) => e.value)); })
    .observe({type: 'layout-shift', buffered: true});
}"""
# The layout shift reported since the last call: after two frames, so that the browser has laid out and reported.
SHIFT_SINCE = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
  const total = window.shifts.reduce((a, b) => a + b, 0);
  window.shifts = [];
  done(total);
})))"""
COLOUR_NAMES = ("grey", "orange", "sky blue", "green", "yellow", "blue", "vermilion", "pink", "black")


def box(page: Page, selector: str) -> dict[str, float]:
    """The bounding box of the first element matching a selector (it must be rendered)."""
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not rendered"
    return found


def watched(page: Page) -> None:
    """Start counting layout shifts from now (the page's loading left out)."""
    page.evaluate(WATCH_SHIFTS)
    page.evaluate(SHIFT_SINCE)


def shift_since(page: Page) -> float:
    """The layout shift since the previous call."""
    return float(page.evaluate(SHIFT_SINCE))


def selected_cells(page: Page) -> set[int]:
    """The indexes of the selected cells."""
    names = page.eval_on_selector_all("#board .selected", "(cells) => cells.map((c) => c.dataset.cell)")
    return {(int(n[1]) - 1) * 9 + int(n[3]) - 1 for n in names}


def centre(found: dict[str, float]) -> tuple[float, float]:
    """The centre point of a box."""
    return found["x"] + found["width"] / 2, found["y"] + found["height"] / 2


# 1. The board first --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_layout_shift_when_the_message_the_hint_or_the_completion_appears(
    browser: Browser,
    base_url: str,
    people: list[BrowserContext],
    nearly_solved: tuple[str, str],
    size: str,
) -> None:
    puzzle, solution = nearly_solved
    viewport = DESKTOP if size == "desktop" else PHONE
    page = new_page(browser, base_url, people, viewport=viewport, has_touch=size == "phone")
    open_puzzle(page, puzzle)
    expect(page.locator("#timer")).to_have_attribute("data-state", "running")
    watched(page)
    board_before = box(page, "#board")
    blank = empties(puzzle)

    # The message line, with a sentence long enough to take two lines on a phone.
    clash = blank[0]
    other = next(c for c in range(81) if c // 9 == clash // 9 and puzzle[c] != ".")
    cell_at(page, clash).click()
    page.keyboard.press(puzzle[other])
    expect(page.locator("#message")).to_contain_text("Conflict")
    assert shift_since(page) == 0, "the message line moved the page"
    page.keyboard.press("Backspace")
    expect(page.locator("#message")).to_contain_text("cleared")

    # The hint panel, one rung and then all four.
    page.locator("#hint").click()
    expect(page.locator("#hint-panel")).to_be_visible()
    assert shift_since(page) == 0, "the hint panel moved the page"
    for rung in range(2, 5):
        page.locator("#hint-panel [data-action='hint']").click()
        expect(page.locator("#hint-panel .rungs li")).to_have_count(rung)
    assert shift_since(page) == 0, "the hint's rungs moved the page"
    assert box(page, "#board") == board_before
    panel = box(page, "#hint-panel")
    board = box(page, "#board")
    if size == "desktop":
        assert panel["x"] >= board["x"] + board["width"], "the hint is beside the board"
        assert panel["y"] + 60 < DESKTOP["height"], "the hint starts well above the fold"
    else:
        assert board["y"] + board["height"] <= panel["y"] < PHONE["height"] - 150, "the hint is under the board"
    page.locator("#apply-hint").click()
    expect(page.locator("#message")).to_contain_text("Hint applied")
    expect(cell_at(page, clash)).to_be_focused()  # Apply too gives the focus back to the selected cell
    expect(page.locator("#hint-panel")).to_be_hidden()
    assert shift_since(page) == 0, "closing the hint moved the page"

    # The completion.
    expect(page.locator("#pause")).to_be_visible()
    for cell in blank:
        if not cell_at(page, cell).get_attribute("data-digit"):
            cell_at(page, cell).click()
            page.keyboard.press(solution[cell])
    expect_solved(page)
    assert shift_since(page) == 0, "the completion panel moved the page"
    assert box(page, "#board") == board_before
    expect(page.locator("#pause")).to_be_hidden()
    expect(page.locator("#pause")).to_be_disabled()
    page.reload()
    expect(page.locator("#completion")).to_be_visible()
    expect(page.locator("#pause")).to_be_hidden()


def test_desktop_board_beside_the_controls_and_at_least_540_px(
    browser: Browser, base_url: str, people: list[BrowserContext], easy: tuple[str, str]
) -> None:
    page = new_page(browser, base_url, people, viewport=DESKTOP)
    open_puzzle(page, easy[0])
    board, pad, hint = box(page, "#board"), box(page, ".pad"), box(page, "#hint")
    assert board["width"] >= 540 and abs(board["width"] - board["height"]) < 2
    assert pad["x"] >= board["x"] + board["width"] and hint["x"] >= board["x"] + board["width"]
    assert pad["y"] < board["y"] + board["height"] / 2, "the pad sits beside the board, not under it"
    assert board["y"] + board["height"] <= DESKTOP["height"], "the whole board is on screen"
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]


def test_phone_board_full_width_with_pad_and_hint_in_reach_without_scrolling(
    browser: Browser, base_url: str, people: list[BrowserContext], easy: tuple[str, str]
) -> None:
    page = new_page(browser, base_url, people, viewport=PHONE, has_touch=True, is_mobile=True)
    open_puzzle(page, easy[0])
    assert page.evaluate("window.scrollY") == 0
    board = box(page, "#board")
    assert board["width"] >= PHONE["width"] - 32, "the board takes the phone's width, less the card's margins"
    for selector in (".pad-digit[data-digit='1']", ".pad-digit[data-digit='9']", ".pad-erase", "#hint"):
        found = box(page, selector)
        assert found["y"] >= board["y"] + board["height"], f"{selector} is under the board"
        assert found["y"] + found["height"] <= PHONE["height"], f"{selector} is cut off by the screen's bottom"
    blank = empties(easy[0])[0]
    cell_at(page, blank).tap()
    page.locator("#hint").tap()
    expect(page.locator("#hint-panel")).to_be_visible()
    assert box(page, "#board") == board
    page.locator(".hint-close").tap()
    expect(page.locator("#hint-panel")).to_be_hidden()
    page.locator(f'.pad-digit[data-digit="{easy[1][blank]}"]').tap()
    expect(cell_at(page, blank)).to_have_attribute("data-digit", easy[1][blank])


# 2. Focus returns to the board ---------------------------------------------------------------------------------


def test_after_hint_an_arrow_and_a_digit_act_on_the_cell_the_arrow_moved_to(page: Page, easy: tuple[str, str]) -> None:
    puzzle, solution = easy
    open_puzzle(page, puzzle)
    start = next(c for c in empties(puzzle) if c % 9 < 8 and puzzle[c + 1] == ".")
    cell_at(page, start).click()
    page.locator("#hint").click()
    expect(page.locator("#hint-panel")).to_be_visible()
    page.keyboard.press("ArrowRight")
    page.keyboard.press(solution[start + 1])
    expect(cell_at(page, start + 1)).to_have_attribute("data-digit", solution[start + 1])
    assert not cell_at(page, start).get_attribute("data-digit"), "the digit did not go to the old cell"
    assert focused_cell(page) == name(start + 1)


def test_focus_goes_back_to_the_selected_cell_after_every_control(page: Page, easy: tuple[str, str]) -> None:
    puzzle, solution = easy
    open_puzzle(page, puzzle)
    cell = empties(puzzle)[2]
    cell_at(page, cell).click()
    controls = [
        '[data-mode="corner"]',
        '.pad-digit[data-digit="3"]',
        '[data-mode="centre"]',
        '[data-mode="colour"]',
        '[data-mode="digit"]',
        "#autofill",
        "[data-action='undo']",
        "[data-action='redo']",
        "#check",
        "#hint",
        "#hint-panel [data-action='hint']",
        "#clear-marks",
        "[data-action='undo']",
        ".pad-erase",
    ]
    for selector in controls:
        page.locator(selector).click()
        expect(cell_at(page, cell)).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(cell_at(page, cell + 9)).to_be_focused()
    # Keyboard users too: Tab to a control, press it, and the selected cell has the focus again.
    page.locator("#autofill").focus()
    page.keyboard.press("Enter")
    expect(cell_at(page, cell + 9)).to_be_focused()


# 3. Candidates in their place, corner marks apart ------------------------------------------------------------


def test_candidates_sit_at_their_digits_place_and_corner_marks_look_different(
    page: Page, easy: tuple[str, str]
) -> None:
    puzzle, _solution = easy
    open_puzzle(page, puzzle)
    page.locator("#autofill").click()
    cands = candidates(values_of(puzzle))
    wait_for_board(
        page, board_snapshot(puzzle, None, {c: "".join(map(str, sorted(cands[c]))) for c in empties(puzzle)})
    )
    checked = 0
    for cell in empties(puzzle)[:10]:
        area = box(page, f"#cell-{name(cell)}")
        for digit in sorted(cands[cell]):
            x, y = centre(box(page, f"#cell-{name(cell)} .centre .m{digit}"))
            column = int((x - area["x"]) / (area["width"] / 3))
            row = int((y - area["y"]) / (area["height"] / 3))
            assert (row, column) == ((digit - 1) // 3, (digit - 1) % 3), f"{digit} in {name(cell)}"
            checked += 1
    assert checked >= 12
    marked = next(c for c in empties(puzzle) if len(cands[c]) >= 2)
    cell_at(page, marked).click()
    page.keyboard.press("Shift+1")
    look = """(m) => { const s = getComputedStyle(m); return [s.color, s.fontWeight]; }"""
    corner = page.locator(f"#cell-{name(marked)} .corner .m").first.evaluate(look)
    candidate = page.locator(f"#cell-{name(marked)} .centre .m").first.evaluate(look)
    assert corner[0] != candidate[0] and corner[1] != candidate[1], "corner marks have their own ink and weight"


# 4. Colour marks -----------------------------------------------------------------------------------------------


def test_colour_marks_by_key_and_pad_are_named_kept_on_reload_and_undone(
    page: Page, live_app: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    puzzle, _solution = easy
    game_id = open_puzzle(page, puzzle)
    empty = empties(puzzle)[0]
    given = next(c for c in range(81) if puzzle[c] != ".")
    cell_at(page, empty).click()
    page.keyboard.press("v")
    expect(page.locator('[data-mode="colour"]')).to_have_attribute("aria-pressed", "true")
    pad_labels = [page.locator(f'.pad-digit[data-digit="{d}"]').get_attribute("aria-label") for d in range(1, 10)]
    assert pad_labels == [f"Colour {n}" for n in COLOUR_NAMES]
    expect(page.locator(".pad-digit .swatch").first).to_be_visible()
    page.keyboard.press("2")
    expect(cell_at(page, empty)).to_have_attribute("aria-label", f"{spoken(empty)}, empty, colour orange")
    cell_at(page, given).click()
    page.locator('.pad-digit[data-digit="6"]').click()
    expect(cell_at(page, given)).to_have_attribute("aria-label", f"{spoken(given)}, given {puzzle[given]}, colour blue")
    settled(page)  # the server's answer has swapped the cell in: the element read is the one that stays
    tint = cell_at(page, given).evaluate("(c) => getComputedStyle(c, '::before').backgroundColor")
    assert tint == "rgb(0, 114, 178)"
    stored_colour = stored(live_app[0], game_id).colour
    assert stored_colour is not None and stored_colour[empty] == 2 and stored_colour[given] == 6
    page.reload()
    expect(cell_at(page, empty)).to_have_class(re.compile(r"\bcolour-2\b"))
    expect(cell_at(page, given)).to_have_class(re.compile(r"\bcolour-6\b"))
    cell_at(page, given).click()
    page.keyboard.press("Control+z")
    expect(cell_at(page, given)).not_to_have_class(re.compile(r"\bcolour-"))
    expect(cell_at(page, empty)).to_have_class(re.compile(r"\bcolour-2\b"))
    settled(page)
    kinds = [e.kind for e in events_of(live_app[0], game_id) if e.kind not in ("show", "pause", "resume")]
    assert kinds == ["colour", "colour", "undo"]


def lab(png: bytes) -> np.ndarray:
    """The CIE L*a*b* colour (D65) of each pixel of a PNG screenshot, from its sRGB values."""
    rgb = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=float) / 255
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    to_xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = linear @ to_xyz.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_colour_mark_shows_on_an_empty_cell_in_light_and_dark(
    browser: Browser, base_url: str, people: list[BrowserContext], easy: tuple[str, str], scheme: str
) -> None:
    """Each of the nine colours changes at least a tenth of an empty cell by a colour difference (CIE76) of 10 or
    more, a difference seen at a glance, compared with the same cell unmarked under the same selection."""
    puzzle, _solution = easy
    page = new_page(browser, base_url, people, viewport=DESKTOP, color_scheme=scheme)
    open_puzzle(page, puzzle)
    blank = empties(puzzle)
    targets, anchor = blank[:9], blank[-1]
    cell_at(page, anchor).click()
    before = [cell_at(page, cell).screenshot(animations="disabled") for cell in targets]
    page.keyboard.press("v")
    for colour, cell in enumerate(targets, 1):
        cell_at(page, cell).click()
        page.keyboard.press(str(colour))
    cell_at(page, anchor).click()
    expect(page.locator("#board [class*='colour-']")).to_have_count(9)
    for colour_name, cell, unmarked in zip(COLOUR_NAMES, targets, before, strict=True):
        marked = cell_at(page, cell).screenshot(animations="disabled")
        difference = np.linalg.norm(lab(marked) - lab(unmarked), axis=-1)
        seen = float(np.mean(difference >= 10))
        assert seen >= 0.1, f"{colour_name} in {scheme}: {seen:.0%} of the cell differs by 10 or more"


# 5. Multi-cell selection and the mode keys ----------------------------------------------------------------------


def test_shift_and_ctrl_click_select_several_cells_and_a_digit_goes_in_all_as_one_undo(
    page: Page, live_app: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    game_id = open_puzzle(page, puzzle)
    blank = empties(puzzle)
    a, b, c, d = blank[:4]
    cell_at(page, a).click()
    cell_at(page, b).click(modifiers=["Shift"])
    cell_at(page, c).click(modifiers=["Control"])
    cell_at(page, d).click(modifiers=["Control"])
    cell_at(page, d).click(modifiers=["Control"])  # again: out of the selection
    assert selected_cells(page) == {a, b, c}
    expect(page.locator("#board .peer")).to_have_count(0)
    page.keyboard.press("7")
    for cell in (a, b, c):
        expect(cell_at(page, cell)).to_have_attribute("data-digit", "7")
    assert not cell_at(page, d).get_attribute("data-digit")
    page.keyboard.press("Control+z")
    wait_for_board(page, board_snapshot(puzzle))
    events = events_of(live_app[0], game_id)
    assert [e.kind for e in events][-2:] == ["enter", "undo"]
    assert events[-2].detail is not None and sorted(events[-2].detail["cells"]) == sorted([a, b, c])
    assert stored(live_app[0], game_id).mistakes == sum(solution[x] != "7" for x in (a, b, c))
    page.keyboard.press("Escape")
    assert len(selected_cells(page)) == 1
    # Shift+arrow adds the next cell.
    cell_at(page, 0).click()
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowRight")
    assert selected_cells(page) == {0, 1, 2}


def test_a_mouse_drag_and_a_touch_drag_select_the_cells_they_pass(
    browser: Browser, base_url: str, people: list[BrowserContext], easy: tuple[str, str]
) -> None:
    puzzle, _solution = easy
    page = new_page(browser, base_url, people, viewport=DESKTOP)
    open_puzzle(page, puzzle)
    row = next(r for r in range(9) if sum(puzzle[r * 9 + c] == "." for c in range(9)) >= 3)
    cells = [row * 9 + c for c in range(9)]
    start, end = centre(box(page, f"#cell-{name(cells[0])}")), centre(box(page, f"#cell-{name(cells[-1])}"))
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=12)
    page.mouse.up()
    assert selected_cells(page) == set(cells)
    page.keyboard.press("Shift+4")  # a corner 4 in every empty cell of the row, the givens left alone
    open_cells = [c for c in cells if puzzle[c] == "."]
    wait_for_board(page, board_snapshot(puzzle, {c: "4" for c in open_cells}))

    phone = new_page(browser, base_url, people, viewport=PHONE, has_touch=True, is_mobile=True)
    open_puzzle(phone, puzzle)
    column = [r * 9 + 4 for r in range(9)]
    points = [centre(box(phone, f"#cell-{name(c)}")) for c in column[:5]]
    touch = phone.context.new_cdp_session(phone)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [touch_point(points[0])]})
    for point in points[1:]:
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [touch_point(point)]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(phone.locator("#board .selected")).to_have_count(5)
    assert selected_cells(phone) == set(column[:5])
    assert phone.evaluate("window.scrollY") == 0, "the drag did not scroll the page"


def touch_point(point: tuple[float, float]) -> dict[str, Any]:
    """A CDP touch point at a page position."""
    return {"x": point[0], "y": point[1], "id": 1}


def test_z_x_c_v_switch_modes_and_space_cycles_them(page: Page, easy: tuple[str, str]) -> None:
    puzzle, _solution = easy
    open_puzzle(page, puzzle)
    cell = empties(puzzle)[0]
    cell_at(page, cell).click()

    def pressed() -> str:
        return str(page.locator('[data-mode][aria-pressed="true"]').get_attribute("data-mode"))

    for key, mode in (("x", "corner"), ("c", "centre"), ("v", "colour"), ("z", "digit")):
        page.keyboard.press(key)
        assert pressed() == mode
    for mode in ("corner", "centre", "colour", "digit", "corner"):
        page.keyboard.press("Space")
        assert pressed() == mode
    page.keyboard.press("5")
    page.keyboard.press("c")
    page.keyboard.press("6")
    page.keyboard.press("z")
    page.keyboard.press("Control+7")  # Ctrl+digit is a centre mark in any mode
    wait_for_board(page, board_snapshot(puzzle, {cell: "5"}, {cell: "67"}))


# 6. Clear marks, restart, the pad's counts ----------------------------------------------------------------------


def test_clear_marks_is_one_undo_and_restart_asks_first_and_keeps_the_clock(
    page: Page, live_app: tuple[Flask, str], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    game_id = open_puzzle(page, puzzle)
    blank = empties(puzzle)
    page.locator("#autofill").click()
    expect(page.locator("#message")).to_contain_text("Candidates filled in")
    cell_at(page, blank[0]).click()
    page.keyboard.press("Shift+2")
    cell_at(page, blank[1]).click()
    page.keyboard.press(solution[blank[1]])
    page.locator("#clear-marks").click()
    expect(page.locator("#message")).to_contain_text("Marks cleared")
    expect(page.locator("#board .centre, #board .corner")).to_have_count(0)
    expect(cell_at(page, blank[1])).to_have_attribute("data-digit", solution[blank[1]])
    page.keyboard.press("Control+z")
    expect(page.locator(f"#cell-{name(blank[0])} .corner .m2")).to_have_count(1)
    expect(page.locator("#board .centre")).not_to_have_count(0)

    seconds_before = float(str(page.locator("#timer").get_attribute("data-seconds")))
    page.locator("#restart").click()
    dialog = page.locator("#restart-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("The clock keeps running")
    page.locator("#restart-cancel").click()
    expect(dialog).to_be_hidden()
    expect(cell_at(page, blank[1])).to_have_attribute("data-digit", solution[blank[1]])
    page.locator("#restart").click()
    page.locator("#restart-confirm").click()
    expect(page.locator("#message")).to_contain_text("The clock keeps running")
    wait_for_board(page, board_snapshot(puzzle))
    expect(page.locator("#timer")).to_have_attribute("data-state", "running")
    assert float(str(page.locator("#timer").get_attribute("data-seconds"))) >= seconds_before
    game = stored(live_app[0], game_id)
    assert game.first_shown_at is not None and game.entries == "." * 81
    kinds = [e.kind for e in events_of(live_app[0], game_id)]
    assert kinds[-3:] == ["clear_marks", "undo", "restart"]
    expect(cell_at(page, blank[1])).to_be_focused()


def shown_left(button: Locator) -> str:
    """The count a pad button draws (CSS generated content, kept out of the button's accessible name)."""
    return str(button.locator(".pad-left").evaluate("(e) => getComputedStyle(e, '::after').content")).strip('"')


def test_the_pad_counts_what_is_left_of_each_digit_and_greys_a_finished_one(page: Page, easy: tuple[str, str]) -> None:
    puzzle, solution = easy
    open_puzzle(page, puzzle)

    def left_on_pad() -> list[str]:
        return [shown_left(page.locator(f'.pad-digit[data-digit="{d}"]')) for d in range(1, 10)]

    assert left_on_pad() == [str(9 - puzzle.count(str(d))) for d in range(1, 10)]
    digit = max("123456789", key=puzzle.count)  # the digit closest to done
    missing = [c for c in empties(puzzle) if solution[c] == digit]
    for cell in missing:
        cell_at(page, cell).click()
        page.keyboard.press(digit)
    button = page.locator(f'.pad-digit[data-digit="{digit}"]')
    expect(button.locator(".pad-left")).to_have_attribute("data-left", "0")
    assert shown_left(button) == "0"
    expect(button).to_have_class(re.compile(r"\bfinished\b"))
    expect(button).to_have_attribute("aria-label", f"{digit}, 0 left")
    assert float(button.evaluate("(b) => getComputedStyle(b).opacity")) < 1
    expect(button).to_be_enabled()
    other = next(c for c in empties(puzzle) if solution[c] != digit and c not in peers(missing[0]))
    cell_at(page, other).click()
    button.click()  # still usable: the digit goes in (a wrong one here), and the highlight follows it
    expect(cell_at(page, other)).to_have_attribute("data-digit", digit)
    expect(button.locator(".pad-left")).to_have_attribute("data-left", "0")
    assert shown_left(button) == "0"
    expect(page.locator("#board .same")).not_to_have_count(0)


# Screenshots ---------------------------------------------------------------------------------------------------


def test_screenshots_of_the_new_board(
    browser: Browser, base_url: str, people: list[BrowserContext], easy: tuple[str, str]
) -> None:
    puzzle, solution = easy
    setup = new_page(browser, base_url, people, viewport=DESKTOP)
    blank = marked_for_screenshots(setup, puzzle, solution, 4)
    setup.keyboard.press("v")
    for index, cell in enumerate(blank[5:14]):
        cell_at(setup, cell).click()
        setup.keyboard.press(str(index + 1))
    expect(setup.locator("#board [class*='colour-']")).to_have_count(9)
    for _rung in range(2):
        setup.locator("#hint").click()
    expect(setup.locator("#hint-panel .rungs li")).to_have_count(2)
    for size, scheme, page in every_look(browser, base_url, people, setup.url):
        cell_at(page, blank[20]).click()
        cell_at(page, blank[22]).click(modifiers=["Shift"])
        expect(page.locator("#hint-panel")).to_be_visible()
        path = ARTIFACTS / f"board-ui-{size}-{scheme}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 10_000
        if size == "phone":  # the controls under the hint
            page.locator(".hint-close").click()
            page.locator('[data-mode="colour"]').click()
            path = ARTIFACTS / f"board-ui-{size}-{scheme}-controls.png"
            page.screenshot(path=str(path))
            assert path.stat().st_size > 10_000
