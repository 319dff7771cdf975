"""Colouring: Simple Colours (trap and wrap) and Multi Colours (types 1 and 2) on hand-checked positions.

Each position is the pencil-mark grid where a basic-techniques solve of a corpus puzzle gets stuck; the
clusters and the expected eliminations were worked out by hand from the digit's candidate map.
"""

from __future__ import annotations

import pytest
from helpers.techniques import (
    candidates,
    checked_steps,
    eliminations_of,
    find_all,
    hard_sample,
    valid_steps_along_basic_solves,
    with_candidate,
)

from sudoku_engine.board import Board
from sudoku_engine.grid import parse_cell

COLOURING = ("simple_colours", "multi_colours")

# Digit 4 (placed in r1c1, r8c8, r9c5). Conjugate pairs: row 2 r2c6-r2c9, box 3 r2c9-r3c7, column 7
# r3c7-r6c7 (cluster A: {r2c6, r3c7} / {r2c9, r6c7}); column 4 r3c4-r5c4 (cluster B); rows 4 and 7,
# columns 2 and 3 (a four-cell cycle r4c2 r4c3 r7c2 r7c3).
#   . . . | . . . | . . .
#   . . . | . . X | . . X
#   . . . | X . X | X . .
#   . X X | . . . | . . .
#   . . . | X . X | . . X
#   . . . | . . X | X . X
#   . X X | . . . | . . .
CLUSTERS_4 = """
4      569    1268   5789   3      15789  259    2567   25679
1237   359    12     6      127    14579  8      2357   234579
23678  3569   268    45789  278    45789  23459  23567  1
1236   346    1246   378    5      13678  23     9      2378
123    8      59     3479   17     13479  6      12357  23457
136    7      59     2      168    134689 345    1358   3458
68     46     468    1      9      2      7      35     35
5      12     3      78     678    678    129    4      29
9      12     7      35     4      35     12     68     68
"""

# Digit 5: one cluster, {r5c6, r6c7, r7c4, r7c8, r9c6} / {r5c8, r6c4, r9c7}; r5c6 and r9c6 share column 6.
#   . . . | . . X | . X .      (rows 5 to 9)
#   . . . | X . . | X . .
#   . . . | X . X | . X .
#   5 . . | . . . | . . .
#   . . . | . . X | X . .
WRAP_5 = """
1    4    3    7    9    2    6    8    5
9    5    2    6    8    4    13   13   7
8    7    6    13   5    13   9    4    2
7    3    5    8    1    9    2    6    4
2    9    18   4    6    35   7    135  138
4    6    18   35   2    7    1358 9    138
36   2    9    15   7    158  4    135  1368
5    18   4    2    3    6    18   7    9
36   18   7    9    4    158  1358 2    1368
"""

# Digit 7: cluster {r4c5, r7c6, r8c7, r9c3} / {r8c5, r9c7} (column 5, row 8, box 8, column 7, row 9) and
# cluster r5c3 / r5c6 (row 5); r9c3 sees r5c3 (column 3) and r4c5 sees r5c6 (box 5).
#   X X . | . . . | . . .      (rows 2 to 9, row 3 and row 6 hold a placed 7)
#   X X X | . X X | . . .
#   . . X | . . X | . . .
#   . X X | . . X | . . .
#   . . . | . X . | X . .
#   . . X | . . . | X . .
MULTI_7 = """
58    4     258   7     1     25    9     6     3
57    67    3     9     26    245   1248  124   128
1     9     26    8     236   234   24    5     7
4578  678   5678  456   79    179   12468 3     12689
2     3     567   456   8     179   146   149   169
48    1     9     46    23    23    5     7     68
6     78    178   2     4     79    3     19    5
3     5     4     1     79    8     267   29    269
9     2     17    3     5     6     17    8     4
"""


def test_simple_colours_trap():
    # r6c6 sees r2c6 (column 6) and r6c7 (row 6), one of each colour of cluster A.
    steps = checked_steps("simple_colours", Board.from_pencilmarks(CLUSTERS_4))
    assert eliminations_of(steps) == candidates(4, "r6c6")
    step = steps[0]
    assert "trap" in step.text and set(step.cells) == {parse_cell(c) for c in ("r2c6", "r2c9", "r3c7", "r6c7")}
    assert set(step.units) == {1, 15, 20}


def test_simple_colours_near_miss_no_trap_no_wrap():
    # The clusters of MULTI_7 (three and six cells on 7) repeat no colour in a house and no other 7 sees
    # both colours of one of them; the pair r5c3-r5c6 alone only restates locked candidates.
    assert checked_steps("simple_colours", Board.from_pencilmarks(MULTI_7)) == []


def test_simple_colours_wrap():
    steps = checked_steps("simple_colours", Board.from_pencilmarks(WRAP_5))
    assert eliminations_of(steps) == candidates(5, "r5c6", "r6c7", "r7c4", "r7c8", "r9c6")
    assert "wrap" in steps[0].text


def test_multi_colours_type_1():
    # r3c4 (cluster B) sees r3c7 and r2c6 (cluster A): r5c4 or the colour {r2c9, r6c7} holds 4, and
    # r5c9 (sees r5c4 and r6c7) and r6c6 (sees r5c4 and r6c7) lose it.
    steps = checked_steps("multi_colours", Board.from_pencilmarks(CLUSTERS_4))
    assert eliminations_of(steps) == candidates(4, "r5c9", "r6c6")


def test_multi_colours_type_2():
    steps = checked_steps("multi_colours", Board.from_pencilmarks(MULTI_7))
    assert eliminations_of(steps) == candidates(7, "r4c5", "r7c6", "r8c7", "r9c3")
    assert "sees both colours" in steps[0].text


def test_multi_colours_near_miss_second_cluster_gone():
    # A third 4 in column 4 (r4c4) dissolves cluster B; clusters A and the cycle never meet.
    assert checked_steps("multi_colours", with_candidate(Board.from_pencilmarks(CLUSTERS_4), "r4c4", 4)) == []


def test_finders_leave_the_board_alone():
    board = Board.from_pencilmarks(CLUSTERS_4)
    before = (list(board.values), list(board.cands))
    for technique in COLOURING:
        find_all(technique, board)
    assert (board.values, board.cands) == before


@pytest.mark.corpus
def test_colouring_steps_are_valid_along_basic_solves():
    counts = valid_steps_along_basic_solves(hard_sample(50, 47, 199), COLOURING)
    assert all(n >= 3 for n in counts.values()), counts
