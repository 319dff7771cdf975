"""A whole study as a research team runs it, in a real browser, each person in a browser context of their own.

An administrator invites a colleague, who sets a password from the invitation link; the administrator builds a
study with consent clauses, a questionnaire, the per-puzzle items and an attention check, adds the colleague as a
viewer, previews the study (nothing stored), opens it; three participants take it: one solves both puzzles, one on
a phone gives up on a puzzle and fails the attention check, one withdraws mid-puzzle and deletes their data; the
owner closes the study and replays a game; the colleague sees the study without its controls and downloads the same
answers; the exports and the codebook match the database, with nothing of the participant who withdrew.

Expected values are what the test typed and clicked, the solver's solutions and the rows read from the database.
"""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from helpers.board_page import ARTIFACTS, PHONE, new_page
from helpers.study_page import (
    DIGITS_JS,
    GAME_URL,
    JOB_PATIENCE_MS,
    create_account,
    download,
    easy_puzzle,
    events_of,
    header_of,
    log_in,
    nearly_solved,
    parsed_csv,
    participant_of,
    shown_digits,
    solve_on_page,
)
from playwright.sync_api import Browser, BrowserContext, FloatRect, Locator, Page, expect
from sqlalchemy import func, select

from webapp import db
from webapp.models import Answer, Game, Participant

pytestmark = pytest.mark.browser

ADMIN = "admin@team-study.example"
COLLEAGUE = "colleague@team-study.example"
PASSWORD = "correct horse battery staple"
COLLEAGUE_PASSWORD = "another horse battery staple"
CONSENT = """Consent for the team study.

- I am 18 or older.
- I agree that my solve times and answers are recorded.
"""
QUESTIONS = """[before]
age | integer: 18 to 99 | How old are you?
[after]
attention | single: Red; Green; Blue | check: Green | Choose "Green" here.
comments | text: 200 | optional | Anything to tell us?
"""
BUILT_IN = ("difficulty", "tlx_mental", "tlx_effort", "tlx_frustration")


def stored_answers(app: Flask, study_id: int) -> list[tuple[str, str, str, str, str]]:
    """The study's stored answers as (participant, block, question, value, passed), in the order stored."""
    with db.sessions_of(app)() as session:
        rows = session.execute(
            select(Participant.public_id, Answer.block, Answer.question, Answer.value, Answer.passed)
            .join(Participant, Answer.participant_id == Participant.id)
            .where(Participant.study_id == study_id)
            .order_by(Answer.id)
        )
        return [(p, b, q, v or "", "" if ok is None else str(int(ok))) for p, b, q, v, ok in rows]


def participants_of(app: Flask, study_id: int) -> int:
    """How many participant rows the study has."""
    with db.sessions_of(app)() as session:
        return int(session.scalar(select(func.count()).where(Participant.study_id == study_id)) or 0)


def invite_colleague(admin: Page, colleague: Page) -> None:
    """The administrator makes an invitation link; the colleague sets a password from it and is logged in."""
    admin.locator("#users-link").click()
    admin.locator("#invite-email").fill(COLLEAGUE)
    admin.locator("#invite").click()
    link = admin.locator("#invite-link").input_value()
    picture(admin, "accounts")
    expect(admin.locator(f'tr[data-email="{COLLEAGUE}"] .account-state')).to_have_text("invited")
    colleague.goto(link)
    colleague.locator("#password").fill(COLLEAGUE_PASSWORD)
    colleague.locator("#again").fill(COLLEAGUE_PASSWORD)
    colleague.locator("#set-password").click()
    expect(colleague.get_by_text("Your password is set: welcome.")).to_be_visible()
    colleague.goto(link)  # an invitation works once
    expect(colleague.get_by_text("This invitation is unknown, used or past its date")).to_be_visible()
    admin.reload()
    expect(admin.locator(f'tr[data-email="{COLLEAGUE}"] .account-state')).to_have_text("active")


def assert_labels_above_fields(page: Page) -> None:
    """Every labelled field of the page's form sits under its label, from the same left edge."""
    labels = page.locator("form.form label[for]").all()
    assert len(labels) >= 15
    for label in labels:
        field = page.locator(f"#{label.get_attribute('for')}")
        if field.get_attribute("type") == "file":
            continue
        above, under = box(label), box(field)
        assert above["y"] + above["height"] <= under["y"] + 1, label.inner_text()
        assert abs(above["x"] - under["x"]) <= 1, label.inner_text()


def build_study(owner: Page, puzzles: list[str]) -> int:
    """The new-study form with clauses, questions, both per-puzzle items and no breaks; the draft's number."""
    owner.goto("/research/studies/new")
    owner.locator("#name").fill("Team study")
    owner.locator("#consent_text").fill(CONSENT)
    owner.locator("#puzzles").fill("\n".join(puzzles))
    owner.locator("#order_scheme").select_option("latin")
    owner.locator('input[name="breaks"]').set_checked(False)
    owner.locator("#ask_difficulty").check()
    owner.locator("#ask_effort").check()
    owner.locator("#questions").fill(QUESTIONS)
    picture(owner, "new-study")
    assert_labels_above_fields(owner)
    owner.locator("#create-study").click()
    owner.wait_for_url(re.compile(r"/research/studies/\d+$"))
    expect(owner.locator("#study-phase")).to_have_text("draft", timeout=JOB_PATIENCE_MS)
    return int(owner.url.rsplit("/", 1)[1])


def add_viewer(owner: Page) -> None:
    """Add the colleague to the study's team as a viewer from the team page."""
    owner.locator("#team-link").click()
    owner.locator("#member-email").fill(COLLEAGUE)
    owner.locator("#member-role").select_option("viewer")
    owner.locator("#add-member").click()
    expect(owner.locator(f'#team tr[data-email="{COLLEAGUE}"] .member-role')).to_have_text("viewer")
    picture(owner, "team")
    owner.get_by_role("link", name="Back to the study").click()


def box(locator: Locator) -> FloatRect:
    """The element's box on the page."""
    found = locator.bounding_box()
    assert found is not None
    return found


def picture(page: Page, name: str) -> None:
    """A full-page screenshot into test-artifacts/ (``team-study-<name>.png``), to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"team-study-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 5_000


def consent_and_before(person: Page, age: str, pictured: bool = False) -> None:
    """Tick both clauses, agree, and answer the question before the puzzles."""
    expect(person.locator('input[name="clause"]')).to_have_count(2)
    if pictured:
        picture(person, "consent")
    person.locator("#clause-1").check()
    person.locator("#clause-2").check()
    person.locator("#agree").click()
    expect(person.locator("#questions")).to_have_attribute("data-page", "before")
    if pictured:
        picture(person, "questions-before")
    person.locator("#q_age").fill(age)
    person.locator("#send-answers").click()
    person.locator("#start").click()
    person.wait_for_url(GAME_URL)


def assert_tlx_scales_on_one_line(person: Page) -> None:
    """Each NASA-TLX scale of the page has its 21 marks on one line and its end labels under its two ends."""
    for key in BUILT_IN[1:]:
        points = [box(p) for p in person.locator(f"#question-{key} .scale-point").all()]
        assert len(points) == 21 and len({round(p["y"]) for p in points}) == 1, key
        left, right = points[0]["x"], points[-1]["x"] + points[-1]["width"]
        low, high = (box(person.locator(f"#question-{key} .scale-end").nth(i)) for i in (0, 1))
        assert low["y"] > points[0]["y"] and high["y"] > points[0]["y"], key
        assert low["x"] <= left + 1 and high["x"] + high["width"] >= right - 1, key


def assert_scale_rows(person: Page, rows: dict[str, int]) -> None:
    """Each scale's marks in this many rows, its first end label above them and its last below (a phone)."""
    for key, count in rows.items():
        points = [box(p) for p in person.locator(f"#question-{key} .scale-point").all()]
        tops = sorted({round(p["y"]) for p in points})
        assert len(tops) == count, (key, tops)
        low, high = (box(person.locator(f"#question-{key} .scale-end").nth(i)) for i in (0, 1))
        assert low["y"] + low["height"] <= tops[0] + 1 and high["y"] >= max(p["y"] + p["height"] for p in points) - 1


def puzzle_items(person: Page, index: int, given: dict[str, str], pictured: bool = False) -> None:
    """Answer the built-in items after puzzle ``index``."""
    expect(person.locator("#questions")).to_have_attribute("data-page", f"puzzle-{index}")
    if pictured:
        picture(person, "questions-after-a-puzzle")
        assert_tlx_scales_on_one_line(person)
    for key in BUILT_IN:
        person.locator(f'input[name="q_{key}"][value="{given[key]}"]').check()
    person.locator("#send-answers").click()


def after_block(person: Page, colour: str, comment: str) -> None:
    """Answer the last block: the attention check and the optional comment."""
    expect(person.locator("#questions")).to_have_attribute("data-page", "after")
    person.get_by_label(colour, exact=True).check()
    person.locator("#q_comments").fill(comment)
    person.locator("#send-answers").click()
    expect(person.locator("#thanks")).to_be_visible()


def test_a_team_runs_a_whole_study_and_its_files_match_the_database(
    page: Page, browser: Browser, live_app: tuple[Flask, str], people: list[BrowserContext]
) -> None:
    app, base_url = live_app
    create_account(app, ADMIN, PASSWORD, admin=True)
    pairs = {nearly_solved(s): s for _p, s in (easy_puzzle(seed) for seed in (2701, 2702))}
    puzzles = list(pairs)
    owner = page
    log_in(owner, ADMIN, PASSWORD)
    colleague = new_page(browser, base_url, people)
    invite_colleague(owner, colleague)

    study_id = build_study(owner, puzzles)
    add_viewer(owner)

    # The owner's preview: clauses, questions, both puzzles with their items, the last block; nothing stored.
    owner.locator("#preview-study").click()
    expect(owner.locator("#preview-note")).to_be_visible()
    consent_and_before(owner, "50")
    for index in range(2):
        game = owner.url.rsplit("/", 1)[1]
        puzzle = shown_digits(owner)
        solve_on_page(owner, puzzle, pairs[puzzle])
        owner.locator("#completion #next-puzzle").click()
        puzzle_items(owner, index, {"difficulty": "3", "tlx_mental": "0", "tlx_effort": "0", "tlx_frustration": "0"})
        if index == 0:
            owner.wait_for_url(GAME_URL)
            assert owner.url.rsplit("/", 1)[1] != game
    after_block(owner, "Green", "preview")
    owner.locator("#preview-back").click()
    expect(owner.locator("#progress .arrived")).to_have_text("0")
    assert participants_of(app, study_id) == 0 and stored_answers(app, study_id) == [], "the preview stored data"

    owner.locator("#phase-open").click()
    expect(owner.locator("#study-phase")).to_have_text("open")
    link = owner.locator("#entry-link").input_value()
    public_id = link.rsplit("/", 1)[1]

    # Participant 1 solves both puzzles and passes the attention check.
    first = new_page(browser, base_url, people)
    first.goto(f"{link}?participant_label=T-1")
    consent_and_before(first, "34", pictured=True)
    first_items = [
        {"difficulty": "2", "tlx_mental": "20", "tlx_effort": "15", "tlx_frustration": "5"},
        {"difficulty": "6", "tlx_mental": "80", "tlx_effort": "75", "tlx_frustration": "40"},
    ]
    first_games = []
    for index in range(2):
        first.wait_for_url(GAME_URL)
        first_games.append(first.url.rsplit("/", 1)[1])
        puzzle = shown_digits(first)
        solve_on_page(first, puzzle, pairs[puzzle])
        first.locator("#completion #next-puzzle").click()
        puzzle_items(first, index, first_items[index], pictured=index == 0)
    after_block(first, "Green", "Nice puzzles")

    # Participant 2 gives up on the first puzzle, solves the second and fails the attention check.
    second = new_page(browser, base_url, people, viewport=PHONE, is_mobile=True, has_touch=True)  # on a phone
    second.goto(f"{link}?participant_label=T-2")
    consent_and_before(second, "58")
    given_up = second.url.rsplit("/", 1)[1]
    picture(second, "phone-study-game")
    expect(second.locator("#keys-help")).to_be_hidden()  # no keyboard help on a phone: the way out is not buried
    expect(second.locator("#give-up")).to_be_visible()
    second.locator("#give-up").click()
    picture(second, "give-up")
    second.locator("#give-up-confirm").click()
    second_items = [
        {"difficulty": "7", "tlx_mental": "100", "tlx_effort": "90", "tlx_frustration": "85"},
        {"difficulty": "3", "tlx_mental": "35", "tlx_effort": "30", "tlx_frustration": "10"},
    ]
    expect(second.locator("#questions")).to_have_attribute("data-page", "puzzle-0")
    picture(second, "phone-questions-after-a-puzzle")
    assert second.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "no sideways scrolling"
    assert_scale_rows(second, {"difficulty": 1, "tlx_mental": 3, "tlx_effort": 3, "tlx_frustration": 3})
    puzzle_items(second, 0, second_items[0])
    second.wait_for_url(GAME_URL)
    solved = second.url.rsplit("/", 1)[1]
    puzzle = shown_digits(second)
    solve_on_page(second, puzzle, pairs[puzzle])
    second.locator("#completion #next-puzzle").click()
    puzzle_items(second, 1, second_items[1])
    after_block(second, "Red", "")

    # Participant 3 answers the first block, types a digit and withdraws, deleting everything.
    third = new_page(browser, base_url, people)
    third.goto(f"{link}?participant_label=T-3")
    consent_and_before(third, "27")
    leaving_game = third.url.rsplit("/", 1)[1]
    leaving_id = participant_of(app, public_id, "T-3").public_id
    third.locator('#board [data-cell="r1c1"]').click()
    third.keyboard.press(pairs[shown_digits(third)][0])
    third.locator("#withdraw").click()
    picture(third, "withdraw")
    third.locator("#withdraw-delete").click()
    expect(third.locator("#withdrawn-deleted")).to_be_visible()

    # The owner closes the study; no one may go on.
    owner.reload()
    owner.locator("#phase-closed").click()
    expect(owner.locator("#study-phase")).to_have_text("closed")
    second.goto(f"{link}/go")
    expect(second.locator("#study-closed")).to_be_visible()

    # The owner replays participant 1's second game from its first event to its last.
    one = participant_of(app, public_id, "T-1")
    two = participant_of(app, public_id, "T-2")
    owner.locator("#participants-link").click()
    picture(owner, "participants")
    for who, completed, gave_up in ((one, "2 of 2", "0"), (two, "1 of 2", "1")):
        row = owner.locator(f'#participants tr[data-participant="{who.public_id}"]')
        expect(row.locator(".completed")).to_have_text(completed)
        expect(row.locator(".gave-up")).to_have_text(gave_up)
    owner.get_by_role("link", name=one.public_id, exact=True).click()
    owner.locator(f'a[href$="/games/{first_games[1]}/replay"]').click()
    owner.wait_for_url(re.compile(rf"/games/{first_games[1]}/replay$"))
    events = events_of(app, [first_games[1]])
    owner.locator("#replay-first").click()
    expect(owner.locator("#replay-step")).to_have_text(f"0 of {len(events)}")
    shown = owner.evaluate(DIGITS_JS)
    assert shown in pairs, "the replay starts from one of the study's puzzles"
    owner.locator("#replay-speed").select_option("10")
    owner.locator("#replay-play").click()
    expect(owner.locator("#replay-step")).to_have_text(f"{len(events)} of {len(events)}", timeout=30_000)
    assert owner.evaluate(DIGITS_JS) == pairs[shown]
    picture(owner, "replay")

    # Participant 2's path says which puzzle they gave up on.
    owner.goto(f"/research/studies/{study_id}/participants/{two.public_id}")
    expect(owner.locator("#path tbody .completed")).to_have_text(["gave up", "yes"])

    # The database: the two participants who stayed, their games and answers; nothing of the third.
    with db.sessions_of(app)() as session:
        assert session.get(Game, leaving_game) is None
        games = {g.id: g for g in session.scalars(select(Game).where(Game.participant_id.in_([one.id, two.id])))}
    assert set(games) == {*first_games, given_up, solved}
    assert games[given_up].gave_up_at is not None and games[given_up].completed_at is None
    assert all(games[g].completed_at is not None for g in (*first_games, solved))
    answers = stored_answers(app, study_id)
    assert {row[0] for row in answers} == {one.public_id, two.public_id}
    expected_answers = [
        (who, block, key, value, passed)
        for who, age, items, colour, comment, passed in (
            (one.public_id, "34", first_items, "Green", "Nice puzzles", "1"),
            (two.public_id, "58", second_items, "Red", "", "0"),
        )
        for block, key, value, passed in [
            ("before", "age", age, ""),
            *[("puzzle", key, given[key], "") for given in items for key in BUILT_IN],
            ("after", "attention", colour, passed),
            ("after", "comments", comment, ""),
        ]
    ]
    assert answers == expected_answers
    assert participants_of(app, study_id) == 2

    # The exports, downloaded by the owner, hold exactly that.
    owner.goto(f"/research/studies/{study_id}")
    picture(owner, "study-closed")
    wide_text = download(owner, "#export-wide")
    wide = parsed_csv(wide_text)
    assert sorted(row["game"] for row in wide) == sorted(games)
    for row in wide:
        assert (row["gave_up"], row["completed"]) == (("1", "0") if row["game"] == given_up else ("0", "1"))
        assert row["attention_failed"] == ("1" if row["participant"] == two.public_id else "0")
    by_game = {row["game"]: row for row in wide}
    for game_ids, items in ((first_games, first_items), ([given_up, solved], second_items)):
        for game_id, given in zip(game_ids, items, strict=True):
            assert {key: by_game[game_id][f"q_{key}"] for key in BUILT_IN} == given
    long_text = download(owner, "#export-long")
    long = parsed_csv(long_text)
    ordered = [row["game"] for row in long]
    stored_events = events_of(app, list(dict.fromkeys(ordered)))
    assert [(row["game"], row["event"], row["kind"]) for row in long] == [
        (event.game_id, str(event.id), event.kind) for event in stored_events
    ]
    assert set(ordered) == set(games)
    answers_text = download(owner, "#export-answers")
    exported_answers = [
        (r["participant"], r["block"], r["question"], r["value"], r["passed"]) for r in parsed_csv(answers_text)
    ]
    assert exported_answers == expected_answers
    exported = json.loads(download(owner, "#export-json"))
    assert exported["phase"] == "closed"
    assert exported["withdrawals"] == {"withdrawn_data_kept": 0, "deleted_on_withdrawal": 1, "deleted_on_request": 0}
    assert [(a["participant"], a["block"], a["question"], a["value"]) for a in exported["answers"]] == [
        e[:4] for e in expected_answers
    ]
    for text in (wide_text, long_text, answers_text, json.dumps(exported)):
        assert leaving_id not in text
    book = parsed_csv(download(owner, "#export-codebook"))
    for kind, text in (("long.csv", long_text), ("wide.csv", wide_text), ("answers.csv", answers_text)):
        assert [row["column"] for row in book if row["file"] == kind] == header_of(text), kind
    assert [row["column"] for row in book if row["file"] == "study.json"] == list(exported)

    # The colleague, a viewer, sees the study without its controls and downloads the same answers.
    colleague.goto("/research/")
    colleague.get_by_role("link", name="Team study").click()
    expect(colleague.locator("#study-phase")).to_have_text("closed")
    expect(colleague.locator("#phase-archived")).to_have_count(0)
    expect(colleague.locator("#preview-study")).to_have_count(0)
    assert download(colleague, "#export-answers") == answers_text
