"""Every panel fits: the Solved panel, the hint dock, the history table and the research tables (the studies, a
study's puzzles, its participants) fit their boxes at 1280x900 and 360x740, in the light and the dark theme. A
view fails when any of its elements holds content larger than its own box (clipped, or scrolling inside it) or
when a control lies outside the viewport's width, or below a fixed panel's reach."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask
from helpers import study_page
from helpers.board_page import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    cell_at,
    empties,
    expect_solved,
    name,
    open_puzzle,
    solve_by_requests,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect

pytestmark = pytest.mark.browser
EMAIL = "fit@example.org"
PASSWORD = "correct horse battery staple"
SIZES = {"desktop": DESKTOP, "phone": PHONE}
SCHEMES = ("light", "dark")
# The problems of a view: elements whose content is larger than their box, controls out of reach.
FIT_JS = """(selector) => {
  const root = document.querySelector(selector);
  if (!root) { return [selector + " is not on the page"]; }
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (el.classList.length ? "." + Array.from(el.classList).join(".") : "")
    + ' "' + (el.textContent || "").trim().slice(0, 30) + '"';
  const problems = [];
  for (const el of [root, ...root.querySelectorAll("*")]) {
    const style = getComputedStyle(el);
    if (style.display === "inline" || style.display === "contents" || el.closest("svg, .sr-only")) { continue; }
    const own = el.getBoundingClientRect();
    if (own.width <= 1 || own.height <= 1) { continue; }  // not shown, or kept for screen readers only
    if (el.scrollWidth > el.clientWidth + 1) {
      problems.push(describe(el) + ": content " + el.scrollWidth + " px wide in " + el.clientWidth + " px");
    }
    if (el.scrollHeight > el.clientHeight + 1) {
      problems.push(describe(el) + ": content " + el.scrollHeight + " px high in " + el.clientHeight + " px");
    }
  }
  const width = document.documentElement.clientWidth;
  const height = window.innerHeight;
  for (const el of root.querySelectorAll("a[href], button, input, select, textarea, summary")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) { continue; }
    if (box.left < -1 || box.right > width + 1) {
      problems.push(describe(el) + ": outside the viewport's width (" + Math.round(box.left) + " to "
        + Math.round(box.right) + " of " + width + ")");
    }
    let fixed = el.parentElement;
    while (fixed && getComputedStyle(fixed).position !== "fixed") { fixed = fixed.parentElement; }
    if (fixed && (box.bottom > height + 1 || box.top < -1)) {
      problems.push(describe(el) + ": in a fixed panel, outside the viewport's height");
    }
  }
  return problems;
}"""


def misfits(page: Page, selector: str, label: str) -> list[str]:
    """The problems of the view at every size and theme (a screenshot of each for a person to look at)."""
    found: list[str] = []
    ARTIFACTS.mkdir(exist_ok=True)
    for size, viewport in SIZES.items():
        for scheme in SCHEMES:
            page.set_viewport_size(viewport)
            page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
            page.wait_for_timeout(50)  # a layout after the resize
            problems = page.evaluate(FIT_JS, selector)
            found += [f"{label} {size} {scheme}: {problem}" for problem in problems]
            page.screenshot(path=str(ARTIFACTS / f"fit-{label}-{size}-{scheme}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(color_scheme="light")
    return found


@pytest.fixture
def fresh(browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    """A browser context of its own."""
    made = browser.new_context(base_url=base_url, viewport=DESKTOP)
    yield made
    made.close()


def test_the_solved_panel_fits(fresh: BrowserContext, nearly_solved: tuple[str, str]) -> None:
    page = fresh.new_page()
    puzzle, solution = nearly_solved
    open_puzzle(page, puzzle)
    for cell in empties(puzzle):
        cell_at(page, cell).click()
        page.keyboard.press(solution[cell])
    expect_solved(page)
    found = misfits(page, "#completion", "solved")
    assert found == [], "\n".join(found)


def test_the_hint_dock_fits_at_every_rung(fresh: BrowserContext, stuck: tuple[str, str]) -> None:
    page = fresh.new_page()
    position, _solution = stuck
    open_puzzle(page, position)
    found: list[str] = []
    for rung in range(1, 5):
        page.locator("#hint" if rung == 1 else '.hint-dock [data-action="hint"]').click()
        expect(page.locator("#hint-panel .rungs li")).to_have_count(rung)
        found += misfits(page, ".hint-dock", f"hint{rung}")
    assert found == [], "\n".join(found)


def test_the_history_table_fits(fresh: BrowserContext, nearly_solved: tuple[str, str]) -> None:
    page = fresh.new_page()
    puzzle, solution = nearly_solved
    for _ in range(2):
        open_puzzle(page, puzzle)
        solve_by_requests(page, puzzle, solution)
    page.goto("/history")
    found = misfits(page, "main", "history")
    assert found == [], "\n".join(found)


def test_the_research_tables_fit(
    fresh: BrowserContext, browser: Browser, base_url: str, live_app: tuple[Flask, str]
) -> None:
    study_page.create_account(live_app[0], EMAIL, PASSWORD)
    page = fresh.new_page()
    study_page.log_in(page, EMAIL, PASSWORD)
    puzzles = [study_page.easy_puzzle(seed)[0] for seed in (9301, 9302, 9303)]
    study_id, link = study_page.create_study(page, "Fit: a study with a rather long name to wrap", puzzles)
    participant = browser.new_context(base_url=base_url)
    try:
        player = participant.new_page()
        study_page.enter(player, link, "participant-with-a-long-recruitment-label-0001")
        study_page.agree_and_start(player)
    finally:
        participant.close()
    found = misfits(page, "main", "study")
    page.goto(f"/research/studies/{study_id}/participants")
    expect(page.locator("table")).to_be_visible()
    found += misfits(page, "main", "participants")
    page.goto("/research/")
    expect(page.get_by_role("link", name=re.compile("Fit: a study"))).to_be_visible()
    found += misfits(page, "main", "studies")
    assert found == [], "\n".join(found)
    assert name(0) == "r1c1"
