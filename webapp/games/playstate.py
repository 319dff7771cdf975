"""What a player has written on a board and how each action changes it, with undo and redo.

Pure logic, no database: ``webapp.games.store`` loads a ``PlayState`` from a game row, applies one action and stores it
back. A cell holds a digit or pencil marks of two kinds: corner marks (where a digit may go in its box) and centre
marks (the cell's candidates); marks are 9-bit masks, bit d-1 for digit d. Any cell, givens too, may also carry a
colour mark (0 for none, else 1..9, one of ``COLOURS``). Every action yields a ``Change``: the cells it touched, each
with its state before and after, so undo and redo replay it backwards or forwards. Placing a digit clears the cell's
own marks and removes the digit from the marks of its peers, in the same change. The ``*_many`` actions act on a
selection of cells as one change (one undo step).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sudoku_engine.grid import PEERS, UNITS, bit, cell_name

MARK_KINDS = ("corner", "centre")
CellState = tuple[int, int, int]  # digit (0 when empty), corner mask, centre mask
# The colour marks, 1..9 (0: none), by name: the Okabe-Ito palette (told apart with colour-blindness) plus two greys.
COLOURS = ("grey", "orange", "sky blue", "green", "yellow", "blue", "vermilion", "pink", "black")


class ActionRefused(ValueError):
    """An action the rules do not allow (changing a given, marking a filled cell, nothing to undo)."""


@dataclass(frozen=True)
class Change:
    """The cells one action changed: (cell, state before, state after), in cell order, and the colour marks it
    changed: (cell, colour before, colour after)."""

    cells: tuple[tuple[int, CellState, CellState], ...]
    colours: tuple[tuple[int, int, int], ...] = ()

    def __bool__(self) -> bool:
        """True when the action changed anything."""
        return bool(self.cells or self.colours)

    def as_json(self) -> list[list[int]]:
        """Rows of [cell, digit, corner, centre, colour before, digit, corner, centre, colour after], for storage.

        A part a row leaves as it was (its marks or its colour) is written with equal before and after values.
        """
        rows: dict[int, list[int]] = {}
        for cell, before, after in self.cells:
            rows[cell] = [cell, *before, 0, *after, 0]
        for cell, before_colour, after_colour in self.colours:
            row = rows.setdefault(cell, [cell, 0, 0, 0, 0, 0, 0, 0, 0])
            row[4], row[8] = before_colour, after_colour
        return [rows[cell] for cell in sorted(rows)]

    @classmethod
    def from_json(cls, rows: Iterable[Sequence[int]]) -> Change:
        """The change stored by ``as_json``; rows of 7 ints (stored before colour marks) change no colour."""
        cells: list[tuple[int, CellState, CellState]] = []
        colours: list[tuple[int, int, int]] = []
        for row in rows:
            if len(row) == 7:
                cells.append((row[0], (row[1], row[2], row[3]), (row[4], row[5], row[6])))
                continue
            before, after = (row[1], row[2], row[3]), (row[5], row[6], row[7])
            if before != after:
                cells.append((row[0], before, after))
            if row[4] != row[8]:
                colours.append((row[0], row[4], row[8]))
        return cls(tuple(cells), tuple(colours))

    def inverse(self) -> Change:
        """The change that undoes this one."""
        return Change(
            tuple((cell, after, before) for cell, before, after in self.cells),
            tuple((cell, after, before) for cell, before, after in self.colours),
        )


@dataclass
class PlayState:
    """Givens, the player's digits and marks, and the undo history (``undo_depth`` changes at its end undone)."""

    givens: tuple[int, ...]
    entries: list[int]
    corner: list[int]
    centre: list[int]
    history: list[list[list[int]]] = field(default_factory=list)
    undo_depth: int = 0
    colour: list[int] = field(default_factory=lambda: [0] * 81)

    def values(self) -> list[int]:
        """Givens plus the player's digits, 0 for an empty cell."""
        return [g or e for g, e in zip(self.givens, self.entries, strict=True)]

    def cell(self, cell: int) -> CellState:
        """The state of one cell."""
        return (self.entries[cell], self.corner[cell], self.centre[cell])

    def _set(self, cell: int, state: CellState) -> None:
        """Write one cell's state."""
        self.entries[cell], self.corner[cell], self.centre[cell] = state

    def apply(self, change: Change) -> None:
        """Write the after-states of a change."""
        for cell, _before, after in change.cells:
            self._set(cell, after)
        for cell, _before_colour, after_colour in change.colours:
            self.colour[cell] = after_colour

    @property
    def can_undo(self) -> bool:
        """True when an action is there to undo."""
        return self.undo_depth < len(self.history)

    @property
    def can_redo(self) -> bool:
        """True when an undone action is there to redo."""
        return self.undo_depth > 0

    def record(self, change: Change) -> Change:
        """Apply a new action's change and push it on the history (dropping what was undone); no-ops stay out."""
        if not change:
            return change
        if self.undo_depth:
            del self.history[len(self.history) - self.undo_depth :]
            self.undo_depth = 0
        self.apply(change)
        self.history.append(change.as_json())
        return change

    def undo(self) -> Change:
        """Take back the last action not yet undone; the change made."""
        if not self.can_undo:
            raise ActionRefused("There is nothing to undo.")
        change = Change.from_json(self.history[len(self.history) - self.undo_depth - 1]).inverse()
        self.apply(change)
        self.undo_depth += 1
        return change

    def redo(self) -> Change:
        """Do again the last undone action; the change made."""
        if not self.can_redo:
            raise ActionRefused("There is nothing to redo.")
        change = Change.from_json(self.history[len(self.history) - self.undo_depth])
        self.apply(change)
        self.undo_depth -= 1
        return change


def _open_cell(state: PlayState, cell: int) -> None:
    """Refuse an action on a given."""
    if state.givens[cell]:
        raise ActionRefused(f"{cell_name(cell)} is a given and cannot be changed.")


def _changes(state: PlayState, after: dict[int, CellState], colours: dict[int, int] | None = None) -> Change:
    """The change from the current state to ``after`` and the colour marks ``colours`` (what does not differ left
    out)."""
    rows = tuple((cell, state.cell(cell), new) for cell, new in sorted(after.items()) if state.cell(cell) != new)
    painted = sorted((colours or {}).items())
    return Change(rows, tuple((cell, state.colour[cell], new) for cell, new in painted if state.colour[cell] != new))


def placement(state: PlayState, cell: int, digit: int) -> dict[int, CellState]:
    """After-states of putting ``digit`` in ``cell``: its marks go, and the digit leaves its peers' marks."""
    after = {cell: (digit, 0, 0)}
    mask = ~bit(digit)
    for peer in PEERS[cell]:
        entry, corner, centre = state.cell(peer)
        after[peer] = (entry, corner & mask, centre & mask)
    return after


def place(state: PlayState, cell: int, digit: int) -> Change:
    """Put a digit in a cell; the same digit again clears it (digit 0 clears too)."""
    _open_cell(state, cell)
    if digit == 0 or state.entries[cell] == digit:
        return clear(state, cell)
    return state.record(_changes(state, placement(state, cell, digit)))


def clear(state: PlayState, cell: int) -> Change:
    """Clear a cell: its digit if it has one, else its marks."""
    _open_cell(state, cell)
    entry, corner, centre = state.cell(cell)
    after = (0, corner, centre) if entry else (0, 0, 0)
    return state.record(_changes(state, {cell: after}))


def toggle_mark(state: PlayState, cell: int, digit: int, kind: str) -> Change:
    """Add a corner or centre mark of ``digit`` to an empty cell, or take it away if it is there."""
    _open_cell(state, cell)
    if kind not in MARK_KINDS:
        raise ActionRefused(f"{kind!r} is not a kind of pencil mark: use corner or centre.")
    if state.entries[cell]:
        raise ActionRefused(f"{cell_name(cell)} holds a digit: clear it before pencilling marks in.")
    entry, corner, centre = state.cell(cell)
    if kind == "corner":
        corner ^= bit(digit)
    else:
        centre ^= bit(digit)
    return state.record(_changes(state, {cell: (entry, corner, centre)}))


def candidates(values: Sequence[int]) -> list[int]:
    """Each empty cell's digits that no placed peer holds (0 for a filled cell)."""
    masks = [0] * 81
    for cell in range(81):
        if not values[cell]:
            seen = 0
            for peer in PEERS[cell]:
                if values[peer]:
                    seen |= bit(values[peer])
            masks[cell] = 0x1FF & ~seen
    return masks


def autofill(state: PlayState) -> Change:
    """Fill every empty cell's centre marks with its candidates from the placed digits."""
    values = state.values()
    masks = candidates(values)
    after = {cell: (0, state.corner[cell], masks[cell]) for cell in range(81) if not values[cell]}
    return state.record(_changes(state, after))


def apply_step(
    state: PlayState,
    placements: Iterable[tuple[int, int]],
    eliminations: Iterable[tuple[int, int]],
    clears: Iterable[int] = (),
    restores: Iterable[tuple[int, int]] = (),
) -> Change:
    """One action made of a hint's step: clear wrong cells, put back marks, place digits, remove candidates.

    A cell losing a candidate that has no centre marks yet first gets its candidates from the placed digits, so
    the elimination shows as marks.
    """
    after: dict[int, CellState] = {}

    def current(cell: int) -> CellState:
        return after.get(cell, state.cell(cell))

    for cell in clears:
        after[cell] = (0, 0, 0)
    for cell, digit in restores:
        entry, corner, centre = current(cell)
        after[cell] = (entry, corner, centre | bit(digit))
    values = [g or current(c)[0] for c, g in enumerate(state.givens)]
    masks = candidates(values)
    for cell, digit in eliminations:
        entry, corner, centre = current(cell)
        after[cell] = (entry, corner & ~bit(digit), (centre or masks[cell]) & ~bit(digit))
    for cell, digit in placements:
        after[cell] = (digit, 0, 0)
        for peer in PEERS[cell]:
            entry, corner, centre = current(peer)
            after[peer] = (entry, corner & ~bit(digit), centre & ~bit(digit))
    return state.record(_changes(state, after))


def _open_cells(state: PlayState, cells: Iterable[int]) -> list[int]:
    """The cells of a selection that are not givens; ActionRefused when there is none."""
    found = sorted({cell for cell in cells if not state.givens[cell]})
    if not found:
        raise ActionRefused("The selected cells are givens and cannot be changed.")
    return found


def place_many(state: PlayState, cells: Iterable[int], digit: int) -> Change:
    """Put a digit in every selected cell that is not a given (0, or the digit they all hold already, clears them)."""
    open_cells = _open_cells(state, cells)
    if digit == 0 or all(state.entries[cell] == digit for cell in open_cells):
        return state.record(_changes(state, {cell: (0, *state.cell(cell)[1:]) for cell in open_cells}))
    after: dict[int, CellState] = {}
    for cell in open_cells:
        after[cell] = (digit, 0, 0)
        for peer in PEERS[cell]:
            entry, corner, centre = after.get(peer, state.cell(peer))
            after[peer] = (entry, corner & ~bit(digit), centre & ~bit(digit))
    return state.record(_changes(state, after))


def mark_many(state: PlayState, cells: Iterable[int], digit: int, kind: str) -> Change:
    """Toggle a corner or centre mark on the selected empty cells: taken away when all have it, else added to all."""
    if kind not in MARK_KINDS:
        raise ActionRefused(f"{kind!r} is not a kind of pencil mark: use corner or centre.")
    empty = [cell for cell in _open_cells(state, cells) if not state.entries[cell]]
    if not empty:
        raise ActionRefused("The selected cells hold digits: clear them before pencilling marks in.")
    index = 1 if kind == "corner" else 2
    adding = not all(state.cell(cell)[index] & bit(digit) for cell in empty)
    after: dict[int, CellState] = {}
    for cell in empty:
        marks = list(state.cell(cell))
        marks[index] = marks[index] | bit(digit) if adding else marks[index] & ~bit(digit)
        after[cell] = (marks[0], marks[1], marks[2])
    return state.record(_changes(state, after))


def colour_many(state: PlayState, cells: Iterable[int], colour: int) -> Change:
    """Give the selected cells (givens too) a colour mark; taken away when all have it already (0 takes any away)."""
    if not 0 <= colour <= len(COLOURS):
        raise ActionRefused(f"There is no colour {colour}: use 1 to {len(COLOURS)}.")
    chosen = sorted(set(cells))
    if colour and all(state.colour[cell] == colour for cell in chosen):
        colour = 0
    return state.record(_changes(state, {}, {cell: colour for cell in chosen}))


def erase_many(state: PlayState, cells: Iterable[int]) -> Change:
    """Erase in the selected cells: their digits if any holds one, else their pencil marks, else their colours."""
    chosen = sorted(set(cells))
    open_cells = [cell for cell in chosen if not state.givens[cell]]
    if any(state.entries[cell] for cell in open_cells):
        return state.record(_changes(state, {cell: (0, *state.cell(cell)[1:]) for cell in open_cells}))
    if any(state.corner[cell] or state.centre[cell] for cell in open_cells):
        return state.record(_changes(state, {cell: (state.entries[cell], 0, 0) for cell in open_cells}))
    return state.record(_changes(state, {}, {cell: 0 for cell in chosen}))


def clear_marks(state: PlayState) -> Change:
    """Take every corner, centre and colour mark off the board, as one action."""
    after = {cell: (state.entries[cell], 0, 0) for cell in range(81)}
    return state.record(_changes(state, after, {cell: 0 for cell in range(81)}))


def restart(state: PlayState) -> Change:
    """Clear the player's digits and every mark, as one action (undo brings them back)."""
    return state.record(_changes(state, {cell: (0, 0, 0) for cell in range(81)}, {cell: 0 for cell in range(81)}))


def conflicts(values: Sequence[int]) -> set[int]:
    """Cells whose digit is repeated in one of their houses."""
    found: set[int] = set()
    for unit in UNITS:
        seen: dict[int, int] = {}
        for cell in unit:
            digit = values[cell]
            if not digit:
                continue
            if digit in seen:
                found.update((cell, seen[digit]))
            else:
                seen[digit] = cell
    return found
