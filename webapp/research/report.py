"""The validation report of a study: do the ratings order the puzzles as the participants' solve times do?

Solve time is the active time of a completed game (server clock, pauses and hidden time excluded). For each
puzzle: completions, mean log time with a bootstrap interval, median minutes. For every rating (D, predicted
minutes, the seed measures, se_like, hodoku_like, givens): Spearman and Pearson against mean log time with
bootstrap intervals, strongest first. The two-way model log t = b_puzzle - theta_participant (``analysis``),
with b against D. Seed 000's Table II layout (participants x puzzles, minutes, averages). Scatter plots as SVG
when matplotlib (the ``analysis`` extra) is installed. The time model can be refitted from the study:
ln(minutes) = a + b ln(prior minutes), a and b fitted to the puzzles' mean log minutes, put in force as a version of
the time model (``webapp.games.calibration``).
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from sudoku_engine.grid import parse_values
from sudoku_engine.rating import rate

from ..bank.pool import prior_of
from ..games.calibration import put_in_force
from ..models import Calibration, Game, Participant, Study, StudyPuzzle
from . import analysis

SEED = 20261122  # the bootstrap's seed: a report is reproducible
MIN_POINTS = 3  # a correlation or a scatter plot needs at least this many solved puzzles


def _metric(path: str) -> Callable[[dict[str, Any]], float | None]:
    """A reader of one number in a rating record, by a dotted path (None when absent)."""

    def read(record: dict[str, Any]) -> float | None:
        value: Any = record
        for part in path.split("."):
            if not isinstance(value, dict) or part not in value:
                return None
            value = value[part]
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None

    return read


def _schemes_failed(record: dict[str, Any]) -> float | None:
    """How many of Simonis' propagation schemes do not solve the puzzle without search."""
    schemes = (record.get("metrics") or {}).get("schemes")
    return float(sum(not solved for solved in schemes.values())) if isinstance(schemes, dict) else None


RATINGS: dict[str, Callable[[dict[str, Any]], float | None]] = {
    "D": _metric("D"),
    "predicted minutes": _metric("predicted_minutes"),
    "se_like": _metric("se_like"),
    "hodoku_like": _metric("hodoku_like"),
    "call count (Fatemi et al.)": _metric("metrics.call_count"),
    "guesses (Findling)": _metric("metrics.findling.guesses"),
    "hsolve (MCM 2008 team 2858)": _metric("metrics.hsolve"),
    "inferences (Chen)": _metric("metrics.r_reduction.inferences"),
    "entropy (Chen)": _metric("metrics.entropy"),
    "schemes failed (Simonis)": _schemes_failed,
}
# What each rating measures, in one line, beside its name in the report.
MEANINGS: dict[str, str] = {
    "D": "this app's difficulty score: the hardest technique a human solver needs, and how much work it takes",
    "predicted minutes": "the solving time this app predicts for its players, from its time model",
    "se_like": "the hardest step on Sudoku Explainer's scale (about 1.2 for a single up to 11 and more for nested "
    "forcing chains)",
    "hodoku_like": "HoDoKu's score: the sum of the scores of every step of the logical solve",
    "call count (Fatemi et al.)": "calls a backtracking search with arc consistency makes, as in Fatemi, Kazemi and "
    "Mehrasa, Rating and Generating Sudoku Puzzles Based On Constraint Satisfaction Problems",
    "guesses (Findling)": "the guesses a solver of simple logic plus backtracking makes, as in Findling, Sudoku: A "
    "Constraint Satisfaction Problem",
    "hsolve (MCM 2008 team 2858)": "the average effort of a simulated human solver who tries strategies from the "
    "easiest up (the 2008 Mathematical Contest in Modeling paper of team 2858)",
    "inferences (Chen)": "the assumptions Inference makes once r-Reduction is stuck, as in Chen, Heuristic Reasoning "
    "on Graph and Game Complexity of Sudoku",
    "entropy (Chen)": "the mean over the cells of log2 of their candidates once each given has left its peers, "
    "from the same paper",
    "givens": "the number of digits the puzzle starts with (a common but weak guide to difficulty)",
    "schemes failed (Simonis)": "how many of the propagation schemes of Simonis, Sudoku as a Constraint Problem, "
    "cannot solve the puzzle without search",
}


@dataclass(frozen=True)
class PuzzleRow:
    """One puzzle of the report."""

    position: int
    d: float | None
    completions: int
    mean_log: analysis.Estimate | None
    median_log: analysis.Estimate | None
    median_minutes: float | None
    b: float | None


@dataclass
class Report:
    """Everything the report page and ``flask study report`` show."""

    study: Study
    puzzles: list[PuzzleRow]
    correlations: list[analysis.Correlation]
    b_vs_d: float | None
    residual_sd: float | None
    participants: list[str]
    minutes: list[list[float | None]]  # participants x puzzles (Table II layout)
    averages: list[float | None]
    svg: dict[str, str] = field(default_factory=dict)


def solve_times(session: Session, study: Study) -> tuple[list[str], dict[tuple[int, int], float]]:
    """Participants with a completed game, and their solve seconds by (puzzle position, participant index)."""
    positions = {p.id: p.position for p in study.puzzles}
    people = list(
        session.scalars(select(Participant).where(Participant.study_id == study.id).order_by(Participant.arrival))
    )
    times: dict[tuple[int, int], float] = {}
    names: list[str] = []
    for person in people:
        games = session.scalars(select(Game).where(Game.participant_id == person.id, Game.solve_seconds.is_not(None)))
        solved = [(positions[g.study_puzzle_id], g.solve_seconds) for g in games if g.study_puzzle_id in positions]
        if not solved:
            continue
        index = len(names)
        names.append(person.public_id)
        for position, seconds in solved:
            if seconds is not None and seconds > 0:
                times[(position, index)] = seconds
    return names, times


def build(session: Session, study: Study, plots: bool = True) -> Report:
    """The validation report of a study from its stored games."""
    names, times = solve_times(session, study)
    count = len(study.puzzles)
    log_t = np.full((count, len(names)), np.nan)
    for (position, person), seconds in times.items():
        log_t[position, person] = math.log(seconds)
    fit = analysis.fit_two_way(log_t) if len(times) >= count + len(names) else None
    rows = []
    for puzzle in study.puzzles:
        seen = log_t[puzzle.position][np.isfinite(log_t[puzzle.position])]
        rows.append(
            PuzzleRow(
                position=puzzle.position,
                d=puzzle.d,
                completions=len(seen),
                mean_log=analysis.bootstrap_mean(seen, SEED + puzzle.position) if len(seen) else None,
                median_log=analysis.bootstrap_median(seen, SEED + puzzle.position) if len(seen) else None,
                median_minutes=float(np.median(np.exp(seen))) / 60 if len(seen) else None,
                b=float(fit.b[puzzle.position]) if fit is not None and len(seen) else None,
            )
        )
    report = Report(
        study=study,
        puzzles=rows,
        correlations=_correlations(study.puzzles, rows),
        b_vs_d=_b_vs_d(rows),
        residual_sd=fit.residual_sd if fit is not None else None,
        participants=names,
        minutes=[[_minutes(log_t[p, j]) for p in range(count)] for j in range(len(names))],
        averages=[_minutes_mean(log_t[p]) for p in range(count)],
    )
    if plots:
        report.svg = scatter_plots(rows)
    return report


def as_json(report: Report) -> str:
    """The report's figures as JSON (the study itself left out), as the report cache stores them."""
    figures = {
        name: getattr(report, name) for name in ("b_vs_d", "residual_sd", "participants", "minutes", "averages", "svg")
    }
    figures["puzzles"] = [asdict(row) for row in report.puzzles]
    figures["correlations"] = [asdict(row) for row in report.correlations]
    return json.dumps(figures)


def from_json(text: str, study: Study) -> Report:
    """A report of the study from the figures ``as_json`` wrote."""
    figures = json.loads(text)
    return Report(
        study=study,
        puzzles=[
            PuzzleRow(**{**row, "mean_log": _estimate(row["mean_log"]), "median_log": _estimate(row["median_log"])})
            for row in figures["puzzles"]
        ],
        correlations=[
            analysis.Correlation(
                c["rating"], c["n"], analysis.Estimate(**c["spearman"]), analysis.Estimate(**c["pearson"])
            )
            for c in figures["correlations"]
        ],
        b_vs_d=figures["b_vs_d"],
        residual_sd=figures["residual_sd"],
        participants=figures["participants"],
        minutes=figures["minutes"],
        averages=figures["averages"],
        svg=figures["svg"],
    )


def _estimate(figures: dict[str, float] | None) -> analysis.Estimate | None:
    """An estimate read back from JSON."""
    return None if figures is None else analysis.Estimate(**figures)


def _minutes(value: float) -> float | None:
    """Minutes from a log-seconds cell, None when missing."""
    return math.exp(value) / 60 if np.isfinite(value) else None


def _minutes_mean(row: np.ndarray[Any, Any]) -> float | None:
    """Mean minutes over the observed cells of a row."""
    seen = row[np.isfinite(row)]
    return float(np.exp(seen).mean() / 60) if len(seen) else None


def _correlations(puzzles: list[StudyPuzzle], rows: list[PuzzleRow]) -> list[analysis.Correlation]:
    """Every rating against mean log time, over the puzzles with completions."""
    done = [(p, r) for p, r in zip(puzzles, rows, strict=True) if r.mean_log is not None]
    values: dict[str, list[float | None]] = {
        name: [read(p.rating or {}) for p, _r in done] for name, read in RATINGS.items()
    }
    values["givens"] = [float(81 - p.puzzle.count(".")) for p, _r in done]
    means = [r.mean_log.value for _p, r in done if r.mean_log is not None]
    return analysis.correlations(values, means, SEED)


def _b_vs_d(rows: list[PuzzleRow]) -> float | None:
    """Spearman of the fitted puzzle difficulty b against D."""
    pairs = [(r.b, r.d) for r in rows if r.b is not None and r.d is not None]
    if len(pairs) < 3:
        return None
    return analysis.spearman(np.array([b for b, _d in pairs]), np.array([d for _b, d in pairs]))


def scatter_plots(rows: list[PuzzleRow]) -> dict[str, str]:
    """SVG scatter plots of mean log time and of b against D (empty when matplotlib is not installed)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return {}
    plots = {}
    for key, label in (("mean_log", "mean log solve time (log s)"), ("b", "puzzle difficulty b (log s)")):
        points = [(r.d, v) for r in rows if r.d is not None and (v := _value(r, key)) is not None]
        if len(points) < MIN_POINTS:
            continue  # ``missing`` says why there is no plot
        figure, axes = plt.subplots(figsize=(4.5, 3.2))
        axes.scatter([d for d, _v in points], [v for _d, v in points], color="#2f5fd0")
        axes.set_xlabel("D")
        axes.set_ylabel(label)
        figure.tight_layout()
        out = io.StringIO()
        figure.savefig(out, format="svg")
        plt.close(figure)
        plots[key] = out.getvalue()
    return plots


def _value(row: PuzzleRow, key: str) -> float | None:
    """The plotted value of a puzzle row."""
    if key == "b":
        return row.b
    return row.mean_log.value if row.mean_log is not None else None


def puzzle_prior(puzzle: StudyPuzzle) -> float:
    """The prior minutes of a study puzzle: from its rating record, else rated again (records before the time
    model fitted to people)."""
    prior = prior_of(puzzle.rating)
    if prior is not None:
        return prior
    return rate(parse_values(puzzle.puzzle), measures=False).predicted_minutes


def mean_log_seconds(session: Session, study: Study) -> dict[int, float]:
    """The mean log solve time (log seconds) of every puzzle position with completions (no bootstrap: cheap)."""
    _names, times = solve_times(session, study)
    logs: dict[int, list[float]] = {}
    for (position, _person), seconds in times.items():
        logs.setdefault(position, []).append(math.log(seconds))
    return {position: float(np.mean(values)) for position, values in logs.items()}


def missing(report: Report) -> list[str]:
    """What the report cannot show yet because the data are too few, each in a sentence (empty when complete)."""
    solved = sum(1 for row in report.puzzles if row.completions)
    if not report.participants:
        return ["No participant has solved a puzzle yet: the tables and plots appear with the first solved puzzles."]
    found = []
    if solved < MIN_POINTS:
        found.append(
            f"Correlations and plots need solved games on at least {MIN_POINTS} puzzles; {solved} of "
            f"{len(report.puzzles)} have one so far."
        )
    if report.residual_sd is None:
        found.append(
            "The model log t = b(puzzle) - theta(participant) needs at least as many solved games as puzzles and "
            f"participants together ({len(report.puzzles) + len(report.participants)}); "
            f"{sum(row.completions for row in report.puzzles)} so far."
        )
    return found


REFIT_NEEDS = "The refit needs completed puzzles of at least two different predicted times."


def refit_problem(session: Session, study: Study) -> str | None:
    """Why the time model cannot be refitted from this study yet, or None when it can (for the report page: read
    from the stored rating records, never by rating a puzzle again inside the request)."""
    by_position = {puzzle.position: puzzle for puzzle in study.puzzles}
    solved = [by_position[p] for p in mean_log_seconds(session, study) if p in by_position]
    recorded = [prior_of(puzzle.rating) for puzzle in solved]
    if any(prior is None for prior in recorded):
        return None if len(solved) >= 2 else REFIT_NEEDS  # an old record: the refit itself rates it
    return None if len({_prior_x(prior) for prior in recorded if prior is not None}) >= 2 else REFIT_NEEDS


def _prior_x(prior: float) -> float:
    """The refit's x for a prior: its log (rounded, so that equal priors count once)."""
    return round(math.log(max(prior, 1e-3)), 9)


def refit_calibration(session: Session, study: Study) -> Calibration:
    """Fit ln(minutes) = intercept + slope ln(prior minutes) to the study's mean log minutes and put it in force."""
    by_position = {puzzle.position: puzzle for puzzle in study.puzzles}
    means = mean_log_seconds(session, study)
    points = [
        (_prior_x(puzzle_prior(by_position[position])), mean - math.log(60))
        for position, mean in sorted(means.items())
        if position in by_position
    ]
    if len({x for x, _y in points}) < 2:
        raise ValueError(REFIT_NEEDS)
    slope, intercept = np.polyfit([x for x, _y in points], [y for _x, y in points], 1)
    return put_in_force(session, study.id, float(intercept), float(slope), len(points))


def _fmt(value: float | None, digits: int = 2) -> str:
    """A number for a text table, '-' when missing."""
    return "-" if value is None or not math.isfinite(value) else f"{value:.{digits}f}"


def _interval(estimate: analysis.Estimate | None) -> str:
    """'value [low, high]', or '-'."""
    return "-" if estimate is None else f"{estimate.value:.2f} [{estimate.low:.2f}, {estimate.high:.2f}]"


def text_lines(report: Report) -> list[str]:
    """The report as plain text tables (``flask study report``)."""
    lines = [f"Study {report.study.id}: {report.study.name}; {len(report.participants)} participants solved puzzles."]
    head = f"{'#':>3} {'D':>5} {'solved':>6} {'mean log t [95% CI]':>24} {'median log t [95% CI]':>24}"
    lines.append(f"{head} {'median min':>10} {'b':>6}")
    for row in report.puzzles:
        lines.append(
            f"{row.position + 1:>3} {_fmt(row.d):>5} {row.completions:>6} {_interval(row.mean_log):>24} "
            f"{_interval(row.median_log):>24} {_fmt(row.median_minutes, 1):>10} {_fmt(row.b):>6}"
        )
    lines.append("")
    lines.append(f"{'rating':<26} {'n':>3} {'Spearman [95% CI]':>22} {'Pearson [95% CI]':>22}")
    for c in report.correlations:
        lines.append(f"{c.rating:<26} {c.n:>3} {_interval(c.spearman):>22} {_interval(c.pearson):>22}")
    lines.append("")
    model = f"Spearman(b, D) {_fmt(report.b_vs_d)}, residual SD {_fmt(report.residual_sd)}"
    lines.append(f"Model log t = b - theta: {model}")
    lines.append("")
    lines.append("Minutes (participants x puzzles, laid out as Table II of Fatemi, Kazemi and Mehrasa):")
    lines.append("     " + "".join(f"{row.position + 1:>7}" for row in report.puzzles))
    for index, minutes in enumerate(report.minutes, 1):
        lines.append(f"{index:>4} " + "".join(f"{_fmt(m, 1):>7}" for m in minutes))
    lines.append(" avg " + "".join(f"{_fmt(m, 1):>7}" for m in report.averages))
    gaps = missing(report)
    if gaps:
        lines += ["", "Missing so far:", *(f"- {gap}" for gap in gaps)]
    return lines
