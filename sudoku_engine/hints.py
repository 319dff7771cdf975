"""The hint ladder for a player's current position (ARCHITECTURE.md, Data flows: a hint).

Computed from the position, never from a stored path. First the player's digits are checked against the
solution: a wrong entry is reported before anything else. Then the player's own pencil marks, if given:
a mark set that lacks the true digit is reported next, since every deduction from it could mislead.
Then the easiest applicable step by the logic solver's rule (the lowest SE-like rating, a chain's length
bonus included; ties to the technique that comes first); among that technique's applications of that rating, the
one that unlocks the most placements (its own placements plus the singles available right after it) wins, the
first found on a tie. The hint is revealed in four rungs: 1 the technique, 2 the house or area, 3 the cells and digits,
4 the full step.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

from . import deadline, logic
from .board import Board, Step
from .grid import (
    UNITS_OF,
    Cell,
    Grid,
    InvalidPuzzle,
    bit,
    cell_name,
    parse_position,
    unit_name,
)
from .solver import PuzzleLike, as_values, solve_count
from .techniques import BY_ID, CATALOGUE, Technique
from .techniques.common import digit_list, names, plural
from .techniques.singles import single_cells


class NotUnique(ValueError):
    """Hints need a puzzle with exactly one solution."""


@dataclass(frozen=True)
class Hint:
    """A hint: what is wrong first, else the easiest step, as four rungs of increasing detail."""

    puzzle: Grid
    position: Grid
    wrong_entries: tuple[Cell, ...]
    technique: str | None
    rungs: tuple[str, ...]
    step: Step | None

    def as_dict(self) -> dict[str, object]:
        """The JSON record of the ``hint`` command (ARCHITECTURE.md, Contracts)."""
        return {
            "puzzle": str(self.puzzle),
            "position": str(self.position),
            "wrong_entries": [cell_name(c) for c in self.wrong_entries],
            "technique": self.technique,
            "rungs": list(self.rungs),
            "step": self.step.as_dict() if self.step else None,
        }


def _position_values(position: PuzzleLike) -> tuple[int, ...]:
    """The values of a player's position, where two equal digits in a unit are a mistake, not bad input."""
    return parse_position(position) if isinstance(position, str) else as_values(position)


def _check_position(givens: tuple[int, ...], position: tuple[int, ...]) -> None:
    """The position must keep every given."""
    for cell, given in enumerate(givens):
        if given and position[cell] != given:
            raise InvalidPuzzle(f"the position changes the given {given} at {cell_name(cell)}")


def _wrong_entry_hint(cells: list[Cell], position: tuple[int, ...]) -> tuple[tuple[str, ...], Step]:
    """Rungs and step that point at the first wrong digit."""
    cell, digit = cells[0], position[cells[0]]
    count = "One of your digits is" if len(cells) == 1 else f"{len(cells)} of your digits are"
    text = f"{cell_name(cell)} holds {digit}, which is not its digit in the solution: clear it."
    rungs = (
        f"{count} wrong.",
        f"Look at {unit_name(UNITS_OF[cell][2])}.",
        f"{cell_name(cell)} is wrong.",
        text,
    )
    return rungs, Step("wrong_entry", cause=((cell, digit),), cells=(cell,), text=text)


def _missing_mark_hint(cell: Cell, digit: int) -> tuple[tuple[str, ...], Step]:
    """Rungs and step that point at a pencil-mark set lacking the true digit."""
    text = f"The pencil marks of {cell_name(cell)} lack {digit}, which belongs there: put it back before going on."
    rungs = (
        "One of your pencil marks is missing a digit.",
        f"Look at {unit_name(UNITS_OF[cell][2])}.",
        f"Check the pencil marks of {cell_name(cell)}.",
        text,
    )
    return rungs, Step("missing_candidate", cause=((cell, digit),), cells=(cell,), text=text)


def unlocks(board: Board, step: Step) -> int:
    """Placements a step makes plus the singles available right after it."""
    after = board.copy()
    after.apply(step)
    return len(step.placements) + len(single_cells(after))


def easiest_step(board: Board) -> Step | None:
    """The easiest applicable step (lowest rating, then catalogue order: ``logic.easiest`` over every application);
    among the equally rated applications of its technique, the one that unlocks the most. StepTooLong when a time
    limit (``deadline``) passes first."""
    best = logic.easiest(board, CATALOGUE, logic.every_progress)
    return max(best, key=lambda step: unlocks(board, step)) if best else None


def step_cells(step: Step) -> tuple[Cell, ...]:
    """The cells a step is about: its pattern, else the cells it fills."""
    return step.cause_cells() or tuple(c for c, _ in step.placements)


def area_units(step: Step) -> tuple[int, ...]:
    """The houses rung 2 points at: the step's own, or the box of its first cell."""
    return step.units or (UNITS_OF[step_cells(step)[0]][2],)


def _area(step: Step) -> str:
    """Rung 2: the houses of the step, or the box of its first cell."""
    return "Look at " + " and ".join(unit_name(u) for u in area_units(step)) + "."


def _focus(step: Step) -> str:
    """Rung 3: the cells and digits the step is about."""
    cells = step_cells(step)
    digits = sorted({d for _, d in step.placements} | {d for _, d in step.eliminations})
    return f"Focus on {names(cells)} and {plural(digits, 'digit', 'digits')} {digit_list(digits)}."


def ladder(step: Step) -> tuple[str, ...]:
    """The four rungs of a technique step."""
    name = BY_ID[step.technique].name
    article = "an" if name[0] in "AEIOX" else "a"  # an X-Wing, an ALS-XZ; a Unique Rectangle, a Hidden Single
    return (f"Try {article} {name}.", _area(step), _focus(step), step.text)


def _board_with_marks(position: tuple[int, ...], givens: tuple[int, ...], marks: Mapping[Cell, int] | None) -> Board:
    """The position's board, narrowed by the player's pencil marks where there are some.

    The puzzle's givens go with it: the player's digits are not givens (Avoidable Rectangles rest on that).
    """
    board = Board.from_values(position, givens)
    for cell, mask in (marks or {}).items():
        if not position[cell]:
            board.cands[cell] &= mask
    return board


def _reveal_hint(board: Board, truth: tuple[int, ...], reached: Technique) -> tuple[tuple[str, ...], Step]:
    """Rungs and step that reveal one digit, when the easiest step takes too long to find: the solution's digit of
    the empty cell with the fewest candidates (the first such cell)."""
    cell = min((c for c in range(81) if not board.values[c]), key=lambda c: (board.cands[c].bit_count(), c))
    digit = truth[cell]
    text = f"{cell_name(cell)} is {digit}: placing it is the help this hint can give."
    rungs = (
        f"No simple step is left here: the next one is a {reached.name} or harder, which takes too long to work "
        "out, so this hint reveals a digit.",
        f"Look at {unit_name(UNITS_OF[cell][2])}.",
        f"Focus on {cell_name(cell)}.",
        text,
    )
    return rungs, Step("reveal_digit", placements=((cell, digit),), cells=(cell,), text=text)


def hint(
    puzzle: PuzzleLike,
    position: PuzzleLike | None = None,
    marks: Mapping[Cell, int] | None = None,
    *,
    budget_s: float | None = None,
) -> Hint:
    """The hint for a position of a puzzle; ``marks`` maps cells to the player's pencil-mark masks. With
    ``budget_s`` the search for the easiest step stops at that many seconds, and the hint reveals a digit instead
    (technique ``reveal_digit``), saying which technique it had reached."""
    started = time.perf_counter()
    givens = as_values(puzzle)
    current = _position_values(position) if position is not None else givens
    _check_position(givens, current)
    count, solution = solve_count(givens, limit=2)
    if count != 1 or solution is None:
        raise NotUnique("hints need a puzzle with exactly one solution")
    truth = solution.values
    wrong = [c for c in range(81) if current[c] and current[c] != truth[c]]

    def made(technique: str | None, rungs: tuple[str, ...], step: Step | None) -> Hint:
        return Hint(Grid(givens), Grid(current), tuple(wrong), technique, rungs, step)

    if wrong:
        return made("wrong_entry", *_wrong_entry_hint(wrong, current))
    if all(current):
        return made(None, (), None)
    lacking = [c for c, m in sorted((marks or {}).items()) if not current[c] and not m & bit(truth[c])]
    if lacking:
        return made("missing_candidate", *_missing_mark_hint(lacking[0], truth[lacking[0]]))
    board = _board_with_marks(current, givens, marks)
    try:
        with deadline.until(None if budget_s is None else started + budget_s):
            step = easiest_step(board)
    except logic.StepTooLong as late:
        return made("reveal_digit", *_reveal_hint(board, truth, late.reached))
    if step is None:
        raise RuntimeError("no technique applies, yet the catalogue ends with bifurcation")
    return made(step.technique, ladder(step), step)
