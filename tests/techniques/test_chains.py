"""Chains: X-Chain, XY-Chain, nice loops / AICs and grouped nice loops, on hand-checked positions and the corpus.

Each position is a real puzzle's candidate grid where singles, intersections and subsets are stuck; the
expected conclusions were worked out by hand from the grid (the chain's links are written beside each test).
"""

from __future__ import annotations

import re

import pytest
from helpers.corpus import corpus_file, read_puzzles
from helpers.techniques import assert_steps_valid, find_all, solution_of, valid_steps_along_basic_solves

from sudoku_engine.board import Board
from sudoku_engine.grid import parse_cell
from sudoku_engine.techniques import technique

CHAIN_IDS = ("x_chain", "xy_chain", "nice_loop", "grouped_nice_loop")

# 3...9.75..1..8...9.74......1...62....4.3.8.1....94...7......84.5...3..7..68.1...3 after the basics.
X_CHAIN_GRID = """
3    8    2    14   9    6    7    5    14
6    1    5    247  8    37   234  23   9
9    7    4    12   25   35   1236 2368 1268
1    39   7    5    6    2    349  389  48
2    4    69   3    7    8    569  1    56
8    5    36   9    4    1    236  236  7
7    239  139  6    25   59   8    4    125
5    29   19   8    3    4    1269 7    126
4    6    8    27   1    579  259  29   3
"""

# 6.4.9.5.3..9......3....5.29..34.6...5.......1...5.82..13.7....6......7..4.7.5.9.2 after the basics.
XY_CHAIN_GRID = """
6     128   4     128   9     17    5     78    3
28    5     9     12368 68    137   16    478   478
3     7     18    168   4     5     16    2     9
279   29    3     4     1     6     8     579   57
5     48    68    9     7     2     3     46    1
79    14    16    5     3     8     2     4679  47
1     3     25    7     28    9     4     58    6
89    689   25    13    268   4     7     13    58
4     68    7     68    5     13    9     13    2
"""

# ..4..572.....4...3.2.8.7.9...5.......3.1.6.7.......3...9.7.1.3.5...2.....183..2.. after the basics.
AIC_GRID = """
139     8       4       69      13      5       7       2       16
179     5       179     269     4       29      168     168     3
136     2       16      8       13      7       45      9       45
1246789 467     5       24      789     3       14689   1468    124689
2489    3       29      1       89      6       4589    7       24589
1246789 467     12679   5       789     24      3       1468    124689
246     9       26      7       5       1       468     3       468
5       467     3       49      2       8       1469    146     14679
47      1       8       3       6       49      2       5       479
"""

# 97.3.6.428.5...1.9....5....2.7...3.4.1..2..8.4..738..1...9.5............1..847..3 after the basics.
LOOP_GRID = """
9     7     1     3     8     6     5     4     2
8     36    5     4     7     2     1     36    9
36    24    24    1     5     9     678   367   678
2     8     7     56    9     1     3     56    4
356   1     369   56    2     4     679   8     567
4     569   69    7     3     8     269   2569  1
367   2346  23468 9     16    5     24678 1267  678
567   4569  4689  2     16    3     46789 15679 5678
1     2569  269   8     4     7     269   2569  3
"""

# ..27.9.3.73....49..9..1...71..5.7..2..9.6.1..2..1.4..99...7..1..81....24.4.2.19.. after the basics.
GROUPED_GRID = """
568  1    2    7    4    9    568  3    568
7    3    568  68   2    58   4    9    1
4568 9    4568 368  1    358  2    568  7
1    6    348  5    9    7    38   48   2
348  57   9    38   6    2    1    4578 358
2    57   38   1    38   4    56   567  9
9    2    356  4    7    368  3568 1    3568
356  8    1    9    35   36   7    2    4
356  4    7    2    358  1    9    568  3568
"""

# ..6..3....97..513..2..91.8........7.6.........41.....9...5..8.....3.47....4.16..5 where no chain of up to
# 12 nodes proves anything (its solution needs ALS or forcing).
NO_CHAIN_GRID = """
1458   158    6      2478   2478   3      2459   2459   247
48     9      7      2468   2468   5      1      3      246
345    2      35     467    9      1      456    8      467
23589  358    23589  12469  23456  289    23456  7      123468
6      3578   23589  12479  23457  2789   2345   1245   12348
23578  4      1      267    23567  278    2356   256    9
12379  1367   239    5      27     279    8      12469  12346
12589  1568   2589   3      28     4      7      1269   126
23789  378    4      2789   1      6      239    29     5
"""


def cand(name: str, digit: int) -> tuple[int, int]:
    """A (cell, digit) candidate from a cell name."""
    return parse_cell(name), digit


def cells(*named: str) -> set[int]:
    """Cells from their names."""
    return {parse_cell(n) for n in named}


def board_of(grid: str, remove: tuple[tuple[str, int], ...] = (), add: tuple[tuple[str, int], ...] = ()) -> Board:
    """A board from a candidate grid, with some candidates removed or added."""
    board = Board.from_pencilmarks(grid)
    for name, digit in remove:
        board.eliminate(parse_cell(name), digit)
    for name, digit in add:
        board.cands[parse_cell(name)] |= 1 << (digit - 1)
    return board


def test_x_chain_six_nodes() -> None:
    """9: r5c3 = r4c2 (box 4) - r4c8 (row 4) = r9c8 (column 8) - r9c6 (row 9) = r7c6 (column 6); r7c3 sees both ends."""
    board = board_of(X_CHAIN_GRID)
    steps = find_all("x_chain", board)
    assert_steps_valid(steps, solution_of(board))
    step = next(s for s in steps if s.eliminations == (cand("r7c3", 9),))
    assert step.length == 6
    assert set(step.cells) == cells("r5c3", "r4c2", "r4c8", "r9c8", "r9c6", "r7c6")
    assert step.text == "X-Chain on 9: r5c3 = r4c2 - r4c8 = r9c8 - r9c6 = r7c6, so one end is 9 and 9 leaves r7c3."


def test_x_chain_near_miss_nothing_sees_both_ends() -> None:
    """Without the 9 in r7c3 the same chain has no victim, and no other X-chain exists."""
    board = board_of(X_CHAIN_GRID, remove=(("r7c3", 9),))
    assert find_all("x_chain", board) == []


def test_xy_chain_four_cells() -> None:
    """(7=5)r4c9 - (5=8)r8c9 - (8=9)r8c1 - (9=7)r6c1: one end is 7, so 7 leaves r4c1, r6c8 and r6c9."""
    board = board_of(XY_CHAIN_GRID)
    steps = find_all("xy_chain", board)
    assert_steps_valid(steps, solution_of(board))
    expected = {cand("r4c1", 7), cand("r6c8", 7), cand("r6c9", 7)}
    step = next(s for s in steps if set(s.eliminations) == expected)
    assert step.length == 8
    assert set(step.cells) == cells("r4c9", "r8c9", "r8c1", "r6c1")


def test_xy_chain_near_miss_cell_not_bivalue() -> None:
    """With 2 back in r8c1 (2/8/9) the chain's third cell is no longer bivalue: no XY-chain at all."""
    board = board_of(XY_CHAIN_GRID, add=(("r8c1", 2),))
    assert find_all("xy_chain", board) == []


def test_nice_loop_aic_ends_on_different_digits() -> None:
    """(4)r8c4 = (4)r9c6 (box 8) - (4)r9c1 = (7)r9c1 - (7)r8c2 = (7)r8c9 (row 8): r8c9 sees the 4 end."""
    board = board_of(AIC_GRID)
    steps = find_all("nice_loop", board)
    assert_steps_valid(steps, solution_of(board))
    step = next(s for s in steps if s.eliminations == (cand("r8c9", 4),))
    assert step.length == 6
    assert set(step.cause) == {
        cand("r8c4", 4),
        cand("r9c6", 4),
        cand("r9c1", 4),
        cand("r9c1", 7),
        cand("r8c2", 7),
        cand("r8c9", 7),
    }
    assert find_all("x_chain", board) == [] and find_all("xy_chain", board) == []


def test_nice_loop_places_and_continuous_loop() -> None:
    """5 in rows 5 and 8 lies on columns 1 and 9 (a loop), and r4c4 = r4c8 - r5c9 = r8c9 - ... comes back true."""
    board = board_of(LOOP_GRID)
    steps = find_all("nice_loop", board)
    assert_steps_valid(steps, solution_of(board))
    loop = next(s for s in steps if set(s.eliminations) == {cand("r5c4", 5), cand("r8c2", 5), cand("r8c8", 5)})
    assert loop.length == 4 and "Continuous nice loop" in loop.text
    placing = next(s for s in steps if s.placements == (cand("r4c4", 5),))
    assert placing.length == 7 and "Discontinuous nice loop" in placing.text


def test_nice_loop_near_miss() -> None:
    """The grouped position: every chain there needs a group node, so plain nice loops find nothing."""
    assert find_all("nice_loop", board_of(GROUPED_GRID)) == []


def test_grouped_nice_loop_with_group_end() -> None:
    """8: r7c6 = r9c5 (box 8) - r6c5 = r6c3 (row 6) - r2c3 = r2c46 (row 2): r3c6 sees r7c6 and both group cells."""
    board = board_of(GROUPED_GRID)
    steps = find_all("grouped_nice_loop", board)
    assert_steps_valid(steps, solution_of(board))
    step = next(s for s in steps if s.eliminations == (cand("r3c6", 8),))
    assert step.length == 6
    assert "(8)r2c46" in step.text
    assert all(re.search(r"\)r(\d\d+c\d|\dc\d\d+)", s.text) for s in steps)  # each uses a group node


def test_grouped_nice_loop_near_miss() -> None:
    """A position where no chain of up to 12 nodes, grouped or not, proves anything."""
    board = board_of(NO_CHAIN_GRID)
    for technique_id in CHAIN_IDS:
        assert find_all(technique_id, board) == [], technique_id


def test_steps_are_shortest_first() -> None:
    """Steps come in order of chain length, so the solver takes the shortest chain first."""
    for grid in (AIC_GRID, LOOP_GRID, GROUPED_GRID):
        for technique_id in CHAIN_IDS:
            lengths = [s.length for s in find_all(technique_id, board_of(grid))]
            assert lengths == sorted(lengths)
            assert all(4 <= n <= 12 for n in lengths)


def test_board_is_not_changed() -> None:
    """Finders read the board and never write to it."""
    board = board_of(LOOP_GRID)
    before = (list(board.values), list(board.cands))
    for technique_id in CHAIN_IDS:
        find_all(technique_id, board)
    assert (board.values, board.cands) == before


def test_first_step_alone_is_the_first_of_all() -> None:
    """The solver takes only the first step: found on its own, it is the first of the whole list."""
    for grid in (X_CHAIN_GRID, XY_CHAIN_GRID, AIC_GRID, LOOP_GRID, GROUPED_GRID, NO_CHAIN_GRID):
        board = board_of(grid)
        for technique_id in CHAIN_IDS:
            steps = find_all(technique_id, board)
            assert next(technique(technique_id).find(board), None) == (steps[0] if steps else None)


@pytest.mark.corpus
def test_chains_valid_on_corpus_positions() -> None:
    """Along basic-family traces of hard puzzles, every chain step agrees with the solution."""
    puzzles = read_puzzles(corpus_file("magictour_top1465.txt"))[::73][:14]
    puzzles += read_puzzles(corpus_file("tdoku_forum_hardest_1905_11plus_even.txt"))[::997][:8]
    fired = valid_steps_along_basic_solves(puzzles, CHAIN_IDS)
    assert all(count >= 5 for count in fired.values()), fired
