"""A game rebuilt from its stored events: the board after each event, through the same rules as play.

Every board action's event names what was done (kind, cell or selected cells, digit, mode), so the replay turns it
back into the ``store.Action`` the game received and applies it with ``store.action_change`` to a ``PlayState`` that
starts from the givens: digits, marks, colours, auto-candidates, clearing marks, restart, undo and redo go through
``playstate`` exactly as they did in play. A hint's Apply is the one action whose effect came from the hint rather
than from the rules of play: its event stores the change it made, and the replay applies that change. When an
event's stored change differs from what the rules give (or the rules refuse it), the stored change wins and the
step says so; an event without enough to rebuild it leaves the board as it was and says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sudoku_engine.grid import cell_name

from ..models import EMPTY_ENTRIES, Event, Game
from .playstate import ActionRefused, Change, PlayState
from .store import BOARD_KINDS, Action, action_change, state_of

BOARD_EVENT_KINDS = ("enter", "clear", "mark", "colour", *BOARD_KINDS, "apply")


@dataclass(frozen=True)
class Step:
    """One event of the game and the board after it: digits, marks and colours, the clock, and how it was rebuilt
    (``note`` is empty when the rules of play rebuilt it as stored)."""

    event: Event
    state: PlayState
    checking: bool
    elapsed_s: float
    solve_seconds: float
    note: str = ""

    @property
    def cell_text(self) -> str:
        """The event's cell (r1c1) or its selected cells, empty for a board-wide action."""
        if self.event.cell is not None:
            return cell_name(self.event.cell)
        cells = (self.event.detail or {}).get("cells") or []
        return " ".join(cell_name(c) for c in cells if isinstance(c, int) and 0 <= c < 81)


def start_state(game: Game) -> PlayState:
    """The board before the first event: the givens, no digit, no mark, no history."""
    blank = Game(puzzle=game.puzzle, solution=game.solution, entries=EMPTY_ENTRIES, undo_depth=0)
    return state_of(blank)


def copied(state: PlayState) -> PlayState:
    """A copy of a state that the next action may change without touching this one (history rows are never
    changed in place, so they are shared)."""
    return replace(
        state,
        entries=list(state.entries),
        corner=list(state.corner),
        centre=list(state.centre),
        history=list(state.history),
        colour=list(state.colour),
    )


def action_of(event: Event) -> Action | None:
    """The board action an event records, or None for an event that changes no board (or a hint's Apply)."""
    kind, detail = event.kind, event.detail or {}
    digit = event.digit or 0
    if kind in BOARD_KINDS:
        return Action(kind)
    if kind not in ("enter", "clear", "mark", "colour"):
        return None
    cells = detail.get("cells")
    if cells:
        mode = event.mode if event.mode in ("corner", "centre", "colour") else ("digit" if digit else "erase")
        return Action(mode, cells=tuple(int(c) for c in cells), digit=digit)
    if event.cell is None:
        return None
    if event.mode in ("corner", "centre"):
        return Action(event.mode, event.cell, digit)
    return Action("digit", event.cell, digit) if digit else Action("clear", event.cell)


def stored_change(event: Event) -> Change | None:
    """The change an event's detail stores, if it stores one."""
    rows = (event.detail or {}).get("change")
    return Change.from_json(rows) if isinstance(rows, list) else None


def same_change(left: Change, right: Change) -> bool:
    """Whether two changes write the same cells the same way (old rows without colours compare by their cells)."""
    return Change.from_json(left.as_json()) == Change.from_json(right.as_json())


def replayed(state: PlayState, event: Event) -> tuple[PlayState, str]:
    """The board after one event, and a note when the rules of play could not rebuild it as stored."""
    stored = stored_change(event)
    if event.kind == "apply":
        if stored is None:
            return state, "This Apply stores no change: the board is left as it was."
        after = copied(state)
        after.record(stored)
        return after, ""
    action = action_of(event)
    if action is None:
        return state, ""
    after = copied(state)
    try:
        change = action_change(after, action)
        if stored is None or same_change(change, stored):
            return after, ""
        refused = "the rules of play give another change"
    except ActionRefused as error:
        refused = str(error)
    if stored is None:
        return state, f"Not rebuilt ({refused}): the board is left as it was."
    after = copied(state)
    after.apply(stored)
    return after, f"Rebuilt from the stored change ({refused})."


@dataclass
class Clock:
    """The game's own time at each event, from the server's timestamps: since the first showing, and active (paused
    time taken off)."""

    start: datetime
    paused_s: float = 0.0
    paused_at: datetime | None = None

    def at(self, event: Event) -> tuple[float, float]:
        """Elapsed and active seconds at this event (a pause stops the active time until its resume)."""
        now = event.server_time
        if event.kind == "resume" and self.paused_at is not None:
            self.paused_s += max(0.0, (now - self.paused_at).total_seconds())
            self.paused_at = None
        elapsed = max(0.0, (now - self.start).total_seconds())
        stopped = (now - self.paused_at).total_seconds() if self.paused_at is not None else 0.0
        if event.kind == "pause" and self.paused_at is None:
            self.paused_at = now
        return elapsed, max(0.0, elapsed - self.paused_s - max(0.0, stopped))


def replay(game: Game, events: Sequence[Event]) -> list[Step]:
    """Every event of the game in order, each with the board after it."""
    state = start_state(game)
    checking = False
    first = game.first_shown_at or (events[0].server_time if events else game.created_at)
    clock = Clock(first)
    steps = []
    for event in events:
        state, note = replayed(state, event)
        if event.kind == "check":
            checking = bool((event.detail or {}).get("on"))
        elapsed, active = clock.at(event)
        steps.append(Step(event, state, checking, elapsed, active, note))
    return steps


def board_of(state: PlayState) -> dict[str, Any]:
    """The digits (81 characters, '.' empty) and marks of a state, as a game row stores them."""
    return {
        "entries": "".join(str(d) if d else "." for d in state.entries),
        "corner": list(state.corner),
        "centre": list(state.centre),
        "colour": list(state.colour),
    }
