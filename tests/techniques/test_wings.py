"""Wings: XY-Wing, XYZ-Wing, WXYZ-Wing, VWXYZ-Wing, W-Wing and Remote Pair.

Positive positions are HoDoKu's published examples (its technique pages, pencil marks as shown there) or
positions reached in the Sudoku Exchange corpus (HoDoKu has neither WXYZ- nor VWXYZ-Wing); every expected
elimination below was derived by hand from the pattern named in the test. Near misses change one cell's candidates
(never removing its true digit) so that the pattern breaks.
"""

from __future__ import annotations

import csv
from collections import Counter

import pytest
from helpers.corpus import corpus_file, read_puzzles
from helpers.techniques import assert_steps_valid, candidate_pairs, changed, eliminations_of, find_all, solution_of

from sudoku_engine import logic
from sudoku_engine.board import Board, Step
from sudoku_engine.grid import parse_cell
from sudoku_engine.rating import rate
from sudoku_engine.techniques import BY_ID, CATALOGUE, step_se

VWXYZ_WINGS = ("vwxyz_wing_pentavalue", "vwxyz_wing", "vwxyz_wing_trivalue")
WINGS = ("xy_wing", "xyz_wing", "wxyz_wing", "wxyz_wing_trivalue", *VWXYZ_WINGS, "w_wing", "remote_pair")
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

# Reached by the logic solver from Sudoku Exchange puzzle
# .725.146..........1..4.7..98.......5.671.594...9.2.6....8...3.....9.8....4.....7. (SE 5.5).
WXYZ_BIVALUE = """
3   7   2   5   9   1   4   6   8
456 9   456 8   36  2   157 135 17
1   8   56  4   36  7   25  235 9
8   13  134 6   47  9   127 12  5
2   6   7   1   8   5   9   4   3
45  15  9   37  2   34  6   8   17
57  125 8   27  15  46  3   9   46
67  23  36  9   47  8   15  15  24
9   4   15  23  15  36  8   7   26
"""

# Reached by the logic solver from Sudoku Exchange puzzle
# ...31.....6..97.4...142.3...3....5.2786...1395.2....6...3.597...2.68..1.....74... (SE 5.6).
WXYZ_TRIVALUE = """
2    479  489  3    1    56   689  5789 678
3    6    5    8    9    7    2    4    1
89   79   1    4    2    56   3    5789 678
14   3    49   79   6    18   5    78   2
7    8    6    5    4    2    1    3    9
5    19   2    79   3    18   48   6    478
1468 14   3    12   5    9    7    28   468
49   2    7    6    8    3    49   1    5
1689 5    89   12   7    4    69   289  3
"""

# Reached by the logic solver from Sudoku Exchange puzzle
# 9..2....6..3.8......69.532...8...1.2.5..7..3.2.4...6...695.87......4.2..8....3..5 (SE 5.5).
WXYZ_DOUBLE = """
9    1478 57   2    3    47   458  1478 6
1457 2    3    467  8    467  459  1479 1479
47   478  6    9    1    5    3    2    478
37   379  8    346  569  469  1    457  2
6    5    1    48   7    2    489  3    489
2    379  4    138  59   19   6    578  78
134  6    9    5    2    8    7    14   134
1357 137  57   167  4    1679 2    1689 1389
8    147  2    167  69   3    49   1469 5
"""

# Reached by the logic solver from Sudoku Exchange puzzle
# 83.7....1......7.4.69..42....7.4...9...8.1...2...9.1....14..87.4.6......3....2.15 (SE 6.2).
VWXYZ_PENTAVALUE = """
8     3     4     7     2     569   569   569   1
15    15    2     369   368   3689  7     3689  4
7     6     9     135   138   4     2     358   38
16    18    7     2     4     356   356   3568  9
69    49    35    8     3567  1     356   2456  237
2     48    35    356   9     3567  1     34568 378
59    2     1     4     35    359   8     7     6
4     57    6     15    1578  578   39    239   23
3     79    8     69    67    2     4     1     5
"""

# Reached by the logic solver from Sudoku Exchange puzzle
# ...1.3...3.......7...946...7.5...8.1....5......6...3..5.2.3.9.6.7.5.8.2..4..6..5. (SE 6.2).
VWXYZ_DOUBLE = """
2489  25689 489   1     7     3     2456  4689  2489
3     169   149   28    28    5     146   1469  7
128   1258  7     9     4     6     125   3     28
7     239   5     36    29    249   8     469   1
1489  1389  1489  36    5     1479  2467  4679  249
1249  129   6     478   189   12479 3     479   5
5     18    2     47    3     147   9     178   6
6     7     139   5     19    8     14    2     34
189   4     1389  27    6     1279  17    5     38
"""

# Reached by the logic solver from Sudoku Exchange puzzle
# 934...8567.......4..25.41..5..7.6..3....9.....2.....8.81.....92............163... (SE 6.3).
VWXYZ_BIVALUE = """
9   3   4   2   17  17  8   5   6
7   5   1   6   8   9   23  23  4
6   8   2   5   3   4   1   7   9
5   49  8   7   14  6   249 12  3
13  467 37  8   9   2   45  16  15
14  2   69  3   145 15  69  8   7
8   1   36  4   57  57  36  9   2
34  467 357 9   2   8   357 136 15
2   79  579 1   6   3   57  4   8
"""

# Reached by the logic solver from Sudoku Exchange puzzle
# .2.....9.5.84..1.....2....43....6...84..7..35...5....97....1.....1..27.3.9.....8. (SE 6.4).
VWXYZ_TRIVALUE = """
146  2    347  67   156  57   36   9    8
5    367  8    4    9    37   1    27   26
9    167  37   2    136  8    356  57   4
3    5    9    8    2    6    4    1    7
8    4    6    1    7    9    2    3    5
12   17   27   5    34   34   8    6    9
7    38   345  36   4568 1    9    245  26
46   68   1    9    458  2    7    45   3
24   9    2345 367  456  457  56   8    1
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


def test_wxyz_wing_singly_linked():
    steps = _checked("wxyz_wing", Board.from_pencilmarks(WXYZ_BIVALUE))
    # r6c1 (4/5), r6c4 (3/7), r6c6 (3/4) hold 3/4/5/7 in row 6; r7c1 (5/7) sees the only 5 of the three (r6c1,
    # column 1) but not the only 7 (r6c4). If r7c1 is 5 the three cells hold 3/4/7, so r6c4 is 7; else r7c1 is 7.
    # 7 leaves the cells seeing r7c1 and r6c4: r7c4 (row 7, column 4); r6c1, the other one, is in the pattern.
    step = _step_with_cells(steps, _cells("r6c1", "r6c4", "r6c6", "r7c1"))
    assert set(step.eliminations) == candidate_pairs(("r7c4", 7))
    # The largest of the three cells is bivalue: Sukaku Explainer rates the wing 5.5, and so does the step.
    assert step_se(step) == 5.5
    assert _checked("wxyz_wing_trivalue", Board.from_pencilmarks(WXYZ_BIVALUE)) == []


def test_wxyz_wing_needs_a_bivalue_cell():
    # r7c1 gets a third candidate (6; its digit is 7): it no longer links the three cells, and the 7 of r7c4 stays
    # (the new 6 opens other wings, checked against the solution like every step here).
    steps = _checked("wxyz_wing", changed(WXYZ_BIVALUE, r7c1="567"))
    assert all(s.cells[3] != parse_cell("r7c1") for s in steps)
    assert (parse_cell("r7c4"), 7) not in eliminations_of(steps)


def test_wxyz_wing_with_a_trivalue_largest_cell():
    board = Board.from_pencilmarks(WXYZ_TRIVALUE)
    steps = _checked("wxyz_wing_trivalue", board)
    # r7c8 (2/8), r8c7 (4/9), r9c8 (2/8/9) hold 2/4/8/9 in box 9; r6c7 (4/8) sees the only 4 (r8c7, column 7)
    # but neither 8 (r7c8, r9c8: column 8, box 9). So 8 is in r6c7 or among r7c8/r9c8: r4c8, which sees all
    # three (column 8 and box 6), loses 8.
    step = _step_with_cells(steps, _cells("r7c8", "r8c7", "r9c8", "r6c7"))
    assert set(step.eliminations) == candidate_pairs(("r4c8", 8))
    assert step_se(step) == 5.6 and BY_ID["wxyz_wing_trivalue"].se_rating == 5.6
    assert _checked("wxyz_wing", board) == []


def test_wxyz_wing_rating_follows_the_largest_cell():
    # r9c8 without its 9 (its digit is 2): the same wing, now with three bivalue cells, is a 5.5 one.
    board = changed(WXYZ_TRIVALUE, r9c8="28")
    assert _checked("wxyz_wing_trivalue", board) == []
    step = _step_with_cells(_checked("wxyz_wing", board), _cells("r7c8", "r8c7", "r9c8", "r6c7"))
    assert set(step.eliminations) == candidate_pairs(("r4c8", 8)) and step_se(step) == 5.5


def test_wxyz_wing_doubly_linked():
    steps = _checked("wxyz_wing", Board.from_pencilmarks(WXYZ_DOUBLE))
    # r9c5 (6/9), r9c7 (4/9), r9c8 (1/4/6/9) hold 1/4/6/9 in row 9; r7c8 (1/4) sees every 1 (r9c8) and every 4
    # (r9c7, r9c8) of them (box 9), so whichever it takes the three cells hold the other three digits:
    # 6 (r9c5, r9c8) leaves row 9: r9c4; 9 (all three) has no other place in row 9;
    # 1 (r7c8, r9c8) leaves column 8 and box 9: r1c8, r2c8, r8c8, r7c9, r8c9; 4 (r7c8, r9c7, r9c8) leaves box 9: r7c9.
    step = _step_with_cells(steps, _cells("r9c5", "r9c7", "r9c8", "r7c8"))
    assert set(step.eliminations) == candidate_pairs(
        ("r9c4", 6), ("r1c8", 1), ("r2c8", 1), ("r8c8", 1), ("r7c9", 1), ("r8c9", 1), ("r7c9", 4)
    )
    assert "4" in step.text and step_se(step) == 5.5


@pytest.mark.parametrize(
    ("puzzle", "se", "hardest"),
    [
        (".725.146..........1..4.7..98.......5.671.594...9.2.6....8...3.....9.8....4.....7.", 5.5, "wxyz_wing"),
        (
            "...31.....6..97.4...142.3...3....5.2786...1395.2....6...3.597...2.68..1.....74...",
            5.6,
            "wxyz_wing_trivalue",
        ),
    ],
)
def test_wxyz_wing_puzzles_rate_as_sukaku_explainer_rates_them(puzzle, se, hardest):
    # Sukaku Explainer's ratings from the Sudoku Exchange corpus (sudokuexchange_graded_even.tsv).
    rating = rate(puzzle, measures=False)
    assert (rating.se_like, rating.hardest_technique) == (se, hardest)


def _not_as(technique_ids: tuple[str, ...], board: Board, cells: tuple[int, ...]) -> bool:
    """True when none of these techniques reports a step on exactly these cells."""
    return all(s.cells != cells for t in technique_ids for s in find_all(t, board))


def test_vwxyz_wing_with_a_cell_holding_all_five_digits():
    board = Board.from_pencilmarks(VWXYZ_PENTAVALUE)
    steps = _checked("vwxyz_wing_pentavalue", board)
    # r4c7 (3/5/6), r4c8 (3/5/6/8), r5c7 (3/5/6), r6c8 (3/4/5/6/8) hold 3/4/5/6/8 in box 6; r6c2 (4/8) sees the
    # only 4 of the four (r6c8, row 6) but not the 8 of r4c8. If r6c2 is 4 the four cells hold 3/5/6/8, so one of
    # r4c8 and r6c8 is 8; else r6c2 is 8. 8 leaves the cells seeing r6c2, r4c8 and r6c8: only row 6 within box 6
    # sees all three (r4c2 sees r6c2 and r4c8, not r6c8), where r6c7 is placed: r6c9 loses 8.
    cells = _cells("r4c7", "r4c8", "r5c7", "r6c8", "r6c2")
    step = _step_with_cells(steps, cells)
    assert set(step.eliminations) == candidate_pairs(("r6c9", 8))
    # r6c8 holds all five digits: Sukaku Explainer rates the wing 6.2, and so does the step.
    assert step_se(step) == 6.2 and "VWXYZ-Wing" in step.text
    assert _not_as(("vwxyz_wing", "vwxyz_wing_trivalue"), board, cells)


def test_vwxyz_wing_doubly_linked():
    steps = _checked("vwxyz_wing_pentavalue", Board.from_pencilmarks(VWXYZ_DOUBLE))
    # r4c6 (2/4/9), r5c6 (1/4/7/9), r6c6 (1/2/4/7/9), r7c6 (1/4/7) hold 1/2/4/7/9 in column 6; r4c5 (2/9) sees, in
    # box 5, every 2 (r4c6, r6c6) and every 9 (r4c6, r5c6, r6c6) of them, so whichever it takes the four cells
    # hold the other four digits. 1 (r5c6, r6c6, r7c6) and 7 (the same cells) leave column 6: r9c6; 4 (all four)
    # has no other place in column 6; 2 (with r4c5) leaves box 5, where no other cell holds it; 9 leaves box 5:
    # r6c5.
    step = _step_with_cells(steps, _cells("r4c6", "r5c6", "r6c6", "r7c6", "r4c5"))
    assert set(step.eliminations) == candidate_pairs(("r6c5", 9), ("r9c6", 1), ("r9c6", 7))
    assert "2 or 9" in step.text and step_se(step) == 6.2


def test_vwxyz_wing_of_bivalue_cells():
    board = Board.from_pencilmarks(VWXYZ_BIVALUE)
    steps = _checked("vwxyz_wing", board)
    # r4c2 (4/9), r5c1 (1/3), r5c3 (3/7), r6c1 (1/4) hold 1/3/4/7/9 in box 4; r9c2 (7/9) sees the only 9 (r4c2,
    # column 2) but not the only 7 (r5c3). If r9c2 is 9 the four cells hold 1/3/4/7 and r5c3 is 7; else r9c2 is 7.
    # 7 leaves the cells seeing r9c2 and r5c3: r5c2 (column 2, box 4), r8c3 and r9c3 (column 3, box 7).
    cells = _cells("r4c2", "r5c1", "r5c3", "r6c1", "r9c2")
    first = _step_with_cells(steps, cells)
    assert set(first.eliminations) == candidate_pairs(("r5c2", 7), ("r8c3", 7), ("r9c3", 7))
    # r4c2, r5c1, r6c1 and r6c3 (6/9) hold 1/3/4/6/9; r7c3 (3/6) sees the only 6 (r6c3, column 3) but not the only 3
    # (r5c1): 3 leaves r5c3 (box 4, column 3) and r8c1 (column 1, box 7).
    second = _step_with_cells(steps, _cells("r4c2", "r5c1", "r6c1", "r6c3", "r7c3"))
    assert set(second.eliminations) == candidate_pairs(("r5c3", 3), ("r8c1", 3))
    # The largest cell of the four is bivalue: 6.3.
    assert step_se(first) == step_se(second) == 6.3
    assert _not_as(("vwxyz_wing_pentavalue", "vwxyz_wing_trivalue"), board, cells)


def test_vwxyz_wing_with_a_trivalue_largest_cell():
    board = Board.from_pencilmarks(VWXYZ_TRIVALUE)
    steps = _checked("vwxyz_wing_trivalue", board)
    # r1c4 (6/7), r1c5 (1/5/6), r1c6 (5/7), r3c5 (1/3/6) hold 1/3/5/6/7 in box 2; r3c3 (3/7) sees the only 3
    # (r3c5, row 3) but neither 7 (r1c4, r1c6). 7 is in r3c3 or in row 1 within box 2: r1c3, which sees r3c3
    # (box 1) and both 7s (row 1), loses 7 (r1c1 and r1c2 see them too, but hold no 7).
    cells = _cells("r1c4", "r1c5", "r1c6", "r3c5", "r3c3")
    step = _step_with_cells(steps, cells)
    assert set(step.eliminations) == candidate_pairs(("r1c3", 7))
    assert step_se(step) == 6.4 and BY_ID["vwxyz_wing_trivalue"].se_rating == 6.4
    assert _not_as(("vwxyz_wing_pentavalue", "vwxyz_wing"), board, cells)


@pytest.mark.parametrize(
    "change",
    [
        # r1c4 gets a 3 (its digit is 7): r3c3 no longer sees every 3 of the four, and no digit links it.
        {"r1c4": "367"},
        # r1c6 gets a 4 (its digit is 6): the four cells hold six digits, no almost locked set.
        {"r1c6": "457"},
    ],
)
def test_vwxyz_wing_near_misses(change):
    board = changed(VWXYZ_TRIVALUE, **change)
    cells = _cells("r1c4", "r1c5", "r1c6", "r3c5", "r3c3")
    steps = [s for t in VWXYZ_WINGS for s in _checked(t, board)]
    assert all(s.cells != cells for s in steps)
    assert (parse_cell("r1c3"), 7) not in eliminations_of(steps)


@pytest.mark.parametrize(
    ("puzzle", "se", "hardest"),
    [
        (
            "83.7....1......7.4.69..42....7.4...9...8.1...2...9.1....14..87.4.6......3....2.15",
            6.2,
            "vwxyz_wing_pentavalue",
        ),
        (
            "...1.3...3.......7...946...7.5...8.1....5......6...3..5.2.3.9.6.7.5.8.2..4..6..5.",
            6.2,
            "vwxyz_wing_pentavalue",
        ),
        ("934...8567.......4..25.41..5..7.6..3....9.....2.....8.81.....92............163...", 6.3, "vwxyz_wing"),
        (
            ".2.....9.5.84..1.....2....43....6...84..7..35...5....97....1.....1..27.3.9.....8.",
            6.4,
            "vwxyz_wing_trivalue",
        ),
    ],
)
def test_vwxyz_wing_puzzles_rate_as_sukaku_explainer_rates_them(puzzle, se, hardest):
    # Sukaku Explainer's ratings from the Sudoku Exchange corpus (sudokuexchange_graded_even.tsv).
    rating = rate(puzzle, measures=False)
    assert (rating.se_like, rating.hardest_technique) == (se, hardest)


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
