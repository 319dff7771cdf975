"""Aligned Pair Exclusion.

HoDoKu has no Aligned Pair Exclusion, so the positive position is one reached in the Sudoku Exchange corpus where
Sukaku Explainer rates the puzzle 6.2; its expected elimination was derived by hand from the pattern. The near miss
changes one cell's candidates (never removing its true digit) so that the pattern breaks.
"""

from __future__ import annotations

import pytest
from helpers.techniques import (
    assert_steps_valid,
    candidate_pairs,
    changed,
    eliminations_of,
    find_all,
    hard_sample,
    solution_of,
    valid_steps_along_basic_solves,
)

from sudoku_engine.board import Board, Step
from sudoku_engine.grid import parse_cell
from sudoku_engine.rating import rate
from sudoku_engine.techniques import step_se

# Reached by the logic solver from Sudoku Exchange puzzle
# ....9.....2.....5.94.3.5.617.......5..46.12..51.4.2.36...........3...1..4..8.9..2 (SE 6.2).
APE_POSITION = """
1368 378  5    17   9    468  37   2    48
136  2    67   17   46   68   379  5    489
9    4    78   3    2    5    78   6    1
7    6    2    9    8    3    4    1    5
38   389  4    6    5    1    2    89   7
5    1    89   4    7    2    89   3    6
68   789  679  2    1    47   5    48   3
2    78   3    5    46   467  1    489  89
4    5    1    8    3    9    6    7    2
"""


def _checked(board: Board) -> list[Step]:
    """Every Aligned Pair Exclusion step on the board, each checked against the solution and for its form."""
    steps = find_all("aligned_pair_exclusion", board)
    assert_steps_valid(steps, solution_of(board))
    for step in steps:
        assert step.technique == "aligned_pair_exclusion" and step.eliminations and not step.placements
        assert step.text.endswith(".") and step.text.count(". ") == 0
    return steps


def test_aligned_pair_exclusion_corpus_position():
    steps = _checked(Board.from_pencilmarks(APE_POSITION))
    # r1c1 (1/3/6/8) and r1c2 (3/7/8) see each other (row 1, box 1) and both see the bivalue cells r1c4 (1/7),
    # r1c7 (3/7), r2c3 (6/7) and r3c3 (7/8). With 7 in r1c2, r1c1 could be 1, 3, 6 or 8, but each of these
    # pairs (1-7, 3-7, 6-7, 8-7) would empty one of those four cells: 7 leaves r1c2. Every other candidate keeps
    # a pair (1-3, 3-8, 6-3, 8-3 for r1c1; 1-3 and 1-8 for r1c2); r1c9 (4/8) is a bivalue peer of both that rules
    # no pair out (neither cell holds 4).
    [step] = [s for s in steps if s.cells[:2] == (parse_cell("r1c1"), parse_cell("r1c2"))]
    assert set(step.eliminations) == candidate_pairs(("r1c2", 7))
    assert set(step.cells[2:]) == {parse_cell(n) for n in ("r1c4", "r1c7", "r2c3", "r3c3")}
    assert step_se(step) == 6.2


def test_aligned_pair_exclusion_needs_the_bivalue_cells():
    # r2c3 gets a third candidate (8; its digit is 6): the pair 6-7 stays allowed, and so does the 7 of r1c2.
    steps = _checked(changed(APE_POSITION, r2c3="678"))
    assert (parse_cell("r1c2"), 7) not in eliminations_of(steps)


def test_aligned_pair_exclusion_puzzle_rates_as_sukaku_explainer_rates_it():
    # Sukaku Explainer rates this Sudoku Exchange puzzle 6.2 (sudokuexchange_graded_even.tsv).
    rating = rate("....9.....2.....5.94.3.5.617.......5..46.12..51.4.2.36...........3...1..4..8.9..2", measures=False)
    assert (rating.se_like, rating.hardest_technique) == (6.2, "aligned_pair_exclusion")


@pytest.mark.corpus
def test_aligned_pair_exclusion_on_corpus_traces():
    # Every step found at every position of basic-family solves of hard puzzles removes no true digit.
    counts = valid_steps_along_basic_solves(hard_sample(15, 100, 60), ["aligned_pair_exclusion"])
    assert counts["aligned_pair_exclusion"] >= 5, counts
