"""Board construction: the candidates a position's placed digits allow, and conflicts refused."""

from __future__ import annotations

import pytest
from helpers.strategies import blanked_grids
from hypothesis import given, settings

from sudoku_engine.board import Board
from sudoku_engine.grid import PEERS, InvalidPuzzle


@settings(max_examples=60, deadline=None)
@given(blanked_grids())
def test_candidates_are_the_digits_no_peer_holds(case):
    _full, puzzle = case
    board = Board.from_values(puzzle)
    for cell in range(81):
        if puzzle[cell]:
            assert board.cands[cell] == 0
        else:
            seen = {puzzle[p] for p in PEERS[cell]}
            assert board.cands[cell] == sum(1 << (d - 1) for d in range(1, 10) if d not in seen)


@pytest.mark.parametrize(
    "values, message",
    [
        ([5, 5] + [0] * 79, "two 5s see each other: r1c1 and r1c2"),
        ([7] + [0] * 8 + [0, 7] + [0] * 70, "two 7s see each other: r1c1 and r2c2"),
        ([3] + [0] * 71 + [3] + [0] * 8, "two 3s see each other: r1c1 and r9c1"),
    ],
)
def test_two_equal_digits_that_see_each_other_are_refused(values, message):
    with pytest.raises(InvalidPuzzle, match=message):
        Board.from_values(values)


EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_a_puzzle_board_knows_its_givens_and_keeps_them():
    board = Board.from_grid(EULER_01)
    givens = sum(1 << c for c, ch in enumerate(EULER_01) if ch != ".")
    assert board.givens == givens
    empty = board.empty_cells()[0]
    digit = next(d for d in range(1, 10) if board.has(empty, d))
    board.place(empty, digit)  # a placed digit is not a given
    copy = board.copy()
    assert board.givens == copy.givens == givens


def test_a_game_board_takes_the_puzzle_givens_and_a_pencil_mark_board_knows_none():
    puzzle = [0] * 81
    puzzle[0] = 5
    position = puzzle[:]
    position[40] = 7  # the player's digit
    assert Board.from_values(position, puzzle).givens == 1 << 0
    assert Board.from_values(position).givens == 1 << 0 | 1 << 40
    assert Board.from_pencilmarks(" ".join(["5"] + ["123456789"] * 80)).givens is None
    with pytest.raises(ValueError, match="the given 5 of r1c1"):
        Board.from_values([0] * 81, puzzle)
