"""The daily puzzle: one puzzle for everyone on a UTC date, taken from the bank by the date.

The day's puzzle is pinned by its first game: every later daily game of that date plays the same puzzle (the same
isomorph). Before any game of the date, the puzzle is chosen deterministically: among the bank rows within the
generation tolerance of the daily target D that were added before the date began (so rows added later, that day or
after, cannot change the choice), the row at position hash(date) mod count in order of id, served as the isomorph
a second hash of the date picks. A bank with no such row (a new installation's first day) serves the target as New
puzzle does, and that first game pins the day.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, time

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from sudoku_engine.generate import DEFAULT_TOLERANCE
from sudoku_engine.slider import target_for_slider

from ..bank import pool
from ..bank.pool import Served
from ..models import BankPuzzle, Game, utcnow
from . import store

DAILY_SLIDER = 35.0  # the daily puzzle's difficulty on the slider: a mid one, in the Medium zone
SOURCE = "daily"


def today() -> date:
    """The current UTC date."""
    return utcnow().date()


def _hash(day: date, purpose: str) -> int:
    """A number drawn from the date, the same on every server."""
    digest = hashlib.sha256(f"sudoku-daily/{purpose}/{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 2**63


def pinned(session: Session, day: date) -> Served | None:
    """The puzzle of the date's first daily game, if there is one."""
    first = session.scalars(select(Game).where(Game.daily == day).order_by(Game.created_at, Game.id).limit(1)).first()
    if first is None or first.d is None or first.seed is None:
        return None
    return Served(first.puzzle, first.solution, first.d, first.seed, first.bank_id, first.effort)


def chosen(session: Session, day: date, tolerance: float = DEFAULT_TOLERANCE) -> Served | None:
    """The bank row the date picks among those within tolerance of the daily target added before the date; None
    when there is none."""
    target = target_for_slider(DAILY_SLIDER)
    began = datetime.combine(day, time(), tzinfo=UTC)
    eligible = select(BankPuzzle.id).where(
        BankPuzzle.created_at < began, BankPuzzle.d >= target - tolerance, BankPuzzle.d <= target + tolerance
    )
    count = session.scalar(select(func.count()).select_from(eligible.subquery())) or 0
    if count == 0:
        return None
    bank_id = session.scalar(eligible.order_by(BankPuzzle.id).offset(_hash(day, "row") % count).limit(1))
    row = session.get(BankPuzzle, bank_id)
    if row is None:
        return None
    pool.claim(session, row.id)  # kept from New puzzle's draws when it was still unused (committed with the game)
    return pool.as_isomorph(row, _hash(day, "isomorph"))


def daily_game(
    session: Session, player: str | None, day: date, *, tolerance: float = DEFAULT_TOLERANCE, budget_s: float = 3.0
) -> Game:
    """The player's game of the date's puzzle: the one they started already, else a new one on the day's puzzle."""
    if player is not None:
        mine = select(Game).where(Game.player == player, Game.daily == day).order_by(Game.created_at).limit(1)
        existing = session.scalars(mine).first()
        if existing is not None:
            return existing
    target = target_for_slider(DAILY_SLIDER)
    served = (
        pinned(session, day)
        or chosen(session, day, tolerance)
        or pool.serve(session, target, tolerance=tolerance, budget_s=budget_s)
    )
    return store.save_new(session, store.served_game(served, DAILY_SLIDER, target, SOURCE, player, daily=day))
