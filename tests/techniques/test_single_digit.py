"""Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle, on hand-checked positions.

Each position is the pencil-mark grid where a basic-techniques solve of a corpus puzzle gets stuck; the
expected eliminations were worked out by hand from the digit's candidate map quoted beside each test.
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

PATTERNS = ("skyscraper", "two_string_kite", "turbot_fish", "empty_rectangle")

# Digit 4 (placed in r1c1, r8c8, r9c5):
#   . . . | . . . | . . .      column 4: r3c4, r5c4      column 7: r3c7, r6c7
#   . . . | . . X | . . X      box 3: r2c9, r3c7         row 2: r2c6, r2c9
#   . . . | X . X | X . .
#   . X X | . . . | . . .
#   . . . | X . X | . . X
#   . . . | . . X | X . X
#   . X X | . . . | . . .
SKYSCRAPER_4 = """
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

# Digit 8 (placed in r1c9, r4c3, r8c1):
#   . X . | . X . | . . .      row 7: r7c6, r7c7          column 8: r6c8, r9c8
#   . X . | . X . | . . .      box 8: r7c6, r9c4, r9c6 (row 9 and column 6 only)
#   . . . | X . X | X . .      (rows 2-3, 5-7 and 9 shown)
#   . . . | X . X | . X .
#   . . . | . . X | X . .
#   . . . | X . X | . X .
KITE_8 = """
6      57     9      234    2345   2345   1347   1245   8
23     58     23     7      458    1      469    4569   569
4      578    1      69     2358   69     37     25     2357
157    9      8      123    6      2357   17     12     4
157    2      46     1489   1457   45789  16789  3      1679
17     3      46     12489  1247   24789  5      12689  12679
239    1      23     5      34     3468   34689  7      369
8      46     57     12346  9      23467  1346   1456   1356
39     46     57     13468  1347   34678  2      145689 13569
"""


def test_skyscraper_in_columns():
    # Bases r3c4 and r3c7 share row 3; tops r5c4 and r6c7; r5c9 and r6c6 see both tops.
    steps = checked_steps("skyscraper", Board.from_pencilmarks(SKYSCRAPER_4))
    assert eliminations_of(steps) == candidates(4, "r5c9", "r6c6")
    step = steps[0]
    assert step.length == 4 and set(step.units) == {12, 15, 2}
    assert set(step.cells) == {parse_cell(c) for c in ("r5c4", "r3c4", "r3c7", "r6c7")}


def test_skyscraper_near_miss_third_place_in_column():
    assert checked_steps("skyscraper", with_candidate(Board.from_pencilmarks(SKYSCRAPER_4), "r4c4", 4)) == []


def test_turbot_fish_with_a_box_link():
    # r5c4 = r3c4 (column 4) - r3c7 = r2c9 (box 3): r5c9 sees both r5c4 and r2c9.
    steps = checked_steps("turbot_fish", Board.from_pencilmarks(SKYSCRAPER_4))
    assert eliminations_of(steps) == candidates(4, "r5c9")
    assert "box 3" in steps[0].text and steps[0].length == 4


def test_turbot_fish_near_miss_broken_column_link():
    assert checked_steps("turbot_fish", with_candidate(Board.from_pencilmarks(SKYSCRAPER_4), "r4c4", 4)) == []


def test_turbot_fish_skips_skyscrapers_and_kites():
    board = Board.from_pencilmarks(SKYSCRAPER_4)
    sky = {frozenset(s.cells) for s in find_all("skyscraper", board)}
    assert all(frozenset(s.cells) not in sky for s in find_all("turbot_fish", board))


def test_two_string_kite():
    # Row 7 r7c6 = r7c7, column 8 r9c8 = r6c8, r7c7 and r9c8 share box 9: r6c6 sees r7c6 and r6c8.
    steps = checked_steps("two_string_kite", Board.from_pencilmarks(KITE_8))
    assert eliminations_of(steps) == candidates(8, "r6c6")
    assert "box 9" in steps[0].text


def test_two_string_kite_near_miss_third_place_in_row():
    assert checked_steps("two_string_kite", with_candidate(Board.from_pencilmarks(KITE_8), "r7c5", 8)) == []


def test_empty_rectangle():
    # Box 8 holds 8 in row 9 and column 6 only; column 8 pair r9c8/r6c8: r6c6 would empty both.
    steps = checked_steps("empty_rectangle", Board.from_pencilmarks(KITE_8))
    assert eliminations_of(steps) == candidates(8, "r6c6")
    step = steps[0]
    assert 25 in step.units and "box 8" in step.text and "column 8" in step.text


def test_empty_rectangle_near_miss_box_not_in_one_row_and_column():
    assert checked_steps("empty_rectangle", with_candidate(Board.from_pencilmarks(KITE_8), "r7c5", 8)) == []


def test_finders_leave_the_board_alone():
    board = Board.from_pencilmarks(KITE_8)
    before = (list(board.values), list(board.cands))
    for technique in PATTERNS:
        find_all(technique, board)
    assert (board.values, board.cands) == before


@pytest.mark.corpus
def test_single_digit_steps_are_valid_along_basic_solves():
    counts = valid_steps_along_basic_solves(hard_sample(50, 47, 199), PATTERNS)
    assert all(n >= 3 for n in counts.values()), counts
