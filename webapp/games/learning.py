"""Learning from every game: the job that fits the time model over all finished games and keeps each fit as a
version (``docs/webapp.md``, "The time model learns").

Which games count, and how:
- anonymous play (each player cookie is a player) and study games of studies whose settings allow it (``calibrate``:
  their consent covers it; each participant is a player; previews and withdrawn participants never count);
- only games of puzzles with a known D, once shown; a player's later games of a puzzle they played already are left
  out (they know it);
- a finished game is observed at its active time with every idle gap bounded: between two of its events at most
  ``IDLE_CAP_S`` counts, and paused intervals none;
- a game given up, or left unfinished with no event for ``ABANDONED_AFTER_S`` (abandoned), is censored at the time
  it had taken, bounded the same way: it says "longer than this" (``timefit``), never "finished";
- a finished time under ``MIN_SECONDS`` or any time over ``MAX_SECONDS`` after bounding is absurd and left out.

The fit (``timefit.fit``) is checked before it goes into force: on the latest fifth of the finished games (by when
they finished), a fit on the earlier four fifths against the prior (``figures``). A fit that fails, or gives
numbers out of bounds, is stored as failed with the reason, and the version in force stays. Two consumers never run
it at once: it runs under a lease (``jobs.take_lease``). ``flask calibration`` fits, lists and rolls back versions.
"""

from __future__ import annotations

import io
import logging
import math
import os
import socket
import statistics
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from sudoku_engine import difficulty, time_model
from sudoku_engine.grid import format_values, parse_values
from sudoku_engine.isomorph import canonical

from .. import db, jobs
from ..models import BankPuzzle, Calibration, Event, Game, Participant, PuzzleTime, Study, utcnow
from . import calibration, timefit

JOB = "time-fit"
LEASE = "time-fit"
LEASE_S = 1800.0  # a fit holds its lease this long at most (a consumer killed mid-fit frees it then)
SCHEDULED, FORCED = 0, 1  # the job's item: a scheduled run (only when due) or one asked for now
IDLE_CAP_S = 300.0  # the most one gap between a game's events counts for
ABANDONED_AFTER_S = 86400.0  # an unfinished game with no event for this long is abandoned
MIN_SECONDS = 20.0  # a finished time below this is absurd
MAX_SECONDS = 12 * 3600.0  # any time above this, after bounding, is absurd
MIN_FINISHED = 20  # finished games a fit needs
CHECK_SHARE = 0.2  # the latest finished games the check holds out
MIN_CHECKED = 10  # held-out finished games the check needs
MAX_ZONE_SCALE = 3.0  # a zone's fitted log scale beyond this means something is wrong
MAX_SIGMA = 3.0
ZONES = (*(name for name, _ in difficulty.ZONES), "Extreme")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Played:
    """One game as the fit sees it: who, which puzzle (canonical form), its D and prior, the time in minutes, whether
    it is censored (given up or abandoned), and when it ended."""

    player: str
    puzzle: str
    d: float
    prior: float
    minutes: float
    censored: bool
    ended: datetime


@dataclass
class Collected:
    """The games a fit uses, and how many were left out and why."""

    games: list[Played] = field(default_factory=list)
    left_out: dict[str, int] = field(default_factory=lambda: {"absurd": 0, "repeat": 0, "in progress": 0})


def allowed_participants(session: Session) -> dict[int, int]:
    """Participants whose games may teach the time model (their study allows it; no preview, not withdrawn), with
    their study."""
    rows = session.execute(
        select(Participant.id, Participant.study_id, Participant.state, Study.settings, Study.phase).join(
            Study, Study.id == Participant.study_id
        )
    )
    return {
        pid: sid
        for pid, sid, state, settings, phase in rows
        if (settings or {}).get("calibrate") and phase != "preview" and state != "withdrawn"
    }


def bounded_seconds(events: Sequence[tuple[datetime, str]], end: datetime | None) -> float:
    """A game's active time from its events in order: each gap counts up to IDLE_CAP_S, the gap after a pause (until
    its resume: a paused game takes no other action) not at all; up to ``end`` (its completion) when given."""
    times = [moment for moment, _ in events] + ([end] if end is not None else [])
    kinds = [kind for _, kind in events]
    total = 0.0
    for index in range(1, len(times)):
        if kinds[index - 1] != "pause":
            total += min(max((times[index] - times[index - 1]).total_seconds(), 0.0), IDLE_CAP_S)
    return total


def game_events(session: Session, ids: Sequence[str]) -> dict[str, list[tuple[datetime, str]]]:
    """The events of these games, by game, in order."""
    found: dict[str, list[tuple[datetime, str]]] = {game_id: [] for game_id in ids}
    for chunk in range(0, len(ids), 500):
        part = list(ids[chunk : chunk + 500])
        rows = session.execute(
            select(Event.game_id, Event.server_time, Event.kind).where(Event.game_id.in_(part)).order_by(Event.id)
        )
        for game_id, moment, kind in rows:
            found[game_id].append((moment, kind))
    return found


def canonical_forms(session: Session, games: Sequence[Game]) -> dict[str, str]:
    """Each game's puzzle in canonical form (its bank row's when it has one: stored canonical), by game id."""
    bank_ids = {g.bank_id for g in games if g.bank_id is not None}
    bank = (
        dict(session.execute(select(BankPuzzle.id, BankPuzzle.puzzle).where(BankPuzzle.id.in_(bank_ids))))
        if bank_ids
        else {}
    )
    forms: dict[str, str] = {}
    known: dict[str, str] = {}
    for game in games:
        if game.bank_id in bank:
            forms[game.id] = bank[game.bank_id]
        else:
            if game.puzzle not in known:
                known[game.puzzle] = format_values(canonical(parse_values(game.puzzle)))
            forms[game.id] = known[game.puzzle]
    return forms


def candidate_games(session: Session, participants: dict[int, int]) -> list[Game]:
    """The games that may count: shown, of a known D, of a player or an allowed participant, oldest first."""
    query = select(Game).where(Game.first_shown_at.is_not(None), Game.d.is_not(None)).order_by(Game.created_at)
    return [g for g in session.scalars(query) if g.player is not None or g.participant_id in participants]


def played(game: Game, events: Sequence[tuple[datetime, str]], puzzle: str, now: datetime) -> Played | str:
    """The game as the fit sees it, or why it is left out ("in progress", "absurd")."""
    player = f"p:{game.player}" if game.player is not None else f"s:{game.participant_id}"
    prior = calibration.prior_for(game.prior_minutes, float(game.d or 0.0))
    if game.completed_at is not None:
        seconds = bounded_seconds(events, game.completed_at)
        if not MIN_SECONDS <= seconds <= MAX_SECONDS:
            return "absurd"
        return Played(player, puzzle, float(game.d or 0.0), prior, seconds / 60, False, game.completed_at)
    last = events[-1][0] if events else game.first_shown_at or game.created_at
    if game.gave_up_at is None and (now - last).total_seconds() < ABANDONED_AFTER_S:
        return "in progress"
    seconds = bounded_seconds(events, None)
    if seconds > MAX_SECONDS:
        return "absurd"
    return Played(player, puzzle, float(game.d or 0.0), prior, max(seconds, 1.0) / 60, True, game.gave_up_at or last)


def collect(session: Session, now: datetime | None = None) -> Collected:
    """Every game the fit may use, as ``Played``, with what was left out."""
    now = now or utcnow()
    games = candidate_games(session, allowed_participants(session))
    events = game_events(session, [g.id for g in games])
    forms = canonical_forms(session, games)
    found = Collected()
    seen: set[tuple[str, str]] = set()
    for game in games:
        result = played(game, events[game.id], forms[game.id], now)
        if isinstance(result, str):
            found.left_out[result] += 1
            continue
        if (result.player, result.puzzle) in seen:
            found.left_out["repeat"] += 1
            continue
        seen.add((result.player, result.puzzle))
        found.games.append(result)
    return found


def median_log_prior(prior: float) -> float:
    """The log median a prior of ``prior`` mean minutes stands for (its players' spread taken off)."""
    sd = math.hypot(time_model.MODEL_SD, time_model.PLAYER_SD)
    return math.log(max(prior, 1e-3)) - sd * sd / 2


@dataclass(frozen=True)
class Arrays:
    """The fit's input built from games, with the names behind each index."""

    observations: timefit.Observations
    priors: timefit.Priors
    puzzles: list[str]
    players: list[str]


def arrays(games: Sequence[Played]) -> Arrays:
    """Index players and puzzles and build the fit's arrays."""
    players = sorted({g.player for g in games})
    puzzles = sorted({g.puzzle for g in games})
    player_index = {p: i for i, p in enumerate(players)}
    puzzle_index = {p: i for i, p in enumerate(puzzles)}
    prior: dict[str, tuple[float, float]] = {}
    for g in games:
        prior.setdefault(g.puzzle, (g.prior, g.d))
    observations = timefit.Observations(
        player=np.array([player_index[g.player] for g in games], dtype=np.int64),
        puzzle=np.array([puzzle_index[g.puzzle] for g in games], dtype=np.int64),
        log_minutes=np.array([math.log(g.minutes) for g in games]),
        censored=np.array([g.censored for g in games], dtype=np.bool_),
    )
    priors = timefit.Priors(
        log_minutes=np.array([median_log_prior(prior[p][0]) for p in puzzles]),
        zone=np.array([ZONES.index(difficulty.zone(prior[p][1])) for p in puzzles], dtype=np.int64),
        players=len(players),
        zones=len(ZONES),
    )
    return Arrays(observations, priors, puzzles, players)


def predicted_log(fitted: timefit.Fit, built: Arrays, games: Sequence[Played]) -> np.ndarray:
    """Each game's predicted log minutes (a median) by a fit: its puzzle's b and its player's theta when the fit
    knows them, else the zone-scaled prior and a typical player."""
    puzzles = {p: i for i, p in enumerate(built.puzzles)}
    players = {p: i for i, p in enumerate(built.players)}
    out = []
    for g in games:
        if g.puzzle in puzzles:
            b = float(fitted.b[puzzles[g.puzzle]])
        else:
            b = median_log_prior(g.prior) + float(fitted.zone_scale[ZONES.index(difficulty.zone(g.d))])
        theta = float(fitted.theta[players[g.player]]) if g.player in players else 0.0
        out.append(b - theta)
    return np.array(out)


def agreement(predicted: np.ndarray, observed: np.ndarray, zones: Sequence[str]) -> dict[str, Any]:
    """Pearson r and slope of log observed on log predicted, and the median predicted / observed per zone."""
    r = float(np.corrcoef(predicted, observed)[0, 1]) if len(observed) > 2 and np.std(predicted) > 0 else None
    slope = float(np.polyfit(predicted, observed, 1)[0]) if r is not None else None
    ratios = {}
    for zone in ZONES:
        keep = [i for i, z in enumerate(zones) if z == zone]
        if keep:
            ratios[zone] = {"games": len(keep), "ratio": float(np.median(np.exp(predicted[keep] - observed[keep])))}
    return {"r": r, "slope": slope, "zones": ratios}


def figures(games: Sequence[Played]) -> dict[str, Any]:
    """The check of a fit: on the latest finished games, a fit on the games before them beside the prior alone."""
    finished = sorted((g for g in games if not g.censored), key=lambda g: g.ended)
    held = finished[len(finished) - max(int(len(finished) * CHECK_SHARE), 0) :]
    if len(held) < MIN_CHECKED:
        return {"checked": len(held), "note": f"needs {MIN_CHECKED} finished games held out to check the fit"}
    cut = held[0].ended
    earlier = [g for g in games if g.ended < cut]
    built = arrays(earlier)
    fitted = timefit.fit(built.observations, built.priors)
    observed = np.array([math.log(g.minutes) for g in held])
    zones = [difficulty.zone(g.d) for g in held]
    prior = np.array([median_log_prior(g.prior) for g in held])
    return {
        "checked": len(held),
        "before": len(earlier),
        "prior": agreement(prior, observed, zones),
        "fit": agreement(predicted_log(fitted, built, held), observed, zones),
        "svg": scatter_svg(prior, predicted_log(fitted, built, held), observed),
    }


def scatter_svg(prior: np.ndarray, fitted: np.ndarray, observed: np.ndarray) -> str | None:
    """A plot of the held-out games' times against both predictions (None without matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    figure, axes = plt.subplots(figsize=(4.8, 3.4))
    axes.scatter(np.exp(prior), np.exp(observed), s=10, color="#9a9a9a", label="prior")
    axes.scatter(np.exp(fitted), np.exp(observed), s=10, color="#2f5fd0", label="fit")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("predicted minutes")
    axes.set_ylabel("minutes taken")
    axes.legend(loc="upper left")
    figure.tight_layout()
    out = io.StringIO()
    figure.savefig(out, format="svg")
    plt.close(figure)
    return out.getvalue()


def problem_of(fitted: timefit.Fit) -> str | None:
    """Why a fit must not go into force, or None."""
    values = np.concatenate([fitted.b, fitted.theta, fitted.zone_scale, [fitted.sigma]])
    if not np.all(np.isfinite(values)):
        return "the fit gave numbers that are not finite"
    if np.max(np.abs(fitted.zone_scale)) > MAX_ZONE_SCALE or fitted.sigma > MAX_SIGMA:
        return (
            f"the fit's zone scales or spread are out of bounds ({np.round(fitted.zone_scale, 2)}, {fitted.sigma:.2f})"
        )
    return None


def puzzle_rows(
    version: Calibration, built: Arrays, fitted: timefit.Fit, games: Sequence[Played]
) -> Iterator[PuzzleTime]:
    """What the fit found for each puzzle played."""
    sd = math.hypot(time_model.MODEL_SD, time_model.PLAYER_SD)
    by_puzzle: dict[str, list[Played]] = {}
    for g in games:
        by_puzzle.setdefault(g.puzzle, []).append(g)
    for index, puzzle in enumerate(built.puzzles):
        done = [g.minutes * 60 for g in by_puzzle[puzzle] if not g.censored]
        yield PuzzleTime(
            calibration_id=version.id,
            puzzle=puzzle,
            finishers=len(done),
            censored=len(by_puzzle[puzzle]) - len(done),
            median_seconds=statistics.median(done) if done else None,
            minutes=math.exp(float(fitted.b[index]) + sd * sd / 2),
        )


def holder() -> str:
    """This process, as a lease holder."""
    return f"{socket.gethostname()}:{os.getpid()}"[:64]


def fit_now(session: Session) -> Calibration | str:
    """Fit over every game and put the fit in force: the new version, or why there is none (too few games; the
    lease held by another fit). A failed fit is stored as failed and the version in force stays."""
    if not jobs.take_lease(session, LEASE, holder(), LEASE_S):
        return "another fit of the time model is running"
    try:
        found = collect(session)
        finished = sum(not g.censored for g in found.games)
        if finished < MIN_FINISHED:
            return f"a fit needs {MIN_FINISHED} finished games; there are {finished}"
        return run_fit(session, found)
    finally:
        jobs.release_lease(session, LEASE, holder())


def run_fit(session: Session, found: Collected) -> Calibration:
    """Fit the collected games, store the version (in force when it passes its checks)."""
    games = found.games
    version = Calibration(model=calibration.PLAYERS_MODEL, state="running", intercept=0.0, slope=1.0, puzzles=0)
    version.games = len(games)
    version.players = len({g.player for g in games})
    session.add(version)
    session.commit()
    try:
        built = arrays(games)
        fitted = timefit.fit(built.observations, built.priors)
        problem = problem_of(fitted)
        if problem is not None:
            raise ValueError(problem)
        checked = figures(games)
    except Exception as error:  # the version in force stays; the reason is kept and logged
        session.rollback()
        log.exception("the fit of the time model failed")
        return finish(session, version, problem=str(error) or type(error).__name__)
    version.puzzles = len(built.puzzles)
    version.sigma = fitted.sigma
    version.zones = {zone: float(s) for zone, s in zip(ZONES, fitted.zone_scale)}
    version.figures = {
        **checked,
        "finished": sum(not g.censored for g in games),
        "censored": sum(g.censored for g in games),
        "left_out": found.left_out,
        "rounds": fitted.rounds,
    }
    session.add_all(puzzle_rows(version, built, fitted, games))
    return finish(session, version)


def finish(session: Session, version: Calibration, problem: str | None = None) -> Calibration:
    """Mark a version done (and in force) or failed with its problem (committed)."""
    version = session.merge(version)
    version.finished_at = utcnow()
    if problem is not None:
        version.state, version.problem, version.active = "failed", problem, False
        session.commit()
        return version
    version.state = "done"
    return calibration.activate(session, version)


def due(session: Session, every_s: float, now: datetime | None = None) -> bool:
    """True when a scheduled fit should run: the latest started longer ago than ``every_s`` and games finished or
    were given up since it (or there is none yet)."""
    if every_s <= 0:
        return False
    now = now or utcnow()
    latest = session.scalar(
        select(func.max(Calibration.created_at)).where(Calibration.model == calibration.PLAYERS_MODEL)
    )
    if latest is not None and now - latest < timedelta(seconds=every_s):
        return False
    since = select(func.count()).select_from(Game).where(Game.completed_at.is_not(None))
    if latest is not None:
        since = since.where(Game.completed_at > latest)
    return (session.scalar(since) or 0) > 0


def fit_job(app: Flask, item: int) -> None:
    """The job: a fit when forced, or when one is due on the schedule (``TIME_FIT_EVERY_S``)."""
    with app.app_context(), db.sessions_of(app)() as session:
        if item != FORCED and not due(session, float(app.config["TIME_FIT_EVERY_S"])):
            return
        outcome = fit_now(session)
        if isinstance(outcome, str):
            log.info("no fit of the time model: %s", outcome)
        else:
            log.info("fit %s of the time model: %s", outcome.id, outcome.state)


def versions(session: Session, limit: int = 50) -> list[Calibration]:
    """The latest versions of the time model, newest first."""
    return list(session.scalars(select(Calibration).order_by(Calibration.id.desc()).limit(limit)))


def roll_back(session: Session, version_id: int | None) -> Calibration | None:
    """Put an earlier version in force again (None: the engine's prior alone); ValueError for a version that cannot
    be in force."""
    if version_id is None:
        for active in session.scalars(select(Calibration).where(Calibration.active.is_(True))):
            active.active = False
        session.commit()
        return None
    chosen = session.get(Calibration, version_id)
    if chosen is None or chosen.state != "done" or chosen.model not in calibration.IN_FORCE_MODELS:
        raise ValueError(f"version {version_id} is not a finished fit of the current time model")
    return calibration.activate(session, chosen)
