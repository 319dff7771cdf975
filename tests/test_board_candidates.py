"""Board construction: the candidates a position's placed digits allow, and conflicts refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from strategies import blanked_grids

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
