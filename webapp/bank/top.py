"""Fresh puzzles at the top of the slider: a scheduled job that walks the neighbourhoods of the bank's hardest
puzzles (``sudoku_engine.neighbourhood``) and banks what it finds (source ``neighbour``), so the top is not only
the shipped seed set served again.

The job runs while the bank holds fewer than ``TOP_UNUSED`` unused puzzles of D ``FLOOR`` or more, one slice of
``TOP_SEARCH_S`` seconds at a time, from a start drawn at random among those puzzles (shipped seed rows and earlier
finds). Each consumer's schedule offers it, so several consumers on several hosts search at once, each from its own
start with its own random walk; the bank's canonical form keeps a puzzle two of them found out (the second insert
adds nothing), and a slice that stops midway leaves only whole records (each added in its own transaction).
``flask pool top`` runs a slice at once.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass

from flask import Flask
from sqlalchemy import false, func, select
from sqlalchemy.orm import Session

from sudoku_engine import neighbourhood
from sudoku_engine.grid import parse_values
from sudoku_engine.solver import solve

from .. import db
from ..models import BankPuzzle
from . import pool

JOB = "top-search"
FLOOR = 9.0  # the D of forcing nets: where targeted generation cannot reach
SOURCE = "neighbour"
SCHEDULED, NOW = 0, 1
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Slice:
    """What one slice of the search did: its start, the puzzles it found and how many were new to the bank."""

    start_id: int
    found: int
    added: int


def unused_top(session: Session) -> int:
    """Unused bank rows of D FLOOR or more."""
    return session.scalar(select(func.count()).where(BankPuzzle.used == false(), BankPuzzle.d >= FLOOR)) or 0


def start_row(session: Session, rng: random.Random) -> BankPuzzle | None:
    """A bank row of D FLOOR or more drawn at random (used or not), or None when there is none."""
    ids = list(session.scalars(select(BankPuzzle.id).where(BankPuzzle.d >= FLOOR).order_by(BankPuzzle.id)))
    return session.get(BankPuzzle, rng.choice(ids)) if ids else None


def run_slice(session: Session, seconds: float, seed: int | None = None) -> Slice | None:
    """Walk from a random top row for ``seconds`` and bank the finds; None when the bank has no top row."""
    rng = random.Random(seed)
    start = start_row(session, rng)
    if start is None:
        return None
    values = parse_values(start.puzzle)
    finds = neighbourhood.search(values, FLOOR, seconds, rng.randrange(2**63), set(), start.d)
    added = 0
    for find in finds:
        solution = solve(find.values)
        assert solution is not None  # a find has exactly one solution
        added += pool.add(session, [pool.record_of(find.values, solution.values, find.rating, SOURCE)])
    return Slice(start.id, len(finds), added)


def search_job(app: Flask, item: int) -> None:
    """The job: a slice when asked for now, or on the schedule while the bank is short of unused top puzzles."""
    seconds = float(app.config["TOP_SEARCH_S"])
    if seconds <= 0:
        return
    with app.app_context(), db.sessions_of(app)() as session:
        if item != NOW and unused_top(session) >= int(app.config["TOP_UNUSED"]):
            return
        done = run_slice(session, seconds)
        if done is not None:
            log.info("top search from bank row %s: %s found, %s new", done.start_id, done.found, done.added)
