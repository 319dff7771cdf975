"""Rating a puzzle from its logic trace: the two familiar scales (docs/difficulty.md).

- ``se_like``: the hardest step on the Sudoku Explainer scale (1.0-11.x), each step rated by
  ``techniques.step_se`` (a chain or loop higher the longer it is).
- ``hodoku_like``: the sum of the HoDoKu-style base scores of all steps, and its level. As in HoDoKu, the
  level is that of the hardest step, raised to the level whose score limit the sum fits under when the
  sum exceeds the hardest step's limit (limits 800 / 1000 / 1600 / 1800 for Easy / Medium / Hard / Unfair).

The record also holds the seed papers' measures (``sudoku_engine.metrics``), the difficulty score D and its zone
label (``sudoku_engine.difficulty``), and the predicted minutes with their interval (``sudoku_engine.time_model``).
Everything is measured on the puzzle's canonical isomorph (``sudoku_engine.isomorph``), so every isomorph of a
puzzle gets the same record apart from ``puzzle``.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from . import difficulty, time_model
from .board import Step
from .grid import Grid
from .isomorph import canonical
from .logic import Trace, counts, technique_trace
from .metrics import Metrics, measure
from .solver import PuzzleLike, as_values, count_solutions
from .techniques import BY_ID, HODOKU_LEVELS, Technique, fine_rating, step_se

HODOKU_LEVEL_LIMITS: dict[str, float] = {
    "Easy": 800,
    "Medium": 1000,
    "Hard": 1600,
    "Unfair": 1800,
    "Extreme": float("inf"),
}


class NotUnique(ValueError):
    """A puzzle without exactly one solution cannot be rated."""


def hodoku_level(score: int, hardest_level: str) -> str:
    """HoDoKu's level of a puzzle from its score and the level of its hardest step."""
    level_index = HODOKU_LEVELS.index(hardest_level)
    if score <= HODOKU_LEVEL_LIMITS[hardest_level]:
        return hardest_level
    for index, name in enumerate(HODOKU_LEVELS):
        if index > level_index and score <= HODOKU_LEVEL_LIMITS[name]:
            return name
    return "Extreme"


@dataclass(frozen=True)
class Rating:
    """What the rating knows about a puzzle (the ``rate`` record: ARCHITECTURE.md, Contracts)."""

    puzzle: Grid
    se_like: float
    hodoku_like: int
    hodoku_level: str
    hardest_technique: str
    techniques: dict[str, int] = field(default_factory=dict)
    steps: int = 0
    d: float = 0.0
    metrics: Metrics = field(default_factory=Metrics)
    effort: float = 0.0
    timeout: bool = False
    ms: float = 0.0
    vector: tuple[float, ...] = ()  # the features D was computed from (``difficulty.FEATURES``)
    singles_only: bool = False
    base: float = 0.0  # the rating of the hardest step's technique (``difficulty.widths``)
    work: float = 0.0  # the trace's work of finding its steps (``time_model.work``)

    @property
    def label(self) -> str:
        """The zone of D: Easy, Medium, Hard, Expert or Extreme."""
        return difficulty.zone(self.d)

    @property
    def predicted_minutes(self) -> float:
        """Predicted solve time of an app's players, in minutes (``time_model.minutes``)."""
        return time_model.minutes(self.work)

    @property
    def time(self) -> time_model.TimeEstimate:
        """The predicted time with its 80% interval, and whether the puzzle lies beyond the time model's fit."""
        return time_model.estimate(self.predicted_minutes, self.d)

    def as_dict(self) -> dict[str, object]:
        """The JSON record of the ``rate`` command."""
        record: dict[str, object] = {
            "puzzle": str(self.puzzle),
            "D": round(self.d, 3),
            "label": self.label,
            "predicted_minutes": round(self.predicted_minutes, 1),
            "minutes_interval": [round(self.time.low, 1), round(self.time.high, 1)],
            "minutes_extrapolated": self.time.extrapolated,
            "effort": round(self.effort, 1),
            "hardest_technique": self.hardest_technique,
            "se_like": self.se_like,
            "hodoku_like": self.hodoku_like,
            "hodoku_level": self.hodoku_level,
            "techniques": self.techniques,
            "steps": self.steps,
            "metrics": self.metrics.as_dict(),
            "ms": round(self.ms, 2),
        }
        if self.timeout:
            record["timeout"] = True
        return record


def rate_trace(trace: Trace) -> tuple[float, int, str, str]:
    """se_like, hodoku_like score, hodoku level and the hardest technique of a complete trace."""
    return rate_taken([(BY_ID[step.technique], step) for step in trace.steps])


def rate_taken(taken: Sequence[tuple[Technique, Step | None]]) -> tuple[float, int, str, str]:
    """``rate_trace`` of a trace given as its techniques, each with its Step when there is one (a step without
    one is of a technique without chains: its rating is the technique's)."""
    if not taken:
        return 0.0, 0, "Easy", ""
    ratings = [tech.se_rating if step is None else step_se(step) for tech, step in taken]
    hardest = max(range(len(ratings)), key=lambda i: (ratings[i], -i))
    score = sum(tech.hodoku_score for tech, _ in taken)
    hardest_level = max((tech.hodoku_level for tech, _ in taken), key=HODOKU_LEVELS.index)
    return ratings[hardest], score, hodoku_level(score, hardest_level), taken[hardest][0].id


def rate(
    puzzle: PuzzleLike, *, timeout: float | None = None, measures: bool | Collection[str] = difficulty.MEASURES
) -> Rating:
    """Rate a puzzle with exactly one solution (NotUnique otherwise): trace, scales, seed measures and D.

    ``timeout`` (seconds) bounds the work: past it the trace stops (se_like is then that of the steps taken)
    and the remaining measures are skipped, and the record says ``timeout``. ``measures`` names the seed
    measures to take (``metrics.measure`` names); the default, ``difficulty.MEASURES``, is those D reads, without
    the slow hsolve simulation; True takes all, False none (D then uses their fitting-sample means).
    """
    started = time.perf_counter()
    deadline = None if timeout is None else started + timeout
    values = as_values(puzzle)
    solutions = count_solutions(values, limit=2)
    if solutions != 1:
        raise NotUnique("the puzzle has no solution" if solutions == 0 else "the puzzle has more than one solution")
    form = canonical(values)
    traced = technique_trace(Grid(form), deadline=deadline)
    taken, final = traced.steps, traced.final
    se_like, score, level, hardest = rate_taken(taken)
    if measures is True:
        metrics = measure(form, deadline)
    else:
        metrics = measure(form, deadline, names=measures) if measures else Metrics()
    timed_out = not final.is_solved or bool(metrics.missing)
    techniques = [tech for tech, _ in taken]
    work = difficulty.effort(techniques, traced.options)
    se_fine, base = max(
        ((tech.se_rating if step is None else fine_rating(step), tech.se_rating) for tech, step in taken),
        default=(0.0, 0.0),
    )
    vector = difficulty.features(se_fine, score, metrics, work, form.count(0))
    singles_only = final.is_solved and all(tech.family == "singles" for tech in techniques)
    d = difficulty.score(vector, singles_only, base)
    return Rating(
        puzzle=Grid(values),
        se_like=se_like,
        hodoku_like=score,
        hodoku_level=level,
        hardest_technique=hardest,
        techniques=counts(tech.id for tech in techniques),
        steps=len(taken),
        d=d,
        metrics=metrics,
        effort=work,
        timeout=timed_out,
        ms=(time.perf_counter() - started) * 1000,
        vector=vector,
        singles_only=singles_only,
        base=base,
        work=time_model.work(techniques, traced.options),
    )
