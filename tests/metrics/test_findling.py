"""Seed 001 (Findling): singles, first-cell guessing and chronological backtracking, and their counts."""

from __future__ import annotations

import pytest
from helpers.corpus import corpus_file, read_puzzles

from sudoku_engine.grid import PEERS, SINGLE_DIGIT, UNITS, Grid, InvalidPuzzle, bit, is_valid_solution, parse_values
from sudoku_engine.metrics.findling import findling
from sudoku_engine.solver import solve

# A solved grid used to build small hand-worked positions.
S = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def blank_digits(grid: str, digits: str) -> str:
    """The grid with every cell holding one of ``digits`` emptied."""
    return "".join("." if ch in digits else ch for ch in grid)


def test_solved_grid_needs_no_step() -> None:
    result = findling(S)
    assert (result.logic, result.guesses, result.backtracks, result.steps) == (0, 0, 0, 0)
    assert str(result.solution) == S and not result.capped


def test_one_single_away() -> None:
    # r5c5 emptied: its row, column and box each miss only 5, so its domain is {5}: one logic step, nothing else.
    puzzle = S[:40] + "." + S[41:]
    result = findling(puzzle)
    assert (result.logic, result.guesses, result.backtracks, result.steps) == (1, 0, 0, 1)
    assert str(result.solution) == S


def test_two_digit_pattern_needs_one_guess() -> None:
    # Every 1 and 2 of S emptied: each of the 18 cells has domain {1, 2} (its row, column and box miss exactly 1
    # and 2), so there is no single and the first empty cell, r1c8, is guessed with its smallest digit, 1 (its
    # value in S). The 18 cells are linked through shared rows, columns and boxes into one connected pattern
    # (r1c8-r1c9-r5c9-r5c2-r6c2-r6c5-r8c5-r8c1-r3c1-r3c6-r4c6-r4c8-r1c8, and r3c6-r2c4 in box 2 joins the
    # cycle r2c4-r2c3-r7c3-r7c7-r9c7-r9c4), so each placement leaves a peer with one digit: the other 17 cells
    # are all logic steps and nothing fails.
    result = findling(blank_digits(S, "12"))
    assert (result.logic, result.guesses, result.backtracks, result.steps) == (17, 1, 0, 18)
    assert str(result.solution) == S


def test_first_guess_takes_the_smallest_digit_even_when_another_solution_follows() -> None:
    # Every 2 and 9 of S emptied: again one pattern of bivalue cells {2, 9}; the first empty cell r1c7 holds 9 in
    # S but the guess takes 2, and swapping 2 and 9 in S is also a solution, so the search ends there.
    result = findling(blank_digits(S, "29"))
    assert (result.logic, result.guesses, result.backtracks) == (17, 1, 0)
    assert str(result.solution) == S.translate(str.maketrans("29", "92"))


def test_hidden_single_before_guessing() -> None:
    # The 2s, 4s and 8s of rows 1-3 emptied (9 cells). Domains: r2c8 = {4} and r3c5 = {4} (their columns miss
    # only 4): logic steps 1 and 2. Then r1c3 = {2,4,8} and six cells r1c6, r1c9, r2c3, r2c9, r3c3, r3c6 = {2,8}:
    # no naked single, but r1c3 is the only place for 4 in row 1, a hidden single: logic step 3. The six cells form
    # a cycle (row 1, column 9, row 2, column 3, row 3, column 6) on which 2 and 8 can be swapped: guess 1 is
    # r1c6 = 2, its smallest digit, and logic steps 4-8 go round the cycle: r1c9 = 8, r2c9 = 2, r2c3 = 8, r3c3 = 2,
    # r3c6 = 8, the solution with 2 and 8 swapped on the cycle.
    puzzle = "53.67.91.67.1953..19.3..567" + S[27:]
    result = findling(puzzle)
    assert (result.logic, result.guesses, result.backtracks, result.steps) == (8, 1, 0, 9)
    assert str(result.solution)[:27] == "534672918678195342192348567"
    assert str(result.solution)[27:] == S[27:]


def test_hand_worked_backtrack() -> None:
    # The 2s, 7s and 8s of rows 4-8 emptied: 15 cells. Columns 5, 6 and 3 miss one digit each:
    # r6c5 = 2, r7c6 = 7, r8c3 = 7 are logic steps 1-3. Left: r4c1 = {2,7,8}, r4c4 = r5c4 = r6c1 = r6c7 = {7,8},
    # r4c8 = r5c2 = r7c7 = r7c8 = r8c1 = r8c2 = {2,8}, r5c7 = {2,7,8}; every digit has two places in each unit, so
    # guess 1 is r4c1 = 2 (S has 8). Then r4c8, r5c2 and r8c1 become {8}; logic 4: r4c8 = 8 (r4c4 -> {7});
    # logic 5: r4c4 = 7 (r5c4 -> {8}); logic 6: r5c2 = 8 leaves r5c4 with no digit. Backtrack 1 restores the state
    # of guess 1 with r4c1 = {7,8}: guess 2 is r4c1 = 7 at once, and logic steps 7-17 fill the other 11 cells in
    # reading order of their singles (r4c4 = 8, r4c8 = 2, r5c4 = 7, r5c7 = 8, r5c2 = 2, r6c1 = 8, r6c7 = 7,
    # r7c7 = 2, r7c8 = 8, r8c1 = 2, r8c2 = 8). Iterative steps: 17 logic + guess 1 (guess 2 belongs to the backtrack).
    puzzle = S[:27] + ".59.614.34.6.53.91.139.4.5696153...4...419635" + S[72:]
    result = findling(puzzle)
    assert (result.logic, result.guesses, result.backtracks, result.steps) == (17, 2, 1, 18)
    assert result.solution is not None and is_valid_solution(parse_values(puzzle), result.solution.values)
    assert str(result.solution)[27:45] == "759861423426753891" and str(result.solution)[45:54] == "813924756"


def test_empty_grid_first_rows() -> None:
    # The paper: guessing the first digit of the first empty cell gives 123456789 and 456789123 as the first rows.
    result = findling("." * 81)
    assert result.solution is not None and not result.capped
    text = str(result.solution)
    assert text[:9] == "123456789" and text[9:18] == "456789123"
    assert is_valid_solution((0,) * 81, result.solution.values)
    assert result.guesses >= result.backtracks > 0


def famous(name: str) -> str:
    """A named puzzle of famous_hard_puzzles.tsv."""
    lines = corpus_file("famous_hard_puzzles.tsv").read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    for line in lines[1:]:
        fields = dict(zip(header, line.split("\t")))
        if fields["puzzle_name"] == name:
            return fields["puzzle"]
    raise LookupError(name)


def test_ai_escargot() -> None:
    puzzle = famous("AI Escargot")
    result = findling(puzzle)
    assert not result.capped and result.solution == solve(puzzle)
    assert result.backtracks > 0 and result.guesses >= result.backtracks
    assert result.logic + result.guesses > puzzle.count(".")  # backtracking undid placements


def reference(puzzle: str) -> tuple[int, int, int]:
    """The paper's loop written plainly (rescan every step): logic, guesses, backtracks."""
    values = list(parse_values(puzzle))
    domains = [0 if values[c] else 0x1FF & ~sum({bit(values[p]) for p in PEERS[c] if values[p]}) for c in range(81)]
    stack: list[tuple[list[int], list[int], int, int]] = []
    logic = guesses = backtracks = 0

    def put(cell: int, digit: int) -> None:
        values[cell] = digit
        domains[cell] = 0
        for peer in PEERS[cell]:
            domains[peer] &= ~bit(digit)

    def hidden(cell: int) -> int:
        """The smallest digit of the cell that no other cell of one of its units can take, or 0."""
        for digit in range(1, 10):
            if domains[cell] & bit(digit) and any(
                all(not domains[other] & bit(digit) for other in unit if other != cell)
                for unit in UNITS
                if cell in unit
            ):
                return digit
        return 0

    while 0 in values:
        empty = [c for c in range(81) if not values[c]]
        if any(not domains[c] for c in empty):
            while True:
                saved_values, saved_domains, cell, digit = stack.pop()
                backtracks += 1
                values[:], domains[:] = saved_values, saved_domains
                domains[cell] &= ~bit(digit)
                if domains[cell]:
                    break
            if domains[cell] in SINGLE_DIGIT:
                continue
            empty = [cell]
        else:
            naked = [c for c in empty if domains[c] in SINGLE_DIGIT]
            if naked:
                logic += 1
                put(naked[0], SINGLE_DIGIT[domains[naked[0]]])
                continue
            forced = [(c, hidden(c)) for c in empty if hidden(c)]
            if forced:
                logic += 1
                put(*forced[0])
                continue
        cell = empty[0]
        digit = SINGLE_DIGIT[domains[cell] & -domains[cell]]
        stack.append((values.copy(), domains.copy(), cell, digit))
        guesses += 1
        put(cell, digit)
    return logic, guesses, backtracks


def test_counts_match_a_plain_rescanning_loop() -> None:
    puzzles = read_puzzles(corpus_file("magictour_top1465.txt"))[40:400:80]
    puzzles.append(famous("AI Escargot"))
    for puzzle in puzzles:
        result = findling(puzzle)
        assert (result.logic, result.guesses, result.backtracks) == reference(puzzle), puzzle


def test_solutions_match_the_exact_solver() -> None:
    puzzles = read_puzzles(corpus_file("sudokuexchange_graded_even.tsv"))[::400]
    puzzles += read_puzzles(corpus_file("menneske_graded_even.tsv"))[::400]
    for puzzle in puzzles:
        result = findling(puzzle)
        assert result.solution == solve(puzzle), puzzle
        empties = puzzle.count(".")
        assert result.guesses >= result.backtracks
        assert result.logic <= result.steps <= result.logic + result.guesses
        if result.backtracks == 0:
            # every empty cell is placed exactly once, by logic or by a guess that is never undone
            assert result.logic + result.guesses == empties
        else:
            assert result.logic + result.guesses > empties


def test_cap_is_honoured_and_reported() -> None:
    # The two-digit pattern needs 18 placements; a cap of 5 stops the search after the guess and 4 logic steps.
    result = findling(blank_digits(S, "12"), cap=5)
    assert result.capped and result.solution is None
    assert result.logic + result.guesses == 5
    exact = findling(blank_digits(S, "12"), cap=18)
    assert not exact.capped and exact.solution is not None


def test_inputs_grid_text_and_values_agree() -> None:
    puzzle = blank_digits(S, "12")
    expected = findling(puzzle)
    assert findling(Grid.parse(puzzle)) == expected
    assert findling(list(parse_values(puzzle))) == expected


@pytest.mark.parametrize(
    "bad",
    [
        "123",  # too short
        "x" + "." * 80,  # not a digit
        "11" + "." * 79,  # two 1s in row 1
        "12345678." + "........9" + "." * 63,  # conflict-free, but r1c9 can take no digit
    ],
)
def test_bad_input_raises(bad: str) -> None:
    with pytest.raises(InvalidPuzzle):
        findling(bad)


def test_bad_cap_raises() -> None:
    with pytest.raises(ValueError):
        findling(S, cap=0)
