"""The time model in force: the population prior of ``sudoku_engine.difficulty``, or the latest refit from a study
(``webapp.research.report.refit_calibration`` fits it; this module stores and reads it for the play pages, which
show a game's and the slider's predicted minutes, and for the report)."""

from __future__ import annotations

import math
from dataclasses import replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from sudoku_engine import difficulty
from sudoku_engine.slider import SliderInfo, describe

from ..models import Calibration, utcnow


def put_in_force(session: Session, study_id: int, intercept: float, slope: float, puzzles: int) -> Calibration:
    """Store a refit, ln(minutes) = intercept + slope ln(effort), from ``puzzles`` puzzles of a study, as the one
    in force (committed)."""
    for old in session.scalars(select(Calibration).where(Calibration.active.is_(True))):
        old.active = False
    calibration = Calibration(
        study_id=study_id,
        model="effort",
        intercept=intercept,
        slope=slope,
        puzzles=puzzles,
        active=True,
        created_at=utcnow(),
    )
    session.add(calibration)
    session.commit()
    return calibration


def calibration_in_force(session: Session) -> tuple[float, float, Calibration | None]:
    """(scale, exponent) of the time model in force, and its refit's row (None: the population prior,
    ``difficulty.MINUTES_SCALE`` and ``MINUTES_EXPONENT``)."""
    row = session.scalar(
        select(Calibration)
        .where(Calibration.active.is_(True), Calibration.model == "effort")
        .order_by(Calibration.id.desc())
    )
    if row is None:
        return difficulty.MINUTES_SCALE, difficulty.MINUTES_EXPONENT, None
    return math.exp(row.intercept), row.slope, row


def slider_description(session: Session, slider: float) -> SliderInfo:
    """What the start page shows for a slider value (``sudoku_engine.slider.describe``), with the minutes the time
    model in force predicts for its typical effort."""
    info = describe(slider)
    scale, exponent, row = calibration_in_force(session)
    if row is None:
        return info
    return replace(info, predicted_minutes=round(difficulty.predicted_minutes(info.effort, scale, exponent), 1))
