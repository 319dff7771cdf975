"""Forcing chains and forcing nets, on hand-checked positions and along traces of hard corpus puzzles.

Each position is a real puzzle's candidate grid where singles, intersections and subsets are stuck; the
expected conclusions were followed by hand from the grid (the reasoning is written beside each test).
"""

from __future__ import annotations

import random

import pytest
from helpers.corpus import corpus_file, read_puzzles
from helpers.techniques import BASIC, assert_steps_valid, find_all, solution_of, valid_steps_along_basic_solves

from sudoku_engine import logic
from sudoku_engine.board import Board
from sudoku_engine.grid import UNITS, bit, digits_of, parse_cell
from sudoku_engine.techniques import forcing, nets, technique

FORCING_IDS = ("forcing_chain", "forcing_net")

# 97.3.6.428.5...1.9....5....2.7...3.4.1..2..8.4..738..1...9.5............1..847..3 after the basics.
CONTRADICTION_GRID = """
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

# 13..9..85.6.125.4..2.8.4.9....7.2.....2.4.5......8....48.....373.......6..6.7.4.. after the basics.
CELL_GRID = """
1    3    4    6    9    7    2    8    5
89   6    89   1    2    5    7    4    3
57   2    57   8    3    4    6    9    1
589  59   3589 7    16   2    389  16   4
6789 179  2    39   4    1369 5    167  89
679  4    1379 5    8    169  39   167  2
4    8    159  2    156  169  19   3    7
3    1579 1579 4    15   189  189  2    6
2    19   6    39   7    1389 4    5    89
"""

# .9...54...65.9..373......9.4..1.7....8.....7....8.6..1.5......664..8.21...92...5. after the basics.
UNIT_GRID = """
7    9    28   3    1    5    4    6    28
128  6    5    4    9    28   18   3    7
3    12   4    6    7    28   158  9    258
4    23   6    1    35   7    3589 28   3589
5    8    1    9    2    34   6    7    34
9    7    23   8    345  6    35   24   1
128  5    238  7    34   1349 389  48   6
6    4    7    5    8    39   2    1    39
18   13   9    2    6    134  7    5    348
"""

# 98.7..6..5...9..7...7..4...4...3.2....59...8......1..31...8...7.2....5....94...6. on its way to a solution,
# where no trial followed by singles alone proves anything.
NET_GRID = """
9      8      1234   7      25     235    6      12345  1245
5      1346   12346  12368  9      2368   1348   7      1248
236    136    7      123568 1256   4      1389   12359  12589
4      1679   168    568    3      5678   2      159    1569
2367   1367   5      9      2467   267    147    8      146
2678   679    268    2568   24567  1      479    459    3
1      3456   346    2356   8      23569  349    2349   7
3678   2      3468   136    167    3679   5      1349   1489
378    357    9      4      1257   2357   138    6      128
"""

# 98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6 on its way to a solution,
# where neither forcing chains nor forcing nets prove anything.
STUCK_GRID = """
9     8     124   7     135   123   6     1245  2345
7     5     126   1369  4     12369 2389  129   2389
1246  1246  3     1569  1569  8     2459  7     2459
5     1246  12468 1689  1689  7     2489  3     2489
1268  12367 9     4     13568 136   2578  256   2578
468   3467  4678  35689 2     369   1     4569  45789
3     2467  24678 689   6789  469   24579 2459  1
1246  9     12467 136   1367  5     2347  8     2347
148   147   5     2     13789 1349  3479  49    6
"""


def cand(name: str, digit: int) -> tuple[int, int]:
    """A (cell, digit) candidate from a cell name."""
    return parse_cell(name), digit


def test_forcing_chain_contradiction() -> None:
    """r4c8=5 leaves 5 in box 5 only at r5c4 and in column 9 only at r8c9; those clear 5 from r5c1 and r8c1,
    column 1's last two places, after two implications. Its length, the size of the net of the same premise (the
    rating's measure): r4c8=5 clears 5 from r6c8 and r9c8 (column 8), so 5 is row 6's only at r6c2 and row 9's only
    at r9c2, twice in column 2: 5 facts (the assumption, two removals, two placements)."""
    board = Board.from_pencilmarks(CONTRADICTION_GRID)
    steps = find_all("forcing_chain", board)
    assert_steps_valid(steps, solution_of(board))
    step = next(s for s in steps if s.eliminations == (cand("r4c8", 5),))
    assert step.length == 5
    assert step.text == (
        "Forcing chain (contradiction): if r4c8 were 5, singles would lead to no place left for 5 "
        "in column 1, so r4c8 is not 5."
    )


def test_forcing_chain_cell() -> None:
    """r3c3=5 makes r8c2 box 7's only 5; r3c3=7 makes r8c2 box 7's only 7: either way r8c2 is 5 or 7. Net size 9:
    the 5 branch takes 5 from r7c3 and r8c3 (column 3), places r8c2=5 and removes its 1 or 9 (5 facts); the 7
    branch takes 7 from r8c3, places r8c2=7 and removes the digit (4 facts)."""
    board = Board.from_pencilmarks(CELL_GRID)
    steps = find_all("forcing_chain", board)
    assert_steps_valid(steps, solution_of(board))
    for digit in (1, 9):
        step = next(s for s in steps if s.eliminations == (cand("r8c2", digit),))
        assert step.length == 9
        assert step.text == (f"Forcing chain: whether r3c3 is 5 or 7, {digit} leaves r8c2, so r8c2 is not {digit}.")
        assert step.cause == (cand("r3c3", 5), cand("r3c3", 7))


def test_forcing_chain_unit() -> None:
    """8 in row 9 is at r9c1 (then r1c3 is column 3's only 8) or r9c9 (then r1c3 is row 1's only 8). Net size 6:
    r9c1=8 clears 8 from r2c1 (column 1), leaving r1c3 box 1's only 8; r9c9=8 clears it from r1c9 (column 9),
    leaving r1c3 row 1's only 8: 3 facts each."""
    board = Board.from_pencilmarks(UNIT_GRID)
    steps = find_all("forcing_chain", board)
    assert_steps_valid(steps, solution_of(board))
    step = next(s for s in steps if s.placements == (cand("r1c3", 8),))
    assert step.length == 6
    assert step.text == ("Forcing chain: wherever 8 goes in row 9 (r9c1 or r9c9), r1c3 becomes 8, so r1c3 is 8.")
    assert step.units == (8,)


def test_forcing_chain_near_miss() -> None:
    """The net position: every trial followed by singles alone stays consistent and no two branches agree."""
    assert find_all("forcing_chain", Board.from_pencilmarks(NET_GRID)) == []


def test_forcing_net_contradiction() -> None:
    """r1c3=3: claiming 1 and 4 (row 1 into box 3), naked pairs 25 (row 1, box 2) and 16 (row 3) make r3c1 2;
    then 2 is hidden in row 2, column 3 and column 8, which clears column 4's last places for 2. Net size 18, the
    facts it rests on: r1c3=3 (1); it takes 3 from r1c6 and from r3c1, r3c2 (box 1) and its own 2 (4); r1c5 and
    r1c6 are then the naked pair 25 of row 1 and box 2, which takes 2 and 5 from r3c5 and 2 from r1c8, r2c4 and
    r3c4 (5); r3c2 16 and r3c5 16 are a naked pair of row 3, which takes 6 from r3c1 (1), so r3c1=2 (1); that takes
    2 from r3c8 and r2c3 (2), so 2 is column 8's only at r7c8 and column 3's only at r6c3 (2), which take it from
    r7c4 and r6c4 (2): column 4 has no place for 2."""
    board = Board.from_pencilmarks(NET_GRID)
    steps = find_all("forcing_net", board)
    assert_steps_valid(steps, solution_of(board))
    step = next(s for s in steps if s.eliminations == (cand("r1c3", 3),))
    assert step.length == 18
    assert "(contradiction): if r1c3 were 3" in step.text and "no place left for 2 in column 4" in step.text


def test_forcing_net_near_miss() -> None:
    """A position beyond both: no trial breaks and no cell or house agrees on anything."""
    board = Board.from_pencilmarks(STUCK_GRID)
    for technique_id in FORCING_IDS:
        assert find_all(technique_id, board) == [], technique_id


def test_steps_have_one_conclusion_each_and_leave_the_board_untouched() -> None:
    """Each step has one conclusion and its length is the size of its net; the board is left as it was."""
    for grid in (CONTRADICTION_GRID, CELL_GRID, UNIT_GRID, NET_GRID):
        board = Board.from_pencilmarks(grid)
        before = (list(board.values), list(board.cands))
        for level, technique_id in enumerate(FORCING_IDS):
            for s in find_all(technique_id, board):
                assert len(s.placements) + len(s.eliminations) == 1
                conclusion = s.placements[0] + (True,) if s.placements else s.eliminations[0] + (False,)
                contradiction = len(s.cause) == 1  # a cell or a house has two branches or more
                size = nets.forcing_size(board, s.cause, None if contradiction else conclusion, level)
                assert s.length == size or size is None
        assert (board.values, board.cands) == before


def test_first_step_alone_is_the_first_of_all() -> None:
    """The solver takes only the first step: found on its own (from part of the trials), it is the first of all."""
    for grid in (CONTRADICTION_GRID, CELL_GRID, UNIT_GRID, NET_GRID, STUCK_GRID):
        board = Board.from_pencilmarks(grid)
        for technique_id in FORCING_IDS:
            steps = find_all(technique_id, board)
            assert next(technique(technique_id).find(board), None) == (steps[0] if steps else None)


def plain_net_rules(cands: list[int], removed: dict[int, int]) -> list[tuple[int, int, int]]:
    """Pointing, claiming and naked pairs by a plain scan of every box-line and house, as a reference."""

    def latest(cells: list[int], digits: tuple[int, ...]) -> int:
        return max((removed.get((d - 1) * 81 + c, 0) for c in cells for d in digits), default=0)

    found: list[tuple[int, int, int]] = []
    for digit in range(1, 10):
        where = [c for c in range(81) if cands[c] >> (digit - 1) & 1]
        for box, line in ((b, u) for b in range(18, 27) for u in range(18) if set(UNITS[b]) & set(UNITS[u])):
            shared = [c for c in where if c in UNITS[box] and c in UNITS[line]]
            box_rest = [c for c in UNITS[box] if c not in UNITS[line]]
            line_rest = [c for c in UNITS[line] if c not in UNITS[box]]
            box_places = [c for c in box_rest if c in where]
            line_places = [c for c in line_rest if c in where]
            if shared and not box_places and line_places:
                found += [(c, digit, latest(box_rest, (digit,)) + 1) for c in line_places]
            if shared and not line_places and box_places:
                found += [(c, digit, latest(line_rest, (digit,)) + 1) for c in box_places]
    for cells in UNITS:
        seen: dict[int, int] = {}
        for cell in cells:
            mask = cands[cell]
            if len(digits_of(mask)) != 2:
                continue
            if mask not in seen:
                seen[mask] = cell
                continue
            pair = [seen[mask], cell]
            length = latest(pair, digits_of(0x1FF & ~mask)) + 1
            found += [(c, d, length) for c in cells if c not in pair for d in digits_of(cands[c] & mask)]
    return found


def test_net_rules_match_a_plain_scan() -> None:
    """The net rules worked out with shifts and masks find what a plain scan finds, in the same order."""
    rng = random.Random(20240607)
    fired = 0
    for _ in range(400):
        density = rng.uniform(0.1, 0.5)
        cands = [sum(bit(d) for d in range(1, 10) if rng.random() < density) for _ in range(81)]
        pairs = [bit(a) | bit(b) for a, b in (rng.sample(range(1, 10), 2) for _ in range(2))]
        cands = [rng.choice(pairs) if rng.random() < 0.3 else mask for mask in cands]  # many cells alike
        positions = [0] + [sum(1 << c for c in range(81) if cands[c] >> (d - 1) & 1) for d in range(1, 10)]
        removed = {index: rng.randint(1, 9) for index in range(729) if rng.random() < 0.2}
        expected = plain_net_rules(cands, removed)
        assert forcing._net_rules(cands, positions, removed) == expected
        fired += bool(expected)
    assert fired > 200


@pytest.mark.corpus
def test_first_step_alone_on_corpus_positions() -> None:
    """Along basic-family traces of hard puzzles, the first step found on its own is the first of all."""
    puzzles = read_puzzles(corpus_file("magictour_top1465.txt"))[::487][:3]
    for puzzle in puzzles:
        board = Board.from_grid(puzzle)
        for step in logic.solve(puzzle, allow=BASIC).steps:
            for technique_id in FORCING_IDS:
                steps = find_all(technique_id, board)
                assert next(technique(technique_id).find(board), None) == (steps[0] if steps else None)
            board.apply(step)


@pytest.mark.corpus
def test_forcing_valid_on_corpus_positions() -> None:
    """Along basic-family traces of hard puzzles, every forcing step agrees with the solution."""
    puzzles = read_puzzles(corpus_file("magictour_top1465.txt"))[::211][:3]
    puzzles += read_puzzles(corpus_file("tdoku_forum_hardest_1905_11plus_even.txt"))[::2999][:3]
    fired = valid_steps_along_basic_solves(puzzles, FORCING_IDS)
    assert all(count >= 5 for count in fired.values()), fired
