"""Almost locked sets: ALS-XZ, ALS-XY-Wing, ALS chains and Sue de Coq on hand-checked positions and a corpus sample.

The published positions are HoDoKu's technique examples (pencil marks as shown there); the expected eliminations
were worked out by hand from the sets named in each test. The small positions are a solved grid with a few cells
reopened and pencil-marked as a player might, wider than the placed digits allow but always keeping the true digit.
"""

from __future__ import annotations

import csv
from itertools import combinations

import pytest
from helpers.corpus import corpus_file, read_puzzles
from helpers.techniques import (
    assert_steps_valid,
    eliminations_of,
    find_all,
    solution_of,
    valid_steps_along_basic_solves,
)

from sudoku_engine.board import Board, Step
from sudoku_engine.grid import UNITS, bit, parse_cell
from sudoku_engine.techniques import als

ALS_IDS = ("als_xz", "als_xy_wing", "als_chain", "sue_de_coq")

SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"

# HoDoKu, ALS-XZ example 2
ALS_XZ = """
158   9     3     4    12    7      258    6      28
4     68    168   38   12    5      9      237    278
58    2     7     6    39    389    358    4      1
378   3678  468   39   3469  123469 1236   1239   5
9     1     46    5    346   2346   2367   8      2467
2     356   456   7    8     13469  136    139    469
6     378   189   2    5     389    4      179    789
1378  4     12589 389  3679  3689   12678  12579  26789
78    578   2589  1    4679  4689   2678   2579   3
"""

# HoDoKu, Doubly Linked ALS-XZ example
DOUBLY_LINKED = """
24579    12579  14579  2468  24789  2489   45679  3   5679
6        279    479    5     23479  2349   1      8   79
4579     8      3      46    1      49     45679  2   5679
1248     12     14     9     5      7      3      46  168
134578   6      157    148   348    1348   578    9   2
1345789  13579  14579  28    2368   123468 578    47  1578
37       37     6      18    89     189    2      5   4
59       4      8      7     26     256    69     1   3
159      159    2      3     46     456    6789   67  6789
"""

# HoDoKu, ALS-XY-Wing example
ALS_XY_WING = """
4      125   6    25   39    359  12358  7    12589
89     258   3589 257  379   1    4      6    259
179    1257  359  6    8     4    1235   239  1259
2      3     589  57   1679  569  178    4    167
16789  1567  589  3    4     569  1278   28   1267
167    1467  147  8    167   2    9      5    3
678    9     14   14   36    368  23578  238  2578
3      48    2    49   5     7    6      1    89
5      1678  17   19   2     368  378    389  4
"""

# HoDoKu, Sue de Coq (extended variant) example
SUE_DE_COQ = """
3  2     4   8  6    1   5     9      7
6  5     7   9  4    3   8     2      1
9  1     8   5  2    7   3     6      4
2  6789  1   4  3    589 79    578    5689
5  789   3   2  18   6   1479  478    89
4  689   69  7  158  589 129   358    235689
1  349   259 6  58   258 2479  34578  23589
8  39    259 1  7    4   6     35     2359
7  46    256 3  9    258 24    1      258
"""

# The 17-clue puzzle .................1..2..3..4....1..3.....5......62...7..1...4...3....862.5........ where
# singles, intersections and subsets get stuck
ALS_CHAIN = """
69  8   5   7   4   1   23  69  23
67  4   3   9   2   5   78  68  1
1   79  2   6   8   3   79  5   4
8   2   79  4   1   67  5   3   69
79  3   1   8   5   67  29  4   269
4   5   6   2   3   9   1   7   8
2   1   79  5   6   4   389 89  379
3   79  4   1   79  8   6   2   5
5   6   8   3   79  2   4   1   79
"""


def _cand(name: str, digit: int) -> tuple[int, int]:
    """A candidate written as a cell name and digit."""
    return parse_cell(name), digit


def _reopened(marks: dict[str, str]) -> Board:
    """The solved grid with the named cells open again, pencil-marked with the given digits."""
    values = [int(ch) for ch in SOLVED]
    cands = [0] * 81
    for name, digits in marks.items():
        cell = parse_cell(name)
        assert str(values[cell]) in digits, f"{name} must keep its true digit"
        values[cell] = 0
        cands[cell] = sum(bit(int(d)) for d in digits)
    return Board(values, cands)


def _checked(technique_id: str, board: Board) -> list[Step]:
    """Every step of a technique on the board, each judged against the solution, the board left untouched."""
    before = board.pencilmarks()
    steps = find_all(technique_id, board)
    assert_steps_valid(steps, solution_of(board))
    assert board.pencilmarks() == before
    for step in steps:
        assert step.technique == technique_id and step.eliminations and step.text
    return steps


def _with_eliminations(steps: list[Step], expected: set[tuple[int, int]]) -> Step:
    """The step that removes exactly the expected candidates."""
    matching = [s for s in steps if set(s.eliminations) == expected]
    assert matching, f"no step removes exactly {sorted(expected)}"
    return matching[0]


def test_als_xz_hodoku_example() -> None:
    # A = r4c3, r5c3, r6c2, r6c3 (3/4/5/6/8) in box 4 and B = r7c2, r9c1 (3/7/8) in box 7: their only 3s, r6c2
    # and r7c2, share column 2, so 3 is restricted; the 8s r4c3, r7c2 and r9c1 are all seen by r7c3, r8c3, r9c3.
    steps = _checked("als_xz", Board.from_pencilmarks(ALS_XZ))
    expected = {_cand("r7c3", 8), _cand("r8c3", 8), _cand("r9c3", 8)}
    step = _with_eliminations(steps, expected)
    assert set(step.cells) == {parse_cell(n) for n in ("r4c3", "r5c3", "r6c2", "r6c3", "r7c2", "r9c1")}
    assert "linked by 3" in step.text and "8 leaves r7c3, r8c3 and r9c3" in step.text


def test_als_xz_doubly_linked_hodoku_example() -> None:
    # A = r2c2, r2c3, r2c9 (2/4/7/9) and B = r4c2, r4c3 (1/2/4) are linked by 2 (column 2) and by 4 (column 3):
    # 2 and 4 each sit once in A and B, 7 and 9 are locked in A (row 2) and 1 in B (row 4 and box 4).
    steps = _checked("als_xz", Board.from_pencilmarks(DOUBLY_LINKED))
    expected = {
        _cand("r1c2", 2),
        _cand("r1c3", 4),
        _cand("r6c3", 4),
        _cand("r2c5", 7),
        _cand("r2c5", 9),
        _cand("r2c6", 9),
        *(_cand(name, 1) for name in ("r4c1", "r4c9", "r5c1", "r5c3", "r6c1", "r6c2", "r6c3")),
    }
    step = _with_eliminations(steps, expected)
    assert "doubly linked" in step.text


def test_als_xz_needs_a_restricted_common() -> None:
    # {r1c1} (4/9) and {r2c5, r2c8} (2/4/9) share 4 and 9 and r2c1 sees every 9 of both, but r1c1 sees neither
    # r2c5 nor r2c8, so neither digit is restricted; the only link, 9 between r2c5 and r2c8, has no second digit.
    board = _reopened({"r1c1": "49", "r2c1": "159", "r2c5": "49", "r2c8": "29"})
    assert _checked("als_xz", board) == []


def test_als_xy_wing_hodoku_example() -> None:
    # Pivot C = r9c3, r9c4 (1/7/9) is linked to A = r7c1, r7c5, r7c6 (3/6/7/8) by 7 (r9c3 sees r7c1 in box 7) and
    # to B = r5c8, r7c8, r9c8 (2/3/8/9) by 9 (row 9); the 3s of A (r7c5, r7c6) and B (r7c8, r9c8) are all seen by
    # r7c7 only.
    steps = _checked("als_xy_wing", Board.from_pencilmarks(ALS_XY_WING))
    _with_eliminations(steps, {_cand("r7c7", 3)})


def test_als_xy_wing_needs_two_different_links() -> None:
    # Pivot r5c5 (1/6) sees wings r5c1 (1/7) and r3c5 (1/7) through the same digit 1, so nothing forces a 7 into
    # a wing and r3c1 keeps its 7; the two-cell sets in row 5 and column 5 have no link to the far wing.
    board = _reopened({"r5c5": "16", "r5c1": "17", "r3c5": "17", "r3c1": "278"})
    assert _checked("als_xy_wing", board) == []


def test_als_chain_on_a_stuck_17_clue_position() -> None:
    # r7c3 (7/9) -7- r4c3 (7/9) -9- {r2c1, r5c1} (6/7/9) -6- {r2c8, r7c8} (6/8/9): without a 9 in r7c3 it is 7,
    # r4c3 is 9, column 1's set is 6/7 with r2c1 = 6, so column 8's set is 8/9 with r7c8 = 9. Either end holds 9
    # in row 7, so r7c7 and r7c9 lose 9; no pair or triple of sets shows this on its own.
    board = Board.from_pencilmarks(ALS_CHAIN)
    step = _with_eliminations(_checked("als_chain", board), {_cand("r7c7", 9), _cand("r7c9", 9)})
    assert step.length == 4 and "ALS chain" in step.text
    for shorter in ("als_xz", "als_xy_wing"):
        assert not eliminations_of(find_all(shorter, board)) & set(step.eliminations)


def test_als_chain_needs_z_off_the_last_link() -> None:
    # r1c1 (2/4) -2- r1c5 (2/6) -6- r5c5 (4/6) -4- r5c8 (3/4): the ends share 4, but the last link is 4 itself,
    # so r1c8, which sees both ends, keeps its 4 (every link of r5c8 is a 4).
    board = _reopened({"r1c1": "24", "r1c5": "26", "r5c5": "46", "r5c8": "34", "r1c8": "145"})
    for technique_id in ("als_chain", "als_xz", "als_xy_wing"):
        assert _checked(technique_id, board) == []


def test_sue_de_coq_hodoku_example() -> None:
    # r4c8, r6c8 (3/5/7/8) in column 8 and box 6, with r8c8 (3/5) in column 8 and r4c7, r5c9 (7/8/9) in box 6:
    # five cells, five digits, so 3/5 leave the rest of column 8 and 7/8/9 the rest of box 6.
    steps = _checked("sue_de_coq", Board.from_pencilmarks(SUE_DE_COQ))
    expected = {
        _cand("r7c8", 3),
        _cand("r7c8", 5),
        _cand("r4c9", 8),
        _cand("r4c9", 9),
        _cand("r5c7", 7),
        _cand("r5c7", 9),
        _cand("r5c8", 7),
        _cand("r5c8", 8),
        _cand("r6c7", 9),
        _cand("r6c9", 8),
        _cand("r6c9", 9),
    }
    _with_eliminations(steps, expected)


def test_sue_de_coq_with_bivalue_companions() -> None:
    # r1c1, r1c2 (1/4/6/8) in row 1 and box 1, r1c7 (4/6) in row 1, r3c3 (1/8) in box 1: 4/6 stay in row 1 and
    # 1/8 in box 1, so r2c3 loses 1.
    board = _reopened({"r1c1": "146", "r1c2": "168", "r1c7": "46", "r3c3": "18", "r2c3": "147"})
    steps = _checked("sue_de_coq", board)
    assert [set(s.eliminations) for s in steps] == [{_cand("r2c3", 1)}]


def test_sue_de_coq_needs_disjoint_companions() -> None:
    # As above but r3c3 holds 1/4: the row cell (4/6) and the box cell (1/4) share 4, so the count proves nothing.
    board = _reopened({"r1c1": "146", "r1c2": "168", "r1c7": "46", "r3c3": "14", "r2c3": "147"})
    assert _checked("sue_de_coq", board) == []


def test_repeated_searches_give_the_same_steps() -> None:
    # the sets and links of a position are kept for the next finder: no search may change what it shares
    board = Board.from_pencilmarks(ALS_CHAIN)
    first = {technique_id: find_all(technique_id, board) for technique_id in ALS_IDS}
    again = {technique_id: find_all(technique_id, board) for technique_id in reversed(ALS_IDS)}
    assert first == again
    assert first["als_chain"]


def _reference_numbering(board: Board) -> tuple[list[int], list[int], list[list[int]]]:
    """Every ALS by brute force, house by house and lexicographically inside a house, numbered where first found:
    cell masks, digits and per house the sorted numbers of its sets."""
    numbers: dict[int, int] = {}
    masks: list[int] = []
    digits: list[int] = []
    in_unit: list[list[int]] = []
    for cells in UNITS:
        open_cells = [c for c in cells if not board.values[c] and board.cands[c]]
        found = []
        for size in range(1, als.MAX_ALS_CELLS + 1):
            for chosen in combinations(range(len(open_cells)), size):
                union = 0
                for i in chosen:
                    union |= board.cands[open_cells[i]]
                if bin(union).count("1") == size + 1:
                    found.append((chosen, sum(1 << open_cells[i] for i in chosen), union))
        members = []
        for _, mask, union in sorted(found):
            if mask not in numbers:
                numbers[mask] = len(masks)
                masks.append(mask)
                digits.append(union)
            members.append(numbers[mask])
        in_unit.append(sorted(members))
    return masks, digits, in_unit


def test_sets_are_numbered_in_the_first_house_that_holds_them() -> None:
    boards = [Board.from_pencilmarks(text) for text in (ALS_XZ, DOUBLY_LINKED, ALS_XY_WING, ALS_CHAIN)]
    boards += [Board.from_grid(puzzle) for puzzle in _corpus_sample()]
    for board in boards:
        index = als._index(board)
        masks, digits, in_unit = _reference_numbering(board)
        assert list(index.masks) == masks
        assert list(index.digits) == digits
        assert [list(members) for members in index.in_unit] == in_unit


def _corpus_sample() -> list[str]:
    """Hard puzzles: the first of magictour top1465 and Sudoku Exchange puzzles rated 7.0 or more."""
    puzzles = read_puzzles(corpus_file("magictour_top1465.txt"), 4)
    with corpus_file("sudokuexchange_graded_even.tsv").open(encoding="utf-8") as stream:
        rows = [row for row in csv.DictReader(stream, delimiter="\t") if row["se_rating"]]
    puzzles += [row["puzzle"] for row in rows if float(row["se_rating"]) >= 7.0][:4]
    return puzzles


@pytest.mark.corpus
def test_every_step_on_basic_traces_is_valid() -> None:
    fired = valid_steps_along_basic_solves(_corpus_sample(), ALS_IDS)
    assert all(fired[t] >= 3 for t in ALS_IDS), fired
