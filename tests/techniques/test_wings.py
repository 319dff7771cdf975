"""Wings: XY-Wing, XYZ-Wing, W-Wing and Remote Pair.

Positive positions are HoDoKu's published examples (its technique pages, pencil marks as shown there) or
positions reached in the Sudoku Exchange corpus; every expected elimination below was derived by hand from
the pattern named in the test. Near misses change one cell's candidates (never removing its true digit)
so that the pattern breaks.
"""

from __future__ import annotations

import csv
from collections import Counter

import pytest
from corpus_data import corpus_file, read_puzzles
from technique_support import assert_steps_valid, candidate_pairs, changed, eliminations_of, find_all, solution_of

from sudoku_engine import logic
from sudoku_engine.board import Board, Step
from sudoku_engine.grid import parse_cell
from sudoku_engine.techniques import CATALOGUE

WINGS = ("xy_wing", "xyz_wing", "w_wing", "remote_pair")
BASIC = [t.id for t in CATALOGUE if t.family in {"singles", "intersections", "subsets", "last_resort"}]

# HoDoKu example xy02: "XY-Wing: 1/6/9 in r4c14,r5c2 => r4c23,r5c456<>9".
XY02 = """
 7    1    4    | 29    6    29  | 5    3    8
 8    29   29   | 4     5    3   | 16   16   7
 3    5    6    | 7     1    8   | 4    2    9
 16   369  1379 | 19    2    4   | 67   8    5
 4    69   179  | 1589  89   59  | 3    67   2
 2    8    5    | 3     7    6   | 9    4    1
 9    7    8    | 6     3    1   | 2    5    4
 15   234  123  | 2589  489  7   | 18   19   6
 156  246  12   | 2589  489  259 | 178  179  3
"""

# Reached by singles, intersections and subsets from Sudoku Exchange puzzle
# 5...7...3......7...12.495....89.7...1.5...9.8...1.26....451.39...1......6...9...5 (SE 4.0).
XYZ_POSITION = """
5    89   69   68   7    1    24   24   3
348  348  36   268  26   5    7    1    9
7    1    2    3    4    9    5    8    6
24   6    8    9    5    7    24   3    1
1    27   5    46   36   34   9    27   8
34   3479 379  1    8    2    6    5    47
28   278  4    5    1    6    3    9    27
9    5    1    247  23   34   8    6    247
6    237  37   247  9    8    1    47   5
"""

# HoDoKu example w02: "W-Wing: 4/1 in r1c9,r8c7 connected by 1 in r18c3 => r123c7,r89c9<>4".
W02 = """
 6     134    123 | 9   5  48 | 12348  7    14
 347   1347   9   | 67  2  48 | 13458  136  145
 247   5      8   | 67  3  1  | 24     269  49
 1     6      4   | 3   8  9  | 7      5    2
 238   38     23  | 1   7  5  | 9      4    6
 5     9      7   | 2   4  6  | 13     13   8
 9     2      5   | 4   1  7  | 6      8    3
 3478  13478  13  | 5   6  2  | 14     19   1479
 47    147    6   | 8   9  3  | 1245   12   1457
"""

# HoDoKu example rp01: "Remote Pair: 4/5 r2c7 -5- r2c2 -4- r3c1 -5- r6c1 => r6c7<>5".
RP01 = """
 7   9    8   | 4     5  2  | 3    1  6
 6   45   3   | 7     8  1  | 45   9  2
 45  1    2   | 69    3  69 | 8    7  45
 3   7    19  | 2     6  5  | 19   4  8
 8   2    59  | 1     4  3  | 7    6  59
 45  6    145 | 8     9  7  | 15   2  3
 9   8    56  | 56    1  4  | 2    3  7
 1   34   7   | 369   2  8  | 469  5  49
 2   345  456 | 3569  7  69 | 469  8  1
"""



def _cells(*cell_names: str) -> tuple[int, ...]:
    """Cells from their names."""
    return tuple(parse_cell(name) for name in cell_names)



def _checked(technique_id: str, board: Board) -> list[Step]:
    """Every step of a technique on the board, each checked against the solution and for its form."""
    steps = find_all(technique_id, board)
    assert_steps_valid(steps, solution_of(board))
    for step in steps:
        assert step.technique == technique_id and step.is_progress and not step.placements
        assert step.text.endswith(".") and step.text.count(". ") == 0
    return steps


def _step_with_cells(steps: list[Step], cells: tuple[int, ...]) -> Step:
    """The one step whose pattern cells are exactly these."""
    matching = [s for s in steps if s.cells == cells]
    assert len(matching) == 1, [s.text for s in steps]
    return matching[0]


def test_xy_wing_hodoku_example():
    steps = _checked("xy_wing", Board.from_pencilmarks(XY02))
    step = _step_with_cells(steps, _cells("r4c1", "r4c4", "r5c2"))
    # Pivot r4c1 (1/6), pincers r4c4 (1/9) and r5c2 (6/9): 9 leaves the cells seeing both pincers.
    assert set(step.eliminations) == candidate_pairs(("r4c2", 9), ("r4c3", 9), ("r5c4", 9), ("r5c5", 9), ("r5c6", 9))
    assert step.length == 0 and "XY-Wing" in step.text and "r4c1" in step.text


def test_xy_wing_needs_bivalue_pincers():
    # r4c4 holds a third candidate (5, not its digit 9), so it is no pincer and nothing else forms a wing.
    assert _checked("xy_wing", changed(XY02, r4c4="159")) == []


def test_xyz_wing_corpus_position():
    steps = _checked("xyz_wing", Board.from_pencilmarks(XYZ_POSITION))
    # Pivot r7c2 (2/7/8), pincers r5c2 (2/7) and r7c1 (2/8): r9c2 sees all three and loses 2.
    first = _step_with_cells(steps, _cells("r7c2", "r5c2", "r7c1"))
    assert set(first.eliminations) == candidate_pairs(("r9c2", 2))
    # Pivot r9c2 (2/3/7), pincers r5c2 (2/7) and r9c3 (3/7): r7c2 sees all three and loses 7.
    second = _step_with_cells(steps, _cells("r9c2", "r5c2", "r9c3"))
    assert set(second.eliminations) == candidate_pairs(("r7c2", 7))
    # r4c1 sees both pincers of the first wing but not its pivot, so its 2 stays.
    assert (parse_cell("r4c1"), 2) not in eliminations_of(steps)


def test_xyz_wing_needs_bivalue_pincers():
    # r5c2, the pincer of both wings, gets a third candidate (9; its digit is 2).
    assert _checked("xyz_wing", changed(XYZ_POSITION, r5c2="279")) == []


def test_w_wing_hodoku_example():
    steps = _checked("w_wing", Board.from_pencilmarks(W02))
    # r1c9 and r8c7 hold 1/4; 1 in column 3 is only in r1c3 (sees r1c9) and r8c3 (sees r8c7): 4 leaves common peers.
    step = _step_with_cells(steps, _cells("r1c9", "r1c3", "r8c3", "r8c7"))
    assert set(step.eliminations) == candidate_pairs(("r1c7", 4), ("r2c7", 4), ("r3c7", 4), ("r8c9", 4), ("r9c9", 4))
    assert step.length == 4


def test_w_wing_needs_a_strong_link():
    # A third 1 in column 3 (r5c3, whose digit is 3) breaks the only link joining the two 1/4 cells.
    assert _checked("w_wing", changed(W02, r5c3="123")) == []


def test_remote_pair_hodoku_example():
    steps = _checked("remote_pair", Board.from_pencilmarks(RP01))
    # 4/5 chain r2c7 - r2c2 - r3c1 - r6c1: its ends hold one 4 and one 5, so r6c7 (seeing both) loses 5.
    assert len(steps) == 1
    step = steps[0]
    assert step.cells == _cells("r2c7", "r2c2", "r3c1", "r6c1") and step.length == 4
    assert set(step.eliminations) == candidate_pairs(("r6c7", 5))


def test_remote_pair_needs_four_cells():
    # Without r6c1 (given a third candidate; its digit is 4) the 4/5 cells form a loop of four whose
    # opposite cells all see each other: nothing outside sees two unlinked cells of opposite parity.
    assert _checked("remote_pair", changed(RP01, r6c1="145")) == []


def _sample() -> list[str]:
    """Hard Sudoku Exchange puzzles (SE >= 5, spread over the ratings) and the start of magictour top1465."""
    with corpus_file("sudokuexchange_graded_even.tsv").open(encoding="utf-8") as stream:
        rows = [r for r in csv.DictReader(stream, delimiter="\t") if r["se_rating"] and float(r["se_rating"]) >= 5]
    return [r["puzzle"] for r in rows[::40]] + read_puzzles(corpus_file("magictour_top1465.txt"), 60)


@pytest.mark.corpus
def test_wings_on_corpus_traces():
    fired: Counter[str] = Counter()
    for text in _sample():
        board = Board.from_grid(text)
        solution = solution_of(board)
        for step in logic.solve(text, allow=BASIC).steps:
            before = (board.values[:], board.cands[:])
            for technique_id in WINGS:
                found = find_all(technique_id, board)
                fired[technique_id] += assert_steps_valid(found, solution)
                assert all(s.technique == technique_id and s.eliminations for s in found)
            assert (board.values, board.cands) == before, "a finder changed the board"
            board.apply(step)
    assert all(fired[t] >= 5 for t in WINGS), fired
