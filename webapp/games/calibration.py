"""The time model in force, and what every page says about time.

The prior is the engine's (``sudoku_engine.time_model``: an app's players' minutes, in every rating record and in
``games.prior_minutes``). The version in force (``models.Calibration``, ``active``) adjusts it: a study's refit,
ln(minutes) = intercept + slope ln(prior), or a fit over every game (``webapp.games.learning``): a scale per zone and
each played puzzle's own time. ``TimeModel`` is that version, read once per request; ``expected`` turns a puzzle's
prior and D into what the slider, the game page, the history and the "next minutes" offer show: one function, so
they agree.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from sudoku_engine import difficulty, time_model
from sudoku_engine.slider import SliderInfo, describe, slider_for_d, typical_minutes
from sudoku_engine.time_model import TimeEstimate

from ..models import Calibration, PuzzleTime, utcnow

STUDY_MODEL = "prior"  # a study's refit: ln(minutes) = intercept + slope ln(prior minutes)
PLAYERS_MODEL = "players"  # the fit over every game: zone scales and puzzles' own times
IN_FORCE_MODELS = (STUDY_MODEL, PLAYERS_MODEL)
PEOPLE_MIN = 5  # finishers before a page says how long people took


@dataclass(frozen=True)
class PeopleTimes:
    """How long the people who finished a puzzle took: how many, and their median minutes."""

    finishers: int
    median_minutes: float


@dataclass(frozen=True)
class Expected:
    """A puzzle's time as the pages show it: the estimate (minutes, interval, words) and, when enough people
    finished it, their median."""

    time: TimeEstimate
    people: PeopleTimes | None = None


@dataclass(frozen=True)
class TimeModel:
    """The version in force (None: the engine's prior alone) and what it adjusts."""

    version: Calibration | None = None
    intercept: float = 0.0
    slope: float = 1.0
    zones: dict[str, float] = field(default_factory=dict)

    def minutes(self, prior: float, d: float) -> float:
        """A puzzle's minutes by this version, from its prior and D (its zone's scale, or the study's refit)."""
        if self.version is not None and self.version.model == STUDY_MODEL:
            return math.exp(self.intercept + self.slope * math.log(max(prior, 1e-6)))
        return prior * math.exp(self.zones.get(difficulty.zone(d), 0.0))

    @property
    def learned(self) -> bool:
        """True when this version is a fit over every game (it has puzzles' own times)."""
        return self.version is not None and self.version.model == PLAYERS_MODEL

    @property
    def description(self) -> str:
        """What is in force, in a sentence."""
        version = self.version
        if version is None:
            return "the engine's prior, fitted to an app's players (the Cloud Sudoku dataset)"
        if version.model == STUDY_MODEL:
            return f"a refit from study {version.study_id} ({version.puzzles} puzzles), version {version.id}"
        return f"the fit over {version.games} games of {version.players} players, version {version.id}"


def in_force(session: Session) -> TimeModel:
    """The time model in force: the latest active version of a model the app computes, else the prior."""
    row = session.scalar(
        select(Calibration)
        .where(Calibration.active.is_(True), Calibration.model.in_(IN_FORCE_MODELS))
        .order_by(Calibration.id.desc())
    )
    if row is None:
        return TimeModel()
    return TimeModel(version=row, intercept=row.intercept, slope=row.slope, zones=dict(row.zones or {}))


def prior_for(prior_minutes: float | None, d: float) -> float:
    """A puzzle's prior minutes: its own, else (a game or record from before the time model) the typical one at
    its D on the slider."""
    return prior_minutes if prior_minutes is not None else typical_minutes(slider_for_d(d))


def expected(model: TimeModel, prior_minutes: float | None, d: float, people: PuzzleTime | None = None) -> Expected:
    """What the pages show of a puzzle's time: the version in force applied to its prior (or the puzzle's own time
    when the fit over every game has one), and the people's median once PEOPLE_MIN finished it."""
    prior = prior_for(prior_minutes, d)
    minutes = people.minutes if people is not None else model.minutes(prior, d)
    estimate = time_model.estimate(prior, d, minutes / prior if prior > 0 else 1.0)
    seen = None
    if people is not None and people.finishers >= PEOPLE_MIN and people.median_seconds is not None:
        seen = PeopleTimes(people.finishers, people.median_seconds / 60)
    return Expected(time=estimate, people=seen)


def puzzle_times(session: Session, model: TimeModel, puzzles: Collection[str]) -> dict[str, PuzzleTime]:
    """What the fit in force found for these puzzles (canonical forms), by puzzle; empty for other versions."""
    if model.version is None or not model.learned or not puzzles:
        return {}
    rows = session.scalars(
        select(PuzzleTime).where(PuzzleTime.calibration_id == model.version.id, PuzzleTime.puzzle.in_(list(puzzles)))
    )
    return {row.puzzle: row for row in rows}


def slider_description(session: Session, slider: float, model: TimeModel | None = None) -> SliderInfo:
    """What the start page shows for a slider value (``sudoku_engine.slider.describe``) under the model in force."""
    base = describe(slider)
    model = model or in_force(session)
    if model.version is None:
        return base
    return describe(slider, model.minutes(base.predicted_minutes, base.D) / base.predicted_minutes)


def put_in_force(session: Session, study_id: int, intercept: float, slope: float, puzzles: int) -> Calibration:
    """Store a study's refit, ln(minutes) = intercept + slope ln(prior minutes), from ``puzzles`` puzzles, as the
    version in force (committed)."""
    return activate(
        session,
        Calibration(
            study_id=study_id,
            model=STUDY_MODEL,
            intercept=intercept,
            slope=slope,
            puzzles=puzzles,
            created_at=utcnow(),
            finished_at=utcnow(),
        ),
    )


def activate(session: Session, version: Calibration) -> Calibration:
    """Make a version the one in force (added if new; committed)."""
    for old in session.scalars(select(Calibration).where(Calibration.active.is_(True))):
        old.active = False
    version.active = True
    session.add(version)
    session.commit()
    return version
