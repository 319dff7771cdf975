"""Fish: X-Wing, Swordfish, Jellyfish, their finned and sashimi forms, and (finned) Franken X-Wing and Swordfish,
on hand-checked positions, random pencil marks checked against the definitions, and a corpus.

Each basic or finned fish position is the pencil-mark grid where a basic-techniques solve of a corpus puzzle
gets stuck; the Franken fish positions are lines of HoDoKu's regression test library (its published examples
for these techniques), and one corpus position for the Franken X-Wing, of which HoDoKu publishes no example. The
expected eliminations were worked out by hand from the digit's candidate map quoted beside each test.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from helpers.techniques import (
    candidates,
    checked_steps,
    eliminations_of,
    find_all,
    hard_sample,
    solution_of,
    valid_steps_along_basic_solves,
    with_candidate,
)

from sudoku_engine.board import Board, Step
from sudoku_engine.grid import PEERS, UNITS, bit, box_of, parse_cell

FISH = (
    "x_wing",
    "swordfish",
    "jellyfish",
    "finned_x_wing",
    "sashimi_x_wing",
    "finned_swordfish",
    "sashimi_swordfish",
    "finned_jellyfish",
    "sashimi_jellyfish",
)
FRANKEN = ("franken_x_wing", "finned_franken_x_wing", "franken_swordfish", "finned_franken_swordfish")

# Digit 3: columns 6 and 9 hold it only in rows 2 and 4 (X-Wing); rows 3, 6 and 9 only in columns 4, 5, 8.
X_WING_3 = """
3     2469  469   5     789   2678  1     2479  279
12459 7     14569 2369  139   236   245   8     2359
1259  1259  8     2379  1379  4     257   2379  6
6     1258  15    4     3578  23578 9     1237  12378
1249  3     149   2789  6     278   278   5     1278
259   2589  7     2389  3589  1     6     23    4
8     4569  4569  1     457   567   3     2479  2579
14579 1459  3     78    2     578   4578  6     15789
1457  1456  2     3678  34578 9     4578  147   1578
"""

# Digit 1: rows 2, 4, 8 hold it only in columns 2, 3, 5; columns 1, 4, 6, 7 only in rows 3, 5, 6, 9.
SWORDFISH_1 = """
489    24689  2469   89     3      5689   5689   7      1
5      1689   7      4      169    2      3689   3689   3689
1389   1689   1369   7      1569   15689  5689   24     24
2      159    159    6      159    38     4      38     7
149    3      8      129    7      1459   169    2569   2569
7      14569  14569  12389  12459  134589 1389   23589  23589
349    7      23459  239    8      3469   369    1      34569
6      1489   1349   5      149    7      2      3489   3489
13489  124589 123459 1239   12469  13469  7      345689 345689
"""

# Digit 7: column 4 in rows 3, 4; column 7 in rows 3, 4 plus fins r5c7, r6c7 (box 6). The same fins finish
# a swordfish on rows 2, 5, 6 (columns 1, 6, 9) and a jellyfish on columns 2, 4, 7, 8 (rows 3, 4, 7, 9).
FINNED_7 = """
3      168    7      59     5689   4      19     2      569
456    26     2456   1      2569   235679 8      3456   345679
9      1268   124568 2357   2568   235678 1347   13456  34567
1678   12678  1268   457    3      157    147    9      45678
167    5      39     8      1249   1279   12347  1346   3467
178    4      39     6      1259   12579  1237   1358   3578
4678   36789  468    2349   24689  23689  5      3478   1
2      1368   14568  345    7      13568  349    348    3489
14578  13789  1458   3459   14589  13589  6      3478   2
"""

# Digit 1: column 2 in r6, r8 and column 8 in r5, r8; r6c2 is the fin (box 4), r5c2 is missing.
SASHIMI_X_WING_1 = """
5    8    1    9    3    2    7    4    6
46   37   3467 5    468  678  9    2    1
9    27   2467 17   146  67   3    58   58
7    6    59   2    18   58   14   3    49
12   4    59   3    16   567  8    19   27
128  123  238  17   9    4    5    6    27
268  9    268  4    5    1    26   7    3
3    127  2467 8    27   9    1246 15   45
124  5    247  6    27   3    124  89   89
"""

# Digit 7: row 5 in c6, c9; row 7 in c9 plus fin r7c4; row 9 in c2, c6, c9 plus fin r9c4 (fins in box 8).
SASHIMI_SWORDFISH_7 = """
34589  459    3458   469    249    469    2349   7      1
349    2      67     8      479    1      3469   3569   34569
49     1      67     5      2479   3      2469   2689   24689
7      458    9      1      6      458    234    235    2345
345    456    345    2      459    4579   8      1      45679
1      4568   2      3479   34589  45789  4679   569    45679
489    3      1      4679   489    2      5      689    6789
6      579    58     379    1      5789   2379   4      23789
2      4579   458    34679  34589  456789 1      3689   36789
"""

# Digit 9: rows 1 (c1 c2 c8), 3 (c1 c8), 5 (c5 plus fin r5c3) and 9 (c1 c2 c5); covers c1, c2, c5, c8.
SASHIMI_JELLYFISH_9 = """
289  89   1    4    7    3    5    29   6
7    6    3    2    5    9    8    4    1
29   5    4    8    1    6    3    29   7
5    3    27   6    4    27   9    1    8
1    4    89   3    89   5    6    7    2
6    789  2789 79   289  1    4    5    3
3    2    5    1    6    4    7    8    9
4    1789 789  79   3    278  12   6    5
89   1789 6    5    29   278  12   3    4
"""


# Reached by basic techniques from magictour top1465 puzzle 185 (63.2............857.........91.........8...4....7..6..
# 2.....3......1...4....59...). Digit 9: rows 5 and 6 hold it in column 5 (r5c5, r6c5) and box 6 (r5c7, r5c9,
# r6c8, r6c9) only; box 6 has no 9 in row 4.
FRANKEN_X_WING_9 = """
6      3      4589   2      4789   14578  1479   179    179
149    124    249    13469  34679  13467  12479  8      5
7      12458  24589  134569 34689  134568 1249   12369  12369
3458   9      1      3456   2346   3456   2578   2357   2378
35     2567   23567  8      2369   1356   12579  4      12379
3458   2458   23458  7      2349   1345   6      12359  12389
2      145678 456789 46     4678   4678   3      15679  16789
3589   5678   356789 36     1      2      5789   5679   4
1348   14678  34678  346    5      9      1278   1267   12678
"""

# HoDoKu regression library, Franken Swordfish on 9 (=> r1c3<>9). Digit 9: column 1 in r1, r5; column 9 in r3, r5;
# box 2 in r1c5, r3c4, r3c6.
FRANKEN_SWORDFISH_9 = """
49  6   149 8   19  2   7   3   5
2   19  7   6   3   5   4   19  8
3   8   5   149 7   49  2   6   19
5   129 6   49  8   149 3   29  7
49  24  8   7   6   3   1   5   29
7   3   19  2   5   19  6   8   4
8   49  2   139 149 6   5   7   13
6   5   49  39  149 7   8   12  123
1   7   3   5   2   8   9   4   6
"""

# HoDoKu regression library, Finned Franken X-Wing on 1 (=> r2c9<>1). Digit 1: row 5 in r5c6, r5c9; box 2 in r1c6,
# r2c4, r2c5, r3c6.
FINNED_FRANKEN_X_WING_1 = """
4    178  3    9    2    17   18   5    6
5    9    1278 1347 147  6    138  27   127
6    127  127  8    5    137  139  4    1279
1    237  5    37   9    8    4    6    27
9    378  4    2    6    137  5    37   18
37   6    278  5    17   4    19   237  189
2    5    17   147  147  9    6    8    3
8    4    9    6    3    2    7    1    5
37   137  6    17   8    5    2    9    4
"""

# HoDoKu regression library, Finned Franken X-Wing on 6 (=> r8c2<>6). Digit 6: column 9 in r6c9, r8c9; box 4 in
# r5c2, r6c1.
FINNED_FRANKEN_X_WING_6 = """
3    29   4    6    5    29   17   8    17
5678 5679 5689 1    89   3    2    56   4
1    256  68   4    28   7    56   3    9
258  4    258  9    7    6    3    15   12
9    56   3    2    4    1    567  567  8
26   1    7    5    3    8    9    4    26
25   8    2569 7    129  4    16   169  3
4    679  69   3    19   5    8    2    167
27   3    1    8    6    29   4    79   5
"""

# HoDoKu regression library, Finned Franken Swordfish on 9 (=> r8c4<>9): FRANKEN_SWORDFISH_9 after its step. Digit 9:
# column 1 in r1, r5; column 3 in r6, r8; column 5 in r1, r7, r8.
FINNED_FRANKEN_SWORDFISH_9 = """
49  6   14  8   19  2   7   3   5
2   19  7   6   3   5   4   19  8
3   8   5   149 7   49  2   6   19
5   129 6   49  8   149 3   29  7
49  24  8   7   6   3   1   5   29
7   3   19  2   5   19  6   8   4
8   49  2   139 149 6   5   7   13
6   5   49  39  149 7   8   12  123
1   7   3   5   2   8   9   4   6
"""

# HoDoKu regression library, Finned Franken Swordfish on 8 (=> r2c5<>8), two fins. Digit 8: row 3 in c2, c5, c6;
# row 7 in c2, c5, c9; box 3 in r1c9, r2c7, r2c9.
FINNED_FRANKEN_SWORDFISH_8 = """
247    5      28     479    4789   1      6      379    3789
3      1478   6      479    45789  2      578    1579   5789
17     178    9      3      5678   678    2      157    4
79     679    4      5      3      679    1      8      2
1279   123679 23     8      679    4      57     35679  359
8      3679   5      1      2      679    4      3679   39
6      2489   1      479    4789   5      3      27     78
245    2348   238    6      478    378    9      257    1
59     389    7      2      1      389    58     4      6
"""


def _without(board: Board, name: str, digit: int) -> Board:
    """A copy without one candidate that the solution rules out (the pencil marks stay correct)."""
    cell = parse_cell(name)
    assert solution_of(board)[cell] != digit
    copy = board.copy()
    copy.cands[cell] &= ~bit(digit)
    return copy


def test_x_wing_in_columns():
    steps = checked_steps("x_wing", Board.from_pencilmarks(X_WING_3))
    assert eliminations_of(steps) == candidates(3, "r2c4", "r2c5", "r4c5", "r4c8")
    assert len(steps) == 1
    step = steps[0]
    assert step.technique == "x_wing" and step.length == 0
    assert set(step.cells) == {parse_cell(c) for c in ("r2c6", "r4c6", "r2c9", "r4c9")}
    assert set(step.units) == {14, 17, 1, 3}
    assert "columns 6 and 9" in step.text and "rows 2 and 4" in step.text and "r4c8" in step.text


def test_x_wing_near_miss_fins_spoil_it():
    # Columns 4 and 7 of FINNED_7 would be an X-Wing on 7 without r5c7 and r6c7.
    assert checked_steps("x_wing", Board.from_pencilmarks(FINNED_7)) == []


def test_swordfish_in_rows():
    steps = checked_steps("swordfish", Board.from_pencilmarks(SWORDFISH_1))
    expected = candidates(1, "r3c2", "r3c3", "r3c5", "r6c2", "r6c3", "r6c5", "r9c2", "r9c3", "r9c5")
    assert eliminations_of(steps) == expected
    assert "rows 2, 4 and 8" in steps[0].text


def test_swordfish_in_rows_of_the_x_wing_board():
    steps = checked_steps("swordfish", Board.from_pencilmarks(X_WING_3))
    assert eliminations_of(steps) == candidates(3, "r2c4", "r2c5", "r4c5", "r4c8")


def test_swordfish_near_miss_fourth_column():
    assert checked_steps("swordfish", with_candidate(Board.from_pencilmarks(SWORDFISH_1), "r4c6", 1)) == []
    assert checked_steps("swordfish", Board.from_pencilmarks(FINNED_7)) == []


def test_jellyfish_in_columns():
    steps = checked_steps("jellyfish", Board.from_pencilmarks(SWORDFISH_1))
    expected = candidates(1, "r3c2", "r3c3", "r3c5", "r6c2", "r6c3", "r6c5", "r9c2", "r9c3", "r9c5")
    assert eliminations_of(steps) == expected
    assert "columns 1, 4, 6 and 7" in steps[0].text


def test_jellyfish_near_miss_fifth_row():
    assert checked_steps("jellyfish", with_candidate(Board.from_pencilmarks(SWORDFISH_1), "r4c6", 1)) == []
    assert checked_steps("jellyfish", Board.from_pencilmarks(FINNED_7)) == []


def test_finned_x_wing():
    steps = checked_steps("finned_x_wing", Board.from_pencilmarks(FINNED_7))
    assert eliminations_of(steps) == candidates(7, "r4c9")
    step = steps[0]
    assert {parse_cell("r5c7"), parse_cell("r6c7")} <= set(step.cells)
    assert 23 in step.units and "box 6" in step.text


def test_finned_fish_near_miss_nothing_in_the_fin_box_to_remove():
    board = _without(Board.from_pencilmarks(FINNED_7), "r4c9", 7)
    for technique in ("finned_x_wing", "finned_swordfish", "finned_jellyfish"):
        assert checked_steps(technique, board) == []


def test_finned_swordfish():
    steps = checked_steps("finned_swordfish", Board.from_pencilmarks(FINNED_7))
    assert eliminations_of(steps) == candidates(7, "r4c9")
    assert "rows 2, 5 and 6" in steps[0].text


def test_finned_jellyfish():
    steps = checked_steps("finned_jellyfish", Board.from_pencilmarks(FINNED_7))
    assert eliminations_of(steps) == candidates(7, "r4c9")
    assert "columns 2, 4, 7 and 8" in steps[0].text


def test_sashimi_x_wing():
    steps = checked_steps("sashimi_x_wing", Board.from_pencilmarks(SASHIMI_X_WING_1))
    assert eliminations_of(steps) == candidates(1, "r5c1")
    assert "Sashimi X-Wing" in steps[0].text and "r6c2" in steps[0].text


def test_sashimi_is_not_reported_as_finned():
    assert checked_steps("finned_x_wing", Board.from_pencilmarks(SASHIMI_X_WING_1)) == []


def test_finned_is_not_reported_as_sashimi():
    assert checked_steps("sashimi_x_wing", Board.from_pencilmarks(FINNED_7)) == []


def test_sashimi_x_wing_near_miss_nothing_to_remove():
    assert checked_steps("sashimi_x_wing", _without(Board.from_pencilmarks(SASHIMI_X_WING_1), "r5c1", 1)) == []


def test_sashimi_swordfish():
    steps = checked_steps("sashimi_swordfish", Board.from_pencilmarks(SASHIMI_SWORDFISH_7))
    assert eliminations_of(steps) == candidates(7, "r8c6")
    assert "rows 5, 7 and 9" in steps[0].text


def test_sashimi_swordfish_near_miss_nothing_to_remove():
    assert checked_steps("sashimi_swordfish", _without(Board.from_pencilmarks(SASHIMI_SWORDFISH_7), "r8c6", 7)) == []


def test_sashimi_jellyfish():
    steps = checked_steps("sashimi_jellyfish", Board.from_pencilmarks(SASHIMI_JELLYFISH_9))
    assert eliminations_of(steps) == candidates(9, "r6c2")
    assert "rows 1, 3, 5 and 9" in steps[0].text and "r5c3" in steps[0].text


def test_sashimi_jellyfish_near_miss_nothing_to_remove():
    assert checked_steps("sashimi_jellyfish", _without(Board.from_pencilmarks(SASHIMI_JELLYFISH_9), "r6c2", 9)) == []


def _on(digit: int, steps: list[Step]) -> list[Step]:
    """The steps about one digit."""
    return [step for step in steps if step.eliminations[0][1] == digit]


def test_franken_x_wing():
    steps = _on(9, checked_steps("franken_x_wing", Board.from_pencilmarks(FRANKEN_X_WING_9)))
    # Base rows 5 and 6, cover column 5 and box 6: box 6 holds one 9, in row 5 or 6, so the other row's 9 is in
    # column 5; 9 leaves the rest of column 5 (r1c5, r2c5, r3c5) and of box 6 (row 4 of it has no 9).
    assert [set(step.eliminations) for step in steps] == [candidates(9, "r1c5", "r2c5", "r3c5")]
    assert set(steps[0].units) == {4, 5, 13, 23} and "row 5 and row 6" in steps[0].text


def test_franken_x_wing_near_miss_a_fin_makes_it_finned():
    # Row 5 and box 2 against columns 6 and 9 leave r2c4 and r2c5 uncovered: no unfinned Franken X-Wing on 1.
    board = Board.from_pencilmarks(FINNED_FRANKEN_X_WING_1)
    assert checked_steps("franken_x_wing", board) == []
    assert len(checked_steps("finned_franken_x_wing", board)) == 1


def test_franken_swordfish():
    steps = _on(9, checked_steps("franken_swordfish", Board.from_pencilmarks(FRANKEN_SWORDFISH_9)))
    # Base columns 1, 9 and box 2 (disjoint), cover rows 1, 3, 5: every base 9 is covered; the only other 9 of those
    # rows is r1c3. HoDoKu's library gives r1c3<>9.
    assert [set(step.eliminations) for step in steps] == [candidates(9, "r1c3")]
    assert set(steps[0].units) == {9, 17, 19, 0, 2, 4}
    assert "column 1, column 9 and box 2" in steps[0].text


def test_franken_swordfish_near_miss_nothing_to_remove():
    board = _without(Board.from_pencilmarks(FRANKEN_SWORDFISH_9), "r1c3", 9)
    assert _on(9, checked_steps("franken_swordfish", board)) == []


def test_finned_franken_x_wing():
    steps = checked_steps("finned_franken_x_wing", Board.from_pencilmarks(FINNED_FRANKEN_X_WING_1))
    # Base row 5 and box 2, cover columns 6 and 9: r2c4 and r2c5 are fins; of the cover cells outside the base
    # (r2c9, r3c9, r6c9) only r2c9 sees both fins. HoDoKu's library gives r2c9<>1.
    assert [set(step.eliminations) for step in steps] == [candidates(1, "r2c9")]
    assert "fins r2c4 and r2c5" in steps[0].text
    steps = checked_steps("finned_franken_x_wing", Board.from_pencilmarks(FINNED_FRANKEN_X_WING_6))
    # Base column 9 and box 4, cover rows 6 and 8: r5c2 is the fin; of r8c2 and r8c3 (row 8 outside the base) only
    # r8c2 sees it. HoDoKu's library gives r8c2<>6.
    assert [set(step.eliminations) for step in steps] == [candidates(6, "r8c2")]


def test_finned_franken_x_wing_near_miss_nothing_to_remove():
    board = _without(Board.from_pencilmarks(FINNED_FRANKEN_X_WING_1), "r2c9", 1)
    assert checked_steps("finned_franken_x_wing", board) == []


def test_finned_franken_swordfish():
    steps = checked_steps("finned_franken_swordfish", Board.from_pencilmarks(FINNED_FRANKEN_SWORDFISH_9))
    # Base columns 1, 3 and 5, cover rows 1 and 8 and box 4: r7c5 is the fin; r8c4 is the only 9 of the cover outside
    # the base and it sees r7c5 (box 8). HoDoKu's library gives r8c4<>9.
    assert [set(step.eliminations) for step in steps] == [candidates(9, "r8c4")]
    steps = checked_steps("finned_franken_swordfish", Board.from_pencilmarks(FINNED_FRANKEN_SWORDFISH_8))
    # Base rows 3 and 7 and box 3, cover columns 2, 5 and 9: fins r2c7 and r3c6; r2c5 sees both (row 2, box 2),
    # r1c5, r2c2, r8c5 do not. HoDoKu's library gives r2c5<>8.
    assert [set(step.eliminations) for step in steps] == [candidates(8, "r2c5")]
    assert "fins r2c7 and r3c6" in steps[0].text


def test_finned_franken_swordfish_near_miss_nothing_to_remove():
    board = _without(Board.from_pencilmarks(FINNED_FRANKEN_SWORDFISH_8), "r2c5", 8)
    assert checked_steps("finned_franken_swordfish", board) == []


def test_franken_fish_hold_a_box_and_lines_of_both_directions():
    # HoDoKu's Franken category: rows and boxes against columns and boxes (or the other way), a box among them;
    # with rows and columns alone the fish is a basic one, and it is never reported here.
    grids = (X_WING_3, SWORDFISH_1, FINNED_7, FRANKEN_X_WING_9, FRANKEN_SWORDFISH_9, FINNED_FRANKEN_SWORDFISH_8)
    for grid in grids:
        for technique in FRANKEN:
            for step in checked_steps(technique, Board.from_pencilmarks(grid)):
                _assert_franken_houses(step)


def _assert_franken_houses(step: Step) -> None:
    """A Franken fish's houses: as many base as cover, a box, a row and a column among them."""
    size = 2 if "X-Wing" in step.text else 3
    assert len(step.units) == 2 * size
    assert any(u >= 18 for u in step.units) and any(u < 9 for u in step.units) and any(9 <= u < 18 for u in step.units)


def test_finders_leave_the_board_alone():
    board = Board.from_pencilmarks(FINNED_7)
    before = (list(board.values), list(board.cands))
    for technique in FISH:
        find_all(technique, board)
    assert (board.values, board.cands) == before


def _reference(board: Board, size: int, finned: bool) -> set[tuple]:
    """Every fish of a size straight from the definitions: (sashimi, digit, eliminations, cells, units)."""
    found = set()
    for digit in range(1, 10):
        for rows_base in (True, False):

            def cell(line: int, x: int, rows_base: bool = rows_base) -> int:
                """The cell at a base line and a cross position."""
                return line * 9 + x if rows_base else x * 9 + line

            pos = [{x for x in range(9) if board.has(cell(line, x), digit)} for line in range(9)]
            lines = [line for line in range(9) if 2 <= len(pos[line]) <= size + (3 if finned else 0)]
            for base in combinations(lines, size):
                union = set().union(*(pos[line] for line in base))
                if finned:
                    covers = [set(cover) for cover in combinations(sorted(union), size)]
                else:
                    covers = [union] if len(union) <= size else []
                for cover in covers:
                    fins = {cell(line, x) for line in base for x in pos[line] - cover}
                    boxes = {box_of(c) for c in fins}
                    if bool(fins) != finned or len(boxes) > 1 or any(not pos[line] & cover for line in base):
                        continue
                    eliminations = frozenset(
                        cell(line, x)
                        for line in range(9)
                        if line not in base
                        for x in pos[line] & cover
                        if not fins or box_of(cell(line, x)) in boxes
                    )
                    if not eliminations:
                        continue
                    sashimi = finned and any(len(pos[line] & cover) == 1 for line in base)
                    cells = frozenset(cell(line, x) for line in base for x in pos[line])
                    units = {line if rows_base else 9 + line for line in base}
                    units |= {9 + x if rows_base else x for x in cover} | {18 + box for box in boxes}
                    found.add((sashimi, digit, eliminations, cells, frozenset(units)))
    return found


def _found(technique: str, board: Board) -> set[tuple]:
    """The steps of a fish finder in the form of ``_reference``, checking that none repeats."""
    steps = find_all(technique, board)
    found = {
        (
            technique.startswith("sashimi"),
            step.eliminations[0][1],
            frozenset(c for c, _ in step.eliminations),
            frozenset(step.cells),
            frozenset(step.units),
        )
        for step in steps
    }
    assert len(found) == len(steps)
    return found


def test_fish_agree_with_the_definitions_on_random_pencil_marks():
    rng = random.Random(20240611)
    for _ in range(6):
        density = [rng.uniform(0.1, 0.45) for _ in range(9)]
        board = Board([0] * 81, [sum(bit(d) for d in range(1, 10) if rng.random() < density[d - 1]) for _ in range(81)])
        for size, name in ((2, "x_wing"), (3, "swordfish"), (4, "jellyfish")):
            assert _found(name, board) == _reference(board, size, False)
            finned = _reference(board, size, True)
            assert _found(f"finned_{name}", board) == {fish for fish in finned if not fish[0]}
            assert _found(f"sashimi_{name}", board) == {fish for fish in finned if fish[0]}


_HOUSE_BITS = [sum(1 << c for c in UNITS[u]) for u in range(27)]


def _seeing_all(cells: int) -> int:
    """The cells that see every cell of a mask (all cells for an empty mask)."""
    seeing = (1 << 81) - 1
    for cell in range(81):
        if cells >> cell & 1:
            seeing &= sum(1 << p for p in PEERS[cell])
    return seeing


def _franken_reference(board: Board, size: int) -> dict[bool, set[tuple[int, int]]]:
    """Every Franken fish of a size straight from HoDoKu's definitions: per finned or not, (digit, eliminations)."""
    found: dict[bool, set[tuple[int, int]]] = {False: set(), True: set()}
    for digit in range(1, 10):
        cells = sum(1 << c for c in range(81) if board.has(c, digit))
        inside = [house & cells for house in _HOUSE_BITS]
        for lines, crosses in ((range(9), range(9, 18)), (range(9, 18), range(9))):
            bases = [u for u in (*lines, *range(18, 27)) if bin(inside[u]).count("1") >= 2]
            for base in combinations(bases, size):
                union = endo = 0
                for u in base:
                    endo |= union & inside[u]
                    union |= inside[u]
                covers = [u for u in (*crosses, *range(18, 27)) if u not in base and inside[u] & union]
                for cover in combinations(covers, size):
                    houses = (*base, *cover)
                    if not any(u in lines for u in base) or not any(u in crosses for u in cover):
                        continue  # a line of each direction
                    if not any(u >= 18 for u in houses):
                        continue  # no box: a basic fish
                    covered = twice = 0
                    for u in cover:
                        twice |= covered & inside[u]
                        covered |= inside[u]
                    fins = union & ~covered | endo
                    if any(not inside[u] & ~fins for u in base):
                        continue
                    eliminations = (covered & ~union | twice & union) & _seeing_all(fins)
                    if eliminations:
                        found[bool(fins)].add((digit, eliminations))
    return found


def _franken_found(technique: str, board: Board) -> set[tuple[int, int]]:
    """(digit, eliminations) of a Franken finder's steps, checking that no elimination set repeats for a digit."""
    steps = find_all(technique, board)
    found = {(s.eliminations[0][1], sum(1 << c for c, _ in s.eliminations)) for s in steps}
    assert len(found) == len(steps)
    return found


def test_franken_fish_agree_with_the_definitions_on_random_pencil_marks():
    rng = random.Random(20240613)
    for _ in range(3):
        density = [rng.uniform(0.1, 0.3) for _ in range(9)]
        board = Board([0] * 81, [sum(bit(d) for d in range(1, 10) if rng.random() < density[d - 1]) for _ in range(81)])
        for size, name in ((2, "x_wing"), (3, "swordfish")):
            reference = _franken_reference(board, size)
            assert reference[False] and reference[True]  # the boards are dense enough to hold both kinds
            assert _franken_found(f"franken_{name}", board) == reference[False]
            assert _franken_found(f"finned_franken_{name}", board) == reference[True]


@pytest.mark.corpus
def test_fish_steps_are_valid_along_basic_solves():
    counts = valid_steps_along_basic_solves(hard_sample(15, 97, 401), FISH)
    assert all(n >= 3 for n in counts.values()), counts


@pytest.mark.corpus
def test_franken_fish_steps_are_valid_along_basic_solves():
    counts = valid_steps_along_basic_solves(hard_sample(8, 97, 401), FRANKEN)
    assert all(n >= 3 for n in counts.values()), counts
