"""Questionnaires through the Flask test client: consent clauses, the questionnaire's text format, the pages of
questions in a participant's walk, answers checked on the server, and the exports and codebook that carry them.

Expected values are written out here from what the test sends, never read back from the app's own output.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from helpers.questionnaires import agree, answer, solve_current
from helpers.studies import (
    consumer,  # noqa: F401  (fixtures)
    create,
    enter_study,
    form_token,
    public_id,
)
from sqlalchemy import func, select

from sudoku_engine.generate import generate_puzzle
from webapp import db
from webapp.models import Answer, Game, Participant, Study
from webapp.study import consent, questions

CONSENT = """This study records how long you take to solve Sudoku puzzles.

- I am 18 or older.
- I agree that my solve times are recorded ([details](https://example.org/privacy)).
- I know I can stop at any time.
"""
QUESTIONS = """# demographics first
[before]
age | integer: 18 to 99 | How old are you?
often | single: Never; Monthly; Weekly; Daily | How often do you solve Sudoku?
devices | multiple: Phone; Tablet; Computer | optional | Where do you play?

[after each puzzle]
strategy | text: 40 | optional | Which strategy did you use?

[after]
attention | likert7: Strongly disagree / Strongly agree | check: Strongly disagree | Select "Strongly disagree" here.
enjoy | likert5: Not at all / Very much | How much did you enjoy the puzzles?
hours | number: 0 to 24 | optional | Hours of sleep last night?
"""


@pytest.fixture(scope="module")
def puzzles() -> list[tuple[str, str]]:
    """Two easy generated puzzles with their solutions."""
    made = [generate_puzzle(seed=930 + i, givens=62) for i in range(2)]
    return [(str(m.puzzle), str(m.solution)) for m in made]


def questionnaire_study(client: FlaskClient, puzzles: list[tuple[str, str]], **fields: str) -> int:
    """A study of the two puzzles in fixed order with the consent clauses, the questions and both built-in items."""
    defaults = {"consent_text": CONSENT, "questions": QUESTIONS, "ask_difficulty": "on", "ask_effort": "on"}
    return create(client, puzzles, order_scheme="fixed", breaks="on", **{**defaults, **fields})


def stored_answers(app: Flask) -> list[tuple[str, int, str, str | None, bool | None]]:
    """Every stored answer as (block, order index, question, value, passed)."""
    with app.app_context():
        rows = db.get_session().scalars(select(Answer).order_by(Answer.id))
        return [(a.block, a.order_index, a.question, a.value, a.passed) for a in rows]


def downloaded(client: FlaskClient, study_id: int, kind: str) -> list[dict[str, str]]:
    """The rows of one CSV export."""
    response = client.get(f"/research/studies/{study_id}/export/{kind}")
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))


def header(client: FlaskClient, study_id: int, kind: str) -> list[str]:
    """The header line of one CSV export."""
    text = client.get(f"/research/studies/{study_id}/export/{kind}").get_data(as_text=True)
    return next(csv.reader(io.StringIO(text)))


# The text format ---------------------------------------------------------------------------------------------------


def test_the_questionnaire_text_becomes_its_questions() -> None:
    parsed = questions.parse(QUESTIONS, ["effort"])
    assert parsed is not None and parsed["per_puzzle"] == ["effort"]
    made = {q["key"]: q for q in parsed["questions"]}
    assert list(made) == ["age", "often", "devices", "strategy", "attention", "enjoy", "hours"]
    assert (made["age"]["kind"], made["age"]["low"], made["age"]["high"], made["age"]["block"]) == (
        "integer",
        18,
        99,
        "before",
    )
    assert made["often"]["options"] == ["Never", "Monthly", "Weekly", "Daily"] and made["often"]["required"]
    assert made["devices"]["kind"] == "multiple" and not made["devices"]["required"]
    assert (made["strategy"]["block"], made["strategy"]["max_length"]) == ("puzzle", 40)
    assert (made["attention"]["points"], made["attention"]["expect"]) == (7, "1")  # the left end label is point 1
    assert made["enjoy"]["options"] == ["Not at all", "Very much"] and made["enjoy"]["expect"] is None
    assert questions.parse("", []) is None and questions.parse("# nothing\n", []) is None


@pytest.mark.parametrize(
    ("text", "messages"),
    [
        ("age | integer: 18 to 99 | Age?", ["Line 1: put a block heading first"]),
        ("[during]\n", ["Line 1: '[during]' is not a block"]),
        (
            "[before]\nAge | integer: 1 to 2 | Age?\nx | colour: red | Colour?\ny | integer: 9 to 1 | Y?",
            [
                "Line 2: the key 'Age'",
                "Line 3: 'colour: red' is not a kind",
                "Line 4: give the question's bounds, the lower first",
            ],
        ),
        ("[after]\na | single: Yes | One option?", ["Line 2: a choice needs 2 to 20 options"]),
        ("[after]\na | likert5: Only one end | A?", ["Line 2: a likert5 scale needs its two end labels"]),
        ("[after]\na | text: 5000 | A?", ["Line 2: a text question needs its longest answer, 1 to 1000"]),
        ("[after]\na | text: \u00b2 | A?", ["Line 2: a text question needs its longest answer, 1 to 1000"]),
        ("[after]\na | text: 10 | check: yes | A?", ["Line 2: check: 'yes' is not an answer"]),
        ("[after]\na | single: Yes; No | check: Maybe | A?", ["Line 2: check: 'Maybe' is not an answer"]),
        ("[after]\na | single: Yes; No | sometimes | A?", ["Line 2: 'sometimes' is not a flag"]),
        ("[after]\na | text: 10 | A?\na | text: 10 | B?", ["The key 'a' is used twice"]),
        ("[after]\ndifficulty | text: 10 | Mine?", ["Line 2: the key 'difficulty'"]),
        ("[after]\njust a line", ["Line 2: write key | kind | question text"]),
    ],
)
def test_each_bad_line_is_named_and_nothing_is_stored(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]], text: str, messages: list[str]
) -> None:
    data = {"name": "Bad", "puzzles": puzzles[0][0], "order_scheme": "fixed", "questions": text}
    data["csrf_token"] = form_token(researcher, "/research/studies/new")
    response = researcher.post("/research/studies/new", data=data)
    page = response.get_data(as_text=True).replace("&#39;", "'")
    assert response.status_code == 400
    assert all(message in page for message in messages), page
    with app.app_context():
        assert db.get_session().scalar(select(func.count()).select_from(Study)) == 0


# Consent ----------------------------------------------------------------------------------------------------------


def test_agree_needs_every_clause_ticked_and_the_consent_downloads_as_text(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:1], consent_text=CONSENT)
    base = f"/s/{public_id(app, study_id)}"
    client = app.test_client()
    enter_study(client, base)
    page = client.get(f"{base}/go").get_data(as_text=True)
    assert re.findall(r'<input type="checkbox" name="clause" value="(\d)" required', page) == ["1", "2", "3"]
    assert '<a href="https://example.org/privacy">details</a>' in page
    for ticked in ([], ["1", "2"], ["1", "2", "4"], ["1", "1", "2"]):
        refused = agree(client, base, ticked)
        assert refused.status_code == 400 and "Tick every clause" in refused.get_data(as_text=True)
    with app.app_context():
        person = db.get_session().scalar(select(Participant))
        assert person is not None and person.state == "consent" and person.consented_at is None
    before = client.get(f"{base}/consent.txt")
    assert before.mimetype == "text/plain" and "attachment" in before.headers["Content-Disposition"]
    assert "- I know I can stop at any time." in before.text and "You have not agreed" in before.text
    assert agree(client, base, ["1", "2", "3"]).status_code == 303
    assert 'id="start"' in client.get(f"{base}/go").get_data(as_text=True)
    after = client.get(f"{base}/consent.txt").text
    assert after.startswith("Consent: Pilot\n") and "This study records how long" in after
    assert re.search(r"You agreed on \d{4}-\d\d-\d\d \d\d:\d\d UTC", after)


def test_declining_needs_no_tick(app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]) -> None:
    study_id = create(researcher, puzzles[:1], consent_text=CONSENT)
    base = f"/s/{public_id(app, study_id)}"
    client = app.test_client()
    enter_study(client, base)
    token = form_token(client, f"{base}/go")
    assert client.post(f"{base}/consent", data={"answer": "decline", "csrf_token": token}).status_code == 303
    assert 'id="declined"' in client.get(f"{base}/go").get_data(as_text=True)


ATTACKS = """<script>alert(1)</script> <img src=x onerror="alert(2)">

[one](javascript:alert(3)) [two](JAVASCRIPT:alert(4)) [three](jav&#x61;script:alert(5)) <javascript:alert(6)>
[four](data:text/html;base64,PHNjcmlwdD4=) [five](vbscript:msgbox) ![six](https://elsewhere.example/x.png)

- <b onclick="alert(7)">bold</b> [seven](  javascript:alert(8))
"""


def test_the_consent_markdown_lets_no_html_or_script_link_through(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    rendered = "".join(part.html for part in consent.parts(ATTACKS))
    for html in (rendered, consent.render(ATTACKS)):
        assert "<script" not in html and "<img" not in html and "<b " not in html
        assert not re.search(r"<[^>]*\son\w+=", html)  # no event handler attribute on any tag
        # Every link above goes to an unsafe address but the image's, which is a link, never loaded.
        assert re.findall(r"<a\b[^>]*>", html) == ['<a href="https://elsewhere.example/x.png">']
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # shown as text
    assert [part.clause for part in consent.parts(ATTACKS)] == [False, True]
    study_id = create(researcher, puzzles[:1], consent_text=ATTACKS)
    base = f"/s/{public_id(app, study_id)}"
    client = app.test_client()
    enter_study(client, base)
    page = client.get(f"{base}/go").get_data(as_text=True)
    consent_html = page.split('id="consent-text"', 1)[1].split("</div>", 1)[0]
    assert "<script" not in consent_html and "<img" not in consent_html
    assert re.findall(r'href="([^"]*)"', consent_html) == ["https://elsewhere.example/x.png"]
    assert consent_html.count('name="clause"') == 1


def test_safe_links_stay_links() -> None:
    html = consent.render("[a](https://example.org/x) [b](mailto:lab@example.org) [c](http://example.org)")
    assert re.findall(r'<a href="([^"]+)">', html) == [
        "https://example.org/x",
        "mailto:lab@example.org",
        "http://example.org",
    ]


# The participant's walk --------------------------------------------------------------------------------------------


BEFORE = {"q_age": "34", "q_often": "3", "q_devices": ["1", "3"]}
PUZZLE_ANSWERS = [
    {
        "q_difficulty": "2",
        "q_tlx_mental": "35",
        "q_tlx_effort": "40",
        "q_tlx_frustration": "5",
        "q_strategy": "singles",
    },
    {"q_difficulty": "6", "q_tlx_mental": "80", "q_tlx_effort": "100", "q_tlx_frustration": "0", "q_strategy": ""},
]
AFTER = {"q_attention": "2", "q_enjoy": "5", "q_hours": "7.5"}


def test_a_participant_answers_every_block_and_the_exports_hold_exactly_that(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = questionnaire_study(researcher, puzzles)
    summary = researcher.get(f"/research/studies/{study_id}").get_data(as_text=True)
    assert re.search(r"Questionnaire: 7\s+questions; after each\s+puzzle: difficulty and effort\.", summary)
    base = f"/s/{public_id(app, study_id)}"
    client = app.test_client()
    enter_study(client, f"{base}?participant_label=q1")
    assert agree(client, base, ["1", "2", "3"]).status_code == 303
    page = client.get(f"{base}/go").get_data(as_text=True)
    assert 'data-page="before"' in page and 'id="start"' not in page and "How old are you?" in page
    token = form_token(client, f"{base}/go")
    assert client.post(f"{base}/start", data={"csrf_token": token}).status_code == 409  # questions first
    assert client.post(f"{base}/answers", data={**BEFORE, "page": "before"}).status_code == 400  # no CSRF token
    wrong = answer(client, base, "before", {"q_age": "17", "q_often": "9", "q_devices": ["1", "x"]})
    text = wrong.get_data(as_text=True)
    assert wrong.status_code == 400 and "Give a whole number from 18 to 99." in text
    assert text.count("Choose among the options shown.") == 2 and 'value="17"' in text
    assert answer(client, base, "before", {"q_often": "2"}).status_code == 400  # age is required
    assert stored_answers(app) == []
    assert answer(client, base, "after", AFTER).status_code == 409  # not the page due
    assert answer(client, base, "before", BEFORE).status_code == 303
    assert 'id="start"' in client.get(f"{base}/go").get_data(as_text=True)
    assert answer(client, base, "before", BEFORE).status_code == 409  # answered once
    client.post(f"{base}/start", data={"csrf_token": token})
    games = [solve_current(app, client, base)]
    page = client.get(f"{base}/go").get_data(as_text=True)
    assert 'data-page="puzzle-0"' in page and "How difficult was this puzzle?" in page and "Mental demand" in page
    assert client.get(f"{base}/break").headers["Location"].endswith("/go")  # no break before the answers
    assert client.post(f"{base}/start", data={"csrf_token": token}).status_code == 409
    assert answer(client, base, "puzzle-0", {**PUZZLE_ANSWERS[0], "q_tlx_effort": "42"}).status_code == 400
    too_long = answer(client, base, "puzzle-0", {**PUZZLE_ANSWERS[0], "q_strategy": "x" * 41})
    assert too_long.status_code == 400 and "At most 40 characters" in too_long.get_data(as_text=True)
    assert answer(client, base, "puzzle-0", {**PUZZLE_ANSWERS[0], "q_difficulty": ["2", "3"]}).status_code == 400
    assert answer(client, base, "puzzle-0", PUZZLE_ANSWERS[0]).headers["Location"].endswith("/break")
    client.post(f"{base}/start", data={"csrf_token": token})
    games.append(solve_current(app, client, base))
    assert answer(client, base, "puzzle-1", PUZZLE_ANSWERS[1]).status_code == 303
    page = client.get(f"{base}/go").get_data(as_text=True)
    assert 'data-page="after"' in page and 'Select "Strongly disagree" here.' in page.replace("&#34;", '"')
    assert answer(client, base, "after", {**AFTER, "q_hours": "25"}).status_code == 400
    assert answer(client, base, "after", AFTER).status_code == 303
    assert 'id="thanks"' in client.get(f"{base}/go").get_data(as_text=True)

    expected = (
        [("before", 0, "age", "34", None), ("before", 0, "often", "Weekly", None)]
        + [("before", 0, "devices", "Phone;Computer", None)]
        + [
            ("puzzle", index, key, value or None, None)
            for index, sent in enumerate(PUZZLE_ANSWERS)
            for key, value in (
                ("difficulty", sent["q_difficulty"]),
                ("tlx_mental", sent["q_tlx_mental"]),
                ("tlx_effort", sent["q_tlx_effort"]),
                ("tlx_frustration", sent["q_tlx_frustration"]),
                ("strategy", sent["q_strategy"]),
            )
        ]
        + [("after", 0, "attention", "2", False), ("after", 0, "enjoy", "5", None), ("after", 0, "hours", "7.5", None)]
    )
    assert stored_answers(app) == expected
    check_exports(app, researcher, study_id, expected, games)


def check_exports(
    app: Flask,
    researcher: FlaskClient,
    study_id: int,
    expected: list[tuple[str, int, str, str | None, bool | None]],
    games: list[str],
) -> None:
    """The answers CSV, the wide CSV's questionnaire columns, the JSON and the codebook against what was sent."""
    rows = downloaded(researcher, study_id, "answers.csv")
    assert [(r["block"], r["question"], r["value"], r["passed"]) for r in rows] == [
        (block, key, value or "", "" if passed is None else str(int(passed)))
        for block, _i, key, value, passed in expected
    ]
    assert [r["game"] for r in rows if r["block"] == "puzzle"] == [games[0]] * 5 + [games[1]] * 5
    assert [r["attention_check"] for r in rows].count("1") == 1
    wide = downloaded(researcher, study_id, "wide.csv")
    assert [row["game"] for row in wide] == games
    assert [row["q_difficulty"] for row in wide] == ["2", "6"] and [row["q_tlx_effort"] for row in wide] == [
        "40",
        "100",
    ]
    assert [row["q_strategy"] for row in wide] == ["singles", ""]
    assert all(row["q_age"] == "34" and row["q_hours"] == "7.5" and row["attention_failed"] == "1" for row in wide)
    exported = researcher.get(f"/research/studies/{study_id}/export/study.json").get_json()
    assert exported["consent_clauses"] == [
        "I am 18 or older.",
        "I agree that my solve times are recorded ([details](https://example.org/privacy)).",
        "I know I can stop at any time.",
    ]
    assert [q["key"] for q in exported["questionnaire"]["questions"]] == [
        "age",
        "often",
        "devices",
        "difficulty",
        "tlx_mental",
        "tlx_effort",
        "tlx_frustration",
        "strategy",
        "attention",
        "enjoy",
        "hours",
    ]
    assert [(a["question"], a["value"]) for a in exported["answers"]] == [(e[2], e[3] or "") for e in expected]
    check_codebook(researcher, study_id)


def check_codebook(researcher: FlaskClient, study_id: int, asked: bool = True) -> None:
    """The codebook lists exactly the columns of each export, each with a meaning, and (``asked``) the questions
    of ``QUESTIONS``."""
    book = downloaded(researcher, study_id, "codebook.csv")
    assert all(row["meaning"] and row["type"] for row in book), [r for r in book if not r["meaning"]]
    for kind in ("long.csv", "wide.csv", "answers.csv"):
        assert [row["column"] for row in book if row["file"] == kind] == header(researcher, study_id, kind), kind
    exported = researcher.get(f"/research/studies/{study_id}/export/study.json").get_json()
    assert [row["column"] for row in book if row["file"] == "study.json"] == list(exported)
    if not asked:
        return
    described = {row["column"]: row for row in book if row["file"] == "wide.csv"}
    assert described["q_often"]["allowed_values"] == "one of: Never | Monthly | Weekly | Daily"
    assert described["q_tlx_mental"]["allowed_values"] == "0 (Very low) to 100 (Very high) in steps of 5"
    assert described["q_difficulty"]["allowed_values"] == "1 (Very easy) to 7 (Very hard)"
    assert described["q_hours"]["allowed_values"] == "0 to 24; empty"
    assert "How old are you?" in described["q_age"]["meaning"]
    assert "attention check expecting 1" in described["q_attention"]["meaning"]


def test_a_study_without_questions_asks_none_and_exports_no_question_column(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = create(researcher, puzzles[:1], order_scheme="fixed", breaks="")
    base = f"/s/{public_id(app, study_id)}"
    client = app.test_client()
    enter_study(client, base)
    assert agree(client, base, []).status_code == 303
    token = form_token(client, f"{base}/go")
    assert answer(client, base, "before", {}).status_code == 409  # nothing is due
    client.post(f"{base}/start", data={"csrf_token": token})
    solve_current(app, client, base)
    assert 'id="thanks"' in client.get(f"{base}/go").get_data(as_text=True)
    assert not [c for c in header(researcher, study_id, "wide.csv") if c.startswith("q_")]
    assert downloaded(researcher, study_id, "answers.csv") == []
    check_codebook(researcher, study_id, asked=False)


def test_per_puzzle_items_alone_come_after_each_puzzle(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    """Only the built-in difficulty item: asked after every puzzle (the last too), nothing before or after."""
    study_id = create(researcher, puzzles, order_scheme="fixed", breaks="", ask_difficulty="on")
    base = f"/s/{public_id(app, study_id)}"
    client = app.test_client()
    enter_study(client, base)
    agree(client, base, [])
    client.post(f"{base}/start", data={"csrf_token": form_token(client, f"{base}/go")})
    for index in range(2):
        solve_current(app, client, base)
        page = client.get(f"{base}/go").get_data(as_text=True)
        assert f'data-page="puzzle-{index}"' in page and "Mental demand" not in page
        assert answer(client, base, f"puzzle-{index}", {"q_difficulty": str(7 - index)}).status_code == 303
    assert 'id="thanks"' in client.get(f"{base}/go").get_data(as_text=True)
    assert stored_answers(app) == [("puzzle", 0, "difficulty", "7", None), ("puzzle", 1, "difficulty", "6", None)]


# The questionnaire in the study's lifecycle and the participant's rights ----------------------------------------


def answer_count(app: Flask, study_id: int) -> int:
    """How many answers the participants of one study have stored."""
    with db.sessions_of(app)() as session:
        joined = select(func.count(Answer.id)).join(Participant, Participant.id == Answer.participant_id)
        return int(session.scalar(joined.where(Participant.study_id == study_id)) or 0)


def questionnaire_of(app: Flask, study_id: int) -> tuple[dict[str, object] | None, str]:
    """A study's stored questionnaire and consent text."""
    with db.sessions_of(app)() as session:
        study = session.get(Study, study_id)
        assert study is not None
        return study.questionnaire, study.consent_text


def test_a_duplicate_and_a_preview_carry_the_questionnaire_and_the_consent(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = questionnaire_study(researcher, puzzles)
    asked, consent_text = questionnaire_of(app, study_id)
    assert asked is not None and asked["source"] == QUESTIONS and consent_text == CONSENT
    token = form_token(researcher, "/research/account")
    copied = researcher.post(f"/research/studies/{study_id}/duplicate", data={"csrf_token": token})
    copy_id = int(copied.headers["Location"].rsplit("/", 1)[1])
    assert copy_id != study_id and questionnaire_of(app, copy_id) == (asked, CONSENT)
    form = researcher.get(f"/research/studies/{copy_id}/edit").get_data(as_text=True)
    assert "age | integer: 18 to 99 | How old are you?" in form
    assert re.search(r'id="ask_difficulty"\s+checked', form) and re.search(r'id="ask_effort"\s+checked', form)
    fields = {"name": "Copy", "order_scheme": "fixed", "hint_rungs": "4", "abandon_minutes": "60", "csrf_token": token}
    bad = researcher.post(f"/research/studies/{copy_id}/edit", data={**fields, "questions": "[during]\nx | y | z"})
    assert bad.status_code == 400 and questionnaire_of(app, copy_id)[0] == asked
    edited = researcher.post(
        f"/research/studies/{copy_id}/edit", data={**fields, "questions": "[after]\nfun | text: 9 | Fun?"}
    )
    assert edited.status_code == 303
    changed = questionnaire_of(app, copy_id)[0]
    assert changed is not None and [q["key"] for q in changed["questions"]] == ["fun"] and changed["per_puzzle"] == []
    assert questionnaire_of(app, study_id)[0] == asked  # the original is untouched

    entry = researcher.post(f"/research/studies/{study_id}/preview", data={"csrf_token": token}).headers["Location"]
    assert enter_study(researcher, entry).status_code == 303
    assert agree(researcher, entry, []).status_code == 400  # the copy's consent has its clauses
    assert agree(researcher, entry, ["1", "2", "3"]).status_code == 303
    page = researcher.get(f"{entry}/go").get_data(as_text=True)
    assert 'data-page="before"' in page and "How old are you?" in page and 'id="preview-note"' in page
    assert 'id="withdraw"' in page
    assert answer(researcher, entry, "before", BEFORE).status_code == 303
    assert answer_count(app, study_id) == 0 and downloaded(researcher, study_id, "answers.csv") == []
    with db.sessions_of(app)() as session:
        preview_id = session.scalar(select(Study.id).where(Study.preview_of == study_id))
    assert preview_id is not None and answer_count(app, preview_id) == 3


def test_a_give_up_leads_to_its_questions_a_closed_study_takes_none_and_deletion_removes_them(
    app: Flask, researcher: FlaskClient, puzzles: list[tuple[str, str]]
) -> None:
    study_id = questionnaire_study(researcher, puzzles)  # with breaks: the questions still come first
    base = f"/s/{public_id(app, study_id)}"
    client = app.test_client()
    enter_study(client, f"{base}?participant_label=g1")
    agree(client, base, ["1", "2", "3"])
    assert answer(client, base, "before", BEFORE).status_code == 303
    token = form_token(client, f"{base}/go")
    client.post(f"{base}/start", data={"csrf_token": token})
    first = client.get(f"{base}/go").headers["Location"].rsplit("/", 1)[1]
    gave = client.post(f"{base}/give-up", data={"csrf_token": token})
    assert gave.status_code == 303 and gave.headers["Location"].endswith(f"{base}/go")
    page = client.get(f"{base}/go").get_data(as_text=True)
    assert 'data-page="puzzle-0"' in page and "How difficult was this puzzle?" in page
    with db.sessions_of(app)() as session:
        games = session.scalars(
            select(Game)
            .join(Participant, Participant.id == Game.participant_id)
            .where(Participant.study_id == study_id)
        ).all()
        assert [g.id for g in games] == [first] and games[0].gave_up_at is not None  # the next waits for answers

    closing = researcher.post(
        f"/research/studies/{study_id}/phase",
        data={"to": "closed", "csrf_token": form_token(researcher, "/research/account")},
    )
    assert closing.status_code == 303
    refused = client.post(f"{base}/answers", data={**PUZZLE_ANSWERS[0], "page": "puzzle-0", "csrf_token": token})
    assert refused.status_code == 410 and answer_count(app, study_id) == 3  # the before block's only
    left = client.post(f"{base}/withdraw", data={"delete": "yes", "csrf_token": token})
    assert left.status_code == 200 and answer_count(app, study_id) == 0
    with db.sessions_of(app)() as session:
        assert session.scalar(select(func.count(Answer.id))) == 0
