"""Games: start one on a bank, generated or given puzzle, show it, take entries, verify completion (DESIGN 7.2)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import String, func, update
from sqlalchemy.orm import Session

from sudoku_engine import difficulty
from sudoku_engine.generate import DEFAULT_TOLERANCE
from sudoku_engine.grid import Grid, cell_name, is_valid_solution
from sudoku_engine.rating import rate
from sudoku_engine.slider import target_for_slider
from sudoku_engine.solver import solve_count

from . import pool
from .db import changed_rows
from .models import EMPTY_ENTRIES, Event, Game, utcnow

LINK_RATING_TIMEOUT_S = 1.0


class PuzzleRejected(ValueError):
    """A puzzle that parses but cannot be played: no solution, several, or nothing left to fill."""


class GivenCell(ValueError):
    """An attempt to change a given."""


class GameFinished(ValueError):
    """An attempt to change a game that is already solved."""


@dataclass(frozen=True)
class CellView:
    """What the board shows in one cell."""

    cell: int
    digit: int
    given: bool

    @property
    def name(self) -> str:
        """The cell's name, r1c1..r9c9."""
        return cell_name(self.cell)

    @property
    def row(self) -> int:
        """Row index 0..8."""
        return self.cell // 9

    @property
    def col(self) -> int:
        """Column index 0..8."""
        return self.cell % 9


@dataclass(frozen=True)
class Difficulty:
    """What the game page says about a puzzle's difficulty."""

    d: float
    label: str
    predicted_minutes: float


def new_game_from_slider(
    session: Session, slider: float, *, tolerance: float = DEFAULT_TOLERANCE, budget_s: float = 3.0
) -> Game:
    """Start a game on a puzzle for a slider value: from the bank, else generated within ``budget_s`` seconds."""
    target = target_for_slider(slider)
    served = pool.serve(session, target, tolerance=tolerance, budget_s=budget_s)
    game = Game(
        puzzle=served.puzzle,
        solution=served.solution,
        slider=slider,
        target_d=target,
        d=served.d,
        bank_id=served.bank_id,
        seed=served.seed,
        source="slider",
    )
    return _saved(session, game)


def new_game_from_text(
    session: Session, text: str, *, rating_timeout: float | None = LINK_RATING_TIMEOUT_S
) -> Game:
    """Start a game on puzzle text; InvalidPuzzle or PuzzleRejected say why it cannot be played.

    Its D comes from the bank when the bank holds the puzzle, else from a rating bounded by ``rating_timeout``
    seconds (left unknown when the rating does not finish in time, so that the page stays fast).
    """
    grid = Grid.parse(text)
    if grid.is_complete:
        raise PuzzleRejected("Every cell of this puzzle is already filled: there is nothing to solve.")
    solutions, solution = solve_count(grid, limit=2)
    if solution is None:
        raise PuzzleRejected("This puzzle has no solution.")
    if solutions > 1:
        raise PuzzleRejected("This puzzle has more than one solution, so it cannot be solved by logic alone.")
    d = link_d(session, grid, rating_timeout)
    return _saved(session, Game(puzzle=str(grid), solution=str(solution), d=d, source="url"))


def link_d(session: Session, grid: Grid, timeout: float | None) -> float | None:
    """D of a unique puzzle: known to the bank, or rated within the timeout; None when that runs out."""
    known = pool.known_d(session, grid.values)
    if known is not None:
        return known
    rating = rate(grid.values, timeout=timeout, measures=difficulty.MEASURES)
    return None if rating.timeout else rating.d


def difficulty_of(game: Game) -> Difficulty | None:
    """The puzzle's D with its zone and predicted minutes, when the game knows its D."""
    if game.d is None:
        return None
    return Difficulty(d=game.d, label=difficulty.zone(game.d), predicted_minutes=difficulty.predicted_minutes(game.d))


def _saved(session: Session, game: Game) -> Game:
    """Store a new game with no entries yet."""
    game.entries = EMPTY_ENTRIES
    session.add(game)
    session.commit()
    return game


def get_game(session: Session, game_id: str) -> Game | None:
    """The game with this id, or None."""
    return session.get(Game, game_id)


def record_show(session: Session, game: Game) -> None:
    """Note the first display of a game: its start time and a 'show' event (once, even under races)."""
    if game.first_shown_at is not None:
        return
    now = utcnow()
    first = update(Game).where(Game.id == game.id, Game.first_shown_at.is_(None)).values(first_shown_at=now)
    if changed_rows(session, first) == 1:
        session.add(Event(game_id=game.id, kind="show", server_time=now))
    session.commit()
    session.refresh(game)


def position(game: Game) -> str:
    """Givens plus the player's digits, 81 characters with '.' for empty cells."""
    return "".join(g if g != "." else e for g, e in zip(game.puzzle, game.entries, strict=True))


def board(game: Game) -> list[CellView]:
    """The 81 cells as the board shows them."""
    return [cell_view(game, cell) for cell in range(81)]


def cell_view(game: Game, cell: int) -> CellView:
    """One cell as the board shows it."""
    given = game.puzzle[cell] != "."
    char = game.puzzle[cell] if given else game.entries[cell]
    return CellView(cell=cell, digit=0 if char == "." else int(char), given=given)


def enter(session: Session, game: Game, cell: int, digit: int, client_ms: float | None) -> bool:
    """Put a digit (0 clears) in a cell and log it; True when this entry solved the puzzle."""
    if game.puzzle[cell] != ".":
        raise GivenCell(f"{cell_name(cell)} is a given and cannot be changed.")
    if game.completed_at is not None:
        raise GameFinished("This puzzle is already solved; its cells can no longer be changed.")
    now = utcnow()
    # One UPDATE per entry, so concurrent entries in other cells never overwrite each other.
    new_entries = func.substr(Game.entries, 1, cell, type_=String) + (str(digit) if digit else ".")
    new_entries = new_entries + func.substr(Game.entries, cell + 2, type_=String)
    change = update(Game).where(Game.id == game.id, Game.completed_at.is_(None)).values(entries=new_entries)
    if changed_rows(session, change) != 1:
        session.rollback()
        raise GameFinished("This puzzle is already solved; its cells can no longer be changed.")
    kind = "enter" if digit else "clear"
    session.add(Event(game_id=game.id, kind=kind, cell=cell, digit=digit or None, client_ms=client_ms, server_time=now))
    session.flush()
    session.refresh(game)
    solved = _complete_if_solved(session, game, now)
    session.commit()
    session.refresh(game)
    return solved


def is_solved(game: Game) -> bool:
    """True when the position is a valid full grid that keeps the givens and matches the stored solution."""
    current = position(game)
    values = [0 if ch == "." else int(ch) for ch in current]
    givens = [0 if ch == "." else int(ch) for ch in game.puzzle]
    return is_valid_solution(givens, values) and current == game.solution


def _complete_if_solved(session: Session, game: Game, now: datetime) -> bool:
    """Mark the game completed with its solve time and a 'complete' event, if the position solves it."""
    if not is_solved(game):
        return False
    started = game.first_shown_at or game.created_at
    complete = (
        update(Game)
        .where(Game.id == game.id, Game.completed_at.is_(None))
        .values(completed_at=now, solve_seconds=(now - started).total_seconds())
    )
    if changed_rows(session, complete) != 1:
        return False
    session.add(Event(game_id=game.id, kind="complete", server_time=now))
    return True


def format_duration(seconds: float) -> str:
    """A solve time as m:ss, or h:mm:ss from one hour on."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
