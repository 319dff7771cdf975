"""A player's own history: their games, times by zone, personal bests, streaks of days, their speed against the
time model (``speed``), the slider value for a wanted duration, a result's share text, and forgetting it all.

Days are UTC dates: a streak counts the days in a row, in UTC, on which the player completed at least one game.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from sudoku_engine.time_model import TimeEstimate

from .. import db
from ..models import Event, Game, utcnow
from . import calibration, store
from .calibration import TimeModel
from .speed import MIN_GAMES, Speed, fit_speed

SHOWN_GAMES = 200  # the history page lists the player's latest games, up to this many
FIT_GAMES = 50  # the speed is fitted on the player's latest completed games, up to this many
SLIDER_STEPS = 101  # the slider values tried for a wanted duration: 0, 1, ..., 100


@dataclass(frozen=True)
class PlayedGame:
    """One game of the history page."""

    id: str
    started: date
    zone: str | None
    time: TimeEstimate | None  # the time the model in force predicts (as on the game's page)
    solve_seconds: float | None
    hints: int
    mistakes: int
    finished: bool
    daily: date | None


@dataclass(frozen=True)
class ZoneTimes:
    """The completed games of one zone: how many, the median and the best (personal best) solve time."""

    zone: str
    games: int
    median_seconds: float
    best_seconds: float


@dataclass(frozen=True)
class Streaks:
    """Days in a row (UTC) with at least one completed game: the run up to today (or yesterday) and the longest."""

    current: int
    longest: int


@dataclass(frozen=True)
class History:
    """Everything the history page shows."""

    games: list[PlayedGame]
    zones: list[ZoneTimes]
    streaks: Streaks
    speed: Speed | None


def player_games(session: Session, player: str, limit: int = SHOWN_GAMES) -> list[Game]:
    """The player's latest games, newest first."""
    query = select(Game).where(Game.player == player).order_by(Game.created_at.desc(), Game.id).limit(limit)
    return list(session.scalars(query))


def hint_counts(session: Session, games: Sequence[Game]) -> dict[str, int]:
    """How many hint rungs each game revealed, by game id."""
    if not games:
        return {}
    query = (
        select(Event.game_id, func.count())
        .where(Event.game_id.in_([g.id for g in games]), Event.kind == "hint")
        .group_by(Event.game_id)
    )
    return {game_id: count for game_id, count in session.execute(query)}


def played(game: Game, hints: int, rating: store.Difficulty | None) -> PlayedGame:
    """The history row of one game, with its puzzle's difficulty and time as its page shows them."""
    return PlayedGame(
        id=game.id,
        started=game.created_at.date(),
        zone=rating.label if rating else None,
        time=rating.time if rating else None,
        solve_seconds=game.solve_seconds if game.completed_at is not None else None,
        hints=hints,
        mistakes=game.mistakes,
        finished=game.completed_at is not None,
        daily=game.daily,
    )


def zone_times(rows: Sequence[PlayedGame]) -> list[ZoneTimes]:
    """Median and best solve time of the completed games in each zone, easiest zone first."""
    by_zone: dict[str, list[float]] = {}
    for row in rows:
        if row.finished and row.zone is not None and row.solve_seconds is not None:
            by_zone.setdefault(row.zone, []).append(row.solve_seconds)
    order = {zone: i for i, zone in enumerate(("Easy", "Medium", "Hard", "Expert", "Extreme"))}
    return [
        ZoneTimes(zone, len(times), statistics.median(times), min(times))
        for zone, times in sorted(by_zone.items(), key=lambda item: order.get(item[0], len(order)))
    ]


def streaks(days: set[date], today: date) -> Streaks:
    """The current and longest runs of consecutive days in ``days``; the current run ends today or yesterday."""
    longest = 0
    for day in days:
        if day - timedelta(days=1) not in days:
            length = 1
            while day + timedelta(days=length) in days:
                length += 1
            longest = max(longest, length)
    end = today if today in days else today - timedelta(days=1)
    current = 0
    while end - timedelta(days=current) in days:
        current += 1
    return Streaks(current=current, longest=longest)


def completed_days(session: Session, player: str) -> set[date]:
    """The UTC dates on which the player completed a game."""
    query = select(Game.completed_at).where(Game.player == player, Game.completed_at.is_not(None))
    return {moment.date() for moment in session.scalars(query) if moment is not None}


def difficulties(session: Session, games: Sequence[Game], model: TimeModel) -> list[store.Difficulty | None]:
    """Each game's difficulty and time under the model in force, with what its fit found for their puzzles (one
    query for them all)."""
    if not model.learned:
        return [store.difficulty_of(game, model) for game in games]
    forms = [store.puzzle_form(session, game) if game.d is not None else "" for game in games]
    found = calibration.puzzle_times(session, model, {form for form in forms if form})
    return [store.difficulty_of(game, model, found.get(form)) for game, form in zip(games, forms, strict=True)]


def history_of(session: Session, player: str) -> History:
    """The history page of one player."""
    model = calibration.in_force(session)
    games = player_games(session, player)
    hints = hint_counts(session, games)
    rows = [
        played(game, hints.get(game.id, 0), rating)
        for game, rating in zip(games, difficulties(session, games, model), strict=True)
    ]
    return History(
        games=rows,
        zones=zone_times(rows),
        streaks=streaks(completed_days(session, player), utcnow().date()),
        speed=speed_of(session, player, model),
    )


def speed_of(session: Session, player: str, model: TimeModel | None = None) -> Speed | None:
    """The player's speed from their latest completed games with a prediction the fit backs (not extrapolated)
    under the model in force; None before ``MIN_GAMES``."""
    query = (
        select(Game)
        .where(Game.player == player, Game.completed_at.is_not(None), Game.solve_seconds.is_not(None))
        .order_by(Game.completed_at.desc())
        .limit(FIT_GAMES)
    )
    model = model or calibration.in_force(session)
    games = list(session.scalars(query))
    pairs = [
        (rating.time.minutes * 60.0, float(game.solve_seconds or 0.0))
        for game, rating in zip(games, difficulties(session, games, model), strict=True)
        if rating is not None and not rating.time.extrapolated
    ]
    if len(pairs) < MIN_GAMES:
        return None
    return fit_speed([p for p, _t in pairs], [t for _p, t in pairs])


def slider_for_minutes(session: Session, speed: Speed, minutes: float) -> float:
    """The slider value (0, 1, ..., 100) whose personal predicted time is nearest ``minutes`` (the lower on a tie),
    among those the fit backs (no extrapolated time)."""
    model = calibration.in_force(session)  # read once, not 101 times
    best, best_gap = 0.0, float("inf")
    for step in range(SLIDER_STEPS):
        info = calibration.slider_description(session, float(step), model)
        if info.time.extrapolated:
            break
        gap = abs(speed.minutes(info.time.minutes).minutes - minutes)
        if gap < best_gap:
            best, best_gap = float(step), gap
    return best


def share_text(game: Game, hints: int, zone: str | None) -> str:
    """A finished game's result to paste elsewhere: date (or the daily puzzle's), zone, time and hints; no digit
    of the puzzle or its solution."""
    day = (game.completed_at or game.created_at).date()
    when = f"Daily {game.daily.isoformat()}" if game.daily else day.isoformat()
    parts = [f"Sudoku {when}"]
    if zone:
        parts.append(zone)
    parts.append(f"solved in {store.format_duration(game.solve_seconds or 0.0)}")
    parts.append("no hints" if hints == 0 else f"{hints} hint{'s' if hints != 1 else ''}")
    return " · ".join(parts)


def forget(session: Session, player: str) -> int:
    """Unlink all the player's games from them (the games stay, anonymous); how many were unlinked (committed)."""
    unlinked = db.changed_rows(session, update(Game).where(Game.player == player).values(player=None))
    session.commit()
    return unlinked
