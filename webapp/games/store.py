"""Games: start one on a bank, generated or given puzzle, show it, take entries, verify completion."""

from __future__ import annotations

import functools
import secrets
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from sudoku_engine import difficulty, logic
from sudoku_engine.generate import DEFAULT_TOLERANCE
from sudoku_engine.grid import Grid, cell_name, format_values, is_valid_solution, parse_values
from sudoku_engine.isomorph import canonical
from sudoku_engine.rating import rate
from sudoku_engine.slider import target_for_slider, typical_minutes
from sudoku_engine.solver import solve_count
from sudoku_engine.techniques import BY_ID, CATALOGUE
from sudoku_engine.time_model import TimeEstimate

from ..bank import pool
from ..models import EMPTY_ENTRIES, BankPuzzle, Event, Game, PuzzleTime, utcnow
from . import calibration, playstate
from .calibration import TimeModel
from .playstate import ActionRefused, Change, PlayState

LINK_RATING_TIMEOUT_S = 1.0
RETRIES = 5  # attempts of one change when concurrent requests on the same game keep winning the race
# The board's settings when the game has none of its own (a study sets them per study).
PLAY_DEFAULTS: dict[str, Any] = {"hint_rungs": 4, "autofill": True, "checking": True, "time_limit_s": None}


class PuzzleRejected(ValueError):
    """A puzzle that parses but cannot be played: no solution, several, or nothing left to fill."""


class GivenCell(ValueError):
    """An attempt to change a given."""


class GameFinished(ValueError):
    """An attempt to change a game that is already solved."""


class GamePaused(ValueError):
    """An attempt to change a game while it is paused."""


class GameBusy(RuntimeError):
    """Concurrent requests on one game kept conflicting."""


@dataclass(frozen=True)
class Difficulty:
    """What the game page says about a puzzle's difficulty: D, its zone, its time under the model in force (minutes,
    interval, words) and, once enough people finished it, how long they took."""

    d: float
    label: str
    time: TimeEstimate
    people: calibration.PeopleTimes | None = None


def new_game_from_slider(
    session: Session,
    slider: float,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    budget_s: float = 3.0,
    player: str | None = None,
    refill: Callable[[Session, float], object] | None = None,
) -> Game:
    """Start a game on a puzzle for a slider value: from the bank, else generated within ``budget_s`` seconds; the
    game is ``player``'s (an anonymous player's cookie id) when given. Once it is stored, ``refill`` (the bank's
    ``refill_if_low`` for the app) is asked to make more puzzles near its target when few are left there."""
    target = target_for_slider(slider)
    promised = typical_minutes(slider)  # the prior minutes the slider showed: the served puzzle keeps close to them
    served = pool.serve(session, target, tolerance=tolerance, budget_s=budget_s, minutes=promised, player=player)
    game = save_new(session, served_game(served, slider, target, "slider", player))
    if refill is not None:
        refill(session, target)
    return game


def served_game(
    served: pool.Served, slider: float, target: float, source: str, player: str | None, **fields: Any
) -> Game:
    """A new game on a puzzle served for a slider value and its target D (not yet stored); ``fields`` sets other
    columns."""
    return Game(
        puzzle=served.puzzle,
        solution=served.solution,
        slider=slider,
        target_d=target,
        d=served.d,
        effort=served.effort,
        prior_minutes=served.prior_minutes,
        bank_id=served.bank_id,
        seed=served.seed,
        source=source,
        player=player,
        **fields,
    )


def new_game_from_text(
    session: Session, text: str, *, rating_timeout: float | None = LINK_RATING_TIMEOUT_S, player: str | None = None
) -> Game:
    """Start a game on puzzle text (``player``'s, when given); InvalidPuzzle or PuzzleRejected say why it cannot be
    played.

    Its D comes from the bank when the bank holds the puzzle, else from a rating bounded by ``rating_timeout``
    seconds (left unknown when the rating does not finish in time, so that the page stays fast).
    """
    grid, solution = playable(text)
    known = link_rating(session, grid, rating_timeout)
    game = Game(puzzle=str(grid), solution=str(solution), source="url", player=player)
    if known is not None:
        game.d, game.effort, game.prior_minutes = known.d, known.effort, known.prior_minutes
    return save_new(session, game)


def playable(text: str) -> tuple[Grid, Grid]:
    """The puzzle in ``text`` and its one solution; InvalidPuzzle or PuzzleRejected say why it cannot be played."""
    grid = Grid.parse(text)
    if grid.is_complete:
        raise PuzzleRejected("Every cell of this puzzle is already filled: there is nothing to solve.")
    solutions, solution = solve_count(grid, limit=2)
    if solution is None:
        raise PuzzleRejected("This puzzle has no solution.")
    if solutions > 1:
        raise PuzzleRejected("This puzzle has more than one solution, so it cannot be solved by logic alone.")
    return grid, solution


def link_rating(session: Session, grid: Grid, timeout: float | None) -> pool.Known | None:
    """D, effort and prior minutes of a unique puzzle: known to the bank, or rated within the timeout; None when
    that runs out."""
    known = pool.known_rating(session, grid.values)
    if known is not None:
        return known
    rating = rate(grid.values, timeout=timeout, measures=difficulty.MEASURES)
    return None if rating.timeout else pool.Known(rating.d, rating.effort, rating.predicted_minutes)


def difficulty_of(game: Game, model: TimeModel, people: PuzzleTime | None = None) -> Difficulty | None:
    """The puzzle's D with its zone and its time under the model in force (``calibration.expected``: the one rule
    every page's minutes come from), if D is known; ``people``: what the fit over every game found for it."""
    if game.d is None:
        return None
    shown = calibration.expected(model, game.prior_minutes, game.d, people)
    return Difficulty(d=game.d, label=difficulty.zone(game.d), time=shown.time, people=shown.people)


def puzzle_form(session: Session, game: Game) -> str:
    """The game's puzzle in canonical form (its bank row's, stored so, when it came from the bank)."""
    if game.bank_id is not None:
        stored = session.scalar(select(BankPuzzle.puzzle).where(BankPuzzle.id == game.bank_id))
        if stored is not None:
            return stored
    return format_values(canonical(parse_values(game.puzzle)))


def game_difficulty(session: Session, game: Game, model: TimeModel) -> Difficulty | None:
    """``difficulty_of`` with what the fit in force found for the game's puzzle."""
    if game.d is None:
        return None
    if not model.learned:
        return difficulty_of(game, model)
    found = calibration.puzzle_times(session, model, [puzzle_form(session, game)])
    return difficulty_of(game, model, next(iter(found.values()), None))


def save_new(session: Session, game: Game) -> Game:
    """Store a new game with no entries yet."""
    game.entries = EMPTY_ENTRIES
    session.add(game)
    session.commit()
    return game


def get_game(session: Session, game_id: str) -> Game | None:
    """The game with this id, or None."""
    return session.get(Game, game_id)


def new_view_id() -> str:
    """A fresh id for one page view of a game (the page reports it when it shows the game)."""
    return secrets.token_urlsafe(12)


def open_view(
    session: Session, game: Game, view: str, client_ms: float | None = None, key: str | None = None
) -> Outcome:
    """Page view ``view`` shows the game: start the clock on the first showing, end a pause made by hiding or
    leaving the page, and make it the game's latest view.

    Only the latest view may pause the game by being hidden, so a reloaded or replaced page that reports itself
    hidden afterwards changes nothing. A solved game only takes the view.
    """

    def work(now: datetime) -> Outcome:
        game.view = view
        if game.completed_at is not None:
            return Outcome()
        if game.first_shown_at is None:
            game.first_shown_at = now
            log_event(session, game, now, "show", client_ms, key)
        if game.paused_at is not None and game.pause_reason == "hidden":
            _resume(session, game, now, client_ms, None, "shown")
        return Outcome()

    return run_once(session, game, key, work)


def position(game: Game) -> str:
    """Givens plus the player's digits, 81 characters with '.' for empty cells."""
    return "".join(g if g != "." else e for g, e in zip(game.puzzle, game.entries, strict=True))


def state_of(game: Game) -> PlayState:
    """The game's play state: givens, digits, marks and undo history."""
    return PlayState(
        givens=tuple(0 if ch == "." else int(ch) for ch in game.puzzle),
        entries=[0 if ch == "." else int(ch) for ch in game.entries],
        corner=list(game.corner or [0] * 81),
        centre=list(game.centre or [0] * 81),
        history=[list(action) for action in game.history or []],
        undo_depth=game.undo_depth,
        colour=list(game.colour or [0] * 81),
    )


def store_state(game: Game, state: PlayState) -> None:
    """Write a play state back to the game row (new lists, so the ORM sees the change)."""
    game.entries = "".join(str(d) if d else "." for d in state.entries)
    game.corner = list(state.corner)
    game.centre = list(state.centre)
    game.history = [list(action) for action in state.history]
    game.undo_depth = state.undo_depth
    game.colour = list(state.colour)


@dataclass(frozen=True)
class Action:
    """One request to change the board: a digit, a mark, a clear, auto-candidates, undo or redo; on a selection
    of ``cells`` a digit, a mark, a colour (``digit`` is the colour's number) or an erase."""

    kind: str  # digit, corner, centre, clear, autofill, undo, redo, colour, erase, clear_marks, restart
    cell: int | None = None
    digit: int = 0
    cells: tuple[int, ...] = ()


ACTION_KINDS = ("digit", "corner", "centre", "clear", "autofill", "undo", "redo")
SELECTION_KINDS = ("digit", "corner", "centre", "colour", "erase")
BOARD_KINDS: dict[str, Callable[[PlayState], Change]] = {
    "undo": PlayState.undo,
    "redo": PlayState.redo,
    "autofill": playstate.autofill,
    "clear_marks": playstate.clear_marks,
    "restart": playstate.restart,
}


def _changed_selection(state: PlayState, action: Action) -> Change:
    """Apply an action on a selection of cells (one change, one undo step)."""
    kind, cells = action.kind, action.cells
    if kind == "digit":
        return playstate.place_many(state, cells, action.digit)
    if kind == "colour":
        return playstate.colour_many(state, cells, action.digit)
    if kind == "erase":
        return playstate.erase_many(state, cells)
    return playstate.mark_many(state, cells, action.digit, kind)


def action_change(state: PlayState, action: Action) -> Change:
    """Apply an action to the play state (in play and in a replay); ActionRefused says why it cannot be done."""
    kind, cell = action.kind, action.cell
    if kind in BOARD_KINDS:
        return BOARD_KINDS[kind](state)
    if action.cells:
        return _changed_selection(state, action)
    if cell is None:
        raise ActionRefused(f"a {kind} action needs a cell")
    if kind == "digit":
        return playstate.place(state, cell, action.digit)
    if kind == "clear":
        return playstate.clear(state, cell)
    return playstate.toggle_mark(state, cell, action.digit, kind)


def _event_kind(action: Action, change: Change) -> str:
    """The event name of an applied action (a digit that cleared its cell is a 'clear')."""
    if action.kind == "digit":
        cells = action.cells or (action.cell,)
        return "enter" if any(c in cells and after[0] for c, _b, after in change.cells) else "clear"
    if action.kind in ("corner", "centre"):
        return "mark"
    return "clear" if action.kind == "erase" else action.kind


def _wrong_entries(game: Game, action: Action, change: Change) -> int:
    """How many digits this action put where the solution has another."""
    if action.kind != "digit" or not action.digit:
        return 0
    cells = action.cells or (action.cell,)
    placed = [c for c, _b, after in change.cells if c in cells and after[0] == action.digit]
    return sum(int(game.solution[c]) != action.digit for c in placed)


def _event_fields(action: Action, change: Change) -> dict[str, Any]:
    """The event's cell, digit, mode and detail for an applied action."""
    detail: dict[str, Any] | None = None
    if action.kind in ("undo", "redo", "autofill", "clear_marks", "restart"):
        detail = {"change": change.as_json()}
    cell = action.cell
    if action.cells:
        detail = {"cells": list(action.cells), "change": change.as_json()}
        cell = action.cells[0] if len(action.cells) == 1 else None
    mode = action.kind if action.kind in (*playstate.MARK_KINDS, "colour") else "digit"
    return {"cell": cell, "digit": action.digit or None, "mode": mode, "detail": detail}


@dataclass(frozen=True)
class Outcome:
    """What an action did: whether it solved the puzzle, what to announce, and whether it was a repeat."""

    solved: bool = False
    announce: str = ""
    repeated: bool = False


def setting(game: Game, key: str) -> Any:
    """One board setting of the game: its own (study games), else the default."""
    return (game.settings or {}).get(key, PLAY_DEFAULTS[key])


def time_is_up(game: Game, now: datetime | None = None) -> bool:
    """True when the game has a time limit and its active time has reached it unsolved."""
    limit = setting(game, "time_limit_s")
    return bool(limit) and game.completed_at is None and solve_seconds(game, now) >= float(limit)


def check_open(game: Game, now: datetime | None = None) -> None:
    """Refuse changes to a finished, given-up, timed-out or paused game."""
    if game.completed_at is not None:
        raise GameFinished("This puzzle is already solved; its cells can no longer be changed.")
    if game.gave_up_at is not None:
        raise GameFinished("You gave up on this puzzle; go on to the next one.")
    if time_is_up(game, now):
        raise GameFinished("The time for this puzzle is up; go on to the next one.")
    if game.paused_at is not None:
        raise GamePaused("The game is paused: resume it to go on.")


def _seen(session: Session, game: Game, key: str | None) -> bool:
    """True when an event with this idempotency key is already stored for the game."""
    if key is None:
        return False
    found = session.scalar(select(Event.id).where(Event.game_id == game.id, Event.key == key))
    return found is not None


def run_once(session: Session, game: Game, key: str | None, work: Callable[[datetime], Outcome]) -> Outcome:
    """Run ``work`` on the game and commit, once per idempotency key, retrying when another request won a race."""
    for _attempt in range(RETRIES):
        if _seen(session, game, key):
            return Outcome(repeated=True)
        try:
            outcome = work(utcnow())
            session.commit()
            return outcome
        except StaleDataError:
            session.rollback()
            session.refresh(game)
        except IntegrityError:
            session.rollback()
            session.refresh(game)
            if _seen(session, game, key):
                return Outcome(repeated=True)
            raise
    raise GameBusy("The game is being changed from elsewhere; try again.")


def act(
    session: Session, game: Game, action: Action, client_ms: float | None = None, key: str | None = None
) -> Outcome:
    """Apply a board action, log it as one event and check for completion."""

    def work(now: datetime) -> Outcome:
        check_open(game, now)
        if action.kind == "autofill" and not setting(game, "autofill"):
            raise ActionRefused("Auto-candidates are off for this puzzle.")
        state = state_of(game)
        change = action_change(state, action)
        store_state(game, state)
        kind = _event_kind(action, change)
        game.mistakes += _wrong_entries(game, action, change)
        log_event(session, game, now, kind, client_ms, key, **_event_fields(action, change))
        solved = complete_if_solved(session, game, now)
        return Outcome(solved=solved, announce=announcement(kind, action, change, state))

    return run_once(session, game, key, work)


def log_event(
    session: Session,
    game: Game,
    now: datetime,
    kind: str,
    client_ms: float | None,
    key: str | None,
    **fields: Any,
) -> None:
    """Add one event row for the game."""
    session.add(Event(game_id=game.id, kind=kind, server_time=now, client_ms=client_ms, key=key, **fields))


def announcement(kind: str, action: Action, change: Change, state: PlayState) -> str:
    """The sentence the page's live region reads out after an action."""
    if action.cells and (len(action.cells) > 1 or kind == "colour"):
        return selection_announcement(kind, action, change)
    if kind == "enter" and action.cell is not None:
        text = f"{action.digit} in row {action.cell // 9 + 1}, column {action.cell % 9 + 1}."
        if action.cell in playstate.conflicts(state.values()):
            text += f" Conflict: another {action.digit} shares a row, column or box."
        return text
    if kind == "clear" and action.cell is not None:
        return f"Row {action.cell // 9 + 1}, column {action.cell % 9 + 1} cleared."
    if kind == "mark":
        return ""
    count = len({c for c, _b, _a in change.cells} | {c for c, _b, _a in change.colours})
    if kind == "restart":
        return f"Restarted: {cells_text(count)} cleared. The clock keeps running: the solve time counts from the start."
    names = {"autofill": "Candidates filled in", "undo": "Undone", "redo": "Redone", "clear_marks": "Marks cleared"}
    return f"{names[kind]}: {cells_text(count)} changed." if kind in names else ""


def cells_text(count: int) -> str:
    """'1 cell', '3 cells'."""
    return f"{count} cell{'s' if count != 1 else ''}"


def selection_announcement(kind: str, action: Action, change: Change) -> str:
    """The sentence read out after an action on several selected cells."""
    count = len({c for c, _b, _a in change.cells} | {c for c, _b, _a in change.colours})
    if kind == "enter":
        return f"{action.digit} in {cells_text(count)}."
    if kind == "clear":
        return f"{cells_text(count).capitalize()} cleared."
    if kind == "colour":
        return f"Colour {playstate.COLOURS[action.digit - 1]}: {cells_text(count)}." if action.digit else ""
    return ""


def enter(session: Session, game: Game, cell: int, digit: int, client_ms: float | None) -> bool:
    """Put a digit (0 clears) in a cell and log it; True when this entry solved the puzzle."""
    if game.puzzle[cell] != ".":
        raise GivenCell(f"{cell_name(cell)} is a given and cannot be changed.")
    action = Action("digit", cell, digit) if digit else Action("clear", cell)
    return act(session, game, action, client_ms).solved


def pause(
    session: Session,
    game: Game,
    reason: str,
    client_ms: float | None = None,
    key: str | None = None,
    view: str | None = None,
) -> Outcome:
    """Pause: the board hides and the clock stops. ``reason`` 'button', or 'hidden' (from page ``view``)."""

    def work(now: datetime) -> Outcome:
        if game.completed_at is not None or game.paused_at is not None:
            return Outcome()
        if reason == "hidden" and view != game.view:
            return Outcome()  # a page that is no longer the game's latest view
        game.paused_at = now
        game.pause_reason = reason
        log_event(session, game, now, "pause", client_ms, key, detail={"reason": reason})
        return Outcome(announce="Paused. The board is hidden until you resume.")

    return run_once(session, game, key, work)


def resume(session: Session, game: Game, client_ms: float | None = None, key: str | None = None) -> Outcome:
    """Resume a paused game; the paused interval is added to the paused time."""

    def work(now: datetime) -> Outcome:
        if game.completed_at is not None or game.paused_at is None:
            return Outcome()
        _resume(session, game, now, client_ms, key, "button")
        return Outcome(announce="Resumed.")

    return run_once(session, game, key, work)


def _resume(session: Session, game: Game, now: datetime, client_ms: float | None, key: str | None, how: str) -> None:
    """End the current pause and log it with its length."""
    assert game.paused_at is not None
    interval = max(0.0, (now - game.paused_at).total_seconds())
    game.paused_seconds += interval
    game.paused_at = None
    game.pause_reason = None
    log_event(session, game, now, "resume", client_ms, key, detail={"paused_s": round(interval, 3), "by": how})


def set_checking(
    session: Session, game: Game, on: bool, client_ms: float | None = None, key: str | None = None
) -> Outcome:
    """Turn mistake checking on or off (a logged setting)."""

    def work(now: datetime) -> Outcome:
        if on and not setting(game, "checking"):
            raise ActionRefused("Mistake checking is off for this puzzle.")
        if game.check_mistakes == on:
            return Outcome()
        game.check_mistakes = on
        log_event(session, game, now, "check", client_ms, key, detail={"on": on})
        wrong = len(wrong_cells(game))
        told = f" {wrong} wrong digit{'s' if wrong != 1 else ''} marked." if on else ""
        return Outcome(announce=f"Mistake checking {'on' if on else 'off'}.{told}")

    return run_once(session, game, key, work)


def wrong_cells(game: Game) -> set[int]:
    """Cells whose digit differs from the solution."""
    return {c for c, ch in enumerate(game.entries) if ch != "." and ch != game.solution[c]}


def solve_seconds(game: Game, now: datetime | None = None) -> float:
    """The solve time so far: from first display to completion (or now), minus paused time (``Game.solve_seconds``
    once solved)."""
    if game.completed_at is not None and game.solve_seconds is not None:
        return game.solve_seconds
    started = game.first_shown_at or game.created_at
    end = game.paused_at or now or utcnow()
    return max(0.0, (end - started).total_seconds() - game.paused_seconds)


def is_solved(game: Game) -> bool:
    """True when the position is a valid full grid that keeps the givens and matches the stored solution."""
    current = position(game)
    values = [0 if ch == "." else int(ch) for ch in current]
    givens = [0 if ch == "." else int(ch) for ch in game.puzzle]
    return is_valid_solution(givens, values) and current == game.solution


def complete_if_solved(session: Session, game: Game, now: datetime) -> bool:
    """Mark the game completed with its solve time and a 'complete' event, if the position solves it."""
    if game.completed_at is not None or not is_solved(game):
        return False
    game.solve_seconds = solve_seconds(game, now)
    game.completed_at = now
    game.hint = None
    session.add(Event(game_id=game.id, kind="complete", server_time=now))
    return True


def hints_by_rung(session: Session, game: Game) -> list[int]:
    """How many hint rungs of each level (1-4) the player revealed."""
    counts = [0, 0, 0, 0]
    rows = session.execute(
        select(Event.rung, func.count()).where(Event.game_id == game.id, Event.kind == "hint").group_by(Event.rung)
    )
    for rung, count in rows:
        if rung is not None and 1 <= rung <= 4:
            counts[rung - 1] = count
    return counts


def techniques_needed(game: Game) -> list[tuple[str, int]]:
    """The techniques the logic solver uses on the puzzle, easiest first, with counts (the game's stored ones,
    else computed without writing: a page view changes nothing)."""
    counts = game.techniques if game.techniques is not None else technique_counts(game.puzzle)
    order = {t.id: i for i, t in enumerate(CATALOGUE)}
    found = sorted(counts.items(), key=lambda item: order.get(item[0], len(order)))
    return [(BY_ID[t].name if t in BY_ID else t, n) for t, n in found]


@functools.lru_cache(maxsize=256)
def technique_counts(puzzle: str) -> Mapping[str, int]:
    """How often the logic solver uses each technique on a puzzle, read-only (kept for the 256 puzzles asked about
    lately: a pure function of the puzzle's text, the same for every player and request)."""
    return MappingProxyType(dict(Counter(step.technique for step in logic.solve(puzzle).steps)))


def format_duration(seconds: float) -> str:
    """A solve time as m:ss, or h:mm:ss from one hour on."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
