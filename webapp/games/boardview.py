"""What each cell of the board shows: digit or marks, conflict and mistake cues, hint highlights, its spoken name.

The page renders these views, and an action's answer carries only the cells whose view changed (``changed``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_engine.grid import cell_name, digits_of

from ..models import Game
from . import playstate
from .hints import Highlight, highlight
from .store import state_of, wrong_cells

HINT_ROLE_WORDS = {"area": "hint area", "cause": "hint pattern", "effect": "hint target"}


@dataclass(frozen=True)
class CellView:
    """One cell as the board shows it."""

    cell: int
    digit: int
    given: bool
    corner: tuple[int, ...] = ()
    centre: tuple[int, ...] = ()
    conflict: bool = False
    mistake: bool = False
    hint: str = ""  # "", "area", "cause" or "effect"
    cause_digits: tuple[int, ...] = ()  # candidates of the hint's pattern in this cell
    effect_digits: tuple[int, ...] = ()  # candidates the hint removes or places here
    colour: int = 0  # the colour mark, 0 for none, else 1..9 (playstate.COLOURS)

    def mark_class(self, digit: int) -> str:
        """The classes of a mark: its digit, and whether the hint's pattern or effect is about it."""
        names = f"m m{digit}"
        if digit in self.cause_digits:
            names += " cause"
        if digit in self.effect_digits:
            names += " target"
        return names

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

    @property
    def classes(self) -> str:
        """The cell's CSS classes: kind, box edges, cues."""
        names = ["cell", "given" if self.given else "entry"]
        if self.col in (2, 5):
            names.append("box-right")
        if self.row in (2, 5):
            names.append("box-bottom")
        if self.col == 8:
            names.append("last-col")
        if self.row == 8:
            names.append("last-row")
        if self.conflict:
            names.append("conflict")
        if self.mistake:
            names.append("mistake")
        if self.hint:
            names.append(f"hint-{self.hint}")
        if self.colour:
            names.append(f"colour-{self.colour}")
        return " ".join(names)

    @property
    def label(self) -> str:
        """What a screen reader says: 'Row 3, column 5, empty, candidates 1 4 7'."""
        parts = [f"Row {self.row + 1}, column {self.col + 1}"]
        if self.given:
            parts.append(f"given {self.digit}")
        elif self.digit:
            parts.append(str(self.digit))
        else:
            parts.append("empty")
            if self.corner:
                parts.append("corner marks " + " ".join(map(str, self.corner)))
            if self.centre:
                parts.append("candidates " + " ".join(map(str, self.centre)))
        if self.colour:
            parts.append(f"colour {playstate.COLOURS[self.colour - 1]}")
        if self.conflict:
            parts.append("conflict")
        if self.mistake:
            parts.append("wrong digit")
        if self.hint:
            parts.append(HINT_ROLE_WORDS[self.hint])
        return ", ".join(parts)


def board(game: Game) -> list[CellView]:
    """The 81 cells as the board shows them."""
    wrong = wrong_cells(game) if game.check_mistakes else set()
    return state_board(state_of(game), wrong, highlight(game))


def state_board(state: playstate.PlayState, wrong: set[int], shown: Highlight | None = None) -> list[CellView]:
    """The 81 cells of a play state, with the cells marked wrong and the hint's highlights when given."""
    values = state.values()
    clashes = playstate.conflicts(values)
    shown = shown or Highlight({}, {}, {})
    return [
        CellView(
            cell=cell,
            digit=values[cell],
            given=bool(state.givens[cell]),
            corner=() if values[cell] else digits_of(state.corner[cell]),
            centre=() if values[cell] else digits_of(state.centre[cell]),
            conflict=cell in clashes,
            mistake=cell in wrong,
            hint=shown.roles.get(cell, ""),
            cause_digits=shown.cause.get(cell, ()),
            effect_digits=shown.effect.get(cell, ()),
            colour=state.colour[cell],
        )
        for cell in range(81)
    ]


def cell_view(game: Game, cell: int) -> CellView:
    """One cell as the board shows it."""
    return board(game)[cell]


def changed(before: list[CellView], after: list[CellView]) -> list[CellView]:
    """The cells whose view differs."""
    return [new for old, new in zip(before, after, strict=True) if old != new]
