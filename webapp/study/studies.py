"""Solve-time studies: create one, let participants in, assign puzzle orders, walk them through.

A study made from the researcher's form is stored "preparing" with its checked puzzles or its targets; a background
job (``preparing``) rates the puzzles and claims their bank rows, then makes it "ready" (or "failed", saying
why). Puzzles that cannot be played (malformed, already solved, no solution or several) are refused before that,
each named by its line.

A participant arrives through the study's entry link, optionally with labels from a recruitment platform
(``participant_label``, ``PROLIFIC_PID``, ``STUDY_ID``, ``SESSION_ID``), which are stored only as keyed hashes
(HMAC-SHA256 with the app's secret key), so the same person can be recognised and resumed without keeping who
they are. Orders: fixed (the list as entered), random per participant, or a balanced Latin square (Williams
design: every puzzle in every place and after every other puzzle equally often); square rows go in order of
arrival to the row with the fewest participants who are not abandoned (no activity for ``abandon_minutes``),
and arrivals are numbered under a unique index, so two people arriving at once never read the same counts;
a participant who declines or withdraws gives the row back. Caps on the participants who count (in total, per
square row) refuse arrivals once reached; the row chosen is still the one with the fewest, so the rows stay balanced.
A participant walks consent -> instructions -> puzzles (one game each, the study's board settings) -> done, and may
give up on a puzzle or withdraw (``rights``); who may enter depends on the study's phase (``lifecycle``).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from sudoku_engine import difficulty
from sudoku_engine.grid import Grid, InvalidPuzzle
from sudoku_engine.rating import rate
from sudoku_engine.slider import target_for_slider
from sudoku_engine.solver import solve_count
from sudoku_engine.time_model import TimeEstimate

from ..bank import pool
from ..games import calibration
from ..games.store import PLAY_DEFAULTS, time_is_up
from ..models import Game, Participant, Study, StudyPuzzle, User, utcnow

ORDER_SCHEMES = ("fixed", "random", "latin")
LABEL_KEYS = ("participant_label", "PROLIFIC_PID", "STUDY_ID", "SESSION_ID")
IDENTITY_KEYS = ("participant_label", "PROLIFIC_PID")  # either one recognises a returning participant
DEFAULT_SETTINGS: dict[str, Any] = {
    **PLAY_DEFAULTS,  # hint_rungs (hints allowed up to this rung, 0: none), autofill, checking, time_limit_s
    "redirect_url": None,
    "breaks": True,
    "abandon_minutes": 60,
    "show_rating": False,  # participants see a solved puzzle's rating (never before the perceived-difficulty question)
    "calibrate": False,  # the participants' games teach the app's time model (the consent must say so)
}
MAX_PUZZLES = 40
RATING_TIMEOUT_S = 10.0
ARRIVAL_RETRIES = 10
MAX_REDIRECT_LENGTH = 2000  # characters of a completion redirect address
PREPARING, READY, FAILED = "preparing", "ready", "failed"  # a study's states (``Study.state``)
DRAFT, OPEN, PAUSED, CLOSED, ARCHIVED, PREVIEW = "draft", "open", "paused", "closed", "archived", "preview"
LEFT = ("declined", "withdrawn")  # participant states that give their square row back


class StudyError(ValueError):
    """Study input that cannot be used; the message says why."""


class StudyFull(StudyError):
    """An arrival refused because the study's cap on participants is reached."""


def label_hash(secret: str, value: str) -> str:
    """The keyed hash a label is stored as."""
    return hmac.new(secret.encode(), value.encode(), hashlib.sha256).hexdigest()


def williams_rows(n: int) -> list[list[int]]:
    """A balanced Latin square of n treatments: n rows for even n, 2n (the square and its mirror) for odd n."""
    if n < 1:
        return []
    first = [0]
    low, high = 1, n - 1
    for index in range(1, n):
        if index % 2:
            first.append(low)
            low += 1
        else:
            first.append(high)
            high -= 1
    rows = [[(value + shift) % n for value in first] for shift in range(n)]
    if n % 2:
        rows += [list(reversed(row)) for row in rows]
    return rows


@dataclass(frozen=True)
class Target:
    """A target D of a study puzzle and what the researcher gave for it (for messages)."""

    d: float
    asked: str


@dataclass(frozen=True)
class Pending:
    """What a study's preparation job works from: checked puzzles with their solutions, or targets."""

    puzzles: tuple[tuple[str, str], ...] = ()
    targets: tuple[Target, ...] = ()

    @property
    def count(self) -> int:
        """How many puzzles the study will have."""
        return len(self.puzzles) or len(self.targets)

    def as_json(self) -> dict[str, Any]:
        """The form stored in ``Study.pending``."""
        return {"puzzles": [list(pair) for pair in self.puzzles], "targets": [[t.d, t.asked] for t in self.targets]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pending:
        """Read back what ``as_json`` stored."""
        return cls(
            puzzles=tuple((str(p), str(s)) for p, s in data.get("puzzles") or ()),
            targets=tuple(Target(float(d), str(asked)) for d, asked in data.get("targets") or ()),
        )


@dataclass(frozen=True)
class PuzzleEntry:
    """A puzzle ready to join a study: givens, solution, D and the full rating record."""

    puzzle: str
    solution: str
    d: float | None
    rating: dict[str, Any] | None


def checked_puzzle(text: str, line: int) -> tuple[str, str]:
    """Givens and solution of a pasted line; StudyError names the line and why it cannot be played."""
    try:
        grid = Grid.parse(text)
    except InvalidPuzzle as error:
        raise StudyError(f"Line {line}: this is not a valid puzzle: {error}.") from None
    if all(grid.values):
        raise StudyError(f"Line {line}: the puzzle is already solved (it has no empty cell).")
    count, solution = solve_count(grid, limit=2)
    if count != 1 or solution is None:
        problem = "has no solution" if count == 0 else "has more than one solution"
        raise StudyError(f"Line {line}: the puzzle {problem}.")
    return str(grid), str(solution)


def checked_puzzles(text: str) -> list[tuple[str, str]]:
    """Givens and solutions of puzzles pasted or uploaded one per line (blank lines and # comments skipped).

    Every puzzle that cannot be played (malformed, already solved, no solution or several) is named on a line of
    its own in one StudyError, so that all of them can be fixed at once.
    """
    lines = [
        (number, line.split()[0])
        for number, raw in enumerate(text.splitlines(), 1)
        if (line := raw.split("#", 1)[0].strip())
    ]
    check_count(len(lines))  # before any solving: a long file is refused at once
    found, problems = [], []
    for number, line in lines:
        try:
            found.append(checked_puzzle(line, number))
        except StudyError as error:
            problems.append(str(error))
    if problems:
        raise StudyError("\n".join(problems))
    return found


def rated(puzzle: str, solution: str) -> PuzzleEntry:
    """A puzzle with its full rating record (every measure, bounded in time)."""
    rating = rate(puzzle, timeout=RATING_TIMEOUT_S)
    return PuzzleEntry(puzzle, solution, None if rating.timeout else rating.d, rating.as_dict())


def targets_of_sliders(values: Sequence[float]) -> list[Target]:
    """The target D of each slider value, named for messages."""
    return [Target(target_for_slider(value), f"slider value {value:g}") for value in values]


def targets_of_d(values: Sequence[float]) -> list[Target]:
    """Target D values given as they are, named for messages."""
    return [Target(value, f"target D {value:g}") for value in values]


def check_count(count: int) -> None:
    """A study needs 1 to MAX_PUZZLES puzzles."""
    if not 1 <= count <= MAX_PUZZLES:
        raise StudyError(f"A study needs 1 to {MAX_PUZZLES} puzzles; {count} given.")


def settings_of(values: Mapping[str, Any]) -> dict[str, Any]:
    """The study's board settings: the defaults overlaid with what is given."""
    settings = dict(DEFAULT_SETTINGS)
    settings.update({k: v for k, v in values.items() if k in DEFAULT_SETTINGS})
    return settings


def create_study(
    session: Session,
    owner: User,
    *,
    name: str,
    puzzles: Iterable[PuzzleEntry] = (),
    work: Pending | None = None,
    order_scheme: str = "fixed",
    description: str = "",
    consent_text: str = "",
    instructions: str = "",
    settings: Mapping[str, Any] | None = None,
    questionnaire: dict[str, Any] | None = None,
    phase: str = OPEN,
    caps: tuple[int | None, int | None] = (None, None),
) -> Study:
    """Store a new study: ready at once with its rated ``puzzles`` in the order given, or, given ``work`` (checked
    puzzles to rate, or targets to draw bank puzzles for), preparing until a job (``preparing``) makes it
    ready. Participants cannot enter a study before it is ready, nor while it is in another phase than open
    (``phase``; the researcher's form makes drafts). ``questionnaire`` is what ``questions.parse`` made of the
    form's questions; ``caps``: most participants in total and per square row."""
    if order_scheme not in ORDER_SCHEMES:
        raise StudyError(f"{order_scheme!r} is not an order scheme: use fixed, random or latin.")
    if not name.strip():
        raise StudyError("A study needs a name.")
    study = Study(
        owner_id=owner.id,
        name=name.strip(),
        description=description,
        consent_text=consent_text,
        instructions=instructions,
        order_scheme=order_scheme,
        settings=settings_of(settings or {}),
        questionnaire=questionnaire,
        phase=phase,
        max_participants=caps[0],
        max_per_row=caps[1],
    )
    if work is None:
        study.puzzles = [
            StudyPuzzle(position=i, puzzle=p.puzzle, solution=p.solution, d=p.d, rating=p.rating)
            for i, p in enumerate(puzzles)
        ]
        check_count(len(study.puzzles))
    else:
        check_count(work.count)
        study.state, study.pending, study.prepared, study.heartbeat_at = PREPARING, work.as_json(), 0, utcnow()
    session.add(study)
    session.commit()
    return study


def hashed_labels(secret: str, labels: Mapping[str, str]) -> dict[str, str]:
    """The recruitment labels present, each as its keyed hash."""
    return {key: label_hash(secret, labels[key]) for key in LABEL_KEYS if labels.get(key)}


def identity(hashed: Mapping[str, str]) -> str | None:
    """The hash that recognises a returning participant: their label, else their Prolific id."""
    return next((hashed[key] for key in IDENTITY_KEYS if key in hashed), None)


def returning(session: Session, study: Study, public_id: str | None, who: str | None) -> Participant | None:
    """The participant a cookie (public id) or a label hash recognises, if any."""
    in_study = select(Participant).where(Participant.study_id == study.id)
    if who is not None:
        found = session.scalar(in_study.where(Participant.label_hash == who))
        if found is not None:
            return found
    if public_id:
        return session.scalar(in_study.where(Participant.public_id == public_id))
    return None


def is_abandoned(participant: Participant, study: Study, now: datetime) -> bool:
    """True when a participant left the study unfinished and has been away longer than the study allows."""
    away = timedelta(minutes=float(study.settings.get("abandon_minutes") or 60))
    return participant.state not in ("done", *LEFT) and now - participant.last_seen_at > away


def counts(participant: Participant, study: Study, now: datetime) -> bool:
    """Whether a participant counts for the caps and the square rows: neither left nor abandoned."""
    return participant.state not in LEFT and not is_abandoned(participant, study, now)


def counted(session: Session, study: Study, now: datetime, upto: int) -> list[Participant]:
    """The participants who count (``counts``) among arrivals 1 to ``upto``.

    Counting only those arrivals makes what is computed from them a function of what the arrival number
    ``upto + 1`` was computed from: an arrival committed in between takes that number first and makes this one
    count again.
    """
    taken = session.scalars(select(Participant).where(Participant.study_id == study.id, Participant.arrival <= upto))
    return [other for other in taken if counts(other, study, now)]


def latin_row(study: Study, people: Sequence[Participant]) -> int:
    """The square row with the fewest of ``people`` (those who count); the lowest such row on a tie."""
    rows = len(williams_rows(len(study.puzzles)))
    per_row = [0] * rows
    for other in people:
        if other.latin_row is not None:
            per_row[other.latin_row % rows] += 1
    row = per_row.index(min(per_row))
    if study.max_per_row is not None and per_row[row] >= study.max_per_row:
        raise StudyFull(f"Every order of this study has its {study.max_per_row} participants.")
    return row


def order_for(session: Session, study: Study, now: datetime, upto: int) -> tuple[list[int], int | None]:
    """The puzzle positions in the order arrival ``upto + 1`` plays them, and the square row if any; StudyFull
    when a cap is reached."""
    people = counted(session, study, now, upto)
    if study.max_participants is not None and len(people) >= study.max_participants:
        raise StudyFull(f"This study has all its {study.max_participants} participants.")
    positions = list(range(len(study.puzzles)))
    if study.order_scheme == "random":
        random.SystemRandom().shuffle(positions)
        return positions, None
    if study.order_scheme == "latin":
        row = latin_row(study, people)
        return williams_rows(len(positions))[row], row
    return positions, None


def enter(
    session: Session, study: Study, secret: str, labels: Mapping[str, str], public_id: str | None, new: bool = True
) -> Participant | None:
    """The participant arriving through the entry link: recognised and resumed, or newly assigned an order (None
    when ``new`` is False: the study takes no one new; StudyFull when a cap is reached)."""
    hashed = hashed_labels(secret, labels)
    who = identity(hashed)
    for _attempt in range(ARRIVAL_RETRIES):
        found = returning(session, study, public_id, who)
        now = utcnow()
        if found is not None:
            found.last_seen_at = now
            session.commit()
            return found
        if not new:
            return None
        last = session.scalar(select(func.max(Participant.arrival)).where(Participant.study_id == study.id)) or 0
        order, row = order_for(session, study, now, last)
        arrival = last + 1
        participant = Participant(
            study_id=study.id,
            arrival=arrival,
            label_hash=who,
            labels=hashed,
            order=order,
            latin_row=row,
            last_seen_at=now,
        )
        session.add(participant)
        try:
            session.commit()
            return participant
        except IntegrityError:
            session.rollback()  # another arrival took this number first: count again
    raise StudyError("Too many people are arriving at once; please reload the page.")


def study_puzzle(study: Study, participant: Participant) -> StudyPuzzle | None:
    """The puzzle the participant is on, or None when they are past the last."""
    if participant.current >= len(participant.order):
        return None
    position = participant.order[participant.current]
    return next(p for p in study.puzzles if p.position == position)


def existing_game(session: Session, participant: Participant, puzzle: StudyPuzzle) -> Game | None:
    """The participant's game on a study puzzle, if they have opened it."""
    return session.scalar(select(Game).where(Game.participant_id == participant.id, Game.study_puzzle_id == puzzle.id))


def current_game(session: Session, study: Study, participant: Participant) -> Game | None:
    """The participant's game on their current puzzle, created on first use (None when all are done)."""
    puzzle = study_puzzle(study, participant)
    if puzzle is None:
        return None
    found = existing_game(session, participant, puzzle)
    if found is not None:
        return found
    game = Game(
        puzzle=puzzle.puzzle,
        solution=puzzle.solution,
        d=puzzle.d,
        prior_minutes=pool.prior_of(puzzle.rating),
        source="study",
        participant_id=participant.id,
        study_puzzle_id=puzzle.id,
        settings=dict(study.settings),
    )
    game.entries = "." * 81
    session.add(game)
    session.commit()
    return game


def consent(session: Session, participant: Participant, agree: bool) -> None:
    """Record the participant's answer to the consent text."""
    if participant.state != "consent":
        return
    now = utcnow()
    participant.last_seen_at = now
    if agree:
        participant.consented_at = now
        participant.state = "instructions"
    else:
        participant.state = "declined"
        participant.finished_at = now
    session.commit()


def start(session: Session, participant: Participant) -> None:
    """Leave the instructions for the first puzzle."""
    if participant.state == "instructions":
        participant.state = "playing"
        participant.last_seen_at = utcnow()
        session.commit()


def advance(session: Session, study: Study, participant: Participant) -> None:
    """Move on after the current puzzle is solved (or its time limit ran out, or it was given up): the next
    puzzle, or done."""
    if participant.state != "playing":
        return
    puzzle = study_puzzle(study, participant)
    game = existing_game(session, participant, puzzle) if puzzle is not None else None
    finished = game is not None and (game.completed_at is not None or game.gave_up_at is not None or time_is_up(game))
    if puzzle is not None and not finished:
        raise StudyError("This puzzle is not solved yet.")
    participant.current += 1
    participant.last_seen_at = utcnow()
    if participant.current >= len(participant.order):
        participant.state = "done"
        participant.finished_at = participant.last_seen_at
    session.commit()


@dataclass(frozen=True)
class SolvedRating:
    """A puzzle of a participant's order as the end of a study shows it when the study shows ratings."""

    number: int
    d: float
    label: str
    time: TimeEstimate
    solve_seconds: float | None


def solved_ratings(session: Session, study: Study, participant: Participant) -> list[SolvedRating]:
    """The ratings of the participant's puzzles, in their order, for the end page (none unless the study shows
    them: ``show_rating``)."""
    if not study.settings.get("show_rating"):
        return []
    model = calibration.in_force(session)
    by_position = {puzzle.position: puzzle for puzzle in study.puzzles}
    games = {g.study_puzzle_id: g for g in session.scalars(select(Game).where(Game.participant_id == participant.id))}
    rows = []
    for number, position in enumerate(participant.order, start=1):
        puzzle = by_position.get(position)
        if puzzle is None or puzzle.d is None:
            continue
        game = games.get(puzzle.id)
        shown = calibration.expected(model, pool.prior_of(puzzle.rating), puzzle.d)
        solved = game.solve_seconds if game is not None and game.completed_at is not None else None
        rows.append(SolvedRating(number, puzzle.d, difficulty.zone(puzzle.d), shown.time, solved))
    return rows


def is_web_address(url: str) -> bool:
    """Whether a completion redirect can go into a Location header as it is: http(s), a host, no whitespace or
    control characters (a CR/LF would break the header), not too long."""
    if len(url) > MAX_REDIRECT_LENGTH or any(ord(ch) <= 32 or ord(ch) == 127 for ch in url):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)
