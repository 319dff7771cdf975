"""The hint ladder inside a game: each Hint press reveals the next rung, Apply carries out the step.

The hint is computed by ``sudoku_engine.hints`` from the player's current position (wrong digits first, then
missing candidates, then the easiest technique) and kept on the game with the rung reached, so a reload shows it
again. It belongs to the position it was computed for: once the board or the marks change, the next press starts
a new hint at rung 1. Every press is an event with its rung.

The player's centre marks take part only when they are candidate lists (``keeps_candidate_lists``: the player
asked for auto-candidates in this game, or every empty cell has centre marks); partial marks are notes, neither
checked nor used, and the hint comes from the placed digits alone. Apply removes candidates only from cells that
have centre marks: it never writes a list the player did not have, and says in words what it could not write.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from sudoku_engine import hints
from sudoku_engine.grid import UNITS

from ..models import Event, Game
from . import playstate, wording
from .playstate import ActionRefused
from .store import (
    Outcome,
    check_open,
    complete_if_solved,
    log_event,
    position,
    run_once,
    setting,
    state_of,
    store_state,
)

RUNGS = 4
Pair = tuple[int, int]  # a cell and a digit


@dataclass(frozen=True)
class GameHint:
    """A hint as its game keeps it: the position and marks it belongs to (``signature``), the rung reached (0:
    nothing shown yet), the technique and the four rungs' texts, what Apply does (placements, eliminations, cells
    cleared, candidates restored) and what the rungs highlight (the area's cells, the pattern's and the target's
    cells and candidates)."""

    signature: str
    rung: int
    technique: str
    rungs: tuple[str, ...]
    placements: tuple[Pair, ...]
    eliminations: tuple[Pair, ...]
    clears: tuple[int, ...]
    restores: tuple[Pair, ...]
    area: tuple[int, ...]
    cause: tuple[int, ...]
    effect: tuple[int, ...]
    cause_marks: tuple[Pair, ...] = ()
    effect_marks: tuple[Pair, ...] = ()

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any]) -> GameHint:
        """The hint read back from the game row's JSON (a hint stored without its marks highlights none)."""
        return cls(
            signature=str(stored["signature"]),
            rung=int(stored["rung"]),
            technique=str(stored["technique"]),
            rungs=tuple(str(text) for text in stored["rungs"]),
            placements=_pairs(stored["placements"]),
            eliminations=_pairs(stored["eliminations"]),
            clears=_cells(stored["clears"]),
            restores=_pairs(stored["restores"]),
            area=_cells(stored["area"]),
            cause=_cells(stored["cause"]),
            effect=_cells(stored["effect"]),
            cause_marks=_pairs(stored.get("cause_marks", ())),
            effect_marks=_pairs(stored.get("effect_marks", ())),
        )

    def as_dict(self) -> dict[str, Any]:
        """The hint as the game row stores it: JSON with lists for the tuples."""
        return {
            "signature": self.signature,
            "rung": self.rung,
            "technique": self.technique,
            "rungs": list(self.rungs),
            "placements": _lists(self.placements),
            "eliminations": _lists(self.eliminations),
            "clears": list(self.clears),
            "restores": _lists(self.restores),
            "area": list(self.area),
            "cause": list(self.cause),
            "effect": list(self.effect),
            "cause_marks": _lists(self.cause_marks),
            "effect_marks": _lists(self.effect_marks),
        }


def _cells(values: Iterable[int]) -> tuple[int, ...]:
    """Cell numbers as a tuple."""
    return tuple(int(cell) for cell in values)


def _pairs(rows: Iterable[Sequence[int]]) -> tuple[Pair, ...]:
    """(cell, digit) pairs from the lists JSON keeps them in."""
    return tuple((int(cell), int(digit)) for cell, digit in rows)


def _lists(pairs: Iterable[Pair]) -> list[list[int]]:
    """(cell, digit) pairs as JSON keeps them: a list of two-item lists."""
    return [list(pair) for pair in pairs]


def signature(game: Game) -> str:
    """The position and centre marks a hint is valid for."""
    state = state_of(game)
    marks = ",".join(str(state.centre[c]) if not v else "" for c, v in enumerate(state.values()))
    return position(game) + "|" + marks


def player_marks(game: Game) -> dict[int, int]:
    """The centre marks of empty cells that have some."""
    state = state_of(game)
    values = state.values()
    return {c: m for c, m in enumerate(state.centre) if m and not values[c]}


def asked_for_candidates(session: Session, game: Game) -> bool:
    """True when the player pressed Auto-candidates in this game."""
    found = select(Event.id).where(Event.game_id == game.id, Event.kind == "autofill").limit(1)
    return session.execute(found).first() is not None


def keeps_candidate_lists(session: Session, game: Game) -> bool:
    """True when the centre marks are the player's candidate lists: they asked for auto-candidates in this game,
    or every empty cell has centre marks. Otherwise the marks are partial notes."""
    state = state_of(game)
    values = state.values()
    if all(state.centre[c] for c in range(81) if not values[c]):
        return True
    return asked_for_candidates(session, game)


def hint_marks(session: Session, game: Game) -> dict[int, int] | None:
    """The marks a hint is checked against and computed from: the candidate lists, or none for partial notes."""
    return player_marks(game) if keeps_candidate_lists(session, game) else None


def current(game: Game) -> GameHint | None:
    """The stored hint, if it still belongs to the board as it is."""
    stored = game.hint
    if not stored or game.completed_at is not None or stored.get("signature") != signature(game):
        return None
    return GameHint.from_stored(stored)


def _computed(session: Session, game: Game, budget_s: float | None) -> GameHint:
    """A new hint for the current position (rung 0: nothing revealed yet); past ``budget_s`` seconds of search the
    hint reveals a digit instead (``reveal_digit``) and says so."""
    found = hints.hint(game.puzzle, position(game), hint_marks(session, game), budget_s=budget_s)
    step = found.step
    if step is None or found.technique is None:
        raise ActionRefused("The board is full: there is nothing left to hint at.")
    clears = [c for c, _d in step.cause] if found.technique == "wrong_entry" else []
    restores = _pairs(step.cause) if found.technique == "missing_candidate" else ()
    effect = {c for c, _d in step.placements} | {c for c, _d in step.eliminations} | set(clears)
    effect |= {c for c, _d in step.cause} if restores else set()
    area = sorted({c for unit in hints.area_units(step) for c in UNITS[unit]})
    return GameHint(
        signature=signature(game),
        rung=0,
        technique=found.technique,
        rungs=tuple(found.rungs),
        placements=_pairs(step.placements),
        eliminations=_pairs(step.eliminations),
        clears=tuple(clears),
        restores=restores,
        area=tuple(area),
        cause=tuple(sorted(set(hints.step_cells(step)) - effect)),
        effect=tuple(sorted(effect)),
        cause_marks=_pairs(step.cause),
        effect_marks=_pairs((*step.eliminations, *step.placements)),
    )


def next_rung(
    session: Session,
    game: Game,
    client_ms: float | None = None,
    key: str | None = None,
    budget_s: float | None = None,
) -> Outcome:
    """Reveal the next rung of the hint for the current board (a new hint, searched for at most ``budget_s``
    seconds, when the board changed)."""

    def work(now: datetime) -> Outcome:
        check_open(game, now)
        allowed = int(setting(game, "hint_rungs"))
        if allowed <= 0:
            raise ActionRefused("Hints are off for this puzzle.")
        hint = current(game) or _computed(session, game, budget_s)
        if hint.rung >= min(RUNGS, allowed):
            return Outcome(announce="Hint: " + hint.rungs[hint.rung - 1] if hint.rung else "")
        hint = replace(hint, rung=hint.rung + 1)
        game.hint = hint.as_dict()
        detail = {"technique": hint.technique}
        log_event(session, game, now, "hint", client_ms, key, rung=hint.rung, detail=detail)
        return Outcome(announce="Hint: " + hint.rungs[hint.rung - 1])

    return run_once(session, game, key, work)


def unmarked_removals(state: playstate.PlayState, hint: GameHint) -> tuple[Pair, ...]:
    """The step's eliminations in cells without centre marks: nothing there to remove them from."""
    return tuple((cell, digit) for cell, digit in hint.eliminations if not state.centre[cell])


def _unwritten(removals: tuple[Pair, ...], changed: bool) -> str:
    """The sentence that says what Apply could not write, in the engine's names (the page words them)."""
    if not removals:
        return ""
    what = wording.outcome_words((), removals, plain=False)
    unmarked = "those cells have no candidate marks to take it from"
    if changed:
        return f" It also shows that {what}, but {unmarked}: mark their candidates (or use Auto-candidates) to keep it."
    return (
        f"This step shows that {what}, but {unmarked}, so nothing was written: mark their candidates (or use "
        "Auto-candidates) to keep it, then Apply again."
    )


def apply(session: Session, game: Game, client_ms: float | None = None, key: str | None = None) -> Outcome:
    """Carry out the fully revealed hint's step as one undoable action; eliminations in cells without centre marks
    are explained, not written (and the hint stays when that is all the step does)."""

    def work(now: datetime) -> Outcome:
        check_open(game, now)
        hint = current(game)
        if hint is None or hint.rung < RUNGS:
            raise ActionRefused("There is no fully revealed hint for the board as it is: ask for a hint first.")
        state = state_of(game)
        unwritten = unmarked_removals(state, hint)
        change = playstate.apply_step(
            state,
            placements=hint.placements,
            eliminations=[pair for pair in hint.eliminations if pair not in unwritten],
            clears=hint.clears,
            restores=hint.restores,
        )
        detail = {"technique": hint.technique, "change": change.as_json()}
        log_event(session, game, now, "apply", client_ms, key, detail=detail)
        if not change.cells:
            return Outcome(announce=_unwritten(unwritten, changed=False))
        store_state(game, state)
        game.hint = None
        solved = complete_if_solved(session, game, now)
        count = len(change.cells)
        changed = f"Hint applied: {count} cell{'s' if count != 1 else ''} changed."
        return Outcome(solved=solved, announce=changed + _unwritten(unwritten, changed=True))

    return run_once(session, game, key, work)


@dataclass(frozen=True)
class Highlight:
    """What the revealed rungs highlight: a role per cell, and the candidates of the pattern and of the effect."""

    roles: dict[int, str]
    cause: dict[int, tuple[int, ...]]
    effect: dict[int, tuple[int, ...]]


def _by_cell(pairs: Iterable[Pair]) -> dict[int, tuple[int, ...]]:
    """Digits grouped by cell."""
    grouped: dict[int, tuple[int, ...]] = {}
    for cell, digit in pairs:
        grouped[cell] = (*grouped.get(cell, ()), digit)
    return grouped


def highlight(game: Game) -> Highlight:
    """The area from rung 2; from rung 3 the pattern's and the target's cells and candidates."""
    hint = current(game)
    if hint is None or hint.rung < 2:
        return Highlight({}, {}, {})
    roles = {cell: "area" for cell in hint.area}
    if hint.rung < 3:
        return Highlight(roles, {}, {})
    roles.update({cell: "cause" for cell in hint.cause})
    roles.update({cell: "effect" for cell in hint.effect})
    return Highlight(roles, _by_cell(hint.cause_marks), _by_cell(hint.effect_marks))
