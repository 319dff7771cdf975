"""Seed 003 (Chen): r-Reduction, Inference and game complexity, against hand-worked cases and the exact solver."""

from __future__ import annotations

import math

import pytest
from helpers.corpus import corpus_file, read_puzzles

from sudoku_engine import logic, solver
from sudoku_engine.grid import ALL_CANDIDATES, bit, format_values, is_valid_solution, parse_values
from sudoku_engine.metrics import chen

EULER_01 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EULER_01_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
AI_ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
# Row 1 needs a 9 at r1c9, but column 9 already holds one: valid givens, no solution.
NO_SOLUTION = "12345678." + "........9" + "." * 63
# Naked and hidden singles and subsets up to quads reach every r-Reduction: a subset of more than four open
# cells of a house is the complement of a hidden subset of at most four (module docstring), so the logic
# solver restricted to these techniques is an independent route to the same fixpoint.
SUBSET_TECHNIQUES = {
    "full_house",
    "hidden_single_box",
    "hidden_single_line",
    "naked_single",
    "naked_pair",
    "naked_triple",
    "naked_quad",
    "hidden_pair",
    "hidden_triple",
    "hidden_quad",
}


def mask(digits: str) -> int:
    """The candidate mask of a string of digits."""
    return sum(bit(int(d)) for d in digits)


def spread(puzzles: list[str], count: int) -> list[str]:
    """``count`` puzzles taken evenly across a list (corpus files drift in difficulty from top to bottom)."""
    step = max(1, len(puzzles) // count)
    return puzzles[::step][:count]


def corpus_sample() -> list[str]:
    """A small sample across easy, 17-clue, graded and hardest puzzles."""
    return (
        spread(read_puzzles(corpus_file("tdoku_17clue_even.txt")), 60)
        + spread(read_puzzles(corpus_file("sudokuexchange_graded_even.tsv")), 40)
        + read_puzzles(corpus_file("forum_hardest_1106_rated.tsv"), 10)
        + read_puzzles(corpus_file("projecteuler96_easy50.txt"), 10)
    )


# ---- r-Reduction inside one section ------------------------------------------------------------------


def test_naked_pair_removes_exactly_its_two_digits_from_the_other_cells():
    # A and B hold only {1,2}: 2-Reduction takes 1 from C, 2 from D, 1 and 2 from E. After that no set of
    # k open cells has only k digits (C..I keep 3..9 spread over 7 cells, every smaller group has more), and
    # every digit 3..9 sits in several cells, so nothing else goes: 4 eliminations in all.
    section = [mask("12"), mask("12"), mask("134"), mask("256"), mask("12789")] + [mask("3456789")] * 4
    expected = [mask("12"), mask("12"), mask("34"), mask("56"), mask("789")] + [mask("3456789")] * 4
    assert chen.reduce_section(section) == tuple(expected)
    assert chen.reduce_section(section, max_r=2) == tuple(expected)
    assert chen.reduce_section(section, max_r=1) == tuple(section)  # no single: 1-Reduction alone does nothing


def test_hidden_pair_is_the_complementary_seven_reduction():
    # Digits 1 and 2 appear only in A and B. The other seven cells then hold only 3..9 between them: a
    # 7-Reduction (r = 9 - 2) strips 3..9 from A and B, leaving the pair. No group of C..I smaller than seven
    # has as few digits as cells (the tightest pairs have 4 digits, triples 5, quads 7), so with r <= 6 nothing
    # happens at all.
    section = [
        mask("1234"),
        mask("1256"),
        mask("345"),
        mask("456"),
        mask("678"),
        mask("789"),
        mask("389"),
        mask("3456789"),
        mask("3456789"),
    ]
    expected = [mask("12"), mask("12"), *section[2:]]
    assert chen.reduce_section(section) == tuple(expected)
    assert chen.reduce_section(section, max_r=7) == tuple(expected)
    assert chen.reduce_section(section, max_r=6) == tuple(section)


def test_hidden_single_is_an_eight_reduction_and_singles_then_propagate():
    # Digit 9 is only in A; the other eight cells share 1..8 exactly: 8-Reduction leaves A = {9}. Nothing
    # else: 1..8 each sit in at least two of the eight cells and no smaller group is closed.
    section = [mask("19")] + [mask("12345678")] * 8
    assert chen.reduce_section(section, max_r=7) == tuple(section)
    assert chen.reduce_section(section) == (bit(9), *[mask("12345678")] * 8)
    # A filled cell (one candidate) is the 1-Reduction: its digit leaves the rest, and a cell left with
    # one candidate is filled in turn (Definition 5): 5 leaves B = {5,7}, so B = {7}, and 7 leaves C.
    chained = [bit(5), mask("57"), mask("1237")] + [mask("12346789")] * 6
    reduced = chen.reduce_section(chained, max_r=1)
    assert reduced is not None
    assert reduced[:3] == (bit(5), bit(7), mask("123"))
    assert all(m == mask("1234689") for m in reduced[3:])


def test_section_contradictions_are_reported():
    # Three cells sharing two digits, two cells filled with the same digit, a cell with nothing left.
    assert chen.reduce_section([mask("12")] * 3 + [mask("3456789")] * 6) is None
    assert chen.reduce_section([bit(4), bit(4)] + [ALL_CANDIDATES] * 7) is None
    assert chen.reduce_section([0] + [ALL_CANDIDATES] * 8) is None


def test_bounds_on_r_and_the_section_size_are_checked():
    with pytest.raises(ValueError):
        chen.reduce_section([ALL_CANDIDATES] * 9, max_r=0)
    with pytest.raises(ValueError):
        chen.r_reduction(EULER_01, max_r=9)
    with pytest.raises(ValueError):
        chen.reduce_section([ALL_CANDIDATES] * 8)
    with pytest.raises(ValueError):
        chen.inference(EULER_01, cap=-1)


# ---- r-Reduction on whole puzzles ---------------------------------------------------------------------


def test_empty_grid_has_nothing_to_reduce():
    # Every section is nine cells with all nine digits: no group of r < 9 cells has only r digits.
    result = chen.r_reduction("." * 81)
    assert not result.solved and not result.contradiction
    assert result.eliminations == 0
    assert result.candidates == (ALL_CANDIDATES,) * 81


def test_published_puzzle_is_solved_by_r_reduction_to_its_published_solution():
    result = chen.r_reduction(EULER_01)
    assert result.solved and not result.contradiction
    assert format_values(result.values) == EULER_01_SOLUTION
    # From Definition 7 the 49 open cells hold 9 candidates each and end with 1: 49 * 8 removed.
    assert result.eliminations == 49 * 8


def test_puzzle_without_solution_ends_in_a_contradiction():
    result = chen.r_reduction(NO_SOLUTION)
    assert result.contradiction and not result.solved
    searched = chen.inference(NO_SOLUTION)
    assert not searched.solved and searched.solution is None and not searched.capped


def test_r_reduction_never_removes_the_true_digit():
    for puzzle in corpus_sample():
        solution = solver.solve(puzzle)
        assert solution is not None
        result = chen.r_reduction(puzzle)
        assert not result.contradiction, puzzle
        for cell, (candidates, digit) in enumerate(zip(result.candidates, solution.values)):
            assert candidates & bit(digit), f"{puzzle}: r-Reduction removed the true {digit} of cell {cell}"
        if result.solved:
            assert result.values == solution.values


def test_fixpoint_is_stable_and_shrinks_as_r_grows():
    for puzzle in spread(read_puzzles(corpus_file("tdoku_17clue_even.txt")), 25):
        previous = chen.r_reduction(puzzle, max_r=1).candidates
        for max_r in range(2, 9):
            current = chen.r_reduction(puzzle, max_r=max_r).candidates
            assert all(now & ~before == 0 for now, before in zip(current, previous))
            previous = current
        again = chen.reduce_candidates(previous)
        assert again.candidates == previous and again.eliminations == 0 and again.passes == 1


@pytest.mark.parametrize(("max_r", "allow"), [(8, SUBSET_TECHNIQUES), (1, {"naked_single"})])
def test_same_fixpoint_as_the_logic_solver_with_subsets_or_naked_singles(max_r, allow):
    puzzles = spread(read_puzzles(corpus_file("tdoku_17clue_even.txt")), 30) + spread(
        read_puzzles(corpus_file("sudokuexchange_graded_even.tsv")), 20
    )
    for puzzle in puzzles:
        board = logic.solve(puzzle, allow=allow).final
        assert board is not None
        theirs = tuple(bit(v) if v else c for v, c in zip(board.values, board.cands))
        assert chen.r_reduction(puzzle, max_r=max_r).candidates == theirs, puzzle


# ---- Inference ------------------------------------------------------------------------------------------


def unique_rectangle_puzzle() -> tuple[str, tuple[int, ...]]:
    """A solved grid with the four cells of a swappable rectangle blanked (two solutions), and the cells."""
    grid = [int(ch) for ch in EULER_01_SOLUTION]
    for r1 in range(9):
        for r2 in range(r1 + 1, (r1 // 3 + 1) * 3):  # same band: the swap keeps rows and boxes valid
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    if grid[r1 * 9 + c1] == grid[r2 * 9 + c2] and grid[r1 * 9 + c2] == grid[r2 * 9 + c1]:
                        cells = (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2)
                        holed = [0 if i in cells else v for i, v in enumerate(grid)]
                        return format_values(holed), cells
    raise AssertionError("no rectangle of swappable digits in the grid")


def test_two_solution_rectangle_needs_exactly_one_inference():
    # The four blank cells each hold the rectangle's two digits {a, b} and every other cell is given, so
    # r-Reduction can do nothing (two cells with two digits in each row or column: a naked pair, no more).
    # Whichever cell is picked, its lower digit is tried first and completes one of the two solutions by
    # 1-Reductions: exactly one inference, for every pick.
    puzzle, cells = unique_rectangle_puzzle()
    assert solver.count_solutions(puzzle, limit=3) == 2
    reduced = chen.r_reduction(puzzle)
    assert not reduced.solved and not reduced.contradiction
    pair = reduced.candidates[cells[0]]
    assert bin(pair).count("1") == 2 and all(reduced.candidates[c] == pair for c in cells)
    for pick, seed in [("fewest", 0), ("random", 0), ("random", 1), ("random", 7)]:
        result = chen.inference(puzzle, pick=pick, seed=seed)
        assert result.solved and result.inferences == 1 and not result.capped
        assert result.solution is not None and is_valid_solution(parse_values(puzzle), result.solution)


def test_a_refuted_assumption_counts_as_an_inference():
    # A 17-clue puzzle (row 300 of tdoku_17clue_even.txt) where r-Reduction stalls and the first cell with the
    # fewest candidates holds two digits, the lower one wrong. Checked below without the search: setting that
    # cell to the lower digit lets r-Reduction find a contradiction, the higher one solves the puzzle. So the
    # search makes two assumptions, the refuted one and the right one: two inferences.
    puzzle = ".................1..2..3.4......23...5...6...71......8....14..5....7......6...2.."
    solution = solver.solve(puzzle)
    assert solution is not None
    stalled = list(chen.r_reduction(puzzle).candidates)
    cell = min((c for c in range(81) if bin(stalled[c]).count("1") > 1), key=lambda c: bin(stalled[c]).count("1"))
    low, high = [d for d in range(1, 10) if stalled[cell] & bit(d)]
    assert solution.values[cell] == high
    assert chen.reduce_candidates([*stalled[:cell], bit(low), *stalled[cell + 1 :]]).contradiction
    assert chen.reduce_candidates([*stalled[:cell], bit(high), *stalled[cell + 1 :]]).solved
    result = chen.inference(puzzle, pick="fewest")
    assert result.solved and result.inferences == 2 and result.solution == solution.values


def test_r_reduction_alone_needs_no_inference():
    result = chen.inference(EULER_01)
    assert result.solved and result.inferences == 0
    assert format_values(result.solution or ()) == EULER_01_SOLUTION


@pytest.mark.parametrize("pick", ["random", "fewest"])
def test_inference_ends_at_the_solvers_solution(pick):
    hard = read_puzzles(corpus_file("forum_hardest_1106_rated.tsv"), 6)
    for puzzle in [AI_ESCARGOT, *hard, *spread(read_puzzles(corpus_file("tdoku_17clue_even.txt")), 40)]:
        expected = solver.solve(puzzle)
        assert expected is not None
        result = chen.inference(puzzle, pick=pick)
        assert result.solved and not result.capped
        assert result.solution == expected.values
        assert (result.inferences == 0) == chen.r_reduction(puzzle).solved


def test_ai_escargot_needs_inference_and_the_count_is_reproducible():
    reduced = chen.r_reduction(AI_ESCARGOT)
    assert not reduced.solved and not reduced.contradiction
    first = chen.inference(AI_ESCARGOT, seed=3)
    assert first == chen.inference(AI_ESCARGOT, seed=3)
    assert first.solved and first.inferences >= 1 and first.solution == solver.solve(AI_ESCARGOT).values


def test_cap_stops_the_search_and_is_reported():
    result = chen.inference(AI_ESCARGOT, cap=5)
    assert result.capped and not result.solved and result.inferences == 5 and result.solution is None
    assert chen.inference(AI_ESCARGOT, cap=0).capped
    measured = chen.measure(AI_ESCARGOT, cap=5)
    assert measured.capped and not measured.solved and measured.inferences == 5
    assert not chen.inference(EULER_01, cap=0).capped  # r-Reduction alone: no assumption needed


def test_measure_combines_the_three_results():
    easy = chen.measure(EULER_01)
    assert easy.solved and easy.inferences == 0 and not easy.capped
    assert easy.entropy == pytest.approx(chen.entropy(EULER_01))
    hard = chen.measure(AI_ESCARGOT, seed=3)
    assert not hard.solved and not hard.capped
    assert hard.inferences == chen.inference(AI_ESCARGOT, seed=3).inferences


# ---- Game complexity ------------------------------------------------------------------------------------


def test_entropy_of_the_empty_and_of_a_solved_grid():
    # Empty: every cell keeps nine candidates, log2 9 each. Solved: every cell is a given, log2 1 = 0.
    assert chen.entropy("." * 81) == pytest.approx(math.log2(9))
    assert chen.entropy(EULER_01_SOLUTION) == 0.0


def test_entropy_of_one_given():
    # A 5 at r1c1: its 20 peers keep 8 candidates, the other 60 open cells 9, the given counts 0.
    expected = (20 * math.log2(8) + 60 * math.log2(9)) / 81
    assert chen.entropy("5" + "." * 80) == pytest.approx(expected)


def test_entropy_takes_one_1_reduction_only():
    # Row 1 = 1..8 and a blank r1c9. Once each given leaves its peers: r1c9 = {9} (log 1 = 0); rows 2-3 of
    # boxes 1 and 2 lose three digits (6 left, 12 cells), of box 3 lose 7 and 8 (7 left, 6 cells); rows 4-9
    # lose their column's given in columns 1-8 (8 left, 48 cells) and nothing in column 9 (9 left, 6 cells).
    # The new single 9 at r1c9 is not propagated further: that would be a second 1-reduction.
    puzzle = "12345678." + "." * 72
    expected = (12 * math.log2(6) + 6 * math.log2(7) + 48 * math.log2(8) + 6 * math.log2(9)) / 81
    assert chen.entropy(puzzle) == pytest.approx(expected)


def test_entropy_counts_a_cell_left_empty_as_zero():
    # Row 1 = ., 1..8 and r2c1 = 9: r1c1 sees 1..8 in its row and 9 in its box, no candidate, and counts 0
    # like the nine givens. Box 1's five other open cells lose 1, 2, 9 (6 left). Row 2 of boxes 2 and 3 loses
    # that box's three row-1 digits and the 9 (5 left, 6 cells); row 3 of boxes 2 and 3 only the three (6 left,
    # 6 cells). Rows 4-9 lose their column's one given (8 left, 54 cells).
    puzzle = ".12345678" + "9" + "." * 71
    expected = (11 * math.log2(6) + 6 * math.log2(5) + 54 * math.log2(8)) / 81
    assert chen.entropy(puzzle) == pytest.approx(expected)
    assert chen.r_reduction(puzzle).contradiction


def test_entropy_of_17_clue_puzzles_lies_in_the_papers_hard_range():
    # The paper's 10,000 17-clue puzzles span [1.6946, 1.8189]; the whole list here spans a hair wider.
    values = [chen.entropy(p) for p in spread(read_puzzles(corpus_file("tdoku_17clue_even.txt")), 300)]
    assert min(values) > 1.68 and max(values) < 1.83
    assert 1.74 < sum(values) / len(values) < 1.77
