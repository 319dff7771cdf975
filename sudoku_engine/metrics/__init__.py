"""The seed papers' measures, one module per paper, and ``measure`` gathering them all (ARCHITECTURE.md).

- ``fatemi``: seed 000, arc consistency + domain splitting call count.
- ``findling``: seed 001, singles + chronological backtracking counts.
- ``hsolve``: seed 002, the human-solver simulation m(B).
- ``chen``: seed 003, r-Reduction, Inference and game complexity (entropy).
- ``simonis``: seed 004, propagation schemes, well-posedness, local minimality and reduction.

Beside them: ``_fatemi_numba`` (fatemi's kernel), ``_matching`` (simonis' matching filters) and ``_singles`` (the
singles rules fatemi, findling and simonis share). Each module names the seed section it implements. ``measure``
runs them with the work caps used for rating (each capped measure is named in ``capped``) and stops early at a
deadline (the rest is then missing).
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from .. import deadline as limits

# Work caps for rating: a capped measure keeps what it reached and is named in Metrics.capped.
CALL_COUNT_CAP = 20_000
FINDLING_CAP = 200_000
CHEN_CAP = 10_000
SCHEMES_CAP = 20_000
HSOLVE_CAP = 2_000


@dataclass
class Metrics:
    """The seed measures of one puzzle, as the ``rate`` record names them (ARCHITECTURE.md, Contracts)."""

    call_count: float | None = None
    findling: dict[str, int] | None = None
    hsolve: float | None = None
    entropy: float | None = None
    r_reduction: dict[str, object] | None = None
    schemes: dict[str, bool] | None = None
    capped: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        """The ``metrics`` object of the ``rate`` record."""
        record: dict[str, object] = {
            "call_count": self.call_count,
            "findling": self.findling,
            "hsolve": self.hsolve,
            "entropy": self.entropy,
            "r_reduction": self.r_reduction,
            "schemes": self.schemes,
        }
        if self.capped:
            record["capped"] = self.capped
        if self.missing:
            record["missing"] = self.missing
        return record


def _call_count(values: Sequence[int], found: Metrics) -> None:
    """Seed 000: mean arc-consistency calls over 10 seeded runs."""
    from . import fatemi

    result = fatemi.call_count(values, cap=CALL_COUNT_CAP)
    found.call_count = round(result.mean, 2)
    if result.capped:
        found.capped.append("call_count")


def _findling(values: Sequence[int], found: Metrics) -> None:
    """Seed 001: logic steps, guesses and backtracks."""
    from . import findling

    result = findling.findling(values, cap=FINDLING_CAP)
    found.findling = {"logic": result.logic, "guesses": result.guesses, "backtracks": result.backtracks}
    if result.capped:
        found.capped.append("findling")


def _chen(values: Sequence[int], found: Metrics) -> None:
    """Seed 003: solved by r-Reduction alone, inferences, game complexity."""
    from . import chen

    result = chen.measure(values, cap=CHEN_CAP)
    found.entropy = round(result.entropy, 4)
    found.r_reduction = {"solved": result.solved, "inferences": result.inferences}
    if result.capped:
        found.capped.append("r_reduction")


def _schemes(values: Sequence[int], found: Metrics) -> None:
    """Seed 004: which propagation schemes solve the puzzle without search."""
    from . import simonis

    report = simonis.schemes_report(values, cap=SCHEMES_CAP)
    found.schemes = dict(report.solved)
    if report.capped:
        found.capped.append("schemes")


def _hsolve(values: Sequence[int], found: Metrics) -> None:
    """Seed 002: m(B), the mean simulated difficulty over 20 runs."""
    from . import hsolve

    result = hsolve.hsolve(values, cap=HSOLVE_CAP)
    found.hsolve = round(result.mean, 2)
    if result.capped:
        found.capped.append("hsolve")


_MEASURES = (
    ("call_count", _call_count),
    ("findling", _findling),
    ("r_reduction", _chen),
    ("schemes", _schemes),
    ("hsolve", _hsolve),
)


NAMES = tuple(name for name, _ in _MEASURES)


def measure(values: Sequence[int], deadline: float | None = None, names: Collection[str] = NAMES) -> Metrics:
    """The seed measures (all, or those named) of a puzzle with one solution, in order, until the deadline passes."""
    unknown = sorted(set(names) - set(NAMES))
    if unknown:
        raise ValueError(f"unknown measures: {', '.join(unknown)} (known: {', '.join(NAMES)})")
    found = Metrics()
    for name, run in _MEASURES:
        if name not in names:
            continue
        if deadline is not None and time.perf_counter() > deadline:
            found.missing.append(name)
            continue
        if deadline is None:
            run(values, found)  # a limit set around the call, if any, stops it (and is its caller's to catch)
            continue
        try:
            with limits.until(deadline):  # a long measure stops inside its search at the deadline
                run(values, found)
        except limits.TimeUp:
            found.missing.append(name)
    return found
