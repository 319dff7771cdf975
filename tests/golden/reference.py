"""A reference logic solver for the golden corpus, written from the techniques' definitions (imports no engine code).

The solving rule is the one the engine documents (ARCHITECTURE.md, ``logic.solve``): at every position take the
first step of the first applicable technique, techniques in order of their Sudoku Explainer rating, ties to the
one listed first. It covers the start of that order, singles to Hidden Triple; a position where none of them
applies is past what this reference can judge (``Beyond``), because the next technique in the order (Skyscraper,
SE 4.0) is not written here.

Houses are numbered rows 0-8, columns 9-17, boxes 18-26 (box b holds rows 3(b//3)..+2 and columns 3(b%3)..+2);
cells 0-80 row by row; a box's cells row by row. Each technique searches houses, digits and cell sets in that
order, and one step is one pattern: a single places one digit; locked candidates, a subset or a fish removes
every candidate that one pattern removes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations

Cands = list[set[int]]
Step = tuple[str, list[tuple[int, int]], list[tuple[int, int]]]  # technique, placements, eliminations

ROWS = [[r * 9 + c for c in range(9)] for r in range(9)]
COLS = [[r * 9 + c for r in range(9)] for c in range(9)]
BOXES = [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
HOUSES = ROWS + COLS + BOXES
HOUSES_OF = [[h for h in range(27) if cell in HOUSES[h]] for cell in range(81)]
PEERS = [sorted({p for h in HOUSES_OF[c] for p in HOUSES[h]} - {c}) for c in range(81)]

# Published ratings: Sudoku Explainer's scale and HoDoKu's default score per step, for the techniques covered here.
SE = {
    "full_house": 1.0,
    "hidden_single_box": 1.2,
    "hidden_single_line": 1.5,
    "naked_single": 2.3,
    "pointing": 2.6,
    "claiming": 2.8,
    "locked_pair": 3.0,
    "naked_pair": 3.0,
    "x_wing": 3.2,
    "hidden_pair": 3.4,
    "locked_triple": 3.6,
    "naked_triple": 3.6,
    "swordfish": 3.8,
    "hidden_triple": 4.0,
}
HODOKU = {
    "full_house": 4,
    "hidden_single_box": 14,
    "hidden_single_line": 14,
    "naked_single": 4,
    "pointing": 50,
    "claiming": 50,
    "locked_pair": 40,
    "naked_pair": 60,
    "x_wing": 140,
    "hidden_pair": 70,
    "locked_triple": 60,
    "naked_triple": 80,
    "swordfish": 150,
    "hidden_triple": 100,
}
SINGLES = ("full_house", "hidden_single_box", "hidden_single_line", "naked_single")


class Beyond(Exception):
    """The position needs a technique after Hidden Triple in the order."""


class Board:
    """Digits and candidate sets; placing a digit removes it from the peers' candidates."""

    def __init__(self, puzzle: str) -> None:
        """The board of an 81-character puzzle (``.`` or ``0`` for a blank)."""
        self.values = [int(ch) if ch.isdigit() else 0 for ch in puzzle]
        self.cands: Cands = [set() for _ in range(81)]
        for cell in range(81):
            if not self.values[cell]:
                self.cands[cell] = set(range(1, 10)) - {self.values[p] for p in PEERS[cell]}

    def apply(self, step: Step) -> None:
        """Place the step's digits, then remove its eliminations."""
        for cell, digit in step[1]:
            self.values[cell] = digit
            self.cands[cell] = set()
            for peer in PEERS[cell]:
                self.cands[peer].discard(digit)
        for cell, digit in step[2]:
            self.cands[cell].discard(digit)

    def places(self, house: int, digit: int) -> list[int]:
        """The cells of a house where a digit is still a candidate."""
        return [c for c in HOUSES[house] if digit in self.cands[c]]

    def open_cells(self, house: int) -> list[int]:
        """The empty cells of a house."""
        return [c for c in HOUSES[house] if not self.values[c]]

    def fillable(self) -> int:
        """How many empty cells a naked or a hidden single could fill now."""
        cells = {c for c in range(81) if not self.values[c] and len(self.cands[c]) == 1}
        for house in range(27):
            for digit in range(1, 10):
                where = self.places(house, digit)
                if len(where) == 1:
                    cells.add(where[0])
        return len(cells)


def full_house(board: Board) -> Iterator[Step]:
    """The one empty cell of a house takes the digit missing there."""
    for house in range(27):
        empty = board.open_cells(house)
        if len(empty) == 1:
            missing = set(range(1, 10)) - {board.values[c] for c in HOUSES[house]}
            if len(missing) == 1 and missing <= board.cands[empty[0]]:
                yield "full_house", [(empty[0], missing.pop())], []


def _hidden_singles(board: Board, houses: range, name: str) -> Iterator[Step]:
    """A digit with one place left in a house goes there (houses in order, digits ascending)."""
    for house in houses:
        for digit in range(1, 10):
            where = board.places(house, digit)
            if len(where) == 1:
                yield name, [(where[0], digit)], []


def hidden_single_box(board: Board) -> Iterator[Step]:
    """Hidden single in a box."""
    return _hidden_singles(board, range(18, 27), "hidden_single_box")


def hidden_single_line(board: Board) -> Iterator[Step]:
    """Hidden single in a row, then a column."""
    return _hidden_singles(board, range(18), "hidden_single_line")


def naked_single(board: Board) -> Iterator[Step]:
    """A cell with one candidate takes it."""
    for cell in range(81):
        if not board.values[cell] and len(board.cands[cell]) == 1:
            yield "naked_single", [(cell, min(board.cands[cell]))], []


def _line_of(cells: list[int]) -> int | None:
    """The row, else the column, that holds all the cells (None when neither does)."""
    rows, cols = {c // 9 for c in cells}, {c % 9 for c in cells}
    if len(rows) == 1:
        return rows.pop()
    return 9 + cols.pop() if len(cols) == 1 else None


def pointing(board: Board) -> Iterator[Step]:
    """A digit whose places (two or more) in a box lie in one line leaves the rest of that line."""
    for box in range(18, 27):
        for digit in range(1, 10):
            where = board.places(box, digit)
            line = _line_of(where) if len(where) >= 2 else None
            if line is not None:
                removed = [(c, digit) for c in board.places(line, digit) if c not in HOUSES[box]]
                if removed:
                    yield "pointing", [], removed


def claiming(board: Board) -> Iterator[Step]:
    """A digit whose places (two or more) in a line lie in one box leaves the rest of that box."""
    for line in range(18):
        for digit in range(1, 10):
            where = board.places(line, digit)
            boxes = {HOUSES_OF[c][2] for c in where}
            if len(where) >= 2 and len(boxes) == 1:
                removed = [(c, digit) for c in board.places(boxes.pop(), digit) if c not in HOUSES[line]]
                if removed:
                    yield "claiming", [], removed


def _mini_line_groups(box: int, size: int) -> list[tuple[int, ...]]:
    """The groups of ``size`` cells of a box that share a row or a column, ordered by their positions in the box."""
    thirds = [[3 * r + i for i in range(3)] for r in range(3)] + [[c + 3 * i for i in range(3)] for c in range(3)]
    positions = sorted({group for third in thirds for group in combinations(third, size)})
    return [tuple(HOUSES[box][i] for i in group) for group in positions]


def _locked(board: Board, size: int, name: str) -> Iterator[Step]:
    """``size`` cells of a box inside one line holding ``size`` digits between them (each 2 to ``size``): those
    digits leave the rest of the box and of the line."""
    for box in range(18, 27):
        for group in _mini_line_groups(box, size):
            if any(board.values[c] or not 2 <= len(board.cands[c]) <= size for c in group):
                continue
            digits = set().union(*(board.cands[c] for c in group))
            line = _line_of(list(group))
            if len(digits) != size or line is None:
                continue
            removed = {
                (c, d)
                for house in (box, line)
                for c in HOUSES[house]
                if c not in group
                for d in board.cands[c] & digits
            }
            if removed:
                yield name, [], sorted(removed)


def locked_pair(board: Board) -> Iterator[Step]:
    """Locked pair."""
    return _locked(board, 2, "locked_pair")


def locked_triple(board: Board) -> Iterator[Step]:
    """Locked triple."""
    return _locked(board, 3, "locked_triple")


NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _naked(board: Board, size: int) -> Iterator[Step]:
    """``size`` cells of a house with ``size`` digits between them: the digits leave the house's other cells."""
    for house in range(27):
        empty = board.open_cells(house)
        if len(empty) <= size:
            continue
        small = [c for c in empty if 2 <= len(board.cands[c]) <= size]
        for group in combinations(small, size):
            digits = set().union(*(board.cands[c] for c in group))
            if len(digits) != size:
                continue
            removed = [(c, d) for c in empty if c not in group for d in sorted(board.cands[c] & digits)]
            if removed:
                yield f"naked_{NAMES[size]}", [], removed


def _hidden(board: Board, size: int) -> Iterator[Step]:
    """``size`` digits confined to ``size`` cells of a house: those cells lose every other digit."""
    for house in range(27):
        if len(board.open_cells(house)) <= size:
            continue
        digits = [d for d in range(1, 10) if 2 <= len(board.places(house, d)) <= size]
        for group in combinations(digits, size):
            cells = sorted({c for d in group for c in board.places(house, d)})
            if len(cells) != size:
                continue
            removed = [(c, d) for c in cells for d in sorted(board.cands[c] - set(group))]
            if removed:
                yield f"hidden_{NAMES[size]}", [], removed


def naked_pair(board: Board) -> Iterator[Step]:
    """Naked pair."""
    return _naked(board, 2)


def naked_triple(board: Board) -> Iterator[Step]:
    """Naked triple."""
    return _naked(board, 3)


def hidden_pair(board: Board) -> Iterator[Step]:
    """Hidden pair."""
    return _hidden(board, 2)


def hidden_triple(board: Board) -> Iterator[Step]:
    """Hidden triple."""
    return _hidden(board, 3)


def _fish(board: Board, size: int, name: str) -> Iterator[Step]:
    """``size`` base lines of a digit (rows, then columns), each with 2 to ``size`` places, whose places lie in
    ``size`` cross lines: the digit leaves the rest of those cross lines. Digit by digit, base sets in order."""
    for digit in range(1, 10):
        for rows in (True, False):
            cell = (lambda line, x: line * 9 + x) if rows else (lambda line, x: x * 9 + line)
            spots = [{x for x in range(9) if digit in board.cands[cell(line, x)]} for line in range(9)]
            lines = [line for line in range(9) if 2 <= len(spots[line]) <= size]
            for base in combinations(lines, size):
                cover = set().union(*(spots[line] for line in base))
                if len(cover) > size:
                    continue
                removed = [(cell(line, x), digit) for line in range(9) if line not in base for x in spots[line] & cover]
                if removed:
                    yield name, [], sorted(removed)


def x_wing(board: Board) -> Iterator[Step]:
    """X-Wing."""
    return _fish(board, 2, "x_wing")


def swordfish(board: Board) -> Iterator[Step]:
    """Swordfish."""
    return _fish(board, 3, "swordfish")


# The order the solver tries them in: by SE rating, ties in this order.
ORDER: tuple[Callable[[Board], Iterator[Step]], ...] = (
    full_house,
    hidden_single_box,
    hidden_single_line,
    naked_single,
    pointing,
    claiming,
    locked_pair,
    naked_pair,
    x_wing,
    hidden_pair,
    locked_triple,
    naked_triple,
    swordfish,
    hidden_triple,
)


def next_step(board: Board) -> Step:
    """The first step of the first technique that applies; Beyond when none does."""
    for finder in ORDER:
        step = next(finder(board), None)
        if step is not None:
            return step
    raise Beyond


# One step of a trace: technique, empty cells before it, cells a single could fill before it.
Taken = tuple[str, int, int]


def trace(puzzle: str) -> list[Taken]:
    """The solve of a puzzle, step by step, with each position's empty and fillable cells; Beyond when stuck."""
    board = Board(puzzle)
    taken: list[Taken] = []
    while 0 in board.values:
        step = next_step(board)
        taken.append((step[0], board.values.count(0), board.fillable()))
        board.apply(step)
    return taken


def counts(taken: list[Taken]) -> dict[str, int]:
    """Steps per technique, in the solving order."""
    order = [f.__name__ for f in ORDER]
    tally: dict[str, int] = {}
    for name, _, _ in taken:
        tally[name] = tally.get(name, 0) + 1
    return {name: tally[name] for name in order if name in tally}
