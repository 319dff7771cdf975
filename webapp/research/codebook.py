"""A study's codebook: every column of every export (long CSV, wide CSV, answers CSV, the JSON's keys) with its
meaning, type and allowed values, the study's own questions included (``docs/data.md`` says the same in prose,
checked by ``tests/web/test_data_doc.py``).

``tests/web/test_questionnaires.py`` checks that the codebook lists exactly the columns each export has.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..models import Study
from ..study import questions
from . import answers, exports

CODEBOOK_COLUMNS = ("file", "column", "type", "allowed_values", "meaning")
STUDY_ID = ("text", "", "the study's public id (the entry link's last part)")
PERSON = ("text", "", "the participant's public id")
ARRIVAL = ("integer", "1 and up", "the order in which participants arrived")
LATIN_ROW = ("integer", "0 and up; empty", "the balanced Latin square's row, empty for other orders")
ORDER_INDEX = ("integer", "0 and up", "0-based place of this puzzle in the participant's order")
POSITION = ("integer", "0 and up", "0-based place of the puzzle in the study's list (the JSON's position)")
GAME = ("text", "", "the game id (one participant on one puzzle)")
COUNT = ("integer", "0 and up")
FLAG = ("integer", "0; 1")
EVENT_KINDS = (
    "show; enter; clear; mark; colour; autofill; clear_marks; restart; undo; redo; hint; apply; pause; resume; "
    "check; complete; give_up"
)
SHARED = {
    "study": STUDY_ID,
    "participant": PERSON,
    "arrival": ARRIVAL,
    "latin_row": LATIN_ROW,
    "order_index": ORDER_INDEX,
    "puzzle_position": POSITION,
    "game": GAME,
}
LONG = {
    **SHARED,
    "event": ("integer", "1 and up", "the event id, increasing in the order the server stored the events"),
    "server_time": ("UTC time, ISO 8601", "", "when the server stored the event"),
    "client_ms": ("integer", "0 and up; empty", "the browser's clock at the action, whole ms since the page loaded"),
    "kind": ("text", EVENT_KINDS, "what happened (docs/data.md lists each kind)"),
    "cell": ("text", "r1c1 to r9c9; empty", "the cell acted on (empty for several cells: see detail)"),
    "digit": ("integer", "1 to 9; empty", "the digit entered or marked"),
    "mode": ("text", "digit; corner; centre; colour", "the kind of entry or mark"),
    "rung": ("integer", "1 to 4; empty", "for hint: 1 technique, 2 area, 3 cells and digits, 4 the full step"),
    "detail": ("JSON text", "", "the cells changed, the technique, the pause's reason... (docs/data.md)"),
}
WIDE = {
    **SHARED,
    "puzzle": ("text", "81 characters of 1-9 and .", "the givens, . for empty"),
    "d": ("number", "1 to 12, 3 decimals; empty", "the puzzle's difficulty D"),
    "first_shown": ("UTC time, ISO 8601", "", "when the puzzle was first displayed (start of time on task)"),
    "completed_at": ("UTC time, ISO 8601", "empty when unsolved", "when the server verified the solution"),
    "time_on_task_s": ("number, seconds", "0 and up; empty", "first display to completion (or last event)"),
    "active_s": ("number, seconds", "0 and up; empty", "time on task minus paused time: the solve time"),
    "paused_s": ("number, seconds", "0 and up", "total paused time (pause button and hidden tab)"),
    "pauses": (*COUNT, "how many pauses"),
    "hidden_pauses": (*COUNT, "how many pauses because the tab was hidden or the page left"),
    **{f"hints_rung{n}": (*COUNT, f"how many hint rungs of level {n} were revealed") for n in range(1, 5)},
    "hints_applied": (*COUNT, "how many hint steps were applied"),
    "mistakes": (*COUNT, "digits entered that differ from the solution"),
    "undos": (*COUNT, "undo events"),
    "redos": (*COUNT, "redo events"),
    "entries": (*COUNT, "enter events"),
    "completed": (*FLAG, "1 when solved"),
    "timed_out": (*FLAG, "1 when the study's time limit ran out unsolved"),
    "abandoned": (
        *FLAG,
        "1 when unsolved, not given up, and the participant has been away longer than abandon_minutes",
    ),
    "gave_up": (*FLAG, "1 when the participant gave up on the puzzle (the long CSV's give_up event)"),
    "withdrawn": (*FLAG, "1 when the participant withdrew from the study keeping their data (on each of their rows)"),
}
ANSWERS = {
    "study": STUDY_ID,
    "participant": PERSON,
    "arrival": ARRIVAL,
    "latin_row": LATIN_ROW,
    "block": (
        "text",
        "before; puzzle; after",
        "where the question was asked: before the puzzles, after a puzzle, after the last",
    ),
    "order_index": (
        "integer",
        "0 and up; empty",
        "for the puzzle block: the place in the participant's order of the puzzle just played",
    ),
    "puzzle_position": ("integer", "0 and up; empty", "for the puzzle block: that puzzle's place in the study's list"),
    "game": ("text", "empty outside the puzzle block", "for the puzzle block: that puzzle's game id"),
    "question": ("text", "the questions' keys (rows q_<key> below)", "the question's key"),
    "kind": ("text", "single; multiple; likert; tlx; number; integer; text", "the question's kind"),
    "value": (
        "text",
        "as the question allows (its q_<key> row); empty",
        "the answer; empty when an optional question was left blank",
    ),
    "attention_check": (*FLAG, "1 when the question is an attention check"),
    "passed": ("integer", "0; 1; empty", "for an attention check: 1 when the expected answer was given"),
    "answered_at": ("UTC time, ISO 8601", "", "when the server stored the page's answers"),
}
JSON_KEYS = {
    "study": STUDY_ID,
    "name": ("text", "", "the study's name"),
    "description": ("text", "", "the researcher's description"),
    "order_scheme": ("text", "fixed; random; latin", "the puzzles' order"),
    "settings": (
        "object",
        "",
        "the board settings (hint_rungs, autofill, checking, time_limit_s, breaks, redirect_url, abandon_minutes, "
        "show_rating, calibrate)",
    ),
    "consent_text": ("text, Markdown", "", "the consent text as written"),
    "instructions": ("text", "", "the instructions as written"),
    "created_at": ("UTC time, ISO 8601", "", "when the study was created"),
    "phase": ("text", "draft; open; paused; closed; archived", "the study's phase when exported"),
    "max_participants": ("integer", "1 and up; null", "the cap on participants in total (null: none)"),
    "max_per_row": ("integer", "1 and up; null", "the cap on participants per Latin square row (null: none)"),
    "withdrawals": (
        "object",
        "",
        "withdrawn_data_kept (participants who withdrew keeping their data), deleted_on_withdrawal and "
        "deleted_on_request (how many participants' data were deleted on their withdrawal or at a researcher's "
        "request)",
    ),
    "puzzles": ("list of objects", "", "each puzzle: position, puzzle, solution, D, the full rating record"),
    "consent_clauses": ("list of text", "", "the consent's clauses (its top-level list items), each ticked to agree"),
    "questionnaire": (
        "object",
        "",
        "per_puzzle (built-in items), questions (every question as asked: key, block, "
        "kind, text, options, points, low, high, max_length, required, expect), source (the text)",
    ),
    "answers": ("list of objects", "", "every answer, with the answers CSV's fields"),
}


def allowed(question: questions.Question) -> str:
    """The values a question's answers may take, in words."""
    optional = "; empty" if not question.required else ""
    if question.kind in ("single", "multiple"):
        joined = " | ".join(question.options)
        many = "one or more, joined by ';', of: " if question.kind == "multiple" else "one of: "
        return f"{many}{joined}{optional}"
    if question.kind in ("likert", "tlx"):
        low, high = question.values[0], question.values[-1]
        step = " in steps of 5" if question.kind == "tlx" else ""
        return f"{low} ({question.options[0]}) to {high} ({question.options[1]}){step}{optional}"
    if question.kind in ("number", "integer"):
        return f"{question.bounds}{optional}"
    return f"up to {question.max_length} characters{optional}"


TYPES = {"single": "text", "multiple": "text", "likert": "integer", "tlx": "integer", "number": "number"}
UNDESCRIBED = ("", "", "")  # a column missing here: tests/web/test_questionnaires.py fails on its empty meaning


def question_rows(study: Study) -> Iterator[tuple[str, str, str, str, str]]:
    """One row per question of the study (its wide CSV column), and the failed attention checks' column."""
    asked = questions.questions_of(study)
    for question in asked:
        where = {
            "before": "asked before the puzzles",
            "puzzle": "asked after each puzzle",
            "after": "asked after the last puzzle",
        }[question.block]
        check = f"; attention check expecting {question.expect}" if question.expect is not None else ""
        meaning = f"{question.text} ({where}{check}; wide CSV: answers before and after repeat on each row)"
        kind = TYPES.get(question.kind, "integer" if question.kind == "integer" else "text")
        yield "wide.csv", answers.column(question), kind, allowed(question), meaning
    if any(q.expect is not None for q in asked):
        yield "wide.csv", answers.ATTENTION_FAILED, "integer", "0 and up", "attention checks the participant failed"


def rows(study: Study) -> Iterator[tuple[str, str, str, str, str]]:
    """Every row of the codebook: the long, wide and answers CSVs' columns, the study's questions, the JSON's keys."""
    tables: tuple[tuple[str, tuple[str, ...], dict[str, tuple[str, str, str]]], ...] = (
        ("long.csv", exports.LONG_COLUMNS, LONG),
        ("wide.csv", exports.WIDE_COLUMNS, WIDE),
    )
    for name, columns, described in tables:
        for column in columns:
            yield (name, column, *described.get(column, UNDESCRIBED))
    yield from question_rows(study)
    for column in answers.ANSWER_COLUMNS:
        yield ("answers.csv", column, *ANSWERS.get(column, UNDESCRIBED))
    for key, meaning in JSON_KEYS.items():
        yield ("study.json", key, *meaning)


def codebook_csv(study: Study) -> str:
    """The codebook as CSV text with a header line, its cells made safe as every export's (``exports.csv_text``)."""
    return exports.csv_text(CODEBOOK_COLUMNS, rows(study), ids=())
