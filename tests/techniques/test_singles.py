"""The singles rules of techniques.singles: hand-worked positions, and every position of corpus traces against the
rules written out cell by cell and house by house, and against the solution."""

from __future__ import annotations

import pytest
from helpers.corpus import corpus_file, read_puzzles
from helpers.techniques import assert_steps_valid, find_all, solution_of

from sudoku_engine import logic
from sudoku_engine.board import Board
from sudoku_engine.grid import UNITS, digits_of, parse_cell, parse_values
from sudoku_engine.techniques.singles import hidden_singles, naked_singles, single_cells

# A solved grid (Project Euler 96, grid 1).
SOLVED_1 = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def _blank(names: list[str]) -> Board:
    """The solved grid with the named cells emptied."""
    values = list(parse_values(SOLVED_1))
    for name in names:
        values[parse_cell(name)] = 0
    return Board.from_values(values)


def test_one_empty_cell_is_a_naked_single_and_a_hidden_single_in_each_of_its_houses() -> None:
    # r5c5 of the solved grid holds 6: emptied, it has one candidate, and 6 has one place in row 5, column 5
    # and box 5 (houses 4, 13 and 22).
    board = _blank(["r5c5"])
    cell = parse_cell("r5c5")
    assert list(naked_singles(board)) == [(cell, 6)]
    assert list(hidden_singles(board)) == [(cell, 6, 4), (cell, 6, 13), (cell, 6, 22)]
    assert single_cells(board) == {cell}


def test_two_empty_cells_of_a_row_and_a_box() -> None:
    # r1c1 (4) and r1c2 (8) emptied: each column rules the other digit out, so both are naked singles; in row 1
    # and box 1 both digits have one place, in each column the cell's own digit (houses 0, 9, 10, 18).
    board = _blank(["r1c1", "r1c2"])
    a, b = parse_cell("r1c1"), parse_cell("r1c2")
    assert list(naked_singles(board)) == [(a, 4), (b, 8)]
    assert list(hidden_singles(board)) == [(a, 4, 0), (b, 8, 0), (a, 4, 9), (b, 8, 10), (a, 4, 18), (b, 8, 18)]
    assert list(hidden_singles(board, range(18, 27))) == [(a, 4, 18), (b, 8, 18)]


def test_a_hidden_single_in_a_cell_with_two_candidates() -> None:
    # r1c1 (4), r1c2 (8) and r8c1 (8) emptied: r1c1 keeps 4 and 8 (row 1, column 1 and box 1 each miss both), so
    # it is no naked single, but no other open cell of row 1, column 1 or box 1 can take 4. r1c2 and r8c1 keep
    # only 8 (column 2 and row 8 miss nothing else), which is also their one place in column 2, row 8 and box 7.
    board = _blank(["r1c1", "r1c2", "r8c1"])
    a, b, c = parse_cell("r1c1"), parse_cell("r1c2"), parse_cell("r8c1")
    assert digits_of(board.cands[a]) == (4, 8)
    assert list(naked_singles(board)) == [(b, 8), (c, 8)]
    assert list(hidden_singles(board)) == [(a, 4, 0), (c, 8, 7), (a, 4, 9), (b, 8, 10), (a, 4, 18), (c, 8, 24)]
    assert single_cells(board) == {a, b, c}


def _naked_by_hand(board: Board) -> list[tuple[int, int]]:
    """Open cells with one candidate left, in cell order."""
    found = []
    for cell in range(81):
        digits = digits_of(board.cands[cell])
        if not board.values[cell] and len(digits) == 1:
            found.append((cell, digits[0]))
    return found


def _hidden_by_hand(board: Board) -> list[tuple[int, int, int]]:
    """(cell, digit, house) for every house and digit with one place left, house by house."""
    found = []
    for house, cells in enumerate(UNITS):
        for digit in range(1, 10):
            places = [c for c in cells if board.cands[c] >> (digit - 1) & 1]
            if len(places) == 1:
                found.append((places[0], digit, house))
    return found


@pytest.mark.corpus
def test_singles_along_traces_are_the_rules_and_true() -> None:
    puzzles = read_puzzles(corpus_file("sudokuexchange_graded_even.tsv"))[::800]
    puzzles += read_puzzles(corpus_file("magictour_top1465.txt"))[::500]
    checked = 0
    for puzzle in puzzles:
        board = Board.from_grid(puzzle)
        solution = solution_of(board)
        for step in logic.solve(puzzle).steps:
            naked, hidden = _naked_by_hand(board), _hidden_by_hand(board)
            assert list(naked_singles(board)) == naked, puzzle
            assert list(hidden_singles(board)) == hidden, puzzle
            assert single_cells(board) == {c for c, _ in naked} | {c for c, _, _ in hidden}
            assert all(solution[c] == d for c, d in naked) and all(solution[c] == d for c, d, _ in hidden)
            for technique_id in ("full_house", "hidden_single_box", "hidden_single_line", "naked_single"):
                checked += assert_steps_valid(find_all(technique_id, board), solution)
            board.apply(step)
    assert checked > 500
