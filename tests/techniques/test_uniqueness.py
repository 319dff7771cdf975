"""Uniqueness: Unique Rectangles (types 1-6), Hidden Rectangle, Avoidable Rectangles (types 1, 2) and BUG+1.

Positive positions are HoDoKu's published examples (pencil marks as shown on its technique pages, or lines of
its regression test library, which also say which placed digits are not givens) or positions reached in the
Sudoku Exchange corpus; every expected elimination or placement below was derived by hand from the pattern
named in the test. Near misses change one or two cells' candidates (never removing a true digit) or the
givens so that the pattern breaks. All positions have a unique solution, as these techniques assume.
"""

from __future__ import annotations

import csv
from collections import Counter

import pytest
from helpers.corpus import corpus_file, read_puzzles
from helpers.positions import AR2_LINE, AR101, BUG_POSITION, U5_DIAGONAL, U5_THREE, U5_THREE_MARKS, U601, U602
from helpers.techniques import assert_steps_valid, candidate_pairs, changed, find_all, hodoku_board, solution_of

from sudoku_engine import logic
from sudoku_engine.board import Board, Step
from sudoku_engine.grid import parse_cell
from sudoku_engine.techniques import CATALOGUE

UNIQUENESS = (
    "unique_rectangle_1",
    "unique_rectangle_2",
    "unique_rectangle_3",
    "unique_rectangle_4",
    "unique_rectangle_5",
    "unique_rectangle_6",
    "hidden_rectangle",
    "avoidable_rectangle_1",
    "avoidable_rectangle_2",
    "bug_plus_1",
)
# Type 5 needs two diagonal or three corners with the same single extra digit: no basic-techniques solve of the
# corpus sample reaches one, so its published examples below stand in for the corpus.
RARE = ("unique_rectangle_5",)
BASIC = [t.id for t in CATALOGUE if t.family in {"singles", "intersections", "subsets", "last_resort"}]

# Reached by singles, intersections and subsets from Sudoku Exchange puzzle
# 2..9.....8..5.3....547.6..2..8.....9.97...42.1.....3..3..1.589....8.2..3.....7..5 (SE 4.0).
UR1_POSITION = """
2   7   3   9   14  14  5   8   6
8   6   1   5   2   3   9   7   4
9   5   4   7   8   6   1   3   2
45  3   8   2   145 14  7   6   9
56  9   7   36  356 8   4   2   1
1   24  26  46  7   9   3   5   8
3   24  26  1   46  5   8   9   7
7   1   5   8   9   2   6   4   3
46  8   9   346 346 7   2   1   5
"""

# The solution of UR1_POSITION's puzzle; r1c3/r1c4/r9c3/r9c4 hold 3, 9, 9, 3 in four different boxes.
UR1_SOLUTION = "273914586861523974954786132438251769597638421126479358342165897715892643689347215"

# Reached the same way from 8...1...5...3.9...9.1...3.8.3..9..4....5.7...5..4.6..937..5..1418..4..37......... (SE 4.0).
UR2_POSITION = """
8   6   3   27  1   4   27  9   5
27  5   27  3   8   9   4   6   1
9   4   1   27  6   5   3   27  8
267 3   267 8   9   1   5   4   26
46  19  49  5   2   7   16  8   3
5   12  8   4   3   6   127 27  9
3   7   26  69  5   8   269 1   4
1   8   5   69  4   2   69  3   7
246 29  49  1   7   3   8   5   26
"""

# Reached the same way from .1...762.7..5....99...82...6.17.5.9...9...8...4.8.13.6...27...81....4..2.921...4. (SE 4.0).
UR3_POSITION = """
8    1    35   9    4    7    6    2    35
7    2    6    5    1    3    4    8    9
9    35   4    6    8    2    157  137  1357
6    8    1    7    3    5    2    9    4
35   35   9    4    2    6    8    17   17
2    4    7    8    9    1    3    5    6
4    6    35   2    7    9    15   13   8
1    7    8    3    5    4    9    6    2
35   9    2    1    6    8    57   4    357
"""

# HoDoKu example u402: Unique Rectangle Type 4 on 2/8 in r89c38 => r89c8<>2.
U402 = """
 8    25    9   | 34     34    7    | 15   1256  26
 145  2457  157 | 6      9     8    | 45   257   3
 346  347   67  | 5      2     1    | 8    79    49
 2    1     4   | 8      36    5    | 39   369   7
 569  8     3   | 149    7     469  | 2    156   46
 569  579   567 | 12349  1346  2469 | 145  1356  8
 135  35    15  | 7      8     29   | 6    4     29
 49   6     28  | 249    5     3    | 7    289   1
 7    49    28  | 1249   146   2469 | 39   2389  5
"""

# HoDoKu example hr01: "Hidden Rectangle: 5/9 in r7c57,r9c57 => r9c5<>9".
HR01 = """
 3  9  4  | 6     8    2   | 1    5    7
 6  1  8  | 7     3    5   | 4    2    9
 5  2  7  | 4     19   19  | 3    6    8
 1  5  3  | 29    4    7   | 289  89   6
 4  7  29 | 5     6    8   | 29   3    1
 8  6  29 | 1239  129  139 | 7    4    5
 7  3  6  | 8     159  4   | 59   19   2
 9  4  5  | 12    127  16  | 68   178  3
 2  8  1  | 39    579  369 | 569  79   4
"""

# HoDoKu example hr02 (two diagonal bivalue corners): "Hidden Rectangle: 4/5 in r2c29,r3c29 => r2c9<>5".
HR02 = """
 68   9    168  | 4  5   136 | 2    378  37
 3    145  2    | 7  8   16  | 56   9    45
 7    45   468  | 2  9   36  | 568  1    345
 9    3    5    | 1  2   8   | 7    4    6
 28   7    148  | 6  34  9   | 158  238  235
 268  14   1468 | 5  34  7   | 18   238  9
 1    2    9    | 3  7   5   | 4    6    8
 5    6    3    | 8  1   4   | 9    27   27
 4    8    7    | 9  6   2   | 3    5    1
"""


AR101_MARKS = """
 9   5   4    | 3     268   268 | 1    68    7
 7   6   1    | 5     89    4   | 2    38    39
 2   3   8    | 69    7     1   | 45   456   459
 4   1   57   | 79    259   3   | 6    25    8
 56  2   3567 | 4678  4568  568 | 9    345   1
 8   9   356  | 1     2456  256 | 7    2345  345
 3   48  56   | 468   1     9   | 458  7     2
 56  48  9    | 2     4568  7   | 3    1     456
 1   7   2    | 468   3     568 | 458  9     456
"""

AR2_MARKS = """
9    8    235  35   12   135  6    4    7
45   24   1    457  27   6    9    3    8
7    34   6    34   8    9    5    1    2
1    29   29   58   3    58   4    7    6
3    7    4    1    6    2    8    5    9
6    5    8    9    4    7    1    2    3
2    1469 79   678  17   148  3    689  5
8    1369 39   2    5    13   7    69   4
45   346  357  3678 9    348  2    68   1
"""


def _checked(technique_id: str, board: Board) -> list[Step]:
    """Every step of a technique on the board, each checked against the solution and for its form."""
    steps = find_all(technique_id, board)
    assert_steps_valid(steps, solution_of(board))
    for step in steps:
        assert step.technique == technique_id and step.is_progress and step.length == 0
        assert step.text.endswith(".") and step.text.count(". ") == 0
        assert "unique solution" in step.text
    return steps


def test_unique_rectangle_1_corpus_position():
    steps = _checked("unique_rectangle_1", Board.from_pencilmarks(UR1_POSITION))
    # 1/4 in r1c5, r1c6, r4c6 (nothing else) and r4c5 (1/4/5), boxes 2 and 5: r4c5 loses 1 and 4.
    assert [set(s.eliminations) for s in steps] == [candidate_pairs(("r4c5", 1), ("r4c5", 4))]
    assert steps[0].cells == tuple(parse_cell(n) for n in ("r1c5", "r1c6", "r4c5", "r4c6"))


def test_unique_rectangle_1_needs_three_bivalue_corners():
    # r1c5 gets a 9 (its digit is 1): only two corners hold nothing but 1/4.
    assert _checked("unique_rectangle_1", changed(UR1_POSITION, r1c5="149")) == []


def test_rectangle_in_four_boxes_is_no_unique_rectangle():
    # r1c3, r1c4, r9c3, r9c4 lie in boxes 1, 2, 7 and 8: swapping 3 and 9 there breaks the boxes, so no deadly
    # pattern exists and r9c4 (digit 3) keeps its candidates although the other three corners hold only 3/9.
    marks = list(UR1_SOLUTION)
    for name, token in {"r1c3": "39", "r1c4": "39", "r9c3": "39", "r9c4": "349"}.items():
        marks[parse_cell(name)] = token
    board = Board.from_pencilmarks(" ".join(marks))
    for technique_id in UNIQUENESS:
        assert _checked(technique_id, board) == []


def test_unique_rectangle_2_corpus_position():
    steps = _checked("unique_rectangle_2", Board.from_pencilmarks(UR2_POSITION))
    # 2/7 in r2c1, r2c3 (nothing else) and r4c1, r4c3 (both 2/6/7), boxes 1 and 4: one of r4c1, r4c3 is 6,
    # so 6 leaves r4c9 (row 4) and r5c1 (box 4).
    assert [set(s.eliminations) for s in steps] == [candidate_pairs(("r4c9", 6), ("r5c1", 6))]


def test_unique_rectangle_2_needs_the_same_extra_digit():
    # r4c1 holds 2/3/6/7 (its digit is 6): the two roof cells no longer share a single extra digit.
    assert _checked("unique_rectangle_2", changed(UR2_POSITION, r4c1="2367")) == []


def test_unique_rectangle_3_corpus_position():
    steps = _checked("unique_rectangle_3", Board.from_pencilmarks(UR3_POSITION))
    # 1/7 in r5c8, r5c9 (nothing else) and r3c8 (1/3/7), r3c9 (1/3/5/7), boxes 3 and 6: the roof acts as a cell
    # holding 3/5, a naked pair with r3c2 (3/5) in row 3 and with r1c9 (3/5) in box 3: r3c7 loses 5 either way.
    assert [set(s.eliminations) for s in steps] == [candidate_pairs(("r3c7", 5)), candidate_pairs(("r3c7", 5))]
    assert ["naked set on 3/5 in row 3" in steps[0].text, "naked set on 3/5 in box 3" in steps[1].text] == [True, True]


def test_unique_rectangle_3_needs_a_naked_set():
    # r3c2 and r1c9 each get a third candidate (their digits are 5 and 5): no pair completes the pseudo-cell.
    assert _checked("unique_rectangle_3", changed(UR3_POSITION, r3c2="345", r1c9="358")) == []


def test_unique_rectangle_4_hodoku_example():
    steps = _checked("unique_rectangle_4", Board.from_pencilmarks(U402))
    # 2/8 in r8c3, r9c3 (nothing else) and r8c8, r9c8; 8 in column 8 only in r8c8, r9c8: 2 leaves both.
    assert [set(s.eliminations) for s in steps] == [candidate_pairs(("r8c8", 2), ("r9c8", 2))]


def test_unique_rectangle_4_needs_a_strong_link():
    # An 8 added to r3c8 (column 8, digit 7) and to r9c7 (box 9, digit 3): no house confines 8 to the roof.
    assert _checked("unique_rectangle_4", changed(U402, r3c8="789", r9c7="389")) == []


def test_hidden_rectangle_hodoku_examples():
    steps = _checked("hidden_rectangle", Board.from_pencilmarks(HR01))
    # HoDoKu's step: r7c7 holds only 5/9; 5 in row 9 and column 5 is only in the rectangle: r9c5 loses 9.
    # Also found: r9c4 holds only 3/9; 3 in row 6 and column 6 is only in r6c4/r6c6 and r6c6/r9c6: r6c6 loses 9.
    assert {e for s in steps for e in s.eliminations} == candidate_pairs(("r9c5", 9), ("r6c6", 9))
    steps = _checked("hidden_rectangle", Board.from_pencilmarks(HR02))
    # Two diagonal bivalue corners r2c9, r3c2 (4/5); 4 in row 2 and column 9 only in the rectangle: r2c9 loses 5.
    assert [set(s.eliminations) for s in steps] == [candidate_pairs(("r2c9", 5))]


def test_hidden_rectangle_needs_both_strong_links():
    # A 5 added to r9c6 (digit 9) and a 3 to r6c5 (digit 2) break one strong link of each rectangle.
    assert _checked("hidden_rectangle", changed(HR01, r9c6="3569", r6c5="1239")) == []


def test_bug_plus_1_corpus_position():
    steps = _checked("bug_plus_1", Board.from_pencilmarks(BUG_POSITION))
    # Every unsolved cell but r9c1 (4/7/8) is bivalue; 8 appears three times in row 9 (r9c1, r9c2, r9c4),
    # column 1 (r5c1, r7c1, r9c1) and box 7 (r7c1, r9c1, r9c2), every other candidate twice: r9c1 is 8.
    assert [s.placements for s in steps] == [((parse_cell("r9c1"), 8),)]
    assert not steps[0].eliminations


def test_bug_plus_1_needs_a_single_trivalue_cell():
    # A second cell with three candidates (r1c1 gets a 4; its digit is 7): no longer a BUG+1.
    assert _checked("bug_plus_1", changed(BUG_POSITION, r1c1="479")) == []


def test_bug_plus_1_needs_every_digit_twice():
    # r1c2 holds 3/9 instead of 7/9 (its digit is 9): still one trivalue cell, but 7 appears once in row 1.
    assert _checked("bug_plus_1", changed(BUG_POSITION, r1c2="39")) == []


def test_unique_rectangle_5_hodoku_examples():
    board = hodoku_board(U5_THREE)
    assert board.pencilmarks().split() == Board.from_pencilmarks(U5_THREE_MARKS).pencilmarks().split()
    steps = _checked("unique_rectangle_5", board)
    # Unless one of r6c8, r6c9, r7c8 is 4 they all hold 2/6 with r7c9: a cell seeing all three is in column 8 and
    # box 6 (r4c8, r5c8); only r4c8 holds a 4. HoDoKu's library gives r4c8<>4.
    assert [set(s.eliminations) for s in steps] == [candidate_pairs(("r4c8", 4))]
    steps = _checked("unique_rectangle_5", Board.from_pencilmarks(U5_DIAGONAL))
    # One of the diagonal corners r7c8, r8c5 is 1; cells seeing both besides the rectangle: row 7 in box 8 (r7c4,
    # r7c6) and row 8 in box 9 (r8c7, r8c9); only r7c4 holds a 1. HoDoKu's library gives r7c4<>1.
    assert [set(s.eliminations) for s in steps] == [candidate_pairs(("r7c4", 1))]


def test_unique_rectangle_5_needs_a_bivalue_corner_and_two_extra_corners():
    # r7c9 gets the 4 too (its digit is 2): no corner holds only 2/6 any more.
    assert _checked("unique_rectangle_5", changed(U5_THREE_MARKS, r7c9="246")) == []
    # r8c5 loses the 1 (its digit is 6): one extra corner, a Type 1 (1 leaves nothing, 4/6 leave r7c8), no Type 5.
    board = changed(U5_DIAGONAL, r8c5="46")
    assert _checked("unique_rectangle_5", board) == []
    assert {e for s in _checked("unique_rectangle_1", board) for e in s.eliminations} == candidate_pairs(
        ("r7c8", 4), ("r7c8", 6)
    )


def test_unique_rectangle_6_hodoku_examples():
    steps = _checked("unique_rectangle_6", Board.from_pencilmarks(U601))
    # r4c4 and r5c3 hold only 2/5; 5 lies in rows 4, 5 and columns 3, 4 only in the rectangle, so it takes a diagonal;
    # the r4c3/r5c4 diagonal would leave 2 on the other one and a deadly pattern: 5 leaves r4c3 and r5c4.
    assert [set(s.eliminations) for s in steps] == [candidate_pairs(("r4c3", 5), ("r5c4", 5))]
    steps = _checked("unique_rectangle_6", Board.from_pencilmarks(U602))
    # r8c3 and r9c4 hold only 2/7; 7 lies in rows 8, 9 and columns 3, 4 only in the rectangle: 7 leaves r8c4, r9c3.
    assert [set(s.eliminations) for s in steps] == [candidate_pairs(("r8c4", 7), ("r9c3", 7))]


def test_unique_rectangle_6_needs_both_digits_in_every_corner():
    # r4c3 loses its 2 (its digit is 3): no rectangle on 2/5 any more.
    assert _checked("unique_rectangle_6", changed(U601, r4c3="35")) == []


def test_avoidable_rectangle_1_hodoku_example():
    board = hodoku_board(AR101)
    assert board.pencilmarks().split() == Board.from_pencilmarks(AR101_MARKS).pencilmarks().split()
    steps = _checked("avoidable_rectangle_1", board)
    # r1c1 = 9, r1c9 = 7, r2c1 = 7 were placed while solving (none is a given): r2c9 = 9 would make a rectangle in
    # boxes 1 and 3 whose 7s and 9s swap without touching a given, so 9 leaves r2c9.
    assert [set(s.eliminations) for s in steps] == [candidate_pairs(("r2c9", 9))]


def test_avoidable_rectangle_1_needs_solved_cells_that_are_not_givens():
    board = hodoku_board(AR101)
    as_givens = Board.from_values(board.values)  # the same digits, all taken for givens
    assert _checked("avoidable_rectangle_1", as_givens) == []
    unknown = Board.from_pencilmarks(AR101_MARKS)  # a pencil-mark grid does not say which digits are givens
    assert unknown.givens is None and _checked("avoidable_rectangle_1", unknown) == []
    board.givens = (board.givens or 0) | 1 << parse_cell("r1c9")  # r1c9 a given: its 7 cannot swap
    assert _checked("avoidable_rectangle_1", board) == []


def test_avoidable_rectangle_2_hodoku_example():
    board = hodoku_board(AR2_LINE)
    assert board.pencilmarks().split() == Board.from_pencilmarks(AR2_MARKS).pencilmarks().split()
    steps = _checked("avoidable_rectangle_2", board)
    # r7c7 = 3 and r8c7 = 7 were placed while solving; r7c3 (7/9) and r8c3 (3/9) would be 7 and 3 in a deadly pattern
    # unless one is 9: 9 leaves the cells seeing both, column 3 (r4c3) and box 7 (r7c2, r8c2). HoDoKu's library
    # gives r4c3, r7c2, r8c2<>9.
    assert [set(s.eliminations) for s in steps] == [candidate_pairs(("r4c3", 9), ("r7c2", 9), ("r8c2", 9))]


def test_avoidable_rectangle_2_needs_solved_cells_that_are_not_givens():
    board = hodoku_board(AR2_LINE)
    assert _checked("avoidable_rectangle_2", Board.from_values(board.values)) == []
    board.givens = (board.givens or 0) | 1 << parse_cell("r8c7")
    assert _checked("avoidable_rectangle_2", board) == []


def _sample() -> list[str]:
    """Sudoku Exchange puzzles rated SE 4.0 and above, spread over the ratings, and the start of top1465."""
    with corpus_file("sudokuexchange_graded_even.tsv").open(encoding="utf-8") as stream:
        rows = [r for r in csv.DictReader(stream, delimiter="\t") if r["se_rating"] and float(r["se_rating"]) >= 4]
    return [r["puzzle"] for r in rows[::40]] + read_puzzles(corpus_file("magictour_top1465.txt"), 30)


@pytest.mark.corpus
def test_uniqueness_on_corpus_traces():
    fired: Counter[str] = Counter()
    for text in _sample():
        board = Board.from_grid(text)
        solution = solution_of(board)
        for step in logic.solve(text, allow=BASIC).steps:
            before = (board.values[:], board.cands[:])
            for technique_id in UNIQUENESS:
                found = find_all(technique_id, board)
                fired[technique_id] += assert_steps_valid(found, solution)
                assert all(s.technique == technique_id and s.is_progress for s in found)
            assert (board.values, board.cands) == before, "a finder changed the board"
            board.apply(step)
    assert all(fired[t] >= 3 for t in UNIQUENESS if t not in RARE), fired
