"""A study's questionnaire: the researcher's text format, the built-in per-puzzle items, which page of questions a
participant is due, and their answers checked and stored.

The researcher writes the questions in a textarea, one per line, under block headings (``docs/data.md``,
"Consent and questionnaires"):

    [before]
    age | integer: 18 to 99 | How old are you?
    [after each puzzle]
    strategy | text: 200 | optional | Which strategy did you use?
    [after]
    attention | likert7: Strongly disagree / Strongly agree | check: 1 | Select "Strongly disagree" here.

A line is ``key | kind | flags... | question text``; kinds are ``single: A; B``, ``multiple: A; B``,
``likert5: LEFT / RIGHT``, ``likert7: LEFT / RIGHT``, ``number: LOW to HIGH``, ``integer: LOW to HIGH`` and
``text: MAX``; flags are ``optional`` and ``check: EXPECTED`` (an attention check). Every line that cannot be used
is named in one StudyError. The built-in items (perceived difficulty 1-7; mental demand, effort and frustration on
the NASA-TLX's 21 marks, 0 to 100 in steps of 5) are switched on by the study form and asked after every puzzle,
before the block's own questions.

Blocks are asked in a participant's walk: ``before`` after consent (before the instructions), ``puzzle`` after each
puzzle (before the break or the next puzzle), ``after`` after the last puzzle's questions. A page is due until it
is answered; every question shown gets a row (an optional one left blank has no value), so a page is answered once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..models import Answer, Participant, Study, utcnow
from ..validation import bounded_int
from .studies import StudyError

BLOCKS = ("before", "puzzle", "after")
HEADINGS = {"before": "before", "after each puzzle": "puzzle", "after": "after"}
KINDS = ("single", "multiple", "likert", "number", "integer", "text", "tlx")
KEY = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MAX_QUESTIONS = 60
MAX_TEXT = 500  # characters of a question's text
MAX_OPTIONS = 20
MAX_OPTION = 200  # characters of one option or end label
MAX_ANSWER = 1000  # the longest short text a question may allow
TLX_VALUES = tuple(range(0, 101, 5))  # the NASA-TLX's 21 marks, as 0..100


class AnswerErrors(ValueError):
    """Answers that cannot be stored: the message for each question key."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = dict(errors)


@dataclass(frozen=True)
class Question:
    """One question: its key (the export's column), block, kind, text and what answers it allows."""

    key: str
    block: str
    kind: str
    text: str
    options: tuple[str, ...] = ()  # single and multiple: the options; likert and tlx: the two end labels
    points: int = 0  # likert: 5 or 7
    low: float = 0.0  # number and integer: the bounds
    high: float = 0.0
    max_length: int = 0  # text
    required: bool = True
    expect: str | None = None  # an attention check's expected answer, as stored

    def as_json(self) -> dict[str, Any]:
        """The form kept in ``Study.questionnaire``."""
        return {**asdict(self), "options": list(self.options)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Question:
        """Read back what ``as_json`` stored."""
        return cls(**{**data, "options": tuple(data.get("options") or ())})

    @property
    def bounds(self) -> str:
        """A number question's bounds in words."""
        return f"{self.low:g} to {self.high:g}"

    @property
    def values(self) -> tuple[str, ...]:
        """The stored values a choice or scale allows (empty for number, integer and text)."""
        if self.kind in ("single", "multiple"):
            return self.options
        if self.kind == "likert":
            return tuple(str(point) for point in range(1, self.points + 1))
        if self.kind == "tlx":
            return tuple(str(value) for value in TLX_VALUES)
        return ()


DIFFICULTY = Question(
    "difficulty", "puzzle", "likert", "How difficult was this puzzle?", ("Very easy", "Very hard"), points=7
)
TLX_ENDS = ("Very low", "Very high")
EFFORT = (
    Question("tlx_mental", "puzzle", "tlx", "Mental demand: how mentally demanding was this puzzle?", TLX_ENDS),
    Question("tlx_effort", "puzzle", "tlx", "Effort: how hard did you have to work to solve it?", TLX_ENDS),
    Question(
        "tlx_frustration",
        "puzzle",
        "tlx",
        "Frustration: how insecure, discouraged, irritated, stressed or annoyed were you?",
        TLX_ENDS,
    ),
)
BUILT_IN = {"difficulty": (DIFFICULTY,), "effort": EFFORT}
RESERVED = {q.key for items in BUILT_IN.values() for q in items}


# The researcher's text ------------------------------------------------------------------------------------------


def parse(text: str, built_in: Sequence[str] = ()) -> dict[str, Any] | None:
    """The questionnaire stored for a study: its questions from ``text`` and the built-in items named (``difficulty``,
    ``effort``); None when it asks nothing. StudyError names every line that cannot be used."""
    questions, problems, block = [], [], None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            block = HEADINGS.get(line.strip("[] ").lower())
            if block is None:
                problems.append(
                    f"Line {number}: {line!r} is not a block: use [before], [after each puzzle] or [after]."
                )
            continue
        try:
            questions.append(question_of_line(line, block))
        except StudyError as error:
            problems.append(f"Line {number}: {error}")
    problems += _repeated(questions)
    if len(questions) > MAX_QUESTIONS:
        problems.append(f"A questionnaire has at most {MAX_QUESTIONS} questions; {len(questions)} given.")
    if problems:
        raise StudyError("\n".join(problems))
    items = [name for name in BUILT_IN if name in built_in]
    if not questions and not items:
        return None
    return {"source": text, "questions": [q.as_json() for q in questions], "per_puzzle": items}


def _repeated(questions: Sequence[Question]) -> list[str]:
    """A message for each key used twice."""
    seen: set[str] = set()
    problems = []
    for question in questions:
        if question.key in seen:
            problems.append(f"The key {question.key!r} is used twice: each question needs its own.")
        seen.add(question.key)
    return problems


def question_of_line(line: str, block: str | None) -> Question:
    """One question line; StudyError says what is wrong with it."""
    if block is None:
        raise StudyError("put a block heading first: [before], [after each puzzle] or [after].")
    fields = [part.strip() for part in line.split("|")]
    if len(fields) < 3:
        raise StudyError("write key | kind | question text (flags such as optional between kind and text).")
    key, kind, flags, text = fields[0], fields[1], fields[2:-1], fields[-1]
    if not KEY.match(key) or key in RESERVED:
        raise StudyError(
            f"the key {key!r} must be lower-case letters, digits and _, starting with a letter, at most 40 "
            f"characters, and not one of the built-in items ({', '.join(sorted(RESERVED))})."
        )
    if not text or len(text) > MAX_TEXT:
        raise StudyError(f"the question text must have 1 to {MAX_TEXT} characters.")
    question = Question(key=key, block=block, text=text, **kind_of(kind))
    return with_flags(question, flags)


def kind_of(spec: str) -> dict[str, Any]:
    """The kind and its details from ``single: A; B``, ``likert5: L / R``, ``number: 1 to 9``, ``text: 200``..."""
    name, _colon, rest = spec.partition(":")
    name, rest = name.strip().lower(), rest.strip()
    if name in ("single", "multiple"):
        return {"kind": name, "options": _options(rest)}
    if name in ("likert5", "likert7"):
        ends = tuple(part.strip() for part in rest.split("/"))
        if len(ends) != 2 or not all(0 < len(end) <= MAX_OPTION for end in ends):
            raise StudyError(f"a {name} scale needs its two end labels: {name}: Strongly disagree / Strongly agree.")
        return {"kind": "likert", "options": ends, "points": int(name[-1])}
    if name in ("number", "integer"):
        return {"kind": name, **_bounds(name, rest)}
    if name == "text":
        try:
            return {"kind": "text", "max_length": bounded_int(rest, 1, MAX_ANSWER)}
        except ValueError:
            raise StudyError(
                f"a text question needs its longest answer, 1 to {MAX_ANSWER} characters: text: 200."
            ) from None
    raise StudyError(f"{spec!r} is not a kind: use single, multiple, likert5, likert7, number, integer or text.")


def _options(text: str) -> tuple[str, ...]:
    """The options of a choice, separated by semicolons: 2 to MAX_OPTIONS, distinct, none empty."""
    options = tuple(part.strip() for part in text.split(";"))
    if not 2 <= len(options) <= MAX_OPTIONS or not all(0 < len(o) <= MAX_OPTION for o in options):
        raise StudyError(f"a choice needs 2 to {MAX_OPTIONS} options separated by ';', none empty: single: Yes; No.")
    if len(set(options)) != len(options):
        raise StudyError("a choice lists an option twice.")
    return options


def _bounds(name: str, text: str) -> dict[str, float]:
    """The bounds of ``LOW to HIGH``, whole numbers for an integer question."""
    parts = text.split(" to ")
    try:
        low, high = (float(part) for part in parts) if len(parts) == 2 else (math.nan, math.nan)
    except ValueError:
        low = high = math.nan
    whole = name != "integer" or (low.is_integer() and high.is_integer())
    if not (math.isfinite(low) and math.isfinite(high) and low < high and whole):
        raise StudyError(f"give the question's bounds, the lower first ({name}: 0 to 120).")
    return {"low": low, "high": high}


def with_flags(question: Question, flags: Sequence[str]) -> Question:
    """The question with its flags: ``optional``, ``check: EXPECTED``."""
    for flag in flags:
        name, _colon, value = flag.partition(":")
        if flag.lower() == "optional":
            question = Question(**{**asdict(question), "required": False})
        elif name.strip().lower() == "check":
            question = Question(**{**asdict(question), "expect": expected(question, value.strip())})
        else:
            raise StudyError(f"{flag!r} is not a flag: use optional, or check: EXPECTED for an attention check.")
    return question


def expected(question: Question, value: str) -> str:
    """An attention check's expected answer as it will be stored: an option, a scale point (or an end label)."""
    if question.kind == "likert" and value in question.options:
        return "1" if value == question.options[0] else str(question.points)
    if question.kind in ("single", "likert") and value in question.values:
        return value
    if question.kind in ("number", "integer"):
        stored = _number(question, value)
        if stored is not None:
            return stored
    raise StudyError(
        f"check: {value!r} is not an answer this question allows (an attention check is a single choice, a "
        "likert point or end label, or a number within the bounds)."
    )


# The study's questions ------------------------------------------------------------------------------------------


def questions_of(study: Study, block: str | None = None) -> list[Question]:
    """The study's questions in the order asked (the built-in items first after a puzzle), of one block or all."""
    data = study.questionnaire or {}
    built = [q for name in data.get("per_puzzle") or () for q in BUILT_IN.get(name, ())]
    own = [Question.from_json(item) for item in data.get("questions") or ()]
    ordered = [q for name in BLOCKS for q in (built if name == "puzzle" else []) + own if q.block == name]
    return [q for q in ordered if block is None or q.block == block]


@dataclass(frozen=True)
class Page:
    """A page of questions a participant is due: its block, the order index of the puzzle just played, the questions."""

    block: str
    order_index: int
    questions: list[Question] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The page's name in its form (``before``, ``puzzle-2``, ``after``): a form from another page is refused."""
        return f"puzzle-{self.order_index}" if self.block == "puzzle" else self.block


def due(session: Session, study: Study, participant: Participant) -> Page | None:
    """The page of questions the participant must answer before going on, if any."""
    if not study.questionnaire:
        return None
    places = []
    if participant.state == "instructions":
        places.append(("before", 0))
    if participant.state in ("playing", "done") and participant.current >= 1:
        places.append(("puzzle", participant.current - 1))
    if participant.state == "done":
        places.append(("after", 0))
    for block, order_index in places:
        asked = questions_of(study, block)
        if asked and not answered(session, participant, block, order_index):
            return Page(block, order_index, asked)
    return None


def answered(session: Session, participant: Participant, block: str, order_index: int) -> bool:
    """Whether the participant answered that page."""
    found = select(Answer.id).where(
        Answer.participant_id == participant.id, Answer.block == block, Answer.order_index == order_index
    )
    return session.scalar(found.limit(1)) is not None


# Answers ----------------------------------------------------------------------------------------------------------


def checked(question: Question, sent: Sequence[str]) -> str | None:
    """The value stored for what the form sent for a question (None: left blank); ValueError says why it is
    refused."""
    given = [value.strip() for value in sent if value.strip()]
    if not given:
        if question.required:
            raise ValueError("Please answer this question.")
        return None
    if question.kind == "multiple":
        return _chosen(question, given)
    if len(given) > 1:
        raise ValueError("Give one answer.")
    value = given[0]
    if question.kind == "single":
        return _chosen(question, given)
    if question.kind in ("number", "integer"):
        stored = _number(question, value)
        if stored is None:
            whole = "a whole number" if question.kind == "integer" else "a number"
            raise ValueError(f"Give {whole} from {question.low:g} to {question.high:g}.")
        return stored
    if question.kind == "text":
        if len(value) > question.max_length:
            raise ValueError(f"At most {question.max_length} characters, please.")
        return value
    if value not in question.values:
        raise ValueError("Choose one of the points of the scale.")
    return value


def _chosen(question: Question, given: Sequence[str]) -> str:
    """The options chosen (sent as their numbers 1..n), in the order listed, joined by ';'."""
    numbers = {int(value) for value in given if value.isdigit() and 1 <= int(value) <= len(question.options)}
    if len(numbers) != len(given):
        raise ValueError("Choose among the options shown.")
    return ";".join(question.options[n - 1] for n in sorted(numbers))


def _number(question: Question, value: str) -> str | None:
    """A number within the question's bounds as stored (whole numbers without a decimal point), else None."""
    try:
        number = float(value) if len(value) <= 40 else math.nan
    except ValueError:
        return None
    if not math.isfinite(number) or not question.low <= number <= question.high:
        return None
    if number.is_integer():
        return str(int(number))
    return None if question.kind == "integer" else repr(number)


def answer(session: Session, participant: Participant, page: Page, form: Mapping[str, Sequence[str]]) -> None:
    """Check and store the answers to a page (``form`` maps ``q_<key>`` to what was sent); AnswerErrors names each
    question refused, and nothing is stored then. A page answered twice at once is stored once."""
    values, errors = {}, {}
    for question in page.questions:
        try:
            values[question.key] = checked(question, form.get(f"q_{question.key}", ()))
        except ValueError as error:
            errors[question.key] = str(error)
    if errors:
        raise AnswerErrors(errors)
    now = utcnow()
    for question in page.questions:
        value = values[question.key]
        passed = None if question.expect is None else value == question.expect
        session.add(
            Answer(
                participant_id=participant.id,
                block=page.block,
                order_index=page.order_index,
                question=question.key,
                value=value,
                passed=passed,
                answered_at=now,
            )
        )
    participant.last_seen_at = now
    try:
        session.commit()
    except IntegrityError:
        session.rollback()  # the same page answered from another tab first: its answers stand


def answers_of(session: Session, participant_ids: Sequence[int]) -> list[Answer]:
    """The answers of these participants, in the order stored."""
    if not participant_ids:
        return []
    return list(session.scalars(select(Answer).where(Answer.participant_id.in_(participant_ids)).order_by(Answer.id)))
