"""The game page in a real browser: pages, the board's cells and what the server stored."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from sqlalchemy import select

from sudoku_engine.generate import Generated, generate_puzzle
from sudoku_engine.grid import cell_name
from sudoku_engine.solver import count_solutions, solve
from webapp import db
from webapp.models import Event, Game

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


DESKTOP = {"width": 1280, "height": 900}


PHONE = {"width": 360, "height": 740}


STUCK_SEED = 46  # generate_puzzle(seed=46) needs more than singles: after them, a pointing step with 3 eliminations


NEARLY_SOLVED_CELLS = (0, 13, 26, 29, 42, 46, 57, 70)  # distinct rows and columns: every blank is a naked single


SNAPSHOT_JS = """() => Array.from(document.querySelectorAll('#board [data-cell]'), (c) => [
  c.dataset.digit || '',
  Array.from(c.querySelectorAll('.corner .m'), (m) => m.textContent).join(''),
  Array.from(c.querySelectorAll('.centre .m'), (m) => m.textContent).join(''),
].join('/'))"""


CELL_WORD = re.compile(r"\br([1-9])c([1-9])\b")


# The plain words a hint names cells in: "row 2, column 3", "row 1, columns 1 and 5", "column 4, rows 2 and 7",
# and in longer lists "row 1 column 1".
LINE_CELLS = re.compile(r"\b(row|column) ([1-9]), (?:columns?|rows?) ([1-9](?:(?:, | and )[1-9])*)", re.I)


PAIR_WORDS = re.compile(r"\brow ([1-9]) column ([1-9])\b", re.I)


ANSWERS_PATIENCE_MS = 90_000  # a whole puzzle's actions reach the server one after another: on a loaded machine


def name(cell: int) -> str:
    """The board's name of a cell: r1c1..r9c9."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def spoken(cell: int) -> str:
    """The start of a cell's aria-label."""
    return f"Row {cell // 9 + 1}, column {cell % 9 + 1}"


def same_box(a: int, b: int) -> bool:
    """True when two cells lie in one box."""
    return a // 27 == b // 27 and a % 9 // 3 == b % 9 // 3


def peers(cell: int) -> set[int]:
    """The 20 cells sharing a row, column or box with a cell."""
    return {
        other
        for other in range(81)
        if other != cell and (other // 9 == cell // 9 or other % 9 == cell % 9 or same_box(other, cell))
    }


def unit_cells(kind: str, number: int) -> set[int]:
    """The cells of 'row 3', 'column 5' or 'box 9'."""
    index = number - 1
    if kind == "row":
        return {index * 9 + col for col in range(9)}
    if kind == "column":
        return {row * 9 + index for row in range(9)}
    return {(index // 3 * 3 + r) * 9 + index % 3 * 3 + c for r in range(3) for c in range(3)}


HOUSES = [unit_cells(kind, n) for kind in ("row", "column", "box") for n in range(1, 10)]


def values_of(text: str) -> list[int]:
    """81 characters as values, 0 for '.'."""
    return [0 if char == "." else int(char) for char in text]


def candidates(values: list[int]) -> list[set[int]]:
    """The digits no placed peer holds, for each empty cell (empty set for filled cells)."""
    return [set() if values[c] else set(range(1, 10)) - {values[p] for p in peers(c)} for c in range(81)]


def single(values: list[int]) -> tuple[int, int] | None:
    """A naked or hidden single of a position as (cell, digit), or None when there is none."""
    cands = candidates(values)
    for cell in range(81):
        if len(cands[cell]) == 1:
            return cell, next(iter(cands[cell]))
    for house in HOUSES:
        for digit in range(1, 10):
            places = [c for c in house if digit in cands[c]]
            if len(places) == 1:
                return places[0], digit
    return None


def after_singles(puzzle: str) -> str:
    """The puzzle with naked and hidden singles filled in, one at a time, until none is left."""
    values = values_of(puzzle)
    while (found := single(values)) is not None:
        values[found[0]] = found[1]
    return "".join(str(v) if v else "." for v in values)


def solution_of(puzzle: str) -> str:
    """The unique solution of a puzzle, from the solver."""
    assert count_solutions(puzzle) == 1
    solved = solve(puzzle)
    assert solved is not None
    return str(solved)


def empties(puzzle: str) -> list[int]:
    """The empty cells of a puzzle."""
    return [c for c, char in enumerate(puzzle) if char == "."]


def open_puzzle(page: Page, puzzle: str) -> str:
    """Open a new game on a puzzle through its /p/ link; the game's id."""
    page.goto(f"/p/{puzzle}")
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("#board [data-cell]")).to_have_count(81)
    return page.url.rsplit("/", 1)[1]


def cell_at(page: Page, cell: int) -> Locator:
    """The board cell with this index."""
    return page.locator(f'#board [data-cell="{name(cell)}"]')


def snapshot(page: Page) -> list[str]:
    """Each cell as 'digit/corner marks/centre marks', e.g. '/13/25' or '7//'."""
    found = page.evaluate(SNAPSHOT_JS)
    assert isinstance(found, list) and len(found) == 81
    return [str(item) for item in found]


def settled(page: Page, timeout: float = 10000) -> None:
    """Wait until the server has answered every action the page sent (the page draws an action at once, before
    the server stores it: ``#game[data-pending]`` counts those on their way)."""
    page.wait_for_function("() => (document.getElementById('game').dataset.pending || '0') === '0'", timeout=timeout)


def expect_solved(page: Page) -> Locator:
    """Wait until the server has answered every action the page sent, then for the completion view; the view."""
    settled(page, ANSWERS_PATIENCE_MS)
    completion = page.locator("#completion")
    expect(completion).to_contain_text(re.compile(r"Solved in \d+:\d\d"))
    return completion


def wait_for_board(page: Page, expected: list[str], timeout: float = 5000) -> None:
    """Wait until the board shows exactly these cells (see snapshot) and the server has answered every action,
    then check it (the server's answers redraw what they change)."""
    want = json.dumps(expected, separators=(",", ":"))
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(f"(want) => JSON.stringify(({SNAPSHOT_JS})()) === want", arg=want, timeout=timeout)
    settled(page, timeout)
    assert snapshot(page) == expected


def board_snapshot(
    puzzle_or_position: str, corner: dict[int, str] | None = None, centre: dict[int, str] | None = None
) -> list[str]:
    """The snapshot a position with these corner and centre marks shows."""
    corner, centre = corner or {}, centre or {}
    return [
        f"{char if char != '.' else ''}/{corner.get(c, '')}/{centre.get(c, '')}"
        for c, char in enumerate(puzzle_or_position)
    ]


def focused_cell(page: Page) -> str | None:
    """The data-cell of the focused element, if it is a board cell."""
    found = page.evaluate("() => document.activeElement && document.activeElement.dataset.cell || null")
    return None if found is None else str(found)


def hint_rungs(page: Page) -> list[str]:
    """The revealed rungs in the hint panel."""
    return [text.strip() for text in page.locator("#hint-panel .rungs li").all_inner_texts()]


def next_rung(page: Page, rung: int) -> None:
    """Press Hint and wait until the panel shows this many rungs."""
    page.locator("#hint").click()
    expect(page.locator("#hint-panel .rungs li")).to_have_count(rung)


def named_cells(text: str) -> set[int]:
    """The cells a sentence names, as rXcY or in plain words."""
    pairs = set(CELL_WORD.findall(text)) | set(PAIR_WORDS.findall(text))
    for kind, line, others in LINE_CELLS.findall(text):
        pairs |= {(line, other) if kind.lower() == "row" else (other, line) for other in re.findall(r"[1-9]", others)}
    return {(int(r) - 1) * 9 + int(c) - 1 for r, c in pairs}


def stored(app: Flask, game_id: str) -> Game:
    """The game row as stored now."""
    with db.sessions_of(app)() as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game


def events_of(app: Flask, game_id: str) -> list[Event]:
    """The game's events in the order they were recorded."""
    with db.sessions_of(app)() as session:
        return list(session.scalars(select(Event).where(Event.game_id == game_id).order_by(Event.id)))


@pytest.fixture(scope="module")
def easy(generated: Generated) -> tuple[str, str]:
    """An easy generated puzzle (singles only) and its solution."""
    return str(generated.puzzle), solution_of(str(generated.puzzle))


@pytest.fixture(scope="module")
def nearly_solved(generated: Generated) -> tuple[str, str]:
    """The easy puzzle's solution with eight cells blanked, one per row and column, and that solution."""
    solution = str(generated.solution)
    puzzle = "".join("." if c in NEARLY_SOLVED_CELLS else char for c, char in enumerate(solution))
    assert solution_of(puzzle) == solution
    return puzzle, solution


def new_page(browser: Browser, base_url: str, opened: list[BrowserContext], **options: Any) -> Page:
    """A page in a new context with these options (viewport, colour scheme, touch...)."""
    context = browser.new_context(base_url=base_url, **options)
    opened.append(context)
    return context.new_page()


def marked_for_screenshots(page: Page, puzzle: str, solution: str, placed: int) -> list[int]:
    """Open the puzzle, fill in the candidates, place the solution in the first ``placed`` empty cells and corner
    marks 1 and 2 in the last; its empty cells."""
    open_puzzle(page, puzzle)
    blank = empties(puzzle)
    page.locator("#autofill").click()
    expect(page.locator("#message")).to_contain_text("Candidates filled in")
    for cell in blank[:placed]:
        cell_at(page, cell).click()
        page.keyboard.press(solution[cell])
    cell_at(page, blank[-1]).click()
    page.keyboard.press("Shift+1")
    page.keyboard.press("Shift+2")
    return blank


def every_look(
    browser: Browser, base_url: str, people: list[BrowserContext], url: str
) -> Iterator[tuple[str, str, Page]]:
    """The game at ``url`` opened in each look the screenshots show: desktop and phone, light and dark."""
    ARTIFACTS.mkdir(exist_ok=True)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        for scheme in ("light", "dark"):
            page = new_page(browser, base_url, people, viewport=viewport, color_scheme=scheme)
            page.goto(url)
            yield size, scheme, page


def board_text(page: Page) -> str:
    """The board as 81 characters, '.' for empty cells."""
    texts = page.locator("[data-cell]").all_inner_texts()
    assert len(texts) == 81
    return "".join(text.strip() or "." for text in texts)


def snake_order() -> list[str]:
    """Cells in the order the arrow keys walk them: rows alternately left to right and right to left."""
    order = []
    for row in range(9):
        cols = range(9) if row % 2 == 0 else range(8, -1, -1)
        order.extend(cell_name(row * 9 + col) for col in cols)
    return order


def type_solution(page: Page, puzzle: str, solution: str) -> None:
    """Click r1c1, then walk the board with arrow keys typing every missing digit."""
    page.locator('[data-cell="r1c1"]').click()
    order = snake_order()
    for step, name in enumerate(order):
        cell = (int(name[1]) - 1) * 9 + int(name[3]) - 1
        if puzzle[cell] == ".":
            page.keyboard.press(solution[cell])
        if step + 1 < len(order):
            next_name = order[step + 1]
            if next_name[1] != name[1]:
                page.keyboard.press("ArrowDown")
            else:
                page.keyboard.press("ArrowRight" if next_name[3] > name[3] else "ArrowLeft")


def solve_by_requests(page: Page, puzzle: str, solution: str) -> None:
    """Solve the open game by posting its missing digits as the board does, with the page's cookies and token."""
    token = page.locator('meta[name="csrf-token"]').get_attribute("content") or ""
    for cell, char in enumerate(puzzle):
        if char == ".":
            answer = page.request.post(
                f"{page.url}/cell/{cell_name(cell)}",
                form={"digit": solution[cell]},
                headers={"X-CSRFToken": token, "HX-Request": "true"},
            )
            assert answer.status == 200, answer.text()


@pytest.fixture(scope="module")
def stuck() -> tuple[str, str]:
    """A position where no single is left (a puzzle after all its singles), and its solution."""
    position = after_singles(str(generate_puzzle(seed=STUCK_SEED).puzzle))
    assert position.count(".") > 20
    return position, solution_of(position)
